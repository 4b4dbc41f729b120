/*
 * blocks_walk.h - the way from one decoded block to the next, written once
 * for the block loops (blocks_loop.h: the functional core's and the DISE
 * handler's copies; blocks_timed_loop.h: the in-order models').  Included
 * inside the loop's function twice: with BLOCKS_WALK_PART 1, finding the
 * block at pc through the code-page cache, linking the block before to it
 * and entering it; with BLOCKS_WALK_PART 2, a block's end (its run counted,
 * its links followed or set, the jump cache), the code dropped under a
 * block, and leaving.  The includer defines:
 *   EVENT_AT             where the program's count must stop (UINT64_MAX: never)
 *   SET_INSTRET(v)       the cpu's instret where it can be seen
 *   LEAVE_AFTER()        the cpu as after block b (pc next)
 *   CPU_SEEN()           anything else the cpu must hold where it can be
 *                        seen (the timed loop: the model's cycle)
 *   BLOCKS_WALK_HANDLER  1 in the DISE handler's copy: it leaves when
 *                        hps.ret switches the address space (`home`) and
 *                        keeps its count in bs->ran
 */
#if BLOCKS_WALK_PART == 1
next_block:
    if ((pc & ~GUEST_PAGE_MASK) != page_base) {     /* through the code-page cache */
        uint64_t vpn = pc >> GUEST_PAGE_SHIFT;
        const mem_itlb_entry_t *it = &itlb[vpn & (MEM_ITLB_SIZE - 1)];
        if (it->tag == vpn) slots = it->slots;
        else if (from) slots = page_after_block(bs, c, pc);
        else goto leave;
        page_base = pc & ~GUEST_PAGE_MASK;
    }
    in = &slots[(pc & GUEST_PAGE_MASK) >> 1];
    if (!in->exec || in->block == BLOCK_NONE) goto leave;
    b = (block_t *)blocks_find(bs, in);
    if (!b) goto leave;
    remember_jump(bs, pc, b);
    if (from && bs->epoch == from_epoch) link_block(bs, &bs->blk[from], way, b);
    if (retired + b->n > EVENT_AT) goto leave;
    retired += b->n;
enter:                                      /* b starts at pc; retired counts it */
    e = b->entries;
    goto *e->code;
#elif BLOCKS_WALK_PART == 2
do_END:                                     /* ran to the page's end or a system call */
    pc = b->end;
    way = 0;
fixed_way:                                  /* link [way] always reaches pc */
    count_run(bs, b);
    if (likely(b->link_epoch[way] == bs->epoch)) goto linked;
    goto unlinked;

transferred:                                /* the transfer wrote c->pc */
    pc = c->pc;
#if BLOCKS_WALK_HANDLER
    if (unlikely(c->mem != home)) {         /* hps.ret: the program's pc, in its memory */
        count_run(bs, b);
        goto leave;
    }
#endif
indirect:                                   /* to pc, whichever it is */
    count_run(bs, b);
    way = pc != b->end;
    if (b->link_pc[way] != pc || b->link_epoch[way] != bs->epoch) goto jump_cache;
linked:
    nb = b->link[way];
chained:                                    /* to nb, which starts at pc */
    if (unlikely(retired + nb->n > EVENT_AT)) {
        LEAVE_AFTER();
        goto leave;
    }
    retired += nb->n;
    b = nb;
    goto enter;
jump_cache: {                               /* the link missed: pc's block, if cached */
    const block_jump_t *j = jump_slot(bs, pc);
    if (j->pc != pc || j->epoch != bs->epoch) goto unlinked;
    nb = j->b;
    link_block(bs, b, way, nb);             /* as next_block would */
    goto chained;
}
unlinked:                                   /* the cpu as after b: it may fault next */
    LEAVE_AFTER();
    CPU_SEEN();
    if (unlikely(retired >= EVENT_AT)) goto leave;
    from = (uint32_t)(b - bs->blk);
    from_epoch = bs->epoch;
    goto next_block;

dropped: {                                  /* the entries before e ran, the last dropped the code */
    uint32_t k = entry_index(bs, b, e);
    count_entries(bs, b, bs->flight_counted, k);
    pc = b->pc + e->offset;                 /* a BK_END entry's is the block's end */
    if (k == b->n) pc = b->end;
    c->stop_pc = b->pc + e[-1].offset;      /* the one that dropped it */
    c->pc = pc;
    SET_INSTRET(retired - b->n + k);
#if BLOCKS_WALK_HANDLER
    retired = retired - b->n + k;
#endif
}
leave:
    CPU_SEEN();
    bs->flight = NULL;
    bs->flight_counted = 0;
#if BLOCKS_WALK_HANDLER
    bs->ran = retired;
#endif
    return pc;
#else
#error "BLOCKS_WALK_PART must be 1 or 2"
#endif
#undef BLOCKS_WALK_PART
