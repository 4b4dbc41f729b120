/*
 * exit_immediate.c - differential test: _exit(2) skips stdio flushing and
 * atexit handlers, so only the unbuffered stderr line and the explicitly
 * flushed stdout line appear; exits with status 77.
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void never(void) { printf("atexit handler must not run\n"); }

int main(void)
{
    atexit(never);
    printf("flushed line\n");
    fflush(stdout);
    printf("this buffered line is lost by _exit\n");
    fprintf(stderr, "about to _exit(77)\n");
    _exit(77);
}
