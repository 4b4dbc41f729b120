/*
 * disasm.c - guest instruction disassembly through libopcodes (binutils),
 * for traces, pipeline views and fault reports.
 *
 * libopcodes prints through fprintf-style callbacks; here they append to a
 * text buffer owned by the disasm_t, so nothing reaches stdout.  The tab
 * libopcodes puts after the mnemonic is expanded to a column of 8, giving
 * "addi    sp,sp,-16".  Bytes beyond what the caller supplied read as a
 * memory error, which is reported in the text and as length 0.
 *
 * binutils 2.40 prints register-immediate RISC-V instructions through
 * aliases named after the register-register form ("add sp,sp,-16" for
 * addi); those are renamed back to the real mnemonic for readable traces.
 *
 * libopcodes (and the libbfd it needs) is loaded with dlopen on the first
 * instruction disassembled, not linked: relocating the two at every start
 * cost each hps-sim process 12-16 ms of host time (about 88,000
 * relocations), a visible share of a short run that never disassembles.
 * HPS_OPCODES_SO is the library's soname, which the Makefile reads from
 * the linker's libopcodes-multiarch.so.
 */
#define PACKAGE "hps-sim"           /* bfd.h insists */
#include <bfd.h>
#include <dis-asm.h>
#include <dlfcn.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "disasm.h"

enum { TEXT_MAX = 256 };

#ifndef HPS_OPCODES_SO
#error "HPS_OPCODES_SO: the soname of libopcodes (the Makefile defines it)"
#endif
_Static_assert(sizeof HPS_OPCODES_SO > 1,
               "HPS_OPCODES_SO is empty: the Makefile did not find libopcodes-multiarch.so "
               "(install binutils-multiarch-dev: make deps)");

struct disasm {
    disassemble_info info;
    disassembler_ftype print;   /* NULL until set up, or when that failed */
    enum bfd_architecture arch;
    unsigned long mach;
    bool tried;             /* set up (successfully or not) */
    char text[TEXT_MAX];    /* libopcodes output for the current instruction */
    size_t len;
    bool read_failed;
};

/* The libopcodes functions used here, from the library loaded once. */
static struct opcodes {
    bool tried, ok;
    disassembler_ftype (*disassembler)(enum bfd_architecture, bool, unsigned long, bfd *);
    void (*init_info)(struct disassemble_info *, void *, fprintf_ftype, fprintf_styled_ftype);
    void (*init_for_target)(struct disassemble_info *);
    void (*free_target)(struct disassemble_info *);
    int (*read_memory)(bfd_vma, bfd_byte *, unsigned int, struct disassemble_info *);
} op;

static bool opcodes_load(void)
{
    if (op.tried) return op.ok;
    op.tried = true;
    void *h = dlopen(HPS_OPCODES_SO, RTLD_NOW | RTLD_LOCAL);
    if (!h) return false;
    *(void **)&op.disassembler = dlsym(h, "disassembler");
    *(void **)&op.init_info = dlsym(h, "init_disassemble_info");
    *(void **)&op.init_for_target = dlsym(h, "disassemble_init_for_target");
    *(void **)&op.free_target = dlsym(h, "disassemble_free_target");
    *(void **)&op.read_memory = dlsym(h, "buffer_read_memory");
    op.ok = op.disassembler && op.init_info && op.init_for_target && op.free_target &&
            op.read_memory;
    return op.ok;
}

static void append_v(disasm_t *d, const char *fmt, va_list ap)
{
    if (d->len >= sizeof d->text - 1) return;
    int n = vsnprintf(d->text + d->len, sizeof d->text - d->len, fmt, ap);
    if (n < 0) return;
    d->len += (size_t)n;
    if (d->len > sizeof d->text - 1) d->len = sizeof d->text - 1;
}

static int collect(void *stream, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    append_v(stream, fmt, ap);
    va_end(ap);
    return 0;
}

static int collect_styled(void *stream, enum disassembler_style style, const char *fmt, ...)
{
    (void)style;
    va_list ap;
    va_start(ap, fmt);
    append_v(stream, fmt, ap);
    va_end(ap);
    return 0;
}

static void note_memory_error(int status, bfd_vma addr, struct disassemble_info *info)
{
    (void)status; (void)addr;
    disasm_t *d = info->stream;
    d->read_failed = true;
}

static void print_address(bfd_vma addr, struct disassemble_info *info)
{
    info->fprintf_func(info->stream, "0x%" PRIx64, (uint64_t)addr);
}

disasm_t *disasm_new(const isa_t *isa)
{
    if (!isa) return NULL;
    disasm_t *d = calloc(1, sizeof *d);
    if (!d) return NULL;
    d->arch = (enum bfd_architecture)isa->bfd_arch;
    d->mach = isa->bfd_mach;
    return d;
}

/* Load libopcodes and set d up, on its first instruction; false if either
 * failed. */
static bool set_up(disasm_t *d)
{
    if (d->tried) return d->print != NULL;
    d->tried = true;
    if (!opcodes_load()) return false;
    disassembler_ftype print = op.disassembler(d->arch, false, d->mach, NULL);
    if (!print) return false;
    op.init_info(&d->info, d, collect, collect_styled);
    d->info.arch = d->arch;
    d->info.mach = d->mach;
    d->info.endian = BFD_ENDIAN_LITTLE;
    d->info.endian_code = BFD_ENDIAN_LITTLE;
    d->info.read_memory_func = op.read_memory;
    d->info.memory_error_func = note_memory_error;
    d->info.print_address_func = print_address;
    op.init_for_target(&d->info);
    d->print = print;
    return true;
}

void disasm_free(disasm_t *d)
{
    if (!d) return;
    if (d->print) op.free_target(&d->info);
    free(d);
}

/* The immediate form of a register-register mnemonic, or NULL. */
static const char *immediate_form(const char *mn, size_t len)
{
    static const char *const pairs[][2] = {
        { "add", "addi" },   { "addw", "addiw" }, { "and", "andi" }, { "or", "ori" },
        { "xor", "xori" },   { "sll", "slli" },   { "srl", "srli" }, { "sra", "srai" },
        { "sllw", "slliw" }, { "srlw", "srliw" }, { "sraw", "sraiw" },
        { "slt", "slti" },   { "sltu", "sltiu" },
    };
    for (size_t k = 0; k < sizeof pairs / sizeof pairs[0]; k++)
        if (strlen(pairs[k][0]) == len && !strncmp(mn, pairs[k][0], len))
            return pairs[k][1];
    return NULL;
}

/* Rename "add\trd,rs,imm" (a libopcodes alias of addi) to "addi\t...". */
static void fix_riscv_alias(char *text, size_t cap)
{
    char *tab = strchr(text, '\t');
    if (!tab) return;
    const char *imm = NULL;
    int commas = 0;
    for (const char *p = tab + 1; *p && *p != ' ' && *p != '\t'; p++)
        if (*p == ',' && ++commas == 2) imm = p + 1;
    if (commas != 2 || !imm || !(*imm == '-' || (*imm >= '0' && *imm <= '9'))) return;
    const char *name = immediate_form(text, (size_t)(tab - text));
    if (!name) return;
    char rest[TEXT_MAX];
    snprintf(rest, sizeof rest, "%s", tab);
    snprintf(text, cap, "%s%s", name, rest);
}

/* Copy src to buf, expanding tabs to the next multiple of 8 columns and
 * dropping trailing blanks. */
static void expand_tabs(const char *src, char *buf, size_t buflen)
{
    size_t o = 0;
    for (const char *s = src; *s && o + 1 < buflen; s++) {
        if (*s == '\t') {
            do buf[o++] = ' '; while (o % 8 && o + 1 < buflen);
        } else {
            buf[o++] = *s;
        }
    }
    while (o && buf[o - 1] == ' ') o--;
    buf[o] = '\0';
}

int disasm_insn(disasm_t *d, uint64_t pc, const uint8_t *bytes, size_t avail,
                char *buf, size_t buflen)
{
    if (!buf || !buflen) return 0;
    buf[0] = '\0';
    if (!d || !bytes || !avail) {
        snprintf(buf, buflen, "(no bytes)");
        return 0;
    }
    if (!set_up(d)) {
        snprintf(buf, buflen, "(no disassembler: %s)", HPS_OPCODES_SO);
        return 0;
    }
    d->len = 0;
    d->text[0] = '\0';
    d->read_failed = false;
    d->info.buffer = (bfd_byte *)bytes;
    d->info.buffer_vma = pc;
    d->info.buffer_length = avail;
    d->info.stop_vma = 0;
    int n = d->print(pc, &d->info);
    if (n <= 0 || d->read_failed) {
        snprintf(buf, buflen, "(truncated instruction)");
        return 0;
    }
    if (d->info.arch == bfd_arch_riscv) fix_riscv_alias(d->text, sizeof d->text);
    expand_tabs(d->text, buf, buflen);
    return n;
}
