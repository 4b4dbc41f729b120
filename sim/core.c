/*
 * core.c - the functional (zero-timing) core: fetch through the decoded-
 * instruction cache, execute through the ISA's semantics, retire.
 *
 * The run loop is specialised rather than branching on options per
 * instruction: run_plain() counts and executes, run_truth() additionally
 * records the ground truth (unique data words, call pairs), run_traced()
 * writes the bounded trace and is used only for the traced prefix of a run.
 * Every loop keeps a pointer to the decoded slots of the current code page
 * and looks the page up again only when the pc leaves it.
 */
#include "core.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core_loop.h"
#include "dise_engine.h"
#include "hps_truth.h"
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

/* The DISE-edited stream: every step goes through the engine; the
 * program's own instructions feed the exhaustive profiles (hps_truth.h).
 * The traced variant covers the --trace prefix of the run. */
static void run_dise(cpu_t *c, dise_t *d, hps_truth_t *ht)
{
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL;
    d->page_base = &page_base;
    for (;;) {
        insn_t *in = dise_step(d, c, &page_base, &slots);
        if (d->kind == DK_PROGRAM && (in->flags & HPS_TRUTH_FLAGS) && ht)
            hps_truth_record(ht, c, in);
        if (unlikely(++c->instret >= c->inst_limit)) break;
    }
    d->page_base = NULL;
}

static void run_dise_traced(cpu_t *c, dise_t *d, hps_truth_t *ht, trace_t *trace, uint64_t until)
{
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL;
    d->page_base = &page_base;
    while (c->instret < until) {
        insn_t *in = dise_step(d, c, &page_base, &slots);
        if (d->kind == DK_PROGRAM && (in->flags & HPS_TRUTH_FLAGS) && ht)
            hps_truth_record(ht, c, in);
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
        if (traced) run_dise_traced(c, opts->dise, opts->hps_truth, opts->trace, traced);
        if (c->instret < c->inst_limit) run_dise(c, opts->dise, opts->hps_truth);
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
    stop_reason_t why = cpu_run_loop(c, opts->max_insts, functional_loop, (void *)opts);
    c->cycle = c->instret;
    if (opts->dise) c->cycle += dise_penalty_cycles(opts->dise);   /* decode stalls */
    return why;
}
