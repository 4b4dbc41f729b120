/*
 * test_rv64_amo.c - unit tests of the RV64A extension (LR/SC and AMOs)
 * through the real decode path: words built by a small encoder are decoded
 * with rv_decode_word() and run with insn.exec() on a cpu with real memory.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core.h"
#include "mem.h"
#include "rv64.h"

#define DATA 0x10000ull      /* mapped read/write data page */

/* funct5 values of the A extension. */
enum {
    F_AMOADD = 0x00, F_AMOSWAP = 0x01, F_LR = 0x02, F_SC = 0x03, F_AMOXOR = 0x04,
    F_AMOOR = 0x08, F_AMOAND = 0x0c, F_AMOMIN = 0x10, F_AMOMAX = 0x14,
    F_AMOMINU = 0x18, F_AMOMAXU = 0x1c
};
enum { W = 2, D = 3 };       /* funct3: width */

static uint32_t enc_amo(unsigned f5, unsigned aq, unsigned rl, unsigned rs2,
                        unsigned rs1, unsigned width, unsigned rd)
{
    return (uint32_t)f5 << 27 | aq << 26 | rl << 25 | rs2 << 20 | rs1 << 15 |
           width << 12 | rd << 7 | 0x2f;
}

/* ---- fixture ------------------------------------------------------------------ */
typedef struct fixture {
    cpu_t cpu;
    mem_t *mem;
} fixture_t;

static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof *f);
    f->mem = mem_new();
    assert_true(mem_map(f->mem, DATA, 0x1000, MEM_PROT_READ | MEM_PROT_WRITE));
    cpu_init(&f->cpu, &isa_rv64, f->mem);
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

static void poke64(fixture_t *f, uint64_t addr, uint64_t v) { assert_true(mem_write(f->mem, addr, &v, 8)); }
static void poke32(fixture_t *f, uint64_t addr, uint32_t v) { assert_true(mem_write(f->mem, addr, &v, 4)); }

static uint64_t peek64(fixture_t *f, uint64_t addr)
{
    uint64_t v;
    assert_true(mem_read(f->mem, addr, &v, 8));
    return v;
}

static uint32_t peek32(fixture_t *f, uint64_t addr)
{
    uint32_t v;
    assert_true(mem_read(f->mem, addr, &v, 4));
    return v;
}

/* Decode `word` at pc 0x1000 and execute it. */
static insn_t run(fixture_t *f, uint32_t word)
{
    insn_t in;
    assert_true(rv_decode_word(0x1000, word, 4, &in));
    assert_non_null(in.exec);
    f->cpu.pc = 0x1004;
    in.exec(&f->cpu, &in);
    return in;
}

/* One AMO with rd=a0, rs1=a1 (address), rs2=a2 (operand); returns rd. */
static uint64_t amo(fixture_t *f, unsigned f5, unsigned width, uint64_t addr, uint64_t operand)
{
    f->cpu.reg[11] = addr;
    f->cpu.reg[12] = operand;
    run(f, enc_amo(f5, 0, 0, 12, 11, width, 10));
    assert_int_equal(f->cpu.mem_addr, addr);
    return f->cpu.reg[10];
}

/* ---- decode ------------------------------------------------------------------- */
static void test_decode_rows(void **state)
{
    (void)state;
    static const struct { unsigned f5; exec_fn w, d; uint16_t flags; } rows[] = {
        { F_LR,      rv_LR_W,      rv_LR_D,      IF_LOAD | IF_ATOMIC },
        { F_SC,      rv_SC_W,      rv_SC_D,      IF_STORE | IF_ATOMIC },
        { F_AMOSWAP, rv_AMOSWAP_W, rv_AMOSWAP_D, IF_LOAD | IF_STORE | IF_ATOMIC },
        { F_AMOADD,  rv_AMOADD_W,  rv_AMOADD_D,  IF_LOAD | IF_STORE | IF_ATOMIC },
        { F_AMOXOR,  rv_AMOXOR_W,  rv_AMOXOR_D,  IF_LOAD | IF_STORE | IF_ATOMIC },
        { F_AMOAND,  rv_AMOAND_W,  rv_AMOAND_D,  IF_LOAD | IF_STORE | IF_ATOMIC },
        { F_AMOOR,   rv_AMOOR_W,   rv_AMOOR_D,   IF_LOAD | IF_STORE | IF_ATOMIC },
        { F_AMOMIN,  rv_AMOMIN_W,  rv_AMOMIN_D,  IF_LOAD | IF_STORE | IF_ATOMIC },
        { F_AMOMAX,  rv_AMOMAX_W,  rv_AMOMAX_D,  IF_LOAD | IF_STORE | IF_ATOMIC },
        { F_AMOMINU, rv_AMOMINU_W, rv_AMOMINU_D, IF_LOAD | IF_STORE | IF_ATOMIC },
        { F_AMOMAXU, rv_AMOMAXU_W, rv_AMOMAXU_D, IF_LOAD | IF_STORE | IF_ATOMIC },
    };
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++)
        for (unsigned ord = 0; ord < 4; ord++)
            for (unsigned width = W; width <= D; width++) {
                unsigned rs2 = rows[k].f5 == F_LR ? 0 : 7;
                insn_t in;
                assert_true(rv_decode_word(0x1000, enc_amo(rows[k].f5, ord >> 1, ord & 1,
                                                           rs2, 6, width, 5), 4, &in));
                assert_ptr_equal(in.exec, width == W ? rows[k].w : rows[k].d);
                assert_int_equal(in.flags, rows[k].flags);
                assert_int_equal(in.opclass, OC_ATOMIC);
                assert_int_equal(in.memsize, width == W ? 4 : 8);
                assert_int_equal(in.rm, ord);
                assert_int_equal(in.rd, 5);
                assert_int_equal(in.rs1, 6);
                assert_int_equal(in.rs2, rs2 ? rs2 : REG_ZERO);
            }
}

static void test_decode_illegal(void **state)
{
    (void)state;
    insn_t in;
    /* lr with rs2 != 0 is not lr */
    assert_false(rv_decode_word(0x1000, enc_amo(F_LR, 0, 0, 3, 6, W, 5), 4, &in) &&
                 (in.exec == rv_LR_W));
    /* unused funct5 and widths other than .w/.d */
    assert_false(rv_decode_word(0x1000, enc_amo(0x05, 0, 0, 3, 6, W, 5), 4, &in));
    assert_false(rv_decode_word(0x1000, enc_amo(F_AMOADD, 0, 0, 3, 6, 1, 5), 4, &in));
    assert_false(rv_decode_word(0x1000, enc_amo(F_AMOADD, 0, 0, 3, 6, 4, 5), 4, &in));
    /* rd = x0 is steered to the sink */
    assert_true(rv_decode_word(0x1000, enc_amo(F_AMOADD, 1, 1, 3, 6, D, 0), 4, &in));
    assert_int_equal(in.rd, REG_SINK);
}

/* ---- AMO arithmetic --------------------------------------------------------- */
static void test_amo_d_ops(void **state)
{
    fixture_t *f = *state;
    static const struct { unsigned f5; uint64_t mem, op, result; } cases[] = {
        { F_AMOSWAP, 0x1111222233334444ull, 0xdeadbeefcafef00dull, 0xdeadbeefcafef00dull },
        { F_AMOADD,  0xffffffffffffffffull, 2, 1 },
        { F_AMOXOR,  0xff00ff00ff00ff00ull, 0x0ff00ff00ff00ff0ull, 0xf0f0f0f0f0f0f0f0ull },
        { F_AMOAND,  0xff00ff00ff00ff00ull, 0x0ff00ff00ff00ff0ull, 0x0f000f000f000f00ull },
        { F_AMOOR,   0xff00ff00ff00ff00ull, 0x0ff00ff00ff00ff0ull, 0xfff0fff0fff0fff0ull },
        { F_AMOMIN,  (uint64_t)-5, 3, (uint64_t)-5 },
        { F_AMOMIN,  3, (uint64_t)-5, (uint64_t)-5 },
        { F_AMOMAX,  (uint64_t)-5, 3, 3 },
        { F_AMOMAX,  (uint64_t)-5, (uint64_t)-2, (uint64_t)-2 },
        { F_AMOMINU, (uint64_t)-5, 3, 3 },
        { F_AMOMINU, 7, 9, 7 },
        { F_AMOMAXU, (uint64_t)-5, 3, (uint64_t)-5 },
        { F_AMOMAXU, 0x8000000000000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        poke64(f, DATA + 8, cases[k].mem);
        assert_int_equal(amo(f, cases[k].f5, D, DATA + 8, cases[k].op), cases[k].mem);
        assert_int_equal(peek64(f, DATA + 8), cases[k].result);
    }
}

static void test_amo_w_ops(void **state)
{
    fixture_t *f = *state;
    /* Upper halves of rs2 are garbage that .w must ignore. */
    static const struct { unsigned f5; uint32_t mem; uint64_t op; uint32_t result; } cases[] = {
        { F_AMOSWAP, 0x11112222, 0xaaaaaaaa12345678ull, 0x12345678 },
        { F_AMOADD,  0xffffffff, 0x5555555500000002ull, 1 },
        { F_AMOXOR,  0xff00ff00, 0x0ff00ff0, 0xf0f0f0f0 },
        { F_AMOAND,  0xff00ff00, 0x0ff00ff0, 0x0f000f00 },
        { F_AMOOR,   0xff00ff00, 0x0ff00ff0, 0xfff0fff0 },
        { F_AMOMIN,  (uint32_t)-5, 3, (uint32_t)-5 },
        { F_AMOMIN,  3, 0x00000000fffffffbull, (uint32_t)-5 },    /* -5 as a word */
        { F_AMOMAX,  (uint32_t)-5, 3, 3 },
        { F_AMOMAX,  (uint32_t)-5, 0xfffffffffffffffeull, (uint32_t)-2 },
        { F_AMOMAX,  0, 0x1ffffffffull, 0 },                      /* low word is -1 */
        { F_AMOMINU, (uint32_t)-5, 3, 3 },
        { F_AMOMINU, 3, 0x100000000ull, 0 },                      /* low word is 0 */
        { F_AMOMAXU, (uint32_t)-5, 3, (uint32_t)-5 },
        { F_AMOMAXU, 0x80000000, 0x7fffffff, 0x80000000 },
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        poke32(f, DATA + 0x20, 0xa5a5a5a5);
        poke32(f, DATA + 0x24, cases[k].mem);
        poke32(f, DATA + 0x28, 0x5a5a5a5a);
        uint64_t old = amo(f, cases[k].f5, W, DATA + 0x24, cases[k].op);
        assert_int_equal(old, (uint64_t)(int64_t)(int32_t)cases[k].mem);
        assert_int_equal(peek32(f, DATA + 0x24), cases[k].result);
        assert_int_equal(peek32(f, DATA + 0x20), 0xa5a5a5a5);   /* neighbours untouched */
        assert_int_equal(peek32(f, DATA + 0x28), 0x5a5a5a5a);
    }
}

static void test_amo_w_sign_extends(void **state)
{
    fixture_t *f = *state;
    poke32(f, DATA, 0x80000000);
    assert_int_equal(amo(f, F_AMOADD, W, DATA, 0), 0xffffffff80000000ull);
    poke32(f, DATA, 0x7fffffff);
    assert_int_equal(amo(f, F_AMOADD, W, DATA, 1), 0x7fffffff);
    assert_int_equal(peek32(f, DATA), 0x80000000);
    assert_int_equal(amo(f, F_AMOOR, W, DATA, 0), 0xffffffff80000000ull);
}

/* rd may alias rs1 or rs2: both are read before rd is written. */
static void test_amo_register_aliasing(void **state)
{
    fixture_t *f = *state;
    poke64(f, DATA, 100);
    f->cpu.reg[11] = DATA;
    f->cpu.reg[12] = 5;
    run(f, enc_amo(F_AMOADD, 0, 0, 12, 11, D, 12));     /* amoadd.d a2,a2,(a1) */
    assert_int_equal(f->cpu.reg[12], 100);
    assert_int_equal(peek64(f, DATA), 105);
    run(f, enc_amo(F_AMOSWAP, 0, 0, 12, 11, D, 11));    /* amoswap.d a1,a2,(a1) */
    assert_int_equal(f->cpu.reg[11], 105);
    assert_int_equal(peek64(f, DATA), 100);
}

static void test_amo_rd_zero(void **state)
{
    fixture_t *f = *state;
    poke64(f, DATA, 1);
    f->cpu.reg[11] = DATA;
    f->cpu.reg[12] = 41;
    run(f, enc_amo(F_AMOADD, 1, 1, 12, 11, D, 0));
    assert_int_equal(peek64(f, DATA), 42);
    assert_int_equal(f->cpu.reg[0], 0);
    assert_int_equal(f->cpu.reg[REG_ZERO], 0);
}

/* ---- LR / SC ------------------------------------------------------------------ */
static uint64_t lr(fixture_t *f, unsigned width, uint64_t addr)
{
    f->cpu.reg[11] = addr;
    run(f, enc_amo(F_LR, 0, 0, 0, 11, width, 10));
    assert_int_equal(f->cpu.mem_addr, addr);
    return f->cpu.reg[10];
}

static uint64_t sc(fixture_t *f, unsigned width, uint64_t addr, uint64_t value)
{
    f->cpu.reg[11] = addr;
    f->cpu.reg[12] = value;
    f->cpu.reg[13] = 0xbad;
    run(f, enc_amo(F_SC, 0, 0, 12, 11, width, 13));
    assert_int_equal(f->cpu.mem_addr, addr);
    return f->cpu.reg[13];
}

static void test_lr_sc_success(void **state)
{
    fixture_t *f = *state;
    poke64(f, DATA + 0x40, 0x0123456789abcdefull);
    assert_int_equal(lr(f, D, DATA + 0x40), 0x0123456789abcdefull);
    assert_int_equal(sc(f, D, DATA + 0x40, 77), 0);
    assert_int_equal(peek64(f, DATA + 0x40), 77);
    assert_int_equal(f->cpu.reservation, ~0ull);

    poke32(f, DATA + 0x48, 0x87654321);
    assert_int_equal(lr(f, W, DATA + 0x48), 0xffffffff87654321ull);
    assert_int_equal(sc(f, W, DATA + 0x48, 0xffffffff00000009ull), 0);
    assert_int_equal(peek32(f, DATA + 0x48), 9);
    assert_int_equal(peek32(f, DATA + 0x4c), 0);
}

static void test_sc_without_reservation_fails(void **state)
{
    fixture_t *f = *state;
    poke64(f, DATA + 0x80, 5);
    assert_int_equal(f->cpu.reservation, ~0ull);
    assert_int_equal(sc(f, D, DATA + 0x80, 6), 1);
    assert_int_equal(sc(f, W, DATA + 0x80, 6), 1);
    assert_int_equal(peek64(f, DATA + 0x80), 5);
}

static void test_sc_after_sc_fails(void **state)
{
    fixture_t *f = *state;
    poke64(f, DATA + 0x80, 5);
    lr(f, D, DATA + 0x80);
    assert_int_equal(sc(f, D, DATA + 0x80, 6), 0);
    assert_int_equal(sc(f, D, DATA + 0x80, 7), 1);
    assert_int_equal(peek64(f, DATA + 0x80), 6);

    /* A failed SC also consumes the reservation. */
    lr(f, W, DATA + 0x80);
    assert_int_equal(sc(f, W, DATA + 0x100, 1), 1);
    assert_int_equal(sc(f, W, DATA + 0x80, 8), 1);
    assert_int_equal(peek64(f, DATA + 0x80), 6);
}

static void test_sc_other_address_fails(void **state)
{
    fixture_t *f = *state;
    poke64(f, DATA + 0x80, 5);
    poke64(f, DATA + 0x88, 5);
    lr(f, D, DATA + 0x80);
    assert_int_equal(sc(f, D, DATA + 0x88, 6), 1);
    assert_int_equal(peek64(f, DATA + 0x88), 5);

    /* A later LR replaces the reservation. */
    lr(f, D, DATA + 0x80);
    lr(f, D, DATA + 0x88);
    assert_int_equal(sc(f, D, DATA + 0x80, 6), 1);
    lr(f, D, DATA + 0x80);
    lr(f, D, DATA + 0x88);
    assert_int_equal(sc(f, D, DATA + 0x88, 6), 0);
    assert_int_equal(peek64(f, DATA + 0x88), 6);
}

/* ---- faults ------------------------------------------------------------------- */
/* Run `word` expecting a memory fault at `addr`; registers and memory must be
 * unchanged. */
static void expect_fault(fixture_t *f, uint32_t word, uint64_t addr, int access)
{
    jmp_buf jb;
    insn_t in;
    uint64_t before = peek64(f, DATA), rd_before = f->cpu.reg[10];
    assert_true(rv_decode_word(0x1000, word, 4, &in));
    f->mem->fault_jmp = &jb;
    if (setjmp(jb) == 0) {
        in.exec(&f->cpu, &in);
        f->mem->fault_jmp = NULL;
        fail_msg("no fault for 0x%08x at 0x%llx", word, (unsigned long long)addr);
    }
    f->mem->fault_jmp = NULL;
    assert_int_equal(f->mem->fault.addr, addr);
    assert_int_equal(f->mem->fault.access, access);
    assert_int_equal(peek64(f, DATA), before);
    assert_int_equal(f->cpu.reg[10], rd_before);
}

/* Run `word` expecting a bus error (SIGBUS: a misaligned atomic) at
 * `addr`, before any memory is touched; registers and memory unchanged. */
static void expect_bus_error(fixture_t *f, uint32_t word, uint64_t addr)
{
    jmp_buf jb;
    insn_t in;
    uint64_t before = peek64(f, DATA), rd_before = f->cpu.reg[10];
    assert_true(rv_decode_word(0x1000, word, 4, &in));
    f->cpu.stop = STOP_NONE;
    f->cpu.stop_jmp = &jb;
    f->mem->fault_jmp = &jb;
    if (setjmp(jb) == 0) {
        in.exec(&f->cpu, &in);
        f->cpu.stop_jmp = NULL;
        f->mem->fault_jmp = NULL;
        fail_msg("no bus error for 0x%08x at 0x%llx", word, (unsigned long long)addr);
    }
    f->cpu.stop_jmp = NULL;
    f->mem->fault_jmp = NULL;
    assert_int_equal(f->cpu.stop, STOP_BUS_ERROR);
    assert_int_equal(f->cpu.stop_info, addr);
    assert_int_equal(peek64(f, DATA), before);
    assert_int_equal(f->cpu.reg[10], rd_before);
}

static void test_misaligned_faults(void **state)
{
    fixture_t *f = *state;
    static const struct { unsigned f5, width, off; } cases[] = {
        { F_AMOADD, W, 2 }, { F_AMOSWAP, W, 1 }, { F_AMOMAXU, D, 4 }, { F_AMOOR, D, 7 },
        { F_LR, W, 2 },     { F_LR, D, 4 },      { F_SC, W, 1 },      { F_SC, D, 4 },
    };
    poke64(f, DATA, 0x1122334455667788ull);
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        uint64_t addr = DATA + cases[k].off;
        f->cpu.reg[10] = 0xabc;
        f->cpu.reg[11] = addr;
        f->cpu.reg[12] = 0xffff;
        if (cases[k].f5 == F_SC) {                          /* even with a reservation */
            f->cpu.reservation = addr & ~7ull;
        }
        unsigned rs2 = cases[k].f5 == F_LR ? 0 : 12;
        expect_bus_error(f, enc_amo(cases[k].f5, 0, 0, rs2, 11, cases[k].width, 10), addr);
        assert_int_equal(f->cpu.mem_addr, addr);
    }
}

static void test_unmapped_faults(void **state)
{
    fixture_t *f = *state;
    f->cpu.reg[10] = 0xabc;
    f->cpu.reg[11] = 0x900000;
    f->cpu.reg[12] = 1;
    expect_fault(f, enc_amo(F_AMOADD, 0, 0, 12, 11, D, 10), 0x900000, MEM_ACCESS_READ);
    /* read-only page: the AMO's write faults and memory is unchanged */
    assert_true(mem_map(f->mem, 0x20000, 0x1000, MEM_PROT_READ));
    f->cpu.reg[11] = 0x20000;
    expect_fault(f, enc_amo(F_AMOSWAP, 0, 0, 12, 11, W, 10), 0x20000, MEM_ACCESS_WRITE);
    uint32_t v;
    assert_true(mem_read(f->mem, 0x20000, &v, 4));
    assert_int_equal(v, 0);
}

int main(void)
{
#define T(fn) cmocka_unit_test_setup_teardown(fn, setup, teardown)
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_decode_rows),
        cmocka_unit_test(test_decode_illegal),
        T(test_amo_d_ops),
        T(test_amo_w_ops),
        T(test_amo_w_sign_extends),
        T(test_amo_register_aliasing),
        T(test_amo_rd_zero),
        T(test_lr_sc_success),
        T(test_sc_without_reservation_fails),
        T(test_sc_after_sc_fails),
        T(test_sc_other_address_fails),
        T(test_misaligned_faults),
        T(test_unmapped_faults),
    };
#undef T
    return cmocka_run_group_tests(tests, NULL, NULL);
}
