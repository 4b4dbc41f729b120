/* place.h - shared declarations for the anneal_place workload: a
 * twolf/vpr-like simulated-annealing standard-cell placer working on a
 * generated netlist.  All arithmetic is integer / fixed point so the run
 * is bit-identical on every ISA. */
#ifndef AP_PLACE_H
#define AP_PLACE_H

#include <stdbool.h>
#include <stdint.h>

/* ---- deterministic PRNG (rng.c) ---------------------------------------- */
typedef struct {
    uint64_t s[2];
} Rng;

void rng_seed(Rng *r, uint64_t seed);
uint64_t rng_next(Rng *r);
uint32_t rng_below(Rng *r, uint32_t n);
uint32_t rng_u16(Rng *r);
int rng_range(Rng *r, int lo, int hi); /* inclusive */

/* ---- netlist (netlist.c) ------------------------------------------------ */
typedef struct {
    int npins;
    int *pins;     /* cell ids; pins[0] is the driver */
    int weight_q8; /* fanout-dependent crossing weight, Q8 */
} Net;

typedef struct {
    int nnets;
    int *nets;  /* nets this cell is on */
    int x, y;   /* current location */
    int level;  /* logic depth for timing */
} Cell;

typedef struct {
    int ncells, nnets, npins_total;
    Cell *cells;
    Net *nets;
    int *pin_pool;
    int *cellnet_pool;
    int *net_order; /* nets sorted by driver id (timing.c) */
} Netlist;

typedef struct {
    int ncells;
    int cluster;   /* cells per logical cluster */
    int rent_span; /* how far (in clusters) local nets reach */
    uint64_t seed;
} NetGenParams;

void netlist_generate(Netlist *nl, const NetGenParams *p);
void netlist_free(Netlist *nl);
uint64_t netlist_signature(const Netlist *nl);

/* ---- placement state and cost (placement.c) ---------------------------- */
typedef struct {
    int xmin, xmax, ymin, ymax;
} BBox;

typedef struct {
    Netlist *nl;
    int cols, rows;
    int *slot;        /* cols*rows, cell id or -1 */
    BBox *bb;         /* per net, committed */
    int64_t *netcost; /* per net, committed */
    int64_t cost;     /* incrementally maintained total */
    /* scratch for move evaluation */
    int *touched;
    int *tmover;      /* per touched net: 1 cell moved, 2 other moved, 3 both */
    int *tidx;        /* per net: index into touched[] when stamped */
    int ntouched;
    uint64_t fast_bb, full_bb;
    uint32_t *stamp;
    uint32_t epoch;
    BBox *bb_new;
    int64_t *cost_new;
} Placement;

void place_init(Placement *pl, Netlist *nl, int cols, int rows);
void place_free(Placement *pl);
void place_random(Placement *pl, Rng *r);
int64_t net_cost_of_bbox(const Net *n, const BBox *b);
void net_bbox(const Placement *pl, const Net *n, BBox *out);
bool net_bbox_update(const Placement *pl, const Net *n, const BBox *old,
                     int ox, int oy, int nx, int ny, BBox *out);
int64_t place_full_cost(Placement *pl);
int64_t place_recompute_cost(const Placement *pl);
bool place_check_consistency(const Placement *pl, const char **why);
uint64_t place_signature(const Placement *pl);

/* ---- moves and annealing (anneal.c) ------------------------------------ */
typedef struct {
    int inner_q8;       /* moves per temperature = inner * n^(4/3), Q8 */
    int max_temps;
    uint64_t seed;
} AnnealParams;

typedef struct {
    int64_t initial_cost, final_cost;
    int temps;
    uint64_t moves, accepted, swaps, relocs;
    int64_t t0_q16;
    uint64_t trace;        /* hash of the cost after every temperature */
    int64_t crit_delay;    /* final critical path (timing.c) */
    int checks;            /* consistency checks passed */
} AnnealStats;

void exp_table_init(void);
uint32_t accept_prob_q16(int64_t delta, int64_t t_q16);
void anneal_run(Placement *pl, const AnnealParams *ap, AnnealStats *st);
int64_t greedy_quench(Placement *pl, Rng *r, uint64_t moves, uint64_t *accepted);
int64_t try_move(Placement *pl, int cell, int tx, int ty, int *other);
void commit_move(Placement *pl);
void undo_move(Placement *pl, int cell, int other, int ox, int oy, int tx, int ty);

/* ---- timing analysis (timing.c) ---------------------------------------- */
typedef struct {
    int64_t critical_delay;
    int critical_sink;
    int64_t total_slack_q0;
    int nlevels;
} TimingReport;

void timing_levelize(Netlist *nl);
void timing_analyze(const Placement *pl, TimingReport *rep);

#endif
