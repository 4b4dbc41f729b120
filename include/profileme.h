/*
 * profileme.h - ProfileMe (Dean et al., MICRO'97): instruction sampling
 * without skid, the ancestor of AMD IBS, Arm SPE and Intel PEBS.
 *
 * A counter of fetched program instructions, loaded with a period plus a
 * random jitter from the run's seed, selects one instruction.  The timing
 * model records it as it goes through the pipeline (pm_record_t: pc,
 * effective address, its stage cycles, head cycles, the load's latency,
 * taken / mispredicted, I-cache, I-TLB, D-cache and D-TLB misses, retired
 * or aborted; pm_table.h) and, when it has left the pipeline, the sampler
 * raises an interrupt (pmu_sample) with its pc, event `profileme`, and the
 * record in the ProfileMe registers.  The guest DCPI driver counts the pc
 * like any sample, reads the registers (hps.rdpmc) and adds the record to
 * its per-pc table (pm_table.h), which the host drains when the driver asks
 * and at the end: the report and profileme.tsv are that table.  The host
 * replays every delivered record into a table of its own with the same
 * code and checks the driver's against it (profileme.driverMismatches).
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

#include "pm_table.h"
#include "pmu.h"
#include "stats.h"

struct profile;
struct runtime;
struct symtab;

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
void profileme_write_tsv(profileme_t *pm, FILE *out, const struct symtab *symtab);

/* The guest driver's table (the runtime's pm_driver) takes the records of
 * the interrupts of DCPI event number `event`; false + message when the
 * runtime has none.  Without it (tests), the host's replay is the table. */
bool profileme_attach_driver(profileme_t *pm, struct runtime *rt, uint64_t event, char *err,
                             size_t errlen);
/* Drain the driver's table into the report's (hps.notify PM_NOTIFY_DRAIN,
 * and at the end of the run). */
void profileme_drain(profileme_t *pm);
void profileme_stats(const profileme_t *pm, stats_t *out);

#endif /* HPS_PROFILEME_H */
