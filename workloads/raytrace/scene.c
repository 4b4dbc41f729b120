/* scene.c - builds the raytrace workload's scene (planes, spheres, boxes,
 * CSG solids and bumpy triangle meshes under a BVH) from a fixed seed, and
 * cross-checks BVH traversal against a brute-force scan of all primitives. */
#include "rt.h"
#include <stdlib.h>

uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *s = x;
    return x * 0x2545f4914f6cdd1dULL;
}

double rng_unit(uint64_t *s) { return (double)(rng_next(s) >> 11) / 9007199254740992.0; }

typedef struct objlist {
    object **v;
    int cap, n;
} objlist;

static void add(objlist *l, object *o)
{
    if (l->n >= l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = realloc(l->v, (size_t)l->cap * sizeof(object *));
    }
    l->v[l->n++] = o;
}

static vec3 random_color(uint64_t *seed)
{
    /* one PRNG draw per statement: argument evaluation order is unspecified */
    vec3 c;
    c.x = 0.2 + 0.8 * rng_unit(seed);
    c.y = 0.2 + 0.8 * rng_unit(seed);
    c.z = 0.2 + 0.8 * rng_unit(seed);
    return c;
}

static const material *random_material(uint64_t *seed)
{
    int kind = (int)(rng_next(seed) % 4);
    vec3 a = random_color(seed);
    vec3 b = random_color(seed);
    double refl = 0.3 * rng_unit(seed);
    switch (kind) {
    case 0: return make_solid(a, refl, 0.5, 32);
    case 1: return make_checker(a, b, 4.0, 0.1);
    case 2: return make_stripes(a, b, 3.0, 0.0);
    default: return make_marble(a, b, 2.0, 0.05);
    }
}

static void add_ground(objlist *l)
{
    add(l, make_plane(v3(0, 1, 0), 0.0, make_checker(v3(0.9, 0.9, 0.85), v3(0.2, 0.25, 0.3), 1.0, 0.15)));
    add(l, make_plane(v3(0, 0, -1), -30.0, make_stripes(v3(0.6, 0.7, 0.9), v3(0.3, 0.3, 0.5), 0.5, 0.0)));
}

static void add_feature_objects(objlist *l, uint64_t *seed)
{
    const material *mirror = make_solid(v3(0.9, 0.9, 0.95), 0.8, 0.8, 64);
    add(l, make_sphere(v3(0, 1.5, 6), 1.5, mirror));
    add(l, make_sphere(v3(-3.2, 1.0, 5), 1.0, make_marble(v3(0.9, 0.8, 0.6), v3(0.5, 0.2, 0.1), 3.0, 0.1)));
    add(l, make_box(v3(2.2, 0, 4), v3(3.8, 1.6, 5.6), make_solid(v3(0.8, 0.3, 0.2), 0.2, 0.4, 16)));
    /* box with a spherical bite taken out, and a lens-shaped intersection */
    object *cb = make_box(v3(-1.5, 0, 1.5), v3(0, 1.5, 3.0), NULL);
    object *cs = make_sphere(v3(-0.75, 1.5, 1.5), 0.9, NULL);
    add(l, make_csg(CSG_DIFF, cb, cs, make_solid(v3(0.3, 0.8, 0.4), 0.1, 0.6, 32)));
    object *s1 = make_sphere(v3(1.3, 0.8, 2.0), 1.0, NULL);
    object *s2 = make_sphere(v3(1.9, 0.8, 2.0), 1.0, NULL);
    add(l, make_csg(CSG_INTER, s1, s2, make_solid(v3(0.3, 0.4, 0.9), 0.3, 0.7, 64)));
    (void)seed;
}

static void add_sphere_field(objlist *l, int count, uint64_t *seed)
{
    for (int i = 0; i < count; i++) {
        double x = -8.0 + 16.0 * rng_unit(seed);
        double z = 8.0 + 18.0 * rng_unit(seed);
        double r = 0.15 + 0.35 * rng_unit(seed);
        if (rng_next(seed) % 5 == 0)
            add(l, make_box(v3(x - r, 0, z - r), v3(x + r, 2 * r, z + r), random_material(seed)));
        else
            add(l, make_sphere(v3(x, r, z), r, random_material(seed)));
    }
}

scene *build_scene(int detail, uint64_t *seed)
{
    scene *s = calloc(1, sizeof(scene));
    objlist l = {0};
    add_ground(&l);
    add_feature_objects(&l, seed);
    add_sphere_field(&l, 20 * detail, seed);
    make_mesh(&l.v, &l.cap, &l.n, v3(4.5, 2.2, 9), 2.0, 0, 4 + 3 * detail, seed,
              make_solid(v3(0.85, 0.75, 0.4), 0.25, 0.6, 32));
    make_mesh(&l.v, &l.cap, &l.n, v3(-5, 1.4, 10), 1.4, 0, 3 + 2 * detail, seed,
              make_marble(v3(0.7, 0.9, 0.7), v3(0.1, 0.3, 0.2), 2.5, 0.0));
    s->prims = l.v;
    s->nprims = l.n;
    s->root = build_bvh(l.v, l.n);

    s->nlights = 3;
    s->lights = malloc(3 * sizeof(light *));
    s->lights[0] = make_point_light(v3(-6, 10, -2), v3(0.9, 0.85, 0.8), 0.002);
    s->lights[1] = make_dir_light(v3(0.6, 0.8, -0.4), v3(0.35, 0.35, 0.4));
    s->lights[2] = make_spot_light(v3(3, 8, 3), v3(-0.2, -1, 0.3), v3(0.6, 0.5, 0.3));
    s->ambient = v3(0.08, 0.08, 0.1);
    s->sky_top = v3(0.3, 0.5, 0.9);
    s->sky_bottom = v3(0.9, 0.9, 1.0);
    s->eye = v3(0, 3.0, -4.0);
    s->look = v3(0, 1.2, 8.0);
    s->up = v3(0, 1, 0);
    s->fov_scale = 0.7;
    return s;
}

static int brute_force(const scene *s, const ray *r, hit *h)
{
    int found = 0;
    double tmax = T_INF;
    for (int i = 0; i < s->nprims; i++)
        if (s->prims[i]->ops->intersect(s->prims[i], r, T_EPS, tmax, h)) {
            found = 1;
            tmax = h->t;
        }
    return found;
}

/* Returns the number of rays on which BVH and brute force disagree. */
int scene_selfcheck(const scene *s, int rays, uint64_t *seed)
{
    int bad = 0;
    for (int i = 0; i < rays; i++) {
        ray r;
        double ox = rng_unit(seed) - 0.5;
        double oy = rng_unit(seed) - 0.5;
        double dx = rng_unit(seed) * 2 - 1;
        double dy = rng_unit(seed) * 1.2 - 0.8;
        r.o = vadd(s->eye, v3(ox, oy, 0));
        r.d = vnorm(v3(dx, dy, 1.0));
        hit a, b;
        int fa = s->root->ops->intersect(s->root, &r, T_EPS, T_INF, &a);
        int fb = brute_force(s, &r, &b);
        if (fa != fb || (fa && a.t != b.t))
            bad++;
    }
    return bad;
}
