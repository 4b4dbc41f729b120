/*
 * csprof_guest.h - csprof's state in the guest handler runtime (Froyd et
 * al., ICS 2005), one layout for both sides:
 *   - the guest handlers (csprof_driver.c): CSPROF_interrupt on every
 *     counter overflow unwinds the program's stack with the unwind table,
 *     records the path in the CCT and moves the trampoline;
 *     CSPROF_trampoline runs when a return reaches the trampoline;
 *   - the host (dcpi/csprof_guest.c), which writes the per-PC unwind table
 *     and the return-address table before the run and reads the CCT and
 *     the counters out after it.
 *
 * The unwind table is sorted ranges: rule k covers [lo_k, lo_{k+1}).  Each
 * gives the procedure's entry, where the canonical frame address (CFA) is
 * (sp + off, fp + off, or: the outermost frame), where the return address
 * is (a register, or the word at CFA + off) and where the caller's frame
 * pointer was saved (CFA + off, or not saved).  The return-address table
 * is the sorted addresses that follow a call instruction: a word read
 * from the stack is taken for a return address only if it is one of them.
 * Both are indexed by buckets of the text (2^index_shift bytes from
 * text_lo): bucket b's entries begin at rule_index[b] / ret_index[b] (the
 * number of entries below its first address), so a lookup searches a
 * bucket's few entries instead of the whole table.
 *
 * Each guest thread (the tid the PMU passes, thread.h) has its own
 * trampoline state, cached call stack and subtree: a child of node 0 whose
 * entry is the tid.  Fixed-width types, no division (the Alpha runtime
 * has no divide instruction and no libgcc).
 */
#ifndef HPS_CSPROF_GUEST_H
#define HPS_CSPROF_GUEST_H

#include <stdint.h>

#define CSPG_MAGIC      0x3146525053434850ull   /* "PHCSPRF1" in memory order */
#define CSPG_MAX_RULES  (96u << 10)
#define CSPG_MAX_RETS   (64u << 10)
#define CSPG_MAX_NODES  (48u << 10)
#define CSPG_MAX_THREADS 8u
#define CSPG_MAX_DEPTH  8192u                 /* cached frames per thread  */
#define CSPG_MAX_WALK   8192u                 /* frames one sample walks    */
#define CSPG_INDEX      (32u << 10)           /* buckets of the text        */
#define CSPG_HISTORY    16u                   /* past installs per thread   */
#define CSPG_NONE       0xffffffffu

enum { CSPG_RULE_NONE, CSPG_RULE_SP, CSPG_RULE_FP, CSPG_RULE_ROOT };

typedef struct cspg_rule {
    uint64_t lo;                /* first pc of the range                      */
    uint64_t entry;             /* its procedure's entry                      */
    int32_t cfa_off;            /* CFA = sp or fp + cfa_off                    */
    int32_t ra_off;             /* the return address at CFA + ra_off ...     */
    int32_t fp_off;             /* the caller's fp at CFA + fp_off (fp_saved)  */
    uint8_t kind;               /* CSPG_RULE_*                                */
    uint8_t ra_reg;             /* ... or in this register (0: in memory)     */
    uint8_t fp_saved;
    uint8_t no_trampoline;      /* setjmp: it may save its return address  */
} cspg_rule_t;

typedef struct cspg_node {
    uint64_t site, entry;       /* call site in the parent, callee's entry    */
    uint64_t samples;           /* samples with this context                  */
    uint64_t calls;             /* returns through the trampoline (its edge)  */
    uint32_t parent, child, sibling, pad;
} cspg_node_t;

typedef struct cspg_frame {     /* one cached frame, outermost first          */
    uint64_t cfa, entry;
    uint32_t node, pad;
} cspg_frame_t;

typedef struct cspg_thread {
    uint64_t tid;               /* 0: a free slot                             */
    uint32_t root;              /* the thread's subtree                       */
    uint32_t depth;             /* cached frames                              */
    uint64_t tramp_on;          /* the trampoline is in stack[depth-1]'s slot */
    uint64_t tramp_addr;        /* that slot: a stack word, or 0: a register  */
    uint64_t tramp_reg;         /* the register (tramp_addr 0)                */
    uint64_t tramp_saved;       /* the return address it replaced             */
    uint64_t samples, failures;
    /* the last installs: a copy of the trampoline that outlived its slot
     * (saved by setjmp and brought back by longjmp) returns with sp at its
     * frame's CFA, and is resumed at that frame's return address */
    uint64_t hist_cfa[CSPG_HISTORY], hist_ret[CSPG_HISTORY];
    uint64_t hist_next;
    cspg_frame_t stack[CSPG_MAX_DEPTH];
} cspg_thread_t;

/* The configuration (host, before the run) and the counters (guest). */
typedef struct cspg_state {
    uint64_t magic;             /* CSPG_MAGIC (host, last)                    */
    uint64_t trampoline;        /* the trampoline's program address (host)   */
    uint64_t nrules, nrets;     /* table sizes (host)                         */
    uint64_t seed;              /* the period generator's state (host seeds)  */
    uint64_t period_lo, period_span, wrap;   /* (host)                       */
    uint64_t ra_reg, sp_reg, fp_reg;         /* the ISA's (host)             */
    uint64_t resume;            /* where CSPROF_trampoline returns to          */
    uint64_t text_lo, index_shift, nbuckets;  /* the index (host)          */
    uint64_t interrupted_pc;    /* where the program resumes after the sample
                                   (the host: the trap frame's pc)            */
    uint64_t last_node;         /* the last sample's context                  */
    uint64_t nnodes;
    uint64_t samples, frames_walked, cached_frames_used, trampoline_returns;
    uint64_t tail_calls, trampoline_lost, samples_on_trampoline, failures;
    uint64_t nodes_full, threads_full, trampoline_unknown, trampoline_stale;
} cspg_state_t;

typedef struct cspg {
    cspg_state_t st;
    cspg_rule_t rules[CSPG_MAX_RULES];
    uint64_t rets[CSPG_MAX_RETS];
    uint32_t rule_index[CSPG_INDEX + 1];
    uint32_t ret_index[CSPG_INDEX + 1];
    cspg_node_t nodes[CSPG_MAX_NODES];
    cspg_thread_t threads[CSPG_MAX_THREADS];
} cspg_t;

_Static_assert(sizeof(cspg_rule_t) == 32, "cspg_rule_t layout");
_Static_assert(sizeof(cspg_node_t) == 48, "cspg_node_t layout");
_Static_assert(sizeof(cspg_frame_t) == 24, "cspg_frame_t layout");
_Static_assert(sizeof(cspg_state_t) == 30 * 8, "cspg_state_t layout");

#endif /* HPS_CSPROF_GUEST_H */
