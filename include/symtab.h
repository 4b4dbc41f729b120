/*
 * symtab.h - function symbols of the guest program, from the ELF symbol
 * table, for traces, fault reports and the method-level statistics.
 *
 * One table covers the whole process: the executable's symbols, then, for
 * a dynamically linked program, those of the ELF interpreter and of every
 * shared library mapped executable, each relocated by its load bias
 * (symtab_merge, symtab_add_loaded_file, symtab_add_mapped_file).
 */
#ifndef HPS_SYMTAB_H
#define HPS_SYMTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct symbol {
    uint64_t addr, size;
    const char *name;
} symbol_t;

typedef struct symtab {
    symbol_t *syms;     /* FUNC symbols sorted by address, duplicates removed */
    size_t count;
    char *strings;      /* owns the names */
} symtab_t;

/* Load FUNC symbols from the ELF file; an ELF without .symtab gives an empty
 * table (not an error).  Returns NULL only on allocation failure. */
symtab_t *symtab_load(const char *path);
/* The same from an ELF image in memory (the embedded handler runtime). */
symtab_t *symtab_load_memory(const void *image, size_t size);
/* Add a load bias to every address (static-pie images: img.load_bias). */
void symtab_relocate(symtab_t *st, uint64_t bias);
void symtab_free(symtab_t *st);

/* Add the symbols of another module (a table loaded from its ELF, at its
 * link-time addresses) loaded at `bias`: only those landing in [lo, hi),
 * the module's mapped text, with sizes clipped to hi.  Whatever st had in
 * [lo, hi) is dropped first (the module mapped last names a range, so
 * mapping a library again or over another one leaves no duplicates), and
 * an older symbol reaching into [lo, hi) is cut at lo.  st stays sorted;
 * its symbol array and string buffer are rebuilt, so symbol_t pointers and
 * names taken from st before are invalid afterwards.  false (st unchanged)
 * on allocation failure. */
bool symtab_merge(symtab_t *st, const symtab_t *module, uint64_t bias, uint64_t lo, uint64_t hi);
/* Merge the symbols of the ELF file at path, loaded whole at `bias` (the
 * ELF interpreter the loader mapped): its executable PT_LOAD segments are
 * the text.  A missing or non-ELF file adds nothing.  false only on
 * allocation failure. */
bool symtab_add_loaded_file(symtab_t *st, const char *path, uint64_t bias);
/* Merge the symbols of the ELF file open on fd, mapped executable at
 * [addr, addr + len) from file offset off (a shared library's text mapped
 * by ld.so).  The load bias comes from the first PT_LOAD segment starting
 * inside the mapped part of the file; the text is the executable segments'
 * part of the mapping.  Not an ELF, or no executable segment in the
 * mapping: nothing is added.  The file offset of fd is not moved.  false
 * only on allocation failure. */
bool symtab_add_mapped_file(symtab_t *st, int fd, uint64_t addr, uint64_t len, uint64_t off);
/* Where a module's text lies in the guest: its load bias (guest address
 * minus the ELF's virtual address) and the range [lo, hi) of its
 * executable segments -- for the ELF file at path loaded whole at bias, or
 * for the part of the file on fd mapped at [addr, addr + len) from offset
 * off (the bias as symtab_add_mapped_file finds it).  false when the file
 * is no ELF or has no executable segment there. */
typedef struct symtab_text {
    uint64_t bias, lo, hi;
} symtab_text_t;
bool symtab_text_of_loaded_file(const char *path, uint64_t bias, symtab_text_t *t);
bool symtab_text_of_mapping(int fd, uint64_t addr, uint64_t len, uint64_t off, symtab_text_t *t);

/* Read len bytes of the ELF file at path at its virtual address addr (from
 * its PT_LOAD segments' file data).  Returns how many could be read. */
size_t symtab_read_code(const char *path, uint64_t addr, uint8_t *buf, size_t len);

/* Symbol containing addr (addr in [sym, sym+size), or the nearest preceding
 * symbol when sizes are 0), or NULL. */
const symbol_t *symtab_lookup(const symtab_t *st, uint64_t addr);
/* "name+0xoff" or "0xaddr" into buf; returns buf. */
const char *symtab_format(const symtab_t *st, uint64_t addr, char *buf, size_t len);

#endif /* HPS_SYMTAB_H */
