/*
 * sort.c - forward Burrows-Wheeler transform.  Rotations of a block are
 * sorted with a two-byte radix bucket pass followed by multikey quicksort
 * (insertion sort for tiny ranges); if the block is so repetitive that the
 * work budget is exhausted, a prefix-doubling rank sort takes over.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bwt.h"

#define SMALL_RANGE 16
#define MKQ_STACK 4096

typedef struct {
    const uint8_t *text;    /* block repeated twice: rotations are substrings */
    uint32_t n;
    uint32_t *ptr;
    uint64_t work, budget;
} sorter_t;

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "bwt_compress: out of memory\n");
        exit(2);
    }
    return p;
}

/* Compare rotations a and b starting at byte offset d; returns <0, 0, >0. */
static int rot_compare(sorter_t *s, uint32_t a, uint32_t b, uint32_t d)
{
    const uint8_t *pa = s->text + a + d, *pb = s->text + b + d;
    uint32_t left = s->n - d;
    while (left >= 4) {
        if (pa[0] != pb[0]) return (int)pa[0] - pb[0];
        if (pa[1] != pb[1]) return (int)pa[1] - pb[1];
        if (pa[2] != pb[2]) return (int)pa[2] - pb[2];
        if (pa[3] != pb[3]) return (int)pa[3] - pb[3];
        pa += 4;
        pb += 4;
        left -= 4;
        s->work += 4;
    }
    while (left--) {
        if (*pa != *pb)
            return (int)*pa - *pb;
        pa++;
        pb++;
    }
    return 0;
}

static void insertion_sort(sorter_t *s, uint32_t lo, uint32_t hi, uint32_t d)
{
    for (uint32_t i = lo + 1; i < hi; i++) {
        uint32_t v = s->ptr[i];
        uint32_t j = i;
        while (j > lo && rot_compare(s, s->ptr[j - 1], v, d) > 0) {
            s->ptr[j] = s->ptr[j - 1];
            j--;
        }
        s->ptr[j] = v;
        if (s->work > s->budget)
            return;
    }
}

static inline uint8_t key_at(const sorter_t *s, uint32_t idx, uint32_t d)
{
    return s->text[s->ptr[idx] + d];
}

static void swap_ptr(uint32_t *p, uint32_t a, uint32_t b)
{
    uint32_t t = p[a];
    p[a] = p[b];
    p[b] = t;
}

static void vec_swap(uint32_t *p, uint32_t a, uint32_t b, uint32_t n)
{
    while (n--)
        swap_ptr(p, a++, b++);
}

static uint8_t median3(uint8_t a, uint8_t b, uint8_t c)
{
    if (a > b) { uint8_t t = a; a = b; b = t; }
    if (b > c) { b = c; }
    return a > b ? a : b;
}

typedef struct { int32_t lo, hi; uint32_t d; } mkq_frame_t;

/* Bentley-Sedgewick three-way radix quicksort over ptr[lo,hi) at depth d. */
static void mk_quicksort(sorter_t *s, int32_t lo0, int32_t hi0, uint32_t d0)
{
    static mkq_frame_t stack[MKQ_STACK];
    int sp = 0;
    stack[sp++] = (mkq_frame_t){ lo0, hi0, d0 };
    while (sp > 0) {
        mkq_frame_t f = stack[--sp];
        int32_t lo = f.lo, hi = f.hi;
        uint32_t d = f.d;
        if (s->work > s->budget)
            return;
        if (hi - lo <= SMALL_RANGE || d + 64 >= s->n || sp >= MKQ_STACK - 3) {
            insertion_sort(s, (uint32_t)lo, (uint32_t)hi, d);
            continue;
        }
        int pv = median3(key_at(s, (uint32_t)lo, d),
                         key_at(s, (uint32_t)(lo + (hi - lo) / 2), d),
                         key_at(s, (uint32_t)(hi - 1), d));
        /* [lo,a) == pv, [a,b) < pv, (c,e] > pv, (e,hi) == pv */
        int32_t a = lo, b = lo, c = hi - 1, e = hi - 1;
        s->work += (uint64_t)(hi - lo);
        for (;;) {
            int r;
            while (b <= c && (r = key_at(s, (uint32_t)b, d) - pv) <= 0) {
                if (r == 0)
                    swap_ptr(s->ptr, (uint32_t)a++, (uint32_t)b);
                b++;
            }
            while (b <= c && (r = key_at(s, (uint32_t)c, d) - pv) >= 0) {
                if (r == 0)
                    swap_ptr(s->ptr, (uint32_t)c, (uint32_t)e--);
                c--;
            }
            if (b > c)
                break;
            swap_ptr(s->ptr, (uint32_t)b++, (uint32_t)c--);
        }
        int32_t r = (a - lo) < (b - a) ? (a - lo) : (b - a);
        vec_swap(s->ptr, (uint32_t)lo, (uint32_t)(b - r), (uint32_t)r);
        r = (e - c) < (hi - 1 - e) ? (e - c) : (hi - 1 - e);
        vec_swap(s->ptr, (uint32_t)b, (uint32_t)(hi - r), (uint32_t)r);
        int32_t lt = b - a, gt = e - c;
        if (lt > 1)
            stack[sp++] = (mkq_frame_t){ lo, lo + lt, d };
        if (gt > 1)
            stack[sp++] = (mkq_frame_t){ hi - gt, hi, d };
        if (hi - gt - (lo + lt) > 1)
            stack[sp++] = (mkq_frame_t){ lo + lt, hi - gt, d + 1 };
    }
}

/* Counting sort of rotations by their first two bytes; fills bucket bounds. */
static void radix_two_bytes(sorter_t *s, uint32_t *bstart)
{
    memset(bstart, 0, 65537 * sizeof(uint32_t));
    for (uint32_t i = 0; i < s->n; i++)
        bstart[(s->text[i] << 8) | s->text[i + 1]]++;
    uint32_t sum = 0;
    for (uint32_t k = 0; k < 65536; k++) {
        uint32_t c = bstart[k];
        bstart[k] = sum;
        sum += c;
    }
    bstart[65536] = sum;
    uint32_t *fill = xmalloc(65536 * sizeof(uint32_t));
    memcpy(fill, bstart, 65536 * sizeof(uint32_t));
    for (uint32_t i = 0; i < s->n; i++)
        s->ptr[fill[(s->text[i] << 8) | s->text[i + 1]]++] = i;
    free(fill);
}

static int main_sort(sorter_t *s)
{
    uint32_t *bstart = xmalloc(65537 * sizeof(uint32_t));
    radix_two_bytes(s, bstart);
    for (uint32_t k = 0; k < 65536 && s->work <= s->budget; k++) {
        uint32_t lo = bstart[k], hi = bstart[k + 1];
        if (hi - lo > 1)
            mk_quicksort(s, (int32_t)lo, (int32_t)hi, 2);
    }
    free(bstart);
    return s->work <= s->budget;
}

/* Stable counting sort of idx[] by key[] (values < nkeys) into out[]. */
static void counting_pass(const uint32_t *idx, const uint32_t *key, uint32_t n,
                          uint32_t nkeys, uint32_t *cnt, uint32_t *out)
{
    memset(cnt, 0, (nkeys + 1) * sizeof(uint32_t));
    for (uint32_t i = 0; i < n; i++)
        cnt[key[idx[i]] + 1]++;
    for (uint32_t k = 1; k <= nkeys; k++)
        cnt[k] += cnt[k - 1];
    for (uint32_t i = 0; i < n; i++)
        out[cnt[key[idx[i]]]++] = idx[i];
}

/* Prefix doubling over cyclic rotations: O(n log n) regardless of content. */
static void doubling_sort(sorter_t *s)
{
    uint32_t n = s->n;
    if (n < 2) {
        s->ptr[0] = 0;
        return;
    }
    uint32_t *rank = xmalloc(n * sizeof(uint32_t));
    uint32_t *rank2 = xmalloc(n * sizeof(uint32_t));
    uint32_t *tmp = xmalloc(n * sizeof(uint32_t));
    uint32_t *cnt = xmalloc((n + 257) * sizeof(uint32_t));
    for (uint32_t i = 0; i < n; i++) {
        rank[i] = s->text[i];
        tmp[i] = i;
    }
    counting_pass(tmp, rank, n, 256, cnt, s->ptr);
    uint32_t classes = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (i == 0 || s->text[s->ptr[i]] != s->text[s->ptr[i - 1]])
            classes++;
        rank2[s->ptr[i]] = classes - 1;
    }
    memcpy(rank, rank2, n * sizeof(uint32_t));
    for (uint32_t h = 1; h < n && classes < n; h *= 2) {
        /* order by second key rank[i+h]: shift the sorted order back by h */
        for (uint32_t i = 0; i < n; i++)
            tmp[i] = (s->ptr[i] + n - h) % n;
        counting_pass(tmp, rank, n, classes, cnt, s->ptr);
        classes = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t a = s->ptr[i];
            if (i == 0)
                classes = 1;
            else {
                uint32_t b = s->ptr[i - 1];
                if (rank[a] != rank[b] || rank[(a + h) % n] != rank[(b + h) % n])
                    classes++;
            }
            rank2[a] = classes - 1;
        }
        memcpy(rank, rank2, n * sizeof(uint32_t));
        s->work += n;
    }
    free(rank);
    free(rank2);
    free(tmp);
    free(cnt);
}

uint32_t bwt_forward(const uint8_t *blk, uint32_t n, uint8_t *last,
                     uint32_t *ptr, sort_stats_t *st)
{
    uint8_t *text = xmalloc(2 * (size_t)n + 2);
    memcpy(text, blk, n);
    memcpy(text + n, blk, n);
    text[2 * n] = blk[0];
    text[2 * n + 1] = n > 1 ? blk[1] : blk[0];
    sorter_t s = { text, n, ptr, 0, (uint64_t)n * 40 + 100000 };
    if (!main_sort(&s)) {
        st->fallbacks++;
        doubling_sort(&s);
    }
    st->mkq_work += s.work;
    uint32_t origin = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t p = ptr[i];
        if (p == 0)
            origin = i;
        last[i] = text[p + n - 1];
    }
    free(text);
    return origin;
}
