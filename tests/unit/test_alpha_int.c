/*
 * test_alpha_int.c - unit tests of the Alpha integer front-end through the
 * real decode path (al_decode_word + insn.exec): field extraction, r31
 * handling, register vs literal operate forms, byte manipulation against
 * reference implementations written from the Handbook's BYTE_ZAP
 * definitions, loads/stores and ldq_u/stq_u, LL/SC, control transfers and
 * their classification, multiplies, /V traps, CIX/MVI, PAL calls, decoding
 * through the core's run loop, and libopcodes disassembly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <cmocka.h>

#include "alpha_encode.h"
#include "alpha.h"
#include "pmu.h"
#include "core.h"
#include "disasm.h"
#include "engine.h"
#include "dise.h"
#include "hps_op_markers.h"
#include "runtime.h"
#include "mem.h"
#include "sys.h"

/* ---- opcodes and registers ------------------------------------------------ */
enum { INTA = 0x10, INTL = 0x11, INTS = 0x12, INTM = 0x13, FPTI = 0x1c };
enum { OP_LDA = 0x08, OP_LDAH = 0x09, OP_LDBU = 0x0a, OP_LDQ_U = 0x0b, OP_LDWU = 0x0c,
       OP_STW = 0x0d, OP_STB = 0x0e, OP_STQ_U = 0x0f, OP_LDL = 0x28, OP_LDQ = 0x29,
       OP_LDL_L = 0x2a, OP_LDQ_L = 0x2b, OP_STL = 0x2c, OP_STQ = 0x2d, OP_STL_C = 0x2e,
       OP_STQ_C = 0x2f, OP_BR = 0x30, OP_BSR = 0x34, OP_BLBC = 0x38, OP_BEQ = 0x39,
       OP_BLT = 0x3a, OP_BLE = 0x3b, OP_BLBS = 0x3c, OP_BNE = 0x3d, OP_BGE = 0x3e,
       OP_BGT = 0x3f };
enum { R_V0 = 0, R_T0 = 1, R_T1 = 2, R_A0 = 16, R_A1 = 17, R_A2 = 18, R_A3 = 19, R_RA = 26, R_PV = 27,
       R_SP = 30, R_ZERO = 31 };

#define DATA 0x10000u              /* a mapped read/write data region */
#define PC   0x1000u               /* where run1 pretends instructions are */

typedef struct fixture {
    cpu_t cpu;
    mem_t *mem;
} fixture_t;

static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof *f);
    f->mem = mem_new();
    cpu_init(&f->cpu, &isa_alpha, f->mem);
    mem_map(f->mem, DATA, 0x4000, MEM_PROT_READ | MEM_PROT_WRITE);
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

static insn_t decode(uint32_t word)
{
    insn_t in;
    assert_true(al_decode_word(PC, word, &in));
    return in;
}

/* Decode and execute one instruction at PC; returns the record. */
static insn_t run1(fixture_t *f, uint32_t word)
{
    insn_t in = decode(word);
    f->cpu.pc = PC + 4;
    in.exec(&f->cpu, &in);
    return in;
}

/* Execute one instruction that may stop the cpu (trap, fault): returns
 * the stop reason, STOP_NONE if it completed. */
static stop_reason_t run1_stop(fixture_t *f, uint32_t word)
{
    static insn_t in;
    jmp_buf jb;
    in = decode(word);
    f->cpu.stop = STOP_NONE;
    f->cpu.stop_info = 0;
    f->cpu.stop_jmp = &jb;
    f->mem->fault_jmp = &jb;
    if (setjmp(jb) == 0) {
        f->cpu.pc = PC + 4;
        in.exec(&f->cpu, &in);
    } else if (f->cpu.stop == STOP_NONE) {
        f->cpu.stop = STOP_MEM_FAULT;                 /* longjmp from mem_raise */
    }
    f->cpu.stop_jmp = NULL;
    f->mem->fault_jmp = NULL;
    return f->cpu.stop;
}

/* op a0, a1 -> v0 in register form. */
static uint64_t opr(fixture_t *f, uint32_t op, uint32_t fn, uint64_t a, uint64_t b)
{
    f->cpu.reg[R_A0] = a;
    f->cpu.reg[R_A1] = b;
    f->cpu.reg[R_V0] = 0xdeadbeef;
    run1(f, al_opr(op, fn, R_A0, R_A1, R_V0));
    return f->cpu.reg[R_V0];
}

/* op a0, #lit -> v0 in literal form. */
static uint64_t opr_lit(fixture_t *f, uint32_t op, uint32_t fn, uint64_t a, uint32_t lit)
{
    f->cpu.reg[R_A0] = a;
    f->cpu.reg[R_V0] = 0xdeadbeef;
    run1(f, al_opr_lit(op, fn, R_A0, lit, R_V0));
    return f->cpu.reg[R_V0];
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* ---- decoding ------------------------------------------------------------- */
static void test_operand_extraction(void **state)
{
    (void)state;
    insn_t in = decode(al_opr(INTA, 0x20, R_A0, R_A1, R_V0));            /* addq a0,a1,v0 */
    assert_int_equal(in.rs1, R_A0);
    assert_int_equal(in.rs2, R_A1);
    assert_int_equal(in.rd, R_V0);
    assert_int_equal(in.rs3, REG_NONE);
    assert_string_equal(isa_alpha.table[in.op].name, "addq");
    insn_t lit = decode(al_opr_lit(INTA, 0x20, R_A0, 200, R_V0));      /* addq a0,200,v0 */
    assert_int_equal(lit.rs1, R_A0);
    assert_int_equal(lit.rs2, REG_NONE);
    assert_int_equal(lit.imm, 200);
    assert_int_not_equal(lit.op, in.op);                          /* its own row ... */
    assert_string_equal(isa_alpha.table[lit.op].name, "addq");        /* ... same mnemonic */
    assert_ptr_not_equal(lit.exec, in.exec);

    in = decode(al_mem(OP_LDQ, R_V0, R_SP, -8));                       /* ldq v0,-8(sp) */
    assert_int_equal(in.rd, R_V0);
    assert_int_equal(in.rs1, R_SP);
    assert_int_equal(in.imm, -8);
    assert_int_equal(in.memsize, 8);
    assert_true(in.flags & IF_LOAD);
    assert_int_equal(in.opclass, OC_LOAD);
    in = decode(al_mem(OP_LDAH, 29, R_PV, -2));                     /* ldah gp,-2(pv) */
    assert_int_equal(in.imm, -2 * 65536);
    in = decode(al_mem(OP_STL, R_A1, R_A0, 0x7ffc));
    assert_int_equal(in.rs1, R_A0);
    assert_int_equal(in.rs2, R_A1);
    assert_int_equal(in.rd, REG_NONE);
    assert_true(in.flags & IF_STORE);
    assert_int_equal(in.opclass, OC_STORE);
    assert_int_equal(in.memsize, 4);

    in = decode(al_opr(INTL, 0x24, R_A0, R_A1, R_V0));                  /* cmoveq: old Rc read */
    assert_int_equal(in.rs3, R_V0);
    in = decode(al_opr(FPTI, 0x30, R_ZERO, R_A1, R_V0));                /* ctpop a1,v0 */
    assert_int_equal(in.rs1, R_A1);
    assert_int_equal(in.rs2, REG_NONE);
    assert_int_equal(in.len, 4);
}

static void test_illegal_words(void **state)
{
    (void)state;
    insn_t in;
    assert_false(al_decode_word(PC, 0x04000000, &in));                 /* opcode 0x01 */
    assert_false(al_decode_word(PC, 0x19u << 26, &in));                /* hw_mfpr */
    assert_false(al_decode_word(PC, al_opr(INTA, 0x01, R_A0, R_A1, R_V0), &in)); /* no fn 0x01 */
    assert_false(al_decode_word(PC, al_mfc(0xe000, R_V0, R_ZERO), &in));   /* rc (VAX) */
    assert_false(al_decode_word(PC, al_mfc(0x1234, R_V0, R_ZERO), &in));
    uint8_t bytes[4] = { 0x00, 0x04, 0x11, 0x42 };                    /* addq a0,a1,v0 */
    assert_true(isa_alpha.decode(PC, bytes, 4, &in));
    assert_false(isa_alpha.decode(PC + 2, bytes, 4, &in));            /* misaligned */
    assert_false(isa_alpha.decode(PC, bytes, 2, &in));                /* short */
}

/* ---- arithmetic ------------------------------------------------------------ */
static void test_add_sub_compare(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(opr(f, INTA, 0x00, 0x7fffffff, 1), 0xffffffff80000000ull);      /* addl */
    assert_int_equal(opr(f, INTA, 0x00, 0x1234500000001ull, 2), 3);                  /* high ignored */
    assert_int_equal(opr(f, INTA, 0x02, 0x40000000, 1), 1);                          /* s4addl wraps */
    assert_int_equal(opr(f, INTA, 0x12, 3, 1), 25);                                  /* s8addl */
    assert_int_equal(opr(f, INTA, 0x09, 0, 1), UINT64_MAX);                          /* subl */
    assert_int_equal(opr(f, INTA, 0x0b, 1, 5), (uint64_t)-1);                        /* s4subl */
    assert_int_equal(opr(f, INTA, 0x1b, 1, 5), 3);                                   /* s8subl */
    assert_int_equal(opr(f, INTA, 0x20, UINT64_MAX, 2), 1);                          /* addq */
    assert_int_equal(opr(f, INTA, 0x22, 1ull << 62, 1), 1);                          /* s4addq */
    assert_int_equal(opr(f, INTA, 0x32, 2, 1), 17);                                  /* s8addq */
    assert_int_equal(opr(f, INTA, 0x29, 5, 7), (uint64_t)-2);                        /* subq */
    assert_int_equal(opr(f, INTA, 0x2b, 5, 7), 13);                                  /* s4subq */
    assert_int_equal(opr(f, INTA, 0x3b, 5, 7), 33);                                  /* s8subq */
    assert_int_equal(opr(f, INTA, 0x2d, 7, 7), 1);                                   /* cmpeq */
    assert_int_equal(opr(f, INTA, 0x4d, (uint64_t)-1, 0), 1);                        /* cmplt */
    assert_int_equal(opr(f, INTA, 0x6d, 5, 5), 1);                                   /* cmple */
    assert_int_equal(opr(f, INTA, 0x1d, (uint64_t)-1, 0), 0);                        /* cmpult */
    assert_int_equal(opr(f, INTA, 0x3d, 5, 5), 1);                                   /* cmpule */
}

static void test_logic_and_shifts(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(opr(f, INTL, 0x00, 0xff00, 0x0ff0), 0x0f00);                    /* and */
    assert_int_equal(opr(f, INTL, 0x08, 0xff00, 0x0ff0), 0xf000);                    /* bic */
    assert_int_equal(opr(f, INTL, 0x20, 0xff00, 0x0ff0), 0xfff0);                    /* bis */
    assert_int_equal(opr(f, INTL, 0x28, 0, 0x0ff0), ~0x0ff0ull);                     /* ornot */
    assert_int_equal(opr(f, INTL, 0x40, 0xff00, 0x0ff0), 0xf0f0);                    /* xor */
    assert_int_equal(opr(f, INTL, 0x48, 0xff00, 0x0ff0), ~0xf0f0ull);                /* eqv */
    assert_int_equal(opr(f, INTS, 0x39, 1, 63), 1ull << 63);                         /* sll */
    assert_int_equal(opr(f, INTS, 0x39, 1, 64), 1);                                  /* 6 bits */
    assert_int_equal(opr(f, INTS, 0x34, 1ull << 63, 63), 1);                         /* srl */
    assert_int_equal(opr(f, INTS, 0x3c, 1ull << 63, 63), UINT64_MAX);                /* sra */
}

/* Every operate instruction gives the same result for a literal as for a
 * register holding the same value. */
static void test_literal_matches_register_form(void **state)
{
    fixture_t *f = *state;
    static const struct { uint32_t op, fn; } ops[] = {
        { INTA, 0x00 }, { INTA, 0x02 }, { INTA, 0x09 }, { INTA, 0x0b }, { INTA, 0x0f },
        { INTA, 0x12 }, { INTA, 0x1b }, { INTA, 0x1d }, { INTA, 0x20 }, { INTA, 0x22 },
        { INTA, 0x29 }, { INTA, 0x2b }, { INTA, 0x2d }, { INTA, 0x32 }, { INTA, 0x3b },
        { INTA, 0x3d }, { INTA, 0x4d }, { INTA, 0x6d },
        { INTL, 0x00 }, { INTL, 0x08 }, { INTL, 0x20 }, { INTL, 0x28 }, { INTL, 0x40 },
        { INTL, 0x48 },
        { INTS, 0x02 }, { INTS, 0x06 }, { INTS, 0x0b }, { INTS, 0x12 }, { INTS, 0x16 },
        { INTS, 0x1b }, { INTS, 0x22 }, { INTS, 0x26 }, { INTS, 0x2b }, { INTS, 0x30 },
        { INTS, 0x31 }, { INTS, 0x32 }, { INTS, 0x34 }, { INTS, 0x36 }, { INTS, 0x39 },
        { INTS, 0x3b }, { INTS, 0x3c }, { INTS, 0x52 }, { INTS, 0x57 }, { INTS, 0x5a },
        { INTS, 0x62 }, { INTS, 0x67 }, { INTS, 0x6a }, { INTS, 0x72 }, { INTS, 0x77 },
        { INTS, 0x7a },
        { INTM, 0x00 }, { INTM, 0x20 }, { INTM, 0x30 },
        { FPTI, 0x31 }, { FPTI, 0x38 }, { FPTI, 0x39 }, { FPTI, 0x3a }, { FPTI, 0x3b },
        { FPTI, 0x3c }, { FPTI, 0x3d }, { FPTI, 0x3e }, { FPTI, 0x3f },
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        for (int trial = 0; trial < 16; trial++) {
            uint64_t a = rnd();
            uint32_t lit = (uint32_t)(rnd() & 0xff);
            uint64_t by_reg = opr(f, ops[k].op, ops[k].fn, a, lit);
            uint64_t by_lit = opr_lit(f, ops[k].op, ops[k].fn, a, lit);
            if (by_reg != by_lit)
                fail_msg("op %#x fn %#x a %#llx lit %u: reg %#llx lit %#llx", ops[k].op,
                         ops[k].fn, (unsigned long long)a, lit, (unsigned long long)by_reg,
                         (unsigned long long)by_lit);
        }
    }
}

/* ---- byte manipulation against the Handbook's definitions ------------------ */
/* BYTE_ZAP(x, mask): clear byte k of x where mask<k> is set. */
static uint64_t ref_zap(uint64_t x, unsigned mask)
{
    uint64_t r = 0;
    for (unsigned k = 0; k < 8; k++)
        if (!(mask >> k & 1)) r |= x & 0xffull << 8 * k;
    return r;
}

static uint64_t ref_zapnot(uint64_t x, unsigned mask) { return ref_zap(x, ~mask & 0xff); }

enum kind { EXT_L, EXT_H, INS_L, INS_H, MSK_L, MSK_H };

/* The ext/ins/msk pseudo-code of Handbook 4.6.2-4.6.4; `bytes` is the field
 * width, so the field mask is the low `bytes` bits set. */
static uint64_t ref_bytes(enum kind kind, unsigned bytes, uint64_t a, uint64_t rb)
{
    unsigned b = rb & 7;
    unsigned field = (1u << bytes) - 1;          /* 1, 3, 0xf, 0xff */
    unsigned mask16 = field << b;                /* byte_mask<15:0> */
    switch (kind) {
    case EXT_L: return ref_zapnot(a >> (b * 8), field);
    case EXT_H: return ref_zapnot(a << ((64 - b * 8) & 63), field);
    case INS_L: return ref_zapnot(a << (b * 8), mask16 & 0xff);
    case INS_H: return ref_zapnot(a >> ((64 - b * 8) & 63), mask16 >> 8);
    case MSK_L: return ref_zap(a, mask16 & 0xff);
    case MSK_H: return ref_zap(a, mask16 >> 8);
    }
    return 0;
}

static void test_ext_ins_msk(void **state)
{
    fixture_t *f = *state;
    static const struct { uint32_t fn; enum kind kind; unsigned bytes; const char *name; } ops[] = {
        { 0x06, EXT_L, 1, "extbl" }, { 0x16, EXT_L, 2, "extwl" }, { 0x26, EXT_L, 4, "extll" },
        { 0x36, EXT_L, 8, "extql" }, { 0x5a, EXT_H, 2, "extwh" }, { 0x6a, EXT_H, 4, "extlh" },
        { 0x7a, EXT_H, 8, "extqh" }, { 0x0b, INS_L, 1, "insbl" }, { 0x1b, INS_L, 2, "inswl" },
        { 0x2b, INS_L, 4, "insll" }, { 0x3b, INS_L, 8, "insql" }, { 0x57, INS_H, 2, "inswh" },
        { 0x67, INS_H, 4, "inslh" }, { 0x77, INS_H, 8, "insqh" }, { 0x02, MSK_L, 1, "mskbl" },
        { 0x12, MSK_L, 2, "mskwl" }, { 0x22, MSK_L, 4, "mskll" }, { 0x32, MSK_L, 8, "mskql" },
        { 0x52, MSK_H, 2, "mskwh" }, { 0x62, MSK_H, 4, "msklh" }, { 0x72, MSK_H, 8, "mskqh" },
    };
    const uint64_t values[] = { 0x0123456789abcdefull, UINT64_MAX, 0, 0x8000000000000001ull };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        assert_string_equal(isa_alpha.table[decode(al_opr(INTS, ops[k].fn, 1, 2, 3)).op].name,
                            ops[k].name);
        for (size_t v = 0; v < 4 + 8; v++) {
            uint64_t a = v < 4 ? values[v] : rnd();
            for (uint64_t b = 0; b < 8; b++) {
                uint64_t rb = b | (rnd() & ~7ull);           /* only Rb<2:0> matters */
                uint64_t want = ref_bytes(ops[k].kind, ops[k].bytes, a, rb);
                uint64_t got = opr(f, INTS, ops[k].fn, a, rb);
                if (got != want)
                    fail_msg("%s a=%#llx b=%llu: got %#llx want %#llx", ops[k].name,
                             (unsigned long long)a, (unsigned long long)b,
                             (unsigned long long)got, (unsigned long long)want);
            }
        }
    }
    /* Spot values from the Handbook's unaligned-access sequences. */
    assert_int_equal(opr(f, INTS, 0x06, 0x0123456789abcdefull, 3), 0x89);            /* extbl */
    assert_int_equal(opr(f, INTS, 0x16, 0x0123456789abcdefull, 7), 0x01);            /* extwl */
    assert_int_equal(opr(f, INTS, 0x5a, 0x0123456789abcdefull, 7), 0xef00);          /* extwh */
    assert_int_equal(opr(f, INTS, 0x7a, 0x0123456789abcdefull, 0), 0x0123456789abcdefull);
    assert_int_equal(opr(f, INTS, 0x77, 0x0123456789abcdefull, 0), 0);               /* insqh b=0 */
    assert_int_equal(opr(f, INTS, 0x72, 0x0123456789abcdefull, 0), 0x0123456789abcdefull);
    assert_int_equal(opr(f, INTS, 0x32, 0x0123456789abcdefull, 0), 0);               /* mskql b=0 */
    assert_int_equal(opr(f, INTS, 0x1b, 0xffffffffffffabcdull, 7), 0xcd00000000000000ull);
    assert_int_equal(opr(f, INTS, 0x57, 0xffffffffffffabcdull, 7), 0xab);            /* inswh */
}

static void test_zap_cmpbge(void **state)
{
    fixture_t *f = *state;
    for (unsigned m = 0; m < 256; m++) {
        uint64_t a = rnd();
        assert_int_equal(opr(f, INTS, 0x30, a, m), ref_zap(a, m));                   /* zap */
        assert_int_equal(opr(f, INTS, 0x31, a, m | 0x300), ref_zapnot(a, m));        /* zapnot */
        assert_int_equal(opr_lit(f, INTS, 0x31, a, m), ref_zapnot(a, m));
    }
    for (int trial = 0; trial < 2000; trial++) {
        uint64_t a = rnd(), b = trial & 1 ? rnd() : a ^ (rnd() & 0x0101010180808080ull);
        if (trial % 7 == 0) b = a;
        unsigned want = 0;
        for (unsigned k = 0; k < 8; k++)
            if ((a >> 8 * k & 0xff) >= (b >> 8 * k & 0xff)) want |= 1u << k;
        assert_int_equal(opr(f, INTA, 0x0f, a, b), want);
    }
    assert_int_equal(opr(f, INTA, 0x0f, 0, 0), 0xff);
    assert_int_equal(opr(f, INTA, 0x0f, 0x0041424300444546ull, 0), 0xff);
    assert_int_equal(opr(f, INTA, 0x0f, 0, 0x6f6c6c6568000000ull), 0x07);        /* zero bytes: strlen idiom */
    assert_int_equal(opr_lit(f, INTA, 0x0f, 0x6f6c6c6568000000ull, 1), 0xfe);
    assert_int_equal(opr(f, INTA, 0x0f, 0, 0x0000000000ff0100ull), 0xf9);
    assert_int_equal(opr(f, INTA, 0x0f, 0x8000000000000000ull, 0x7f00000000000000ull), 0xff);
    assert_int_equal(opr(f, INTA, 0x0f, 0x7f00000000000000ull, 0x8000000000000000ull), 0x7f);
}

/* ---- conditional moves -------------------------------------------------------- */
static void test_cmov(void **state)
{
    fixture_t *f = *state;
    static const struct { uint32_t fn; uint64_t yes, no; } ops[] = {
        { 0x14, 3, 2 },                  /* cmovlbs */
        { 0x16, 2, 3 },                  /* cmovlbc */
        { 0x24, 0, 1 },                  /* cmoveq  */
        { 0x26, 1, 0 },                  /* cmovne  */
        { 0x44, (uint64_t)-1, 0 },       /* cmovlt  */
        { 0x46, 0, (uint64_t)-1 },       /* cmovge  */
        { 0x64, 0, 1 },                  /* cmovle  */
        { 0x66, 1, 0 },                  /* cmovgt  */
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        insn_t in = decode(al_opr(INTL, ops[k].fn, R_A0, R_A1, R_V0));
        assert_int_equal(in.rs3, R_V0);
        f->cpu.reg[R_A0] = ops[k].yes;
        f->cpu.reg[R_A1] = 111;
        f->cpu.reg[R_V0] = 222;
        run1(f, al_opr(INTL, ops[k].fn, R_A0, R_A1, R_V0));
        assert_int_equal(f->cpu.reg[R_V0], 111);
        f->cpu.reg[R_A0] = ops[k].no;
        f->cpu.reg[R_V0] = 222;
        run1(f, al_opr(INTL, ops[k].fn, R_A0, R_A1, R_V0));
        assert_int_equal(f->cpu.reg[R_V0], 222);                 /* old value kept */
        f->cpu.reg[R_A0] = ops[k].yes;
        run1(f, al_opr_lit(INTL, ops[k].fn, R_A0, 77, R_V0));
        assert_int_equal(f->cpu.reg[R_V0], 77);
    }
    run1(f, al_opr_lit(INTL, 0x24, R_ZERO, 5, R_ZERO));             /* cmoveq zero,5,zero */
    assert_int_equal(f->cpu.reg[REG_ZERO], 0);
}

/* ---- r31 --------------------------------------------------------------------------- */
static void test_r31(void **state)
{
    fixture_t *f = *state;
    insn_t in = run1(f, al_opr_lit(INTA, 0x20, R_ZERO, 5, R_ZERO));   /* addq zero,5,zero */
    assert_int_equal(in.rd, REG_SINK);
    assert_int_equal(in.rs1, REG_ZERO);
    assert_int_equal(f->cpu.reg[REG_ZERO], 0);
    f->cpu.reg[R_A0] = 9;
    run1(f, al_opr(INTA, 0x20, R_A0, R_ZERO, R_T0));                     /* addq a0,zero,t0 */
    assert_int_equal(f->cpu.reg[R_T0], 9);
    run1(f, al_mem(OP_LDA, R_T0, R_ZERO, -3));                          /* lda t0,-3(zero) */
    assert_int_equal(f->cpu.reg[R_T0], (uint64_t)-3);

    /* A store of r31 stores zero. */
    f->cpu.reg[R_A0] = DATA;
    mem_write(f->mem, DATA, "\xff\xff\xff\xff\xff\xff\xff\xff", 8);
    run1(f, al_mem(OP_STQ, R_ZERO, R_A0, 0));
    uint64_t v = 1;
    mem_read(f->mem, DATA, &v, 8);
    assert_int_equal(v, 0);

    /* Loads to r31 are prefetches: never fault (Handbook 3.1.2), even when
     * the address is unmapped; ldq_u r31 is unop. */
    f->cpu.reg[R_A0] = 0x7000000;
    static const uint32_t loads[] = { OP_LDBU, OP_LDQ_U, OP_LDWU, OP_LDL, OP_LDQ };
    for (size_t k = 0; k < 5; k++) {
        assert_int_equal(run1_stop(f, al_mem(loads[k], R_ZERO, R_A0, 0)), STOP_NONE);
        assert_int_equal(decode(al_mem(loads[k], R_ZERO, R_A0, 0)).opclass, OC_NOP);
        assert_int_equal(run1_stop(f, al_mem(loads[k], R_T0, R_A0, 0)), STOP_MEM_FAULT);
    }
    assert_int_equal(f->cpu.reg[REG_ZERO], 0);

    /* Other side effects of an r31 destination remain: br/jmp still go. */
    in = run1(f, al_br(OP_BR, R_ZERO, 4));
    assert_int_equal(f->cpu.pc, PC + 4 + 16);
    assert_int_equal(in.taken, 1);
    f->cpu.reg[R_A0] = 0x4000;
    run1(f, al_jmp(0, R_ZERO, R_A0, 0));
    assert_int_equal(f->cpu.pc, 0x4000);
    assert_int_equal(f->cpu.reg[REG_ZERO], 0);
    /* ... and a store-conditional from r31 stores zero. */
    f->cpu.reg[R_A0] = DATA + 8;
    mem_write(f->mem, DATA + 8, "\x11\x11\x11\x11", 4);
    run1(f, al_mem(OP_LDL_L, R_T0, R_A0, 0));
    run1(f, al_mem(OP_STL_C, R_ZERO, R_A0, 0));
    uint32_t w = 1;
    mem_read(f->mem, DATA + 8, &w, 4);
    assert_int_equal(w, 0);
    assert_int_equal(f->cpu.reg[REG_ZERO], 0);
}

/* ---- loads and stores ------------------------------------------------------------- */
static void test_loads_stores(void **state)
{
    fixture_t *f = *state;
    f->cpu.reg[R_A0] = DATA + 0x10;
    f->cpu.reg[R_A1] = 0x8877665544332211ull;
    insn_t in = run1(f, al_mem(OP_STQ, R_A1, R_A0, -8));
    assert_int_equal(f->cpu.mem_addr, DATA + 8);
    run1(f, al_mem(OP_LDBU, R_V0, R_A0, -1));
    assert_int_equal(f->cpu.reg[R_V0], 0x88);                          /* zero-extended */
    run1(f, al_mem(OP_LDWU, R_V0, R_A0, -2));
    assert_int_equal(f->cpu.reg[R_V0], 0x8877);
    run1(f, al_mem(OP_LDL, R_V0, R_A0, -4));
    assert_int_equal(f->cpu.reg[R_V0], 0xffffffff88776655ull);         /* sign-extended */
    run1(f, al_mem(OP_LDQ, R_V0, R_A0, -8));
    assert_int_equal(f->cpu.reg[R_V0], 0x8877665544332211ull);
    f->cpu.reg[R_A1] = 0xaabbccddeeff0102ull;
    run1(f, al_mem(OP_STB, R_A1, R_A0, 0));
    run1(f, al_mem(OP_STW, R_A1, R_A0, 2));
    run1(f, al_mem(OP_STL, R_A1, R_A0, 4));
    run1(f, al_mem(OP_LDQ, R_V0, R_A0, 0));
    assert_int_equal(f->cpu.reg[R_V0], 0xeeff010201020002ull);
    in = decode(al_mem(OP_STB, R_A1, R_A0, 0));
    assert_int_equal(in.memsize, 1);
    in = decode(al_mem(OP_LDWU, R_A1, R_A0, 0));
    assert_int_equal(in.memsize, 2);

    /* Unaligned ldl/ldq/stq: Linux fixes the alignment trap up, so the
     * bytes are simply accessed. */
    f->cpu.reg[R_A1] = 0x0102030405060708ull;
    run1(f, al_mem(OP_STQ, R_A1, R_A0, 3));
    run1(f, al_mem(OP_LDQ, R_V0, R_A0, 3));
    assert_int_equal(f->cpu.reg[R_V0], 0x0102030405060708ull);
    run1(f, al_mem(OP_LDL, R_V0, R_A0, 5));
    assert_int_equal(f->cpu.reg[R_V0], 0x03040506);
    /* Across a page boundary. */
    f->cpu.reg[R_A0] = DATA + 0xffd;
    run1(f, al_mem(OP_STQ, R_A1, R_A0, 0));
    run1(f, al_mem(OP_LDQ, R_V0, R_A0, 0));
    assert_int_equal(f->cpu.reg[R_V0], 0x0102030405060708ull);

    /* lda / ldah compute addresses without touching memory. */
    f->cpu.reg[R_A0] = 0x120000000ull;
    run1(f, al_mem(OP_LDAH, 29, R_A0, 2));
    assert_int_equal(f->cpu.reg[29], 0x120020000ull);
    run1(f, al_mem(OP_LDA, 29, 29, -0x7ff0));
    assert_int_equal(f->cpu.reg[29], 0x120020000ull - 0x7ff0);
    assert_int_equal(decode(al_mem(OP_LDA, 29, 29, 0)).opclass, OC_IALU);

    /* A load from an unmapped page faults. */
    f->cpu.reg[R_A0] = 0x7000000;
    assert_int_equal(run1_stop(f, al_mem(OP_LDQ, R_V0, R_A0, 0)), STOP_MEM_FAULT);
    assert_int_equal(f->mem->fault.addr, 0x7000000);
}

static void test_ldq_u_stq_u(void **state)
{
    fixture_t *f = *state;
    uint64_t q[2] = { 0x0706050403020100ull, 0x0f0e0d0c0b0a0908ull };
    mem_write(f->mem, DATA, q, sizeof q);
    for (int off = 0; off < 16; off++) {
        f->cpu.reg[R_A0] = DATA + (uint64_t)off;
        insn_t in = run1(f, al_mem(OP_LDQ_U, R_V0, R_A0, 0));
        assert_int_equal(f->cpu.reg[R_V0], q[off / 8]);
        assert_int_equal(f->cpu.mem_addr, DATA + (uint64_t)(off & ~7));
        assert_int_equal(in.memsize, 8);
    }
    f->cpu.reg[R_A0] = DATA;
    run1(f, al_mem(OP_LDQ_U, R_V0, R_A0, 13));                  /* disp is added first */
    assert_int_equal(f->cpu.reg[R_V0], q[1]);
    f->cpu.reg[R_A1] = 0xabcdull;
    insn_t in = run1(f, al_mem(OP_STQ_U, R_A1, R_A0, 15));
    assert_int_equal(f->cpu.mem_addr, DATA + 8);
    assert_int_equal(in.memsize, 8);
    uint64_t back[2];
    mem_read(f->mem, DATA, back, sizeof back);
    assert_int_equal(back[0], q[0]);
    assert_int_equal(back[1], 0xabcd);

    /* The classic unaligned load: ldq_u, ldq_u, extql, extqh, or. */
    uint8_t bytes[16];
    for (int k = 0; k < 16; k++) bytes[k] = (uint8_t)(0xa0 + k);
    mem_write(f->mem, DATA, bytes, 16);
    for (int off = 0; off < 8; off++) {
        f->cpu.reg[R_A0] = DATA + (uint64_t)off;
        run1(f, al_mem(OP_LDQ_U, R_T0, R_A0, 0));
        run1(f, al_mem(OP_LDQ_U, R_T1, R_A0, 7));
        run1(f, al_opr(INTS, 0x36, R_T0, R_A0, R_T0));             /* extql t0,a0,t0 */
        run1(f, al_opr(INTS, 0x7a, R_T1, R_A0, R_T1));             /* extqh t1,a0,t1 */
        run1(f, al_opr(INTL, 0x20, R_T0, R_T1, R_V0));             /* or */
        uint64_t want;
        memcpy(&want, bytes + off, 8);
        assert_int_equal(f->cpu.reg[R_V0], want);
    }
}

/* ---- LL/SC ---------------------------------------------------------------------------- */
static void test_ll_sc(void **state)
{
    fixture_t *f = *state;
    f->cpu.reg[R_A0] = DATA + 0x40;
    mem_write(f->mem, DATA + 0x40, "\xfe\xff\xff\xff\x00\x00\x00\x00", 8);
    insn_t in = run1(f, al_mem(OP_LDL_L, R_V0, R_A0, 0));
    assert_int_equal(f->cpu.reg[R_V0], (uint64_t)-2);
    assert_true(in.flags & IF_ATOMIC);
    assert_true(in.flags & IF_LOAD);
    assert_int_equal(in.memsize, 4);
    f->cpu.reg[R_T0] = 5;
    in = run1(f, al_mem(OP_STL_C, R_T0, R_A0, 0));
    assert_int_equal(f->cpu.reg[R_T0], 1);                       /* succeeded */
    assert_true(in.flags & IF_ATOMIC);
    assert_true(in.flags & IF_STORE);
    assert_int_equal(in.rd, R_T0);
    assert_int_equal(in.rs2, R_T0);
    uint64_t v;
    mem_read(f->mem, DATA + 0x40, &v, 8);
    assert_int_equal(v, 5);
    f->cpu.reg[R_T0] = 6;                                        /* lock flag consumed */
    run1(f, al_mem(OP_STL_C, R_T0, R_A0, 0));
    assert_int_equal(f->cpu.reg[R_T0], 0);
    mem_read(f->mem, DATA + 0x40, &v, 8);
    assert_int_equal(v, 5);

    run1(f, al_mem(OP_LDQ_L, R_V0, R_A0, 0));                      /* other block: fails */
    f->cpu.reg[R_T0] = 7;
    run1(f, al_mem(OP_STQ_C, R_T0, R_A0, 32));
    assert_int_equal(f->cpu.reg[R_T0], 0);
    run1(f, al_mem(OP_LDQ_L, R_V0, R_A0, 0));                      /* same block: succeeds */
    f->cpu.reg[R_T0] = 0x123456789ull;
    run1(f, al_mem(OP_STQ_C, R_T0, R_A0, 0));
    assert_int_equal(f->cpu.reg[R_T0], 1);
    mem_read(f->mem, DATA + 0x40, &v, 8);
    assert_int_equal(v, 0x123456789ull);

    /* Misaligned locked accesses are SIGBUS (Linux does not fix them up). */
    assert_int_equal(run1_stop(f, al_mem(OP_LDQ_L, R_V0, R_A0, 4)), STOP_BUS_ERROR);
    assert_int_equal(run1_stop(f, al_mem(OP_STL_C, R_T0, R_A0, 2)), STOP_BUS_ERROR);
}

/* ---- control ----------------------------------------------------------------------------- */
static void test_branches(void **state)
{
    fixture_t *f = *state;
    static const struct { uint32_t op; uint64_t taken_for, not_taken_for; } ops[] = {
        { OP_BLBC, 2, 3 }, { OP_BEQ, 0, 1 }, { OP_BLT, (uint64_t)-1, 0 },
        { OP_BLE, 0, 1 }, { OP_BLBS, 1, 2 }, { OP_BNE, 5, 0 }, { OP_BGE, 0, (uint64_t)-5 },
        { OP_BGT, 1, 0 },
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        insn_t in = decode(al_br(ops[k].op, R_A0, -3));
        assert_int_equal(in.opclass, OC_BRANCH);
        assert_int_equal(in.flags & (IF_BRANCH | IF_DIRECT), IF_BRANCH | IF_DIRECT);
        assert_int_equal(in.target, PC + 4 - 12);
        assert_true(in.flags & IF_BACKWARD);
        f->cpu.reg[R_A0] = ops[k].taken_for;
        in = run1(f, al_br(ops[k].op, R_A0, -3));
        assert_int_equal(f->cpu.pc, PC - 8);
        assert_int_equal(in.taken, 1);
        f->cpu.reg[R_A0] = ops[k].not_taken_for;
        in = run1(f, al_br(ops[k].op, R_A0, 100));
        assert_int_equal(f->cpu.pc, PC + 4);
        assert_int_equal(in.taken, 0);
        assert_false(in.flags & IF_BACKWARD);
    }
    insn_t in = decode(al_br(OP_BEQ, R_A0, -1));                    /* branch to itself */
    assert_int_equal(in.target, PC);
    assert_true(in.flags & IF_BACKWARD);
    in = decode(al_br(OP_BEQ, R_A0, 0x1fffff));                     /* disp21 = -1 */
    assert_int_equal(in.target, PC);
    in = decode(al_br(OP_BEQ, R_A0, 0x0fffff));                     /* max forward */
    assert_int_equal(in.target, PC + 4 + 4 * 0xfffffull);
}

static void test_jumps_calls_returns(void **state)
{
    fixture_t *f = *state;
    insn_t in = run1(f, al_br(OP_BSR, R_RA, 0x100));                /* bsr ra */
    assert_int_equal(f->cpu.pc, PC + 4 + 0x400);
    assert_int_equal(f->cpu.reg[R_RA], PC + 4);
    assert_int_equal(in.opclass, OC_CALL);
    assert_true(in.flags & IF_CALL);
    assert_true(in.flags & IF_DIRECT);
    assert_int_equal(in.target, PC + 4 + 0x400);

    in = run1(f, al_br(OP_BR, R_ZERO, -2));                         /* br: a jump */
    assert_int_equal(in.opclass, OC_JUMP);
    assert_false(in.flags & (IF_CALL | IF_RETURN));
    assert_true(in.flags & IF_BACKWARD);
    in = run1(f, al_br(OP_BR, R_T0, 1));                            /* br t0: links, no call */
    assert_int_equal(f->cpu.reg[R_T0], PC + 4);
    assert_int_equal(in.opclass, OC_JUMP);

    f->cpu.reg[R_PV] = 0x20003;                                     /* low bits ignored */
    in = run1(f, al_jmp(1, R_RA, R_PV, 0x1234));                      /* jsr ra,(pv) */
    assert_int_equal(f->cpu.pc, 0x20000);
    assert_int_equal(f->cpu.reg[R_RA], PC + 4);
    assert_int_equal(in.opclass, OC_CALL);
    assert_int_equal(in.flags & (IF_CALL | IF_INDIRECT), IF_CALL | IF_INDIRECT);
    assert_int_equal(in.imm, 0);              /* target = rs1 + imm: the hint is not kept */
    assert_int_equal(in.taken, 1);

    f->cpu.reg[R_RA] = 0x30000;
    in = run1(f, al_jmp(2, R_ZERO, R_RA, 1));                         /* ret zero,(ra),1 */
    assert_int_equal(f->cpu.pc, 0x30000);
    assert_int_equal(in.opclass, OC_RETURN);
    assert_true(in.flags & IF_RETURN);
    assert_false(in.flags & IF_CALL);

    f->cpu.reg[R_T1] = 0x40000;
    in = run1(f, al_jmp(0, R_ZERO, R_T1, 0));                         /* jmp zero,(t1) */
    assert_int_equal(f->cpu.pc, 0x40000);
    assert_int_equal(in.opclass, OC_JUMP);
    assert_false(in.flags & (IF_CALL | IF_RETURN));

    f->cpu.reg[R_RA] = 0x50000;
    in = run1(f, al_jmp(3, R_RA, R_RA, 0));                           /* jsr_coroutine ra,(ra) */
    assert_int_equal(f->cpu.pc, 0x50000);                         /* target read first */
    assert_int_equal(f->cpu.reg[R_RA], PC + 4);
    assert_int_equal(in.opclass, OC_CALL);
}

/* ---- multiplies and overflow traps ---------------------------------------------------- */
static void test_multiplies(void **state)
{
    fixture_t *f = *state;
    for (int trial = 0; trial < 1000; trial++) {
        uint64_t a = rnd(), b = trial < 10 ? UINT64_MAX - (uint64_t)trial : rnd();
        assert_int_equal(opr(f, INTM, 0x30, a, b), (uint64_t)(((unsigned __int128)a * b) >> 64));
        assert_int_equal(opr(f, INTM, 0x20, a, b), a * b);
        assert_int_equal(opr(f, INTM, 0x00, a, b), (uint64_t)(int64_t)(int32_t)(uint32_t)(a * b));
    }
    assert_int_equal(opr(f, INTM, 0x30, UINT64_MAX, UINT64_MAX), UINT64_MAX - 1);
    assert_int_equal(opr_lit(f, INTM, 0x30, UINT64_MAX, 255), 254);
    assert_int_equal(opr(f, INTM, 0x00, 0x10000, 0x8000), 0xffffffff80000000ull);
}

static void test_overflow_traps(void **state)
{
    fixture_t *f = *state;
    static const struct { uint32_t op, fn; uint64_t ok_a, ok_b, ok_r, bad_a, bad_b; } ops[] = {
        { INTA, 0x40, 0x7ffffffe, 1, 0x7fffffff, 0x7fffffff, 1 },                   /* addl/v */
        { INTA, 0x49, 0x80000001, 1, 0xffffffff80000000ull, 0x80000000, 1 },        /* subl/v */
        { INTA, 0x60, (uint64_t)INT64_MAX - 1, 1, (uint64_t)INT64_MAX, (uint64_t)INT64_MAX, 1 },
        { INTA, 0x69, (uint64_t)INT64_MIN + 1, 1, (uint64_t)INT64_MIN, (uint64_t)INT64_MIN, 1 },
        { INTM, 0x40, 0x4000, 0x1ffff, 0x7fffc000, 0x10000, 0x8000 },               /* mull/v */
        { INTM, 0x60, 1ull << 31, 1ull << 31, 1ull << 62, 1ull << 32, 1ull << 31 },  /* mulq/v */
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        assert_int_equal(opr(f, ops[k].op, ops[k].fn, ops[k].ok_a, ops[k].ok_b), ops[k].ok_r);
        f->cpu.reg[R_A0] = ops[k].bad_a;
        f->cpu.reg[R_A1] = ops[k].bad_b;
        assert_int_equal(run1_stop(f, al_opr(ops[k].op, ops[k].fn, R_A0, R_A1, R_V0)), STOP_ARITH_TRAP);
        assert_int_equal(f->cpu.stop_info, FPE_INTOVF);
    }
    /* addl/v looks at the low longwords only. */
    assert_int_equal(opr(f, INTA, 0x40, 0x100000001ull, 0x7ffffffe), 0x7fffffff);
    /* The non-trapping forms wrap. */
    assert_int_equal(opr(f, INTA, 0x20, (uint64_t)INT64_MAX, 1), (uint64_t)INT64_MIN);
}

/* ---- BWX, CIX, MVI, amask, implver, rpcc ------------------------------------------------ */
static uint64_t opr_b(fixture_t *f, uint32_t fn, uint64_t b)
{
    f->cpu.reg[R_A1] = b;
    run1(f, al_opr(FPTI, fn, R_ZERO, R_A1, R_V0));
    return f->cpu.reg[R_V0];
}

static void test_cix_bwx(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(opr_b(f, 0x30, 0), 0);                          /* ctpop */
    assert_int_equal(opr_b(f, 0x30, UINT64_MAX), 64);
    assert_int_equal(opr_b(f, 0x32, 0), 64);                         /* ctlz */
    assert_int_equal(opr_b(f, 0x32, UINT64_MAX), 0);
    assert_int_equal(opr_b(f, 0x32, 1), 63);
    assert_int_equal(opr_b(f, 0x33, 0), 64);                         /* cttz */
    assert_int_equal(opr_b(f, 0x33, UINT64_MAX), 0);
    assert_int_equal(opr_b(f, 0x33, 1ull << 63), 63);
    assert_int_equal(opr_b(f, 0x30, 0xf0f0), 8);
    assert_int_equal(opr_b(f, 0x00, 0x1280), 0xffffffffffffff80ull); /* sextb */
    assert_int_equal(opr_b(f, 0x00, 0x127f), 0x7f);
    assert_int_equal(opr_b(f, 0x01, 0x18000), 0xffffffffffff8000ull); /* sextw */
    run1(f, al_opr_lit(FPTI, 0x33, R_ZERO, 0x80, R_V0));                 /* cttz literal */
    assert_int_equal(f->cpu.reg[R_V0], 7);
    run1(f, al_opr_lit(FPTI, 0x00, R_ZERO, 0xff, R_V0));                 /* sextb literal */
    assert_int_equal(f->cpu.reg[R_V0], UINT64_MAX);
}

static void test_mvi(void **state)
{
    fixture_t *f = *state;
    assert_int_equal(opr(f, FPTI, 0x31, 0x00ff0010, 0x0000ff20), 0xff + 0xff + 0x10);    /* perr */
    assert_int_equal(opr_b(f, 0x34, 0x44332211), 0x0044003300220011ull);             /* unpkbw */
    assert_int_equal(opr_b(f, 0x35, 0x2211), 0x0000002200000011ull);                 /* unpkbl */
    assert_int_equal(opr_b(f, 0x36, 0x0044003300220011ull), 0x44332211);             /* pkwb */
    assert_int_equal(opr_b(f, 0x37, 0x0000002200000011ull), 0x2211);                 /* pklb */
    uint64_t a = 0x80ff7f0001020304ull, b = 0x7f01800102010305ull;
    assert_int_equal(opr(f, FPTI, 0x38, a, b), 0x80ff800001010304ull);               /* minsb8 */
    assert_int_equal(opr(f, FPTI, 0x3a, a, b), 0x7f017f0001010304ull);               /* minub8 */
    assert_int_equal(opr(f, FPTI, 0x3c, a, b), 0x80ff800102020305ull);               /* maxub8 */
    assert_int_equal(opr(f, FPTI, 0x3e, a, b), 0x7f017f0102020305ull);               /* maxsb8 */
    uint64_t c = 0x8000ffff00010002ull, d = 0x7fff000100020001ull;
    assert_int_equal(opr(f, FPTI, 0x39, c, d), 0x8000ffff00010001ull);               /* minsw4 */
    assert_int_equal(opr(f, FPTI, 0x3b, c, d), 0x7fff000100010001ull);               /* minuw4 */
    assert_int_equal(opr(f, FPTI, 0x3d, c, d), 0x8000ffff00020002ull);               /* maxuw4 */
    assert_int_equal(opr(f, FPTI, 0x3f, c, d), 0x7fff000100020002ull);               /* maxsw4 */
}

static void test_amask_implver_rpcc(void **state)
{
    fixture_t *f = *state;
    run1(f, al_opr_lit(INTL, 0x6c, R_ZERO, 1, R_V0));                   /* implver v0 */
    assert_int_equal(f->cpu.reg[R_V0], 2);                            /* EV6 */
    f->cpu.reg[R_A1] = 0xffff;
    run1(f, al_opr(INTL, 0x61, R_ZERO, R_A1, R_V0));                      /* amask a1,v0 */
    assert_int_equal(f->cpu.reg[R_V0], 0xffff & ~0x1307ull);          /* BWX FIX CIX MVI TRAP PREFETCH */
    run1(f, al_opr_lit(INTL, 0x61, R_ZERO, 7, R_V0));
    assert_int_equal(f->cpu.reg[R_V0], 0);
    f->cpu.instret = 0x100000123ull;
    insn_t in = run1(f, al_mfc(0xc000, R_V0, R_ZERO));                  /* rpcc v0 */
    assert_int_equal(f->cpu.reg[R_V0], 0x123);
    assert_int_equal(in.rd, R_V0);
    f->cpu.cycle = 0x200000456ull;                  /* untimed: the cycle is settled at the end */
    run1(f, al_mfc(0xc000, R_V0, R_ZERO));
    assert_int_equal(f->cpu.reg[R_V0], 0x123);
    f->cpu.timed = true;                            /* a timing model keeps the cycle current, */
    f->cpu.cycle = 0x200000056ull;                  /* even below the instruction count (IPC > 1) */
    run1(f, al_mfc(0xc000, R_V0, R_ZERO));
    assert_int_equal(f->cpu.reg[R_V0], 0x056);
}

static void test_barriers(void **state)
{
    fixture_t *f = *state;
    static const uint32_t fns[] = { 0x0000, 0x0400, 0x4000, 0x4400, 0x8000, 0xa000,
                                    0xe800, 0xf800, 0xfc00 };
    static const char *const names[] = { "trapb", "excb", "mb", "wmb", "fetch", "fetch_m",
                                         "ecb", "wh64", "wh64en" };
    uint64_t before[32];
    memcpy(before, f->cpu.reg, sizeof before);
    for (size_t k = 0; k < sizeof fns / sizeof fns[0]; k++) {
        insn_t in = run1(f, al_mfc(fns[k], R_ZERO, R_A0));
        assert_string_equal(isa_alpha.table[in.op].name, names[k]);
        assert_int_equal(f->cpu.pc, PC + 4);
        assert_true(k >= 4 ? in.opclass == OC_NOP : in.opclass == OC_FENCE);
    }
    assert_memory_equal(before, f->cpu.reg, sizeof before);
}

/* ---- PAL ---------------------------------------------------------------------------------- */
static void test_pal_callsys(void **state)
{
    fixture_t *f = *state;
    sys_config_t cfg = { .seed = 1, .insts_per_sec = 1000000 };
    f->cpu.sys = sys_new(f->mem, &sys_abi_alpha, &cfg);
    insn_t in = decode(al_pal(0x83));
    assert_int_equal(in.opclass, OC_SYSCALL);
    assert_true(in.flags & IF_SYSCALL);

    /* callsys returns through PALcode, which clears the lock flag. */
    f->cpu.reg[R_A0] = DATA;
    run1(f, al_mem(OP_LDQ_L, R_T0, R_A0, 0));
    f->cpu.reg[R_V0] = 20;                                           /* getxpid */
    f->cpu.reg[R_A3] = 5;
    assert_int_equal(run1_stop(f, al_pal(0x83)), STOP_NONE);
    assert_int_equal(f->cpu.reg[R_A3], 0);                            /* no error */
    assert_true(f->cpu.reg[R_V0] > 0);                                /* the pid */
    run1(f, al_mem(OP_STQ_C, R_T0, R_A0, 0));
    assert_int_equal(f->cpu.reg[R_T0], 0);

    f->cpu.reg[R_V0] = 4000;                                         /* no such call */
    assert_int_equal(run1_stop(f, al_pal(0x83)), STOP_BAD_SYSCALL);
    assert_int_equal(f->cpu.stop_info, 4000);
    f->cpu.reg[R_V0] = 405;                                          /* exit_group */
    f->cpu.reg[R_A0] = 7;
    assert_int_equal(run1_stop(f, al_pal(0x83)), STOP_EXIT);
    assert_int_equal(f->cpu.exit_code, 7);
    sys_free(f->cpu.sys);
    f->cpu.sys = NULL;
}

static void test_pal_others(void **state)
{
    fixture_t *f = *state;
    f->cpu.reg[R_A0] = 0x2000f00dull;
    insn_t in = run1(f, al_pal(0x9f));                               /* wruniq */
    assert_int_equal(in.rs1, R_A0);
    assert_int_equal(f->cpu.unique, 0x2000f00dull);
    in = run1(f, al_pal(0x9e));                                      /* rduniq */
    assert_int_equal(in.rd, R_V0);
    assert_int_equal(f->cpu.reg[R_V0], 0x2000f00dull);

    assert_int_equal(run1_stop(f, al_pal(0x80)), STOP_BREAKPOINT);   /* bpt */
    assert_int_equal(run1_stop(f, al_pal(0x81)), STOP_BREAKPOINT);   /* bugchk */
    f->cpu.reg[R_A0] = (uint64_t)-2;                                   /* gentrap GEN_INTDIV */
    assert_int_equal(run1_stop(f, al_pal(0xaa)), STOP_ARITH_TRAP);
    assert_int_equal(f->cpu.stop_info, FPE_INTDIV);
    f->cpu.reg[R_A0] = (uint64_t)-1;                                   /* GEN_INTOVF */
    assert_int_equal(run1_stop(f, al_pal(0xaa)), STOP_ARITH_TRAP);
    assert_int_equal(f->cpu.stop_info, FPE_INTOVF);
    f->cpu.reg[R_A0] = (uint64_t)-12;                                  /* GEN_ASSERTERR: SIGTRAP */
    assert_int_equal(run1_stop(f, al_pal(0xaa)), STOP_BREAKPOINT);

    /* Unknown and privileged PAL functions are illegal in user mode. */
    assert_int_equal(run1_stop(f, al_pal(0x1234)), STOP_ILLEGAL);
    assert_int_equal(f->cpu.stop_info, 0x1234);
    assert_string_equal(isa_alpha.table[decode(al_pal(0x1234)).op].name, "call_pal");
    assert_int_equal(run1_stop(f, al_pal(0x00)), STOP_ILLEGAL);     /* halt */
    assert_int_equal(run1_stop(f, al_pal(0x3fffffe)), STOP_ILLEGAL);
}

/* A small program through the core's run loop; imb drops decoded code. */
static void test_imb_and_run_loop(void **state)
{
    fixture_t *f = *state;
    const uint64_t code = 0x20000;
    mem_map(f->mem, code, 0x2000, MEM_PROT_READ | MEM_PROT_WRITE | MEM_PROT_EXEC);
    /* v0 = sum of 1..10 in a loop, then bpt. */
    const uint32_t prog[] = {
        al_opr_lit(INTL, 0x20, R_ZERO, 10, R_T0),     /* mov 10,t0       */
        al_opr(INTL, 0x20, R_ZERO, R_ZERO, R_V0),       /* clr v0          */
        al_opr(INTA, 0x20, R_V0, R_T0, R_V0),           /* loop: addq v0,t0,v0 */
        al_opr_lit(INTA, 0x29, R_T0, 1, R_T0),        /* subq t0,1,t0    */
        al_br(OP_BNE, R_T0, -3),                    /* bne t0,loop     */
        al_pal(0x86),                             /* imb             */
        al_pal(0x80),                             /* bpt             */
    };
    mem_write(f->mem, code, prog, sizeof prog);
    f->cpu.pc = code;
    engine_parts_t parts = { .cpu = &f->cpu };
    char err[128];
    assert_int_equal(engine_run_once(&parts, 0, err, sizeof err), STOP_BREAKPOINT);
    assert_int_equal(f->cpu.reg[R_V0], 55);
    assert_int_equal(f->cpu.stop_pc, code + 24);
    assert_int_equal(f->cpu.instret, 2 + 30 + 1);
    /* imb dropped every decoded instruction; only bpt was decoded since. */
    insn_t *slots = mem_decoded_page(f->mem, code);
    assert_null(slots[0].exec);
    assert_null(slots[16 >> 1].exec);
    assert_non_null(slots[24 >> 1].exec);
    /* Rewritten code runs as rewritten. */
    uint32_t mov3 = al_opr_lit(INTL, 0x20, R_ZERO, 3, R_T0);
    mem_write(f->mem, code, &mov3, 4);
    f->cpu.pc = code;
    assert_int_equal(engine_run_once(&parts, 0, err, sizeof err), STOP_BREAKPOINT);
    assert_int_equal(f->cpu.reg[R_V0], 6);
    /* Jumping to a misaligned address stops the run. */
    f->cpu.pc = code + 2;
    assert_int_equal(engine_run_once(&parts, 0, err, sizeof err), STOP_MISALIGNED_FETCH);
}

/* ---- the runtime's hps.* words (OPC01), only through decode_special ----- */
static bool decode_hps(uint64_t pc, uint32_t w, insn_t *in)
{
    uint8_t b[4] = { (uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16), (uint8_t)(w >> 24) };
    return isa_alpha.decode_special(pc, b, 4, marker_hps_ops, in);
}

static void test_hps_words(void **state)
{
    fixture_t *f = *state;
    const uint64_t rt = RUNTIME_BASE + 0x100;
    const uint32_t mfd = 0x01u << 26 | 1u << 21 | 2u << 16 | 0;      /* hps.mfd t0, d2 */
    const uint32_t mtd = 0x01u << 26 | 3u << 21 | 5u << 16 | 1;      /* hps.mtd d3, t4 */
    insn_t in;
    assert_false(al_decode_word(PC, mfd, &in));                     /* program code: illegal */
    assert_false(al_decode_word(PC, 0x07ff0003, &in));
    assert_false(al_decode_word(rt, mfd, &in));   /* the program's decoder: never */
    assert_true(decode_hps(rt, mfd, &in));
    assert_int_equal(in.rd, R_T0);
    assert_int_equal(in.rs1, REG_DISE0 + 2);
    assert_int_equal(in.op, isa_alpha.table_size + 0);
    assert_int_equal(in.opclass, OC_DISE);
    f->cpu.reg[REG_DISE0 + 2] = 0xd15e;
    in.exec(&f->cpu, &in);
    assert_int_equal(f->cpu.reg[R_T0], 0xd15e);
    assert_true(decode_hps(rt, mtd, &in));
    assert_int_equal(in.rd, REG_DISE0 + 3);
    assert_int_equal(in.rs1, 5);
    assert_true(decode_hps(rt, 0x07ff0002, &in));               /* hps.ret */
    assert_ptr_equal(in.exec, marker_op_ret);
    assert_int_equal(in.opclass, OC_JUMP);
    assert_true(decode_hps(rt, 0x07ff0003, &in));               /* hps.flush */
    assert_ptr_equal(in.exec, marker_op_flush);
    assert_int_equal(in.op, isa_alpha.table_size + 3);
    assert_true(decode_hps(rt, 0x07e20004, &in));               /* hps.notify $2 */
    assert_ptr_equal(in.exec, marker_op_notify);
    assert_int_equal(in.rs1, 2);
    assert_false(decode_hps(rt, 0x07e20004 & ~AL_RA31, &in));   /* notify with Ra */
    assert_true(decode_hps(rt, 0x04220005, &in));               /* hps.wrpmc $1, $2 */
    assert_ptr_equal(in.exec, marker_op_wrpmc);
    assert_int_equal(in.rs1, 1);
    assert_int_equal(in.rs2, 2);
    assert_false(decode_hps(rt, 0x07ff0006, &in));              /* no function 6 */
    assert_true(decode_hps(rt, 0x04220007, &in));               /* hps.ldp $1, $2 */
    assert_ptr_equal(in.exec, marker_op_ldp);
    assert_int_equal(in.rd, 1);
    assert_int_equal(in.rs1, 2);
    assert_true(decode_hps(rt, 0x04220008, &in));               /* hps.stp $1, $2 */
    assert_ptr_equal(in.exec, marker_op_stp);
    assert_int_equal(in.rs1, 1);
    assert_int_equal(in.rs2, 2);
    assert_false(decode_hps(rt, 0x07ff0009, &in));              /* no function 9 */
    assert_false(decode_hps(rt, 0x01u << 26 | 1u << 21 | 16u << 16, &in)); /* no d16 */
    assert_false(decode_hps(rt, 0x07df0002, &in));              /* hps.ret with Ra */
    assert_true(al_decode_word(rt, al_opr(INTA, 0x20, R_A0, R_A1, R_V0), &in)); /* ordinary code */
}

/* ---- disassembly through libopcodes (strings as alpha-linux-gnu-objdump) -- */
static void expect_disasm(disasm_t *d, uint64_t pc, uint32_t word, const char *want)
{
    uint8_t bytes[4] = { (uint8_t)word, (uint8_t)(word >> 8), (uint8_t)(word >> 16),
                         (uint8_t)(word >> 24) };
    char buf[96];
    assert_int_equal(disasm_insn(d, pc, bytes, 4, buf, sizeof buf), 4);
    assert_string_equal(buf, want);
}

static void test_disassembly(void **state)
{
    (void)state;
    disasm_t *d = disasm_new(&isa_alpha);
    assert_non_null(d);
    expect_disasm(d, 0x00, 0x42110400, "addq    a0,a1,v0");
    expect_disasm(d, 0x04, 0x42021400, "addq    a0,0x10,v0");
    expect_disasm(d, 0x08, 0xa41e0010, "ldq     v0,16(sp)");
    expect_disasm(d, 0x0c, 0x3e3ffff8, "stq_u   a1,-8(zero)");
    expect_disasm(d, 0x10, 0x6bfa8001, "ret");
    expect_disasm(d, 0x14, 0x6b5b4000, "jsr     ra,(t12),0x18");
    expect_disasm(d, 0x18, 0x481000c0, "extbl   v0,a0,v0");
    expect_disasm(d, 0x1c, 0x48221621, "zapnot  t0,0x10,t0");
    expect_disasm(d, 0x20, 0x00000083, "callsys");
    expect_disasm(d, 0x24, 0x0000009e, "rduniq");
    expect_disasm(d, 0x28, 0x00001234, "call_pal        0x1234");
    expect_disasm(d, 0x2c, 0x2ffe0000, "unop");
    expect_disasm(d, 0x34, 0xb8210000, "stl_c   t0,0(t0)");
    expect_disasm(d, 0x38, 0xd34003fd, "bsr     ra,0x1030");
    expect_disasm(d, 0x44, 0x60004000, "mb");
    /* Our own encoders agree with the assembler's. */
    assert_int_equal(al_opr(INTA, 0x20, R_A0, R_A1, R_V0), 0x42110400);
    assert_int_equal(al_opr_lit(INTA, 0x20, R_A0, 0x10, R_V0), 0x42021400);
    assert_int_equal(al_mem(OP_LDQ, R_V0, R_SP, 16), 0xa41e0010);
    assert_int_equal(al_jmp(2, R_ZERO, R_RA, 1), 0x6bfa8001);
    assert_int_equal(al_jmp(1, R_RA, R_PV, 0), 0x6b5b4000);
    assert_int_equal(al_br(OP_BSR, R_RA, 0x3fd), 0xd34003fd);
    assert_int_equal(al_mfc(0x4000, 0, 0), 0x60004000);
    disasm_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_operand_extraction),
        cmocka_unit_test(test_illegal_words),
        cmocka_unit_test_setup_teardown(test_add_sub_compare, setup, teardown),
        cmocka_unit_test_setup_teardown(test_logic_and_shifts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_literal_matches_register_form, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ext_ins_msk, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zap_cmpbge, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cmov, setup, teardown),
        cmocka_unit_test_setup_teardown(test_r31, setup, teardown),
        cmocka_unit_test_setup_teardown(test_loads_stores, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ldq_u_stq_u, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ll_sc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_branches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_jumps_calls_returns, setup, teardown),
        cmocka_unit_test_setup_teardown(test_multiplies, setup, teardown),
        cmocka_unit_test_setup_teardown(test_overflow_traps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cix_bwx, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mvi, setup, teardown),
        cmocka_unit_test_setup_teardown(test_amask_implver_rpcc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_barriers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pal_callsys, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pal_others, setup, teardown),
        cmocka_unit_test_setup_teardown(test_imb_and_run_loop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hps_words, setup, teardown),
        cmocka_unit_test(test_disassembly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
