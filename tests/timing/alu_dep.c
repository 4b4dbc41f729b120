/*
 * alu_dep.c N - a chain of dependent integer ALU operations.
 * Loop of 20 instructions in five 4-instruction blocks: the counter update,
 * 18 `add t0, t0, t1` each depending on the one before, and the branch.
 * The chain is 18 adds long (the loop-carried distance is 3 instructions).
 */
#include "bench.h"

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 1000);
    __asm__ volatile(
        "li t0, 0\n\tli t1, 1\n\tmv t2, %0\n\t"
        LOOP_BEGIN
        "addi t2, t2, -1\n\t" REP3("add t0, t0, t1\n\t")
        REP4("add t0, t0, t1\n\t")
        REP4("add t0, t0, t1\n\t")
        REP4("add t0, t0, t1\n\t")
        REP3("add t0, t0, t1\n\t") "bnez t2, 1b\n\t"
        LOOP_END
        : : "r"(n) : "t0", "t1", "t2");
    return 0;
}
