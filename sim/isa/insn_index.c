/*
 * insn_index.c - builds a decoder's opcode index of its instruction table
 * (insn_index.h): for each opcode value, the rows whose match agrees with
 * it on the opcode bits their mask fixes, in table order.
 */
#include "insn_index.h"

#include "util.h"

static bool row_allows(const insn_def_t *d, unsigned key, unsigned shift, unsigned keys)
{
    uint32_t fixed = (d->mask >> shift) & (keys - 1);
    return (key & fixed) == ((d->match >> shift) & fixed);
}

void insn_index_build(insn_index_t *ix, const insn_def_t *table, size_t n,
                      unsigned shift, unsigned key_bits)
{
    unsigned keys = 1u << key_bits;
    ix->table = table;
    ix->shift = shift;
    ix->keys = keys;
    ix->first = xcalloc(keys + 1, sizeof *ix->first);
    ix->rows = xcalloc(keys * n + 1, sizeof *ix->rows);   /* at most every row per key */
    size_t at = 0;
    for (unsigned key = 0; key < keys; key++) {
        ix->first[key] = (uint32_t)at;
        for (size_t k = 0; k < n; k++)
            if (row_allows(&table[k], key, shift, keys)) ix->rows[at++] = (uint16_t)k;
    }
    ix->first[keys] = (uint32_t)at;
}
