/*
 * util.c - allocation helpers and the error message convention (util.h).
 */
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Named after the program that ran out (hps-sim, hps-dcpiprof, ...). */
static _Noreturn void out_of_memory(void)
{
    fprintf(stderr, "%s: out of host memory\n", program_invocation_short_name);
    exit(70);
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) out_of_memory();
    return p;
}

void *xrealloc(void *p, size_t size)
{
    p = realloc(p, size ? size : 1);
    if (!p) out_of_memory();
    return p;
}

char *xstrdup(const char *s)
{
    char *p = strdup(s);
    if (!p) out_of_memory();
    return p;
}

bool set_error(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
    }
    return false;
}

void print_message_line(FILE *f, const char *prog, const char *message)
{
    fprintf(f, "%s: ", prog);
    for (const unsigned char *p = (const unsigned char *)message; *p; p++) {
        if (*p == '\n') fputs("\\n", f);
        else if (*p == '\t') fputs("\\t", f);
        else if (*p < 0x20 || *p == 0x7f) fprintf(f, "\\x%02x", *p);
        else fputc(*p, f);
    }
    fputc('\n', f);
}

_Noreturn void die_bad_input(const char *prog, const char *fmt, ...)
{
    char msg[9200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    print_message_line(stderr, prog, msg);
    exit(2);
}
