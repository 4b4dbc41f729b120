/*
 * hps-dcpidiff.c - two profiles side by side, the way DCPI's dcpidiff
 * highlighted "the differences in two separate profiles for the same
 * program" (SOSP'97 section 3): per procedure (or, with -i, per
 * instruction), each side's samples and share of its own total, ranked by
 * how much the share changed (B% - A%), so that two runs with different
 * numbers of samples compare.
 *
 *   hps-dcpidiff [--event E] [-i] [-n N] A B
 *   A, B           DB (its newest epoch) or DB/epoch-NNNN
 *   -i             per instruction (both sides must hold the same builds
 *                  of their images; per procedure, builds may differ)
 *
 * Bad arguments or profiles: one line on stderr, status 2.
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
#include "symtab.h"
#include "util.h"


#define die(...) die_bad_input("hps-dcpidiff", __VA_ARGS__)

/* One procedure or instruction on both sides. */
typedef struct diff_row {
    char *label;                /* procedure, or procedure+0xOFF */
    const char *image_base;
    uint64_t address;           /* the instruction's (per instruction) */
    uint64_t count[2];
    double delta;               /* B% - A% */
} diff_row_t;

typedef struct side {
    profdb_epoch_data_t db;
    uint64_t total;
} side_t;

static diff_row_t *g_rows;
static size_t g_n_rows;

static diff_row_t *row_of(const char *label, const char *image_base, uint64_t address)
{
    for (size_t k = 0; k < g_n_rows; k++)
        if (g_rows[k].address == address && !strcmp(g_rows[k].label, label) &&
            !strcmp(g_rows[k].image_base, image_base))
            return &g_rows[k];
    g_rows = xrealloc(g_rows, (g_n_rows + 1) * sizeof *g_rows);
    diff_row_t *r = &g_rows[g_n_rows++];
    memset(r, 0, sizeof *r);
    r->label = xstrdup(label);
    r->image_base = image_base;
    r->address = address;
    return r;
}

static void by_procedure(side_t *sides, int event)
{
    for (int s = 0; s < 2; s++) {
        profview_procs_t procs;
        profview_procs(&sides[s].db, NULL, NULL, &procs);
        for (size_t k = 0; k < procs.n; k++) {
            const profview_proc_t *p = &procs.v[k];
            if (p->count[event])
                row_of(p->name, profview_basename(p->image), 0)->count[s] += p->count[event];
        }
        profview_procs_free(&procs);
    }
}

static void by_instruction(side_t *sides, int event)
{
    for (int s = 0; s < 2; s++) {
        const profdb_epoch_data_t *db = &sides[s].db;
        for (size_t i = 0; i < db->n; i++) {
            const profdb_image_t *im = &db->v[i];
            if (!im->has[event]) continue;
            symtab_t *st = symtab_load(im->path);
            for (size_t r = 0; r < im->prof[event].n; r++) {
                const profdb_record_t *rec = &im->prof[event].rec[r];
                char label[512];
                symtab_format(st, rec->offset, label, sizeof label);
                row_of(label, profview_basename(im->path), rec->offset)->count[s] += rec->count;
            }
            symtab_free(st);
        }
    }
}

static int by_change(const void *a, const void *b)
{
    const diff_row_t *x = a, *y = b;
    if (fabs(x->delta) != fabs(y->delta)) return fabs(x->delta) < fabs(y->delta) ? 1 : -1;
    if (x->address != y->address) return x->address < y->address ? -1 : 1;
    int c = strcmp(x->label, y->label);
    return c ? c : strcmp(x->image_base, y->image_base);
}

static void print_diff(const side_t *sides, int event, bool per_insn, size_t limit)
{
    for (int s = 0; s < 2; s++) {
        printf("Profile %c: %s, %" PRIu64 " %s samples\n", 'A' + s, sides[s].db.dir,
               sides[s].total, pmu_event_names[event]);
    }
    printf("\nEach side's samples and their share of its total; rows ranked by the change "
           "of the share, |B%% - A%%|.\n\n");
    for (size_t k = 0; k < g_n_rows; k++)
        g_rows[k].delta = 100.0 * (double)g_rows[k].count[1] / (double)sides[1].total -
                          100.0 * (double)g_rows[k].count[0] / (double)sides[0].total;
    qsort(g_rows, g_n_rows, sizeof *g_rows, by_change);
    printf("%10s %7s %10s %7s %8s  %s%s  image\n", "A", "A%", "B", "B%", "B%-A%",
           per_insn ? "address   " : "", per_insn ? "instruction" : "procedure");
    for (size_t k = 0; k < g_n_rows && (!limit || k < limit); k++) {
        const diff_row_t *r = &g_rows[k];
        printf("%10" PRIu64 " %6.2f%% %10" PRIu64 " %6.2f%% %+7.2f%%  ", r->count[0],
               100.0 * (double)r->count[0] / (double)sides[0].total, r->count[1],
               100.0 * (double)r->count[1] / (double)sides[1].total, r->delta);
        if (per_insn) printf("%08" PRIx64 "  ", r->address);
        printf("%s  %s\n", r->label, r->image_base);
    }
}

static void usage(FILE *out)
{
    fprintf(out, "usage: hps-dcpidiff [--event E] [-i] [-n N] A B\n"
                 "  A, B        profile databases (their newest epoch) or DB/epoch-NNNN\n"
                 "  --event E   the event (default cycles)\n"
                 "  -i          per instruction (default: per procedure)\n"
                 "  -n N        the first N rows only\n");
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "event", required_argument, NULL, 'v' }, { "help", no_argument, NULL, 'h' },
        { NULL, 0, NULL, 0 }
    };
    const char *event_arg = "cycles";
    bool per_insn = false;
    unsigned long limit = 0;
    int ch;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "in:", opts, NULL)) != -1) {
        switch (ch) {
        case 'v': event_arg = optarg; break;
        case 'i': per_insn = true; break;
        case 'n': {
            char *end;
            limit = strtoul(optarg, &end, 10);
            if (!*optarg || *end || *optarg == '-') die("-n: expected a number, got '%s'", optarg);
            break;
        }
        case 'h': usage(stdout); return 0;
        default: usage(stderr); die("bad option '%s'", argv[optind - 1]);
        }
    }
    int event = pmu_event_by_name(event_arg);
    if (event < 0) die("--event: unknown event '%s'", event_arg);
    if (argc - optind != 2) { usage(stderr); die("expected two profiles, got %d", argc - optind); }
    static side_t sides[2];     /* static: still reachable when die() exits */
    char err[9000];
    for (int s = 0; s < 2; s++) {
        if (!profview_load(argv[optind + s], 0, &sides[s].db, err, sizeof err)) die("%s", err);
        for (size_t i = 0; i < sides[s].db.n; i++)
            if (sides[s].db.v[i].has[event]) sides[s].total += sides[s].db.v[i].prof[event].total;
        if (!sides[s].total) die("%s: no %s samples", sides[s].db.dir, pmu_event_names[event]);
    }
    if (per_insn && !profview_same_builds(&sides[0].db, "A", &sides[1].db, "B", err, sizeof err))
        die("%s; instructions compare only within one build (compare per procedure without -i)", err);
    if (per_insn) by_instruction(sides, event);
    else by_procedure(sides, event);
    print_diff(sides, event, per_insn, limit);
    for (size_t k = 0; k < g_n_rows; k++) free(g_rows[k].label);
    free(g_rows);
    for (int s = 0; s < 2; s++) profdb_unload(&sides[s].db);
    return 0;
}
