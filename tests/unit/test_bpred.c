/*
 * test_bpred.c - unit tests of branch prediction (pipeline/bpred.c) on
 * synthetic outcome streams whose mispredictions can be counted by hand:
 * static not-taken, bimodal, gshare and the 21264-style tournament, the
 * BTB (misses, hits, LRU), the return-address stack (nesting, overflow,
 * underflow), indirect calls and the statistics.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "bpred.h"

/* ---- helpers ------------------------------------------------------------ */

static insn_t control(uint64_t pc, uint16_t flags, uint64_t target)
{
    insn_t in = {0};
    in.pc = pc;
    in.len = 4;
    in.flags = flags;
    in.target = target;
    return in;
}

static insn_t cond(uint64_t pc, uint64_t target)
{
    return control(pc, IF_BRANCH | IF_DIRECT, target);
}
static insn_t jump(uint64_t pc, uint64_t target)
{
    return control(pc, IF_JUMP | IF_DIRECT, target);
}
static insn_t call(uint64_t pc, uint64_t target)
{
    return control(pc, IF_JUMP | IF_DIRECT | IF_CALL, target);
}
static insn_t icall(uint64_t pc) { return control(pc, IF_JUMP | IF_INDIRECT | IF_CALL, 0); }
static insn_t ijump(uint64_t pc) { return control(pc, IF_JUMP | IF_INDIRECT, 0); }
static insn_t ret(uint64_t pc) { return control(pc, IF_JUMP | IF_INDIRECT | IF_RETURN, 0); }

static bpred_t *make(bpred_kind_t kind)
{
    bpred_config_t c = { .kind = kind };
    bpred_t *b = bpred_new(&c);
    assert_non_null(b);
    return b;
}

/* Predict then update, as the pipeline does; returns "correct". */
static bool step(bpred_t *b, const insn_t *in, uint64_t next_pc)
{
    bpred_predict(b, in);
    return bpred_update(b, in, next_pc != in->pc + in->len, next_pc);
}

static bool step_cond(bpred_t *b, const insn_t *in, bool taken)
{
    bpred_predict(b, in);
    return bpred_update(b, in, taken, taken ? in->target : in->pc + in->len);
}

/* Runs `reps` repetitions of the outcome string `pat` ('T'/'N') on one
 * branch; returns the mispredictions among executions >= from. */
static unsigned run_pattern(bpred_t *b, const insn_t *in, const char *pat, unsigned reps,
                            unsigned from)
{
    unsigned n = 0, miss = 0;
    for (unsigned r = 0; r < reps; r++)
        for (const char *p = pat; *p; p++, n++)
            if (!step_cond(b, in, *p == 'T') && n >= from) miss++;
    return miss;
}

static const stat_entry_t *find(stats_t *s, const char *name)
{
    const stat_entry_t *e = stats_find(s, name);
    if (!e) fail_msg("no statistic %s", name);
    return e;
}

static uint64_t stat_u64(const bpred_t *b, const char *name)
{
    stats_t s = {0};
    bpred_stats(b, &s);
    uint64_t v = find(&s, name)->ivalue;
    stats_free(&s);
    return v;
}

/* ---- direction predictors ---------------------------------------------- */

static void test_static_not_taken(void **state)
{
    (void)state;
    bpred_t *b = make(BP_NOT_TAKEN);
    insn_t br = cond(0x1000, 0x0f00);
    /* 7 taken out of 10 per repetition: every taken one mispredicts. */
    assert_int_equal(run_pattern(b, &br, "TNTTNTTNTT", 20, 0), 140);
    bpred_result_t r = bpred_predict(b, &br);
    assert_false(r.taken);
    assert_int_equal(r.target, 0x1004);
    bpred_update(b, &br, false, 0x1004);
    /* Unconditional direct jumps are still predicted taken. */
    insn_t j = jump(0x2000, 0x3000);
    r = bpred_predict(b, &j);
    assert_true(r.taken);
    assert_int_equal(r.target, 0x3000);
    assert_true(bpred_update(b, &j, true, 0x3000));
    assert_int_equal(stat_u64(b, "bpred.cond.mispredicted"), 140);
    assert_int_equal(stat_u64(b, "bpred.cond.correct"), 61);
    bpred_free(b);
}

static void test_bimodal_always_taken(void **state)
{
    (void)state;
    bpred_t *b = make(BP_BIMODAL);
    insn_t br = cond(0x1040, 0x1000);
    /* Counter starts at 1 (weakly not-taken): the first execution predicts
     * not-taken and mispredicts, the counter goes to 2 and predicts taken
     * from then on.  Exactly one misprediction. */
    bpred_result_t r = bpred_predict(b, &br);
    assert_false(r.taken);
    assert_false(bpred_update(b, &br, true, 0x1000));
    r = bpred_predict(b, &br);
    assert_true(r.taken);
    assert_true(r.btb_hit);                       /* installed by the first */
    assert_int_equal(r.target, 0x1000);
    assert_true(bpred_update(b, &br, true, 0x1000));
    assert_int_equal(run_pattern(b, &br, "T", 98, 0), 0);
    assert_int_equal(stat_u64(b, "bpred.cond.mispredicted"), 1);
    assert_int_equal(stat_u64(b, "bpred.cond.lookups"), 100);
    bpred_free(b);
}

static void test_bimodal_loop_exit(void **state)
{
    (void)state;
    bpred_t *b = make(BP_BIMODAL);
    insn_t br = cond(0x1040, 0x1000);
    /* Trip count 10, five times: the first taken (counter 1) and each of
     * the five exits mispredict; an exit drops the counter 3 -> 2 only. */
    assert_int_equal(run_pattern(b, &br, "TTTTTTTTTN", 5, 0), 6);
    bpred_free(b);
}

static void test_bimodal_alternating(void **state)
{
    (void)state;
    /* Starting taken, the counter oscillates 1 <-> 2 against the outcome:
     * every prediction is wrong. */
    bpred_t *b = make(BP_BIMODAL);
    insn_t br = cond(0x1040, 0x1000);
    assert_int_equal(run_pattern(b, &br, "TN", 50, 0), 100);
    bpred_free(b);
    /* Starting not-taken it oscillates 0 <-> 1: exactly half are right. */
    b = make(BP_BIMODAL);
    assert_int_equal(run_pattern(b, &br, "NT", 50, 0), 50);
    bpred_free(b);
}

static void test_gshare_alternating(void **state)
{
    (void)state;
    bpred_t *b = make(BP_GSHARE);                /* 12 history bits */
    insn_t br = cond(0x1040, 0x1000);
    /* Executions 0..10 each see a new, partly filled history: fresh weakly
     * not-taken counters, so the six taken ones (0,2,..,10) mispredict.
     * From execution 11 the history alternates between 0x555 (next is N:
     * right at once) and 0xaaa (next is T: wrong once, at 12).  Total 7. */
    assert_int_equal(run_pattern(b, &br, "TN", 100, 0), 7);
    bpred_free(b);
    b = make(BP_GSHARE);
    assert_int_equal(run_pattern(b, &br, "TN", 100, 13), 0);
    bpred_free(b);
}

static void test_tournament_local_learns_trip3(void **state)
{
    (void)state;
    /* One bit of global history cannot tell the two taken executions of
     * T T N apart; ten bits of local history can. */
    bpred_config_t c = { .kind = BP_TOURNAMENT, .history_bits = 1 };
    bpred_t *b = bpred_new(&c);
    assert_non_null(b);
    insn_t br = cond(0x1040, 0x1000);
    assert_int_equal(run_pattern(b, &br, "TTN", 200, 150), 0);
    assert_true(stat_u64(b, "bpred.tournament.chose_local") > 300);
    assert_int_equal(stat_u64(b, "bpred.tournament.chose_local") +
                     stat_u64(b, "bpred.tournament.chose_global"), 600);
    bpred_free(b);
    /* The same global history in gshare keeps mispredicting. */
    c.kind = BP_GSHARE;
    b = bpred_new(&c);
    assert_non_null(b);
    assert_true(run_pattern(b, &br, "TTN", 200, 150) >= 100);
    bpred_free(b);
    /* With the 21264's default sizes the loop is learnt too. */
    b = make(BP_TOURNAMENT);
    assert_int_equal(run_pattern(b, &br, "TTN", 200, 150), 0);
    bpred_free(b);
}

static void test_tournament_always_taken(void **state)
{
    (void)state;
    bpred_t *b = make(BP_TOURNAMENT);
    insn_t br = cond(0x1040, 0x1000);
    /* Executions 0..10 see local histories 0, 1, 3, .., 0x3ff and global
     * histories 0, 1, .., 0x7ff, each with a fresh weakly not-taken counter:
     * eleven mispredictions.  At 11 the local counter for 0x3ff has reached
     * 4 (taken) while the fresh global one for 0xfff says not-taken; the
     * chooser starts weakly local, so it is right, and stays right. */
    assert_int_equal(run_pattern(b, &br, "T", 12, 0), 11);
    assert_int_equal(run_pattern(b, &br, "T", 100, 0), 0);
    assert_int_equal(stat_u64(b, "bpred.tournament.chose_global"), 0);
    bpred_free(b);
}

/* ---- BTB ---------------------------------------------------------------- */

static void test_btb_miss_then_hit(void **state)
{
    (void)state;
    bpred_t *b = make(BP_BIMODAL);
    insn_t j = jump(0x2000, 0x8000);
    bpred_result_t r = bpred_predict(b, &j);
    assert_true(r.taken);                          /* direction from decode */
    assert_false(r.btb_hit);
    assert_int_equal(r.target, 0x8000);
    assert_true(bpred_update(b, &j, true, 0x8000)); /* right, with a bubble */
    r = bpred_predict(b, &j);
    assert_true(r.taken);
    assert_true(r.btb_hit);
    assert_int_equal(r.target, 0x8000);
    assert_true(bpred_update(b, &j, true, 0x8000));
    assert_int_equal(stat_u64(b, "bpred.btb.hits"), 1);
    assert_int_equal(stat_u64(b, "bpred.btb.misses"), 1);
    assert_int_equal(stat_u64(b, "bpred.decode_redirects"), 1);
    assert_int_equal(stat_u64(b, "bpred.jump.correct"), 2);
    bpred_free(b);
}

static bool btb_has(bpred_t *b, uint64_t pc)
{
    insn_t j = jump(pc, 0x9000);
    return bpred_predict(b, &j).btb_hit;           /* predict changes nothing */
}

static void test_btb_lru(void **state)
{
    (void)state;
    bpred_config_t c = { .kind = BP_BIMODAL, .btb_entries = 8, .btb_assoc = 2 };
    bpred_t *b = bpred_new(&c);
    assert_non_null(b);
    /* Multiples of 16 all fall in set 0 of the four. */
    insn_t A = jump(0x1000, 0x9000), B = jump(0x2000, 0x9000), C = jump(0x3000, 0x9000);
    insn_t D = jump(0x1004, 0x9000);               /* another set */
    step(b, &A, 0x9000);
    step(b, &B, 0x9000);
    step(b, &D, 0x9000);
    assert_true(btb_has(b, 0x1000));
    assert_true(btb_has(b, 0x2000));
    step(b, &A, 0x9000);                           /* A most recently used */
    step(b, &C, 0x9000);                           /* evicts B */
    assert_true(btb_has(b, 0x1000));
    assert_false(btb_has(b, 0x2000));
    assert_true(btb_has(b, 0x3000));
    assert_true(btb_has(b, 0x1004));
    step(b, &B, 0x9000);                           /* evicts A now */
    assert_false(btb_has(b, 0x1000));
    assert_true(btb_has(b, 0x3000));
    bpred_free(b);
}

/* ---- return-address stack ------------------------------------------------ */

static void test_ras_nested(void **state)
{
    (void)state;
    bpred_t *b = make(BP_BIMODAL);
    insn_t c1 = call(0x1000, 0x2000), c2 = call(0x2010, 0x3000), c3 = call(0x3008, 0x4000);
    insn_t r3 = ret(0x4004), r2 = ret(0x3010), r1 = ret(0x2020);
    for (int rep = 0; rep < 2; rep++) {
        assert_true(step(b, &c1, 0x2000));
        assert_true(step(b, &c2, 0x3000));
        assert_true(step(b, &c3, 0x4000));
        bpred_result_t r = bpred_predict(b, &r3);
        assert_true(r.taken);
        assert_true(r.btb_hit);
        assert_int_equal(r.target, 0x300c);
        assert_true(bpred_update(b, &r3, true, 0x300c));
        assert_true(step(b, &r2, 0x2014));
        assert_true(step(b, &r1, 0x1004));
    }
    assert_int_equal(stat_u64(b, "bpred.ras.hits"), 6);
    assert_int_equal(stat_u64(b, "bpred.ras.misses"), 0);
    assert_int_equal(stat_u64(b, "bpred.return.correct"), 6);
    assert_int_equal(stat_u64(b, "bpred.call.lookups"), 6);
    assert_int_equal(stat_u64(b, "bpred.decode_redirects"), 3); /* first calls */
    bpred_free(b);
}

/* Recursion depth 6 on a 4-entry stack: level i is entered by a call at
 * 0x1000 + 0x40 * i and returns from 0x1000 + 0x40 * (i + 1) + 0x20.  All
 * pcs lie in one 512-byte window, so each has its own BTB set. */
static uint64_t level(uint64_t i) { return 0x1000 + 0x40 * i; }

static unsigned deep_recursion(bpred_t *b)
{
    unsigned wrong = 0;
    for (uint64_t i = 0; i < 6; i++) {
        insn_t c = call(level(i), level(i + 1));
        wrong += !step(b, &c, c.target);
    }
    for (uint64_t i = 6; i-- > 0;) {
        insn_t r = ret(level(i + 1) + 0x20);
        wrong += !step(b, &r, level(i) + 4);
    }
    return wrong;
}

static void test_ras_overflow(void **state)
{
    (void)state;
    bpred_config_t c = { .kind = BP_BIMODAL, .ras_entries = 4 };
    bpred_t *b = bpred_new(&c);
    assert_non_null(b);
    /* The two oldest return addresses were overwritten: the four newest
     * returns hit, the last two find the stack empty and the BTB cold. */
    assert_int_equal(deep_recursion(b), 2);
    assert_int_equal(stat_u64(b, "bpred.ras.overflows"), 2);
    assert_int_equal(stat_u64(b, "bpred.ras.hits"), 4);
    assert_int_equal(stat_u64(b, "bpred.ras.underflows"), 2);
    /* Second time the underflowing returns are predicted by the BTB. */
    assert_int_equal(deep_recursion(b), 0);
    assert_int_equal(stat_u64(b, "bpred.ras.hits"), 8);
    assert_int_equal(stat_u64(b, "bpred.ras.underflows"), 4);
    assert_int_equal(stat_u64(b, "bpred.return.mispredicted"), 2);
    bpred_free(b);
}

static void test_ras_wrong_target(void **state)
{
    (void)state;
    bpred_t *b = make(BP_BIMODAL);
    insn_t c = call(0x1000, 0x2000), r = ret(0x2008);
    step(b, &c, 0x2000);
    assert_false(step(b, &r, 0x7777));             /* e.g. longjmp */
    assert_int_equal(stat_u64(b, "bpred.ras.misses"), 1);
    bpred_free(b);
}

/* ---- indirect transfers ---------------------------------------------------- */

static void test_indirect_call_targets(void **state)
{
    (void)state;
    bpred_t *b = make(BP_GSHARE);
    insn_t ic = icall(0x5000);
    const uint64_t targets[] = { 0xa000, 0xb000, 0xa000, 0xa000 };
    const bool expect[] = { false, false, false, true };
    for (int k = 0; k < 4; k++) {
        bpred_result_t p = bpred_predict(b, &ic);
        if (k == 0) {
            assert_false(p.taken);                 /* cold BTB: fall through */
            assert_false(p.btb_hit);
        } else {
            assert_int_equal(p.target, targets[k - 1]); /* last target */
        }
        assert_int_equal(bpred_update(b, &ic, true, targets[k]), expect[k]);
        insn_t r = ret(targets[k] + 0x10);
        assert_true(step(b, &r, 0x5004));          /* the call pushed */
    }
    assert_int_equal(stat_u64(b, "bpred.call.mispredicted"), 3);
    insn_t ij = ijump(0x6000);
    assert_false(step(b, &ij, 0xc000));
    assert_true(step(b, &ij, 0xc000));
    assert_int_equal(stat_u64(b, "bpred.indirect.lookups"), 2);
    assert_int_equal(stat_u64(b, "bpred.indirect.correct"), 1);
    bpred_free(b);
}

/* ---- interface details -------------------------------------------------------- */

static void test_predict_is_pure(void **state)
{
    (void)state;
    bpred_t *b = make(BP_TOURNAMENT);
    insn_t c = call(0x1000, 0x2000), r = ret(0x2004), br = cond(0x3000, 0x2f00);
    step(b, &c, 0x2000);
    /* Predicting twice (a refetch) pops nothing. */
    assert_int_equal(bpred_predict(b, &r).target, 0x1004);
    assert_int_equal(bpred_predict(b, &r).target, 0x1004);
    assert_true(bpred_update(b, &r, true, 0x1004));
    /* Update without predict predicts first. */
    assert_false(bpred_update(b, &br, true, 0x2f00));
    assert_int_equal(stat_u64(b, "bpred.cond.lookups"), 1);
    /* A jump to the next instruction is "not taken" for the pipeline. */
    insn_t j = jump(0x4000, 0x4004);
    assert_true(bpred_update(b, &j, false, 0x4004));
    /* Non-control instructions are not counted. */
    insn_t add = control(0x5000, 0, 0);
    assert_true(step(b, &add, 0x5004));
    assert_int_equal(stat_u64(b, "bpred.btb.lookups"), 4);
    bpred_free(b);
}

static void test_config(void **state)
{
    (void)state;
    bpred_config_t c = { .kind = BP_GSHARE, .gshare_entries = 1000 };
    assert_null(bpred_new(&c));
    c = (bpred_config_t){ .kind = BP_BIMODAL, .btb_entries = 4, .btb_assoc = 8 };
    assert_null(bpred_new(&c));
    c = (bpred_config_t){ .kind = BP_TOURNAMENT, .history_bits = 31 };
    assert_null(bpred_new(&c));
    c = (bpred_config_t){ .kind = BP_TOURNAMENT, .local_history_bits = 17 };
    assert_null(bpred_new(&c));
    c = (bpred_config_t){ .kind = BP_TOURNAMENT, .btb_entries = 64, .btb_assoc = 64,
                          .ras_entries = 3 };   /* fully associative, odd RAS */
    bpred_t *b = bpred_new(&c);
    assert_non_null(b);
    bpred_free(b);
    bpred_free(NULL);
}

static void test_stats_values(void **state)
{
    (void)state;
    bpred_t *b = make(BP_BIMODAL);
    insn_t br = cond(0x1040, 0x1000), j = jump(0x2000, 0x3000);
    run_pattern(b, &br, "TTTTTTTTTN", 1, 0);       /* 2 wrong of 10 */
    step(b, &j, 0x3000);
    step(b, &j, 0x3000);
    stats_t s = {0};
    bpred_stats(b, &s);
    assert_int_equal(find(&s, "bpred.cond.lookups")->ivalue, 10);
    assert_int_equal(find(&s, "bpred.cond.correct")->ivalue, 8);
    assert_int_equal(find(&s, "bpred.cond.mispredicted")->ivalue, 2);
    const stat_entry_t *acc = find(&s, "bpred.cond.accuracy");
    assert_false(acc->is_int);
    assert_true(fabs(acc->fvalue - 0.8) < 1e-12);
    assert_true(isnan(find(&s, "bpred.return.accuracy")->fvalue));
    assert_int_equal(find(&s, "bpred.jump.lookups")->ivalue, 2);
    assert_true(fabs(find(&s, "bpred.jump.accuracy")->fvalue - 1.0) < 1e-12);
    assert_int_equal(find(&s, "bpred.btb.lookups")->ivalue, 12);
    /* cond: miss at 0, hits at 1..9; jump: miss, hit. */
    assert_int_equal(find(&s, "bpred.btb.hits")->ivalue, 10);
    assert_int_equal(find(&s, "bpred.btb.misses")->ivalue, 2);
    assert_int_equal(find(&s, "bpred.decode_redirects")->ivalue, 1);
    assert_int_equal(find(&s, "bpred.call.lookups")->ivalue, 0);
    assert_int_equal(find(&s, "bpred.indirect.lookups")->ivalue, 0);
    assert_null(stats_find(&s, "bpred.tournament.chose_local"));
    stats_free(&s);
    bpred_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_static_not_taken),
        cmocka_unit_test(test_bimodal_always_taken),
        cmocka_unit_test(test_bimodal_loop_exit),
        cmocka_unit_test(test_bimodal_alternating),
        cmocka_unit_test(test_gshare_alternating),
        cmocka_unit_test(test_tournament_local_learns_trip3),
        cmocka_unit_test(test_tournament_always_taken),
        cmocka_unit_test(test_btb_miss_then_hit),
        cmocka_unit_test(test_btb_lru),
        cmocka_unit_test(test_ras_nested),
        cmocka_unit_test(test_ras_overflow),
        cmocka_unit_test(test_ras_wrong_target),
        cmocka_unit_test(test_indirect_call_targets),
        cmocka_unit_test(test_predict_is_pure),
        cmocka_unit_test(test_config),
        cmocka_unit_test(test_stats_values),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
