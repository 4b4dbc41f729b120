/* anneal.c - the simulated-annealing engine of anneal_place: swap/relocate
 * move generation inside a shrinking range window, incremental cost
 * evaluation of the touched nets, fixed-point Metropolis acceptance via an
 * integer exp table, VPR-style adaptive cooling, and a greedy final quench. */
#include "place.h"

#include <stdio.h>
#include <stdlib.h>

#define EXP_STEPS 512 /* table covers delta/T in [0, 16) in steps of 1/32 */

static uint32_t exp_q16[EXP_STEPS + 1];

typedef struct {
    int64_t t_q16;
    int rlim_q8;
    int rlim_max;
} Schedule;

/* exp(-i/32) in Q16, built by repeated fixed-point multiplication. */
void exp_table_init(void)
{
    const uint64_t step_q30 = 1040706261ULL; /* exp(-1/32) * 2^30 */
    uint64_t v = 1ULL << 30;
    for (int i = 0; i <= EXP_STEPS; i++) {
        exp_q16[i] = (uint32_t)(v >> 14);
        v = (v * step_q30) >> 30;
    }
}

uint32_t accept_prob_q16(int64_t delta, int64_t t_q16)
{
    if (delta <= 0)
        return 65536;
    if (t_q16 <= 0 || delta > (INT64_MAX >> 22))
        return 0;
    int64_t r = (delta << 21) / t_q16; /* delta / T in units of 1/32 */
    if (r >= EXP_STEPS)
        return 0;
    return exp_q16[r];
}

static int64_t isqrt64(uint64_t v)
{
    uint64_t r = 0, bit = 1ULL << 62;
    while (bit > v)
        bit >>= 2;
    while (bit) {
        if (v >= r + bit) {
            v -= r + bit;
            r = (r >> 1) + bit;
        } else {
            r >>= 1;
        }
        bit >>= 2;
    }
    return (int64_t)r;
}

static int icbrt(int n)
{
    int r = 1;
    while ((int64_t)(r + 1) * (r + 1) * (r + 1) <= n)
        r++;
    return r;
}

/* ---- move mechanics ----------------------------------------------------- */

static void touch_nets(Placement *pl, int cell, int who)
{
    const Cell *c = &pl->nl->cells[cell];
    for (int k = 0; k < c->nnets; k++) {
        int n = c->nets[k];
        if (pl->stamp[n] != pl->epoch) {
            pl->stamp[n] = pl->epoch;
            pl->tidx[n] = pl->ntouched;
            pl->touched[pl->ntouched] = n;
            pl->tmover[pl->ntouched] = who;
            pl->ntouched++;
        } else {
            pl->tmover[pl->tidx[n]] |= who;
        }
    }
}

static void put_cell(Placement *pl, int cell, int x, int y)
{
    pl->nl->cells[cell].x = x;
    pl->nl->cells[cell].y = y;
    pl->slot[y * pl->cols + x] = cell;
}

static void next_epoch(Placement *pl)
{
    if (++pl->epoch == 0) {
        for (int i = 0; i < pl->nl->nnets; i++)
            pl->stamp[i] = 0;
        pl->epoch = 1;
    }
    pl->ntouched = 0;
}

static void evaluate_touched(Placement *pl, int ox, int oy, int tx, int ty, int64_t *delta)
{
    int64_t d = 0;
    for (int i = 0; i < pl->ntouched; i++) {
        int n = pl->touched[i];
        const Net *net = &pl->nl->nets[n];
        BBox *nb = &pl->bb_new[i];
        bool fast = false;
        if (pl->tmover[i] == 1)
            fast = net_bbox_update(pl, net, &pl->bb[n], ox, oy, tx, ty, nb);
        else if (pl->tmover[i] == 2)
            fast = net_bbox_update(pl, net, &pl->bb[n], tx, ty, ox, oy, nb);
        if (fast) {
            pl->fast_bb++;
        } else {
            net_bbox(pl, net, nb);
            pl->full_bb++;
        }
        pl->cost_new[i] = net_cost_of_bbox(net, nb);
        d += pl->cost_new[i] - pl->netcost[n];
    }
    *delta = d;
}

/* Moves cell to (tx,ty), swapping with the occupant if any; returns the
 * cost change.  The move is applied; commit_move or undo_move must follow. */
int64_t try_move(Placement *pl, int cell, int tx, int ty, int *other)
{
    const Cell *c = &pl->nl->cells[cell];
    int ox = c->x, oy = c->y;
    int o = pl->slot[ty * pl->cols + tx];
    *other = o;
    next_epoch(pl);
    touch_nets(pl, cell, 1);
    if (o >= 0)
        touch_nets(pl, o, 2);
    pl->slot[oy * pl->cols + ox] = -1;
    put_cell(pl, cell, tx, ty);
    if (o >= 0)
        put_cell(pl, o, ox, oy);
    int64_t delta;
    evaluate_touched(pl, ox, oy, tx, ty, &delta);
    return delta;
}

void commit_move(Placement *pl)
{
    for (int i = 0; i < pl->ntouched; i++) {
        int n = pl->touched[i];
        pl->cost += pl->cost_new[i] - pl->netcost[n];
        pl->bb[n] = pl->bb_new[i];
        pl->netcost[n] = pl->cost_new[i];
    }
}

void undo_move(Placement *pl, int cell, int other, int ox, int oy, int tx, int ty)
{
    put_cell(pl, cell, ox, oy);
    if (other >= 0)
        put_cell(pl, other, tx, ty);
    else
        pl->slot[ty * pl->cols + tx] = -1;
}

static bool pick_target(const Placement *pl, Rng *r, int cell, int rlim, int *tx, int *ty)
{
    const Cell *c = &pl->nl->cells[cell];
    int ry = rlim / 2 > 0 ? rlim / 2 : 1;
    int xlo = c->x - rlim < 0 ? 0 : c->x - rlim;
    int xhi = c->x + rlim >= pl->cols ? pl->cols - 1 : c->x + rlim;
    int ylo = c->y - ry < 0 ? 0 : c->y - ry;
    int yhi = c->y + ry >= pl->rows ? pl->rows - 1 : c->y + ry;
    for (int tries = 0; tries < 4; tries++) {
        *tx = rng_range(r, xlo, xhi);
        *ty = rng_range(r, ylo, yhi);
        if (*tx != c->x || *ty != c->y)
            return true;
    }
    return false;
}

/* One proposal at temperature t; returns true when accepted. */
static bool propose(Placement *pl, Rng *r, int rlim, int64_t t_q16, bool greedy,
                    AnnealStats *st)
{
    int cell = (int)rng_below(r, (uint32_t)pl->nl->ncells);
    int tx, ty, other;
    if (!pick_target(pl, r, cell, rlim, &tx, &ty))
        return false;
    int ox = pl->nl->cells[cell].x, oy = pl->nl->cells[cell].y;
    int64_t delta = try_move(pl, cell, tx, ty, &other);
    bool ok = greedy ? delta <= 0 : rng_u16(r) < accept_prob_q16(delta, t_q16);
    if (st) {
        st->moves++;
        if (other >= 0)
            st->swaps++;
        else
            st->relocs++;
    }
    if (ok)
        commit_move(pl);
    else
        undo_move(pl, cell, other, ox, oy, tx, ty);
    return ok;
}

/* ---- schedule ------------------------------------------------------------ */

static int64_t initial_temperature(Placement *pl, Rng *r, int n, int rlim)
{
    uint64_t sum = 0, sumsq = 0;
    int cnt = 0;
    for (int i = 0; i < n; i++) {
        int cell = (int)rng_below(r, (uint32_t)pl->nl->ncells);
        int tx, ty, other;
        if (!pick_target(pl, r, cell, rlim, &tx, &ty))
            continue;
        int64_t d = try_move(pl, cell, tx, ty, &other);
        commit_move(pl);
        uint64_t a = (uint64_t)(d < 0 ? -d : d);
        sum += a;
        sumsq += a * a;
        cnt++;
    }
    if (cnt == 0)
        return 65536;
    uint64_t mean = sum / (uint64_t)cnt;
    uint64_t var = sumsq / (uint64_t)cnt - mean * mean;
    int64_t sd = isqrt64(var) + 1;
    return sd * 65536 * 4;
}

static void update_schedule(Schedule *s, uint64_t acc, uint64_t tried)
{
    int rate_q8 = tried ? (int)(acc * 256 / tried) : 0;
    int factor;
    if (rate_q8 > 245)
        factor = 128;
    else if (rate_q8 > 205)
        factor = 230;
    else if (rate_q8 > 38)
        factor = 243;
    else
        factor = 205;
    s->t_q16 = s->t_q16 * factor >> 8;
    int64_t rl = (int64_t)s->rlim_q8 * (256 - 113 + rate_q8) >> 8;
    if (rl < 256)
        rl = 256;
    if (rl > (int64_t)s->rlim_max << 8)
        rl = (int64_t)s->rlim_max << 8;
    s->rlim_q8 = (int)rl;
}

static bool frozen(const Schedule *s, int64_t cost, int nnets)
{
    return s->t_q16 * nnets * 200 < cost * 65536 || s->t_q16 < 64;
}

static void self_check(const Placement *pl, AnnealStats *st, const char *when)
{
    const char *why = "?";
    if (!place_check_consistency(pl, &why)) {
        fprintf(stderr, "anneal_place: consistency check failed %s: %s\n", when, why);
        exit(1);
    }
    st->checks++;
}

int64_t greedy_quench(Placement *pl, Rng *r, uint64_t moves, uint64_t *accepted)
{
    uint64_t acc = 0;
    for (uint64_t m = 0; m < moves; m++)
        if (propose(pl, r, 1 + (int)(m & 1), 0, true, NULL))
            acc++;
    *accepted = acc;
    return pl->cost;
}

void anneal_run(Placement *pl, const AnnealParams *ap, AnnealStats *st)
{
    Rng r;
    rng_seed(&r, ap->seed);
    exp_table_init();
    place_random(pl, &r);
    place_full_cost(pl);
    st->initial_cost = pl->cost;
    int n = pl->nl->ncells;
    Schedule s;
    s.rlim_max = pl->cols > pl->rows ? pl->cols : pl->rows;
    s.rlim_q8 = s.rlim_max << 8;
    s.t_q16 = initial_temperature(pl, &r, n, s.rlim_max);
    st->t0_q16 = s.t_q16;
    self_check(pl, st, "after warm-up");

    uint64_t per_t = ((uint64_t)ap->inner_q8 * (uint64_t)n * (uint64_t)icbrt(n)) >> 8;
    if (per_t < 16)
        per_t = 16;
    for (st->temps = 0; st->temps < ap->max_temps;) {
        uint64_t acc = 0;
        int rlim = s.rlim_q8 >> 8;
        for (uint64_t m = 0; m < per_t; m++)
            if (propose(pl, &r, rlim, s.t_q16, false, st))
                acc++;
        st->accepted += acc;
        st->temps++;
        st->trace = (st->trace ^ (uint64_t)pl->cost) * 0x100000001b3ULL;
        if ((st->temps & 15) == 0)
            self_check(pl, st, "during annealing");
        if ((st->temps & 7) == 0) {
            TimingReport tr;
            timing_analyze(pl, &tr);
            st->trace ^= (uint64_t)tr.critical_delay << 20;
        }
        update_schedule(&s, acc, per_t);
        if (frozen(&s, pl->cost, pl->nl->nnets))
            break;
    }
    uint64_t qacc;
    greedy_quench(pl, &r, per_t * 2, &qacc);
    st->accepted += qacc;
    self_check(pl, st, "after quench");
    st->final_cost = pl->cost;
}
