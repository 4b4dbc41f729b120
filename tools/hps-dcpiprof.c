/*
 * hps-dcpiprof.c - read a DCPI profile database (hps-sim --dcpi DB) the
 * way dcpiprof and dcpilist did (SOSP'97 Figures 2 and 3):
 *
 *   hps-dcpiprof DB                 samples per image, every event (DB may
 *                                   also be one epoch, DB/epoch-NNNN)
 *   hps-dcpiprof -p DB [IMAGE...]   per procedure, for every image or the
 *                                   named ones (basename or path)
 *   hps-dcpiprof -l PROC DB [IMAGE] the procedure's instructions with their
 *                                   samples per event and disassembly
 *   hps-dcpiprof --export FMT -o FILE [--per procedure] DB [IMAGE...]
 *                                   the samples written for other tools:
 *                                   callgrind, pprof (gzip profile.proto)
 *                                   or folded stacks (of the --event,
 *                                   also pprof's default)
 *   --epoch N      read epoch N instead of the newest
 *   --event E      sort by event E (default: the first column, cycles if
 *                  present)
 *
 * Procedures come from each image's own ELF symbol table, instructions
 * from its file, so the database and the images it names are all it
 * reads.  Bad arguments or a bad database: one line on stderr, status 2.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disasm.h"
#include "loader.h"
#include "pmu.h"
#include "export.h"
#include "profdb.h"
#include "profview.h"
#include "symtab.h"
#include "util.h"


#define die(...) die_bad_input("hps-dcpiprof", __VA_ARGS__)

typedef profdb_image_t db_image_t;
typedef profdb_epoch_data_t db_t;

static uint64_t image_total(const db_image_t *im, int e) { return im->has[e] ? im->prof[e].total : 0; }

static uint64_t db_total(const db_t *db, int e)
{
    uint64_t t = 0;
    for (size_t k = 0; k < db->n; k++) t += image_total(&db->v[k], e);
    return t;
}

static void print_columns(const db_t *db)
{
    printf("Column     Total  Period (for events)\n------     -----  ------\n");
    for (int e = 0; e < PMU_EVENT_COUNT; e++) {
        if (!db->events[e]) continue;
        uint64_t lo = 0, hi = 0;
        bool mixed = false, seen = false;
        for (size_t k = 0; k < db->n; k++) {
            const profdb_file_t *p = &db->v[k].prof[e];
            if (!db->v[k].has[e]) continue;
            if (seen && (p->period_min != lo || p->period_max != hi)) mixed = true;
            lo = p->period_min;
            hi = p->period_max;
            seen = true;
        }
        if (lo && !mixed) printf("%-8s %7" PRIu64 "  %" PRIu64 "-%" PRIu64 "\n", pmu_event_names[e],
                       db_total(db, e), lo, hi);
        else printf("%-8s %7" PRIu64 "  (mixed)\n", pmu_event_names[e], db_total(db, e));
    }
    printf("\nThe numbers below are samples of each event; %% is the share of the "
           "event's total.\n\n");
}

/* One row of counts: "samples %" per event, cum% after the sort event. */
typedef struct row {
    const char *name, *image;
    uint64_t count[PMU_EVENT_COUNT];
} row_t;

static int g_sort;                      /* the event rows are sorted by */

static int by_count(const void *a, const void *b)
{
    const row_t *x = a, *y = b;
    if (x->count[g_sort] != y->count[g_sort]) return x->count[g_sort] < y->count[g_sort] ? 1 : -1;
    return strcmp(x->name, y->name);
}

static void print_rows(const db_t *db, row_t *rows, size_t n, const char *what)
{
    qsort(rows, n, sizeof *rows, by_count);
    for (int e = 0; e < PMU_EVENT_COUNT; e++)
        if (db->events[e]) printf("%9s %6s %s", pmu_event_names[e], "%", e == g_sort ? "  cum% " : "");
    printf(" %s\n", what);
    double cum = 0;
    for (size_t k = 0; k < n; k++) {
        for (int e = 0; e < PMU_EVENT_COUNT; e++) {
            if (!db->events[e]) continue;
            uint64_t t = db_total(db, e);
            double pct = t ? 100.0 * (double)rows[k].count[e] / (double)t : 0;
            printf("%9" PRIu64 " %6.2f ", rows[k].count[e], pct);
            if (e == g_sort) printf("%6.2f ", cum += pct);
        }
        printf(" %s%s%s\n", rows[k].name, rows[k].image ? "  " : "",
               rows[k].image ? rows[k].image : "");
    }
}

static void by_image(const db_t *db)
{
    row_t *rows = xcalloc(db->n ? db->n : 1, sizeof *rows);
    for (size_t k = 0; k < db->n; k++) {
        rows[k].name = db->v[k].path;
        for (int e = 0; e < PMU_EVENT_COUNT; e++) rows[k].count[e] = image_total(&db->v[k], e);
    }
    print_rows(db, rows, db->n, "image");
    free(rows);
}

static bool selected(const db_image_t *im, char **names, int nnames)
{
    if (!nnames) return true;
    const char *base = strrchr(im->path, '/');
    base = base ? base + 1 : im->path;
    for (int k = 0; k < nnames; k++)
        if (!strcmp(names[k], im->path) || !strcmp(names[k], base)) return true;
    return false;
}

/* Per procedure: samples summed over each function of the image's ELF. */
static void by_procedure(const db_t *db, char **names, int nnames)
{
    row_t *rows = NULL;
    size_t n = 0;
    symtab_t **tabs = xcalloc(db->n ? db->n : 1, sizeof *tabs);
    for (size_t i = 0; i < db->n; i++) {
        const db_image_t *im = &db->v[i];
        if (!selected(im, names, nnames)) continue;
        tabs[i] = symtab_load(im->path);
        for (int e = 0; e < PMU_EVENT_COUNT; e++) {
            for (size_t r = 0; im->has[e] && r < im->prof[e].n; r++) {
                const profdb_record_t *rec = &im->prof[e].rec[r];
                const symbol_t *s = symtab_lookup(tabs[i], rec->offset);
                const char *name = s ? s->name : "(unknown)";
                size_t k = 0;
                while (k < n && !(rows[k].image == im->path && !strcmp(rows[k].name, name))) k++;
                if (k == n) {
                    rows = xrealloc(rows, (n + 1) * sizeof *rows);
                    memset(&rows[n], 0, sizeof rows[n]);
                    rows[n].name = name;
                    rows[n].image = im->path;
                    n++;
                }
                rows[k].count[e] += rec->count;
            }
        }
    }
    print_rows(db, rows, n, "procedure  image");
    free(rows);
    for (size_t i = 0; i < db->n; i++) symtab_free(tabs[i]);
    free(tabs);
}

/* ---- instruction listing ------------------------------------------------------- */

static void list_procedure(const db_t *db, const db_image_t *im, const symbol_t *s)
{
    int machine = 0;
    char err[512];
    if (!loader_probe(im->path, &machine, err, sizeof err)) die("%s", err);
    const isa_t *isa = machine == isa_alpha.elf_machine ? &isa_alpha : &isa_rv64;
    disasm_t *dis = disasm_new(isa);
    printf("%s (%s), %" PRIu64 " bytes\n", s->name, im->path, s->size);
    for (int e = 0; e < PMU_EVENT_COUNT; e++)
        if (db->events[e]) printf("%9s ", pmu_event_names[e]);
    printf(" address   instruction\n");
    uint64_t end = s->addr + (s->size ? s->size : 4);
    for (uint64_t pc = s->addr; pc < end;) {
        uint8_t bytes[4] = { 0 };
        char text[128] = "?";
        size_t avail = symtab_read_code(im->path, pc, bytes, sizeof bytes);
        int len = avail ? disasm_insn(dis, pc, bytes, avail, text, sizeof text) : 0;
        if (len <= 0) len = isa->insn_align;
        for (int e = 0; e < PMU_EVENT_COUNT; e++) {
            if (!db->events[e]) continue;
            uint64_t n = im->has[e] ? profdb_samples_at(&im->prof[e], pc) : 0;
            if (n) printf("%9" PRIu64 " ", n);
            else printf("%9s ", "");
        }
        printf(" %08" PRIx64 "  %s\n", pc, text);
        pc += (uint64_t)len;
    }
    disasm_free(dis);
}

static void list(const db_t *db, const char *proc, char **names, int nnames)
{
    bool found = false;
    for (size_t i = 0; i < db->n; i++) {
        const db_image_t *im = &db->v[i];
        if (!selected(im, names, nnames)) continue;
        static symtab_t *st;    /* static: still reachable when die() exits */
        st = symtab_load(im->path);
        for (size_t k = 0; st && k < st->count; k++) {
            if (strcmp(st->syms[k].name, proc)) continue;
            list_procedure(db, im, &st->syms[k]);
            found = true;
        }
        symtab_free(st);
    }
    if (!found) die("no procedure '%s' in the profiled images", proc);
}

/* ---- export (include/export.h) ------------------------------------------------------ */

typedef struct image_names {
    char **names;
    int n;
} image_names_t;

static bool image_selected(void *ctx, const profdb_image_t *im)
{
    const image_names_t *s = ctx;
    return selected(im, s->names, s->n);
}

/* One-frame stacks per instruction (or procedure) of the selected images,
 * written as fmt; folded stacks carry the sort event, which is also pprof's
 * default sample type. */
static void export_db(const db_t *db, export_format_t fmt, bool per_instruction,
                      const char *out, char **names, int nnames)
{
    for (int k = 0; k < nnames; k++)
        if (!profdb_find_image(db, names[k])) die("no image '%s' in %s", names[k], db->dir);
    char err[4400];
    int events[PROFDB_EVENTS];
    size_t n_events = 0, folded = 0;
    image_names_t sel = { names, nnames };
    export_profile_t *x = profview_export(db, per_instruction, image_selected, &sel, events,
                                          &n_events, err, sizeof err);
    if (!x) die("%s", err);
    for (size_t k = 0; k < n_events; k++)
        if (events[k] == g_sort) folded = k;
    bool ok = export_write(x, fmt, folded, out, err, sizeof err);
    export_free(x);
    if (!ok) die("%s", err);
}

/* ---- main ------------------------------------------------------------------------ */

static void usage(FILE *out)
{
    fprintf(out, "usage: hps-dcpiprof [-p | -l PROC] [--epoch N] [--event E] DB [IMAGE...]\n"
                 "       hps-dcpiprof --export FORMAT -o FILE [--per instruction|procedure]\n"
                 "                    [--epoch N] [--event E] DB [IMAGE...]\n"
                 "  (no option)  samples per image\n"
                 "  -p           samples per procedure\n"
                 "  -l PROC      the procedure's instructions with their samples\n"
                 "  --export F   write the samples as callgrind, pprof or folded to -o FILE\n"
                 "  --per P      export one entry per instruction (default) or procedure\n"
                 "  --epoch N    epoch N of the database (default: the newest)\n"
                 "  --event E    sort by event E (cycles, insts, imiss, dmiss, branchmp);\n"
                 "               the value of folded stacks, pprof's default sample type\n");
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "epoch", required_argument, NULL, 'e' }, { "event", required_argument, NULL, 'v' },
        { "export", required_argument, NULL, 'x' }, { "per", required_argument, NULL, 'P' },
        { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 }
    };
    bool procs = false;
    const char *proc = NULL, *epoch_arg = NULL, *event_arg = NULL;
    const char *export_arg = NULL, *out_arg = NULL, *per_arg = NULL;
    int ch;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "pl:o:", opts, NULL)) != -1) {
        switch (ch) {
        case 'p': procs = true; break;
        case 'l': proc = optarg; break;
        case 'e': epoch_arg = optarg; break;
        case 'v': event_arg = optarg; break;
        case 'x': export_arg = optarg; break;
        case 'o': out_arg = optarg; break;
        case 'P': per_arg = optarg; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); die("bad option '%s'", argv[optind - 1]);
        }
    }
    export_format_t fmt = EXPORT_CALLGRIND;
    if (export_arg && !export_format_by_name(export_arg, &fmt))
        die("--export: unknown format '%s' (expected callgrind, pprof or folded)", export_arg);
    if (export_arg && !out_arg) die("--export %s needs -o FILE", export_arg);
    if (!export_arg && (out_arg || per_arg)) die("%s is for --export", out_arg ? "-o" : "--per");
    if (export_arg && (procs || proc)) die("--export does not combine with %s", procs ? "-p" : "-l");
    if (per_arg && strcmp(per_arg, "instruction") && strcmp(per_arg, "procedure"))
        die("--per: expected instruction or procedure, got '%s'", per_arg);
    if (optind >= argc) { usage(stderr); die("no database given"); }
    const char *dbdir = argv[optind];
    char err[512];
    unsigned long epoch_n = 0;
    if (epoch_arg) {
        char *end;
        epoch_n = strtoul(epoch_arg, &end, 10);
        if (*end || !epoch_n) die("--epoch: expected an epoch number, got '%s'", epoch_arg);
    }
    static db_t db;             /* static: still reachable when die() exits */
    if (!profview_load(dbdir, (unsigned)epoch_n, &db, err, sizeof err)) die("%s", err);
    const char *epoch = db.dir;
    g_sort = -1;
    if (event_arg && (g_sort = pmu_event_by_name(event_arg)) < 0)
        die("--event: unknown event '%s'", event_arg);
    for (int e = 0; g_sort < 0 && e < PMU_EVENT_COUNT; e++)
        if (db.events[e]) g_sort = e;
    if (g_sort < 0) die("%s: no profiles", epoch);
    if (!db.events[g_sort]) die("--event %s: no samples of it in %s", event_arg, epoch);
    if (export_arg) {
        export_db(&db, fmt, !per_arg || !strcmp(per_arg, "instruction"), out_arg,
                  argv + optind + 1, argc - optind - 1);
        profdb_unload(&db);
        return 0;
    }
    printf("Profile database %s\n\n", epoch);
    if (proc) {
        list(&db, proc, argv + optind + 1, argc - optind - 1);
    } else {
        print_columns(&db);
        if (procs) by_procedure(&db, argv + optind + 1, argc - optind - 1);
        else by_image(&db);
    }
    profdb_unload(&db);
    return 0;
}
