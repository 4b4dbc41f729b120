/*
 * pmu.c - performance counters with skewed interrupt delivery (pmu.h).
 *
 * Counters of cycles and instructions are not stepped: each holds the
 * value it had at some cycle (instruction) and so knows the cycle
 * (instruction) it will overflow at.  Counters of misses and mispredicts
 * are stepped by pmu_count.  An overflow becomes a request to interrupt
 * pmu.skid cycles later; the run loop delivers the earliest due request to
 * the instruction at the head at or after that cycle (pmu_interrupt), and
 * the guest driver's handler runs in the runtime's address space until its
 * hps.ret.  Requests that fall due while the handler runs wait for the
 * first program instruction after it.
 */
#include "pmu.h"

#include <stdlib.h>
#include <string.h>

#include "dise.h"
#include "mem.h"
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
    pmu_config_t cfg;
    pmu_handler_t h;
    uint64_t wrap;              /* 2^counter_bits                          */
    counter_t ctr[PMU_MAX_COUNTERS];
    request_t req[MAX_REQUESTS];
    unsigned nreq;
    uint64_t due_cycle, due_insts;

    /* the handler */
    bool in_handler;
    uint64_t resume_pc, now;    /* now: head cycle of the last instruction */
    struct mem *prog_mem;
    runtime_host_t saved_rt;
    cpu_t *cpu;

    /* statistics */
    uint64_t interrupts[PMU_EVENT_COUNT];
    uint64_t held, dropped;
    uint64_t skid_sum;          /* sum of (delivered head - overflow) cycles */
    uint64_t handler_insts, handler_cycles;
};

/* The earliest cycle a request or a cycles counter's overflow is due. */
static void update_due(pmu_t *p)
{
    uint64_t cyc = UINT64_MAX, insts = UINT64_MAX;
    for (unsigned k = 0; k < p->nreq; k++)
        if (p->req[k].deliver_at < cyc) cyc = p->req[k].deliver_at;
    for (unsigned k = 0; k < p->cfg.counters; k++) {
        const counter_t *x = &p->ctr[k];
        if (x->event == PMU_CYCLES && x->overflow_at + p->cfg.skid < cyc)
            cyc = x->overflow_at + p->cfg.skid;
        if (x->event == PMU_INSTS && x->overflow_at < insts) insts = x->overflow_at;
    }
    p->due_cycle = cyc;
    p->due_insts = insts;
}

pmu_t *pmu_new(const pmu_config_t *cfg, const pmu_handler_t *handler)
{
    pmu_t *p = xcalloc(1, sizeof *p);
    p->cfg = *cfg;
    if (p->cfg.counters > PMU_MAX_COUNTERS) p->cfg.counters = PMU_MAX_COUNTERS;
    p->h = *handler;
    p->wrap = 1ull << p->cfg.counter_bits;
    for (unsigned k = 0; k < PMU_MAX_COUNTERS; k++) p->ctr[k].event = -1;
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

void pmu_attach(pmu_t *p, cpu_t *c)
{
    c->pmu = p;
    p->cpu = c;
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
            request(p, k, cycle + p->cfg.skid);
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
            while (x->overflow_at + p->cfg.skid <= head) {
                request(p, k, x->overflow_at + p->cfg.skid);
                x->overflow_at += p->wrap;
            }
        } else if (x->event == PMU_INSTS) {
            while (x->overflow_at <= insts) {
                request(p, k, head + p->cfg.skid);
                x->overflow_at += p->wrap;
            }
        }
    }
}

uint64_t pmu_due_cycle(const pmu_t *p) { return p->due_cycle; }
uint64_t pmu_due_insts(const pmu_t *p) { return p->due_insts; }
bool pmu_in_handler(const pmu_t *p) { return p->in_handler; }

/* ---- the handler --------------------------------------------------------------- */

/* hps.ret in the interrupt handler: back to the program.  What fell due
 * meanwhile was held and is delivered to the next program instruction. */
static void handler_return(void *ctx, cpu_t *c)
{
    pmu_t *p = ctx;
    if (!p->in_handler) cpu_stop(c, STOP_ILLEGAL, 0);
    p->in_handler = false;
    c->mem = p->prog_mem;
    c->pc = p->resume_pc;
    c->rt = p->saved_rt;
    collect_time_overflows(p, p->now, c->instret);
    for (unsigned k = 0; k < p->nreq; k++)
        if (p->req[k].deliver_at <= p->now) p->held++;    /* fell due meanwhile */
    update_due(p);
}

static void handler_notify(void *ctx, cpu_t *c, uint64_t value)
{
    pmu_t *p = ctx;
    if (!p->in_handler || !p->h.notify) cpu_stop(c, STOP_ILLEGAL, 0);
    p->h.notify(p->h.notify_ctx, c, value);
}

void pmu_interrupt(pmu_t *p, cpu_t *c, uint64_t pc, uint64_t head)
{
    if (p->in_handler) return;
    collect_time_overflows(p, head, c->instret);
    unsigned first = p->nreq;
    for (unsigned k = 0; k < p->nreq; k++)
        if (p->req[k].deliver_at <= head &&
            (first == p->nreq || p->req[k].deliver_at < p->req[first].deliver_at))
            first = k;
    if (first == p->nreq) {                  /* nothing due after all */
        update_due(p);
        return;
    }
    unsigned k = p->req[first].counter;
    p->skid_sum += head - (p->req[first].deliver_at - p->cfg.skid);
    p->req[first] = p->req[--p->nreq];
    int event = p->ctr[k].event;
    p->interrupts[event]++;

    p->in_handler = true;
    p->resume_pc = c->pc;
    p->prog_mem = c->mem;
    p->saved_rt = c->rt;
    p->now = head;
    c->rt = (runtime_host_t){ .ret = handler_return, .notify = handler_notify, .ctx = p };
    c->reg[REG_DISE0 + DREG_ARG0] = p->h.pid;
    c->reg[REG_DISE0 + DREG_ARG0 + 1] = pc;
    c->reg[REG_DISE0 + DREG_ARG0 + 2] = (uint64_t)event;
    c->reg[REG_DISE0 + DREG_ARG0 + 3] = k;
    c->reg[REG_DISE0 + DREG_HANDLER_SP] = p->h.stack_top;
    c->mem = p->h.mem;
    c->mem->fault_jmp = p->prog_mem->fault_jmp;
    c->pc = p->h.entry;
}

void pmu_handler_cycle(pmu_t *p, uint64_t cycle) { p->now = cycle; }

void pmu_exec_wrpmc(cpu_t *c, insn_t *in)
{
    pmu_t *p = c->pmu;
    uint64_t k = c->reg[in->rs1];
    if (!p || !p->in_handler || k >= p->cfg.counters) cpu_stop(c, STOP_ILLEGAL, 0);
    load_counter(p, (unsigned)k, c->reg[in->rs2], p->now, c->instret);
}

void pmu_add_handler_insts(pmu_t *p, uint64_t n, uint64_t cycles)
{
    p->handler_insts += n;
    p->handler_cycles += cycles;
}

void pmu_finish(pmu_t *p, cpu_t *c)
{
    if (!p->in_handler) return;              /* the run stopped inside it */
    c->mem = p->prog_mem;
    c->rt = p->saved_rt;
    p->in_handler = false;
}

/* ---- statistics ------------------------------------------------------------------ */

uint64_t pmu_interrupts(const pmu_t *p, pmu_event_t event) { return p->interrupts[event]; }
uint64_t pmu_handler_insts(const pmu_t *p) { return p->handler_insts; }
uint64_t pmu_handler_cycles(const pmu_t *p) { return p->handler_cycles; }

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
                  "Interrupts that fell due while the handler ran (delivered after it)");
    stats_add_u64(s, "pmu.sampleSkidCycles", p->skid_sum, "Cycle",
                  "Cycles from each overflow to the head cycle of the sampled instruction");
    stats_add_u64(s, "pmu.droppedRequests", p->dropped, "Count",
                  "Overflows lost because too many interrupts were pending");
    stats_add_u64(s, "pmu.handlerInsts", p->handler_insts, "Count",
                  "Instructions executed in the interrupt handler");
    stats_add_u64(s, "pmu.handlerCycles", p->handler_cycles, "Cycle",
                  "Head cycles of the interrupt handler's instructions");
}
