/*
 * srcline.c - addresses to source lines through libdw (srcline.h).  One
 * source file's lines are kept in memory at a time: a listing walks a
 * procedure, whose lines mostly come from one file.
 */
#include "srcline.h"

#include <elfutils/libdw.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

struct srcline {
    int fd;
    Dwarf *dw;
    char *cached_path;          /* the source file whose lines are loaded */
    char **lines;
    size_t nlines;
};

srcline_t *srcline_open(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd < 0) return NULL;
    Dwarf *dw = dwarf_begin(fd, DWARF_C_READ);
    if (!dw) {
        close(fd);
        return NULL;
    }
    srcline_t *s = xcalloc(1, sizeof *s);
    s->fd = fd;
    s->dw = dw;
    return s;
}

bool srcline_at(srcline_t *s, uint64_t addr, const char **file, int *line)
{
    Dwarf_Die cu;
    if (!s || !dwarf_addrdie(s->dw, (Dwarf_Addr)addr, &cu)) return false;
    Dwarf_Line *l = dwarf_getsrc_die(&cu, (Dwarf_Addr)addr);
    if (!l || dwarf_lineno(l, line) != 0) return false;
    *file = dwarf_linesrc(l, NULL, NULL);
    return *file != NULL;
}

static void drop_cache(srcline_t *s)
{
    for (size_t k = 0; k < s->nlines; k++) free(s->lines[k]);
    free(s->lines);
    free(s->cached_path);
    s->lines = NULL;
    s->cached_path = NULL;
    s->nlines = 0;
}

static void load_file(srcline_t *s, const char *file)
{
    drop_cache(s);
    s->cached_path = xstrdup(file);
    FILE *f = fopen(file, "r");
    if (!f) return;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    ssize_t got;
    while ((got = getline(&buf, &len, f)) > 0) {
        buf[strcspn(buf, "\r\n")] = 0;
        if (s->nlines == cap) s->lines = xrealloc(s->lines, (cap = cap ? 2 * cap : 256) * sizeof *s->lines);
        s->lines[s->nlines++] = xstrdup(buf);
    }
    free(buf);
    fclose(f);
}

const char *srcline_text(srcline_t *s, const char *file, int line)
{
    if (!s || !file || line < 1) return NULL;
    if (!s->cached_path || strcmp(s->cached_path, file)) load_file(s, file);
    return (size_t)line <= s->nlines ? s->lines[line - 1] : NULL;
}

void srcline_close(srcline_t *s)
{
    if (!s) return;
    drop_cache(s);
    dwarf_end(s->dw);
    close(s->fd);
    free(s);
}
