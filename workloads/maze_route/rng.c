/* rng.c - PCG-style 32-bit generator for maze_route (64-bit LCG state with
 * an xorshift/rotate output permutation); integer only, ISA independent. */
#include "route.h"

uint32_t pcg_next(Pcg *p)
{
    uint64_t old = p->state;
    p->state = old * 6364136223846793005ULL + p->inc;
    uint32_t xs = (uint32_t)(((old >> 18) ^ old) >> 27);
    uint32_t rot = (uint32_t)(old >> 59);
    return (xs >> rot) | (xs << ((32 - rot) & 31));
}

void pcg_seed(Pcg *p, uint64_t seed, uint64_t stream)
{
    p->state = 0;
    p->inc = (stream << 1) | 1;
    pcg_next(p);
    p->state += seed;
    pcg_next(p);
}

int pcg_range(Pcg *p, int lo, int hi)
{
    uint32_t span = (uint32_t)(hi - lo + 1);
    return lo + (int)(((uint64_t)pcg_next(p) * span) >> 32);
}
