/*
 * illegal_priv.c - guest-fault test: a privileged instruction (mret) in
 * user mode is an illegal-instruction exception; the report must name the
 * function and show the disassembled mnemonic.
 * EXPECT-STATUS: 132
 * EXPECT-FUNC: do_mret
 * EXPECT-STDERR: illegal
 * EXPECT-STDERR: mret
 */
#include <stdio.h>

void __attribute__((noinline)) do_mret(long x)
{
    __asm__ volatile("add a0, a0, a0\n\tmret" ::: "a0");
}

int main(void)
{
    do_mret(1);
    printf("not reached\n");
    return 0;
}
