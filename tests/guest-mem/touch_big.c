/*
 * touch_big.c [MiB] - allocate MiB (default 1024) and touch every page;
 * with --host-mem 200M hps-sim must stop it (status 137) and still write
 * its statistics.  Prints a line each 64 MiB touched.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    size_t mib = argc > 1 ? strtoul(argv[1], NULL, 10) : 1024;
    char *p = malloc(mib << 20);
    if (!p) { puts("malloc failed"); return 1; }
    for (size_t k = 0; k < mib << 20; k += 4096) {
        p[k] = (char)k;
        if ((k & ((64u << 20) - 1)) == 0) printf("touched %zu MiB\n", k >> 20);
    }
    printf("touched all %zu MiB\n", mib);
    return 0;
}
