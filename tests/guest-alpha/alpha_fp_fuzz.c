/*
 * alpha_fp_fuzz.c - Alpha differential test: the software-completion (/S)
 * forms of alpha_fp_grid.c on pseudo-random operands instead of a fixed
 * grid.  Exponents are drawn mostly from the edges (denormal, smallest and
 * largest normal, infinity/NaN, around 1 and 2^63) and fractions from
 * all-zero, all-one, single-bit and random patterns, so that rounding,
 * overflow, underflow and NaN selection are hit often; S operations also
 * get raw T patterns (non-canonical singles).  Prints a hash per
 * form and dynamic rounding mode.  Reference: qemu-alpha (dynamic build).
 */
#define main grid_main
#include "alpha_fp_grid.c"
#undef main

#define FRAC52 0x000fffffffffffffull

static u64 rng = 0x853c49e6748fea9bull;
static u64 next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static u64 random_t(void)
{
    static const unsigned exps[] = { 0, 0, 1, 2, 0x7fe, 0x7fd, 0x7ff, 0x7ff, 0x3ff, 0x3fe,
                                     0x43e, 0x43d, 0x381, 0x380, 0x36a, 0x47e };
    u64 r = next(), sign = r >> 63, frac;
    unsigned exp = (r & 1) ? exps[(r >> 1) % 16] : (unsigned)((r >> 8) % 0x7ff);
    switch ((r >> 40) % 5) {
    case 0:  frac = 0; break;
    case 1:  frac = FRAC52; break;
    case 2:  frac = 1ull << (next() % 52); break;
    case 3:  frac = next() & FRAC52 & ~((1ull << 29) - 1); break;   /* single-exact */
    default: frac = next() & FRAC52; break;
    }
    return sign << 63 | (u64)exp << 52 | frac;
}

int main(void)
{
    enum { N = 48 };
    u64 v[N];
    for (unsigned k = 0; k < N; k++) v[k] = random_t();
    for (int dyn = 0; dyn < 4; dyn++) {
        for (unsigned k = 0; k < sizeof bins_s / sizeof bins_s[0]; k++) {
            run_bins(bins_s[k].name, bins_s[k].fn, v, N, is_single(bins_s[k].name), dyn);
            /* S operations on registers that do not hold canonical singles:
             * the Handbook leaves the result UNPREDICTABLE, qemu (and
             * hps-sim) take bits 63:62 and 58:29 */
            if (is_single(bins_s[k].name)) run_bins(bins_s[k].name, bins_s[k].fn, v, N, 0, dyn);
        }
        for (unsigned k = 0; k < sizeof uns / sizeof uns[0]; k++) {
            if (uns[k].kind == 1) continue;
            bool single = uns[k].kind == 0 && is_single(uns[k].name);
            run_uns(uns[k].name, uns[k].fn, v, N, single, dyn);
            if (single) run_uns(uns[k].name, uns[k].fn, v, N, 0, dyn);
        }
    }
    fpcr_set(FPCR_INIT);
    return 0;
}
