/*
 * hps_streams.h - the hot data stream profile of an HPS session: the
 * exhaustive trace of every data reference (recorded through hps_truth.h)
 * and the sampled trace (the DataStream_handler samples, burst by burst),
 * each analysed into hot data streams (hot_streams.h), and the sampled
 * streams scored against the exhaustive ones (HPS §5 accuracy).  Used by
 * hps_report.c for the report, the statistics and --profile-out.
 *
 * The analysis runs once the traces are complete (the first report,
 * statistic or table asked for after the run; a full window earlier).
 * Its parameters are ACF parameters, declared by
 * productions/hot_data_stream_params.acf and set with --param:
 *   streamMinLen (11), streamMaxLen (100)     stream lengths, in references
 *   streamHeat (0)                            H; 0: searched for streamCoverage
 *   streamCoverage (90)                       percent of the references
 *   streamByAddress (0)                       1: a symbol is the address alone
 *   streamGranule (8)                         bytes an address is rounded down to
 *   streamWindow (2^28)                       references per analysed window
 *   streamGrammarMax (2^26)                   grammar symbols per window
 */
#ifndef HPS_HPS_STREAMS_H
#define HPS_HPS_STREAMS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "data_trace.h"
#include "dise.h"
#include "stats.h"

struct symtab;
typedef struct hps_streams hps_streams_t;

hps_streams_t *hps_streams_new(const dise_program_t *prog);
void hps_streams_free(hps_streams_t *s);                   /* NULL is fine */
/* The exhaustive trace, for hps_truth_t.data_trace. */
data_trace_t *hps_streams_exact_trace(hps_streams_t *s);
/* One sampled reference of burst `burst`. */
void hps_streams_sample(hps_streams_t *s, uint64_t pc, uint64_t addr, uint64_t burst);

uint64_t hps_streams_references(const hps_streams_t *s);    /* exhaustive */
double hps_streams_accuracy(hps_streams_t *s, double fraction, bool renormalize);
/* The report section: the analyses, the top_n streams sampled against
 * exact, the accuracy; `bursts` the number of sampled bursts. */
void hps_streams_report(hps_streams_t *s, FILE *out, const struct symtab *st, size_t top_n,
                        uint64_t bursts);
void hps_streams_stats(hps_streams_t *s, stats_t *st);
/* Every stream of either profile as a --profile-out row (hps_report.h). */
void hps_streams_write_tsv(hps_streams_t *s, FILE *out, const struct symtab *st);

#endif /* HPS_HPS_STREAMS_H */
