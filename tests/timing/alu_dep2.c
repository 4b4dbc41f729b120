/*
 * alu_dep2.c N - two interleaved chains of dependent integer ALU
 * operations, so each add depends on the one two instructions before it.
 * Loop of 20 instructions: the counter update, 18 adds alternating between
 * `add t0, t0, t1` and `add t3, t3, t1`, and the branch.  Full forwarding
 * hides distance-2 dependences; with EX/MEM -> EX forwarding alone they
 * reach EX while the producer is in WB, with no path until the register
 * file has the value.
 */
#include "bench.h"

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 1000);
    __asm__ volatile(
        "li t0, 0\n\tli t1, 1\n\tli t3, 0\n\tmv t2, %0\n\t"
        LOOP_BEGIN
        "addi t2, t2, -1\n\t"
        REP3("add t0, t0, t1\n\tadd t3, t3, t1\n\t")
        REP3("add t0, t0, t1\n\tadd t3, t3, t1\n\t")
        REP3("add t0, t0, t1\n\tadd t3, t3, t1\n\t")
        "bnez t2, 1b\n\t"
        LOOP_END
        : : "r"(n) : "t0", "t1", "t2", "t3");
    return 0;
}
