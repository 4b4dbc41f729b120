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
 * (nest).  The skid is applied in one place, skewed().
 */
#include "pmu.h"

#include <stdlib.h>
#include <string.h>

#include "mem.h"
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
} counter_t;

typedef struct request {
    uint64_t deliver_at;        /* cycle                                   */
    unsigned counter;
} request_t;

struct pmu {
    pmu_due_t due;              /* first: read inline (pmu.h)              */
    pmu_config_t cfg;
    pmu_handler_t h;
    uint64_t wrap;              /* 2^counter_bits                          */
    counter_t ctr[PMU_MAX_COUNTERS];
    request_t req[MAX_REQUESTS];
    unsigned nreq;

    /* the handler */
    runtime_client_t client;
    bool in_handler;
    const uint64_t *head_sum;   /* the timing model's: last head cycle + 1 */
    cpu_t *cpu;

    /* statistics */
    uint64_t interrupts[PMU_EVENT_COUNT];
    uint64_t held, dropped;
    uint64_t skid_sum;          /* sum of (delivered head - overflow) cycles */
};

/* The cycle an overflow at `cycle` is delivered from: the skid. */
static uint64_t skewed(const pmu_t *p, uint64_t cycle) { return cycle + p->cfg.skid; }

/* The head cycle of the last instruction timed. */
static uint64_t now(const pmu_t *p) { return p->head_sum && *p->head_sum ? *p->head_sum - 1 : 0; }

/* The earliest cycle a request or a cycles counter's overflow is due. */
static void update_due(pmu_t *p)
{
    uint64_t cyc = UINT64_MAX, insts = UINT64_MAX;
    for (unsigned k = 0; k < p->nreq; k++)
        if (p->req[k].deliver_at < cyc) cyc = p->req[k].deliver_at;
    for (unsigned k = 0; k < p->cfg.counters; k++) {
        const counter_t *x = &p->ctr[k];
        if (x->event == PMU_CYCLES && skewed(p, x->overflow_at) < cyc)
            cyc = skewed(p, x->overflow_at);
        if (x->event == PMU_INSTS && x->overflow_at < insts) insts = x->overflow_at;
    }
    p->due.cycle = cyc;
    p->due.insts = insts;
}

static void handler_return(void *ctx, cpu_t *c);
static void handler_notify(void *ctx, cpu_t *c, uint64_t value);
static void handler_wrpmc(void *ctx, cpu_t *c, uint64_t k, uint64_t value);

pmu_t *pmu_new(const pmu_config_t *cfg, const pmu_handler_t *handler)
{
    pmu_t *p = xcalloc(1, sizeof *p);
    p->cfg = *cfg;
    if (p->cfg.counters > PMU_MAX_COUNTERS) p->cfg.counters = PMU_MAX_COUNTERS;
    p->h = *handler;
    p->wrap = 1ull << p->cfg.counter_bits;
    for (unsigned k = 0; k < PMU_MAX_COUNTERS; k++) p->ctr[k].event = -1;
    p->client = (runtime_client_t){ .name = "PMU", .returned = handler_return,
                                    .notify = handler_notify, .wrpmc = handler_wrpmc, .ctx = p };
    update_due(p);
    return p;
}

void pmu_free(pmu_t *p) { free(p); }

/* Load counter k with value v at the current cycle / instruction. */
static void load_counter(pmu_t *p, unsigned k, uint64_t v, uint64_t now_cycle, uint64_t now_insts)
{
    counter_t *x = &p->ctr[k];
    v &= p->wrap - 1;
    x->value = v;
    if (x->event == PMU_CYCLES) x->overflow_at = now_cycle + (p->wrap - v);
    if (x->event == PMU_INSTS) x->overflow_at = now_insts + (p->wrap - v);
}

void pmu_program(pmu_t *p, unsigned k, pmu_event_t event, uint64_t value)
{
    if (k >= p->cfg.counters) return;
    p->ctr[k].event = (int)event;
    load_counter(p, k, value, 0, 0);
    update_due(p);
}

void pmu_attach(pmu_t *p, cpu_t *c, const uint64_t *head_sum)
{
    p->cpu = c;
    p->head_sum = head_sum;
    if (!c->runtime) runtime_attach(p->h.runtime, c);
}

/* ---- overflows ------------------------------------------------------------------- */

static void request(pmu_t *p, unsigned k, uint64_t deliver_at)
{
    if (p->nreq == MAX_REQUESTS) {           /* a handler that never returns */
        p->dropped++;
        return;
    }
    p->req[p->nreq++] = (request_t){ deliver_at, k };
}

void pmu_count(pmu_t *p, pmu_event_t event, uint64_t cycle)
{
    bool any = false;
    for (unsigned k = 0; k < p->cfg.counters; k++) {
        counter_t *x = &p->ctr[k];
        if (x->event != (int)event) continue;
        if (++x->value == p->wrap) {
            x->value = 0;
            request(p, k, skewed(p, cycle));
            any = true;
        }
    }
    if (any) update_due(p);
}

/* Turn the overflows of time counters reached by (head, insts) into
 * requests; a counter that overflowed counts on from 0. */
static void collect_time_overflows(pmu_t *p, uint64_t head, uint64_t insts)
{
    for (unsigned k = 0; k < p->cfg.counters; k++) {
        counter_t *x = &p->ctr[k];
        if (x->event == PMU_CYCLES) {
            while (skewed(p, x->overflow_at) <= head) {
                request(p, k, skewed(p, x->overflow_at));
                x->overflow_at += p->wrap;
            }
        } else if (x->event == PMU_INSTS) {
            while (x->overflow_at <= insts) {
                request(p, k, skewed(p, head));
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
    uint64_t head = now(p);
    p->in_handler = false;
    collect_time_overflows(p, head, cpu_retired(c));
    for (unsigned k = 0; k < p->nreq; k++)
        if (p->req[k].deliver_at <= head) p->held++;     /* fell due meanwhile */
    update_due(p);
}

static void handler_notify(void *ctx, cpu_t *c, uint64_t value)
{
    pmu_t *p = ctx;
    if (!p->h.notify) cpu_stop(c, STOP_ILLEGAL, 0);
    p->h.notify(p->h.notify_ctx, c, value);
}

/* hps.wrpmc k, value: the handler writes counter k. */
static void handler_wrpmc(void *ctx, cpu_t *c, uint64_t k, uint64_t value)
{
    pmu_t *p = ctx;
    if (k >= p->cfg.counters) cpu_stop(c, STOP_ILLEGAL, 0);
    load_counter(p, (unsigned)k, value, now(p), cpu_retired(c));
}

bool pmu_interrupt(pmu_t *p, cpu_t *c, uint64_t pc, uint64_t head)
{
    if (p->in_handler) return false;
    collect_time_overflows(p, head, cpu_retired(c));
    unsigned first = p->nreq;
    for (unsigned k = 0; k < p->nreq; k++)
        if (p->req[k].deliver_at <= head &&
            (first == p->nreq || p->req[k].deliver_at < p->req[first].deliver_at))
            first = k;
    if (first == p->nreq) {                  /* nothing due after all */
        update_due(p);
        return false;
    }
    unsigned k = p->req[first].counter;
    int event = p->ctr[k].event;
    /* the sample's process id is the running guest thread's id, as the
     * driver would read the current task from the kernel: DCPI's (PID, PC,
     * EVENT) key keeps threads apart (the first thread's id is the pid) */
    uint64_t who = c->sys ? c->sys->tid : p->h.pid;
    uint64_t args[RUNTIME_MAX_ARGS] = { who, pc, (uint64_t)event, k };
    if (!runtime_call(p->h.runtime, c, &p->client, p->h.entry, args, RUNTIME_MAX_ARGS, 0)) {
        p->dropped++;                        /* the frames are full */
        return false;
    }
    p->skid_sum += head - p->req[first].deliver_at + p->cfg.skid;
    p->req[first] = p->req[--p->nreq];
    p->interrupts[event]++;
    p->in_handler = true;
    return true;
}

void pmu_finish(pmu_t *p, cpu_t *c)
{
    p->in_handler = false;                   /* the engine unwound the frames */
}

/* ---- statistics ------------------------------------------------------------------ */

uint64_t pmu_interrupts(const pmu_t *p, pmu_event_t event) { return p->interrupts[event]; }
uint64_t pmu_handler_insts(const pmu_t *p) { return p->client.insts; }
uint64_t pmu_handler_cycles(const pmu_t *p) { return p->client.head_cycles; }

void pmu_stats(const pmu_t *p, stats_t *s)
{
    char name[64], desc[128];
    for (int e = 0; e < PMU_EVENT_COUNT; e++) {
        snprintf(name, sizeof name, "pmu.interrupts::%s", pmu_event_names[e]);
        snprintf(desc, sizeof desc, "Counter overflow interrupts delivered for %s",
                 pmu_event_names[e]);
        stats_add_u64(s, name, p->interrupts[e], "Count", desc);
    }
    stats_add_u64(s, "pmu.heldInterrupts", p->held, "Count",
                  "Interrupts that fell due while a handler ran (delivered after it)");
    stats_add_u64(s, "pmu.sampleSkidCycles", p->skid_sum, "Cycle",
                  "Cycles from each overflow to the head cycle of the sampled instruction");
    stats_add_u64(s, "pmu.droppedRequests", p->dropped, "Count",
                  "Overflows lost because too many interrupts were pending");
    stats_add_u64(s, "pmu.handlerInsts", p->client.insts, "Count",
                  "Instructions executed in the interrupt handler");
    stats_add_u64(s, "pmu.handlerCycles", p->client.head_cycles, "Cycle",
                  "Head cycles of the interrupt handler's instructions");
}
