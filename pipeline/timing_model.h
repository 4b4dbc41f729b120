/*
 * timing_model.h - what the timing models in pipeline/ share: the state of
 * a timing run (struct timing), the parameters taken from the
 * configuration, why an instruction waited, and the pieces every model is
 * built from -- instruction fetch through the I-cache, the register
 * scoreboard, the dividers, data accesses, branch prediction, DISE
 * redirects, head-cycle accounting (statistics, DISE roles, the ground-
 * truth file) and pipeline views.  timing.c holds these and the model
 * table; each model (inorder.c: inorder5 and ev5; ooo.c) times one
 * instruction.  The run loop that drives them is sim/engine.c.
 * Private to pipeline/: the rest of the simulator sees include/timing.h.
 */
#ifndef HPS_TIMING_MODEL_H
#define HPS_TIMING_MODEL_H

#include "bpred.h"
#include "memory_model.h"
#include "dise.h"
#include "pipeview.h"
#include "pmu.h"
#include "timing.h"

enum { DIV_INT, DIV_FP };             /* the two dividers                    */

/* Why something waited: a stall cause (stall_t) and the instruction
 * responsible for it (its pc; 0 = none). */
typedef struct why {          /* words, not bytes: a why_t the compiler
                                 keeps on the stack is written field by field
                                 and read back whole, and a byte written
                                 cannot be forwarded to a word read (a
                                 stall of some 10 cycles) */
    uint64_t culprit;
    uint64_t cause;           /* stall_t */
    uint64_t role;            /* the culprit's dise_role_t (NONE: the program) */
} why_t;

static inline why_t tm_why(uint8_t cause, uint64_t culprit, uint8_t role)
{
    return (why_t){ .culprit = culprit, .cause = cause, .role = role };
}

/* ev5's issue group counts what it holds in the bytes of one word, a lane
 * each (inorder.c): instructions, integer pipes (memory operations take
 * one), memory ports, the FP add and multiply pipes, FP pipes in all, and
 * whether a transfer closed it. */
enum { GRP_N, GRP_INT, GRP_MEM, GRP_FADD, GRP_FMUL, GRP_FP, GRP_CLOSED };
#define GRP_LANE(lane, v) ((uint64_t)(v) << 8 * (lane))

typedef struct params {
    int model;
    bool fwd_ex_ex, fwd_mem_ex;
    bool fwd_gap;                     /* EX/MEM -> EX forwarding without MEM/WB
                                         -> EX: ALU results have a gap (inorder.c) */
    int resolve;                      /* five-stage: CFG_RESOLVE_*          */
    unsigned width, iq_entries, int_pipes, fp_pipes, mem_ports;
    unsigned block_shift;             /* ev5: log2 of a fetch block's bytes when a
                                         power of two (4 * width), else 0   */
    bool slotting;
    uint64_t group_room;              /* ev5: an issue group's limits, GRP_* lanes
                                         with their top bits set (inorder.c) */
    unsigned frontend_depth;          /* ev5: cycles from fetch to issue    */
    unsigned mispredict_penalty;      /* ev5: cycles lost on a mispredict   */
    unsigned lat[OC_COUNT];
    bool div_pipelined[2];            /* integer and FP divider (DIV_*)     */
    unsigned l1i_hit, l1d_hit;
} params_t;

/* Ground truth of one static instruction: its executions and head cycles,
 * what DCPI compares its samples with (timing_for_each_head) ...  The
 * executions are counted down, from GT_DOWN_FIRST at the first (0 before
 * it): one subtract in memory both counts one and tells the first (the
 * sign of 0 - 1), which appends the pc to the order first recorded. */
typedef struct gt_entry {
    int64_t down;                     /* 0, or GT_DOWN_FIRST + 1 - executions */
    uint64_t head;
} gt_entry_t;
#define GT_DOWN_FIRST (INT64_MAX - 1)
static inline uint64_t gt_count(const gt_entry_t *e)
{
    return e->down ? (uint64_t)(GT_DOWN_FIRST + 1 - e->down) : 0;
}
/* ... and, for the ground-truth file and static schedules only, their
 * split by stall cause and the culprit: kept apart, so a run that needs
 * only the heads touches 16 bytes an instruction. */
typedef struct gt_why {
    uint64_t stall[STALL_COUNT];
    uint64_t profiler;                /* stall cycles the profiler's own code
                                         caused (timing.c, profiler_stall) */
    uint64_t culprit_pc, culprit_cycles;
} gt_why_t;
/* The records of the code outside the flat store (timing_set_code: the
 * program's text has a record per 2-byte parcel in one array): a chunk
 * holds 4 KB of code, a slot per parcel; instructions that run one after
 * another share a chunk, and the last chunk used is looked at before the
 * hash of chunks (timing.c).  (64 bytes sent a tenth of DCPI's records
 * through the hash.) */
enum { GT_CHUNK_SHIFT = 12, GT_CHUNK_SLOTS = 1 << (GT_CHUNK_SHIFT - 1) };
typedef struct gt_chunk {
    uint64_t base;                    /* pc of slot 0                        */
    gt_entry_t e[GT_CHUNK_SLOTS];
    gt_why_t *why;                    /* GT_CHUNK_SLOTS when keep_why, or NULL */
} gt_chunk_t;
/* The chunks used lately, direct-mapped by base, for the heads' record
 * out of the last chunk (tm_record_head_slow): code that calls or loops
 * across a few chunks finds each here, not through the hash. */
enum { GT_RECENT = 16 };
typedef struct gt_recent {
    uint64_t base;                    /* the chunk's base (1: none)          */
    gt_entry_t *e;                    /* its entries                         */
} gt_recent_t;

struct timing {
    union {                           /* the run loop's part (timing.h)     */
        timing_hot_t hot;
        struct { TIMING_HOT_FIELDS };
    };
    params_t p;
    dram_t dram;
    cache_t *l1i, *l1d, *l2;
    tlb_t *itlb, *dtlb;
    write_buffer_t *wbuf;
    bpred_t *bp;
    bpred_pu_fn bp_cond, bp_other;    /* its bpred_split_fn choices (the in-order
                                         models' tm_predict_control)       */
    unsigned line_shift;              /* I-cache line                        */

    /* indexed by an operand slot as decoded: REG_NONE's entry stays 0, so
     * an unused slot is never the latest operand (tm_operands_cycle) */
    uint64_t reg_ready[256];
    uint64_t reg_producer[REG_COUNT]; /* pc of the instruction writing it    */
    uint8_t reg_role[REG_COUNT];      /* and its dise_role_t                 */
    uint8_t reg_cause[REG_COUNT];     /* why it is late (dcache miss, ...)   */
    /* Five-stage pipeline with EX/MEM -> EX forwarding but not MEM/WB -> EX:
     * an ALU result reaches the next instruction's EX from the EX/MEM latch,
     * then no EX entry can get it until the register file has it, so EX
     * entries in [reg_gap_from, reg_gap_to] wait for reg_gap_to + 1
     * (reg_gap_to == 0: no gap). */
    uint64_t reg_gap_from[REG_COUNT], reg_gap_to[REG_COUNT];

    /* stage entry cycles of the previous instruction */
    uint64_t prev_d, prev_x, prev_m, prev_w, prev_issue, prev_retire;
    /* five-stage: why the previous one entered MEM (left EX) late and why
     * it entered WB (left MEM) late, and the instruction responsible */
    why_t prev_m_why, prev_w_why;
    uint64_t redirect;                /* earliest fetch of the next one      */
    why_t redirect_why;               /* mispredict or decode redirect, and  */
                                      /* the control transfer behind it      */
    uint64_t fetch_line, fetch_ready; /* current I-cache line and its cycle */
    uint64_t div_free[2], div_pc[2];  /* dividers: free cycle, last user   */
    uint8_t div_role[2];              /* the last user's dise_role_t         */

    /* ev5 issue group and fetch block */
    uint64_t group_cycle, group_block, fetch_block, fetch_block_cycle;
    uint64_t block_fetch_start;       /* fetch cycle of the block (views)    */
    uint64_t block_front;             /* why the block came late: a stall_t
                                         (the I-cache, the I-TLB; none), or
                                         STALL_COUNT: the redirect's why
                                         (redirect_why, which only the block's
                                         first instruction reads: inorder.c,
                                         ev5_front) -- the front end's part in
                                         the head of its first instruction   */
    uint64_t group_use;               /* what the group holds: GRP_* lanes   */
    uint64_t *iq_ring;                /* issue cycles of the last iq entries */
    uint64_t iq_mask;                 /* iq_entries - 1 when a power of two, */
    bool iq_pow2;                     /* the slot then seq & iq_mask, else:  */
    uint64_t iq_seq;                  /* the seq iq_pos is the slot of:      */
    unsigned iq_pos;                  /* seq % iq_entries, kept without a divide */

    /* cycles by DISE role; the program's own (DISE_ROLE_NONE) are not
     * added up here: they are head_sum less the others' (timing_role_cycles) */
    uint64_t role_cycles[DISE_ROLE_COUNT];

    /* statistics */
    uint64_t head_stall[STALL_COUNT];
    uint64_t mispredicts, decode_redirects, wbuf_stall_cycles;

    /* ground truth: the flat store, a record per 2-byte parcel of
     * [gt_flat_lo, gt_flat_lo + 2 * gt_flat_n) (the code range, once the
     * truth is kept: timing_set_code), and the chunks for the rest */
    uint64_t gt_flat_lo, gt_flat_n;   /* n = 0: no flat store                */
    uint64_t gt_flat_span;            /* 2 * gt_flat_n - 1 (0: none): pc - lo
                                         below it has its record there      */
    uintptr_t gt_flat_at;             /* gt_flat less 8 * gt_flat_lo: pc's
                                         record at gt_flat_at + 8 * pc      */
    gt_entry_t *gt_flat;
    gt_why_t *gt_flat_why;            /* gt_flat_n of them when keep_why     */
    uint64_t code_lo, code_hi;        /* timing_set_code's range             */
    gt_chunk_t *gt;                   /* the chunks, in the order made       */
    size_t gt_nchunks, gt_chunk_cap, gt_last;   /* gt_last: tm_record_truth's last */
    gt_entry_t *gt_cur;               /* the entries of the chunk the heads */
    uint64_t gt_cur_base;             /* were last recorded in, its base (1:
                                         none yet); heads only             */
    gt_recent_t gt_recent[GT_RECENT]; /* by (base >> GT_CHUNK_SHIFT); heads
                                         only; both emptied when gt moves  */
    uint32_t *gt_index;               /* open hash of chunk bases: index + 1 */
    size_t gt_index_cap;
    uint64_t *gt_seen;                /* the pcs in the order first recorded */
    size_t gt_used, gt_seen_cap;
    bool keep_why;                    /* record gt_chunk.why too             */
    struct lost *lost;          /* ooo's per-pc speculation losses (lost.h),
                                   once it charged any; owned by the model */

    timing_outputs_t out;
    pipeview_t pv;
    bool views;
    bool plain;                       /* the in-order models' quick path may
                                         time the instruction (timing.c)    */
    timing_insn_fn block_insn;        /* time_insn for an instruction of the
                                         timed block loop (timing_block_insn) */
    bool stats_only;                  /* no outputs beyond the statistics:
                                         no views, ProfileMe, shell history
                                         or ground truth (timing.c)         */

    const timing_model_t *model;      /* the model's row                     */
    void *model_state;                /* its own state (ooo.c's), or NULL    */
    struct pmu *pmu;                  /* performance counters, or NULL       */
    cpu_t *cpu;                       /* the cpu being timed (wrong paths)   */
    struct profileme *pm;             /* the ProfileMe sampler, or NULL      */
    uint64_t pm_head;                 /* its view of the last head cycles    */
    uint64_t mispredict_at;           /* seq + 1 of the last mispredicted one */
    bool keep_truth;                  /* record the per-pc ground truth      */
    bool ideal_memory;                /* static schedules: every load hits,  */
                                      /* no store waits, no TLB miss         */
    bool sampled;                     /* --sample (smarts.h): cycles and CPI */
                                      /* are the sampler's estimates         */

    /* the interactive shell: the last instructions' stages and head */
    pv_insn_t *recent;                /* ring of TIMING_RECENT, or NULL      */
    insn_t *recent_insn;              /* and the instructions, for their text */
    size_t recent_n, recent_pos;
    uint64_t last_head;
    why_t last_why;
};

static inline uint64_t max2(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* ---- shared pieces, inlined into every model ----------------------------------- */

/* Cycle the instruction's bytes are available, fetching from cycle f. */
static inline __attribute__((always_inline))
uint64_t tm_fetch_bytes(timing_t *t, uint64_t pc, uint64_t f, uint8_t *cause)
{
    uint64_t line = pc >> t->line_shift;
    if (line == t->fetch_line && f >= t->fetch_ready - t->p.l1i_hit) {
        *cause = STALL_NONE;
        return max2(f + t->p.l1i_hit, t->fetch_ready);
    }
    unsigned tlb_extra = tlb_access_inline(t->itlb, pc);
    bool hit;
    uint64_t ready = cache_access_inline(t->l1i, pc, false, f + tlb_extra, &hit);
    *cause = !hit ? STALL_ICACHE : tlb_extra ? STALL_ITLB : STALL_NONE;
    if (unlikely(t->pmu)) {
        if (*cause == STALL_ICACHE) pmu_count(t->pmu, PMU_IMISS, f, pc);
        if (tlb_extra) pmu_count(t->pmu, PMU_ITBMISS, f, pc);
    }
    t->fetch_line = line;
    t->fetch_ready = ready;
    return ready;
}

/* The divider an instruction needs (DIV_INT, DIV_FP), or -1. */
static inline int tm_divider_of(const insn_t *in)
{
    static const int8_t divider_plus_one[OC_COUNT] = {   /* a table: no switch */
        [OC_IDIV] = DIV_INT + 1, [OC_FDIV] = DIV_FP + 1, [OC_FSQRT] = DIV_FP + 1,
    };
    return divider_plus_one[in->opclass] - 1;
}

/* Is `in` a program instruction, not one DISE inserted, with no decode
 * penalty to charge? */
static inline bool tm_program_insn(const timing_t *t, const insn_t *in)
{
    return !(in->flags & IF_DISE) && (t->cur_role | t->front_penalty) == 0;
}

/* Is `in` such a program instruction, of a run with no outputs beyond the statistics
 * (plain)?  The in-order models time it without asking for what cannot
 * apply then (inorder.c). */
static inline bool tm_plain_insn(const timing_t *t, const insn_t *in)
{
    return t->plain && tm_program_insn(t, in);
}

/* Is `in` of a kind the in-order models' quick path times: one that needs
 * no divider and has none of the flags the quick path leaves out (`left`)? */
static inline bool tm_quick_kind(const insn_t *in, unsigned left)
{
    return !(in->flags & left) && tm_divider_of(in) < 0;
}

/* Earliest cycle a divider can start another operation (0: any time). */
static inline uint64_t tm_divider_free(const timing_t *t, int dv)
{
    return dv < 0 || t->p.div_pipelined[dv] ? 0 : t->div_free[dv];
}

/* A divide occupies its divider until `done` (after head accounting, which
 * names the previous user as the culprit of a wait). */
static inline void tm_use_divider(timing_t *t, const insn_t *in, int dv, uint64_t done)
{
    if (dv < 0) return;
    t->div_free[dv] = done;
    t->div_pc[dv] = in->pc;
    t->div_role[dv] = t->cur_role;
}

/* A wait for divider dv: its last user is the culprit. */
static inline why_t tm_divider_why(const timing_t *t, int dv)
{
    if (dv < 0) return (why_t){ .cause = STALL_FU };
    return tm_why(STALL_FU, t->div_pc[dv], t->div_role[dv]);
}

/* The cycle the latest source operand can be used (0: no operand waits).
 * Who produced it matters only to an instruction that stalled: the models
 * ask tm_operand_why then. */
static inline uint64_t tm_operands_cycle(const timing_t *t, const insn_t *in)
{
    return max2(max2(t->reg_ready[in->rs1], t->reg_ready[in->rs2]), t->reg_ready[in->rs3]);
}

/* Why an instruction whose operands are ready at ops (tm_operands_cycle)
 * waited for them: the producer of the first of the latest sources, its
 * role and cause; asked before the scoreboard changes. */
static inline why_t tm_operand_why(const timing_t *t, const insn_t *in, uint64_t ops)
{
    if (ops == 0) return (why_t){ .cause = STALL_DEP, .culprit = 0, .role = DISE_ROLE_NONE };
    unsigned best = t->reg_ready[in->rs1] == ops ? in->rs1        /* the first of the latest */
                  : t->reg_ready[in->rs2] == ops ? in->rs2 : in->rs3;
    return tm_why(t->reg_cause[best], t->reg_producer[best], t->reg_role[best]);
}

static inline void tm_set_result(timing_t *t, const insn_t *in, uint64_t avail, uint8_t cause)
{
    if (in->rd == REG_NONE || in->rd == REG_SINK) return;
    t->reg_ready[in->rd] = avail;
    t->reg_producer[in->rd] = in->pc;
    t->reg_role[in->rd] = t->cur_role;
    t->reg_cause[in->rd] = cause;
}

/* Memory access of a load or store at cycle `at`; returns completion.
 * Always inlined, for a caller whose own registers it then shares
 * (ev5's paths); tm_data_access leaves the choice to the compiler. */
static inline __attribute__((always_inline)) uint64_t
tm_data_access_inline(timing_t *t, const insn_t *in, uint64_t addr, uint64_t at, uint8_t *cause)
{
    if (unlikely(t->ideal_memory)) {          /* DCPI's scheduler: loads hit */
        *cause = STALL_NONE;
        return at + ((in->flags & IF_LOAD) ? t->p.l1d_hit : 1);
    }
    unsigned tlb_extra = tlb_access_inline(t->dtlb, addr);
    *cause = tlb_extra ? STALL_DTLB : STALL_NONE;
    if (unlikely(t->pmu) && tlb_extra) pmu_count(t->pmu, PMU_DTBMISS, at, in->pc);
    if (in->flags & IF_LOAD) {
        bool hit;
        uint64_t ready = cache_access_inline(t->l1d, addr, false, at + tlb_extra, &hit);
        if (!hit) {
            *cause = STALL_DCACHE;
            if (unlikely(t->pmu)) pmu_count(t->pmu, PMU_DMISS, at, in->pc);
        }
        return ready;
    }
    if (!t->wbuf) {
        bool hit;
        uint64_t done = cache_access_inline(t->l1d, addr, true, at + tlb_extra, &hit);
        if (!hit) *cause = STALL_DCACHE;
        return done;
    }
    uint64_t accept = write_buffer_store(t->wbuf, addr, at + tlb_extra);
    if (accept > at + tlb_extra) {
        *cause = STALL_WBUF;
        t->wbuf_stall_cycles += accept - (at + tlb_extra);
    }
    return accept + 1;
}

static inline uint64_t tm_data_access(timing_t *t, const insn_t *in, uint64_t addr, uint64_t at,
                                      uint8_t *cause)
{
    return tm_data_access_inline(t, in, addr, at, cause);
}

/* What a control transfer's prediction `pred` (correct or not) means for
 * fetch: the cycle the next fetch may start (0 = no redirect); counts
 * mispredictions. */
static inline uint64_t tm_control_outcome(timing_t *t, const insn_t *in, bpred_result_t pred,
                                          bool taken, bool correct, uint64_t decode_done,
                                          uint64_t resolved)
{
    if (unlikely(t->pmu) && pmu_counts_branches(t->pmu))
        pmu_count(t->pmu, PMU_BRANCHES, resolved, in->pc);
    if (!correct) {
        t->mispredicts++;
        t->mispredict_at = t->seq + 1;
        if (unlikely(t->pmu)) pmu_count(t->pmu, PMU_BRANCHMP, resolved, in->pc);
        t->redirect_why = tm_why(STALL_MISPREDICT, in->pc, t->cur_role);
        return resolved;
    }
    if (taken && !pred.btb_hit) {           /* target known only at decode */
        t->decode_redirects++;
        t->redirect_why = tm_why(STALL_FETCH, in->pc, t->cur_role);
        return decode_done;
    }
    return 0;
}

/* Branch prediction and training in one call: the cycle the next fetch
 * may start (tm_control_outcome); *pred: the prediction, for a model that
 * needs it too (ooo's wrong path). */
static inline uint64_t tm_predict_control_as(timing_t *t, const insn_t *in, uint64_t next_pc,
                                             uint64_t decode_done, uint64_t resolved,
                                             bpred_result_t *pred)
{
    bool taken = next_pc != in->pc + in->len;
    bool correct = bpred_predict_update(t->bp, in, taken, next_pc, pred);
    return tm_control_outcome(t, in, *pred, taken, correct, decode_done, resolved);
}

/* The same without the prediction (the in-order models': their
 * predictor's call is bpred_predict_update_split's choice, kept in
 * bp_cond and bp_other). */
static inline uint64_t tm_predict_control(timing_t *t, const insn_t *in, uint64_t next_pc,
                                          uint64_t decode_done, uint64_t resolved)
{
    bpred_result_t pred;
    bool taken = next_pc != in->pc + in->len;
    bool correct = (bpred_is_cond(in->flags) ? t->bp_cond : t->bp_other)(t->bp, in, taken,
                                                                         next_pc, &pred);
    return tm_control_outcome(t, in, pred, taken, correct, decode_done, resolved);
}

/* An inserted DISE operation that changed the flow: a call into a handler
 * is redirected at decode (its target is instantiated); a taken DISE
 * branch is resolved in execute, like a branch predicted not taken. */
static inline void tm_dise_control(timing_t *t, const insn_t *in, uint64_t decode_done,
                                   uint64_t resolved)
{
    if (!t->dise_redirect) return;
    t->redirect = in->op == DOP_CALL ? decode_done : resolved;
    t->redirect_why = tm_why(in->op == DOP_CALL ? STALL_FETCH : STALL_MISPREDICT, in->pc,
                             t->cur_role);
}

/* ---- accounting and views (timing.c) ------------------------------------------ */
/* The ground-truth record of the instruction: one more execution and its
 * head cycles (the stalls too when keep_why).  Out of line: inlined, it
 * made time_ev5 slower for the runs that keep none. */
void tm_record_truth(timing_t *t, const insn_t *in, uint64_t head, uint64_t extra, why_t why);
/* The same when only the heads are kept (DCPI's truth), out of line: the
 * way out of tm_record_head_inline below, for a pc recorded for the first
 * time or outside the flat store.  Three arguments in registers (a why_t
 * handed by value cost a store and a reload every instruction). */
void tm_record_head_slow(timing_t *t, uint64_t pc, uint64_t head);
/* The first record of pc (its entry g counted down from 0 to -1). */
void tm_record_first(timing_t *t, gt_entry_t *g, uint64_t pc);
/* Is pc's record in the flat store (tm_record_head_flat may take it)? */
static inline bool tm_in_flat(const timing_t *t, uint64_t pc)
{
    return pc - t->gt_flat_lo < t->gt_flat_span;
}

/* Its common case inline (an instruction of the flat store's range: a
 * subtract and a compare, an add and a subtract in memory), for the
 * quick paths of the models' heads variants (time_insn_heads), which only
 * the runs that keep the heads run, and the general paths' head
 * accounting (tm_record_head: inlined there it adds nothing to the runs
 * that keep no truth, measured; the call cost more).  A pc below gt_flat_lo wraps to past
 * the end; pcs are even (an odd one would share the record of the pc
 * before it, as in a chunk, and stays inside the array: gt_flat_span). */
static inline void tm_record_head_inline(timing_t *t, uint64_t pc, uint64_t head)
{
    if (likely(tm_in_flat(t, pc))) {
        gt_entry_t *g = (gt_entry_t *)(t->gt_flat_at + pc * (sizeof *g / 2));
        g->head += head;
        if (unlikely(--g->down < 0)) tm_record_first(t, g, pc);
        return;
    }
    tm_record_head_slow(t, pc, head);
}

/* tm_record_head_inline of a pc known to be in the flat store's range and
 * recorded before (the in-order models' quick paths, for an instruction
 * whose record says so: inorder.c's TK_FLAT, set the first time a run that
 * keeps the heads times it, from this run's range -- which never changes
 * once set, and a decoded slot's pc never changes while its record is set
 * -- and that first time notes the pc as seen, right before its first
 * record: tm_mark_seen).  No compare and no test: the pc's load, the
 * entry's address, the add and the count. */
static inline void tm_record_head_flat(timing_t *t, uint64_t pc, uint64_t head)
{
    gt_entry_t *g = (gt_entry_t *)(t->gt_flat_at + pc * (sizeof *g / 2));
    g->head += head;
    g->down--;
}

/* Note pc (in the flat store's range) as seen with no execution yet, if
 * nothing has recorded it: what tm_record_first does at the first record,
 * made just before it, so that tm_record_head_flat need not test.  The
 * entry's down is then GT_DOWN_FIRST + 1 (a count of 0), so the checked
 * records (tm_record_head_inline) of the pc find it seen as well. */
static inline void tm_mark_seen(timing_t *t, uint64_t pc)
{
    gt_entry_t *g = (gt_entry_t *)(t->gt_flat_at + pc * (sizeof *g / 2));
    if (g->down) return;
    tm_record_first(t, g, pc);
    g->down = GT_DOWN_FIRST + 1;
}

/* head = cycles from the previous instruction's issue to this one's (0 when
 * they issued together); every cycle beyond the first is a stall charged to
 * why.cause.  The culprit kept is the one behind the longest single stall
 * that has one.  For the overhead breakdown, the issue cycle goes to the
 * instruction's DISE role and the stall to the role of its culprit, when
 * there is one: a program instruction waiting for a handler's return to
 * redirect fetch, or for a register a handler restores, waits because of
 * the profiling code; an inserted instruction waiting behind a program
 * load's miss waits for what the program would have waited for anyway.
 * The decode cycles of a new replacement, as far as they show in the
 * stall, go to the role the replacement names for them. */
static inline __attribute__((always_inline)) void
tm_account_head(timing_t *t, uint64_t head, why_t why)
{
    uint64_t extra = head > 1 ? head - 1 : 0;
    t->head_sum += head;
    if (unlikely(t->pm != NULL)) t->pm_head = head;
    if (unlikely(t->recent != NULL)) {
        t->last_head = head;
        t->last_why = why;
    }
    t->head_stall[why.cause] += extra;
    if (unlikely((t->cur_role | why.role | t->front_penalty) != 0)) {   /* else no role is */
        uint64_t decode = extra < t->front_penalty ? extra : t->front_penalty;
        uint8_t stall_role = why.culprit ? why.role : t->cur_role;
        if ((t->cur_role | stall_role) != DISE_ROLE_NONE || decode) {
            t->role_cycles[t->cur_role] += head - extra;
            t->role_cycles[t->penalty_role] += decode;
            t->role_cycles[stall_role] += extra - decode;
        }
    }
}

/* tm_account_head, then the instruction's ground truth, if kept. */
static inline __attribute__((always_inline)) void
tm_record_head(timing_t *t, const insn_t *in, uint64_t head, why_t why)
{
    tm_account_head(t, head, why);
    if (t->keep_truth) {
        if (likely(!t->keep_why)) tm_record_head_inline(t, in->pc, head);
        else tm_record_truth(t, in, head, head > 1 ? head - 1 : 0, why);
    }
}

/* tm_record_head of an instruction whose heads' record is in the flat
 * store and seen (tm_record_head_flat: the in-order models' TK_FLAT). */
static inline __attribute__((always_inline)) void
tm_record_head_flat_why(timing_t *t, const insn_t *in, uint64_t head, why_t why)
{
    tm_account_head(t, head, why);
    tm_record_head_flat(t, in->pc, head);
}

/* Does the head accounting need to know why (the stall cause, its culprit
 * and role: tm_record_head)?  Not for a head of 0 or 1 cycles of a program
 * instruction with no decode penalty to charge, unless the shell keeps the
 * last one: then every use of why adds 0 (the stall statistics, the
 * ground truth's stalls and culprit) or goes to the program's own role,
 * which is not added up (timing_role_cycles).  The in-order models work
 * the why out only when this says so. */
static inline bool tm_head_needs_why(const timing_t *t, uint64_t head)
{
    return head > 1 || (t->cur_role | t->front_penalty) != 0 || unlikely(t->recent != NULL);
}

/* tm_record_head of a head that needs no why (tm_head_needs_why false). */
static inline void tm_record_short_head(timing_t *t, const insn_t *in, uint64_t head)
{
    t->head_sum += head;
    if (unlikely(t->pm != NULL)) t->pm_head = head;
    if (t->keep_truth) {
        if (likely(!t->keep_why)) tm_record_head_inline(t, in->pc, head);
        else tm_record_truth(t, in, head, 0, (why_t){ .cause = STALL_NONE });
    }
}

/* Report the instruction to the pipeline views when it is inside the view
 * window: the cycle it entered each of the model's five stages (names) and
 * the cycle it left the last. */
void tm_view_insn(timing_t *t, const insn_t *in, const char *const names[5], const uint64_t st[5],
                  uint64_t retire);
/* A wrong-path instruction for the views: it entered the first `reached`
 * stages at st[] and was squashed (flushed) at `squash`. */
void tm_view_flushed(timing_t *t, const insn_t *in, const char *const names[5],
                     const uint64_t st[5], unsigned reached, uint64_t squash);

/* ProfileMe (profileme.h): a program instruction the sampler selects is
 * recorded with the cycles it entered fetch, decode, issue and complete
 * and left the pipeline (st[0..4]), the causes of its fetch and memory
 * waits (I-cache / I-TLB, D-cache / D-TLB) and its load's latency.  The
 * models call it after timing each instruction (timing.c). */
void tm_profileme(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc,
                  const uint64_t st[5], uint8_t fcause, uint8_t mcause, uint64_t load_latency);
/* A wrong-path instruction fetched (the out-of-order model's wrong path):
 * counted by the sampler as fetched, and recorded as aborted when it is
 * the one selected, with the stages it reached before the squash. */
void tm_profileme_wrong_path(timing_t *t, const insn_t *in, uint64_t addr, const uint64_t st[5],
                             unsigned reached, uint64_t squash);

/* ---- the models: time one instruction that has just executed ----------------- */
/* addr: its effective address (loads, stores); next_pc: where it went. */
void time_inorder5(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc);
void time_ev5(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc);
void time_inorder5_heads(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc);
void time_ev5_heads(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc);
void time_ooo(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc);
/* The out-of-order model's entry for the timed block loop of a plain run
 * (timing_block_insn): it does not ask whether the instruction is plain. */
void time_ooo_block(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc);
/* The in-order models' entries for a run whose every instruction is plain
 * (tm_plain_insn): they do not ask (timing_block_insn). */
void time_inorder5_plain(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc);
void time_inorder5_plain_heads(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc);
void time_ev5_plain(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc);
void time_ev5_plain_heads(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc);

/* The out-of-order model's own state and statistics (ooo.c). */
typedef struct ooo ooo_t;
struct config;
void *ooo_new(const struct config *cfg);
void ooo_free(void *state);
void ooo_stats(const void *state, uint64_t cycles, stats_t *out);

#endif /* HPS_TIMING_MODEL_H */
