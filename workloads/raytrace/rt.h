/* rt.h - core types of the raytrace workload (eon-like): rays, hits, and
 * objects, materials and lights that are dispatched through per-kind
 * tables of function pointers (hand-made vtables). */
#ifndef RT_H
#define RT_H

#include "vecmath.h"
#include <stdint.h>

#define T_EPS 1e-7
#define T_INF 1e30

typedef struct ray {
    vec3 o, d;
} ray;

typedef struct aabb {
    vec3 lo, hi;
} aabb;

struct object;
struct material;

typedef struct hit {
    double t;
    vec3 p;
    vec3 n;              /* filled by the object's normal method */
    double u, v;         /* surface parameters (barycentrics, etc.) */
    int flip;            /* CSG: normal must be negated */
    const struct object *obj;
} hit;

typedef struct object_ops {
    const char *kind;
    /* closest intersection in (tmin, tmax); fills h->t, h->obj, u, v */
    int (*intersect)(const struct object *o, const ray *r, double tmin, double tmax, hit *h);
    /* any intersection in (tmin, tmax) */
    int (*occluded)(const struct object *o, const ray *r, double tmin, double tmax);
    /* geometric normal at h (h->p already set) */
    vec3 (*normal)(const struct object *o, const hit *h);
    void (*bounds)(const struct object *o, aabb *b);
    /* entry/exit span for convex solids (CSG); NULL for open surfaces */
    int (*span)(const struct object *o, const ray *r, double *t0, double *t1);
} object_ops;

typedef struct object {
    const object_ops *ops;
    const struct material *mat;
    int id;
} object;

typedef struct material_ops {
    const char *kind;
    vec3 (*albedo)(const struct material *m, const hit *h);
} material_ops;

typedef struct material {
    const material_ops *ops;
    vec3 c1, c2;
    double scale;
    double reflect;      /* 0..1 mirror fraction */
    double specular;     /* Phong weight */
    int shininess;       /* integer exponent */
} material;

typedef struct light_sample {
    vec3 dir;            /* unit vector towards the light */
    double dist;
    vec3 color;
} light_sample;

struct light;
typedef struct light_ops {
    const char *kind;
    void (*sample)(const struct light *l, vec3 p, light_sample *s);
} light_ops;

typedef struct light {
    const light_ops *ops;
    vec3 pos, color;
    double falloff;
} light;

typedef struct scene {
    object *root;            /* BVH over all objects */
    object **prims;          /* flat list, for the self-check */
    int nprims;
    light **lights;
    int nlights;
    vec3 ambient, sky_top, sky_bottom;
    vec3 eye, look, up;
    double fov_scale;
} scene;

/* objects.c */
object *make_sphere(vec3 c, double r, const material *m);
object *make_plane(vec3 n, double d, const material *m);
object *make_box(vec3 lo, vec3 hi, const material *m);
object *make_triangle(vec3 a, vec3 b, vec3 c, const material *m);
object *make_csg(int op, object *a, object *b, const material *m);
enum { CSG_DIFF, CSG_INTER };
int ray_box(const aabb *b, const ray *r, double tmin, double tmax, double *tenter);
uint64_t object_stat_tests(void);

/* bvh.c */
object *build_bvh(object **objs, int n);
int bvh_node_count(void);

/* mesh.c */
int make_mesh(object ***out, int *cap, int *count, vec3 center, double radius,
              int rings, int segs, uint64_t *seed, const material *m);

/* materials.c */
material *make_solid(vec3 c, double refl, double spec, int shin);
material *make_checker(vec3 a, vec3 b, double scale, double refl);
material *make_stripes(vec3 a, vec3 b, double scale, double refl);
material *make_marble(vec3 a, vec3 b, double scale, double refl);

/* lights.c */
light *make_point_light(vec3 pos, vec3 color, double falloff);
light *make_dir_light(vec3 dir, vec3 color);
light *make_spot_light(vec3 pos, vec3 dir, vec3 color);

/* scene.c */
scene *build_scene(int detail, uint64_t *seed);
int scene_selfcheck(const scene *s, int rays, uint64_t *seed);

/* render.c */
enum { MODE_FLAT, MODE_WHITTED, MODE_AO, NMODES };
typedef struct render_opts {
    int width, height;
    int ao_samples;
    int max_depth;
} render_opts;
const char *mode_name(int mode);
void render(const scene *s, int mode, const render_opts *o, uint8_t *img, uint64_t *rays);

uint64_t rng_next(uint64_t *s);
double rng_unit(uint64_t *s);

#endif
