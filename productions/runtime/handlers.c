/*
 * handlers.c - the profile handlers of the guest runtime, in C.  Each one
 * appends one sample to the profile buffer `hps_profile` (hps_profile.h).
 * They are reached through the assembly stubs of stubs.S, which switch to
 * the runtime's stack, save every register C may clobber and load the
 * arguments from the DISE registers d8..d11.
 *
 * Built freestanding for rv64imac/lp64 with -mcmodel=medany -mno-relax: no
 * FP registers and no gp/tp use, because while a handler runs gp, tp and the
 * FP registers still hold the program's values.
 */
#include "hps_insn.h"
#include "hps_profile.h"
#include "pp_cct.h"

/* The host writes magic, version and capacity when it loads the runtime. */
hps_profile_t hps_profile;

/* Append one sample; a full buffer is first handed to the host. */
static inline __attribute__((always_inline))
void hps_append(uint64_t kind, uint64_t a, uint64_t b, uint64_t c)
{
    hps_profile_t *p = &hps_profile;
    uint64_t n = p->hdr.count;
    if (__builtin_expect(n >= HPS_PROFILE_CAPACITY, 0)) {
        p->hdr.flushes++;
        hps_flush();
        n = p->hdr.count;
        if (n >= HPS_PROFILE_CAPACITY) {     /* the host did not drain it */
            p->hdr.dropped++;
            return;
        }
    }
    hps_sample_t *s = &p->samples[n];
    s->kind = kind;
    s->a = a;
    s->b = b;
    s->c = c;
    p->hdr.count = n + 1;
}

/* Hot method: the method is named by the target of the call or back-edge. */
void hps_hot_method(uint64_t pc, uint64_t target)
{
    hps_append(HPS_SAMPLE_METHOD, target, pc, 0);
}

void hps_call_pair(uint64_t pc, uint64_t target)
{
    hps_append(HPS_SAMPLE_CALL_PAIR, pc, target, 0);
}

void hps_data_stream(uint64_t pc, uint64_t ea, uint64_t burst)
{
    hps_append(HPS_SAMPLE_DATA, pc, ea, burst);
}

/* ---- PP on DISE (tools/hps-pp-acf.c) -------------------------------------------------
 * The path register lives in d0.  A call pushes the caller's, with the
 * return address, the program's sp at the call and the calling-context
 * node d5 (pp_cct.h; 0 when the ACF keeps no CCT); the instruction at the
 * return address pops them when control comes back from that call (same
 * pc, same sp), and leaves d0 alone when a branch brought it there.
 * Entries whose sp lies below the current one belong to frames a longjmp
 * left: they are dropped, d0 is poisoned (a path number no procedure has),
 * so the path in flight is counted as lost, as the exact recorder does,
 * and d5 goes back to the node of the outermost frame dropped (the exact
 * CCT pops to it). */
#define PATH_STACK 32768
#define PATH_POISON (1ull << 62)
static struct { uint64_t r, ret, sp, node; } path_stack[PATH_STACK];
static uint64_t path_depth, path_overflows;

/* The calling context tree (hps-pp-acf --cct). */
ppc_tree_t hps_pp_cct;

void hps_path_count(uint64_t entry, uint64_t sum)
{
    hps_append(HPS_SAMPLE_PATH, entry, sum, hps_mfd5());
}

void hps_path_push(uint64_t r, uint64_t ret)
{
    if (path_depth == PATH_STACK) {
        path_overflows++;
        return;
    }
    path_stack[path_depth].r = r;
    path_stack[path_depth].ret = ret;
    path_stack[path_depth].sp = hps_mfd13();
    path_stack[path_depth].node = hps_mfd5();
    path_depth++;
}

void hps_path_pop(uint64_t pc)
{
    uint64_t sp = hps_mfd13();
    int dropped = 0;
    uint64_t node = 0;
    while (path_depth && path_stack[path_depth - 1].sp < sp) {
        path_depth--;
        node = path_stack[path_depth].node;
        dropped = 1;
    }
    if (path_depth && path_stack[path_depth - 1].ret == pc && path_stack[path_depth - 1].sp == sp) {
        path_depth--;
        hps_mtd0(path_stack[path_depth].r);
        hps_mtd5(path_stack[path_depth].node);
    } else if (dropped || path_overflows) {
        hps_mtd0(PATH_POISON);
        if (dropped) hps_mtd5(node);
    }
}

/* The child of parent for (site, entry), made when new; the parent itself
 * when the nodes ran out (counted).  Children are a list kept most
 * recently used first, so a loop's repeated call finds its node first. */
static uint32_t pp_child(ppc_tree_t *t, uint32_t parent, uint64_t site, uint64_t entry)
{
    if (t->nnodes == 0) {                       /* node 0: the first procedure */
        t->nodes[0].parent = t->nodes[0].child = t->nodes[0].sibling = PPC_NONE;
        t->nnodes = 1;
    }
    ppc_node_t *p = &t->nodes[parent];
    uint32_t prev = PPC_NONE;
    t->lookups++;
    for (uint32_t k = p->child; k != PPC_NONE; prev = k, k = t->nodes[k].sibling) {
        ppc_node_t *c = &t->nodes[k];
        t->steps++;
        if (c->site != site || c->entry != entry) continue;
        if (prev != PPC_NONE) {
            t->nodes[prev].sibling = c->sibling;
            c->sibling = p->child;
            p->child = k;
        }
        return k;
    }
    if (t->nnodes >= PPC_MAX_NODES) {
        t->nodes_full++;
        return parent;
    }
    uint32_t n = (uint32_t)t->nnodes++;
    ppc_node_t *c = &t->nodes[n];
    c->site = site;
    c->entry = entry;
    c->calls = c->tail_calls = 0;
    c->parent = parent;
    c->child = PPC_NONE;
    c->sibling = p->child;
    p->child = n;
    return n;
}

/* A call at site to entry: d5 moves to that child (the push saved the
 * caller's). */
void hps_path_enter(uint64_t site, uint64_t entry)
{
    uint32_t n = pp_child(&hps_pp_cct, (uint32_t)hps_mfd5(), site, entry);
    hps_pp_cct.nodes[n].calls++;
    hps_mtd5(n);
}

/* A jump to another procedure's entry: the callee replaces the current
 * context under its parent, at its call site (the exact CCT's tail call). */
void hps_path_tail(uint64_t entry)
{
    ppc_tree_t *t = &hps_pp_cct;
    uint32_t cur = (uint32_t)hps_mfd5();
    if (t->nnodes == 0 || t->nodes[cur].parent == PPC_NONE) return;
    uint32_t n = pp_child(t, t->nodes[cur].parent, t->nodes[cur].site, entry);
    t->nodes[n].calls++;
    t->nodes[n].tail_calls++;
    hps_mtd5(n);
}
