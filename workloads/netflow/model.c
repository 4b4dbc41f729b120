/*
 * model.c - turns a timetable into a min-cost flow network: each trip has
 * a start node (demand 1) and an end node (supply 1); the depot connects to
 * every trip start (pull-out, includes the vehicle cost) and from every trip
 * end (pull-in); an initial subset of deadhead arcs links trip ends to
 * compatible later trip starts.  Further deadheads come from colgen.c.
 */
#include "flow.h"

int trip_in_node(int trip) { return 2 * trip; }
int trip_out_node(int trip) { return 2 * trip + 1; }
int depot_node(const timetable_t *tt) { return 2 * tt->ntrips; }

static void set_supplies(network_t *net, const timetable_t *tt)
{
    for (int i = 0; i < tt->ntrips; i++) {
        net->nodes[trip_in_node(i)].supply = -1;
        net->nodes[trip_out_node(i)].supply = 1;
    }
    net->nodes[depot_node(tt)].supply = 0;
}

static cost_t largest_cost(const timetable_t *tt)
{
    cost_t mx = 1;
    for (int i = 0; i < tt->ntrips; i++) {
        cost_t c = pullout_cost(tt, i) + pullin_cost(tt, i);
        if (c > mx)
            mx = c;
    }
    return mx + (cost_t)tt->max_wait * 8;
}

/* Add the first `per_trip` compatible successors of trip i. */
static void add_initial_deadheads(network_t *net, const timetable_t *tt, int i,
                                  int per_trip)
{
    int added = 0;
    int j = first_trip_starting_at(tt, tt->trips[i].end);
    for (; j < tt->ntrips && added < per_trip; j++) {
        if (tt->trips[j].start > tt->trips[i].end + tt->max_wait + 40)
            break;
        if (!compatible(tt, i, j))
            continue;
        uint32_t id = (uint32_t)i * (uint32_t)tt->ntrips + (uint32_t)j;
        net_add_arc(net, trip_out_node(i), trip_in_node(j),
                    deadhead_cost(tt, i, j), 1, (int32_t)id);
        net_add_pair(net, id);
        added++;
    }
}

void model_build(network_t *net, const timetable_t *tt, int initial_per_trip)
{
    net_init(net, 2 * tt->ntrips + 1);
    set_supplies(net, tt);
    net_add_artificials(net, largest_cost(tt) * (cost_t)(net->nnodes + 1));
    int depot = depot_node(tt);
    for (int i = 0; i < tt->ntrips; i++) {
        net_add_arc(net, depot, trip_in_node(i), pullout_cost(tt, i), 1, -1);
        net_add_arc(net, trip_out_node(i), depot, pullin_cost(tt, i), 1, -1);
    }
    for (int i = 0; i < tt->ntrips; i++)
        add_initial_deadheads(net, tt, i, initial_per_trip);
}
