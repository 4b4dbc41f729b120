/*
 * wrongpath.h - the functional side of wrong-path execution for the
 * out-of-order model (ooo.c): after a mispredicted transfer, walk the path
 * the branch predictor takes, on a shadow copy of the cpu's registers,
 * without ever changing the architectural state (registers, memory, the
 * ground truth's counts).  The model times what the walk hands it.
 * The walker's step is inline here, so that the model's walk loop (ooo.c)
 * times each instruction in the same frame as it fetches and executes it;
 * what is rare (a page looked up, a store, a load reading the overlay, the
 * FP hand-over, DISE replacements) is in wrongpath.c.
 * Private to pipeline/ (pipeline/README.md, "Wrong path").
 */
#ifndef HPS_WRONGPATH_H
#define HPS_WRONGPATH_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "bpred.h"
#include "core.h"
#include "dise_engine.h"

/* Why a walk ended (statistics). */
enum { WP_END_TIMING, WP_END_LIMIT, WP_END_FAULT, WP_END_SERIAL, WP_END_TARGET, WP_END_HANDLER,
       WP_END_COUNT };
extern const char *const wrongpath_end_names[WP_END_COUNT];

/* One wrong-path instruction of a DISE replacement handed to the model:
 * visit() times it and returns false to stop the walk (the branch has
 * resolved, the machine is full).  addr: the effective address of a load
 * (0 for everything else); next: the pc the front end fetches after it (0:
 * none known); decode_stall: its DISE decode stall (the first of a
 * wrong-path replacement waits dise.replace_penalty cycles, as on the
 * correct path; 0 otherwise). */
typedef bool (*wrongpath_visit_fn)(void *ctx, const insn_t *in, uint64_t addr, uint64_t next,
                                   unsigned decode_stall);

/* One wrong-path integer store in the overlay. */
#define WP_OVERLAY_MAX 64
typedef struct wp_spec_store {
    uint64_t addr;
    unsigned size;
    uint64_t value;             /* its bytes, byte k = value >> 8k */
} wp_spec_store_t;

/* A walker: its shadow cpu and store overlay (one per timing model: nothing
 * here is shared between runs). */
typedef struct wrongpath {
    cpu_t shadow;
    /* the speculative store overlay of the walk under way: the wrong
     * path's integer stores, oldest first (one beyond the last entry is
     * dropped: later loads do not see it) */
    wp_spec_store_t overlay[WP_OVERLAY_MAX];
    unsigned overlay_n;
    /* the lowest address and the highest end (addr + size) of its entries:
     * a load outside them reads none */
    uint64_t overlay_low, overlay_high;
    /* guest bytes patched for a load and their saved contents, while it
     * runs (put back even if it traps) */
    uint8_t *patched, patched_saved[16];
    /* the real cpu of the walk under way, and whether the host FP state
     * has been handed from it to the shadow (wrongpath_hand_fp_over) */
    cpu_t *real;
    bool fp_handed;
    /* whether the shadow has the FP and DISE registers of the walk under
     * way: wrongpath_begin copies the integer registers and the rest of
     * the cpu, these (reg[REG_FP0 .. REG_ZERO - 1]) only when the walk
     * first reaches an instruction that may read them
     * (wrongpath_whole_regs): most walks never do */
    bool regs_whole;
    /* the memory's fault jump and fault before the walk (put back after) */
    jmp_buf *saved_jmp;
    mem_fault_t saved_fault;
    /* the shadow's insn_align - 1 (an instruction's pc is a multiple) */
    uint64_t align_mask;
    /* pages found present with execute / read permission during the walk
     * under way (page number + 1, 0: none): nothing a walk does maps,
     * unmaps or protects a page, so a run of instructions or loads on one
     * page looks it up once */
    uint64_t exec_page, read_page;
    /* the page (number + 1, 0: none) of the last instruction found decoded
     * through mem_code_slots, and its decoded slots: later fetches from it
     * look there first (dropped when a decode may give the page another
     * array); kept from one walk to the next while the memory and its
     * code_epoch (moved whenever a page's decoded slots are emptied: unmap,
     * mprotect, a store to code, eviction) are those it was found in */
    uint64_t code_page;
    insn_t *code_slots;
    const mem_t *code_mem;
    uint64_t code_epoch;
    /* the DISE counters and flags at the mispredicted transfer (squash) */
    dise_spec_ckpt_t dise_ckpt;
} wrongpath_t;

wrongpath_t *wrongpath_new(void);
void wrongpath_free(wrongpath_t *w);

/* A walk on w's shadow of c: wrongpath_begin() copies the registers and
 * points the shadow's stop and the memory's fault jump at `here`, which the
 * caller has just set (setjmp: a fault or trap of the shadow lands there,
 * and the walk ends with WP_END_FAULT); steps follow (wrongpath_step), and
 * wrongpath_end() puts everything back (DISE counters and flags unless
 * dise.spec_counters = leak, the host FP state, a load's patched bytes,
 * the fault jump) whatever the walk's end. */
void wrongpath_begin(wrongpath_t *w, cpu_t *c, jmp_buf *here);
void wrongpath_end(wrongpath_t *w, cpu_t *c, int end);

/* The shadow's FP and DISE registers from the real cpu, before the walk's
 * first instruction that may read them: any but an integer operation,
 * load or store, or a transfer (wrongpath_hand_fp_over, wrongpath_store,
 * DISE's match). */
void wrongpath_whole_regs(wrongpath_t *w);

/* The rare cases of a step, out of line (wrongpath.c). */
insn_t *wrongpath_fetch_slow(wrongpath_t *w, uint64_t pc);
bool wrongpath_page_ready(const mem_t *m, uint64_t addr, unsigned size, int prot);
void wrongpath_store(wrongpath_t *w, const insn_t *in);
void wrongpath_load(wrongpath_t *w, insn_t *in, exec_fn exec, uint64_t lo);
void wrongpath_hand_fp_over(wrongpath_t *w);
exec_fn wrongpath_dise_semantics(wrongpath_t *w, const insn_t *in);
dise_seq_t *wrongpath_dise_match(wrongpath_t *w, const insn_t *in);

/* The DISE replacement s of the wrong-path instruction orig, element by
 * element as the run loop steps one, each handed to visit(ctx, ...), after
 * n instructions of the walk (at most max in all).  Returns -1 to go on at
 * *next, else why the walk ends. */
int wrongpath_replacement(wrongpath_t *w, const bpred_t *bp, insn_t *orig, dise_seq_t *s,
                          unsigned n, unsigned max, wrongpath_visit_fn visit, void *ctx,
                          uint64_t *next);

/* page_ready() for the walk under way, with *known the last page found
 * ready with `prot` in it. */
static inline __attribute__((always_inline))
bool wrongpath_page_known(const mem_t *m, uint64_t addr, unsigned size, int prot,
                          uint64_t *known)
{
    if ((addr & GUEST_PAGE_MASK) > GUEST_PAGE_SIZE - size) return false;
    uint64_t page = (addr >> GUEST_PAGE_SHIFT) + 1;
    if (page == *known) return true;
    if (!wrongpath_page_ready(m, addr, size, prot)) return false;
    *known = page;
    return true;
}

/* The decoded instruction at pc through the decoded cache, or NULL when
 * its bytes are not on a present executable page.  An instruction already
 * decoded on the page of the last one is read from its slots (the page was
 * found ready then). */
static inline __attribute__((always_inline)) insn_t *wrongpath_fetch(wrongpath_t *w, uint64_t pc)
{
    if (pc & w->align_mask) return NULL;
    if ((pc >> GUEST_PAGE_SHIFT) + 1 == w->code_page) {
        insn_t *slot = &w->code_slots[(pc & GUEST_PAGE_MASK) >> 1];
        if (slot->exec) return slot;
    }
    return wrongpath_fetch_slow(w, pc);
}

/* Instructions that end the walk before they are fetched: they would need
 * the operating system, a serialization or memory ordering. */
static inline bool wrongpath_ends_walk(const insn_t *in)
{
    /* by a table (a chain of compares was a branch the host mispredicted) */
    static const bool class_ends[OC_COUNT] = {
        [OC_FENCE] = true, [OC_CSR] = true, [OC_SYSCALL] = true,
    };
    return ((in->flags & (IF_SYSCALL | IF_SERIAL | IF_ATOMIC | IF_DISE)) != 0) |
           class_ends[in->opclass];
}

/* The next pc the front end would fetch after a transfer (the predictor
 * falls through after an indirect jump the BTB does not know). */
static inline uint64_t wrongpath_predicted_next(const bpred_t *bp, const insn_t *in)
{
    return bpred_peek_next(bp, in);
}

/* Only integer operations and integer loads leave the host FP state
 * alone. */
static inline bool wrongpath_touches_host_fp(const insn_t *in)
{
    switch (in->opclass) {
    case OC_NOP: case OC_IALU: case OC_IMUL: case OC_IDIV: case OC_LOAD: return false;
    default: return true;
    }
}

/* Executes `in` on the shadow where that is harmless; returns its load
 * address (0 when none), or 1 when the instruction cannot run (the walk
 * ends: a load of a page not present).  A classified instruction runs its
 * own semantics, not DISE's wrapper (which would match it again on the
 * correct path's engine and record exact profiles). */
static inline __attribute__((always_inline)) uint64_t wrongpath_exec(wrongpath_t *w, insn_t *in)
{
    cpu_t *s = &w->shadow;
    if (in->flags & IF_STORE) {
        wrongpath_store(w, in);
        return 0;
    }
    exec_fn exec = in->dise ? wrongpath_dise_semantics(w, in) : in->exec;
    if (wrongpath_touches_host_fp(in) && !w->fp_handed) wrongpath_hand_fp_over(w);
    if (in->flags & IF_LOAD) {
        if (in->rs1 == REG_NONE) return 1;
        uint64_t addr = s->reg[in->rs1] + (uint64_t)in->imm;
        if (in->opclass != OC_LOAD && in->opclass != OC_FLOAD) return addr ? addr : 1;
        if (!wrongpath_page_known(s->mem, addr & ~7ull, 8, MEM_PROT_READ, &w->read_page) ||
            !wrongpath_page_known(s->mem, addr, in->memsize ? in->memsize : 1, MEM_PROT_READ,
                                  &w->read_page))
            return 1;
        uint64_t lo = addr & ~7ull;
        if (w->overlay_n && w->overlay_low < lo + 16 && w->overlay_high > lo)
            wrongpath_load(w, in, exec, lo);
        else
            exec(s, in);
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
bool wrongpath_program_step(wrongpath_t *w, const bpred_t *bp, insn_t *in, uint64_t *addr,
                            uint64_t *next)
{
    cpu_t *shadow = &w->shadow;
    uint64_t pc = in->pc;
    *next = pc + in->len;
    *addr = 0;
    shadow->pc = *next;
    if (in->flags & IF_TRANSFER) {
        if (in->rd != REG_NONE && in->rd != REG_SINK) shadow->reg[in->rd] = pc + in->len;
        *next = wrongpath_predicted_next(bp, in);
        return true;
    }
    *addr = wrongpath_exec(w, in);
    return *addr != 1;
}

/* What wrongpath_step found at a pc. */
enum { WP_STEP_INSN = -1, WP_STEP_REPLACE = -2 };

/* The wrong path's instruction at pc: fetched, and unless DISE replaces it
 * (WP_STEP_REPLACE, *seq its replacement, not yet walked) executed on the
 * shadow (WP_STEP_INSN, *in, its load address *addr and the predicted next
 * pc *next); else why the walk ends. */
static inline __attribute__((always_inline))
int wrongpath_step(wrongpath_t *w, const bpred_t *bp, uint64_t pc, insn_t **in_out,
                   uint64_t *addr, uint64_t *next, dise_seq_t **seq)
{
    insn_t *in = wrongpath_fetch(w, pc);
    if (!in) return WP_END_FAULT;
    if (wrongpath_ends_walk(in)) return WP_END_SERIAL;
    *in_out = in;
    if (__builtin_expect(in->dise, 0) && (*seq = wrongpath_dise_match(w, in)) != NULL)
        return WP_STEP_REPLACE;
    if (!wrongpath_program_step(w, bp, in, addr, next)) return WP_END_FAULT;
    return WP_STEP_INSN;
}

#endif /* HPS_WRONGPATH_H */
