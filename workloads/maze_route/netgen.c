/* netgen.c - generates the nets routed by maze_route: multi-pin nets with
 * mostly local and some long-distance pins on free layer-0 sites, each
 * checked for feasibility by a Lee breadth-first wavefront that ignores
 * congestion but respects obstacles and other nets' pins. */
#include "route.h"

#include <stdio.h>
#include <stdlib.h>

static int pick_npins(Pcg *p)
{
    int u = pcg_range(p, 0, 99);
    if (u < 55)
        return 2;
    if (u < 80)
        return 3;
    if (u < 93)
        return 4;
    return pcg_range(p, 5, MAX_PINS);
}

static int clampi(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

/* A pin site must be free, keep its via escape and not touch another pin. */
static bool site_ok(const Grid *g, int n, int x)
{
    if (g->blocked[n] || g->pin_owner[n] != 0)
        return false;
    if (g->L > 1 && g->blocked[n + g->W * g->H])
        return false;
    if (x > 0 && g->pin_owner[n - 1] != 0)
        return false;
    if (x + 1 < g->W && g->pin_owner[n + 1] != 0)
        return false;
    return true;
}

/* A free layer-0 site near (cx, cy); -1 if none found. */
static int pick_site(Grid *g, Pcg *p, int cx, int cy, int span)
{
    for (int tries = 0; tries < 40; tries++) {
        int x = clampi(cx + pcg_range(p, -span, span), 0, g->W - 1);
        int y = clampi(cy + pcg_range(p, -span / 2, span / 2), 0, g->H - 1);
        int n = grid_node(g, x, y, 0);
        if (site_ok(g, n, x))
            return n;
    }
    return -1;
}

static int half_perimeter(const Grid *g, const RNet *net)
{
    int x0 = g->W, x1 = -1, y0 = g->H, y1 = -1;
    for (int i = 0; i < net->npins; i++) {
        int x = grid_x(g, net->pins[i]), y = grid_y(g, net->pins[i]);
        x0 = x < x0 ? x : x0;
        x1 = x > x1 ? x : x1;
        y0 = y < y0 ? y : y0;
        y1 = y > y1 ? y : y1;
    }
    return (x1 - x0) + (y1 - y0);
}

typedef struct {
    int x0, x1, y0, y1;
} Window;

static bool in_window(const Grid *g, const Window *w, int n)
{
    int x = grid_x(g, n), y = grid_y(g, n);
    return x >= w->x0 && x <= w->x1 && y >= w->y0 && y <= w->y1;
}

static Window net_window(const Grid *g, const RNet *net, int margin)
{
    Window w = {g->W, -1, g->H, -1};
    for (int i = 0; i < net->npins; i++) {
        int x = grid_x(g, net->pins[i]), y = grid_y(g, net->pins[i]);
        w.x0 = x < w.x0 ? x : w.x0;
        w.x1 = x > w.x1 ? x : w.x1;
        w.y0 = y < w.y0 ? y : w.y0;
        w.y1 = y > w.y1 ? y : w.y1;
    }
    w.x0 = clampi(w.x0 - margin, 0, g->W - 1);
    w.x1 = clampi(w.x1 + margin, 0, g->W - 1);
    w.y0 = clampi(w.y0 - margin, 0, g->H - 1);
    w.y1 = clampi(w.y1 + margin, 0, g->H - 1);
    return w;
}

/* Lee wavefront from the first pin, confined to the net's bounding box
 * plus a margin; true when every pin is reached.  mark[] holds tags. */
bool lee_connected(const Grid *g, const RNet *net, LeeScratch *ls)
{
    Window w = net_window(g, net, 3);
    uint32_t tag = ++ls->tag;
    int head = 0, tail = 0;
    ls->mark[net->pins[0]] = tag;
    ls->queue[tail++] = net->pins[0];
    while (head < tail) {
        int n = ls->queue[head++], nb[4];
        int k = grid_neighbors(g, n, nb);
        for (int i = 0; i < k; i++) {
            int m = nb[i];
            if (ls->mark[m] == tag || !grid_usable(g, m, net->id) || !in_window(g, &w, m))
                continue;
            ls->mark[m] = tag;
            ls->queue[tail++] = m;
        }
    }
    for (int i = 1; i < net->npins; i++)
        if (ls->mark[net->pins[i]] != tag)
            return false;
    return true;
}

static bool make_net(Grid *g, Pcg *p, RNet *net, int span)
{
    int long_net = pcg_range(p, 0, 9) == 0;
    int s = long_net ? span * 4 : span;
    int cx = pcg_range(p, 0, g->W - 1);
    int cy = pcg_range(p, 0, g->H - 1);
    int want = pick_npins(p);
    net->npins = 0;
    for (int i = 0; i < want; i++) {
        int site = pick_site(g, p, cx, cy, s);
        if (site < 0)
            break;
        g->pin_owner[site] = net->id + 1;
        net->pins[net->npins++] = site;
    }
    return net->npins >= 2;
}

static void release_pins(Grid *g, RNet *net)
{
    for (int i = 0; i < net->npins; i++)
        g->pin_owner[net->pins[i]] = 0;
    net->npins = 0;
}

/* Drops nets that later pins made infeasible and renumbers the rest. */
static void prune_infeasible(NetSet *ns, Grid *g, LeeScratch *ls)
{
    int kept = 0;
    for (int i = 0; i < ns->nnets; i++) {
        RNet *net = &ns->nets[i];
        if (!lee_connected(g, net, ls)) {
            release_pins(g, net);
            continue;
        }
        ns->nets[kept] = *net;
        ns->nets[kept].id = kept;
        for (int k = 0; k < net->npins; k++)
            g->pin_owner[ns->nets[kept].pins[k]] = kept + 1;
        kept++;
    }
    ns->nnets = kept;
}

void nets_generate(NetSet *ns, Grid *g, Pcg *p, int nnets, int span)
{
    LeeScratch ls;
    ls.tag = 0;
    ls.mark = calloc((size_t)g->nnodes, sizeof(uint32_t));
    ls.queue = malloc((size_t)g->nnodes * sizeof(int));
    ns->nnets = 0;
    ns->nets = calloc((size_t)nnets, sizeof(RNet));
    if (!ns->nets || !ls.mark || !ls.queue) {
        fprintf(stderr, "maze_route: out of memory\n");
        exit(2);
    }
    for (int attempts = 0; ns->nnets < nnets && attempts < nnets * 4; attempts++) {
        RNet *net = &ns->nets[ns->nnets];
        net->id = ns->nnets;
        if (!make_net(g, p, net, span)) {
            release_pins(g, net);
            continue;
        }
        net->bbox_half_perim = half_perimeter(g, net);
        ns->nnets++;
    }
    prune_infeasible(ns, g, &ls);
    free(ls.mark);
    free(ls.queue);
}

void nets_free(NetSet *ns)
{
    for (int i = 0; i < ns->nnets; i++)
        free(ns->nets[i].route);
    free(ns->nets);
}
