/*
 * write_then_segv.c - guest-fault test: output written with write(2)
 * before a fault must reach stdout (the syscall happened), while data left
 * in the stdio buffer is lost, as on Linux; then a store to address 0 in
 * do_null_store.
 * EXPECT-STATUS: 139
 * EXPECT-FUNC: do_null_store
 * EXPECT-STDOUT: ^written before the fault$
 * EXPECT-NOSTDOUT: buffered
 * EXPECT-STDERR: \bs[dw]\b
 */
#include <stdio.h>
#include <unistd.h>

void __attribute__((noinline)) do_null_store(volatile long *p)
{
    *p = 42;
}

int main(void)
{
    write(1, "written before the fault\n", 25);
    printf("buffered and never flushed\n");
    do_null_store((volatile long *)0);
    return 0;
}
