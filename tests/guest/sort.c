/*
 * sort.c - differential test: qsort and bsearch from libc (indirect calls
 * through the comparison callback) on ints, strings and structs, checked
 * against a hand-written merge sort and insertion sort.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

static uint32_t seed = 2463534242u;
static uint32_t rnd(void) { seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5; return seed; }

static int cmp_int(const void *a, const void *b) { int x = *(const int *)a, y = *(const int *)b; return (x > y) - (x < y); }
static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

struct rec { int key; double val; char name[12]; };
static int cmp_rec(const void *a, const void *b)
{
    const struct rec *x = a, *y = b;
    if (x->key != y->key) return x->key < y->key ? -1 : 1;
    return strcmp(x->name, y->name);
}

static void merge_sort(int *a, int *tmp, int n)
{
    if (n < 2) return;
    int m = n / 2;
    merge_sort(a, tmp, m); merge_sort(a + m, tmp, n - m);
    int i = 0, j = m, k = 0;
    while (i < m && j < n) tmp[k++] = a[i] <= a[j] ? a[i++] : a[j++];
    while (i < m) tmp[k++] = a[i++];
    while (j < n) tmp[k++] = a[j++];
    memcpy(a, tmp, n * sizeof *a);
}

int main(void)
{
    enum { N = 20000 };
    static int a[N], b[N], tmp[N];
    for (int i = 0; i < N; i++) a[i] = b[i] = (int)(rnd() % 100000) - 50000;
    qsort(a, N, sizeof a[0], cmp_int);
    merge_sort(b, tmp, N);
    printf("qsort==mergesort: %d\n", memcmp(a, b, sizeof a) == 0);
    unsigned long h = 0;
    for (int i = 0; i < N; i++) h = h * 1000003 + (unsigned)a[i];
    printf("min=%d max=%d median=%d hash=%lx\n", a[0], a[N - 1], a[N / 2], h);
    int found = 0, missing = 0;
    for (int k = -50000; k < 50000; k += 37) {
        int *p = bsearch(&k, a, N, sizeof a[0], cmp_int);
        if (p) { found++; if (*p != k) printf("bsearch wrong\n"); } else missing++;
    }
    printf("bsearch found=%d missing=%d\n", found, missing);

    static char pool[500][16];
    static char *strs[500];
    for (int i = 0; i < 500; i++) {
        int len = 1 + rnd() % 10;
        for (int j = 0; j < len; j++) pool[i][j] = (char)('a' + rnd() % 6);
        pool[i][len] = 0;
        strs[i] = pool[i];
    }
    qsort(strs, 500, sizeof strs[0], cmp_str);
    for (int i = 0; i < 500; i += 25) printf("str[%d]=%s\n", i, strs[i]);
    char *key = strs[123];
    char **hit = bsearch(&key, strs, 500, sizeof strs[0], cmp_str);
    printf("bsearch str %s -> %s\n", key, hit ? *hit : "(none)");

    static struct rec r[300];
    for (int i = 0; i < 300; i++) {
        r[i].key = rnd() % 20; r[i].val = (double)rnd() / 7.0;
        snprintf(r[i].name, sizeof r[i].name, "n%u", rnd() % 1000);
    }
    qsort(r, 300, sizeof r[0], cmp_rec);
    for (int i = 0; i < 300; i += 15) printf("rec key=%d name=%s val=%.3f\n", r[i].key, r[i].name, r[i].val);

    /* insertion sort of doubles */
    double d[200];
    for (int i = 0; i < 200; i++) d[i] = (double)(int)(rnd() % 2001 - 1000) / 8.0;
    for (int i = 1; i < 200; i++) {
        double v = d[i]; int j = i - 1;
        while (j >= 0 && d[j] > v) { d[j + 1] = d[j]; j--; }
        d[j + 1] = v;
    }
    for (int i = 0; i < 200; i += 20) printf("d[%d]=%g\n", i, d[i]);
    return 0;
}
