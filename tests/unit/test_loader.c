/*
 * test_loader.c - unit tests (cmocka) for the ELF loader (RISC-V and Alpha
 * images, the ELF interpreter of a dynamic program from a sysroot), the
 * initial Linux stack of both ISAs, the symbol table (with the symbols of
 * shared libraries merged in at their load bias) and the libopcodes
 * disassembler.
 *
 * Every test ELF is put together here byte by byte (Elf64 structs from
 * <elf.h>) and written to a private temporary directory, so the tests need
 * no cross compiler and each bad case is exactly the defect it names.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <elf.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disasm.h"
#include "isa.h"
#include "loader.h"
#include "mem.h"
#include "symtab.h"

/* ---- building ELF files ------------------------------------------------- */

#define TEXT_VADDR  0x10000ull
#define ENTRY       0x10100ull
#define DATA_OFF    0x200ull
#define DATA_VADDR  0x12200ull
#define DATA_FILESZ 0x10ull
#define DATA_MEMSZ  0x3000ull
#define CODE_OFF    0x100ull
#define FILE_SIZE   0x300ull

static char tmpdir[256];

static const char *tmp_path(const char *name)
{
    static char buf[4][512];
    static int which;
    char *p = buf[which++ % 4];
    snprintf(p, sizeof buf[0], "%s/%s", tmpdir, name);
    return p;
}

static void write_file(const char *path, const void *data, size_t len)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    if (len) assert_int_equal(fwrite(data, 1, len, f), len);
    fclose(f);
}

/* A small, valid static RISC-V executable image:
 *   phdr 0: PT_LOAD R+X  offset 0     vaddr 0x10000  (headers + code)
 *   phdr 1: PT_LOAD RW   offset 0x200 vaddr 0x12200  filesz 0x10 memsz 0x3000
 *   phdr 2: PT_GNU_STACK */
typedef struct test_elf {
    uint8_t bytes[FILE_SIZE];
    Elf64_Ehdr *eh;
    Elf64_Phdr *ph;
} test_elf_t;

static void make_good(test_elf_t *t)
{
    memset(t->bytes, 0, sizeof t->bytes);
    t->eh = (Elf64_Ehdr *)t->bytes;
    t->ph = (Elf64_Phdr *)(t->bytes + sizeof(Elf64_Ehdr));
    Elf64_Ehdr *eh = t->eh;
    memcpy(eh->e_ident, ELFMAG, SELFMAG);
    eh->e_ident[EI_CLASS] = ELFCLASS64;
    eh->e_ident[EI_DATA] = ELFDATA2LSB;
    eh->e_ident[EI_VERSION] = EV_CURRENT;
    eh->e_type = ET_EXEC;
    eh->e_machine = EM_RISCV;
    eh->e_version = EV_CURRENT;
    eh->e_entry = ENTRY;
    eh->e_phoff = sizeof(Elf64_Ehdr);
    eh->e_ehsize = sizeof(Elf64_Ehdr);
    eh->e_phentsize = sizeof(Elf64_Phdr);
    eh->e_phnum = 3;
    t->ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_offset = 0,
                             .p_vaddr = TEXT_VADDR, .p_paddr = TEXT_VADDR,
                             .p_filesz = CODE_OFF + 16, .p_memsz = CODE_OFF + 16,
                             .p_align = 0x1000 };
    t->ph[1] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_W,
                             .p_offset = DATA_OFF, .p_vaddr = DATA_VADDR,
                             .p_paddr = DATA_VADDR, .p_filesz = DATA_FILESZ,
                             .p_memsz = DATA_MEMSZ, .p_align = 0x1000 };
    t->ph[2] = (Elf64_Phdr){ .p_type = PT_GNU_STACK, .p_flags = PF_R | PF_W };
    static const uint32_t code[4] = { 0x00150513, 0xff010113, 0x00008067, 0x00000013 };
    memcpy(t->bytes + CODE_OFF, code, sizeof code);
    for (unsigned k = 0; k < DATA_FILESZ; k++) t->bytes[DATA_OFF + k] = (uint8_t)(0xa0 + k);
    /* junk after the data segment's file bytes must not leak into bss */
    memset(t->bytes + DATA_OFF + DATA_FILESZ, 0x5a, FILE_SIZE - DATA_OFF - DATA_FILESZ);
}

static const char *write_elf(const test_elf_t *t, const char *name, size_t len)
{
    const char *path = tmp_path(name);
    write_file(path, t->bytes, len);
    return path;
}

/* ---- fixtures ------------------------------------------------------------ */

static int setup_all(void **state)
{
    (void)state;
    const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    snprintf(tmpdir, sizeof tmpdir, "%s/test_loader.XXXXXX", base);
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_all(void **state)
{
    (void)state;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Load path into a fresh memory; returns the memory (caller frees). */
static mem_t *load(const char *path, image_t *img, bool expect_ok, char *err, size_t errlen)
{
    mem_t *mem = mem_new();
    assert_non_null(mem);
    err[0] = '\0';
    bool ok = loader_load(path, &isa_rv64, mem, img, err, errlen);
    if (ok != expect_ok) fail_msg("loader_load(%s) = %d, message: %s", path, ok, err);
    return mem;
}

/* Expect probe or load of path to fail with a message containing `want`. */
static void expect_bad(const char *path, const char *want)
{
    char err[512] = "";
    int machine = 0;
    bool probed = loader_probe(path, &machine, err, sizeof err);
    if (probed) {
        image_t img;
        mem_t *mem = load(path, &img, false, err, sizeof err);
        mem_free(mem);
    }
    if (!strstr(err, want)) fail_msg("message \"%s\" lacks \"%s\"", err, want);
    if (!strstr(err, path)) fail_msg("message \"%s\" does not name the file", err);
}

/* ---- loader: the good case ----------------------------------------------- */

static void test_good_static(void **state)
{
    (void)state;
    test_elf_t t;
    make_good(&t);
    const char *path = write_elf(&t, "good", FILE_SIZE);
    char err[512];
    int machine = 0;
    assert_true(loader_probe(path, &machine, err, sizeof err));
    assert_int_equal(machine, EM_RISCV);

    image_t img;
    mem_t *mem = load(path, &img, true, err, sizeof err);
    assert_int_equal(img.entry, ENTRY);
    assert_int_equal(img.load_bias, 0);
    assert_int_equal(img.phdr_addr, TEXT_VADDR + sizeof(Elf64_Ehdr));
    assert_int_equal(img.phnum, 3);
    assert_int_equal(img.phent, sizeof(Elf64_Phdr));
    assert_int_equal(img.lowest, TEXT_VADDR);
    assert_int_equal(img.highest, DATA_VADDR + DATA_MEMSZ);
    assert_int_equal(img.brk_start, 0x16000);
    assert_false(img.is_dynamic);
    assert_int_equal(img.elf_machine, EM_RISCV);

    /* code and data contents */
    uint8_t buf[FILE_SIZE];
    assert_true(mem_read(mem, TEXT_VADDR, buf, CODE_OFF + 16));
    assert_memory_equal(buf, t.bytes, CODE_OFF + 16);
    assert_true(mem_read(mem, DATA_VADDR, buf, DATA_FILESZ));
    assert_memory_equal(buf, t.bytes + DATA_OFF, DATA_FILESZ);
    /* bss zeroed over its whole length */
    for (uint64_t a = DATA_VADDR + DATA_FILESZ; a < DATA_VADDR + DATA_MEMSZ; a += 64) {
        uint8_t z[64] = {0}, got[64];
        uint64_t n = DATA_VADDR + DATA_MEMSZ - a < 64 ? DATA_VADDR + DATA_MEMSZ - a : 64;
        assert_true(mem_read(mem, a, got, n));
        assert_memory_equal(got, z, n);
    }
    /* protections */
    assert_int_equal(mem_page(mem, TEXT_VADDR)->prot, MEM_PROT_READ | MEM_PROT_EXEC);
    assert_int_equal(mem_page(mem, 0x12000)->prot, MEM_PROT_READ | MEM_PROT_WRITE);
    assert_int_equal(mem_page(mem, 0x15000)->prot, MEM_PROT_READ | MEM_PROT_WRITE);
    assert_null(mem_page(mem, 0x11000));
    assert_null(mem_page(mem, 0x16000));
    mem_free(mem);
}

static void test_static_pie_bias(void **state)
{
    (void)state;
    test_elf_t t;
    make_good(&t);
    t.eh->e_type = ET_DYN;
    const char *path = write_elf(&t, "pie", FILE_SIZE);
    char err[512];
    image_t img;
    mem_t *mem = load(path, &img, true, err, sizeof err);
    uint64_t bias = img.load_bias;
    assert_int_not_equal(bias, 0);
    assert_int_equal(bias & 0xfff, 0);
    assert_int_equal(img.entry, ENTRY + bias);
    assert_int_equal(img.phdr_addr, TEXT_VADDR + sizeof(Elf64_Ehdr) + bias);
    uint32_t insn = 0;
    assert_true(mem_read(mem, ENTRY + bias, &insn, 4));
    assert_int_equal(insn, 0x00150513);
    mem_free(mem);

    /* deterministic: the same file loads at the same address */
    image_t img2;
    mem = load(path, &img2, true, err, sizeof err);
    assert_int_equal(img2.load_bias, bias);
    mem_free(mem);
}

/* ---- loader: bad files ----------------------------------------------------- */

static void test_missing_file(void **state)
{
    (void)state;
    expect_bad(tmp_path("does-not-exist"), "No such file");
}

static void test_directory(void **state)
{
    (void)state;
    expect_bad(tmpdir, "directory");
}

static void test_empty_file(void **state)
{
    (void)state;
    const char *path = tmp_path("empty");
    write_file(path, "", 0);
    expect_bad(path, "empty");
}

static void test_not_elf(void **state)
{
    (void)state;
    const char *path = tmp_path("text");
    const char text[] = "#!/bin/sh\necho hello, this is not an ELF file\n";
    write_file(path, text, sizeof text - 1);
    expect_bad(path, "not an ELF");
}

static void test_elfclass32(void **state)
{
    (void)state;
    test_elf_t t;
    make_good(&t);
    t.eh->e_ident[EI_CLASS] = ELFCLASS32;
    expect_bad(write_elf(&t, "class32", FILE_SIZE), "32-bit");
}

static void test_big_endian(void **state)
{
    (void)state;
    test_elf_t t;
    make_good(&t);
    t.eh->e_ident[EI_DATA] = ELFDATA2MSB;
    expect_bad(write_elf(&t, "msb", FILE_SIZE), "big-endian");
}

static void test_wrong_machine(void **state)
{
    (void)state;
    test_elf_t t;
    make_good(&t);
    t.eh->e_machine = EM_X86_64;
    expect_bad(write_elf(&t, "x86", FILE_SIZE), "x86-64");
    t.eh->e_machine = 0x7777;
    expect_bad(write_elf(&t, "odd-machine", FILE_SIZE), "unsupported machine");
}

static void test_not_executable_type(void **state)
{
    (void)state;
    test_elf_t t;
    make_good(&t);
    t.eh->e_type = ET_REL;
    expect_bad(write_elf(&t, "rel", FILE_SIZE), "ET_REL");
    t.eh->e_type = ET_CORE;
    expect_bad(write_elf(&t, "core", FILE_SIZE), "core dump");
    t.eh->e_type = 0x1234;
    expect_bad(write_elf(&t, "type", FILE_SIZE), "unknown type 0x1234");
}

static void test_truncated_header(void **state)
{
    (void)state;
    test_elf_t t;
    make_good(&t);
    expect_bad(write_elf(&t, "trunc-hdr", 40), "truncated ELF");
    expect_bad(write_elf(&t, "trunc-ident", 10), "truncated ELF");
    expect_bad(write_elf(&t, "trunc-magic", 3), "truncated ELF");
}

static void test_truncated_phdrs(void **state)
{
    (void)state;
    test_elf_t t;
    make_good(&t);
    expect_bad(write_elf(&t, "trunc-ph", sizeof(Elf64_Ehdr) + 70), "program header table");
    t.eh->e_phoff = 0x7fffffffffffff00ull;
    expect_bad(write_elf(&t, "bad-phoff", FILE_SIZE), "past end of file");
    make_good(&t);
    t.eh->e_phnum = 0;
    expect_bad(write_elf(&t, "phnum0", FILE_SIZE), "no program headers");
    t.eh->e_phnum = 3;
    t.eh->e_phentsize = 32;
    expect_bad(write_elf(&t, "phentsize", FILE_SIZE), "entry size");
}

static void test_truncated_segment(void **state)
{
    (void)state;
    test_elf_t t;
    make_good(&t);
    /* cut inside the data segment's file bytes */
    const char *path = write_elf(&t, "trunc-seg", DATA_OFF + 4);
    expect_bad(path, "truncated ELF: segment 1 extends past end of file");
    /* a corrupt offset far beyond the file */
    t.ph[0].p_offset = 0xffffffffffff0000ull;
    expect_bad(write_elf(&t, "bad-offset", FILE_SIZE), "segment 0 extends past end");
}

static void test_corrupt_segments(void **state)
{
    (void)state;
    test_elf_t t;
    make_good(&t);
    t.ph[1].p_filesz = 0x20;
    t.ph[1].p_memsz = 0x10;
    expect_bad(write_elf(&t, "filesz", FILE_SIZE), "larger than its memory size");
    make_good(&t);
    t.ph[1].p_vaddr = 0xfffffffffffff000ull;
    expect_bad(write_elf(&t, "vaddr", FILE_SIZE), "outside the guest address space");
    make_good(&t);
    t.ph[1].p_memsz = 0x3000000000ull;
    expect_bad(write_elf(&t, "memsz", FILE_SIZE), "4 GiB");
    make_good(&t);
    t.eh->e_entry = 0x99999;
    expect_bad(write_elf(&t, "entry", FILE_SIZE), "entry point");
    make_good(&t);
    t.ph[0].p_type = PT_NOTE;
    t.ph[1].p_type = PT_NOTE;
    expect_bad(write_elf(&t, "noload", FILE_SIZE), "no loadable");
}

static void test_dynamic(void **state)
{
    (void)state;
    test_elf_t t;
    make_good(&t);
    static const char interp[] = "/lib/ld-linux-riscv64-lp64d.so.1";
    memcpy(t.bytes + 0x280, interp, sizeof interp);
    t.ph[2] = (Elf64_Phdr){ .p_type = PT_INTERP, .p_flags = PF_R, .p_offset = 0x280,
                            .p_vaddr = 0x10280, .p_filesz = sizeof interp,
                            .p_memsz = sizeof interp, .p_align = 1 };
    const char *path = write_elf(&t, "dynamic", FILE_SIZE);
    expect_bad(path, "dynamically linked executable (interpreter "
                     "/lib/ld-linux-riscv64-lp64d.so.1); run it with --sysroot DIR");
    expect_bad(path, "e.g. --sysroot /usr/riscv64-linux-gnu), or link it with -static");
    /* a PT_INTERP pointing outside the file is a truncation, not a crash */
    t.ph[2].p_offset = 0x10000;
    expect_bad(write_elf(&t, "dynamic-bad", FILE_SIZE), "segment 2 extends past end");
}

/* ---- the initial stack ------------------------------------------------------- */

static uint64_t rd64(mem_t *mem, uint64_t addr)
{
    uint64_t v = 0;
    assert_true(mem_read(mem, addr, &v, 8));
    return v;
}

static void expect_str(mem_t *mem, uint64_t addr, const char *want)
{
    char buf[256];
    assert_true(mem_read_str(mem, addr, buf, sizeof buf));
    assert_string_equal(buf, want);
}

static uint64_t build_test_stack(mem_t **memp, image_t *img, const uint8_t rnd[16])
{
    test_elf_t t;
    make_good(&t);
    const char *path = write_elf(&t, "stack", FILE_SIZE);
    char err[512];
    *memp = load(path, img, true, err, sizeof err);
    char *argv[] = { "prog", "hello world", NULL };
    char *envp[] = { "A=1", "LONGER=22", NULL };
    return loader_build_stack(*memp, img, &isa_rv64, 2, argv, envp, rnd, "/bin/prog");
}

static void test_stack_layout(void **state)
{
    (void)state;
    uint8_t rnd[16];
    for (int k = 0; k < 16; k++) rnd[k] = (uint8_t)(0x10 + k);
    mem_t *mem;
    image_t img;
    uint64_t sp = build_test_stack(&mem, &img, rnd);
    assert_int_not_equal(sp, 0);
    assert_int_equal(sp % 16, 0);
    assert_true(sp < GUEST_STACK_TOP && sp > GUEST_STACK_TOP - GUEST_STACK_SIZE);
    assert_int_equal(mem_page(mem, GUEST_STACK_TOP - GUEST_STACK_SIZE)->prot,
                     MEM_PROT_READ | MEM_PROT_WRITE);

    assert_int_equal(rd64(mem, sp), 2);
    uint64_t a0 = rd64(mem, sp + 8), a1 = rd64(mem, sp + 16);
    expect_str(mem, a0, "prog");
    expect_str(mem, a1, "hello world");
    assert_int_equal(rd64(mem, sp + 24), 0);
    uint64_t e0 = rd64(mem, sp + 32), e1 = rd64(mem, sp + 40);
    expect_str(mem, e0, "A=1");
    expect_str(mem, e1, "LONGER=22");
    assert_int_equal(rd64(mem, sp + 48), 0);

    /* strings in kernel order: argv, envp, execfn, then a null word at the top */
    assert_true(a0 < a1 && a1 < e0 && e0 < e1);
    assert_int_equal(a1, a0 + 5);
    assert_int_equal(rd64(mem, GUEST_STACK_TOP - 8), 0);

    uint64_t aux[64] = {0};
    bool seen[64] = {false};
    uint64_t p = sp + 56;
    int entries = 0;
    for (;; p += 16, entries++) {
        uint64_t type = rd64(mem, p), val = rd64(mem, p + 8);
        if (type == AT_NULL) break;
        assert_true(type < 64);
        assert_false(seen[type]);
        seen[type] = true;
        aux[type] = val;
        assert_true(entries < 40);
    }
    assert_int_equal(aux[AT_PHDR], TEXT_VADDR + sizeof(Elf64_Ehdr));
    assert_int_equal(aux[AT_PHENT], sizeof(Elf64_Phdr));
    assert_int_equal(aux[AT_PHNUM], 3);
    assert_int_equal(aux[AT_PAGESZ], 4096);
    assert_true(seen[AT_BASE]);
    assert_int_equal(aux[AT_BASE], 0);
    assert_true(seen[AT_FLAGS]);
    assert_int_equal(aux[AT_ENTRY], ENTRY);
    assert_int_equal(aux[AT_UID], 1000);
    assert_int_equal(aux[AT_EUID], 1000);
    assert_int_equal(aux[AT_GID], 1000);
    assert_int_equal(aux[AT_EGID], 1000);
    assert_true(seen[AT_SECURE]);
    assert_int_equal(aux[AT_SECURE], 0);
    assert_int_equal(aux[AT_CLKTCK], 100);
    assert_int_equal(aux[AT_HWCAP], (1u << ('I' - 'A')) | (1u << ('M' - 'A')) |
                     (1u << ('A' - 'A')) | (1u << ('F' - 'A')) | (1u << ('D' - 'A')) |
                     (1u << ('C' - 'A')));
    assert_false(seen[AT_PLATFORM]);
    expect_str(mem, aux[AT_EXECFN], "/bin/prog");
    assert_true(aux[AT_EXECFN] > e1);
    uint8_t got[16];
    assert_true(mem_read(mem, aux[AT_RANDOM], got, 16));
    assert_memory_equal(got, rnd, 16);
    assert_true(aux[AT_RANDOM] > p && aux[AT_RANDOM] < a0);
    mem_free(mem);
}

static void test_stack_deterministic(void **state)
{
    (void)state;
    uint8_t rnd[16] = {0};
    mem_t *m1, *m2;
    image_t i1, i2;
    uint64_t sp1 = build_test_stack(&m1, &i1, rnd);
    uint64_t sp2 = build_test_stack(&m2, &i2, rnd);
    assert_int_equal(sp1, sp2);
    uint64_t n = GUEST_STACK_TOP - sp1;
    assert_true(n <= 4096);
    uint8_t b1[4096], b2[4096];
    assert_true(mem_read(m1, sp1, b1, n));
    assert_true(mem_read(m2, sp2, b2, n));
    assert_memory_equal(b1, b2, n);
    mem_free(m1);
    mem_free(m2);
}

static void test_stack_too_big(void **state)
{
    (void)state;
    test_elf_t t;
    make_good(&t);
    char err[512];
    image_t img;
    mem_t *mem = load(write_elf(&t, "stack3", FILE_SIZE), &img, true, err, sizeof err);
    size_t len = GUEST_STACK_SIZE / 4 + 16;
    char *huge = malloc(len + 1);
    assert_non_null(huge);
    memset(huge, 'x', len);
    huge[len] = '\0';
    char *argv[] = { "p", huge, NULL };
    char *envp[] = { NULL };
    uint8_t rnd[16] = {0};
    assert_int_equal(loader_build_stack(mem, &img, &isa_rv64, 2, argv, envp, rnd, "p"), 0);
    free(huge);
    mem_free(mem);
}

static void test_stack_no_env(void **state)
{
    (void)state;
    test_elf_t t;
    make_good(&t);
    char err[512];
    image_t img;
    mem_t *mem = load(write_elf(&t, "stack2", FILE_SIZE), &img, true, err, sizeof err);
    char *argv[] = { "p", NULL };
    char *envp[] = { NULL };
    uint8_t rnd[16] = {0};
    uint64_t sp = loader_build_stack(mem, &img, &isa_rv64, 1, argv, envp, rnd, "p");
    assert_int_equal(sp % 16, 0);
    assert_int_equal(rd64(mem, sp), 1);
    assert_int_equal(rd64(mem, sp + 16), 0);     /* argv end */
    assert_int_equal(rd64(mem, sp + 24), 0);     /* envp end */
    assert_int_not_equal(rd64(mem, sp + 32), AT_NULL);
    mem_free(mem);
}


/* ---- Alpha images and the initial Alpha stack ------------------------------- */

#define ALPHA_TEXT 0x120000000ull

/* make_good, moved to Alpha's link address. */
static void make_alpha(test_elf_t *t)
{
    make_good(t);
    t->eh->e_machine = EM_ALPHA;
    t->eh->e_entry = ALPHA_TEXT + CODE_OFF;
    t->ph[0].p_vaddr = t->ph[0].p_paddr = ALPHA_TEXT;
    t->ph[1].p_vaddr = t->ph[1].p_paddr = ALPHA_TEXT + 0x12200;
}

/* Walk an auxv at p into aux/seen (types below 64); returns the types in
 * order in `order` (up to 64). */
static int read_auxv(mem_t *mem, uint64_t p, uint64_t aux[64], bool seen[64], uint64_t order[64])
{
    int n = 0;
    for (;; p += 16) {
        uint64_t type = rd64(mem, p), val = rd64(mem, p + 8);
        if (type == AT_NULL) break;
        assert_true(type < 64 && n < 64);
        assert_false(seen[type]);
        seen[type] = true;
        aux[type] = val;
        order[n++] = type;
    }
    return n;
}

static void test_alpha_load_and_stack(void **state)
{
    (void)state;
    test_elf_t t;
    make_alpha(&t);
    const char *path = write_elf(&t, "alpha", FILE_SIZE);
    char err[512];
    image_t img;
    mem_t *mem = mem_new();
    assert_true(loader_load(path, &isa_alpha, mem, &img, err, sizeof err));
    assert_int_equal(img.entry, ALPHA_TEXT + CODE_OFF);
    assert_int_equal(img.start, img.entry);
    assert_int_equal(img.interp_base, 0);
    /* whole 8 KiB pages: the data segment at +0x12200 maps from +0x12000 to
     * +0x16000 (8 KiB multiple of its end 0x15200), brk on an 8 KiB page */
    assert_non_null(mem_page(mem, ALPHA_TEXT + 0x1000));
    assert_non_null(mem_page(mem, ALPHA_TEXT + 0x13000));
    assert_null(mem_page(mem, ALPHA_TEXT + 0x16000));
    assert_int_equal(img.brk_start, ALPHA_TEXT + 0x16000);

    const guest_layout_t *lay = loader_layout(&isa_alpha);
    assert_int_equal(lay->stack_top, 0x120000000ull);
    assert_int_equal(lay->sp_reg, 30);
    assert_int_equal(lay->page_size, 8192);
    char *argv[] = { "alpha-prog", NULL };
    char *envp[] = { "X=1", NULL };
    uint8_t rnd[16] = {0};
    uint64_t sp = loader_build_stack(mem, &img, &isa_alpha, 1, argv, envp, rnd, NULL);
    assert_int_not_equal(sp, 0);
    assert_int_equal(sp % 16, 0);
    assert_true(sp < lay->stack_top && sp > lay->stack_top - lay->stack_size);
    assert_int_equal(rd64(mem, sp), 1);
    expect_str(mem, rd64(mem, sp + 8), "alpha-prog");
    expect_str(mem, rd64(mem, sp + 24), "X=1");

    uint64_t aux[64] = {0}, order[64];
    bool seen[64] = {false};
    int n = read_auxv(mem, sp + 40, aux, seen, order);
    /* ARCH_DLINFO first: the four cache shapes, 0 = unknown */
    for (int k = 0; k < 4; k++) {
        assert_int_equal(order[k], 34 + k);
        assert_int_equal(aux[34 + k], 0);
    }
    assert_int_equal(order[4], AT_HWCAP);
    /* BWX FIX CIX MVI PRECISE_TRAP PREFETCH_WH: what amask reports */
    assert_int_equal(aux[AT_HWCAP], 0x1307);
    assert_int_equal(aux[AT_PAGESZ], 8192);
    assert_int_equal(aux[AT_CLKTCK], 1024);
    assert_int_equal(aux[AT_PHDR], ALPHA_TEXT + sizeof(Elf64_Ehdr));
    assert_int_equal(aux[AT_ENTRY], ALPHA_TEXT + CODE_OFF);
    assert_true(seen[AT_BASE]);
    assert_int_equal(aux[AT_BASE], 0);
    assert_false(seen[AT_MINSIGSTKSZ]);
    assert_true(seen[AT_PLATFORM]);
    expect_str(mem, aux[AT_PLATFORM], "ev67");
    assert_int_equal(order[n - 1], AT_PLATFORM);  /* after AT_EXECFN */
    expect_str(mem, aux[AT_EXECFN], "alpha-prog");
    mem_free(mem);
}

static void test_alpha_unsupported(void **state)
{
    (void)state;
    test_elf_t t;
    make_alpha(&t);
    t.eh->e_flags = 1;                           /* EF_ALPHA_32BIT (-taso) */
    expect_bad(write_elf(&t, "alpha-taso", FILE_SIZE), "EF_ALPHA_32BIT");
    make_alpha(&t);
    t.eh->e_ident[EI_DATA] = ELFDATA2MSB;
    expect_bad(write_elf(&t, "alpha-msb", FILE_SIZE), "big-endian ELF (e_ident[EI_DATA]");
    make_alpha(&t);
    t.eh->e_ident[EI_CLASS] = ELFCLASS32;
    expect_bad(write_elf(&t, "alpha-32", FILE_SIZE), "32-bit ELF (e_ident[EI_CLASS]");
    make_alpha(&t);
    t.ph[1].p_vaddr = 0x11ff00000ull;            /* inside the Alpha stack */
    char err[512] = "";
    image_t img;
    mem_t *mem = mem_new();
    assert_false(loader_load(write_elf(&t, "alpha-stack", FILE_SIZE), &isa_alpha, mem, &img,
                             err, sizeof err));
    assert_non_null(strstr(err, "overlaps the stack"));
    mem_free(mem);
}

/* ---- dynamic programs: the interpreter from a sysroot ------------------------- */

#define INTERP "/lib/ld-test.so.1"
#define INTERP_ENTRY 0x104ull

/* An ET_DYN "dynamic linker": one R+X segment at 0 holding 4 words (or,
 * with exec_at, an ET_EXEC one linked there). */
static void write_interp_at(const char *root, int machine, bool own_interp, uint64_t exec_at)
{
    test_elf_t t;
    make_good(&t);
    t.eh->e_type = exec_at ? ET_EXEC : ET_DYN;
    t.eh->e_machine = (Elf64_Half)machine;
    t.eh->e_entry = exec_at + INTERP_ENTRY;
    t.ph[0].p_vaddr = t.ph[0].p_paddr = exec_at;
    t.ph[0].p_align = 0x10000;
    t.ph[1].p_vaddr = t.ph[1].p_paddr = exec_at + 0x10200;
    if (own_interp)
        t.ph[2] = (Elf64_Phdr){ .p_type = PT_INTERP, .p_offset = 0x280, .p_filesz = 4 };
    char dir[512], file[600];
    snprintf(dir, sizeof dir, "%s/lib", root);
    mkdir(root, 0755);
    mkdir(dir, 0755);
    snprintf(file, sizeof file, "%s" INTERP, root);
    write_file(file, t.bytes, FILE_SIZE);
}

static void write_interp(const char *root, int machine, bool own_interp)
{
    write_interp_at(root, machine, own_interp, 0);
}

/* A dynamic PIE program naming INTERP. */
static const char *write_dynamic(const char *name, int machine)
{
    test_elf_t t;
    make_good(&t);
    t.eh->e_type = ET_DYN;
    t.eh->e_machine = (Elf64_Half)machine;
    static const char interp[] = INTERP;
    memcpy(t.bytes + 0x280, interp, sizeof interp);
    t.ph[2] = (Elf64_Phdr){ .p_type = PT_INTERP, .p_flags = PF_R, .p_offset = 0x280,
                            .p_vaddr = 0x10280, .p_filesz = sizeof interp,
                            .p_memsz = sizeof interp, .p_align = 1 };
    return write_elf(&t, name, FILE_SIZE);
}

static void test_sysroot_interpreter(void **state)
{
    (void)state;
    char root[512];
    snprintf(root, sizeof root, "%s/sysroot", tmpdir);
    write_interp(root, EM_RISCV, false);
    const char *path = write_dynamic("dyn-prog", EM_RISCV);
    char err[512] = "";
    image_t img;
    mem_t *mem = mem_new();
    if (!loader_load_sysroot(path, &isa_rv64, root, mem, &img, err, sizeof err))
        fail_msg("load: %s", err);
    const guest_layout_t *lay = loader_layout(&isa_rv64);
    assert_true(img.is_dynamic);
    assert_string_equal(img.interp, INTERP);
    /* the first mmap of a top-down area: just below its top, 64 KiB aligned
     * (the interpreter's p_align), covering its 0x13200-byte span */
    uint64_t base = (lay->mmap_top - 0x13200) & ~0xffffull;
    assert_int_equal(img.interp_base, base);
    assert_true(base + 0x13200 <= lay->mmap_top && base + 0x23200 > lay->mmap_top);
    assert_int_equal(img.start, base + INTERP_ENTRY);
    assert_int_equal(img.load_bias, lay->et_dyn_base);        /* ET_DYN_BASE, aligned */
    assert_int_equal(img.entry, ENTRY + img.load_bias);
    uint32_t insn = 0;
    assert_true(mem_read(mem, img.start - 4, &insn, 4));      /* interp code at 0x100 */
    assert_int_equal(insn, 0x00150513);
    /* the break follows the program, not the interpreter */
    assert_int_equal(img.brk_start, img.load_bias + 0x16000);

    char *argv[] = { "dyn-prog", NULL }, *envp[] = { NULL };
    uint8_t rnd[16] = {0};
    uint64_t sp = loader_build_stack(mem, &img, &isa_rv64, 1, argv, envp, rnd, NULL);
    uint64_t aux[64] = {0}, order[64];
    bool seen[64] = {false};
    read_auxv(mem, sp + 32, aux, seen, order);
    assert_int_equal(aux[AT_BASE], base);
    assert_int_equal(aux[AT_ENTRY], img.entry);
    assert_int_equal(aux[AT_PHDR], img.load_bias + TEXT_VADDR + sizeof(Elf64_Ehdr));
    assert_int_equal(aux[AT_PHNUM], 3);
    mem_free(mem);

    /* deterministic: the same addresses every time */
    image_t img2;
    mem = mem_new();
    assert_true(loader_load_sysroot(path, &isa_rv64, root, mem, &img2, err, sizeof err));
    assert_int_equal(img2.interp_base, img.interp_base);
    assert_int_equal(img2.start, img.start);
    mem_free(mem);
}

static void expect_sysroot_bad(const char *path, const char *root, const char *want)
{
    char err[1024] = "";
    image_t img;
    mem_t *mem = mem_new();
    assert_false(loader_load_sysroot(path, &isa_rv64, root, mem, &img, err, sizeof err));
    if (!strstr(err, want)) fail_msg("message \"%s\" lacks \"%s\"", err, want);
    if (strncmp(err, path, strlen(path))) fail_msg("message \"%s\" does not start with the program", err);
    mem_free(mem);
}

static void test_sysroot_problems(void **state)
{
    (void)state;
    char empty[512], alpha[512], nested[512];
    snprintf(empty, sizeof empty, "%s/empty-root", tmpdir);
    mkdir(empty, 0755);
    const char *path = write_dynamic("dyn-prog2", EM_RISCV);
    expect_sysroot_bad(path, empty, "ELF interpreter " INTERP " not found under --sysroot");
    snprintf(alpha, sizeof alpha, "%s/alpha-root", tmpdir);
    write_interp(alpha, EM_ALPHA, false);
    expect_sysroot_bad(path, alpha, "Alpha ELF (machine 36902), expected RISC-V");
    snprintf(nested, sizeof nested, "%s/nested-root", tmpdir);
    write_interp(nested, EM_RISCV, true);
    expect_sysroot_bad(path, nested, "has an interpreter of its own");
    /* an ET_EXEC interpreter linked where the program is: refused, unmapped */
    write_interp_at(nested, EM_RISCV, false, loader_layout(&isa_rv64)->et_dyn_base);
    expect_sysroot_bad(path, nested, "would overlap the program");
    /* a truncated interpreter is named as such */
    char file[600];
    snprintf(file, sizeof file, "%s" INTERP, empty);
    mkdir(strcat(strcpy(file, empty), "/lib"), 0755);
    snprintf(file, sizeof file, "%s" INTERP, empty);
    write_file(file, "\177ELF", 4);
    expect_sysroot_bad(path, empty, "ELF interpreter");
    expect_sysroot_bad(path, empty, "truncated");
}

/* ---- symbol table ------------------------------------------------------------ */

/* An ELF with section headers: .symtab, .strtab, .shstrtab; its table
 * has PROGRAM_SYMS names. */
enum { PROGRAM_SYMS = 7 };
static const char *write_symtab_elf(void)
{
    static const char strtab[] = "\0foo\0foo_alias\0bar\0baz\0data\0undef_fn\0zlocal\0tail"
                                 "\0millicode\0crt_aux\0Loop\0$x\0foo_label";
    enum { S_FOO = 1, S_ALIAS = 5, S_BAR = 15, S_BAZ = 19, S_DATA = 23, S_UNDEF = 28,
           S_ZLOCAL = 37, S_TAIL = 44, S_MILLI = 49, S_CRT = 59, S_LOOP = 67, S_MAP = 72,
           S_LABEL = 75 };
    static const char shstr[] = "\0.symtab\0.strtab\0.shstrtab\0.text";
    Elf64_Sym syms[] = {
        { 0 },
        { .st_name = S_ALIAS, .st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC),
          .st_shndx = 1, .st_value = 0x10100, .st_size = 0x20 },
        { .st_name = S_FOO, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
          .st_shndx = 1, .st_value = 0x10100, .st_size = 0x20 },
        { .st_name = S_BAR, .st_info = ELF64_ST_INFO(STB_WEAK, STT_FUNC),
          .st_shndx = 1, .st_value = 0x10120, .st_size = 0 },
        { .st_name = S_BAZ, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
          .st_shndx = 1, .st_value = 0x10200, .st_size = 0x10 },
        { .st_name = S_DATA, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT),
          .st_shndx = 1, .st_value = 0x10180, .st_size = 8 },
        { .st_name = S_UNDEF, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
          .st_shndx = SHN_UNDEF },
        { .st_name = S_ZLOCAL, .st_info = ELF64_ST_INFO(STB_LOCAL, STT_FUNC),
          .st_shndx = 1, .st_value = 0x10300, .st_size = 0x40 },
        { .st_name = S_TAIL, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
          .st_shndx = 4, .st_value = 0x10380, .st_size = 0 },   /* last, in .text */
        /* untyped code symbols, as hand-written assembly leaves them */
        { .st_name = S_MILLI, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE),
          .st_shndx = 4, .st_value = 0x10220, .st_size = 0x10 },  /* Alpha's __divq */
        { .st_name = S_CRT, .st_info = ELF64_ST_INFO(STB_LOCAL, STT_NOTYPE),
          .st_shndx = 4, .st_value = 0x10240, .st_size = 0 },     /* crtstuff's */
        { .st_name = S_LOOP, .st_info = ELF64_ST_INFO(STB_LOCAL, STT_NOTYPE),
          .st_shndx = 4, .st_value = 0x10310, .st_size = 0 },     /* a label in zlocal */
        { .st_name = S_MAP, .st_info = ELF64_ST_INFO(STB_LOCAL, STT_NOTYPE),
          .st_shndx = 4, .st_value = 0x10250, .st_size = 0 },     /* a mapping symbol */
        { .st_name = S_LABEL, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_NOTYPE),
          .st_shndx = 4, .st_value = 0x10100, .st_size = 0 },     /* foo's alias */
    };
    test_elf_t t;
    make_good(&t);
    size_t symoff = FILE_SIZE, stroff = symoff + sizeof syms;
    size_t shstroff = stroff + sizeof strtab, shoff = (shstroff + sizeof shstr + 7) & ~7ul;
    Elf64_Shdr sh[5] = {
        { 0 },
        { .sh_name = 1, .sh_type = SHT_SYMTAB, .sh_offset = symoff, .sh_size = sizeof syms,
          .sh_link = 2, .sh_info = 3, .sh_addralign = 8, .sh_entsize = sizeof(Elf64_Sym) },
        { .sh_name = 9, .sh_type = SHT_STRTAB, .sh_offset = stroff,
          .sh_size = sizeof strtab, .sh_addralign = 1 },
        { .sh_name = 17, .sh_type = SHT_STRTAB, .sh_offset = shstroff,
          .sh_size = sizeof shstr, .sh_addralign = 1 },
        { .sh_name = 27, .sh_type = SHT_NOBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
          .sh_addr = 0x10000, .sh_size = 0x400, .sh_addralign = 4 },
    };
    t.eh->e_shoff = shoff;
    t.eh->e_shentsize = sizeof(Elf64_Shdr);
    t.eh->e_shnum = 5;
    t.eh->e_shstrndx = 3;
    size_t total = shoff + sizeof sh;
    uint8_t *buf = calloc(1, total);
    assert_non_null(buf);
    memcpy(buf, t.bytes, FILE_SIZE);
    memcpy(buf + symoff, syms, sizeof syms);
    memcpy(buf + stroff, strtab, sizeof strtab);
    memcpy(buf + shstroff, shstr, sizeof shstr);
    memcpy(buf + shoff, sh, sizeof sh);
    const char *path = tmp_path("withsyms");
    write_file(path, buf, total);
    free(buf);
    return path;
}

static void expect_format(const symtab_t *st, uint64_t addr, const char *want)
{
    char buf[128];
    assert_string_equal(symtab_format(st, addr, buf, sizeof buf), want);
}

static void test_symtab(void **state)
{
    (void)state;
    symtab_t *st = symtab_load(write_symtab_elf());
    assert_non_null(st);
    assert_int_equal(st->count, PROGRAM_SYMS);    /* foo, bar, baz, millicode, crt_aux, zlocal, tail */
    for (size_t k = 1; k < st->count; k++) assert_true(st->syms[k - 1].addr < st->syms[k].addr);
    const symbol_t *s = symtab_lookup(st, 0x10100);
    assert_non_null(s);
    assert_string_equal(s->name, "foo");       /* global beats local alias */
    assert_int_equal(s->size, 0x20);
    s = symtab_lookup(st, 0x10150);
    assert_non_null(s);
    assert_string_equal(s->name, "bar");
    assert_int_equal(s->size, 0x200 - 0x120);  /* size 0: up to the next symbol */
    expect_format(st, 0x10100, "foo");
    expect_format(st, 0x1011c, "foo+0x1c");
    expect_format(st, 0x101fe, "bar+0xde");
    expect_format(st, 0x10208, "baz+0x8");
    expect_format(st, 0x10210, "0x10210");     /* gap after a sized symbol */
    expect_format(st, 0x1022c, "millicode+0xc");
    expect_format(st, 0x10230, "0x10230");
    expect_format(st, 0x10250, "crt_aux+0x10"); /* up to zlocal; $x is no name */
    expect_format(st, 0x102fc, "crt_aux+0xbc");
    expect_format(st, 0x10320, "zlocal+0x20"); /* its label Loop is no function */
    expect_format(st, 0x100, "0x100");
    assert_null(symtab_lookup(st, 0x10000));
    expect_format(st, 0x103fc, "tail+0x7c");   /* last, size 0: to its section's end */
    expect_format(st, 0x10400, "0x10400");     /* and no further (a library above) */
    assert_null(symtab_lookup(st, 0x2000000000));

    symtab_relocate(st, 0x1000000);
    expect_format(st, 0x101011c, "foo+0x1c");
    symtab_free(st);
}

static void test_symtab_none(void **state)
{
    (void)state;
    test_elf_t t;
    make_good(&t);
    symtab_t *st = symtab_load(write_elf(&t, "nosyms", FILE_SIZE));
    assert_non_null(st);
    assert_int_equal(st->count, 0);
    assert_null(symtab_lookup(st, 0x10100));
    expect_format(st, 0x10100, "0x10100");
    symtab_free(st);
    st = symtab_load(tmp_path("no-such-file"));
    assert_non_null(st);
    assert_int_equal(st->count, 0);
    symtab_free(st);
}

/* A stripped shared library (ET_DYN, no .symtab, only .dynsym), laid out
 * as Debian's cross libc is:
 *   PT_LOAD R+X  offset 0      vaddr 0       size 0x1800  (text)
 *   PT_LOAD RW   offset 0x1800 vaddr 0x2800  filesz 0x100 (data: another
 *                offset-to-address delta, as after a RELRO gap)
 * .text says [0x1000, 0x2000), past the text segment's end, so only the
 * segment can limit its last size-0 symbol. */
#define LIB_TEXT_END 0x1800ull
#define LIB_DATA_OFF 0x1800ull
#define LIB_DATA_VADDR 0x2800ull

static const char *write_library_elf(void)
{
    static const char dynstr[] = "\0lib_first\0lib_alias\0lib_open\0lib_obj\0lib_datafn";
    enum { S_FIRST = 1, S_ALIAS = 11, S_OPEN = 21, S_OBJ = 30, S_DATAFN = 38 };
    static const char shstr[] = "\0.text\0.dynsym\0.dynstr\0.shstrtab\0.data";
    enum { N_TEXT = 1, N_DYNSYM = 7, N_DYNSTR = 15, N_SHSTR = 23, N_DATA = 33 };
    Elf64_Sym syms[] = {
        { 0 },
        { .st_name = S_ALIAS, .st_info = ELF64_ST_INFO(STB_WEAK, STT_FUNC),
          .st_shndx = 1, .st_value = 0x1000, .st_size = 0x40 },
        { .st_name = S_FIRST, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
          .st_shndx = 1, .st_value = 0x1000, .st_size = 0x40 },
        { .st_name = S_OPEN, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
          .st_shndx = 1, .st_value = 0x1100, .st_size = 0 },
        { .st_name = S_OBJ, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_OBJECT),
          .st_shndx = 1, .st_value = 0x1080, .st_size = 8 },
        { .st_name = S_DATAFN, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
          .st_shndx = 5, .st_value = LIB_DATA_VADDR, .st_size = 0x10 },
    };
    size_t symoff = 0x1a00, stroff = symoff + sizeof syms;
    size_t shstroff = stroff + sizeof dynstr, shoff = (shstroff + sizeof shstr + 7) & ~7ul;
    Elf64_Shdr sh[6] = {
        { 0 },
        { .sh_name = N_TEXT, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
          .sh_addr = 0x1000, .sh_offset = 0x1000, .sh_size = 0x1000, .sh_addralign = 4 },
        { .sh_name = N_DYNSYM, .sh_type = SHT_DYNSYM, .sh_flags = SHF_ALLOC, .sh_offset = symoff,
          .sh_size = sizeof syms, .sh_link = 3, .sh_info = 1, .sh_addralign = 8,
          .sh_entsize = sizeof(Elf64_Sym) },
        { .sh_name = N_DYNSTR, .sh_type = SHT_STRTAB, .sh_flags = SHF_ALLOC, .sh_offset = stroff,
          .sh_size = sizeof dynstr, .sh_addralign = 1 },
        { .sh_name = N_SHSTR, .sh_type = SHT_STRTAB, .sh_offset = shstroff,
          .sh_size = sizeof shstr, .sh_addralign = 1 },
        { .sh_name = N_DATA, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_WRITE,
          .sh_addr = LIB_DATA_VADDR, .sh_offset = LIB_DATA_OFF, .sh_size = 0x100,
          .sh_addralign = 8 },
    };
    size_t total = shoff + sizeof sh;
    uint8_t *buf = calloc(1, total);
    assert_non_null(buf);
    Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
    Elf64_Phdr *ph = (Elf64_Phdr *)(buf + sizeof *eh);
    memcpy(eh->e_ident, ELFMAG, SELFMAG);
    eh->e_ident[EI_CLASS] = ELFCLASS64;
    eh->e_ident[EI_DATA] = ELFDATA2LSB;
    eh->e_ident[EI_VERSION] = EV_CURRENT;
    eh->e_type = ET_DYN;
    eh->e_machine = EM_RISCV;
    eh->e_version = EV_CURRENT;
    eh->e_phoff = sizeof *eh;
    eh->e_ehsize = sizeof *eh;
    eh->e_phentsize = sizeof *ph;
    eh->e_phnum = 2;
    eh->e_shoff = shoff;
    eh->e_shentsize = sizeof(Elf64_Shdr);
    eh->e_shnum = 6;
    eh->e_shstrndx = 4;
    ph[0] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_filesz = LIB_TEXT_END,
                          .p_memsz = LIB_TEXT_END, .p_align = 0x1000 };
    ph[1] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_W, .p_offset = LIB_DATA_OFF,
                          .p_vaddr = LIB_DATA_VADDR, .p_paddr = LIB_DATA_VADDR,
                          .p_filesz = 0x100, .p_memsz = 0x200, .p_align = 0x1000 };
    memcpy(buf + symoff, syms, sizeof syms);
    memcpy(buf + stroff, dynstr, sizeof dynstr);
    memcpy(buf + shstroff, shstr, sizeof shstr);
    memcpy(buf + shoff, sh, sizeof sh);
    const char *path = tmp_path("libtest.so");
    write_file(path, buf, total);
    free(buf);
    return path;
}

static void expect_sorted(const symtab_t *st)
{
    for (size_t k = 1; k < st->count; k++) assert_true(st->syms[k - 1].addr < st->syms[k].addr);
}

/* ld.so's mapping of a library's text: the whole span, R+X, from offset 0. */
static void test_symtab_mapped_library(void **state)
{
    (void)state;
    symtab_t *st = symtab_load(write_symtab_elf());
    assert_non_null(st);
    assert_int_equal(st->count, PROGRAM_SYMS);
    int fd = open(write_library_elf(), O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(lseek(fd, 3, SEEK_SET), 3);
    assert_true(symtab_add_mapped_file(st, fd, 0x40000000, 0x3000, 0));
    assert_int_equal(lseek(fd, 0, SEEK_CUR), 3);           /* the guest's offset stays */
    assert_int_equal(st->count, PROGRAM_SYMS + 2);                         /* lib_first, lib_open */
    expect_sorted(st);
    expect_format(st, 0x40001000, "lib_first");             /* .dynsym; global beats weak */
    expect_format(st, 0x4000103c, "lib_first+0x3c");
    expect_format(st, 0x40001104, "lib_open+0x4");
    expect_format(st, 0x400017fe, "lib_open+0x6fe");        /* size 0: to the text's end, */
    expect_format(st, 0x40001800, "0x40001800");            /* not .text's                */
    expect_format(st, 0x40002800, "0x40002800");            /* a FUNC in data: left out */
    expect_format(st, 0x1011c, "foo+0x1c");                 /* the program keeps its own */
    expect_format(st, 0x103fc, "tail+0x7c");

    /* mapped again at the same place: no duplicates */
    assert_true(symtab_add_mapped_file(st, fd, 0x40000000, 0x3000, 0));
    assert_int_equal(st->count, PROGRAM_SYMS + 2);
    /* a mapping of the data part only, even executable, names nothing */
    assert_true(symtab_add_mapped_file(st, fd, 0x40002000, 0x1000, 0x1000));
    assert_int_equal(st->count, PROGRAM_SYMS + 2);
    /* a second copy elsewhere gets names of its own */
    assert_true(symtab_add_mapped_file(st, fd, 0x50000000, 0x3000, 0));
    assert_int_equal(st->count, PROGRAM_SYMS + 4);
    expect_format(st, 0x50001110, "lib_open+0x10");
    expect_format(st, 0x40001110, "lib_open+0x10");
    expect_sorted(st);
    close(fd);

    /* not an ELF, or no descriptor: nothing added, no error */
    const char *text = tmp_path("plain.txt");
    write_file(text, "just text\n", 10);
    fd = open(text, O_RDONLY);
    assert_true(symtab_add_mapped_file(st, fd, 0x60000000, 0x1000, 0));
    close(fd);
    assert_true(symtab_add_mapped_file(st, -1, 0x60000000, 0x1000, 0));
    assert_int_equal(st->count, PROGRAM_SYMS + 4);
    symtab_free(st);
}

/* The interpreter, loaded whole at a bias; a module mapped over another. */
static void test_symtab_merge(void **state)
{
    (void)state;
    symtab_t *st = symtab_load(write_symtab_elf());
    assert_non_null(st);
    assert_true(symtab_add_loaded_file(st, write_library_elf(), 0x60000000));
    assert_int_equal(st->count, PROGRAM_SYMS + 2);
    expect_format(st, 0x60001000, "lib_first");
    expect_format(st, 0x600017fe, "lib_open+0x6fe");
    expect_format(st, 0x60001800, "0x60001800");
    assert_true(symtab_add_loaded_file(st, tmp_path("no-such-lib"), 0x70000000));
    assert_int_equal(st->count, PROGRAM_SYMS + 2);

    /* A module mapped over [0x60001000, 0x60001800) replaces what was there. */
    symbol_t over_syms[] = { { 0x0, 0x100, "over_a" }, { 0x200, 0, "over_b" } };
    symtab_t over = { over_syms, 2, NULL };
    assert_true(symtab_merge(st, &over, 0x60001000, 0x60001000, 0x60001800));
    assert_int_equal(st->count, PROGRAM_SYMS + 2);                         /* -lib_first -lib_open +2 */
    expect_sorted(st);
    expect_format(st, 0x60001000, "over_a");
    expect_format(st, 0x60001100, "0x60001100");
    expect_format(st, 0x600017f0, "over_b+0x5f0");          /* size 0: to the range's end */
    expect_format(st, 0x60001800, "0x60001800");
    /* an older symbol reaching into a new module's range is cut there */
    symbol_t cut_syms[] = { { 0x0, 0x40, "cut_in" } };
    symtab_t cut = { cut_syms, 1, NULL };
    assert_true(symtab_merge(st, &cut, 0x103c0, 0x103c0, 0x10400));
    expect_format(st, 0x103bc, "tail+0x3c");
    expect_format(st, 0x103c0, "cut_in");
    expect_format(st, 0x1011c, "foo+0x1c");
    /* an empty range or no module changes nothing */
    assert_true(symtab_merge(st, &cut, 0, 0x10, 0x10));
    assert_true(symtab_merge(st, NULL, 0, 0x10, 0x20));
    assert_int_equal(st->count, PROGRAM_SYMS + 3);
    symtab_free(st);
}

/* ---- disassembler ------------------------------------------------------------ */

/* want may list alternatives separated by '|' (libopcodes versions differ in
 * which alias they print, e.g. c.addi as "addi" or "add"). */
static void expect_disasm(disasm_t *d, uint32_t word, size_t avail, int want_len,
                          const char *want)
{
    uint8_t bytes[4] = { (uint8_t)word, (uint8_t)(word >> 8), (uint8_t)(word >> 16),
                         (uint8_t)(word >> 24) };
    char buf[96];
    int n = disasm_insn(d, 0x10000, bytes, avail, buf, sizeof buf);
    assert_int_equal(n, want_len);
    if (!want) return;
    for (const char *w = want;;) {
        const char *bar = strchr(w, '|');
        size_t len = bar ? (size_t)(bar - w) : strlen(w);
        if (strlen(buf) == len && !strncmp(buf, w, len)) return;
        if (!bar) break;
        w = bar + 1;
    }
    fail_msg("disassembly \"%s\" is not \"%s\"", buf, want);
}

static void test_disasm(void **state)
{
    (void)state;
    disasm_t *d = disasm_new(&isa_rv64);
    assert_non_null(d);
    expect_disasm(d, 0x00150513, 4, 4, "addi    a0,a0,1");
    expect_disasm(d, 0xff010113, 4, 4, "addi    sp,sp,-16");
    expect_disasm(d, 0x00008067, 4, 4, "ret");
    expect_disasm(d, 0x0080006f, 4, 4, "j       0x10008");          /* jal x0,+8 */
    expect_disasm(d, 0x00a5f533, 4, 4, "and     a0,a1,a0");
    /* c.addi a0,1 */
    expect_disasm(d, 0x0505, 2, 2, "addi    a0,a0,1|add     a0,a0,1");
    expect_disasm(d, 0x0505, 4, 2, "addi    a0,a0,1|add     a0,a0,1");
    expect_disasm(d, 0x1141, 2, 2, "addi    sp,sp,-16|add     sp,sp,-16"); /* c.addi sp */
    /* a 4-byte instruction with only 2 bytes available */
    expect_disasm(d, 0x00150513, 2, 0, NULL);
    /* tiny output buffer: truncated, still terminated */
    uint8_t bytes[4] = { 0x13, 0x05, 0x15, 0x00 };
    char small[6];
    assert_int_equal(disasm_insn(d, 0, bytes, 4, small, sizeof small), 4);
    assert_true(strlen(small) < sizeof small);
    assert_int_equal(strncmp(small, "addi", 4), 0);
    disasm_free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_static),
        cmocka_unit_test(test_static_pie_bias),
        cmocka_unit_test(test_missing_file),
        cmocka_unit_test(test_directory),
        cmocka_unit_test(test_empty_file),
        cmocka_unit_test(test_not_elf),
        cmocka_unit_test(test_elfclass32),
        cmocka_unit_test(test_big_endian),
        cmocka_unit_test(test_wrong_machine),
        cmocka_unit_test(test_not_executable_type),
        cmocka_unit_test(test_truncated_header),
        cmocka_unit_test(test_truncated_phdrs),
        cmocka_unit_test(test_truncated_segment),
        cmocka_unit_test(test_corrupt_segments),
        cmocka_unit_test(test_dynamic),
        cmocka_unit_test(test_stack_layout),
        cmocka_unit_test(test_stack_deterministic),
        cmocka_unit_test(test_stack_no_env),
        cmocka_unit_test(test_stack_too_big),
        cmocka_unit_test(test_alpha_load_and_stack),
        cmocka_unit_test(test_alpha_unsupported),
        cmocka_unit_test(test_sysroot_interpreter),
        cmocka_unit_test(test_sysroot_problems),
        cmocka_unit_test(test_symtab),
        cmocka_unit_test(test_symtab_none),
        cmocka_unit_test(test_symtab_mapped_library),
        cmocka_unit_test(test_symtab_merge),
        cmocka_unit_test(test_disasm),
    };
    return cmocka_run_group_tests(tests, setup_all, teardown_all);
}
