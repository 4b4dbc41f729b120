/*
 * core_loop.h - the two inline steps every run loop is built from (the
 * functional core's and the timing models'): find the decoded record for
 * pc through a cached code page, and execute it.
 */
#ifndef HPS_CORE_LOOP_H
#define HPS_CORE_LOOP_H

#include "core.h"

/* The slot for pc, through the caller's cached code page (page_base is the
 * page's address, slots its decoded array; start with page_base = ~0).
 * If the page's array is taken from it meanwhile (unmapped, remapped: the
 * decoded cache, mem.h), the cached one reads as zeros and every slot
 * decodes through cpu_fetch_decode into the page's new array until the pc
 * leaves the page: slow but right, and no other page gets that array
 * before then, since only a page change or a decode hands arrays out. */
static inline insn_t *core_lookup(cpu_t *c, uint64_t pc, uint64_t *page_base, insn_t **slots)
{
    if (unlikely((pc & ~GUEST_PAGE_MASK) != *page_base)) {
        *slots = mem_code_slots(c->mem, pc);
        *page_base = pc & ~GUEST_PAGE_MASK;
    }
    insn_t *in = &(*slots)[(pc & GUEST_PAGE_MASK) >> 1];
    if (unlikely(!in->exec)) in = cpu_fetch_decode(c, pc);
    return in;
}

/* One instruction: count, advance pc, execute; returns the next pc.
 * stop_pc names the instruction being executed in case it faults.  Only
 * control transfers (IF_TRANSFER) write c->pc, so for every other
 * instruction the next pc is known without reading c->pc back from memory
 * (which would wait for the store just made). */
static inline uint64_t core_step(cpu_t *c, insn_t *in, uint64_t pc)
{
    uint64_t next = pc + in->len;
    bool transfer = in->flags & IF_TRANSFER;
    c->stop_pc = pc;
    in->count++;
    c->pc = next;
    in->exec(c, in);
    return transfer ? c->pc : next;
}

#endif /* HPS_CORE_LOOP_H */
