/*
 * csprof.h - call path profiling by stack sampling on the performance
 * counters (Froyd, Mellor-Crummey and Fowler, ICS 2005).
 *
 * On each counter overflow the guest stack is unwound with the program's
 * own call frame information (.eh_frame, read with libdw's dwarf_cfi_*)
 * and the sample is charged to its calling context in a CCT (cct.h).  As in
 * csprof, exactly one trampoline lives in the guest stack: the return
 * address of the youngest frame of the last sample is replaced (in its
 * register or stack slot) by the trampoline address, so a sample walks
 * only the frames that are new since the last one and stops at the frame
 * that returns to the trampoline; the frames above come from the cached
 * call stack.  A return through the trampoline counts the returning
 * context's edge and moves the trampoline up one frame.  Tail calls (the
 * trampoline frame reused by another procedure), longjmp (the trampoline
 * frame gone below the stack pointer) and samples that land on the
 * trampoline are handled as the paper says.
 *
 * Where the work runs, by default (--csprof-unwinder guest): in guest
 * handlers of the handler runtime (productions/runtime/csprof_driver.c,
 * csprof_guest.h), on the simulated core, so their cost is the run's own
 * cycles and instructions.  This file derives their per-PC unwind table
 * from the binary (CFI through libdw, else prologue analysis) and the
 * table of return addresses; csprof_runtime.c loads them into the
 * runtime, enters CSPROF_trampoline when a return faults at the
 * trampoline's address, and reads the per-thread trees back.
 *
 * The reference (--csprof-unwinder host): the host does the unwinding in
 * the PMU's interrupt path (pmu_handler_t.host) in place of a guest
 * handler, and the trampoline's fault goes to csprof_trampoline
 * (engine_parts_t.trap).  No guest instruction runs for either, so the
 * cost is not in the run's cycles: it is counted as operations (guest
 * words read and written, DWARF operations evaluated, frame-table probes:
 * log2 of the procedures, tree steps) and reported as modelled overhead,
 * one guest instruction per operation at the run's own measured CPI.  It
 * keeps one call stack for the process, so a threaded program is refused.
 */
#ifndef HPS_CSPROF_H
#define HPS_CSPROF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cct.h"
#include "core.h"
#include "pmu.h"
#include "../productions/runtime/csprof_guest.h"

typedef struct csprof_options {
    const char *program;        /* the guest executable: its .eh_frame     */
    pmu_event_t event;          /* the counter's event                      */
    uint64_t period_lo, period_hi;  /* each period uniform in [lo, hi]      */
    uint64_t seed;
    pmu_config_t hw;
    bool host_unwinder;         /* --csprof-unwinder host: the reference   */
} csprof_options_t;

typedef struct csprof csprof_t;

/* Parse --csprof's "EVENT[:PERIOD[-MAX]]" (default period 4096-4351
 * cycles, 1000-1063 for other events); false + message in err. */
bool csprof_parse(const char *text, unsigned counter_bits, csprof_options_t *o,
                  char *err, size_t errlen);

/* NULL + message in err (the program has no usable .eh_frame, ...). */
csprof_t *csprof_new(const csprof_options_t *o, cpu_t *c, const symtab_t *symtab,
                     char *err, size_t errlen);
void csprof_free(csprof_t *p);
pmu_t *csprof_pmu(csprof_t *p);
/* The trampoline's guest address and the run loop's trap for it. */
uint64_t csprof_trampoline_pc(const csprof_t *p);
bool csprof_trampoline(void *ctx, cpu_t *c);
const cct_t *csprof_tree(const csprof_t *p);
/* The exact observer of the same run: each sample's context is checked
 * against its running context. */
void csprof_set_truth(csprof_t *p, const cct_truth_t *truth);

/* After the run, before the report and csprof_tree: read the guest
 * handler's trees and counters out (nothing with the host unwinder). */
void csprof_finish(csprof_t *p);

/* The report: the sampled CCT's accuracy against the exact one of the
 * same run (truth may be NULL: no scores), its failures and overhead. */
void csprof_report(const csprof_t *p, const cct_truth_t *truth, uint64_t run_cycles,
                   uint64_t run_insts, FILE *out);

/* ---- the guest unwinder (dcpi/csprof_runtime.c) ------------------------------
 * The default (--csprof-unwinder guest): csprof.c derives the unwind table
 * (csprof_guest.h) from the binary, csprof_runtime.c runs the guest
 * handlers on it and reads their trees back. */
typedef struct csprof_guest csprof_guest_t;
typedef struct csprof_guest_config {
    csprof_options_t opt;
    const cspg_rule_t *rules;
    size_t nrules;
    const uint64_t *rets;       /* sorted return addresses, | 1: a 2-byte call */
    size_t nrets;
    uint64_t trampoline;
    unsigned ra_reg, sp_reg, fp_reg;
} csprof_guest_config_t;
typedef struct csprof_guest_thread { uint64_t tid, samples, failures; } csprof_guest_thread_t;

csprof_guest_t *csprof_guest_new(cpu_t *c, const csprof_guest_config_t *cfg, char *err,
                                 size_t errlen);
void csprof_guest_free(csprof_guest_t *g);
pmu_t *csprof_guest_pmu(csprof_guest_t *g);
void csprof_guest_set_truth(csprof_guest_t *g, const cct_truth_t *t);
bool csprof_guest_trampoline(csprof_guest_t *g, cpu_t *c);
/* After the run: the threads' trees merged into tree (built on its root),
 * the guest's counters, its threads (up to CSPG_MAX_THREADS), and each
 * sample's (tree node, exact node) pairs (free it). */
void csprof_guest_read(csprof_guest_t *g, cct_t *tree, cspg_state_t *st,
                       csprof_guest_thread_t *threads, unsigned *nthreads, uint32_t **pairs,
                       size_t *npairs);
/* What the handlers cost: instructions and head cycles, all of them and
 * the trampoline handler's. */
uint64_t csprof_guest_insts(const csprof_guest_t *g);
uint64_t csprof_guest_cycles(const csprof_guest_t *g);
uint64_t csprof_guest_trampoline_insts(const csprof_guest_t *g);
/* Is it the guest unwinder (threads are fine: one tree per thread)? */
bool csprof_is_guest(const csprof_t *p);

#endif /* HPS_CSPROF_H */
