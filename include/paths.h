/*
 * paths.h - the exact Ball-Larus path profile of a run (PP, PLDI'97):
 * an observer of the program's instruction stream that keeps, per
 * procedure, the count of every acyclic path executed (back edges cut: a
 * back edge ends a path and starts one at the loop head) and the metrics
 * accumulated along it -- instructions, and with a timing model cycles and
 * L1 data-cache misses (PP's flow-sensitive metrics).
 *
 * Procedures are the symbol table's functions; their CFGs come from
 * dcpi/cfg.c on the code as mapped in the guest, numbered by pathnum.h,
 * built the first time a procedure runs.  Every procedure activation has a
 * frame (a path register, the block it is in) on a stack keyed by the
 * stack pointer at its entry: a call pauses the caller's path (the
 * callee's instructions and cycles are not the caller's path's, as in PP,
 * which saves the counters at entry and restores them at exit) and the
 * return resumes it.  Control that arrives where no frame expects it (a
 * signal handler, sigreturn, longjmp, a jump into the middle of a
 * procedure) is matched to frames by pc and stack pointer: frames the
 * stack pointer has left are dropped and the paths they were on are
 * counted as lost, never as paths; a frame re-entered mid-path is
 * "unsynced" until its next back edge (which starts a numbered path) and
 * its unfinished path is lost.  Paths still open when the run ends
 * (exit() from inside calls) are counted as unfinished.
 *
 * Indirect jumps that are not returns (switches): the jump ends the path
 * (its block's edge to EXIT) and the landing starts one (pathnum.h).
 * Landings are found before numbering: every address that a 32-bit word of
 * the program's read-only data names, read as an absolute address, as an
 * offset from the word's table (RISC-V gcc's jump tables) or from the
 * global pointer _gp (Alpha's .gprel32), becomes a block leader with an
 * ENTRY edge.  Extra candidates only add path numbers; a landing that is
 * none of them makes the frame unsynced (lost, counted).  Alpha's calls
 * that share the gp enter 8 bytes in, past the ldah/lda gp prologue: that
 * address is a leader with an ENTRY edge too, so such a call starts a
 * numbered path.  An activation entered anywhere else but at the entry
 * or such a block is unsynced until its next back edge.
 */
#ifndef HPS_PATHS_H
#define HPS_PATHS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core.h"
#include "pathnum.h"

struct symtab;
struct cache;
typedef struct paths paths_t;

/* exe: the executable's file (its data for the landings) loaded at
 * `bias` (0 unless static-pie). */
paths_t *paths_new(const isa_t *isa, struct symtab *st, const char *exe, uint64_t bias);
void paths_free(paths_t *p);
/* Cycles and the L1 data cache to read at path boundaries (a timing model's). */
void paths_set_timing(paths_t *p, const uint64_t *cycles, const struct cache *l1d);

void paths_step_slow(paths_t *p, cpu_t *c, const insn_t *in, uint64_t pc);

/* The fast path the run loop inlines: an instruction in the middle of the
 * block the tracker expects. */
struct paths_hot { uint64_t expect, block_last; };
static inline void paths_observe(paths_t *p, cpu_t *c, const insn_t *in, uint64_t pc)
{
    struct paths_hot *h = (struct paths_hot *)p;
    if (__builtin_expect(pc == h->expect && pc != h->block_last &&
                         !(in->flags & (IF_BRANCH | IF_JUMP | IF_CALL | IF_RETURN)), 1)) {
        h->expect = c->pc;
        return;
    }
    paths_step_slow(p, c, in, pc);
}

/* The guest switched from thread `from` to thread `to` (the run loop,
 * at an instruction boundary): the path open in the thread left pauses,
 * its frames are parked, and to's resume (a new thread starts with none:
 * its first path, begun inside clone, is unsynced until a back edge or a
 * call).  Rows, the TSV (a `thread` column) and the exports (a "thread N"
 * root frame) are per thread once a run has had more than one. */
void paths_switch_thread(paths_t *p, cpu_t *c, uint64_t from, uint64_t to);
/* More than one thread ran. */
bool paths_threaded(const paths_t *p);

/* After the run: close the frames still open (unfinished paths). */
void paths_finish(paths_t *p, cpu_t *c);

/* One executed path. */
typedef struct path_row {
    const char *proc;               /* procedure name                         */
    uint64_t entry;                 /* its address                            */
    uint64_t sum;                   /* Ball-Larus path number                 */
    uint64_t length;                /* its instructions, counted statically   */
    uint64_t count, insts, cycles, misses;
    uint64_t tid;                   /* the thread that ran it                 */
} path_row_t;

/* Every executed path, heaviest (instructions) first, then by procedure
 * and number; *n rows.  The caller frees the array. */
path_row_t *paths_rows(const paths_t *p, size_t *n);
/* The TSV's cycles and misses are 0 without a timing model (untimed). */
/* The blocks of a row's path as "0xA-0xB 0xC-0xD" (first and last
 * instruction addresses), with "^" before a path that starts at a loop
 * head or landing and "$" after one that ends at a back edge. */
void paths_describe(const paths_t *p, const path_row_t *r, char *buf, size_t len);

/* Totals: program instructions on paths, lost and unfinished paths. */
typedef struct paths_totals {
    uint64_t paths, distinct, insts, lost, lost_insts, unfinished, procs, procs_unnumbered;
    bool timed;
} paths_totals_t;
void paths_totals(const paths_t *p, paths_totals_t *t);

/* The report (hottest paths per procedure, `top` of them for the `top`
 * hottest procedures) and the TSV (every path). exe for source lines. */
void paths_report(const paths_t *p, FILE *out, const char *exe, size_t top);
void paths_write_tsv(const paths_t *p, FILE *out);

/* The paths through the exporter (export.h) to file: a stack
 * procedure -> "procedure path N" per path, events insts (folded stacks'
 * value), paths (executions; also callgrind's call counts), cycles and
 * l1d_misses.  format: callgrind, pprof or folded.  false + err. */
bool paths_export(const paths_t *p, const char *format, const char *file, const char *exe,
                  char *err, size_t errlen);

/* For tools/hps-pp-acf.c: procedures read from the executable's file (a
 * static program: link-time addresses), numbered exactly as the recorder
 * numbers them; the CFG and numbering of the procedure at entry, false
 * when it has none (no code, more than 2^62 paths). */
paths_t *paths_new_file(const isa_t *isa, struct symtab *st, const char *exe);
bool paths_procedure(paths_t *p, uint64_t entry, const cfg_t **g, const bl_number_t **bl);

/* PP on DISE (tools/hps-pp-acf.c): the (procedure entry, path number) ->
 * samples the ACF's PathCount_handler delivered; the TSV gets a `dise`
 * column and the report a section scoring them against the exact paths. */
struct profile;
void paths_set_dise(paths_t *p, const struct profile *samples);
/* hps-pp-acf --metrics: the cycles and L1D misses the guest read on each
 * (procedure, path); the TSV gets dise_cycles and dise_misses columns and
 * the report their totals and overlap against this run's exact metrics. */
void paths_set_dise_metrics(paths_t *p, const struct profile *cycles, const struct profile *misses);
typedef struct paths_dise_score {
    uint64_t samples, distinct;     /* samples of numbered paths, their paths */
    uint64_t lost;                  /* samples of no path (poisoned register) */
    uint64_t equal;                 /* exact paths whose sample count equals it */
    uint64_t exact_total, exact_distinct;
    double accuracy;                /* profile_accuracy at 90%, renormalised  */
} paths_dise_score_t;
bool paths_dise_score(const paths_t *p, paths_dise_score_t *sc);
void paths_report_dise(const paths_t *p, FILE *out);

#endif /* HPS_PATHS_H */
