/*
 * truth.c - ground-truth tables: a small open-addressing hash map keyed by
 * a pair of 64-bit values (see truth.h).  Used off the fast path only.
 */
#include "truth.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

static uint64_t mix(uint64_t a, uint64_t b)
{
    uint64_t h = a * 0x9e3779b97f4a7c15ull ^ (b + 0x632be59bd9b4e019ull);
    h ^= h >> 31;
    h *= 0xbf58476d1ce4e5b9ull;
    return h ^ (h >> 29);
}

/* Slot for (a, b): the matching entry or the empty slot where it belongs.
 * An entry with count 0 is empty. */
static pair_count_t *find_slot(pair_count_t *slots, size_t cap, uint64_t a, uint64_t b)
{
    size_t i = mix(a, b) & (cap - 1);
    while (slots[i].count && (slots[i].a != a || slots[i].b != b))
        i = (i + 1) & (cap - 1);
    return &slots[i];
}

static void grow(pair_table_t *t)
{
    size_t cap = t->cap ? 2 * t->cap : 256;
    pair_count_t *slots = xcalloc(cap, sizeof *slots);
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].count)
            *find_slot(slots, cap, t->slots[i].a, t->slots[i].b) = t->slots[i];
    free(t->slots);
    t->slots = slots;
    t->cap = cap;
}

void pair_table_add(pair_table_t *t, uint64_t a, uint64_t b, uint64_t n)
{
    if (n == 0) return;
    if (2 * (t->used + 1) > t->cap) grow(t);
    pair_count_t *s = find_slot(t->slots, t->cap, a, b);
    if (!s->count) { s->a = a; s->b = b; t->used++; }
    s->count += n;
}

void pair_table_free(pair_table_t *t)
{
    free(t->slots);
    t->slots = NULL;
    t->cap = t->used = 0;
}

static int by_count_desc(const void *x, const void *y)
{
    const pair_count_t *p = x, *q = y;
    if (p->count != q->count) return p->count < q->count ? 1 : -1;
    if (p->a != q->a) return p->a < q->a ? -1 : 1;
    if (p->b != q->b) return p->b < q->b ? -1 : 1;
    return 0;
}

pair_count_t *pair_table_sorted(const pair_table_t *t, size_t *n)
{
    pair_count_t *out = xcalloc(t->used, sizeof *out);
    size_t k = 0;
    for (size_t i = 0; i < t->cap; i++)
        if (t->slots[i].count) out[k++] = t->slots[i];
    qsort(out, k, sizeof *out, by_count_desc);
    *n = k;
    return out;
}

void truth_free(truth_t *t)
{
    pair_table_free(&t->call_pairs);
    pair_table_free(&t->methods);
}
