/*
 * cct_run.c - --cct and --csprof on the command line (cct_run.h): the
 * exact observer rides on the ground-truth recorder, csprof on the
 * performance counters with the trampoline as the engine's trap.
 */
#include "cct_run.h"

#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "sys.h"
#include "timing.h"
#include "util.h"

void cct_run_setup(cct_run_t *r, const options_t *o, cpu_t *cpu, const symtab_t *symtab,
                   uint64_t entry_pc, truth_t *truth)
{
    memset(r, 0, sizeof *r);
    if (!o->cct && !o->csprof) return;
    options_check_export_spec(o->cct_out, "--cct-out");
    options_check_export_spec(o->csprof_out, "--csprof-out");
    r->on = true;
    r->timed = o->cfg.model != CFG_MODEL_FUNCTIONAL;
    unsigned sp = cpu->isa->elf_machine == EM_ALPHA ? 30 : 2;
    cct_truth_init(&r->exact, symtab, sp, entry_pc);
    if (cpu->sys) cct_truth_set_tid(&r->exact, cpu->sys->tid);
    truth->cct = &r->exact;
    if (!o->csprof) return;
    char err[512];
    csprof_options_t c = { .program = o->guest_argv[0], .seed = o->seed,
                           .host_unwinder = o->csprof_host_unwinder };
    c.hw = (pmu_config_t){ .counters = 1, .counter_bits = (unsigned)o->cfg.pmu_counter_bits,
                           .skid = (unsigned)o->cfg.pmu_skid };
    if (!csprof_parse(o->csprof, c.hw.counter_bits, &c, err, sizeof err)) bad_input("%s", err);
    r->csprof = csprof_new(&c, cpu, symtab, err, sizeof err);
    if (!r->csprof) bad_input("%s", err);
    r->exact.trampoline = csprof_trampoline_pc(r->csprof);
    csprof_set_truth(r->csprof, &r->exact);
}

void cct_run_parts(cct_run_t *r, engine_parts_t *parts)
{
    if (r->on && parts->timing) r->head_sum = &timing_hot(parts->timing)->head_sum;
    if (r->csprof) {
        pmu_attach(csprof_pmu(r->csprof), parts->cpu, &timing_hot(parts->timing)->head_sum);
        parts->pmu = csprof_pmu(r->csprof);
        parts->trap_pc = csprof_trampoline_pc(r->csprof);
        parts->trap = csprof_trampoline;
        parts->trap_ctx = r->csprof;
    }
    if (r->on && parts->pmu) {          /* the miss events the timing model reports */
        r->exact.events = pmu_event_counts(parts->pmu) + PMU_IMISS;
        r->exact.nevents = PMU_PROFILEME + 1 - PMU_IMISS;   /* imiss..profileme */
    }
}

/* Write the trees trees[0..ntrees-1] to "FMT:FILE", each under a root
 * frame labels[k] (NULL: none); false + message on stderr. */
static bool export_trees(const cct_t *const *trees, const char *const *labels, size_t ntrees,
                         const char *spec, const cct_metric_t *ms, const char *const *names,
                         size_t nm, const symtab_t *symtab, const char *image, const char *desc)
{
    const char *colon = strchr(spec, ':');
    char fmt_name[16];
    export_format_t fmt;
    snprintf(fmt_name, sizeof fmt_name, "%.*s", colon ? (int)(colon - spec) : 0, spec);
    if (!colon || !colon[1] || !export_format_by_name(fmt_name, &fmt)) {
        fprintf(stderr, "hps-sim: '%s': expected FORMAT:FILE with FORMAT callgrind, pprof or "
                "folded\n", spec);
        return false;
    }
    export_profile_t *p = export_new("hps-sim", nm, (const char *const *)names, NULL);
    export_add_comment(p, desc);
    for (size_t k = 0; k < ntrees; k++)
        cct_export_under(trees[k], labels[k], ms, nm, symtab, image, p);
    char err[512];
    bool ok = export_write(p, fmt, 0, colon + 1, err, sizeof err);
    if (!ok) fprintf(stderr, "hps-sim: %s\n", err);
    export_free(p);
    return ok;
}

/* Write tree t to "FMT:FILE"; false + message on stderr. */
static bool export_tree(const cct_t *t, const char *spec, const cct_metric_t *ms,
                        const char *const *names, size_t nm, const symtab_t *symtab,
                        const char *image, const char *desc)
{
    const char *none = NULL;
    return export_trees(&t, &none, 1, spec, ms, names, nm, symtab, image, desc);
}

/* The exact trees, one per thread under "thread N" when the run had
 * several (a single-threaded run's file is as it always was). */
static bool export_exact(const cct_truth_t *x, const char *spec, const cct_metric_t *ms,
                         const char *const *names, size_t nm, const symtab_t *symtab,
                         const char *image, const char *desc)
{
    size_t n = cct_truth_threads(x);
    const cct_t **trees = xcalloc(n, sizeof *trees);
    const char **labels = xcalloc(n, sizeof *labels);
    char (*text)[32] = xcalloc(n, sizeof *text);
    for (size_t k = 0; k < n; k++) {
        uint64_t tid;
        trees[k] = cct_truth_thread_tree(x, k, &tid);
        snprintf(text[k], sizeof text[k], "thread %" PRIu64, tid);
        labels[k] = n > 1 ? text[k] : NULL;
    }
    bool ok = export_trees(trees, labels, n, spec, ms, names, nm, symtab, image, desc);
    free(text);
    free(labels);
    free(trees);
    return ok;
}

static void print_exact(const cct_run_t *r, const options_t *o, const symtab_t *symtab,
                        FILE *out)
{
    const cct_truth_t *x = &r->exact;
    size_t n = cct_truth_threads(x), contexts = 0;
    for (size_t k = 0; k < n; k++) {
        uint64_t tid;
        contexts += cct_truth_thread_tree(x, k, &tid)->n - 1;
    }
    char threads[48] = "";
    if (n > 1) snprintf(threads, sizeof threads, " (one per thread, %zu threads)", n);
    fprintf(out, "\nexact calling context tree%s: %zu contexts, depth up to %zu; %" PRIu64
            " calls, %" PRIu64 " returns (%" PRIu64 " non-local), %" PRIu64 " tail calls, %"
            PRIu64 " returns to no frame\n", threads, contexts, x->max_depth, x->calls,
            x->returns, x->nonlocal_returns, x->tail_calls, x->unmatched_returns);
    cct_metric_t m = r->timed ? CCT_CYCLES : CCT_INSTS;
    double min = o->cct_min < 0 ? 0.01 : o->cct_min;
    if (n == 1) {
        cct_print(&x->tree, m, min, 500, symtab, out);
        return;
    }
    for (size_t k = 0; k < n; k++) {                /* one tree per thread, by tid */
        uint64_t tid;
        const cct_t *t = cct_truth_thread_tree(x, k, &tid);
        fprintf(out, "thread %" PRIu64 ": %zu contexts\n", tid, t->n - 1);
        cct_print(t, m, min, 500, symtab, out);
    }
}

int cct_run_finish(cct_run_t *r, const options_t *o, const cpu_t *cpu, const symtab_t *symtab,
                   FILE *report, int status)
{
    if (!r->on) return status;
    cct_truth_settle(&r->exact, cpu->instret, r->head_sum ? *r->head_sum : 0);
    FILE *out = report ? report : stderr;
    if (o->cct) print_exact(r, o, symtab, out);
    if (r->csprof) {
        csprof_finish(r->csprof);
        csprof_report(r->csprof, &r->exact, cpu->cycle, cpu->instret, out);
        if (o->cct) {
            fprintf(out, "\nsampled calling context tree (csprof):\n");
            cct_print(csprof_tree(r->csprof), CCT_SAMPLES, o->cct_min < 0 ? 0.01 : o->cct_min,
                      500, symtab, out);
        }
    }
    const char *image = o->guest_argv[0];
    if (o->cct_out) {
        cct_metric_t ms[2 + CCT_MAX_EVENTS] = { CCT_INSTS, CCT_CYCLES };
        const char *names[2 + CCT_MAX_EVENTS] = { "insts", "cycles" };
        size_t nm = r->timed ? 2 : 1;
        for (unsigned k = 0; k < r->exact.nevents; k++) {
            ms[nm] = (cct_metric_t)(CCT_EVENT0 + k);
            names[nm++] = pmu_event_names[PMU_IMISS + k];
        }
        if (!export_exact(&r->exact, o->cct_out, ms, names, nm, symtab, image,
                         "the exact calling context tree of hps-sim --cct"))
            status = EXIT_BAD_INPUT;
    }
    if (o->csprof_out) {
        cct_metric_t ms[] = { CCT_SAMPLES };
        const char *names[] = { "samples" };
        if (!export_tree(csprof_tree(r->csprof), o->csprof_out, ms, names, 1, symtab, image,
                         "the sampled calling context tree of hps-sim --csprof"))
            status = EXIT_BAD_INPUT;
    }
    return status;
}

void cct_run_free(cct_run_t *r)
{
    if (!r->on) return;
    csprof_free(r->csprof);
    cct_truth_free(&r->exact);
    r->on = false;
}
