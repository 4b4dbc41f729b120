/* vecmath.h - small 3-vector helpers for the raytrace workload.  The pragma
 * disables multiply-add contraction so every ISA rounds identically. */
#ifndef VECMATH_H
#define VECMATH_H

#pragma GCC optimize ("fp-contract=off")

#include <math.h>

typedef struct vec3 {
    double x, y, z;
} vec3;

static inline vec3 v3(double x, double y, double z)
{
    vec3 r = {x, y, z};
    return r;
}
static inline vec3 vadd(vec3 a, vec3 b) { return v3(a.x + b.x, a.y + b.y, a.z + b.z); }
static inline vec3 vsub(vec3 a, vec3 b) { return v3(a.x - b.x, a.y - b.y, a.z - b.z); }
static inline vec3 vmul(vec3 a, vec3 b) { return v3(a.x * b.x, a.y * b.y, a.z * b.z); }
static inline vec3 vscale(vec3 a, double s) { return v3(a.x * s, a.y * s, a.z * s); }
static inline double vdot(vec3 a, vec3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
static inline vec3 vcross(vec3 a, vec3 b)
{
    return v3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
static inline double vlen(vec3 a) { return sqrt(vdot(a, a)); }
static inline vec3 vnorm(vec3 a)
{
    double l = vlen(a);
    return l > 1e-300 ? vscale(a, 1.0 / l) : v3(0, 0, 1);
}
static inline vec3 vneg(vec3 a) { return v3(-a.x, -a.y, -a.z); }
static inline double vcomp(vec3 a, int axis) { return axis == 0 ? a.x : axis == 1 ? a.y : a.z; }
static inline vec3 vmin(vec3 a, vec3 b)
{
    return v3(a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z);
}
static inline vec3 vmax(vec3 a, vec3 b)
{
    return v3(a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z);
}
/* Reflect d about normal n. */
static inline vec3 vreflect(vec3 d, vec3 n) { return vsub(d, vscale(n, 2.0 * vdot(d, n))); }

#endif
