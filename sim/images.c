/*
 * images.c - the guest process's executable images (images.h).
 */
#include "images.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symtab.h"
#include "util.h"

void images_init(images_t *im)
{
    memset(im, 0, sizeof *im);
}

void images_free(images_t *im)
{
    for (size_t k = 0; k < im->n; k++) free(im->v[k].path);
    free(im->v);
    memset(im, 0, sizeof *im);
}

void images_add(images_t *im, const char *path, uint64_t lo, uint64_t hi, uint64_t bias)
{
    char full[PATH_MAX];
    if (lo >= hi) return;
    if (realpath(path, full)) path = full;       /* so readers find it from anywhere */
    if (im->n == im->cap) {
        im->cap = im->cap ? 2 * im->cap : 8;
        im->v = xrealloc(im->v, im->cap * sizeof *im->v);
    }
    im->v[im->n++] = (image_entry_t){ xstrdup(path), lo, hi, bias };
}

void images_add_loaded_file(images_t *im, const char *path, uint64_t bias)
{
    symtab_text_t t;
    if (path && *path && symtab_text_of_loaded_file(path, bias, &t))
        images_add(im, path, t.lo, t.hi, t.bias);
}

void images_add_mapping(images_t *im, int fd, uint64_t addr, uint64_t len, uint64_t off)
{
    symtab_text_t t;
    char link[64], path[PATH_MAX];
    if (!symtab_text_of_mapping(fd, addr, len, off, &t)) return;
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, path, sizeof path - 1);
    if (n <= 0) return;
    path[n] = 0;
    images_add(im, path, t.lo, t.hi, t.bias);
}

int images_find(const images_t *im, uint64_t pc)
{
    for (size_t k = im->n; k-- > 0;)
        if (pc >= im->v[k].lo && pc < im->v[k].hi) return (int)k;
    return -1;
}
