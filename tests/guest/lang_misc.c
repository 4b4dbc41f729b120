/*
 * lang_misc.c - differential test: assorted language and runtime features.
 * Constructors/destructors, thread-local variables (tp-relative access),
 * variable-length arrays and alloca, a deep recursion using about 1 MiB of
 * stack, C99 complex arithmetic, large struct copies, unions/type punning,
 * wide-character formatting, gmtime/timegm/strftime on fixed timestamps,
 * and relative-path file access in the current (scratch) directory.
 */
#include <alloca.h>
#include <complex.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <wchar.h>

static int ctor_order[4], ctor_n;
__attribute__((constructor(101))) static void ctor_a(void) { ctor_order[ctor_n++] = 1; }
__attribute__((constructor(102))) static void ctor_b(void) { ctor_order[ctor_n++] = 2; }
__attribute__((destructor)) static void dtor(void) { printf("destructor ran\n"); }

static __thread int tls_counter = 5;
static __thread char tls_buf[32] = "tls-initial";
static __thread long tls_zero;

static long __attribute__((noinline)) deep(int n, volatile char *prev)
{
    volatile char frame[96];
    frame[0] = (char)n; frame[95] = prev ? prev[0] : 0;
    if (n == 0) return frame[0] + frame[95];
    return deep(n - 1, frame) + (frame[0] & 3);
}

static unsigned __attribute__((noinline)) vla_sum(int n)
{
    unsigned a[n];
    for (int i = 0; i < n; i++) a[i] = (unsigned)(i * i + n);
    unsigned *b = alloca(n * sizeof *b);
    memcpy(b, a, n * sizeof *b);
    unsigned s = 0;
    for (int i = 0; i < n; i++) s += b[i] ^ (unsigned)i;
    return s;
}

struct large { double d[40]; int tag; char name[100]; };
static struct large __attribute__((noinline)) make_large(int k)
{
    struct large l;
    for (int i = 0; i < 40; i++) l.d[i] = k * 0.5 + i;
    l.tag = k; snprintf(l.name, sizeof l.name, "large-%d", k);
    return l;
}

union pun { double d; uint64_t u; float f[2]; uint8_t b[8]; };

int main(void)
{
    printf("constructors: n=%d order=%d,%d\n", ctor_n, ctor_order[0], ctor_order[1]);
    printf("tls: %d [%s] %ld\n", tls_counter, tls_buf, tls_zero);
    for (int i = 0; i < 10; i++) tls_counter += i;
    strcat(tls_buf, "+more"); tls_zero--;
    printf("tls after: %d [%s] %ld\n", tls_counter, tls_buf, tls_zero);

    printf("deep recursion: %ld\n", deep(10000, NULL));
    for (int n = 1; n < 5000; n *= 3) printf("vla_sum(%d)=%u\n", n, vla_sum(n));

    struct large a = make_large(3), b;
    b = a; b.d[39] += 1; strcpy(b.name + 5, "-copy");
    printf("struct copy: %g %g %s %s %d\n", a.d[39], b.d[39], a.name, b.name, b.tag);

    union pun p = { .d = -1.5 };
    printf("pun: %016llx b0=%u b7=%u\n", (unsigned long long)p.u, p.b[0], p.b[7]);
    p.f[0] = 1.0f; p.f[1] = -2.0f;
    printf("pun floats: %016llx\n", (unsigned long long)p.u);

    double complex z = 1.0 + 2.0 * I, w = -0.5 + 0.25 * I;
    double complex prod = z * w, quot = z / w, e = cexp(z), sq = csqrt(w);
    printf("complex: prod=%.17g%+.17gi quot=%.17g%+.17gi\n", creal(prod), cimag(prod), creal(quot), cimag(quot));
    printf("complex: exp=%.17g%+.17gi sqrt=%.17g%+.17gi abs=%.17g arg=%.17g\n", creal(e), cimag(e),
           creal(sq), cimag(sq), cabs(z), carg(w));
    float complex fz = 3.0f - 4.0f * I;
    printf("complex float: abs=%.9g conj=%g%+gi\n", (double)cabsf(fz), (double)crealf(conjf(fz)), (double)cimagf(conjf(fz)));

    wchar_t wb[64];
    int wn = swprintf(wb, 64, L"%ls-%d-%05.1f", L"wide", 42, 3.14159);
    printf("swprintf n=%d len=%zu first=%lc\n", wn, wcslen(wb), (wint_t)wb[0]);
    char mb[64]; wcstombs(mb, wb, sizeof mb); printf("wcstombs=%s\n", mb);

    static const time_t stamps[] = { 0, 1234567890, 951782400 /* 2000-02-29 */, 4102444799 };
    for (unsigned i = 0; i < 4; i++) {
        struct tm tm; gmtime_r(&stamps[i], &tm);
        char buf[80]; strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S %a %j %U", &tm);
        printf("gmtime(%lld)=%s wday=%d yday=%d timegm=%lld\n", (long long)stamps[i], buf, tm.tm_wday,
               tm.tm_yday, (long long)timegm(&tm));
    }

    /* relative paths resolve against the working directory */
    FILE *f = fopen("relative.txt", "w");
    if (f) { fprintf(f, "relative file content %d\n", 7); fclose(f); }
    char line[64] = "";
    f = fopen("./relative.txt", "r");
    if (f) { fgets(line, sizeof line, f); fclose(f); }
    printf("relative read: %s", line);
    printf("access=%d unlink=%d access-after=%d\n", access("relative.txt", R_OK), unlink("relative.txt"),
           access("relative.txt", F_OK));
    return 0;
}
