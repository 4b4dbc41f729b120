/*
 * lz.h - shared declarations for the lz_compress workload, a deflate-like
 * compressor: LZ77 with hash chains and lazy matching, literal/length and
 * distance alphabets with extra bits, dynamic/fixed/stored blocks with
 * length-limited canonical Huffman codes, and a table-driven decoder.
 */
#ifndef LZ_H
#define LZ_H

#include <stddef.h>
#include <stdint.h>

/* ---- PRNG / input ---- */
typedef struct { uint64_t s; } prng_t;
void     prng_seed(prng_t *r, uint64_t seed);
uint64_t prng_next(prng_t *r);
uint32_t prng_below(prng_t *r, uint32_t n);
size_t   generate_input(uint8_t *out, size_t len, uint64_t seed);

/* ---- checksums ---- */
uint32_t adler32(uint32_t adler, const uint8_t *p, size_t n);
uint32_t fnv1a(uint32_t h, const uint8_t *p, size_t n);

/* ---- LSB-first bit I/O ---- */
typedef struct {
    uint8_t *buf;
    size_t cap, pos;
    uint64_t acc;
    int nbits;
} bitout_t;

typedef struct {
    const uint8_t *buf;
    size_t len, pos;
    uint64_t acc;
    int nbits;
    int overrun;
} bitin_t;

void     bo_init(bitout_t *o, size_t cap);
void     bo_bits(bitout_t *o, uint32_t v, int n);
void     bo_align(bitout_t *o);
void     bo_byte(bitout_t *o, uint8_t b);
void     bi_init(bitin_t *in, const uint8_t *buf, size_t len);
uint32_t bi_peek(bitin_t *in, int n);
void     bi_skip(bitin_t *in, int n);
uint32_t bi_bits(bitin_t *in, int n);
void     bi_align(bitin_t *in);

/* ---- deflate alphabets (tables.c) ---- */
#define NLITLEN 288
#define NDIST 30
#define NCLEN 19
#define MIN_MATCH 3
#define MAX_MATCH 258
#define WSIZE 32768
#define MAX_DIST (WSIZE - MAX_MATCH - 4)
#define END_BLOCK 256

extern const uint8_t clen_order[NCLEN];
void     tables_init(void);
int      length_code(int len);           /* 0..28 (add 257 for symbol) */
int      length_extra(int code);
int      length_base(int code);
int      dist_code(int dist);
int      dist_extra(int code);
int      dist_base(int code);
uint32_t reverse_bits(uint32_t v, int n);

/* ---- Huffman (huffman.c) ---- */
#define MAX_BITS 15
void build_lengths(uint8_t *len, const uint32_t *freq, int n, int maxbits);
void build_codes(uint16_t *code, const uint8_t *len, int n);

#define FAST_BITS 9
typedef struct {
    uint16_t fast[1 << FAST_BITS];   /* (symbol << 4) | length, 0 = slow */
    uint16_t count[MAX_BITS + 1];
    uint16_t symbol[NLITLEN];
    int nsyms;
} decode_table_t;
int  build_decode_table(decode_table_t *t, const uint8_t *len, int n);
int  decode_symbol(const decode_table_t *t, bitin_t *in);

/* ---- LZ77 matcher (match.c) ---- */
typedef struct {
    uint32_t lit_or_len;   /* literal byte, or match length (flag bit 16) */
    uint16_t dist;
} token_t;
#define TOKEN_MATCH 0x10000u

typedef struct {
    int max_chain, lazy_limit, nice_len, good_len;
} level_t;

typedef struct matcher matcher_t;
matcher_t *matcher_new(const uint8_t *data, size_t n, const level_t *lv);
void       matcher_free(matcher_t *m);
size_t     matcher_tokens(matcher_t *m, token_t *tok, size_t maxtok, int *done);
uint64_t   matcher_chain_steps(const matcher_t *m);

/* ---- compressor / decompressor ---- */
typedef struct {
    uint64_t in_bytes, out_bytes;
    uint32_t blocks_stored, blocks_fixed, blocks_dynamic;
    uint64_t matches, literals, chain_steps;
} lz_stats_t;

size_t lz_compress(const uint8_t *in, size_t n, const level_t *lv,
                   uint8_t **out, lz_stats_t *st);
long   lz_decompress(const uint8_t *in, size_t n, uint8_t *out, size_t cap);

#endif
