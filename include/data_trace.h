/*
 * data_trace.h - the trace of data references that hot data stream
 * analysis reads (hot_streams.h): each reference becomes a 32-bit symbol,
 * the number of its (pc, address) pair (or of its address alone) in a
 * table of the pairs seen, and the symbols are appended to a buffer.  The
 * address is taken at a granularity (default 8 bytes, the project's "data
 * word": then Alpha's ldq_u/stq_u, whose T.EA is the unaligned address
 * while the access is the aligned quadword, give the same symbol in both
 * traces).
 *
 * Two traces of one run share one table, so equal references have equal
 * symbols in both: the exhaustive trace (every load and store of the
 * program, hps_truth_record()) and the sampled one (the references the
 * DataStream_handler samples delivered, with a separator between bursts).
 *
 * Cost per reference: one probe of the symbol table and a 4-byte store.
 * The buffer is allocated ahead and doubles up to its window size; when a
 * full window is reached the owner's on_full callback analyses it and the
 * buffer starts again (data_trace_full_(), the only slow path besides the
 * table's doubling).  Memory: 4 bytes per buffered reference, and per
 * distinct pair a 24-byte table slot (the table is at most 3/4 full).
 */
#ifndef HPS_DATA_TRACE_H
#define HPS_DATA_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Symbols are < DATA_SYMBOL_LIMIT (2^30 - 1, SEQUITUR's terminals); a
 * pair first seen after that many gets DATA_SYMBOL_OVERFLOW. */
#define DATA_SYMBOL_LIMIT    0x3fffffffu
#define DATA_SYMBOL_OVERFLOW DATA_SYMBOL_LIMIT
/* In a buffer: the boundary between two sampled bursts. */
#define DATA_TRACE_SEPARATOR 0xffffffffu

typedef struct data_symbol_slot {
    uint64_t pc, addr;
    uint32_t id_plus_1;         /* 0: free slot */
} data_symbol_slot_t;

typedef struct data_symbols {
    data_symbol_slot_t *slot;
    size_t mask, count, limit;
    bool address_only;          /* the symbol is the address alone (pc 0) */
    uint64_t addr_mask;         /* ~(granularity - 1) */
    uint64_t overflowed;        /* references given DATA_SYMBOL_OVERFLOW */
} data_symbols_t;

/* granule: bytes, a power of two (addresses are rounded down to it). */
void data_symbols_init(data_symbols_t *s, bool address_only, uint64_t granule);
void data_symbols_free(data_symbols_t *s);
/* Slow path of data_symbols_intern(): the pair is new and the table full. */
uint32_t data_symbols_grow_insert_(data_symbols_t *s, uint64_t pc, uint64_t addr);
/* The (pc, address) pairs by symbol: (*pcs)[k], (*addrs)[k] for symbol k;
 * new arrays of count entries the caller frees. */
void data_symbols_pairs(const data_symbols_t *s, uint64_t **pcs, uint64_t **addrs);
size_t data_symbols_bytes(const data_symbols_t *s);

static inline size_t data_symbols_hash_(uint64_t pc, uint64_t addr)
{
    uint64_t h = pc * 0x9E3779B97F4A7C15ull ^ addr * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 32;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    return (size_t)h;
}

/* The symbol of (pc, addr), numbered in order of first appearance. */
static inline uint32_t data_symbols_intern(data_symbols_t *s, uint64_t pc, uint64_t addr)
{
    if (s->address_only) pc = 0;
    addr &= s->addr_mask;
    size_t i = data_symbols_hash_(pc, addr) & s->mask;
    data_symbol_slot_t *e;
    while ((e = &s->slot[i])->id_plus_1 != 0) {
        if (e->addr == addr && e->pc == pc) return e->id_plus_1 - 1;
        i = (i + 1) & s->mask;
    }
    if (s->count < s->limit && s->count < DATA_SYMBOL_LIMIT) {
        e->pc = pc;
        e->addr = addr;
        e->id_plus_1 = (uint32_t)++s->count;
        return e->id_plus_1 - 1;
    }
    return data_symbols_grow_insert_(s, pc, addr);
}

typedef struct data_trace data_trace_t;
/* Called with a full window (n = the window size), and at the end. */
typedef void (*data_trace_full_fn)(void *ctx, const uint32_t *sym, size_t n);

struct data_trace {
    data_symbols_t *symbols;
    uint32_t *sym;
    size_t len, cap, window;
    data_trace_full_fn on_full;
    void *ctx;
    uint64_t references;        /* recorded, separators not counted */
};

/* window: symbols per analysed window (>= 2); initial: buffer to allocate now. */
void data_trace_init(data_trace_t *t, data_symbols_t *symbols, size_t window, size_t initial,
                     data_trace_full_fn on_full, void *ctx);
void data_trace_free(data_trace_t *t);
/* Slow path of the appends: double the buffer, or hand a full window on. */
void data_trace_full_(data_trace_t *t);
/* Hand what is buffered on (if anything) and empty the buffer. */
void data_trace_flush(data_trace_t *t);
size_t data_trace_bytes(const data_trace_t *t);

static inline void data_trace_append(data_trace_t *t, uint32_t sym)
{
    if (t->len == t->cap) data_trace_full_(t);
    t->sym[t->len++] = sym;
}

/* One data reference. */
static inline void data_trace_record(data_trace_t *t, uint64_t pc, uint64_t addr)
{
    data_trace_append(t, data_symbols_intern(t->symbols, pc, addr));
    t->references++;
}

/* A burst boundary (none at the very start, none twice in a row). */
static inline void data_trace_separate(data_trace_t *t)
{
    if (t->len && t->sym[t->len - 1] != DATA_TRACE_SEPARATOR)
        data_trace_append(t, DATA_TRACE_SEPARATOR);
}

#endif /* HPS_DATA_TRACE_H */
