/*
 * verify.c - independent checks of the netflow result: capacity bounds,
 * zero artificial flow, flow conservation at every node, spanning tree
 * consistency, reduced-cost optimality of every explicit arc and of every
 * implicit deadhead arc; also extracts the schedule summary and a hash.
 */
#include <stdio.h>
#include <stdlib.h>
#include "flow.h"

static int fail(const char *what, int where)
{
    fprintf(stderr, "netflow: verify: %s (at %d)\n", what, where);
    return 1;
}

static int check_bounds_and_states(const network_t *net)
{
    for (int k = 0; k < net->narcs; k++) {
        const arc_t *a = arc_at(net, k);
        cost_t rc = reduced_cost(a);
        if (a->flow < 0 || a->flow > a->cap)
            return fail("flow outside bounds", k);
        if (a->artificial && a->flow != 0)
            return fail("artificial arc carries flow", k);
        if (a->state == STATE_TREE && rc != 0)
            return fail("tree arc with nonzero reduced cost", k);
        if (a->state == STATE_LOWER && (a->flow != 0 || rc < 0))
            return fail("lower arc not optimal", k);
        if (a->state == STATE_UPPER && (a->flow != a->cap || rc > 0))
            return fail("upper arc not optimal", k);
    }
    return 0;
}

static int check_conservation(const network_t *net)
{
    int64_t *bal = calloc((size_t)net->nnodes + 1, sizeof(int64_t));
    if (!bal)
        return fail("out of memory", 0);
    for (int k = 0; k < net->narcs; k++) {
        const arc_t *a = arc_at(net, k);
        bal[a->tail->number] += a->flow;
        bal[a->head->number] -= a->flow;
    }
    int bad = 0;
    for (int v = 0; v < net->nnodes && !bad; v++)
        if (bal[v] != net->nodes[v].supply)
            bad = fail("flow conservation violated", v);
    if (!bad && bal[net->nnodes] != 0)
        bad = fail("root imbalance", net->nnodes);
    free(bal);
    return bad;
}

static int check_tree(const network_t *net)
{
    int tree_arcs = 0;
    for (int k = 0; k < net->narcs; k++)
        tree_arcs += arc_at(net, k)->state == STATE_TREE;
    if (tree_arcs != net->nnodes)
        return fail("tree arc count", tree_arcs);
    for (int v = 0; v < net->nnodes; v++) {
        const node_t *n = &net->nodes[v];
        const arc_t *a = n->pred;
        if (!n->parent || !a || a->state != STATE_TREE)
            return fail("node without tree arc", v);
        const node_t *other = n->dir == DIR_UP ? a->head : a->tail;
        const node_t *self = n->dir == DIR_UP ? a->tail : a->head;
        if (other != n->parent || self != n || n->depth != n->parent->depth + 1)
            return fail("inconsistent tree links", v);
    }
    return 0;
}

/* No implicit (never generated) deadhead arc may have negative reduced cost. */
static int check_implicit(const network_t *net, const timetable_t *tt)
{
    for (int i = 0; i < tt->ntrips; i++) {
        int32_t horizon = tt->trips[i].end + tt->max_wait + 40;
        cost_t pi_out = net->nodes[trip_out_node(i)].pi;
        for (int j = first_trip_starting_at(tt, tt->trips[i].end);
             j < tt->ntrips && tt->trips[j].start <= horizon; j++) {
            if (!compatible(tt, i, j))
                continue;
            cost_t rc = deadhead_cost(tt, i, j) + pi_out -
                        net->nodes[trip_in_node(j)].pi;
            uint32_t id = (uint32_t)i * (uint32_t)tt->ntrips + (uint32_t)j;
            if (rc < 0 && !net_has_pair(net, id))
                return fail("implicit arc prices out negative", i);
        }
    }
    return 0;
}

static void summarize(const network_t *net, const timetable_t *tt, solution_t *sol)
{
    int depot = depot_node(tt);
    sol->cost = 0;
    sol->vehicles = 0;
    sol->deadhead_flow = 0;
    sol->flow_hash = 2166136261u;
    for (int k = 0; k < net->narcs; k++) {
        const arc_t *a = arc_at(net, k);
        if (a->flow == 0)
            continue;
        sol->cost += a->cost * a->flow;
        if (a->tail->number == depot)
            sol->vehicles += (int)a->flow;
        if (a->ident >= 0) {
            sol->deadhead_flow += a->flow;
            sol->flow_hash = (sol->flow_hash ^ (uint32_t)a->ident) * 16777619u;
        }
    }
}

int verify_solution(const network_t *net, const timetable_t *tt, solution_t *sol)
{
    if (check_bounds_and_states(net) || check_conservation(net) ||
        check_tree(net) || check_implicit(net, tt))
        return 1;
    summarize(net, tt, sol);
    if (sol->vehicles + sol->deadhead_flow != tt->ntrips)
        return fail("trips not all covered", (int)sol->deadhead_flow);
    return 0;
}
