/*
 * test_alpha_fp.c - unit tests of the Alpha floating-point front-end
 * (alpha_fp.c, alpha_fp_arith.c) through the real decode path
 * (al_decode_word + insn.exec): qualifier legality, every rounding
 * qualifier and the dynamic mode on values that round differently, FPCR
 * round trips and sticky status, /S /U /I exception recording and traps,
 * underflow to zero, S-format load/store mapping of denormals, infinities
 * and NaNs, compares producing 2.0, cvttq /C /V and overflow, cvtql,
 * cvtqt, cvtts/cvtst, the cpys family, fcmov and branches on -0.0, f31,
 * itof/ftoi, square roots and NaN propagation.  Expected values follow the
 * Alpha Architecture Handbook 4.7 and were cross-checked against
 * qemu-alpha (tests/guest-alpha/alpha_fp_qualifiers.c prints the same cases).
 */
#include <fenv.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "alpha_encode.h"
#include "alpha_encode_fp.h"
#include "alpha_fp.h"
#include "core.h"
#include "mem.h"

#define DATA 0x10000u              /* a mapped read/write data region       */
#define PC   0x1000u               /* where instructions pretend to be      */
enum { R_A0 = 16, R_ZERO = 31 };
enum { F1 = 1, F2 = 2, F3 = 3, F31 = 31 };
#define FREG(n) (REG_FP0 + (n))

/* ---- values ---------------------------------------------------------------- */
#define T_0      0x0000000000000000ull
#define T_M0     0x8000000000000000ull
#define T_1      0x3ff0000000000000ull
#define T_M1     0xbff0000000000000ull
#define T_2      0x4000000000000000ull
#define T_3      0x4008000000000000ull
#define T_4      0x4010000000000000ull
#define T_10     0x4024000000000000ull
#define T_INF    0x7ff0000000000000ull
#define T_NINF   0xfff0000000000000ull
#define T_QNAN   0x7ff8000000000000ull
#define T_SNAN   0x7ff0000000000001ull
#define T_MAX    0x7fefffffffffffffull
#define T_MINN   0x0010000000000000ull
#define T_DEN1   0x0000000000000001ull
#define T_TENTH  0x3fb999999999999aull   /* 0.1 rounded to nearest (up)   */
#define T_THIRD  0x3fd5555555555555ull   /* 1/3 rounded to nearest (down) */

#define ST(f) ((uint64_t)(f))
#define S_1      0x3ff0000000000000ull   /* 1.0f in register (T) layout   */

#define STATUS(c) ((c)->fpcr & AL_FPCR_STATUS)
#define INV AL_FPCR_INV
#define DZE AL_FPCR_DZE
#define OVF AL_FPCR_OVF
#define UNF AL_FPCR_UNF
#define INE AL_FPCR_INE
#define IOV AL_FPCR_IOV

/* ---- fixture and runners ------------------------------------------------------ */
typedef struct fixture {
    cpu_t cpu;
    mem_t *mem;
} fixture_t;

static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof *f);
    f->mem = mem_new();
    cpu_init(&f->cpu, &isa_alpha, f->mem);
    mem_map(f->mem, DATA, 0x2000, MEM_PROT_READ | MEM_PROT_WRITE);
    al_fp_init(&f->cpu);
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

static bool decodes(uint32_t word)
{
    insn_t in;
    return al_decode_word(PC, word, &in);
}

/* Execute one instruction; returns the stop reason (STOP_NONE if it
 * completed) with the si_code of a trap in cpu.stop_info. */
static stop_reason_t exec1(fixture_t *f, uint32_t word)
{
    static insn_t in;
    jmp_buf jb;
    assert_true(al_decode_word(PC, word, &in));
    f->cpu.stop = STOP_NONE;
    f->cpu.stop_info = 0;
    f->cpu.stop_jmp = &jb;
    f->mem->fault_jmp = &jb;
    if (setjmp(jb) == 0) {
        f->cpu.pc = PC + 4;
        in.exec(&f->cpu, &in);
    } else if (f->cpu.stop == STOP_NONE) {
        f->cpu.stop = STOP_MEM_FAULT;                 /* longjmp from the memory */
    }
    f->cpu.stop_jmp = NULL;
    f->mem->fault_jmp = NULL;
    return f->cpu.stop;
}

static void run1(fixture_t *f, uint32_t word) { assert_int_equal(exec1(f, word), STOP_NONE); }

/* A fresh FPCR: status clear, dynamic rounding `dyn`. */
static void fresh(fixture_t *f, unsigned dyn)
{
    f->cpu.fpcr = (AL_FPCR_LINUX_INIT & ~AL_FPCR_DYN_MASK) | (uint64_t)dyn << AL_FPCR_DYN_SHIFT;
}

/* f3 = op f1, f2 (IEEE function fn, qualifiers q), status cleared first. */
static uint64_t ieee2(fixture_t *f, uint32_t fn, uint32_t q, uint64_t a, uint64_t b)
{
    f->cpu.fpcr &= ~AL_FPCR_STATUS;
    f->cpu.reg[FREG(F1)] = a;
    f->cpu.reg[FREG(F2)] = b;
    f->cpu.reg[FREG(F3)] = 0xdeadbeef;
    run1(f, al_ieee(fn, q, F1, F2, F3));
    return f->cpu.reg[FREG(F3)];
}

/* f3 = op f2 (Fa = f31). */
static uint64_t ieee1(fixture_t *f, uint32_t fn, uint32_t q, uint64_t b)
{
    f->cpu.fpcr &= ~AL_FPCR_STATUS;
    f->cpu.reg[FREG(F2)] = b;
    f->cpu.reg[FREG(F3)] = 0xdeadbeef;
    run1(f, al_ieee(fn, q, F31, F2, F3));
    return f->cpu.reg[FREG(F3)];
}

/* An opcode 0x14/0x17 operate with an exact function on f1, f2 -> f3. */
static uint64_t fop(fixture_t *f, uint32_t op, uint32_t fn11, uint64_t a, uint64_t b)
{
    f->cpu.fpcr &= ~AL_FPCR_STATUS;
    f->cpu.reg[FREG(F1)] = a;
    f->cpu.reg[FREG(F2)] = b;
    run1(f, al_fop(op, fn11, F1, F2, F3));
    return f->cpu.reg[FREG(F3)];
}

/* f3 = op f2 with an exact function and Fa = f31 (cvtlq, cvtql, sqrt). */
static uint64_t fop1(fixture_t *f, uint32_t op, uint32_t fn11, uint64_t b)
{
    f->cpu.fpcr &= ~AL_FPCR_STATUS;
    f->cpu.reg[FREG(F2)] = b;
    run1(f, al_fop(op, fn11, F31, F2, F3));
    return f->cpu.reg[FREG(F3)];
}

/* An instruction expected to trap: returns the si_code. */
static uint64_t trap2(fixture_t *f, uint32_t fn, uint32_t q, uint64_t a, uint64_t b)
{
    f->cpu.fpcr &= ~AL_FPCR_STATUS;
    f->cpu.reg[FREG(F1)] = a;
    f->cpu.reg[FREG(F2)] = b;
    assert_int_equal(exec1(f, al_ieee(fn, q, F1, F2, F3)), STOP_ARITH_TRAP);
    return f->cpu.stop_info;
}

/* ---- decoding ----------------------------------------------------------------------- */
static void test_qualifier_legality(void **state)
{
    (void)state;
    static const uint32_t arith_ok[] = { QC, QM, QN, QD, QU | QC, QU | QD, QSU | QN, QSU | QC,
                                         QSU | QM, QSU | QD, QSUI | QN, QSUI | QD, QSUI | QC };
    static const uint32_t fns[] = { FN_ADDS, FN_SUBS, FN_MULS, FN_DIVS, FN_ADDT, FN_SUBT,
                                    FN_MULT, FN_DIVT };
    for (unsigned k = 0; k < sizeof fns / sizeof fns[0]; k++) {
        for (unsigned q = 0; q < sizeof arith_ok / sizeof arith_ok[0]; q++)
            assert_true(decodes(al_ieee(fns[k], arith_ok[q], F1, F2, F3)));
        /* trap codes the Handbook leaves undefined: /S, /I, /SI, /UI */
        assert_false(decodes(al_ieee(fns[k], QS_ONLY | QN, F1, F2, F3)));
        assert_false(decodes(al_ieee(fns[k], QI_ONLY | QN, F1, F2, F3)));
        assert_false(decodes(al_ieee(fns[k], QS_ONLY | QI_ONLY | QN, F1, F2, F3)));
        assert_false(decodes(al_ieee(fns[k], QU | QI_ONLY | QN, F1, F2, F3)));
    }
    /* compares: only normal rounding, only none or /SU */
    assert_true(decodes(al_ieee(FN_CMPTEQ, QN, F1, F2, F3)));
    assert_true(decodes(al_ieee(FN_CMPTLT, QSU | QN, F1, F2, F3)));
    assert_false(decodes(al_ieee(FN_CMPTLE, QSU | QC, F1, F2, F3)));
    assert_false(decodes(al_ieee(FN_CMPTUN, QSUI | QN, F1, F2, F3)));
    assert_false(decodes(al_ieee(FN_CMPTUN, QU | QN, F1, F2, F3)));
    /* cvttq: /V forms; cvtqs/cvtqt: none or /SUI */
    assert_true(decodes(al_ieee(FN_CVTTQ, QSV | QC, F31, F2, F3)));
    assert_true(decodes(al_ieee(FN_CVTTQ, QSVI | QD, F31, F2, F3)));
    assert_true(decodes(al_ieee(FN_CVTTQ, QV | QM, F31, F2, F3)));
    assert_false(decodes(al_ieee(FN_CVTTQ, QS_ONLY | QC, F31, F2, F3)));
    assert_true(decodes(al_ieee(FN_CVTQT, QSUI | QD, F31, F2, F3)));
    assert_true(decodes(al_ieee(FN_CVTQS, QC, F31, F2, F3)));
    assert_false(decodes(al_ieee(FN_CVTQT, QSU | QN, F31, F2, F3)));
    assert_false(decodes(al_ieee(FN_CVTQT, QU | QN, F31, F2, F3)));
    /* one-operand forms need Fa = f31 */
    assert_false(decodes(al_ieee(FN_CVTTQ, QSV | QC, F1, F2, F3)));
    assert_false(decodes(al_fop(ALO_ITFP, QSU | QN | FN_SQRTT, F1, F2, F3)));
    assert_true(decodes(al_fop(ALO_ITFP, QSU | QN | FN_SQRTT, F31, F2, F3)));
    /* cvtst only as 0x2ac and 0x6ac; cvtts never takes those trap codes */
    assert_true(decodes(al_fop(ALO_FLTI, FN11_CVTST, F31, F2, F3)));
    assert_true(decodes(al_fop(ALO_FLTI, FN11_CVTST_S, F31, F2, F3)));
    assert_false(decodes(al_fop(ALO_FLTI, 0x2ec, F31, F2, F3)));
    assert_true(decodes(al_ieee(FN_CVTTS, QSUI | QD, F31, F2, F3)));
    /* cvtql: none, /V, /SV */
    assert_true(decodes(al_fop(ALO_FLTL, FN11_CVTQL, F31, F2, F3)));
    assert_true(decodes(al_fop(ALO_FLTL, FN11_CVTQL_V, F31, F2, F3)));
    assert_true(decodes(al_fop(ALO_FLTL, FN11_CVTQL_SV, F31, F2, F3)));
    assert_false(decodes(al_fop(ALO_FLTL, 0x330, F31, F2, F3)));
    assert_false(decodes(al_fop(ALO_FLTL, 0x070, F31, F2, F3)));
    /* itof/ftoi need Fb/Rb = 31; opcode 0x17 functions are exact */
    assert_true(decodes(al_fop(ALO_ITFP, FN11_ITOFT, R_A0, 31, F3)));
    assert_false(decodes(al_fop(ALO_ITFP, FN11_ITOFT, R_A0, 1, F3)));
    assert_true(decodes(al_fop(ALO_FPTI, FN11_FTOIS, F1, 31, R_A0)));
    assert_false(decodes(al_fop(ALO_FLTL, FN11_CPYS | 0x100, F1, F2, F3)));
    /* VAX formats are not implemented: ldf/ldg/stf/stg, opcode 0x15 */
    assert_false(decodes(al_mem(0x20, F1, R_A0, 0)));
    assert_false(decodes(al_mem(0x21, F1, R_A0, 0)));
    assert_false(decodes(al_mem(0x24, F1, R_A0, 0)));
    assert_false(decodes(al_mem(0x25, F1, R_A0, 0)));
    assert_false(decodes(al_fop(0x15, 0x0a0, F1, F2, F3)));      /* addg */
    assert_false(decodes(al_fop(ALO_ITFP, 0x08a, F31, F2, F3))); /* sqrtf */
}

static void test_decoded_fields(void **state)
{
    (void)state;
    insn_t in;
    assert_true(al_decode_word(PC, al_ieee(FN_ADDT, QSU | QD, F1, F2, F3), &in));
    assert_int_equal(in.rs1, FREG(F1));
    assert_int_equal(in.rs2, FREG(F2));
    assert_int_equal(in.rd, FREG(F3));
    assert_int_equal(in.rm, (QSU | QD) >> 6);
    assert_int_equal(in.opclass, OC_FALU);
    assert_true(in.flags & IF_FP);
    assert_true(al_decode_word(PC, al_ieee(FN_DIVT, QSU | QN, F31, F31, F31), &in));
    assert_int_equal(in.rs1, REG_FZERO);
    assert_int_equal(in.rd, REG_SINK);
    assert_true(al_decode_word(PC, al_mem(ALO_LDT, F1, R_A0, -8), &in));
    assert_int_equal(in.opclass, OC_FLOAD);
    assert_int_equal(in.memsize, 8);
    assert_true(al_decode_word(PC, al_mem(ALO_LDT, F31, R_A0, -8), &in));
    assert_int_equal(in.opclass, OC_NOP);                        /* prefetch */
    assert_true(al_decode_word(PC, al_br(ALO_FBNE, F1, -2), &in));
    assert_true(in.flags & IF_BRANCH);
    assert_int_equal(in.target, PC + 4 - 8);
}

/* ---- arithmetic and rounding ---------------------------------------------------------- */
static void test_basic_arithmetic(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(ieee2(f, FN_ADDT, QSU | QN, T_1, T_2), T_3);
    assert_int_equal(ieee2(f, FN_SUBT, QSU | QN, T_1, T_3), 0xc000000000000000ull);
    assert_int_equal(ieee2(f, FN_MULT, QSU | QN, T_2, T_2), T_4);
    assert_int_equal(ieee2(f, FN_DIVT, QSU | QN, T_1, T_3), T_THIRD);
    assert_int_equal(STATUS(&f->cpu), 0);                        /* inexact ignored */
    assert_int_equal(ieee2(f, FN_ADDS, QSU | QN, S_1, T_2), T_3);
    assert_int_equal(ieee2(f, FN_DIVS, QSU | QN, S_1, T_3), 0x3fd5555560000000ull);
    assert_int_equal(ieee2(f, FN_MULS, QSU | QN, T_3, T_3), 0x4022000000000000ull);
    assert_int_equal(ieee2(f, FN_SUBS, QSU | QN, T_1, T_1), T_0);
    /* plain forms give the same values */
    assert_int_equal(ieee2(f, FN_ADDT, QN, T_1, T_2), T_3);
    assert_int_equal(ieee2(f, FN_MULS, QN, T_3, T_3), 0x4022000000000000ull);
}

static void test_rounding_qualifiers(void **state)
{
    fixture_t *f = *state;
    /* 1/10: nearest and plus round up; chopped and minus down */
    assert_int_equal(ieee2(f, FN_DIVT, QSU | QN, T_1, T_10), T_TENTH);
    assert_int_equal(ieee2(f, FN_DIVT, QSU | QC, T_1, T_10), T_TENTH - 1);
    assert_int_equal(ieee2(f, FN_DIVT, QSU | QM, T_1, T_10), T_TENTH - 1);
    assert_int_equal(ieee2(f, FN_DIVT, QSU | QM, T_M1, T_10), T_TENTH | T_M0);
    assert_int_equal(ieee2(f, FN_DIVT, QSU | QC, T_M1, T_10), (T_TENTH - 1) | T_M0);
    /* /D follows the FPCR, each of the four modes */
    static const uint64_t pos[4] = { T_TENTH - 1, T_TENTH - 1, T_TENTH, T_TENTH };
    static const uint64_t neg[4] = { T_TENTH - 1, T_TENTH, T_TENTH, T_TENTH - 1 };
    for (unsigned dyn = 0; dyn < 4; dyn++) {
        fresh(f, dyn);
        assert_int_equal(ieee2(f, FN_DIVT, QSU | QD, T_1, T_10), pos[dyn]);
        assert_int_equal(ieee2(f, FN_DIVT, QSU | QD, T_M1, T_10), neg[dyn] | T_M0);
        /* static qualifiers ignore the FPCR */
        assert_int_equal(ieee2(f, FN_DIVT, QSU | QN, T_1, T_10), T_TENTH);
        assert_int_equal(ieee2(f, FN_DIVT, QSU | QC, T_1, T_10), T_TENTH - 1);
        /* singles: 1/3 = 0x3eaaaaab nearest, ...aa chopped */
        assert_int_equal(ieee2(f, FN_DIVS, QSU | QD, S_1, T_3),
                         dyn >= 2 ? 0x3fd5555560000000ull : 0x3fd5555540000000ull);
        /* the mode also rounds overflow: max finite or infinity */
        assert_int_equal(ieee2(f, FN_MULT, QSU | QD, T_MAX, T_2),
                         dyn == 0 || dyn == 1 ? T_MAX : T_INF);
        assert_int_equal(ieee2(f, FN_MULT, QSU | QD, T_MAX | T_M0, T_2),
                         dyn == 0 || dyn == 3 ? T_MAX | T_M0 : T_NINF);
        /* x - x is -0 only rounding toward minus infinity */
        assert_int_equal(ieee2(f, FN_SUBT, QSU | QD, T_1, T_1), dyn == 1 ? T_M0 : T_0);
    }
    fresh(f, AL_RND_NORMAL);
    /* the rounding modes meet the host's: 1 + 2^-59 */
    assert_int_equal(ieee2(f, FN_ADDT, QSUI | QC, T_1, 0x3c40000000000000ull), T_1);
    assert_int_equal(STATUS(&f->cpu), INE);
    fresh(f, AL_RND_PLUS);
    assert_int_equal(ieee2(f, FN_ADDT, QSUI | QD, T_1, 0x3c40000000000000ull), T_1 + 1);
    fresh(f, AL_RND_NORMAL);
    assert_int_equal(ieee2(f, FN_ADDT, QSU | QN, T_1, 0x3c40000000000000ull), T_1);
}

/* The moderate-operand path (operands and result within 2^+-400, any
 * rounding, inexact recorded) against the host's own arithmetic under
 * fesetround: T add, sub, mul and div on random operands around that
 * range's edges and on integer-valued operands (glibc's division
 * routines), in each rounding qualifier and each dynamic mode, without /S
 * (inexact always recorded), with /SU (ignored) and with /SUI (recorded). */
static uint64_t rand64(uint64_t *s)
{
    *s ^= *s << 13; *s ^= *s >> 7; *s ^= *s << 17;
    return *s;
}

static uint64_t random_operand(uint64_t *s)
{
    uint64_t r = rand64(s);
    if (r % 4 == 0) {                               /* an integer, as __divq sees */
        double d = (double)(int64_t)(rand64(s) >> (r >> 2 & 63));
        uint64_t b;
        memcpy(&b, &d, 8);
        return b ? b : T_1;
    }
    int exp = (int)(r >> 8 & 1023) - 511;           /* mostly +-400, some beyond */
    return (r >> 63) << 63 | (uint64_t)(exp + 1023) << 52 | (rand64(s) & 0xfffffffffffffull);
}

static bool host_op(uint32_t fn, int mode, uint64_t a, uint64_t b, uint64_t *r, bool *inexact)
{
    volatile double x, y, z;
    memcpy((void *)&x, &a, 8);
    memcpy((void *)&y, &b, 8);
    fesetround(mode);
    feclearexcept(FE_ALL_EXCEPT);
    z = fn == FN_ADDT ? x + y : fn == FN_SUBT ? x - y : fn == FN_MULT ? x * y : x / y;
    int fl = fetestexcept(FE_ALL_EXCEPT);
    fesetround(FE_TONEAREST);
    double zz = z;
    memcpy(r, &zz, 8);
    *inexact = fl & FE_INEXACT;
    uint64_t e = *r >> 52 & 0x7ff;
    return !(fl & (FE_OVERFLOW | FE_UNDERFLOW | FE_INVALID | FE_DIVBYZERO)) && e != 0 && e != 0x7ff;
}

static void test_moderate_against_host(void **state)
{
    fixture_t *f = *state;
    static const uint32_t fns[4] = { FN_ADDT, FN_SUBT, FN_MULT, FN_DIVT };
    static const int host_mode[4] = {
        [AL_RND_CHOPPED] = FE_TOWARDZERO, [AL_RND_MINUS] = FE_DOWNWARD,
        [AL_RND_NORMAL] = FE_TONEAREST, [AL_RND_PLUS] = FE_UPWARD,
    };
    static const uint32_t rnd_q[4] = { QC, QM, QN, QD };
    static const uint32_t trap_q[3] = { 0, QSU, QSUI };
    uint64_t seed = 0x9e3779b97f4a7c15ull;
    unsigned checked = 0, inexact_seen = 0;
    for (int k = 0; k < 4000; k++) {
        uint64_t a = random_operand(&seed), b = random_operand(&seed);
        for (unsigned o = 0; o < 4; o++) {
            for (unsigned rq = 0; rq < 4; rq++) {
                unsigned dyn = (unsigned)(rand64(&seed) & 3);
                unsigned mode = rq == 3 ? dyn : rq;       /* QC=0, QM=1, QN=2 */
                uint64_t want;
                bool inexact;
                if (!host_op(fns[o], host_mode[mode], a, b, &want, &inexact)) continue;
                for (unsigned t = 0; t < 3; t++) {
                    fresh(f, dyn);
                    uint64_t got = ieee2(f, fns[o], trap_q[t] | rnd_q[rq], a, b);
                    if (got != want)
                        fail_msg("fn %#x q %#x dyn %u: %#llx op %#llx = %#llx, host %#llx", fns[o],
                                 trap_q[t] | rnd_q[rq], dyn, (unsigned long long)a,
                                 (unsigned long long)b, (unsigned long long)got,
                                 (unsigned long long)want);
                    bool recorded = trap_q[t] != QSU && inexact;
                    assert_int_equal(STATUS(&f->cpu), recorded ? INE : 0);
                    checked++;
                    inexact_seen += inexact;
                }
            }
        }
    }
    assert_true(checked > 100000);
    assert_true(inexact_seen > checked / 2);
}

/* ---- exceptions ------------------------------------------------------------------------- */
static void test_exception_recording(void **state)
{
    fixture_t *f = *state;
    /* /SU: everything but inexact is recorded; no trap (all disabled) */
    assert_int_equal(ieee2(f, FN_DIVT, QSU | QN, T_1, T_0), T_INF);
    assert_int_equal(STATUS(&f->cpu), DZE);
    assert_int_equal(ieee2(f, FN_DIVT, QSU | QN, T_0, T_0), T_QNAN);
    assert_int_equal(STATUS(&f->cpu), INV);
    assert_int_equal(ieee2(f, FN_SUBT, QSU | QN, T_INF, T_INF), T_QNAN);
    assert_int_equal(STATUS(&f->cpu), INV);
    assert_int_equal(ieee2(f, FN_MULT, QSU | QN, T_MAX, T_10), T_INF);
    assert_int_equal(STATUS(&f->cpu), OVF);
    assert_int_equal(ieee2(f, FN_MULT, QSUI | QN, T_MAX, T_10), T_INF);
    assert_int_equal(STATUS(&f->cpu), OVF | INE);
    /* underflow with /U: a denormal result */
    assert_int_equal(ieee2(f, FN_MULT, QSU | QN, T_MINN, 0x3fe0000000000001ull),
                     0x0008000000000000ull);
    assert_int_equal(STATUS(&f->cpu), UNF);
    assert_int_equal(ieee2(f, FN_MULT, QSU | QN, T_MINN, 0x3fe0000000000000ull),
                     0x0008000000000000ull);
    assert_int_equal(STATUS(&f->cpu), 0);                        /* exact: no UNF */
    assert_int_equal(ieee2(f, FN_MULT, QSU | QN, T_DEN1, 0x3fe0000000000000ull), T_0);
    assert_int_equal(STATUS(&f->cpu), UNF);
    /* tininess is detected after rounding */
    assert_int_equal(ieee2(f, FN_MULT, QSU | QN, 0x3feffffffffffffeull, 0x0010000000000001ull), T_MINN);
    assert_int_equal(STATUS(&f->cpu), 0);
    assert_int_equal(ieee2(f, FN_MULT, QSU | QN, 0x3fefffffffffffffull, T_MINN), T_MINN);
    assert_int_equal(STATUS(&f->cpu), UNF);
    /* without /S every exception is recorded, inexact included */
    assert_int_equal(ieee2(f, FN_DIVT, QC, T_10, T_3), 0x400aaaaaaaaaaaaaull);
    assert_int_equal(STATUS(&f->cpu), INE);
    assert_int_equal(ieee2(f, FN_ADDT, QU | QN, T_1, 0x3c40000000000000ull), T_1);
    assert_int_equal(STATUS(&f->cpu), INE);
    /* sticky: status accumulates until the FPCR is rewritten */
    ieee2(f, FN_DIVT, QSU | QN, T_1, T_0);
    f->cpu.reg[FREG(F1)] = T_MAX;
    run1(f, al_ieee(FN_MULT, QSU | QN, F1, F1, F3));
    assert_int_equal(STATUS(&f->cpu), DZE | OVF);
}

static void test_underflow_to_zero(void **state)
{
    fixture_t *f = *state;
    /* without /U a result below 2^-1022 before rounding is +-0, no exception */
    assert_int_equal(ieee2(f, FN_MULT, QN, T_MINN, 0x3fe0000000000001ull), T_0);
    assert_int_equal(STATUS(&f->cpu), 0);
    assert_int_equal(ieee2(f, FN_MULT, QC, T_MINN | T_M0, 0x3fe0000000000001ull), T_M0);
    assert_int_equal(STATUS(&f->cpu), 0);
    /* even when rounding would have reached the smallest normal */
    assert_int_equal(ieee2(f, FN_MULT, QN, 0x3feffffffffffffeull, 0x0010000000000001ull), T_0);
    assert_int_equal(ieee2(f, FN_MULT, QN, 0x3fefffffffffffffull, T_MINN), T_0);
    assert_int_equal(ieee2(f, FN_MULT, QM, 0x3fefffffffffffffull, T_MINN), T_0);
    assert_int_equal(ieee2(f, FN_MULT, QN, T_MINN, T_1), T_MINN);
    /* exact denormal sums too */
    assert_int_equal(ieee2(f, FN_ADDT, QN, 0x0018000000000000ull, T_MINN | T_M0), T_0);
    /* singles: 1e-30 * 1e-10 is a float denormal with /U, zero without */
    uint64_t a = 0x39b4484c00000000ull, b = 0x3ddb7cdfe0000000ull;
    assert_int_equal(ieee2(f, FN_MULS, QSU | QN, a, b), 0x000022d840000000ull);
    assert_int_equal(STATUS(&f->cpu), UNF);
    assert_int_equal(ieee2(f, FN_MULS, QN, a, b), T_0);
    assert_int_equal(STATUS(&f->cpu), 0);
    /* FPCR.UNDZ with UNFD makes /U results underflow to zero too */
    f->cpu.fpcr |= AL_FPCR_UNDZ;
    assert_int_equal(ieee2(f, FN_MULT, QSU | QN, T_MINN, 0x3fe0000000000001ull), T_0);
    assert_int_equal(STATUS(&f->cpu), 0);
    /* ... as does the swcr's MAP_UMZ */
    fresh(f, AL_RND_NORMAL);
    f->cpu.swcr = AL_SWCR_MAP_UMZ;
    assert_int_equal(ieee2(f, FN_MULT, QSU | QN, T_MINN, 0x3fe0000000000001ull), T_0);
    f->cpu.swcr = 0;
}

static void test_denormal_operands(void **state)
{
    fixture_t *f = *state;
    /* with /S denormal operands are exact values */
    assert_int_equal(ieee2(f, FN_ADDT, QSU | QN, 0x3ull, 0x8000000000000001ull), 0x2ull);
    assert_int_equal(ieee2(f, FN_MULT, QSU | QN, 0x0008000000000000ull, 0x4330000000000000ull),
                     0x0340000000000000ull);                     /* 2^-1023 * 2^52 */
    /* FPCR.DNZ (or swcr MAP_DMZ): denormal operands read as zero */
    f->cpu.fpcr |= AL_FPCR_DNZ;
    assert_int_equal(ieee2(f, FN_ADDT, QSU | QN, 0x5ull, T_0), T_0);
    assert_int_equal(ieee2(f, FN_MULT, QSU | QN, 0x0008000000000000ull, 0x4330000000000000ull), T_0);
    assert_int_equal(ieee2(f, FN_CMPTEQ, QSU | QN, 0x5ull, T_0), T_2);
    assert_int_equal(ieee1(f, FN_CVTTQ, QSV | QM, 0x8000000000000005ull), 0);
    fresh(f, AL_RND_NORMAL);
    f->cpu.swcr = AL_SWCR_MAP_DMZ;
    assert_int_equal(ieee2(f, FN_ADDT, QSU | QN, 0x5ull, T_0), T_0);
    f->cpu.swcr = 0;
}

static void test_traps(void **state)
{
    fixture_t *f = *state;
    /* without /S: non-finite and denormal operands trap (invalid recorded
     * for non-finite ones) */
    assert_int_equal(trap2(f, FN_ADDT, QN, T_INF, T_1), FPE_FLTINV);
    assert_int_equal(STATUS(&f->cpu), INV);
    assert_int_equal(trap2(f, FN_ADDT, QN, T_1, T_QNAN), FPE_FLTINV);
    assert_int_equal(trap2(f, FN_MULT, QC, T_DEN1, T_1), FPE_FLTINV);
    assert_int_equal(STATUS(&f->cpu), 0);
    assert_int_equal(trap2(f, FN_ADDS, QN, T_1, T_INF), FPE_FLTINV);
    /* ... and any exception the qualifiers do not ignore traps */
    assert_int_equal(trap2(f, FN_DIVT, QC, T_1, T_0), FPE_FLTDIV);
    assert_int_equal(STATUS(&f->cpu), DZE);
    assert_int_equal(trap2(f, FN_MULT, QN, T_MAX, T_2), FPE_FLTOVF);
    assert_int_equal(STATUS(&f->cpu), OVF | INE);
    assert_int_equal(trap2(f, FN_MULT, QU | QN, T_MINN, 0x3fe0000000000001ull), FPE_FLTUND);
    /* compares accept infinities without /S, not NaNs */
    assert_int_equal(ieee2(f, FN_CMPTLE, QN, T_NINF, T_INF), T_2);
    assert_int_equal(trap2(f, FN_CMPTEQ, QN, T_QNAN, T_1), FPE_FLTINV);
    assert_int_equal(trap2(f, FN_CMPTEQ, QN, T_DEN1, T_1), FPE_FLTINV);
    /* with /S a trap is taken only when enabled in the FPCR */
    f->cpu.fpcr &= ~AL_FPCR_DZED;
    assert_int_equal(trap2(f, FN_DIVT, QSU | QN, T_1, T_0), FPE_FLTDIV);
    assert_int_equal(ieee2(f, FN_MULT, QSU | QN, T_MAX, T_2), T_INF);   /* OVF still off */
    f->cpu.fpcr &= ~AL_FPCR_INED;
    assert_int_equal(ieee2(f, FN_DIVT, QSU | QN, T_1, T_3), T_THIRD);   /* /SU ignores INE */
    assert_int_equal(trap2(f, FN_DIVT, QSUI | QN, T_1, T_3), FPE_FLTRES);
    assert_int_equal(STATUS(&f->cpu), INE);
    fresh(f, AL_RND_NORMAL);
    f->cpu.fpcr &= ~AL_FPCR_INVD;
    assert_int_equal(trap2(f, FN_SUBT, QSU | QN, T_INF, T_INF), FPE_FLTINV);
    assert_int_equal(trap2(f, FN_CMPTLT, QSU | QN, T_QNAN, T_1), FPE_FLTINV);
    assert_int_equal(ieee2(f, FN_CMPTEQ, QSU | QN, T_QNAN, T_1), 0);    /* quiet */
}

/* ---- FPCR ------------------------------------------------------------------------------- */
static void test_fpcr_moves(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(f->cpu.fpcr, 0x680e800000000000ull);
    f->cpu.reg[FREG(F1)] = 0x0123456789abcdefull;
    run1(f, al_fop(ALO_FLTL, FN11_MT_FPCR, F1, F1, F1));
    assert_int_equal(f->cpu.fpcr, 0x0123456700000000ull);
    run1(f, al_fop(ALO_FLTL, FN11_MF_FPCR, F2, F2, F2));
    assert_int_equal(f->cpu.reg[FREG(F2)], 0x0123456700000000ull);
    assert_int_equal(al_fp_fpcr(&f->cpu), 0x0123456700000000ull);
    /* status raised by an instruction shows in mf_fpcr */
    fresh(f, AL_RND_NORMAL);
    ieee2(f, FN_DIVT, QSU | QN, T_1, T_0);
    run1(f, al_fop(ALO_FLTL, FN11_MF_FPCR, F2, F2, F2));
    assert_int_equal(f->cpu.reg[FREG(F2)], 0x682e800000000000ull);
    /* mt_fpcr clears it; the dynamic mode takes effect at once */
    f->cpu.reg[FREG(F1)] = (AL_FPCR_LINUX_INIT & ~AL_FPCR_DYN_MASK) | (uint64_t)AL_RND_PLUS << 58;
    run1(f, al_fop(ALO_FLTL, FN11_MT_FPCR, F1, F1, F1));
    assert_int_equal(STATUS(&f->cpu), 0);
    assert_int_equal(ieee2(f, FN_DIVT, QSU | QD, T_1, T_3), T_THIRD + 1);
    /* the run hook gives a process that never set its FPCR Linux's */
    f->cpu.fpcr = 0;
    f->cpu.instret = 0;
    al_fp_run_enter(&f->cpu);
    assert_int_equal(f->cpu.fpcr, AL_FPCR_LINUX_INIT);
    al_fp_run_leave(&f->cpu);
    al_fp_set_fpcr(&f->cpu, 0x0000000012345678ull);
    assert_int_equal(f->cpu.fpcr, 0);
}

/* ---- S format in registers and memory ----------------------------------------------------- */
static void test_s_load_store(void **state)
{
    fixture_t *f = *state;
    static const struct { uint32_t mem; uint64_t reg; } m[] = {
        { 0x3f800000, 0x3ff0000000000000ull },      /* 1.0                      */
        { 0xc0490fdb, 0xc00921fb60000000ull },      /* -pi                      */
        { 0x00000001, 0x0000000020000000ull },      /* smallest denormal: exp 0 */
        { 0x807fffff, 0x800fffffe0000000ull },      /* largest -denormal        */
        { 0x00800000, 0x3810000000000000ull },      /* smallest normal          */
        { 0x7f7fffff, 0x47efffffe0000000ull },      /* largest normal           */
        { 0x7f800000, 0x7ff0000000000000ull },      /* +inf                     */
        { 0xff800000, 0xfff0000000000000ull },      /* -inf                     */
        { 0x7fc00000, 0x7ff8000000000000ull },      /* qNaN                     */
        { 0x7f800001, 0x7ff0000020000000ull },      /* sNaN                     */
        { 0x80000000, 0x8000000000000000ull },      /* -0                       */
    };
    f->cpu.reg[R_A0] = DATA;
    for (unsigned k = 0; k < sizeof m / sizeof m[0]; k++) {
        mem_store32(f->mem, DATA + 4, m[k].mem);
        run1(f, al_mem(ALO_LDS, F1, R_A0, 4));
        assert_int_equal(f->cpu.reg[FREG(F1)], m[k].reg);
        assert_int_equal(f->cpu.mem_addr, DATA + 4);
        run1(f, al_mem(ALO_STS, F1, R_A0, 8));
        assert_int_equal(mem_load32(f->mem, DATA + 8), m[k].mem);
        /* itofs/ftois are the same mappings through integer registers */
        f->cpu.reg[1] = m[k].mem;
        run1(f, al_fop(ALO_ITFP, FN11_ITOFS, 1, 31, F2));
        assert_int_equal(f->cpu.reg[FREG(F2)], m[k].reg);
        run1(f, al_fop(ALO_FPTI, FN11_FTOIS, F2, 31, 2));
        assert_int_equal(f->cpu.reg[2], (uint64_t)(int64_t)(int32_t)m[k].mem);
    }
    /* sts keeps bits 63:62 and 58:29: low fraction bits are dropped */
    f->cpu.reg[FREG(F1)] = T_THIRD;
    run1(f, al_mem(ALO_STS, F1, R_A0, 8));
    assert_int_equal(mem_load32(f->mem, DATA + 8), 0x3eaaaaaa);
    /* ldt/stt move 64 bits unchanged; f31 stores zero, loads to it are prefetches */
    mem_store64(f->mem, DATA + 16, 0xfff0000000000123ull);
    run1(f, al_mem(ALO_LDT, F1, R_A0, 16));
    assert_int_equal(f->cpu.reg[FREG(F1)], 0xfff0000000000123ull);
    run1(f, al_mem(ALO_STT, F31, R_A0, 16));
    assert_int_equal(mem_load64(f->mem, DATA + 16), 0);
    f->cpu.reg[R_A0] = 0x900000000ull;                          /* unmapped */
    run1(f, al_mem(ALO_LDT, F31, R_A0, 0));
    run1(f, al_mem(ALO_LDS, F31, R_A0, 0));
    assert_int_equal(exec1(f, al_mem(ALO_LDT, F1, R_A0, 0)), STOP_MEM_FAULT);
}

/* ---- compares ----------------------------------------------------------------------------- */
static void test_compares(void **state)
{
    fixture_t *f = *state;
    static const struct { uint64_t a, b; uint64_t eq, lt, le, un; uint64_t inv_eq, inv_lt; } c[] = {
        { T_1, T_2, 0, T_2, T_2, 0, 0, 0 },
        { T_2, T_1, 0, 0, 0, 0, 0, 0 },
        { T_1, T_1, T_2, 0, T_2, 0, 0, 0 },
        { T_M0, T_0, T_2, 0, T_2, 0, 0, 0 },
        { T_NINF, T_INF, 0, T_2, T_2, 0, 0, 0 },
        { T_INF, T_INF, T_2, 0, T_2, 0, 0, 0 },
        { T_DEN1, 0x2ull, 0, T_2, T_2, 0, 0, 0 },
        { T_QNAN, T_1, 0, 0, 0, T_2, 0, INV },
        { T_1, T_SNAN, 0, 0, 0, T_2, INV, INV },
        { T_QNAN, T_QNAN, 0, 0, 0, T_2, 0, INV },
    };
    for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
        assert_int_equal(ieee2(f, FN_CMPTEQ, QSU | QN, c[k].a, c[k].b), c[k].eq);
        assert_int_equal(STATUS(&f->cpu), c[k].inv_eq);
        assert_int_equal(ieee2(f, FN_CMPTUN, QSU | QN, c[k].a, c[k].b), c[k].un);
        assert_int_equal(STATUS(&f->cpu), c[k].inv_eq);
        assert_int_equal(ieee2(f, FN_CMPTLT, QSU | QN, c[k].a, c[k].b), c[k].lt);
        assert_int_equal(STATUS(&f->cpu), c[k].inv_lt);
        assert_int_equal(ieee2(f, FN_CMPTLE, QSU | QN, c[k].a, c[k].b), c[k].le);
        assert_int_equal(STATUS(&f->cpu), c[k].inv_lt);
    }
}

/* ---- conversions ---------------------------------------------------------------------------- */
static void test_cvttq(void **state)
{
    fixture_t *f = *state;
    static const struct { uint64_t x; int64_t c, n, m, p; } v[] = {
        { 0x4004000000000000ull, 2, 2, 2, 3 },        /* 2.5  */
        { 0x400c000000000000ull, 3, 4, 3, 4 },        /* 3.5  */
        { 0xc004000000000000ull, -2, -2, -3, -2 },    /* -2.5 */
        { 0x4005a3d70a3d70a4ull, 2, 3, 2, 3 },        /* 2.705 */
        { 0xc005a3d70a3d70a4ull, -2, -3, -3, -2 },
        { 0x3fe0000000000001ull, 0, 1, 0, 1 },        /* just above 0.5 */
        { T_DEN1, 0, 0, 0, 1 },                       /* a sticky bit */
        { T_DEN1 | T_M0, 0, 0, -1, 0 },
        { 0x43dfffffffffffffull, 0x7ffffffffffffc00ll, 0x7ffffffffffffc00ll, 0x7ffffffffffffc00ll,
          0x7ffffffffffffc00ll },
    };
    for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++) {
        assert_int_equal(ieee1(f, FN_CVTTQ, QSV | QC, v[k].x), (uint64_t)v[k].c);
        assert_int_equal(STATUS(&f->cpu), 0);                    /* /SV: INE ignored */
        assert_int_equal(ieee1(f, FN_CVTTQ, QSV | QN, v[k].x), (uint64_t)v[k].n);
        assert_int_equal(ieee1(f, FN_CVTTQ, QSV | QM, v[k].x), (uint64_t)v[k].m);
        fresh(f, AL_RND_PLUS);
        assert_int_equal(ieee1(f, FN_CVTTQ, QSVI | QD, v[k].x), (uint64_t)v[k].p);
        assert_int_equal(STATUS(&f->cpu), (v[k].x & 0x000fffffffffffffull) && k != 8 ? INE : 0);
        fresh(f, AL_RND_NORMAL);
    }
    /* integer overflow: the low 64 bits of the integer, IOV (and INE) */
    assert_int_equal(ieee1(f, FN_CVTTQ, QSV | QC, 0x46293e5939a08ceaull), 5076964154930102272ull);
    assert_int_equal(STATUS(&f->cpu), IOV);
    assert_int_equal(ieee1(f, FN_CVTTQ, QSVI | QC, 0xc6293e5939a08ceaull),
                     (uint64_t)-5076964154930102272ll);
    assert_int_equal(STATUS(&f->cpu), IOV | INE);
    assert_int_equal(ieee1(f, FN_CVTTQ, QSV | QC, 0x43e0000000000000ull), 0x8000000000000000ull);
    assert_int_equal(STATUS(&f->cpu), IOV);
    assert_int_equal(ieee1(f, FN_CVTTQ, QSV | QC, 0xc3e0000000000000ull), 0x8000000000000000ull);
    assert_int_equal(STATUS(&f->cpu), 0);                        /* -2^63 fits */
    assert_int_equal(ieee1(f, FN_CVTTQ, QSV | QC, 0x4630000000000000ull), 0);   /* 2^100 */
    assert_int_equal(STATUS(&f->cpu), IOV);
    /* without /V, overflow is recorded (no /S) but does not trap */
    assert_int_equal(ieee1(f, FN_CVTTQ, QC, 0x4630000000000000ull), 0);
    assert_int_equal(STATUS(&f->cpu), IOV | INE);
    assert_int_equal(ieee1(f, FN_CVTTQ, QC, 0x4004000000000000ull), 2);
    assert_int_equal(STATUS(&f->cpu), INE);
    /* NaN and infinity: 0, invalid */
    assert_int_equal(ieee1(f, FN_CVTTQ, QSV | QC, T_QNAN), 0);
    assert_int_equal(STATUS(&f->cpu), INV);
    assert_int_equal(ieee1(f, FN_CVTTQ, QSV | QC, T_NINF), 0);
    assert_int_equal(STATUS(&f->cpu), INV);
    /* /V without /S traps on overflow; IOV traps with /S only when the swcr
     * enables invalid-operation traps */
    f->cpu.reg[FREG(F2)] = 0x4630000000000000ull;
    assert_int_equal(exec1(f, al_ieee(FN_CVTTQ, QV | QC, F31, F2, F3)), STOP_ARITH_TRAP);
    f->cpu.fpcr &= ~AL_FPCR_INVD;
    assert_int_equal(ieee1(f, FN_CVTTQ, QSV | QC, 0x4630000000000000ull), 0);
    f->cpu.swcr = AL_SWCR_TRAP_ENABLE_INV;
    assert_int_equal(exec1(f, al_ieee(FN_CVTTQ, QSV | QC, F31, F2, F3)), STOP_ARITH_TRAP);
    assert_int_equal(f->cpu.stop_info, FPE_FLTINV);
    f->cpu.swcr = 0;
}

static void test_integer_to_fp(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(ieee1(f, FN_CVTQT, QN, 5), 0x4014000000000000ull);
    assert_int_equal(ieee1(f, FN_CVTQT, QN, (uint64_t)-3), 0xc008000000000000ull);
    assert_int_equal(ieee1(f, FN_CVTQS, QN, 5), 0x4014000000000000ull);
    /* 2^53 + 1: ties to even, chopped, minus, plus via /D */
    uint64_t big = (1ull << 53) + 1, nbig = (uint64_t)-(int64_t)big;
    assert_int_equal(ieee1(f, FN_CVTQT, QN, big), 0x4340000000000000ull);
    assert_int_equal(STATUS(&f->cpu), 0);                        /* no /I: nothing */
    assert_int_equal(ieee1(f, FN_CVTQT, QSUI | QN, big), 0x4340000000000000ull);
    assert_int_equal(STATUS(&f->cpu), INE);
    assert_int_equal(ieee1(f, FN_CVTQT, QC, nbig), 0xc340000000000000ull);
    assert_int_equal(ieee1(f, FN_CVTQT, QM, nbig), 0xc340000000000001ull);
    fresh(f, AL_RND_PLUS);
    assert_int_equal(ieee1(f, FN_CVTQT, QD, big), 0x4340000000000001ull);
    fresh(f, AL_RND_NORMAL);
    assert_int_equal(ieee1(f, FN_CVTQT, QN, (1ull << 53) + 3), 0x4340000000000002ull);
    assert_int_equal(ieee1(f, FN_CVTQT, QN, 0x8000000000000000ull), 0xc3e0000000000000ull);
    /* singles: 2^24 + 1 */
    assert_int_equal(ieee1(f, FN_CVTQS, QN, (1ull << 24) + 1), 0x4170000000000000ull);
    assert_int_equal(ieee1(f, FN_CVTQS, QSUI | QC, (1ull << 24) + 3), 0x4170000020000000ull);
    assert_int_equal(STATUS(&f->cpu), INE);
}

static void test_cvtts_cvtst(void **state)
{
    fixture_t *f = *state;
    /* T to S rounds: 1/3 */
    assert_int_equal(ieee1(f, FN_CVTTS, QSU | QN, T_THIRD), 0x3fd5555560000000ull);
    assert_int_equal(ieee1(f, FN_CVTTS, QSU | QC, T_THIRD), 0x3fd5555540000000ull);
    assert_int_equal(ieee1(f, FN_CVTTS, QSUI | QN, T_THIRD), 0x3fd5555560000000ull);
    assert_int_equal(STATUS(&f->cpu), INE);
    /* out of range: overflow; tiny: a float denormal with /U, zero without */
    assert_int_equal(ieee1(f, FN_CVTTS, QSU | QN, 0x47efffffffffffffull), T_INF);
    assert_int_equal(STATUS(&f->cpu), OVF);
    assert_int_equal(ieee1(f, FN_CVTTS, QSU | QN, 0x36a0000000000000ull), 0x0000000020000000ull);
    assert_int_equal(STATUS(&f->cpu), 0);                        /* 2^-149 exact */
    assert_int_equal(ieee1(f, FN_CVTTS, QSU | QN, 0x3698000000000000ull), 0x0000000020000000ull);
    assert_int_equal(STATUS(&f->cpu), UNF);
    assert_int_equal(ieee1(f, FN_CVTTS, QN, 0x36a0000000000000ull), T_0);
    assert_int_equal(STATUS(&f->cpu), 0);
    assert_int_equal(ieee1(f, FN_CVTTS, QSU | QN, 0x380fffffffffffffull), 0x3810000000000000ull);
    assert_int_equal(STATUS(&f->cpu), 0);                        /* not tiny after rounding */
    assert_int_equal(ieee1(f, FN_CVTTS, QSU | QN, 0x380fffffe0000000ull), 0x3810000000000000ull);
    assert_int_equal(STATUS(&f->cpu), UNF);                      /* tiny, rounded up */
    assert_int_equal(ieee1(f, FN_CVTTS, QN, 0x380fffffffffffffull), T_0);
    /* NaNs keep their top fraction bits, quieted */
    assert_int_equal(ieee1(f, FN_CVTTS, QSU | QN, 0xfff8000000000123ull), 0xfff8000000000000ull);
    assert_int_equal(ieee1(f, FN_CVTTS, QSU | QN, 0x7ff0000020000001ull), 0x7ff8000020000000ull);
    assert_int_equal(STATUS(&f->cpu), INV);
    /* S to T is exact: denormal singles become normal doubles */
    f->cpu.reg[FREG(F2)] = 0x0000000020000000ull;                /* lds of 0x00000001 */
    run1(f, al_fop(ALO_FLTI, FN11_CVTST_S, F31, F2, F3));
    assert_int_equal(f->cpu.reg[FREG(F3)], 0x36a0000000000000ull);
    f->cpu.reg[FREG(F2)] = 0x7ff0000020000000ull;                /* lds of sNaN 0x7f800001 */
    f->cpu.fpcr &= ~AL_FPCR_STATUS;
    run1(f, al_fop(ALO_FLTI, FN11_CVTST_S, F31, F2, F3));
    assert_int_equal(f->cpu.reg[FREG(F3)], 0x7ff8000020000000ull);
    assert_int_equal(STATUS(&f->cpu), INV);
    f->cpu.reg[FREG(F2)] = S_1;
    run1(f, al_fop(ALO_FLTI, FN11_CVTST, F31, F2, F3));
    assert_int_equal(f->cpu.reg[FREG(F3)], T_1);
    f->cpu.reg[FREG(F2)] = 0x0000000020000000ull;                /* plain cvtst: traps */
    assert_int_equal(exec1(f, al_fop(ALO_FLTI, FN11_CVTST, F31, F2, F3)), STOP_ARITH_TRAP);
}

static void test_cvtql_cvtlq(void **state)
{
    fixture_t *f = *state;
    static const struct { uint64_t q, reg; bool ovf; } v[] = {
        { 5, 0x00000000a0000000ull, false },
        { (uint64_t)-5, 0xc7ffffff60000000ull, false },
        { 0x7fffffff, 0x47ffffffe0000000ull, false },
        { (uint64_t)-0x80000000ll, 0x8000000000000000ull, false },
        { 0x80000000ull, 0x8000000000000000ull, true },
        { 0x123456789ull, 0x0468acf120000000ull, true },
    };
    for (unsigned k = 0; k < sizeof v / sizeof v[0]; k++) {
        assert_int_equal(fop1(f, ALO_FLTL, FN11_CVTQL, v[k].q), v[k].reg);
        assert_int_equal(STATUS(&f->cpu), v[k].ovf ? IOV | INE : 0);   /* no /S: recorded */
        assert_int_equal(fop1(f, ALO_FLTL, FN11_CVTQL_SV, v[k].q), v[k].reg);
        assert_int_equal(STATUS(&f->cpu), v[k].ovf ? IOV : 0);
        /* back with cvtlq: the low 32 bits, sign-extended */
        assert_int_equal(fop1(f, ALO_FLTL, FN11_CVTLQ, v[k].reg),
                         (uint64_t)(int64_t)(int32_t)(uint32_t)v[k].q);
    }
    /* cvtlq ignores bits 61:59 */
    assert_int_equal(fop1(f, ALO_FLTL, FN11_CVTLQ, 0x38000000a0000000ull), 5);
    f->cpu.reg[FREG(F2)] = 0x123456789ull;
    assert_int_equal(exec1(f, al_fop(ALO_FLTL, FN11_CVTQL_V, F31, F2, F3)), STOP_ARITH_TRAP);
}

/* ---- moves, branches, f31 ---------------------------------------------------------------- */
static void test_cpys_family(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(fop(f, ALO_FLTL, FN11_CPYS, T_M1, T_3), 0xc008000000000000ull);
    assert_int_equal(fop(f, ALO_FLTL, FN11_CPYS, T_1, T_M1), T_1);
    assert_int_equal(fop(f, ALO_FLTL, FN11_CPYSN, T_1, T_3), 0xc008000000000000ull);
    assert_int_equal(fop(f, ALO_FLTL, FN11_CPYSN, T_M1, T_3), T_3);
    assert_int_equal(fop(f, ALO_FLTL, FN11_CPYSE, T_M1, 0x4008123456789abcull), 0xbff8123456789abcull);
    assert_int_equal(fop(f, ALO_FLTL, FN11_CPYS, T_QNAN | T_M0, T_SNAN), T_SNAN | T_M0);  /* no NaN rules */
    assert_int_equal(STATUS(&f->cpu), 0);
    /* fabs = cpys f31,fb,fc; fneg = cpysn fa,fa,fc; fclr = cpys f31,f31,fc */
    f->cpu.reg[FREG(F2)] = T_M1;
    run1(f, al_fop(ALO_FLTL, FN11_CPYS, F31, F2, F3));
    assert_int_equal(f->cpu.reg[FREG(F3)], T_1);
    run1(f, al_fop(ALO_FLTL, FN11_CPYSN, F3, F3, F3));
    assert_int_equal(f->cpu.reg[FREG(F3)], T_M1);
    run1(f, al_fop(ALO_FLTL, FN11_CPYS, F31, F31, F3));
    assert_int_equal(f->cpu.reg[FREG(F3)], T_0);
}

static void test_fcmov_and_branches(void **state)
{
    fixture_t *f = *state;
    /* conditions on the bit pattern, -0.0 counting as zero */
    static const struct { uint64_t v; unsigned taken; } c[] = {  /* eq ne lt ge le gt */
        { T_0, 0x19 }, { T_M0, 0x19 }, { T_1, 0x2a }, { T_M1, 0x16 },
        { T_QNAN, 0x2a }, { T_QNAN | T_M0, 0x16 }, { T_DEN1, 0x2a },
    };
    static const uint32_t fcmov[6] = { FN11_FCMOVEQ, FN11_FCMOVNE, FN11_FCMOVLT, FN11_FCMOVGE,
                                       FN11_FCMOVLE, FN11_FCMOVGT };
    static const uint32_t fb[6] = { ALO_FBEQ, ALO_FBNE, ALO_FBLT, ALO_FBGE, ALO_FBLE, ALO_FBGT };
    for (unsigned k = 0; k < sizeof c / sizeof c[0]; k++) {
        for (unsigned j = 0; j < 6; j++) {
            bool taken = (c[k].taken >> j) & 1;
            f->cpu.reg[FREG(F1)] = c[k].v;
            f->cpu.reg[FREG(F2)] = T_3;
            f->cpu.reg[FREG(F3)] = T_4;
            run1(f, al_fop(ALO_FLTL, fcmov[j], F1, F2, F3));
            assert_int_equal(f->cpu.reg[FREG(F3)], taken ? T_3 : T_4);
            insn_t in;
            assert_true(al_decode_word(PC, al_br(fb[j], F1, 16), &in));
            f->cpu.pc = PC + 4;
            in.exec(&f->cpu, &in);
            assert_int_equal(f->cpu.pc, taken ? PC + 4 + 64 : PC + 4);
            assert_int_equal(in.taken, taken);
        }
    }
}

static void test_f31(void **state)
{
    fixture_t *f = *state;
    /* f31 reads as +0.0 ... */
    f->cpu.reg[FREG(F1)] = T_M1;
    run1(f, al_ieee(FN_ADDT, QSU | QN, F1, F31, F3));
    assert_int_equal(f->cpu.reg[FREG(F3)], T_M1);
    run1(f, al_ieee(FN_MULT, QSU | QN, F31, F1, F3));
    assert_int_equal(f->cpu.reg[FREG(F3)], T_M0);
    /* ... writes to it are discarded (fnop = cpys f31,f31,f31) */
    run1(f, al_ieee(FN_ADDT, QSU | QN, F1, F1, F31));
    run1(f, al_fop(ALO_FLTL, FN11_CPYSN, F31, F31, F31));
    run1(f, al_fop(ALO_FLTL, FN11_MF_FPCR, F31, F31, F31));
    assert_int_equal(f->cpu.reg[REG_FZERO], 0);
    run1(f, al_ieee(FN_ADDT, QSU | QN, F31, F31, F3));
    assert_int_equal(f->cpu.reg[FREG(F3)], T_0);
    /* a non-/S operation on f31 does not trap */
    run1(f, al_ieee(FN_SUBT, QC, F31, F31, F3));
    assert_int_equal(f->cpu.reg[FREG(F3)], T_0);
}

static void test_itof_ftoi(void **state)
{
    fixture_t *f = *state;
    f->cpu.reg[1] = 0xfff0000000000123ull;
    run1(f, al_fop(ALO_ITFP, FN11_ITOFT, 1, 31, F1));
    assert_int_equal(f->cpu.reg[FREG(F1)], 0xfff0000000000123ull);
    run1(f, al_fop(ALO_FPTI, FN11_FTOIT, F1, 31, 2));
    assert_int_equal(f->cpu.reg[2], 0xfff0000000000123ull);
    run1(f, al_fop(ALO_FPTI, FN11_FTOIT, F31, 31, 2));
    assert_int_equal(f->cpu.reg[2], 0);
    f->cpu.reg[1] = 0xffffffffbf800000ull;                       /* itofs uses bits 31:0 */
    run1(f, al_fop(ALO_ITFP, FN11_ITOFS, 1, 31, F1));
    assert_int_equal(f->cpu.reg[FREG(F1)], T_M1);
}

static void test_sqrt(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(fop1(f, ALO_ITFP, QSU | QN | FN_SQRTT, T_4), T_2);
    assert_int_equal(fop1(f, ALO_ITFP, QSU | QN | FN_SQRTT, T_2), 0x3ff6a09e667f3bcdull);
    assert_int_equal(fop1(f, ALO_ITFP, QSU | QC | FN_SQRTT, T_2), 0x3ff6a09e667f3bccull);
    assert_int_equal(fop1(f, ALO_ITFP, QSUI | QN | FN_SQRTT, T_2), 0x3ff6a09e667f3bcdull);
    assert_int_equal(STATUS(&f->cpu), INE);
    assert_int_equal(fop1(f, ALO_ITFP, QSU | QN | FN_SQRTT, T_M1), T_QNAN);
    assert_int_equal(STATUS(&f->cpu), INV);
    assert_int_equal(fop1(f, ALO_ITFP, QSU | QN | FN_SQRTT, T_M0), T_M0);
    assert_int_equal(STATUS(&f->cpu), 0);
    assert_int_equal(fop1(f, ALO_ITFP, QSU | QN | FN_SQRTT, T_INF), T_INF);
    assert_int_equal(fop1(f, ALO_ITFP, QSU | QN | FN_SQRTT, T_DEN1), 0x1e60000000000000ull);
    assert_int_equal(fop1(f, ALO_ITFP, QSU | QN | FN_SQRTT, T_SNAN), T_SNAN | 0x0008000000000000ull);
    assert_int_equal(STATUS(&f->cpu), INV);
    assert_int_equal(fop1(f, ALO_ITFP, QSU | QN | FN_SQRTS, T_2), 0x3ff6a09e60000000ull);
    fresh(f, AL_RND_PLUS);
    assert_int_equal(fop1(f, ALO_ITFP, QSU | QD | FN_SQRTS, T_2), 0x3ff6a09e80000000ull);
    fresh(f, AL_RND_NORMAL);
    assert_int_equal(fop1(f, ALO_ITFP, QSU | QN | FN_SQRTS, 0xc010000000000000ull), T_QNAN);
    assert_int_equal(STATUS(&f->cpu), INV);
}

static void test_nan_propagation(void **state)
{
    fixture_t *f = *state;
    /* one NaN: it, quieted (invalid if it signaled) */
    assert_int_equal(ieee2(f, FN_ADDT, QSU | QN, 0x7ff8000000000001ull, T_1), 0x7ff8000000000001ull);
    assert_int_equal(STATUS(&f->cpu), 0);
    assert_int_equal(ieee2(f, FN_ADDT, QSU | QN, T_1, 0x7ff8000000000002ull), 0x7ff8000000000002ull);
    assert_int_equal(ieee2(f, FN_ADDT, QSU | QN, T_SNAN, T_1), 0x7ff8000000000001ull);
    assert_int_equal(STATUS(&f->cpu), INV);
    assert_int_equal(ieee2(f, FN_MULT, QSU | QN, T_1, 0xfff0000000000005ull), 0xfff8000000000005ull);
    /* two: a quiet one beats a signaling one, else the larger significand,
     * else the positive one */
    assert_int_equal(ieee2(f, FN_ADDT, QSU | QN, 0x7ff8000000000001ull, 0x7ff8000000000002ull),
                     0x7ff8000000000002ull);
    assert_int_equal(ieee2(f, FN_ADDT, QSU | QN, 0x7ff8000000000002ull, 0x7ff8000000000001ull),
                     0x7ff8000000000002ull);
    assert_int_equal(ieee2(f, FN_ADDT, QSU | QN, 0xfff8000000000003ull, 0x7ff8000000000003ull),
                     0x7ff8000000000003ull);
    assert_int_equal(ieee2(f, FN_ADDT, QSU | QN, T_SNAN, T_QNAN), T_QNAN);
    assert_int_equal(STATUS(&f->cpu), INV);
    assert_int_equal(ieee2(f, FN_ADDT, QSU | QN, T_QNAN, T_SNAN), T_QNAN);
    assert_int_equal(ieee2(f, FN_ADDT, QSU | QN, T_SNAN, 0x7ff0000000000002ull), 0x7ff8000000000002ull);
    /* invalid operations give +quiet NaN */
    assert_int_equal(ieee2(f, FN_MULT, QSU | QN, T_INF, T_M0), T_QNAN);
    assert_int_equal(ieee2(f, FN_DIVS, QSU | QN, T_0, T_0), T_QNAN);
    /* singles: the float NaN's fraction in register layout */
    assert_int_equal(ieee2(f, FN_ADDS, QSU | QN, 0x7ff8000020000000ull, T_1), 0x7ff8000020000000ull);
    assert_int_equal(ieee2(f, FN_ADDS, QSU | QN, 0x7ff0000020000000ull, T_1), 0x7ff8000020000000ull);
    assert_int_equal(STATUS(&f->cpu), INV);
    assert_int_equal(ieee2(f, FN_ADDS, QSU | QN, 0x7ff8000020000000ull, 0x7ff8000040000000ull),
                     0x7ff8000040000000ull);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_qualifier_legality),
        cmocka_unit_test(test_decoded_fields),
        cmocka_unit_test_setup_teardown(test_basic_arithmetic, setup, teardown),
        cmocka_unit_test_setup_teardown(test_rounding_qualifiers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_moderate_against_host, setup, teardown),
        cmocka_unit_test_setup_teardown(test_exception_recording, setup, teardown),
        cmocka_unit_test_setup_teardown(test_underflow_to_zero, setup, teardown),
        cmocka_unit_test_setup_teardown(test_denormal_operands, setup, teardown),
        cmocka_unit_test_setup_teardown(test_traps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fpcr_moves, setup, teardown),
        cmocka_unit_test_setup_teardown(test_s_load_store, setup, teardown),
        cmocka_unit_test_setup_teardown(test_compares, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cvttq, setup, teardown),
        cmocka_unit_test_setup_teardown(test_integer_to_fp, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cvtts_cvtst, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cvtql_cvtlq, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cpys_family, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fcmov_and_branches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_f31, setup, teardown),
        cmocka_unit_test_setup_teardown(test_itof_ftoi, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sqrt, setup, teardown),
        cmocka_unit_test_setup_teardown(test_nan_propagation, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
