/*
 * fp_basic.c - differential test: float and double arithmetic.
 * +,-,*,/, sqrt, fma/fmaf, conversions to and from integers (including
 * out-of-range and NaN inputs, which RISC-V saturates), NaN and infinity
 * propagation, signed zeros, fmin/fmax, copysign, classification and
 * exact output with %a and %.17g / %.9g.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <inttypes.h>

static const double dv[] = {
    0.0, -0.0, 1.0, -1.0, 0.1, 1.0 / 3.0, 2.5, -2.5, 3.5, 1e300, -1e300, 1e-310,
    4.9e-324, 1.7976931348623157e308, 2.2250738585072014e-308, 9007199254740993.0,
    INFINITY, -INFINITY, NAN, 123456789.123456789, -0.5, 0.5, 1.5, 4294967296.5,
    9.3e18, -9.3e18, 2147483647.9, -2147483648.9,
};
#define ND (sizeof dv / sizeof dv[0])

static uint64_t dbits(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

/* Print NaN bit patterns too so NaN boxing / canonical NaN bugs show up. */
static void pd(const char *what, double d) { printf("%s=%.17g [%a %016" PRIx64 "]\n", what, d, d, dbits(d)); }
static void pf(const char *what, float f) { printf("%s=%.9g [%a %08" PRIx32 "]\n", what, (double)f, (double)f, fbits(f)); }

int main(void)
{
    volatile double a, b;
    for (unsigned i = 0; i < ND; i += 1)
        for (unsigned j = 0; j < ND; j += 3) {
            a = dv[i]; b = dv[j];
            printf("[%u,%u] ", i, j);
            pd("add", a + b);
            pd("  sub", a - b);
            pd("  mul", a * b);
            pd("  div", a / b);
            pd("  fma", fma(a, b, 1.0));
            printf("  cmp lt=%d le=%d eq=%d unord=%d\n", a < b, a <= b, a == b, isunordered(a, b));
        }
    for (unsigned i = 0; i < ND; i++) {
        a = dv[i];
        printf("d[%u] ", i); pd("v", a);
        pd("  sqrt", sqrt(a));
        pd("  neg", -a);
        pd("  fabs", fabs(a));
        pd("  fmin0", fmin(a, 0.0)); pd("  fmax-0", fmax(a, -0.0));
        pd("  fminNaN", fmin(a, NAN)); pd("  copysign", copysign(2.0, a));
        printf("  class: fin=%d inf=%d nan=%d norm=%d sub=%d signbit=%d\n", isfinite(a) != 0,
               isinf(a) != 0, isnan(a) != 0, isnormal(a) != 0,
               fpclassify(a) == FP_SUBNORMAL, signbit(a) != 0);
        /* RISC-V fcvt saturates; use inline asm so C's UB does not matter */
        int64_t l; int32_t w; uint64_t lu; uint32_t wu;
        __asm__ volatile("fcvt.l.d %0,%1,rtz" : "=r"(l) : "f"(a));
        __asm__ volatile("fcvt.w.d %0,%1,rtz" : "=r"(w) : "f"(a));
        __asm__ volatile("fcvt.lu.d %0,%1,rtz" : "=r"(lu) : "f"(a));
        __asm__ volatile("fcvt.wu.d %0,%1,rtz" : "=r"(wu) : "f"(a));
        printf("  cvt l=%" PRId64 " w=%" PRId32 " lu=%" PRIu64 " wu=%" PRIu32 "\n", l, w, lu, wu);
        __asm__ volatile("fcvt.l.d %0,%1,rne" : "=r"(l) : "f"(a));
        __asm__ volatile("fcvt.w.d %0,%1,rup" : "=r"(w) : "f"(a));
        __asm__ volatile("fcvt.lu.d %0,%1,rdn" : "=r"(lu) : "f"(a));
        __asm__ volatile("fcvt.wu.d %0,%1,rmm" : "=r"(wu) : "f"(a));
        printf("  cvt rne l=%" PRId64 " rup w=%" PRId32 " rdn lu=%" PRIu64 " rmm wu=%" PRIu32 "\n", l, w, lu, wu);
        uint64_t cls;
        __asm__ volatile("fclass.d %0,%1" : "=r"(cls) : "f"(a));
        printf("  fclass.d=%" PRIx64 "\n", cls);
        float f = (float)a;
        pf("  (float)", f);
        pf("  sqrtf", sqrtf(f));
        pf("  fmaf", fmaf(f, 3.0f, -1.0f));
        pf("  f*f", f * f);
        pd("  (double)f", (double)f);
        __asm__ volatile("fclass.s %0,%1" : "=r"(cls) : "f"(f));
        printf("  fclass.s=%" PRIx64 "\n", cls);
        __asm__ volatile("fcvt.w.s %0,%1,rtz" : "=r"(w) : "f"(f));
        __asm__ volatile("fcvt.lu.s %0,%1,rtz" : "=r"(lu) : "f"(f));
        printf("  cvt.s w=%" PRId32 " lu=%" PRIu64 "\n", w, lu);
    }
    /* integer -> fp conversions with rounding */
    static const int64_t iv[] = { 0, 1, -1, 9007199254740993ll, -9007199254740995ll, INT64_MAX, INT64_MIN, 16777217, 2147483647 };
    for (unsigned i = 0; i < sizeof iv / sizeof iv[0]; i++) {
        volatile int64_t x = iv[i];
        printf("i=%" PRId64 " ", x);
        pd("d", (double)x); pf("  f", (float)x); pd("  du", (double)(uint64_t)x);
        pf("  fu", (float)(uint64_t)x); pd("  dw", (double)(int32_t)x); pf("  fwu", (float)(uint32_t)x);
    }
    /* fsgnj family and NaN-boxing of single values in FP registers */
    float fa = -3.0f, fb = 2.0f, fr;
    __asm__ volatile("fsgnj.s %0,%1,%2" : "=f"(fr) : "f"(fb), "f"(fa)); pf("fsgnj.s", fr);
    __asm__ volatile("fsgnjn.s %0,%1,%2" : "=f"(fr) : "f"(fb), "f"(fa)); pf("fsgnjn.s", fr);
    __asm__ volatile("fsgnjx.s %0,%1,%2" : "=f"(fr) : "f"(fa), "f"(fa)); pf("fsgnjx.s", fr);
    uint64_t raw;
    __asm__ volatile("fmv.x.d %0,%1" : "=r"(raw) : "f"(fa)); printf("boxed float raw=%016" PRIx64 "\n", raw);
    __asm__ volatile("fmv.x.w %0,%1" : "=r"(raw) : "f"(fa)); printf("fmv.x.w=%016" PRIx64 "\n", raw);
    double unboxed; /* a double register holding a non-boxed value read as float is canonical NaN */
    __asm__ volatile("fmv.d.x %0,%1" : "=f"(unboxed) : "r"(0x0000000040490fdbull));
    __asm__ volatile("fadd.s %0,%1,%1" : "=f"(fr) : "f"(unboxed)); pf("unboxed add", fr);
    __asm__ volatile("fmin.s %0,%1,%2" : "=f"(fr) : "f"(-0.0f), "f"(0.0f)); pf("fmin.s -0,0", fr);
    __asm__ volatile("fmax.s %0,%1,%2" : "=f"(fr) : "f"(-0.0f), "f"(0.0f)); pf("fmax.s -0,0", fr);
    double dr;
    __asm__ volatile("fmin.d %0,%1,%2" : "=f"(dr) : "f"((double)NAN), "f"((double)NAN)); pd("fmin.d nan,nan", dr);
    __asm__ volatile("fmax.d %0,%1,%2" : "=f"(dr) : "f"(-0.0), "f"((double)NAN)); pd("fmax.d -0,nan", dr);
    __asm__ volatile("fnmsub.d %0,%1,%2,%3" : "=f"(dr) : "f"(2.0), "f"(3.0), "f"(1.0)); pd("fnmsub.d", dr);
    __asm__ volatile("fnmadd.d %0,%1,%2,%3" : "=f"(dr) : "f"(2.0), "f"(3.0), "f"(1.0)); pd("fnmadd.d", dr);
    __asm__ volatile("fmsub.s %0,%1,%2,%3" : "=f"(fr) : "f"(2.0f), "f"(3.0f), "f"(1.0f)); pf("fmsub.s", fr);
    /* accumulate: harmonic series in float and double */
    float hs = 0; double hd = 0;
    for (int i = 1; i <= 100000; i++) { hs += 1.0f / i; hd += 1.0 / i; }
    pf("harmonic float", hs); pd("harmonic double", hd);
    return 0;
}
