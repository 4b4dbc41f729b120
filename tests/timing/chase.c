/*
 * chase.c N STRIDE NODES - a pointer chase: NODES 8-byte pointers STRIDE
 * bytes apart form one cycle (node k points to node k+1, the last to the
 * first); the loop follows it with 8 dependent loads per iteration.
 * Sized by run.sh to hit in the L1 D-cache (NODES = 1), the L2, or memory;
 * with STRIDE a little over a page it misses the D-TLB on every load.
 * Loop of 12 instructions in three blocks: the counter update, 8
 * `ld t0, 0(t0)`, two nops and the branch.
 */
#include <stdint.h>

#include "bench.h"

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 1000);
    long stride = arg_long(argc, argv, 2, 64);
    long nodes = arg_long(argc, argv, 3, 1);
    if (stride < 8 || stride % 8 || nodes < 1) return 2;
    size_t size = ((size_t)(stride * nodes) + 65535) & ~(size_t)65535;
    char *base = aligned_alloc(65536, size);
    if (!base) return 3;
    for (long k = 0; k < nodes; k++)
        *(char **)(base + k * stride) = base + ((k + 1) % nodes) * stride;
    __asm__ volatile(
        "mv t0, %1\n\tmv t2, %0\n\t"
        LOOP_BEGIN
        "addi t2, t2, -1\n\t" REP3("ld t0, 0(t0)\n\t")
        REP4("ld t0, 0(t0)\n\t")
        "ld t0, 0(t0)\n\tnop\n\tnop\n\tbnez t2, 1b\n\t"
        LOOP_END
        : : "r"(n), "r"(base) : "t0", "t2", "memory");
    return 0;
}
