/*
 * pipeview.h - pipeline views for people: a Kanata log (opened by the
 * Konata viewer) and a text diagram with one row per instruction and one
 * column per cycle, for teaching.
 *
 * Models report each instruction once, with the cycle it entered each
 * stage.  Kanata needs its commands in cycle order, so events are buffered
 * and written once no later instruction can produce an earlier event (the
 * caller says so with pipeview_advance).
 */
#ifndef HPS_PIPEVIEW_H
#define HPS_PIPEVIEW_H

#include <stdint.h>
#include <stdio.h>

#define PV_MAX_STAGES 6

typedef struct pv_insn {
    uint64_t id, pc;
    char text[64];                    /* disassembly                        */
    unsigned nstages;
    const char *const *stage_names;   /* e.g. {"F","D","X","M","W"}         */
    uint64_t stage_cycle[PV_MAX_STAGES]; /* entry cycle of each stage       */
    uint64_t retire_cycle;            /* cycle the last stage ends          */
} pv_insn_t;

typedef struct pv_event {
    uint64_t cycle, seq;
    char line[112];
} pv_event_t;

typedef struct pipeview {
    FILE *kanata;
    FILE *diagram;
    pv_event_t *events;
    size_t nevents, cap;
    uint64_t seq, cycle_written, retired;
    int started;
    pv_insn_t *rows;                  /* kept for the text diagram          */
    size_t nrows, rows_cap;
} pipeview_t;

void pipeview_init(pipeview_t *pv, FILE *kanata, FILE *diagram);
void pipeview_insn(pipeview_t *pv, const pv_insn_t *in);
/* No event before `cycle` will be reported any more: write what is due. */
void pipeview_advance(pipeview_t *pv, uint64_t cycle);
/* Write everything (end of the window or of the run). */
void pipeview_finish(pipeview_t *pv);
/* The text diagram of rows (the interactive shell's `pipe`). */
void pipeview_print_diagram(FILE *out, const pv_insn_t *rows, size_t n);

#endif /* HPS_PIPEVIEW_H */
