/*
 * test_dise.c - the DISE engine: HPS counter and flag semantics, the
 * multi-match rules of dise/README.md, decode-time classification, table
 * capacities, and replacement sequences executed by the functional core
 * (instantiated fields, DISE-private registers, internal branches, T.EA).
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
#include "dise.h"
#include "dise_engine.h"
#include "engine.h"
#include "mem.h"
#include "rv_encode.h"
#include "timing.h"

static const dise_hw_t default_hw = { .pt_entries = 32, .ct_entries = 16, .rt_entries = 2048,
                                      .counters = 4, .counter_bits = 32, .replace_penalty = 1 };

typedef struct fixture {
    mem_t *mem;
    cpu_t cpu;
    dise_program_t *prog;
    dise_t *dise;
} fixture_t;

static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof *f);
    f->mem = mem_new();
    mem_map(f->mem, 0x10000, 0x1000, MEM_PROT_READ | MEM_PROT_EXEC);
    mem_map(f->mem, 0x20000, 0x1000, MEM_PROT_READ | MEM_PROT_WRITE);
    cpu_init(&f->cpu, &isa_rv64, f->mem);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture_t *f = *state;
    dise_free(f->dise);
    dise_program_free(f->prog);
    mem_free(f->mem);
    free(f);
    return 0;
}

/* Parse `acf` and build an engine attached to the fixture's cpu. */
static void load_acf(fixture_t *f, const char *acf, const dise_hw_t *hw)
{
    char err[256] = "";
    dise_env_t env = { .isa = &isa_rv64, .symtab = NULL };
    f->prog = acf_parse_string("test.acf", acf, &env, err, sizeof err);
    if (!f->prog) fail_msg("parse error: %s", err);
    f->dise = dise_new(f->prog, hw ? hw : &default_hw, NULL, err, sizeof err);
    if (!f->dise) fail_msg("engine error: %s", err);
    dise_attach(f->dise, &f->cpu);
}

static insn_t call_insn(void)
{
    insn_t in = { .exec = NULL, .pc = 0x1000, .target = 0x2000, .len = 4,
                  .flags = IF_CALL | IF_JUMP | IF_DIRECT, .opclass = OC_CALL,
                  .rd = 1, .rs1 = REG_NONE, .rs2 = REG_NONE, .rs3 = REG_NONE };
    return in;
}

/* ---- counters and flags ---------------------------------------------------------- */

static void test_set_then_inc_overflows_after_x(void **state)
{
    fixture_t *f = *state;
    load_acf(f, "init: set_1(3)\nP1: T.OPCLASS == proc_call => null, inc_1\n", NULL);
    insn_t in = call_insn();
    dise_classify(f->dise, &in);
    assert_int_not_equal(in.dise, 0);
    assert_false(dise_overflow(f->dise, 1));
    assert_false(dise_zero(f->dise, 1));
    for (int k = 0; k < 2; k++) assert_null(dise_match(f->dise, &f->cpu, &in));
    assert_false(dise_overflow(f->dise, 1));
    assert_null(dise_match(f->dise, &f->cpu, &in));
    assert_true(dise_overflow(f->dise, 1));      /* carried out: 2^32 - 3 + 3 */
    assert_true(dise_zero(f->dise, 1));
    assert_int_equal(dise_counter(f->dise, 1), 0);
    assert_null(dise_match(f->dise, &f->cpu, &in));
    assert_true(dise_overflow(f->dise, 1));      /* sticky */
    assert_false(dise_zero(f->dise, 1));
    assert_int_equal(dise_uops(f->dise), 1 + 4);  /* init + four incs */
}

static void noop_exec(cpu_t *c, insn_t *in) { (void)c; (void)in; }

/* The count-down tests' engine: counter 1 counts calls (P1) until it
 * overflows, when P2 sets it again, so that a count-down starts; and the
 * call it classified, whose semantics are the engine's. */
static insn_t counting_down_call(fixture_t *f)
{
    load_acf(f, "init: set_1(3)\n"
                "P1: T.OPCLASS == proc_call && !overflow_1 => null, inc_1\n"
                "P2: T.OPCLASS == proc_call && overflow_1 => null, set_1(4)\n", NULL);
    insn_t in = call_insn();
    in.exec = noop_exec;
    dise_classify(f->dise, &in);
    assert_int_not_equal(in.dise, 0);
    return in;
}

/* The uniform word counted down by the view (edit.h): while the view
 * counts it, dise_counter reads the value the engine's own counting would
 * have, and the increment at the top overflows at the same event. */
static void test_uniform_word_counts_down(void **state)
{
    fixture_t *f = *state;
    insn_t in = counting_down_call(f);
    const uint64_t top = 0xffffffffull;
    for (int k = 0; k < 3; k++) in.exec(&f->cpu, &in);  /* 2^32 - 3: the third carries out */
    assert_true(dise_overflow(f->dise, 1));
    in.exec(&f->cpu, &in);                              /* P2: set_1(4) clears overflow_1 */
    assert_false(dise_overflow(f->dise, 1));
    assert_int_equal(dise_counter(f->dise, 1), top + 1 - 4);
    assert_int_equal(f->cpu.edit_left, 3);             /* counted down from here */
    for (uint64_t k = 1; k <= 3; k++) {
        in.exec(&f->cpu, &in);
        assert_int_equal(dise_counter(f->dise, 1), top + 1 - 4 + k);
        assert_false(dise_overflow(f->dise, 1));
    }
    assert_int_equal(f->cpu.edit_left, 0);
    in.exec(&f->cpu, &in);                              /* the fourth carries out */
    assert_true(dise_overflow(f->dise, 1));
    assert_true(dise_zero(f->dise, 1));
    assert_int_equal(dise_counter(f->dise, 1), 0);
    assert_int_equal(f->cpu.edit_left, 0);
}

/* The count-down word is the attached cpu's (cpu_t.edit_left): detaching
 * writes its value back to the counter and leaves the cpu's word 0, the
 * counter counting on by itself; attaching starts the cpu's word at 0. */
static void test_detach_takes_the_count_back(void **state)
{
    fixture_t *f = *state;
    insn_t in = counting_down_call(f);
    const uint64_t top = 0xffffffffull;
    for (int k = 0; k < 4; k++) in.exec(&f->cpu, &in);  /* P2 starts the count-down */
    in.exec(&f->cpu, &in);
    assert_int_equal(f->cpu.edit_left, 2);
    dise_detach(f->dise, &f->cpu);
    assert_int_equal(f->cpu.edit_left, 0);
    assert_int_equal(dise_counter(f->dise, 1), top + 1 - 4 + 1);
    in.exec(&f->cpu, &in);                              /* counted in the counter itself */
    assert_int_equal(f->cpu.edit_left, 0);
    assert_int_equal(dise_counter(f->dise, 1), top + 1 - 4 + 2);
    f->cpu.edit_left = 7;                               /* a stale word: attaching clears it */
    dise_attach(f->dise, &f->cpu);                      /* init: set_1(3) again */
    assert_int_equal(f->cpu.edit_left, 0);
    assert_int_equal(dise_counter(f->dise, 1), top + 1 - 3);
    in.exec(&f->cpu, &in);
    assert_int_equal(dise_counter(f->dise, 1), top + 1 - 3 + 1);
}

static void test_counter_width_and_clamp(void **state)
{
    fixture_t *f = *state;
    dise_hw_t hw = default_hw;
    hw.counter_bits = 4;
    /* a parameter or constant a 4-bit counter cannot count is refused */
    static const char *const refused[] = { "param big = 100\ninit: set_2(big)\n",
                                           "param big = 0\ninit: set_2(big)\n",
                                           "init: set_2(16)\n" };
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        char err[256] = "";
        dise_env_t env = { .isa = &isa_rv64, .symtab = NULL };
        dise_program_t *p = acf_parse_string("test.acf", refused[k], &env, err, sizeof err);
        assert_non_null(p);
        assert_null(dise_new(p, &hw, NULL, err, sizeof err));
        assert_non_null(strstr(err, "outside 1..15"));
        dise_program_free(p);
    }
    load_acf(f, "param big = 15\ninit: set_2(big)\n"
                "P1: T.OPCLASS == proc_call => null, inc_2\n", &hw);
    assert_int_equal(dise_counter(f->dise, 2), 1);   /* the largest: 16 - 15 */
    insn_t in = call_insn();
    dise_classify(f->dise, &in);
    for (int k = 0; k < 14; k++) dise_match(f->dise, &f->cpu, &in);
    assert_false(dise_overflow(f->dise, 2));
    dise_match(f->dise, &f->cpu, &in);
    assert_true(dise_overflow(f->dise, 2));
}

static void test_dec_borrows_and_set_clears(void **state)
{
    fixture_t *f = *state;
    load_acf(f, "P1: T.OPCLASS == proc_call && !overflow_3 => null, dec_3\n"
                "P2: T.OPCLASS == proc_call && overflow_3 => null, set_3(5)\n", NULL);
    insn_t in = call_insn();
    dise_classify(f->dise, &in);
    assert_true(dise_zero(f->dise, 3));               /* counters start at 0 */
    dise_match(f->dise, &f->cpu, &in);                /* 0 - 1 borrows */
    assert_true(dise_overflow(f->dise, 3));
    assert_false(dise_zero(f->dise, 3));
    assert_int_equal(dise_counter(f->dise, 3), 0xffffffffull);
    dise_match(f->dise, &f->cpu, &in);                /* P2: set clears the flags */
    assert_false(dise_overflow(f->dise, 3));
    assert_int_equal(dise_counter(f->dise, 3), (1ull << 32) - 5);
}

static void test_set_from_dise_register(void **state)
{
    fixture_t *f = *state;
    load_acf(f, "P1: T.OPCLASS == proc_call => null, set_1(d4)\n", NULL);
    f->cpu.reg[REG_DISE0 + 4] = 7;
    insn_t in = call_insn();
    dise_classify(f->dise, &in);
    dise_match(f->dise, &f->cpu, &in);
    assert_int_equal(dise_counter(f->dise, 1), (1ull << 32) - 7);
}

/* ---- several productions on one instruction ----------------------------------------- */

static void test_multi_match_rules(void **state)
{
    fixture_t *f = *state;
    load_acf(f, "init: set_1(2)\n"
                "P1: T.OPCLASS == proc_call && !overflow_1 => null, inc_1\n"
                "P2: T.OPCLASS == proc_call && overflow_1 => RA, set_1(2)\n"
                "P3: T.OPCLASS == proc_call => RB\n"
                "RA: mov d0, 1; T.INSN\n"
                "RB: mov d1, 1; T.INSN\n", NULL);
    insn_t in = call_insn();
    dise_classify(f->dise, &in);
    int32_t ra = f->prog->prods[1].repl, rb = f->prog->prods[2].repl;
    /* Event 1 and 2: P1 counts, P3 replaces.  Event 2 overflows counter 1,
     * but P2 saw the flags as they were at decode and does not match. */
    for (int k = 0; k < 2; k++) {
        dise_seq_t *s = dise_match(f->dise, &f->cpu, &in);
        assert_non_null(s);
        assert_int_equal(s->repl, rb);
    }
    assert_true(dise_overflow(f->dise, 1));
    assert_int_equal(f->dise->stat_shadowed, 0);
    /* Event 3: P2 and P3 match; P2 comes first and wins, P3 is shadowed;
     * P2's set_1 runs and clears the flag; P1 does not match. */
    dise_seq_t *s = dise_match(f->dise, &f->cpu, &in);
    assert_non_null(s);
    assert_int_equal(s->repl, ra);
    assert_int_equal(f->dise->stat_shadowed, 1);
    assert_false(dise_overflow(f->dise, 1));
    assert_int_equal(dise_production_matches(f->dise, 0), 2);
    assert_int_equal(dise_production_matches(f->dise, 1), 1);
    assert_int_equal(dise_production_matches(f->dise, 2), 3);
    assert_int_equal(f->dise->stat_replacements, 3);
}

static void test_micro_ops_run_in_production_order(void **state)
{
    fixture_t *f = *state;
    load_acf(f, "P1: T.OPCLASS == proc_call => null, set_1(4)\n"
                "P2: T.OPCLASS == proc_call => null, inc_1\n", NULL);
    insn_t in = call_insn();
    dise_classify(f->dise, &in);
    dise_match(f->dise, &f->cpu, &in);
    assert_int_equal(dise_counter(f->dise, 1), (1ull << 32) - 3);   /* set, then inc */
}

/* ---- classification and capacities ------------------------------------------------------ */

static void test_classification(void **state)
{
    fixture_t *f = *state;
    load_acf(f, "P1: T.OPCLASS == load && overflow_1 => null, inc_2\n"
                "P2: T.OPCLASS == branch && T.TARGET <= T.PC => null, inc_1\n", NULL);
    insn_t call = call_insn();
    dise_classify(f->dise, &call);
    assert_int_equal(call.dise, 0);                      /* no candidate: no cost */
    insn_t back = call_insn();
    back.flags = IF_BRANCH | IF_DIRECT;
    back.opclass = OC_BRANCH;
    back.target = 0x800;
    dise_classify(f->dise, &back);
    assert_int_not_equal(back.dise, 0);
    insn_t fwd = back;
    fwd.target = 0x1800;
    dise_classify(f->dise, &fwd);
    assert_int_equal(fwd.dise, 0);
    insn_t ind = back;
    ind.flags = IF_BRANCH | IF_INDIRECT;                  /* no static target */
    dise_classify(f->dise, &ind);
    assert_int_equal(ind.dise, 0);
    insn_t load = call_insn();
    load.flags = IF_LOAD;
    load.opclass = OC_LOAD;
    dise_classify(f->dise, &load);                        /* flag unknown at decode */
    assert_int_not_equal(load.dise, 0);
    assert_null(dise_match(f->dise, &f->cpu, &load));     /* overflow_1 is clear */
    assert_int_equal(dise_matches(f->dise), 0);
}

static void expect_engine_error(const char *acf, const dise_hw_t *hw, const char *needle)
{
    char err[256] = "";
    dise_env_t env = { .isa = &isa_rv64, .symtab = NULL };
    dise_program_t *p = acf_parse_string("cap.acf", acf, &env, err, sizeof err);
    assert_non_null(p);
    dise_t *d = dise_new(p, hw, NULL, err, sizeof err);
    assert_null(d);
    if (!strstr(err, needle)) fail_msg("'%s' does not mention '%s'", err, needle);
    dise_program_free(p);
}

static void test_table_capacities(void **state)
{
    (void)state;
    const char *two = "P1: T.OPCLASS == proc_call => R, inc_1\n"
                      "P2: T.OPCLASS == return => R, inc_2\n"
                      "R: mov d0, 1; mov d1, 2; T.INSN\n";
    dise_hw_t hw = default_hw;
    hw.pt_entries = 1;
    expect_engine_error(two, &hw, "pattern table full");
    hw = default_hw;
    hw.ct_entries = 1;
    expect_engine_error(two, &hw, "conditionals table full");
    hw = default_hw;
    hw.rt_entries = 2;
    expect_engine_error(two, &hw, "replacement table full");
    hw = default_hw;
    hw.counters = 1;
    expect_engine_error(two, &hw, "counter 2");
    hw = default_hw;
    hw.rt_entries = 3;                                /* one shared sequence fits */
    char err[256];
    dise_env_t env = { .isa = &isa_rv64, .symtab = NULL };
    dise_program_t *p = acf_parse_string("cap.acf", two, &env, err, sizeof err);
    dise_t *d = dise_new(p, &hw, NULL, err, sizeof err);
    assert_non_null(d);
    dise_free(d);
    dise_program_free(p);
    expect_engine_error("P1: T.OPCLASS == proc_call => R\nR: call(Nowhere_handler); T.INSN\n",
                        &default_hw, "Nowhere_handler");
}

/* ---- replacement sequences executed by the core ---------------------------------------------- */

/* 0x10000 addi a0,zero,5 | jal ra,+16 | sd a0,8(sp) | addi a1,a1,1 | ebreak
 * 0x10014 addi a0,a0,1 | jalr zero,0(ra) */
static void write_program(fixture_t *f)
{
    const uint32_t code[] = {
        enc_i(5, 0, 0, 10, 0x13), enc_j(16, 1), enc_s(8, 10, 2, 3, 0x23),
        enc_i(1, 11, 0, 11, 0x13), 0x00100073,
        enc_i(1, 10, 0, 10, 0x13), enc_i(0, 1, 0, 0, 0x67),
    };
    mem_write(f->mem, 0x10000, code, sizeof code);
    f->cpu.pc = 0x10000;
    f->cpu.reg[2] = 0x20100;
}

static void run_program(fixture_t *f)
{
    char err[128];
    engine_t *e = engine_new(&(engine_parts_t){ .cpu = &f->cpu, .dise = f->dise },
                             err, sizeof err);
    assert_non_null(e);
    assert_int_equal(engine_run(e, 0), STOP_BREAKPOINT);
    engine_free(e);
}

static uint64_t dreg(const fixture_t *f, unsigned n) { return f->cpu.reg[REG_DISE0 + n]; }

static void test_instantiated_fields(void **state)
{
    fixture_t *f = *state;
    write_program(f);
    load_acf(f, "P1: T.OPCLASS == proc_call => R1\n"
                "R1: mov d0, T.PC; mov d1, T.TARGET; add d2, d1, 8; mov d3, T.RS1;"
                "    sub d4, d2, d1; T.INSN; mov d5, T.OPCLASS\n"
                "P2: T.OPCLASS == store => R2\n"
                "R2: T.INSN; mov d6, T.EA; mov d7, T.RS2\n"
                "P3: T.OPCLASS == return => R3\n"
                "R3: mov d8, T.TARGET; T.INSN\n", NULL);
    run_program(f);
    assert_int_equal(dreg(f, 0), 0x10004);
    assert_int_equal(dreg(f, 1), 0x10014);
    assert_int_equal(dreg(f, 2), 0x1001c);
    assert_int_equal(dreg(f, 3), 0);               /* jal has no rs1 */
    assert_int_equal(dreg(f, 4), 8);
    assert_int_equal(dreg(f, 5), OC_CALL);
    assert_int_equal(dreg(f, 6), 0x20108);         /* sp + 8 */
    assert_int_equal(dreg(f, 7), 6);               /* a0 after the call */
    assert_int_equal(dreg(f, 8), 0x10008);         /* return target from ra */
    assert_int_equal(f->cpu.reg[10], 6);           /* the program still ran */
    assert_int_equal(f->cpu.reg[11], 1);
    uint64_t stored = 0;
    mem_read(f->mem, 0x20108, &stored, 8);
    assert_int_equal(stored, 6);
    assert_int_equal(f->dise->stat_replacements, 3);
    assert_int_equal(f->dise->stat_inserted[DISE_ROLE_SAMPLE], 6 + 2 + 1);
    /* cycles: every retired instruction plus one decode cycle per replacement */
    assert_int_equal(f->cpu.cycle, cpu_retired(&f->cpu) + 3);
}

static void test_internal_branches(void **state)
{
    fixture_t *f = *state;
    write_program(f);
    load_acf(f, "P1: T.OPCLASS == proc_call => R\n"
                "R [basic]: beqz d3, skip; mov d4, 7\n"
                "skip: mov d5, 9; bnez d5, out; mov d6, 1\n"
                "out: T.INSN\n", NULL);
    run_program(f);
    assert_int_equal(dreg(f, 4), 0);
    assert_int_equal(dreg(f, 5), 9);
    assert_int_equal(dreg(f, 6), 0);
    assert_int_equal(f->dise->stat_inserted[DISE_ROLE_BASIC], 3);
    assert_int_equal(f->cpu.reg[10], 6);
}

/* T.TAKEN after T.INSN: 1 when the branch went to its target, 0 when it
 * fell through, and 0 for an instruction that transfers nothing. */
static void test_taken_reads_the_outcome(void **state)
{
    fixture_t *f = *state;
    const uint32_t code[] = {
        enc_i(2, 0, 0, 10, 0x13),           /* li a0, 2                        */
        enc_i(-1, 10, 0, 10, 0x13),         /* loop: addi a0, a0, -1           */
        enc_b(-4, 0, 10, 1),                /* bnez a0, loop: taken, then not  */
        0x00100073,                         /* ebreak                          */
    };
    mem_write(f->mem, 0x10000, code, sizeof code);
    f->cpu.pc = 0x10000;
    load_acf(f, "P1: T.OPCLASS == branch => R1\n"
                "R1: T.INSN; mov d4, T.TAKEN; beqz d4, fell; add d1, d1, 1; j out\n"
                "fell: add d2, d2, 1\n"
                "out:\n"
                "P2: T.OPCLASS == int_alu => R2\n"
                "R2: T.INSN; mov d5, T.TAKEN; add d6, d6, d5; add d7, d7, 1\n", NULL);
    run_program(f);
    assert_int_equal(dreg(f, 1), 1);
    assert_int_equal(dreg(f, 2), 1);
    assert_int_equal(dreg(f, 6), 0);
    assert_int_equal(dreg(f, 7), 3);
    assert_int_equal(f->cpu.reg[10], 0);
}

/* An add of a computed operand (T.TAKEN, counter_N, T.EA) needs a
 * scratch register: DISE's own, never d15, which holds the assembly
 * handlers' buffer end, nor any other DISE register. */
static void test_computed_add_leaves_the_dise_registers(void **state)
{
    fixture_t *f = *state;
    const uint32_t code[] = {
        enc_i(2, 0, 0, 10, 0x13),           /* li a0, 2                        */
        enc_i(-1, 10, 0, 10, 0x13),         /* loop: addi a0, a0, -1           */
        enc_b(-4, 0, 10, 1),                /* bnez a0, loop: taken, then not  */
        0x00100073,                         /* ebreak                          */
    };
    mem_write(f->mem, 0x10000, code, sizeof code);
    f->cpu.pc = 0x10000;
    for (unsigned k = 0; k < 16; k++) f->cpu.reg[REG_DISE0 + k] = 1000 + k;
    load_acf(f, "P1: T.OPCLASS == branch => R1\n"
                "R1: T.INSN; add d1, d1, T.TAKEN\n", NULL);
    run_program(f);
    assert_int_equal(dreg(f, 1), 1001 + 1);          /* taken once, fell through once */
    for (unsigned k = 0; k < 16; k++)
        if (k != 1) assert_int_equal(dreg(f, k), 1000 + k);
}

static void test_deleting_replacement_skips_the_instruction(void **state)
{
    fixture_t *f = *state;
    write_program(f);
    load_acf(f, "P1: T.OPCODE == addi && T.RD == a1 => R\nR: mov d0, 1\n", NULL);
    run_program(f);
    assert_int_equal(f->cpu.reg[11], 0);           /* addi a1 never ran */
    assert_int_equal(dreg(f, 0), 1);
    assert_int_equal(f->cpu.stop_pc, 0x10010);     /* stopped at the ebreak */
}

static void test_null_replacement_costs_nothing(void **state)
{
    fixture_t *f = *state;
    write_program(f);
    load_acf(f, "P1: T.OPCLASS == proc_call => null, inc_1\n"
                "P2: T.PC in [0x10000, 0x10100) && overflow_4 => R\nR: mov d0, 1; T.INSN\n",
             NULL);
    run_program(f);
    assert_int_equal(f->dise->stat_replacements, 0);
    assert_int_equal(dise_matches(f->dise), 1);
    assert_int_equal(f->cpu.cycle, f->cpu.instret);
    assert_int_equal(f->cpu.instret, 6);           /* ebreak does not retire */
}

/* The program on a timing model (a preset), with the fixture's engine if
 * with_dise, the steps of the roles in `untimed` (bit r = role r) not
 * timed; returns the cycle count.  Run from the top of the tree. */
static uint64_t time_untimed(fixture_t *f, const char *model, bool with_dise, unsigned untimed)
{
    config_t cfg;
    char err[256];
    config_defaults(&cfg);
    assert_true(config_load(&cfg, model, err, sizeof err));
    timing_t *t = timing_new(&cfg, err, sizeof err);
    if (!t) fail_msg("%s", err);
    cpu_init(&f->cpu, &isa_rv64, f->mem);
    mem_flush_decoded(f->mem);
    write_program(f);
    if (with_dise) dise_attach(f->dise, &f->cpu);
    engine_parts_t parts = { .cpu = &f->cpu, .timing = t, .dise = with_dise ? f->dise : NULL,
                             .untimed_roles = untimed };
    assert_int_equal(engine_run_once(&parts, 0, err, sizeof err), STOP_BREAKPOINT);
    timing_free(t);
    return f->cpu.cycle;
}

static uint64_t time_program(fixture_t *f, const char *model, bool with_dise)
{
    return time_untimed(f, model, with_dise, 0);
}

/* Overhead breakdown on the timing models: a replacement (decode penalty,
 * a DISE op, a taken DISE branch) redirects fetch, and the program
 * instruction after it waits.  The penalty and that wait are charged to
 * the sequence's role, so on inorder5 the roles account for every extra
 * cycle (nothing is left over as "other" in a program this small).  On
 * ev5 the instruction after the branch also loses the issue slot it shared
 * with the store in the run without the ACF; that cycle is its own issue
 * cycle and stays with the program. */
static void test_stalls_behind_inserted_code_go_to_its_role(void **state)
{
    fixture_t *f = *state;
    static const char *const models[] = { "inorder5", "ev5" };
    write_program(f);
    load_acf(f, "P1: T.OPCLASS == store => R\n"
                "R [sample]: T.INSN; mov d0, 1; bnez d0, out\nout:\n", NULL);
    for (int m = 0; m < 2; m++) {
        uint64_t plain = time_program(f, models[m], false);
        memset(f->dise->measured_role_cycles, 0, sizeof f->dise->measured_role_cycles);
        uint64_t edited = time_program(f, models[m], true);
        const uint64_t *role = f->dise->measured_role_cycles;
        uint64_t lost_slot = m == 1;
        if (edited <= plain + 2 || role[DISE_ROLE_SAMPLE] + lost_slot != edited - plain ||
            role[DISE_ROLE_CHECK] + role[DISE_ROLE_BASIC] != 0)
            fail_msg("%s: %llu cycles, %llu with the ACF, sample role %llu", models[m],
                     (unsigned long long)plain, (unsigned long long)edited,
                     (unsigned long long)role[DISE_ROLE_SAMPLE]);
    }
}

/* The exact breakdown's runs (dise/README.md): untiming a role hides its
 * instructions and decode penalty from the timing model.  Untiming sample,
 * then basic, then check never adds cycles, and with every role untimed
 * the run takes exactly the cycles of the program without the ACF, on
 * every timing model; so the parts add up to the overhead with nothing
 * left over. */
static void test_untimed_roles_give_the_plain_run(void **state)
{
    fixture_t *f = *state;
    static const char *const models[] = { "inorder5", "ev5", "r10k" };
    const unsigned sample = 1u << DISE_ROLE_SAMPLE, basic = 1u << DISE_ROLE_BASIC,
                   check = 1u << DISE_ROLE_CHECK;
    write_program(f);
    load_acf(f, "P1: T.OPCLASS == store => R\n"
                "R [sample]: [check] mov d0, 1; [check] bnez d0, go; [basic] mov d1, 2\n"
                "go: [basic] add d1, d1, 1; mov d2, 3; mov d3, 4; T.INSN\n", NULL);
    for (int m = 0; m < 3; m++) {
        uint64_t plain = time_program(f, models[m], false);
        uint64_t full = time_program(f, models[m], true);
        uint64_t no_sample = time_untimed(f, models[m], true, sample);
        uint64_t no_basic = time_untimed(f, models[m], true, sample | basic);
        uint64_t none = time_untimed(f, models[m], true, sample | basic | check);
        print_message("%-8s plain %llu, ACF %llu, sample untimed %llu, + basic %llu, "
                      "+ check %llu\n", models[m], (unsigned long long)plain,
                      (unsigned long long)full, (unsigned long long)no_sample,
                      (unsigned long long)no_basic, (unsigned long long)none);
        if (!(full > plain && full >= no_sample && no_sample >= no_basic && no_basic >= none &&
              none == plain))
            fail_msg("%s: plain %llu, with the ACF %llu, sample untimed %llu, + basic %llu, "
                     "+ check %llu", models[m], (unsigned long long)plain,
                     (unsigned long long)full, (unsigned long long)no_sample,
                     (unsigned long long)no_basic, (unsigned long long)none);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_set_then_inc_overflows_after_x, setup, teardown),
        cmocka_unit_test_setup_teardown(test_uniform_word_counts_down, setup, teardown),
        cmocka_unit_test_setup_teardown(test_detach_takes_the_count_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_counter_width_and_clamp, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dec_borrows_and_set_clears, setup, teardown),
        cmocka_unit_test_setup_teardown(test_set_from_dise_register, setup, teardown),
        cmocka_unit_test_setup_teardown(test_multi_match_rules, setup, teardown),
        cmocka_unit_test_setup_teardown(test_micro_ops_run_in_production_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_classification, setup, teardown),
        cmocka_unit_test(test_table_capacities),
        cmocka_unit_test_setup_teardown(test_instantiated_fields, setup, teardown),
        cmocka_unit_test_setup_teardown(test_internal_branches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_computed_add_leaves_the_dise_registers, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_taken_reads_the_outcome, setup, teardown),
        cmocka_unit_test_setup_teardown(test_deleting_replacement_skips_the_instruction,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_null_replacement_costs_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stalls_behind_inserted_code_go_to_its_role, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_untimed_roles_give_the_plain_run, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
