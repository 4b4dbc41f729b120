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
 * ground-truth counts are not touched.  FP operations run on the shadow
 * with the host FP environment handed to it for the walk (the ISA's run
 * hooks), so their sticky flags and rounding mode never reach the real cpu;
 * the hand-over (a few fenv calls of some 100 cycles each) is made at the
 * walk's first instruction that may touch the host FP state, and most
 * walks have none.
 * DISE decodes the wrong path too: a classified instruction is matched on
 * the engine's counters (dise_spec_match; dise.spec_counters says whether
 * the squash restores them) and a replacement's operations are walked as
 * wrong-path instructions (a `tally` gives its address, its word is not
 * written); a handler call ends the walk (never run).
 */
#include "wrongpath.h"

#include "dise_engine.h"
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
    /* the lowest address and the highest end (addr + size) of its entries:
     * a load outside them reads none */
    uint64_t overlay_low, overlay_high;
    /* guest bytes patched for a load and their saved contents, while it
     * runs (put back even if it traps) */
    uint8_t *patched, patched_saved[16];
    /* the DISE decode stall of the instruction being visited (the first of
     * a wrong-path replacement: dise.replace_penalty), else 0 */
    unsigned decode_stall;
    /* the real cpu of the walk under way, and whether the host FP state
     * has been handed from it to the shadow (hand_fp_over) */
    cpu_t *real;
    bool fp_handed;
    /* pages found present with execute / read permission during the walk
     * under way (page number + 1, 0: none): nothing a walk does maps,
     * unmaps or protects a page, so a run of instructions or loads on one
     * page looks it up once */
    uint64_t exec_page, read_page;
    /* the page (number + 1, 0: none) of the last instruction found decoded
     * through mem_code_slots in the walk under way, and its decoded slots:
     * later fetches from it look there first (dropped when a decode may give
     * the page another array) */
    uint64_t code_page;
    insn_t *code_slots;
};

wrongpath_t *wrongpath_new(void) { return xcalloc(1, sizeof(wrongpath_t)); }

void wrongpath_free(wrongpath_t *w) { free(w); }

const char *const wrongpath_end_names[WP_END_COUNT] = {
    "resolved", "limit", "fault", "serializing", "no_target", "handler",
};

/* The page holding [addr, addr + size) is mapped with `prot`, present
 * (a read of it allocates nothing) and the range does not cross it. */
static __attribute__((noinline)) bool page_ready(const mem_t *m, uint64_t addr, unsigned size,
                                                 int prot)
{
    if ((addr & GUEST_PAGE_MASK) > GUEST_PAGE_SIZE - size) return false;
    const guest_page_t *pg = mem_page(m, addr);
    return pg && pg->mapped && pg->data && (pg->prot & prot);
}

/* page_ready() for the walk under way, with *known the last page found
 * ready with `prot` in it. */
static inline __attribute__((always_inline))
bool walk_page_ready(const mem_t *m, uint64_t addr, unsigned size, int prot, uint64_t *known)
{
    if ((addr & GUEST_PAGE_MASK) > GUEST_PAGE_SIZE - size) return false;
    uint64_t page = (addr >> GUEST_PAGE_SHIFT) + 1;
    if (page == *known) return true;
    if (!page_ready(m, addr, size, prot)) return false;
    *known = page;
    return true;
}

/* shadow_fetch() of an aligned pc through the decoded cache. */
static insn_t *shadow_fetch_slow(wrongpath_t *w, uint64_t pc)
{
    cpu_t *s = &w->shadow;
    if (!walk_page_ready(s->mem, pc, s->isa->insn_align, MEM_PROT_EXEC, &w->exec_page))
        return NULL;
    insn_t *slots = mem_code_slots(s->mem, pc), *slot = &slots[(pc & GUEST_PAGE_MASK) >> 1];
    if (slot->exec) {
        w->code_page = (pc >> GUEST_PAGE_SHIFT) + 1;
        w->code_slots = slots;
        return slot;
    }
    w->code_page = 0;
    if (!walk_page_ready(s->mem, pc, 4, MEM_PROT_EXEC, &w->exec_page)) return NULL;   /* may be 4 bytes */
    return cpu_fetch_decode(s, pc);
}

/* The decoded instruction at pc through the decoded cache, or NULL when
 * its bytes are not on a present executable page.  An instruction already
 * decoded on the page of the last one is read from its slots (the page was
 * found ready then). */
static inline __attribute__((always_inline)) insn_t *shadow_fetch(wrongpath_t *w, uint64_t pc)
{
    if (pc & (w->shadow.isa->insn_align - 1)) return NULL;
    if ((pc >> GUEST_PAGE_SHIFT) + 1 == w->code_page) {
        insn_t *slot = &w->code_slots[(pc & GUEST_PAGE_MASK) >> 1];
        if (slot->exec) return slot;
    }
    return shadow_fetch_slow(w, pc);
}

/* Instructions that end the walk before they are fetched: they would need
 * the operating system, a serialization or memory ordering. */
static bool ends_walk(const insn_t *in)
{
    /* by a table (a chain of compares was a branch the host mispredicted) */
    static const bool class_ends[OC_COUNT] = {
        [OC_FENCE] = true, [OC_CSR] = true, [OC_SYSCALL] = true,
    };
    return ((in->flags & (IF_SYSCALL | IF_SERIAL | IF_ATOMIC | IF_DISE)) != 0) |
           class_ends[in->opclass];
}

/* The next pc the front end would fetch after a transfer, or 0 when it
 * has no target to go to (an indirect jump the BTB does not know). */
static uint64_t predicted_next(const bpred_t *bp, const insn_t *in)
{
    bpred_result_t p = bpred_peek(bp, in);
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
    /* an FP store writes its register's raw bits only when it is 8 bytes
     * wide (fsd, stt; Alpha's sts converts the format, fsw's NaN box is
     * the same low half, but both are left out alike) */
    bool raw = in->opclass == OC_STORE || (in->opclass == OC_FSTORE && in->memsize == 8);
    if (!raw || in->rs1 == REG_NONE || in->rs2 == REG_NONE ||
        !in->memsize || in->memsize > 8 || w->overlay_n == OVERLAY_MAX)
        return;
    spec_store_t *e = &w->overlay[w->overlay_n++];
    e->addr = s->reg[in->rs1] + (uint64_t)in->imm;
    e->size = in->memsize;
    if (e->addr < w->overlay_low) w->overlay_low = e->addr;
    if (e->addr + e->size > w->overlay_high) w->overlay_high = e->addr + e->size;
    uint64_t v = s->reg[in->rs2];
    for (unsigned k = 0; k < 8; k++) e->bytes[k] = (uint8_t)(v >> (8 * k));
}

/* Only integer operations and integer loads leave the host FP state
 * alone. */
static bool touches_host_fp(const insn_t *in)
{
    switch (in->opclass) {
    case OC_NOP: case OC_IALU: case OC_IMUL: case OC_IDIV: case OC_LOAD: return false;
    default: return true;
    }
}

/* Before the walk's first instruction that may touch the host FP state:
 * the real cpu's sticky flags are taken back (run_leave), and the host
 * state is handed to the shadow as a run would (run_enter). */
static void hand_fp_over(wrongpath_t *w)
{
    cpu_t *c = w->real;
    if (w->fp_handed) return;
    w->fp_handed = true;
    if (c->isa->run_leave) c->isa->run_leave(c);
    w->shadow.fflags = c->fflags;
    if (c->isa->run_enter) c->isa->run_enter(&w->shadow);
}

/* Executes the load `in` on the shadow with the overlay's bytes over guest
 * memory: the 16 bytes from `lo` (the load's aligned quadword and the next,
 * on one present page) are patched in the host copy for the load and put
 * back right after, so guest memory never changes. */
static void overlay_load(wrongpath_t *w, insn_t *in, exec_fn exec, uint64_t lo)
{
    cpu_t *s = &w->shadow;
    uint8_t *host = NULL, saved[16];
    if (w->overlay_n && w->overlay_low < lo + 16 && w->overlay_high > lo &&
        walk_page_ready(s->mem, lo, 16, MEM_PROT_READ, &w->read_page)) {
        for (unsigned k = 0; k < w->overlay_n; k++) {
            const spec_store_t *e = &w->overlay[k];
            if (e->addr >= lo + 16 || e->addr + e->size <= lo) continue;
            if (!host) {
                host = mem_page(s->mem, lo)->data + (lo & GUEST_PAGE_MASK);
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
    exec(s, in);
    if (host) memcpy(host, saved, sizeof saved);
    w->patched = NULL;
}

/* The semantics `in` runs with on the shadow: its own, also when DISE
 * classified it (not DISE's wrapper, which would match it again on the
 * correct path's engine and record exact profiles). */
static exec_fn own_semantics(const cpu_t *s, const insn_t *in)
{
    return in->dise ? dise_outcome(s->dise, in)->exec : in->exec;
}

/* Executes `in` on the shadow where that is harmless; returns its load
 * address (0 when none), or 1 when the instruction cannot run (the walk
 * ends: a load of a page not present). */
static inline __attribute__((always_inline)) uint64_t shadow_exec(wrongpath_t *w, insn_t *in)
{
    cpu_t *s = &w->shadow;
    if (in->flags & IF_STORE) {
        overlay_store(w, in);
        return 0;
    }
    exec_fn exec = own_semantics(s, in);
    if (touches_host_fp(in)) hand_fp_over(w);
    if (in->flags & IF_LOAD) {
        if (in->rs1 == REG_NONE) return 1;
        uint64_t addr = s->reg[in->rs1] + (uint64_t)in->imm;
        if (in->opclass != OC_LOAD && in->opclass != OC_FLOAD) return addr ? addr : 1;
        if (!walk_page_ready(s->mem, addr & ~7ull, 8, MEM_PROT_READ, &w->read_page) ||
            !walk_page_ready(s->mem, addr, in->memsize ? in->memsize : 1, MEM_PROT_READ,
                             &w->read_page))
            return 1;
        overlay_load(w, in, exec, addr & ~7ull);
        return s->mem_addr;
    }
    switch (in->opclass) {
    case OC_NOP: case OC_IALU: case OC_IMUL: case OC_IDIV:
    case OC_FALU: case OC_FMUL: case OC_FDIV: case OC_FSQRT: case OC_FCVT: case OC_FMOVE:
        exec(s, in);                        /* an arithmetic trap longjmps: the walk ends */
        break;
    default:
        break;
    }
    return 0;
}

/* One program instruction of the wrong path: executed on the shadow, or
 * for a transfer its link register written and the predicted next pc
 * taken.  Sets *addr (a load's address) and *next; false when it cannot
 * run (the walk ends with a fault). */
static inline __attribute__((always_inline))
bool program_step(wrongpath_t *w, const bpred_t *bp, insn_t *in, uint64_t *addr,
                         uint64_t *next)
{
    cpu_t *shadow = &w->shadow;
    uint64_t pc = in->pc;
    *next = pc + in->len;
    *addr = 0;
    shadow->pc = *next;
    if (in->flags & IF_TRANSFER) {
        if (in->rd != REG_NONE && in->rd != REG_SINK) shadow->reg[in->rd] = pc + in->len;
        *next = predicted_next(bp, in);
        return true;
    }
    *addr = shadow_exec(w, in);
    return *addr != 1;
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

/* The walk's position and callback. */
typedef struct walk_state {
    const bpred_t *bp;
    unsigned n, max;
    wrongpath_visit_fn visit;
    void *ctx;
} walk_state_t;

/* Hands one instruction to the model; false when the walk must end. */
static bool hand_over(wrongpath_t *w, walk_state_t *ws, const insn_t *in, uint64_t addr,
                      uint64_t next)
{
    bool more = ws->visit(ws->ctx, in, addr, next, w->decode_stall);
    w->decode_stall = 0;
    ws->n++;
    return more;
}

/* The replacement s of the wrong-path instruction orig, element by element
 * as the run loop steps one (dise_step_seq): T.INSN is orig's own step, an
 * inserted ALU operation runs on the shadow's DISE registers, a DISE branch
 * moves in the sequence, a handler call is handed over and ends the walk
 * (the handler never runs on the wrong path).  Returns -1 to go on at
 * *next, else why the walk ends. */
static int walk_replacement(wrongpath_t *w, walk_state_t *ws, insn_t *orig, dise_seq_t *s,
                            uint64_t *next)
{
    cpu_t *shadow = &w->shadow;
    dise_t *d = shadow->dise;
    *next = orig->pc + orig->len;
    w->decode_stall = d->hw.replace_penalty;
    for (uint32_t idx = 0; idx < s->len;) {
        if (ws->n >= ws->max) return WP_END_LIMIT;
        insn_t *x = &s->insns[idx++];
        uint64_t addr = 0, after = x->pc + x->len;
        if (!x->exec) {                                 /* T.INSN */
            if (!program_step(w, ws->bp, orig, &addr, next)) return WP_END_FAULT;
            after = *next;
            x = orig;
        } else if (x->op == DOP_CALL) {
            d->spec.inserted++;
            d->spec.handler_stalls++;
            hand_over(w, ws, x, 0, after);
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
        if (!hand_over(w, ws, x, addr, after)) return WP_END_TIMING;
    }
    return *next ? -1 : WP_END_TARGET;
}

/* The walk itself, on the shadow (a fault or trap longjmps out of it). */
static int walk(wrongpath_t *w, walk_state_t *ws, uint64_t pc)
{
    cpu_t *shadow = &w->shadow;
    while (ws->n < ws->max) {
        insn_t *in = shadow_fetch(w, pc);
        if (!in) return WP_END_FAULT;
        if (ends_walk(in)) return WP_END_SERIAL;
        uint64_t next, addr;
        dise_seq_t *s = in->dise ? dise_spec_match(shadow->dise, shadow, in) : NULL;
        if (s) {
            int end = walk_replacement(w, ws, in, s, &next);
            if (end >= 0) return end;
        } else {
            if (!program_step(w, ws->bp, in, &addr, &next)) return WP_END_FAULT;
            if (!hand_over(w, ws, in, addr, next)) return WP_END_TIMING;
            if (!next) return WP_END_TARGET;
        }
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
    /* the host FP state goes to the shadow when the walk first needs it
     * (hand_fp_over): the cpu's sticky flags are taken back first, the
     * shadow's dropped after */
    memcpy(&w->shadow, c, sizeof w->shadow);
    w->real = c;
    w->fp_handed = false;
    dise_spec_ckpt_t ckpt;
    if (c->dise) dise_spec_save(c->dise, &ckpt);
    w->overlay_n = 0;
    w->overlay_low = UINT64_MAX;
    w->overlay_high = 0;
    w->decode_stall = 0;
    w->exec_page = w->read_page = w->code_page = 0;
    w->shadow.stop_jmp = &here;
    m->fault_jmp = &here;
    walk_state_t ws = { .bp = bp, .max = max, .visit = visit, .ctx = ctx };
    int end;
    if (setjmp(here) == 0) end = walk(w, &ws, pc);
    else end = WP_END_FAULT;             /* a trap or fault of the shadow */
    if (c->dise) dise_spec_squash(c->dise, &ckpt);
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
    m->fault_jmp = saved_jmp;
    m->fault = saved_fault;
    return end;
}
