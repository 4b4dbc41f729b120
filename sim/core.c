/*
 * core.c - the functional (zero-timing) core: fetch through the decoded-
 * instruction cache, execute through the ISA's semantics, retire.
 *
 * The run loop is specialised rather than branching on options per
 * instruction: run_plain() counts and executes, run_truth() additionally
 * records the ground truth (unique data words, call pairs), run_traced()
 * writes the bounded trace and is used only for the traced prefix of a run,
 * run_dise() runs the stream a DISE engine edits (its common path is
 * run_plain's).  Every loop keeps
 * a pointer to the decoded slots of the current code page and looks the
 * page up again only when the pc leaves it.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_loop.h"
#include "dise_engine.h"
#include "trace.h"
#include "truth.h"

const char *const opclass_names[OC_COUNT] = {
#define OPCLASS_NAME(id, name) name,
    OPCLASS_LIST(OPCLASS_NAME)
#undef OPCLASS_NAME
};

void cpu_init(cpu_t *c, const isa_t *isa, mem_t *mem)
{
    memset(c, 0, sizeof *c);
    c->isa = isa;
    c->mem = mem;
    c->reservation = ~0ull;
    c->inst_limit = UINT64_MAX;
}

_Noreturn void cpu_stop(cpu_t *c, stop_reason_t why, uint64_t info)
{
    c->stop = why;
    c->stop_info = info;
    if (!c->stop_jmp) {
        fprintf(stderr, "hps-sim: internal error: cpu stopped outside the run loop\n");
        exit(EXIT_INTERNAL);
    }
    longjmp(*c->stop_jmp, 1);
}

void cpu_exec_hps_ret(cpu_t *c, insn_t *in)
{
    if (!c->rt.ret) cpu_stop(c, STOP_ILLEGAL, 0);
    c->rt.ret(c->rt.ctx, c);
}

void cpu_exec_hps_flush(cpu_t *c, insn_t *in)
{
    if (!c->rt.flush) cpu_stop(c, STOP_ILLEGAL, 0);
    c->rt.flush(c->rt.ctx, c);
}

void cpu_exec_hps_notify(cpu_t *c, insn_t *in)
{
    if (!c->rt.notify) cpu_stop(c, STOP_ILLEGAL, 0);
    c->rt.notify(c->rt.ctx, c, c->reg[in->rs1]);
}

insn_t *cpu_fetch_decode(cpu_t *c, uint64_t pc)
{
    if (pc & (c->isa->insn_align - 1)) cpu_stop(c, STOP_MISALIGNED_FETCH, pc);
    insn_t *slots = mem_decoded_page(c->mem, pc);
    insn_t *slot = &slots[(pc & GUEST_PAGE_MASK) >> 1];
    if (slot->exec) return slot;
    uint8_t bytes[4];
    mem_fetch(c->mem, pc, bytes, 2);
    size_t avail = 2;
    if ((bytes[0] & 3) == 3 || c->isa->insn_align == 4) {
        mem_fetch(c->mem, pc + 2, bytes + 2, 2);
        avail = 4;
    }
    insn_t decoded;
    if (!c->isa->decode(pc, bytes, avail, &decoded)) {
        c->stop_pc = pc;
        cpu_stop(c, STOP_ILLEGAL, 0);
    }
    mem_note_code(c->mem, pc);
    *slot = decoded;
    if (c->dise) dise_classify(c->dise, slot);
    return slot;
}

static void run_plain(cpu_t *c)
{
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL;
    for (;;) {
        uint64_t pc = c->pc;
        insn_t *in = core_lookup(c, pc, &page_base, &slots);
        core_step(c, in, pc);
        if (unlikely(++c->instret >= c->inst_limit)) return;
    }
}

static void run_truth(cpu_t *c, truth_t *truth)
{
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL;
    mem_t *m = c->mem;
    for (;;) {
        uint64_t pc = c->pc;
        insn_t *in = core_lookup(c, pc, &page_base, &slots);
        core_step(c, in, pc);
        if (in->flags & (IF_LOAD | IF_STORE | IF_CALL)) {
            if (in->flags & IF_CALL)
                truth_record_call(truth, pc, c->pc);
            else
                mem_mark_touched(m, c->mem_addr, in->memsize);
        }
        if (unlikely(++c->instret >= c->inst_limit)) return;
    }
}

static void run_traced(cpu_t *c, truth_t *truth, trace_t *trace, uint64_t until)
{
    while (c->instret < until) {
        uint64_t pc = c->pc;
        insn_t *in = cpu_fetch_decode(c, pc);
        core_step(c, in, pc);
        c->instret++;
        if (truth) {
            if (in->flags & IF_CALL) truth_record_call(truth, pc, c->pc);
            else if (in->flags & (IF_LOAD | IF_STORE))
                mem_mark_touched(c->mem, c->mem_addr, in->memsize);
        }
        trace_insn(trace, c, in);
    }
}

/* The DISE-edited stream.  Program instructions run as in run_plain: the
 * ones the engine classified at decode run its semantics (the match, the
 * per-event exact profiles) through their exec.  A step the engine
 * diverted into a replacement sequence hands over to run_dise_edited()
 * until the sequence and any handler it called are done.  The traced
 * variant covers the --trace prefix of the run. */

/* Steps inside a handler up to its hps.ret: the runtime's code is never
 * edited, so they are plain steps.  False when the instruction limit is
 * hit. */
static bool run_handler(cpu_t *c, dise_t *d, uint64_t *page_base, insn_t **slots)
{
    while (d->in_handler) {
        uint64_t pc = c->pc;
        insn_t *in = core_lookup(c, pc, page_base, slots);
        core_step(c, in, pc);
        dise_count_handler_insts(d, 1);
        if (unlikely(++c->instret >= c->inst_limit)) return false;
    }
    return true;
}

/* Steps of a replacement sequence and of the handlers it calls, until the
 * program's own stream resumes; false when the instruction limit is hit. */
static bool run_dise_edited(cpu_t *c, dise_t *d)
{
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL;
    bool more = true;
    d->page_base = &page_base;
    while (more && dise_busy(d)) {
        if (d->in_handler) {
            more = run_handler(c, d, &page_base, &slots);
            continue;
        }
        dise_step_seq(d, c);
        more = ++c->instret < c->inst_limit;
    }
    d->page_base = NULL;
    return more;
}

/* The common path is run_plain's: a diverted step holds the instruction
 * limit at 0 (dise_engine.h), so the limit test also catches it.  The
 * cached code page stays valid through a diverted step: it may call a
 * handler (switching c->mem), but run_dise_edited() returns only when the
 * program's stream resumes, in the program's address space. */
static void run_dise(cpu_t *c, dise_t *d)
{
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL;
    for (;;) {
        uint64_t pc = c->pc;
        insn_t *in = core_lookup(c, pc, &page_base, &slots);
        core_step(c, in, pc);
        if (unlikely(++c->instret >= c->inst_limit)) {
            if (!d->diverted) return;
            dise_take_diverted(d, c);
            if (c->instret >= c->inst_limit || !run_dise_edited(c, d)) return;
        }
    }
}

static void run_dise_traced(cpu_t *c, dise_t *d, trace_t *trace, uint64_t until)
{
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL;
    d->page_base = &page_base;
    while (c->instret < until) {
        insn_t *in = dise_step(d, c, &page_base, &slots);
        c->instret++;
        trace_insn(trace, c, in);
    }
    d->page_base = NULL;
}

/* Run `loop` (which returns when c->inst_limit is reached) under the stop
 * handler: guest exits and faults longjmp back here. */
stop_reason_t cpu_run_loop(cpu_t *c, uint64_t max_insts, cpu_loop_fn loop, void *ctx)
{
    jmp_buf stop_jmp;
    c->stop = STOP_NONE;
    c->stop_jmp = &stop_jmp;
    c->mem->fault_jmp = &stop_jmp;
    c->inst_limit = max_insts ? max_insts : UINT64_MAX;
    if (c->isa->run_enter) c->isa->run_enter(c);
    if (setjmp(stop_jmp) == 0) {
        if (c->instret < c->inst_limit) loop(c, ctx);
        c->stop = STOP_MAX_INSTS;
    } else {
        if (c->stop == STOP_NONE) {          /* longjmp from a memory fault */
            c->stop = STOP_MEM_FAULT;
            c->stop_info = c->mem->fault.addr;
        }
        if (c->stop == STOP_EXIT) c->instret++;   /* the exit ecall retired */
    }
    c->stop_jmp = NULL;
    c->mem->fault_jmp = NULL;
    if (c->isa->run_leave) c->isa->run_leave(c);
    return c->stop;
}

static void functional_loop(cpu_t *c, void *ctx)
{
    const run_opts_t *opts = ctx;
    if (opts->dise) {
        uint64_t traced = opts->trace ? opts->trace->limit : 0;
        if (traced > c->inst_limit) traced = c->inst_limit;
        if (traced) run_dise_traced(c, opts->dise, opts->trace, traced);
        if (c->instret >= c->inst_limit) return;
        if (dise_busy(opts->dise) && !run_dise_edited(c, opts->dise)) return;
        run_dise(c, opts->dise);
        return;
    }
    if (opts->trace) {
        uint64_t traced = opts->trace->limit < c->inst_limit ? opts->trace->limit : c->inst_limit;
        run_traced(c, opts->truth, opts->trace, traced);
        if (c->instret >= c->inst_limit) return;
    }
    if (opts->truth) run_truth(c, opts->truth);
    else run_plain(c);
}

stop_reason_t cpu_run(cpu_t *c, const run_opts_t *opts)
{
    if (opts->dise && opts->hps_truth) dise_set_truth(opts->dise, opts->hps_truth);
    stop_reason_t why = cpu_run_loop(c, opts->max_insts, functional_loop, (void *)opts);
    c->cycle = c->instret;
    if (opts->dise) c->cycle += dise_penalty_cycles(opts->dise);   /* decode stalls */
    return why;
}
