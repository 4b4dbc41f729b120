/* record.c - the record heap of objdb (slot array with a free list), record
 * hashing and name generation, and the key extractor / comparator
 * functions that the generic B-tree indexes call through pointers. */
#include "db.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "objdb: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    exit(1);
}

void store_init(RecordStore *s, int cap)
{
    s->recs = calloc((size_t)cap, sizeof(Record));
    s->free_slots = malloc((size_t)cap * sizeof(int));
    if (!s->recs || !s->free_slots)
        fail("out of memory");
    s->cap = cap;
    s->nlive = s->nfree = s->high = 0;
}

void store_free(RecordStore *s)
{
    free(s->recs);
    free(s->free_slots);
}

int store_alloc(RecordStore *s)
{
    int slot;
    if (s->nfree > 0)
        slot = s->free_slots[--s->nfree];
    else if (s->high < s->cap)
        slot = s->high++;
    else
        fail("record store full");
    s->nlive++;
    return slot;
}

void store_release(RecordStore *s, int slot)
{
    memset(&s->recs[slot], 0, sizeof(Record));
    s->free_slots[s->nfree++] = slot;
    s->nlive--;
}

uint64_t record_hash(const Record *r)
{
    uint64_t h = (uint64_t)r->id * 0x9e3779b97f4a7c15ULL;
    h ^= (uint64_t)r->salary + 0x632be59bd9b4e019ULL + (h << 7);
    h ^= ((uint64_t)(uint32_t)r->dept << 32 | (uint32_t)r->age) * 0xbf58476d1ce4e5b9ULL;
    h ^= (uint64_t)(uint32_t)r->city * 0x94d049bb133111ebULL + r->version;
    for (int i = 0; i < NAME_LEN && r->name[i]; i++)
        h = (h ^ (uint8_t)r->name[i]) * 0x100000001b3ULL;
    return h ^ (h >> 31);
}

/* Pronounceable name from v: consonant-vowel syllables. */
void record_make_name(char *out, uint64_t v)
{
    static const char cons[] = "bcdfghklmnprstvz";
    static const char vow[] = "aeiou";
    int len = 2 + (int)(v % 5);
    v /= 5;
    int k = 0;
    for (int i = 0; i < len && k + 2 < NAME_LEN; i++) {
        out[k++] = cons[v % 16];
        v /= 16;
        out[k++] = vow[v % 5];
        v /= 5;
    }
    out[k] = '\0';
}

/* ---- key extractors --------------------------------------------------------- */

static void entry_clear(Entry *e, int slot)
{
    e->k1 = e->k2 = e->k3 = 0;
    memset(e->str, 0, NAME_LEN);
    e->slot = slot;
}

void key_id(const Record *r, int slot, Entry *out)
{
    entry_clear(out, slot);
    out->k1 = r->id;
}

void key_dept_salary(const Record *r, int slot, Entry *out)
{
    entry_clear(out, slot);
    out->k1 = r->dept;
    out->k2 = r->salary;
    out->k3 = r->id;
}

void key_name(const Record *r, int slot, Entry *out)
{
    entry_clear(out, slot);
    memcpy(out->str, r->name, NAME_LEN);
    out->k3 = r->id;
}

void key_city_age(const Record *r, int slot, Entry *out)
{
    entry_clear(out, slot);
    out->k1 = r->city;
    out->k2 = r->age;
    out->k3 = r->id;
}

/* ---- comparators ------------------------------------------------------------ */

static int cmp_i64(int64_t a, int64_t b) { return (a > b) - (a < b); }

int cmp_by_id(const Entry *a, const Entry *b) { return cmp_i64(a->k1, b->k1); }

int cmp_by_dept_salary(const Entry *a, const Entry *b)
{
    int c = cmp_i64(a->k1, b->k1);
    if (c)
        return c;
    c = cmp_i64(a->k2, b->k2);
    return c ? c : cmp_i64(a->k3, b->k3);
}

int cmp_by_name(const Entry *a, const Entry *b)
{
    int c = strncmp(a->str, b->str, NAME_LEN);
    if (c)
        return c < 0 ? -1 : 1;
    return cmp_i64(a->k3, b->k3);
}

int cmp_by_city_age(const Entry *a, const Entry *b)
{
    int c = cmp_i64(a->k1, b->k1);
    if (c)
        return c;
    c = cmp_i64(a->k2, b->k2);
    return c ? c : cmp_i64(a->k3, b->k3);
}
