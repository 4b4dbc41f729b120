/*
 * test_cfg.c - procedure control-flow graphs and their frequency
 * equivalence classes (dcpi/cfg.c) on hand-assembled RISC-V code: block
 * boundaries (branches, jumps, targets; calls do not split), edges to
 * EXIT for returns and tail jumps, the classes of an if-then-else and of
 * a loop (what must run equally often shares a class, nothing else does),
 * a switch's indirect jump making every block a class of its own, an
 * Alpha jump through pv being a tail call (to EXIT) rather than a switch,
 * and dead code outside every live class.
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_diamond),
        cmocka_unit_test(test_loop),
        cmocka_unit_test(test_tail_jump_and_switch),
        cmocka_unit_test(test_alpha_tail_call),
        cmocka_unit_test(test_dead_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
