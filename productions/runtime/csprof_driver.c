/*
 * csprof_driver.c - csprof's sampling and trampoline handlers as guest code
 * in the handler runtime (csprof_guest.h; Froyd, Mellor-Crummey and
 * Fowler, ICS 2005).
 *
 * CSPROF_interrupt (the PMU's interrupt, every counter overflow): unwind
 * the interrupted thread's stack frame by frame with the unwind table the
 * host wrote (a binary search per frame), up to the frame that returns to
 * the trampoline; the frames above it are the thread's cached call stack.
 * The new frames become CCT nodes under the cached youngest, the sample is
 * counted on the youngest, and the trampoline moves into the youngest
 * frame's return-address slot (the old slot gets its address back).
 * Tail calls (the trampoline's frame now holds another procedure or CFA),
 * longjmp (a walk reaches the outermost frame without meeting the
 * trampoline) and samples landing on the trampoline are handled as the
 * paper says.  Then the counter gets its next period.
 *
 * CSPROF_trampoline (a return reached the trampoline): count the
 * returning context's edge, put the real return address where the program
 * expects it (the host resumes there: st.resume), unwind the caller's
 * frame and move the trampoline into its return-address slot.
 *
 * The program's memory is read and written with hps.ldp / hps.stp; the
 * program's registers that the entry wrapper saved (the return-address register
 * among them) are read and written in the entry wrapper's save area.
 */
#include "csprof_guest.h"
#include "hps_insn.h"

cspg_t csprof_guest;

typedef struct walked {
    uint64_t entry, cfa, ret;
    uint64_t site;              /* the call site ret comes back to */
    uint64_t ra_addr;           /* the return address's stack word, 0: register */
    uint64_t ra_reg;
    int outermost;
    int no_trampoline;          /* setjmp's frame: never given the trampoline */
} walked_t;

static walked_t walk_buf[CSPG_MAX_WALK];

/* The entry wrapper's save slot of a caller-saved register (wrappers.S), or 0. */
static uint64_t *saved_slot(uint64_t *saved, uint64_t reg)
{
#if defined(__riscv)
    if (reg == 1) return &saved[0];                       /* ra       */
    if (reg >= 5 && reg <= 7) return &saved[reg - 4];     /* t0..t2   */
    if (reg >= 28 && reg <= 31) return &saved[reg - 24];  /* t3..t6   */
    if (reg >= 10 && reg <= 17) return &saved[reg - 2];   /* a0..a7   */
#else
    if (reg <= 8) return &saved[reg];                     /* v0, t0..t7 */
    if (reg >= 16 && reg <= 29) return &saved[reg - 7];   /* a0..gp   */
#endif
    return 0;
}

/* The search range of pc's bucket in an index: [*lo, *hi). */
static void bucket(const cspg_t *g, const uint32_t *index, uint64_t n, uint64_t pc,
                   uint64_t *lo, uint64_t *hi)
{
    uint64_t b = (pc - g->st.text_lo) >> g->st.index_shift;
    if (pc < g->st.text_lo) {
        *lo = 0;
        *hi = index[0];
    } else if (b >= g->st.nbuckets) {
        *lo = index[g->st.nbuckets];
        *hi = n;
    } else {
        *lo = index[b];
        *hi = index[b + 1];
    }
}

/* The rule of the range holding pc, or 0 (a binary search in its bucket). */
static const cspg_rule_t *rule_at(const cspg_t *g, uint64_t pc)
{
    uint64_t lo, hi;
    bucket(g, g->rule_index, g->st.nrules, pc, &lo, &hi);
    while (lo < hi) {                        /* the first range above pc */
        uint64_t mid = (lo + hi) >> 1;
        if (g->rules[mid].lo <= pc) lo = mid + 1;
        else hi = mid;
    }
    return lo ? &g->rules[lo - 1] : 0;
}

/* The call site that returns to addr (the host marks a 2-byte call by
 * the low bit of its entry in rets), or 0 when no call returns there. */
static uint64_t call_site_of(const cspg_t *g, uint64_t addr)
{
    uint64_t lo, hi;
    bucket(g, g->ret_index, g->st.nrets, addr, &lo, &hi);
    while (lo < hi) {
        uint64_t mid = (lo + hi) >> 1;
        if ((g->rets[mid] & ~1ull) < addr) lo = mid + 1;
        else hi = mid;
    }
    if (lo >= g->st.nrets || (g->rets[lo] & ~1ull) != addr) return 0;
    return addr - ((g->rets[lo] & 1) ? 2 : 4);
}

/* The child of parent for (site, entry), made when new; the parent itself
 * when the node array is full (counted).  Children are a list kept most
 * recently used first. */
static uint32_t child_of(cspg_t *g, uint32_t parent, uint64_t site, uint64_t entry)
{
    cspg_node_t *p = &g->nodes[parent];
    uint32_t prev = CSPG_NONE;
    for (uint32_t k = p->child; k != CSPG_NONE; prev = k, k = g->nodes[k].sibling) {
        cspg_node_t *c = &g->nodes[k];
        if (c->site != site || c->entry != entry) continue;
        if (prev != CSPG_NONE) {             /* to the front: the next look finds it first */
            g->nodes[prev].sibling = c->sibling;
            c->sibling = p->child;
            p->child = k;
        }
        return k;
    }
    if (g->st.nnodes >= CSPG_MAX_NODES) {
        g->st.nodes_full++;
        return parent;
    }
    uint32_t n = (uint32_t)g->st.nnodes++;
    cspg_node_t *c = &g->nodes[n];
    c->site = site;
    c->entry = entry;
    c->samples = c->calls = 0;
    c->parent = parent;
    c->child = CSPG_NONE;
    c->sibling = p->child;
    p->child = n;
    return n;
}

/* The thread's state, set up on its first sample; 0 when all are taken. */
static cspg_thread_t *thread_of(cspg_t *g, uint64_t tid)
{
    for (unsigned k = 0; k < CSPG_MAX_THREADS; k++) {
        cspg_thread_t *t = &g->threads[k];
        if (t->tid == tid) return t;
        if (t->tid == 0) {
            t->tid = tid;
            t->root = child_of(g, 0, 0, tid);
            t->depth = 0;
            t->tramp_on = 0;
            return t;
        }
    }
    g->st.threads_full++;
    return 0;
}

/* Where the trampoline is, read or written. */
static uint64_t read_slot(uint64_t addr, uint64_t reg, uint64_t *saved)
{
    if (addr) return hps_ldp(addr);
    uint64_t *s = saved_slot(saved, reg);
    return s ? *s : 0;
}

static void write_slot(uint64_t addr, uint64_t reg, uint64_t *saved, uint64_t v)
{
    if (addr) {
        hps_stp(addr, v);
        return;
    }
    uint64_t *s = saved_slot(saved, reg);
    if (s) *s = v;
}

/* Put the trampoline into frame f's return-address slot. */
static void install(cspg_t *g, cspg_thread_t *t, const walked_t *f, uint64_t *saved)
{
    t->tramp_on = 0;
    if (f->outermost || (!f->ra_addr && !saved_slot(saved, f->ra_reg))) return;
    t->tramp_addr = f->ra_addr;
    t->tramp_reg = f->ra_reg;
    t->tramp_saved = f->ret;
    unsigned h = (unsigned)(t->hist_next++ & (CSPG_HISTORY - 1));
    t->hist_cfa[h] = f->cfa;
    t->hist_ret[h] = f->ret;
    write_slot(f->ra_addr, f->ra_reg, saved, g->st.trampoline);
    t->tramp_on = 1;
}

/* Take the trampoline out of its slot where it is still live. */
static void remove_trampoline(cspg_t *g, cspg_thread_t *t, uint64_t sp, uint64_t *saved)
{
    if (!t->tramp_on) return;
    int live = !t->tramp_addr || t->tramp_addr >= sp;
    if (live && read_slot(t->tramp_addr, t->tramp_reg, saved) == g->st.trampoline)
        write_slot(t->tramp_addr, t->tramp_reg, saved, t->tramp_saved);
    t->tramp_on = 0;
}

/* Unwind one frame at pc (youngest: the pc where it stopped, else a
 * return address) with sp / fp; the caller's sp, fp, pc come back in
 * them.  *ra_known / *ra_val: the return-address register's value when
 * still known (the youngest frame, or past millicode that returned through
 * another register).  0 on a failure. */
static int unwind_one(cspg_t *g, int youngest, uint64_t *pc, uint64_t *sp, uint64_t *fp,
                      int *ra_known, uint64_t *ra_val, uint64_t *saved, walked_t *f)
{
    const cspg_rule_t *r = rule_at(g, youngest ? *pc : *pc - 1);
    if (!r || r->kind == CSPG_RULE_NONE) return 0;
    f->entry = r->entry;
    f->outermost = r->kind == CSPG_RULE_ROOT;
    f->no_trampoline = r->no_trampoline;
    if (f->outermost) {
        f->cfa = *sp;
        return 1;
    }
    f->cfa = (r->kind == CSPG_RULE_FP ? *fp : *sp) + (uint64_t)(int64_t)r->cfa_off;
    if (r->ra_reg) {
        uint64_t *s = saved_slot(saved, r->ra_reg);
        if (youngest && s) f->ret = *s;
        else if (r->ra_reg == g->st.ra_reg && *ra_known) f->ret = *ra_val;
        else return 0;
        f->ra_addr = 0;
        f->ra_reg = r->ra_reg;
    } else {
        f->ra_addr = f->cfa + (uint64_t)(int64_t)r->ra_off;
        f->ra_reg = 0;
        f->ret = hps_ldp(f->ra_addr);
    }
    /* the caller's return-address register survives only a frame that
     * returns through another one (Alpha's division millicode) */
    *ra_known = r->ra_reg && r->ra_reg != g->st.ra_reg && *ra_known;
    if (r->fp_saved) *fp = hps_ldp(f->cfa + (uint64_t)(int64_t)r->fp_off);
    *sp = f->cfa;
    *pc = f->ret;
    return 1;
}

/* Is caller f above callee c: a higher CFA, or the same for the outermost
 * frame or the caller of millicode returning through another register. */
static int moved_up(const cspg_t *g, const walked_t *c, const walked_t *f)
{
    if (f->cfa > c->cfa) return 1;
    int millicode = !c->ra_addr && c->ra_reg != g->st.ra_reg;
    return f->cfa == c->cfa && (f->outermost || millicode);
}

/* Walk from the interrupted state to the frame returning to the trampoline
 * (*hit) or the outermost frame: the frames walked, 0 on a failure. */
static uint64_t walk(cspg_t *g, cspg_thread_t *t, uint64_t pc, uint64_t sp, uint64_t fp,
                     uint64_t *saved, uint64_t *hit)
{
    int ra_known = 1;
    uint64_t *ras = saved_slot(saved, g->st.ra_reg);
    uint64_t ra_val = ras ? *ras : 0;
    *hit = CSPG_NONE;
    for (uint64_t n = 0; n < CSPG_MAX_WALK; n++) {
        walked_t *f = &walk_buf[n];
        if (!unwind_one(g, n == 0, &pc, &sp, &fp, &ra_known, &ra_val, saved, f)) return 0;
        if (n > 0 && !moved_up(g, &walk_buf[n - 1], f)) return 0;
        g->st.frames_walked++;
        if (f->outermost) return n + 1;
        if (t->tramp_on && f->ret == g->st.trampoline) {
            if (t->tramp_addr && f->ra_addr != t->tramp_addr) return 0;
            f->ret = t->tramp_saved;         /* the frame's real return address */
            *hit = n;
            return n + 1;
        }
        f->site = call_site_of(g, f->ret);
        if (!f->site) return 0;
    }
    return 0;
}

/* The frame that returned to the trampoline is still the cached youngest,
 * or a tail call replaced it. */
static uint32_t reconcile(cspg_t *g, cspg_thread_t *t, const walked_t *h)
{
    cspg_frame_t *y = &t->stack[t->depth - 1];
    if (y->cfa == h->cfa && y->entry == h->entry) return y->node;
    g->st.tail_calls++;
    const cspg_node_t *old = &g->nodes[y->node];
    uint32_t node = child_of(g, old->parent, old->site, h->entry);
    y->node = node;
    y->cfa = h->cfa;
    y->entry = h->entry;
    return node;
}

static void push_frame(cspg_thread_t *t, uint32_t node, uint64_t cfa, uint64_t entry)
{
    if (t->depth >= CSPG_MAX_DEPTH) return;
    cspg_frame_t *f = &t->stack[t->depth++];
    f->node = node;
    f->cfa = cfa;
    f->entry = entry;
}

static void count_sample(cspg_t *g, cspg_thread_t *t, uint32_t node)
{
    g->nodes[node].samples++;
    g->st.last_node = node;
    t->samples++;
}

static void take_sample(cspg_t *g, cspg_thread_t *t, uint64_t pc, uint64_t sp, uint64_t fp,
                        uint64_t *saved)
{
    g->st.samples++;
    if (pc == g->st.trampoline && t->tramp_on && t->depth >= 2) {
        g->st.samples_on_trampoline++;       /* a return to it is in flight */
        count_sample(g, t, t->stack[t->depth - 2].node);
        return;
    }
    uint64_t hit, n = walk(g, t, pc, sp, fp, saved, &hit);
    int hits = hit != CSPG_NONE && t->depth > 0;
    if (n && (hits ? t->depth + hit : n) > CSPG_MAX_DEPTH) n = 0;   /* too deep to cache */
    if (n == 0) {
        g->st.failures++;
        t->failures++;
        count_sample(g, t, child_of(g, t->root, 0, 0));
        return;
    }
    uint32_t node;
    uint64_t below;
    if (hits) {
        node = reconcile(g, t, &walk_buf[hit]);
        g->st.cached_frames_used += t->depth;
        write_slot(walk_buf[hit].ra_addr, walk_buf[hit].ra_reg, saved, t->tramp_saved);
        t->tramp_on = 0;
        below = hit;
    } else {
        if (t->tramp_on) g->st.trampoline_lost++;        /* its frame went (longjmp) */
        remove_trampoline(g, t, sp, saved);
        const walked_t *top = &walk_buf[n - 1];
        node = child_of(g, t->root, 0, top->entry);
        t->depth = 0;
        push_frame(t, node, top->cfa, top->entry);
        below = n - 1;
    }
    while (below-- > 0) {
        const walked_t *f = &walk_buf[below];
        node = child_of(g, node, f->site, f->entry);
        push_frame(t, node, f->cfa, f->entry);
    }
    count_sample(g, t, node);
    if (walk_buf[0].no_trampoline && n >= 2 && t->depth >= 2) {
        /* setjmp would save the trampoline in its jmp_buf, and longjmp
         * bring it back: its frame is left out, its caller takes it */
        t->depth--;
        install(g, t, &walk_buf[1], saved);
        return;
    }
    install(g, t, &walk_buf[0], saved);
}

/* The PMU's interrupt (wrappers.S CSPROF_interrupt): tid, the sample pc, the
 * event and counter; the entry wrapper's save area and the program's fp. */
void csprof_interrupt(uint64_t tid, uint64_t pc, uint64_t event, uint64_t counter,
                      uint64_t *saved, uint64_t fp)
{
    cspg_t *g = &csprof_guest;
    (void)event;
    (void)pc;
    cspg_thread_t *t = thread_of(g, tid);
    /* pc is the instruction the interrupt was delivered after; the
     * registers are those of the next one, where the program resumes */
    if (t) take_sample(g, t, g->st.interrupted_pc, hps_mfd13(), fp, saved);
    g->st.seed = g->st.seed * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t period = g->st.period_lo + (((g->st.seed >> 33) * g->st.period_span) >> 31);
    uint64_t since = hps_rdpmc(counter);     /* counted since the overflow */
    if (since >= period) since = period - 1;
    hps_wrpmc(counter, g->st.wrap - period + since);
}

/* A return reached a copy of the trampoline that is not the installed
 * one's (its frame's CFA is not sp): one that longjmp brought back from a
 * jmp_buf setjmp filled while the trampoline was in the return-address
 * register.  Resume at the return address of the install whose frame had
 * this CFA; the cached stack is given up (the next sample walks all). */
static void stale_return(cspg_t *g, cspg_thread_t *t, uint64_t sp, uint64_t *saved)
{
    g->st.resume = 0;
    for (uint64_t k = 1; k <= CSPG_HISTORY && k <= t->hist_next; k++) {
        unsigned h = (unsigned)((t->hist_next - k) & (CSPG_HISTORY - 1));
        if (t->hist_cfa[h] == sp) {
            g->st.resume = t->hist_ret[h];
            break;
        }
    }
    if (!g->st.resume) {
        g->st.trampoline_unknown++;          /* the host stops the run */
        return;
    }
    g->st.trampoline_stale++;
    t->depth = 0;
    uint64_t *ras = saved_slot(saved, g->st.ra_reg);
    if (ras && *ras == g->st.trampoline) *ras = g->st.resume;
}

/* A return reached the trampoline (wrappers.S CSPROF_trampoline, entered by
 * the host at the trampoline's fetch fault): count the edge, resume at the
 * real return address, move the trampoline up a frame. */
void csprof_trampoline(uint64_t tid, uint64_t pc, uint64_t unused0, uint64_t unused1,
                       uint64_t *saved, uint64_t fp)
{
    cspg_t *g = &csprof_guest;
    (void)pc;
    (void)unused0;
    (void)unused1;
    cspg_thread_t *t = thread_of(g, tid);
    uint64_t sp = hps_mfd13();
    if (!t) {
        g->st.trampoline_unknown++;          /* the host stops the run */
        g->st.resume = 0;
        return;
    }
    if (!t->tramp_on || t->depth == 0 || sp != t->stack[t->depth - 1].cfa) {
        stale_return(g, t, sp, saved);
        return;
    }
    g->st.trampoline_returns++;
    uint64_t back = t->tramp_saved;
    g->nodes[t->stack[t->depth - 1].node].calls++;
    t->depth--;
    t->tramp_on = 0;
    g->st.resume = back;
    if (!t->tramp_addr && read_slot(0, t->tramp_reg, saved) == g->st.trampoline)
        write_slot(0, t->tramp_reg, saved, back);
    uint64_t *ras = saved_slot(saved, g->st.ra_reg);
    if (ras && *ras == g->st.trampoline) *ras = back;   /* Alpha's ldgp reads it */
    if (t->depth == 0) return;
    uint64_t cpc = back;
    int ra_known = 1;
    uint64_t ra_val = ras ? *ras : 0;
    walked_t f;
    if (!unwind_one(g, 1, &cpc, &sp, &fp, &ra_known, &ra_val, saved, &f) ||
        f.cfa != t->stack[t->depth - 1].cfa) {
        t->depth = 0;                        /* lost track: the next sample walks all */
        return;
    }
    if (f.no_trampoline) {                   /* back in setjmp: see take_sample */
        t->depth = 0;
        return;
    }
    install(g, t, &f, saved);
}
