/*
 * main.c - driver for the bwt_compress workload: generates input of the
 * selected size (test/train/ref), compresses it at two block sizes,
 * decompresses each stream, verifies the round trip and prints a summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "bwt.h"

typedef struct {
    const char *name;
    size_t input_bytes;
    uint32_t block_a, block_b;
    uint32_t expect;            /* known checksum of the compressed streams */
} size_cfg_t;

static const size_cfg_t sizes[] = {
    { "test",    16000,   8000,   16000, 0x2f1c556du },
    { "train",  140000,  50000,  140000, 0x92610971u },
    { "ref",   1000000, 250000,  900000, 0xfc1f8a8eu },
};

static const size_cfg_t *pick_size(int argc, char **argv)
{
    const char *want = argc > 1 ? argv[1] : "test";
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        if (strcmp(sizes[i].name, want) == 0)
            return &sizes[i];
    return NULL;
}

/* Compress and decompress one buffer; returns 0 when the round trip holds. */
static int round_trip(const uint8_t *in, size_t n, uint32_t block,
                      uint32_t *stream_crc, codec_stats_t *st)
{
    uint8_t *comp = NULL;
    memset(st, 0, sizeof(*st));
    size_t clen = compress_buffer(in, n, block, &comp, st);
    uint8_t *back = malloc(n + 1);
    if (!back) {
        fprintf(stderr, "bwt_compress: out of memory\n");
        exit(2);
    }
    uint32_t combined = 0;
    long got = decompress_buffer(comp, clen, back, n, &combined);
    int bad = 0;
    if (got != (long)n) {
        fprintf(stderr, "bwt_compress: block %u: decoded %ld of %zu bytes\n",
                block, got, n);
        bad = 1;
    } else if (memcmp(in, back, n) != 0) {
        fprintf(stderr, "bwt_compress: block %u: data mismatch\n", block);
        bad = 1;
    } else if (combined != st->combined_crc) {
        fprintf(stderr, "bwt_compress: block %u: combined CRC mismatch\n", block);
        bad = 1;
    }
    *stream_crc = crc_update(0, comp, clen);
    free(comp);
    free(back);
    return bad;
}

int main(int argc, char **argv)
{
    const size_cfg_t *cfg = pick_size(argc, argv);
    if (!cfg) {
        fprintf(stderr, "usage: %s [test|train|ref]\n", argv[0]);
        return 2;
    }
    crc_init();
    uint8_t *in = malloc(cfg->input_bytes);
    if (!in) {
        fprintf(stderr, "bwt_compress: out of memory\n");
        return 2;
    }
    size_t n = generate_input(in, cfg->input_bytes, 0x5EEDB17Eull);
    uint32_t in_crc = crc_update(0, in, n);
    uint32_t blocks[2] = { cfg->block_a, cfg->block_b };
    int bad = 0;
    uint32_t check = in_crc;
    printf("bwt_compress %s: input %zu bytes crc %08x\n", cfg->name, n, in_crc);
    for (int k = 0; k < 2; k++) {
        codec_stats_t st;
        uint32_t scrc;
        bad |= round_trip(in, n, blocks[k], &scrc, &st);
        printf("  block %7u: %u blocks, %llu -> %llu bytes, %u selectors, "
               "%u fallbacks, stream crc %08x\n",
               blocks[k], st.blocks, (unsigned long long)st.in_bytes,
               (unsigned long long)st.out_bytes, st.selectors,
               st.sort.fallbacks, scrc);
        check = (check * 31u) ^ scrc ^ (uint32_t)st.out_bytes;
    }
    free(in);
    if (!bad && check != cfg->expect) {
        fprintf(stderr, "bwt_compress: checksum %08x, expected %08x\n", check,
                cfg->expect);
        bad = 1;
    }
    if (bad) {
        fprintf(stderr, "bwt_compress: FAILED self-check\n");
        return 1;
    }
    printf("checksum %08x: round trip and checksum OK\n", check);
    return 0;
}
