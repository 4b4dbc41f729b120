/*
 * syscall_unknown.c - guest-fault test: ecall with a7 = 4000, a number
 * Linux does not define.  hps-sim stops with its "unsupported system call"
 * status and must report the number, that it is unknown, the ecall and the
 * function.  (Linux itself would return -ENOSYS; hps-sim stops instead so
 * that missing emulation is never silent.)
 * EXPECT-STATUS: 159
 * EXPECT-FUNC: do_syscall
 * EXPECT-STDERR: \b4000\b
 * EXPECT-STDERR: unknown
 * EXPECT-STDERR: ecall
 */
#include <stdio.h>

long __attribute__((noinline)) do_syscall(long nr)
{
    register long a7 __asm__("a7") = nr;
    register long a0 __asm__("a0") = 1;
    __asm__ volatile("ecall" : "+r"(a0) : "r"(a7) : "memory");
    return a0;
}

int main(void)
{
    long r = do_syscall(4000);
    printf("returned %ld\n", r);
    return 0;
}
