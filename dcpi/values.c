/*
 * values.c - value sampling on the DCPI interrupts, the host's side
 * (values.h): the option, the latch and the hook that enters the guest
 * value driver, the exact per-PC value truth, and the profiles, scores,
 * files and report made from the hot lists at the end of the run.
 */
#include "values.h"

#include <elf.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "export.h"
#include "mem.h"
#include "runtime.h"
#include "symtab.h"
#include "timing.h"
#include "util.h"
#include "../productions/runtime/value_hotlist.h"

static const char *const kind_names[VK_COUNT] = {
    "result", "operand1", "operand2", "addr", "latency", "ra"
};
static const char *const latency_names[4] = { "?", "L1", "L2", "mem" };

/* ---- the option ------------------------------------------------------------------ */

static bool parse_unsigned(const char *s, unsigned lo, unsigned hi, unsigned *out)
{
    char *end;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *end || v < lo || v > hi) return false;
    *out = (unsigned)v;
    return true;
}

/* One kind name: its bits, 0 when it is none. */
static unsigned kind_bits(const char *name)
{
    if (!strcmp(name, "all")) return (1u << VK_COUNT) - 1;
    if (!strcmp(name, "operands")) return 1u << VK_OPERAND1 | 1u << VK_OPERAND2;
    for (unsigned k = 0; k < VK_COUNT; k++)
        if (!strcmp(name, kind_names[k])) return 1u << k;
    return 0;
}

static bool parse_param(const char *item, values_options_t *o, char *err, size_t errlen)
{
    const char *eq = strchr(item, '=');
    size_t len = (size_t)(eq - item);
    const char *val = eq + 1;
    if (len == 4 && !strncmp(item, "size", 4)) {
        if (!parse_unsigned(val, 1, VH_SIZE_MAX, &o->list_size))
            return set_error(err, errlen, "--values: '%s': size must be 1..%u", item, VH_SIZE_MAX);
    } else if (len == 6 && !strncmp(item, "growth", 6)) {
        char *end;
        o->growth = strtod(val, &end);
        if (!*val || *end || !(o->growth > 1.0 && o->growth <= 16.0))
            return set_error(err, errlen, "--values: '%s': growth must be a number in (1, 16]",
                             item);
    } else if (len == 3 && !strncmp(item, "cap", 3)) {
        if (!parse_unsigned(val, 0, 1u << 16, &o->cap))
            return set_error(err, errlen, "--values: '%s': cap must be 0..65536", item);
    } else if (len == 3 && !strncmp(item, "min", 3)) {
        if (!parse_unsigned(val, 1, 1u << 30, &o->min_samples))
            return set_error(err, errlen, "--values: '%s': min must be at least 1", item);
    } else if (len == 1 && item[0] == 'k') {
        if (!parse_unsigned(val, 1, VH_SIZE_MAX, &o->top_k))
            return set_error(err, errlen, "--values: '%s': k must be 1..%u", item, VH_SIZE_MAX);
    } else {
        return set_error(err, errlen, "--values: '%s': unknown parameter (expected size=, "
                         "growth=, cap=, min= or k=)", item);
    }
    return true;
}

bool values_parse(const char *text, values_options_t *o, char *err, size_t errlen)
{
    uint64_t seed = o->seed;
    *o = (values_options_t){ .list_size = 8, .growth = 1.5, .cap = 64, .min_samples = 16,
                             .top_k = 3, .seed = seed };
    char buf[512];
    if (strlen(text) >= sizeof buf) return set_error(err, errlen, "--values: list too long");
    strcpy(buf, text);
    for (char *save = NULL, *item = strtok_r(buf, ",", &save); item;
         item = strtok_r(NULL, ",", &save)) {
        if (strchr(item, '=')) {
            if (!parse_param(item, o, err, errlen)) return false;
            continue;
        }
        unsigned bits = kind_bits(item);
        if (!bits)
            return set_error(err, errlen, "--values: '%s': unknown kind (expected result, "
                             "operands, operand1, operand2, addr, latency, ra or all)", item);
        o->kinds |= bits;
    }
    if (!o->kinds)
        return set_error(err, errlen, "--values '%s': no kind of value selected (result, "
                         "operands, addr, latency, ra or all)", text);
    if (o->top_k > o->list_size)
        return set_error(err, errlen, "--values: k=%u is more than the list size %u", o->top_k,
                         o->list_size);
    return true;
}

/* ---- the exact values (the truth) ----------------------------------------------- */

typedef struct tvalue { uint64_t value, count; } tvalue_t;

typedef struct tlist {          /* the exact values of one (pc, kind)           */
    tvalue_t *v;
    unsigned n, alloc, last;    /* last: the index that matched last time       */
    uint64_t executions;
    uint64_t overflow;          /* executions whose value found the list full   */
} tlist_t;

typedef struct tpc {
    uint64_t pc;                /* 0: free hash slot                            */
    tlist_t k[VK_COUNT];
} tpc_t;

/* What the latch holds: the last program instruction's values. */
typedef struct latch {
    const insn_t *in;
    uint64_t pc, op1, op2, addr;
    tpc_t *pending;             /* its truth still waits for its latency bin    */
} latch_t;

typedef struct vprofile {       /* one hot list, read out and scored            */
    vh_list_t list;
    const tlist_t *truth;       /* NULL without truth                           */
    double inv_est, inv_true;   /* top value's share                            */
    double topk_est, topk_true; /* the top k's share                            */
    double overlap;             /* |top k est ∩ top k true| / k                 */
    bool exact_top1, exact_topk;   /* the truth knows its top value / top k     */
    bool scored;
} vprofile_t;

struct values {
    values_options_t opt;
    runtime_t *runtime;
    pmu_t *pmu;
    const cache_t *l1d, *l2;
    uint64_t driver, entry;     /* value_driver, VALUE_interrupt                */
    unsigned ra_reg;
    runtime_client_t client;    /* the value handler's frames                   */
    const isa_t *isa;

    latch_t latch;
    tpc_t *tpcs;                /* open hash by pc                              */
    size_t tpc_slots, tpc_used;
    uint64_t unwrapped;         /* decoded instructions left unwrapped          */
    uint64_t latched_samples, unlatched_samples, dropped_calls;

    vh_table_t *table;          /* read out at the end                          */
    vh_table_t *replay;         /* the host's run of the same code on the same
                                   captures: the guest's table must equal it     */
    bool replay_equal;
    vprofile_t *prof;
    size_t nprof;
    const struct symtab *symtab;
    /* scores, over the scored lists, weighted by samples */
    double mean_overlap, mean_inv_err, mean_topk_err;
    uint64_t scored, scored_samples, saturated;
    bool finished;
};

static values_t *active;        /* the one the semantics wrapper serves          */

static tpc_t *tpc_find(values_t *v, uint64_t pc)
{
    size_t mask = v->tpc_slots - 1;
    for (size_t s = (pc * 0x9e3779b97f4a7c15ull) >> 20 & mask;; s = (s + 1) & mask) {
        if (v->tpcs[s].pc == pc) return &v->tpcs[s];
        if (v->tpcs[s].pc == 0) return NULL;
    }
}

static tpc_t *tpc_insert(values_t *v, uint64_t pc)
{
    if ((v->tpc_used + 1) * 2 > v->tpc_slots) {        /* grow: keep it half empty */
        tpc_t *old = v->tpcs;
        size_t n = v->tpc_slots;
        v->tpc_slots = n * 2;
        v->tpcs = xcalloc(v->tpc_slots, sizeof *v->tpcs);
        size_t mask = v->tpc_slots - 1;
        for (size_t k = 0; k < n; k++) {
            if (!old[k].pc) continue;
            size_t s = (old[k].pc * 0x9e3779b97f4a7c15ull) >> 20 & mask;
            while (v->tpcs[s].pc) s = (s + 1) & mask;
            v->tpcs[s] = old[k];
        }
        free(old);
    }
    size_t mask = v->tpc_slots - 1;
    size_t s = (pc * 0x9e3779b97f4a7c15ull) >> 20 & mask;
    while (v->tpcs[s].pc) s = (s + 1) & mask;
    v->tpcs[s].pc = pc;
    v->tpc_used++;
    return &v->tpcs[s];
}

/* Count one execution's value, exactly while the list has room. */
static void tlist_add(tlist_t *t, uint64_t value, unsigned cap)
{
    t->executions++;
    if (t->last < t->n && t->v[t->last].value == value) {
        t->v[t->last].count++;
        return;
    }
    for (unsigned k = 0; k < t->n; k++) {
        if (t->v[k].value == value) {
            t->v[k].count++;
            t->last = k;
            return;
        }
    }
    if (t->n == cap) {
        t->overflow++;
        return;
    }
    if (t->n == t->alloc) {
        t->alloc = t->alloc ? t->alloc * 2 : 4;
        if (t->alloc > cap) t->alloc = cap;
        t->v = xrealloc(t->v, t->alloc * sizeof *t->v);
    }
    t->v[t->n] = (tvalue_t){ value, 1 };
    t->last = t->n++;
}

/* The latency bin of the load the timing model has just timed. */
static uint64_t latency_bin(const values_t *v)
{
    if (cache_last_hit(v->l1d)) return VH_LAT_L1;
    if (v->l2 && cache_last_hit(v->l2)) return VH_LAT_L2;
    return VH_LAT_MEM;
}

/* The latched instruction has been timed: its latency goes to the truth. */
static void settle_pending(values_t *v)
{
    tpc_t *t = v->latch.pending;
    v->latch.pending = NULL;
    tlist_add(&t->k[VK_LATENCY], latency_bin(v), v->opt.cap);
}

static bool has_result(const insn_t *in) { return in->rd < REG_ZERO; }

/* The valid kinds of the latched instruction (bit per VK_), those selected. */
static unsigned valid_kinds(const values_t *v, const insn_t *in)
{
    unsigned m = 1u << VK_RA;
    if (has_result(in)) m |= 1u << VK_RESULT;
    if (in->rs1 < REG_COUNT) m |= 1u << VK_OPERAND1;
    if (in->rs2 < REG_COUNT) m |= 1u << VK_OPERAND2;
    if (in->flags & (IF_LOAD | IF_STORE)) m |= 1u << VK_ADDR;
    if ((in->flags & IF_LOAD) && v->l1d) m |= 1u << VK_LATENCY;
    return m & v->opt.kinds;
}

static void record_truth(values_t *v, cpu_t *c, const insn_t *in, uint64_t pc)
{
    tpc_t *t = tpc_find(v, pc);
    if (!t) t = tpc_insert(v, pc);
    unsigned m = valid_kinds(v, in), cap = v->opt.cap;
    const latch_t *l = &v->latch;
    if (m & 1u << VK_RESULT) tlist_add(&t->k[VK_RESULT], c->reg[in->rd], cap);
    if (m & 1u << VK_OPERAND1) tlist_add(&t->k[VK_OPERAND1], l->op1, cap);
    if (m & 1u << VK_OPERAND2) tlist_add(&t->k[VK_OPERAND2], l->op2, cap);
    if (m & 1u << VK_ADDR) tlist_add(&t->k[VK_ADDR], l->addr, cap);
    if (m & 1u << VK_RA) tlist_add(&t->k[VK_RA], c->reg[v->ra_reg], cap);
    if (m & 1u << VK_LATENCY) v->latch.pending = t;    /* after the timing model */
}

/* Every program instruction's semantics, wrapped: latch the operands, run
 * it, latch the address, count the truth. */
static void wrapped_exec(cpu_t *c, insn_t *in)
{
    values_t *v = active;
    if (v->latch.pending) settle_pending(v);
    uint64_t op1 = in->rs1 < REG_COUNT ? c->reg[in->rs1] : 0;
    uint64_t op2 = in->rs2 < REG_COUNT ? c->reg[in->rs2] : 0;
    v->isa->table[in->op].exec(c, in);
    v->latch = (latch_t){ .in = in, .pc = in->pc, .op1 = op1, .op2 = op2,
                          .addr = c->mem_addr };
    if (v->opt.cap) record_truth(v, c, in, in->pc);
}

static void on_decode(void *ctx, insn_t *in)
{
    values_t *v = ctx;
    if (in->op < v->isa->table_size && v->isa->table[in->op].exec == in->exec)
        in->exec = wrapped_exec;
    else
        v->unwrapped++;
}

/* ---- the sample ------------------------------------------------------------------ */

static void value_handler_returned(void *ctx, cpu_t *c) { (void)ctx; (void)c; }

/* The PMU entered the DCPI driver for the instruction at pc: latch its
 * values into the capture block and enter the value handler on top. */
static void on_sample(void *ctx, cpu_t *c, uint64_t pc)
{
    values_t *v = ctx;
    if (v->latch.pending) settle_pending(v);
    const latch_t *l = &v->latch;
    if (!l->in || l->pc != pc) {           /* not the last program instruction */
        v->unlatched_samples++;
        return;
    }
    v->latched_samples++;
    vh_capture_t cap = { .pc = pc };
    unsigned m = valid_kinds(v, l->in);
    cap.v[VK_RESULT] = has_result(l->in) ? c->reg[l->in->rd] : 0;
    cap.v[VK_OPERAND1] = l->op1;
    cap.v[VK_OPERAND2] = l->op2;
    cap.v[VK_ADDR] = l->addr;
    cap.v[VK_LATENCY] = (m & 1u << VK_LATENCY) ? latency_bin(v) : 0;
    cap.v[VK_RA] = c->reg[v->ra_reg];
    mem_write(runtime_mem(v->runtime), v->driver + offsetof(vh_table_t, cap), &cap, sizeof cap);
    uint64_t args[RUNTIME_MAX_ARGS] = { pc, m };
    if (!runtime_call(v->runtime, c, &v->client, v->entry, args, 2, 0)) {
        v->dropped_calls++;
        return;
    }
    /* what value_interrupt does, on the host */
    v->replay->cap = cap;
    v->replay->st.interrupts++;
    for (unsigned k = 0; k < VK_COUNT; k++)
        if (m >> k & 1) vh_offer(v->replay, pc, k, cap.v[k]);
}

/* ---- setting up ------------------------------------------------------------------- */

values_t *values_new(const values_options_t *o, runtime_t *rt, pmu_t *pmu, timing_t *timing,
                     char *err, size_t errlen)
{
    if (active) {
        set_error(err, errlen, "--values: one value sampler per process");
        return NULL;
    }
    values_t *v = xcalloc(1, sizeof *v);
    v->opt = *o;
    v->runtime = rt;
    v->pmu = pmu;
    v->l1d = timing ? timing_cache(timing, "l1d") : NULL;
    v->l2 = timing ? timing_cache(timing, "l2") : NULL;
    if ((o->kinds & 1u << VK_LATENCY) && !v->l1d) {
        set_error(err, errlen, "--values latency: the timing model has no L1 data cache to bin "
                  "load latencies by");
        goto bad;
    }
    v->driver = runtime_symbol(rt, "value_driver");
    v->entry = runtime_symbol(rt, "VALUE_interrupt");
    if (!v->driver || !v->entry) {
        set_error(err, errlen, "handler runtime: no value driver (value_driver, VALUE_interrupt)");
        goto bad;
    }
    vh_state_t st = { .version = VH_VERSION, .seed = (o->seed ^ 0x5a5a5a5aull) % 0x7ffffffeu + 1,
                      .list_size = o->list_size,
                      .inv_growth_q16 = (uint64_t)llround(65536.0 / o->growth),
                      .kinds = o->kinds, .magic = VH_MAGIC };
    if (!mem_write(runtime_mem(rt), v->driver, &st, sizeof st)) {
        set_error(err, errlen, "value driver: its state is not mapped in the runtime");
        goto bad;
    }
    v->replay = xcalloc(1, sizeof *v->replay);
    v->replay->st = st;
    v->client = (runtime_client_t){ .name = "values", .returned = value_handler_returned,
                                    .ctx = v };
    v->tpc_slots = 1024;
    v->tpcs = xcalloc(v->tpc_slots, sizeof *v->tpcs);
    pmu_set_sample_hook(pmu, on_sample, v);
    active = v;
    return v;
bad:
    free(v);
    return NULL;
}

void values_attach(values_t *v, cpu_t *c)
{
    v->isa = c->isa;
    v->ra_reg = c->isa->elf_machine == EM_ALPHA ? REG_INT0 + 26 : REG_INT0 + 1;
    c->on_decode = on_decode;
    c->on_decode_ctx = v;
}

void values_free(values_t *v)
{
    if (!v) return;
    for (size_t s = 0; s < v->tpc_slots; s++)
        for (unsigned k = 0; k < VK_COUNT; k++) free(v->tpcs[s].k[k].v);
    free(v->tpcs);
    free(v->table);
    free(v->replay);
    free(v->prof);
    if (active == v) active = NULL;
    free(v);
}

/* ---- the profiles and their scores ---------------------------------------------- */

static double tau_of(const vh_list_t *l) { return (double)VH_ONE / (double)vh_inv_tau(l); }

/* Gibbons & Matias' estimate of a value's occurrences among the samples. */
static double estimate(const vh_list_t *l, uint64_t count)
{
    double tau = tau_of(l);
    return tau > 1.0 ? (double)count + 0.418 * tau - 1.0 : (double)count;
}

static int by_count_desc(const void *a, const void *b)
{
    const vh_entry_t *x = a, *y = b;
    if (x->count != y->count) return x->count < y->count ? 1 : -1;
    return x->value < y->value ? -1 : x->value > y->value;
}

static int tv_by_count_desc(const void *a, const void *b)
{
    const tvalue_t *x = a, *y = b;
    if (x->count != y->count) return x->count < y->count ? 1 : -1;
    return x->value < y->value ? -1 : x->value > y->value;
}

static void sort_list(vh_list_t *l) { qsort(l->e, l->n, sizeof l->e[0], by_count_desc); }

/* Estimated share of the list's samples of its entry k (capped at 1). */
static double est_share(const vh_list_t *l, unsigned k)
{
    if (!l->samples) return 0.0;
    double s = estimate(l, l->e[k].count) / (double)l->samples;
    return s > 1.0 ? 1.0 : s;
}

/* Score one profile against its truth (sorted by count). */
static void score(values_t *v, vprofile_t *p)
{
    const vh_list_t *l = &p->list;
    unsigned k = v->opt.top_k;
    p->inv_est = l->n ? est_share(l, 0) : 0.0;
    p->topk_est = 0.0;
    for (unsigned i = 0; i < k && i < l->n; i++) p->topk_est += est_share(l, i);
    if (p->topk_est > 1.0) p->topk_est = 1.0;
    const tlist_t *t = p->truth;
    if (!t || !t->executions) return;
    p->inv_true = t->n ? (double)t->v[0].count / (double)t->executions : 0.0;
    p->topk_true = 0.0;
    unsigned kt = t->n < k ? t->n : k;
    for (unsigned i = 0; i < kt; i++) p->topk_true += (double)t->v[i].count / (double)t->executions;
    unsigned hits = 0;
    for (unsigned i = 0; i < kt; i++)
        for (unsigned j = 0; j < k && j < l->n; j++)
            if (l->e[j].value == t->v[i].value) hits++;
    p->overlap = kt ? (double)hits / kt : 0.0;
    /* scored: enough samples, and the exact top k known (no overflow could
     * hold a value as frequent as the k-th) */
    /* a value missing from a full truth list counts at most `overflow` */
    p->exact_top1 = t->overflow == 0 || (t->n && t->v[0].count > t->overflow);
    p->exact_topk = t->overflow == 0 || (kt == k && t->v[kt - 1].count > t->overflow);
    p->scored = l->samples >= v->opt.min_samples && p->exact_topk;
    if (t->overflow) v->saturated++;
}

static int by_samples_desc(const void *a, const void *b)
{
    const vprofile_t *x = a, *y = b;
    if (x->list.samples != y->list.samples) return x->list.samples < y->list.samples ? 1 : -1;
    if (x->list.pc != y->list.pc) return x->list.pc < y->list.pc ? -1 : 1;
    return (int)x->list.kind - (int)y->list.kind;
}

static void build_profiles(values_t *v)
{
    v->prof = xcalloc(VH_SLOTS, sizeof *v->prof);
    for (unsigned s = 0; s < VH_SLOTS; s++) {
        const vh_list_t *l = &v->table->lists[s];
        if (!l->pc || !l->samples || l->kind >= VK_COUNT) continue;
        vprofile_t *p = &v->prof[v->nprof++];
        p->list = *l;
        sort_list(&p->list);
        tpc_t *t = v->opt.cap ? tpc_find(v, l->pc) : NULL;
        if (t) {
            tlist_t *tl = &t->k[l->kind];
            qsort(tl->v, tl->n, sizeof tl->v[0], tv_by_count_desc);
            tl->last = 0;
            p->truth = tl;
        }
    }
    qsort(v->prof, v->nprof, sizeof *v->prof, by_samples_desc);
    double w = 0, ov = 0, ie = 0, ke = 0;
    for (size_t i = 0; i < v->nprof; i++) {
        vprofile_t *p = &v->prof[i];
        score(v, p);
        if (!p->scored) continue;
        double n = (double)p->list.samples;
        w += n;
        ov += n * p->overlap;
        ie += n * fabs(p->inv_est - p->inv_true);
        ke += n * fabs(p->topk_est - p->topk_true);
        v->scored++;
        v->scored_samples += p->list.samples;
    }
    v->mean_overlap = w ? 100.0 * ov / w : -1;
    v->mean_inv_err = w ? 100.0 * ie / w : -1;
    v->mean_topk_err = w ? 100.0 * ke / w : -1;
}

/* ---- the files -------------------------------------------------------------------- */

static const char *proc_of(const values_t *v, uint64_t pc)
{
    const symbol_t *s = v->symtab ? symtab_lookup(v->symtab, pc) : NULL;
    return s ? s->name : "?";
}

static void format_value(char *buf, size_t len, unsigned kind, uint64_t value)
{
    if (kind == VK_LATENCY && value <= VH_LAT_MEM) snprintf(buf, len, "%s", latency_names[value]);
    else snprintf(buf, len, "0x%" PRIx64, value);
}

static bool write_tsv(const values_t *v, const char *path, char *err, size_t errlen)
{
    FILE *f = fopen(path, "w");
    if (!f) return set_error(err, errlen, "%s: cannot write", path);
    fprintf(f, "# value profiles: one row per (pc, kind, value) of each hot list; est = "
            "count + 0.418 tau - 1 (count while tau = 1); share = est / samples; true = the "
            "exact executions with that value (-1: no truth, or not among the %u tracked); untracked = "
            "executions whose value came when the truth list was full\n",
            v->opt.cap);
    fprintf(f, "pc\tprocedure\tkind\tsamples\ttau\tvalue\tcount\test\tshare\ttrue_count\t"
            "executions\ttrue_share\tuntracked\n");
    for (size_t i = 0; i < v->nprof; i++) {
        const vprofile_t *p = &v->prof[i];
        const vh_list_t *l = &p->list;
        for (unsigned k = 0; k < l->n; k++) {
            char val[40];
            format_value(val, sizeof val, l->kind, l->e[k].value);
            int64_t tc = -1;
            uint64_t ex = p->truth ? p->truth->executions : 0;
            uint64_t untracked = p->truth ? p->truth->overflow : 0;
            for (unsigned j = 0; p->truth && j < p->truth->n; j++)
                if (p->truth->v[j].value == l->e[k].value) tc = (int64_t)p->truth->v[j].count;
            fprintf(f, "0x%" PRIx64 "\t%s\t%s\t%" PRIu64 "\t%.3f\t%s\t%" PRIu64 "\t%.1f\t%.4f\t%"
                    PRId64 "\t%" PRIu64 "\t%.4f\t%" PRIu64 "\n", l->pc, proc_of(v, l->pc),
                    kind_names[l->kind], l->samples, tau_of(l), val, l->e[k].count,
                    estimate(l, l->e[k].count), est_share(l, k), tc, ex,
                    tc >= 0 && ex ? (double)tc / (double)ex : -1.0, untracked);
        }
    }
    return fclose(f) == 0 || set_error(err, errlen, "%s: write failed", path);
}

/* Folded stacks "procedure;pc;kind=value N", N the estimated samples. */
static bool write_folded(const values_t *v, const char *path, char *err, size_t errlen)
{
    const char *events[1] = { "value_samples" };
    export_profile_t *x = export_new("hps-sim --values", 1, events, NULL);
    for (size_t i = 0; i < v->nprof; i++) {
        const vh_list_t *l = &v->prof[i].list;
        char pcname[32], val[64], tmp[40];
        snprintf(pcname, sizeof pcname, "0x%" PRIx64, l->pc);
        uint32_t frames[3];
        frames[0] = export_frame(x, &(export_frame_t){ .function = proc_of(v, l->pc) });
        frames[1] = export_frame(x, &(export_frame_t){ .function = pcname, .address = l->pc });
        for (unsigned k = 0; k < l->n; k++) {
            format_value(tmp, sizeof tmp, l->kind, l->e[k].value);
            snprintf(val, sizeof val, "%s=%s", kind_names[l->kind], tmp);
            frames[2] = export_frame(x, &(export_frame_t){ .function = val });
            uint64_t n = (uint64_t)llround(estimate(l, l->e[k].count));
            export_add_stack(x, frames, 3, &n);
        }
    }
    bool ok = export_write(x, EXPORT_FOLDED, 0, path, err, errlen);
    export_free(x);
    return ok;
}

bool values_finish(values_t *v, const struct symtab *symtab, const char *dir, char *err,
                   size_t errlen)
{
    if (v->latch.pending) settle_pending(v);
    v->symtab = symtab;
    v->table = xcalloc(1, sizeof *v->table);
    if (!mem_read(runtime_mem(v->runtime), v->driver, v->table, sizeof *v->table))
        return set_error(err, errlen, "value driver: its table is not readable in the runtime");
    if (v->table->st.magic != VH_MAGIC)
        return set_error(err, errlen, "value driver: its state was overwritten");
    v->replay_equal = memcmp(v->table, v->replay, sizeof *v->table) == 0;
    build_profiles(v);
    v->finished = true;
    char path[4200];
    snprintf(path, sizeof path, "%s/values.tsv", dir);
    if (!write_tsv(v, path, err, errlen)) return false;
    snprintf(path, sizeof path, "%s/values.folded", dir);
    return write_folded(v, path, err, errlen);
}

/* ---- the report ------------------------------------------------------------------- */

static void report_profiles(const values_t *v, FILE *out, size_t top_n)
{
    fprintf(out, "%-18s %-20s %-8s %7s %8s  %-32s %s\n", "pc", "procedure", "kind", "samples",
            "1/tau", "top values (estimated share)", "invariance est/true, top-k overlap");
    for (size_t i = 0; i < v->nprof && i < top_n; i++) {
        const vprofile_t *p = &v->prof[i];
        const vh_list_t *l = &p->list;
        char vals[160] = "", one[64], tmp[40];
        for (unsigned k = 0; k < l->n && k < 3; k++) {
            format_value(tmp, sizeof tmp, l->kind, l->e[k].value);
            snprintf(one, sizeof one, "%s%s:%.0f%%", k ? " " : "", tmp, 100.0 * est_share(l, k));
            strncat(vals, one, sizeof vals - strlen(vals) - 1);
        }
        fprintf(out, "0x%-16" PRIx64 " %-20.20s %-8s %7" PRIu64 " %8.4f  %-32s ", l->pc,
                proc_of(v, l->pc), kind_names[l->kind], l->samples, 1.0 / tau_of(l), vals);
        if (p->truth && p->truth->executions && p->exact_top1)
            fprintf(out, "%.0f%%/%.0f%% %.0f%%%s\n", 100 * p->inv_est, 100 * p->inv_true,
                    100 * p->overlap, p->scored ? "" : " (not scored)");
        else if (p->truth && p->truth->executions)
            fprintf(out, "%.0f%%/? (more than %u distinct values: not scored)\n",
                    100 * p->inv_est, v->opt.cap);
        else
            fprintf(out, "%.0f%%\n", 100 * p->inv_est);
    }
}

/* Per procedure and kind: value samples and the sample-weighted invariance. */
static void report_procedures(const values_t *v, FILE *out, size_t top_n)
{
    typedef struct {
        const char *proc;
        unsigned kind, pcs;
        double n, inv;              /* all lists: samples, sum of samples x invariance */
        double nt, invk, invt;      /* lists whose top value the truth knows: est, true */
    } agg_t;
    agg_t *a = xcalloc(v->nprof + 1, sizeof *a);
    size_t na = 0;
    for (size_t i = 0; i < v->nprof; i++) {
        const vprofile_t *p = &v->prof[i];
        const char *proc = proc_of(v, p->list.pc);
        size_t j = 0;
        while (j < na && !(a[j].kind == p->list.kind && !strcmp(a[j].proc, proc))) j++;
        if (j == na) a[na++] = (agg_t){ .proc = proc, .kind = p->list.kind };
        double n = (double)p->list.samples;
        a[j].n += n;
        a[j].inv += n * p->inv_est;
        if (p->truth && p->exact_top1) {
            a[j].nt += n;
            a[j].invk += n * p->inv_est;
            a[j].invt += n * p->inv_true;
        }
        a[j].pcs++;
    }
    fprintf(out, "by procedure (sample-weighted invariance of the top value: estimated over all "
            "lists; estimated and true over the lists whose top value the truth knows):\n");
    fprintf(out, "  %-24s %-8s %5s %8s %10s %8s %10s %10s\n", "procedure", "kind", "pcs", "samples",
            "inv est", "known", "est", "true");
    for (size_t shown = 0; shown < top_n; shown++) {
        size_t best = na;
        for (size_t j = 0; j < na; j++)
            if (a[j].n > 0 && (best == na || a[j].n > a[best].n)) best = j;
        if (best == na) break;
        fprintf(out, "  %-24.24s %-8s %5u %8.0f %9.1f%% %8.0f ", a[best].proc,
                kind_names[a[best].kind], a[best].pcs, a[best].n, 100 * a[best].inv / a[best].n,
                a[best].nt);
        if (a[best].nt > 0)
            fprintf(out, "%9.1f%% %9.1f%%\n", 100 * a[best].invk / a[best].nt,
                    100 * a[best].invt / a[best].nt);
        else
            fprintf(out, "%10s %10s\n", "-", "-");
        a[best].n = -1;
    }
    free(a);
}

void values_report(const values_t *v, FILE *out, size_t top_n)
{
    if (!v->finished) return;
    const vh_state_t *st = &v->table->st;
    fprintf(out, "==== hps-sim value sampling report ====\n");
    fprintf(out, "kinds:");
    for (unsigned k = 0; k < VK_COUNT; k++)
        if (v->opt.kinds >> k & 1) fprintf(out, " %s", kind_names[k]);
    fprintf(out, "; hot lists of %u values, threshold growth %.3g (counting samples), %zu "
            "(pc, kind) lists\n", v->opt.list_size, v->opt.growth, v->nprof);
    fprintf(out, "value samples: %" PRIu64 " interrupts, %" PRIu64 " values offered, %" PRIu64
            " inserted, %" PRIu64 " threshold raises, %" PRIu64 " lost (no list slot); %" PRIu64
            " interrupts not on a latched program instruction (%" PRIu64 " decoded instructions "
            "whose semantics could not be wrapped)\n", st->interrupts, st->offered, st->inserted,
            st->raises, st->lost, v->unlatched_samples, v->unwrapped);
    fprintf(out, "guest hot lists %s the host's replay of value_hotlist.h on the same captures\n",
            v->replay_equal ? "equal" : "DIFFER FROM");
    uint64_t n = v->latched_samples ? v->latched_samples : 1;
    fprintf(out, "value handler: %" PRIu64 " instructions, %" PRIu64 " cycles (%.1f and %.1f per "
            "interrupt), besides the DCPI driver's %" PRIu64 " and %" PRIu64 "\n",
            v->client.insts, v->client.head_cycles, (double)v->client.insts / (double)n,
            (double)v->client.head_cycles / (double)n, pmu_handler_insts(v->pmu),
            pmu_handler_cycles(v->pmu));
    report_profiles(v, out, top_n);
    report_procedures(v, out, top_n);
    if (!v->opt.cap) {
        fprintf(out, "no truth (cap=0): not scored\n");
        return;
    }
    if (v->scored)
        fprintf(out, "scored against the exact values (%" PRIu64 " lists with >= %u samples and "
                "an exact top %u; %" PRIu64 " samples): top-%u overlap %.1f%%, invariance error "
                "%.2f points, top-%u share error %.2f points (weighted by samples)\n", v->scored,
                v->opt.min_samples, v->opt.top_k, v->scored_samples, v->opt.top_k,
                v->mean_overlap, v->mean_inv_err, v->opt.top_k, v->mean_topk_err);
    else
        fprintf(out, "scored against the exact values: no list has %u samples (a shorter period "
                "or a longer run)\n", v->opt.min_samples);
    fprintf(out, "truth: %zu program pcs, exact up to %u distinct values per (pc, kind); %" PRIu64
            " sampled lists had more\n", v->tpc_used, v->opt.cap, v->saturated);
}

void values_stats(const values_t *v, stats_t *s)
{
    if (!v->finished) return;
    const vh_state_t *st = &v->table->st;
    stats_add_u64(s, "values.interrupts", st->interrupts, "Count",
                  "Value handler entries (sampled program instructions)");
    stats_add_u64(s, "values.offered", st->offered, "Count", "Values offered to the hot lists");
    stats_add_u64(s, "values.inserted", st->inserted, "Count", "New values that entered a list");
    stats_add_u64(s, "values.raises", st->raises, "Count", "Counting-sample threshold raises");
    stats_add_u64(s, "values.lost", st->lost, "Count", "Values whose (pc, kind) found no list");
    stats_add_u64(s, "values.lists", v->nprof, "Count", "(pc, kind) hot lists with samples");
    stats_add_u64(s, "values.guestEqualsHost", v->replay_equal, "Bool",
                  "The guest's hot lists equal the host's run of the same code (1) or not (0)");
    stats_add_u64(s, "values.handlerInsts", v->client.insts, "Count",
                  "Instructions executed in the value handler");
    stats_add_u64(s, "values.handlerCycles", v->client.head_cycles, "Cycle",
                  "Head cycles of the value handler's instructions");
    if (v->scored) {
        stats_add_f64(s, "values.topkOverlap", v->mean_overlap, "Percent",
                      "Top-k overlap of hot lists and exact values, weighted by samples");
        stats_add_f64(s, "values.invarianceError", v->mean_inv_err, "Percent",
                      "Mean |estimated - exact| share of the top value, weighted by samples");
    }
}
