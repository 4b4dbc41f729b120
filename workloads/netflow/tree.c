/*
 * tree.c - the spanning tree basis of the network simplex method: parent
 * pointers with doubly linked child lists, depths and node potentials;
 * join-node search and the re-hanging of the subtree cut off by the
 * leaving arc (path reversal plus a potential/depth update of the subtree).
 */
#include "flow.h"

cost_t reduced_cost(const arc_t *a)
{
    return a->cost + a->tail->pi - a->head->pi;
}

static void unlink_child(node_t *c)
{
    node_t *p = c->parent;
    if (c->prev_sib)
        c->prev_sib->next_sib = c->next_sib;
    else if (p)
        p->first_child = c->next_sib;
    if (c->next_sib)
        c->next_sib->prev_sib = c->prev_sib;
    c->next_sib = c->prev_sib = NULL;
    c->parent = NULL;
}

static void link_child(node_t *p, node_t *c)
{
    c->parent = p;
    c->prev_sib = NULL;
    c->next_sib = p->first_child;
    if (p->first_child)
        p->first_child->prev_sib = c;
    p->first_child = c;
}

/* Initial basis: every node hangs from the root by its artificial arc. */
void tree_init(network_t *net)
{
    node_t *root = net->root;
    root->parent = NULL;
    root->first_child = root->next_sib = root->prev_sib = NULL;
    root->pred = NULL;
    root->depth = 0;
    root->pi = 0;
    for (int v = net->nnodes - 1; v >= 0; v--) {
        node_t *n = &net->nodes[v];
        n->first_child = NULL;
        link_child(root, n);
        n->depth = 1;
        /* make the artificial arc's reduced cost zero */
        n->pi = n->dir == DIR_UP ? -n->pred->cost : n->pred->cost;
    }
}

node_t *tree_join(node_t *u, node_t *v)
{
    while (u != v) {
        if (u->depth > v->depth)
            u = u->parent;
        else if (v->depth > u->depth)
            v = v->parent;
        else {
            u = u->parent;
            v = v->parent;
        }
    }
    return u;
}

/* Depth-first walk over the subtree at top, shifting potentials by sigma. */
static int refresh_subtree(node_t *top, cost_t sigma, node_t **stack)
{
    int sp = 0, count = 0;
    stack[sp++] = top;
    while (sp > 0) {
        node_t *x = stack[--sp];
        x->depth = x->parent->depth + 1;
        x->pi += sigma;
        count++;
        for (node_t *c = x->first_child; c; c = c->next_sib)
            stack[sp++] = c;
    }
    return count;
}

/*
 * The leaving arc is pred(u_out); u_in lies in the subtree of u_out.  The
 * path u_in .. u_out is reversed so that u_in hangs from v_in by in_arc.
 */
void tree_reroot(network_t *net, node_t *u_in, node_t *v_in, arc_t *in_arc,
                 node_t *u_out, cost_t sigma, node_t **stack)
{
    node_t *w = u_in, *new_parent = v_in;
    arc_t *new_arc = in_arc;
    for (;;) {
        node_t *old_parent = w->parent;
        arc_t *old_arc = w->pred;
        unlink_child(w);
        w->pred = new_arc;
        w->dir = new_arc->tail == w ? DIR_UP : DIR_DOWN;
        link_child(new_parent, w);
        if (w == u_out)
            break;
        new_parent = w;
        new_arc = old_arc;
        w = old_parent;
    }
    (void)net;
    refresh_subtree(u_in, sigma, stack);
}
