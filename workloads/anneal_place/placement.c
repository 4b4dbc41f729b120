/* placement.c - placement state of anneal_place: the slot grid, per-net
 * bounding boxes and half-perimeter wirelength costs, full recomputation,
 * incremental bounding-box update for a single moved pin, and the
 * consistency checks used by the self-check. */
#include "place.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "anneal_place: out of memory\n");
        exit(2);
    }
    return p;
}

void place_init(Placement *pl, Netlist *nl, int cols, int rows)
{
    memset(pl, 0, sizeof *pl);
    pl->nl = nl;
    pl->cols = cols;
    pl->rows = rows;
    pl->slot = xmalloc((size_t)cols * rows * sizeof(int));
    pl->bb = xmalloc((size_t)nl->nnets * sizeof(BBox));
    pl->netcost = xmalloc((size_t)nl->nnets * sizeof(int64_t));
    pl->touched = xmalloc((size_t)nl->nnets * sizeof(int));
    pl->tmover = xmalloc((size_t)nl->nnets * sizeof(int));
    pl->tidx = xmalloc((size_t)nl->nnets * sizeof(int));
    pl->stamp = calloc((size_t)nl->nnets, sizeof(uint32_t));
    pl->bb_new = xmalloc((size_t)nl->nnets * sizeof(BBox));
    pl->cost_new = xmalloc((size_t)nl->nnets * sizeof(int64_t));
    if (!pl->stamp)
        exit(2);
}

void place_free(Placement *pl)
{
    free(pl->slot);
    free(pl->bb);
    free(pl->netcost);
    free(pl->touched);
    free(pl->tmover);
    free(pl->tidx);
    free(pl->stamp);
    free(pl->bb_new);
    free(pl->cost_new);
}

void place_random(Placement *pl, Rng *r)
{
    int nslots = pl->cols * pl->rows;
    int *order = xmalloc((size_t)nslots * sizeof(int));
    for (int i = 0; i < nslots; i++) {
        order[i] = i;
        pl->slot[i] = -1;
    }
    for (int i = nslots - 1; i > 0; i--) {
        int j = (int)rng_below(r, (uint32_t)i + 1);
        int t = order[i];
        order[i] = order[j];
        order[j] = t;
    }
    for (int c = 0; c < pl->nl->ncells; c++) {
        int s = order[c];
        pl->slot[s] = c;
        pl->nl->cells[c].x = s % pl->cols;
        pl->nl->cells[c].y = s / pl->cols;
    }
    free(order);
}

int64_t net_cost_of_bbox(const Net *n, const BBox *b)
{
    /* rows are taller than sites are wide: vertical span costs double */
    int64_t hp = (int64_t)(b->xmax - b->xmin) + 2 * (int64_t)(b->ymax - b->ymin);
    return hp * n->weight_q8;
}

void net_bbox(const Placement *pl, const Net *n, BBox *out)
{
    const Cell *cells = pl->nl->cells;
    const Cell *c0 = &cells[n->pins[0]];
    BBox b = {c0->x, c0->x, c0->y, c0->y};
    for (int k = 1; k < n->npins; k++) {
        const Cell *c = &cells[n->pins[k]];
        if (c->x < b.xmin)
            b.xmin = c->x;
        if (c->x > b.xmax)
            b.xmax = c->x;
        if (c->y < b.ymin)
            b.ymin = c->y;
        if (c->y > b.ymax)
            b.ymax = c->y;
    }
    *out = b;
}

/* Update one dimension [lo,hi] for a pin moving from o to n; false when
 * the pin sat on the boundary and moved inward (needs a full rescan). */
static bool span_update(int *lo, int *hi, int o, int n)
{
    if (o == n)
        return true;
    if ((o == *lo && n > o && *lo != *hi) || (o == *hi && n < o && *lo != *hi))
        return false;
    if (n < *lo)
        *lo = n;
    if (n > *hi)
        *hi = n;
    return true;
}

bool net_bbox_update(const Placement *pl, const Net *n, const BBox *old,
                     int ox, int oy, int nx, int ny, BBox *out)
{
    BBox b = *old;
    if (n->npins < 4)
        return false;
    if (!span_update(&b.xmin, &b.xmax, ox, nx) || !span_update(&b.ymin, &b.ymax, oy, ny))
        return false;
    *out = b;
    return true;
}

int64_t place_full_cost(Placement *pl)
{
    int64_t total = 0;
    for (int i = 0; i < pl->nl->nnets; i++) {
        const Net *n = &pl->nl->nets[i];
        net_bbox(pl, n, &pl->bb[i]);
        pl->netcost[i] = net_cost_of_bbox(n, &pl->bb[i]);
        total += pl->netcost[i];
    }
    pl->cost = total;
    return total;
}

int64_t place_recompute_cost(const Placement *pl)
{
    int64_t total = 0;
    for (int i = 0; i < pl->nl->nnets; i++) {
        BBox b;
        net_bbox(pl, &pl->nl->nets[i], &b);
        total += net_cost_of_bbox(&pl->nl->nets[i], &b);
    }
    return total;
}

static bool bbox_equal(const BBox *a, const BBox *b)
{
    return a->xmin == b->xmin && a->xmax == b->xmax && a->ymin == b->ymin &&
           a->ymax == b->ymax;
}

bool place_check_consistency(const Placement *pl, const char **why)
{
    const Netlist *nl = pl->nl;
    int occupied = 0;
    for (int s = 0; s < pl->cols * pl->rows; s++) {
        int c = pl->slot[s];
        if (c < 0)
            continue;
        occupied++;
        if (c >= nl->ncells || nl->cells[c].x != s % pl->cols || nl->cells[c].y != s / pl->cols) {
            *why = "slot grid disagrees with cell coordinates";
            return false;
        }
    }
    if (occupied != nl->ncells) {
        *why = "cells lost or duplicated";
        return false;
    }
    int64_t total = 0;
    for (int i = 0; i < nl->nnets; i++) {
        BBox b;
        net_bbox(pl, &nl->nets[i], &b);
        if (!bbox_equal(&b, &pl->bb[i])) {
            *why = "stale net bounding box";
            return false;
        }
        if (net_cost_of_bbox(&nl->nets[i], &b) != pl->netcost[i]) {
            *why = "stale net cost";
            return false;
        }
        total += pl->netcost[i];
    }
    if (total != pl->cost) {
        *why = "incremental total cost drifted";
        return false;
    }
    return true;
}

uint64_t place_signature(const Placement *pl)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (int s = 0; s < pl->cols * pl->rows; s++)
        h = (h ^ (uint64_t)(pl->slot[s] + 2)) * 0x100000001b3ULL;
    return h;
}
