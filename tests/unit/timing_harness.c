/*
 * timing_harness.c - the runner of the timing-model unit tests
 * (timing_harness.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "core.h"
#include "mem.h"
#include "pmu.h"
#include "rv64.h"
#include "timing_harness.h"

#include "engine.h"

const char *const none[] = { NULL };
harness_truth_t harness_truth;

/* Parse the ground-truth file into r (rows of instructions at CODE). */
static void read_truth(FILE *f, result_t *r)
{
    char line[1024];
    rewind(f);
    while (fgets(line, sizeof line, f)) {
        if (line[0] != '0') continue;                 /* comments, header */
        char *save = NULL;
        uint64_t pc = strtoull(strtok_r(line, "\t", &save), NULL, 16);
        strtok_r(NULL, "\t", &save);                  /* symbol */
        uint64_t count = strtoull(strtok_r(NULL, "\t", &save), NULL, 10);
        uint64_t head = strtoull(strtok_r(NULL, "\t", &save), NULL, 10);
        r->head_sum += head;
        uint64_t k = (pc - CODE) / 4;
        if (pc < CODE || k >= MAXN) continue;        /* not the program (a handler) */
        r->head[k] = head;
        r->count[k] = count;
        for (int s = 1; s < STALL_COUNT; s++)
            r->stall[k][s] = strtoull(strtok_r(NULL, "\t", &save), NULL, 10);
        r->profiler[k] = strtoull(strtok_r(NULL, "\t", &save), NULL, 10);
        char *cul = strtok_r(NULL, "\t\n", &save);
        r->culprit[k] = cul[0] == '-' ? 0 : strtoull(cul, NULL, 16);
    }
}

/* One pc's heads (timing_for_each_head) into the result. */
static void keep_head(void *ctx, uint64_t pc, uint64_t count, uint64_t head)
{
    result_t *r = ctx;
    r->head_sum += head;
    uint64_t k = (pc - CODE) / 4;
    if (pc < CODE || k >= MAXN) return;
    r->head[k] = head;
    r->count[k] = count;
}

/* The model's statistics as "name value" lines (integers; others rounded
 * down) for result_stat. */
static void keep_stats(const timing_t *t, const cpu_t *cpu, result_t *r)
{
    stats_t st = { 0 };
    timing_stats(t, cpu, &st);
    size_t used = 0;
    for (size_t k = 0; k < st.count; k++) {
        const stat_entry_t *e = &st.entries[k];
        unsigned long long v = e->is_int ? e->ivalue : (unsigned long long)e->fvalue;
        int n = snprintf(r->stats + used, sizeof r->stats - used, "%s %llu\n", e->name, v);
        if (n < 0 || (size_t)n >= sizeof r->stats - used) break;
        used += (size_t)n;
    }
    stats_free(&st);
}

void run_code(const char *model, const char *const *sets, const uint32_t *code, size_t len,
              size_t n, result_t *r)
{
    run_code_pmu(model, sets, code, len, n, NULL, r);
}

void run_code_pmu(const char *model, const char *const *sets, const uint32_t *code, size_t len,
                  size_t n, struct pmu *pmu, result_t *r)
{
    config_t cfg;
    char err[512];
    config_defaults(&cfg);
    assert_true(config_load(&cfg, model, err, sizeof err));
    const char *fetch[] = { "l1i.line=4KiB", "l2.line=4KiB", "itlb.miss_penalty=0", NULL };
    for (size_t k = 0; fetch[k]; k++) assert_true(config_set(&cfg, fetch[k], err, sizeof err));
    for (size_t k = 0; sets && sets[k]; k++)
        if (!config_set(&cfg, sets[k], err, sizeof err)) fail_msg("%s", err);
    if (!config_validate(&cfg, err, sizeof err)) fail_msg("%s", err);

    mem_t *mem = mem_new();
    assert_true(mem_map(mem, CODE, 0x1000, MEM_PROT_READ | MEM_PROT_EXEC));
    assert_true(mem_map(mem, DATA, 0x1000, MEM_PROT_READ | MEM_PROT_WRITE));
    assert_true(len <= MAXN);
    for (size_t k = 0; k < len; k++) {
        uint8_t b[4] = { (uint8_t)code[k], (uint8_t)(code[k] >> 8), (uint8_t)(code[k] >> 16),
                         (uint8_t)(code[k] >> 24) };
        assert_true(mem_write(mem, CODE + 4 * k, b, 4));
    }
    cpu_t *cpu = calloc(1, sizeof *cpu);
    cpu_init(cpu, &isa_rv64, mem);
    cpu->pc = CODE;
    cpu->reg[A0] = DATA;

    timing_t *t = timing_new(&cfg, err, sizeof err);
    if (!t) fail_msg("%s", err);
    FILE *gt = tmpfile();
    assert_non_null(gt);
    if (harness_truth.flat_hi > harness_truth.flat_lo)
        timing_set_code(t, harness_truth.flat_lo, harness_truth.flat_hi);
    timing_outputs_t out = { .ground_truth = harness_truth.heads_only ? NULL : gt };
    if (getenv("HPS_TEST_DIAGRAM")) {         /* debugging: every run's diagram */
        out.diagram = stderr;
        out.view_to = n;
    }
    timing_set_outputs(t, &out);
    if (harness_truth.heads_only) timing_keep_heads(t);
    if (pmu) pmu_attach(pmu, cpu, &timing_hot(t)->head_sum);
    engine_parts_t parts = { .cpu = cpu, .timing = t, .pmu = pmu };
    if (engine_run_once(&parts, n, err, sizeof err) == STOP_NONE) fail_msg("%s", err);
    if (cpu->instret != n)
        fail_msg("stopped after %llu instructions (reason %d)", (unsigned long long)cpu->instret,
                 (int)cpu->stop);
    timing_finish(t);
    memset(r, 0, sizeof *r);
    r->cycles = cpu->cycle;
    keep_stats(t, cpu, r);
    if (pmu) {
        stats_t st = { 0 };
        pmu_stats(pmu, &st);
        size_t used = strlen(r->stats);
        for (size_t k = 0; k < st.count && used + 128 < sizeof r->stats; k++)
            used += (size_t)snprintf(r->stats + used, sizeof r->stats - used, "%s %llu\n",
                                     st.entries[k].name,
                                     (unsigned long long)st.entries[k].ivalue);
        stats_free(&st);
    }
    if (harness_truth.heads_only) timing_for_each_head(t, keep_head, r);
    else read_truth(gt, r);
    fclose(gt);
    timing_free(t);
    free(cpu);
    mem_free(mem);
}


uint64_t result_stat(const result_t *r, const char *name)
{
    size_t len = strlen(name);
    for (const char *p = r->stats; (p = strstr(p, name)); p += len) {
        bool starts_line = p == r->stats || p[-1] == '\n';
        if (starts_line && p[len] == ' ') return strtoull(p + len, NULL, 10);
    }
    return ~0ull;
}
