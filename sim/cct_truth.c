/*
 * cct_truth.c - the exact calling context tree of a run (cct.h): a shadow
 * stack of the program's calls, fed by the run loop with every call,
 * return and jump of the program, off the instruction fast path (the
 * ground-truth variant of the loop only).
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
