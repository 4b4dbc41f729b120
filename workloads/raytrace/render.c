/* render.c - the three rendering modes of the raytrace workload: flat
 * (primary rays, one unshadowed light), Whitted (shadows, Phong highlights,
 * recursive reflections) and ambient occlusion (hemisphere sampling).  The
 * per-mode shader is chosen through a function-pointer table. */
#include "rt.h"
#include <stdlib.h>

typedef struct rctx {
    const scene *s;
    const render_opts *o;
    uint64_t rng;
    uint64_t rays;
} rctx;

typedef vec3 (*shade_fn)(rctx *c, const ray *r, int depth);

static vec3 sky(const scene *s, vec3 d)
{
    double t = 0.5 * (d.y + 1.0);
    return vadd(vscale(s->sky_bottom, 1.0 - t), vscale(s->sky_top, t));
}

static int trace(rctx *c, const ray *r, hit *h)
{
    c->rays++;
    const object *root = c->s->root;
    if (!root->ops->intersect(root, r, T_EPS, T_INF, h))
        return 0;
    h->p = vadd(r->o, vscale(r->d, h->t));
    h->n = h->obj->ops->normal(h->obj, h);
    if (vdot(h->n, r->d) > 0)
        h->n = vneg(h->n);
    return 1;
}

static int in_shadow(rctx *c, vec3 p, vec3 n, const light_sample *ls)
{
    ray sr;
    c->rays++;
    sr.o = vadd(p, vscale(n, 1e-6));
    sr.d = ls->dir;
    const object *root = c->s->root;
    return root->ops->occluded(root, &sr, T_EPS, ls->dist);
}

static double ipow(double x, int e)
{
    double r = 1.0;
    while (e) {
        if (e & 1)
            r *= x;
        x *= x;
        e >>= 1;
    }
    return r;
}

static vec3 albedo_of(const hit *h)
{
    const material *m = h->obj->mat;
    return m->ops->albedo(m, h);
}

/* ---- flat ------------------------------------------------------------- */

static vec3 shade_flat(rctx *c, const ray *r, int depth)
{
    hit h;
    if (!trace(c, r, &h))
        return sky(c->s, r->d);
    light_sample ls;
    const light *l = c->s->lights[0];
    l->ops->sample(l, h.p, &ls);
    double nd = vdot(h.n, ls.dir);
    if (nd < 0)
        nd = 0;
    vec3 lit = vadd(c->s->ambient, vscale(ls.color, nd));
    return vmul(albedo_of(&h), lit);
}

/* ---- Whitted ---------------------------------------------------------- */

static vec3 direct_light(rctx *c, const ray *r, const hit *h, vec3 alb)
{
    const material *m = h->obj->mat;
    vec3 sum = vmul(alb, c->s->ambient);
    for (int i = 0; i < c->s->nlights; i++) {
        const light *l = c->s->lights[i];
        light_sample ls;
        l->ops->sample(l, h->p, &ls);
        double nd = vdot(h->n, ls.dir);
        if (nd <= 0 || (ls.color.x + ls.color.y + ls.color.z) <= 0)
            continue;
        if (in_shadow(c, h->p, h->n, &ls))
            continue;
        sum = vadd(sum, vmul(alb, vscale(ls.color, nd)));
        vec3 refl = vreflect(vneg(ls.dir), h->n);
        double s = -vdot(refl, r->d);
        if (s > 0.05)
            sum = vadd(sum, vscale(ls.color, m->specular * ipow(s, m->shininess)));
    }
    return sum;
}

static vec3 shade_whitted(rctx *c, const ray *r, int depth)
{
    hit h;
    if (!trace(c, r, &h))
        return sky(c->s, r->d);
    vec3 alb = albedo_of(&h);
    vec3 col = direct_light(c, r, &h, alb);
    double k = h.obj->mat->reflect;
    if (k > 0 && depth < c->o->max_depth) {
        ray rr;
        rr.d = vnorm(vreflect(r->d, h.n));
        rr.o = vadd(h.p, vscale(h.n, 1e-6));
        vec3 rc = shade_whitted(c, &rr, depth + 1);
        col = vadd(vscale(col, 1.0 - k), vscale(rc, k));
    }
    return col;
}

/* ---- ambient occlusion ------------------------------------------------ */

static uint32_t rng32(uint64_t *s)
{
    *s = *s * 6364136223846793005ULL + 1442695040888963407ULL;
    return (uint32_t)(*s >> 33);
}

static double rnd_sym(uint64_t *s) { return (double)rng32(s) / 1073741824.0 - 1.0; }

/* Uniform direction in the hemisphere around n (rejection sampling). */
static vec3 hemisphere_dir(uint64_t *s, vec3 n)
{
    for (;;) {
        vec3 d;
        d.x = rnd_sym(s);
        d.y = rnd_sym(s);
        d.z = rnd_sym(s);
        double l2 = vdot(d, d);
        if (l2 > 1.0 || l2 < 1e-4)
            continue;
        d = vscale(d, 1.0 / sqrt(l2));
        return vdot(d, n) < 0 ? vneg(d) : d;
    }
}

static vec3 shade_ao(rctx *c, const ray *r, int depth)
{
    hit h;
    if (!trace(c, r, &h))
        return sky(c->s, r->d);
    int n = c->o->ao_samples, open = 0;
    const object *root = c->s->root;
    for (int i = 0; i < n; i++) {
        ray ar;
        ar.o = vadd(h.p, vscale(h.n, 1e-6));
        ar.d = hemisphere_dir(&c->rng, h.n);
        c->rays++;
        if (!root->ops->occluded(root, &ar, T_EPS, 2.5))
            open++;
    }
    double ao = (double)open / n;
    light_sample ls;
    const light *l = c->s->lights[0];
    l->ops->sample(l, h.p, &ls);
    double nd = vdot(h.n, ls.dir);
    if (nd < 0 || in_shadow(c, h.p, h.n, &ls))
        nd = 0;
    vec3 lit = vadd(vscale(v3(0.5, 0.5, 0.55), ao), vscale(ls.color, nd * 0.6));
    return vmul(albedo_of(&h), lit);
}

static const struct {
    const char *name;
    shade_fn shade;
} modes[NMODES] = {
    {"flat", shade_flat}, {"whitted", shade_whitted}, {"ao", shade_ao},
};

const char *mode_name(int mode) { return modes[mode].name; }

static uint8_t quantize(double v)
{
    if (!(v > 0))
        return 0;
    if (v >= 1)
        return 255;
    return (uint8_t)(int)(v * 255.0 + 0.5);
}

static ray camera_ray(const scene *s, const render_opts *o, int x, int y)
{
    vec3 fwd = vnorm(vsub(s->look, s->eye));
    vec3 right = vnorm(vcross(s->up, fwd));
    vec3 up = vcross(fwd, right);
    double aspect = (double)o->width / o->height;
    double u = (2.0 * (x + 0.5) / o->width - 1.0) * aspect * s->fov_scale;
    double v = (1.0 - 2.0 * (y + 0.5) / o->height) * s->fov_scale;
    ray r;
    r.o = s->eye;
    r.d = vnorm(vadd(fwd, vadd(vscale(right, u), vscale(up, v))));
    return r;
}

void render(const scene *s, int mode, const render_opts *o, uint8_t *img, uint64_t *rays)
{
    rctx c = {s, o, 0, 0};
    shade_fn shade = modes[mode].shade;
    for (int y = 0; y < o->height; y++)
        for (int x = 0; x < o->width; x++) {
            c.rng = 0x853c49e6748fea9bULL ^ ((uint64_t)(y * o->width + x) * 0x9e3779b97f4a7c15ULL);
            ray r = camera_ray(s, o, x, y);
            vec3 col = shade(&c, &r, 0);
            uint8_t *px = img + 3 * ((size_t)y * o->width + x);
            px[0] = quantize(col.x);
            px[1] = quantize(col.y);
            px[2] = quantize(col.z);
        }
    *rays += c.rays;
}
