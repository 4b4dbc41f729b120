/*
 * hps_streams.c - the hot data stream profile of an HPS session
 * (hps_streams.h): its parameters from the ACF, the two traces and their
 * analyses, and the report section, statistics and table rows.
 */
#include "hps_streams.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hot_streams.h"
#include "symtab.h"
#include "util.h"

#define EXACT_TRACE_INITIAL   (1u << 20)   /* references buffered before the first doubling */
#define SAMPLED_TRACE_INITIAL (1u << 14)
#define STREAM_HEAD           4            /* references of a stream the report shows */

struct hps_streams {
    hot_stream_params_t params;
    uint64_t granule;                      /* bytes an address is rounded to */
    data_symbols_t symbols;
    stream_table_t table;
    data_trace_t exact_trace, sampled_trace;
    stream_analysis_t exact, sampled;
    uint64_t last_burst;
    bool sampled_any;
    uint64_t *pcs, *addrs;                 /* each symbol's pair, for printing */
    size_t npairs;
};

/* ---- parameters --------------------------------------------------------------------------- */

static int64_t acf_value(const dise_program_t *prog, const char *name, int64_t fallback)
{
    int k = acf_param_index(prog, name);
    return k < 0 ? fallback : prog->params[k].value;
}

/* The value of parameter `name` within [lo, hi]; out of range it is
 * clamped, with a warning. */
static int64_t acf_bounded(const dise_program_t *prog, const char *name, int64_t fallback,
                           int64_t lo, int64_t hi)
{
    int64_t v = acf_value(prog, name, fallback);
    int64_t c = v < lo ? lo : v > hi ? hi : v;
    if (c != v)
        fprintf(stderr, "hps-sim: warning: %s=%" PRId64 " is outside %" PRId64 "..%" PRId64
                ", using %" PRId64 "\n", name, v, lo, hi, c);
    return c;
}

static uint64_t power_of_two_at_most(uint64_t v)
{
    uint64_t p = 1;
    while (p * 2 <= v) p *= 2;
    return p;
}

static void read_params(hot_stream_params_t *p, bool *by_address, uint64_t *granule,
                        const dise_program_t *prog)
{
    hot_stream_params_default(p);
    p->min_len = (uint64_t)acf_bounded(prog, "streamMinLen", (int64_t)p->min_len, 1, 1 << 20);
    p->max_len = (uint64_t)acf_bounded(prog, "streamMaxLen", (int64_t)p->max_len,
                                       (int64_t)p->min_len, 1 << 20);
    p->heat = (uint64_t)acf_bounded(prog, "streamHeat", 0, 0, INT64_MAX);
    p->coverage = (double)acf_bounded(prog, "streamCoverage", 90, 1, 100) / 100.0;
    p->window = (uint64_t)acf_bounded(prog, "streamWindow", (int64_t)p->window, 2, 1ll << 32);
    p->grammar_max = (uint64_t)acf_bounded(prog, "streamGrammarMax", (int64_t)p->grammar_max,
                                           16, 1ll << 30);
    *by_address = acf_bounded(prog, "streamByAddress", 0, 0, 1) != 0;
    int64_t g = acf_bounded(prog, "streamGranule", 8, 1, 4096);
    *granule = power_of_two_at_most((uint64_t)g);
    if (*granule != (uint64_t)g)
        fprintf(stderr, "hps-sim: warning: streamGranule=%" PRId64 " is not a power of two, "
                "using %" PRIu64 "\n", g, *granule);
}

/* ---- the session part ------------------------------------------------------------------------ */

hps_streams_t *hps_streams_new(const dise_program_t *prog)
{
    hps_streams_t *s = xcalloc(1, sizeof *s);
    bool by_address;
    read_params(&s->params, &by_address, &s->granule, prog);
    data_symbols_init(&s->symbols, by_address, s->granule);
    stream_table_init(&s->table);
    stream_analysis_init(&s->exact, &s->params, &s->table);
    stream_analysis_init(&s->sampled, &s->params, &s->table);
    data_trace_init(&s->exact_trace, &s->symbols, s->params.window, EXACT_TRACE_INITIAL,
                    stream_analysis_window, &s->exact);
    data_trace_init(&s->sampled_trace, &s->symbols, s->params.window, SAMPLED_TRACE_INITIAL,
                    stream_analysis_window, &s->sampled);
    return s;
}

void hps_streams_free(hps_streams_t *s)
{
    if (!s) return;
    data_trace_free(&s->exact_trace);
    data_trace_free(&s->sampled_trace);
    stream_analysis_free(&s->exact);
    stream_analysis_free(&s->sampled);
    stream_table_free(&s->table);
    data_symbols_free(&s->symbols);
    free(s->pcs);
    free(s->addrs);
    free(s);
}

data_trace_t *hps_streams_exact_trace(hps_streams_t *s) { return &s->exact_trace; }

void hps_streams_sample(hps_streams_t *s, uint64_t pc, uint64_t addr, uint64_t burst)
{
    if (s->sampled_any && burst != s->last_burst) data_trace_separate(&s->sampled_trace);
    s->sampled_any = true;
    s->last_burst = burst;
    data_trace_record(&s->sampled_trace, pc, addr);
}

uint64_t hps_streams_references(const hps_streams_t *s) { return s->exact_trace.references; }

/* Analyse whatever is still buffered (the run is over). */
static void finish(hps_streams_t *s)
{
    data_trace_flush(&s->exact_trace);
    data_trace_flush(&s->sampled_trace);
}

double hps_streams_accuracy(hps_streams_t *s, double fraction, bool renormalize)
{
    finish(s);
    return hot_stream_accuracy(&s->sampled, &s->exact, fraction, renormalize);
}

/* ---- the old view: references by 8-byte word ------------------------------------------------ */

static void refresh_pairs(hps_streams_t *s)
{
    if (s->npairs == s->symbols.count && s->pcs) return;
    free(s->pcs);
    free(s->addrs);
    data_symbols_pairs(&s->symbols, &s->pcs, &s->addrs);
    s->npairs = s->symbols.count;
}

static profile_t *words_of(hps_streams_t *s, const stream_analysis_t *a)
{
    profile_t *p = profile_new();
    size_t n = a->symbol_refs_cap < s->npairs ? a->symbol_refs_cap : s->npairs;
    for (size_t k = 0; k < n; k++) profile_add(p, s->addrs[k] & ~7ull, 0, a->symbol_refs[k]);
    return p;
}

static double word_accuracy(hps_streams_t *s)
{
    refresh_pairs(s);
    profile_t *sampled = words_of(s, &s->sampled), *exact = words_of(s, &s->exact);
    double acc = profile_accuracy(sampled, exact, 0.9, true);
    profile_free(sampled);
    profile_free(exact);
    return acc;
}

/* ---- printing streams ------------------------------------------------------------------------- */

static void format_reference(const hps_streams_t *s, const symtab_t *st, uint32_t sym,
                             char *buf, size_t len)
{
    if (sym >= s->npairs) {
        snprintf(buf, len, "?");
    } else if (s->symbols.address_only) {
        snprintf(buf, len, "0x%" PRIx64, s->addrs[sym]);
    } else {
        char pc[128];
        if (st) symtab_format(st, s->pcs[sym], pc, sizeof pc);
        else snprintf(pc, sizeof pc, "0x%" PRIx64, s->pcs[sym]);
        snprintf(buf, len, "%s@0x%" PRIx64, pc, s->addrs[sym]);
    }
}

/* The first `head` references of stream `id` (all of them: head 0),
 * separated by spaces, "..." after a cut. */
static void print_stream(FILE *out, const hps_streams_t *s, const symtab_t *st, uint32_t id,
                         size_t head)
{
    size_t len;
    const uint32_t *sym = stream_table_get(&s->table, id, &len);
    size_t n = head && head < len ? head : len;
    char buf[256];
    for (size_t k = 0; k < n; k++) {
        format_reference(s, st, sym[k], buf, sizeof buf);
        fprintf(out, "%s%s", k ? " " : "", buf);
    }
    if (n < len) fputs(" ...", out);
}

static size_t stream_length(const hps_streams_t *s, uint32_t id)
{
    size_t len;
    stream_table_get(&s->table, id, &len);
    return len;
}

/* ---- the report ----------------------------------------------------------------------------------- */

static double share(uint64_t w, uint64_t total)
{
    return total ? 100.0 * (double)w / (double)total : 0;
}

static void report_analysis(FILE *out, const char *what, const stream_analysis_t *a,
                            const hot_stream_params_t *p, uint64_t bursts)
{
    fprintf(out, "%-8s %" PRIu64 " references", what, a->references);
    if (bursts) fprintf(out, " in %" PRIu64 " bursts", bursts);
    fprintf(out, ", %" PRIu64 " window%s", a->windows, a->windows == 1 ? "" : "s");
    if (a->grammar_cuts) fprintf(out, " (%" PRIu64 " cut at the grammar cap)", a->grammar_cuts);
    fprintf(out, "; grammar %" PRIu64 " symbols in %" PRIu64 " rules", a->grammar_symbols,
            a->grammar_rules);
    if (a->windows > 1) fputs(" (largest window)", out);
    if (a->heat_min == a->heat_max) fprintf(out, "; H = %" PRIu64, a->heat_min);
    else fprintf(out, "; H = %" PRIu64 "..%" PRIu64, a->heat_min, a->heat_max);
    if (!p->heat)
        fprintf(out, " (searched for %.0f%% coverage%s)", p->coverage * 100,
                a->coverage_short ? "; out of reach, so for that share of what H = 1 covers" : "");
    fprintf(out, ": %zu hot streams cover %.1f%% of the references\n",
            profile_members(a->heat), 100 * stream_analysis_coverage(a));
}

typedef struct stream_row {
    uint32_t id;
    size_t exact_rank;      /* 0: not among the exact streams */
} stream_row_t;

static void print_row(FILE *out, const hps_streams_t *s, const symtab_t *st, const stream_row_t *r)
{
    const stream_analysis_t *e = &s->exact, *a = &s->sampled;
    uint64_t eh = profile_weight(e->heat, r->id, 0), sh = profile_weight(a->heat, r->id, 0);
    char rank[24];
    if (r->exact_rank) snprintf(rank, sizeof rank, "%zu", r->exact_rank);
    else snprintf(rank, sizeof rank, "-");
    fprintf(out, "%5s %4zu %9" PRIu64 " %10" PRIu64 " %7.2f%% %9" PRIu64 " %9" PRIu64 " %7.2f%%  ",
            rank, stream_length(s, r->id), profile_weight(e->freq, r->id, 0), eh,
            share(eh, profile_total(e->heat)), profile_weight(a->freq, r->id, 0), sh,
            share(sh, profile_total(a->heat)));
    print_stream(out, s, st, r->id, STREAM_HEAD);
    fputc('\n', out);
}

static void report_table(FILE *out, const hps_streams_t *s, const symtab_t *st, size_t top_n)
{
    profile_member_t *e = NULL, *m = NULL;
    size_t ne = profile_sorted(s->exact.heat, &e), nm = profile_sorted(s->sampled.heat, &m);
    size_t te = ne < top_n ? ne : top_n, tm = nm < top_n ? nm : top_n;
    fprintf(out, "%5s %4s %9s %10s %8s %9s %9s %8s  %s\n", "rank", "len", "freq", "heat", "exact%",
            "s.freq", "s.heat", "sampled%", "stream (pc@address, first 4)");
    for (size_t k = 0; k < te; k++)
        print_row(out, s, st, &(stream_row_t){ (uint32_t)e[k].key, k + 1 });
    bool header = false;
    for (size_t k = 0; k < tm; k++) {
        size_t rank = 0;
        for (size_t j = 0; j < ne && !rank; j++)
            if (e[j].key == m[k].key) rank = j + 1;
        if (rank && rank <= te) continue;
        if (!header) fprintf(out, "sampled top %zu streams not in the exact top %zu:\n", top_n, top_n);
        header = true;
        print_row(out, s, st, &(stream_row_t){ (uint32_t)m[k].key, rank });
    }
    free(e);
    free(m);
}

static size_t memory_bytes(const hps_streams_t *s)
{
    size_t grammar = s->exact.peak_bytes > s->sampled.peak_bytes ? s->exact.peak_bytes
                                                                  : s->sampled.peak_bytes;
    return data_trace_bytes(&s->exact_trace) + data_trace_bytes(&s->sampled_trace) +
           data_symbols_bytes(&s->symbols) + stream_table_bytes(&s->table) + grammar +
           (s->exact.symbol_refs_cap + s->sampled.symbol_refs_cap) * sizeof(uint64_t);
}

static void report_memory(FILE *out, const hps_streams_t *s)
{
    const double mib = 1024.0 * 1024.0;
    size_t grammar = s->exact.peak_bytes > s->sampled.peak_bytes ? s->exact.peak_bytes
                                                                  : s->sampled.peak_bytes;
    fprintf(out, "stream analysis memory: %.1f MiB at most (trace buffers %.1f, symbol table %.1f "
            "for %zu (pc, address) pairs, grammar %.1f, streams %.1f)\n", memory_bytes(s) / mib,
            (data_trace_bytes(&s->exact_trace) + data_trace_bytes(&s->sampled_trace)) / mib,
            data_symbols_bytes(&s->symbols) / mib, s->symbols.count, grammar / mib,
            stream_table_bytes(&s->table) / mib);
}

void hps_streams_report(hps_streams_t *s, FILE *out, const symtab_t *st, size_t top_n,
                        uint64_t bursts)
{
    finish(s);
    refresh_pairs(s);
    const hot_stream_params_t *p = &s->params;
    fprintf(out, "HPS hot data streams: sampled vs exact\n");
    fprintf(out, "symbols: %s (addresses in %" PRIu64 "-byte units); streams of %" PRIu64 "..%"
            PRIu64 " references, heat = length x frequency\n",
            s->symbols.address_only ? "addresses" : "(pc, address) pairs", s->granule,
            p->min_len, p->max_len);
    report_analysis(out, "exact:", &s->exact, p, 0);
    report_analysis(out, "sampled:", &s->sampled, p, bursts);
    report_table(out, s, st, top_n);
    fprintf(out, "total: %zu exact streams of heat %" PRIu64 ", %zu sampled streams of heat %"
            PRIu64 "\n", profile_members(s->exact.heat), profile_total(s->exact.heat),
            profile_members(s->sampled.heat), profile_total(s->sampled.heat));
    fprintf(out, "accuracy (top 90%% overlap): %.1f%%\n", hps_streams_accuracy(s, 0.9, false));
    fprintf(out, "accuracy (top 90%% overlap, shares renormalised within the top 90%%): %.1f%%\n",
            hps_streams_accuracy(s, 0.9, true));
    fprintf(out, "hot data words (references per 8-byte word, not streams): accuracy %.1f%% "
            "(renormalised)\n", word_accuracy(s));
    report_memory(out, s);
}

/* ---- statistics --------------------------------------------------------------------------------- */

static void stat_pair(stats_t *st, const char *name, uint64_t exact, uint64_t sampled,
                      const char *unit, const char *desc)
{
    char n[96], d[200];
    snprintf(n, sizeof n, "%s::exact", name);
    snprintf(d, sizeof d, "%s, exhaustive trace", desc);
    stats_add_u64(st, n, exact, unit, d);
    snprintf(n, sizeof n, "%s::sampled", name);
    snprintf(d, sizeof d, "%s, sampled trace", desc);
    stats_add_u64(st, n, sampled, unit, d);
}

void hps_streams_stats(hps_streams_t *s, stats_t *st)
{
    finish(s);
    const stream_analysis_t *e = &s->exact, *a = &s->sampled;
    stat_pair(st, "hps.streams", profile_members(e->heat), profile_members(a->heat), "Count",
              "Hot data streams found");
    stat_pair(st, "hps.streamReferences", e->references, a->references, "Count",
              "Data references analysed");
    stats_add_f64(st, "hps.streamCoverage::exact", 100 * stream_analysis_coverage(e), "Percent",
                  "References inside hot data streams, exhaustive trace");
    stats_add_f64(st, "hps.streamCoverage::sampled", 100 * stream_analysis_coverage(a), "Percent",
                  "References inside hot data streams, sampled trace");
    stat_pair(st, "hps.streamHeat", e->heat_min, a->heat_min, "Count",
              "Heat threshold H (the smallest over windows)");
    stat_pair(st, "hps.streamGrammar", e->grammar_symbols, a->grammar_symbols, "Count",
              "SEQUITUR grammar symbols (right-hand sides, largest window)");
    stat_pair(st, "hps.streamRules", e->grammar_rules, a->grammar_rules, "Count",
              "SEQUITUR grammar rules (largest window)");
    stat_pair(st, "hps.streamWindows", e->windows, a->windows, "Count",
              "Windows the trace was analysed in");
    stats_add_u64(st, "hps.streamSymbols", s->symbols.count, "Count",
                  "Distinct symbols ((pc, address) pairs or addresses)");
    stats_add_u64(st, "hps.streamBytes", memory_bytes(s), "Byte",
                  "Host memory of the stream analysis at most (traces, symbols, grammar, streams)");
    stats_add_f64(st, "hps.accuracy::dataWords", word_accuracy(s), "Percent",
                  "Top-90% overlap of sampled and exact references per 8-byte word (renormalised)");
    stats_add_f64(st, "hostSeconds::hotStreams", e->seconds + a->seconds, "Second",
                  "Host CPU time of the hot data stream analysis");
    stats_add_f64(st, "hostSeconds::hotStreamDetection", e->detect_seconds + a->detect_seconds,
                  "Second", "... of it in hot stream detection and the search for H");
}

/* ---- table rows ------------------------------------------------------------------------------ */

typedef struct tsv_row {
    uint32_t id;
    uint64_t exact, sampled;
} tsv_row_t;

static int heaviest_first(const void *va, const void *vb)
{
    const tsv_row_t *a = va, *b = vb;
    if (a->exact != b->exact) return a->exact > b->exact ? -1 : 1;
    if (a->sampled != b->sampled) return a->sampled > b->sampled ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id;
}

void hps_streams_write_tsv(hps_streams_t *s, FILE *out, const symtab_t *st)
{
    finish(s);
    refresh_pairs(s);
    size_t n = s->table.count;
    tsv_row_t *rows = xcalloc(n ? n : 1, sizeof *rows);
    size_t k = 0;
    for (uint32_t id = 0; id < n; id++) {
        tsv_row_t r = { id, profile_weight(s->exact.heat, id, 0), profile_weight(s->sampled.heat, id, 0) };
        if (r.exact || r.sampled) rows[k++] = r;
    }
    qsort(rows, k, sizeof *rows, heaviest_first);
    for (size_t i = 0; i < k; i++) {
        fputs("data\t", out);
        print_stream(out, s, st, rows[i].id, 0);
        fprintf(out, "\t0x%" PRIx32 "\t0x%zx\t%" PRIu64 "\t%" PRIu64 "\n", rows[i].id,
                stream_length(s, rows[i].id), rows[i].exact, rows[i].sampled);
    }
    free(rows);
}
