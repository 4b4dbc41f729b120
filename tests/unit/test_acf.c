/*
 * test_acf.c - unit tests of the ACF parser (dise/acf.c): every statement
 * kind, pattern precedence, fields, classes, opcodes, registers, symbols,
 * control lists, replacement sequences with labels and splicing, roles,
 * parameters and their overrides, includes (temporary files), Figures 4
 * and 5 of the HPS paper in our syntax, every error with its exact
 * line:col, limits, and the print -> parse round trip.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "acf_check.h"
#include "dise.h"
#include "isa.h"
#include "symtab.h"

/* ---- fixtures ------------------------------------------------------------ */

static symbol_t test_syms[] = {
    { 0x1000, 0x40, "main" },
    { 0x1040, 0x20, "foo" },
    { 0x1060, 0, "bar" },          /* size 0: extends to the next symbol */
    { 0x1100, 0x10, "baz" },
    { 0x2000, 0x8, "foo" },        /* a second static function "foo" */
};
static symtab_t test_symtab = { test_syms, sizeof test_syms / sizeof test_syms[0], NULL };
static const dise_env_t env = { &isa_rv64, &test_symtab };

static dise_program_t *parse_ok_env(const char *text, const dise_env_t *e)
{
    char err[512] = "x";
    dise_program_t *p = acf_parse_string("t.acf", text, e, err, sizeof err);
    if (!p) fail_msg("unexpected error: %s\n--- text ---\n%s", err, text);
    assert_string_equal(err, "");
    if (!acf_invariants(p)) fail_msg("invariant: %s", acf_check_why);
    return p;
}

static dise_program_t *parse_ok(const char *text) { return parse_ok_env(text, &env); }

/* Expect exactly "t.acf:" + want. */
static void expect_error_env(const char *text, const char *want, const dise_env_t *e)
{
    char err[512] = "", full[600];
    dise_program_t *p = acf_parse_string("t.acf", text, e, err, sizeof err);
    if (p) {
        dise_program_free(p);
        fail_msg("expected an error for:\n%s", text);
    }
    snprintf(full, sizeof full, "t.acf:%s", want);
    if (strcmp(err, full) != 0) fail_msg("for:\n%s\nwant: %s\ngot:  %s", text, full, err);
}

static void expect_error(const char *text, const char *want) { expect_error_env(text, want, &env); }

static unsigned op_index(const char *name)
{
    for (size_t k = 0; k < isa_rv64.table_size; k++)
        if (strcmp(isa_rv64.table[k].name, name) == 0) return (unsigned)k;
    fail_msg("no mnemonic %s", name);
    return 0;
}

/* A pattern tree as a compact S-expression, for precedence assertions. */
static void sexpr(const dise_program_t *p, int32_t i, char *buf, size_t n)
{
    static const char *const fields[] = { "pc", "target", "rd", "rs1", "rs2", "imm", "memsize", "opclass" };
    static const char *const cmps[] = { "==", "!=", "<", "<=", ">", ">=" };
    static const char *const groups[] = { "proc_call", "return", "branch", "jump", "mem_op",
                                          "load", "store", "indirect" };
    const dise_node_t *x = &p->nodes[i];
    char a[1024] = "", b[1024] = "";
    switch (x->kind) {
    case PX_AND:
    case PX_OR:
        sexpr(p, x->a, a, sizeof a);
        sexpr(p, x->b, b, sizeof b);
        snprintf(buf, n, "%s(%s,%s)", x->kind == PX_AND ? "and" : "or", a, b);
        break;
    case PX_NOT:
        sexpr(p, x->a, a, sizeof a);
        snprintf(buf, n, "not(%s)", a);
        break;
    case PX_CLASS:
        snprintf(buf, n, "class(%s)", x->value >= DC_GROUP0 ? groups[x->value - DC_GROUP0]
                                                             : opclass_names[x->value]);
        break;
    case PX_OPCODE:
        snprintf(buf, n, "op(%s)", isa_rv64.table[x->value].name);
        break;
    case PX_CMP:
        snprintf(buf, n, "%s%s%lld", fields[x->field], cmps[x->cmp], (long long)x->value);
        break;
    case PX_CMP_FIELD:
        snprintf(buf, n, "%s%s%s", fields[x->field], cmps[x->cmp], fields[x->field2]);
        break;
    case PX_IN_RANGE:
        snprintf(buf, n, "%s in [%#llx,%#llx)", fields[x->field], (unsigned long long)x->value,
                 (unsigned long long)x->hi);
        break;
    case PX_OVERFLOW:
        snprintf(buf, n, "ovf%u", x->counter);
        break;
    case PX_ZERO:
        snprintf(buf, n, "zero%u", x->counter);
        break;
    default:
        snprintf(buf, n, "?");
    }
}

/* The pattern of a one-production program "P: <pattern> => null". */
static void expect_pattern(const char *pattern, const char *want)
{
    char text[4096], got[2048];
    snprintf(text, sizeof text, "P: %s => null\n", pattern);
    dise_program_t *p = parse_ok(text);
    assert_int_equal(p->nprods, 1);
    sexpr(p, p->prods[0].pattern, got, sizeof got);
    if (strcmp(got, want) != 0) fail_msg("pattern %s\nwant %s\ngot  %s", pattern, want, got);
    dise_program_free(p);
}

static void expect_round_trip_env(const dise_program_t *p, const dise_env_t *e)
{
    if (!acf_round_trip(p, e)) fail_msg("round trip: %s", acf_check_why);
}

static void expect_round_trip(const dise_program_t *p) { expect_round_trip_env(p, &env); }

/* ---- temporary files --------------------------------------------------- */

static char tmpdir[64];

static void make_tmpdir(void)
{
    snprintf(tmpdir, sizeof tmpdir, "/tmp/hps-test-acf-XXXXXX");
    assert_non_null(mkdtemp(tmpdir));
}

static void write_file(const char *rel, const char *text)
{
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/%s", tmpdir, rel);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void remove_tmpdir(void)
{
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    assert_int_equal(system(cmd), 0);
}

/* ---- the paper's figures ------------------------------------------------ */

/* Figure 4 exactly as printed in the paper (its P5 says !overflow_2 where it
 * means overflow_2, and T.PC < T.Target selects forward branches). */
static const char figure4_paper[] =
    "param sampleFreq = 1000\n"
    "param burstLength = 10\n"
    "# We are not profiling, check for procedure call and backward branch\n"
    "# increment the sampling counter - CC1- and fail production\n"
    "P1:T.OPCLASS == proc_call && !overflow_1 \xe2\x87\x92 null, CC1\n"
    "P2:T.OPCLASS == branch && T.PC < T.Target && !overflow_1\n"
    "  \xe2\x87\x92 null, CC1\n"
    "\n"
    "# We are profiling, check for procedure call and backward branch,\n"
    "# increment the burst counter - CC2 - and fail production\n"
    "P3:T.OPCLASS == proc_call && overflow_1 && ! overflow_2\n"
    "  \xe2\x87\x92 null, CC2\n"
    "P4:T.OPCLASS == branch && T.PC < T.Target\n"
    "  && overflow_1 && ! overflow_2 \xe2\x87\x92 null, CC2\n"
    "\n"
    "# We are done profiling because burst counter status (overflow_2)\n"
    "# has overflowed. reset counters (this unsets overflow_1 and\n"
    "# overflow_2) causing sampling to stop\n"
    "P5:T.OPCLASS == proc_call && overflow_1 && ! overflow_2\n"
    "  \xe2\x87\x92 null, CC3\n"
    "P6:T.OPCLASS == branch && T.PC < T.Target\n"
    "  && overflow_1 && overflow_2 \xe2\x87\x92 null, CC3\n"
    "\n"
    "CC1: inc_1;\n"
    "CC2: inc_2;\n"
    "CC3: set_1(sampleFreq); set_2(burstLength);\n";

/* Figure 4 as our productions write it. */
static const char figure4[] =
    "param sampleFreq = 99\n"
    "param burstLength = 10\n"
    "init: set_1(sampleFreq), set_2(burstLength)\n"
    "P1: T.OPCLASS == proc_call && !overflow_1 => null, CC1\n"
    "P2: T.OPCLASS == branch && T.TARGET <= T.PC && !overflow_1 => null, CC1\n"
    "P3: T.OPCLASS == proc_call && overflow_1 && !overflow_2 => null, CC2\n"
    "P4: T.OPCLASS == branch && T.TARGET <= T.PC && overflow_1 && !overflow_2 => null, CC2\n"
    "P5: T.OPCLASS == proc_call && overflow_1 && overflow_2 => null, CC3\n"
    "P6: T.OPCLASS == branch && T.TARGET <= T.PC && overflow_1 && overflow_2 => null, CC3\n"
    "CC1: inc_1\n"
    "CC2: inc_2\n"
    "CC3: set_1(sampleFreq), set_2(burstLength)\n";

/* Figure 5 in our syntax (the paper's P3 lacks the || it means). */
static const char figure5[] =
    "# Hot data stream\n"
    "P1: T.OPCLASS == mem_op && overflow_1 => R1, null\n"
    "R1: call(DataStream_handler); T.INSN\n"
    "# Hot call pair\n"
    "P2: T.OPCLASS == proc_call && overflow_1 => R2, null\n"
    "R2: call(CallPair_handler); T.INSN\n"
    "# Hot method\n"
    "P3: (T.OPCLASS == proc_call || (T.OPCLASS == branch && T.TARGET <= T.PC)) && overflow_1\n"
    "    => R3, null\n"
    "R3: call(HotMethod_handler) T.INSN\n";

static void test_figure4_paper(void **state)
{
    (void)state;
    dise_program_t *p = parse_ok(figure4_paper);
    assert_int_equal(p->nprods, 6);
    assert_int_equal(p->nrepls, 0);
    assert_int_equal(p->nrt, 0);
    assert_int_equal(p->nctls, 3);
    assert_int_equal(p->max_counter, 2);
    char got[512];
    sexpr(p, p->prods[1].pattern, got, sizeof got);
    assert_string_equal(got, "and(and(class(branch),pc<target),not(ovf1))");
    sexpr(p, p->prods[4].pattern, got, sizeof got);
    assert_string_equal(got, "and(and(class(proc_call),ovf1),not(ovf2))");
    for (int k = 0; k < 6; k++) assert_int_equal(p->prods[k].repl, -1);
    assert_int_equal(p->init_ctl, -1);
    dise_program_free(p);
}

static void test_figure4(void **state)
{
    (void)state;
    dise_program_t *p = parse_ok(figure4);
    assert_int_equal(p->nprods, 6);
    static const char *const names[] = { "P1", "P2", "P3", "P4", "P5", "P6" };
    static const int ctl[] = { 0, 0, 1, 1, 2, 2 };
    for (int k = 0; k < 6; k++) {
        assert_string_equal(p->prods[k].name, names[k]);
        assert_int_equal(p->prods[k].repl, -1);
        assert_int_equal(p->prods[k].ctl, ctl[k]);
        assert_string_equal(p->prods[k].file, "t.acf");
        assert_int_equal(p->prods[k].line, k + 4);
    }
    char got[512];
    sexpr(p, p->prods[0].pattern, got, sizeof got);
    assert_string_equal(got, "and(class(proc_call),not(ovf1))");
    sexpr(p, p->prods[3].pattern, got, sizeof got);
    assert_string_equal(got, "and(and(and(class(branch),target<=pc),ovf1),not(ovf2))");
    sexpr(p, p->prods[5].pattern, got, sizeof got);
    assert_string_equal(got, "and(and(and(class(branch),target<=pc),ovf1),ovf2)");
    /* CC1, CC2, CC3 in first-use order, then init */
    assert_int_equal(p->nctls, 4);
    assert_string_equal(p->ctls[0].name, "CC1");
    assert_string_equal(p->ctls[1].name, "CC2");
    assert_string_equal(p->ctls[2].name, "CC3");
    assert_string_equal(p->ctls[3].name, "init");
    assert_int_equal(p->init_ctl, 3);
    assert_int_equal(p->nuops, 6);
    const dise_ctl_t *cc3 = &p->ctls[2];
    assert_int_equal(cc3->len, 2);
    const dise_uop_t *u = &p->uops[cc3->start];
    assert_int_equal(u[0].kind, UOP_SET);
    assert_int_equal(u[0].counter, 1);
    assert_int_equal(u[0].src, SRC_PARAM);
    assert_int_equal(u[0].value, 0);               /* sampleFreq */
    assert_int_equal(u[1].counter, 2);
    assert_int_equal(u[1].value, 1);               /* burstLength */
    assert_int_equal(p->uops[p->ctls[0].start].kind, UOP_INC);
    assert_int_equal(p->uops[p->ctls[0].start].counter, 1);
    assert_int_equal(p->nparams, 2);
    assert_string_equal(p->params[0].name, "sampleFreq");
    assert_int_equal(p->params[0].value, 99);
    assert_int_equal(p->max_counter, 2);
    assert_ptr_equal(p->isa, &isa_rv64);
    assert_int_equal(p->nfiles, 1);
    assert_string_equal(p->files[0], "t.acf");
    dise_program_free(p);
}

static void test_figure5(void **state)
{
    (void)state;
    dise_program_t *p = parse_ok(figure5);
    assert_int_equal(p->nprods, 3);
    assert_int_equal(p->nrepls, 3);
    assert_int_equal(p->nrt, 6);
    assert_int_equal(p->nctls, 0);
    assert_int_equal(p->nhandlers, 3);
    assert_string_equal(p->handlers[0], "DataStream_handler");
    assert_string_equal(p->handlers[1], "CallPair_handler");
    assert_string_equal(p->handlers[2], "HotMethod_handler");
    for (int k = 0; k < 3; k++) {
        assert_int_equal(p->prods[k].repl, k);
        assert_int_equal(p->prods[k].ctl, -1);
        const dise_repl_t *r = &p->repls[k];
        assert_int_equal(r->start, 2 * k);
        assert_int_equal(r->len, 2);
        assert_int_equal(p->rt[r->start].op, DOP_CALL);
        assert_int_equal(p->rt[r->start].target, k);
        assert_int_equal(p->rt[r->start].role, DISE_ROLE_SAMPLE);
        assert_int_equal(p->rt[r->start + 1].op, DOP_INSN);
        assert_int_equal(p->rt[r->start + 1].role, DISE_ROLE_NONE);
    }
    assert_string_equal(p->repls[2].name, "R3");
    assert_int_equal(p->repls[2].line, 10);
    assert_string_equal(p->repls[2].file, "t.acf");
    char got[512];
    sexpr(p, p->prods[2].pattern, got, sizeof got);
    assert_string_equal(got, "and(or(class(proc_call),and(class(branch),target<=pc)),ovf1)");
    assert_int_equal(p->max_counter, 1);
    expect_round_trip(p);
    dise_program_free(p);
}

/* ---- patterns ------------------------------------------------------------- */

static void test_precedence(void **state)
{
    (void)state;
    expect_pattern("overflow_1 || overflow_2 && !overflow_3", "or(ovf1,and(ovf2,not(ovf3)))");
    expect_pattern("!overflow_1 && overflow_2 || overflow_3 && overflow_4",
                   "or(and(not(ovf1),ovf2),and(ovf3,ovf4))");
    expect_pattern("!(overflow_1 || overflow_2)", "not(or(ovf1,ovf2))");
    expect_pattern("overflow_1 || overflow_2 || overflow_3", "or(or(ovf1,ovf2),ovf3)");
    expect_pattern("overflow_1 && overflow_2 && overflow_3", "and(and(ovf1,ovf2),ovf3)");
    expect_pattern("!!zero_1", "not(not(zero1))");
    expect_pattern("((overflow_1))", "ovf1");
    expect_pattern("overflow_1 && (overflow_2 || overflow_3)", "and(ovf1,or(ovf2,ovf3))");
    expect_pattern("!T.PC == 4 && zero_8", "and(not(pc==4),zero8)");
}

static void test_fields(void **state)
{
    (void)state;
    expect_pattern("T.PC < 0x1000", "pc<4096");
    expect_pattern("T.PC == 12", "pc==12");
    expect_pattern("T.PC != 12", "pc!=12");
    expect_pattern("T.TARGET > 0x10 && T.TARGET >= 0x20", "and(target>16,target>=32)");
    expect_pattern("T.TARGET <= T.PC", "target<=pc");
    expect_pattern("T.TARGET < T.PC", "target<pc");
    expect_pattern("T.IMM >= -16", "imm>=-16");
    expect_pattern("T.IMM == 0xffffffffffffffff", "imm==-1");
    expect_pattern("T.IMM < -9223372036854775808", "imm<-9223372036854775808");
    expect_pattern("T.MEMSIZE == 8", "memsize==8");
    expect_pattern("T.MEMSIZE > T.IMM", "memsize>imm");
    /* keywords and fields ignore case */
    expect_pattern("t.pc == 1 && T.Target == 2 && OVERFLOW_1", "and(and(pc==1,target==2),ovf1)");
}

static void test_classes(void **state)
{
    (void)state;
    expect_pattern("T.OPCLASS == proc_call", "class(proc_call)");
    expect_pattern("T.OPCLASS == return", "class(return)");
    expect_pattern("T.OPCLASS == branch", "class(branch)");
    expect_pattern("T.OPCLASS == jump", "class(jump)");
    expect_pattern("T.OPCLASS == mem_op", "class(mem_op)");
    expect_pattern("T.OPCLASS == load", "class(load)");
    expect_pattern("T.OPCLASS == store", "class(store)");
    expect_pattern("T.OPCLASS == indirect", "class(indirect)");
    expect_pattern("T.OPCLASS == int_alu", "class(int_alu)");
    expect_pattern("T.OPCLASS == fp_load", "class(fp_load)");
    expect_pattern("T.OPCLASS == atomic", "class(atomic)");
    expect_pattern("T.OPCLASS == Syscall", "class(syscall)");
    expect_pattern("T.OPCLASS != PROC_CALL", "not(class(proc_call))");
    dise_program_t *p = parse_ok("P: T.OPCLASS == int_mul => null");
    assert_int_equal(p->nodes[p->prods[0].pattern].value, OC_IMUL);
    dise_program_free(p);
    p = parse_ok("P: T.OPCLASS == load => null");
    assert_int_equal(p->nodes[p->prods[0].pattern].value, DC_LOAD);   /* the group wins */
    dise_program_free(p);
}

static void test_opcodes(void **state)
{
    (void)state;
    expect_pattern("T.OPCODE == addi", "op(addi)");
    expect_pattern("T.OPCODE != JALR", "not(op(jalr))");
    expect_pattern("T.OPCODE == fence.i || T.OPCODE == fcvt.w.s", "or(op(fence.i),op(fcvt.w.s))");
    dise_program_t *p = parse_ok("P: T.OPCODE == ld => null");
    assert_int_equal(p->nodes[p->prods[0].pattern].kind, PX_OPCODE);
    assert_int_equal(p->nodes[p->prods[0].pattern].value, op_index("ld"));
    dise_program_free(p);
}

static void test_registers(void **state)
{
    (void)state;
    expect_pattern("T.RS1 == sp", "rs1==2");
    expect_pattern("T.RD == a0", "rd==10");
    expect_pattern("T.RS1 == x31", "rs1==31");
    expect_pattern("T.RS2 == f3", "rs2==35");
    expect_pattern("T.RS2 == FT0", "rs2==32");
    expect_pattern("T.RS2 == fa0", "rs2==42");
    expect_pattern("T.RD == 7", "rd==7");
    expect_pattern("T.RD == 40", "rd==40");
    expect_pattern("T.RS1 != s11", "rs1!=27");
    /* x0 is REG_ZERO as a source and REG_SINK as a destination, as decoded */
    expect_pattern("T.RS1 == zero", "rs1==80");
    expect_pattern("T.RS2 == x0", "rs2==80");
    expect_pattern("T.RS1 != 0", "rs1!=80");
    expect_pattern("T.RD == zero", "rd==81");
    expect_pattern("T.RD == X0", "rd==81");
}

static void test_ranges(void **state)
{
    (void)state;
    expect_pattern("T.PC in main", "pc in [0x1000,0x1040)");
    expect_pattern("T.TARGET in baz", "target in [0x1100,0x1110)");
    expect_pattern("T.TARGET in bar", "target in [0x1060,0x1100)");   /* size 0 */
    expect_pattern("T.PC in foo", "or(pc in [0x1040,0x1060),pc in [0x2000,0x2008))");
    expect_pattern("T.PC in [0x10, 0x20)", "pc in [0x10,0x20)");
    expect_pattern("T.PC IN [16, 17) && !(T.TARGET in main)",
                   "and(pc in [0x10,0x11),not(target in [0x1000,0x1040)))");
}

static void test_flags_and_counters(void **state)
{
    (void)state;
    dise_program_t *p = parse_ok("P: overflow_3 || zero_8 => null, inc_2");
    assert_int_equal(p->max_counter, 8);
    dise_program_free(p);
    p = parse_ok("P: zero_1 => R, dec_5\nR [basic]: mov d0, counter_6; T.INSN");
    assert_int_equal(p->max_counter, 6);
    assert_int_equal(p->rt[0].src, SRC_COUNTER);
    assert_int_equal(p->rt[0].value, 6);
    dise_program_free(p);
    /* counters of unused definitions do not count */
    p = parse_ok("P: zero_1 => null\nCC: inc_7\nR: mov d0, counter_8");
    assert_int_equal(p->max_counter, 1);
    dise_program_free(p);
}

/* ---- control lists ------------------------------------------------------- */

static void test_control_lists(void **state)
{
    (void)state;
    dise_program_t *p = parse_ok(
        "param burstLength = 7\n"
        "P1: overflow_1 => null, inc_1, set_2(burstLength); dec_3, set_4(-5), set_5(d9), set_6(0x10)\n"
        "P2: overflow_1 => null, CC1\n"
        "P3: overflow_1 => null, CC1\n"
        "P4: overflow_1 => null, CC1, inc_2\n"
        "P5: overflow_1 => null, BOTH\n"
        "P6: overflow_1 => null, null\n"
        "P7: overflow_1 => null\n"
        "CC1: inc_1\n"
        "CC2: dec_2,\n"
        "BOTH: CC1, CC2\n");
    assert_int_equal(p->nprods, 7);
    /* an inline list gets its own unnamed entry */
    const dise_ctl_t *c0 = &p->ctls[p->prods[0].ctl];
    assert_string_equal(c0->name, "");
    assert_int_equal(c0->len, 6);
    const dise_uop_t *u = &p->uops[c0->start];
    assert_int_equal(u[0].kind, UOP_INC);
    assert_int_equal(u[1].kind, UOP_SET);
    assert_int_equal(u[1].src, SRC_PARAM);
    assert_int_equal(u[1].value, 0);
    assert_int_equal(u[2].kind, UOP_DEC);
    assert_int_equal(u[2].counter, 3);
    assert_int_equal(u[3].src, SRC_CONST);
    assert_int_equal(u[3].value, -5);
    assert_int_equal(u[4].src, SRC_DREG);
    assert_int_equal(u[4].value, 9);
    assert_int_equal(u[5].value, 16);
    /* a list that is one name shares that name's entry */
    assert_int_equal(p->prods[1].ctl, p->prods[2].ctl);
    assert_string_equal(p->ctls[p->prods[1].ctl].name, "CC1");
    /* a named list spliced into a longer list is copied */
    const dise_ctl_t *c3 = &p->ctls[p->prods[3].ctl];
    assert_int_not_equal(p->prods[3].ctl, p->prods[1].ctl);
    assert_string_equal(c3->name, "");
    assert_int_equal(c3->len, 2);
    assert_int_equal(p->uops[c3->start].counter, 1);
    assert_int_equal(p->uops[c3->start + 1].counter, 2);
    /* a list of names used as a control list */
    const dise_ctl_t *c4 = &p->ctls[p->prods[4].ctl];
    assert_string_equal(c4->name, "BOTH");
    assert_int_equal(c4->len, 2);
    assert_int_equal(p->uops[c4->start + 1].kind, UOP_DEC);
    assert_int_equal(p->prods[5].ctl, -1);
    assert_int_equal(p->prods[6].ctl, -1);
    assert_int_equal(p->max_counter, 6);
    expect_round_trip(p);
    dise_program_free(p);
}

static void test_init(void **state)
{
    (void)state;
    dise_program_t *p = parse_ok(
        "init: set_1(5)\n"
        "P: overflow_1 => null, CC\n"
        "init: set_2(d3); CC\n"
        "CC: inc_4\n");
    assert_int_not_equal(p->init_ctl, -1);
    const dise_ctl_t *in = &p->ctls[p->init_ctl];
    assert_string_equal(in->name, "init");
    assert_int_equal(in->len, 3);                     /* both init statements */
    assert_int_equal(p->uops[in->start].value, 5);
    assert_int_equal(p->uops[in->start + 1].src, SRC_DREG);
    assert_int_equal(p->uops[in->start + 2].counter, 4);
    assert_int_not_equal(p->init_ctl, p->prods[0].ctl);
    expect_round_trip(p);
    dise_program_free(p);
    /* init that is just one name still gets its own entry */
    p = parse_ok("init: CC\nP: overflow_1 => null, CC\nCC: inc_1");
    assert_int_equal(p->nctls, 2);
    assert_int_not_equal(p->init_ctl, p->prods[0].ctl);
    expect_round_trip(p);
    dise_program_free(p);
}

/* ---- replacement sequences ----------------------------------------------- */

static void test_seq_instructions(void **state)
{
    (void)state;
    dise_program_t *p = parse_ok(
        "param k = 3\n"
        "P: T.OPCLASS == load => R\n"
        "R [check]:\n"
        "    mov d0, 5; mov d1, -7; mov d2, k; mov d3, d2\n"
        "    add d4, d3, T.PC\n"
        "    sub d5, d4, T.TARGET\n"
        "    mov d6, T.IMM; mov d7, T.OPCLASS; mov d8, T.EA\n"
        "    mov d9, T.RS1; mov d10, T.RS2; mov d11, T.RD; mov d15, counter_1\n"
        "    call(H)\n"
        "    T.INSN\n");
    assert_int_equal(p->nrt, 15);
    const dise_rinsn_t *rt = p->rt;
    static const uint8_t srcs[] = { SRC_CONST, SRC_CONST, SRC_PARAM, SRC_DREG, SRC_T_PC, SRC_T_TARGET,
                                    SRC_T_IMM, SRC_T_OPCLASS, SRC_T_EA, SRC_T_RS1, SRC_T_RS2, SRC_T_RD,
                                    SRC_COUNTER };
    for (int i = 0; i < 13; i++) {
        assert_int_equal(rt[i].src, srcs[i]);
        assert_int_equal(rt[i].role, DISE_ROLE_CHECK);
    }
    assert_int_equal(rt[0].op, DOP_MOV);
    assert_int_equal(rt[0].value, 5);
    assert_int_equal(rt[1].value, -7);
    assert_int_equal(rt[2].value, 0);                 /* parameter #0 */
    assert_int_equal(rt[3].value, 2);                 /* d2 */
    assert_int_equal(rt[4].op, DOP_ADD);
    assert_int_equal(rt[4].rd, 4);
    assert_int_equal(rt[4].rs, 3);
    assert_int_equal(rt[5].op, DOP_SUB);
    assert_int_equal(rt[12].rd, 15);
    assert_int_equal(rt[12].value, 1);
    assert_int_equal(rt[13].op, DOP_CALL);
    assert_int_equal(rt[13].target, 0);
    assert_int_equal(rt[14].op, DOP_INSN);
    assert_int_equal(rt[14].role, DISE_ROLE_NONE);
    expect_round_trip(p);
    dise_program_free(p);
}

/* tally dN: one register operand; a reserved word; printed back. */
static void test_seq_tally(void **state)
{
    (void)state;
    dise_program_t *p = parse_ok("P: T.OPCLASS == return => R\nR [sample]: add d4, d0, 7; tally d4; T.INSN\n");
    assert_int_equal(p->nrt, 3);
    assert_int_equal(p->rt[1].op, DOP_TALLY);
    assert_int_equal(p->rt[1].rs, 4);
    assert_int_equal(p->rt[1].role, DISE_ROLE_SAMPLE);
    expect_round_trip(p);
    dise_program_free(p);
    expect_error("P: T.OPCLASS == return => R\nR: tally 3; T.INSN\n", "2:10: expected a DISE register d0..d15, found '3'");
    expect_error("tally: T.OPCLASS == return => null\n", "1:1: 'tally' is a reserved word and cannot name a definition");
}

static void test_roles(void **state)
{
    (void)state;
    dise_program_t *p = parse_ok(
        "P1: overflow_1 => A\nP2: overflow_1 => B\nP3: overflow_1 => C\nP4: overflow_1 => D\n"
        "A: call(H)\n"
        "B [check]: call(H)\n"
        "C [BASIC]: call(H); [sample] mov d0, 1; [check] j end; end: T.INSN\n"
        "D [sample]: C\n");
    assert_int_equal(p->rt[p->repls[0].start].role, DISE_ROLE_SAMPLE);   /* the default */
    assert_int_equal(p->rt[p->repls[1].start].role, DISE_ROLE_CHECK);
    const dise_rinsn_t *c = &p->rt[p->repls[2].start];
    assert_int_equal(c[0].role, DISE_ROLE_BASIC);
    assert_int_equal(c[1].role, DISE_ROLE_SAMPLE);
    assert_int_equal(c[2].role, DISE_ROLE_CHECK);
    assert_int_equal(c[3].role, DISE_ROLE_NONE);
    /* a spliced sequence keeps its own roles */
    const dise_rinsn_t *d = &p->rt[p->repls[3].start];
    assert_int_equal(p->repls[3].len, 4);
    assert_int_equal(d[0].role, DISE_ROLE_BASIC);
    assert_int_equal(d[1].role, DISE_ROLE_SAMPLE);
    assert_int_equal(d[2].role, DISE_ROLE_CHECK);
    assert_int_equal(d[2].target, p->repls[3].start + 3);
    expect_round_trip(p);
    dise_program_free(p);
}

static void test_labels(void **state)
{
    (void)state;
    dise_program_t *p = parse_ok(
        "P: T.OPCLASS == proc_call => R\n"
        "R [basic]:\n"
        "  top:\n"
        "    beqz d0, skip        # forward\n"
        "    sub d0, d0, 1\n"
        "    bnez d0, top         # backward\n"
        "  skip:\n"
        "    j end\n"
        "    call(Never)\n"
        "  end:\n");
    const dise_rinsn_t *rt = p->rt;
    assert_int_equal(p->nrt, 5);
    assert_int_equal(rt[0].op, DOP_BEQZ);
    assert_int_equal(rt[0].rs, 0);
    assert_int_equal(rt[0].target, 3);
    assert_int_equal(rt[2].op, DOP_BNEZ);
    assert_int_equal(rt[2].target, 0);
    assert_int_equal(rt[3].op, DOP_JUMP);
    assert_int_equal(rt[3].target, 5);               /* the end of the sequence */
    assert_int_equal(rt[0].value, 0);
    expect_round_trip(p);
    dise_program_free(p);

    /* labels are local: the same name in two sequences; targets are absolute */
    p = parse_ok(
        "P1: overflow_1 => A\nP2: overflow_1 => B\n"
        "A [basic]: beqz d0, out; call(X); out: T.INSN\n"
        "B [basic]: T.INSN; beqz d1, out; call(Y); out: T.INSN\n");
    assert_int_equal(p->repls[1].start, 3);
    assert_int_equal(p->rt[0].target, 2);
    assert_int_equal(p->rt[4].target, 6);
    dise_program_free(p);
}

static void test_splicing(void **state)
{
    (void)state;
    dise_program_t *p = parse_ok(
        "INNER [basic]: beqz d1, skip; add d1, d1, -1; skip: mov d2, 7\n"
        "OUTER [sample]: loop: INNER; sub d0, d0, 1; bnez d0, loop; INNER; j end; end: T.INSN\n"
        "P: T.PC == 1 => OUTER\n"
        "UNUSED [check]: INNER; call(Z)\n");
    assert_int_equal(p->nrepls, 1);                  /* only what a production uses */
    assert_string_equal(p->repls[0].name, "OUTER");
    assert_int_equal(p->nrt, 10);
    const dise_rinsn_t *rt = p->rt;
    assert_int_equal(rt[0].op, DOP_BEQZ);
    assert_int_equal(rt[0].target, 2);               /* first copy's skip */
    assert_int_equal(rt[0].role, DISE_ROLE_BASIC);
    assert_int_equal(rt[3].op, DOP_SUB);
    assert_int_equal(rt[3].role, DISE_ROLE_SAMPLE);
    assert_int_equal(rt[4].target, 0);               /* loop */
    assert_int_equal(rt[5].op, DOP_BEQZ);
    assert_int_equal(rt[5].target, 7);               /* second copy's own skip */
    assert_int_equal(rt[8].op, DOP_JUMP);
    assert_int_equal(rt[8].target, 9);
    assert_int_equal(rt[9].op, DOP_INSN);
    assert_int_equal(p->nhandlers, 0);               /* call(Z) is unused */
    expect_round_trip(p);
    dise_program_free(p);

    /* a list of names used as a sequence; one repl shared by two productions */
    p = parse_ok(
        "P1: overflow_1 => BOTH\nP2: overflow_2 => BOTH\nP3: overflow_2 => A\n"
        "A: call(HA)\nB [check]: call(HB); T.INSN\nBOTH: A, B\n");
    assert_int_equal(p->nrepls, 2);
    assert_int_equal(p->prods[0].repl, p->prods[1].repl);
    assert_int_equal(p->repls[0].len, 3);
    assert_int_equal(p->repls[1].start, 3);
    assert_int_equal(p->nrt, 4);
    expect_round_trip(p);
    dise_program_free(p);
}

static void test_handlers(void **state)
{
    (void)state;
    dise_program_t *p = parse_ok(
        "P1: overflow_1 => R2\nP2: overflow_1 => R1\n"
        "R1: call(A); call(C); T.INSN\nR2: call(B); call(A)\nR9: call(Z)\n");
    assert_int_equal(p->nhandlers, 3);
    assert_string_equal(p->handlers[0], "B");
    assert_string_equal(p->handlers[1], "A");
    assert_string_equal(p->handlers[2], "C");
    assert_int_equal(p->rt[2].target, 1);            /* R1's call(A) */
    dise_program_free(p);
}

/* Where statements end: role-less sequences, labels, trailing separators. */
static void test_statement_boundaries(void **state)
{
    (void)state;
    dise_program_t *p = parse_ok(
        "R1: call(A) T.INSN\n"
        "R2: call(B); T.INSN\n"
        "R3: beqz d0, out; call(C)\n"
        "out:\n"
        "R4: R2 R1\n"
        "P1: T.PC == 1 => R1\nP2: T.PC == 2 => R2; P3: T.PC == 3 => R3, CC;;\n"
        "P4: T.PC == 4 => R4\n"
        "CC: inc_1;\n");
    assert_int_equal(p->nprods, 4);
    assert_int_equal(p->repls[p->prods[0].repl].len, 2);
    assert_int_equal(p->repls[p->prods[1].repl].len, 2);
    const dise_repl_t *r3 = &p->repls[p->prods[2].repl];
    assert_int_equal(r3->len, 2);
    assert_int_equal(p->rt[r3->start].target, r3->start + 2);
    assert_int_equal(p->repls[p->prods[3].repl].len, 4);
    dise_program_free(p);
    /* a whole program on one line */
    p = parse_ok("param f = 1 init: set_1(f) P: overflow_1 => R, C R: T.INSN C: inc_1");
    assert_int_equal(p->nprods, 1);
    assert_int_equal(p->nrt, 1);
    assert_int_equal(p->nctls, 2);
    dise_program_free(p);
    /* empty and comment-only files */
    p = parse_ok("");
    assert_int_equal(p->nprods, 0);
    assert_int_equal(p->init_ctl, -1);
    dise_program_free(p);
    p = parse_ok("# nothing\n   \n# here");
    assert_int_equal(p->nprods, 0);
    dise_program_free(p);
}

/* ---- parameters ------------------------------------------------------------ */

static void test_params(void **state)
{
    (void)state;
    char err[512];
    dise_program_t *p = parse_ok(
        "P: overflow_1 => null, set_1(late)\n"
        "param early = -3\n"
        "param late = 0x20\n"
        "param big = -9223372036854775808\n");
    assert_int_equal(p->nparams, 3);
    assert_int_equal(acf_param_index(p, "early"), 0);
    assert_int_equal(acf_param_index(p, "late"), 1);
    assert_int_equal(acf_param_index(p, "nope"), -1);
    assert_int_equal(acf_param_index(NULL, "late"), -1);
    assert_int_equal(p->params[0].value, -3);
    assert_int_equal(p->params[1].value, 32);
    assert_true(p->params[2].value == INT64_MIN);
    assert_int_equal(p->uops[0].value, 1);           /* declared after its use */

    assert_true(acf_set_param(p, "late=5", err, sizeof err));
    assert_int_equal(p->params[1].value, 5);
    assert_true(acf_set_param(p, " late = 0x10 ", err, sizeof err));
    assert_int_equal(p->params[1].value, 16);
    assert_true(acf_set_param(p, "early=-12", err, sizeof err));
    assert_int_equal(p->params[0].value, -12);
    assert_true(acf_set_param(p, "big=9223372036854775807", err, sizeof err));
    assert_true(p->params[2].value == INT64_MAX);
    assert_true(acf_set_param(p, "big=+4", err, sizeof err));
    assert_int_equal(p->params[2].value, 4);

    assert_false(acf_set_param(p, "nope=1", err, sizeof err));
    assert_string_equal(err, "unknown parameter 'nope': the ACF declares early, late, big");
    assert_false(acf_set_param(p, "late=abc", err, sizeof err));
    assert_string_equal(err, "bad value 'abc' for parameter 'late': expected a decimal or 0x "
                             "hexadecimal 64-bit integer");
    assert_false(acf_set_param(p, "late=", err, sizeof err));
    assert_string_equal(err, "bad value '' for parameter 'late': expected a decimal or 0x "
                             "hexadecimal 64-bit integer");
    assert_false(acf_set_param(p, "late=9223372036854775808", err, sizeof err));
    assert_false(acf_set_param(p, "late=0x", err, sizeof err));
    assert_false(acf_set_param(p, "late=12x", err, sizeof err));
    assert_false(acf_set_param(p, "late", err, sizeof err));
    assert_string_equal(err, "bad parameter assignment 'late': expected NAME=VALUE");
    assert_int_equal(p->params[1].value, 16);        /* unchanged by failures */
    dise_program_free(p);

    p = parse_ok("");
    assert_false(acf_set_param(p, "x=1", err, sizeof err));
    assert_string_equal(err, "unknown parameter 'x': the ACF declares no parameters");
    dise_program_free(p);
}

/* ---- includes ---------------------------------------------------------------- */

static void test_includes(void **state)
{
    (void)state;
    char path[PATH_MAX], err[512], want[2 * PATH_MAX + 200];
    make_tmpdir();
    snprintf(path, sizeof path, "%s/lib", tmpdir);
    assert_int_equal(mkdir(path, 0700), 0);
    write_file("main.acf",
               "include \"lib/sampling.acf\"\n"
               "include \"lib/sampling.acf\"   # read once: ignored\n"
               "include \"profile.acf\"        # already read through sampling.acf\n"
               "P0: T.OPCODE == addi => R_main\n"
               "R_main [check]: T.INSN\n");
    write_file("lib/sampling.acf",
               "param sampleFreq = 100\n"
               "init: set_1(sampleFreq)\n"
               "S1: T.OPCLASS == proc_call && !overflow_1 => null, SC1\n"
               "SC1: inc_1\n"
               "include \"../profile.acf\"\n");
    write_file("profile.acf",
               "include \"lib/sampling.acf\"   # a cycle: ignored\n"
               "PR1: T.OPCLASS == proc_call && overflow_1 => RP1\n"
               "RP1: call(CallPair_handler); R_main   # defined later, in main.acf\n");
    snprintf(path, sizeof path, "%s/main.acf", tmpdir);
    dise_program_t *p = acf_parse_file(path, &env, err, sizeof err);
    if (!p) fail_msg("%s", err);
    assert_true(acf_invariants(p));
    assert_int_equal(p->nprods, 3);
    assert_string_equal(p->prods[0].name, "S1");     /* includes splice in place */
    assert_string_equal(p->prods[1].name, "PR1");
    assert_string_equal(p->prods[2].name, "P0");
    assert_int_equal(p->nfiles, 3);
    assert_string_equal(p->files[0], path);
    snprintf(want, sizeof want, "%s/lib/sampling.acf", tmpdir);
    assert_string_equal(p->files[1], want);
    assert_string_equal(p->prods[0].file, want);
    assert_int_equal(p->prods[0].line, 3);
    snprintf(want, sizeof want, "%s/lib/../profile.acf", tmpdir);
    assert_string_equal(p->files[2], want);
    assert_string_equal(p->prods[1].file, want);
    assert_int_equal(p->repls[p->prods[1].repl].len, 2);
    assert_int_not_equal(p->init_ctl, -1);
    expect_round_trip(p);
    dise_program_free(p);

    /* errors inside an included file name that file */
    write_file("bad.acf", "\nP: T.PC == 1 => null, inc_9\n");
    write_file("main2.acf", "# main2\ninclude \"bad.acf\"\n");
    snprintf(path, sizeof path, "%s/main2.acf", tmpdir);
    assert_null(acf_parse_file(path, &env, err, sizeof err));
    snprintf(want, sizeof want, "%s/bad.acf:2:23: counter number in 'inc_9' is out of range: "
             "HPS counters are numbered 1..8", tmpdir);
    assert_string_equal(err, want);

    /* a missing include, a directory, a missing top-level file */
    write_file("main3.acf", "P: T.PC == 1 => null\n  include \"missing.acf\"\n");
    snprintf(path, sizeof path, "%s/main3.acf", tmpdir);
    assert_null(acf_parse_file(path, &env, err, sizeof err));
    snprintf(want, sizeof want, "%s/main3.acf:2:11: cannot read '%s/missing.acf': No such file or "
             "directory", tmpdir, tmpdir);
    assert_string_equal(err, want);
    write_file("main4.acf", "include \"lib\"\n");
    snprintf(path, sizeof path, "%s/main4.acf", tmpdir);
    assert_null(acf_parse_file(path, &env, err, sizeof err));
    snprintf(want, sizeof want, "%s/main4.acf:1:9: cannot read '%s/lib': not a regular file", tmpdir, tmpdir);
    assert_string_equal(err, want);
    snprintf(path, sizeof path, "%s/none.acf", tmpdir);
    assert_null(acf_parse_file(path, &env, err, sizeof err));
    snprintf(want, sizeof want, "%s:1:1: cannot read '%s': No such file or directory", path, path);
    assert_string_equal(err, want);

    /* an error in the including file after the include still names it */
    write_file("ok.acf", "Q: zero_1 => null\n");
    write_file("main5.acf", "include \"ok.acf\"\nP9: T.PC == 1 => nothing\n");
    snprintf(path, sizeof path, "%s/main5.acf", tmpdir);
    assert_null(acf_parse_file(path, &env, err, sizeof err));
    snprintf(want, sizeof want, "%s/main5.acf:2:18: undefined replacement sequence 'nothing'", tmpdir);
    assert_string_equal(err, want);

    /* acf_parse_string resolves includes against the current directory */
    char cwd[PATH_MAX];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(tmpdir), 0);
    p = acf_parse_string("inline", "include \"lib/sampling.acf\"\nR_main: T.INSN\n", &env, err, sizeof err);
    assert_int_equal(chdir(cwd), 0);
    if (!p) fail_msg("%s", err);
    assert_int_equal(p->nprods, 2);
    assert_string_equal(p->files[0], "inline");
    assert_string_equal(p->files[1], "lib/sampling.acf");
    dise_program_free(p);
    remove_tmpdir();
}

static void test_include_depth(void **state)
{
    (void)state;
    char name[32], text[64], path[PATH_MAX], err[512], want[PATH_MAX + 100];
    make_tmpdir();
    /* d0 includes d1 ... d16: sixteen levels of nesting are fine */
    for (int i = 0; i <= 17; i++) {
        snprintf(name, sizeof name, "d%d.acf", i);
        if (i < 16) snprintf(text, sizeof text, "include \"d%d.acf\"\nP%d: zero_1 => null\n", i + 1, i);
        else if (i == 16) snprintf(text, sizeof text, "P16: zero_1 => null\n");
        else snprintf(text, sizeof text, "P17: zero_1 => null\n");
        write_file(name, text);
    }
    snprintf(path, sizeof path, "%s/d0.acf", tmpdir);
    dise_program_t *p = acf_parse_file(path, &env, err, sizeof err);
    if (!p) fail_msg("%s", err);
    assert_int_equal(p->nprods, 17);
    assert_string_equal(p->prods[0].name, "P16");
    assert_string_equal(p->prods[16].name, "P0");
    assert_int_equal(p->nfiles, 17);
    dise_program_free(p);
    /* the seventeenth level is rejected */
    write_file("d16.acf", "include \"d17.acf\"\n");
    assert_null(acf_parse_file(path, &env, err, sizeof err));
    snprintf(want, sizeof want, "%s/d16.acf:1:9: includes nested more than 16 deep", tmpdir);
    assert_string_equal(err, want);
    remove_tmpdir();
}

/* ---- environment ---------------------------------------------------------- */

static void test_env(void **state)
{
    (void)state;
    const dise_env_t nosyms = { &isa_rv64, NULL };
    expect_error_env("P: T.PC in main => null", "1:12: cannot look up function 'main': no program "
                     "symbols are available", &nosyms);
    dise_program_t *p = parse_ok_env("P: T.PC in [1, 2) && T.RS1 == sp => null", &nosyms);
    dise_program_free(p);
    const dise_env_t noisa = { NULL, &test_symtab };
    expect_error_env("P: T.OPCODE == addi => null", "1:16: cannot look up mnemonic 'addi': no "
                     "instruction set", &noisa);
    p = parse_ok_env("P: T.RS1 == x2 && T.PC in main => null", &noisa);
    assert_null(p->isa);
    expect_round_trip_env(p, &noisa);
    dise_program_free(p);
    char err[64];
    assert_null(acf_parse_string("t.acf", NULL, &env, err, sizeof err));
    assert_string_equal(err, "t.acf:1:1: no text");
    assert_null(acf_parse_string("t.acf", "@", &env, NULL, 0));     /* no buffer: no crash */
    assert_null(acf_parse_string("t.acf", "@", &env, err, 1));
    assert_string_equal(err, "");
    assert_null(acf_parse_string("t.acf", "P: T.PC == 1 => nothing", &env, err, 12));
    assert_string_equal(err, "t.acf:1:17:");                        /* truncated, terminated */
    assert_null(acf_parse_file(NULL, &env, err, sizeof err));
    dise_program_free(NULL);
}

/* ---- errors ------------------------------------------------------------------ */

static void test_errors_patterns(void **state)
{
    (void)state;
    expect_error("P1: T.OPCLASS == proc_call null, CC1",
                 "1:28: expected '=>' after the pattern, found 'null'");
    expect_error("P1: T.OPCLASS == proc_cal => null",
                 "1:18: unknown operation class 'proc_cal': expected proc_call, return, branch, jump, "
                 "mem_op, load, store, indirect or an exact class (int_alu, int_mul, fp_load, ...)");
    expect_error("P1: T.OPCLASS == 5 => null",
                 "1:18: expected an operation class (proc_call, return, branch, jump, mem_op, load, "
                 "store, indirect, int_alu, ...), found '5'");
    expect_error("P1: T.OPCODE == addx => null", "1:17: 'addx' is not a mnemonic of rv64gc");
    expect_error("P1: T.OPCODE == c.j => null",
                 "1:17: 'c.j' is not a mnemonic of rv64gc (compressed instructions are matched by "
                 "their 32-bit equivalents)");
    expect_error("P1: T.OPCODE == 3 => null", "1:17: expected an instruction mnemonic, found '3'");
    expect_error("P1: T.OPCLASS < load => null", "1:15: T.OPCLASS can only be compared with == or !=");
    expect_error("P1: T.OPCODE >= add => null", "1:14: T.OPCODE can only be compared with == or !=");
    expect_error("P1: T.FOO == 1 => null",
                 "1:5: unknown field 'T.FOO': expected T.OPCLASS, T.OPCODE, T.PC, T.TARGET, T.RD, "
                 "T.RS1, T.RS2, T.IMM or T.MEMSIZE");
    expect_error("P1: T.EA == 1 => null",
                 "1:5: T.EA cannot be tested in a pattern (it is a replacement operand)");
    expect_error("P1: T.PC 5 => null",
                 "1:10: expected a comparison (== != < <= > >=) after T.PC, found '5'");
    expect_error("P1: T.PC == T.RD => null",
                 "1:13: 'T.RD' cannot be compared with T.PC: expected a number, or T.PC, T.TARGET, "
                 "T.IMM or T.MEMSIZE");
    expect_error("P1: T.PC == -1 => null",
                 "1:13: expected a number or a field after the comparison, found '-'");
    expect_error("P1: T.IMM == - 0x8000000000000001 => null",
                 "1:16: number '-0x8000000000000001' does not fit in a 64-bit integer");
    expect_error("P1: T.MEMSIZE == 9223372036854775808 => null",
                 "1:18: number '9223372036854775808' does not fit in a 64-bit integer");
    expect_error("P1: T.PC == 18446744073709551616 => null",
                 "1:13: number '18446744073709551616' does not fit in a 64-bit integer");
    expect_error("P1: T.PC == 0x1ffffffffffffffff => null",
                 "1:13: number '0x1ffffffffffffffff' does not fit in a 64-bit integer");
    expect_error("P1: T.PC == 0x1g => null",
                 "1:13: malformed number '0x1g': expected decimal digits, or 0x and hex digits");
    expect_error("P1: T.RS1 < sp => null", "1:11: a register field can only be compared with == or !=");
    expect_error("P1: T.RS1 == q7 => null",
                 "1:14: unknown register 'q7': expected an rv64gc register name (a0, sp, ft0, ...), "
                 "x0..x31, f0..f31 or a number 0..63");
    expect_error("P1: T.RD == x32 => null",
                 "1:13: unknown register 'x32': expected an rv64gc register name (a0, sp, ft0, ...), "
                 "x0..x31, f0..f31 or a number 0..63");
    expect_error("P1: T.RD == 64 => null",
                 "1:13: unknown register '64': expected an rv64gc register name (a0, sp, ft0, ...), "
                 "x0..x31, f0..f31 or a number 0..63");
    expect_error("P1: T.RD == ( => null",
                 "1:13: expected a register (a0, sp, ft0, x5, f3 or 0..63), found '('");
    expect_error("P1: T.PC in nosuch => null", "1:13: no function nosuch in the program");
    expect_error("P1: T.PC in [0x20, 0x10) => null", "1:13: the range [0x20, 0x10) is empty");
    expect_error("P1: T.PC in [0x10, 0x10) => null", "1:13: the range [0x10, 0x10) is empty");
    expect_error("P1: T.PC in [0x10, 0x20] => null",
                 "1:24: expected ')' to close the half-open range [lo, hi), found ']'");
    expect_error("P1: T.PC in [0x10 0x20) => null",
                 "1:19: expected ',' between the bounds of the range, found '0x20'");
    expect_error("P1: T.PC in 5 => null", "1:13: expected a function name or '[' after 'in', found '5'");
    expect_error("P1: T.IMM in [1, 2) => null", "1:5: only T.PC and T.TARGET can be tested with 'in'");
    expect_error("P1: (T.PC == 1 => null", "1:16: expected ')' to close the '(' at 1:5, found '=>'");
    expect_error("P1: overflow_0 => null",
                 "1:5: counter number in 'overflow_0' is out of range: HPS counters are numbered 1..8");
    expect_error("P1: zero_9 => null",
                 "1:5: counter number in 'zero_9' is out of range: HPS counters are numbered 1..8");
    expect_error("P1: zero_99999999999999999999999 => null",
                 "1:5: counter number in 'zero_99999999999999999999999' is out of range: HPS "
                 "counters are numbered 1..8");
    expect_error("P1: => null",
                 "1:5: expected a pattern, a control list or a replacement sequence after 'P1:', found '=>'");
    expect_error("P1: T.PC == 1 && => null",
                 "1:18: expected a pattern term (T.OPCLASS, T.OPCODE, T.PC, T.TARGET, T.RD, T.RS1, "
                 "T.RS2, T.IMM, T.MEMSIZE, overflow_N, zero_N), '!' or '(', found '=>'");
    expect_error("P1: T.PC == 1 & T.PC == 2 => null",
                 "1:15: unexpected character '&': the operators are '&&' and '||'");
    expect_error("P1: T.PC == 1 => 5",
                 "1:18: expected a replacement sequence name or 'null' after '=>', found '5'");
    expect_error("P1: T.PC == 1 => null CC1",
                 "1:23: expected ',' and a control list after the replacement, or the next statement, "
                 "found 'CC1'");
    expect_error("P1: T.PC == 1",
                 "1:14: expected '=>' after the pattern, found the end of the file");
}

static void test_errors_control(void **state)
{
    (void)state;
    expect_error("P1: T.PC == 1 => null, inc_1 inc_2",
                 "1:30: expected ',' or ';' between micro-ops, or the next statement, found 'inc_2'");
    expect_error("P1: T.PC == 1 => null, inc_0",
                 "1:24: counter number in 'inc_0' is out of range: HPS counters are numbered 1..8");
    expect_error("P1: T.PC == 1 => null, set_1 5", "1:30: expected '(' after set_N, found '5'");
    expect_error("P1: T.PC == 1 => null, set_1(T.PC)",
                 "1:30: expected a parameter name, a number or a DISE register d0..d15 in set_N(...), "
                 "found 'T.PC'");
    expect_error("P1: T.PC == 1 => null, set_1(d16)",
                 "1:30: DISE register 'd16' does not exist: they are d0..d15");
    expect_error("P1: T.PC == 1 => null, set_1(x",
                 "1:31: expected ')' to close set_N(...), found the end of the file");
    expect_error("P1: T.PC == 1 => null, inc_1, null",
                 "1:31: 'null' can only stand alone, as the whole control list");
    expect_error("P1: T.PC == 1 => null, (",
                 "1:24: expected a micro-op (inc_N, dec_N, set_N(x)) or a control list name, found '('");
    expect_error("P1: T.PC == 1 => null, CC9", "1:24: undefined control list 'CC9'");
    expect_error("P1: T.PC == 1 => null, inc_1, CC9", "1:31: undefined control list 'CC9'");
    expect_error("P1: T.PC == 1 => null, R1\nR1: T.INSN",
                 "1:24: 'R1' is a replacement sequence (t.acf:2), not a control list");
    expect_error("P1: T.PC == 1 => null, set_1(nope)",
                 "1:30: undefined parameter 'nope': declare it with 'param nope = VALUE'");
    expect_error("CC: inc_1, set_2(nope)",
                 "1:18: undefined parameter 'nope': declare it with 'param nope = VALUE'");
    expect_error("C1: inc_1, C2\nC2: C1\n", "2:5: splice cycle: 'C1' -> 'C2' -> 'C1'");
    expect_error("C1: inc_1, C1", "1:12: splice cycle: 'C1' -> 'C1'");
    expect_error("init inc_1", "1:6: expected ':' after 'init', found 'inc_1'");
    expect_error("init: 5", "1:7: expected a micro-op (inc_N, dec_N, set_N(x)) or a control list name, "
                 "found '5'");
    expect_error("init: X", "1:7: undefined control list 'X'");
}

static void test_errors_sequences(void **state)
{
    (void)state;
    expect_error("P1: T.PC == 1 => R9", "1:18: undefined replacement sequence 'R9'");
    expect_error("P1: T.PC == 1 => CC1\nCC1: inc_1",
                 "1:18: 'CC1' is a control list (t.acf:2), not a replacement sequence");
    expect_error("P1: T.PC == 1 => P1", "1:18: 'P1' is a production (t.acf:1), not a replacement sequence");
    expect_error("R1: mov d0, nope\nP: T.PC == 1 => R1",
                 "1:13: undefined parameter 'nope': declare it with 'param nope = VALUE'");
    expect_error("R1 [basic]: add d0, d0, nope",
                 "1:25: undefined parameter 'nope': declare it with 'param nope = VALUE'");
    expect_error("R1: j nowhere", "1:7: undefined label 'nowhere' in 'R1' (labels are local to their sequence)");
    expect_error("A [basic]: beqz d0, out; T.INSN\nB [basic]: out: T.INSN; j out\n",
                 "1:21: undefined label 'out' in 'A' (labels are local to their sequence)");
    expect_error("R1: T.INSN; here: T.INSN; here: T.INSN; j here",
                 "1:27: label 'here' is already defined in 'R1' at 1:13");
    expect_error("R1: call(", "1:10: expected a handler name in call(...), found the end of the file");
    expect_error("R1: call H", "1:10: expected '(' after call, found 'H'");
    expect_error("R1: call(H", "1:11: expected ')' to close call(...), found the end of the file");
    expect_error("R1: mov d0 5", "1:12: expected ',' after the destination register, found '5'");
    expect_error("R1: mov x0, 5", "1:9: expected a DISE register d0..d15, found 'x0'");
    expect_error("R1: mov d16, 5", "1:9: DISE register 'd16' does not exist: they are d0..d15");
    expect_error("R1: add d0, d1 5", "1:16: expected ',' after the first source register, found '5'");
    expect_error("R1: add d0, d1, T.INSN",
                 "1:17: expected a source operand (a number, a parameter, d0..d15, T.PC, T.TARGET, "
                 "T.IMM, T.OPCLASS, T.EA, T.RS1, T.RS2, T.RD, T.TAKEN or counter_N), found 'T.INSN'");
    expect_error("R1: mov d0, counter_9",
                 "1:13: counter number in 'counter_9' is out of range: HPS counters are numbered 1..8");
    expect_error("R1: beqz d0 L", "1:13: expected ',' after the tested register, found 'L'");
    expect_error("R1: j 5", "1:7: expected a label, found '5'");
    expect_error("R1 [basic]: [sample] T.INSN",
                 "1:13: a role prefix applies to a DISE instruction, not to T.INSN or a spliced sequence");
    expect_error("R1 [basic]: [sample] R2",
                 "1:13: a role prefix applies to a DISE instruction, not to T.INSN or a spliced sequence");
    expect_error("R1 [basic]: [foo] mov d0, 1", "1:14: expected a role (check, basic or sample), found 'foo'");
    expect_error("R1 [basic]: [check mov d0, 1", "1:20: expected ']' after the role, found 'mov'");
    expect_error("R1 [basic]:", "1:1: replacement sequence 'R1' has no instructions");
    expect_error("R1 [basic]: $", "1:13: unexpected character '$'");
    expect_error("R1 [basic]: 5",
                 "1:13: expected a replacement instruction (T.INSN, call, mov, add, sub, beqz, bnez, j "
                 "or a sequence name), found '5'");
    expect_error("R1: A\nA: R1\nP: T.PC == 1 => R1", "2:4: splice cycle: 'R1' -> 'A' -> 'R1'");
    expect_error("R1: T.INSN; R1", "1:13: splice cycle: 'R1' -> 'R1'");
    expect_error("R1: T.INSN; R2\nR2 [basic]: call(X); R3\nR3: R1",
                 "3:5: splice cycle: 'R1' -> 'R2' -> 'R3' -> 'R1'");
    expect_error("R1: T.INSN; CC\nCC: inc_1",
                 "1:13: 'CC' is a control list (t.acf:2), not a replacement sequence");
    expect_error("A: B, 5", "1:7: expected a replacement sequence or control list name, found '5'");
    expect_error("P: T.PC == 1 => A\nA: B", "2:4: undefined replacement sequence 'B'");
    expect_error("A: B", "1:4: undefined name 'B'");
    expect_error("A: P\nP: T.PC == 1 => null", "1:4: 'P' is a production and cannot be spliced");
}

static void test_errors_statements(void **state)
{
    (void)state;
    expect_error("A: inc_1\nA: inc_2", "2:1: 'A' is already defined at t.acf:1:1");
    expect_error("P: zero_1 => null\n\n  P [basic]: T.INSN", "3:3: 'P' is already defined at t.acf:1:1");
    expect_error("param a = 1\nparam a = 2", "2:7: parameter 'a' is already declared at t.acf:1:7");
    expect_error("param = 5", "1:7: expected a parameter name after 'param', found '='");
    expect_error("param a 5", "1:9: expected '=' after the parameter name, found '5'");
    expect_error("param a = x", "1:11: expected the parameter's value (a number), found 'x'");
    expect_error("param a = 9223372036854775808",
                 "1:11: number '9223372036854775808' does not fit in a 64-bit integer");
    expect_error("param a = 99999999999999999999",
                 "1:11: number '99999999999999999999' does not fit in a 64-bit integer");
    expect_error("param a = 0x10000000000000000",
                 "1:11: number '0x10000000000000000' does not fit in a 64-bit integer");
    expect_error("param a = 12ab",
                 "1:11: malformed number '12ab': expected decimal digits, or 0x and hex digits");
    expect_error("param d3 = 1", "1:7: expected a parameter name after 'param', found 'd3'");
    expect_error("include nofile", "1:9: expected a file name in double quotes after 'include', found 'nofile'");
    expect_error("include \"x", "1:9: unterminated string: expected a closing '\"' on the same line");
    expect_error("include \"x\ny\"", "1:9: unterminated string: expected a closing '\"' on the same line");
    expect_error("include \"\"", "1:9: empty file name");
    expect_error("@", "1:1: unexpected character '@'");
    expect_error("P: zero_1 => null\n\t\x01", "2:2: unexpected character '\\x01'");
    expect_error("# \xc3\xa9t\xc3\xa9\nP: zero_1 => null \xc3\xa9", "2:19: unexpected character '\\xc3'");
    expect_error("5: T.INSN",
                 "1:1: expected a statement (NAME:, NAME [role]:, param, include, init or table), found '5'");
    expect_error("T.INSN",
                 "1:1: expected a statement (NAME:, NAME [role]:, param, include, init or table), found 'T.INSN'");
    expect_error("null: inc_1", "1:1: 'null' is a reserved word and cannot name a definition");
    expect_error("mov: inc_1", "1:1: 'mov' is a reserved word and cannot name a definition");
    expect_error("inc_1 [basic]: T.INSN", "1:1: 'inc_1' is a reserved word and cannot name a definition");
    expect_error("A inc_1", "1:3: expected ':' after 'A', found 'inc_1'");
    expect_error("A [sample] T.INSN", "1:12: expected ':' after 'A', found 'T.INSN'");
    expect_error("A [sample: T.INSN", "1:10: expected ']' after the role, found ':'");
    expect_error("A [7]: T.INSN", "1:4: expected a role (check, basic or sample), found '7'");
    expect_error("X:\nY: inc_1",
                 "2:1: expected a pattern, a control list or a replacement sequence after 'X:', found 'Y'");
    expect_error("X: Y [basic]: T.INSN\nP: zero_1 => X",
                 "1:4: expected a pattern, a control list or a replacement sequence after 'X:', found 'Y'");
    expect_error("X: Y: inc_1", "1:4: expected a pattern, a control list or a replacement sequence after "
                 "'X:', found 'Y'");
    expect_error("X: null", "1:4: expected a pattern, a control list or a replacement sequence after "
                 "'X:', found 'null'");
    expect_error("R1: T.INSN\n$", "2:1: unexpected character '$'");
    expect_error("R1: T.INSN\nP: T.PC == 1 => R1, C\nC: inc_1 ) ",
                 "3:10: expected ',' or ';' between micro-ops, or the next statement, found ')'");
}

static void test_limits(void **state)
{
    (void)state;
    static char text[1 << 16];
    char want[256];
    size_t n = 0;

    /* names: 47 characters are fine, 48 are not */
    const char *n47 = "abcdefghijklmnopqrstuvwxyzabcdefghijklmnopqrstu";
    assert_int_equal(strlen(n47), 47);
    snprintf(text, sizeof text, "%s: inc_1\nP: zero_1 => null, %s", n47, n47);
    dise_program_t *p = parse_ok(text);
    assert_string_equal(p->ctls[0].name, n47);
    dise_program_free(p);
    snprintf(text, sizeof text, "P: zero_1 => null, %sv", n47);
    expect_error(text, "1:20: name 'abcdefghijklmnopqrstuvwxyzabcdef...' is longer than 47 characters");
    snprintf(text, sizeof text, "R: call(%sv)", n47);
    expect_error(text, "1:9: name 'abcdefghijklmnopqrstuvwxyzabcdef...' is longer than 47 characters");

    /* 64 productions are fine, the 65th is not */
    n = 0;
    for (int i = 0; i < 64; i++) n += (size_t)snprintf(text + n, sizeof text - n, "P%d: zero_1 => null\n", i);
    p = parse_ok(text);
    assert_int_equal(p->nprods, 64);
    dise_program_free(p);
    snprintf(text + n, sizeof text - n, "P64: zero_1 => null\n");
    expect_error(text, "65:1: more than 64 productions");

    /* 32 parameters, 32 handlers */
    n = 0;
    for (int i = 0; i < 33; i++) n += (size_t)snprintf(text + n, sizeof text - n, "param p%d = %d\n", i, i);
    expect_error(text, "33:7: more than 32 parameters");
    n = 0;
    n += (size_t)snprintf(text + n, sizeof text - n, "P: zero_1 => R\nR:");
    for (int i = 0; i < 33; i++) n += (size_t)snprintf(text + n, sizeof text - n, " call(h%d)", i);
    snprintf(want, sizeof want, "2:%d: more than 32 distinct handlers", 3 + 10 * 9 + 22 * 10 + 6);
    expect_error(text, want);
    text[n - 10] = '\0';                           /* drop the 33rd call */
    p = parse_ok(text);
    assert_int_equal(p->nhandlers, 32);
    dise_program_free(p);

    /* nesting and pattern size */
    n = (size_t)snprintf(text, sizeof text, "P: ");
    for (int i = 0; i < 101; i++) text[n++] = '(';
    snprintf(text + n, sizeof text - n, "zero_1");
    expect_error(text, "1:104: pattern nested more than 100 deep");
    n = (size_t)snprintf(text, sizeof text, "P: ");
    for (int i = 0; i < 101; i++) text[n++] = '!';
    snprintf(text + n, sizeof text - n, "zero_1");
    expect_error(text, "1:104: pattern nested more than 100 deep");
    n = (size_t)snprintf(text, sizeof text, "P: zero_1");
    for (int i = 0; i < 600; i++) n += (size_t)snprintf(text + n, sizeof text - n, " || zero_1");
    snprintf(text + n, sizeof text - n, " => null");
    expect_error(text, "1:5121: pattern has more than 1024 terms and operators");

    /* splicing that explodes: 2^17 instructions */
    n = (size_t)snprintf(text, sizeof text, "S0: T.INSN T.INSN\n");
    for (int i = 1; i <= 16; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "S%d [basic]: S%d S%d\n", i, i - 1, i - 1);
    expect_error(text, "17:1: 'S16' is longer than 65536 instructions after splicing");
    /* the same through lists of names, checked when a production uses them */
    n = (size_t)snprintf(text, sizeof text, "S0: T.INSN T.INSN\n");
    for (int i = 1; i <= 16; i++) n += (size_t)snprintf(text + n, sizeof text - n, "S%d: S%d S%d\n", i, i - 1, i - 1);
    p = parse_ok(text);                            /* unused lists of names are not expanded */
    dise_program_free(p);
    snprintf(text + n, sizeof text - n, "P: zero_1 => S16\n");
    expect_error(text, "17:1: 'S16' is longer than 65536 instructions after splicing");
    /* the whole replacement table */
    n = (size_t)snprintf(text, sizeof text, "S0: T.INSN\n");
    for (int i = 1; i <= 15; i++) n += (size_t)snprintf(text + n, sizeof text - n, "S%d: S%d S%d\n", i, i - 1, i - 1);
    snprintf(text + n, sizeof text - n,
             "R1: S15 S14\nR2: S15 S14\nP1: zero_1 => R1\nP2: zero_1 => R2\n");
    expect_error(text, "20:15: more than 65536 replacement instructions in all");
    n = (size_t)snprintf(text, sizeof text, "C0: inc_1, inc_1\n");
    for (int i = 1; i <= 16; i++) n += (size_t)snprintf(text + n, sizeof text - n, "C%d: C%d, C%d\n", i, i - 1, i - 1);
    snprintf(text + n, sizeof text - n, "P: zero_1 => null, C16\n");
    expect_error(text, "17:1: 'C16' is longer than 65536 micro-ops after splicing");
}

/* ---- printing ---------------------------------------------------------------- */

static const char complex_acf[] =
    "param sampleFreq = 99\n"
    "param burstLength = -1\n"
    "param big = 0x7fffffffffffffff\n"
    "init: set_1(sampleFreq), set_2(burstLength), set_3(d4), set_4(-8)\n"
    "P1: T.OPCLASS == proc_call && !overflow_1 => null, CC1\n"
    "P2: (T.OPCLASS == branch && T.TARGET <= T.PC || T.OPCODE != jalr) && !zero_2 => HOT, CC1, dec_2\n"
    "P3: T.PC in foo && T.TARGET in [0x1000, 0xffffffffffffffff) && T.RS1 == zero && T.RD != x0\n"
    "    && T.RS2 == fa7 && T.IMM < -2048 && T.MEMSIZE >= 0xffffffffffffffff => BOTH, BOTHC\n"
    "P4: T.OPCLASS != fp_load && T.OPCLASS == int_div || !!overflow_3 => HOT\n"
    "P5: T.OPCODE == fence.i => LOOP, null\n"
    "CC1: inc_1\n"
    "CC2: dec_2; set_2(big)\n"
    "BOTHC: CC1, CC2\n"
    "INNER [basic]: beqz d1, skip; add d1, d1, -1; skip: mov d2, 7\n"
    "HOT [sample]: top: INNER; mov d8, T.PC; mov d9, T.TARGET; call(HotMethod_handler)\n"
    "    sub d0, d0, burstLength; bnez d0, top; INNER; j end; end: T.INSN\n"
    "CHK [check]: mov d3, counter_3; add d3, d3, T.EA; T.INSN\n"
    "BOTH: CHK, HOT\n"
    "LOOP [check]: loop: sub d5, d5, 1; bnez d5, loop; mov d6, T.RS1; mov d7, T.RS2; mov d7, T.RD\n"
    "    mov d7, T.IMM; mov d7, T.OPCLASS; mov d7, d6; mov d7, -9223372036854775808; T.INSN\n";

static void test_round_trip(void **state)
{
    (void)state;
    const char *programs[] = { figure4, figure4_paper, figure5, complex_acf };
    for (size_t i = 0; i < sizeof programs / sizeof programs[0]; i++) {
        dise_program_t *p = parse_ok(programs[i]);
        expect_round_trip(p);
        dise_program_free(p);
    }
}

static void test_print_format(void **state)
{
    (void)state;
    dise_program_t *p = parse_ok(complex_acf);
    char *text = acf_print_to_string(p);
    assert_non_null(text);
    static const char *const lines[] = {
        "param sampleFreq = 99\n",
        "param burstLength = -1\n",
        "param big = 9223372036854775807\n",
        "init: set_1(sampleFreq), set_2(burstLength), set_3(d4), set_4(-8)\n",
        "CC1: inc_1\n",
        "BOTHC: inc_1, dec_2, set_2(big)\n",
        "P1: ((T.OPCLASS == proc_call) && !overflow_1)\n    => null, CC1\n",
        "P2: ((((T.OPCLASS == branch) && (T.TARGET <= T.PC)) || !(T.OPCODE == jalr)) && !zero_2)\n"
        "    => HOT, inc_1, dec_2\n",
        "(T.RS1 == zero)", "(T.RD != zero)", "(T.RS2 == fa7)", "(T.IMM < -2048)",
        "(T.MEMSIZE >= 0xffffffffffffffff)", "(T.TARGET in [0x1000, 0xffffffffffffffff))",
        "((T.PC in [0x1040, 0x1060)) || (T.PC in [0x2000, 0x2008)))",
        "!!overflow_3", "(T.OPCODE == fence.i)",
        "    => LOOP\n",
        "HOT [sample]:\n  L0:\n    [basic] beqz d1, L2\n    [basic] add d1, d1, -1\n  L2:\n"
        "    [basic] mov d2, 7\n    mov d8, T.PC\n",
        "    bnez d0, L0\n",
        "    j L12\n  L12:\n    T.INSN\n",
        "BOTH [sample]:\n    [check] mov d3, counter_3\n    [check] add d3, d3, T.EA\n    T.INSN\n  L3:\n"
        "    [basic] beqz d1, L5\n",
        "    mov d7, -9223372036854775808\n",
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++)
        if (!strstr(text, lines[i])) fail_msg("missing:\n%s\n--- in ---\n%s", lines[i], text);
    free(text);
    dise_program_free(p);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figure4_paper),
        cmocka_unit_test(test_figure4),
        cmocka_unit_test(test_figure5),
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_fields),
        cmocka_unit_test(test_classes),
        cmocka_unit_test(test_opcodes),
        cmocka_unit_test(test_registers),
        cmocka_unit_test(test_ranges),
        cmocka_unit_test(test_flags_and_counters),
        cmocka_unit_test(test_control_lists),
        cmocka_unit_test(test_init),
        cmocka_unit_test(test_seq_instructions),
        cmocka_unit_test(test_roles),
        cmocka_unit_test(test_labels),
        cmocka_unit_test(test_splicing),
        cmocka_unit_test(test_handlers),
        cmocka_unit_test(test_statement_boundaries),
        cmocka_unit_test(test_params),
        cmocka_unit_test(test_includes),
        cmocka_unit_test(test_include_depth),
        cmocka_unit_test(test_env),
        cmocka_unit_test(test_errors_patterns),
        cmocka_unit_test(test_errors_control),
        cmocka_unit_test(test_errors_sequences),
        cmocka_unit_test(test_errors_statements),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_seq_tally),
        cmocka_unit_test(test_print_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
