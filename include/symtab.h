/*
 * symtab.h - function symbols of the guest program, from the ELF symbol
 * table, for traces, fault reports and the method-level statistics.
 */
#ifndef HPS_SYMTAB_H
#define HPS_SYMTAB_H

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
/* Symbol containing addr (addr in [sym, sym+size), or the nearest preceding
 * symbol when sizes are 0), or NULL. */
const symbol_t *symtab_lookup(const symtab_t *st, uint64_t addr);
/* "name+0xoff" or "0xaddr" into buf; returns buf. */
const char *symtab_format(const symtab_t *st, uint64_t addr, char *buf, size_t len);

#endif /* HPS_SYMTAB_H */
