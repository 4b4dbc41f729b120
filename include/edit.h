/*
 * edit.h - the machine's side of a stream editor's common case: the count
 * that the functional core's block loop (blocks.h) does by itself for an
 * instruction the editor (DISE, dise_engine.h) classified at decode, instead
 * of calling the editor's semantics for it.
 *
 * The editor gives a classified instruction a dispatch entry (insn_t.dise)
 * and its own semantics (insn_t.exec).  What those semantics do depends on
 * the entry and on the editor's state (DISE: the HPS flags the patterns
 * test), and in the commonest case it is only a count: one production
 * matches, it has no replacement, and its control is null or one
 * increment of a counter that changes no flag; then the instruction runs
 * as it would without the editor.  For each entry and each state, the
 * editor keeps a record (edit_count_t) saying whether the case is that
 * one, which counter word and which match word it adds 1 to (words the
 * editor owns: the match words are its own, the totals it derives from
 * them when it reports), and the instruction's own semantics; it publishes
 * the records of its state now (edit_view_t, cpu_t.edit), and keeps them
 * current as its state changes.
 *
 * edit_try_count() does that count, exactly as the editor's semantics
 * would (the editor's semantics call it too: one definition), or says that
 * the editor's semantics must run: the increment would carry into or out
 * of a flag (the counter is 0 or at its top).  So that this one test
 * decides, every record names a counter word: a record that is not the
 * common case names a word the editor holds at 0, and a common case that
 * increments no counter names a spare word of the editor's, which nothing
 * reads; should the spare reach its top, the editor's semantics run once
 * and set it back (its value is nobody's).  The block loop then runs the
 * instruction's own kind inline.
 *
 * A match word may be one nobody reads: the editor then works the matches
 * out from the instructions' execution counts (insn_t.count).  When, in
 * the state now, every classified instruction's record is the common case
 * with such a match word and the same counter word, the editor counts that
 * word down instead (edit_view_t.left: the increments it takes before a
 * flag would change; 0 in any other state), and edit_try_uniform() does
 * the count without the record or the word: a decrement.  While it counts
 * down, the word itself holds 0 (so that edit_try_count fails on it) and
 * its value is the counter's top less `left`, which the editor writes
 * back before its own semantics read or change it.
 */
#ifndef HPS_EDIT_H
#define HPS_EDIT_H

#include <stdbool.h>
#include <stdint.h>

#include "isa.h"

/* One dispatch entry under one state of the editor. */
typedef struct edit_count {
    exec_fn exec;               /* the instruction's own semantics (every
                                   state of an entry has the same)          */
    uint64_t *counter;          /* the counter word incremented: a counter,
                                   the editor's spare word (none), or its
                                   word held at 0 (not the common case)     */
    uint64_t *match;            /* the match word incremented (NULL: not the
                                   common case)                             */
} edit_count_t;

/* What the editor publishes (cpu_t.edit) and keeps current. */
typedef struct edit_view {
    const edit_count_t *now;    /* the records of every dispatch entry
                                   under the editor's state now: [insn->dise] */
    uint64_t counter_top;       /* a counter's largest value                */
    uint64_t *left;             /* when every record now is the common case
                                   with the same counter word and no match
                                   word anyone reads: the increments that word
                                   takes before a flag changes; else 0.  The
                                   word is cpu_t.edit_left of the cpu the
                                   editor is attached to (the editor's own
                                   before it attaches and after it detaches) */
    /* The editor's part of in->exec for a classified instruction whose
     * count (edit_try_uniform, edit_try_count) just failed, the state
     * unchanged since, without in->exec's own tries of the count (DISE: the
     * match's general case).  true: the editor is done and the instruction
     * is still to run, as after a count that passed (the block loop runs its
     * own kind, or edit_own_exec); false: it ran, or a replacement took it
     * (cpu_t.replaced). */
    bool (*miss)(cpu_t *c, insn_t *in);
    /* The translator's whole miss (sim/jit_x86.c), called from its code when
     * the uniform count-down failed (edit_try_uniform, the word set back):
     * edit_try_count, then miss with cpu_t.replaced cleared first, in one
     * call; what the translated code does next (edit_next_t). */
    uint32_t (*trip)(cpu_t *c, insn_t *in);
    /* A call the editor records one by one (DISE: the exact profiles' indirect
     * calls): its records' semantics are recorded_call, which runs the
     * instruction's own (plain_exec says which) and then record_call(
     * record_ctx, the call's pc, its target).  The block loop runs such a
     * call inline and then calls record_call itself (BK_EDIT_REC_<kind>).
     * recorded_call NULL: no such calls. */
    exec_fn recorded_call;
    exec_fn (*plain_exec)(const struct edit_view *v, const insn_t *in);
    void (*record_call)(void *ctx, uint64_t from, uint64_t to);
    void *record_ctx;
} edit_view_t;

/* edit_view_t.trip's answer: the instruction's own kind is still to run
 * (a count passed, or the editor left it), the editor ran it, or a
 * replacement took it (cpu_t.replaced). */
typedef enum { EDIT_OWN = 0, EDIT_RAN = 1, EDIT_REPLACED = 2 } edit_next_t;

/* The record of classified instruction `in` under the state now. */
static inline const edit_count_t *edit_record(const edit_view_t *v, const insn_t *in)
{
    return &v->now[in->dise];
}

/* The instruction's own semantics, whatever the state. */
static inline exec_fn edit_own_exec(const edit_view_t *v, const insn_t *in)
{
    return v->now[in->dise].exec;
}

/* Is `in` a call the editor records one by one (edit_view_t.recorded_call)? */
static inline bool edit_records_call(const edit_view_t *v, const insn_t *in)
{
    return v->recorded_call && edit_own_exec(v, in) == v->recorded_call;
}

/* The common case's count for classified instruction `in`, done: its
 * record (whose exec must now run the instruction); or NULL, nothing done:
 * the editor's semantics (in->exec) must run instead.  A counter between
 * 0 and its top exclusive takes an increment without a flag changing; the
 * word held at 0 never passes. */
static inline const edit_count_t *edit_try_count(const edit_view_t *v, const insn_t *in)
{
    const edit_count_t *x = edit_record(v, in);
    uint64_t *w = x->counter;
    if (__builtin_expect(((*w + 1) & v->counter_top) < 2, 0)) return NULL;
    (*w)++;
    (*x->match)++;
    return x;
}

/* The common case's count for any classified instruction, done (true)
 * when the state now counts a uniform word down (`left`: the view's
 * edit_view_t.left, which the block loop names as &cpu_t.edit_left) and it
 * takes an increment without a flag changing; else nothing done (false):
 * edit_try_count() decides. */
static inline bool edit_try_uniform(uint64_t *left)
{
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
    /* GCC on x86-64: a decrement of the word in memory and a branch on its borrow
     * (two host instructions, against a load, a test, a branch, a
     * decrement and a store); the borrow (the word was 0) leaves it all
     * ones, set back to 0. */
    __asm__ goto("subq $1, %0\n\tjc %l[none]" : "+m"(*left) : : "cc" : none);
    return true;
none: __attribute__((cold));
    *left = 0;
    return false;
#else
    uint64_t n = *left;
    if (__builtin_expect(n == 0, 0)) return false;
    *left = n - 1;
    return true;
#endif
}

#endif /* HPS_EDIT_H */
