/* verify.c - independent checks of a maze_route result: recounts node
 * occupancy from the net routes, finds conflicting nodes, checks that
 * every route is a connected tree containing all its pins, and folds the
 * routes into a checksum. */
#include "route.h"

#include <stdio.h>
#include <stdlib.h>

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "maze_route: out of memory\n");
        exit(2);
    }
    return p;
}

static void recount(const Grid *g, const NetSet *ns, VerifyReport *vr)
{
    uint16_t *cnt = xcalloc((size_t)g->nnodes, sizeof(uint16_t));
    for (int i = 0; i < ns->nnets; i++)
        for (int k = 0; k < ns->nets[i].nroute; k++)
            cnt[ns->nets[i].route[k]]++;
    for (int n = 0; n < g->nnodes; n++) {
        if (cnt[n] != g->occ[n])
            vr->occ_mismatch++;
        if (cnt[n] > NODE_CAP)
            vr->conflicts++;
    }
    free(cnt);
}

/* BFS over the net's own route nodes from its first pin. */
static bool net_connected(const Grid *g, const RNet *net, uint32_t *mark, int *queue,
                          uint32_t tag)
{
    for (int k = 0; k < net->nroute; k++) {
        if (mark[net->route[k]] == tag || mark[net->route[k]] == tag + 1)
            return false; /* node listed twice: not a tree */
        mark[net->route[k]] = tag;
    }
    if (mark[net->pins[0]] != tag)
        return false;
    int head = 0, tail = 0, reached = 1;
    queue[tail++] = net->pins[0];
    mark[net->pins[0]] = tag + 1;
    while (head < tail) {
        int n = queue[head++], nb[4];
        int k = grid_neighbors(g, n, nb);
        for (int i = 0; i < k; i++) {
            if (mark[nb[i]] != tag)
                continue;
            mark[nb[i]] = tag + 1;
            queue[tail++] = nb[i];
            reached++;
        }
    }
    for (int i = 1; i < net->npins; i++)
        if (mark[net->pins[i]] != tag + 1)
            return false;
    return reached == net->nroute && net->nroute - 1 == net->wirelen + net->vias;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
    return h * 0xff51afd7ed558ccdULL;
}

void verify_routes(const Grid *g, const NetSet *ns, VerifyReport *vr)
{
    vr->wirelen = vr->vias = 0;
    vr->checksum = 0;
    vr->disconnected = vr->occ_mismatch = vr->conflicts = 0;
    recount(g, ns, vr);
    uint32_t *mark = xcalloc((size_t)g->nnodes, sizeof(uint32_t));
    int *queue = xcalloc((size_t)g->nnodes, sizeof(int));
    uint32_t tag = 1;
    for (int i = 0; i < ns->nnets; i++) {
        const RNet *net = &ns->nets[i];
        if (!net_connected(g, net, mark, queue, tag))
            vr->disconnected++;
        tag += 2;
        vr->wirelen += net->wirelen;
        vr->vias += net->vias;
        uint64_t h = mix((uint64_t)net->id, (uint64_t)net->nroute);
        for (int k = 0; k < net->nroute; k++)
            h = mix(h, (uint64_t)net->route[k]);
        vr->checksum = mix(vr->checksum, h ^ ((uint64_t)net->vias << 40));
    }
    free(mark);
    free(queue);
}
