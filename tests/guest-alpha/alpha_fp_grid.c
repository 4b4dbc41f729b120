/*
 * alpha_fp_grid.c - Alpha differential test: every IEEE operate in every legal
 * combination of rounding qualifier (/C, /M, normal, /D under each dynamic
 * mode) and trap qualifier, applied to a grid of awkward operands (zeros,
 * denormals, the edges of the normal range, infinities, quiet and
 * signaling NaNs, integers beyond 2^53 and 2^63).  For each form a hash of
 * the raw result registers and of the FPCR status after each operation is
 * printed.  Forms without /S trap on non-finite or denormal operands and on
 * unignored exceptions, so they get a grid of safe finite operands.
 * Reference: qemu-alpha (dynamically linked build).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

typedef uint64_t u64;
static double D(u64 b) { double d; memcpy(&d, &b, 8); return d; }
static u64 B(double d) { u64 b; memcpy(&b, &d, 8); return b; }

#define FPCR_INIT 0x680e800000000000ull

static void fpcr_set(u64 v) { __asm__ volatile("excb\n\tmt_fpcr %0\n\texcb" : : "f"(D(v))); }
static u64 fpcr_get(void)
{
    double f;
    __asm__ volatile("excb\n\tmf_fpcr %0\n\texcb" : "=f"(f));
    return B(f);
}

/* ---- the forms -------------------------------------------------------------- */
typedef double (*bin_fn)(double, double);
typedef double (*un_fn)(double);

#define BIN(id, insn) static double id(double a, double b) { double r; \
    __asm__ volatile(insn " %1,%2,%0\n\ttrapb" : "=&f"(r) : "f"(a), "f"(b)); return r; }
#define UN(id, insn) static double id(double b) { double r; \
    __asm__ volatile(".arch ev6\n\t" insn " %1,%0\n\ttrapb" : "=&f"(r) : "f"(b)); return r; }

/* arithmetic x trap {su, sui} x rounding {c, m, normal, d} */
#define ARITH(op) \
    BIN(op##_suc, #op "/suc") BIN(op##_sum, #op "/sum") BIN(op##_su, #op "/su") \
    BIN(op##_sud, #op "/sud") BIN(op##_suic, #op "/suic") BIN(op##_suim, #op "/suim") \
    BIN(op##_sui, #op "/sui") BIN(op##_suid, #op "/suid")
ARITH(adds) ARITH(subs) ARITH(muls) ARITH(divs) ARITH(addt) ARITH(subt) ARITH(mult) ARITH(divt)
BIN(cmpteq_su, "cmpteq/su") BIN(cmptlt_su, "cmptlt/su") BIN(cmptle_su, "cmptle/su")
BIN(cmptun_su, "cmptun/su")
/* the forms without /S, and with /U only */
#define PLAIN(op) BIN(op##_c, #op "/c") BIN(op##_m, #op "/m") BIN(op##_n, #op) BIN(op##_d, #op "/d") \
    BIN(op##_uc, #op "/uc") BIN(op##_u, #op "/u")
PLAIN(adds) PLAIN(subs) PLAIN(muls) PLAIN(divs) PLAIN(addt) PLAIN(subt) PLAIN(mult) PLAIN(divt)
BIN(cmpteq_n, "cmpteq") BIN(cmptlt_n, "cmptlt") BIN(cmptle_n, "cmptle") BIN(cmptun_n, "cmptun")

#define UNARY_SU(op) \
    UN(op##_suc, #op "/suc") UN(op##_sum, #op "/sum") UN(op##_su, #op "/su") \
    UN(op##_sud, #op "/sud") UN(op##_suic, #op "/suic") UN(op##_sui, #op "/sui") \
    UN(op##_suid, #op "/suid")
UNARY_SU(sqrtt) UNARY_SU(sqrts) UNARY_SU(cvtts)
UN(cvttq_svc, "cvttq/svc") UN(cvttq_svm, "cvttq/svm") UN(cvttq_sv, "cvttq/sv")
UN(cvttq_svd, "cvttq/svd") UN(cvttq_svic, "cvttq/svic") UN(cvttq_svi, "cvttq/svi")
UN(cvttq_svid, "cvttq/svid") UN(cvtst_s, "cvtst/s")
UN(cvttq_c, "cvttq/c") UN(cvttq_n, "cvttq") UN(cvttq_m, "cvttq/m") UN(cvttq_d, "cvttq/d")
UN(sqrtt_c, "sqrtt/c") UN(sqrtt_n, "sqrtt") UN(sqrtt_d, "sqrtt/d")
UN(cvtts_c, "cvtts/c") UN(cvtts_n, "cvtts") UN(cvtts_d, "cvtts/d") UN(cvtst_n, "cvtst")
/* integer operands: any bit pattern is valid, every form is safe */
UN(cvtqt_c, "cvtqt/c") UN(cvtqt_m, "cvtqt/m") UN(cvtqt_n, "cvtqt") UN(cvtqt_d, "cvtqt/d")
UN(cvtqt_suic, "cvtqt/suic") UN(cvtqt_suim, "cvtqt/suim") UN(cvtqt_sui, "cvtqt/sui")
UN(cvtqt_suid, "cvtqt/suid")
UN(cvtqs_c, "cvtqs/c") UN(cvtqs_m, "cvtqs/m") UN(cvtqs_n, "cvtqs") UN(cvtqs_d, "cvtqs/d")
UN(cvtqs_suic, "cvtqs/suic") UN(cvtqs_sui, "cvtqs/sui") UN(cvtqs_suid, "cvtqs/suid")
UN(cvtql_n, "cvtql") UN(cvtql_sv, "cvtql/sv") UN(cvtlq_n, "cvtlq")

#define E(id) { #id, id }
static const struct { const char *name; bin_fn fn; } bins_s[] = {
#define ARITH_ROWS(op) E(op##_suc), E(op##_sum), E(op##_su), E(op##_sud), \
                       E(op##_suic), E(op##_suim), E(op##_sui), E(op##_suid)
    ARITH_ROWS(adds), ARITH_ROWS(subs), ARITH_ROWS(muls), ARITH_ROWS(divs),
    ARITH_ROWS(addt), ARITH_ROWS(subt), ARITH_ROWS(mult), ARITH_ROWS(divt),
    E(cmpteq_su), E(cmptlt_su), E(cmptle_su), E(cmptun_su),
}, bins_plain[] = {
#define PLAIN_ROWS(op) E(op##_c), E(op##_m), E(op##_n), E(op##_d), E(op##_uc), E(op##_u)
    PLAIN_ROWS(adds), PLAIN_ROWS(subs), PLAIN_ROWS(muls), PLAIN_ROWS(divs),
    PLAIN_ROWS(addt), PLAIN_ROWS(subt), PLAIN_ROWS(mult), PLAIN_ROWS(divt),
    E(cmpteq_n), E(cmptlt_n), E(cmptle_n), E(cmptun_n),
};
static const struct { const char *name; un_fn fn; int kind; } uns[] = {
    /* kind: 0 FP operand with /S, 1 FP operand without /S, 2 integer operand */
#define UN_ROWS(op) { #op "_suc", op##_suc, 0 }, { #op "_sum", op##_sum, 0 }, \
    { #op "_su", op##_su, 0 }, { #op "_sud", op##_sud, 0 }, { #op "_suic", op##_suic, 0 }, \
    { #op "_sui", op##_sui, 0 }, { #op "_suid", op##_suid, 0 }
    UN_ROWS(sqrtt), UN_ROWS(sqrts), UN_ROWS(cvtts),
    { "cvttq_svc", cvttq_svc, 0 }, { "cvttq_svm", cvttq_svm, 0 }, { "cvttq_sv", cvttq_sv, 0 },
    { "cvttq_svd", cvttq_svd, 0 }, { "cvttq_svic", cvttq_svic, 0 }, { "cvttq_svi", cvttq_svi, 0 },
    { "cvttq_svid", cvttq_svid, 0 }, { "cvtst_s", cvtst_s, 0 },
    { "cvttq_c", cvttq_c, 1 }, { "cvttq_n", cvttq_n, 1 }, { "cvttq_m", cvttq_m, 1 },
    { "cvttq_d", cvttq_d, 1 }, { "sqrtt_c", sqrtt_c, 1 }, { "sqrtt_n", sqrtt_n, 1 },
    { "sqrtt_d", sqrtt_d, 1 }, { "cvtts_c", cvtts_c, 1 }, { "cvtts_n", cvtts_n, 1 },
    { "cvtts_d", cvtts_d, 1 }, { "cvtst_n", cvtst_n, 1 },
    { "cvtqt_c", cvtqt_c, 2 }, { "cvtqt_m", cvtqt_m, 2 }, { "cvtqt_n", cvtqt_n, 2 },
    { "cvtqt_d", cvtqt_d, 2 }, { "cvtqt_suic", cvtqt_suic, 2 }, { "cvtqt_suim", cvtqt_suim, 2 },
    { "cvtqt_sui", cvtqt_sui, 2 }, { "cvtqt_suid", cvtqt_suid, 2 },
    { "cvtqs_c", cvtqs_c, 2 }, { "cvtqs_m", cvtqs_m, 2 }, { "cvtqs_n", cvtqs_n, 2 },
    { "cvtqs_d", cvtqs_d, 2 }, { "cvtqs_suic", cvtqs_suic, 2 }, { "cvtqs_sui", cvtqs_sui, 2 },
    { "cvtqs_suid", cvtqs_suid, 2 },
    { "cvtql_n", cvtql_n, 2 }, { "cvtql_sv", cvtql_sv, 2 }, { "cvtlq_n", cvtlq_n, 2 },
};

/* ---- operands --------------------------------------------------------------------- */
static const u64 grid[] = {   /* T bit patterns: everything */
    0x0000000000000000ull, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull,
    0x4008000000000000ull, 0x3fb999999999999aull, 0xbfe6666666666666ull, 0x3fd5555555555555ull,
    0x3fe5555555555555ull, 0x0000000000000001ull, 0x800fffffffffffffull, 0x0010000000000000ull,
    0x000fffffffffffffull, 0x0018000000000000ull, 0x7fefffffffffffffull, 0xffefffffffffffffull,
    0x4330000000000001ull, 0x43e0000000000000ull, 0xc3e0000000000000ull, 0x43f0000000000000ull,
    0x3e7ad7f29abcaf48ull, 0x47efffffe0000000ull, 0x36a0000000000000ull, 0x380fffffe0000000ull,
    0x7ff0000000000000ull, 0xfff0000000000000ull, 0x7ff8000000000000ull, 0x7ff0000000000001ull,
    0xfff8000000000007ull, 0x3ff0000000000001ull, 0x4340000000000000ull, 0x2000000000000000ull,
};
/* Finite normals whose sums, products and quotients stay finite (1e140 and
 * 1e-160 bound them), in an order that lets prefixes serve narrower uses:
 * the first 8 are safe as singles too and never underflow, the first 11 convert to single
 * without overflow and hold no single denormal. */
static const u64 safe[] = {
    0x3ff0000000000000ull, 0xbff0000000000000ull, 0x4008000000000000ull, 0x3fb999999999999aull,
    0xbfe6666666666666ull, 0x3fd5555555555555ull, 0x405edd2f1a9fbe77ull, 0x3e7ad7f29abcaf48ull,
    0x1eb67e9c127b6e74ull, 0x3ff0000000000001ull, 0x4330000000000001ull, 0x5d00cb70d24b7379ull,
    0xa0ca2fe76a3f9475ull, 0xb7e0000000000000ull,
};
enum { SAFE_SINGLE = 8, SAFE_TO_SINGLE = 11 };
static const u64 positive[] = {   /* square roots without /S */
    0x3ff0000000000000ull, 0x4008000000000000ull, 0x3fb999999999999aull, 0x3fd5555555555555ull,
    0x405edd2f1a9fbe77ull, 0x3e7ad7f29abcaf48ull, 0x1eb67e9c127b6e74ull, 0x3ff0000000000001ull,
    0x4330000000000001ull, 0x5d00cb70d24b7379ull, 0x0010000000000000ull, 0x7fefffffffffffffull,
};
static const u64 ints[] = {
    0, 1, (u64)-1, 5, (u64)-5, 0x7fffffff, 0x80000000ull, (u64)-0x80000000ll, 0x123456789ull,
    (1ull << 53) + 1, (u64)-((1ll << 53) + 1), (1ull << 53) + 3, (1ull << 24) + 1, (1ull << 24) + 3,
    0x7fffffffffffffffull, 0x8000000000000000ull, 0x0123456789abcdefull, 0xfedcba9876543210ull,
    0xc7ffffff60000000ull, 0x38000000a0000000ull,
};

static u64 h;
static void mix(u64 v) { h = (h ^ v) * 0x100000001b3ull; h ^= h >> 29; }

/* S operands: the double rounded to single, as lds would hold it. */
static double as_s(u64 t) { volatile float f = (float)D(t); return (double)f; }

static void run_bins(const char *tag, bin_fn fn, const u64 *v, unsigned n, int single, int dyn)
{
    h = 0xcbf29ce484222325ull;
    u64 acc = 0;
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            double a = single ? as_s(v[i]) : D(v[i]), b = single ? as_s(v[j]) : D(v[j]);
            fpcr_set((FPCR_INIT & ~(3ull << 58)) | (u64)dyn << 58);
            double r = fn(a, b);
            u64 s = fpcr_get();
            mix(B(r));
            mix(s);
            acc |= s;
        }
    printf("%-12s d%d %016llx status %02llx\n", tag, dyn, (unsigned long long)h,
           (unsigned long long)(acc >> 52 & 0x3f));
}

static void run_uns(const char *tag, un_fn fn, const u64 *v, unsigned n, int single, int dyn)
{
    h = 0xcbf29ce484222325ull;
    u64 acc = 0;
    for (unsigned i = 0; i < n; i++) {
        double b = single ? as_s(v[i]) : D(v[i]);
        fpcr_set((FPCR_INIT & ~(3ull << 58)) | (u64)dyn << 58);
        double r = fn(b);
        u64 s = fpcr_get();
        mix(B(r));
        mix(s);
        acc |= s;
    }
    printf("%-12s d%d %016llx status %02llx\n", tag, dyn, (unsigned long long)h,
           (unsigned long long)(acc >> 52 & 0x3f));
}

static bool is_single(const char *name)
{
    return (name[3] == 's' && strncmp(name, "cvt", 3)) || !strncmp(name, "cvtst", 5);
}

int main(void)
{
    const unsigned ng = sizeof grid / sizeof grid[0], ns = sizeof safe / sizeof safe[0];
    const unsigned ni = sizeof ints / sizeof ints[0], np = sizeof positive / sizeof positive[0];
    for (int dyn = 0; dyn < 4; dyn++) {
        for (unsigned k = 0; k < sizeof bins_s / sizeof bins_s[0]; k++)
            run_bins(bins_s[k].name, bins_s[k].fn, grid, ng, is_single(bins_s[k].name), dyn);
        for (unsigned k = 0; k < sizeof bins_plain / sizeof bins_plain[0]; k++) {
            /* /U without /S traps on underflow: no tiny operands then */
            bool single = is_single(bins_plain[k].name), u = strstr(bins_plain[k].name, "_u");
            run_bins(bins_plain[k].name, bins_plain[k].fn, safe, single || u ? SAFE_SINGLE : ns,
                     single, dyn);
        }
        for (unsigned k = 0; k < sizeof uns / sizeof uns[0]; k++) {
            const char *n = uns[k].name;
            bool single = is_single(n);
            switch (uns[k].kind) {
            case 0: run_uns(n, uns[k].fn, grid, ng, single, dyn); break;
            case 1:
                if (!strncmp(n, "sqrt", 4)) run_uns(n, uns[k].fn, positive, np, single, dyn);
                else if (!strncmp(n, "cvtt", 4) && n[4] != 'q')
                    run_uns(n, uns[k].fn, safe, SAFE_TO_SINGLE, single, dyn);
                else if (single) run_uns(n, uns[k].fn, safe, SAFE_TO_SINGLE, single, dyn);
                else run_uns(n, uns[k].fn, safe, ns, single, dyn);
                break;
            default: run_uns(n, uns[k].fn, ints, ni, 0, dyn); break;
            }
        }
    }
    fpcr_set(FPCR_INIT);
    return 0;
}
