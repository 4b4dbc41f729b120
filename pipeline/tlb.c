/*
 * tlb.c - timing model of a TLB (see cache.h): set-associative over virtual
 * page numbers with LRU replacement (assoc == entries is fully
 * associative).  A hit costs nothing extra, a miss costs miss_penalty
 * cycles and installs the page.  No translation happens here: guest memory
 * is translated by mem.c; this only models the cost.  The interactive
 * shell reads the configuration and counts (tlb_info, tlb_contains).
 */
#include "memory_model.h"

#include <stdio.h>
#include <stdlib.h>

static bool is_pow2(uint64_t x)
{
    return x && !(x & (x - 1));
}

static unsigned log2u(uint64_t x)
{
    unsigned n = 0;
    while (x > 1) { x >>= 1; n++; }
    return n;
}

tlb_t *tlb_new(const tlb_config_t *cfg)
{
    if (!cfg->assoc || !is_pow2(cfg->page_size) || cfg->entries % cfg->assoc
        || !is_pow2(cfg->entries / cfg->assoc))
        return NULL;
    tlb_t *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->e = calloc(cfg->entries, sizeof *t->e);
    if (!t->e) { free(t); return NULL; }
    t->mru = &t->e[0];
    for (unsigned k = 0; k < TLB_HINTS; k++) t->hint[k] = &t->e[0];
    t->set_mask = cfg->entries / cfg->assoc - 1;
    t->page_shift = log2u(cfg->page_size);
    t->assoc = cfg->assoc;
    t->miss_penalty = cfg->miss_penalty;
    snprintf(t->name, sizeof t->name, "%s", cfg->name ? cfg->name : "tlb");
    return t;
}

void tlb_free(tlb_t *t)
{
    if (!t) return;
    free(t->e);
    free(t);
}

/* Invalid entries first, else the least recently used. */
static tlb_entry_t *tlb_victim(tlb_entry_t *set, unsigned assoc)
{
    tlb_entry_t *v = &set[0];
    for (unsigned i = 0; i < assoc; i++) {
        if (!set[i].tag) return &set[i];
        if (set[i].stamp < v->stamp) v = &set[i];
    }
    return v;
}

/* Translate addr's page: true on a hit; a miss installs it. */
static inline __attribute__((always_inline)) bool translate(tlb_t *t, uint64_t addr)
{
    uint64_t tag = (addr >> t->page_shift) + 1;
    if (t->mru->tag == tag) {           /* same page as last time */
        t->mru->stamp = ++t->tick;
        return true;
    }
    tlb_entry_t **hint = &t->hint[tag & (TLB_HINTS - 1)];
    if ((*hint)->tag == tag) {          /* a page has one entry: this one */
        t->mru = *hint;
        t->mru->stamp = ++t->tick;
        return true;
    }
    tlb_entry_t *set = &t->e[((tag - 1) & t->set_mask) * t->assoc];
    for (unsigned i = 0; i < t->assoc; i++) {
        if (set[i].tag == tag) {
            set[i].stamp = ++t->tick;
            t->mru = *hint = &set[i];
            return true;
        }
    }
    tlb_entry_t *v = tlb_victim(set, t->assoc);
    v->tag = tag;
    v->stamp = ++t->tick;
    t->mru = *hint = v;
    return false;
}

unsigned tlb_access(tlb_t *t, uint64_t addr)
{
    t->accesses++;
    if (translate(t, addr)) return 0;
    t->misses++;
    return t->miss_penalty;
}

void tlb_warm(tlb_t *t, uint64_t addr) { translate(t, addr); }

void tlb_stats(const tlb_t *t, stats_t *out)
{
    char name[96];
    snprintf(name, sizeof name, "%s.accesses", t->name);
    stats_add_u64(out, name, t->accesses, "Count", "translations");
    snprintf(name, sizeof name, "%s.hits", t->name);
    stats_add_u64(out, name, t->accesses - t->misses, "Count", "translations that hit");
    snprintf(name, sizeof name, "%s.misses", t->name);
    stats_add_u64(out, name, t->misses, "Count", "translations that missed");
    snprintf(name, sizeof name, "%s.miss_rate", t->name);
    stats_add_f64(out, name, t->accesses ? (double)t->misses / t->accesses : 0.0,
                  "Ratio", "misses per translation");
}

/* ---- the interactive shell's view ------------------------------------------ */

void tlb_info(const tlb_t *t, tlb_info_t *out)
{
    unsigned sets = (unsigned)t->set_mask + 1;
    *out = (tlb_info_t){ .name = t->name, .entries = sets * t->assoc, .assoc = t->assoc,
                         .page_size = 1u << t->page_shift, .miss_penalty = t->miss_penalty,
                         .accesses = t->accesses, .misses = t->misses };
}

bool tlb_contains(const tlb_t *t, uint64_t addr)
{
    uint64_t tag = (addr >> t->page_shift) + 1;
    const tlb_entry_t *set = &t->e[((tag - 1) & t->set_mask) * t->assoc];
    for (unsigned i = 0; i < t->assoc; i++)
        if (set[i].tag == tag) return true;
    return false;
}
