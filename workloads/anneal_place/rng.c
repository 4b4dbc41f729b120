/* rng.c - deterministic pseudo-random numbers for anneal_place
 * (xoroshiro128+ seeded through splitmix64), with unbiased bounded draws.
 * Only integer operations, so every ISA sees the same sequence. */
#include "place.h"

static uint64_t splitmix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

void rng_seed(Rng *r, uint64_t seed)
{
    r->s[0] = splitmix(&seed);
    r->s[1] = splitmix(&seed);
    if ((r->s[0] | r->s[1]) == 0)
        r->s[1] = 1;
}

uint64_t rng_next(Rng *r)
{
    uint64_t a = r->s[0], b = r->s[1];
    uint64_t res = a + b;
    b ^= a;
    r->s[0] = rotl(a, 24) ^ b ^ (b << 16);
    r->s[1] = rotl(b, 37);
    return res;
}

uint32_t rng_below(Rng *r, uint32_t n)
{
    if (n <= 1)
        return 0;
    uint32_t limit = UINT32_MAX - UINT32_MAX % n;
    uint32_t v;
    do {
        v = (uint32_t)(rng_next(r) >> 32);
    } while (v >= limit);
    return v % n;
}

uint32_t rng_u16(Rng *r) { return (uint32_t)(rng_next(r) >> 48); }

int rng_range(Rng *r, int lo, int hi)
{
    return lo + (int)rng_below(r, (uint32_t)(hi - lo + 1));
}
