/*
 * test_rv64_fp.c - unit tests of the RV64F/RV64D semantics (rv64_fp.c)
 * through the real decode path: encode a word, rv_decode_word, insn.exec.
 * Expected values are worked out from the RISC-V unprivileged spec (and
 * cross-checked against qemu-riscv64 for the rounding/flag corner cases).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rv_encode.h"
#include "core.h"
#include "mem.h"
#include "rv64.h"

/* ---- encodings -------------------------------------------------------------- */
#define OP_FP    0x53
#define OP_FLOAD 0x07
#define OP_FSTORE 0x27
#define OP_FMADD 0x43
#define OP_FMSUB 0x47
#define OP_FNMSUB 0x4b
#define OP_FNMADD 0x4f
#define OP_SYSTEM 0x73

enum { RNE = 0, RTZ = 1, RDN = 2, RUP = 3, RMM = 4, DYN = 7 };
enum { NX = 1, UF = 2, OF = 4, DZ = 8, NV = 16 };

/* funct7 bases (single; +1 for double) */
enum {
    F_ADD = 0x00, F_SUB = 0x04, F_MUL = 0x08, F_DIV = 0x0c, F_SQRT = 0x2c,
    F_SGNJ = 0x10, F_MINMAX = 0x14, F_CVT_S_D = 0x20, F_CVT_D_S = 0x21,
    F_CMP = 0x50, F_CVT_TO_INT = 0x60, F_CVT_FROM_INT = 0x68,
    F_MV_X = 0x70, F_MV_F = 0x78
};
enum { S = 0, D = 1 };
enum { W = 0, WU = 1, L = 2, LU = 3 };

/* ---- values --------------------------------------------------------------------- */
#define BOX(x)   (0xffffffff00000000ull | (uint32_t)(x))
#define D_1      0x3ff0000000000000ull
#define D_2      0x4000000000000000ull
#define D_3      0x4008000000000000ull
#define D_M1     0xbff0000000000000ull
#define D_PZERO  0x0000000000000000ull
#define D_NZERO  0x8000000000000000ull
#define D_INF    0x7ff0000000000000ull
#define D_NINF   0xfff0000000000000ull
#define D_QNAN   0x7ff8000000000000ull
#define D_SNAN   0x7ff0000000000001ull
#define D_MAX    0x7fefffffffffffffull
#define D_MINN   0x0010000000000000ull
#define S_1      0x3f800000u
#define S_2      0x40000000u
#define S_3      0x40400000u
#define S_M1     0xbf800000u
#define S_INF    0x7f800000u
#define S_NINF   0xff800000u
#define S_QNAN   0x7fc00000u
#define S_SNAN   0x7f800001u
#define S_MAX    0x7f7fffffu

static uint64_t dbl(double x) { uint64_t b; memcpy(&b, &x, 8); return b; }
static uint32_t flt(float x) { uint32_t b; memcpy(&b, &x, 4); return b; }

/* ---- fixture and runners --------------------------------------------------------- */
#define DATA 0x10000

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
    mem_map(f->mem, DATA, 0x1000, MEM_PROT_READ | MEM_PROT_WRITE);
    rv_fp_set_fflags(&f->cpu, 0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture_t *f = *state;
    /* leave the host and the guest in round-to-nearest for the next test */
    f->cpu.frm = RNE;
    f->cpu.reg[33] = f->cpu.reg[34] = D_1;
    f->cpu.reg[10] = 0;
    f->cpu.reg[11] = 0;
    insn_t in;
    rv_decode_word(0x1000, enc_r(F_ADD + D, 2, 1, RNE, 4, OP_FP), 4, &in);
    in.exec(&f->cpu, &in);
    mem_free(f->mem);
    free(f);
    return 0;
}

/* Decode and execute one instruction. */
static insn_t run1(fixture_t *f, uint32_t word)
{
    insn_t in;
    assert_true(rv_decode_word(0x1000, word, 4, &in));
    f->cpu.pc = 0x1004;
    in.exec(&f->cpu, &in);
    return in;
}

/* Execute expecting STOP_ILLEGAL from the semantics. */
static void run_illegal(fixture_t *f, uint32_t word)
{
    insn_t in;
    assert_true(rv_decode_word(0x1000, word, 4, &in));
    f->cpu.stop = STOP_NONE;
    f->cpu.stop_jmp = &f->jb;
    if (setjmp(f->jb) == 0) {
        in.exec(&f->cpu, &in);
        f->cpu.stop_jmp = NULL;
        fail_msg("instruction %08x did not stop", word);
    }
    f->cpu.stop_jmp = NULL;
    assert_int_equal(f->cpu.stop, STOP_ILLEGAL);
}

static uint32_t flags(fixture_t *f) { return rv_fp_get_fflags(&f->cpu); }

/* f4 = op(f1, f2) with funct7 f7 and rm; fflags cleared first. */
static uint64_t fop2(fixture_t *f, uint32_t f7, uint32_t rm, uint64_t a, uint64_t b)
{
    rv_fp_set_fflags(&f->cpu, 0);
    f->cpu.reg[REG_FP0 + 1] = a;
    f->cpu.reg[REG_FP0 + 2] = b;
    run1(f, enc_r(f7, 2, 1, rm, 4, OP_FP));
    return f->cpu.reg[REG_FP0 + 4];
}

/* f4 = op(f1) with the rs2 field `sel`. */
static uint64_t fop1(fixture_t *f, uint32_t f7, uint32_t sel, uint32_t rm, uint64_t a)
{
    rv_fp_set_fflags(&f->cpu, 0);
    f->cpu.reg[REG_FP0 + 1] = a;
    run1(f, enc_r(f7, sel, 1, rm, 4, OP_FP));
    return f->cpu.reg[REG_FP0 + 4];
}

/* x11 = op(f1, f2) (comparisons) or op(f1) (to-int, fmv.x, fclass). */
static uint64_t fop_x(fixture_t *f, uint32_t f7, uint32_t sel, uint32_t f3, uint64_t a, uint64_t b)
{
    rv_fp_set_fflags(&f->cpu, 0);
    f->cpu.reg[REG_FP0 + 1] = a;
    f->cpu.reg[REG_FP0 + 2] = b;
    run1(f, enc_r(f7, sel, 1, f3, 11, OP_FP));
    return f->cpu.reg[11];
}

/* f4 = op(x10) (from-int conversions, fmv.f.x). */
static uint64_t fop_fx(fixture_t *f, uint32_t f7, uint32_t sel, uint32_t rm, uint64_t x)
{
    rv_fp_set_fflags(&f->cpu, 0);
    f->cpu.reg[10] = x;
    run1(f, enc_r(f7, sel, 10, rm, 4, OP_FP));
    return f->cpu.reg[REG_FP0 + 4];
}

/* f4 = fused op(f1, f2, f3). */
static uint64_t ffma(fixture_t *f, uint32_t op, uint32_t fmt, uint32_t rm, uint64_t a, uint64_t b,
                     uint64_t c)
{
    rv_fp_set_fflags(&f->cpu, 0);
    f->cpu.reg[REG_FP0 + 1] = a;
    f->cpu.reg[REG_FP0 + 2] = b;
    f->cpu.reg[REG_FP0 + 3] = c;
    run1(f, enc_r4(3, fmt, 2, 1, rm, 4, op));
    return f->cpu.reg[REG_FP0 + 4];
}

static uint64_t cmp(fixture_t *f, uint32_t fmt, uint32_t f3, uint64_t a, uint64_t b)
{
    return fop_x(f, F_CMP + fmt, 2, f3, a, b);
}
enum { C_LE = 0, C_LT = 1, C_EQ = 2 };

static uint64_t to_int(fixture_t *f, uint32_t fmt, uint32_t kind, uint32_t rm, uint64_t a)
{
    return fop_x(f, F_CVT_TO_INT + fmt, kind, rm, a, 0);
}

#define assert_result(got, want, fl) do {                   \
        assert_int_equal((got), (want));                    \
        assert_int_equal(flags(f), (fl));                   \
    } while (0)

/* ---- decode attributes, loads and stores ------------------------------------------ */
static void test_decode_attrs(void **state)
{
    fixture_t *f = *state;
    insn_t in;
    assert_true(rv_decode_word(0, enc_i(8, 10, 2, 5, OP_FLOAD), 4, &in));        /* flw */
    assert_int_equal(in.opclass, OC_FLOAD);
    assert_int_equal(in.flags & (IF_LOAD | IF_FP | IF_STORE), IF_LOAD | IF_FP);
    assert_int_equal(in.memsize, 4);
    assert_int_equal(in.rd, REG_FP0 + 5);
    assert_int_equal(in.rs1, 10);
    assert_true(rv_decode_word(0, enc_s(-8, 7, 2, 3, OP_FSTORE), 4, &in));       /* fsd */
    assert_int_equal(in.opclass, OC_FSTORE);
    assert_int_equal(in.flags & (IF_LOAD | IF_FP | IF_STORE), IF_STORE | IF_FP);
    assert_int_equal(in.memsize, 8);
    assert_int_equal(in.rs2, REG_FP0 + 7);
    assert_int_equal(in.imm, -8);
    assert_true(rv_decode_word(0, enc_r4(9, D, 8, 7, DYN, 6, OP_FNMADD), 4, &in));
    assert_int_equal(in.rs3, REG_FP0 + 9);
    assert_int_equal(in.rd, REG_FP0 + 6);
    assert_int_equal(in.rm, DYN);
    assert_int_equal(in.opclass, OC_FMUL);
    assert_true(rv_decode_word(0, enc_r(F_CVT_TO_INT + D, L, 3, RTZ, 11, OP_FP), 4, &in));
    assert_int_equal(in.rd, 11);
    assert_int_equal(in.rs1, REG_FP0 + 3);
    assert_int_equal(in.opclass, OC_FCVT);
    assert_true(rv_decode_word(0, enc_r(F_DIV + S, 2, 1, RNE, 4, OP_FP), 4, &in));
    assert_int_equal(in.opclass, OC_FDIV);
    assert_true(rv_decode_word(0, enc_r(F_SQRT + D, 0, 1, RNE, 4, OP_FP), 4, &in));
    assert_int_equal(in.opclass, OC_FSQRT);
    assert_true(in.flags & IF_FP);
    /* reserved encodings: fsqrt with rs2 != 0, fmin with funct3 = 2 */
    assert_false(rv_decode_word(0, enc_r(F_SQRT + D, 1, 1, RNE, 4, OP_FP), 4, &in));
    assert_false(rv_decode_word(0, enc_r(F_MINMAX + D, 2, 1, 2, 4, OP_FP), 4, &in));
    (void)f;
}

static void test_load_store(void **state)
{
    fixture_t *f = *state;
    uint64_t v = 0x400921fb54442d18ull;
    mem_write(f->mem, DATA + 16, &v, 8);
    f->cpu.reg[10] = DATA + 8;
    run1(f, enc_i(8, 10, 3, 5, OP_FLOAD));                        /* fld f5, 8(a0) */
    assert_int_equal(f->cpu.reg[REG_FP0 + 5], v);
    assert_int_equal(f->cpu.mem_addr, DATA + 16);
    run1(f, enc_i(12, 10, 2, 6, OP_FLOAD));                       /* flw f6, 12(a0) */
    assert_int_equal(f->cpu.reg[REG_FP0 + 6], BOX(0x400921fb));
    assert_int_equal(f->cpu.mem_addr, DATA + 20);
    /* fsw stores the low 32 bits whatever the upper half holds */
    f->cpu.reg[REG_FP0 + 7] = 0x1234567889abcdefull;
    run1(f, enc_s(-4, 7, 10, 2, OP_FSTORE));                      /* fsw f7, -4(a0) */
    assert_int_equal(f->cpu.mem_addr, DATA + 4);
    uint32_t w;
    mem_read(f->mem, DATA + 4, &w, 4);
    assert_int_equal(w, 0x89abcdefu);
    run1(f, enc_s(24, 5, 10, 3, OP_FSTORE));                      /* fsd f5, 24(a0) */
    uint64_t d;
    mem_read(f->mem, DATA + 32, &d, 8);
    assert_int_equal(d, v);
    assert_int_equal(f->cpu.mem_addr, DATA + 32);
}

/* ---- arithmetic ---------------------------------------------------------------------- */
static void test_arith_double(void **state)
{
    fixture_t *f = *state;
    assert_result(fop2(f, F_ADD + D, RNE, dbl(1.5), dbl(2.25)), dbl(3.75), 0);
    assert_result(fop2(f, F_SUB + D, RNE, dbl(1.5), dbl(2.25)), dbl(-0.75), 0);
    assert_result(fop2(f, F_MUL + D, RNE, dbl(1.5), dbl(-2.25)), dbl(-3.375), 0);
    assert_result(fop2(f, F_DIV + D, RNE, D_1, D_3), 0x3fd5555555555555ull, NX);
    assert_result(fop1(f, F_SQRT + D, 0, RNE, D_2), 0x3ff6a09e667f3bcdull, NX);
    assert_result(fop1(f, F_SQRT + D, 0, RNE, dbl(4.0)), D_2, 0);
    assert_result(fop1(f, F_SQRT + D, 0, RNE, D_NZERO), D_NZERO, 0);
    assert_result(fop1(f, F_SQRT + D, 0, RNE, D_INF), D_INF, 0);
    assert_result(fop1(f, F_SQRT + D, 0, RNE, D_M1), D_QNAN, NV);
    /* x - x is +0 except rounding down */
    assert_result(fop2(f, F_SUB + D, RNE, D_1, D_1), D_PZERO, 0);
    assert_result(fop2(f, F_SUB + D, RDN, D_1, D_1), D_NZERO, 0);
}

static void test_arith_single(void **state)
{
    fixture_t *f = *state;
    assert_result(fop2(f, F_ADD + S, RNE, BOX(flt(1.5f)), BOX(flt(2.25f))), BOX(flt(3.75f)), 0);
    assert_result(fop2(f, F_SUB + S, RNE, BOX(S_1), BOX(S_3)), BOX(0xc0000000), 0);
    assert_result(fop2(f, F_MUL + S, RNE, BOX(S_3), BOX(S_M1)), BOX(0xc0400000), 0);
    assert_result(fop2(f, F_DIV + S, RNE, BOX(S_1), BOX(S_3)), BOX(0x3eaaaaab), NX);
    assert_result(fop1(f, F_SQRT + S, 0, RNE, BOX(S_2)), BOX(0x3fb504f3), NX);
    assert_result(fop1(f, F_SQRT + S, 0, RNE, BOX(S_M1)), BOX(S_QNAN), NV);
}

static void test_rounding_modes(void **state)
{
    fixture_t *f = *state;
    /* 1/3 = 0x3fd5555555555555 + 1/3 ulp */
    assert_result(fop2(f, F_DIV + D, RNE, D_1, D_3), 0x3fd5555555555555ull, NX);
    assert_result(fop2(f, F_DIV + D, RTZ, D_1, D_3), 0x3fd5555555555555ull, NX);
    assert_result(fop2(f, F_DIV + D, RDN, D_1, D_3), 0x3fd5555555555555ull, NX);
    assert_result(fop2(f, F_DIV + D, RUP, D_1, D_3), 0x3fd5555555555556ull, NX);
    assert_result(fop2(f, F_DIV + D, RMM, D_1, D_3), 0x3fd5555555555555ull, NX);
    assert_result(fop2(f, F_DIV + D, RDN, D_M1, D_3), 0xbfd5555555555556ull, NX);
    assert_result(fop2(f, F_DIV + D, RUP, D_M1, D_3), 0xbfd5555555555555ull, NX);
    assert_result(fop2(f, F_DIV + D, RTZ, D_M1, D_3), 0xbfd5555555555555ull, NX);
    /* 2/3 = 0x3fe5555555555555 + 1/3 ulp */
    assert_result(fop2(f, F_DIV + D, RNE, D_2, D_3), 0x3fe5555555555555ull, NX);
    assert_result(fop2(f, F_DIV + D, RMM, D_2, D_3), 0x3fe5555555555555ull, NX);
    assert_result(fop2(f, F_DIV + S, RNE, BOX(S_2), BOX(S_3)), BOX(0x3f2aaaab), NX);
    assert_result(fop2(f, F_DIV + S, RTZ, BOX(S_2), BOX(S_3)), BOX(0x3f2aaaaa), NX);
    assert_result(fop2(f, F_DIV + S, RMM, BOX(S_2), BOX(S_3)), BOX(0x3f2aaaab), NX);
    /* switching modes back and forth keeps each result right */
    for (int k = 0; k < 3; k++) {
        assert_int_equal(fop2(f, F_DIV + D, RUP, D_1, D_3), 0x3fd5555555555556ull);
        assert_int_equal(fop2(f, F_DIV + D, RNE, D_1, D_3), 0x3fd5555555555555ull);
        assert_int_equal(fop2(f, F_ADD + S, RUP, BOX(S_1), BOX(0x33800000)), BOX(0x3f800001));
        assert_int_equal(fop2(f, F_ADD + S, RNE, BOX(S_1), BOX(0x33800000)), BOX(S_1));
    }
}

static void test_dynamic_rounding_and_csrs(void **state)
{
    fixture_t *f = *state;
    f->cpu.frm = RUP;
    assert_result(fop2(f, F_DIV + D, DYN, D_1, D_3), 0x3fd5555555555556ull, NX);
    f->cpu.frm = RMM;
    assert_result(fop2(f, F_ADD + D, DYN, D_1, 0x3ca0000000000000ull), 0x3ff0000000000001ull, NX);
    /* through the CSR instructions: csrrwi x0, frm, RDN; then csrr a1, fflags */
    run1(f, enc_i(CSR_FRM, RDN, 5, 0, OP_SYSTEM));
    assert_int_equal(f->cpu.frm, RDN);
    assert_int_equal(fop2(f, F_DIV + D, DYN, D_M1, D_3), 0xbfd5555555555556ull);
    run1(f, enc_i(CSR_FFLAGS, 0, 2, 11, OP_SYSTEM));
    assert_int_equal(f->cpu.reg[11], NX);
    run1(f, enc_i(CSR_FCSR, 0, 2, 11, OP_SYSTEM));
    assert_int_equal(f->cpu.reg[11], RDN << 5 | NX);
    /* flags are sticky across instructions until written */
    fop2(f, F_DIV + D, RNE, D_1, D_PZERO);                        /* DZ */
    f->cpu.reg[REG_FP0 + 3] = D_3;
    run1(f, enc_r(F_DIV + D, 3, 1, RNE, 4, OP_FP));                /* 1/3: NX */
    assert_int_equal(flags(f), DZ | NX);
    run1(f, enc_i(CSR_FFLAGS, 0, 1, 11, OP_SYSTEM));                /* csrrw a1, fflags, x0 */
    assert_int_equal(f->cpu.reg[11], DZ | NX);
    assert_int_equal(flags(f), 0);
    f->cpu.frm = RNE;
}

static void test_illegal_rounding_modes(void **state)
{
    fixture_t *f = *state;
    run_illegal(f, enc_r(F_ADD + D, 2, 1, 5, 4, OP_FP));
    run_illegal(f, enc_r(F_MUL + S, 2, 1, 6, 4, OP_FP));
    run_illegal(f, enc_r4(3, D, 2, 1, 5, 4, OP_FMADD));
    run_illegal(f, enc_r(F_CVT_FROM_INT + D, W, 10, 6, 4, OP_FP));
    run_illegal(f, enc_r(F_CVT_TO_INT + S, L, 1, 5, 11, OP_FP));
    f->cpu.frm = 5;
    run_illegal(f, enc_r(F_DIV + D, 2, 1, DYN, 4, OP_FP));
    f->cpu.frm = 7;
    run_illegal(f, enc_r(F_SQRT + S, 0, 1, DYN, 4, OP_FP));
    /* instructions without a rounding mode do not care about frm */
    f->cpu.reg[REG_FP0 + 1] = D_1;
    f->cpu.reg[REG_FP0 + 2] = D_M1;
    run1(f, enc_r(F_SGNJ + D, 2, 1, 0, 4, OP_FP));
    assert_int_equal(f->cpu.reg[REG_FP0 + 4], D_M1);
    f->cpu.frm = RNE;
}

/* ---- round to nearest, ties to max magnitude --------------------------------------------- */
static void test_rmm_ties(void **state)
{
    fixture_t *f = *state;
    const uint64_t half_ulp1 = 0x3ca0000000000000ull;              /* 2^-53 */
    /* 1 + 2^-53: tie between 1 (even) and 1+2^-52 */
    assert_result(fop2(f, F_ADD + D, RNE, D_1, half_ulp1), D_1, NX);
    assert_result(fop2(f, F_ADD + D, RMM, D_1, half_ulp1), 0x3ff0000000000001ull, NX);
    assert_result(fop2(f, F_ADD + D, RTZ, D_1, half_ulp1), D_1, NX);
    assert_result(fop2(f, F_ADD + D, RUP, D_1, half_ulp1), 0x3ff0000000000001ull, NX);
    assert_result(fop2(f, F_SUB + D, RMM, D_M1, half_ulp1), 0xbff0000000000001ull, NX);
    assert_result(fop2(f, F_SUB + D, RNE, D_M1, half_ulp1), D_M1, NX);
    /* tie where nearest-even already rounds away */
    assert_result(fop2(f, F_ADD + D, RMM, 0x3ff0000000000001ull, half_ulp1),
                  0x3ff0000000000002ull, NX);
    /* exact results stay exact */
    assert_result(fop2(f, F_ADD + D, RMM, D_1, D_2), D_3, 0);
    assert_result(fop2(f, F_SUB + D, RMM, D_1, D_1), D_PZERO, 0);
    /* single multiply: (1+2^-12)^2 = 1 + 2^-11 + 2^-24, a tie */
    assert_result(fop2(f, F_MUL + S, RNE, BOX(0x3f800800), BOX(0x3f800800)), BOX(0x3f801000), NX);
    assert_result(fop2(f, F_MUL + S, RMM, BOX(0x3f800800), BOX(0x3f800800)), BOX(0x3f801001), NX);
    assert_result(fop2(f, F_ADD + S, RMM, BOX(S_1), BOX(0x33800000)), BOX(0x3f800001), NX);
    /* division: half the smallest subnormal ties between 0 and it */
    assert_result(fop2(f, F_DIV + D, RNE, 1, D_2), 0, UF | NX);
    assert_result(fop2(f, F_DIV + D, RMM, 1, D_2), 1, UF | NX);
    assert_result(fop2(f, F_DIV + D, RMM, 3, D_2), 2, UF | NX);
    assert_result(fop2(f, F_DIV + S, RMM, BOX(1), BOX(S_2)), BOX(1), UF | NX);
    assert_result(fop2(f, F_DIV + D, RMM, D_1, D_PZERO), D_INF, DZ);
    assert_result(fop2(f, F_DIV + D, RMM, D_PZERO, D_PZERO), D_QNAN, NV);
    /* sqrt never ties; RMM equals RNE */
    assert_result(fop1(f, F_SQRT + D, 0, RMM, D_2), 0x3ff6a09e667f3bcdull, NX);
    assert_result(fop1(f, F_SQRT + S, 0, RMM, BOX(S_2)), BOX(0x3fb504f3), NX);
    assert_result(fop1(f, F_SQRT + D, 0, RMM, D_M1), D_QNAN, NV);
    assert_result(fop1(f, F_SQRT + D, 0, RMM, D_NZERO), D_NZERO, 0);
    /* fma: 1*1 + 2^-53 ties; fnmadd negates */
    assert_result(ffma(f, OP_FMADD, D, RMM, D_1, D_1, half_ulp1), 0x3ff0000000000001ull, NX);
    assert_result(ffma(f, OP_FMADD, D, RNE, D_1, D_1, half_ulp1), D_1, NX);
    assert_result(ffma(f, OP_FNMADD, D, RMM, D_1, D_1, half_ulp1), 0xbff0000000000001ull, NX);
    assert_result(ffma(f, OP_FMSUB, S, RMM, BOX(S_1), BOX(S_1), BOX(0xb3800000)),
                  BOX(0x3f800001), NX);
    assert_result(ffma(f, OP_FNMSUB, S, RMM, BOX(S_1), BOX(S_1), BOX(0xb3800000)),
                  BOX(0xbf800001), NX);
    /* overflow: ties away from zero overflow to infinity */
    assert_result(fop2(f, F_MUL + D, RMM, D_MAX, D_2), D_INF, OF | NX);
    assert_result(fop2(f, F_ADD + D, RMM, D_MAX, 0x7c90000000000000ull), D_INF, OF | NX);
    assert_result(fop2(f, F_ADD + D, RTZ, D_MAX, 0x7c90000000000000ull), D_MAX, NX);
    assert_result(fop2(f, F_MUL + S, RMM, BOX(S_MAX), BOX(0xbfc00000)), BOX(S_NINF), OF | NX);
}

static void test_rmm_conversions(void **state)
{
    fixture_t *f = *state;
    /* fcvt.s.d of 1 + 2^-24: a tie for single */
    assert_result(fop1(f, F_CVT_S_D, 1, RNE, 0x3ff0000010000000ull), BOX(S_1), NX);
    assert_result(fop1(f, F_CVT_S_D, 1, RMM, 0x3ff0000010000000ull), BOX(0x3f800001), NX);
    assert_result(fop1(f, F_CVT_S_D, 1, RMM, 0xbff0000010000000ull), BOX(0xbf800001), NX);
    assert_result(fop1(f, F_CVT_S_D, 1, RMM, dbl(1e300)), BOX(S_INF), OF | NX);
    assert_result(fop1(f, F_CVT_S_D, 1, RMM, dbl(1e-50)), BOX(0), UF | NX);
    assert_result(fop1(f, F_CVT_S_D, 1, RMM, D_SNAN), BOX(S_QNAN), NV);
    assert_result(fop1(f, F_CVT_S_D, 1, RMM, D_NINF), BOX(S_NINF), 0);
    /* integer to float: 2^24+1 and 2^53+1 tie */
    assert_result(fop_fx(f, F_CVT_FROM_INT + S, W, RNE, 16777217), BOX(0x4b800000), NX);
    assert_result(fop_fx(f, F_CVT_FROM_INT + S, W, RMM, 16777217), BOX(0x4b800001), NX);
    assert_result(fop_fx(f, F_CVT_FROM_INT + S, W, RMM, (uint64_t)-16777217), BOX(0xcb800001), NX);
    assert_result(fop_fx(f, F_CVT_FROM_INT + D, L, RNE, (1ull << 53) + 1), 0x4340000000000000ull, NX);
    assert_result(fop_fx(f, F_CVT_FROM_INT + D, L, RMM, (1ull << 53) + 1), 0x4340000000000001ull, NX);
    assert_result(fop_fx(f, F_CVT_FROM_INT + D, LU, RMM, (1ull << 53) + 3), 0x4340000000000002ull, NX);
    /* float to integer */
    assert_result(to_int(f, D, W, RMM, dbl(2.5)), 3, NX);
    assert_result(to_int(f, D, W, RMM, dbl(-2.5)), (uint64_t)-3, NX);
    assert_result(to_int(f, D, W, RNE, dbl(2.5)), 2, NX);
    assert_result(to_int(f, D, W, RNE, dbl(3.5)), 4, NX);
    assert_result(to_int(f, D, W, RNE, dbl(-2.5)), (uint64_t)-2, NX);
    assert_result(to_int(f, D, W, RTZ, dbl(-2.5)), (uint64_t)-2, NX);
    assert_result(to_int(f, D, W, RDN, dbl(-2.5)), (uint64_t)-3, NX);
    assert_result(to_int(f, D, W, RUP, dbl(2.5)), 3, NX);
    assert_result(to_int(f, D, W, RUP, dbl(-2.5)), (uint64_t)-2, NX);
    assert_result(to_int(f, S, L, RMM, BOX(flt(-0.5f))), (uint64_t)-1, NX);
    assert_result(to_int(f, S, L, RNE, BOX(flt(-0.5f))), 0, NX);
    assert_result(to_int(f, D, L, RUP, 1), 1, NX);                   /* tiny subnormal */
    assert_result(to_int(f, D, L, RDN, 0x8000000000000001ull), (uint64_t)-1, NX);
    assert_result(to_int(f, D, L, RNE, dbl(0.3)), 0, NX);
    assert_result(to_int(f, D, L, RUP, dbl(0.3)), 1, NX);
}

/* ---- exception flags ------------------------------------------------------------------ */
static void test_flags(void **state)
{
    fixture_t *f = *state;
    /* overflow */
    assert_result(fop2(f, F_MUL + D, RNE, D_MAX, D_2), D_INF, OF | NX);
    assert_result(fop2(f, F_MUL + D, RTZ, D_MAX, D_2), D_MAX, OF | NX);
    assert_result(fop2(f, F_MUL + D, RDN, D_MAX, D_2), D_MAX, OF | NX);
    assert_result(fop2(f, F_MUL + D, RDN, D_MAX, dbl(-2.0)), D_NINF, OF | NX);
    assert_result(fop2(f, F_ADD + S, RNE, BOX(S_MAX), BOX(S_MAX)), BOX(S_INF), OF | NX);
    /* division by zero and invalid */
    assert_result(fop2(f, F_DIV + D, RNE, D_M1, D_PZERO), D_NINF, DZ);
    assert_result(fop2(f, F_DIV + S, RNE, BOX(S_1), BOX(0x80000000)), BOX(S_NINF), DZ);
    assert_result(fop2(f, F_DIV + D, RNE, D_INF, D_PZERO), D_INF, 0);
    assert_result(fop2(f, F_DIV + D, RNE, D_PZERO, D_PZERO), D_QNAN, NV);
    assert_result(fop2(f, F_SUB + D, RNE, D_INF, D_INF), D_QNAN, NV);
    assert_result(fop2(f, F_MUL + S, RNE, BOX(S_INF), BOX(0)), BOX(S_QNAN), NV);
    assert_result(fop2(f, F_DIV + D, RNE, D_INF, D_NINF), D_QNAN, NV);
    /* underflow: exact tiny results raise nothing, inexact tiny raise UF|NX */
    assert_result(fop2(f, F_MUL + D, RNE, D_MINN, dbl(0.5)), 0x0008000000000000ull, 0);
    assert_result(fop2(f, F_MUL + D, RNE, 1, dbl(0.5)), 0, UF | NX);
    assert_result(fop2(f, F_MUL + D, RUP, 1, dbl(0.5)), 1, UF | NX);
    assert_result(fop2(f, F_MUL + S, RNE, BOX(0x00000003), BOX(0x3f000000)), BOX(2), UF | NX);
    /* tininess after rounding: (1-2^-27) * (1+2^-27)*2^-1022 = 2^-1022 (1-2^-54)
     * rounds to 2^-1022 with unbounded exponent, so it is not tiny: NX only */
    const uint64_t a = 0x3feffffffc000000ull, b = 0x0010000002000000ull;
    assert_result(fop2(f, F_MUL + D, RNE, a, b), D_MINN, NX);
    assert_result(fop2(f, F_MUL + D, RMM, a, b), D_MINN, NX);
    assert_result(fop2(f, F_MUL + D, RTZ, a, b), 0x000fffffffffffffull, UF | NX);
    assert_result(fop2(f, F_MUL + D, RDN, a, b), 0x000fffffffffffffull, UF | NX);
    /* single: 31/32 * (1082401/2^20)*2^-126 = 2^-126 (1-2^-25), as 2^25-1 = 31*1082401 */
    assert_result(fop2(f, F_MUL + S, RNE, BOX(0x3f780000), BOX(0x00842108)), BOX(0x00800000), NX);
    assert_result(fop2(f, F_MUL + S, RMM, BOX(0x3f780000), BOX(0x00842108)), BOX(0x00800000), NX);
    assert_result(fop2(f, F_MUL + S, RTZ, BOX(0x3f780000), BOX(0x00842108)), BOX(0x007fffff), UF | NX);
    /* (1-2^-12) * (1+2^-12)*2^-126 = 2^-126 (1-2^-24) fits 24 bits, so it is tiny
     * after rounding; in the subnormal range it ties up to 2^-126: UF|NX */
    assert_result(fop2(f, F_MUL + S, RNE, BOX(0x3f7ff000), BOX(0x00800800)), BOX(0x00800000), UF | NX);
    assert_result(fop2(f, F_MUL + S, RMM, BOX(0x3f7ff000), BOX(0x00800800)), BOX(0x00800000), UF | NX);
    /* inexact, but not tiny */
    assert_result(fop2(f, F_ADD + D, RNE, D_1, 1), D_1, NX);
}

/* ---- NaN boxing and canonical NaNs -------------------------------------------------------- */
static void test_nan_boxing(void **state)
{
    fixture_t *f = *state;
    const uint64_t bad = 0x000000003f800000ull;                    /* 1.0f, not boxed */
    assert_result(fop2(f, F_ADD + S, RNE, bad, BOX(S_1)), BOX(S_QNAN), 0);
    assert_result(fop2(f, F_ADD + S, RNE, 0xfffffffe3f800000ull, BOX(S_1)), BOX(S_QNAN), 0);
    assert_result(fop2(f, F_SGNJ + S, 0, bad, BOX(S_1)), BOX(S_QNAN), 0);
    assert_result(fop2(f, F_SGNJ + S, 1, bad, BOX(S_1)), BOX(0xffc00000), 0);    /* fsgnjn */
    assert_result(fop2(f, F_SGNJ + S, 0, BOX(S_1), bad), BOX(S_1), 0);           /* sign of NaN: + */
    assert_result(fop1(f, F_CVT_D_S, 0, RNE, bad), D_QNAN, 0);
    assert_result(fop_x(f, F_MV_X + S, 0, 1, bad, 0), 1u << 9, 0);               /* fclass: qNaN */
    assert_result(cmp(f, S, C_EQ, bad, bad), 0, 0);
    assert_result(cmp(f, S, C_LE, bad, BOX(S_1)), 0, NV);
    assert_result(fop2(f, F_MINMAX + S, 0, bad, BOX(S_2)), BOX(S_2), 0);         /* fmin */
    assert_result(to_int(f, S, W, RTZ, bad), 0x7fffffff, NV);
    assert_result(ffma(f, OP_FMADD, S, RNE, BOX(S_1), BOX(S_1), bad), BOX(S_QNAN), 0);
    /* transfers ignore boxing: fmv.x.w sign-extends the low half */
    assert_result(fop_x(f, F_MV_X + S, 0, 0, 0x1234567880000001ull, 0), 0xffffffff80000001ull, 0);
    assert_result(fop_x(f, F_MV_X + S, 0, 0, BOX(S_INF), 0), S_INF, 0);
    assert_result(fop_fx(f, F_MV_F + S, 0, 0, 0x123456789abcdef0ull), BOX(0x9abcdef0), 0);
    /* results written as singles are boxed */
    assert_int_equal(fop_fx(f, F_CVT_FROM_INT + S, W, RNE, 3) >> 32, 0xffffffffu);
}

static void test_canonical_nan(void **state)
{
    fixture_t *f = *state;
    const uint64_t qpay = 0x7ff8000000000123ull, npay = 0xfff8000000000000ull;
    assert_result(fop2(f, F_ADD + D, RNE, qpay, D_1), D_QNAN, 0);
    assert_result(fop2(f, F_MUL + D, RNE, D_1, npay), D_QNAN, 0);
    assert_result(fop2(f, F_ADD + D, RNE, D_SNAN, D_1), D_QNAN, NV);
    assert_result(fop2(f, F_DIV + D, RNE, D_1, 0xfff0000000000010ull), D_QNAN, NV);
    assert_result(fop2(f, F_SUB + S, RNE, BOX(0x7fc00123), BOX(S_1)), BOX(S_QNAN), 0);
    assert_result(fop2(f, F_SUB + S, RNE, BOX(0xff800123), BOX(S_1)), BOX(S_QNAN), NV);
    assert_result(fop2(f, F_ADD + D, RMM, qpay, D_1), D_QNAN, 0);
    assert_result(fop2(f, F_ADD + S, RMM, BOX(S_SNAN), BOX(S_1)), BOX(S_QNAN), NV);
    assert_result(fop1(f, F_SQRT + D, 0, RNE, qpay), D_QNAN, 0);
    assert_result(fop1(f, F_SQRT + S, 0, RNE, BOX(S_SNAN)), BOX(S_QNAN), NV);
    assert_result(fop1(f, F_CVT_S_D, 1, RNE, qpay), BOX(S_QNAN), 0);
    assert_result(fop1(f, F_CVT_S_D, 1, RNE, D_SNAN), BOX(S_QNAN), NV);
    assert_result(fop1(f, F_CVT_D_S, 0, RNE, BOX(0xffc01234)), D_QNAN, 0);
    assert_result(fop1(f, F_CVT_D_S, 0, RNE, BOX(S_SNAN)), D_QNAN, NV);
}

/* ---- min / max ----------------------------------------------------------------------------- */
static void test_minmax(void **state)
{
    fixture_t *f = *state;
    const uint32_t MIN = 0, MAX = 1;
    assert_result(fop2(f, F_MINMAX + D, MIN, D_1, D_2), D_1, 0);
    assert_result(fop2(f, F_MINMAX + D, MAX, D_1, D_2), D_2, 0);
    assert_result(fop2(f, F_MINMAX + D, MIN, D_NINF, D_M1), D_NINF, 0);
    assert_result(fop2(f, F_MINMAX + D, MIN, D_PZERO, D_NZERO), D_NZERO, 0);
    assert_result(fop2(f, F_MINMAX + D, MIN, D_NZERO, D_PZERO), D_NZERO, 0);
    assert_result(fop2(f, F_MINMAX + D, MAX, D_NZERO, D_PZERO), D_PZERO, 0);
    assert_result(fop2(f, F_MINMAX + D, MAX, D_PZERO, D_NZERO), D_PZERO, 0);
    assert_result(fop2(f, F_MINMAX + D, MIN, D_QNAN, D_1), D_1, 0);
    assert_result(fop2(f, F_MINMAX + D, MAX, D_M1, 0x7ff8000000000055ull), D_M1, 0);
    assert_result(fop2(f, F_MINMAX + D, MIN, D_SNAN, D_1), D_1, NV);
    assert_result(fop2(f, F_MINMAX + D, MAX, D_1, D_SNAN), D_1, NV);
    assert_result(fop2(f, F_MINMAX + D, MIN, 0x7ff8000000000055ull, D_QNAN), D_QNAN, 0);
    assert_result(fop2(f, F_MINMAX + D, MAX, D_SNAN, D_QNAN), D_QNAN, NV);
    assert_result(fop2(f, F_MINMAX + S, MIN, BOX(S_3), BOX(S_M1)), BOX(S_M1), 0);
    assert_result(fop2(f, F_MINMAX + S, MAX, BOX(S_3), BOX(S_M1)), BOX(S_3), 0);
    assert_result(fop2(f, F_MINMAX + S, MIN, BOX(0), BOX(0x80000000)), BOX(0x80000000), 0);
    assert_result(fop2(f, F_MINMAX + S, MAX, BOX(0x80000000), BOX(0)), BOX(0), 0);
    assert_result(fop2(f, F_MINMAX + S, MAX, BOX(S_SNAN), BOX(S_2)), BOX(S_2), NV);
    assert_result(fop2(f, F_MINMAX + S, MIN, BOX(S_QNAN), BOX(0xffc00001)), BOX(S_QNAN), 0);
}

/* ---- comparisons ------------------------------------------------------------------------------ */
static void test_compare(void **state)
{
    fixture_t *f = *state;
    assert_result(cmp(f, D, C_EQ, D_1, D_1), 1, 0);
    assert_result(cmp(f, D, C_EQ, D_1, D_2), 0, 0);
    assert_result(cmp(f, D, C_LT, D_1, D_2), 1, 0);
    assert_result(cmp(f, D, C_LT, D_2, D_1), 0, 0);
    assert_result(cmp(f, D, C_LE, D_2, D_2), 1, 0);
    assert_result(cmp(f, D, C_EQ, D_NZERO, D_PZERO), 1, 0);
    assert_result(cmp(f, D, C_LT, D_NZERO, D_PZERO), 0, 0);
    assert_result(cmp(f, D, C_LE, D_PZERO, D_NZERO), 1, 0);
    assert_result(cmp(f, D, C_LT, D_NINF, D_INF), 1, 0);
    /* feq is quiet: NV only for signalling NaNs */
    assert_result(cmp(f, D, C_EQ, D_QNAN, D_1), 0, 0);
    assert_result(cmp(f, D, C_EQ, D_QNAN, D_QNAN), 0, 0);
    assert_result(cmp(f, D, C_EQ, D_1, D_SNAN), 0, NV);
    /* flt/fle signal on any NaN */
    assert_result(cmp(f, D, C_LT, D_QNAN, D_1), 0, NV);
    assert_result(cmp(f, D, C_LE, D_1, D_QNAN), 0, NV);
    assert_result(cmp(f, D, C_LE, D_SNAN, D_1), 0, NV);
    assert_result(cmp(f, S, C_EQ, BOX(S_2), BOX(S_2)), 1, 0);
    assert_result(cmp(f, S, C_LT, BOX(S_M1), BOX(S_1)), 1, 0);
    assert_result(cmp(f, S, C_LE, BOX(S_3), BOX(S_1)), 0, 0);
    assert_result(cmp(f, S, C_EQ, BOX(S_QNAN), BOX(S_1)), 0, 0);
    assert_result(cmp(f, S, C_EQ, BOX(S_SNAN), BOX(S_1)), 0, NV);
    assert_result(cmp(f, S, C_LT, BOX(S_QNAN), BOX(S_1)), 0, NV);
    /* x0 destination: result discarded, flags still raised */
    rv_fp_set_fflags(&f->cpu, 0);
    run1(f, enc_r(F_CMP + D, 1, 1, C_LT, 0, OP_FP));
    assert_int_equal(f->cpu.reg[REG_ZERO], 0);
}

/* ---- classify --------------------------------------------------------------------------------- */
static void test_fclass(void **state)
{
    fixture_t *f = *state;
    static const uint64_t dv[10] = {
        D_NINF, D_M1, 0x800fffffffffffffull, D_NZERO, D_PZERO,
        0x0000000000000001ull, D_MINN, D_INF, D_SNAN, D_QNAN
    };
    static const uint32_t sv[10] = {
        S_NINF, 0xc2f60000, 0x80000001, 0x80000000, 0,
        0x007fffff, S_1, S_INF, 0x7fbfffff, 0xffc00000
    };
    for (int k = 0; k < 10; k++) {
        assert_result(fop_x(f, F_MV_X + D, 0, 1, dv[k], 0), 1u << k, 0);
        assert_result(fop_x(f, F_MV_X + S, 0, 1, BOX(sv[k]), 0), 1u << k, 0);
    }
}

/* ---- conversions ---------------------------------------------------------------------------------- */
static void test_fcvt_to_int_saturation(void **state)
{
    fixture_t *f = *state;
    const uint64_t I32MAX = 0x7fffffffull, I32MIN = 0xffffffff80000000ull, ONES = ~0ull;
    const uint64_t I64MAX = 0x7fffffffffffffffull, I64MIN = 0x8000000000000000ull;
    /* fcvt.w.d */
    assert_result(to_int(f, D, W, RTZ, D_QNAN), I32MAX, NV);
    assert_result(to_int(f, D, W, RTZ, 0xfff8000000000000ull), I32MAX, NV);   /* -NaN too */
    assert_result(to_int(f, D, W, RTZ, D_INF), I32MAX, NV);
    assert_result(to_int(f, D, W, RTZ, D_NINF), I32MIN, NV);
    assert_result(to_int(f, D, W, RTZ, dbl(3e9)), I32MAX, NV);
    assert_result(to_int(f, D, W, RTZ, dbl(-3e9)), I32MIN, NV);
    assert_result(to_int(f, D, W, RTZ, dbl(2147483647.0)), I32MAX, 0);
    assert_result(to_int(f, D, W, RTZ, dbl(-2147483648.0)), I32MIN, 0);
    assert_result(to_int(f, D, W, RTZ, dbl(-2147483648.5)), I32MIN, NX);
    assert_result(to_int(f, D, W, RNE, dbl(2147483647.5)), I32MAX, NV);       /* rounds out */
    assert_result(to_int(f, D, W, RTZ, dbl(2147483647.5)), I32MAX, NX);
    assert_result(to_int(f, D, W, RTZ, dbl(-7.9)), (uint64_t)-7, NX);
    /* fcvt.wu.d: results sign-extended; negatives saturate to 0 */
    assert_result(to_int(f, D, WU, RTZ, D_QNAN), ONES, NV);
    assert_result(to_int(f, D, WU, RTZ, D_INF), ONES, NV);
    assert_result(to_int(f, D, WU, RTZ, D_NINF), 0, NV);
    assert_result(to_int(f, D, WU, RTZ, D_M1), 0, NV);
    assert_result(to_int(f, D, WU, RTZ, dbl(-0.5)), 0, NX);
    assert_result(to_int(f, D, WU, RNE, dbl(-0.5)), 0, NX);
    assert_result(to_int(f, D, WU, RNE, dbl(-0.6)), 0, NV);
    assert_result(to_int(f, D, WU, RTZ, D_NZERO), 0, 0);
    assert_result(to_int(f, D, WU, RTZ, dbl(4294967295.0)), ONES, 0);
    assert_result(to_int(f, D, WU, RTZ, dbl(4294967296.0)), ONES, NV);
    assert_result(to_int(f, D, WU, RTZ, dbl(3e9)), 0xffffffffb2d05e00ull, 0);
    /* fcvt.l.d */
    assert_result(to_int(f, D, L, RTZ, D_SNAN), I64MAX, NV);
    assert_result(to_int(f, D, L, RTZ, D_INF), I64MAX, NV);
    assert_result(to_int(f, D, L, RTZ, D_NINF), I64MIN, NV);
    assert_result(to_int(f, D, L, RTZ, dbl(9223372036854775808.0)), I64MAX, NV);
    assert_result(to_int(f, D, L, RTZ, dbl(-9223372036854775808.0)), I64MIN, 0);
    assert_result(to_int(f, D, L, RTZ, dbl(1e19)), I64MAX, NV);
    assert_result(to_int(f, D, L, RTZ, dbl(-1e300)), I64MIN, NV);
    assert_result(to_int(f, D, L, RTZ, dbl(-123456789012.75)), (uint64_t)-123456789012ll, NX);
    /* fcvt.lu.d */
    assert_result(to_int(f, D, LU, RTZ, D_QNAN), ONES, NV);
    assert_result(to_int(f, D, LU, RTZ, D_NINF), 0, NV);
    assert_result(to_int(f, D, LU, RTZ, dbl(18446744073709551616.0)), ONES, NV);
    assert_result(to_int(f, D, LU, RTZ, dbl(9223372036854775808.0)), I64MIN, 0);
    assert_result(to_int(f, D, LU, RTZ, 0x43efffffffffffffull), 0xfffffffffffff800ull, 0);
    assert_result(to_int(f, D, LU, RTZ, D_M1), 0, NV);
    /* single sources */
    assert_result(to_int(f, S, W, RTZ, BOX(S_QNAN)), I32MAX, NV);
    assert_result(to_int(f, S, W, RTZ, BOX(S_NINF)), I32MIN, NV);
    assert_result(to_int(f, S, W, RTZ, BOX(0x4f000000)), I32MAX, NV);         /* 2^31 */
    assert_result(to_int(f, S, W, RTZ, BOX(0xcf000000)), I32MIN, 0);          /* -2^31 */
    assert_result(to_int(f, S, WU, RTZ, BOX(flt(-3.0f))), 0, NV);
    assert_result(to_int(f, S, WU, RTZ, BOX(0x4f800000)), ONES, NV);          /* 2^32 */
    assert_result(to_int(f, S, L, RTZ, BOX(S_INF)), I64MAX, NV);
    assert_result(to_int(f, S, L, RNE, BOX(flt(-1.5f))), (uint64_t)-2, NX);
    assert_result(to_int(f, S, LU, RTZ, BOX(0x5f800000)), ONES, NV);          /* 2^64 */
    assert_result(to_int(f, S, LU, RTZ, BOX(0x5f7fffff)), 0xffffff0000000000ull, 0);
    assert_result(to_int(f, S, LU, RTZ, BOX(S_NINF)), 0, NV);
}

static void test_fcvt_from_int(void **state)
{
    fixture_t *f = *state;
    assert_result(fop_fx(f, F_CVT_FROM_INT + D, W, RNE, (uint64_t)-1), D_M1, 0);
    assert_result(fop_fx(f, F_CVT_FROM_INT + D, W, RNE, 0x0000000100000005ull), dbl(5.0), 0);
    assert_result(fop_fx(f, F_CVT_FROM_INT + D, WU, RNE, ~0ull), 0x41efffffffe00000ull, 0);
    assert_result(fop_fx(f, F_CVT_FROM_INT + D, L, RNE, 0x8000000000000000ull),
                  0xc3e0000000000000ull, 0);
    assert_result(fop_fx(f, F_CVT_FROM_INT + D, LU, RNE, ~0ull), 0x43f0000000000000ull, NX);
    assert_result(fop_fx(f, F_CVT_FROM_INT + D, LU, RTZ, ~0ull), 0x43efffffffffffffull, NX);
    assert_result(fop_fx(f, F_CVT_FROM_INT + D, L, RDN, (uint64_t)-((1ll << 53) + 1)),
                  0xc340000000000001ull, NX);
    assert_result(fop_fx(f, F_CVT_FROM_INT + D, L, RUP, (uint64_t)-((1ll << 53) + 1)),
                  0xc340000000000000ull, NX);
    assert_result(fop_fx(f, F_CVT_FROM_INT + S, L, RNE, 0x8000000000000000ull), BOX(0xdf000000), 0);
    assert_result(fop_fx(f, F_CVT_FROM_INT + S, LU, RNE, ~0ull), BOX(0x5f800000), NX);
    assert_result(fop_fx(f, F_CVT_FROM_INT + S, LU, RTZ, ~0ull), BOX(0x5f7fffff), NX);
    assert_result(fop_fx(f, F_CVT_FROM_INT + S, WU, RNE, 0xffffffffull), BOX(0x4f800000), NX);
    assert_result(fop_fx(f, F_CVT_FROM_INT + S, W, RUP, 16777217), BOX(0x4b800001), NX);
    assert_result(fop_fx(f, F_CVT_FROM_INT + S, W, RNE, 16777219), BOX(0x4b800002), NX);
    assert_result(fop_fx(f, F_CVT_FROM_INT + S, W, RNE, 0), BOX(0), 0);
    assert_result(fop_fx(f, F_CVT_FROM_INT + S, W, RNE, (uint64_t)-7), BOX(0xc0e00000), 0);
}

static void test_fcvt_precision(void **state)
{
    fixture_t *f = *state;
    assert_result(fop1(f, F_CVT_S_D, 1, RNE, 0x3fd5555555555555ull), BOX(0x3eaaaaab), NX);
    assert_result(fop1(f, F_CVT_S_D, 1, RTZ, 0x3fd5555555555555ull), BOX(0x3eaaaaaa), NX);
    assert_result(fop1(f, F_CVT_S_D, 1, RNE, dbl(1e300)), BOX(S_INF), OF | NX);
    assert_result(fop1(f, F_CVT_S_D, 1, RTZ, dbl(1e300)), BOX(S_MAX), OF | NX);
    assert_result(fop1(f, F_CVT_S_D, 1, RNE, dbl(-1e-50)), BOX(0x80000000), UF | NX);
    assert_result(fop1(f, F_CVT_S_D, 1, RUP, dbl(1e-50)), BOX(1), UF | NX);
    assert_result(fop1(f, F_CVT_S_D, 1, RNE, dbl(0.5)), BOX(0x3f000000), 0);
    assert_result(fop1(f, F_CVT_S_D, 1, RNE, D_NINF), BOX(S_NINF), 0);
    assert_result(fop1(f, F_CVT_D_S, 0, RNE, BOX(0x3eaaaaab)), 0x3fd5555560000000ull, 0);
    assert_result(fop1(f, F_CVT_D_S, 0, RNE, BOX(1)), 0x36a0000000000000ull, 0);
    assert_result(fop1(f, F_CVT_D_S, 0, RNE, BOX(S_NINF)), D_NINF, 0);
    assert_result(fop1(f, F_CVT_D_S, 0, RNE, BOX(0x80000000)), D_NZERO, 0);
}

/* ---- fused multiply-add ----------------------------------------------------------------------- */
static void test_fma(void **state)
{
    fixture_t *f = *state;
    assert_result(ffma(f, OP_FMADD, D, RNE, D_2, D_3, D_1), dbl(7.0), 0);
    assert_result(ffma(f, OP_FMSUB, D, RNE, D_2, D_3, D_1), dbl(5.0), 0);
    assert_result(ffma(f, OP_FNMSUB, D, RNE, D_2, D_3, D_1), dbl(-5.0), 0);
    assert_result(ffma(f, OP_FNMADD, D, RNE, D_2, D_3, D_1), dbl(-7.0), 0);
    assert_result(ffma(f, OP_FMADD, S, RNE, BOX(S_2), BOX(S_3), BOX(S_1)), BOX(flt(7.0f)), 0);
    assert_result(ffma(f, OP_FMSUB, S, RNE, BOX(S_2), BOX(S_3), BOX(S_1)), BOX(flt(5.0f)), 0);
    assert_result(ffma(f, OP_FNMSUB, S, RNE, BOX(S_2), BOX(S_3), BOX(S_1)), BOX(flt(-5.0f)), 0);
    assert_result(ffma(f, OP_FNMADD, S, RNE, BOX(S_2), BOX(S_3), BOX(S_1)), BOX(flt(-7.0f)), 0);
    /* single rounding: (1+2^-52)(1-2^-53) - 1 = 2^-53 - 2^-105, exact */
    assert_result(ffma(f, OP_FMADD, D, RNE, 0x3ff0000000000001ull, 0x3fefffffffffffffull, D_M1),
                  0x3c9ffffffffffffeull, 0);
    assert_result(ffma(f, OP_FMADD, S, RNE, BOX(0x3f800001), BOX(0x3f7fffff), BOX(S_M1)),
                  BOX(0x337ffffe), 0);
    assert_result(ffma(f, OP_FMADD, S, RMM, BOX(0x3f800001), BOX(0x3f7fffff), BOX(S_M1)),
                  BOX(0x337ffffe), 0);
    assert_result(ffma(f, OP_FMADD, D, RMM, 0x3ff0000000000001ull, 0x3fefffffffffffffull, D_M1),
                  0x3c9ffffffffffffeull, 0);
    assert_result(ffma(f, OP_FMADD, D, RUP, D_1, D_1, 1), 0x3ff0000000000001ull, NX);
    /* inf * 0 + qNaN raises NV (RISC-V requires it) */
    assert_result(ffma(f, OP_FMADD, D, RNE, D_INF, D_PZERO, D_QNAN), D_QNAN, NV);
    assert_result(ffma(f, OP_FMADD, D, RNE, D_PZERO, D_NINF, 0x7ff8000000000abcull), D_QNAN, NV);
    assert_result(ffma(f, OP_FNMADD, S, RNE, BOX(S_INF), BOX(0), BOX(S_QNAN)), BOX(S_QNAN), NV);
    assert_result(ffma(f, OP_FMADD, D, RMM, D_INF, D_PZERO, D_QNAN), D_QNAN, NV);
    assert_result(ffma(f, OP_FMADD, D, RNE, D_INF, D_PZERO, D_1), D_QNAN, NV);
    assert_result(ffma(f, OP_FMADD, D, RNE, D_QNAN, D_1, D_1), D_QNAN, 0);
    assert_result(ffma(f, OP_FMADD, D, RNE, D_1, D_1, D_SNAN), D_QNAN, NV);
    assert_result(ffma(f, OP_FMADD, S, RNE, BOX(S_SNAN), BOX(S_1), BOX(S_1)), BOX(S_QNAN), NV);
    assert_result(ffma(f, OP_FMADD, D, RNE, D_INF, D_1, D_NINF), D_QNAN, NV);
    assert_result(ffma(f, OP_FMSUB, D, RNE, D_INF, D_1, D_INF), D_QNAN, NV);
    /* signed zeros: -(a*b) - c */
    assert_result(ffma(f, OP_FNMADD, D, RNE, D_PZERO, D_PZERO, D_PZERO), D_NZERO, 0);
    assert_result(ffma(f, OP_FMADD, D, RNE, D_PZERO, D_PZERO, D_NZERO), D_PZERO, 0);
    assert_result(ffma(f, OP_FMADD, D, RDN, D_PZERO, D_PZERO, D_NZERO), D_NZERO, 0);
    /* overflow and underflow through fma */
    assert_result(ffma(f, OP_FMADD, D, RNE, D_MAX, D_2, D_NINF), D_NINF, 0);
    assert_result(ffma(f, OP_FMADD, D, RNE, D_MAX, D_2, D_M1), D_INF, OF | NX);
    assert_result(ffma(f, OP_FMADD, D, RNE, 1, dbl(0.5), D_PZERO), 0, UF | NX);
}

/* ---- sign injection and moves ------------------------------------------------------------------ */
static void test_fsgnj(void **state)
{
    fixture_t *f = *state;
    assert_result(fop2(f, F_SGNJ + D, 0, D_1, dbl(-2.0)), D_M1, 0);
    assert_result(fop2(f, F_SGNJ + D, 0, D_M1, D_2), D_1, 0);
    assert_result(fop2(f, F_SGNJ + D, 1, D_1, dbl(-2.0)), D_1, 0);
    assert_result(fop2(f, F_SGNJ + D, 1, D_1, D_2), D_M1, 0);
    assert_result(fop2(f, F_SGNJ + D, 2, D_M1, dbl(-2.0)), D_1, 0);
    assert_result(fop2(f, F_SGNJ + D, 2, D_M1, D_2), D_M1, 0);
    /* NaN payloads and sNaNs pass through unchanged, no flags */
    assert_result(fop2(f, F_SGNJ + D, 1, D_SNAN, D_SNAN), D_SNAN | D_NZERO, 0);
    assert_result(fop2(f, F_SGNJ + S, 0, BOX(S_3), BOX(S_M1)), BOX(0xc0400000), 0);
    assert_result(fop2(f, F_SGNJ + S, 1, BOX(S_3), BOX(S_M1)), BOX(S_3), 0);
    assert_result(fop2(f, F_SGNJ + S, 2, BOX(0xc0400000), BOX(S_M1)), BOX(S_3), 0);
    assert_result(fop2(f, F_SGNJ + S, 2, BOX(S_SNAN), BOX(0)), BOX(S_SNAN), 0);
}

static void test_fmv(void **state)
{
    fixture_t *f = *state;
    assert_result(fop_x(f, F_MV_X + D, 0, 0, 0xfff0123456789abcull, 0), 0xfff0123456789abcull, 0);
    assert_result(fop_fx(f, F_MV_F + D, 0, 0, 0x7ff0000000000001ull), 0x7ff0000000000001ull, 0);
    assert_result(fop_x(f, F_MV_X + S, 0, 0, BOX(0x7fffffff), 0), 0x7fffffffull, 0);
    assert_result(fop_fx(f, F_MV_F + S, 0, 0, 0x7f800001ull), BOX(S_SNAN), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_decode_attrs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_load_store, setup, teardown),
        cmocka_unit_test_setup_teardown(test_arith_double, setup, teardown),
        cmocka_unit_test_setup_teardown(test_arith_single, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rounding_modes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_dynamic_rounding_and_csrs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_illegal_rounding_modes, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rmm_ties, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rmm_conversions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flags, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nan_boxing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_canonical_nan, setup, teardown),
        cmocka_unit_test_setup_teardown(test_minmax, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compare, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fclass, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fcvt_to_int_saturation, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fcvt_from_int, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fcvt_precision, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fma, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fsgnj, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fmv, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
