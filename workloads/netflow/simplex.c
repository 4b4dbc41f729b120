/*
 * simplex.c - primal network simplex pivots: choose the entering arc via
 * the pricer, find the cycle's join node, run the ratio test with the
 * strongly-feasible-tree tie-breaking rule, push flow around the cycle,
 * update arc states and re-hang the cut subtree.
 */
#include <stdio.h>
#include <stdlib.h>
#include "flow.h"

typedef struct {
    arc_t *in_arc;
    node_t *first, *second, *join;
    node_t *u_out;
    int64_t delta;
    int side;               /* 0: entering arc blocks; 1/2: cycle side */
} pivot_t;

static int64_t residual_down(const arc_t *a, int dir)
{
    /* flow moves from parent to child along this tree arc */
    return dir == DIR_UP ? a->flow : (a->cap >= INF_CAP ? INF_CAP : a->cap - a->flow);
}

static int64_t residual_up(const arc_t *a, int dir)
{
    /* flow moves from child to parent along this tree arc */
    return dir == DIR_DOWN ? a->flow : (a->cap >= INF_CAP ? INF_CAP : a->cap - a->flow);
}

static void setup_cycle(pivot_t *pv)
{
    arc_t *e = pv->in_arc;
    if (e->state == STATE_LOWER) {
        pv->first = e->tail;
        pv->second = e->head;
    } else {
        pv->first = e->head;
        pv->second = e->tail;
    }
    pv->join = tree_join(pv->first, pv->second);
}

/* Ratio test; ties go to the last blocking arc met from the join node. */
static void find_leaving(pivot_t *pv)
{
    pv->delta = pv->in_arc->cap >= INF_CAP ? INF_CAP : pv->in_arc->cap;
    pv->side = 0;
    pv->u_out = NULL;
    for (node_t *u = pv->first; u != pv->join; u = u->parent) {
        int64_t d = residual_down(u->pred, u->dir);
        if (d < pv->delta) {
            pv->delta = d;
            pv->u_out = u;
            pv->side = 1;
        }
    }
    for (node_t *u = pv->second; u != pv->join; u = u->parent) {
        int64_t d = residual_up(u->pred, u->dir);
        if (d <= pv->delta) {
            pv->delta = d;
            pv->u_out = u;
            pv->side = 2;
        }
    }
}

static void push_flow(pivot_t *pv)
{
    arc_t *e = pv->in_arc;
    if (pv->delta == 0)
        return;
    int64_t val = e->state * pv->delta;
    e->flow += val;
    for (node_t *u = e->tail; u != pv->join; u = u->parent)
        u->pred->flow -= u->dir * val;
    for (node_t *u = e->head; u != pv->join; u = u->parent)
        u->pred->flow += u->dir * val;
}

static void update_basis(network_t *net, pivot_t *pv, node_t **stack,
                         simplex_stats_t *st)
{
    arc_t *e = pv->in_arc;
    if (pv->side == 0) {
        e->state = (int8_t)-e->state;
        return;
    }
    arc_t *out = pv->u_out->pred;
    out->state = out->flow == 0 ? STATE_LOWER : STATE_UPPER;
    node_t *u_in = pv->side == 1 ? pv->first : pv->second;
    node_t *v_in = pv->side == 1 ? pv->second : pv->first;
    cost_t rc = reduced_cost(e);
    cost_t sigma = u_in == e->tail ? -rc : rc;
    e->state = STATE_TREE;
    tree_reroot(net, u_in, v_in, e, pv->u_out, sigma, stack);
    st->tree_updates++;
}

int simplex_solve(network_t *net, pricer_t *pr, simplex_stats_t *st)
{
    node_t **stack = malloc(((size_t)net->nnodes + 2) * sizeof(node_t *));
    if (!stack) {
        fprintf(stderr, "netflow: out of memory\n");
        exit(2);
    }
    pricer_reset(pr);
    int status = 0;
    for (;;) {
        pivot_t pv;
        pv.in_arc = pricer_select(pr, net);
        if (!pv.in_arc)
            break;
        setup_cycle(&pv);
        find_leaving(&pv);
        if (pv.delta >= INF_CAP) {
            status = -1;        /* unbounded */
            break;
        }
        push_flow(&pv);
        update_basis(net, &pv, stack, st);
        st->pivots++;
        if (pv.delta == 0)
            st->degenerate++;
    }
    free(stack);
    return status;
}
