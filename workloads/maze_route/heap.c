/* heap.c - binary min-heap of (key, node) items used as the A* open list
 * of maze_route; ties on the key are broken by the node id so the search
 * order is fully deterministic. */
#include "route.h"

#include <stdio.h>
#include <stdlib.h>

void heap_init(Heap *h, int cap)
{
    h->cap = cap > 16 ? cap : 16;
    h->n = 0;
    h->pushes = 0;
    h->a = malloc((size_t)h->cap * sizeof(HeapItem));
    if (!h->a) {
        fprintf(stderr, "maze_route: out of memory\n");
        exit(2);
    }
}

void heap_free(Heap *h) { free(h->a); }

void heap_clear(Heap *h) { h->n = 0; }

static bool item_less(const HeapItem *x, const HeapItem *y)
{
    return x->key < y->key || (x->key == y->key && x->node < y->node);
}

static void sift_up(Heap *h, int i)
{
    HeapItem it = h->a[i];
    while (i > 0) {
        int parent = (i - 1) / 2;
        if (!item_less(&it, &h->a[parent]))
            break;
        h->a[i] = h->a[parent];
        i = parent;
    }
    h->a[i] = it;
}

static void sift_down(Heap *h, int i)
{
    HeapItem it = h->a[i];
    for (;;) {
        int c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && item_less(&h->a[c + 1], &h->a[c]))
            c++;
        if (!item_less(&h->a[c], &it))
            break;
        h->a[i] = h->a[c];
        i = c;
    }
    h->a[i] = it;
}

void heap_push(Heap *h, int64_t key, int32_t node)
{
    if (h->n == h->cap) {
        h->cap *= 2;
        h->a = realloc(h->a, (size_t)h->cap * sizeof(HeapItem));
        if (!h->a) {
            fprintf(stderr, "maze_route: out of memory\n");
            exit(2);
        }
    }
    h->a[h->n].key = key;
    h->a[h->n].node = node;
    sift_up(h, h->n++);
    h->pushes++;
}

bool heap_pop(Heap *h, HeapItem *out)
{
    if (h->n == 0)
        return false;
    *out = h->a[0];
    h->a[0] = h->a[--h->n];
    if (h->n > 0)
        sift_down(h, 0);
    return true;
}
