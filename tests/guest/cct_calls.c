/* cct_calls.c - a program with a known call structure for the calling
 * context tree tests (tests/cct/run.sh): recursion, mutual recursion, calls
 * through function pointers, a tail call, setjmp/longjmp out of a deep
 * stack, and exit from deep inside.  The counts in tests/cct/run.sh follow
 * from the constants here; noinline keeps every call a real call at -O2. */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>

#define NOINLINE __attribute__((noinline))

static volatile unsigned long sink;
static jmp_buf env;

NOINLINE static unsigned long work(unsigned long n)
{
    unsigned long s = 0;
    for (unsigned long i = 0; i < n; i++) s += i * i ^ sink;
    return s;
}

NOINLINE static unsigned long fact(unsigned long n)        /* recursion: depth n */
{
    if (n <= 1) return work(50);
    return n * fact(n - 1) + (sink & 1);
}

NOINLINE static unsigned long is_odd(unsigned long n);
NOINLINE static unsigned long is_even(unsigned long n)      /* mutual recursion */
{
    if (n == 0) return 1 + (sink & 2);
    return is_odd(n - 1) + (sink & 4);
}
NOINLINE static unsigned long is_odd(unsigned long n)
{
    if (n == 0) return sink & 8;
    return is_even(n - 1) + (sink & 16);
}

NOINLINE static unsigned long square(unsigned long x) { return work(200) + x * x; }
NOINLINE static unsigned long cube(unsigned long x) { return work(400) + x * x * x; }

NOINLINE static unsigned long apply(unsigned long (*f)(unsigned long), unsigned long x)
{
    return f(x) + (sink & 32);                               /* indirect call */
}

NOINLINE static unsigned long tail_target(unsigned long x) { return work(300) + x; }

NOINLINE static unsigned long tail_caller(unsigned long x)
{
    sink += x;
    return tail_target(x + 1);                               /* a tail call at -O2 */
}

NOINLINE static void deep_jump(int depth)
{
    if (depth < 0) return;
    if (depth == 0) longjmp(env, 1);
    work(20);
    deep_jump(depth - 1);
    sink++;                                                  /* not a tail call */
}

NOINLINE static void deep_exit(int depth)
{
    if (depth < 0) return;
    if (depth == 0) {
        fflush(stdout);
        exit(0);
    }
    deep_exit(depth - 1);
    sink++;
}

int main(void)
{
    unsigned long total = 0;
    for (int i = 0; i < 20; i++) total += fact(10);
    for (int i = 0; i < 10; i++) total += is_even(24);
    unsigned long (*fs[2])(unsigned long) = { square, cube };
    for (int i = 0; i < 30; i++) total += apply(fs[i % 3 == 0], (unsigned long)i);
    for (int i = 0; i < 25; i++) total += tail_caller((unsigned long)i);
    for (int i = 0; i < 5; i++)
        if (setjmp(env) == 0) deep_jump(8);
    printf("total %lu\n", total);
    deep_exit(6);
    return 1;
}
