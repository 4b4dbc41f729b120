/*
 * engine.c - the one run loop (engine.h).
 *
 * Each step takes the next instruction from its source, executes it,
 * counts it as the program's or the runtime's, and hands it to the
 * observers.  The body is written once, as inline functions whose feature
 * set F is a compile-time constant; LOOP_VARIANTS below instantiates it
 * for every combination of features, and engine_run picks the one that
 * matches the run's parts (again when the trace is complete).
 *
 * Two sources share the body: the program's stream (engine_loop: look up
 * the decoded slot through the cached code page, execute), and the edited
 * stream (run_edited: the elements of a DISE replacement sequence and the
 * instructions of runtime handlers, until the program's stream resumes).
 * A replacement starts when a classified program instruction's execution
 * sets d->seq instead of retiring; a handler when DISE's call(Handler) or
 * the PMU's interrupt pushes a runtime frame.  Where nothing but the counts
 * observes the edited stream, a straight replacement runs to its end inside
 * the instruction's own step instead (edited_inline, dise_t.run_inline).
 *
 * The variants with no observer but the ground-truth recorder run the
 * functional core's decoded blocks (blocks.h) while they can; so do those
 * of a timing model, which times each of a block's instructions
 * as it executes (blocks_execute_timed).
 *
 * The loop leaves its fast path for rare events only when c->instret
 * reaches c->event_at: the instruction limit, the end of the trace, a
 * host signal (engine_interrupt sets event_at to 0), the next phase of a
 * sampled run.
 *
 * A sampled run (--sample, smarts.h) has the timing model but hands it
 * the program only in the sampler's detailed windows; in between, the
 * variant with F_WARM instead of F_TIMING runs, which only warms the
 * model's caches, TLBs and branch predictor with each step.
 */
#include "engine.h"

#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "blocks.h"
#include "cct.h"
#include "core_loop.h"
#include "dise_engine.h"
#include "jit.h"
#include "paths.h"
#include "pmu.h"
#include "runtime.h"
#include "smarts.h"
#include "sys.h"
#include "timing.h"
#include "trace.h"
#include "truth.h"
#include "util.h"

#define ALWAYS_INLINE static inline __attribute__((always_inline))

/* What a run has; the loop is compiled for each combination. */
enum {
    F_TIMING = 1u << 0,        /* a timing model times every step          */
    F_TRUTH  = 1u << 1,        /* the ground-truth recorder                */
    F_TRACE  = 1u << 2,        /* the trace (dropped once it is complete)  */
    F_DISE   = 1u << 3,        /* DISE edits the stream                    */
    F_PMU    = 1u << 4,        /* performance counters deliver interrupts  */
    F_WARM   = 1u << 5,        /* a sampled run between its detailed
                                  windows: the timing model's long-lived
                                  state is warmed, nothing is timed         */
    F_COUNT  = 1u << 6
};

/* A DISE handler's instructions in the order they ran the last time from
 * its entry (run_dise_handler, in a run without the handlers' blocks,
 * engine_t.handler_blocks): followed without the page and slot lookup
 * while the handler runs that way again, in the same address space and
 * epoch of its decoded code (mem_t.code_epoch: the slots are the ones
 * decoded then, and an emptied slot's pc is 0, so a trace never runs a
 * slot that lost its semantics). */
#define HANDLER_TRACE_MAX 64
typedef struct handler_trace {
    uint64_t entry;            /* the handler's first pc                   */
    const mem_t *mem;          /* its address space, and its code's epoch  */
    uint64_t epoch;
    uint32_t n;                /* in[0..n): its steps                      */
    insn_t *in[HANDLER_TRACE_MAX];
} handler_trace_t;

struct engine {
    cpu_t *cpu;
    timing_t *timing;
    truth_t *truth;
    paths_t *paths;            /* the path profile recorder, or NULL       */
    trace_t *trace;
    dise_t *dise;
    pmu_t *pmu;
    runtime_t *runtime;
    smarts_t *smarts;          /* the sampler of a sampled run, or NULL     */
    blocks_t *blocks;          /* decoded blocks (blocks.h) for the variants
                                  that run them (RUNS_BLOCKS), else NULL    */
    blocks_t *handler_blocks;  /* with them and DISE's handler runtime: the
                                  handlers' blocks (run_dise_handler),
                                  translated when the program's are
                                  (attach_jit)                            */
    unsigned features;         /* F_* of the parts                         */
    uint64_t max_insts;        /* program instructions, UINT64_MAX = none  */
    bool redispatch;           /* the loop returned to change variant      */
    bool pmu_waiting;          /* an interrupt fell due that a DISE handler
                                  or sequence held back                     */
    unsigned untimed_roles;    /* engine_parts_t.untimed_roles              */
    uint64_t trap_pc;          /* engine_parts_t.trap_pc, trap, trap_ctx    */
    bool (*trap)(void *ctx, cpu_t *c);
    void *trap_ctx;
    bool step_untimed;         /* the edited stream's current step is one   */
    handler_trace_t handler_trace;  /* run_dise_handler's                   */
};

/* ---- observers ------------------------------------------------------------------- */

/* The program's calls and the data words it touches; its calling
 * contexts when the run keeps them (cycles: the timing model's, or 0). */
ALWAYS_INLINE void record_truth(truth_t *t, cpu_t *c, const insn_t *in, uint64_t pc,
                                uint64_t cycles)
{
    if (in->flags & (IF_LOAD | IF_STORE | IF_CALL)) {
        if (in->flags & IF_CALL) truth_record_call(t, pc, c->pc);
        else mem_mark_touched(c->mem, c->mem_addr, in->memsize);
    }
    if (unlikely(t->cct != NULL) && (in->flags & (IF_CALL | IF_RETURN | IF_JUMP)))
        cct_truth_step(t->cct, c, in, pc, cycles);
}

/* Every observer's view of a step; true when the timing model's head
 * cycle sum reached the PMU's gate (timing_step). */
ALWAYS_INLINE bool observe(engine_t *e, cpu_t *c, const insn_t *in, uint64_t pc, bool program,
                           const unsigned F)
{
    bool gate = (F & F_TIMING) && timing_step(e->timing, c, in);
    if (F & F_WARM) smarts_warm(e->smarts, in, c->mem_addr, c->pc);
    if ((F & F_TRUTH) && program) {
        record_truth(e->truth, c, in, pc, (F & F_TIMING) ? timing_hot(e->timing)->head_sum : 0);
        if (unlikely(e->paths != NULL)) paths_observe(e->paths, c, in, pc);
    }
    if (F & F_TRACE) trace_insn(e->trace, c, in);
    return gate;
}

/* The guest switched threads at an instruction boundary: the observers
 * that keep a call stack per thread follow. */
static void thread_switched(engine_t *e, cpu_t *c, uint64_t from)
{
    uint64_t cycles = e->timing ? timing_hot(e->timing)->head_sum : 0;
    if (e->truth && e->truth->cct)
        cct_truth_switch(e->truth->cct, c->sys->tid, c->pc, c->instret, cycles);
    if (e->paths) paths_switch_thread(e->paths, c, from, c->sys->tid);
}

/* ---- host signals ---------------------------------------------------------------- */

static volatile sig_atomic_t host_signal;  /* SIGINT/SIGTERM received, or 0         */
static cpu_t *volatile running;            /* the cpu engine_run is stepping, or NULL */

void engine_interrupt(int sig)
{
    host_signal = sig;
    cpu_t *c = running;
    if (c) c->event_at = 0;                /* the loop looks at its events next step */
}

int engine_interrupted(void) { return host_signal; }

/* ---- events ---------------------------------------------------------------------- */

/* Is a DISE replacement sequence or a runtime handler running? */
ALWAYS_INLINE bool edited_busy(const engine_t *e, const unsigned F)
{
    return ((F & F_DISE) && e->dise->seq) ||
           ((F & (F_DISE | F_PMU)) && e->runtime && runtime_depth(e->runtime));
}

/* The next program instruction count at which the loop looks at events. */
static void set_event_at(engine_t *e, cpu_t *c, unsigned F)
{
    uint64_t at = e->max_insts;
    if ((F & F_TRACE) && e->trace->written < e->trace->limit) {
        uint64_t left = e->trace->limit - e->trace->written;
        if (c->instret + left < at) at = c->instret + left;
    }
    if (e->smarts && smarts_next_switch(e->smarts) < at) at = smarts_next_switch(e->smarts);
    if (c->sys) {                      /* a signal to deliver, a timer to fire */
        uint64_t sig_at = sys_signal_event_at(c->sys, c);
        if (sig_at <= c->instret && edited_busy(e, F)) sig_at = c->instret + 1;
        if (sig_at < at) at = sig_at;
    }
    c->event_at = at;
    atomic_signal_fence(memory_order_seq_cst);  /* a signal that came meanwhile */
    if (host_signal) c->event_at = 0;
}

/* c->instret reached c->event_at: false when the loop must return (the
 * limit is reached, or the trace is complete and a variant without it
 * takes over). */
static __attribute__((noinline)) bool events(engine_t *e, cpu_t *c, unsigned F)
{
    if (e->smarts && c->instret >= smarts_next_switch(e->smarts)) {
        smarts_switch(e->smarts, c->instret);      /* the next phase: timed or warmed? */
        if (smarts_detailed(e->smarts) != ((F & F_TIMING) != 0)) {
            e->redispatch = true;
            return false;
        }
    }
    if (c->instret >= e->max_insts || host_signal) return false;
    if ((F & F_TRACE) && e->trace->written >= e->trace->limit) {
        e->redispatch = true;
        return false;
    }
    if (c->sys && sys_signal_event_at(c->sys, c) <= c->instret) {
        e->redispatch = true;          /* engine_run delivers, the loop resumes at c->pc */
        return false;
    }
    set_event_at(e, c, F);
    return true;
}

/* Is a counter interrupt due at the instruction just observed (the
 * timing model's head cycle sum: *head_sum)?  Below the gate, nothing is
 * (pmu.h). */
ALWAYS_INLINE bool pmu_due_at(const pmu_due_t *due, const uint64_t *head_sum, const cpu_t *c)
{
    uint64_t head = *head_sum;
    return unlikely(head >= due->gate) && (head > due->cycle || cpu_retired(c) >= due->insts);
}

ALWAYS_INLINE bool pmu_due(engine_t *e, cpu_t *c)
{
    return pmu_due_at(pmu_due_of(e->pmu), &timing_hot(e->timing)->head_sum, c);
}

/* Deliver it to the instruction at pc; true when its handler now runs. */
static __attribute__((noinline)) bool pmu_deliver(engine_t *e, cpu_t *c, uint64_t pc)
{
    bool entered = pmu_interrupt(e->pmu, c, pc, timing_hot(e->timing)->head_sum - 1);
    if (entered && e->pmu_waiting) pmu_note_held(e->pmu);
    e->pmu_waiting = false;
    return entered;
}

/* ---- the edited stream ----------------------------------------------------------- */

typedef struct cursor {        /* the loop's cached decoded code page     */
    uint64_t page_base;
    insn_t *slots;
} cursor_t;
#define CURSOR_NONE ((cursor_t){ ~0ull, NULL })

/* May an interrupt enter after this step of the edited stream?  After a
 * program instruction (T.INSN) that ends its sequence; after a DISE
 * handler's instruction when the PMU nests.  Never inside a sequence, nor
 * straight after a handler returns: the next program instruction takes
 * what fell due meanwhile. */
ALWAYS_INLINE bool pmu_may_enter(const engine_t *e, bool program, const unsigned F)
{
    if ((F & F_DISE) && e->dise->seq) return false;
    unsigned depth = runtime_depth(e->runtime);
    if (program) return depth == 0;
    return depth > 0 && pmu_nests(e->pmu) && !pmu_in_handler(e->pmu);
}

/* The timing model's view of a step of the edited stream: whose it is
 * and what a new replacement costs at decode. */
ALWAYS_INLINE void set_roles(engine_t *e, uint8_t role, bool redirect)
{
    timing_hot_t *h = timing_hot(e->timing);
    dise_t *d = e->dise;
    h->cur_role = role;
    h->dise_redirect = redirect;
    if (d) {
        bool untimed = e->untimed_roles >> d->penalty_role & 1;
        h->front_penalty = untimed ? 0 : d->penalty_pending;
        h->penalty_role = d->penalty_role;
        d->penalty_pending = 0;
    }
}

/* The timing model's view of a step, unless its role is untimed: then the
 * model never sees it (a pending decode penalty waits for the next timed
 * step, unless its own role is untimed too). */
ALWAYS_INLINE void time_roles(engine_t *e, uint8_t role, bool redirect)
{
    e->step_untimed = e->untimed_roles >> role & 1;
    if (!e->step_untimed) set_roles(e, role, redirect);
}

ALWAYS_INLINE void clear_roles(engine_t *e)
{
    timing_hot_t *h = timing_hot(e->timing);
    h->cur_role = DISE_ROLE_NONE;
    h->front_penalty = 0;
}

/* One step of a sequence (an inserted operation, or T.INSN) or of the
 * handler on top of the runtime's frames; *program says whose, *client
 * the handler's client (NULL for a sequence's step). */
ALWAYS_INLINE insn_t *edited_next(engine_t *e, cpu_t *c, cursor_t *cur, uint64_t *switches,
                                  uint64_t *pc, bool *program, runtime_client_t **client,
                                  const unsigned F)
{
    dise_t *d = e->dise;
    *client = NULL;
    if ((F & F_DISE) && d->seq) {
        insn_t *x = dise_step_seq(d, c);
        *program = d->kind == DK_PROGRAM;
        *pc = x->pc;
        if (F & F_TIMING) time_roles(e, *program ? DISE_ROLE_NONE : x->rm, d->redirect);
        return x;
    }
    if (runtime_switches(e->runtime) != *switches) {   /* another address space */
        *cur = CURSOR_NONE;
        *switches = runtime_switches(e->runtime);
    }
    const runtime_frame_t *f = runtime_top(e->runtime);
    bool dise_frame = (F & F_DISE) && f->client == &d->client;
    uint8_t role = f->role;
    *client = f->client;
    *pc = c->pc;
    insn_t *in = core_lookup(c, *pc, &cur->page_base, &cur->slots);
    core_step(c, in, *pc);
    *program = false;
    if (dise_frame) dise_count_handler_insts(d, 1);
    if (F & F_TIMING) time_roles(e, role, false);
    return in;
}

/* Do a DISE handler's steps observe nothing but the counts?  Then they
 * run one after another (run_dise_handler): without a timing model, the
 * trace, the warming and the PMU.  The ground-truth recorder takes the
 * program's steps only. */
#define HANDLER_RUNS_ALONE(F) \
    (((F) & (F_DISE | F_TIMING | F_TRACE | F_PMU | F_WARM)) == F_DISE)

/* run_dise_handler's steps in the handler's decoded blocks (e->handler_blocks),
 * one ordinary step wherever none starts (code not decoded yet): the count
 * of its instructions until it returns (the address space switches). */
static __attribute__((noinline)) uint64_t handler_in_blocks(engine_t *e, cpu_t *c, cursor_t *cur,
                                                            uint64_t now)
{
    const runtime_t *rt = e->runtime;
    uint64_t n = 0, pc = c->pc;
    for (;;) {
        uint64_t ran;
        pc = blocks_execute_handler(c, e->handler_blocks, pc, &ran);
        n += ran;
        if (runtime_switches(rt) != now) return n;
        insn_t *in = core_lookup(c, pc, &cur->page_base, &cur->slots);
        pc = core_step(c, in, pc);
        n++;
        if (runtime_switches(rt) != now) return n;
    }
}

/* The instructions of the DISE handler on top of the runtime's frames until
 * it calls or returns (the address space switches), each counted as
 * edited_next and run_edited count a handler's step, after it runs. */
ALWAYS_INLINE void run_dise_handler(engine_t *e, cpu_t *c, cursor_t *cur, uint64_t *switches)
{
    dise_t *d = e->dise;
    const runtime_t *rt = e->runtime;
    uint64_t now = runtime_switches(rt);
    if (now != *switches) {                   /* another address space */
        *cur = CURSOR_NONE;
        *switches = now;
    }
    if (e->handler_blocks) {
        uint64_t n = handler_in_blocks(e, c, cur, now);
        dise_count_handler_insts(d, n);
        c->runtime_insts += n;
        d->client.insts += n;
        return;
    }
    handler_trace_t *t = &e->handler_trace;
    uint64_t pc = c->pc;
    if (t->entry != pc || t->mem != c->mem || t->epoch != c->mem->code_epoch) {
        t->entry = pc;                        /* another handler, or its code again */
        t->mem = c->mem;
        t->epoch = c->mem->code_epoch;
        t->n = 0;
    }
    uint64_t n = 0;
    do {
        insn_t *in;
        if (n < t->n && t->in[n]->pc == pc) {
            in = t->in[n];                    /* as the last time */
        } else {
            in = core_lookup(c, pc, &cur->page_base, &cur->slots);
            if (n < HANDLER_TRACE_MAX) {      /* the trace goes this way from here */
                t->in[n] = in;
                t->n = (uint32_t)n + 1;
            }
        }
        core_step(c, in, pc);
        n++;
        pc = c->pc;
    } while (runtime_switches(rt) == now);
    dise_count_handler_insts(d, n);
    c->runtime_insts += n;
    d->client.insts += n;
}

/* The inserted operations of the sequence under way (d->seq, whose next
 * element is one), one after another up to its T.INSN, its end or its
 * call of a handler, when nothing but the counts observes them
 * (HANDLER_RUNS_ALONE): each counted as run_edited counts an inserted step. */
ALWAYS_INLINE void run_dise_inserted(dise_t *d, cpu_t *c)
{
    uint64_t n = 0;
    do {
        dise_step_seq(d, c);
        n++;
    } while (d->seq && d->seq->insns[d->idx].exec);
    c->runtime_insts += n;
}

/* A straight replacement (dise_seq_t.straight) from inside the replaced
 * instruction's step (dise_t.run_inline), in the variants where nothing but
 * the counts observes it (HANDLER_RUNS_ALONE): its inserted operations and
 * the DISE handlers they call, counted as run_edited counts them, up to
 * T.INSN, its last, which DISE steps (or leaves to the block loop) and the
 * step that called the semantics retires and observes as the instruction
 * itself. */
static void edited_inline(void *ctx, cpu_t *c)
{
    engine_t *e = ctx;
    dise_t *d = e->dise;
    cursor_t cur = CURSOR_NONE;
    uint64_t switches = ~0ull;
    for (;;) {
        if (!d->seq) {
            run_dise_handler(e, c, &cur, &switches);    /* its call entered it */
        } else if (d->seq->insns[d->idx].exec) {
            run_dise_inserted(d, c);
        } else {
            return;                                     /* T.INSN */
        }
    }
}

/* Steps of the edited stream until the program's own resumes; false when
 * the run must stop (limit) or change variant. */
ALWAYS_INLINE bool run_edited(engine_t *e, cpu_t *c, const unsigned F)
{
    cursor_t cur = CURSOR_NONE;
    uint64_t switches = ~0ull;
    while (edited_busy(e, F)) {
        if (HANDLER_RUNS_ALONE(F) && e->dise->seq && e->dise->seq->insns[e->dise->idx].exec) {
            run_dise_inserted(e->dise, c);
            continue;
        }
        if (HANDLER_RUNS_ALONE(F) && !e->dise->seq &&
            runtime_top(e->runtime)->client == &e->dise->client) {
            run_dise_handler(e, c, &cur, &switches);
            continue;
        }
        uint64_t pc;
        bool program;
        runtime_client_t *client;
        insn_t *in = edited_next(e, c, &cur, &switches, &pc, &program, &client, F);
        if (program) c->instret++;
        else c->runtime_insts++;
        uint64_t head_before = (F & F_TIMING) ? timing_hot(e->timing)->head_sum : 0;
        if ((F & F_TIMING) && unlikely(e->step_untimed)) {
            observe(e, c, in, pc, program, F & ~F_TIMING);
            e->step_untimed = false;
        } else {
            observe(e, c, in, pc, program, F);
        }
        if (client) {
            client->insts++;
            if (F & F_TIMING) client->head_cycles += timing_hot(e->timing)->head_sum - head_before;
        }
        if (F & F_TIMING) clear_roles(e);
        if (program && unlikely(c->instret >= c->event_at) && !events(e, c, F)) return false;
        if ((F & F_PMU) && unlikely(pmu_due(e, c))) {
            if (pmu_may_enter(e, program, F)) pmu_deliver(e, c, pc);
            else if (!pmu_in_handler(e->pmu)) e->pmu_waiting = true;
        }
    }
    return true;
}

/* ---- the program's stream -------------------------------------------------------- */

/* The variants that run decoded blocks: the functional core, with the
 * ground-truth recorder or without, with DISE or without (a block stops
 * before each instruction DISE classified, which the step below runs) --
 * but not when the recorder keeps the calling contexts or the path
 * profile, which observe every step (engine_new leaves e->blocks NULL
 * then). */
#define RUNS_BLOCKS(F) (((F) & ~(unsigned)(F_TRUTH | F_DISE)) == 0)
/* And those that run them timed (blocks_execute_timed): a timing
 * model's, with the recorder or without, with performance counters or
 * without, with DISE or without (a block stops where a replacement takes an
 * instruction: the step below runs and times the edited stream); the trace
 * and the warming of a sampled run keep the step (engine_new leaves
 * e->blocks NULL for a model that does not take blocks, for counters that
 * do not (pmu_takes_blocks), and for a sampled run).  The counters'
 * interrupt handler runs on the step (run_edited), as DISE's replacements
 * and handlers do. */
#define RUNS_TIMED_BLOCKS(F) (((F) & ~(unsigned)(F_TRUTH | F_PMU | F_DISE)) == F_TIMING)

/* The timing model as the timed block loop calls it (blocks.h), read at
 * each call as timing_step reads its entry: the entry for instructions
 * that are all plain (timing_block_insn) -- the program's own, with or
 * without DISE: the edited stream's, with their roles and decode penalty,
 * are stepped (run_edited, which clears the roles after each); with
 * counters, the head cycle sum and the gate timing_step compares. */
static block_timer_t block_timer(engine_t *e)
{
    timing_hot_t *h = timing_hot(e->timing);
    return (block_timer_t){ .time_insn = timing_block_insn(e->timing), .model = e->timing,
                            .seq = &h->seq, .cycles = &h->cycles, .gated = e->pmu != NULL };
}
/* The timed block loop reads the head cycle sum and the gate at seq[2], seq[3]. */
_Static_assert(offsetof(timing_hot_t, head_sum) == offsetof(timing_hot_t, seq) + 2 * sizeof(uint64_t) &&
               offsetof(timing_hot_t, pmu_gate) == offsetof(timing_hot_t, seq) + 3 * sizeof(uint64_t),
               "block_timer_t: the model's head cycle sum and gate follow its count");

ALWAYS_INLINE void engine_loop(engine_t *e, cpu_t *c, const unsigned F)
{
    if (edited_busy(e, F) && !run_edited(e, c, F)) return;
    cursor_t cur = CURSOR_NONE;
    uint64_t next = c->pc;             /* c->pc, without reading it back */
    /* what pmu_due reads each step, at hand */
    const pmu_due_t *due = (F & F_PMU) ? pmu_due_of(e->pmu) : NULL;
    const uint64_t *head_sum = (F & F_PMU) ? &timing_hot(e->timing)->head_sum : NULL;
    for (;;) {
        if (RUNS_BLOCKS(F) && e->blocks) {   /* blocks while they run, then a step */
            next = blocks_execute(c, e->blocks, (F & F_TRUTH) ? e->truth : NULL, next);
            if ((F & F_DISE) && unlikely(e->dise->seq != NULL)) {   /* replaced in a block */
                if (!run_edited(e, c, F)) return;
                cur = CURSOR_NONE;
                next = c->pc;
                continue;
            }
            if (unlikely(c->instret >= c->event_at) && !events(e, c, F)) return;
        }
        /* the same, each timed; with counters, while no instruction
         * count is due (a gate of 0 sends every step to the exact test) */
        if (RUNS_TIMED_BLOCKS(F) && e->blocks && (!(F & F_PMU) || due->gate != 0)) {
            block_timer_t timer = block_timer(e);
            uint64_t before = c->instret;
            next = blocks_execute_timed(c, e->blocks, (F & F_TRUTH) ? e->truth : NULL, &timer,
                                        next);
            if ((F & F_DISE) && unlikely(e->dise->seq != NULL)) {   /* replaced in a block */
                if (!run_edited(e, c, F)) return;
                cur = CURSOR_NONE;
                next = c->pc;
                continue;
            }
            if (unlikely(c->instret >= c->event_at) && !events(e, c, F)) return;
            /* it left after the instruction that reached the gate (stop_pc),
             * if it ran any: the step's test after it */
            if ((F & F_PMU) && c->instret != before && pmu_due_at(due, head_sum, c) &&
                pmu_deliver(e, c, c->stop_pc)) {
                if (!run_edited(e, c, F)) return;
                cur = CURSOR_NONE;
                next = c->pc;
                continue;
            }
        }
        uint64_t pc = next;
        insn_t *in = core_lookup(c, pc, &cur.page_base, &cur.slots);
        next = core_step(c, in, pc);
        /* only an instruction DISE classified (insn_t.dise) starts a replacement */
        if ((F & F_DISE) && unlikely(in->dise != 0) && e->dise->seq != NULL) {   /* replaced */
            if (!run_edited(e, c, F)) return;
            cur = CURSOR_NONE;
            next = c->pc;
            continue;
        }
        c->instret++;
        bool gate = observe(e, c, in, pc, true, F);
        if (unlikely(c->instret >= c->event_at) && !events(e, c, F)) return;
        if ((F & F_PMU) && unlikely(gate) && pmu_due_at(due, head_sum, c) && pmu_deliver(e, c, pc)) {
            if (!run_edited(e, c, F)) return;
            cur = CURSOR_NONE;
            next = c->pc;
        }
    }
}

/* Every combination of features, compiled from the one body.  Each starts
 * a page of its own: the speed of the dispatch loop (an indirect call per
 * instruction) swung by 20-30% between builds that differed only in where
 * the loop landed; page-aligned, the low address bits the branch
 * predictors index with stay the same whatever else changes. */
#define LOOP_VARIANT(F) \
    static __attribute__((aligned(4096))) void loop_##F(cpu_t *c, void *ctx) \
    { engine_loop(ctx, c, F); }
#define LOOP_VARIANTS(X) \
    X(0) X(1) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) \
    X(17) X(19) X(21) X(23) X(25) X(27) X(29) X(31) X(32) X(34) X(36) X(38)
LOOP_VARIANTS(LOOP_VARIANT)
#define LOOP_ENTRY(F) [F] = loop_##F,
static const cpu_loop_fn loops[F_COUNT] = { LOOP_VARIANTS(LOOP_ENTRY) };

/* ---- the run --------------------------------------------------------------------- */

/* --jit: the translator runs the functional core's blocks, with the
 * ground-truth recorder or without (jit.h).  The default (jit_if_able)
 * asks for the same quietly: where the engine does not run the functional
 * core's blocks, the host cannot run translated code or the translator
 * cannot be made, the run is the block loop's (or the step loop's). */
static bool attach_jit(engine_t *e, bool required, char *err, size_t errlen)
{
    const char *why;
    if (!e->blocks || (e->features & ~(unsigned)(F_DISE | F_TRUTH))) {
        if (!required) return true;
        set_error(err, errlen, "--jit runs only the functional core's blocks");
        return false;
    }
    if (!required && !jit_supported(&why)) return true;
    char quiet[256];
    e->blocks->jit = required ? jit_new(err, errlen) : jit_new(quiet, sizeof quiet);
    if (e->blocks->jit && e->handler_blocks) {   /* the DISE handlers' blocks too */
        e->handler_blocks->jit = jit_new(quiet, sizeof quiet);
        if (e->handler_blocks->jit) jit_for_handlers(e->handler_blocks->jit);
    }
    return e->blocks->jit != NULL || !required;
}

engine_t *engine_new(const engine_parts_t *p, char *err, size_t errlen)
{
    if (p->pmu && !p->timing) {
        set_error(err, errlen, "performance counters need a timing model to count cycles");
        return NULL;
    }
    if (p->smarts && (!p->timing || p->dise || p->pmu || p->paths ||
                      (p->truth && p->truth->cct))) {
        set_error(err, errlen, "a sampled run needs a timing model, and no DISE, counters, "
                  "paths or calling contexts (they need every cycle)");
        return NULL;
    }
    engine_t *e = xcalloc(1, sizeof *e);
    e->cpu = p->cpu;
    e->timing = p->timing;
    p->cpu->timed = p->timing != NULL;
    e->truth = p->truth;
    e->paths = p->truth ? p->paths : NULL;
    e->trace = p->trace;
    e->dise = p->dise;
    e->untimed_roles = p->untimed_roles & ~(1u << DISE_ROLE_NONE);
    e->pmu = p->pmu;
    e->trap_pc = p->trap ? p->trap_pc : 0;
    e->trap = p->trap;
    e->trap_ctx = p->trap_ctx;
    e->runtime = p->cpu->runtime;
    e->smarts = p->smarts;
    e->features = (p->timing ? F_TIMING : 0) | (p->truth ? F_TRUTH : 0) |
                  (p->trace ? F_TRACE : 0) | (p->dise ? F_DISE : 0) | (p->pmu ? F_PMU : 0);
    if (p->dise && p->hps_truth) dise_set_truth(p->dise, p->hps_truth);
    if (p->pmu) timing_set_pmu(p->timing, p->pmu);
    if (p->timing) timing_set_cpu(p->timing, p->cpu);
    if (p->timing) clear_roles(e);
    bool every_step = (p->truth && p->truth->cct) || p->paths;
    unsigned untraced = e->features & ~(unsigned)F_TRACE;
    bool timed_blocks = RUNS_TIMED_BLOCKS(untraced) && !p->smarts && timing_takes_blocks(p->timing) &&
                        (!p->pmu || pmu_takes_blocks(p->pmu));
    if ((RUNS_BLOCKS(untraced) || timed_blocks) && !every_step) e->blocks = blocks_new();
    if (e->blocks && e->dise && e->runtime && !p->timing) e->handler_blocks = blocks_new();
    if ((p->jit || p->jit_if_able) && !attach_jit(e, p->jit, err, errlen)) {
        engine_free(e);
        return NULL;
    }
    return e;
}

void engine_free(engine_t *e)
{
    if (e) blocks_free(e->blocks);
    if (e) blocks_free(e->handler_blocks);
    free(e);
}

/* The variant for the run as it is now: the trace drops out when done. */
static unsigned current_features(const engine_t *e)
{
    unsigned F = e->features;
    if ((F & F_TRACE) && e->trace->written >= e->trace->limit) F &= ~(unsigned)F_TRACE;
    if (e->smarts && !smarts_detailed(e->smarts)) F = (F & ~(unsigned)F_TIMING) | F_WARM;
    return F;
}

stop_reason_t engine_run(engine_t *e, uint64_t max_insts)
{
    cpu_t *c = e->cpu;
    e->max_insts = max_insts ? max_insts : UINT64_MAX;
    running = c;
    if (e->blocks) blocks_attach(e->blocks, c);
    if (e->handler_blocks) blocks_attach_mem(e->handler_blocks, c, runtime_mem(e->runtime));
    for (;;) {
        if (host_signal) {
            c->stop = STOP_INTERRUPTED;
            c->stop_info = (uint64_t)host_signal;
            break;
        }
        if (c->instret >= e->max_insts) {
            c->stop = STOP_MAX_INSTS;
            break;
        }
        uint64_t tid = c->sys ? c->sys->tid : 0;
        if (c->sys && !edited_busy(e, e->features) &&
            sys_signal_boundary(c->sys, c) != STOP_NONE)
            break;
        if (c->sys && c->sys->tid != tid) thread_switched(e, c, tid);
        unsigned F = current_features(e);
        e->redispatch = false;
        set_event_at(e, c, F);
        if (e->dise) {                 /* straight replacements run inline? */
            e->dise->run_inline = HANDLER_RUNS_ALONE(F) ? edited_inline : NULL;
            e->dise->run_inline_ctx = e;
        }
        stop_reason_t why = cpu_run_loop(c, loops[F], e);
        if (e->dise) e->dise->run_inline = NULL;
        if (e->blocks) blocks_stop(e->blocks, c);   /* the counts they hold, exact */
        if (e->handler_blocks) blocks_stop(e->handler_blocks, c);
        if (why != STOP_NONE) {
            if (e->trap && c->stop == STOP_MEM_FAULT && c->pc == e->trap_pc &&
                e->trap(e->trap_ctx, c)) {
                c->stop = STOP_NONE;           /* the host routine ran: go on */
                continue;
            }
            if (c->sys && !edited_busy(e, e->features) && sys_fault_signal(c->sys, c)) continue;
            break;
        }
        if (host_signal) continue;
        if (!e->redispatch) {
            c->stop = STOP_MAX_INSTS;
            break;
        }
    }
    running = NULL;
    if (e->blocks) blocks_detach(e->blocks);
    if (e->handler_blocks) blocks_detach(e->handler_blocks);
    c->cycle = e->timing ? timing_hot(e->timing)->cycles : cpu_retired(c);
    if (!e->timing && e->dise) c->cycle += dise_penalty_cycles(e->dise);   /* decode stalls */
    return c->stop;
}

void engine_finish(engine_t *e)
{
    cpu_t *c = e->cpu;
    if (e->runtime) runtime_unwind(e->runtime, c);
    if (e->pmu) pmu_finish(e->pmu, c);
    if (e->dise) {
        dise_finish(e->dise, c);
        if (e->timing) {
            timing_role_cycles(e->timing, e->dise->measured_role_cycles, DISE_ROLE_COUNT);
            e->dise->role_cycles_measured = true;
        }
    }
}

stop_reason_t engine_run_once(const engine_parts_t *parts, uint64_t max_insts,
                              char *err, size_t errlen)
{
    engine_t *e = engine_new(parts, err, errlen);
    if (!e) return STOP_NONE;
    stop_reason_t why = engine_run(e, max_insts);
    engine_finish(e);
    engine_free(e);
    return why;
}
