/*
 * bpred.c - branch prediction (see bpred.h): direction predictors for
 * conditional branches (static not-taken, bimodal, gshare, and a tournament
 * predictor after the Alpha 21264), a set-associative LRU branch target
 * buffer and a circular return-address stack.
 *
 * Semantics chosen here (all sizes are powers of two, indexing by masks):
 *
 *  - Index hash: h(pc) = (pc >> 1) ^ (pc >> 2).  This is a Gray code of the
 *    halfword address, so 2-byte (RVC) and 4-byte (Alpha) instruction streams
 *    both spread over every table entry instead of wasting the low bit.
 *  - Counters start weakly not-taken: 2-bit counters at 1 (taken if >= 2),
 *    the tournament's 3-bit local counters at 3 (taken if >= 4).  The choice
 *    counters start at 1, weakly preferring the local predictor (>= 2 picks
 *    the global one).
 *  - Global history is the taken/not-taken outcome of conditional branches
 *    only (newest in bit 0), history_bits long, as in the 21264.
 *  - Tournament (21264 / Kessler 1999): a local history table of
 *    local_history_entries x local_history_bits indexed by h(pc), whose
 *    history indexes 2^local_history_bits 3-bit counters; a global predictor
 *    of 2^history_bits 2-bit counters indexed by the global history alone;
 *    choice_entries 2-bit choice counters indexed by the global history.
 *    Both components train on every conditional branch; the chooser trains
 *    only when the components disagree, towards the one that was right.
 *    gshare_entries and bimodal_entries are not used by it.
 *  - Ordering: this simulator is functional-first and calls bpred_predict()
 *    and bpred_update() back to back for each control instruction, so there
 *    is never a younger branch in flight.  Predict is therefore pure (it only
 *    remembers its lookup for update); histories, counters, the BTB and the
 *    RAS all change at update time, which equals speculative update with
 *    perfect repair.  Calling predict twice is harmless; update without a
 *    matching predict predicts first.
 *  - BTB: tagged by the full pc, LRU by a use stamp.  Every control
 *    instruction looks it up; a hit becomes most recently used at update, a
 *    taken instruction writes (or refreshes) its entry with the actual
 *    target.  A way never written has a tag no pc has, and a table of way
 *    hints by pc_hash names the way a pc was last found in or written to:
 *    a lookup compares that way's tag first, the set's ways in order only
 *    when it is not pc's (same results as the scan alone).  btb_hit in the result means the target was known at fetch
 *    (from the BTB, or from the RAS for a return).
 *  - Conditional branch predicted taken: target from the BTB, else from
 *    decode (insn->target, btb_hit false: the pipeline charges a
 *    decode-redirect bubble).  Direct jumps and calls: taken, same target
 *    rule.  Returns: RAS top if the stack is not empty, else as indirect.
 *    Indirect jumps and calls: the BTB target; on a BTB miss fetch knows
 *    nothing and falls through (predicted not-taken, target pc+len).
 *  - RAS: push pc+len on IF_CALL, pop on IF_RETURN (a return that is also a
 *    call pops, then pushes).  Overflow overwrites the oldest entry (the
 *    stack is circular, its depth saturates at ras_entries); popping an
 *    empty stack is an underflow and the return is predicted by the BTB.
 *  - Correct means the predicted next pc equals the actual one, and for a
 *    conditional branch also that the direction was right.
 *
 * The interactive shell reads the configuration, the accuracy so far and
 * the state held for one pc (bpred_config, bpred_accuracy, bpred_probe)
 * without changing anything.
 */
#include "bpred.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The 21264's sizes, and reasonable ones for the rest. */
enum {
    DEF_BIMODAL = 2048, DEF_GSHARE = 4096, DEF_HISTORY_BITS = 12,
    DEF_LOCAL_ENTRIES = 1024, DEF_LOCAL_BITS = 10, DEF_CHOICE = 4096,
    DEF_BTB = 1024, DEF_BTB_ASSOC = 4, DEF_RAS = 32,
    MAX_HISTORY_BITS = 24, MAX_LOCAL_BITS = 16, MAX_ENTRIES = 1u << 24
};

/* Kinds of control instruction, for statistics. */
enum { K_NONE = -1, K_COND, K_JUMP, K_IND, K_CALL, K_RET, K_COUNT };

static const char *const kind_names[K_COUNT] = {
    "cond", "jump", "indirect", "call", "return"
};
static const char *const kind_descs[K_COUNT] = {
    "conditional branches", "direct unconditional jumps", "indirect jumps",
    "calls (direct and indirect)", "returns"
};

typedef struct btb_entry {
    uint64_t tag;          /* full pc; BTB_NO_PC while invalid           */
    uint64_t target;
    uint64_t stamp;        /* last use; 0 = invalid                      */
} btb_entry_t;

/* The tag of a way never written: no pc (pcs are aligned), so a lookup
 * compares tags alone. */
#define BTB_NO_PC UINT64_MAX

/* Way hints (btb_lookup): 4096 bytes, four a set of the default BTB. */
enum { BTB_HINTS = 4096 };

/* What predict looked up, kept for the update that follows. */
typedef struct lookup {
    bool valid;
    uint64_t pc;
    int kind;
    bpred_result_t r;
    btb_entry_t *btb;      /* hit entry or NULL                          */
    bool used_ras;
    uint32_t dir_idx;      /* bimodal / gshare / tournament global index  */
    uint32_t lhist_idx;    /* tournament: local history table index       */
    bool local_taken, global_taken;
} lookup_t;

struct bpred {
    bpred_config_t cfg;
    uint8_t *ctr;          /* bimodal, gshare or tournament global 2-bit */
    uint32_t ctr_mask;
    uint32_t ghist, ghist_mask;
    uint16_t *lhist;       /* tournament local histories                  */
    uint32_t lhist_mask, lhist_bits_mask;
    uint8_t *lctr;         /* tournament local 3-bit counters             */
    uint8_t *choice;       /* tournament chooser, >= 2 picks global       */
    uint32_t choice_mask;
    btb_entry_t *btb;
    uint32_t btb_set_mask, btb_way_shift;   /* ways = 1 << btb_way_shift */
    uint8_t *btb_hint;     /* by pc_hash: the way a pc was last seen in  */
    uint32_t btb_hint_mask;
    uint64_t btb_clock;
    uint64_t *ras;
    unsigned ras_top, ras_depth; /* top = slot of the newest entry        */
    lookup_t last;

    struct {
        uint64_t lookups[K_COUNT], correct[K_COUNT];
        uint64_t btb_hits;      /* of the lookups, which all look up the BTB */
        uint64_t ras_hits, ras_misses, ras_underflows, ras_overflows;
        uint64_t decode_redirects;
        uint64_t chose_local, chose_global;
    } st;
};

/* ---- configuration ---------------------------------------------------- */

static bool is_pow2(unsigned v) { return v && !(v & (v - 1)); }

static void fill_default(unsigned *v, unsigned def)
{
    if (*v == 0) *v = def;
}

static bool check_config(bpred_config_t *c)
{
    fill_default(&c->bimodal_entries, DEF_BIMODAL);
    fill_default(&c->gshare_entries, DEF_GSHARE);
    fill_default(&c->history_bits, DEF_HISTORY_BITS);
    fill_default(&c->local_history_entries, DEF_LOCAL_ENTRIES);
    fill_default(&c->local_history_bits, DEF_LOCAL_BITS);
    fill_default(&c->choice_entries, DEF_CHOICE);
    fill_default(&c->btb_entries, DEF_BTB);
    fill_default(&c->btb_assoc, DEF_BTB_ASSOC);
    fill_default(&c->ras_entries, DEF_RAS);
    if (c->kind > BP_TOURNAMENT) return false;
    if (c->history_bits > MAX_HISTORY_BITS || c->local_history_bits > MAX_LOCAL_BITS)
        return false;
    const unsigned sizes[] = { c->bimodal_entries, c->gshare_entries,
                               c->local_history_entries, c->choice_entries,
                               c->btb_entries, c->btb_assoc };
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        if (!is_pow2(sizes[k]) || sizes[k] > MAX_ENTRIES) return false;
    return c->btb_assoc <= c->btb_entries && c->ras_entries <= MAX_ENTRIES;
}

static uint8_t *counters(size_t n, uint8_t init)
{
    uint8_t *p = malloc(n);
    if (p) memset(p, init, n);
    return p;
}

static unsigned direction_entries(const bpred_config_t *c)
{
    switch (c->kind) {
    case BP_BIMODAL: return c->bimodal_entries;
    case BP_GSHARE: return c->gshare_entries;
    case BP_TOURNAMENT: return 1u << c->history_bits;
    default: return 1;
    }
}

bpred_t *bpred_new(const bpred_config_t *cfg)
{
    bpred_config_t c = *cfg;
    if (!check_config(&c)) return NULL;
    bpred_t *b = calloc(1, sizeof *b);
    if (!b) return NULL;
    b->cfg = c;
    unsigned n = direction_entries(&c);
    b->ctr = counters(n, 1);
    b->ctr_mask = n - 1;
    b->ghist_mask = (1u << c.history_bits) - 1;
    b->btb = calloc(c.btb_entries, sizeof *b->btb);
    if (b->btb)
        for (unsigned k = 0; k < c.btb_entries; k++) b->btb[k].tag = BTB_NO_PC;
    b->btb_set_mask = c.btb_entries / c.btb_assoc - 1;
    b->btb_way_shift = (uint32_t)__builtin_ctz(c.btb_assoc);
    b->btb_hint_mask = BTB_HINTS - 1;
    b->btb_hint = calloc(BTB_HINTS, 1);
    b->ras = calloc(c.ras_entries, sizeof *b->ras);
    bool ok = b->ctr && b->btb && b->btb_hint && b->ras;
    if (c.kind == BP_TOURNAMENT) {
        b->lhist = calloc(c.local_history_entries, sizeof *b->lhist);
        b->lhist_mask = c.local_history_entries - 1;
        b->lhist_bits_mask = (1u << c.local_history_bits) - 1;
        b->lctr = counters((size_t)1 << c.local_history_bits, 3);
        b->choice = counters(c.choice_entries, 1);
        b->choice_mask = c.choice_entries - 1;
        ok = ok && b->lhist && b->lctr && b->choice;
    }
    if (!ok) {
        bpred_free(b);
        return NULL;
    }
    return b;
}

void bpred_free(bpred_t *b)
{
    if (!b) return;
    free(b->ctr);
    free(b->lhist);
    free(b->lctr);
    free(b->choice);
    free(b->btb);
    free(b->btb_hint);
    free(b->ras);
    free(b);
}

/* ---- small pieces ----------------------------------------------------- */

static inline uint32_t pc_hash(uint64_t pc)
{
    return (uint32_t)((pc >> 1) ^ (pc >> 2));
}

static inline void counter_train(uint8_t *c, uint8_t max, bool up)
{
    if (up) { if (*c < max) (*c)++; }
    else if (*c > 0) (*c)--;
}

static int kind_of(uint16_t f)
{
    if (f & IF_RETURN) return K_RET;
    if (f & IF_CALL) return K_CALL;
    if (f & IF_BRANCH) return K_COND;
    if (f & IF_INDIRECT) return K_IND;
    if (f & IF_JUMP) return K_JUMP;
    return K_NONE;
}

/* ---- direction -------------------------------------------------------- */

/* dkind: the predictor's kind (bpred_kind_t), a constant where
 * bpred_predict_update specialises for it. */
static inline __attribute__((always_inline)) bool direction_predict(bpred_t *b, uint64_t pc,
                                                                    lookup_t *l, const int dkind)
{
    uint32_t h = pc_hash(pc);
    switch (dkind) {
    case BP_BIMODAL:
        l->dir_idx = h & b->ctr_mask;
        return b->ctr[l->dir_idx] >= 2;
    case BP_GSHARE:
        l->dir_idx = (h ^ b->ghist) & b->ctr_mask;
        return b->ctr[l->dir_idx] >= 2;
    case BP_TOURNAMENT:
        l->lhist_idx = h & b->lhist_mask;
        l->local_taken = b->lctr[b->lhist[l->lhist_idx]] >= 4;
        l->dir_idx = b->ghist;                 /* already history_bits wide */
        l->global_taken = b->ctr[l->dir_idx] >= 2;
        return b->choice[b->ghist & b->choice_mask] >= 2 ? l->global_taken
                                                         : l->local_taken;
    default:
        return false;
    }
}

static inline __attribute__((always_inline)) void tournament_train(bpred_t *b, const lookup_t *l,
                                                                   bool taken)
{
    uint8_t *chooser = &b->choice[b->ghist & b->choice_mask];
    if (*chooser >= 2) b->st.chose_global++;
    else b->st.chose_local++;
    if (l->local_taken != l->global_taken)
        counter_train(chooser, 3, l->global_taken == taken);
    uint16_t *hist = &b->lhist[l->lhist_idx];
    counter_train(&b->lctr[*hist], 7, taken);
    *hist = (uint16_t)(((*hist << 1) | taken) & b->lhist_bits_mask);
    counter_train(&b->ctr[l->dir_idx], 3, taken);
}

static inline __attribute__((always_inline)) void direction_train(bpred_t *b, const lookup_t *l,
                                                                  bool taken, const int dkind)
{
    if (dkind == BP_TOURNAMENT) tournament_train(b, l, taken);
    else if (dkind != BP_NOT_TAKEN) counter_train(&b->ctr[l->dir_idx], 3, taken);
    b->ghist = ((b->ghist << 1) | taken) & b->ghist_mask;
}

/* ---- BTB -------------------------------------------------------------- */

static inline btb_entry_t *btb_set(bpred_t *b, uint64_t pc)
{
    return &b->btb[(size_t)(pc_hash(pc) & b->btb_set_mask) << b->btb_way_shift];
}

/* The hint of pc: where the BTB way it was last found in or written to is
 * noted (a way index; other pcs share the slot, so the way is checked). */
static inline uint8_t *btb_hint_of(bpred_t *b, uint64_t pc)
{
    return &b->btb_hint[pc_hash(pc) & b->btb_hint_mask];
}

/* pc's way in its set, or NULL: the way its hint names first (one
 * compare), else the set's ways in order (a pc is in at most one way). */
static inline btb_entry_t *btb_lookup(bpred_t *b, uint64_t pc)
{
    btb_entry_t *set = btb_set(b, pc);
    uint8_t *hint = btb_hint_of(b, pc);
    if (__builtin_expect(set[*hint].tag == pc, 1)) return &set[*hint];
    for (unsigned w = 0, n = 1u << b->btb_way_shift; w < n; w++)
        if (set[w].tag == pc) {
            *hint = (uint8_t)w;
            return &set[w];
        }
    return NULL;
}

/* Write pc's entry, replacing an invalid or else the least recently used
 * way of its set. */
static void btb_insert(bpred_t *b, uint64_t pc, uint64_t target)
{
    btb_entry_t *set = btb_set(b, pc), *victim = &set[0];
    for (unsigned w = 1; w < b->cfg.btb_assoc && victim->stamp; w++)
        if (set[w].stamp < victim->stamp) victim = &set[w];
    victim->tag = pc;
    *btb_hint_of(b, pc) = (uint8_t)(victim - set);
    victim->target = target;
    victim->stamp = ++b->btb_clock;
}

/* ---- return-address stack ----------------------------------------------- */

static void ras_push(bpred_t *b, uint64_t addr)
{
    b->ras_top = b->ras_top + 1 == b->cfg.ras_entries ? 0 : b->ras_top + 1;
    b->ras[b->ras_top] = addr;
    if (b->ras_depth == b->cfg.ras_entries) b->st.ras_overflows++;
    else b->ras_depth++;
}

static void ras_pop(bpred_t *b)
{
    if (b->ras_depth == 0) return;
    b->ras_top = b->ras_top == 0 ? b->cfg.ras_entries - 1 : b->ras_top - 1;
    b->ras_depth--;
}

/* ---- predict / update ------------------------------------------------- */

/* A taken prediction of a direct instruction: target from the BTB if it
 * hit, else from decode. */
static bpred_result_t predict_direct(const insn_t *in, const btb_entry_t *e)
{
    return (bpred_result_t){ .taken = true, .btb_hit = e != NULL,
                             .target = e ? e->target : in->target };
}

/* Indirect: the BTB target, or fall through when fetch knows nothing. */
static bpred_result_t predict_indirect(const insn_t *in, const btb_entry_t *e)
{
    if (e) return (bpred_result_t){ .taken = true, .btb_hit = true, .target = e->target };
    return (bpred_result_t){ .taken = false, .btb_hit = false, .target = in->pc + in->len };
}

static bpred_result_t predict_transfer(const insn_t *in, const btb_entry_t *e)
{
    return (in->flags & IF_DIRECT) ? predict_direct(in, e) : predict_indirect(in, e);
}

/* The prediction for `in` of kind `kind` (kind_of), and what training
 * needs of the lookup, into l (no state changes). */
static inline __attribute__((always_inline)) bpred_result_t
look_up_kind(bpred_t *b, const insn_t *in, lookup_t *l, const int dkind, const int kind)
{
    btb_entry_t *e = kind == K_NONE ? NULL : btb_lookup(b, in->pc);
    bpred_result_t r = { .taken = false, .target = in->pc + in->len, .btb_hit = e != NULL };
    l->used_ras = false;
    switch (kind) {
    case K_COND:
        if (direction_predict(b, in->pc, l, dkind)) r = predict_transfer(in, e);
        break;
    case K_RET:
        if (b->ras_depth) {
            l->used_ras = true;
            r = (bpred_result_t){ .taken = true, .target = b->ras[b->ras_top],
                                  .btb_hit = true };
        } else {
            r = predict_indirect(in, e);
        }
        break;
    case K_JUMP:
    case K_CALL:
    case K_IND:
        r = predict_transfer(in, e);
        break;
    default:
        break;
    }
    l->pc = in->pc;
    l->kind = kind;
    l->btb = e;
    l->r = r;
    return r;
}

static inline __attribute__((always_inline)) bpred_result_t look_up(bpred_t *b, const insn_t *in,
                                                                   lookup_t *l, const int dkind)
{
    return look_up_kind(b, in, l, dkind, kind_of(in->flags));
}

bpred_result_t bpred_predict(bpred_t *b, const insn_t *in)
{
    bpred_result_t r = look_up(b, in, &b->last, b->cfg.kind);
    b->last.valid = true;
    return r;
}

/* bpred_peek for a predictor of kind dkind (a constant), with its own code
 * for conditional branches. */
static inline __attribute__((always_inline)) bpred_result_t peek_as(const bpred_t *b,
                                                                   const insn_t *in,
                                                                   const int dkind)
{
    lookup_t unused;                   /* look_up writes only its lookup */
    int kind = kind_of(in->flags);
    if (kind == K_COND) return look_up_kind((bpred_t *)b, in, &unused, dkind, K_COND);
    return look_up_kind((bpred_t *)b, in, &unused, dkind, kind);
}

bpred_result_t bpred_peek(const bpred_t *b, const insn_t *in)
{
    switch (b->cfg.kind) {             /* each kind with its own code */
    case BP_BIMODAL: return peek_as(b, in, BP_BIMODAL);
    case BP_GSHARE: return peek_as(b, in, BP_GSHARE);
    case BP_TOURNAMENT: return peek_as(b, in, BP_TOURNAMENT);
    default: return peek_as(b, in, BP_NOT_TAKEN);
    }
}

/* peek_as's target: a conditional branch predicted not taken falls
 * through whatever the BTB holds, so its direction is asked first and
 * the BTB only when taken (the lookup changes nothing but the way hint,
 * which only says where to look first). */
static inline __attribute__((always_inline)) uint64_t peek_next_as(const bpred_t *b,
                                                                 const insn_t *in,
                                                                 const int dkind)
{
    if (kind_of(in->flags) == K_COND) {
        lookup_t unused;
        if (!direction_predict((bpred_t *)b, in->pc, &unused, dkind)) return in->pc + in->len;
        return predict_transfer(in, btb_lookup((bpred_t *)b, in->pc)).target;
    }
    return peek_as(b, in, dkind).target;
}

uint64_t bpred_peek_next(const bpred_t *b, const insn_t *in)
{
    switch (b->cfg.kind) {             /* each kind with its own code */
    case BP_BIMODAL: return peek_next_as(b, in, BP_BIMODAL);
    case BP_GSHARE: return peek_next_as(b, in, BP_GSHARE);
    case BP_TOURNAMENT: return peek_next_as(b, in, BP_TOURNAMENT);
    default: return peek_next_as(b, in, BP_NOT_TAKEN);
    }
}

static inline __attribute__((always_inline)) void update_ras(bpred_t *b, const insn_t *in,
                                                             const lookup_t *l, uint64_t next_pc)
{
    if (in->flags & IF_RETURN) {
        if (l->used_ras) {
            if (l->r.target == next_pc) b->st.ras_hits++;
            else b->st.ras_misses++;
        } else {
            b->st.ras_underflows++;
        }
        ras_pop(b);
    }
    if (in->flags & IF_CALL) ras_push(b, in->pc + in->len);
}

/* Train with the outcome of the instruction looked up in l; whether the
 * prediction was right. */
static inline __attribute__((always_inline)) bool train(bpred_t *b, const insn_t *in,
                                                       const lookup_t *l, bool taken,
                                                       uint64_t next_pc, const int dkind)
{
    uint64_t predicted_next = l->r.taken ? l->r.target : in->pc + in->len;
    bool correct = predicted_next == next_pc;
    if (l->kind == K_NONE) return correct;
    if (l->kind == K_COND) {
        correct = correct && l->r.taken == taken;
        direction_train(b, l, taken, dkind);
    }
    b->st.lookups[l->kind]++;
    b->st.correct[l->kind] += correct;
    if (l->btb) b->st.btb_hits++;
    if (correct && taken && !l->r.btb_hit) b->st.decode_redirects++;
    if (l->kind != K_COND) update_ras(b, in, l, next_pc);   /* neither a call nor a return */
    if (taken) {
        if (l->btb) {
            l->btb->target = next_pc;
            l->btb->stamp = ++b->btb_clock;
        } else {
            btb_insert(b, in->pc, next_pc);
        }
    } else if (l->btb) {
        l->btb->stamp = ++b->btb_clock;
    }
    return correct;
}

bool bpred_update(bpred_t *b, const insn_t *in, bool taken, uint64_t next_pc)
{
    lookup_t *l = &b->last;
    if (!l->valid || l->pc != in->pc) bpred_predict(b, in);
    l->valid = false;
    return train(b, in, l, taken, next_pc, b->cfg.kind);
}

/* bpred_predict_update for a predictor of kind dkind and an instruction of
 * kind `kind` (kind_of; constants where the callers specialise for them). */
static inline __attribute__((always_inline)) bool
predict_update_kind(bpred_t *b, const insn_t *in, bool taken, uint64_t next_pc,
                    bpred_result_t *pred, const int dkind, const int kind)
{
    lookup_t l = { .valid = false };   /* direction_train reads only what look_up set */
    *pred = look_up_kind(b, in, &l, dkind, kind);
    b->last.valid = false;
    return train(b, in, &l, taken, next_pc, dkind);
}

/* bpred_predict_update for a predictor of kind dkind (a constant), with
 * its own code for conditional branches (the most frequent kind). */
static inline __attribute__((always_inline)) bool
predict_update_as(bpred_t *b, const insn_t *in, bool taken, uint64_t next_pc,
                  bpred_result_t *pred, const int dkind)
{
    int kind = kind_of(in->flags);
    if (kind == K_COND) return predict_update_kind(b, in, taken, next_pc, pred, dkind, K_COND);
    return predict_update_kind(b, in, taken, next_pc, pred, dkind, kind);
}

bool bpred_predict_update(bpred_t *b, const insn_t *in, bool taken, uint64_t next_pc,
                          bpred_result_t *pred)
{
    switch (b->cfg.kind) {             /* each kind with its own code */
    case BP_BIMODAL: return predict_update_as(b, in, taken, next_pc, pred, BP_BIMODAL);
    case BP_GSHARE: return predict_update_as(b, in, taken, next_pc, pred, BP_GSHARE);
    case BP_TOURNAMENT: return predict_update_as(b, in, taken, next_pc, pred, BP_TOURNAMENT);
    default: return predict_update_as(b, in, taken, next_pc, pred, BP_NOT_TAKEN);
    }
}

/* bpred_predict_update_split: of a conditional branch and of any other
 * kind, for a predictor of kind dkind, each out of line with a frame of
 * its own (the conditional branch's, the most frequent, keeps no return
 * stack), the entry only choosing. */
#define PREDICT_UPDATE_FNS(dk, cond_fn, other_fn)                                          \
    static __attribute__((noinline)) bool cond_fn(bpred_t *b, const insn_t *in, bool taken,  \
                                                  uint64_t next_pc, bpred_result_t *pred)    \
    {                                                                                        \
        return predict_update_kind(b, in, taken, next_pc, pred, dk, K_COND);                \
    }                                                                                        \
    static __attribute__((noinline)) bool other_fn(bpred_t *b, const insn_t *in, bool taken, \
                                                   uint64_t next_pc, bpred_result_t *pred)   \
    {                                                                                        \
        return predict_update_kind(b, in, taken, next_pc, pred, dk, kind_of(in->flags));    \
    }
PREDICT_UPDATE_FNS(BP_BIMODAL, pu_cond_bimodal, pu_other_bimodal)
PREDICT_UPDATE_FNS(BP_GSHARE, pu_cond_gshare, pu_other_gshare)
PREDICT_UPDATE_FNS(BP_TOURNAMENT, pu_cond_tournament, pu_other_tournament)
PREDICT_UPDATE_FNS(BP_NOT_TAKEN, pu_cond_not_taken, pu_other_not_taken)
#undef PREDICT_UPDATE_FNS

bpred_pu_fn bpred_split_fn(const bpred_t *b, bool cond)
{
    switch (b->cfg.kind) {
    case BP_BIMODAL: return cond ? pu_cond_bimodal : pu_other_bimodal;
    case BP_GSHARE: return cond ? pu_cond_gshare : pu_other_gshare;
    case BP_TOURNAMENT: return cond ? pu_cond_tournament : pu_other_tournament;
    default: return cond ? pu_cond_not_taken : pu_other_not_taken;
    }
}

bool bpred_predict_update_split(bpred_t *b, const insn_t *in, bool taken, uint64_t next_pc,
                                bpred_result_t *pred)
{
    return bpred_split_fn(b, bpred_is_cond(in->flags))(b, in, taken, next_pc, pred);
}

void bpred_warm(bpred_t *b, const insn_t *in, bool taken, uint64_t next_pc)
{
    __typeof__(b->st) counted = b->st;
    bpred_update(b, in, taken, next_pc);
    b->st = counted;
}

/* ---- statistics ----------------------------------------------------------- */

static void kind_stats(const bpred_t *b, stats_t *out, int k)
{
    char name[64], desc[96];
    uint64_t n = b->st.lookups[k], ok = b->st.correct[k];
    snprintf(name, sizeof name, "bpred.%s.lookups", kind_names[k]);
    snprintf(desc, sizeof desc, "Predictions of %s", kind_descs[k]);
    stats_add_u64(out, name, n, "Count", desc);
    snprintf(name, sizeof name, "bpred.%s.correct", kind_names[k]);
    snprintf(desc, sizeof desc, "Correct predictions of %s", kind_descs[k]);
    stats_add_u64(out, name, ok, "Count", desc);
    snprintf(name, sizeof name, "bpred.%s.mispredicted", kind_names[k]);
    snprintf(desc, sizeof desc, "Mispredictions of %s", kind_descs[k]);
    stats_add_u64(out, name, n - ok, "Count", desc);
    snprintf(name, sizeof name, "bpred.%s.accuracy", kind_names[k]);
    snprintf(desc, sizeof desc, "Fraction of %s predicted correctly", kind_descs[k]);
    stats_add_f64(out, name, n ? (double)ok / (double)n : NAN, "Ratio", desc);
}

void bpred_stats(const bpred_t *b, stats_t *out)
{
    uint64_t btb_lookups = 0;
    for (int k = 0; k < K_COUNT; k++) {
        kind_stats(b, out, k);
        btb_lookups += b->st.lookups[k];
    }
    stats_add_u64(out, "bpred.btb.lookups", btb_lookups, "Count",
                  "BTB lookups by control instructions");
    stats_add_u64(out, "bpred.btb.hits", b->st.btb_hits, "Count", "BTB hits");
    stats_add_u64(out, "bpred.btb.misses", btb_lookups - b->st.btb_hits, "Count",
                  "BTB misses");
    stats_add_u64(out, "bpred.decode_redirects", b->st.decode_redirects, "Count",
                  "Correctly predicted taken transfers whose target came from decode");
    stats_add_u64(out, "bpred.ras.hits", b->st.ras_hits, "Count",
                  "Returns predicted correctly by the return-address stack");
    stats_add_u64(out, "bpred.ras.misses", b->st.ras_misses, "Count",
                  "Returns mispredicted by the return-address stack");
    stats_add_u64(out, "bpred.ras.underflows", b->st.ras_underflows, "Count",
                  "Returns with an empty return-address stack (predicted by BTB)");
    stats_add_u64(out, "bpred.ras.overflows", b->st.ras_overflows, "Count",
                  "Calls that overwrote the oldest return-address stack entry");
    if (b->cfg.kind != BP_TOURNAMENT) return;
    stats_add_u64(out, "bpred.tournament.chose_local", b->st.chose_local, "Count",
                  "Conditional branches for which the chooser picked the local predictor");
    stats_add_u64(out, "bpred.tournament.chose_global", b->st.chose_global, "Count",
                  "Conditional branches for which the chooser picked the global predictor");
}

/* ---- the interactive shell's view ------------------------------------------- */

const bpred_config_t *bpred_config(const bpred_t *b)
{
    return &b->cfg;
}

bool bpred_accuracy(const bpred_t *b, unsigned k, const char **name, uint64_t *lookups,
                    uint64_t *correct)
{
    if (k >= K_COUNT) return false;
    *name = kind_names[k];
    *lookups = b->st.lookups[k];
    *correct = b->st.correct[k];
    return true;
}

/* The direction state for pc, read as direction_predict() reads it. */
static void probe_direction(const bpred_t *b, uint64_t pc, bpred_probe_t *p)
{
    uint32_t h = pc_hash(pc);
    p->history = b->ghist;
    switch (b->cfg.kind) {
    case BP_BIMODAL:
    case BP_GSHARE:
        p->index = (b->cfg.kind == BP_GSHARE ? h ^ b->ghist : h) & b->ctr_mask;
        p->counter = b->ctr[p->index];
        p->taken = p->counter >= 2;
        break;
    case BP_TOURNAMENT:
        p->local_index = h & b->lhist_mask;
        p->local_history = b->lhist[p->local_index];
        p->local_counter = b->lctr[p->local_history];
        p->index = b->ghist;
        p->counter = b->ctr[p->index];
        p->choice = b->choice[b->ghist & b->choice_mask];
        p->taken = p->choice >= 2 ? p->counter >= 2 : p->local_counter >= 4;
        break;
    default:
        break;
    }
}

void bpred_probe(const bpred_t *b, uint64_t pc, bpred_probe_t *out)
{
    memset(out, 0, sizeof *out);
    probe_direction(b, pc, out);
    out->btb_set = pc_hash(pc) & b->btb_set_mask;
    const btb_entry_t *set = &b->btb[(size_t)out->btb_set << b->btb_way_shift];
    for (unsigned w = 0; w < b->cfg.btb_assoc; w++)
        if (set[w].stamp && set[w].tag == pc) {
            out->btb_hit = true;
            out->btb_way = w;
            out->btb_target = set[w].target;
        }
    out->ras_depth = b->ras_depth;
    out->ras_top = b->ras_depth ? b->ras[b->ras_top] : 0;
}
