/*
 * test_rv64_int.c - unit tests of the RV64I/M/Zicsr semantics and of the
 * decoder's field extraction, call/return classification and x0 handling,
 * through the real decode path (rv_decode_word + insn.exec).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "rv_encode.h"
#include "core.h"
#include "mem.h"
#include "rv64.h"

/* ---- major opcodes ----------------------------------------------------------- */
#define OP      0x33
#define OP_IMM  0x13
#define OP_32   0x3b
#define OP_IMM32 0x1b

typedef struct fixture {
    cpu_t cpu;
    mem_t *mem;
    jmp_buf jb;
} fixture_t;

static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof *f);
    f->mem = mem_new();
    cpu_init(&f->cpu, &isa_rv64, f->mem);
    mem_map(f->mem, 0x10000, 0x4000, MEM_PROT_READ | MEM_PROT_WRITE);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture_t *f = *state;
    mem_free(f->mem);
    free(f);
    return 0;
}

/* Decode and execute one instruction at pc 0x1000; returns the record. */
static insn_t run1(fixture_t *f, uint32_t word)
{
    insn_t in;
    assert_true(rv_decode_word(0x1000, word, 4, &in));
    f->cpu.pc = 0x1004;
    in.exec(&f->cpu, &in);
    return in;
}

static uint64_t alu(fixture_t *f, uint32_t word, uint64_t a, uint64_t b)
{
    f->cpu.reg[5] = a;
    f->cpu.reg[6] = b;
    run1(f, word);
    return f->cpu.reg[7];
}

#define R(f7, f3, op) enc_r(f7, 6, 5, f3, 7, op)

static void test_add_sub_logic(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(alu(f, R(0, 0, OP), 5, 7), 12);
    assert_int_equal(alu(f, R(0x20, 0, OP), 5, 7), (uint64_t)-2);
    assert_int_equal(alu(f, R(0, 4, OP), 0xff00, 0x0ff0), 0xf0f0);
    assert_int_equal(alu(f, R(0, 6, OP), 0xff00, 0x0ff0), 0xfff0);
    assert_int_equal(alu(f, R(0, 7, OP), 0xff00, 0x0ff0), 0x0f00);
    assert_int_equal(alu(f, R(0, 2, OP), (uint64_t)-1, 0), 1);     /* slt */
    assert_int_equal(alu(f, R(0, 3, OP), (uint64_t)-1, 0), 0);     /* sltu */
    assert_int_equal(alu(f, R(0, 0, OP), UINT64_MAX, 1), 0);      /* wraps */
}

static void test_shifts(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(alu(f, R(0, 1, OP), 1, 63), 1ull << 63);
    assert_int_equal(alu(f, R(0, 1, OP), 1, 64), 1);                /* masked to 6 bits */
    assert_int_equal(alu(f, R(0, 5, OP), 1ull << 63, 63), 1);
    assert_int_equal(alu(f, R(0x20, 5, OP), 1ull << 63, 63), UINT64_MAX);
    f->cpu.reg[5] = 0x80000000ull;                                  /* srai 6-bit shamt */
    run1(f, enc_i(0x400 | 33, 5, 5, 7, OP_IMM));
    assert_int_equal(f->cpu.reg[7], 0);
    f->cpu.reg[5] = 1ull << 63;
    run1(f, enc_i(0x400 | 62, 5, 5, 7, OP_IMM));
    assert_int_equal(f->cpu.reg[7], (uint64_t)-2);
}

static void test_word_ops_sign_extend(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(alu(f, R(0, 0, OP_32), 0x7fffffff, 1), 0xffffffff80000000ull);
    assert_int_equal(alu(f, R(0x20, 0, OP_32), 0, 1), UINT64_MAX);
    assert_int_equal(alu(f, R(0, 1, OP_32), 1, 31), 0xffffffff80000000ull);
    assert_int_equal(alu(f, R(0, 1, OP_32), 1, 32), 1);             /* masked to 5 bits */
    assert_int_equal(alu(f, R(0, 5, OP_32), 0x80000000ull, 31), 1);
    assert_int_equal(alu(f, R(0x20, 5, OP_32), 0x80000000ull, 31), UINT64_MAX);
    f->cpu.reg[5] = 0x123456789ull;
    run1(f, enc_i(-1, 5, 0, 7, OP_IMM32));                           /* addiw */
    assert_int_equal(f->cpu.reg[7], 0x23456788ull);
}

static void test_mul_div(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(alu(f, R(1, 0, OP), 7, (uint64_t)-3), (uint64_t)-21);
    assert_int_equal(alu(f, R(1, 1, OP), (uint64_t)-1, (uint64_t)-1), 0);          /* mulh */
    assert_int_equal(alu(f, R(1, 2, OP), (uint64_t)-1, UINT64_MAX), UINT64_MAX);   /* mulhsu */
    assert_int_equal(alu(f, R(1, 3, OP), UINT64_MAX, UINT64_MAX), UINT64_MAX - 1); /* mulhu */
    assert_int_equal(alu(f, R(1, 4, OP), 7, 0), UINT64_MAX);                       /* div/0 */
    assert_int_equal(alu(f, R(1, 5, OP), 7, 0), UINT64_MAX);                       /* divu/0 */
    assert_int_equal(alu(f, R(1, 6, OP), 7, 0), 7);                                /* rem/0 */
    assert_int_equal(alu(f, R(1, 7, OP), 7, 0), 7);                                /* remu/0 */
    assert_int_equal(alu(f, R(1, 4, OP), 1ull << 63, UINT64_MAX), 1ull << 63);     /* overflow */
    assert_int_equal(alu(f, R(1, 6, OP), 1ull << 63, UINT64_MAX), 0);
    assert_int_equal(alu(f, R(1, 4, OP), (uint64_t)-7, 2), (uint64_t)-3);          /* truncates */
    assert_int_equal(alu(f, R(1, 6, OP), (uint64_t)-7, 2), (uint64_t)-1);
    assert_int_equal(alu(f, R(1, 4, OP_32), 0x80000000ull, UINT64_MAX), 0xffffffff80000000ull);
    assert_int_equal(alu(f, R(1, 6, OP_32), 0x80000000ull, UINT64_MAX), 0);
    assert_int_equal(alu(f, R(1, 5, OP_32), 5, 0), UINT64_MAX);                    /* divuw/0 */
    assert_int_equal(alu(f, R(1, 7, OP_32), 0x80000005ull, 0), 0xffffffff80000005ull);
    assert_int_equal(alu(f, R(1, 0, OP_32), 0x10000, 0x10000), 0);                 /* mulw */
}

static void test_loads_stores(void **state)
{
    fixture_t *f = *state;
    f->cpu.reg[5] = 0x10010;
    f->cpu.reg[6] = 0x8877665544332211ull;
    run1(f, enc_s(-8, 6, 5, 3, 0x23));                                   /* sd */
    assert_int_equal(f->cpu.mem_addr, 0x10008);
    uint64_t lb[][2] = {
        { 0, 0x11 }, { 1, 0x2211 }, { 2, 0x44332211 }, { 3, 0x8877665544332211ull },
    };
    for (unsigned k = 0; k < 4; k++) {
        run1(f, enc_i(-8, 5, (uint32_t)lb[k][0], 7, 0x03));
        assert_int_equal(f->cpu.reg[7], lb[k][1]);
    }
    run1(f, enc_i(-1, 5, 0, 7, 0x03));                                   /* lb 0x1000f: 0x88 */
    assert_int_equal(f->cpu.reg[7], (uint64_t)(int8_t)0x88);
    run1(f, enc_i(-1, 5, 4, 7, 0x03));                                   /* lbu */
    assert_int_equal(f->cpu.reg[7], 0x88);
    run1(f, enc_i(-4, 5, 2, 7, 0x03));                                   /* lw sign */
    assert_int_equal(f->cpu.reg[7], 0xffffffff88776655ull);
    run1(f, enc_i(-4, 5, 6, 7, 0x03));                                   /* lwu */
    assert_int_equal(f->cpu.reg[7], 0x88776655ull);
    run1(f, enc_i(-3, 5, 3, 7, 0x03));                                   /* misaligned ld */
    assert_int_equal(f->cpu.reg[7], 0x887766ull);     /* bytes 0x1000d.. */
}

static void test_misaligned_across_pages(void **state)
{
    fixture_t *f = *state;
    f->cpu.reg[5] = 0x10ffd;
    f->cpu.reg[6] = 0x0102030405060708ull;
    run1(f, enc_s(0, 6, 5, 3, 0x23));
    run1(f, enc_i(0, 5, 3, 7, 0x03));
    assert_int_equal(f->cpu.reg[7], 0x0102030405060708ull);
}

static void test_x0_is_hardwired(void **state)
{
    fixture_t *f = *state;
    insn_t in = run1(f, enc_i(5, 0, 0, 0, OP_IMM));              /* addi x0, x0, 5 */
    assert_int_equal(in.rd, REG_SINK);
    assert_int_equal(in.rs1, REG_ZERO);
    assert_int_equal(f->cpu.reg[REG_ZERO], 0);
    run1(f, enc_i(7, 0, 0, 9, OP_IMM));                          /* addi s1, x0, 7 */
    assert_int_equal(f->cpu.reg[9], 7);
}

static void test_branches_and_jumps(void **state)
{
    fixture_t *f = *state;
    f->cpu.reg[5] = (uint64_t)-1;
    f->cpu.reg[6] = 1;
    insn_t in = run1(f, enc_b(-16, 6, 5, 4));                    /* blt taken */
    assert_int_equal(f->cpu.pc, 0x1000 - 16);
    assert_true(in.flags & IF_BACKWARD);
    assert_int_equal(in.taken, 1);
    run1(f, enc_b(64, 6, 5, 6));                                 /* bltu not taken */
    assert_int_equal(f->cpu.pc, 0x1004);
    in = run1(f, enc_j(0x800, 1));                               /* jal ra: call */
    assert_int_equal(f->cpu.pc, 0x1800);
    assert_int_equal(f->cpu.reg[1], 0x1004);
    assert_true(in.flags & IF_CALL);
    assert_int_equal(in.opclass, OC_CALL);
    f->cpu.reg[1] = 0x2001;
    in = run1(f, enc_i(0, 1, 0, 0, 0x67));                       /* ret */
    assert_true(in.flags & IF_RETURN);
    assert_int_equal(f->cpu.pc, 0x2000);                         /* low bit cleared */
    f->cpu.reg[10] = 0x3000;
    in = run1(f, enc_i(8, 10, 0, 10, 0x67));                     /* jalr a0, 8(a0) */
    assert_int_equal(f->cpu.pc, 0x3008);
    assert_int_equal(f->cpu.reg[10], 0x1004);                    /* rd == rs1 */
    assert_false(in.flags & (IF_CALL | IF_RETURN));
    in = run1(f, enc_i(0, 10, 0, 1, 0x67));                      /* jalr ra, a0: indirect call */
    assert_true((in.flags & (IF_CALL | IF_INDIRECT)) == (IF_CALL | IF_INDIRECT));
}

static void test_lui_auipc(void **state)
{
    fixture_t *f = *state;
    run1(f, 0x800002b7);                                         /* lui t0, 0x80000 */
    assert_int_equal(f->cpu.reg[5], 0xffffffff80000000ull);
    run1(f, 0x00001297);                                         /* auipc t0, 1 */
    assert_int_equal(f->cpu.reg[5], 0x2000);
}

static void test_csr_counters_and_fp(void **state)
{
    fixture_t *f = *state;
    f->cpu.instret = 1234;
    run1(f, enc_i(0xc02, 0, 2, 7, 0x73));                        /* rdinstret t2 */
    assert_int_equal(f->cpu.reg[7], 1234);
    f->cpu.reg[5] = 0xff;
    run1(f, enc_i(0x003, 5, 1, 7, 0x73));                        /* csrrw t2, fcsr, t0 */
    assert_int_equal(f->cpu.frm, 7);
    run1(f, enc_i(0x001, 0, 2, 7, 0x73));                        /* frflags */
    assert_int_equal(f->cpu.reg[7], 0x1f);
    run1(f, enc_i(0x002, 1, 5, 7, 0x73));                        /* csrrwi t2, frm, 1 */
    assert_int_equal(f->cpu.reg[7], 7);
    assert_int_equal(f->cpu.frm, 1);
}

static void test_illegal_words(void **state)
{
    (void)state;
    insn_t in;
    assert_false(rv_decode_word(0, 0x00000000, 4, &in));
    assert_false(rv_decode_word(0, 0xffffffff, 4, &in));
    assert_false(rv_decode_word(0, enc_r(0x01, 6, 5, 1, 7, OP_32), 4, &in)); /* no mulhw */
    assert_false(rv_decode_word(0, 0x0200101b, 4, &in));                     /* slliw shamt[5] */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_add_sub_logic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_shifts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_word_ops_sign_extend, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mul_div, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loads_stores, setup, teardown),
        cmocka_unit_test_setup_teardown(test_misaligned_across_pages, setup, teardown),
        cmocka_unit_test_setup_teardown(test_x0_is_hardwired, setup, teardown),
        cmocka_unit_test_setup_teardown(test_branches_and_jumps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_lui_auipc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_csr_counters_and_fp, setup, teardown),
        cmocka_unit_test(test_illegal_words),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
