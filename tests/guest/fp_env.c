/*
 * fp_env.c - differential test: floating-point environment.
 * Rounding modes via fesetround with rint/nearbyint/lrint/llrint and plain
 * arithmetic, and accrued exception flags (fetestexcept) after division by
 * zero, invalid operations, overflow, underflow and inexact results, plus
 * reading fcsr/frm/fflags directly.
 */
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>

static void flags(const char *what)
{
    int e = fetestexcept(FE_ALL_EXCEPT);
    printf("%-24s flags:%s%s%s%s%s%s\n", what, e ? "" : " none",
           e & FE_INVALID ? " invalid" : "", e & FE_DIVBYZERO ? " divbyzero" : "",
           e & FE_OVERFLOW ? " overflow" : "", e & FE_UNDERFLOW ? " underflow" : "",
           e & FE_INEXACT ? " inexact" : "");
}

static const struct { int mode; const char *name; } modes[] = {
    { FE_TONEAREST, "nearest" }, { FE_UPWARD, "upward" },
    { FE_DOWNWARD, "downward" }, { FE_TOWARDZERO, "towardzero" },
};

int main(void)
{
    static const double xs[] = { 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999, 2.5001, -3.7, 1e16 + 1, 0.0, -0.0 };
    for (unsigned m = 0; m < 4; m++) {
        if (fesetround(modes[m].mode) != 0) printf("fesetround failed\n");
        printf("mode %s getround-ok=%d\n", modes[m].name, fegetround() == modes[m].mode);
        for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
            volatile double x = xs[i];
            printf("  x=%g rint=%g nearbyint=%g lrint=%ld llrint=%lld rintf=%g lrintf=%ld round=%g\n", x,
                   rint(x), nearbyint(x), lrint(x), llrint(x), (double)rintf((float)x),
                   lrintf((float)x), round(x));
        }
        volatile double one = 1.0, three = 3.0, big = 1e308, tiny = 1e-308;
        volatile float fone = 1.0f, fthree = 3.0f;
        printf("  1/3=%a 1/3f=%a -1/3=%a 2/3f=%a\n", one / three, (double)(fone / fthree),
               -one / three, (double)(2 * fone / fthree));
        printf("  big*10=%a tiny/1e10=%a sqrt2=%a fma=%a\n", big * 10, tiny / 1e10, sqrt(2.0),
               fma(one / three, three, -one));
        volatile int64_t i64 = 9007199254740993ll;
        printf("  (double)2^53+1=%a (float)16777217=%a\n", (double)i64, (double)(float)(int32_t)16777217);
        unsigned long frm;
        __asm__ volatile("frrm %0" : "=r"(frm));
        printf("  frm=%lu\n", frm);
    }
    fesetround(FE_TONEAREST);

    volatile double z = 0.0, one = 1.0, big = 1e308, tiny = 1e-300, neg = -1.0;
    volatile double r;
    volatile float fz = 0.0f, fbig = 3e38f, ftiny = 1e-30f;
    volatile float fr;
    feclearexcept(FE_ALL_EXCEPT); flags("clear");
    r = one + one; flags("1+1");
    r = one / z; flags("1/0"); printf("  = %g\n", r);
    feclearexcept(FE_ALL_EXCEPT); r = z / z; flags("0/0"); printf("  = %g\n", fabs(r));
    feclearexcept(FE_ALL_EXCEPT); r = big * big; flags("1e308*1e308"); printf("  = %g\n", r);
    feclearexcept(FE_ALL_EXCEPT); r = tiny * tiny; flags("1e-300*1e-300"); printf("  = %g\n", r);
    feclearexcept(FE_ALL_EXCEPT); r = one / 3.0; flags("1/3");
    feclearexcept(FE_ALL_EXCEPT); r = sqrt(neg); flags("sqrt(-1)");
    feclearexcept(FE_ALL_EXCEPT); fr = fbig * 10.0f; flags("3e38f*10"); printf("  = %g\n", (double)fr);
    feclearexcept(FE_ALL_EXCEPT); fr = ftiny * ftiny; flags("1e-30f^2"); printf("  = %g\n", (double)fr);
    feclearexcept(FE_ALL_EXCEPT); fr = 1.0f / fz; flags("1f/0f");
    feclearexcept(FE_ALL_EXCEPT); r = (double)(float)(one / 3.0); flags("(float)(1/3)");
    feclearexcept(FE_ALL_EXCEPT); r = (double)(float)big; flags("(float)1e308");
    feclearexcept(FE_ALL_EXCEPT); { volatile double mn = 0x1p-1022, mn1 = 0x1.0000000000001p-1022, two = 2; r = mn / two; flags("min_normal/2 exact");
    feclearexcept(FE_ALL_EXCEPT); r = mn1 / two; flags("subnormal inexact"); }
    {
        long l; feclearexcept(FE_ALL_EXCEPT);
        __asm__ volatile("fcvt.l.d %0,%1,rtz" : "=r"(l) : "f"(1e30) : "memory"); flags("fcvt.l.d 1e30"); printf("  = %ld\n", l);
        feclearexcept(FE_ALL_EXCEPT);
        __asm__ volatile("fcvt.w.d %0,%1,rtz" : "=r"(l) : "f"(2.5) : "memory"); flags("fcvt.w.d 2.5"); printf("  = %ld\n", l);
        feclearexcept(FE_ALL_EXCEPT);
        __asm__ volatile("fcvt.wu.d %0,%1,rtz" : "=r"(l) : "f"(-1.0) : "memory"); flags("fcvt.wu.d -1"); printf("  = %ld\n", l);
        feclearexcept(FE_ALL_EXCEPT);
        __asm__ volatile("fcvt.w.d %0,%1,rtz" : "=r"(l) : "f"((double)NAN) : "memory"); flags("fcvt.w.d nan"); printf("  = %ld\n", l);
        int eq; feclearexcept(FE_ALL_EXCEPT);
        __asm__ volatile("feq.d %0,%1,%2" : "=r"(eq) : "f"((double)NAN), "f"(1.0) : "memory"); flags("feq.d qnan"); printf("  = %d\n", eq);
        feclearexcept(FE_ALL_EXCEPT);
        __asm__ volatile("flt.d %0,%1,%2" : "=r"(eq) : "f"((double)NAN), "f"(1.0) : "memory"); flags("flt.d qnan"); printf("  = %d\n", eq);
        double snan; __asm__ volatile("fmv.d.x %0,%1" : "=f"(snan) : "r"(0x7ff0000000000001ull));
        feclearexcept(FE_ALL_EXCEPT);
        __asm__ volatile("feq.d %0,%1,%2" : "=r"(eq) : "f"(snan), "f"(1.0) : "memory"); flags("feq.d snan"); printf("  = %d\n", eq);
        double dr; feclearexcept(FE_ALL_EXCEPT);
        __asm__ volatile("fadd.d %0,%1,%2" : "=f"(dr) : "f"(snan), "f"(1.0) : "memory"); flags("snan+1");
        uint64_t bits; __asm__ volatile("fmv.x.d %0,%1" : "=r"(bits) : "f"(dr)); printf("  bits=%016lx\n", (unsigned long)bits);
        feclearexcept(FE_ALL_EXCEPT);
        __asm__ volatile("fmin.d %0,%1,%2" : "=f"(dr) : "f"(snan), "f"(1.0) : "memory"); flags("fmin snan,1"); printf("  = %g\n", dr);
        feclearexcept(FE_ALL_EXCEPT);
        __asm__ volatile("fmadd.d %0,%1,%2,%3" : "=f"(dr) : "f"((double)INFINITY), "f"(0.0), "f"(1.0) : "memory"); flags("fma inf*0+1");
    }
    /* raw fcsr access */
    unsigned long fcsr, old;
    feclearexcept(FE_ALL_EXCEPT);
    r = one / z;
    __asm__ volatile("frcsr %0" : "=r"(fcsr)); printf("fcsr after 1/0 = %#lx\n", fcsr);
    __asm__ volatile("fsrm %0,%1" : "=r"(old) : "r"(3ul)); printf("fsrm old=%lu\n", old);
    __asm__ volatile("frcsr %0" : "=r"(fcsr)); printf("fcsr = %#lx\n", fcsr);
    __asm__ volatile("fsflags %0,%1" : "=r"(old) : "r"(0x1ful)); printf("fsflags old=%#lx\n", old);
    __asm__ volatile("csrrs %0,fcsr,x0" : "=r"(fcsr)); printf("fcsr = %#lx\n", fcsr);
    __asm__ volatile("fscsr %0,%1" : "=r"(old) : "r"(0x4ul)); printf("fscsr old=%#lx\n", old);
    __asm__ volatile("csrrci %0,fflags,4" : "=r"(old)); printf("csrrci fflags old=%#lx\n", old);
    __asm__ volatile("csrrsi %0,frm,1" : "=r"(old)); printf("csrrsi frm old=%#lx\n", old);
    __asm__ volatile("frcsr %0" : "=r"(fcsr)); printf("fcsr = %#lx\n", fcsr);
    fesetround(FE_TONEAREST); feclearexcept(FE_ALL_EXCEPT);
    fenv_t env; feholdexcept(&env); r = one / z; flags("held 1/0"); feupdateenv(&env); flags("after update");
    (void)r; (void)fr;
    return 0;
}
