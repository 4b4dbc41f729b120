/*
 * store_rodata.c - guest-fault test: a byte store into a string literal,
 * which lives in the read-only segment; must be a segfault reported in
 * do_store with the sb instruction.
 * EXPECT-STATUS: 139
 * EXPECT-FUNC: do_store
 * EXPECT-STDERR: \bsb\b
 */
#include <stdio.h>

static const char *const literal = "a read-only string literal";

void __attribute__((noinline)) do_store(const char *p)
{
    __asm__ volatile("sb %0, 3(%1)" :: "r"('X'), "r"(p) : "memory");
}

int main(void)
{
    do_store(literal);
    printf("not reached: %s\n", literal);
    return 0;
}
