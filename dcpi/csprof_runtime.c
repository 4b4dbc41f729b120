/*
 * csprof_runtime.c - the host's side of csprof's guest handlers
 * (productions/runtime/csprof_driver.c, csprof_guest.h): it loads the
 * handler runtime, writes the unwind and return-address tables csprof.c
 * derived from the binary and the sampler's configuration into the
 * runtime's memory, hands the PMU's interrupt to CSPROF_interrupt, enters
 * CSPROF_trampoline when a return faults at the trampoline's address and
 * resumes the program where the handler says, and after the run reads the
 * per-thread trees and the counters back out.  What the handlers cost is
 * what the run loop counted in them: instructions and head cycles.
 */
#include "csprof.h"

#include <inttypes.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "runtime.h"
#include "sys.h"
#include "util.h"

/* A sample's two contexts: the guest's node and the exact observer's
 * running one at the interrupt. */
typedef struct sample_pair { uint32_t guest, exact; } sample_pair_t;

struct csprof_guest {
    runtime_t *rt;
    pmu_t *pmu;
    uint64_t state;                  /* guest address of csprof_guest      */
    uint64_t tramp_entry;            /* CSPROF_trampoline                   */
    uint64_t trampoline;
    runtime_client_t client;         /* the trampoline handler's frames    */
    bool lost;                       /* the handler did not know the return */
    const cct_truth_t *truth;
    uint64_t seen_samples;           /* st.samples at the last interrupt    */
    uint32_t pending_exact;          /* the exact context of that sample    */
    bool pending;
    sample_pair_t *pairs;
    size_t npairs, cap;
};

static uint64_t field(const csprof_guest_t *g, size_t off)
{
    uint64_t v = 0;
    mem_read(runtime_mem(g->rt), g->state + off, &v, sizeof v);
    return v;
}

/* The previous sample's guest context, now that its handler has run. */
static void settle_pending(csprof_guest_t *g)
{
    if (!g->pending) return;
    g->pending = false;
    uint64_t n = field(g, offsetof(cspg_state_t, samples));
    if (n != g->seen_samples + 1) return;    /* the handler took no sample */
    g->seen_samples = n;
    if (g->npairs == g->cap) {
        g->cap = g->cap ? 2 * g->cap : 1024;
        g->pairs = xrealloc(g->pairs, g->cap * sizeof *g->pairs);
    }
    g->pairs[g->npairs++] = (sample_pair_t){
        (uint32_t)field(g, offsetof(cspg_state_t, last_node)), g->pending_exact };
}

/* At each interrupt: the exact context now running (the sample's). */
static void on_sample(void *ctx, cpu_t *c, uint64_t pc)
{
    csprof_guest_t *g = ctx;
    (void)pc;
    settle_pending(g);
    /* the trap frame's pc: where the program resumes (its registers' pc) */
    uint64_t resume = runtime_top(g->rt) ? runtime_top(g->rt)->resume_pc : c->pc;
    mem_write(runtime_mem(g->rt), g->state + offsetof(cspg_state_t, interrupted_pc), &resume,
              sizeof resume);
    g->seen_samples = field(g, offsetof(cspg_state_t, samples));
    if (!g->truth) return;
    g->pending = true;
    g->pending_exact = g->truth->cur;
}

/* CSPROF_trampoline returned: resume where it says. */
static void tramp_returned(void *ctx, cpu_t *c)
{
    csprof_guest_t *g = ctx;
    uint64_t back = field(g, offsetof(cspg_state_t, resume));
    if (back) {
        c->pc = back;
        return;
    }
    g->lost = true;                          /* the fault is reported as it is */
    c->pc = g->trampoline;
}

static bool write_table(mem_t *m, uint64_t at, const void *data, size_t bytes)
{
    return !bytes || mem_write(m, at, data, bytes);
}

/* The bucket index of the text over both tables (csprof_guest.h). */
static bool write_index(csprof_guest_t *g, const csprof_guest_config_t *cfg, cspg_state_t *st)
{
    uint64_t lo = cfg->nrules ? cfg->rules[0].lo : 0;
    uint64_t hi = cfg->nrules ? cfg->rules[cfg->nrules - 1].lo : 0;
    unsigned shift = 0;
    while (((hi - lo) >> shift) >= CSPG_INDEX - 1) shift++;
    st->text_lo = lo;
    st->index_shift = shift;
    st->nbuckets = ((hi - lo) >> shift) + 1;
    uint32_t *ri = xcalloc(st->nbuckets + 1, sizeof *ri), *ti = xcalloc(st->nbuckets + 1, sizeof *ti);
    size_t r = 0, t = 0;
    for (uint64_t b = 0; b <= st->nbuckets; b++) {   /* entries below the bucket */
        uint64_t start = lo + (b << shift);
        while (r < cfg->nrules && cfg->rules[r].lo < start) r++;
        while (t < cfg->nrets && (cfg->rets[t] & ~1ull) < start) t++;
        ri[b] = (uint32_t)r;
        ti[b] = (uint32_t)t;
    }
    mem_t *m = runtime_mem(g->rt);
    size_t bytes = (st->nbuckets + 1) * sizeof *ri;
    bool ok = write_table(m, g->state + offsetof(cspg_t, rule_index), ri, bytes) &&
              write_table(m, g->state + offsetof(cspg_t, ret_index), ti, bytes);
    free(ri);
    free(ti);
    return ok;
}

csprof_guest_t *csprof_guest_new(cpu_t *c, const csprof_guest_config_t *cfg, char *err,
                                 size_t errlen)
{
    if (cfg->nrules > CSPG_MAX_RULES || cfg->nrets > CSPG_MAX_RETS) {
        set_error(err, errlen, "--csprof: the program needs %zu unwind ranges and %zu return "
                  "addresses; the guest handler's tables hold %u and %u (csprof_guest.h)",
                  cfg->nrules, cfg->nrets, CSPG_MAX_RULES, CSPG_MAX_RETS);
        return NULL;
    }
    csprof_guest_t *g = xcalloc(1, sizeof *g);
    g->trampoline = cfg->trampoline;
    g->rt = runtime_load(c->isa, err, errlen);
    if (!g->rt) goto bad;
    g->state = runtime_symbol(g->rt, "csprof_guest");
    uint64_t entry = runtime_symbol(g->rt, "CSPROF_interrupt");
    g->tramp_entry = runtime_symbol(g->rt, "CSPROF_trampoline");
    if (!g->state || !entry || !g->tramp_entry) {
        set_error(err, errlen, "handler runtime: no csprof handlers (csprof_guest, "
                  "CSPROF_interrupt, CSPROF_trampoline)");
        goto bad;
    }
    mem_t *m = runtime_mem(g->rt);
    cspg_state_t st = { .trampoline = cfg->trampoline, .nrules = cfg->nrules,
                        .nrets = cfg->nrets, .seed = cfg->opt.seed * 2862933555777941757ull + 3037000493ull,
                        .period_lo = cfg->opt.period_lo,
                        .period_span = cfg->opt.period_hi - cfg->opt.period_lo + 1,
                        .wrap = 1ull << cfg->opt.hw.counter_bits, .ra_reg = cfg->ra_reg,
                        .sp_reg = cfg->sp_reg, .fp_reg = cfg->fp_reg, .nnodes = 1 };
    cspg_node_t root = { .parent = CSPG_NONE, .child = CSPG_NONE, .sibling = CSPG_NONE };
    if (!write_table(m, g->state + offsetof(cspg_t, rules), cfg->rules,
                     cfg->nrules * sizeof *cfg->rules) ||
        !write_table(m, g->state + offsetof(cspg_t, rets), cfg->rets,
                     cfg->nrets * sizeof *cfg->rets) ||
        !write_table(m, g->state + offsetof(cspg_t, nodes), &root, sizeof root)) {
        set_error(err, errlen, "handler runtime: csprof's tables are not mapped");
        goto bad;
    }
    if (!write_index(g, cfg, &st)) {
        set_error(err, errlen, "handler runtime: csprof's index is not mapped");
        goto bad;
    }
    st.magic = CSPG_MAGIC;
    mem_write(m, g->state, &st, sizeof st);
    pmu_handler_t h = { .runtime = g->rt, .entry = entry, .pid = SYS_GUEST_PID };
    g->pmu = pmu_new(&cfg->opt.hw, &h);
    pmu_set_sample_hook(g->pmu, on_sample, g);
    uint64_t first = cfg->opt.period_lo + (cfg->opt.period_hi - cfg->opt.period_lo) / 2;
    pmu_program(g->pmu, 0, cfg->opt.event, (1ull << cfg->opt.hw.counter_bits) - first);
    g->client = (runtime_client_t){ .name = "csprof trampoline", .returned = tramp_returned,
                                    .ctx = g };
    return g;
bad:
    csprof_guest_free(g);
    return NULL;
}

void csprof_guest_free(csprof_guest_t *g)
{
    if (!g) return;
    if (g->pmu) pmu_free(g->pmu);
    if (g->rt) runtime_free(g->rt);
    free(g->pairs);
    free(g);
}

pmu_t *csprof_guest_pmu(csprof_guest_t *g) { return g->pmu; }
void csprof_guest_set_truth(csprof_guest_t *g, const cct_truth_t *t) { g->truth = t; }

/* A return faulted at the trampoline: enter CSPROF_trampoline with the
 * running thread's id; false (the fault stands) when it could not say
 * where the return goes. */
bool csprof_guest_trampoline(csprof_guest_t *g, cpu_t *c)
{
    if (g->lost || c->pc != g->trampoline) return false;
    uint64_t args[2] = { c->sys ? c->sys->tid : SYS_GUEST_PID, c->pc };
    return runtime_call(g->rt, c, &g->client, g->tramp_entry, args, 2, 0);
}

void csprof_guest_read(csprof_guest_t *g, cct_t *tree, cspg_state_t *st,
                       csprof_guest_thread_t *threads, unsigned *nthreads, uint32_t **pairs,
                       size_t *npairs)
{
    settle_pending(g);
    mem_t *m = runtime_mem(g->rt);
    mem_read(m, g->state, st, sizeof *st);
    size_t n = st->nnodes < CSPG_MAX_NODES ? st->nnodes : CSPG_MAX_NODES;
    uint32_t *map = xcalloc(n ? n : 1, sizeof *map);
    map[0] = CCT_ROOT;
    for (size_t k = 1; k < n; k++) {         /* parents come before children */
        cspg_node_t x;
        mem_read(m, g->state + offsetof(cspg_t, nodes) + k * sizeof x, &x, sizeof x);
        map[k] = x.parent == 0 || x.parent >= k ? CCT_ROOT   /* a thread's root */
                 : cct_child(tree, map[x.parent], x.site, x.entry);
        tree->nodes[map[k]].samples += x.samples;
        tree->nodes[map[k]].calls += x.calls;
    }
    *nthreads = 0;
    for (unsigned k = 0; k < CSPG_MAX_THREADS; k++) {
        size_t at = offsetof(cspg_t, threads) + k * sizeof(cspg_thread_t);
        uint64_t tid = 0, samples = 0, failures = 0;
        mem_read(m, g->state + at + offsetof(cspg_thread_t, tid), &tid, 8);
        if (!tid) break;
        mem_read(m, g->state + at + offsetof(cspg_thread_t, samples), &samples, 8);
        mem_read(m, g->state + at + offsetof(cspg_thread_t, failures), &failures, 8);
        threads[(*nthreads)++] = (csprof_guest_thread_t){ tid, samples, failures };
    }
    /* the pairs, in the host tree's ids: guest, exact alternating */
    uint32_t *out = xcalloc(2 * g->npairs + 1, sizeof *out);
    for (size_t k = 0; k < g->npairs; k++) {
        out[2 * k] = g->pairs[k].guest < n ? map[g->pairs[k].guest] : CCT_ROOT;
        out[2 * k + 1] = g->pairs[k].exact;
    }
    *pairs = out;
    *npairs = g->npairs;
    free(map);
}

uint64_t csprof_guest_insts(const csprof_guest_t *g)
{
    return pmu_handler_insts(g->pmu) + g->client.insts;
}

uint64_t csprof_guest_cycles(const csprof_guest_t *g)
{
    return pmu_handler_cycles(g->pmu) + g->client.head_cycles;
}

uint64_t csprof_guest_trampoline_insts(const csprof_guest_t *g) { return g->client.insts; }
