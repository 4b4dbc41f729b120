/*
 * jit.h - the functional core's dynamic translator (sim/jit_x86.c): the
 * decoded blocks of blocks.h translated to x86-64 host code and run in
 * place of the block loop (--jit), with exactly its behaviour: the same
 * counts, stops, faults and self-modifying code, and with the ground-truth
 * recorder told what the block loop's copy with it tells it.  On x86-64
 * hosts only, the functional core's default where the run allows it
 * (engine_parts_t.jit_if_able; --jit asks for it, --no-jit for the block
 * loop); an instruction DISE classified runs as the block loop runs it:
 * the editor's count in line, its miss called, a replacement leaving; and
 * a DISE handler runtime's blocks by a translator of their own, as the
 * block loop's handler copy runs them (jit_execute_handler).
 */
#ifndef HPS_JIT_H
#define HPS_JIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "blocks.h"

typedef struct jit jit_t;

/* Whether this host can run translated code (x86-64); if not, why not. */
bool jit_supported(const char **why);
/* A translator with its code cache, or NULL with a message in err. */
jit_t *jit_new(char *err, size_t errlen);
void jit_free(jit_t *j);

/* blocks_execute's contract (blocks.h), by translated code: runs blocks
 * from pc while they start at decoded slots and end before c->event_at,
 * telling truth (NULL: none) what the block loop tells it; returns the pc
 * where the ordinary step must take over. */
uint64_t jit_execute(jit_t *j, cpu_t *c, blocks_t *bs, truth_t *truth, uint64_t pc);
/* Make j (new, nothing translated yet) the translator of a DISE handler
 * runtime's table, which blocks_execute_handler runs: */
void jit_for_handlers(jit_t *j);
/* blocks_execute_handler's contract (blocks.h), by j's translated code. */
uint64_t jit_execute_handler(jit_t *j, cpu_t *c, blocks_t *bs, uint64_t pc, uint64_t *ran);

/* What the translator has done so far (for the README's numbers). */
typedef struct jit_stats {
    uint64_t translated;        /* blocks translated                          */
    uint64_t flushes;           /* times the code cache was emptied           */
    uint64_t entries;           /* runs of translated code started from C     */
    uint64_t edit_entries;      /* entries DISE classified, translated        */
    uint64_t inline_entries;    /* entries run as inline host code            */
    uint64_t called_entries;    /* entries that call their semantics          */
    uint64_t unpatches;         /* times every chain was undone (epoch moved) */
} jit_stats_t;
void jit_get_stats(const jit_t *j, jit_stats_t *s);

/* ---- the block loop's own steps between blocks, for the translator --------
 * (blocks.c; each is the block loop's step of the same name) */
void blocks_jit_see_code_epoch(blocks_t *bs, const mem_t *m);
insn_t *blocks_jit_page_after(blocks_t *bs, cpu_t *c, uint64_t pc);
void blocks_jit_found(blocks_t *bs, uint64_t pc, block_t *b);
void blocks_jit_link(const blocks_t *bs, block_t *from, uintptr_t way, block_t *to);
block_t *blocks_jit_jump_lookup(blocks_t *bs, uint64_t pc);
void blocks_jit_leave_after(cpu_t *c, const blocks_t *bs, const block_t *b, uint64_t pc,
                            uint64_t retired);
/* a block's first whole run since the counts were last settled */
void blocks_jit_first_run(blocks_t *bs, block_t *b);
/* entry k-1 of b dropped the block's code: the cpu and counts as the block
 * loop leaves them; returns the pc to go on from */
uint64_t blocks_jit_dropped(cpu_t *c, blocks_t *bs, const block_t *b, uint32_t k,
                            uint64_t retired);
/* entry k of b, one DISE classified, was replaced (cpu_t.replaced): the
 * counts as the block loop's `replaced` leaves them (the cpu is as the
 * entry's AT_ENTRY and the replacement left it) */
void blocks_jit_replaced(blocks_t *bs, const block_t *b, uint32_t k);

#endif /* HPS_JIT_H */
