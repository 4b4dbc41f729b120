/*
 * values.h - value sampling on the DCPI interrupts (Burrows, Leung,
 * Vandevoorde, Waldspurger, Walker, Weihl, ASPLOS'00), the host's side.
 *
 * At every DCPI interrupt the PMU's sample hook latches what the user
 * selected of the sampled instruction -- its result, operands, effective
 * address, load latency bin (L1 hit / L2 hit / memory, from the timing
 * model's caches) and the return address register -- into the guest value
 * driver's capture block, and enters VALUE_interrupt (productions/runtime/
 * value_driver.c) on top of the DCPI driver's frame: the guest handler keeps
 * per-(PC, kind) hot lists by Gibbons & Matias' counting samples
 * (value_hotlist.h), timed like the program, its instructions and cycles
 * counted apart from the DCPI driver's.
 *
 * The truth: every execution of every program instruction is seen by a
 * wrapper of its semantics (installed at decode), which latches the
 * operands before it executes (what the hardware latch would hold) and
 * counts each selected kind's value exactly, up to `cap` distinct values
 * per (PC, kind); a (PC, kind) with more is marked saturated and scored
 * only on what stays exact.  At the end the hot lists are read out of the
 * runtime, turned into per-PC value profiles (top values with estimated
 * frequencies, invariance), summarised per procedure, scored against the
 * truth (top-k overlap, invariance error), written as TSV and folded stacks
 * (export.h) into the DCPI epoch, and reported.
 *
 * One value sampler per process (the semantics wrapper has no context).
 */
#ifndef HPS_VALUES_H
#define HPS_VALUES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core.h"
#include "pmu.h"
#include "stats.h"

struct runtime;
struct symtab;
struct timing;

typedef struct values_options {
    unsigned kinds;             /* bit per VK_ kind (value_hotlist.h)       */
    unsigned list_size;         /* hot list size, 1..15 (8)                 */
    double growth;              /* threshold growth factor, (1, 16] (1.5)   */
    unsigned cap;               /* truth: distinct values per (PC, kind) (64);
                                   0 = no truth                              */
    unsigned min_samples;       /* (PC, kind) lists scored: at least this
                                   many value samples (16)                   */
    unsigned top_k;             /* top-k of the overlap and invariance (3)  */
    uint64_t seed;              /* the handler's coin flips                 */
} values_options_t;

/* Parse --values: kinds (result, operands, operand1, operand2, addr,
 * latency, ra, all) and parameters (size=N, growth=X, cap=N, min=N, k=N),
 * comma-separated.  false + message in err naming the item. */
bool values_parse(const char *text, values_options_t *o, char *err, size_t errlen);

typedef struct values values_t;

/* Configure the guest value driver in the runtime and hook the PMU.  The
 * latency kind needs the timing model's L1 data cache.  NULL + err. */
values_t *values_new(const values_options_t *o, struct runtime *rt, pmu_t *pmu,
                     struct timing *timing, char *err, size_t errlen);
/* Wrap the semantics of every program instruction decoded from now on
 * (cpu's decode hook: refuse a run where DISE has it). */
void values_attach(values_t *v, cpu_t *c);
/* The run ended: read the hot lists out of the runtime, build the profiles
 * and score them; write DIR/values.tsv and DIR/values.folded (DIR: the
 * DCPI epoch).  false + err when a file cannot be written. */
bool values_finish(values_t *v, const struct symtab *symtab, const char *dir,
                   char *err, size_t errlen);
void values_report(const values_t *v, FILE *out, size_t top_n);
void values_stats(const values_t *v, stats_t *out);
void values_free(values_t *v);

#endif /* HPS_VALUES_H */
