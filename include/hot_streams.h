/*
 * hot_streams.h - hot data streams (Chilimbi, PLDI'01; Chilimbi & Hirzel,
 * PLDI'02), the data-stream profile of HPS (PACT'05, Sections 4.3 and 6):
 * a hot data stream is a sequence v of consecutive data references with
 * minLen <= |v| <= maxLen whose heat |v| × freq(v) (freq counting
 * non-overlapping occurrences) reaches a threshold H.
 *
 * How they are found.  The trace of references (data_trace.h) is turned
 * into a grammar by SEQUITUR (sequitur.h); then the fast detection of
 * ALGORITHMS.md runs on the grammar, in time linear in its size: len(A)
 * bottom-up; rules in reverse postorder from the start rule S, with
 * coldUses(S) = 1 and 0 for the others; a rule with minLen <= len(A) <=
 * maxLen and heat len(A) × coldUses(A) >= H is a hot stream (its
 * expansion), any other passes its coldUses on to each rule occurrence in
 * its right-hand side.  S itself, the whole trace, is never a stream.  The
 * heats of the streams found add up to the references they cover.
 *
 * H is a parameter; by default (heat 0) it is the largest H whose streams
 * cover at least `coverage` (90%) of the references, found by bisection on
 * H with a detection per step (about log2(references) detections).  When
 * even H = 1 does not reach it (much of a program's trace repeats only in
 * units longer than maxLen, or not at all), the target becomes `coverage`
 * of what the streams at H = 1 cover, and the shortfall is reported: H = 1
 * would make every rule of the right length a "hot" stream, down to those
 * seen twice.  (Coverage is not strictly monotonic in H: a rule made hot by
 * a lower H takes the cold uses of the rules below it.  Bisection finds an
 * H where the target is met and H + 1 misses it.)
 *
 * Memory is bounded by two caps.  A trace is analysed in windows of at
 * most `window` references (the trace buffer's size); a window whose
 * grammar reaches `grammar_max` symbols (right-hand sides plus rules) is
 * cut there (the grammar may pass the cap by the few rules the last
 * reference made), and the rest analysed as a window of its own.  Each window has
 * its own grammar and its own H; streams equal as symbol sequences are
 * merged across windows (heats and frequencies added).  A stream never
 * spans two windows, nor two sampled bursts (a unique separator symbol
 * stands between bursts).
 */
#ifndef HPS_HOT_STREAMS_H
#define HPS_HOT_STREAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "data_trace.h"
#include "profile.h"
#include "sequitur.h"

typedef struct hot_stream_params {
    uint64_t min_len;           /* 11 (Chilimbi's "> 10")                 */
    uint64_t max_len;           /* 100                                    */
    uint64_t heat;              /* H; 0: searched for `coverage`          */
    double coverage;            /* 0.9                                    */
    uint64_t window;            /* references per analysed window         */
    uint64_t grammar_max;       /* grammar symbols per window             */
} hot_stream_params_t;

#define HOT_STREAM_DEFAULT_WINDOW      (1ull << 28)
#define HOT_STREAM_DEFAULT_GRAMMAR_MAX (1ull << 26)

void hot_stream_params_default(hot_stream_params_t *p);

/* ---- detection on one grammar ---------------------------------------------------------- */

typedef struct stream_detector {
    const sequitur_grammar_t *g;
    uint32_t *order;            /* rules, each before every rule it uses  */
    uint64_t *len;              /* terminals in each rule's expansion     */
    uint64_t *cold;             /* coldUses, scratch of stream_detect()   */
    uint64_t references;        /* terminals of S's expansion but separators */
} stream_detector_t;

typedef struct hot_stream_hit {
    uint32_t rule;
    uint64_t len, uses, heat;   /* uses = coldUses: occurrences counted   */
} hot_stream_hit_t;

typedef void (*hot_stream_emit_fn)(void *ctx, const hot_stream_hit_t *hit);

void stream_detector_init(stream_detector_t *d, const sequitur_grammar_t *g);
void stream_detector_free(stream_detector_t *d);
size_t stream_detector_bytes(const stream_detector_t *d);
/* The hot streams at threshold `heat`, in detection order, to emit (may be
 * NULL); returns the references they cover (the sum of their heats), and
 * their number in *count (may be NULL). */
uint64_t stream_detect(stream_detector_t *d, uint64_t min_len, uint64_t max_len, uint64_t heat,
                       hot_stream_emit_fn emit, void *ctx, size_t *count);
/* The largest H whose streams cover >= coverage × references; *reached
 * false (and 1 returned) when H = 1 does not. */
uint64_t stream_search_heat(stream_detector_t *d, uint64_t min_len, uint64_t max_len,
                            double coverage, bool *reached);
/* Rule `rule`'s expansion, at most `max` symbols, into out; its length. */
size_t stream_expand(const sequitur_grammar_t *g, uint32_t rule, uint32_t *out, size_t max);

/* ---- streams as profile members ------------------------------------------------------- */

/* Symbol sequences, each numbered once: the member key of a stream in both
 * the exhaustive and the sampled profile. */
typedef struct stream_table {
    uint32_t *slot;             /* stream id + 1, 0 free */
    size_t mask, count;
    uint64_t *offset;           /* stream k is pool[offset[k] .. offset[k+1]) */
    size_t offset_cap;
    uint32_t *pool;
    size_t pool_len, pool_cap;
} stream_table_t;

void stream_table_init(stream_table_t *t);
void stream_table_free(stream_table_t *t);
uint32_t stream_table_intern(stream_table_t *t, const uint32_t *sym, size_t len);
const uint32_t *stream_table_get(const stream_table_t *t, uint32_t id, size_t *len);
size_t stream_table_bytes(const stream_table_t *t);

/* ---- a whole trace, window by window ---------------------------------------------------- */

typedef struct stream_analysis {
    hot_stream_params_t params;
    stream_table_t *table;      /* shared with the other analysis of the run */
    profile_t *heat;            /* stream id (key2 0) -> heat             */
    profile_t *freq;            /* stream id -> occurrences counted       */
    uint64_t *symbol_refs;      /* references of each symbol              */
    size_t symbol_refs_cap;
    uint64_t references, separators, windows, grammar_cuts;
    uint64_t grammar_symbols;   /* of the largest window: right-hand sides */
    uint64_t grammar_rules;     /* ... and its rules                        */
    uint64_t covered;           /* references inside hot streams           */
    uint64_t heat_min, heat_max;/* H over the windows                      */
    bool coverage_short;        /* some window fell short of `coverage`    */
    size_t peak_bytes;          /* grammar and detector of one window      */
    double seconds;             /* host CPU time spent analysing           */
    double detect_seconds;      /* ... of it in detection and the H search */
} stream_analysis_t;

void stream_analysis_init(stream_analysis_t *a, const hot_stream_params_t *p, stream_table_t *table);
void stream_analysis_free(stream_analysis_t *a);
/* Analyse one window of a trace (DATA_TRACE_SEPARATOR between bursts):
 * the data_trace_full_fn of a trace whose ctx is the analysis. */
void stream_analysis_window(void *analysis, const uint32_t *sym, size_t n);
double stream_analysis_coverage(const stream_analysis_t *a);   /* 0..1 */

/* HPS §5 accuracy (percent) of the sampled hot streams against the
 * exhaustive ones: members are streams, equal when their symbol sequences
 * are, weighted by heat (profile_accuracy()). */
double hot_stream_accuracy(const stream_analysis_t *sampled, const stream_analysis_t *exact,
                           double fraction, bool renormalize);

#endif /* HPS_HOT_STREAMS_H */
