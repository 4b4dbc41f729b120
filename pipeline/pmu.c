/*
 * pmu.c - performance counters with skewed interrupt delivery (pmu.h).
 *
 * Counters of cycles and instructions are not stepped: each holds the
 * value it had at some cycle (instruction) and so knows the cycle
 * (instruction) it will overflow at.  Counters of misses and mispredicts
 * are stepped by pmu_count.  An overflow becomes a request to interrupt
 * pmu.skid cycles later; the run loop delivers the earliest due request to
 * the instruction at the head at or after that cycle (pmu_interrupt), and
 * the guest driver's handler runs in a frame of the guest runtime
 * (runtime.h) until its hps.ret.  Requests that fall due while the handler
 * runs wait for the first program instruction after it; while a DISE
 * handler runs they wait too (pmu.during_handler = hold) or interrupt it
 * (nest).  The skid is applied in one place, skewed(); the precise levels
 * (request()) replace it with an instruction count or the cause's pc.
 * ProfileMe's samples (pmu_sample) are requests of their own that carry
 * the sampled pc and the ProfileMe registers, and go through the same
 * driver, which reads the registers with hps.rdpmc.
 *
 * Unless pmu.count_handler = yes, the counters stand still from the
 * delivery of an interrupt until the first program instruction after the
 * handler (and whatever handlers it called) has issued, that instruction's
 * own cycle and count excepted, and do not count the events in between.
 * So they leave out the handler and the return's shadow: the stall of that
 * first instruction (the refetch after hps.ret, misses on lines the
 * handler evicted).  No sample can land in the shadow (the next overflow
 * is a period away), so counting it would make every sample stand for
 * more cycles than those it can land in.  The counters count on clocks
 * that skip what was left out (counted_at).
 * Overflow points and requests are kept on that clock; due (pmu.h) is on
 * the run's, and may come early by the cycles of a handler's last
 * instruction, which are charged after it: pmu_interrupt then finds
 * nothing due and moves due on.
 * With pmu.period = geometric the PMU draws each re-armed period itself,
 * geometric with the driver's mean (rearm_geometric), from a splitmix64
 * stream of the run's seed: the sampling is memoryless.
 * The exact count by pc of a retired event (pmu_count) stands for its
 * _spec twin's as well: the twin's own profile holds only the wrong
 * path's, and pmu_exact adds the two when the twin's is read.
 */
#include "pmu.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "profile.h"
#include "runtime.h"
#include "sys.h"
#include "util.h"

const char *const pmu_event_names[PMU_EVENT_COUNT] = {
#define PMU_EVENT_NAME(id, name) name,
    PMU_EVENT_LIST(PMU_EVENT_NAME)
#undef PMU_EVENT_NAME
};

int pmu_event_by_name(const char *name)
{
    for (int k = 0; k < PMU_EVENT_COUNT; k++)
        if (!strcmp(pmu_event_names[k], name)) return k;
    return -1;
}

#define MAX_REQUESTS 64

typedef struct counter {
    int event;                  /* pmu_event_t, or -1 when unused          */
    uint64_t value;             /* stepped counters: the count now         */
    uint64_t overflow_at;       /* cycles/insts counters: when it wraps    */
    double log_keep;            /* geometric periods: log(1 - 1/mean), else 0 */
    unsigned owed;              /* geometric: requests re-arming pushed, whose
                                   deliveries find the counter armed       */
} counter_t;

typedef struct request {
    uint64_t deliver_at;        /* cycle (UINT64_MAX: by instructions)     */
    uint64_t at_insts;          /* precise 1: retired count it is due at    */
    uint64_t pc;                /* the sampled pc, 0 = the head's at delivery */
    int counter;                /* -1: a ProfileMe sample (pmu_sample)     */
    uint64_t regs[PM_REG_COUNT];   /* a sample's ProfileMe registers       */
} request_t;

struct pmu {
    pmu_due_t due;              /* first: read inline (pmu.h)              */
    pmu_config_t cfg;
    pmu_handler_t h;
    uint64_t wrap;              /* 2^counter_bits                          */
    uint64_t rng;               /* splitmix64 state: geometric periods      */
    counter_t ctr[PMU_MAX_COUNTERS];
    request_t req[MAX_REQUESTS];
    unsigned nreq;

    /* the handler */
    runtime_client_t client;
    bool in_handler;
    bool frozen;                /* the counters stand still                */
    uint64_t frozen_cycle;      /* the run's head cycle and retired        */
    uint64_t frozen_insts;      /* instructions when they stopped          */
    uint64_t skip_cycles;       /* left out of the counted clocks so far   */
    uint64_t skip_insts;
    bool after_return;          /* the handler returned; the next program
                                   instruction ends the freeze             */
    uint64_t return_head;       /* now() and the handler's cycles at its   */
    uint64_t return_handler;    /* hps.ret, for the shadow statistic       */
    uint64_t shadow_cycles;     /* left out: the returns' shadows          */
    const uint64_t *head_sum;   /* the timing model's: last head cycle + 1 */
    uint64_t *gate_mirror;      /* a word kept equal to due.gate, or NULL  */
    cpu_t *cpu;
    pmu_sample_hook_t sample_hook;   /* pmu_set_sample_hook, or NULL      */
    void *sample_ctx;
    pmu_regs_hook_t regs_hook;       /* pmu_set_regs_hook, or NULL        */
    void *regs_ctx;
    uint64_t sample_regs[PM_REG_COUNT];   /* the delivered sample's        */
    uint64_t sampled_pc;        /* the pc the running handler was given    */

    /* statistics */
    uint64_t interrupts[PMU_EVENT_COUNT];
    uint64_t held, dropped;
    uint64_t skid_sum;          /* sum of (delivered head - overflow) cycles */
    uint64_t events[PMU_EVENT_COUNT];  /* every pmu_count, counted or not   */
    bool programmed[PMU_EVENT_COUNT];  /* a counter has counted it        */
    uint32_t counting[PMU_EVENT_COUNT];  /* the counters counting it: bit k */
    bool counted[PMU_EVENT_COUNT];  /* a counter counts it or its _spec twin,
                                       or it is counted on demand: pmu_count
                                       takes its whole way                 */
    uint64_t imprecise_dropped; /* precise 3: samples that could not be exact */
    uint64_t samples_taken;     /* ProfileMe samples delivered              */
    bool in_sample;             /* the running handler is a ProfileMe one   */
    profile_t *exact[PMU_EVENT_COUNT];   /* pc -> events, program code only;
                                            a _spec event's holds only what
                                            its retired twin's does not     */
    profile_recent_t *recent[PMU_EVENT_COUNT];   /* their events come through
                                                    these (flushed: pmu_exact) */
    profile_t *spec_sum[PMU_EVENT_COUNT];   /* a _spec event's exact profile as
                                               pmu_exact gives it: its own and
                                               its twin's, added when read   */
};

/* The cycle an overflow at `cycle` is delivered from: the skid (precise
 * levels count their skid in instructions, or have none). */
static uint64_t skewed(const pmu_t *p, uint64_t cycle)
{
    return p->cfg.precise ? cycle : cycle + p->cfg.skid;
}

/* The head cycle of the last instruction timed. */
static uint64_t now(const pmu_t *p) { return p->head_sum && *p->head_sum ? *p->head_sum - 1 : 0; }

/* The counters' clocks at the run's head cycle `head` / now. */
static uint64_t counted_at(const pmu_t *p, uint64_t head)
{
    return (p->frozen ? p->frozen_cycle : head) - p->skip_cycles;
}
static uint64_t counted_cycle(const pmu_t *p) { return counted_at(p, now(p)); }
static uint64_t counted_insts(const pmu_t *p, const cpu_t *c)
{
    return (p->frozen ? p->frozen_insts : cpu_retired(c)) - p->skip_insts;
}

/* The earliest cycle a request or a cycles counter's overflow is due. */
static void update_due(pmu_t *p)
{
    uint64_t cyc = UINT64_MAX, insts = UINT64_MAX;
    for (unsigned k = 0; k < p->nreq; k++) {
        if (p->req[k].deliver_at < cyc) cyc = p->req[k].deliver_at;
        if (p->req[k].at_insts < insts) insts = p->req[k].at_insts;
    }
    for (unsigned k = 0; k < p->cfg.counters; k++) {
        const counter_t *x = &p->ctr[k];
        if (x->event == PMU_CYCLES && skewed(p, x->overflow_at) < cyc)
            cyc = skewed(p, x->overflow_at);
        if (x->event == PMU_INSTS && x->overflow_at < insts) insts = x->overflow_at;
    }
    p->due.cycle = cyc == UINT64_MAX ? cyc : cyc + p->skip_cycles;
    p->due.insts = insts == UINT64_MAX ? insts : insts + p->skip_insts;
    if (p->after_return) p->due.cycle = 0;   /* end the freeze next step   */
    /* one compare per step for the run loop: an instruction count due
     * sends every step to the exact test */
    p->due.gate = p->due.insts != UINT64_MAX ? 0
                : p->due.cycle == UINT64_MAX ? UINT64_MAX : p->due.cycle + 1;
    if (p->gate_mirror) *p->gate_mirror = p->due.gate;
}

/* The speculative twin of a retired event (it counts both) and the
 * retired twin of a speculative one, plus one (0: none). */
static const int8_t spec_twin_1[PMU_EVENT_COUNT] = {
    [PMU_IMISS] = PMU_IMISS_SPEC + 1, [PMU_DMISS] = PMU_DMISS_SPEC + 1,
    [PMU_DTBMISS] = PMU_DTBMISS_SPEC + 1, [PMU_ITBMISS] = PMU_ITBMISS_SPEC + 1,
    [PMU_BRANCHES] = PMU_BRANCHES_SPEC + 1,
};
static const int8_t retired_twin_1[PMU_EVENT_COUNT] = {
    [PMU_IMISS_SPEC] = PMU_IMISS + 1, [PMU_DMISS_SPEC] = PMU_DMISS + 1,
    [PMU_DTBMISS_SPEC] = PMU_DTBMISS + 1, [PMU_ITBMISS_SPEC] = PMU_ITBMISS + 1,
    [PMU_BRANCHES_SPEC] = PMU_BRANCHES + 1,
};
static int spec_twin(pmu_event_t event) { return spec_twin_1[event] - 1; }
static int retired_twin(pmu_event_t event) { return retired_twin_1[event] - 1; }

static void handler_return(void *ctx, cpu_t *c);
static void handler_notify(void *ctx, cpu_t *c, uint64_t value);
static void handler_wrpmc(void *ctx, cpu_t *c, uint64_t k, uint64_t value);
static uint64_t handler_rdpmc(void *ctx, cpu_t *c, uint64_t k);

/* Which events take pmu_count's whole way (pmu.counted). */
static void note_counted(pmu_t *p)
{
    for (int e = 0; e < PMU_EVENT_COUNT; e++) {
        int twin = spec_twin((pmu_event_t)e);
        p->counted[e] = e == PMU_BRANCHES || e == PMU_BRANCHES_SPEC || p->counting[e] ||
                        (twin >= 0 && p->counting[twin]);
    }
}

pmu_t *pmu_new(const pmu_config_t *cfg, const pmu_handler_t *handler)
{
    pmu_t *p = xcalloc(1, sizeof *p);
    p->cfg = *cfg;
    if (p->cfg.counters > PMU_MAX_COUNTERS) p->cfg.counters = PMU_MAX_COUNTERS;
    p->h = *handler;
    p->wrap = 1ull << p->cfg.counter_bits;
    p->rng = p->cfg.seed ^ 0x504d55504552494full;       /* "PMUPERIO" */
    for (unsigned k = 0; k < PMU_MAX_COUNTERS; k++) p->ctr[k].event = -1;
    for (int e = 0; e < PMU_EVENT_COUNT; e++) {
        p->exact[e] = profile_new();
        p->recent[e] = profile_recent_new(p->exact[e]);
        if (retired_twin((pmu_event_t)e) >= 0) p->spec_sum[e] = profile_new();
    }
    p->client = (runtime_client_t){ .name = "PMU", .returned = handler_return,
                                    .notify = handler_notify, .wrpmc = handler_wrpmc, .rdpmc = handler_rdpmc,
                                    .ctx = p };
    note_counted(p);
    update_due(p);
    return p;
}

void pmu_free(pmu_t *p)
{
    if (!p) return;
    for (int e = 0; e < PMU_EVENT_COUNT; e++) {
        profile_recent_free(p->recent[e]);
        profile_free(p->exact[e]);
        profile_free(p->spec_sum[e]);
    }
    free(p);
}

/* Load counter k with value v at the current cycle / instruction. */
static void load_counter(pmu_t *p, unsigned k, uint64_t v, uint64_t now_cycle, uint64_t now_insts)
{
    counter_t *x = &p->ctr[k];
    v &= p->wrap - 1;
    x->value = v;
    if (x->event == PMU_CYCLES) x->overflow_at = now_cycle + (p->wrap - v);
    if (x->event == PMU_INSTS) x->overflow_at = now_insts + (p->wrap - v);
}

/* A geometric period of counter k (pmu_set_period_mean): 1 + the events
 * before the first success of trials of probability 1/mean, by inversion
 * of a uniform draw in (0, 1]; at most 2^bits. */
static uint64_t geometric_period(pmu_t *p, unsigned k)
{
    double u = (double)((splitmix64_next(&p->rng) >> 11) + 1) * 0x1p-53;
    double extra = floor(log(u) / p->ctr[k].log_keep);
    return extra >= (double)(p->wrap - 1) ? p->wrap : 1 + (uint64_t)extra;
}

void pmu_program(pmu_t *p, unsigned k, pmu_event_t event, uint64_t value)
{
    if (k >= p->cfg.counters) return;
    if (p->ctr[k].event >= 0) p->counting[p->ctr[k].event] &= ~(1u << k);
    p->ctr[k].event = (int)event;
    if ((unsigned)event < PMU_EVENT_COUNT) p->counting[event] |= 1u << k;
    if ((unsigned)event < PMU_EVENT_COUNT) p->programmed[event] = true;
    p->due.branches = p->programmed[PMU_BRANCHES] || p->programmed[PMU_BRANCHES_SPEC];
    note_counted(p);
    load_counter(p, k, value, 0, 0);
    update_due(p);
}

void pmu_set_period_mean(pmu_t *p, unsigned k, double mean)
{
    if (!p->cfg.geometric || k >= p->cfg.counters || mean <= 1) return;
    p->ctr[k].log_keep = log1p(-1.0 / mean);
    load_counter(p, k, p->wrap - geometric_period(p, k), 0, 0);
    update_due(p);
}

void pmu_mirror_gate(pmu_t *p, uint64_t *word)
{
    p->gate_mirror = word;
    *word = p->due.gate;
}

bool pmu_takes_blocks(const pmu_t *p) { return p->cfg.precise != 1; }

void pmu_attach(pmu_t *p, cpu_t *c, const uint64_t *head_sum)
{
    p->cpu = c;
    p->head_sum = head_sum;
    if (!c->runtime && p->h.runtime) runtime_attach(p->h.runtime, c);
}

/* ---- overflows ------------------------------------------------------------------- */

static void push_request(pmu_t *p, request_t r)
{
    if (p->nreq == MAX_REQUESTS) {           /* a handler that never returns */
        p->dropped++;
        return;
    }
    p->req[p->nreq++] = r;
}

/* An overflow of counter k caused by the instruction at cause_pc (0: the
 * one at the head then) at `cycle`, as the precise level delivers it:
 * 0 skid cycles later to whatever is at the head; 1 to the program
 * instruction `skid` instructions after the cause; 2 and 3 with the
 * cause's own pc. */
static void request(pmu_t *p, unsigned k, uint64_t cycle, uint64_t cause_pc)
{
    request_t r = { .deliver_at = skewed(p, cycle), .at_insts = UINT64_MAX, .counter = (int)k };
    if (p->cfg.precise == 1 && p->cpu) {
        r.deliver_at = UINT64_MAX;
        r.at_insts = counted_insts(p, p->cpu) + p->cfg.skid;
    } else if (p->cfg.precise >= 2) {
        r.pc = cause_pc;
    }
    push_request(p, r);
}

/* branches and branches_spec only once a counter counts them (pmu.h). */
static bool counted_on_demand(const pmu_t *p, pmu_event_t event)
{
    return (event != PMU_BRANCHES && event != PMU_BRANCHES_SPEC) || p->programmed[event];
}

/* One more event for the counters in `counting` (an overflow requests its
 * interrupt). */
static __attribute__((noinline)) void step_counters(pmu_t *p, uint32_t counting, uint64_t cycle,
                                                    uint64_t pc)
{
    cycle = counted_at(p, cycle);
    bool any = false;
    for (; counting; counting &= counting - 1) {
        unsigned k = (unsigned)__builtin_ctz(counting);
        counter_t *x = &p->ctr[k];
        if (++x->value == p->wrap) {
            x->value = 0;
            request(p, k, cycle, pc);
            any = true;
        }
    }
    if (any) update_due(p);
}

/* One event for its total, its exact profile when `exact` (program code
 * only) and the counters counting it. */
static inline void count_one(pmu_t *p, pmu_event_t event, uint64_t cycle, uint64_t pc,
                             bool exact)
{
    p->events[event]++;
    if (exact && !runtime_contains(pc)) profile_recent_add(p->recent[event], pc, 0);
    uint32_t counting = p->counting[event];
    if (counting && !p->frozen) step_counters(p, counting, cycle, pc);   /* frozen: the
                                               handler's, or the shadow's: none counts */
}

/* A retired event counts as its _spec twin too; the twin's exact profile
 * takes it only when the retired one's did not (branches not counted on
 * demand): pmu_exact adds the two when the twin's is read, so each event
 * goes through one exact profile, not two (on ev5 most of pmu_count's
 * events are D-cache misses, and the second profile was a third of its
 * cost). */
static __attribute__((noinline)) void count_counted(pmu_t *p, pmu_event_t event, uint64_t cycle,
                                                    uint64_t pc)
{
    bool own = counted_on_demand(p, event);
    if (own) count_one(p, event, cycle, pc, true);
    int twin = spec_twin(event);
    if (twin >= 0 && counted_on_demand(p, (pmu_event_t)twin))
        count_one(p, (pmu_event_t)twin, cycle, pc, !own);
}

/* An event no counter counts (on ev5 under the default events, cycles and
 * imiss, the D-cache misses and mispredictions, nearly all of them) only
 * adds to the totals and the exact profile, the profile's slow path last:
 * a tail call, so the common case saves no register. */
void pmu_count(pmu_t *p, pmu_event_t event, uint64_t cycle, uint64_t pc)
{
    if (p->counted[event]) {
        count_counted(p, event, cycle, pc);
        return;
    }
    p->events[event]++;
    int twin = spec_twin(event);
    if (twin >= 0) p->events[twin]++;
    if (!runtime_contains(pc)) profile_recent_add(p->recent[event], pc, 0);
}

void pmu_sample(pmu_t *p, uint64_t pc, uint64_t cycle, const uint64_t regs[PM_REG_COUNT])
{
    request_t r = { counted_at(p, cycle), UINT64_MAX, pc, -1, { 0 } };
    memcpy(r.regs, regs, sizeof r.regs);
    push_request(p, r);
    update_due(p);
}

static bool same_member(void *ctx, uint64_t key, uint64_t key2, uint64_t *key_out,
                        uint64_t *key2_out)
{
    *key_out = key;
    *key2_out = key2;
    return true;
}

/* A _spec event's: its own events and its retired twin's (pmu_count),
 * summed afresh at each call. */
const profile_t *pmu_exact(const pmu_t *p, pmu_event_t event)
{
    profile_recent_flush(p->recent[event]);
    int retired = retired_twin(event);
    if (retired < 0) return p->exact[event];
    profile_recent_flush(p->recent[retired]);
    profile_t *sum = p->spec_sum[event];
    profile_clear(sum);
    profile_map(p->exact[event], same_member, NULL, sum);
    profile_map(p->exact[retired], same_member, NULL, sum);
    return sum;
}

/* Turn the overflows of time counters reached by (head, insts) into
 * requests; a counter that overflowed counts on from 0. */
static void collect_time_overflows(pmu_t *p, uint64_t head, uint64_t insts)
{
    for (unsigned k = 0; k < p->cfg.counters; k++) {
        counter_t *x = &p->ctr[k];
        if (x->event == PMU_CYCLES) {
            while (skewed(p, x->overflow_at) <= head) {
                request(p, k, x->overflow_at, 0);
                x->overflow_at += p->wrap;
            }
        } else if (x->event == PMU_INSTS) {
            while (x->overflow_at <= insts) {
                request(p, k, head, 0);
                x->overflow_at += p->wrap;
            }
        }
    }
}

bool pmu_in_handler(const pmu_t *p) { return p->in_handler; }
bool pmu_nests(const pmu_t *p) { return p->cfg.nest; }
void pmu_note_held(pmu_t *p) { p->held++; }


/* ---- the handler --------------------------------------------------------------- */

/* hps.ret in the interrupt handler: the runtime is back where the
 * interrupt came.  What fell due meanwhile was held and is delivered to the
 * next program instruction. */
static void handler_return(void *ctx, cpu_t *c)
{
    pmu_t *p = ctx;
    uint64_t head = counted_cycle(p);
    p->in_handler = false;
    p->in_sample = false;
    if (p->frozen) {
        p->after_return = true;
        p->return_head = now(p);
        p->return_handler = p->client.head_cycles;
    }
    uint64_t retired = counted_insts(p, c);
    collect_time_overflows(p, head, retired);
    for (unsigned k = 0; k < p->nreq;) {
        request_t *r = &p->req[k];
        bool due = r->deliver_at <= head || r->at_insts <= retired;
        if (due && p->cfg.precise == 3 && r->counter >= 0 && !r->pc) {
            p->imprecise_dropped++;          /* its cause ran in the handler */
            *r = p->req[--p->nreq];
            continue;
        }
        if (due) p->held++;                  /* fell due meanwhile */
        k++;
    }
    update_due(p);
}

static void handler_notify(void *ctx, cpu_t *c, uint64_t value)
{
    pmu_t *p = ctx;
    if (!p->h.notify) cpu_stop(c, STOP_ILLEGAL, 0);
    p->h.notify(p->h.notify_ctx, c, value);
}

/* Counter k's value: for a time counter what it counted since it last
 * wrapped (it counts on from 0 after an overflow). */
static uint64_t counter_value(const pmu_t *p, const cpu_t *c, unsigned k)
{
    const counter_t *x = &p->ctr[k];
    if (x->event == PMU_CYCLES) return (counted_cycle(p) + p->wrap - x->overflow_at) & (p->wrap - 1);
    if (x->event == PMU_INSTS) return (counted_insts(p, c) + p->wrap - x->overflow_at) & (p->wrap - 1);
    return x->value;
}

/* Re-arm counter k with geometric periods that start at its overflow:
 * `since` counted since then, its value.  A period no longer than that
 * has ended already: the counter overflowed again, its request is held
 * until the handler returns, and the next period starts there; that
 * request's own handler finds the counter armed and leaves it.  Such an
 * overflow a skid or more before the interrupt was delivered fell due
 * while the interrupted instruction was at the head: the request carries
 * its pc, the sample lands where the overflow did (else on the first
 * program instruction after the handler, which would take the samples of
 * the instructions that stall long at the head, 2% of them at a mean of
 * 525 cycles). */
static void rearm_geometric(pmu_t *p, cpu_t *c, unsigned k)
{
    counter_t *x = &p->ctr[k];
    if (x->owed) {
        x->owed--;
        return;
    }
    uint64_t since = counter_value(p, c, k), period = geometric_period(p, k);
    uint64_t cycle = counted_cycle(p);
    while (period <= since) {
        since -= period;
        unsigned pending = p->nreq;
        request(p, k, cycle - (x->event == PMU_CYCLES ? since : 0), 0);
        if (p->nreq > pending) {
            x->owed++;
            if (x->event == PMU_CYCLES && since >= p->cfg.skid)
                p->req[pending].pc = p->sampled_pc;
        }
        period = geometric_period(p, k);
    }
    load_counter(p, k, p->wrap - period + since, cycle, counted_insts(p, c));
}

/* hps.wrpmc k, value: the handler writes counter k (or, for a counter of
 * geometric periods, asks for the next one). */
static void handler_wrpmc(void *ctx, cpu_t *c, uint64_t k, uint64_t value)
{
    pmu_t *p = ctx;
    if (p->in_sample) return;                /* ProfileMe re-arms itself */
    if (k >= p->cfg.counters) cpu_stop(c, STOP_ILLEGAL, 0);
    if (p->ctr[k].log_keep != 0)
        rearm_geometric(p, c, (unsigned)k);
    else
        load_counter(p, (unsigned)k, value, counted_cycle(p), counted_insts(p, c));
}

/* hps.rdpmc k: the handler reads counter k.  In a ProfileMe sample's
 * handler, PM_REG_BASE + r reads its ProfileMe register r. */
static uint64_t handler_rdpmc(void *ctx, cpu_t *c, uint64_t k)
{
    pmu_t *p = ctx;
    if (p->in_sample && k - PM_REG_BASE < PM_REG_COUNT) return p->sample_regs[k - PM_REG_BASE];
    if (k >= p->cfg.counters) cpu_stop(c, STOP_ILLEGAL, 0);
    return counter_value(p, c, (unsigned)k);
}

/* The first program instruction after the handler issued at run cycle
 * `head`: the counters go on, having left out everything since they
 * stopped but its one cycle and its count. */
static void thaw(pmu_t *p, const cpu_t *c, uint64_t head)
{
    if (head > p->frozen_cycle + 1) p->skip_cycles += head - 1 - p->frozen_cycle;
    uint64_t insts = cpu_retired(c);
    if (insts > p->frozen_insts + 1) p->skip_insts += insts - 1 - p->frozen_insts;
    /* the shadow: after the handler's hps.ret, whose cycles are its own */
    uint64_t ret_cycles = p->client.head_cycles - p->return_handler;
    if (head > p->return_head + ret_cycles + 1)
        p->shadow_cycles += head - 1 - p->return_head - ret_cycles;
    p->frozen = p->after_return = false;
}

/* The host's handler takes request r at once; no guest handler runs. */
static bool host_interrupt(pmu_t *p, cpu_t *c, uint64_t pc, uint64_t head, unsigned r)
{
    unsigned k = (unsigned)p->req[r].counter;
    int event = p->ctr[k].event;
    if (p->req[r].deliver_at != UINT64_MAX)
        p->skid_sum += head - p->req[r].deliver_at + (p->cfg.precise ? 0 : p->cfg.skid);
    p->req[r] = p->req[--p->nreq];
    p->interrupts[event]++;
    uint64_t next = p->h.host(p->h.host_ctx, c, pc, event, k);
    load_counter(p, k, next, head, counted_insts(p, c));
    update_due(p);
    return false;
}

bool pmu_interrupt(pmu_t *p, cpu_t *c, uint64_t pc, uint64_t head)
{
    if (p->in_handler) return false;
    if (p->after_return) thaw(p, c, head);
    head = counted_at(p, head);
    uint64_t retired = counted_insts(p, c);
    collect_time_overflows(p, head, retired);
    unsigned first = p->nreq;
    for (unsigned k = 0; k < p->nreq; k++) {
        const request_t *r = &p->req[k];
        bool due = r->deliver_at <= head || r->at_insts <= retired;
        if (due && (first == p->nreq || r->deliver_at < p->req[first].deliver_at ||
                    r->at_insts < p->req[first].at_insts))
            first = k;
    }
    if (first == p->nreq) {                  /* nothing due after all */
        update_due(p);
        return false;
    }
    request_t r = p->req[first];
    bool sample = r.counter < 0;
    unsigned k = sample ? 0 : (unsigned)r.counter;
    int event = sample ? PMU_PROFILEME : p->ctr[k].event;
    if (p->h.host && !sample) return host_interrupt(p, c, pc, head, first);
    /* the sample's process id is the running guest thread's id, as the
     * driver would read the current task from the kernel: DCPI's (PID, PC,
     * EVENT) key keeps threads apart (the first thread's id is the pid) */
    uint64_t who = c->sys ? c->sys->tid : p->h.pid;
    uint64_t args[RUNTIME_MAX_ARGS] = { who, r.pc ? r.pc : pc, (uint64_t)event, k };
    p->sampled_pc = args[1];
    if (!runtime_call(p->h.runtime, c, &p->client, p->h.entry, args, RUNTIME_MAX_ARGS, 0)) {
        p->dropped++;                        /* the frames are full */
        return false;
    }
    if (!sample && r.deliver_at != UINT64_MAX)
        p->skid_sum += head - r.deliver_at + (p->cfg.precise ? 0 : p->cfg.skid);
    if (sample) {
        memcpy(p->sample_regs, r.regs, sizeof p->sample_regs);
        if (p->regs_hook) p->regs_hook(p->regs_ctx, r.regs);
    }
    p->req[first] = p->req[--p->nreq];
    p->interrupts[event]++;
    p->in_handler = true;
    p->in_sample = sample;
    if (!p->cfg.count_handler) {
        p->frozen = true;
        p->frozen_cycle = head + p->skip_cycles;       /* the run's clocks */
        p->frozen_insts = cpu_retired(c);
    }
    if (p->sample_hook) p->sample_hook(p->sample_ctx, c, pc);
    return true;
}

void pmu_set_sample_hook(pmu_t *p, pmu_sample_hook_t fn, void *ctx)
{
    p->sample_hook = fn;
    p->sample_ctx = ctx;
}

void pmu_set_regs_hook(pmu_t *p, pmu_regs_hook_t fn, void *ctx)
{
    p->regs_hook = fn;
    p->regs_ctx = ctx;
}

void pmu_finish(pmu_t *p, cpu_t *c)
{
    p->in_handler = false;                   /* the engine unwound the frames */
    p->frozen = p->after_return = false;
    p->in_sample = false;
}

/* ---- statistics ------------------------------------------------------------------ */

uint64_t pmu_interrupts(const pmu_t *p, pmu_event_t event) { return p->interrupts[event]; }
const uint64_t *pmu_event_counts(const pmu_t *p) { return p->events; }
uint64_t pmu_handler_insts(const pmu_t *p) { return p->client.insts; }
uint64_t pmu_handler_cycles(const pmu_t *p) { return p->client.head_cycles; }
uint64_t pmu_shadow_cycles(const pmu_t *p) { return p->shadow_cycles; }

/* What an event counts: occurrences on the correct path only (retired),
 * or on the wrong path too (speculative); pmu.h. */
static const char *event_scope(pmu_event_t e)
{
    switch (e) {
    case PMU_CYCLES:        return "cycles";
    case PMU_PROFILEME:     return "ProfileMe samples";
    case PMU_BRANCHES_SPEC: case PMU_IMISS_SPEC: case PMU_DMISS_SPEC:
    case PMU_DTBMISS_SPEC: case PMU_ITBMISS_SPEC:
        return "speculative: correct and wrong path";
    default:                return "retired: correct path only";
    }
}

void pmu_stats(const pmu_t *p, stats_t *s)
{
    char name[64], desc[128];
    for (int e = 0; e < PMU_EVENT_COUNT; e++) {
        snprintf(name, sizeof name, "pmu.interrupts::%s", pmu_event_names[e]);
        snprintf(desc, sizeof desc, "Counter overflow interrupts delivered for %s (%s)",
                 pmu_event_names[e], event_scope((pmu_event_t)e));
        stats_add_u64(s, name, p->interrupts[e], "Count", desc);
    }
    for (int e = PMU_IMISS; e < PMU_EVENT_COUNT; e++) {
        if (e == PMU_PROFILEME) continue;
        snprintf(name, sizeof name, "pmu.events::%s", pmu_event_names[e]);
        snprintf(desc, sizeof desc, "Events %s reported by the timing model (%s)%s",
                 pmu_event_names[e], event_scope((pmu_event_t)e),
                 counted_on_demand(p, (pmu_event_t)e) ? "" : "; no counter counted them");
        stats_add_u64(s, name, p->events[e], "Count", desc);
    }
    stats_add_u64(s, "pmu.heldInterrupts", p->held, "Count",
                  "Interrupts that fell due while a handler ran (delivered after it)");
    stats_add_u64(s, "pmu.sampleSkidCycles", p->skid_sum, "Cycle",
                  "Cycles from each overflow to the head cycle of the sampled instruction");
    if (p->cfg.precise == 3)
        stats_add_u64(s, "pmu.impreciseDropped", p->imprecise_dropped, "Count",
                      "Counter samples not delivered because their cause could not be "
                      "named exactly (precise level 3)");
    stats_add_u64(s, "pmu.droppedRequests", p->dropped, "Count",
                  "Overflows lost because too many interrupts were pending");
    stats_add_u64(s, "pmu.handlerInsts", p->client.insts, "Count",
                  "Instructions executed in the interrupt handler");
    stats_add_u64(s, "pmu.handlerCycles", p->client.head_cycles, "Cycle",
                  "Head cycles of the interrupt handler's instructions");
    stats_add_u64(s, "pmu.returnShadowCycles", p->shadow_cycles, "Cycle",
                  "Stall cycles of the first program instruction after each handler (not counted)");
}
