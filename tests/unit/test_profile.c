/*
 * test_profile.c - unit tests of weighted profiles (profile.h): adding,
 * growth to a million members, deterministic sorting with ties, top-fraction
 * cuts at their boundaries, key mapping, the HPS §5 top-90% overlap accuracy
 * on hand-computed examples and its properties, and the comparison report.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

/* ---- helpers --------------------------------------------------------------- */

typedef struct entry {
    uint64_t key, key2, weight;
} entry_t;

static profile_t *make(const entry_t *e, size_t n)
{
    profile_t *p = profile_new();
    for (size_t i = 0; i < n; i++)
        profile_add(p, e[i].key, e[i].key2, e[i].weight);
    return p;
}

#define MAKE(...) make((const entry_t[]){ __VA_ARGS__ }, \
                       sizeof((const entry_t[]){ __VA_ARGS__ }) / sizeof(entry_t))

static void assert_near(double got, double want)
{
    if (fabs(got - want) > 1e-9)
        fail_msg("got %.12f, want %.12f", got, want);
}

static uint64_t rng_state = 88172645463325252ull;

static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* ---- the table ------------------------------------------------------------- */

static void test_empty_profile(void **state)
{
    (void)state;
    profile_t *p = profile_new();
    assert_int_equal(profile_members(p), 0);
    assert_int_equal(profile_total(p), 0);
    assert_int_equal(profile_weight(p, 0, 0), 0);
    profile_member_t *m = (profile_member_t *)&m;
    assert_int_equal(profile_sorted(p, &m), 0);
    assert_null(m);
    assert_int_equal(profile_top_count(p, 0.9), 0);
    profile_free(p);
    profile_free(NULL);
}

static void test_add_and_weight(void **state)
{
    (void)state;
    profile_t *p = profile_new();
    profile_add(p, 0x1000, 0, 3);
    profile_add(p, 0x1000, 0, 4);
    profile_add(p, 0x1000, 0x2000, 1);      /* pair members are distinct */
    profile_add(p, 0x2000, 0x1000, 2);      /* (a, b) is not (b, a) */
    profile_add(p, 0, 0, 5);                /* key 0 is an ordinary key */
    profile_add(p, 0x3000, 0, 0);           /* zero weight adds nothing */
    assert_int_equal(profile_members(p), 4);
    assert_int_equal(profile_total(p), 15);
    assert_int_equal(profile_weight(p, 0x1000, 0), 7);
    assert_int_equal(profile_weight(p, 0x1000, 0x2000), 1);
    assert_int_equal(profile_weight(p, 0x2000, 0x1000), 2);
    assert_int_equal(profile_weight(p, 0, 0), 5);
    assert_int_equal(profile_weight(p, 0x3000, 0), 0);
    profile_free(p);
}

static void test_clear_keeps_capacity(void **state)
{
    (void)state;
    profile_t *p = profile_new();
    for (uint64_t i = 0; i < 5000; i++)
        profile_add(p, i * 8, 0, 1);
    profile_member_t *slots = p->slot;
    size_t mask = p->mask;
    profile_clear(p);
    assert_int_equal(profile_members(p), 0);
    assert_int_equal(profile_total(p), 0);
    assert_int_equal(profile_weight(p, 8, 0), 0);
    /* Refilling to the same size allocates nothing. */
    for (uint64_t i = 0; i < 5000; i++)
        profile_add(p, i * 8 + 4, 0, 2);
    assert_ptr_equal(p->slot, slots);
    assert_int_equal(p->mask, mask);
    assert_int_equal(profile_members(p), 5000);
    assert_int_equal(profile_total(p), 10000);
    assert_int_equal(profile_weight(p, 4, 0), 2);
    assert_int_equal(profile_weight(p, 8, 0), 0);
    profile_free(p);
}

static void test_growth_to_1m(void **state)
{
    (void)state;
    const uint64_t N = 1000000;
    profile_t *p = profile_new();
    uint64_t total = 0;
    for (uint64_t i = 0; i < N; i++) {          /* aligned addresses, 4 key2s */
        profile_add(p, 0x10000 + i * 64, i & 3, i % 7 + 1);
        total += i % 7 + 1;
    }
    for (uint64_t i = 0; i < N; i += 3) {       /* second pass: existing members */
        profile_add(p, 0x10000 + i * 64, i & 3, 10);
        total += 10;
    }
    assert_int_equal(profile_members(p), N);
    assert_int_equal(profile_total(p), total);
    assert_true(p->count <= p->limit);
    for (uint64_t i = 0; i < N; i += 997)
        assert_int_equal(profile_weight(p, 0x10000 + i * 64, i & 3),
                         i % 7 + 1 + (i % 3 == 0 ? 10 : 0));
    assert_int_equal(profile_weight(p, 0x10000, 1), 0);
    assert_int_equal(profile_weight(p, 0x10000 + N * 64, 0), 0);

    profile_member_t *m;
    assert_int_equal(profile_sorted(p, &m), N);
    uint64_t sum = 0;
    for (uint64_t i = 0; i < N; i++) {
        sum += m[i].weight;
        if (i > 0) {
            assert_true(m[i - 1].weight >= m[i].weight);
            if (m[i - 1].weight == m[i].weight)
                assert_true(m[i - 1].key < m[i].key);
        }
    }
    assert_int_equal(sum, total);
    free(m);
    profile_free(p);
}

static void test_sorted_ties_deterministic(void **state)
{
    (void)state;
    const entry_t e[] = {
        { 0x30, 0, 5 }, { 0x10, 2, 5 }, { 0x10, 1, 5 }, { 0x20, 0, 9 },
        { 0x05, 7, 1 }, { 0x40, 0, 5 }, { 0x10, 0, 1 },
    };
    const size_t n = sizeof e / sizeof e[0];
    const entry_t want[] = {
        { 0x20, 0, 9 }, { 0x10, 1, 5 }, { 0x10, 2, 5 }, { 0x30, 0, 5 },
        { 0x40, 0, 5 }, { 0x05, 7, 1 }, { 0x10, 0, 1 },
    };
    /* Forward, backward, and into a table grown large and cleared. */
    profile_t *p[3] = { profile_new(), profile_new(), profile_new() };
    for (uint64_t i = 0; i < 100000; i++)
        profile_add(p[2], i, i, 1);
    profile_clear(p[2]);
    for (size_t i = 0; i < n; i++) {
        profile_add(p[0], e[i].key, e[i].key2, e[i].weight);
        profile_add(p[1], e[n - 1 - i].key, e[n - 1 - i].key2, e[n - 1 - i].weight);
        profile_add(p[2], e[(i * 3) % n].key, e[(i * 3) % n].key2, e[(i * 3) % n].weight);
    }
    for (int k = 0; k < 3; k++) {
        profile_member_t *m;
        assert_int_equal(profile_sorted(p[k], &m), n);
        for (size_t i = 0; i < n; i++) {
            assert_int_equal(m[i].key, want[i].key);
            assert_int_equal(m[i].key2, want[i].key2);
            assert_int_equal(m[i].weight, want[i].weight);
        }
        free(m);
        profile_free(p[k]);
    }
}

/* ---- top-fraction cuts ----------------------------------------------------- */

static void test_top_count_boundaries(void **state)
{
    (void)state;
    profile_t *p = MAKE({ 1, 0, 5 }, { 2, 0, 3 }, { 3, 0, 2 });    /* total 10 */
    assert_int_equal(profile_top_count(p, 0.0), 0);
    assert_int_equal(profile_top_count(p, -1.0), 0);
    assert_int_equal(profile_top_count(p, NAN), 0);
    assert_int_equal(profile_top_count(p, 0.01), 1);
    assert_int_equal(profile_top_count(p, 0.5), 1);     /* 5 reaches 5 exactly */
    assert_int_equal(profile_top_count(p, 0.51), 2);
    assert_int_equal(profile_top_count(p, 0.8), 2);     /* 8 reaches 8 exactly */
    assert_int_equal(profile_top_count(p, 0.81), 3);
    assert_int_equal(profile_top_count(p, 0.9), 3);
    assert_int_equal(profile_top_count(p, 1.0), 3);
    assert_int_equal(profile_top_count(p, 1.5), 3);
    profile_free(p);

    p = MAKE({ 7, 0, 1 });
    assert_int_equal(profile_top_count(p, 0.0), 0);
    assert_int_equal(profile_top_count(p, 1e-9), 1);
    assert_int_equal(profile_top_count(p, 0.9), 1);
    profile_free(p);
}

static void test_top_count_float_slack(void **state)
{
    (void)state;
    /* A hundred members of weight 1: 0.07 * 100 is 7.000000000000001 in
     * double, but seven members reach 7% of the total. */
    profile_t *p = profile_new();
    for (uint64_t i = 0; i < 100; i++)
        profile_add(p, i, 0, 1);
    assert_true(0.07 * 100.0 > 7.0);
    for (int k = 1; k <= 100; k++)
        assert_int_equal(profile_top_count(p, k / 100.0), k);
    assert_int_equal(profile_top_count(p, 0.0701), 8);
    assert_int_equal(profile_top_count(p, 0.9), 90);
    profile_free(p);
}

static void test_top_count_ties_at_boundary(void **state)
{
    (void)state;
    /* 4 + one of the two 3s reaches half of 10; the smaller key wins. */
    profile_t *p = MAKE({ 9, 0, 4 }, { 2, 0, 3 }, { 1, 0, 3 });
    assert_int_equal(profile_top_count(p, 0.5), 2);
    profile_member_t *m;
    profile_sorted(p, &m);
    assert_int_equal(m[1].key, 1);
    free(m);
    profile_free(p);
}

/* ---- accuracy -------------------------------------------------------------- */

static void test_accuracy_identical(void **state)
{
    (void)state;
    profile_t *p = MAKE({ 1, 0, 50 }, { 2, 0, 30 }, { 3, 0, 15 }, { 4, 0, 5 });
    profile_t *q = MAKE({ 4, 0, 5 }, { 3, 0, 15 }, { 2, 0, 30 }, { 1, 0, 50 });
    assert_near(profile_accuracy(p, q, 1.0, false), 100.0);
    assert_near(profile_accuracy(p, q, 1.0, true), 100.0);
    assert_near(profile_accuracy(p, q, 0.9, true), 100.0);
    /* Not renormalised, a perfect sample scores the kept share: 50+30+15. */
    assert_near(profile_accuracy(p, q, 0.9, false), 95.0);
    assert_near(profile_accuracy(p, p, 0.9, false), 95.0);
    profile_free(p);
    profile_free(q);
}

static void test_accuracy_disjoint(void **state)
{
    (void)state;
    profile_t *p = MAKE({ 1, 0, 50 }, { 2, 0, 30 });
    profile_t *q = MAKE({ 3, 0, 50 }, { 1, 1, 30 });     /* (1,1) is not (1,0) */
    assert_near(profile_accuracy(p, q, 0.9, false), 0.0);
    assert_near(profile_accuracy(p, q, 1.0, true), 0.0);
    profile_free(p);
    profile_free(q);
}

static void test_accuracy_empty(void **state)
{
    (void)state;
    profile_t *e1 = profile_new(), *e2 = profile_new();
    profile_t *p = MAKE({ 1, 0, 5 });
    assert_near(profile_accuracy(e1, e2, 0.9, false), 100.0);
    assert_near(profile_accuracy(e1, e2, 0.9, true), 100.0);
    assert_near(profile_accuracy(e1, p, 0.9, false), 0.0);
    assert_near(profile_accuracy(p, e1, 0.9, true), 0.0);
    profile_free(e1);
    profile_free(e2);
    profile_free(p);
}

/* Exact:   a 50  b 30  c 15  d 5   (total 100; top 90%: a b c, sum 95)
 * Sampled: a 4   b 3   d 2   c 1   (total 10;  top 90%: a b d, sum 9)
 * Kept in both: a, b. */
static void worked_example(profile_t **sampled, profile_t **exact)
{
    *exact = MAKE({ 0xa, 0, 50 }, { 0xb, 0, 30 }, { 0xc, 0, 15 }, { 0xd, 0, 5 });
    *sampled = MAKE({ 0xa, 0, 4 }, { 0xb, 0, 3 }, { 0xc, 0, 1 }, { 0xd, 0, 2 });
}

static void test_accuracy_worked_example(void **state)
{
    (void)state;
    profile_t *s, *x;
    worked_example(&s, &x);
    assert_int_equal(profile_top_count(x, 0.9), 3);
    assert_int_equal(profile_top_count(s, 0.9), 3);
    /* min(.4, .5) + min(.3, .3) = .7 */
    assert_near(profile_accuracy(s, x, 0.9, false), 70.0);
    /* No cut: a .4 + b .3 + c min(.1, .15) + d min(.2, .05) = .85 */
    assert_near(profile_accuracy(s, x, 1.0, false), 85.0);
    /* Cut at 50%: a alone in both, min(.4, .5). */
    assert_near(profile_accuracy(s, x, 0.5, false), 40.0);
    profile_free(s);
    profile_free(x);
}

static void test_accuracy_renormalize_differs(void **state)
{
    (void)state;
    profile_t *s, *x;
    worked_example(&s, &x);
    /* Kept totals 9 and 95: min(4/9, 50/95) + min(3/9, 30/95)
     * = 4/9 + 6/19 = 130/171. */
    assert_near(profile_accuracy(s, x, 0.9, true), 100.0 * 130.0 / 171.0);
    assert_near(profile_accuracy(s, x, 0.9, false), 70.0);
    /* With no cut the kept set is everything: renormalising changes nothing. */
    assert_near(profile_accuracy(s, x, 1.0, true), 85.0);
    profile_free(s);
    profile_free(x);
}

static void test_accuracy_tie_at_cut(void **state)
{
    (void)state;
    /* Exact x=5, y=5: the 50% cut keeps x (smaller key) only. */
    profile_t *x = MAKE({ 2, 0, 5 }, { 1, 0, 5 });
    profile_t *s1 = MAKE({ 1, 0, 1 });
    profile_t *s2 = MAKE({ 2, 0, 1 });
    assert_near(profile_accuracy(s1, x, 0.5, false), 50.0);
    assert_near(profile_accuracy(s2, x, 0.5, false), 0.0);
    profile_free(x);
    profile_free(s1);
    profile_free(s2);
}

static profile_t *random_profile(size_t members, uint64_t key_range, uint64_t scale)
{
    profile_t *p = profile_new();
    for (size_t i = 0; i < members; i++) {
        uint64_t r = rnd();
        /* Skewed weights: a few heavy members, many light. */
        uint64_t w = (r >> 40) % 1000 + 1;
        if ((r & 7) == 0)
            w *= 50;
        profile_add(p, (r % key_range) * 4, (r >> 20) & 1, w * scale);
    }
    return p;
}

static void test_accuracy_scale_invariant(void **state)
{
    (void)state;
    profile_t *s, *x;
    worked_example(&s, &x);
    profile_t *s3 = MAKE({ 0xa, 0, 12 }, { 0xb, 0, 9 }, { 0xc, 0, 3 }, { 0xd, 0, 6 });
    profile_t *x7 = MAKE({ 0xa, 0, 350 }, { 0xb, 0, 210 }, { 0xc, 0, 105 }, { 0xd, 0, 35 });
    for (int rn = 0; rn < 2; rn++)
        for (double f = 0.5; f <= 1.0; f += 0.1) {
            double base = profile_accuracy(s, x, f, rn);
            assert_near(profile_accuracy(s3, x, f, rn), base);
            assert_near(profile_accuracy(s, x7, f, rn), base);
            assert_near(profile_accuracy(s3, x7, f, rn), base);
        }
    profile_free(s);
    profile_free(x);
    profile_free(s3);
    profile_free(x7);

    /* Random profiles, one scaled by 1000 (same random stream twice). */
    uint64_t seed = rng_state;
    profile_t *a = random_profile(2000, 500, 1);
    rng_state = seed;
    profile_t *a1000 = random_profile(2000, 500, 1000);
    profile_t *b = random_profile(5000, 700, 1);
    assert_int_equal(profile_total(a1000), 1000 * profile_total(a));
    for (int rn = 0; rn < 2; rn++) {
        double base = profile_accuracy(a, b, 0.9, rn);
        assert_true(base > 0.0 && base < 100.0);
        assert_true(profile_accuracy(a1000, b, 0.9, rn) == base);
        assert_true(profile_accuracy(b, a1000, 0.9, rn) == base);
    }
    profile_free(a);
    profile_free(a1000);
    profile_free(b);
}

static void test_accuracy_symmetric(void **state)
{
    (void)state;
    profile_t *s, *x;
    worked_example(&s, &x);
    for (int rn = 0; rn < 2; rn++)
        for (double f = 0.3; f <= 1.0; f += 0.1)
            assert_true(profile_accuracy(s, x, f, rn) == profile_accuracy(x, s, f, rn));
    profile_free(s);
    profile_free(x);

    for (int t = 0; t < 20; t++) {
        profile_t *a = random_profile(300 + 100 * t, 400, 1);
        profile_t *b = random_profile(3000, 400, 1);
        for (int rn = 0; rn < 2; rn++) {
            double ab = profile_accuracy(a, b, 0.9, rn);
            assert_true(ab >= 0.0 && ab <= 100.0);
            assert_true(ab == profile_accuracy(b, a, 0.9, rn));
        }
        profile_free(a);
        profile_free(b);
    }
}

/* ---- mapping --------------------------------------------------------------- */

static bool to_word(void *ctx, uint64_t key, uint64_t key2, uint64_t *k, uint64_t *k2)
{
    (void)ctx;
    (void)key2;
    *k = key & ~(uint64_t)7;
    *k2 = 0;
    return true;
}

typedef struct fn_range {
    uint64_t lo, hi;
} fn_range_t;

/* Address -> start of its function; addresses outside every function drop. */
static bool to_function(void *ctx, uint64_t key, uint64_t key2, uint64_t *k, uint64_t *k2)
{
    const fn_range_t *f = ctx;
    for (; f->hi != 0; f++)
        if (key >= f->lo && key < f->hi) {
            *k = f->lo;
            *k2 = key2;
            return true;
        }
    return false;
}

static void test_map_to_words(void **state)
{
    (void)state;
    profile_t *p = MAKE({ 0x100, 0, 1 }, { 0x101, 0, 2 }, { 0x107, 5, 4 },
                        { 0x108, 0, 8 }, { 0x10f, 0, 16 });
    profile_t *w = profile_new();
    profile_map(p, to_word, NULL, w);
    assert_int_equal(profile_members(w), 2);
    assert_int_equal(profile_total(w), 31);
    assert_int_equal(profile_weight(w, 0x100, 0), 7);
    assert_int_equal(profile_weight(w, 0x108, 0), 24);
    assert_int_equal(profile_total(p), 31);             /* source untouched */
    assert_int_equal(profile_members(p), 5);
    profile_free(p);
    profile_free(w);
}

static void test_map_drop_and_accumulate(void **state)
{
    (void)state;
    const fn_range_t fns[] = { { 0x1000, 0x1040 }, { 0x2000, 0x2100 }, { 0, 0 } };
    profile_t *p = MAKE({ 0x1000, 0, 3 }, { 0x1010, 0, 4 }, { 0x2080, 0, 5 },
                        { 0x2080, 1, 6 }, { 0x3000, 0, 100 }, { 0x1040, 0, 7 });
    profile_t *out = profile_new();
    profile_add(out, 0x2000, 0, 1);                     /* out accumulates */
    profile_map(p, to_function, (void *)fns, out);
    assert_int_equal(profile_members(out), 3);
    assert_int_equal(profile_weight(out, 0x1000, 0), 7);
    assert_int_equal(profile_weight(out, 0x2000, 0), 6);
    assert_int_equal(profile_weight(out, 0x2000, 1), 6);
    assert_int_equal(profile_total(out), 19);
    profile_free(p);
    profile_free(out);
}

/* ---- the report ------------------------------------------------------------ */

static const char *method_name(uint64_t key)
{
    switch (key) {
    case 0x1000: return "main";
    case 0x2000: return "foo";
    case 0x3000: return "bar";
    case 0x4000: return "baz";
    default: return "?";
    }
}

static void format_method(void *ctx, uint64_t key, uint64_t key2, char *buf, size_t len)
{
    (void)key2;
    int *calls = ctx;
    (*calls)++;
    snprintf(buf, len, "%s", method_name(key));
}

static char *print_to_string(const char *title, const profile_t *s, const profile_t *x,
                             size_t top_n, double fraction, profile_format_fn fmt, void *ctx)
{
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    assert_non_null(f);
    profile_print_comparison(f, title, s, x, top_n, fraction, fmt, ctx);
    fclose(f);
    return text;
}

static void test_print_comparison(void **state)
{
    (void)state;
    profile_t *x = MAKE({ 0x1000, 0, 500 }, { 0x2000, 0, 300 }, { 0x3000, 0, 150 },
                        { 0x4000, 0, 50 });
    profile_t *s = MAKE({ 0x1000, 0, 4 }, { 0x2000, 0, 2 }, { 0x4000, 0, 3 },
                        { 0x5000, 0, 1 });
    int calls = 0;
    char *text = print_to_string("hot methods", s, x, 2, 0.9, format_method, &calls);
    /* Kept: exact main foo bar, sampled main baz foo; min(.4,.5) + min(.2,.3). */
    const char *want =
        "hot methods\n"
        "rank  member  events  exact%  samples  sampled%\n"
        "   1  main       500  50.00%        4    40.00%\n"
        "   2  foo        300  30.00%        2    20.00%\n"
        "sampled top 2 members not in the exact top 2:\n"
        "   4  baz         50   5.00%        3    30.00%\n"
        "total: 1000 events in 4 members, 10 samples in 4 members\n"
        "accuracy (top 90% overlap): 60.0%\n";
    assert_string_equal(text, want);
    assert_int_equal(calls, 3);
    free(text);

    /* Deterministic: the same text again. */
    char *again = print_to_string("hot methods", s, x, 2, 0.9, format_method, &calls);
    assert_string_equal(again, want);
    free(again);
    profile_free(s);
    profile_free(x);
}

static void test_print_pairs_default_format(void **state)
{
    (void)state;
    profile_t *x = MAKE({ 0x10, 0x20, 3 }, { 0x10, 0x30, 1 });
    profile_t *s = MAKE({ 0x40, 0x50, 2 }, { 0x10, 0x20, 1 });
    char *text = print_to_string("call pairs", s, x, 1, 1.0, NULL, NULL);
    const char *want =
        "call pairs\n"
        "rank  member     events  exact%  samples  sampled%\n"
        "   1  0x10/0x20       3  75.00%        1    33.33%\n"
        "sampled top 1 members not in the exact top 1:\n"
        "   -  0x40/0x50       0   0.00%        2    66.67%\n"
        "total: 4 events in 2 members, 3 samples in 2 members\n"
        "accuracy (top 100% overlap): 33.3%\n";
    assert_string_equal(text, want);
    free(text);

    /* Sampled top inside the exact top: no second section. */
    profile_t *s2 = MAKE({ 0x10, 0x20, 1 }, { 0x900, 0, 1 });
    text = print_to_string("call pairs", s2, x, 5, 0.9, NULL, NULL);
    const char *want2 =
        "call pairs\n"
        "rank  member     events  exact%  samples  sampled%\n"
        "   1  0x10/0x20       3  75.00%        1    50.00%\n"
        "   2  0x10/0x30       1  25.00%        0     0.00%\n"
        "sampled top 5 members not in the exact top 5:\n"
        "   -  0x900           0   0.00%        1    50.00%\n"
        "total: 4 events in 2 members, 2 samples in 2 members\n"
        "accuracy (top 90% overlap): 50.0%\n";
    assert_string_equal(text, want2);
    free(text);
    profile_free(s);
    profile_free(s2);
    profile_free(x);
}

static void test_print_empty(void **state)
{
    (void)state;
    profile_t *x = profile_new(), *s = profile_new();
    char *text = print_to_string(NULL, s, x, 10, 0.9, NULL, NULL);
    assert_string_equal(text,
        "rank  member  events  exact%  samples  sampled%\n"
        "total: 0 events in 0 members, 0 samples in 0 members\n"
        "accuracy (top 90% overlap): 100.0%\n");
    free(text);
    profile_free(x);
    profile_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty_profile),
        cmocka_unit_test(test_add_and_weight),
        cmocka_unit_test(test_clear_keeps_capacity),
        cmocka_unit_test(test_growth_to_1m),
        cmocka_unit_test(test_sorted_ties_deterministic),
        cmocka_unit_test(test_top_count_boundaries),
        cmocka_unit_test(test_top_count_float_slack),
        cmocka_unit_test(test_top_count_ties_at_boundary),
        cmocka_unit_test(test_accuracy_identical),
        cmocka_unit_test(test_accuracy_disjoint),
        cmocka_unit_test(test_accuracy_empty),
        cmocka_unit_test(test_accuracy_worked_example),
        cmocka_unit_test(test_accuracy_renormalize_differs),
        cmocka_unit_test(test_accuracy_tie_at_cut),
        cmocka_unit_test(test_accuracy_scale_invariant),
        cmocka_unit_test(test_accuracy_symmetric),
        cmocka_unit_test(test_map_to_words),
        cmocka_unit_test(test_map_drop_and_accumulate),
        cmocka_unit_test(test_print_comparison),
        cmocka_unit_test(test_print_pairs_default_format),
        cmocka_unit_test(test_print_empty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
