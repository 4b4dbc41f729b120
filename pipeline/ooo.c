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
 * c is usable from c + 1 (queues and the branch stack as sorted lists of
 * the cycles their occupants leave; the active list, rename registers and
 * address queue as rings of the graduation cycles of the last N users;
 * functional units as a calendar of bookings per cycle).
 *
 * Not modelled (pipeline/README.md): wrong-path instructions (fetch after a
 * mispredict waits, it does not pollute the caches); memory dependences
 * are known exactly (a load waits only for an older store to the same
 * 8-byte word, and takes its data from it while the store has not
 * graduated); the memory hierarchy serves requests in program order.
 *
 * The head cycles of the ground truth are graduation gaps: G minus the
 * previous instruction's G (0 when they graduate together), and a stall is
 * charged to what made the instruction complete late -- its own execution
 * (a D-cache miss, a long operation) or, when it issued only after the
 * previous one graduated, why it issued late (an operand and its producer,
 * a busy unit, or the front end: a mispredict, an I-cache miss).
 */
#include "timing_model.h"

#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "dise_engine.h"
#include "util.h"

static const char *const ooo_stage_names[5] = { "F", "D", "I", "X", "G" };

/* ---- small structures ------------------------------------------------------------ */

/* A value for each of the last n instructions of a kind, oldest first out:
 * ring_oldest() is the value of the n-th previous one (0 before there were n). */
typedef struct ring {
    uint64_t *v;
    unsigned n, pos;
} ring_t;

static void ring_init(ring_t *r, unsigned n)
{
    r->v = xcalloc(n, sizeof *r->v);
    r->n = n;
    r->pos = 0;
}

static inline uint64_t ring_oldest(const ring_t *r) { return r->v[r->pos]; }

static inline void ring_push(ring_t *r, uint64_t x)
{
    r->v[r->pos] = x;
    if (++r->pos == r->n) r->pos = 0;
}

/* The cycles at which the occupants of a structure leave it, kept sorted
 * in a ring (the oldest leaves first; a new one usually leaves last, so an
 * insertion rarely moves anything). */
typedef struct leave_queue {
    uint64_t *v;                /* ascending from v[head] */
    unsigned mask, head, n, cap;
} leave_queue_t;

static void leave_init(leave_queue_t *q, unsigned cap)
{
    unsigned size = 1;
    while (size < cap + 1) size *= 2;
    q->v = xcalloc(size, sizeof *q->v);
    q->mask = size - 1;
    q->head = q->n = 0;
    q->cap = cap;
}

static inline void leave_insert(leave_queue_t *q, uint64_t x)
{
    unsigned k = q->n++;
    for (; k > 0; k--) {
        uint64_t y = q->v[(q->head + k - 1) & q->mask];
        if (y <= x) break;
        q->v[(q->head + k) & q->mask] = y;
    }
    q->v[(q->head + k) & q->mask] = x;
}

static inline void leave_pop(leave_queue_t *q)
{
    q->head = (q->head + 1) & q->mask;
    q->n--;
}

/* The first cycle from d at which the structure has a free entry (an
 * occupant leaving in cycle c frees it for c + 1); occupants gone by then
 * are dropped.  The caller then inserts the new occupant's leaving cycle. */
static inline uint64_t leave_room(leave_queue_t *q, uint64_t d)
{
    while (q->n && q->v[q->head] < d) leave_pop(q);
    if (q->n < q->cap) return d;
    d = q->v[q->head] + 1;
    leave_pop(q);
    return d;
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
} calendar_t;

static void calendar_init(calendar_t *k, unsigned units)
{
    k->slot = xcalloc(CAL_WINDOW, sizeof *k->slot);
    k->units = units;
}

static inline bool calendar_free_at(const calendar_t *k, uint64_t c)
{
    uint64_t s = k->slot[c & (CAL_WINDOW - 1)];
    uint64_t booked_cycle = s >> 8;
    if (booked_cycle != c) return booked_cycle < c;
    return (s & 0xff) < k->units;
}

/* The first cycle from c at which a unit is free for `span` consecutive
 * cycles (1 for a pipelined unit; its latency for one that is not). */
static inline uint64_t calendar_find(const calendar_t *k, uint64_t c, unsigned span)
{
    for (;;) {
        unsigned j = 0;
        while (j < span && calendar_free_at(k, c + j)) j++;
        if (j == span) return c;
        c += j + 1;
    }
}

static inline void calendar_book(calendar_t *k, uint64_t c, unsigned span)
{
    for (unsigned j = 0; j < span; j++, c++) {
        uint64_t *s = &k->slot[c & (CAL_WINDOW - 1)];
        if (*s >> 8 != c) *s = c << 8;
        (*s)++;
    }
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

struct ooo {
    /* parameters */
    unsigned fetch_width, dispatch_width, retire_width, frontend_depth, mispredict_penalty;
    bool mul_pipelined;
    /* fetch */
    uint64_t fetch_cycle, fetch_line;
    unsigned fetch_n;
    bool group_ended;           /* a taken transfer ended the fetch group */
    ring_t fetch_buffer;        /* dispatch cycles of the last fetch_buffer insts */
    /* dispatch */
    uint64_t dispatch_cycle;
    unsigned dispatch_n;
    ring_t rob, int_writers, fp_writers, mem_queue;   /* graduation cycles */
    leave_queue_t queue[2];     /* integer and FP queues: issue cycles */
    leave_queue_t branches;     /* unresolved branches: resolution cycles */
    uint64_t serial_after;      /* a serializing instruction graduated */
    /* issue */
    calendar_t fu[FU_KINDS];
    /* memory */
    store_entry_t stores[STORE_TABLE];
    /* graduation */
    uint64_t grad_cycle;
    unsigned grad_n;
    /* statistics */
    uint64_t dispatch_stall[DS_COUNT];
    uint64_t rob_occupancy, queue_occupancy;  /* sums of G - D, I - D */
    uint64_t forwarded_loads, insts;
};

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
    ring_init(&o->fetch_buffer, (unsigned)cfg->ooo_fetch_buffer);
    ring_init(&o->rob, (unsigned)cfg->ooo_rob_entries);
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
    return o;
}

void ooo_free(void *state)
{
    ooo_t *o = state;
    if (!o) return;
    free(o->fetch_buffer.v);
    free(o->rob.v);
    free(o->int_writers.v);
    free(o->fp_writers.v);
    free(o->mem_queue.v);
    free(o->queue[Q_INT].v);
    free(o->queue[Q_FP].v);
    free(o->branches.v);
    for (int k = 0; k < FU_KINDS; k++) free(o->fu[k].slot);
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
static unsigned occupancy(const timing_t *t, const ooo_t *o, const insn_t *in)
{
    switch (in->opclass) {
    case OC_IMUL: return o->mul_pipelined ? 1 : t->p.lat[OC_IMUL];
    case OC_IDIV: return t->p.div_pipelined[DIV_INT] ? 1 : t->p.lat[OC_IDIV];
    case OC_FDIV: case OC_FSQRT:
        return t->p.div_pipelined[DIV_FP] ? 1 : t->p.lat[in->opclass];
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

static bool writes_int(const insn_t *in)
{
    return in->rd != REG_NONE && in->rd != REG_SINK && (in->rd < REG_FP0 || in->rd >= REG_DISE0);
}

static bool writes_fp(const insn_t *in)
{
    return in->rd >= REG_FP0 && in->rd < REG_DISE0;
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
static uint64_t fetch(timing_t *t, ooo_t *o, const insn_t *in, why_t *front)
{
    uint64_t line = in->pc >> t->line_shift;
    uint64_t f = o->fetch_cycle;
    if (o->fetch_n >= o->fetch_width || line != o->fetch_line || o->group_ended) f++;
    *front = (why_t){ .cause = STALL_FETCH };
    if (t->redirect > f) {
        f = t->redirect;
        *front = t->redirect_why;
    }
    f = max2(f, ring_oldest(&o->fetch_buffer));
    f += t->front_penalty;                              /* DISE decode stall */
    uint8_t icause;
    uint64_t got = tm_fetch_bytes(t, in->pc, f, &icause) - t->p.l1i_hit;
    if (icause != STALL_NONE) *front = (why_t){ .cause = icause };
    if (got != o->fetch_cycle) o->fetch_n = 0;
    o->fetch_cycle = got;
    o->fetch_line = line;
    o->fetch_n++;
    o->group_ended = false;
    return got;
}

/* D: the cycle it is renamed and dispatched. */
static uint64_t dispatch(ooo_t *o, const insn_t *in, uint64_t f)
{
    uint64_t d = max2(f + o->frontend_depth,
                      o->dispatch_cycle + (o->dispatch_n >= o->dispatch_width));
    hold(o, &d, ring_oldest(&o->rob) + 1, DS_ROB);
    hold(o, &d, o->serial_after, DS_SERIAL);
    if (serializing(in)) hold(o, &d, o->grad_cycle + 1, DS_SERIAL);
    if (writes_int(in)) hold(o, &d, ring_oldest(&o->int_writers) + 1, DS_RENAME);
    if (writes_fp(in)) hold(o, &d, ring_oldest(&o->fp_writers) + 1, DS_RENAME);
    int q = queue_of(in);
    if (q == Q_MEM) hold(o, &d, ring_oldest(&o->mem_queue) + 1, DS_MEM_QUEUE);
    else hold(o, &d, leave_room(&o->queue[q], d), q == Q_INT ? DS_INT_QUEUE : DS_FP_QUEUE);
    if (in->flags & IF_BRANCH) hold(o, &d, leave_room(&o->branches, d), DS_BRANCHES);
    if (d != o->dispatch_cycle) o->dispatch_n = 0;
    o->dispatch_cycle = d;
    o->dispatch_n++;
    return d;
}

static store_entry_t *store_slot(ooo_t *o, uint64_t addr)
{
    return &o->stores[(addr >> 3) & (STORE_TABLE - 1)];
}

/* The older store a load takes its data from, or NULL. */
static const store_entry_t *forwarding_store(ooo_t *o, const insn_t *in, uint64_t addr,
                                             uint64_t d)
{
    if (!(in->flags & IF_LOAD)) return NULL;
    const store_entry_t *s = store_slot(o, addr);
    return s->word == addr >> 3 && s->graduated > d ? s : NULL;
}

/* I: the cycle it issues; *why: what it waited for last. */
static uint64_t issue(timing_t *t, ooo_t *o, const insn_t *in, uint64_t d, why_t front,
                      const store_entry_t *fwd, why_t *why)
{
    why_t dep;
    uint64_t ops = tm_operands_ready(t, in, &dep);
    uint64_t ready = d + 1;
    *why = front;
    if (ops > ready) {
        ready = ops;
        *why = dep;
    }
    if (fwd && fwd->data_ready > ready) {
        ready = fwd->data_ready;
        *why = (why_t){ STALL_DEP, fwd->pc, fwd->role };
    }
    enum fu_kind k = fu_of(in);
    unsigned span = occupancy(t, o, in);
    uint64_t i = calendar_find(&o->fu[k], ready, span);
    if (i > ready) *why = (why_t){ .cause = STALL_FU };
    calendar_book(&o->fu[k], i, span);
    return i;
}

/* X: the cycle its result is available (loads: their data); *why: what
 * its own execution waited for, when that took more than a cycle. */
static uint64_t complete(timing_t *t, ooo_t *o, const insn_t *in, uint64_t addr, uint64_t i,
                         const store_entry_t *fwd, why_t *why, uint8_t *cause)
{
    *cause = STALL_DEP;
    *why = (why_t){ STALL_FU, in->pc, t->cur_role };
    if (in->flags & IF_STORE) return i + 1;      /* the D-cache is written at graduation */
    if (!(in->flags & IF_LOAD)) return i + t->p.lat[in->opclass];
    uint64_t done = i + t->p.lat[OC_LOAD];
    if (fwd) {
        o->forwarded_loads++;
        return max2(done, fwd->data_ready);
    }
    uint8_t mcause;
    uint64_t data = tm_data_access(t, in, addr, i, &mcause);
    if (mcause == STALL_DCACHE || mcause == STALL_DTLB) {
        *cause = mcause;
        *why = (why_t){ mcause, in->pc, t->cur_role };
    }
    return max2(done, data);
}

/* Redirects of fetch by a control transfer that resolves at x. */
static void control(timing_t *t, ooo_t *o, const insn_t *in, uint64_t next_pc, uint64_t f,
                    uint64_t x)
{
    uint64_t decoded = f + o->frontend_depth, resolved = x + o->mispredict_penalty;
    if (unlikely(in->flags & IF_DISE)) {
        tm_dise_control(t, in, decoded, resolved);
        if (t->dise_redirect) o->group_ended = true;
        return;
    }
    if (!(in->flags & (IF_BRANCH | IF_JUMP))) return;
    if (next_pc != in->pc + in->len) o->group_ended = true;
    uint64_t r = tm_predict_control(t, in, next_pc, decoded, resolved);
    if (r) t->redirect = r;
}

/* G: the cycle it graduates. */
static uint64_t graduate(ooo_t *o, uint64_t x)
{
    uint64_t g = max2(x, o->grad_cycle);
    if (g == o->grad_cycle && o->grad_n >= o->retire_width) g++;
    if (g != o->grad_cycle) o->grad_n = 0;
    o->grad_cycle = g;
    o->grad_n++;
    return g;
}

/* Head accounting at graduation (see the top of the file): of the time
 * from the previous graduation to its completion, the larger part is
 * either waiting to issue or executing, and names the cause. */
static void account(timing_t *t, const insn_t *in, uint64_t prev_g, uint64_t i, uint64_t x,
                    uint64_t g, why_t issue_why, why_t exec_why)
{
    uint64_t head = t->seq == 0 ? g + 1 : g - prev_g;
    uint64_t waited = i > prev_g ? i - prev_g : 0;
    uint64_t started = max2(i, prev_g);
    uint64_t executing = x > started ? x - started : 0;
    tm_record_head(t, in, head, executing > waited ? exec_why : issue_why);
}

/* Once it has graduated: the structures it held free from g + 1. */
static void release(timing_t *t, ooo_t *o, const insn_t *in, uint64_t addr, uint64_t d,
                    uint64_t i, uint64_t x, uint64_t g)
{
    ring_push(&o->fetch_buffer, d);
    ring_push(&o->rob, g);
    if (writes_int(in)) ring_push(&o->int_writers, g);
    if (writes_fp(in)) ring_push(&o->fp_writers, g);
    int q = queue_of(in);
    if (q == Q_MEM) ring_push(&o->mem_queue, g);
    else leave_insert(&o->queue[q], i);
    if (in->flags & IF_BRANCH) leave_insert(&o->branches, x);
    if (serializing(in)) o->serial_after = g + 1;
    if (in->flags & IF_STORE) {
        uint8_t cause;
        tm_data_access(t, in, addr, g, &cause);   /* the D-cache write */
        store_entry_t *s = store_slot(o, addr);
        *s = (store_entry_t){ addr >> 3, i + 1, g, in->pc, t->cur_role };
    }
}

void time_ooo(timing_t *t, const insn_t *in, uint64_t addr, uint64_t next_pc)
{
    ooo_t *o = t->model_state;
    why_t front, issue_why, exec_why;
    uint8_t rcause;
    uint64_t prev_g = o->grad_cycle;
    uint64_t f = fetch(t, o, in, &front);
    uint64_t d = dispatch(o, in, f);
    const store_entry_t *fwd = forwarding_store(o, in, addr, d);
    uint64_t i = issue(t, o, in, d, front, fwd, &issue_why);
    uint64_t x = complete(t, o, in, addr, i, fwd, &exec_why, &rcause);
    tm_set_result(t, in, x, rcause);
    control(t, o, in, next_pc, f, x);
    uint64_t g = graduate(o, x);
    account(t, in, prev_g, i, x, g, issue_why, exec_why);
    release(t, o, in, addr, d, i, x, g);
    o->rob_occupancy += g - d;
    o->queue_occupancy += i - d;
    o->insts++;
    if (t->views) {
        uint64_t st[5] = { f, d, i, x, g };
        tm_view_insn(t, in, ooo_stage_names, st, g + 1);
    }
    t->cycles = g + 1;
}

/* ---- statistics ------------------------------------------------------------------------- */

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
    stats_add_f64(s, "cpu.ooo.robOccupancy", (double)o->rob_occupancy / c, "Count",
                  "Average active-list entries in use (sum of G - D over cycles)");
    stats_add_f64(s, "cpu.ooo.queueOccupancy", (double)o->queue_occupancy / c, "Count",
                  "Average instructions waiting to issue (sum of I - D over cycles)");
    stats_add_u64(s, "cpu.ooo.forwardedLoads", o->forwarded_loads, "Count",
                  "Loads that took their data from an older store not yet graduated");
}
