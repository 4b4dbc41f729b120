/*
 * blocks_edit_entry.h - what the two block loops (blocks_loop.h, the
 * functional core's; blocks_timed_loop.h, a timed run's) share of DISE's
 * entries and of a jump's, written once so that the two cannot drift:
 * macros expanded inside each loop's function, on its names (c, bs, b, e,
 * in, pc, mem, edit, truth, dispatch, REG, AT_ENTRY, NEXT, DROPPED and the
 * labels edit_semantics, replaced, transferred, indirect).  What differs is
 * a parameter: the timed loop's model step (its TIME, TIME_END), nothing
 * in the functional loop.
 */
#ifndef BLOCKS_EDIT_ENTRY_H
#define BLOCKS_EDIT_ENTRY_H

/* An entry of kind BK_EDIT_<kind> (a transfer DISE classified): the count
 * (edit.h), or the editor's semantics where it fails, before the transfer's
 * own code. */
#define BLOCKS_EDIT_COUNT()                                                      \
    do {                                                                         \
        if (unlikely(!edit_try_uniform(&c->edit_left)) && unlikely(!edit_try_count(edit, e->in))) { \
            in = e->in;                                                          \
            goto edit_semantics;                                                 \
        }                                                                        \
    } while (0)

/* The entries do_EDIT_INLINE and do_EDIT (and the label edit_semantics,
 * the editor's miss): counted, the instruction runs as without DISE (its
 * own kind's code, or its own semantics); where the count fails, the
 * editor's miss, which may run it as counted or leave it to a replacement
 * (cpu_t.replaced: the loop leaves before it).  An instruction that ran
 * here is then time_xfer'd and leaves the block if it transfers (as
 * do_XFER), else time_next'd and goes on (as do_CALL). */
#define BLOCKS_EDIT_ENTRIES(time_xfer, time_next)                                \
do_EDIT_INLINE:                             /* as do_EDIT, its own kind inline, no memory */ \
    if (likely(edit_try_uniform(&c->edit_left)) || likely(edit_try_count(edit, e->in) != NULL)) \
        goto *dispatch[e->own];                                                  \
    in = e->in;                                                                  \
    goto edit_semantics;                                                         \
                                                                                 \
do_EDIT: {                                  /* DISE classified it: it may not retire */ \
    in = e->in;                                                                  \
    const edit_count_t *x = edit_try_uniform(&c->edit_left) ? edit_record(edit, in) : edit_try_count(edit, in); \
    if (likely(x != NULL) && e->own != BK_EDIT)     /* counted: it runs as without DISE, inline */ \
        goto *dispatch[e->own];                                                  \
    if (likely(x != NULL)) {                /* counted: its own semantics */     \
        AT_ENTRY();                                                              \
        x->exec(c, in);                                                          \
    } else {                                /* DISE's */                         \
edit_semantics:                             /* its count failed: the editor's miss */ \
        AT_ENTRY();                                                              \
        c->replaced = false;                                                     \
        if (edit->miss(c, in)) {            /* matched, still to run: as counted */ \
            if (e->own != BK_EDIT) goto *dispatch[e->own];                       \
            edit_own_exec(edit, in)(c, in);                                      \
        } else if (unlikely(c->replaced)) {                                      \
            goto replaced;                  /* the engine steps its replacement */ \
        }                                                                        \
    }                                                                            \
    mem = c->mem;                                                                \
}                                                                                \
    if (in->flags & IF_TRANSFER) {          /* the block's last, as do_XFER */   \
        if (truth && (in->flags & IF_CALL)) truth_record_call(truth, pc, c->pc); \
        else if (truth && (in->flags & (IF_LOAD | IF_STORE)))                    \
            mem_mark_touched(c->mem, c->mem_addr, in->memsize);                  \
        time_xfer;                                                               \
        goto transferred;                                                        \
    }                                                                            \
    if (truth && (in->flags & (IF_LOAD | IF_STORE)))   /* as do_CALL */          \
        mem_mark_touched(c->mem, c->mem_addr, in->memsize);                      \
    time_next;                                                                   \
    DROPPED();                                                                   \
    NEXT();

/* A jump, the block's last entry, to `target`: rd gets the address after
 * it (the block's end), computed after the target (rd may be rs1); then
 * `then`, with t and pc the target. */
#define BLOCKS_JUMP_BODY(target, then)                                           \
    {                                                                            \
        uint64_t t = target;                                                     \
        REG(e->rd) = b->end;                                                     \
        if (truth && (e->in->flags & IF_CALL))                                   \
            truth_record_call(truth, b->pc + e->offset, t);                      \
        b->taken++;                                                              \
        pc = t;                                                                  \
        then;                                                                    \
    }

/* An indirect call the editor records one by one (BK_EDIT_REC_<kind>): the
 * count, the jump, the editor's record of the call (edit.h), then
 * time_end (the timed loop's model step), and on to the target. */
#define BLOCKS_JUMP_REC(kind, target, time_end)                                  \
    do_EDIT_REC_##kind:                                                          \
        BLOCKS_EDIT_COUNT();                                                     \
        BLOCKS_JUMP_BODY(target, edit->record_call(edit->record_ctx, b->pc + e->offset, pc); \
                                 time_end; goto indirect)

#endif
