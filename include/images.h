/*
 * images.h - the executable images of the guest process and where their
 * code lies: the program, its ELF interpreter and every file the guest
 * maps executable (shared libraries), the way DCPI's daemon learned them
 * from the loader and the kernel's exec path (SOSP'97 section 4.3.2).
 * A pc is turned into (image, offset), the offset being the address the
 * image's own ELF gives the instruction (pc minus the load bias), so
 * profiles of one image from different runs and load addresses agree.
 */
#ifndef HPS_IMAGES_H
#define HPS_IMAGES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct image_entry {
    char *path;                 /* host path of the ELF file (absolute)    */
    uint64_t lo, hi;            /* its text in the guest                   */
    uint64_t bias;              /* guest address - ELF address             */
} image_entry_t;

typedef struct images {
    image_entry_t *v;
    size_t n, cap;
} images_t;

void images_init(images_t *im);
void images_free(images_t *im);

/* The program (loaded at bias, its text in [lo, hi)). */
void images_add(images_t *im, const char *path, uint64_t lo, uint64_t hi, uint64_t bias);
/* An ELF file loaded whole at bias (the interpreter). */
void images_add_loaded_file(images_t *im, const char *path, uint64_t bias);
/* A file mapped executable from host fd at [addr, addr+len), offset off. */
void images_add_mapping(images_t *im, int fd, uint64_t addr, uint64_t len, uint64_t off);

/* The image holding pc (the latest one mapped there), or -1. */
int images_find(const images_t *im, uint64_t pc);

#endif /* HPS_IMAGES_H */
