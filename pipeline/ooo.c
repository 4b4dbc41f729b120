/*
 * ooo.c - the R10000-like out-of-order superscalar (model `ooo`, timing.h).
 *
 * A timestamp model, functional first like the in-order ones: right after
 * an instruction has executed, in program order, it is given the cycle of
 * each of its stages:
 *   F  fetched: up to ooo.fetch_width a cycle from one I-cache line, a
 *      taken transfer ending the group, no further ahead of dispatch than
 *      the fetch buffer holds; after a mispredicted transfer, not before
 *      it has resolved plus ooo.mispredict_penalty;
 *   D  decoded, renamed and dispatched, in order, ooo.dispatch_width a
 *      cycle, ooo.frontend_depth cycles after fetch, once it has an
 *      active-list (ROB) entry, a rename register for its result, an entry
 *      in its queue (integer and FP queues free at issue; the address queue
 *      of loads and stores at graduation) and, for a conditional branch, a
 *      branch-stack entry;
 *   I  issued to a functional unit: the first cycle after D when its
 *      operands are ready and a unit of its kind is free.  Older
 *      instructions were scheduled first and hold the units they took, so
 *      this is oldest-first selection;
 *   X  complete: its result can be used from this cycle;
 *   G  graduated, in order, ooo.retire_width a cycle, not before X.
 * Resources are counted exactly from these times: an entry freed in cycle
 * c is usable from c + 1 (queues and the branch stack as the leaving cycles
 * of their occupants; the active list, rename registers and
 * address queue as rings of the graduation cycles of the last N users;
 * functional units as a calendar of bookings per cycle).
 *
 * Memory dependences (ooo.memdep; a store's address is known from the
 * cycle after it issues, and "the same address" is the same 8-byte word):
 *   oracle        a load waits only for an older store to its word, and
 *                 takes its data from it while the store has not graduated;
 *   conservative  a load also waits until every older store's address is
 *                 known;
 *   store_sets    a load issues when its operands are ready, unless the
 *                 store-set predictor (Chrysos & Emer, ISCA 1998) names an
 *                 older store it must wait for.  A load that issued before
 *                 an older store to its word knew its address is a
 *                 violation, found when the store's address is known: the
 *                 load re-issues ooo.replay_penalty cycles later and takes
 *                 the store's data, its dependants follow its new result,
 *                 and the predictor puts the two in one store set.
 *
 * The wrong path (ooo.wrong_path): after a mispredicted transfer the path
 * the predictor chose is walked on a shadow of the cpu (wrongpath.c) and
 * each of its instructions is fetched, dispatched into the entries the
 * older ones leave, issued and (loads) sent to the D-cache, until the
 * redirect squashes them; the correct path is refetched as without it.
 *
 * The head cycles of the ground truth are graduation gaps: G minus the
 * previous instruction's G (0 when they graduate together), and a stall is
 * charged to what made the instruction complete late -- its own execution
 * (a D-cache miss, a long operation) or, when it issued only after the
 * previous one graduated, why it issued late (an operand and its producer,
 * a busy unit, or the front end: a mispredict, an I-cache miss).
 */
#include "timing_model.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "dise_engine.h"
#include "truth.h"
#include "util.h"
#include "runtime.h"
#include "lost.h"
#include "wrongpath.h"

static const char *const ooo_stage_names[5] = { "F", "D", "I", "X", "G" };

/* ---- small structures ------------------------------------------------------------ */

/* A stage taking a group of instructions a cycle (fetch, dispatch,
 * graduation): the count in the group of `cycle` once the next instruction
 * has entered it in cycle c (>= cycle).  A conditional move rather than a
 * branch: whether two instructions share a cycle follows the timing, which
 * the host's branch predictor cannot foresee (the move is about 4 host
 * instructions where the masking arithmetic it replaces took 6 or 7). */
static inline unsigned group_count(unsigned n, uint64_t cycle, uint64_t c)
{
#if defined(__x86_64__)
    /* gcc makes a branch of the move when it is written in C */
    unsigned r = 1;
    __asm__("cmp %[c], %[cycle]\n\tcmove %[next], %[r]"
            : [r] "+r"(r) : [c] "r"(c), [cycle] "r"(cycle), [next] "r"(n + 1) : "cc");
    return r;
#else
    return (n & -(unsigned)(c == cycle)) + 1;
#endif
}

/* The same for a stage of width 1 << shift, as a slot count: slot s is
 * place s & (width - 1) in the group of cycle s >> shift, so the next
 * instruction ready in cycle c takes the slot after the last one's, or the
 * first of c's group if that is later; returns its cycle.  (As
 * group_count: one cycle's group takes `width`, a later ready cycle starts
 * a group; a shift, a compare and no branch.) */
static inline uint64_t group_enter(uint64_t *slot, uint64_t c, unsigned shift)
{
    uint64_t s = max2(c << shift, *slot + 1);
    *slot = s;
    return s >> shift;
}

/* A value for each of the last n instructions of a kind, oldest first out:
 * ring_oldest() is the value of the n-th previous one (0 before there were n).
 * The values pushed so far are v[0 .. pushed - 1] modulo a power of two
 * at least n, so the n-th previous is at pushed - n (a slot not written
 * yet, 0, while fewer than n were pushed). */
typedef struct ring {
    uint64_t *v;
    unsigned n, mask, pushed;
} ring_t;

static void ring_init(ring_t *r, unsigned n)
{
    unsigned size = 1;
    while (size < n) size *= 2;
    r->v = xcalloc(size, sizeof *r->v);
    r->n = n;
    r->mask = size - 1;
    r->pushed = 0;
}

static inline uint64_t ring_oldest(const ring_t *r) { return r->v[(r->pushed - r->n) & r->mask]; }

/* The value of the (n - k)-th previous one (k < n): what the k-th
 * instruction after the next one pushed would find oldest. */
static inline uint64_t ring_ahead(const ring_t *r, unsigned k)
{
    return r->v[(r->pushed - r->n + k) & r->mask];
}

static inline void ring_push(ring_t *r, uint64_t x)
{
    r->v[r->pushed++ & r->mask] = x;
}

/* Two rings every instruction is pushed to, sharing the count and the
 * slots: the dispatch cycles of the last fetch_buffer instructions (the
 * fetch buffer) and the graduation cycles of the last rob_entries (the
 * active list), as ring_t's each.  Kept in the model's state (at most
 * IR_MAX slots: the largest ooo.rob_entries) and counted in bytes: `pos`
 * is the byte offset of the next slot to write (16 bytes a slot, not yet
 * reduced modulo the ring), back[which] the distance back to the n-th
 * previous one's field, so a read is a subtraction, a mask and a load. */
enum { IR_DISPATCHED, IR_GRADUATED };
#define IR_MAX 1024u
typedef struct insn_rings {
    uint64_t pos, back[2], mask;        /* mask: the ring's bytes - 1, fields kept */
    unsigned n[2];
    uint64_t v[IR_MAX][2];              /* by slot: IR_* */
} insn_rings_t;

static void insn_rings_init(insn_rings_t *r, unsigned fetch_buffer, unsigned rob)
{
    unsigned size = 1;
    while (size < fetch_buffer || size < rob) size *= 2;
    /* size <= IR_MAX: config_params.def bounds ooo.rob_entries at 1024 and
     * ooo.fetch_buffer at 256 */
    r->n[IR_DISPATCHED] = fetch_buffer;
    r->n[IR_GRADUATED] = rob;
    r->back[IR_DISPATCHED] = (uint64_t)fetch_buffer * sizeof r->v[0];
    r->back[IR_GRADUATED] = (uint64_t)rob * sizeof r->v[0] - sizeof r->v[0][0];
    r->mask = (uint64_t)size * sizeof r->v[0] - sizeof r->v[0][0];
    r->pos = 0;
}

static inline uint64_t insn_rings_at(const insn_rings_t *r, uint64_t off)
{
    return *(const uint64_t *)((const char *)r->v + (off & r->mask));
}

static inline uint64_t insn_rings_oldest(const insn_rings_t *r, int which)
{
    return insn_rings_at(r, r->pos - r->back[which]);
}

static inline uint64_t insn_rings_ahead(const insn_rings_t *r, int which, unsigned k)
{
    return insn_rings_at(r, r->pos + (uint64_t)k * sizeof r->v[0] - r->back[which]);
}

static inline void insn_rings_push(insn_rings_t *r, uint64_t d, uint64_t g)
{
    uint64_t *slot = (uint64_t *)((char *)r->v + (r->pos & r->mask));
    r->pos += sizeof r->v[0];
    slot[IR_DISPATCHED] = d;
    slot[IR_GRADUATED] = g;
}

/* The cycles at which the occupants of a structure (an issue queue, the
 * branch stack) leave it, unsorted in an array of its capacity.  An
 * occupant leaving in cycle c frees its entry for c + 1.  Dispatch asks in
 * order of its cycle, so `want` (the latest cycle asked for) only moves on
 * but for an occupant inserted before it (the wrong path can ask for a
 * cycle the correct path then dispatches before): want moves back to it.
 * The occupants leaving before want are gone but stay in the array (and in
 * n) until the structure looks full: then they are dropped in one pass,
 * and if it is still full the earliest leaves.  While it does not look
 * full it has room whatever the gone ones, so leave_room() answers as if
 * they had been dropped at once.  (The same answers as the calendar of
 * counts per leaving cycle this replaced, which moved a window on over
 * every cycle dispatch passed: see pipeline/README.md.) */
typedef struct leave_queue {
    uint64_t *x;                /* leaving cycles, x[0 .. n - 1] */
    uint64_t want;              /* leaving before it is gone */
    unsigned n, cap;            /* occupants (gone ones too until dropped) */
} leave_queue_t;

static void leave_init(leave_queue_t *q, unsigned cap)
{
    q->x = xcalloc(cap + 1, sizeof *q->x);
    q->want = 0;
    q->n = 0;
    q->cap = cap;
}

static void leave_free(leave_queue_t *q)
{
    free(q->x);
}

/* The occupants leaving before want are dropped. */
static void leave_drop_gone(leave_queue_t *q)
{
    uint64_t want = q->want, *x = q->x;
    size_t kept = 0, n = q->n;          /* host-word counts: no extension each step */
#pragma GCC unroll 4
    for (size_t k = 0; k < n; k++) {
        uint64_t v = x[k];
        x[kept] = v;
        kept += v >= want;
    }
    q->n = (unsigned)kept;
}

/* An occupant leaving before want: the gone ones are dropped first, then
 * want moves back to it. */
static __attribute__((noinline)) void leave_insert_early(leave_queue_t *q, uint64_t x)
{
    leave_drop_gone(q);
    q->want = x;
    q->x[q->n++] = x;
}

static inline void leave_insert(leave_queue_t *q, uint64_t x)
{
    if (likely(x >= q->want)) q->x[q->n++] = x;
    else leave_insert_early(q, x);
}

/* leave_room() when the structure looks full: the gone occupants are
 * dropped, and if it is full, the earliest occupant leaves (want moves on
 * to its cycle). */
static __attribute__((noinline)) uint64_t leave_room_slow(leave_queue_t *q, uint64_t d)
{
    leave_drop_gone(q);
    if (q->n < q->cap) return d;
    uint64_t *x = q->x;
    unsigned first = 0;
    for (unsigned k = 1; k < q->n; k++)
        if (x[k] < x[first]) first = k;
    uint64_t c = x[first];
    x[first] = x[--q->n];
    if (c > q->want) q->want = c;
    return c + 1;
}

/* The first cycle from d at which the structure has a free entry (an
 * occupant leaving in cycle c frees it for c + 1); occupants gone by then
 * are dropped (lazily: see leave_queue_t).  The caller then inserts the
 * new occupant's leaving cycle. */
static inline __attribute__((always_inline)) uint64_t leave_room(leave_queue_t *q, uint64_t d)
{
    q->want = d > q->want ? d : q->want;
    if (likely(q->n < q->cap)) return d;
    return leave_room_slow(q, d);
}

/* Functional units of one kind: how many are booked in each cycle of a
 * window of CAL_WINDOW cycles, indexed by cycle modulo the window; a slot
 * holds cycle << 8 | units booked.  A slot holding an older cycle is free;
 * one holding a later cycle (a booking a whole window ahead) is treated as
 * taken. */
#define CAL_WINDOW 8192u

typedef struct calendar {
    uint64_t *slot;
    unsigned units;
    bool ends_known;            /* every booking keeps booked_end (build_shapes: a unit */
    uint64_t booked_end;        /* whose bookings all span several cycles, or the
                                   multiply/divide unit, whose single-cycle ones keep it
                                   too: calendar_take's `track`); then none is in a
                                   cycle from this one on */
} calendar_t;

static void calendar_init(calendar_t *k, unsigned units)
{
    k->slot = xcalloc(CAL_WINDOW, sizeof *k->slot);
    k->units = units;
}

/* A slot below c << 8 | units holds an older cycle or fewer than `units`
 * bookings in c (units is at most 16: config_params.def), so one compare
 * says whether a unit is free. */
static inline bool calendar_free_at(const calendar_t *k, uint64_t c)
{
    return k->slot[c & (CAL_WINDOW - 1)] < (c << 8 | k->units);
}

/* One more booking in the slot of cycle c (free: calendar_free_at). */
static inline void calendar_book_one(uint64_t *s, uint64_t c)
{
    *s = (*s >> 8 == c ? *s : c << 8) + 1;
}

/* calendar_find and calendar_book of an operation that keeps its unit
 * busy `span` (> 1) cycles: out of line, their loops have the registers to
 * themselves. */
static __attribute__((noinline)) uint64_t calendar_find_long(const calendar_t *k, uint64_t c,
                                                             unsigned span)
{
    /* [c, known) is free, and so is every cycle from `free_from` on; the
     * span is looked at from its last cycle not known free down, so a unit
     * busy with a long operation is passed span cycles at a time
     * (calendar_free_at, with the slots and units in registers) */
    const uint64_t *slot = k->slot;
    uint64_t units = k->units;
    uint64_t known = c, free_from = k->ends_known ? k->booked_end : UINT64_MAX;
    for (;;) {
        uint64_t end = c + span;
        if (end > free_from) end = max2(free_from, known);
        while (end > known && slot[(end - 1) & (CAL_WINDOW - 1)] < ((end - 1) << 8 | units))
            end--;
        if (end == known) return c;
        known = c + span;               /* end - 1 is taken, the cycles after it free */
        c = end;
    }
}

static __attribute__((noinline)) void calendar_book_long(calendar_t *k, uint64_t c,
                                                         unsigned span)
{
    uint64_t end = c + span, *slot = k->slot;
    if (k->units == 1 || (k->ends_known && c >= k->booked_end)) {
        /* no slot holds a booking of its cycle (a single unit's free slot
         * holds an older cycle): each slot of the span is written, in at
         * most two runs of consecutive slots (the window wraps), two at a
         * time */
        while (c < end) {
            uint64_t wrap = (c | (CAL_WINDOW - 1)) + 1;
            uint64_t run = (end < wrap ? end : wrap) - c;
            uint64_t *s = &slot[c & (CAL_WINDOW - 1)], v = c << 8 | 1;
            c += run;
            for (; run >= 2; run -= 2, s += 2, v += 512) {
                s[0] = v;
                s[1] = v + 256;
            }
            if (run) *s = v;
        }
    } else {
        for (; c < end; c++) calendar_book_one(&slot[c & (CAL_WINDOW - 1)], c);
    }
    k->booked_end = max2(k->booked_end, end);
}

/* The first cycle from c at which a unit is free for `span` cycles, booked
 * (calendar_find_long and calendar_book_long for a span > 1).  `track` (a
 * constant where the unit is): a single-cycle booking keeps booked_end
 * too (the multiply/divide unit: build_shapes). */
static inline __attribute__((always_inline))
uint64_t calendar_take(calendar_t *k, uint64_t c, unsigned span, bool track)
{
    if (likely(span == 1)) {
        /* calendar_free_at and calendar_book_one on the key c << 8 | units,
         * which moves on a cycle by adding 256 (a slot below the key holds
         * c's bookings or an older cycle: one more is the larger of it and
         * c << 8, plus one); the slot is a pointer moved on with it,
         * wrapping at the window's end */
        uint64_t *slot = k->slot, *p = &slot[c & (CAL_WINDOW - 1)], key = c << 8 | k->units;
        while (*p >= key) {
            key += 256;
            if (unlikely(++p == slot + CAL_WINDOW)) p = slot;
        }
        *p = max2(*p, key & ~(uint64_t)255) + 1;
        c = key >> 8;
        if (track) k->booked_end = max2(k->booked_end, c + 1);
        return c;
    }
    c = calendar_find_long(k, c, span);
    calendar_book_long(k, c, span);
    return c;
}

/* calendar_take for the wrong path: the first cycle from c before `limit`
 * at which a unit is free for `span` cycles, booked; `limit` (nothing
 * booked) when there is none before it.  A single-cycle operation finds
 * and books its slot in one pass, as calendar_take. */
static inline __attribute__((always_inline))
uint64_t calendar_take_before(calendar_t *k, uint64_t c, unsigned span, uint64_t limit,
                              bool track)
{
    if (likely(span == 1)) {
        uint64_t *s;
        for (; c < limit; c++)
            if (*(s = &k->slot[c & (CAL_WINDOW - 1)]) < (c << 8 | k->units)) {
                calendar_book_one(s, c);
                if (track) k->booked_end = max2(k->booked_end, c + 1);
                return c;
            }
        return limit;
    }
    if (c >= limit) return limit;
    c = calendar_find_long(k, c, span);
    if (c < limit) calendar_book_long(k, c, span);
    return c < limit ? c : limit;
}

/* ---- the model's state -------------------------------------------------------------- */

enum fu_kind { FU_INT, FU_MULDIV, FU_MEM, FU_FADD, FU_FMUL, FU_FDIV, FU_KINDS };
enum queue_kind { Q_INT, Q_FP, Q_MEM };

/* What held the dispatch stream back beyond fetch and width (statistics:
 * each instruction's delay is charged to the resource that caused it, and
 * the younger ones, dispatching in order behind it, are not charged again). */
#define DISPATCH_LIST(X) \
    X(DS_ROB, "rob_full") \
    X(DS_INT_QUEUE, "int_queue_full") X(DS_FP_QUEUE, "fp_queue_full") \
    X(DS_MEM_QUEUE, "mem_queue_full") X(DS_RENAME, "rename_regs_full") \
    X(DS_BRANCHES, "branch_stack_full") X(DS_SERIAL, "serializing")
#define DISPATCH_ENUM(id, name) id,
enum { DISPATCH_LIST(DISPATCH_ENUM) DS_COUNT };
#undef DISPATCH_ENUM
static const char *const dispatch_names[DS_COUNT] = {
#define DISPATCH_NAME(id, name) name,
    DISPATCH_LIST(DISPATCH_NAME)
#undef DISPATCH_NAME
};

/* The last store to each 8-byte word (direct mapped): a younger load to
 * the word takes its data while it has not graduated. */
#define STORE_TABLE 1024u
typedef struct store_entry {
    uint64_t word;              /* address >> 3, or ~0 */
    uint64_t data_ready;        /* cycle its data can be forwarded */
    uint64_t graduated;         /* cycle it wrote the D-cache */
    uint64_t pc;
    uint8_t role;
} store_entry_t;

/* The store-set predictor: the store set ID table (SSIT, indexed by a
 * hash of the pc; 0 = no set, else the ID + 1) and the last fetched store
 * table (LFST, by ID: when the youngest store of the set fetched so far
 * has its address and data, and which store it is). */
typedef struct last_store {
    uint64_t ready, pc;
    uint8_t role;
} last_store_t;

typedef struct store_sets {
    uint32_t *ssit;
    unsigned ssit_bits;
    unsigned ssit_shift;        /* 63 - ssit_bits: ssit_entry */
    last_store_t *lfst;
    unsigned lfst_entries;
    uint32_t next_id;           /* the next store set ID handed out */
    uint64_t clear_interval, next_clear;   /* next_clear UINT64_MAX: never */
} store_sets_t;

/* An instruction's unit, queue and cycles on the unit, by operation class
 * and memory access (build_shapes), and what it takes at dispatch (use_of;
 * its rename registers: writes_of). */
typedef struct shape {
    uint8_t fu, queue;          /* enum fu_kind, enum queue_kind */
    bool serial_class;          /* serializing() by its class alone (a fence) */
    unsigned span;              /* occupancy() */
} shape_t;

enum { WRITES_INT = 1, WRITES_FP = 2 };     /* the rename registers it takes */
typedef struct use {            /* 8 bytes: kept in one host register */
    uint8_t fu, queue;
    bool serial;                /* serializing() */
    uint16_t span;              /* at most a latency: 1000 (config_params.def) */
} use_t;

/* The kinds of instruction time_ooo has a variant for (kind_of), each
 * with what it may take for granted (assume_kind); OK_GENERAL: any. */
enum { OK_GENERAL, OK_ALU, OK_FP, OK_LOAD, OK_STORE, OK_BRANCH, OK_JUMP, OK_MULDIV, OK_KINDS };
#define KIND_FLAGS (IF_LOAD | IF_STORE | IF_BRANCH | IF_JUMP | IF_CALL | IF_RETURN)

struct ooo {
    /* parameters */
    unsigned fetch_width, dispatch_width, retire_width, frontend_depth, mispredict_penalty;
    bool mul_pipelined;
    int memdep;                 /* CFG_MEMDEP_* */
    unsigned replay_penalty;
    shape_t shapes[OC_COUNT][2];        /* by opclass and memory access */
    uint8_t reg_writes[256];            /* by destination: WRITES_* */
    bool rename_binds;          /* some reg_writes[] is not 0 (build_shapes) */
    uint8_t kind[OC_COUNT][KIND_FLAGS + 1];     /* by opclass and flags & KIND_FLAGS: OK_* */
    timing_insn_fn entry[OC_COUNT][KIND_FLAGS + 1];     /* and its variant (time_ooo_by_kind) */
    /* fetch */
    uint64_t fetch_cycle, fetch_line;
    unsigned fetch_n;           /* fetch_width once a taken transfer ended the group
                                   (group_end): the next one is fetched a cycle later */
    insn_rings_t last;          /* D of the last fetch_buffer insts, G of the last
                                   rob_entries */
    /* dispatch */
    uint64_t dispatch_cycle;
    unsigned dispatch_n;
    uint64_t sum_d;
    ring_t int_writers, fp_writers, mem_queue;        /* graduation cycles */
    uint64_t mem_queue_last;    /* when the youngest address-queue entry frees */
    leave_queue_t queue[2];     /* integer and FP queues: issue cycles */
    leave_queue_t branches;     /* unresolved branches: resolution cycles */
    uint64_t serial_after;      /* a serializing instruction graduated */
    /* issue */
    calendar_t fu[FU_KINDS];
    uint64_t sum_i;
    /* memory */
    store_entry_t stores[STORE_TABLE];
    /* graduation */
    uint64_t sum_g;
    uint64_t grad_cycle;
    unsigned grad_n;            /* in its group (a retire_width not a power of two) */
    uint64_t grad_slot;         /* else its slot (group_enter) */
    int retire_shift;           /* log2(retire_width), or -1 */
    /* why the instruction being timed waited (a pointer to one of these:
     * time_ooo), NULL for its operands (operands_why): a why_t of each
     * bare cause, the redirect that held its fetch back (a copy, as
     * control() rewrites t->redirect_why) and the store it waited for */
    why_t cause_why[STALL_COUNT];
    why_t front_why, store_why;
    /* statistics */
    uint64_t dispatch_stall[DS_COUNT];
    /* sum_d, sum_i, sum_g (with the stages): of D, I and G modulo 2^64, so
     * the sums of G - D and I - D (active-list and queue occupancy) are
     * their differences; apart, so the compiler adds each to its word
     * (side by side it packed them into a vector register each time) */
    uint64_t forwarded_loads;
    uint64_t violations, replayed_insts, replay_cycles;
    uint64_t memdep_waits, memdep_wait_cycles, ssit_clears;
    /* memory-dependence policies other than the oracle */
    last_store_t stores_known;  /* conservative: when every older store's address is known */
    store_sets_t sets;
    /* by register as decoded (256: REG_NONE's and REG_SINK's entries stay
     * 0, so the common case clears a destination without testing it) */
    uint64_t replay_taint[256];         /* store_sets: see note_replayed() */
    uint64_t replay_origin[256];        /* and the violating load behind it */
    uint64_t taint_high;        /* no replay_taint[] is above it */
    lost_t *lost;               /* per-pc losses to wrong paths and replays */
    pair_table_t replay_at;     /* (load pc, 0) -> replay cycles */
    /* the wrong path (ooo.wrong_path): the walk pending after a transfer
     * (start pc, 0 = none; the cycle it is squashed; whether it dispatches),
     * the slots of t->reg_ready its results were written into and their
     * values before the walk (put back when it ends: wp_undo), the
     * dispatch cycles of its instructions, and the statistics */
    bool wrong_path;
    uint64_t wp_start, wp_squash, wp_branch;
    bool wp_dispatches;
    struct wp_undo { uint64_t ready, slot; } *wp_undo, *wp_undo_end;
    uint64_t *wp_d;
    unsigned wp_max;
    wrongpath_t *walker;
    uint64_t wp_walks, wp_fetched, wp_dispatched, wp_issued, wp_loads, wp_dmisses;
    uint64_t wp_iaccesses, wp_imisses, wp_rob_cycles, wp_fetch_cycles;
    uint64_t wp_end[WP_END_COUNT];
};

static void build_shapes(const config_t *cfg, ooo_t *o);
static const timing_insn_fn time_ooo_by_kind[OK_KINDS], time_ooo_by_kind_simple[OK_KINDS];

void *ooo_new(const config_t *cfg)
{
    ooo_t *o = xcalloc(1, sizeof *o);
    o->fetch_width = (unsigned)cfg->ooo_fetch_width;
    o->dispatch_width = (unsigned)cfg->ooo_dispatch_width;
    o->retire_width = (unsigned)cfg->ooo_retire_width;
    o->frontend_depth = (unsigned)cfg->ooo_frontend_depth;
    o->mispredict_penalty = (unsigned)cfg->ooo_mispredict_penalty;
    o->mul_pipelined = cfg->ooo_int_mul_pipelined;
    o->fetch_line = ~0ull;
    o->grad_slot = UINT64_MAX;          /* none before: the first slot is 0 */
    o->retire_shift = (o->retire_width & (o->retire_width - 1)) == 0
                          ? __builtin_ctz(o->retire_width) : -1;
    for (unsigned k = 0; k < STALL_COUNT; k++) o->cause_why[k] = (why_t){ .cause = k };
    insn_rings_init(&o->last, (unsigned)cfg->ooo_fetch_buffer, (unsigned)cfg->ooo_rob_entries);
    ring_init(&o->int_writers, (unsigned)cfg->ooo_int_rename);
    ring_init(&o->fp_writers, (unsigned)cfg->ooo_fp_rename);
    ring_init(&o->mem_queue, (unsigned)cfg->ooo_mem_queue);
    leave_init(&o->queue[Q_INT], (unsigned)cfg->ooo_int_queue);
    leave_init(&o->queue[Q_FP], (unsigned)cfg->ooo_fp_queue);
    leave_init(&o->branches, (unsigned)cfg->ooo_branch_stack);
    const unsigned units[FU_KINDS] = {
        [FU_INT] = (unsigned)cfg->ooo_int_alus, [FU_MULDIV] = (unsigned)cfg->ooo_muldiv_units,
        [FU_MEM] = (unsigned)cfg->ooo_mem_ports, [FU_FADD] = (unsigned)cfg->ooo_fp_adders,
        [FU_FMUL] = (unsigned)cfg->ooo_fp_multipliers, [FU_FDIV] = 1,
    };
    for (int k = 0; k < FU_KINDS; k++) calendar_init(&o->fu[k], units[k]);
    for (unsigned k = 0; k < STORE_TABLE; k++) o->stores[k].word = ~0ull;
    o->wrong_path = cfg->ooo_wrong_path;
    o->wp_max = (unsigned)cfg->ooo_rob_entries + (unsigned)cfg->ooo_fetch_buffer;
    o->wp_d = xcalloc(o->wp_max, sizeof *o->wp_d);
    o->wp_undo = o->wp_undo_end = xcalloc(o->wp_max, sizeof *o->wp_undo);
    if (o->wrong_path) o->walker = wrongpath_new();
    o->lost = lost_new();
    o->memdep = (int)cfg->ooo_memdep;
    o->replay_penalty = (unsigned)cfg->ooo_replay_penalty;
    if (o->memdep == CFG_MEMDEP_STORE_SETS) {
        store_sets_t *ss = &o->sets;
        while ((1ull << ss->ssit_bits) < cfg->ooo_ssit_entries) ss->ssit_bits++;
        ss->ssit = xcalloc(1ull << ss->ssit_bits, sizeof *ss->ssit);
        ss->ssit_shift = 63 - ss->ssit_bits;
        ss->lfst_entries = (unsigned)cfg->ooo_lfst_entries;
        ss->lfst = xcalloc(ss->lfst_entries, sizeof *ss->lfst);
        ss->clear_interval = cfg->ooo_ssit_clear_interval;
        ss->next_clear = ss->clear_interval ? ss->clear_interval : UINT64_MAX;
    }
    build_shapes(cfg, o);
    return o;
}

void ooo_free(void *state)
{
    ooo_t *o = state;
    if (!o) return;
    free(o->int_writers.v);
    free(o->fp_writers.v);
    free(o->mem_queue.v);
    leave_free(&o->queue[Q_INT]);
    leave_free(&o->queue[Q_FP]);
    leave_free(&o->branches);
    for (int k = 0; k < FU_KINDS; k++) free(o->fu[k].slot);
    free(o->sets.ssit);
    free(o->sets.lfst);
    pair_table_free(&o->replay_at);
    free(o->wp_d);
    free(o->wp_undo);
    wrongpath_free(o->walker);
    lost_free(o->lost);
    free(o);
}

/* ---- classification ----------------------------------------------------------------- */

static enum fu_kind fu_of(const insn_t *in)
{
    if (in->flags & (IF_LOAD | IF_STORE)) return FU_MEM;
    switch (in->opclass) {
    case OC_IMUL: case OC_IDIV: return FU_MULDIV;
    case OC_FALU: case OC_FCVT: case OC_FMOVE: return FU_FADD;
    case OC_FMUL: return FU_FMUL;
    case OC_FDIV: case OC_FSQRT: return FU_FDIV;
    default: return FU_INT;
    }
}

static int queue_of(const insn_t *in)
{
    if (in->flags & (IF_LOAD | IF_STORE)) return Q_MEM;
    switch (fu_of(in)) {
    case FU_FADD: case FU_FMUL: case FU_FDIV: return Q_FP;
    default: return Q_INT;
    }
}

/* Cycles a unit stays busy with the operation (1: pipelined). */
static unsigned occupancy(const config_t *cfg, const unsigned lat[OC_COUNT], const ooo_t *o,
                          const insn_t *in)
{
    switch (in->opclass) {
    case OC_IMUL: return o->mul_pipelined ? 1 : lat[OC_IMUL];
    case OC_IDIV: return cfg->lat_int_div_pipelined ? 1 : lat[OC_IDIV];
    case OC_FDIV: case OC_FSQRT:
        return cfg->lat_fp_div_pipelined ? 1 : lat[in->opclass];
    default: return 1;
    }
}

/* Fences, system calls and other serializing instructions dispatch once
 * every older instruction has graduated, and younger ones after they have
 * (the R10000's SYNC waits for older loads and stores; this is stricter). */
static bool serializing(const insn_t *in)
{
    return (in->flags & (IF_SERIAL | IF_SYSCALL)) || in->opclass == OC_FENCE;
}

static bool writes_int_reg(unsigned rd)
{
    return rd != REG_NONE && rd != REG_SINK && (rd < REG_FP0 || rd >= REG_DISE0);
}

static bool writes_fp_reg(unsigned rd)
{
    return rd >= REG_FP0 && rd < REG_DISE0;
}

/* The variant of time_ooo for an instruction of class oc and flags fl
 * (KIND_FLAGS of them: time_ooo sends one with IF_SERIAL or IF_SYSCALL to
 * the plain general variant, one with IF_DISE to the general one, and the
 * wrong path ends at all three): what assume_kind says of it must hold.
 * A load or store with or without IF_ATOMIC is timed alike. */
static unsigned kind_of(const ooo_t *o, unsigned oc, unsigned fl)
{
    const shape_t *s = &o->shapes[oc][(fl & (IF_LOAD | IF_STORE)) != 0];
    unsigned mem = fl & (IF_LOAD | IF_STORE);
    unsigned xfer = fl & (IF_BRANCH | IF_JUMP | IF_CALL | IF_RETURN);
    if (s->serial_class) return OK_GENERAL;
    /* a multiply or divide: its span is the only thing not fixed */
    if (!mem && !xfer && s->fu == FU_MULDIV && s->queue == Q_INT) return OK_MULDIV;
    if (s->span != 1) return OK_GENERAL;
    if (mem && xfer) return OK_GENERAL;
    if (mem == IF_LOAD) return s->fu == FU_MEM && s->queue == Q_MEM ? OK_LOAD : OK_GENERAL;
    if (mem == IF_STORE) return s->fu == FU_MEM && s->queue == Q_MEM ? OK_STORE : OK_GENERAL;
    if (mem) return OK_GENERAL;
    if (s->fu != FU_INT && xfer) return OK_GENERAL;
    if (xfer == IF_BRANCH) return s->fu == FU_INT && s->queue == Q_INT ? OK_BRANCH : OK_GENERAL;
    if (xfer && (xfer & (IF_JUMP | IF_BRANCH)) == IF_JUMP)
        return s->fu == FU_INT && s->queue == Q_INT ? OK_JUMP : OK_GENERAL;
    if (xfer) return OK_GENERAL;
    if (s->fu == FU_INT && s->queue == Q_INT) return OK_ALU;
    if (s->queue == Q_FP) return OK_FP;
    return OK_GENERAL;
}

/* A machine whose timing needs none of the tests its variants of time_ooo
 * make of the configuration (the `simple` ones, which leave them out): the
 * oracle of memory dependences, no wrong path, no rename registers that
 * bind (rename_binds), a power-of-two graduation width.  r10k is one. */
static bool simple_machine(const ooo_t *o)
{
    return o->memdep == CFG_MEMDEP_ORACLE && !o->wrong_path && !o->rename_binds &&
           o->retire_shift >= 0;
}

/* The tables use_of() and the entries read, from the functions above: by
 * operation class and whether it accesses memory, and by destination
 * register.  Built with the model (ooo_new), the latencies from the
 * configuration as the timing's own are (timing_latencies), so the
 * entries need not ask whether they are there. */
static void build_shapes(const config_t *cfg, ooo_t *o)
{
    unsigned lat[OC_COUNT];
    timing_latencies(cfg, lat);         /* the timing's (t->p.lat), from the same cfg */
    for (unsigned oc = 0; oc < OC_COUNT; oc++)
        for (unsigned mem = 0; mem < 2; mem++) {
            insn_t in = { .opclass = (uint8_t)oc, .flags = mem ? IF_LOAD : 0 };
            unsigned span = occupancy(cfg, lat, o, &in);
            o->shapes[oc][mem] = (shape_t){ .fu = (uint8_t)fu_of(&in),
                                           .queue = (uint8_t)queue_of(&in),
                                           .serial_class = serializing(&in), .span = span };
        }
    for (unsigned kind = 0; kind < FU_KINDS; kind++) {
        bool used = false, long_only = true;
        for (unsigned oc = 0; oc < OC_COUNT; oc++)
            for (unsigned mem = 0; mem < 2; mem++)
                if (o->shapes[oc][mem].fu == kind) {
                    used = true;
                    long_only &= o->shapes[oc][mem].span > 1;
                }
        /* the multiply/divide unit's single-cycle bookings keep booked_end
         * (calendar_take's `track`) */
        o->fu[kind].ends_known = (used && long_only) || kind == FU_MULDIV;
    }
    /* Rename registers at least as many as active-list entries never hold
     * an instruction back: the n-th previous writer of their kind is at
     * least n >= rob_entries instructions back, and graduation is in order,
     * so it graduated no later than the instruction the active list waits
     * for (on the wrong path too: its k-th instruction waits for the
     * (rob_entries - k)-th previous one and the (n - j)-th previous writer,
     * j <= k of its own writers before it).  Such an instruction is not
     * marked as taking one (WRITES_*): the hold would add nothing, and the
     * ring of the writers' graduation cycles is never read. */
    unsigned rob = o->last.n[IR_GRADUATED];
    bool int_binds = o->int_writers.n < rob, fp_binds = o->fp_writers.n < rob;
    for (unsigned rd = 0; rd < 256; rd++)
        o->reg_writes[rd] = (uint8_t)((writes_int_reg(rd) && int_binds ? WRITES_INT : 0) |
                                      (writes_fp_reg(rd) && fp_binds ? WRITES_FP : 0));
    o->rename_binds = int_binds || fp_binds;
    const timing_insn_fn *by_kind = simple_machine(o) ? time_ooo_by_kind_simple
                                                      : time_ooo_by_kind;
    for (unsigned oc = 0; oc < OC_COUNT; oc++)
        for (unsigned fl = 0; fl <= KIND_FLAGS; fl++) {
            o->kind[oc][fl] = (uint8_t)kind_of(o, oc, fl);
            o->entry[oc][fl] = by_kind[o->kind[oc][fl]];
        }
}

/* What the instruction takes in the machine, looked up once: its unit,
 * queue and unit cycles, whether it serializes (serializing(): by its
 * class from the table, or its flags). */
static inline use_t use_of(const ooo_t *o, const insn_t *in)
{
    const shape_t *s = &o->shapes[in->opclass][(in->flags & (IF_LOAD | IF_STORE)) != 0];
    bool serial = s->serial_class | ((in->flags & (IF_SERIAL | IF_SYSCALL)) != 0);
    return (use_t){ .fu = s->fu, .queue = s->queue, .span = s->span, .serial = serial };
}

/* The rename registers it takes (WRITES_*): none in a machine with at
 * least as many of each kind as active-list entries (build_shapes), such
 * as r10k, which then neither looks up the destination nor tests the
 * result's kind an instruction. */
static inline unsigned writes_of(const ooo_t *o, const insn_t *in)
{
    return likely(!o->rename_binds) ? 0 : o->reg_writes[in->rd];
}

/* What a run with no outputs beyond the statistics (t->stats_only) may
 * take for granted in the plain variants of time_ooo and wp_visit, and
 * for time_ooo also that `in` is a program instruction with no decode
 * penalty (asked once, in time_ooo).  Said again after each call the
 * compiler cannot see through, it leaves out the views, ProfileMe, the
 * shell's history, the ground truth and the DISE roles' accounting. */
static inline __attribute__((always_inline)) void assume_stats_only(const timing_t *t,
                                                                    bool plain)
{
    if (plain && (t->views || t->pm || t->recent || t->keep_truth)) __builtin_unreachable();
}

static inline __attribute__((always_inline)) void assume_plain(const timing_t *t,
                                                               const insn_t *in, bool plain)
{
    assume_stats_only(t, plain);
    if (plain && !tm_program_insn(t, in)) __builtin_unreachable();
}

/* What an instruction of kind `kind` (a constant) is, said to the
 * compiler, and its use's fixed fields (kind_of). */
static inline __attribute__((always_inline)) void assume_kind(const insn_t *in, use_t *u, int kind)
{
    unsigned fl = in->flags, xfer = IF_BRANCH | IF_JUMP | IF_CALL | IF_RETURN;
    unsigned never = IF_SERIAL | IF_SYSCALL | IF_DISE;
    switch (kind) {
    case OK_ALU:
        if (fl & (never | IF_LOAD | IF_STORE | xfer)) __builtin_unreachable();
        *u = (use_t){ .fu = FU_INT, .queue = Q_INT, .span = 1 };
        break;
    case OK_FP:
        if (fl & (never | IF_LOAD | IF_STORE | xfer)) __builtin_unreachable();
        *u = (use_t){ .fu = u->fu, .queue = Q_FP, .span = 1 };
        break;
    case OK_LOAD:
        if ((fl & (never | IF_LOAD | IF_STORE | xfer)) != IF_LOAD) __builtin_unreachable();
        *u = (use_t){ .fu = FU_MEM, .queue = Q_MEM, .span = 1 };
        break;
    case OK_STORE:
        if ((fl & (never | IF_LOAD | IF_STORE | xfer)) != IF_STORE) __builtin_unreachable();
        *u = (use_t){ .fu = FU_MEM, .queue = Q_MEM, .span = 1 };
        break;
    case OK_BRANCH:
        if ((fl & (never | IF_LOAD | IF_STORE | IF_BRANCH | IF_JUMP)) != IF_BRANCH)
            __builtin_unreachable();
        *u = (use_t){ .fu = FU_INT, .queue = Q_INT, .span = 1 };
        break;
    case OK_JUMP:
        if ((fl & (never | IF_LOAD | IF_STORE | IF_BRANCH | IF_JUMP)) != IF_JUMP)
            __builtin_unreachable();
        *u = (use_t){ .fu = FU_INT, .queue = Q_INT, .span = 1 };
        break;
    case OK_MULDIV:
        if (fl & (never | IF_LOAD | IF_STORE | xfer)) __builtin_unreachable();
        *u = (use_t){ .fu = FU_MULDIV, .queue = Q_INT, .span = u->span };
        break;
    default:
        break;
    }
}

/* in->flags as far as the stages ask, for an instruction of kind `kind`
 * (a constant): what the kind fixes is a constant. */
static inline __attribute__((always_inline)) unsigned kflags(const insn_t *in, int kind)
{
    const unsigned known = IF_LOAD | IF_STORE | IF_BRANCH | IF_JUMP | IF_DISE;
    unsigned set = kind == OK_LOAD ? IF_LOAD : kind == OK_STORE ? IF_STORE
                 : kind == OK_BRANCH ? IF_BRANCH : kind == OK_JUMP ? IF_JUMP : 0;
    return kind == OK_GENERAL ? in->flags : (in->flags & ~known) | set;
}

/* ---- the stages ----------------------------------------------------------------------- */

/* Raise *d to at least `bound`, charging the difference to `why`. */
static inline void hold(ooo_t *o, uint64_t *d, uint64_t bound, int why)
{
    if (bound > *d) {
        o->dispatch_stall[why] += bound - *d;
        *d = bound;
    }
}

/* F: the cycle the instruction is fetched; *front: why it came late. */
static inline __attribute__((always_inline))
uint64_t fetch(timing_t *t, ooo_t *o, const insn_t *in, const why_t **front)
{
    uint64_t line = in->pc >> t->line_shift;
    uint64_t f = o->fetch_cycle;
    f += (o->fetch_n >= o->fetch_width) | (line != o->fetch_line);
    *front = &o->cause_why[STALL_FETCH];
    if (t->redirect > f) {
        f = t->redirect;
        o->front_why = t->redirect_why;
        *front = &o->front_why;
    }
    f = max2(f, insn_rings_oldest(&o->last, IR_DISPATCHED));
    f += t->front_penalty;                              /* DISE decode stall */
    uint8_t icause;
    uint64_t got = tm_fetch_bytes(t, in->pc, f, &icause) - t->p.l1i_hit;
    if (icause != STALL_NONE) *front = &o->cause_why[icause];
    o->fetch_n = group_count(o->fetch_n, o->fetch_cycle, got);
    o->fetch_cycle = got;
    o->fetch_line = line;
    return got;
}

/* A taken transfer ends the fetch group: the group counts as full, so
 * the next instruction is fetched a cycle later whatever its line. */
static inline void group_end(ooo_t *o)
{
    o->fetch_n = o->fetch_width;
}

/* D: the cycle it is renamed and dispatched. */
static inline __attribute__((always_inline))
uint64_t dispatch(ooo_t *o, const insn_t *in, use_t u, uint64_t f, int kind, bool simple)
{
    uint64_t d = max2(f + o->frontend_depth,
                      o->dispatch_cycle + (o->dispatch_n >= o->dispatch_width));
    hold(o, &d, insn_rings_oldest(&o->last, IR_GRADUATED) + 1, DS_ROB);
    hold(o, &d, o->serial_after, DS_SERIAL);
    if (u.serial) hold(o, &d, o->grad_cycle + 1, DS_SERIAL);
    if (!simple && unlikely(o->rename_binds)) {
        unsigned w = o->reg_writes[in->rd];
        if (w & WRITES_INT) hold(o, &d, ring_oldest(&o->int_writers) + 1, DS_RENAME);
        if (w & WRITES_FP) hold(o, &d, ring_oldest(&o->fp_writers) + 1, DS_RENAME);
    }
    unsigned q = u.queue;
    if (q == Q_MEM) hold(o, &d, ring_oldest(&o->mem_queue) + 1, DS_MEM_QUEUE);
    else hold(o, &d, leave_room(&o->queue[q], d), q == Q_INT ? DS_INT_QUEUE : DS_FP_QUEUE);
    if (kflags(in, kind) & IF_BRANCH) hold(o, &d, leave_room(&o->branches, d), DS_BRANCHES);
    o->dispatch_n = group_count(o->dispatch_n, o->dispatch_cycle, d);
    o->dispatch_cycle = d;
    return d;
}

static store_entry_t *store_slot(ooo_t *o, uint64_t addr)
{
    return &o->stores[(addr >> 3) & (STORE_TABLE - 1)];
}

/* The older store a load takes its data from, or NULL. */
static inline __attribute__((always_inline))
const store_entry_t *forwarding_store(ooo_t *o, const insn_t *in, uint64_t addr,
                                      uint64_t d, int kind)
{
    if (!(kflags(in, kind) & IF_LOAD)) return NULL;
    const store_entry_t *s = store_slot(o, addr);
    return s->word == addr >> 3 && s->graduated > d ? s : NULL;
}

/* *why becomes the store at pc (of DISE role `role`). */
static inline void name_store(ooo_t *o, const why_t **why, uint64_t pc, uint8_t role)
{
    o->store_why = tm_why(STALL_DEP, pc, role);
    *why = &o->store_why;
}

/* Raise *ready to when the store `s` (NULL: none) has its address and
 * data, naming it in *why; returns the cycles added. */
static inline uint64_t wait_for_store(ooo_t *o, uint64_t *ready, const why_t **why,
                                      const last_store_t *s)
{
    if (!s || s->ready <= *ready) return 0;
    uint64_t added = s->ready - *ready;
    *ready = s->ready;
    name_store(o, why, s->pc, s->role);
    return added;
}

/* I: the cycle it issues; *why: what it waited for last.  `fwd`: the
 * older store it takes its data from (oracle: waited for); `predicted`:
 * the store the memory-dependence policy makes it wait for (or NULL). */
static inline __attribute__((always_inline))   /* inlined in time_ooo as before memdep */
uint64_t issue(timing_t *t, ooo_t *o, const insn_t *in, use_t u, uint64_t d,
               const why_t *front, const store_entry_t *fwd, const last_store_t *predicted,
               const why_t **why, int kind)
{
    uint64_t ops = tm_operands_cycle(t, in);
    uint64_t ready = d + 1;
    *why = front;
    if (ops > ready) {                  /* its producer is looked up only if needed */
        ready = ops;
        *why = NULL;
    }
    if (fwd && fwd->data_ready > ready) {
        ready = fwd->data_ready;
        name_store(o, why, fwd->pc, fwd->role);
    }
    if (unlikely(predicted != NULL)) {
        uint64_t waited = wait_for_store(o, &ready, why, predicted);
        if (waited && (kflags(in, kind) & IF_LOAD)) {
            o->memdep_waits++;
            o->memdep_wait_cycles += waited;
        }
    }
    uint64_t i = calendar_take(&o->fu[u.fu], ready, u.span, u.fu == FU_MULDIV);
    if (i > ready) *why = &o->cause_why[STALL_FU];
    return i;
}

/* ---- memory dependences ----------------------------------------------------------------- */

static inline uint32_t *ssit_entry(store_sets_t *ss, uint64_t pc)
{
    uint64_t h = pc * 0x9e3779b97f4a7c15ull;
    return &ss->ssit[(h >> ss->ssit_shift) >> 1];   /* the top ssit_bits (0: none) */
}

/* Periodic clearing of the SSIT (stale sets stop serializing loads). */
static void ssit_maybe_clear(ooo_t *o, uint64_t d)
{
    store_sets_t *ss = &o->sets;
    if (likely(d < ss->next_clear)) return;
    memset(ss->ssit, 0, sizeof *ss->ssit << ss->ssit_bits);
    ss->next_clear = (d / ss->clear_interval + 1) * ss->clear_interval;
    o->ssit_clears++;
}

/* The store the store-set predictor makes this load or store wait for:
 * the last fetched store of its set, or NULL. */
static const last_store_t *store_set_wait(ooo_t *o, const insn_t *in)
{
    uint32_t id = *ssit_entry(&o->sets, in->pc);
    return id ? &o->sets.lfst[id - 1] : NULL;
}

/* A violation between a load and an older store: both join one store set
 * (a new one if neither had a set; the smaller ID if both had one). */
static void store_sets_train(ooo_t *o, uint64_t load_pc, uint64_t store_pc)
{
    store_sets_t *ss = &o->sets;
    uint32_t *l = ssit_entry(ss, load_pc), *s = ssit_entry(ss, store_pc);
    uint32_t id;
    if (!*l && !*s) {
        id = ss->next_id + 1;
        ss->next_id = (ss->next_id + 1) % ss->lfst_entries;
    } else if (!*l || !*s) {
        id = *l ? *l : *s;
    } else {
        id = *l < *s ? *l : *s;
    }
    *l = *s = id;
}

/* Stores: record when its address is known for the loads after it. */
static void note_store(timing_t *t, ooo_t *o, const insn_t *in, uint64_t i)
{
    last_store_t me = { i + 1, in->pc, t->cur_role };
    if (o->memdep == CFG_MEMDEP_CONSERVATIVE) {
        if (me.ready > o->stores_known.ready) o->stores_known = me;
    } else if (o->memdep == CFG_MEMDEP_STORE_SETS) {
        uint32_t id = *ssit_entry(&o->sets, in->pc);
        if (id) o->sets.lfst[id - 1] = me;
    }
}

/* The highest violation cycle among the source registers: a value that may
 * have been computed from a replayed load's wrong data; *origin: that
 * load's pc. */
static uint64_t source_taint(const ooo_t *o, const insn_t *in, uint64_t *origin)
{
    const uint8_t srcs[3] = { in->rs1, in->rs2, in->rs3 };
    uint64_t taint = 0;
    *origin = 0;
    for (int k = 0; k < 3; k++)
        if (srcs[k] != REG_NONE && o->replay_taint[srcs[k]] > taint) {
            taint = o->replay_taint[srcs[k]];
            *origin = o->replay_origin[srcs[k]];
        }
    return taint;
}

/* The losses of pc, the model's table made visible to the ground-truth
 * file (timing.c) once anything is charged. */
static lost_row_t *lost_of(timing_t *t, ooo_t *o, uint64_t pc)
{
    t->lost = o->lost;
    return lost_at(o->lost, pc);
}

/* Replayed instructions (store_sets): a violating load whose wrong value
 * was out (first issue + lat.load_use) before the violation was detected
 * at `detected` marks its result with that cycle; an instruction reading a
 * marked value that was dispatched early enough to issue before it (D + 1
 * < the mark) ran with the wrong value and replays too, passing the mark
 * on.  `detected` is 0 for an instruction that did not violate. */
static inline __attribute__((always_inline))
void note_replayed(timing_t *t, ooo_t *o, const insn_t *in, uint64_t d,
                   uint64_t wrong_value_at, uint64_t detected)
{
    if (!detected && o->taint_high <= d + 1) {
        /* no source can carry a mark beyond D + 1: not a dependant.  Its
         * destination keeps the mark it had, which is no later than D + 1
         * too: D only grows in program order (the wrong path's dispatches
         * too lie between the correct path's before and after it), so no
         * later reader finds that mark beyond its own D + 1 -- the same as
         * a cleared one (a mark no later than D + 1 makes no dependant, and
         * the origin of a register that makes none is never charged) */
        return;
    }
    uint64_t origin;
    uint64_t taint = source_taint(o, in, &origin);
    bool dependant = taint > d + 1;
    uint64_t mark = dependant ? taint : 0;
    if (detected) {                     /* the replay is this load's own */
        o->replayed_insts++;
        lost_of(t, o, in->pc)->replay_issue_slots++;
        if (wrong_value_at < detected && detected >= mark) {
            mark = detected;
            origin = in->pc;
        }
    } else if (dependant) {
        o->replayed_insts++;
        lost_of(t, o, origin)->replay_issue_slots++;
    }
    if (in->rd != REG_NONE && in->rd != REG_SINK) {
        o->replay_taint[in->rd] = mark;
        o->replay_origin[in->rd] = origin;
        if (mark > o->taint_high) o->taint_high = mark;
    }
}

/* A load that issued before the store it takes its data from had its
 * address (fwd): the violation is found when the store's
 * address is known; the load issues again ooo.replay_penalty cycles later
 * (on a free address unit) and the two join a store set.  Returns the new
 * issue cycle; *detected: when the violation was found. */
static uint64_t replay(timing_t *t, ooo_t *o, const insn_t *in, const store_entry_t *fwd,
                       const why_t **why, uint64_t *detected)
{
    *detected = fwd->data_ready;
    o->violations++;
    store_sets_train(o, in->pc, fwd->pc);
    uint64_t again = calendar_take(&o->fu[FU_MEM], *detected + o->replay_penalty, 1, false);
    o->replay_cycles += again - *detected;     /* waiting, it would have issued at *detected */
    pair_table_add(&o->replay_at, in->pc, 0, again - *detected);
    lost_row_t *l = lost_of(t, o, in->pc);
    l->replays++;
    l->replay_cycles += again - *detected;
    name_store(o, why, fwd->pc, fwd->role);
    return again;
}

/* I under ooo.memdep = conservative or store_sets (issue() does oracle). */
static inline __attribute__((always_inline))
uint64_t memdep_issue(timing_t *t, ooo_t *o, const insn_t *in, use_t u, uint64_t d,
                      const why_t *front, const store_entry_t *fwd, const why_t **why,
                      int kind)
{
    bool is_load = kflags(in, kind) & IF_LOAD, is_store = kflags(in, kind) & IF_STORE;
    uint64_t i;
    if (o->memdep == CFG_MEMDEP_CONSERVATIVE) {
        i = issue(t, o, in, u, d, front, fwd, is_load ? &o->stores_known : NULL, why, kind);
        if (is_store) note_store(t, o, in, i);
        return i;
    }
    const last_store_t *predicted = NULL;
    if (is_load || is_store) {
        ssit_maybe_clear(o, d);
        predicted = store_set_wait(o, in);
    }
    i = issue(t, o, in, u, d, front, NULL, predicted, why, kind);
    uint64_t detected = 0, wrong_value_at = 0;     /* read only when detected */
    if (fwd && fwd->data_ready > i) {
        wrong_value_at = i + t->p.lat[OC_LOAD];
        i = replay(t, o, in, fwd, why, &detected);
    }
    if (is_store) note_store(t, o, in, i);
    note_replayed(t, o, in, d, wrong_value_at, detected);
    return i;
}

/* X: the cycle its result is available (loads: their data); *why: what
 * its own execution waited for, when that took more than a cycle. */
static inline __attribute__((always_inline))
uint64_t complete(timing_t *t, ooo_t *o, const insn_t *in, uint64_t addr, uint64_t i,
                  const store_entry_t *fwd, uint8_t *exec_cause, uint8_t *cause, int kind)
{
    *cause = STALL_DEP;
    *exec_cause = STALL_FU;
    if (kflags(in, kind) & IF_STORE) return i + 1;  /* the D-cache is written at graduation */
    if (!(kflags(in, kind) & IF_LOAD)) return i + t->p.lat[in->opclass];
    uint64_t done = i + t->p.lat[OC_LOAD];
    if (fwd) {
        o->forwarded_loads++;
        return max2(done, fwd->data_ready);
    }
    uint8_t mcause;
    uint64_t data = tm_data_access_inline(t, in, addr, i, &mcause);
    if (mcause == STALL_DCACHE || mcause == STALL_DTLB) {
        *cause = mcause;
        *exec_cause = mcause;
    }
    return max2(done, data);
}

/* ---- the wrong path (ooo.wrong_path) ------------------------------------------------ */

/* After a transfer that redirects fetch at r: the path the front end took
 * instead, walked once the transfer has taken its own resources (time_ooo).
 * A mispredict fetches, dispatches and issues down the predicted path; a
 * taken transfer without a BTB target only fetches the instructions after
 * it until decode redirects.  Everything is squashed at r. */
static void plan_wrong_path(ooo_t *o, timing_t *t, const insn_t *in, bpred_result_t pred,
                            uint64_t r, unsigned fetch_n)
{
    bool mispredict = t->redirect_why.cause == STALL_MISPREDICT;
    uint64_t start = in->pc + in->len;
    if (mispredict && pred.taken)
        start = pred.btb_hit ? pred.target : (in->flags & IF_DIRECT) ? in->target : 0;
    if (!start || !t->cpu || t->cpu->mem->special_ops) return;   /* not in handler code */
    /* the front end ended its fetch group after the transfer only if it
     * predicted it taken (the correct path is fetched at the redirect) */
    bool ended = mispredict && pred.taken;
    if (r <= o->fetch_cycle + ended) return;    /* no fetch cycle before the redirect */
    o->fetch_n = ended ? o->fetch_width : fetch_n;
    o->wp_start = start;
    o->wp_squash = r;
    o->wp_dispatches = mispredict;
    o->wp_branch = in->pc;
}

typedef struct wp_run {
    timing_t *t;
    ooo_t *o;
    unsigned n;                 /* wrong-path instructions fetched so far */
    unsigned ints, fps, mems;   /* and dispatched: integer, FP writers, loads/stores */
    uint64_t first_fetch, last_fetch;
} wp_run_t;

/* The I-cache for a wrong-path fetch at f (speculative PMU events only); the cycle its
 * bytes are there, minus the hit latency, as fetch() counts. */
static inline __attribute__((always_inline))
uint64_t wp_fetch_bytes(timing_t *t, ooo_t *o, uint64_t pc, uint64_t f)
{
    uint64_t line = pc >> t->line_shift;
    if (line == t->fetch_line && f >= t->fetch_ready - t->p.l1i_hit)
        return max2(f + t->p.l1i_hit, t->fetch_ready) - t->p.l1i_hit;
    unsigned tlb_extra = tlb_access_inline(t->itlb, pc);
    if (t->pmu && tlb_extra) pmu_count(t->pmu, PMU_ITBMISS_SPEC, f, pc);
    bool hit;
    uint64_t ready = cache_access_inline(t->l1i, pc, false, f + tlb_extra, &hit);
    o->wp_iaccesses++;
    if (!hit) {
        o->wp_imisses++;
        if (t->pmu) pmu_count(t->pmu, PMU_IMISS_SPEC, f, pc);
    }
    t->fetch_line = line;
    t->fetch_ready = ready;
    return ready - t->p.l1i_hit;
}

/* D of the k-th wrong-path instruction, with the older ones still holding
 * their entries (rings read k entries ahead: the ones the wrong path took
 * are its own); UINT64_MAX when it cannot dispatch before the squash. */
static inline __attribute__((always_inline))
uint64_t wp_dispatch(ooo_t *o, wp_run_t *r, const insn_t *in, use_t u, unsigned k,
                     uint64_t f, int kind)
{
    uint64_t squash = o->wp_squash, never = UINT64_MAX;
    uint64_t d = max2(f + o->frontend_depth,
                      o->dispatch_cycle + (o->dispatch_n >= o->dispatch_width));
    if (k >= o->last.n[IR_GRADUATED]) return never;
    d = max2(d, insn_rings_ahead(&o->last, IR_GRADUATED, k) + 1);
    d = max2(d, o->serial_after);
    unsigned w = writes_of(o, in);
    if (w & WRITES_INT) {
        if (r->ints >= o->int_writers.n) return never;
        d = max2(d, ring_ahead(&o->int_writers, r->ints) + 1);
    }
    if (w & WRITES_FP) {
        if (r->fps >= o->fp_writers.n) return never;
        d = max2(d, ring_ahead(&o->fp_writers, r->fps) + 1);
    }
    unsigned q = u.queue;
    if (q == Q_MEM) {
        if (r->mems >= o->mem_queue.n) return never;
        d = max2(d, ring_ahead(&o->mem_queue, r->mems) + 1);
    }
    if (d >= squash) return never;
    if (q != Q_MEM) d = leave_room(&o->queue[q], d);
    if (kflags(in, kind) & IF_BRANCH) d = leave_room(&o->branches, d);
    if (d >= squash) return never;
    r->ints += (w & WRITES_INT) != 0;
    r->fps += (w & WRITES_FP) != 0;
    r->mems += q == Q_MEM;
    o->dispatch_n = group_count(o->dispatch_n, o->dispatch_cycle, d);
    o->dispatch_cycle = d;
    return d;
}

/* The wrong path's result x in register slot reg: written into the real
 * scoreboard for the walk (later wrong-path operands read it there), its
 * value before kept for wp_undo. */
static inline void wp_write_ready(timing_t *t, ooo_t *o, unsigned reg, uint64_t x)
{
    struct wp_undo *e = o->wp_undo_end++;
    e->ready = t->reg_ready[reg];
    e->slot = reg;
    t->reg_ready[reg] = x;
}

/* After the walk: the scoreboard as it was before it, newest write undone
 * first (a slot written twice gets its first old value back). */
static void wp_undo(timing_t *t, ooo_t *o)
{
    struct wp_undo *e = o->wp_undo_end, *first = o->wp_undo;
    while (e != first) {
        e--;
        t->reg_ready[e->slot] = e->ready;
    }
    o->wp_undo_end = first;
}

/* I and X of a dispatched wrong-path instruction: its operands from the
 * scoreboard (the wrong path's own results in it), a free unit before the squash;
 * a load reads the D-cache (and D-TLB) at I.  Sets st[2], st[3]; returns
 * the stages reached (2: not issued before the squash). */
static inline __attribute__((always_inline))
unsigned wp_issue(timing_t *t, ooo_t *o, const insn_t *in, use_t u, uint64_t addr,
                  uint64_t d, uint64_t st[5], int kind)
{
    uint64_t squash = o->wp_squash;
    /* operands from t->reg_ready, which holds the wrong path's own results
     * during the walk (wp_write_ready; an unused slot reads 0) */
    uint64_t ops = max2(max2(d + 1, t->reg_ready[in->rs1]),
                        max2(t->reg_ready[in->rs2], t->reg_ready[in->rs3]));
    uint64_t i = calendar_take_before(&o->fu[u.fu], ops, u.span, squash,
                                      u.fu == FU_MULDIV);
    bool issued = i < squash;
    uint64_t x = UINT64_MAX;
    if (issued) {
        o->wp_issued++;
        x = i + t->p.lat[in->opclass];
        if (kflags(in, kind) & IF_STORE) {
            x = i + 1;                      /* never writes: squashed before graduating */
        } else if (kflags(in, kind) & IF_LOAD) {
            x = i + t->p.lat[OC_LOAD];
            if (addr && !t->ideal_memory) {
                unsigned tlb_extra = tlb_access_inline(t->dtlb, addr);
                if (t->pmu && tlb_extra) pmu_count(t->pmu, PMU_DTBMISS_SPEC, i, in->pc);
                bool hit;
                uint64_t ready = cache_access_inline(t->l1d, addr, false, i + tlb_extra, &hit);
                o->wp_loads++;
                if (!hit) {
                    o->wp_dmisses++;
                    if (t->pmu) pmu_count(t->pmu, PMU_DMISS_SPEC, i, in->pc);
                }
                x = max2(x, ready);
            }
        }
    }
    if (u.queue != Q_MEM) leave_insert(&o->queue[u.queue], issued ? i : squash);
    if (kflags(in, kind) & IF_BRANCH) leave_insert(&o->branches, x < squash ? x : squash);
    if (in->rd != REG_NONE && in->rd != REG_SINK) wp_write_ready(t, o, in->rd, x);
    st[2] = i;
    st[3] = x;
    return issued ? (x < squash ? 4 : 3) : 2;
}

/* wp_visit, as its plain variant when `plain` (a constant: a run with no
 * outputs beyond the statistics). */
static inline __attribute__((always_inline))
bool wp_visit_as(wp_run_t *r, const insn_t *in, uint64_t addr, uint64_t next,
                 unsigned decode_stall, bool plain, int kind)
{
    timing_t *t = r->t;
    ooo_t *o = r->o;
    unsigned k = r->n;                  /* below o->wp_max (the callers ask) */
    uint64_t line = in->pc >> t->line_shift, squash = o->wp_squash;
    uint64_t f = o->fetch_cycle;
    f += (o->fetch_n >= o->fetch_width) | (line != o->fetch_line);
    unsigned fb = o->last.n[IR_DISPATCHED];
    f = max2(f, k < fb ? insn_rings_ahead(&o->last, IR_DISPATCHED, k) : o->wp_d[k - fb]);
    f += decode_stall;                                 /* a DISE replacement's */
    if (f >= squash) return false;
    uint64_t got = wp_fetch_bytes(t, o, in->pc, f);
    if (got >= squash) return false;
    o->fetch_n = group_count(o->fetch_n, o->fetch_cycle, got);
    o->fetch_cycle = got;
    o->fetch_line = line;
    if (next != in->pc + in->len) group_end(o);
    if (!k) r->first_fetch = got;
    r->last_fetch = got;
    r->n++;                             /* o->wp_fetched: added up after the walk */
    if (t->pmu && pmu_counts_branches(t->pmu) && (kflags(in, kind) & (IF_BRANCH | IF_JUMP)) &&
        !(kflags(in, kind) & IF_DISE))
        pmu_count(t->pmu, PMU_BRANCHES_SPEC, got, in->pc);
    o->wp_d[k] = UINT64_MAX;
    uint64_t st[5] = { got, 0, 0, 0, 0 };
    unsigned reached = 1;
    bool more = true;
    if (o->wp_dispatches) {
        use_t u = use_of(o, in);
        assume_kind(in, &u, kind);
        uint64_t d = wp_dispatch(o, r, in, u, k, got, kind);
        if (d == UINT64_MAX) {
            more = false;                   /* in order: nothing after it dispatches */
        } else {
            o->wp_d[k] = d;
            o->wp_dispatched++;
            o->wp_rob_cycles += squash - d;
            st[1] = d;
            reached = wp_issue(t, o, in, u, addr, d, st, kind);
        }
    }
    assume_stats_only(t, plain);
    if (t->views) tm_view_flushed(t, in, ooo_stage_names, st, reached, squash);
    /* ProfileMe counts the program's fetches: not a wrong path begun by a
     * transfer of the guest runtime (an interrupt handler's hps.ret) */
    if (t->pm && !runtime_contains(o->wp_branch) && !(in->flags & IF_DISE))
        tm_profileme_wrong_path(t, in, addr, st, reached, squash);
    return more;
}

/* One wrong-path instruction of a DISE replacement (wrongpath_replacement's
 * visit): F as fetch() does it, until the squash; then D, I, X for a
 * mispredict's path; none beyond o->wp_max (the walk's own instructions
 * come from its loop, which asks that itself).  The plain variant is the
 * visit of a run with t->stats_only. */
static bool wp_visit(void *ctx, const insn_t *in, uint64_t addr, uint64_t next,
                     unsigned decode_stall)
{
    if (((wp_run_t *)ctx)->n >= ((wp_run_t *)ctx)->o->wp_max) return false;
    return wp_visit_as(ctx, in, addr, next, decode_stall, false, OK_GENERAL);
}

static bool wp_visit_plain(void *ctx, const insn_t *in, uint64_t addr, uint64_t next,
                           unsigned decode_stall)
{
    if (((wp_run_t *)ctx)->n >= ((wp_run_t *)ctx)->o->wp_max) return false;
    return wp_visit_as(ctx, in, addr, next, decode_stall, true, OK_GENERAL);
}

/* wp_visit_as of a program instruction of the walk (no decode stall), in
 * the plain variant by its kind (o->kind: the instructions that end a walk,
 * wrongpath_ends_walk, never come here). */
static inline __attribute__((always_inline))
bool wp_visit_kind(wp_run_t *r, const insn_t *in, uint64_t addr, uint64_t next, bool plain)
{
    if (!plain) return wp_visit_as(r, in, addr, next, 0, false, OK_GENERAL);
    switch (r->o->kind[in->opclass][in->flags & KIND_FLAGS]) {
    case OK_ALU: return wp_visit_as(r, in, addr, next, 0, true, OK_ALU);
    case OK_FP: return wp_visit_as(r, in, addr, next, 0, true, OK_FP);
    case OK_MULDIV: return wp_visit_as(r, in, addr, next, 0, true, OK_MULDIV);
    case OK_LOAD: return wp_visit_as(r, in, addr, next, 0, true, OK_LOAD);
    case OK_STORE: return wp_visit_as(r, in, addr, next, 0, true, OK_STORE);
    case OK_BRANCH: return wp_visit_as(r, in, addr, next, 0, true, OK_BRANCH);
    case OK_JUMP: return wp_visit_as(r, in, addr, next, 0, true, OK_JUMP);
    default: return wp_visit_as(r, in, addr, next, 0, true, OK_GENERAL);
    }
}

/* The walk from pc: each instruction the walker steps to is timed in the
 * same frame (wp_visit_as), a DISE replacement through the visit callback;
 * returns why it ended (WP_END_*).  A fault or trap of the shadow longjmps
 * out of it (wp_walk_guarded). */
static inline __attribute__((always_inline))
int wp_walk_as(wp_run_t *r, uint64_t pc, bool plain)
{
    timing_t *t = r->t;
    ooo_t *o = r->o;
    wrongpath_t *w = o->walker;
    const bpred_t *bp = t->bp;
    while (r->n < o->wp_max) {
        insn_t *in;
        uint64_t addr, next;
        dise_seq_t *seq;
        int step = wrongpath_step(w, bp, pc, &in, &addr, &next, &seq);
        if (step == WP_STEP_REPLACE) {
            int end = wrongpath_replacement(w, bp, in, seq, r->n, o->wp_max,
                                            plain ? wp_visit_plain : wp_visit, r, &next);
            if (end >= 0) return end;
        } else {
            if (step != WP_STEP_INSN) return step;
            if (!wp_visit_kind(r, in, addr, next, plain)) return WP_END_TIMING;
            if (!next) return WP_END_TARGET;
        }
        pc = next;
    }
    return WP_END_LIMIT;
}

static __attribute__((noinline)) int wp_walk(wp_run_t *r, uint64_t pc)
{
    return wp_walk_as(r, pc, false);
}

static __attribute__((noinline)) int wp_walk_plain(wp_run_t *r, uint64_t pc)
{
    return wp_walk_as(r, pc, true);
}

/* The walk from pc on the walker's shadow of the cpu, with the jump a
 * fault or trap of the shadow lands at (the walk ends: WP_END_FAULT). */
static __attribute__((noinline)) int wp_walk_guarded(wp_run_t *r, uint64_t pc)
{
    timing_t *t = r->t;
    wrongpath_t *w = r->o->walker;
    jmp_buf here;
    int end;
    wrongpath_begin(w, t->cpu, &here);
    if (setjmp(here) == 0) end = t->stats_only ? wp_walk_plain(r, pc) : wp_walk(r, pc);
    else end = WP_END_FAULT;
    wrongpath_end(w, t->cpu, end);
    return end;
}

/* The wrong path planned by the last transfer (plan_wrong_path). */
static void run_wrong_path(timing_t *t, ooo_t *o)
{
    wp_run_t r = { .t = t, .o = o };
    uint64_t issued = o->wp_issued, rob_cycles = o->wp_rob_cycles;
    uint64_t start = o->wp_start;
    o->wp_start = 0;
    int end = wp_walk_guarded(&r, start);
    wp_undo(t, o);
    o->wp_end[end]++;
    o->wp_fetched += r.n;
    if (!r.n) return;
    o->wp_walks++;
    o->wp_fetch_cycles += r.last_fetch - r.first_fetch + 1;
    lost_row_t *l = lost_of(t, o, o->wp_branch);
    l->wp_squashes++;
    l->wp_fetch_slots += r.n;
    l->wp_issue_slots += o->wp_issued - issued;
    l->wp_fetch_cycles += r.last_fetch - r.first_fetch + 1;
    l->wp_rob_cycles += o->wp_rob_cycles - rob_cycles;
}

/* Redirects of fetch by a control transfer that resolves at x. */
static inline __attribute__((always_inline))
void control(timing_t *t, ooo_t *o, const insn_t *in, uint64_t next_pc, uint64_t f,
             uint64_t x, int kind)
{
    if (unlikely(kflags(in, kind) & IF_DISE)) {
        tm_dise_control(t, in, f + o->frontend_depth, x + o->mispredict_penalty);
        if (t->dise_redirect) group_end(o);
        return;
    }
    if (!(kflags(in, kind) & (IF_BRANCH | IF_JUMP))) return;
    unsigned fetch_n = o->fetch_n;      /* the group as it was (plan_wrong_path) */
    if (next_pc != in->pc + in->len) group_end(o);
    bpred_result_t pred;
    uint64_t r;
    if (kind == OK_BRANCH) {            /* a conditional branch: the predictor need not ask,
                                           nor choose its kind's function (t->bp_cond) */
        bool taken = next_pc != in->pc + in->len;
        bool correct = t->bp_cond(t->bp, in, taken, next_pc, &pred);
        r = tm_control_outcome(t, in, pred, taken, correct, f + o->frontend_depth,
                               x + o->mispredict_penalty);
    } else {
        r = tm_predict_control_as(t, in, next_pc, f + o->frontend_depth,
                                  x + o->mispredict_penalty, &pred);
    }
    if (!r) return;
    t->redirect = r;
    if (o->wrong_path && t->cur_role == DISE_ROLE_NONE) plan_wrong_path(o, t, in, pred, r, fetch_n);
}

/* G: the cycle it graduates. */
static inline __attribute__((always_inline))
uint64_t graduate(ooo_t *o, uint64_t x, bool simple)
{
    uint64_t g;
    if (simple || likely(o->retire_shift >= 0)) {
        g = group_enter(&o->grad_slot, x, (unsigned)o->retire_shift);
    } else {
        g = max2(x, o->grad_cycle);
        g += (g == o->grad_cycle) & (o->grad_n >= o->retire_width);
        o->grad_n = group_count(o->grad_n, o->grad_cycle, g);
    }
    o->grad_cycle = g;
    return g;
}

/* Why an instruction waited to issue: *why as issue() named it, or for
 * NULL its operands (their producer as tm_operand_why says, looked up
 * before its own result goes to the scoreboard). */
static why_t operands_why(const timing_t *t, const insn_t *in, const why_t *why)
{
    return why ? *why : tm_operand_why(t, in, tm_operands_cycle(t, in));
}

/* Head accounting at graduation (see the top of the file): of the time
 * from the previous graduation to its completion, the larger part is
 * either waiting to issue or executing, and names the cause (executing:
 * exec_cause, the instruction itself the culprit).  The why is worked out
 * only for a head that needs it (tm_head_needs_why). */
static inline __attribute__((always_inline))
void account(timing_t *t, const insn_t *in, uint64_t prev_g, uint64_t i, uint64_t x,
             uint64_t g, const why_t *why, uint8_t exec_cause)
{
    uint64_t head = t->seq == 0 ? g + 1 : g - prev_g;
    if (!tm_head_needs_why(t, head)) {
        tm_record_short_head(t, in, head);
        return;
    }
    why_t issue_why = operands_why(t, in, why);
    uint64_t waited = i > prev_g ? i - prev_g : 0;
    uint64_t started = max2(i, prev_g);
    uint64_t executing = x > started ? x - started : 0;
    /* field by field: selecting whole structs made the compiler store a
     * byte of one and load it back as a word, which store forwarding
     * cannot serve (a stall of some 10 cycles an instruction) */
    bool exec = executing > waited;
    tm_record_head(t, in, head, tm_why(exec ? exec_cause : (uint8_t)issue_why.cause,
                                       exec ? in->pc : issue_why.culprit,
                                       exec ? t->cur_role : (uint8_t)issue_why.role));
}

/* A graduated store writes the D-cache at g and becomes the last store to
 * its word; returns the cycle the cache took the write (its address-queue
 * entry is free from the next). */
static inline __attribute__((always_inline))
uint64_t store_write(timing_t *t, ooo_t *o, const insn_t *in, uint64_t addr, uint64_t i,
                     uint64_t g)
{
    uint8_t cause;
    tm_data_access_inline(t, in, addr, g, &cause);
    store_entry_t *s = store_slot(o, addr);
    *s = (store_entry_t){ addr >> 3, i + 1, g, in->pc, t->cur_role };
    if (t->wbuf || t->ideal_memory) return g;
    uint64_t taken = t->l1d->last_accept;
    return taken > g + t->p.l1d_hit ? taken : g;
}

/* Once it has graduated: the structures it held free from g + 1. */
static inline __attribute__((always_inline))
void release(timing_t *t, ooo_t *o, const insn_t *in, use_t u, uint64_t addr,
             uint64_t d, uint64_t i, uint64_t x, uint64_t g, int kind, bool simple)
{
    insn_rings_push(&o->last, d, g);
    if (!simple && unlikely(o->rename_binds)) {
        unsigned w = o->reg_writes[in->rd];
        if (w & WRITES_INT) ring_push(&o->int_writers, g);
        if (w & WRITES_FP) ring_push(&o->fp_writers, g);
    }
    unsigned q = u.queue;
    if (q == Q_MEM) {
        /* The address queue frees in order; a store leaves once the D-cache
         * has taken its write (a miss: once its fill has an MSHR). */
        uint64_t leaves = max2(g, o->mem_queue_last);
        if (kflags(in, kind) & IF_STORE)
            leaves = max2(leaves, store_write(t, o, in, addr, i, g));
        o->mem_queue_last = leaves;
        ring_push(&o->mem_queue, leaves);
    }
    else leave_insert(&o->queue[q], i);
    if (kflags(in, kind) & IF_BRANCH) leave_insert(&o->branches, x);
    if (u.serial) o->serial_after = g + 1;
}

/* time_ooo, as its plain variant when `plain` (a constant) of an
 * instruction of kind `kind` (a constant: OK_*), in a simple machine when
 * `simple` (a constant: simple_machine(), so the tests of the
 * configuration it fixes are left out). */
static inline __attribute__((always_inline))
void time_ooo_as(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc, bool plain,
                 int kind, bool simple)
{
    ooo_t *o = t->model_state;
    const why_t *front, *issue_why;
    uint8_t rcause, exec_cause;
    assume_plain(t, in, plain);
    uint64_t f = fetch(t, o, in, &front);
    use_t u = use_of(o, in);
    assume_kind(in, &u, kind);
    uint64_t d = dispatch(o, in, u, f, kind, simple);
    const store_entry_t *fwd = forwarding_store(o, in, addr, d, kind);
    assume_plain(t, in, plain);
    uint64_t i = simple || likely(o->memdep == CFG_MEMDEP_ORACLE)
                     ? issue(t, o, in, u, d, front, fwd, NULL, &issue_why, kind)
                     : memdep_issue(t, o, in, u, d, front, fwd, &issue_why, kind);
    o->sum_d += d;
    o->sum_i += i;
    uint64_t x = complete(t, o, in, addr, i, fwd, &exec_cause, &rcause, kind);
    control(t, o, in, next_pc, f, x, kind);
    uint64_t prev_g = o->grad_cycle;           /* graduate() alone moves it */
    uint64_t g = graduate(o, x, simple);
    assume_plain(t, in, plain);
    account(t, in, prev_g, i, x, g, issue_why, exec_cause);
    tm_set_result(t, in, x, rcause);
    release(t, o, in, u, addr, d, i, x, g, kind, simple);
    o->sum_g += g;
    assume_plain(t, in, plain);
    if (t->views) {
        uint64_t st[5] = { f, d, i, x, g };
        tm_view_insn(t, in, ooo_stage_names, st, g + 1);
    }
    if (unlikely(t->pm)) {
        uint64_t st[5] = { f, d, i, x, g + 1 };
        tm_profileme(t, in, addr, next_pc, st, (uint8_t)front->cause, rcause, x - i);
    }
    t->cycles = g + 1;
    if (!simple && unlikely(o->wp_start)) run_wrong_path(t, o);
}

#define TIME_OOO_KIND(name, kind, simple)                                               \
    static __attribute__((noinline)) void name(timing_t *t, const insn_t *in, uint64_t addr, \
                                               uint64_t next_pc)                         \
    {                                                                                    \
        time_ooo_as(t, in, addr, next_pc, true, kind, simple);                          \
    }
TIME_OOO_KIND(time_ooo_plain, OK_GENERAL, false)
TIME_OOO_KIND(time_ooo_alu, OK_ALU, false)
TIME_OOO_KIND(time_ooo_fp, OK_FP, false)
TIME_OOO_KIND(time_ooo_muldiv, OK_MULDIV, false)
TIME_OOO_KIND(time_ooo_load, OK_LOAD, false)
TIME_OOO_KIND(time_ooo_store, OK_STORE, false)
TIME_OOO_KIND(time_ooo_branch, OK_BRANCH, false)
TIME_OOO_KIND(time_ooo_jump, OK_JUMP, false)
TIME_OOO_KIND(time_ooo_alu_simple, OK_ALU, true)
TIME_OOO_KIND(time_ooo_fp_simple, OK_FP, true)
TIME_OOO_KIND(time_ooo_muldiv_simple, OK_MULDIV, true)
TIME_OOO_KIND(time_ooo_load_simple, OK_LOAD, true)
TIME_OOO_KIND(time_ooo_store_simple, OK_STORE, true)
TIME_OOO_KIND(time_ooo_branch_simple, OK_BRANCH, true)
TIME_OOO_KIND(time_ooo_jump_simple, OK_JUMP, true)
#undef TIME_OOO_KIND

static __attribute__((noinline)) void time_ooo_general(timing_t *t, const insn_t *in,
                                                       uint64_t addr, uint64_t next_pc)
{
    time_ooo_as(t, in, addr, next_pc, false, OK_GENERAL, false);
}

/* The entry only chooses and jumps: a program instruction of a run with
 * t->stats_only to the variant of its kind (o->kind; a serializing one or
 * a system call to the plain general one), anything else to the general
 * variant. */
static const timing_insn_fn time_ooo_by_kind[OK_KINDS] = {
    [OK_GENERAL] = time_ooo_plain, [OK_ALU] = time_ooo_alu, [OK_FP] = time_ooo_fp,
    [OK_LOAD] = time_ooo_load, [OK_STORE] = time_ooo_store,
    [OK_BRANCH] = time_ooo_branch, [OK_JUMP] = time_ooo_jump, [OK_MULDIV] = time_ooo_muldiv,
};

/* The same in a simple machine (simple_machine: the timed block loop's
 * entry table, o->entry). */
static const timing_insn_fn time_ooo_by_kind_simple[OK_KINDS] = {
    [OK_GENERAL] = time_ooo_plain, [OK_ALU] = time_ooo_alu_simple,
    [OK_FP] = time_ooo_fp_simple, [OK_LOAD] = time_ooo_load_simple,
    [OK_STORE] = time_ooo_store_simple, [OK_BRANCH] = time_ooo_branch_simple,
    [OK_JUMP] = time_ooo_jump_simple, [OK_MULDIV] = time_ooo_muldiv_simple,
};

void time_ooo(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)
{
    const ooo_t *o = t->model_state;
    if (likely(t->stats_only) && likely(tm_program_insn(t, in))) {
        unsigned kind = (in->flags & (IF_SERIAL | IF_SYSCALL))
                            ? OK_GENERAL : o->kind[in->opclass][in->flags & KIND_FLAGS];
        time_ooo_by_kind[kind](t, in, addr, next_pc);
    } else {
        time_ooo_general(t, in, addr, next_pc);
    }
}

/* time_ooo for the timed block loop of a plain run (timing_block_insn:
 * t->plain, so t->stats_only, and every instruction is the program's with
 * no decode penalty): it does not ask, and jumps to the variant the
 * table by class and flags names (o->entry: time_ooo_by_kind of o->kind,
 * one load where the kind and then its variant were two). */
void time_ooo_block(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)
{
    const ooo_t *o = t->model_state;
    if (unlikely(in->flags & (IF_SERIAL | IF_SYSCALL))) time_ooo_plain(t, in, addr, next_pc);
    else o->entry[in->opclass][in->flags & KIND_FLAGS](t, in, addr, next_pc);
}

/* ---- statistics ------------------------------------------------------------------------- */

/* The loads that lost the most cycles to replays, most first (ties by
 * pc): cpu.ooo.memdep.replayCyclesAt::PC. */
#define REPLAY_TOP 8
static void replay_stats(const ooo_t *o, stats_t *s)
{
    size_t n;
    pair_count_t *pairs = pair_table_sorted(&o->replay_at, &n);
    for (size_t k = 0; k < n && k < REPLAY_TOP; k++) {
        char name[64], desc[128];
        snprintf(name, sizeof name, "cpu.ooo.memdep.replayCyclesAt::%#" PRIx64, pairs[k].a);
        snprintf(desc, sizeof desc, "Replay cycles of the load at %#" PRIx64
                 " (the %d loads with the most are listed)", pairs[k].a, REPLAY_TOP);
        stats_add_u64(s, name, pairs[k].count, "Cycle", desc);
    }
    free(pairs);
}

/* Statistics of ooo.memdep conservative and store_sets (the oracle has
 * neither waits nor violations, and writes none of them). */
static void memdep_stats(const ooo_t *o, stats_t *s)
{
    stats_add_u64(s, "cpu.ooo.memdep.loadsWaited", o->memdep_waits, "Count",
                  o->memdep == CFG_MEMDEP_CONSERVATIVE
                      ? "Loads held back by an older store whose address was not yet known, "
                        "beyond the store they read from"
                      : "Loads held back by a store-set prediction (an older store of their set)");
    stats_add_u64(s, "cpu.ooo.memdep.waitCycles", o->memdep_wait_cycles, "Cycle",
                  "Issue cycles those loads lost to the wait beyond operands and dispatch, "
                  "summed over the loads (they overlap: the sum may exceed cpu.cycles)");
    if (o->memdep != CFG_MEMDEP_STORE_SETS) return;
    stats_add_u64(s, "cpu.ooo.memdep.violations", o->violations, "Count",
                  "Memory-order violations: loads issued before an older store to their "
                  "8-byte word had its address; each replays the load once");
    stats_add_u64(s, "cpu.ooo.memdep.replayedInsts", o->replayed_insts, "Count",
                  "Instructions replayed: the violating loads and the dependants that could "
                  "issue with their wrong values");
    stats_add_u64(s, "cpu.ooo.memdep.replayCycles", o->replay_cycles, "Cycle",
                  "Cycles the violating loads re-issued after their store had its address "
                  "(ooo.replay_penalty and a busy address unit)");
    stats_add_u64(s, "cpu.ooo.memdep.ssitClears", o->ssit_clears, "Count",
                  "Periodic clearings of the store set ID table");
    replay_stats(o, s);
}

/* Statistics of the wrong path (written when ooo.wrong_path is on). */
#define WRONG_PATH_TOP 8
static void wrong_path_stats(const ooo_t *o, stats_t *s)
{
    static const struct { const char *name, *unit, *desc; } rows[] = {
        { "squashes", "Count", "Transfers whose wrong path fetched at least one instruction" },
        { "fetched", "Count", "Wrong-path instructions fetched (fetch slots lost)" },
        { "dispatched", "Count", "Wrong-path instructions renamed into the active list" },
        { "issued", "Count", "Wrong-path instructions issued to a functional unit" },
        { "loads", "Count", "Wrong-path loads that read the D-cache" },
        { "dcacheMisses", "Count", "Of those, D-cache misses (prefetches or pollution)" },
        { "icacheAccesses", "Count", "I-cache accesses of wrong-path fetch" },
        { "icacheMisses", "Count", "Of those, I-cache misses" },
        { "robSlotCycles", "Cycle", "Active-list entry-cycles wrong-path instructions held "
                                    "(squash - D, summed)" },
        { "fetchCycles", "Cycle", "Cycles fetch spent on wrong paths (first to last wrong-path "
                                  "fetch of each, summed)" },
    };
    const uint64_t v[] = { o->wp_walks, o->wp_fetched, o->wp_dispatched, o->wp_issued,
                           o->wp_loads, o->wp_dmisses, o->wp_iaccesses, o->wp_imisses,
                           o->wp_rob_cycles, o->wp_fetch_cycles };
    char name[96], desc[160];
    for (size_t k = 0; k < sizeof rows / sizeof rows[0]; k++) {
        snprintf(name, sizeof name, "cpu.ooo.wrongPath.%s", rows[k].name);
        stats_add_u64(s, name, v[k], rows[k].unit, rows[k].desc);
    }
    for (int k = 0; k < WP_END_COUNT; k++) {
        snprintf(name, sizeof name, "cpu.ooo.wrongPath.ended::%s", wrongpath_end_names[k]);
        stats_add_u64(s, name, o->wp_end[k], "Count",
                      "Wrong paths that ended for this reason (resolved: the squash came)");
    }
    /* from the lost rows: their fetch slots are the instructions each
     * transfer's wrong paths fetched */
    uint64_t pc[WRONG_PATH_TOP], fetched[WRONG_PATH_TOP];
    size_t n = lost_top_fetch_slots(o->lost, WRONG_PATH_TOP, pc, fetched);
    for (size_t k = 0; k < n; k++) {
        snprintf(name, sizeof name, "cpu.ooo.wrongPath.fetchedAfter::%#" PRIx64, pc[k]);
        snprintf(desc, sizeof desc, "Wrong-path instructions fetched after the transfer at %#"
                 PRIx64 " (the %d with the most are listed)", pc[k], WRONG_PATH_TOP);
        stats_add_u64(s, name, fetched[k], "Count", desc);
    }
}

void ooo_stats(const void *state, uint64_t cycles, stats_t *s)
{
    const ooo_t *o = state;
    char name[64], desc[128];
    for (int k = 0; k < DS_COUNT; k++) {
        snprintf(name, sizeof name, "cpu.ooo.dispatchStallCycles::%s", dispatch_names[k]);
        snprintf(desc, sizeof desc, "Cycles instructions waited to dispatch for %s",
                 dispatch_names[k]);
        stats_add_u64(s, name, o->dispatch_stall[k], "Cycle", desc);
    }
    double c = cycles ? (double)cycles : 1.0;
    uint64_t rob_occupancy = o->sum_g - o->sum_d, queue_occupancy = o->sum_i - o->sum_d;
    stats_add_f64(s, "cpu.ooo.robOccupancy", (double)rob_occupancy / c, "Count",
                  "Average active-list entries in use (sum of G - D over cycles)");
    stats_add_f64(s, "cpu.ooo.queueOccupancy", (double)queue_occupancy / c, "Count",
                  "Average instructions waiting to issue (sum of I - D over cycles)");
    stats_add_u64(s, "cpu.ooo.forwardedLoads", o->forwarded_loads, "Count",
                  "Loads that took their data from an older store not yet graduated");
    if (o->memdep != CFG_MEMDEP_ORACLE) memdep_stats(o, s);
    if (o->wrong_path) wrong_path_stats(o, s);
    lost_stats(o->lost, s, WRONG_PATH_TOP, o->wrong_path, o->memdep == CFG_MEMDEP_STORE_SETS);
}
