/*
 * pipe_writer.c - guest of tests/signals: writes numbered lines to stdout
 * until a write fails.  With the argument "ign" it ignores SIGPIPE first,
 * so a write to a pipe whose reader has gone fails with EPIPE, which it
 * reports on stderr before exiting 3; without it, the default action of
 * SIGPIPE kills it (status 141 from a shell), as under Linux.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc > 1 && !strcmp(argv[1], "ign")) signal(SIGPIPE, SIG_IGN);
    char line[64];
    for (int k = 0; k < 1000000; k++) {
        int n = snprintf(line, sizeof line, "line %d\n", k);
        if (write(1, line, (size_t)n) < 0) {
            fprintf(stderr, "write: %s\n", strerror(errno));
            return 3;
        }
    }
    return 0;
}
