/*
 * profileme.h - ProfileMe (Dean et al., MICRO'97): instruction sampling
 * without skid, the ancestor of AMD IBS, Arm SPE and Intel PEBS.
 *
 * A counter of fetched program instructions, loaded with a period plus a
 * random jitter from the run's seed, selects one instruction.  The timing
 * model records it as it goes through the pipeline (pm_record_t: pc,
 * effective address, its stage cycles, head cycles, the load's latency,
 * taken / mispredicted, I-cache, I-TLB, D-cache and D-TLB misses, retired
 * or aborted) and, when it has left the pipeline, the sampler raises an
 * interrupt with its own pc (pmu_sample: the DCPI driver counts it under
 * event `profileme`) while the record itself stays with the host, as the
 * ProfileMe registers the handler would read.
 *
 * Paired sampling: with a window W, a second instruction at a random
 * distance 1..W after the first is recorded too, and the pair is delivered
 * in one interrupt when both have left.  From the pairs the sampler
 * estimates, per pc, how many instructions were in flight with it
 * (concurrency) and how many issue slots of its time in flight went unused
 * (wasted issue slots), the way ProfileMe does: W x the fraction of its
 * pairs in which the other one overlapped (issued), for the pairs where it
 * came first (the instructions after it) plus those where it came second
 * (the instructions before it).
 *
 * Fetched instructions include the wrong path's where the model executes
 * one (ooo.wrong_path): such a record is aborted, PM_WRONG_PATH (squashed
 * when the mispredicted transfer resolved), and leaves the pipeline at the
 * squash.  The in-order models, and the out-of-order one without
 * ooo.wrong_path, retire every instruction they fetch.
 */
#ifndef HPS_PROFILEME_H
#define HPS_PROFILEME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "pmu.h"
#include "stats.h"

struct profile;
struct symtab;

/* pm_record_t.flags (bit numbers are the TSV's order) */
enum {
    PM_TAKEN = 1u << 0,     PM_MISPREDICT = 1u << 1, PM_ICACHE = 1u << 2,
    PM_ITLB = 1u << 3,      PM_DCACHE = 1u << 4,     PM_DTLB = 1u << 5,
    PM_LOAD = 1u << 6,      PM_STORE = 1u << 7,      PM_BRANCH = 1u << 8,
    PM_RETIRED = 1u << 9,   PM_WRONG_PATH = 1u << 10,
};
#define PM_FLAG_BITS 11

/* One instruction as the timing model saw it: the cycle it entered each
 * stage (fetch, decode, issue, complete) and left the pipeline (retire). */
typedef struct pm_record {
    uint64_t pc, addr;
    uint64_t fetch, decode, issue, complete, retire;
    uint64_t head;              /* head cycles charged to it (the truth's)  */
    uint64_t load_latency;      /* a load: issue to data, else 0            */
    uint32_t flags;
} pm_record_t;

typedef struct pm_config {
    uint64_t period;            /* mean program instructions between samples */
    uint64_t jitter;            /* each period is period +- jitter, uniform  */
    unsigned window;            /* pair window W; 0: no pairs                */
    unsigned issue_width;       /* the model's issue slots per cycle          */
    uint64_t seed;
} pm_config_t;

typedef struct profileme profileme_t;

/* Parse --profileme "PERIOD[:W]" (jitter: period / 8).  false + message. */
bool profileme_parse(const char *text, pm_config_t *cfg, char *err, size_t errlen);

/* pmu: where samples are delivered (NULL: nowhere, for tests). */
profileme_t *profileme_new(const pm_config_t *cfg, pmu_t *pmu);
void profileme_free(profileme_t *pm);

/* The timing model's side, once per timed program instruction, in
 * program order: is it one the sampler wants recorded?  (Counts it.) */
typedef struct pm_hot { uint64_t countdown, pair_countdown, wrong_path_fetched; } pm_hot_t;
                                                                          /* first member */
static inline bool profileme_selects(profileme_t *pm)
{
    pm_hot_t *h = (pm_hot_t *)pm;
    bool pick = --h->countdown == 0;
    if (h->pair_countdown && --h->pair_countdown == 0) pick = true;
    return pick;
}
/* ... and its record, when it is. */
void profileme_record(profileme_t *pm, const pm_record_t *r);
/* A wrong-path instruction was fetched (counted exactly: the truth the
 * aborted samples are scored against). */
static inline void profileme_wrong_path_fetched(profileme_t *pm, uint64_t n)
{
    ((pm_hot_t *)pm)->wrong_path_fetched += n;
}

/* The report: samples against the truth, by instruction and procedure --
 * fetch counts and head cycles (for_each_head: pc, executions, head
 * cycles of every static pc), D-cache and I-cache misses (pmu_exact) --
 * and the latencies, miss rates, concurrency and wasted issue slots of the
 * most sampled pcs. */
typedef void (*pm_heads_fn)(void *ctx, uint64_t pc, uint64_t count, uint64_t head);
void profileme_report(profileme_t *pm, FILE *out, const struct symtab *symtab,
                      void (*for_each_head)(const void *src, pm_heads_fn fn, void *ctx),
                      const void *heads_src, size_t top_n);
/* Every sampled pc as TSV (header line first), most samples first. */
void profileme_write_tsv(const profileme_t *pm, FILE *out, const struct symtab *symtab);
/* The selected pcs with their sample counts (what the driver counted). */
const struct profile *profileme_samples(const profileme_t *pm);
void profileme_stats(const profileme_t *pm, stats_t *out);

#endif /* HPS_PROFILEME_H */
