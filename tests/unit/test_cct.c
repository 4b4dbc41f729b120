/*
 * test_cct.c - the calling context tree (sim/cct.c) and its exact observer
 * (sim/cct_truth.c): nodes keyed by (parent, call site, callee), inclusive
 * sums, the same context found in another tree; calls and returns matched
 * by return address, a longjmp popping by stack pointer, a tail call
 * replacing its caller, recursion kept as distinct nodes, and a return to
 * no frame left alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "cct.h"

static void test_children_are_keyed_by_site_and_callee(void **state)
{
    (void)state;
    cct_t t;
    cct_init(&t);
    uint32_t a = cct_child(&t, CCT_ROOT, 0, 0x100);
    uint32_t b = cct_child(&t, a, 0x104, 0x200);
    uint32_t b2 = cct_child(&t, a, 0x108, 0x200);     /* another call site */
    uint32_t c = cct_child(&t, a, 0x104, 0x300);      /* another target there */
    assert_int_not_equal(b, b2);
    assert_int_not_equal(b, c);
    assert_int_equal(cct_child(&t, a, 0x104, 0x200), b);
    assert_int_equal(cct_find(&t, a, 0x108, 0x200), b2);
    assert_int_equal(cct_find(&t, b, 0x108, 0x200), CCT_NONE);
    assert_int_equal(t.nodes[b].depth, 2);
    assert_int_equal(t.nodes[b].parent, a);
    for (int k = 0; k < 5000; k++) cct_child(&t, b, 0x1000 + 4 * (uint64_t)k, 0x400);  /* grows */
    assert_int_equal(t.n, 5 + 5000);
    assert_int_equal(cct_find(&t, b, 0x1000 + 4 * 4999, 0x400), 5 + 4999);
    assert_int_equal(cct_find(&t, a, 0x104, 0x200), b);
    cct_free(&t);
}

static void test_inclusive_and_same_context(void **state)
{
    (void)state;
    cct_t t, u;
    cct_init(&t);
    cct_init(&u);
    uint32_t a = cct_child(&t, CCT_ROOT, 0, 0x100), b = cct_child(&t, a, 0x104, 0x200),
             c = cct_child(&t, a, 0x108, 0x300);
    t.nodes[a].insts = 1;
    t.nodes[b].insts = 10;
    t.nodes[c].insts = 100;
    uint64_t inc[4];
    cct_inclusive(&t, CCT_INSTS, inc);
    assert_int_equal(inc[a], 111);
    assert_int_equal(inc[b], 10);
    assert_int_equal(inc[CCT_ROOT], 111);
    uint32_t ua = cct_child(&u, CCT_ROOT, 0, 0x100), uc = cct_child(&u, ua, 0x108, 0x300);
    uint32_t map[4];
    for (uint32_t k = 0; k < t.n; k++) map[k] = cct_same_context(&t, k, &u, map);
    assert_int_equal(map[a], ua);
    assert_int_equal(map[c], uc);
    assert_int_equal(map[b], CCT_NONE);
    cct_free(&t);
    cct_free(&u);
}

/* ---- the observer, on a made-up cpu ------------------------------------------------ */

enum { SP = 2 };
static symbol_t syms[] = { { 0x1000, 0x100, "main" }, { 0x2000, 0x100, "f" },
                           { 0x3000, 0x100, "g" }, { 0x4000, 0x100, "h" } };
static symtab_t symtab = { syms, 4, NULL };

typedef struct rig {
    cct_truth_t t;
    cpu_t c;
    uint64_t cycles;
} rig_t;

static void rig_init(rig_t *r)
{
    memset(r, 0, sizeof *r);
    r->c.reg[SP] = 0x8000;
    cct_truth_init(&r->t, &symtab, SP, 0x1000);
}

/* n plain instructions, then a transfer at pc to target (flags). */
static void step(rig_t *r, unsigned n, uint64_t pc, uint16_t flags, uint64_t target)
{
    r->c.instret += n + 1;
    r->cycles += 2 * (n + 1);
    insn_t in = { .pc = pc, .flags = flags, .len = 4 };
    r->c.pc = target;
    cct_truth_step(&r->t, &r->c, &in, pc, r->cycles);
}

static void call(rig_t *r, uint64_t pc, uint64_t target) { step(r, 3, pc, IF_CALL | IF_JUMP, target); r->c.reg[SP] -= 32; }
static void ret(rig_t *r, uint64_t pc, uint64_t to) { r->c.reg[SP] += 32; step(r, 1, pc, IF_RETURN | IF_JUMP, to); }

static void test_calls_returns_recursion(void **state)
{
    (void)state;
    rig_t r;
    rig_init(&r);
    uint32_t main_node = r.t.cur;
    for (int k = 0; k < 3; k++) {            /* main -> f -> f -> g, three times */
        call(&r, 0x1010, 0x2000);
        call(&r, 0x2010, 0x2000);            /* recursion: a node of its own */
        call(&r, 0x2020, 0x3000);
        ret(&r, 0x3008, 0x2024);
        ret(&r, 0x2030, 0x2014);
        ret(&r, 0x2030, 0x1014);
    }
    const cct_t *t = &r.t.tree;
    uint32_t f1 = cct_find(t, main_node, 0x1010, 0x2000), f2 = cct_find(t, f1, 0x2010, 0x2000),
             g = cct_find(t, f2, 0x2020, 0x3000);
    assert_int_not_equal(f2, CCT_NONE);
    assert_int_not_equal(g, CCT_NONE);
    assert_int_equal(t->nodes[f1].calls, 3);
    assert_int_equal(t->nodes[f2].calls, 3);
    assert_int_equal(t->nodes[g].calls, 3);
    assert_int_equal(t->nodes[g].insts, 3 * 2);   /* the ret and the one before it */
    assert_int_equal(r.t.cur, main_node);
    assert_int_equal(r.t.depth, 0);
    assert_int_equal(r.t.returns, 9);
    assert_int_equal(r.t.nonlocal_returns, 0);
    cct_truth_settle(&r.t, r.c.instret, r.cycles);
    uint64_t inc[16];
    cct_inclusive(t, CCT_INSTS, inc);
    assert_int_equal(inc[CCT_ROOT], r.c.instret);
    cct_inclusive(t, CCT_CYCLES, inc);
    assert_int_equal(inc[CCT_ROOT], r.cycles);
    cct_truth_free(&r.t);
}

static void test_longjmp_tail_call_unmatched(void **state)
{
    (void)state;
    rig_t r;
    rig_init(&r);
    uint32_t main_node = r.t.cur;
    call(&r, 0x1010, 0x2000);                /* main -> f -> g -> h, then longjmp to f */
    uint64_t f_sp = r.c.reg[SP];
    call(&r, 0x2010, 0x3000);
    call(&r, 0x3010, 0x4000);
    r.c.reg[SP] = f_sp;                      /* longjmp: ret to f's setjmp return point */
    step(&r, 1, 0x9000, IF_RETURN | IF_JUMP, 0x2044);
    uint32_t f = cct_find(&r.t.tree, main_node, 0x1010, 0x2000);
    assert_int_equal(r.t.cur, f);
    assert_int_equal(r.t.depth, 1);
    assert_int_equal(r.t.nonlocal_returns, 1);
    step(&r, 2, 0x2050, IF_JUMP | IF_DIRECT, 0x2060);     /* a jump inside f */
    assert_int_equal(r.t.cur, f);
    step(&r, 2, 0x2064, IF_JUMP | IF_DIRECT, 0x3000);     /* tail call f -> g */
    uint32_t g = cct_find(&r.t.tree, main_node, 0x1010, 0x3000);
    assert_int_equal(r.t.cur, g);
    assert_int_equal(r.t.tree.nodes[g].tail_calls, 1);
    assert_int_equal(r.t.tail_calls, 1);
    ret(&r, 0x3020, 0x1014);                 /* g returns to main, for f */
    assert_int_equal(r.t.cur, main_node);
    step(&r, 0, 0x1020, IF_RETURN | IF_JUMP, 0x5000);     /* a return to no frame */
    assert_int_equal(r.t.unmatched_returns, 1);
    assert_int_equal(r.t.cur, main_node);
    cct_truth_free(&r.t);
}

/* Two threads that switch in the middle of their calls: each has its own
 * stack and tree, what ran before a switch is charged to the thread left,
 * and a new thread's tree starts in the procedure it resumes in. */
static void test_threads_keep_their_own_trees(void **state)
{
    (void)state;
    rig_t r;
    rig_init(&r);
    cct_truth_set_tid(&r.t, 1000);
    call(&r, 0x1010, 0x2000);                   /* thread 1000: main -> f */
    r.c.instret += 5;                           /* 5 more in f, then a switch */
    r.cycles += 10;
    uint64_t sp_main = r.c.reg[SP];
    r.c.reg[SP] = 0x9000;                       /* thread 1001, new, resumes in g */
    cct_truth_switch(&r.t, 1001, 0x3040, r.c.instret, r.cycles);
    assert_int_equal(cct_truth_threads(&r.t), 2);
    call(&r, 0x3050, 0x4000);                   /* g -> h */
    r.c.instret += 7;
    r.cycles += 14;
    r.c.reg[SP] = sp_main;                      /* back to 1000, still in f */
    cct_truth_switch(&r.t, 1000, 0x2018, r.c.instret, r.cycles);
    ret(&r, 0x2030, 0x1014);                    /* f returns to main */
    cct_truth_settle(&r.t, r.c.instret, r.cycles);
    uint64_t tid0, tid1;
    const cct_t *t0 = cct_truth_thread_tree(&r.t, 0, &tid0);
    const cct_t *t1 = cct_truth_thread_tree(&r.t, 1, &tid1);
    assert_int_equal(tid0, 1000);
    assert_int_equal(tid1, 1001);
    uint32_t main0 = cct_find(t0, CCT_ROOT, 0, 0x1000), f = cct_find(t0, main0, 0x1010, 0x2000);
    uint32_t g = cct_find(t1, CCT_ROOT, 0, 0x3000), h = cct_find(t1, g, 0x3050, 0x4000);
    assert_int_not_equal(f, CCT_NONE);
    assert_int_not_equal(h, CCT_NONE);
    assert_int_equal(cct_find(t0, main0, 0x3050, 0x4000), CCT_NONE);   /* h is 1001's only */
    assert_int_equal(t0->nodes[main0].insts, 4);            /* up to the call */
    assert_int_equal(t0->nodes[f].insts, 5 + 2);            /* before the switch, then the ret */
    assert_int_equal(t1->nodes[g].insts, 4);                /* 1001 from its start to its call */
    assert_int_equal(t1->nodes[h].insts, 7);
    assert_int_equal(t1->nodes[h].cycles, 14);
    assert_int_equal(r.t.tid, 1000);
    assert_int_equal(r.t.cur, main0);
    uint64_t inc0[8], inc1[8];
    cct_inclusive(t0, CCT_INSTS, inc0);
    cct_inclusive(t1, CCT_INSTS, inc1);
    assert_int_equal(inc0[CCT_ROOT] + inc1[CCT_ROOT], r.c.instret);
    cct_truth_free(&r.t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_children_are_keyed_by_site_and_callee),
        cmocka_unit_test(test_inclusive_and_same_context),
        cmocka_unit_test(test_calls_returns_recursion),
        cmocka_unit_test(test_longjmp_tail_call_unmatched),
        cmocka_unit_test(test_threads_keep_their_own_trees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
