/*
 * loader.h - ELF loading (libelf) and the Linux initial process stack.
 *
 * loader_probe() reads just the ELF header so the caller can pick the ISA;
 * loader_load() maps PT_LOAD segments into guest memory and reports the
 * entry point and program headers; a dynamically linked program also gets
 * its ELF interpreter (PT_INTERP, looked up under a sysroot directory as
 * qemu's -L does), and execution starts there.  loader_build_stack() lays
 * out argc, argv, envp and the auxiliary vector exactly as the Linux kernel
 * of the program's architecture does.  loader_layout() says where stack,
 * executables, interpreter and mmaps go for each ISA.
 * Every problem with the file is reported as a message in `err` (the caller
 * prints it and exits with status 2); nothing here prints or exits.
 */
#ifndef HPS_LOADER_H
#define HPS_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa.h"
#include "mem.h"

/* A loaded segment's file-backed pages, as /proc/self/maps names them. */
#define IMAGE_MAX_SEGS 16
typedef struct image_seg {
    uint64_t start, end;        /* page-aligned guest range                 */
    uint64_t off;               /* file offset of start                     */
} image_seg_t;

typedef struct image {
    uint64_t entry;             /* e_entry (+ bias): AT_ENTRY               */
    uint64_t start;             /* first pc: the interpreter's entry for a
                                   dynamic program, else entry              */
    uint64_t interp_base;       /* interpreter load address (AT_BASE), 0    */
    uint64_t phdr_addr;         /* guest address of the program headers     */
    uint64_t phnum, phent;
    uint64_t load_bias;         /* 0 for ET_EXEC                            */
    uint64_t lowest, highest;   /* extent of the loaded segments            */
    uint64_t brk_start;         /* page-aligned end of the highest segment  */
    int      elf_machine;
    bool     is_dynamic;        /* has PT_INTERP                            */
    bool     exec_stack;        /* PT_GNU_STACK asks for an executable stack
                                   (PF_X): the stack is mapped rwx          */
    char     interp[256];       /* PT_INTERP path, when present             */
    char     interp_file[1024]; /* host file the interpreter was loaded from
                                   (SYSROOT/interp), "" when none; its load
                                   bias is interp_base                      */
    image_seg_t segs[IMAGE_MAX_SEGS];        /* the program's PT_LOADs      */
    unsigned nsegs;
    image_seg_t interp_segs[IMAGE_MAX_SEGS]; /* the interpreter's           */
    unsigned interp_nsegs;
} image_t;

/* Read the header: fills *machine (EM_*). false + err on any problem,
 * including a machine other than EM_RISCV / EM_ALPHA.  Messages start with
 * the path: "prog: truncated ELF: ...". */
bool loader_probe(const char *path, int *machine, char *err, size_t errlen);

/* Is path a static Alpha program linked with linker relaxation?  GNU ld's
 * relaxation of GOT loads breaks glibc's static start-up: the program
 * headers are never found (_dl_phdr stays 0), no TLS is set up, and the
 * program faults in __ctype_init, under qemu-alpha too (tests/guest/guest.mk
 * says more).  Such a link leaves no .got entry holding &_dl_phdr; a
 * -Wl,--no-relax link keeps one. */
bool loader_alpha_relaxed(const char *path);

/* Map the executable's segments.  Dynamic executables are refused with a
 * message telling the user to pass --sysroot or link with -static. */
bool loader_load(const char *path, const isa_t *isa, mem_t *mem, image_t *img,
                 char *err, size_t errlen);

/* The same, and for a dynamic executable (PT_INTERP) with a sysroot: map
 * the interpreter SYSROOT/interp at the layout's interpreter base and
 * start there.  sysroot NULL: as loader_load. */
bool loader_load_sysroot(const char *path, const isa_t *isa, const char *sysroot,
                         mem_t *mem, image_t *img, char *err, size_t errlen);

/* Build the initial stack at the top of the guest stack region (mapped
 * here, read-write).  Returns the initial stack pointer (16-byte aligned,
 * pointing at argc), or 0 if argv and envp strings exceed a quarter of the
 * stack (Linux: E2BIG).  `random16` supplies the 16 AT_RANDOM bytes;
 * `execfn` is AT_EXECFN (argv[0] when NULL).  Same inputs, same layout. */
uint64_t loader_build_stack(mem_t *mem, const image_t *img, const isa_t *isa,
                            int argc, char *const argv[], char *const envp[],
                            const uint8_t random16[16], const char *execfn);

/* MEM_PROT_* of an ELF segment's p_flags (PF_R/PF_W/PF_X). */
int loader_segment_prot(uint32_t p_flags);

/* Where a process's pieces go, per ISA: that architecture's Linux layout
 * without randomisation. */
typedef struct guest_layout {
    uint64_t stack_top, stack_size;   /* the stack: [top - size, top)        */
    uint64_t et_dyn_base;             /* ET_DYN executables (ELF_ET_DYN_BASE) */
    uint64_t mmap_bottom, mmap_top;   /* where mmap places new mappings; the
                                         ELF interpreter is the first        */
    bool mmap_bottom_up;              /* first fit from mmap_bottom (Alpha's
                                         legacy layout), else from mmap_top  */
    uint64_t addr_limit;              /* TASK_SIZE: user addresses below     */
    uint64_t page_size;               /* ELF_EXEC_PAGESIZE: segments are
                                         mapped in whole pages of this size  */
    unsigned sp_reg;                  /* unified number of the stack pointer */
} guest_layout_t;

/* The layout for isa (RISC-V's when isa is NULL or unknown). */
const guest_layout_t *loader_layout(const isa_t *isa);

/* RISC-V (Sv39): the stack ends just under the user limit. */
#define GUEST_STACK_TOP   0x3ffffff000ull   /* just under the Sv39 user limit */
#define GUEST_STACK_SIZE  (8ull << 20)      /* 8 MiB, like ulimit -s           */

#endif /* HPS_LOADER_H */
