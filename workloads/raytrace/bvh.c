/* bvh.c - bounding volume hierarchy for the raytrace workload.  Interior
 * nodes are themselves objects (with their own ops table), so traversal is
 * a chain of indirect calls into children of any kind. */
#include "rt.h"
#include <stdlib.h>
#include <string.h>

typedef struct bvh_node {
    object base;
    aabb b;
    object *left, *right;
} bvh_node;

typedef struct group {
    object base;
    object **kids;
    int n;
} group;

typedef struct build_item {
    object *obj;
    aabb b;
    vec3 centroid;
    int index;
} build_item;

static int node_count;

int bvh_node_count(void) { return node_count; }

static int bvh_intersect(const object *o, const ray *r, double tmin, double tmax, hit *h)
{
    const bvh_node *nd = (const bvh_node *)o;
    double te;
    if (!ray_box(&nd->b, r, tmin, tmax, &te))
        return 0;
    int found = 0;
    if (nd->left->ops->intersect(nd->left, r, tmin, tmax, h)) {
        found = 1;
        tmax = h->t;
    }
    if (nd->right->ops->intersect(nd->right, r, tmin, tmax, h))
        found = 1;
    return found;
}

static int bvh_occluded(const object *o, const ray *r, double tmin, double tmax)
{
    const bvh_node *nd = (const bvh_node *)o;
    double te;
    if (!ray_box(&nd->b, r, tmin, tmax, &te))
        return 0;
    return nd->left->ops->occluded(nd->left, r, tmin, tmax) ||
           nd->right->ops->occluded(nd->right, r, tmin, tmax);
}

static vec3 bvh_normal(const object *o, const hit *h) { return v3(0, 0, 1); }

static void bvh_bounds(const object *o, aabb *b) { *b = ((const bvh_node *)o)->b; }

static const object_ops bvh_ops = {
    "bvh", bvh_intersect, bvh_occluded, bvh_normal, bvh_bounds, NULL,
};

static int group_intersect(const object *o, const ray *r, double tmin, double tmax, hit *h)
{
    const group *g = (const group *)o;
    int found = 0;
    for (int i = 0; i < g->n; i++)
        if (g->kids[i]->ops->intersect(g->kids[i], r, tmin, tmax, h)) {
            found = 1;
            tmax = h->t;
        }
    return found;
}

static int group_occluded(const object *o, const ray *r, double tmin, double tmax)
{
    const group *g = (const group *)o;
    for (int i = 0; i < g->n; i++)
        if (g->kids[i]->ops->occluded(g->kids[i], r, tmin, tmax))
            return 1;
    return 0;
}

static void group_bounds(const object *o, aabb *b)
{
    b->lo = v3(-1e6, -1e6, -1e6);
    b->hi = v3(1e6, 1e6, 1e6);
}

static const object_ops group_ops = {
    "group", group_intersect, group_occluded, bvh_normal, group_bounds, NULL,
};

/* Comparators by centroid on each axis; ties broken by index so the
 * resulting order does not depend on the sort algorithm. */
static int cmp_axis(const build_item *a, const build_item *b, int axis)
{
    double ca = vcomp(a->centroid, axis), cb = vcomp(b->centroid, axis);
    if (ca != cb)
        return ca < cb ? -1 : 1;
    return a->index - b->index;
}
static int cmp_x(const void *a, const void *b) { return cmp_axis(a, b, 0); }
static int cmp_y(const void *a, const void *b) { return cmp_axis(a, b, 1); }
static int cmp_z(const void *a, const void *b) { return cmp_axis(a, b, 2); }
static int (*const axis_cmp[3])(const void *, const void *) = {cmp_x, cmp_y, cmp_z};

static aabb items_bounds(const build_item *it, int n, int use_centroids)
{
    aabb b;
    b.lo = use_centroids ? it[0].centroid : it[0].b.lo;
    b.hi = use_centroids ? it[0].centroid : it[0].b.hi;
    for (int i = 1; i < n; i++) {
        b.lo = vmin(b.lo, use_centroids ? it[i].centroid : it[i].b.lo);
        b.hi = vmax(b.hi, use_centroids ? it[i].centroid : it[i].b.hi);
    }
    return b;
}

static int longest_axis(const aabb *b)
{
    vec3 e = vsub(b->hi, b->lo);
    if (e.x >= e.y && e.x >= e.z)
        return 0;
    return e.y >= e.z ? 1 : 2;
}

static object *build_rec(build_item *it, int n)
{
    if (n == 1)
        return it[0].obj;
    aabb cb = items_bounds(it, n, 1);
    qsort(it, (size_t)n, sizeof(build_item), axis_cmp[longest_axis(&cb)]);
    bvh_node *nd = calloc(1, sizeof(bvh_node));
    nd->base.ops = &bvh_ops;
    nd->base.id = -1;
    nd->b = items_bounds(it, n, 0);
    nd->left = build_rec(it, n / 2);
    nd->right = build_rec(it + n / 2, n - n / 2);
    node_count++;
    return &nd->base;
}

/* Bounded objects go into the BVH; unbounded ones (planes) are kept in a
 * flat group next to it. */
object *build_bvh(object **objs, int n)
{
    build_item *it = malloc((size_t)n * sizeof(build_item));
    group *g = calloc(1, sizeof(group));
    g->base.ops = &group_ops;
    g->kids = malloc((size_t)(n + 1) * sizeof(object *));
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (!objs[i]->ops->span && objs[i]->ops->intersect && strcmp(objs[i]->ops->kind, "plane") == 0) {
            g->kids[g->n++] = objs[i];
            continue;
        }
        it[m].obj = objs[i];
        objs[i]->ops->bounds(objs[i], &it[m].b);
        it[m].centroid = vscale(vadd(it[m].b.lo, it[m].b.hi), 0.5);
        it[m].index = i;
        m++;
    }
    if (m > 0)
        g->kids[g->n++] = build_rec(it, m);
    free(it);
    return &g->base;
}
