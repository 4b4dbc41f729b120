/*
 * inflate.c - decoder for the lz_compress stream: stored, fixed-Huffman and
 * dynamic-Huffman blocks, the code-length alphabet, length/distance
 * expansion with overlap-safe copying, and the Adler-32 trailer check.
 */
#include <string.h>
#include "lz.h"

typedef struct {
    bitin_t in;
    uint8_t *out;
    size_t pos, cap;
    decode_table_t lit, dist;
} inflater_t;

static int inflate_stored(inflater_t *z)
{
    bi_align(&z->in);
    uint32_t len = bi_bits(&z->in, 16), nlen = bi_bits(&z->in, 16);
    if ((len ^ 0xFFFF) != nlen || z->pos + len > z->cap)
        return -1;
    for (uint32_t i = 0; i < len; i++)
        z->out[z->pos++] = (uint8_t)bi_bits(&z->in, 8);
    return 0;
}

static int copy_match(inflater_t *z, int len, int dist)
{
    if ((size_t)dist > z->pos || z->pos + (size_t)len > z->cap)
        return -1;
    uint8_t *d = z->out + z->pos;
    const uint8_t *s = d - dist;
    if (dist >= len) {
        memcpy(d, s, (size_t)len);
    } else {
        for (int i = 0; i < len; i++)
            d[i] = s[i];
    }
    z->pos += (size_t)len;
    return 0;
}

static int inflate_codes(inflater_t *z)
{
    for (;;) {
        int sym = decode_symbol(&z->lit, &z->in);
        if (sym < 0)
            return -1;
        if (sym < 256) {
            if (z->pos >= z->cap)
                return -1;
            z->out[z->pos++] = (uint8_t)sym;
            continue;
        }
        if (sym == END_BLOCK)
            return 0;
        int lc = sym - 257;
        if (lc > 28)
            return -1;
        int len = length_base(lc) + (int)bi_bits(&z->in, length_extra(lc));
        int dc = decode_symbol(&z->dist, &z->in);
        if (dc < 0 || dc >= NDIST)
            return -1;
        int dist = dist_base(dc) + (int)bi_bits(&z->in, dist_extra(dc));
        if (copy_match(z, len, dist))
            return -1;
    }
}

static int inflate_fixed(inflater_t *z)
{
    uint8_t llen[NLITLEN], dlen[NDIST];
    for (int s = 0; s < NLITLEN; s++)
        llen[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
    memset(dlen, 5, sizeof(dlen));
    if (build_decode_table(&z->lit, llen, NLITLEN) ||
        build_decode_table(&z->dist, dlen, NDIST))
        return -1;
    return inflate_codes(z);
}

/* Read HLIT+HDIST code lengths coded with the code-length alphabet. */
static int read_code_lengths(inflater_t *z, uint8_t *lens, int n)
{
    static decode_table_t clt;
    uint8_t cl_len[NCLEN] = { 0 };
    int hclen = (int)bi_bits(&z->in, 4) + 4;
    for (int i = 0; i < hclen; i++)
        cl_len[clen_order[i]] = (uint8_t)bi_bits(&z->in, 3);
    if (build_decode_table(&clt, cl_len, NCLEN))
        return -1;
    for (int i = 0; i < n;) {
        int s = decode_symbol(&clt, &z->in);
        int rep, val = 0;
        if (s < 0)
            return -1;
        if (s < 16) {
            lens[i++] = (uint8_t)s;
            continue;
        }
        if (s == 16) {
            if (i == 0)
                return -1;
            val = lens[i - 1];
            rep = 3 + (int)bi_bits(&z->in, 2);
        } else if (s == 17) {
            rep = 3 + (int)bi_bits(&z->in, 3);
        } else {
            rep = 11 + (int)bi_bits(&z->in, 7);
        }
        if (i + rep > n)
            return -1;
        while (rep--)
            lens[i++] = (uint8_t)val;
    }
    return 0;
}

static int inflate_dynamic(inflater_t *z)
{
    uint8_t lens[NLITLEN + NDIST];
    int hlit = (int)bi_bits(&z->in, 5) + 257;
    int hdist = (int)bi_bits(&z->in, 5) + 1;
    if (hlit > NLITLEN - 2 || hdist > NDIST)
        return -1;
    if (read_code_lengths(z, lens, hlit + hdist))
        return -1;
    uint8_t llen[NLITLEN] = { 0 }, dlen[NDIST] = { 0 };
    memcpy(llen, lens, (size_t)hlit);
    memcpy(dlen, lens + hlit, (size_t)hdist);
    if (llen[END_BLOCK] == 0 ||
        build_decode_table(&z->lit, llen, NLITLEN) ||
        build_decode_table(&z->dist, dlen, NDIST))
        return -1;
    return inflate_codes(z);
}

long lz_decompress(const uint8_t *in, size_t n, uint8_t *out, size_t cap)
{
    static inflater_t z;
    bi_init(&z.in, in, n);
    z.out = out;
    z.pos = 0;
    z.cap = cap;
    if (bi_bits(&z.in, 8) != 'L' || bi_bits(&z.in, 8) != 'Z')
        return -1;
    uint32_t lo = bi_bits(&z.in, 16);
    size_t expect = lo | ((size_t)bi_bits(&z.in, 16) << 16);
    if (expect > cap)
        return -1;
    int final = 0;
    while (!final) {
        final = (int)bi_bits(&z.in, 1);
        int type = (int)bi_bits(&z.in, 2);
        int err = type == 0 ? inflate_stored(&z)
                : type == 1 ? inflate_fixed(&z)
                : type == 2 ? inflate_dynamic(&z) : -1;
        if (err)
            return -1;
    }
    bi_align(&z.in);
    uint32_t a = 0;
    for (int i = 0; i < 4; i++)
        a = (a << 8) | bi_bits(&z.in, 8);
    if (z.pos != expect || a != adler32(1, out, z.pos) || z.in.overrun > 8)
        return -1;
    return (long)z.pos;
}
