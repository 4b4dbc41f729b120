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
#include <stdint.h>
#include <stdio.h>

/* The next number of a splitmix64 stream (its state advances): the
 * seeded, deterministic pseudo-random numbers of the simulator. */
static inline uint64_t splitmix64_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

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
