/*
 * fp_rounding.c - differential test: every basic FP operation under every
 * rounding mode.  For each mode (set with fesetround, so the instructions
 * use the dynamic rounding mode) and each operation (add, sub, mul, div,
 * sqrt, fma, min/max, conversions between float, double and 32/64-bit
 * integers, signed and unsigned), a hash of the result bits over a grid of
 * awkward operands is printed together with the exception flags raised
 * (for the .s rows these include rounding the double operands to float).
 */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const double grid[] = {
    0.0, -0.0, 1.0, -1.0, 3.0, 0.1, -0.7, 1.0 / 3, 2.0 / 3, 1e-310, -2.5e-320, 0x1p-1022, 0x1.fffffffffffffp-1023,
    1e308, -1.7976931348623157e308, 0x1p52 + 0.5, 0x1p63, -0x1p63, 0x1p64, 4294967295.5, -2147483648.5, 123.456,
    1e-7, 65504.1, 3.4028235677973366e38, 1.401298464324817e-45, INFINITY, -INFINITY, NAN,
};
#define NG (sizeof grid / sizeof grid[0])

static uint64_t h;
static void mix(uint64_t v) { h = (h ^ v) * 0x100000001b3ull; }
static void mixd(double d) { uint64_t u; memcpy(&u, &d, 8); mix(u); }
static void mixf(float f) { uint32_t u; memcpy(&u, &f, 4); mix(u); }

static void report(const char *op)
{
    int e = fetestexcept(FE_ALL_EXCEPT);
    printf("  %-10s %016llx %c%c%c%c%c\n", op, (unsigned long long)h, e & FE_INVALID ? 'V' : '-',
           e & FE_DIVBYZERO ? 'Z' : '-', e & FE_OVERFLOW ? 'O' : '-', e & FE_UNDERFLOW ? 'U' : '-',
           e & FE_INEXACT ? 'X' : '-');
    h = 0xcbf29ce484222325ull;
    feclearexcept(FE_ALL_EXCEPT);
}

static const struct { int mode; const char *name; } modes[] = {
    { FE_TONEAREST, "nearest" }, { FE_UPWARD, "upward" }, { FE_DOWNWARD, "downward" }, { FE_TOWARDZERO, "towardzero" },
};

int main(void)
{
    volatile double a, b, c;
    volatile float fa, fb, fc;
    for (unsigned m = 0; m < 4; m++) {
        fesetround(modes[m].mode);
        printf("mode %s\n", modes[m].name);
        feclearexcept(FE_ALL_EXCEPT);
        h = 0xcbf29ce484222325ull;
#define BIN(NAME, EXPR_D, EXPR_F) \
        for (unsigned i = 0; i < NG; i++) for (unsigned j = 0; j < NG; j++) { a = grid[i]; b = grid[j]; mixd(EXPR_D); } \
        report(NAME ".d"); \
        for (unsigned i = 0; i < NG; i++) for (unsigned j = 0; j < NG; j++) { fa = (float)grid[i]; fb = (float)grid[j]; mixf(EXPR_F); } \
        report(NAME ".s");
        BIN("add", a + b, fa + fb)
        BIN("sub", a - b, fa - fb)
        BIN("mul", a * b, fa * fb)
        BIN("div", a / b, fa / fb)
        BIN("min", fmin(a, b), fminf(fa, fb))
        BIN("max", fmax(a, b), fmaxf(fa, fb))
        for (unsigned i = 0; i < NG; i++) for (unsigned j = 0; j < NG; j += 2) for (unsigned k = 0; k < NG; k += 3) {
            a = grid[i]; b = grid[j]; c = grid[k]; mixd(fma(a, b, c));
        }
        report("fma.d");
        for (unsigned i = 0; i < NG; i++) for (unsigned j = 0; j < NG; j += 2) for (unsigned k = 0; k < NG; k += 3) {
            fa = (float)grid[i]; fb = (float)grid[j]; fc = (float)grid[k]; mixf(fmaf(fa, fb, fc));
        }
        report("fma.s");
        for (unsigned i = 0; i < NG; i++) { a = grid[i]; mixd(sqrt(a)); } report("sqrt.d");
        for (unsigned i = 0; i < NG; i++) { fa = (float)grid[i]; mixf(sqrtf(fa)); } report("sqrt.s");
        for (unsigned i = 0; i < NG; i++) { a = grid[i]; mixf((float)a); } report("cvt.s.d");
        for (unsigned i = 0; i < NG; i++) {
            a = grid[i];
            int64_t l; int32_t w; uint64_t lu; uint32_t wu;
            __asm__ volatile("fcvt.l.d %0,%1" : "=r"(l) : "f"(a)); mix((uint64_t)l);
            __asm__ volatile("fcvt.w.d %0,%1" : "=r"(w) : "f"(a)); mix((uint64_t)(int64_t)w);
            __asm__ volatile("fcvt.lu.d %0,%1" : "=r"(lu) : "f"(a)); mix(lu);
            __asm__ volatile("fcvt.wu.d %0,%1" : "=r"(wu) : "f"(a)); mix((uint64_t)(int64_t)(int32_t)wu);
        }
        report("cvt.int.d");
        for (unsigned i = 0; i < NG; i++) {
            float f = (float)grid[i];
            int64_t l; int32_t w; uint64_t lu; uint32_t wu;
            __asm__ volatile("fcvt.l.s %0,%1" : "=r"(l) : "f"(f)); mix((uint64_t)l);
            __asm__ volatile("fcvt.w.s %0,%1" : "=r"(w) : "f"(f)); mix((uint64_t)(int64_t)w);
            __asm__ volatile("fcvt.lu.s %0,%1" : "=r"(lu) : "f"(f)); mix(lu);
            __asm__ volatile("fcvt.wu.s %0,%1" : "=r"(wu) : "f"(f)); mix((uint64_t)(int64_t)(int32_t)wu);
        }
        report("cvt.int.s");
        static const int64_t ints[] = { 0, 1, -1, 16777217, -16777219, 9007199254740993ll, INT64_MAX, INT64_MIN,
                                        0x7fffffff, (int64_t)0x80000001u, 123456789, -987654321012345ll };
        for (unsigned i = 0; i < sizeof ints / sizeof ints[0]; i++) {
            volatile int64_t x = ints[i];
            mixd((double)x); mixf((float)x); mixd((double)(uint64_t)x); mixf((float)(uint64_t)x);
            mixd((double)(int32_t)x); mixf((float)(int32_t)x); mixf((float)(uint32_t)x);
        }
        report("cvt.fp.int");
        /* print a few values in full so a failure is easy to read */
        a = 1.0; b = 3.0; fa = 1.0f; fb = 3.0f;
        printf("  1/3=%a -1/3=%a 1/3f=%a sqrt(2)=%a (float)0.1=%a (int)-2.5=%ld\n", a / b, -a / b,
               (double)(fa / fb), sqrt(2.0 * a), (double)(float)(0.1 * a), lrint(-2.5 * a));
    }
    return 0;
}
