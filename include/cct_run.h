/*
 * cct_run.h - the command line's side of --cct and --csprof: set up the
 * exact calling context tree and the csprof sampler for a run, hand their
 * parts to the engine, and print and export them at the end.
 */
#ifndef HPS_CCT_RUN_H
#define HPS_CCT_RUN_H

#include <stdio.h>

#include "cct.h"
#include "csprof.h"
#include "engine.h"
#include "options.h"
#include "truth.h"

typedef struct cct_run {
    bool on;                    /* --cct or --csprof                        */
    bool timed;                 /* cycles are counted                       */
    cct_truth_t exact;
    csprof_t *csprof;           /* --csprof, or NULL                        */
    const uint64_t *head_sum;   /* the timing model's clock, or NULL        */
} cct_run_t;

/* Before the run (after the guest is loaded): refuses bad options and
 * files with bad_input.  truth is the run's ground-truth recorder, which
 * carries the exact observer. */
void cct_run_setup(cct_run_t *r, const options_t *o, cpu_t *cpu, const symtab_t *symtab,
                   uint64_t entry_pc, truth_t *truth);
/* The engine parts: the counters and the trampoline of csprof. */
void cct_run_parts(cct_run_t *r, engine_parts_t *parts);
/* After the run: the tree, the csprof report, the exports.  The exit
 * status to use (2 when an export cannot be written, else status). */
int cct_run_finish(cct_run_t *r, const options_t *o, const cpu_t *cpu, const symtab_t *symtab,
                   FILE *report, int status);
void cct_run_free(cct_run_t *r);

#endif /* HPS_CCT_RUN_H */
