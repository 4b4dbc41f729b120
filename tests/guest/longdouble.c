/*
 * longdouble.c - differential test: long double, which on RV64 is IEEE
 * binary128 implemented in software (libgcc soft-fp).  Exercises the integer
 * paths of the simulator heavily: arithmetic, conversions, comparisons,
 * printf of long double and strtold.
 */
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <stdint.h>

int main(void)
{
    long double x = 1.0L;
    for (int i = 1; i <= 30; i++) {
        x = x * i / 3.0L + 1.0L / i;
        printf("i=%2d x=%.33Lg %La\n", i, x, x);
    }
    long double third = 1.0L / 3.0L;
    printf("1/3=%.36Lf\n", third);
    printf("sqrtl(2)=%.34Lg\n", sqrtl(2.0L));
    printf("eps=%Lg max=%Lg min=%Lg\n", (long double)__LDBL_EPSILON__, (long double)__LDBL_MAX__, (long double)__LDBL_MIN__);
    long double v = strtold("3.14159265358979323846264338327950288", NULL);
    printf("strtold pi=%.36Lg\n", v);
    printf("sizeof=%zu cmp %d %d %d\n", sizeof(long double), third < 0.34L, third > 0.33334L, v == 3.14159265358979323846L);
    int64_t big = INT64_MAX;
    long double lb = (long double)big;
    printf("int64max as ld=%.20Lg back=%lld\n", lb, (long long)(lb - 1));
    unsigned __int128 u = (unsigned __int128)((long double)1e30L);
    printf("1e30 as u128 hi=%llx lo=%llx\n", (unsigned long long)(u >> 64), (unsigned long long)u);
    double d = (double)third; float f = (float)third;
    printf("to double %.17g to float %.9g\n", d, (double)f);
    long double acc = 0;
    for (int i = 1; i <= 20000; i++) acc += 1.0L / ((long double)i * i);
    printf("basel=%.33Lg\n", acc);
    long double fact = 1; for (int i = 1; i <= 60; i++) fact *= i;
    printf("60!=%.34Lg\n", fact);
    printf("inf=%Lg nan=%d -0=%Lg\n", (long double)INFINITY * 2, isnan((long double)NAN), -0.0L);
    char buf[80]; snprintf(buf, sizeof buf, "%.25Le", third * 7);
    printf("snprintf=%s back-eq=%d\n", buf, strtold(buf, NULL) == third * 7);
    return 0;
}
