/*
 * memdep.c N ALIAS - a store whose address resolves late and a load whose
 * address is known early, for the memory-dependence policies (ooo.memdep).
 * Loop of 5 instructions:
 *     mul  t0, t0, t4     t0 = A: the store's address, a multiply late
 *     sd   t5, 0(t0)      stores 1 to A
 *     ld   t4, 0(t6)      loads 1 from A (ALIAS = 1) or from A + 8 (ALIAS = 0)
 *     addi t2, t2, -1
 *     bnez t2, 1b
 * The loaded 1 feeds the next multiply, so the load is on the loop's
 * recurrence with the multiply.  With ALIAS = 1 the load depends on the
 * store through memory; with ALIAS = 0 it does not, but only an oracle (or
 * a predictor) knows that before the store has its address.  N = 0 runs
 * no iteration (the baseline for counting the loop's violations).
 */
#include <stdint.h>

#include "bench.h"

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 1000);
    long alias = arg_long(argc, argv, 2, 1);
    if (n < 0 || (alias != 0 && alias != 1)) return 2;
    uint64_t *a = aligned_alloc(64, 64);
    if (!a) return 3;
    a[0] = 1;
    a[1] = 1;
    if (n == 0) return 0;
    __asm__ volatile(
        "mv t2, %0\n\tli t4, 1\n\tli t5, 1\n\tmv t0, %1\n\tmv t6, %2\n\t"
        LOOP_BEGIN
        "mul t0, t0, t4\n\tsd t5, 0(t0)\n\tld t4, 0(t6)\n\t"
        "addi t2, t2, -1\n\tbnez t2, 1b\n\t"
        LOOP_END
        : : "r"(n), "r"(a), "r"(alias ? a : a + 1) : "t0", "t2", "t4", "t5", "t6", "memory");
    return 0;
}
