/*
 * mispredict.c N - a two-instruction loop whose backward branch is taken
 * every iteration.  Run with bpred.kind=not_taken (run.sh does) the branch
 * is mispredicted every time, so each iteration costs the two instructions
 * plus one misprediction penalty.
 */
#include "bench.h"

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 1000);
    __asm__ volatile(
        "mv t2, %0\n\t"
        LOOP_BEGIN
        "addi t2, t2, -1\n\tbnez t2, 1b\n\t"
        LOOP_END
        : : "r"(n) : "t2");
    return 0;
}
