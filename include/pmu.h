/*
 * pmu.h - performance counters with overflow interrupts delivered late
 * (skid), as on the Alpha 21064/21164 that DCPI sampled with.
 *
 * Each counter counts one event and is pmu.counter_bits wide; it counts up
 * and overflows when it wraps from 2^bits - 1 to 0, and counts on from 0.
 * Software sets the sampling period by writing 2^bits - period into it
 * (hps.wrpmc, from the interrupt handler, which randomizes the period the
 * way DCPI did); hps.rdpmc reads it, so the driver can carry the count
 * since the overflow (the skid and the wait for the interrupt) into the
 * next period, as Linux perf does.  By default (pmu.count_handler = no) the
 * counters stand still while the interrupt handler runs, as counters that
 * count user mode only: then every sample stands for exactly one period of
 * the program's own events.  An
 * overflow requests an interrupt that is delivered pmu.skid cycles later to
 * the instruction at the head of the issue queue at that cycle -- for the
 * in-order models the first instruction whose issue cycle is at or after
 * it, for the out-of-order model the first that graduates at or after it --
 * with that instruction's pc: what DCPI's 21164 driver saw.  While the
 * interrupt handler runs, interrupts are held (DCPI's blind spot): one
 * requested meanwhile is delivered to the first program instruction after
 * the handler returns.
 *
 * Events (pmu_event_t): cycles, retired instructions, I-cache misses,
 * D-cache misses, branch mispredictions, D-TLB and I-TLB misses (the
 * 21164's DTBMISS and ITBMISS: every translation that missed, a load's or
 * a store's, a fetch's whether its I-cache line hit or not); and
 * `profileme`, no counter's
 * event but the samples of the ProfileMe sampler (profileme.h), which
 * arrive through the same interrupt and driver with the sampled pc.
 * Speculative or retired: imiss, dmiss, dtbmiss, itbmiss, branchmp and
 * branches (control transfers) count the occurrences of instructions on
 * the correct path only, the ones that retire (at the cycle of the event,
 * not of the retirement); imiss_spec, dmiss_spec, dtbmiss_spec,
 * itbmiss_spec and branches_spec count those plus the wrong path's
 * (ooo.wrong_path: its fetches' I-cache and I-TLB misses, its loads'
 * D-cache and D-TLB misses, its transfers fetched), and equal their
 * retired twins on the models without a wrong path.  There is no branchmp_spec: the wrong
 * path follows the predictor and its own transfers are never resolved, so
 * it would equal branchmp.  branches and branches_spec are counted only
 * once a counter has been programmed for them (the exact count of every
 * transfer would cost a profile update per transfer otherwise).
 *
 * Precise levels (pmu.precise, perf's precise_ip): 0 = the skid above;
 * 1 = a constant skid of pmu.skid program instructions after the one that
 * caused the event; 2 = zero skid requested: the sample names the
 * instruction that caused the event (the missing load, the mispredicted
 * branch; for cycles and insts the instruction at the head when the
 * counter overflowed), except that an overflow while the handler runs
 * goes to the first program instruction after it; 3 = zero skid required:
 * such an overflow is dropped instead (pmu.impreciseDropped).  The timing models report the
 * last three as they happen (pmu_count); cycles and instructions are
 * counted without per-cycle work: a counter's overflow cycle (or
 * instruction) is computed when it is written.
 *
 * The interrupt runs guest code: the driver in the handler runtime
 * (productions/runtime/dcpi_driver.c, entry DCPI_interrupt), in a frame of
 * the guest runtime (runtime.h), timed like any instruction, until its
 * hps.ret.  What the handler does with the sample is the
 * driver's business; the host only sees hps.notify (handed to the notify
 * hook) and reads the driver's tables at the end (dcpi/).
 */
#ifndef HPS_PMU_H
#define HPS_PMU_H

#include <stdbool.h>
#include <stdint.h>

#include "core.h"
#include "pm_table.h"
#include "stats.h"

#define PMU_EVENT_LIST(X) \
    X(PMU_CYCLES, "cycles") X(PMU_INSTS, "insts") X(PMU_IMISS, "imiss") \
    X(PMU_DMISS, "dmiss") X(PMU_BRANCHMP, "branchmp") X(PMU_PROFILEME, "profileme") \
    X(PMU_BRANCHES, "branches") X(PMU_BRANCHES_SPEC, "branches_spec") \
    X(PMU_IMISS_SPEC, "imiss_spec") X(PMU_DMISS_SPEC, "dmiss_spec") \
    X(PMU_DTBMISS, "dtbmiss") X(PMU_ITBMISS, "itbmiss") \
    X(PMU_DTBMISS_SPEC, "dtbmiss_spec") X(PMU_ITBMISS_SPEC, "itbmiss_spec")
#define PMU_EVENT_ENUM(id, name) id,
typedef enum { PMU_EVENT_LIST(PMU_EVENT_ENUM) PMU_EVENT_COUNT } pmu_event_t;
#undef PMU_EVENT_ENUM
extern const char *const pmu_event_names[PMU_EVENT_COUNT];
/* The names as one string, for help texts: "cycles insts ...". */
#define PMU_EVENT_TEXT(id, name) " " name
#define PMU_EVENT_NAMES PMU_EVENT_LIST(PMU_EVENT_TEXT)

/* The event of this name, or -1. */
int pmu_event_by_name(const char *name);

#define PMU_MAX_COUNTERS 8

typedef struct pmu_config {
    unsigned counters;          /* hardware counters (21164: 3)            */
    unsigned counter_bits;      /* width (21164: 16)                       */
    unsigned skid;              /* cycles from overflow to delivery (6)    */
    bool nest;                  /* interrupt a running DISE handler (else
                                   hold the interrupt until it returns)    */
    bool count_handler;         /* count while the interrupt handler runs
                                   (else the counters stand still from its
                                   entry to its hps.ret: user mode only)   */
    unsigned precise;           /* 0..3, see above                         */
    bool geometric;             /* pmu.period = geometric: the PMU draws the
                                   periods of the counters given a mean
                                   (pmu_set_period_mean), else the handler's
                                   write sets them (uniform, DCPI's)       */
    uint64_t seed;              /* the run's --seed, for those draws        */
} pmu_config_t;

typedef struct pmu pmu_t;
struct runtime;

/* The interrupt handler: its entry in the guest runtime, and the notify
 * hook for hps.notify. */
typedef struct pmu_handler {
    struct runtime *runtime;    /* the guest runtime the handler is in     */
    uint64_t entry;             /* DCPI_interrupt                          */
    uint64_t pid;               /* passed in d8 when the cpu has no OS
                                   emulation; else the running thread's tid */
    void (*notify)(void *ctx, cpu_t *c, uint64_t value);
    void *notify_ctx;
    /* Or a handler on the host (csprof, csprof.h), called at delivery in
     * place of a guest one (runtime NULL): it returns the counter's next
     * value (2^bits - period), and no guest code runs. */
    uint64_t (*host)(void *ctx, cpu_t *c, uint64_t pc, int event, unsigned k);
    void *host_ctx;
} pmu_handler_t;

pmu_t *pmu_new(const pmu_config_t *cfg, const pmu_handler_t *handler);
void pmu_free(pmu_t *p);

/* Set counter k to count `event`, starting at `value` (2^bits - period).
 * Before the run: the driver rewrites it after every interrupt. */
void pmu_program(pmu_t *p, unsigned k, pmu_event_t event, uint64_t value);

/* pmu.period = geometric: from now on counter k's periods are drawn by the
 * PMU from a geometric distribution of this mean (every counted event ends
 * the period with probability 1/mean, so each is sampled alike, the ones
 * right after a handler too), the first at once; the handler's re-arming
 * writes keep their carry (the count since the overflow) and lose their
 * period.  A period is at most 2^bits (the caller keeps the mean well
 * below).  Nothing without cfg.geometric. */
void pmu_set_period_mean(pmu_t *p, unsigned k, double mean);

/* Attach to the cpu before the run (and the handler's runtime to the cpu
 * when it has none yet); head_sum is the timing model's running sum of
 * head cycles, the PMU's clock. */
void pmu_attach(pmu_t *p, cpu_t *c, const uint64_t *head_sum);

/* ---- the timing model's side ---------------------------------------------------- */

/* One event (imiss, dmiss, dtbmiss, itbmiss, branchmp, branches or a
 * _spec one) at `cycle`,
 * caused by the instruction at pc; a retired event counts as its _spec
 * twin too.  The PMU also keeps the exact count of each event by
 * program pc (pmu_exact), the truth the samples are scored against. */
void pmu_count(pmu_t *p, pmu_event_t event, uint64_t cycle, uint64_t pc);
struct profile;
const struct profile *pmu_exact(const pmu_t *p, pmu_event_t event);

/* A ProfileMe sample of the instruction at pc that left the pipeline at
 * `cycle`: an interrupt with that pc and event profileme, delivered to the
 * first instruction at the head at or after it.  regs are the ProfileMe
 * registers it carries (pm_table.h: the record, its partner's, how many),
 * which the handler reads with hps.rdpmc PM_REG_BASE + r while it runs.
 * The driver's re-arming write (hps.wrpmc) is ignored for it: the sampler
 * re-arms itself. */
void pmu_sample(pmu_t *p, uint64_t pc, uint64_t cycle, const uint64_t regs[PM_REG_COUNT]);
/* Called when a ProfileMe sample's interrupt is delivered, with its
 * registers, just before the handler reads them (the sampler's replay). */
typedef void (*pmu_regs_hook_t)(void *ctx, const uint64_t regs[PM_REG_COUNT]);
void pmu_set_regs_hook(pmu_t *p, pmu_regs_hook_t fn, void *ctx);

/* The cycle from which an instruction at the head is interrupted
 * (cycle): UINT64_MAX while nothing is due.  The run loop compares each
 * program instruction's head cycle with it (and the retired instructions
 * with
 * insts) and calls pmu_interrupt when reached; it compares the head
 * cycle with gate first, and the two only when that is reached. */
typedef struct pmu_due {        /* struct pmu's first member               */
    uint64_t cycle, insts;
    uint64_t gate;              /* a head cycle sum below it: nothing due
                                   (cycle + 1; 0 while insts is set)        */
    bool branches;              /* a counter counts branches or branches_spec:
                                   else pmu_count of them does nothing      */
} pmu_due_t;
static inline const pmu_due_t *pmu_due_of(const pmu_t *p) { return (const pmu_due_t *)p; }
/* Keep *word equal to the gate from now on (the timing model's copy, which
 * its step compares with the head cycle sum it has at hand). */
void pmu_mirror_gate(pmu_t *p, uint64_t *word);
/* May the run loop time the program in the timed block loop (blocks.h),
 * which compares the gate after each instruction but keeps the cpu's
 * instruction count only where it leaves?  Not at precise level 1, whose
 * requests, made inside the model's step, read that count. */
bool pmu_takes_blocks(const pmu_t *p);
/* Would pmu_count of branches (or branches_spec) do anything?  The timing
 * models ask before counting every branch. */
static inline bool pmu_counts_branches(const pmu_t *p) { return ((const pmu_due_t *)p)->branches; }
/* Deliver the due interrupt to the instruction at pc (already executed;
 * its head cycle is `head`): enters the handler in a runtime frame, which
 * the loop then runs until its hps.ret.  False when nothing was delivered
 * (nothing due after all, or the PMU's own handler is running). */
bool pmu_interrupt(pmu_t *p, cpu_t *c, uint64_t pc, uint64_t head);
/* Called by pmu_interrupt once the handler's frame is entered, with the
 * sampled pc (value sampling latches the instruction's values here and
 * may push a handler frame of its own on top: dcpi/values.c). */
typedef void (*pmu_sample_hook_t)(void *ctx, cpu_t *c, uint64_t pc);
void pmu_set_sample_hook(pmu_t *p, pmu_sample_hook_t fn, void *ctx);
bool pmu_in_handler(const pmu_t *p);
/* pmu.during_handler = nest: interrupts may enter while a DISE handler runs. */
bool pmu_nests(const pmu_t *p);
/* The interrupt just delivered had waited for a DISE handler or sequence. */
void pmu_note_held(pmu_t *p);

/* The run ended (the engine has unwound the runtime's frames). */
void pmu_finish(pmu_t *p, cpu_t *c);

/* Statistics: interrupts by event, held (deferred) deliveries, handler
 * instructions and cycles. */
void pmu_stats(const pmu_t *p, stats_t *out);
uint64_t pmu_interrupts(const pmu_t *p, pmu_event_t event);
/* Running totals of the events the timing model reported (imiss, dmiss,
 * branchmp; by pmu_event_t), whether a counter counts them or not. */
const uint64_t *pmu_event_counts(const pmu_t *p);
uint64_t pmu_handler_insts(const pmu_t *p);
uint64_t pmu_handler_cycles(const pmu_t *p);
/* The stall cycles of the first program instruction after each handler
 * return, which the counters left out (pmu.count_handler = no). */
uint64_t pmu_shadow_cycles(const pmu_t *p);

#endif /* HPS_PMU_H */
