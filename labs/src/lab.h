/*
 * lab.h - helpers shared by the lab programs (the .c files of labs/src).
 *
 * The labs measure a program's kernel from hps-sim's statistics: two runs
 * with different iteration counts, and the differences of their counters
 * (labs/sweep.py --delta), so that start-up and warm-up cancel.  A program
 * only says where its loop starts, in instructions since the start of the
 * run (RISC-V rdinstret), for hps-sim --view-from.
 */
#ifndef LAB_H
#define LAB_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Instructions retired before this one (RISC-V; 0 elsewhere). */
static inline uint64_t lab_insts(void)
{
#if defined(__riscv)
    uint64_t x;
    __asm__ volatile("rdinstret %0" : "=r"(x) : : "memory");
    return x;
#else
    return 0;
#endif
}

/* argv[i] as a number (decimal, or 0x hex), or def when absent. */
static inline long lab_arg(int argc, char **argv, int i, long def)
{
    return argc > i ? strtol(argv[i], NULL, 0) : def;
}

#endif
