/*
 * wrongpath.c - walk the predicted (wrong) path after a mispredict on a
 * shadow copy of the cpu (wrongpath.h).  The shadow has the registers of
 * the moment of the mispredicted transfer; integer operations and loads
 * execute through the same semantics and decoded cache as the real run,
 * with faults and traps caught here (the shadow's stop and the memory's
 * fault jump land in the model's jmp_buf, wrongpath_begin, for the length
 * of the walk).
 * Nothing it does reaches the architectural state: stores never execute
 * (an integer store's address, size and data go to a speculative store
 * overlay, which a later wrong-path load reads over guest memory), control
 * transfers are not executed (the predictor picks the next pc; a call's
 * link register is written on the shadow), and the decoded instructions'
 * ground-truth counts are not touched.  FP operations run on the shadow
 * with the host FP environment handed to it for the walk (the ISA's run
 * hooks), so their sticky flags and rounding mode never reach the real cpu;
 * the hand-over (a few fenv calls of some 100 cycles each) is made at the
 * walk's first instruction that may touch the host FP state, and most
 * walks have none.
 * The step (fetch, execute) is inline in wrongpath.h, for the model's walk
 * loop; this file has its rare cases and the walk's set-up and end.
 * DISE decodes the wrong path too: a classified instruction is matched on
 * the engine's counters (dise_spec_match; dise.spec_counters says whether
 * the squash restores them) and a replacement's operations are walked as
 * wrong-path instructions (a `tally` gives its address, its word is not
 * written); a handler call ends the walk (never run).
 */
#include "wrongpath.h"

#include "dise_engine.h"
#include "hostmem.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

wrongpath_t *wrongpath_new(void) { return xcalloc(1, sizeof(wrongpath_t)); }

void wrongpath_free(wrongpath_t *w) { free(w); }

const char *const wrongpath_end_names[WP_END_COUNT] = {
    "resolved", "limit", "fault", "serializing", "no_target", "handler",
};

/* The page holding [addr, addr + size) is mapped with `prot`, present
 * (a read of it allocates nothing) and the range does not cross it.  A
 * page in the memory's read TLB is all that for a read: only a read of a
 * present readable page fills an entry, and every unmapping, remapping or
 * protection change of the page drops it (sim/mem.c). */
bool wrongpath_page_ready(const mem_t *m, uint64_t addr, unsigned size, int prot)
{
    if ((addr & GUEST_PAGE_MASK) > GUEST_PAGE_SIZE - size) return false;
    if (prot == MEM_PROT_READ &&
        mem_tlb_slot(m->rtlb, addr)->page == (addr & ~(uint64_t)GUEST_PAGE_MASK))
        return true;
    const guest_page_t *pg = mem_page(m, addr);
    return pg && pg->mapped && pg->data && (pg->prot & prot);
}

/* wrongpath_fetch() of an aligned pc through the decoded cache. */
insn_t *wrongpath_fetch_slow(wrongpath_t *w, uint64_t pc)
{
    cpu_t *s = &w->shadow;
    if (!wrongpath_page_known(s->mem, pc, s->isa->insn_align, MEM_PROT_EXEC, &w->exec_page))
        return NULL;
    insn_t *slots = mem_code_slots(s->mem, pc), *slot = &slots[(pc & GUEST_PAGE_MASK) >> 1];
    if (slot->exec) {
        w->code_page = (pc >> GUEST_PAGE_SHIFT) + 1;
        w->code_slots = slots;
        w->code_mem = s->mem;
        w->code_epoch = s->mem->code_epoch;
        return slot;
    }
    w->code_page = 0;
    if (!wrongpath_page_known(s->mem, pc, 4, MEM_PROT_EXEC, &w->exec_page))
        return NULL;                                    /* may be 4 bytes */
    return cpu_fetch_decode(s, pc);
}

void wrongpath_whole_regs(wrongpath_t *w)
{
    if (w->regs_whole) return;
    w->regs_whole = true;
    memcpy(&w->shadow.reg[REG_FP0], &w->real->reg[REG_FP0],
           (REG_ZERO - REG_FP0) * sizeof w->shadow.reg[0]);
}

/* A wrong-path integer store: into the overlay, never into memory (the
 * two ISAs' stores write the low `memsize` bytes of rs2 at rs1 + imm;
 * Alpha's stq_u aligns that down, which the overlay does not model). */
void wrongpath_store(wrongpath_t *w, const insn_t *in)
{
    const cpu_t *s = &w->shadow;
    /* an FP store writes its register's raw bits only when it is 8 bytes
     * wide (fsd, stt; Alpha's sts converts the format, fsw's NaN box is
     * the same low half, but both are left out alike) */
    bool raw = in->opclass == OC_STORE || (in->opclass == OC_FSTORE && in->memsize == 8);
    if (in->opclass != OC_STORE) wrongpath_whole_regs(w);     /* an FP register's bits */
    if (!raw || in->rs1 == REG_NONE || in->rs2 == REG_NONE ||
        !in->memsize || in->memsize > 8 || w->overlay_n == WP_OVERLAY_MAX)
        return;
    wp_spec_store_t *e = &w->overlay[w->overlay_n++];
    e->addr = s->reg[in->rs1] + (uint64_t)in->imm;
    e->size = in->memsize;
    if (e->addr < w->overlay_low) w->overlay_low = e->addr;
    if (e->addr + e->size > w->overlay_high) w->overlay_high = e->addr + e->size;
    e->value = s->reg[in->rs2];
}

/* Before the walk's first instruction that may touch the host FP state:
 * the real cpu's sticky flags are taken back (run_leave), and the host
 * state is handed to the shadow as a run would (run_enter). */
void wrongpath_hand_fp_over(wrongpath_t *w)
{
    cpu_t *c = w->real;
    if (w->fp_handed) return;
    w->fp_handed = true;
    wrongpath_whole_regs(w);
    if (c->isa->run_leave) c->isa->run_leave(c);
    w->shadow.fflags = c->fflags;
    if (c->isa->run_enter) c->isa->run_enter(&w->shadow);
}

/* The bytes of overlay entry e that fall in the 16 from lo, written over
 * host (their copy; lo + 16 is on lo's page): one copy of its low bytes
 * when all of it falls there and the host stores little-endian, as the
 * value's bytes are kept (byte k = value >> 8k), else byte by byte. */
static void patch_bytes(uint8_t *host, const wp_spec_store_t *e, uint64_t lo)
{
    uint64_t at = e->addr - lo;
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (e->addr >= lo && at + e->size <= 16) {
        switch (e->size) {
        case 8: memcpy(host + at, &e->value, 8); return;
        case 4: memcpy(host + at, &e->value, 4); return;
        case 2: memcpy(host + at, &e->value, 2); return;
        case 1: host[at] = (uint8_t)e->value; return;
        default: break;
        }
    }
#endif
    for (unsigned b = 0; b < e->size; b++, at++)
        if (at < 16) host[at] = (uint8_t)(e->value >> (8 * b));
}

/* Executes the load `in` on the shadow with the overlay's bytes over guest
 * memory: the 16 bytes from `lo` (the load's aligned quadword and the next,
 * on one present page) are patched in the host copy for the load and put
 * back right after, so guest memory never changes. */
void wrongpath_load(wrongpath_t *w, insn_t *in, exec_fn exec, uint64_t lo)
{
    cpu_t *s = &w->shadow;
    uint8_t *host = NULL, saved[16];
    if (w->overlay_n && w->overlay_low < lo + 16 && w->overlay_high > lo &&
        wrongpath_page_known(s->mem, lo, 16, MEM_PROT_READ, &w->read_page)) {
        for (unsigned k = 0; k < w->overlay_n; k++) {
            const wp_spec_store_t *e = &w->overlay[k];
            if (e->addr >= lo + 16 || e->addr + e->size <= lo) continue;
            if (!host) {
                host = mem_page(s->mem, lo)->data + (lo & GUEST_PAGE_MASK);
                memcpy(saved, host, sizeof saved);
            }
            patch_bytes(host, e, lo);
        }
    }
    if (host) {
        memcpy(w->patched_saved, saved, sizeof saved);
        w->patched = host;
    }
    exec(s, in);
    if (host) memcpy(host, saved, sizeof saved);
    w->patched = NULL;
}

/* The semantics a classified instruction runs with on the shadow: its own,
 * not DISE's wrapper. */
exec_fn wrongpath_dise_semantics(wrongpath_t *w, const insn_t *in)
{
    wrongpath_whole_regs(w);
    return dise_outcome(w->shadow.dise, in)->exec;
}

/* The replacement DISE gives a classified instruction on the wrong path
 * (its productions' micro-ops update the counters speculatively), or NULL. */
dise_seq_t *wrongpath_dise_match(wrongpath_t *w, const insn_t *in)
{
    wrongpath_whole_regs(w);
    return dise_spec_match(w->shadow.dise, &w->shadow, in);
}

/* Where a DISE branch of a wrong-path replacement goes: its target
 * position when taken (on the shadow's DISE registers), else -1. */
static int32_t dise_branch_target(const cpu_t *s, const insn_t *x)
{
    bool taken = x->op == DOP_JUMP ||
                 (x->op == DOP_BEQZ && s->reg[x->rs1] == 0) ||
                 (x->op == DOP_BNEZ && s->reg[x->rs1] != 0);
    return taken ? (int32_t)x->target : -1;
}

/* The walk's position and callback, for a replacement. */
typedef struct walk_state {
    unsigned n, max;            /* instructions of the walk handed over; at most */
    unsigned decode_stall;      /* of the next instruction handed over */
    wrongpath_visit_fn visit;
    void *ctx;
} walk_state_t;

/* Hands one instruction to the model; false when the walk must end. */
static bool hand_over(walk_state_t *ws, const insn_t *in, uint64_t addr, uint64_t next)
{
    bool more = ws->visit(ws->ctx, in, addr, next, ws->decode_stall);
    ws->decode_stall = 0;
    ws->n++;
    return more;
}

/* The replacement s of the wrong-path instruction orig (wrongpath.h): T.INSN
 * is orig's own step, an inserted ALU operation runs on the shadow's DISE
 * registers, a DISE branch moves in the sequence, a handler call is handed
 * over and ends the walk (the handler never runs on the wrong path). */
int wrongpath_replacement(wrongpath_t *w, const bpred_t *bp, insn_t *orig, dise_seq_t *s,
                          unsigned n, unsigned max, wrongpath_visit_fn visit, void *ctx,
                          uint64_t *next)
{
    cpu_t *shadow = &w->shadow;
    dise_t *d = shadow->dise;
    walk_state_t ws = { .n = n, .max = max, .decode_stall = d->hw.replace_penalty,
                        .visit = visit, .ctx = ctx };
    *next = orig->pc + orig->len;
    for (uint32_t idx = 0; idx < s->len;) {
        if (ws.n >= ws.max) return WP_END_LIMIT;
        insn_t *x = &s->insns[idx++];
        uint64_t addr = 0, after = x->pc + x->len;
        if (!x->exec) {                                 /* T.INSN */
            if (!wrongpath_program_step(w, bp, orig, &addr, next)) return WP_END_FAULT;
            after = *next;
            x = orig;
        } else if (x->op == DOP_CALL) {
            d->spec.inserted++;
            d->spec.handler_stalls++;
            hand_over(&ws, x, 0, after);
            return WP_END_HANDLER;
        } else if (x->op == DOP_BEQZ || x->op == DOP_BNEZ || x->op == DOP_JUMP) {
            d->spec.inserted++;
            int32_t to = dise_branch_target(shadow, x);
            if (to >= 0) {
                idx = (uint32_t)to;
                after = x->pc;                          /* ends the fetch group */
            }
        } else if (x->op == DOP_TALLY) {               /* its address only: never written */
            d->spec.inserted++;
            addr = dise_tally_addr(shadow, x);
        } else {
            d->spec.inserted++;
            x->exec(shadow, x);
        }
        if (!hand_over(&ws, x, addr, after)) return WP_END_TIMING;
    }
    return *next ? -1 : WP_END_TARGET;
}

void wrongpath_begin(wrongpath_t *w, cpu_t *c, jmp_buf *here)
{
    mem_t *m = c->mem;
    w->saved_jmp = m->fault_jmp;
    w->saved_fault = m->fault;
    /* the host FP state goes to the shadow when the walk first needs it
     * (wrongpath_hand_fp_over): the cpu's sticky flags are taken back
     * first, the shadow's dropped after */
    /* the integer registers, the constant ones from REG_ZERO on and the
     * rest of the cpu; the FP and DISE registers when first needed
     * (wrongpath_whole_regs) */
    memcpy(&w->shadow.reg[REG_INT0], &c->reg[REG_INT0], REG_FP0 * sizeof c->reg[0]);
    memcpy(&w->shadow.reg[REG_ZERO], &c->reg[REG_ZERO], (REG_COUNT - REG_ZERO) * sizeof c->reg[0]);
    memcpy(&w->shadow.pc, &c->pc, sizeof *c - offsetof(cpu_t, pc));
    w->regs_whole = false;
    w->real = c;
    w->fp_handed = false;
    if (c->dise) dise_spec_save(c->dise, &w->dise_ckpt);
    w->overlay_n = 0;
    w->overlay_low = UINT64_MAX;
    w->overlay_high = 0;
    w->align_mask = c->isa->insn_align - 1;
    w->exec_page = w->read_page = 0;
    if (w->code_mem != m || w->code_epoch != m->code_epoch) w->code_page = 0;
    w->shadow.stop_jmp = here;
    m->fault_jmp = here;
}

void wrongpath_end(wrongpath_t *w, cpu_t *c, int end)
{
    mem_t *m = c->mem;
    if (c->dise) dise_spec_squash(c->dise, &w->dise_ckpt);
    if (w->fp_handed) {
        if (c->isa->run_leave) c->isa->run_leave(&w->shadow);
        if (c->isa->run_enter) c->isa->run_enter(c);
    }
    if (end == WP_END_FAULT && hostmem_failure())
        hostmem_clear_failure();         /* --host-mem refused the walk a decoded page:
                                            not the guest's failure */
    if (w->patched) {                    /* it came in the middle of a load */
        memcpy(w->patched, w->patched_saved, sizeof w->patched_saved);
        w->patched = NULL;
    }
    m->fault_jmp = w->saved_jmp;
    m->fault = w->saved_fault;
}
