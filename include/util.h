/*
 * util.h - host allocation that never returns NULL (running out of host
 * memory ends the program (hps-sim or a tool) with EX_SOFTWARE (70) and one
 * line on stderr naming it), and
 * the error convention of the modules that never print: a message into
 * the caller's buffer, and false.
 */
#ifndef HPS_UTIL_H
#define HPS_UTIL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

/* printf into err (errlen bytes; either may be 0/NULL); returns false. */
bool set_error(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Write "prog: message\n" to f with each control character of message
 * shown as an escape (\n, \t, \xHH): one line, whatever input the
 * message quotes (the one-line messages of bad input). */
void print_message_line(FILE *f, const char *prog, const char *message);

/* The offline tools' end on bad input: "prog: message" on stderr, one line
 * as print_message_line writes it, and exit status 2. */
_Noreturn void die_bad_input(const char *prog, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif /* HPS_UTIL_H */
