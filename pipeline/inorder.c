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
 */
#include "timing.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "bpred.h"
#include "cache.h"
#include "config.h"
#include "core_loop.h"
#include "disasm.h"
#include "dise_engine.h"
#include "pipeview.h"
#include "symtab.h"
#include "util.h"

const char *const stall_names[STALL_COUNT] = {
#define STALL_NAME(id, name) name,
    STALL_LIST(STALL_NAME)
#undef STALL_NAME
};


enum { DIV_INT, DIV_FP };             /* the two dividers                    */

/* Why something waited: a stall cause (stall_t) and the instruction
 * responsible for it (its pc; 0 = none). */
typedef struct why {
    uint8_t cause;
    uint64_t culprit;
    uint8_t role;            /* the culprit's dise_role_t (NONE: the program) */
} why_t;

typedef struct params {
    int model;
    bool fwd_ex_ex, fwd_mem_ex;
    int resolve;                      /* five-stage: CFG_RESOLVE_*          */
    unsigned width, iq_entries, int_pipes, fp_pipes, mem_ports;
    bool slotting;
    unsigned frontend_depth;          /* ev5: cycles from fetch to issue    */
    unsigned mispredict_penalty;      /* ev5: cycles lost on a mispredict   */
    unsigned lat[OC_COUNT];
    bool div_pipelined[2];            /* integer and FP divider (DIV_*)     */
    unsigned l1i_hit;
} params_t;

/* Ground truth of one static instruction. */
typedef struct gt_entry {
    uint64_t pc, count, head;
    uint64_t stall[STALL_COUNT];
    uint64_t culprit_pc, culprit_cycles;
} gt_entry_t;

struct timing {
    params_t p;
    dram_t dram;
    cache_t *l1i, *l1d, *l2;
    tlb_t *itlb, *dtlb;
    write_buffer_t *wbuf;
    bpred_t *bp;
    unsigned line_shift;              /* I-cache line                        */

    uint64_t reg_ready[REG_COUNT];
    uint64_t reg_producer[REG_COUNT]; /* pc of the instruction writing it    */
    uint8_t reg_role[REG_COUNT];      /* and its dise_role_t                 */
    uint8_t reg_cause[REG_COUNT];     /* why it is late (dcache miss, ...)   */

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
    unsigned group_n, group_int, group_fadd, group_fmul, group_mem;
    bool group_closed;
    uint64_t *iq_ring;                /* issue cycles of the last iq entries */
    uint64_t seq;

    /* DISE: set by the run loop before each instruction is timed */
    uint8_t cur_role;                 /* dise_role_t of the instruction      */
    bool dise_redirect;               /* an inserted op changed the flow     */
    unsigned front_penalty;           /* decode cycles of a new replacement  */
    uint8_t penalty_role;             /* the role they are charged to        */
    uint64_t role_cycles[DISE_ROLE_COUNT];

    /* statistics */
    uint64_t cycles, insts, head_stall[STALL_COUNT];
    uint64_t mispredicts, decode_redirects, wbuf_stall_cycles;

    /* ground truth */
    gt_entry_t *gt;
    size_t gt_cap, gt_used;

    timing_outputs_t out;
    pipeview_t pv;
    bool views;
};

/* ---- configuration -------------------------------------------------------- */

static void fill_latencies(params_t *p, const config_t *cfg)
{
    for (int k = 0; k < OC_COUNT; k++) p->lat[k] = (unsigned)cfg->lat_int_alu;
    p->lat[OC_IMUL] = (unsigned)cfg->lat_int_mul;
    p->lat[OC_IDIV] = (unsigned)cfg->lat_int_div;
    p->lat[OC_FALU] = (unsigned)cfg->lat_fp_add;
    p->lat[OC_FMUL] = (unsigned)cfg->lat_fp_mul;
    p->lat[OC_FDIV] = (unsigned)cfg->lat_fp_div;
    p->lat[OC_FSQRT] = (unsigned)cfg->lat_fp_sqrt;
    p->lat[OC_FCVT] = (unsigned)cfg->lat_fp_cvt;
    p->lat[OC_FMOVE] = (unsigned)cfg->lat_int_alu;
    p->lat[OC_LOAD] = p->lat[OC_FLOAD] = (unsigned)cfg->lat_load_use;
    p->div_pipelined[DIV_INT] = cfg->lat_int_div_pipelined;
    p->div_pipelined[DIV_FP] = cfg->lat_fp_div_pipelined;
}

static void fill_params(params_t *p, const config_t *cfg)
{
    memset(p, 0, sizeof *p);
    p->model = (int)cfg->model;
    p->fwd_ex_ex = cfg->inorder5_forward_ex_ex;
    p->fwd_mem_ex = cfg->inorder5_forward_mem_ex;
    p->resolve = (int)cfg->inorder5_branch_resolve;
    p->width = p->model == CFG_MODEL_EV5 ? (unsigned)cfg->ev5_width : 1;
    p->iq_entries = (unsigned)cfg->ev5_iq_entries;
    p->int_pipes = (unsigned)cfg->ev5_int_pipes;
    p->fp_pipes = (unsigned)cfg->ev5_fp_pipes;
    p->mem_ports = (unsigned)cfg->ev5_mem_ports;
    p->slotting = cfg->ev5_slotting;
    /* 21164: fetch, buffer, slot, issue: two cycles between the block's
     * fetch and issue.  The mispredict penalty is the cycles lost: the
     * correct path issues 1 + penalty cycles after the branch (see
     * time_ev5), so it can be varied on its own. */
    p->frontend_depth = 2;
    p->mispredict_penalty = (unsigned)cfg->ev5_mispredict_penalty;
    p->l1i_hit = (unsigned)cfg->l1i_hit_latency;
    fill_latencies(p, cfg);
    if (p->width == 0) p->width = 1;
    if (p->iq_entries == 0) p->iq_entries = 1;
}

static cache_config_t cache_cfg(const char *name, uint64_t size, uint64_t assoc, uint64_t line,
                                uint64_t hit, uint64_t repl, uint64_t mshrs)
{
    cache_config_t c = { .name = name, .size = size, .assoc = (unsigned)assoc,
                         .line = (unsigned)line, .hit_latency = (unsigned)hit,
                         .repl = (repl_policy_t)repl, .mshrs = (unsigned)mshrs, .seed = 1 };
    return c;
}

/* Build caches, TLBs and the write buffer; returns the name of the part
 * whose parameters were rejected, or NULL. */
static const char *build_memory(timing_t *t, const config_t *cfg)
{
    t->dram.latency = (unsigned)cfg->mem_latency;
    t->dram.bytes_per_cycle = (unsigned)cfg->mem_bytes_per_cycle;
    cache_config_t l2 = cache_cfg("l2", cfg->l2_size, cfg->l2_assoc, cfg->l2_line,
                                  cfg->l2_hit_latency, cfg->l2_repl, cfg->l2_mshrs);
    t->l2 = cfg->l2_enabled ? cache_new(&l2, NULL, &t->dram) : NULL;
    if (cfg->l2_enabled && !t->l2) return "L2 cache (l2.*)";
    cache_config_t l1i = cache_cfg("l1i", cfg->l1i_size, cfg->l1i_assoc, cfg->l1i_line,
                                   cfg->l1i_hit_latency, cfg->l1i_repl, cfg->l1i_mshrs);
    cache_config_t l1d = cache_cfg("l1d", cfg->l1d_size, cfg->l1d_assoc, cfg->l1d_line,
                                   cfg->l1d_hit_latency, cfg->l1d_repl, cfg->l1d_mshrs);
    t->l1i = cache_new(&l1i, t->l2, &t->dram);
    t->l1d = cache_new(&l1d, t->l2, &t->dram);
    if (!t->l1i) return "L1 I-cache (l1i.*)";
    if (!t->l1d) return "L1 D-cache (l1d.*)";
    tlb_config_t it = { "itlb", (unsigned)cfg->itlb_entries, (unsigned)cfg->itlb_assoc,
                        (unsigned)cfg->mem_page_size, (unsigned)cfg->itlb_miss_penalty };
    tlb_config_t dt = { "dtlb", (unsigned)cfg->dtlb_entries, (unsigned)cfg->dtlb_assoc,
                        (unsigned)cfg->mem_page_size, (unsigned)cfg->dtlb_miss_penalty };
    t->itlb = tlb_new(&it);
    t->dtlb = tlb_new(&dt);
    if (!t->itlb) return "I-TLB (itlb.*)";
    if (!t->dtlb) return "D-TLB (dtlb.*)";
    /* wbuf.entries = 0: no write buffer, stores write the D-cache. */
    t->wbuf = cfg->wbuf_entries ? write_buffer_new((unsigned)cfg->wbuf_entries, t->l1d) : NULL;
    if (cfg->wbuf_entries && !t->wbuf) return "write buffer (wbuf.*)";
    t->line_shift = (unsigned)__builtin_ctzll(cfg->l1i_line);
    return NULL;
}

static void build_bpred(timing_t *t, const config_t *cfg)
{
    bpred_config_t b = {
        .kind = (bpred_kind_t)cfg->bpred_kind,
        .bimodal_entries = (unsigned)cfg->bpred_bimodal_entries,
        .gshare_entries = (unsigned)cfg->bpred_gshare_entries,
        .history_bits = (unsigned)cfg->bpred_history_bits,
        .local_history_entries = (unsigned)cfg->bpred_local_entries,
        .local_history_bits = (unsigned)cfg->bpred_local_history_bits,
        .choice_entries = (unsigned)cfg->bpred_choice_entries,
        .btb_entries = (unsigned)cfg->btb_entries,
        .btb_assoc = (unsigned)cfg->btb_assoc,
        .ras_entries = (unsigned)cfg->ras_entries,
    };
    t->bp = bpred_new(&b);
}

timing_t *timing_new(const config_t *cfg, char *err, size_t errlen)
{
    if (cfg->model == CFG_MODEL_FUNCTIONAL) {
        snprintf(err, errlen, "model 'functional' has no timing");
        return NULL;
    }
    timing_t *t = xcalloc(1, sizeof *t);
    fill_params(&t->p, cfg);
    const char *bad = build_memory(t, cfg);
    if (!bad) {
        build_bpred(t, cfg);
        if (!t->bp) bad = "branch predictor (bpred.*, btb.*, ras.*)";
    }
    if (bad) {
        snprintf(err, errlen, "cannot build the %s from these parameters", bad);
        timing_free(t);
        return NULL;
    }
    t->iq_ring = xcalloc(t->p.iq_entries, sizeof *t->iq_ring);
    t->fetch_line = ~0ull;
    t->fetch_block = ~0ull;
    return t;
}

void timing_set_outputs(timing_t *t, const timing_outputs_t *out)
{
    t->out = *out;
    t->views = out->kanata || out->diagram;
    if (t->views) pipeview_init(&t->pv, out->kanata, out->diagram);
}

/* ---- shared pieces ---------------------------------------------------------- */

static inline uint64_t max2(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* Cycle the instruction's bytes are available, fetching from cycle f. */
static uint64_t fetch_bytes(timing_t *t, uint64_t pc, uint64_t f, uint8_t *cause)
{
    uint64_t line = pc >> t->line_shift;
    if (line == t->fetch_line && f >= t->fetch_ready - t->p.l1i_hit) {
        *cause = STALL_NONE;
        return max2(f + t->p.l1i_hit, t->fetch_ready);
    }
    unsigned tlb_extra = tlb_access(t->itlb, pc);
    uint64_t ready = cache_access(t->l1i, pc, false, f + tlb_extra);
    *cause = !cache_last_hit(t->l1i) ? STALL_ICACHE : tlb_extra ? STALL_ITLB : STALL_NONE;
    t->fetch_line = line;
    t->fetch_ready = ready;
    return ready;
}

/* The divider an instruction needs (DIV_INT, DIV_FP), or -1. */
static int divider_of(const insn_t *in)
{
    switch (in->opclass) {
    case OC_IDIV: return DIV_INT;
    case OC_FDIV: case OC_FSQRT: return DIV_FP;
    default: return -1;
    }
}

/* Earliest cycle a divider can start another operation (0: any time). */
static uint64_t divider_free(const timing_t *t, int dv)
{
    return dv < 0 || t->p.div_pipelined[dv] ? 0 : t->div_free[dv];
}

/* A divide occupies its divider until `done` (after head accounting, which
 * names the previous user as the culprit of a wait). */
static void use_divider(timing_t *t, const insn_t *in, int dv, uint64_t done)
{
    if (dv < 0) return;
    t->div_free[dv] = done;
    t->div_pc[dv] = in->pc;
    t->div_role[dv] = t->cur_role;
}

/* A wait for divider dv: its last user is the culprit. */
static why_t divider_why(const timing_t *t, int dv)
{
    if (dv < 0) return (why_t){ .cause = STALL_FU };
    return (why_t){ STALL_FU, t->div_pc[dv], t->div_role[dv] };
}

/* Latest-ready source operand: its cycle; *dep = its producer and cause. */
static uint64_t operands_ready(const timing_t *t, const insn_t *in, why_t *dep)
{
    uint64_t ready = 0;
    const uint8_t srcs[3] = { in->rs1, in->rs2, in->rs3 };
    dep->cause = STALL_DEP;
    dep->culprit = 0;
    dep->role = DISE_ROLE_NONE;
    for (int k = 0; k < 3; k++) {
        unsigned r = srcs[k];
        if (r == REG_NONE || t->reg_ready[r] <= ready) continue;
        ready = t->reg_ready[r];
        dep->culprit = t->reg_producer[r];
        dep->role = t->reg_role[r];
        dep->cause = t->reg_cause[r];
    }
    return ready;
}

static void set_result(timing_t *t, const insn_t *in, uint64_t avail, uint8_t cause)
{
    if (in->rd == REG_NONE || in->rd == REG_SINK) return;
    t->reg_ready[in->rd] = avail;
    t->reg_producer[in->rd] = in->pc;
    t->reg_role[in->rd] = t->cur_role;
    t->reg_cause[in->rd] = cause;
}

/* Memory access of a load or store at cycle `at`; returns completion. */
static uint64_t data_access(timing_t *t, const insn_t *in, uint64_t addr, uint64_t at,
                            uint8_t *cause)
{
    unsigned tlb_extra = tlb_access(t->dtlb, addr);
    *cause = tlb_extra ? STALL_DTLB : STALL_NONE;
    if (in->flags & IF_LOAD) {
        uint64_t ready = cache_access(t->l1d, addr, false, at + tlb_extra);
        if (!cache_last_hit(t->l1d)) *cause = STALL_DCACHE;
        return ready;
    }
    if (!t->wbuf) {
        uint64_t done = cache_access(t->l1d, addr, true, at + tlb_extra);
        if (!cache_last_hit(t->l1d)) *cause = STALL_DCACHE;
        return done;
    }
    uint64_t accept = write_buffer_store(t->wbuf, addr, at + tlb_extra);
    if (accept > at + tlb_extra) {
        *cause = STALL_WBUF;
        t->wbuf_stall_cycles += accept - (at + tlb_extra);
    }
    return accept + 1;
}

/* Branch prediction; returns the cycle the next fetch may start (0 = no
 * redirect) and counts mispredictions. */
static uint64_t predict_control(timing_t *t, const insn_t *in, uint64_t next_pc,
                                uint64_t decode_done, uint64_t resolved)
{
    bpred_result_t pred = bpred_predict(t->bp, in);
    bool taken = next_pc != in->pc + in->len;
    bool correct = bpred_update(t->bp, in, taken, next_pc);
    if (!correct) {
        t->mispredicts++;
        t->redirect_why = (why_t){ STALL_MISPREDICT, in->pc, t->cur_role };
        return resolved;
    }
    if (taken && !pred.btb_hit) {           /* target known only at decode */
        t->decode_redirects++;
        t->redirect_why = (why_t){ STALL_FETCH, in->pc, t->cur_role };
        return decode_done;
    }
    return 0;
}

/* An inserted DISE operation that changed the flow: a call into a handler
 * is redirected at decode (its target is instantiated); a taken DISE
 * branch is resolved in execute, like a branch predicted not taken. */
static void dise_control(timing_t *t, const insn_t *in, uint64_t decode_done, uint64_t resolved)
{
    if (!t->dise_redirect) return;
    t->redirect = in->op == DOP_CALL ? decode_done : resolved;
    t->redirect_why = (why_t){ in->op == DOP_CALL ? STALL_FETCH : STALL_MISPREDICT, in->pc,
                               t->cur_role };
}

/* ---- ground truth ----------------------------------------------------------- */

static gt_entry_t *gt_slot(timing_t *t, uint64_t pc)
{
    if (2 * (t->gt_used + 1) > t->gt_cap) {
        size_t cap = t->gt_cap ? 2 * t->gt_cap : 4096;
        gt_entry_t *n = xcalloc(cap, sizeof *n);
        for (size_t k = 0; k < t->gt_cap; k++) {
            if (!t->gt[k].count) continue;
            size_t i = (t->gt[k].pc >> 1) * 0x9e3779b97f4a7c15ull >> 20 & (cap - 1);
            while (n[i].count) i = (i + 1) & (cap - 1);
            n[i] = t->gt[k];
        }
        free(t->gt);
        t->gt = n;
        t->gt_cap = cap;
    }
    size_t i = (pc >> 1) * 0x9e3779b97f4a7c15ull >> 20 & (t->gt_cap - 1);
    while (t->gt[i].count && t->gt[i].pc != pc) i = (i + 1) & (t->gt_cap - 1);
    if (!t->gt[i].count) { t->gt[i].pc = pc; t->gt_used++; }
    return &t->gt[i];
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
static void record_head(timing_t *t, const insn_t *in, uint64_t head, why_t why)
{
    uint64_t extra = head > 1 ? head - 1 : 0;
    t->head_stall[why.cause] += extra;
    uint64_t decode = extra < t->front_penalty ? extra : t->front_penalty;
    t->role_cycles[t->cur_role] += head - extra;
    t->role_cycles[t->penalty_role] += decode;
    t->role_cycles[why.culprit ? why.role : t->cur_role] += extra - decode;
    if (!t->out.ground_truth) return;
    gt_entry_t *g = gt_slot(t, in->pc);
    g->count++;
    g->head += head;
    g->stall[why.cause] += extra;
    if (why.culprit && extra > g->culprit_cycles) {
        g->culprit_pc = why.culprit;
        g->culprit_cycles = extra;
    }
}

/* ---- views ------------------------------------------------------------------ */

static const char *const five_stage_names[5] = { "F", "D", "X", "M", "W" };
static const char *const ev5_stage_names[5] = { "F", "S", "I", "X", "W" };

static void view_insn(timing_t *t, const insn_t *in, const uint64_t st[5], uint64_t retire)
{
    if (t->seq < t->out.view_from || t->seq >= t->out.view_to) return;
    pv_insn_t v = { .id = t->seq, .pc = in->pc, .nstages = 5, .retire_cycle = retire,
                    .stage_names = t->p.model == CFG_MODEL_EV5 ? ev5_stage_names : five_stage_names };
    memcpy(v.stage_cycle, st, 5 * sizeof st[0]);
    uint8_t bytes[4] = { (uint8_t)in->raw, (uint8_t)(in->raw >> 8),
                         (uint8_t)(in->raw >> 16), (uint8_t)(in->raw >> 24) };
    if (in->flags & IF_DISE) dise_format(in, v.text, sizeof v.text);
    else if (!t->out.disasm || disasm_insn(t->out.disasm, in->pc, bytes, in->len, v.text,
                                           sizeof v.text) <= 0)
        snprintf(v.text, sizeof v.text, "%08" PRIx32, in->raw);
    pipeview_insn(&t->pv, &v);
    pipeview_advance(&t->pv, st[0]);
}

/* ---- the five-stage pipeline -------------------------------------------------- */

/* Cycle a dependent may enter EX with the result of `in`, through the
 * forwarding paths that are switched on.  A load's value is forwarded from
 * MEM/WB when its access completes, and never sooner than lat.load_use
 * after its own EX (with a 1-cycle D-cache hit the two agree: 2). */
static uint64_t result_ready_5(const timing_t *t, const insn_t *in, uint64_t x, uint64_t xdone,
                               uint64_t m, uint64_t mdone, uint64_t w)
{
    if (in->flags & IF_LOAD)
        return max2(t->p.fwd_mem_ex ? mdone : w + 1, x + t->p.lat[OC_LOAD]);
    if (t->p.fwd_ex_ex) return xdone;
    return t->p.fwd_mem_ex ? m + 1 : w + 1;
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

/* Head-of-queue accounting of an instruction entering EX at x: head is the
 * distance from the previous one's EX; a late x is charged to the binding
 * constraint, in this order: an operand (dep: its producer and cause:
 * dcache_miss, dtlb_miss or data_dependency), the previous instruction
 * still holding EX (why it could not leave), a busy divider, else the front
 * end (front: I-cache, I-TLB, a redirect and the transfer behind it). */
static void head_5(timing_t *t, const insn_t *in, uint64_t x, uint64_t d, uint64_t ops,
                   why_t dep, uint64_t dfree, why_t front)
{
    uint64_t head = t->seq == 0 ? x + 1 : x - t->prev_x;
    why_t why = front;
    if (x == ops && ops > d + 1 && ops > t->prev_m)
        why = dep;
    else if (x == t->prev_m && t->prev_m > d + 1)
        why = t->prev_m_why;
    else if (x == dfree && dfree > d + 1)
        why = divider_why(t, divider_of(in));
    else if (why.cause == STALL_NONE)
        why.cause = STALL_FETCH;
    record_head(t, in, head, why);
}

/* Why the instruction leaves EX late (enters MEM after x + 1): its own
 * multi-cycle operation, or the older one still in MEM; and why it leaves
 * MEM late: its own memory access.  Kept for the younger instructions. */
static void holds_5(timing_t *t, const insn_t *in, uint64_t x, uint64_t xdone, uint64_t m,
                    uint64_t mdone, uint8_t mcause)
{
    why_t mw = { .cause = STALL_NONE }, ww = { .cause = STALL_NONE };
    if (m > x + 1)
        mw = xdone >= t->prev_w ? (why_t){ STALL_FU, in->pc, t->cur_role } : t->prev_w_why;
    if (mdone > m + 1)                       /* a slow hit: the MEM stage is busy */
        ww = (why_t){ mcause != STALL_NONE ? mcause : STALL_FU, in->pc, t->cur_role };
    t->prev_m_why = mw;
    t->prev_w_why = ww;
}

static void time_inorder5(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)
{
    uint8_t fcause = STALL_NONE, mcause = STALL_NONE;
    why_t dep, front = { .cause = STALL_NONE };
    uint64_t f = max2(t->prev_d, t->redirect);
    if (t->redirect > t->prev_d) front = t->redirect_why;
    uint64_t fready = fetch_bytes(t, in->pc, f, &fcause);
    if (fcause != STALL_NONE) front = (why_t){ .cause = fcause };
    uint64_t d = max2(fready, t->prev_x) + t->front_penalty;   /* DISE decode stall */
    uint64_t ops = operands_ready(t, in, &dep);
    int dv = divider_of(in);
    uint64_t dfree = divider_free(t, dv);
    uint64_t x = max2(max2(d + 1, t->prev_m), max2(ops, dfree));
    bool memop = in->flags & (IF_LOAD | IF_STORE);
    uint64_t xdone = x + (memop ? 1 : t->p.lat[in->opclass]);   /* address add */
    uint64_t m = max2(xdone, t->prev_w);
    uint64_t mdone = m + 1;
    if (memop) mdone = max2(mdone, data_access(t, in, addr, m, &mcause));
    uint64_t w = max2(mdone, t->prev_w + 1);

    head_5(t, in, x, d, ops, dep, dfree, front);
    use_divider(t, in, dv, xdone);
    set_result(t, in, result_ready_5(t, in, x, xdone, m, mdone, w),
               mcause == STALL_DCACHE || mcause == STALL_DTLB ? mcause : STALL_DEP);
    holds_5(t, in, x, xdone, m, mdone, mcause);
    if (unlikely(in->flags & IF_DISE))
        dise_control(t, in, d + 1, resolve_5(t, d, ops, xdone, mdone));
    else if (in->flags & (IF_BRANCH | IF_JUMP))
        t->redirect = predict_control(t, in, next_pc, d + 1, resolve_5(t, d, ops, xdone, mdone));
    if (t->views) {
        uint64_t st[5] = { f, d, x, m, w };
        view_insn(t, in, st, w + 1);
    }
    t->prev_d = d; t->prev_x = x; t->prev_m = m; t->prev_w = w;
    t->cycles = w + 1;
}

/* ---- the 21164-like superscalar ------------------------------------------------ */

enum { PIPE_INT, PIPE_FADD, PIPE_FMUL, PIPE_MEM };

static int pipe_of(const insn_t *in)
{
    if (in->flags & (IF_LOAD | IF_STORE)) return PIPE_MEM;
    switch (in->opclass) {
    case OC_FMUL: case OC_FDIV: case OC_FSQRT: return PIPE_FMUL;
    case OC_FALU: case OC_FCVT: case OC_FMOVE: return PIPE_FADD;
    default: return PIPE_INT;
    }
}

/* Does the instruction fit the issue group of cycle e? */
static bool fits_group(const timing_t *t, const insn_t *in, uint64_t e, uint64_t block)
{
    if (e != t->group_cycle) return true;
    if (t->group_closed || t->group_n >= t->p.width) return false;
    if (t->p.slotting && block != t->group_block) return false;
    switch (pipe_of(in)) {
    case PIPE_MEM:  return t->group_mem < t->p.mem_ports && t->group_int < t->p.int_pipes;
    case PIPE_FADD: return t->group_fadd < 1 && t->group_fadd + t->group_fmul < t->p.fp_pipes;
    case PIPE_FMUL: return t->group_fmul < 1 && t->group_fadd + t->group_fmul < t->p.fp_pipes;
    default:        return t->group_int < t->p.int_pipes;
    }
}

/* The first cycle from e whose issue group takes the instruction (a full
 * or closed group only holds it to the next cycle). */
static uint64_t group_slot(const timing_t *t, const insn_t *in, uint64_t e, uint64_t block)
{
    return fits_group(t, in, e, block) ? e : e + 1;
}

static void join_group(timing_t *t, const insn_t *in, uint64_t e, uint64_t block)
{
    if (e != t->group_cycle) {
        t->group_cycle = e;
        t->group_n = t->group_int = t->group_fadd = t->group_fmul = t->group_mem = 0;
        t->group_closed = false;
        t->group_block = block;
    }
    t->group_n++;
    switch (pipe_of(in)) {
    case PIPE_MEM:  t->group_mem++; t->group_int++; break;   /* 21164: mem ops use an E pipe */
    case PIPE_FADD: t->group_fadd++; break;
    case PIPE_FMUL: t->group_fmul++; break;
    default:        t->group_int++; break;
    }
    if (in->flags & (IF_BRANCH | IF_JUMP)) t->group_closed = true;
}

/* Cycle the instruction's fetch block arrives, fetching aligned blocks of
 * `width` 4-byte slots, one block a cycle, bounded by issue-queue space;
 * *front: why a newly fetched block came late (a redirect, the I-cache). */
static uint64_t ev5_fetch(timing_t *t, const insn_t *in, uint64_t *block_out, why_t *front)
{
    uint64_t block = in->pc / (4ull * t->p.width);
    *block_out = block;
    *front = (why_t){ .cause = STALL_NONE };
    if (block != t->fetch_block || t->redirect > t->fetch_block_cycle) {
        uint64_t space = t->iq_ring[t->seq % t->p.iq_entries];
        uint64_t f = max2(max2(t->fetch_block_cycle + 1, t->redirect), space);
        if (t->redirect > t->fetch_block_cycle + 1 && t->redirect >= space)
            *front = t->redirect_why;
        uint8_t icause;
        t->fetch_block_cycle = fetch_bytes(t, in->pc, f, &icause) - t->p.l1i_hit;
        if (icause != STALL_NONE) *front = (why_t){ .cause = icause };
        t->fetch_block = block;
        t->block_fetch_start = f;
    }
    t->fetch_block_cycle += t->front_penalty;     /* DISE decode stall */
    return t->fetch_block_cycle;
}

/* A load or store issued at *e accesses the D-cache (a store: the write
 * buffer) in that cycle.  Returns the cycle its result can be used: a
 * load's dependents wait for the data, and at least lat.load_use; a store
 * that finds the write buffer full stays at the head until an entry frees
 * (*e moves there). */
static uint64_t ev5_memory(timing_t *t, const insn_t *in, uint64_t addr, uint64_t *e,
                           uint64_t block, uint8_t *mcause)
{
    uint64_t done = data_access(t, in, addr, *e, mcause);
    if (in->flags & IF_LOAD) return max2(done, *e + t->p.lat[OC_LOAD]);
    if (*mcause == STALL_WBUF) *e = group_slot(t, in, done - 1, block);
    return *e + t->p.lat[in->opclass];
}

/* Head-of-queue accounting of an instruction issuing at e (see head_5):
 * a store held by a full write buffer, a dependency, a full or closed issue
 * group (slotting), a busy divider, else the front end. */
static void head_ev5(timing_t *t, const insn_t *in, uint64_t e, uint64_t arrive, uint64_t ops,
                     why_t dep, uint64_t dfree, bool slotted, uint8_t mcause, why_t front)
{
    uint64_t head = t->seq == 0 ? e + 1 : e - t->prev_issue;
    why_t why = front;
    if (mcause == STALL_WBUF && in->flags & IF_STORE)
        why = (why_t){ .cause = STALL_WBUF };
    else if (e == ops && ops > arrive && ops > t->prev_issue && !slotted)
        why = dep;
    else if (slotted)
        why = (why_t){ .cause = STALL_SLOT };
    else if (e == dfree && dfree > arrive)
        why = divider_why(t, divider_of(in));
    else if (why.cause == STALL_NONE)
        why.cause = STALL_FETCH;
    record_head(t, in, head, why);
}

static void time_ev5(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)
{
    uint64_t block;
    uint8_t mcause = STALL_NONE;
    why_t front, dep;
    uint64_t fetched = ev5_fetch(t, in, &block, &front);
    uint64_t arrive = fetched + t->p.frontend_depth;
    uint64_t ops = operands_ready(t, in, &dep);
    int dv = divider_of(in);
    uint64_t dfree = divider_free(t, dv);
    uint64_t ready = max2(max2(arrive, t->prev_issue), max2(ops, dfree));
    uint64_t e = group_slot(t, in, ready, block);
    bool slotted = e > ready;

    uint64_t complete = e + t->p.lat[in->opclass];
    if (in->flags & (IF_LOAD | IF_STORE)) complete = ev5_memory(t, in, addr, &e, block, &mcause);
    join_group(t, in, e, block);
    head_ev5(t, in, e, arrive, ops, dep, dfree, slotted, mcause, front);
    use_divider(t, in, dv, complete);
    set_result(t, in, complete, mcause == STALL_DCACHE || mcause == STALL_DTLB ? mcause : STALL_DEP);
    if (unlikely(in->flags & IF_DISE)) {
        dise_control(t, in, fetched + 2, e + 1 + t->p.mispredict_penalty - t->p.frontend_depth);
        if (t->dise_redirect) t->group_closed = true;
    } else if (in->flags & (IF_BRANCH | IF_JUMP)) {
        /* A mispredicted target is fetched so that it issues 1 + penalty
         * cycles after the branch; a taken branch without a BTB target is
         * redirected when its block is decoded, one cycle after the fetch,
         * so the target block is fetched a cycle late. */
        uint64_t resolved = e + 1 + t->p.mispredict_penalty - t->p.frontend_depth;
        uint64_t r = predict_control(t, in, next_pc, fetched + 2, resolved);
        t->redirect = r;
        if (r) t->group_closed = true;
    }
    uint64_t retire = max2(complete, t->prev_retire) + 1;
    if (t->views) {
        uint64_t st[5] = { t->block_fetch_start, fetched, e, e + 1, retire - 1 };
        if (st[1] < st[0]) st[1] = st[0];
        view_insn(t, in, st, retire);
    }
    t->iq_ring[t->seq % t->p.iq_entries] = e;
    t->prev_issue = e;
    t->prev_retire = retire - 1;
    t->cycles = retire;
}

/* ---- the run loop --------------------------------------------------------------- */

typedef struct loop_ctx { timing_t *t; } loop_ctx_t;

static void timing_loop(cpu_t *c, void *ctx)
{
    timing_t *t = ((loop_ctx_t *)ctx)->t;
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL;
    bool ev5 = t->p.model == CFG_MODEL_EV5;
    for (;;) {
        uint64_t pc = c->pc;
        insn_t *in = core_lookup(c, pc, &page_base, &slots);
        core_step(c, in, pc);
        if (ev5) time_ev5(t, in, c->mem_addr, c->pc);
        else time_inorder5(t, in, c->mem_addr, c->pc);
        t->seq++;
        c->cycle = t->cycles;
        if (unlikely(++c->instret >= c->inst_limit)) return;
    }
}

/* The same with DISE editing the stream (dise_engine.h): program
 * instructions are timed as in timing_loop (those the engine classified
 * run its semantics through their exec); a step the engine diverted into a
 * replacement sequence, and the sequence's and its handlers' further
 * steps, are timed with their role, which the cycles are charged to, and
 * the decode penalty of the replacement. */
typedef struct dise_loop_ctx { timing_t *t; dise_t *d; } dise_loop_ctx_t;

static void time_insn(timing_t *t, cpu_t *c, const insn_t *in)
{
    if (t->p.model == CFG_MODEL_EV5) time_ev5(t, in, c->mem_addr, c->pc);
    else time_inorder5(t, in, c->mem_addr, c->pc);
    t->seq++;
    c->cycle = t->cycles;
}

/* Time a step of the edited stream that dise_step (or a diverted step)
 * executed: `in` is the record, d->kind whose it is. */
static void time_edited(timing_t *t, dise_t *d, cpu_t *c, const insn_t *in)
{
    if (d->kind == DK_PROGRAM) {
        t->cur_role = DISE_ROLE_NONE;
    } else if (d->kind == DK_INSERTED) {
        t->cur_role = in->rm;
        t->dise_redirect = d->redirect;
    } else {
        t->cur_role = d->handler_role;
    }
    t->front_penalty = d->penalty_pending;
    t->penalty_role = d->penalty_role;
    d->penalty_pending = 0;
    time_insn(t, c, in);
    t->front_penalty = 0;
    t->cur_role = DISE_ROLE_NONE;
}

/* The diverted step, then the rest of its sequence and the handlers it
 * calls; false when the instruction limit is reached. */
static bool timing_dise_edited(timing_t *t, dise_t *d, cpu_t *c)
{
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL;
    bool more = true;
    d->page_base = &page_base;
    time_edited(t, d, c, dise_take_diverted(d, c));
    if (++c->instret >= c->inst_limit) more = false;
    while (more && dise_busy(d)) {
        insn_t *in = dise_step(d, c, &page_base, &slots);
        time_edited(t, d, c, in);
        if (unlikely(++c->instret >= c->inst_limit)) more = false;
    }
    d->page_base = NULL;
    return more;
}

static void timing_dise_loop(cpu_t *c, void *ctx)
{
    dise_loop_ctx_t *x = ctx;
    timing_t *t = x->t;
    dise_t *d = x->d;
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL;
    bool ev5 = t->p.model == CFG_MODEL_EV5;
    t->cur_role = DISE_ROLE_NONE;
    for (;;) {
        uint64_t pc = c->pc;
        insn_t *in = core_lookup(c, pc, &page_base, &slots);
        core_step(c, in, pc);
        if (unlikely(d->diverted)) {   /* the code page stays valid: see run_dise */
            if (!timing_dise_edited(t, d, c)) break;
            continue;
        }
        if (ev5) time_ev5(t, in, c->mem_addr, c->pc);
        else time_inorder5(t, in, c->mem_addr, c->pc);
        t->seq++;
        c->cycle = t->cycles;
        if (unlikely(++c->instret >= c->inst_limit)) break;
    }
}

stop_reason_t timing_run_dise(timing_t *t, cpu_t *c, uint64_t max_insts, dise_t *d,
                              struct hps_truth *ht)
{
    dise_loop_ctx_t ctx = { t, d };
    if (ht) dise_set_truth(d, ht);
    stop_reason_t why = cpu_run_loop(c, max_insts, timing_dise_loop, &ctx);
    t->insts = c->instret;
    c->cycle = t->cycles;
    memcpy(d->measured_role_cycles, t->role_cycles, sizeof t->role_cycles);
    d->role_cycles_measured = true;
    return why;
}

stop_reason_t timing_run(timing_t *t, cpu_t *c, uint64_t max_insts)
{
    loop_ctx_t ctx = { t };
    stop_reason_t why = cpu_run_loop(c, max_insts, timing_loop, &ctx);
    t->insts = c->instret;
    c->cycle = t->cycles;
    return why;
}

/* ---- statistics and outputs --------------------------------------------------- */

void timing_stats(const timing_t *t, const cpu_t *c, stats_t *s)
{
    uint64_t cycles = t->cycles ? t->cycles : 1;
    stats_add_u64(s, "cpu.cycles", t->cycles, "Cycle", "Cycles simulated by the timing model");
    stats_add_f64(s, "cpu.ipc", (double)c->instret / (double)cycles, "Count/Cycle",
                  "Instructions per cycle");
    stats_add_f64(s, "cpu.cpi", (double)cycles / (double)(c->instret ? c->instret : 1),
                  "Cycle/Count", "Cycles per instruction");
    char name[64], desc[128];
    for (int k = 0; k < STALL_COUNT; k++) {
        if (k == STALL_NONE) continue;
        snprintf(name, sizeof name, "cpu.stallCycles::%s", stall_names[k]);
        snprintf(desc, sizeof desc, "Head-of-queue stall cycles caused by %s", stall_names[k]);
        stats_add_u64(s, name, t->head_stall[k], "Cycle", desc);
    }
    stats_add_u64(s, "cpu.branchMispredicts", t->mispredicts, "Count",
                  "Control transfers whose direction or target was mispredicted");
    stats_add_u64(s, "cpu.decodeRedirects", t->decode_redirects, "Count",
                  "Taken transfers predicted without a BTB target (redirected at decode)");
    stats_add_u64(s, "cpu.writeBufferStallCycles", t->wbuf_stall_cycles, "Cycle",
                  "Cycles stores waited for a free write-buffer entry");
    cache_stats(t->l1i, s);
    cache_stats(t->l1d, s);
    if (t->l2) cache_stats(t->l2, s);
    tlb_stats(t->itlb, s);
    tlb_stats(t->dtlb, s);
    if (t->wbuf) write_buffer_stats(t->wbuf, s);
    bpred_stats(t->bp, s);
}

static int gt_by_pc(const void *a, const void *b)
{
    const gt_entry_t *x = a, *y = b;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The ground-truth file: documented in pipeline/README.md. */
static void write_ground_truth(timing_t *t)
{
    FILE *out = t->out.ground_truth;
    size_t n = 0;
    gt_entry_t *rows = xcalloc(t->gt_used, sizeof *rows);
    for (size_t k = 0; k < t->gt_cap; k++)
        if (t->gt[k].count) rows[n++] = t->gt[k];
    qsort(rows, n, sizeof *rows, gt_by_pc);
    fprintf(out, "# hps-sim ground truth v1: per static instruction, cycles at the head of\n"
                 "# the issue queue and those beyond the first split by stall cause;\n"
                 "# culprit_pc: the instruction behind the row's longest single stall\n"
                 "# (format: pipeline/README.md)\n");
    fprintf(out, "pc\tsymbol\tcount\thead_cycles");
    for (int k = 1; k < STALL_COUNT; k++) fprintf(out, "\t%s", stall_names[k]);
    fprintf(out, "\tculprit_pc\n");
    uint64_t head_sum = 0;
    for (size_t k = 0; k < n; k++) {
        char sym[160];
        head_sum += rows[k].head;
        symtab_format(t->out.symtab, rows[k].pc, sym, sizeof sym);
        fprintf(out, "0x%" PRIx64 "\t%s\t%" PRIu64 "\t%" PRIu64, rows[k].pc, sym,
                rows[k].count, rows[k].head);
        for (int s = 1; s < STALL_COUNT; s++) fprintf(out, "\t%" PRIu64, rows[k].stall[s]);
        if (rows[k].culprit_pc) fprintf(out, "\t0x%" PRIx64 "\n", rows[k].culprit_pc);
        else fprintf(out, "\t-\n");
    }
    fprintf(out, "# total: cycles %" PRIu64 " = head_cycles %" PRIu64 " + drain %" PRIu64
            " (cycles after the last issue)\n", t->cycles, head_sum,
            t->cycles >= head_sum ? t->cycles - head_sum : 0);
    free(rows);
}

void timing_finish(timing_t *t)
{
    if (t->views) pipeview_finish(&t->pv);
    if (t->out.ground_truth) write_ground_truth(t);
}

void timing_free(timing_t *t)
{
    if (!t) return;
    if (t->l1i) cache_free(t->l1i);
    if (t->l1d) cache_free(t->l1d);
    if (t->l2) cache_free(t->l2);
    if (t->itlb) tlb_free(t->itlb);
    if (t->dtlb) tlb_free(t->dtlb);
    if (t->wbuf) write_buffer_free(t->wbuf);
    if (t->bp) bpred_free(t->bp);
    free(t->iq_ring);
    free(t->gt);
    free(t);
}
