/*
 * pricing.c - candidate-list pricing for the network simplex (in the
 * spirit of multiple partial pricing): arcs violating optimality are
 * collected block by block into a list, the list is re-priced every pivot
 * and the most violating candidate enters the basis.
 */
#include <stdio.h>
#include <stdlib.h>
#include "flow.h"

struct pricer {
    arc_t **cand;
    cost_t *viol;
    int ncand, list_size, block;
    int next_arc;
    int minor_left;
};

pricer_t *pricer_new(int list_size, int block)
{
    pricer_t *p = calloc(1, sizeof(*p));
    if (!p || !(p->cand = calloc((size_t)list_size, sizeof(arc_t *))) ||
        !(p->viol = calloc((size_t)list_size, sizeof(cost_t)))) {
        fprintf(stderr, "netflow: out of memory\n");
        exit(2);
    }
    p->list_size = list_size;
    p->block = block;
    return p;
}

void pricer_free(pricer_t *p)
{
    free(p->cand);
    free(p->viol);
    free(p);
}

void pricer_reset(pricer_t *p)
{
    p->ncand = 0;
    p->next_arc = 0;
    p->minor_left = 0;
}

/* Negative value = the arc would improve the objective if it entered. */
static cost_t violation(const arc_t *a)
{
    return a->state == STATE_TREE ? 0 : a->state * reduced_cost(a);
}

/* Re-price the list, dropping arcs that no longer violate. */
static void reprice_list(pricer_t *p)
{
    int k = 0;
    for (int i = 0; i < p->ncand; i++) {
        cost_t v = violation(p->cand[i]);
        if (v < 0) {
            p->cand[k] = p->cand[i];
            p->viol[k] = v;
            k++;
        }
    }
    p->ncand = k;
}

static int in_list(const pricer_t *p, const arc_t *a)
{
    for (int i = 0; i < p->ncand; i++)
        if (p->cand[i] == a)
            return 1;
    return 0;
}

/* Scan blocks of arcs (cyclically) until the list is refilled. */
static void refill_list(pricer_t *p, network_t *net)
{
    int scanned = 0, m = net->narcs;
    if (p->next_arc >= m)
        p->next_arc = 0;
    while (scanned < m && p->ncand < p->list_size) {
        int end = scanned + p->block < m ? scanned + p->block : m;
        for (; scanned < end && p->ncand < p->list_size; scanned++) {
            arc_t *a = arc_at(net, p->next_arc);
            if (++p->next_arc == m)
                p->next_arc = 0;
            cost_t v = violation(a);
            if (v < 0 && !in_list(p, a)) {
                p->cand[p->ncand] = a;
                p->viol[p->ncand] = v;
                p->ncand++;
            }
        }
        if (p->ncand >= p->list_size / 2)
            break;
    }
}

static int best_candidate(const pricer_t *p)
{
    int best = -1;
    for (int i = 0; i < p->ncand; i++)
        if (best < 0 || p->viol[i] < p->viol[best])
            best = i;
    return best;
}

arc_t *pricer_select(pricer_t *p, network_t *net)
{
    reprice_list(p);
    if (p->ncand == 0 || p->minor_left <= 0) {
        refill_list(p, net);
        p->minor_left = p->list_size / 4 + 1;
    }
    if (p->ncand == 0)
        return NULL;
    p->minor_left--;
    int b = best_candidate(p);
    arc_t *a = p->cand[b];
    p->cand[b] = p->cand[--p->ncand];
    p->viol[b] = p->viol[p->ncand];
    return a;
}
