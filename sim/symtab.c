/*
 * symtab.c - function symbols of the guest program, read from the ELF
 * symbol table with libelf, for traces, fault reports and statistics.
 *
 * FUNC (and GNU IFUNC) symbols, and the untyped symbols hand-written
 * assembly leaves at function entries (see code_symbol), are sorted by
 * address; aliases at one address collapse to a single entry (global names beat weak ones, weak
 * beat local, fewer leading underscores beat more); a symbol of size 0
 * extends to the next symbol, but never past the end of its section (so
 * the last one does not swallow every higher address, e.g. shared
 * libraries mapped above the program).
 *
 * The table grows while the program runs: the ELF interpreter and each
 * shared library ld.so maps executable add their symbols (their .symtab,
 * or .dynsym when stripped), relocated by the module's load bias and kept
 * inside its mapped text.  Symbols stay when a module is unmapped: profiles
 * and reports are named at the end of the run, and samples taken while a
 * library was mapped should still get its names.  A later module mapped
 * over the same text replaces them.
 */
#include <fcntl.h>
#include <stdbool.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "symtab.h"

/* A symbol while the table is being built. */
typedef struct raw_sym {
    uint64_t addr, size;
    uint64_t limit;         /* end of the symbol's section                */
    size_t name_off;        /* into the table's string buffer */
    int rank;               /* binding preference: higher wins */
    bool untyped;           /* NOTYPE: a label unless outside every function */
} raw_sym_t;

typedef struct builder {
    raw_sym_t *syms;
    size_t count, cap;
    char *strings;
    size_t str_len, str_cap;
    bool failed;
} builder_t;

static int binding_rank(unsigned bind)
{
    switch (bind) {
    case STB_GLOBAL: return 3;
    case STB_WEAK:   return 2;
    case STB_LOCAL:  return 1;
    default:         return 0;
    }
}

static bool grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t n = *cap ? *cap : 64;
    while (n < need) n *= 2;
    void *q = realloc(*p, n * elem);
    if (!q) return false;
    *p = q;
    *cap = n;
    return true;
}

static void add_symbol(builder_t *b, uint64_t addr, uint64_t size, uint64_t limit, const char *name,
                       int rank, bool untyped)
{
    size_t len = strlen(name) + 1;
    if (!grow((void **)&b->syms, &b->cap, b->count + 1, sizeof *b->syms) ||
        !grow((void **)&b->strings, &b->str_cap, b->str_len + len, 1)) {
        b->failed = true;
        return;
    }
    memcpy(b->strings + b->str_len, name, len);
    b->syms[b->count++] = (raw_sym_t){ addr, size, limit, b->str_len, rank, untyped };
    b->str_len += len;
}

/* Whether section `index` holds instructions. */
static bool code_section(Elf *elf, size_t index)
{
    GElf_Shdr sh;
    Elf_Scn *scn = index < SHN_LORESERVE ? elf_getscn(elf, index) : NULL;
    return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

/* Which symbols name code: FUNC and GNU IFUNC ones, and NOTYPE ones in
 * a code section, which hand-written assembly leaves untyped at function
 * entries (Alpha's division millicode __divq..., sized; crtstuff's
 * __do_global_dtors_aux, Alpha's memset_loop, RISC-V's load_gp, size 0).
 * Mapping symbols ($x, $d) are not names.  An untyped size-0 symbol may
 * still be a label inside a function (Alpha mpn's Loop): drop_inner_labels
 * decides once every symbol is known. */
static bool code_symbol(Elf *elf, const GElf_Sym *s, const char *name, bool *untyped)
{
    unsigned type = GELF_ST_TYPE(s->st_info);
    if (s->st_shndx == SHN_UNDEF || s->st_shndx == SHN_ABS || s->st_value == 0) return false;
    *untyped = type == STT_NOTYPE;
    if (type == STT_FUNC || type == STT_GNU_IFUNC) return true;
    return *untyped && name[0] != '$' && code_section(elf, s->st_shndx);
}

/* End address of section `index` (the limit of its size-0 symbols), or
 * UINT64_MAX when the section is not part of the memory image. */
static uint64_t section_end(Elf *elf, size_t index)
{
    GElf_Shdr sh;
    Elf_Scn *scn = elf_getscn(elf, index);
    if (!scn || !gelf_getshdr(scn, &sh) || !(sh.sh_flags & SHF_ALLOC)) return UINT64_MAX;
    return sh.sh_addr + sh.sh_size;
}

static void read_section(builder_t *b, Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh)
{
    Elf_Data *data = elf_getdata(scn, NULL);
    if (!data || !sh->sh_entsize) return;
    size_t n = sh->sh_size / sh->sh_entsize;
    for (size_t k = 1; k < n && !b->failed; k++) {
        GElf_Sym s;
        bool untyped;
        if (!gelf_getsym(data, (int)k, &s)) continue;
        const char *name = elf_strptr(elf, sh->sh_link, s.st_name);
        if (!name || !*name || !code_symbol(elf, &s, name, &untyped)) continue;
        uint64_t limit = s.st_shndx < SHN_LORESERVE ? section_end(elf, s.st_shndx) : UINT64_MAX;
        /* a typed alias wins over an untyped one */
        int rank = binding_rank(GELF_ST_BIND(s.st_info)) - (untyped ? 4 : 0);
        add_symbol(b, s.st_value, s.st_size, limit, name, rank, untyped);
    }
}

/* Read .symtab, or .dynsym when the file has no .symtab. */
static void read_symbols(builder_t *b, Elf *elf)
{
    for (int pass = 0; pass < 2 && b->count == 0 && !b->failed; pass++) {
        Elf32_Word want = pass == 0 ? SHT_SYMTAB : SHT_DYNSYM;
        for (Elf_Scn *scn = elf_nextscn(elf, NULL); scn; scn = elf_nextscn(elf, scn)) {
            GElf_Shdr sh;
            if (gelf_getshdr(scn, &sh) && sh.sh_type == want)
                read_section(b, elf, scn, &sh);
        }
    }
}

/* Sort by address, preferred alias first, then by name for determinism. */
static const char *sort_strings;

static size_t leading_underscores(const char *name)
{
    size_t n = 0;
    while (name[n] == '_') n++;
    return n;
}

/* Among aliases: the stronger binding, a sized symbol, the public-looking
 * name (malloc before __libc_malloc, printf before _IO_printf), then the
 * name itself. */
static int cmp_raw(const void *pa, const void *pb)
{
    const raw_sym_t *a = pa, *b = pb;
    if (a->addr != b->addr) return a->addr < b->addr ? -1 : 1;
    if (a->rank != b->rank) return a->rank > b->rank ? -1 : 1;
    if ((a->size != 0) != (b->size != 0)) return a->size ? -1 : 1;
    const char *na = sort_strings + a->name_off, *nb = sort_strings + b->name_off;
    size_t ua = leading_underscores(na), ub = leading_underscores(nb);
    if (ua != ub) return ua < ub ? -1 : 1;
    return strcmp(na, nb);
}

/* The extent of size-0 symbol k of the sorted list: up to the next symbol
 * at a higher address or the end of its section, whichever comes first
 * (1 = only its own address, when its section has no known end). */
static uint64_t sized_to_next(const builder_t *b, size_t k)
{
    uint64_t addr = b->syms[k].addr, end = b->syms[k].limit;
    for (size_t j = k + 1; j < b->count; j++)
        if (b->syms[j].addr > addr) {
            if (b->syms[j].addr < end) end = b->syms[j].addr;
            break;
        }
    if (end <= addr) end = UINT64_MAX;       /* symbol outside its section */
    for (size_t j = k + 1; j < b->count && end == UINT64_MAX; j++)
        if (b->syms[j].addr > addr) end = b->syms[j].addr;
    return end == UINT64_MAX ? 1 : end - addr;
}

/* In the sorted raw list, drop the untyped size-0 symbols inside a sized
 * symbol: labels in a function's body, not functions. */
static void drop_inner_labels(builder_t *b)
{
    uint64_t covered_to = 0;            /* end of the sized symbols so far */
    size_t n = 0;
    for (size_t k = 0; k < b->count; k++) {
        const raw_sym_t *s = &b->syms[k];
        if (s->untyped && s->size == 0 && s->addr < covered_to) continue;
        if (s->size && s->addr + s->size > covered_to) covered_to = s->addr + s->size;
        b->syms[n++] = *s;
    }
    b->count = n;
}

/* Turn the sorted raw list into the final table (one entry per address). */
static symtab_t *finish(builder_t *b)
{
    symtab_t *st = calloc(1, sizeof *st);
    if (!st) return NULL;
    st->strings = b->strings;
    b->strings = NULL;
    if (!b->count) return st;
    sort_strings = st->strings;
    qsort(b->syms, b->count, sizeof *b->syms, cmp_raw);
    drop_inner_labels(b);
    st->syms = calloc(b->count, sizeof *st->syms);
    if (!st->syms) { symtab_free(st); return NULL; }
    size_t n = 0;
    for (size_t k = 0; k < b->count; k++) {
        if (n && st->syms[n - 1].addr == b->syms[k].addr) continue;
        uint64_t size = b->syms[k].size;
        if (size == 0) size = sized_to_next(b, k);
        st->syms[n++] = (symbol_t){ b->syms[k].addr, size, st->strings + b->syms[k].name_off };
    }
    st->count = n;
    return st;
}

/* Build the table from an open ELF handle (NULL: an empty table). */
static symtab_t *load_elf(Elf *elf)
{
    builder_t b;
    memset(&b, 0, sizeof b);
    if (elf && elf_kind(elf) == ELF_K_ELF) read_symbols(&b, elf);
    symtab_t *st = b.failed ? NULL : finish(&b);
    free(b.syms);
    free(b.strings);
    return st;
}

symtab_t *symtab_load(const char *path)
{
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    Elf *elf = NULL;
    if (fd >= 0 && elf_version(EV_CURRENT) != EV_NONE) elf = elf_begin(fd, ELF_C_READ, NULL);
    symtab_t *st = load_elf(elf);
    if (elf) elf_end(elf);
    if (fd >= 0) close(fd);
    return st;
}

symtab_t *symtab_load_memory(const void *image, size_t size)
{
    /* libelf takes a writable image; work on a private copy. */
    char *copy = image && size ? malloc(size) : NULL;
    Elf *elf = NULL;
    if (copy) {
        memcpy(copy, image, size);
        if (elf_version(EV_CURRENT) != EV_NONE) elf = elf_memory(copy, size);
    }
    symtab_t *st = load_elf(elf);
    if (elf) elf_end(elf);
    free(copy);
    return st;
}

void symtab_relocate(symtab_t *st, uint64_t bias)
{
    for (size_t k = 0; st && k < st->count; k++) st->syms[k].addr += bias;
}

void symtab_free(symtab_t *st)
{
    if (!st) return;
    free(st->syms);
    free(st->strings);
    free(st);
}

/* ---- merging other modules --------------------------------------------------- */

static bool in_range(uint64_t addr, uint64_t lo, uint64_t hi) { return addr >= lo && addr < hi; }

/* A symbol st keeps when [lo, hi) gets a new module: those outside it, cut
 * at lo when they reach into it (size 0 reaches everything above). */
static bool kept_outside(const symbol_t *s, uint64_t lo, uint64_t hi, symbol_t *out)
{
    if (in_range(s->addr, lo, hi)) return false;
    *out = *s;
    if (s->addr < lo && (s->size == 0 || s->size > lo - s->addr)) out->size = lo - s->addr;
    return true;
}

/* A module symbol moved by bias, if it lands in [lo, hi); its size is
 * clipped to hi. */
static bool relocated_inside(const symbol_t *s, uint64_t bias, uint64_t lo, uint64_t hi,
                             symbol_t *out)
{
    uint64_t addr = s->addr + bias;
    if (!in_range(addr, lo, hi)) return false;
    uint64_t room = hi - addr;
    *out = (symbol_t){ addr, s->size && s->size <= room ? s->size : room, s->name };
    return true;
}

static int cmp_symbol(const void *pa, const void *pb)
{
    const symbol_t *a = pa, *b = pb;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* Copy the names of syms[0..n) into one new buffer and point them there. */
static char *own_names(symbol_t *syms, size_t n)
{
    size_t total = 1;
    for (size_t k = 0; k < n; k++)
        if (syms[k].name) total += strlen(syms[k].name) + 1;
    char *buf = malloc(total), *p = buf;
    if (!buf) return NULL;
    for (size_t k = 0; k < n; k++) {
        if (!syms[k].name) continue;
        size_t len = strlen(syms[k].name) + 1;
        memcpy(p, syms[k].name, len);
        syms[k].name = p;
        p += len;
    }
    *p = 0;
    return buf;
}

/* Merge the address-ordered runs a[0..na) and b[0..nb) into out; their
 * addresses are distinct (a's lie outside [lo, hi), b's inside). */
static void merge_runs(const symbol_t *a, size_t na, const symbol_t *b, size_t nb, symbol_t *out)
{
    size_t i = 0, j = 0, n = 0;
    while (i < na && j < nb) out[n++] = a[i].addr < b[j].addr ? a[i++] : b[j++];
    while (i < na) out[n++] = a[i++];
    while (j < nb) out[n++] = b[j++];
}

static bool ordered(const symbol_t *s, size_t n)
{
    for (size_t k = 1; k < n; k++)
        if (s[k - 1].addr >= s[k].addr) return false;
    return true;
}

bool symtab_merge(symtab_t *st, const symtab_t *module, uint64_t bias, uint64_t lo, uint64_t hi)
{
    if (!st || lo >= hi) return true;
    size_t extra = module ? module->count : 0, cap = st->count + extra, n = 0, kept;
    symbol_t *syms = malloc((cap ? cap : 1) * sizeof *syms);
    symbol_t *runs = malloc((cap ? cap : 1) * sizeof *runs);
    if (!syms || !runs) { free(syms); free(runs); return false; }
    for (size_t k = 0; k < st->count; k++)
        if (kept_outside(&st->syms[k], lo, hi, &runs[n])) n++;
    kept = n;
    for (size_t k = 0; k < extra; k++)
        if (relocated_inside(&module->syms[k], bias, lo, hi, &runs[n])) n++;
    /* Both tables are sorted and a bias keeps a module's order, so one merge
     * sorts them (the sort that did this was most of the start-up's symbol
     * work); a run out of order (an address wrapped by the bias) is sorted. */
    if (ordered(runs, kept) && ordered(runs + kept, n - kept))
        merge_runs(runs, kept, runs + kept, n - kept, syms);
    else {
        memcpy(syms, runs, n * sizeof *syms);
        qsort(syms, n, sizeof *syms, cmp_symbol);    /* addresses are unique */
    }
    free(runs);
    char *strings = own_names(syms, n);
    if (!strings) { free(syms); return false; }
    free(st->syms);
    free(st->strings);
    st->syms = syms;
    st->count = n;
    st->strings = strings;
    return true;
}

typedef symtab_text_t module_text_t;

static bool load_header(Elf *elf, size_t k, GElf_Phdr *ph)
{
    return gelf_getphdr(elf, (int)k, ph) && ph->p_type == PT_LOAD;
}

/* The executable PT_LOAD segments of elf, moved by t->bias and limited to
 * [from, to), as t's [lo, hi); false when none is left. */
static bool find_text(Elf *elf, size_t phnum, uint64_t from, uint64_t to, module_text_t *t)
{
    t->lo = UINT64_MAX;
    t->hi = 0;
    for (size_t k = 0; k < phnum; k++) {
        GElf_Phdr ph;
        if (!load_header(elf, k, &ph) || !(ph.p_flags & PF_X) || !ph.p_memsz) continue;
        uint64_t start = ph.p_vaddr + t->bias, end = start + ph.p_memsz;
        if (end < start) end = UINT64_MAX;
        if (start < from) start = from;
        if (end > to) end = to;
        if (start >= end) continue;
        if (start < t->lo) t->lo = start;
        if (end > t->hi) t->hi = end;
    }
    return t->lo < t->hi;
}

/* The bias of a file mapped at addr from offset off for len bytes: the
 * first PT_LOAD segment whose file data starts inside the mapping is where
 * the ELF program headers say it is, plus the bias. */
static bool mapping_bias(Elf *elf, size_t phnum, uint64_t addr, uint64_t len, uint64_t off,
                         uint64_t *bias)
{
    bool found = false;
    uint64_t first = 0;
    for (size_t k = 0; k < phnum; k++) {
        GElf_Phdr ph;
        if (!load_header(elf, k, &ph) || ph.p_offset < off || ph.p_offset - off >= len) continue;
        if (found && ph.p_offset >= first) continue;
        found = true;
        first = ph.p_offset;
        *bias = addr + (ph.p_offset - off) - ph.p_vaddr;
    }
    return found;
}

/* Read elf's symbols and merge the ones inside t. */
static bool merge_module(symtab_t *st, Elf *elf, const module_text_t *t)
{
    symtab_t *module = load_elf(elf);
    if (!module) return false;
    bool ok = symtab_merge(st, module, t->bias, t->lo, t->hi);
    symtab_free(module);
    return ok;
}

/* An ELF handle on fd (ELF_C_READ_MMAP reads with mmap or pread, so the
 * descriptor's file offset does not move), or NULL when fd is no ELF. */
static Elf *open_elf(int fd, size_t *phnum)
{
    if (fd < 0 || elf_version(EV_CURRENT) == EV_NONE) return NULL;
    Elf *elf = elf_begin(fd, ELF_C_READ_MMAP, NULL);
    if (elf && elf_kind(elf) == ELF_K_ELF && elf_getphdrnum(elf, phnum) == 0) return elf;
    if (elf) elf_end(elf);
    return NULL;
}

bool symtab_add_loaded_file(symtab_t *st, const char *path, uint64_t bias)
{
    int fd = st && path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    size_t phnum = 0;
    Elf *elf = open_elf(fd, &phnum);
    module_text_t t = { .bias = bias };
    bool ok = true;
    if (elf && find_text(elf, phnum, 0, UINT64_MAX, &t)) ok = merge_module(st, elf, &t);
    if (elf) elf_end(elf);
    if (fd >= 0) close(fd);
    return ok;
}

bool symtab_add_mapped_file(symtab_t *st, int fd, uint64_t addr, uint64_t len, uint64_t off)
{
    if (!st || !len) return true;
    size_t phnum = 0;
    Elf *elf = open_elf(fd, &phnum);
    if (!elf) return true;
    module_text_t t = { 0 };
    uint64_t end = addr + len < addr ? UINT64_MAX : addr + len;
    bool ok = true;
    if (mapping_bias(elf, phnum, addr, len, off, &t.bias) && find_text(elf, phnum, addr, end, &t))
        ok = merge_module(st, elf, &t);
    elf_end(elf);
    return ok;
}

/* ---- lookups -------------------------------------------------------------------- */

static bool contains(const symbol_t *s, uint64_t addr)
{
    return addr >= s->addr && (s->size == 0 || addr - s->addr < s->size);
}

const symbol_t *symtab_lookup(const symtab_t *st, uint64_t addr)
{
    if (!st || !st->count || addr < st->syms[0].addr) return NULL;
    size_t lo = 0, hi = st->count;          /* last symbol with addr <= target */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (st->syms[mid].addr <= addr) lo = mid;
        else hi = mid;
    }
    /* A small nested symbol may precede addr inside a larger enclosing one. */
    for (size_t k = lo + 1, tries = 0; k-- > 0 && tries < 8; tries++)
        if (contains(&st->syms[k], addr)) return &st->syms[k];
    return NULL;
}

const char *symtab_format(const symtab_t *st, uint64_t addr, char *buf, size_t len)
{
    if (!buf || !len) return buf;
    const symbol_t *s = symtab_lookup(st, addr);
    if (!s) snprintf(buf, len, "0x%" PRIx64, addr);
    else if (addr == s->addr) snprintf(buf, len, "%s", s->name);
    else snprintf(buf, len, "%s+0x%" PRIx64, s->name, addr - s->addr);
    return buf;
}

/* ---- where a module's text lies ----------------------------------------------------- */

bool symtab_text_of_loaded_file(const char *path, uint64_t bias, symtab_text_t *t)
{
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    size_t phnum = 0;
    Elf *elf = open_elf(fd, &phnum);
    *t = (symtab_text_t){ .bias = bias };
    bool found = elf && find_text(elf, phnum, 0, UINT64_MAX, t);
    if (elf) elf_end(elf);
    if (fd >= 0) close(fd);
    return found;
}

bool symtab_text_of_mapping(int fd, uint64_t addr, uint64_t len, uint64_t off, symtab_text_t *t)
{
    size_t phnum = 0;
    Elf *elf = len ? open_elf(fd, &phnum) : NULL;
    if (!elf) return false;
    uint64_t end = addr + len < addr ? UINT64_MAX : addr + len;
    *t = (symtab_text_t){ 0 };
    bool found = mapping_bias(elf, phnum, addr, len, off, &t->bias) &&
                 find_text(elf, phnum, addr, end, t);
    elf_end(elf);
    return found;
}

size_t symtab_read_code(const char *path, uint64_t addr, uint8_t *buf, size_t len)
{
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    size_t phnum = 0, got = 0;
    Elf *elf = open_elf(fd, &phnum);
    for (size_t k = 0; elf && k < phnum && got < len; k++) {
        GElf_Phdr ph;
        uint64_t a = addr + got;
        if (!load_header(elf, k, &ph) || a < ph.p_vaddr || a - ph.p_vaddr >= ph.p_filesz) continue;
        uint64_t left = ph.p_filesz - (a - ph.p_vaddr);
        size_t want = len - got < left ? len - got : (size_t)left;
        ssize_t n = pread(fd, buf + got, want, (off_t)(ph.p_offset + a - ph.p_vaddr));
        if (n <= 0) break;
        got += (size_t)n;
        k = (size_t)-1;                       /* the rest may be in another segment */
    }
    if (elf) elf_end(elf);
    if (fd >= 0) close(fd);
    return got;
}
