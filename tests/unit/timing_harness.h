/*
 * timing_harness.h - what the timing-model unit tests share (test_timing.c,
 * test_ooo.c): a tiny assembler for the instructions they time, and a
 * runner that executes hand-assembled code from a small guest image on a
 * model preset with --set style overrides and reads back the ground-truth
 * file (head cycles, stall causes and culprits per instruction).
 * Run from the top of the tree (the presets are read from ./configs).
 */
#ifndef HPS_TEST_TIMING_HARNESS_H
#define HPS_TEST_TIMING_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rv_encode.h"
#include "timing.h"

/* ---- a tiny assembler ---------------------------------------------------------- */

enum { ZERO = 0, T0 = 5, T1 = 6, T2 = 7, A0 = 10, A1 = 11, A2 = 12, A3 = 13 };

static inline uint32_t ADD(uint32_t rd, uint32_t a, uint32_t b) { return enc_r(0, b, a, 0, rd, 0x33); }
static inline uint32_t MUL(uint32_t rd, uint32_t a, uint32_t b) { return enc_r(1, b, a, 0, rd, 0x33); }
static inline uint32_t ADDI(uint32_t rd, uint32_t a, int32_t imm) { return enc_i(imm, a, 0, rd, 0x13); }
static inline uint32_t LD(uint32_t rd, uint32_t base, int32_t off) { return enc_i(off, base, 3, rd, 0x03); }
static inline uint32_t SD(uint32_t src, uint32_t base, int32_t off) { return enc_s(off, src, base, 3, 0x23); }
static inline uint32_t BEQ(uint32_t a, uint32_t b, int32_t off) { return enc_b(off, b, a, 0); }
static inline uint32_t BNE(uint32_t a, uint32_t b, int32_t off) { return enc_b(off, b, a, 1); }
#define FENCE 0x0ff0000fu       /* fence iorw, iorw */
/* FP double ops on f registers: funct7 0x01 add, 0x09 mul, 0x0d div */
static inline uint32_t FOP(uint32_t f7, uint32_t rd, uint32_t a, uint32_t b)
{
    return enc_r(f7, b, a, 7, rd, 0x53);
}
#define NOP ADDI(ZERO, ZERO, 0)
#define FADD(d, a, b) FOP(0x01, d, a, b)
#define FMUL(d, a, b) FOP(0x09, d, a, b)
#define FDIV(d, a, b) FOP(0x0d, d, a, b)

/* ---- running a program --------------------------------------------------------- */

#define CODE 0x1000u            /* code page; one 4KiB I-cache line (see run) */
#define DATA 0x10000u           /* data page, A0 points here                   */
#define MAXN 256

typedef struct result {
    uint64_t cycles;
    uint64_t head[MAXN];        /* head cycles of the instruction at CODE + 4k */
    uint64_t count[MAXN];       /* its executions                              */
    uint64_t stall[MAXN][STALL_COUNT];
    uint64_t profiler[MAXN];    /* the profiler's stall cycles (truth v2)     */
    uint64_t culprit[MAXN];     /* 0 = none                                    */
    uint64_t head_sum;
    char stats[16384];          /* the model's statistics, name value lines    */
} result_t;

/* Run n instructions of the program code[len] placed at CODE on `model`
 * (a preset) with the overrides in sets (NULL-terminated).  Instruction
 * fetch is made simple (4KiB I-cache lines, no I-TLB penalty), so only the
 * first instruction waits for the I-cache.  With HPS_TEST_DIAGRAM set in the
 * environment, every run prints its text pipeline diagram to stderr. */
void run_code(const char *model, const char *const *sets, const uint32_t *code, size_t len,
              size_t n, result_t *r);

/* The same with performance counters (attached to the run); n counts
 * program instructions (the interrupt handler's are not counted).  The
 * pmu's statistics are added to r->stats. */
struct pmu;
void run_code_pmu(const char *model, const char *const *sets, const uint32_t *code, size_t len,
                  size_t n, struct pmu *pmu, result_t *r);

/* How run_code keeps the per-pc truth: in the flat store over [flat_lo,
 * flat_hi) when flat_hi > flat_lo (timing_set_code), and the heads only
 * when heads_only (DCPI's way: timing_keep_heads, read back with
 * timing_for_each_head; no stalls or culprits), else the ground-truth
 * file.  Zero (the file, no flat store) unless a test sets it. */
typedef struct harness_truth {
    uint64_t flat_lo, flat_hi;
    bool heads_only;
} harness_truth_t;
extern harness_truth_t harness_truth;

#define run(model, sets, code, n, r) \
    run_code(model, sets, code, sizeof code / sizeof code[0], n, r)

/* A statistic of the last run (result_t.stats), or ~0 if absent. */
uint64_t result_stat(const result_t *r, const char *name);

/* Warm-up prefix: four nops (one ev5 fetch block), a load that brings the
 * data into the D-cache (and the L2), an add that waits for it, so that
 * everything after issues once the fill is done, and nops up to index 8
 * (a new block).  Tests put their code from index 8. */
#define WARM NOP, NOP, NOP, NOP, LD(A3, A0, 0), ADD(A3, A3, A3), NOP, NOP
enum { AT = 8 };

extern const char *const none[];

#endif /* HPS_TEST_TIMING_HARNESS_H */
