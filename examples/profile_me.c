/*
 * profile_me.c - the program README.md's walkthrough profiles: two hot
 * functions of different kinds (a recursive one that calls a lot, a
 * loop nest that calls nothing) and a cold one, so the hot-method,
 * call-pair and cycle profiles each have something to find.
 */
#include <stdio.h>

#define N 600

static unsigned long fib(int n)
{
    return n < 2 ? (unsigned long)n : fib(n - 1) + fib(n - 2);
}

static void bubble_sort(int *a, int n)
{
    for (int i = 0; i < n; i++)
        for (int j = 0; j + 1 < n - i; j++)
            if (a[j] > a[j + 1]) {
                int t = a[j];
                a[j] = a[j + 1];
                a[j + 1] = t;
            }
}

static long checksum(const int *a, int n)
{
    long sum = 0;
    for (int i = 0; i < n; i++) sum = sum * 31 + a[i];
    return sum;
}

int main(void)
{
    static int a[N];
    for (int i = 0; i < N; i++) a[i] = (i * 7919) % 1000;
    bubble_sort(a, N);
    printf("fib(24) = %lu, sorted %d..%d, checksum %ld\n", fib(24), a[0], a[N - 1],
           checksum(a, N));
    return 0;
}
