/*
 * locked_misaligned.c - guest of tests/signals (Alpha): an ldl_l from an
 * address that is not 4-byte aligned.  Linux's unaligned-access fixup
 * does not handle locked accesses and sends SIGBUS (status 135).
 */
#include <stdint.h>
#include <stdio.h>

static uint32_t words[4];

long __attribute__((noinline)) do_locked(volatile char *p)
{
    long v;
    __asm__ volatile("ldl_l %0, 0(%1)" : "=r"(v) : "r"(p) : "memory");
    return v;
}

int main(void)
{
    printf("%ld\n", do_locked((volatile char *)words + 2));
    return 0;
}
