/*
 * colgen.c - column generation for netflow: the full deadhead arc set is
 * implicit; after each simplex solve every compatible trip pair not yet in
 * the network is priced with the current potentials and the most violating
 * ones are added as new (non-basic) arcs.
 */
#include <stdio.h>
#include <stdlib.h>
#include "flow.h"

typedef struct {
    cost_t rc;
    int32_t i, j;
} cand_t;

typedef struct {
    cand_t *heap;           /* max-heap on (rc, i, j): keeps the best max_new */
    int n, cap;
} cand_heap_t;

static int cand_worse(const cand_t *a, const cand_t *b)
{
    if (a->rc != b->rc)
        return a->rc > b->rc;
    if (a->i != b->i)
        return a->i > b->i;
    return a->j > b->j;
}

static void heap_sift_up(cand_heap_t *h, int i)
{
    cand_t v = h->heap[i];
    while (i > 0 && cand_worse(&v, &h->heap[(i - 1) / 2])) {
        h->heap[i] = h->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->heap[i] = v;
}

static void heap_sift_down(cand_heap_t *h, int i)
{
    cand_t v = h->heap[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && cand_worse(&h->heap[c + 1], &h->heap[c]))
            c++;
        if (!cand_worse(&h->heap[c], &v))
            break;
        h->heap[i] = h->heap[c];
        i = c;
    }
    h->heap[i] = v;
}

static void offer(cand_heap_t *h, cost_t rc, int i, int j)
{
    cand_t c = { rc, i, j };
    if (h->n < h->cap) {
        h->heap[h->n++] = c;
        heap_sift_up(h, h->n - 1);
    } else if (cand_worse(&h->heap[0], &c)) {
        h->heap[0] = c;
        heap_sift_down(h, 0);
    }
}

/* Price all implicit successors of trip i. */
static void scan_trip(network_t *net, const timetable_t *tt, int i,
                      cand_heap_t *h, uint64_t *examined)
{
    const node_t *out = &net->nodes[trip_out_node(i)];
    int32_t horizon = tt->trips[i].end + tt->max_wait + 40;
    for (int j = first_trip_starting_at(tt, tt->trips[i].end);
         j < tt->ntrips && tt->trips[j].start <= horizon; j++) {
        (*examined)++;
        if (!compatible(tt, i, j))
            continue;
        cost_t rc = deadhead_cost(tt, i, j) + out->pi - net->nodes[trip_in_node(j)].pi;
        if (rc >= 0)
            continue;
        uint32_t id = (uint32_t)i * (uint32_t)tt->ntrips + (uint32_t)j;
        if (net_has_pair(net, id))
            continue;
        offer(h, rc, i, j);
    }
}

static int cand_order(const cand_t *a, const cand_t *b)
{
    if (a->i != b->i)
        return a->i < b->i;
    return a->j < b->j;
}

/* Insertion into the network in (i, j) order keeps arc numbering stable. */
static void sort_candidates(cand_t *c, int n)
{
    for (int gap = n / 2; gap > 0; gap /= 2)
        for (int k = gap; k < n; k++) {
            cand_t v = c[k];
            int m = k;
            while (m >= gap && cand_order(&v, &c[m - gap])) {
                c[m] = c[m - gap];
                m -= gap;
            }
            c[m] = v;
        }
}

int price_out_implicit(network_t *net, const timetable_t *tt, int max_new,
                       uint64_t *examined)
{
    cand_heap_t h = { malloc((size_t)max_new * sizeof(cand_t)), 0, max_new };
    if (!h.heap) {
        fprintf(stderr, "netflow: out of memory\n");
        exit(2);
    }
    for (int i = 0; i < tt->ntrips; i++)
        scan_trip(net, tt, i, &h, examined);
    sort_candidates(h.heap, h.n);
    for (int k = 0; k < h.n; k++) {
        const cand_t *c = &h.heap[k];
        uint32_t id = (uint32_t)c->i * (uint32_t)tt->ntrips + (uint32_t)c->j;
        net_add_arc(net, trip_out_node(c->i), trip_in_node(c->j),
                    deadhead_cost(tt, c->i, c->j), 1, (int32_t)id);
        net_add_pair(net, id);
    }
    int added = h.n;
    free(h.heap);
    return added;
}
