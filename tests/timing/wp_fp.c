/*
 * wp_fp.c N - FP on the wrong path.  Every iteration the correct path
 * loads line i of a buffer, feeds it through a chain of 8 divides into a
 * branch that is always taken (with bpred.kind=not_taken always
 * mispredicted), and converts i * 64 to a double (f2).  The fall-through --
 * the wrong path -- computes the next line's offset in FP (f3 = f2 + 64.0,
 * converted back to an integer) and loads that line: it reaches a new line
 * every iteration only if wrong-path FP operations execute.  It also
 * divides 1.0 by 3.0, which raises the inexact flag; the correct path never
 * raises one, so the program exits 5 if fflags is not 0 at the end (a
 * wrong-path FP flag that reached the real cpu).  N at most 4000.
 */
#include <stdint.h>
#include <string.h>

#include "bench.h"

int main(int argc, char **argv)
{
    long n = arg_long(argc, argv, 1, 1000);
    if (n < 1 || n > 4000) return 2;
    size_t size = ((size_t)(n + 2) * 64 + 65535) & ~(size_t)65535;
    char *base = aligned_alloc(65536, size);
    if (!base) return 3;
    memset(base, 0, size);
    double step = 64.0, one = 1.0, three = 3.0;
    unsigned long flags;
    __asm__ volatile("csrw fflags, zero");
    __asm__ volatile(
        "fld f4, 0(%[step])\n\t"
        "fld f6, 0(%[one])\n\t"
        "fld f7, 0(%[three])\n\t"
        "li t6, 1\n\t"
        "mv t2, %[n]\n\t"
        "mv t3, zero\n\t"
        LOOP_BEGIN
        "add t4, %[base], t3\n\t"
        "ld t5, 0(t4)\n\t"
        "addi t5, t5, 1\n\t"
        REP4("div t5, t5, t6\n\t") REP4("div t5, t5, t6\n\t")
        "fcvt.d.l f2, t3\n\t"
        "bnez t5, 2f\n\t"
        "fadd.d f3, f2, f4\n\t"         /* the wrong path */
        "fdiv.d f5, f6, f7\n\t"
        "fcvt.l.d t0, f3\n\t"
        "add t1, %[base], t0\n\t"
        "ld t1, 0(t1)\n\t"
        "2:\n\t"
        "addi t3, t3, 64\n\t"
        "addi t2, t2, -1\n\t"
        "bnez t2, 1b\n\t"
        LOOP_END
        : : [n] "r"(n), [base] "r"(base), [step] "r"(&step), [one] "r"(&one),
            [three] "r"(&three)
        : "t0", "t1", "t2", "t3", "t4", "t5", "t6", "f2", "f3", "f4", "f5", "f6", "f7",
          "memory");
    __asm__ volatile("csrr %0, fflags" : "=r"(flags));
    return flags ? 5 : 0;
}
