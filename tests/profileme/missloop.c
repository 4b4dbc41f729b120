/*
 * missloop.c N - the guest of tests/profileme: a pointer chase whose one
 * load misses the D-cache on every step (nodes 4160 bytes apart, more of
 * them than the caches hold), followed by a run of independent integer
 * work, so the missing load is one known pc and the instruction that waits
 * for it comes right after it.  Prints a checksum (the same under qemu).
 */
#include <stdio.h>
#include <stdlib.h>

#define STRIDE 4160
#define NODES 1024

int main(int argc, char **argv)
{
    long n = argc > 1 ? strtol(argv[1], NULL, 0) : 100000;
    char *base = malloc((size_t)STRIDE * NODES);
    if (!base) return 3;
    for (long k = 0; k < NODES; k++)          /* a cycle with a large step */
        *(char **)(base + k * STRIDE) = base + ((k * 389 + 1) % NODES) * STRIDE;
    char *p = base;
    unsigned long sum = 0, x = 1;
    for (long i = 0; i < n; i++) {
        p = *(char **)p;
        sum += (unsigned long)(p - base);
        x = x * 2862933555777941757ul + 3037000493ul;
        sum ^= x >> 17;
    }
    printf("missloop %ld %lu\n", n, sum);
    free(base);
    return 0;
}
