/*
 * alpha_bytes.h - the byte-manipulation arithmetic behind Alpha's ext/ins/
 * msk/zap/cmpbge (BWX-era string and unaligned-access idioms) and the MVI
 * multimedia instructions, as small pure functions of register values.
 *
 * Every ext/ins/msk instruction takes a byte offset b = Rb<2:0> and a field
 * width (byte, word, longword, quadword: the all-ones mask `width` of that
 * many bytes).  The "low" forms place the field at byte b; the "high" forms
 * handle the part of a field starting at byte b that spills over into the
 * next quadword (Alpha Architecture Handbook 4.6).
 */
#ifndef HPS_ALPHA_BYTES_H
#define HPS_ALPHA_BYTES_H

#include <stdbool.h>
#include <stdint.h>

/* Bit offset of the byte named by Rb<2:0>. */
static inline unsigned al_byte_shift(uint64_t rb) { return (unsigned)(rb & 7) * 8; }

/* The 8-bit byte mask m expanded to a 64-bit mask of whole bytes (bit k of
 * m selects byte k): spread the bits to positions 8k, then fill bytes. */
static inline uint64_t al_byte_mask(uint64_t m)
{
    uint64_t x = m & 0xff;
    x = (x | x << 28) & 0x0000000f0000000full;
    x = (x | x << 14) & 0x0003000300030003ull;
    x = (x | x << 7)  & 0x0101010101010101ull;
    return x * 0xff;
}

/* extxl: the field starting at byte b, moved to byte 0. */
static inline uint64_t al_ext_low(uint64_t a, uint64_t rb, uint64_t width)
{
    return (a >> al_byte_shift(rb)) & width;
}

/* extxh: the high part of a field that starts at byte b of the previous
 * quadword, moved into place (shift left by 64 - 8b, modulo 64). */
static inline uint64_t al_ext_high(uint64_t a, uint64_t rb, uint64_t width)
{
    return (a << ((64 - al_byte_shift(rb)) & 63)) & width;
}

/* insxl: the low field of a, moved to byte b (bytes past 7 are dropped). */
static inline uint64_t al_ins_low(uint64_t a, uint64_t rb, uint64_t width)
{
    return (a & width) << al_byte_shift(rb);
}

/* insxh: the bytes of that field that spill past byte 7, at byte 0. */
static inline uint64_t al_ins_high(uint64_t a, uint64_t rb, uint64_t width)
{
    unsigned s = al_byte_shift(rb);
    return s ? (a & width) >> (64 - s) : 0;
}

/* mskxl: a with the field at byte b cleared. */
static inline uint64_t al_msk_low(uint64_t a, uint64_t rb, uint64_t width)
{
    return a & ~(width << al_byte_shift(rb));
}

/* mskxh: a with the spilled-over part of that field cleared. */
static inline uint64_t al_msk_high(uint64_t a, uint64_t rb, uint64_t width)
{
    unsigned s = al_byte_shift(rb);
    return s ? a & ~(width >> (64 - s)) : a;
}

/* The most significant bit of each byte of x, gathered into an 8-bit mask
 * (byte k -> bit k).  The multiplier places byte k's bit at 56 + k; no two
 * partial products overlap, so nothing carries. */
static inline uint64_t al_byte_msbs(uint64_t x)
{
    return ((x & 0x8080808080808080ull) * 0x0002040810204081ull) >> 56;
}

/* cmpbge: bit k set iff byte k of a >= byte k of b, unsigned.  Per byte,
 * (a | 0x80) - (b & 0x7f) never borrows and its top bit says whether the
 * low seven bits compare >=; the top bits themselves decide otherwise. */
static inline uint64_t al_cmpbge(uint64_t a, uint64_t b)
{
    const uint64_t H = 0x8080808080808080ull;
    uint64_t low_ge = (a | H) - (b & ~H);
    uint64_t ge = (a & ~b) | (~(a ^ b) & low_ge);
    return al_byte_msbs(ge);
}

/* ---- MVI --------------------------------------------------------------------- */
/* perr: the sum of the absolute differences of the eight byte pairs. */
static inline uint64_t al_perr(uint64_t a, uint64_t b)
{
    uint64_t sum = 0;
    for (unsigned k = 0; k < 64; k += 8) {
        unsigned x = (a >> k) & 0xff, y = (b >> k) & 0xff;
        sum += x > y ? x - y : y - x;
    }
    return sum;
}

/* unpkbw: bytes 0-3 to the low bytes of words 0-3; unpkbl: bytes 0-1 to
 * the low bytes of longwords 0-1; pkwb/pklb: the reverse. */
static inline uint64_t al_unpkbw(uint64_t b)
{
    return (b & 0xff) | (b & 0xff00) << 8 | (b & 0xff0000) << 16 | (b & 0xff000000) << 24;
}

static inline uint64_t al_unpkbl(uint64_t b) { return (b & 0xff) | (b & 0xff00) << 24; }

static inline uint64_t al_pkwb(uint64_t b)
{
    return (b & 0xff) | (b >> 8 & 0xff00) | (b >> 16 & 0xff0000) | (b >> 24 & 0xff000000);
}

static inline uint64_t al_pklb(uint64_t b) { return (b & 0xff) | (b >> 24 & 0xff00); }

/* min/max over 8-bit or 16-bit lanes, signed or unsigned. */
static inline uint64_t al_lanes_min_max(uint64_t a, uint64_t b, unsigned lane_bits,
                                        bool is_signed, bool want_max)
{
    uint64_t lane_mask = (1ull << lane_bits) - 1, out = 0;
    unsigned sign_shift = 64 - lane_bits;
    for (unsigned k = 0; k < 64; k += lane_bits) {
        uint64_t x = (a >> k) & lane_mask, y = (b >> k) & lane_mask;
        bool x_less = is_signed ? (int64_t)(x << sign_shift) < (int64_t)(y << sign_shift) : x < y;
        uint64_t pick = (x_less != want_max) ? x : y;
        out |= pick << k;
    }
    return out;
}

#endif /* HPS_ALPHA_BYTES_H */
