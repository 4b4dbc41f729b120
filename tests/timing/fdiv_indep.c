/*
 * fdiv_indep.c N - independent double-precision divides (lat.fp_div,
 * lat.fp_div_pipelined).  Loop of 12 instructions in three blocks: the
 * counter update, 8 `fdiv.d` writing 8 different registers from the same
 * two sources, two nops and the branch.  With an unpipelined divider each
 * divide waits for the one before; with a pipelined one they issue a cycle
 * apart on the one pipe that divides.
 */
#include "bench.h"

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 1000);
    __asm__ volatile(
        "li t0, 1\n\tfcvt.d.l ft0, t0\n\tli t0, 3\n\tfcvt.d.l ft1, t0\n\tmv t2, %0\n\t"
        LOOP_BEGIN
        "addi t2, t2, -1\n\tfdiv.d ft2, ft0, ft1\n\tfdiv.d ft3, ft0, ft1\n\tfdiv.d ft4, ft0, ft1\n\t"
        "fdiv.d ft5, ft0, ft1\n\tfdiv.d ft6, ft0, ft1\n\tfdiv.d ft7, ft0, ft1\n\tfdiv.d ft8, ft0, ft1\n\t"
        "fdiv.d ft9, ft0, ft1\n\tnop\n\tnop\n\tbnez t2, 1b\n\t"
        LOOP_END
        : : "r"(n) : "t0", "t2", "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7",
          "ft8", "ft9");
    return 0;
}
