/* earley.c - Earley recogniser for nlparse, run over the original
 * (non-binarised) grammar as an independent check of the CYK parser.
 * Items are (rule, dot, origin); each Earley set keeps a work list and a
 * bitmap for duplicate elimination. */
#include "nlparse.h"
#include <stdlib.h>
#include <string.h>

typedef struct item {
    int16_t rule, dot;
    int32_t origin;
} item;

typedef struct eset {
    item *items;
    int n, cap;
    uint8_t *seen;       /* [rule][dot][origin] */
} eset;

struct earley {
    const grammar *g;
    int maxlen;
    eset *sets;
    size_t seen_size;
    int *rules_of;       /* rules grouped by lhs */
    int rules_start[MAX_SYMS + 1];
};

earley *earley_new(const grammar *g, int maxlen)
{
    earley *e = calloc(1, sizeof(earley));
    e->g = g;
    e->maxlen = maxlen;
    e->seen_size = (size_t)g->nrules * (MAX_RHS + 1) * (maxlen + 1);
    e->sets = calloc((size_t)maxlen + 1, sizeof(eset));
    for (int i = 0; i <= maxlen; i++) {
        e->sets[i].cap = 64;
        e->sets[i].items = malloc(64 * sizeof(item));
        e->sets[i].seen = calloc(e->seen_size, 1);
    }
    e->rules_of = malloc((size_t)g->nrules * sizeof(int));
    int k = 0;
    for (int s = 0; s < g->nsyms && s < MAX_SYMS; s++) {
        e->rules_start[s] = k;
        for (int r = 0; r < g->nrules; r++)
            if (g->rules[r].lhs == s)
                e->rules_of[k++] = r;
    }
    for (int s = g->nsyms; s <= MAX_SYMS; s++)
        e->rules_start[s] = k;
    return e;
}

static size_t seen_index(const earley *e, int rule, int dot, int origin)
{
    return ((size_t)rule * (MAX_RHS + 1) + dot) * (e->maxlen + 1) + origin;
}

static void add_item(earley *e, int set, int rule, int dot, int origin)
{
    eset *s = &e->sets[set];
    size_t k = seen_index(e, rule, dot, origin);
    if (s->seen[k])
        return;
    s->seen[k] = 1;
    if (s->n >= s->cap) {
        s->cap *= 2;
        s->items = realloc(s->items, (size_t)s->cap * sizeof(item));
    }
    item it = {(int16_t)rule, (int16_t)dot, origin};
    s->items[s->n++] = it;
}

static void predict(earley *e, int set, int sym)
{
    for (int k = e->rules_start[sym]; k < e->rules_start[sym + 1]; k++)
        add_item(e, set, e->rules_of[k], 0, set);
}

static void complete(earley *e, int set, int lhs, int origin)
{
    eset *o = &e->sets[origin];
    /* o may grow while we scan it only when origin == set */
    for (int x = 0; x < o->n; x++) {
        item it = o->items[x];
        const rule *r = &e->g->rules[it.rule];
        if (it.dot < r->nrhs && r->rhs[it.dot] == lhs)
            add_item(e, set, it.rule, it.dot + 1, it.origin);
    }
}

static void scan(earley *e, int set, const item *it, uint32_t mask)
{
    const rule *r = &e->g->rules[it->rule];
    if (mask & (1u << r->rhs[it->dot]))
        add_item(e, set + 1, it->rule, it->dot + 1, it->origin);
}

/* Clear only the duplicate bits set by the previous sentence. */
static void reset_set(earley *e, eset *s)
{
    for (int x = 0; x < s->n; x++)
        s->seen[seen_index(e, s->items[x].rule, s->items[x].dot, s->items[x].origin)] = 0;
    s->n = 0;
}

int earley_recognise(earley *e, const uint32_t *masks, int n, uint64_t *items)
{
    const grammar *g = e->g;
    for (int i = 0; i <= e->maxlen; i++)
        reset_set(e, &e->sets[i]);
    predict(e, 0, g->start);
    for (int i = 0; i <= n; i++) {
        eset *s = &e->sets[i];
        for (int x = 0; x < s->n; x++) {
            item it = s->items[x];
            const rule *r = &g->rules[it.rule];
            if (it.dot == r->nrhs)
                complete(e, i, r->lhs, it.origin);
            else if (r->rhs[it.dot] >= g->nterms)
                predict(e, i, r->rhs[it.dot]);
            else if (i < n)
                scan(e, i, &it, masks[i]);
        }
        *items += (uint64_t)s->n;
    }
    const eset *last = &e->sets[n];
    for (int x = 0; x < last->n; x++) {
        const item *it = &last->items[x];
        const rule *r = &g->rules[it->rule];
        if (r->lhs == g->start && it->dot == r->nrhs && it->origin == 0)
            return 1;
    }
    return 0;
}
