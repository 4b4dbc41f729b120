/*
 * bitio.c - MSB-first bit writer and reader over byte buffers for the
 * compressed stream.
 */
#include <stdio.h>
#include <stdlib.h>
#include "bwt.h"

void bw_init(bitwriter_t *w, size_t cap)
{
    w->cap = cap < 64 ? 64 : cap;
    w->buf = malloc(w->cap);
    if (!w->buf) {
        fprintf(stderr, "bwt_compress: out of memory\n");
        exit(2);
    }
    w->pos = 0;
    w->acc = 0;
    w->nbits = 0;
}

static void bw_grow(bitwriter_t *w)
{
    w->cap *= 2;
    w->buf = realloc(w->buf, w->cap);
    if (!w->buf) {
        fprintf(stderr, "bwt_compress: out of memory\n");
        exit(2);
    }
}

static void bw_drain(bitwriter_t *w)
{
    while (w->nbits >= 8) {
        if (w->pos == w->cap)
            bw_grow(w);
        w->nbits -= 8;
        w->buf[w->pos++] = (uint8_t)(w->acc >> w->nbits);
    }
}

void bw_put(bitwriter_t *w, uint32_t val, int n)
{
    if (n == 0)
        return;
    w->acc = (w->acc << n) | (val & ((1ull << n) - 1ull));
    w->nbits += n;
    if (w->nbits >= 32)
        bw_drain(w);
}

void bw_flush(bitwriter_t *w)
{
    bw_drain(w);
    if (w->nbits > 0)
        bw_put(w, 0, 8 - w->nbits);
    bw_drain(w);
}

void bw_free(bitwriter_t *w)
{
    free(w->buf);
    w->buf = NULL;
}

void br_init(bitreader_t *r, const uint8_t *buf, size_t len)
{
    r->buf = buf;
    r->len = len;
    r->pos = 0;
    r->acc = 0;
    r->nbits = 0;
    r->overrun = 0;
}

static void br_refill(bitreader_t *r)
{
    while (r->nbits <= 56) {
        uint8_t b = 0;
        if (r->pos < r->len)
            b = r->buf[r->pos];
        else
            r->overrun++;
        r->pos++;
        r->acc |= (uint64_t)b << (56 - r->nbits);
        r->nbits += 8;
    }
}

uint32_t br_get(bitreader_t *r, int n)
{
    if (n == 0)
        return 0;
    if (r->nbits < n)
        br_refill(r);
    uint32_t v = (uint32_t)(r->acc >> (64 - n));
    r->acc <<= n;
    r->nbits -= n;
    return v;
}

uint32_t br_bit(bitreader_t *r)
{
    return br_get(r, 1);
}
