/*
 * data_walk.c - a guest program with a known data-reference pattern for the
 * DISE/HPS data-stream tests: it sums an array of 512 longs 200 times, so
 * the 4 KiB of the array dominate the data-address profile.
 */
#include <stdio.h>

static long table[512];

int main(void)
{
    for (long i = 0; i < 512; i++) table[i] = i * 7;
    long acc = 0;
    for (int r = 0; r < 200; r++)
        for (long i = 0; i < 512; i++) acc += table[i] ^ r;
    printf("%ld\n", acc);
    return 0;
}
