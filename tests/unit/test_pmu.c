/*
 * test_pmu.c - performance counters with skewed interrupt delivery
 * (pipeline/pmu.c) on the timing models, with a small interrupt handler
 * of our own in the runtime region (it reports the sampled pc with
 * hps.notify, optionally reloads the counter with hps.wrpmc, and returns).
 * Checked: an overflow is delivered pmu.skid cycles later to the
 * instruction then at the head (on code that issues one instruction a
 * cycle the sampled pc moves by exactly skid instructions, and the skid
 * statistic counts skid cycles a sample); a counter the handler reloads
 * samples every period; misses and mispredicts are counted as they happen,
 * D-TLB and I-TLB misses on every model with TLBs;
 * interrupts falling due inside the handler are held to its end when the
 * counters count in it, and none fall due when they stand still; a handler
 * that carries the count since the overflow (hps.rdpmc) into the reload
 * keeps samples exactly one period apart; geometric periods drawn by the
 * PMU (pmu.period = geometric) sample once per mean period whatever the
 * handler writes, also with a mean shorter than the skid, and follow the
 * seed; the handler's cycles are timed; hps.wrpmc outside a handler is
 * illegal.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core.h"
#include "dise.h"
#include "runtime.h"
#include "mem.h"
#include "engine.h"
#include "pmu.h"
#include "profile.h"
#include "timing_harness.h"

/* The handler: d9 (the sampled pc) to the host, optionally reload counter
 * d11 with RELOAD (kept in the handler's a1), return. */
static uint32_t MFD(unsigned rd, unsigned n) { return 0x0bu | rd << 7 | 0u << 12 | n << 15; }
static uint32_t NOTIFY(unsigned rs1) { return 0x0bu | 4u << 12 | rs1 << 15; }
static uint32_t WRPMC(unsigned rs1, unsigned rs2) { return 0x0bu | 5u << 12 | rs1 << 15 | rs2 << 20; }
static uint32_t RDPMC(unsigned rd, unsigned rs1) { return 0x0bu | rd << 7 | 6u << 12 | rs1 << 15; }
#define HRET 0x0000200bu
#define LUI(rd, imm20) enc_u(imm20, rd)

typedef struct sampler {
    uint64_t pcs[4096];
    size_t n;
} sampler_t;

static void record(void *ctx, cpu_t *c, uint64_t pc)
{
    sampler_t *s = ctx;
    if (s->n < 4096) s->pcs[s->n++] = pc;
}

/* A handler in its own address space: notify the pc, optionally reload the
 * counter with `reload` (0 = leave it) plus, when `carry`, what it counted
 * since its overflow (hps.rdpmc), then `pad` nops, then return.  It uses
 * only t3, t4 and t5, which the programs here never touch. */
enum { T3 = 28, T4 = 29, T5 = 30 };
static runtime_t *handler_mem_carry(uint64_t reload, unsigned pad, bool carry)
{
    mem_t *m = mem_new();
    assert_true(mem_map(m, RUNTIME_BASE, 0x2000, MEM_PROT_READ | MEM_PROT_EXEC));
    uint32_t code[64];
    size_t n = 0;
    code[n++] = MFD(T3, 9);
    code[n++] = NOTIFY(T3);
    if (reload) {
        uint32_t hi = (uint32_t)((reload + 0x800) >> 12);     /* lui + addi pair */
        code[n++] = MFD(T3, 11);                              /* the counter      */
        code[n++] = LUI(T4, (int32_t)hi);
        code[n++] = ADDI(T4, T4, (int32_t)(reload - ((uint64_t)hi << 12)));
        if (carry) {
            code[n++] = RDPMC(T5, T3);
            code[n++] = ADD(T4, T4, T5);
        }
        code[n++] = WRPMC(T3, T4);
    }
    for (unsigned k = 0; k < pad; k++) code[n++] = NOP;
    code[n++] = HRET;
    assert_true(mem_write(m, RUNTIME_BASE, code, n * 4));
    return runtime_wrap(&isa_rv64, m, RUNTIME_BASE + 0x2000);
}

static runtime_t *handler_mem(uint64_t reload, unsigned pad)
{
    return handler_mem_carry(reload, pad, false);
}

static pmu_t *new_pmu_counting(runtime_t *handler, sampler_t *s, unsigned skid, unsigned bits,
                               bool count_handler)
{
    pmu_config_t cfg = { .counters = 3, .counter_bits = bits, .skid = skid,
                         .count_handler = count_handler };
    pmu_handler_t h = { .runtime = handler, .entry = RUNTIME_BASE, .pid = 1000,
                        .notify = record, .notify_ctx = s };
    return pmu_new(&cfg, &h);
}

static pmu_t *new_pmu(runtime_t *handler, sampler_t *s, unsigned skid, unsigned bits)
{
    return new_pmu_counting(handler, s, skid, bits, false);
}

/* Straight-line independent adds after the warm-up (one a cycle on
 * inorder5 once the code is in the I-cache), ending in a jump to itself
 * so that a run may take any number of instructions. */
static size_t straight_adds(uint32_t *code, size_t n)
{
    const uint32_t warm[] = { WARM };
    memcpy(code, warm, sizeof warm);
    for (size_t k = AT; k < n - 1; k++) code[k] = ADD(T0, A1, A2);
    code[n - 1] = BEQ(ZERO, ZERO, 0);
    return n;
}

static void test_skid_moves_the_sample(void **state)
{
    static uint32_t code[MAXN];
    size_t n = straight_adds(code, MAXN);
    uint64_t sampled[2];
    for (unsigned s = 0; s < 2; s++) {
        unsigned skid = s ? 6 : 0;
        sampler_t smp = { .n = 0 };
        runtime_t *h = handler_mem(0, 0);
        pmu_t *p = new_pmu(h, &smp, skid, 16);
        /* overflow 1400 cycles in: past the cold misses, inside the adds */
        pmu_program(p, 0, PMU_CYCLES, (1u << 16) - 1400);
        result_t r;
        run_code_pmu("inorder5", none, code, n, n, p, &r);
        assert_int_equal(smp.n, 1);
        sampled[s] = smp.pcs[0];
        assert_int_equal(result_stat(&r, "pmu.sampleSkidCycles"), skid);
        assert_int_equal(result_stat(&r, "pmu.interrupts::cycles"), 1);
        pmu_free(p);
        runtime_free(h);
    }
    assert_true(sampled[0] >= CODE + 4 * AT);
    assert_int_equal(sampled[1] - sampled[0], 6 * 4);     /* six instructions later */
}

/* The handler reloads the counter with period 200 at its end: samples
 * are 200 program cycles plus the skid (counted since the overflow, lost
 * by the reload) apart, plus the handler's cycles. */
static void test_reloaded_counter_samples_every_period(void **state)
{
    static uint32_t code[MAXN];
    const uint32_t loop[] = { WARM, ADD(T0, A1, A2), ADD(T1, A1, A2), ADD(T2, A1, A2),
                              BEQ(ZERO, ZERO, -12) };
    memcpy(code, loop, sizeof loop);
    sampler_t smp = { .n = 0 };
    runtime_t *h = handler_mem((1u << 16) - 200, 0);
    pmu_t *p = new_pmu(h, &smp, 6, 16);
    pmu_program(p, 0, PMU_CYCLES, (1u << 16) - 2000);
    result_t r;
    run_code_pmu("inorder5", none, code, sizeof loop / 4, 20000, p, &r);
    uint64_t irq = result_stat(&r, "pmu.interrupts::cycles");
    uint64_t handler = result_stat(&r, "pmu.handlerCycles");
    assert_int_equal(irq, smp.n);
    /* cycles after the first overflow, less the handler's, are irq periods */
    double per = (double)(r.cycles - 2000 - handler) / (double)irq;
    if (!(per > 204 && per < 208))
        fail_msg("%.1f cycles between samples, expected 206", per);
    for (size_t k = 0; k < smp.n; k++)                     /* always a loop pc */
        assert_true(smp.pcs[k] >= CODE + 4 * AT && smp.pcs[k] < CODE + 4 * (AT + 4));
    pmu_free(p);
    runtime_free(h);
}

/* D-cache misses counted one by one: a counter with period 1 interrupts
 * on every miss (loads to eight new lines). */
static void test_event_counter(void **state)
{
    static uint32_t code[MAXN];
    size_t n = straight_adds(code, 64);
    for (int k = 0; k < 8; k++) code[AT + 4 * k] = LD(T0, A0, 256 + 64 * k);
    sampler_t smp = { .n = 0 };
    runtime_t *h = handler_mem(0, 0);
    pmu_t *p = new_pmu(h, &smp, 6, 16);
    pmu_program(p, 1, PMU_DMISS, (1u << 16) - 1);
    result_t r;
    run_code_pmu("inorder5", none, code, n, n + 8 * 3, p, &r);
    assert_int_equal(result_stat(&r, "pmu.interrupts::dmiss"), 1);  /* counts on from 0 */
    pmu_free(p);
    /* reloaded to period 1 by the handler: one interrupt a miss */
    runtime_t *h1 = handler_mem((1u << 16) - 1, 0);
    smp.n = 0;
    p = new_pmu(h1, &smp, 6, 16);
    pmu_program(p, 1, PMU_DMISS, (1u << 16) - 1);
    run_code_pmu("inorder5", none, code, n, n + 8 * 6, p, &r);
    assert_int_equal(result_stat(&r, "pmu.interrupts::dmiss"), 9);  /* + the warm-up's */
    pmu_free(p);
    runtime_free(h);
    runtime_free(h1);
}

/* D-TLB and I-TLB misses counted on every model with TLBs (1 KiB pages):
 * the warm-up's load, two more loads and a store, each to a page of its
 * own, miss the D-TLB -- four dtbmiss events: a counter four events from
 * its overflow interrupts once, after the store --, a second load
 * of a page does not; the program's one code page misses the I-TLB once
 * (the handler's page too, which the exact per-pc counts leave out).  No
 * wrong path here: the _spec twins count the same.  A run without a TLB
 * counter has no statistics line of the TLB events. */
static void test_tlb_event_counters(void **state)
{
    static uint32_t code[MAXN];
    size_t n = straight_adds(code, 64);
    enum { STORE = AT + 30 };
    code[AT] = ADDI(T1, A0, 2040);
    code[AT + 10] = LD(T0, A0, 1024);
    code[AT + 20] = LD(T2, T1, 8);                   /* DATA + 2048 */
    code[STORE] = SD(T2, T1, 1032);                  /* DATA + 3072 */
    code[AT + 40] = LD(T0, A0, 1040);                /* page 1 again: a hit */
    const char *const pages[] = { "mem.page_size=1KiB", "itlb.miss_penalty=30", NULL };
    static const char *const models[] = { "inorder5", "ev5", "r10k" };
    for (size_t m = 0; m < sizeof models / sizeof models[0]; m++) {
        sampler_t smp = { .n = 0 };
        runtime_t *h = handler_mem(0, 0);
        pmu_t *p = new_pmu(h, &smp, 6, 16);
        pmu_program(p, 1, PMU_DTBMISS, (1u << 16) - 4);
        result_t r;
        run_code_pmu(models[m], pages, code, n, n + 32, p, &r);
        assert_int_equal(result_stat(&r, "pmu.events::dtbmiss"), 4);
        assert_int_equal(result_stat(&r, "pmu.events::dtbmiss_spec"), 4);
        assert_int_equal(result_stat(&r, "pmu.interrupts::dtbmiss"), 1);
        assert_int_equal(smp.n, 1);
        /* a skid of 6 cycles: up to 24 instructions on r10k, which issues 4 */
        assert_true(smp.pcs[0] > CODE + 4 * STORE && smp.pcs[0] <= CODE + 4 * (STORE + 24));
        const profile_t *dtb = pmu_exact(p, PMU_DTBMISS), *itb = pmu_exact(p, PMU_ITBMISS);
        assert_int_equal(profile_weight(dtb, CODE + 4 * STORE, 0), 1);
        assert_int_equal(profile_weight(dtb, CODE + 4 * (AT + 40), 0), 0);
        assert_int_equal(profile_total(itb), 1);                        /* the program's */
        assert_int_equal(profile_weight(itb, CODE, 0), 1);
        assert_int_equal(result_stat(&r, "pmu.events::itbmiss"),       /* and the handler's */
                         result_stat(&r, "pmu.events::itbmiss_spec"));
        assert_true(result_stat(&r, "pmu.events::itbmiss") >= 2);
        pmu_free(p);
        p = new_pmu(h, &smp, 6, 16);
        pmu_program(p, 1, PMU_DMISS, (1u << 16) - 1);
        run_code_pmu(models[m], pages, code, n, n + 32, p, &r);
        /* no TLB counter: the misses are counted all the same, none interrupts */
        assert_int_equal(result_stat(&r, "pmu.events::dtbmiss"), 4);
        assert_int_equal(profile_weight(pmu_exact(p, PMU_DTBMISS), CODE + 4 * STORE, 0), 1);
        assert_int_equal(result_stat(&r, "pmu.interrupts::dtbmiss"), 0);
        assert_int_equal(result_stat(&r, "pmu.interrupts::itbmiss"), 0);
        assert_int_not_equal(result_stat(&r, "pmu.events::dmiss"), ~0ull);
        pmu_free(p);
        runtime_free(h);
    }
}

/* A handler longer than the period: with counters that count in it
 * (pmu.count_handler = yes) the next overflow falls due while it runs and
 * waits for its end; with counters that stand still in it, none does. */
static void test_held_while_in_handler(void **state)
{
    static uint32_t code[MAXN];
    size_t n = straight_adds(code, MAXN);
    for (int counting = 1; counting >= 0; counting--) {
        sampler_t smp = { .n = 0 };
        runtime_t *h = handler_mem((1u << 16) - 10, 30);
        pmu_t *p = new_pmu_counting(h, &smp, 6, 16, counting);
        pmu_program(p, 0, PMU_CYCLES, (1u << 16) - 1400);
        result_t r;
        run_code_pmu("inorder5", none, code, n, n + 200, p, &r);
        assert_true(result_stat(&r, "pmu.interrupts::cycles") >= 3);
        if (counting) assert_true(result_stat(&r, "pmu.heldInterrupts") >= 2);
        else assert_int_equal(result_stat(&r, "pmu.heldInterrupts"), 0);
        assert_true(result_stat(&r, "pmu.handlerCycles") >= 30);
        pmu_free(p);
        runtime_free(h);
    }
}

/* The reload with period 200 on one-a-cycle adds: reloaded as is, each
 * period loses the skid counted since the overflow (samples 206 program
 * cycles apart); with that count carried in (hps.rdpmc), exactly 200. */
static void test_carry_keeps_the_period(void **state)
{
    static uint32_t code[MAXN];
    size_t n = straight_adds(code, MAXN);
    for (int carry = 0; carry < 2; carry++) {
        sampler_t smp = { .n = 0 };
        runtime_t *h = handler_mem_carry((1u << 16) - 200, 0, carry);
        pmu_t *p = new_pmu(h, &smp, 6, 16);
        pmu_program(p, 0, PMU_CYCLES, (1u << 16) - 1400);
        result_t r;
        run_code_pmu("inorder5", none, code, n, n + 30000, p, &r);
        uint64_t irq = result_stat(&r, "pmu.interrupts::cycles");
        uint64_t handler = result_stat(&r, "pmu.handlerCycles");
        /* the program cycles after the first overflow hold one sample per
         * 200 (206) of them, and the part of one at the end */
        uint64_t program = r.cycles - 1400 - handler, per = carry ? 200 : 206;
        if (irq != program / per && irq != program / per + 1)
            fail_msg("carry %d: %" PRIu64 " samples in %" PRIu64 " program cycles, expected one "
                     "per %" PRIu64, carry, irq, program, per);
        pmu_free(p);
        runtime_free(h);
    }
}

/* pmu.period = geometric, a handler that reloads a fixed 200 (with the
 * carry): the PMU draws each period itself, so the program cycles the
 * counter counts (the handler's and the returns' shadows left out) hold
 * one sample per `mean` of them on average, the Poisson count's noise
 * aside (4 standard deviations).  With a mean of 20, a few times the skid
 * and the wait for the head, many periods end before the handler runs:
 * their overflows wait for its return, none is lost.  The same seed draws
 * the same periods, another seed others. */
static uint64_t geometric_run(double mean, uint64_t seed, uint64_t *program)
{
    static uint32_t code[MAXN];
    const uint32_t loop[] = { WARM, ADD(T0, A1, A2), ADD(T1, A1, A2), ADD(T2, A1, A2),
                              BEQ(ZERO, ZERO, -12) };
    memcpy(code, loop, sizeof loop);
    sampler_t smp = { .n = 0 };
    runtime_t *h = handler_mem_carry((1u << 16) - 200, 0, true);
    pmu_config_t cfg = { .counters = 3, .counter_bits = 16, .skid = 6, .geometric = true,
                         .seed = seed };
    pmu_handler_t hd = { .runtime = h, .entry = RUNTIME_BASE, .pid = 1000,
                         .notify = record, .notify_ctx = &smp };
    pmu_t *p = pmu_new(&cfg, &hd);
    pmu_program(p, 0, PMU_CYCLES, (1u << 16) - 2000);
    pmu_set_period_mean(p, 0, mean);
    result_t r;
    run_code_pmu("inorder5", none, code, sizeof loop / 4, 60000, p, &r);
    uint64_t irq = result_stat(&r, "pmu.interrupts::cycles");
    *program = r.cycles - result_stat(&r, "pmu.handlerCycles") -
               result_stat(&r, "pmu.returnShadowCycles");
    assert_int_equal(result_stat(&r, "pmu.droppedRequests"), 0);
    pmu_free(p);
    runtime_free(h);
    return irq;
}

static void test_geometric_periods(void **state)
{
    const double means[] = { 200, 20 };
    for (int m = 0; m < 2; m++) {
        uint64_t program, again;
        uint64_t irq = geometric_run(means[m], 1, &program);
        double expected = (double)program / means[m], noise = 4 * sqrt(expected);
        if (!(fabs((double)irq - expected) < noise))
            fail_msg("mean %.0f: %" PRIu64 " samples in %" PRIu64 " program cycles, expected "
                     "%.0f +- %.0f", means[m], irq, program, expected, noise);
        assert_int_equal(geometric_run(means[m], 1, &again), irq);
        assert_int_equal(again, program);
    }
    uint64_t program;
    assert_int_not_equal(geometric_run(200, 1, &program), geometric_run(200, 2, &program));
}

/* hps.wrpmc and hps.notify belong to the handler: in the runtime's own
 * address space but outside a handler frame they are illegal. */
static void test_wrpmc_outside_handler_is_illegal(void **state)
{
    mem_t *m = mem_new();
    assert_true(mem_map(m, RUNTIME_BASE, 0x1000, MEM_PROT_READ | MEM_PROT_EXEC));
    const uint32_t code[] = { WRPMC(A0, A1) };
    assert_true(mem_write(m, RUNTIME_BASE, code, sizeof code));
    runtime_t *rt = runtime_wrap(&isa_rv64, m, RUNTIME_BASE + 0x1000);
    cpu_t *c = calloc(1, sizeof *c);
    cpu_init(c, &isa_rv64, m);
    runtime_attach(rt, c);
    c->pc = RUNTIME_BASE;
    char err[128];
    assert_int_equal(engine_run_once(&(engine_parts_t){ .cpu = c }, 1, err, sizeof err),
                     STOP_ILLEGAL);
    free(c);
    runtime_free(rt);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skid_moves_the_sample),
        cmocka_unit_test(test_reloaded_counter_samples_every_period),
        cmocka_unit_test(test_event_counter),
        cmocka_unit_test(test_tlb_event_counters),
        cmocka_unit_test(test_held_while_in_handler),
        cmocka_unit_test(test_carry_keeps_the_period),
        cmocka_unit_test(test_geometric_periods),
        cmocka_unit_test(test_wrpmc_outside_handler_is_illegal),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
