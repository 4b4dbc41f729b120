/*
 * dcpi.c - the DCPI session (dcpi.h): sets up the guest driver and the
 * counters, plays the user-mode daemon (copies full overflow buffers when
 * the driver notifies, everything at the end), writes the profile
 * database, and scores the samples against the simulator's ground truth.
 */
#include "dcpi.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "dcpi_table.h"
#include "runtime.h"
#include "mem.h"
#include "profdb.h"
#include "profileme.h"
#include "symtab.h"
#include "sys.h"
#include "util.h"

struct dcpi {
    dcpi_options_t opt;
    const images_t *images;
    runtime_t *runtime;
    uint64_t driver;            /* guest address of dcpi_driver            */
    pmu_t *pmu;
    profileme_t *pm;            /* the ProfileMe sampler, or NULL          */
    dcpi_event_t pm_event;      /* its samples' event and period range     */
    profile_t **by_image;       /* [image * PMU_EVENT_COUNT + event]: offset -> samples */
    size_t nimages;
    profile_t *pc_samples[PMU_EVENT_COUNT];   /* pc -> samples (scoring)   */
    uint64_t unknown;           /* samples outside every image             */
    uint64_t drained_entries, buffer_copies;
    dcpi_state_t final_state;   /* the driver's counters at the end        */
    /* the report's scores, for the statistics (negative = not computed) */
    double acc_procedure, acc_instruction, estimate_error, overhead_ratio;
    double acc_dmiss_procedure, acc_dmiss_instruction;
    char epoch[4096];
};

/* ---- options ----------------------------------------------------------------------- */

static bool parse_number(const char *s, const char *end, uint64_t *v)
{
    char *stop;
    if (s == end || *s < '0' || *s > '9') return false;
    *v = strtoull(s, &stop, 10);
    return stop == end;
}

/* "NAME[:MIN[-MAX]]" */
static bool parse_event(const char *item, size_t len, unsigned counter_bits, dcpi_event_t *ev,
                        char *err, size_t errlen)
{
    const char *colon = memchr(item, ':', len), *end = item + len;
    char name[32];
    size_t nlen = (size_t)((colon ? colon : end) - item);
    if (nlen >= sizeof name) nlen = sizeof name - 1;
    memcpy(name, item, nlen);
    name[nlen] = 0;
    int e = pmu_event_by_name(name);
    if (e == PMU_PROFILEME)
        return set_error(err, errlen, "--dcpi-events: profileme is no counter's event; "
                         "sample instructions with --profileme PERIOD[:W]");
    if (e < 0)
        return set_error(err, errlen, "--dcpi-events: unknown event '%s'; expected cycles, insts, "
                    "imiss, dmiss, branchmp, branches, dtbmiss, itbmiss, branches_spec, "
                    "imiss_spec, dmiss_spec, dtbmiss_spec or itbmiss_spec", name);
    ev->event = (pmu_event_t)e;
    ev->period_min = e == PMU_CYCLES ? 60000 : 2000;
    ev->period_max = e == PMU_CYCLES ? 64000 : 2047;
    if (colon) {
        const char *dash = memchr(colon + 1, '-', (size_t)(end - colon - 1));
        bool ok = dash ? parse_number(colon + 1, dash, &ev->period_min) &&
                         parse_number(dash + 1, end, &ev->period_max)
                       : parse_number(colon + 1, end, &ev->period_min);
        if (!dash) ev->period_max = ev->period_min;
        if (!ok)
            return set_error(err, errlen, "--dcpi-events: '%.*s': expected EVENT:PERIOD or "
                        "EVENT:MIN-MAX with decimal periods", (int)len, item);
    }
    uint64_t limit = 1ull << counter_bits;
    if (ev->period_min < 1 || ev->period_min > ev->period_max || ev->period_max > limit)
        return set_error(err, errlen, "--dcpi-events: '%.*s': the period range must be within 1.."
                    "%" PRIu64 " (pmu.counter_bits %u) with MIN <= MAX", (int)len, item, limit,
                    counter_bits);
    return true;
}

bool dcpi_parse_events(const char *text, unsigned counter_bits, dcpi_options_t *o,
                       char *err, size_t errlen)
{
    o->nevents = 0;
    for (const char *p = text;;) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        if (!len) return set_error(err, errlen, "--dcpi-events: empty item in '%s'", text);
        if (o->nevents == PMU_MAX_COUNTERS)
            return set_error(err, errlen, "--dcpi-events: at most %d events", PMU_MAX_COUNTERS);
        dcpi_event_t *ev = &o->events[o->nevents];
        if (!parse_event(p, len, counter_bits, ev, err, errlen)) return false;
        for (unsigned k = 0; k < o->nevents; k++)
            if (o->events[k].event == ev->event)
                return set_error(err, errlen, "--dcpi-events: %s given twice",
                            pmu_event_names[ev->event]);
        o->nevents++;
        if (!comma) return true;
        p = comma + 1;
    }
}

/* ---- the daemon ---------------------------------------------------------------------- */

static profile_t *image_profile(dcpi_t *d, int image, unsigned event)
{
    if ((size_t)image >= d->nimages) {
        size_t n = (size_t)image + 1;
        d->by_image = xrealloc(d->by_image, n * PMU_EVENT_COUNT * sizeof *d->by_image);
        memset(d->by_image + d->nimages * PMU_EVENT_COUNT, 0,
               (n - d->nimages) * PMU_EVENT_COUNT * sizeof *d->by_image);
        d->nimages = n;
    }
    profile_t **p = &d->by_image[(size_t)image * PMU_EVENT_COUNT + event];
    if (!*p) *p = profile_new();
    return *p;
}

/* One aggregated sample from the driver: into its image's profile. */
static void take(dcpi_t *d, const dcpi_entry_t *e)
{
    if (e->count == 0 || e->event >= PMU_EVENT_COUNT) return;
    d->drained_entries++;
    profile_add(d->pc_samples[e->event], e->pc, 0, e->count);
    int image = images_find(d->images, e->pc);
    if (image < 0) {
        d->unknown += e->count;
        return;
    }
    uint64_t offset = e->pc - d->images->v[image].bias;
    profile_add(image_profile(d, image, e->event), offset, 0, e->count);
}

static uint64_t field(const dcpi_t *d, size_t off)
{
    uint64_t v = 0;
    mem_read(runtime_mem(d->runtime), d->driver + off, &v, sizeof v);
    return v;
}

/* Copy overflow buffer k out of the driver and empty it. */
static void drain_buffer(dcpi_t *d, unsigned k)
{
    mem_t *m = runtime_mem(d->runtime);
    uint64_t base = d->driver + offsetof(dcpi_driver_t, overflow) + k * sizeof(dcpi_overflow_t);
    uint64_t n = field(d, base - d->driver);
    if (n > DCPI_OVERFLOW_ENTRIES) n = DCPI_OVERFLOW_ENTRIES;
    for (uint64_t i = 0; i < n; i++) {
        dcpi_entry_t e;
        mem_read(m, base + offsetof(dcpi_overflow_t, e) + i * sizeof e, &e, sizeof e);
        take(d, &e);
    }
    uint64_t zero = 0;
    mem_write(m, base, &zero, sizeof zero);
    d->buffer_copies++;
}

/* hps.notify from the driver: a full overflow buffer, or a ProfileMe
 * table to drain. */
static void on_notify(void *ctx, cpu_t *c, uint64_t value)
{
    dcpi_t *d = ctx;
    if (value == PM_NOTIFY_DRAIN && d->pm) {
        profileme_drain(d->pm);
        return;
    }
    if ((value & ~1ull) != DCPI_NOTIFY_FULL) cpu_stop(c, STOP_ILLEGAL, 0);
    drain_buffer(d, (unsigned)(value & 1));
}

/* The full flush: every entry of the table, then both buffers. */
static void drain_all(dcpi_t *d)
{
    mem_t *m = runtime_mem(d->runtime);
    dcpi_bucket_t b;
    for (unsigned k = 0; k < DCPI_BUCKETS; k++) {
        uint64_t addr = d->driver + offsetof(dcpi_driver_t, table) + k * sizeof b;
        mem_read(m, addr, &b, sizeof b);
        for (unsigned w = 0; w < DCPI_WAYS; w++) take(d, &b.e[w]);
        memset(&b, 0, sizeof b);
        mem_write(m, addr, &b, sizeof b);
    }
    drain_buffer(d, 0);
    drain_buffer(d, 1);
    mem_read(m, d->driver, &d->final_state, sizeof d->final_state);
    if (d->pm) profileme_drain(d->pm);
}

/* ---- setup --------------------------------------------------------------------------- */

/* An event's mean period: the middle of its range (uniform or geometric). */
static double mean_period(const dcpi_event_t *ev)
{
    return ((double)ev->period_min + (double)ev->period_max) / 2.0;
}

static bool configure_driver(dcpi_t *d, char *err, size_t errlen)
{
    mem_t *m = runtime_mem(d->runtime);
    dcpi_state_t st = { 0 };
    st.version = DCPI_VERSION;
    st.seed = d->opt.seed % 0x7ffffffeu + 1;             /* 1 .. 2^31 - 2 */
    st.wrap = 1ull << d->opt.hw.counter_bits;
    for (unsigned k = 0; k < d->opt.nevents; k++) {
        st.period_min[k] = d->opt.events[k].period_min;
        st.period_span[k] = d->opt.events[k].period_max - d->opt.events[k].period_min + 1;
    }
    st.magic = DCPI_MAGIC;
    if (!mem_write(m, d->driver, &st, sizeof st))
        return set_error(err, errlen, "DCPI driver: its state is not mapped in the runtime");
    /* the first periods, drawn like the driver draws the later ones (or
     * like the PMU does, pmu.period = geometric) */
    for (unsigned k = 0; k < d->opt.nevents; k++) {
        uint64_t period = dcpi_next_period(&st, k);
        pmu_program(d->pmu, k, d->opt.events[k].event, st.wrap - period);
        pmu_set_period_mean(d->pmu, k, mean_period(&d->opt.events[k]));
    }
    mem_write(m, d->driver + offsetof(dcpi_state_t, seed), &st.seed, sizeof st.seed);
    return true;
}

/* pmu.period = geometric: a period longer than the counter (2^bits) cannot
 * be drawn, so each event's mean must leave the tail beyond it negligible
 * (below e^-32); and every overflow must be delivered (a counter whose
 * period ended in the handler is re-armed behind the overflow's request,
 * pmu_set_period_mean). */
static bool geometric_periods_fit(const dcpi_options_t *o, char *err, size_t errlen)
{
    if (!o->hw.geometric) return true;
    if (o->hw.precise == 3)
        return set_error(err, errlen, "pmu.period = geometric: not with --dcpi-precise 3, which "
                         "drops the overflows the PMU re-arms behind");
    double longest = (double)(1ull << o->hw.counter_bits) / 32;
    for (unsigned k = 0; k < o->nevents; k++)
        if (mean_period(&o->events[k]) > longest)
            return set_error(err, errlen, "pmu.period = geometric: %s's mean period %.0f is above "
                             "2^pmu.counter_bits / 32 = %.0f; widen the counters "
                             "(pmu.counter_bits) or shorten the period",
                             pmu_event_names[o->events[k].event],
                             mean_period(&o->events[k]), longest);
    return true;
}

dcpi_t *dcpi_new(const dcpi_options_t *o, runtime_t *runtime, const images_t *images,
                 char *err, size_t errlen)
{
    if (o->nevents > o->hw.counters) {
        set_error(err, errlen, "--dcpi-events: %u events but pmu.counters = %u", o->nevents,
             o->hw.counters);
        return NULL;
    }
    if (!geometric_periods_fit(o, err, errlen)) return NULL;
    dcpi_t *d = xcalloc(1, sizeof *d);
    d->opt = *o;
    d->acc_procedure = d->acc_instruction = d->estimate_error = d->overhead_ratio = -1;
    d->acc_dmiss_procedure = d->acc_dmiss_instruction = -1;
    d->images = images;
    for (int e = 0; e < PMU_EVENT_COUNT; e++) d->pc_samples[e] = profile_new();
    if (!profdb_epoch(o->db, o->new_epoch, d->epoch, sizeof d->epoch, err, errlen)) goto bad;
    d->runtime = runtime;
    d->driver = runtime_symbol(d->runtime, "dcpi_driver");
    uint64_t entry = runtime_symbol(d->runtime, "DCPI_interrupt");
    if (!d->driver || !entry) {
        set_error(err, errlen, "handler runtime: no DCPI driver (dcpi_driver, DCPI_interrupt)");
        goto bad;
    }
    pmu_handler_t h = { .runtime = runtime, .entry = entry, .pid = SYS_GUEST_PID,
                        .notify = on_notify, .notify_ctx = d };
    d->pmu = pmu_new(&o->hw, &h);
    if (!configure_driver(d, err, errlen)) goto bad;
    if (o->profileme.period) {
        d->pm = profileme_new(&o->profileme, d->pmu);
        if (!profileme_attach_driver(d->pm, runtime, PMU_PROFILEME, err, errlen)) goto bad;
        d->pm_event = (dcpi_event_t){ PMU_PROFILEME, o->profileme.period - o->profileme.jitter,
                                      o->profileme.period + o->profileme.jitter };
    }
    return d;
bad:
    dcpi_free(d);
    return NULL;
}

void dcpi_free(dcpi_t *d)
{
    if (!d) return;
    for (size_t k = 0; k < d->nimages * PMU_EVENT_COUNT; k++) profile_free(d->by_image[k]);
    free(d->by_image);
    for (int e = 0; e < PMU_EVENT_COUNT; e++) profile_free(d->pc_samples[e]);
    if (d->pmu) pmu_free(d->pmu);
    profileme_free(d->pm);
    free(d);
}

pmu_t *dcpi_pmu(dcpi_t *d) { return d->pmu; }
profileme_t *dcpi_profileme(dcpi_t *d) { return d->pm; }
const char *dcpi_epoch(const dcpi_t *d) { return d->epoch; }

/* ---- the end of the run ----------------------------------------------------------------- */

static const dcpi_event_t *monitored(const dcpi_t *d, unsigned event)
{
    if (event == PMU_PROFILEME) return d->pm ? &d->pm_event : NULL;
    for (unsigned k = 0; k < d->opt.nevents; k++)
        if (d->opt.events[k].event == event) return &d->opt.events[k];
    return NULL;
}

/* The machine the samples come from, as a config file in the epoch. */
static bool write_machine(const dcpi_t *d, char *err, size_t errlen)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/config", d->epoch);
    FILE *f = fopen(path, "w");
    if (!f) return set_error(err, errlen, "%s: cannot write", path);
    config_print(d->opt.machine, f);
    if (fclose(f) != 0) return set_error(err, errlen, "%s: cannot write", path);
    return true;
}

/* ProfileMe's records, aggregated by pc, as profileme.tsv in the epoch. */
static bool write_profileme(dcpi_t *d, const symtab_t *symtab, char *err, size_t errlen)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/profileme.tsv", d->epoch);
    FILE *f = fopen(path, "w");
    if (!f) return set_error(err, errlen, "%s: cannot write", path);
    profileme_write_tsv(d->pm, f, symtab);
    if (fclose(f) != 0) return set_error(err, errlen, "%s: cannot write", path);
    return true;
}

bool dcpi_finish(dcpi_t *d, cpu_t *c, char *err, size_t errlen)
{
    drain_all(d);
    if (d->opt.machine && !write_machine(d, err, errlen)) return false;
    if (d->pm && !write_profileme(d, d->opt.symtab, err, errlen)) return false;
    for (size_t i = 0; i < d->nimages; i++) {
        char key[512] = "";             /* the image's, hashed once for its events */
        for (unsigned e = 0; e < PMU_EVENT_COUNT; e++) {
            profile_t *p = d->by_image[i * PMU_EVENT_COUNT + e];
            const dcpi_event_t *ev = monitored(d, e);
            if (!p || !ev) continue;
            const char *path = d->images->v[i].path;
            if (!key[0] && !profdb_image_key(path, key, sizeof key, err, errlen)) return false;
            if (!profdb_merge_keyed(d->epoch, key, path, pmu_event_names[e], ev->period_min,
                                    ev->period_max, p, err, errlen))
                return false;
        }
    }
    return true;
}

/* ---- the report --------------------------------------------------------------------- */

/* The program's head cycles: the interrupt handler's own are DCPI's blind
 * spot (no sample can land there), so they are left out. */
static void add_head(void *ctx, uint64_t pc, uint64_t count, uint64_t head)
{
    (void)count;
    if (!runtime_contains(pc)) profile_add(ctx, pc, 0, head);
}

static void report_collection(const dcpi_t *d, FILE *out)
{
    const dcpi_state_t *st = &d->final_state;
    fprintf(out, "profile database: %s\n", d->epoch);
    for (unsigned k = 0; k < d->opt.nevents; k++) {
        const dcpi_event_t *ev = &d->opt.events[k];
        fprintf(out, "  counter %u: %-8s period %" PRIu64 "-%" PRIu64 ", %" PRIu64
                " interrupts\n", k, pmu_event_names[ev->event], ev->period_min, ev->period_max,
                pmu_interrupts(d->pmu, ev->event));
    }
    double hit = st->interrupts ? 100.0 * (double)st->hits / (double)st->interrupts : 0;
    fprintf(out, "driver: %" PRIu64 " samples, %" PRIu64 " found their entry (%.1f%%), %" PRIu64
            " evictions, %" PRIu64 " full buffers copied, %" PRIu64 " lost\n", st->interrupts,
            st->hits, hit, st->evictions, st->notifies, st->lost);
    fprintf(out, "daemon: %" PRIu64 " aggregated entries read, %" PRIu64
            " samples outside every image\n", d->drained_entries, d->unknown);
}

static void report_overhead(dcpi_t *d, FILE *out, uint64_t cycles, uint64_t base)
{
    uint64_t n = 0;
    for (int e = 0; e < PMU_EVENT_COUNT; e++) n += pmu_interrupts(d->pmu, (pmu_event_t)e);
    if (n)
        fprintf(out, "interrupt handler: %.1f instructions and %.1f cycles per interrupt\n",
                (double)pmu_handler_insts(d->pmu) / (double)n,
                (double)pmu_handler_cycles(d->pmu) / (double)n);
    if (!base) return;
    d->overhead_ratio = (double)cycles / (double)base;
    fprintf(out, "overhead: %" PRIu64 " cycles with DCPI, %" PRIu64 " without: ratio %.4f "
            "(%+.2f%%)\n", cycles, base, (double)cycles / (double)base,
            100.0 * ((double)cycles / (double)base - 1.0));
}

/* The dmiss samples against the exact D-cache misses of each pc. */
static void report_dmiss(dcpi_t *d, FILE *out, const symtab_t *symtab)
{
    const profile_t *exact_pc = pmu_exact(d->pmu, PMU_DMISS);
    profile_t *exact = profile_new(), *sampled = profile_new();
    profile_by_function(exact_pc, symtab, exact);
    profile_by_function(d->pc_samples[PMU_DMISS], symtab, sampled);
    d->acc_dmiss_procedure = profile_accuracy(sampled, exact, 0.9, false);
    d->acc_dmiss_instruction = profile_accuracy(d->pc_samples[PMU_DMISS], exact_pc, 0.9, false);
    fprintf(out, "dmiss samples vs exact D-cache misses (top 90%% overlap): by procedure %.1f%%, "
            "by instruction %.1f%% (%" PRIu64 " samples, %" PRIu64 " misses)\n",
            d->acc_dmiss_procedure, d->acc_dmiss_instruction,
            profile_total(d->pc_samples[PMU_DMISS]), profile_total(exact_pc));
    profile_free(exact);
    profile_free(sampled);
}

/* The truth's events per pc in exact.tsv's columns (pmu_exact, read once). */
static const pmu_event_t truth_events[] = { PMU_IMISS, PMU_DMISS, PMU_BRANCHMP };
enum { TRUTH_EVENTS = sizeof truth_events / sizeof truth_events[0] };

typedef struct truth_file {
    FILE *f;
    const symtab_t *symtab;
    const profile_t *exact[TRUTH_EVENTS];
} truth_file_t;

/* v written at p as printf's "%" PRIu64 (base 10) or "%#" PRIx64 (base
 * 16) would write it; returns the end.  exact.tsv has a row per pc, and
 * fprintf's parsing of the format was most of the time spent writing it. */
static char *put_number(char *p, uint64_t v, unsigned base)
{
    char digits[24];
    int n = 0;
    do {
        digits[n++] = "0123456789abcdef"[v % base];
        v /= base;
    } while (v);
    if (base == 16 && !(n == 1 && digits[0] == '0')) {
        *p++ = '0';
        *p++ = 'x';
    }
    while (n) *p++ = digits[--n];
    return p;
}

enum { TRUTH_NAME = 128 };      /* symtab_format's buffer: longer names are cut */

/* pc's symbol at p as symtab_format(t->symtab, pc, buf, TRUTH_NAME) writes
 * it ("NAME", "NAME+0xOFF" or "0xPC", cut to TRUTH_NAME - 1 characters),
 * without its snprintf, which was half the time spent on a row; returns
 * the end. */
static char *put_symbol(char *p, const symtab_t *symtab, uint64_t pc)
{
    const symbol_t *s = symtab_lookup(symtab, pc);
    char text[TRUTH_NAME + 24], *q = text;
    if (s) {
        size_t len = strlen(s->name);
        if (len > TRUTH_NAME - 1) len = TRUTH_NAME - 1;
        memcpy(q, s->name, len);
        q += len;
        if (pc != s->addr) {
            *q++ = '+';
            q = put_number(q, pc - s->addr, 16);
        }
    } else if (pc) {
        q = put_number(q, pc, 16);
    } else {
        memcpy(q, "0x0", 3);                 /* "0x%" PRIx64, not "%#" PRIx64 */
        q += 3;
    }
    size_t n = (size_t)(q - text);
    if (n > TRUTH_NAME - 1) n = TRUTH_NAME - 1;
    memcpy(p, text, n);
    return p + n;
}

static void truth_row(void *ctx, uint64_t pc, uint64_t count, uint64_t head)
{
    truth_file_t *t = ctx;
    if (runtime_contains(pc)) return;
    char row[TRUTH_NAME + 8 * 24];
    char *p = put_number(row, pc, 16);
    *p++ = '\t';
    p = put_symbol(p, t->symtab, pc);
    *p++ = '\t';
    p = put_number(p, count, 10);
    *p++ = '\t';
    p = put_number(p, head, 10);
    for (size_t k = 0; k < TRUTH_EVENTS; k++) {
        *p++ = '\t';
        p = put_number(p, profile_weight(t->exact[k], pc, 0), 10);
    }
    *p++ = '\n';
    fwrite(row, 1, (size_t)(p - row), t->f);
}

/* The truth the samples are scored against, by program pc, into the epoch
 * as exact.tsv: executions, head cycles, I-cache and D-cache misses and
 * mispredictions each pc caused (the timing model's, the PMU's counts). */
static void write_truth(const dcpi_t *d, const symtab_t *symtab,
                        void (*for_each_head)(const void *src, dcpi_heads_fn fn, void *ctx),
                        const void *heads_src, FILE *out)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/exact.tsv", d->epoch);
    truth_file_t t = { fopen(path, "w"), symtab, { NULL } };
    for (size_t k = 0; k < TRUTH_EVENTS; k++) t.exact[k] = pmu_exact(d->pmu, truth_events[k]);
    if (!t.f) {
        fprintf(out, "exact.tsv: %s: cannot write\n", path);
        return;
    }
    fprintf(t.f, "pc\tsymbol\texecutions\thead_cycles\timiss\tdmiss\tbranchmp\n");
    for_each_head(heads_src, truth_row, &t);
    if (fclose(t.f) != 0) fprintf(out, "exact.tsv: %s: cannot write\n", path);
}

/* The timing model's heads, read once (its walk rebuilds their order each
 * time) and replayed, in that order, to the report's readers. */
typedef struct head_row {
    uint64_t pc, count, head;
} head_row_t;
typedef struct head_rows {
    head_row_t *v;
    size_t n, cap;
} head_rows_t;

static void keep_row(void *ctx, uint64_t pc, uint64_t count, uint64_t head)
{
    head_rows_t *r = ctx;
    if (r->n == r->cap) {
        r->cap = r->cap ? 2 * r->cap : 4096;
        r->v = xrealloc(r->v, r->cap * sizeof *r->v);
    }
    r->v[r->n++] = (head_row_t){ pc, count, head };
}

static void replay_rows(const void *src, dcpi_heads_fn fn, void *ctx)
{
    const head_rows_t *r = src;
    for (size_t k = 0; k < r->n; k++) fn(ctx, r->v[k].pc, r->v[k].count, r->v[k].head);
}

void dcpi_report(dcpi_t *d, FILE *out, const symtab_t *symtab,
                 void (*for_each_head)(const void *src, dcpi_heads_fn fn, void *ctx),
                 const void *heads_src, uint64_t cycles, uint64_t base_cycles, size_t top_n)
{
    head_rows_t rows = { NULL, 0, 0 };
    if (for_each_head) {
        for_each_head(heads_src, keep_row, &rows);
        for_each_head = replay_rows;
        heads_src = &rows;
    }
    fprintf(out, "==== hps-sim DCPI report ====\n");
    if (for_each_head) write_truth(d, symtab, for_each_head, heads_src, out);
    report_collection(d, out);
    const dcpi_event_t *cyc = monitored(d, PMU_CYCLES);
    if (cyc && for_each_head) {
        profile_t *exact_pc = profile_new(), *exact = profile_new(), *sampled = profile_new();
        for_each_head(heads_src, add_head, exact_pc);
        profile_by_function(exact_pc, symtab, exact);
        profile_by_function(d->pc_samples[PMU_CYCLES], symtab, sampled);
        profile_print_comparison(out, "DCPI cycles samples vs exact head cycles, by procedure",
                                 sampled, exact, top_n, 0.9, profile_format_function,
                                 (void *)symtab);
        d->acc_procedure = profile_accuracy(sampled, exact, 0.9, false);
        d->acc_instruction = profile_accuracy(d->pc_samples[PMU_CYCLES], exact_pc, 0.9, false);
        fprintf(out, "accuracy by instruction (top 90%% overlap): %.1f%%\n", d->acc_instruction);
        uint64_t samples = profile_total(d->pc_samples[PMU_CYCLES]);
        uint64_t program = profile_total(exact_pc);
        uint64_t shadow = pmu_shadow_cycles(d->pmu);
        double est = (double)samples * mean_period(cyc) + (double)shadow;
        d->estimate_error = program ? 100.0 * (est / (double)program - 1.0) : 0.0;
        fprintf(out, "estimated program cycles: %" PRIu64 " samples x mean period %.0f + %" PRIu64
                " uncounted after the handler's returns = %.0f; exact %" PRIu64 " (%+.2f%%), not "
                "counting the %" PRIu64 " of the interrupt handler\n", samples, mean_period(cyc),
                shadow, est, program, d->estimate_error, pmu_handler_cycles(d->pmu));
        profile_free(exact_pc);
        profile_free(exact);
        profile_free(sampled);
    }
    if (monitored(d, PMU_DMISS)) report_dmiss(d, out, symtab);
    if (d->pm)
        profileme_report(d->pm, out, symtab, for_each_head, heads_src, top_n);
    report_overhead(d, out, cycles, base_cycles);
    free(rows.v);
}

void dcpi_stats(const dcpi_t *d, stats_t *s)
{
    pmu_stats(d->pmu, s);
    const dcpi_state_t *st = &d->final_state;
    stats_add_u64(s, "dcpi.samples", st->interrupts, "Count", "Samples the driver counted");
    stats_add_u64(s, "dcpi.tableHits", st->hits, "Count",
                  "Samples whose (PID, PC, EVENT) entry was in the hash table");
    stats_add_u64(s, "dcpi.evictions", st->evictions, "Count",
                  "Entries evicted into an overflow buffer");
    stats_add_u64(s, "dcpi.bufferCopies", st->notifies, "Count",
                  "Full overflow buffers the daemon copied during the run");
    stats_add_u64(s, "dcpi.lostSamples", st->lost, "Count",
                  "Samples lost to a full overflow buffer");
    stats_add_u64(s, "dcpi.unknownImageSamples", d->unknown, "Count",
                  "Samples whose pc lay in no known image");
    if (d->acc_procedure >= 0) {
        stats_add_f64(s, "dcpi.accuracy::procedure", d->acc_procedure, "Percent",
                      "Top-90% overlap of cycles samples and exact head cycles by procedure");
        stats_add_f64(s, "dcpi.accuracy::instruction", d->acc_instruction, "Percent",
                      "Top-90% overlap of cycles samples and exact head cycles by instruction");
        stats_add_f64(s, "dcpi.estimateError", d->estimate_error, "Percent",
                      "Samples x mean period against the program's exact cycles");
    }
    if (d->acc_dmiss_procedure >= 0) {
        stats_add_f64(s, "dcpi.accuracy::dmissProcedure", d->acc_dmiss_procedure, "Percent",
                      "Top-90% overlap of dmiss samples and exact D-cache misses by procedure");
        stats_add_f64(s, "dcpi.accuracy::dmissInstruction", d->acc_dmiss_instruction, "Percent",
                      "Top-90% overlap of dmiss samples and exact D-cache misses by "
                      "instruction");
    }
    if (d->pm) profileme_stats(d->pm, s);
    if (d->overhead_ratio >= 0)
        stats_add_f64(s, "dcpi.overheadRatio", d->overhead_ratio, "Ratio",
                      "Cycles with DCPI / cycles of the same run without it");
}
