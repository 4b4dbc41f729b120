/*
 * memwalk.c MODE SIZE STRIDE N - memory access patterns (labs 3 and 4).
 *
 * A buffer of SIZE bytes (suffixes K and M: 64K, 1M) holds one 8-byte word
 * every STRIDE bytes, SIZE / STRIDE words in all; the program reads N of
 * them, going round the buffer as often as it takes:
 *   chase  a pointer chase: each word holds the address of the next one,
 *          the last the first's, so every load needs the one before it
 *          (`p = *p`: the full latency of every access, as lmbench measures it)
 *   sum    independent loads: sum += word; the next address does not depend
 *          on the data, so a machine may have several misses outstanding
 *          (SIZE must be a power of two)
 * The words are visited in address order.  With STRIDE = SIZE / K for a
 * small K, the K words fall into the same cache set (conflict misses).
 * The kernel is a loop of one load and a few ALU instructions per access;
 * one iteration of labs/sweep.py --delta is one access.
 */
#include "lab.h"

static volatile long sink;     /* the kernel's result, kept */

static long size_arg(const char *s)
{
    char *end;
    long v = strtol(s, &end, 0);
    if (*end == 'K' || *end == 'k') v <<= 10, end++;
    else if (*end == 'M' || *end == 'm') v <<= 20, end++;
    return *end ? -1 : v;
}

static void *__attribute__((noinline)) chase(void *p, long n)
{
    for (long i = 0; i < n; i++) p = *(void **)p;
    return p;
}

static long __attribute__((noinline)) sum(const char *buf, long stride, long mask, long n)
{
    long s = 0, off = 0;
    for (long i = 0; i < n; i++) {
        s += *(const long *)(buf + off);
        off = (off + stride) & mask;
    }
    return s;
}

int main(int argc, char **argv)
{
    const char *mode = argc > 1 ? argv[1] : "";
    long size = argc > 2 ? size_arg(argv[2]) : -1;
    long stride = argc > 3 ? size_arg(argv[3]) : -1;
    long n = lab_arg(argc, argv, 4, 100000);
    int is_chase = strcmp(mode, "chase") == 0, is_sum = strcmp(mode, "sum") == 0;
    if ((!is_chase && !is_sum) || size < 8 || stride < 8 || stride % 8 || size % stride || n < 1) {
        fprintf(stderr, "usage: memwalk chase|sum SIZE STRIDE N  (SIZE a multiple of STRIDE, STRIDE of 8)\n");
        return 2;
    }
    long words = size / stride;
    if (is_sum && (size & (size - 1))) {
        fprintf(stderr, "memwalk: sum needs SIZE a power of two\n");
        return 2;
    }
    char *buf = aligned_alloc(1 << 16, ((size_t)size + 0xffff) & ~(size_t)0xffff);
    if (!buf) return 3;
    for (long k = 0; k < words; k++)
        *(char **)(buf + k * stride) = buf + ((k + 1) % words) * stride;
    /* The same output whatever N, so that two runs differ only in the kernel. */
    printf("%s: %ld words %ld bytes apart\n", mode, words, stride);
    fflush(stdout);
    uint64_t start = lab_insts();
    if (is_chase)
        sink = (long)chase(buf, n);
    else
        sink = sum(buf, stride, size - 1, n);
    /* the window of --pipe-diagram a thousand instructions into the kernel */
    printf("kernel in steady state: --view-from %llu\n", (unsigned long long)start + 1000);
    return 0;
}
