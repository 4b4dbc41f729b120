/* objects.c - geometric primitives of the raytrace workload: sphere, plane,
 * axis-aligned box, triangle and CSG combinations, each exposing its methods
 * through a const object_ops table. */
#include "rt.h"
#include <stdlib.h>

static uint64_t n_tests;

uint64_t object_stat_tests(void) { return n_tests; }

static void *alloc_obj(size_t size, const object_ops *ops, const material *m)
{
    static int next_id;
    object *o = calloc(1, size);
    o->ops = ops;
    o->mat = m;
    o->id = next_id++;
    return o;
}

/* Generic occlusion test built on intersect. */
static int occluded_via_intersect(const object *o, const ray *r, double tmin, double tmax)
{
    hit h;
    return o->ops->intersect(o, r, tmin, tmax, &h);
}

/* Pick the nearest span endpoint inside (tmin, tmax). */
static int span_to_hit(const object *o, const ray *r, double tmin, double tmax, hit *h)
{
    double t0, t1;
    if (!o->ops->span(o, r, &t0, &t1))
        return 0;
    double t = t0 > tmin ? t0 : t1;
    if (t <= tmin || t >= tmax)
        return 0;
    h->t = t;
    h->obj = o;
    h->flip = 0;
    return 1;
}

/* ---- sphere ----------------------------------------------------------- */

typedef struct sphere {
    object base;
    vec3 c;
    double r;
} sphere;

static int sphere_span(const object *o, const ray *r, double *t0, double *t1)
{
    const sphere *s = (const sphere *)o;
    n_tests++;
    vec3 oc = vsub(r->o, s->c);
    double b = vdot(oc, r->d);
    double c = vdot(oc, oc) - s->r * s->r;
    double disc = b * b - c;
    if (disc <= 0)
        return 0;
    double sq = sqrt(disc);
    *t0 = -b - sq;
    *t1 = -b + sq;
    return 1;
}

static int sphere_intersect(const object *o, const ray *r, double tmin, double tmax, hit *h)
{
    return span_to_hit(o, r, tmin, tmax, h);
}

static vec3 sphere_normal(const object *o, const hit *h)
{
    const sphere *s = (const sphere *)o;
    return vscale(vsub(h->p, s->c), 1.0 / s->r);
}

static void sphere_bounds(const object *o, aabb *b)
{
    const sphere *s = (const sphere *)o;
    vec3 e = v3(s->r, s->r, s->r);
    b->lo = vsub(s->c, e);
    b->hi = vadd(s->c, e);
}

static const object_ops sphere_ops = {
    "sphere", sphere_intersect, occluded_via_intersect, sphere_normal, sphere_bounds, sphere_span,
};

object *make_sphere(vec3 c, double r, const material *m)
{
    sphere *s = alloc_obj(sizeof(sphere), &sphere_ops, m);
    s->c = c;
    s->r = r;
    return &s->base;
}

/* ---- plane (n.p = d) -------------------------------------------------- */

typedef struct plane {
    object base;
    vec3 n;
    double d;
} plane;

static int plane_intersect(const object *o, const ray *r, double tmin, double tmax, hit *h)
{
    const plane *p = (const plane *)o;
    n_tests++;
    double den = vdot(p->n, r->d);
    if (den > -1e-9 && den < 1e-9)
        return 0;
    double t = (p->d - vdot(p->n, r->o)) / den;
    if (t <= tmin || t >= tmax)
        return 0;
    h->t = t;
    h->obj = o;
    h->flip = 0;
    return 1;
}

static vec3 plane_normal(const object *o, const hit *h)
{
    return ((const plane *)o)->n;
}

static void plane_bounds(const object *o, aabb *b)
{
    b->lo = v3(-1e6, -1e6, -1e6);
    b->hi = v3(1e6, 1e6, 1e6);
}

static const object_ops plane_ops = {
    "plane", plane_intersect, occluded_via_intersect, plane_normal, plane_bounds, NULL,
};

object *make_plane(vec3 n, double d, const material *m)
{
    plane *p = alloc_obj(sizeof(plane), &plane_ops, m);
    p->n = vnorm(n);
    p->d = d;
    return &p->base;
}

/* ---- axis-aligned box ------------------------------------------------- */

typedef struct box {
    object base;
    aabb b;
} box;

/* Slab test on one axis; returns 0 if the ray misses. */
static int slab(double o, double d, double lo, double hi, double *t0, double *t1)
{
    if (d > -1e-12 && d < 1e-12)
        return o >= lo && o <= hi;
    double inv = 1.0 / d;
    double a = (lo - o) * inv, b = (hi - o) * inv;
    if (a > b) {
        double t = a;
        a = b;
        b = t;
    }
    if (a > *t0)
        *t0 = a;
    if (b < *t1)
        *t1 = b;
    return *t0 <= *t1;
}

int ray_box(const aabb *b, const ray *r, double tmin, double tmax, double *tenter)
{
    double t0 = tmin, t1 = tmax;
    if (!slab(r->o.x, r->d.x, b->lo.x, b->hi.x, &t0, &t1) ||
        !slab(r->o.y, r->d.y, b->lo.y, b->hi.y, &t0, &t1) ||
        !slab(r->o.z, r->d.z, b->lo.z, b->hi.z, &t0, &t1))
        return 0;
    *tenter = t0;
    return 1;
}

static int box_span(const object *o, const ray *r, double *t0, double *t1)
{
    const box *bx = (const box *)o;
    n_tests++;
    *t0 = -T_INF;
    *t1 = T_INF;
    return slab(r->o.x, r->d.x, bx->b.lo.x, bx->b.hi.x, t0, t1) &&
           slab(r->o.y, r->d.y, bx->b.lo.y, bx->b.hi.y, t0, t1) &&
           slab(r->o.z, r->d.z, bx->b.lo.z, bx->b.hi.z, t0, t1);
}

static int box_intersect(const object *o, const ray *r, double tmin, double tmax, hit *h)
{
    return span_to_hit(o, r, tmin, tmax, h);
}

static vec3 box_normal(const object *o, const hit *h)
{
    const box *bx = (const box *)o;
    vec3 c = vscale(vadd(bx->b.lo, bx->b.hi), 0.5);
    vec3 e = vscale(vsub(bx->b.hi, bx->b.lo), 0.5);
    vec3 d = vsub(h->p, c);
    double ax = fabs(d.x / e.x), ay = fabs(d.y / e.y), az = fabs(d.z / e.z);
    if (ax >= ay && ax >= az)
        return v3(d.x > 0 ? 1 : -1, 0, 0);
    if (ay >= az)
        return v3(0, d.y > 0 ? 1 : -1, 0);
    return v3(0, 0, d.z > 0 ? 1 : -1);
}

static void box_bounds(const object *o, aabb *b) { *b = ((const box *)o)->b; }

static const object_ops box_ops = {
    "box", box_intersect, occluded_via_intersect, box_normal, box_bounds, box_span,
};

object *make_box(vec3 lo, vec3 hi, const material *m)
{
    box *b = alloc_obj(sizeof(box), &box_ops, m);
    b->b.lo = lo;
    b->b.hi = hi;
    return &b->base;
}

/* ---- triangle (Moller-Trumbore) --------------------------------------- */

typedef struct triangle {
    object base;
    vec3 a, e1, e2, n;
} triangle;

static int tri_intersect(const object *o, const ray *r, double tmin, double tmax, hit *h)
{
    const triangle *tr = (const triangle *)o;
    n_tests++;
    vec3 p = vcross(r->d, tr->e2);
    double det = vdot(tr->e1, p);
    if (det > -1e-12 && det < 1e-12)
        return 0;
    double inv = 1.0 / det;
    vec3 s = vsub(r->o, tr->a);
    double u = vdot(s, p) * inv;
    if (u < 0 || u > 1)
        return 0;
    vec3 q = vcross(s, tr->e1);
    double v = vdot(r->d, q) * inv;
    if (v < 0 || u + v > 1)
        return 0;
    double t = vdot(tr->e2, q) * inv;
    if (t <= tmin || t >= tmax)
        return 0;
    h->t = t;
    h->u = u;
    h->v = v;
    h->obj = o;
    h->flip = 0;
    return 1;
}

static vec3 tri_normal(const object *o, const hit *h) { return ((const triangle *)o)->n; }

static void tri_bounds(const object *o, aabb *b)
{
    const triangle *tr = (const triangle *)o;
    vec3 b1 = vadd(tr->a, tr->e1), b2 = vadd(tr->a, tr->e2);
    b->lo = vmin(tr->a, vmin(b1, b2));
    b->hi = vmax(tr->a, vmax(b1, b2));
}

static const object_ops tri_ops = {
    "triangle", tri_intersect, occluded_via_intersect, tri_normal, tri_bounds, NULL,
};

object *make_triangle(vec3 a, vec3 b, vec3 c, const material *m)
{
    triangle *t = alloc_obj(sizeof(triangle), &tri_ops, m);
    t->a = a;
    t->e1 = vsub(b, a);
    t->e2 = vsub(c, a);
    t->n = vnorm(vcross(t->e1, t->e2));
    return &t->base;
}

/* ---- CSG of two convex solids ----------------------------------------- */

typedef struct csg {
    object base;
    int op;
    object *a, *b;
} csg;

typedef struct crossing {
    double t;
    int from_b;
} crossing;

/* Boundary crossings of A-minus-B (convex A, B). */
static int csg_diff_crossings(double a0, double a1, int hb, double b0, double b1, crossing *c)
{
    int n = 0;
    if (!hb || b1 <= a0 || b0 >= a1) {
        c[n++] = (crossing){a0, 0};
        c[n++] = (crossing){a1, 0};
        return n;
    }
    if (a0 < b0) {
        c[n++] = (crossing){a0, 0};
        c[n++] = (crossing){b0, 1};
    }
    if (b1 < a1) {
        c[n++] = (crossing){b1, 1};
        c[n++] = (crossing){a1, 0};
    }
    return n;
}

/* Boundary crossings of A-intersect-B. */
static int csg_inter_crossings(double a0, double a1, int hb, double b0, double b1, crossing *c)
{
    if (!hb)
        return 0;
    double lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;
    if (lo >= hi)
        return 0;
    c[0] = (crossing){lo, b0 > a0};
    c[1] = (crossing){hi, b1 < a1};
    return 2;
}

static int csg_intersect(const object *o, const ray *r, double tmin, double tmax, hit *h)
{
    const csg *c = (const csg *)o;
    double a0, a1, b0 = 0, b1 = 0;
    crossing x[4];
    if (!c->a->ops->span(c->a, r, &a0, &a1))
        return 0;
    int hb = c->b->ops->span(c->b, r, &b0, &b1);
    int n = c->op == CSG_DIFF ? csg_diff_crossings(a0, a1, hb, b0, b1, x)
                              : csg_inter_crossings(a0, a1, hb, b0, b1, x);
    int best = -1;
    for (int i = 0; i < n; i++)
        if (x[i].t > tmin && x[i].t < tmax && (best < 0 || x[i].t < x[best].t))
            best = i;
    if (best < 0)
        return 0;
    h->t = x[best].t;
    h->obj = o;
    h->flip = x[best].from_b && c->op == CSG_DIFF;
    h->u = x[best].from_b;
    return 1;
}

static vec3 csg_normal(const object *o, const hit *h)
{
    const csg *c = (const csg *)o;
    const object *part = h->u > 0.5 ? c->b : c->a;
    vec3 n = part->ops->normal(part, h);
    return h->flip ? vneg(n) : n;
}

static void csg_bounds(const object *o, aabb *b)
{
    const csg *c = (const csg *)o;
    c->a->ops->bounds(c->a, b);
}

static int csg_span(const object *o, const ray *r, double *t0, double *t1)
{
    const csg *c = (const csg *)o;
    return c->a->ops->span(c->a, r, t0, t1);
}

static const object_ops csg_ops = {
    "csg", csg_intersect, occluded_via_intersect, csg_normal, csg_bounds, csg_span,
};

object *make_csg(int op, object *a, object *b, const material *m)
{
    csg *c = alloc_obj(sizeof(csg), &csg_ops, m);
    c->op = op;
    c->a = a;
    c->b = b;
    return &c->base;
}
