/*
 * jump_data.c - guest-fault test: jump into a writable, non-executable data
 * array (filled with valid "addi" instructions, so only the missing execute
 * permission can stop it).  Linux (and qemu) deliver SIGSEGV.
 * EXPECT-STATUS: 139
 * EXPECT-STDERR: 0x[0-9a-f]+
 */
#include <stdio.h>
#include <stdint.h>

uint32_t code_in_data[64] = {
    0x00150513, 0x00150513, 0x00150513, 0x00150513, /* addi a0,a0,1 */
    0x00008067,                                     /* ret */
};

void __attribute__((noinline)) do_jump_data(void)
{
    long (*f)(long) = (long (*)(long))(uintptr_t)code_in_data;
    printf("%ld\n", f(1));
}

int main(void)
{
    do_jump_data();
    return 0;
}
