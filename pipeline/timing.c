/*
 * timing.c - what the timing models share (timing_model.h): the model
 * table, building a timing run from the configuration (caches, TLBs, write
 * buffer, branch predictor), the pieces each model is built from,
 * head-cycle accounting, the statistics, the ground-truth file, static
 * schedules, and what the interactive shell looks at (the last
 * instructions, the caches and the predictor).  The models themselves,
 * which time one instruction each, are in inorder.c and ooo.c; the run
 * loop that hands them instructions is sim/engine.c.
 */
#include "timing_model.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "disasm.h"
#include "dise_engine.h"
#include "lost.h"
#include "profileme.h"
#include "runtime.h"
#include "symtab.h"
#include "util.h"

const char *const stall_names[STALL_COUNT] = {
#define STALL_NAME(id, name) name,
    STALL_LIST(STALL_NAME)
#undef STALL_NAME
};

/* ---- the models ------------------------------------------------------------ */

const timing_model_t timing_models[] = {
    { .cfg_model = CFG_MODEL_INORDER5, .time_insn = time_inorder5, .static_schedule = true,
      .time_insn_heads = time_inorder5_heads, .takes_blocks = true,
      .time_insn_plain = time_inorder5_plain, .time_insn_plain_heads = time_inorder5_plain_heads },
    { .cfg_model = CFG_MODEL_EV5, .time_insn = time_ev5, .static_schedule = true,
      .time_insn_heads = time_ev5_heads, .takes_blocks = true,
      .time_insn_plain = time_ev5_plain, .time_insn_plain_heads = time_ev5_plain_heads },
    { .cfg_model = CFG_MODEL_OOO, .time_insn = time_ooo, .new_state = ooo_new,
      .free_state = ooo_free, .state_stats = ooo_stats, .takes_blocks = true,
      .time_insn_plain = time_ooo_block },
};
const size_t timing_model_count = sizeof timing_models / sizeof timing_models[0];

bool timing_takes_blocks(const timing_t *t) { return t->model && t->model->takes_blocks; }

timing_insn_fn timing_block_insn(const timing_t *t) { return t->block_insn; }

static const timing_model_t *model_of(const config_t *cfg)
{
    for (size_t k = 0; k < timing_model_count; k++)
        if (timing_models[k].cfg_model == (int)cfg->model) return &timing_models[k];
    return NULL;
}

/* ---- configuration -------------------------------------------------------- */

void timing_latencies(const config_t *cfg, unsigned lat[OC_COUNT])
{
    for (int k = 0; k < OC_COUNT; k++) lat[k] = (unsigned)cfg->lat_int_alu;
    lat[OC_IMUL] = (unsigned)cfg->lat_int_mul;
    lat[OC_IDIV] = (unsigned)cfg->lat_int_div;
    lat[OC_FALU] = (unsigned)cfg->lat_fp_add;
    lat[OC_FMUL] = (unsigned)cfg->lat_fp_mul;
    lat[OC_FDIV] = (unsigned)cfg->lat_fp_div;
    lat[OC_FSQRT] = (unsigned)cfg->lat_fp_sqrt;
    lat[OC_FCVT] = (unsigned)cfg->lat_fp_cvt;
    lat[OC_FMOVE] = (unsigned)cfg->lat_int_alu;
    lat[OC_LOAD] = lat[OC_FLOAD] = (unsigned)cfg->lat_load_use;
}

static void fill_latencies(params_t *p, const config_t *cfg)
{
    timing_latencies(cfg, p->lat);
    p->div_pipelined[DIV_INT] = cfg->lat_int_div_pipelined;
    p->div_pipelined[DIV_FP] = cfg->lat_fp_div_pipelined;
}

static void fill_params(params_t *p, const config_t *cfg)
{
    memset(p, 0, sizeof *p);
    p->model = (int)cfg->model;
    p->fwd_ex_ex = cfg->inorder5_forward_ex_ex;
    p->fwd_mem_ex = cfg->inorder5_forward_mem_ex;
    p->fwd_gap = p->fwd_ex_ex && !p->fwd_mem_ex;
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
    p->l1d_hit = (unsigned)cfg->l1d_hit_latency;
    fill_latencies(p, cfg);
    if (p->width == 0) p->width = 1;
    if (p->iq_entries == 0) p->iq_entries = 1;
    /* every limit is at most 8 (config_params.def): the lanes never carry */
    p->group_room = GRP_LANE(GRP_N, p->width) | GRP_LANE(GRP_INT, p->int_pipes) |
                    GRP_LANE(GRP_MEM, p->mem_ports) | GRP_LANE(GRP_FADD, 1) |
                    GRP_LANE(GRP_FMUL, 1) | GRP_LANE(GRP_FP, p->fp_pipes) |
                    GRP_LANE(GRP_CLOSED, 0) | 0x0080808080808080ull;
    unsigned block = 4 * p->width;
    p->block_shift = (block & (block - 1)) == 0 ? (unsigned)__builtin_ctz(block) : 0;
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
    if (t->bp) {
        t->bp_cond = bpred_split_fn(t->bp, true);
        t->bp_other = bpred_split_fn(t->bp, false);
    }
}

/* The in-order models' quick path (inorder.c) needs a run with none of
 * the outputs an instruction may add to: views, ProfileMe, the shell's
 * history, ground truth with its stalls; and ev5's issue-queue slot and
 * fetch block without a divide.  Ground truth of the heads only (DCPI's)
 * is added to by the model's heads variant (time_insn_heads), whose quick
 * path records them.  The out-of-order model's plain variant needs a run
 * with no outputs at all (stats_only).  Asked again whenever one of those
 * changes. */
static void note_outputs(timing_t *t)
{
    t->stats_only = !t->views && !t->pm && !t->recent && !t->keep_truth;
    bool quick = !t->views && !t->pm && !t->recent && t->iq_pow2 && t->p.block_shift != 0;
    bool heads = quick && t->keep_truth && !t->keep_why && t->model && t->model->time_insn_heads;
    t->plain = quick && (!t->keep_truth || heads);
    if (t->model) t->time_insn = heads ? t->model->time_insn_heads : t->model->time_insn;
    t->block_insn = t->time_insn;
    if (t->plain && t->model && t->model->time_insn_plain)
        t->block_insn = heads ? t->model->time_insn_plain_heads : t->model->time_insn_plain;
}

static void forget_recent_chunks(timing_t *t);

timing_t *timing_new(const config_t *cfg, char *err, size_t errlen)
{
    const timing_model_t *model = model_of(cfg);
    if (!model) {
        snprintf(err, errlen, "model '%s' has no timing", config_enum_name("model", cfg->model));
        return NULL;
    }
    timing_t *t = xcalloc(1, sizeof *t);
    t->time_insn = model->time_insn;
    t->pmu_gate = UINT64_MAX;
    forget_recent_chunks(t);
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
    t->iq_mask = t->p.iq_entries - 1;
    t->iq_pow2 = (t->p.iq_entries & t->iq_mask) == 0;
    t->model = model;
    note_outputs(t);
    if (model->new_state) t->model_state = model->new_state(cfg);
    t->fetch_line = ~0ull;
    t->fetch_block = ~0ull;
    return t;
}

void timing_set_profileme(timing_t *t, profileme_t *pm)
{
    t->pm = pm;
    note_outputs(t);
}

void tm_profileme(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc,
                  const uint64_t st[5], uint8_t fcause, uint8_t mcause, uint64_t load_latency)
{
    if (t->cur_role != DISE_ROLE_NONE || runtime_contains(in->pc) || !profileme_selects(t->pm))
        return;
    pm_record_t r = { .pc = in->pc, .fetch = st[0], .decode = st[1], .issue = st[2],
                      .complete = st[3], .retire = st[4], .head = t->pm_head,
                      .flags = PM_RETIRED };
    if (in->flags & (IF_LOAD | IF_STORE)) {
        r.addr = addr;
        r.flags |= in->flags & IF_LOAD ? PM_LOAD : PM_STORE;
        if (in->flags & IF_LOAD) r.load_latency = load_latency;
        if (mcause == STALL_DCACHE && in->flags & IF_LOAD) r.flags |= PM_DCACHE;
        if (mcause == STALL_DTLB) r.flags |= PM_DTLB;
    }
    if (in->flags & (IF_BRANCH | IF_JUMP)) {
        r.flags |= PM_BRANCH;
        if (next_pc != in->pc + in->len) r.flags |= PM_TAKEN;
        if (t->mispredict_at == t->seq + 1) r.flags |= PM_MISPREDICT;
    }
    if (fcause == STALL_ICACHE) r.flags |= PM_ICACHE;
    if (fcause == STALL_ITLB) r.flags |= PM_ITLB;
    profileme_record(t->pm, &r);
}

void tm_profileme_wrong_path(timing_t *t, const insn_t *in, uint64_t addr, const uint64_t st[5],
                             unsigned reached, uint64_t squash)
{
    if (runtime_contains(in->pc)) return;   /* the handler's code: not the program's */
    profileme_wrong_path_fetched(t->pm, 1);
    if (!profileme_selects(t->pm)) return;
    pm_record_t r = { .pc = in->pc, .fetch = st[0], .decode = reached > 1 ? st[1] : squash,
                      .issue = reached > 2 ? st[2] : squash,
                      .complete = reached > 3 ? st[3] : squash, .retire = squash,
                      .flags = PM_WRONG_PATH };
    if (in->flags & (IF_LOAD | IF_STORE)) {
        r.addr = addr;
        r.flags |= in->flags & IF_LOAD ? PM_LOAD : PM_STORE;
    }
    if (in->flags & (IF_BRANCH | IF_JUMP)) r.flags |= PM_BRANCH;
    profileme_record(t->pm, &r);
}

static void keep_why(timing_t *t);

void timing_set_outputs(timing_t *t, const timing_outputs_t *out)
{
    t->out = *out;
    t->views = out->kanata || out->diagram || out->o3pipeview || t->recent;
    if (out->ground_truth) keep_why(t);
    if (t->views) pipeview_init(&t->pv, out->kanata, out->diagram, out->o3pipeview);
    note_outputs(t);
}

/* ---- ground truth ----------------------------------------------------------- */

static size_t gt_hash(uint64_t pc, size_t cap)
{
    return (pc >> 1) * 0x9e3779b97f4a7c15ull >> 20 & (cap - 1);
}

static uint64_t chunk_base(uint64_t pc) { return pc >> GT_CHUNK_SHIFT << GT_CHUNK_SHIFT; }

/* pc's slot in the flat store; gt_flat_n or more when it has none there. */
static uint64_t flat_slot(const timing_t *t, uint64_t pc) { return (pc - t->gt_flat_lo) >> 1; }

/* The flat store of the code range (timing_set_code), once the truth is
 * kept and while nothing is recorded yet: a pc must have its record in
 * one place, so a range named after the first record stays out. */
static void make_flat(timing_t *t)
{
    if (t->gt_flat || !t->keep_truth || t->gt_used || t->code_hi <= t->code_lo) return;
    t->gt_flat_lo = t->code_lo;
    t->gt_flat_n = (t->code_hi - t->code_lo + 1) >> 1;
    t->gt_flat = xcalloc(t->gt_flat_n, sizeof *t->gt_flat);   /* pages touched as used */
    t->gt_flat_span = 2 * t->gt_flat_n - 1;
    t->gt_flat_at = (uintptr_t)t->gt_flat - t->gt_flat_lo * (sizeof *t->gt_flat / 2);
    if (t->keep_why) t->gt_flat_why = xcalloc(t->gt_flat_n, sizeof *t->gt_flat_why);
}

/* Largest code range given a flat store: 64 MB (512 MB of records). */
#define GT_FLAT_MAX_BYTES (64ull << 20)

void timing_set_code(timing_t *t, uint64_t lo, uint64_t hi)
{
    lo &= ~1ull;
    if (hi <= lo || hi - lo > GT_FLAT_MAX_BYTES) return;
    t->code_lo = lo;
    t->code_hi = hi;
    make_flat(t);
}

static void index_chunk(uint32_t *index, size_t cap, uint64_t base, uint32_t k)
{
    size_t i = gt_hash(base, cap);
    while (index[i]) i = (i + 1) & (cap - 1);
    index[i] = k + 1;
}

/* The chunk of `base`, or -1. */
static long find_chunk(const timing_t *t, uint64_t base)
{
    if (!t->gt_index_cap) return -1;
    for (size_t i = gt_hash(base, t->gt_index_cap); t->gt_index[i];
         i = (i + 1) & (t->gt_index_cap - 1))
        if (t->gt[t->gt_index[i] - 1].base == base) return (long)t->gt_index[i] - 1;
    return -1;
}

/* No last nor recent chunk of the heads' record: none yet, or the chunks
 * moved. */
static void forget_recent_chunks(timing_t *t)
{
    for (unsigned k = 0; k < GT_RECENT; k++) t->gt_recent[k] = (gt_recent_t){ .base = 1 };
    t->gt_cur_base = 1;
}

/* A new, empty chunk for `base`: its index. */
static size_t new_chunk(timing_t *t, uint64_t base)
{
    if (t->gt_nchunks == t->gt_chunk_cap) {
        t->gt_chunk_cap = t->gt_chunk_cap ? 2 * t->gt_chunk_cap : 256;
        t->gt = xrealloc(t->gt, t->gt_chunk_cap * sizeof *t->gt);
        forget_recent_chunks(t);        /* their entries moved */
    }
    if (2 * (t->gt_nchunks + 1) > t->gt_index_cap) {       /* the hash at most half full */
        size_t cap = t->gt_index_cap ? 2 * t->gt_index_cap : 1024;
        uint32_t *index = xcalloc(cap, sizeof *index);
        for (size_t k = 0; k < t->gt_nchunks; k++) index_chunk(index, cap, t->gt[k].base, (uint32_t)k);
        free(t->gt_index);
        t->gt_index = index;
        t->gt_index_cap = cap;
    }
    size_t k = t->gt_nchunks++;
    t->gt[k] = (gt_chunk_t){ .base = base };
    if (t->keep_why) t->gt[k].why = xcalloc(GT_CHUNK_SLOTS, sizeof *t->gt[k].why);
    index_chunk(t->gt_index, t->gt_index_cap, base, (uint32_t)k);
    return k;
}

/* A pc recorded for the first time. */
static void note_seen(timing_t *t, uint64_t pc)
{
    if (t->gt_used == t->gt_seen_cap) {
        t->gt_seen_cap = t->gt_seen_cap ? 2 * t->gt_seen_cap : 1024;
        t->gt_seen = xrealloc(t->gt_seen, t->gt_seen_cap * sizeof *t->gt_seen);
    }
    t->gt_seen[t->gt_used++] = pc;
}

/* pc's record and its stalls (NULL unless keep_why); NULL when it has none. */
static const gt_entry_t *find_record(const timing_t *t, uint64_t pc, const gt_why_t **why)
{
    uint64_t f = flat_slot(t, pc);
    if (f < t->gt_flat_n) {
        if (!t->gt_flat[f].down) return NULL;
        *why = t->gt_flat_why ? &t->gt_flat_why[f] : NULL;
        return &t->gt_flat[f];
    }
    long k = find_chunk(t, chunk_base(pc));
    unsigned s = (unsigned)(pc >> 1) & (GT_CHUNK_SLOTS - 1);
    if (k < 0 || !t->gt[k].e[s].down) return NULL;
    *why = t->gt[k].why ? &t->gt[k].why[s] : NULL;
    return &t->gt[k].e[s];
}

/* Record the stalls and culprits too from now on (the records so far
 * have none). */
static void keep_why(timing_t *t)
{
    t->keep_truth = true;
    note_outputs(t);
    if (t->keep_why) return;
    t->keep_why = true;
    for (size_t k = 0; k < t->gt_nchunks; k++)
        t->gt[k].why = xcalloc(GT_CHUNK_SLOTS, sizeof *t->gt[k].why);
    if (t->gt_flat) t->gt_flat_why = xcalloc(t->gt_flat_n, sizeof *t->gt_flat_why);
    make_flat(t);
}

/* The record of a pc outside the flat store, and its stalls (*why, when
 * keep_why): in its chunk, the last one tm_record_truth used or one
 * found in the hash or made. */
static gt_entry_t *chunk_record(timing_t *t, uint64_t pc, gt_why_t **why)
{
    uint64_t base = chunk_base(pc);
    if (unlikely(!t->gt_nchunks || t->gt[t->gt_last].base != base)) {
        long k = find_chunk(t, base);
        t->gt_last = k >= 0 ? (size_t)k : new_chunk(t, base);
    }
    gt_chunk_t *ch = &t->gt[t->gt_last];
    unsigned s = (unsigned)(pc >> 1) & (GT_CHUNK_SLOTS - 1);
    *why = ch->why ? &ch->why[s] : NULL;
    return &ch->e[s];
}

/* The part of a program instruction's stall of `extra` cycles that the
 * profiler's own code caused (the truth's `profiler` column): all of it
 * when the culprit is code of the guest runtime (the DCPI driver's
 * interrupt handler -- its hps.ret's refetch, a register it restored --
 * or a DISE handler) or an instruction of a DISE role; else the decode
 * cycles of a replacement charged to a DISE role.  The handlers' own
 * instructions (runtime pcs) and DISE's inserted ones keep their stalls:
 * their rows are not the program's.  Cycles the program loses later
 * because the handler evicted its lines or trained the predictor are the
 * program's (the perturbation is real), and stay with their causes. */
static uint64_t profiler_stall(const timing_t *t, const insn_t *in, uint64_t extra, why_t why)
{
    if (!extra || runtime_contains(in->pc) || (in->flags & IF_DISE) || t->cur_role)
        return 0;
    if (why.culprit && (runtime_contains(why.culprit) || why.role != DISE_ROLE_NONE))
        return extra;
    if (t->front_penalty && t->penalty_role != DISE_ROLE_NONE)
        return extra < t->front_penalty ? extra : t->front_penalty;
    return 0;
}

void tm_record_truth(timing_t *t, const insn_t *in, uint64_t head, uint64_t extra, why_t why)
{
    uint64_t f = flat_slot(t, in->pc);
    gt_entry_t *g;
    gt_why_t *w;
    if (likely(f < t->gt_flat_n)) {
        g = &t->gt_flat[f];
        w = t->gt_flat_why ? &t->gt_flat_why[f] : NULL;
    } else {
        g = chunk_record(t, in->pc, &w);
    }
    if (unlikely(--g->down < 0)) tm_record_first(t, g, in->pc);
    g->head += head;
    if (likely(!t->keep_why)) return;
    uint64_t mine = profiler_stall(t, in, extra, why);
    w->profiler += mine;
    extra -= mine;
    w->stall[why.cause] += extra;
    if (why.culprit && extra > w->culprit_cycles) {
        w->culprit_pc = why.culprit;
        w->culprit_cycles = extra;
    }
}

__attribute__((noinline)) void tm_record_first(timing_t *t, gt_entry_t *g, uint64_t pc)
{
    g->down = GT_DOWN_FIRST;
    note_seen(t, pc);
}

/* An instruction outside the flat store (or with none): the way out of
 * tm_record_head_inline (timing_model.h).  Its chunk is the last one
 * used, or one of the recent ones, or found in the hash. */
__attribute__((noinline)) void tm_record_head_slow(timing_t *t, uint64_t pc, uint64_t head)
{
    uint64_t base = chunk_base(pc);
    if (base == t->gt_cur_base) {
        gt_entry_t *g = &t->gt_cur[(pc >> 1) & (GT_CHUNK_SLOTS - 1)];
        if (--g->down < 0) tm_record_first(t, g, pc);
        g->head += head;
        return;
    }
    gt_recent_t *r = &t->gt_recent[(pc >> GT_CHUNK_SHIFT) & (GT_RECENT - 1)];
    if (r->base != base) {
        long k = find_chunk(t, base);
        if (k < 0) k = (long)new_chunk(t, base);   /* may empty the recent ones */
        r->e = t->gt[k].e;
        r->base = base;
    }
    gt_entry_t *g = &r->e[(pc >> 1) & (GT_CHUNK_SLOTS - 1)];
    if (--g->down < 0) tm_record_first(t, g, pc);
    g->head += head;
    t->gt_cur = r->e;
    t->gt_cur_base = base;
}

/* The pcs recorded, in the order a table keyed by pc (linear probing,
 * doubled from 4096 slots before it is half full) that took them in the
 * order first recorded would hold them: the order timing_for_each_head
 * has always given them in (and so DCPI's exact.tsv). */
static uint64_t *pcs_in_table_order(const timing_t *t)
{
    size_t cap = 0;
    uint64_t *table = NULL;             /* pc + 1 (pcs are even), 0 = empty */
    for (size_t k = 0; k < t->gt_used; k++) {
        if (2 * (k + 1) > cap) {
            size_t ncap = cap ? 2 * cap : 4096;
            uint64_t *n = xcalloc(ncap, sizeof *n);
            for (size_t j = 0; j < cap; j++) {
                if (!table[j]) continue;
                size_t i = gt_hash(table[j] - 1, ncap);
                while (n[i]) i = (i + 1) & (ncap - 1);
                n[i] = table[j];
            }
            free(table);
            table = n;
            cap = ncap;
        }
        size_t i = gt_hash(t->gt_seen[k], cap);
        while (table[i]) i = (i + 1) & (cap - 1);
        table[i] = t->gt_seen[k] + 1;
    }
    uint64_t *pcs = xcalloc(t->gt_used + 1, sizeof *pcs);
    size_t n = 0;
    for (size_t j = 0; j < cap; j++)
        if (table[j]) pcs[n++] = table[j] - 1;
    free(table);
    return pcs;
}

/* ---- views ------------------------------------------------------------------ */

/* An instruction's text for the views: the disassembly, or DISE's own
 * form for replacement instructions. */
static void describe_insn(const timing_t *t, const insn_t *in, char *text, size_t len)
{
    uint8_t bytes[4] = { (uint8_t)in->raw, (uint8_t)(in->raw >> 8),
                         (uint8_t)(in->raw >> 16), (uint8_t)(in->raw >> 24) };
    if (in->flags & IF_DISE) dise_format(in, text, len);
    else if (!t->out.disasm || disasm_insn(t->out.disasm, in->pc, bytes, in->len, text, len) <= 0)
        snprintf(text, len, "%08" PRIx32, in->raw);
}

void tm_view_insn(timing_t *t, const insn_t *in, const char *const names[5], const uint64_t st[5],
                  uint64_t retire)
{
    bool window = t->seq >= t->out.view_from && t->seq < t->out.view_to &&
                  (t->out.kanata || t->out.diagram || t->out.o3pipeview);
    if (!window && !t->recent) return;
    pv_insn_t v = { .id = t->seq, .pc = in->pc, .nstages = 5, .retire_cycle = retire,
                    .stage_names = names, .store = (in->flags & IF_STORE) != 0 };
    memcpy(v.stage_cycle, st, 5 * sizeof st[0]);
    if (t->recent) {                  /* described only when asked for */
        t->recent[t->recent_pos] = v;
        t->recent_insn[t->recent_pos] = *in;
        t->recent_pos = (t->recent_pos + 1) % TIMING_RECENT;
        if (t->recent_n < TIMING_RECENT) t->recent_n++;
    }
    if (!window) return;
    describe_insn(t, in, v.text, sizeof v.text);
    pipeview_insn(&t->pv, &v);
    pipeview_advance(&t->pv, st[0]);
}

void tm_view_flushed(timing_t *t, const insn_t *in, const char *const names[5],
                     const uint64_t st[5], unsigned reached, uint64_t squash)
{
    if (t->seq < t->out.view_from || t->seq >= t->out.view_to ||
        !(t->out.kanata || t->out.diagram || t->out.o3pipeview))
        return;
    pv_insn_t v = { .id = t->seq, .pc = in->pc, .nstages = 5, .retire_cycle = squash,
                    .stage_names = names, .flushed = true, .reached = reached };
    for (unsigned s = 0; s < reached; s++) v.stage_cycle[s] = st[s] < squash ? st[s] : squash;
    describe_insn(t, in, v.text, sizeof v.text);
    pipeview_insn(&t->pv, &v);
    pipeview_advance(&t->pv, st[0]);
}

void timing_record_recent(timing_t *t, struct disasm *dis)
{
    if (!t->recent) {
        t->recent = xcalloc(TIMING_RECENT, sizeof *t->recent);
        t->recent_insn = xcalloc(TIMING_RECENT, sizeof *t->recent_insn);
    }
    t->out.disasm = dis;
    t->views = true;
    note_outputs(t);
}

size_t timing_recent(const timing_t *t, pv_insn_t *out, size_t max)
{
    size_t n = t->recent_n < max ? t->recent_n : max;
    for (size_t k = 0; k < n; k++) {
        size_t slot = (t->recent_pos + TIMING_RECENT - n + k) % TIMING_RECENT;
        out[k] = t->recent[slot];
        describe_insn(t, &t->recent_insn[slot], out[k].text, sizeof out[k].text);
    }
    return n;
}

bool timing_last_head(const timing_t *t, uint64_t *head, uint8_t *cause, uint64_t *culprit)
{
    if (!t->recent || !t->recent_n) return false;
    *head = t->last_head;
    *cause = t->last_why.cause;
    *culprit = t->last_why.culprit;
    return true;
}

const struct cache *timing_cache(const timing_t *t, const char *name)
{
    return !strcmp(name, "l1i") ? t->l1i : !strcmp(name, "l1d") ? t->l1d
         : !strcmp(name, "l2") ? t->l2 : NULL;
}

const struct tlb *timing_tlb(const timing_t *t, const char *name)
{
    return !strcmp(name, "itlb") ? t->itlb : !strcmp(name, "dtlb") ? t->dtlb : NULL;
}

const struct bpred *timing_bpred(const timing_t *t) { return t->bp; }

/* ---- what the run loop reads and sets -------------------------------------------- */

/* Every head cycle goes to one role (tm_record_head), so the program's own
 * are what the others leave of head_sum. */
void timing_role_cycles(const timing_t *t, uint64_t *out, size_t n)
{
    uint64_t others = 0;
    for (size_t r = 0; r < DISE_ROLE_COUNT; r++)
        if (r != DISE_ROLE_NONE) others += t->role_cycles[r];
    for (size_t r = 0; r < n && r < DISE_ROLE_COUNT; r++)
        out[r] = r == DISE_ROLE_NONE ? t->head_sum - others : t->role_cycles[r];
}

void timing_set_pmu(timing_t *t, struct pmu *p)
{
    t->pmu = p;
    if (p) pmu_mirror_gate(p, &t->pmu_gate);
}

void timing_set_cpu(timing_t *t, cpu_t *c) { t->cpu = c; }

/* ---- statistics and outputs --------------------------------------------------- */

void timing_stats(const timing_t *t, const cpu_t *c, stats_t *s)
{
    uint64_t cycles = t->cycles ? t->cycles : 1;
    uint64_t timed = cpu_retired(c) - c->restored_at;    /* a restore timed the rest */
    if (!t->sampled) {                 /* sampled: the estimates (smarts_stats) */
        stats_add_u64(s, "cpu.cycles", t->cycles, "Cycle", "Cycles simulated by the timing model");
        stats_add_f64(s, "cpu.ipc", (double)timed / (double)cycles, "Count/Cycle",
                      "Instructions per cycle");
        stats_add_f64(s, "cpu.cpi", (double)cycles / (double)(timed ? timed : 1),
                      "Cycle/Count", "Cycles per instruction");
    }
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
    if (t->model->state_stats) t->model->state_stats(t->model_state, t->cycles, s);
    bpred_stats(t->bp, s);
}

typedef struct gt_row {
    uint64_t pc;
    gt_entry_t e;
    gt_why_t w;
} gt_row_t;

static int gt_by_pc(const void *a, const void *b)
{
    const gt_row_t *x = a, *y = b;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The ground-truth file: documented in pipeline/README.md. */
static void write_ground_truth(timing_t *t)
{
    FILE *out = t->out.ground_truth;
    size_t n = 0;
    gt_row_t *rows = xcalloc(t->gt_used + 1, sizeof *rows);
    for (size_t k = 0; k < t->gt_used; k++) {
        const gt_why_t *why;
        const gt_entry_t *g = find_record(t, t->gt_seen[k], &why);
        rows[n++] = (gt_row_t){ t->gt_seen[k], *g, *why };
    }
    qsort(rows, n, sizeof *rows, gt_by_pc);
    fprintf(out, "# hps-sim ground truth v2: per static instruction, cycles at the head of\n"
                 "# the issue queue and those beyond the first split by stall cause and the\n"
                 "# profiler's own; culprit_pc: the instruction behind the row's longest\n"
                 "# single stall (format: pipeline/README.md)\n");
    fprintf(out, "pc\tsymbol\tcount\thead_cycles");
    for (int k = 1; k < STALL_COUNT; k++) fprintf(out, "\t%s", stall_names[k]);
    fprintf(out, "\tprofiler\tculprit_pc\n");
    uint64_t head_sum = 0;
    for (size_t k = 0; k < n; k++) {
        char sym[160];
        const gt_entry_t *e = &rows[k].e;
        const gt_why_t *w = &rows[k].w;
        head_sum += e->head;
        symtab_format(t->out.symtab, rows[k].pc, sym, sizeof sym);
        fprintf(out, "0x%" PRIx64 "\t%s\t%" PRIu64 "\t%" PRIu64, rows[k].pc, sym, gt_count(e),
                e->head);
        for (int s = 1; s < STALL_COUNT; s++) fprintf(out, "\t%" PRIu64, w->stall[s]);
        fprintf(out, "\t%" PRIu64, w->profiler);
        if (w->culprit_pc) fprintf(out, "\t0x%" PRIx64 "\n", w->culprit_pc);
        else fprintf(out, "\t-\n");
    }
    fprintf(out, "# total: cycles %" PRIu64 " = head_cycles %" PRIu64 " + drain %" PRIu64
            " (cycles after the last issue)\n", t->cycles, head_sum,
            t->cycles >= head_sum ? t->cycles - head_sum : 0);
    if (t->lost) lost_write_truth(t->lost, out, t->out.symtab);
    free(rows);
}

void timing_keep_heads(timing_t *t)
{
    t->keep_truth = true;
    note_outputs(t);
    make_flat(t);
}

void timing_for_each_head(const timing_t *t, void (*fn)(void *ctx, uint64_t pc, uint64_t count,
                                                        uint64_t head), void *ctx)
{
    uint64_t *pcs = pcs_in_table_order(t);
    for (size_t k = 0; k < t->gt_used; k++) {
        const gt_why_t *why;
        const gt_entry_t *g = find_record(t, pcs[k], &why);
        fn(ctx, pcs[k], gt_count(g), g->head);
    }
    free(pcs);
}

/* ---- static schedules ------------------------------------------------------------- */

/* The filler between passes: nops far from the block, enough to drain
 * whatever the block left in flight (a divide, a miss).  Its address is
 * the block's end (rounded up to FILLER_ALIGN) modulo FILLER_SPAN above
 * FILLER_PC, so in every cache smaller than FILLER_SPAN a way its lines
 * follow the block's and evict none of them: the measured pass fetches
 * the block from a warm I-cache.  (At a fixed address the filler's 1600
 * bytes evicted the lines of every block at the same offset of ev5's 8 KB
 * I-cache; the misses hid the dependency waits under them, and their
 * cycles, left out of M as dynamic, took those waits along: raytrace's
 * `fbeq` after a 4-cycle FP compare had M = 1.) */
enum { FILLER = 400, FILLER_ALIGN = 256 };
#define FILLER_PC 0x7e0000000000ull
#define FILLER_SPAN (1ull << 24)

static uint64_t filler_pc(const insn_t *block, size_t n)
{
    uint64_t end = n ? block[n - 1].pc + block[n - 1].len : 0;
    uint64_t after = (end + FILLER_ALIGN - 1) & ~(uint64_t)(FILLER_ALIGN - 1);
    return FILLER_PC + (after & (FILLER_SPAN - 1));
}

static void time_pass(timing_t *t, const insn_t *block, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const insn_t *in = &block[k];
        uint64_t addr = 0x10000 + 64 * (k % 16);     /* warm after the first pass */
        bool taken = (in->flags & IF_JUMP) && (in->flags & IF_DIRECT);   /* jumps, calls */
        t->time_insn(t, in, addr, taken ? in->target : in->pc + in->len);
        t->seq++;
    }
}


/* Causes a static schedule leaves out: they depend on the run (DCPI's
 * scheduler assumes cache and TLB hits, correct predictions and a write
 * buffer with room), so they are dynamic stalls, never part of M_i. */
static bool dynamic_cause(int c)
{
    return c == STALL_ICACHE || c == STALL_ITLB || c == STALL_DCACHE || c == STALL_DTLB ||
           c == STALL_MISPREDICT || c == STALL_WBUF;
}

/* One instruction's static head and its cause from the measured pass's
 * record g: the head less any dynamic stall, the cause the largest static
 * one (slotting, dependency, functional unit, fetch). */
static timing_static_t static_entry(const gt_entry_t *e, const gt_why_t *g)
{
    timing_static_t s = { .head = 1, .cause = STALL_NONE };
    if (!e) return s;
    uint64_t head = e->head;
    for (int c = 1; c < STALL_COUNT; c++) {
        if (dynamic_cause(c)) {
            head -= g->stall[c] <= head ? g->stall[c] : head;
            continue;
        }
        if (g->stall[c] && (s.cause == STALL_NONE || g->stall[c] > g->stall[s.cause]))
            s.cause = (uint8_t)c;
    }
    s.head = head;
    if (s.cause != STALL_NONE) s.culprit = g->culprit_pc;
    return s;
}

bool timing_static_schedule(const config_t *cfg, const isa_t *isa, const insn_t *block,
                            size_t n, timing_static_t *out, char *err, size_t errlen)
{
    const timing_model_t *model = model_of(cfg);
    if (!model || !model->static_schedule)
        return set_error(err, errlen, "static schedules need an in-order model (inorder5, ev5)");
    insn_t nops[FILLER];
    uint64_t filler = filler_pc(block, n);
    if (!isa->decode(filler, isa->nop, sizeof isa->nop, &nops[0]))
        return set_error(err, errlen, "no nop for the filler");
    for (size_t k = 0; k < FILLER; k++) {
        nops[k] = nops[0];
        nops[k].pc = filler + sizeof isa->nop * k;
    }
    timing_t *t = timing_new(cfg, err, errlen);
    if (!t) return false;
    t->ideal_memory = true;
    for (int pass = 0; pass < 2; pass++) {          /* warm up, then measure */
        time_pass(t, nops, FILLER);
        if (pass) keep_why(t);
        time_pass(t, block, n);
    }
    for (size_t k = 0; k < n; k++) {
        const gt_why_t *why = NULL;
        const gt_entry_t *g = find_record(t, block[k].pc, &why);
        out[k] = static_entry(g, why);
    }
    timing_free(t);
    return true;
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
    free(t->recent);
    free(t->recent_insn);
    if (t->model && t->model->free_state) t->model->free_state(t->model_state);
    for (size_t k = 0; k < t->gt_nchunks; k++) free(t->gt[k].why);
    free(t->gt);
    free(t->gt_index);
    free(t->gt_seen);
    free(t->gt_flat);
    free(t->gt_flat_why);
    free(t);
}
