/*
 * checksum.c - Adler-32 stream checksum (as used by the container trailer)
 * and FNV-1a hashing for summary checksums.
 */
#include "lz.h"

uint32_t adler32(uint32_t adler, const uint8_t *p, size_t n)
{
    uint32_t a = adler & 0xFFFF, b = adler >> 16;
    while (n > 0) {
        size_t chunk = n < 5552 ? n : 5552;
        n -= chunk;
        while (chunk--) {
            a += *p++;
            b += a;
        }
        a %= 65521;
        b %= 65521;
    }
    return (b << 16) | a;
}

uint32_t fnv1a(uint32_t h, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}
