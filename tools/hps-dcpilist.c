/*
 * hps-dcpilist.c - DCPI's dcpilist (SOSP'97 section 3, Figure 3): one
 * procedure's annotated disassembly, each instruction with its CYCLES
 * samples, estimated execution count and CPI (from hps-dcpicalc's
 * analysis), under the source line it was compiled from when the program
 * has DWARF line tables (-g) and the source can be read.
 *
 *   hps-dcpilist [--config NAME] [--epoch N] DB PROC [IMAGE]
 *
 * --config: the model of the static schedules (default: the epoch's).
 * Bad arguments or files: one line on stderr, status 2.
 */
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "dcpicalc.h"
#include "disasm.h"
#include "loader.h"
#include "pmu.h"
#include "profdb.h"
#include "srcline.h"
#include "symtab.h"
#include "util.h"

#define die(...) die_bad_input("hps-dcpilist", __VA_ARGS__)

static uint64_t image_samples(void *ctx, int event, uint64_t addr)
{
    const profdb_image_t *im = ctx;
    return im->has[event] ? profdb_samples_at(&im->prof[event], addr) : 0;
}

typedef struct target {
    const profdb_image_t *im;
    symbol_t sym;
    char name[256];             /* sym.name, once the caller has its copy */
} target_t;

/* The procedure named proc in the database's images (or in image). */
static target_t find_target(const profdb_epoch_data_t *db, const char *proc, const char *image)
{
    target_t t = { 0 };
    for (size_t k = 0; k < db->n && !t.im; k++) {
        if (image && &db->v[k] != profdb_find_image(db, image)) continue;
        symtab_t *st = symtab_load(db->v[k].path);
        for (size_t s = 0; st && s < st->count && !t.im; s++)
            if (!strcmp(st->syms[s].name, proc)) {
                t.im = &db->v[k];
                t.sym = st->syms[s];
                snprintf(t.name, sizeof t.name, "%s", proc);
            }
        symtab_free(st);
    }
    if (!t.im) die("no procedure '%s' in the profiled images", proc);
    if (!t.im->has[PMU_CYCLES]) die("%s: no cycles samples", t.im->path);
    if (!t.im->prof[PMU_CYCLES].period_min) die("%s: cycles samples with mixed periods", t.im->path);
    return t;
}

/* A source line heading the instructions compiled from it. */
static void print_source(srcline_t *src, uint64_t pc, const char **last_file, int *last_line)
{
    const char *file;
    int line;
    if (!srcline_at(src, pc, &file, &line)) return;
    if (*last_file && !strcmp(*last_file, file) && *last_line == line) return;
    const char *text = srcline_text(src, file, line);
    const char *base = strrchr(file, '/');
    printf("%s:%d:%s%s\n", base ? base + 1 : file, line, text ? "  " : "", text ? text : "");
    *last_file = file;
    *last_line = line;
}

static void list(const dcpicalc_t *dc, const target_t *t, const isa_t *isa, double period)
{
    srcline_t *src = srcline_open(t->im->path);
    disasm_t *dis = disasm_new(isa);
    const char *last_file = NULL;
    int last_line = 0;
    printf("*** %s in %s%s\n", t->sym.name, t->im->path,
           src ? "" : " (no DWARF line tables: built without -g)");
    printf("%9s %11s %7s  %-8s %s\n", "samples", "executions", "CPI", "address", "instruction");
    for (size_t k = 0; k < dc->cfg.ninsns; k++) {
        const insn_t *in = &dc->cfg.insns[k];
        const dcpicalc_insn_t *x = &dc->insn[k];
        uint8_t bytes[4] = { 0 };
        char text[96] = "?";
        size_t avail = symtab_read_code(t->im->path, in->pc, bytes, in->len);
        if (avail) disasm_insn(dis, in->pc, bytes, avail, text, sizeof text);
        if (src) print_source(src, in->pc, &last_file, &last_line);
        printf("%9" PRIu64, x->samples);
        if (x->freq >= 0) printf(" %11.0f", x->freq * period);
        else printf(" %11s", "-");
        if (x->cpi >= 0) printf(" %7.2f", x->cpi);
        else printf(" %7s", "-");
        printf("  %8" PRIx64 " %s\n", in->pc, text);
    }
    disasm_free(dis);
    srcline_close(src);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "config", required_argument, NULL, 'c' }, { "epoch", required_argument, NULL, 'e' },
        { "help", no_argument, NULL, 'h' }, { NULL, 0, NULL, 0 }
    };
    const char *usage = "usage: hps-dcpilist [--config NAME] [--epoch N] DB PROC [IMAGE]\n";
    const char *model = NULL;
    unsigned long epoch = 0;
    char err[512], *end;
    int ch;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (ch) {
        case 'c': model = optarg; break;
        case 'e':
            epoch = strtoul(optarg, &end, 10);
            if (*end || !epoch) die("--epoch: expected an epoch number, got '%s'", optarg);
            break;
        case 'h': fputs(usage, stdout); return 0;
        default: fputs(usage, stderr); die("bad option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind < 2) { fputs(usage, stderr); die("expected a database and a procedure"); }
    static profdb_epoch_data_t db;       /* static: reachable when die() exits */
    if (!profdb_load(argv[optind], (unsigned)epoch, &db, err, sizeof err)) die("%s", err);
    char machine_file[4200];
    snprintf(machine_file, sizeof machine_file, "%s/config", db.dir);
    if (!model) model = access(machine_file, R_OK) == 0 ? machine_file : "ev5";
    config_t cfg;
    config_defaults(&cfg);
    if (!config_load(&cfg, model, err, sizeof err)) die("%s", err);
    target_t t = find_target(&db, argv[optind + 1], argc - optind > 2 ? argv[optind + 2] : NULL);
    t.sym.name = t.name;                  /* the copy's own name, not the callee's frame's */
    int machine = 0;
    if (!loader_probe(t.im->path, &machine, err, sizeof err)) die("%s", err);
    const isa_t *isa = machine == isa_alpha.elf_machine ? &isa_alpha : &isa_rv64;
    size_t size = t.sym.size ? (size_t)t.sym.size : 4096;
    uint8_t *code = xcalloc(size, 1);
    size = symtab_read_code(t.im->path, t.sym.addr, code, size);
    double periods[PROFDB_EVENTS];
    uint32_t collected = profdb_image_events(t.im, periods);
    dcpicalc_t dc;
    cfg_image_t image = dcpicalc_file_image(t.im->path);
    if (!dcpicalc_run_events(&dc, &cfg, isa, code, t.sym.addr, size, image_samples,
                             (void *)t.im, collected, periods, &image, err, sizeof err))
        die("%s: %s", t.sym.name, err);
    const profdb_file_t *cyc = &t.im->prof[PMU_CYCLES];
    list(&dc, &t, isa, ((double)cyc->period_min + (double)cyc->period_max) / 2.0);
    dcpicalc_free(&dc);
    free(code);
    profdb_unload(&db);
    return 0;
}
