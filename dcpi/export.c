/*
 * export.c - weighted call stacks written as callgrind, pprof (gzip
 * profile.proto, encoded here from the schema's field numbers) and folded
 * stacks (export.h).  The stacks are kept as a calling context tree: node 0
 * is an empty root, every other node one frame under its parent, with the
 * values charged to that exact stack (its self cost) and a call count.
 */
#include "export.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "util.h"

typedef struct frame_rec {
    char *function, *file, *image;
    uint64_t address, entry, line;
    uint32_t func;              /* index into funcs */
} frame_rec_t;

typedef struct func_rec {
    const char *name, *file, *image;   /* owned by the first frame naming it */
} func_rec_t;

typedef struct node {
    uint32_t frame, parent;
    uint64_t calls;
} node_t;

/* An open-addressing table of ids (slot = id + 1, 0 empty); the caller
 * hashes and compares through the owner's arrays. */
typedef struct idmap {
    uint32_t *slot;
    size_t cap, used;
} idmap_t;

struct export_profile {
    char *creator;
    size_t n_events;
    char *events[EXPORT_MAX_EVENTS], *units[EXPORT_MAX_EVENTS];
    char **comments;
    size_t n_comments;
    frame_rec_t *frames;
    size_t n_frames;
    func_rec_t *funcs;
    size_t n_funcs;
    node_t *nodes;
    uint64_t *values;           /* n_events per node: the self cost */
    size_t n_nodes, cap_nodes;
    idmap_t frame_map, func_map, child_map;
};

/* ---- hashing ------------------------------------------------------------------ */

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    return h * 0x100000001b3ull;
}

static uint64_t hash_str(uint64_t h, const char *s)
{
    for (; s && *s; s++) h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return mix(h, s ? 1 : 0);
}

static bool same_str(const char *a, const char *b)
{
    return a == b || (a && b && !strcmp(a, b));
}

typedef bool (*id_equal_fn)(const export_profile_t *p, uint32_t id, const void *key);
typedef uint64_t (*id_hash_fn)(const export_profile_t *p, uint32_t id);

/* The slot holding the id equal to key, or the empty slot where it goes. */
static uint32_t *idmap_find(const export_profile_t *p, const idmap_t *m, uint64_t h,
                            id_equal_fn eq, const void *key)
{
    size_t mask = m->cap - 1;
    for (size_t k = h & mask;; k = (k + 1) & mask)
        if (!m->slot[k] || eq(p, m->slot[k] - 1, key)) return &m->slot[k];
}

static void idmap_grow(export_profile_t *p, idmap_t *m, id_hash_fn hash)
{
    if (m->cap && 2 * (m->used + 1) <= m->cap) return;
    idmap_t old = *m;
    m->cap = old.cap ? 2 * old.cap : 64;
    m->slot = xcalloc(m->cap, sizeof *m->slot);
    for (size_t k = 0; k < old.cap; k++) {
        if (!old.slot[k]) continue;
        size_t j = hash(p, old.slot[k] - 1) & (m->cap - 1);
        while (m->slot[j]) j = (j + 1) & (m->cap - 1);
        m->slot[j] = old.slot[k];
    }
    free(old.slot);
}

/* ---- frames and functions ---------------------------------------------------------- */

static uint64_t frame_key_hash(const export_frame_t *f)
{
    uint64_t h = hash_str(hash_str(hash_str(0xcbf29ce484222325ull, f->function), f->file), f->image);
    return mix(mix(mix(h, f->address), f->entry), f->line);
}

static uint64_t frame_hash(const export_profile_t *p, uint32_t id)
{
    const frame_rec_t *r = &p->frames[id];
    export_frame_t f = { r->function, r->file, r->image, r->address, r->entry, r->line };
    return frame_key_hash(&f);
}

static bool frame_equal(const export_profile_t *p, uint32_t id, const void *key)
{
    const frame_rec_t *r = &p->frames[id];
    const export_frame_t *f = key;
    return r->address == f->address && r->entry == f->entry && r->line == f->line &&
           same_str(r->function, f->function) && same_str(r->file, f->file) &&
           same_str(r->image, f->image);
}

static uint64_t func_key_hash(const func_rec_t *f)
{
    return hash_str(hash_str(hash_str(0xcbf29ce484222325ull, f->name), f->file), f->image);
}

static uint64_t func_hash(const export_profile_t *p, uint32_t id) { return func_key_hash(&p->funcs[id]); }

static bool func_equal(const export_profile_t *p, uint32_t id, const void *key)
{
    const func_rec_t *r = &p->funcs[id], *f = key;
    return same_str(r->name, f->name) && same_str(r->file, f->file) && same_str(r->image, f->image);
}

static uint32_t intern_func(export_profile_t *p, const frame_rec_t *r)
{
    func_rec_t key = { r->function, r->file, r->image };
    idmap_grow(p, &p->func_map, func_hash);
    uint32_t *s = idmap_find(p, &p->func_map, func_key_hash(&key), func_equal, &key);
    if (*s) return *s - 1;
    p->funcs = xrealloc(p->funcs, (p->n_funcs + 1) * sizeof *p->funcs);
    p->funcs[p->n_funcs] = key;
    p->func_map.used++;
    *s = (uint32_t)++p->n_funcs;
    return *s - 1;
}

static char *dup_or_null(const char *s) { return s ? xstrdup(s) : NULL; }

uint32_t export_frame(export_profile_t *p, const export_frame_t *f)
{
    export_frame_t key = *f;
    if (!key.function) key.function = "(unknown)";
    idmap_grow(p, &p->frame_map, frame_hash);
    uint32_t *s = idmap_find(p, &p->frame_map, frame_key_hash(&key), frame_equal, &key);
    if (*s) return *s - 1;
    p->frames = xrealloc(p->frames, (p->n_frames + 1) * sizeof *p->frames);
    frame_rec_t *r = &p->frames[p->n_frames];
    *r = (frame_rec_t){ xstrdup(key.function), dup_or_null(key.file), dup_or_null(key.image),
                        key.address, key.entry, key.line, 0 };
    p->frame_map.used++;
    *s = (uint32_t)++p->n_frames;
    r->func = intern_func(p, r);
    return *s - 1;
}

/* ---- the calling context tree ------------------------------------------------------ */

typedef struct child_key {
    uint32_t parent, frame;
} child_key_t;

static uint64_t child_key_hash(const child_key_t *k) { return mix(mix(17, k->parent), k->frame); }

static uint64_t child_hash(const export_profile_t *p, uint32_t id)
{
    child_key_t k = { p->nodes[id].parent, p->nodes[id].frame };
    return child_key_hash(&k);
}

static bool child_equal(const export_profile_t *p, uint32_t id, const void *key)
{
    const child_key_t *k = key;
    return id != 0 && p->nodes[id].parent == k->parent && p->nodes[id].frame == k->frame;
}

static uint32_t new_node(export_profile_t *p, uint32_t parent, uint32_t frame)
{
    if (p->n_nodes == p->cap_nodes) {
        p->cap_nodes = p->cap_nodes ? 2 * p->cap_nodes : 256;
        p->nodes = xrealloc(p->nodes, p->cap_nodes * sizeof *p->nodes);
        p->values = xrealloc(p->values, p->cap_nodes * p->n_events * sizeof *p->values);
    }
    uint32_t id = (uint32_t)p->n_nodes++;
    p->nodes[id] = (node_t){ frame, parent, 0 };
    memset(&p->values[(size_t)id * p->n_events], 0, p->n_events * sizeof *p->values);
    return id;
}

static uint32_t child_of(export_profile_t *p, uint32_t parent, uint32_t frame)
{
    child_key_t key = { parent, frame };
    idmap_grow(p, &p->child_map, child_hash);
    uint32_t *s = idmap_find(p, &p->child_map, child_key_hash(&key), child_equal, &key);
    if (*s) return *s - 1;
    uint32_t id = new_node(p, parent, frame);
    /* the table may not have moved: new_node does not touch it */
    *s = id + 1;
    p->child_map.used++;
    return id;
}

static uint32_t node_of_stack(export_profile_t *p, const uint32_t *frames, size_t depth)
{
    uint32_t n = 0;
    for (size_t k = 0; k < depth; k++) n = child_of(p, n, frames[k]);
    return n;
}

void export_add_stack(export_profile_t *p, const uint32_t *frames, size_t depth,
                      const uint64_t *values)
{
    if (!depth) return;
    uint32_t node = node_of_stack(p, frames, depth);    /* may move p->values */
    uint64_t *v = &p->values[(size_t)node * p->n_events];
    for (size_t e = 0; e < p->n_events; e++) v[e] += values[e];
}

void export_add_calls(export_profile_t *p, const uint32_t *frames, size_t depth, uint64_t calls)
{
    if (depth) p->nodes[node_of_stack(p, frames, depth)].calls += calls;
}

uint64_t export_total(const export_profile_t *p, size_t event)
{
    uint64_t t = 0;
    for (size_t n = 0; event < p->n_events && n < p->n_nodes; n++)
        t += p->values[n * p->n_events + event];
    return t;
}

/* Inclusive costs: each node's own plus its subtree's (children are always
 * created after their parents, so one backward pass adds them up). */
static uint64_t *inclusive_values(const export_profile_t *p)
{
    size_t ne = p->n_events;
    uint64_t *inc = xcalloc(p->n_nodes * ne, sizeof *inc);
    memcpy(inc, p->values, p->n_nodes * ne * sizeof *inc);
    for (size_t n = p->n_nodes; n-- > 1;)
        for (size_t e = 0; e < ne; e++) inc[p->nodes[n].parent * ne + e] += inc[n * ne + e];
    return inc;
}

static bool any_value(const uint64_t *v, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (v[k]) return true;
    return false;
}

/* ---- life cycle --------------------------------------------------------------------- */

export_profile_t *export_new(const char *creator, size_t n_events, const char *const *events,
                             const char *const *units)
{
    if (n_events == 0 || n_events > EXPORT_MAX_EVENTS) return NULL;
    export_profile_t *p = xcalloc(1, sizeof *p);
    p->creator = xstrdup(creator ? creator : "hps-sim");
    p->n_events = n_events;
    for (size_t e = 0; e < n_events; e++) {
        p->events[e] = xstrdup(events[e]);
        p->units[e] = xstrdup(units && units[e] ? units[e] : "count");
    }
    new_node(p, 0, 0);          /* the root */
    return p;
}

void export_add_comment(export_profile_t *p, const char *text)
{
    p->comments = xrealloc(p->comments, (p->n_comments + 1) * sizeof *p->comments);
    p->comments[p->n_comments++] = xstrdup(text);
}

void export_free(export_profile_t *p)
{
    if (!p) return;
    for (size_t e = 0; e < p->n_events; e++) { free(p->events[e]); free(p->units[e]); }
    for (size_t k = 0; k < p->n_comments; k++) free(p->comments[k]);
    for (size_t k = 0; k < p->n_frames; k++) {
        free(p->frames[k].function);
        free(p->frames[k].file);
        free(p->frames[k].image);
    }
    free(p->comments);
    free(p->frames);
    free(p->funcs);
    free(p->nodes);
    free(p->values);
    free(p->frame_map.slot);
    free(p->func_map.slot);
    free(p->child_map.slot);
    free(p->creator);
    free(p);
}

bool export_format_by_name(const char *name, export_format_t *out)
{
    static const char *const names[] = { "callgrind", "pprof", "folded" };
    for (int k = 0; k < 3; k++)
        if (!strcmp(name, names[k])) { *out = (export_format_t)k; return true; }
    return false;
}

/* ---- callgrind ----------------------------------------------------------------------- */

/* One cost line: a function's self cost at a position, or (callee set) a
 * call from that position with its inclusive cost. */
typedef struct cg_item {
    uint32_t func, callee;      /* callee: UINT32_MAX for self cost */
    uint64_t address, line, target, calls;    /* calls: 0 when unknown */
    const uint64_t *values;
} cg_item_t;

static int cg_item_order(const void *a, const void *b)
{
    const cg_item_t *x = a, *y = b;
    if (x->func != y->func) return x->func < y->func ? -1 : 1;
    uint64_t cx = x->callee == UINT32_MAX ? 0 : x->callee + 1ull;     /* self cost first */
    uint64_t cy = y->callee == UINT32_MAX ? 0 : y->callee + 1ull;
    if (cx != cy) return cx < cy ? -1 : 1;
    if (x->address != y->address) return x->address < y->address ? -1 : 1;
    if (x->line != y->line) return x->line < y->line ? -1 : 1;
    return x->target < y->target ? -1 : x->target > y->target;
}

static bool cg_same_key(const cg_item_t *x, const cg_item_t *y)
{
    return x->func == y->func && x->callee == y->callee && x->address == y->address &&
           x->line == y->line && x->target == y->target;
}

static size_t cg_collect(const export_profile_t *p, const uint64_t *inc, cg_item_t *items)
{
    size_t n = 0, ne = p->n_events;
    for (size_t k = 1; k < p->n_nodes; k++) {
        const node_t *nd = &p->nodes[k];
        const frame_rec_t *f = &p->frames[nd->frame];
        if (any_value(&p->values[k * ne], ne))
            items[n++] = (cg_item_t){ f->func, UINT32_MAX, f->address, f->line, 0, 0,
                                      &p->values[k * ne] };
        if (nd->parent == 0 || !any_value(&inc[k * ne], ne)) continue;
        const frame_rec_t *caller = &p->frames[p->nodes[nd->parent].frame];
        items[n++] = (cg_item_t){ caller->func, f->func, caller->address, caller->line,
                                  f->entry ? f->entry : f->address, nd->calls, &inc[k * ne] };
    }
    qsort(items, n, sizeof *items, cg_item_order);
    return n;
}

static void cg_position(FILE *f, uint64_t address, uint64_t line)
{
    fprintf(f, "0x%" PRIx64 " %" PRIu64, address, line);
}

static void cg_function_header(FILE *f, const func_rec_t *fn, const char *prefix)
{
    fprintf(f, "%sob=%s\n", prefix, fn->image ? fn->image : "(unknown)");
    fprintf(f, "%s%s=%s\n", prefix, *prefix ? "fi" : "fl", fn->file ? fn->file : "???");
    fprintf(f, "%sfn=%s\n", prefix, fn->name);
}

/* Items [k, end) share their key: print one line with their sum.  The
 * nodes of one call edge (a caller's call site, a callee) add their known
 * call counts; an edge with none is written as one call. */
static void cg_print_merged(FILE *f, const export_profile_t *p, const cg_item_t *it, size_t n)
{
    uint64_t sum[EXPORT_MAX_EVENTS] = { 0 }, calls = 0;
    for (size_t k = 0; k < n; k++) {
        for (size_t e = 0; e < p->n_events; e++) sum[e] += it[k].values[e];
        calls += it[k].calls;
    }
    if (it->callee != UINT32_MAX) {
        cg_function_header(f, &p->funcs[it->callee], "c");
        fprintf(f, "calls=%" PRIu64 " 0x%" PRIx64 "\n", calls ? calls : 1, it->target);
    }
    cg_position(f, it->address, it->line);
    for (size_t e = 0; e < p->n_events; e++) fprintf(f, " %" PRIu64, sum[e]);
    fputc('\n', f);
}

static void write_callgrind(FILE *f, const export_profile_t *p)
{
    uint64_t *inc = inclusive_values(p);
    cg_item_t *items = xcalloc(2 * p->n_nodes + 1, sizeof *items);
    size_t n = cg_collect(p, inc, items);
    fprintf(f, "# callgrind format\nversion: 1\ncreator: %s\n", p->creator);
    for (size_t k = 0; k < p->n_comments; k++) fprintf(f, "desc: %s\n", p->comments[k]);
    bool unknown = false;
    for (size_t k = 0, end; k < n; k = end) {
        uint64_t calls = 0;
        for (end = k; end < n && cg_same_key(&items[k], &items[end]); end++) calls += items[end].calls;
        unknown |= items[k].callee != UINT32_MAX && calls == 0;
    }
    if (unknown)
        fprintf(f, "desc: calls=1 on a call marks a call seen in a sampled stack whose count "
                   "is unknown (at least one call)\n");
    fprintf(f, "positions: instr line\nevents:");
    for (size_t e = 0; e < p->n_events; e++) fprintf(f, " %s", p->events[e]);
    fputc('\n', f);
    uint32_t current = UINT32_MAX;
    for (size_t k = 0; k < n;) {
        size_t end = k + 1;
        while (end < n && cg_same_key(&items[k], &items[end])) end++;
        if (items[k].func != current) {
            current = items[k].func;
            fputc('\n', f);
            cg_function_header(f, &p->funcs[current], "");
        }
        cg_print_merged(f, p, &items[k], end - k);
        k = end;
    }
    free(items);
    free(inc);
}

/* ---- folded stacks ------------------------------------------------------------------- */

typedef struct folded_line {
    char *stack;
    uint64_t value;
} folded_line_t;

static int folded_order(const void *a, const void *b)
{
    return strcmp(((const folded_line_t *)a)->stack, ((const folded_line_t *)b)->stack);
}

/* "root;...;leaf" of a node; ';' and line breaks inside names become '_'
 * (they would split frames or lines). */
static char *folded_stack(const export_profile_t *p, uint32_t node)
{
    size_t len = 1;
    for (uint32_t n = node; n; n = p->nodes[n].parent)
        len += strlen(p->frames[p->nodes[n].frame].function) + 1;
    char *s = xcalloc(len, 1);
    size_t end = len - 1;
    for (uint32_t n = node; n; n = p->nodes[n].parent) {
        const char *name = p->frames[p->nodes[n].frame].function;
        size_t l = strlen(name);
        if (n != node) s[--end] = ';';
        end -= l;
        for (size_t k = 0; k < l; k++)
            s[end + k] = (name[k] == ';' || name[k] == '\n' || name[k] == '\r') ? '_' : name[k];
    }
    memmove(s, s + end, len - end);
    return s;
}

static void write_folded(FILE *f, const export_profile_t *p, size_t event)
{
    folded_line_t *lines = xcalloc(p->n_nodes, sizeof *lines);
    size_t n = 0;
    for (uint32_t k = 1; k < p->n_nodes; k++) {
        uint64_t v = p->values[(size_t)k * p->n_events + event];
        if (v) lines[n++] = (folded_line_t){ folded_stack(p, k), v };
    }
    qsort(lines, n, sizeof *lines, folded_order);
    for (size_t k = 0; k < n;) {
        uint64_t sum = 0;
        size_t end = k;
        while (end < n && !strcmp(lines[end].stack, lines[k].stack)) sum += lines[end++].value;
        fprintf(f, "%s %" PRIu64 "\n", lines[k].stack, sum);
        for (; k < end; k++) free(lines[k].stack);
    }
    free(lines);
}

/* ---- pprof: a protobuf encoder for profile.proto ---------------------------------------- */

typedef struct pb {
    uint8_t *b;
    size_t n, cap;
} pb_t;

static void pb_bytes(pb_t *m, const void *data, size_t len)
{
    if (m->n + len > m->cap) {
        while (m->n + len > m->cap) m->cap = m->cap ? 2 * m->cap : 256;
        m->b = xrealloc(m->b, m->cap);
    }
    memcpy(m->b + m->n, data, len);
    m->n += len;
}

static void pb_varint(pb_t *m, uint64_t v)
{
    uint8_t buf[10];
    size_t n = 0;
    do {
        buf[n] = (uint8_t)(v & 0x7f);
        v >>= 7;
        if (v) buf[n] |= 0x80;
        n++;
    } while (v);
    pb_bytes(m, buf, n);
}

enum { PB_VARINT = 0, PB_LEN = 2 };

static void pb_tag(pb_t *m, unsigned field, unsigned wire) { pb_varint(m, (uint64_t)field << 3 | wire); }

/* An integer field (omitted when 0, proto3's default). */
static void pb_uint(pb_t *m, unsigned field, uint64_t v)
{
    if (!v) return;
    pb_tag(m, field, PB_VARINT);
    pb_varint(m, v);
}

static void pb_message(pb_t *m, unsigned field, pb_t *sub)
{
    pb_tag(m, field, PB_LEN);
    pb_varint(m, sub->n);
    pb_bytes(m, sub->b, sub->n);
    sub->n = 0;
}

static void pb_string(pb_t *m, unsigned field, const char *s)
{
    size_t len = strlen(s);
    pb_tag(m, field, PB_LEN);
    pb_varint(m, len);
    pb_bytes(m, s, len);
}

/* The string table: strings by first use, index 0 the empty string. */
typedef struct strtab {
    const char **v;
    size_t n;
} strtab_t;

static uint64_t str_index(strtab_t *t, const char *s)
{
    if (!s || !*s) return 0;
    for (size_t k = 1; k < t->n; k++)      /* few distinct strings: images, files, names */
        if (!strcmp(t->v[k], s)) return k;
    t->v = xrealloc(t->v, (t->n + 1) * sizeof *t->v);
    t->v[t->n] = s;
    return t->n++;
}

/* Profile field numbers (perftools.profiles.Profile). */
enum { PF_SAMPLE_TYPE = 1, PF_SAMPLE = 2, PF_MAPPING = 3, PF_LOCATION = 4, PF_FUNCTION = 5,
       PF_STRING_TABLE = 6, PF_COMMENT = 13, PF_DEFAULT_SAMPLE_TYPE = 14 };

static void pprof_sample_types(pb_t *out, pb_t *sub, const export_profile_t *p, strtab_t *st)
{
    for (size_t e = 0; e < p->n_events; e++) {
        pb_uint(sub, 1, str_index(st, p->events[e]));       /* ValueType.type */
        pb_uint(sub, 2, str_index(st, p->units[e]));        /* ValueType.unit */
        pb_message(out, PF_SAMPLE_TYPE, sub);
    }
}

/* One Sample per node with a self cost: location ids leaf first (frame id
 * + 1), values packed. */
static void pprof_samples(pb_t *out, pb_t *sub, pb_t *packed, const export_profile_t *p)
{
    for (uint32_t k = 1; k < p->n_nodes; k++) {
        const uint64_t *v = &p->values[(size_t)k * p->n_events];
        if (!any_value(v, p->n_events)) continue;
        for (uint32_t n = k; n; n = p->nodes[n].parent) pb_varint(packed, p->nodes[n].frame + 1u);
        pb_message(sub, 1, packed);                         /* Sample.location_id */
        for (size_t e = 0; e < p->n_events; e++) pb_varint(packed, v[e]);
        pb_message(sub, 2, packed);                         /* Sample.value */
        pb_message(out, PF_SAMPLE, sub);
    }
}

/* Mappings: one per image, numbered in the order of their first frame,
 * spanning the addresses of their frames. */
typedef struct pp_map {
    const char *image;
    uint64_t lo, hi;
} pp_map_t;

static size_t pprof_mapping_of(pp_map_t *maps, size_t *n, const frame_rec_t *f)
{
    if (!f->image) return 0;
    size_t k = 0;
    while (k < *n && strcmp(maps[k].image, f->image)) k++;
    if (k == *n) maps[(*n)++] = (pp_map_t){ f->image, f->address, f->address };
    if (f->address < maps[k].lo) maps[k].lo = f->address;
    if (f->address > maps[k].hi) maps[k].hi = f->address;
    return k + 1;
}

static void pprof_locations(pb_t *out, pb_t *sub, pb_t *line, const export_profile_t *p,
                            strtab_t *st)
{
    pp_map_t *maps = xcalloc(p->n_frames + 1, sizeof *maps);
    size_t n_maps = 0;
    for (size_t k = 0; k < p->n_frames; k++) {
        const frame_rec_t *f = &p->frames[k];
        pb_uint(sub, 1, k + 1);                                 /* Location.id */
        pb_uint(sub, 2, pprof_mapping_of(maps, &n_maps, f));    /* mapping_id */
        pb_uint(sub, 3, f->address);                            /* address */
        pb_uint(line, 1, f->func + 1u);                         /* Line.function_id */
        pb_uint(line, 2, f->line);                              /* Line.line */
        pb_message(sub, 4, line);
        pb_message(out, PF_LOCATION, sub);
    }
    for (size_t k = 0; k < n_maps; k++) {
        pb_uint(sub, 1, k + 1);                                 /* Mapping.id */
        pb_uint(sub, 2, maps[k].lo);                            /* memory_start */
        pb_uint(sub, 3, maps[k].hi + 1);                        /* memory_limit */
        pb_uint(sub, 5, str_index(st, maps[k].image));          /* filename */
        pb_uint(sub, 7, 1);                                     /* has_functions */
        pb_message(out, PF_MAPPING, sub);
    }
    free(maps);
}

static void pprof_functions(pb_t *out, pb_t *sub, const export_profile_t *p, strtab_t *st)
{
    for (size_t k = 0; k < p->n_funcs; k++) {
        const func_rec_t *fn = &p->funcs[k];
        pb_uint(sub, 1, k + 1);                                 /* Function.id */
        pb_uint(sub, 2, str_index(st, fn->name));               /* name */
        pb_uint(sub, 3, str_index(st, fn->name));               /* system_name */
        pb_uint(sub, 4, str_index(st, fn->file));               /* filename */
        pb_message(out, PF_FUNCTION, sub);
    }
}

static pb_t encode_pprof(const export_profile_t *p, size_t default_event)
{
    pb_t out = { 0 }, sub = { 0 }, inner = { 0 };
    strtab_t st = { xcalloc(1, sizeof *st.v), 1 };
    st.v[0] = "";
    pprof_sample_types(&out, &sub, p, &st);
    pprof_samples(&out, &sub, &inner, p);
    pprof_locations(&out, &sub, &inner, p, &st);
    pprof_functions(&out, &sub, p, &st);
    for (size_t k = 0; k < p->n_comments; k++) pb_uint(&out, PF_COMMENT, str_index(&st, p->comments[k]));
    pb_uint(&out, PF_DEFAULT_SAMPLE_TYPE, str_index(&st, p->events[default_event]));
    for (size_t k = 0; k < st.n; k++) pb_string(&out, PF_STRING_TABLE, st.v[k]);
    free(st.v);
    free(sub.b);
    free(inner.b);
    return out;
}

/* gzip (zlib's deflate with a gzip header; its time field stays 0, so the
 * same profile gives the same bytes). */
static bool write_gzip(const char *path, const pb_t *data, char *err, size_t errlen)
{
    gzFile gz = gzopen(path, "wb9");
    if (!gz) return set_error(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    bool ok = data->n == 0 || gzwrite(gz, data->b, (unsigned)data->n) == (int)data->n;
    ok = gzclose(gz) == Z_OK && ok;
    return ok ? true : set_error(err, errlen, "%s: cannot write the compressed profile", path);
}

/* ---- writing ----------------------------------------------------------------------------- */

bool export_write(const export_profile_t *p, export_format_t fmt, size_t event,
                  const char *path, char *err, size_t errlen)
{
    if (event >= p->n_events)
        return set_error(err, errlen, "%s: no event %zu to export (the profile has %zu)", path,
                         event, p->n_events);
    if (fmt == EXPORT_PPROF) {
        pb_t data = encode_pprof(p, event);
        if (data.n > 0xffffffffu) { free(data.b); return set_error(err, errlen, "%s: profile too large", path); }
        bool ok = write_gzip(path, &data, err, errlen);
        free(data.b);
        return ok;
    }
    FILE *f = fopen(path, "w");
    if (!f) return set_error(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    if (fmt == EXPORT_CALLGRIND) write_callgrind(f, p);
    else write_folded(f, p, event);
    if (ferror(f) | (fclose(f) != 0))
        return set_error(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    return true;
}
