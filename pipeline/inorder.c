/*
 * inorder.c - the two in-order timing models (timing.h): the textbook
 * five-stage pipeline and the 21164-like N-wide in-order superscalar.
 *
 * Both are timestamp models.  After an instruction has executed
 * functionally, the model computes the cycle it enters each stage from:
 *   - the stages of the previous instruction (a stalled instruction holds
 *     its stage, so i may enter stage s only once i-1 has entered s+1),
 *   - operand readiness (a scoreboard of the cycle each register's value
 *     can be used, which depends on the forwarding paths),
 *   - the memory hierarchy (I-cache/ITLB at fetch, D-cache/DTLB/write
 *     buffer at memory access), functional units and fetch redirects after
 *     mispredicted branches.
 * "Issue" is entry to EX in the five-stage model and issue from the queue
 * head in the superscalar one; the cycles between one instruction's issue
 * and the next are the head-of-queue cycles DCPI's analysis reasons about,
 * attributed here to the constraint that bound them (the ground truth).
 * The pieces both are built from, and the run loops, are in timing.c.
 */
#include "timing_model.h"

#include "config.h"
#include "dise_engine.h"

/* ---- the five-stage pipeline -------------------------------------------------- */

static const char *const five_stage_names[5] = { "F", "D", "X", "M", "W" };

/* With EX/MEM -> EX forwarding alone, an ALU result is forwarded only to
 * the instruction entering EX right behind it (at mdone - 1 + 1 = mdone's
 * predecessor cycle); one entering EX while the producer is in WB (mdone
 * .. w) has no path and waits for the register file (written in WB, read
 * after it: w + 1).  Loads and the other configurations have no such gap. */
static void set_gap_5(timing_t *t, const insn_t *in, uint64_t mdone, uint64_t w)
{
    if (!t->p.fwd_gap || in->rd == REG_NONE || in->rd == REG_SINK) return;   /* gaps stay 0 */
    bool gap = !(in->flags & IF_LOAD);
    t->reg_gap_from[in->rd] = gap ? mdone : 0;
    t->reg_gap_to[in->rd] = gap ? w : 0;
}

/* The first EX cycle from x on that no source operand's forwarding gap
 * covers; *gap_reg: the producer's register whose gap moved it last
 * (unchanged when none did). */
static uint64_t past_gaps_5(const timing_t *t, const insn_t *in, uint64_t x, unsigned *gap_reg)
{
    const uint8_t srcs[3] = { in->rs1, in->rs2, in->rs3 };
    for (bool moved = true; moved;) {
        moved = false;
        for (int k = 0; k < 3; k++) {
            unsigned r = srcs[k];
            if (r == REG_NONE || !t->reg_gap_to[r] || x < t->reg_gap_from[r] ||
                x > t->reg_gap_to[r])
                continue;
            x = t->reg_gap_to[r] + 1;
            *gap_reg = r;
            moved = true;
        }
    }
    return x;
}

/* Cycle the branch's outcome is known in the configured stage: in ID once
 * its operands can be forwarded there, else at the end of EX or MEM. */
static uint64_t resolve_5(const timing_t *t, uint64_t d, uint64_t ops, uint64_t xdone,
                          uint64_t mdone)
{
    switch (t->p.resolve) {
    case CFG_RESOLVE_ID: return max2(d + 1, ops);
    case CFG_RESOLVE_EX: return xdone;
    default:             return mdone;
    }
}

/* A why kept in a stage latch: only its cause is written when there is
 * none (holds_5), so a cause of none reads as the empty why. */
static inline why_t latched_why(const why_t *w)
{
    return w->cause != STALL_NONE ? *w : (why_t){ .cause = STALL_NONE };
}

/* Head-of-queue accounting of an instruction entering EX at x whose head
 * needs a why (tm_head_needs_why): a late x is charged to the binding
 * constraint, in this order: an operand (its producer and cause:
 * dcache_miss, dtlb_miss or data_dependency; gap_reg when a forwarding gap
 * moved x), the previous instruction still holding EX (why it could not
 * leave), a busy divider, else the front end (the I-cache or I-TLB, else
 * a redirect -- when fetch waited for one -- and the transfer behind it). */
static inline __attribute__((always_inline)) void
head_5_as(timing_t *t, const insn_t *in, uint64_t head, uint64_t x, uint64_t d, uint64_t ops,
          unsigned gap_reg, uint64_t dfree, uint8_t fcause, bool redirected, const bool flat)
{
    why_t why;
    if (x == ops && ops > d + 1 && ops > t->prev_m)
        why = gap_reg == REG_NONE
                  ? tm_operand_why(t, in, ops)
                  : tm_why(STALL_DEP, t->reg_producer[gap_reg], t->reg_role[gap_reg]);
    else if (x == t->prev_m && t->prev_m > d + 1)
        why = latched_why(&t->prev_m_why);
    else if (x == dfree && dfree > d + 1)
        why = tm_divider_why(t, tm_divider_of(in));
    else {
        why = fcause != STALL_NONE ? (why_t){ .cause = fcause }
            : redirected ? t->redirect_why : (why_t){ .cause = STALL_NONE };
        if (why.cause == STALL_NONE) why.cause = STALL_FETCH;
    }
    if (flat) tm_record_head_flat_why(t, in, head, why);
    else tm_record_head(t, in, head, why);
}

static __attribute__((noinline)) void head_5(timing_t *t, const insn_t *in, uint64_t head,
                                             uint64_t x, uint64_t d, uint64_t ops,
                                             unsigned gap_reg, uint64_t dfree, uint8_t fcause,
                                             bool redirected)
{
    head_5_as(t, in, head, x, d, ops, gap_reg, dfree, fcause, redirected, false);
}

/* head_5 of a quick path's TK_FLAT instruction (HEADS_FLAT: as head_ev5_flat). */
static __attribute__((noinline)) void head_5_flat(timing_t *t, const insn_t *in, uint64_t head,
                                                  uint64_t x, uint64_t d, uint64_t ops,
                                                  unsigned gap_reg, uint64_t dfree, uint8_t fcause,
                                                  bool redirected)
{
    head_5_as(t, in, head, x, d, ops, gap_reg, dfree, fcause, redirected, true);
}

/* Why the instruction leaves EX late (enters MEM after x + 1): its own
 * multi-cycle operation, or the older one still in MEM; and why it leaves
 * MEM late: its own memory access.  Kept for the younger instructions;
 * when it left on time only the cause is written (latched_why). */
static inline void holds_5(timing_t *t, const insn_t *in, uint64_t x, uint64_t xdone,
                           uint64_t m, uint64_t mdone, uint8_t mcause)
{
    if (unlikely(m > x + 1))
        t->prev_m_why = xdone >= t->prev_w ? tm_why(STALL_FU, in->pc, t->cur_role)
                                           : latched_why(&t->prev_w_why);
    else
        t->prev_m_why.cause = STALL_NONE;
    if (unlikely(mdone > m + 1))               /* a slow hit: the MEM stage is busy */
        t->prev_w_why = tm_why(mcause != STALL_NONE ? mcause : STALL_FU, in->pc, t->cur_role);
    else
        t->prev_w_why.cause = STALL_NONE;
}

/* Cycle a dependent may enter EX with the result of `in`, through the
 * forwarding paths that are switched on.  A load's value is forwarded from
 * MEM/WB when its access completes, and never sooner than lat.load_use
 * after its own EX (with a 1-cycle D-cache hit the two agree: 2).
 * `no_load` (a constant): of a quick path that takes no load. */
static inline uint64_t result_ready_5(const timing_t *t, const insn_t *in, uint64_t x,
                                      uint64_t xdone, uint64_t m, uint64_t mdone, uint64_t w,
                                      const bool no_load)
{
    if (!no_load && (in->flags & IF_LOAD))
        return max2(t->p.fwd_mem_ex ? mdone : w + 1, x + t->p.lat[OC_LOAD]);
    if (t->p.fwd_ex_ex) return xdone;
    return t->p.fwd_mem_ex ? m + 1 : w + 1;
}

/* Whether an instruction accesses memory, as its path knows it: asked
 * (MEM_ASK), or a constant of the path (MEM_NO, MEM_YES). */
enum { MEM_ASK, MEM_NO, MEM_YES };

/* EX's end, MEM and WB of an instruction that enters EX at cycle x, for
 * both paths of time_inorder5: a memory access takes one EX cycle (the
 * address add) and then the D-cache in MEM; anything else its latency.
 * Returns the WB cycle; *mcause is the access's stall cause, if any.
 * `mem`: MEM_*, a constant; with MEM_YES the D-cache access is inlined. */
static inline __attribute__((always_inline)) uint64_t
back_stages_5(timing_t *t, const insn_t *in, uint64_t addr, uint64_t x, uint64_t *xdone,
              uint64_t *m, uint64_t *mdone, uint8_t *mcause, const int mem)
{
    bool memop = mem == MEM_ASK ? (in->flags & (IF_LOAD | IF_STORE)) != 0 : mem == MEM_YES;
    *xdone = x + (memop ? 1 : t->p.lat[in->opclass]);
    *m = max2(*xdone, t->prev_w);
    *mdone = *m + 1;
    if (mem == MEM_YES) *mdone = max2(*mdone, tm_data_access_inline(t, in, addr, *m, mcause));
    else if (memop) *mdone = max2(*mdone, tm_data_access(t, in, addr, *m, mcause));
    return max2(*mdone, t->prev_w + 1);
}

/* What a quick path records of the heads' ground truth (its `heads`, a
 * constant): nothing (a run that keeps none), a record through the flat
 * store's compare (tm_record_head_inline), or one without it, for an
 * instruction whose record says its pc is in the flat store (TK_FLAT:
 * tm_record_head_flat). */
enum { HEADS_NONE = 0, HEADS_ANY = 1, HEADS_FLAT = 2 };

static inline __attribute__((always_inline)) void quick_record(timing_t *t, const insn_t *in,
                                                               uint64_t head, const int heads)
{
    if (heads == HEADS_FLAT) tm_record_head_flat(t, in->pc, head);
    else if (heads) tm_record_head_inline(t, in->pc, head);
}

/* The quick paths' head of 0 or 1 cycles (tm_record_short_head for a run
 * the quick path serves: no ProfileMe, and ground truth of the heads only
 * when `heads`). */
static inline void quick_short_head(timing_t *t, const insn_t *in, uint64_t head, const int heads)
{
    t->head_sum += head;
    quick_record(t, in, head, heads);
}

/* The heads' ground truth of a quick path's head of 0 or 1 cycles
 * (quick_short_head's record), made last, after the model's state: its
 * rare calls (tm_record_first, tm_record_head_slow) are then tail jumps,
 * so a quick path with no other call keeps no frame for them (those of no
 * memory access or transfer and the loads' leaves; in the paths that call
 * the predictor or the D-cache anyway it cost more at the end: ev5's
 * transfers 135.8 -> 139.7 host instructions a call).  Nothing the path
 * does reads the records. */
static inline __attribute__((always_inline)) void quick_record_last(timing_t *t, const insn_t *in,
                                                                    uint64_t head, const int heads)
{
    quick_record(t, in, head, heads);
}

/* tm_set_result of the quick paths: their instruction is a program one
 * (tm_plain_insn), whose role is none. */
static inline void quick_set_result(timing_t *t, const insn_t *in, uint64_t avail, uint8_t cause)
{
    if (in->rd == REG_NONE || in->rd == REG_SINK) return;
    t->reg_ready[in->rd] = avail;
    t->reg_producer[in->rd] = in->pc;
    t->reg_role[in->rd] = DISE_ROLE_NONE;
    t->reg_cause[in->rd] = cause;
}

/* The load quick paths' D-cache hit with no call (quick_5_load,
 * quick_ev5_load), in two steps.  First, before the cycles are worked
 * out: the way a load of addr would hit in tm_data_access_inline with
 * nothing but counts and stamps to change -- a real memory, the D-TLB's
 * last used entry or its hint the address's page (tlb_access_inline),
 * the line in the L1 D-cache -- else NULL.  Then, at the cycle of the
 * access, quick_load_ready: the line filled by then.  Where either says
 * no, the caller hands the load to its quick path with a frame, which
 * does the same access through the calls (nothing has changed yet).  The
 * compiler barrier after the first step keeps the model's state from
 * being loaded before it, to be kept across the set's scan: it has no
 * callee-saved registers to keep them in. */
static inline way_t *quick_load_way(const timing_t *t, uint64_t addr)
{
    const tlb_t *tl = t->dtlb;
    uint64_t tag = (addr >> tl->page_shift) + 1;
    if (unlikely(t->ideal_memory) ||
        (tl->mru->tag != tag && tl->hint[tag & (TLB_HINTS - 1)]->tag != tag))
        return NULL;
    const cache_t *c = t->l1d;
    uint64_t line = addr >> c->line_shift;
    way_t *w = &c->ways[(line & c->set_mask) * c->assoc];
    for (unsigned i = 0; i < c->assoc; i++, w++)
        if (w->tag == line + 1) return w;
    return NULL;
}

static inline bool quick_load_ready(const timing_t *t, const way_t *w, uint64_t at)
{
    return w->ready <= at + t->l1d->hit_latency;
}

/* ... and what tlb_access_inline and cache_access_inline change for that
 * hit (quick_load_way's w): the cycle the data is there. */
static inline uint64_t quick_load_hit(timing_t *t, uint64_t addr, way_t *w, uint64_t at)
{
    tlb_t *tl = t->dtlb;
    cache_t *c = t->l1d;
    uint64_t ready = at + c->hit_latency;
    uint64_t tag = (addr >> tl->page_shift) + 1;
    tlb_entry_t *e = tl->mru;
    if (e->tag != tag) tl->mru = e = tl->hint[tag & (TLB_HINTS - 1)];
    tl->accesses++;
    e->stamp = ++tl->tick;
    c->last_accept = ready;
    c->reads++;
    w->stamp = ++c->tick;
    c->last_hit = true;
    return ready;
}

/* Does the quick path of time_inorder5 (quick_5) take a plain program
 * instruction of a quick kind (insn_t.tkind), in a configuration with no
 * forwarding gap, without fetching: do its bytes come from the I-cache
 * line fetched last?  Asked by the model's entry, before it jumps to the
 * quick path that fetches or the one that does not. */
static inline bool quick_5_takes(const timing_t *t, const insn_t *in)
{
    uint64_t f = max2(t->prev_d, t->redirect);
    return in->pc >> t->line_shift == t->fetch_line &&
           f >= t->fetch_ready - t->p.l1i_hit;        /* the first one never passes */
}

/* The quick path's result and latches (quick_5): the scoreboard, why the
 * instruction leaves EX or MEM late; `no_load` a constant. */
static inline __attribute__((always_inline)) void
quick_5_result(timing_t *t, const insn_t *in, uint64_t x, uint64_t xdone, uint64_t m,
               uint64_t mdone, uint64_t w, uint8_t mcause, const bool no_load)
{
    quick_set_result(t, in, result_ready_5(t, in, x, xdone, m, mdone, w, no_load),
                     mcause == STALL_DCACHE || mcause == STALL_DTLB ? mcause : STALL_DEP);
    holds_5(t, in, x, xdone, m, mdone, mcause);
}

/* ... and its stages, the next one's "previous". */
static inline __attribute__((always_inline)) void
quick_5_stages(timing_t *t, uint64_t d, uint64_t x, uint64_t m, uint64_t w)
{
    t->prev_d = d; t->prev_x = x; t->prev_m = m; t->prev_w = w;
    t->cycles = w + 1;
}

/* quick_5 of an instruction with no memory access or transfer whose bytes
 * come from the line fetched last, from its head on, when the head is more
 * than a cycle (head_5): the stages but EX's entry x are worked out again
 * from the state, which nothing has changed since, so that the quick path
 * hands over three values, calls nothing on its own way and keeps no
 * frame (as quick_ev5_alu_slow). */
static inline __attribute__((always_inline)) void quick_5_alu_slow_as(timing_t *t, const insn_t *in,
                                                                      uint64_t x, const bool flat)
{
    uint64_t f = max2(t->prev_d, t->redirect);
    uint64_t d = max2(max2(f + t->p.l1i_hit, t->fetch_ready), t->prev_x);
    uint64_t ops = tm_operands_cycle(t, in);
    uint64_t xdone, m, mdone;
    uint8_t mcause = STALL_NONE;
    uint64_t w = back_stages_5(t, in, 0, x, &xdone, &m, &mdone, &mcause, MEM_NO);
    (flat ? head_5_flat : head_5)(t, in, x - t->prev_x, x, d, ops, REG_NONE, 0, STALL_NONE,
                                  t->redirect > t->prev_d);
    quick_5_result(t, in, x, xdone, m, mdone, w, STALL_NONE, true);
    quick_5_stages(t, d, x, m, w);
}

static __attribute__((noinline)) void quick_5_alu_slow(timing_t *t, const insn_t *in, uint64_t x)
{
    quick_5_alu_slow_as(t, in, x, false);
}

/* The same of a TK_FLAT instruction (HEADS_FLAT: head_5_flat). */
static __attribute__((noinline)) void quick_5_alu_slow_flat(timing_t *t, const insn_t *in,
                                                            uint64_t x)
{
    quick_5_alu_slow_as(t, in, x, true);
}

/* The quick path of time_inorder5, of an instruction of a quick kind in
 * a configuration with no forwarding gap: what the general path does for
 * it, without asking what cannot apply.  `mem` (a constant): of a load or
 * store, whose D-cache access is then inlined; `xfer` (a constant): of a
 * branch or jump (TK_5_XFER: predicted and trained; of any other kind
 * but a load or store, none is); `fetch` (a constant): of
 * one quick_5_takes not, whose bytes are fetched as the general path
 * fetches them (a new I-cache line: after every taken transfer).
 * Inlined into the quick paths of both variants of the model (heads). */
static inline __attribute__((always_inline)) void
quick_5(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc, const int heads,
        const bool mem, const bool xfer, const bool fetch)
{
    uint64_t f = max2(t->prev_d, t->redirect);
    uint8_t fcause = STALL_NONE, mcause = STALL_NONE;
    uint64_t fready = fetch ? tm_fetch_bytes(t, in->pc, f, &fcause)
                            : max2(f + t->p.l1i_hit, t->fetch_ready);
    uint64_t d = max2(fready, t->prev_x);
    uint64_t ops = tm_operands_cycle(t, in);
    uint64_t x = max2(max2(d + 1, t->prev_m), ops);
    uint64_t xdone, m, mdone;
    uint64_t w = back_stages_5(t, in, addr, x, &xdone, &m, &mdone, &mcause,
                               mem ? MEM_YES : MEM_NO);
    uint64_t head = fetch && t->seq == 0 ? x + 1 : x - t->prev_x;
    if (head > 1) {
        if (!mem && !xfer && !fetch) {         /* out of line, so the rest calls nothing */
            (heads == HEADS_FLAT ? quick_5_alu_slow_flat : quick_5_alu_slow)(t, in, x);
            return;
        }
        (heads == HEADS_FLAT ? head_5_flat : head_5)(t, in, head, x, d, ops, REG_NONE, 0, fcause,
                                                     t->redirect > t->prev_d);
    } else {
        quick_short_head(t, in, head, mem || xfer ? heads : HEADS_NONE);
    }
    quick_5_result(t, in, x, xdone, m, mdone, w, mcause, !mem);
    if (xfer || (mem && (in->flags & (IF_BRANCH | IF_JUMP))))
        t->redirect = tm_predict_control(t, in, next_pc, d + 1, resolve_5(t, d, ops, xdone, mdone));
    quick_5_stages(t, d, x, m, w);
    if (heads && !mem && !xfer && head <= 1) quick_record_last(t, in, head, heads);
}

/* The general path of time_inorder5; `plain` (a constant): of a plain
 * instruction (tm_plain_insn), which leaves out what cannot apply to it
 * (DISE, views, ProfileMe). */
static inline __attribute__((always_inline)) void
general_5_body(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc, const bool plain)
{
    uint8_t fcause, mcause = STALL_NONE;
    bool redirected = t->redirect > t->prev_d;        /* fetch waits for a redirect */
    uint64_t f = redirected ? t->redirect : t->prev_d;
    uint64_t fready = tm_fetch_bytes(t, in->pc, f, &fcause);
    uint64_t d = max2(fready, t->prev_x);
    if (!plain) d += t->front_penalty;        /* DISE decode stall */
    uint64_t ops = tm_operands_cycle(t, in);
    int dv = tm_divider_of(in);
    uint64_t dfree = tm_divider_free(t, dv);
    uint64_t x = max2(max2(d + 1, t->prev_m), max2(ops, dfree));
    unsigned gap_reg = REG_NONE;
    if (unlikely(t->p.fwd_gap)) {
        uint64_t xg = past_gaps_5(t, in, x, &gap_reg);
        if (xg > x) x = ops = xg;             /* an operand with no forwarding path */
    }
    uint64_t xdone, m, mdone;
    uint64_t w = back_stages_5(t, in, addr, x, &xdone, &m, &mdone, &mcause, MEM_ASK);

    uint64_t head = t->seq == 0 ? x + 1 : x - t->prev_x;
    if (plain ? head > 1 : tm_head_needs_why(t, head))
        head_5(t, in, head, x, d, ops, gap_reg, dfree, fcause, redirected);
    else
        tm_record_short_head(t, in, head);
    tm_use_divider(t, in, dv, xdone);
    tm_set_result(t, in, result_ready_5(t, in, x, xdone, m, mdone, w, false),
                  mcause == STALL_DCACHE || mcause == STALL_DTLB ? mcause : STALL_DEP);
    set_gap_5(t, in, mdone, w);
    holds_5(t, in, x, xdone, m, mdone, mcause);
    if (!plain && unlikely(in->flags & IF_DISE))
        tm_dise_control(t, in, d + 1, resolve_5(t, d, ops, xdone, mdone));
    else if (in->flags & (IF_BRANCH | IF_JUMP))
        t->redirect = tm_predict_control(t, in, next_pc, d + 1, resolve_5(t, d, ops, xdone, mdone));
    if (!plain && unlikely(t->views)) {
        uint64_t st[5] = { f, d, x, m, w };
        tm_view_insn(t, in, five_stage_names, st, w + 1);
    }
    if (!plain && unlikely(t->pm)) {
        uint64_t st[5] = { f, d, x, mdone, w + 1 };
        tm_profileme(t, in, addr, next_pc, st, fcause, mcause, mdone - x);
    }
    t->prev_d = d; t->prev_x = x; t->prev_m = m; t->prev_w = w;
    t->cycles = w + 1;
}

static __attribute__((noinline)) void general_5(timing_t *t, const insn_t *in, uint64_t addr,
                                                uint64_t next_pc)
{
    general_5_body(t, in, addr, next_pc, false);
}

static __attribute__((noinline)) void general_5_plain(timing_t *t, const insn_t *in,
                                                      uint64_t addr, uint64_t next_pc)
{
    general_5_body(t, in, addr, next_pc, true);
}

/* The quick paths of time_inorder5, each out of line, so that the model's
 * entry only chooses and jumps: with the quick path of the instructions
 * that do not access memory inlined into it, the entry saved and restored
 * six registers for every instruction.  A load's or store's D-cache access
 * is inlined into its own, and branches and jumps have theirs (the others
 * then call no predictor).  Each asks quick_5_takes and jumps to its
 * `_same` body or its `_new` one, which fetches, before either saves a
 * register (`mem`, `xfer` and `heads` constants). */
#define QUICK_5_FN(name, heads, mem, xfer)                                                    \
    static __attribute__((noinline)) void name##_new(timing_t *t, const insn_t *in,          \
                                                     uint64_t addr, uint64_t next_pc)        \
    {                                                                                        \
        quick_5(t, in, addr, next_pc, heads, mem, xfer, true);                               \
    }                                                                                        \
    static __attribute__((noinline)) void name##_same(timing_t *t, const insn_t *in,         \
                                                      uint64_t addr, uint64_t next_pc)       \
    {                                                                                        \
        quick_5(t, in, addr, next_pc, heads, mem, xfer, false);                              \
    }                                                                                        \
    static void name(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)         \
    {                                                                                        \
        if (likely(quick_5_takes(t, in))) name##_same(t, in, addr, next_pc);                 \
        else name##_new(t, in, addr, next_pc);                                               \
    }
QUICK_5_FN(quick_5_alu, HEADS_NONE, false, false)
QUICK_5_FN(quick_5_alu_heads, HEADS_ANY, false, false)
QUICK_5_FN(quick_5_alu_flat, HEADS_FLAT, false, false)
QUICK_5_FN(quick_5_mem, HEADS_NONE, true, false)
QUICK_5_FN(quick_5_mem_heads, HEADS_ANY, true, false)
QUICK_5_FN(quick_5_mem_flat, HEADS_FLAT, true, false)
QUICK_5_FN(quick_5_xfer, HEADS_NONE, false, true)
QUICK_5_FN(quick_5_xfer_heads, HEADS_ANY, false, true)
QUICK_5_FN(quick_5_xfer_flat, HEADS_FLAT, false, true)
#undef QUICK_5_FN

/* quick_5 of a load from the line fetched last whose head is more than
 * a cycle, from its head on (as quick_5_alu_slow): its D-cache hit is
 * done (mdone), the rest is worked out again from the state. */
static inline __attribute__((always_inline)) void
quick_5_load_slow_as(timing_t *t, const insn_t *in, uint64_t x, uint64_t mdone, const bool flat)
{
    uint64_t f = max2(t->prev_d, t->redirect);
    uint64_t d = max2(max2(f + t->p.l1i_hit, t->fetch_ready), t->prev_x);
    uint64_t ops = tm_operands_cycle(t, in);
    uint64_t m = max2(x + 1, t->prev_w);
    uint64_t w = max2(mdone, t->prev_w + 1);
    (flat ? head_5_flat : head_5)(t, in, x - t->prev_x, x, d, ops, REG_NONE, 0, STALL_NONE,
                                  t->redirect > t->prev_d);
    quick_5_result(t, in, x, x + 1, m, mdone, w, STALL_NONE, false);
    quick_5_stages(t, d, x, m, w);
}

static __attribute__((noinline)) void quick_5_load_slow(timing_t *t, const insn_t *in, uint64_t x,
                                                        uint64_t mdone)
{
    quick_5_load_slow_as(t, in, x, mdone, false);
}

/* The same of a TK_FLAT instruction (HEADS_FLAT: head_5_flat). */
static __attribute__((noinline)) void quick_5_load_slow_flat(timing_t *t, const insn_t *in,
                                                             uint64_t x, uint64_t mdone)
{
    quick_5_load_slow_as(t, in, x, mdone, true);
}

/* The quick path of a load (TK_5_LOAD: no store, branch or jump) from
 * the line fetched last whose D-cache access is a hit with no call
 * (quick_load_way), with no frame: it calls nothing on its way (a head of
 * more than a cycle goes on in quick_5_load_slow, the heads' record last,
 * where its rare calls are tail jumps) and hands any other load to
 * quick_5_mem_same (`full`) before it changes anything. */
static inline __attribute__((always_inline)) void
quick_5_load_leaf(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc, const int heads,
                  timing_insn_fn full)
{
    way_t *way = quick_load_way(t, addr);
    if (unlikely(!way)) {
        full(t, in, addr, next_pc);
        return;
    }
    __asm__ volatile("" ::: "memory");
    uint64_t f = max2(t->prev_d, t->redirect);
    uint64_t d = max2(max2(f + t->p.l1i_hit, t->fetch_ready), t->prev_x);
    uint64_t ops = tm_operands_cycle(t, in);
    uint64_t x = max2(max2(d + 1, t->prev_m), ops);
    uint64_t m = max2(x + 1, t->prev_w);
    if (unlikely(!quick_load_ready(t, way, m))) {
        full(t, in, addr, next_pc);
        return;
    }
    uint64_t mdone = max2(m + 1, quick_load_hit(t, addr, way, m));
    uint64_t head = x - t->prev_x;
    if (head > 1) {
        (heads == HEADS_FLAT ? quick_5_load_slow_flat : quick_5_load_slow)(t, in, x, mdone);
        return;
    }
    uint64_t w = max2(mdone, t->prev_w + 1);
    quick_5_result(t, in, x, x + 1, m, mdone, w, STALL_NONE, false);
    quick_5_stages(t, d, x, m, w);
    t->head_sum += head;
    if (heads) quick_record_last(t, in, head, heads);
}

/* A model's load entry: its leaf when the load is in the fetch block (or
 * line) of the one before (`takes`), else the memory path's new-block entry;
 * for inorder5 here and ev5 below. */
#define QUICK_LOAD_FN(name, heads, mem_name, takes, leaf)                                     \
    static __attribute__((noinline)) void name##_same(timing_t *t, const insn_t *in,         \
                                                      uint64_t addr, uint64_t next_pc)       \
    {                                                                                        \
        leaf(t, in, addr, next_pc, heads, mem_name##_same);                                  \
    }                                                                                        \
    static void name(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)         \
    {                                                                                        \
        if (likely(takes(t, in))) name##_same(t, in, addr, next_pc);                         \
        else mem_name##_new(t, in, addr, next_pc);                                           \
    }
QUICK_LOAD_FN(quick_5_load, HEADS_NONE, quick_5_mem, quick_5_takes, quick_5_load_leaf)
QUICK_LOAD_FN(quick_5_load_heads, HEADS_ANY, quick_5_mem_heads, quick_5_takes, quick_5_load_leaf)
QUICK_LOAD_FN(quick_5_load_flat, HEADS_FLAT, quick_5_mem_flat, quick_5_takes, quick_5_load_leaf)

/* ---- what the entries test, once an instruction (insn_t.tkind) ---------------- */

/* ev5's pipes (used here for its quick kinds) */
enum { PIPE_INT, PIPE_FADD, PIPE_FMUL, PIPE_MEM };

/* The pipe of each operation class that is not a memory access (those
 * go to PIPE_MEM whatever their class): a table, read once an instruction. */
static const uint8_t pipe_of_class[OC_COUNT] = {
    [OC_FMUL] = PIPE_FMUL, [OC_FDIV] = PIPE_FMUL, [OC_FSQRT] = PIPE_FMUL,
    [OC_FALU] = PIPE_FADD, [OC_FCVT] = PIPE_FADD, [OC_FMOVE] = PIPE_FADD,
};


/* insn_t.tkind: the quick kinds of both models, worked out from the
 * instruction's flags and operation class the first time it is timed
 * (classify_tkind), so the entries read one byte instead of asking
 * tm_quick_kind and the flags again every time.  0: not yet. */
enum {
    TK_EV5_MASK = 7,               /* ev5: which quick path, if any      */
    TK_EV5_GENERAL = 1, TK_EV5_ALU = 2, TK_EV5_MEM = 3, TK_EV5_XFER = 4,
    TK_EV5_FALU = 5,               /* ALU: on an integer pipe; FALU: another */
    TK_EV5_LOAD = 6,               /* a load (no store or transfer): MEM's leaf */
    TK_5_MASK = 7 << 3,            /* inorder5: which quick path, if any */
    TK_5_GENERAL = 1 << 3, TK_5_ALU = 2 << 3, TK_5_MEM = 3 << 3, TK_5_XFER = 4 << 3,
    TK_5_LOAD = 5 << 3,            /* a load (no store or transfer): MEM's leaf */
    TK_FLAT = 1 << 6,              /* its pc has its heads' record in the flat
                                      store of the run that classified it (one
                                      that keeps the heads): the quick paths
                                      record it without the range's compare
                                      (tm_record_head_flat) */
    TK_INDEXES = 128,              /* every record is below: the entries'
                                      tables (ev5_by_kind, i5_by_kind)  */
};

_Static_assert((TK_EV5_MASK | TK_5_MASK | TK_FLAT) < TK_INDEXES,
               "a record indexes the entries' tables");

/* What ev5's quick paths leave to the general one (quick_ev5): of those
 * with no memory access, of loads and stores, and of branches and jumps
 * (which must also be IF_BRANCH or IF_JUMP). */
#define EV5_NOT_QUICK (IF_LOAD | IF_STORE | IF_TRANSFER | IF_DISE)
#define EV5_NOT_QUICK_MEM (IF_TRANSFER | IF_DISE)
#define EV5_NOT_QUICK_XFER (IF_LOAD | IF_STORE | IF_DISE)

/* The record of `in` (a pure function of its flags and operation class):
 * inorder5 times an instruction with no divider and not DISE's on its
 * quick path (loads and stores on their own); ev5 one with no divider,
 * not DISE's, that is a memory access, a branch or jump, or neither. */
/* A load that is nothing else (the load quick paths' leaves): not a
 * store too, no branch or jump. */
static inline bool is_plain_load(const insn_t *in)
{
    return (in->flags & (IF_LOAD | IF_STORE | IF_TRANSFER | IF_BRANCH | IF_JUMP)) == IF_LOAD;
}

static unsigned tkind_of(const insn_t *in)
{
    unsigned k5 = !tm_quick_kind(in, IF_DISE) ? TK_5_GENERAL
                : is_plain_load(in) ? TK_5_LOAD
                : in->flags & (IF_LOAD | IF_STORE) ? TK_5_MEM
                : in->flags & (IF_BRANCH | IF_JUMP) ? TK_5_XFER : TK_5_ALU;
    unsigned kev5 = tm_quick_kind(in, EV5_NOT_QUICK)
                      ? (pipe_of_class[in->opclass] == PIPE_INT ? TK_EV5_ALU : TK_EV5_FALU)
                  : tm_quick_kind(in, EV5_NOT_QUICK_MEM) ? (is_plain_load(in) ? TK_EV5_LOAD
                                                                              : TK_EV5_MEM)
                  : tm_quick_kind(in, EV5_NOT_QUICK_XFER) && (in->flags & (IF_BRANCH | IF_JUMP))
                      ? TK_EV5_XFER : TK_EV5_GENERAL;
    return k5 | kev5;
}

/* Write the record into the decoded instruction (the semantics write
 * their counts there too: the record is the simulator's, not the
 * guest's).  `heads`: of a run that keeps the heads, which marks a pc of
 * its flat store (TK_FLAT).  That store's range is set before the first
 * record and never changes (timing.c: make_flat), a decoded slot's pc
 * never changes while its record is set (a slot decoded anew has none), and
 * one run times a memory's slots; the plain entries ignore the mark.  A
 * marked pc is noted as seen here (tm_mark_seen), just before its first
 * record, if no record came first: its quick paths' records then need no
 * test (tm_record_head_flat). */
static __attribute__((noinline, cold)) void classify_tkind(timing_t *t, const insn_t *in,
                                                           const bool heads)
{
    unsigned flat = 0;
    if (heads && tm_in_flat(t, in->pc)) {   /* its first record comes next, if it is the pc's */
        tm_mark_seen(t, in->pc);
        flat = TK_FLAT;
    }
    ((insn_t *)in)->tkind = (uint8_t)(tkind_of(in) | flat);
}

/* ---- the five-stage pipeline's entries ----------------------------------------- */


/* The first time an instruction is timed: its record, then the entry. */
static __attribute__((noinline, cold)) void first_5(timing_t *t, const insn_t *in, uint64_t addr,
                                                    uint64_t next_pc)
{
    classify_tkind(t, in, false);
    time_inorder5(t, in, addr, next_pc);
}

static __attribute__((noinline, cold)) void first_5_heads(timing_t *t, const insn_t *in,
                                                          uint64_t addr, uint64_t next_pc)
{
    classify_tkind(t, in, true);
    time_inorder5_heads(t, in, addr, next_pc);
}

/* What the entry of a plain instruction jumps to in a configuration with
 * no forwarding gap, by its whole record (insn_t.tkind: inorder5's part is
 * bits 3 to 5), as ev5_by_kind; [heads]. */
#define I5_ROW(f) f, f, f, f, f, f, f, f
#define I5_ROWS(first, general, alu, mem, xfer, load)                                 \
    I5_ROW(first), I5_ROW(general), I5_ROW(alu), I5_ROW(mem), I5_ROW(xfer),           \
    I5_ROW(load), I5_ROW(general), I5_ROW(general)
#define I5_PLAIN I5_ROWS(first_5, general_5_plain, quick_5_alu, quick_5_mem, quick_5_xfer, \
                         quick_5_load)
static const timing_insn_fn i5_by_kind[2][TK_INDEXES] = {
    { I5_PLAIN, I5_PLAIN },                 /* TK_FLAT or not */
    { I5_ROWS(first_5_heads, general_5_plain, quick_5_alu_heads, quick_5_mem_heads,
              quick_5_xfer_heads, quick_5_load_heads),
      I5_ROWS(first_5_heads, general_5_plain, quick_5_alu_flat, quick_5_mem_flat,
              quick_5_xfer_flat, quick_5_load_flat) },
};
#undef I5_PLAIN
#undef I5_ROWS
#undef I5_ROW

/* A configuration with a forwarding gap, which the quick paths leave out:
 * every plain instruction takes the general path. */
static __attribute__((noinline)) void gap_5(timing_t *t, const insn_t *in, uint64_t addr,
                                            uint64_t next_pc, const bool heads)
{
    if (unlikely(in->tkind == 0)) (heads ? first_5_heads : first_5)(t, in, addr, next_pc);
    else general_5_plain(t, in, addr, next_pc);
}

/* The entry of either variant (`heads`, a constant): it only chooses and
 * jumps.  A plain instruction goes where its record says (i5_by_kind): one
 * of a quick kind to its quick path, which asks quick_5_takes.  `known` (a
 * constant): of a run whose every instruction is plain
 * (time_inorder5_plain), which need not ask. */
static inline __attribute__((always_inline)) void
entry_5(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc, const bool heads,
        const bool known)
{
    if (!known && !tm_plain_insn(t, in)) {
        general_5(t, in, addr, next_pc);
        return;
    }
    if (unlikely(t->p.fwd_gap)) {
        gap_5(t, in, addr, next_pc, heads);
        return;
    }
    i5_by_kind[heads][in->tkind](t, in, addr, next_pc);
}

void time_inorder5(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)
{
    entry_5(t, in, addr, next_pc, false, false);
}

/* time_inorder5 of a run that keeps the heads' ground truth (note_outputs). */
void time_inorder5_heads(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)
{
    entry_5(t, in, addr, next_pc, true, false);
}

/* Both again, of plain instructions only (timing_block_insn). */
void time_inorder5_plain(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)
{
    entry_5(t, in, addr, next_pc, false, true);
}

void time_inorder5_plain_heads(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)
{
    entry_5(t, in, addr, next_pc, true, true);
}

/* ---- the 21164-like superscalar ------------------------------------------------ */

static const char *const ev5_stage_names[5] = { "F", "S", "I", "X", "W" };

static inline unsigned pipe_of(const insn_t *in)
{
    return in->flags & (IF_LOAD | IF_STORE) ? PIPE_MEM : pipe_of_class[in->opclass];
}

/* What an instruction for each pipe adds to its issue group (GRP_* lanes,
 * timing_model.h), and the lanes that must not then exceed the group's
 * room: the instructions, the pipe's own, and the closed lane (room 0). */
static const uint64_t pipe_use[4] = {
    [PIPE_INT]  = GRP_LANE(GRP_N, 1) | GRP_LANE(GRP_INT, 1),
    [PIPE_MEM]  = GRP_LANE(GRP_N, 1) | GRP_LANE(GRP_INT, 1) | GRP_LANE(GRP_MEM, 1),
    [PIPE_FADD] = GRP_LANE(GRP_N, 1) | GRP_LANE(GRP_FADD, 1) | GRP_LANE(GRP_FP, 1),
    [PIPE_FMUL] = GRP_LANE(GRP_N, 1) | GRP_LANE(GRP_FMUL, 1) | GRP_LANE(GRP_FP, 1),
};
#define LANE_TOP(lane) GRP_LANE(lane, 0x80)
static const uint64_t pipe_checks[4] = {
    [PIPE_INT]  = LANE_TOP(GRP_N) | LANE_TOP(GRP_CLOSED) | LANE_TOP(GRP_INT),
    [PIPE_MEM]  = LANE_TOP(GRP_N) | LANE_TOP(GRP_CLOSED) | LANE_TOP(GRP_INT) | LANE_TOP(GRP_MEM),
    [PIPE_FADD] = LANE_TOP(GRP_N) | LANE_TOP(GRP_CLOSED) | LANE_TOP(GRP_FADD) | LANE_TOP(GRP_FP),
    [PIPE_FMUL] = LANE_TOP(GRP_N) | LANE_TOP(GRP_CLOSED) | LANE_TOP(GRP_FMUL) | LANE_TOP(GRP_FP),
};

/* Does an instruction for `pipe` fit the issue group of cycle e?  A group
 * that is not closed, has fewer than `width` instructions, comes from the
 * same fetch block (slotting) and has room in the pipe's lanes: in each
 * lane checked, room + 0x80 - (held + added) keeps its top bit exactly
 * when held + added <= room (the lanes hold at most 9: no borrow). */
static inline bool fits_group(const timing_t *t, unsigned pipe, uint64_t e, uint64_t block)
{
    if (e != t->group_cycle) return true;
    if (t->p.slotting && block != t->group_block) return false;
    uint64_t checks = pipe_checks[pipe];
    return ((t->p.group_room - (t->group_use + pipe_use[pipe])) & checks) == checks;
}

/* The first cycle from e whose issue group takes the instruction (a full
 * or closed group only holds it to the next cycle). */
static inline uint64_t group_slot(const timing_t *t, unsigned pipe, uint64_t e, uint64_t block)
{
    return fits_group(t, pipe, e, block) ? e : e + 1;
}

/* A branch or jump ends its group. */
static inline void close_group(timing_t *t) { t->group_use |= GRP_LANE(GRP_CLOSED, 1); }

/* `xfer`: XFER_ASK (the flags say), XFER_NO or XFER_YES (constants of
 * the quick paths, whose kind settles it). */
enum { XFER_ASK, XFER_NO, XFER_YES };

static inline __attribute__((always_inline)) void
join_group(timing_t *t, const insn_t *in, unsigned pipe, uint64_t e, uint64_t block, const int xfer)
{
    if (e != t->group_cycle) {
        t->group_cycle = e;
        t->group_use = 0;
        t->group_block = block;
    }
    t->group_use += pipe_use[pipe];           /* 21164: mem ops use an E pipe */
    if (xfer == XFER_YES || (xfer == XFER_ASK && (in->flags & (IF_BRANCH | IF_JUMP))))
        close_group(t);
}

/* The issue-queue ring's slot of the instruction being timed, seq %
 * iq_entries: seq's low bits when iq_entries is a power of two, else one
 * step on from the last one's when seq moved by one. */
static inline unsigned iq_slot(timing_t *t)
{
    if (likely(t->iq_pow2)) return (unsigned)(t->seq & t->iq_mask);
    if (t->seq != t->iq_seq) {
        unsigned next = t->iq_pos + 1 == t->p.iq_entries ? 0 : t->iq_pos + 1;
        t->iq_pos = t->seq == t->iq_seq + 1 ? next : (unsigned)(t->seq % t->p.iq_entries);
        t->iq_seq = t->seq;
    }
    return t->iq_pos;
}

/* The fetch block of pc: aligned blocks of `width` 4-byte slots. */
static inline uint64_t block_of(const timing_t *t, uint64_t pc)
{
    return t->p.block_shift ? pc >> t->p.block_shift : pc / (4ull * t->p.width);
}

/* No fetch block: the next instruction's block is fetched anew. */
#define NO_BLOCK (~0ull)

/* timing_t.block_front of a block that waited for a redirect: its why is
 * redirect_why, read only by the block's first instruction, which no
 * transfer has changed yet (its own comes after its head), so a word is
 * written each block instead of a why_t copied. */
#define BLOCK_REDIRECTED STALL_COUNT

/* Why the block fetched last came late (block_front), for its first
 * instruction, before its own transfer. */
static inline why_t ev5_front(const timing_t *t)
{
    return t->block_front == BLOCK_REDIRECTED ? t->redirect_why
                                              : (why_t){ .cause = t->block_front };
}

/* Fetch the instruction's block, one block a cycle, bounded by issue-queue
 * space: the cycle it arrives.  It is fetched when it is not the block
 * fetched last, or when a taken transfer or a redirect made fetch start
 * anew (the transfer set fetch_block to NO_BLOCK: time_ev5's end).
 * block_front: why it came late (a redirect, the I-cache: ev5_front). */
static inline __attribute__((always_inline)) uint64_t
ev5_fetch_block(timing_t *t, uint64_t pc, unsigned slot, uint64_t block)
{
    uint64_t space = t->iq_ring[slot];
    uint64_t f = max2(max2(t->fetch_block_cycle + 1, t->redirect), space);
    uint64_t front = STALL_NONE;
    if (t->redirect > t->fetch_block_cycle + 1 && t->redirect >= space) front = BLOCK_REDIRECTED;
    uint8_t icause;
    uint64_t arrive = tm_fetch_bytes(t, pc, f, &icause) - t->p.l1i_hit;
    if (icause != STALL_NONE) front = icause;
    t->block_front = front;
    t->fetch_block = block;
    t->block_fetch_start = f;
    return arrive;
}

/* A load or store issued at *e accesses the D-cache (a store: the write
 * buffer) in that cycle.  Returns the cycle its result can be used: a
 * load's dependents wait for the data, and at least lat.load_use; a store
 * that finds the write buffer full stays at the head until an entry frees
 * (*e moves there). */
static inline __attribute__((always_inline)) uint64_t
ev5_memory(timing_t *t, const insn_t *in, uint64_t addr, uint64_t *e,
           uint64_t block, uint8_t *mcause)
{
    uint64_t done = tm_data_access_inline(t, in, addr, *e, mcause);
    if (in->flags & IF_LOAD) return max2(done, *e + t->p.lat[OC_LOAD]);
    if (*mcause == STALL_WBUF) *e = group_slot(t, PIPE_MEM, done - 1, block);
    return *e + t->p.lat[in->opclass];
}

/* A branch or jump issued at e, of a block fetched at `fetched`: predicted
 * and trained.  A mispredicted target is fetched so that it issues 1 +
 * penalty cycles after the branch; a taken branch without a BTB target is
 * redirected when its block is decoded, one cycle after the fetch, so the
 * target block is fetched a cycle late.  A taken transfer fetches its
 * target block anew, even the same one (a loop within a block), and so
 * does a redirect: the next instruction's fetch sees fetch_block_cycle as
 * it is now, which only grows. */
static inline __attribute__((always_inline)) void
ev5_transfer(timing_t *t, const insn_t *in, uint64_t next_pc, uint64_t fetched, uint64_t e)
{
    uint64_t resolved = e + 1 + t->p.mispredict_penalty - t->p.frontend_depth;
    uint64_t r = tm_predict_control(t, in, next_pc, fetched + 2, resolved);
    t->redirect = r;
    if (r) close_group(t);
    if (next_pc != in->pc + in->len || r > fetched) t->fetch_block = NO_BLOCK;
}

/* Head-of-queue accounting of an instruction issuing at e whose head needs
 * a why (tm_head_needs_why; see head_5): a store held by a full write
 * buffer, a dependency, a full or closed issue group (slotting), a busy
 * divider, else the front end (why its block came late, when it is the
 * first of a block fetched anew). */
static inline __attribute__((always_inline)) void
head_ev5_as(timing_t *t, const insn_t *in, uint64_t head, uint64_t e, uint64_t arrive,
            uint64_t ops, uint64_t dfree, bool slotted, uint8_t mcause, bool new_block,
            const bool flat)
{
    why_t why = new_block ? ev5_front(t) : (why_t){ .cause = STALL_NONE };
    if (mcause == STALL_WBUF && in->flags & IF_STORE)
        why = (why_t){ .cause = STALL_WBUF };
    else if (e == ops && ops > arrive && ops > t->prev_issue && !slotted)
        why = tm_operand_why(t, in, ops);
    else if (slotted)
        why = (why_t){ .cause = STALL_SLOT };
    else if (e == dfree && dfree > arrive)
        why = tm_divider_why(t, tm_divider_of(in));
    else if (why.cause == STALL_NONE)
        why.cause = STALL_FETCH;
    if (flat) tm_record_head_flat_why(t, in, head, why);
    else tm_record_head(t, in, head, why);
}

static __attribute__((noinline)) void head_ev5(timing_t *t, const insn_t *in, uint64_t head,
                                               uint64_t e, uint64_t arrive, uint64_t ops,
                                               uint64_t dfree, bool slotted, uint8_t mcause,
                                               bool new_block)
{
    head_ev5_as(t, in, head, e, arrive, ops, dfree, slotted, mcause, new_block, false);
}

/* head_ev5 of a quick path's TK_FLAT instruction (HEADS_FLAT): its record
 * without the flat store's compare and the run's tests. */
static __attribute__((noinline)) void head_ev5_flat(timing_t *t, const insn_t *in, uint64_t head,
                                                    uint64_t e, uint64_t arrive, uint64_t ops,
                                                    uint64_t dfree, bool slotted, uint8_t mcause,
                                                    bool new_block)
{
    head_ev5_as(t, in, head, e, arrive, ops, dfree, slotted, mcause, new_block, true);
}

/* Does the quick path of time_ev5 (quick_ev5) take a plain program
 * instruction of a quick kind (insn_t.tkind: no divider or output but the
 * head) without fetching: is it in the fetch block of the instruction
 * before?  Asked by the model's entry, before it jumps to the quick path
 * that fetches the block or the one that does not. */
static inline bool quick_ev5_takes(const timing_t *t, const insn_t *in)
{
    return in->pc >> t->p.block_shift == t->fetch_block;   /* plain: a shift; the
                                                               first one never passes */
}

/* The end of quick_ev5: the issue queue's slot and the cycles. */
static inline __attribute__((always_inline)) void quick_ev5_retire(timing_t *t, uint64_t e,
                                                                   uint64_t complete)
{
    uint64_t retire = max2(complete, t->prev_retire) + 1;
    t->iq_ring[t->seq & t->iq_mask] = e;
    t->prev_issue = e;
    t->prev_retire = retire - 1;
    t->cycles = retire;
}

/* quick_ev5 of an instruction with no memory access or transfer from its
 * head on, when the head is more than a cycle (head_ev5): what the head's
 * why needs is worked out again from the state, which nothing has changed
 * since (the operands, the fetch block, the last issue), so that the quick
 * path hands over four values and calls nothing on its own way, and keeps
 * no frame.  `newblk`: as quick_ev5's. */
static inline __attribute__((always_inline)) void
quick_ev5_alu_slow_as(timing_t *t, const insn_t *in, uint64_t e, uint64_t complete,
                      const bool newblk, const bool flat)
{
    uint64_t arrive = t->fetch_block_cycle + t->p.frontend_depth;
    uint64_t ops = tm_operands_cycle(t, in);
    uint64_t ready = max2(max2(arrive, t->prev_issue), ops);
    uint64_t head = newblk && t->seq == 0 ? e + 1 : e - t->prev_issue;
    (flat ? head_ev5_flat : head_ev5)(t, in, head, e, arrive, ops, 0, e > ready, STALL_NONE,
                                      newblk);
    quick_set_result(t, in, complete, STALL_DEP);
    quick_ev5_retire(t, e, complete);
}

static __attribute__((noinline)) void quick_ev5_alu_slow(timing_t *t, const insn_t *in,
                                                         uint64_t e, uint64_t complete,
                                                         const bool newblk)
{
    quick_ev5_alu_slow_as(t, in, e, complete, newblk, false);
}

/* The same of a TK_FLAT instruction (HEADS_FLAT: head_ev5_flat). */
static __attribute__((noinline)) void quick_ev5_alu_slow_flat(timing_t *t, const insn_t *in,
                                                              uint64_t e, uint64_t complete,
                                                              const bool newblk)
{
    quick_ev5_alu_slow_as(t, in, e, complete, newblk, true);
}

/* The quick path of time_ev5, of a plain instruction of a quick kind:
 * what the general path does for it, without asking what cannot apply.
 * `mem` (a constant): of a load or store; `xfer` (a constant): of a branch
 * or jump (TK_EV5_XFER), predicted at its fetch block's cycle as the
 * general path does; else of an instruction with no memory access or
 * transfer.  `newblk` (a constant): of the first of a block fetched anew
 * (quick_ev5_takes it not), which fetches it as the general path does.
 * `falu` (a constant): of one with no memory access or transfer whose
 * class goes to a floating-point pipe (TK_EV5_FALU), which its class
 * names; without it, the integer pipe.
 * Inlined into the quick paths of both variants (heads). */
static inline __attribute__((always_inline)) void
quick_ev5(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc, const int heads,
          const bool mem, const bool xfer, const bool newblk, const bool falu)
{
    uint64_t block, fetched;
    if (newblk) {                              /* as the general path fetches it */
        block = in->pc >> t->p.block_shift;
        fetched = ev5_fetch_block(t, in->pc, (unsigned)(t->seq & t->iq_mask), block);
        t->fetch_block_cycle = fetched;
    } else {
        block = t->fetch_block;
        fetched = t->fetch_block_cycle;
    }
    uint8_t mcause = STALL_NONE;
    uint64_t arrive = fetched + t->p.frontend_depth;
    uint64_t ops = tm_operands_cycle(t, in);
    uint64_t ready = max2(max2(arrive, t->prev_issue), ops);
    unsigned pipe = mem ? PIPE_MEM : falu ? pipe_of_class[in->opclass] : PIPE_INT;
    uint64_t e = group_slot(t, pipe, ready, block);
    bool slotted = e > ready;
    uint64_t complete = mem ? ev5_memory(t, in, addr, &e, block, &mcause)
                            : e + t->p.lat[in->opclass];
    join_group(t, in, pipe, e, block, xfer ? XFER_YES : XFER_NO);   /* no quick kind but
                                                                       xfer transfers */
    uint64_t head = newblk && t->seq == 0 ? e + 1 : e - t->prev_issue;
    if (head > 1) {
        if (!mem && !xfer) {                   /* out of line, so the rest calls nothing */
            (heads == HEADS_FLAT ? quick_ev5_alu_slow_flat : quick_ev5_alu_slow)(t, in, e, complete,
                                                                                 newblk);
            return;
        }
        (heads == HEADS_FLAT ? head_ev5_flat : head_ev5)(t, in, head, e, arrive, ops, 0, slotted,
                                                         mcause, newblk);
    } else {
        quick_short_head(t, in, head, mem || xfer ? heads : HEADS_NONE);
    }
    quick_set_result(t, in, complete,
                     mcause == STALL_DCACHE || mcause == STALL_DTLB ? mcause : STALL_DEP);
    if (xfer) ev5_transfer(t, in, next_pc, fetched, e);
    quick_ev5_retire(t, e, complete);
    if (heads && !mem && !xfer && head <= 1) quick_record_last(t, in, head, heads);
}

/* The general path of time_ev5; `heads` (a constant): of time_ev5_heads,
 * which records a short head's ground truth inline; `plain` (a constant):
 * of a plain instruction (tm_plain_insn), which leaves out what cannot
 * apply to it (DISE, views, ProfileMe, an issue queue or fetch block that
 * is not a power of two). */
static inline __attribute__((always_inline)) void
general_ev5_body(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc, const bool heads,
                 const bool plain)
{
    uint8_t mcause = STALL_NONE;
    unsigned slot = plain ? (unsigned)(t->seq & t->iq_mask) : iq_slot(t);   /* seq does not
                                                                      change in here */
    uint64_t block = plain ? in->pc >> t->p.block_shift : block_of(t, in->pc);
    bool new_block = block != t->fetch_block;
    uint64_t fetched = new_block ? ev5_fetch_block(t, in->pc, slot, block) : t->fetch_block_cycle;
    if (!plain) fetched += t->front_penalty;  /* DISE decode stall */
    t->fetch_block_cycle = fetched;
    uint64_t arrive = fetched + t->p.frontend_depth;
    uint64_t ops = tm_operands_cycle(t, in);
    int dv = tm_divider_of(in);
    uint64_t dfree = tm_divider_free(t, dv);
    uint64_t ready = max2(max2(arrive, t->prev_issue), max2(ops, dfree));
    unsigned pipe = pipe_of(in);
    uint64_t e = group_slot(t, pipe, ready, block);
    bool slotted = e > ready;

    uint64_t complete = e + t->p.lat[in->opclass];
    if (in->flags & (IF_LOAD | IF_STORE)) complete = ev5_memory(t, in, addr, &e, block, &mcause);
    join_group(t, in, pipe, e, block, XFER_ASK);
    uint64_t head = t->seq == 0 ? e + 1 : e - t->prev_issue;
    if (plain ? head > 1 : tm_head_needs_why(t, head))
        head_ev5(t, in, head, e, arrive, ops, dfree, slotted, mcause, new_block);
    else if (heads || plain)
        quick_short_head(t, in, head, heads);
    else
        tm_record_short_head(t, in, head);
    tm_use_divider(t, in, dv, complete);
    tm_set_result(t, in, complete,
                  mcause == STALL_DCACHE || mcause == STALL_DTLB ? mcause : STALL_DEP);
    uint8_t fcause = new_block ? (uint8_t)ev5_front(t).cause : STALL_NONE;   /* ProfileMe's,
                                                                    before the transfer */
    if (!plain && unlikely(in->flags & IF_DISE)) {
        tm_dise_control(t, in, fetched + 2, e + 1 + t->p.mispredict_penalty - t->p.frontend_depth);
        if (t->dise_redirect) close_group(t);
        if (t->redirect > fetched) t->fetch_block = NO_BLOCK;
    } else if (in->flags & (IF_BRANCH | IF_JUMP)) {
        ev5_transfer(t, in, next_pc, fetched, e);
    }
    uint64_t retire = max2(complete, t->prev_retire) + 1;
    if (!plain && unlikely(t->views)) {
        uint64_t st[5] = { t->block_fetch_start, fetched, e, e + 1, retire - 1 };
        if (st[1] < st[0]) st[1] = st[0];
        tm_view_insn(t, in, ev5_stage_names, st, retire);
    }
    if (!plain && unlikely(t->pm)) {
        uint64_t st[5] = { t->block_fetch_start, max2(fetched, t->block_fetch_start), e,
                           complete, retire };
        tm_profileme(t, in, addr, next_pc, st, fcause,
                     mcause, complete - e);
    }
    t->iq_ring[slot] = e;
    t->prev_issue = e;
    t->prev_retire = retire - 1;
    t->cycles = retire;
}

static __attribute__((noinline)) void general_ev5(timing_t *t, const insn_t *in, uint64_t addr,
                                                  uint64_t next_pc)
{
    general_ev5_body(t, in, addr, next_pc, false, false);
}

static __attribute__((noinline)) void general_ev5_heads(timing_t *t, const insn_t *in,
                                                        uint64_t addr, uint64_t next_pc)
{
    general_ev5_body(t, in, addr, next_pc, true, false);
}

static __attribute__((noinline)) void general_ev5_plain(timing_t *t, const insn_t *in,
                                                        uint64_t addr, uint64_t next_pc)
{
    general_ev5_body(t, in, addr, next_pc, false, true);
}

static __attribute__((noinline)) void general_ev5_plain_heads(timing_t *t, const insn_t *in,
                                                              uint64_t addr, uint64_t next_pc)
{
    general_ev5_body(t, in, addr, next_pc, true, true);
}

/* The quick paths of time_ev5, each out of line, so that the model's entry
 * only chooses and jumps (see quick_5_alu), with the entry's arguments
 * (the jump moves none): of the instructions with no memory access, of
 * loads and stores with their D-cache access inlined, and of branches and
 * jumps, which are predicted and trained there.  Each asks whether the
 * instruction is in the fetch block of the one before (quick_ev5_takes)
 * and jumps to its `_same` body or, for the first of a block fetched anew,
 * to `entry_new` (its `_new` one; the integer pipe's leaf that takes a
 * fetch with no call first, quick_ev5_alu_new_leaf), before either saves a
 * register (`mem`, `xfer` and `heads` constants). */
static void quick_ev5_alu_new_leaf_plain(timing_t *t, const insn_t *in, uint64_t addr,
                                         uint64_t next_pc);
static void quick_ev5_alu_new_leaf_heads(timing_t *t, const insn_t *in, uint64_t addr,
                                         uint64_t next_pc);
static void quick_ev5_alu_new_leaf_flat(timing_t *t, const insn_t *in, uint64_t addr,
                                        uint64_t next_pc);
#define QUICK_EV5_FN(name, heads, mem, xfer, falu, entry_new)                                 \
    static __attribute__((noinline)) void name##_new(timing_t *t, const insn_t *in,          \
                                                     uint64_t addr, uint64_t next_pc)        \
    {                                                                                        \
        quick_ev5(t, in, addr, next_pc, heads, mem, xfer, true, falu);                       \
    }                                                                                        \
    static __attribute__((noinline)) void name##_same(timing_t *t, const insn_t *in,         \
                                                      uint64_t addr, uint64_t next_pc)       \
    {                                                                                        \
        quick_ev5(t, in, addr, next_pc, heads, mem, xfer, false, falu);                      \
    }                                                                                        \
    static void name(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)         \
    {                                                                                        \
        if (likely(quick_ev5_takes(t, in))) name##_same(t, in, addr, next_pc);               \
        else entry_new(t, in, addr, next_pc);                                                \
    }
QUICK_EV5_FN(quick_ev5_alu, HEADS_NONE, false, false, false, quick_ev5_alu_new_leaf_plain)
QUICK_EV5_FN(quick_ev5_alu_heads, HEADS_ANY, false, false, false, quick_ev5_alu_new_leaf_heads)
QUICK_EV5_FN(quick_ev5_alu_flat, HEADS_FLAT, false, false, false, quick_ev5_alu_new_leaf_flat)
QUICK_EV5_FN(quick_ev5_falu, HEADS_NONE, false, false, true, quick_ev5_falu_new)
QUICK_EV5_FN(quick_ev5_falu_heads, HEADS_ANY, false, false, true, quick_ev5_falu_heads_new)
QUICK_EV5_FN(quick_ev5_falu_flat, HEADS_FLAT, false, false, true, quick_ev5_falu_flat_new)
QUICK_EV5_FN(quick_ev5_mem, HEADS_NONE, true, false, false, quick_ev5_mem_new)
QUICK_EV5_FN(quick_ev5_mem_heads, HEADS_ANY, true, false, false, quick_ev5_mem_heads_new)
QUICK_EV5_FN(quick_ev5_mem_flat, HEADS_FLAT, true, false, false, quick_ev5_mem_flat_new)
QUICK_EV5_FN(quick_ev5_xfer, HEADS_NONE, false, true, false, quick_ev5_xfer_new)
QUICK_EV5_FN(quick_ev5_xfer_heads, HEADS_ANY, false, true, false, quick_ev5_xfer_heads_new)
QUICK_EV5_FN(quick_ev5_xfer_flat, HEADS_FLAT, false, true, false, quick_ev5_xfer_flat_new)
#undef QUICK_EV5_FN

/* The quick path of a load (TK_EV5_LOAD: no store or transfer) in the
 * fetch block of the one before whose D-cache access is a hit with no
 * call (quick_load_way), with no frame: it calls nothing on its way (a
 * head of more than a cycle goes on in quick_ev5_alu_slow, whose why a
 * hit's cause of none leaves the same; the heads' record last, where its
 * rare calls are tail jumps) and hands any other load to
 * quick_ev5_mem_same (`full`) before it changes anything. */
static inline __attribute__((always_inline)) void
quick_ev5_load_leaf(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc,
                    const int heads, timing_insn_fn full)
{
    way_t *way = quick_load_way(t, addr);
    if (unlikely(!way)) {
        full(t, in, addr, next_pc);
        return;
    }
    __asm__ volatile("" ::: "memory");
    uint64_t block = t->fetch_block;
    uint64_t arrive = t->fetch_block_cycle + t->p.frontend_depth;
    uint64_t ops = tm_operands_cycle(t, in);
    uint64_t ready = max2(max2(arrive, t->prev_issue), ops);
    uint64_t e = group_slot(t, PIPE_MEM, ready, block);
    if (unlikely(!quick_load_ready(t, way, e))) {
        full(t, in, addr, next_pc);
        return;
    }
    uint64_t complete = max2(quick_load_hit(t, addr, way, e), e + t->p.lat[OC_LOAD]);
    join_group(t, in, PIPE_MEM, e, block, XFER_NO);
    uint64_t head = e - t->prev_issue;
    if (head > 1) {
        (heads == HEADS_FLAT ? quick_ev5_alu_slow_flat : quick_ev5_alu_slow)(t, in, e, complete,
                                                                             false);
        return;
    }
    quick_set_result(t, in, complete, STALL_DEP);
    quick_ev5_retire(t, e, complete);
    t->head_sum += head;
    if (heads) quick_record_last(t, in, head, heads);
}

/* The I-cache side of ev5_fetch_block in two steps, as the loads' D-cache
 * hit (quick_load_way): may the block of pc be fetched from cycle f with
 * no call -- from the line fetched last, or a hit of the I-TLB's last used
 * entry or its hint and of the L1 I-cache, filled by f + its hit latency?
 * *way: the I-cache way, NULL for the line fetched last.  Nothing changes
 * here. */
static inline bool quick_fetch_way(const timing_t *t, uint64_t pc, uint64_t f, way_t **way)
{
    *way = NULL;
    if (pc >> t->line_shift == t->fetch_line && f >= t->fetch_ready - t->p.l1i_hit) return true;
    const tlb_t *tl = t->itlb;
    uint64_t tag = (pc >> tl->page_shift) + 1;
    if (tl->mru->tag != tag && tl->hint[tag & (TLB_HINTS - 1)]->tag != tag) return false;
    const cache_t *c = t->l1i;
    uint64_t line = pc >> c->line_shift;
    way_t *w = &c->ways[(line & c->set_mask) * c->assoc];
    for (unsigned i = 0; i < c->assoc; i++, w++)
        if (w->tag == line + 1) {
            *way = w;
            return w->ready <= f + c->hit_latency;
        }
    return false;
}

/* ... and ev5_fetch_block's changes for that fetch (tm_fetch_bytes with
 * tlb_access_inline's and cache_access_inline's hits): the cycle the
 * block arrives. */
static inline uint64_t quick_fetch_hit(timing_t *t, uint64_t pc, uint64_t block, uint64_t f,
                                       uint64_t space, way_t *way)
{
    uint64_t front = STALL_NONE;
    if (t->redirect > t->fetch_block_cycle + 1 && t->redirect >= space) front = BLOCK_REDIRECTED;
    uint64_t ready;
    if (!way) {
        ready = max2(f + t->p.l1i_hit, t->fetch_ready);
    } else {
        tlb_t *tl = t->itlb;
        cache_t *c = t->l1i;
        uint64_t tag = (pc >> tl->page_shift) + 1;
        tlb_entry_t *e = tl->mru;
        if (e->tag != tag) tl->mru = e = tl->hint[tag & (TLB_HINTS - 1)];
        tl->accesses++;
        e->stamp = ++tl->tick;
        ready = f + c->hit_latency;
        c->last_accept = ready;
        c->reads++;
        way->stamp = ++c->tick;
        c->last_hit = true;
        t->fetch_line = pc >> t->line_shift;
        t->fetch_ready = ready;
    }
    t->block_front = front;
    t->fetch_block = block;
    t->block_fetch_start = f;
    return ready - t->p.l1i_hit;
}

/* The quick path of an instruction with no memory access or transfer on
 * the integer pipe, the first of a block fetched anew whose fetch calls
 * nothing (quick_fetch_way), with no frame (as quick_ev5_load_leaf): a head
 * of more than a cycle goes on in quick_ev5_alu_slow; any other fetch
 * goes to quick_ev5_alu_new (`full`) before anything changes. */
static inline __attribute__((always_inline)) void
quick_ev5_alu_new_leaf(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc,
                       const int heads, timing_insn_fn full)
{
    uint64_t space = t->iq_ring[t->seq & t->iq_mask];
    uint64_t f = max2(max2(t->fetch_block_cycle + 1, t->redirect), space);
    way_t *way;
    if (unlikely(!quick_fetch_way(t, in->pc, f, &way))) {
        full(t, in, addr, next_pc);
        return;
    }
    __asm__ volatile("" ::: "memory");
    uint64_t block = in->pc >> t->p.block_shift;
    uint64_t fetched = quick_fetch_hit(t, in->pc, block, f, space, way);
    t->fetch_block_cycle = fetched;
    uint64_t arrive = fetched + t->p.frontend_depth;
    uint64_t ops = tm_operands_cycle(t, in);
    uint64_t ready = max2(max2(arrive, t->prev_issue), ops);
    uint64_t e = group_slot(t, PIPE_INT, ready, block);
    uint64_t complete = e + t->p.lat[in->opclass];
    join_group(t, in, PIPE_INT, e, block, XFER_NO);
    uint64_t head = t->seq == 0 ? e + 1 : e - t->prev_issue;
    if (head > 1) {
        (heads == HEADS_FLAT ? quick_ev5_alu_slow_flat : quick_ev5_alu_slow)(t, in, e, complete,
                                                                             true);
        return;
    }
    t->head_sum += head;
    quick_set_result(t, in, complete, STALL_DEP);
    quick_ev5_retire(t, e, complete);
    if (heads) quick_record_last(t, in, head, heads);
}

static __attribute__((noinline)) void quick_ev5_alu_new_leaf_plain(timing_t *t, const insn_t *in,
                                                                   uint64_t addr, uint64_t next_pc)
{
    quick_ev5_alu_new_leaf(t, in, addr, next_pc, HEADS_NONE, quick_ev5_alu_new);
}

static __attribute__((noinline)) void quick_ev5_alu_new_leaf_heads(timing_t *t, const insn_t *in,
                                                                   uint64_t addr, uint64_t next_pc)
{
    quick_ev5_alu_new_leaf(t, in, addr, next_pc, HEADS_ANY, quick_ev5_alu_heads_new);
}

static __attribute__((noinline)) void quick_ev5_alu_new_leaf_flat(timing_t *t, const insn_t *in,
                                                                  uint64_t addr, uint64_t next_pc)
{
    quick_ev5_alu_new_leaf(t, in, addr, next_pc, HEADS_FLAT, quick_ev5_alu_flat_new);
}

QUICK_LOAD_FN(quick_ev5_load, HEADS_NONE, quick_ev5_mem, quick_ev5_takes, quick_ev5_load_leaf)
QUICK_LOAD_FN(quick_ev5_load_heads, HEADS_ANY, quick_ev5_mem_heads, quick_ev5_takes,
              quick_ev5_load_leaf)
QUICK_LOAD_FN(quick_ev5_load_flat, HEADS_FLAT, quick_ev5_mem_flat, quick_ev5_takes,
              quick_ev5_load_leaf)
#undef QUICK_LOAD_FN

void time_ev5_heads(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc);

/* The first time an instruction is timed: its record, then the entry. */
static __attribute__((noinline, cold)) void first_ev5(timing_t *t, const insn_t *in,
                                                      uint64_t addr, uint64_t next_pc)
{
    classify_tkind(t, in, false);
    time_ev5(t, in, addr, next_pc);
}

static __attribute__((noinline, cold)) void first_ev5_heads(timing_t *t, const insn_t *in,
                                                            uint64_t addr, uint64_t next_pc)
{
    classify_tkind(t, in, true);
    time_ev5_heads(t, in, addr, next_pc);
}

/* What the entry of a plain instruction jumps to, by its whole record
 * (insn_t.tkind, TK_INDEXES of them: ev5's part is the low three bits): not yet
 * classified, of a general kind, or a quick path.  A table, so that the
 * entry reads the record and jumps (a chain of tests cost some 10 host
 * instructions an instruction); [heads]. */
#define EV5_ROW(first, general, alu, mem, xfer, falu, load) \
    first, general, alu, mem, xfer, falu, load, general
#define EV5_ROWS(...)                                                                    \
    EV5_ROW(__VA_ARGS__), EV5_ROW(__VA_ARGS__), EV5_ROW(__VA_ARGS__), EV5_ROW(__VA_ARGS__), \
    EV5_ROW(__VA_ARGS__), EV5_ROW(__VA_ARGS__), EV5_ROW(__VA_ARGS__), EV5_ROW(__VA_ARGS__)
#define EV5_PLAIN EV5_ROWS(first_ev5, general_ev5_plain, quick_ev5_alu, quick_ev5_mem,   \
                           quick_ev5_xfer, quick_ev5_falu, quick_ev5_load)
static const timing_insn_fn ev5_by_kind[2][TK_INDEXES] = {
    { EV5_PLAIN, EV5_PLAIN },               /* TK_FLAT or not */
    { EV5_ROWS(first_ev5_heads, general_ev5_plain_heads, quick_ev5_alu_heads,
               quick_ev5_mem_heads, quick_ev5_xfer_heads, quick_ev5_falu_heads,
               quick_ev5_load_heads),
      EV5_ROWS(first_ev5_heads, general_ev5_plain_heads, quick_ev5_alu_flat,
               quick_ev5_mem_flat, quick_ev5_xfer_flat, quick_ev5_falu_flat,
               quick_ev5_load_flat) },
};
#undef EV5_PLAIN
#undef EV5_ROWS
#undef EV5_ROW

/* The entry of either variant (`heads`, a constant): it only chooses and
 * jumps.  A plain instruction goes where its record says (ev5_by_kind):
 * one of a quick kind to its quick path.  `known` (a constant): of a run
 * whose every instruction is plain (time_ev5_plain). */
static inline __attribute__((always_inline)) void
entry_ev5(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc, const bool heads,
          const bool known)
{
    if (!known && !tm_plain_insn(t, in)) {
        (heads ? general_ev5_heads : general_ev5)(t, in, addr, next_pc);
        return;
    }
    ev5_by_kind[heads][in->tkind](t, in, addr, next_pc);
}

void time_ev5(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)
{
    entry_ev5(t, in, addr, next_pc, false, false);
}

/* time_ev5 of a run that keeps the heads' ground truth (note_outputs). */
void time_ev5_heads(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)
{
    entry_ev5(t, in, addr, next_pc, true, false);
}

/* Both again, of plain instructions only (timing_block_insn). */
void time_ev5_plain(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)
{
    entry_ev5(t, in, addr, next_pc, false, true);
}

void time_ev5_plain_heads(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)
{
    entry_ev5(t, in, addr, next_pc, true, true);
}
