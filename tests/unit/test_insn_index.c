/*
 * test_insn_index.c - unit tests of the decoders' opcode index
 * (sim/isa/insn_index.h): through the index, every word finds the same row
 * as a scan of the whole table in order, for both ISAs' tables and for a
 * small table whose rows leave opcode bits open or overlap.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "insn_index.h"
#include "isa.h"
#include "util.h"

/* The first row of table[0..n) that fits w, by a scan of the whole table. */
static const insn_def_t *scan_table(const insn_def_t *table, size_t n, uint32_t w)
{
    for (size_t k = 0; k < n; k++)
        if ((w & table[k].mask) == table[k].match) return &table[k];
    return NULL;
}

/* Every row's match, with its don't-care bits random, and random words:
 * the index finds what the scan finds; returns how many words matched a
 * row (so a test can check that it tried legal words, not only illegal). */
static unsigned check_table(const insn_def_t *table, size_t n, unsigned shift,
                            unsigned key_bits)
{
    insn_index_t ix;
    insn_index_build(&ix, table, n, shift, key_bits);
    uint64_t rng = 0x9e3779b9u;
    unsigned matched = 0;
    for (size_t k = 0; k < n; k++)
        for (int r = 0; r < 64; r++) {
            uint32_t w = table[k].match | ((uint32_t)splitmix64_next(&rng) & ~table[k].mask);
            const insn_def_t *want = scan_table(table, n, w);
            assert_ptr_equal(insn_index_find(&ix, w), want);
            matched += want != NULL;
        }
    for (int r = 0; r < 200000; r++) {
        uint32_t w = (uint32_t)splitmix64_next(&rng);
        assert_ptr_equal(insn_index_find(&ix, w), scan_table(table, n, w));
    }
    free(ix.first);
    free(ix.rows);
    return matched;
}

static void rv64_table_through_index(void **state)
{
    (void)state;
    unsigned matched = check_table(isa_rv64.table, isa_rv64.table_size, 0, 7);
    assert_true(matched >= 64 * isa_rv64.table_size / 2);
}

static void alpha_table_through_index(void **state)
{
    (void)state;
    unsigned matched = check_table(isa_alpha.table, isa_alpha.table_size, 26, 6);
    assert_true(matched >= 64 * isa_alpha.table_size / 2);
}

/* Rows that fix only some opcode bits, or none, listed under every opcode
 * they allow, and overlapping rows, the first in table order winning. */
static void open_opcode_bits_and_overlaps(void **state)
{
    (void)state;
    static const insn_def_t table[] = {
        { "narrow", 0xffff00ffu, 0x12340005u, 0, 0, 0, 0, NULL },
        { "opcode5", 0x000000ffu, 0x00000005u, 0, 0, 0, 0, NULL },
        { "odd", 0x00000001u, 0x00000001u, 0, 0, 0, 0, NULL },  /* opcode bit 0 only */
        { "any", 0x80000000u, 0x80000000u, 0, 0, 0, 0, NULL },  /* no opcode bit */
    };
    check_table(table, 4, 0, 7);
    insn_index_t ix;
    insn_index_build(&ix, table, 4, 0, 7);
    assert_ptr_equal(insn_index_find(&ix, 0x12340005u), &table[0]);
    assert_ptr_equal(insn_index_find(&ix, 0x00000005u), &table[1]);
    assert_ptr_equal(insn_index_find(&ix, 0x00000007u), &table[2]);
    assert_ptr_equal(insn_index_find(&ix, 0x80000006u), &table[3]);
    assert_null(insn_index_find(&ix, 0x00000006u));
    free(ix.first);
    free(ix.rows);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rv64_table_through_index),
        cmocka_unit_test(alpha_table_through_index),
        cmocka_unit_test(open_opcode_bits_and_overlaps),
    };
    return cmocka_run_group_tests_name("test_insn_index", tests, NULL, NULL);
}
