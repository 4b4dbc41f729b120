/*
 * hps_report.h - one HPS profiling session: the samples the guest handlers
 * collected, the exact profiles recorded beside them, and the end-of-run
 * report that scores one against the other (HPS Section 5 accuracy) and
 * breaks the cycle overhead down as in Figure 7.  The data profile is hot
 * data streams (hps_streams.h): its members are streams of references.
 */
#ifndef HPS_HPS_REPORT_H
#define HPS_HPS_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "dise.h"
#include "hps_truth.h"
#include "stats.h"

struct symtab;
struct hps_sample;
struct hps_streams;

typedef enum { HPS_KIND_METHOD, HPS_KIND_CALL_PAIR, HPS_KIND_DATA, HPS_KIND_COUNT } hps_kind_t;
extern const char *const hps_kind_names[HPS_KIND_COUNT];   /* method, call_pair, data */

typedef struct hps_session {
    bool enabled[HPS_KIND_COUNT];      /* profiles this ACF collects      */
    hps_truth_t truth;                 /* exact profiles (raw keys)       */
    profile_t *sampled[HPS_KIND_COUNT];/* from the handlers (raw keys; not data) */
    profile_recent_t *sampled_recent[HPS_KIND_COUNT];  /* their recent lines (a
                                          sample's add; flushed before a read) */
    struct hps_streams *streams;       /* the data profile: hot data streams */
    uint64_t samples[HPS_KIND_COUNT];
    uint64_t bursts, last_burst;       /* data-stream bursts seen         */
    const struct symtab *symtab;
    profile_t *paths;                  /* PP on DISE: (procedure, path
                                          number) -> samples, or NULL    */
    struct ppcct *ppcct;               /* hps-pp-acf --cct: samples by
                                          context (ppcct.h), or NULL      */
    profile_t *path_cycles, *path_misses;  /* hps-pp-acf --metrics: the
                                          guest's readings per (procedure,
                                          path), or NULL                 */
    uint64_t last_proc, last_path;     /* the path a cost sample follows  */
} hps_session_t;

/* Which profiles to collect: those whose handler the ACF calls
 * (HotMethod_handler, CallPair_handler, DataStream_handler). */
void hps_session_init(hps_session_t *h, const dise_program_t *prog, const struct symtab *symtab);
void hps_session_free(hps_session_t *h);
/* dise_on_sample() callback: one sample read from the profile buffer. */
void hps_session_take(void *ctx, const struct hps_sample *s);
/* PP's path counts kept in line (hps-pp-acf: `tally`, table PPTALLY, whose
 * rows are procedure entry: first word, paths): read from the runtime's
 * tally table after the run into the path profile, as if each had been a
 * sample; the words of the tallies outside the table are lost paths. */
#define HPS_PP_TALLY_TABLE "PPTALLY"
struct runtime;
void hps_session_read_tallies(hps_session_t *h, const dise_program_t *prog, const struct runtime *rt);

/* Accuracy (0..100) of the sampled profile of `kind` against the exact
 * one, over the members making up the top `fraction` of each. */
double hps_session_accuracy(const hps_session_t *h, hps_kind_t kind, double fraction);

/* Cycle overhead of a run with the ACF against one without, and its
 * breakdown (dise/README.md, "The overhead breakdown").  With a baseline,
 * part[] is exact: part[r] (r = check, basic, sample) is the cycles the run
 * saves when the instructions of role r (and of the roles removed before
 * it: sample, then basic, then check) are executed but not timed;
 * part[DISE_ROLE_NONE] is what remains with every role untimed, against
 * the run without the ACF; dcpi_part the DCPI profiler's share when it ran
 * too.  They add up to acf_cycles - base_cycles exactly. */
typedef struct hps_overhead {
    uint64_t base_cycles, acf_cycles;      /* base 0: not measured          */
    uint64_t role_cycles[DISE_ROLE_COUNT]; /* cycles charged to each role's
                                              instructions (issue cycles and
                                              the stalls they caused)       */
    bool parts_exact;                      /* part[] measured               */
    bool parts_counted;                    /* ... by counting: the functional
                                              core, one cycle per instruction
                                              and decode-penalty cycle      */
    int64_t part[DISE_ROLE_COUNT];         /* [NONE] = the rest              */
    bool dcpi_measured;
    int64_t dcpi_part;
    unsigned breakdown_runs;               /* extra runs the parts took     */
    const char *handlers;                  /* "c" or "asm" (--handlers)     */
    uint64_t handler_calls, handler_insts; /* calls into handlers, and the
                                              instructions they executed    */
} hps_overhead_t;

/* The end-of-run report: for each collected profile, the top members with
 * symbols and shares, sampled against exact, and the accuracy; then the
 * overhead and its breakdown. */
void hps_session_report(const hps_session_t *h, FILE *out, const char *acf_name,
                        const dise_program_t *prog, const hps_overhead_t *ov, size_t top_n);
/* Every member of every collected profile, one TSV row each: kind, name,
 * raw keys, exact weight, sampled weight.  A data row is a hot data stream:
 * name = its references (pc@address ...), keys = stream number and length,
 * weights = heats (dise/README.md). */
void hps_session_write_tsv(const hps_session_t *h, FILE *out);
void hps_session_stats(const hps_session_t *h, const hps_overhead_t *ov, stats_t *s);

#endif /* HPS_HPS_REPORT_H */
