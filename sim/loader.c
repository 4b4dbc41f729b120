/*
 * loader.c - load a guest ELF executable (and, for a dynamically linked
 * one, its ELF interpreter) into guest memory and build the Linux initial
 * process stack (argc, argv, envp, auxv).
 *
 * Each file is checked before anything is mapped: header identity, class,
 * byte order, type, machine, the program header table and every segment's
 * file range are validated against the real file size, so a truncated or
 * corrupt file gives a message naming the problem instead of a crash.
 * map_image() maps one ELF image at a given load bias: once for the
 * program, once more for its interpreter (found under the --sysroot
 * directory, mapped at the layout's interpreter base as Linux maps ld.so).
 * Where things go (stack, ET_DYN base, interpreter, mmap area) is the
 * architecture's Linux layout without randomisation: loader_layout().
 * An image whose segments (bss included) and the stack would take the
 * guest over its memory limit (mem_t.guest_limit, --guest-mem) is refused
 * before any of it is mapped.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "hostmem.h"
#include "loader.h"
#include "util.h"

/* ---- address-space layouts ------------------------------------------- */

/* RISC-V, Sv39 (TASK_SIZE 2^38): ET_DYN programs at 2/3 of the space
 * (ELF_ET_DYN_BASE), the stack just under the top, mmaps top-down below
 * it, the first of them ld.so. */
static const guest_layout_t layout_rv64 = {
    .stack_top = GUEST_STACK_TOP,
    .stack_size = GUEST_STACK_SIZE,
    .et_dyn_base = 0x2aaaaaa000ull,
    .mmap_bottom = 0x10000ull,
    .mmap_top = GUEST_STACK_TOP - GUEST_STACK_SIZE - (1ull << 20),
    .addr_limit = 1ull << 38,
    .page_size = 4096,
    .sp_reg = 2,                                    /* sp = x2 */
};

/* Alpha (TASK_SIZE 0x40000000000): the stack grows down from STACK_TOP
 * 0x120000000, just below where executables are linked; mmaps go bottom-up
 * from TASK_UNMAPPED_BASE (TASK_SIZE / 2), the first of them ld.so; ET_DYN
 * programs 16 MiB above it. */
static const guest_layout_t layout_alpha = {
    .stack_top = 0x120000000ull,
    .stack_size = GUEST_STACK_SIZE,
    .et_dyn_base = 0x20001000000ull,
    .mmap_bottom = 0x20000000000ull,
    .mmap_top = 0x40000000000ull,
    .mmap_bottom_up = true,
    .addr_limit = 0x40000000000ull,
    .page_size = 8192,
    .sp_reg = 30,                                   /* sp = r30 */
};

const guest_layout_t *loader_layout(const isa_t *isa)
{
    return isa && isa->elf_machine == EM_ALPHA ? &layout_alpha : &layout_rv64;
}

/* Fixed, deterministic credentials reported in the auxiliary vector. */
#define GUEST_UID 1000
#define GUEST_GID 1000

/* Largest segment memory size accepted (a sanity bound; what the whole
 * image may map is the guest memory limit, check_guest_limit). */
#define MAX_SEGMENT_BYTES (4ull << 30)

/* Linux rejects program header tables larger than 64 KiB. */
#define MAX_PHDR_BYTES 65536

/* An open ELF file being checked and loaded. */
typedef struct elf_file {
    const char *path;
    int fd;
    Elf *elf;
    uint64_t size;          /* bytes in the file */
    GElf_Ehdr eh;
    size_t phnum;
    GElf_Phdr *ph;          /* phnum program headers, or NULL */
} elf_file_t;

/* ---- identification --------------------------------------------------- */

static const char *machine_name(int m)
{
    switch (m) {
    case EM_RISCV:   return "RISC-V";
    case EM_ALPHA:   return "Alpha";
    case EM_X86_64:  return "x86-64";
    case EM_386:     return "i386";
    case EM_AARCH64: return "AArch64";
    case EM_ARM:     return "ARM";
    case EM_PPC:     return "PowerPC";
    case EM_PPC64:   return "PowerPC64";
    case EM_S390:    return "s390";
    case EM_MIPS:    return "MIPS";
    case EM_SPARCV9: return "SPARC64";
    case EM_IA_64:   return "IA-64";
    case 258:        return "LoongArch";   /* EM_LOONGARCH */
    default:         return NULL;
    }
}

/* Machines the simulator knows; the caller picks (or refuses) the ISA. */
static bool machine_known(int m)
{
    return m == EM_RISCV || m == EM_ALPHA;
}

static const char *type_name(unsigned t)
{
    switch (t) {
    case ET_NONE: return "ELF file of type ET_NONE, not an executable";
    case ET_REL:  return "relocatable object file (ET_REL), not an executable";
    case ET_CORE: return "core dump (ET_CORE), not an executable";
    default:      return NULL;
    }
}

/* Check e_ident from the first bytes of the file (read without libelf so
 * that a short file can be told apart from a non-ELF one). */
static bool check_ident(const elf_file_t *f, char *err, size_t errlen)
{
    unsigned char id[EI_NIDENT] = {0};
    ssize_t n = pread(f->fd, id, sizeof id, 0);
    if (n < 0)
        return set_error(err, errlen, "%s: cannot read: %s", f->path, strerror(errno));
    if (n == 0)
        return set_error(err, errlen, "%s: empty file, not an ELF executable", f->path);
    size_t have = (size_t)n < SELFMAG ? (size_t)n : SELFMAG;
    if (memcmp(id, ELFMAG, have) != 0)
        return set_error(err, errlen, "%s: not an ELF file (no ELF magic number)", f->path);
    if ((size_t)n < EI_NIDENT)
        return set_error(err, errlen, "%s: truncated ELF: file is %" PRIu64 " bytes, shorter "
                    "than the ELF identification", f->path, f->size);
    if (id[EI_CLASS] == ELFCLASS32)
        return set_error(err, errlen, "%s: 32-bit ELF (e_ident[EI_CLASS] is ELFCLASS32); "
                    "hps-sim runs 64-bit (ELFCLASS64) RISC-V and Alpha programs", f->path);
    if (f->size < sizeof(Elf64_Ehdr))
        return set_error(err, errlen, "%s: truncated ELF: file is %" PRIu64 " bytes, shorter "
                    "than the %zu-byte ELF header", f->path, f->size, sizeof(Elf64_Ehdr));
    if (id[EI_CLASS] != ELFCLASS64)
        return set_error(err, errlen, "%s: corrupt ELF: invalid class %u in e_ident",
                    f->path, id[EI_CLASS]);
    if (id[EI_DATA] == ELFDATA2MSB)
        return set_error(err, errlen, "%s: big-endian ELF (e_ident[EI_DATA] is ELFDATA2MSB); "
                    "hps-sim runs little-endian (ELFDATA2LSB) RISC-V and Alpha programs",
                    f->path);
    if (id[EI_DATA] != ELFDATA2LSB)
        return set_error(err, errlen, "%s: corrupt ELF: invalid data encoding %u in e_ident",
                    f->path, id[EI_DATA]);
    if (id[EI_VERSION] != EV_CURRENT)
        return set_error(err, errlen, "%s: corrupt ELF: invalid version %u in e_ident",
                    f->path, id[EI_VERSION]);
    return true;
}

/* e_flags features the simulated processes cannot honour (<elf.h> values). */
#ifndef EF_ALPHA_32BIT
#define EF_ALPHA_32BIT 1        /* "taso": every address below 2 GiB      */
#endif
#ifndef EF_RISCV_RVE
#define EF_RISCV_RVE   8        /* RV32E/RV64E: 16 integer registers      */
#endif
#ifndef EF_RISCV_FLOAT_ABI
#define EF_RISCV_FLOAT_ABI 6    /* 6: quad-precision float ABI            */
#endif

static bool check_flags(const elf_file_t *f, char *err, size_t errlen)
{
    uint64_t fl = f->eh.e_flags;
    if (f->eh.e_machine == EM_ALPHA && (fl & EF_ALPHA_32BIT))
        return set_error(err, errlen, "%s: unsupported Alpha ELF feature: e_flags 0x%" PRIx64
                    " has EF_ALPHA_32BIT (32-bit address space, -taso); expected a "
                    "64-bit address-space program", f->path, fl);
    if (f->eh.e_machine == EM_RISCV && (fl & EF_RISCV_RVE))
        return set_error(err, errlen, "%s: unsupported RISC-V ELF feature: e_flags 0x%" PRIx64
                    " has EF_RISCV_RVE (RV64E); expected an RV64GC program", f->path, fl);
    if (f->eh.e_machine == EM_RISCV && (fl & EF_RISCV_FLOAT_ABI) == 6)
        return set_error(err, errlen, "%s: unsupported RISC-V ELF feature: e_flags 0x%" PRIx64
                    " selects the quad-float ABI; expected lp64d (or lp64/lp64f)",
                    f->path, fl);
    return true;
}

static bool check_header(const elf_file_t *f, char *err, size_t errlen)
{
    const GElf_Ehdr *eh = &f->eh;
    if (eh->e_type != ET_EXEC && eh->e_type != ET_DYN) {
        const char *what = type_name(eh->e_type);
        if (what) return set_error(err, errlen, "%s: %s", f->path, what);
        return set_error(err, errlen, "%s: ELF file of unknown type 0x%x, not an executable",
                    f->path, eh->e_type);
    }
    if (!machine_known(eh->e_machine)) {
        const char *name = machine_name(eh->e_machine);
        if (name)
            return set_error(err, errlen, "%s: %s executable (ELF machine %u); hps-sim runs "
                        "RISC-V RV64 and Alpha programs", f->path, name, eh->e_machine);
        return set_error(err, errlen, "%s: unsupported machine (ELF machine %u); hps-sim "
                    "runs RISC-V RV64 (%d) and Alpha (%d) programs", f->path,
                    eh->e_machine, EM_RISCV, EM_ALPHA);
    }
    return check_flags(f, err, errlen);
}

/* ---- opening and closing --------------------------------------------- */

static void elf_close(elf_file_t *f)
{
    free(f->ph);
    f->ph = NULL;
    if (f->elf) elf_end(f->elf);
    f->elf = NULL;
    if (f->fd >= 0) close(f->fd);
    f->fd = -1;
}

/* Open path and validate everything up to and including the ELF header. */
static bool elf_open(elf_file_t *f, const char *path, char *err, size_t errlen)
{
    memset(f, 0, sizeof *f);
    f->path = path;
    f->fd = open(path, O_RDONLY | O_CLOEXEC);
    if (f->fd < 0)
        return set_error(err, errlen, "%s: cannot open: %s", path, strerror(errno));
    struct stat st;
    if (fstat(f->fd, &st) != 0)
        return set_error(err, errlen, "%s: cannot stat: %s", path, strerror(errno));
    if (S_ISDIR(st.st_mode))
        return set_error(err, errlen, "%s: is a directory, not an executable", path);
    if (!S_ISREG(st.st_mode))
        return set_error(err, errlen, "%s: not a regular file", path);
    f->size = (uint64_t)st.st_size;
    if (!check_ident(f, err, errlen)) return false;

    if (elf_version(EV_CURRENT) == EV_NONE)
        return set_error(err, errlen, "%s: libelf initialisation failed: %s", path,
                    elf_errmsg(-1));
    f->elf = elf_begin(f->fd, ELF_C_READ, NULL);
    if (!f->elf || elf_kind(f->elf) != ELF_K_ELF)
        return set_error(err, errlen, "%s: not an ELF file", path);
    if (!gelf_getehdr(f->elf, &f->eh))
        return set_error(err, errlen, "%s: corrupt ELF header: %s", path, elf_errmsg(-1));
    return check_header(f, err, errlen);
}

/* Validate the program header table against the file and read it. */
static bool read_phdrs(elf_file_t *f, char *err, size_t errlen)
{
    const GElf_Ehdr *eh = &f->eh;
    if (eh->e_phnum == 0)
        return set_error(err, errlen, "%s: corrupt ELF: no program headers (e_phnum is 0)",
                    f->path);
    if (eh->e_phnum == PN_XNUM)
        return set_error(err, errlen, "%s: corrupt ELF: extended program header count "
                    "(e_phnum 0xffff) is not supported", f->path);
    if (eh->e_phentsize != sizeof(Elf64_Phdr))
        return set_error(err, errlen, "%s: corrupt ELF: program header entry size %u, "
                    "expected %zu", f->path, eh->e_phentsize, sizeof(Elf64_Phdr));
    uint64_t bytes = (uint64_t)eh->e_phnum * sizeof(Elf64_Phdr);
    if (bytes > MAX_PHDR_BYTES)
        return set_error(err, errlen, "%s: corrupt ELF: %u program headers is too many",
                    f->path, eh->e_phnum);
    if (eh->e_phoff > f->size || bytes > f->size - eh->e_phoff)
        return set_error(err, errlen, "%s: truncated ELF: program header table (offset 0x%"
                    PRIx64 ", %u entries) extends past end of file (file is 0x%" PRIx64
                    " bytes)", f->path, (uint64_t)eh->e_phoff, eh->e_phnum, f->size);
    size_t n = 0;
    if (elf_getphdrnum(f->elf, &n) != 0 || n != eh->e_phnum)
        return set_error(err, errlen, "%s: corrupt ELF: cannot read program headers: %s",
                    f->path, elf_errmsg(-1));
    f->ph = calloc(n, sizeof *f->ph);
    if (!f->ph) return set_error(err, errlen, "%s: out of memory", f->path);
    for (size_t k = 0; k < n; k++)
        if (!gelf_getphdr(f->elf, (int)k, &f->ph[k]))
            return set_error(err, errlen, "%s: corrupt ELF: program header %zu: %s",
                        f->path, k, elf_errmsg(-1));
    f->phnum = n;
    return true;
}

/* ---- segment checks ---------------------------------------------------- */

static bool check_file_range(const elf_file_t *f, size_t k, char *err, size_t errlen)
{
    const GElf_Phdr *p = &f->ph[k];
    if (p->p_offset > f->size || p->p_filesz > f->size - p->p_offset)
        return set_error(err, errlen, "%s: truncated ELF: segment %zu extends past end of "
                    "file (offset 0x%" PRIx64 " size 0x%" PRIx64 ", file is 0x%" PRIx64
                    " bytes)", f->path, k, (uint64_t)p->p_offset, (uint64_t)p->p_filesz,
                    f->size);
    return true;
}

static bool check_load_segment(const elf_file_t *f, size_t k, uint64_t bias,
                               const guest_layout_t *lay, char *err, size_t errlen)
{
    const GElf_Phdr *p = &f->ph[k];
    if (!check_file_range(f, k, err, errlen)) return false;
    if (p->p_filesz > p->p_memsz)
        return set_error(err, errlen, "%s: corrupt ELF: segment %zu has file size 0x%" PRIx64
                    " larger than its memory size 0x%" PRIx64, f->path, k,
                    (uint64_t)p->p_filesz, (uint64_t)p->p_memsz);
    if (p->p_memsz > MAX_SEGMENT_BYTES)
        return set_error(err, errlen, "%s: corrupt ELF: segment %zu memory size 0x%" PRIx64
                    " is over the 4 GiB limit", f->path, k, (uint64_t)p->p_memsz);
    uint64_t start = p->p_vaddr + bias, end = start + p->p_memsz;
    uint64_t stack_lo = lay->stack_top - lay->stack_size;
    if (start < p->p_vaddr || end < start || end > lay->addr_limit)
        return set_error(err, errlen, "%s: corrupt ELF: segment %zu (0x%" PRIx64 "+0x%" PRIx64
                    ") lies outside the guest address space", f->path, k,
                    (uint64_t)p->p_vaddr, (uint64_t)p->p_memsz);
    if (p->p_memsz && start < lay->stack_top && stack_lo < end)
        return set_error(err, errlen, "%s: segment %zu (0x%" PRIx64 "+0x%" PRIx64 ") overlaps "
                    "the stack [0x%" PRIx64 ", 0x%" PRIx64 "); expected it outside",
                    f->path, k, start, (uint64_t)p->p_memsz, stack_lo, lay->stack_top);
    return true;
}

int loader_segment_prot(uint32_t flags)
{
    return (flags & PF_R ? MEM_PROT_READ : 0) | (flags & PF_W ? MEM_PROT_WRITE : 0) |
           (flags & PF_X ? MEM_PROT_EXEC : 0);
}

/* ---- mapping ----------------------------------------------------------- */

/* Copy a segment's file bytes into guest memory in bounded chunks. */
static bool copy_file_bytes(const elf_file_t *f, mem_t *mem, uint64_t addr,
                            uint64_t off, uint64_t len, char *err, size_t errlen)
{
    enum { CHUNK = 1 << 20 };
    uint8_t *buf = malloc(len < CHUNK ? (len ? len : 1) : CHUNK);
    if (!buf) return set_error(err, errlen, "%s: out of memory", f->path);
    bool ok = true;
    while (ok && len) {
        size_t n = len < CHUNK ? (size_t)len : CHUNK;
        ssize_t got = pread(f->fd, buf, n, (off_t)off);
        if (got != (ssize_t)n)
            ok = set_error(err, errlen, "%s: read error at offset 0x%" PRIx64 ": %s", f->path,
                      off, got < 0 ? strerror(errno) : "file changed while loading");
        else if (!mem_write(mem, addr, buf, n))
            ok = set_error(err, errlen, "%s: cannot write segment at 0x%" PRIx64, f->path, addr);
        addr += n; off += n; len -= n;
    }
    free(buf);
    return ok;
}

/* Map a segment's pages, whole pages of the ABI's size (8 KiB on Alpha, as
 * the kernel maps them: mprotect of RELRO works on those pages), and copy
 * its file bytes. */
static bool map_segment(const elf_file_t *f, size_t k, uint64_t bias, uint64_t page,
                        mem_t *mem, char *err, size_t errlen)
{
    const GElf_Phdr *p = &f->ph[k];
    uint64_t start = p->p_vaddr + bias, end = start + p->p_memsz;
    if (p->p_memsz == 0) return true;
    if (!mem_map_union(mem, start & ~(page - 1), (end + page - 1) & ~(page - 1),
                       loader_segment_prot(p->p_flags)))
        return set_error(err, errlen, "%s: cannot map segment %zu at 0x%" PRIx64, f->path,
                    k, start);
    if (!copy_file_bytes(f, mem, start, p->p_offset, p->p_filesz, err, errlen))
        return false;
    /* The bss tail inside the last file page; whole bss pages are fresh. */
    uint64_t bss = start + p->p_filesz;
    uint64_t page_end = (bss + GUEST_PAGE_MASK) & ~GUEST_PAGE_MASK;
    uint64_t tail = (page_end < end ? page_end : end) - bss;
    if (tail && !mem_zero(mem, bss, tail))
        return set_error(err, errlen, "%s: cannot clear bss of segment %zu", f->path, k);
    return true;
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
    return a ? (v + a - 1) / a * a : v;
}

/* Guest address of the program headers: PT_PHDR, or the PT_LOAD segment
 * whose file bytes cover e_phoff (as the kernel computes AT_PHDR). */
static uint64_t phdr_address(const elf_file_t *f, uint64_t bias)
{
    uint64_t phoff = f->eh.e_phoff;
    for (size_t k = 0; k < f->phnum; k++)
        if (f->ph[k].p_type == PT_PHDR) return f->ph[k].p_vaddr + bias;
    for (size_t k = 0; k < f->phnum; k++) {
        const GElf_Phdr *p = &f->ph[k];
        if (p->p_type == PT_LOAD && p->p_offset <= phoff &&
            phoff < p->p_offset + p->p_filesz)
            return phoff - p->p_offset + p->p_vaddr + bias;
    }
    return 0;
}

static bool entry_is_mapped(const elf_file_t *f, uint64_t entry)
{
    for (size_t k = 0; k < f->phnum; k++) {
        const GElf_Phdr *p = &f->ph[k];
        if (p->p_type == PT_LOAD && entry >= p->p_vaddr &&
            entry - p->p_vaddr < p->p_memsz)
            return true;
    }
    return false;
}

/* The bias an image must be loaded at: 0 for ET_EXEC, base rounded up to
 * the largest segment alignment for ET_DYN. */
/* The largest power-of-two PT_LOAD alignment, at least a page. */
static uint64_t load_align(const elf_file_t *f, const guest_layout_t *lay)
{
    uint64_t align = lay->page_size;
    for (size_t k = 0; k < f->phnum; k++)
        if (f->ph[k].p_type == PT_LOAD && f->ph[k].p_align > align &&
            (f->ph[k].p_align & (f->ph[k].p_align - 1)) == 0)
            align = f->ph[k].p_align;
    return align;
}

static uint64_t choose_bias(const elf_file_t *f, const guest_layout_t *lay, uint64_t base)
{
    if (f->eh.e_type != ET_DYN) return 0;
    return align_up(base, load_align(f, lay));
}

/* The lowest PT_LOAD address and the highest end, unbiased ([0, 0) if
 * there is none). */
static void load_extent(const elf_file_t *f, uint64_t *lo, uint64_t *hi)
{
    *lo = UINT64_MAX;
    *hi = 0;
    for (size_t k = 0; k < f->phnum; k++) {
        const GElf_Phdr *p = &f->ph[k];
        if (p->p_type != PT_LOAD || !p->p_memsz) continue;
        if (p->p_vaddr < *lo) *lo = p->p_vaddr;
        if (p->p_vaddr + p->p_memsz > *hi) *hi = p->p_vaddr + p->p_memsz;
    }
    if (*hi <= *lo) *lo = *hi = 0;
}

/* Bytes the kernel reserves for an ET_DYN image (total_mapping_size()). */
static uint64_t load_span(const elf_file_t *f)
{
    uint64_t lo, hi;
    load_extent(f, &lo, &hi);
    return hi - lo;
}

/* Where an ET_DYN interpreter goes: where the first mmap would, the bottom
 * of a bottom-up mmap area, or the top of a top-down one (just below the
 * stack gap, as ld.so sits on RISC-V Linux).  Deterministic: no ASLR. */
static uint64_t interp_bias(const elf_file_t *f, const guest_layout_t *lay)
{
    if (f->eh.e_type != ET_DYN) return 0;
    uint64_t align = load_align(f, lay), span = load_span(f);
    if (lay->mmap_bottom_up || span >= lay->mmap_top) return align_up(lay->mmap_bottom, align);
    return (lay->mmap_top - span) & ~(align - 1);
}

/* Record PT_INTERP in img (validated: inside the file, NUL-terminated). */
static bool read_interp(const elf_file_t *f, size_t k, image_t *img,
                        char *err, size_t errlen)
{
    const GElf_Phdr *p = &f->ph[k];
    if (!check_file_range(f, k, err, errlen)) return false;
    char buf[sizeof img->interp] = {0};
    size_t n = p->p_filesz < sizeof buf - 1 ? (size_t)p->p_filesz : sizeof buf - 1;
    if (pread(f->fd, buf, n, (off_t)p->p_offset) != (ssize_t)n)
        return set_error(err, errlen, "%s: cannot read PT_INTERP: %s", f->path,
                    strerror(errno));
    buf[n] = '\0';
    memcpy(img->interp, buf, sizeof buf);
    img->is_dynamic = true;
    return true;
}

/* The file-backed pages of each PT_LOAD (for /proc/self/maps). */
static void note_segments(const elf_file_t *f, uint64_t bias, uint64_t page, image_t *img)
{
    img->nsegs = 0;
    for (size_t k = 0; k < f->phnum && img->nsegs < IMAGE_MAX_SEGS; k++) {
        const GElf_Phdr *p = &f->ph[k];
        if (p->p_type != PT_LOAD || !p->p_filesz) continue;   /* bss only: anonymous */
        uint64_t start = (p->p_vaddr + bias) & ~(page - 1);
        uint64_t file_end = (p->p_vaddr + bias + p->p_filesz + page - 1) & ~(page - 1);
        img->segs[img->nsegs++] = (image_seg_t){ start, file_end, p->p_offset & ~(page - 1) };
    }
}

/* Page ranges of the image's PT_LOADs, for the limit check. */
typedef struct page_range { uint64_t lo, hi; } page_range_t;

static int range_cmp(const void *a, const void *b)
{
    const page_range_t *x = a, *y = b;
    return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Guest bytes the image's segments would newly map: the union of their
 * pages (segments may share one) less what is mapped already. */
static uint64_t image_new_bytes(const elf_file_t *f, uint64_t bias, uint64_t page,
                                const mem_t *mem)
{
    page_range_t *r = xcalloc(f->phnum, sizeof *r);
    size_t n = 0;
    for (size_t k = 0; k < f->phnum; k++) {
        const GElf_Phdr *p = &f->ph[k];
        if (p->p_type != PT_LOAD || !p->p_memsz) continue;
        uint64_t start = p->p_vaddr + bias, end = start + p->p_memsz;
        r[n++] = (page_range_t){ start & ~(page - 1), (end + page - 1) & ~(page - 1) };
    }
    qsort(r, n, sizeof *r, range_cmp);
    uint64_t bytes = 0;
    for (size_t k = 0; k < n;) {
        uint64_t lo = r[k].lo, hi = r[k].hi;
        for (k++; k < n && r[k].lo <= hi; k++)
            if (r[k].hi > hi) hi = r[k].hi;
        bytes += mem_unmapped_bytes(mem, lo, hi - lo);
    }
    free(r);
    return bytes;
}

/* The image and the stack must fit in the guest's memory limit (Linux
 * refuses an exec over RLIMIT_AS the same way, before it runs). */
static bool check_guest_limit(const elf_file_t *f, uint64_t bias, const guest_layout_t *lay,
                              const mem_t *mem, char *err, size_t errlen)
{
    uint64_t need = image_new_bytes(f, bias, lay->page_size, mem);
    uint64_t stack = mem_unmapped_bytes(mem, lay->stack_top - lay->stack_size, lay->stack_size);
    if (need <= UINT64_MAX - stack && mem_fits(mem, need + stack)) return true;
    char a[32], b[32], c[32];
    return set_error(err, errlen, "%s: the program needs %s of guest memory for its loadable "
                     "segments (bss included) and %s for the stack, over the guest memory "
                     "limit of %s (--guest-mem)", f->path, hostmem_format_size(need, a, sizeof a),
                     hostmem_format_size(stack, b, sizeof b),
                     hostmem_format_size(mem->guest_limit, c, sizeof c));
}

/* Check and map every PT_LOAD of an opened image at `bias`, and fill img.
 * Used for the executable and again for its interpreter (into a scratch
 * image_t: only its entry and extent are kept). */
static bool map_image(const elf_file_t *f, uint64_t bias, const guest_layout_t *lay,
                      mem_t *mem, image_t *img, char *err, size_t errlen)
{
    size_t loads = 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t k = 0; k < f->phnum; k++) {
        const GElf_Phdr *p = &f->ph[k];
        if (p->p_type != PT_LOAD) continue;
        if (!check_load_segment(f, k, bias, lay, err, errlen)) return false;
        if (p->p_memsz == 0) continue;
        loads++;
        if (p->p_vaddr + bias < lo) lo = p->p_vaddr + bias;
        if (p->p_vaddr + bias + p->p_memsz > hi) hi = p->p_vaddr + bias + p->p_memsz;
    }
    if (!loads)
        return set_error(err, errlen, "%s: corrupt ELF: no loadable (PT_LOAD) segments",
                    f->path);
    if (!entry_is_mapped(f, f->eh.e_entry))
        return set_error(err, errlen, "%s: corrupt ELF: entry point 0x%" PRIx64 " is not "
                    "inside any loadable segment", f->path, (uint64_t)f->eh.e_entry);
    if (!check_guest_limit(f, bias, lay, mem, err, errlen)) return false;
    for (size_t k = 0; k < f->phnum; k++)
        if (f->ph[k].p_type == PT_LOAD &&
            !map_segment(f, k, bias, lay->page_size, mem, err, errlen))
            return false;
    note_segments(f, bias, lay->page_size, img);

    img->entry = img->start = f->eh.e_entry + bias;
    img->phdr_addr = phdr_address(f, bias);
    img->phnum = f->phnum;
    img->phent = f->eh.e_phentsize;
    img->load_bias = bias;
    img->lowest = lo;
    img->highest = hi;
    img->elf_machine = f->eh.e_machine;
    img->exec_stack = false;
    for (size_t k = 0; k < f->phnum; k++)
        if (f->ph[k].p_type == PT_GNU_STACK) img->exec_stack = f->ph[k].p_flags & PF_X;
    return true;
}

/* ---- public entry points ---------------------------------------------- */

bool loader_probe(const char *path, int *machine, char *err, size_t errlen)
{
    elf_file_t f;
    bool ok = elf_open(&f, path, err, errlen);
    if (ok && machine) *machine = f.eh.e_machine;
    elf_close(&f);
    return ok;
}

/* The Debian cross sysroot of a machine, for messages. */
static const char *example_sysroot(int machine)
{
    return machine == EM_ALPHA ? "/usr/alpha-linux-gnu" : "/usr/riscv64-linux-gnu";
}

/* An interpreter problem, reported as "prog: ELF interpreter ...: what". */
static bool interp_fail(const char *prog, const char *inner, char *err, size_t errlen)
{
    char copy[2048];
    snprintf(copy, sizeof copy, "%s", inner);
    return set_error(err, errlen, "%s: ELF interpreter %s", prog, copy);
}

/* Check the opened interpreter against the program it serves. */
static bool check_interp(const elf_file_t *in, const elf_file_t *prog, char *err,
                         size_t errlen)
{
    char inner[2048];
    if (in->eh.e_machine != prog->eh.e_machine) {
        const char *m = machine_name(in->eh.e_machine), *p = machine_name(prog->eh.e_machine);
        snprintf(inner, sizeof inner, "%s: %s ELF (machine %u), expected %s like the "
                 "program", in->path, m ? m : "foreign", in->eh.e_machine, p ? p : "?");
        return interp_fail(prog->path, inner, err, errlen);
    }
    for (size_t k = 0; k < in->phnum; k++)
        if (in->ph[k].p_type == PT_INTERP) {
            snprintf(inner, sizeof inner, "%s: has an interpreter of its own (PT_INTERP); "
                     "expected the dynamic linker itself", in->path);
            return interp_fail(prog->path, inner, err, errlen);
        }
    return true;
}

/* True if [lo, hi) meets any page of an earlier image in img. */
static bool overlaps(const image_t *img, uint64_t lo, uint64_t hi)
{
    return lo < img->highest && img->lowest < hi;
}

/* Open, check and map the interpreter SYSROOT/img->interp where the first
 * mmap would go (interp_bias); the program starts at its entry. */
static bool load_interp(const elf_file_t *prog, const char *sysroot,
                        const guest_layout_t *lay, mem_t *mem, image_t *img,
                        char *err, size_t errlen)
{
    char full[1024], inner[2048];
    if (img->interp[0] != '/')
        return set_error(err, errlen, "%s: corrupt ELF: PT_INTERP \"%s\" is not an absolute "
                    "path", prog->path, img->interp);
    if ((size_t)snprintf(full, sizeof full, "%s%s", sysroot, img->interp) >= sizeof full)
        return set_error(err, errlen, "%s: --sysroot %s: path of the ELF interpreter is too long",
                    prog->path, sysroot);
    struct stat st;
    if (stat(full, &st) != 0)
        return set_error(err, errlen, "%s: ELF interpreter %s not found under --sysroot %s "
                    "(no %s); expected a sysroot holding the program's dynamic linker and "
                    "libraries, e.g. %s", prog->path, img->interp, sysroot, full,
                    example_sysroot(prog->eh.e_machine));
    elf_file_t in;
    bool ok = elf_open(&in, full, inner, sizeof inner) && read_phdrs(&in, inner, sizeof inner);
    if (!ok) {
        elf_close(&in);
        return interp_fail(prog->path, inner, err, errlen);
    }
    ok = check_interp(&in, prog, err, errlen);
    image_t ii;
    memset(&ii, 0, sizeof ii);
    uint64_t bias = interp_bias(&in, lay), lo, hi;
    load_extent(&in, &lo, &hi);
    if (ok && overlaps(img, lo + bias, hi + bias)) {
        snprintf(inner, sizeof inner, "%s: mapped at [0x%" PRIx64 ", 0x%" PRIx64 ") it "
                 "would overlap the program [0x%" PRIx64 ", 0x%" PRIx64 ")", full, lo + bias,
                 hi + bias, img->lowest, img->highest);
        ok = interp_fail(prog->path, inner, err, errlen);
    }
    if (ok && !map_image(&in, bias, lay, mem, &ii, inner, sizeof inner))
        ok = interp_fail(prog->path, inner, err, errlen);
    if (ok) {
        img->interp_base = ii.load_bias;
        img->start = ii.entry;
        memcpy(img->interp_segs, ii.segs, sizeof ii.segs);
        img->interp_nsegs = ii.nsegs;
        _Static_assert(sizeof full == sizeof img->interp_file, "interp_file holds full");
        memcpy(img->interp_file, full, sizeof img->interp_file);
    }
    elf_close(&in);
    return ok;
}

/* Map the program (it owns fixed addresses), then its interpreter. */
static bool load_checked(elf_file_t *f, const isa_t *isa, const char *sysroot, mem_t *mem,
                         image_t *img, char *err, size_t errlen)
{
    const guest_layout_t *lay = loader_layout(isa);
    if (isa && f->eh.e_machine != isa->elf_machine)
        return set_error(err, errlen, "%s: ELF machine %u does not match the %s ISA",
                    f->path, f->eh.e_machine, isa->name);
    if (!read_phdrs(f, err, errlen)) return false;
    for (size_t k = 0; k < f->phnum; k++)
        if (f->ph[k].p_type == PT_INTERP && !read_interp(f, k, img, err, errlen))
            return false;
    if (img->is_dynamic && !sysroot)
        return set_error(err, errlen, "%s: dynamically linked executable (interpreter %s); "
                    "run it with --sysroot DIR, a directory holding its dynamic linker and "
                    "libraries (e.g. --sysroot %s), or link it with -static", f->path,
                    img->interp, example_sysroot(f->eh.e_machine));
    uint64_t bias = choose_bias(f, lay, lay->et_dyn_base);
    if (!map_image(f, bias, lay, mem, img, err, errlen)) return false;
    img->brk_start = align_up(img->highest, lay->page_size);
    return !img->is_dynamic || load_interp(f, sysroot, lay, mem, img, err, errlen);
}

bool loader_load_sysroot(const char *path, const isa_t *isa, const char *sysroot,
                         mem_t *mem, image_t *img, char *err, size_t errlen)
{
    memset(img, 0, sizeof *img);
    elf_file_t f;
    bool ok = elf_open(&f, path, err, errlen) &&
              load_checked(&f, isa, sysroot, mem, img, err, errlen);
    elf_close(&f);
    return ok;
}

bool loader_load(const char *path, const isa_t *isa, mem_t *mem, image_t *img,
                 char *err, size_t errlen)
{
    return loader_load_sysroot(path, isa, NULL, mem, img, err, errlen);
}

/* ---- Alpha's linker relaxation ------------------------------------------- */

/* The section named name, or NULL. */
static Elf_Scn *section_named(Elf *elf, const char *name, GElf_Shdr *sh)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx) != 0) return NULL;
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        const char *n = gelf_getshdr(scn, sh) ? elf_strptr(elf, shstrndx, sh->sh_name) : NULL;
        if (n && !strcmp(n, name)) return scn;
    }
    return NULL;
}

/* The value of the defined symbol name in .symtab, or 0. */
static uint64_t symbol_value(Elf *elf, const char *name)
{
    GElf_Shdr sh;
    Elf_Scn *scn = section_named(elf, ".symtab", &sh);
    Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
    if (!d || !sh.sh_entsize) return 0;
    for (size_t k = 0; k < sh.sh_size / sh.sh_entsize; k++) {
        GElf_Sym sym;
        if (!gelf_getsym(d, (int)k, &sym) || sym.st_shndx == SHN_UNDEF) continue;
        const char *n = elf_strptr(elf, sh.sh_link, sym.st_name);
        if (n && !strcmp(n, name)) return sym.st_value;
    }
    return 0;
}

/* Does some 64-bit word of .got hold value? */
static bool got_holds(Elf *elf, uint64_t value)
{
    GElf_Shdr sh;
    Elf_Scn *scn = section_named(elf, ".got", &sh);
    Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;
    if (!d || !d->d_buf) return false;
    for (size_t off = 0; off + 8 <= d->d_size; off += 8) {
        uint64_t w;
        memcpy(&w, (const char *)d->d_buf + off, 8);
        if (w == value) return true;
    }
    return false;
}

bool loader_alpha_relaxed(const char *path)
{
    elf_file_t f;
    char err[256];
    bool relaxed = false;
    if (elf_open(&f, path, err, sizeof err) && f.eh.e_machine == EM_ALPHA &&
        read_phdrs(&f, err, sizeof err)) {
        bool dynamic = false;
        for (size_t k = 0; k < f.phnum; k++) dynamic |= f.ph[k].p_type == PT_INTERP;
        uint64_t phdr_var = dynamic ? 0 : symbol_value(f.elf, "_dl_phdr");
        relaxed = phdr_var && !got_holds(f.elf, phdr_var);
    }
    elf_close(&f);
    return relaxed;
}

/* ---- the initial stack -------------------------------------------------- */

/* AT_* values that <elf.h> of older C libraries may lack. */
#ifndef AT_MINSIGSTKSZ
#define AT_MINSIGSTKSZ 51
#endif
#define RISCV_AT_L1I_CACHESIZE 40     /* ..47: L1I, L1D, L2, L3 size/geometry */
#define RISCV_AT_CACHE_ENTRIES 8
#define ALPHA_AT_L1I_CACHESHAPE 34    /* ..37: L1I, L1D, L2, L3 cache shape */
#define ALPHA_AT_CACHE_ENTRIES 4

/* Alpha AMASK feature bits: the AT_HWCAP of an Alpha (~amask(-1)). */
enum { AMASK_BWX = 1, AMASK_FIX = 2, AMASK_CIX = 4, AMASK_MVI = 0x100,
       AMASK_PRECISE_TRAP = 0x200, AMASK_PREFETCH_WH = 0x1000 };

/* Per-ISA auxiliary vector values (what that architecture's kernel sends). */
typedef struct aux_arch {
    int cache_first;        /* first AT_ type of the cache entries ARCH_DLINFO
                               sends (all 0, the kernel's "unknown")       */
    int cache_entries;
    uint64_t hwcap;
    uint64_t minsigstksz;   /* 0 = not passed */
    const char *platform;   /* AT_PLATFORM string, NULL = not passed */
    uint64_t clktck;        /* AT_CLKTCK: USER_HZ */
} aux_arch_t;

static aux_arch_t aux_arch_for(const isa_t *isa)
{
    aux_arch_t a = { 0, 0, 0, 0, NULL, 100 };
    if (isa && isa->elf_machine == EM_ALPHA) {
        /* The modelled processor is an EV67 (21264A), as the implver and
         * amask instructions report (sim/isa/alpha/alpha_int.c): byte/word,
         * FP-extension, count and multimedia instructions, precise
         * arithmetic traps, prefetch with modify intent; ELF_PLATFORM names
         * it "ev67".  USER_HZ is 1024. */
        a.cache_first = ALPHA_AT_L1I_CACHESHAPE;
        a.cache_entries = ALPHA_AT_CACHE_ENTRIES;
        a.hwcap = AMASK_BWX | AMASK_FIX | AMASK_CIX | AMASK_MVI | AMASK_PRECISE_TRAP |
                  AMASK_PREFETCH_WH;
        a.platform = "ev67";
        a.clktck = 1024;
    } else if (isa && isa->elf_machine == EM_RISCV) {
        a.cache_first = RISCV_AT_L1I_CACHESIZE;
        a.cache_entries = RISCV_AT_CACHE_ENTRIES;
        /* One bit per single-letter extension: rv64imafdc. */
        const char *letters = "IMAFDC";
        for (const char *c = letters; *c; c++) a.hwcap |= 1ull << (*c - 'A');
        /* riscv ARCH_DLINFO sends get_rt_sigframe_size(false): siginfo 128 +
         * ucontext 960 + end-of-context header 8, rounded up to 16. */
        a.minsigstksz = 1104;
    }
    return a;
}

/* Builds the stack downward from `sp`, writing into guest memory. */
typedef struct stack_builder {
    mem_t *mem;
    uint64_t sp;
    uint64_t floor;
    bool ok;
} stack_builder_t;

static uint64_t push_bytes(stack_builder_t *b, const void *data, uint64_t len)
{
    if (b->sp - b->floor < len) { b->ok = false; return 0; }
    b->sp -= len;
    if (!mem_write(b->mem, b->sp, data, len)) b->ok = false;
    return b->sp;
}

static uint64_t push_string(stack_builder_t *b, const char *s)
{
    return push_bytes(b, s, strlen(s) + 1);
}

static size_t count_strings(char *const v[])
{
    size_t n = 0;
    while (v && v[n]) n++;
    return n;
}

/* Copy strings so that v[0] ends up lowest (the kernel copies the last one
 * first); addrs[k] gets the guest address of v[k]. */
static void push_string_array(stack_builder_t *b, char *const v[], size_t n,
                              uint64_t *addrs)
{
    for (size_t k = n; k-- > 0;) addrs[k] = push_string(b, v[k]);
}

static void put_word(uint64_t *words, size_t *pos, uint64_t v)
{
    words[(*pos)++] = v;
}

static void put_aux(uint64_t *words, size_t *pos, uint64_t type, uint64_t val)
{
    put_word(words, pos, type);
    put_word(words, pos, val);
}

/* The auxiliary vector in the order fs/binfmt_elf.c create_elf_tables()
 * writes it (ARCH_DLINFO first).  There is no vDSO, so no AT_SYSINFO_EHDR;
 * cache sizes and shapes are sent as 0, the kernel's "unknown".  Returns the number of
 * words written. */
static size_t fill_auxv(uint64_t *w, const image_t *img, const isa_t *isa,
                        uint64_t random_addr, uint64_t execfn_addr,
                        uint64_t platform_addr)
{
    aux_arch_t arch = aux_arch_for(isa);
    size_t n = 0;
    for (int k = 0; k < arch.cache_entries; k++) put_aux(w, &n, arch.cache_first + k, 0);
    if (arch.minsigstksz) put_aux(w, &n, AT_MINSIGSTKSZ, arch.minsigstksz);
    put_aux(w, &n, AT_HWCAP, arch.hwcap);
    put_aux(w, &n, AT_PAGESZ, loader_layout(isa)->page_size);
    put_aux(w, &n, AT_CLKTCK, arch.clktck);
    put_aux(w, &n, AT_PHDR, img->phdr_addr);
    put_aux(w, &n, AT_PHENT, img->phent);
    put_aux(w, &n, AT_PHNUM, img->phnum);
    put_aux(w, &n, AT_BASE, img->interp_base);  /* 0: no interpreter */
    put_aux(w, &n, AT_FLAGS, 0);
    put_aux(w, &n, AT_ENTRY, img->entry);
    put_aux(w, &n, AT_UID, GUEST_UID);
    put_aux(w, &n, AT_EUID, GUEST_UID);
    put_aux(w, &n, AT_GID, GUEST_GID);
    put_aux(w, &n, AT_EGID, GUEST_GID);
    put_aux(w, &n, AT_SECURE, 0);
    put_aux(w, &n, AT_RANDOM, random_addr);
    put_aux(w, &n, AT_EXECFN, execfn_addr);
    if (platform_addr) put_aux(w, &n, AT_PLATFORM, platform_addr);
    put_aux(w, &n, AT_NULL, 0);
    return n;
}

enum { MAX_AUXV_WORDS = 2 * 40 };

/* Write argc, argv, envp and auxv below the strings; returns the final sp
 * (pointing at argc, 16-byte aligned) or 0 if it does not fit. */
static uint64_t push_vectors(stack_builder_t *b, const image_t *img, const isa_t *isa,
                             size_t argc, const uint64_t *argv_a, size_t envc,
                             const uint64_t *envp_a, uint64_t random_addr,
                             uint64_t execfn_addr, uint64_t platform_addr)
{
    uint64_t aux[MAX_AUXV_WORDS];
    size_t auxn = fill_auxv(aux, img, isa, random_addr, execfn_addr, platform_addr);
    size_t words = 1 + (argc + 1) + (envc + 1) + auxn;
    uint64_t *vec = calloc(words, sizeof *vec);
    if (!vec) return 0;
    size_t n = 0;
    put_word(vec, &n, argc);
    for (size_t k = 0; k < argc; k++) put_word(vec, &n, argv_a[k]);
    put_word(vec, &n, 0);
    for (size_t k = 0; k < envc; k++) put_word(vec, &n, envp_a[k]);
    put_word(vec, &n, 0);
    memcpy(vec + n, aux, auxn * sizeof *aux);

    uint64_t bytes = words * sizeof *vec;
    bool fits = b->sp - b->floor >= bytes + 16;
    uint64_t sp = (b->sp - bytes) & ~15ull;     /* STACK_ROUND */
    bool ok = b->ok && fits && mem_write(b->mem, sp, vec, bytes);
    if (ok) b->sp = sp;
    free(vec);
    return ok ? sp : 0;
}

uint64_t loader_build_stack(mem_t *mem, const image_t *img, const isa_t *isa,
                            int argc, char *const argv[], char *const envp[],
                            const uint8_t random16[16], const char *execfn)
{
    const guest_layout_t *lay = loader_layout(isa);
    uint64_t base = lay->stack_top - lay->stack_size;
    int prot = MEM_PROT_READ | MEM_PROT_WRITE | (img->exec_stack ? MEM_PROT_EXEC : 0);
    if (!mem_map(mem, base, lay->stack_size, prot)) return 0;

    /* Strings may use a quarter of the stack, as Linux allows (E2BIG). */
    stack_builder_t b = { mem, lay->stack_top, lay->stack_top - lay->stack_size / 4, true };
    size_t nargs = argc > 0 ? (size_t)argc : 0;
    size_t envc = count_strings(envp);
    uint64_t *addrs = calloc(nargs + envc + 1, sizeof *addrs);
    if (!addrs) return 0;

    static const uint8_t null_word[8];
    push_bytes(&b, null_word, sizeof null_word);
    uint64_t execfn_addr = push_string(&b, execfn ? execfn : (nargs ? argv[0] : ""));
    push_string_array(&b, envp, envc, addrs + nargs);
    push_string_array(&b, argv, nargs, addrs);

    b.floor = base;
    b.sp &= ~15ull;                              /* arch_align_stack */
    aux_arch_t arch = aux_arch_for(isa);
    uint64_t platform_addr = arch.platform ? push_string(&b, arch.platform) : 0;
    static const uint8_t zero16[16];
    uint64_t random_addr = push_bytes(&b, random16 ? random16 : zero16, 16);

    uint64_t sp = b.ok ? push_vectors(&b, img, isa, nargs, addrs, envc, addrs + nargs,
                                      random_addr, execfn_addr, platform_addr)
                       : 0;
    free(addrs);
    return sp;
}
