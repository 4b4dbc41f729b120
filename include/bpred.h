/*
 * bpred.h - branch prediction: static not-taken, bimodal, gshare and a
 * 21264-style tournament predictor for conditional branches; a BTB for
 * targets of taken branches and indirect jumps; a return-address stack.
 *
 * The pipeline asks once per control instruction: bpred_predict() gives
 * the predicted direction and next pc, bpred_update() trains on the actual
 * outcome (with the decoded record for the instruction's kind).  Accuracy is
 * counted per kind (conditional, indirect jump, call, return).
 *
 * bpred_predict() changes no predictor state: every table, history, BTB and
 * return-stack update happens in bpred_update(), which the functional-first
 * pipeline calls right after predict for the same instruction.
 */
#ifndef HPS_BPRED_H
#define HPS_BPRED_H

#include <stdbool.h>
#include <stdint.h>

#include "isa.h"
#include "stats.h"

typedef enum { BP_NOT_TAKEN, BP_BIMODAL, BP_GSHARE, BP_TOURNAMENT } bpred_kind_t;

/* Table sizes must be powers of two (btb_entries / btb_assoc sets too);
 * a field left 0 takes the Alpha 21264 default (see pipeline/bpred.c). */
typedef struct bpred_config {
    bpred_kind_t kind;
    unsigned bimodal_entries;     /* 2-bit counters                      */
    unsigned gshare_entries;      /* 2-bit counters indexed pc ^ history */
    unsigned history_bits;        /* global history length               */
    unsigned local_history_entries, local_history_bits; /* tournament    */
    unsigned choice_entries;      /* tournament chooser                  */
    unsigned btb_entries, btb_assoc;
    unsigned ras_entries;
} bpred_config_t;

struct bpred;
typedef struct bpred bpred_t;

typedef struct bpred_result {
    bool taken;                   /* predicted direction                 */
    uint64_t target;              /* predicted next pc                   */
    bool btb_hit;                 /* target known at fetch (BTB / RAS);  */
                                  /* taken && !btb_hit: decode redirect  */
} bpred_result_t;

/* NULL if a size in cfg is not a power of two or out of range. */
bpred_t *bpred_new(const bpred_config_t *cfg);
void bpred_free(bpred_t *b);
bpred_result_t bpred_predict(bpred_t *b, const insn_t *in);
/* The prediction bpred_predict would give, remembered nowhere: for the
 * wrong path, whose lookups must not stand in for the next
 * bpred_update's (bpred_warm's under sampling). */
bpred_result_t bpred_peek(const bpred_t *b, const insn_t *in);
/* bpred_peek's next pc alone: its target, which for a prediction of not
 * taken is the fall-through (in->pc + in->len) and for a direct transfer
 * predicted taken without a BTB hit the decoded target (in->target). */
uint64_t bpred_peek_next(const bpred_t *b, const insn_t *in);
/* Train with the real outcome; returns true if the prediction made for
 * this instruction (the last bpred_predict) was correct. */
bool bpred_update(bpred_t *b, const insn_t *in, bool taken, uint64_t next_pc);
/* bpred_predict and bpred_update back to back, in one call: *pred gets
 * the prediction; whether it was correct. */
bool bpred_predict_update(bpred_t *b, const insn_t *in, bool taken, uint64_t next_pc,
                          bpred_result_t *pred);
/* The same, in functions of their own by predictor kind and conditional
 * branch or not (the in-order models': fewer host instructions a transfer
 * there, more under `hps`, whose caller keeps more registers live). */
bool bpred_predict_update_split(bpred_t *b, const insn_t *in, bool taken, uint64_t next_pc,
                                bpred_result_t *pred);
/* Its choice, made once by a caller that keeps it: the function it calls
 * on this predictor for a conditional branch (cond: bpred_is_cond) or for
 * any other control instruction; the same arguments. */
typedef bool (*bpred_pu_fn)(bpred_t *b, const insn_t *in, bool taken, uint64_t next_pc,
                            bpred_result_t *pred);
bpred_pu_fn bpred_split_fn(const bpred_t *b, bool cond);
/* Is an instruction of these flags (IF_*) a conditional branch to the
 * predictor: a branch, not a call or return? */
static inline bool bpred_is_cond(uint16_t flags)
{
    return (flags & (IF_RETURN | IF_CALL | IF_BRANCH)) == IF_BRANCH;
}
/* Predict and train as bpred_update does, uncounted: the statistics stay
 * as they were (functional warming, smarts.h). */
void bpred_warm(bpred_t *b, const insn_t *in, bool taken, uint64_t next_pc);
void bpred_stats(const bpred_t *b, stats_t *out);

/* For the interactive shell (read-only).  The configuration with the
 * defaults filled in; predictions and correct ones so far of kind k
 * (0, 1, ... until false: "cond", "jump", "indirect", "call", "return"). */
const bpred_config_t *bpred_config(const bpred_t *b);
bool bpred_accuracy(const bpred_t *b, unsigned k, const char **name, uint64_t *lookups,
                    uint64_t *correct);
/* What the predictor holds for a control instruction at pc, as a
 * prediction made now would read it. */
typedef struct bpred_probe {
    uint32_t index;               /* direction counter: bimodal, gshare or
                                     the tournament's global one          */
    uint8_t counter;              /* its value (2-bit, taken if >= 2)     */
    uint32_t history;             /* global history, newest in bit 0      */
    uint32_t local_index;         /* tournament: local history entry,     */
    uint16_t local_history;       /* its history                          */
    uint8_t local_counter;        /* and 3-bit counter (taken if >= 4)    */
    uint8_t choice;               /* the chooser (>= 2 picks global)      */
    bool taken;                   /* a conditional branch's direction     */
    bool btb_hit;                 /* pc has a BTB entry: set, way, target */
    unsigned btb_set, btb_way;
    uint64_t btb_target;
    unsigned ras_depth;           /* return-address stack: depth and top  */
    uint64_t ras_top;
} bpred_probe_t;
void bpred_probe(const bpred_t *b, uint64_t pc, bpred_probe_t *out);

#endif /* HPS_BPRED_H */
