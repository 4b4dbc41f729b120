/* search.c - A* maze expansion of maze_route: grows a net's routing tree
 * towards one sink using a binary-heap open list, negotiated-congestion
 * node costs (base + history, scaled by present overuse), via penalties,
 * an admissible Manhattan/layer heuristic and a bounding-box window. */
#include "route.h"

#include <stdio.h>
#include <stdlib.h>

#define WINDOW_MARGIN 8

typedef struct {
    int x0, x1, y0, y1;
} Box;

#define MAX_NODE_COST (1 << 20)

int32_t node_cost(const Router *r, int node)
{
    int occ = r->g->occ[node];
    int64_t c = BASE_COST + (int64_t)r->g->hist[node];
    if (occ + 1 > NODE_CAP)
        c += c * r->pres_q4 * (occ + 1 - NODE_CAP) / 16;
    return c > MAX_NODE_COST ? MAX_NODE_COST : (int32_t)c;
}

static int32_t heuristic(const Grid *g, int n, int tx, int ty)
{
    int dx = grid_x(g, n) - tx, dy = grid_y(g, n) - ty;
    if (dx < 0)
        dx = -dx;
    if (dy < 0)
        dy = -dy;
    return (dx + dy) * BASE_COST + grid_layer(g, n) * VIA_COST;
}

static Box search_box(const Grid *g, const RNet *net)
{
    Box b = {g->W, -1, g->H, -1};
    for (int i = 0; i < net->npins; i++) {
        int x = grid_x(g, net->pins[i]), y = grid_y(g, net->pins[i]);
        if (x < b.x0) b.x0 = x;
        if (x > b.x1) b.x1 = x;
        if (y < b.y0) b.y0 = y;
        if (y > b.y1) b.y1 = y;
    }
    b.x0 = b.x0 - WINDOW_MARGIN < 0 ? 0 : b.x0 - WINDOW_MARGIN;
    b.y0 = b.y0 - WINDOW_MARGIN < 0 ? 0 : b.y0 - WINDOW_MARGIN;
    b.x1 = b.x1 + WINDOW_MARGIN >= g->W ? g->W - 1 : b.x1 + WINDOW_MARGIN;
    b.y1 = b.y1 + WINDOW_MARGIN >= g->H ? g->H - 1 : b.y1 + WINDOW_MARGIN;
    return b;
}

static bool in_box(const Grid *g, const Box *b, int n)
{
    int x = grid_x(g, n), y = grid_y(g, n);
    return x >= b->x0 && x <= b->x1 && y >= b->y0 && y <= b->y1;
}

static void next_epoch(Router *r)
{
    if (++r->epoch == 0) {
        for (int i = 0; i < r->g->nnodes; i++)
            r->stamp[i] = 0;
        r->epoch = 1;
    }
    heap_clear(&r->heap);
}

static void seed_tree(Router *r, const RNet *net, int tx, int ty)
{
    for (int i = 0; i < net->nroute; i++) {
        int n = net->route[i];
        r->stamp[n] = r->epoch;
        r->gcost[n] = 0;
        r->prev[n] = -1;
        heap_push(&r->heap, heuristic(r->g, n, tx, ty), n);
    }
}

static void add_route_node(Router *r, RNet *net, int n)
{
    if (net->nroute == net->rcap) {
        net->rcap = net->rcap ? net->rcap * 2 : 32;
        net->route = realloc(net->route, (size_t)net->rcap * sizeof(int));
        if (!net->route) {
            fprintf(stderr, "maze_route: out of memory\n");
            exit(2);
        }
    }
    net->route[net->nroute++] = n;
    r->tree[n] = r->tree_tag;
    r->g->occ[n]++;
}

static void backtrace(Router *r, RNet *net, int sink)
{
    int n = sink;
    while (r->tree[n] != r->tree_tag) {
        int p = r->prev[n];
        add_route_node(r, net, n);
        if (p < 0)
            break;
        if (grid_layer(r->g, p) != grid_layer(r->g, n))
            net->vias++;
        else
            net->wirelen++;
        n = p;
    }
}

static void expand(Router *r, const RNet *net, const Box *box, int n, int tx, int ty)
{
    const Grid *g = r->g;
    int nb[4];
    int k = grid_neighbors(g, n, nb);
    int ln = grid_layer(g, n);
    for (int i = 0; i < k; i++) {
        int m = nb[i];
        if (!grid_usable(g, m, net->id) || !in_box(g, box, m))
            continue;
        int64_t ng = r->gcost[n] + node_cost(r, m);
        if (grid_layer(g, m) != ln)
            ng += VIA_COST;
        if (r->stamp[m] == r->epoch && ng >= r->gcost[m])
            continue;
        r->stamp[m] = r->epoch;
        r->gcost[m] = ng;
        r->prev[m] = n;
        heap_push(&r->heap, ng + heuristic(g, m, tx, ty), m);
    }
}

bool astar_connect(Router *r, RNet *net, int sink)
{
    const Grid *g = r->g;
    int tx = grid_x(g, sink), ty = grid_y(g, sink);
    Box box = search_box(g, net);
    next_epoch(r);
    seed_tree(r, net, tx, ty);
    r->searches++;
    HeapItem it;
    while (heap_pop(&r->heap, &it)) {
        int n = it.node;
        if (it.key > r->gcost[n] + heuristic(g, n, tx, ty))
            continue; /* stale entry */
        if (n == sink) {
            backtrace(r, net, sink);
            return true;
        }
        r->expansions++;
        expand(r, net, &box, n, tx, ty);
    }
    return false;
}

void router_init(Router *r, Grid *g, NetSet *ns)
{
    r->g = g;
    r->ns = ns;
    r->gcost = malloc((size_t)g->nnodes * sizeof(int64_t));
    r->prev = malloc((size_t)g->nnodes * sizeof(int32_t));
    r->stamp = calloc((size_t)g->nnodes, sizeof(uint32_t));
    r->tree = calloc((size_t)g->nnodes, sizeof(uint32_t));
    if (!r->gcost || !r->prev || !r->stamp || !r->tree) {
        fprintf(stderr, "maze_route: out of memory\n");
        exit(2);
    }
    r->epoch = 0;
    r->tree_tag = 0;
    heap_init(&r->heap, 4096);
    r->pres_q4 = 8;
    r->hist_inc = 6;
    r->expansions = r->searches = 0;
}

void router_free(Router *r)
{
    free(r->gcost);
    free(r->prev);
    free(r->stamp);
    free(r->tree);
    heap_free(&r->heap);
}

/* Starts a fresh tree for net (used by router.c). */
void route_begin(Router *r, RNet *net)
{
    r->tree_tag++;
    net->nroute = 0;
    net->wirelen = net->vias = 0;
    add_route_node(r, net, net->pins[0]);
}

bool route_in_tree(const Router *r, int n) { return r->tree[n] == r->tree_tag; }
