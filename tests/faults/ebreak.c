/*
 * ebreak.c - guest-fault test: an ebreak (assembled as c.ebreak with RVC)
 * in do_ebreak stops the run with the breakpoint-trap status.
 * EXPECT-STATUS: 133
 * EXPECT-FUNC: do_ebreak
 * EXPECT-STDERR: ebreak
 */
#include <stdio.h>

void __attribute__((noinline)) do_ebreak(void)
{
    __asm__ volatile("nop\n\tebreak");
}

int main(void)
{
    do_ebreak();
    printf("not reached\n");
    return 0;
}
