/*
 * pathnum.c - Ball-Larus path numbering (pathnum.h).
 */
#include "pathnum.h"

#include <stdlib.h>
#include <string.h>

#include "util.h"

#define BL_MAX_PATHS (1ull << 62)

/* An edge of the DAG: a real edge (its index in n->edges) or a pseudo edge. */
typedef struct dag_edge {
    int to;                         /* node: block, nb = ENTRY, nb + 1 = EXIT */
    long real;                      /* index into n->edges, or -1 (pseudo)    */
} dag_edge_t;

typedef struct dag {
    int nnodes;
    dag_edge_t **out;
    int *nout, *cap;
} dag_t;

static void dag_add(dag_t *d, int from, int to, long real)
{
    if (d->nout[from] == d->cap[from])
        d->out[from] = xrealloc(d->out[from], (size_t)(d->cap[from] = d->cap[from] ? 2 * d->cap[from] : 4) *
                                                  sizeof **d->out);
    d->out[from][d->nout[from]++] = (dag_edge_t){ to, real };
}

static void dag_free(dag_t *d)
{
    for (int v = 0; v < d->nnodes; v++) free(d->out[v]);
    free(d->out);
    free(d->nout);
    free(d->cap);
}

static int node_of(int nb, int x) { return x == CFG_ENTRY ? nb : x == CFG_EXIT ? nb + 1 : x; }

/* The real edges without duplicates, in order. */
static void dedupe_edges(const cfg_edge_t *edges, size_t nedges, bl_number_t *n)
{
    n->edges = xcalloc(nedges + 1, sizeof *n->edges);
    for (size_t k = 0; k < nedges; k++) {
        if (bl_edge(n, edges[k].from, edges[k].to)) continue;
        n->edges[n->nedges++] = (bl_edge_t){ edges[k].from, edges[k].to, false, 0 };
    }
}

/* The graph the DFS walks: real edges and ENTRY -> landing. */
static void build_walk_graph(const bl_number_t *n, const int *landing, size_t nlanding, dag_t *g)
{
    int nb = n->nblocks;
    for (size_t k = 0; k < n->nedges; k++)
        dag_add(g, node_of(nb, n->edges[k].from), node_of(nb, n->edges[k].to), (long)k);
    for (size_t k = 0; k < nlanding; k++)
        if (landing[k] >= 0 && landing[k] < nb) dag_add(g, nb, landing[k], -1);
}

/* Iterative DFS from ENTRY: marks back edges; reach[v] for visited nodes. */
static void find_back_edges(bl_number_t *n, const dag_t *g, bool *reach)
{
    int nn = g->nnodes, top = 0;
    char *color = xcalloc((size_t)nn, 1);         /* 0 white, 1 on stack, 2 done */
    int *stack = xcalloc((size_t)nn, sizeof *stack), *pos = xcalloc((size_t)nn, sizeof *pos);
    stack[top++] = n->nblocks;
    color[n->nblocks] = 1;
    while (top) {
        int v = stack[top - 1];
        if (pos[v] == g->nout[v]) {
            color[v] = 2;
            top--;
            continue;
        }
        const dag_edge_t *e = &g->out[v][pos[v]++];
        if (color[e->to] == 1 && e->real >= 0) n->edges[e->real].back = true;
        else if (color[e->to] == 0) {
            color[e->to] = 1;
            stack[top++] = e->to;
        }
    }
    for (int v = 0; v < nn; v++) reach[v] = color[v] != 0;
    free(color);
    free(stack);
    free(pos);
}

/* The DAG: reachable real non-back edges, then per block its pseudo end,
 * and from ENTRY the pseudo starts (loop heads and landings) in block order. */
static void build_dag(const bl_number_t *n, const int *landing, size_t nlanding, const bool *reach,
                      dag_t *d, bool *pstart, bool *pend)
{
    int nb = n->nblocks;
    for (size_t k = 0; k < nlanding; k++)
        if (landing[k] >= 0 && landing[k] < nb) pstart[landing[k]] = true;
    for (size_t k = 0; k < n->nedges; k++) {
        const bl_edge_t *e = &n->edges[k];
        int from = node_of(nb, e->from);
        if (!reach[from]) continue;
        if (e->back) {
            pstart[e->to] = true;
            pend[e->from] = true;
        } else {
            dag_add(d, from, node_of(nb, e->to), (long)k);
        }
    }
    for (int v = 0; v < nb; v++) {
        if (pend[v]) dag_add(d, v, nb + 1, -1);
        if (pstart[v]) dag_add(d, nb, v, -1);
    }
}

/* Post-order of the DAG from ENTRY (successors before their predecessors). */
static int *reverse_topological(const dag_t *d, int entry, int *count)
{
    int nn = d->nnodes, top = 0, k = 0;
    int *order = xcalloc((size_t)nn, sizeof *order), *stack = xcalloc((size_t)nn, sizeof *stack);
    int *pos = xcalloc((size_t)nn, sizeof *pos);
    char *seen = xcalloc((size_t)nn, 1);
    stack[top++] = entry;
    seen[entry] = 1;
    while (top) {
        int v = stack[top - 1];
        if (pos[v] == d->nout[v]) {
            order[k++] = v;
            top--;
            continue;
        }
        int w = d->out[v][pos[v]++].to;
        if (!seen[w]) {
            seen[w] = 1;
            stack[top++] = w;
        }
    }
    free(stack);
    free(pos);
    free(seen);
    *count = k;
    return order;
}

/* NP and Val in reverse topological order; false on overflow. */
static bool assign_values(bl_number_t *n, const dag_t *d, uint64_t *np_node)
{
    int nb = n->nblocks, count;
    int *order = reverse_topological(d, nb, &count);
    bool ok = true;
    np_node[nb + 1] = 1;
    for (int k = 0; k < count && ok; k++) {
        int v = order[k];
        if (v == nb + 1) continue;
        uint64_t sum = 0;
        for (int i = 0; i < d->nout[v]; i++) {
            const dag_edge_t *e = &d->out[v][i];
            if (e->real >= 0) n->edges[e->real].val = sum;
            else if (v == nb) n->start_val[e->to] = sum;
            else n->exit_val[v] = sum;
            if (__builtin_add_overflow(sum, np_node[e->to], &sum) || sum > BL_MAX_PATHS) ok = false;
        }
        np_node[v] = sum;
    }
    free(order);
    return ok;
}

bool bl_number(int nblocks, const cfg_edge_t *edges, size_t nedges, const int *landing,
               size_t nlanding, bl_number_t *out)
{
    memset(out, 0, sizeof *out);
    out->nblocks = nblocks;
    if (nblocks <= 0) return false;
    dedupe_edges(edges, nedges, out);
    int nn = nblocks + 2;
    dag_t walk = { nn, xcalloc((size_t)nn, sizeof *walk.out), xcalloc((size_t)nn, sizeof(int)),
                   xcalloc((size_t)nn, sizeof(int)) };
    build_walk_graph(out, landing, nlanding, &walk);
    if (!walk.nout[nblocks]) {
        dag_free(&walk);
        return false;
    }
    bool *reach = xcalloc((size_t)nn, sizeof *reach);
    find_back_edges(out, &walk, reach);
    dag_free(&walk);

    dag_t dag = { nn, xcalloc((size_t)nn, sizeof *dag.out), xcalloc((size_t)nn, sizeof(int)),
                  xcalloc((size_t)nn, sizeof(int)) };
    bool *pstart = xcalloc((size_t)nblocks, sizeof *pstart), *pend = xcalloc((size_t)nblocks, 1);
    build_dag(out, landing, nlanding, reach, &dag, pstart, pend);
    out->start_val = xcalloc((size_t)nblocks, sizeof *out->start_val);
    out->exit_val = xcalloc((size_t)nblocks, sizeof *out->exit_val);
    for (int v = 0; v < nblocks; v++) out->start_val[v] = out->exit_val[v] = BL_NONE;
    uint64_t *np_node = xcalloc((size_t)nn, sizeof *np_node);
    out->overflow = !assign_values(out, &dag, np_node);
    out->np = xcalloc((size_t)nblocks, sizeof *out->np);
    memcpy(out->np, np_node, (size_t)nblocks * sizeof *out->np);
    out->npaths = out->overflow ? 0 : np_node[nblocks];
    const bl_edge_t *first = bl_edge(out, CFG_ENTRY, 0);
    out->entry_val = first ? first->val : BL_NONE;
    free(np_node);
    free(pstart);
    free(pend);
    free(reach);
    dag_free(&dag);
    return true;
}

void bl_number_free(bl_number_t *n)
{
    free(n->edges);
    free(n->np);
    free(n->start_val);
    free(n->exit_val);
    memset(n, 0, sizeof *n);
}

const bl_edge_t *bl_edge(const bl_number_t *n, int from, int to)
{
    for (size_t k = 0; k < n->nedges; k++)
        if (n->edges[k].from == from && n->edges[k].to == to) return &n->edges[k];
    return NULL;
}

/* NP of a node: EXIT is 1. */
static uint64_t np_of(const bl_number_t *n, int x) { return x == CFG_EXIT ? 1 : n->np[x]; }

/* The way out of v that path remainder `rem` takes: a real edge's target
 * or the pseudo end (CFG_EXIT with *pseudo set); rem is reduced by its Val. */
static int step_out(const bl_number_t *n, int v, uint64_t *rem, bool *pseudo)
{
    for (size_t k = 0; k < n->nedges; k++) {
        const bl_edge_t *e = &n->edges[k];
        if (e->from != v || e->back) continue;
        if (*rem >= e->val && *rem - e->val < np_of(n, e->to)) {
            *rem -= e->val;
            *pseudo = false;
            return e->to;
        }
    }
    if (n->exit_val[v] != BL_NONE && *rem == n->exit_val[v]) {
        *rem = 0;
        *pseudo = true;
        return CFG_EXIT;
    }
    return CFG_ENTRY;                             /* not a path: should not happen */
}

size_t bl_regenerate(const bl_number_t *n, uint64_t sum, int *blocks, size_t max,
                     bool *pseudo_start, bool *pseudo_end)
{
    if (n->overflow || sum >= n->npaths) return 0;
    int v = -1;
    uint64_t rem = sum;
    if (n->entry_val != BL_NONE && rem >= n->entry_val && rem - n->entry_val < n->np[0]) {
        v = 0;
        rem -= n->entry_val;
        *pseudo_start = false;
    } else {
        for (int w = 0; w < n->nblocks; w++)
            if (n->start_val[w] != BL_NONE && rem >= n->start_val[w] &&
                rem - n->start_val[w] < n->np[w]) {
                v = w;
                rem -= n->start_val[w];
                *pseudo_start = true;
                break;
            }
    }
    size_t len = 0;
    *pseudo_end = false;
    while (v >= 0) {
        if (len < max) blocks[len] = v;
        len++;
        v = step_out(n, v, &rem, pseudo_end);
    }
    return len;
}
