/*
 * test_jit.c - unit tests of the translator (sim/jit_x86.c, jit.h): small
 * RV64 programs whose blocks cover the inline kinds (ALU reg-reg and imm,
 * word ops, lui/auipc, compares, loads and stores of every width, a
 * misaligned access through the slow path, a called instruction, branches,
 * jal/jalr) run by the block loop (blocks_interpret) and by the translated
 * code (jit_execute) on the same starting state; registers, memory, the
 * returned pc, the cpu's pc / stop_pc / instret and every slot's count
 * must be the same, whole and cut short at many event_at counts.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "rv_encode.h"
#include "blocks.h"
#include "core.h"
#include "jit.h"
#include "mem.h"
#include "rv64.h"

#define OP      0x33
#define OP_IMM  0x13
#define OP_32   0x3b
#define OP_IMM32 0x1b
#define LOAD    0x03
#define STORE   0x23
#define CODE    0x1000ull
#define DATA    0x10000ull
#define ECALL   0x00000073u

typedef struct result {
    uint64_t ret, pc, stop_pc, instret;
    uint64_t reg[32];
    uint8_t data[512];
    uint64_t count[64], taken[64];
    uint64_t translated;                /* blocks the translator translated */
    bool truth;                         /* run with the ground-truth recorder: */
    uint64_t touched;                   /* the data words it marked            */
    pair_count_t pairs[16];             /* its call pairs, sorted              */
    size_t npairs;
} result_t;

/* Run words (at CODE, ending in an ecall) from registers seeded by seed,
 * by the block loop or the translator, until event_at; into *r. */
static void run(const isa_t *isa, const uint32_t *words, size_t n, uint64_t seed, bool jit,
                uint64_t event_at, result_t *r)
{
    mem_t *m = mem_new();
    cpu_t c;
    cpu_init(&c, isa, m);
    assert_true(mem_map(m, CODE, 0x1000, MEM_PROT_READ | MEM_PROT_EXEC));
    assert_true(mem_map(m, DATA, 0x1000, MEM_PROT_READ | MEM_PROT_WRITE));
    assert_true(mem_write(m, CODE, words, n * 4));
    uint8_t data[256];
    uint64_t x = seed;
    for (size_t k = 0; k < sizeof data; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        data[k] = (uint8_t)(x >> 56);
    }
    assert_true(mem_write(m, DATA, data, sizeof data));
    for (int k = 1; k < 32; k++) {
        x = x * 6364136223846793005ull + 1442695040888963407ull;
        c.reg[k] = k % 3 ? x : x >> (k % 61);   /* big and small values */
    }
    c.reg[7] = DATA;                            /* the data pointer */
    for (size_t k = 0; k < n; k++) cpu_fetch_decode(&c, CODE + 4 * k);
    mem_code_slots(m, CODE);                    /* in the code-page cache */
    c.event_at = event_at;
    c.pc = CODE;
    blocks_t *bs = blocks_new();
    char err[256];
    if (jit) {
        bs->jit = jit_new(err, sizeof err);
        assert_non_null(bs->jit);
    }
    blocks_attach(bs, &c);
    truth_t truth;
    memset(&truth, 0, sizeof truth);
    truth_t *tr = r->truth ? &truth : NULL;
    r->ret = jit ? jit_execute(bs->jit, &c, bs, tr, CODE) : blocks_interpret(&c, bs, tr, CODE);
    blocks_stop(bs, &c);
    blocks_detach(bs);
    if (jit) {
        jit_stats_t st;
        jit_get_stats(bs->jit, &st);
        r->translated = st.translated;
    }
    r->pc = c.pc;
    r->stop_pc = c.stop_pc;
    r->instret = c.instret;
    memcpy(r->reg, c.reg, sizeof r->reg);
    assert_true(mem_read(m, DATA, r->data, sizeof r->data));
    insn_t *slots = mem_code_slots(m, CODE);
    for (size_t k = 0; k < n && k < 64; k++) {
        r->count[k] = slots[2 * k].count;
        r->taken[k] = slots[2 * k].taken;
    }
    if (tr) {
        r->touched = mem_count_touched(m);
        pair_count_t *p = pair_table_sorted(&truth.call_pairs, &r->npairs);
        assert_true(r->npairs <= 16);
        memcpy(r->pairs, p, r->npairs * sizeof *p);
        free(p);
        pair_table_free(&truth.call_pairs);
        pair_table_free(&truth.methods);
    }
    blocks_free(bs);
    mem_free(m);
}

static void same_runs_truth(const isa_t *isa, const uint32_t *words, size_t n, uint64_t seed,
                            uint64_t event_at, bool truth)
{
    result_t a, b;
    memset(&a, 0, sizeof a);
    memset(&b, 0, sizeof b);
    a.truth = b.truth = truth;
    run(isa, words, n, seed, false, event_at, &a);
    run(isa, words, n, seed, true, event_at, &b);
    if (event_at == UINT64_MAX) {       /* ran to the ecall, translated */
        assert_true(a.instret > 10);
        assert_true(b.translated > 0);
        if (truth) assert_true(a.touched > 0 && a.npairs > 0);
    }
    assert_int_equal(a.ret, b.ret);
    assert_int_equal(a.pc, b.pc);
    assert_int_equal(a.stop_pc, b.stop_pc);
    assert_int_equal(a.instret, b.instret);
    for (int k = 0; k < 32; k++) assert_int_equal(a.reg[k], b.reg[k]);
    assert_memory_equal(a.data, b.data, sizeof a.data);
    for (size_t k = 0; k < n && k < 64; k++) {
        assert_int_equal(a.count[k], b.count[k]);
        assert_int_equal(a.taken[k], b.taken[k]);
    }
    assert_int_equal(a.touched, b.touched);
    assert_int_equal(a.npairs, b.npairs);
    for (size_t k = 0; k < a.npairs; k++) {
        assert_int_equal(a.pairs[k].a, b.pairs[k].a);
        assert_int_equal(a.pairs[k].b, b.pairs[k].b);
        assert_int_equal(a.pairs[k].count, b.pairs[k].count);
    }
}

static void same_runs_on(const isa_t *isa, const uint32_t *words, size_t n, uint64_t seed,
                         uint64_t event_at)
{
    same_runs_truth(isa, words, n, seed, event_at, false);
}

static void same_runs(const uint32_t *words, size_t n, uint64_t seed, uint64_t event_at)
{
    same_runs_on(&isa_rv64, words, n, seed, event_at);
}

#define R(f7, rs2, rs1, f3, rd) enc_r(f7, rs2, rs1, f3, rd, OP)
#define I(imm, rs1, f3, rd) enc_i(imm, rs1, f3, rd, OP_IMM)

/* Straight-line ALU kinds, in place (rd = rs1) and not (the programs are
 * lists for automatic arrays: the encoders are functions). */
#define ALU_PROG \
    R(0, 11, 12, 0, 13), R(0x20, 14, 15, 0, 16), R(0, 17, 18, 4, 19), R(0, 20, 21, 6, 22), \
    R(0, 23, 24, 7, 25), R(0, 26, 27, 1, 28), R(0, 29, 30, 5, 31), R(0x20, 11, 12, 5, 13), \
    R(0, 14, 15, 2, 16), R(0, 17, 18, 3, 19), R(0, 20, 20, 0, 20), R(0x20, 21, 21, 0, 21), \
    I(-7, 22, 0, 22), I(2047, 23, 0, 24), I(-1, 25, 4, 26), I(0x55, 27, 6, 28), \
    I(-2048, 29, 4, 30), I(0x7f0, 31, 7, 11), I(13, 12, 1, 13), I(0x400 | 9, 14, 5, 15), \
    I(63, 16, 5, 17), I(-5, 18, 2, 19), I(-5, 20, 3, 21), I(0, 22, 0, 23), \
    enc_r(0, 24, 25, 0, 26, OP_32), enc_r(0x20, 27, 28, 0, 29, OP_32), \
    enc_i(-100, 30, 0, 31, OP_IMM32), enc_u(0x12345, 11), enc_u(-1, 12), \
    enc_u(0x7ff, 13) ^ 0x37 ^ 0x17,     /* auipc */ \
    enc_r(1, 14, 15, 0, 16, OP),        /* mul: a called instruction */ \
    ECALL

/* Loads and stores of every width, one misaligned (the slow path), then a
 * counted loop with a conditional branch, a call and a return. */
#define MEM_PROG \
    enc_i(3, 0, 0, 5, OP_IMM),          /* 0: x5 = 3, the loop's count */ \
    /* loop (4): */ \
    enc_i(0, 7, 0, 8, LOAD), enc_i(1, 7, 4, 9, LOAD), enc_i(2, 7, 1, 10, LOAD), \
    enc_i(2, 7, 5, 11, LOAD), enc_i(4, 7, 2, 12, LOAD), enc_i(4, 7, 6, 13, LOAD), \
    enc_i(8, 7, 3, 14, LOAD), enc_i(12, 7, 3, 15, LOAD),       /* misaligned ld */ \
    enc_s(16, 8, 7, 0, STORE), enc_s(18, 9, 7, 1, STORE), enc_s(20, 10, 7, 2, STORE), \
    enc_s(24, 14, 7, 3, STORE), enc_s(33, 15, 7, 3, STORE),    /* misaligned sd */ \
    R(0, 8, 14, 0, 14), \
    enc_j(28, 1),                       /* 15: jal ra, +28 (the leaf) */ \
    I(40, 7, 0, 7),                     /* 16: x7 += 40 */ \
    I(-1, 5, 0, 5),                     /* 17: x5 -= 1 */ \
    enc_b(-4 * 17, 0, 5, 1),            /* 18: bne x5, x0, loop */ \
    ECALL,                              /* 19 */ \
    ECALL, ECALL,                       /* 20-21: never run */ \
    /* leaf (22 = 15 + 7): */ \
    R(0, 14, 15, 7, 16), \
    enc_i(0, 1, 0, 0, 0x67)             /* jalr x0, 0(ra) */

/* A block of many stores and loads (a prologue's register saves): the
 * code's size bound holds; run whole and cut inside it. */
static void test_long_block(void **state)
{
    (void)state;
    uint32_t prog[96];
    size_t n = 0;
    /* high registers and offsets past 127: the longest encodings */
    for (int k = 0; k < 30; k++) prog[n++] = enc_s(128 + 8 * k, 12 + k % 20, 7, 3, STORE);
    for (int k = 0; k < 30; k++) prog[n++] = enc_i(128 + 8 * (29 - k), 7, 3, 12 + k % 20, LOAD);
    for (int k = 0; k < 30; k++) prog[n++] = enc_s(129 + 8 * k, 12 + k % 20, 7, 1 + k % 3, STORE);
    prog[n++] = ECALL;
    same_runs(prog, n, 5, UINT64_MAX);
    for (uint64_t at = 0; at <= 95; at += 7) same_runs(prog, n, 5, at);
}

static void test_alu_kinds(void **state)
{
    (void)state;
    const uint32_t alu_prog[] = { ALU_PROG };
    size_t n = sizeof alu_prog / sizeof alu_prog[0];
    for (uint64_t seed = 1; seed <= 20; seed++) same_runs(alu_prog, n, seed, UINT64_MAX);
}

static void test_memory_and_transfers(void **state)
{
    (void)state;
    const uint32_t mem_prog[] = { MEM_PROG };
    size_t n = sizeof mem_prog / sizeof mem_prog[0];
    for (uint64_t seed = 1; seed <= 10; seed++) same_runs(mem_prog, n, seed, UINT64_MAX);
}

/* With the ground-truth recorder: the data words marked (fast and slow
 * loads and stores, the misaligned ones among them) and the call pairs
 * (jal ra) the same as the block loop's copy with the recorder, whole and
 * cut short. */
static void test_ground_truth(void **state)
{
    (void)state;
    const uint32_t mem_prog[] = { MEM_PROG };
    size_t n = sizeof mem_prog / sizeof mem_prog[0];
    for (uint64_t seed = 1; seed <= 4; seed++) same_runs_truth(&isa_rv64, mem_prog, n, seed, UINT64_MAX, true);
    for (uint64_t at = 0; at <= 80; at += 3) same_runs_truth(&isa_rv64, mem_prog, n, 7, at, true);
}

/* --max-insts exact: every count up to past the end, inside blocks and at
 * their edges. */
static void test_event_at_every_count(void **state)
{
    (void)state;
    const uint32_t mem_prog[] = { MEM_PROG }, alu_prog[] = { ALU_PROG };
    size_t n = sizeof mem_prog / sizeof mem_prog[0];
    for (uint64_t at = 0; at <= 80; at++) same_runs(mem_prog, n, 7, at);
    n = sizeof alu_prog / sizeof alu_prog[0];
    for (uint64_t at = 0; at <= 40; at += 3) same_runs(alu_prog, n, 3, at);
}

/* Alpha operates: register form (ra, rb, rc) and literal form (ra, lit, rc). */
static uint32_t al_opr(unsigned op, unsigned fn, unsigned ra, unsigned rb, unsigned rc)
{
    return op << 26 | ra << 21 | rb << 16 | fn << 5 | rc;
}

static uint32_t al_lit(unsigned op, unsigned fn, unsigned ra, unsigned lit, unsigned rc)
{
    return op << 26 | ra << 21 | (lit & 0xff) << 13 | 1u << 12 | fn << 5 | rc;
}

/* The operates the translator runs inline rather than calling their
 * semantics: ext/ins/msk of every width, low and high, zap with a literal,
 * the multiplies, s4/s8 add and subtract (longword and quadword), bic,
 * ornot, eqv, sextb/sextw; register forms with byte offsets from random
 * registers (r9 holds each offset 0-7 in turn: the loop below) and literal
 * forms with every offset. */
static void al_emit(uint32_t *prog, size_t *n, uint32_t word)
{
    prog[(*n)++] = word;
    prog[(*n)++] = al_opr(0x11, 0x40, word & 31, 0, 0);   /* xor rc, r0, r0: kept */
}

static size_t alpha_operates(uint32_t *prog)
{
    static const unsigned ints[] = {     /* opcode 0x12 functions */
        0x06, 0x16, 0x26, 0x36, 0x5a, 0x6a, 0x7a,         /* ext */
        0x0b, 0x1b, 0x2b, 0x3b, 0x57, 0x67, 0x77,         /* ins */
        0x02, 0x12, 0x22, 0x32, 0x52, 0x62, 0x72 };       /* msk */
    size_t n = 0;
    unsigned rc = 10;
    for (size_t k = 0; k < sizeof ints / sizeof ints[0]; k++) {
        al_emit(prog, &n, al_opr(0x12, ints[k], 1 + k % 8, 9, rc));           /* offset r9 */
        al_emit(prog, &n, al_opr(0x12, ints[k], 2 + k % 5, 3 + k % 7, 11 + k % 19));
        al_emit(prog, &n, al_lit(0x12, ints[k], 4 + k % 3, (unsigned)k * 5, 12 + k % 17));
        al_emit(prog, &n, al_opr(0x12, ints[k], rc, 9, rc));                  /* in place */
    }
    al_emit(prog, &n, al_lit(0x12, 0x30, 5, 0xa5, 13));                      /* zap */
    static const unsigned intm[] = { 0x00, 0x20, 0x30 };               /* mull mulq umulh */
    for (size_t k = 0; k < 3; k++) {
        al_emit(prog, &n, al_opr(0x13, intm[k], 1 + k, 4 + k, 14 + k));
        al_emit(prog, &n, al_lit(0x13, intm[k], 2 + k, 200 + (unsigned)k, 20 + k));
        al_emit(prog, &n, al_opr(0x13, intm[k], 21 + k, 21 + k, 21 + k));
    }
    static const unsigned inta[] = { 0x02, 0x12, 0x0b, 0x1b };         /* s4/s8 addl, subl */
    for (size_t k = 0; k < 4; k++) {
        al_emit(prog, &n, al_opr(0x10, inta[k], 3 + k, 6 + k, 24 + k));
        al_emit(prog, &n, al_lit(0x10, inta[k], 4 + k, 77 + (unsigned)k, 25 + k));
    }
    al_emit(prog, &n, al_opr(0x10, 0x2b, 1, 2, 28));                          /* s4subq */
    al_emit(prog, &n, al_opr(0x10, 0x3b, 3, 4, 29));                          /* s8subq */
    al_emit(prog, &n, al_opr(0x11, 0x08, 5, 6, 11));                          /* bic */
    al_emit(prog, &n, al_opr(0x11, 0x28, 7, 8, 12));                          /* ornot */
    al_emit(prog, &n, al_opr(0x11, 0x48, 13, 14, 15));                        /* eqv */
    al_emit(prog, &n, al_opr(0x1c, 0x00, 31, 16, 17));                        /* sextb */
    al_emit(prog, &n, al_lit(0x1c, 0x00, 31, 0x80, 18));
    al_emit(prog, &n, al_opr(0x1c, 0x01, 31, 19, 20));                        /* sextw */
    al_emit(prog, &n, al_lit(0x1c, 0x01, 31, 0xff, 21));
    al_emit(prog, &n, al_opr(0x11, 0x20, 0, 22, 23));                         /* bis: a kind */
    return n;
}

static void test_alpha_operates(void **state)
{
    (void)state;
    uint32_t prog[400];
    size_t n = alpha_operates(prog);
    /* r9 += 1; r30 -= 1; bne r30, top: each byte offset, then callsys */
    prog[n++] = al_lit(0x10, 0x20, 9, 1, 9);                           /* addq r9, 1, r9 */
    prog[n++] = al_lit(0x10, 0x29, 30, 1, 30);                         /* subq r30, 1, r30 */
    uint32_t back = (uint32_t)(-(int32_t)n - 1) & 0x1fffff;           /* to the top */
    prog[n++] = 0x3du << 26 | 30u << 21 | back;                       /* bne r30 */
    prog[n++] = 0x83;                                                 /* callsys */
    assert_true(n <= sizeof prog / sizeof prog[0]);
    uint32_t words[400];
    for (uint64_t seed = 1; seed <= 8; seed++) {
        memcpy(words, prog, n * sizeof *words);
        /* r30 the loop's count (8: set by a lda r30, 8(r31) at the top) */
        uint32_t all[401];
        all[0] = 0x08u << 26 | 30u << 21 | 31u << 16 | 8;
        memcpy(all + 1, words, n * sizeof *words);
        same_runs_on(&isa_alpha, all, n + 1, seed, UINT64_MAX);
        if (seed == 1)
            for (uint64_t at = 0; at < 8 * n; at += 37) same_runs_on(&isa_alpha, all, n + 1, 1, at);
    }
}

int main(void)
{
    const char *why;
    if (!jit_supported(&why)) {
        printf("test_jit: skipped (%s)\n", why);
        return 0;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_alu_kinds),
        cmocka_unit_test(test_memory_and_transfers),
        cmocka_unit_test(test_event_at_every_count),
        cmocka_unit_test(test_long_block),
        cmocka_unit_test(test_alpha_operates),
        cmocka_unit_test(test_ground_truth),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
