/*
 * blocks_loop.h - the block loop (blocks.h: blocks_execute), included by
 * blocks.c once for each of its copies: BLOCKS_LOOP_NAME the function's
 * name, BLOCKS_LOOP_TRUTH 1 for the copy that tells the ground-truth
 * recorder of calls and data words touched, 0 for the one that has none
 * (its tests of the recorder compiled away); BLOCKS_LOOP_HANDLER 1 for the
 * copy that runs a DISE handler's instructions in the handler runtime's
 * memory (blocks_execute_handler): they count in blocks_t.ran, not in
 * c->instret, which stays the program's; no event stops them (the engine
 * steps a handler to its end, run_dise_handler); and the loop leaves after
 * a transfer that switched the address space (hps.ret: c->mem is the
 * program's again, the pc its own; only a transfer switches it).  Each
 * copy has its own code for the kinds; a table's entries hold the code of
 * the copy that built them, so a table run by another copy is emptied
 * first.
 */
#include "blocks_edit_entry.h"

#define REG(r) (c->reg[r])
#if BLOCKS_LOOP_HANDLER
#define EVENT_AT UINT64_MAX             /* none */
#define SET_INSTRET(v) ((void)0)        /* the program's, untouched */
#define LEAVE_AFTER() leave_at(c, bs, b, pc)
#else
#define EVENT_AT (c->event_at)
#define SET_INSTRET(v) (c->instret = (v))
#define LEAVE_AFTER() leave_after(c, bs, b, pc, retired)
#endif
#define CPU_SEEN() ((void)0)            /* nothing beside the above */
#define BLOCKS_WALK_HANDLER BLOCKS_LOOP_HANDLER

/* Each kind ends in a jump of its own to the next entry's code (not merged
 * into a shared one: the host predicts each better); without global CSE,
 * which GCC's manual advises for computed gotos (it hoisted an address
 * computation into every dispatch). */
static __attribute__((noinline, optimize("no-crossjumping", "no-gcse")))
uint64_t BLOCKS_LOOP_NAME(cpu_t *c, blocks_t *bs, truth_t *truth_given, uint64_t pc)
{
#define KIND_LABEL(k) [BK_##k] = &&do_##k,
    static const void *const dispatch[BK_COUNT] = { BLOCK_KINDS(KIND_LABEL) };
#undef KIND_LABEL
#define FUSED_ROW(k1, k2) { BK_##k1, BK_##k2, &&do_##k1##__##k2 },
    static const block_fused_t fused[] = { FUSED_PAIRS(FUSED_ROW) };
#undef FUSED_ROW
    truth_t *const truth = BLOCKS_LOOP_TRUTH ? truth_given : NULL;
    if (bs->code != dispatch) {             /* blocks_build's entries run this copy's code */
        if (bs->nblk > 1) empty_table(bs);  /* built for the other copy */
        bs->code = dispatch;
        bs->fused = fused;
        bs->nfused = sizeof fused / sizeof fused[0];
    }
    const mem_itlb_entry_t *itlb = c->mem->itlb;
    edit_view_t *edit = c->edit;            /* for BK_EDIT entries */
    mem_t *mem = c->mem;                    /* again after each called instruction */
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL;
    block_t *b, *nb;
    const block_entry_t *e;
    uint64_t retired = BLOCKS_LOOP_HANDLER ? 0 : c->instret;   /* through b, in the cpu
                                                                   only when leaving */
#if BLOCKS_LOOP_HANDLER
    const mem_t *const home = c->mem;       /* the runtime's, until hps.ret */
#endif
    insn_t *in;
    uint32_t from = 0;                      /* the block before, to link to b (0: none) */
    uint64_t from_epoch = 0;                /* the links' epoch when it ended */
    uintptr_t way = 0;                      /* its link to set: block_t.link */
    see_code_epoch(bs, c->mem);

#define BLOCKS_WALK_PART 1
#include "blocks_walk.h"

/* Before an entry that may fault or read the cpu: where it is, and how many
 * instructions retired before it.  Only such an entry may lead to
 * blocks_settle, which reads the block in flight: set here, not per block. */
#define AT_ENTRY()                                    \
    do {                                              \
        bs->flight = b;                               \
        bs->flight_at = e;                            \
        pc = b->pc + e->offset;                       \
        c->stop_pc = pc;                              \
        c->pc = pc + e->len;                          \
        SET_INSTRET(retired - b->n + entry_index(bs, b, e)); \
    } while (0)
#define NEXT()                                        \
    do {                                              \
        e++;                                          \
        goto *e->code;                                \
    } while (0)
/* after a store or a called instruction: did it drop this page's code? */
#define DROPPED()                                     \
    if (unlikely(!b->start->exec)) { e++; goto dropped; }
/* The straight kinds (those that go on to the next entry) are each defined
 * once, as K_<kind>(then): the kind's work, then `then`.  A kind's own
 * code goes on by NEXT(); a fused pair's (FUSED_PAIRS) straight to the
 * next entry's kind, by a direct jump instead of the indirect one. */
#define ALU(expr, then) { REG(e->rd) = (uint64_t)(expr); then; }
/* a conditional move, from a register (_RR) or imm (_RI) */
#define CMOV(kind, cond)                                                         \
    do_##kind##_RR: if (cond) REG(e->rd) = REG(e->rs2); NEXT();                  \
    do_##kind##_RI: if (cond) REG(e->rd) = (uint64_t)e->imm; NEXT();
/* ADDR: a load's or store's address; Alpha's ldq_u and stq_u take the
 * aligned quadword holding it (ALIGNED8) */
#define ADDR (REG(e->rs1) + (uint64_t)e->imm)
#define ALIGNED8 (ADDR & ~7ull)
/* A load or store through the TLB's fast path, which cannot fault or drop
 * code; the slow path may do either, so it starts as a called instruction
 * does (AT_ENTRY), and a store's checks the block's code after it (its word
 * marked for the recorder first, as the step marks it). */
#define LOAD(bits, addr, expr, then)                                             \
    {                                                                            \
        uint64_t a = addr, v;                                                    \
        if (unlikely(!mem_try_load##bits(mem, a, &v))) {                         \
            AT_ENTRY();                                                          \
            v = mem_load_slow(mem, a, bits / 8);                                 \
        }                                                                        \
        REG(e->rd) = (uint64_t)(expr);                                           \
        if (truth) mem_mark_touched(mem, a, bits / 8);                           \
        then;                                                                    \
    }
#define STORE(bits, addr, then)                                                  \
    {                                                                            \
        uint64_t a = addr;                                                       \
        if (unlikely(!mem_try_store##bits(mem, a, REG(e->rs2)))) {                \
            AT_ENTRY();                                                          \
            mem_store_slow(mem, a, REG(e->rs2), bits / 8);                       \
            if (truth) mem_mark_touched(mem, a, bits / 8);                       \
            DROPPED();                                                           \
        } else if (truth) {                                                      \
            mem_mark_touched(mem, a, bits / 8);                                  \
        }                                                                        \
        then;                                                                    \
    }
/* An entry of kind BK_EDIT_<kind> (an inline transfer DISE classified):
 * do_EDIT_INLINE's count, or the editor's semantics, before the transfer's
 * own code, which each such kind repeats (not a jump into the plain kind's
 * code: sharing it made the plain run's loop slower, GCC laying it out
 * anew).  The count, BLOCKS_EDIT_COUNT, is blocks_edit_entry.h's. */
/* a conditional branch, the block's last entry; e->imm is its target,
 * always reached by link [1] (the end by link [0]) */
#define BRANCH(kind, cond)                                                       \
    do_##kind:                                                                   \
        BRANCH_BODY(cond)                                                        \
    do_EDIT_##kind:                         /* DISE's count first */                \
        BLOCKS_EDIT_COUNT();                                                     \
        BRANCH_BODY(cond)
#define BRANCH_BODY(cond)                                                        \
        if (cond) {                                                              \
            b->taken++;                                                          \
            pc = (uint64_t)e->imm;                                               \
            way = 1;                                                             \
        } else {                                                                 \
            pc = b->end;                                                         \
            way = 0;                                                             \
        }                                                                        \
        goto fixed_way;

#define K_CALL(then)                                                             \
    {                                                                            \
        AT_ENTRY();                                                              \
        in = e->in;                                                              \
        in->exec(c, in);                                                         \
        mem = c->mem;                                                            \
        if (truth && (in->flags & (IF_LOAD | IF_STORE)))                         \
            mem_mark_touched(c->mem, c->mem_addr, in->memsize);                  \
        DROPPED();                                                               \
        then;                                                                    \
    }
/* CALL_REG: needs no cpu state, cannot fault or drop code */
#define K_CALL_REG(then) { in = e->in; in->exec(c, in); then; }
#define K_NOP(then) { then; }

/* DISE's entries, the timed loop's too (blocks_edit_entry.h): no model to step */
    BLOCKS_EDIT_ENTRIES((void)0, (void)0)

do_XFER:                                    /* a control transfer: the block's last */
    AT_ENTRY();
    in = e->in;
    in->exec(c, in);
    mem = c->mem;
    if (truth && (in->flags & (IF_LOAD | IF_STORE | IF_CALL))) {
        if (in->flags & IF_CALL) truth_record_call(truth, pc, c->pc);
        else mem_mark_touched(c->mem, c->mem_addr, in->memsize);
    }
    goto transferred;

#define K_ADD_RI(then)   ALU(REG(e->rs1) + (uint64_t)e->imm, then)
#define K_ADD_RR(then)   ALU(REG(e->rs1) + REG(e->rs2), then)
#define K_SUB_RR(then)   ALU(REG(e->rs1) - REG(e->rs2), then)
#define K_AND_RI(then)   ALU(REG(e->rs1) & (uint64_t)e->imm, then)
#define K_AND_RR(then)   ALU(REG(e->rs1) & REG(e->rs2), then)
#define K_OR_RI(then)    ALU(REG(e->rs1) | (uint64_t)e->imm, then)
#define K_OR_RR(then)    ALU(REG(e->rs1) | REG(e->rs2), then)
#define K_XOR_RI(then)   ALU(REG(e->rs1) ^ (uint64_t)e->imm, then)
#define K_XOR_RR(then)   ALU(REG(e->rs1) ^ REG(e->rs2), then)
#define K_SLL_RI(then)   ALU(REG(e->rs1) << (e->imm & 63), then)
#define K_SRL_RI(then)   ALU(REG(e->rs1) >> (e->imm & 63), then)
#define K_SRA_RI(then)   ALU((int64_t)REG(e->rs1) >> (e->imm & 63), then)
#define K_SLL_RR(then)   ALU(REG(e->rs1) << (REG(e->rs2) & 63), then)
#define K_SRL_RR(then)   ALU(REG(e->rs1) >> (REG(e->rs2) & 63), then)
#define K_SRA_RR(then)   ALU((int64_t)REG(e->rs1) >> (REG(e->rs2) & 63), then)
#define K_ADDW_RI(then)  ALU((int64_t)(int32_t)(uint32_t)(REG(e->rs1) + (uint64_t)e->imm), then)
#define K_ADDW_RR(then)  ALU((int64_t)(int32_t)(uint32_t)(REG(e->rs1) + REG(e->rs2)), then)
#define K_SUBW_RR(then)  ALU((int64_t)(int32_t)(uint32_t)(REG(e->rs1) - REG(e->rs2)), then)
#define K_LI(then)       ALU(e->imm, then)
#define K_AUIPC(then)    ALU(b->pc + e->offset + (uint64_t)e->imm, then)
#define K_SLT_RI(then)   ALU((int64_t)REG(e->rs1) < e->imm, then)
#define K_SLT_RR(then)   ALU((int64_t)REG(e->rs1) < (int64_t)REG(e->rs2), then)
#define K_SLTU_RI(then)  ALU(REG(e->rs1) < (uint64_t)e->imm, then)
#define K_SLTU_RR(then)  ALU(REG(e->rs1) < REG(e->rs2), then)
#define K_S4ADD_RI(then) ALU((REG(e->rs1) << 2) + (uint64_t)e->imm, then)
#define K_S4ADD_RR(then) ALU((REG(e->rs1) << 2) + REG(e->rs2), then)
#define K_S8ADD_RI(then) ALU((REG(e->rs1) << 3) + (uint64_t)e->imm, then)
#define K_S8ADD_RR(then) ALU((REG(e->rs1) << 3) + REG(e->rs2), then)

#define K_SEQ_RI(then)   ALU(REG(e->rs1) == (uint64_t)e->imm, then)
#define K_SEQ_RR(then)   ALU(REG(e->rs1) == REG(e->rs2), then)
#define K_SLE_RI(then)   ALU((int64_t)REG(e->rs1) <= e->imm, then)
#define K_SLE_RR(then)   ALU((int64_t)REG(e->rs1) <= (int64_t)REG(e->rs2), then)
#define K_SLEU_RI(then)  ALU(REG(e->rs1) <= (uint64_t)e->imm, then)
#define K_SLEU_RR(then)  ALU(REG(e->rs1) <= REG(e->rs2), then)
#define K_EXTB_RR(then)  ALU((REG(e->rs1) >> ((REG(e->rs2) & 7) * 8)) & 0xff, then)

/* The tests of rs1 alone: the conditional moves and branches that take each. */
#define RS1_TESTS(X) \
    X(CMOVEQ,  BEQZ, REG(e->rs1) == 0) \
    X(CMOVNE,  BNEZ, REG(e->rs1) != 0) \
    X(CMOVLT,  BLTZ, (int64_t)REG(e->rs1) <  0) \
    X(CMOVGE,  BGEZ, (int64_t)REG(e->rs1) >= 0) \
    X(CMOVLE,  BLEZ, (int64_t)REG(e->rs1) <= 0) \
    X(CMOVGT,  BGTZ, (int64_t)REG(e->rs1) >  0) \
    X(CMOVLBC, BLBC, !(REG(e->rs1) & 1)) \
    X(CMOVLBS, BLBS, REG(e->rs1) & 1)
#define CMOV_ON(cmov, branch, cond) CMOV(cmov, cond)
    RS1_TESTS(CMOV_ON)
#undef CMOV_ON

#define K_LD8U(then)   LOAD(8, ADDR, v, then)
#define K_LD8S(then)   LOAD(8, ADDR, (int64_t)(int8_t)v, then)
#define K_LD16U(then)  LOAD(16, ADDR, v, then)
#define K_LD16S(then)  LOAD(16, ADDR, (int64_t)(int16_t)v, then)
#define K_LD32U(then)  LOAD(32, ADDR, v, then)
#define K_LD32S(then)  LOAD(32, ADDR, (int64_t)(int32_t)v, then)
#define K_LD64(then)   LOAD(64, ADDR, v, then)
#define K_LD64A(then)  LOAD(64, ALIGNED8, v, then)

#define K_ST8(then)    STORE(8, ADDR, then)
#define K_ST16(then)   STORE(16, ADDR, then)
#define K_ST32(then)   STORE(32, ADDR, then)
#define K_ST64(then)   STORE(64, ADDR, then)
#define K_ST64A(then)  STORE(64, ALIGNED8, then)

/* A fused pair's second runs a copy of its kind's code (its own indirect
 * jump to the entry after it, and no jump to reach it); a transfer, which
 * ends the block, is reached by a jump to its code. */
#define K_JAL(then)  goto do_JAL;
#define K_JALR(then) goto do_JALR;
#define K_JMP(then)  goto do_JMP;
#define K_BEQ(then)  goto do_BEQ;
#define K_BNE(then)  goto do_BNE;
#define K_BEQZ(then) goto do_BEQZ;
#define OWN_CODE(k) do_##k: K_##k(NEXT())
#define FUSED_CODE(k1, k2)                                                       \
    do_##k1##__##k2: K_##k1(e++; goto second_##k1##__##k2)                        \
    second_##k1##__##k2: K_##k2(NEXT())
    STRAIGHT_KINDS(OWN_CODE)
    FUSED_PAIRS(FUSED_CODE)
#undef OWN_CODE
#undef FUSED_CODE
#undef K_JAL
#undef K_JALR
#undef K_JMP
#undef K_BEQ
#undef K_BNE
#undef K_BEQZ

    BRANCH(BEQ,  REG(e->rs1) == REG(e->rs2))
    BRANCH(BNE,  REG(e->rs1) != REG(e->rs2))
    BRANCH(BLT,  (int64_t)REG(e->rs1) <  (int64_t)REG(e->rs2))
    BRANCH(BGE,  (int64_t)REG(e->rs1) >= (int64_t)REG(e->rs2))
    BRANCH(BLTU, REG(e->rs1) <  REG(e->rs2))
    BRANCH(BGEU, REG(e->rs1) >= REG(e->rs2))
#define BRANCH_ON(cmov, branch, cond) BRANCH(branch, cond)
    RS1_TESTS(BRANCH_ON)
#undef BRANCH_ON
#undef RS1_TESTS

/* a jump, the block's last entry, to `target`: rd gets the address after
 * it (the block's end), computed after the target (rd may be rs1) */
#define JUMP(kind, target, then)                                                 \
    do_##kind:                                                                   \
        BLOCKS_JUMP_BODY(target, then)                                           \
    do_EDIT_##kind:                         /* DISE's count first */                \
        BLOCKS_EDIT_COUNT();                                                     \
        BLOCKS_JUMP_BODY(target, then)

    JUMP(JAL,  (uint64_t)e->imm, way = 1; goto fixed_way)
    JUMP(JALR, (REG(e->rs1) + (uint64_t)e->imm) & ~1ull, goto indirect)
    JUMP(JMP,  REG(e->rs1) & ~3ull, goto indirect)

/* an indirect call the editor records one by one (BK_EDIT_REC_<kind>):
 * BK_EDIT_<kind>, then the editor's record of the call (blocks_edit_entry.h) */
    BLOCKS_JUMP_REC(JALR, (REG(e->rs1) + (uint64_t)e->imm) & ~1ull, (void)0)
    BLOCKS_JUMP_REC(JMP,  REG(e->rs1) & ~3ull, (void)0)



#undef AT_ENTRY
#undef NEXT
#undef DROPPED
#undef ALU
#undef CMOV
#undef ADDR
#undef ALIGNED8
#undef LOAD
#undef STORE
#undef BRANCH
#undef BRANCH_BODY
#undef JUMP

replaced:                                   /* the entries before e retired, e did not: */
    /* its replacement runs now (the engine), e only as part of it.  e is
     * counted with those before: the replacement took back the count the
     * ordinary step gives an instruction before it runs (dise/engine.c). */
    count_entries(bs, b, bs->flight_counted, entry_index(bs, b, e) + 1);
    pc = c->pc;
#if BLOCKS_LOOP_HANDLER
    retired = retired - b->n + entry_index(bs, b, e);
#endif
    goto leave;

#define BLOCKS_WALK_PART 2
#include "blocks_walk.h"
}

#undef REG
#undef EVENT_AT
#undef SET_INSTRET
#undef LEAVE_AFTER
#undef CPU_SEEN
#undef BLOCKS_WALK_HANDLER
#undef BLOCKS_LOOP_NAME
#undef BLOCKS_LOOP_TRUTH
#undef BLOCKS_LOOP_HANDLER
