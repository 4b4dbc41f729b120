/*
 * hps-dcpistats.c - how much a profile varies from run to run, the way
 * DCPI's dcpistats showed it (SOSP'97 section 3.3, Figure 3): several
 * sample sets (profile databases or epochs of the same program, e.g. runs
 * with different seeds), and per procedure the sum, mean, standard
 * deviation, min and max of its samples over the sets, sorted by the
 * normalized range (max - min) / sum.
 *
 *   hps-dcpistats [--event E] [--sort range|stddev|samples] [-n N]
 *                 [--epochs] SET SET...
 *   SET            DB (its newest epoch) or DB/epoch-NNNN
 *   --epochs       every epoch of each DB is a set
 *
 * A procedure without samples in a set counts 0 there; N is the number of
 * sets with samples of it.  The standard deviation is the sample one (n - 1
 * in the denominator).  Sets must hold the same builds of their images and
 * the same sampling period range of the event.  Bad arguments or sets: one
 * line on stderr, status 2.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu.h"
#include "profdb.h"
#include "profview.h"
#include "util.h"


#define die(...) die_bad_input("hps-dcpistats", __VA_ARGS__)

typedef struct sample_set {
    char name[4200];            /* the epoch directory */
    profdb_epoch_data_t db;
    profview_procs_t procs;
    uint64_t total;             /* samples of the event */
} sample_set_t;

/* One procedure over the sets. */
typedef struct proc_stats {
    const char *name, *image, *image_base;
    uint64_t *count;            /* per set */
    uint64_t sum, min, max;
    unsigned present;
    double mean, stddev, range;
} proc_stats_t;

typedef enum { SORT_RANGE, SORT_STDDEV, SORT_SAMPLES } sort_key_t;
static sort_key_t g_sort_key;

/* ---- the sets --------------------------------------------------------------------------- */

static sample_set_t *g_sets;
static size_t g_n_sets;

static void add_set(const char *arg, unsigned epoch)
{
    g_sets = xrealloc(g_sets, (g_n_sets + 1) * sizeof *g_sets);
    sample_set_t *s = &g_sets[g_n_sets];
    memset(s, 0, sizeof *s);
    char err[4400];
    if (!profview_load(arg, epoch, &s->db, err, sizeof err)) die("%s", err);
    snprintf(s->name, sizeof s->name, "%s", s->db.dir);
    g_n_sets++;
}

static void add_all_epochs(const char *db)
{
    unsigned *epochs;
    size_t n;
    char err[4400];
    if (!profview_epochs(db, &epochs, &n, err, sizeof err)) die("%s", err);
    for (size_t k = 0; k < n; k++) add_set(db, epochs[k]);
    free(epochs);
}

static bool shares_an_image(const profdb_epoch_data_t *a, const profdb_epoch_data_t *b)
{
    for (size_t i = 0; i < a->n; i++)
        if (profdb_find_image(b, profview_basename(a->v[i].path))) return true;
    return false;
}

/* The event in every set, with one period range; builds that match. */
static void check_sets(int event)
{
    uint64_t lo = 0, hi = 0;
    size_t lo_set = 0;
    for (size_t k = 0; k < g_n_sets; k++) {
        sample_set_t *s = &g_sets[k];
        if (!s->db.events[event])
            die("set %zu (%s): no %s samples", k + 1, s->name, pmu_event_names[event]);
        for (size_t i = 0; i < s->db.n; i++) {
            const profdb_file_t *f = &s->db.v[i].prof[event];
            if (!s->db.v[i].has[event]) continue;
            s->total += f->total;
            if (!f->period_min) continue;           /* merged from mixed ranges */
            if (!lo) { lo = f->period_min; hi = f->period_max; lo_set = k; }
            else if (f->period_min != lo || f->period_max != hi)
                die("set %zu (%s) sampled %s every %" PRIu64 "-%" PRIu64 " events, set %zu every %"
                    PRIu64 "-%" PRIu64 ": their sample counts do not compare", k + 1, s->name,
                    pmu_event_names[event], f->period_min, f->period_max, lo_set + 1, lo, hi);
        }
        if (k && !shares_an_image(&g_sets[0].db, &s->db))
            die("set %zu (%s) shares no image with set 1 (%s): not runs of one program", k + 1,
                s->name, g_sets[0].name);
        char err[9000];
        for (size_t j = 0; j < k; j++)
            if (!profview_same_builds(&g_sets[j].db, g_sets[j].name, &s->db, s->name, err, sizeof err))
                die("%s", err);
    }
}

/* ---- the statistics ------------------------------------------------------------------------- */

static proc_stats_t *g_rows;
static size_t g_n_rows;

static proc_stats_t *row_of(const profview_proc_t *p)
{
    const char *base = profview_basename(p->image);
    for (size_t k = 0; k < g_n_rows; k++)
        if (!strcmp(g_rows[k].name, p->name) && !strcmp(g_rows[k].image_base, base))
            return &g_rows[k];
    g_rows = xrealloc(g_rows, (g_n_rows + 1) * sizeof *g_rows);
    proc_stats_t *r = &g_rows[g_n_rows++];
    memset(r, 0, sizeof *r);
    r->name = p->name;
    r->image = p->image;
    r->image_base = base;
    r->count = xcalloc(g_n_sets, sizeof *r->count);
    return r;
}

static void summarize(proc_stats_t *r)
{
    r->min = UINT64_MAX;
    for (size_t k = 0; k < g_n_sets; k++) {
        uint64_t c = r->count[k];
        r->sum += c;
        r->present += c != 0;
        if (c < r->min) r->min = c;
        if (c > r->max) r->max = c;
    }
    r->mean = (double)r->sum / (double)g_n_sets;
    double ss = 0;
    for (size_t k = 0; k < g_n_sets; k++) ss += ((double)r->count[k] - r->mean) * ((double)r->count[k] - r->mean);
    r->stddev = sqrt(ss / (double)(g_n_sets - 1));
    r->range = r->sum ? (double)(r->max - r->min) / (double)r->sum : 0;
}

static void collect(int event)
{
    for (size_t k = 0; k < g_n_sets; k++) {
        profview_procs(&g_sets[k].db, NULL, NULL, &g_sets[k].procs);
        for (size_t i = 0; i < g_sets[k].procs.n; i++) {
            const profview_proc_t *p = &g_sets[k].procs.v[i];
            if (p->count[event]) row_of(p)->count[k] += p->count[event];
        }
    }
    for (size_t k = 0; k < g_n_rows; k++) summarize(&g_rows[k]);
}

static int by_sort_key(const void *a, const void *b)
{
    const proc_stats_t *x = a, *y = b;
    double kx = g_sort_key == SORT_RANGE ? x->range : g_sort_key == SORT_STDDEV ? x->stddev : (double)x->sum;
    double ky = g_sort_key == SORT_RANGE ? y->range : g_sort_key == SORT_STDDEV ? y->stddev : (double)y->sum;
    if (kx != ky) return kx < ky ? 1 : -1;
    if (x->sum != y->sum) return x->sum < y->sum ? 1 : -1;
    int c = strcmp(x->name, y->name);
    return c ? c : strcmp(x->image_base, y->image_base);
}

/* ---- the report ------------------------------------------------------------------------------- */

static void print_report(int event, size_t limit)
{
    uint64_t total = 0;
    printf("Number of samples of type %s\n", pmu_event_names[event]);
    for (size_t k = 0; k < g_n_sets; k++) {
        printf("set %zu = %" PRIu64 "  %s\n", k + 1, g_sets[k].total, g_sets[k].name);
        total += g_sets[k].total;
    }
    printf("TOTAL %" PRIu64 "\n\n", total);
    printf("Statistics calculated using the sample counts for each procedure from %zu different "
           "sample set(s), sorted by %s\n\n", g_n_sets,
           g_sort_key == SORT_RANGE ? "range% = (max - min) / sum" :
           g_sort_key == SORT_STDDEV ? "std-dev" : "sum");
    printf("%8s %10s %7s %4s %12s %11s %10s %10s  %s\n", "range%", "sum", "sum%", "N", "mean",
           "std-dev", "min", "max", "procedure  image");
    qsort(g_rows, g_n_rows, sizeof *g_rows, by_sort_key);
    for (size_t k = 0; k < g_n_rows && (!limit || k < limit); k++) {
        const proc_stats_t *r = &g_rows[k];
        printf("%7.2f%% %10" PRIu64 " %6.2f%% %4u %12.2f %11.2f %10" PRIu64 " %10" PRIu64 "  %s  %s\n",
               100.0 * r->range, r->sum, total ? 100.0 * (double)r->sum / (double)total : 0,
               r->present, r->mean, r->stddev, r->min, r->max, r->name, r->image_base);
    }
}

/* ---- main --------------------------------------------------------------------------------------- */

static void usage(FILE *out)
{
    fprintf(out, "usage: hps-dcpistats [--event E] [--sort range|stddev|samples] [-n N] [--epochs]\n"
                 "                     SET SET...\n"
                 "  SET          a profile database (its newest epoch) or DB/epoch-NNNN\n"
                 "  --epochs     every epoch of each database is a set\n"
                 "  --event E    the event (default cycles)\n"
                 "  --sort K     range (normalized range, the default), stddev or samples\n"
                 "  -n N         the first N procedures only\n");
}

static unsigned long parse_count(const char *opt, const char *s)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || *s == '-') die("%s: expected a number, got '%s'", opt, s);
    return v;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "event", required_argument, NULL, 'v' }, { "sort", required_argument, NULL, 's' },
        { "epochs", no_argument, NULL, 'E' }, { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    const char *event_arg = "cycles";
    bool all_epochs = false;
    unsigned long limit = 0;
    int ch;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "n:", opts, NULL)) != -1) {
        switch (ch) {
        case 'v': event_arg = optarg; break;
        case 's':
            if (!strcmp(optarg, "range")) g_sort_key = SORT_RANGE;
            else if (!strcmp(optarg, "stddev")) g_sort_key = SORT_STDDEV;
            else if (!strcmp(optarg, "samples")) g_sort_key = SORT_SAMPLES;
            else die("--sort: expected range, stddev or samples, got '%s'", optarg);
            break;
        case 'E': all_epochs = true; break;
        case 'n': limit = parse_count("-n", optarg); break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); die("bad option '%s'", argv[optind - 1]);
        }
    }
    int event = pmu_event_by_name(event_arg);
    if (event < 0) die("--event: unknown event '%s'", event_arg);
    if (optind >= argc) { usage(stderr); die("no sample sets given"); }
    for (int k = optind; k < argc; k++) {
        if (all_epochs) add_all_epochs(argv[k]);
        else add_set(argv[k], 0);
    }
    if (g_n_sets < 2) die("%zu sample set: statistics need at least two (give more, or --epochs)", g_n_sets);
    check_sets(event);
    collect(event);
    print_report(event, limit);
    for (size_t k = 0; k < g_n_rows; k++) free(g_rows[k].count);
    free(g_rows);
    for (size_t k = 0; k < g_n_sets; k++) {
        profview_procs_free(&g_sets[k].procs);
        profdb_unload(&g_sets[k].db);
    }
    free(g_sets);
    return 0;
}
