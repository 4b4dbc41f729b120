/*
 * dcpicalc.h - DCPI's per-instruction analysis (SOSP'97 section 6): from
 * the CYCLES samples of a procedure, estimate how often each instruction
 * ran (frequency), how many cycles it spent at the head of the issue queue
 * each time (CPI), and why it stalled beyond its static schedule
 * (culprits).
 *
 *  1. the procedure's CFG and frequency equivalence classes (cfg.h);
 *  2. M_i, the head cycles of each instruction in its block's static
 *     schedule, from the same timing model that produced the samples
 *     (timing_static_schedule); an issue point is an instruction with
 *     M_i > 0;
 *  3. per class, the frequency F from the ratios S / M of its issue points,
 *     each with the samples of the M = 0 instructions its schedule issues
 *     with it (its issue group): the cluster of points consistent with one
 *     F within their Poisson noise that holds the most of them (at least a
 *     quarter), re-centred on its sum(S) / sum(M) -- sought first among the
 *     points no culprit rule could explain a stall of, when two or more of
 *     them agree; a class with few samples uses sum(S) / sum(M) instead;
 *  4. a class resting on one issue point is an upper bound (its stalls
 *     count as frequency): where the flow constraints with the other
 *     estimates make it lower, it takes that value; classes without an
 *     estimate get one by local propagation of the flow constraints (a
 *     block's frequency is the sum of its in-edges' and of its
 *     out-edges'), never negative; then, where IMISS samples lie on its
 *     point, the cycles of the I-cache misses they project, at the cost
 *     per miss the run measures, are taken off its samples (an estimate,
 *     no longer a bound; dcpicalc_unstall);
 *  5. a confidence (low, medium, high) from how many issue points and
 *     samples the estimate rests on, or "propagated";
 *  6. CPI_i = S_i / F; the stall beyond M_i is dynamic, explained by every
 *     culprit that cannot be ruled out: an I-cache miss (first instruction
 *     of a cache line, of a block entered from another line, or after a
 *     call), a D-cache miss (an operand loaded in this block or a
 *     predecessor, unless an instruction in between read it: in order, it
 *     waited then), a dependency (a callee's result -- not the call's link
 *     register --, a predecessor's long operation, a load ending a
 *     predecessor within the load-use latency; unless the ceilings of the
 *     edges on the paths back to the producer bound it below an eighth of
 *     the stall), a branch misprediction (a
 *     block entered from a conditional or indirect transfer, unless the
 *     edge frequencies bound it below an eighth of the stall; the return
 *     point after a call when the model has no return stack), the write
 *     buffer (a store, unless its loaded operand may have missed and it is
 *     alone, in a block of fewer stores than the buffer's entries, or
 *     loaded within the load-use latency before it), a
 *     busy unit (a divide whose unit's last user is close before it and
 *     its result unread since, unless the executions that can find it busy
 *     bound it below an eighth of the stall); where IMISS or DMISS were
 *     collected, no such sample on the instruction (IMISS) or within the
 *     skid around it (DMISS) rules the miss out -- not the I-cache where
 *     the whole stall, in misses at the next level's hit, would hold under
 *     one IMISS sample's worth and no D-cache miss is listed (its absence
 *     proves nothing) --, and the I-cache misses
 *     IMISS projects on it
 *     (with its period) can bound the I-cache below an eighth of the
 *     stall; where BRANCHMP was, the mispredictions its samples through
 *     the skid after a block head project bound the misprediction so;
 *     a D-TLB miss (an operand loaded, as for the D-cache) only where
 *     DTBMISS was collected and has samples within the skid around the
 *     instruction, and not where the D-TLB misses those samples project
 *     (with its period) are below an eighth of the stall, or, with a
 *     D-cache culprit, no more than the D-cache misses DMISS projects
 *     there (a miss in both is charged to the D-cache); an I-TLB miss
 *     where an I-cache miss can be (a new line's page), by ITBMISS's
 *     samples on the instruction and the next as the D-TLB's by DTBMISS,
 *     against the I-cache misses IMISS projects there.  Where the misses
 *     IMISS projects at their Poisson lower bound, each at the next level's
 *     hit latency, explain all but an eighth of the stall, the I-cache (and
 *     the I-TLB) is the only culprit.  Where no cost per miss is measured
 *     (dcpicalc_unstall with none), the I-cache beside another culprit is
 *     bounded at the next level's hit a miss.  The caller's value beside
 *     a D-cache miss that DMISS samples near it (two or more, none on it)
 *     show is no dependency.
 * F is in executions per sampling period, so F x P estimates the count.
 */
#ifndef HPS_DCPICALC_H
#define HPS_DCPICALC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"
#include "timing.h"

struct config;

enum { CONF_NONE, CONF_PROPAGATED, CONF_LOW, CONF_MEDIUM, CONF_HIGH };
extern const char *const dcpicalc_confidence_names[];

typedef struct dcpicalc_insn {
    uint64_t samples;           /* S_i: CYCLES samples                      */
    uint64_t imiss;             /* IMISS samples (0 when not collected)     */
    uint64_t dmiss;             /* DMISS samples (0 when not collected)     */
    uint64_t branchmp;          /* BRANCHMP samples (0 when not collected)  */
    uint64_t dtbmiss;           /* DTBMISS samples (0 when not collected)   */
    uint64_t itbmiss;           /* ITBMISS samples (0 when not collected)   */
    timing_static_t sched;      /* M_i and its static stall                 */
    double freq;                /* F of its block's class; < 0 unknown      */
    double cpi;                 /* S_i / F, < 0 unknown                     */
    uint32_t culprits;          /* 1 << stall_t of each dynamic candidate   */
} dcpicalc_insn_t;

typedef struct dcpicalc {
    cfg_t cfg;
    dcpicalc_insn_t *insn;      /* one per cfg.insns                       */
    double *class_freq;         /* per class, < 0 unknown                   */
    int *class_conf;            /* CONF_*                                  */
    int *class_points;          /* issue points in its cluster (0: none)   */
    bool *class_paired;         /* its cluster is one block head that may
                                   issue with a stalled predecessor: F may
                                   be low                                  */
    uint64_t *class_single_m;   /* per class whose cluster is one issue point:
                                   its M, and the IMISS samples of the
                                   instructions whose samples it sums (0
                                   for other classes)                      */
    uint64_t *class_single_imiss;
    double *exact_freq;         /* per class, what the classes of several
                                   agreeing issue points determine alone
                                   by flow (sums and exact differences);
                                   < 0 unknown                             */
    unsigned line_bytes;        /* I-cache line of the model               */
    unsigned wbuf_entries;      /* write buffer entries of the model (0: none) */
    uint64_t call_results;      /* registers a callee returns its result in
                                   (the ABI's; unified numbers < 64)       */
    bool has_imiss, has_dmiss;  /* the procedure has samples of the event  */
    bool has_branchmp;
    bool has_dtbmiss;           /* DTBMISS was collected (or has samples)  */
    bool has_itbmiss;           /* ITBMISS was collected (or has samples)  */
    unsigned mispredict_bound;  /* most cycles a misprediction costs        */
    double imiss_per_period;    /* I-cache misses an IMISS sample stands for,
                                   per CYCLES period (their periods' ratio;
                                   0: unknown)                             */
    double branchmp_per_period; /* mispredictions a BRANCHMP sample stands
                                   for, per CYCLES period (0: unknown)     */
    double dtbmiss_per_period;  /* D-TLB misses a DTBMISS sample stands for,
                                   per CYCLES period (0: unknown)          */
    double dmiss_per_period;    /* D-cache misses a DMISS sample stands for
                                   (0: unknown)                            */
    unsigned dtb_miss_bound;    /* most cycles a D-TLB miss costs (its
                                   refill: dtlb.miss_penalty)              */
    double itbmiss_per_period;  /* I-TLB misses an ITBMISS sample stands for,
                                   per CYCLES period (0: unknown)          */
    unsigned itb_miss_bound;    /* most cycles an I-TLB miss costs
                                   (itlb.miss_penalty)                     */
    unsigned refill_least;      /* fewest cycles an I-cache miss costs: the
                                   next level's hit latency               */
    unsigned miss_bound;        /* most cycles an L1 miss costs when it is
                                   alone: to memory and the line back      */
    bool has_ras;               /* the model predicts returns by a stack    */
    uint32_t unit_waiters;      /* opclasses that wait for a busy unit
                                   themselves (ev5: divides on an unpipelined
                                   divider), 1u << opclass                 */
    size_t load_use_reach;      /* instructions after a load its consumer can
                                   still wait for a hit (the load-use
                                   latency)                                */
    unsigned latency[OC_COUNT]; /* result latency of each opclass (lat.*)  */
    unsigned issue_width;       /* instructions issued a cycle at most     */
    size_t dependency_reach;    /* instructions back a producer can still
                                   hold an operand: the longest latency x
                                   issue width                             */
    uint64_t settled;           /* registers a caller cannot have computed
                                   just before the call (stack, global and
                                   thread pointers, return address, the
                                   call's target), unified numbers < 64    */
    size_t unit_reach;          /* instructions back a unit's last user can
                                   keep it busy (its latency x issue width) */
    unsigned unit_wait_bound;   /* most cycles a divide waits for its busy
                                   unit (the longest unpipelined latency;
                                   0: no such wait on this model)          */
    bool waits_behind_long_op;  /* inorder5: the instruction after a
                                   multi-cycle operation waits for EX      */
    double icache_cycles;       /* the I-cache's cost measure: the dynamic
                                   stall cycles of the instructions whose
                                   one culprit is the I-cache (the I-TLB
                                   beside it) and have IMISS samples ...   */
    uint64_t icache_imiss;      /* ... and those samples (dcpicalc_icache_cost) */
    bool unstalled;             /* the one-point classes' I-cache stalls
                                   were taken off (at the procedure's own
                                   cost per miss, or dcpicalc_unstall's)   */
} dcpicalc_t;

/* Samples of an event at an address (the profile database's record). */
typedef uint64_t (*dcpicalc_samples_fn)(void *ctx, int event, uint64_t addr);

/* Analyse the procedure whose code (its image's bytes) is [start, start +
 * size), on the timing model of cfg.  false + err when nothing decodes or
 * the model has no static schedule. */
bool dcpicalc_run(dcpicalc_t *dc, const struct config *cfg, const isa_t *isa,
                  const uint8_t *code, uint64_t start, size_t size,
                  dcpicalc_samples_fn samples, void *ctx, char *err, size_t errlen);
/* The same, told which events were collected for the image (a mask of
 * 1 << pmu_event_t): an IMISS or DMISS event that was collected but has no
 * sample near an instruction rules out an I-cache or D-cache miss there;
 * a D-TLB (I-TLB) miss is a culprit only where DTBMISS (ITBMISS) was
 * collected and has samples near it.
 * DCPICALC_EVENTS_SEEN: the events with samples in the procedure.  periods
 * (NULL: unknown), indexed by pmu_event_t, is each event's mean sampling
 * period (0: unknown): with CYCLES' and IMISS's, the I-cache misses IMISS
 * projects bound the I-cache's part of a stall; with BRANCHMP's, the
 * mispredictions it projects bound the misprediction's; with DTBMISS's,
 * the D-TLB misses it projects bound the D-TLB's; ITBMISS's the I-TLB's.
 * image (NULL: none) is the program's, where the switches' jump tables
 * are read (cfg.h). */
#define DCPICALC_EVENTS_SEEN UINT32_MAX
bool dcpicalc_run_events(dcpicalc_t *dc, const struct config *cfg, const isa_t *isa,
                         const uint8_t *code, uint64_t start, size_t size,
                         dcpicalc_samples_fn samples, void *ctx, uint32_t collected,
                         const double *periods, const cfg_image_t *image, char *err,
                         size_t errlen);
void dcpicalc_free(dcpicalc_t *dc);

/* The I-cache's cost per miss that `cycles` of I-cache stall over `imiss`
 * IMISS samples, each standing for imiss_per_period misses, measure (the
 * sums of dcpicalc_t.icache_cycles and .icache_imiss over a run's
 * procedures, or one procedure's); 0 when the samples are too few (100). */
double dcpicalc_icache_cost(double cycles, uint64_t imiss, double imiss_per_period);

/* Where dcpicalc_run_events could not measure the I-cache's cost per miss
 * on the procedure alone (too few IMISS samples), take its one-point
 * classes' I-cache stalls off their samples at `cost` cycles a miss (the
 * run's, dcpicalc_icache_cost), and compute the instructions' frequency,
 * CPI and culprits again, the I-cache's bounds at that cost taken too.
 * Whether a class changed.  With cost <= 0 (the run measured none either)
 * no class changes; the I-cache's bound beside another culprit is taken
 * at the next level's hit a miss (the least a miss costs). */
bool dcpicalc_unstall(dcpicalc_t *dc, double cost);

/* The image of the ELF file at path: its PT_LOAD segments' bytes at their
 * link-time addresses (a static, non-PIE program runs there). */
cfg_image_t dcpicalc_file_image(const char *path);

/* The dynamic stall of instruction k, in cycles per execution (CPI - M),
 * or a negative number when its frequency is unknown. */
double dcpicalc_dynamic_stall(const dcpicalc_t *dc, size_t k);

/* ---- the ground truth (hps-sim --ground-truth FILE; pipeline/README.md) ---- */

/* One static instruction's row: executions, head cycles, and the cycles
 * beyond the first by stall cause (stall[0] unused); profiler: those the
 * profiler's own code caused (the file's `profiler` column, 0 in a file
 * without it), part of head and of no cause. */
typedef struct dcpicalc_truth_row {
    uint64_t pc, count, head, stall[STALL_COUNT], profiler;
} dcpicalc_truth_row_t;

typedef struct dcpicalc_truth {
    dcpicalc_truth_row_t *v;    /* sorted by pc */
    size_t n;
} dcpicalc_truth_t;

/* Read a ground-truth file.  false + err ("FILE:LINE: what") for a file
 * that cannot be read, has no header line before its rows, a row with
 * fewer fields than the header's stall causes need, a field that is not a
 * number, or no rows; *t is then empty. */
bool dcpicalc_truth_read(const char *path, dcpicalc_truth_t *t, char *err, size_t errlen);
void dcpicalc_truth_free(dcpicalc_truth_t *t);
/* Add the rows of `more` (another run of the same program: DCPI merges
 * runs into one database) into *t, row by row by pc. */
void dcpicalc_truth_add(dcpicalc_truth_t *t, const dcpicalc_truth_t *more);
/* The row of pc, or NULL. */
const dcpicalc_truth_row_t *dcpicalc_truth_at(const dcpicalc_truth_t *t, uint64_t pc);

#endif /* HPS_DCPICALC_H */
