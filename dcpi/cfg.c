/*
 * cfg.c - a procedure's control-flow graph and its frequency equivalence
 * classes (cfg.h).
 */
#include "cfg.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "jumptab.h"
#include "util.h"

/* ---- decoding and blocks ------------------------------------------------------ */

static size_t decode_all(const isa_t *isa, const uint8_t *code, uint64_t start, size_t size,
                         insn_t **out)
{
    size_t n = 0, cap = 64;
    insn_t *v = xcalloc(cap, sizeof *v);
    for (uint64_t pc = start; pc < start + size;) {
        size_t left = (size_t)(start + size - pc), avail = left < 4 ? left : 4;
        if (n == cap) v = xrealloc(v, (cap *= 2) * sizeof *v);
        if (!isa->decode(pc, code + (pc - start), avail, &v[n]) || !v[n].len) break;
        pc += v[n++].len;
    }
    *out = v;
    return n;
}

static bool is_transfer(const insn_t *in)
{
    return (in->flags & (IF_BRANCH | IF_JUMP | IF_RETURN)) && !(in->flags & IF_CALL);
}

long cfg_insn_at(const cfg_t *g, uint64_t pc)
{
    size_t lo = 0, hi = g->ninsns;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (g->insns[mid].pc < pc) lo = mid + 1;
        else hi = mid;
    }
    return lo < g->ninsns && g->insns[lo].pc == pc ? (long)lo : -1;
}

static void split_blocks(cfg_t *g, const uint64_t *extra, size_t nextra)
{
    bool *leader = xcalloc(g->ninsns + 1, sizeof *leader);
    leader[0] = true;
    for (size_t k = 0; k < nextra; k++) {
        long t = cfg_insn_at(g, extra[k]);
        if (t >= 0) leader[t] = true;
    }
    for (size_t k = 0; k < g->ninsns; k++) {
        const insn_t *in = &g->insns[k];
        if (!is_transfer(in)) continue;
        leader[k + 1] = true;
        long t = (in->flags & IF_DIRECT) ? cfg_insn_at(g, in->target) : -1;
        if (t >= 0) leader[t] = true;
    }
    g->blocks = xcalloc(g->ninsns, sizeof *g->blocks);
    for (size_t k = 0; k < g->ninsns; k++) {
        if (leader[k]) g->blocks[g->nblocks++] = (cfg_block_t){ .first = k };
        g->blocks[g->nblocks - 1].n++;
    }
    free(leader);
}

size_t cfg_block_of(const cfg_t *g, size_t k)
{
    size_t lo = 0, hi = g->nblocks;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (g->blocks[mid].first <= k) lo = mid;
        else hi = mid;
    }
    return lo;
}

static void add_edge(cfg_t *g, size_t *cap, int from, int to)
{
    if (g->nedges == *cap) g->edges = xrealloc(g->edges, (*cap = *cap ? 2 * *cap : 16) *
                                                             sizeof *g->edges);
    g->edges[g->nedges++] = (cfg_edge_t){ from, to, -1 };
}

/* Where control goes to pc: its block, or EXIT when outside. */
static int block_at(const cfg_t *g, uint64_t pc)
{
    long k = cfg_insn_at(g, pc);
    return k < 0 ? CFG_EXIT : (int)cfg_block_of(g, (size_t)k);
}

/* Whether an indirect jump (not a return, not a call) leaves the
 * procedure by the ISA's calling convention: on Alpha, a procedure is
 * entered with its address in pv ($27), so a jump through pv is a tail
 * call (gcc's `jmp $31,($27)` after loading pv from the GOT); a switch
 * jumps through a temporary.  (These tail calls made 5-40 procedures of
 * each Alpha workload "missing edges", a class per block: _int_free among
 * them.)  RISC-V has no such register: its tail calls through a pointer
 * are a jr like a switch's. */
enum { ALPHA_PV = 27 };
static bool tail_call(const isa_t *isa, const insn_t *jump)
{
    return isa->elf_machine == EM_ALPHA && jump->rs1 == ALPHA_PV;
}

/* A switch: the indirect jump at instruction `insn`, its table, and the
 * targets read from it (n = 0: not read). */
typedef struct cfg_switch {
    size_t insn;
    jumptab_t table;
    bool found;
    uint64_t *targets;
    size_t n;
} cfg_switch_t;

static const cfg_switch_t *switch_of(const cfg_switch_t *sw, size_t nsw, size_t insn)
{
    for (size_t k = 0; k < nsw; k++)
        if (sw[k].insn == insn) return sw[k].n ? &sw[k] : NULL;
    return NULL;
}

/* Whether instruction `in` is a switch's jump: indirect, not a call, a
 * return or a tail call. */
static bool is_switch(const isa_t *isa, const insn_t *in)
{
    return is_transfer(in) && !(in->flags & (IF_RETURN | IF_DIRECT)) && !tail_call(isa, in);
}

static void link_blocks(cfg_t *g, const isa_t *isa, const cfg_switch_t *sw, size_t nsw)
{
    size_t cap = 0;
    add_edge(g, &cap, CFG_ENTRY, 0);
    for (size_t b = 0; b < g->nblocks; b++) {
        size_t k = g->blocks[b].first + g->blocks[b].n - 1;
        const insn_t *last = &g->insns[k];
        int next = b + 1 < g->nblocks ? (int)b + 1 : CFG_EXIT;
        const cfg_switch_t *s = is_switch(isa, last) ? switch_of(sw, nsw, k) : NULL;
        if (!is_transfer(last)) {
            add_edge(g, &cap, (int)b, next);
        } else if (s) {
            for (size_t t = 0; t < s->n; t++) add_edge(g, &cap, (int)b, block_at(g, s->targets[t]));
        } else if (is_switch(isa, last)) {
            g->missing_edges = true;                 /* a switch: targets unknown */
            add_edge(g, &cap, (int)b, CFG_EXIT);
        } else if (!(last->flags & IF_DIRECT)) {
            add_edge(g, &cap, (int)b, CFG_EXIT);     /* a return or a tail call */
        } else {
            add_edge(g, &cap, (int)b, block_at(g, last->target));
            if (last->flags & IF_BRANCH) add_edge(g, &cap, (int)b, next);
        }
    }
}

/* ---- liveness -------------------------------------------------------------------- */

static void mark_live(cfg_t *g)
{
    size_t nb = g->nblocks;
    bool *fwd = xcalloc(nb + 1, 1), *bwd = xcalloc(nb + 1, 1);
    for (bool changed = true; changed;) {
        changed = false;
        for (size_t e = 0; e < g->nedges; e++) {
            const cfg_edge_t *x = &g->edges[e];
            bool from_fwd = x->from == CFG_ENTRY || (x->from >= 0 && fwd[x->from]);
            bool to_bwd = x->to == CFG_EXIT || (x->to >= 0 && bwd[x->to]);
            if (from_fwd && x->to >= 0 && !fwd[x->to]) fwd[x->to] = changed = true;
            if (to_bwd && x->from >= 0 && !bwd[x->from]) bwd[x->from] = changed = true;
        }
    }
    for (size_t b = 0; b < nb; b++) g->blocks[b].live = fwd[b] && bwd[b];
    free(fwd);
    free(bwd);
}

/* ---- cycle equivalence ------------------------------------------------------------- */

typedef struct arc { int edge, to; } arc_t;

typedef struct ugraph {
    int nv;
    arc_t **adj;
    int *deg, *cap;
} ugraph_t;

static void ug_add(ugraph_t *u, int id, int a, int b)
{
    int ends[2] = { a, b };
    for (int k = 0; k < 2; k++) {
        int v = ends[k];
        if (u->deg[v] == u->cap[v])
            u->adj[v] = xrealloc(u->adj[v], (size_t)(u->cap[v] = u->cap[v] ? 2 * u->cap[v] : 4) *
                                                sizeof **u->adj);
        u->adj[v][u->deg[v]++] = (arc_t){ id, ends[1 - k] };
    }
}

typedef struct frame { int v, parent_edge, it; } frame_t;

/* The bridges of u without edge `skip`: bridge[e] set (iterative Tarjan). */
static void find_bridges(const ugraph_t *u, int skip, bool *bridge, int *disc, int *low,
                         frame_t *stack)
{
    for (int v = 0; v < u->nv; v++) disc[v] = -1;
    int timer = 0;
    for (int root = 0; root < u->nv; root++) {
        if (disc[root] >= 0) continue;
        int sp = 0;
        disc[root] = low[root] = timer++;
        stack[sp++] = (frame_t){ root, -1, 0 };
        while (sp) {
            frame_t *f = &stack[sp - 1];
            if (f->it < u->deg[f->v]) {
                arc_t a = u->adj[f->v][f->it++];
                if (a.edge == skip || a.edge == f->parent_edge) continue;
                if (disc[a.to] < 0) {
                    disc[a.to] = low[a.to] = timer++;
                    stack[sp++] = (frame_t){ a.to, a.edge, 0 };
                } else if (disc[a.to] < low[f->v]) {
                    low[f->v] = disc[a.to];
                }
                continue;
            }
            int v = f->v, pe = f->parent_edge;
            sp--;
            if (!sp) continue;
            int p = stack[sp - 1].v;
            if (low[v] < low[p]) low[p] = low[v];
            if (low[v] > disc[p]) bridge[pe] = true;
        }
    }
}

static int uf_find(int *parent, int x)
{
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

/* Vertices: 0 ENTRY, 1 EXIT, 2 + 2b / 3 + 2b block b's in / out. */
static int vin(int b) { return b == CFG_ENTRY ? 0 : b == CFG_EXIT ? 1 : 2 + 2 * b; }
static int vout(int b) { return b == CFG_ENTRY ? 0 : b == CFG_EXIT ? 1 : 3 + 2 * b; }

static bool edge_live(const cfg_t *g, const cfg_edge_t *x)
{
    return (x->from < 0 || g->blocks[x->from].live) && (x->to < 0 || g->blocks[x->to].live);
}

static void classify(cfg_t *g)
{
    int nb = (int)g->nblocks, ne = (int)g->nedges, nids = nb + ne + 1;
    ugraph_t u = { .nv = 2 + 2 * nb };
    u.adj = xcalloc((size_t)u.nv, sizeof *u.adj);
    u.deg = xcalloc((size_t)u.nv, sizeof *u.deg);
    u.cap = xcalloc((size_t)u.nv, sizeof *u.cap);
    bool *in_graph = xcalloc((size_t)nids, 1);
    for (int b = 0; b < nb; b++)                     /* id b: block b's edge */
        if (g->blocks[b].live) { ug_add(&u, b, vin(b), vout(b)); in_graph[b] = true; }
    for (int e = 0; e < ne; e++) {                   /* id nb + e: CFG edge e */
        const cfg_edge_t *x = &g->edges[e];
        if (!edge_live(g, x)) continue;
        ug_add(&u, nb + e, vout(x->from), vin(x->to));
        in_graph[nb + e] = true;
    }
    ug_add(&u, nb + ne, 1, 0);                       /* EXIT -> ENTRY */
    in_graph[nb + ne] = true;

    int *parent = xcalloc((size_t)nids, sizeof *parent);
    for (int k = 0; k < nids; k++) parent[k] = k;
    if (!g->missing_edges) {
        bool *bridge = xcalloc((size_t)nids, 1);
        int *disc = xcalloc((size_t)u.nv, sizeof *disc), *low = xcalloc((size_t)u.nv, sizeof *low);
        frame_t *stack = xcalloc((size_t)u.nv + 1, sizeof *stack);
        for (int a = 0; a < nids; a++) {
            if (!in_graph[a]) continue;
            memset(bridge, 0, (size_t)nids);
            find_bridges(&u, a, bridge, disc, low, stack);
            for (int b = 0; b < nids; b++)
                if (bridge[b] && in_graph[b]) parent[uf_find(parent, b)] = uf_find(parent, a);
        }
        free(bridge);
        free(disc);
        free(low);
        free(stack);
    }
    int *label = xcalloc((size_t)nids, sizeof *label);
    for (int k = 0; k < nids; k++) label[k] = -1;
    int next = 0;
    for (int k = 0; k < nids; k++) {                 /* dead parts: classes of their own */
        int r = in_graph[k] ? uf_find(parent, k) : k;
        if (label[r] < 0) label[r] = next++;
        if (k < nb) g->blocks[k].cls = label[r];
        else if (k < nb + ne) g->edges[k - nb].cls = label[r];
    }
    g->nclasses = next;
    for (int v = 0; v < u.nv; v++) free(u.adj[v]);
    free(u.adj);
    free(u.deg);
    free(u.cap);
    free(in_graph);
    free(parent);
    free(label);
}

/* ---- switches --------------------------------------------------------------------- */

/* Blocks and edges again, the switches' targets starting blocks and
 * taking their jumps' edges. */
static void relink(cfg_t *g, const isa_t *isa, const cfg_switch_t *sw, size_t nsw)
{
    size_t n = 0;
    for (size_t k = 0; k < nsw; k++) n += sw[k].n;
    uint64_t *leaders = xcalloc(n + 1, sizeof *leaders);
    n = 0;
    for (size_t k = 0; k < nsw; k++)
        for (size_t t = 0; t < sw[k].n; t++) leaders[n++] = sw[k].targets[t];
    free(g->blocks);
    free(g->edges);
    g->blocks = NULL;
    g->edges = NULL;
    g->nblocks = g->nedges = 0;
    g->missing_edges = false;
    split_blocks(g, leaders, n);
    link_blocks(g, isa, sw, nsw);
    free(leaders);
}

/* Read the tables of the switches found (each up to the next table any of
 * them starts at). */
static void read_tables(cfg_t *g, cfg_switch_t *sw, size_t nsw, const cfg_image_t *img)
{
    uint64_t *stops = xcalloc(nsw + 1, sizeof *stops);
    size_t nstops = 0;
    for (size_t k = 0; k < nsw; k++)
        if (sw[k].found) stops[nstops++] = sw[k].table.table;
    for (size_t k = 0; k < nsw; k++) {
        free(sw[k].targets);
        sw[k].targets = NULL;
        sw[k].n = 0;
        if (sw[k].found)
            sw[k].n = jumptab_read(&sw[k].table, img, g, stops, nstops, &sw[k].targets);
    }
    free(stops);
}

/* Whether every switch read is still read the same way from the CFG its
 * targets made (the definitions reaching a jump may come over the edges of
 * another switch). */
static bool tables_hold(const cfg_t *g, const isa_t *isa, const cfg_switch_t *sw, size_t nsw)
{
    for (size_t k = 0; k < nsw; k++) {
        const jumptab_t *was = &sw[k].table;
        jumptab_t t;
        if (!sw[k].n) continue;
        if (!jumptab_find(isa, g, sw[k].insn, &t) || t.table != was->table ||
            t.base != was->base || t.width != was->width || t.sign != was->sign)
            return false;
    }
    return true;
}

/* Give g's switches their targets where their tables can be read from
 * img: rounds of finding tables on the CFG so far (a jump's table address
 * may reach it only over another switch's edges) and rebuilding the
 * blocks and edges, until no new table is found; then every table is
 * checked on the final CFG, and the CFG is "missing edges" if one does
 * not hold or a switch is left unread. */
enum { SWITCH_ROUNDS = 4 };
static void read_switches(cfg_t *g, const isa_t *isa, const cfg_image_t *img)
{
    size_t nsw = 0;
    cfg_switch_t *sw = xcalloc(g->ninsns, sizeof *sw);
    for (size_t k = 0; k < g->ninsns; k++)
        if (is_switch(isa, &g->insns[k])) sw[nsw++] = (cfg_switch_t){ .insn = k };
    for (int round = 0; round < SWITCH_ROUNDS; round++) {
        bool more = false;
        for (size_t k = 0; k < nsw; k++)
            if (!sw[k].found && jumptab_find(isa, g, sw[k].insn, &sw[k].table))
                sw[k].found = more = true;
        if (!more) break;
        read_tables(g, sw, nsw, img);
        relink(g, isa, sw, nsw);
    }
    g->switches = 0;
    for (size_t k = 0; k < nsw; k++) g->switches += sw[k].n > 0;
    if (!tables_hold(g, isa, sw, nsw)) g->missing_edges = true;
    for (size_t k = 0; k < nsw; k++) free(sw[k].targets);
    free(sw);
}

/* ---- the whole --------------------------------------------------------------------- */

bool cfg_build_blocks(const isa_t *isa, const uint8_t *code, uint64_t start, size_t size,
                      const uint64_t *leaders, size_t nleaders, cfg_t *out)
{
    memset(out, 0, sizeof *out);
    out->ninsns = decode_all(isa, code, start, size, &out->insns);
    if (!out->ninsns) {
        cfg_free(out);
        return false;
    }
    split_blocks(out, leaders, nleaders);
    link_blocks(out, isa, NULL, 0);
    mark_live(out);
    return true;
}

bool cfg_build_image(const isa_t *isa, const uint8_t *code, uint64_t start, size_t size,
                     const cfg_image_t *img, cfg_t *out)
{
    if (!cfg_build_blocks(isa, code, start, size, NULL, 0, out)) return false;
    if (img && out->missing_edges) {
        read_switches(out, isa, img);
        mark_live(out);
    }
    classify(out);
    return true;
}

bool cfg_build(const isa_t *isa, const uint8_t *code, uint64_t start, size_t size, cfg_t *out)
{
    return cfg_build_image(isa, code, start, size, NULL, out);
}

void cfg_free(cfg_t *g)
{
    free(g->insns);
    free(g->blocks);
    free(g->edges);
    memset(g, 0, sizeof *g);
}
