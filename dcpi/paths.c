/*
 * paths.c - the exact path profile recorder (paths.h): procedures built
 * on first use, the per-activation frames, the path table, the report and
 * the TSV.  Threads: each has its own frames and expected pc (its path
 * registers), the running one's in place, the others parked; the path
 * table is keyed by (thread, procedure, path).
 */
#include "paths.h"

#include <elf.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "cache.h"
#include "export.h"
#include "mem.h"
#include "profile.h"
#include "srcline.h"
#include "symtab.h"
#include "sys.h"
#include "util.h"

/* ---- procedures ------------------------------------------------------------------ */

typedef struct proc {
    uint64_t lo, hi;                /* [lo, hi): the function's code          */
    char *name;
    int id;
    bool numbered;                  /* CFG built and paths numbered           */
    cfg_t g;
    bl_number_t bl;
    int *out_first, *out_n;         /* per block: its edges in bl.edges       */
    size_t *edge_order;             /* bl.edges indices grouped by block      */
    uint64_t *last_pc;              /* per block: its last instruction's pc   */
    uint64_t exit_real_none;
    uint64_t lost, lost_insts, unfinished;
} proc_t;

typedef struct frame {
    proc_t *proc;                   /* NULL: code without a numbered CFG      */
    int block;                      /* -1: not known                          */
    bool synced;                    /* r is the path sum so far               */
    bool running;                   /* its segment is open (not paused)       */
    uint64_t r, key_sp, resume;
    uint64_t s_insts, s_cycles, s_misses;     /* the open segment's start     */
    uint64_t a_insts, a_cycles, a_misses;     /* the path's earlier segments  */
} frame_t;

typedef struct path_slot {
    int proc;                       /* -1: empty                              */
    uint64_t tid;                   /* the thread that ran it                 */
    uint64_t sum, count, insts, cycles, misses;
} path_slot_t;

/* A thread's frames while another thread runs. */
typedef struct parked_thread {
    uint64_t tid;
    frame_t *frames;
    size_t depth, frames_cap;
    struct paths_hot hot;
    bool top_running;               /* its top frame's segment was open       */
} parked_thread_t;

struct paths {
    struct paths_hot hot;           /* first: paths_observe reads it          */
    const isa_t *isa;
    symtab_t *st;
    unsigned sp_reg;
    uint64_t *landings;             /* the executable's distinct data words   */
    uint64_t bias;
    size_t nlandings;
    proc_t **procs;                 /* by id                                  */
    size_t nprocs, procs_cap;
    proc_t **by_addr;               /* open addressing on lo                  */
    size_t addr_cap;
    frame_t *frames;
    size_t depth, frames_cap;
    path_slot_t *slots;
    size_t slots_cap, slots_used;
    const uint64_t *cycles;
    const struct cache *l1d;
    const profile_t *dise;          /* PP on DISE's samples, or NULL          */
    const profile_t *dise_cycles, *dise_misses;  /* their guest readings (--metrics) */
    const char *exe;                /* read code from this file, not memory   */
    uint64_t lost_unknown;
    uint64_t tid;                   /* the running thread (0: not known yet)  */
    parked_thread_t *parked;        /* the other threads seen                 */
    size_t nparked, parked_cap;
};

static uint64_t hash64(uint64_t x)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return x;
}

/* ---- landings: words of the read-only data that may name jump targets ---------- */

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void add_landing(uint64_t **v, size_t *n, size_t *cap, uint64_t a)
{
    if (*n == *cap) *v = xrealloc(*v, (*cap = *cap ? 2 * *cap : 1024) * sizeof **v);
    (*v)[(*n)++] = a;
}

/* The whole file, or NULL. */
static uint8_t *slurp(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) buf = xrealloc(buf, cap = cap ? 2 * cap : 1 << 16);
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (!got) break;
    }
    fclose(f);
    *size = n;
    return buf;
}

/* Every distinct 32-bit word of the loaded segments' file data, and every
 * aligned 64-bit one above 4 GiB (tables of label addresses live in
 * .data.rel.ro, which is writable; Alpha's code lies above 4 GiB). */
static void find_words(paths_t *p, const char *exe)
{
    size_t size;
    uint8_t *f = exe ? slurp(exe, &size) : NULL;
    if (!f) return;
    const Elf64_Ehdr *eh = (const Elf64_Ehdr *)f;
    if (size < sizeof *eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) || eh->e_ident[EI_CLASS] != ELFCLASS64 ||
        eh->e_phoff + (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr) > size) {
        free(f);
        return;
    }
    const Elf64_Phdr *ph = (const Elf64_Phdr *)(f + eh->e_phoff);
    size_t cap = 0;
    for (unsigned k = 0; k < eh->e_phnum; k++) {
        if (ph[k].p_type != PT_LOAD) continue;
        if (ph[k].p_offset + ph[k].p_filesz > size) continue;
        for (uint64_t off = 0; off + 4 <= ph[k].p_filesz; off += 4) {
            uint32_t w;
            memcpy(&w, f + ph[k].p_offset + off, 4);
            add_landing(&p->landings, &p->nlandings, &cap, w);
            uint64_t q;
            if (off % 8 == 0 && off + 8 <= ph[k].p_filesz) {
                memcpy(&q, f + ph[k].p_offset + off, 8);
                if (q >> 32) add_landing(&p->landings, &p->nlandings, &cap, q);
            }
        }
    }
    free(f);
    qsort(p->landings, p->nlandings, sizeof *p->landings, cmp_u64);
    size_t m = 0;
    for (size_t k = 0; k < p->nlandings; k++)
        if (!m || p->landings[m - 1] != p->landings[k]) p->landings[m++] = p->landings[k];
    p->nlandings = m;
}

/* Bytes of the program at addr: from the guest's memory, or (without one,
 * tools/hps-pp-acf.c) from the executable's file at link-time addresses. */
static bool read_code(const paths_t *p, mem_t *mem, uint64_t addr, void *buf, size_t len)
{
    if (mem) return mem_read(mem, addr, buf, len);
    return p->exe && symtab_read_code(p->exe, addr, buf, len) == len;
}

/* RISC-V gcc's jump tables hold offsets from the table's start, which the
 * code forms with auipc + addi: every such address is read as a table of
 * 32-bit offsets, entries taken while they land inside [lo, hi). */
static void table_landings(const paths_t *p, const cfg_t *g, mem_t *mem, uint64_t lo, uint64_t hi,
                           uint64_t **v, size_t *n, size_t *cap)
{
    for (size_t k = 0; k + 1 < g->ninsns; k++) {
        const insn_t *a = &g->insns[k], *b = &g->insns[k + 1];
        if (strcmp(p->isa->table[a->op].name, "auipc") || strcmp(p->isa->table[b->op].name, "addi") ||
            b->rs1 != a->rd)
            continue;
        uint64_t base = a->pc + (uint64_t)a->imm + (uint64_t)b->imm;
        for (unsigned e = 0; e < 4096; e++) {
            int32_t w;
            if (!read_code(p, mem, base + 4 * e, &w, 4)) break;
            uint64_t to = base + (uint64_t)(int64_t)w;
            if (to < lo || to >= hi) break;
            add_landing(v, n, cap, to);
        }
    }
}

/* Alpha's global pointer as the procedure computes it on entry
 * (ldah gp, hi(t12); lda gp, lo(gp)), or 0. */
static uint64_t alpha_gp(const paths_t *p, const cfg_t *g)
{
    if (g->ninsns < 2) return 0;
    const insn_t *a = &g->insns[0], *b = &g->insns[1];
    if (strcmp(p->isa->table[a->op].name, "ldah") || strcmp(p->isa->table[b->op].name, "lda") ||
        a->rd != 29 || a->rs1 != 27 || b->rd != 29 || b->rs1 != 29)
        return 0;
    return g->insns[0].pc + (uint64_t)a->imm + (uint64_t)b->imm;
}

/* The words that name an address in [lo, hi): absolute (plus the load
 * bias), or, 32-bit ones, as an offset from the global pointer gp (when
 * not 0). */
static void word_landings(const paths_t *p, uint64_t lo, uint64_t hi, uint64_t gp,
                          uint64_t **v, size_t *n, size_t *cap)
{
    for (size_t k = 0; k < p->nlandings; k++) {
        uint64_t w = p->landings[k], abs = w + p->bias, rel = gp + (uint64_t)(int64_t)(int32_t)w;
        if (abs >= lo && abs < hi) add_landing(v, n, cap, abs);
        if (gp && !(w >> 32) && rel >= lo && rel < hi) add_landing(v, n, cap, rel);
    }
}

/* ---- building a procedure ------------------------------------------------------- */

static bool has_switch(const cfg_t *g)
{
    for (size_t k = 0; k < g->ninsns; k++) {
        const insn_t *in = &g->insns[k];
        if ((in->flags & IF_JUMP) && (in->flags & IF_INDIRECT) && !(in->flags & (IF_CALL | IF_RETURN)))
            return true;
    }
    return false;
}

static void index_edges(proc_t *pr)
{
    int nb = (int)pr->g.nblocks;
    pr->out_first = xcalloc((size_t)nb + 1, sizeof *pr->out_first);
    pr->out_n = xcalloc((size_t)nb + 1, sizeof *pr->out_n);
    pr->edge_order = xcalloc(pr->bl.nedges + 1, sizeof *pr->edge_order);
    for (size_t k = 0; k < pr->bl.nedges; k++)
        if (pr->bl.edges[k].from >= 0) pr->out_n[pr->bl.edges[k].from]++;
    for (int b = 1; b <= nb; b++) pr->out_first[b] = pr->out_first[b - 1] + pr->out_n[b - 1];
    int *fill = xcalloc((size_t)nb + 1, sizeof *fill);
    for (size_t k = 0; k < pr->bl.nedges; k++) {
        int b = pr->bl.edges[k].from;
        if (b >= 0) pr->edge_order[pr->out_first[b] + fill[b]++] = k;
    }
    free(fill);
    pr->last_pc = xcalloc((size_t)nb, sizeof *pr->last_pc);
    for (int b = 0; b < nb; b++) {
        const cfg_block_t *bk = &pr->g.blocks[b];
        pr->last_pc[b] = pr->g.insns[bk->first + bk->n - 1].pc;
    }
}

/* The CFG of [lo, hi) from guest memory, with landings if it has a switch. */
static void number_proc(paths_t *p, proc_t *pr, mem_t *mem)
{
    size_t size = (size_t)(pr->hi - pr->lo);
    if (!size || size > (64u << 20)) return;
    uint8_t *code = xcalloc(size, 1);
    size_t got = size;
    if (!read_code(p, mem, pr->lo, code, size))       /* up to the first unmapped byte */
        for (got = 0; got < size && read_code(p, mem, pr->lo + got, code + got, 1);) got++;
    if (!got || !cfg_build_blocks(p->isa, code, pr->lo, got, NULL, 0, &pr->g)) {
        free(code);
        return;
    }
    size_t n = 0, cap = 0;
    uint64_t *land = NULL;
    bool alpha = !strcmp(p->isa->name, "alpha");
    uint64_t gp = alpha ? alpha_gp(p, &pr->g) : 0;
    if (gp) add_landing(&land, &n, &cap, pr->lo + 8);   /* Alpha's same-gp entry (bsr f+8) */
    if (has_switch(&pr->g)) {
        word_landings(p, pr->lo, pr->lo + got, gp, &land, &n, &cap);
        if (!strcmp(p->isa->name, "rv64gc"))
            table_landings(p, &pr->g, mem, pr->lo, pr->lo + got, &land, &n, &cap);
    }
    if (n) {
        cfg_free(&pr->g);
        cfg_build_blocks(p->isa, code, pr->lo, got, land, n, &pr->g);
    }
    int *lb = xcalloc(n + 1, sizeof *lb);
    size_t nl = 0;
    for (size_t k = 0; k < n; k++)
        for (size_t b = 0; b < pr->g.nblocks; b++)
            if (pr->g.insns[pr->g.blocks[b].first].pc == land[k]) lb[nl++] = (int)b;
    pr->numbered = bl_number((int)pr->g.nblocks, pr->g.edges, pr->g.nedges, lb, nl, &pr->bl);
    free(lb);
    free(land);
    free(code);
    if (pr->numbered && pr->bl.overflow) pr->numbered = false;
    if (pr->numbered) index_edges(pr);
}

static proc_t *proc_new(paths_t *p, const symbol_t *s, mem_t *mem)
{
    proc_t *pr = xcalloc(1, sizeof *pr);
    pr->lo = s->addr;
    pr->hi = s->size ? s->addr + s->size : s->addr;
    if (!s->size) {                                  /* to the next symbol */
        const symbol_t *next = s + 1;
        if (next < p->st->syms + p->st->count) pr->hi = next->addr;
    }
    pr->name = xstrdup(s->name ? s->name : "?");
    pr->id = (int)p->nprocs;
    number_proc(p, pr, mem);
    if (p->nprocs == p->procs_cap)
        p->procs = xrealloc(p->procs, (p->procs_cap = p->procs_cap ? 2 * p->procs_cap : 64) *
                                          sizeof *p->procs);
    p->procs[p->nprocs++] = pr;
    return pr;
}

static void addr_insert(paths_t *p, proc_t *pr)
{
    if (2 * (p->nprocs + 1) > p->addr_cap) {
        size_t cap = p->addr_cap ? 2 * p->addr_cap : 256;
        proc_t **t = xcalloc(cap, sizeof *t);
        for (size_t k = 0; k < p->addr_cap; k++) {
            proc_t *x = p->by_addr[k];
            if (!x) continue;
            size_t h = hash64(x->lo) & (cap - 1);
            while (t[h]) h = (h + 1) & (cap - 1);
            t[h] = x;
        }
        free(p->by_addr);
        p->by_addr = t;
        p->addr_cap = cap;
    }
    size_t h = hash64(pr->lo) & (p->addr_cap - 1);
    while (p->by_addr[h]) h = (h + 1) & (p->addr_cap - 1);
    p->by_addr[h] = pr;
}

/* The procedure holding pc (built the first time), or NULL. */
static proc_t *proc_at(paths_t *p, mem_t *mem, uint64_t pc)
{
    const symbol_t *s = symtab_lookup(p->st, pc);
    if (!s) return NULL;
    if (p->addr_cap) {
        size_t h = hash64(s->addr) & (p->addr_cap - 1);
        for (proc_t *x; (x = p->by_addr[h]); h = (h + 1) & (p->addr_cap - 1))
            if (x->lo == s->addr) return pc < x->hi || x->hi == x->lo ? x : NULL;
    }
    proc_t *pr = proc_new(p, s, mem);
    addr_insert(p, pr);
    return pc < pr->hi || pr->hi == pr->lo ? pr : NULL;
}

/* The block starting at pc, -1 if none; *inside: the block holding pc. */
static int block_at(const proc_t *pr, uint64_t pc, int *inside)
{
    size_t lo = 0, hi = pr->g.ninsns;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (pr->g.insns[mid].pc < pc) lo = mid + 1;
        else hi = mid;
    }
    *inside = -1;
    if (lo >= pr->g.ninsns || pr->g.insns[lo].pc != pc) return -1;
    int b = (int)cfg_block_of(&pr->g, lo);
    *inside = b;
    return pr->g.blocks[b].first == lo ? b : -1;
}

static const bl_edge_t *out_edge(const proc_t *pr, int b, int to)
{
    for (int k = 0; k < pr->out_n[b]; k++) {
        const bl_edge_t *e = &pr->bl.edges[pr->edge_order[pr->out_first[b] + k]];
        if (e->to == to) return e;
    }
    return NULL;
}

/* ---- the path table -------------------------------------------------------------- */

static void table_grow(paths_t *p)
{
    size_t cap = p->slots_cap ? 2 * p->slots_cap : 1024;
    path_slot_t *t = xcalloc(cap, sizeof *t);
    for (size_t k = 0; k < cap; k++) t[k].proc = -1;
    for (size_t k = 0; k < p->slots_cap; k++) {
        if (p->slots[k].proc < 0) continue;
        size_t h = hash64(p->slots[k].sum * 31 + (uint64_t)p->slots[k].proc) & (cap - 1);
        while (t[h].proc >= 0) h = (h + 1) & (cap - 1);
        t[h] = p->slots[k];
    }
    free(p->slots);
    p->slots = t;
    p->slots_cap = cap;
}

static path_slot_t *table_slot(paths_t *p, int proc, uint64_t sum)
{
    if (2 * (p->slots_used + 1) > p->slots_cap) table_grow(p);
    size_t h = hash64(sum * 31 + (uint64_t)proc) & (p->slots_cap - 1);
    while (p->slots[h].proc >= 0) {
        if (p->slots[h].proc == proc && p->slots[h].sum == sum && p->slots[h].tid == p->tid)
            return &p->slots[h];
        h = (h + 1) & (p->slots_cap - 1);
    }
    p->slots_used++;
    p->slots[h] = (path_slot_t){ .proc = proc, .tid = p->tid, .sum = sum };
    return &p->slots[h];
}

/* ---- segments and paths ---------------------------------------------------------- */

typedef struct snap { uint64_t insts, cycles, misses; } snap_t;

static snap_t now(const paths_t *p, const cpu_t *c)
{
    snap_t s = { c->instret, p->cycles ? *p->cycles : 0, 0 };
    if (p->l1d) {
        cache_info_t ci;
        cache_info(p->l1d, &ci);
        s.misses = ci.misses;
    }
    return s;
}

/* Before the instruction just executed (control arrived unexpectedly: the
 * instruction is the new frame's); its cycles and misses are not known
 * apart and stay with the frame it left. */
static snap_t before(const paths_t *p, const cpu_t *c)
{
    snap_t s = { c->instret - 1, p->cycles ? *p->cycles : 0, 0 };
    if (p->l1d) {
        cache_info_t ci;
        cache_info(p->l1d, &ci);
        s.misses = ci.misses;
    }
    return s;
}

static void seg_begin(frame_t *f, snap_t s)
{
    f->running = true;
    f->s_insts = s.insts;
    f->s_cycles = s.cycles;
    f->s_misses = s.misses;
}

static void seg_pause(frame_t *f, snap_t s)
{
    if (f->running) {
        f->a_insts += s.insts - f->s_insts;
        f->a_cycles += s.cycles - f->s_cycles;
        f->a_misses += s.misses - f->s_misses;
    }
    f->running = false;
}

/* The frame's path leaves through a way out worth `exit_val` (BL_NONE:
 * none, the path is lost); the metrics start again. */
static void path_end(paths_t *p, frame_t *f, uint64_t exit_val, snap_t s)
{
    bool running = f->running;
    seg_pause(f, s);
    if (f->proc && f->synced && exit_val != BL_NONE) {
        path_slot_t *e = table_slot(p, f->proc->id, f->r + exit_val);
        e->count++;
        e->insts += f->a_insts;
        e->cycles += f->a_cycles;
        e->misses += f->a_misses;
    } else if (f->proc) {
        f->proc->lost++;
        f->proc->lost_insts += f->a_insts;
    } else {
        p->lost_unknown += f->a_insts;
    }
    f->a_insts = f->a_cycles = f->a_misses = 0;
    f->synced = false;
    if (running) seg_begin(f, s);
}

/* Val of the real edge block -> EXIT, or BL_NONE. */
static uint64_t exit_edge_val(const frame_t *f)
{
    if (!f->proc || !f->proc->numbered || f->block < 0) return BL_NONE;
    const bl_edge_t *e = out_edge(f->proc, f->block, CFG_EXIT);
    return e ? e->val : BL_NONE;
}

/* Start a frame at pc: a numbered path when pc is the procedure's entry. */
static void frame_enter(paths_t *p, frame_t *f, cpu_t *c, uint64_t pc, snap_t s)
{
    proc_t *pr = proc_at(p, c->mem, pc);
    memset(f, 0, sizeof *f);
    f->key_sp = c->reg[p->sp_reg];
    f->block = -1;
    if (pr && pr->numbered) {
        int inside;
        block_at(pr, pc, &inside);
        f->proc = pr;
        f->block = inside;
        int start = block_at(pr, pc, &inside);          /* the entry, or another way in */
        uint64_t r = pc == pr->lo ? pr->bl.entry_val : start >= 0 ? pr->bl.start_val[start] : BL_NONE;
        f->synced = r != BL_NONE;
        f->r = f->synced ? r : 0;
    } else {
        f->proc = pr && !pr->numbered ? NULL : pr;
    }
    seg_begin(f, s);
}

static frame_t *push(paths_t *p)
{
    if (p->depth == p->frames_cap)
        p->frames = xrealloc(p->frames, (p->frames_cap = p->frames_cap ? 2 * p->frames_cap : 64) *
                                            sizeof *p->frames);
    return &p->frames[p->depth++];
}

static frame_t *top(paths_t *p) { return p->depth ? &p->frames[p->depth - 1] : NULL; }

/* Drop the top frame; its open path is lost. */
static void abandon(paths_t *p, snap_t s)
{
    path_end(p, top(p), BL_NONE, s);
    p->depth--;
}

static bool in_proc(const frame_t *f, uint64_t pc)
{
    return f->proc && pc >= f->proc->lo && pc < f->proc->hi;
}

/* Control arrived at pc where the tracker did not expect it. */
static void resync(paths_t *p, cpu_t *c, uint64_t pc, uint64_t expected, snap_t s)
{
    uint64_t sp = c->reg[p->sp_reg];
    while (p->depth && top(p)->key_sp < sp) abandon(p, s);     /* frames sp has left */
    proc_t *pr = proc_at(p, c->mem, pc);
    bool entry = pr && pc == pr->lo;
    size_t k = p->depth;
    while (k && !(in_proc(&p->frames[k - 1], pc) && p->frames[k - 1].resume == pc)) k--;
    if (!k && !entry) {                                         /* a frame of this procedure */
        k = p->depth;
        while (k && !in_proc(&p->frames[k - 1], pc)) k--;
    }
    if (k) {
        while (p->depth > k) abandon(p, s);
        frame_t *f = top(p);
        if (f->resume != pc) {                                  /* re-entered mid-path */
            path_end(p, f, BL_NONE, s);
            int inside;
            block_at(f->proc, pc, &inside);
            f->block = inside;
        }
        f->resume = 0;
        seg_begin(f, s);
        return;
    }
    frame_t *f = top(p);                                       /* a new activation */
    if (f) {
        f->resume = expected;
        seg_pause(f, s);
    }
    frame_enter(p, push(p), c, pc, s);
}

/* The block's way to `next` within the frame's procedure: along a real
 * edge, around a back edge (a path ends, one starts at the loop head), or
 * out through the block's edge to EXIT (a return elsewhere, a jump out of
 * the procedure, a switch whose landing starts a path). */
static void transition(paths_t *p, frame_t *f, uint64_t next, snap_t s)
{
    proc_t *pr = f->proc;
    int b = f->block, inside = -1;
    int w = next >= pr->lo && next < pr->hi ? block_at(pr, next, &inside) : -1;
    const bl_edge_t *e = w >= 0 ? out_edge(pr, b, w) : NULL;
    if (e && !e->back) {
        f->r += e->val;
        f->block = w;
        return;
    }
    uint64_t start;
    if (e) {
        path_end(p, f, pr->bl.exit_val[b], s);
        start = pr->bl.start_val[w];
    } else {
        path_end(p, f, exit_edge_val(f), s);
        if (inside < 0) {                                       /* left the procedure */
            f->block = -1;
            return;
        }
        start = w >= 0 ? pr->bl.start_val[w] : BL_NONE;         /* a landing */
        w = inside;
    }
    f->block = w;
    f->synced = start != BL_NONE;
    f->r = f->synced ? start : 0;
}

/* A call: the caller pauses (after moving on if the call ends its block). */
static void do_call(paths_t *p, cpu_t *c, frame_t *f, const insn_t *in, uint64_t pc, snap_t s)
{
    uint64_t ret = pc + in->len;
    if (f->proc && f->block >= 0 && pc == f->proc->last_pc[f->block]) transition(p, f, ret, s);
    f->resume = ret;
    seg_pause(f, s);
    frame_enter(p, push(p), c, c->pc, s);
}

/* A return (or an indirect jump to where the caller resumes: Alpha's
 * millicode returns through t9): the path ends; the caller resumes if it
 * is where control goes. */
static bool do_return(paths_t *p, frame_t *f, uint64_t next, snap_t s)
{
    path_end(p, f, exit_edge_val(f), s);
    p->depth--;
    frame_t *caller = top(p);
    if (!caller || caller->resume != next) return false;
    caller->resume = 0;
    seg_begin(caller, s);
    return true;
}

void paths_step_slow(paths_t *p, cpu_t *c, const insn_t *in, uint64_t pc)
{
    uint64_t next = c->pc;
    bool consistent = true;
    if (!p->tid && c->sys) p->tid = c->sys->tid;
    /* The snapshot includes this instruction: it belongs to the path it ends. */
    if (pc != p->hot.expect || !p->depth) resync(p, c, pc, p->hot.expect, before(p, c));
    frame_t *f = top(p);
    if (in->flags & IF_CALL) {
        do_call(p, c, f, in, pc, now(p, c));
    } else if ((in->flags & IF_RETURN) || ((in->flags & IF_INDIRECT) && p->depth >= 2 &&
                                           next == p->frames[p->depth - 2].resume)) {
        consistent = do_return(p, f, next, now(p, c));
    } else if (f->proc && f->block >= 0 && pc == f->proc->last_pc[f->block]) {
        transition(p, f, next, now(p, c));
        if (f->block < 0) {                                     /* jumped out: a tail call */
            snap_t s = now(p, c);
            uint64_t key = f->key_sp;
            frame_enter(p, f, c, next, s);
            f->key_sp = key;
        }
    }
    f = top(p);
    p->hot.expect = consistent ? next : ~0ull;
    p->hot.block_last = f && f->proc && f->block >= 0 ? f->proc->last_pc[f->block] : 0;
}

/* ---- setup, end ------------------------------------------------------------------ */

paths_t *paths_new(const isa_t *isa, symtab_t *st, const char *exe, uint64_t bias)
{
    paths_t *p = xcalloc(1, sizeof *p);
    p->isa = isa;
    p->st = st;
    p->sp_reg = strcmp(isa->name, "alpha") ? 2 : 30;
    p->hot.expect = ~0ull;
    p->bias = bias;
    find_words(p, exe);
    table_grow(p);
    return p;
}

void paths_set_timing(paths_t *p, const uint64_t *cycles, const struct cache *l1d)
{
    p->cycles = cycles;
    p->l1d = l1d;
}

/* ---- threads --------------------------------------------------------------------- */

static parked_thread_t running_thread(const paths_t *p)
{
    return (parked_thread_t){ .tid = p->tid, .frames = p->frames, .depth = p->depth,
                              .frames_cap = p->frames_cap, .hot = p->hot };
}

static void make_running(paths_t *p, const parked_thread_t *t)
{
    p->tid = t->tid;
    p->frames = t->frames;
    p->depth = t->depth;
    p->frames_cap = t->frames_cap;
    p->hot = t->hot;
}

void paths_switch_thread(paths_t *p, cpu_t *c, uint64_t from, uint64_t to)
{
    if (!p->tid) p->tid = from;
    if (to == p->tid) return;
    snap_t s = now(p, c);
    frame_t *f = top(p);
    bool was_running = f && f->running;
    if (f) seg_pause(f, s);
    size_t k = 0;
    while (k < p->nparked && p->parked[k].tid != to) k++;
    parked_thread_t next = k < p->nparked ? p->parked[k]
                                          : (parked_thread_t){ .tid = to, .hot.expect = ~0ull };
    if (k == p->nparked) {
        if (p->nparked == p->parked_cap)
            p->parked = xrealloc(p->parked, (p->parked_cap = p->parked_cap ? 2 * p->parked_cap : 8) *
                                                sizeof *p->parked);
        p->nparked++;
    }
    p->parked[k] = running_thread(p);
    p->parked[k].top_running = was_running;
    make_running(p, &next);
    if ((f = top(p)) && next.top_running) seg_begin(f, s);
}

bool paths_threaded(const paths_t *p) { return p->nparked > 0; }

/* Close a thread's open frames at the end of the run. */
static void finish_frames(paths_t *p, snap_t s)
{
    while (p->depth) {
        frame_t *f = top(p);
        seg_pause(f, s);
        if (f->proc) {
            f->proc->unfinished++;
            f->proc->lost_insts += f->a_insts;
        } else {
            p->lost_unknown += f->a_insts;
        }
        p->depth--;
    }
}

void paths_finish(paths_t *p, cpu_t *c)
{
    snap_t s = now(p, c);
    finish_frames(p, s);
    for (size_t k = 0; k < p->nparked; k++) {  /* the parked ones, paused already */
        parked_thread_t run = running_thread(p);
        make_running(p, &p->parked[k]);
        finish_frames(p, s);
        p->parked[k] = running_thread(p);
        make_running(p, &run);
    }
}

void paths_free(paths_t *p)
{
    if (!p) return;
    for (size_t k = 0; k < p->nprocs; k++) {
        proc_t *pr = p->procs[k];
        cfg_free(&pr->g);
        bl_number_free(&pr->bl);
        free(pr->out_first);
        free(pr->out_n);
        free(pr->edge_order);
        free(pr->last_pc);
        free(pr->name);
        free(pr);
    }
    free(p->procs);
    free(p->by_addr);
    free(p->frames);
    for (size_t k = 0; k < p->nparked; k++) free(p->parked[k].frames);
    free(p->parked);
    free(p->slots);
    free(p->landings);
    free(p);
}

/* ---- results --------------------------------------------------------------------- */

static int cmp_rows(const void *a, const void *b)
{
    const path_row_t *x = a, *y = b;
    if (x->insts != y->insts) return x->insts < y->insts ? 1 : -1;
    if (x->entry != y->entry) return x->entry < y->entry ? -1 : 1;
    if (x->sum != y->sum) return x->sum < y->sum ? -1 : 1;
    return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static const proc_t *proc_of_row(const paths_t *p, const path_row_t *r)
{
    if (!p->addr_cap) return NULL;
    size_t h = hash64(r->entry) & (p->addr_cap - 1);
    for (const proc_t *x; (x = p->by_addr[h]); h = (h + 1) & (p->addr_cap - 1))
        if (x->lo == r->entry) return x;
    return NULL;
}

/* Instructions on path `sum` of pr, counted statically. */
static uint64_t path_length(const proc_t *pr, uint64_t sum)
{
    int blocks[4096];
    bool ps, pe;
    size_t n = bl_regenerate(&pr->bl, sum, blocks, 4096, &ps, &pe);
    uint64_t len = 0;
    for (size_t k = 0; k < n && k < 4096; k++) len += pr->g.blocks[blocks[k]].n;
    return len;
}

path_row_t *paths_rows(const paths_t *p, size_t *n)
{
    path_row_t *rows = xcalloc(p->slots_used + 1, sizeof *rows);
    size_t m = 0;
    for (size_t k = 0; k < p->slots_cap; k++) {
        const path_slot_t *s = &p->slots[k];
        if (s->proc < 0) continue;
        const proc_t *pr = p->procs[s->proc];
        rows[m++] = (path_row_t){ pr->name, pr->lo, s->sum, path_length(pr, s->sum), s->count,
                                  s->insts, s->cycles, s->misses, s->tid };
    }
    qsort(rows, m, sizeof *rows, cmp_rows);
    *n = m;
    return rows;
}


void paths_describe(const paths_t *p, const path_row_t *r, char *buf, size_t len)
{
    const proc_t *pr = proc_of_row(p, r);
    buf[0] = 0;
    if (!pr) return;
    int blocks[256];
    bool ps, pe;
    size_t n = bl_regenerate(&pr->bl, r->sum, blocks, 256, &ps, &pe), at = 0;
    if (ps && at < len) at += (size_t)snprintf(buf + at, len - at, "^");
    for (size_t k = 0; k < n && k < 256 && at < len; k++) {
        const cfg_block_t *b = &pr->g.blocks[blocks[k]];
        at += (size_t)snprintf(buf + at, len - at, "%s0x%" PRIx64 "-0x%" PRIx64, k ? " " : "",
                               pr->g.insns[b->first].pc, pr->g.insns[b->first + b->n - 1].pc);
    }
    if (pe && at < len) snprintf(buf + at, len - at, "$");
}

void paths_totals(const paths_t *p, paths_totals_t *t)
{
    memset(t, 0, sizeof *t);
    t->timed = p->cycles != NULL;
    for (size_t k = 0; k < p->slots_cap; k++) {
        if (p->slots[k].proc < 0) continue;
        t->paths += p->slots[k].count;
        t->insts += p->slots[k].insts;
        t->distinct++;
    }
    for (size_t k = 0; k < p->nprocs; k++) {
        t->lost += p->procs[k]->lost;
        t->lost_insts += p->procs[k]->lost_insts;
        t->unfinished += p->procs[k]->unfinished;
        t->procs_unnumbered += !p->procs[k]->numbered;
    }
    t->lost_insts += p->lost_unknown;
    t->procs = p->nprocs;
}

static bool executed(const paths_t *p, int proc, uint64_t sum)
{
    if (!p->slots_cap) return false;
    size_t h = hash64(sum * 31 + (uint64_t)proc) & (p->slots_cap - 1);
    for (; p->slots[h].proc >= 0; h = (h + 1) & (p->slots_cap - 1))
        if (p->slots[h].proc == proc && p->slots[h].sum == sum) return true;
    return false;
}

/* Rows for the paths PP on DISE counted that never ran (count 0): a
 * disagreement to see, or a poisoned path register (a number past the
 * procedure's paths, blocks empty). */
static void write_dise_only(const paths_t *p, FILE *out)
{
    profile_member_t *m;
    size_t n = profile_sorted(p->dise, &m);
    char desc[4096];
    for (size_t k = 0; k < n; k++) {
        path_row_t r = { .entry = m[k].key, .sum = m[k].key2 };
        const proc_t *pr = proc_of_row(p, &r);
        if (pr && executed(p, pr->id, r.sum)) continue;
        r.proc = pr ? pr->name : "?";
        r.length = pr && pr->numbered && r.sum < pr->bl.npaths ? path_length(pr, r.sum) : 0;
        paths_describe(p, &r, desc, sizeof desc);
        fprintf(out, "%s\t0x%" PRIx64 "\t%" PRIu64 "\t%" PRIu64 "\t0\t0\t0\t0\t%s\t%" PRIu64,
                r.proc, r.entry, r.sum, r.length, desc, m[k].weight);
        if (p->dise_cycles)
            fprintf(out, "\t%" PRIu64 "\t%" PRIu64, profile_weight(p->dise_cycles, r.entry, r.sum),
                    profile_weight(p->dise_misses, r.entry, r.sum));
        fprintf(out, "%s\n", paths_threaded(p) ? "\t" : "");
    }
    free(m);
}

void paths_write_tsv(const paths_t *p, FILE *out)
{
    size_t n;
    path_row_t *rows = paths_rows(p, &n);
    char desc[4096];
    bool threaded = paths_threaded(p);
    fprintf(out, "procedure\tentry\tpath\tlength\tcount\tinsts\tcycles\tl1d_misses\tblocks%s%s\n",
            p->dise ? (p->dise_cycles ? "\tdise\tdise_cycles\tdise_misses" : "\tdise") : "",
            threaded ? "\tthread" : "");
    for (size_t k = 0; k < n; k++) {
        paths_describe(p, &rows[k], desc, sizeof desc);
        fprintf(out, "%s\t0x%" PRIx64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
                "\t%" PRIu64 "\t%s", rows[k].proc, rows[k].entry, rows[k].sum, rows[k].length,
                rows[k].count, rows[k].insts, rows[k].cycles, rows[k].misses, desc);
        if (p->dise) fprintf(out, "\t%" PRIu64, profile_weight(p->dise, rows[k].entry, rows[k].sum));
        if (p->dise && p->dise_cycles)
            fprintf(out, "\t%" PRIu64 "\t%" PRIu64, profile_weight(p->dise_cycles, rows[k].entry, rows[k].sum),
                    profile_weight(p->dise_misses, rows[k].entry, rows[k].sum));
        if (threaded) fprintf(out, "\t%" PRIu64, rows[k].tid);
        fputc('\n', out);
    }
    free(rows);
    if (p->dise) write_dise_only(p, out);
}

typedef struct proc_sum { const char *name; uint64_t entry, insts, count; size_t first, n; } proc_sum_t;

static int cmp_proc_sum(const void *a, const void *b)
{
    const proc_sum_t *x = a, *y = b;
    if (x->insts != y->insts) return x->insts < y->insts ? 1 : -1;
    return x->entry < y->entry ? -1 : x->entry > y->entry;
}

static int cmp_rows_by_proc(const void *a, const void *b)
{
    const path_row_t *x = a, *y = b;
    if (x->entry != y->entry) return x->entry < y->entry ? -1 : 1;
    return cmp_rows(a, b);
}

/* Per procedure: its rows (sorted by weight) and totals. */
static proc_sum_t *group_rows(path_row_t *rows, size_t n, size_t *nprocs)
{
    qsort(rows, n, sizeof *rows, cmp_rows_by_proc);
    proc_sum_t *ps = xcalloc(n + 1, sizeof *ps);
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        if (!m || ps[m - 1].entry != rows[k].entry)
            ps[m++] = (proc_sum_t){ rows[k].proc, rows[k].entry, 0, 0, k, 0 };
        ps[m - 1].insts += rows[k].insts;
        ps[m - 1].count += rows[k].count;
        ps[m - 1].n++;
    }
    qsort(ps, m, sizeof *ps, cmp_proc_sum);
    *nprocs = m;
    return ps;
}

static void report_path(const paths_t *p, FILE *out, const path_row_t *r, srcline_t *src,
                        bool timed, const char *indent)
{
    char desc[4096];
    paths_describe(p, r, desc, sizeof desc);
    fprintf(out, "%s    path %-6" PRIu64 " %12" PRIu64 " times %14" PRIu64 " insts", indent, r->sum,
            r->count, r->insts);
    if (timed) fprintf(out, " %14" PRIu64 " cycles %10" PRIu64 " l1d misses", r->cycles, r->misses);
    fprintf(out, "\n%s      blocks %s\n", indent, desc);
    const char *file;
    int line;
    const proc_t *pr = proc_of_row(p, r);
    int blocks[64];
    bool ps, pe;
    size_t nb = pr ? bl_regenerate(&pr->bl, r->sum, blocks, 64, &ps, &pe) : 0;
    if (nb > 64) nb = 64;
    if (!src || !nb) return;
    fprintf(out, "%s      lines ", indent);
    int last = -1;
    for (size_t k = 0; k < nb; k++) {
        uint64_t a = pr->g.insns[pr->g.blocks[blocks[k]].first].pc;
        if (srcline_at(src, a, &file, &line) && line != last) {
            const char *base = strrchr(file, '/');
            fprintf(out, "%s%s:%d", last < 0 ? "" : " ", base ? base + 1 : file, line);
            last = line;
        }
    }
    fprintf(out, "\n");
}

/* The hottest procedures of rows[0..n-1] and their hottest paths. */
static void report_procs(const paths_t *p, FILE *out, path_row_t *rows, size_t n, srcline_t *src,
                         size_t top_n, bool timed, const char *indent)
{
    size_t np;
    proc_sum_t *ps = group_rows(rows, n, &np);
    for (size_t k = 0; k < np && k < top_n; k++) {
        path_row_t key = { .entry = ps[k].entry };
        const proc_t *pr = proc_of_row(p, &key);
        fprintf(out, "%s  %s (0x%" PRIx64 "): %zu paths, %" PRIu64 " executions, %" PRIu64
                " insts; %" PRIu64 " lost, %" PRIu64 " unfinished\n", indent, ps[k].name,
                ps[k].entry, ps[k].n, ps[k].count, ps[k].insts, pr ? pr->lost : 0,
                pr ? pr->unfinished : 0);
        for (size_t j = 0; j < ps[k].n && j < top_n; j++)
            report_path(p, out, &rows[ps[k].first + j], src, timed, indent);
    }
    free(ps);
}

static int cmp_rows_by_thread(const void *a, const void *b)
{
    const path_row_t *x = a, *y = b;
    if (x->tid != y->tid) return x->tid < y->tid ? -1 : 1;
    return cmp_rows(a, b);
}

/* Per thread, in tid order: its executions, instructions and procedures. */
static void report_threads(const paths_t *p, FILE *out, path_row_t *rows, size_t n,
                           srcline_t *src, size_t top_n, bool timed)
{
    qsort(rows, n, sizeof *rows, cmp_rows_by_thread);
    fprintf(out, "  threads: %zu (lost and unfinished counts below are the process's)\n",
            p->nparked + 1);
    for (size_t first = 0, end; first < n; first = end) {
        uint64_t count = 0, insts = 0;
        for (end = first; end < n && rows[end].tid == rows[first].tid; end++) {
            count += rows[end].count;
            insts += rows[end].insts;
        }
        fprintf(out, "  thread %" PRIu64 ": %" PRIu64 " paths executed, %zu distinct, %" PRIu64
                " instructions on paths\n", rows[first].tid, count, end - first, insts);
        report_procs(p, out, rows + first, end - first, src, top_n, timed, "  ");
    }
}

void paths_report(const paths_t *p, FILE *out, const char *exe, size_t top_n)
{
    paths_totals_t t;
    paths_totals(p, &t);
    size_t n, np;
    path_row_t *rows = paths_rows(p, &n);
    free(group_rows(rows, n, &np));
    srcline_t *src = exe ? srcline_open(exe) : NULL;
    fprintf(out, "Path profile (Ball-Larus acyclic paths, back edges cut)\n");
    fprintf(out, "  %" PRIu64 " paths executed, %" PRIu64 " distinct%s, in %zu procedures; "
            "%" PRIu64 " program instructions on paths\n", t.paths, t.distinct,
            paths_threaded(p) ? " (per thread)" : "", np, t.insts);
    fprintf(out, "  lost paths %" PRIu64 " (%" PRIu64 " instructions off numbered paths), "
            "unfinished at exit %" PRIu64 ", procedures without numbering %" PRIu64 "\n",
            t.lost, t.lost_insts, t.unfinished, t.procs_unnumbered);
    if (paths_threaded(p)) report_threads(p, out, rows, n, src, top_n, t.timed);
    else report_procs(p, out, rows, n, src, top_n, t.timed, "");
    if (src) srcline_close(src);
    free(rows);
}

/* ---- export ---------------------------------------------------------------------- */

bool paths_export(const paths_t *p, const char *format, const char *file, const char *exe,
                  char *err, size_t errlen)
{
    export_format_t fmt;
    if (!export_format_by_name(format, &fmt))
        return set_error(err, errlen, "unknown export format '%s' (callgrind, pprof or folded)",
                         format);
    static const char *const events[] = { "insts", "paths", "cycles", "l1d_misses" };
    export_profile_t *x = export_new("hps-sim --paths", 4, events, NULL);
    export_add_comment(x, "Ball-Larus paths: each procedure's paths are its callees 'NAME path N'");
    size_t n;
    path_row_t *rows = paths_rows(p, &n);
    for (size_t k = 0; k < n; k++) {
        const proc_t *pr = proc_of_row(p, &rows[k]);
        int first;
        bool ps, pe;
        uint64_t at = pr && bl_regenerate(&pr->bl, rows[k].sum, &first, 1, &ps, &pe)
                    ? pr->g.insns[pr->g.blocks[first].first].pc : rows[k].entry;
        char name[512];
        snprintf(name, sizeof name, "%s path %" PRIu64, rows[k].proc, rows[k].sum);
        char thread[32];
        snprintf(thread, sizeof thread, "thread %" PRIu64, rows[k].tid);
        uint32_t frames[3];
        size_t d = 0;
        if (paths_threaded(p))                  /* a root frame per thread */
            frames[d++] = export_frame(x, &(export_frame_t){ .function = thread, .image = exe });
        frames[d++] = export_frame(x, &(export_frame_t){ .function = rows[k].proc, .image = exe,
                                                         .address = rows[k].entry,
                                                         .entry = rows[k].entry });
        frames[d++] = export_frame(x, &(export_frame_t){ .function = name, .image = exe,
                                                         .address = at, .entry = at });
        uint64_t v[4] = { rows[k].insts, rows[k].count, rows[k].cycles, rows[k].misses };
        export_add_stack(x, frames, d, v);
        export_add_calls(x, frames, d, rows[k].count);
    }
    free(rows);
    bool ok = export_write(x, fmt, 0, file, err, errlen);
    export_free(x);
    return ok;
}

/* ---- PP on DISE ------------------------------------------------------------------- */

void paths_set_dise(paths_t *p, const profile_t *samples) { p->dise = samples; }

void paths_set_dise_metrics(paths_t *p, const profile_t *cycles, const profile_t *misses)
{
    p->dise_cycles = cycles;
    p->dise_misses = misses;
}

/* The exact profile of one metric as (entry, path) -> its sum. */
static profile_t *exact_metric(const paths_t *p, bool misses)
{
    profile_t *x = profile_new();
    for (size_t k = 0; k < p->slots_cap; k++)
        if (p->slots[k].proc >= 0)
            profile_add(x, p->procs[p->slots[k].proc]->lo, p->slots[k].sum,
                        misses ? p->slots[k].misses : p->slots[k].cycles);
    return x;
}

/* The guest's readings against this run's exact per-path metrics. */
static void report_dise_metrics(const paths_t *p, FILE *out)
{
    profile_t *xc = exact_metric(p, false), *xm = exact_metric(p, true);
    uint64_t gc = profile_total(p->dise_cycles), gm = profile_total(p->dise_misses);
    uint64_t ec = profile_total(xc), em = profile_total(xm);
    fprintf(out, "  path metrics the guest read (hps.rdpmc at path boundaries, hps-pp-acf --metrics): "
            "%" PRIu64 " cycles, %" PRIu64 " L1D misses; the exact recorder's in this run %" PRIu64
            " and %" PRIu64 " (x%.3f, x%.3f: the handlers' own cost is on the exact paths, not on the "
            "guest's)\n", gc, gm, ec, em, gc ? (double)ec / (double)gc : 0.0,
            gm ? (double)em / (double)gm : 0.0);
    fprintf(out, "  per path, top-90%% overlap of the guest's and the exact metrics: cycles %.2f%%, "
            "L1D misses %.2f%%\n", profile_accuracy(p->dise_cycles, xc, 0.9, true),
            profile_accuracy(p->dise_misses, xm, 0.9, true));
    profile_free(xc);
    profile_free(xm);
}

/* The exact profile as (entry, path) -> executions. */
static profile_t *exact_profile(const paths_t *p)
{
    profile_t *x = profile_new();
    for (size_t k = 0; k < p->slots_cap; k++)
        if (p->slots[k].proc >= 0)
            profile_add(x, p->procs[p->slots[k].proc]->lo, p->slots[k].sum, p->slots[k].count);
    return x;
}

bool paths_dise_score(const paths_t *p, paths_dise_score_t *sc)
{
    memset(sc, 0, sizeof *sc);
    if (!p->dise) return false;
    profile_t *exact = exact_profile(p), *numbered = profile_new();
    profile_member_t *m;
    size_t n = profile_sorted(p->dise, &m);
    for (size_t k = 0; k < n; k++) {
        path_row_t key = { .entry = m[k].key };
        const proc_t *pr = proc_of_row(p, &key);
        if (!pr || !pr->numbered || m[k].key2 >= pr->bl.npaths) {
            sc->lost += m[k].weight;                 /* poisoned: a path that never ended */
            continue;
        }
        profile_add(numbered, m[k].key, m[k].key2, m[k].weight);
        sc->samples += m[k].weight;
        sc->distinct++;
    }
    free(m);
    n = profile_sorted(exact, &m);
    for (size_t k = 0; k < n; k++)
        if (profile_weight(numbered, m[k].key, m[k].key2) == m[k].weight) sc->equal++;
    free(m);
    sc->exact_distinct = profile_members(exact);
    sc->exact_total = profile_total(exact);
    sc->accuracy = profile_accuracy(numbered, exact, 0.9, true);
    profile_free(numbered);
    profile_free(exact);
    return true;
}

void paths_report_dise(const paths_t *p, FILE *out)
{
    paths_dise_score_t sc;
    if (!paths_dise_score(p, &sc)) return;
    fprintf(out, "PP on DISE: %" PRIu64 " path samples of %" PRIu64 " distinct paths (%" PRIu64
            " more ended off numbered paths); exact: %" PRIu64 " executions of %" PRIu64 " paths\n",
            sc.samples, sc.distinct, sc.lost, sc.exact_total, sc.exact_distinct);
    fprintf(out, "  %" PRIu64 " of the %" PRIu64 " exact paths have their exact count; accuracy "
            "(top-90%% overlap of path executions) %.2f%%\n", sc.equal, sc.exact_distinct, sc.accuracy);
    if (p->dise_cycles && p->cycles) report_dise_metrics(p, out);
}

/* ---- procedures for the ACF generator ---------------------------------------------- */

paths_t *paths_new_file(const isa_t *isa, struct symtab *st, const char *exe)
{
    paths_t *p = paths_new(isa, st, exe, 0);
    p->exe = exe;
    return p;
}

bool paths_procedure(paths_t *p, uint64_t entry, const cfg_t **g, const bl_number_t **bl)
{
    proc_t *pr = proc_at(p, NULL, entry);
    if (!pr || !pr->numbered || pr->lo != entry) return false;
    *g = &pr->g;
    *bl = &pr->bl;
    return true;
}
