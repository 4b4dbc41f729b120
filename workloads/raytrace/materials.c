/* materials.c - surface materials of the raytrace workload: solid colour,
 * checkerboard, stripes and a lattice-noise "marble", each a material_ops
 * table whose albedo method is called indirectly by the shaders. */
#include "rt.h"
#include <stdlib.h>

static material *alloc_material(const material_ops *ops, vec3 a, vec3 b, double scale, double refl)
{
    material *m = calloc(1, sizeof(material));
    m->ops = ops;
    m->c1 = a;
    m->c2 = b;
    m->scale = scale;
    m->reflect = refl;
    m->specular = 0.3;
    m->shininess = 16;
    return m;
}

static vec3 solid_albedo(const material *m, const hit *h) { return m->c1; }

static const material_ops solid_ops = {"solid", solid_albedo};

material *make_solid(vec3 c, double refl, double spec, int shin)
{
    material *m = alloc_material(&solid_ops, c, c, 1.0, refl);
    m->specular = spec;
    m->shininess = shin;
    return m;
}

/* floor() of a coordinate, safe for the ranges used in the scenes. */
static long ifloor(double x)
{
    long i = (long)x;
    return (double)i > x ? i - 1 : i;
}

static vec3 checker_albedo(const material *m, const hit *h)
{
    long k = ifloor(h->p.x * m->scale) + ifloor(h->p.y * m->scale) + ifloor(h->p.z * m->scale);
    return (k & 1) ? m->c1 : m->c2;
}

static const material_ops checker_ops = {"checker", checker_albedo};

material *make_checker(vec3 a, vec3 b, double scale, double refl)
{
    return alloc_material(&checker_ops, a, b, scale, refl);
}

static vec3 mix3(vec3 a, vec3 b, double t) { return vadd(vscale(a, 1.0 - t), vscale(b, t)); }

static vec3 stripes_albedo(const material *m, const hit *h)
{
    double s = (h->p.x + h->p.z * 0.5) * m->scale;
    double f = s - (double)ifloor(s);
    double t = f < 0.5 ? f * 2.0 : 2.0 - f * 2.0;
    return mix3(m->c1, m->c2, t);
}

static const material_ops stripes_ops = {"stripes", stripes_albedo};

material *make_stripes(vec3 a, vec3 b, double scale, double refl)
{
    return alloc_material(&stripes_ops, a, b, scale, refl);
}

/* Integer lattice hash -> [0, 1). */
static double lattice(long x, long y, long z)
{
    uint64_t h = (uint64_t)x * 0x9e3779b97f4a7c15ULL ^ (uint64_t)y * 0xc2b2ae3d27d4eb4fULL ^
                 (uint64_t)z * 0x165667b19e3779f9ULL;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ULL;
    h ^= h >> 32;
    return (double)(h & 0xffff) / 65536.0;
}

static double smooth(double t) { return t * t * (3.0 - 2.0 * t); }

static double value_noise(vec3 p)
{
    long ix = ifloor(p.x), iy = ifloor(p.y), iz = ifloor(p.z);
    double fx = smooth(p.x - ix), fy = smooth(p.y - iy), fz = smooth(p.z - iz);
    double c[2][2][2];
    for (int a = 0; a < 2; a++)
        for (int b = 0; b < 2; b++)
            for (int d = 0; d < 2; d++)
                c[a][b][d] = lattice(ix + a, iy + b, iz + d);
    double x00 = c[0][0][0] + (c[1][0][0] - c[0][0][0]) * fx;
    double x10 = c[0][1][0] + (c[1][1][0] - c[0][1][0]) * fx;
    double x01 = c[0][0][1] + (c[1][0][1] - c[0][0][1]) * fx;
    double x11 = c[0][1][1] + (c[1][1][1] - c[0][1][1]) * fx;
    double y0 = x00 + (x10 - x00) * fy, y1 = x01 + (x11 - x01) * fy;
    return y0 + (y1 - y0) * fz;
}

static vec3 marble_albedo(const material *m, const hit *h)
{
    vec3 p = vscale(h->p, m->scale);
    double n = value_noise(p) * 0.5 + value_noise(vscale(p, 2.0)) * 0.25 +
               value_noise(vscale(p, 4.0)) * 0.125;
    return mix3(m->c1, m->c2, n / 0.875);
}

static const material_ops marble_ops = {"marble", marble_albedo};

material *make_marble(vec3 a, vec3 b, double scale, double refl)
{
    return alloc_material(&marble_ops, a, b, scale, refl);
}
