/*
 * wp_cache.c N MODE SET_STRIDE - the wrong path and the D-cache.  Every
 * iteration loads a line on the correct path, feeds the value through a
 * chain of 8 dependent divides into a branch that is always taken (with
 * bpred.kind=not_taken it is always mispredicted), and the fall-through --
 * the wrong path -- loads two lines, the first through a scratch word: it
 * stores the line's address there, loads it back and loads through it, so
 * the line is reached only if wrong-path loads read the wrong path's stores
 * (the speculative store overlay).  The scratch word is never written on
 * the correct path: the program exits 4 if it changed (a wrong-path store
 * that reached memory).  The two lines:
 *   MODE 0 (prefetch)  the correct path walks a 256 KiB buffer (written
 *                      first: in the L2) line by line; the wrong path loads
 *                      the next iteration's line (through the scratch
 *                      word) and this iteration's (a hit), so with
 *                      ooo.wrong_path on the correct path's load hits;
 *   MODE 1 (pollute)   the correct path loads one hot line every time; the
 *                      wrong path loads two of 16 lines SET_STRIDE bytes
 *                      apart (the D-cache's sets x line: the hot line's
 *                      set), which evict it from a two-way cache, so with
 *                      ooo.wrong_path on the hot line misses every time.
 * The setup does not depend on N (run.sh measures differences of N), and
 * every page the loop reads is present (a wrong-path load reads only
 * those).  N at most 4000.  Loop of 22 instructions: ld, add, 8 div, bnez,
 * the wrong path's sd, 3 ld, then a0 += a3, t4 = (t4 + a4) & a6,
 * a1 = a5 + t4, a2 = a1 + a7, the counter and the backward branch.
 */
#include <stdint.h>
#include <string.h>

#include "bench.h"

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 1000);
    long mode = arg_long(argc, argv, 2, 0);
    uint64_t set = (uint64_t)arg_long(argc, argv, 3, 16384);
    if (n < 1 || n > 4000 || (mode != 0 && mode != 1) || set < 64 || set % 64) return 2;
    size_t size = mode == 0 ? 4100 * 64 : 17 * set;
    size = (size + 65535) & ~(size_t)65535;
    char *base = aligned_alloc(65536, size);
    if (!base) return 3;
    if (mode == 0) {
        memset(base, 0, size);
    } else {
        for (size_t off = 0; off < size; off += 4096) base[off] = 0;   /* pages present */
        memset(base + 16 * set, 0, 64);
    }
    static volatile uint64_t scratch[8] __attribute__((aligned(64)));
    scratch[0] = (uint64_t)base;        /* a stale value: the buffer's first line */
    /* a0 the correct path's line and a3 its step; the wrong path's lines:
     * a1 = a5 + t4, a2 = a1 + a7, t4 stepping by a4 under the mask a6 */
    uint64_t b = (uint64_t)base, r[7];
    if (mode == 0) {
        uint64_t v[7] = { b, 64, 64, ~0ull, b + 64, (uint64_t)-64, b + 64 };
        memcpy(r, v, sizeof r);
    } else {
        uint64_t v[7] = { b + 16 * set, 0, 2 * set, 16 * set - 1, b, set, b };
        memcpy(r, v, sizeof r);
    }
    __asm__ volatile(
        "mv t2, %0\n\tld a0, 0(%1)\n\tld a3, 8(%1)\n\tld a4, 16(%1)\n\tld a6, 24(%1)\n\t"
        "ld a5, 32(%1)\n\tld a7, 40(%1)\n\tld a1, 48(%1)\n\tadd a2, a1, a7\n\t"
        "li t4, 0\n\tli t6, 1\n\tmv t0, %2\n\t"
        LOOP_BEGIN
        "ld t1, 0(a0)\n\tadd t5, t1, t6\n\t"
        REP4("div t5, t5, t6\n\t") REP4("div t5, t5, t6\n\t")
        "bnez t5, 2f\n\t"
        "sd a1, 0(t0)\n\tld t3, 0(t0)\n\tld t3, 0(t3)\n\tld t3, 0(a2)\n\t"
        "2:\n\tadd a0, a0, a3\n\tadd t4, t4, a4\n\tand t4, t4, a6\n\t"
        "add a1, a5, t4\n\tadd a2, a1, a7\n\t"
        "addi t2, t2, -1\n\tbnez t2, 1b\n\t"
        LOOP_END
        : : "r"(n), "r"(r), "r"(scratch)
        : "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", "a1", "a2", "a3", "a4", "a5", "a6", "a7",
          "memory");
    return scratch[0] == (uint64_t)base ? 0 : 4;
}
