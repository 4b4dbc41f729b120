/*
 * data_trace.c - the slow paths of the data reference trace (data_trace.h):
 * growing the symbol table and the buffer, handing full windows on.
 */
#include "data_trace.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define INITIAL_SYMBOLS 1024

static void alloc_symbol_slots(data_symbols_t *s, size_t cap)
{
    s->slot = xcalloc(cap, sizeof *s->slot);
    s->mask = cap - 1;
    s->limit = cap / 4 * 3;
}

void data_symbols_init(data_symbols_t *s, bool address_only, uint64_t granule)
{
    memset(s, 0, sizeof *s);
    s->address_only = address_only;
    s->addr_mask = ~(granule ? granule - 1 : 0);
    alloc_symbol_slots(s, INITIAL_SYMBOLS);
}

void data_symbols_free(data_symbols_t *s)
{
    free(s->slot);
    memset(s, 0, sizeof *s);
}

static void place_symbol(data_symbols_t *s, const data_symbol_slot_t *e)
{
    size_t i = data_symbols_hash_(e->pc, e->addr) & s->mask;
    while (s->slot[i].id_plus_1 != 0) i = (i + 1) & s->mask;
    s->slot[i] = *e;
}

uint32_t data_symbols_grow_insert_(data_symbols_t *s, uint64_t pc, uint64_t addr)
{
    if (s->count >= DATA_SYMBOL_LIMIT) {
        s->overflowed++;
        return DATA_SYMBOL_OVERFLOW;
    }
    data_symbol_slot_t *old = s->slot;
    size_t old_cap = s->mask + 1;
    alloc_symbol_slots(s, old_cap * 2);
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].id_plus_1) place_symbol(s, &old[i]);
    free(old);
    data_symbol_slot_t e = { pc, addr, (uint32_t)++s->count };
    place_symbol(s, &e);
    return e.id_plus_1 - 1;
}

void data_symbols_pairs(const data_symbols_t *s, uint64_t **pcs, uint64_t **addrs)
{
    *pcs = xcalloc(s->count ? s->count : 1, sizeof **pcs);
    *addrs = xcalloc(s->count ? s->count : 1, sizeof **addrs);
    for (size_t i = 0; i <= s->mask; i++) {
        const data_symbol_slot_t *e = &s->slot[i];
        if (!e->id_plus_1) continue;
        (*pcs)[e->id_plus_1 - 1] = e->pc;
        (*addrs)[e->id_plus_1 - 1] = e->addr;
    }
}

size_t data_symbols_bytes(const data_symbols_t *s)
{
    return s->slot ? (s->mask + 1) * sizeof *s->slot : 0;
}

/* ---- the buffer ------------------------------------------------------------------------- */

void data_trace_init(data_trace_t *t, data_symbols_t *symbols, size_t window, size_t initial,
                     data_trace_full_fn on_full, void *ctx)
{
    memset(t, 0, sizeof *t);
    t->symbols = symbols;
    t->window = window < 2 ? 2 : window;
    t->cap = initial < 1 ? 1 : initial > t->window ? t->window : initial;
    t->sym = xcalloc(t->cap, sizeof *t->sym);
    t->on_full = on_full;
    t->ctx = ctx;
}

void data_trace_free(data_trace_t *t)
{
    free(t->sym);
    memset(t, 0, sizeof *t);
}

void data_trace_flush(data_trace_t *t)
{
    if (t->len && t->on_full) t->on_full(t->ctx, t->sym, t->len);
    t->len = 0;
}

void data_trace_full_(data_trace_t *t)
{
    if (t->cap < t->window) {
        t->cap = t->cap > t->window / 2 ? t->window : t->cap * 2;
        t->sym = xrealloc(t->sym, t->cap * sizeof *t->sym);
    } else {
        data_trace_flush(t);
    }
}

size_t data_trace_bytes(const data_trace_t *t)
{
    return t->cap * sizeof *t->sym;
}
