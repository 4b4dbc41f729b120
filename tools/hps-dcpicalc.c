/*
 * hps-dcpicalc.c - DCPI's instruction-level analysis of one procedure
 * (dcpicalc, SOSP'97 Figure 2 and section 6): from the CYCLES (and IMISS)
 * samples in a profile database, each basic block's execution count and
 * its confidence, each instruction's CPI against its static schedule, and
 * the culprits that may explain its dynamic stalls.
 *
 *   hps-dcpicalc [--config NAME] [--epoch N] [--truth FILE]... DB PROC [IMAGE]
 *
 * --config is the model the static schedules come from: by default the one
 * the samples were collected on, which hps-sim writes into the epoch
 * (`config`).  --truth FILE is the ground-truth file of
 * the same run (hps-sim --ground-truth), for a program loaded at its link
 * address; several are summed when the epoch merged several runs of the
 * program (different --seed, DCPI's way to more samples); the estimates are then scored against it: execution counts
 * (errors weighted by samples, as the paper's Figure 8), CPI, and whether
 * the true stall cause of each dynamic stall is among the culprits.
 * Every procedure of the image with samples is analysed once first, to
 * measure the I-cache's cost per miss over the run, which a procedure too
 * small to measure it takes off its one-point classes (dcpicalc_unstall).
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
#include "srcline.h"
#include "symtab.h"
#include "util.h"

#define die(...) die_bad_input("hps-dcpicalc", __VA_ARGS__)

/* ---- the ground truth (dcpicalc.h) ----------------------------------------------- */

typedef dcpicalc_truth_row_t truth_row_t;
typedef dcpicalc_truth_t truth_t;

/* The ground truth of the runs the database merged: the sum of their
 * files, row by row. */
static void read_truths(char **paths, size_t n, truth_t *t)
{
    char err[512];
    if (!dcpicalc_truth_read(paths[0], t, err, sizeof err)) die("%s", err);
    for (size_t k = 1; k < n; k++) {
        truth_t more;
        if (!dcpicalc_truth_read(paths[k], &more, err, sizeof err)) die("%s", err);
        dcpicalc_truth_add(t, &more);
        dcpicalc_truth_free(&more);
    }
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
    /* culprits per cause: recall = true dynamic cycles of the cause on
     * instructions that list it / all its true dynamic cycles; precision =
     * true dynamic stall cycles of the instructions listing the cause where
     * it is real (>= a tenth of their dynamic stall) / of all listing it */
    double rec_hit[STALL_COUNT], rec_all[STALL_COUNT];
    double prec_hit[STALL_COUNT], prec_all[STALL_COUNT];
    /* Figure 10: the culprit stall cycles of I-cache and D-cache misses,
     * estimated (top: every instruction listing the cause; bottom: its
     * share when several are listed), for the correlation with IMISS/DMISS */
    double icache_top, icache_bottom, dcache_top, dcache_bottom;
    /* and the truth's: the I-cache and D-cache dynamic stall cycles */
    double icache_true, dcache_true;
    /* Figure 9: edges whose true count the truth determines, weighted by it */
    double edge_within[2], edge_scored;
    /* the sampling itself: instructions never stalled (their truth has no
     * stall cycle) expect head cycles / period samples; z = the deviation
     * in Poisson standard deviations, within 5% weighted by samples */
    double samp_n, samp_z2, samp_within5, samp_weight, samp_expected;
    /* the stall cycles the truth gives the profiler's own code (its
     * `profiler` column): no cause's, so in no culprit score */
    double profiler;
} score_t;

/* The row's head cycles less those the profiler's own code caused (its
 * interrupt handler's return, which the counters leave out too: pmu.c):
 * the program's, which the samples stand for. */
static double program_head(const truth_row_t *r)
{
    return (double)(r->head - r->profiler);
}

/* Static causes (a dependency, a unit, slotting, fetch) stall every
 * execution by M - 1 cycles; what the truth has beyond that is dynamic. */
static double true_dynamic(const truth_row_t *r, const timing_static_t *st, int c)
{
    double v = (double)r->stall[c];
    if (c == st->cause && st->head > 1) v -= (double)r->count * (double)(st->head - 1);
    return v > 0 ? v : 0;
}

static void score_culprits(const dcpicalc_insn_t *x, const truth_row_t *r, double period,
                           score_t *sc)
{
    double dyn[STALL_COUNT] = { 0 }, total = 0;
    for (int c = 1; c < STALL_COUNT; c++) total += dyn[c] = true_dynamic(r, &x->sched, c);
    int listed = __builtin_popcount(x->culprits);
    double est = x->cpi >= 0 && x->cpi > (double)x->sched.head
               ? (x->cpi - (double)x->sched.head) * x->freq * period : 0;
    if (x->culprits >> STALL_ICACHE & 1) {
        sc->icache_top += est;
        sc->icache_bottom += est / listed;
    }
    if (x->culprits >> STALL_DCACHE & 1) {
        sc->dcache_top += est;
        sc->dcache_bottom += est / listed;
    }
    sc->icache_true += dyn[STALL_ICACHE];
    sc->dcache_true += dyn[STALL_DCACHE];
    for (int c = 1; c < STALL_COUNT; c++) {
        bool on = x->culprits >> c & 1;
        sc->rec_all[c] += dyn[c];
        if (on) sc->rec_hit[c] += dyn[c];
        if (!on || !total) continue;
        sc->prec_all[c] += total;
        if (dyn[c] >= 0.1 * total) sc->prec_hit[c] += total;
    }
}

/* The samples of an instruction that never stalled against its exact head
 * cycles / period (the sample delivery's bias, apart from the analysis),
 * when at least 100 are expected. */
static void score_sampling(const dcpicalc_insn_t *x, const truth_row_t *r, double period,
                           score_t *sc)
{
    for (int c = 1; c < STALL_COUNT; c++)
        if (r->stall[c]) return;
    double expect = program_head(r) / period;
    if (expect < 100) return;
    double z = ((double)x->samples - expect) / sqrt(expect);
    sc->samp_n++;
    sc->samp_z2 += z * z;
    sc->samp_weight += (double)x->samples;
    sc->samp_expected += expect;
    if (fabs((double)x->samples / expect - 1.0) <= 0.05) sc->samp_within5 += (double)x->samples;
}

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
        if (r && r->count) printf(" %9" PRIu64 " %7.2f", r->count, program_head(r) / (double)r->count);
        else printf(" %9s %7s", "0", "-");
    }
    culprit_text(x->culprits, cul, sizeof cul);
    double dyn = dcpicalc_dynamic_stall(dc, k);
    if (x->sched.head > 1)
        printf("  static %" PRIu64 ": %s", x->sched.head - 1, stall_names[x->sched.cause]);
    if (dyn > 0.5)                      /* a stall the samples show (dcpicalc.c) */
        printf("  dynamic %.1f (%.0f cycles): %s", dyn, dyn * x->freq * period,
               cul[0] ? cul : "unexplained");
    else if (x->culprits)               /* named by the events or a neighbour's stall */
        printf("  culprit, no stall sampled here: %s", cul);
    putchar('\n');
    if (!r || !r->count || x->freq < 0) return;
    /* scoring: the count estimate, weighted by samples; CPI; culprits */
    double est = x->freq * period, err = fabs(est / (double)r->count - 1.0);
    static const double lim[4] = { 0.05, 0.10, 0.15, 0.25 };
    sc->scored += (double)x->samples;
    for (int b = 0; b < 4; b++)
        if (err <= lim[b]) sc->within[b] += (double)x->samples;
    double true_cpi = program_head(r) / (double)r->count;
    if (x->cpi >= 0) {
        sc->cpi_err_sum += fabs(x->cpi - true_cpi) * (double)x->samples;
        sc->cpi_weight += (double)x->samples;
    }
    sc->profiler += (double)r->profiler;
    for (int c = 1; c < STALL_COUNT; c++) {
        double dynamic = true_dynamic(r, &x->sched, c);
        sc->stall_cycles += dynamic;
        if (x->culprits >> c & 1) sc->explained += dynamic;
    }
    score_culprits(x, r, period, sc);
    score_sampling(x, r, period, sc);
}

/* The block's best case (its static schedule, sum M / n) and actual CPI
 * (sum of the instructions' CPI / n), and its bubbles: the static stall
 * cycles beyond one a cycle, by cause (Figure 3's per-block line). */
static void print_block_cpi(const dcpicalc_t *dc, const cfg_block_t *blk)
{
    uint64_t m = 0, bubbles[STALL_COUNT] = { 0 };
    double actual = 0;
    bool known = true;
    for (size_t k = blk->first; k < blk->first + blk->n; k++) {
        const dcpicalc_insn_t *x = &dc->insn[k];
        m += x->sched.head;
        if (x->sched.head > 1) bubbles[x->sched.cause] += x->sched.head - 1;
        if (x->cpi < 0) known = false;
        else actual += x->cpi;
    }
    printf("      best case %" PRIu64 "/%zu = %.2f CPI", m, blk->n, (double)m / (double)blk->n);
    if (known) printf(", actual %.1f/%zu = %.2f CPI", actual, blk->n, actual / (double)blk->n);
    for (int c = 1; c < STALL_COUNT; c++)
        if (bubbles[c]) printf(", %" PRIu64 " bubble%s of %s", bubbles[c], bubbles[c] > 1 ? "s" : "",
                               stall_names[c]);
    putchar('\n');
}

/* The source line of pc (DWARF, -g) when it differs from the last one
 * printed, or at a block's start. */
static void print_source_line(srcline_t *src, uint64_t pc, bool block_start)
{
    static const char *last_file;
    static int last_line;
    const char *file;
    int line;
    if (!srcline_at(src, pc, &file, &line)) return;
    if (!block_start && last_file && !strcmp(last_file, file) && last_line == line) return;
    last_file = file;
    last_line = line;
    const char *text = srcline_text(src, file, line), *base = strrchr(file, '/');
    printf("    %s:%d:%s%s\n", base ? base + 1 : file, line, text ? "  " : "", text ? text : "");
}

static void print_block(const dcpicalc_t *dc, size_t b, double period, disasm_t *dis,
                        const char *path, const truth_t *truth, score_t *sc, srcline_t *src)
{
    const cfg_block_t *blk = &dc->cfg.blocks[b];
    int cls = blk->cls;
    double f = dc->class_freq[cls];
    printf("block %zu  0x%" PRIx64 "  class %d  ", b, dc->cfg.insns[blk->first].pc, cls);
    if (f >= 0) printf("~%.0f executions (%s confidence)%s\n", f * period,
                       dcpicalc_confidence_names[dc->class_conf[cls]], blk->live ? "" : ", dead");
    else printf("frequency unknown%s\n", blk->live ? "" : ", dead");
    print_block_cpi(dc, blk);
    for (size_t k = blk->first; k < blk->first + blk->n; k++) {
        if (src) print_source_line(src, dc->cfg.insns[k].pc, k == blk->first);
        print_insn(dc, k, dis, path, period, truth, sc);
    }
}

/* ---- where the cycles went (Figure 4's summary) ------------------------------------ */

typedef struct summary {
    double total;                       /* samples x period                      */
    double execution;                   /* one cycle per issue point execution   */
    double static_stall[STALL_COUNT];   /* (M - 1) per execution, by cause       */
    double dyn_top[STALL_COUNT];        /* dynamic stall of instructions listing */
    double dyn_bottom[STALL_COUNT];     /*   the cause: all of it / its share    */
    double dynamic, unexplained, gain, unknown;
} summary_t;

static void summarize(const dcpicalc_t *dc, double period, summary_t *sm)
{
    memset(sm, 0, sizeof *sm);
    for (size_t k = 0; k < dc->cfg.ninsns; k++) {
        const dcpicalc_insn_t *x = &dc->insn[k];
        double cycles = (double)x->samples * period;
        sm->total += cycles;
        if (x->freq < 0) { sm->unknown += cycles; continue; }
        double n = x->freq * period, m = (double)x->sched.head;
        sm->execution += n * (m < 1 ? m : 1);
        if (m > 1) sm->static_stall[x->sched.cause] += n * (m - 1);
        double dyn = cycles - n * m;
        if (dyn < 0) { sm->gain -= dyn; continue; }
        sm->dynamic += dyn;
        int listed = __builtin_popcount(x->culprits);
        if (!listed) { sm->unexplained += dyn; continue; }
        for (int c = 1; c < STALL_COUNT; c++)
            if (x->culprits >> c & 1) {
                sm->dyn_top[c] += dyn;
                sm->dyn_bottom[c] += dyn / listed;
            }
    }
}

static void print_summary(const dcpicalc_t *dc, double period)
{
    summary_t sm;
    summarize(dc, period, &sm);
    if (!sm.total) return;
    double pc = 100 / sm.total, stat = 0;
    printf("\nwhere the cycles went (%% of %.0f sampled cycles; a dynamic stall with several "
           "culprits counts from its share to all of it):\n", sm.total);
    for (int c = 1; c < STALL_COUNT; c++)
        if (sm.dyn_top[c])
            printf("  dynamic  %-18s %5.1f%% - %5.1f%%\n", stall_names[c], sm.dyn_bottom[c] * pc,
                   sm.dyn_top[c] * pc);
    printf("  dynamic  %-18s %5.1f%%\n", "unexplained stall", sm.unexplained * pc);
    printf("  dynamic  %-18s %5.1f%%\n", "subtotal", sm.dynamic * pc);
    for (int c = 1; c < STALL_COUNT; c++) {
        stat += sm.static_stall[c];
        if (sm.static_stall[c])
            printf("  static   %-18s %5.1f%%\n", stall_names[c], sm.static_stall[c] * pc);
    }
    printf("  static   %-18s %5.1f%%\n", "subtotal", stat * pc);
    printf("  %-27s %5.1f%%\n", "execution", sm.execution * pc);
    printf("  %-27s %5.1f%%\n", "unexplained gain", -sm.gain * pc);
    if (sm.unknown) printf("  %-27s %5.1f%%\n", "frequency unknown", sm.unknown * pc);
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
    if (sc->edge_scored)
        printf("  edge frequencies (Figure 9), by executions: %.0f%% within 5%%, %.0f%% within "
               "10%%\n", 100 * sc->edge_within[0] / sc->edge_scored,
               100 * sc->edge_within[1] / sc->edge_scored);
    if (sc->samp_n)
        printf("  sampling: %.0f never-stalled instructions with >= 100 expected samples, %.0f%% of "
               "their samples within 5%% of head cycles / period, z rms %.2f (Poisson: 1), "
               "samples / expected %.3f\n",
               sc->samp_n, sc->samp_weight ? 100 * sc->samp_within5 / sc->samp_weight : 0,
               sqrt(sc->samp_z2 / sc->samp_n), sc->samp_weight / sc->samp_expected);
    if (sc->cpi_weight)
        printf("  CPI: mean absolute error %.2f cycles (weighted by samples)\n",
               sc->cpi_err_sum / sc->cpi_weight);
    if (sc->stall_cycles)
        printf("  dynamic stalls: %.0f%% of the true stall cycles have their cause among the "
               "culprits\n", 100 * sc->explained / sc->stall_cycles);
    printf("  culprits by cause (true dynamic stall cycles; precision and recall, %%):\n");
    for (int c = 1; c < STALL_COUNT; c++) {
        if (!sc->rec_all[c] && !sc->prec_all[c]) continue;
        printf("    %-18s %14.0f", stall_names[c], sc->rec_all[c]);
        if (sc->prec_all[c]) printf("  precision %5.1f", 100 * sc->prec_hit[c] / sc->prec_all[c]);
        else printf("  precision     -");
        if (sc->rec_all[c]) printf("  recall %5.1f\n", 100 * sc->rec_hit[c] / sc->rec_all[c]);
        else printf("  recall     -\n");
    }
    double ph = 0, pa = 0, rh = 0, ra = 0;
    for (int c = 1; c < STALL_COUNT; c++) {
        ph += sc->prec_hit[c]; pa += sc->prec_all[c];
        rh += sc->rec_hit[c]; ra += sc->rec_all[c];
    }
    if (pa && ra)
        printf("  culprits overall: precision %.1f%%, recall %.1f%%\n", 100 * ph / pa,
               100 * rh / ra);
    if (sc->profiler)
        printf("  the profiler's own stall cycles on the program's instructions (the truth's "
               "profiler column, in no score): %.0f\n", sc->profiler);
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
    double icache_cost;         /* the run's I-cache cost per miss (run_icache_cost) */
} job_t;

/* The true count of edge e when the per-instruction truth determines it:
 * the only edge into its target (the target's count) or out of its source
 * (the source's); < 0 otherwise. */
static double true_edge_count(const dcpicalc_t *dc, size_t e, const truth_t *truth)
{
    const cfg_t *g = &dc->cfg;
    const cfg_edge_t *x = &g->edges[e];
    if (x->from < 0 || x->to < 0) return -1;
    size_t into = 0, out = 0;
    for (size_t k = 0; k < g->nedges; k++) {
        into += g->edges[k].to == x->to;
        out += g->edges[k].from == x->from;
    }
    const cfg_block_t *b = into == 1 ? &g->blocks[x->to] : out == 1 ? &g->blocks[x->from] : NULL;
    if (!b) return -1;
    const truth_row_t *r = truth_at(truth, g->insns[into == 1 ? b->first : b->first + b->n - 1].pc);
    return r ? (double)r->count : 0;
}

/* Figure 9: the estimated edge frequencies against the true ones. */
static void score_edges(const dcpicalc_t *dc, double period, const truth_t *truth, score_t *sc)
{
    for (size_t e = 0; e < dc->cfg.nedges; e++) {
        double t = true_edge_count(dc, e, truth), f = dc->class_freq[dc->cfg.edges[e].cls];
        if (t <= 0 || f < 0) continue;
        double err = fabs(f * period / t - 1.0);
        sc->edge_scored += t;
        if (err <= 0.05) sc->edge_within[0] += t;
        if (err <= 0.10) sc->edge_within[1] += t;
    }
}

static double projected_events(const profdb_image_t *im, int event, uint64_t addr,
                               uint64_t size);

/* dcpicalc's analysis of procedure sym into dc (its code into *code, to
 * be freed); false (with err) when it cannot be done. */
static bool run_procedure(const job_t *j, const symbol_t *sym, dcpicalc_t *dc, uint8_t **code,
                          char *err, size_t errlen)
{
    size_t size = sym->size ? (size_t)sym->size : 4096;
    *code = xcalloc(size, 1);
    size = symtab_read_code(j->im->path, sym->addr, *code, size);
    double periods[PROFDB_EVENTS];
    uint32_t collected = profdb_image_events(j->im, periods);
    cfg_image_t image = dcpicalc_file_image(j->im->path);
    if (dcpicalc_run_events(dc, j->cfg, j->isa, *code, sym->addr, size, samples_of,
                            (void *)j->im, collected, periods, &image, err, errlen))
        return true;
    free(*code);
    *code = NULL;
    return false;
}

/* The I-cache's cost per miss measured over the run: the measure of
 * every procedure of the image with samples, pooled (dcpicalc_icache_cost;
 * 0 when too few IMISS samples).  A procedure too small to measure it
 * alone takes this one off its one-point classes (dcpicalc_unstall). */
static double run_icache_cost(const job_t *j, const symtab_t *st)
{
    double cycles = 0, per_period = 0;
    uint64_t imiss = 0;
    char err[512];
    for (size_t s = 0; st && s < st->count; s++) {
        const symbol_t *sym = &st->syms[s];
        if (!projected_events(j->im, PMU_CYCLES, sym->addr, sym->size)) continue;
        dcpicalc_t dc;
        uint8_t *code;
        if (!run_procedure(j, sym, &dc, &code, err, sizeof err)) continue;
        cycles += dc.icache_cycles;
        imiss += dc.icache_imiss;
        if (dc.imiss_per_period > 0) per_period = dc.imiss_per_period;
        dcpicalc_free(&dc);
        free(code);
    }
    return dcpicalc_icache_cost(cycles, imiss, per_period);
}

/* Analyse one procedure; false (with err) when it cannot be. */
static bool analyse(const job_t *j, const symbol_t *sym, score_t *sc, char *err, size_t errlen)
{
    dcpicalc_t dc;
    uint8_t *code;
    if (!run_procedure(j, sym, &dc, &code, err, errlen)) return false;
    dcpicalc_unstall(&dc, j->icache_cost);
    uint64_t s_total = 0;
    for (size_t k = 0; k < dc.cfg.ninsns; k++) s_total += dc.insn[k].samples;
    if (!j->quiet) {
        printf("*** %s in %s, model %s\n", sym->name, j->im->path, j->model);
        printf("*** %" PRIu64 " cycles samples, mean period %.0f, %zu blocks in %d frequency "
               "classes%s", s_total, j->period, dc.cfg.nblocks, dc.cfg.nclasses,
               dc.cfg.missing_edges ? " (missing edges: a class each)" : "");
        if (dc.cfg.switches) printf(", switches: %zu read from their tables", dc.cfg.switches);
        printf("\n");
        printf("*** columns: address, instruction, samples, M (static head cycles), CPI%s, "
               "then the static stall beyond one cycle and its cause, the dynamic stall per "
               "execution (its cycles in all) and its culprits\n\n",
               j->truth ? ", true count and CPI" : "");
    }
    disasm_t *dis = disasm_new(j->isa);
    FILE *out = stdout;
    if (j->quiet) stdout = fopen("/dev/null", "w");
    srcline_t *src = j->quiet ? NULL : srcline_open(j->im->path);
    for (size_t b = 0; b < dc.cfg.nblocks; b++)
        print_block(&dc, b, j->period, dis, j->im->path, j->truth, sc, src);
    srcline_close(src);
    if (j->truth) score_edges(&dc, j->period, j->truth, sc);
    print_summary(&dc, j->period);
    if (j->quiet) {
        fclose(stdout);
        stdout = out;
    }
    disasm_free(dis);
    dcpicalc_free(&dc);
    free(code);
    return true;
}

/* Samples of an event in [addr, addr + size) times its mean period: the
 * projected number of events (0 when the event was not collected). */
static double projected_events(const profdb_image_t *im, int event, uint64_t addr, uint64_t size)
{
    if (!im->has[event]) return 0;
    const profdb_file_t *f = &im->prof[event];
    double n = 0;
    for (size_t r = 0; r < f->n; r++)
        if (f->rec[r].offset >= addr && f->rec[r].offset - addr < size) n += (double)f->rec[r].count;
    return n * ((double)f->period_min + (double)f->period_max) / 2.0;
}

/* Pearson's correlation coefficient of n pairs; NAN when undefined. */
static double correlation(const double *x, const double *y, size_t n)
{
    double mx = 0, my = 0, sxy = 0, sxx = 0, syy = 0;
    for (size_t k = 0; k < n; k++) { mx += x[k]; my += y[k]; }
    if (n < 3) return NAN;
    mx /= (double)n;
    my /= (double)n;
    for (size_t k = 0; k < n; k++) {
        sxy += (x[k] - mx) * (y[k] - my);
        sxx += (x[k] - mx) * (x[k] - mx);
        syy += (y[k] - my) * (y[k] - my);
    }
    return sxx > 0 && syy > 0 ? sxy / sqrt(sxx * syy) : NAN;
}

/* A correlation coefficient, or "undefined" where one series is constant
 * (every procedure the same: no spread to correlate). */
static void print_correlation(double r)
{
    if (isnan(r)) printf("undefined");
    else printf("%.2f", r);
}

typedef struct fig10 {
    double *events, *top, *bottom;  /* per procedure */
    double *truth;                  /* the truth's cycles of the cause */
    size_t n;
} fig10_t;

static void fig10_add(fig10_t *f, double events, double top, double bottom, double truth)
{
    f->events = xrealloc(f->events, (f->n + 1) * sizeof *f->events);
    f->top = xrealloc(f->top, (f->n + 1) * sizeof *f->top);
    f->bottom = xrealloc(f->bottom, (f->n + 1) * sizeof *f->bottom);
    f->truth = xrealloc(f->truth, (f->n + 1) * sizeof *f->truth);
    f->events[f->n] = events;
    f->top[f->n] = top;
    f->truth[f->n] = truth;
    f->bottom[f->n++] = bottom;
}

/* Figure 10: the correlation of the culprit stall cycles (top, bottom and
 * their midpoint) with the projected events, per procedure; with the
 * truth, also of the truth's cycles of the cause with the events (what
 * the events can show at best: a miss whose consumer comes late stalls
 * nothing) and of the midpoint with the truth's cycles. */
static void fig10_print(fig10_t *f, const char *event, const char *cause, bool truth)
{
    if (f->n < 3) {
        printf("  %s: fewer than 3 procedures with %s samples, no correlation\n", cause, event);
    } else {
        double *mid = xcalloc(f->n, sizeof *mid);
        for (size_t k = 0; k < f->n; k++) mid[k] = (f->top[k] + f->bottom[k]) / 2;
        printf("  %s culprit stall cycles against projected %s events, %zu procedures: "
               "correlation top ", cause, event, f->n);
        print_correlation(correlation(f->events, f->top, f->n));
        printf(", bottom ");
        print_correlation(correlation(f->events, f->bottom, f->n));
        printf(", midpoint ");
        print_correlation(correlation(f->events, mid, f->n));
        if (truth) {
            printf("; the truth's %s cycles against them ", cause);
            print_correlation(correlation(f->events, f->truth, f->n));
            printf(", the midpoint against the truth's ");
            print_correlation(correlation(f->truth, mid, f->n));
        }
        printf("\n");
        free(mid);
    }
    free(f->events);
    free(f->top);
    free(f->bottom);
    free(f->truth);
}

static void add_score(score_t *total, const score_t *sc)
{
    for (int b = 0; b < 4; b++) total->within[b] += sc->within[b];
    total->scored += sc->scored;
    total->stall_cycles += sc->stall_cycles;
    total->explained += sc->explained;
    total->cpi_err_sum += sc->cpi_err_sum;
    total->cpi_weight += sc->cpi_weight;
    total->edge_scored += sc->edge_scored;
    for (int b = 0; b < 2; b++) total->edge_within[b] += sc->edge_within[b];
    total->samp_n += sc->samp_n;
    total->samp_z2 += sc->samp_z2;
    total->samp_within5 += sc->samp_within5;
    total->samp_weight += sc->samp_weight;
    total->samp_expected += sc->samp_expected;
    total->profiler += sc->profiler;
    for (int c = 0; c < STALL_COUNT; c++) {
        total->rec_hit[c] += sc->rec_hit[c];
        total->rec_all[c] += sc->rec_all[c];
        total->prec_hit[c] += sc->prec_hit[c];
        total->prec_all[c] += sc->prec_all[c];
    }
}

/* --all: every procedure of the image with samples, a score line each. */
static void analyse_all(const job_t *j, const symtab_t *st)
{
    score_t total = { 0 };
    fig10_t imiss = { 0 }, dmiss = { 0 };
    char err[512];
    printf("%-32s %8s %6s %6s %6s %6s\n", "procedure", "samples", "<=5%", "<=10%", "<=15%",
           "<=25%");
    for (size_t s = 0; s < st->count; s++) {
        const symbol_t *sym = &st->syms[s];
        if (!projected_events(j->im, PMU_CYCLES, sym->addr, sym->size)) continue;
        score_t sc = { 0 };
        if (!analyse(j, sym, &sc, err, sizeof err) || !sc.scored) continue;
        printf("%-32.32s %8.0f %5.0f%% %5.0f%% %5.0f%% %5.0f%%\n", sym->name, sc.scored,
               100 * sc.within[0] / sc.scored, 100 * sc.within[1] / sc.scored,
               100 * sc.within[2] / sc.scored, 100 * sc.within[3] / sc.scored);
        add_score(&total, &sc);
        double ev = projected_events(j->im, PMU_IMISS, sym->addr, sym->size);
        if (ev) fig10_add(&imiss, ev, sc.icache_top, sc.icache_bottom, sc.icache_true);
        ev = projected_events(j->im, PMU_DMISS, sym->addr, sym->size);
        if (ev) fig10_add(&dmiss, ev, sc.dcache_top, sc.dcache_bottom, sc.dcache_true);
    }
    print_score(&total);
    printf("  Figure 10 (per procedure):\n");
    fig10_print(&imiss, "IMISS", "I-cache", j->truth != NULL);
    fig10_print(&dmiss, "DMISS", "D-cache", j->truth != NULL);
}

/* ---- main --------------------------------------------------------------------------- */

static void usage(FILE *out)
{
    fprintf(out, "usage: hps-dcpicalc [--config NAME] [--epoch N] [--truth FILE]... DB PROC "
                 "[IMAGE]\n"
                 "       hps-dcpicalc --all --truth FILE [--truth FILE]... [--config NAME] DB "
                 "IMAGE\n"
                 "  --truth FILE  the run's ground truth (hps-sim --ground-truth); one per run\n"
                 "                when the epoch merged several runs (they are summed)\n");
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        { "config", required_argument, NULL, 'c' }, { "epoch", required_argument, NULL, 'e' },
        { "truth", required_argument, NULL, 't' }, { "help", no_argument, NULL, 'h' },
        { "all", no_argument, NULL, 'a' },
        { NULL, 0, NULL, 0 }
    };
    enum { MAX_TRUTHS = 256 };
    static char *truth_paths[MAX_TRUTHS];
    size_t truths = 0;
    const char *model = NULL;
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
        case 't':
            if (truths == MAX_TRUTHS) die("--truth: more than %d files", MAX_TRUTHS);
            truth_paths[truths++] = optarg;
            break;
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
    if (all && !truths) die("--all needs --truth FILE");
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
    if (truths) read_truths(truth_paths, truths, &truth);
    job_t j = { .cfg = &cfg, .model = model, .im = im,
                .isa = machine == isa_alpha.elf_machine ? &isa_alpha : &isa_rv64,
                .period = ((double)cyc->period_min + (double)cyc->period_max) / 2.0,
                .truth = truths ? &truth : NULL, .quiet = all };
    j.icache_cost = run_icache_cost(&j, st);
    score_t sc = { 0 };
    if (all) analyse_all(&j, st);
    else if (!analyse(&j, sym, &sc, err, sizeof err)) die("%s: %s", proc, err);
    else if (truths) print_score(&sc);
    symtab_free(st);
    profdb_unload(&db);
    if (truths) dcpicalc_truth_free(&truth);
    return 0;
}
