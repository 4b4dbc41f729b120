/* netlist.c - generates the synthetic netlist for anneal_place: clustered
 * cells (Rent-like locality), nets with a realistic fanout distribution,
 * the per-cell net lists, and a signature of the generated structure. */
#include "place.h"

#include <stdio.h>
#include <stdlib.h>

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "anneal_place: out of memory\n");
        exit(2);
    }
    return p;
}

static int pick_fanout(Rng *r)
{
    uint32_t u = rng_below(r, 100);
    if (u < 48)
        return 1;
    if (u < 72)
        return 2;
    if (u < 88)
        return rng_range(r, 3, 5);
    if (u < 97)
        return rng_range(r, 6, 11);
    return rng_range(r, 12, 40);
}

static int pick_sink(Rng *r, int driver, const NetGenParams *p)
{
    int nclusters = (p->ncells + p->cluster - 1) / p->cluster;
    if (rng_below(r, 100) < 82) {
        int c = driver / p->cluster + rng_range(r, -p->rent_span, p->rent_span);
        if (c < 0)
            c = -c;
        if (c >= nclusters)
            c = 2 * (nclusters - 1) - c;
        if (c < 0)
            c = 0;
        int cell = c * p->cluster + (int)rng_below(r, (uint32_t)p->cluster);
        return cell < p->ncells ? cell : p->ncells - 1;
    }
    return (int)rng_below(r, (uint32_t)p->ncells);
}

static int weight_for_fanout(int npins)
{
    int w = 256;
    if (npins > 3)
        w += (npins - 3) * 10;
    return w > 720 ? 720 : w;
}

/* Fill net n with a driver and distinct sinks; returns the pin count. */
static int build_net(Rng *r, const NetGenParams *p, int driver, int *pins,
                     uint32_t *mark, uint32_t tag)
{
    int want = pick_fanout(r);
    int n = 0;
    pins[n++] = driver;
    mark[driver] = tag;
    for (int tries = 0; n <= want && tries < want * 4; tries++) {
        int s = pick_sink(r, driver, p);
        if (mark[s] == tag)
            continue;
        mark[s] = tag;
        pins[n++] = s;
    }
    return n;
}

static void build_cell_lists(Netlist *nl)
{
    for (int n = 0; n < nl->nnets; n++)
        for (int k = 0; k < nl->nets[n].npins; k++)
            nl->cells[nl->nets[n].pins[k]].nnets++;
    nl->cellnet_pool = xcalloc((size_t)nl->npins_total, sizeof(int));
    int off = 0;
    for (int c = 0; c < nl->ncells; c++) {
        nl->cells[c].nets = nl->cellnet_pool + off;
        off += nl->cells[c].nnets;
        nl->cells[c].nnets = 0;
    }
    for (int n = 0; n < nl->nnets; n++)
        for (int k = 0; k < nl->nets[n].npins; k++) {
            Cell *c = &nl->cells[nl->nets[n].pins[k]];
            c->nets[c->nnets++] = n;
        }
}

void netlist_generate(Netlist *nl, const NetGenParams *p)
{
    Rng r;
    rng_seed(&r, p->seed);
    nl->ncells = p->ncells;
    nl->nnets = p->ncells + p->ncells / 8;
    nl->cells = xcalloc((size_t)nl->ncells, sizeof(Cell));
    nl->nets = xcalloc((size_t)nl->nnets, sizeof(Net));
    int cap = nl->nnets * 42;
    nl->pin_pool = xcalloc((size_t)cap, sizeof(int));
    uint32_t *mark = xcalloc((size_t)nl->ncells, sizeof(uint32_t));
    int used = 0;
    for (int n = 0; n < nl->nnets; n++) {
        int driver = n < nl->ncells ? n : (int)rng_below(&r, (uint32_t)nl->ncells);
        Net *net = &nl->nets[n];
        net->pins = nl->pin_pool + used;
        net->npins = build_net(&r, p, driver, net->pins, mark, (uint32_t)n + 1);
        net->weight_q8 = weight_for_fanout(net->npins);
        used += net->npins;
    }
    nl->npins_total = used;
    free(mark);
    build_cell_lists(nl);
}

void netlist_free(Netlist *nl)
{
    free(nl->cells);
    free(nl->nets);
    free(nl->pin_pool);
    free(nl->cellnet_pool);
}

uint64_t netlist_signature(const Netlist *nl)
{
    uint64_t h = 1469598103934665603ULL;
    for (int n = 0; n < nl->nnets; n++)
        for (int k = 0; k < nl->nets[n].npins; k++)
            h = (h ^ (uint64_t)(nl->nets[n].pins[k] + 1)) * 1099511628211ULL;
    return h;
}
