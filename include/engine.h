/*
 * engine.h - the run: one loop that steps the guest and hands every step
 * to the observers the run asked for.
 *
 * A run is described, not chosen: the parts below say where instructions
 * come from (the program; a DISE replacement sequence; a handler of the
 * guest runtime, entered by DISE's call(Handler) or the PMU's interrupt)
 * and who watches them (a timing model, the performance counters, the
 * ground-truth recorder, the trace).  The per-instruction loop body is
 * written once (sim/engine.c) and instantiated at compile time for every
 * combination of parts, so the instruction path of a run tests no option.
 *
 * Instructions are counted by whose they are: c->instret counts the
 * program's own (what --max-insts limits and the guest's counters show),
 * c->runtime_insts those the profiling machinery added (inserted by DISE,
 * run in handlers).  A run with and without profiling stops after the
 * same program instructions.
 *
 * Guest signals (sys.h, sim/syscall_signal.c) are delivered between
 * program instructions: the loop leaves its fast path when one is due (a
 * system call sent it, a timer expires, sigreturn moved the pc) and
 * engine_run enters the handler before going on; a guest fault with a
 * handler installed is delivered instead of stopping the run.  Never
 * inside a DISE replacement sequence or a runtime handler: a signal due
 * then waits for the next program instruction boundary after it, and a
 * fault there stops the run.
 */
#ifndef HPS_ENGINE_H
#define HPS_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"

struct timing;
struct truth;
struct paths;
struct trace;
struct dise;
struct hps_truth;
struct pmu;
struct smarts;

typedef struct engine_parts {
    cpu_t *cpu;
    struct timing *timing;       /* observer: the timing model, or NULL for
                                    the functional core                      */
    struct truth *truth;         /* observer: call pairs and unique data
                                    words of the program, or NULL            */
    struct paths *paths;         /* observer beside truth (needs it): the
                                    Ball-Larus path profile (paths.h)        */
    struct trace *trace;         /* observer: the first trace->limit steps    */
    struct dise *dise;           /* source: DISE edits the stream (attached
                                    with dise_attach), or NULL               */
    struct hps_truth *hps_truth; /* DISE's exact profiles, or NULL           */
    struct pmu *pmu;             /* observer and source: the performance
                                    counters and their interrupt handler
                                    (attached; needs a timing model)         */
    uint64_t trap_pc;            /* a host routine at a guest address: a fetch
                                    fault at trap_pc runs trap(trap_ctx, c)
                                    instead of stopping, which moves c->pc on
                                    (csprof's trampoline; 0 = none)          */
    bool (*trap)(void *ctx, cpu_t *c);
    void *trap_ctx;
    unsigned untimed_roles;      /* bit r: the steps of DISE role r (inserted
                                    instructions and the handlers they call)
                                    run but are not timed, nor their decode
                                    penalty: the overhead breakdown's runs
                                    (dise/README.md); 0 = time everything    */
    bool jit;                    /* run the blocks as translated code (jit.h;
                                    the functional core, with or without the
                                    ground-truth recorder): an error where the
                                    engine cannot                            */
    bool jit_if_able;            /* the same where the engine can (the
                                    default), silently the block loop or the
                                    step loop elsewhere                      */
    struct smarts *smarts;       /* sampled simulation (smarts.h, needs the
                                    timing model and no DISE, PMU or paths):
                                    the program runs through the timing model
                                    only in the sampler's detailed windows,
                                    between them it warms its caches, TLBs and
                                    predictor; NULL = time every step          */
} engine_parts_t;

typedef struct engine engine_t;

/* NULL + message in err for a combination of parts that cannot run. */
engine_t *engine_new(const engine_parts_t *parts, char *err, size_t errlen);
void engine_free(engine_t *e);

/* Run until c->instret reaches max_insts (an absolute count of program
 * instructions; 0 = no limit), or the guest exits or faults.  May be
 * called again to go on (the shell steps a run in pieces). */
stop_reason_t engine_run(engine_t *e, uint64_t max_insts);

/* After the last engine_run: leave any handler, settle c->cycle, hand the
 * timing model's cycles by role to DISE and its counted events to the
 * exact profiles. */
void engine_finish(engine_t *e);

/* A whole run in one call: engine_new, engine_run, engine_finish,
 * engine_free; STOP_NONE + err when the parts cannot run together. */
stop_reason_t engine_run_once(const engine_parts_t *parts, uint64_t max_insts,
                              char *err, size_t errlen);

/* Host signals (SIGINT, SIGTERM): engine_interrupt, async-signal-safe,
 * makes the running engine_run stop at the next program instruction
 * boundary with STOP_INTERRUPTED (stop_info = sig), and every later one
 * at once.  It costs the run loop nothing: the loop already leaves its
 * fast path when c->instret reaches c->event_at, which this sets to 0.
 * engine_interrupted: the signal received, or 0. */
void engine_interrupt(int sig);
int engine_interrupted(void);

#endif /* HPS_ENGINE_H */
