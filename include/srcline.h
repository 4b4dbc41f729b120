/*
 * srcline.h - source lines of a program's addresses from its DWARF line
 * tables (libdw), for the DCPI listings (hps-dcpicalc, hps-dcpilist): the
 * file and line an instruction was compiled from, and that line's text
 * when the source file can be read.  Programs built without -g have no
 * line tables: srcline_open returns NULL and the listings go without.
 */
#ifndef HPS_SRCLINE_H
#define HPS_SRCLINE_H

#include <stdbool.h>
#include <stdint.h>

typedef struct srcline srcline_t;

/* The line tables of the ELF file at path, or NULL when it has none. */
srcline_t *srcline_open(const char *path);
/* The file and line of addr (a link-time address); false when no line
 * table covers it.  *file stays valid until srcline_close. */
bool srcline_at(srcline_t *s, uint64_t addr, const char **file, int *line);
/* The text of line `line` of file (without its newline), or NULL when the
 * file cannot be read or is shorter.  Valid until the next call. */
const char *srcline_text(srcline_t *s, const char *file, int line);
void srcline_close(srcline_t *s);

#endif /* HPS_SRCLINE_H */
