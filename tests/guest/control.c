/*
 * control.c - differential test: control flow.  Data-dependent branches,
 * dense switch statements (jump tables), sparse switches, recursion
 * (Ackermann, Fibonacci, Towers of Hanoi, mutual recursion), function
 * pointer tables, computed goto and setjmp/longjmp across frames.
 */
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>

static int __attribute__((noinline)) dense_switch(int x)
{
    switch (x) {
    case 0: return 11;  case 1: return 23;  case 2: return -5;  case 3: return 99;
    case 4: return 7;   case 5: return 1234; case 6: return 42; case 7: return -77;
    case 8: return 8;   case 9: return 900; case 10: return 3;  case 11: return 1;
    case 12: return 64; case 13: return 13; case 14: return -14; case 15: return 150;
    default: return -1;
    }
}

static const char *__attribute__((noinline)) sparse_switch(unsigned x)
{
    switch (x) {
    case 1: return "one"; case 10: return "ten"; case 100: return "hundred";
    case 1000: return "thousand"; case 65536: return "64K"; case 0xdeadbeef: return "beef";
    default: return "other";
    }
}

static uint64_t ack(uint64_t m, uint64_t n)
{
    if (m == 0) return n + 1;
    if (n == 0) return ack(m - 1, 1);
    return ack(m - 1, ack(m, n - 1));
}
static uint64_t fib(unsigned n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }

static unsigned moves;
static unsigned long hanoi_sig;
static void hanoi(int n, int from, int to, int via)
{
    if (!n) return;
    hanoi(n - 1, from, via, to);
    moves++;
    hanoi_sig = hanoi_sig * 31 + (unsigned)(from * 3 + to);
    hanoi(n - 1, via, to, from);
}

static int is_odd(unsigned n);
static int __attribute__((noinline)) is_even(unsigned n) { return n == 0 ? 1 : is_odd(n - 1); }
static int __attribute__((noinline)) is_odd(unsigned n) { return n == 0 ? 0 : is_even(n - 1); }

static long op_add(long a, long b) { return a + b; }
static long op_sub(long a, long b) { return a - b; }
static long op_mul(long a, long b) { return a * b; }
static long op_max(long a, long b) { return a > b ? a : b; }
static long op_shl(long a, long b) { return (long)((unsigned long)a << (b & 15)); }
static long (*const optab[])(long, long) = { op_add, op_sub, op_mul, op_max, op_shl };

static int computed_goto(const unsigned char *prog)
{
    static void *labels[] = { &&l_inc, &&l_dbl, &&l_neg, &&l_end };
    int acc = 1;
    goto *labels[*prog++];
l_inc: acc++; goto *labels[*prog++];
l_dbl: acc *= 2; goto *labels[*prog++];
l_neg: acc = -acc; goto *labels[*prog++];
l_end: return acc;
}

static jmp_buf jb;
static int depth_reached;
static void __attribute__((noinline)) dive(int d)
{
    volatile char pad[64];
    pad[d % 64] = (char)d;
    depth_reached = d + pad[d % 64] * 0;
    if (d >= 50) longjmp(jb, d * 3);
    if (d > 1000) return;
    dive(d + 1);
}

int main(void)
{
    for (int i = -2; i < 18; i++) printf("dense(%d)=%d\n", i, dense_switch(i));
    unsigned sp[] = { 0, 1, 10, 100, 1000, 65536, 0xdeadbeef, 7 };
    for (unsigned i = 0; i < 8; i++) printf("sparse(%u)=%s\n", sp[i], sparse_switch(sp[i]));

    for (unsigned m = 0; m <= 3; m++)
        for (unsigned n = 0; n <= 4; n++) printf("ack(%u,%u)=%llu\n", m, n, (unsigned long long)ack(m, n));
    for (unsigned n = 0; n <= 27; n += 3) printf("fib(%u)=%llu\n", n, (unsigned long long)fib(n));
    hanoi(16, 0, 2, 1);
    printf("hanoi moves=%u sig=%lx\n", moves, hanoi_sig);
    printf("even(1001)=%d odd(1001)=%d\n", is_even(1001), is_odd(1001));

    long acc = 3;
    uint32_t s = 12345;
    for (int i = 0; i < 40; i++) {
        s = s * 1103515245u + 12345u;
        unsigned k = (s >> 16) % 5;
        acc = optab[k](acc, (long)((s >> 8) & 0xff) - 100);
        printf("op%u -> %ld\n", k, acc);
    }
    /* branch-heavy: collatz */
    unsigned long best = 0, arg = 0;
    for (unsigned long n = 1; n < 30000; n++) {
        unsigned long x = n, steps = 0;
        while (x != 1) { x = (x & 1) ? 3 * x + 1 : x / 2; steps++; }
        if (steps > best) { best = steps; arg = n; }
    }
    printf("collatz longest below 30000: n=%lu steps=%lu\n", arg, best);
    /* signed/unsigned comparisons */
    volatile long a = -1; volatile unsigned long b = 1;
    printf("cmp: %d %d %d %d\n", a < (long)b, (unsigned long)a < b, a >= 0, (long)b > a);

    const unsigned char prog[] = { 0, 1, 1, 0, 2, 1, 0, 3 };
    printf("computed goto -> %d\n", computed_goto(prog));

    int r = setjmp(jb);
    if (r == 0) {
        printf("setjmp first\n");
        dive(0);
        printf("not reached\n");
    } else {
        printf("longjmp returned %d depth %d\n", r, depth_reached);
    }
    volatile int count = 0;
    if (setjmp(jb) < 5) { count++; if (count < 5) longjmp(jb, count); }
    printf("setjmp loop count=%d\n", count);
    return 0;
}
