/*
 * write_buffer.c - timing model of a write buffer between the pipeline and
 * the D-cache (see cache.h).
 *
 * A store presented at `now` takes a slot if one is free at `now`; a slot
 * frees when its drain into the D-cache completes.  Entries drain one at a
 * time in FIFO order, so drain ends are non-decreasing and the slot to
 * reuse is always the one taken `entries` stores ago:
 *   enter = max(now, end of the drain of the store `entries` slots back)
 *   start = max(enter, end of the previous drain)
 *   end   = cache_access(dcache, addr, write, start)
 * The drain is computed eagerly when the store enters, so the D-cache may
 * see accesses slightly out of time order (it copes).  enter > now is a
 * full stall, counted in events and cycles.
 * With merging on, a store to the same D-cache line as the youngest entry,
 * whose drain has not started by `now`, joins it: no slot, no extra drain.
 */
#include "memory_model.h"

#include <stdlib.h>

struct write_buffer {
    uint64_t *end;              /* drain end per slot, in FIFO ring order */
    unsigned entries, head;     /* head: the oldest slot, reused next */
    cache_t *dcache;
    unsigned line_shift;
    bool merge;
    bool have_young;            /* a youngest entry exists */
    uint64_t young_line, young_start;
    uint64_t last_end;          /* end of the latest drain */
    uint64_t stores, merges, full_stalls, full_cycles;   /* drains: stores - merges */
};

static unsigned log2u(uint64_t x)
{
    unsigned n = 0;
    while (x > 1) { x >>= 1; n++; }
    return n;
}

write_buffer_t *write_buffer_new(unsigned entries, cache_t *dcache)
{
    if (!entries || !dcache) return NULL;
    write_buffer_t *w = calloc(1, sizeof *w);
    if (!w) return NULL;
    w->end = calloc(entries, sizeof *w->end);
    if (!w->end) { free(w); return NULL; }
    w->entries = entries;
    w->dcache = dcache;
    w->line_shift = log2u(cache_line_size(dcache));
    return w;
}

void write_buffer_free(write_buffer_t *w)
{
    if (!w) return;
    free(w->end);
    free(w);
}

void write_buffer_set_merge(write_buffer_t *w, bool merge)
{
    w->merge = merge;
}

static bool merges_with_youngest(const write_buffer_t *w, uint64_t line, uint64_t now)
{
    return w->merge && w->have_young && w->young_line == line && now < w->young_start;
}

uint64_t write_buffer_store(write_buffer_t *w, uint64_t addr, uint64_t now)
{
    uint64_t line = addr >> w->line_shift;
    w->stores++;
    if (merges_with_youngest(w, line, now)) {
        w->merges++;
        return now;
    }
    uint64_t *slot = &w->end[w->head];
    uint64_t enter = now;
    if (*slot > now) {                  /* full: wait for the oldest drain */
        enter = *slot;
        w->full_stalls++;
        w->full_cycles += enter - now;
    }
    uint64_t start = enter > w->last_end ? enter : w->last_end;
    bool hit;
    uint64_t end = cache_access_inline(w->dcache, addr, true, start, &hit);
    *slot = end;
    w->head = (w->head + 1 == w->entries) ? 0 : w->head + 1;
    w->last_end = end;
    w->have_young = true;
    w->young_line = line;
    w->young_start = start;
    return enter;
}

void write_buffer_stats(const write_buffer_t *w, stats_t *out)
{
    stats_add_u64(out, "wbuf.stores", w->stores, "Count", "stores entering the write buffer");
    stats_add_u64(out, "wbuf.merges", w->merges, "Count",
                  "stores merged into the youngest entry");
    stats_add_u64(out, "wbuf.drains", w->stores - w->merges, "Count", "entries drained into the D-cache");
    stats_add_u64(out, "wbuf.full_stalls", w->full_stalls, "Count",
                  "stores that waited for a free entry");
    stats_add_u64(out, "wbuf.full_stall_cycles", w->full_cycles, "Cycle",
                  "cycles stores waited for a free entry");
}
