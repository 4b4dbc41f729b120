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

static unsigned insn_align(const cpu_t *c)
{
    return c->isa->elf_machine == 0x9026 /* EM_ALPHA */ ? 4 : 2;
}

insn_t *cpu_fetch_decode(cpu_t *c, uint64_t pc)
{
    if (pc & (insn_align(c) - 1)) cpu_stop(c, STOP_MISALIGNED_FETCH, pc);
    insn_t *slots = mem_decoded_page(c->mem, pc);
    insn_t *slot = &slots[(pc & GUEST_PAGE_MASK) >> 1];
    if (slot->exec) return slot;
    uint8_t bytes[4];
    mem_fetch(c->mem, pc, bytes, 2);
    size_t avail = 2;
    if ((bytes[0] & 3) == 3 || insn_align(c) == 4) {
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
    return slot;
}

/* The slot for pc, through the caller's cached code page. */
static inline insn_t *lookup(cpu_t *c, uint64_t pc, uint64_t *page_base, insn_t **slots)
{
    if (unlikely((pc & ~GUEST_PAGE_MASK) != *page_base)) {
        *slots = mem_decoded_page(c->mem, pc);
        *page_base = pc & ~GUEST_PAGE_MASK;
    }
    insn_t *in = &(*slots)[(pc & GUEST_PAGE_MASK) >> 1];
    if (unlikely(!in->exec)) in = cpu_fetch_decode(c, pc);
    return in;
}

/* One instruction: count, advance pc, execute.  stop_pc names the
 * instruction being executed in case it faults. */
static inline void step(cpu_t *c, insn_t *in, uint64_t pc)
{
    c->stop_pc = pc;
    in->count++;
    c->pc = pc + in->len;
    in->exec(c, in);
}

static void run_plain(cpu_t *c)
{
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL;
    for (;;) {
        uint64_t pc = c->pc;
        insn_t *in = lookup(c, pc, &page_base, &slots);
        step(c, in, pc);
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
        insn_t *in = lookup(c, pc, &page_base, &slots);
        step(c, in, pc);
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
        step(c, in, pc);
        c->instret++;
        if (truth) {
            if (in->flags & IF_CALL) truth_record_call(truth, pc, c->pc);
            else if (in->flags & (IF_LOAD | IF_STORE))
                mem_mark_touched(c->mem, c->mem_addr, in->memsize);
        }
        trace_insn(trace, c, in);
    }
}

stop_reason_t cpu_run(cpu_t *c, const run_opts_t *opts)
{
    jmp_buf stop_jmp;
    c->stop = STOP_NONE;
    c->stop_jmp = &stop_jmp;
    c->mem->fault_jmp = &stop_jmp;
    uint64_t limit = opts->max_insts ? opts->max_insts : UINT64_MAX;
    if (setjmp(stop_jmp)) {
        if (c->stop == STOP_NONE) {          /* longjmp from a memory fault */
            c->stop = STOP_MEM_FAULT;
            c->stop_info = c->mem->fault.addr;
        }
        if (c->stop == STOP_EXIT) c->instret++;   /* the exit ecall retired */
        c->cycle = c->instret;
        c->stop_jmp = NULL;
        c->mem->fault_jmp = NULL;
        return c->stop;
    }
    if (opts->trace && c->instret < limit) {
        uint64_t traced = opts->trace->limit < limit ? opts->trace->limit : limit;
        c->inst_limit = limit;
        run_traced(c, opts->truth, opts->trace, traced);
    }
    if (c->instret < limit) {
        c->inst_limit = limit;
        if (opts->truth) run_truth(c, opts->truth);
        else run_plain(c);
    }
    c->stop = STOP_MAX_INSTS;
    c->cycle = c->instret;
    c->stop_jmp = NULL;
    c->mem->fault_jmp = NULL;
    return c->stop;
}
