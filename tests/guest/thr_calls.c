/* Threads with a known call structure, for the per-thread calling context
 * trees and path profiles (tests/threads: --cct and --paths).  Thread k
 * (k = 0..WORKERS-1, created in order) runs worker(k): leaf_a called
 * 40 * (k + 1) times, leaf_b 25 times, and rec down to depth k + 3.
 * With arguments "serial K" the main thread runs worker(K) alone, the same
 * work single-threaded, which the test compares each thread's tree with.
 * The workers touch nothing shared: their instructions do not depend on
 * the interleaving. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define WORKERS 4

static __attribute__((noinline)) long leaf_a(long x, int i)
{
    if (i & 1) return x * 3 + i;            /* two paths through leaf_a */
    return x ^ (x >> 3) ^ i;
}

static __attribute__((noinline)) long leaf_b(long x)
{
    long s = 0;
    for (int j = 0; j < 4; j++) s += (x >> j) & 7;   /* a loop: back edges */
    return s;
}

static __attribute__((noinline)) long rec(int depth, long x)
{
    if (depth == 0) return x;
    long r = rec(depth - 1, x + depth);      /* no accumulator: stays recursive */
    return (r * r + depth) & 0xffffff;
}

static __attribute__((noinline)) long worker(int k)
{
    long x = k + 1;
    for (int i = 0; i < 40 * (k + 1); i++) x = leaf_a(x, i) & 0xffffff;
    for (int i = 0; i < 25; i++) x += leaf_b(x + i);
    return x + rec(k + 3, x);
}

static long result[WORKERS];

static void *thread_main(void *arg)
{
    int k = (int)(long)arg;
    result[k] = worker(k);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc == 3 && !strcmp(argv[1], "serial")) {
        int k = atoi(argv[2]);
        if (k < 0 || k >= WORKERS) return 2;
        printf("worker %d: %ld\n", k, worker(k));
        return 0;
    }
    pthread_t t[WORKERS];
    for (int k = 0; k < WORKERS; k++)
        if (pthread_create(&t[k], NULL, thread_main, (void *)(long)k)) return 1;
    for (int k = 0; k < WORKERS; k++) pthread_join(t[k], NULL);
    for (int k = 0; k < WORKERS; k++) printf("worker %d: %ld\n", k, result[k]);
    return 0;
}
