/*
 * structs_varargs.c - differential test: the calling convention.  Small
 * structs passed and returned in registers (integer pairs, float pairs,
 * mixed int/float, which the RISC-V LP64D ABI splits across x and f
 * registers), large structs passed by reference, many arguments spilling
 * to the stack, and varargs functions with mixed int/long/double/pointer
 * arguments, va_copy and vprintf/vsnprintf.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

struct ii { int a; int b; };
struct ll { long a; long b; };
struct dd { double x; double y; };
struct ff { float x; float y; };
struct fi { float f; int i; };
struct di { double d; long l; };
struct big { long v[9]; char tag[16]; };
struct c3 { char a, b, c; };

static struct ii __attribute__((noinline)) swap_ii(struct ii p) { return (struct ii){ p.b, p.a }; }
static struct ll __attribute__((noinline)) add_ll(struct ll p, struct ll q) { return (struct ll){ p.a + q.a, p.b + q.b }; }
static struct dd __attribute__((noinline)) rot_dd(struct dd p, double ang) { return (struct dd){ p.x * ang - p.y, p.y * ang + p.x }; }
static struct ff __attribute__((noinline)) scale_ff(struct ff p, float s) { return (struct ff){ p.x * s, p.y / s }; }
static struct fi __attribute__((noinline)) mix_fi(struct fi p) { return (struct fi){ p.f * (float)p.i, (int)p.f + p.i }; }
static struct di __attribute__((noinline)) mix_di(struct di p, struct fi q) { return (struct di){ p.d + q.f, p.l * q.i }; }
static struct big __attribute__((noinline)) make_big(int seed)
{
    struct big b; for (int i = 0; i < 9; i++) b.v[i] = (long)seed * (i + 1) * 1000003;
    snprintf(b.tag, sizeof b.tag, "big-%d", seed); return b;
}
static long __attribute__((noinline)) sum_big(struct big b) { long s = 0; for (int i = 0; i < 9; i++) s += b.v[i]; return s + (long)strlen(b.tag); }
static struct c3 __attribute__((noinline)) inc_c3(struct c3 c) { c.a++; c.b += 2; c.c += 3; return c; }

static double __attribute__((noinline)) many(int a, long b, double c, float d, int e, long f, double g, float h,
                                              int i, long j, double k, float l, int m, long n, double o, float p,
                                              double q, double r, int s, struct dd t)
{
    return a + b + c + d + e + f + g + h + i + j + k + l + m + n + o + p + q + r + s + t.x * 2 + t.y * 3;
}

/* format: i=int l=long d=double s=string p=struct ii */
static void __attribute__((noinline)) vp(const char *fmt, ...)
{
    va_list ap, ap2;
    va_start(ap, fmt);
    va_copy(ap2, ap);
    for (const char *f = fmt; *f; f++) {
        switch (*f) {
        case 'i': printf("int:%d ", va_arg(ap, int)); break;
        case 'l': printf("long:%ld ", va_arg(ap, long)); break;
        case 'd': printf("dbl:%.17g ", va_arg(ap, double)); break;
        case 's': printf("str:%s ", va_arg(ap, const char *)); break;
        case 'p': { struct ii p = va_arg(ap, struct ii); printf("ii:{%d,%d} ", p.a, p.b); break; }
        case 'D': { struct dd p = va_arg(ap, struct dd); printf("dd:{%g,%g} ", p.x, p.y); break; }
        case 'L': printf("ldbl:%.30Lg ", va_arg(ap, long double)); break;
        }
    }
    printf("\n");
    int count = 0;
    for (const char *f = fmt; *f; f++) {
        switch (*f) {
        case 'i': (void)va_arg(ap2, int); break;
        case 'l': (void)va_arg(ap2, long); break;
        case 'd': (void)va_arg(ap2, double); break;
        case 's': (void)va_arg(ap2, const char *); break;
        case 'p': (void)va_arg(ap2, struct ii); break;
        case 'D': (void)va_arg(ap2, struct dd); break;
        case 'L': (void)va_arg(ap2, long double); break;
        }
        count++;
    }
    printf("  (copied list walked %d args)\n", count);
    va_end(ap2);
    va_end(ap);
}

static long sum_n(int n, ...)
{
    va_list ap; va_start(ap, n); long s = 0;
    for (int i = 0; i < n; i++) s += va_arg(ap, long);
    va_end(ap); return s;
}

static int my_printf(const char *fmt, ...)
{
    char buf[256]; va_list ap;
    va_start(ap, fmt); int n = vsnprintf(buf, sizeof buf, fmt, ap); va_end(ap);
    printf("my_printf(%d): %s", n, buf);
    va_start(ap, fmt); vfprintf(stdout, fmt, ap); va_end(ap);
    return n;
}

int main(void)
{
    struct ii a = swap_ii((struct ii){ 1, -2 }); printf("swap_ii %d %d\n", a.a, a.b);
    struct ll l = add_ll((struct ll){ 1L << 40, -5 }, (struct ll){ 3, 1L << 50 }); printf("add_ll %ld %ld\n", l.a, l.b);
    struct dd d = rot_dd((struct dd){ 1.5, -2.25 }, 0.125); printf("rot_dd %.17g %.17g\n", d.x, d.y);
    struct ff f = scale_ff((struct ff){ 3.0f, 9.0f }, 1.5f); printf("scale_ff %.9g %.9g\n", (double)f.x, (double)f.y);
    struct fi fi = mix_fi((struct fi){ 2.5f, 7 }); printf("mix_fi %.9g %d\n", (double)fi.f, fi.i);
    struct di di = mix_di((struct di){ 0.1, 123456789 }, fi); printf("mix_di %.17g %ld\n", di.d, di.l);
    struct big b = make_big(17); printf("make_big %ld %ld %s sum=%ld\n", b.v[0], b.v[8], b.tag, sum_big(b));
    struct c3 c = inc_c3((struct c3){ 'a', 'b', 'c' }); printf("inc_c3 %c%c%c\n", c.a, c.b, c.c);
    printf("many=%.17g\n", many(1, 2, 3.5, 4.25f, 5, 6, 7.125, 8.5f, 9, 10, 11.0625, 12.75f, 13, 14, 15.5, 16.25f,
                               17.0, 18.5, 19, (struct dd){ 20.5, 21.25 }));
    vp("ildsp", 42, -1L << 40, 3.141592653589793, "text", (struct ii){ 5, 6 });
    vp("dddddddddi", 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10);
    vp("iiiiiiiiiiid", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 0.5);
    vp("LiL", 1.0L / 3, 9, -2.0L);
    vp("DiD", (struct dd){ 1, 2 }, 3, (struct dd){ 4, 5 });
    printf("sum_n=%ld\n", sum_n(12, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L, 11L, 1L << 60));
    my_printf("%s %d %.3f %c %lx\n", "vsn", -3, 2.71828, 'k', 0xabcdefUL);
    return 0;
}
