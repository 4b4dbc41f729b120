/* timing.c - static timing analysis for anneal_place: levelizes the
 * netlist's driver->sink DAG (edges from lower to higher cell ids), then
 * propagates arrival and required times with placement-dependent wire
 * delays to report the critical path and the total slack. */
#include "place.h"

#include <stdio.h>
#include <stdlib.h>

#define CELL_DELAY 40
#define FANOUT_DELAY 3

static void order_nets_by_driver(Netlist *nl)
{
    int *count = calloc((size_t)nl->ncells + 1, sizeof(int));
    nl->net_order = malloc((size_t)nl->nnets * sizeof(int));
    if (!count || !nl->net_order) {
        fprintf(stderr, "anneal_place: out of memory\n");
        exit(2);
    }
    for (int n = 0; n < nl->nnets; n++)
        count[nl->nets[n].pins[0] + 1]++;
    for (int c = 0; c < nl->ncells; c++)
        count[c + 1] += count[c];
    for (int n = 0; n < nl->nnets; n++)
        nl->net_order[count[nl->nets[n].pins[0]]++] = n;
    free(count);
}

void timing_levelize(Netlist *nl)
{
    order_nets_by_driver(nl);
    for (int c = 0; c < nl->ncells; c++)
        nl->cells[c].level = 0;
    for (int i = 0; i < nl->nnets; i++) {
        const Net *n = &nl->nets[nl->net_order[i]];
        int d = n->pins[0];
        for (int k = 1; k < n->npins; k++) {
            int s = n->pins[k];
            if (s > d && nl->cells[s].level < nl->cells[d].level + 1)
                nl->cells[s].level = nl->cells[d].level + 1;
        }
    }
}

static int64_t wire_delay(const Cell *a, const Cell *b, int fanout)
{
    int dx = a->x > b->x ? a->x - b->x : b->x - a->x;
    int dy = a->y > b->y ? a->y - b->y : b->y - a->y;
    return dx + 2 * dy + fanout * FANOUT_DELAY;
}

static void propagate_arrival(const Netlist *nl, int64_t *arr)
{
    for (int i = 0; i < nl->nnets; i++) {
        const Net *n = &nl->nets[nl->net_order[i]];
        int d = n->pins[0];
        for (int k = 1; k < n->npins; k++) {
            int s = n->pins[k];
            if (s <= d)
                continue;
            int64_t a = arr[d] + CELL_DELAY +
                        wire_delay(&nl->cells[d], &nl->cells[s], n->npins - 1);
            if (a > arr[s])
                arr[s] = a;
        }
    }
}

static void propagate_required(const Netlist *nl, int64_t *req)
{
    for (int i = nl->nnets - 1; i >= 0; i--) {
        const Net *n = &nl->nets[nl->net_order[i]];
        int d = n->pins[0];
        for (int k = 1; k < n->npins; k++) {
            int s = n->pins[k];
            if (s <= d)
                continue;
            int64_t r = req[s] - CELL_DELAY -
                        wire_delay(&nl->cells[d], &nl->cells[s], n->npins - 1);
            if (r < req[d])
                req[d] = r;
        }
    }
}

void timing_analyze(const Placement *pl, TimingReport *rep)
{
    const Netlist *nl = pl->nl;
    int64_t *arr = calloc((size_t)nl->ncells, sizeof(int64_t));
    int64_t *req = malloc((size_t)nl->ncells * sizeof(int64_t));
    if (!arr || !req) {
        fprintf(stderr, "anneal_place: out of memory\n");
        exit(2);
    }
    propagate_arrival(nl, arr);
    rep->critical_delay = 0;
    rep->critical_sink = 0;
    rep->nlevels = 0;
    for (int c = 0; c < nl->ncells; c++) {
        if (arr[c] > rep->critical_delay) {
            rep->critical_delay = arr[c];
            rep->critical_sink = c;
        }
        if (nl->cells[c].level + 1 > rep->nlevels)
            rep->nlevels = nl->cells[c].level + 1;
    }
    for (int c = 0; c < nl->ncells; c++)
        req[c] = rep->critical_delay;
    propagate_required(nl, req);
    rep->total_slack_q0 = 0;
    for (int c = 0; c < nl->ncells; c++)
        rep->total_slack_q0 += req[c] - arr[c];
    free(arr);
    free(req);
}
