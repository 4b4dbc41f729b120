/*
 * jump_unmapped.c - guest-fault test: an indirect call to 0xdead000,
 * where nothing is mapped; the instruction fetch faults, and the report
 * must give that address.
 * EXPECT-STATUS: 139
 * EXPECT-STDERR: 0x0*dead000\b
 */
#include <stdio.h>
#include <stdint.h>

typedef void (*fn_t)(void);

void __attribute__((noinline)) do_jump(uintptr_t target)
{
    ((fn_t)target)();
}

int main(void)
{
    do_jump(0xdead000);
    printf("not reached\n");
    return 0;
}
