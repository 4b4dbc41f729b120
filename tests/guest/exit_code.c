/*
 * exit_code.c - differential test: exit status pass-through.  Registers
 * atexit handlers (run in reverse order, they print), leaves buffered
 * stdout to be flushed at exit, and exits with status 3 on purpose.
 */
#include <stdio.h>
#include <stdlib.h>

static void h1(void) { printf("atexit handler 1\n"); }
static void h2(void) { printf("atexit handler 2\n"); fprintf(stderr, "stderr from handler 2\n"); }

int main(void)
{
    atexit(h1);
    atexit(h2);
    printf("exiting with status 3 (buffered output must be flushed)\n");
    exit(3);
}
