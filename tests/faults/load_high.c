/*
 * load_high.c - guest-fault test: a 4-byte load from a high, non-canonical
 * address (0xffff800000001000) must be a clean guest segfault, not a host
 * crash or an out-of-range access inside the simulator.
 * EXPECT-STATUS: 139
 * EXPECT-FUNC: do_load_high
 * EXPECT-STDERR: \blw\b
 * EXPECT-STDERR: 0xffff800000001000
 */
#include <stdio.h>
#include <stdint.h>

int __attribute__((noinline)) do_load_high(uintptr_t addr)
{
    int v;
    __asm__ volatile("lw %0, 0(%1)" : "=r"(v) : "r"(addr) : "memory");
    return v;
}

int main(void)
{
    printf("%d\n", do_load_high(0xffff800000001000ull));
    return 0;
}
