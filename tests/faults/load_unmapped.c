/*
 * load_unmapped.c - guest-fault test: a load from address 0x10 (the
 * unmapped first page) inside do_load; the report must give the pc, the
 * function, the load instruction and the faulting address.
 * EXPECT-STATUS: 139
 * EXPECT-FUNC: do_load
 * EXPECT-STDERR: \bld\b
 * EXPECT-STDERR: 0x0*10\b
 */
#include <stdio.h>
#include <stdint.h>

long __attribute__((noinline)) do_load(uintptr_t addr)
{
    long v;
    __asm__ volatile("ld %0, 0(%1)" : "=r"(v) : "r"(addr) : "memory");
    return v;
}

int main(void)
{
    printf("%ld\n", do_load(0x10));
    return 0;
}
