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

/* The shell's in-memory checkpoints (shell.h, keep/rewind): one every
 * SHELL_CKPT_EVERY program instructions, in a bounded amount of memory
 * (SHELL_CKPT_BYTES, or a quarter of --host-mem when that is less), charged
 * to --host-mem; when a new one would not fit, the oldest ones go. */
#define SHELL_CKPT_EVERY 1000000ull
#define SHELL_CKPT_BYTES (256ull << 20)

struct ckpt_image;
struct ckpt_ident;
typedef struct shell_ckpts {
    struct ckpt_image *img;             /* in instruction order            */
    uint64_t *at;                       /* the instruction each was taken at */
    size_t n, cap;
    uint64_t bytes, budget;
} shell_ckpts_t;

void shell_ckpts_init(shell_ckpts_t *k, uint64_t host_mem);
/* Save c now (a guest whose state cannot be saved, e.g. after its first
 * clone, or one bigger than the whole budget, is silently not kept: the
 * shell then replays from an earlier one or the start). */
void shell_ckpts_keep(shell_ckpts_t *k, const cpu_t *c, const struct ckpt_ident *id);
/* The latest checkpoint at or before instruction `to`, or NULL. */
const struct ckpt_image *shell_ckpts_find(const shell_ckpts_t *k, uint64_t to);
void shell_ckpts_free(shell_ckpts_t *k);

#endif /* HPS_CKPT_RUN_H */
