/*
 * test_dise_truth.c - the exact HPS profiles of a DISE run (hps_truth.h):
 * direct calls and back-edges are added from execution counts at the end
 * of the run, and, for code dropped by a store into its page, when the
 * page is dropped; indirect calls, loads and stores are recorded one by one
 * through the engine's dispatch.  Each test runs one program twice: once
 * plainly, recording every event as it retires (the reference), and once
 * under an ACF (functional core or ev5), and the two sets of profiles must
 * agree member for member.  Also: an instruction the engine needs for
 * nothing keeps its own semantics.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "config.h"
#include "core.h"
#include "core_loop.h"
#include "dise.h"
#include "dise_engine.h"
#include "engine.h"
#include "hps_truth.h"
#include "mem.h"
#include "rv_encode.h"
#include "timing.h"

enum { CODE = 0x10000, DATA = 0x20000, ITERATIONS = 40 };
enum { RA = 1, SP = 2, T0 = 5, T1 = 6, T2 = 7, S0 = 8, A0 = 10, T3 = 28, T4 = 29 };

static const dise_hw_t hw = { .pt_entries = 32, .ct_entries = 16, .rt_entries = 2048,
                              .counters = 4, .counter_bits = 32, .replace_penalty = 1 };

/* A loop of ITERATIONS: a direct call and an indirect call of f (which
 * loops 3 times), a store and a load, every 8th iteration a store of a code
 * word onto itself (which drops the page's decoded instructions), closed by
 * a backward jump. */
static void write_program(mem_t *mem)
{
    const uint32_t program[] = {
        enc_u(0x10, T1),                 /* 0x10000 lui t1, 0x10            */
        enc_i(0x44, T1, 0, T1, 0x13),    /* 0x10004 addi t1, t1, f          */
        enc_u(0x10, T3),                 /* 0x10008 lui t3, 0x10            */
        enc_i(ITERATIONS, 0, 0, S0, 0x13), /* 0x1000c addi s0, zero, N      */
        enc_j(0x34, RA),                 /* 0x10010 loop: jal ra, f         */
        enc_i(0, T1, 0, RA, 0x67),       /* 0x10014 jalr ra, 0(t1)          */
        enc_s(0, S0, SP, 3, 0x23),       /* 0x10018 sd s0, 0(sp)            */
        enc_i(0, SP, 3, A0, 0x03),       /* 0x1001c ld a0, 0(sp)            */
        enc_i(7, S0, 7, T0, 0x13),       /* 0x10020 andi t0, s0, 7          */
        enc_b(12, 0, T0, 1),             /* 0x10024 bnez t0, skip           */
        enc_i(0, T3, 2, T2, 0x03),       /* 0x10028 lw t2, 0(t3)            */
        enc_s(0, T2, T3, 2, 0x23),       /* 0x1002c sw t2, 0(t3)            */
        enc_i(-1, S0, 0, S0, 0x13),      /* 0x10030 skip: addi s0, s0, -1   */
        enc_b(8, 0, S0, 0),              /* 0x10034 beqz s0, done           */
        enc_j(-0x28, 0),                 /* 0x10038 j loop                  */
        0x00100073,                      /* 0x1003c done: ebreak            */
        enc_i(0, 0, 0, 0, 0x13),         /* 0x10040 nop                     */
        enc_i(3, 0, 0, T4, 0x13),        /* 0x10044 f: addi t4, zero, 3     */
        enc_i(-1, T4, 0, T4, 0x13),      /* 0x10048 addi t4, t4, -1         */
        enc_b(-4, 0, T4, 1),             /* 0x1004c bnez t4, -4             */
        enc_i(1, A0, 0, A0, 0x13),       /* 0x10050 addi a0, a0, 1          */
        enc_i(0, RA, 0, 0, 0x67),        /* 0x10054 ret                     */
    };
    assert_true(mem_write(mem, CODE, program, sizeof program));
}

/* Every event is a candidate; every 4th is replaced by a sequence around
 * the instruction. */
static const char *const acf_all =
    "init: set_1(3)\n"
    "P1: (T.OPCLASS == proc_call || T.OPCLASS == mem_op\n"
    "     || ((T.OPCLASS == branch || T.OPCLASS == jump) && T.TARGET <= T.PC))\n"
    "    && !overflow_1 => null, inc_1\n"
    "P2: (T.OPCLASS == proc_call || T.OPCLASS == mem_op\n"
    "     || ((T.OPCLASS == branch || T.OPCLASS == jump) && T.TARGET <= T.PC))\n"
    "    && overflow_1 => R, set_1(3)\n"
    "R: mov d0, T.PC; T.INSN; mov d1, T.OPCLASS\n";

/* Only conditional back-edges are candidates: calls, loads and stores are
 * routed through the engine for the exact profiles alone. */
static const char *const acf_loops =
    "init: set_1(2)\n"
    "P1: T.OPCLASS == branch && T.TARGET <= T.PC && !overflow_1 => null, inc_1\n"
    "P2: T.OPCLASS == branch && T.TARGET <= T.PC && overflow_1 => R, set_1(2)\n"
    "R: T.INSN; mov d1, T.PC\n";

typedef struct machine {
    mem_t *mem;
    cpu_t *cpu;
} machine_t;

static void machine_new(machine_t *m)
{
    m->mem = mem_new();
    assert_true(mem_map(m->mem, CODE, 0x1000, MEM_PROT_READ | MEM_PROT_WRITE | MEM_PROT_EXEC));
    assert_true(mem_map(m->mem, DATA, 0x1000, MEM_PROT_READ | MEM_PROT_WRITE));
    write_program(m->mem);
    m->cpu = calloc(1, sizeof *m->cpu);
    cpu_init(m->cpu, &isa_rv64, m->mem);
    m->cpu->pc = CODE;
    m->cpu->reg[SP] = DATA + 0x100;
}

static void machine_free(machine_t *m)
{
    free(m->cpu);
    mem_free(m->mem);
}

static void truth_new(hps_truth_t *t)
{
    *t = (hps_truth_t){ .method = profile_new(), .pair = profile_new(), .data = profile_new() };
}

static void truth_free(hps_truth_t *t)
{
    profile_free(t->method);
    profile_free(t->pair);
    profile_free(t->data);
}

/* The reference: every program instruction's event recorded as it retires. */
static void recording_loop(cpu_t *c, void *ctx)
{
    hps_truth_t *t = ctx;
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL;
    for (;;) {
        uint64_t pc = c->pc;
        insn_t *in = core_lookup(c, pc, &page_base, &slots);
        core_step(c, in, pc);
        if (in->flags & HPS_TRUTH_FLAGS) hps_truth_record(t, c, in);
        c->instret++;
    }
}

static void run_reference(hps_truth_t *t)
{
    machine_t m;
    machine_new(&m);
    truth_new(t);
    assert_int_equal(cpu_run_loop(m.cpu, recording_loop, t), STOP_BREAKPOINT);
    assert_true(m.mem->decoded_pages_dropped >= ITERATIONS / 8);
    machine_free(&m);
}

static timing_t *ev5(void)
{
    config_t cfg;
    char err[512];
    config_defaults(&cfg);
    if (!config_load(&cfg, "ev5", err, sizeof err)) fail_msg("%s", err);
    timing_t *t = timing_new(&cfg, err, sizeof err);
    if (!t) fail_msg("%s", err);
    return t;
}

/* The same program under `acf`, the exact profiles kept by the engine. */
static void run_dise(const char *acf, bool timed, hps_truth_t *t, uint64_t *replacements)
{
    machine_t m;
    machine_new(&m);
    truth_new(t);
    char err[256] = "";
    dise_env_t env = { .isa = &isa_rv64, .symtab = NULL };
    dise_program_t *prog = acf_parse_string("truth.acf", acf, &env, err, sizeof err);
    if (!prog) fail_msg("parse error: %s", err);
    dise_t *d = dise_new(prog, &hw, NULL, err, sizeof err);
    if (!d) fail_msg("engine error: %s", err);
    dise_attach(d, m.cpu);
    timing_t *tm = timed ? ev5() : NULL;
    engine_parts_t parts = { .cpu = m.cpu, .timing = tm, .dise = d, .hps_truth = t };
    assert_int_equal(engine_run_once(&parts, 0, err, sizeof err), STOP_BREAKPOINT);
    timing_free(tm);
    assert_ptr_equal(m.mem->on_decoded_drop, NULL);      /* the hook is taken out */
    *replacements = d->stat_replacements;
    dise_free(d);
    dise_program_free(prog);
    machine_free(&m);
}

static void assert_same_profile(const profile_t *got, const profile_t *want)
{
    assert_int_equal(profile_total(got), profile_total(want));
    assert_int_equal(profile_members(got), profile_members(want));
    profile_member_t *m = NULL;
    size_t n = profile_sorted(want, &m);
    for (size_t k = 0; k < n; k++)
        assert_int_equal(profile_weight(got, m[k].key, m[k].key2), m[k].weight);
    free(m);
}

static void check(const char *acf, bool timed)
{
    hps_truth_t want, got;
    uint64_t replacements = 0;
    run_reference(&want);
    /* 2 calls and 3 back-edges in f per iteration, the loop's jump but the last;
     * a store and a load per iteration, a load every 8th (its store drops
     * the page it executes from and is not seen) */
    assert_int_equal(profile_total(want.method), 2 * ITERATIONS + 6 * ITERATIONS + ITERATIONS - 1);
    assert_int_equal(profile_total(want.pair), 2 * ITERATIONS);
    assert_int_equal(profile_total(want.data), 2 * ITERATIONS + ITERATIONS / 8);
    run_dise(acf, timed, &got, &replacements);
    assert_true(replacements > 10);
    assert_same_profile(got.method, want.method);
    assert_same_profile(got.pair, want.pair);
    assert_same_profile(got.data, want.data);
    truth_free(&want);
    truth_free(&got);
}

static void test_functional_all_candidates(void **state) { (void)state; check(acf_all, false); }
static void test_functional_loops_only(void **state) { (void)state; check(acf_loops, false); }
static void test_ev5_all_candidates(void **state) { (void)state; check(acf_all, true); }
static void test_ev5_loops_only(void **state) { (void)state; check(acf_loops, true); }

/* Decode gives an instruction the engine's semantics only when a
 * production may match it or its events are recorded one by one. */
static void test_dispatch_only_where_needed(void **state)
{
    (void)state;
    machine_t m;
    machine_new(&m);
    char err[256] = "";
    dise_env_t env = { .isa = &isa_rv64, .symtab = NULL };
    dise_program_t *prog = acf_parse_string("truth.acf", acf_loops, &env, err, sizeof err);
    dise_t *d = dise_new(prog, &hw, NULL, err, sizeof err);
    assert_non_null(d);
    dise_attach(d, m.cpu);
    hps_truth_t t = { .method = profile_new(), .pair = NULL, .data = NULL };
    dise_set_truth(d, &t);
    insn_t *add = cpu_fetch_decode(m.cpu, 0x1000c);          /* addi: nothing */
    assert_int_equal(add->dise, 0);
    assert_ptr_equal(add->exec, isa_rv64.table[add->op].exec);
    insn_t *jal = cpu_fetch_decode(m.cpu, 0x10010);          /* counted */
    assert_int_equal(jal->dise, 0);
    insn_t *load = cpu_fetch_decode(m.cpu, 0x1001c);         /* no data profile */
    assert_int_equal(load->dise, 0);
    insn_t *jalr = cpu_fetch_decode(m.cpu, 0x10014);         /* recorded */
    assert_int_not_equal(jalr->dise, 0);
    assert_ptr_not_equal(jalr->exec, isa_rv64.table[jalr->op].exec);
    assert_ptr_equal(dise_outcome(d, jalr)->exec, isa_rv64.table[jalr->op].exec);
    insn_t *loop = cpu_fetch_decode(m.cpu, 0x1004c);         /* a candidate */
    assert_int_not_equal(loop->dise, 0);
    assert_false(dise_outcome(d, loop)->truth);
    assert_true(dise_outcome(d, jalr)->truth);
    dise_finish(d, m.cpu);
    profile_free(t.method);
    dise_free(d);
    dise_program_free(prog);
    machine_free(&m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_functional_all_candidates),
        cmocka_unit_test(test_functional_loops_only),
        cmocka_unit_test(test_ev5_all_candidates),
        cmocka_unit_test(test_ev5_loops_only),
        cmocka_unit_test(test_dispatch_only_where_needed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
