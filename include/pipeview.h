/*
 * pipeview.h - pipeline views for people: a Kanata log (opened by the
 * Konata viewer), a gem5 O3PipeView trace (read by gem5's
 * util/o3-pipeview.py, and by Konata too) and a text diagram with one row
 * per instruction and one column per cycle, for teaching.  Formats, the
 * legend and the mapping of each model's stages: pipeline/README.md.
 *
 * Models report each instruction once, in program order, with the cycle it
 * entered each stage.  Kanata needs its commands in cycle order, so events
 * are buffered and written once no later instruction can produce an
 * earlier event (the caller says so with pipeview_advance).  The
 * O3PipeView trace is per instruction and written at once.
 */
#ifndef HPS_PIPEVIEW_H
#define HPS_PIPEVIEW_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define PV_MAX_STAGES 6
#define PV_DIAGRAM_CYCLES 400      /* the text diagram's widest timeline    */
#define PV_O3_TICKS_PER_CYCLE 1000 /* gem5: 1 ps ticks at 1 GHz            */

typedef struct pv_insn {
    uint64_t id, pc;                  /* id: instruction number in the run  */
    char text[64];                    /* disassembly                        */
    unsigned nstages;
    const char *const *stage_names;   /* e.g. {"F","D","X","M","W"}         */
    uint64_t stage_cycle[PV_MAX_STAGES]; /* entry cycle of each stage       */
    uint64_t retire_cycle;            /* cycle the last stage ends          */
    bool store;                       /* a store (O3PipeView's store tick)  */
    bool flushed;                     /* squashed on a wrong path at
                                         retire_cycle, having entered only
                                         its first `reached` stages         */
    unsigned reached;
} pv_insn_t;

typedef struct pv_event {
    uint64_t cycle, seq;
    char line[112];
} pv_event_t;

struct pv_model;

typedef struct pipeview {
    FILE *kanata;
    FILE *diagram;
    FILE *o3;                         /* gem5 O3PipeView trace, or NULL     */
    pv_event_t *events;
    size_t nevents, cap;
    uint64_t seq, cycle_written, retired;
    uint64_t kanata_ids;              /* Kanata file ids given so far       */
    int started;
    const char *const *model_names;   /* the stage names model was found by */
    const struct pv_model *model;
    pv_insn_t *rows;                  /* kept for the text diagram          */
    size_t nrows, rows_cap;
} pipeview_t;

/* Any of the three outputs may be NULL. */
void pipeview_init(pipeview_t *pv, FILE *kanata, FILE *diagram, FILE *o3pipeview);
void pipeview_insn(pipeview_t *pv, const pv_insn_t *in);
/* No event before `cycle` will be reported any more: write what is due. */
void pipeview_advance(pipeview_t *pv, uint64_t cycle);
/* Write everything (end of the window or of the run). */
void pipeview_finish(pipeview_t *pv);
/* The text diagram of rows, with cycle numbers and a legend for the model
 * the rows came from (the interactive shell's `pipe`).  A diagram wider
 * than PV_DIAGRAM_CYCLES is cut, with a note ending in `how_to_see_more`
 * (e.g. "use --view-from/--view-count"); NULL for a generic one. */
void pipeview_print_diagram(FILE *out, const pv_insn_t *rows, size_t n,
                            const char *how_to_see_more);

#endif /* HPS_PIPEVIEW_H */
