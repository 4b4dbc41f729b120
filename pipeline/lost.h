/*
 * lost.h - the ground truth of what speculation cost, per static
 * instruction: the fetch slots, issue slots and cycles the out-of-order
 * model (ooo.c) lost to each mispredicted transfer's wrong path and to each
 * violating load's memory-order replays.  Written as comment lines at the
 * end of the ground-truth file (pipeline/README.md) and as top-N
 * statistics; the per-pc numbers sum to cpu.ooo.wrongPath.* and
 * cpu.ooo.memdep.*.  Private to pipeline/.
 */
#ifndef HPS_LOST_H
#define HPS_LOST_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "stats.h"
#include "symtab.h"

/* What one pc lost.  Wrong path (charged to the mispredicted transfer):
 * squashes, fetch slots (instructions fetched), issue slots (instructions
 * issued), fetch cycles (first to last wrong-path fetch + 1) and active-list
 * entry-cycles (squash - D).  Replays (charged to the violating load):
 * violations, issue slots (the load's re-issue and its dependants'), and the
 * cycles from the violation's detection to the re-issue. */
typedef struct lost_row {
    uint64_t pc;
    uint64_t wp_squashes, wp_fetch_slots, wp_issue_slots, wp_fetch_cycles, wp_rob_cycles;
    uint64_t replays, replay_issue_slots, replay_cycles;
} lost_row_t;

typedef struct lost lost_t;

lost_t *lost_new(void);
void lost_free(lost_t *l);
/* The row of pc (made on first use). */
lost_row_t *lost_at(lost_t *l, uint64_t pc);
/* The comment lines of the ground-truth file: a header and one row per pc
 * that lost anything, sorted by pc. */
void lost_write_truth(const lost_t *l, FILE *out, const symtab_t *symtab);
/* The `top` pcs whose wrong paths fetched the most instructions, the most
 * first (a tie by pc), into pc[] and slots[] (their wp_fetch_slots); how
 * many there are (cpu.ooo.wrongPath.fetchedAfter::PC). */
size_t lost_top_fetch_slots(const lost_t *l, unsigned top, uint64_t *pc, uint64_t *slots);
/* cpu.ooo.wrongPath.fetchCyclesAt::PC and robSlotCyclesAt::PC (when
 * wrong_path), cpu.ooo.memdep.replayedInstsAt::PC (when replays): the top
 * `top` pcs of each. */
void lost_stats(const lost_t *l, stats_t *s, unsigned top, int wrong_path, int replays);

#endif /* HPS_LOST_H */
