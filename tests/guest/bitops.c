/*
 * bitops.c - differential test: bit manipulation.  popcount, clz/ctz,
 * byte swaps, rotates, bit reversal, parity, Gray codes, CRC-32 and a few
 * bit-twiddling hacks over a pseudo-random stream, printed in hex.
 */
#include <stdint.h>
#include <stdio.h>
#include <inttypes.h>

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next(void)
{
    rng ^= rng << 13; rng ^= rng >> 7; rng ^= rng << 17;
    return rng;
}

static uint64_t rotl(uint64_t x, unsigned k) { return (x << (k & 63)) | (x >> ((64 - k) & 63)); }
static uint32_t rotr32(uint32_t x, unsigned k) { return (x >> (k & 31)) | (x << ((32 - k) & 31)); }

static uint64_t bitrev(uint64_t x)
{
    x = ((x >> 1) & 0x5555555555555555ull) | ((x & 0x5555555555555555ull) << 1);
    x = ((x >> 2) & 0x3333333333333333ull) | ((x & 0x3333333333333333ull) << 2);
    x = ((x >> 4) & 0x0f0f0f0f0f0f0f0full) | ((x & 0x0f0f0f0f0f0f0f0full) << 4);
    return __builtin_bswap64(x);
}

static uint32_t crc_table[256];
static void crc_init(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++) c = c & 1 ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
}
static uint32_t crc32(const uint8_t *p, size_t n)
{
    uint32_t c = 0xffffffffu;
    while (n--) c = crc_table[(c ^ *p++) & 0xff] ^ (c >> 8);
    return c ^ 0xffffffffu;
}

struct bf { unsigned a : 3; signed b : 5; unsigned c : 11; signed d : 13; uint64_t e : 33; };

int main(void)
{
    crc_init();
    for (int i = 0; i < 24; i++) {
        uint64_t x = next();
        if (i == 0) x = 0; else if (i == 1) x = ~0ull; else if (i == 2) x = 1ull << 63;
        printf("x=%016" PRIx64 " pop=%2d clz=%2d ctz=%2d par=%d bswap=%016" PRIx64
               " rotl13=%016" PRIx64 " rev=%016" PRIx64 "\n", x,
               __builtin_popcountll(x), x ? __builtin_clzll(x) : 64,
               x ? __builtin_ctzll(x) : 64, __builtin_parityll(x),
               __builtin_bswap64(x), rotl(x, 13), bitrev(x));
        uint32_t y = (uint32_t)x;
        printf("  y=%08" PRIx32 " pop=%d bswap32=%08" PRIx32 " rotr7=%08" PRIx32
               " gray=%08" PRIx32 " lowbit=%08" PRIx32 " clrlow=%08" PRIx32 " bswap16=%04x\n",
               y, __builtin_popcount(y), __builtin_bswap32(y), rotr32(y, 7), y ^ (y >> 1),
               y & -y, y & (y - 1), (unsigned)__builtin_bswap16((uint16_t)y));
    }
    /* next power of two, log2 */
    for (uint64_t v = 1; v < (1ull << 40); v = v * 3 + 1) {
        uint64_t p = v - 1;
        p |= p >> 1; p |= p >> 2; p |= p >> 4; p |= p >> 8; p |= p >> 16; p |= p >> 32;
        printf("v=%" PRIu64 " np2=%" PRIu64 " log2=%d\n", v, p + 1, 63 - __builtin_clzll(v));
    }
    /* bitfields */
    struct bf s = {0};
    for (int i = 0; i < 8; i++) {
        uint64_t r = next();
        s.a += r; s.b -= (int)(r >> 8); s.c ^= r >> 16; s.d += (int)(r >> 30); s.e += r >> 5;
        printf("bf a=%u b=%d c=%u d=%d e=%" PRIu64 "\n", s.a, s.b, s.c, s.d, (uint64_t)s.e);
    }
    /* CRC over a generated buffer */
    static uint8_t buf[65536];
    for (size_t i = 0; i < sizeof buf; i++) buf[i] = (uint8_t)(next() >> 32);
    printf("crc32(\"123456789\")=%08" PRIx32 "\n", crc32((const uint8_t *)"123456789", 9));
    for (size_t n = 1; n <= sizeof buf; n *= 4) printf("crc32(buf,%zu)=%08" PRIx32 "\n", n, crc32(buf, n));
    /* 128-bit arithmetic */
    unsigned __int128 acc = 1;
    for (int i = 0; i < 30; i++) acc = acc * 0x10000000full + (uint64_t)i;
    printf("u128 hi=%016" PRIx64 " lo=%016" PRIx64 "\n", (uint64_t)(acc >> 64), (uint64_t)acc);
    __int128 sacc = -12345678901234567ll;
    sacc = sacc * sacc * -7;
    printf("s128 hi=%016" PRIx64 " lo=%016" PRIx64 " q=%" PRId64 "\n", (uint64_t)((unsigned __int128)sacc >> 64),
           (uint64_t)sacc, (int64_t)(sacc / 1000000000000000000ll));
    return 0;
}
