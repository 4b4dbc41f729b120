/*
 * huff.c - Huffman code construction for bwt_compress: heap-based tree
 * building with length limiting by frequency scaling, canonical code
 * assignment, and a canonical (first-code/count per length) decoder.
 */
#include <string.h>
#include "bwt.h"

typedef struct {
    uint32_t w[2 * MAX_ALPHA];
    int parent[2 * MAX_ALPHA];
    int heap[MAX_ALPHA + 1];
    int nheap;
} hbuild_t;

static int node_less(const hbuild_t *h, int a, int b)
{
    if (h->w[a] != h->w[b])
        return h->w[a] < h->w[b];
    return a < b;
}

static void heap_up(hbuild_t *h, int i)
{
    int v = h->heap[i];
    while (i > 1 && node_less(h, v, h->heap[i / 2])) {
        h->heap[i] = h->heap[i / 2];
        i /= 2;
    }
    h->heap[i] = v;
}

static void heap_down(hbuild_t *h, int i)
{
    int v = h->heap[i];
    for (;;) {
        int c = 2 * i;
        if (c > h->nheap)
            break;
        if (c < h->nheap && node_less(h, h->heap[c + 1], h->heap[c]))
            c++;
        if (!node_less(h, h->heap[c], v))
            break;
        h->heap[i] = h->heap[c];
        i = c;
    }
    h->heap[i] = v;
}

static int heap_pop(hbuild_t *h)
{
    int top = h->heap[1];
    h->heap[1] = h->heap[h->nheap--];
    if (h->nheap > 0)
        heap_down(h, 1);
    return top;
}

static void heap_push(hbuild_t *h, int node)
{
    h->heap[++h->nheap] = node;
    heap_up(h, h->nheap);
}

/* Build one tree from the current weights; returns the deepest leaf. */
static int build_tree(hbuild_t *h, uint8_t *len, int alpha)
{
    h->nheap = 0;
    for (int i = 0; i < alpha; i++) {
        h->parent[i] = -1;
        heap_push(h, i);
    }
    int next = alpha;
    while (h->nheap > 1) {
        int a = heap_pop(h), b = heap_pop(h);
        h->w[next] = h->w[a] + h->w[b];
        h->parent[next] = -1;
        h->parent[a] = h->parent[b] = next;
        heap_push(h, next++);
    }
    int deepest = 0;
    for (int i = 0; i < alpha; i++) {
        int d = 0;
        for (int k = i; h->parent[k] >= 0; k = h->parent[k])
            d++;
        if (d == 0)
            d = 1;
        len[i] = (uint8_t)d;
        if (d > deepest)
            deepest = d;
    }
    return deepest;
}

void huff_make_lengths(uint8_t *len, const uint32_t *freq, int alpha, int maxlen)
{
    static hbuild_t h;
    uint32_t base[MAX_ALPHA];
    for (int i = 0; i < alpha; i++)
        base[i] = (freq[i] ? freq[i] : 1);
    for (;;) {
        for (int i = 0; i < alpha; i++)
            h.w[i] = base[i];
        if (build_tree(&h, len, alpha) <= maxlen)
            return;
        for (int i = 0; i < alpha; i++)
            base[i] = 1 + base[i] / 2;
    }
}

void huff_assign_codes(uint32_t *code, const uint8_t *len, int alpha)
{
    uint32_t next = 0;
    for (int l = 1; l <= MAX_CODE_LEN; l++) {
        for (int s = 0; s < alpha; s++)
            if (len[s] == l)
                code[s] = next++;
        next <<= 1;
    }
}

/* limit[l] = first canonical code of length l; base[l] = index into perm. */
void huff_build_decoder(huff_decoder_t *d, const uint8_t *len, int alpha)
{
    int count[MAX_CODE_LEN + 2];
    memset(count, 0, sizeof(count));
    d->minlen = MAX_CODE_LEN;
    d->maxlen = 0;
    for (int s = 0; s < alpha; s++) {
        count[len[s]]++;
        if (len[s] < d->minlen) d->minlen = len[s];
        if (len[s] > d->maxlen) d->maxlen = len[s];
    }
    int p = 0;
    int32_t code = 0;
    for (int l = 1; l <= MAX_CODE_LEN; l++) {
        d->limit[l] = code;
        d->base[l] = p;
        for (int s = 0; s < alpha; s++)
            if (len[s] == l)
                d->perm[p++] = (uint16_t)s;
        code = (code + count[l]) << 1;
    }
    d->limit[MAX_CODE_LEN + 1] = 0;
    d->base[MAX_CODE_LEN + 1] = p;
}

int huff_decode_sym(const huff_decoder_t *d, bitreader_t *r)
{
    int l = d->minlen;
    int32_t code = (int32_t)br_get(r, l);
    for (; l <= d->maxlen; l++) {
        int32_t off = code - d->limit[l];
        if (off >= 0 && off < d->base[l + 1] - d->base[l])
            return d->perm[d->base[l] + off];
        code = (code << 1) | (int32_t)br_bit(r);
    }
    return -1;
}
