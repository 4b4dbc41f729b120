/* main.c - driver of the bigint_interp workload (perlbmk/gap-like): builds
 * the scripts for the chosen size, parses and interprets each one, checks
 * the in-script assertions plus a native cross-check of the bigint library,
 * and compares the final checksum against the known value. */
#include "interp.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct size_class {
    const char *name;
    wl_params p;
    uint64_t expect;
} size_class;

static const size_class sizes[] = {
    /* fact fib memo rsa_dig msgs poly pi sieve collatz rounds */
    {"test", {35, 100, 40, 10, 2, 8, 200, 200, 30, 1}, 0x80ffabb91d3fc232ULL},
    {"train", {400, 3000, 300, 25, 6, 38, 1380, 3000, 700, 1}, 0x26b72ee21d6e7c0fULL},
    {"ref", {2000, 18000, 600, 50, 12, 92, 4860, 20000, 6000, 3}, 0x8ef37339beea240fULL},
};

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h;
}

/* Native cross-check: Karatsuba product vs. division round trip. */
static int native_selftest(uint64_t *seed, int limbs)
{
    bn *a = bn_new(limbs), *b = bn_new(limbs / 2 + 1);
    for (int i = 0; i < limbs; i++)
        a->d[i] = (uint32_t)rng_next(seed);
    for (int i = 0; i < limbs / 2 + 1; i++)
        b->d[i] = (uint32_t)rng_next(seed) | 1;
    a->n = limbs;
    b->n = limbs / 2 + 1;
    a->sign = b->sign = 1;
    bn *p = bn_mul(a, b), *q, *r;
    bn_divmod(p, b, &q, &r);
    int ok = bn_cmp(q, a) == 0 && bn_is_zero(r);
    bn *s = bn_sub(p, a), *t = bn_add(s, a);
    ok = ok && bn_cmp(t, p) == 0;
    size_t len;
    char *dec = bn_to_dec(p, &len);
    bn *back = bn_from_dec(dec, len);
    ok = ok && bn_cmp(back, p) == 0;
    free(dec);
    bn_free(a); bn_free(b); bn_free(p); bn_free(q); bn_free(r);
    bn_free(s); bn_free(t); bn_free(back);
    return ok;
}

int main(int argc, char **argv)
{
    const char *want = argc > 1 ? argv[1] : "test";
    const size_class *sc = NULL;
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        if (strcmp(sizes[i].name, want) == 0)
            sc = &sizes[i];
    if (!sc) {
        fprintf(stderr, "usage: %s [test|train|ref]\n", argv[0]);
        return 2;
    }

    uint64_t seed = 0x5eed0b16b16ULL, checksum = 0, prints = 0, calls = 0;
    int fails = 0;
    for (int k = 0; k < 4; k++)
        if (!native_selftest(&seed, 30 + k * 20)) {
            fprintf(stderr, "bigint_interp: native bigint self-test %d failed\n", k);
            fails++;
        }

    for (int w = 0; w < script_count(); w++) {
        char *src = gen_script(w, &sc->p, &seed);
        program *prog = parse_program(src);
        interp_stats st;
        memset(&st, 0, sizeof(st));
        run_program(prog, &st);
        builtins_reset();
        if (st.failed) {
            fprintf(stderr, "bigint_interp: script %s: %s\n", script_name(w), st.errmsg);
            fails++;
        }
        printf("%-10s prints=%llu hash=%016llx\n", script_name(w),
               (unsigned long long)st.prints, (unsigned long long)st.print_hash);
        checksum = mix(checksum, st.print_hash);
        prints += st.prints;
        calls += st.calls;
        free_program(prog);
        free(src);
    }
    printf("bigint_interp %s: scripts=%d prints=%llu calls=%llu checksum=%016llx\n",
           sc->name, script_count(), (unsigned long long)prints,
           (unsigned long long)calls, (unsigned long long)checksum);
    if (fails) {
        fprintf(stderr, "bigint_interp: %d failures\n", fails);
        return 1;
    }
    if (sc->expect && checksum != sc->expect) {
        fprintf(stderr, "bigint_interp: checksum mismatch (expected %016llx)\n",
                (unsigned long long)sc->expect);
        return 1;
    }
    return 0;
}
