/*
 * alpha_fp_traps.c - Alpha differential test of floating-point traps:
 * feenableexcept (osf_setsysinfo SSI_IEEE_FP_CONTROL) enables one trap,
 * then an operation raises it.  With software completion (gcc's /SU
 * forms) the kernel -- and qemu-alpha -- deliver SIGFPE only for enabled
 * exceptions, and inexact never, since /SU ignores it; integer overflow of
 * cvttq/svc follows the invalid-operation enable.
 *
 *   alpha_fp_traps          no trap enabled: every case completes
 *   alpha_fp_traps CASE     CASE = dze, inv, ovf, ine, unf, iov: enable
 *                           that trap and raise it (SIGFPE, except ine)
 *
 * tests/guest-alpha/run_traps.sh runs the cases under qemu-alpha and
 * hps-sim and compares stdout and exit status (their SIGFPE messages on
 * stderr differ by design).
 */
#define _GNU_SOURCE
#include <fenv.h>
#include <stdio.h>
#include <string.h>

static volatile double zero = 0.0, one = 1.0, three = 3.0, big = 1e308, tiny = 1e-300, huge = 1e30;

static double raise_one(const char *what)
{
    double r = 0;
    if (!strcmp(what, "dze")) r = one / zero;
    else if (!strcmp(what, "inv")) r = zero / zero;
    else if (!strcmp(what, "ovf")) r = big * big;
    else if (!strcmp(what, "ine")) r = one / three;
    else if (!strcmp(what, "unf")) r = tiny * tiny;
    else if (!strcmp(what, "iov")) r = (double)(volatile long){ (long)huge };
    return r;
}

int main(int argc, char **argv)
{
    static const struct { const char *name; int exc; } cases[] = {
        { "dze", FE_DIVBYZERO }, { "inv", FE_INVALID }, { "ovf", FE_OVERFLOW },
        { "ine", FE_INEXACT }, { "unf", FE_UNDERFLOW }, { "iov", FE_INVALID },
    };
    if (argc < 2) {
        for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++)
            printf("%s: %g\n", cases[k].name, raise_one(cases[k].name));
        printf("flags %#x\n", fetestexcept(FE_ALL_EXCEPT));
        return 0;
    }
    for (unsigned k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        if (strcmp(argv[1], cases[k].name)) continue;
        printf("feenableexcept -> %d, enabled %#x\n", feenableexcept(cases[k].exc), fegetexcept());
        printf("harmless: %g\n", one + three);
        fflush(stdout);
        double r = raise_one(cases[k].name);
        printf("%s completed: %g\n", cases[k].name, r);
        return 0;
    }
    printf("unknown case %s\n", argv[1]);
    return 1;
}
