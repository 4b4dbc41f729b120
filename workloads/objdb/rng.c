/* rng.c - small chaotic PRNG for objdb (a 4-word add/rotate/xor generator
 * in the style of Jenkins' small fast generator), integer only. */
#include "db.h"

static uint64_t rot(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t rng_u64(Rng *r)
{
    uint64_t e = r->a - rot(r->b, 7);
    r->a = r->b ^ rot(r->c, 13);
    r->b = r->c + rot(r->d, 37);
    r->c = r->d + e;
    r->d = e + r->a;
    return r->d;
}

void rng_init(Rng *r, uint64_t seed)
{
    r->a = 0xf1ea5eedULL;
    r->b = r->c = r->d = seed;
    for (int i = 0; i < 20; i++)
        rng_u64(r);
}

int rng_int(Rng *r, int lo, int hi)
{
    uint64_t span = (uint64_t)(hi - lo) + 1;
    return lo + (int)(rng_u64(r) % span);
}
