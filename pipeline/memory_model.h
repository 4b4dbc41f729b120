/*
 * memory_model.h - the state of a cache (cache.c) and of a TLB (tlb.c),
 * private to pipeline/, and their hit paths inline: a timing model that
 * times a load or store in a path of its own (inorder.c) reads a hit
 * without a call; anything else goes to cache_access and tlb_access
 * (cache.h), which count and decide exactly as before.
 */
#ifndef HPS_MEMORY_MODEL_H
#define HPS_MEMORY_MODEL_H

#include "cache.h"

typedef struct way {
    uint64_t tag;               /* line number + 1; 0 = invalid */
    uint64_t fill_req;          /* cycle the access that started its fill came */
    uint64_t fill_start;        /* cycle its fill left (an MSHR was free) */
    uint64_t ready;             /* cycle the line's fill completes */
    uint64_t stamp;             /* last use, for LRU */
    bool dirty;
} way_t;

struct cache {
    way_t *ways;                /* sets * assoc, one set contiguous */
    uint64_t set_mask;
    unsigned line_shift, assoc, hit_latency, nmshr;
    repl_policy_t repl;
    resv_t mshr;                /* fills in flight: [request, ready), tag = line */
    uint16_t *rr;               /* per-set round-robin pointer */
    uint64_t rng;               /* xorshift64 state */
    uint64_t tick;              /* LRU clock */
    cache_t *next;
    dram_t *dram;
    bool last_hit;
    uint64_t last_accept;       /* when the last access was taken (cache_last_accept) */
    char name[32];
    /* statistics (accesses: reads + writes; hits: accesses less misses,
     * every access that is not a hit counts one miss: count_miss) */
    uint64_t reads, writes, read_misses, write_misses;
    uint64_t writebacks, writebacks_in, merges, full_stalls, full_cycles;
    uint64_t miss_cycles;
    uint64_t full_until;        /* end of the last MSHR wait counted */
};

typedef struct tlb_entry {
    uint64_t tag;               /* page number + 1; 0 = invalid */
    uint64_t stamp;             /* last use, for LRU */
} tlb_entry_t;

/* Where a page was last found, by its low page-number bits: a lookup
 * checks that entry before scanning the set (a wrong hint only costs the
 * scan, which finds the same entry). */
enum { TLB_HINTS = 256 };

struct tlb {
    tlb_entry_t *e;             /* sets * assoc, one set contiguous */
    tlb_entry_t *mru;           /* last entry used: checked before the scan */
    tlb_entry_t *hint[TLB_HINTS];
    uint64_t set_mask;
    unsigned page_shift, assoc, miss_penalty;
    uint64_t tick;
    uint64_t accesses, misses;
    char name[32];
};

/* tlb_access when the page is the one used last or the one its hint names
 * (checked first there too, in this order): its count, LRU stamp and the
 * MRU entry; else tlb_access itself. */
static inline __attribute__((always_inline)) unsigned tlb_access_inline(tlb_t *t, uint64_t addr)
{
    uint64_t tag = (addr >> t->page_shift) + 1;
    tlb_entry_t *e = t->mru;
    if (e->tag != tag) {
        e = t->hint[tag & (TLB_HINTS - 1)];
        if (__builtin_expect(e->tag != tag, 0)) return tlb_access(t, addr);
        t->mru = e;
    }
    t->accesses++;
    e->stamp = ++t->tick;
    return 0;
}

/* cache_access, its hit (the line there and filled by now + hit latency)
 * inline; *hit: cache_last_hit after it. */
static inline __attribute__((always_inline)) uint64_t
cache_access_inline(cache_t *c, uint64_t addr, bool write, uint64_t now, bool *hit)
{
    uint64_t line = addr >> c->line_shift, t = now + c->hit_latency;
    way_t *w = &c->ways[(line & c->set_mask) * c->assoc];
    unsigned i = 0;
    while (i < c->assoc && w->tag != line + 1) i++, w++;
    if (__builtin_expect(i == c->assoc || w->ready > t, 0)) {
        uint64_t ready = cache_access(c, addr, write, now);
        *hit = c->last_hit;
        return ready;
    }
    c->last_accept = t;
    if (write) c->writes++;
    else c->reads++;
    w->stamp = ++c->tick;
    w->dirty |= write;
    c->last_hit = *hit = true;
    return t;
}

#endif
