/*
 * hps_report.c - one HPS profiling session: collects the samples drained
 * from the guest profile buffer, keeps the exact profiles beside them, and
 * prints the end-of-run report: for each profile the top members, sampled
 * against exact, the Section 5 accuracy, and the cycle overhead with the
 * Figure 7 breakdown (instrumentation checks, basic, sampling).
 *
 * Samples and truth are both keyed by raw addresses; for comparison they
 * are mapped the same way: a method address to the function containing it.
 * Call pairs stay (call site, target).  The data profile is hot data
 * streams, analysed and reported by hps_streams.c.
 */
#include "hps_report.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "hps_streams.h"
#include "ppcct.h"
#include "mem.h"
#include "runtime.h"   /* hps_sample_t */
#include "symtab.h"

const char *const hps_kind_names[HPS_KIND_COUNT] = { "method", "call_pair", "data" };

static const char *const kind_handlers[HPS_KIND_COUNT] = {
    "HotMethod_handler", "CallPair_handler", "DataStream_handler"
};

static const char *const kind_titles[HPS_KIND_COUNT] = {
    "hot methods", "hot call pairs", "hot data streams"
};

void hps_session_init(hps_session_t *h, const dise_program_t *prog, const symtab_t *symtab)
{
    memset(h, 0, sizeof *h);
    h->symtab = symtab;
    for (int k = 0; k < HPS_KIND_COUNT; k++)
        for (size_t j = 0; j < prog->nhandlers; j++)
            if (!strcmp(prog->handlers[j], kind_handlers[k])) h->enabled[k] = true;
    profile_t **truth[HPS_KIND_COUNT] = { &h->truth.method, &h->truth.pair, NULL };
    for (int k = 0; k < HPS_KIND_COUNT; k++) {
        if (!h->enabled[k] || k == HPS_KIND_DATA) continue;
        *truth[k] = profile_new();
        h->sampled[k] = profile_new();
        h->sampled_recent[k] = profile_recent_new(h->sampled[k]);
    }
    if (h->truth.method) h->truth.method_recent = profile_recent_new(h->truth.method);
    if (h->truth.pair) h->truth.pair_recent = profile_recent_new(h->truth.pair);
    if (h->enabled[HPS_KIND_DATA]) {
        h->streams = hps_streams_new(prog);
        h->truth.data_trace = hps_streams_exact_trace(h->streams);
    }
}

void hps_session_free(hps_session_t *h)
{
    profile_recent_free(h->truth.method_recent);
    profile_recent_free(h->truth.pair_recent);
    profile_free(h->truth.method);
    profile_free(h->truth.pair);
    profile_free(h->truth.data);
    for (int k = 0; k < HPS_KIND_COUNT; k++) {
        profile_recent_free(h->sampled_recent[k]);
        profile_free(h->sampled[k]);
    }
    profile_free(h->paths);
    ppcct_free(h->ppcct);
    profile_free(h->path_cycles);
    profile_free(h->path_misses);
    hps_streams_free(h->streams);
}

void hps_session_take(void *ctx, const hps_sample_t *s)
{
    hps_session_t *h = ctx;
    switch (s->kind) {
    case HPS_SAMPLE_METHOD:
        if (h->sampled_recent[HPS_KIND_METHOD])
            profile_recent_add(h->sampled_recent[HPS_KIND_METHOD], s->a, 0);
        h->samples[HPS_KIND_METHOD]++;
        break;
    case HPS_SAMPLE_CALL_PAIR:
        if (h->sampled_recent[HPS_KIND_CALL_PAIR])
            profile_recent_add(h->sampled_recent[HPS_KIND_CALL_PAIR], s->a, s->b);
        h->samples[HPS_KIND_CALL_PAIR]++;
        break;
    case HPS_SAMPLE_DATA:
        if (h->streams) hps_streams_sample(h->streams, s->a, s->b, s->c);
        h->samples[HPS_KIND_DATA]++;
        if (h->bursts == 0 || s->c != h->last_burst) h->bursts++;
        h->last_burst = s->c;
        break;
    case HPS_SAMPLE_PATH:                       /* PP on DISE (include/paths.h) */
        if (!h->paths) h->paths = profile_new();
        profile_add(h->paths, s->a, s->b, 1);
        if (h->ppcct) ppcct_take(h->ppcct, s->c, s->a, s->b);
        h->last_proc = s->a;
        h->last_path = s->b;
        break;
    case HPS_SAMPLE_PATH_COST:                  /* hps-pp-acf --metrics: the path just taken's */
        if (!h->path_cycles) {
            h->path_cycles = profile_new();
            h->path_misses = profile_new();
        }
        profile_add(h->path_cycles, h->last_proc, h->last_path, s->a);
        profile_add(h->path_misses, h->last_proc, h->last_path, s->b);
        break;
    }
}

/* The table named `name` of prog, or NULL. */
static const dise_table_t *table_named(const dise_program_t *prog, const char *name)
{
    for (size_t k = 0; prog && k < prog->ntables; k++)
        if (!strcmp(prog->tables[k].name, name)) return &prog->tables[k];
    return NULL;
}

/* A word of the tally table (0 when it cannot be read). */
static uint64_t tally_word(const runtime_t *rt, uint64_t base, uint64_t k)
{
    uint64_t v = 0;
    if (!mem_read(runtime_mem(rt), base + 8 * k, &v, sizeof v)) v = 0;
    return v;
}

void hps_session_read_tallies(hps_session_t *h, const dise_program_t *prog, const runtime_t *rt)
{
    const dise_table_t *t = table_named(prog, HPS_PP_TALLY_TABLE);
    uint64_t base = runtime_symbol(rt, DISE_TALLY_SYMBOL);
    uint64_t words = runtime_symbol_size(rt, DISE_TALLY_SYMBOL) / 8;
    if (!t || !base) return;
    if (!h->paths) h->paths = profile_new();
    for (size_t r = 0; r < t->nrows; r++) {
        const int64_t *v = &t->vals[r * DISE_TABLE_COLS];
        uint64_t first = (uint64_t)v[0], n = (uint64_t)v[1];
        for (uint64_t k = 0; k < n && first + k < words; k++) {
            uint64_t count = tally_word(rt, base, first + k);
            if (count) profile_add(h->paths, t->pcs[r], k, count);
        }
    }
    uint64_t outside = tally_word(rt, base, 0);     /* r poisoned: a path that never ended */
    if (outside) profile_add(h->paths, 0, UINT64_MAX, outside);
}

/* ---- key mapping and names ------------------------------------------------------ */

static bool identity(void *ctx, uint64_t key, uint64_t key2, uint64_t *k, uint64_t *k2)
{
    (void)ctx;
    *k = key;
    *k2 = key2;
    return true;
}

static profile_t *mapped(const hps_session_t *h, hps_kind_t kind, const profile_t *raw)
{
    profile_t *out = profile_new();
    if (kind == HPS_KIND_METHOD) profile_by_function(raw, h->symtab, out);
    else profile_map(raw, identity, NULL, out);
    return out;
}

/* The sampled profile of `kind`, with the samples its recent lines held. */
static const profile_t *sampled_of(const hps_session_t *h, hps_kind_t kind)
{
    profile_recent_flush(h->sampled_recent[kind]);
    return h->sampled[kind];
}

/* The exact profile of `kind`, with the events its recent lines held. */
static const profile_t *truth_of(const hps_session_t *h, hps_kind_t kind)
{
    bool method = kind == HPS_KIND_METHOD;
    profile_recent_flush(method ? h->truth.method_recent : h->truth.pair_recent);
    return method ? h->truth.method : h->truth.pair;
}

static void format_symbol(const symtab_t *st, uint64_t addr, char *buf, size_t len)
{
    profile_format_function((void *)st, addr, 0, buf, len);
}

typedef struct name_ctx { const hps_session_t *h; hps_kind_t kind; } name_ctx_t;

static void format_member(void *ctx, uint64_t key, uint64_t key2, char *buf, size_t len)
{
    const name_ctx_t *n = ctx;
    char a[128], b[128];
    switch (n->kind) {
    case HPS_KIND_METHOD:
        format_symbol(n->h->symtab, key, buf, len);
        break;
    default:
        symtab_format(n->h->symtab, key, a, sizeof a);
        format_symbol(n->h->symtab, key2, b, sizeof b);
        snprintf(buf, len, "%s -> %s", a, b);
        break;
    }
}

double hps_session_accuracy(const hps_session_t *h, hps_kind_t kind, double fraction)
{
    if (!h->enabled[kind]) return 0;
    if (kind == HPS_KIND_DATA) return hps_streams_accuracy(h->streams, fraction, true);
    profile_t *s = mapped(h, kind, sampled_of(h, kind));
    profile_t *t = mapped(h, kind, truth_of(h, kind));
    double acc = profile_accuracy(s, t, fraction, true);
    profile_free(s);
    profile_free(t);
    return acc;
}

/* ---- the report ----------------------------------------------------------------- */

static void report_profile(const hps_session_t *h, FILE *out, hps_kind_t kind, size_t top_n)
{
    if (kind == HPS_KIND_DATA) {
        hps_streams_report(h->streams, out, h->symtab, top_n, h->bursts);
        fprintf(out, "bursts sampled: %" PRIu64 "\n", h->bursts);
        return;
    }
    profile_t *s = mapped(h, kind, sampled_of(h, kind));
    profile_t *t = mapped(h, kind, truth_of(h, kind));
    char title[160];
    snprintf(title, sizeof title, "HPS %s: sampled vs exact", kind_titles[kind]);
    name_ctx_t nc = { h, kind };
    profile_print_comparison(out, title, s, t, top_n, 0.9, format_member, &nc);
    fprintf(out, "accuracy (top 90%% overlap, shares renormalised within the top 90%%): %.1f%%\n",
            profile_accuracy(s, t, 0.9, true));
    profile_free(s);
    profile_free(t);
}

static void report_params(FILE *out, const dise_program_t *prog)
{
    if (!prog->nparams) return;
    fprintf(out, "parameters:");
    for (size_t k = 0; k < prog->nparams; k++)
        fprintf(out, " %s=%" PRId64, prog->params[k].name, prog->params[k].value);
    fputc('\n', out);
}

/* Handler instructions per sample: every handler call appends one sample
 * (a full buffer's flush counts toward the call that found it full). */
static double insts_per_sample(const hps_overhead_t *ov)
{
    return ov->handler_calls ? (double)ov->handler_insts / (double)ov->handler_calls : 0;
}

static void report_handlers(FILE *out, const hps_overhead_t *ov)
{
    if (!ov->handler_calls) return;
    fprintf(out, "handlers (%s): %.2f instructions per sample (%" PRIu64 " calls, %" PRIu64
            " instructions)\n", ov->handlers ? ov->handlers : "?", insts_per_sample(ov),
            ov->handler_calls, ov->handler_insts);
}

static const char *const part_labels[DISE_ROLE_COUNT] = {
    "other", "instrumentation checks", "basic overhead", "sampling overhead"
};

static void report_part(FILE *out, const hps_overhead_t *ov, const char *label, int64_t cycles)
{
    fprintf(out, "  %-24s %12" PRId64 " cycles  %7.2f%% of the unprofiled run\n", label, cycles,
            100.0 * (double)cycles / (double)ov->base_cycles);
}

/* The exact parts: differences of runs (hps_overhead_t), adding up to the
 * measured overhead. */
static void report_exact_parts(FILE *out, const hps_overhead_t *ov)
{
    for (int r = DISE_ROLE_CHECK; r < DISE_ROLE_COUNT; r++)
        report_part(out, ov, part_labels[r], ov->part[r]);
    if (ov->dcpi_measured) report_part(out, ov, "DCPI profiling", ov->dcpi_part);
    report_part(out, ov, part_labels[DISE_ROLE_NONE], ov->part[DISE_ROLE_NONE]);
    if (ov->parts_counted)
        fprintf(out, "  (exact: one cycle per instruction and decode-penalty cycle on the "
                "functional core; the parts add up to the overhead)\n");
    else
        fprintf(out, "  (exact: each part is the cycles saved by leaving its instructions untimed, "
                "%u more run%s; the parts add up to the overhead)\n", ov->breakdown_runs,
                ov->breakdown_runs == 1 ? "" : "s");
}

/* Without the parts: the cycles charged to each role's instructions
 * (issue cycles and the stalls they caused), which need not add up. */
static void report_charged(FILE *out, const hps_overhead_t *ov)
{
    uint64_t charged = 0;
    for (int r = DISE_ROLE_CHECK; r < DISE_ROLE_COUNT; r++) {
        charged += ov->role_cycles[r];
        fprintf(out, "  %-24s %12" PRIu64 " cycles charged to its instructions\n",
                part_labels[r], ov->role_cycles[r]);
    }
    if (ov->base_cycles)
        fprintf(out, "  %-24s %12" PRId64 " cycles  (not exact: the rest of the difference)\n",
                part_labels[DISE_ROLE_NONE],
                (int64_t)ov->acf_cycles - (int64_t)ov->base_cycles - (int64_t)charged);
}

static void report_overhead(FILE *out, const hps_overhead_t *ov)
{
    if (ov->base_cycles) {
        double ratio = (double)ov->acf_cycles / (double)ov->base_cycles;
        fprintf(out, "overhead: %" PRIu64 " cycles with the ACF, %" PRIu64
                " without: ratio %.4f (%+.2f%%)\n", ov->acf_cycles, ov->base_cycles, ratio,
                (ratio - 1) * 100);
    } else {
        fprintf(out, "overhead: %" PRIu64 " cycles with the ACF (run without it not measured)\n",
                ov->acf_cycles);
    }
    if (ov->parts_exact) report_exact_parts(out, ov);
    else report_charged(out, ov);
}

void hps_session_report(const hps_session_t *h, FILE *out, const char *acf_name,
                        const dise_program_t *prog, const hps_overhead_t *ov, size_t top_n)
{
    fprintf(out, "==== hps-sim HPS report: %s ====\n", acf_name);
    report_params(out, prog);
    for (int k = 0; k < HPS_KIND_COUNT; k++)
        if (h->enabled[k]) report_profile(h, out, (hps_kind_t)k, top_n);
    report_handlers(out, ov);
    report_overhead(out, ov);
}

void hps_session_stats(const hps_session_t *h, const hps_overhead_t *ov, stats_t *s)
{
    char name[96], desc[160];
    for (int k = 0; k < HPS_KIND_COUNT; k++) {
        if (!h->enabled[k]) continue;
        snprintf(name, sizeof name, "hps.samples::%s", hps_kind_names[k]);
        snprintf(desc, sizeof desc, "Samples of the %s profile", kind_titles[k]);
        stats_add_u64(s, name, h->samples[k], "Count", desc);
        snprintf(name, sizeof name, "hps.events::%s", hps_kind_names[k]);
        snprintf(desc, sizeof desc, "Exact events of the %s profile", kind_titles[k]);
        stats_add_u64(s, name, k == HPS_KIND_DATA ? hps_streams_references(h->streams)
                                                  : profile_total(truth_of(h, (hps_kind_t)k)),
                      "Count", desc);
        snprintf(name, sizeof name, "hps.accuracy::%s", hps_kind_names[k]);
        snprintf(desc, sizeof desc, "Top-90%% overlap of sampled and exact %s (renormalised)",
                 kind_titles[k]);
        stats_add_f64(s, name, hps_session_accuracy(h, (hps_kind_t)k, 0.9), "Percent", desc);
    }
    if (h->streams) hps_streams_stats(h->streams, s);
    if (ov->handler_calls)
        stats_add_f64(s, "hps.handlerInstsPerSample", insts_per_sample(ov), "Count",
                      "Handler instructions executed per handler call (one sample each)");
    stats_add_u64(s, "hps.cycles", ov->acf_cycles, "Cycle", "Cycles of the run with the ACF");
    stats_add_u64(s, "hps.baseCycles", ov->base_cycles, "Cycle",
                  "Cycles of the same run without the ACF (0 = not measured)");
    stats_add_f64(s, "hps.overheadRatio",
                  ov->base_cycles ? (double)ov->acf_cycles / (double)ov->base_cycles : 0,
                  "Ratio", "Cycles with the ACF / cycles without");
    for (int r = DISE_ROLE_CHECK; r < DISE_ROLE_COUNT; r++) {
        snprintf(name, sizeof name, "hps.chargedCycles::%s", dise_role_names[r]);
        snprintf(desc, sizeof desc, "Cycles charged to %s instructions: their issue cycles "
                 "and the stalls they caused", dise_role_names[r]);
        stats_add_u64(s, name, ov->role_cycles[r], "Cycle", desc);
    }
    if (!ov->parts_exact) return;
    for (int r = 0; r < DISE_ROLE_COUNT; r++) {
        snprintf(name, sizeof name, "hps.overheadCycles::%s",
                 r == DISE_ROLE_NONE ? "other" : dise_role_names[r]);
        if (r == DISE_ROLE_NONE)
            snprintf(desc, sizeof desc, "Overhead left with every role's instructions untimed "
                     "(exact part)");
        else
            snprintf(desc, sizeof desc, "Overhead due to %s instructions: the cycles untiming "
                     "them saves (exact part)", dise_role_names[r]);
        stats_add_f64(s, name, (double)ov->part[r], "Cycle", desc);
    }
    if (ov->dcpi_measured)
        stats_add_f64(s, "hps.overheadCycles::dcpi", (double)ov->dcpi_part, "Cycle",
                      "Overhead due to the DCPI profiler running too (exact part)");
    stats_add_u64(s, "hps.breakdownRuns", ov->breakdown_runs, "Count",
                  "Extra runs with roles untimed that the exact breakdown took");
}

/* ---- the profiles as a table ------------------------------------------------------ */

static void write_kind_tsv(const hps_session_t *h, FILE *out, hps_kind_t kind)
{
    profile_t *s = mapped(h, kind, sampled_of(h, kind));
    profile_t *t = mapped(h, kind, truth_of(h, kind));
    profile_t *all = profile_new();              /* union of members, exact weight + 1 */
    profile_member_t *m = NULL;
    size_t n = profile_sorted(t, &m);
    for (size_t k = 0; k < n; k++) profile_add(all, m[k].key, m[k].key2, m[k].weight + 1);
    free(m);
    n = profile_sorted(s, &m);
    for (size_t k = 0; k < n; k++)
        if (!profile_weight(all, m[k].key, m[k].key2)) profile_add(all, m[k].key, m[k].key2, 1);
    free(m);
    n = profile_sorted(all, &m);
    name_ctx_t nc = { h, kind };
    char name[300];
    for (size_t k = 0; k < n; k++) {
        format_member(&nc, m[k].key, m[k].key2, name, sizeof name);
        fprintf(out, "%s\t%s\t0x%" PRIx64 "\t0x%" PRIx64 "\t%" PRIu64 "\t%" PRIu64 "\n",
                hps_kind_names[kind], name, m[k].key, m[k].key2,
                profile_weight(t, m[k].key, m[k].key2), profile_weight(s, m[k].key, m[k].key2));
    }
    free(m);
    profile_free(all);
    profile_free(s);
    profile_free(t);
}

void hps_session_write_tsv(const hps_session_t *h, FILE *out)
{
    fprintf(out, "# hps-sim profiles v1: exact and sampled weight of every member\n");
    fprintf(out, "kind\tmember\tkey\tkey2\texact\tsampled\n");
    for (int k = 0; k < HPS_KIND_COUNT; k++)
        if (h->enabled[k] && k != HPS_KIND_DATA) write_kind_tsv(h, out, (hps_kind_t)k);
    if (h->streams) hps_streams_write_tsv(h->streams, out, h->symtab);
}
