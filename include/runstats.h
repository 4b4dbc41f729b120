/*
 * runstats.h - end-of-run statistics of the functional core: dynamic
 * instruction mix gathered from the decoded records' ground-truth counters,
 * plus the program-level columns of HPS Figure 6 (methods, call sites,
 * call pairs, calls, branches, memory references, unique addresses).
 */
#ifndef HPS_RUNSTATS_H
#define HPS_RUNSTATS_H

#include <stdint.h>

#include "core.h"
#include "loader.h"
#include "stats.h"
#include "symtab.h"
#include "truth.h"

typedef struct insn_totals {
    uint64_t insts;
    uint64_t by_class[OC_COUNT];
    uint64_t cond_branches, cond_taken, cond_backward, cond_backward_taken;
    uint64_t jumps, calls, returns, indirect_calls;
    uint64_t loads, stores, fp_insts, compressed;
    uint64_t static_executed;     /* distinct static instructions executed */
    uint64_t call_sites_executed; /* distinct call instructions executed   */
} insn_totals_t;

/* Fold decoded slots into the totals (also used when a code page's decoded
 * records are dropped mid-run). */
void insn_totals_add(void *totals, insn_t *slots, size_t n);

typedef struct run_info {
    const cpu_t *cpu;
    const image_t *image;
    const symtab_t *symtab;
    const truth_t *truth;          /* NULL when not recorded */
    const insn_totals_t *dropped;  /* totals of dropped decoded pages */
    double host_seconds;
    const struct timing *timing;   /* timing model, or NULL (functional) */
    const struct smarts *smarts;   /* the sampler of a --sample run, or NULL */
} run_info_t;

/* Count static call instructions in the executable segments of the image
 * by a linear sweep with the ISA's sweep step (isa_t.sweep_step: a decode
 * of the jumps alone). */
uint64_t count_static_call_sites(const cpu_t *c, const image_t *img);

void runstats_collect(const run_info_t *info, stats_t *out);

#endif /* HPS_RUNSTATS_H */
