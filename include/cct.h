/*
 * cct.h - calling context trees (Ammons, Ball and Larus, PLDI 1997, sec. 4)
 * and the exact one of a run.
 *
 * A node is a calling context: the path of call sites from the root.  Node
 * 0 is the root (no procedure); every other node is keyed by (parent, call
 * site pc in the parent, callee entry pc), so call sites are distinguished
 * and indirect calls get one child per target.  Recursion is NOT folded:
 * recursive contexts stay distinct nodes down to the real depth (what a
 * stack unwinder sees, so the sampled tree of csprof can be scored against
 * this one node for node).  A node keeps its self cost: instructions,
 * cycles (head cycles, when a timing model runs), samples (csprof), and the
 * calls on the edge from its parent.
 *
 * cct_truth_t is the exact observer: the run loop (sim/engine.c, behind
 * the ground-truth feature) hands it every program call, return and jump.
 * Calls push a frame (return address, stack pointer at the call); a return
 * pops the frame whose return address is its target, else (longjmp, a
 * return through csprof's trampoline) every frame whose call was made at
 * or below the new stack pointer: returns are matched by stack pointer and
 * return address, never by counting.  A jump out of the current procedure
 * to another procedure's entry is a tail call: the callee replaces the
 * caller under the caller's parent, at the caller's call site (its frame
 * is the caller's, as an unwinder sees it).  Costs are charged lazily: at
 * each context change the instructions and cycles since the last one go to
 * the node being left.  A program that exits from deep inside simply
 * leaves its frames.
 *
 * Threads: each guest thread has its own shadow stack and its own tree
 * (root, then the procedure the thread started in: the leader's entry
 * point, a clone's child the procedure its clone returns into).  The
 * running thread's state lives in the fields below, where a
 * single-threaded run keeps it (so csprof and single-threaded output are
 * unchanged); the run loop calls cct_truth_switch at each thread switch,
 * which charges what ran to the thread being left and parks its state.
 * One tree per thread rather than one tree with a root per thread: a
 * thread's node ids, depths and inclusive sums are those of a
 * single-threaded run doing the same work, and cct_same_context compares
 * them directly.
 */
#ifndef HPS_CCT_H
#define HPS_CCT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "symtab.h"

#define CCT_ROOT 0u
#define CCT_MAX_EVENTS 4
#define CCT_NONE UINT32_MAX

typedef struct cct_node {
    uint64_t site;              /* call-site pc in the parent (0: root's)   */
    uint64_t entry;             /* the callee's entry (the call's target)  */
    uint32_t parent;            /* CCT_NONE for the root                    */
    uint32_t depth;             /* root 0                                   */
    uint64_t calls;             /* entered from the parent at site          */
    uint64_t tail_calls;        /* of which by a tail call                  */
    uint64_t insts, cycles;     /* self cost                                */
    uint64_t samples;           /* csprof samples with this context         */
    uint64_t events[CCT_MAX_EVENTS];  /* self counts of the observer's
                                   events (cct_truth_t.events)              */
} cct_node_t;

typedef struct cct {
    cct_node_t *nodes;
    size_t n, cap;
    uint32_t *index;            /* open addressing: node id + 1, 0 = empty  */
    size_t index_cap;
} cct_t;

void cct_init(cct_t *t);
void cct_free(cct_t *t);
/* The child of parent for (site, entry), created when absent. */
uint32_t cct_child(cct_t *t, uint32_t parent, uint64_t site, uint64_t entry);
/* The same without creating: CCT_NONE when absent. */
uint32_t cct_find(const cct_t *t, uint32_t parent, uint64_t site, uint64_t entry);
/* Inclusive sums of a field over each node's subtree: out[n] (n = t->n).
 * Children always have larger ids than their parents. */
typedef enum { CCT_INSTS, CCT_CYCLES, CCT_SAMPLES, CCT_CALLS, CCT_EVENT0 } cct_metric_t;
/* (CCT_EVENT0 + k: node.events[k]) */
uint64_t cct_value(const cct_node_t *n, cct_metric_t m);
void cct_inclusive(const cct_t *t, cct_metric_t m, uint64_t *out);
/* The node with the same path of (site, entry) in other, CCT_NONE when
 * other has no such context; map[] must hold the answers of n's ancestors
 * (walk ids in increasing order). */
uint32_t cct_same_context(const cct_t *t, uint32_t n, const cct_t *other, const uint32_t *map);

/* Print the tree indented, children by inclusive `m`, nodes whose
 * inclusive share is below min_share (0..1) left out, at most max_nodes. */
struct export_profile;
#include <stdio.h>
void cct_print(const cct_t *t, cct_metric_t m, double min_share, size_t max_nodes,
               const symtab_t *symtab, FILE *out);
/* Every node as one stack (root first, each frame its procedure at the call
 * site to the next, the last at its entry), self values of the metrics
 * ms[0..nm-1] and its call count: what export_write writes. */
void cct_export(const cct_t *t, const cct_metric_t *ms, size_t nm, const symtab_t *symtab,
                const char *image, struct export_profile *p);
/* The same with a frame named `root` (e.g. "thread 1001") above every
 * stack; root NULL: none, as cct_export. */
void cct_export_under(const cct_t *t, const char *root, const cct_metric_t *ms, size_t nm,
                      const symtab_t *symtab, const char *image, struct export_profile *p);

/* ---- the exact observer ------------------------------------------------------------- */

typedef struct cct_frame {
    uint32_t node;              /* the caller's node                        */
    uint64_t ret;               /* the return address                       */
    uint64_t sp;                /* the stack pointer at the call            */
} cct_frame_t;

/* A thread's part of the observer while another thread runs. */
typedef struct cct_thread {
    uint64_t tid;
    cct_t tree;
    cct_frame_t *stack;
    size_t depth, stack_cap;
    uint32_t cur;
    uint64_t cur_lo, cur_hi;
} cct_thread_t;

typedef struct cct_truth {
    uint64_t tid;               /* the running thread (the guest's tid)     */
    cct_t tree;
    cct_frame_t *stack;
    size_t depth, stack_cap;
    uint32_t cur;               /* the running context                      */
    uint64_t cur_lo, cur_hi;    /* its procedure's extent (tail calls)      */
    uint64_t last_insts, last_cycles;
    const uint64_t *events;     /* running event totals to charge per node
                                   (the PMU's, pmu_event_counts), or NULL  */
    unsigned nevents;           /* how many (<= CCT_MAX_EVENTS)             */
    uint64_t last_events[CCT_MAX_EVENTS];
    unsigned sp_reg;            /* unified number of the stack pointer      */
    const symtab_t *symtab;
    uint64_t trampoline;        /* csprof's trampoline address (0: none): a
                                   return to it is an ordinary return       */
    /* what happened */
    uint64_t calls, returns, tail_calls, nonlocal_returns, unmatched_returns;
    size_t max_depth;
    cct_thread_t *parked;       /* the other threads' trees and stacks      */
    size_t nparked, parked_cap;
} cct_truth_t;

/* Start with the context of the procedure at entry_pc under the root. */
void cct_truth_init(cct_truth_t *t, const symtab_t *symtab, unsigned sp_reg, uint64_t entry_pc);
void cct_truth_free(cct_truth_t *t);
/* A program call, return or jump (in->flags) just executed at pc: c->pc is
 * its target; instret and cycles are the run's counts including it. */
void cct_truth_step(cct_truth_t *t, cpu_t *c, const insn_t *in, uint64_t pc, uint64_t cycles);
/* Charge what ran since the last step (the end of the run). */
void cct_truth_settle(cct_truth_t *t, uint64_t instret, uint64_t cycles);
/* The running thread (tid at init: SYS_GUEST_PID's, set by the caller). */
void cct_truth_set_tid(cct_truth_t *t, uint64_t tid);
/* The guest switched to thread tid at pc (instret and cycles: the run's
 * counts at the switch): what ran goes to the thread left, whose state is
 * parked; tid's is restored, or started in the procedure holding pc. */
void cct_truth_switch(cct_truth_t *t, uint64_t tid, uint64_t pc, uint64_t instret,
                      uint64_t cycles);
/* The threads seen (1 without threads) and the k-th one's tree in
 * increasing tid order (k < cct_truth_threads). */
size_t cct_truth_threads(const cct_truth_t *t);
const cct_t *cct_truth_thread_tree(const cct_truth_t *t, size_t k, uint64_t *tid);

#endif /* HPS_CCT_H */
