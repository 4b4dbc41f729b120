/*
 * profile.h - weighted profiles (hot methods, hot call pairs, hot data
 * addresses) and their comparison: every sampled profile is scored against
 * the simulator's exhaustive ground truth with the HPS §5 "relative
 * contribution" overlap of the top-90% members (ALGORITHMS.md).
 *
 * A profile maps a member, the key pair (key, key2), to a uint64 weight:
 * method address (key2 = 0), (call site, target), data address, ...  It is
 * an open-addressing hash table (linear probing, power-of-two capacity,
 * load factor at most 3/4) that doubles when full; adding to an existing
 * member or to free room allocates nothing.  profile_add() is inline
 * because exhaustive ground truth calls it once per profiled event.
 */
#ifndef HPS_PROFILE_H
#define HPS_PROFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct profile_member {
    uint64_t key, key2;
    uint64_t weight;        /* > 0 for a member; 0 marks a free slot */
} profile_member_t;

/* Fields are private to profile.c and the inline profile_add(). */
typedef struct profile {
    profile_member_t *slot; /* mask + 1 slots */
    size_t mask;            /* capacity - 1; capacity is a power of two */
    size_t count;           /* members */
    size_t limit;           /* grow before count would exceed this */
    uint64_t total;         /* sum of all weights */
} profile_t;

profile_t *profile_new(void);
void profile_free(profile_t *p);                 /* NULL is fine */
/* Remove every member; the table keeps its capacity (no reallocation). */
void profile_clear(profile_t *p);

/* Slow path of profile_add(): the member is new and the table is full. */
void profile_grow_insert_(profile_t *p, uint64_t key, uint64_t key2, uint64_t weight);

static inline size_t profile_hash_(uint64_t key, uint64_t key2)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ull ^ key2 * 0xC2B2AE3D27D4EB4Full;
    h ^= h >> 32;
    h *= 0xBF58476D1CE4E5B9ull;
    h ^= h >> 29;
    return (size_t)h;
}

/* Add weight to member (key, key2), creating it if new.  A zero weight adds
 * nothing (members always have positive weight).  Sums are not checked for
 * overflow: weights are event counts, far below 2^64. */
static inline void profile_add(profile_t *p, uint64_t key, uint64_t key2, uint64_t weight)
{
    if (weight == 0)
        return;
    p->total += weight;
    size_t i = profile_hash_(key, key2) & p->mask;
    profile_member_t *s;
    while ((s = &p->slot[i])->weight != 0) {
        if (s->key == key && s->key2 == key2) {
            s->weight += weight;
            return;
        }
        i = (i + 1) & p->mask;
    }
    if (p->count < p->limit) {
        s->key = key;
        s->key2 = key2;
        s->weight = weight;
        p->count++;
        return;
    }
    profile_grow_insert_(p, key, key2, weight);
}

/* A profile's members counted lately, one line each, added to the profile
 * in one profile_add when another member takes the line or on
 * profile_recent_flush: for a profile that takes its events one by one
 * (exhaustive ground truth), a compare and an increment per event that
 * repeats a recent member instead of a hash probe.  The profile holds the
 * same sums once flushed; it must be flushed before it is read. */
enum { PROFILE_RECENT_LINES = 256 };
typedef struct profile_recent_line {
    uint64_t key, key2;
    uint64_t n;             /* events not yet in the profile; 0: empty */
} profile_recent_line_t;
typedef struct profile_recent {
    profile_t *profile;
    bool pending;           /* a line has events not yet in the profile */
    profile_recent_line_t line[PROFILE_RECENT_LINES];
} profile_recent_t;

profile_recent_t *profile_recent_new(profile_t *p);
void profile_recent_free(profile_recent_t *r);       /* NULL is fine; flushes nothing */
void profile_recent_flush(profile_recent_t *r);      /* NULL is fine */
/* Slow path of profile_recent_add(): the line holds another member. */
void profile_recent_take_(profile_recent_t *r, profile_recent_line_t *l, uint64_t key,
                          uint64_t key2);

/* One event of member (key, key2). */
static inline void profile_recent_add(profile_recent_t *r, uint64_t key, uint64_t key2)
{
    profile_recent_line_t *l = &r->line[((key ^ key2) >> 1) & (PROFILE_RECENT_LINES - 1)];
    if (__builtin_expect(l->key == key && l->key2 == key2, 1)) {
        l->n++;
        r->pending = true;
        return;
    }
    profile_recent_take_(r, l, key, key2);
}

/* Weight of a member, 0 when absent. */
uint64_t profile_weight(const profile_t *p, uint64_t key, uint64_t key2);
uint64_t profile_total(const profile_t *p);
size_t profile_members(const profile_t *p);

/* All members, heaviest first; equal weights by key, then key2, ascending
 * (a total order, so the result is deterministic).  *out is a new array the
 * caller frees (NULL when the profile is empty).  Returns the count. */
size_t profile_sorted(const profile_t *p, profile_member_t **out);

/* The fewest heaviest members (in profile_sorted() order, so ties at the
 * boundary go to the smaller key) whose combined weight reaches (>=)
 * fraction × total.  fraction <= 0 (or NaN) gives 0; fraction >= 1 gives
 * every member; an empty profile gives 0.  The comparison allows a relative
 * 4 ulp slack so that e.g. 0.3 × 10 (= 3.0000000000000004 in double) is
 * reached by a weight of 3. */
size_t profile_top_count(const profile_t *p, double fraction);

/* Map one member to the member it is counted as in the new profile; return
 * false to drop it (e.g. an address outside every function). */
typedef bool (*profile_map_fn)(void *ctx, uint64_t key, uint64_t key2,
                               uint64_t *key_out, uint64_t *key2_out);

/* Add every member of p, under its mapped key, to out (members mapped to
 * one key are summed): address -> containing function, address -> 8-byte
 * word, ...  out accumulates; pass a new or cleared profile for a fresh
 * one.  out must not be p. */
void profile_map(const profile_t *p, profile_map_fn fn, void *ctx, profile_t *out);

/* HPS §5 accuracy of a sampled profile A against the exact profile P, in
 * percent (0..100):
 *   1. keep in each profile its profile_top_count(X, fraction) members;
 *   2. share_X(e) = w_X(e) / total_X, where total_X is the whole profile's
 *      total, or with renormalize the total of X's kept members;
 *   3. accuracy = 100 × Σ over members kept in both of min(share_A, share_P).
 * Without renormalize (the ALGORITHMS.md default) even a perfect sample
 * scores the exact profile's kept share (>= fraction, usually a little
 * above), not 100; with renormalize or fraction >= 1 it scores 100.
 * Empty profiles (total 0): both empty -> 100, exactly one empty -> 0.
 * Symmetric in its two profiles (the sum runs in key order), and unchanged
 * when either profile's weights are scaled by a constant. */
double profile_accuracy(const profile_t *sampled, const profile_t *exact,
                        double fraction, bool renormalize);

/* Writes a member's name into buf (len bytes, NUL-terminated). */
typedef void (*profile_format_fn)(void *ctx, uint64_t key, uint64_t key2,
                                  char *buf, size_t len);

/* A comparison table: a title line; the exact profile's top_n members with
 * their exact rank, event count and share, and sample count and share;
 * then the sampled profile's top_n members that are not in the exact top_n
 * (rank = their exact rank, "-" when the exact profile lacks them); a totals
 * line; and "accuracy (top 90% overlap): 87.3%" for fraction (0.9 here),
 * computed without renormalisation.  Shares are of each profile's whole
 * total.  format_key NULL prints "0x<key>", or "0x<key>/0x<key2>" when
 * key2 != 0.  Columns are sized to their contents; output is deterministic. */
void profile_print_comparison(FILE *out, const char *title,
                              const profile_t *sampled, const profile_t *exact,
                              size_t top_n, double fraction,
                              profile_format_fn format_key, void *ctx);

/* ---- by function ------------------------------------------------------------------- */
struct symtab;

/* Add every member of raw (key = a code address) to out under the address
 * of the function holding it (itself when no function does). */
void profile_by_function(const profile_t *raw, const struct symtab *st, profile_t *out);

/* A function's name for profile_print_comparison (ctx = the symtab):
 * "name" at its start, "name+0xoff" or "0xaddr" elsewhere. */
void profile_format_function(void *symtab, uint64_t key, uint64_t key2, char *buf, size_t len);

#endif /* HPS_PROFILE_H */
