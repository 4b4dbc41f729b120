/*
 * timing.h - the timing models behind one small interface.
 *
 * A model runs the program itself: it fetches and executes each
 * instruction through the shared ISA semantics (functional first, so the
 * outcome of every branch and the address of every access are known) and
 * then computes, from the machine's resources, the cycle at which the
 * instruction enters each pipeline stage.  For in-order machines this
 * timestamp formulation is exact: an instruction's stage times depend only
 * on its own operands and on older instructions; the out-of-order model
 * schedules in program order too, which is oldest-first selection.
 *
 *   inorder5  the textbook IF-ID-EX-MEM-WB pipeline: switchable forwarding
 *             paths, load-use interlock, configurable branch-resolution stage
 *   ev5       an N-wide in-order superscalar like the Alpha 21164: issue in
 *             order from the head of the issue queue, slotting and
 *             functional-unit constraints; a stalled head holds the rest
 *   ooo       an out-of-order superscalar like the MIPS R10000: renaming,
 *             active list, issue queues, branch stack, non-blocking loads,
 *             in-order graduation (preset r10k)
 */
#ifndef HPS_TIMING_H
#define HPS_TIMING_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core.h"
#include "stats.h"

struct config;
struct disasm;
struct symtab;

/* Reasons an instruction waited at the head of the issue queue. */
#define STALL_LIST(X) \
    X(STALL_NONE,       "none")        X(STALL_ICACHE,  "icache_miss")  \
    X(STALL_ITLB,       "itlb_miss")   X(STALL_DCACHE,  "dcache_miss")  \
    X(STALL_DTLB,       "dtlb_miss")   X(STALL_MISPREDICT, "branch_mispredict") \
    X(STALL_WBUF,       "write_buffer") X(STALL_FU,     "fu_busy")      \
    X(STALL_DEP,        "data_dependency") X(STALL_SLOT, "slotting")     \
    X(STALL_FETCH,      "fetch")
#define STALL_ENUM(id, name) id,
typedef enum { STALL_LIST(STALL_ENUM) STALL_COUNT } stall_t;
#undef STALL_ENUM
extern const char *const stall_names[STALL_COUNT];

typedef struct timing_outputs {
    FILE *kanata;                 /* Kanata log for Konata, or NULL        */
    uint64_t view_from, view_to;  /* instruction window [from, to)         */
    FILE *diagram;                /* text pipeline diagram, or NULL        */
    FILE *o3pipeview;             /* gem5 O3PipeView trace, or NULL        */
    FILE *ground_truth;           /* per-instruction truth file, or NULL   */
    struct disasm *disasm;
    const struct symtab *symtab;
} timing_outputs_t;

struct timing;
typedef struct timing timing_t;

/* What the run loop (sim/engine.c) touches for each instruction it hands
 * to the model: the first member of struct timing, read through
 * timing_hot().  The loop sets the DISE fields before it times an
 * instruction a replacement inserted or a handler ran. */
typedef void (*timing_insn_fn)(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc);
#define TIMING_HOT_FIELDS                                                                   \
    timing_insn_fn time_insn;   /* the model's: time one executed instruction          */ \
    uint64_t seq;               /* instructions timed so far                            */ \
    uint64_t cycles;            /* cycles so far                                        */ \
    uint64_t head_sum;          /* sum of head cycles: the last one's head cycle + 1    */ \
    uint64_t pmu_gate;          /* the PMU's gate (pmu_due_t.gate), which it keeps      */ \
                                /* here; UINT64_MAX without a PMU                        */ \
    uint8_t cur_role;           /* dise_role_t of the instruction being timed           */ \
    uint8_t penalty_role;       /* the role a new replacement's decode cycles go to     */ \
    bool dise_redirect;         /* the inserted operation changed the flow              */ \
    unsigned front_penalty;     /* decode cycles of a new replacement                   */
typedef struct timing_hot { TIMING_HOT_FIELDS } timing_hot_t;
static inline timing_hot_t *timing_hot(timing_t *t) { return (timing_hot_t *)t; }

/* Time an instruction the core has just executed (its effective address
 * and next pc are in c); c->cycle follows the model.  True when the head
 * cycle sum has reached the PMU's gate: an interrupt may be due (pmu.h). */
static inline bool timing_step(timing_t *t, cpu_t *c, const insn_t *in)
{
    timing_hot_t *h = timing_hot(t);
    h->time_insn(t, in, c->mem_addr, c->pc);
    h->seq++;
    c->cycle = h->cycles;
    return h->head_sum >= h->pmu_gate;
}

/* The timing models, one row each, keyed by the configuration's `model`.  A
 * model with state of its own beyond the shared machine (caches,
 * predictors, scoreboard in struct timing) builds, reports and frees it
 * through its row. */
typedef struct timing_model {
    int cfg_model;              /* its `model` value (config.h CFG_MODEL_)  */
    timing_insn_fn time_insn;
    bool static_schedule;       /* has a meaningful static schedule (DCPI)  */
    void *(*new_state)(const struct config *cfg);
    void (*free_state)(void *state);
    void (*state_stats)(const void *state, uint64_t cycles, stats_t *out);
    timing_insn_fn time_insn_heads;   /* time_insn for a run that keeps the
                                         heads' ground truth only (DCPI's): its
                                         quick path records them; or NULL   */
    bool takes_blocks;          /* reads nothing of the cpu but the slot, the
                                   address and next pc it is handed: may time
                                   the functional core's decoded blocks
                                   (blocks.h: blocks_execute_timed)          */
    timing_insn_fn time_insn_plain, time_insn_plain_heads;
                                /* time_insn and time_insn_heads of a run
                                   whose every instruction is plain (no DISE
                                   role or penalty) and quick: they do not ask
                                   (timing_block_insn); or NULL             */
} timing_model_t;
extern const timing_model_t timing_models[];
extern const size_t timing_model_count;

/* May the run loop hand the model a decoded block's instructions one after
 * another as they execute (blocks_execute_timed) instead of stepping?  All
 * three: the out-of-order model's wrong path reads the cpu's registers and
 * memory, which the block loop keeps in the cpu, and none of what it leaves
 * stale there (pc, instret, cycle: the walk sets its shadow's pc itself, and
 * a CSR read or system call ends it). */
bool timing_takes_blocks(const timing_t *t);
/* The model's entry for the timed block loop of a run without DISE: the
 * run's time_insn, or one that leaves out the questions whose answer such a
 * run knows (every instruction is the program's, with no DISE role). */
timing_insn_fn timing_block_insn(const timing_t *t);
/* NULL + message in err when the configuration does not describe a model. */
timing_t *timing_new(const struct config *cfg, char *err, size_t errlen);
void timing_set_outputs(timing_t *t, const timing_outputs_t *out);
/* Cycles by DISE role (dise_role_t) of every instruction timed so far:
 * the issue cycle to the instruction's role, stalls to their culprit's. */
void timing_role_cycles(const timing_t *t, uint64_t *out, size_t n);
/* The performance counters the model reports events to (pmu.h), or NULL. */
struct pmu;
void timing_set_pmu(timing_t *t, struct pmu *p);
/* The cpu whose instructions are timed: the out-of-order model walks its
 * wrong paths on a shadow of it (ooo.wrong_path). */
void timing_set_cpu(timing_t *t, cpu_t *c);
/* The ProfileMe sampler the model records selected instructions for
 * (profileme.h), or NULL. */
struct profileme;
void timing_set_profileme(timing_t *t, struct profileme *pm);
void timing_stats(const timing_t *t, const cpu_t *c, stats_t *out);
void timing_finish(timing_t *t);      /* flush views and the truth file */
/* Record each instruction's head cycles even without a ground-truth file,
 * and read them back: fn(pc, executions, head cycles) per static pc. */
void timing_keep_heads(timing_t *t);
/* Where most of the code runs (the program's text, [lo, hi)): the
 * per-pc truth keeps its records there in one flat array, a slot per
 * 2 bytes, and those of any other code (shared libraries, the DCPI
 * driver) apart.  Only the speed of recording depends on it; called
 * before the first instruction is timed (later, it is ignored). */
void timing_set_code(timing_t *t, uint64_t lo, uint64_t hi);

/* For the interactive shell: keep the stages of the last TIMING_RECENT
 * instructions (with disassembly) and the last one's head cycles, stall
 * cause and culprit.  timing_recent copies them out oldest first. */
#define TIMING_RECENT 64
struct pv_insn;
void timing_record_recent(timing_t *t, struct disasm *dis);
size_t timing_recent(const timing_t *t, struct pv_insn *out, size_t max);
bool timing_last_head(const timing_t *t, uint64_t *head, uint8_t *cause, uint64_t *culprit);
/* And the model's caches ("l1i", "l1d", "l2"), TLBs ("itlb", "dtlb") and
 * branch predictor, to look at (cache.h, bpred.h); NULL if it has none. */
struct cache;
struct tlb;
struct bpred;
const struct cache *timing_cache(const timing_t *t, const char *name);
const struct tlb *timing_tlb(const timing_t *t, const char *name);
const struct bpred *timing_bpred(const timing_t *t);

/* The static schedule of a basic block on the model of cfg (in-order
 * models): the head cycles each instruction needs when the block runs
 * with its caches and predictors warm and nothing in flight from before it
 * -- DCPI's M_i: the machine's issue rules, latencies and slotting only;
 * every load hits, no store waits for the write buffer, no TLB miss or
 * misprediction -- and, where that is more than 1, the static stall cause
 * of the extra cycles (slotting, dependency, functional unit, fetch) and
 * its culprit pc.  false + err for a model
 * without a meaningful static schedule (functional, ooo). */
typedef struct timing_static {
    uint64_t head;
    uint8_t cause;
    uint64_t culprit;
} timing_static_t;
/* The cycles from an operation's issue to its result's use, per opclass
 * (lat.*: a load's is the load-use latency of a hit), as the models use
 * them. */
void timing_latencies(const struct config *cfg, unsigned lat[OC_COUNT]);
bool timing_static_schedule(const struct config *cfg, const isa_t *isa, const insn_t *block,
                            size_t n, timing_static_t *out, char *err, size_t errlen);
void timing_for_each_head(const timing_t *t, void (*fn)(void *ctx, uint64_t pc, uint64_t count,
                                                        uint64_t head), void *ctx);
void timing_free(timing_t *t);

#endif /* HPS_TIMING_H */
