/*
 * test_timing.c - unit tests of the in-order timing models (pipeline/
 * inorder.c): a timing_t built from a configuration runs a few hand-
 * assembled instructions from a small guest memory image, and the tests
 * check the cycles between consecutive issues (the head cycles of the
 * ground-truth file): dependent vs independent ALU operations, multiply
 * latency, the load-use interlock with and without forwarding, the branch
 * resolution stage, the ev5 issue-group (slotting) rules, pipe limits,
 * divider pipelining, stall causes and culprits, and that the head cycles
 * add up to the cycle count.
 * Run from the top of the tree (the presets are read from ./configs).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core.h"
#include "mem.h"
#include "rv64.h"
#include "timing_harness.h"

/* ---- five-stage pipeline ---------------------------------------------------------- */

static void test_inorder5_alu_dependences(void **state)
{
    result_t r;
    const uint32_t dep[] = { WARM, ADD(T0, A1, A2), ADD(T1, T0, T0), ADD(T2, T1, A1) };
    const uint32_t indep[] = { WARM, ADD(T0, A1, A2), ADD(T1, A1, A1), ADD(T2, A2, A1) };
    run("inorder5", none, dep, 11, &r);       /* EX -> EX forwarding: back to back */
    assert_int_equal(r.head[AT + 1], 1);
    assert_int_equal(r.head[AT + 2], 1);
    run("inorder5", none, indep, 11, &r);
    assert_int_equal(r.head[AT + 1], 1);

    const char *no_exex[] = { "inorder5.forward_ex_ex=false", NULL };
    run("inorder5", no_exex, dep, 11, &r);    /* through MEM/WB: one bubble */
    assert_int_equal(r.head[AT + 1], 2);
    assert_int_equal(r.stall[AT + 1][STALL_DEP], 1);
    assert_int_equal(r.culprit[AT + 1], CODE + 4 * AT);
    run("inorder5", no_exex, indep, 11, &r);
    assert_int_equal(r.head[AT + 1], 1);

    const char *no_fwd[] = { "inorder5.forward_ex_ex=false", "inorder5.forward_mem_ex=false",
                             NULL };
    run("inorder5", no_fwd, dep, 11, &r);     /* through the register file: two */
    assert_int_equal(r.head[AT + 1], 3);
    assert_int_equal(r.head[AT + 2], 3);
}

static void test_inorder5_multiply_holds_ex(void **state)
{
    result_t r;
    const uint32_t dep[] = { WARM, MUL(T0, A1, A2), ADD(T1, T0, T0) };
    const uint32_t indep[] = { WARM, MUL(T0, A1, A2), ADD(T1, A1, A1) };
    run("inorder5", none, dep, 10, &r);
    assert_int_equal(r.head[AT + 1], 4);      /* lat.int_mul */
    run("inorder5", none, indep, 10, &r);     /* the multiply holds EX anyway */
    assert_int_equal(r.head[AT + 1], 4);
    assert_int_equal(r.stall[AT + 1][STALL_FU], 3);
    const char *mul7[] = { "lat.int_mul=7", NULL };
    run("inorder5", mul7, dep, 10, &r);
    assert_int_equal(r.head[AT + 1], 7);
}

static void test_inorder5_load_use(void **state)
{
    result_t r;
    const uint32_t use[] = { WARM, LD(T0, A0, 8), ADD(T1, T0, T0) };
    const uint32_t other[] = { WARM, LD(T0, A0, 8), ADD(T1, A1, A1) };
    run("inorder5", none, use, 10, &r);
    assert_int_equal(r.head[AT + 1], 2);      /* one load-use bubble */
    assert_int_equal(r.stall[AT + 1][STALL_DEP], 1);
    assert_int_equal(r.culprit[AT + 1], CODE + 4 * AT);
    run("inorder5", none, other, 10, &r);
    assert_int_equal(r.head[AT + 1], 1);

    const char *no_memex[] = { "inorder5.forward_mem_ex=false", NULL };
    run("inorder5", no_memex, use, 10, &r);   /* from the register file after WB */
    assert_int_equal(r.head[AT + 1], 3);
    const char *lu3[] = { "lat.load_use=3", NULL };
    run("inorder5", lu3, use, 10, &r);
    assert_int_equal(r.head[AT + 1], 3);
}

static void test_inorder5_load_miss(void **state)
{
    result_t r;
    /* the load at AT misses (another line): the consumer waits for the L2 */
    const uint32_t miss[] = { WARM, LD(T0, A0, 256), ADD(T1, T0, T0), ADD(T2, A1, A1) };
    run("inorder5", none, miss, 11, &r);
    assert_int_equal(r.head[AT + 1], 1 + 1 + 10);   /* EX, l1d hit time, l2.hit_latency */
    assert_int_equal(r.stall[AT + 1][STALL_DCACHE], 11);
    assert_int_equal(r.culprit[AT + 1], CODE + 4 * AT);
}

/* A taken branch predicted not taken: the target enters EX 1 + penalty
 * cycles after the branch, the penalty being the resolving stage's. */
static void test_inorder5_branch_resolve(void **state)
{
    static const struct { const char *stage; uint64_t penalty; } cases[] = {
        { "inorder5.branch_resolve=id", 1 }, { "inorder5.branch_resolve=ex", 2 },
        { "inorder5.branch_resolve=mem", 3 },
    };
    const uint32_t code[] = { WARM, BEQ(ZERO, ZERO, 8), NOP, ADD(T0, A1, A1) };
    for (size_t k = 0; k < 3; k++) {
        const char *sets[] = { "bpred.kind=not_taken", cases[k].stage, NULL };
        result_t r;
        run("inorder5", sets, code, 10, &r);
        assert_int_equal(r.head[AT + 2], 1 + cases[k].penalty);
        assert_int_equal(r.stall[AT + 2][STALL_MISPREDICT], cases[k].penalty);
        assert_int_equal(r.culprit[AT + 2], CODE + 4 * AT);      /* the branch */
    }
    /* predicted correctly (not taken, falls through): no bubble */
    const uint32_t fall[] = { WARM, BNE(ZERO, ZERO, 8), NOP, ADD(T0, A1, A1) };
    const char *nt[] = { "bpred.kind=not_taken", NULL };
    result_t r;
    run("inorder5", nt, fall, 11, &r);
    assert_int_equal(r.head[AT + 1], 1);
}

static void test_inorder5_heads_add_up(void **state)
{
    result_t r;
    const uint32_t code[] = { WARM, LD(T0, A0, 256), MUL(T1, T0, T0), ADD(T2, T1, T1),
                              BEQ(ZERO, ZERO, 8), NOP, ADD(T0, A1, A1) };
    run("inorder5", none, code, 13, &r);
    /* the last instruction still passes MEM and WB after entering EX */
    assert_int_equal(r.head_sum + 2, r.cycles);
}

/* ---- the 21164-like superscalar -------------------------------------------------- */

static void test_ev5_dependent_vs_independent(void **state)
{
    result_t r;
    const uint32_t dep[] = { WARM, ADD(T0, A1, A2), ADD(T1, T0, T0), ADD(T2, T1, T1), NOP };
    const uint32_t indep[] = { WARM, ADD(T0, A1, A2), ADD(T1, A1, A1), ADD(T2, A2, A2), NOP };
    run("ev5", none, dep, 12, &r);
    assert_int_equal(r.head[AT + 1], 1);
    assert_int_equal(r.head[AT + 2], 1);
    run("ev5", none, indep, 12, &r);          /* two integer pipes: pairs */
    assert_int_equal(r.head[AT + 1], 0);
    assert_int_equal(r.head[AT + 2], 1);
    assert_int_equal(r.head[AT + 3], 0);
    const char *four[] = { "ev5.int_pipes=4", NULL };
    run("ev5", four, indep, 12, &r);          /* the whole block at once */
    assert_int_equal(r.head[AT + 1] + r.head[AT + 2] + r.head[AT + 3], 0);
}

static void test_ev5_latencies(void **state)
{
    result_t r;
    const uint32_t mul[] = { WARM, MUL(T0, A1, A2), ADD(T1, T0, T0) };
    run("ev5", none, mul, 10, &r);
    assert_int_equal(r.head[AT + 1], 12);     /* lat.int_mul of the preset */
    assert_int_equal(r.stall[AT + 1][STALL_DEP], 11);
    const uint32_t load[] = { WARM, LD(T0, A0, 8), ADD(T1, T0, T0) };
    run("ev5", none, load, 10, &r);
    assert_int_equal(r.head[AT + 1], 2);      /* lat.load_use */
    const uint32_t miss[] = { WARM, LD(T0, A0, 256), ADD(T1, T0, T0) };
    run("ev5", none, miss, 10, &r);
    assert_int_equal(r.head[AT + 1], 2 + 6);  /* l1d.hit_latency + l2.hit_latency */
    assert_int_equal(r.stall[AT + 1][STALL_DCACHE], 7);
    assert_int_equal(r.culprit[AT + 1], CODE + 4 * AT);
}

/* Slotting: a block's instructions issue in order, each on a pipe of its
 * class; the next block waits until the whole block has issued. */
static void test_ev5_slotting(void **state)
{
    result_t r;
    /* int, FA, int, FM: one cycle */
    const uint32_t mixed[] = { WARM, ADD(T0, A1, A1), FADD(1, 2, 3), ADD(T1, A1, A1),
                               FMUL(4, 2, 3) };
    run("ev5", none, mixed, 12, &r);
    assert_int_equal(r.head[AT + 1] + r.head[AT + 2] + r.head[AT + 3], 0);
    /* two adds of the FP add pipe: the second waits a cycle */
    const uint32_t fadds[] = { WARM, FADD(1, 2, 3), FADD(4, 2, 3), NOP, NOP };
    run("ev5", none, fadds, 12, &r);
    assert_int_equal(r.head[AT + 1], 1);
    assert_int_equal(r.stall[AT + 1][STALL_SLOT], 0);
    /* loads use the integer pipes: two loads fill both, the add waits */
    const uint32_t loads[] = { WARM, LD(T0, A0, 0), LD(T1, A0, 8), ADD(T2, A1, A1), NOP };
    run("ev5", none, loads, 12, &r);
    assert_int_equal(r.head[AT + 1], 0);
    assert_int_equal(r.head[AT + 2], 1);
    /* block A = FA, FM, int, FA: the second FA issues a cycle later; the
     * next block's int op may not join that group while slotting is on */
    const uint32_t blocks[] = { WARM, FADD(1, 2, 3), FMUL(4, 2, 3), ADD(T0, A1, A1),
                                FADD(5, 2, 3), ADD(T1, A1, A1), NOP, NOP, NOP };
    run("ev5", none, blocks, 16, &r);
    assert_int_equal(r.head[AT + 3], 1);
    assert_int_equal(r.head[AT + 4], 1);
    const char *free_slot[] = { "ev5.slotting=false", NULL };
    run("ev5", free_slot, blocks, 16, &r);
    assert_int_equal(r.head[AT + 3], 1);
    assert_int_equal(r.head[AT + 4], 0);
}

static void test_ev5_branches(void **state)
{
    result_t r;
    /* a branch ends its issue group even when not taken */
    const uint32_t nt[] = { WARM, ADD(T0, A1, A1), BNE(ZERO, ZERO, 8), ADD(T1, A1, A1), NOP };
    run("ev5", none, nt, 12, &r);
    assert_int_equal(r.head[AT + 1], 0);
    assert_int_equal(r.head[AT + 2], 1);
    /* mispredicted: the target issues 1 + ev5.mispredict_penalty later */
    const uint32_t taken[] = { WARM, BEQ(ZERO, ZERO, 8), NOP, ADD(T0, A1, A1) };
    const char *sets[] = { "bpred.kind=not_taken", NULL };
    run("ev5", sets, taken, 10, &r);
    assert_int_equal(r.head[AT + 2], 1 + 5);
    assert_int_equal(r.stall[AT + 2][STALL_MISPREDICT], 5);
    assert_int_equal(r.culprit[AT + 2], CODE + 4 * AT);
    const char *sets9[] = { "bpred.kind=not_taken", "ev5.mispredict_penalty=9", NULL };
    run("ev5", sets9, taken, 10, &r);
    assert_int_equal(r.head[AT + 2], 1 + 9);
}

static void test_ev5_divider(void **state)
{
    result_t r;
    const uint32_t divs[] = { WARM, FDIV(1, 2, 3), FDIV(4, 2, 3), NOP, NOP };
    run("ev5", none, divs, 12, &r);
    assert_int_equal(r.head[AT + 1], 22);     /* lat.fp_div, not pipelined */
    assert_int_equal(r.stall[AT + 1][STALL_FU], 21);
    assert_int_equal(r.culprit[AT + 1], CODE + 4 * AT);
    const char *piped[] = { "lat.fp_div_pipelined=true", NULL };
    run("ev5", piped, divs, 12, &r);
    assert_int_equal(r.head[AT + 1], 1);      /* one FM pipe: next cycle */
    const char *intpiped[] = { "lat.int_div_pipelined=true", NULL };
    run("ev5", intpiped, divs, 12, &r);       /* the integer divider's switch */
    assert_int_equal(r.head[AT + 1], 22);
}

static void test_ev5_heads_add_up(void **state)
{
    result_t r;
    const uint32_t code[] = { WARM, LD(T0, A0, 256), MUL(T1, T0, T0), ADD(T2, T1, T1),
                              BEQ(ZERO, ZERO, 8), NOP, ADD(T0, A1, A1) };
    run("ev5", none, code, 13, &r);
    assert_int_equal(r.head_sum + 1, r.cycles);   /* the last one retires a cycle later */
}

/* ---- the per-pc truth's stores (timing.c) --------------------------------------- */

/* A loop's records, kept in the flat store, in chunks, or split between
 * them, in the ground-truth file or as heads only (the models' heads
 * variants), are the same. */
static void test_truth_stores_agree(void **state)
{
    const uint32_t loop[] = { WARM, ADDI(T0, T0, 1), LD(T1, A0, 0), MUL(T2, T1, T0),
                              ADD(T1, T2, T0), BEQ(ZERO, ZERO, -16) };
    const harness_truth_t ways[] = {
        { CODE, CODE + 0x1000, false }, { CODE + 0x24, CODE + 0x2c, false },
        { 0, 0, true }, { CODE, CODE + 0x1000, true }, { CODE + 0x24, CODE + 0x2c, true },
    };
    const char *models[] = { "inorder5", "ev5" };
    static result_t ref, r;
    for (int m = 0; m < 2; m++) {
        harness_truth = (harness_truth_t){ 0 };
        run(models[m], none, loop, 200, &ref);
        assert_int_equal(ref.count[8], 39);   /* 8 warm-up, then 38 loops and 2 */
        for (size_t w = 0; w < sizeof ways / sizeof ways[0]; w++) {
            harness_truth = ways[w];
            run(models[m], none, loop, 200, &r);
            assert_int_equal(r.head_sum, ref.head_sum);
            assert_memory_equal(r.head, ref.head, sizeof r.head);
            assert_memory_equal(r.count, ref.count, sizeof r.count);
            if (!ways[w].heads_only) {
                assert_memory_equal(r.stall, ref.stall, sizeof r.stall);
                assert_memory_equal(r.culprit, ref.culprit, sizeof r.culprit);
            }
        }
    }
    harness_truth = (harness_truth_t){ 0 };
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_inorder5_alu_dependences),
        cmocka_unit_test(test_inorder5_multiply_holds_ex),
        cmocka_unit_test(test_inorder5_load_use),
        cmocka_unit_test(test_inorder5_load_miss),
        cmocka_unit_test(test_inorder5_branch_resolve),
        cmocka_unit_test(test_inorder5_heads_add_up),
        cmocka_unit_test(test_ev5_dependent_vs_independent),
        cmocka_unit_test(test_ev5_latencies),
        cmocka_unit_test(test_ev5_slotting),
        cmocka_unit_test(test_ev5_branches),
        cmocka_unit_test(test_ev5_divider),
        cmocka_unit_test(test_ev5_heads_add_up),
        cmocka_unit_test(test_truth_stores_agree),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
