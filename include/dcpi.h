/*
 * dcpi.h - continuous profiling the DCPI way (Anderson et al., SOSP'97):
 * performance counters sampled by interrupt (pmu.h), a device driver that
 * aggregates the samples in guest code (productions/runtime/dcpi_driver.c,
 * dcpi_table.h), and the user-mode daemon on the host side, here: it
 * copies the driver's full overflow buffers when told to (hps.notify) and
 * everything else at the end of the run, turns each (PID, PC, EVENT,
 * count) into (image, offset, event) through the process's image map
 * (images.h), and merges the counts into the on-disk profile database
 * (profdb.h).
 *
 * Because the simulator knows the truth, the session also scores what was
 * sampled: the CYCLES samples of each procedure and instruction against
 * the exact cycles the timing model spent with it at the head of the
 * issue queue (or active list), the estimated total against the real one,
 * and the overhead of the whole apparatus against a run without it.
 */
#ifndef HPS_DCPI_H
#define HPS_DCPI_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core.h"
#include "images.h"
#include "pmu.h"
#include "profile.h"
#include "profileme.h"
#include "stats.h"

struct symtab;
struct config;

/* One monitored event and its sampling period range. */
typedef struct dcpi_event {
    pmu_event_t event;
    uint64_t period_min, period_max;
} dcpi_event_t;

typedef struct dcpi_options {
    const char *db;             /* the profile database directory           */
    bool new_epoch;             /* start a new epoch in it                  */
    dcpi_event_t events[PMU_MAX_COUNTERS];
    unsigned nevents;
    uint64_t seed;              /* the driver's Park-Miller seed            */
    pmu_config_t hw;
    const struct config *machine;   /* written to the epoch as `config`, so the
                                       analysis knows the model (or NULL)  */
    pm_config_t profileme;      /* ProfileMe sampling (period 0: none); its
                                   samples go into the database as event
                                   `profileme`, its records into the epoch's
                                   profileme.tsv                          */
    const struct symtab *symtab;    /* names in profileme.tsv (or NULL)     */
} dcpi_options_t;

/* Parse --dcpi-events: "cycles,imiss" or with periods
 * "cycles:60000-64000,dmiss:2000-2047" (a single number: a fixed period).
 * Defaults: cycles 60000-64000 (the paper's), other events 2000-2047.
 * false + message in err (naming the item and what was expected). */
bool dcpi_parse_events(const char *text, unsigned counter_bits, dcpi_options_t *o,
                       char *err, size_t errlen);

typedef struct dcpi dcpi_t;

/* Load the driver (the handler runtime for isa), configure it and the
 * counters.  NULL + message in err. */
struct runtime;
dcpi_t *dcpi_new(const dcpi_options_t *o, struct runtime *runtime, const images_t *images,
                 char *err, size_t errlen);
void dcpi_free(dcpi_t *d);
pmu_t *dcpi_pmu(dcpi_t *d);
/* The ProfileMe sampler (for the timing model), or NULL. */
profileme_t *dcpi_profileme(dcpi_t *d);

/* The run ended: the daemon's full flush (the driver's table and both
 * overflow buffers), then the database update.  false + err when the
 * database cannot be written. */
bool dcpi_finish(dcpi_t *d, cpu_t *c, char *err, size_t errlen);

/* The report: what was collected, the CYCLES profile against the exact
 * head cycles (heads: fn(pc, count, head) over every static pc, from the
 * timing model), estimated against real cycles, and the overhead
 * (base_cycles 0 = no baseline run). */
typedef void (*dcpi_heads_fn)(void *ctx, uint64_t pc, uint64_t count, uint64_t head);
void dcpi_report(dcpi_t *d, FILE *out, const struct symtab *symtab,
                 void (*for_each_head)(const void *src, dcpi_heads_fn fn, void *ctx),
                 const void *heads_src, uint64_t cycles, uint64_t base_cycles, size_t top_n);
void dcpi_stats(const dcpi_t *d, stats_t *out);

/* The epoch directory written (after dcpi_finish). */
const char *dcpi_epoch(const dcpi_t *d);

#endif /* HPS_DCPI_H */
