/*
 * illegal_zero.c - guest-fault test: the all-zero 16-bit parcel, which
 * RISC-V defines as illegal (c.unimp), executed inside do_illegal_zero.
 * tests/faults/run.sh reads the EXPECT lines below.
 * EXPECT-STATUS: 132
 * EXPECT-FUNC: do_illegal_zero
 * EXPECT-STDERR: illegal
 * EXPECT-STDERR: \b0000\b
 */
#include <stdio.h>

void __attribute__((noinline)) do_illegal_zero(void)
{
    __asm__ volatile("nop\n\t.2byte 0x0000\n\tnop");
}

int main(void)
{
    do_illegal_zero();
    printf("not reached\n");
    return 0;
}
