/*
 * cct.c - the calling context tree (cct.h): nodes in one array, a hash
 * index from (parent, call site, callee entry) to a node, inclusive sums,
 * the indented printout and the hand-over to the exporters (export.h).
 */
#include "cct.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "util.h"

static uint64_t key_hash(uint32_t parent, uint64_t site, uint64_t entry)
{
    uint64_t h = (parent + 1) * 0x9e3779b97f4a7c15ull;
    h ^= site + 0x632be59bd9b4e019ull + (h << 6) + (h >> 2);
    h ^= entry * 0xbf58476d1ce4e5b9ull;
    h ^= h >> 31;
    return h * 0x94d049bb133111ebull;
}

static uint32_t *index_slot(uint32_t *index, size_t cap, const cct_node_t *nodes,
                            uint32_t parent, uint64_t site, uint64_t entry)
{
    size_t i = key_hash(parent, site, entry) & (cap - 1);
    while (index[i]) {
        const cct_node_t *n = &nodes[index[i] - 1];
        if (n->parent == parent && n->site == site && n->entry == entry) break;
        i = (i + 1) & (cap - 1);
    }
    return &index[i];
}

static void index_grow(cct_t *t)
{
    size_t cap = t->index_cap ? 2 * t->index_cap : 1024;
    uint32_t *index = xcalloc(cap, sizeof *index);
    for (size_t k = 1; k < t->n; k++) {
        const cct_node_t *n = &t->nodes[k];
        *index_slot(index, cap, t->nodes, n->parent, n->site, n->entry) = (uint32_t)k + 1;
    }
    free(t->index);
    t->index = index;
    t->index_cap = cap;
}

void cct_init(cct_t *t)
{
    memset(t, 0, sizeof *t);
    t->cap = 256;
    t->nodes = xcalloc(t->cap, sizeof *t->nodes);
    t->nodes[0] = (cct_node_t){ .parent = CCT_NONE };
    t->n = 1;
    index_grow(t);
}

void cct_free(cct_t *t)
{
    free(t->nodes);
    free(t->index);
    memset(t, 0, sizeof *t);
}

uint32_t cct_find(const cct_t *t, uint32_t parent, uint64_t site, uint64_t entry)
{
    uint32_t id = *index_slot(t->index, t->index_cap, t->nodes, parent, site, entry);
    return id ? id - 1 : CCT_NONE;
}

uint32_t cct_child(cct_t *t, uint32_t parent, uint64_t site, uint64_t entry)
{
    uint32_t *slot = index_slot(t->index, t->index_cap, t->nodes, parent, site, entry);
    if (*slot) return *slot - 1;
    if (t->n == t->cap) {
        t->cap *= 2;
        t->nodes = xrealloc(t->nodes, t->cap * sizeof *t->nodes);
    }
    uint32_t id = (uint32_t)t->n++;
    t->nodes[id] = (cct_node_t){ .site = site, .entry = entry, .parent = parent,
                                 .depth = t->nodes[parent].depth + 1 };
    *slot = id + 1;
    if (2 * t->n > t->index_cap) index_grow(t);
    return id;
}

uint64_t cct_value(const cct_node_t *n, cct_metric_t m)
{
    switch (m) {
    case CCT_INSTS: return n->insts;
    case CCT_CYCLES: return n->cycles;
    case CCT_SAMPLES: return n->samples;
    case CCT_CALLS: return n->calls;
    default: break;
    }
    unsigned k = (unsigned)m - CCT_EVENT0;
    return k < CCT_MAX_EVENTS ? n->events[k] : 0;
}

void cct_inclusive(const cct_t *t, cct_metric_t m, uint64_t *out)
{
    for (size_t k = 0; k < t->n; k++) out[k] = cct_value(&t->nodes[k], m);
    for (size_t k = t->n; k-- > 1;) out[t->nodes[k].parent] += out[k];
}

uint32_t cct_same_context(const cct_t *t, uint32_t n, const cct_t *other, const uint32_t *map)
{
    if (n == CCT_ROOT) return CCT_ROOT;
    const cct_node_t *x = &t->nodes[n];
    uint32_t op = map[x->parent];
    if (op == CCT_NONE) return CCT_NONE;
    return cct_find(other, op, x->site, x->entry);
}

/* ---- printing ------------------------------------------------------------------------- */

typedef struct print_state {
    const cct_t *t;
    const uint64_t *inc;
    uint32_t *first_child, *next_sibling;
    uint64_t floor;             /* inclusive value below which nodes are left out */
    size_t left;                /* nodes still to print                    */
    const symtab_t *symtab;
    FILE *out;
} print_state_t;

static const char *proc_name(const symtab_t *st, uint64_t addr, char *buf, size_t len)
{
    const symbol_t *s = st ? symtab_lookup(st, addr) : NULL;
    if (s && s->addr == addr) return s->name;
    if (s) snprintf(buf, len, "%s+0x%" PRIx64, s->name, addr - s->addr);
    else snprintf(buf, len, "0x%" PRIx64, addr);
    return buf;
}

/* Children lists ordered by inclusive value, largest first (then by id). */
static void link_children(print_state_t *ps)
{
    const cct_t *t = ps->t;
    for (size_t k = t->n; k-- > 1;) {
        uint32_t p = t->nodes[k].parent;
        uint32_t *link = &ps->first_child[p];
        while (*link != CCT_NONE && ps->inc[*link] >= ps->inc[k]) link = &ps->next_sibling[*link];
        ps->next_sibling[k] = *link;
        *link = (uint32_t)k;
    }
}

static void print_node(print_state_t *ps, uint32_t id, unsigned indent)
{
    const cct_node_t *n = &ps->t->nodes[id];
    char name[256], site[256];
    fprintf(ps->out, "  %10" PRIu64 " %6.2f%% %10" PRIu64 "  %*s%s", ps->inc[id],
            ps->inc[0] ? 100.0 * (double)ps->inc[id] / (double)ps->inc[0] : 0.0, n->calls,
            2 * indent, "", proc_name(ps->symtab, n->entry, name, sizeof name));
    if (n->parent != CCT_ROOT && n->parent != CCT_NONE)
        fprintf(ps->out, "  <- %s", proc_name(ps->symtab, n->site, site, sizeof site));
    if (n->tail_calls) fprintf(ps->out, "  (%" PRIu64 " tail)", n->tail_calls);
    fputc('\n', ps->out);
}

static void print_subtree(print_state_t *ps, uint32_t id, unsigned indent)
{
    for (uint32_t k = ps->first_child[id]; k != CCT_NONE; k = ps->next_sibling[k]) {
        if (ps->inc[k] < ps->floor || ps->inc[k] == 0 || ps->left == 0) continue;
        ps->left--;
        print_node(ps, k, indent);
        print_subtree(ps, k, indent + 1);
    }
}

void cct_print(const cct_t *t, cct_metric_t m, double min_share, size_t max_nodes,
               const symtab_t *symtab, FILE *out)
{
    uint64_t *inc = xcalloc(t->n, sizeof *inc);
    cct_inclusive(t, m, inc);
    print_state_t ps = { .t = t, .inc = inc, .symtab = symtab, .out = out, .left = max_nodes,
                         .floor = (uint64_t)(min_share * (double)inc[0]) };
    ps.first_child = xcalloc(t->n, sizeof *ps.first_child);
    ps.next_sibling = xcalloc(t->n, sizeof *ps.next_sibling);
    memset(ps.first_child, 0xff, t->n * sizeof *ps.first_child);
    link_children(&ps);
    fprintf(out, "  %10s %7s %10s  context (inclusive %s; <- call site)\n", "inclusive", "share",
            "calls", m == CCT_CYCLES ? "cycles" : m == CCT_SAMPLES ? "samples" : "instructions");
    print_subtree(&ps, CCT_ROOT, 0);
    free(ps.first_child);
    free(ps.next_sibling);
    free(inc);
}

/* ---- export ----------------------------------------------------------------------------- */

static uint32_t frame_at(export_profile_t *p, const symtab_t *st, const char *image,
                         uint64_t proc_entry, uint64_t address)
{
    char buf[64];
    const symbol_t *s = st ? symtab_lookup(st, proc_entry) : NULL;
    const char *fn = s ? s->name : buf;
    if (!s) snprintf(buf, sizeof buf, "0x%" PRIx64, proc_entry);
    export_frame_t f = { .function = fn, .image = image, .address = address,
                         .entry = s ? s->addr : proc_entry };
    return export_frame(p, &f);
}

void cct_export_under(const cct_t *t, const char *root, const cct_metric_t *ms, size_t nm,
                      const symtab_t *symtab, const char *image, export_profile_t *p)
{
    uint32_t *stack = xcalloc(t->n + 2, sizeof *stack);
    size_t top = root ? 1 : 0;                  /* the frames above the tree's */
    if (root) stack[0] = export_frame(p, &(export_frame_t){ .function = root, .image = image });
    uint32_t *frames = stack + top;
    uint64_t values[EXPORT_MAX_EVENTS];
    for (size_t k = 1; k < t->n; k++) {
        const cct_node_t *n = &t->nodes[k];
        size_t depth = n->depth;
        frames[depth - 1] = frame_at(p, symtab, image, n->entry, n->entry);
        uint32_t child = (uint32_t)k;
        for (size_t d = depth - 1; d-- > 0;) {
            const cct_node_t *c = &t->nodes[child];
            frames[d] = frame_at(p, symtab, image, t->nodes[c->parent].entry, c->site);
            child = c->parent;
        }
        bool any = false;
        for (size_t e = 0; e < nm && e < EXPORT_MAX_EVENTS; e++) {
            values[e] = cct_value(n, ms[e]);
            any |= values[e] != 0;
        }
        if (any) export_add_stack(p, stack, depth + top, values);
        if (n->calls) export_add_calls(p, stack, depth + top, n->calls);
    }
    free(stack);
}

void cct_export(const cct_t *t, const cct_metric_t *ms, size_t nm, const symtab_t *symtab,
                const char *image, export_profile_t *p)
{
    cct_export_under(t, NULL, ms, nm, symtab, image, p);
}
