/*
 * alu_indep.c N - independent integer ALU operations at full width.
 * Loop of 20 instructions in five 4-instruction blocks: the counter update,
 * 18 `addi r, r, 1` on 18 different registers (each depends only on itself
 * one iteration earlier) and the branch.  Every instruction needs an
 * integer pipe, so an issue-width-limited machine issues
 * min(width, int_pipes) of each block per cycle.
 */
#include "bench.h"

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 1000);
    __asm__ volatile(
        "mv t2, %0\n\t"
        LOOP_BEGIN
        "addi t2, t2, -1\n\taddi s1, s1, 1\n\taddi s2, s2, 1\n\taddi s3, s3, 1\n\t"
        "addi s4, s4, 1\n\taddi s5, s5, 1\n\taddi s6, s6, 1\n\taddi s7, s7, 1\n\t"
        "addi s8, s8, 1\n\taddi s9, s9, 1\n\taddi s10, s10, 1\n\taddi s11, s11, 1\n\t"
        "addi a1, a1, 1\n\taddi a2, a2, 1\n\taddi a3, a3, 1\n\taddi a4, a4, 1\n\t"
        "addi a5, a5, 1\n\taddi a6, a6, 1\n\taddi a7, a7, 1\n\tbnez t2, 1b\n\t"
        LOOP_END
        : : "r"(n)
        : "t2", "s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
          "a1", "a2", "a3", "a4", "a5", "a6", "a7");
    return 0;
}
