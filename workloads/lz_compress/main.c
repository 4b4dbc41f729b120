/*
 * main.c - driver for the lz_compress workload: generates input for the
 * chosen size (test/train/ref), compresses it at three effort levels,
 * decompresses and verifies each stream, and prints a summary.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "lz.h"

typedef struct {
    const char *name;
    size_t input_bytes;
    uint32_t expect;            /* known checksum of the compressed streams */
} size_cfg_t;

static const size_cfg_t sizes[] = {
    { "test",    20000, 0x39364febu },
    { "train",  200000, 0x1bf0a3d4u },
    { "ref",   1500000, 0xfb7bb7eeu },
};

static const level_t levels[3] = {
    /* max_chain, lazy_limit, nice_len, good_len */
    {    8,   0,  32,  4 },
    {  128,  16, 128,  8 },
    { 1024, 258, 258, 32 },
};

static const size_cfg_t *pick_size(int argc, char **argv)
{
    const char *want = argc > 1 ? argv[1] : "test";
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        if (strcmp(sizes[i].name, want) == 0)
            return &sizes[i];
    return NULL;
}

static int run_level(const uint8_t *in, size_t n, int lvl, uint32_t *check)
{
    lz_stats_t st;
    memset(&st, 0, sizeof(st));
    uint8_t *comp = NULL;
    size_t clen = lz_compress(in, n, &levels[lvl], &comp, &st);
    uint8_t *back = malloc(n + 1);
    if (!back) {
        fprintf(stderr, "lz_compress: out of memory\n");
        exit(2);
    }
    long got = lz_decompress(comp, clen, back, n);
    int bad = got != (long)n || memcmp(back, in, n) != 0;
    if (bad)
        fprintf(stderr, "lz_compress: level %d round trip failed (%ld of %zu)\n",
                lvl, got, n);
    uint32_t h = fnv1a(2166136261u, comp, clen);
    printf("  level %d: %zu -> %zu bytes, %llu matches, %llu literals, "
           "blocks s/f/d %u/%u/%u, stream %08x\n", lvl, n, clen,
           (unsigned long long)st.matches, (unsigned long long)st.literals,
           st.blocks_stored, st.blocks_fixed, st.blocks_dynamic, h);
    *check = (*check ^ h) * 16777619u + (uint32_t)clen;
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
    tables_init();
    uint8_t *in = malloc(cfg->input_bytes);
    if (!in) {
        fprintf(stderr, "lz_compress: out of memory\n");
        return 2;
    }
    size_t n = generate_input(in, cfg->input_bytes, 0xD3F1A7E5ull);
    uint32_t check = adler32(1, in, n);
    printf("lz_compress %s: input %zu bytes adler %08x\n", cfg->name, n, check);
    int bad = 0;
    for (int lvl = 0; lvl < 3; lvl++)
        bad |= run_level(in, n, lvl, &check);
    free(in);
    if (!bad && check != cfg->expect) {
        fprintf(stderr, "lz_compress: checksum %08x, expected %08x\n", check,
                cfg->expect);
        bad = 1;
    }
    if (bad) {
        fprintf(stderr, "lz_compress: FAILED self-check\n");
        return 1;
    }
    printf("checksum %08x: round trip and checksum OK\n", check);
    return 0;
}
