/*
 * hotspots.c [N] - a program whose hot spots are known (lab 5).
 *
 * N times (default 20000) the main loop draws a random number x and calls:
 *   lookup(x)        is x in a 1 MiB hash table?  One load from a random place
 *                    in the table, compared at once: a D-cache (and, on ev5,
 *                    L2) miss nearly every call; no loop
 *   classify(x)      two branches on random bits of x, which no predictor can
 *                    guess; half of the calls call helper
 *   helper(i)        a few ALU operations, called from main and from classify
 *   checksum(p, 16)  every 8th iteration: a loop of 16 multiplies, each
 *                    needing the one before (FNV-1a hash of 16 bytes)
 * So the profiles disagree on what is "hot": counted in calls and loop
 * back-edges (HPS hot methods) checksum is the busiest, counted in cycles
 * (DCPI) lookup is.
 */
#include "lab.h"

#define TABLE_WORDS (1u << 18)           /* 1 MiB of 32-bit words */

static uint32_t table[TABLE_WORDS];
static unsigned char bytes[4096];
static uint32_t seed = 2463534242u;

static uint32_t rnd(void) { seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5; return seed; }

uint32_t __attribute__((noinline)) helper(uint32_t x)
{
    return (x ^ (x >> 7)) + 0x9e3779b9u;
}

uint32_t __attribute__((noinline)) lookup(uint32_t key)
{
    return table[(key * 2654435761u) >> 14] == key;    /* is key in the table? */
}

uint32_t __attribute__((noinline)) classify(uint32_t x)
{
    if (x & 0x100)
        return helper(x) & 7;
    if (x & 0x200)
        return 3;
    return x & 1;
}

uint32_t __attribute__((noinline)) checksum(const unsigned char *p, int n)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

int main(int argc, char **argv)
{
    long n = lab_arg(argc, argv, 1, 20000);
    for (uint32_t i = 0; i < TABLE_WORDS; i += 1024) table[i] = i;   /* one word a page */
    for (int i = 0; i < 4096; i++) bytes[i] = (unsigned char)rnd();
    uint32_t a = 0, b = 0, c = 0, d = 0;
    for (long i = 0; i < n; i++) {
        uint32_t x = rnd();
        a += lookup(x);
        b += classify(x);
        d += helper((uint32_t)i);
        if ((i & 7) == 0) c += checksum(bytes + (x & 4064), 16);
    }
    printf("hotspots: %ld iterations, result %08x\n", n, a ^ b ^ c ^ d);
    return 0;
}
