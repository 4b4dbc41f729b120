/*
 * store_stream.c N REGION - a stream of stores through a REGION-byte
 * buffer (a power of two), 64 bytes per iteration, wrapping around.  With
 * REGION larger than the L1 D-cache but inside the L2, every D-cache line
 * is a write miss served by the L2; the write buffer drains one store at a
 * time, so it fills and the stores wait for free entries.
 * Loop of 16 instructions in four blocks: 8 `sd` to consecutive double
 * words, the pointer update (add, mask, rebase), the counter update, three
 * nops and the branch.
 */
#include <stdint.h>

#include "bench.h"

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 1000);
    long region = arg_long(argc, argv, 2, 65536);
    if (region < 64 || (region & (region - 1))) return 2;
    char *base = aligned_alloc(65536, region < 65536 ? 65536 : (size_t)region);
    if (!base) return 3;
    __asm__ volatile(
        "mv t2, %0\n\tli t3, 0\n\tmv t4, %2\n\tmv t5, %1\n\tmv t6, %1\n\t"
        LOOP_BEGIN
        "sd zero, 0(t6)\n\tsd zero, 8(t6)\n\tsd zero, 16(t6)\n\tsd zero, 24(t6)\n\t"
        "sd zero, 32(t6)\n\tsd zero, 40(t6)\n\tsd zero, 48(t6)\n\tsd zero, 56(t6)\n\t"
        "addi t3, t3, 64\n\tand t3, t3, t4\n\tadd t6, t5, t3\n\taddi t2, t2, -1\n\t"
        "nop\n\tnop\n\tnop\n\tbnez t2, 1b\n\t"
        LOOP_END
        : : "r"(n), "r"(base), "r"(region - 1) : "t2", "t3", "t4", "t5", "t6", "memory");
    return 0;
}
