/*
 * profileme.c - the ProfileMe instruction sampler (profileme.h): the
 * randomized fetch counter, pairing, delivery through the PMU's interrupt,
 * the per-pc aggregate of the records, and its report against the truth.
 */
#include "profileme.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "runtime.h"
#include "symtab.h"
#include "util.h"

struct profileme {
    pm_hot_t hot;               /* first: read inline (profileme.h)          */
    pm_config_t cfg;
    pmu_t *pmu;
    uint64_t rng;
    pm_record_t anchor;         /* the pair's first, while its second is due */
    bool waiting;
    /* the guest driver's table (pm_table.h), 0 while none is attached */
    runtime_t *runtime;
    uint64_t guest;
    pm_driver_t *replay;        /* the same records, taken by the host      */
    pm_driver_t *drained;       /* a copy of the guest's, while draining    */
    pm_entry_t *pcs;            /* the drained entries merged: open         */
    size_t cap, used;           /* addressing on pc, power-of-2 size        */
    uint64_t partners, delivered, drains, mismatches;
    /* scores of the last report, for the statistics (-1: none) */
    double acc_count_insn, acc_count_proc, acc_head_insn, acc_dmiss_insn, est_error;
};

/* ---- options ---------------------------------------------------------------------- */

static bool parse_u64(const char *s, const char *end, uint64_t *v)
{
    char *stop;
    if (s == end || *s < '0' || *s > '9') return false;
    *v = strtoull(s, &stop, 10);
    return stop == end;
}

bool profileme_parse(const char *text, pm_config_t *cfg, char *err, size_t errlen)
{
    const char *colon = strchr(text, ':'), *end = text + strlen(text);
    uint64_t period, window = 0;
    if (!parse_u64(text, colon ? colon : end, &period) ||
        (colon && !parse_u64(colon + 1, end, &window)))
        return set_error(err, errlen, "--profileme '%s': expected PERIOD or PERIOD:W (decimal "
                         "program instructions between samples, pair window)", text);
    if (period < 2 || period > (1ull << 40))
        return set_error(err, errlen, "--profileme '%s': the period must be 2..2^40", text);
    cfg->period = period;
    cfg->jitter = period / 8;
    if (window > 4096)
        return set_error(err, errlen, "--profileme '%s': the pair window must be 0..4096", text);
    if (window && window >= period - cfg->jitter)
        return set_error(err, errlen, "--profileme '%s': the pair window %" PRIu64 " must be "
                         "below the shortest period %" PRIu64 " (period - period/8)", text,
                         window, period - cfg->jitter);
    cfg->window = (unsigned)window;
    return true;
}

/* ---- the sampler ------------------------------------------------------------------ */

static uint64_t next_random(profileme_t *pm) { return splitmix64_next(&pm->rng); }

static uint64_t next_period(profileme_t *pm)
{
    uint64_t span = 2 * pm->cfg.jitter + 1;
    return pm->cfg.period - pm->cfg.jitter + next_random(pm) % span;
}

static void on_delivered(void *ctx, const uint64_t regs[PM_REG_COUNT]);

profileme_t *profileme_new(const pm_config_t *cfg, pmu_t *pmu)
{
    profileme_t *pm = xcalloc(1, sizeof *pm);
    pm->cfg = *cfg;
    if (!pm->cfg.issue_width) pm->cfg.issue_width = 1;
    pm->pmu = pmu;
    pm->rng = cfg->seed ^ 0x50524f46494c454dull;        /* "PROFILEM" */
    pm->hot.countdown = next_period(pm);
    pm->replay = xcalloc(1, sizeof *pm->replay);
    pm->cap = 1024;
    pm->pcs = xcalloc(pm->cap, sizeof *pm->pcs);
    pm->acc_count_insn = -1;
    if (pmu) pmu_set_regs_hook(pmu, on_delivered, pm);
    return pm;
}

void profileme_free(profileme_t *pm)
{
    if (!pm) return;
    free(pm->pcs);
    free(pm->replay);
    free(pm->drained);
    free(pm);
}

bool profileme_attach_driver(profileme_t *pm, runtime_t *rt, uint64_t event, char *err,
                             size_t errlen)
{
    uint64_t addr = runtime_symbol(rt, "pm_driver");
    if (!addr) return set_error(err, errlen, "handler runtime: no ProfileMe table (pm_driver)");
    pm_state_t st = { .version = PM_VERSION, .event = event, .magic = PM_MAGIC };
    if (!mem_write(runtime_mem(rt), addr, &st, sizeof st))
        return set_error(err, errlen, "ProfileMe driver: its table is not mapped in the runtime");
    pm->runtime = rt;
    pm->guest = addr;
    pm->drained = xcalloc(1, sizeof *pm->drained);
    return true;
}

/* ---- the merged table ------------------------------------------------------------- */

static size_t slot_of(uint64_t pc, size_t cap)
{
    return (size_t)((pc >> 1) * 0x9e3779b97f4a7c15ull >> 24) & (cap - 1);
}

static void grow(profileme_t *pm)
{
    size_t cap = 2 * pm->cap;
    pm_entry_t *n = xcalloc(cap, sizeof *n);
    for (size_t k = 0; k < pm->cap; k++) {
        if (!pm->pcs[k].records) continue;
        size_t i = slot_of(pm->pcs[k].pc, cap);
        while (n[i].records) i = (i + 1) & (cap - 1);
        n[i] = pm->pcs[k];
    }
    free(pm->pcs);
    pm->pcs = n;
    pm->cap = cap;
}

static pm_entry_t *pc_entry(profileme_t *pm, uint64_t pc)
{
    if (2 * (pm->used + 1) > pm->cap) grow(pm);
    size_t i = slot_of(pc, pm->cap);
    while (pm->pcs[i].records && pm->pcs[i].pc != pc) i = (i + 1) & (pm->cap - 1);
    pm_entry_t *e = &pm->pcs[i];
    if (!e->records) {
        e->pc = pc;
        pm->used++;
    }
    return e;
}

/* Add a driver table's entry to the merged one: every field is a sum. */
static void merge_entry(profileme_t *pm, const pm_entry_t *from)
{
    pm_entry_t *to = pc_entry(pm, from->pc);
    const uint64_t *src = &from->anchors;
    uint64_t *dst = &to->anchors;
    size_t sums = sizeof *from / sizeof(uint64_t) - 1;       /* all but pc */
    for (size_t k = 0; k < sums; k++) dst[k] += src[k];
}

/* Merge table t and empty it (its statistics stay). */
static void merge_table(profileme_t *pm, pm_driver_t *t)
{
    for (unsigned k = 0; k < PM_ENTRIES; k++)
        if (t->table[k].records) merge_entry(pm, &t->table[k]);
    memset(t->table, 0, sizeof t->table);
    t->st.used = 0;
}

/* The guest driver's table, checked against the replay, merged, and both
 * emptied (the driver asked, or the run ended). */
static void drain_guest(profileme_t *pm)
{
    mem_t *m = runtime_mem(pm->runtime);
    if (!mem_read(m, pm->guest, pm->drained, sizeof *pm->drained)) {
        pm->mismatches++;
        return;
    }
    for (unsigned k = 0; k < PM_ENTRIES; k++)
        if (memcmp(&pm->drained->table[k], &pm->replay->table[k], sizeof(pm_entry_t)))
            pm->mismatches++;
    if (pm->drained->st.samples != pm->replay->st.samples) pm->mismatches++;
    merge_table(pm, pm->drained);
    memset(pm->replay->table, 0, sizeof pm->replay->table);   /* the same, merged */
    pm->replay->st.used = 0;
    uint64_t zero = 0;
    mem_write(m, pm->guest + offsetof(pm_driver_t, st.used), &zero, sizeof zero);
    mem_write(m, pm->guest + offsetof(pm_driver_t, table), pm->replay->table,
              sizeof pm->replay->table);
    pm->drains++;
}

void profileme_drain(profileme_t *pm)
{
    if (pm->guest) drain_guest(pm);
    else merge_table(pm, pm->replay);
}

/* ---- the sampler's side of an interrupt ------------------------------------------ */

/* An interrupt's records, as the driver takes them: into the replay (no
 * guest driver: the replay is the driver, drained here). */
static void take(profileme_t *pm, const uint64_t regs[PM_REG_COUNT])
{
    const pm_regs_t *a = (const pm_regs_t *)regs, *b = (const pm_regs_t *)(regs + PM_REGS);
    bool pair = regs[PM_REG_VALID - PM_REG_BASE] == 2;
    if (pm_take(pm->replay, &a->rec, pair ? &b->rec : NULL) && !pm->guest)
        merge_table(pm, pm->replay);
}

/* The PMU delivers a sample's interrupt: the guest driver reads it now. */
static void on_delivered(void *ctx, const uint64_t regs[PM_REG_COUNT])
{
    take(ctx, regs);
}

/* Raise the interrupt that carries record a (and its partner b). */
static void deliver(profileme_t *pm, const pm_record_t *a, const pm_record_t *b, uint64_t cycle)
{
    uint64_t regs[PM_REG_COUNT] = { 0 };
    memcpy(regs, a, sizeof *a);
    if (b) memcpy(regs + PM_REGS, b, sizeof *b);
    regs[PM_REG_VALID - PM_REG_BASE] = b ? 2 : 1;
    pm->delivered++;
    if (pm->pmu) pmu_sample(pm->pmu, a->pc, cycle, regs);
    else take(pm, regs);
}

/* A first is delivered with its pair (one still waiting for its second
 * when the program ends is not). */
void profileme_record(profileme_t *pm, const pm_record_t *r)
{
    if (pm->waiting && !pm->hot.pair_countdown) {          /* the second of a pair */
        pm->waiting = false;
        pm->partners++;
        deliver(pm, &pm->anchor, r, r->retire > pm->anchor.retire ? r->retire : pm->anchor.retire);
        if (pm->hot.countdown) return;                      /* not an anchor as well */
    }
    if (pm->hot.countdown) return;
    pm->hot.countdown = next_period(pm);
    if (!pm->cfg.window) {
        deliver(pm, r, NULL, r->retire);
        return;
    }
    pm->anchor = *r;
    pm->waiting = true;
    pm->hot.pair_countdown = 1 + next_random(pm) % pm->cfg.window;
}

/* The drained table's totals: samples and the aborted among them, and (if
 * wanted) the samples and retired samples by pc. */
typedef struct pm_totals { uint64_t anchors, aborted; } pm_totals_t;
static pm_totals_t totals(const profileme_t *pm, profile_t *samples, profile_t *retired)
{
    pm_totals_t t = { 0, 0 };
    for (size_t k = 0; k < pm->cap; k++) {
        const pm_entry_t *e = &pm->pcs[k];
        if (!e->anchors) continue;
        uint64_t ret = e->flag[9];                          /* PM_RETIRED */
        t.anchors += e->anchors;
        t.aborted += e->anchors - ret;
        if (samples) profile_add(samples, e->pc, 0, e->anchors);
        if (retired && ret) profile_add(retired, e->pc, 0, ret);
    }
    return t;
}
/* ---- the report ------------------------------------------------------------------- */

typedef struct truth_sets {
    profile_t *count, *head;
} truth_sets_t;

static void add_truth(void *ctx, uint64_t pc, uint64_t count, uint64_t head)
{
    truth_sets_t *t = ctx;
    if (runtime_contains(pc)) return;
    profile_add(t->count, pc, 0, count);
    profile_add(t->head, pc, 0, head);
}

/* The anchors' per-pc head cycles and flag counts, as profiles. */
static void sampled_profiles(const profileme_t *pm, profile_t *head, profile_t *dmiss,
                             profile_t *imiss)
{
    for (size_t k = 0; k < pm->cap; k++) {
        const pm_entry_t *e = &pm->pcs[k];
        if (!e->anchors) continue;
        profile_add(head, e->pc, 0, e->head_sum);
        profile_add(dmiss, e->pc, 0, e->flag[4]);   /* PM_DCACHE */
        profile_add(imiss, e->pc, 0, e->flag[2]);   /* PM_ICACHE */
    }
}

/* Accuracy by instruction and by procedure, one line. */
static double score(FILE *out, const char *what, const profile_t *sampled, const profile_t *exact,
                    const symtab_t *symtab, double *by_proc)
{
    profile_t *ps = profile_new(), *pe = profile_new();
    profile_by_function(sampled, symtab, ps);
    profile_by_function(exact, symtab, pe);
    double insn = profile_accuracy(sampled, exact, 0.9, false);
    double proc = profile_accuracy(ps, pe, 0.9, false);
    fprintf(out, "  %-22s by instruction %5.1f%%  by procedure %5.1f%%  (%" PRIu64
            " sampled, %" PRIu64 " exact)\n", what, insn, proc, profile_total(sampled),
            profile_total(exact));
    profile_free(ps);
    profile_free(pe);
    if (by_proc) *by_proc = proc;
    return insn;
}

static int by_anchors(const void *a, const void *b)
{
    const pm_entry_t *x = *(pm_entry_t *const *)a, *y = *(pm_entry_t *const *)b;
    if (x->anchors != y->anchors) return x->anchors < y->anchors ? 1 : -1;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The sampled pcs, most anchors first (caller frees). */
static pm_entry_t **sorted_pcs(const profileme_t *pm, size_t *n)
{
    pm_entry_t **v = xcalloc(pm->used + 1, sizeof *v);
    *n = 0;
    for (size_t k = 0; k < pm->cap; k++)
        if (pm->pcs[k].records) v[(*n)++] = &pm->pcs[k];
    qsort(v, *n, sizeof *v, by_anchors);
    return v;
}

static double ratio(uint64_t a, uint64_t b) { return b ? (double)a / (double)b : 0.0; }

/* The instructions within W after it (dir 0) or before it (dir 1) that
 * count[] says of: W x the fraction of its pairs in that direction. */
static double within_window(const profileme_t *pm, const pm_entry_t *e, const uint64_t count[2])
{
    return pm->cfg.window * (ratio(count[0], e->pairs[0]) + ratio(count[1], e->pairs[1]));
}

/* Instructions in flight with it, from its pairs in both directions (a
 * direction without pairs adds nothing). */
static double concurrency(const profileme_t *pm, const pm_entry_t *e)
{
    return within_window(pm, e, e->overlapped);
}

/* Issue slots of its time in flight that nothing used: width x mean cycles
 * in flight, less itself and the instructions that issued meanwhile. */
static double wasted_slots(const profileme_t *pm, const pm_entry_t *e)
{
    uint64_t pairs = e->pairs[0] + e->pairs[1];
    double slots = pm->cfg.issue_width * ratio(e->inflight_sum, pairs);
    double used = 1.0 + within_window(pm, e, e->issued_in);
    return slots > used ? slots - used : 0.0;
}

static void report_top(const profileme_t *pm, FILE *out, const symtab_t *symtab, size_t top_n)
{
    size_t n;
    pm_entry_t **v = sorted_pcs(pm, &n);
    fprintf(out, "  %-28s %7s %6s %6s %6s %6s %6s %6s %6s %6s", "pc", "samples", "f>d", "d>i",
            "i>c", "c>r", "load", "dmiss", "imiss", "mispr");
    if (pm->cfg.window) fprintf(out, " %6s %7s", "concur", "wasted");
    fputc('\n', out);
    for (size_t k = 0; k < n && k < top_n; k++) {
        const pm_entry_t *e = v[k];
        if (!e->anchors) break;
        char name[128];
        symtab_format(symtab, e->pc, name, sizeof name);
        fprintf(out, "  %-28s %7" PRIu64, name, e->anchors);
        for (int s = 0; s < 4; s++) fprintf(out, " %6.1f", ratio(e->lat[s], e->anchors));
        fprintf(out, " %6.1f %5.0f%% %5.0f%% %5.0f%%", ratio(e->load_lat, e->loads),
                100 * ratio(e->flag[4], e->anchors), 100 * ratio(e->flag[2], e->anchors),
                100 * ratio(e->flag[1], e->anchors));
        if (pm->cfg.window) fprintf(out, " %6.1f %7.1f", concurrency(pm, e), wasted_slots(pm, e));
        fputc('\n', out);
    }
    free(v);
}

void profileme_report(profileme_t *pm, FILE *out, const symtab_t *symtab,
                      void (*for_each_head)(const void *src, pm_heads_fn fn, void *ctx),
                      const void *heads_src, size_t top_n)
{
    double mean = (double)pm->cfg.period;
    if (!pm->guest) profileme_drain(pm);
    profile_t *retired_pcs = profile_new();
    pm_totals_t n = totals(pm, NULL, retired_pcs);
    fprintf(out, "==== ProfileMe ====\n");
    fprintf(out, "period %" PRIu64 " +- %" PRIu64 " program instructions, pair window %u: %"
            PRIu64 " samples, %" PRIu64 " partners, %" PRIu64 " interrupts\n", pm->cfg.period,
            pm->cfg.jitter, pm->cfg.window, n.anchors, pm->partners, pm->delivered);
    truth_sets_t t = { profile_new(), profile_new() };
    profile_t *head = profile_new(), *dmiss = profile_new(), *imiss = profile_new();
    if (for_each_head) for_each_head(heads_src, add_truth, &t);
    sampled_profiles(pm, head, dmiss, imiss);
    fprintf(out, "accuracy against the truth (top 90%% overlap):\n");
    pm->acc_count_insn = score(out, "fetch counts", retired_pcs, t.count, symtab,
                               &pm->acc_count_proc);
    pm->acc_head_insn = score(out, "head cycles", head, t.head, symtab, NULL);
    if (pm->pmu) {
        pm->acc_dmiss_insn = score(out, "D-cache misses", dmiss, pmu_exact(pm->pmu, PMU_DMISS),
                                   symtab, NULL);
        score(out, "I-cache misses", imiss, pmu_exact(pm->pmu, PMU_IMISS), symtab, NULL);
    }
    uint64_t retired = n.anchors - n.aborted;
    double est = (double)retired * mean, real = (double)profile_total(t.count);
    pm->est_error = real > 0 ? 100.0 * (est / real - 1.0) : 0.0;
    fprintf(out, "estimated program instructions: %" PRIu64 " retired samples x period %.0f = "
            "%.0f; exact %.0f (%+.2f%%)\n", retired, mean, est, real, pm->est_error);
    uint64_t wrong = pm->hot.wrong_path_fetched;
    if (wrong || n.aborted)
        fprintf(out, "aborted: %" PRIu64 " samples on the wrong path (%.1f%%); estimated wrong-path "
                "fetches %" PRIu64 " x %.0f = %.0f, exact %" PRIu64 " (%+.2f%%)\n", n.aborted,
                100 * ratio(n.aborted, n.anchors), n.aborted, mean, (double)n.aborted * mean,
                wrong, wrong ? 100.0 * ((double)n.aborted * mean / (double)wrong - 1.0) : 0.0);
    fprintf(out, "most sampled (mean cycles fetch>decode>issue>complete>retire, load latency, "
            "miss and mispredict rates%s):\n",
            pm->cfg.window ? ", instructions in flight with it, wasted issue slots" : "");
    report_top(pm, out, symtab, top_n);
    profile_free(t.count);
    profile_free(t.head);
    profile_free(head);
    profile_free(dmiss);
    profile_free(imiss);
    profile_free(retired_pcs);
}

void profileme_write_tsv(profileme_t *pm, FILE *out, const symtab_t *symtab)
{
    if (!pm->guest) profileme_drain(pm);
    size_t n;
    pm_entry_t **v = sorted_pcs(pm, &n);
    fprintf(out, "pc\tsymbol\tsamples\tpair_records\thead_cycles\tfetch_decode\tdecode_issue\t"
            "issue_complete\tcomplete_retire\tload_latency\tloads\ttaken\tmispredict\ticache\t"
            "itlb\tdcache\tdtlb\tretired\taborted\tpairs\tconcurrency\twasted_slots\n");
    for (size_t k = 0; k < n; k++) {
        const pm_entry_t *e = v[k];
        char name[128];
        symtab_format(symtab, e->pc, name, sizeof name);
        fprintf(out, "%#" PRIx64 "\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64, e->pc, name,
                e->anchors, e->records, e->head_sum);
        for (int s = 0; s < 4; s++) fprintf(out, "\t%" PRIu64, e->lat[s]);
        fprintf(out, "\t%" PRIu64 "\t%" PRIu64, e->load_lat, e->loads);
        static const unsigned bits[] = { 0, 1, 2, 3, 4, 5, 9 };   /* aborted: the rest */
        for (size_t b = 0; b < sizeof bits / sizeof bits[0]; b++)
            fprintf(out, "\t%" PRIu64, e->flag[bits[b]]);
        fprintf(out, "\t%" PRIu64 "\t%" PRIu64 "\t%.3f\t%.3f\n", e->anchors - e->flag[9],
                e->pairs[0] + e->pairs[1], concurrency(pm, e), wasted_slots(pm, e));
    }
    free(v);
}

void profileme_stats(const profileme_t *pm, stats_t *s)
{
    pm_totals_t n = totals(pm, NULL, NULL);
    stats_add_u64(s, "profileme.samples", n.anchors, "Count",
                  "Samples the driver took: instructions the fetch counter selected");
    stats_add_u64(s, "profileme.partners", pm->partners, "Count",
                  "Second instructions of pairs recorded");
    stats_add_u64(s, "profileme.interrupts", pm->delivered, "Count",
                  "Sample interrupts raised (one per sample or pair)");
    stats_add_u64(s, "profileme.aborted", n.aborted, "Count",
                  "Samples of wrong-path instructions (squashed, never retired)");
    stats_add_u64(s, "profileme.driverDrains", pm->drains, "Count",
                  "Times the daemon drained the driver's per-pc table");
    stats_add_u64(s, "profileme.driverMismatches", pm->mismatches, "Count",
                  "Driver table entries that differ from the host's replay (0)");
    stats_add_u64(s, "profileme.wrongPathFetched", pm->hot.wrong_path_fetched, "Count",
                  "Wrong-path instructions fetched (exact)");
    if (pm->acc_count_insn < 0) return;
    stats_add_f64(s, "profileme.accuracy::fetchInstruction", pm->acc_count_insn, "Percent",
                  "Top-90% overlap of samples and exact fetch counts by instruction");
    stats_add_f64(s, "profileme.accuracy::fetchProcedure", pm->acc_count_proc, "Percent",
                  "Top-90% overlap of samples and exact fetch counts by procedure");
    stats_add_f64(s, "profileme.accuracy::headInstruction", pm->acc_head_insn, "Percent",
                  "Top-90% overlap of sampled and exact head cycles by instruction");
    if (pm->pmu)
        stats_add_f64(s, "profileme.accuracy::dmissInstruction", pm->acc_dmiss_insn, "Percent",
                      "Top-90% overlap of sampled and exact D-cache misses by instruction");
    stats_add_f64(s, "profileme.estimateError", pm->est_error, "Percent",
                  "Samples x period against the exact program instructions");
}
