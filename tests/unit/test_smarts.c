/*
 * test_smarts.c - unit tests of sampled simulation (pipeline/smarts.c):
 * functional warming leaves caches, TLBs and the branch predictor as the
 * timed accesses would (tags, LRU order, dirty lines written back into the
 * L2, predictor tables, BTB, RAS) without counting anything; the --sample
 * spec's parser; the sampler's phases and its estimate.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "bpred.h"
#include "cache.h"
#include "config.h"
#include "smarts.h"

/* ---- caches and TLBs ----------------------------------------------------------- */

static cache_config_t cfg_of(const char *name, uint64_t size, unsigned assoc, unsigned line)
{
    return (cache_config_t){ .name = name, .size = size, .assoc = assoc, .line = line,
                             .hit_latency = 1, .repl = REPL_LRU, .mshrs = 4 };
}

static uint64_t accesses(const cache_t *c)
{
    cache_info_t i;
    cache_info(c, &i);
    return i.accesses;
}

/* A warmed line hits at once when timed; nothing was counted. */
static void test_cache_warm_then_hit(void **state)
{
    (void)state;
    dram_t d = { .latency = 50, .bytes_per_cycle = 8 };
    cache_config_t c2 = cfg_of("l2", 4096, 4, 64), c1 = cfg_of("l1", 256, 2, 32);
    cache_t *l2 = cache_new(&c2, NULL, &d);
    cache_t *l1 = cache_new(&c1, l2, &d);
    cache_warm(l1, 0x1000, false);
    assert_int_equal(accesses(l1), 0);
    assert_int_equal(accesses(l2), 0);
    assert_int_equal(d.reads, 0);
    assert_true(cache_contains(l1, 0x1000));
    assert_true(cache_contains(l2, 0x1000));            /* the fill came through the L2 */
    assert_int_equal(cache_access(l1, 0x1010, false, 100), 101);
    assert_true(cache_last_hit(l1));
    cache_free(l1);
    cache_free(l2);
}

/* LRU order follows the warm accesses; a dirty victim goes into the L2. */
static void test_cache_warm_lru_and_writeback(void **state)
{
    (void)state;
    dram_t d = { .latency = 50, .bytes_per_cycle = 8 };
    cache_config_t c2 = cfg_of("l2", 4096, 4, 64), c1 = cfg_of("l1", 64, 2, 32);  /* 1 set */
    cache_t *l2 = cache_new(&c2, NULL, &d);
    cache_t *l1 = cache_new(&c1, l2, &d);
    cache_warm(l1, 0x1000, true);                       /* A dirty */
    cache_warm(l1, 0x2000, false);                      /* B */
    cache_warm(l1, 0x1000, false);                      /* A most recent */
    cache_warm(l1, 0x3000, false);                      /* evicts B */
    assert_true(cache_contains(l1, 0x1000));
    assert_false(cache_contains(l1, 0x2000));
    cache_way_info_t w[2];
    cache_set_ways(l1, 0, w, 2);
    assert_true((w[0].line_addr == 0x1000 && w[0].dirty) || (w[1].line_addr == 0x1000 && w[1].dirty));
    cache_warm(l1, 0x4000, false);                      /* evicts dirty A into the L2 */
    assert_false(cache_contains(l1, 0x1000));
    cache_set_ways(l2, cache_set_of(l2, 0x1000), w, 2);
    bool dirty_in_l2 = false;
    for (int k = 0; k < 2; k++) dirty_in_l2 |= w[k].valid && w[k].line_addr == 0x1000 && w[k].dirty;
    assert_true(dirty_in_l2);
    stats_t s = {0};
    cache_stats(l1, &s);
    assert_int_equal(stats_find(&s, "l1.writebacks")->ivalue, 0);
    assert_int_equal(stats_find(&s, "l1.misses")->ivalue, 0);
    stats_free(&s);
    cache_free(l1);
    cache_free(l2);
}

static void test_tlb_warm(void **state)
{
    (void)state;
    tlb_config_t c = { "dtlb", 2, 2, 4096, 30 };
    tlb_t *t = tlb_new(&c);
    tlb_warm(t, 0x10000);
    tlb_warm(t, 0x20000);
    tlb_warm(t, 0x10000);
    tlb_warm(t, 0x30000);                               /* evicts 0x20000 (LRU) */
    assert_true(tlb_contains(t, 0x10000));
    assert_false(tlb_contains(t, 0x20000));
    tlb_info_t i;
    tlb_info(t, &i);
    assert_int_equal(i.accesses, 0);
    assert_int_equal(tlb_access(t, 0x30abc), 0);        /* a timed hit: no penalty */
    assert_int_equal(tlb_access(t, 0x20000), 30);
    tlb_free(t);
}

/* ---- branch predictor ---------------------------------------------------------- */

static insn_t control(uint64_t pc, uint16_t flags, uint64_t target)
{
    insn_t in = {0};
    in.pc = pc;
    in.len = 4;
    in.flags = flags;
    in.target = target;
    return in;
}

/* Warming trains as predict + update would, and counts nothing. */
static void test_bpred_warm_trains_uncounted(void **state)
{
    (void)state;
    bpred_config_t c = { .kind = BP_GSHARE };
    bpred_t *warm = bpred_new(&c), *timed = bpred_new(&c);
    insn_t br = control(0x1000, IF_BRANCH | IF_DIRECT, 0x800);
    insn_t call = control(0x2000, IF_JUMP | IF_DIRECT | IF_CALL, 0x3000);
    for (int k = 0; k < 20; k++) {
        bool taken = k % 3 != 0;
        uint64_t next = taken ? br.target : br.pc + br.len;
        bpred_warm(warm, &br, taken, next);
        bpred_predict(timed, &br);
        bpred_update(timed, &br, taken, next);
    }
    bpred_warm(warm, &call, true, 0x3000);
    bpred_predict(timed, &call);
    bpred_update(timed, &call, true, 0x3000);
    bpred_probe_t a, b;
    bpred_probe(warm, br.pc, &a);
    bpred_probe(timed, br.pc, &b);
    assert_int_equal(a.counter, b.counter);
    assert_int_equal(a.history, b.history);
    assert_true(a.btb_hit && b.btb_hit);
    assert_int_equal(a.btb_target, b.btb_target);
    assert_int_equal(a.ras_depth, 1);
    assert_int_equal(a.ras_top, 0x2004);
    const char *name;
    uint64_t lookups, correct;
    for (unsigned k = 0; bpred_accuracy(warm, k, &name, &lookups, &correct); k++)
        assert_int_equal(lookups, 0);
    bpred_free(warm);
    bpred_free(timed);
}

/* ---- the spec ---------------------------------------------------------------------- */

static void test_parse(void **state)
{
    (void)state;
    smarts_plan_t p;
    char err[256];
    assert_true(smarts_parse("20k", &p, err, sizeof err));
    assert_int_equal(p.unit, SMARTS_DEFAULT_UNIT);
    assert_int_equal(p.warmup, SMARTS_DEFAULT_WARMUP);
    assert_int_equal(p.period, 20000);
    assert_true(smarts_parse("500:0:1M", &p, err, sizeof err));
    assert_int_equal(p.unit, 500);
    assert_int_equal(p.warmup, 0);
    assert_int_equal(p.period, 1000000);
    assert_true(smarts_parse("1000:2000:3000", &p, err, sizeof err));
    static const char *const bad[] = { "", "x", "20k:", "1:2", "1:2:3:4", "0:0:100",
                                       "1000:2000:2999", "2999", "-5", "10x", "1:2:3x",
                                       "99999999999999999999", ":1:2" };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        err[0] = '\0';
        if (smarts_parse(bad[k], &p, err, sizeof err)) fail_msg("'%s' was accepted", bad[k]);
        assert_true(err[0] != '\0');
    }
}

/* ---- the phases -------------------------------------------------------------------- */

static void assert_near(double a, double b, double tol)
{
    if (!(fabs(a - b) <= tol)) fail_msg("%.15g is not %.15g", a, b);
}

static timing_t *ev5_timing(void)
{
    config_t cfg;
    char err[256];
    config_defaults(&cfg);
    cfg.model = CFG_MODEL_EV5;
    timing_t *t = timing_new(&cfg, err, sizeof err);
    assert_non_null(t);
    return t;
}

/* Period 10 = warming 4, warm-up 3, unit 3: the switches fall at 4, 7,
 * 10, 14, ...; a unit's CPI is its cycles over its instructions. */
static void test_phases(void **state)
{
    (void)state;
    timing_t *t = ev5_timing();
    smarts_plan_t p = { .unit = 3, .warmup = 3, .period = 10 };
    smarts_t *s = smarts_new(&p, t);
    static const uint64_t at[] = { 4, 7, 10, 14, 17, 20, 24 };
    static const bool detailed[] = { true, true, false, true, true, false, true };
    assert_false(smarts_detailed(s));
    timing_hot_t *h = timing_hot(t);
    for (size_t k = 0; k < sizeof at / sizeof at[0]; k++) {
        assert_int_equal(smarts_next_switch(s), at[k]);
        if (smarts_detailed(s)) h->cycles += 2 * (at[k] - (k ? at[k - 1] : 0)) + k;
        smarts_switch(s, at[k]);
        assert_int_equal(smarts_detailed(s), detailed[k]);
    }
    smarts_result_t r;
    smarts_result(s, 24, &r);
    assert_int_equal(r.units, 2);          /* unit 1: (6 + 2) / 3, unit 2: (6 + 5) / 3 */
    assert_near(r.cpi, (8.0 / 3 + 11.0 / 3) / 2, 1e-12);
    assert_near(r.stdev, sqrt(2 * pow(1.5 / 3, 2)), 1e-12);
    assert_near(r.ci, 3 * r.stdev / sqrt(2), 1e-12);
    assert_near(r.cycles, r.cpi * 24, 1e-9);
    smarts_free(s);
    timing_free(t);
}

/* U + W = N: no functional warming at all; a run inside the first
 * period has no estimate. */
static void test_no_warming_and_no_unit(void **state)
{
    (void)state;
    timing_t *t = ev5_timing();
    smarts_plan_t p = { .unit = 2, .warmup = 3, .period = 5 };
    smarts_t *s = smarts_new(&p, t);
    assert_true(smarts_detailed(s));
    for (int k = 0; k < 6; k++) {
        smarts_switch(s, smarts_next_switch(s));
        assert_true(smarts_detailed(s));
    }
    smarts_free(s);
    p = (smarts_plan_t){ .unit = 2, .warmup = 3, .period = 100 };
    s = smarts_new(&p, t);
    smarts_result_t r;
    smarts_result(s, 50, &r);
    assert_int_equal(r.units, 0);
    assert_true(isnan(r.cpi) && isnan(r.ci));
    smarts_free(s);
    timing_free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_warm_then_hit),
        cmocka_unit_test(test_cache_warm_lru_and_writeback),
        cmocka_unit_test(test_tlb_warm),
        cmocka_unit_test(test_bpred_warm_trains_uncounted),
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_phases),
        cmocka_unit_test(test_no_warming_and_no_unit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
