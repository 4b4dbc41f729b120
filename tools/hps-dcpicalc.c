/*
 * hps-dcpicalc.c - DCPI's instruction-level analysis of one procedure
 * (dcpicalc, SOSP'97 Figure 2 and section 6): from the CYCLES (and IMISS)
 * samples in a profile database, each basic block's execution count and
 * its confidence, each instruction's CPI against its static schedule, and
 * the culprits that may explain its dynamic stalls.
 *
 *   hps-dcpicalc [--config NAME] [--epoch N] [--truth FILE] DB PROC [IMAGE]
 *
 * --config is the model the static schedules come from: by default the one
 * the samples were collected on, which hps-sim writes into the epoch
 * (`config`).  --truth FILE is the ground-truth file of
 * the same run (hps-sim --ground-truth), for a program loaded at its link
 * address; the estimates are then scored against it: execution counts
 * (errors weighted by samples, as the paper's Figure 8), CPI, and whether
 * the true stall cause of each dynamic stall is among the culprits.
 * Bad arguments or files: one line on stderr, status 2.
 */
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "dcpicalc.h"
#include "disasm.h"
#include "loader.h"
#include "profdb.h"
#include "symtab.h"
#include "util.h"

static _Noreturn void die(const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    print_message_line(stderr, "hps-dcpicalc", msg);
    exit(2);
}

/* ---- the ground truth (dcpicalc.h) ----------------------------------------------- */

typedef dcpicalc_truth_row_t truth_row_t;
typedef dcpicalc_truth_t truth_t;

static void read_truth(const char *path, truth_t *t)
{
    char err[512];
    if (!dcpicalc_truth_read(path, t, err, sizeof err)) die("%s", err);
}

static const truth_row_t *truth_at(const truth_t *t, uint64_t pc) { return dcpicalc_truth_at(t, pc); }

/* ---- samples ----------------------------------------------------------------------- */

static uint64_t samples_of(void *ctx, int event, uint64_t addr)
{
    const profdb_image_t *im = ctx;
    return im->has[event] ? profdb_samples_at(&im->prof[event], addr) : 0;
}

/* ---- the listing ------------------------------------------------------------------- */

static void culprit_text(uint32_t mask, char *buf, size_t len)
{
    buf[0] = 0;
    for (int c = 1; c < STALL_COUNT; c++) {
        if (!(mask >> c & 1)) continue;
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", used ? ", " : "", stall_names[c]);
    }
}

typedef struct score {
    double within[4];           /* samples with count error <= 5, 10, 15, 25 % */
    double scored;              /* samples on instructions with a truth row  */
    double stall_cycles, explained;
    double cpi_err_sum, cpi_weight;
} score_t;

static void print_insn(const dcpicalc_t *dc, size_t k, disasm_t *dis, const char *path,
                       double period, const truth_t *truth, score_t *sc)
{
    const insn_t *in = &dc->cfg.insns[k];
    const dcpicalc_insn_t *x = &dc->insn[k];
    uint8_t bytes[4] = { 0 };
    char text[96] = "?", cul[160];
    size_t avail = symtab_read_code(path, in->pc, bytes, in->len);
    if (avail) disasm_insn(dis, in->pc, bytes, avail, text, sizeof text);
    printf("  %8" PRIx64 "  %-28.28s %7" PRIu64 " %3" PRIu64, in->pc, text, x->samples,
           x->sched.head);
    if (x->cpi >= 0) printf(" %7.2f", x->cpi);
    else printf(" %7s", "-");
    const truth_row_t *r = truth ? truth_at(truth, in->pc) : NULL;
    if (truth) {
        if (r && r->count) printf(" %9" PRIu64 " %7.2f", r->count, (double)r->head / (double)r->count);
        else printf(" %9s %7s", "0", "-");
    }
    culprit_text(x->culprits, cul, sizeof cul);
    double dyn = dcpicalc_dynamic_stall(dc, k);
    if (dyn > 0.5) printf("  %.1f: %s", dyn, cul[0] ? cul : "unexplained");
    putchar('\n');
    if (!r || !r->count || x->freq < 0) return;
    /* scoring: the count estimate, weighted by samples; CPI; culprits */
    double est = x->freq * period, err = fabs(est / (double)r->count - 1.0);
    static const double lim[4] = { 0.05, 0.10, 0.15, 0.25 };
    sc->scored += (double)x->samples;
    for (int b = 0; b < 4; b++)
        if (err <= lim[b]) sc->within[b] += (double)x->samples;
    double true_cpi = (double)r->head / (double)r->count;
    if (x->cpi >= 0) {
        sc->cpi_err_sum += fabs(x->cpi - true_cpi) * (double)x->samples;
        sc->cpi_weight += (double)x->samples;
    }
    for (int c = 1; c < STALL_COUNT; c++) {
        double dynamic = (double)r->stall[c];
        if (!dynamic || c == x->sched.cause) continue;   /* the static stall is known */
        sc->stall_cycles += dynamic;
        if (x->culprits >> c & 1) sc->explained += dynamic;
    }
}

static void print_block(const dcpicalc_t *dc, size_t b, double period, disasm_t *dis,
                        const char *path, const truth_t *truth, score_t *sc)
{
    const cfg_block_t *blk = &dc->cfg.blocks[b];
    int cls = blk->cls;
    double f = dc->class_freq[cls];
    printf("block %zu  0x%" PRIx64 "  class %d  ", b, dc->cfg.insns[blk->first].pc, cls);
    if (f >= 0) printf("~%.0f executions (%s confidence)%s\n", f * period,
                       dcpicalc_confidence_names[dc->class_conf[cls]], blk->live ? "" : ", dead");
    else printf("frequency unknown%s\n", blk->live ? "" : ", dead");
    for (size_t k = blk->first; k < blk->first + blk->n; k++)
        print_insn(dc, k, dis, path, period, truth, sc);
}

static void print_score(const score_t *sc)
{
    if (!sc->scored) {
        printf("\n(no sampled instruction has a ground-truth row: was the image loaded at "
               "its link address?)\n");
        return;
    }
    printf("\nscored against the ground truth:\n");
    printf("  execution counts, by samples: %.0f%% within 5%%, %.0f%% within 10%%, %.0f%% within "
           "15%%, %.0f%% within 25%%\n", 100 * sc->within[0] / sc->scored,
           100 * sc->within[1] / sc->scored, 100 * sc->within[2] / sc->scored,
           100 * sc->within[3] / sc->scored);
    if (sc->cpi_weight)
        printf("  CPI: mean absolute error %.2f cycles (weighted by samples)\n",
               sc->cpi_err_sum / sc->cpi_weight);
    if (sc->stall_cycles)
        printf("  dynamic stalls: %.0f%% of the true stall cycles have their cause among the "
               "culprits\n", 100 * sc->explained / sc->stall_cycles);
}

/* ---- one procedure, or all ----------------------------------------------------------- */

typedef struct job {
    const config_t *cfg;
    const char *model;
    const profdb_image_t *im;
    const isa_t *isa;
    double period;
    const truth_t *truth;       /* or NULL */
    bool quiet;                 /* --all: no listing */
} job_t;

/* Analyse one procedure; false (with err) when it cannot be. */
static bool analyse(const job_t *j, const symbol_t *sym, score_t *sc, char *err, size_t errlen)
{
    size_t size = sym->size ? (size_t)sym->size : 4096;
    uint8_t *code = xcalloc(size, 1);
    size = symtab_read_code(j->im->path, sym->addr, code, size);
    dcpicalc_t dc;
    if (!dcpicalc_run(&dc, j->cfg, j->isa, code, sym->addr, size, samples_of, (void *)j->im,
                      err, errlen)) {
        free(code);
        return false;
    }
    uint64_t s_total = 0;
    for (size_t k = 0; k < dc.cfg.ninsns; k++) s_total += dc.insn[k].samples;
    if (!j->quiet) {
        printf("*** %s in %s, model %s\n", sym->name, j->im->path, j->model);
        printf("*** %" PRIu64 " cycles samples, mean period %.0f, %zu blocks in %d frequency "
               "classes%s\n", s_total, j->period, dc.cfg.nblocks, dc.cfg.nclasses,
               dc.cfg.missing_edges ? " (missing edges: a class each)" : "");
        printf("*** columns: address, instruction, samples, M (static head cycles), CPI%s, "
               "then the dynamic stall and its culprits\n\n",
               j->truth ? ", true count and CPI" : "");
    }
    disasm_t *dis = disasm_new(j->isa);
    FILE *out = stdout;
    if (j->quiet) stdout = fopen("/dev/null", "w");
    for (size_t b = 0; b < dc.cfg.nblocks; b++)
        print_block(&dc, b, j->period, dis, j->im->path, j->truth, sc);
    if (j->quiet) {
        fclose(stdout);
        stdout = out;
    }
    disasm_free(dis);
    dcpicalc_free(&dc);
    free(code);
    return true;
}

/* --all: every procedure of the image with samples, a score line each. */
static void analyse_all(const job_t *j, const symtab_t *st)
{
    score_t total = { 0 };
    char err[512];
    printf("%-32s %8s %6s %6s %6s %6s\n", "procedure", "samples", "<=5%", "<=10%", "<=15%",
           "<=25%");
    for (size_t s = 0; s < st->count; s++) {
        const symbol_t *sym = &st->syms[s];
        uint64_t n = 0;
        const profdb_file_t *cyc = &j->im->prof[PMU_CYCLES];
        for (size_t r = 0; r < cyc->n; r++)
            if (cyc->rec[r].offset >= sym->addr && cyc->rec[r].offset - sym->addr < sym->size)
                n += cyc->rec[r].count;
        if (!n) continue;
        score_t sc = { 0 };
        if (!analyse(j, sym, &sc, err, sizeof err) || !sc.scored) continue;
        printf("%-32.32s %8.0f %5.0f%% %5.0f%% %5.0f%% %5.0f%%\n", sym->name, sc.scored,
               100 * sc.within[0] / sc.scored, 100 * sc.within[1] / sc.scored,
               100 * sc.within[2] / sc.scored, 100 * sc.within[3] / sc.scored);
        for (int b = 0; b < 4; b++) total.within[b] += sc.within[b];
        total.scored += sc.scored;
        total.stall_cycles += sc.stall_cycles;
        total.explained += sc.explained;
        total.cpi_err_sum += sc.cpi_err_sum;
        total.cpi_weight += sc.cpi_weight;
    }
    print_score(&total);
}

/* ---- main --------------------------------------------------------------------------- */

static void usage(FILE *out)
{
    fprintf(out, "usage: hps-dcpicalc [--config NAME] [--epoch N] [--truth FILE] DB PROC "
                 "[IMAGE]\n"
                 "       hps-dcpicalc --all --truth FILE [--config NAME] DB IMAGE\n");
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "config", required_argument, NULL, 'c' }, { "epoch", required_argument, NULL, 'e' },
        { "truth", required_argument, NULL, 't' }, { "help", no_argument, NULL, 'h' },
        { "all", no_argument, NULL, 'a' },
        { NULL, 0, NULL, 0 }
    };
    const char *model = NULL, *truth_path = NULL;
    bool all = false;
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
        case 't': truth_path = optarg; break;
        case 'a': all = true; break;
        case 'h': usage(stdout); return 0;
        default: usage(stderr); die("bad option '%s'", argv[optind - 1]);
        }
    }
    if (argc - optind < 2) { usage(stderr); die("expected a database and a procedure"); }
    /* static: what is loaded stays reachable when die() exits (LeakSanitizer) */
    static profdb_epoch_data_t db;
    static symtab_t *st;
    static truth_t truth;
    if (!profdb_load(argv[optind], (unsigned)epoch, &db, err, sizeof err)) die("%s", err);
    char machine_file[4200];
    snprintf(machine_file, sizeof machine_file, "%s/config", db.dir);
    if (!model) model = access(machine_file, R_OK) == 0 ? machine_file : "ev5";
    config_t cfg;
    config_defaults(&cfg);
    if (!config_load(&cfg, model, err, sizeof err)) die("%s", err);
    if (all && !truth_path) die("--all needs --truth FILE");
    const char *proc = all ? NULL : argv[optind + 1];
    const char *image = all ? argv[optind + 1] : argc - optind > 2 ? argv[optind + 2] : NULL;
    const profdb_image_t *im = NULL;
    const symbol_t *sym = NULL;
    for (size_t k = 0; k < db.n && !im; k++) {
        if (image && &db.v[k] != profdb_find_image(&db, image)) continue;
        symtab_free(st);
        st = symtab_load(db.v[k].path);
        if (all) { im = &db.v[k]; break; }
        for (size_t s = 0; st && s < st->count && !sym; s++)
            if (!strcmp(st->syms[s].name, proc)) { sym = &st->syms[s]; im = &db.v[k]; }
    }
    if (!im) die(all ? "no image '%s' in the database" : "no procedure '%s' in the profiled images",
                 all ? image : proc);
    if (!im->has[PMU_CYCLES]) die("%s: no cycles samples", im->path);
    const profdb_file_t *cyc = &im->prof[PMU_CYCLES];
    if (!cyc->period_min) die("%s: cycles samples with mixed periods", im->path);
    int machine = 0;
    if (!loader_probe(im->path, &machine, err, sizeof err)) die("%s", err);
    if (truth_path) read_truth(truth_path, &truth);
    job_t j = { .cfg = &cfg, .model = model, .im = im,
                .isa = machine == isa_alpha.elf_machine ? &isa_alpha : &isa_rv64,
                .period = ((double)cyc->period_min + (double)cyc->period_max) / 2.0,
                .truth = truth_path ? &truth : NULL, .quiet = all };
    score_t sc = { 0 };
    if (all) analyse_all(&j, st);
    else if (!analyse(&j, sym, &sc, err, sizeof err)) die("%s: %s", proc, err);
    else if (truth_path) print_score(&sc);
    symtab_free(st);
    profdb_unload(&db);
    if (truth_path) dcpicalc_truth_free(&truth);
    return 0;
}
