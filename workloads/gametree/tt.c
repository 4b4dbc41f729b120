/*
 * tt.c - transposition table: two-entry buckets indexed by the Zobrist
 * key, replacing the shallower or older entry, with probe/hit statistics.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "othello.h"

void tt_create(tt_t *t, int log2_entries)
{
    size_t n = (size_t)1 << log2_entries;
    t->e = malloc(n * sizeof(tt_entry_t));
    if (!t->e) {
        fprintf(stderr, "gametree: out of memory\n");
        exit(2);
    }
    t->mask = (uint32_t)(n - 2);     /* bucket index: even slot */
    tt_clear(t);
}

void tt_destroy(tt_t *t)
{
    free(t->e);
    t->e = NULL;
}

void tt_clear(tt_t *t)
{
    memset(t->e, 0, ((size_t)t->mask + 2) * sizeof(tt_entry_t));
    t->probes = t->hits = t->stores = 0;
    t->age = 0;
}

static tt_entry_t *bucket(const tt_t *t, uint64_t key)
{
    return &t->e[(uint32_t)(key >> 20) & t->mask];
}

const tt_entry_t *tt_probe(tt_t *t, uint64_t key)
{
    tt_entry_t *b = bucket(t, key);
    t->probes++;
    for (int i = 0; i < 2; i++) {
        if (b[i].key == key && b[i].depth > 0) {
            t->hits++;
            return &b[i];
        }
    }
    return NULL;
}

static tt_entry_t *choose_victim(tt_entry_t *b, uint64_t key, uint8_t age)
{
    for (int i = 0; i < 2; i++)
        if (b[i].key == key || b[i].depth == 0)
            return &b[i];
    int s0 = b[0].depth - (b[0].age != age ? 64 : 0);
    int s1 = b[1].depth - (b[1].age != age ? 64 : 0);
    return s1 < s0 ? &b[1] : &b[0];
}

void tt_store(tt_t *t, uint64_t key, int depth, int score, int flag, int move)
{
    tt_entry_t *e = choose_victim(bucket(t, key), key, t->age);
    if (e->key == key && e->depth > depth + 1 && e->age == t->age)
        return;                 /* keep the deeper result for this position */
    e->key = key;
    e->score = score;
    e->depth = (int8_t)(depth + 1);   /* stored +1 so 0 marks an empty slot */
    e->flag = (uint8_t)flag;
    e->move = (uint8_t)move;
    e->age = t->age;
    t->stores++;
}
