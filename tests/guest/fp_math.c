/*
 * fp_math.c - differential test: libm.  sin/cos/tan/exp/log/pow/atan2 and
 * friends in double and float over a grid of arguments, printed with
 * %.17g so any deviation in FP instruction semantics shows up, plus a
 * small numerical kernel (Simpson integration, Newton iteration, a 16x16
 * matrix product and a complex Mandelbrot orbit).
 */
#include <math.h>
#include <stdio.h>

int main(void)
{
    for (int i = -12; i <= 12; i++) {
        double x = i * 0.7371;
        printf("x=%.17g sin=%.17g cos=%.17g tan=%.17g atan=%.17g\n", x, sin(x), cos(x), tan(x), atan(x));
        printf("  exp=%.17g expm1=%.17g sinh=%.17g tanh=%.17g cbrt=%.17g\n", exp(x), expm1(x), sinh(x), tanh(x), cbrt(x));
        double ax = fabs(x) + 0.01;
        printf("  log=%.17g log2=%.17g log10=%.17g log1p=%.17g pow=%.17g hyp=%.17g\n", log(ax), log2(ax), log10(ax),
               log1p(ax), pow(ax, x), hypot(x, 1.25));
        printf("  atan2=%.17g asin=%.17g acos=%.17g floor=%g ceil=%g trunc=%g fmod=%.17g remainder=%.17g\n",
               atan2(x, -1.5), asin(x / 9), acos(x / 9), floor(x), ceil(x), trunc(x), fmod(x, 1.1), remainder(x, 1.1));
        float xf = (float)x, axf = (float)ax;
        printf("  f: sin=%.9g cos=%.9g exp=%.9g log=%.9g pow=%.9g sqrt=%.9g\n", (double)sinf(xf), (double)cosf(xf),
               (double)expf(xf), (double)logf(axf), (double)powf(axf, 1.5f), (double)sqrtf(axf));
        int e; double m = frexp(x * 1000, &e);
        printf("  frexp=%.17g,%d ldexp=%.17g modf=", m, e, ldexp(x, 100));
        double ip; double fp = modf(x, &ip); printf("%.17g,%g lgamma=%.17g erf=%.17g\n", fp, ip, lgamma(ax), erf(x / 4));
    }
    printf("special: pow(0,-1)=%g pow(-8,1/3)=%g log(0)=%g log(-1) nan=%d exp(1000)=%g exp(-1000)=%g\n",
           pow(0.0, -1), pow(-8, 1.0 / 3), log(0.0), isnan(log(-1.0)), exp(1000.0), exp(-1000.0));
    printf("pi=%.17g e=%.17g\n", 4 * atan(1.0), exp(1.0));
    /* Simpson integration of sin on [0, pi] */
    int n = 100000; double h = M_PI / n, s = sin(0) + sin(M_PI);
    for (int i = 1; i < n; i++) s += (i & 1 ? 4 : 2) * sin(i * h);
    printf("simpson=%.17g\n", s * h / 3);
    /* Newton sqrt */
    for (double v = 2; v < 1e6; v *= 7.3) {
        double g = v;
        for (int k = 0; k < 40; k++) g = 0.5 * (g + v / g);
        printf("newton sqrt(%.17g)=%.17g libm=%.17g\n", v, g, sqrt(v));
    }
    /* matrix product */
    static double A[16][16], B[16][16], C[16][16];
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) { A[i][j] = sin(i + 2 * j); B[i][j] = cos(3 * i - j) / (1 + i + j); }
    for (int i = 0; i < 16; i++)
        for (int j = 0; j < 16; j++) {
            double acc = 0;
            for (int k = 0; k < 16; k++) acc += A[i][k] * B[k][j];
            C[i][j] = acc;
        }
    double tr = 0, sum = 0;
    for (int i = 0; i < 16; i++) { tr += C[i][i]; for (int j = 0; j < 16; j++) sum += C[i][j] * (i - j); }
    printf("matrix trace=%.17g weighted=%.17g\n", tr, sum);
    /* Mandelbrot escape counts on a coarse grid */
    for (int y = -10; y <= 10; y++) {
        for (int x = -30; x <= 10; x++) {
            double cr = x / 15.0, ci = y / 10.0, zr = 0, zi = 0; int it = 0;
            while (it < 200 && zr * zr + zi * zi < 4) { double t = zr * zr - zi * zi + cr; zi = 2 * zr * zi + ci; zr = t; it++; }
            putchar(" .:-=+*#%@"[it % 10]);
        }
        putchar('\n');
    }
    float fs = 0; for (int i = 1; i < 2000; i++) fs += sinf((float)i) / (float)i;
    printf("float series=%.9g\n", (double)fs);
    return 0;
}
