/*
 * branches.c PATTERN [REPS] - one data-dependent branch (lab 2).
 *
 * Fills an array of 4096 bytes according to PATTERN, then REPS times (default
 * 50) walks it, adding up the elements of at least 128:
 *
 *     for (i = 0; i < n; i++)
 *         if (a[i] >= 128) sum += a[i];       <- the branch under study
 *
 * PATTERN decides how that branch behaves:
 *   sorted    the values 0..255 in ascending order: not taken for the first
 *             half, taken for the second (one change per walk)
 *   random    the same values in random order: taken half of the time, at random
 *   alt       255, 0, 255, 0, ...: strictly alternating
 *   periodP   (P = 2..64) 255 once, then P-1 zeros, repeated: a pattern of period P
 *   always    all 255
 * The branch runs 4096 x REPS times, the loop around it as often; an
 * iteration of labs/sweep.py --delta is one walk (4096 elements).
 */
#include "lab.h"

enum { N = 4096 };

static uint32_t seed = 12345u;
static uint32_t rnd(void) { seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5; return seed; }

static long __attribute__((noinline)) kernel(const unsigned char *a, long n, long reps)
{
    long sum = 0;
    for (long r = 0; r < reps; r++)
        for (long i = 0; i < n; i++)
            if (a[i] >= 128) sum += a[i];
    return sum;
}

int main(int argc, char **argv)
{
    static unsigned char a[N];
    const char *pat = argc > 1 ? argv[1] : "random";
    long reps = lab_arg(argc, argv, 2, 50);
    int period = 0;
    if (strcmp(pat, "sorted") == 0 || strcmp(pat, "random") == 0) {
        for (int i = 0; i < N; i++) a[i] = (unsigned char)(i * 256 / N);
        if (strcmp(pat, "random") == 0)
            for (int i = N - 1; i > 0; i--) {       /* Fisher-Yates shuffle */
                int j = (int)(rnd() % (uint32_t)(i + 1));
                unsigned char t = a[i]; a[i] = a[j]; a[j] = t;
            }
    } else if (strcmp(pat, "alt") == 0) {
        period = 2;
    } else if (strncmp(pat, "period", 6) == 0) {
        period = atoi(pat + 6);
        if (period < 2 || period > 64) period = 0, pat = "";
    } else if (strcmp(pat, "always") == 0) {
        memset(a, 255, sizeof a);
    } else {
        pat = "";
    }
    if (!*pat) {
        fprintf(stderr, "usage: branches sorted|random|alt|periodP|always [REPS]\n");
        return 2;
    }
    if (period)
        for (int i = 0; i < N; i++) a[i] = i % period == 0 ? 255 : 0;
    uint64_t start = lab_insts();
    long sum = kernel(a, N, reps);
    /* the sum depends on REPS: printed with a fixed width, so that two runs
     * with different REPS execute the same instructions outside the kernel */
    printf("%s: %3ld walks of %d elements, sum %12ld\n", pat, reps, N, sum);
    printf("kernel in steady state: --view-from %llu\n", (unsigned long long)start + 1000);
    return 0;
}
