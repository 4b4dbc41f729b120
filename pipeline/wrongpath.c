/*
 * wrongpath.c - walk the predicted (wrong) path after a mispredict on a
 * shadow copy of the cpu (wrongpath.h).  The shadow has the registers of
 * the moment of the mispredicted transfer; integer operations and loads
 * execute through the same semantics and decoded cache as the real run,
 * with faults and traps caught here (the shadow's stop and the memory's
 * fault jump land in this file's jmp_buf for the length of the walk).
 * Nothing it does reaches the architectural state: stores never execute
 * (an integer store's address, size and data go to a speculative store
 * overlay, which a later wrong-path load reads over guest memory), control
 * transfers are not executed (the predictor picks the next pc; a call's
 * link register is written on the shadow), and the decoded instructions'
 * ground-truth counts are not touched.
 */
#include "wrongpath.h"

#include "hostmem.h"

#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* One wrong-path integer store in the overlay. */
#define OVERLAY_MAX 64
typedef struct spec_store {
    uint64_t addr;
    unsigned size;
    uint8_t bytes[8];
} spec_store_t;

/* A walker (one per timing model: nothing here is shared between runs). */
struct wrongpath {
    cpu_t shadow;
    /* the speculative store overlay of the walk under way: the wrong
     * path's integer stores, oldest first (one beyond the last entry is
     * dropped: later loads do not see it) */
    spec_store_t overlay[OVERLAY_MAX];
    unsigned overlay_n;
    /* guest bytes patched for a load and their saved contents, while it
     * runs (put back even if it traps) */
    uint8_t *patched, patched_saved[16];
};

wrongpath_t *wrongpath_new(void) { return xcalloc(1, sizeof(wrongpath_t)); }

void wrongpath_free(wrongpath_t *w) { free(w); }

const char *const wrongpath_end_names[WP_END_COUNT] = {
    "resolved", "limit", "fault", "serializing", "no_target",
};

/* The page holding [addr, addr + size) is mapped with `prot`, present
 * (a read of it allocates nothing) and the range does not cross it. */
static bool page_ready(const mem_t *m, uint64_t addr, unsigned size, int prot)
{
    if ((addr & GUEST_PAGE_MASK) > GUEST_PAGE_SIZE - size) return false;
    const guest_page_t *pg = mem_page(m, addr);
    return pg && pg->mapped && pg->data && (pg->prot & prot);
}

/* The decoded instruction at pc through the decoded cache, or NULL when
 * its bytes are not on a present executable page. */
static insn_t *shadow_fetch(cpu_t *s, uint64_t pc)
{
    if (pc & (s->isa->insn_align - 1) || !page_ready(s->mem, pc, s->isa->insn_align, MEM_PROT_EXEC))
        return NULL;
    insn_t *slot = &mem_code_slots(s->mem, pc)[(pc & GUEST_PAGE_MASK) >> 1];
    if (slot->exec) return slot;
    if (!page_ready(s->mem, pc, 4, MEM_PROT_EXEC)) return NULL;   /* may be 4 bytes */
    return cpu_fetch_decode(s, pc);
}

/* Instructions that end the walk before they are fetched: they would need
 * the operating system, a serialization or memory ordering. */
static bool ends_walk(const insn_t *in)
{
    return (in->flags & (IF_SYSCALL | IF_SERIAL | IF_ATOMIC | IF_DISE)) ||
           in->opclass == OC_FENCE || in->opclass == OC_CSR || in->opclass == OC_SYSCALL;
}

/* The next pc the front end would fetch after a transfer, or 0 when it
 * has no target to go to (an indirect jump the BTB does not know). */
static uint64_t predicted_next(const bpred_t *bp, const insn_t *in)
{
    bpred_result_t p = bpred_predict((bpred_t *)bp, in);
    if (!p.taken) return in->pc + in->len;
    if (p.btb_hit) return p.target;
    return (in->flags & IF_DIRECT) ? in->target : 0;
}

/* A wrong-path integer store: into the overlay, never into memory (the
 * two ISAs' stores write the low `memsize` bytes of rs2 at rs1 + imm;
 * Alpha's stq_u aligns that down, which the overlay does not model). */
static void overlay_store(wrongpath_t *w, const insn_t *in)
{
    const cpu_t *s = &w->shadow;
    if (in->opclass != OC_STORE || in->rs1 == REG_NONE || in->rs2 == REG_NONE ||
        !in->memsize || in->memsize > 8 || w->overlay_n == OVERLAY_MAX)
        return;
    spec_store_t *e = &w->overlay[w->overlay_n++];
    e->addr = s->reg[in->rs1] + (uint64_t)in->imm;
    e->size = in->memsize;
    uint64_t v = s->reg[in->rs2];
    for (unsigned k = 0; k < 8; k++) e->bytes[k] = (uint8_t)(v >> (8 * k));
}

/* Executes the load `in` on the shadow with the overlay's bytes over guest
 * memory: the 16 bytes from `lo` (the load's aligned quadword and the next,
 * on one present page) are patched in the host copy for the load and put
 * back right after, so guest memory never changes. */
static void overlay_load(wrongpath_t *w, insn_t *in, uint64_t lo)
{
    cpu_t *s = &w->shadow;
    uint8_t *host = NULL, saved[16];
    if (w->overlay_n && page_ready(s->mem, lo, 16, MEM_PROT_READ)) {
        uint8_t *page = mem_page(s->mem, lo)->data;
        for (unsigned k = 0; k < w->overlay_n; k++) {
            const spec_store_t *e = &w->overlay[k];
            if (e->addr >= lo + 16 || e->addr + e->size <= lo) continue;
            if (!host) {
                host = page + (lo & GUEST_PAGE_MASK);
                memcpy(saved, host, sizeof saved);
            }
            for (unsigned b = 0; b < e->size; b++)
                if (e->addr + b >= lo && e->addr + b < lo + 16) host[e->addr + b - lo] = e->bytes[b];
        }
    }
    if (host) {
        memcpy(w->patched_saved, saved, sizeof saved);
        w->patched = host;
    }
    in->exec(s, in);
    if (host) memcpy(host, saved, sizeof saved);
    w->patched = NULL;
}

/* Executes `in` on the shadow where that is harmless; returns its load
 * address (0 when none), or 1 when the instruction cannot run (the walk
 * ends: a load of a page not present). */
static uint64_t shadow_exec(wrongpath_t *w, insn_t *in)
{
    cpu_t *s = &w->shadow;
    if (in->flags & IF_STORE) {
        overlay_store(w, in);
        return 0;
    }
    /* An instruction DISE classified runs through DISE's wrapper (which
     * would start a replacement, count or record an event): its own
     * semantics are not run on the wrong path, its destination keeps its
     * old value. */
    bool dise_wrapped = in->dise != 0;
    if (in->flags & IF_LOAD) {
        if (in->rs1 == REG_NONE) return 1;
        uint64_t addr = s->reg[in->rs1] + (uint64_t)in->imm;
        if (in->opclass != OC_LOAD || dise_wrapped) return addr ? addr : 1;   /* value not needed */
        if (!page_ready(s->mem, addr & ~7ull, 8, MEM_PROT_READ) ||
            !page_ready(s->mem, addr, in->memsize ? in->memsize : 1, MEM_PROT_READ))
            return 1;
        overlay_load(w, in, addr & ~7ull);
        return s->mem_addr;
    }
    if (dise_wrapped) return 0;
    switch (in->opclass) {
    case OC_NOP: case OC_IALU: case OC_IMUL: case OC_IDIV:
        in->exec(s, in);
        break;
    default:                                            /* FP: destination stale */
        break;
    }
    return 0;
}

/* The walk itself, on the shadow (a fault or trap longjmps out of it). */
static int walk(wrongpath_t *w, const bpred_t *bp, uint64_t pc, unsigned max,
                wrongpath_visit_fn visit, void *ctx)
{
    cpu_t *shadow = &w->shadow;
    for (unsigned n = 0; n < max; n++) {
        insn_t *in = shadow_fetch(shadow, pc);
        if (!in) return WP_END_FAULT;
        if (ends_walk(in)) return WP_END_SERIAL;
        uint64_t next = pc + in->len, addr = 0;
        shadow->pc = next;
        if (in->flags & IF_TRANSFER) {
            if (in->rd != REG_NONE && in->rd != REG_SINK) shadow->reg[in->rd] = pc + in->len;
            next = predicted_next(bp, in);
        } else if ((addr = shadow_exec(w, in)) == 1) {
            return WP_END_FAULT;
        }
        if (!visit(ctx, in, addr, next)) return WP_END_TIMING;
        if (!next) return WP_END_TARGET;
        pc = next;
    }
    return WP_END_LIMIT;
}

int wrongpath_walk(wrongpath_t *w, cpu_t *c, const bpred_t *bp, uint64_t pc, unsigned max,
                   wrongpath_visit_fn visit, void *ctx)
{
    jmp_buf here;
    mem_t *m = c->mem;
    jmp_buf *saved_jmp = m->fault_jmp;
    mem_fault_t saved_fault = m->fault;
    memcpy(&w->shadow, c, sizeof w->shadow);
    w->overlay_n = 0;
    w->shadow.stop_jmp = &here;
    m->fault_jmp = &here;
    int end;
    if (setjmp(here) == 0) end = walk(w, bp, pc, max, visit, ctx);
    else end = WP_END_FAULT;             /* a trap or fault of the shadow */
    if (end == WP_END_FAULT && hostmem_failure())
        hostmem_clear_failure();         /* --host-mem refused the walk a decoded page:
                                            not the guest's failure */
    if (w->patched) {                    /* it came in the middle of a load */
        memcpy(w->patched, w->patched_saved, sizeof w->patched_saved);
        w->patched = NULL;
    }
    m->fault_jmp = saved_jmp;
    m->fault = saved_fault;
    return end;
}
