/*
 * hps_truth.h - the exact (exhaustive) profiles an HPS run is scored
 * against, recorded from the program's own instructions as they retire,
 * without perturbing the run.
 *
 * The events are the ones the profile productions in productions/ match:
 *   hot method:  a call (keyed by its target) or a back-edge, a direct
 *                branch or jump to an address <= its own (keyed by its
 *                target, the loop head), each time it executes;
 *   call pair:   a call, keyed by (call-site pc, target);
 *   data:        a load or store: its (pc, effective address) appended to
 *                the trace of data references (data_trace.h) that the hot
 *                data streams are found in (hot_streams.h); or, when a
 *                caller asks for it, counted by effective address.
 * Keys are mapped to functions when profiles are compared (hps_report.c),
 * the same way for samples and for the truth.
 *
 * How they are recorded.  A direct call and a back-edge always go to their
 * static target, so their events are the executions of the static
 * instruction: the core counts those in the decoded record (insn_t.count),
 * and hps_truth_add_counts() adds them at the end of the run (and for code
 * pages dropped during it, before their counts are lost).  The other
 * events, an indirect call and a load or store, are recorded one by one
 * with hps_truth_record(): the DISE engine routes exactly the instructions
 * hps_truth_per_event() names through it (dise/engine.c).  A call's events
 * go through the profiles' recent lines when the session gave them some
 * (profile_recent_t: an indirect call site mostly goes where it went
 * before); hps_truth_flush() adds them before the profiles are read.
 */
#ifndef HPS_HPS_TRUTH_H
#define HPS_HPS_TRUTH_H

#include "core.h"
#include "data_trace.h"
#include "profile.h"

typedef struct hps_truth {
    profile_t *method;      /* NULL when not recorded */
    profile_t *pair;
    profile_t *data;        /* references by address */
    data_trace_t *data_trace;   /* every reference, in order */
    /* the per-event calls' way into method and pair, or NULL (straight
     * in); hps_truth_flush before the profiles are read */
    profile_recent_t *method_recent, *pair_recent;
} hps_truth_t;

/* Instructions that can be events. */
#define HPS_TRUTH_FLAGS (IF_CALL | IF_BRANCH | IF_JUMP | IF_LOAD | IF_STORE)

static inline bool hps_is_back_edge(const insn_t *in)
{
    return (in->flags & (IF_BRANCH | IF_JUMP)) && !(in->flags & (IF_CALL | IF_RETURN)) &&
           (in->flags & IF_DIRECT) && in->target <= in->pc;
}

static inline bool hps_is_direct_call(const insn_t *in)
{
    return (in->flags & IF_CALL) && (in->flags & IF_DIRECT);
}

/* Does `in` need hps_truth_record() each time it executes?  (Direct calls
 * and back-edges are counted instead.) */
static inline bool hps_truth_per_event(const hps_truth_t *t, const insn_t *in)
{
    if (in->flags & IF_CALL) return !(in->flags & IF_DIRECT) && (t->method || t->pair);
    if (hps_is_back_edge(in)) return false;
    return (in->flags & (IF_LOAD | IF_STORE)) && (t->data || t->data_trace);
}

/* One event of (key, key2) in profile p, through r when there is one. */
static inline void hps_truth_add(profile_t *p, profile_recent_t *r, uint64_t key, uint64_t key2)
{
    if (r) profile_recent_add(r, key, key2);
    else profile_add(p, key, key2, 1);
}

/* The events of a call from `from` that went to `to`. */
static inline void hps_truth_record_call(hps_truth_t *t, uint64_t from, uint64_t to)
{
    if (t->method) hps_truth_add(t->method, t->method_recent, to, 0);
    if (t->pair) hps_truth_add(t->pair, t->pair_recent, from, to);
}

/* Called after `in` (a program instruction) executed: c->pc is where it
 * went, c->mem_addr what it accessed. */
static inline void hps_truth_record(hps_truth_t *t, const cpu_t *c, const insn_t *in)
{
    if (in->flags & IF_CALL) {
        hps_truth_record_call(t, in->pc, c->pc);
    } else if (hps_is_back_edge(in)) {
        if (t->method) profile_add(t->method, in->target, 0, 1);
    } else if (in->flags & (IF_LOAD | IF_STORE)) {
        if (t->data) profile_add(t->data, c->mem_addr, 0, 1);
        if (t->data_trace) data_trace_record(t->data_trace, in->pc, c->mem_addr);
    }
}

/* The events of decoded record `in` (executed in->count times, not 0) when
 * it is a direct call or a back-edge. */
static inline void hps_truth_add_count(hps_truth_t *t, const insn_t *in)
{
    if (hps_is_direct_call(in)) {
        if (t->method) profile_add(t->method, in->target, 0, in->count);
        if (t->pair) profile_add(t->pair, in->pc, in->target, in->count);
    } else if (hps_is_back_edge(in)) {
        if (t->method) profile_add(t->method, in->target, 0, in->count);
    }
}

/* Add the events of the direct calls and back-edges among slots[0..n)
 * (decoded records of the program), weighted by their execution counts. */
void hps_truth_add_counts(hps_truth_t *t, const insn_t *slots, size_t n);
/* The events method_recent and pair_recent hold, into their profiles. */
void hps_truth_flush(hps_truth_t *t);

#endif /* HPS_HPS_TRUTH_H */
