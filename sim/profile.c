/*
 * profile.c - weighted profiles and the HPS §5 top-90% overlap accuracy
 * (see profile.h): the hash table's slow paths, deterministic sorting,
 * top-fraction cuts, key mapping, and the comparison report.
 */
#include "profile.h"
#include "symtab.h"
#include "util.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define INITIAL_CAPACITY 64

static void alloc_slots(profile_t *p, size_t cap)
{
    p->slot = xcalloc(cap, sizeof *p->slot);
    p->mask = cap - 1;
    p->limit = cap / 4 * 3;
}

profile_t *profile_new(void)
{
    profile_t *p = xcalloc(1, sizeof *p);
    alloc_slots(p, INITIAL_CAPACITY);
    return p;
}

void profile_free(profile_t *p)
{
    if (!p)
        return;
    free(p->slot);
    free(p);
}

void profile_clear(profile_t *p)
{
    memset(p->slot, 0, (p->mask + 1) * sizeof *p->slot);
    p->count = 0;
    p->total = 0;
}

profile_recent_t *profile_recent_new(profile_t *p)
{
    profile_recent_t *r = xcalloc(1, sizeof *r);
    r->profile = p;
    return r;
}

void profile_recent_free(profile_recent_t *r)
{
    free(r);
}

void profile_recent_take_(profile_recent_t *r, profile_recent_line_t *l, uint64_t key,
                          uint64_t key2)
{
    profile_add(r->profile, l->key, l->key2, l->n);     /* nothing when empty */
    *l = (profile_recent_line_t){ .key = key, .key2 = key2, .n = 1 };
    r->pending = true;
}

void profile_recent_flush(profile_recent_t *r)
{
    if (!r || !r->pending) return;
    r->pending = false;
    for (size_t k = 0; k < PROFILE_RECENT_LINES; k++) {
        profile_recent_line_t *l = &r->line[k];
        profile_add(r->profile, l->key, l->key2, l->n);
        l->n = 0;
    }
}

/* Place a member known to be absent into a table with room for it. */
static void place(profile_t *p, uint64_t key, uint64_t key2, uint64_t weight)
{
    size_t i = profile_hash_(key, key2) & p->mask;
    while (p->slot[i].weight != 0)
        i = (i + 1) & p->mask;
    p->slot[i] = (profile_member_t){ .key = key, .key2 = key2, .weight = weight };
    p->count++;
}

void profile_grow_insert_(profile_t *p, uint64_t key, uint64_t key2, uint64_t weight)
{
    profile_member_t *old = p->slot;
    size_t old_cap = p->mask + 1;
    alloc_slots(p, 2 * old_cap);
    p->count = 0;
    for (size_t i = 0; i < old_cap; i++)
        if (old[i].weight != 0)
            place(p, old[i].key, old[i].key2, old[i].weight);
    free(old);
    place(p, key, key2, weight);        /* total was already counted */
}

uint64_t profile_weight(const profile_t *p, uint64_t key, uint64_t key2)
{
    size_t i = profile_hash_(key, key2) & p->mask;
    for (const profile_member_t *s; (s = &p->slot[i])->weight != 0; i = (i + 1) & p->mask)
        if (s->key == key && s->key2 == key2)
            return s->weight;
    return 0;
}

uint64_t profile_total(const profile_t *p) { return p->total; }

size_t profile_members(const profile_t *p) { return p->count; }

/* ---- sorting and top-fraction cuts ----------------------------------------- */

static int cmp_key(const profile_member_t *a, const profile_member_t *b)
{
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    if (a->key2 != b->key2)
        return a->key2 < b->key2 ? -1 : 1;
    return 0;
}

static int cmp_heaviest(const void *va, const void *vb)
{
    const profile_member_t *a = va, *b = vb;
    if (a->weight != b->weight)
        return a->weight > b->weight ? -1 : 1;
    return cmp_key(a, b);
}

static int cmp_by_key(const void *va, const void *vb)
{
    return cmp_key(va, vb);
}

size_t profile_sorted(const profile_t *p, profile_member_t **out)
{
    if (p->count == 0) {
        *out = NULL;
        return 0;
    }
    profile_member_t *m = xcalloc(p->count, sizeof *m);
    size_t n = 0;
    for (size_t i = 0; i <= p->mask; i++)
        if (p->slot[i].weight != 0)
            m[n++] = p->slot[i];
    qsort(m, n, sizeof *m, cmp_heaviest);
    *out = m;
    return n;
}

/* Length of the shortest prefix of m (sorted heaviest first, weights summing
 * to total) whose weight reaches fraction × total. */
static size_t top_prefix(const profile_member_t *m, size_t n, uint64_t total, double fraction)
{
    if (n == 0 || total == 0 || !(fraction > 0))
        return 0;
    if (fraction >= 1)
        return n;
    double target = fraction * (double)total;
    target -= target * (4 * DBL_EPSILON);
    uint64_t cum = 0;
    for (size_t i = 0; i < n; i++) {
        cum += m[i].weight;
        if ((double)cum >= target)
            return i + 1;
    }
    return n;
}

size_t profile_top_count(const profile_t *p, double fraction)
{
    profile_member_t *m;
    size_t n = profile_sorted(p, &m);
    size_t k = top_prefix(m, n, p->total, fraction);
    free(m);
    return k;
}

/* ---- mapping --------------------------------------------------------------- */

void profile_map(const profile_t *p, profile_map_fn fn, void *ctx, profile_t *out)
{
    for (size_t i = 0; i <= p->mask; i++) {
        const profile_member_t *s = &p->slot[i];
        uint64_t k, k2;
        if (s->weight != 0 && fn(ctx, s->key, s->key2, &k, &k2))
            profile_add(out, k, k2, s->weight);
    }
}

/* ---- accuracy -------------------------------------------------------------- */

/* The kept (top-fraction) members of p, sorted by key; returns their count,
 * their weight sum in *kept_total. */
static size_t kept_by_key(const profile_t *p, double fraction, profile_member_t **out,
                          uint64_t *kept_total)
{
    profile_member_t *m;
    size_t n = profile_sorted(p, &m);
    size_t k = top_prefix(m, n, p->total, fraction);
    uint64_t sum = 0;
    for (size_t i = 0; i < k; i++)
        sum += m[i].weight;
    if (k > 0)
        qsort(m, k, sizeof *m, cmp_by_key);
    *out = m;
    *kept_total = sum;
    return k;
}

double profile_accuracy(const profile_t *sampled, const profile_t *exact,
                        double fraction, bool renormalize)
{
    if (sampled->total == 0 && exact->total == 0)
        return 100.0;
    if (sampled->total == 0 || exact->total == 0)
        return 0.0;

    profile_member_t *a, *b;
    uint64_t kept_a, kept_b;
    size_t na = kept_by_key(sampled, fraction, &a, &kept_a);
    size_t nb = kept_by_key(exact, fraction, &b, &kept_b);
    double den_a = (double)(renormalize ? kept_a : sampled->total);
    double den_b = (double)(renormalize ? kept_b : exact->total);

    /* Merge the two key-sorted kept sets; the sum runs in key order, so the
     * result does not depend on which profile is which. */
    double sum = 0;
    size_t i = 0, j = 0;
    while (i < na && j < nb) {
        int c = cmp_key(&a[i], &b[j]);
        if (c < 0) {
            i++;
        } else if (c > 0) {
            j++;
        } else {
            sum += fmin((double)a[i].weight / den_a, (double)b[j].weight / den_b);
            i++;
            j++;
        }
    }
    free(a);
    free(b);
    sum *= 100.0;
    return sum > 100.0 ? 100.0 : sum;
}

/* ---- comparison report ----------------------------------------------------- */

enum { COL_RANK, COL_NAME, COL_EVENTS, COL_EXACT, COL_SAMPLES, COL_SAMPLED, NCOLS };

typedef struct row {
    char cell[NCOLS][128];
} row_t;

static const char *const HEADER[NCOLS] = {
    "rank", "member", "events", "exact%", "samples", "sampled%",
};

static void default_format(uint64_t key, uint64_t key2, char *buf, size_t len)
{
    if (key2 != 0)
        snprintf(buf, len, "0x%" PRIx64 "/0x%" PRIx64, key, key2);
    else
        snprintf(buf, len, "0x%" PRIx64, key);
}

static double share(uint64_t w, uint64_t total)
{
    return total ? 100.0 * (double)w / (double)total : 0.0;
}

static void fill_row(row_t *r, size_t exact_rank, const profile_member_t *m,
                     const profile_t *sampled, const profile_t *exact,
                     profile_format_fn format_key, void *ctx)
{
    if (exact_rank)
        snprintf(r->cell[COL_RANK], sizeof r->cell[0], "%zu", exact_rank);
    else
        snprintf(r->cell[COL_RANK], sizeof r->cell[0], "-");
    if (format_key)
        format_key(ctx, m->key, m->key2, r->cell[COL_NAME], sizeof r->cell[0]);
    else
        default_format(m->key, m->key2, r->cell[COL_NAME], sizeof r->cell[0]);
    r->cell[COL_NAME][sizeof r->cell[0] - 1] = '\0';
    uint64_t ev = profile_weight(exact, m->key, m->key2);
    uint64_t sa = profile_weight(sampled, m->key, m->key2);
    snprintf(r->cell[COL_EVENTS], sizeof r->cell[0], "%" PRIu64, ev);
    snprintf(r->cell[COL_EXACT], sizeof r->cell[0], "%.2f%%", share(ev, exact->total));
    snprintf(r->cell[COL_SAMPLES], sizeof r->cell[0], "%" PRIu64, sa);
    snprintf(r->cell[COL_SAMPLED], sizeof r->cell[0], "%.2f%%", share(sa, sampled->total));
}

static void print_row(FILE *out, const char *const cell[NCOLS], const int width[NCOLS])
{
    for (int c = 0; c < NCOLS; c++) {
        if (c > 0)
            fputs("  ", out);
        if (c == COL_NAME)
            fprintf(out, "%-*s", width[c], cell[c]);
        else
            fprintf(out, "%*s", width[c], cell[c]);
    }
    fputc('\n', out);
}

static void print_table_row(FILE *out, const row_t *r, const int width[NCOLS])
{
    const char *cell[NCOLS];
    for (int c = 0; c < NCOLS; c++)
        cell[c] = r->cell[c];
    print_row(out, cell, width);
}

void profile_print_comparison(FILE *out, const char *title,
                              const profile_t *sampled, const profile_t *exact,
                              size_t top_n, double fraction,
                              profile_format_fn format_key, void *ctx)
{
    profile_member_t *e, *s;
    size_t ne = profile_sorted(exact, &e);
    size_t ns = profile_sorted(sampled, &s);
    size_t te = ne < top_n ? ne : top_n;
    size_t ts = ns < top_n ? ns : top_n;

    /* Exact rank of every exact member, for the sampled-only rows. */
    profile_t *rank = profile_new();
    for (size_t i = 0; i < ne; i++)
        profile_add(rank, e[i].key, e[i].key2, i + 1);

    row_t *rows = xcalloc(te + ts, sizeof *rows);
    size_t nrows = 0;
    for (size_t i = 0; i < te; i++)
        fill_row(&rows[nrows++], i + 1, &e[i], sampled, exact, format_key, ctx);
    size_t extra = 0;
    for (size_t j = 0; j < ts; j++) {
        uint64_t r = profile_weight(rank, s[j].key, s[j].key2);
        if (r != 0 && r <= te)
            continue;
        fill_row(&rows[nrows++], (size_t)r, &s[j], sampled, exact, format_key, ctx);
        extra++;
    }

    int width[NCOLS];
    for (int c = 0; c < NCOLS; c++) {
        width[c] = (int)strlen(HEADER[c]);
        for (size_t i = 0; i < nrows; i++) {
            int w = (int)strlen(rows[i].cell[c]);
            if (w > width[c])
                width[c] = w;
        }
    }

    if (title)
        fprintf(out, "%s\n", title);
    print_row(out, HEADER, width);
    for (size_t i = 0; i < te; i++)
        print_table_row(out, &rows[i], width);
    if (extra > 0) {
        fprintf(out, "sampled top %zu members not in the exact top %zu:\n", top_n, top_n);
        for (size_t i = te; i < nrows; i++)
            print_table_row(out, &rows[i], width);
    }
    fprintf(out, "total: %" PRIu64 " events in %zu members, %" PRIu64 " samples in %zu members\n",
            exact->total, ne, sampled->total, ns);
    fprintf(out, "accuracy (top %g%% overlap): %.1f%%\n", fraction * 100.0,
            profile_accuracy(sampled, exact, fraction, false));

    free(rows);
    profile_free(rank);
    free(e);
    free(s);
}

/* ---- by function ------------------------------------------------------------------- */

static bool to_function(void *ctx, uint64_t key, uint64_t key2, uint64_t *k, uint64_t *k2)
{
    const symbol_t *s = symtab_lookup(ctx, key);
    *k = s ? s->addr : key;
    *k2 = key2;
    return true;
}

void profile_by_function(const profile_t *raw, const symtab_t *st, profile_t *out)
{
    profile_map(raw, to_function, (void *)st, out);
}

void profile_format_function(void *symtab, uint64_t key, uint64_t key2, char *buf, size_t len)
{
    (void)key2;
    const symbol_t *s = symtab_lookup(symtab, key);
    if (s && s->addr == key) snprintf(buf, len, "%s", s->name);
    else symtab_format(symtab, key, buf, len);
}
