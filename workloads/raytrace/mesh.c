/* mesh.c - procedural triangle meshes for the raytrace workload: a bumpy
 * "cube-sphere" built from six subdivided cube faces projected onto a
 * sphere (only +, *, / and sqrt are used, so every ISA agrees). */
#include "rt.h"
#include <stdlib.h>

static void push_obj(object ***out, int *cap, int *count, object *o)
{
    if (*count >= *cap) {
        *cap = *cap ? *cap * 2 : 64;
        *out = realloc(*out, (size_t)*cap * sizeof(object *));
    }
    (*out)[(*count)++] = o;
}

/* Point on the cube face `face` at grid coordinates (a, b) in [-1, 1]. */
static vec3 cube_point(int face, double a, double b)
{
    switch (face) {
    case 0: return v3(1, a, b);
    case 1: return v3(-1, b, a);
    case 2: return v3(a, 1, b);
    case 3: return v3(b, -1, a);
    case 4: return v3(a, b, 1);
    default: return v3(b, a, -1);
    }
}

typedef struct bumps {
    double k1, k2, k3;
} bumps;

static double bump(const bumps *bp, vec3 d)
{
    return 1.0 + bp->k1 * d.x * d.y + bp->k2 * d.z * d.z * d.x + bp->k3 * d.y * d.z * d.z * d.y;
}

static vec3 mesh_vertex(const bumps *bp, vec3 center, double radius, int face, int i, int j, int segs)
{
    double a = -1.0 + 2.0 * i / segs, b = -1.0 + 2.0 * j / segs;
    vec3 d = vnorm(cube_point(face, a, b));
    return vadd(center, vscale(d, radius * bump(bp, d)));
}

int make_mesh(object ***out, int *cap, int *count, vec3 center, double radius,
              int rings, int segs, uint64_t *seed, const material *m)
{
    /* one PRNG draw per statement: argument evaluation order is unspecified */
    bumps bp;
    bp.k1 = 0.3 * rng_unit(seed) - 0.15;
    bp.k2 = 0.3 * rng_unit(seed) - 0.15;
    bp.k3 = 0.2 * rng_unit(seed);
    int made = 0;
    (void)rings;
    for (int face = 0; face < 6; face++)
        for (int i = 0; i < segs; i++)
            for (int j = 0; j < segs; j++) {
                vec3 p00 = mesh_vertex(&bp, center, radius, face, i, j, segs);
                vec3 p10 = mesh_vertex(&bp, center, radius, face, i + 1, j, segs);
                vec3 p01 = mesh_vertex(&bp, center, radius, face, i, j + 1, segs);
                vec3 p11 = mesh_vertex(&bp, center, radius, face, i + 1, j + 1, segs);
                push_obj(out, cap, count, make_triangle(p00, p10, p11, m));
                push_obj(out, cap, count, make_triangle(p00, p11, p01, m));
                made += 2;
            }
    return made;
}
