/*
 * insn_index.h - a decoder's index of its instruction table by major
 * opcode.  Both ISAs decode a word by the first table row whose mask and
 * match fit it; scanning the whole table costs hundreds of host
 * instructions a word, which decoding a whole image (the static call-site
 * count) or much fresh code pays many times over.  The index lists, for
 * each value of the opcode field, the rows a word with that opcode can
 * match, in table order, so the first fit found through it is the table's.
 */
#ifndef HPS_INSN_INDEX_H
#define HPS_INSN_INDEX_H

#include <stddef.h>
#include <stdint.h>

#include "isa.h"

typedef struct insn_index {
    const insn_def_t *table;
    unsigned shift, keys;        /* opcode field: (word >> shift) & (keys - 1) */
    uint32_t *first;             /* keys + 1 offsets into rows                 */
    uint16_t *rows;              /* row numbers, by opcode, in table order     */
} insn_index_t;

/* Index table[0..n) by the opcode field of key_bits bits at bit shift.  A row
 * whose mask leaves some opcode bit open is listed under every opcode its
 * match allows.  Built once; kept for the process. */
void insn_index_build(insn_index_t *ix, const insn_def_t *table, size_t n,
                      unsigned shift, unsigned key_bits);

/* The first row of the table that fits word, or NULL. */
static inline const insn_def_t *insn_index_find(const insn_index_t *ix, uint32_t word)
{
    unsigned key = (word >> ix->shift) & (ix->keys - 1);
    for (unsigned k = ix->first[key]; k < ix->first[key + 1]; k++) {
        const insn_def_t *d = &ix->table[ix->rows[k]];
        if ((word & d->mask) == d->match) return d;
    }
    return NULL;
}

#endif
