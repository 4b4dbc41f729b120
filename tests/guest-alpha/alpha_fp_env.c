/*
 * alpha_fp_env.c - Alpha differential test: the C floating-point environment as
 * glibc implements it on Alpha (mf_fpcr/mt_fpcr for the rounding mode,
 * osf_getsysinfo/osf_setsysinfo IEEE_FP_CONTROL for exception flags and
 * trap enables): fegetround/fesetround with rint, nearbyint, lrint and
 * friends; which flags plain C arithmetic leaves (gcc's default /SU forms
 * do not record inexact); feraiseexcept, feclearexcept, fetestexcept,
 * fegetexceptflag/fesetexceptflag, fegetenv/fesetenv, feholdexcept and
 * feupdateenv; the raw FPCR next to it all.
 * Reference: qemu-alpha (dynamically linked build).
 */
#define _GNU_SOURCE
#include <fenv.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t fpcr(void)
{
    double f;
    uint64_t b;
    __asm__ volatile("excb\n\tmf_fpcr %0\n\texcb" : "=f"(f));
    memcpy(&b, &f, 8);
    return b;
}

static void flags(const char *what)
{
    int e = fetestexcept(FE_ALL_EXCEPT);
    printf("%-28s flags:%s%s%s%s%s%s  fpcr %016llx\n", what, e ? "" : " none",
           e & FE_INVALID ? " invalid" : "", e & FE_DIVBYZERO ? " divbyzero" : "",
           e & FE_OVERFLOW ? " overflow" : "", e & FE_UNDERFLOW ? " underflow" : "",
           e & FE_INEXACT ? " inexact" : "", (unsigned long long)fpcr());
}

static const struct { int mode; const char *name; } modes[] = {
    { FE_TONEAREST, "nearest" }, { FE_UPWARD, "upward" },
    { FE_DOWNWARD, "downward" }, { FE_TOWARDZERO, "towardzero" },
};

static void rounding(void)
{
    static const double xs[] = { 0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 2.4999, 2.5001, -3.7,
                                 1e16 + 2, 4503599627370497.0, 0.0, -0.0 };
    for (unsigned m = 0; m < 4; m++) {
        if (fesetround(modes[m].mode) != 0) printf("fesetround failed\n");
        printf("mode %s getround-ok=%d fpcr %016llx\n", modes[m].name,
               fegetround() == modes[m].mode, (unsigned long long)fpcr());
        for (unsigned i = 0; i < sizeof xs / sizeof xs[0]; i++) {
            volatile double x = xs[i];
            printf("  x=%g rint=%g nearbyint=%g lrint=%ld llrint=%lld rintf=%g lrintf=%ld round=%g "
                   "floor=%g ceil=%g trunc=%g\n", x, rint(x), nearbyint(x), lrint(x), llrint(x),
                   (double)rintf((float)x), lrintf((float)x), round(x), floor(x), ceil(x), trunc(x));
        }
        volatile double one = 1.0, three = 3.0, big = 1e308, tiny = 1e-308;
        volatile float fone = 1.0f, fthree = 3.0f;
        /* gcc's default forms round to nearest whatever the mode; libm's
         * dynamic-rounding ones follow it */
        printf("  1/3=%a 1/3f=%a big*10=%a tiny/1e10=%a\n", one / three, (double)(fone / fthree),
               big * 10, tiny / 1e10);
        printf("  sqrt2=%a exp1=%a log10=%a sin1=%a pow=%a fma=%a\n", sqrt(2.0), exp(1.0),
               log(10.0), sin(1.0), pow(1.1, 20.5), fma(one / three, three, -one));
        volatile int64_t i64 = 9007199254740993ll;
        printf("  (double)2^53+1=%a (float)16777217=%a\n", (double)i64,
               (double)(float)(volatile int32_t){ 16777217 });
    }
    fesetround(FE_TONEAREST);
    printf("fesetround(bad)=%d mode-ok=%d\n", fesetround(0x1234), fegetround() == FE_TONEAREST);
}

static void exceptions(void)
{
    volatile double z = 0.0, one = 1.0, three = 3.0, big = 1e308, tiny = 1e-300, neg = -1.0;
    volatile double r;
    volatile float fz = 0.0f, fbig = 3e38f, ftiny = 1e-30f, fr;
    volatile long l;

    feclearexcept(FE_ALL_EXCEPT); flags("clear");
    r = one + one; flags("1+1");
    r = one / three; flags("1/3 (inexact not recorded)");
    r = one / z; flags("1/0"); printf("  = %g\n", r);
    feclearexcept(FE_ALL_EXCEPT); r = z / z; flags("0/0"); printf("  = %g %d\n", fabs(r), !!signbit(r));
    feclearexcept(FE_ALL_EXCEPT); r = big * big; flags("overflow"); printf("  = %g\n", r);
    feclearexcept(FE_ALL_EXCEPT); r = tiny * tiny; flags("underflow"); printf("  = %g\n", r);
    feclearexcept(FE_ALL_EXCEPT); r = tiny * 1e-10; flags("denormal"); printf("  = %a\n", r);
    feclearexcept(FE_ALL_EXCEPT); r = sqrt(neg); flags("sqrt(-1)"); printf("  = %g\n", fabs(r));
    feclearexcept(FE_ALL_EXCEPT); fr = fbig * 10.0f; flags("float overflow");
    feclearexcept(FE_ALL_EXCEPT); fr = ftiny * ftiny; flags("float underflow"); printf("  = %g\n", fr);
    feclearexcept(FE_ALL_EXCEPT); fr = fz / fz; flags("float 0/0");
    feclearexcept(FE_ALL_EXCEPT); r = 1e30; l = (long)r; flags("(long)1e30"); printf("  = %ld\n", l);
    feclearexcept(FE_ALL_EXCEPT); r = -2.75; l = (long)r; flags("(long)-2.75"); printf("  = %ld\n", l);
    feclearexcept(FE_ALL_EXCEPT); r = NAN; l = (long)r; flags("(long)NaN"); printf("  = %ld\n", l);
    feclearexcept(FE_ALL_EXCEPT); r = 1e300; fr = (float)r; flags("(float)1e300");
    feclearexcept(FE_ALL_EXCEPT); l = 123456789012345679; r = (double)l; flags("(double)big long");
    feclearexcept(FE_ALL_EXCEPT); r = exp(1000.0); flags("exp(1000)");
    feclearexcept(FE_ALL_EXCEPT); r = log(0.0); flags("log(0)");
    feclearexcept(FE_ALL_EXCEPT); r = exp(-1000.0); flags("exp(-1000)");
    feclearexcept(FE_ALL_EXCEPT); r = nearbyint(2.5); flags("nearbyint(2.5)");
    feclearexcept(FE_ALL_EXCEPT); r = rint(2.5); flags("rint(2.5)");
    feclearexcept(FE_ALL_EXCEPT); r = acos(2.0); flags("acos(2)");
    (void)r; (void)fr; (void)l;

    static const int each[] = { FE_INVALID, FE_DIVBYZERO, FE_OVERFLOW, FE_UNDERFLOW, FE_INEXACT };
    for (unsigned k = 0; k < 5; k++) {
        feclearexcept(FE_ALL_EXCEPT);
        printf("feraiseexcept(%#x)=%d ", each[k], feraiseexcept(each[k]));
        flags("");
    }
    feclearexcept(FE_ALL_EXCEPT);
    feraiseexcept(FE_OVERFLOW | FE_INEXACT | FE_INVALID);
    flags("raise ovf|ine|inv");
    fexcept_t saved;
    printf("fegetexceptflag=%d\n", fegetexceptflag(&saved, FE_ALL_EXCEPT));
    feclearexcept(FE_INEXACT); flags("clear inexact");
    feclearexcept(FE_ALL_EXCEPT); flags("clear all");
    printf("fesetexceptflag=%d\n", fesetexceptflag(&saved, FE_OVERFLOW | FE_INVALID));
    flags("restored ovf|inv");
    printf("fetestexcept(FE_OVERFLOW)=%d\n", fetestexcept(FE_OVERFLOW) != 0);
    printf("fegetexcept=%#x\n", fegetexcept());

    fenv_t env, held;
    fesetround(FE_UPWARD);
    printf("fegetenv=%d\n", fegetenv(&env));
    fesetround(FE_TOWARDZERO);
    feclearexcept(FE_ALL_EXCEPT);
    feraiseexcept(FE_DIVBYZERO);
    printf("feholdexcept=%d\n", feholdexcept(&held));
    flags("held");
    r = one / z;
    flags("1/0 while held");
    printf("mode towardzero=%d\n", fegetround() == FE_TOWARDZERO);
    printf("feupdateenv=%d\n", feupdateenv(&held));
    flags("updated");
    printf("fesetenv=%d mode upward=%d\n", fesetenv(&env), fegetround() == FE_UPWARD);
    flags("env restored");
    printf("fesetenv(FE_DFL_ENV)=%d mode nearest=%d\n", fesetenv(FE_DFL_ENV),
           fegetround() == FE_TONEAREST);
    flags("default env");
}

int main(void)
{
    flags("start");
    rounding();
    exceptions();
    return 0;
}
