/*
 * bwt.h - shared declarations for the bwt_compress workload, a block-sorting
 * compressor in the style of bzip2: Burrows-Wheeler transform, move-to-front,
 * zero run-length coding and multi-table canonical Huffman coding.
 */
#ifndef BWT_H
#define BWT_H

#include <stddef.h>
#include <stdint.h>

/* ---- deterministic PRNG (prng.c) ---- */
typedef struct { uint64_t s; } prng_t;
void     prng_seed(prng_t *r, uint64_t seed);
uint64_t prng_next(prng_t *r);
uint32_t prng_below(prng_t *r, uint32_t n);

/* ---- input generator (gen.c) ---- */
size_t generate_input(uint8_t *out, size_t len, uint64_t seed);

/* ---- CRC32 (crc.c) ---- */
void     crc_init(void);
uint32_t crc_update(uint32_t crc, const uint8_t *p, size_t n);

/* ---- bit I/O (bitio.c) ---- */
typedef struct {
    uint8_t *buf;
    size_t cap, pos;
    uint64_t acc;
    int nbits;
} bitwriter_t;

typedef struct {
    const uint8_t *buf;
    size_t len, pos;
    uint64_t acc;
    int nbits;
    int overrun;
} bitreader_t;

void     bw_init(bitwriter_t *w, size_t cap);
void     bw_put(bitwriter_t *w, uint32_t val, int n);
void     bw_flush(bitwriter_t *w);
void     bw_free(bitwriter_t *w);
void     br_init(bitreader_t *r, const uint8_t *buf, size_t len);
uint32_t br_get(bitreader_t *r, int n);
uint32_t br_bit(bitreader_t *r);

/* ---- block sorting (sort.c, unbwt.c) ---- */
typedef struct {
    uint64_t mkq_work;      /* comparisons done by the main sort */
    uint32_t fallbacks;     /* blocks that needed the doubling sort */
} sort_stats_t;

uint32_t bwt_forward(const uint8_t *blk, uint32_t n, uint8_t *last,
                     uint32_t *ptr, sort_stats_t *st);
void     bwt_inverse(const uint8_t *last, uint32_t n, uint32_t origin,
                     uint8_t *out, uint32_t *tvec);

/* ---- move-to-front + zero runs (mtf.c) ---- */
#define MAX_ALPHA 258
#define RUNA 0
#define RUNB 1
uint32_t mtf_encode(const uint8_t *last, uint32_t n, const uint8_t *in_use,
                    uint16_t *syms, uint32_t *freq, int *alpha_size);
uint32_t mtf_decode(const uint16_t *syms, uint32_t nsyms, const uint8_t *in_use,
                    uint8_t *last, uint32_t cap);

/* ---- Huffman coding (huff.c) ---- */
#define MAX_CODE_LEN 17
#define MAX_GROUPS 6
#define GROUP_SIZE 50
void huff_make_lengths(uint8_t *len, const uint32_t *freq, int alpha, int maxlen);
void huff_assign_codes(uint32_t *code, const uint8_t *len, int alpha);

typedef struct {
    int32_t limit[MAX_CODE_LEN + 2];
    int32_t base[MAX_CODE_LEN + 2];
    uint16_t perm[MAX_ALPHA];
    int minlen, maxlen;
} huff_decoder_t;
void huff_build_decoder(huff_decoder_t *d, const uint8_t *len, int alpha);
int  huff_decode_sym(const huff_decoder_t *d, bitreader_t *r);

/* ---- block codec (codec.c) ---- */
typedef struct {
    uint64_t in_bytes, out_bytes;
    uint32_t blocks;
    uint32_t selectors;
    uint32_t combined_crc;
    sort_stats_t sort;
} codec_stats_t;

size_t compress_buffer(const uint8_t *in, size_t n, uint32_t block_size,
                       uint8_t **out, codec_stats_t *st);
long   decompress_buffer(const uint8_t *in, size_t n, uint8_t *out, size_t cap,
                         uint32_t *combined_crc);

#endif
