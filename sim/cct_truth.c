/*
 * cct_truth.c - the exact calling context tree of a run (cct.h): a shadow
 * stack of the program's calls, fed by the run loop with every call,
 * return and jump of the program, off the instruction fast path (the
 * ground-truth variant of the loop only).  Threads: one stack and tree
 * per thread, the running one's in place, the others parked (cct.h).
 */
#include "cct.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

/* The extent of the procedure at pc, for telling a tail call from a jump
 * inside it: [lo, hi), empty when no symbol holds pc. */
static void set_extent(cct_truth_t *t, uint64_t pc)
{
    const symbol_t *s = t->symtab ? symtab_lookup(t->symtab, pc) : NULL;
    if (s && pc >= s->addr && pc < s->addr + (s->size ? s->size : 1)) {
        t->cur_lo = s->addr;
        t->cur_hi = s->addr + (s->size ? s->size : 1);
    } else {
        t->cur_lo = t->cur_hi = pc;
    }
}

static bool is_entry(const cct_truth_t *t, uint64_t pc)
{
    const symbol_t *s = t->symtab ? symtab_lookup(t->symtab, pc) : NULL;
    return s && s->addr == pc;
}

void cct_truth_init(cct_truth_t *t, const symtab_t *symtab, unsigned sp_reg, uint64_t entry_pc)
{
    memset(t, 0, sizeof *t);
    cct_init(&t->tree);
    t->symtab = symtab;
    t->sp_reg = sp_reg;
    t->stack_cap = 256;
    t->stack = xcalloc(t->stack_cap, sizeof *t->stack);
    t->cur = cct_child(&t->tree, CCT_ROOT, 0, entry_pc);
    t->tree.nodes[t->cur].calls = 1;
    set_extent(t, entry_pc);
}

void cct_truth_free(cct_truth_t *t)
{
    cct_free(&t->tree);
    free(t->stack);
    for (size_t k = 0; k < t->nparked; k++) {
        cct_free(&t->parked[k].tree);
        free(t->parked[k].stack);
    }
    free(t->parked);
    memset(t, 0, sizeof *t);
}

void cct_truth_settle(cct_truth_t *t, uint64_t instret, uint64_t cycles)
{
    cct_node_t *n = &t->tree.nodes[t->cur];
    n->insts += instret - t->last_insts;
    n->cycles += cycles - t->last_cycles;
    t->last_insts = instret;
    t->last_cycles = cycles;
    for (unsigned k = 0; k < t->nevents; k++) {
        n->events[k] += t->events[k] - t->last_events[k];
        t->last_events[k] = t->events[k];
    }
}

static void enter(cct_truth_t *t, uint32_t node, uint64_t target)
{
    t->cur = node;
    t->tree.nodes[node].calls++;
    set_extent(t, target);
}

static void on_call(cct_truth_t *t, uint64_t site, uint64_t ret, uint64_t sp, uint64_t target)
{
    if (t->depth == t->stack_cap) {
        t->stack_cap *= 2;
        t->stack = xrealloc(t->stack, t->stack_cap * sizeof *t->stack);
    }
    t->stack[t->depth++] = (cct_frame_t){ .node = t->cur, .ret = ret, .sp = sp };
    if (t->depth > t->max_depth) t->max_depth = t->depth;
    t->calls++;
    enter(t, cct_child(&t->tree, t->cur, site, target), target);
}

/* Pop to the frame a return to target with stack pointer sp goes back to. */
static void on_return(cct_truth_t *t, uint64_t target, uint64_t sp)
{
    size_t d = t->depth;
    if (d && t->stack[d - 1].ret == target) {
        d--;
    } else {
        while (d && t->stack[d - 1].sp <= sp) d--;
        if (d == t->depth) {            /* returns to no frame: a jump by ret */
            t->unmatched_returns++;
            return;
        }
        if (target != t->trampoline || t->depth - d > 1) t->nonlocal_returns++;
    }
    t->returns++;
    t->cur = t->stack[d].node;
    t->depth = d;
    set_extent(t, target == t->trampoline && t->trampoline ? t->stack[d].ret : target);
}

static void on_tail_call(cct_truth_t *t, uint64_t target)
{
    const cct_node_t *n = &t->tree.nodes[t->cur];
    if (n->parent == CCT_NONE) return;
    uint32_t id = cct_child(&t->tree, n->parent, n->site, target);
    t->tail_calls++;
    t->tree.nodes[id].tail_calls++;
    enter(t, id, target);
}

void cct_truth_step(cct_truth_t *t, cpu_t *c, const insn_t *in, uint64_t pc, uint64_t cycles)
{
    uint64_t target = c->pc;
    if (in->flags & IF_CALL) {
        cct_truth_settle(t, c->instret, cycles);
        on_call(t, pc, pc + in->len, c->reg[t->sp_reg], target);
    } else if (in->flags & IF_RETURN) {
        cct_truth_settle(t, c->instret, cycles);
        on_return(t, target, c->reg[t->sp_reg]);
    } else if ((target < t->cur_lo || target >= t->cur_hi) && is_entry(t, target)) {
        cct_truth_settle(t, c->instret, cycles);
        on_tail_call(t, target);
    }
}

/* ---- threads ----------------------------------------------------------------------------- */

void cct_truth_set_tid(cct_truth_t *t, uint64_t tid) { t->tid = tid; }

static cct_thread_t running_state(const cct_truth_t *t)
{
    return (cct_thread_t){ .tid = t->tid, .tree = t->tree, .stack = t->stack, .depth = t->depth,
                           .stack_cap = t->stack_cap, .cur = t->cur, .cur_lo = t->cur_lo,
                           .cur_hi = t->cur_hi };
}

static void make_running(cct_truth_t *t, const cct_thread_t *s)
{
    t->tid = s->tid;
    t->tree = s->tree;
    t->stack = s->stack;
    t->depth = s->depth;
    t->stack_cap = s->stack_cap;
    t->cur = s->cur;
    t->cur_lo = s->cur_lo;
    t->cur_hi = s->cur_hi;
}

/* A thread seen for the first time: its tree starts with the procedure
 * holding pc (where its clone returns), entered once. */
static cct_thread_t new_thread(const cct_truth_t *t, uint64_t tid, uint64_t pc)
{
    cct_thread_t s = { .tid = tid, .stack_cap = 64 };
    cct_init(&s.tree);
    s.stack = xcalloc(s.stack_cap, sizeof *s.stack);
    const symbol_t *sym = t->symtab ? symtab_lookup(t->symtab, pc) : NULL;
    bool inside = sym && pc >= sym->addr && pc < sym->addr + (sym->size ? sym->size : 1);
    s.cur = cct_child(&s.tree, CCT_ROOT, 0, inside ? sym->addr : pc);
    s.tree.nodes[s.cur].calls = 1;
    s.cur_lo = inside ? sym->addr : pc;
    s.cur_hi = inside ? sym->addr + (sym->size ? sym->size : 1) : pc;
    return s;
}

void cct_truth_switch(cct_truth_t *t, uint64_t tid, uint64_t pc, uint64_t instret,
                      uint64_t cycles)
{
    cct_truth_settle(t, instret, cycles);
    if (tid == t->tid) return;
    size_t k = 0;
    while (k < t->nparked && t->parked[k].tid != tid) k++;
    cct_thread_t next = k < t->nparked ? t->parked[k] : new_thread(t, tid, pc);
    if (k == t->nparked) {                              /* room for the one left */
        if (t->nparked == t->parked_cap) {
            t->parked_cap = t->parked_cap ? 2 * t->parked_cap : 8;
            t->parked = xrealloc(t->parked, t->parked_cap * sizeof *t->parked);
        }
        t->nparked++;
    }
    t->parked[k] = running_state(t);
    make_running(t, &next);
}

size_t cct_truth_threads(const cct_truth_t *t) { return t->nparked + 1; }

const cct_t *cct_truth_thread_tree(const cct_truth_t *t, size_t k, uint64_t *tid)
{
    /* the k-th smallest tid among the running thread and the parked ones */
    for (size_t i = 0; i <= t->nparked; i++) {
        uint64_t id = i < t->nparked ? t->parked[i].tid : t->tid;
        size_t below = 0;
        for (size_t j = 0; j < t->nparked; j++) below += t->parked[j].tid < id;
        below += t->tid < id;
        if (below != k) continue;
        *tid = id;
        return i < t->nparked ? &t->parked[i].tree : &t->tree;
    }
    *tid = t->tid;
    return &t->tree;
}
