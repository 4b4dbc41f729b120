/*
 * test_pathnum.c - Ball-Larus path numbering (dcpi/pathnum.c) on hand-made
 * CFGs: the paper's Figure 1 (six paths), a chain of diamonds, a loop (its
 * back edge cut into ENTRY->head and tail->EXIT), a loop whose head is the
 * entry block, a switch through an indirect jump with known targets (as
 * PP's EEL knows them) and with unknown ones (the jump ends a path, each
 * landing starts one), parallel edges.  For each, every ENTRY->EXIT path
 * of the transformed graph is enumerated independently: the path sums
 * must be exactly 0..NP(ENTRY)-1, and regenerating each sum must give back
 * the path's blocks.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <string.h>

#include "pathnum.h"

#define E CFG_ENTRY
#define X CFG_EXIT
#define MAXP 64

typedef struct found {
    size_t n;
    uint64_t sum[MAXP];
    int blocks[MAXP][16];
    size_t len[MAXP];
} found_t;

/* Every path from block v with sum so far, its blocks in path[0..len). */
static void walk(const bl_number_t *b, int v, uint64_t sum, int *path, size_t len, found_t *f)
{
    path[len++] = v;
    for (size_t k = 0; k < b->nedges; k++) {
        const bl_edge_t *e = &b->edges[k];
        if (e->from != v || e->back) continue;
        if (e->to == X) {
            assert_true(f->n < MAXP);
            f->sum[f->n] = sum + e->val;
            memcpy(f->blocks[f->n], path, len * sizeof *path);
            f->len[f->n++] = len;
        } else {
            walk(b, e->to, sum + e->val, path, len, f);
        }
    }
    if (b->exit_val[v] != BL_NONE) {
        assert_true(f->n < MAXP);
        f->sum[f->n] = sum + b->exit_val[v];
        memcpy(f->blocks[f->n], path, len * sizeof *path);
        f->len[f->n++] = len;
    }
}

/* Number the graph, check the sums are 0..npaths-1 and regenerate. */
static void check_graph(const cfg_edge_t *edges, size_t ne, int nb, const int *land, size_t nl,
                        uint64_t want_paths, bl_number_t *out)
{
    assert_true(bl_number(nb, edges, ne, land, nl, out));
    assert_false(out->overflow);
    assert_int_equal(out->npaths, want_paths);
    found_t f = { 0 };
    int path[16];
    if (out->entry_val != BL_NONE) walk(out, 0, out->entry_val, path, 0, &f);
    for (int w = 0; w < nb; w++)
        if (out->start_val[w] != BL_NONE) walk(out, w, out->start_val[w], path, 0, &f);
    assert_int_equal(f.n, want_paths);
    bool seen[MAXP] = { false };
    for (size_t k = 0; k < f.n; k++) {
        assert_true(f.sum[k] < want_paths);
        assert_false(seen[f.sum[k]]);
        seen[f.sum[k]] = true;
        int blocks[16];
        bool ps, pe;
        size_t len = bl_regenerate(out, f.sum[k], blocks, 16, &ps, &pe);
        assert_int_equal(len, f.len[k]);
        assert_memory_equal(blocks, f.blocks[k], len * sizeof *blocks);
    }
    int blocks[16];
    bool ps, pe;
    assert_int_equal(bl_regenerate(out, want_paths, blocks, 16, &ps, &pe), 0);
}

static void test_figure1(void **state)
{
    (void)state;                        /* A=0 B=1 C=2 D=3 E=4 F=5 */
    const cfg_edge_t g[] = { { E, 0, 0 }, { 0, 1, 0 }, { 0, 2, 0 }, { 1, 2, 0 }, { 1, 3, 0 },
                             { 2, 3, 0 }, { 3, 4, 0 }, { 3, 5, 0 }, { 4, 5, 0 }, { 5, X, 0 } };
    bl_number_t b;
    check_graph(g, sizeof g / sizeof *g, 6, NULL, 0, 6, &b);
    assert_int_equal(b.np[0], 6);
    assert_int_equal(b.np[3], 2);
    bl_number_free(&b);
}

static void test_diamond_chain(void **state)
{
    (void)state;                        /* three diamonds in a row: 2^3 paths */
    const cfg_edge_t g[] = { { E, 0, 0 }, { 0, 1, 0 }, { 0, 2, 0 }, { 1, 3, 0 }, { 2, 3, 0 },
                             { 3, 4, 0 }, { 3, 5, 0 }, { 4, 6, 0 }, { 5, 6, 0 },
                             { 6, 7, 0 }, { 6, 8, 0 }, { 7, 9, 0 }, { 8, 9, 0 }, { 9, X, 0 } };
    bl_number_t b;
    check_graph(g, sizeof g / sizeof *g, 10, NULL, 0, 8, &b);
    for (size_t k = 0; k < b.nedges; k++) assert_false(b.edges[k].back);
    bl_number_free(&b);
}

static void test_loop(void **state)
{
    (void)state;                        /* 0 -> head 1 -> body 2 -> 1; 1 -> 3 -> EXIT */
    const cfg_edge_t g[] = { { E, 0, 0 }, { 0, 1, 0 }, { 1, 2, 0 }, { 2, 1, 0 }, { 1, 3, 0 },
                             { 3, X, 0 } };
    bl_number_t b;
    check_graph(g, sizeof g / sizeof *g, 4, NULL, 0, 4, &b);
    assert_true(bl_edge(&b, 2, 1)->back);
    assert_int_not_equal(b.start_val[1], BL_NONE);
    assert_int_not_equal(b.exit_val[2], BL_NONE);
    assert_int_equal(b.start_val[0], BL_NONE);
    bl_number_free(&b);
}

static void test_entry_is_loop_head(void **state)
{
    (void)state;                        /* 0 -> 0 and 0 -> EXIT */
    const cfg_edge_t g[] = { { E, 0, 0 }, { 0, 0, 0 }, { 0, X, 0 } };
    bl_number_t b;
    check_graph(g, sizeof g / sizeof *g, 1, NULL, 0, 4, &b);
    assert_int_not_equal(b.entry_val, b.start_val[0]);
    bl_number_free(&b);
}

static void test_switch_known_targets(void **state)
{
    (void)state;                        /* the jump's targets as edges (EEL) */
    const cfg_edge_t g[] = { { E, 0, 0 }, { 0, 1, 0 }, { 0, 2, 0 }, { 0, 3, 0 }, { 1, 4, 0 },
                             { 2, 4, 0 }, { 3, 4, 0 }, { 4, X, 0 } };
    bl_number_t b;
    check_graph(g, sizeof g / sizeof *g, 5, NULL, 0, 3, &b);
    bl_number_free(&b);
}

static void test_switch_landings(void **state)
{
    (void)state;                        /* the jump goes to EXIT; 1, 2, 3 are landings */
    const cfg_edge_t g[] = { { E, 0, 0 }, { 0, X, 0 }, { 1, 4, 0 }, { 2, 4, 0 }, { 3, 4, 0 },
                             { 4, X, 0 } };
    const int land[] = { 1, 2, 3 };
    bl_number_t b;
    check_graph(g, sizeof g / sizeof *g, 5, land, 3, 4, &b);
    for (int w = 1; w <= 3; w++) assert_int_not_equal(b.start_val[w], BL_NONE);
    bl_number_free(&b);
}

static void test_parallel_edges(void **state)
{
    (void)state;                        /* a branch whose target is its fall-through */
    const cfg_edge_t g[] = { { E, 0, 0 }, { 0, 1, 0 }, { 0, 1, 0 }, { 1, X, 0 } };
    bl_number_t b;
    check_graph(g, sizeof g / sizeof *g, 2, NULL, 0, 1, &b);
    assert_int_equal(b.nedges, 3);
    bl_number_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_figure1),
        cmocka_unit_test(test_diamond_chain),
        cmocka_unit_test(test_loop),
        cmocka_unit_test(test_entry_is_loop_head),
        cmocka_unit_test(test_switch_known_targets),
        cmocka_unit_test(test_switch_landings),
        cmocka_unit_test(test_parallel_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
