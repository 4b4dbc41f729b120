/*
 * libc_bad_pointer.c - guest-fault test: strlen called with the bad
 * pointer 0x10 faults inside the C library; the report must name strlen.
 * Run statically linked (strlen from the program's own symbol table) and,
 * by run.sh's dynamic section (EXPECT-LIBFUNC), dynamically linked for
 * RISC-V and Alpha under --sysroot, where strlen lives in the sysroot's
 * libc (stripped: its .dynsym) mapped by ld.so.
 * EXPECT-STATUS: 139
 * EXPECT-FUNC: strlen
 * EXPECT-LIBFUNC: strlen
 * EXPECT-STDERR: 0x0*10\b
 * EXPECT-STDOUT: calling strlen
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int main(void)
{
    const char *volatile bad = (const char *)(uintptr_t)0x10;
    printf("calling strlen\n");
    fflush(stdout);
    printf("%zu\n", strlen(bad));
    return 0;
}
