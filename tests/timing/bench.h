/*
 * bench.h - helpers shared by the timing micro-benchmarks (the .c files in tests/timing/).
 * Each benchmark runs one hand-written RV64 loop N times (argv[1]); the loop
 * is written without compressed instructions and starts on a 16-byte
 * boundary so that its 4-instruction fetch blocks (the ev5 model's issue
 * groups) are known.  tests/timing/run.sh derives the expected cycles per
 * iteration from the configuration and checks the simulated ones.
 */
#ifndef TIMING_BENCH_H
#define TIMING_BENCH_H

#include <stdlib.h>

#define REP2(x) x x
#define REP3(x) x x x
#define REP4(x) REP2(x) REP2(x)

/* Start and end of a loop labelled 1: (no RVC, 16-byte aligned). */
#define LOOP_BEGIN ".option push\n\t.option norvc\n\t.balign 16\n1:\n\t"
#define LOOP_END   ".option pop\n\t"

/* argv[i] as a number (decimal or 0x hex), or def when absent. */
static inline long arg_long(int argc, char **argv, int i, long def)
{
    return argc > i ? strtol(argv[i], NULL, 0) : def;
}

#endif
