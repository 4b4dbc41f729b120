/*
 * checkpoint.h - the guest's whole state (registers, memory, the emulated
 * process) written to a byte image and read back bit-exactly, so a run
 * can start at instruction N instead of instruction 0 (sim/checkpoint.c
 * has the format; README.md "Checkpoints" the user's view).
 *
 * What a checkpoint holds: the integer and FP registers, pc, FP status
 * (RISC-V fflags/frm, Alpha FPCR/SWCR) and the Alpha unique value, the
 * program instruction count; every mapped guest page with its protection
 * (pages of zeros without their bytes); the program break and mmap area;
 * the emulated process: its file descriptors (reopened by guest path with
 * their flags and offsets), working directory, mounts (checked to match),
 * signal actions, masks, pending signals, alternate stack and interval
 * timers, rlimits, the random stream, simulated sleep time, the
 * system-call configuration (seed, clock) and the names of file mappings
 * (/proc/self/maps).  Not held: threads (a guest
 * that has cloned is refused), fds without a path (pipes, sockets,
 * emulated /proc files: refused), the contents of host files, and anything of the timing models
 * or profilers, which start fresh at the checkpoint.
 *
 * Layer: machine (it reads and writes cpu_t, mem_t and sys_t only).
 */
#ifndef HPS_CHECKPOINT_H
#define HPS_CHECKPOINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "sys.h"

#define CKPT_VERSION 1

/* Who the checkpoint is of: the ISA's name, the program's path, the
 * FNV-1a hash of its ELF file and its arguments. */
typedef struct ckpt_ident {
    const char *isa;
    const char *path;
    uint64_t elf_hash;
    int argc;
    char *const *argv;
} ckpt_ident_t;

/* A checkpoint image in memory (malloc'd bytes). */
typedef struct ckpt_image {
    uint8_t *bytes;
    size_t len;
} ckpt_image_t;

/* FNV-1a 64 of the file at path; false with a message if unreadable. */
bool ckpt_hash_file(const char *path, uint64_t *hash, char *err, size_t errlen);

/* The image of the guest now (between program instructions).  False with
 * a message when its state cannot be saved (threads, a pipe or socket fd,
 * an emulated /proc file) or memory ran out. */
bool ckpt_save(const cpu_t *c, const sys_t *s, const ckpt_ident_t *id, ckpt_image_t *img,
               char *err, size_t errlen);
void ckpt_image_free(ckpt_image_t *img);

/* Replace the state of a freshly loaded guest (c, s, c->mem: the same
 * program and options, before anything ran) by the image's.  False with
 * one message when the image is corrupt, truncated, of another version,
 * ISA, program or arguments, or its files cannot be reopened; the guest is
 * then unusable and the caller exits. */
bool ckpt_restore(cpu_t *c, sys_t *s, const ckpt_ident_t *id, const ckpt_image_t *img,
                  char *err, size_t errlen);

/* After a restore, once the run has set its exec-map hook
 * (sys_set_exec_map_hook): report every executable file mapping the
 * checkpoint names (the shared libraries a dynamic program had loaded) to
 * it again, reopened by guest path, so their symbols and images are
 * known.  A file that cannot be reopened is skipped (its code then has no
 * symbols). */
void ckpt_replay_exec_maps(sys_t *s, cpu_t *c);

/* Read / write an image from / to a file.  False with a message naming
 * the file. */
bool ckpt_read_file(const char *path, ckpt_image_t *img, char *err, size_t errlen);
bool ckpt_write_file(const char *path, const ckpt_image_t *img, char *err, size_t errlen);

/* The program instruction count an image was taken at (0 if corrupt). */
uint64_t ckpt_image_instret(const ckpt_image_t *img);

#endif /* HPS_CHECKPOINT_H */
