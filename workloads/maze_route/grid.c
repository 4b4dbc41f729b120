/* grid.c - the multi-layer routing grid of maze_route: node numbering,
 * preferred-direction adjacency (even layers horizontal, odd layers
 * vertical, vias between neighbouring layers), rectangular obstacles and
 * per-node usability for a given net. */
#include "route.h"

#include <stdio.h>
#include <stdlib.h>

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n, sz);
    if (!p) {
        fprintf(stderr, "maze_route: out of memory\n");
        exit(2);
    }
    return p;
}

void grid_init(Grid *g, int W, int H, int L)
{
    g->W = W;
    g->H = H;
    g->L = L;
    g->nnodes = W * H * L;
    g->blocked = xcalloc((size_t)g->nnodes, 1);
    g->pin_owner = xcalloc((size_t)g->nnodes, sizeof(int32_t));
    g->occ = xcalloc((size_t)g->nnodes, sizeof(uint16_t));
    g->hist = xcalloc((size_t)g->nnodes, sizeof(int32_t));
}

void grid_free(Grid *g)
{
    free(g->blocked);
    free(g->pin_owner);
    free(g->occ);
    free(g->hist);
}

int grid_node(const Grid *g, int x, int y, int l) { return (l * g->H + y) * g->W + x; }
int grid_x(const Grid *g, int n) { return n % g->W; }
int grid_y(const Grid *g, int n) { return (n / g->W) % g->H; }
int grid_layer(const Grid *g, int n) { return n / (g->W * g->H); }

static void block_rect(Grid *g, int l, int x0, int y0, int w, int h)
{
    for (int y = y0; y < y0 + h && y < g->H; y++)
        for (int x = x0; x < x0 + w && x < g->W; x++)
            g->blocked[grid_node(g, x, y, l)] = 1;
}

void grid_add_obstacles(Grid *g, Pcg *p, int count, int maxside)
{
    for (int i = 0; i < count; i++) {
        int l = pcg_range(p, 0, g->L - 1);
        int w = pcg_range(p, 2, maxside);
        int h = pcg_range(p, 2, maxside);
        /* long thin blockages follow the layer's preferred direction */
        if (l % 2 == 0)
            h = 1 + h / 4;
        else
            w = 1 + w / 4;
        int x0 = pcg_range(p, 0, g->W - 1);
        int y0 = pcg_range(p, 0, g->H - 1);
        block_rect(g, l, x0, y0, w, h);
    }
}

int grid_neighbors(const Grid *g, int n, int out[4])
{
    int x = grid_x(g, n), y = grid_y(g, n), l = grid_layer(g, n);
    int k = 0;
    int plane = g->W * g->H;
    if (l % 2 == 0) {
        if (x > 0)
            out[k++] = n - 1;
        if (x + 1 < g->W)
            out[k++] = n + 1;
    } else {
        if (y > 0)
            out[k++] = n - g->W;
        if (y + 1 < g->H)
            out[k++] = n + g->W;
    }
    if (l > 0)
        out[k++] = n - plane;
    if (l + 1 < g->L)
        out[k++] = n + plane;
    int m = 0;
    for (int i = 0; i < k; i++)
        if (!g->blocked[out[i]])
            out[m++] = out[i];
    return m;
}

bool grid_usable(const Grid *g, int n, int net)
{
    if (g->blocked[n])
        return false;
    return g->pin_owner[n] == 0 || g->pin_owner[n] == net + 1;
}

int grid_blocked_count(const Grid *g)
{
    int c = 0;
    for (int i = 0; i < g->nnodes; i++)
        c += g->blocked[i];
    return c;
}
