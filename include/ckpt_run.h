/*
 * ckpt_run.h - the command line's side of checkpoints (checkpoint.h has
 * the format): --checkpoint-at N --checkpoint-out FILE takes one,
 * --restore FILE starts a run from one, and the options that cannot
 * combine with them are refused here.
 */
#ifndef HPS_CKPT_RUN_H
#define HPS_CKPT_RUN_H

#include <stdbool.h>

#include "core.h"
#include "isa.h"
#include "options.h"
#include "sys.h"

struct engine;

/* bad_input for an option that does not combine with the checkpoint
 * options (called from check_combinations). */
void ckpt_run_check_options(const options_t *o);

/* With --restore: the freshly loaded guest (c, s) takes the checkpoint's
 * state (the file is read and checked once, on the first call); bad_input
 * with one message when it cannot.  Without: nothing. */
void ckpt_run_restore(const options_t *o, const isa_t *isa, cpu_t *c, sys_t *s);

/* --checkpoint-at: run e to instruction N and write the checkpoint (one
 * line on stderr says where, its size and the time it took); true when
 * written.  False, with a message, when the program stopped before N
 * (its stop is then reported as usual). */
bool ckpt_run_take(const options_t *o, const isa_t *isa, struct engine *e, cpu_t *c);

#endif /* HPS_CKPT_RUN_H */
