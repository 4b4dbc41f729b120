/*
 * test_value_hotlist.c - the value sampling hot lists (productions/runtime/
 * value_hotlist.h, Gibbons & Matias' counting samples), run on the host:
 * the same code the guest value driver executes.  Checked on known value
 * streams: while a list has room every value is counted exactly and the
 * threshold stays 1; frequent values are kept and their estimates (count +
 * 0.418 tau - 1) fall within the algorithm's guarantee (a value is missed
 * for a geometric number of occurrences of mean tau before it enters, so
 * the error stays within a few tau); the threshold grows by the factor at
 * each raise and the list never holds more than its size after an offer;
 * values seen once are thinned away; thinning with a coin that always
 * lands heads keeps counts; lists of distinct (pc, kind) are distinct, and
 * a full probe sequence loses the value (counted).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "value_hotlist.h"

static vh_table_t *new_table(unsigned size, double growth, uint64_t seed)
{
    vh_table_t *t = calloc(1, sizeof *t);
    t->st.magic = VH_MAGIC;
    t->st.seed = seed;
    t->st.list_size = size;
    t->st.inv_growth_q16 = (uint64_t)llround(65536.0 / growth);
    return t;
}

static const vh_entry_t *entry_of(const vh_list_t *l, uint64_t value)
{
    for (uint32_t k = 0; k < l->n; k++)
        if (l->e[k].value == value) return &l->e[k];
    return NULL;
}

static double tau_of(const vh_list_t *l) { return (double)VH_ONE / (double)vh_inv_tau(l); }

static double estimate(const vh_list_t *l, uint64_t count)
{
    double tau = tau_of(l);
    return tau > 1.0 ? (double)count + 0.418 * tau - 1.0 : (double)count;
}

static void exact_while_room(void **state)
{
    (void)state;
    vh_table_t *t = new_table(8, 2.0, 1);
    for (int i = 0; i < 1000; i++) vh_offer(t, 0x1000, VK_RESULT, (uint64_t)(i % 5));
    vh_list_t *l = vh_list_of(t, 0x1000, VK_RESULT);
    assert_non_null(l);
    assert_int_equal(l->n, 5);
    assert_int_equal(l->samples, 1000);
    assert_int_equal(l->inv_tau, 0);          /* tau still 1 */
    assert_int_equal(l->raises, 0);
    for (uint64_t v = 0; v < 5; v++) assert_int_equal(entry_of(l, v)->count, 200);
    assert_int_equal(t->st.offered, 1000);
    assert_int_equal(t->st.inserted, 5);
    free(t);
}

 /* A stream: value 1 with probability 40%, 2 with 25%, 3 with 15%, else one
 * of 500 rare values; returns the true counts of 1, 2, 3. */
static void skewed_stream(vh_table_t *t, uint64_t n, uint64_t seed, uint64_t truth[4])
{
    uint64_t x = seed;
    memset(truth, 0, 4 * sizeof truth[0]);
    for (uint64_t i = 0; i < n; i++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        unsigned r = (unsigned)(x >> 33) % 100;
        uint64_t v = r < 40 ? 1 : r < 65 ? 2 : r < 80 ? 3 : 100 + (x >> 40) % 500;
        if (v < 4) truth[v]++;
        vh_offer(t, 0x2000, VK_ADDR, v);
    }
}

/* Gibbons & Matias: a value occurring f >= 5 tau times is in the counting
 * sample but with probability about e^-5, and a kept value's count misses
 * a geometric number of occurrences of mean about tau: the estimate stays
 * within a few tau.  With 15 entries, 20% of the stream spread over 500
 * rare values drives tau to a few hundred, so the 40% and 25% values qualify. */
static void frequent_values_kept(void **state)
{
    (void)state;
    for (uint64_t seed = 1; seed <= 20; seed++) {
        vh_table_t *t = new_table(15, 1.5, seed);
        uint64_t truth[4];
        skewed_stream(t, 20000, seed * 7919, truth);
        vh_list_t *l = vh_list_of(t, 0x2000, VK_ADDR);
        double tau = tau_of(l);
        assert_true(tau > 1.0);
        assert_true(l->n <= 15);
        assert_true((double)truth[1] >= 5 * tau && (double)truth[2] >= 5 * tau);
        for (uint64_t v = 1; v <= 3; v++) {
            const vh_entry_t *e = entry_of(l, v);
            if ((double)truth[v] >= 5 * tau && !e)
                fail_msg("seed %llu: value %llu (%llu times, tau %.0f) not kept",
                         (unsigned long long)seed, (unsigned long long)v,
                         (unsigned long long)truth[v], tau);
            if (!e) continue;
            double err = fabs(estimate(l, e->count) - (double)truth[v]);
            if (err > 5.0 * tau) fail_msg("seed %llu value %llu: estimate off by %.1f, tau %.1f",
                                          (unsigned long long)seed, (unsigned long long)v, err,
                                          tau);
        }
        free(t);
    }
}

static void threshold_growth(void **state)
{
    (void)state;
    vh_table_t *t = new_table(4, 2.0, 3);
    vh_list_t *l = vh_list_of(t, 0x3000, VK_OPERAND1);
    uint64_t last_inv = VH_ONE, raises = 0;
    for (uint64_t i = 0; i < 5000; i++) {
        vh_offer(t, 0x3000, VK_OPERAND1, i);                 /* all distinct */
        assert_true(l->n <= 4);
        if (l->raises != raises) {
            /* each raise multiplies tau by the growth factor (2: halves 1/tau) */
            uint64_t expect = last_inv;
            for (uint64_t r = raises; r < l->raises; r++) expect = expect / 2 ? expect / 2 : 1;
            assert_int_equal(l->inv_tau, expect);
            last_inv = l->inv_tau;
            raises = l->raises;
        }
    }
    assert_true(l->raises >= 8);                        /* tau >= 256 by now */
    assert_int_equal(t->st.raises, l->raises);
    /* 5000 distinct values: what is left is few and each was counted once */
    for (uint32_t k = 0; k < l->n; k++) assert_int_equal(l->e[k].count, 1);
    free(t);
}

static void rare_values_thinned(void **state)
{
    (void)state;
    vh_table_t *t = new_table(8, 1.5, 5);
    for (uint64_t i = 0; i < 30000; i++) vh_offer(t, 0x4000, VK_RESULT, i % 3 ? 7 : 1000 + i);
    vh_list_t *l = vh_list_of(t, 0x4000, VK_RESULT);
    const vh_entry_t *e = entry_of(l, 7);
    assert_non_null(e);
    double share = estimate(l, e->count) / (double)l->samples;
    assert_true(fabs(share - 2.0 / 3.0) < 0.05);
    unsigned rare = 0;
    for (uint32_t k = 0; k < l->n; k++) rare += l->e[k].value != 7;
    assert_true(rare <= 7);
    free(t);
}

static void thin_with_sure_heads_keeps(void **state)
{
    (void)state;
    vh_state_t st = { .seed = 9, .inv_growth_q16 = 65536 };  /* tau/tau' = 1: always heads */
    for (uint64_t c = 1; c < 100; c++) assert_int_equal(vh_thin(&st, c, VH_ONE), c);
    st.inv_growth_q16 = 1;                                  /* almost never heads, */
    assert_int_equal(vh_thin(&st, 50, 1), 0);               /* nor later: evicted */
}

static void lists_by_pc_and_kind(void **state)
{
    (void)state;
    vh_table_t *t = new_table(8, 2.0, 1);
    vh_offer(t, 0x5000, VK_RESULT, 1);
    vh_offer(t, 0x5000, VK_ADDR, 2);
    vh_offer(t, 0x5004, VK_RESULT, 3);
    vh_list_t *a = vh_list_of(t, 0x5000, VK_RESULT), *b = vh_list_of(t, 0x5000, VK_ADDR),
              *c = vh_list_of(t, 0x5004, VK_RESULT);
    assert_ptr_not_equal(a, b);
    assert_ptr_not_equal(a, c);
    assert_int_equal(a->e[0].value, 1);
    assert_int_equal(b->e[0].value, 2);
    assert_int_equal(c->e[0].value, 3);
    free(t);
}

/* The slot a (pc, kind) hashes to, as vh_list_of computes it. */
static uint64_t slot_of(uint64_t pc, uint64_t kind)
{
    return (((pc >> 1) ^ (kind << 56)) * 0x9e3779b97f4a7c15ull) >> VH_SLOT_SHIFT;
}

static void full_probe_sequence_loses(void **state)
{
    (void)state;
    vh_table_t *t = new_table(8, 2.0, 1);
    uint64_t pcs[VH_PROBES + 1], n = 0, want = slot_of(0x10000, VK_RESULT);
    for (uint64_t pc = 0x10000; n <= VH_PROBES; pc += 2)
        if (slot_of(pc, VK_RESULT) == want) pcs[n++] = pc;
    for (unsigned k = 0; k < VH_PROBES; k++) vh_offer(t, pcs[k], VK_RESULT, k);
    assert_int_equal(t->st.lost, 0);
    vh_offer(t, pcs[VH_PROBES], VK_RESULT, 99);
    assert_int_equal(t->st.lost, 1);
    assert_null(vh_list_of(t, pcs[VH_PROBES], VK_RESULT));
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(exact_while_room),
        cmocka_unit_test(frequent_values_kept),
        cmocka_unit_test(threshold_growth),
        cmocka_unit_test(rare_values_thinned),
        cmocka_unit_test(thin_with_sure_heads_keeps),
        cmocka_unit_test(lists_by_pc_and_kind),
        cmocka_unit_test(full_probe_sequence_loses),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
