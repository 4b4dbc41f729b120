/*
 * test_cfg.c - procedure control-flow graphs and their frequency
 * equivalence classes (dcpi/cfg.c) on hand-assembled RISC-V code: block
 * boundaries (branches, jumps, targets; calls do not split), edges to
 * EXIT for returns and tail jumps, the classes of an if-then-else and of
 * a loop (what must run equally often shares a class, nothing else does),
 * a switch's indirect jump making every block a class of its own, an
 * Alpha jump through pv being a tail call (to EXIT) rather than a switch,
 * and dead code outside every live class; switches whose jump tables are
 * read from the image (gcc's RISC-V table of offsets from its address, the
 * address kept in a stack slot across a call, Alpha's offsets from gp),
 * each target a block with its own edge, and a table address a call
 * clobbers left unread.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "alpha_encode.h"
#include "cfg.h"
#include "timing_harness.h"

#define BASE 0x10000u
#define RET    enc_i(0, 1, 0, 0, 0x67)          /* jalr x0, 0(ra) */
#define JR(r)  enc_i(0, r, 0, 0, 0x67)          /* jalr x0, 0(r): a switch unless r is ra/t0 */
#define J(off) enc_j(off, 0)
#define CALL(off) enc_j(off, 1)

static void build(const uint32_t *code, size_t n, cfg_t *g)
{
    assert_true(cfg_build(&isa_rv64, (const uint8_t *)code, BASE, 4 * n, g));
    assert_int_equal(g->ninsns, n);
}

/* The class of the edge from -> to (the first such edge). */
static int edge_class(const cfg_t *g, int from, int to)
{
    for (size_t e = 0; e < g->nedges; e++)
        if (g->edges[e].from == from && g->edges[e].to == to) return g->edges[e].cls;
    fail_msg("no edge %d -> %d", from, to);
    return -1;
}

static void test_diamond(void **state)
{
    /* A: add, beq -> C | B: add, j D | C: add | D: add, ret */
    const uint32_t code[] = { ADD(T0, A1, A2), BEQ(A0, ZERO, 12), ADD(T1, A1, A1), J(8),
                              ADD(T1, A2, A2), ADD(T2, T1, T0), RET };
    cfg_t g;
    build(code, 7, &g);
    assert_int_equal(g.nblocks, 4);
    assert_false(g.missing_edges);
    const cfg_block_t *b = g.blocks;
    assert_int_equal(b[0].n, 2);
    assert_int_equal(b[1].n, 2);
    assert_int_equal(b[2].n, 1);
    assert_int_equal(b[3].n, 2);
    /* A and D run equally often; B and C each with their edges */
    assert_int_equal(b[0].cls, b[3].cls);
    assert_int_equal(edge_class(&g, CFG_ENTRY, 0), b[0].cls);
    assert_int_equal(edge_class(&g, 3, CFG_EXIT), b[0].cls);
    assert_int_equal(edge_class(&g, 0, 1), b[1].cls);
    assert_int_equal(edge_class(&g, 1, 3), b[1].cls);
    assert_int_equal(edge_class(&g, 0, 2), b[2].cls);
    assert_int_equal(edge_class(&g, 2, 3), b[2].cls);
    assert_int_not_equal(b[1].cls, b[2].cls);
    assert_int_not_equal(b[0].cls, b[1].cls);
    cfg_free(&g);
}

static void test_loop(void **state)
{
    /* A: add | L: add, add (a call), bne -> L | E: ret */
    const uint32_t code[] = { ADD(T0, A1, A2), ADD(T1, T1, T0), CALL(0x100), BNE(T1, A0, -8),
                              RET };
    cfg_t g;
    build(code, 5, &g);
    assert_int_equal(g.nblocks, 3);                       /* the call does not split */
    const cfg_block_t *b = g.blocks;
    assert_int_equal(b[1].n, 3);
    assert_int_equal(b[0].cls, b[2].cls);
    assert_int_equal(edge_class(&g, 0, 1), b[0].cls);     /* into the loop, once */
    assert_int_equal(edge_class(&g, 1, 2), b[0].cls);     /* out of it, once     */
    int back = edge_class(&g, 1, 1);
    assert_int_not_equal(b[1].cls, b[0].cls);              /* the body: N times   */
    assert_int_not_equal(back, b[1].cls);                  /* the back edge: N-1  */
    assert_int_not_equal(back, b[0].cls);
    assert_int_equal(g.nclasses, 3);
    cfg_free(&g);
}

static void test_tail_jump_and_switch(void **state)
{
    /* a jump out of the procedure goes to EXIT */
    const uint32_t tail[] = { ADD(T0, A1, A2), J(0x400) };
    cfg_t g;
    build(tail, 2, &g);
    assert_int_equal(edge_class(&g, 0, CFG_EXIT), g.blocks[0].cls);
    assert_false(g.missing_edges);
    cfg_free(&g);
    /* a switch: targets unknown, every block and edge on its own */
    const uint32_t sw[] = { ADD(15, A1, A2), BEQ(A0, ZERO, 8), JR(15), ADD(T1, A1, A1), RET };
    build(sw, 5, &g);
    assert_true(g.missing_edges);
    for (size_t x = 0; x < g.nblocks; x++)
        for (size_t y = x + 1; y < g.nblocks; y++)
            assert_int_not_equal(g.blocks[x].cls, g.blocks[y].cls);
    cfg_free(&g);
}

/* Alpha: jmp $31,($27) enters a procedure with its address in pv, a tail
 * call: EXIT, and the classes stand; jmp $31,($1) is a switch. */
static void test_alpha_tail_call(void **state)
{
    enum { AL_T0 = 1, AL_A0 = 16, AL_A1 = 17, AL_A2 = 18, AL_RA = 26, AL_PV = 27, AL_ZERO = 31 };
    /* A: addq, beq -> C | B: jmp (pv or t0) | C: addq, ret */
    for (int sw = 0; sw < 2; sw++) {
        const uint32_t code[] = { al_opr(0x10, 0x20, AL_A1, AL_A2, AL_T0),
                                  al_br(0x39, AL_A0, 1),
                                  al_jmp(0, AL_ZERO, sw ? AL_T0 : AL_PV, 0),
                                  al_opr(0x10, 0x20, AL_A1, AL_A1, AL_T0),
                                  al_jmp(2, AL_ZERO, AL_RA, 1) };
        cfg_t g;
        assert_true(cfg_build(&isa_alpha, (const uint8_t *)code, BASE, sizeof code, &g));
        assert_int_equal(g.nblocks, 3);
        assert_int_equal(g.missing_edges, sw == 1);
        if (!sw) {
            assert_int_equal(edge_class(&g, 1, CFG_EXIT), g.blocks[1].cls);
            assert_int_equal(edge_class(&g, CFG_ENTRY, 0), g.blocks[0].cls);
            assert_int_not_equal(g.blocks[0].cls, g.blocks[1].cls);
            assert_int_not_equal(g.blocks[1].cls, g.blocks[2].cls);
        }
        cfg_free(&g);
    }
}

static void test_dead_code(void **state)
{
    /* A: ret | B: add (nothing reaches it) | C: ret */
    const uint32_t code[] = { ADD(T0, A1, A2), RET, ADD(T1, A1, A1), RET };
    cfg_t g;
    build(code, 4, &g);
    assert_int_equal(g.nblocks, 2);
    assert_true(g.blocks[0].live);
    assert_false(g.blocks[1].live);
    assert_int_not_equal(g.blocks[0].cls, g.blocks[1].cls);
    cfg_free(&g);
}

/* ---- switches through jump tables ------------------------------------------------- */

#define RODATA 0x20000u
#define LUI(rd, hi20) enc_u(hi20, rd)
#define SLLI(rd, rs, sh) enc_i(sh, rs, 1, rd, 0x13)
#define LW(rd, base, off) enc_i(off, base, 2, rd, 0x03)
enum { SP = 2, A5 = 15 };

/* A read-only image: bytes at base. */
typedef struct image { uint64_t base; const void *bytes; size_t n; } image_t;

static size_t read_image(void *ctx, uint64_t addr, uint8_t *buf, size_t len)
{
    const image_t *im = ctx;
    if (addr < im->base || addr >= im->base + im->n) return 0;
    size_t left = (size_t)(im->base + im->n - addr), got = len < left ? len : left;
    memcpy(buf, (const uint8_t *)im->bytes + (addr - im->base), got);
    return got;
}

/* The block starting at pc. */
static int block_at_pc(const cfg_t *g, uint64_t pc)
{
    for (size_t b = 0; b < g->nblocks; b++)
        if (g->insns[g->blocks[b].first].pc == pc) return (int)b;
    fail_msg("no block at 0x%llx", (unsigned long long)pc);
    return -1;
}

/* The CFG of code at BASE, with the table at RODATA in the image. */
static void build_switch(const isa_t *isa, const uint32_t *code, size_t n, const int32_t *table,
                         size_t nentries, cfg_t *g)
{
    image_t im = { RODATA, table, nentries * sizeof *table };
    cfg_image_t img = { read_image, &im };
    assert_true(cfg_build_image(isa, (const uint8_t *)code, BASE, 4 * n, &img, g));
}

/* The jump's block has an edge to each case and the cases are classes
 * of their own. */
static void assert_two_cases(const cfg_t *g, size_t jump, size_t case0, size_t case1)
{
    assert_false(g->missing_edges);
    assert_int_equal(g->switches, 1);
    int j = (int)cfg_block_of(g, jump), c0 = block_at_pc(g, BASE + 4 * case0),
        c1 = block_at_pc(g, BASE + 4 * case1);
    assert_int_equal(edge_class(g, j, c0), g->blocks[c0].cls);
    assert_int_equal(edge_class(g, j, c1), g->blocks[c1].cls);
    assert_int_not_equal(g->blocks[c0].cls, g->blocks[c1].cls);
    assert_int_not_equal(g->blocks[j].cls, g->blocks[c0].cls);
    assert_int_equal(edge_class(g, CFG_ENTRY, 0), g->blocks[j].cls);
}

/* gcc's RISC-V switch: entries are 32-bit offsets from the table's
 * address, which is added back after the load; the table ends at the
 * first entry that names no instruction of the procedure. */
static void test_rv64_jump_table(void **state)
{
    const uint32_t code[] = { LUI(A3, RODATA >> 12), SLLI(A5, A0, 2), ADD(A5, A5, A3),
                              LW(A5, A5, 0), ADD(A5, A5, A3), JR(A5),
                              ADD(T1, A1, A1), RET, ADD(T2, A1, A2), RET };
    const int32_t table[] = { BASE + 24 - RODATA, BASE + 32 - RODATA, BASE + 32 - RODATA,
                              0x7fff0000, BASE + 28 - RODATA };
    cfg_t g;
    build_switch(&isa_rv64, code, 10, table, 5, &g);
    assert_int_equal(g.nblocks, 3);                 /* the entry after the end is not read */
    assert_two_cases(&g, 5, 6, 8);
    cfg_free(&g);
    assert_true(cfg_build(&isa_rv64, (const uint8_t *)code, BASE, sizeof code, &g));
    assert_true(g.missing_edges);                    /* without the image */
    cfg_free(&g);
}

/* The table's address saved on the stack across a call and restored; a
 * caller-saved register that holds it across the call is not known. */
static void test_rv64_jump_table_spilled(void **state)
{
    const int32_t table[] = { BASE + 36 - RODATA, BASE + 44 - RODATA, -1 };
    for (int restored = 0; restored < 2; restored++) {
        const uint32_t code[] = { LUI(A3, RODATA >> 12), SD(A3, SP, 8), CALL(0x400),
                                  restored ? LD(A3, SP, 8) : NOP, SLLI(A5, A0, 2),
                                  ADD(A5, A5, A3), LW(A5, A5, 0), ADD(A5, A5, A3), JR(A5),
                                  ADD(T1, A1, A1), RET, ADD(T2, A1, A2), RET };
        cfg_t g;
        build_switch(&isa_rv64, code, 13, table, 3, &g);
        if (restored) assert_two_cases(&g, 8, 9, 11);
        else assert_true(g.missing_edges);
        cfg_free(&g);
    }
}

/* Alpha: gp from pv on entry (ldah/lda), the table at an offset from gp,
 * s4addq, ldl of an offset from gp, addq gp. */
static void test_alpha_jump_table(void **state)
{
    enum { AL_T0 = 1, AL_T1 = 2, AL_A0 = 16, AL_A1 = 17, AL_RA = 26, AL_PV = 27, AL_GP = 29,
           AL_ZERO = 31 };
    const uint32_t gp = RODATA + 0x100;
    const uint32_t code[] = { al_mem(0x09, AL_GP, AL_PV, (RODATA - BASE) >> 16),
                              al_mem(0x08, AL_GP, AL_GP, 0x100),
                              al_mem(0x08, AL_T1, AL_GP, -0x100),
                              al_opr(0x10, 0x22, AL_A0, AL_T1, AL_T0),
                              al_mem(0x28, AL_T0, AL_T0, 0),
                              al_opr(0x10, 0x20, AL_GP, AL_T0, AL_T0),
                              al_jmp(0, AL_ZERO, AL_T0, 0),
                              al_opr(0x10, 0x20, AL_A1, AL_A1, AL_T0),
                              al_jmp(2, AL_ZERO, AL_RA, 1),
                              al_opr(0x10, 0x20, AL_A1, AL_A0, AL_T0),
                              al_jmp(2, AL_ZERO, AL_RA, 1) };
    const int32_t table[] = { (int32_t)(BASE + 28 - gp), (int32_t)(BASE + 36 - gp), 0x40000000 };
    cfg_t g;
    build_switch(&isa_alpha, code, 11, table, 3, &g);
    assert_int_equal(g.nblocks, 3);
    assert_two_cases(&g, 6, 7, 9);
    cfg_free(&g);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diamond),
        cmocka_unit_test(test_loop),
        cmocka_unit_test(test_tail_jump_and_switch),
        cmocka_unit_test(test_alpha_tail_call),
        cmocka_unit_test(test_dead_code),
        cmocka_unit_test(test_rv64_jump_table),
        cmocka_unit_test(test_rv64_jump_table_spilled),
        cmocka_unit_test(test_alpha_jump_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
