/*
 * ckpt_reader.c - a guest for the checkpoint tests (tests/checkpoint) that
 * also runs in the differential suites: it writes DIR/data.bin, then reads
 * it back 4 KiB at a time with a long computation between reads while
 * writing a log (DIR/log.txt) through stdio, so a checkpoint taken half-way
 * holds a read fd with an offset, a write fd and unflushed stdio buffers.
 * argv[1] is the scratch directory (ckpt_reader.args passes @DIR@).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CHUNK 4096
#define CHUNKS 24

static uint64_t mix(uint64_t h, const unsigned char *p, size_t n, int rounds)
{
    for (int r = 0; r < rounds; r++)
        for (size_t k = 0; k < n; k++) h = (h ^ p[k]) * 0x100000001b3ull + (uint64_t)r;
    return h;
}

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: ckpt_reader DIR\n"); return 2; }
    char data[4096], log[4096];
    snprintf(data, sizeof data, "%s/data.bin", argv[1]);
    snprintf(log, sizeof log, "%s/log.txt", argv[1]);
    FILE *w = fopen(data, "wb");
    if (!w) { perror("fopen data"); return 1; }
    unsigned char buf[CHUNK];
    uint64_t x = 88172645463325252ull;
    for (int c = 0; c < CHUNKS; c++) {
        for (int k = 0; k < CHUNK; k++) { x ^= x << 13; x ^= x >> 7; x ^= x << 17; buf[k] = (unsigned char)x; }
        fwrite(buf, 1, CHUNK, w);
    }
    fclose(w);
    FILE *in = fopen(data, "rb"), *out = fopen(log, "w");
    if (!in || !out) { perror("fopen"); return 1; }
    uint64_t h = 1469598103934665603ull;
    size_t n;
    int chunk = 0;
    while ((n = fread(buf, 1, CHUNK, in)) > 0) {
        h = mix(h, buf, n, 8);
        fprintf(out, "chunk %d at %ld: %016llx\n", chunk, ftell(in), (unsigned long long)h);
        if (chunk % 4 == 0) printf("chunk %d: %016llx\n", chunk, (unsigned long long)h);
        chunk++;
    }
    fclose(in);
    fclose(out);
    printf("done: %d chunks, hash %016llx\n", chunk, (unsigned long long)h);
    return (int)(h & 7);
}
