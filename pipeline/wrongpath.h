/*
 * wrongpath.h - the functional side of wrong-path execution for the
 * out-of-order model (ooo.c): after a mispredicted transfer, walk the path
 * the branch predictor takes, on a shadow copy of the cpu's registers,
 * without ever changing the architectural state (registers, memory, the
 * ground truth's counts).  The model times what the walk hands it.
 * Private to pipeline/ (pipeline/README.md, "Wrong path").
 */
#ifndef HPS_WRONGPATH_H
#define HPS_WRONGPATH_H

#include <stdbool.h>
#include <stdint.h>

#include "bpred.h"
#include "core.h"

/* Why a walk ended (statistics). */
enum { WP_END_TIMING, WP_END_LIMIT, WP_END_FAULT, WP_END_SERIAL, WP_END_TARGET, WP_END_HANDLER,
       WP_END_COUNT };
extern const char *const wrongpath_end_names[WP_END_COUNT];

/* One wrong-path instruction: visit() times it and returns false to stop
 * the walk (the branch has resolved, the machine is full).  addr: the
 * effective address of a load (0 for everything else); next: the pc the
 * front end fetches after it (0: none known); decode_stall: its DISE
 * decode stall (the first of a wrong-path replacement waits
 * dise.replace_penalty cycles, as on the correct path; 0 otherwise). */
typedef bool (*wrongpath_visit_fn)(void *ctx, const insn_t *in, uint64_t addr, uint64_t next,
                                   unsigned decode_stall);

/* A walker: its shadow cpu and store overlay (one per timing model). */
typedef struct wrongpath wrongpath_t;
wrongpath_t *wrongpath_new(void);
void wrongpath_free(wrongpath_t *w);

/* Walks at most max instructions from pc on w's shadow of c (registers;
 * memory never written), following bp's predictions without training it;
 * returns why it ended (WP_END_*).  Integer loads execute only on pages
 * that are mapped, readable and already present, and read the walk's own
 * earlier integer stores (a speculative store overlay) over guest memory;
 * stores go to the overlay only (FP stores of 8 bytes too); FP arithmetic and
 * FP loads execute on the shadow; a system call, fence, CSR access, atomic,
 * fault or trap ends the walk.  With DISE, classified instructions are
 * matched on the engine's counters and replacements walked (a handler call
 * ends the walk); the squash restores the counters and flags unless
 * dise.spec_counters = leak. */
int wrongpath_walk(wrongpath_t *w, cpu_t *c, const bpred_t *bp, uint64_t pc, unsigned max,
                   wrongpath_visit_fn visit, void *ctx);

#endif /* HPS_WRONGPATH_H */
