/*
 * big_bss.c - a program with 128 MiB of bss: refused under --guest-mem 64M
 * (it cannot be loaded), run normally under the default limit.
 */
#include <stdio.h>

static volatile char big[128u << 20];   /* volatile: kept whole */

int main(void)
{
    big[sizeof big - 1] = 1;
    printf("big_bss: %d\n", big[sizeof big - 1]);
    return 0;
}
