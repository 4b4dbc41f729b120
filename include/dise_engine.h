/*
 * dise_engine.h - the DISE engine's state and the inline steps the run
 * loop (sim/engine.c) takes through a replacement sequence.
 *
 * Decode hands each program instruction to the engine (dise_classify,
 * through the program address space's decode hook).  An instruction that
 * some production may match, or whose events the exact profiles record one
 * by one (hps_truth.h), gets a dispatch entry (insn_t.dise) and the
 * engine's semantics in place of its own: executing it runs the match, and
 * then either the original semantics or, when a production replaces it,
 * nothing yet: d->seq is set and the instruction has not retired.  The run
 * loop then steps the sequence with dise_step_seq(): an inserted operation,
 * or the original instruction for T.INSN.  call(Handler) enters the
 * handler through the guest runtime (runtime.h), whose hps.ret resumes the
 * sequence.  Every other instruction runs exactly as without DISE.
 */
#ifndef HPS_DISE_ENGINE_H
#define HPS_DISE_ENGINE_H

#include "core.h"
#include "dise.h"
#include "edit.h"
#include "hps_truth.h"
#include "runtime.h"
#include "stats.h"

struct runtime;
struct hps_sample;

/* An instantiated replacement sequence: insns[0..len); an entry with
 * exec == NULL stands for T.INSN. */
typedef struct dise_seq {
    uint64_t pc;
    uint32_t raw;
    int32_t repl;
    uint32_t len;
    uint8_t penalty_role;       /* role charged with the decode penalty    */
    bool straight;              /* no branch, and T.INSN once, the last:
                                   the replaced instruction retires exactly
                                   once, at the end (dise_t.run_inline)     */
    insn_t insns[];
} dise_seq_t;

typedef enum { DK_PROGRAM, DK_INSERTED, DK_HANDLER } dise_kind_t;

enum { DISE_TABLE_FLAGS = 6 };   /* flags tabulated at decode, at most */

/* What the productions do with an instruction under one combination of
 * the flags, and how it then runs: one element of a dispatch entry's match
 * table (dise_classify).  Instructions classified alike share the entry. */
typedef enum {
    DO_NONE,                    /* no production matches                   */
    DO_COUNT,                   /* one matches: no replacement, and a null
                                   control or a single inc_N               */
    DO_GENERAL                  /* anything else: dise_match's full rules  */
} dise_outcome_kind_t;

typedef struct dise_outcome {
    exec_fn exec;               /* the instruction's own semantics         */
    uint64_t mask;              /* the productions that match (tabulated)
                                   or may match (evaluated at run time)    */
    uint8_t kind;               /* dise_outcome_kind_t                     */
    uint8_t inc;                /* DO_COUNT: the counter incremented, or 0 */
    uint8_t prod;               /* DO_COUNT: the production                */
    uint8_t truth;              /* after each execution: DISE_TRUTH_EVENT
                                   hps_truth_record(), DISE_TRUTH_CALL its
                                   call's record alone; 0 none            */
    /* tabulated DO_GENERAL: what match_all's walk of `mask` comes to,
     * worked out once per mask: plans[plan] (dise_plan_t) */
    uint32_t plan;
} dise_outcome_t;

/* One set of matching productions' effect, as match_all works it out,
 * made once per mask: their count, their replacement, and their micro-ops
 * in two parts.  A counter whose last set (of a constant) comes after
 * nothing it cannot know ends known: its value, overflow and zero flags
 * after the list and their bits in flag_index are constants, written
 * as they are (plan_sets[sets .. sets + nsets): CU_SET records of the
 * final values; known, over and zero their flag bits; idx_known and
 * idx_set those in flag_index).  The other counters' micro-ops run one by
 * one, in order (plan_uops[uops .. uops + nuops)); a counter's micro-ops
 * touch no other counter's state, so the parts may run apart. */
typedef struct dise_plan {
    uint64_t mask;
    int32_t repl;               /* the first replacement, or -1            */
    uint8_t shadowed;           /* the later replacements it shadows       */
    uint32_t all_uops;          /* the micro-ops of the list, in all       */
    uint32_t uops, nuops;       /* the ones run one by one                 */
    uint32_t sets, nsets;       /* the known counters' values              */
    uint32_t known, over, zero; /* their flags after (bit N: counter N)    */
    unsigned idx_known, idx_set;
    uint64_t runs;              /* the times it ran: each a match of every
                                   production in mask (dise_production_matches
                                   adds them)                              */
} dise_plan_t;

/* dise_outcome_t.truth: the per-event record an entry's instructions take. */
enum { DISE_TRUTH_EVENT = 1, DISE_TRUTH_CALL = 2 };

/* A control list's micro-operation as run_ctl runs it (dise_new compiles
 * each of the program's uops once): a set's new counter value worked out
 * beforehand when it is a constant or a parameter. */
typedef enum { CU_INC, CU_DEC, CU_SET, CU_SET_DREG } dise_cuop_kind_t;
typedef struct dise_cuop {
    uint8_t kind;               /* dise_cuop_kind_t                        */
    uint8_t counter;            /* 1..N                                    */
    /* its overflow and zero flags' bits in flag_index (dise_t's
     * index_bit_overflow, index_bit_zero) */
    uint8_t index_overflow, index_zero;
    uint64_t value;             /* CU_SET: the counter's value; CU_SET_DREG:
                                   the d-register read                     */
} dise_cuop_t;

struct dise {
    const dise_program_t *prog;
    dise_cuop_t *cuops;         /* prog->uops, compiled (dise_cuop_t)      */
    /* the plans of the masks seen (dise_plan_t), and their micro-ops */
    dise_plan_t *plans;
    size_t nplans, plans_cap;
    dise_cuop_t *plan_uops, *plan_sets;
    size_t nplan_uops, plan_uops_cap, nplan_sets, plan_sets_cap;
    dise_hw_t hw;
    struct runtime *runtime;
    uint64_t handler_addr[DISE_MAX_HANDLERS];
    /* the tally table (`tally dN`): the runtime's dise_tally, its words */
    uint64_t tally_base, tally_words;

    /* HPS counters 1..N and their flags (bit N) */
    uint64_t ctr[DISE_MAX_COUNTERS + 1];
    uint64_t ctr_mask;
    uint32_t overflow_bits, zero_bits;

    /* flags the patterns test, and their packed value (dise_classify) */
    unsigned nflags, set_stride, set_shift, flag_index;
    uint8_t flag_counter[DISE_TABLE_FLAGS];
    bool flag_is_zero[DISE_TABLE_FLAGS];
    /* per counter: its overflow and zero flags' bits in flag_index (0 when
     * the patterns do not test that flag) */
    uint8_t index_bit_overflow[DISE_MAX_COUNTERS + 1], index_bit_zero[DISE_MAX_COUNTERS + 1];
    bool tabulated;
    /* per production: flags_needed of its pattern (dise_classify) */
    uint16_t prod_needs[DISE_MAX_PRODUCTIONS];
    /* the instruction flags of which an instruction must have one for any
     * production to match (0: no such condition) */
    uint16_t any_needs;
    /* per production: its pattern's conjuncts (the operands of its top
     * &&s), conj[conj_at[k] .. conj_at[k + 1]), those that test no flag
     * first, up to conj_flagged[k]: classification evaluates them once */
    int32_t *conj;
    uint32_t conj_at[DISE_MAX_PRODUCTIONS + 1], conj_flagged[DISE_MAX_PRODUCTIONS];
    /* the productions whose conjuncts that test flags test nothing else,
     * and of those, the ones whose flag conjuncts hold under each packed
     * combination: classification looks them up */
    uint64_t flags_only;
    uint64_t flags_pass[1u << DISE_TABLE_FLAGS];
    /* the flags (overflow, zero words) of each packed combination */
    uint32_t combo_flags[1u << DISE_TABLE_FLAGS][2];
    /* dispatch entries interned at decode: entry insn->dise is the match
     * table outcomes[(insn->dise << set_shift) + flag combination]; entry
     * 0 is no entry */
    dise_outcome_t *outcomes;
    size_t nsets, set_cap;
    /* the same entries' common case, for the block loop (edit.h): one row
     * of set_cap records for each flag combination, counts[(flag
     * combination * set_cap) + insn->dise]; view.now is the row of
     * flag_index */
    edit_count_t *counts;
    edit_view_t view;
    /* the counter words of the records that increment none (the spare,
     * set back to 1 by the editor's semantics) and of those that are not
     * the common case (held at 0): edit.h */
    uint64_t count_spare, count_never;
    /* Entries whose common case's matches are worked out from execution
     * counts (derived_prod[entry]: the one production its common case
     * matches in every state, or -1; a control transfer's, attached to a
     * program memory): their records' match word is count_discard, which
     * nobody reads.  Per production, derived_counted adds up those
     * instructions' counts (dropped pages' as they drop, every page's at
     * dise_finish) and derived_tally what the engine's semantics added to
     * them (an execution outside the common case: +1, its replacement
     * taking the count back: -1, T.INSN: +1); the difference is the common
     * case's matches.  uniform[flag combination] is the uniform word in
     * that state (edit.h); live is the one the view counts down now
     * (*view.left; its value is ctr_mask - *view.left, and it holds 0
     * meanwhile), or NULL.  view.left is &left_own until dise_attach
     * points it at the cpu's word (cpu_t.edit_left), and after
     * dise_detach. */
    int16_t *derived_prod;
    uint64_t count_discard;
    uint64_t *derived_counted, *derived_tally;
    uint64_t *uniform[1u << DISE_TABLE_FLAGS];
    uint64_t *live;
    uint64_t left_own;

    /* instantiated sequences by (pc, raw, replacement) */
    dise_seq_t **seq_table;
    size_t seq_cap, seq_used;
    /* the last sequence found for an instruction, by its slot's address
     * (sequence_for): checked by (pc, raw, replacement) as the table is */
    dise_seq_t *seq_recent[256];

    /* the stream position */
    dise_seq_t *seq;            /* active sequence, or NULL                */
    uint32_t idx;               /* next element of seq                     */
    insn_t *orig;               /* the instruction it replaces             */
    int32_t branch_to;          /* set by a taken DISE branch, else -1     */
    uint8_t kind;               /* dise_kind_t of the last step            */
    uint8_t handler_role;
    unsigned penalty_pending;   /* decode cycles owed by a new replacement */
    uint8_t penalty_role;       /* and the role they are charged to        */
    bool redirect;              /* last inserted op changed the flow        */

    /* The run loop's way to run a straight replacement (dise_seq_t.straight)
     * from inside the replaced instruction's own step, when nothing but
     * the counts observes the edited stream (sim/engine.c sets it for the
     * run loop's variants where that holds, NULL elsewhere): its inserted
     * operations and the handlers they call, each counted as the run loop
     * counts them, up to T.INSN (d->seq's next element), which DISE then
     * executes, or leaves to the block loop (edit_view_t.miss), and the step
     * that called the semantics retires as it would the instruction itself. */
    void (*run_inline)(void *ctx, cpu_t *c);
    void *run_inline_ctx;

    /* where to resume after hps.ret: DISE's frames in the runtime */
    runtime_client_t client;
    const uint64_t *pmc_cycles;     /* what hps.rdpmc reads in DISE's handlers: */
    const struct cache *pmc_l1d;    /* 0 cycles, 1 L1D misses (dise_set_counters) */
    dise_seq_t *resume_seq;
    uint32_t resume_idx;
    insn_t *resume_orig;

    struct mem *prog_mem;

    /* exact profiles recorded beside the run (dise_set_truth), and the
     * decoded-page drop hook ours (for them and derived_counted) is chained
     * in front of; counts_added once dise_finish added every page's */
    hps_truth_t *truth;
    bool drop_hooked, counts_added;
    void (*next_drop)(void *ctx, insn_t *slots, size_t n);
    void *next_drop_ctx;

    void (*on_sample)(void *ctx, const struct hps_sample *s);
    void *on_sample_ctx;

    /* statistics */
    uint64_t stat_matches, stat_replacements, stat_shadowed, stat_uops;
    uint64_t stat_inserted[DISE_ROLE_COUNT];
    uint64_t stat_handler_by_role[DISE_ROLE_COUNT];
    uint64_t stat_penalty_by_role[DISE_ROLE_COUNT];
    uint64_t stat_handler_calls, stat_handler_insts, stat_samples, stat_flushes;
    uint64_t *prod_matches;
    /* the common case's matches by production, counted apart (edit.h): the
     * totals are dise_matches(), dise_uops(), dise_production_matches() */
    uint64_t *count_matches;
    /* the wrong path (dise_spec_match): matches, replacements, micro-ops
     * run on the counters, inserted operations fetched, handler calls that
     * stalled it until the squash; walks whose counters were restored */
    struct {
        uint64_t matches, expansions, uops, inserted, handler_stalls, restores;
    } spec;
    /* cycles by role as measured by a timing model (head-of-queue cycles) */
    bool role_cycles_measured;
    uint64_t measured_role_cycles[DISE_ROLE_COUNT];
};

/* Build the engine from a parsed program; checks table capacities and
 * resolves handler names in the runtime (which may be NULL when the ACF
 * calls no handler).  NULL + message on error. */
dise_t *dise_new(const dise_program_t *prog, const dise_hw_t *hw,
                 struct runtime *runtime, char *err, size_t errlen);
void dise_free(dise_t *d);
/* Connect to a cpu before its run: c->dise, the decode hook on the
 * program's address space, the runtime (when the cpu has none yet) and
 * the `init:` list. */
void dise_attach(dise_t *d, cpu_t *c);
/* Take the engine's count-down word (cpu_t.edit_left, edit.h) back from
 * cpu c, its value written back to the counter, c's left at 0: before the
 * engine is freed while c lives on (or c goes to another engine).  c->dise
 * and c->edit are the caller's to change. */
void dise_detach(dise_t *d, cpu_t *c);
/* The counters a handler DISE called reads with hps.rdpmc k, as PP reads
 * the hardware's at path boundaries: k = 0 the timing model's cycles, 1
 * its L1 data-cache misses (the counts the exact path recorder reads).
 * Without them (no timing model) hps.rdpmc in DISE's handlers is illegal. */
struct cache;
void dise_set_counters(dise_t *d, const uint64_t *cycles, const struct cache *l1d);
/* Record the exact profiles t during the run (after dise_attach, before
 * the first instruction is decoded): instructions with per-event records
 * are routed through hps_truth_record(); direct calls and back-edges are
 * added from their execution counts by dise_finish() and, for code pages
 * dropped during the run, when they are dropped.  Which of t's profiles
 * and recent lines exist is read now (the block loop's record of an
 * indirect call is chosen by it: edit.h). */
void dise_set_truth(dise_t *d, hps_truth_t *t);
/* Decode-time classification of a freshly decoded instruction: gives it a
 * dispatch entry and the engine's semantics when it needs one. */
void dise_classify(dise_t *d, insn_t *in);
/* Run-time match of a candidate: micro-ops, and the replacement or NULL. */
dise_seq_t *dise_match(dise_t *d, cpu_t *c, insn_t *in);
void dise_call_handler(dise_t *d, cpu_t *c, dise_seq_t *s, uint32_t next, const insn_t *call);
/* After the run: leave any handler, drain the profile buffer, add the
 * counted events to the exact profiles. */
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

/* Matches (instructions matched by at least one production), HPS
 * micro-operations run, and one production's matches, so far. */
uint64_t dise_matches(const dise_t *d);
uint64_t dise_uops(const dise_t *d);
uint64_t dise_production_matches(const dise_t *d, size_t k);
uint64_t dise_counter(const dise_t *d, unsigned n);
bool dise_overflow(const dise_t *d, unsigned n);
bool dise_zero(const dise_t *d, unsigned n);
/* The interactive shell's view: the pattern table (each production with
 * its matches so far), the conditional and replacement tables, the
 * parameters, the HPS counters now with their sticky flags, and the
 * matches, replacements, handler calls and samples so far. */
void dise_print_tables(FILE *out, const dise_t *d);

/* ---- speculation: DISE on the wrong path (pipeline/wrongpath.c) ---- */

/* The HPS counters and flags at a mispredicted transfer: restored at its
 * squash under dise.spec_counters = checkpoint. */
typedef struct dise_spec_ckpt {
    uint64_t ctr[DISE_MAX_COUNTERS + 1];
    uint32_t overflow_bits, zero_bits;
    unsigned flag_index;
} dise_spec_ckpt_t;
void dise_spec_save(const dise_t *d, dise_spec_ckpt_t *ck);
/* At the squash: back to ck unless dise.spec_counters = leak. */
void dise_spec_squash(dise_t *d, const dise_spec_ckpt_t *ck);
/* The match of a classified instruction decoded on the wrong path: the
 * matching productions' micro-ops update the counters and flags (nothing
 * else of the engine: not its statistics, position or exact profiles), and
 * the replacement, or NULL.  shadow: the wrong path's registers. */
dise_seq_t *dise_spec_match(dise_t *d, const cpu_t *shadow, const insn_t *in);

/* A classified instruction's dispatch under the flags as they are now. */
static inline const dise_outcome_t *dise_outcome(const dise_t *d, const insn_t *in)
{
    return &d->outcomes[((size_t)in->dise << d->set_shift) + d->flag_index];
}

/* A classified instruction's own semantics, then its per-event record. */
static inline __attribute__((always_inline)) void dise_exec_original(dise_t *d, cpu_t *c, insn_t *in)
{
    const dise_outcome_t *o = dise_outcome(d, in);
    bool truth = o->truth;
    o->exec(c, in);
    if (truth && (in->flags & HPS_TRUTH_FLAGS)) hps_truth_record(d->truth, c, in);
}

/* T.INSN: the replaced instruction runs as the core would run it. */
static inline void dise_step_original(dise_t *d, cpu_t *c, insn_t *in)
{
    c->stop_pc = in->pc;
    in->count++;
    if (d->derived_prod[in->dise] >= 0) d->derived_tally[d->derived_prod[in->dise]]++;
    c->pc = in->pc + in->len;
    dise_exec_original(d, c, in);
}

/* The word `tally dN` increments: word dN of the tally table, or word 0
 * (the tallies outside it) when dN is past its end (x->imm is the table's
 * address, x->target its words). */
static inline uint64_t dise_tally_addr(const cpu_t *c, const insn_t *x)
{
    uint64_t k = c->reg[x->rs1];
    return (uint64_t)x->imm + 8 * (k < x->target ? k : 0);
}

/* n instructions executed inside the current handler. */
static inline void dise_count_handler_insts(dise_t *d, uint64_t n)
{
    d->stat_handler_insts += n;
    d->stat_handler_by_role[d->handler_role] += n;
}

/* The next element of the active sequence (d->seq): executes it and
 * returns its record; d->kind says whose it is (DK_PROGRAM for T.INSN). */
static inline insn_t *dise_step_seq(dise_t *d, cpu_t *c)
{
    dise_seq_t *s = d->seq;
    insn_t *x = &s->insns[d->idx++];
    if (d->idx >= s->len) d->seq = NULL;
    if (!x->exec) {                              /* T.INSN */
        insn_t *orig = d->orig;
        dise_step_original(d, c, orig);
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

#endif /* HPS_DISE_ENGINE_H */
