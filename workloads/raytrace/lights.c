/* lights.c - light sources of the raytrace workload (point, directional and
 * spot lights) sampled through a light_ops function-pointer table. */
#include "rt.h"
#include <stdlib.h>

static void point_sample(const light *l, vec3 p, light_sample *s)
{
    vec3 d = vsub(l->pos, p);
    double dist = vlen(d);
    s->dir = vscale(d, 1.0 / dist);
    s->dist = dist;
    s->color = vscale(l->color, 1.0 / (1.0 + l->falloff * dist * dist));
}

static const light_ops point_ops = {"point", point_sample};

static light *alloc_light(const light_ops *ops, vec3 pos, vec3 color, double falloff)
{
    light *l = calloc(1, sizeof(light));
    l->ops = ops;
    l->pos = pos;
    l->color = color;
    l->falloff = falloff;
    return l;
}

light *make_point_light(vec3 pos, vec3 color, double falloff)
{
    return alloc_light(&point_ops, pos, color, falloff);
}

/* Directional light: pos holds the (unit) direction towards the light. */
static void dir_sample(const light *l, vec3 p, light_sample *s)
{
    s->dir = l->pos;
    s->dist = T_INF;
    s->color = l->color;
}

static const light_ops dir_ops = {"directional", dir_sample};

light *make_dir_light(vec3 dir, vec3 color)
{
    return alloc_light(&dir_ops, vnorm(dir), color, 0);
}

/* Spot light: falloff holds the cosine cutoff; aim stored after pos. */
typedef struct spot {
    light base;
    vec3 aim;
} spot;

static void spot_sample(const light *l, vec3 p, light_sample *s)
{
    const spot *sp = (const spot *)l;
    point_sample(l, p, s);
    double c = -vdot(s->dir, sp->aim);
    double cut = 0.8;
    if (c <= cut) {
        s->color = v3(0, 0, 0);
        return;
    }
    double k = (c - cut) / (1.0 - cut);
    s->color = vscale(l->color, k * k);
}

static const light_ops spot_ops = {"spot", spot_sample};

light *make_spot_light(vec3 pos, vec3 dir, vec3 color)
{
    spot *s = calloc(1, sizeof(spot));
    s->base.ops = &spot_ops;
    s->base.pos = pos;
    s->base.color = color;
    s->aim = vnorm(dir);
    return &s->base;
}
