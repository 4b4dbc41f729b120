/*
 * codec.c - the bwt_compress stream format: per block a CRC, the BWT origin,
 * the symbol-in-use bitmap, several Huffman tables chosen per 50-symbol
 * group by iterative refinement, MTF-coded selectors, delta-coded code
 * lengths and the coded MTF/RLE symbols; plus the full decoder.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bwt.h"

#define BLOCK_MAGIC 0x31
#define END_MAGIC   0x17
#define REFINE_ITERS 4

typedef struct {
    int alpha, ngroups;
    uint32_t nsel;
    uint8_t *selector;
    uint8_t len[MAX_GROUPS][MAX_ALPHA];
    uint32_t code[MAX_GROUPS][MAX_ALPHA];
} tables_t;

static void *xalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "bwt_compress: out of memory\n");
        exit(2);
    }
    return p;
}

static void put32(bitwriter_t *w, uint32_t v)
{
    bw_put(w, v >> 16, 16);
    bw_put(w, v & 0xFFFF, 16);
}

static uint32_t get32(bitreader_t *r)
{
    uint32_t hi = br_get(r, 16);
    return (hi << 16) | br_get(r, 16);
}

static int groups_for(uint32_t nsyms)
{
    if (nsyms < 200) return 2;
    if (nsyms < 600) return 3;
    if (nsyms < 1200) return 4;
    if (nsyms < 2400) return 5;
    return 6;
}

/* Seed each table to favour a contiguous slice of the alphabet. */
static void initial_tables(tables_t *t, const uint32_t *freq, uint32_t nsyms)
{
    uint32_t remaining = nsyms;
    int lo = 0;
    for (int g = t->ngroups; g > 0; g--) {
        uint32_t target = remaining / (uint32_t)g, acc = 0;
        int hi = lo - 1;
        while (acc < target && hi < t->alpha - 1)
            acc += freq[++hi];
        if (hi > lo && g != t->ngroups && g != 1 &&
            ((t->ngroups - g) % 2 == 1))
            acc -= freq[hi--];
        for (int v = 0; v < t->alpha; v++)
            t->len[t->ngroups - g][v] = (v >= lo && v <= hi) ? 0 : 15;
        lo = hi + 1;
        remaining -= acc;
    }
}

static int cheapest_table(const tables_t *t, const uint16_t *syms, uint32_t a,
                          uint32_t b)
{
    uint32_t cost[MAX_GROUPS] = { 0 };
    for (uint32_t i = a; i < b; i++)
        for (int g = 0; g < t->ngroups; g++)
            cost[g] += t->len[g][syms[i]];
    int best = 0;
    for (int g = 1; g < t->ngroups; g++)
        if (cost[g] < cost[best])
            best = g;
    return best;
}

static void refine_tables(tables_t *t, const uint16_t *syms, uint32_t nsyms)
{
    static uint32_t rfreq[MAX_GROUPS][MAX_ALPHA];
    for (int it = 0; it < REFINE_ITERS; it++) {
        memset(rfreq, 0, sizeof(rfreq));
        t->nsel = 0;
        for (uint32_t a = 0; a < nsyms; a += GROUP_SIZE) {
            uint32_t b = a + GROUP_SIZE < nsyms ? a + GROUP_SIZE : nsyms;
            int g = cheapest_table(t, syms, a, b);
            t->selector[t->nsel++] = (uint8_t)g;
            for (uint32_t i = a; i < b; i++)
                rfreq[g][syms[i]]++;
        }
        for (int g = 0; g < t->ngroups; g++)
            huff_make_lengths(t->len[g], rfreq[g], t->alpha, MAX_CODE_LEN);
    }
    for (int g = 0; g < t->ngroups; g++)
        huff_assign_codes(t->code[g], t->len[g], t->alpha);
}

static void write_in_use(bitwriter_t *w, const uint8_t *in_use)
{
    uint32_t groups = 0;
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++)
            if (in_use[i * 16 + j])
                groups |= 1u << (15 - i);
    bw_put(w, groups, 16);
    for (int i = 0; i < 16; i++) {
        if (!(groups & (1u << (15 - i))))
            continue;
        uint32_t bits = 0;
        for (int j = 0; j < 16; j++)
            if (in_use[i * 16 + j])
                bits |= 1u << (15 - j);
        bw_put(w, bits, 16);
    }
}

static void read_in_use(bitreader_t *r, uint8_t *in_use)
{
    uint32_t groups = br_get(r, 16);
    memset(in_use, 0, 256);
    for (int i = 0; i < 16; i++) {
        if (!(groups & (1u << (15 - i))))
            continue;
        uint32_t bits = br_get(r, 16);
        for (int j = 0; j < 16; j++)
            if (bits & (1u << (15 - j)))
                in_use[i * 16 + j] = 1;
    }
}

static void write_selectors(bitwriter_t *w, const tables_t *t)
{
    uint8_t order[MAX_GROUPS];
    for (int g = 0; g < t->ngroups; g++)
        order[g] = (uint8_t)g;
    for (uint32_t i = 0; i < t->nsel; i++) {
        uint8_t v = t->selector[i];
        int j = 0;
        while (order[j] != v)
            j++;
        for (int k = j; k > 0; k--)
            order[k] = order[k - 1];
        order[0] = v;
        for (int k = 0; k < j; k++)
            bw_put(w, 1, 1);
        bw_put(w, 0, 1);
    }
}

static int read_selectors(bitreader_t *r, tables_t *t)
{
    uint8_t order[MAX_GROUPS];
    for (int g = 0; g < t->ngroups; g++)
        order[g] = (uint8_t)g;
    for (uint32_t i = 0; i < t->nsel; i++) {
        int j = 0;
        while (br_bit(r)) {
            if (++j >= t->ngroups)
                return -1;
        }
        uint8_t v = order[j];
        for (int k = j; k > 0; k--)
            order[k] = order[k - 1];
        order[0] = v;
        t->selector[i] = v;
    }
    return 0;
}

static void write_lengths(bitwriter_t *w, const tables_t *t)
{
    for (int g = 0; g < t->ngroups; g++) {
        int cur = t->len[g][0];
        bw_put(w, (uint32_t)cur, 5);
        for (int s = 0; s < t->alpha; s++) {
            while (cur < t->len[g][s]) { bw_put(w, 2, 2); cur++; }
            while (cur > t->len[g][s]) { bw_put(w, 3, 2); cur--; }
            bw_put(w, 0, 1);
        }
    }
}

static int read_lengths(bitreader_t *r, tables_t *t)
{
    for (int g = 0; g < t->ngroups; g++) {
        int cur = (int)br_get(r, 5);
        for (int s = 0; s < t->alpha; s++) {
            while (br_bit(r)) {
                cur += br_bit(r) ? -1 : 1;
                if (cur < 1 || cur > MAX_CODE_LEN)
                    return -1;
            }
            t->len[g][s] = (uint8_t)cur;
        }
    }
    return 0;
}

static void write_symbols(bitwriter_t *w, const tables_t *t,
                          const uint16_t *syms, uint32_t nsyms)
{
    for (uint32_t a = 0, sel = 0; a < nsyms; a += GROUP_SIZE, sel++) {
        int g = t->selector[sel];
        uint32_t b = a + GROUP_SIZE < nsyms ? a + GROUP_SIZE : nsyms;
        for (uint32_t i = a; i < b; i++)
            bw_put(w, t->code[g][syms[i]], t->len[g][syms[i]]);
    }
}

static void compress_block(bitwriter_t *w, const uint8_t *blk, uint32_t n,
                           codec_stats_t *st, uint8_t *last, uint32_t *ptr,
                           uint16_t *syms, tables_t *t)
{
    uint8_t in_use[256] = { 0 };
    uint32_t freq[MAX_ALPHA];
    uint32_t crc = crc_update(0, blk, n);
    st->combined_crc = ((st->combined_crc << 1) | (st->combined_crc >> 31)) ^ crc;
    uint32_t origin = bwt_forward(blk, n, last, ptr, &st->sort);
    for (uint32_t i = 0; i < n; i++)
        in_use[blk[i]] = 1;
    uint32_t nsyms = mtf_encode(last, n, in_use, syms, freq, &t->alpha);
    t->ngroups = groups_for(nsyms);
    initial_tables(t, freq, nsyms);
    refine_tables(t, syms, nsyms);
    bw_put(w, BLOCK_MAGIC, 8);
    put32(w, crc);
    put32(w, n);
    put32(w, origin);
    write_in_use(w, in_use);
    bw_put(w, (uint32_t)t->ngroups, 3);
    put32(w, t->nsel);
    write_selectors(w, t);
    write_lengths(w, t);
    write_symbols(w, t, syms, nsyms);
    st->blocks++;
    st->selectors += t->nsel;
}

size_t compress_buffer(const uint8_t *in, size_t n, uint32_t block_size,
                       uint8_t **out, codec_stats_t *st)
{
    bitwriter_t w;
    static tables_t t;
    uint8_t *last = xalloc(block_size);
    uint32_t *ptr = xalloc(block_size * sizeof(uint32_t));
    uint16_t *syms = xalloc((block_size + 16) * sizeof(uint16_t));
    t.selector = xalloc(block_size / GROUP_SIZE + 16);
    bw_init(&w, n / 3 + 1024);
    bw_put(&w, 'H', 8);
    bw_put(&w, 'B', 8);
    put32(&w, block_size);
    for (size_t pos = 0; pos < n; pos += block_size) {
        uint32_t len = (uint32_t)(n - pos < block_size ? n - pos : block_size);
        compress_block(&w, in + pos, len, st, last, ptr, syms, &t);
    }
    bw_put(&w, END_MAGIC, 8);
    put32(&w, st->combined_crc);
    bw_flush(&w);
    free(last);
    free(ptr);
    free(syms);
    free(t.selector);
    st->in_bytes += n;
    st->out_bytes += w.pos;
    *out = w.buf;
    return w.pos;
}

/* Decode the Huffman-coded symbol stream of one block up to the EOB. */
static long decode_symbols(bitreader_t *r, tables_t *t, uint16_t *syms,
                           uint32_t cap)
{
    static huff_decoder_t dec[MAX_GROUPS];
    for (int g = 0; g < t->ngroups; g++)
        huff_build_decoder(&dec[g], t->len[g], t->alpha);
    uint32_t o = 0;
    for (uint32_t sel = 0; sel < t->nsel; sel++) {
        const huff_decoder_t *d = &dec[t->selector[sel]];
        for (int k = 0; k < GROUP_SIZE; k++) {
            int s = huff_decode_sym(d, r);
            if (s < 0 || o >= cap)
                return -1;
            syms[o++] = (uint16_t)s;
            if (s == t->alpha - 1)
                return o;
        }
    }
    return -1;
}

static long decompress_block(bitreader_t *r, uint8_t *out, size_t cap,
                             uint32_t block_size, uint32_t *combined)
{
    static tables_t t;
    uint8_t in_use[256];
    uint32_t crc = get32(r), n = get32(r), origin = get32(r);
    if (n == 0 || n > block_size || n > cap || origin >= n)
        return -1;
    read_in_use(r, in_use);
    int nuse = 0;
    for (int c = 0; c < 256; c++)
        nuse += in_use[c];
    t.alpha = nuse + 2;
    t.ngroups = (int)br_get(r, 3);
    t.nsel = get32(r);
    if (t.ngroups < 2 || t.ngroups > MAX_GROUPS || t.nsel > block_size / GROUP_SIZE + 8)
        return -1;
    t.selector = xalloc(block_size / GROUP_SIZE + 16);
    if (read_selectors(r, &t) || read_lengths(r, &t)) {
        free(t.selector);
        return -1;
    }
    uint16_t *syms = xalloc((block_size + 16) * sizeof(uint16_t));
    uint8_t *last = xalloc(n);
    uint32_t *tvec = xalloc(n * sizeof(uint32_t));
    long ns = decode_symbols(r, &t, syms, block_size + 16);
    long result = -1;
    if (ns > 0 && mtf_decode(syms, (uint32_t)ns, in_use, last, n) == n) {
        bwt_inverse(last, n, origin, out, tvec);
        if (crc_update(0, out, n) == crc) {
            *combined = ((*combined << 1) | (*combined >> 31)) ^ crc;
            result = n;
        }
    }
    free(syms);
    free(last);
    free(tvec);
    free(t.selector);
    return result;
}

long decompress_buffer(const uint8_t *in, size_t n, uint8_t *out, size_t cap,
                       uint32_t *combined_crc)
{
    bitreader_t r;
    br_init(&r, in, n);
    if (br_get(&r, 8) != 'H' || br_get(&r, 8) != 'B')
        return -1;
    uint32_t block_size = get32(&r);
    if (block_size == 0 || block_size > (64u << 20))
        return -1;
    size_t o = 0;
    *combined_crc = 0;
    for (;;) {
        uint32_t m = br_get(&r, 8);
        if (m == END_MAGIC)
            break;
        if (m != BLOCK_MAGIC)
            return -1;
        long got = decompress_block(&r, out + o, cap - o, block_size, combined_crc);
        if (got < 0)
            return -1;
        o += (size_t)got;
    }
    if (get32(&r) != *combined_crc || r.overrun > 8)
        return -1;
    return (long)o;
}
