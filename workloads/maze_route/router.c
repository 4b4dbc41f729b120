/* router.c - PathFinder-style negotiated-congestion loop of maze_route:
 * routes every net (sinks in nearest-first order), then repeatedly raises
 * present and history congestion costs and rips up / reroutes the nets
 * that use overused nodes until the routing is legal. */
#include "route.h"

#include <stdio.h>
#include <stdlib.h>

void route_begin(Router *r, RNet *net);
bool route_in_tree(const Router *r, int n);

static int manhattan(const Grid *g, int a, int b)
{
    int dx = grid_x(g, a) - grid_x(g, b), dy = grid_y(g, a) - grid_y(g, b);
    return (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy);
}

/* Sinks ordered nearest-first from the source (selection sort, tiny n). */
static int order_sinks(const Grid *g, const RNet *net, int *out)
{
    int n = 0;
    for (int i = 1; i < net->npins; i++)
        out[n++] = net->pins[i];
    for (int i = 0; i < n; i++) {
        int best = i;
        for (int j = i + 1; j < n; j++)
            if (manhattan(g, net->pins[0], out[j]) < manhattan(g, net->pins[0], out[best]))
                best = j;
        int t = out[i];
        out[i] = out[best];
        out[best] = t;
    }
    return n;
}

void ripup_net(Router *r, RNet *net)
{
    for (int i = 0; i < net->nroute; i++)
        r->g->occ[net->route[i]]--;
    net->nroute = 0;
    net->wirelen = net->vias = 0;
}

void route_net(Router *r, RNet *net)
{
    int sinks[MAX_PINS];
    int ns = order_sinks(r->g, net, sinks);
    route_begin(r, net);
    for (int i = 0; i < ns; i++) {
        if (route_in_tree(r, sinks[i]))
            continue;
        if (!astar_connect(r, net, sinks[i])) {
            fprintf(stderr, "maze_route: net %d: sink unreachable\n", net->id);
            exit(1);
        }
    }
}

int count_overuse(const Grid *g)
{
    int over = 0;
    for (int i = 0; i < g->nnodes; i++)
        if (g->occ[i] > NODE_CAP)
            over += g->occ[i] - NODE_CAP;
    return over;
}

static void update_history(Router *r)
{
    Grid *g = r->g;
    for (int i = 0; i < g->nnodes; i++)
        if (g->occ[i] > NODE_CAP)
            if (g->hist[i] < (1 << 20))
                g->hist[i] += r->hist_inc * (g->occ[i] - NODE_CAP);
}

static bool net_congested(const Router *r, const RNet *net)
{
    for (int i = 0; i < net->nroute; i++)
        if (r->g->occ[net->route[i]] > NODE_CAP)
            return true;
    return false;
}

static const NetSet *sort_ctx;

static int cmp_net_order(const void *a, const void *b)
{
    const RNet *x = &sort_ctx->nets[*(const int *)a];
    const RNet *y = &sort_ctx->nets[*(const int *)b];
    if (x->bbox_half_perim != y->bbox_half_perim)
        return x->bbox_half_perim < y->bbox_half_perim ? -1 : 1;
    return x->id < y->id ? -1 : x->id > y->id;
}

static int *routing_order(const NetSet *ns)
{
    int *order = malloc((size_t)(ns->nnets ? ns->nnets : 1) * sizeof(int));
    if (!order) {
        fprintf(stderr, "maze_route: out of memory\n");
        exit(2);
    }
    for (int i = 0; i < ns->nnets; i++)
        order[i] = i;
    sort_ctx = ns;
    qsort(order, (size_t)ns->nnets, sizeof(int), cmp_net_order);
    return order;
}

bool route_all(Router *r, int max_iters, RouteStats *st)
{
    NetSet *ns = r->ns;
    int *order = routing_order(ns);
    for (int i = 0; i < ns->nnets; i++)
        route_net(r, &ns->nets[order[i]]);
    st->iterations = 1;
    st->rerouted_total = ns->nnets;
    int over = count_overuse(r->g);
    while (over > 0 && st->iterations < max_iters) {
        update_history(r);
        if (r->pres_q4 < (1 << 16))
            r->pres_q4 = r->pres_q4 * 3 / 2 + 1;
        for (int i = 0; i < ns->nnets; i++) {
            RNet *net = &ns->nets[order[i]];
            if (!net_congested(r, net))
                continue;
            ripup_net(r, net);
            route_net(r, net);
            st->rerouted_total++;
        }
        st->iterations++;
        over = count_overuse(r->g);
    }
    st->final_overuse = over;
    st->expansions = r->expansions;
    free(order);
    return over == 0;
}
