/*
 * illegal_custom.c - guest-fault test: a 32-bit instruction in the
 * custom-0 opcode space (0x0b), which no standard extension defines, so the
 * raw encoding 0x00b5050b (a0 = custom(a0, a1)) must appear in the report.
 * EXPECT-STATUS: 132
 * EXPECT-FUNC: do_custom
 * EXPECT-STDERR: illegal
 * EXPECT-STDERR: 00b5050b
 */
#include <stdio.h>

long __attribute__((noinline)) do_custom(long a, long b)
{
    register long a0 __asm__("a0") = a;
    register long a1 __asm__("a1") = b;
    __asm__ volatile(".insn r 0x0b, 0, 0, a0, a0, a1" : "+r"(a0) : "r"(a1));
    return a0;
}

int main(void)
{
    printf("%ld\n", do_custom(1, 2));
    return 0;
}
