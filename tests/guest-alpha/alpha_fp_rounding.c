/*
 * alpha_fp_rounding.c - Alpha differential test: every basic FP operation under
 * every rounding mode, compiled with -mfp-rounding-mode=d
 * -mfp-trap-mode=sui (alpha_fp_rounding.cflags) so that C arithmetic uses the
 * /SUID forms: the dynamic rounding mode set with fesetround applies and
 * inexact is recorded.  For each mode and operation (add, sub, mul, div,
 * sqrt, float<->double, double/float<->long and int, compares) a hash of
 * the result bits over a grid of awkward operands is printed with the
 * exception flags raised.
 * Reference: qemu-alpha (dynamically linked build).
 */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const double grid[] = {
    0.0, -0.0, 1.0, -1.0, 3.0, 0.1, -0.7, 1.0 / 3, 2.0 / 3, 1e-310, -2.5e-320, 0x1p-1022,
    0x1.fffffffffffffp-1023, 1e308, -1.7976931348623157e308, 0x1p52 + 0.5, 0x1p63, -0x1p63,
    0x1p64, 4294967295.5, -2147483648.5, 123.456, 1e-7, 65504.1, 3.4028235677973366e38,
    1.401298464324817e-45, INFINITY, -INFINITY, NAN,
};
#define NG (sizeof grid / sizeof grid[0])

static uint64_t h;
static void mix(uint64_t v) { h = (h ^ v) * 0x100000001b3ull; }
static void mixd(double d) { uint64_t u; memcpy(&u, &d, 8); mix(u); }
static void mixf(float f) { uint32_t u; memcpy(&u, &f, 4); mix(u); }

static void report(const char *op)
{
    int e = fetestexcept(FE_ALL_EXCEPT);
    printf("  %-10s %016llx%s%s%s%s%s\n", op, (unsigned long long)h,
           e & FE_INVALID ? " NV" : "", e & FE_DIVBYZERO ? " DZ" : "",
           e & FE_OVERFLOW ? " OF" : "", e & FE_UNDERFLOW ? " UF" : "",
           e & FE_INEXACT ? " NX" : "");
    h = 0xcbf29ce484222325ull;
    feclearexcept(FE_ALL_EXCEPT);
}

/* Binary operation over the grid, in double and in float. */
#define BINOP(name, expr)                                                   \
    static void name(void)                                                  \
    {                                                                       \
        for (unsigned i = 0; i < NG; i++)                                   \
            for (unsigned j = 0; j < NG; j++) {                             \
                volatile double a = grid[i], b = grid[j];                   \
                mixd(expr);                                                 \
            }                                                               \
        report(#name ".t");                                                 \
        for (unsigned i = 0; i < NG; i++)                                   \
            for (unsigned j = 0; j < NG; j++) {                             \
                volatile float a = (float)grid[i], b = (float)grid[j];      \
                mixf(expr);                                                 \
            }                                                               \
        report(#name ".s");                                                 \
    }
BINOP(add, a + b)
BINOP(sub, a - b)
BINOP(mul, a * b)
BINOP(div, a / b)

static void others(void)
{
    for (unsigned i = 0; i < NG; i++) { volatile double a = grid[i]; mixd(sqrt(a)); }
    report("sqrt.t");
    for (unsigned i = 0; i < NG; i++) { volatile float a = (float)grid[i]; mixf(sqrtf(a)); }
    report("sqrt.s");
    for (unsigned i = 0; i < NG; i++) { volatile double a = grid[i]; mixf((float)a); }
    report("cvt.s.t");
    for (unsigned i = 0; i < NG; i++) { volatile float a = (float)grid[i]; mixd((double)a); }
    report("cvt.t.s");
    for (unsigned i = 0; i < NG; i++) {
        volatile double a = grid[i];
        if (!(fabs(a) < 0x1p63)) continue;            /* C leaves the rest undefined */
        mix((uint64_t)(long)a);
        mix((uint64_t)(long)(int)(a / 0x1p32));
    }
    report("cvt.q.t");
    for (unsigned i = 0; i < NG; i++) {
        volatile double a = grid[i];
        if (!(fabs(a) < 0x1p63)) continue;
        mix((uint64_t)lrint(a));
        mix((uint64_t)llround(a));
    }
    report("lrint");
    static const int64_t ints[] = { 0, 1, -1, 16777217, -16777219, 9007199254740993ll,
                                    -9007199254740995ll, INT64_MAX, INT64_MIN, 0x123456789abcdefll };
    for (unsigned i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        volatile int64_t v = ints[i];
        mixd((double)v);
        mixf((float)v);
        mixd((double)(uint64_t)v);
        mixf((float)(int32_t)v);
    }
    report("cvt.t.q");
    for (unsigned i = 0; i < NG; i++)
        for (unsigned j = 0; j < NG; j++) {
            volatile double a = grid[i], b = grid[j];
            mix((uint64_t)((a < b) | (a <= b) << 1 | (a == b) << 2 | isunordered(a, b) << 3));
        }
    report("cmp.t");
    for (unsigned i = 0; i < NG; i++)
        for (unsigned j = 0; j < NG; j++) {
            volatile double a = grid[i], b = grid[j];
            mixd(fma(a, b, 0.5));
        }
    report("fma");
}

static const struct { int mode; const char *name; } modes[] = {
    { FE_TONEAREST, "nearest" }, { FE_UPWARD, "upward" },
    { FE_DOWNWARD, "downward" }, { FE_TOWARDZERO, "towardzero" },
};

int main(void)
{
    for (unsigned m = 0; m < 4; m++) {
        fesetround(modes[m].mode);
        printf("mode %s\n", modes[m].name);
        h = 0xcbf29ce484222325ull;
        feclearexcept(FE_ALL_EXCEPT);
        add();
        sub();
        mul();
        div();
        others();
    }
    fesetround(FE_TONEAREST);
    return 0;
}
