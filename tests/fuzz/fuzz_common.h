/*
 * fuzz_common.h - what the libFuzzer harnesses of tests/fuzz share: the
 * input as a file in a private directory (the readers take paths) or as a
 * string, and the check every harness makes of a reader's answer: a
 * refusal comes with a message that names the file (when there is one).  A crash, a leak, an out-of-bounds access or undefined behaviour
 * is caught by the sanitizers the harnesses are built with; a refusal
 * without a proper message aborts here, so libFuzzer reports it too.
 */
#ifndef HPS_FUZZ_COMMON_H
#define HPS_FUZZ_COMMON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The private directory of this process (created on first use). */
static const char *fuzz_dir(void)
{
    static char dir[64];
    if (!dir[0]) {
        snprintf(dir, sizeof dir, "%s/hps-fuzz.XXXXXX", "/tmp");
        if (!mkdtemp(dir)) { perror("mkdtemp"); abort(); }
    }
    return dir;
}

/* Write bytes to DIR/name (sub-directories created); the path, valid
 * until the next call with the same name. */
static const char *fuzz_write(const char *name, const uint8_t *data, size_t size)
{
    static char path[4][512];
    static unsigned next;
    char *p = path[next++ % 4];
    snprintf(p, sizeof path[0], "%s/%s", fuzz_dir(), name);
    for (char *s = strchr(p + strlen(fuzz_dir()) + 1, '/'); s; s = strchr(s + 1, '/')) {
        *s = 0;
        mkdir(p, 0700);
        *s = '/';
    }
    FILE *f = fopen(p, "wb");
    if (!f || (size && fwrite(data, 1, size, f) != size) || fclose(f) != 0) {
        perror(p);
        abort();
    }
    return p;
}

/* The input as a NUL-terminated string (it ends at an embedded NUL);
 * free() it. */
static char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s) abort();
    memcpy(s, data, size);
    s[size] = 0;
    return s;
}

/* A reader refused its input (ok false): err must be a message, naming
 * `file` when it is not NULL.  (A message quoting the input may hold any
 * byte: hps-sim and the tools print it on one line, print_message_line.) */
static void fuzz_check(bool ok, const char *err, const char *file)
{
    if (ok) return;
    if (!err[0]) { fprintf(stderr, "fuzz: refused without a message\n"); abort(); }
    if (file && !strstr(err, file)) {
        fprintf(stderr, "fuzz: message does not name %s: %s\n", file, err);
        abort();
    }
}

#endif /* HPS_FUZZ_COMMON_H */
