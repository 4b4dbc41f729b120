/*
 * long_loop.c - differential test and speed sanity check: roughly 50-60
 * million dynamic instructions in a tight mixing loop (xorshift, multiply,
 * data-dependent branch and a small table update), printing checkpoints.
 */
#include <stdint.h>
#include <stdio.h>
#include <inttypes.h>

int main(void)
{
    uint64_t x = 0x2545f4914f6cdd1dull, acc = 0;
    static uint32_t table[256];
    for (int i = 0; i < 2500000; i++) {
        x ^= x << 13; x ^= x >> 7; x ^= x << 17;
        if (x & 1) acc += x * 3; else acc ^= x >> 3;
        table[x & 255] += (uint32_t)acc;
        if ((i & 0x7ffff) == 0) printf("i=%d acc=%016" PRIx64 "\n", i, acc);
    }
    uint64_t h = 0;
    for (int i = 0; i < 256; i++) h = h * 31 + table[i];
    printf("final acc=%016" PRIx64 " table hash=%016" PRIx64 "\n", acc, h);
    return 0;
}
