/* hashidx.c - open-addressing hash index (linear probing, tombstones,
 * pluggable hash function) mapping objdb primary keys to record slots. */
#include "db.h"

#include <stdlib.h>

#define EMPTY (-1)
#define TOMB (-2)

uint64_t hash_mix64(int64_t key)
{
    uint64_t x = (uint64_t)key;
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static void alloc_table(HashIdx *h, uint32_t cap)
{
    h->keys = malloc((size_t)cap * sizeof(int64_t));
    h->vals = malloc((size_t)cap * sizeof(int32_t));
    if (!h->keys || !h->vals)
        fail("out of memory");
    for (uint32_t i = 0; i < cap; i++) {
        h->keys[i] = 0;
        h->vals[i] = EMPTY;
    }
    h->cap = cap;
    h->count = h->used = 0;
}

void hx_init(HashIdx *h, uint32_t cap, KeyHash fn)
{
    uint32_t c = 16;
    while (c < cap)
        c <<= 1;
    h->hash = fn;
    h->probes = 0;
    alloc_table(h, c);
}

void hx_free(HashIdx *h)
{
    free(h->keys);
    free(h->vals);
}

static uint32_t find_slot(HashIdx *h, int64_t key, bool for_insert)
{
    uint32_t mask = h->cap - 1;
    uint32_t tomb = UINT32_MAX;
    for (uint32_t i = (uint32_t)h->hash(key) & mask;; i = (i + 1) & mask) {
        h->probes++;
        if (h->vals[i] == EMPTY)
            return for_insert && tomb != UINT32_MAX ? tomb : i;
        if (h->vals[i] == TOMB) {
            if (tomb == UINT32_MAX)
                tomb = i;
        } else if (h->keys[i] == key) {
            return i;
        }
    }
}

static void rehash(HashIdx *h, uint32_t ncap)
{
    int64_t *ok = h->keys;
    int32_t *ov = h->vals;
    uint32_t oc = h->cap;
    alloc_table(h, ncap);
    for (uint32_t i = 0; i < oc; i++)
        if (ov[i] >= 0)
            hx_put(h, ok[i], ov[i]);
    free(ok);
    free(ov);
}

bool hx_put(HashIdx *h, int64_t key, int32_t val)
{
    if ((h->used + 1) * 10 > h->cap * 7)
        rehash(h, h->count * 2 > h->cap / 2 ? h->cap * 2 : h->cap);
    uint32_t i = find_slot(h, key, true);
    bool fresh = h->vals[i] < 0;
    if (fresh) {
        if (h->vals[i] == EMPTY)
            h->used++;
        h->count++;
    }
    h->keys[i] = key;
    h->vals[i] = val;
    return fresh;
}

int32_t hx_get(HashIdx *h, int64_t key)
{
    uint32_t i = find_slot(h, key, false);
    return h->vals[i] >= 0 ? h->vals[i] : -1;
}

bool hx_remove(HashIdx *h, int64_t key)
{
    uint32_t i = find_slot(h, key, false);
    if (h->vals[i] < 0)
        return false;
    h->vals[i] = TOMB;
    h->count--;
    return true;
}
