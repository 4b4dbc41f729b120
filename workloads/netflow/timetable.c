/*
 * timetable.c - generates the vehicle scheduling instance for netflow:
 * stops on a grid clustered around hubs, timetabled trips (sorted by start
 * time) and the cost model for deadheading, pull-out and pull-in moves.
 */
#include <stdio.h>
#include <stdlib.h>
#include "flow.h"

#define DAY_MINUTES (20 * 60)
#define VEHICLE_COST 4000
#define TRAVEL_COST 6
#define WAIT_COST 1

static void *xcalloc(size_t n, size_t sz)
{
    void *p = calloc(n ? n : 1, sz);
    if (!p) {
        fprintf(stderr, "netflow: out of memory\n");
        exit(2);
    }
    return p;
}

static int iabs(int v)
{
    return v < 0 ? -v : v;
}

static void place_stops(timetable_t *tt, prng_t *r)
{
    int hubs = 4 + tt->nstops / 30;
    for (int s = 0; s < tt->nstops; s++) {
        if (s < hubs) {
            tt->sx[s] = (int16_t)prng_below(r, 100);
            tt->sy[s] = (int16_t)prng_below(r, 100);
        } else {
            int h = (int)prng_below(r, (uint32_t)hubs);
            tt->sx[s] = (int16_t)(tt->sx[h] + (int)prng_below(r, 21) - 10);
            tt->sy[s] = (int16_t)(tt->sy[h] + (int)prng_below(r, 21) - 10);
        }
    }
}

int travel_time(const timetable_t *tt, int a, int b)
{
    int d = iabs(tt->sx[a] - tt->sx[b]) + iabs(tt->sy[a] - tt->sy[b]);
    return a == b ? 0 : 3 + d / 2;
}

/* Start times follow a two-peak (rush hour) profile. */
static int32_t draw_start(prng_t *r)
{
    uint32_t k = prng_below(r, 10);
    int32_t base;
    if (k < 3)
        base = 120 + (int32_t)prng_below(r, 180);
    else if (k < 6)
        base = 600 + (int32_t)prng_below(r, 240);
    else
        base = (int32_t)prng_below(r, DAY_MINUTES - 120);
    return base;
}

static void sort_trips(trip_t *t, int n)
{
    /* bottom-up merge sort by (start, end, from, to): deterministic */
    trip_t *tmp = xcalloc((size_t)n, sizeof(trip_t));
    for (int w = 1; w < n; w *= 2) {
        for (int lo = 0; lo < n; lo += 2 * w) {
            int mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            int a = lo, b = mid, o = lo;
            while (a < mid && b < hi) {
                int takeb = t[b].start < t[a].start ||
                            (t[b].start == t[a].start && t[b].end < t[a].end);
                tmp[o++] = takeb ? t[b++] : t[a++];
            }
            while (a < mid) tmp[o++] = t[a++];
            while (b < hi) tmp[o++] = t[b++];
        }
        for (int i = 0; i < n; i++)
            t[i] = tmp[i];
    }
    free(tmp);
}

void timetable_generate(timetable_t *tt, int ntrips, int nstops, uint64_t seed)
{
    prng_t r;
    prng_seed(&r, seed);
    tt->ntrips = ntrips;
    tt->nstops = nstops;
    tt->max_wait = 90;
    tt->trips = xcalloc((size_t)ntrips, sizeof(trip_t));
    tt->sx = xcalloc((size_t)nstops, sizeof(int16_t));
    tt->sy = xcalloc((size_t)nstops, sizeof(int16_t));
    place_stops(tt, &r);
    for (int i = 0; i < ntrips; i++) {
        trip_t *t = &tt->trips[i];
        t->from = (int16_t)prng_below(&r, (uint32_t)nstops);
        do
            t->to = (int16_t)prng_below(&r, (uint32_t)nstops);
        while (t->to == t->from);
        t->start = draw_start(&r);
        t->end = t->start + 2 * travel_time(tt, t->from, t->to) +
                 (int32_t)prng_below(&r, 30);
    }
    sort_trips(tt->trips, ntrips);
}

void timetable_free(timetable_t *tt)
{
    free(tt->trips);
    free(tt->sx);
    free(tt->sy);
}

int compatible(const timetable_t *tt, int i, int j)
{
    const trip_t *a = &tt->trips[i], *b = &tt->trips[j];
    int32_t ready = a->end + travel_time(tt, a->to, b->from);
    return i != j && ready <= b->start && b->start - ready <= tt->max_wait;
}

cost_t deadhead_cost(const timetable_t *tt, int i, int j)
{
    const trip_t *a = &tt->trips[i], *b = &tt->trips[j];
    int tr = travel_time(tt, a->to, b->from);
    return (cost_t)TRAVEL_COST * tr + (cost_t)WAIT_COST * (b->start - a->end - tr);
}

cost_t pullout_cost(const timetable_t *tt, int j)
{
    return VEHICLE_COST + (cost_t)TRAVEL_COST * travel_time(tt, 0, tt->trips[j].from);
}

cost_t pullin_cost(const timetable_t *tt, int i)
{
    return (cost_t)TRAVEL_COST * travel_time(tt, tt->trips[i].to, 0);
}

/* Index of the first trip whose start time is >= t (binary search). */
int first_trip_starting_at(const timetable_t *tt, int32_t t)
{
    int lo = 0, hi = tt->ntrips;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (tt->trips[mid].start < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}
