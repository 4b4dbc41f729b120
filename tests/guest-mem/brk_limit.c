/*
 * brk_limit.c - grow the break 1 MiB at a time until it fails; prints the
 * errno and how far it grew (the pages are touched: brk memory is data).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define MiB (1ul << 20)

int main(void)
{
    size_t grown = 0;
    for (;;) {
        char *p = sbrk(MiB);
        if (p == (void *)-1) break;
        memset(p, 1, MiB);
        grown++;
    }
    printf("brk grew %zu MiB, then %s\n", grown, errno == ENOMEM ? "ENOMEM" : strerror(errno));
    return 0;
}
