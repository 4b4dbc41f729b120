/*
 * alpha_inline_ops.c - differential test (Alpha only) of the instructions
 * the functional core's block loop runs inline in forms of its own
 * (alpha_blocks.c): the compares cmpeq, cmple and cmpule (register and
 * literal operands), extbl, ldq_u / stq_u at every alignment, and the
 * literal forms it rewrites at build time (zapnot as an AND with a byte
 * mask; subq, subl, s4subq, s8subq as additions of the negated literal;
 * bic, ornot, eqv with its complement), each the instruction itself
 * (inline asm) over edge values.  Prints a line per operation: a hash of
 * its results.
 */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const uint64_t edges[] = {
    0, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7fffffff, 0x80000000u, 0xffffffffu,
    0x100000000ull, 0x7fffffffffffffffull, 0x8000000000000000ull,
    0x8000000000000001ull, 0xfffffffffffffffeull, 0xffffffffffffffffull,
    0x0123456789abcdefull, 0xfedcba9876543210ull,
};
enum { N_EDGES = sizeof edges / sizeof edges[0] };

static uint64_t hash_step(uint64_t h, uint64_t v) { return (h ^ v) * 0x100000001b3ull; }

#define OP_RR(insn, a, b) ({ uint64_t r_; __asm__(insn " %1,%2,%0" : "=r"(r_) : "r"(a), "r"(b)); r_; })
#define OP_RI(insn, a, lit) ({ uint64_t r_; __asm__(insn " %1,%2,%0" : "=r"(r_) : "r"(a), "I"(lit)); r_; })
#define CMPEQ(a, b) OP_RR("cmpeq", a, b)
#define CMPLE(a, b) OP_RR("cmple", a, b)
#define CMPULE(a, b) OP_RR("cmpule", a, b)
#define EXTBL(a, b) OP_RR("extbl", a, b)
#define CMPEQ_L(a, lit) OP_RI("cmpeq", a, lit)
#define CMPLE_L(a, lit) OP_RI("cmple", a, lit)
#define CMPULE_L(a, lit) OP_RI("cmpule", a, lit)
#define ZAPNOT_L(a, lit) OP_RI("zapnot", a, lit)
#define SUBQ_L(a, lit) OP_RI("subq", a, lit)
#define SUBL_L(a, lit) OP_RI("subl", a, lit)
#define S4SUBQ_L(a, lit) OP_RI("s4subq", a, lit)
#define S8SUBQ_L(a, lit) OP_RI("s8subq", a, lit)
#define BIC_L(a, lit) OP_RI("bic", a, lit)
#define ORNOT_L(a, lit) OP_RI("ornot", a, lit)
#define EQV_L(a, lit) OP_RI("eqv", a, lit)
static uint64_t ldq_u(const void *p)
{
    uint64_t v;
    __asm__ volatile("ldq_u %0,0(%1)" : "=r"(v) : "r"(p) : "memory");
    return v;
}
static void stq_u(void *p, uint64_t v)
{
    __asm__ volatile("stq_u %1,0(%0)" : : "r"(p), "r"(v) : "memory");
}

/* Every pair of edge values through the register forms. */
static void register_forms(void)
{
    uint64_t eq = 0, le = 0, ule = 0, ext = 0, ones = 0;
    for (int i = 0; i < N_EDGES; i++)
        for (int j = 0; j < N_EDGES; j++) {
            uint64_t a = edges[i], b = edges[j];
            uint64_t r1 = CMPEQ(a, b), r2 = CMPLE(a, b), r3 = CMPULE(a, b);
            eq = hash_step(eq, r1);
            le = hash_step(le, r2);
            ule = hash_step(ule, r3);
            ones += r1 + r2 + r3;
            ext = hash_step(ext, EXTBL(a, b));
            ext = hash_step(ext, EXTBL(a, (uint64_t)j));
        }
    printf("cmpeq %016" PRIx64 "\ncmple %016" PRIx64 "\ncmpule %016" PRIx64 "\n", eq, le, ule);
    printf("extbl %016" PRIx64 "\ntrue compares %" PRIu64 "\n", ext, ones);
}

/* The literal forms, each literal a constant of the instruction. */
#define LITERALS(X) X(0) X(1) X(7) X(0x0f) X(0x55) X(0x7f) X(0x80) X(0x81) X(0xaa) X(0xf0) X(0xfe) X(0xff)
static void literal_forms(void)
{
    uint64_t eq = 0, le = 0, ule = 0, zap = 0, sub = 0, logic = 0;
    for (int i = 0; i < N_EDGES; i++) {
        uint64_t a = edges[i];
#define ONE_LITERAL(lit)                                                    \
        eq = hash_step(eq, CMPEQ_L(a, lit));                                \
        le = hash_step(le, CMPLE_L(a, lit));                                \
        ule = hash_step(ule, CMPULE_L(a, lit));                             \
        zap = hash_step(zap, ZAPNOT_L(a, lit));                             \
        sub = hash_step(hash_step(sub, SUBQ_L(a, lit)), SUBL_L(a, lit));    \
        sub = hash_step(hash_step(sub, S4SUBQ_L(a, lit)), S8SUBQ_L(a, lit)); \
        logic = hash_step(hash_step(logic, BIC_L(a, lit)), ORNOT_L(a, lit)); \
        logic = hash_step(logic, EQV_L(a, lit));
        LITERALS(ONE_LITERAL)
#undef ONE_LITERAL
        /* the values equal to a literal, which the edges hit rarely */
        eq = hash_step(eq, CMPEQ_L(a & 0xff, 0x80) + 2 * CMPEQ_L(a & 0xff, 0xff));
    }
    printf("cmpeq literal %016" PRIx64 "\ncmple literal %016" PRIx64 "\n", eq, le);
    printf("cmpule literal %016" PRIx64 "\nzapnot literal %016" PRIx64 "\n", ule, zap);
    printf("subtract literal %016" PRIx64 "\nbic ornot eqv literal %016" PRIx64 "\n", sub, logic);
}

/* Unaligned quadword loads and stores at every offset of a buffer. */
static void unaligned_quadwords(void)
{
    static uint64_t words[6];
    unsigned char *buf = (unsigned char *)words;
    for (int k = 0; k < (int)sizeof words; k++) buf[k] = (unsigned char)(k * 37 + 11);
    uint64_t loads = 0;
    for (int off = 0; off < 33; off++) loads = hash_step(loads, ldq_u(buf + off));
    for (int off = 0; off < 33; off++) stq_u(buf + off, edges[off % N_EDGES] ^ (uint64_t)off);
    uint64_t stored = 0;
    for (int k = 0; k < 6; k++) stored = hash_step(stored, words[k]);
    printf("ldq_u %016" PRIx64 "\nstq_u %016" PRIx64 "\n", loads, stored);
}

int main(void)
{
    register_forms();
    literal_forms();
    unaligned_quadwords();
    return 0;
}
