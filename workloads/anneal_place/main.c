/* main.c - driver of the anneal_place workload (twolf/vpr-like).
 *
 * Usage: anneal_place [test|train|ref]
 * Generates a clustered netlist, anneals a placement of it on a row grid,
 * verifies that the incrementally maintained cost equals a from-scratch
 * recomputation, and checks the final cost against the known value. */
#include "place.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    int ncells;
    int inner_q8;
    int max_temps;
    int64_t expect_cost;
    uint64_t expect_sig;
} SizeSpec;

static const SizeSpec sizes[] = {
    {"test", 300, 12, 400, 1388640, 0xbde9a5511051c651ULL},
    {"train", 2000, 8, 400, 22542308, 0xb64311b5f00f6b53ULL},
    {"ref", 12000, 6, 400, 287127042, 0x74def85a244be755ULL},
};

static const SizeSpec *parse_size(int argc, char **argv)
{
    const char *want = argc > 1 ? argv[1] : "test";
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(want, sizes[i].name) == 0)
            return &sizes[i];
    fprintf(stderr, "usage: %s [test|train|ref]\n", argv[0]);
    exit(2);
}

static void grid_shape(int ncells, int *cols, int *rows)
{
    /* ~85% utilisation, rows about a quarter as many as sites per row */
    int slots = ncells + ncells * 18 / 100;
    int r = 1;
    while ((r + 1) * (r + 1) * 4 <= slots)
        r++;
    *rows = r;
    *cols = (slots + r - 1) / r;
}

int main(int argc, char **argv)
{
    const SizeSpec *sz = parse_size(argc, argv);
    Netlist nl;
    NetGenParams gp = {sz->ncells, 24, 3, 0x5eed0001ULL + (uint64_t)sz->ncells};
    netlist_generate(&nl, &gp);
    timing_levelize(&nl);

    int cols, rows;
    grid_shape(nl.ncells, &cols, &rows);
    Placement pl;
    place_init(&pl, &nl, cols, rows);

    AnnealParams ap = {sz->inner_q8, sz->max_temps, 0xa11ea1ULL};
    AnnealStats st;
    memset(&st, 0, sizeof st);
    anneal_run(&pl, &ap, &st);

    TimingReport tr;
    timing_analyze(&pl, &tr);
    int64_t recomputed = place_recompute_cost(&pl);
    uint64_t sig = place_signature(&pl) ^ st.trace;

    printf("anneal_place %s: %d cells, %d nets, %d pins, grid %dx%d\n", sz->name,
           nl.ncells, nl.nnets, nl.npins_total, cols, rows);
    printf("  cost %" PRId64 " -> %" PRId64 " after %d temperatures, %" PRIu64
           " moves (%" PRIu64 " accepted)\n",
           st.initial_cost, st.final_cost, st.temps, st.moves, st.accepted);
    printf("  critical path %" PRId64 " over %d levels, total slack %" PRId64 "\n",
           tr.critical_delay, tr.nlevels, tr.total_slack_q0);
    printf("  netlist %016" PRIx64 " placement %016" PRIx64 "\n",
           netlist_signature(&nl), sig);

    int bad = 0;
    if (recomputed != st.final_cost) {
        fprintf(stderr, "anneal_place: recomputed cost %" PRId64 " != incremental %" PRId64 "\n",
                recomputed, st.final_cost);
        bad = 1;
    }
    if (st.final_cost >= st.initial_cost) {
        fprintf(stderr, "anneal_place: annealing did not improve the cost\n");
        bad = 1;
    }
    if (st.final_cost != sz->expect_cost || sig != sz->expect_sig) {
        fprintf(stderr, "anneal_place: result differs from the known value (cost %" PRId64
                ", sig %016" PRIx64 ")\n", sz->expect_cost, sz->expect_sig);
        bad = 1;
    }
    place_free(&pl);
    free(nl.net_order);
    netlist_free(&nl);
    if (bad)
        return 1;
    printf("self-check OK (%d consistency checks)\n", st.checks);
    return 0;
}
