/*
 * network.c - storage for the flow network: node array with an extra root
 * node, arcs allocated in fixed-size chunks (so arc pointers held by the
 * spanning tree stay valid while columns are added), a hash set of the
 * deadhead pairs already present, and the artificial starting basis arcs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "flow.h"

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "netflow: out of memory\n");
        exit(2);
    }
    return p;
}

void net_init(network_t *net, int nnodes)
{
    memset(net, 0, sizeof(*net));
    net->nnodes = nnodes;
    net->nodes = xcalloc((size_t)nnodes + 1, sizeof(node_t));
    net->root = &net->nodes[nnodes];
    for (int i = 0; i <= nnodes; i++)
        net->nodes[i].number = i;
    net->chunk_cap = 16;
    net->chunks = xcalloc((size_t)net->chunk_cap, sizeof(arc_t *));
    net->pairset_mask = 4095;
    net->pairset = xcalloc(net->pairset_mask + 1, sizeof(uint32_t));
}

void net_free(network_t *net)
{
    for (int c = 0; c < net->nchunks; c++)
        free(net->chunks[c]);
    free(net->chunks);
    free(net->nodes);
    free(net->pairset);
}

static void add_chunk(network_t *net)
{
    if (net->nchunks == net->chunk_cap) {
        net->chunk_cap *= 2;
        net->chunks = realloc(net->chunks, (size_t)net->chunk_cap * sizeof(arc_t *));
        if (!net->chunks) {
            fprintf(stderr, "netflow: out of memory\n");
            exit(2);
        }
    }
    net->chunks[net->nchunks++] = xcalloc(ARC_CHUNK, sizeof(arc_t));
}

arc_t *net_add_arc(network_t *net, int tail, int head, cost_t cost, int64_t cap,
                   int32_t ident)
{
    if (net->narcs == net->nchunks * ARC_CHUNK)
        add_chunk(net);
    arc_t *a = arc_at(net, net->narcs++);
    a->tail = &net->nodes[tail];
    a->head = &net->nodes[head];
    a->cost = cost;
    a->cap = cap;
    a->flow = 0;
    a->state = STATE_LOWER;
    a->artificial = 0;
    a->ident = ident;
    return a;
}

static uint32_t pair_hash(uint32_t id)
{
    id ^= id >> 16;
    id *= 0x45d9f3bu;
    id ^= id >> 16;
    return id;
}

int net_has_pair(const network_t *net, uint32_t id)
{
    uint32_t key = id + 1;
    for (uint32_t h = pair_hash(id) & net->pairset_mask;; h = (h + 1) & net->pairset_mask) {
        if (net->pairset[h] == key)
            return 1;
        if (net->pairset[h] == 0)
            return 0;
    }
}

static void pairset_insert(uint32_t *set, uint32_t mask, uint32_t key)
{
    uint32_t h = pair_hash(key - 1) & mask;
    while (set[h] != 0 && set[h] != key)
        h = (h + 1) & mask;
    set[h] = key;
}

static void pairset_grow(network_t *net)
{
    uint32_t newmask = net->pairset_mask * 2 + 1;
    uint32_t *set = xcalloc((size_t)newmask + 1, sizeof(uint32_t));
    for (uint32_t i = 0; i <= net->pairset_mask; i++)
        if (net->pairset[i])
            pairset_insert(set, newmask, net->pairset[i]);
    free(net->pairset);
    net->pairset = set;
    net->pairset_mask = newmask;
}

void net_add_pair(network_t *net, uint32_t id)
{
    if ((uint32_t)(net->npairs + 1) * 2 > net->pairset_mask)
        pairset_grow(net);
    pairset_insert(net->pairset, net->pairset_mask, id + 1);
    net->npairs++;
}

/* One artificial arc per node to the root carries the initial supply. */
void net_add_artificials(network_t *net, cost_t big_m)
{
    int root = net->nnodes;
    net->big_m = big_m;
    for (int v = 0; v < net->nnodes; v++) {
        int64_t b = net->nodes[v].supply;
        arc_t *a = b >= 0 ? net_add_arc(net, v, root, big_m, INF_CAP, -1)
                          : net_add_arc(net, root, v, big_m, INF_CAP, -1);
        a->flow = b >= 0 ? b : -b;
        a->state = STATE_TREE;
        a->artificial = 1;
        net->nodes[v].pred = a;
        net->nodes[v].dir = b >= 0 ? DIR_UP : DIR_DOWN;
    }
}
