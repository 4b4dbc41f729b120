/*
 * btb_miss.c N - two taken transfers per iteration (a jump over a nop, and
 * the loop branch) in a loop of three executed instructions.  With a
 * one-entry BTB (run.sh sets btb.entries=1) they evict each other, so each
 * is predicted taken but its target is only known at decode: a
 * decode-redirect bubble per transfer.
 */
#include "bench.h"

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 1000);
    __asm__ volatile(
        "mv t2, %0\n\t"
        LOOP_BEGIN
        "addi t2, t2, -1\n\tj 2f\n\tnop\n2:\n\tbnez t2, 1b\n\t"
        LOOP_END
        : : "r"(n) : "t2");
    return 0;
}
