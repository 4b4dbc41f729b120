/*
 * test_dise_runtime.c - unit tests (cmocka) for the DISE handler runtime:
 * loading the embedded runtime ELF into its own address space, its
 * symbols, each handler run instruction by instruction on the functional
 * core (program registers preserved, the expected sample in the buffer, a
 * small instruction count), the hps.flush path of a full buffer — for the
 * RISC-V and the Alpha runtime alike, with the C handlers behind the entry wrappers
 * and with the hand-written assembly ones (buffer pointer in d14/d15) — and the decoding of the RISC-V hps.*
 * custom-0 instructions only inside the runtime region (the Alpha OPC01
 * words are tested in test_alpha_int.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "core.h"
#include "core_loop.h"
#include "dise.h"
#include "hps_op_markers.h"
#include "runtime.h"
#include "isa.h"
#include "mem.h"
#include "pmu.h"
#include "symtab.h"

/* ---- helpers ---------------------------------------------------------------- */

/* One ISA's runtime under test, and where that ISA keeps the program's
 * registers: general registers first..last hold values a handler must
 * preserve, sp is the stack pointer the entry wrapper parks in d13. */
typedef struct rt_fixture {
    const isa_t *isa;
    runtime_t *rt;
    unsigned first, last, sp;
} rt_fixture_t;

static int load_runtime(void **state, const isa_t *isa, unsigned first, unsigned last,
                        unsigned sp, runtime_handlers_t handlers)
{
    char err[256] = "";
    rt_fixture_t *f = test_calloc(1, sizeof *f);
    *f = (rt_fixture_t){ isa, runtime_load(isa, err, sizeof err), first, last, sp };
    if (!f->rt) print_error("runtime_load(%s): %s\n", isa->name, err);
    else runtime_set_handlers(f->rt, handlers);
    *state = f;
    return f->rt ? 0 : -1;
}

/* RISC-V: x1..x31 (x0 is zero), sp = x2.  Alpha: r0..r30 (r31 is zero),
 * sp = r30. */
static int load_runtime_rv64(void **state)
{
    return load_runtime(state, &isa_rv64, 1, 31, 2, RUNTIME_HANDLERS_C);
}
static int load_runtime_alpha(void **state)
{
    return load_runtime(state, &isa_alpha, 0, 30, 30, RUNTIME_HANDLERS_C);
}
static int load_runtime_rv64_asm(void **state)
{
    return load_runtime(state, &isa_rv64, 1, 31, 2, RUNTIME_HANDLERS_ASM);
}
static int load_runtime_alpha_asm(void **state)
{
    return load_runtime(state, &isa_alpha, 0, 30, 30, RUNTIME_HANDLERS_ASM);
}

static bool asm_handlers(const rt_fixture_t *f)
{
    return runtime_handlers(f->rt) == RUNTIME_HANDLERS_ASM;
}

static int free_runtime(void **state)
{
    rt_fixture_t *f = *state;
    runtime_free(f->rt);
    test_free(f);
    return 0;
}

/* A distinct value for program register r. */
static uint64_t pattern(unsigned r)
{
    return 0x5a00000000000000ull | (uint64_t)r << 40 | (uint64_t)r * 0x01010101ull;
}

/* A cpu in the runtime's address space at the entry of handler `name`, as
 * DISE's call(name) leaves it: the program registers hold patterns,
 * arguments in d8..d11, the runtime stack pointer in d12.  The first call
 * on c attaches it to the runtime (with the assembly handlers: d14/d15 =
 * the empty buffer); later ones keep the buffer pointer d14/d15 as the
 * previous handler left it. */
static void enter_handler(cpu_t *c, const rt_fixture_t *f, const char *name,
                          const uint64_t args[4], bool first)
{
    uint64_t next = first ? 0 : c->reg[REG_DISE0 + DREG_BUF_NEXT];
    uint64_t end = first ? 0 : c->reg[REG_DISE0 + DREG_BUF_END];
    cpu_init(c, f->isa, runtime_mem(f->rt));
    if (first) {
        runtime_attach(f->rt, c);
    } else {
        c->reg[REG_DISE0 + DREG_BUF_NEXT] = next;
        c->reg[REG_DISE0 + DREG_BUF_END] = end;
    }
    for (unsigned r = f->first; r <= f->last; r++) c->reg[r] = pattern(r);
    for (unsigned r = 0; r < 32; r++) c->reg[REG_FP0 + r] = ~pattern(r);
    for (unsigned k = 0; k < 4; k++) c->reg[REG_DISE0 + DREG_ARG0 + k] = args[k];
    c->reg[REG_DISE0 + DREG_HANDLER_SP] = runtime_stack_top(f->rt);
    c->reg[REG_DISE0 + DREG_SAVED_SP] = 0xbadbadbadull;
    c->pc = runtime_handler(f->rt, name);
    assert_true(c->pc != 0);
}

typedef struct run_result {
    uint64_t insts;             /* instructions executed, hps.ret excluded  */
    unsigned flushes;           /* hps.flush instructions reached           */
    uint64_t drained;           /* samples drained at those flushes         */
} run_result_t;

typedef struct collected {
    hps_sample_t s[HPS_PROFILE_CAPACITY + 1];
    size_t n;
} collected_t;

static void collect(void *ctx, const hps_sample_t *s)
{
    collected_t *col = ctx;
    if (col->n < sizeof col->s / sizeof col->s[0]) col->s[col->n] = *s;
    col->n++;
}

/* Step the handler until the next instruction is hps.ret (not executed).
 * At an hps.flush the test plays the host: drain into `col` (unless col is
 * NULL: the host then frees nothing) and continue after it. */
static run_result_t run_handler(cpu_t *c, runtime_t *rt, collected_t *col)
{
    jmp_buf jb;
    volatile run_result_t res = { 0, 0, 0 };
    c->stop_jmp = &jb;
    c->mem->fault_jmp = &jb;
    if (setjmp(jb)) {
        fail_msg("handler stopped (reason %d) at pc 0x%" PRIx64 ", info 0x%" PRIx64,
                 (int)c->stop, c->stop_pc, c->stop_info);
    }
    for (;;) {
        uint64_t pc = c->pc;
        assert_true(runtime_contains(pc));
        insn_t *in = cpu_fetch_decode(c, pc);
        if (in->op == c->isa->table_size + HPS_OP_RET) break;
        if (in->op == c->isa->table_size + HPS_OP_FLUSH) {
            res.flushes++;
            if (col) res.drained += runtime_drain(rt, collect, col);
            c->pc = pc + in->len;
            res.insts++;
            continue;
        }
        core_step(c, in, pc);
        res.insts++;
        assert_true(res.insts < 10000);
    }
    c->stop_jmp = NULL;
    c->mem->fault_jmp = NULL;
    return res;
}

static void assert_program_registers_intact(const cpu_t *c, const rt_fixture_t *f)
{
    for (unsigned r = f->first; r <= f->last; r++) {
        if (c->reg[r] != pattern(r))
            fail_msg("%s register %u = 0x%" PRIx64 ", expected 0x%" PRIx64, f->isa->name, r,
                     c->reg[r], pattern(r));
    }
    for (unsigned r = 0; r < 32; r++) assert_true(c->reg[REG_FP0 + r] == ~pattern(r));
    assert_true(c->reg[REG_ZERO] == 0);
}

/* Run one handler call with args and check the one sample it leaves. */
static void check_handler(const rt_fixture_t *f, const char *name, const uint64_t args[4],
                          const hps_sample_t *want)
{
    runtime_t *rt = f->rt;
    cpu_t c;
    enter_handler(&c, f, name, args, true);
    uint64_t entry = c.pc;
    run_result_t res = run_handler(&c, rt, NULL);
    assert_program_registers_intact(&c, f);
    if (!asm_handlers(f))                                   /* sp parked in d13 */
        assert_true(c.reg[REG_DISE0 + DREG_SAVED_SP] == pattern(f->sp));
    assert_true(c.reg[REG_DISE0 + DREG_HANDLER_SP] == runtime_stack_top(rt));
    const symbol_t *sym = symtab_lookup(runtime_symtab(rt), c.pc);
    assert_non_null(sym);
    char entry_name[64];
    snprintf(entry_name, sizeof entry_name, "%s%s", name, asm_handlers(f) ? "_asm" : "");
    assert_string_equal(sym->name, entry_name);           /* hps.ret ends the handler */
    assert_true(sym->addr == entry);
    assert_int_equal(res.flushes, 0);
    print_message("%-6s %-24s %3" PRIu64 " instructions per call (hps.ret excluded)\n",
                  f->isa->name, entry_name, res.insts);
    /* the C entry wrappers save up to 23 registers; the assembly handlers two, in
     * DISE registers (at most 18 instructions + hps.ret) */
    assert_true(res.insts <= (asm_handlers(f) ? 18u : 80u));

    collected_t *col = test_calloc(1, sizeof *col);
    assert_int_equal(runtime_drain(rt, collect, col), 1);
    assert_int_equal(col->n, 1);
    assert_true(col->s[0].kind == want->kind);
    assert_true(col->s[0].a == want->a);
    assert_true(col->s[0].b == want->b);
    assert_true(col->s[0].c == want->c);
    assert_int_equal(runtime_drain(rt, collect, col), 0);   /* count was reset */
    test_free(col);
}

/* ---- tests -------------------------------------------------------------------- */

static void test_load(void **state)
{
    const rt_fixture_t *f = *state;
    runtime_t *rt = f->rt;
    static const char *const names[] = { "HotMethod_handler", "CallPair_handler",
                                         "DataStream_handler" };
    for (size_t k = 0; k < 3; k++) {
        uint64_t a = runtime_symbol(rt, names[k]);
        assert_true(runtime_contains(a));
        const symbol_t *s = symtab_lookup(runtime_symtab(rt), a);
        assert_non_null(s);
        assert_string_equal(s->name, names[k]);
        const guest_page_t *pg = mem_page(runtime_mem(rt), a);
        assert_non_null(pg);
        assert_true(pg->prot & MEM_PROT_EXEC);
        assert_false(pg->prot & MEM_PROT_WRITE);
    }
    assert_true(runtime_symbol(rt, "no_such_handler") == 0);

    uint64_t buf = runtime_buffer(rt);
    assert_true(buf == runtime_symbol(rt, "hps_profile"));
    assert_true(runtime_contains(buf));
    hps_profile_header_t h;
    assert_true(mem_read(runtime_mem(rt), buf, &h, sizeof h));
    assert_memory_equal(&h.magic, "HPSPROF1", 8);
    assert_true(h.version == HPS_PROFILE_VERSION);
    assert_true(h.capacity == HPS_PROFILE_CAPACITY);
    assert_true(h.count == 0 && h.flushes == 0 && h.dropped == 0);
    const guest_page_t *pg = mem_page(runtime_mem(rt), buf + sizeof(hps_profile_t) - 1);
    assert_non_null(pg);
    assert_true(pg->prot & MEM_PROT_WRITE);

    uint64_t top = runtime_stack_top(rt);
    assert_true(top == RUNTIME_BASE + RUNTIME_SIZE);
    assert_true(mem_is_mapped(runtime_mem(rt), top - 8));
    assert_true(mem_is_mapped(runtime_mem(rt), top - RUNTIME_STACK_SIZE));
    assert_false(mem_is_mapped(runtime_mem(rt), top));
    assert_int_equal(runtime_drain(rt, collect, NULL), 0);
}

/* An ISA without an embedded runtime is an error naming the ISA. */
static void test_no_runtime_for_other_isa(void **state)
{
    (void)state;
    isa_t other = isa_rv64;
    other.name = "sparc64";
    other.elf_machine = EM_SPARCV9;
    char err[256] = "";
    assert_null(runtime_load(&other, err, sizeof err));
    assert_non_null(strstr(err, "sparc64"));
}

static void test_hot_method(void **state)
{
    const uint64_t args[4] = { 0x10234, 0x10500, 0xdead, 0xbeef };
    const hps_sample_t want = { HPS_SAMPLE_METHOD, 0x10500, 0x10234, 0 };
    check_handler(*state, "HotMethod_handler", args, &want);
}

static void test_call_pair(void **state)
{
    const uint64_t args[4] = { 0x20236, 0x31000, 0xdead, 0xbeef };
    const hps_sample_t want = { HPS_SAMPLE_CALL_PAIR, 0x20236, 0x31000, 0 };
    check_handler(*state, "CallPair_handler", args, &want);
}

static void test_data_stream(void **state)
{
    const uint64_t args[4] = { 0x10400, 0x3ffffe1238, 17, 0xbeef };
    const hps_sample_t want = { HPS_SAMPLE_DATA, 0x10400, 0x3ffffe1238, 17 };
    check_handler(*state, "DataStream_handler", args, &want);
}

/* Run `name` with args on c (d0 set to d0_before first); the program's
 * registers must be intact after it.  Returns its instructions. */
static uint64_t run_path_handler(cpu_t *c, const rt_fixture_t *f, const char *name,
                                 const uint64_t args[4], uint64_t d0_before, bool first)
{
    enter_handler(c, f, name, args, first);
    c->reg[REG_DISE0] = d0_before;
    run_result_t res = run_handler(c, f->rt, NULL);
    assert_program_registers_intact(c, f);
    print_message("%-6s %-24s %3" PRIu64 " instructions (hps.ret excluded, %s)\n", f->isa->name,
                  name, res.insts, asm_handlers(f) ? "asm" : "C");
    return res.insts;
}

/* PP on DISE's path stack (hps-pp-acf): a push, then the pop at its
 * return address puts r back into d0; a pop that matches nothing (and
 * drops nothing) leaves d0 alone; PathReturn counts the path and pops. */
static void test_path_stack(void **state)
{
    const rt_fixture_t *f = *state;
    cpu_t c;
    const uint64_t push1[4] = { 123, 0x4000, 0, 0 }, pop1[4] = { 0x4000, 0, 0, 0 };
    run_path_handler(&c, f, "PathPush_handler", push1, 0, true);
    run_path_handler(&c, f, "PathPop_handler", pop1, 999, false);
    assert_int_equal(c.reg[REG_DISE0], 123);
    run_path_handler(&c, f, "PathPop_handler", pop1, 999, false);   /* the stack is empty */
    assert_int_equal(c.reg[REG_DISE0], 999);

    const uint64_t push2[4] = { 77, 0x5000, 0, 0 }, other[4] = { 0x5004, 0, 0, 0 };
    const uint64_t ret[4] = { 0x10000, 5, 0x5000, 0 };
    run_path_handler(&c, f, "PathPush_handler", push2, 0, false);
    run_path_handler(&c, f, "PathPop_handler", other, 999, false);  /* another pc: no pop */
    assert_int_equal(c.reg[REG_DISE0], 999);
    run_path_handler(&c, f, "PathReturn_handler", ret, 0, false);
    assert_int_equal(c.reg[REG_DISE0], 77);
    collected_t *col = test_calloc(1, sizeof *col);
    assert_int_equal(runtime_drain(f->rt, collect, col), 1);
    assert_true(col->s[0].kind == HPS_SAMPLE_PATH && col->s[0].a == 0x10000 && col->s[0].b == 5);
    test_free(col);
}

/* Fill the buffer to capacity; the next call reaches hps.flush, the host
 * drains every sample, and the new sample lands in the emptied buffer. */
static void test_flush(void **state)
{
    const rt_fixture_t *f = *state;
    runtime_t *rt = f->rt;
    collected_t *col = test_calloc(1, sizeof *col);
    cpu_t c;
    for (uint64_t k = 0; k < HPS_PROFILE_CAPACITY; k++) {
        const uint64_t args[4] = { 0x1000 + 4 * k, 0x2000 + k, k, 0 };
        enter_handler(&c, f, "DataStream_handler", args, k == 0);
        run_result_t res = run_handler(&c, rt, col);
        assert_int_equal(res.flushes, 0);
    }
    const uint64_t args[4] = { 0x9990, 0x8880, 7, 0 };
    enter_handler(&c, f, "DataStream_handler", args, false);
    run_result_t res = run_handler(&c, rt, col);
    print_message("%-6s DataStream_handler   %3" PRIu64 " instructions with a flush\n",
                  f->isa->name, res.insts);
    assert_program_registers_intact(&c, f);
    assert_int_equal(res.flushes, 1);
    assert_int_equal(res.drained, HPS_PROFILE_CAPACITY);
    assert_int_equal(col->n, HPS_PROFILE_CAPACITY);
    for (uint64_t k = 0; k < HPS_PROFILE_CAPACITY; k++) {
        assert_true(col->s[k].kind == HPS_SAMPLE_DATA);
        assert_true(col->s[k].a == 0x1000 + 4 * k);
        assert_true(col->s[k].b == 0x2000 + k);
        assert_true(col->s[k].c == k);
    }
    assert_true(runtime_flushes(rt) == 1);
    assert_true(runtime_dropped(rt) == 0);
    col->n = 0;
    assert_int_equal(runtime_drain(rt, collect, col), 1);
    assert_true(col->s[0].a == 0x9990 && col->s[0].b == 0x8880 && col->s[0].c == 7);
    test_free(col);
}

/* A host that does not drain at hps.flush: the sample is dropped, counted,
 * and the buffer keeps what it had. */
static void test_flush_not_drained(void **state)
{
    const rt_fixture_t *f = *state;
    runtime_t *rt = f->rt;
    cpu_t c;
    for (uint64_t k = 0; k <= HPS_PROFILE_CAPACITY; k++) {
        const uint64_t args[4] = { 0x1000 + 4 * k, 0x2000 + k, 0, 0 };
        enter_handler(&c, f, "CallPair_handler", args, k == 0);
        run_result_t res = run_handler(&c, rt, NULL);
        assert_int_equal(res.flushes, k == HPS_PROFILE_CAPACITY);
        assert_program_registers_intact(&c, f);
    }
    assert_true(runtime_flushes(rt) == 1);
    assert_true(runtime_dropped(rt) == 1);
    collected_t *col = test_calloc(1, sizeof *col);
    assert_int_equal(runtime_drain(rt, collect, col), HPS_PROFILE_CAPACITY);
    assert_true(col->s[HPS_PROFILE_CAPACITY - 1].a == 0x1000 + 4 * (HPS_PROFILE_CAPACITY - 1));
    test_free(col);
}

/* ---- decoding of hps.* ---------------------------------------------------------- */

static uint32_t hps_word(unsigned funct3, unsigned rd, unsigned rs1)
{
    return 0x0bu | rd << 7 | funct3 << 12 | rs1 << 15;
}

/* Decoding in the runtime's address space: the program's decoder first,
 * then the special instructions (as cpu_fetch_decode does there). */
static bool decode_at(uint64_t pc, uint32_t w, insn_t *out)
{
    uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
    return isa_rv64.decode(pc, b, 4, out) || isa_rv64.decode_special(pc, b, 4, marker_hps_ops, out);
}

/* The program's decoder alone (what a program's address space uses). */
static bool decode_program(uint64_t pc, uint32_t w, insn_t *out)
{
    uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
    return isa_rv64.decode(pc, b, 4, out);
}

static void test_decode(void **state)
{
    (void)state;
    const uint64_t in_rt = RUNTIME_BASE + 0x100;
    const uint64_t outside[] = { 0x10000, RUNTIME_BASE - 4,
                                 RUNTIME_BASE + RUNTIME_SIZE, 0x3ffffff000 };
    const uint32_t words[] = { hps_word(0, 10, 8), hps_word(1, 13, 2), hps_word(2, 0, 0),
                               hps_word(3, 0, 0) };
    insn_t x;
    for (size_t k = 0; k < sizeof outside / sizeof outside[0]; k++)
        for (size_t w = 0; w < 4; w++) assert_false(decode_program(outside[k], words[w], &x));
    for (size_t w = 0; w < 4; w++) assert_false(decode_program(in_rt, words[w], &x));

    /* hps.mfd a0, 8 */
    assert_true(decode_at(in_rt, words[0], &x));
    assert_true(x.exec != NULL);
    assert_int_equal(x.rd, 10);
    assert_int_equal(x.rs1, REG_DISE0 + 8);
    assert_int_equal(x.opclass, OC_DISE);
    assert_int_equal(x.len, 4);
    assert_true(x.op >= isa_rv64.table_size);       /* not a program opcode */
    /* hps.mfd zero, 3 writes the sink */
    assert_true(decode_at(in_rt, hps_word(0, 0, 3), &x));
    assert_int_equal(x.rd, REG_SINK);
    /* hps.mtd 13, sp */
    assert_true(decode_at(in_rt, words[1], &x));
    assert_int_equal(x.rd, REG_DISE0 + 13);
    assert_int_equal(x.rs1, 2);
    assert_int_equal(x.opclass, OC_DISE);
    /* hps.ret */
    assert_true(decode_at(in_rt, words[2], &x));
    assert_true(x.exec == marker_op_ret);
    assert_int_equal(x.opclass, OC_JUMP);
    assert_true((x.flags & (IF_JUMP | IF_INDIRECT)) == (IF_JUMP | IF_INDIRECT));
    assert_false(x.flags & (IF_CALL | IF_RETURN | IF_DIRECT));
    /* hps.flush */
    assert_true(decode_at(in_rt, words[3], &x));
    assert_true(x.exec == marker_op_flush);
    assert_int_equal(x.opclass, OC_DISE);
    /* edges of the region */
    assert_true(decode_at(RUNTIME_BASE, words[0], &x));
    assert_true(decode_at(RUNTIME_BASE + RUNTIME_SIZE - 4, words[0], &x));

    /* reserved encodings stay illegal inside the region too */
    assert_true(decode_at(in_rt, hps_word(4, 0, 10), &x));          /* hps.notify a0 */
    assert_true(x.exec == marker_op_notify && x.rs1 == 10);
    assert_false(decode_at(in_rt, hps_word(4, 5, 10), &x));         /* notify with rd */
    assert_true(decode_at(in_rt, hps_word(5, 0, 10) | 11u << 20, &x)); /* hps.wrpmc a0, a1 */
    assert_true(x.exec == marker_op_wrpmc && x.rs1 == 10 && x.rs2 == 11);
    assert_false(decode_at(in_rt, hps_word(6, 0, 0), &x));          /* funct3 6    */
    /* hps.ldp a0, a1 / hps.stp a0, a1 (csprof's access to the program) */
    assert_true(decode_at(in_rt, hps_word(7, 10, 11), &x));
    assert_true(x.exec == marker_op_ldp && x.rd == 10 && x.rs1 == 11);
    assert_true(decode_at(in_rt, hps_word(7, 0, 10) | 11u << 20 | 1u << 25, &x));
    assert_true(x.exec == marker_op_stp && x.rs1 == 10 && x.rs2 == 11);
    assert_false(decode_at(in_rt, hps_word(7, 10, 11) | 5u << 20, &x));  /* ldp rs2   */
    assert_false(decode_at(in_rt, hps_word(7, 5, 10) | 1u << 25, &x));   /* stp rd    */
    assert_false(decode_at(in_rt, hps_word(7, 10, 11) | 2u << 25, &x));  /* funct7 2  */
    assert_false(decode_at(in_rt, hps_word(0, 10, 16), &x));        /* no d16      */
    assert_false(decode_at(in_rt, hps_word(1, 16, 10), &x));
    assert_false(decode_at(in_rt, hps_word(0, 10, 8) | 1u << 25, &x));  /* funct7  */
    assert_false(decode_at(in_rt, hps_word(0, 10, 8) | 5u << 20, &x));  /* rs2     */
    assert_false(decode_at(in_rt, hps_word(2, 1, 0), &x));          /* hps.ret rd  */
    assert_false(decode_at(in_rt, hps_word(3, 0, 1), &x));          /* flush rs1   */

    /* the ordinary ISA is unchanged inside the region */
    assert_true(decode_at(in_rt, 0x00a00513u, &x));                 /* addi a0,x0,10 */
    assert_int_equal(x.rd, 10);
    assert_int_equal(x.imm, 10);
}

/* A program that executes a custom-0 word stops with an illegal
 * instruction, also where it mapped code at the runtime's addresses: the
 * special instructions decode only in the runtime's own address space. */
static void test_program_cannot_use_hps(void **state)
{
    (void)state;
    const uint64_t where[] = { 0x10000, RUNTIME_BASE + 0x1000 };
    for (size_t k = 0; k < 2; k++) {
        mem_t *m = mem_new();
        assert_true(mem_map(m, where[k], 4096, MEM_PROT_READ | MEM_PROT_EXEC));
        uint32_t w = hps_word(0, 10, 8);              /* hps.mfd a0, 8 */
        assert_true(mem_write(m, where[k], &w, 4));
        cpu_t c;
        cpu_init(&c, &isa_rv64, m);
        c.reg[REG_DISE0 + 8] = 42;
        c.pc = where[k];
        jmp_buf jb;
        c.stop_jmp = &jb;
        m->fault_jmp = &jb;
        if (!setjmp(jb)) {
            insn_t *in = cpu_fetch_decode(&c, c.pc);
            core_step(&c, in, where[k]);
            fail_msg("hps.mfd decoded in program memory at 0x%" PRIx64, where[k]);
        }
        assert_int_equal(c.stop, STOP_ILLEGAL);
        assert_true(c.reg[10] == 0);
        mem_free(m);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define PER_ISA(setup)                                                          \
        cmocka_unit_test_setup_teardown(test_load, setup, free_runtime),        \
        cmocka_unit_test_setup_teardown(test_hot_method, setup, free_runtime),  \
        cmocka_unit_test_setup_teardown(test_call_pair, setup, free_runtime),   \
        cmocka_unit_test_setup_teardown(test_data_stream, setup, free_runtime), \
        cmocka_unit_test_setup_teardown(test_flush, setup, free_runtime),       \
        cmocka_unit_test_setup_teardown(test_flush_not_drained, setup, free_runtime), \
        cmocka_unit_test_setup_teardown(test_path_stack, setup, free_runtime)
        PER_ISA(load_runtime_rv64),
        PER_ISA(load_runtime_alpha),
        PER_ISA(load_runtime_rv64_asm),
        PER_ISA(load_runtime_alpha_asm),
#undef PER_ISA
        cmocka_unit_test(test_no_runtime_for_other_isa),
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_program_cannot_use_hps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
