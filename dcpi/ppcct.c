/*
 * ppcct.c - PP's calling context tree on DISE, the host's side (ppcct.h):
 * path samples counted per (context, procedure, path) as the buffer is
 * drained, the guest's tree (productions/runtime/pp_cct.h) read back into
 * a cct_t, and the report scoring both against the exact CCT and paths.
 */
#include "ppcct.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "mem.h"
#include "pp_cct.h"
#include "profile.h"
#include "util.h"

typedef struct cell {
    uint64_t node, proc, path, count;   /* count 0: an empty slot */
} cell_t;

struct ppcct {
    cell_t *cells;
    size_t cap, used;
    uint64_t samples;
    cct_t tree;                 /* the guest's, as read (insts: its paths')  */
    uint32_t *id_of;            /* guest node -> tree id                      */
    uint64_t nguest, nodes_full, lookups, steps;
    uint64_t slots, slots_full;  /* slot words handed out; nodes that found none */
    bool read;
};

static uint64_t cell_hash(uint64_t node, uint64_t proc, uint64_t path)
{
    uint64_t h = node * 0x9e3779b97f4a7c15ull ^ proc * 0xbf58476d1ce4e5b9ull ^ path;
    h ^= h >> 31;
    return h * 0x94d049bb133111ebull;
}

static cell_t *cell_slot(cell_t *cells, size_t cap, uint64_t node, uint64_t proc, uint64_t path)
{
    size_t i = cell_hash(node, proc, path) & (cap - 1);
    while (cells[i].count &&
           (cells[i].node != node || cells[i].proc != proc || cells[i].path != path))
        i = (i + 1) & (cap - 1);
    return &cells[i];
}

static void cells_grow(ppcct_t *p)
{
    size_t cap = p->cap ? 2 * p->cap : 1024;
    cell_t *cells = xcalloc(cap, sizeof *cells);
    for (size_t k = 0; k < p->cap; k++)
        if (p->cells[k].count)
            *cell_slot(cells, cap, p->cells[k].node, p->cells[k].proc, p->cells[k].path) = p->cells[k];
    free(p->cells);
    p->cells = cells;
    p->cap = cap;
}

ppcct_t *ppcct_new(void)
{
    ppcct_t *p = xcalloc(1, sizeof *p);
    cells_grow(p);
    cct_init(&p->tree);
    return p;
}

void ppcct_free(ppcct_t *p)
{
    if (!p) return;
    free(p->cells);
    free(p->id_of);
    cct_free(&p->tree);
    free(p);
}

void ppcct_take(ppcct_t *p, uint64_t node, uint64_t proc, uint64_t path)
{
    if (2 * (p->used + 1) > p->cap) cells_grow(p);
    cell_t *c = cell_slot(p->cells, p->cap, node, proc, path);
    if (!c->count) {
        *c = (cell_t){ node, proc, path, 0 };
        p->used++;
    }
    c->count++;
    p->samples++;
}

bool ppcct_attach(ppcct_t *p, const runtime_t *rt, const symtab_t *st, char *err, size_t errlen)
{
    uint64_t base = runtime_symbol(rt, "hps_pp_cct");
    if (!base) return set_error(err, errlen, "the handler runtime has no hps_pp_cct (pp_cct.h)");
    size_t n = st ? st->count : 0;
    if (n > PPC_MAX_ENTRIES)
        return set_error(err, errlen, "the program has %zu procedures; PP's guest CCT holds the "
                         "entries of at most %u (pp_cct.h)", n, PPC_MAX_ENTRIES);
    mem_t *m = runtime_mem(rt);
    uint64_t count = n;
    bool ok = mem_write(m, base + offsetof(ppc_tree_t, nentries), &count, sizeof count);
    for (size_t k = 0; ok && k < n; k++) {
        uint64_t a = st->syms[k].addr;
        ok = mem_write(m, base + offsetof(ppc_tree_t, entries) + k * sizeof a, &a, sizeof a);
    }
    return ok ? true : set_error(err, errlen, "cannot write the procedure entries into the runtime");
}

static uint64_t read_u64(mem_t *m, uint64_t addr)
{
    uint64_t v = 0;
    if (!mem_read(m, addr, &v, sizeof v)) v = 0;
    return v;
}

void ppcct_read(ppcct_t *p, const runtime_t *rt, uint64_t entry_pc)
{
    uint64_t base = runtime_symbol(rt, "hps_pp_cct");
    mem_t *m = runtime_mem(rt);
    p->read = true;
    uint64_t n = base ? read_u64(m, base + offsetof(ppc_tree_t, nnodes)) : 0;
    if (n > PPC_MAX_NODES) n = PPC_MAX_NODES;
    p->nodes_full = base ? read_u64(m, base + offsetof(ppc_tree_t, nodes_full)) : 0;
    p->lookups = base ? read_u64(m, base + offsetof(ppc_tree_t, lookups)) : 0;
    p->steps = base ? read_u64(m, base + offsetof(ppc_tree_t, steps)) : 0;
    uint64_t slots = runtime_symbol(rt, "hps_pp_slots");
    p->slots = slots ? read_u64(m, slots + offsetof(ppc_slots_t, used)) : 0;
    p->slots_full = slots ? read_u64(m, slots + offsetof(ppc_slots_t, full)) : 0;
    p->nguest = n ? n : 1;                       /* node 0 exists before any call */
    p->id_of = xcalloc(p->nguest, sizeof *p->id_of);
    p->id_of[0] = cct_child(&p->tree, CCT_ROOT, 0, entry_pc);
    p->tree.nodes[p->id_of[0]].calls = 1;
    for (uint64_t k = 1; k < n; k++) {
        ppc_node_t x;
        if (!mem_read(m, base + offsetof(ppc_tree_t, nodes) + k * sizeof x, &x, sizeof x) ||
            x.parent >= k) {                     /* parents are made first */
            p->id_of[k] = p->id_of[0];
            continue;
        }
        uint32_t id = cct_child(&p->tree, p->id_of[x.parent], x.site, x.entry);
        p->id_of[k] = id;
        p->tree.nodes[id].calls += x.calls;
        p->tree.nodes[id].tail_calls += x.tail_calls;
    }
}

/* (procedure, path) -> static length, from the exact recorder's rows. */
static profile_t *path_lengths(const paths_t *paths)
{
    profile_t *len = profile_new();
    size_t n = 0;
    path_row_t *rows = paths ? paths_rows(paths, &n) : NULL;
    for (size_t k = 0; k < n; k++)
        if (!profile_weight(len, rows[k].entry, rows[k].sum))
            profile_add(len, rows[k].entry, rows[k].sum, rows[k].length);
    free(rows);
    return len;
}

/* The guest tree's node of a sample's context (node 0 for one out of range). */
static uint32_t tree_node(const ppcct_t *p, uint64_t node)
{
    return node < p->nguest ? p->id_of[node] : p->id_of[0];
}

/* Each context's path instructions into insts[] (indexed by tree id). */
static void context_insts(const ppcct_t *p, const profile_t *len, uint64_t *insts)
{
    for (size_t k = 0; k < p->cap; k++) {
        const cell_t *c = &p->cells[k];
        if (c->count) insts[tree_node(p, c->node)] += c->count * profile_weight(len, c->proc, c->path);
    }
}

/* Guest tree id -> exact id (CCT_NONE: a context the run did not have). */
static uint32_t *exact_map(const ppcct_t *p, const cct_t *exact)
{
    uint32_t *map = xcalloc(p->tree.n, sizeof *map);
    for (size_t k = 0; k < p->tree.n; k++) map[k] = cct_same_context(&p->tree, (uint32_t)k, exact, map);
    return map;
}

void ppcct_score(const ppcct_t *p, const cct_t *exact, const paths_t *paths, ppcct_score_t *s)
{
    memset(s, 0, sizeof *s);
    s->contexts = p->tree.n - 1;
    s->samples = p->samples;
    if (!exact) return;
    s->exact_contexts = exact->n - 1;
    profile_t *len = path_lengths(paths);
    uint64_t *insts = xcalloc(p->tree.n, sizeof *insts);
    uint64_t *node_samples = xcalloc(p->tree.n, sizeof *node_samples);
    context_insts(p, len, insts);
    for (size_t k = 0; k < p->cap; k++)
        if (p->cells[k].count) node_samples[tree_node(p, p->cells[k].node)] += p->cells[k].count;
    uint32_t *map = exact_map(p, exact);
    for (size_t k = 1; k < p->tree.n; k++) {
        bool has = map[k] != CCT_NONE;
        s->matched += has;
        if (has && p->tree.nodes[k].calls == exact->nodes[map[k]].calls) s->calls_equal++;
        if (has) s->samples_matched += node_samples[k];
        if (!node_samples[k]) continue;
        s->with_paths++;
        if (has && insts[k] == exact->nodes[map[k]].insts) s->insts_equal++;
    }
    free(map);
    free(node_samples);
    free(insts);
    profile_free(len);
}

static const char *proc_name(const symtab_t *st, uint64_t addr, char *buf, size_t n)
{
    const symbol_t *s = st ? symtab_lookup(st, addr) : NULL;
    if (s && s->addr == addr) return s->name;
    if (s && addr - s->addr < 16) snprintf(buf, n, "%s+%" PRIu64, s->name, addr - s->addr);
    else snprintf(buf, n, "0x%" PRIx64, addr);
    return buf;
}

typedef struct ranked { uint32_t id; uint64_t w; } ranked_t;

static int by_weight(const void *a, const void *b)
{
    const ranked_t *x = a, *y = b;
    if (x->w != y->w) return x->w < y->w ? 1 : -1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* The top contexts by path instructions: callee <- caller chain, then
 * their exact self instructions and hottest paths. */
static void print_top(const ppcct_t *p, const cct_t *exact, const uint32_t *map,
                      const uint64_t *insts, const symtab_t *st, size_t top, FILE *out)
{
    ranked_t *r = xcalloc(p->tree.n, sizeof *r);
    for (size_t k = 0; k < p->tree.n; k++) r[k] = (ranked_t){ (uint32_t)k, insts[k] };
    qsort(r, p->tree.n, sizeof *r, by_weight);
    fprintf(out, "  hottest contexts by path instructions (guest | exact self instructions):\n");
    for (size_t k = 0; k < top && k < p->tree.n && r[k].w; k++) {
        uint32_t id = r[k].id;
        char b1[64], b2[64];
        const cct_node_t *nd = &p->tree.nodes[id];
        const char *caller = nd->parent != CCT_NONE && nd->parent != CCT_ROOT
                           ? proc_name(st, p->tree.nodes[nd->parent].entry, b2, sizeof b2) : "-";
        char ex[32] = "no context";
        if (exact && map[id] != CCT_NONE) snprintf(ex, sizeof ex, "%" PRIu64, exact->nodes[map[id]].insts);
        fprintf(out, "    %12" PRIu64 " | %12s  %s <- %s (depth %u, %" PRIu64 " calls)\n", r[k].w, ex,
                proc_name(st, nd->entry, b1, sizeof b1), caller, nd->depth, nd->calls);
        uint64_t best = 0, best_path = 0, best_count = 0, distinct = 0;
        for (size_t c = 0; c < p->cap; c++) {
            const cell_t *x = &p->cells[c];
            if (!x->count || tree_node(p, x->node) != id) continue;
            distinct++;
            if (x->count > best || (x->count == best && x->path < best_path)) {
                best = x->count;
                best_path = x->path;
                best_count = x->count;
            }
        }
        fprintf(out, "    %12s   %" PRIu64 " paths; hottest path %" PRIu64 " run %" PRIu64 " times\n",
                "", distinct, best_path, best_count);
    }
    free(r);
}

/* The contexts the exact tree lacks or whose calls differ (by_insts
 * false), or whose path instructions are not the exact self instructions
 * (true); at most top of them. */
static void print_differing(const ppcct_t *p, const cct_t *exact, const uint32_t *map,
                            const uint64_t *insts, const symtab_t *st, size_t top, bool by_insts,
                            FILE *out)
{
    size_t shown = 0, differing = 0;
    for (size_t k = 1; k < p->tree.n; k++) {
        const cct_node_t *nd = &p->tree.nodes[k];
        const cct_node_t *x = map[k] != CCT_NONE ? &exact->nodes[map[k]] : NULL;
        bool differs = by_insts ? x && insts[k] && insts[k] != x->insts : !x || nd->calls != x->calls;
        if (!differs) continue;
        if (differing++ == 0)
            fputs(by_insts ? "  contexts whose path instructions are not the exact self instructions "
                             "(paths unfinished or lost, or sampled):\n"
                           : "  contexts that differ from the exact tree:\n", out);
        if (shown == top) continue;
        shown++;
        char b1[64], b2[64];
        const char *caller = nd->parent != CCT_ROOT
                           ? proc_name(st, p->tree.nodes[nd->parent].entry, b2, sizeof b2) : "-";
        fprintf(out, "    %s <- %s at 0x%" PRIx64 ", depth %u: ", proc_name(st, nd->entry, b1, sizeof b1),
                caller, nd->site, nd->depth);
        if (!x) fprintf(out, "not a context of the run; calls %" PRIu64 ", path instructions %" PRIu64 "\n",
                        nd->calls, insts[k]);
        else if (!by_insts) fprintf(out, "calls %" PRIu64 " (exact %" PRIu64 ")\n", nd->calls, x->calls);
        else fprintf(out, "path instructions %" PRIu64 " (exact self %" PRIu64 ")\n", insts[k], x->insts);
    }
    if (differing > shown) fprintf(out, "    (%zu more)\n", differing - shown);
}

void ppcct_report(const ppcct_t *p, const cct_t *exact, const paths_t *paths,
                  const symtab_t *st, size_t top, FILE *out)
{
    ppcct_score_t s;
    ppcct_score(p, exact, paths, &s);
    fprintf(out, "\nPP calling context tree on DISE (guest handlers, hps-pp-acf --cct): %" PRIu64
            " contexts (%" PRIu64 " new contexts charged to their parent: the %u nodes ran out); "
            "%" PRIu64 " child lookups walked %" PRIu64 " list entries (%.2f each)\n",
            s.contexts, p->nodes_full, PPC_MAX_NODES, p->lookups, p->steps,
            p->lookups ? (double)p->steps / (double)p->lookups : 0.0);
    fprintf(out, "  child slots (one per call site): %" PRIu64 " of %u words used; %" PRIu64
            " nodes found none left (their children in one list)\n", p->slots, PPC_MAX_SLOTS,
            p->slots_full);
    fprintf(out, "  %" PRIu64 " path samples in %zu (context, procedure, path) cells\n",
            p->samples, p->used);
    profile_t *len = path_lengths(paths);
    uint64_t *insts = xcalloc(p->tree.n, sizeof *insts);
    context_insts(p, len, insts);
    uint32_t *map = exact ? exact_map(p, exact) : NULL;
    if (exact) {
        fprintf(out, "  against the exact CCT of this run (%" PRIu64 " contexts): %" PRIu64 " of the %"
                PRIu64 " guest contexts are the run's, %" PRIu64 " of them with the exact call count\n",
                s.exact_contexts, s.matched, s.contexts, s.calls_equal);
        fprintf(out, "  path samples in the run's contexts: %" PRIu64 " of %" PRIu64 "; contexts with paths "
                "whose path instructions (count x length) equal the exact self instructions: %"
                PRIu64 " of %" PRIu64 "\n", s.samples_matched, s.samples, s.insts_equal, s.with_paths);
    } else {
        fprintf(out, "  not scored: no exact CCT of this run\n");
    }
    if (map) {
        print_differing(p, exact, map, insts, st, top, false, out);
        print_differing(p, exact, map, insts, st, top, true, out);
    }
    print_top(p, exact, map, insts, st, top, out);
    free(map);
    free(insts);
    profile_free(len);
}
