/*
 * cache.h - timing models of the memory hierarchy: set-associative caches
 * (write-back, write-allocate, LRU / random / round-robin replacement,
 * non-blocking with a bounded number of MSHRs), TLBs with a miss penalty,
 * a write buffer, and main memory with latency and bandwidth.
 *
 * Models are timestamp-based: an access presented at cycle `now` returns
 * the cycle at which its data is available, and the model remembers when
 * its resources (MSHRs, memory bus, write-buffer entries) become free.
 * They hold tags and state only, never data: values always come from guest
 * memory through the ISA semantics.  Every model keeps its own statistics.
 */
#ifndef HPS_CACHE_H
#define HPS_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "stats.h"

typedef enum { REPL_LRU, REPL_RANDOM, REPL_ROUND_ROBIN } repl_policy_t;

/* Reservations of a resource (the memory bus, a cache's MSHRs), which the
 * timing models book out of time order: an out-of-order core's store is
 * written at graduation, after younger loads have issued at earlier cycles.
 * A request finds the earliest time from its own on when the resource is
 * free, among the RESV_MAX latest bookings (older ones have ended long
 * before any request still to come). */
#define RESV_MAX 64
typedef struct resv {
    uint64_t start[RESV_MAX], end[RESV_MAX];    /* [start, end) */
    uint64_t tag[RESV_MAX];                     /* what it is for (a line) */
    uint8_t by_end[RESV_MAX];                   /* the slots by (end, slot) */
    unsigned n;
} resv_t;

/* Main memory: `latency` cycles for the first chunk, then the line streams
 * at `bytes_per_cycle`; one transfer at a time (the bus is a resource). */
typedef struct dram {
    unsigned latency;
    unsigned bytes_per_cycle;
    resv_t bus;                 /* transfers booked on the bus */
    uint64_t reads, writes;
} dram_t;

/* One transfer of `bytes` at cycle now: it starts when the bus is free
 * (the earliest gap from now on long enough for it),
 * returns start + latency + ceil(bytes / bytes_per_cycle), and holds the
 * bus for the transfer.  Used by the caches; public for tests and for
 * models without caches.  dram_stats adds dram.reads / dram.writes. */
uint64_t dram_access(dram_t *d, unsigned bytes, bool write, uint64_t now);
void dram_stats(const dram_t *d, stats_t *out);

typedef struct cache_config {
    const char *name;           /* "l1i", "l1d", "l2" (statistics prefix) */
    uint64_t size;              /* bytes */
    unsigned assoc;             /* ways; size/line/assoc sets (power of two) */
    unsigned line;              /* bytes, power of two */
    unsigned hit_latency;       /* cycles */
    repl_policy_t repl;
    unsigned mshrs;             /* outstanding misses; 0 = blocking (1) */
    uint64_t seed;              /* for REPL_RANDOM */
} cache_config_t;

struct cache;
typedef struct cache cache_t;

/* next == NULL: misses go to `dram`.  NULL if the geometry is not a power
 * of two (sets, line) or does not divide evenly. */
cache_t *cache_new(const cache_config_t *cfg, cache_t *next, dram_t *dram);
void cache_free(cache_t *c);
/* Access at cycle now; returns the cycle the data is ready (now + hit
 * latency on a hit).  Writes allocate on miss and mark the line dirty;
 * evicting a dirty line writes it back to the next level. */
uint64_t cache_access(cache_t *c, uint64_t addr, bool write, uint64_t now);
/* Functional warming (sampled simulation, smarts.h): the access's effect
 * on the tags, replacement state and dirty bits -- a miss fetches the line
 * through the next level, a dirty victim is written back into it -- with
 * no timing (the line is there at once) and no statistics. */
void cache_warm(cache_t *c, uint64_t addr, bool write);
/* Whether the last cache_access hit (for stall attribution). */
bool cache_last_hit(const cache_t *c);
/* The cycle the last cache_access was taken by the cache: now + hit latency,
 * or, for a miss that had to wait for a free MSHR (or for a fill still
 * waiting for one), the cycle its request left.  A store buffer can hand a
 * write over then. */
uint64_t cache_last_accept(const cache_t *c);
/* Whether the line holding addr is allocated (even if its fill is still in
 * flight); no side effects.  For tests and debugging. */
bool cache_contains(const cache_t *c, uint64_t addr);
unsigned cache_line_size(const cache_t *c);
void cache_stats(const cache_t *c, stats_t *out);

/* For the interactive shell (read-only): the geometry and the demand
 * counts so far, the set addr maps to, and what that set's ways hold. */
typedef struct cache_info {
    const char *name;
    uint64_t size, sets;
    unsigned assoc, line, hit_latency, mshrs;
    repl_policy_t repl;
    uint64_t accesses, hits, misses;
} cache_info_t;
typedef struct cache_way_info {
    bool valid, dirty;
    uint64_t line_addr;         /* address of the line's first byte */
    uint64_t ready;             /* cycle its fill completes */
} cache_way_info_t;
void cache_info(const cache_t *c, cache_info_t *out);
uint64_t cache_set_of(const cache_t *c, uint64_t addr);
/* The ways of set `set` into out[0..assoc) (at most max); returns assoc. */
unsigned cache_set_ways(const cache_t *c, uint64_t set, cache_way_info_t *out, unsigned max);

typedef struct tlb_config {
    const char *name;           /* "itlb", "dtlb" */
    unsigned entries;
    unsigned assoc;             /* entries = fully associative */
    unsigned page_size;         /* bytes */
    unsigned miss_penalty;      /* cycles */
} tlb_config_t;

struct tlb;
typedef struct tlb tlb_t;
tlb_t *tlb_new(const tlb_config_t *cfg);
void tlb_free(tlb_t *t);
/* Extra cycles this translation costs (0 on a hit). */
unsigned tlb_access(tlb_t *t, uint64_t addr);
/* The translation's effect on the entries and LRU order, uncounted
 * (functional warming, smarts.h). */
void tlb_warm(tlb_t *t, uint64_t addr);
void tlb_stats(const tlb_t *t, stats_t *out);
/* For the interactive shell (read-only): the configuration and counts so
 * far, and whether addr's page is in the TLB. */
typedef struct tlb_info {
    const char *name;
    unsigned entries, assoc, page_size, miss_penalty;
    uint64_t accesses, misses;
} tlb_info_t;
void tlb_info(const tlb_t *t, tlb_info_t *out);
bool tlb_contains(const tlb_t *t, uint64_t addr);

/* Write buffer between the pipeline and the D-cache: a store retires into
 * it at `now`; it drains one entry at a time into the cache.  Returns the
 * cycle the store could enter (later than now when full: a stall). */
struct write_buffer;
typedef struct write_buffer write_buffer_t;
write_buffer_t *write_buffer_new(unsigned entries, cache_t *dcache);
/* Write merging (off by default): a store to the same D-cache line as the
 * youngest entry, whose drain has not started yet, joins that entry. */
void write_buffer_set_merge(write_buffer_t *w, bool merge);
void write_buffer_free(write_buffer_t *w);
uint64_t write_buffer_store(write_buffer_t *w, uint64_t addr, uint64_t now);
void write_buffer_stats(const write_buffer_t *w, stats_t *out);

#endif /* HPS_CACHE_H */
