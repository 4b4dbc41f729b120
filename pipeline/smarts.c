/*
 * smarts.c - sampled simulation (smarts.h): the sampler's phases, the
 * functional warming of the timing model's caches, TLBs and branch
 * predictor between detailed windows, and the estimate with its
 * confidence interval (statistics and the end-of-run report).
 */
#include "smarts.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "timing_model.h"
#include "util.h"

/* 99.7% confidence: three standard errors (SMARTS, section 3). */
#define SMARTS_Z 3.0

typedef enum { PH_WARM, PH_WARMUP, PH_UNIT } phase_t;

struct smarts {
    smarts_hot_t hot;            /* smarts_warm's part (smarts.h)          */
    smarts_plan_t plan;
    timing_t *t;
    phase_t phase;
    uint64_t period_start;       /* instret where the current period began */
    uint64_t next;               /* instret where the current phase ends    */
    uint64_t unit_insts0;        /* instret and cycles when the unit began  */
    uint64_t unit_cycles0;
    /* the units' CPIs: count, mean and sum of squared deviations (Welford) */
    uint64_t units, measured_insts;
    double mean, m2;
};

/* ---- the plan ----------------------------------------------------------------- */

/* One count of a spec: digits, an optional k/M/G; *text moves past it. */
static bool parse_field(const char **text, uint64_t *out)
{
    const char *p = *text;
    if (!isdigit((unsigned char)*p)) return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(p, &end, 10);
    uint64_t scale = 1;
    if (*end == 'k' || *end == 'K') scale = 1000, end++;
    else if (*end == 'M') scale = 1000000, end++;
    else if (*end == 'G') scale = 1000000000, end++;
    if (errno || v > UINT64_MAX / scale) return false;
    *out = (uint64_t)v * scale;
    *text = end;
    return true;
}

bool smarts_parse(const char *spec, smarts_plan_t *out, char *err, size_t errlen)
{
    uint64_t v[3];
    int n = 0;
    const char *p = spec;
    bool fields_ok = true;
    for (;;) {                          /* field (':' field)* */
        if (n == 3 || !parse_field(&p, &v[n])) { fields_ok = false; break; }
        n++;
        if (*p != ':') break;
        p++;
    }
    if (!fields_ok || *p || (n != 1 && n != 3))
        return set_error(err, errlen, "expected N or U:W:N (unit, warm-up and period in "
                         "instructions, suffixes k, M, G), e.g. 100k or 1000:2000:100k, got '%s'",
                         spec);
    *out = n == 1 ? (smarts_plan_t){ SMARTS_DEFAULT_UNIT, SMARTS_DEFAULT_WARMUP, v[0] }
                  : (smarts_plan_t){ v[0], v[1], v[2] };
    if (!out->unit)
        return set_error(err, errlen, "the unit U must be at least 1 instruction, got '%s'",
                         spec);
    if (out->warmup > UINT64_MAX - out->unit || out->period < out->unit + out->warmup)
        return set_error(err, errlen, "the period N must be at least U + W = %" PRIu64 " + %"
                         PRIu64 " instructions, got '%s'", out->unit, out->warmup, spec);
    return true;
}

/* ---- the phases ---------------------------------------------------------------- */

/* A measured unit ends at instret: one more CPI sample. */
static void take_unit(smarts_t *s, uint64_t instret)
{
    uint64_t insts = instret - s->unit_insts0;
    if (!insts) return;
    double cpi = (double)(s->t->cycles - s->unit_cycles0) / (double)insts;
    s->units++;
    s->measured_insts += insts;
    double d = cpi - s->mean;
    s->mean += d / (double)s->units;
    s->m2 += d * (cpi - s->mean);
}

/* From the phase that ends at s->next to the one after it. */
static void next_phase(smarts_t *s, uint64_t instret)
{
    const smarts_plan_t *p = &s->plan;
    switch (s->phase) {
    case PH_WARM:
        s->phase = PH_WARMUP;
        s->next = s->period_start + p->period - p->unit;
        s->t->fetch_line = ~0ull;      /* the first timed fetch reads the I-cache */
        break;
    case PH_WARMUP:
        s->phase = PH_UNIT;
        s->next = s->period_start + p->period;
        s->unit_insts0 = instret;
        s->unit_cycles0 = s->t->cycles;
        break;
    case PH_UNIT:
        take_unit(s, instret);
        s->phase = PH_WARM;
        s->period_start += p->period;
        s->next = s->period_start + p->period - p->unit - p->warmup;
        break;
    }
}

void smarts_switch(smarts_t *s, uint64_t instret)
{
    while (s->next <= instret) next_phase(s, instret);   /* phases of length 0 */
}

smarts_t *smarts_new(const smarts_plan_t *plan, timing_t *t)
{
    smarts_t *s = xcalloc(1, sizeof *s);
    s->plan = *plan;
    s->t = t;
    s->phase = PH_WARM;
    s->next = plan->period - plan->unit - plan->warmup;
    smarts_switch(s, 0);
    t->sampled = true;
    s->hot.line = ~0ull;
    s->hot.line_shift = t->line_shift;
    return s;
}

void smarts_free(smarts_t *s) { free(s); }

uint64_t smarts_next_switch(const smarts_t *s) { return s->next; }

bool smarts_detailed(const smarts_t *s) { return s->phase != PH_WARM; }

/* ---- functional warming ------------------------------------------------------------ */

void smarts_warm_step(smarts_t *s, const insn_t *in, uint64_t addr, uint64_t next_pc)
{
    timing_t *t = s->t;
    uint64_t line = in->pc >> s->hot.line_shift;
    if (line != s->hot.line) {         /* the timing models fetch a line once */
        s->hot.line = line;
        tlb_warm(t->itlb, in->pc);
        cache_warm(t->l1i, in->pc, false);
    }
    if (in->flags & (IF_LOAD | IF_STORE)) {
        tlb_warm(t->dtlb, addr);
        cache_warm(t->l1d, addr, !(in->flags & IF_LOAD));   /* an AMO reads, as timed */
    }
    if (in->flags & (IF_BRANCH | IF_JUMP)) bpred_warm(t->bp, in, next_pc != in->pc + in->len,
                                                      next_pc);
}

/* ---- the estimate ------------------------------------------------------------------- */

void smarts_result(const smarts_t *s, uint64_t total, smarts_result_t *r)
{
    memset(r, 0, sizeof *r);
    r->plan = s->plan;
    r->units = s->units;
    r->cpi = s->units ? s->mean : NAN;
    r->stdev = s->units > 1 ? sqrt(s->m2 / (double)(s->units - 1)) : NAN;
    r->ci = s->units > 1 ? SMARTS_Z * r->stdev / sqrt((double)s->units) : NAN;
    r->total_insts = total;
    r->detail_insts = s->t->seq;
    r->measured_insts = s->measured_insts;
    r->warmed_insts = total > s->t->seq ? total - s->t->seq : 0;
    r->cycles = r->cpi * (double)total;
    r->cycles_ci = r->ci * (double)total;
}

/* A count that is an estimate: rounded to a whole number. */
static uint64_t whole(double v) { return isfinite(v) && v > 0 ? (uint64_t)llround(v) : 0; }

void smarts_stats(const smarts_t *s, uint64_t total, stats_t *out)
{
    smarts_result_t r;
    smarts_result(s, total, &r);
    stats_add_u64(out, "sample.unit", r.plan.unit, "Count", "Instructions per measured unit (U)");
    stats_add_u64(out, "sample.warmup", r.plan.warmup, "Count",
                  "Detailed warm-up instructions before each unit (W)");
    stats_add_u64(out, "sample.period", r.plan.period, "Count",
                  "Instructions from one unit to the next (N)");
    stats_add_u64(out, "sample.units", r.units, "Count", "Units measured");
    stats_add_f64(out, "sample.cpi", r.cpi, "Cycle/Count",
                  "Estimated CPI: the mean of the units' CPIs");
    stats_add_f64(out, "sample.cpiStdev", r.stdev, "Cycle/Count",
                  "Standard deviation of the units' CPIs");
    stats_add_f64(out, "sample.cpiCI", r.ci, "Cycle/Count",
                  "Half-width of the 99.7% confidence interval of sample.cpi (3 stdev/sqrt(units))");
    stats_add_f64(out, "sample.cpiCIRelative", r.ci / r.cpi, "Ratio",
                  "sample.cpiCI / sample.cpi");
    stats_add_u64(out, "sample.totalInsts", r.total_insts, "Count", "Program instructions run");
    stats_add_u64(out, "sample.detailInsts", r.detail_insts, "Count",
                  "Instructions through the timing model (warm-ups and units)");
    stats_add_u64(out, "sample.measuredInsts", r.measured_insts, "Count",
                  "Instructions of the measured units");
    stats_add_u64(out, "sample.warmedInsts", r.warmed_insts, "Count",
                  "Instructions run functionally, warming caches, TLBs and branch predictor");
    stats_add_u64(out, "sample.detailCycles", s->t->cycles, "Cycle",
                  "Cycles the timing model simulated (the detailed windows)");
    stats_add_u64(out, "sample.estCycles", whole(r.cycles), "Cycle",
                  "Estimated cycles of the whole run: sample.cpi x sample.totalInsts");
    stats_add_u64(out, "sample.estCyclesCI", whole(r.cycles_ci), "Cycle",
                  "Half-width of the 99.7% confidence interval of sample.estCycles");
    if (!r.units) return;
    stats_add_u64(out, "cpu.cycles", whole(r.cycles), "Cycle",
                  "Cycles, estimated by sampling (sample.estCycles)");
    stats_add_f64(out, "cpu.ipc", 1.0 / r.cpi, "Count/Cycle",
                  "Instructions per cycle, estimated by sampling");
    stats_add_f64(out, "cpu.cpi", r.cpi, "Cycle/Count",
                  "Cycles per instruction, estimated by sampling (sample.cpi)");
}

void smarts_report(const smarts_t *s, uint64_t total, FILE *out)
{
    smarts_result_t r;
    smarts_result(s, total, &r);
    fprintf(out, "sampled simulation (SMARTS): unit U = %" PRIu64 ", warm-up W = %" PRIu64
            ", period N = %" PRIu64 " instructions\n", r.plan.unit, r.plan.warmup, r.plan.period);
    if (!r.units) {
        fprintf(out, "  no unit measured: the run ended after %" PRIu64 " instructions, within "
                "the first period; no estimate (use a smaller N)\n", total);
        return;
    }
    if (r.units > 1)
        fprintf(out, "  CPI %.4f +- %.4f (99.7%% confidence, +-%.2f%%) from %" PRIu64
                " units; standard deviation %.4f\n", r.cpi, r.ci, 100.0 * r.ci / r.cpi,
                r.units, r.stdev);
    else
        fprintf(out, "  CPI %.4f from 1 unit: no confidence interval (use a smaller N)\n", r.cpi);
    fprintf(out, "  cycles %" PRIu64 " (estimate", whole(r.cycles));
    if (r.units > 1) fprintf(out, " +- %" PRIu64, whole(r.cycles_ci));
    fprintf(out, ")\n  instructions %" PRIu64 ": %" PRIu64 " in detail (%.1f%%; %" PRIu64
            " measured), %" PRIu64 " functionally warmed\n", r.total_insts, r.detail_insts,
            total ? 100.0 * (double)r.detail_insts / (double)total : 0.0, r.measured_insts,
            r.warmed_insts);
    fprintf(out, "  cycles and CPI are estimates; the model's other statistics count the "
            "detailed instructions only\n");
}
