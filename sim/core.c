/*
 * core.c - the functional core's machinery under the run loop (engine.c):
 * fetch and decode into the decoded-instruction cache (once per static
 * instruction), stop the run (cpu_stop), and the stop harness every run
 * goes through (cpu_run_loop).
 */
#include "core.h"
#include "hostmem.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


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
    c->event_at = UINT64_MAX;
}

cpu_t *cpu_new(const isa_t *isa, mem_t *mem)
{
    size_t size = (sizeof(cpu_t) + 4095) & ~(size_t)4095;
    cpu_t *c = aligned_alloc(4096, size);
    if (c) cpu_init(c, isa, mem);
    return c;
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
    if (!c->isa->decode(pc, bytes, avail, &decoded) &&
        !(c->mem->special_ops &&
          c->isa->decode_special(pc, bytes, avail, c->mem->special_ops, &decoded))) {
        c->stop_pc = pc;
        cpu_stop(c, STOP_ILLEGAL, 0);
    }
    *slot = decoded;
    mem_note_code(c->mem, pc, slot);
    /* the hook sees the program's code only: runtime code (the address space
     * with special_ops) is never edited */
    if (c->on_decode && !c->mem->special_ops) c->on_decode(c->on_decode_ctx, slot);
    return slot;
}

/* Run `loop` under the stop handler: guest exits and faults longjmp back
 * here. */
stop_reason_t cpu_run_loop(cpu_t *c, cpu_loop_fn loop, void *ctx)
{
    jmp_buf stop_jmp;
    c->stop = STOP_NONE;
    hostmem_clear_failure();                 /* what a refusal stops is this run */
    c->stop_jmp = &stop_jmp;
    c->mem->fault_jmp = &stop_jmp;
    if (c->isa->run_enter) c->isa->run_enter(c);
    if (setjmp(stop_jmp) == 0) {
        loop(c, ctx);
    } else {
        if (c->stop == STOP_NONE) {          /* longjmp from a memory fault */
            c->stop = hostmem_failure() ? STOP_HOST_MEM : STOP_MEM_FAULT;
            c->stop_info = c->mem->fault.addr;
        }
        if (c->stop == STOP_EXIT) c->instret++;   /* the exit ecall retired */
    }
    c->stop_jmp = NULL;
    c->mem->fault_jmp = NULL;
    if (c->isa->run_leave) c->isa->run_leave(c);
    return c->stop;
}
