/*
 * handlers.c - the profile handlers of the guest runtime, in C.  Each one
 * appends one sample to the profile buffer `hps_profile` (hps_profile.h).
 * They are reached through the assembly entry wrappers of wrappers.S, which switch to
 * the runtime's stack, save every register C may clobber and load the
 * arguments from the DISE registers d8..d11.
 *
 * Built freestanding for rv64imac/lp64 with -mcmodel=medany -mno-relax: no
 * FP registers and no gp/tp use, because while a handler runs gp, tp and the
 * FP registers still hold the program's values.
 */
#include "hps_insn.h"
#include "hps_profile.h"
#include "pp_cct.h"

/* The host writes magic, version and capacity when it loads the runtime. */
hps_profile_t hps_profile;

/* Append one sample; a full buffer is first handed to the host. */
static inline __attribute__((always_inline))
void hps_append(uint64_t kind, uint64_t a, uint64_t b, uint64_t c)
{
    hps_profile_t *p = &hps_profile;
    uint64_t n = p->hdr.count;
    if (__builtin_expect(n >= HPS_PROFILE_CAPACITY, 0)) {
        p->hdr.flushes++;
        hps_flush();
        n = p->hdr.count;
        if (n >= HPS_PROFILE_CAPACITY) {     /* the host did not drain it */
            p->hdr.dropped++;
            return;
        }
    }
    hps_sample_t *s = &p->samples[n];
    s->kind = kind;
    s->a = a;
    s->b = b;
    s->c = c;
    p->hdr.count = n + 1;
}

/* Hot method: the method is named by the target of the call or back-edge. */
void hps_hot_method(uint64_t pc, uint64_t target)
{
    hps_append(HPS_SAMPLE_METHOD, target, pc, 0);
}

void hps_call_pair(uint64_t pc, uint64_t target)
{
    hps_append(HPS_SAMPLE_CALL_PAIR, pc, target, 0);
}

void hps_data_stream(uint64_t pc, uint64_t ea, uint64_t burst)
{
    hps_append(HPS_SAMPLE_DATA, pc, ea, burst);
}

/* ---- PP on DISE (tools/hps-pp-acf.c) -------------------------------------------------
 * The path register lives in d0.  A call pushes the caller's, with the
 * return address, the program's sp at the call and the calling-context
 * node d5 (pp_cct.h; 0 when the ACF keeps no CCT); the instruction at the
 * return address pops them when control comes back from that call (same
 * pc, same sp), and leaves d0 alone when a branch brought it there.
 * Entries whose sp lies below the current one belong to frames a longjmp
 * left: they are dropped, d0 is poisoned (a path number no procedure has),
 * so the path in flight is counted as lost, as the exact recorder does,
 * and d5 goes back to the node of the outermost frame dropped, or of a
 * call of this frame's that never came back (the exact CCT pops to it). */
#define PATH_STACK 32768
#define PATH_POISON (1ull << 62)
static struct { uint64_t r, ret, sp, node, acc_cycles, acc_misses; } path_stack[PATH_STACK];
static uint64_t path_depth, path_overflows;

/* The calling context tree (hps-pp-acf --cct). */
ppc_tree_t hps_pp_cct;

void hps_path_count(uint64_t entry, uint64_t sum)
{
    hps_append(HPS_SAMPLE_PATH, entry, sum, hps_mfd5());
}

void hps_path_push(uint64_t r, uint64_t ret)
{
    if (path_depth == PATH_STACK) {
        path_overflows++;
        return;
    }
    path_stack[path_depth].r = r;
    path_stack[path_depth].ret = ret;
    path_stack[path_depth].sp = hps_mfd13();
    path_stack[path_depth].node = hps_mfd5();
    path_depth++;
}

/* Returns 1 when the top entry was this call's and was popped. */
int hps_path_pop(uint64_t pc)
{
    uint64_t sp = hps_mfd13();
    int dropped = 0;
    uint64_t node = 0;
    while (path_depth && path_stack[path_depth - 1].sp < sp) {
        path_depth--;
        node = path_stack[path_depth].node;
        dropped = 1;
    }
    if (path_depth && path_stack[path_depth - 1].ret == pc && path_stack[path_depth - 1].sp == sp) {
        path_depth--;
        hps_mtd0(path_stack[path_depth].r);
        hps_mtd5(path_stack[path_depth].node);
        return 1;
    } else {
        if (path_depth && path_stack[path_depth - 1].sp == sp) {
            node = path_stack[path_depth - 1].node;   /* a call of this frame's that */
            dropped |= 2;                             /* did not come back: its context */
        }
        if (dropped) hps_mtd5(node);
        if ((dropped & 1) || path_overflows) hps_mtd0(PATH_POISON);
    }
    return 0;
}

/* The child of parent for (site, entry), made when new; the parent itself
 * when the nodes ran out (counted).  Children are a list kept most
 * recently used first, so a loop's repeated call finds its node first. */
static uint32_t pp_child(ppc_tree_t *t, uint32_t parent, uint64_t site, uint64_t entry)
{
    if (t->nnodes == 0) {                       /* node 0: the first procedure */
        t->nodes[0].parent = t->nodes[0].child = t->nodes[0].sibling = PPC_NONE;
        t->nnodes = 1;
    }
    ppc_node_t *p = &t->nodes[parent];
    uint32_t prev = PPC_NONE;
    t->lookups++;
    for (uint32_t k = p->child; k != PPC_NONE; prev = k, k = t->nodes[k].sibling) {
        ppc_node_t *c = &t->nodes[k];
        t->steps++;
        if (c->site != site || c->entry != entry) continue;
        if (prev != PPC_NONE) {
            t->nodes[prev].sibling = c->sibling;
            c->sibling = p->child;
            p->child = k;
        }
        return k;
    }
    if (t->nnodes >= PPC_MAX_NODES) {
        t->nodes_full++;
        return parent;
    }
    uint32_t n = (uint32_t)t->nnodes++;
    ppc_node_t *c = &t->nodes[n];
    c->site = site;
    c->entry = entry;
    c->calls = c->tail_calls = 0;
    c->parent = parent;
    c->child = PPC_NONE;
    c->sibling = p->child;
    p->child = n;
    return n;
}

/* A call at site to entry: d5 moves to that child (the push saved the
 * caller's). */
void hps_path_enter(uint64_t site, uint64_t entry)
{
    uint32_t n = pp_child(&hps_pp_cct, (uint32_t)hps_mfd5(), site, entry);
    hps_pp_cct.nodes[n].calls++;
    hps_mtd5(n);
}

/* Is target one of the program's procedure entries (a binary search)? */
static int pp_is_entry(const ppc_tree_t *t, uint64_t target)
{
    uint64_t lo = 0, hi = t->nentries < PPC_MAX_ENTRIES ? t->nentries : PPC_MAX_ENTRIES;
    while (lo < hi) {
        uint64_t mid = (lo + hi) >> 1;
        if (t->entries[mid] < target) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->nentries && t->entries[lo] == target;
}

/* A jump out of procedure self to target: when target is another
 * procedure's entry, the callee replaces the current context under its
 * parent, at its call site (the exact CCT's tail call). */
void hps_path_tail(uint64_t target, uint64_t self)
{
    ppc_tree_t *t = &hps_pp_cct;
    uint32_t cur = (uint32_t)hps_mfd5();
    if (target == self || !pp_is_entry(t, target)) return;
    if (t->nnodes == 0 || t->nodes[cur].parent == PPC_NONE) return;
    uint32_t n = pp_child(t, t->nodes[cur].parent, t->nodes[cur].site, target);
    t->nodes[n].calls++;
    t->nodes[n].tail_calls++;
    hps_mtd5(n);
}

/* ---- path metrics (hps-pp-acf --metrics) ------------------------------------------------
 * PP's flow-sensitive metrics read in the guest: hps.rdpmc 0 (cycles) and
 * 1 (L1D misses) at every path boundary a handler sees.  The path in
 * flight's cost so far is `acc`; `last` is the reading where its current
 * segment began.  A path's end pauses (acc += now - last), appends the
 * path sample and a cost sample, and starts the next with acc = 0; a call
 * pauses and saves acc with r on the path stack, the callee's paths start
 * from 0; the pop that matches its return puts the caller's acc back, so
 * a callee's cost is never its caller's path's (what the exact recorder
 * does).  Each handler reads the counters again as it leaves: its own
 * cycles and misses are on no path; the replacement sequences' are. */
static struct { uint64_t last_cycles, last_misses, acc_cycles, acc_misses; } path_cost;

static void cost_pause(void)
{
    uint64_t c = hps_rdpmc(0), m = hps_rdpmc(1);
    path_cost.acc_cycles += c - path_cost.last_cycles;
    path_cost.acc_misses += m - path_cost.last_misses;
}

static void cost_resume(void)
{
    path_cost.last_cycles = hps_rdpmc(0);
    path_cost.last_misses = hps_rdpmc(1);
}

/* Append a sample where the buffer's state is under either handler mode:
 * the header's count (--handlers c), or d14/d15 (asm: the host set d15). */
static void append_any(uint64_t kind, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t end = hps_mfd15();
    if (!end) {
        hps_append(kind, a, b, c);
        return;
    }
    uint64_t next = hps_mfd14();
    if (next >= end) {
        hps_profile.hdr.flushes++;
        hps_flush();
        next = hps_mfd14();
        if (next >= end) {
            hps_profile.hdr.dropped++;
            return;
        }
    }
    hps_sample_t *s = (hps_sample_t *)(uintptr_t)next;
    s->kind = kind;
    s->a = a;
    s->b = b;
    s->c = c;
    hps_mtd14(next + sizeof *s);
}

static void cost_count(uint64_t entry, uint64_t sum)
{
    append_any(HPS_SAMPLE_PATH, entry, sum, hps_mfd5());
    append_any(HPS_SAMPLE_PATH_COST, path_cost.acc_cycles, path_cost.acc_misses, 0);
    path_cost.acc_cycles = path_cost.acc_misses = 0;
}

void hps_pathm_count(uint64_t entry, uint64_t sum)
{
    cost_pause();
    cost_count(entry, sum);
    cost_resume();
}

void hps_pathm_push(uint64_t r, uint64_t ret)
{
    cost_pause();
    uint64_t d = path_depth;
    hps_path_push(r, ret);
    if (path_depth > d) {
        path_stack[d].acc_cycles = path_cost.acc_cycles;
        path_stack[d].acc_misses = path_cost.acc_misses;
    }
    path_cost.acc_cycles = path_cost.acc_misses = 0;
    cost_resume();
}

/* The pop, and the caller's acc back when it popped; a path the pop
 * poisoned (a longjmp's landing) starts again from 0. */
static void cost_pop(uint64_t pc)
{
    uint64_t d = path_depth;
    if (hps_path_pop(pc)) {
        path_cost.acc_cycles = path_stack[path_depth].acc_cycles;
        path_cost.acc_misses = path_stack[path_depth].acc_misses;
    } else if (path_depth < d) {
        path_cost.acc_cycles = path_cost.acc_misses = 0;
    }
}

void hps_pathm_pop(uint64_t pc)
{
    cost_pause();
    cost_pop(pc);
    cost_resume();
}

void hps_pathm_return(uint64_t entry, uint64_t sum, uint64_t target)
{
    cost_pause();
    cost_count(entry, sum);
    cost_pop(target);
    cost_resume();
}

/* ---- PP's CCT child slots (pp_cct.h; PathEnter_handler) ------------------------------
 * A call's lookup in its context's slot for the call site first, in the
 * children's list (hps_path_enter) when the slot does not hold the
 * call's child, which the slot then keeps.  The slot words `s` are
 * hps_pp_slots (handlers_asm.S), whose address the entry wrapper (wrappers.S) passes.  This
 * code is in section .text_cct, which runtime.ld puts after all the rest
 * of the runtime, so adding it moved no other handler's address; from
 * there it calls hps_path_enter by the address the entry wrapper wrote into the
 * slots (Alpha's bsr does not reach that far, and a GOT entry would move
 * the data). */
#define PP_SLOTS_CODE __attribute__((section(".text_cct.pp_slots")))

/* The slot of node `parent` for call site `index` of its procedure's
 * nsites; 0 when it has none.  A node's first call gives it its nsites
 * words, or (none left, counted) word 0's empty set, k = 0. */
PP_SLOTS_CODE static uint32_t *pp_slot(ppc_slots_t *s, ppc_node_t *parent, uint32_t index,
                                       uint32_t nsites)
{
    if (parent->slots == 0 && nsites) {
        if (s->used == 0) s->used = 1;
        if (s->used + 1 + nsites <= PPC_MAX_SLOTS) {
            s->words[s->used] = nsites;
            parent->slots = (uint32_t)s->used + 1;
            s->used += 1 + nsites;
        } else {
            s->full++;
            parent->slots = 1;
        }
    }
    if (parent->slots == 0 || index >= s->words[parent->slots - 1]) return 0;
    return &s->words[parent->slots + index];
}

/* A call at site to entry (info: PPC_SITE_INFO): d5 moves to that child,
 * its calls + 1 (the push saved the caller's d5).  A slot hit is a lookup
 * of one step; otherwise the list's lookup, and the slot keeps what it
 * found unless that was the parent itself (the nodes ran out: each such
 * call is counted there). */
PP_SLOTS_CODE void hps_path_enter_slot(uint64_t site, uint64_t entry, uint64_t info, ppc_slots_t *s)
{
    ppc_tree_t *t = &hps_pp_cct;
    uint32_t parent = (uint32_t)hps_mfd5();
    uint32_t *slot = pp_slot(s, &t->nodes[parent], (uint32_t)info, (uint32_t)(info >> 32));
    if (slot && *slot) {
        ppc_node_t *c = &t->nodes[*slot];
        if (c->site == site && c->entry == entry) {
            t->lookups++;
            t->steps++;
            c->calls++;
            hps_mtd5(*slot);
            return;
        }
    }
    uint64_t full = t->nodes_full;
    void (*list_enter)(uint64_t, uint64_t) = (void (*)(uint64_t, uint64_t))(uintptr_t)s->list_enter;
    list_enter(site, entry);                    /* hps_path_enter */
    if (slot && t->nodes_full == full) *slot = (uint32_t)hps_mfd5();
}
