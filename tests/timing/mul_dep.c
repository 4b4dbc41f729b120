/*
 * mul_dep.c N - a chain of dependent integer multiplies (lat.int_mul).
 * Loop of 12 instructions in three blocks: the counter update, 8
 * `mul t0, t0, t1` each depending on the one before, two nops and the
 * branch.
 */
#include "bench.h"

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 1000);
    __asm__ volatile(
        "li t0, 3\n\tli t1, 1\n\tmv t2, %0\n\t"
        LOOP_BEGIN
        "addi t2, t2, -1\n\t" REP3("mul t0, t0, t1\n\t")
        REP4("mul t0, t0, t1\n\t")
        "mul t0, t0, t1\n\tnop\n\tnop\n\tbnez t2, 1b\n\t"
        LOOP_END
        : : "r"(n) : "t0", "t1", "t2");
    return 0;
}
