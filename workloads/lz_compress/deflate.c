/*
 * deflate.c - block encoder for lz_compress: gathers symbol statistics for
 * a batch of LZ77 tokens, builds dynamic literal/length, distance and
 * code-length Huffman codes, prices stored/fixed/dynamic encodings and
 * writes the cheapest, inside a small container with an Adler-32 trailer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lz.h"

#define BLOCK_TOKENS 16384

typedef struct {
    uint32_t lfreq[NLITLEN], dfreq[NDIST];
    uint8_t llen[NLITLEN], dlen[NDIST];
    uint16_t lcode[NLITLEN], dcode[NDIST];
    int hlit, hdist, hclen;
    uint8_t cl_sym[NLITLEN + NDIST];
    uint8_t cl_extra[NLITLEN + NDIST];
    int ncl;
    uint32_t cl_freq[NCLEN];
    uint8_t cl_len[NCLEN];
    uint16_t cl_code[NCLEN];
} block_codes_t;

static void count_symbols(block_codes_t *b, const token_t *tok, size_t nt)
{
    memset(b->lfreq, 0, sizeof(b->lfreq));
    memset(b->dfreq, 0, sizeof(b->dfreq));
    for (size_t i = 0; i < nt; i++) {
        if (tok[i].lit_or_len & TOKEN_MATCH) {
            b->lfreq[257 + length_code((int)(tok[i].lit_or_len & 0xFFFF))]++;
            b->dfreq[dist_code(tok[i].dist)]++;
        } else {
            b->lfreq[tok[i].lit_or_len]++;
        }
    }
    b->lfreq[END_BLOCK] = 1;
}

static void add_cl(block_codes_t *b, int sym, int extra)
{
    b->cl_sym[b->ncl] = (uint8_t)sym;
    b->cl_extra[b->ncl] = (uint8_t)extra;
    b->ncl++;
    b->cl_freq[sym]++;
}

/* Run-length code the concatenated code lengths with symbols 16/17/18. */
static void rle_lengths(block_codes_t *b)
{
    uint8_t all[NLITLEN + NDIST];
    int n = b->hlit + b->hdist;
    memcpy(all, b->llen, (size_t)b->hlit);
    memcpy(all + b->hlit, b->dlen, (size_t)b->hdist);
    memset(b->cl_freq, 0, sizeof(b->cl_freq));
    b->ncl = 0;
    for (int i = 0; i < n;) {
        int v = all[i], run = 1;
        while (i + run < n && all[i + run] == v)
            run++;
        i += run;
        if (v == 0) {
            while (run >= 11) {
                int r = run > 138 ? 138 : run;
                add_cl(b, 18, r - 11);
                run -= r;
            }
            if (run >= 3) {
                add_cl(b, 17, run - 3);
                run = 0;
            }
        } else {
            add_cl(b, v, 0);
            run--;
            while (run >= 3) {
                int r = run > 6 ? 6 : run;
                add_cl(b, 16, r - 3);
                run -= r;
            }
        }
        while (run-- > 0)
            add_cl(b, v, 0);
    }
}

static void build_dynamic(block_codes_t *b)
{
    build_lengths(b->llen, b->lfreq, NLITLEN - 2, MAX_BITS);
    b->llen[NLITLEN - 2] = b->llen[NLITLEN - 1] = 0;
    build_lengths(b->dlen, b->dfreq, NDIST, MAX_BITS);
    build_codes(b->lcode, b->llen, NLITLEN);
    build_codes(b->dcode, b->dlen, NDIST);
    for (b->hlit = NLITLEN - 2; b->hlit > 257 && b->llen[b->hlit - 1] == 0; b->hlit--)
        ;
    for (b->hdist = NDIST; b->hdist > 1 && b->dlen[b->hdist - 1] == 0; b->hdist--)
        ;
    rle_lengths(b);
    build_lengths(b->cl_len, b->cl_freq, NCLEN, 7);
    build_codes(b->cl_code, b->cl_len, NCLEN);
    for (b->hclen = NCLEN; b->hclen > 4 && b->cl_len[clen_order[b->hclen - 1]] == 0; b->hclen--)
        ;
}

static void fixed_lengths(uint8_t *llen, uint8_t *dlen)
{
    for (int s = 0; s < NLITLEN; s++)
        llen[s] = s < 144 ? 8 : s < 256 ? 9 : s < 280 ? 7 : 8;
    for (int s = 0; s < NDIST; s++)
        dlen[s] = 5;
}

/* Bits to code the block's symbols with the given lengths. */
static uint64_t data_cost(const block_codes_t *b, const uint8_t *llen,
                          const uint8_t *dlen)
{
    uint64_t bits = 0;
    for (int s = 0; s < NLITLEN - 2; s++) {
        bits += (uint64_t)b->lfreq[s] * llen[s];
        if (s > 256)
            bits += (uint64_t)b->lfreq[s] * (uint32_t)length_extra(s - 257);
    }
    for (int s = 0; s < NDIST; s++)
        bits += (uint64_t)b->dfreq[s] * (dlen[s] + (uint32_t)dist_extra(s));
    return bits;
}

static uint64_t header_cost(const block_codes_t *b)
{
    uint64_t bits = 5 + 5 + 4 + 3u * (uint32_t)b->hclen;
    for (int i = 0; i < b->ncl; i++) {
        int s = b->cl_sym[i];
        bits += b->cl_len[s] + (s == 16 ? 2 : s == 17 ? 3 : s == 18 ? 7 : 0);
    }
    return bits;
}

static void write_tokens(bitout_t *o, const token_t *tok, size_t nt,
                         const uint8_t *llen, const uint16_t *lcode,
                         const uint8_t *dlen, const uint16_t *dcode)
{
    for (size_t i = 0; i < nt; i++) {
        uint32_t v = tok[i].lit_or_len;
        if (!(v & TOKEN_MATCH)) {
            bo_bits(o, lcode[v], llen[v]);
            continue;
        }
        int len = (int)(v & 0xFFFF), lc = length_code(len);
        bo_bits(o, lcode[257 + lc], llen[257 + lc]);
        bo_bits(o, (uint32_t)(len - length_base(lc)), length_extra(lc));
        int dc = dist_code(tok[i].dist);
        bo_bits(o, dcode[dc], dlen[dc]);
        bo_bits(o, (uint32_t)(tok[i].dist - dist_base(dc)), dist_extra(dc));
    }
    bo_bits(o, lcode[END_BLOCK], llen[END_BLOCK]);
}

static void write_dynamic_header(bitout_t *o, const block_codes_t *b)
{
    bo_bits(o, (uint32_t)(b->hlit - 257), 5);
    bo_bits(o, (uint32_t)(b->hdist - 1), 5);
    bo_bits(o, (uint32_t)(b->hclen - 4), 4);
    for (int i = 0; i < b->hclen; i++)
        bo_bits(o, b->cl_len[clen_order[i]], 3);
    for (int i = 0; i < b->ncl; i++) {
        int s = b->cl_sym[i];
        bo_bits(o, b->cl_code[s], b->cl_len[s]);
        if (s >= 16)
            bo_bits(o, b->cl_extra[i], s == 16 ? 2 : s == 17 ? 3 : 7);
    }
}

static void write_stored(bitout_t *o, const uint8_t *raw, size_t len)
{
    bo_align(o);
    bo_bits(o, (uint32_t)len, 16);
    bo_bits(o, (uint32_t)~len & 0xFFFF, 16);
    for (size_t i = 0; i < len; i++)
        bo_byte(o, raw[i]);
}

static void emit_block(bitout_t *o, const token_t *tok, size_t nt,
                       const uint8_t *raw, size_t rawlen, int final,
                       lz_stats_t *st)
{
    static block_codes_t b;
    static uint8_t fl[NLITLEN], fd[NDIST];
    static uint16_t fcl[NLITLEN], fcd[NDIST];
    if (!fl[0]) {
        fixed_lengths(fl, fd);
        build_codes(fcl, fl, NLITLEN);
        build_codes(fcd, fd, NDIST);
    }
    count_symbols(&b, tok, nt);
    build_dynamic(&b);
    uint64_t dyn = header_cost(&b) + data_cost(&b, b.llen, b.dlen);
    uint64_t fix = data_cost(&b, fl, fd);
    uint64_t sto = rawlen <= 65535 ? 32 + 8 * (uint64_t)rawlen + 7 : UINT64_MAX;
    bo_bits(o, (uint32_t)final, 1);
    if (sto < dyn && sto < fix) {
        bo_bits(o, 0, 2);
        write_stored(o, raw, rawlen);
        st->blocks_stored++;
    } else if (fix <= dyn) {
        bo_bits(o, 1, 2);
        write_tokens(o, tok, nt, fl, fcl, fd, fcd);
        st->blocks_fixed++;
    } else {
        bo_bits(o, 2, 2);
        write_dynamic_header(o, &b);
        write_tokens(o, tok, nt, b.llen, b.lcode, b.dlen, b.dcode);
        st->blocks_dynamic++;
    }
}

static size_t token_span(const token_t *tok, size_t nt, lz_stats_t *st)
{
    size_t span = 0;
    for (size_t i = 0; i < nt; i++) {
        if (tok[i].lit_or_len & TOKEN_MATCH) {
            span += tok[i].lit_or_len & 0xFFFF;
            st->matches++;
        } else {
            span++;
            st->literals++;
        }
    }
    return span;
}

size_t lz_compress(const uint8_t *in, size_t n, const level_t *lv,
                   uint8_t **out, lz_stats_t *st)
{
    bitout_t o;
    token_t *tok = malloc(BLOCK_TOKENS * sizeof(token_t));
    if (!tok) {
        fprintf(stderr, "lz_compress: out of memory\n");
        exit(2);
    }
    bo_init(&o, n / 2 + 1024);
    bo_bits(&o, 'L', 8);
    bo_bits(&o, 'Z', 8);
    bo_bits(&o, (uint32_t)(n & 0xFFFF), 16);
    bo_bits(&o, (uint32_t)(n >> 16), 16);
    matcher_t *m = matcher_new(in, n, lv);
    size_t pos = 0;
    int done = n == 0;
    if (done)
        emit_block(&o, tok, 0, in, 0, 1, st);
    while (!done) {
        size_t nt = matcher_tokens(m, tok, BLOCK_TOKENS, &done);
        size_t span = token_span(tok, nt, st);
        emit_block(&o, tok, nt, in + pos, span, done, st);
        pos += span;
    }
    st->chain_steps += matcher_chain_steps(m);
    matcher_free(m);
    free(tok);
    bo_align(&o);
    uint32_t a = adler32(1, in, n);
    for (int sh = 24; sh >= 0; sh -= 8)
        bo_byte(&o, (uint8_t)(a >> sh));
    st->in_bytes += n;
    st->out_bytes += o.pos;
    *out = o.buf;
    return o.pos;
}
