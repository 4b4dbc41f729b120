/* route.h - shared declarations for the maze_route workload: a
 * vpr-routing-like negotiated-congestion maze router over a multi-layer
 * grid with obstacles (A* with a binary heap, Lee BFS for feasibility). */
#ifndef MR_ROUTE_H
#define MR_ROUTE_H

#include <stdbool.h>
#include <stdint.h>

#define MAX_PINS 6
#define NODE_CAP 1    /* tracks per grid node */
#define BASE_COST 16  /* cost of one grid step, Q4 */
#define VIA_COST 40   /* extra cost of a layer change, Q4 */

/* ---- PRNG (rng.c) ------------------------------------------------------- */
typedef struct {
    uint64_t state, inc;
} Pcg;

void pcg_seed(Pcg *p, uint64_t seed, uint64_t stream);
uint32_t pcg_next(Pcg *p);
int pcg_range(Pcg *p, int lo, int hi); /* inclusive */

/* ---- grid (grid.c) -------------------------------------------------------- */
typedef struct {
    int W, H, L;
    int nnodes;
    uint8_t *blocked;
    int32_t *pin_owner; /* net id + 1 of the pin on this node, else 0 */
    uint16_t *occ;
    int32_t *hist;      /* accumulated history cost, Q4 */
} Grid;

void grid_init(Grid *g, int W, int H, int L);
void grid_free(Grid *g);
void grid_add_obstacles(Grid *g, Pcg *p, int count, int maxside);
int grid_node(const Grid *g, int x, int y, int l);
int grid_x(const Grid *g, int n);
int grid_y(const Grid *g, int n);
int grid_layer(const Grid *g, int n);
int grid_neighbors(const Grid *g, int n, int out[4]);
bool grid_usable(const Grid *g, int n, int net);
int grid_blocked_count(const Grid *g);

/* ---- binary heap (heap.c) ------------------------------------------------ */
typedef struct {
    int64_t key;
    int32_t node;
} HeapItem;

typedef struct {
    HeapItem *a;
    int n, cap;
    uint64_t pushes;
} Heap;

void heap_init(Heap *h, int cap);
void heap_free(Heap *h);
void heap_clear(Heap *h);
void heap_push(Heap *h, int64_t key, int32_t node);
bool heap_pop(Heap *h, HeapItem *out);

/* ---- nets (netgen.c) ------------------------------------------------------ */
typedef struct {
    int id;
    int npins;
    int pins[MAX_PINS]; /* node ids on layer 0 */
    int *route;         /* nodes of the routed tree */
    int nroute, rcap;
    int wirelen, vias;
    int bbox_half_perim;
} RNet;

typedef struct {
    int nnets;
    RNet *nets;
} NetSet;

void nets_generate(NetSet *ns, Grid *g, Pcg *p, int nnets, int span);
void nets_free(NetSet *ns);
typedef struct {
    uint32_t *mark;
    int *queue;
    uint32_t tag;
} LeeScratch;

bool lee_connected(const Grid *g, const RNet *net, LeeScratch *ls);

/* ---- search and routing (search.c, router.c) ----------------------------- */
typedef struct {
    Grid *g;
    NetSet *ns;
    int64_t *gcost;
    int32_t *prev;
    uint32_t *stamp;
    uint32_t epoch;
    uint32_t *tree;     /* tree membership tag per node */
    uint32_t tree_tag;
    Heap heap;
    int pres_q4;        /* present-congestion factor, Q4 */
    int hist_inc;       /* history increment per overused iteration, Q4 */
    uint64_t expansions, searches;
} Router;

void router_init(Router *r, Grid *g, NetSet *ns);
void router_free(Router *r);
bool astar_connect(Router *r, RNet *net, int sink);
void route_net(Router *r, RNet *net);
void ripup_net(Router *r, RNet *net);
int32_t node_cost(const Router *r, int node);

typedef struct {
    int iterations;
    int final_overuse;
    int rerouted_total;
    uint64_t expansions;
} RouteStats;

bool route_all(Router *r, int max_iters, RouteStats *st);
int count_overuse(const Grid *g);

/* ---- verification (verify.c) -------------------------------------------- */
typedef struct {
    int64_t wirelen, vias;
    uint64_t checksum;
    int disconnected;
    int occ_mismatch;
    int conflicts;
} VerifyReport;

void verify_routes(const Grid *g, const NetSet *ns, VerifyReport *vr);

#endif
