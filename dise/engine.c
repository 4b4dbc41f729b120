/*
 * engine.c - the DISE hardware with the HPS conditional-control extension:
 * pattern table, conditionals table, replacement table, HPS counters and
 * flags, and the instantiation logic that turns a replacement sequence into
 * decoded instructions.
 *
 * Classification happens once per static instruction, at decode: every
 * production's pattern is evaluated for every combination of the flags the
 * patterns test, and what the productions do under each (dise_outcome_t)
 * is interned with the instruction's own semantics in a dispatch entry;
 * insn_t.dise holds its index and insn_t.exec becomes exec_candidate()
 * (0 and the ISA's semantics when no production can match, so those
 * instructions cost nothing).  At run time dise_match() looks up the flags
 * sampled at decode, runs the micro-ops of every match and returns the
 * instantiated replacement of the first match that has one (a tabulated
 * entry's through the plan of its matching productions, worked out once per
 * set of them: dise_plan_t);
 * exec_candidate() then runs the instruction, or starts the replacement
 * sequence instead (the instruction does not retire), which the run loop
 * (sim/engine.c) walks through dise_step_seq() (dise_engine.h), or runs
 * from here to its end when it is straight and nothing but the counts
 * observes it (dise_t.run_inline).  The block loop, whose count of a
 * classified instruction failed, calls exec_miss() (edit_view_t.miss)
 * instead: the same match, which leaves the instruction (or a straight
 * replacement's T.INSN, of a transfer) to the block loop's own kind when
 * nothing else is to be done with it.  The multi-match rules are in
 * dise/README.md.
 *
 * The engine also routes the instructions whose events the exact profiles
 * record one by one (hps_truth.h) through exec_recorded() (a call through
 * exec_recorded_call(), which the block loop runs inline, edit.h), and adds the
 * counted events at the end of the run (dise_finish).  The interactive
 * shell prints the tables and counters as they are (dise_print_tables).
 */
#include "dise_engine.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "core.h"
#include "runtime.h"
#include "mem.h"
#include "util.h"

const char *const dise_role_names[DISE_ROLE_COUNT] = {
#define DISE_ROLE_NAME(id, name) name,
    DISE_ROLE_LIST(DISE_ROLE_NAME)
#undef DISE_ROLE_NAME
};

/* ---- building the engine ---------------------------------------------------- */

static const char *prod_where(const dise_production_t *p, char *buf, size_t len)
{
    snprintf(buf, len, "%s:%u: production %s", p->file ? p->file : "?", p->line, p->name);
    return buf;
}

/* Enforce the table capacities; a production set that does not fit is an
 * error naming the table and the production where it overflowed. */
static bool check_capacity(const dise_program_t *p, const dise_hw_t *hw, char *err, size_t len)
{
    char where[160];
    size_t ct = 0, rt = 0;
    bool *repl_counted = xcalloc(p->nrepls + 1, sizeof *repl_counted);
    bool fits = false;
    if (p->max_counter > hw->counters) {
        snprintf(err, len, "the ACF uses HPS counter %u but dise.counters = %u",
                 p->max_counter, hw->counters);
        goto done;
    }
    for (size_t k = 0; k < p->nprods; k++) {
        const dise_production_t *pr = &p->prods[k];
        if (k + 1 > hw->pt_entries) {
            snprintf(err, len, "%s: pattern table full (dise.pt_entries = %u productions)",
                     prod_where(pr, where, sizeof where), hw->pt_entries);
            goto done;
        }
        if (pr->ctl >= 0 && ++ct > hw->ct_entries) {
            snprintf(err, len, "%s: conditionals table full (dise.ct_entries = %u)",
                     prod_where(pr, where, sizeof where), hw->ct_entries);
            goto done;
        }
        if (pr->repl >= 0 && !repl_counted[pr->repl]) {
            repl_counted[pr->repl] = true;
            rt += p->repls[pr->repl].len;
            if (rt > hw->rt_entries) {
                snprintf(err, len, "%s: replacement table full (dise.rt_entries = %u "
                         "instructions, this ACF needs at least %zu)",
                         prod_where(pr, where, sizeof where), hw->rt_entries, rt);
                goto done;
            }
        }
    }
    fits = true;
done:
    free(repl_counted);
    return fits;
}

/* The tally table `tally dN` counts in: the runtime's dise_tally. */
static bool resolve_tally(dise_t *d, char *err, size_t len)
{
    bool used = false;
    for (size_t k = 0; k < d->prog->nrt && !used; k++) used = d->prog->rt[k].op == DOP_TALLY;
    if (!used) return true;
    d->tally_base = d->runtime ? runtime_symbol(d->runtime, DISE_TALLY_SYMBOL) : 0;
    d->tally_words = d->runtime ? runtime_symbol_size(d->runtime, DISE_TALLY_SYMBOL) / 8 : 0;
    if (d->tally_base && d->tally_words) return true;
    snprintf(err, len, "tally: the handler runtime has no tally table (%s)", DISE_TALLY_SYMBOL);
    return false;
}

static bool resolve_handlers(dise_t *d, char *err, size_t len)
{
    for (size_t k = 0; k < d->prog->nhandlers; k++) {
        const char *name = d->prog->handlers[k];
        d->handler_addr[k] = d->runtime ? runtime_handler(d->runtime, name) : 0;
        if (d->handler_addr[k]) continue;
        if (d->runtime && runtime_handlers(d->runtime) == RUNTIME_HANDLERS_ASM &&
            runtime_symbol(d->runtime, name))
            snprintf(err, len, "call(%s): the handler runtime has no assembly version of this "
                     "handler (--handlers c runs the C one)", name);
        else
            snprintf(err, len, "call(%s): the handler runtime has no handler of that name",
                     name);
        return false;
    }
    return true;
}

static unsigned flag_index_of(const dise_t *d, uint32_t overflow_bits, uint32_t zero_bits);
static uint16_t flags_needed(const dise_program_t *p, int32_t at);
static uint16_t any_needs(const dise_t *d);
static void find_conjuncts(dise_t *d);
static void tabulate_flag_conjuncts(dise_t *d);
static void compile_uops(dise_t *d);
static bool exec_miss(cpu_t *c, insn_t *in);
static uint32_t exec_trip(cpu_t *c, insn_t *in);

/* The flags now, packed; the block loop's records follow them (edit.h). */
static void set_flag_index(dise_t *d, unsigned idx)
{
    d->flag_index = idx;
    d->view.now = d->counts + (size_t)idx * d->set_cap;
}

/* The uniform word the view counts down (edit.h), its value written back:
 * the engine's own semantics read and change the counters only after
 * this, and the view counts nothing down until relive(). */
static void unlive(dise_t *d)
{
    if (!d->live) return;
    *d->live = d->ctr_mask - *d->view.left;
    d->live = NULL;
    *d->view.left = 0;
}

/* The state now's uniform word, when it has one and it is not 0 (an
 * increment of 0 changes a flag), counted down by the view from here on:
 * the increments it takes before it reaches its top, and 0 meanwhile. */
static void relive(dise_t *d)
{
    uint64_t *w = d->uniform[d->flag_index];
    if (d->live || w == &d->count_never || *w == 0) return;
    *d->view.left = d->ctr_mask - *w;
    *w = 0;
    d->live = w;
}

/* Counter n's value, whether or not the view counts it down. */
static uint64_t counter_value(const dise_t *d, unsigned n)
{
    return d->live == &d->ctr[n] ? d->ctr_mask - *d->view.left : d->ctr[n];
}

/* The distinct flags (overflow_N / zero_N) the patterns test.  With at
 * most DISE_TABLE_FLAGS of them, classification tabulates every production's
 * outcome for every combination, and matching is a table lookup. */
static void find_flags(dise_t *d)
{
    const dise_program_t *p = d->prog;
    d->nflags = 0;
    d->tabulated = true;
    for (size_t k = 0; k < p->nnodes; k++) {
        const dise_node_t *n = &p->nodes[k];
        if (n->kind != PX_OVERFLOW && n->kind != PX_ZERO) continue;
        bool is_zero = n->kind == PX_ZERO, seen = false;
        for (unsigned j = 0; j < d->nflags; j++)
            seen |= d->flag_counter[j] == n->counter && d->flag_is_zero[j] == is_zero;
        if (seen) continue;
        if (d->nflags == DISE_TABLE_FLAGS) {
            d->tabulated = false;
            break;
        }
        d->flag_counter[d->nflags] = n->counter;
        d->flag_is_zero[d->nflags] = is_zero;
        d->nflags++;
    }
    if (!d->tabulated) d->nflags = 0;
    for (unsigned j = 0; j < d->nflags; j++) {
        uint8_t *bits = d->flag_is_zero[j] ? d->index_bit_zero : d->index_bit_overflow;
        bits[d->flag_counter[j]] |= (uint8_t)(1u << j);
    }
    d->set_shift = d->nflags;
    d->set_stride = 1u << d->nflags;
    for (unsigned i = 0; i < d->set_stride; i++)
        for (unsigned j = 0; j < d->nflags; j++)
            if (i >> j & 1) d->combo_flags[i][d->flag_is_zero[j]] |= 1u << d->flag_counter[j];
}

/* A set_N(VALUE) loads counter N with 2^bits - VALUE so that it overflows
 * after VALUE events: VALUE must be 1..2^bits - 1.  A constant or a
 * parameter outside that range is refused here (before the run) rather
 * than clamped while it runs; a d-register's value is clamped. */
static bool check_set_values(const dise_program_t *prog, const dise_hw_t *hw, char *err,
                             size_t errlen)
{
    uint64_t max = (1ull << hw->counter_bits) - 1;
    for (size_t k = 0; k < prog->nuops; k++) {
        const dise_uop_t *u = &prog->uops[k];
        if (u->kind != UOP_SET || (u->src != SRC_CONST && u->src != SRC_PARAM)) continue;
        int64_t v = u->src == SRC_PARAM ? prog->params[u->value].value : u->value;
        if (v >= 1 && (uint64_t)v <= max) continue;
        char what[DISE_NAME_MAX + 32];
        if (u->src == SRC_PARAM) snprintf(what, sizeof what, "parameter %s",
                                          prog->params[u->value].name);
        else snprintf(what, sizeof what, "the constant");
        snprintf(err, errlen, "set_%u: %s = %" PRId64 " is outside 1..%" PRIu64 ", the events a "
                 "counter of dise.counter_bits = %u bits can count before it overflows", u->counter,
                 what, v, max, hw->counter_bits);
        return false;
    }
    return true;
}

dise_t *dise_new(const dise_program_t *prog, const dise_hw_t *hw, runtime_t *runtime,
                 char *err, size_t errlen)
{
    if (hw->counter_bits < 1 || hw->counter_bits > 63 || hw->counters > DISE_MAX_COUNTERS) {
        snprintf(err, errlen, "dise.counter_bits must be 1..63 and dise.counters 1..%d",
                 DISE_MAX_COUNTERS);
        return NULL;
    }
    if (!check_capacity(prog, hw, err, errlen) || !check_set_values(prog, hw, err, errlen))
        return NULL;
    dise_t *d = xcalloc(1, sizeof *d);
    d->prog = prog;
    d->hw = *hw;
    d->runtime = runtime;
    d->ctr_mask = (1ull << hw->counter_bits) - 1;
    d->zero_bits = ~0u;                      /* every counter starts at 0 */
    d->branch_to = -1;
    find_flags(d);
    compile_uops(d);                         /* after find_flags: the index bits */
    for (size_t k = 0; k < prog->nprods; k++)
        d->prod_needs[k] = flags_needed(prog, prog->prods[k].pattern);
    d->any_needs = any_needs(d);
    find_conjuncts(d);
    tabulate_flag_conjuncts(d);
    d->set_cap = 16;
    d->outcomes = xcalloc(d->set_cap * d->set_stride, sizeof *d->outcomes);
    d->counts = xcalloc(d->set_cap * d->set_stride, sizeof *d->counts);
    d->derived_prod = xcalloc(d->set_cap, sizeof *d->derived_prod);
    d->derived_prod[0] = -1;
    d->nsets = 1;                            /* entry 0: none */
    size_t nprods = prog->nprods ? prog->nprods : 1;
    d->prod_matches = xcalloc(nprods, sizeof *d->prod_matches);
    d->count_matches = xcalloc(nprods, sizeof *d->count_matches);
    d->derived_counted = xcalloc(nprods, sizeof *d->derived_counted);
    d->derived_tally = xcalloc(nprods, sizeof *d->derived_tally);
    for (unsigned i = 0; i < d->set_stride; i++) d->uniform[i] = &d->count_never;
    d->view.counter_top = d->ctr_mask;
    d->view.left = &d->left_own;        /* until it attaches to a cpu */
    d->view.miss = exec_miss;
    d->view.trip = exec_trip;
    d->count_spare = 1;
    set_flag_index(d, flag_index_of(d, d->overflow_bits, d->zero_bits));
    if (!resolve_handlers(d, err, errlen) || !resolve_tally(d, err, errlen)) {
        dise_free(d);
        return NULL;
    }
    return d;
}

void dise_free(dise_t *d)
{
    if (!d) return;
    for (size_t k = 0; k < d->seq_cap; k++) free(d->seq_table[k]);
    free(d->seq_table);
    free(d->outcomes);
    free(d->counts);
    free(d->prod_matches);
    free(d->count_matches);
    free(d->derived_prod);
    free(d->derived_counted);
    free(d->derived_tally);
    free(d->conj);
    free(d->cuops);
    free(d->plans);
    free(d->plan_uops);
    free(d->plan_sets);
    free(d);
}

/* ---- counters and micro-operations ------------------------------------------ */

static uint64_t uop_value(const dise_t *d, const cpu_t *c, uint8_t src, int64_t value)
{
    switch (src) {
    case SRC_PARAM: return (uint64_t)d->prog->params[value].value;
    case SRC_DREG:  return c->reg[REG_DISE0 + value];
    default:        return (uint64_t)value;
    }
}

/* The flags the ACF tests, packed into an index of the decode-time match
 * tables (see dise_classify). */
static unsigned flag_index_of(const dise_t *d, uint32_t overflow_bits, uint32_t zero_bits)
{
    unsigned idx = 0;
    for (unsigned k = 0; k < d->nflags; k++) {
        uint32_t bits = d->flag_is_zero[k] ? zero_bits : overflow_bits;
        idx |= (unsigned)(bits >> d->flag_counter[k] & 1) << k;
    }
    return idx;
}

/* An increment of counter n at an edge, v (its value) 0 or the top, as
 * run_cuops would run it alone (flag_index as flag_index_of would find it,
 * from counter n's bits alone): from the top it
 * wraps to 0, overflow and zero set; from 0 its zero flag clears. */
static void counter_inc_edge(dise_t *d, unsigned n, uint64_t v)
{
    uint32_t bit = 1u << n;
    unsigned ov = d->index_bit_overflow[n], zb = d->index_bit_zero[n];
    unsigned idx = d->flag_index & ~(ov | zb);
    if (v == d->ctr_mask) {
        d->ctr[n] = 0;
        d->overflow_bits |= bit;
        d->zero_bits |= bit;
        idx |= ov | zb;
    } else {
        d->ctr[n] = 1;
        d->zero_bits &= ~bit;
        if (d->overflow_bits & bit) idx |= ov;
    }
    if (idx != d->flag_index) set_flag_index(d, idx);
}

static void counter_inc(dise_t *d, unsigned n)
{
    if (likely(d->ctr[n] != 0 && d->ctr[n] != d->ctr_mask))
        d->ctr[n]++;                        /* no flag can change */
    else
        counter_inc_edge(d, n, d->ctr[n]);
    d->stat_uops++;
}

/* The counter value set_N(x) loads: 2^bits - x, x clamped to 1..2^bits - 1. */
static uint64_t set_value(const dise_t *d, uint64_t x)
{
    if (x < 1) x = 1;
    if (x > d->ctr_mask) x = d->ctr_mask;
    return d->ctr_mask + 1 - x;
}

/* Every uop of the program as run_ctl runs it: a set of a constant or a
 * parameter (fixed once the engine is built) is its value already. */
static void compile_uops(dise_t *d)
{
    const dise_program_t *p = d->prog;
    d->cuops = xcalloc(p->nuops + 1, sizeof *d->cuops);
    for (size_t k = 0; k < p->nuops; k++) {
        const dise_uop_t *u = &p->uops[k];
        dise_cuop_t *x = &d->cuops[k];
        x->counter = u->counter;
        x->index_overflow = d->index_bit_overflow[u->counter];
        x->index_zero = d->index_bit_zero[u->counter];
        if (u->kind == UOP_INC) x->kind = CU_INC;
        else if (u->kind == UOP_DEC) x->kind = CU_DEC;
        else if (u->src == SRC_DREG) {
            x->kind = CU_SET_DREG;
            x->value = (uint64_t)u->value;
        } else {
            x->kind = CU_SET;
            x->value = set_value(d, uop_value(d, NULL, u->src, u->value));
        }
    }
}

/* Compiled uops u[0..n), in order, each with its counter's value and
 * flags (an increment as counter_inc has it), and the packed flags
 * (flag_index) as flag_index_of would find them after each: the flags kept in
 * locals, the view's records (set_flag_index) moved once, after the last
 * (nothing reads them in between). */
static void run_cuops(dise_t *d, const cpu_t *c, const dise_cuop_t *u, uint32_t n_uops)
{
    const dise_cuop_t *end = u + n_uops;
    const uint64_t top = d->ctr_mask;
    uint32_t over = d->overflow_bits, zero = d->zero_bits;
    unsigned idx = d->flag_index;
    for (; u < end; u++) {
        unsigned n = u->counter;
        uint32_t bit = 1u << n;
        uint64_t v = d->ctr[n];
        if (u->kind == CU_INC) {
            if (likely(v != 0 && v != top)) {       /* no flag can change */
                d->ctr[n] = v + 1;
                continue;
            }
            if (v == top) over |= bit;
            v = (v + 1) & top;
        } else if (u->kind == CU_SET) {
            over &= ~bit;
            v = u->value;
        } else if (u->kind == CU_DEC) {
            if (v == 0) over |= bit;
            v = (v - 1) & top;
        } else {                                    /* CU_SET_DREG */
            over &= ~bit;
            v = set_value(d, c->reg[REG_DISE0 + u->value]);
        }
        d->ctr[n] = v;
        if (v == 0) zero |= bit;
        else zero &= ~bit;
        idx &= ~(unsigned)(u->index_overflow | u->index_zero);
        if (over & bit) idx |= u->index_overflow;
        if (zero & bit) idx |= u->index_zero;
    }
    d->overflow_bits = over;
    d->zero_bits = zero;
    d->stat_uops += n_uops;
    if (idx != d->flag_index) set_flag_index(d, idx);
}

/* Control list ctl's uops (run_cuops). */
static void run_ctl(dise_t *d, const cpu_t *c, int32_t ctl)
{
    const dise_ctl_t *l = &d->prog->ctls[ctl];
    run_cuops(d, c, &d->cuops[l->start], l->len);
}

static void handler_return(void *ctx, cpu_t *c);
static void handler_flush(void *ctx, cpu_t *c);
static void classify_hook(void *ctx, insn_t *in) { dise_classify(ctx, in); }

/* hps.rdpmc in a handler DISE called: 0 cycles, 1 L1D misses; any other
 * counter (or L1D misses on a model without an L1D) does not exist here,
 * and reading it is an illegal instruction, as the PMU's handlers have it. */
static uint64_t handler_rdpmc(void *ctx, cpu_t *c, uint64_t k)
{
    const dise_t *d = ctx;
    if (k == 0) return *d->pmc_cycles;
    if (k == 1 && d->pmc_l1d) {
        cache_info_t ci;
        cache_info(d->pmc_l1d, &ci);
        return ci.misses;
    }
    cpu_stop(c, STOP_ILLEGAL, 0);
    return 0;
}

void dise_set_counters(dise_t *d, const uint64_t *cycles, const struct cache *l1d)
{
    d->pmc_cycles = cycles;
    d->pmc_l1d = l1d;
    d->client.rdpmc = cycles ? handler_rdpmc : NULL;
}

void dise_attach(dise_t *d, cpu_t *c)
{
    unlive(d);                      /* nothing counts down across the move */
    d->view.left = &c->edit_left;   /* the count-down word, in the cpu */
    c->edit_left = 0;
    c->dise = d;
    c->edit = &d->view;
    d->prog_mem = c->mem;
    c->on_decode = classify_hook;
    c->on_decode_ctx = d;
    d->client = (runtime_client_t){ .name = "DISE", .returned = handler_return,
                                    .flush = handler_flush,
                                    .rdpmc = d->pmc_cycles ? handler_rdpmc : NULL, .ctx = d };
    if (d->runtime && !c->runtime) runtime_attach(d->runtime, c);
    if (d->prog->init_ctl >= 0) run_ctl(d, c, d->prog->init_ctl);
}

void dise_detach(dise_t *d, cpu_t *c)
{
    unlive(d);
    if (d->view.left == &c->edit_left) d->view.left = &d->left_own;
    c->edit_left = 0;
}

uint64_t dise_counter(const dise_t *d, unsigned n) { return counter_value(d, n); }
bool dise_overflow(const dise_t *d, unsigned n) { return d->overflow_bits >> n & 1; }
bool dise_zero(const dise_t *d, unsigned n) { return d->zero_bits >> n & 1; }

static void derived_matches(const dise_t *d, uint64_t *out);

/* The common case's matches by production, into out[0..nprods): those
 * counted in the match words (edit_try_count) and those worked out from
 * execution counts (derived_matches). */
static void common_matches(const dise_t *d, uint64_t *out)
{
    derived_matches(d, out);
    for (size_t k = 0; k < d->prog->nprods; k++) out[k] += d->count_matches[k];
}

/* The totals: what the engine counted, and the common case's matches: one
 * match of its production each, and one micro-op each when the
 * production's control is its single increment (outcome_kind). */
uint64_t dise_production_matches(const dise_t *d, size_t k)
{
    uint64_t common[DISE_MAX_PRODUCTIONS], planned = 0;
    common_matches(d, common);
    for (size_t j = 0; j < d->nplans; j++)
        if (d->plans[j].mask >> k & 1) planned += d->plans[j].runs;
    return d->prod_matches[k] + planned + common[k];
}

uint64_t dise_matches(const dise_t *d)
{
    uint64_t n = d->stat_matches, common[DISE_MAX_PRODUCTIONS];
    common_matches(d, common);
    for (size_t k = 0; k < d->prog->nprods; k++) n += common[k];
    return n;
}

uint64_t dise_uops(const dise_t *d)
{
    uint64_t n = d->stat_uops, common[DISE_MAX_PRODUCTIONS];
    common_matches(d, common);
    for (size_t k = 0; k < d->prog->nprods; k++) {
        const dise_production_t *p = &d->prog->prods[k];
        if (p->ctl >= 0 && d->prog->ctls[p->ctl].len == 1) n += common[k];
    }
    return n;
}

/* ---- pattern evaluation ------------------------------------------------------ */

enum { TV_FALSE = 0, TV_TRUE = 1, TV_UNKNOWN = 2 };

static bool class_matches(const insn_t *in, uint64_t cls)
{
    switch (cls) {
    case DC_PROC_CALL: return in->flags & IF_CALL;
    case DC_RETURN:    return in->flags & IF_RETURN;
    case DC_BRANCH:    return in->flags & IF_BRANCH;
    case DC_JUMP:      return (in->flags & IF_JUMP) && !(in->flags & (IF_CALL | IF_RETURN));
    case DC_MEM_OP:    return in->flags & (IF_LOAD | IF_STORE);
    case DC_LOAD:      return in->flags & IF_LOAD;
    case DC_STORE:     return in->flags & IF_STORE;
    case DC_INDIRECT:  return in->flags & IF_INDIRECT;
    default:           return in->opclass == cls;
    }
}

/* The instruction flags (IF_*) of which an instruction must have one for
 * T.OPCLASS == cls to hold; 0 when no flag decides it (class_matches). */
static uint16_t class_flags(uint64_t cls)
{
    switch (cls) {
    case DC_PROC_CALL: return IF_CALL;
    case DC_RETURN:    return IF_RETURN;
    case DC_BRANCH:    return IF_BRANCH;
    case DC_JUMP:      return IF_JUMP;
    case DC_MEM_OP:    return IF_LOAD | IF_STORE;
    case DC_LOAD:      return IF_LOAD;
    case DC_STORE:     return IF_STORE;
    case DC_INDIRECT:  return IF_INDIRECT;
    default:           return 0;
    }
}

/* The instruction flags of which an instruction must have one for pattern
 * node `at` to be anything but false, whatever the HPS flags; 0 when there
 * is no such condition.  dise_classify skips a production whose pattern's
 * condition an instruction fails, as eval would find it false. */
static uint16_t flags_needed(const dise_program_t *p, int32_t at)
{
    const dise_node_t *n = &p->nodes[at];
    switch (n->kind) {
    case PX_AND: {
        uint16_t a = flags_needed(p, n->a);
        return a ? a : flags_needed(p, n->b);
    }
    case PX_OR: {
        uint16_t a = flags_needed(p, n->a), b = flags_needed(p, n->b);
        return a && b ? a | b : 0;
    }
    case PX_CLASS: return class_flags(n->value);
    default:       return 0;
    }
}

/* Does pattern node `at` test a flag (overflow_N, zero_N)? */
static bool tests_flag(const dise_program_t *p, int32_t at)
{
    const dise_node_t *n = &p->nodes[at];
    switch (n->kind) {
    case PX_OVERFLOW: case PX_ZERO: return true;
    case PX_AND: case PX_OR:        return tests_flag(p, n->a) || tests_flag(p, n->b);
    case PX_NOT:                    return tests_flag(p, n->a);
    default:                        return false;
    }
}

/* The conjuncts of node `at` (the operands of its top &&s), appended to
 * out[*n..] (only counted in *n when out is NULL): those that test no
 * flag when `flagged` is false, else the others. */
static void add_conjuncts(const dise_program_t *p, int32_t at, bool flagged, int32_t *out,
                          uint32_t *n)
{
    const dise_node_t *x = &p->nodes[at];
    if (x->kind == PX_AND) {
        add_conjuncts(p, x->a, flagged, out, n);
        add_conjuncts(p, x->b, flagged, out, n);
    } else if (tests_flag(p, at) == flagged) {
        if (out) out[*n] = at;
        (*n)++;
    }
}

/* Every production's conjuncts, flag-free ones first (dise_t.conj). */
static void find_conjuncts(dise_t *d)
{
    const dise_program_t *p = d->prog;
    uint32_t n = 0;
    for (size_t k = 0; k < p->nprods; k++) add_conjuncts(p, p->prods[k].pattern, false, NULL, &n);
    for (size_t k = 0; k < p->nprods; k++) add_conjuncts(p, p->prods[k].pattern, true, NULL, &n);
    d->conj = xcalloc(n + 1, sizeof *d->conj);
    n = 0;
    for (size_t k = 0; k < p->nprods; k++) {
        d->conj_at[k] = n;
        add_conjuncts(p, p->prods[k].pattern, false, d->conj, &n);
        d->conj_flagged[k] = n;
        add_conjuncts(p, p->prods[k].pattern, true, d->conj, &n);
    }
    d->conj_at[p->nprods] = n;
}

/* Does pattern node `at` test flags and nothing else? */
static bool tests_only_flags(const dise_program_t *p, int32_t at)
{
    const dise_node_t *n = &p->nodes[at];
    switch (n->kind) {
    case PX_OVERFLOW: case PX_ZERO: case PX_TRUE: return true;
    case PX_AND: case PX_OR: return tests_only_flags(p, n->a) && tests_only_flags(p, n->b);
    case PX_NOT:             return tests_only_flags(p, n->a);
    default:                 return false;
    }
}

static bool conjuncts_hold(const dise_t *d, uint32_t from, uint32_t to, const insn_t *in,
                           const uint32_t *flags);

/* flags_only and flags_pass: a production whose flag conjuncts read no
 * instruction field has them true or false under each combination
 * whatever the instruction; they are evaluated here once. */
static void tabulate_flag_conjuncts(dise_t *d)
{
    if (!d->tabulated) return;
    for (size_t k = 0; k < d->prog->nprods; k++) {
        bool only = true;
        for (uint32_t j = d->conj_flagged[k]; j < d->conj_at[k + 1] && only; j++)
            only = tests_only_flags(d->prog, d->conj[j]);
        if (!only) continue;
        d->flags_only |= 1ull << k;
        for (unsigned i = 0; i < d->set_stride; i++)
            if (conjuncts_hold(d, d->conj_flagged[k], d->conj_at[k + 1], NULL, d->combo_flags[i]))
                d->flags_pass[i] |= 1ull << k;
    }
}

/* The instruction flags of which an instruction must have one for any
 * production to match: every production's condition joined, or 0 when one
 * has none. */
static uint16_t any_needs(const dise_t *d)
{
    uint16_t any = 0;
    for (size_t k = 0; k < d->prog->nprods; k++) {
        if (!d->prod_needs[k]) return 0;
        any |= d->prod_needs[k];
    }
    return any;
}

/* The value of an instruction field; false when it has none (the target
 * of an indirect transfer, an unused register slot). */
static bool field_value(const insn_t *in, uint8_t field, uint64_t *v)
{
    switch (field) {
    case FLD_PC:      *v = in->pc; return true;
    case FLD_TARGET:  *v = in->target; return (in->flags & IF_DIRECT) != 0;
    case FLD_RD:      *v = in->rd; return in->rd != REG_NONE;
    case FLD_RS1:     *v = in->rs1; return in->rs1 != REG_NONE;
    case FLD_RS2:     *v = in->rs2; return in->rs2 != REG_NONE;
    case FLD_IMM:     *v = (uint64_t)in->imm; return true;
    case FLD_MEMSIZE: *v = in->memsize; return true;
    case FLD_OPCLASS: *v = in->opclass; return true;
    }
    return false;
}

static bool compare(uint8_t cmp, uint64_t a, uint64_t b, bool is_signed)
{
    if (is_signed) {
        int64_t x = (int64_t)a, y = (int64_t)b;
        switch (cmp) {
        case CMP_EQ: return x == y; case CMP_NE: return x != y;
        case CMP_LT: return x < y;  case CMP_LE: return x <= y;
        case CMP_GT: return x > y;  default:     return x >= y;
        }
    }
    switch (cmp) {
    case CMP_EQ: return a == b; case CMP_NE: return a != b;
    case CMP_LT: return a < b;  case CMP_LE: return a <= b;
    case CMP_GT: return a > b;  default:     return a >= b;
    }
}

/* Three-valued evaluation: flags are TV_UNKNOWN when `flags` is NULL
 * (classification at decode), otherwise read from the sampled flags. */
static int eval(const dise_program_t *p, int32_t at, const insn_t *in, const uint32_t *flags)
{
    const dise_node_t *n = &p->nodes[at];
    uint64_t a, b;
    switch (n->kind) {
    case PX_TRUE: return TV_TRUE;
    case PX_AND: {
        int x = eval(p, n->a, in, flags);
        if (x == TV_FALSE) return TV_FALSE;
        int y = eval(p, n->b, in, flags);
        if (y == TV_FALSE) return TV_FALSE;
        return x == TV_TRUE && y == TV_TRUE ? TV_TRUE : TV_UNKNOWN;
    }
    case PX_OR: {
        int x = eval(p, n->a, in, flags);
        if (x == TV_TRUE) return TV_TRUE;
        int y = eval(p, n->b, in, flags);
        if (y == TV_TRUE) return TV_TRUE;
        return x == TV_FALSE && y == TV_FALSE ? TV_FALSE : TV_UNKNOWN;
    }
    case PX_NOT: {
        int x = eval(p, n->a, in, flags);
        return x == TV_UNKNOWN ? TV_UNKNOWN : !x;
    }
    case PX_CLASS:  return class_matches(in, n->value);
    case PX_OPCODE: return in->op == n->value && !(in->flags & IF_DISE);
    case PX_CMP:
        if (!field_value(in, n->field, &a)) return TV_FALSE;
        return compare(n->cmp, a, n->value, n->field == FLD_IMM);
    case PX_CMP_FIELD:
        if (!field_value(in, n->field, &a) || !field_value(in, n->field2, &b)) return TV_FALSE;
        return compare(n->cmp, a, b, n->field == FLD_IMM && n->field2 == FLD_IMM);
    case PX_IN_RANGE:
        if (!field_value(in, n->field, &a)) return TV_FALSE;
        return a >= n->value && a < n->hi;
    case PX_OVERFLOW:
        if (!flags) return TV_UNKNOWN;
        return flags[0] >> n->counter & 1;
    case PX_ZERO:
        if (!flags) return TV_UNKNOWN;
        return flags[1] >> n->counter & 1;
    case PX_IN_TABLE:
        if (!field_value(in, n->field, &a) || n->value >= p->ntables) return TV_FALSE;
        return dise_table_row(&p->tables[n->value], a) != NULL;
    }
    return TV_FALSE;
}

/* ---- classification at decode --------------------------------------------------- */

/* What the productions in `mask` (those matching under one flag
 * combination) do: nothing, the common case of one counting production, or
 * something dise_match must work through. */
static uint8_t outcome_kind(const dise_t *d, uint64_t mask, uint8_t *inc, uint8_t *prod)
{
    *inc = *prod = 0;
    if (!mask) return DO_NONE;
    if (!d->tabulated || (mask & (mask - 1))) return DO_GENERAL;
    unsigned k = (unsigned)__builtin_ctzll(mask);
    const dise_production_t *p = &d->prog->prods[k];
    if (p->repl >= 0) return DO_GENERAL;
    if (p->ctl >= 0) {
        const dise_ctl_t *l = &d->prog->ctls[p->ctl];
        if (l->len > 1) return DO_GENERAL;
        if (l->len == 1) {
            const dise_uop_t *u = &d->prog->uops[l->start];
            if (u->kind != UOP_INC) return DO_GENERAL;
            *inc = u->counter;
        }
    }
    *prod = (uint8_t)k;
    return DO_COUNT;
}

/* The block loop's records, rows of the new set_cap (twice the old). */
static void grow_counts(dise_t *d)
{
    size_t old = d->set_cap / 2;
    edit_count_t *c = xcalloc(d->set_cap * d->set_stride, sizeof *c);
    for (unsigned i = 0; i < d->set_stride; i++)
        memcpy(c + (size_t)i * d->set_cap, d->counts + (size_t)i * old, old * sizeof *c);
    free(d->counts);
    d->counts = c;
    set_flag_index(d, d->flag_index);
}

static bool same_entry(const dise_t *d, size_t k, const dise_outcome_t *o, const uint64_t *masks)
{
    for (unsigned i = 0; i < d->set_stride; i++) {
        const dise_outcome_t *x = &d->outcomes[(k << d->set_shift) + i];
        if (x->exec != o->exec || x->truth != o->truth || x->mask != masks[i]) return false;
    }
    return true;
}

static void exec_recorded(cpu_t *c, insn_t *in);
static void exec_recorded_call(cpu_t *c, insn_t *in);
static void hook_drops(dise_t *d);

/* The block loop's record of outcome o (edit.h): the common case counts
 * the match of its production (in count_discard when the entry's matches
 * are derived) and increments its counter, or the spare word; anything
 * else names the word held at 0.  The semantics it runs are the
 * instruction's own, followed by its per-event record (exec_recorded,
 * or exec_recorded_call for a call) when the exact profiles take one, in
 * every state. */
static exec_fn recorded_exec(exec_fn exec, uint8_t truth)
{
    return truth == DISE_TRUTH_CALL ? exec_recorded_call : truth ? exec_recorded : exec;
}

static edit_count_t count_record(dise_t *d, const dise_outcome_t *o, exec_fn exec, uint8_t truth,
                                 bool derived)
{
    exec_fn own = recorded_exec(exec, truth);
    if (o->kind != DO_COUNT) return (edit_count_t){ .exec = own, .counter = &d->count_never };
    return (edit_count_t){ .exec = own, .counter = o->inc ? &d->ctr[o->inc] : &d->count_spare,
                           .match = derived ? &d->count_discard : &d->count_matches[o->prod] };
}

/* The one production the common case of outcomes o[0..set_stride) matches
 * (-1: none, or more than one). */
static int16_t common_production(const dise_t *d, const dise_outcome_t *o)
{
    int16_t prod = -1;
    for (unsigned i = 0; i < d->set_stride; i++) {
        if (o[i].kind != DO_COUNT) continue;
        if (prod >= 0 && prod != o[i].prod) return -1;
        prod = o[i].prod;
    }
    return prod;
}

/* New entry k's records join the uniform words of the states (edit.h):
 * a state keeps its word while every entry's record there is the common
 * case with a derived count and that counter word. */
static void join_uniform(dise_t *d, size_t k)
{
    for (unsigned i = 0; i < d->set_stride; i++) {
        const edit_count_t *r = &d->counts[(size_t)i * d->set_cap + k];
        uint64_t *w = d->derived_prod[k] >= 0 ? r->counter : &d->count_never;
        if (k == 1) d->uniform[i] = w;
        else if (d->uniform[i] != w) d->uniform[i] = &d->count_never;
    }
    set_flag_index(d, d->flag_index);
}

/* cuop u appended to the array *a of *n (room for *cap). */
static void push_cuop(dise_cuop_t **a, size_t *n, size_t *cap, dise_cuop_t u)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        *a = xrealloc(*a, *cap * sizeof **a);
    }
    (*a)[(*n)++] = u;
}

/* Counter n's micro-ops among u[0..len) when they leave it known (its last
 * set is of a constant): its value and overflow flag after them, as
 * run_cuops leaves them.  False when it is not known. */
static bool known_after(const dise_t *d, const dise_cuop_t *u, uint32_t len, unsigned n,
                        uint64_t *value, bool *over)
{
    int64_t last = -1;
    for (uint32_t k = 0; k < len; k++)
        if (u[k].counter == n && (u[k].kind == CU_SET || u[k].kind == CU_SET_DREG)) last = k;
    if (last < 0 || u[last].kind != CU_SET) return false;
    const uint64_t top = d->ctr_mask;
    uint64_t v = u[last].value;
    bool o = false;
    for (uint32_t k = (uint32_t)last + 1; k < len; k++) {
        if (u[k].counter != n) continue;
        if (u[k].kind == CU_INC) {
            o |= v == top;
            v = (v + 1) & top;
        } else {
            o |= v == 0;
            v = (v - 1) & top;
        }
    }
    *value = v;
    *over = o;
    return true;
}

/* The micro-ops u[0..len) of plan p, in its two parts (dise_plan_t). */
static void split_plan(dise_t *d, dise_plan_t *p, const dise_cuop_t *u, uint32_t len)
{
    p->all_uops = len;
    p->sets = (uint32_t)d->nplan_sets;
    for (unsigned n = 1; n <= DISE_MAX_COUNTERS; n++) {
        uint64_t v;
        bool over;
        if (!known_after(d, u, len, n, &v, &over)) continue;
        push_cuop(&d->plan_sets, &d->nplan_sets, &d->plan_sets_cap,
                  (dise_cuop_t){ .kind = CU_SET, .counter = (uint8_t)n, .value = v });
        p->known |= 1u << n;
        p->idx_known |= d->index_bit_overflow[n] | d->index_bit_zero[n];
        if (over) {
            p->over |= 1u << n;
            p->idx_set |= d->index_bit_overflow[n];
        }
        if (v == 0) {
            p->zero |= 1u << n;
            p->idx_set |= d->index_bit_zero[n];
        }
    }
    p->nsets = (uint32_t)d->nplan_sets - p->sets;
    p->uops = (uint32_t)d->nplan_uops;
    for (uint32_t k = 0; k < len; k++)
        if (!(p->known >> u[k].counter & 1))
            push_cuop(&d->plan_uops, &d->nplan_uops, &d->plan_uops_cap, u[k]);
    p->nuops = (uint32_t)d->nplan_uops - p->uops;
}

/* The plan of mask (dise_plan_t), made once: its index in d->plans. */
static uint32_t plan_for(dise_t *d, uint64_t mask)
{
    for (size_t k = 0; k < d->nplans; k++)
        if (d->plans[k].mask == mask) return (uint32_t)k;
    const dise_program_t *p = d->prog;
    dise_plan_t plan = { .mask = mask, .repl = -1 };
    dise_cuop_t *u = NULL;
    size_t n = 0, cap = 0;
    for (uint64_t m = mask; m; m &= m - 1) {
        const dise_production_t *pr = &p->prods[__builtin_ctzll(m)];
        if (pr->ctl >= 0) {
            const dise_ctl_t *l = &p->ctls[pr->ctl];
            for (uint32_t k = 0; k < l->len; k++) push_cuop(&u, &n, &cap, d->cuops[l->start + k]);
        }
        if (pr->repl >= 0) {
            if (plan.repl < 0) plan.repl = pr->repl;
            else plan.shadowed++;
        }
    }
    split_plan(d, &plan, u, (uint32_t)n);
    free(u);
    if (d->nplans == d->plans_cap) {
        d->plans_cap = d->plans_cap ? 2 * d->plans_cap : 16;
        d->plans = xrealloc(d->plans, d->plans_cap * sizeof *d->plans);
    }
    d->plans[d->nplans] = plan;
    return (uint32_t)d->nplans++;
}

/* Outcome o's plan, when match_all would walk its mask (tabulated
 * DO_GENERAL). */
static void plan_outcome(dise_t *d, dise_outcome_t *o)
{
    o->plan = o->kind == DO_GENERAL && d->tabulated ? plan_for(d, o->mask) : 0;
}

/* The entry for an instruction with semantics exec, per-event truth, and
 * the match masks of dise_classify, made once.  The common case's matches
 * of a control transfer (which cannot fault) in a program memory are
 * derived from its execution counts when one production is all it ever
 * counts. */
static uint16_t intern_entry(dise_t *d, exec_fn exec, uint8_t truth, const uint64_t *masks,
                             bool transfer)
{
    dise_outcome_t o = { .exec = exec, .truth = truth };
    for (size_t k = 1; k < d->nsets; k++)
        if (same_entry(d, k, &o, masks)) return (uint16_t)k;
    if (d->nsets > UINT16_MAX) {
        fprintf(stderr, "hps-sim: internal error: more than %u DISE dispatch entries\n",
                UINT16_MAX);
        exit(EXIT_INTERNAL);
    }
    if (d->nsets == d->set_cap) {
        d->set_cap *= 2;
        d->outcomes = xrealloc(d->outcomes, (d->set_cap << d->set_shift) * sizeof *d->outcomes);
        d->derived_prod = xrealloc(d->derived_prod, d->set_cap * sizeof *d->derived_prod);
        grow_counts(d);
    }
    dise_outcome_t *row = &d->outcomes[d->nsets << d->set_shift];
    for (unsigned i = 0; i < d->set_stride; i++) {
        o.mask = masks[i];
        o.kind = outcome_kind(d, masks[i], &o.inc, &o.prod);
        plan_outcome(d, &o);
        row[i] = o;
    }
    int16_t prod = transfer && d->prog_mem ? common_production(d, row) : -1;
    d->derived_prod[d->nsets] = prod;
    if (prod >= 0) hook_drops(d);
    for (unsigned i = 0; i < d->set_stride; i++)
        d->counts[(size_t)i * d->set_cap + d->nsets] = count_record(d, &row[i], exec, truth,
                                                                    prod >= 0);
    join_uniform(d, d->nsets);
    return (uint16_t)d->nsets++;
}

static void exec_candidate(cpu_t *c, insn_t *in);

/* The conjuncts conj[from .. to) all hold for `in` under the flags
 * `flags` (NULL for those that test no flag: they are true or false, no
 * flag makes them unknown).  A production's flag-free ones and then its
 * others holding: its pattern is true, as eval of the whole finds it. */
static bool conjuncts_hold(const dise_t *d, uint32_t from, uint32_t to, const insn_t *in,
                           const uint32_t *flags)
{
    for (uint32_t j = from; j < to; j++)
        if (eval(d->prog, d->conj[j], in, flags) != TV_TRUE) return false;
    return true;
}

/* Tabulated: masks[i] = the productions that match under flag combination
 * i.  Otherwise masks[0] = the productions that may match (evaluated again
 * at run time).  Returns whether any production can match. */
static bool classify_masks(const dise_t *d, const insn_t *in, uint64_t *masks)
{
    uint64_t any = 0;
    for (size_t k = 0; k < d->prog->nprods; k++) {
        if (d->prod_needs[k] && !(in->flags & d->prod_needs[k])) continue;
        if (!d->tabulated) {
            if (eval(d->prog, d->prog->prods[k].pattern, in, NULL) != TV_FALSE)
                masks[0] |= 1ull << k;
            continue;
        }
        if (!conjuncts_hold(d, d->conj_at[k], d->conj_flagged[k], in, NULL)) continue;
        if (d->flags_only >> k & 1) {
            for (unsigned i = 0; i < d->set_stride; i++) masks[i] |= d->flags_pass[i] & 1ull << k;
            continue;
        }
        for (unsigned i = 0; i < d->set_stride; i++)
            if (conjuncts_hold(d, d->conj_flagged[k], d->conj_at[k + 1], in, d->combo_flags[i]))
                masks[i] |= 1ull << k;
    }
    for (unsigned i = 0; i < d->set_stride; i++) any |= masks[i];
    return any != 0;
}

static void classify_insn(dise_t *d, insn_t *in)
{
    in->dise = 0;
    if (!(in->flags & d->any_needs) && d->any_needs &&
        !(d->truth && hps_truth_per_event(d->truth, in)))
        return;                                 /* as below: no production can match */
    uint64_t masks[1u << DISE_TABLE_FLAGS];     /* the first set_stride are used */
    memset(masks, 0, d->set_stride * sizeof *masks);
    bool candidate = classify_masks(d, in, masks);
    uint8_t truth = !(d->truth && hps_truth_per_event(d->truth, in)) ? 0
                    : in->flags & IF_CALL ? DISE_TRUTH_CALL : DISE_TRUTH_EVENT;
    if (!candidate && !truth) return;
    in->dise = intern_entry(d, in->exec, truth, masks,
                            (in->flags & IF_TRANSFER) && !(in->flags & IF_SYSCALL));
    in->exec = candidate ? exec_candidate : recorded_exec(in->exec, truth);
}

void dise_classify(dise_t *d, insn_t *in)
{
    bool counting_down = d->live != NULL;
    unlive(d);                          /* a new entry may end the state's uniform word */
    classify_insn(d, in);
    if (counting_down) relive(d);
}

/* ---- the exact profiles ------------------------------------------------------------ */

/* The execution counts of the derived entries' instructions among
 * slots[0..n), added to sum[their production]. */
static void sum_derived(const dise_t *d, uint64_t *sum, const insn_t *slots, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const insn_t *in = &slots[k];
        if (in->exec && in->count && in->dise && in->dise < d->nsets &&
            d->derived_prod[in->dise] >= 0)
            sum[d->derived_prod[in->dise]] += in->count;
    }
}

/* A page's counts, into the exact profiles (hps_truth_add_counts) and
 * derived_counted (sum_derived), in one pass over its slots. */
static void add_counted(void *ctx, insn_t *slots, size_t n)
{
    dise_t *d = ctx;
    for (size_t k = 0; k < n; k++) {
        const insn_t *in = &slots[k];
        if (!in->exec || !in->count) continue;
        if (d->truth) hps_truth_add_count(d->truth, in);
        if (in->dise && in->dise < d->nsets && d->derived_prod[in->dise] >= 0)
            d->derived_counted[d->derived_prod[in->dise]] += in->count;
    }
}

/* The drop hook: a dropped page's counts are added before they are lost. */
static void add_dropped(void *ctx, insn_t *slots, size_t n)
{
    dise_t *d = ctx;
    add_counted(d, slots, n);
    if (d->next_drop) d->next_drop(d->next_drop_ctx, slots, n);
}

/* Chain add_dropped in front of the program memory's drop hook, once. */
static void hook_drops(dise_t *d)
{
    if (d->drop_hooked) return;
    d->next_drop = d->prog_mem->on_decoded_drop;
    d->next_drop_ctx = d->prog_mem->on_decoded_drop_ctx;
    d->prog_mem->on_decoded_drop = add_dropped;
    d->prog_mem->on_decoded_drop_ctx = d;
    d->drop_hooked = true;
}

/* The block loop's way to the indirect calls' records (edit.h): the
 * semantics exec_recorded_call runs first, and the record it adds. */
static exec_fn plain_exec(const edit_view_t *v, const insn_t *in)
{
    const dise_t *d = (const dise_t *)((const char *)v - offsetof(dise_t, view));
    return d->outcomes[(size_t)in->dise << d->set_shift].exec;
}

static void record_call(void *ctx, uint64_t from, uint64_t to)
{
    hps_truth_record_call(ctx, from, to);
}

/* record_call when the method profile alone takes calls, through its
 * recent lines (ctx): hot_method.acf's exact profile. */
static void record_call_method(void *ctx, uint64_t from, uint64_t to)
{
    (void)from;
    profile_recent_add(ctx, to, 0);
}

void dise_set_truth(dise_t *d, hps_truth_t *t)
{
    if (d->truth || !t) return;
    d->truth = t;
    d->view.recorded_call = exec_recorded_call;
    d->view.plain_exec = plain_exec;
    bool method_alone = t->method && t->method_recent && !t->pair;   /* as they are now */
    d->view.record_call = method_alone ? record_call_method : record_call;
    d->view.record_ctx = method_alone ? (void *)t->method_recent : (void *)t;
    hook_drops(d);
}

/* At the end: every page's counts, and the drop hook out of the chain. */
static void add_final_counts(dise_t *d)
{
    if (!d->drop_hooked || d->counts_added) return;
    if (d->truth) hps_truth_flush(d->truth);
    mem_for_each_decoded(d->prog_mem, add_counted, d);
    d->prog_mem->on_decoded_drop = d->next_drop;
    d->prog_mem->on_decoded_drop_ctx = d->next_drop_ctx;
    d->counts_added = true;
}

typedef struct live_sum {
    const dise_t *d;
    uint64_t *sum;
} live_sum_t;

static void add_live(void *ctx, insn_t *slots, size_t n)
{
    live_sum_t *l = ctx;
    sum_derived(l->d, l->sum, slots, n);
}

/* The common case's matches of the derived entries, by production, into
 * out[0..nprods): their counts (the pages still decoded read now, before
 * dise_finish) less the engine's part of them. */
static void derived_matches(const dise_t *d, uint64_t *out)
{
    size_t np = d->prog->nprods;
    memcpy(out, d->derived_counted, np * sizeof *out);
    if (d->drop_hooked && !d->counts_added)
        mem_for_each_decoded(d->prog_mem, add_live, &(live_sum_t){ d, out });
    for (size_t k = 0; k < np; k++) out[k] -= d->derived_tally[k];
}

/* ---- instantiation --------------------------------------------------------------- */

/* Semantics of the inserted operations.  They read and write the unified
 * register file only (DISE-private registers and, as sources, the
 * program's), never pc: the run loop owns the position in the sequence. */
static void dop_mov_imm(cpu_t *c, insn_t *i)  { c->reg[i->rd] = (uint64_t)i->imm; }
static void dop_mov_reg(cpu_t *c, insn_t *i)  { c->reg[i->rd] = c->reg[i->rs1]; }
static void dop_add_imm(cpu_t *c, insn_t *i)  { c->reg[i->rd] = c->reg[i->rs1] + (uint64_t)i->imm; }
static void dop_add_reg(cpu_t *c, insn_t *i)  { c->reg[i->rd] = c->reg[i->rs1] + c->reg[i->rs2]; }
static void dop_sub_reg(cpu_t *c, insn_t *i)  { c->reg[i->rd] = c->reg[i->rs1] - c->reg[i->rs2]; }
static void dop_target(cpu_t *c, insn_t *i)
{
    uint64_t t = c->reg[i->rs1] + (uint64_t)i->imm;
    c->reg[i->rd] = t & ~(uint64_t)(c->isa->insn_align - 1);
}
/* T.TAKEN: the program's next pc (T.INSN has run) is not the fall-through. */
static void dop_taken(cpu_t *c, insn_t *i) { c->reg[i->rd] = c->pc != (uint64_t)i->imm; }
static void dop_counter(cpu_t *c, insn_t *i)
{
    c->reg[i->rd] = counter_value(c->dise, (unsigned)i->target);
}
static void dop_beqz(cpu_t *c, insn_t *i)
{
    if (c->reg[i->rs1] == 0) c->dise->branch_to = (int32_t)i->target;
}
static void dop_bnez(cpu_t *c, insn_t *i)
{
    if (c->reg[i->rs1] != 0) c->dise->branch_to = (int32_t)i->target;
}
static void dop_jump(cpu_t *c, insn_t *i) { c->dise->branch_to = (int32_t)i->target; }
static void dop_call(cpu_t *c, insn_t *i) { (void)c; (void)i; }  /* dise_step_seq calls it */

/* tally dN: a word of the runtime's memory (DISE's own data, never the
 * program's) read and written back; the timing models see the access at
 * c->mem_addr as a load and a store (IF_LOAD | IF_STORE). */
static void dop_tally(cpu_t *c, insn_t *i)
{
    uint64_t a = dise_tally_addr(c, i), v = 0;
    mem_t *m = runtime_mem(c->dise->runtime);
    c->mem_addr = a;
    if (mem_read(m, a, &v, sizeof v)) {
        v++;
        mem_write(m, a, &v, sizeof v);
    }
}

static const char *const dop_names[DOP_COUNT] = {
    "T.INSN", "call", "mov", "add", "sub", "beqz", "bnez", "j", "tally"
};

/* A source operand becomes either an immediate (known when the sequence is
 * instantiated) or a register read (known when it runs). */
typedef struct operand {
    bool is_reg;
    uint8_t reg;
    int64_t imm;
    exec_fn special;        /* dop_target / dop_counter need their own exec */
    uint64_t special_arg;
} operand_t;

static operand_t instantiate_src(const dise_t *d, const insn_t *orig, const dise_rinsn_t *r)
{
    operand_t o = { false, 0, 0, NULL, 0 };
    switch (r->src) {
    case SRC_CONST:     o.imm = r->value; break;
    case SRC_PARAM:     o.imm = d->prog->params[r->value].value; break;
    case SRC_DREG:      o.is_reg = true; o.reg = (uint8_t)(REG_DISE0 + r->value); break;
    case SRC_T_PC:      o.imm = (int64_t)orig->pc; break;
    case SRC_T_IMM:     o.imm = orig->imm; break;
    case SRC_T_OPCLASS: o.imm = orig->opclass; break;
    case SRC_T_RS1:     o.is_reg = true; o.reg = orig->rs1; break;
    case SRC_T_RS2:     o.is_reg = true; o.reg = orig->rs2; break;
    case SRC_T_RD:      o.is_reg = true; o.reg = orig->rd == REG_SINK ? REG_ZERO : orig->rd; break;
    case SRC_T_TARGET:
        if (orig->flags & IF_DIRECT) o.imm = (int64_t)orig->target;
        else if (orig->flags & (IF_JUMP | IF_CALL | IF_RETURN)) {
            o.special = dop_target;
            o.reg = orig->rs1;
            o.imm = orig->imm;
        }
        break;
    case SRC_T_EA:
        if (orig->flags & (IF_LOAD | IF_STORE)) {
            o.special = dop_add_imm;
            o.reg = orig->rs1;
            o.imm = orig->imm;
        }
        break;
    case SRC_T_TAKEN:
        if (orig->flags & (IF_BRANCH | IF_JUMP | IF_CALL | IF_RETURN)) {
            o.special = dop_taken;
            o.reg = REG_NONE;
            o.imm = (int64_t)(orig->pc + orig->len);
        }
        break;
    case SRC_COUNTER:
        o.special = dop_counter;
        o.special_arg = (uint64_t)r->value;
        break;
    case SRC_TABLE: {
        size_t t = (size_t)r->value / DISE_TABLE_COLS;
        const int64_t *row = t < d->prog->ntables ? dise_table_row(&d->prog->tables[t], orig->pc) : NULL;
        o.imm = row ? row[r->value % DISE_TABLE_COLS] : 0;
        break;
    }
    }
    if (o.is_reg && o.reg == REG_NONE) { o.is_reg = false; o.imm = 0; }
    return o;
}

/* mov / add / sub: pick the exec for the operand kind.  Forms without a
 * direct exec (add of a computed target, say) take two inserted
 * instructions: the computed operand into DISE's own scratch register
 * first (REG_DISE_TEMP, which no ACF or handler can name: d15, used before,
 * is the assembly handlers' buffer end). */
static unsigned instantiate_alu(const dise_t *d, const insn_t *orig, const dise_rinsn_t *r,
                                insn_t *out)
{
    operand_t o = instantiate_src(d, orig, r);
    uint8_t rd = (uint8_t)(REG_DISE0 + r->rd), rs = (uint8_t)(REG_DISE0 + r->rs);
    unsigned n = 0;
    if (o.special) {
        uint8_t dst = r->op == DOP_MOV ? rd : REG_DISE_TEMP;
        out[n].exec = o.special;
        out[n].rd = dst; out[n].rs1 = o.reg; out[n].imm = o.imm; out[n].target = o.special_arg;
        n++;
        if (r->op == DOP_MOV) return n;
        o.is_reg = true;
        o.reg = REG_DISE_TEMP;
    }
    insn_t *x = &out[n++];
    x->rd = rd;
    if (r->op == DOP_MOV) {
        x->exec = o.is_reg ? dop_mov_reg : dop_mov_imm;
        x->rs1 = o.is_reg ? o.reg : REG_NONE;
        x->imm = o.imm;
    } else if (o.is_reg) {
        x->exec = r->op == DOP_ADD ? dop_add_reg : dop_sub_reg;
        x->rs1 = rs; x->rs2 = o.reg;
    } else {
        x->exec = dop_add_imm;
        x->rs1 = rs;
        x->imm = r->op == DOP_ADD ? o.imm : -o.imm;
    }
    return n;
}

static void init_inserted(insn_t *x, const insn_t *orig, const dise_rinsn_t *r)
{
    memset(x, 0, sizeof *x);
    x->pc = orig->pc;
    x->len = orig->len;
    x->raw = orig->raw;
    x->rd = x->rs1 = x->rs2 = x->rs3 = REG_NONE;
    x->flags = IF_DISE;
    x->opclass = OC_DISE;
    x->op = r->op;
    x->rm = r->role;
}

/* Instantiate replacement `repl` for instruction `orig`.  RT branch targets
 * are mapped to positions in the instantiated sequence (an RT instruction
 * may expand to two). */
static dise_seq_t *instantiate(dise_t *d, const insn_t *orig, int32_t repl)
{
    const dise_repl_t *rp = &d->prog->repls[repl];
    dise_seq_t *s = xcalloc(1, sizeof *s + 2 * (rp->len + 1) * sizeof(insn_t) +
                               (rp->len + 1) * sizeof(uint32_t));
    s->pc = orig->pc;
    s->raw = orig->raw;
    s->repl = repl;
    uint32_t *pos = (uint32_t *)(s->insns + 2 * (rp->len + 1));
    uint32_t n = 0;
    for (uint32_t k = 0; k < rp->len; k++) {
        const dise_rinsn_t *r = &d->prog->rt[rp->start + k];
        pos[k] = n;
        insn_t *x = &s->insns[n];
        init_inserted(x, orig, r);
        switch (r->op) {
        case DOP_INSN:
            x->exec = NULL;                     /* marks T.INSN */
            x->rm = DISE_ROLE_NONE;
            n++;
            break;
        case DOP_CALL:
            x->exec = dop_call;
            x->flags |= IF_JUMP | IF_CALL;
            x->target = d->handler_addr[r->target];
            x->imm = r->target;
            n++;
            break;
        case DOP_MOV: case DOP_ADD: case DOP_SUB:
            init_inserted(&x[1], orig, r);      /* room for a two-instruction form */
            n += instantiate_alu(d, orig, r, x);
            break;
        case DOP_TALLY:
            x->exec = dop_tally;
            x->flags |= IF_LOAD | IF_STORE;
            x->memsize = 8;
            x->rs1 = (uint8_t)(REG_DISE0 + r->rs);
            x->imm = (int64_t)d->tally_base;
            x->target = d->tally_words;
            n++;
            break;
        default:                                /* beqz / bnez / j */
            x->exec = r->op == DOP_BEQZ ? dop_beqz : r->op == DOP_BNEZ ? dop_bnez : dop_jump;
            if (r->op != DOP_JUMP) x->rs1 = (uint8_t)(REG_DISE0 + r->rs);
            x->target = r->target;              /* RT index, remapped below */
            n++;
            break;
        }
    }
    pos[rp->len] = n;
    s->penalty_role = DISE_ROLE_SAMPLE;
    for (uint32_t k = 0; k < n; k++)
        if (s->insns[k].exec) { s->penalty_role = s->insns[k].rm; break; }
    for (uint32_t k = 0; k < n; k++) {
        insn_t *x = &s->insns[k];
        if (x->exec == dop_beqz || x->exec == dop_bnez || x->exec == dop_jump)
            x->target = pos[x->target - rp->start];
    }
    s->len = n;
    s->straight = n > 0 && !s->insns[n - 1].exec;
    for (uint32_t k = 0; k + 1 < n; k++) {
        const insn_t *x = &s->insns[k];
        if (!x->exec || x->exec == dop_beqz || x->exec == dop_bnez || x->exec == dop_jump)
            s->straight = false;
    }
    return s;
}

static size_t seq_hash(uint64_t pc, uint32_t raw, int32_t repl, size_t cap)
{
    uint64_t h = (pc ^ (uint64_t)raw << 32 ^ (uint64_t)repl << 17) * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 24) & (cap - 1);
}

static void seq_table_grow(dise_t *d)
{
    size_t cap = d->seq_cap ? 2 * d->seq_cap : 256;
    dise_seq_t **t = xcalloc(cap, sizeof *t);
    for (size_t k = 0; k < d->seq_cap; k++) {
        dise_seq_t *s = d->seq_table[k];
        if (!s) continue;
        size_t i = seq_hash(s->pc, s->raw, s->repl, cap);
        while (t[i]) i = (i + 1) & (cap - 1);
        t[i] = s;
    }
    free(d->seq_table);
    d->seq_table = t;
    d->seq_cap = cap;
}

/* The instantiated sequence for (instruction, replacement), made once. */
static dise_seq_t *sequence_lookup(dise_t *d, const insn_t *orig, int32_t repl)
{
    if (2 * (d->seq_used + 1) > d->seq_cap) seq_table_grow(d);
    size_t i = seq_hash(orig->pc, orig->raw, repl, d->seq_cap);
    for (dise_seq_t *s; (s = d->seq_table[i]); i = (i + 1) & (d->seq_cap - 1))
        if (s->pc == orig->pc && s->raw == orig->raw && s->repl == repl) return s;
    dise_seq_t *s = instantiate(d, orig, repl);
    d->seq_table[i] = s;
    d->seq_used++;
    return s;
}

/* sequence_lookup, through the last one found for the same slot first. */
static inline __attribute__((always_inline)) dise_seq_t *sequence_for(dise_t *d, const insn_t *orig, int32_t repl)
{
    dise_seq_t **r = &d->seq_recent[((uintptr_t)orig / sizeof *orig) & 255];
    dise_seq_t *s = *r;
    if (likely(s && s->pc == orig->pc && s->raw == orig->raw && s->repl == repl)) return s;
    return *r = sequence_lookup(d, orig, repl);
}

/* ---- matching at run time ----------------------------------------------------------- */

/* The general rules: every matching production's micro-ops, and the
 * first replacement. */
static dise_seq_t *match_all(dise_t *d, cpu_t *c, insn_t *in, uint64_t mask)
{
    uint32_t flags[2] = { d->overflow_bits, d->zero_bits };   /* sampled once */
    int32_t repl = -1;
    bool matched = false;
    while (mask) {
        unsigned k = (unsigned)__builtin_ctzll(mask);
        mask &= mask - 1;
        const dise_production_t *p = &d->prog->prods[k];
        if (!d->tabulated && eval(d->prog, p->pattern, in, flags) != TV_TRUE) continue;
        matched = true;
        d->prod_matches[k]++;
        if (p->ctl >= 0) run_ctl(d, c, p->ctl);
        if (p->repl >= 0) {
            if (repl < 0) repl = p->repl;
            else d->stat_shadowed++;
        }
    }
    if (matched) d->stat_matches++;
    if (repl < 0) return NULL;
    d->stat_replacements++;
    return sequence_for(d, in, repl);
}

/* Plan p's micro-ops, as run_cuops would run them all in order: the known
 * counters' values and flags written, the others' micro-ops run. */
static inline __attribute__((always_inline)) void run_plan(dise_t *d, const cpu_t *c,
                                                           const dise_plan_t *p)
{
    if (p->known) {
        for (const dise_cuop_t *s = d->plan_sets + p->sets, *end = s + p->nsets; s < end; s++)
            d->ctr[s->counter] = s->value;
        d->overflow_bits = (d->overflow_bits & ~p->known) | p->over;
        d->zero_bits = (d->zero_bits & ~p->known) | p->zero;
        unsigned idx = (d->flag_index & ~p->idx_known) | p->idx_set;
        if (idx != d->flag_index) set_flag_index(d, idx);
    }
    const dise_cuop_t *u = d->plan_uops + p->uops, *end = u + p->nuops;
    for (; u < end; u++) {              /* increments that change no flag, here */
        uint64_t v = d->ctr[u->counter];
        if (u->kind != CU_INC) break;
        if (v - 1 >= d->ctr_mask - 1) {
            if (u + 1 != end) break;
            /* the last, into or out of a flag (a burst's end): as run_cuops
             * would run it alone */
            counter_inc_edge(d, u->counter, v);
            u = end;
            break;
        }
        d->ctr[u->counter] = v + 1;
    }
    uint32_t rest = (uint32_t)(end - u);
    if (rest) run_cuops(d, c, u, rest);
    d->stat_uops += p->all_uops - rest;
}

/* match_all's rules for a tabulated entry's outcome o (DO_GENERAL), from
 * its plan: the same counts, micro-ops and replacement, without the walk. */
static inline __attribute__((always_inline)) dise_seq_t *match_planned(dise_t *d, cpu_t *c,
                                                                       insn_t *in,
                                                                       const dise_outcome_t *o)
{
    dise_plan_t *p = &d->plans[o->plan];
    p->runs++;                          /* its productions' matches */
    d->stat_matches++;
    run_plan(d, c, p);
    if (p->repl < 0) return NULL;
    d->stat_shadowed += p->shadowed;
    d->stat_replacements++;
    return sequence_for(d, in, p->repl);
}

/* The common case: one production counts the event. */
static inline void count_match(dise_t *d, const dise_outcome_t *o)
{
    d->stat_matches++;
    d->prod_matches[o->prod]++;
    if (o->inc) counter_inc(d, o->inc);
}

dise_seq_t *dise_match(dise_t *d, cpu_t *c, insn_t *in)
{
    unlive(d);
    const dise_outcome_t *o = dise_outcome(d, in);
    switch (o->kind) {
    case DO_NONE:  return NULL;
    case DO_COUNT: count_match(d, o); return NULL;
    default:       return d->tabulated ? match_planned(d, c, in, o) : match_all(d, c, in, o->mask);
    }
}

/* ---- speculation: the wrong path ------------------------------------------------------ */

void dise_spec_save(const dise_t *d, dise_spec_ckpt_t *ck)
{
    for (unsigned n = 0; n <= DISE_MAX_COUNTERS; n++) ck->ctr[n] = counter_value(d, n);
    ck->overflow_bits = d->overflow_bits;
    ck->zero_bits = d->zero_bits;
    ck->flag_index = d->flag_index;
}

void dise_spec_squash(dise_t *d, const dise_spec_ckpt_t *ck)
{
    if (d->hw.spec_leak) return;
    unlive(d);
    if (memcmp(ck->ctr, d->ctr, sizeof ck->ctr) || ck->overflow_bits != d->overflow_bits ||
        ck->zero_bits != d->zero_bits)
        d->spec.restores++;
    memcpy(d->ctr, ck->ctr, sizeof ck->ctr);
    d->overflow_bits = ck->overflow_bits;
    d->zero_bits = ck->zero_bits;
    set_flag_index(d, ck->flag_index);
}

/* match_all's rules on the wrong path: the micro-ops of every matching
 * production, the first replacement; no statistic of the correct path. */
static int32_t spec_match_all(dise_t *d, const cpu_t *c, const insn_t *in, uint64_t mask,
                              bool *matched)
{
    uint32_t flags[2] = { d->overflow_bits, d->zero_bits };
    int32_t repl = -1;
    while (mask) {
        unsigned k = (unsigned)__builtin_ctzll(mask);
        mask &= mask - 1;
        const dise_production_t *p = &d->prog->prods[k];
        if (!d->tabulated && eval(d->prog, p->pattern, in, flags) != TV_TRUE) continue;
        *matched = true;
        if (p->ctl >= 0) run_ctl(d, c, p->ctl);
        if (p->repl >= 0 && repl < 0) repl = p->repl;
    }
    return repl;
}

dise_seq_t *dise_spec_match(dise_t *d, const cpu_t *shadow, const insn_t *in)
{
    if (!in->dise) return NULL;
    unlive(d);
    const dise_outcome_t *o = dise_outcome(d, in);
    uint64_t uops = d->stat_uops;
    bool matched = false;
    int32_t repl = -1;
    if (o->kind == DO_COUNT) {
        matched = true;
        if (o->inc) counter_inc(d, o->inc);
    } else if (o->kind == DO_GENERAL) {
        repl = spec_match_all(d, shadow, in, o->mask, &matched);
    }
    d->spec.uops += d->stat_uops - uops;     /* the correct path's count stays its own */
    d->stat_uops = uops;
    d->spec.matches += matched;
    if (repl < 0) return NULL;
    d->spec.expansions++;
    return sequence_for(d, in, repl);
}

/* ---- dispatch: the semantics classified instructions run ------------------------------ */

/* Start the replacement s of the instruction `in` whose step is under way:
 * the core has counted it and set pc past it; it does not retire now, and
 * runs again only as T.INSN.  The run loop sees d->seq and steps the
 * sequence. */
static inline __attribute__((always_inline)) void divert(dise_t *d, cpu_t *c, insn_t *in,
                                                      dise_seq_t *s)
{
    in->count--;
    if (d->derived_prod[in->dise] >= 0) d->derived_tally[d->derived_prod[in->dise]]--;
    c->replaced = true;
    d->seq = s;
    d->idx = 0;
    d->orig = in;
    d->penalty_pending = d->hw.replace_penalty;
    d->penalty_role = s->penalty_role;
    d->stat_penalty_by_role[s->penalty_role] += d->hw.replace_penalty;
}

static void exec_recorded(cpu_t *c, insn_t *in)
{
    dise_exec_original(c->dise, c, in);
}

/* exec_recorded for a call (DISE_TRUTH_CALL): its own semantics, the same
 * in every state (those of state 0), then its call's record, without the
 * tests of the instruction's flags. */
static void exec_recorded_call(cpu_t *c, insn_t *in)
{
    dise_t *d = c->dise;
    plain_exec(&d->view, in)(c, in);
    hps_truth_record_call(d->truth, in->pc, c->pc);
}

/* The match of candidate `in` under outcome o (the flags now): its
 * counts and micro-ops, and its replacement started.  A straight one that
 * the run loop runs from here (run_inline) ends with T.INSN done, as if the
 * instruction had run without one (the caller's step retires it) -- or,
 * with `leave`, for a transfer without a per-event record, with T.INSN
 * counted as its step counts it but not executed, and true returned: then
 * the caller executes it (the block loop, as its own kind: the transfer
 * ends the block, whose code the handler may have dropped).  true: no
 * replacement took it, its own semantics are still to run. */
static inline __attribute__((always_inline)) bool match_candidate(dise_t *d, cpu_t *c, insn_t *in,
                                                                  const dise_outcome_t *o,
                                                                  bool leave)
{
    d->count_spare = 1;                     /* it may have reached its top */
    if (d->derived_prod[in->dise] >= 0) d->derived_tally[d->derived_prod[in->dise]]++;
    if (o->kind == DO_GENERAL) {
        dise_seq_t *s = d->tabulated ? match_planned(d, c, in, o) : match_all(d, c, in, o->mask);
        if (!s) return true;
        divert(d, c, in, s);
        if (s->straight && d->run_inline) {
            d->run_inline(d->run_inline_ctx, c);        /* up to T.INSN, its last */
            c->replaced = false;
            if (leave && (in->flags & IF_TRANSFER) && !o->truth) {
                d->idx++;                               /* T.INSN, as dise_step_seq */
                d->seq = NULL;
                d->kind = DK_PROGRAM;
                c->stop_pc = in->pc;
                in->count++;
                if (d->derived_prod[in->dise] >= 0) d->derived_tally[d->derived_prod[in->dise]]++;
                c->pc = in->pc + in->len;
                return true;
            }
            dise_step_seq(d, c);
        }
        return false;
    }
    if (o->kind == DO_COUNT) count_match(d, o);
    return true;
}

/* Every case of exec_candidate(): the match, then the instruction or the
 * first step of its replacement. */
static __attribute__((noinline)) void exec_candidate_any(cpu_t *c, insn_t *in)
{
    dise_t *d = c->dise;
    unlive(d);
    if (match_candidate(d, c, in, dise_outcome(d, in), false)) dise_exec_original(d, c, in);
    relive(d);
}

/* The semantics of an instruction some production may match.  The common
 * case, one production counting the event with an increment that changes
 * no flag, is a few updates (edit_try_count, which the block loop also
 * does by itself) and a tail call of the instruction's own semantics. */
static void exec_candidate(cpu_t *c, insn_t *in)
{
    edit_view_t *v = &c->dise->view;
    const edit_count_t *x = edit_try_uniform(v->left) ? edit_record(v, in) : edit_try_count(v, in);
    if (unlikely(!x)) {
        exec_candidate_any(c, in);
        return;
    }
    x->exec(c, in);
}

/* The block loop's call when a classified instruction's count failed
 * (edit_view_t.miss, exec_miss; and the translator's, exec_trip, in line
 * in it): exec_candidate's second try would fail as well (the
 * state is unchanged), so a candidate goes to the match at once, and is
 * left to run as its own kind when nothing else is to be done with it (no
 * replacement, no per-event record); an instruction classified for the
 * exact profiles alone runs its semantics. */
static inline __attribute__((always_inline)) bool miss(cpu_t *c, insn_t *in)
{
    if (unlikely(in->exec != exec_candidate)) {
        in->exec(c, in);
        return false;
    }
    dise_t *d = c->dise;
    unlive(d);
    const dise_outcome_t *o = dise_outcome(d, in);
    bool own = match_candidate(d, c, in, o, true);
    if (own && o->truth) {                  /* the record follows its execution */
        dise_exec_original(d, c, in);
        own = false;
    }
    relive(d);
    return own;
}

static bool exec_miss(cpu_t *c, insn_t *in) { return miss(c, in); }

/* The translator's miss (edit_view_t.trip): the record's count, else the
 * block loop's miss, in one call from the translated code (no helper of
 * the translator's between them). */
static uint32_t exec_trip(cpu_t *c, insn_t *in)
{
    if (edit_try_count(&c->dise->view, in)) return EDIT_OWN;
    c->replaced = false;
    if (miss(c, in)) return EDIT_OWN;
    return c->replaced ? EDIT_REPLACED : EDIT_RAN;
}

/* ---- handler calls and returns -------------------------------------------------------- */

void dise_call_handler(dise_t *d, cpu_t *c, dise_seq_t *s, uint32_t next, const insn_t *call)
{
    d->resume_seq = s;
    d->resume_idx = next;
    d->resume_orig = d->orig;
    d->seq = NULL;
    d->handler_role = (uint8_t)call->rm;
    d->stat_handler_calls++;
    if (!runtime_call(d->runtime, c, &d->client, call->target, NULL, 0, (uint8_t)call->rm))
        cpu_stop(c, STOP_ILLEGAL, 0);
}

/* hps.ret of a handler a replacement sequence called: the runtime has
 * restored pc and the address space; the sequence resumes. */
static void handler_return(void *ctx, cpu_t *c)
{
    dise_t *d = ctx;
    d->seq = d->resume_seq;
    d->idx = d->resume_idx;
    d->orig = d->resume_orig;
    if (d->seq && d->idx >= d->seq->len) d->seq = NULL;
}

static void take_sample(void *ctx, const hps_sample_t *s)
{
    dise_t *d = ctx;
    if (d->on_sample) d->on_sample(d->on_sample_ctx, s);
    d->stat_samples++;
}

/* hps.flush in a DISE handler: the profile buffer is full. */
static void handler_flush(void *ctx, cpu_t *c)
{
    dise_t *d = ctx;
    runtime_drain(d->runtime, take_sample, d);
    d->stat_flushes++;
}

void dise_finish(dise_t *d, cpu_t *c)
{
    d->seq = NULL;                  /* the run stopped inside a sequence */
    unlive(d);
    if (c->on_decode == classify_hook) c->on_decode = NULL;
    if (d->runtime) runtime_drain(d->runtime, take_sample, d);
    add_final_counts(d);
}

void dise_on_sample(dise_t *d, void (*fn)(void *ctx, const hps_sample_t *s), void *ctx)
{
    d->on_sample = fn;
    d->on_sample_ctx = ctx;
}

void dise_role_cycles(const dise_t *d, uint64_t out[DISE_ROLE_COUNT])
{
    if (d->role_cycles_measured) {
        memcpy(out, d->measured_role_cycles, sizeof d->measured_role_cycles);
        return;
    }
    for (int r = 0; r < DISE_ROLE_COUNT; r++)
        out[r] = d->stat_inserted[r] + d->stat_handler_by_role[r] + d->stat_penalty_by_role[r];
}

uint64_t dise_penalty_cycles(const dise_t *d)
{
    return d->stat_replacements * d->hw.replace_penalty;
}

/* ---- reporting ------------------------------------------------------------------------- */

int dise_format(const insn_t *x, char *buf, size_t len)
{
    static const char *const dreg[16] = { "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
                                          "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15" };
    const char *op = x->op < DOP_COUNT ? dop_names[x->op] : "?";
    const char *rd = x->rd >= REG_DISE0 && x->rd < REG_DISE0 + 16 ? dreg[x->rd - REG_DISE0] : "?";
    if (x->op == DOP_CALL)
        return snprintf(buf, len, "dise: call 0x%" PRIx64, x->target);
    if (x->op == DOP_BEQZ || x->op == DOP_BNEZ || x->op == DOP_JUMP)
        return snprintf(buf, len, "dise: %s -> %" PRIu64, op, x->target);
    if (x->op == DOP_TALLY)
        return snprintf(buf, len, "dise: tally %s",
                        x->rs1 >= REG_DISE0 && x->rs1 < REG_DISE0 + 16 ? dreg[x->rs1 - REG_DISE0] : "?");
    return snprintf(buf, len, "dise: %s %s", op, rd);
}

void dise_stats(const dise_t *d, stats_t *s)
{
    uint64_t inserted = 0;
    for (int r = 0; r < DISE_ROLE_COUNT; r++) inserted += d->stat_inserted[r];
    stats_add_u64(s, "dise.patternMatches", dise_matches(d), "Count",
                  "Instructions matched by at least one production");
    stats_add_u64(s, "dise.replacements", d->stat_replacements, "Count",
                  "Instructions replaced by a replacement sequence");
    stats_add_u64(s, "dise.shadowedMatches", d->stat_shadowed, "Count",
                  "Matching productions whose replacement lost to an earlier one");
    stats_add_u64(s, "dise.penaltyCycles", d->stat_replacements * d->hw.replace_penalty, "Cycle",
                  "Decode cycles charged for replacements");
    stats_add_u64(s, "dise.microOps", dise_uops(d), "Count",
                  "HPS conditional-control micro-operations executed");
    stats_add_u64(s, "dise.insertedInsts", inserted, "Count",
                  "Replacement instructions executed (not counting T.INSN)");
    stats_add_u64(s, "dise.handlerCalls", d->stat_handler_calls, "Count",
                  "Calls into the guest handler runtime");
    stats_add_u64(s, "dise.handlerInsts", d->stat_handler_insts, "Count",
                  "Instructions executed inside handlers");
    stats_add_u64(s, "dise.samples", d->stat_samples, "Count",
                  "Samples read out of the profile buffer");
    for (unsigned n = 1; n <= d->hw.counters; n++) {
        char cname[48];
        snprintf(cname, sizeof cname, "dise.counter::%u", n);
        stats_add_u64(s, cname, counter_value(d, n), "Count", "HPS counter at the end of the run");
    }
    stats_add_u64(s, "dise.wrongPath.matches", d->spec.matches, "Count",
                  "Wrong-path instructions matched at decode (squashed)");
    stats_add_u64(s, "dise.wrongPath.expansions", d->spec.expansions, "Count",
                  "Wrong-path instructions replaced by a replacement sequence");
    stats_add_u64(s, "dise.wrongPath.insertedInsts", d->spec.inserted, "Count",
                  "Inserted operations fetched on the wrong path (T.INSN not counted)");
    stats_add_u64(s, "dise.wrongPath.microOps", d->spec.uops, "Count",
                  "HPS micro-operations run on the counters on the wrong path");
    stats_add_u64(s, "dise.wrongPath.handlerStalls", d->spec.handler_stalls, "Count",
                  "Handler calls on the wrong path (never run: fetch stalls until the squash)");
    stats_add_u64(s, "dise.wrongPath.restores", d->spec.restores, "Count",
                  "Squashes that restored changed counters or flags (dise.spec_counters = "
                  "checkpoint)");
    stats_add_u64(s, "dise.bufferFlushes", d->stat_flushes, "Count",
                  "Times a handler handed a full profile buffer to the host");
    char name[96], desc[128];
    for (int r = DISE_ROLE_CHECK; r < DISE_ROLE_COUNT; r++) {
        snprintf(name, sizeof name, "dise.insertedInsts::%s", dise_role_names[r]);
        snprintf(desc, sizeof desc, "Inserted and handler instructions of role %s",
                 dise_role_names[r]);
        stats_add_u64(s, name, d->stat_inserted[r] + d->stat_handler_by_role[r], "Count", desc);
    }
    for (size_t k = 0; k < d->prog->nprods; k++) {
        snprintf(name, sizeof name, "dise.productionMatches::%s", d->prog->prods[k].name);
        stats_add_u64(s, name, dise_production_matches(d, k), "Count",
                      "Times this production matched");
    }
}

/* ---- the interactive shell's view -------------------------------------------------------- */

static void print_pattern_table(FILE *out, const dise_t *d)
{
    const dise_program_t *p = d->prog;
    fprintf(out, "pattern table: %zu of %u entries\n", p->nprods, d->hw.pt_entries);
    for (size_t k = 0; k < p->nprods; k++) {
        const dise_production_t *pr = &p->prods[k];
        fprintf(out, "  pt[%zu] %s: %" PRIu64 " matches\n        ", k, pr->name,
                dise_production_matches(d, k));
        dise_print_pattern(p, pr->pattern, out);
        if (pr->repl >= 0) {
            const dise_repl_t *r = &p->repls[pr->repl];
            fprintf(out, "\n        => %s (rt[%u..%u))", r->name, r->start, r->start + r->len);
        } else {
            fputs("\n        => null", out);
        }
        if (pr->ctl >= 0) fprintf(out, ", ct[%d]", pr->ctl);
        fputc('\n', out);
    }
}

static void print_other_tables(FILE *out, const dise_t *d)
{
    const dise_program_t *p = d->prog;
    fprintf(out, "conditional table: %zu lists (%u entries)\n", p->nctls, d->hw.ct_entries);
    for (size_t k = 0; k < p->nctls; k++) {
        const char *name = (int32_t)k == p->init_ctl ? "init" : p->ctls[k].name;
        fprintf(out, "  ct[%zu] %s: ", k, name[0] ? name : "-");
        dise_print_ctl(p, k, out);
        fputc('\n', out);
    }
    fprintf(out, "replacement table: %zu of %u instructions in %zu sequences\n", p->nrt,
            d->hw.rt_entries, p->nrepls);
    for (size_t k = 0; k < p->nrepls; k++) {
        fprintf(out, "  rt[%u..%u) ", p->repls[k].start, p->repls[k].start + p->repls[k].len);
        dise_print_repl(p, k, out);
    }
    for (size_t k = 0; k < p->nparams; k++)
        fprintf(out, "%s%s = %" PRId64 "%s", k ? ", " : "parameters: ", p->params[k].name,
                p->params[k].value, k + 1 == p->nparams ? "\n" : "");
}

/* The counters now, with their sticky flags, and what happened so far. */
static void print_counters(FILE *out, const dise_t *d)
{
    fprintf(out, "counters: %u, %u bits each\n", d->hw.counters, d->hw.counter_bits);
    for (unsigned n = 1; n <= d->hw.counters; n++)
        fprintf(out, "  counter_%u = %-20" PRIu64 " overflow_%u %u  zero_%u %u\n", n,
                counter_value(d, n), n, dise_overflow(d, n), n, dise_zero(d, n));
    fprintf(out, "so far: %" PRIu64 " matches, %" PRIu64 " replacements, %" PRIu64
            " handler calls (%" PRIu64 " instructions), %" PRIu64 " samples\n",
            dise_matches(d), d->stat_replacements, d->stat_handler_calls, d->stat_handler_insts,
            d->stat_samples);
}

void dise_print_tables(FILE *out, const dise_t *d)
{
    print_pattern_table(out, d);
    print_other_tables(out, d);
    print_counters(out, d);
}
