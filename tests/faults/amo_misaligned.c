/*
 * amo_misaligned.c - guest-fault test: an amoadd.w on an address that is
 * not 4-byte aligned.  Linux sends SIGBUS for a misaligned atomic (so
 * does qemu-riscv64), so hps-sim must stop with a bus error, not a memory
 * fault: status 135, in do_amo, naming the instruction.
 * EXPECT-STATUS: 135
 * EXPECT-FUNC: do_amo
 * EXPECT-STDERR: bus error \(SIGBUS\): misaligned atomic access
 * EXPECT-STDERR: \bamoadd\.w\b
 */
#include <stdint.h>
#include <stdio.h>

static uint32_t words[4];

int __attribute__((noinline)) do_amo(volatile char *p)
{
    int old;
    __asm__ volatile("amoadd.w %0, %2, (%1)" : "=r"(old) : "r"(p), "r"(1) : "memory");
    return old;
}

int main(void)
{
    printf("before\n");
    fflush(stdout);
    do_amo((volatile char *)words + 2);
    printf("not reached\n");
    return 0;
}
