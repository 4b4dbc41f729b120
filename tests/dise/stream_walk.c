/*
 * stream_walk.c - a guest program with two known hot data streams, for the
 * hot data stream tests of tests/dise/run.sh:
 *   walk_array  loads a[0..23] in order, 4000 times: a stream of 24
 *               references (one load instruction, 24 addresses);
 *   walk_list   follows a ring of 20 nodes, loading each node's value and
 *               next pointer, 2000 times: a stream of 40 references.
 * Each walk is followed by one store to a fresh element of `noise`, a
 * reference that never repeats, so no stream can run from one walk into the
 * next: the exhaustive profile's streams are exactly the two walks, with
 * frequencies 4000 and 2000 (heats 96000 and 80000), over 90% of the run's
 * references.
 */
#include <stdio.h>

#define OPAQUE __attribute__((noinline, noipa))
#define ARRAY 24
#define NODES 20
#define ARRAY_WALKS 4000
#define LIST_WALKS 2000

typedef struct node {
    long value;
    struct node *next;
} node_t;

static long a[ARRAY];
static node_t ring[NODES];
static volatile long noise[ARRAY_WALKS + LIST_WALKS];   /* written, never read */

OPAQUE long walk_array(const long *v)
{
    long s = 0;
    for (int k = 0; k < ARRAY; k++) s += v[k];
    return s;
}

OPAQUE long walk_list(const node_t *p)
{
    long s = 0;
    for (int k = 0; k < NODES; k++) {
        s += p->value;
        p = p->next;
    }
    return s;
}

int main(void)
{
    for (int k = 0; k < ARRAY; k++) a[k] = k;
    for (int k = 0; k < NODES; k++) {
        ring[k].value = 3 * k;
        ring[k].next = &ring[(k + 7) % NODES];   /* 7 is prime to 20: one cycle */
    }
    long acc = 0;
    int n = 0;
    for (int j = 0; j < ARRAY_WALKS; j++) {
        acc += walk_array(a);
        noise[n++] = acc;
        if (j % 2 == 0) {
            acc += walk_list(&ring[0]);
            noise[n++] = acc;
        }
    }
    printf("%ld\n", acc);
    return 0;
}
