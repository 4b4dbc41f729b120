/* main.c - driver of the maze_route workload (vpr-routing-like).
 *
 * Usage: maze_route [test|train|ref]
 * Builds a multi-layer grid with obstacles, generates feasible nets,
 * routes them with negotiated congestion, verifies connectivity and
 * legality independently, and compares the checksum to the known value. */
#include "route.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    int W, H, L;
    int nnets, span, obstacles;
    uint64_t expect;
} SizeSpec;

static const SizeSpec sizes[] = {
    {"test", 40, 40, 4, 100, 6, 16, 0xbc10d18ce13ce5b1ULL},
    {"train", 76, 76, 4, 420, 8, 60, 0x605c0e3781e67649ULL},
    {"ref", 180, 180, 4, 2200, 9, 340, 0xf7bd83f15f72f7f7ULL},
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

int main(int argc, char **argv)
{
    const SizeSpec *sz = parse_size(argc, argv);
    Pcg rng;
    pcg_seed(&rng, 0x600d5eedULL + (uint64_t)sz->W, 54);
    Grid g;
    grid_init(&g, sz->W, sz->H, sz->L);
    grid_add_obstacles(&g, &rng, sz->obstacles, 12);
    NetSet ns;
    nets_generate(&ns, &g, &rng, sz->nnets, sz->span);

    Router r;
    router_init(&r, &g, &ns);
    RouteStats st;
    memset(&st, 0, sizeof st);
    bool legal = route_all(&r, 40, &st);

    VerifyReport vr;
    verify_routes(&g, &ns, &vr);
    printf("maze_route %s: grid %dx%dx%d, %d blocked nodes, %d nets\n", sz->name,
           g.W, g.H, g.L, grid_blocked_count(&g), ns.nnets);
    printf("  %d iterations, %d net routes, %" PRIu64 " searches, %" PRIu64 " expansions\n",
           st.iterations, st.rerouted_total, r.searches, st.expansions);
    printf("  wirelength %" PRId64 ", vias %" PRId64 ", overuse %d\n", vr.wirelen,
           vr.vias, st.final_overuse);
    printf("  route checksum %016" PRIx64 "\n", vr.checksum);

    int bad = 0;
    if (!legal || vr.conflicts) {
        fprintf(stderr, "maze_route: routing not legal (%d conflicts)\n", vr.conflicts);
        bad = 1;
    }
    if (vr.disconnected || vr.occ_mismatch) {
        fprintf(stderr, "maze_route: %d disconnected nets, %d occupancy mismatches\n",
                vr.disconnected, vr.occ_mismatch);
        bad = 1;
    }
    if (vr.checksum != sz->expect) {
        fprintf(stderr, "maze_route: checksum differs from the known value %016" PRIx64 "\n",
                sz->expect);
        bad = 1;
    }
    router_free(&r);
    nets_free(&ns);
    grid_free(&g);
    if (bad)
        return 1;
    printf("self-check OK\n");
    return 0;
}
