/*
 * util.h - host allocation that never returns NULL: running out of host
 * memory ends hps-sim with EX_SOFTWARE (70) and one line on stderr.
 */
#ifndef HPS_UTIL_H
#define HPS_UTIL_H

#include <stddef.h>

void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);

#endif /* HPS_UTIL_H */
