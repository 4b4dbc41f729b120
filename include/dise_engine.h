/*
 * dise_engine.h - the DISE engine's state and the one inline step every
 * DISE-aware run loop (functional and timing) is built from.
 *
 * dise_step() executes the next instruction of the edited stream: the next
 * element of an active replacement sequence (an inserted operation, or the
 * original instruction for T.INSN), or the next instruction at pc, which is
 * first offered to the engine if decode classified it as a candidate.  It
 * returns the record it executed and says in d->kind whose it was: the
 * program's, DISE's, or a handler's.  Calls into handlers switch the cpu to
 * the runtime's address space; hps.ret switches back and resumes the
 * sequence.
 */
#ifndef HPS_DISE_ENGINE_H
#define HPS_DISE_ENGINE_H

#include "core.h"
#include "core_loop.h"
#include "dise.h"
#include "stats.h"

struct dise_runtime;
struct hps_sample;

/* An instantiated replacement sequence: insns[0..len); an entry with
 * exec == NULL stands for T.INSN. */
typedef struct dise_seq {
    uint64_t pc;
    uint32_t raw;
    int32_t repl;
    uint32_t len;
    uint8_t penalty_role;       /* role charged with the decode penalty    */
    insn_t insns[];
} dise_seq_t;

typedef enum { DK_PROGRAM, DK_INSERTED, DK_HANDLER } dise_kind_t;

enum { DISE_TABLE_FLAGS = 6 };   /* flags tabulated at decode, at most */

struct dise {
    const dise_program_t *prog;
    dise_hw_t hw;
    struct dise_runtime *runtime;
    uint64_t handler_addr[DISE_MAX_HANDLERS];

    /* HPS counters 1..N and their flags (bit N) */
    uint64_t ctr[DISE_MAX_COUNTERS + 1];
    uint64_t ctr_mask;
    uint32_t overflow_bits, zero_bits;

    /* flags the patterns test, and their packed value (dise_classify) */
    unsigned nflags, set_stride, flag_index;
    uint8_t flag_counter[DISE_TABLE_FLAGS];
    bool flag_is_zero[DISE_TABLE_FLAGS];
    bool tabulated;
    /* match tables interned at decode: sets[insn->dise * set_stride + i] */
    uint64_t *sets;
    size_t nsets, set_cap;

    /* instantiated sequences by (pc, raw, replacement) */
    dise_seq_t **seq_table;
    size_t seq_cap, seq_used;

    /* the stream position */
    dise_seq_t *seq;            /* active sequence, or NULL                */
    uint32_t idx;               /* next element of seq                     */
    insn_t *orig;               /* the instruction it replaces             */
    int32_t branch_to;          /* set by a taken DISE branch, else -1     */
    uint8_t kind;               /* dise_kind_t of the last step            */
    bool in_handler;
    uint8_t handler_role;
    unsigned penalty_pending;   /* decode cycles owed by a new replacement */
    bool redirect;              /* last inserted op changed the flow        */

    /* where to resume after hps.ret */
    dise_seq_t *resume_seq;
    uint32_t resume_idx;
    insn_t *resume_orig;
    uint64_t resume_pc;

    struct mem *prog_mem;
    uint64_t *page_base;        /* the run loop's cached code page         */

    void (*on_sample)(void *ctx, const struct hps_sample *s);
    void *on_sample_ctx;

    /* statistics */
    uint64_t stat_matches, stat_replacements, stat_shadowed, stat_uops;
    uint64_t stat_inserted[DISE_ROLE_COUNT];
    uint64_t stat_handler_by_role[DISE_ROLE_COUNT];
    uint64_t stat_penalty_by_role[DISE_ROLE_COUNT];
    uint64_t stat_handler_calls, stat_handler_insts, stat_samples, stat_flushes;
    uint64_t *prod_matches;
    /* cycles by role as measured by a timing model (head-of-queue cycles) */
    bool role_cycles_measured;
    uint64_t measured_role_cycles[DISE_ROLE_COUNT];
};

/* Build the engine from a parsed program; checks table capacities and
 * resolves handler names in the runtime (which may be NULL when the ACF
 * calls no handler).  NULL + message on error. */
dise_t *dise_new(const dise_program_t *prog, const dise_hw_t *hw,
                 struct dise_runtime *runtime, char *err, size_t errlen);
void dise_free(dise_t *d);
/* Connect to a cpu before its run: c->dise, handler stack, `init:` list. */
void dise_attach(dise_t *d, cpu_t *c);
/* Decode-time classification of a freshly decoded instruction. */
void dise_classify(dise_t *d, insn_t *in);
/* Run-time match of a candidate: micro-ops, and the replacement or NULL. */
dise_seq_t *dise_match(dise_t *d, cpu_t *c, insn_t *in);
void dise_call_handler(dise_t *d, cpu_t *c, dise_seq_t *s, uint32_t next, const insn_t *call);
/* After the run: leave handler mode, drain the profile buffer. */
void dise_finish(dise_t *d, cpu_t *c);
void dise_on_sample(dise_t *d, void (*fn)(void *ctx, const struct hps_sample *s), void *ctx);
void dise_stats(const dise_t *d, stats_t *s);
/* Functional-model overhead by role: inserted and handler instructions (one
 * cycle each) plus decode penalties.  Timing models measure it instead. */
void dise_role_cycles(const dise_t *d, uint64_t out[DISE_ROLE_COUNT]);
/* Decode cycles charged for all replacements so far. */
uint64_t dise_penalty_cycles(const dise_t *d);
/* Text of an inserted operation for traces and pipeline views. */
int dise_format(const insn_t *x, char *buf, size_t len);

uint64_t dise_counter(const dise_t *d, unsigned n);
bool dise_overflow(const dise_t *d, unsigned n);
bool dise_zero(const dise_t *d, unsigned n);

static inline insn_t *dise_step_seq(dise_t *d, cpu_t *c)
{
    dise_seq_t *s = d->seq;
    insn_t *x = &s->insns[d->idx++];
    if (d->idx >= s->len) d->seq = NULL;
    if (!x->exec) {                              /* T.INSN */
        insn_t *orig = d->orig;
        core_step(c, orig, orig->pc);
        d->kind = DK_PROGRAM;
        return orig;
    }
    d->kind = DK_INSERTED;
    d->stat_inserted[x->rm]++;
    c->stop_pc = x->pc;
    if (x->op == DOP_CALL) {
        dise_call_handler(d, c, s, d->idx, x);
        d->redirect = true;
        return x;
    }
    x->exec(c, x);
    d->redirect = false;
    if (d->branch_to >= 0) {
        d->idx = (uint32_t)d->branch_to;
        d->branch_to = -1;
        d->seq = d->idx < s->len ? s : NULL;
        d->redirect = true;
    }
    return x;
}

static inline insn_t *dise_step(dise_t *d, cpu_t *c, uint64_t *page_base, insn_t **slots)
{
    if (d->seq) return dise_step_seq(d, c);
    uint64_t pc = c->pc;
    insn_t *in = core_lookup(c, pc, page_base, slots);
    if (unlikely(in->dise)) {
        dise_seq_t *s = dise_match(d, c, in);
        if (s) {
            d->seq = s;
            d->idx = 0;
            d->orig = in;
            c->pc = pc + in->len;               /* if T.INSN never runs */
            d->penalty_pending = d->hw.replace_penalty;
            d->stat_penalty_by_role[s->penalty_role] += d->hw.replace_penalty;
            return dise_step_seq(d, c);
        }
    }
    bool handler = d->in_handler;               /* hps.ret leaves it      */
    core_step(c, in, pc);
    if (unlikely(handler)) {
        d->kind = DK_HANDLER;
        d->stat_handler_insts++;
        d->stat_handler_by_role[d->handler_role]++;
    } else {
        d->kind = DK_PROGRAM;
    }
    return in;
}

#endif /* HPS_DISE_ENGINE_H */
