/*
 * test_ooo.c - unit tests of the R10000-like out-of-order model (pipeline/
 * ooo.c) on the r10k preset: hand-assembled code from a small guest image
 * (timing_harness.h), timed by cycle counts and by the ground-truth file,
 * whose head cycles are graduation gaps in this model.  Checked: issue
 * width bound by the ALUs, dependence chains, unpipelined and pipelined
 * multiplies, memory-level parallelism against dependent misses, the active
 * list bounding how far execution runs ahead of a miss, queue and branch
 * stack limits, the mispredict refetch distance, store-to-load forwarding,
 * the memory-dependence policies (a violation and its replay under store
 * sets, a conservative wait for an unrelated store), the wrong path (its
 * store overlay, its D-cache miss, nothing reaching memory or the counts),
 * serializing instructions, stall causes and culprits at graduation, and
 * that the head cycles add up to the cycle count.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "timing_harness.h"

/* The code buffer tests fill: WARM and a fence, so that the body starts
 * once the warm-up load has graduated (out of order, the body would
 * otherwise run under that cold miss), then the body from index BODY. */
typedef struct prog {
    uint32_t code[MAXN];
    size_t n;
} prog_t;

enum { BODY = AT + 1 };

static void prog_start(prog_t *p)
{
    const uint32_t warm[] = { WARM, FENCE };
    memcpy(p->code, warm, sizeof warm);
    p->n = BODY;
}

static void emit(prog_t *p, uint32_t insn)
{
    assert_true(p->n < MAXN);
    p->code[p->n++] = insn;
}

/* Cycles of the whole program (all its instructions once) on r10k. */
static uint64_t cycles_of(const prog_t *p, const char *const *sets, result_t *r)
{
    run_code("r10k", sets, p->code, p->n, p->n, r);
    return r->cycles;
}

/* k copies of insn after WARM. */
static uint64_t cycles_of_copies(uint32_t insn, size_t k, const char *const *sets, result_t *r)
{
    prog_t p;
    prog_start(&p);
    for (size_t j = 0; j < k; j++) emit(&p, insn);
    return cycles_of(&p, sets, r);
}

/* Cycles per instruction of a long run of insn: the difference between 96
 * and 192 copies, over 96. */
static double cpi_of(uint32_t insn, const char *const *sets)
{
    result_t r;
    uint64_t a = cycles_of_copies(insn, 96, sets, &r);
    uint64_t b = cycles_of_copies(insn, 192, sets, &r);
    return (double)(b - a) / 96.0;
}

/* ---- issue width and dependences -------------------------------------------------------- */

static void test_ooo_alu_width(void **state)
{
    /* independent adds: two ALUs, so two a cycle; with four, four (fetch,
     * dispatch and graduation are four wide); dispatch width 2 caps it */
    assert_float_equal(cpi_of(ADD(T0, A1, A2), none), 0.5, 1e-9);
    const char *four[] = { "ooo.int_alus=4", NULL };
    assert_float_equal(cpi_of(ADD(T0, A1, A2), four), 0.25, 1e-9);
    const char *narrow[] = { "ooo.int_alus=4", "ooo.dispatch_width=2", NULL };
    assert_float_equal(cpi_of(ADD(T0, A1, A2), narrow), 0.5, 1e-9);
    const char *retire1[] = { "ooo.int_alus=4", "ooo.retire_width=1", NULL };
    assert_float_equal(cpi_of(ADD(T0, A1, A2), retire1), 1.0, 1e-9);
    /* a chain: one a cycle whatever the width */
    assert_float_equal(cpi_of(ADD(T0, T0, A1), four), 1.0, 1e-9);
}

static void test_ooo_multiplies(void **state)
{
    /* r10k: 10-cycle multiply, one unit, not pipelined */
    assert_float_equal(cpi_of(MUL(T0, A1, A2), none), 10.0, 1e-9);
    const char *piped[] = { "ooo.int_mul_pipelined=true", NULL };
    assert_float_equal(cpi_of(MUL(T0, A1, A2), piped), 1.0, 1e-9);
    /* a chain waits for the latency even when pipelined */
    assert_float_equal(cpi_of(MUL(T0, T0, A1), piped), 10.0, 1e-9);
    const char *two[] = { "ooo.muldiv_units=2", NULL };
    assert_float_equal(cpi_of(MUL(T0, A1, A2), two), 5.0, 1e-9);
}

/* ---- memory ------------------------------------------------------------------------------ */

/* Without an L2 (misses go to memory: 60 cycles + 32B at 8B/cycle), eight
 * loads to eight lines overlap four at a time (l1d.mshrs); the same loads
 * chained through their addresses do not overlap at all. */
static void test_ooo_memory_level_parallelism(void **state)
{
    const char *mem[] = { "l2.enabled=false", NULL };
    prog_t indep, chain;
    prog_start(&indep);
    prog_start(&chain);
    for (int k = 1; k <= 8; k++) {
        emit(&indep, LD(T0, A0, 64 * k));
        emit(&chain, ADD(T1, T0, A0));          /* t0 is 0: the address is a0 + 64k */
        emit(&chain, LD(T0, T1, 64 * k));
    }
    result_t r;
    uint64_t base = cycles_of_copies(NOP, 0, mem, &r);
    uint64_t a = cycles_of(&indep, mem, &r) - base;
    uint64_t b = cycles_of(&chain, mem, &r) - base;
    uint64_t miss = 60 + 4 + 2;                 /* latency, transfer, l1d.hit_latency */
    assert_true(a >= 2 * miss && a <= 2 * miss + 12);
    assert_true(b >= 8 * miss);
    const char *one[] = { "l2.enabled=false", "l1d.mshrs=1", NULL };
    assert_true(cycles_of(&indep, one, &r) - base >= 8 * (60 + 4));   /* one refill at a time */
}

/* A miss to memory at the head of the active list: the independent adds
 * behind it run ahead only as far as the active list reaches (31 of them
 * with 32 entries, all 96 with 256 entries and as many rename registers).
 * After the miss the first machine issues 65 adds two a cycle; the second
 * only graduates them, four a cycle. */
static void test_ooo_active_list_bounds_run_ahead(void **state)
{
    prog_t p;
    prog_start(&p);
    emit(&p, LD(T0, A0, 512));
    for (int k = 0; k < 96; k++) emit(&p, ADD(T1, A1, A2));
    const char *mem[] = { "l2.enabled=false", NULL };
    const char *big[] = { "l2.enabled=false", "ooo.rob_entries=256", "ooo.int_rename=256",
                          NULL };
    result_t r;
    uint64_t small_rob = cycles_of(&p, mem, &r);
    assert_true(result_stat(&r, "cpu.ooo.dispatchStallCycles::rob_full") > 0);
    uint64_t large_rob = cycles_of(&p, big, &r);
    assert_int_equal(result_stat(&r, "cpu.ooo.dispatchStallCycles::rob_full"), 0);
    /* with 256 entries all 96 adds execute under the miss */
    assert_true(small_rob >= large_rob + 10);
    /* the rename registers bound it the same way */
    const char *regs[] = { "l2.enabled=false", "ooo.rob_entries=256", "ooo.int_rename=32", NULL };
    assert_int_equal(cycles_of(&p, regs, &r), small_rob);
    assert_true(result_stat(&r, "cpu.ooo.dispatchStallCycles::rename_regs_full") > 0);
    /* the load waits at the head for its data: a D-cache miss, itself the culprit */
    run_code("r10k", mem, p.code, p.n, p.n, &r);
    assert_true(r.stall[BODY][STALL_DCACHE] >= 60);
    assert_int_equal(r.culprit[BODY], CODE + 4 * BODY);
}

/* A store and a younger load of the same word: the load takes the data
 * from the store (no D-cache access, so no miss), the add behind it does
 * not wait for the line. */
static void test_ooo_store_to_load_forwarding(void **state)
{
    prog_t p;
    prog_start(&p);
    emit(&p, SD(A1, A0, 1024));
    emit(&p, LD(T0, A0, 1024));
    emit(&p, ADD(T1, T0, T0));
    result_t r;
    cycles_of(&p, none, &r);
    assert_int_equal(result_stat(&r, "cpu.ooo.forwardedLoads"), 1);
    assert_true(r.head[BODY + 2] <= 3);
    assert_int_equal(r.stall[BODY + 1][STALL_DCACHE], 0);
    assert_int_equal(r.stall[BODY + 2][STALL_DCACHE], 0);
}

/* ---- memory dependences (ooo.memdep) -------------------------------------------------------- */

/* A store whose address comes from a 10-cycle multiply, then a load (its
 * address known at once) of the word at DATA + load_off and an add of the
 * loaded value.  The store writes DATA + 8. */
static void memdep_prog(prog_t *p, int32_t load_off)
{
    prog_start(p);
    emit(p, ADDI(A2, ZERO, 1));
    emit(p, MUL(T1, A0, A2));           /* T1 = DATA, 10 cycles late */
    emit(p, SD(A1, T1, 8));
    emit(p, LD(T0, A0, load_off));
    emit(p, ADD(T2, T0, T0));
}

/* Aliasing: the oracle and the conservative policy hold the load until the
 * store has its address; store sets let it go, it violates, re-issues
 * ooo.replay_penalty after the store resolved (so the run is exactly that
 * much longer), and the load and the add replay.  The load's wait is
 * charged to the store. */
static void test_ooo_memdep_violation(void **state)
{
    prog_t p;
    memdep_prog(&p, 8);
    enum { STORE = BODY + 2, LOAD = BODY + 3 };
    const char *oracle[] = { "ooo.memdep=oracle", NULL };
    const char *conservative[] = { "ooo.memdep=conservative", NULL };
    const char *sets[] = { "ooo.memdep=store_sets", "ooo.replay_penalty=4", NULL };
    result_t r;
    uint64_t exact = cycles_of(&p, oracle, &r);
    assert_int_equal(cycles_of(&p, conservative, &r), exact);
    /* it waited for the store it reads from, not beyond: not counted */
    assert_int_equal(result_stat(&r, "cpu.ooo.memdep.loadsWaited"), 0);
    assert_int_equal(cycles_of(&p, sets, &r), exact + 4);
    assert_int_equal(result_stat(&r, "cpu.ooo.memdep.violations"), 1);
    assert_int_equal(result_stat(&r, "cpu.ooo.memdep.replayedInsts"), 2);
    assert_int_equal(result_stat(&r, "cpu.ooo.memdep.replayCycles"), 4);
    char at[64];
    snprintf(at, sizeof at, "cpu.ooo.memdep.replayCyclesAt::%#x", CODE + 4 * LOAD);
    assert_int_equal(result_stat(&r, at), 4);
    assert_int_equal(r.stall[LOAD][STALL_DEP], r.head[LOAD] - 1);
    assert_int_equal(r.culprit[LOAD], CODE + 4 * STORE);
}

/* No aliasing: only the conservative policy holds the load (it waits for
 * the store's address, and the run ends later); store sets do not violate
 * and time the program as the oracle does. */
static void test_ooo_memdep_independent(void **state)
{
    prog_t p;
    memdep_prog(&p, 16);
    const char *oracle[] = { "ooo.memdep=oracle", NULL };
    const char *conservative[] = { "ooo.memdep=conservative", NULL };
    const char *sets[] = { "ooo.memdep=store_sets", NULL };
    result_t r;
    uint64_t exact = cycles_of(&p, oracle, &r);
    assert_true(cycles_of(&p, conservative, &r) > exact);
    assert_int_equal(result_stat(&r, "cpu.ooo.memdep.loadsWaited"), 1);
    assert_int_equal(cycles_of(&p, sets, &r), exact);
    assert_int_equal(result_stat(&r, "cpu.ooo.memdep.violations"), 0);
    assert_int_equal(result_stat(&r, "cpu.ooo.memdep.loadsWaited"), 0);
}

/* ---- the front end ------------------------------------------------------------------------- */

/* A taken branch predicted not taken: the target is fetched once the
 * branch has resolved (a cycle after issue) plus ooo.mispredict_penalty,
 * dispatched ooo.frontend_depth later and issued the cycle after. */
static void test_ooo_mispredict(void **state)
{
    prog_t p;
    prog_start(&p);
    emit(&p, BEQ(ZERO, ZERO, 8));
    emit(&p, NOP);
    emit(&p, ADD(T0, A1, A1));
    for (unsigned penalty = 1; penalty <= 7; penalty += 3) {
        char pen[64];
        snprintf(pen, sizeof pen, "ooo.mispredict_penalty=%u", penalty);
        const char *sets[] = { "bpred.kind=not_taken", pen, NULL };
        result_t r;
        run_code("r10k", sets, p.code, p.n, p.n - 1, &r);
        uint64_t head = penalty + 1 + 2;        /* + frontend_depth + issue, execute */
        assert_int_equal(r.head[BODY + 2], head);
        assert_int_equal(r.stall[BODY + 2][STALL_MISPREDICT], head - 1);
        assert_int_equal(r.culprit[BODY + 2], CODE + 4 * BODY);
    }
}

/* The wrong path (ooo.wrong_path): a taken branch predicted not taken,
 * resolving after four multiplies; its fall-through stores DATA + 64 at
 * DATA + 8, loads it back (from the speculative store overlay) and loads
 * through it (a D-cache miss), then runs on into the correct path's code
 * and off the end of the program (zeros: an illegal instruction ends the
 * walk).  The correct path then reads DATA + 8: 0, so its branch does not
 * skip the add -- the store never reached memory -- and the wrong-path
 * instructions' execution counts stay 0. */
static void test_ooo_wrong_path(void **state)
{
    prog_t p;
    prog_start(&p);
    emit(&p, ADDI(A1, A0, 64));
    for (int k = 0; k < 4; k++) emit(&p, MUL(A2, A2, A2));
    emit(&p, BEQ(A2, A2, 16));              /* BODY + 5, to BODY + 9 */
    emit(&p, SD(A1, A0, 8));                /* the wrong path */
    emit(&p, LD(T1, A0, 8));
    emit(&p, LD(T2, T1, 0));
    emit(&p, LD(T0, A0, 8));                /* BODY + 9 */
    emit(&p, BNE(T0, ZERO, 8));             /* skips the add if the store leaked */
    emit(&p, ADD(T2, A1, A1));              /* BODY + 11 */
    emit(&p, NOP);
    const char *sets[] = { "bpred.kind=not_taken", "ooo.wrong_path=on", NULL };
    result_t r;
    run_code("r10k", sets, p.code, p.n, p.n - 3, &r);
    assert_int_equal(r.count[BODY + 11], 1);
    for (int k = 6; k <= 8; k++) assert_int_equal(r.count[BODY + k], 0);
    assert_int_equal(result_stat(&r, "cpu.ooo.wrongPath.squashes"), 1);
    assert_int_equal(result_stat(&r, "cpu.ooo.wrongPath.dcacheMisses"), 1);
    assert_int_equal(result_stat(&r, "cpu.ooo.wrongPath.ended::fault"), 1);
    assert_true(result_stat(&r, "cpu.ooo.wrongPath.issued") >= 3);
    /* off: the same program, no wrong-path statistics, the same branch
     * refetch (the wrong path does not delay the correct one here) */
    const char *off[] = { "bpred.kind=not_taken", NULL };
    result_t q;
    run_code("r10k", off, p.code, p.n, p.n - 3, &q);
    assert_int_equal(result_stat(&q, "cpu.ooo.wrongPath.squashes"), ~0ull);
    assert_int_equal(q.head[BODY + 9], r.head[BODY + 9]);
}

/* More unresolved branches than the branch stack holds: the fifth waits
 * for the first to resolve, which waits for a multiply. */
static void test_ooo_branch_stack(void **state)
{
    prog_t p;
    prog_start(&p);
    emit(&p, MUL(T0, A1, A2));
    for (int k = 0; k < 6; k++) emit(&p, BNE(T0, T0, 8));   /* never taken */
    result_t r;
    cycles_of(&p, none, &r);
    assert_true(result_stat(&r, "cpu.ooo.dispatchStallCycles::branch_stack_full") > 0);
    const char *deep[] = { "ooo.branch_stack=8", NULL };
    cycles_of(&p, deep, &r);
    assert_int_equal(result_stat(&r, "cpu.ooo.dispatchStallCycles::branch_stack_full"), 0);
}

/* The integer queue holds instructions until they issue: adds waiting for
 * a multiply fill it. */
static void test_ooo_queue_full(void **state)
{
    prog_t p;
    prog_start(&p);
    emit(&p, MUL(T0, A1, A2));
    for (int k = 0; k < 24; k++) emit(&p, ADD(T1, T0, A1));
    result_t r;
    cycles_of(&p, none, &r);
    assert_true(result_stat(&r, "cpu.ooo.dispatchStallCycles::int_queue_full") > 0);
    const char *deep[] = { "ooo.int_queue=64", NULL };
    cycles_of(&p, deep, &r);
    assert_int_equal(result_stat(&r, "cpu.ooo.dispatchStallCycles::int_queue_full"), 0);
}

/* A fence dispatches once everything older has graduated, and nothing
 * younger dispatches before it has. */
static void test_ooo_serializing(void **state)
{
    prog_t with, without;
    prog_start(&with);
    prog_start(&without);
    emit(&with, LD(T0, A0, 512));
    emit(&without, LD(T0, A0, 512));
    emit(&with, FENCE);
    emit(&without, NOP);
    for (int k = 0; k < 8; k++) {
        emit(&with, ADD(T1, A1, A2));
        emit(&without, ADD(T1, A1, A2));
    }
    result_t r;
    uint64_t a = cycles_of(&with, none, &r);
    assert_true(result_stat(&r, "cpu.ooo.dispatchStallCycles::serializing") > 0);
    uint64_t b = cycles_of(&without, none, &r);
    assert_true(a > b + 4);
}

/* Every cycle up to the last graduation is some instruction's head cycle. */
static void test_ooo_heads_add_up(void **state)
{
    const uint32_t code[] = { WARM, LD(T0, A0, 256), MUL(T1, T0, T0), ADD(T2, T1, T1),
                              BEQ(ZERO, ZERO, 8), NOP, ADD(T0, A1, A1), SD(T0, A0, 64),
                              LD(T1, A0, 64), FENCE, LD(T2, A0, 2040) };
    result_t r;
    run("r10k", none, code, 17, &r);
    assert_int_equal(r.head_sum, r.cycles);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ooo_alu_width),
        cmocka_unit_test(test_ooo_multiplies),
        cmocka_unit_test(test_ooo_memory_level_parallelism),
        cmocka_unit_test(test_ooo_active_list_bounds_run_ahead),
        cmocka_unit_test(test_ooo_store_to_load_forwarding),
        cmocka_unit_test(test_ooo_memdep_violation),
        cmocka_unit_test(test_ooo_memdep_independent),
        cmocka_unit_test(test_ooo_mispredict),
        cmocka_unit_test(test_ooo_wrong_path),
        cmocka_unit_test(test_ooo_branch_stack),
        cmocka_unit_test(test_ooo_queue_full),
        cmocka_unit_test(test_ooo_serializing),
        cmocka_unit_test(test_ooo_heads_add_up),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
