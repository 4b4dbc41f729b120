/* scripts.c - generates the bigint_interp workload scripts as program text:
 * factorials, Fibonacci identities, RSA key generation and encryption,
 * polynomial expansion, Machin's pi, a prime sieve and memoised Collatz.
 * Parameters come from the size class; literals come from a fixed-seed PRNG. */
#include "interp.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct sbuf {
    char *s;
    size_t len, cap;
} sbuf;

uint64_t rng_next(uint64_t *s)
{
    /* splitmix64 */
    uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static void sb_printf(sbuf *b, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = b->cap - b->len;
        va_start(ap, fmt);
        int n = vsnprintf(b->s + b->len, room, fmt, ap);
        va_end(ap);
        if ((size_t)n < room) {
            b->len += (size_t)n;
            return;
        }
        b->cap = b->cap * 2 + (size_t)n + 64;
        b->s = realloc(b->s, b->cap);
    }
}

/* Append a random decimal literal with the given number of digits. */
static void sb_random_literal(sbuf *b, int digits, uint64_t *seed)
{
    char tmp[2];
    tmp[1] = 0;
    tmp[0] = (char)('1' + rng_next(seed) % 9);
    sb_printf(b, "%s", tmp);
    for (int i = 1; i < digits; i++) {
        tmp[0] = (char)('0' + rng_next(seed) % 10);
        sb_printf(b, "%s", tmp);
    }
}

static void gen_factorial(sbuf *b, const wl_params *p, uint64_t *seed)
{
    sb_printf(b,
        "def fact(n) { r = 1; i = 2; while (i <= n) { r = r * i; i = i + 1; } return r; }\n"
        "def prodrange(lo, hi) {\n"
        "  if (hi - lo < 8) { r = 1; while (lo <= hi) { r = r * lo; lo = lo + 1; } return r; }\n"
        "  mid = (lo + hi) / 2;\n"
        "  return prodrange(lo, mid) * prodrange(mid + 1, hi);\n"
        "}\n"
        "def binom(n, k) { return prodrange(n - k + 1, n) / prodrange(1, k); }\n"
        "n = %d;\n"
        "a = fact(n); b = prodrange(1, n);\n"
        "assert a == b;\n"
        "assert a / fact(n - 1) == n;\n"
        "assert a %% fact(n / 2) == 0;\n"
        "print digitsum(a); print ndigits(a); print bits(a);\n"
        "k = 1; s = 0;\n"
        "while (k < n) { s = s + binom(n, k) %% 1000003; k = k + %d; }\n"
        "print s;\n"
        "assert binom(n, n / 3) == binom(n, n - n / 3);\n",
        p->fact_n, p->fact_n / 9 + 1);
}

static void gen_fibonacci(sbuf *b, const wl_params *p, uint64_t *seed)
{
    int m = p->fib_n / 3 + (int)(rng_next(seed) % 17);
    sb_printf(b,
        "def fibit(n) { a = 0; b = 1; i = 0; while (i < n) { t = a + b; a = b; b = t; i = i + 1; } return a; }\n"
        "def fibfd(n) {\n"
        "  r = array(2);\n"
        "  if (n == 0) { r[0] = 0; r[1] = 1; return r; }\n"
        "  h = fibfd(n / 2); a = h[0]; b = h[1];\n"
        "  c = a * (2 * b - a); d = a * a + b * b;\n"
        "  if (n %% 2 == 0) { r[0] = c; r[1] = d; } else { r[0] = d; r[1] = c + d; }\n"
        "  return r;\n"
        "}\n"
        "def fib(n) { return fibfd(n)[0]; }\n"
        "def fibmemo(n) {\n"
        "  if (n < 2) { return n; }\n"
        "  if (has(n)) { return get(n); }\n"
        "  v = fibmemo(n - 1) + fibmemo(n - 2); put(n, v); return v;\n"
        "}\n"
        "n = %d; m = %d;\n"
        "x = fibit(n);\n"
        "assert x == fib(n);\n"
        "assert gcd(fib(n), fib(m)) == fib(gcd(n, m));\n"
        "sgn = 1; if (n %% 2 == 1) { sgn = -1; }\n"
        "assert fib(n - 1) * fib(n + 1) - x * x == sgn;\n"
        "print x %% 1000000007; print ndigits(x);\n"
        "clear();\n"
        "assert fibmemo(%d) == fib(%d);\n"
        "k = 10; acc = 0;\n"
        "while (k < n) { acc = acc + fib(k) %% 999983; k = k + %d; }\n"
        "print acc;\n"
        "clear();\n",
        p->fib_n, m, p->fib_memo_n, p->fib_memo_n, p->fib_n / 40 + 1);
}

static void gen_rsa(sbuf *b, const wl_params *p, uint64_t *seed)
{
    sb_printf(b,
        "def isprime(n) {\n"
        "  if (n < 4) { return n > 1; }\n"
        "  if (n %% 2 == 0) { return 0; }\n"
        "  small = 3;\n"
        "  while (small < 200) { if (n %% small == 0) { return n == small; } small = small + 2; }\n"
        "  d = n - 1; s = 0;\n"
        "  while (d %% 2 == 0) { d = d / 2; s = s + 1; }\n"
        "  k = 0;\n"
        "  while (k < 8) {\n"
        "    a = 2 + k * 1009 %% (n - 3);\n"
        "    x = modpow(a, d, n);\n"
        "    if (x != 1 && x != n - 1) {\n"
        "      j = 1; comp = 1;\n"
        "      while (j < s && comp) { x = x * x %% n; if (x == n - 1) { comp = 0; } j = j + 1; }\n"
        "      if (comp) { return 0; }\n"
        "    }\n"
        "    k = k + 1;\n"
        "  }\n"
        "  return 1;\n"
        "}\n"
        "def nextprime(n) { if (n %% 2 == 0) { n = n + 1; } while (!isprime(n)) { n = n + 2; } return n; }\n"
        "def modinv(a, m) {\n"
        "  old_r = a; r = m; old_s = 1; s = 0;\n"
        "  while (r != 0) { q = old_r / r; t = old_r - q * r; old_r = r; r = t; t = old_s - q * s; old_s = s; s = t; }\n"
        "  if (old_s < 0) { old_s = old_s + m; }\n"
        "  return old_s;\n"
        "}\n");
    for (int key = 0; key < p->rounds; key++) {
        sb_printf(b, "p = nextprime(");
        sb_random_literal(b, p->rsa_digits, seed);
        sb_printf(b, ");\nq = nextprime(");
        sb_random_literal(b, p->rsa_digits + 3, seed);
        sb_printf(b, ");\nmsg = ");
        sb_random_literal(b, p->rsa_digits, seed);
        sb_printf(b,
            ";\nn = p * q; phi = (p - 1) * (q - 1); e = 65537;\n"
            "while (gcd(e, phi) != 1) { e = e + 2; }\n"
            "d = modinv(e, phi);\n"
            "assert e * d %% phi == 1;\n"
            "print p %% 1000000007; print q %% 1000000007;\n"
            "i = 0; h = 0;\n"
            "while (i < %d) {\n"
            "  c = modpow(msg, e, n);\n"
            "  assert modpow(c, d, n) == msg;\n"
            "  h = (h * 31 + c) %% 1000000007;\n"
            "  msg = (msg * 7919 + 17) %% n;\n"
            "  i = i + 1;\n"
            "}\n"
            "print h;\n",
            p->rsa_msgs);
    }
}

static void gen_poly(sbuf *b, const wl_params *p, uint64_t *seed)
{
    int A = 2 + (int)(rng_next(seed) % 7);
    int B = 1 + (int)(rng_next(seed) % 11);
    int X = 3 + (int)(rng_next(seed) % 5);
    sb_printf(b,
        "def polymul(a, b) {\n"
        "  r = array(len(a) + len(b) - 1);\n"
        "  i = 0;\n"
        "  while (i < len(a)) { j = 0; ai = a[i]; while (j < len(b)) { r[i + j] = r[i + j] + ai * b[j]; j = j + 1; } i = i + 1; }\n"
        "  return r;\n"
        "}\n"
        "def polyeval(p, x) { r = 0; i = len(p) - 1; while (i >= 0) { r = r * x + p[i]; i = i - 1; } return r; }\n"
        "def polypow(p, e) {\n"
        "  r = array(1); r[0] = 1;\n"
        "  while (e > 0) { if (e %% 2 == 1) { r = polymul(r, p); } e = e / 2; if (e > 0) { p = polymul(p, p); } }\n"
        "  return r;\n"
        "}\n"
        "lin = array(2); lin[0] = %d; lin[1] = %d;\n"
        "p = array(1); p[0] = 1; k = 0;\n"
        "while (k < %d) { p = polymul(p, lin); k = k + 1; }\n"
        "assert polyeval(p, 1) == pow(%d, %d);\n"
        "assert polyeval(p, %d) == pow(%d * %d + %d, %d);\n"
        "pp = polypow(lin, %d);\n"
        "i = 0; while (i < len(p)) { assert p[i] == pp[i]; i = i + 1; }\n"
        "q = polymul(p, p);\n"
        "assert polyeval(q, %d) == polyeval(p, %d) * polyeval(p, %d);\n"
        "print polyeval(q, 3) %% 1000000007;\n"
        "print digitsum(q[len(q) / 2]);\n",
        B, A, p->poly_deg, A + B, p->poly_deg, X, A, X, B, p->poly_deg, p->poly_deg, X, X, X);
}

static void gen_pi(sbuf *b, const wl_params *p, uint64_t *seed)
{
    sb_printf(b,
        "def arctan_inv(x, one) {\n"
        "  x2 = x * x; term = one / x; sum = term; n = 1; sign = -1;\n"
        "  while (term != 0) { term = term / x2; sum = sum + sign * (term / (2 * n + 1)); sign = -sign; n = n + 1; }\n"
        "  return sum;\n"
        "}\n"
        "dig = %d;\n"
        "one = pow(10, dig + 10);\n"
        "pi = 4 * (4 * arctan_inv(5, one) - arctan_inv(239, one));\n"
        "pi = pi / pow(10, 10);\n"
        "assert pi / pow(10, dig - 10) == 31415926535;\n"
        "print digitsum(pi);\n"
        "t = 2 * pow(10, 2 * dig);\n"
        "s = isqrt(t);\n"
        "assert s * s <= t && (s + 1) * (s + 1) > t;\n"
        "assert s / pow(10, dig - 10) == 14142135623;\n"
        "print digitsum(s);\n"
        "print shr(pi * s, dig) %% 1000000007;\n",
        p->pi_digits);
}

static void gen_sieve(sbuf *b, const wl_params *p, uint64_t *seed)
{
    /* The expected prime count is computed natively and embedded. */
    int n = p->sieve_n, count = 0;
    char *comp = calloc((size_t)n + 1, 1);
    for (int i = 2; i <= n; i++) {
        if (comp[i])
            continue;
        count++;
        for (long j = (long)i * i; j <= n; j += i)
            comp[j] = 1;
    }
    free(comp);
    sb_printf(b,
        "n = %d;\n"
        "c = array(n + 1);\n"
        "i = 2; count = 0; sum = 0;\n"
        "while (i <= n) {\n"
        "  if (c[i] == 0) {\n"
        "    count = count + 1; sum = sum + i;\n"
        "    j = i * i;\n"
        "    while (j <= n) { c[j] = 1; j = j + i; }\n"
        "  }\n"
        "  i = i + 1;\n"
        "}\n"
        "assert count == %d;\n"
        "print count; print sum;\n",
        n, count);
}

static void gen_collatz(sbuf *b, const wl_params *p, uint64_t *seed)
{
    sb_printf(b,
        "def steps(n) {\n"
        "  if (n == 1) { return 0; }\n"
        "  if (has(n)) { return get(n); }\n"
        "  if (n %% 2 == 0) { s = 1 + steps(n / 2); } else { s = 1 + steps(3 * n + 1); }\n"
        "  put(n, s);\n"
        "  return s;\n"
        "}\n"
        "clear();\n"
        "i = 1; best = 0; arg = 0; total = 0;\n"
        "while (i < %d) { s = steps(i); total = total + s; if (s > best) { best = s; arg = i; } i = i + 1; }\n"
        "print best; print arg; print total;\n"
        "big = pow(2, %d) + ", p->collatz_n, 40 + p->collatz_n / 50);
    sb_random_literal(b, 12, seed);
    sb_printf(b, ";\nprint steps(big);\nclear();\n");
}

typedef void (*gen_fn)(sbuf *b, const wl_params *p, uint64_t *seed);
static const struct { const char *name; gen_fn gen; } generators[] = {
    {"factorial", gen_factorial}, {"fibonacci", gen_fibonacci},
    {"rsa", gen_rsa}, {"polynomial", gen_poly}, {"pi", gen_pi},
    {"sieve", gen_sieve}, {"collatz", gen_collatz},
};

int script_count(void) { return (int)(sizeof(generators) / sizeof(generators[0])); }

const char *script_name(int which) { return generators[which].name; }

char *gen_script(int which, const wl_params *p, uint64_t *seed)
{
    sbuf b = {malloc(4096), 0, 4096};
    b.s[0] = 0;
    generators[which].gen(&b, p, seed);
    return b.s;
}
