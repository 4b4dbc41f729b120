/*
 * test_acf_table.c - the ACF's per-PC tables (dise/README.md, "Per-PC
 * tables"; PP on DISE): rows sorted by pc with missing values 0, the
 * pattern `T.PC in table NAME`, the operand NAME[k], the printout parsing
 * back to the same program, a parameter followed by a [role] prefix still
 * being a parameter, and the errors (a pc twice, a table used before it is
 * defined, too many values, a column past the last).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acf_check.h"
#include "dise.h"
#include "isa.h"

static const dise_env_t env = { &isa_rv64, NULL };

static dise_program_t *parse(const char *text, char *err, size_t errlen)
{
    return acf_parse_string("t.acf", text, &env, err, errlen);
}

static void test_table_parse_and_print(void **state)
{
    (void)state;
    char err[512];
    dise_program_t *p = parse("param k = 3\n"
                              "table T [0x2000: 5 -6 7; 0x1000: 1; 0x3000:]\n"
                              "P: T.PC in table T => R\n"
                              "R [check]: mov d1, T[0]; add d2, d2, T[2]; sub d3, d3, k\n"
                              "  [basic] mov d4, T[23]; T.INSN\n", err, sizeof err);
    if (!p) fail_msg("%s", err);
    assert_true(acf_invariants(p));
    assert_int_equal(p->ntables, 1);
    const dise_table_t *t = &p->tables[0];
    assert_int_equal(t->nrows, 3);
    assert_int_equal(t->pcs[0], 0x1000);
    assert_int_equal(t->pcs[2], 0x3000);
    const int64_t *row = dise_table_row(t, 0x2000);
    assert_non_null(row);
    assert_int_equal(row[1], -6);
    assert_int_equal(row[3], 0);
    assert_null(dise_table_row(t, 0x2004));
    assert_int_equal(dise_table_row(t, 0x3000)[0], 0);
    assert_int_equal(p->nodes[p->prods[0].pattern].kind, PX_IN_TABLE);
    assert_int_equal(p->rt[0].src, SRC_TABLE);
    assert_int_equal(p->rt[1].value, 2);
    assert_int_equal(p->rt[2].src, SRC_PARAM);
    assert_int_equal(p->rt[3].value, DISE_TABLE_COLS - 1);
    assert_true(acf_round_trip(p, &env));
    dise_program_free(p);
}

static void expect_error(const char *text, const char *want)
{
    char err[512];
    dise_program_t *p = parse(text, err, sizeof err);
    if (p) {
        dise_program_free(p);
        fail_msg("no error for: %s", text);
    }
    if (!strstr(err, want)) fail_msg("want '%s' in: %s", want, err);
}

static void test_table_errors(void **state)
{
    (void)state;
    expect_error("table T [1: 2; 1: 3]\n", "two rows for pc 0x1");
    expect_error("P: T.PC in table U => null\n", "the name of a table defined before it");
    expect_error("table T [1: 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24]\n",
                 "more than 24 values");
    expect_error("table T [1: 2]\nP: T.PC in table T => R\nR: mov d1, T[24]; T.INSN\n",
                 "column 24 of table T");
    expect_error("table T [1: 2]\ntable T [3: 4]\n", "already defined");
    expect_error("table T [1 2]\n", "':' after the row's pc");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_parse_and_print),
        cmocka_unit_test(test_table_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
