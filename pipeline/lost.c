/*
 * lost.c - per-pc cycles and slots lost to wrong paths and memory-order
 * replays (lost.h): an open-addressing table by pc, sorted when written.
 */
#include "lost.h"

#include <inttypes.h>
#include <stdlib.h>

#include "util.h"

struct lost {
    lost_row_t *rows;           /* pc 0: an empty slot                       */
    size_t cap, used;
    lost_row_t *last;           /* the row lost_at() returned last, or NULL
                                   (a transfer's wrong paths come one after
                                   another: its row is asked for again) */
};

lost_t *lost_new(void) { return xcalloc(1, sizeof(lost_t)); }

void lost_free(lost_t *l)
{
    if (!l) return;
    free(l->rows);
    free(l);
}

static size_t slot_of(uint64_t pc, size_t cap)
{
    return (size_t)((pc >> 1) * 0x9e3779b97f4a7c15ull >> 24) & (cap - 1);
}

static void grow(lost_t *l)
{
    size_t cap = l->cap ? 2 * l->cap : 256;
    lost_row_t *rows = xcalloc(cap, sizeof *rows);
    for (size_t k = 0; k < l->cap; k++) {
        if (!l->rows[k].pc) continue;
        size_t i = slot_of(l->rows[k].pc, cap);
        while (rows[i].pc) i = (i + 1) & (cap - 1);
        rows[i] = l->rows[k];
    }
    free(l->rows);
    l->rows = rows;
    l->cap = cap;
    l->last = NULL;
}

lost_row_t *lost_at(lost_t *l, uint64_t pc)
{
    if (l->last && l->last->pc == pc) return l->last;
    if (2 * (l->used + 1) > l->cap) grow(l);
    size_t i = slot_of(pc, l->cap);
    while (l->rows[i].pc && l->rows[i].pc != pc) i = (i + 1) & (l->cap - 1);
    if (!l->rows[i].pc) {
        l->rows[i].pc = pc;
        l->used++;
    }
    return l->last = &l->rows[i];
}

static int by_pc(const void *a, const void *b)
{
    const lost_row_t *x = a, *y = b;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* The used rows, sorted by pc; *n of them. */
static lost_row_t *sorted_rows(const lost_t *l, size_t *n)
{
    lost_row_t *v = xcalloc(l->used ? l->used : 1, sizeof *v);
    size_t k = 0;
    for (size_t i = 0; i < l->cap; i++)
        if (l->rows[i].pc) v[k++] = l->rows[i];
    qsort(v, k, sizeof *v, by_pc);
    *n = k;
    return v;
}

void lost_write_truth(const lost_t *l, FILE *out, const symtab_t *symtab)
{
    size_t n;
    lost_row_t *v = sorted_rows(l, &n);
    fprintf(out, "# lost to speculation (ooo): wrong_path rows are charged to the mispredicted "
                 "transfer, replay rows to the violating load\n"
                 "# lost\tkind\tpc\tsymbol\tevents\tfetch_slots\tissue_slots\tcycles\t"
                 "rob_slot_cycles\n");
    for (size_t k = 0; k < n; k++) {
        char sym[160];
        const lost_row_t *r = &v[k];
        symtab_format(symtab, r->pc, sym, sizeof sym);
        if (r->wp_squashes)
            fprintf(out, "# lost\twrong_path\t0x%" PRIx64 "\t%s\t%" PRIu64 "\t%" PRIu64 "\t%" PRIu64
                    "\t%" PRIu64 "\t%" PRIu64 "\n", r->pc, sym, r->wp_squashes, r->wp_fetch_slots,
                    r->wp_issue_slots, r->wp_fetch_cycles, r->wp_rob_cycles);
        if (r->replays)
            fprintf(out, "# lost\treplay\t0x%" PRIx64 "\t%s\t%" PRIu64 "\t0\t%" PRIu64 "\t%" PRIu64
                    "\t0\n", r->pc, sym, r->replays, r->replay_issue_slots, r->replay_cycles);
    }
    free(v);
}

typedef uint64_t (*row_value_fn)(const lost_row_t *r);
static uint64_t fetch_cycles_of(const lost_row_t *r) { return r->wp_fetch_cycles; }
static uint64_t rob_cycles_of(const lost_row_t *r) { return r->wp_rob_cycles; }
static uint64_t replay_slots_of(const lost_row_t *r) { return r->replay_issue_slots; }

/* Of the rows v (sorted by pc) not yet taken, the one with the largest
 * nonzero value (the lowest pc of a tie), marked taken; n when none is
 * left. */
static size_t next_top(const lost_row_t *v, size_t n, bool *taken, row_value_fn value)
{
    size_t best = n;
    for (size_t k = 0; k < n; k++)
        if (!taken[k] && value(&v[k]) && (best == n || value(&v[k]) > value(&v[best])))
            best = k;
    if (best < n) taken[best] = true;
    return best;
}

/* The `top` rows with the largest value, largest first (ties by pc). */
static void top_stats(const lost_row_t *v, size_t n, unsigned top, row_value_fn value,
                      stats_t *s, const char *prefix, const char *unit, const char *what)
{
    bool *taken = xcalloc(n ? n : 1, sizeof *taken);
    for (unsigned t = 0; t < top; t++) {
        size_t best = next_top(v, n, taken, value);
        if (best == n) break;
        char name[96], desc[192];
        snprintf(name, sizeof name, "%s::%#" PRIx64, prefix, v[best].pc);
        snprintf(desc, sizeof desc, "%s %#" PRIx64 " (the %u with the most are listed; every pc "
                 "in the ground-truth file)", what, v[best].pc, top);
        stats_add_u64(s, name, value(&v[best]), unit, desc);
    }
    free(taken);
}

static uint64_t fetch_slots_of(const lost_row_t *r) { return r->wp_fetch_slots; }

size_t lost_top_fetch_slots(const lost_t *l, unsigned top, uint64_t *pc, uint64_t *slots)
{
    size_t n, got = 0;
    lost_row_t *v = sorted_rows(l, &n);
    bool *taken = xcalloc(n ? n : 1, sizeof *taken);
    for (size_t best; got < top && (best = next_top(v, n, taken, fetch_slots_of)) < n; got++) {
        pc[got] = v[best].pc;
        slots[got] = v[best].wp_fetch_slots;
    }
    free(taken);
    free(v);
    return got;
}

void lost_stats(const lost_t *l, stats_t *s, unsigned top, int wrong_path, int replays)
{
    size_t n;
    lost_row_t *v = sorted_rows(l, &n);
    if (wrong_path) {
        top_stats(v, n, top, fetch_cycles_of, s, "cpu.ooo.wrongPath.fetchCyclesAt", "Cycle",
                  "Wrong-path fetch cycles after the transfer at");
        top_stats(v, n, top, rob_cycles_of, s, "cpu.ooo.wrongPath.robSlotCyclesAt", "Cycle",
                  "Active-list entry-cycles of wrong-path instructions after the transfer at");
    }
    if (replays)
        top_stats(v, n, top, replay_slots_of, s, "cpu.ooo.memdep.replayedInstsAt", "Count",
                  "Instructions replayed because of the load at");
    free(v);
}
