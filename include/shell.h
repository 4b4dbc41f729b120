/*
 * shell.h - the interactive teaching shell (hps-sim --interactive, -d):
 * step a program instruction by instruction on the functional core or a
 * timing model, look at registers, memory and the pipeline, set
 * breakpoints, and step backwards (the simulator is deterministic, so
 * "back N" replays the run to N instructions earlier: from the nearest
 * in-memory checkpoint when the host keeps them, else from the start).
 * Spike's debug-mode conventions: Enter steps; reg, freg, pc, insn,
 * mem ADDR, until pc ADDR, until reg/mem CONDITION, run N, q; watchpoints;
 * views of the caches, TLBs and branch predictor of a timing model and of
 * the DISE tables and counters of a run with an ACF.  Commands come from a
 * readline prompt on a terminal (Tab completes commands, registers and
 * symbols), or one per line from a pipe (scripts, tests); the guest's own
 * stdin is /dev/null.  `help` lists everything.
 */
#ifndef HPS_SHELL_H
#define HPS_SHELL_H

#include <stdio.h>

#include "core.h"

struct timing;
struct engine;
struct disasm;
struct symtab;
struct dise;

/* What the shell drives: the run's engine (engine.h), which it advances
 * to absolute instruction counts.  restart rebuilds the process from the
 * start (for "back") with the same program, arguments, environment (the
 * one captured when hps-sim started, never re-read), seed and input, and
 * sets the new cpu, timing model, DISE engine and run engine in *t;
 * output turns the guest's own output on or off; report describes how the
 * run stopped (a fault's pc, symbol and disassembly on stderr) and returns
 * hps-sim's exit status. */
typedef struct shell_target {
    cpu_t *cpu;
    struct timing *timing;              /* NULL: the functional core */
    struct dise *dise;                  /* NULL: no ACF              */
    struct engine *engine;
    struct disasm *disasm;
    const struct symtab *symtab;
    void (*restart)(void *ctx, struct shell_target *t);
    void (*output)(void *ctx, bool on);
    int (*report)(void *ctx, const cpu_t *cpu);
    void *ctx;
    uint64_t max_insts;                 /* --max-insts: no command runs past
                                           it (0: no limit), as a batch run */
    /* In-memory checkpoints (NULL: none): the shell calls keep(ctx, t)
     * each time the run reaches a multiple of keep_every program
     * instructions (the host saves the guest if it can, within its memory
     * bound); rewind(ctx, t, to) restores the nearest one at or before
     * instruction `to` into *t as restart does and returns its instruction
     * count, or UINT64_MAX when there is none (the shell restarts). */
    void (*keep)(void *ctx, struct shell_target *t);
    uint64_t (*rewind)(void *ctx, struct shell_target *t, uint64_t to);
    uint64_t keep_every;
} shell_target_t;

/* Run the command loop until `quit` or end of input.  Returns the exit
 * status hps-sim should end with (the guest's, if it finished). */
int shell_run(shell_target_t *t, FILE *in, FILE *out);

#endif /* HPS_SHELL_H */
