/*
 * bitio.c - LSB-first bit packing (deflate bit order) for the lz_compress
 * stream writer and reader.
 */
#include <stdio.h>
#include <stdlib.h>
#include "lz.h"

void bo_init(bitout_t *o, size_t cap)
{
    o->cap = cap < 256 ? 256 : cap;
    o->buf = malloc(o->cap);
    if (!o->buf) {
        fprintf(stderr, "lz_compress: out of memory\n");
        exit(2);
    }
    o->pos = 0;
    o->acc = 0;
    o->nbits = 0;
}

static void bo_put_byte(bitout_t *o, uint8_t b)
{
    if (o->pos == o->cap) {
        o->cap *= 2;
        o->buf = realloc(o->buf, o->cap);
        if (!o->buf) {
            fprintf(stderr, "lz_compress: out of memory\n");
            exit(2);
        }
    }
    o->buf[o->pos++] = b;
}

void bo_bits(bitout_t *o, uint32_t v, int n)
{
    o->acc |= (uint64_t)(v & ((1ull << n) - 1)) << o->nbits;
    o->nbits += n;
    while (o->nbits >= 8) {
        bo_put_byte(o, (uint8_t)o->acc);
        o->acc >>= 8;
        o->nbits -= 8;
    }
}

void bo_align(bitout_t *o)
{
    if (o->nbits > 0)
        bo_bits(o, 0, 8 - o->nbits);
}

void bo_byte(bitout_t *o, uint8_t b)
{
    bo_bits(o, b, 8);
}

void bi_init(bitin_t *in, const uint8_t *buf, size_t len)
{
    in->buf = buf;
    in->len = len;
    in->pos = 0;
    in->acc = 0;
    in->nbits = 0;
    in->overrun = 0;
}

static void bi_fill(bitin_t *in)
{
    while (in->nbits <= 56) {
        uint8_t b = 0;
        if (in->pos < in->len)
            b = in->buf[in->pos];
        else
            in->overrun++;
        in->pos++;
        in->acc |= (uint64_t)b << in->nbits;
        in->nbits += 8;
    }
}

uint32_t bi_peek(bitin_t *in, int n)
{
    if (in->nbits < n)
        bi_fill(in);
    return (uint32_t)(in->acc & ((1ull << n) - 1));
}

void bi_skip(bitin_t *in, int n)
{
    in->acc >>= n;
    in->nbits -= n;
}

uint32_t bi_bits(bitin_t *in, int n)
{
    if (n == 0)
        return 0;
    uint32_t v = bi_peek(in, n);
    bi_skip(in, n);
    return v;
}

void bi_align(bitin_t *in)
{
    bi_skip(in, in->nbits & 7);
}
