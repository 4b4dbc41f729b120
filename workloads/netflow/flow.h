/*
 * flow.h - shared declarations for the netflow workload: a vehicle
 * scheduling problem (timetabled trips, deadhead connections, a depot)
 * solved as a minimum-cost flow by the primal network simplex method with
 * candidate-list pricing and column generation of implicit arcs.
 */
#ifndef FLOW_H
#define FLOW_H

#include <stddef.h>
#include <stdint.h>

typedef int64_t cost_t;

typedef struct { uint64_t s; } prng_t;
void     prng_seed(prng_t *r, uint64_t seed);
uint64_t prng_next(prng_t *r);
uint32_t prng_below(prng_t *r, uint32_t n);

/* ---- timetable (timetable.c) ---- */
typedef struct {
    int32_t start, end;       /* minutes */
    int16_t from, to;         /* stop indices */
} trip_t;

typedef struct {
    int ntrips, nstops;
    trip_t *trips;            /* sorted by start time */
    int16_t *sx, *sy;         /* stop coordinates */
    int max_wait;
} timetable_t;

void   timetable_generate(timetable_t *tt, int ntrips, int nstops, uint64_t seed);
void   timetable_free(timetable_t *tt);
int    travel_time(const timetable_t *tt, int a, int b);
int    compatible(const timetable_t *tt, int i, int j);
cost_t deadhead_cost(const timetable_t *tt, int i, int j);
cost_t pullout_cost(const timetable_t *tt, int j);
cost_t pullin_cost(const timetable_t *tt, int i);
int    first_trip_starting_at(const timetable_t *tt, int32_t t);

/* ---- network (network.c) ---- */
enum { STATE_UPPER = -1, STATE_TREE = 0, STATE_LOWER = 1 };
enum { DIR_DOWN = -1, DIR_UP = 1 };

typedef struct node node_t;
typedef struct arc arc_t;

struct arc {
    node_t *tail, *head;
    cost_t cost;
    int64_t cap, flow;
    int8_t state;
    int8_t artificial;
    int32_t ident;            /* deadhead pair id, -1 for other arcs */
};

struct node {
    node_t *parent, *first_child, *next_sib, *prev_sib;
    arc_t *pred;
    int dir;
    int depth;
    cost_t pi;
    int64_t supply;
    int number;
};

#define ARC_CHUNK_BITS 12
#define ARC_CHUNK (1 << ARC_CHUNK_BITS)

typedef struct {
    int nnodes;               /* real nodes; root is nodes[nnodes] */
    node_t *nodes, *root;
    arc_t **chunks;           /* arcs live in fixed chunks: pointers stay valid */
    int nchunks, chunk_cap;
    int narcs;
    uint32_t *pairset;        /* open-addressing set of deadhead pair ids */
    uint32_t pairset_mask;
    int npairs;
    cost_t big_m;
} network_t;

#define INF_CAP ((int64_t)1 << 40)

void   net_init(network_t *net, int nnodes);
static inline arc_t *arc_at(const network_t *net, int k)
{
    return &net->chunks[k >> ARC_CHUNK_BITS][k & (ARC_CHUNK - 1)];
}
void   net_free(network_t *net);
arc_t *net_add_arc(network_t *net, int tail, int head, cost_t cost, int64_t cap,
                   int32_t ident);
int    net_has_pair(const network_t *net, uint32_t id);
void   net_add_pair(network_t *net, uint32_t id);
void   net_add_artificials(network_t *net, cost_t big_m);

/* vehicle scheduling model (model.c) */
int    trip_in_node(int trip);
int    trip_out_node(int trip);
int    depot_node(const timetable_t *tt);
void   model_build(network_t *net, const timetable_t *tt, int initial_per_trip);

/* ---- network simplex (simplex.c, tree.c, pricing.c) ---- */
typedef struct pricer pricer_t;
pricer_t *pricer_new(int list_size, int block);
void      pricer_free(pricer_t *p);
void      pricer_reset(pricer_t *p);
arc_t    *pricer_select(pricer_t *p, network_t *net);

void   tree_init(network_t *net);
node_t *tree_join(node_t *u, node_t *v);
void   tree_reroot(network_t *net, node_t *u_in, node_t *v_in, arc_t *in_arc,
                   node_t *u_out, cost_t sigma, node_t **stack);
cost_t reduced_cost(const arc_t *a);

typedef struct {
    uint64_t pivots, degenerate, tree_updates, subtree_nodes;
} simplex_stats_t;

int    simplex_solve(network_t *net, pricer_t *pr, simplex_stats_t *st);

/* ---- column generation (colgen.c) ---- */
int    price_out_implicit(network_t *net, const timetable_t *tt, int max_new,
                          uint64_t *examined);

/* ---- verification (verify.c) ---- */
typedef struct {
    cost_t cost;
    int vehicles;
    int64_t deadhead_flow;
    uint32_t flow_hash;
} solution_t;

int    verify_solution(const network_t *net, const timetable_t *tt,
                       solution_t *sol);

#endif
