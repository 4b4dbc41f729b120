/*
 * main.c - driver for the netflow workload: builds the vehicle scheduling
 * network for the chosen size, alternates network simplex solves with
 * column generation until no implicit arc prices out, verifies optimality
 * and compares the optimal cost with the known value for that size.
 */
#include <stdio.h>
#include <string.h>
#include "flow.h"

typedef struct {
    const char *name;
    int trips, stops, initial_per_trip, max_new, list_size, block;
    cost_t expect_cost;           /* known optimum, 0 = not recorded */
} size_cfg_t;

static const size_cfg_t sizes[] = {
    { "test",    300,  60, 4,  4000,  60,  400,  420032 },
    { "train",   950, 100, 4, 15000, 100,  800, 1156535 },
    { "ref",    2300, 160, 4, 40000, 150, 1500, 2618554 },
};

static const size_cfg_t *pick_size(int argc, char **argv)
{
    const char *want = argc > 1 ? argv[1] : "test";
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        if (strcmp(sizes[i].name, want) == 0)
            return &sizes[i];
    return NULL;
}

int main(int argc, char **argv)
{
    const size_cfg_t *cfg = pick_size(argc, argv);
    if (!cfg) {
        fprintf(stderr, "usage: %s [test|train|ref]\n", argv[0]);
        return 2;
    }
    timetable_t tt;
    network_t net;
    timetable_generate(&tt, cfg->trips, cfg->stops, 0x3CF0A11Full);
    model_build(&net, &tt, cfg->initial_per_trip);
    tree_init(&net);
    int initial_arcs = net.narcs;
    pricer_t *pr = pricer_new(cfg->list_size, cfg->block);
    simplex_stats_t st = { 0 };
    uint64_t examined = 0;
    int rounds = 0, status = 0;
    for (;;) {
        rounds++;
        status = simplex_solve(&net, pr, &st);
        if (status)
            break;
        if (price_out_implicit(&net, &tt, cfg->max_new, &examined) == 0)
            break;
    }
    solution_t sol = { 0 };
    int bad = status != 0;
    if (bad)
        fprintf(stderr, "netflow: simplex reported an unbounded problem\n");
    else
        bad = verify_solution(&net, &tt, &sol);
    printf("netflow %s: %d trips, %d nodes, %d -> %d arcs, %d rounds\n",
           cfg->name, tt.ntrips, net.nnodes, initial_arcs, net.narcs, rounds);
    printf("  pivots %llu (degenerate %llu), implicit arcs priced %llu\n",
           (unsigned long long)st.pivots, (unsigned long long)st.degenerate,
           (unsigned long long)examined);
    printf("  vehicles %d, deadheads %lld, cost %lld, schedule hash %08x\n",
           sol.vehicles, (long long)sol.deadhead_flow, (long long)sol.cost,
           sol.flow_hash);
    if (!bad && cfg->expect_cost && sol.cost != cfg->expect_cost) {
        fprintf(stderr, "netflow: cost %lld differs from known optimum %lld\n",
                (long long)sol.cost, (long long)cfg->expect_cost);
        bad = 1;
    }
    pricer_free(pr);
    net_free(&net);
    timetable_free(&tt);
    if (bad) {
        fprintf(stderr, "netflow: FAILED self-check\n");
        return 1;
    }
    printf("optimality verified\n");
    return 0;
}
