/*
 * known_counts.c - a guest program whose calls are known exactly, for the
 * DISE/HPS tests (tests/dise/run.sh): the exhaustive profiles must give
 *   main -> mid      10000      mid -> leaf_a   10000
 *   main -> leaf_a   30000      mid -> leaf_b   10000
 *   main -> leaf_b    5000
 * and the methods leaf_a 40000, leaf_b 15000, mid 10000 calls (plus the
 * loops' back-edges, counted by the simulator's own ground truth).
 */
#include <stdio.h>

#define OPAQUE __attribute__((noinline, noipa))

OPAQUE long leaf_a(long x) { return x * 3 + 1; }
OPAQUE long leaf_b(long x) { return x ^ 0x55; }
OPAQUE long mid(long x) { return leaf_a(x) + leaf_b(x); }

int main(void)
{
    long acc = 0;
    for (long i = 0; i < 10000; i++) acc += mid(i);
    for (long i = 0; i < 30000; i++) acc += leaf_a(i);
    for (long i = 0; i < 5000; i++) acc += leaf_b(i);
    printf("%ld\n", acc);
    return 0;
}
