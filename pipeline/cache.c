/*
 * cache.c - timestamp-based timing models of set-associative caches and of
 * main memory (see cache.h).  Tags and state only, never data.
 *
 * Timing, for an access presented at cycle `now` with t = now + hit_latency:
 *   hit (line allocated and its fill done by t)      -> t
 *   line allocated but its fill still in flight       -> the fill's ready
 *       cycle (secondary miss, counted as an MSHR merge)
 *   miss: the request leaves at t, or, when every MSHR is busy at t, at the
 *       earliest cycle one is free (the difference counts as MSHR-full
 *       stall);
 *       it goes to the next cache (as a read) or to DRAM and the line is
 *       ready when that returns; the access returns that cycle (the critical
 *       word is forwarded as the fill arrives, no extra cycles).
 * The victim is chosen at issue time; if dirty, it is written back at the
 * same cycle, after the fill request so the fill is not delayed by it.  A
 * write-back into a lower cache allocates without fetching (a full line)
 * and never uses an MSHR; into DRAM it occupies the bus.
 * DRAM: start = the earliest cycle from now on with the bus free for xfer
 *       cycles; return start + latency + xfer, xfer = ceil(bytes /
 *       bytes_per_cycle).
 * Requests do not come in time order (an out-of-order core writes a store at
 * graduation, after younger loads issued at earlier cycles), so the bus and
 * the MSHRs keep their bookings as intervals (resv_t) and a request uses a
 * resource idle at its own time even if a later booking exists; an access
 * to a line whose fill was asked for at a later cycle starts its own,
 * earlier fill, while one that comes after the request (even if that waits
 * for an MSHR) waits for that fill.
 * The interactive shell reads the geometry, counts and a set's ways
 * (cache_info, cache_set_ways) without changing anything.
 */
#include "memory_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- reservations ----------------------------------------------------------- */

/* The bookings are also kept in order of (end, slot) in by_end, so that a
 * scan for those still running at s looks only at the ones ending after s
 * (a few: the rest ended long ago), newest end first. */

/* Bookings that overlap [s, s + len) (len 0: the instant s); *next_end = the
 * earliest end among them after s. */
static unsigned overlapping(const resv_t *r, uint64_t s, uint64_t len, uint64_t *next_end)
{
    unsigned count = 0;
    uint64_t e = s + (len ? len : 1), first_end = UINT64_MAX;
    for (unsigned j = r->n; j-- > 0;) {
        unsigned k = r->by_end[j];
        if (r->end[k] <= s) break;            /* and so do all before it */
        if (r->start[k] < e) {
            count++;
            first_end = r->end[k];            /* ends fall as j does */
        }
    }
    *next_end = first_end;
    return count;
}

/* The earliest cycle from t on at which fewer than `capacity` bookings
 * overlap [s, s + len). */
static uint64_t resv_earliest(const resv_t *r, unsigned capacity, uint64_t t, uint64_t len)
{
    uint64_t next_end;
    while (overlapping(r, t, len, &next_end) >= capacity) t = next_end;
    return t;
}

/* Does slot a come after (end, k) in by_end's order? */
static bool books_later(const resv_t *r, unsigned a, uint64_t end, unsigned k)
{
    return r->end[a] > end || (r->end[a] == end && a > k);
}

/* Book [start, end) for tag, replacing the booking that ended first (the
 * lowest slot of those) when the table is full. */
static void resv_add(resv_t *r, uint64_t start, uint64_t end, uint64_t tag)
{
    unsigned k, j;
    if (r->n == RESV_MAX) {
        k = r->by_end[0];
        j = RESV_MAX - 1;
        memmove(r->by_end, r->by_end + 1, j);
    } else {
        k = j = r->n++;
    }
    r->start[k] = start;
    r->end[k] = end;
    r->tag[k] = tag;
    for (; j > 0 && books_later(r, r->by_end[j - 1], end, k); j--) r->by_end[j] = r->by_end[j - 1];
    r->by_end[j] = (uint8_t)k;
}

/* ---- main memory --------------------------------------------------------- */

uint64_t dram_access(dram_t *d, unsigned bytes, bool write, uint64_t now)
{
    unsigned bpc = d->bytes_per_cycle;
    uint64_t xfer = bpc ? (bytes + bpc - 1) / bpc : 0;
    uint64_t start = xfer ? resv_earliest(&d->bus, 1, now, xfer) : now;
    if (xfer) resv_add(&d->bus, start, start + xfer, 0);
    if (write) d->writes++;
    else d->reads++;
    return start + d->latency + xfer;
}

void dram_stats(const dram_t *d, stats_t *out)
{
    stats_add_u64(out, "dram.reads", d->reads, "Count", "line reads from main memory");
    stats_add_u64(out, "dram.writes", d->writes, "Count", "line write-backs to main memory");
}

/* ---- construction -------------------------------------------------------- */

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

cache_t *cache_new(const cache_config_t *cfg, cache_t *next, dram_t *dram)
{
    if (!cfg->assoc || !is_pow2(cfg->line) || (!next && !dram)) return NULL;
    uint64_t per_set = (uint64_t)cfg->line * cfg->assoc;
    if (cfg->size % per_set || !is_pow2(cfg->size / per_set)) return NULL;
    uint64_t sets = cfg->size / per_set;

    cache_t *c = calloc(1, sizeof *c);
    if (!c) return NULL;
    c->nmshr = cfg->mshrs ? cfg->mshrs : 1;
    c->ways = calloc(sets * cfg->assoc, sizeof *c->ways);
    c->rr = calloc(sets, sizeof *c->rr);
    if (!c->ways || !c->rr) { cache_free(c); return NULL; }
    c->set_mask = sets - 1;
    c->line_shift = log2u(cfg->line);
    c->assoc = cfg->assoc;
    c->hit_latency = cfg->hit_latency;
    c->repl = cfg->repl;
    c->rng = cfg->seed ? cfg->seed : 0x9e3779b97f4a7c15ull;
    c->next = next;
    c->dram = dram;
    snprintf(c->name, sizeof c->name, "%s", cfg->name ? cfg->name : "cache");
    return c;
}

void cache_free(cache_t *c)
{
    if (!c) return;
    free(c->ways);
    free(c->rr);
    free(c);
}

/* ---- lookup and replacement ---------------------------------------------- */

static way_t *set_of(const cache_t *c, uint64_t line)
{
    return &c->ways[(line & c->set_mask) * c->assoc];
}

static way_t *find_way(way_t *set, unsigned assoc, uint64_t tag)
{
    for (unsigned i = 0; i < assoc; i++)
        if (set[i].tag == tag) return &set[i];
    return NULL;
}

static uint64_t xorshift64(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    return *s = x;
}

/* Invalid ways first (lowest index), then the policy's choice. */
static way_t *choose_victim(cache_t *c, way_t *set, uint64_t line)
{
    for (unsigned i = 0; i < c->assoc; i++)
        if (!set[i].tag) return &set[i];
    switch (c->repl) {
    case REPL_RANDOM:
        return &set[xorshift64(&c->rng) % c->assoc];
    case REPL_ROUND_ROBIN: {
        uint16_t *p = &c->rr[line & c->set_mask];
        way_t *v = &set[*p];
        *p = (uint16_t)((*p + 1u) % c->assoc);
        return v;
    }
    case REPL_LRU:
    default: {
        way_t *v = &set[0];
        for (unsigned i = 1; i < c->assoc; i++)
            if (set[i].stamp < v->stamp) v = &set[i];
        return v;
    }
    }
}

/* ---- traffic to the next level ------------------------------------------- */

static void writeback_into(cache_t *c, uint64_t addr, uint64_t t);

static uint64_t fetch_line(cache_t *c, uint64_t line, uint64_t t)
{
    uint64_t addr = line << c->line_shift;
    if (c->next) return cache_access(c->next, addr, false, t);
    return dram_access(c->dram, 1u << c->line_shift, false, t);
}

static void write_back(cache_t *c, const way_t *victim, uint64_t t)
{
    uint64_t addr = (victim->tag - 1) << c->line_shift;
    c->writebacks++;
    if (c->next) writeback_into(c->next, addr, t);
    else dram_access(c->dram, 1u << c->line_shift, true, t);
}

/* Replace the victim for `line` in `set`: write it back if dirty. */
static way_t *allocate(cache_t *c, way_t *set, uint64_t line, uint64_t t)
{
    way_t *v = choose_victim(c, set, line);
    if (v->tag && v->dirty) write_back(c, v, t);
    v->tag = line + 1;
    v->stamp = ++c->tick;
    return v;
}

/* A dirty line arriving from the level above: a full-line write, so it
 * allocates without a fetch; not a demand access (no hit/miss counts, no
 * LRU update on a hit, no MSHR). */
static void writeback_into(cache_t *c, uint64_t addr, uint64_t t)
{
    uint64_t line = addr >> c->line_shift;
    way_t *set = set_of(c, line);
    way_t *w = find_way(set, c->assoc, line + 1);
    c->writebacks_in++;
    if (!w) {
        w = allocate(c, set, line, t);
        w->ready = w->fill_req = w->fill_start = t;
    }
    w->dirty = true;
}

/* ---- MSHRs ---------------------------------------------------------------- */

static uint64_t max_u64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* The fill of `line` in flight at t (requested by t, not yet done): its
 * ready cycle, or 0. */
static uint64_t fill_in_flight(const cache_t *c, uint64_t line, uint64_t t)
{
    const resv_t *r = &c->mshr;
    uint64_t ready = 0;                 /* the lowest slot's of those found */
    unsigned first = RESV_MAX;
    for (unsigned j = r->n; j-- > 0;) {
        unsigned k = r->by_end[j];
        if (r->end[k] <= t) break;      /* those before it ended by t too */
        if (r->tag[k] == line && r->start[k] <= t && k < first) {
            first = k;
            ready = r->end[k];
        }
    }
    return ready;
}

/* Request `line` from the next level at t through a free MSHR (waiting
 * for one if all are busy at t); returns the cycle the line is ready. */
static uint64_t request_fill(cache_t *c, uint64_t line, uint64_t t, uint64_t *left)
{
    uint64_t start = resv_earliest(&c->mshr, c->nmshr, t, 0);
    *left = start;
    if (start > t) {                    /* every MSHR busy: wait */
        c->full_stalls++;                /* cycles: the union of the waits */
        c->full_cycles += start - max_u64(t, c->full_until < start ? c->full_until : start);
        if (start > c->full_until) c->full_until = start;
    }
    uint64_t ready = fetch_line(c, line, start);
    resv_add(&c->mshr, start, ready > start ? ready : start + 1, line);
    return ready;
}

/* ---- accesses ------------------------------------------------------------- */

/* A miss presented at now whose request left (had an MSHR) at `left`: its
 * latency, for avg_miss_latency, counts from then (the wait before is the
 * MSHR-full statistics'). */
static uint64_t count_miss(cache_t *c, bool write, uint64_t now, uint64_t left, uint64_t ready)
{
    if (write) c->write_misses++;
    else c->read_misses++;
    uint64_t from = max_u64(now, left - c->hit_latency);
    c->miss_cycles += ready > from ? ready - from : 0;
    c->last_hit = false;
    return ready;
}

static uint64_t miss(cache_t *c, way_t *set, uint64_t line, bool write,
                     uint64_t now, uint64_t t)
{
    uint64_t ready = fill_in_flight(c, line, t), start = t;
    if (ready) c->merges++;             /* evicted while its fill was in flight */
    else ready = request_fill(c, line, t, &start);
    way_t *w = allocate(c, set, line, t);
    w->fill_req = t;
    w->fill_start = start;
    c->last_accept = start;
    w->ready = ready;
    w->dirty = write;
    return count_miss(c, write, now, start, ready);
}

static uint64_t access_not_ready(cache_t *c, way_t *set, way_t *w, uint64_t line, bool write,
                                 uint64_t now, uint64_t t);

uint64_t cache_access(cache_t *c, uint64_t addr, bool write, uint64_t now)
{
    uint64_t line = addr >> c->line_shift;
    uint64_t t = now + c->hit_latency;
    way_t *set = set_of(c, line);
    c->last_accept = t;
    if (write) c->writes++;
    else c->reads++;

    way_t *w = find_way(set, c->assoc, line + 1);
    if (__builtin_expect(w && w->ready <= t, 1)) {   /* a hit: the rest out of line */
        w->stamp = ++c->tick;
        w->dirty |= write;
        c->last_hit = true;
        return t;
    }
    return access_not_ready(c, set, w, line, write, now, t);
}

/* cache_access() of a line not present (w NULL) or whose fill is not
 * there by t. */
static __attribute__((noinline)) uint64_t access_not_ready(cache_t *c, way_t *set, way_t *w,
                                                          uint64_t line, bool write,
                                                          uint64_t now, uint64_t t)
{
    if (!w) return miss(c, set, line, write, now, t);
    w->stamp = ++c->tick;
    w->dirty |= write;
    if (t < w->fill_req) {              /* its fill was asked for later: */
        uint64_t start, ready = request_fill(c, line, t, &start);  /* this one fills it first */
        if (ready < w->ready) {
            w->ready = ready;
            w->fill_start = start;
        }
        w->fill_req = t;
        c->last_accept = start;
        return count_miss(c, write, now, start, w->ready);
    }
    /* Fill asked for before t (in flight, or waiting for an MSHR): a secondary
     * miss that waits for it.  (Re-requesting a fill that waits for an MSHR
     * booked every MSHR once per access to the line: a stream of stores
     * queued ever further into the future.) */
    c->merges++;
    if (w->fill_start > t) c->last_accept = w->fill_start;
    return count_miss(c, write, now, w->fill_start, w->ready);
}

/* ---- functional warming --------------------------------------------------- */

static void warm_writeback(cache_t *c, uint64_t addr);

/* The way for `line` in `set` after a warm miss: the victim's dirty line
 * written back first, the new line there at once. */
static way_t *warm_allocate(cache_t *c, way_t *set, uint64_t line)
{
    way_t *v = choose_victim(c, set, line);
    if (v->tag && v->dirty && c->next) warm_writeback(c->next, (v->tag - 1) << c->line_shift);
    v->tag = line + 1;
    v->ready = v->fill_req = v->fill_start = 0;
    v->dirty = false;
    v->stamp = ++c->tick;
    return v;
}

/* As writeback_into, uncounted. */
static void warm_writeback(cache_t *c, uint64_t addr)
{
    uint64_t line = addr >> c->line_shift;
    way_t *set = set_of(c, line);
    way_t *w = find_way(set, c->assoc, line + 1);
    if (!w) w = warm_allocate(c, set, line);
    w->dirty = true;
}

void cache_warm(cache_t *c, uint64_t addr, bool write)
{
    uint64_t line = addr >> c->line_shift;
    way_t *set = set_of(c, line);
    way_t *w = find_way(set, c->assoc, line + 1);
    if (w) {
        w->stamp = ++c->tick;
    } else {
        if (c->next) cache_warm(c->next, addr, false);    /* the fill, as fetch_line */
        w = warm_allocate(c, set, line);
    }
    w->dirty |= write;
}

bool cache_last_hit(const cache_t *c)
{
    return c->last_hit;
}

uint64_t cache_last_accept(const cache_t *c)
{
    return c->last_accept;
}

bool cache_contains(const cache_t *c, uint64_t addr)
{
    uint64_t line = addr >> c->line_shift;
    return find_way(set_of(c, line), c->assoc, line + 1) != NULL;
}

unsigned cache_line_size(const cache_t *c)
{
    return 1u << c->line_shift;
}

/* ---- the interactive shell's view ------------------------------------------ */

/* Demand accesses so far. */
static uint64_t cache_accesses(const cache_t *c) { return c->reads + c->writes; }

void cache_info(const cache_t *c, cache_info_t *out)
{
    *out = (cache_info_t){
        .name = c->name, .sets = c->set_mask + 1, .assoc = c->assoc,
        .line = 1u << c->line_shift, .hit_latency = c->hit_latency, .mshrs = c->nmshr,
        .repl = c->repl, .accesses = cache_accesses(c),
        .hits = cache_accesses(c) - c->read_misses - c->write_misses,
        .misses = c->read_misses + c->write_misses,
    };
    out->size = out->sets * c->assoc * out->line;
}

uint64_t cache_set_of(const cache_t *c, uint64_t addr)
{
    return (addr >> c->line_shift) & c->set_mask;
}

unsigned cache_set_ways(const cache_t *c, uint64_t set, cache_way_info_t *out, unsigned max)
{
    const way_t *w = &c->ways[(set & c->set_mask) * c->assoc];
    for (unsigned i = 0; i < c->assoc && i < max; i++)
        out[i] = (cache_way_info_t){ .valid = w[i].tag != 0, .dirty = w[i].dirty,
                                     .line_addr = w[i].tag ? (w[i].tag - 1) << c->line_shift : 0,
                                     .ready = w[i].ready };
    return c->assoc;
}

/* ---- statistics ----------------------------------------------------------- */

static void put_u64(stats_t *out, const cache_t *c, const char *what, uint64_t v,
                    const char *unit, const char *desc)
{
    char name[96];
    snprintf(name, sizeof name, "%s.%s", c->name, what);
    stats_add_u64(out, name, v, unit, desc);
}

static void put_f64(stats_t *out, const cache_t *c, const char *what, double v,
                    const char *unit, const char *desc)
{
    char name[96];
    snprintf(name, sizeof name, "%s.%s", c->name, what);
    stats_add_f64(out, name, v, unit, desc);
}

void cache_stats(const cache_t *c, stats_t *out)
{
    uint64_t misses = c->read_misses + c->write_misses, accesses = cache_accesses(c);
    put_u64(out, c, "accesses", accesses, "Count", "demand accesses");
    put_u64(out, c, "hits", accesses - misses, "Count", "demand hits");
    put_u64(out, c, "misses", misses, "Count", "demand misses (primary and secondary)");
    put_u64(out, c, "reads", c->reads, "Count", "read accesses");
    put_u64(out, c, "writes", c->writes, "Count", "write accesses");
    put_u64(out, c, "read_misses", c->read_misses, "Count", "read misses");
    put_u64(out, c, "write_misses", c->write_misses, "Count", "write misses");
    put_f64(out, c, "miss_rate", accesses ? (double)misses / accesses : 0.0,
            "Ratio", "misses per access");
    put_u64(out, c, "writebacks", c->writebacks, "Count", "dirty lines written back");
    put_u64(out, c, "writebacks_received", c->writebacks_in, "Count",
            "dirty lines received from the level above");
    put_u64(out, c, "mshr_merges", c->merges, "Count",
            "secondary misses merged into an in-flight fill");
    put_u64(out, c, "mshr_full_stalls", c->full_stalls, "Count",
            "misses that waited for a free MSHR");
    put_u64(out, c, "mshr_full_stall_cycles", c->full_cycles, "Cycle",
            "cycles in which a miss waited for a free MSHR (waits overlapping in time count once)");
    put_f64(out, c, "avg_miss_latency", misses ? (double)c->miss_cycles / misses : 0.0,
            "Cycle", "average cycles from a miss's request leaving (an MSHR free) to its data");
}
