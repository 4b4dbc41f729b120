/*
 * huffman.c - length-limited Huffman codes for lz_compress: a heap-built
 * tree whose depths are clamped to MAX_BITS with a Kraft-sum repair (the
 * lengths are then handed out by frequency rank), canonical bit-reversed
 * codes for LSB-first output, and a two-level table-driven decoder.
 */
#include <string.h>
#include "lz.h"

#define MAXN NLITLEN

typedef struct {
    uint32_t w[2 * MAXN];
    int16_t parent[2 * MAXN];
    int16_t heap[MAXN + 1];
    int nheap;
} tree_t;

static int lighter(const tree_t *t, int a, int b)
{
    return t->w[a] < t->w[b] || (t->w[a] == t->w[b] && a < b);
}

static void sift_down(tree_t *t, int i)
{
    int v = t->heap[i];
    for (int c; (c = 2 * i) <= t->nheap; i = c) {
        if (c < t->nheap && lighter(t, t->heap[c + 1], t->heap[c]))
            c++;
        if (!lighter(t, t->heap[c], v))
            break;
        t->heap[i] = t->heap[c];
    }
    t->heap[i] = (int16_t)v;
}

static int pop_min(tree_t *t)
{
    int top = t->heap[1];
    t->heap[1] = t->heap[t->nheap--];
    sift_down(t, 1);
    return top;
}

static void push_node(tree_t *t, int node)
{
    int i = ++t->nheap;
    while (i > 1 && lighter(t, node, t->heap[i / 2])) {
        t->heap[i] = t->heap[i / 2];
        i /= 2;
    }
    t->heap[i] = (int16_t)node;
}

/* Stable merge sort of symbols by ascending frequency. */
static void sort_by_freq(int *sym, int n, const uint32_t *freq)
{
    int tmp[MAXN];
    for (int width = 1; width < n; width *= 2) {
        for (int lo = 0; lo < n; lo += 2 * width) {
            int mid = lo + width < n ? lo + width : n;
            int hi = lo + 2 * width < n ? lo + 2 * width : n;
            int a = lo, b = mid, o = lo;
            while (a < mid && b < hi)
                tmp[o++] = freq[sym[b]] < freq[sym[a]] ? sym[b++] : sym[a++];
            while (a < mid) tmp[o++] = sym[a++];
            while (b < hi) tmp[o++] = sym[b++];
        }
        memcpy(sym, tmp, (size_t)n * sizeof(int));
    }
}

/* Depth histogram of the leaves of the tree built from the used symbols. */
static void tree_depths(tree_t *t, const int *used, int nused, int *bl_count)
{
    uint8_t depth[2 * MAXN];
    t->nheap = 0;
    for (int i = 0; i < nused; i++) {
        t->parent[i] = -1;
        push_node(t, i);
    }
    int next = nused;
    while (t->nheap > 1) {
        int a = pop_min(t), b = pop_min(t);
        t->w[next] = t->w[a] + t->w[b];
        t->parent[a] = t->parent[b] = (int16_t)next;
        t->parent[next] = -1;
        push_node(t, next++);
    }
    depth[next - 1] = 0;
    for (int k = next - 2; k >= 0; k--)
        depth[k] = (uint8_t)(depth[t->parent[k]] + 1);
    (void)used;
    for (int i = 0; i < nused; i++)
        bl_count[depth[i] > 31 ? 31 : depth[i]]++;
}

/* Clamp depths above maxbits, then restore the Kraft equality: each step
 * turns a leaf at depth b into an internal node (pulling one clamped leaf up
 * beside it), which lowers the Kraft sum by exactly one unit. */
static void limit_depths(int *bl_count, int maxbits)
{
    for (int b = maxbits + 1; b < 32; b++) {
        bl_count[maxbits] += bl_count[b];
        bl_count[b] = 0;
    }
    uint32_t kraft = 0;
    for (int b = 1; b <= maxbits; b++)
        kraft += (uint32_t)bl_count[b] << (maxbits - b);
    while (kraft > (1u << maxbits)) {
        int b = maxbits - 1;
        while (bl_count[b] == 0)
            b--;
        bl_count[b]--;
        bl_count[b + 1] += 2;
        bl_count[maxbits]--;
        kraft--;
    }
}

void build_lengths(uint8_t *len, const uint32_t *freq, int n, int maxbits)
{
    static tree_t t;
    int used[MAXN], nused = 0;
    memset(len, 0, (size_t)n);
    for (int s = 0; s < n; s++)
        if (freq[s])
            used[nused++] = s;
    if (nused < 2) {
        int a = nused ? used[0] : 0;
        len[a] = 1;
        len[a == 0 ? 1 : 0] = 1;
        return;
    }
    sort_by_freq(used, nused, freq);
    for (int i = 0; i < nused; i++)
        t.w[i] = freq[used[i]];
    int bl_count[32] = { 0 };
    tree_depths(&t, used, nused, bl_count);
    limit_depths(bl_count, maxbits);
    /* least frequent symbols (front of used[]) get the longest codes */
    int i = 0;
    for (int b = maxbits; b >= 1; b--)
        for (int k = 0; k < bl_count[b]; k++)
            len[used[i++]] = (uint8_t)b;
}

void build_codes(uint16_t *code, const uint8_t *len, int n)
{
    uint16_t bl_count[MAX_BITS + 1] = { 0 }, next[MAX_BITS + 2];
    for (int s = 0; s < n; s++)
        bl_count[len[s]]++;
    bl_count[0] = 0;
    uint32_t c = 0;
    for (int b = 1; b <= MAX_BITS; b++) {
        c = (c + bl_count[b - 1]) << 1;
        next[b] = (uint16_t)c;
    }
    for (int s = 0; s < n; s++)
        if (len[s])
            code[s] = (uint16_t)reverse_bits(next[len[s]]++, len[s]);
}

int build_decode_table(decode_table_t *t, const uint8_t *len, int n)
{
    uint16_t offs[MAX_BITS + 2];
    uint16_t code[NLITLEN];
    memset(t->count, 0, sizeof(t->count));
    memset(t->fast, 0, sizeof(t->fast));
    for (int s = 0; s < n; s++)
        t->count[len[s]]++;
    t->count[0] = 0;
    int32_t left = 1;
    for (int b = 1; b <= MAX_BITS; b++) {
        left = left * 2 - t->count[b];
        if (left < 0)
            return -1;          /* over-subscribed */
    }
    offs[1] = 0;
    for (int b = 1; b < MAX_BITS; b++)
        offs[b + 1] = (uint16_t)(offs[b] + t->count[b]);
    for (int s = 0; s < n; s++)
        if (len[s])
            t->symbol[offs[len[s]]++] = (uint16_t)s;
    t->nsyms = n;
    build_codes(code, len, n);
    for (int s = 0; s < n; s++) {
        int l = len[s];
        if (l == 0 || l > FAST_BITS)
            continue;
        for (uint32_t r = code[s]; r < (1u << FAST_BITS); r += 1u << l)
            t->fast[r] = (uint16_t)((s << 4) | l);
    }
    return 0;
}

/* Canonical decode bit by bit, for codes longer than FAST_BITS. */
static int decode_slow(const decode_table_t *t, bitin_t *in)
{
    int code = 0, first = 0, index = 0;
    for (int l = 1; l <= MAX_BITS; l++) {
        code |= (int)bi_bits(in, 1);
        int count = t->count[l];
        if (code - count < first)
            return t->symbol[index + (code - first)];
        index += count;
        first += count;
        first <<= 1;
        code <<= 1;
    }
    return -1;
}

int decode_symbol(const decode_table_t *t, bitin_t *in)
{
    uint16_t e = t->fast[bi_peek(in, FAST_BITS)];
    if (e) {
        bi_skip(in, e & 15);
        return e >> 4;
    }
    return decode_slow(t, in);
}
