/*
 * hot_streams.c - hot data stream detection on SEQUITUR grammars, the
 * search for the heat threshold H, the table that names streams across
 * profiles, and the window-by-window analysis of a trace (hot_streams.h).
 */
#include "hot_streams.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "util.h"

void hot_stream_params_default(hot_stream_params_t *p)
{
    *p = (hot_stream_params_t){ .min_len = 11, .max_len = 100, .heat = 0, .coverage = 0.9,
                                .window = HOT_STREAM_DEFAULT_WINDOW,
                                .grammar_max = HOT_STREAM_DEFAULT_GRAMMAR_MAX };
}

/* ---- detection on one grammar ---------------------------------------------------------- */

static inline bool is_separator(uint32_t sym)
{
    return !sequitur_is_rule(sym) && (sym & SEQUITUR_UNIQUE_BIT);
}

/* Rules in postorder from S (each after every rule it uses). */
static uint32_t postorder(const sequitur_grammar_t *g, uint32_t *post)
{
    uint8_t *seen = xcalloc(g->nrules, 1);
    uint32_t *rule = xcalloc(g->nrules, sizeof *rule), *pos = xcalloc(g->nrules, sizeof *pos);
    size_t depth = 0;
    uint32_t n = 0;
    rule[depth] = 0;
    pos[depth++] = g->start[0];
    seen[0] = 1;
    while (depth) {
        uint32_t r = rule[depth - 1], k = pos[depth - 1];
        if (k == g->start[r + 1]) {
            post[n++] = r;
            depth--;
            continue;
        }
        pos[depth - 1] = k + 1;
        uint32_t s = g->sym[k];
        if (!sequitur_is_rule(s) || seen[sequitur_rule_index(s)]) continue;
        seen[sequitur_rule_index(s)] = 1;
        rule[depth] = sequitur_rule_index(s);
        pos[depth++] = g->start[sequitur_rule_index(s)];
    }
    free(seen);
    free(rule);
    free(pos);
    return n;
}

static uint64_t expansion_length(const sequitur_grammar_t *g, const uint64_t *len, uint32_t r)
{
    uint64_t n = 0;
    for (uint32_t k = g->start[r]; k < g->start[r + 1]; k++)
        n += sequitur_is_rule(g->sym[k]) ? len[sequitur_rule_index(g->sym[k])] : 1;
    return n;
}

void stream_detector_init(stream_detector_t *d, const sequitur_grammar_t *g)
{
    memset(d, 0, sizeof *d);
    d->g = g;
    size_t n = g->nrules ? g->nrules : 1;
    d->order = xcalloc(n, sizeof *d->order);
    d->len = xcalloc(n, sizeof *d->len);
    d->cold = xcalloc(n, sizeof *d->cold);
    if (!g->nrules) return;
    uint32_t count = postorder(g, d->order);
    for (uint32_t i = 0; i < count; i++) d->len[d->order[i]] = expansion_length(g, d->len, d->order[i]);
    for (uint32_t i = 0; i < count / 2; i++) {          /* reverse: users first */
        uint32_t t = d->order[i];
        d->order[i] = d->order[count - 1 - i];
        d->order[count - 1 - i] = t;
    }
    uint64_t separators = 0;
    for (uint32_t k = g->start[0]; k < g->start[1]; k++) separators += is_separator(g->sym[k]);
    d->references = d->len[0] - separators;
}

void stream_detector_free(stream_detector_t *d)
{
    free(d->order);
    free(d->len);
    free(d->cold);
    memset(d, 0, sizeof *d);
}

size_t stream_detector_bytes(const stream_detector_t *d)
{
    return (size_t)(d->g->nrules ? d->g->nrules : 1) * (sizeof *d->order + 2 * sizeof(uint64_t));
}

static void pass_cold_uses(stream_detector_t *d, uint32_t r, uint64_t uses)
{
    const sequitur_grammar_t *g = d->g;
    for (uint32_t k = g->start[r]; k < g->start[r + 1]; k++)
        if (sequitur_is_rule(g->sym[k])) d->cold[sequitur_rule_index(g->sym[k])] += uses;
}

uint64_t stream_detect(stream_detector_t *d, uint64_t min_len, uint64_t max_len, uint64_t heat,
                       hot_stream_emit_fn emit, void *ctx, size_t *count)
{
    uint32_t nrules = d->g->nrules;
    uint64_t covered = 0;
    size_t found = 0;
    if (nrules) {
        memset(d->cold, 0, (size_t)nrules * sizeof *d->cold);
        d->cold[0] = 1;
    }
    for (uint32_t i = 0; i < nrules; i++) {
        uint32_t r = d->order[i];
        uint64_t uses = d->cold[r], len = d->len[r];
        if (uses == 0) continue;
        if (r != 0 && len >= min_len && len <= max_len && len * uses >= heat) {
            hot_stream_hit_t hit = { r, len, uses, len * uses };
            if (emit) emit(ctx, &hit);
            covered += hit.heat;
            found++;
            continue;
        }
        pass_cold_uses(d, r, uses);
    }
    if (count) *count = found;
    return covered;
}

/* The references to cover: coverage × of them, rounded up (with a relative
 * slack of 1e-9, so that 0.9 × 10 is 9). */
static uint64_t covered_target(double coverage, uint64_t of)
{
    double want = (coverage > 1 ? 1 : coverage) * (double)of;
    return want <= 0 ? 0 : (uint64_t)ceil(want - 1e-9 * (double)of);
}

uint64_t stream_search_heat(stream_detector_t *d, uint64_t min_len, uint64_t max_len,
                            double coverage, bool *reached)
{
    uint64_t need = covered_target(coverage, d->references);
    *reached = true;
    if (need == 0) return d->references + 1;            /* nothing need be hot */
    uint64_t most = stream_detect(d, min_len, max_len, 1, NULL, NULL, NULL);
    if (most < need) {                  /* out of reach: `coverage` of what H = 1 covers */
        *reached = false;
        need = covered_target(coverage, most);
        if (need == 0) return 1;
    }
    uint64_t lo = 1, hi = d->references + 1;            /* covers at lo, not at hi */
    while (hi - lo > 1) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (stream_detect(d, min_len, max_len, mid, NULL, NULL, NULL) >= need) lo = mid;
        else hi = mid;
    }
    return lo;
}

size_t stream_expand(const sequitur_grammar_t *g, uint32_t rule, uint32_t *out, size_t max)
{
    size_t n = 0, depth = 0, cap = 16;
    uint32_t *stack = xcalloc(cap, sizeof *stack);      /* positions still to read */
    uint32_t *end = xcalloc(cap, sizeof *end);
    stack[0] = g->start[rule];
    end[depth++] = g->start[rule + 1];
    while (depth && n < max) {
        if (stack[depth - 1] == end[depth - 1]) { depth--; continue; }
        uint32_t s = g->sym[stack[depth - 1]++];
        if (!sequitur_is_rule(s)) { out[n++] = s; continue; }
        if (depth == cap) {
            cap *= 2;
            stack = xrealloc(stack, cap * sizeof *stack);
            end = xrealloc(end, cap * sizeof *end);
        }
        stack[depth] = g->start[sequitur_rule_index(s)];
        end[depth++] = g->start[sequitur_rule_index(s) + 1];
    }
    free(stack);
    free(end);
    return n;
}

/* ---- the stream table ------------------------------------------------------------------- */

static size_t sequence_hash(const uint32_t *sym, size_t len)
{
    uint64_t h = 0x84222325CBF29CE4ull ^ len;
    for (size_t k = 0; k < len; k++) h = (h ^ sym[k]) * 0x100000001B3ull;
    h ^= h >> 32;
    h *= 0xBF58476D1CE4E5B9ull;
    return (size_t)(h ^ h >> 29);
}

void stream_table_init(stream_table_t *t)
{
    memset(t, 0, sizeof *t);
    t->mask = 255;
    t->slot = xcalloc(t->mask + 1, sizeof *t->slot);
    t->offset_cap = 64;
    t->offset = xcalloc(t->offset_cap, sizeof *t->offset);
}

void stream_table_free(stream_table_t *t)
{
    free(t->slot);
    free(t->offset);
    free(t->pool);
    memset(t, 0, sizeof *t);
}

const uint32_t *stream_table_get(const stream_table_t *t, uint32_t id, size_t *len)
{
    *len = (size_t)(t->offset[id + 1] - t->offset[id]);
    return t->pool + t->offset[id];
}

static bool same_stream(const stream_table_t *t, uint32_t id, const uint32_t *sym, size_t len)
{
    size_t n;
    const uint32_t *s = stream_table_get(t, id, &n);
    return n == len && !memcmp(s, sym, len * sizeof *sym);
}

static size_t stream_slot(const stream_table_t *t, const uint32_t *sym, size_t len)
{
    size_t i = sequence_hash(sym, len) & t->mask;
    while (t->slot[i] && !same_stream(t, t->slot[i] - 1, sym, len)) i = (i + 1) & t->mask;
    return i;
}

static void stream_table_grow(stream_table_t *t)
{
    uint32_t *old = t->slot;
    size_t old_cap = t->mask + 1;
    t->mask = old_cap * 2 - 1;
    t->slot = xcalloc(t->mask + 1, sizeof *t->slot);
    for (size_t i = 0; i < old_cap; i++) {
        if (!old[i]) continue;
        size_t len;
        const uint32_t *s = stream_table_get(t, old[i] - 1, &len);
        t->slot[stream_slot(t, s, len)] = old[i];
    }
    free(old);
}

static uint32_t stream_table_add(stream_table_t *t, size_t slot, const uint32_t *sym, size_t len)
{
    if (t->pool_len + len > t->pool_cap) {
        t->pool_cap = (t->pool_len + len) * 2;
        t->pool = xrealloc(t->pool, t->pool_cap * sizeof *t->pool);
    }
    if (t->count + 2 > t->offset_cap) {
        t->offset_cap *= 2;
        t->offset = xrealloc(t->offset, t->offset_cap * sizeof *t->offset);
    }
    memcpy(t->pool + t->pool_len, sym, len * sizeof *sym);
    t->offset[t->count] = t->pool_len;
    t->pool_len += len;
    t->offset[t->count + 1] = t->pool_len;
    t->slot[slot] = (uint32_t)++t->count;
    if (t->count * 4 > (t->mask + 1) * 3) stream_table_grow(t);
    return (uint32_t)(t->count - 1);
}

uint32_t stream_table_intern(stream_table_t *t, const uint32_t *sym, size_t len)
{
    size_t i = stream_slot(t, sym, len);
    return t->slot[i] ? t->slot[i] - 1 : stream_table_add(t, i, sym, len);
}

size_t stream_table_bytes(const stream_table_t *t)
{
    return (t->mask + 1) * sizeof *t->slot + t->offset_cap * sizeof *t->offset +
           t->pool_cap * sizeof *t->pool;
}

/* ---- a trace, window by window ----------------------------------------------------------- */

void stream_analysis_init(stream_analysis_t *a, const hot_stream_params_t *p, stream_table_t *table)
{
    memset(a, 0, sizeof *a);
    a->params = *p;
    a->table = table;
    a->heat = profile_new();
    a->freq = profile_new();
}

void stream_analysis_free(stream_analysis_t *a)
{
    profile_free(a->heat);
    profile_free(a->freq);
    free(a->symbol_refs);
    memset(a, 0, sizeof *a);
}

static void count_symbol(stream_analysis_t *a, uint32_t sym)
{
    if (sym >= a->symbol_refs_cap) {
        size_t cap = a->symbol_refs_cap ? a->symbol_refs_cap : 1024;
        while (cap <= sym) cap *= 2;
        a->symbol_refs = xrealloc(a->symbol_refs, cap * sizeof *a->symbol_refs);
        memset(a->symbol_refs + a->symbol_refs_cap, 0,
               (cap - a->symbol_refs_cap) * sizeof *a->symbol_refs);
        a->symbol_refs_cap = cap;
    }
    a->symbol_refs[sym]++;
}

typedef struct merge_ctx {
    stream_analysis_t *a;
    const sequitur_grammar_t *g;
    uint32_t *buf;
    size_t cap;
} merge_ctx_t;

/* A hot stream of one window joins the trace's profile under its sequence. */
static void merge_hit(void *ctx, const hot_stream_hit_t *hit)
{
    merge_ctx_t *m = ctx;
    if (hit->len > m->cap) {
        m->cap = (size_t)hit->len;
        m->buf = xrealloc(m->buf, m->cap * sizeof *m->buf);
    }
    size_t len = stream_expand(m->g, hit->rule, m->buf, hit->len);
    uint32_t id = stream_table_intern(m->a->table, m->buf, len);
    profile_add(m->a->heat, id, 0, hit->heat);
    profile_add(m->a->freq, id, 0, hit->uses);
}

static void note_heat(stream_analysis_t *a, uint64_t heat, bool reached)
{
    if (!a->heat_min || heat < a->heat_min) a->heat_min = heat;
    if (heat > a->heat_max) a->heat_max = heat;
    if (!reached) a->coverage_short = true;
}

/* CPU time of this thread: the analysis runs on it, and a busy host does
 * not inflate it. */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Detect the hot streams of one window's grammar (g is freed). */
static void analyse_grammar(stream_analysis_t *a, sequitur_t *g)
{
    const hot_stream_params_t *p = &a->params;
    if (sequitur_grammar_size(g) > a->grammar_symbols) {
        a->grammar_symbols = sequitur_grammar_size(g);
        a->grammar_rules = sequitur_rule_count(g);
    }
    sequitur_grammar_t gr;
    sequitur_export(g, &gr);
    size_t build_bytes = sequitur_bytes(g) + sequitur_grammar_bytes(&gr);
    sequitur_free(g);
    double t0 = cpu_seconds();
    stream_detector_t d;
    stream_detector_init(&d, &gr);
    size_t detect_bytes = sequitur_grammar_bytes(&gr) + stream_detector_bytes(&d);
    size_t bytes = build_bytes > detect_bytes ? build_bytes : detect_bytes;
    if (bytes > a->peak_bytes) a->peak_bytes = bytes;
    bool reached = true;
    uint64_t heat = p->heat ? p->heat : stream_search_heat(&d, p->min_len, p->max_len,
                                                           p->coverage, &reached);
    note_heat(a, heat, reached);
    merge_ctx_t m = { a, &gr, NULL, 0 };
    a->covered += stream_detect(&d, p->min_len, p->max_len, heat, merge_hit, &m, NULL);
    free(m.buf);
    stream_detector_free(&d);
    sequitur_grammar_free(&gr);
    a->detect_seconds += cpu_seconds() - t0;
    a->windows++;
}

/* Feed sym[*i ..] to a grammar until the end or the grammar cap; true when cut. */
static bool build_window(stream_analysis_t *a, sequitur_t *g, const uint32_t *sym, size_t n,
                         size_t *i)
{
    uint64_t cap = a->params.grammar_max ? a->params.grammar_max : UINT64_MAX;
    while (*i < n) {
        uint32_t s = sym[(*i)++];
        if (s == DATA_TRACE_SEPARATOR) {
            sequitur_append_unique(g);
            a->separators++;
        } else {
            sequitur_append(g, s);
            if (s != DATA_SYMBOL_OVERFLOW) count_symbol(a, s);
            a->references++;
        }
        if (sequitur_grammar_size(g) + sequitur_rule_count(g) >= cap && *i < n) return true;
    }
    return false;
}

void stream_analysis_window(void *analysis, const uint32_t *sym, size_t n)
{
    stream_analysis_t *a = analysis;
    double t0 = cpu_seconds();
    size_t i = 0;
    while (i < n) {
        sequitur_t *g = sequitur_new();
        if (build_window(a, g, sym, n, &i)) a->grammar_cuts++;
        analyse_grammar(a, g);
    }
    a->seconds += cpu_seconds() - t0;
}

double stream_analysis_coverage(const stream_analysis_t *a)
{
    return a->references ? (double)a->covered / (double)a->references : 0;
}

double hot_stream_accuracy(const stream_analysis_t *sampled, const stream_analysis_t *exact,
                           double fraction, bool renormalize)
{
    return profile_accuracy(sampled->heat, exact->heat, fraction, renormalize);
}
