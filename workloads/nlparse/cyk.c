/* cyk.c - CYK chart parser of nlparse over the binarised grammar: counts
 * parse trees (mod 2^64) and finds the best-scoring derivation for every
 * span and symbol, applying unary rules in topological order. */
#include "nlparse.h"
#include <stdlib.h>
#include <string.h>

struct cyk_chart {
    const grammar *g;
    int maxlen;
    int nsyms;
    uint64_t *count;     /* [(i * (maxlen+1) + j) * nsyms + A] */
    int *best;
    uint32_t *present;   /* bitmask of symbols with count>0 per cell */
};

cyk_chart *cyk_new(const grammar *g, int maxlen)
{
    cyk_chart *c = calloc(1, sizeof(cyk_chart));
    size_t cells = (size_t)(maxlen + 1) * (maxlen + 1);
    c->g = g;
    c->maxlen = maxlen;
    c->nsyms = g->nsyms;
    c->count = malloc(cells * (size_t)g->nsyms * sizeof(uint64_t));
    c->best = malloc(cells * (size_t)g->nsyms * sizeof(int));
    c->present = malloc(cells * 2 * sizeof(uint32_t));
    return c;
}

static size_t cell(const cyk_chart *c, int i, int j) { return (size_t)i * (c->maxlen + 1) + j; }

static uint64_t *cell_count(cyk_chart *c, int i, int j) { return c->count + cell(c, i, j) * c->nsyms; }
static int *cell_best(cyk_chart *c, int i, int j) { return c->best + cell(c, i, j) * c->nsyms; }
static uint32_t *cell_present(cyk_chart *c, int i, int j) { return c->present + cell(c, i, j) * 2; }

static void set_present(uint32_t *p, int sym) { p[sym >> 5] |= 1u << (sym & 31); }

static void clear_cell(cyk_chart *c, int i, int j)
{
    memset(cell_count(c, i, j), 0, (size_t)c->nsyms * sizeof(uint64_t));
    int *b = cell_best(c, i, j);
    for (int s = 0; s < c->nsyms; s++)
        b[s] = -1;
    uint32_t *p = cell_present(c, i, j);
    p[0] = p[1] = 0;
}

static void apply_unaries(cyk_chart *c, int i, int j)
{
    const grammar *g = c->g;
    uint64_t *cnt = cell_count(c, i, j);
    int *best = cell_best(c, i, j);
    uint32_t *pres = cell_present(c, i, j);
    for (int u = 0; u < g->nun; u++) {
        const rule *r = &g->un[u];
        int b = r->rhs[0];
        if (!cnt[b])
            continue;
        cnt[r->lhs] += cnt[b];
        if (best[b] + r->weight > best[r->lhs])
            best[r->lhs] = best[b] + r->weight;
        set_present(pres, r->lhs);
    }
}

static void fill_leaf(cyk_chart *c, int i, uint32_t mask)
{
    clear_cell(c, i, i + 1);
    uint64_t *cnt = cell_count(c, i, i + 1);
    int *best = cell_best(c, i, i + 1);
    for (int p = 0; p < c->g->nterms; p++)
        if (mask & (1u << p)) {
            cnt[p] = 1;
            best[p] = 0;
            set_present(cell_present(c, i, i + 1), p);
        }
    apply_unaries(c, i, i + 1);
}

/* Combine left cell (i,k) with right cell (k,j) into (i,j). */
static void combine(cyk_chart *c, int i, int k, int j)
{
    const grammar *g = c->g;
    const uint32_t *lp = cell_present(c, i, k);
    const uint32_t *rp = cell_present(c, k, j);
    if (!(rp[0] | rp[1]))
        return;
    const uint64_t *lc = cell_count(c, i, k), *rc = cell_count(c, k, j);
    const int *lb = cell_best(c, i, k), *rb = cell_best(c, k, j);
    uint64_t *out = cell_count(c, i, j);
    int *ob = cell_best(c, i, j);
    uint32_t *op = cell_present(c, i, j);
    for (int w = 0; w < 2; w++) {
        uint32_t bits = lp[w];
        while (bits) {
            int b = w * 32 + __builtin_ctz(bits);
            bits &= bits - 1;
            for (int x = g->bin_left_start[b]; x < g->bin_left_start[b + 1]; x++) {
                const rule *r = &g->bin[g->bin_by_left[x]];
                int cs = r->rhs[1];
                if (!rc[cs])
                    continue;
                out[r->lhs] += lc[b] * rc[cs];
                int sc = lb[b] + rb[cs] + r->weight;
                if (sc > ob[r->lhs])
                    ob[r->lhs] = sc;
                set_present(op, r->lhs);
            }
        }
    }
}

static uint64_t chart_digest(cyk_chart *c, int n)
{
    uint64_t h = 0x84222325cbf29ce4ULL;
    for (int len = 1; len <= n; len++)
        for (int i = 0; i + len <= n; i++) {
            const uint64_t *cnt = cell_count(c, i, i + len);
            for (int s = 0; s < c->nsyms; s++)
                if (cnt[s]) {
                    h ^= cnt[s] + (uint64_t)(s * 131 + len * 7 + i);
                    h *= 0x100000001b3ULL;
                }
        }
    return h;
}

void cyk_parse(cyk_chart *c, const uint32_t *masks, int n, parse_result *res)
{
    for (int i = 0; i < n; i++)
        fill_leaf(c, i, masks[i]);
    for (int len = 2; len <= n; len++)
        for (int i = 0; i + len <= n; i++) {
            int j = i + len;
            clear_cell(c, i, j);
            for (int k = i + 1; k < j; k++)
                combine(c, i, k, j);
            apply_unaries(c, i, j);
        }
    int s = c->g->start;
    res->count = cell_count(c, 0, n)[s];
    res->best = cell_best(c, 0, n)[s];
    res->accepted = res->count != 0 || res->best >= 0;
    res->chart_sum = chart_digest(c, n);
}
