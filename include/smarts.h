/*
 * smarts.h - sampled simulation (--sample), after SMARTS (Wunderlich,
 * Wenisch, Falsafi and Hoe, ISCA 2003): the timing model sees the program
 * only in short windows taken systematically, one every `period` program
 * instructions; between them the program runs on the functional path and
 * only warms the model's long-lived state.
 *
 * Each period of N instructions is, in order:
 *   functional warming   N - W - U instructions: each one's I-cache line,
 *                        data access and control transfer update the caches
 *                        (tags, LRU order, dirty bits; the L2 through the
 *                        L1s' misses and write-backs), the TLBs and the
 *                        branch predictor (tables, histories, BTB, RAS),
 *                        exactly as the timing model would, but with no
 *                        timing and no statistics (timing_warm);
 *   detailed warm-up     W instructions through the timing model, not
 *                        measured: they fill the pipeline, the queues and
 *                        the MSHRs again;
 *   measured unit        U instructions through the timing model: their
 *                        cycles / U is one sample of the CPI.
 * The run's CPI is the mean of the units' CPIs, with the 99.7% confidence
 * interval +-3 s / sqrt(n) (s the units' standard deviation, n units), and
 * its cycles are estimated as that CPI times the program's instructions.
 * A unit the run ends inside is not counted.  The engine (engine.h) asks
 * when the next phase starts and whether it is timed.
 */
#ifndef HPS_SMARTS_H
#define HPS_SMARTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "core.h"
#include "stats.h"
#include "timing.h"

/* SMARTS's defaults: U = 1000, W = 2000 (ISCA 2003, sections 4 and 5). */
enum { SMARTS_DEFAULT_UNIT = 1000, SMARTS_DEFAULT_WARMUP = 2000 };

typedef struct smarts_plan {
    uint64_t unit;               /* U: measured instructions per unit      */
    uint64_t warmup;             /* W: detailed warm-up before each unit   */
    uint64_t period;             /* N: instructions from one unit to the next */
} smarts_plan_t;

/* "N" (U and W the defaults) or "U:W:N", each a count with an optional
 * k, M or G suffix; U >= 1 and N >= U + W.  false + message in err. */
bool smarts_parse(const char *spec, smarts_plan_t *out, char *err, size_t errlen);

typedef struct smarts smarts_t;
/* A sampler for timing model t; from now on t's statistics are those of
 * the detailed windows only, and its CPI and cycles are the sampler's. */
smarts_t *smarts_new(const smarts_plan_t *plan, timing_t *t);
void smarts_free(smarts_t *s);

/* The program instruction count (cpu_t.instret) at which the next phase
 * starts, and whether the current one runs through the timing model. */
uint64_t smarts_next_switch(const smarts_t *s);
bool smarts_detailed(const smarts_t *s);
/* The run reached smarts_next_switch(s): go to the phase that holds
 * instruction instret + 1 (a measured unit ends here: its CPI is taken). */
void smarts_switch(smarts_t *s, uint64_t instret);

/* Functional warming of one executed instruction (addr: its data
 * address, next_pc: where it went): its I-cache line, when the line
 * changes, through the I-TLB and the I-cache, its data access through the
 * D-TLB and the D-cache, its control transfer through the branch
 * predictor.  smarts_warm is the run loop's: inline, it leaves out the
 * call for an instruction with nothing to warm (most of them). */
void smarts_warm_step(smarts_t *s, const insn_t *in, uint64_t addr, uint64_t next_pc);
typedef struct smarts_hot {      /* the first member of struct smarts    */
    uint64_t line;               /* the I-cache line warmed last          */
    unsigned line_shift;         /* log2 of the I-cache's line size       */
} smarts_hot_t;
static inline void smarts_warm(smarts_t *s, const insn_t *in, uint64_t addr, uint64_t next_pc)
{
    const smarts_hot_t *h = (const smarts_hot_t *)s;
    if ((in->flags & (IF_LOAD | IF_STORE | IF_BRANCH | IF_JUMP)) ||
        in->pc >> h->line_shift != h->line)
        smarts_warm_step(s, in, addr, next_pc);
}

/* What the sample says about a run of `total` program instructions. */
typedef struct smarts_result {
    smarts_plan_t plan;
    uint64_t units;              /* measured units                          */
    double cpi, stdev;           /* mean CPI of the units, their std. dev.  */
    double ci;                   /* 3 stdev / sqrt(units) (0 below 2 units) */
    uint64_t total_insts, detail_insts, measured_insts, warmed_insts;
    double cycles, cycles_ci;    /* estimated cycles: cpi * total, +- ci * total */
} smarts_result_t;
void smarts_result(const smarts_t *s, uint64_t total, smarts_result_t *out);
/* sample.* statistics, and cpu.cycles, cpu.cpi and cpu.ipc as estimates. */
void smarts_stats(const smarts_t *s, uint64_t total, stats_t *out);
/* The end-of-run report: estimate, interval, instructions by treatment. */
void smarts_report(const smarts_t *s, uint64_t total, FILE *out);

#endif /* HPS_SMARTS_H */
