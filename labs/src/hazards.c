/*
 * hazards.c KERNEL [N] - data hazards on a pipeline (lab 1).
 *
 * Runs one small hand-written RV64 loop N times (default 20000).
 * Every loop starts with the counter update `addi t2, t2, -1` and ends with
 * `bnez t2, 1b`; in between:
 *   indep     8 independent adds                 (no hazard)
 *   raw1      8 adds, each using the one before  (RAW at distance 1)
 *   raw2      two interleaved chains of 4 adds   (RAW at distance 2)
 *   loaduse   4 x (load; add using it)           (load-use at distance 1)
 *   loadsched the same 8 instructions, the 4 loads first (scheduled)
 *   muldep    4 multiplies, each using the one before
 *   mulindep  4 independent multiplies
 * The loops are written without compressed instructions and start on a
 * 16-byte boundary.  The program prints the loop's length and where its
 * third iteration starts, in instructions since the start of the run: the
 * window of hps-sim --pipe-diagram that shows two iterations in steady state.
 */
#include "lab.h"

#define REP2(x) x x
#define REP4(x) REP2(x) REP2(x)
#define REP8(x) REP4(x) REP4(x)

/* The loop: .balign 16, then rdinstret (instruction k), two moves and a nop,
 * so the loop's first instruction is k + 4. */
#define LOOP(body)                                                       \
    ".option push\n\t.option norvc\n\t.balign 16\n\t"                    \
    "rdinstret %0\n\tmv t2, %1\n\tmv a0, %2\n\tnop\n"                    \
    "1:\n\taddi t2, t2, -1\n\t" body "bnez t2, 1b\n\t.option pop\n\t"
#define KERNEL(name, len, body)                                           \
    static uint64_t k_##name(long n, long *data)                         \
    {                                                                    \
        uint64_t k;                                                      \
        __asm__ volatile(LOOP(body) : "=&r"(k) : "r"(n), "r"(data)       \
                         : "t0", "t1", "t2", "t3", "t4", "t5", "t6", "a0", \
                           "a1", "a2", "a3", "a4", "a5", "a6", "memory");  \
        return k + 4;                                                    \
    }                                                                    \
    enum { len_##name = (len) };

KERNEL(indep, 10,
       "add a1, a1, a6\n\tadd a2, a2, a6\n\tadd a3, a3, a6\n\tadd a4, a4, a6\n\t"
       "add a5, a5, a6\n\tadd t3, t3, a6\n\tadd t4, t4, a6\n\tadd t5, t5, a6\n\t")
KERNEL(raw1, 10, REP8("add t0, t0, t1\n\t"))
KERNEL(raw2, 10, REP4("add t0, t0, t1\n\tadd t3, t3, t1\n\t"))
KERNEL(loaduse, 10,
       "ld t0, 0(a0)\n\tadd t1, t1, t0\n\tld t3, 8(a0)\n\tadd t1, t1, t3\n\t"
       "ld t4, 16(a0)\n\tadd t1, t1, t4\n\tld t5, 24(a0)\n\tadd t1, t1, t5\n\t")
KERNEL(loadsched, 10,
       "ld t0, 0(a0)\n\tld t3, 8(a0)\n\tld t4, 16(a0)\n\tld t5, 24(a0)\n\t"
       "add t1, t1, t0\n\tadd t1, t1, t3\n\tadd t1, t1, t4\n\tadd t1, t1, t5\n\t")
KERNEL(muldep, 6, REP4("mul t0, t0, t1\n\t"))
KERNEL(mulindep, 6, "mul t0, t0, t1\n\tmul t3, t3, t1\n\tmul t4, t4, t1\n\tmul t5, t5, t1\n\t")

int main(int argc, char **argv)
{
    static const struct { const char *name; uint64_t (*fn)(long, long *); int len; } kernels[] = {
        { "indep", k_indep, len_indep },         { "raw1", k_raw1, len_raw1 },
        { "raw2", k_raw2, len_raw2 },            { "loaduse", k_loaduse, len_loaduse },
        { "loadsched", k_loadsched, len_loadsched }, { "muldep", k_muldep, len_muldep },
        { "mulindep", k_mulindep, len_mulindep },
    };
    static long data[4] = { 1, 2, 3, 4 };
    const char *which = argc > 1 ? argv[1] : "";
    long n = lab_arg(argc, argv, 2, 20000);
    if (n < 3) n = 3;
    for (size_t i = 0; i < sizeof kernels / sizeof kernels[0]; i++) {
        if (strcmp(which, kernels[i].name) != 0) continue;
        uint64_t first = kernels[i].fn(n, data);
        printf("%s: %ld iterations; loop of %d instructions; third iteration: --view-from %llu --view-count %d\n",
               which, n, kernels[i].len, (unsigned long long)(first + 2 * kernels[i].len), 2 * kernels[i].len);
        return 0;
    }
    fprintf(stderr, "usage: hazards indep|raw1|raw2|loaduse|loadsched|muldep|mulindep [N]\n");
    return 2;
}
