/*
 * blocks_timed_loop.h - the block loop of a timed run (blocks.h:
 * blocks_execute_timed), included by blocks.c once for each of its copies:
 * BLOCKS_TIMED_NAME the function's name, BLOCKS_TIMED_TRUTH 1 for the copy
 * that tells the ground-truth recorder of calls and data words touched,
 * BLOCKS_TIMED_PMU 1 for the copy of a run with performance counters.
 *
 * The blocks and their entries are the functional core's (blocks_loop.h,
 * which this follows kind by kind; the way between blocks, blocks_walk.h,
 * is shared with it); what
 * is added is the timing model: each instruction, right after it executes,
 * is handed to the model's entry (block_timer_t) with what the engine's
 * step hands it (timing_step): the decoded slot, the address a load or
 * store accessed, the pc after it; then the model's count goes up.  The
 * cpu's cycle is the model's wherever the cpu can be seen (an entry that
 * may fault or read it, the loop's end).  So the model sees the same stream as
 * under the step, without a page and slot lookup, a count and two
 * indirect calls (the semantics', the model's through the timing table)
 * for each instruction.  An instruction that faults is not timed, as under
 * the step; a store or called instruction that drops its own block's code
 * is timed before the block stops.
 *
 * The counters' copy compares the model's head cycle sum with the PMU's
 * gate after each instruction, as the engine's step does (timing_step),
 * and leaves right after the one that reaches it, whatever its kind: a
 * block's last (a transfer) counts its run and leaves the cpu after it as
 * between blocks, any other leaves as after a store that dropped the
 * block's code (blocks_walk.h's `dropped`: the entries before the next
 * counted one by one).  The engine then delivers the interrupt, if one is
 * due, to that instruction (stop_pc), and runs its handler on the step.
 *
 * DISE's entries (a run with DISE, with counters or without, engine.c)
 * are the functional loop's (blocks_edit_entry.h): the count (edit.h),
 * then the instruction's own kind, timed (and with counters, tested at the
 * gate) as any other; where the count fails, the editor's miss, and the
 * instruction timed after it, unless a replacement took it
 * (cpu_t.replaced): then the loop leaves before it, untimed, as the
 * functional loop does, and the engine steps and times the edited stream
 * (an interrupt due meanwhile is the step's to deliver, run_edited).
 * The instructions the loop times are the program's own, with no DISE role
 * or decode penalty (those are the edited stream's, timed by the step),
 * so the model's entry is the one of a plain run (timing_block_insn).
 *
 * Left out: the fused pairs (the model is called between any two
 * instructions: the table of this copy has none).
 */
#include "blocks_edit_entry.h"

#define REG(r) (c->reg[r])
/* blocks_walk.h's hooks: the cpu's cycle is the model's where the cpu can be seen */
#define EVENT_AT (c->event_at)
#define SET_INSTRET(v) (c->instret = (v))
#define LEAVE_AFTER() leave_after(c, bs, b, pc, retired)
#define CPU_SEEN() (c->cycle = *cycles)
#define BLOCKS_WALK_HANDLER 0

static __attribute__((noinline, optimize("no-crossjumping", "no-gcse")))
uint64_t BLOCKS_TIMED_NAME(cpu_t *c, blocks_t *bs, truth_t *truth_given,
                           const block_timer_t *timer, uint64_t pc)
{
#define KIND_LABEL(k) [BK_##k] = &&do_##k,
    static const void *const dispatch[BK_COUNT] = { BLOCK_KINDS(KIND_LABEL) };
#undef KIND_LABEL
    truth_t *const truth = BLOCKS_TIMED_TRUTH ? truth_given : NULL;
    if (bs->code != dispatch) {             /* blocks_build's entries run this copy's code */
        if (bs->nblk > 1) empty_table(bs);  /* built for another copy */
        bs->code = dispatch;
        bs->fused = NULL;                   /* no fused pairs */
        bs->nfused = 0;
    }
    void (*const time_insn)(struct timing *, const insn_t *, uint64_t, uint64_t) =
        timer->time_insn;
    struct timing *const model = timer->model;
    uint64_t *const seq = timer->seq;
    const uint64_t *const cycles = timer->cycles;
    const mem_itlb_entry_t *itlb = c->mem->itlb;
    edit_view_t *edit = c->edit;            /* for BK_EDIT entries */
    mem_t *mem = c->mem;                    /* again after each called instruction */
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL;
    block_t *b, *nb;
    const block_entry_t *e;
    uint64_t retired = c->instret;          /* through b, in the cpu only when leaving */
    insn_t *in;
    uint32_t from = 0;                      /* the block before, to link to b (0: none) */
    uint64_t from_epoch = 0;                /* the links' epoch when it ended */
    uintptr_t way = 0;                      /* its link to set: block_t.link */
    see_code_epoch(bs, c->mem);

#define BLOCKS_WALK_PART 1
#include "blocks_walk.h"

/* As blocks_loop.h's: before an entry that may fault or read the cpu; and
 * the cpu's cycle, which only those read (a cycle counter's CSR), and the
 * ones after the loop: kept in the model until then, not after each. */
#define AT_ENTRY()                                    \
    do {                                              \
        bs->flight = b;                               \
        bs->flight_at = e;                            \
        pc = b->pc + e->offset;                       \
        c->stop_pc = pc;                              \
        c->pc = pc + e->len;                          \
        c->instret = retired - b->n + entry_index(bs, b, e); \
        c->cycle = *cycles;                           \
    } while (0)
/* The pc after an entry that does not transfer: the next entry's (a
 * block that ends without a transfer has its BK_END entry at its end). */
#define NEXT_PC (b->pc + e[1].offset)
/* The model times the entry just executed (timing_step). */
#define TIMED(addr, next_pc)                          \
    do {                                              \
        time_insn(model, e->in, (addr), (next_pc));   \
        ++*seq;                                       \
    } while (0)
/* Has it reached the counters' gate (the head cycle sum seq[2], the gate
 * seq[3]: block_timer_t)?  Then the loop leaves after it. */
#define GATED() (BLOCKS_TIMED_PMU && unlikely(seq[2] >= seq[3]))
/* An entry before the block's last: leaving, the next is where the pc is. */
#define TIME(addr, next_pc)                           \
    do {                                              \
        TIMED(addr, next_pc);                         \
        if (GATED()) { e++; goto dropped; }           \
    } while (0)
/* The block's last (a transfer), pc (or c->pc: gated_xfer) where it went. */
#define TIME_END(addr, next_pc, gated_label)          \
    do {                                              \
        TIMED(addr, next_pc);                         \
        if (GATED()) goto gated_label;                \
    } while (0)
#define NEXT()                                        \
    do {                                              \
        e++;                                          \
        goto *e->code;                                \
    } while (0)
/* after a store or a called instruction: did it drop this page's code? */
#define DROPPED()                                     \
    if (unlikely(!b->start->exec)) { e++; goto dropped; }
/* An instruction with no memory access: the address the model gets is
 * none (the in-order models read it for loads and stores only). */
#define ALU(expr) { REG(e->rd) = (uint64_t)(expr); TIME(0, NEXT_PC); NEXT(); }
#define CMOV(kind, cond)                                                          \
    do_##kind##_RR: if (cond) REG(e->rd) = REG(e->rs2); TIME(0, NEXT_PC); NEXT(); \
    do_##kind##_RI: if (cond) REG(e->rd) = (uint64_t)e->imm; TIME(0, NEXT_PC); NEXT();
#define ADDR (REG(e->rs1) + (uint64_t)e->imm)
#define ALIGNED8 (ADDR & ~7ull)
#define LOAD(bits, addr, expr)                                                   \
    {                                                                            \
        uint64_t a = addr, v;                                                    \
        if (unlikely(!mem_try_load##bits(mem, a, &v))) {                         \
            AT_ENTRY();                                                          \
            v = mem_load_slow(mem, a, bits / 8);                                 \
        }                                                                        \
        REG(e->rd) = (uint64_t)(expr);                                           \
        if (truth) mem_mark_touched(mem, a, bits / 8);                           \
        TIME(a, NEXT_PC);                                                        \
        NEXT();                                                                  \
    }
/* A store by the slow path may drop the block's code: it is timed (and
 * its word marked, as the step marks it) before the block stops there. */
#define STORE(bits, addr)                                                        \
    {                                                                            \
        uint64_t a = addr;                                                       \
        if (unlikely(!mem_try_store##bits(mem, a, REG(e->rs2)))) {                \
            AT_ENTRY();                                                          \
            mem_store_slow(mem, a, REG(e->rs2), bits / 8);                       \
            if (truth) mem_mark_touched(mem, a, bits / 8);                       \
            TIME(a, NEXT_PC);                                                    \
            DROPPED();                                                           \
            NEXT();                                                              \
        }                                                                        \
        if (truth) mem_mark_touched(mem, a, bits / 8);                           \
        TIME(a, NEXT_PC);                                                        \
        NEXT();                                                                  \
    }
/* a conditional branch, the block's last entry; e->imm is its target */
#define BRANCH(kind, cond)                                                       \
    do_##kind:                                                                   \
        if (cond) {                                                              \
            b->taken++;                                                          \
            pc = (uint64_t)e->imm;                                               \
            way = 1;                                                             \
        } else {                                                                 \
            pc = b->end;                                                         \
            way = 0;                                                             \
        }                                                                        \
        TIME_END(0, pc, gated_end);                                              \
        goto fixed_way;

/* DISE's kinds (blocks.h), blocks_loop.h's (blocks_edit_entry.h): the
 * count, then the own kind; the editor's miss where it fails; an
 * instruction that ran in the entry is timed after it. */
#define EDIT_XFER(k) do_EDIT_##k: BLOCKS_EDIT_COUNT(); goto do_##k;
    EDIT_XFER_KINDS(EDIT_XFER)
#undef EDIT_XFER

    BLOCKS_EDIT_ENTRIES(TIME_END(c->mem_addr, c->pc, gated_xfer), TIME(c->mem_addr, c->pc))

do_CALL:                                    /* the semantics function */
    AT_ENTRY();
    in = e->in;
    in->exec(c, in);
    mem = c->mem;
    if (truth && (in->flags & (IF_LOAD | IF_STORE)))
        mem_mark_touched(c->mem, c->mem_addr, in->memsize);
    TIME(c->mem_addr, c->pc);
    DROPPED();
    NEXT();

do_CALL_REG:                                /* needs no cpu state, cannot fault or drop code */
    in = e->in;
    in->exec(c, in);
    TIME(c->mem_addr, NEXT_PC);
    NEXT();

do_NOP:
    TIME(0, NEXT_PC);
    NEXT();

do_XFER:                                    /* a control transfer: the block's last */
    AT_ENTRY();
    in = e->in;
    in->exec(c, in);
    mem = c->mem;
    if (truth && (in->flags & (IF_LOAD | IF_STORE | IF_CALL))) {
        if (in->flags & IF_CALL) truth_record_call(truth, pc, c->pc);
        else mem_mark_touched(c->mem, c->mem_addr, in->memsize);
    }
    TIME_END(c->mem_addr, c->pc, gated_xfer);
    goto transferred;

do_ADD_RI:   ALU(REG(e->rs1) + (uint64_t)e->imm)
do_ADD_RR:   ALU(REG(e->rs1) + REG(e->rs2))
do_SUB_RR:   ALU(REG(e->rs1) - REG(e->rs2))
do_AND_RI:   ALU(REG(e->rs1) & (uint64_t)e->imm)
do_AND_RR:   ALU(REG(e->rs1) & REG(e->rs2))
do_OR_RI:    ALU(REG(e->rs1) | (uint64_t)e->imm)
do_OR_RR:    ALU(REG(e->rs1) | REG(e->rs2))
do_XOR_RI:   ALU(REG(e->rs1) ^ (uint64_t)e->imm)
do_XOR_RR:   ALU(REG(e->rs1) ^ REG(e->rs2))
do_SLL_RI:   ALU(REG(e->rs1) << (e->imm & 63))
do_SRL_RI:   ALU(REG(e->rs1) >> (e->imm & 63))
do_SRA_RI:   ALU((int64_t)REG(e->rs1) >> (e->imm & 63))
do_SLL_RR:   ALU(REG(e->rs1) << (REG(e->rs2) & 63))
do_SRL_RR:   ALU(REG(e->rs1) >> (REG(e->rs2) & 63))
do_SRA_RR:   ALU((int64_t)REG(e->rs1) >> (REG(e->rs2) & 63))
do_ADDW_RI:  ALU((int64_t)(int32_t)(uint32_t)(REG(e->rs1) + (uint64_t)e->imm))
do_ADDW_RR:  ALU((int64_t)(int32_t)(uint32_t)(REG(e->rs1) + REG(e->rs2)))
do_SUBW_RR:  ALU((int64_t)(int32_t)(uint32_t)(REG(e->rs1) - REG(e->rs2)))
do_LI:       ALU(e->imm)
do_AUIPC:    ALU(b->pc + e->offset + (uint64_t)e->imm)
do_SLT_RI:   ALU((int64_t)REG(e->rs1) < e->imm)
do_SLT_RR:   ALU((int64_t)REG(e->rs1) < (int64_t)REG(e->rs2))
do_SLTU_RI:  ALU(REG(e->rs1) < (uint64_t)e->imm)
do_SLTU_RR:  ALU(REG(e->rs1) < REG(e->rs2))
do_S4ADD_RI: ALU((REG(e->rs1) << 2) + (uint64_t)e->imm)
do_S4ADD_RR: ALU((REG(e->rs1) << 2) + REG(e->rs2))
do_S8ADD_RI: ALU((REG(e->rs1) << 3) + (uint64_t)e->imm)
do_S8ADD_RR: ALU((REG(e->rs1) << 3) + REG(e->rs2))
do_SEQ_RI:   ALU(REG(e->rs1) == (uint64_t)e->imm)
do_SEQ_RR:   ALU(REG(e->rs1) == REG(e->rs2))
do_SLE_RI:   ALU((int64_t)REG(e->rs1) <= e->imm)
do_SLE_RR:   ALU((int64_t)REG(e->rs1) <= (int64_t)REG(e->rs2))
do_SLEU_RI:  ALU(REG(e->rs1) <= (uint64_t)e->imm)
do_SLEU_RR:  ALU(REG(e->rs1) <= REG(e->rs2))
do_EXTB_RR:  ALU((REG(e->rs1) >> ((REG(e->rs2) & 7) * 8)) & 0xff)

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

do_LD8U:  LOAD(8, ADDR, v)
do_LD8S:  LOAD(8, ADDR, (int64_t)(int8_t)v)
do_LD16U: LOAD(16, ADDR, v)
do_LD16S: LOAD(16, ADDR, (int64_t)(int16_t)v)
do_LD32U: LOAD(32, ADDR, v)
do_LD32S: LOAD(32, ADDR, (int64_t)(int32_t)v)
do_LD64:  LOAD(64, ADDR, v)
do_LD64A: LOAD(64, ALIGNED8, v)

do_ST8:   STORE(8, ADDR)
do_ST16:  STORE(16, ADDR)
do_ST32:  STORE(32, ADDR)
do_ST64:  STORE(64, ADDR)
do_ST64A: STORE(64, ALIGNED8)

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

/* a jump, the block's last entry, to `target` (blocks_edit_entry.h), timed */
#define JUMP(kind, target, then)                                                 \
    do_##kind:                                                                   \
        BLOCKS_JUMP_BODY(target, TIME_END(0, t, gated_end); then)

    JUMP(JAL,  (uint64_t)e->imm, way = 1; goto fixed_way)
    JUMP(JALR, (REG(e->rs1) + (uint64_t)e->imm) & ~1ull, goto indirect)
    JUMP(JMP,  REG(e->rs1) & ~3ull, goto indirect)

/* an indirect call the editor records one by one (BK_EDIT_REC_<kind>):
 * BK_EDIT_<kind>, and the editor's record of the call, then timed */
    BLOCKS_JUMP_REC(JALR, (REG(e->rs1) + (uint64_t)e->imm) & ~1ull, TIME_END(0, t, gated_end))
    BLOCKS_JUMP_REC(JMP,  REG(e->rs1) & ~3ull, TIME_END(0, t, gated_end))

/* The counters' gate reached at a block's last instruction: its run
 * counted, the cpu as between blocks (no link to the next is made). */
gated_xfer:
    pc = c->pc;
gated_end:
    count_run(bs, b);
    LEAVE_AFTER();
    goto leave;

/* The entries before e retired, e did not: its replacement runs now (the
 * engine, which times it), e only as part of it; e is counted with those
 * before, as in blocks_loop.h. */
replaced:
    count_entries(bs, b, bs->flight_counted, entry_index(bs, b, e) + 1);
    pc = c->pc;
    goto leave;

#undef AT_ENTRY
#undef NEXT_PC
#undef TIMED
#undef GATED
#undef TIME
#undef TIME_END
#undef NEXT
#undef DROPPED
#undef ALU
#undef CMOV
#undef ADDR
#undef ALIGNED8
#undef LOAD
#undef STORE
#undef BRANCH
#undef JUMP

#define BLOCKS_WALK_PART 2
#include "blocks_walk.h"
}

#undef REG
#undef EVENT_AT
#undef SET_INSTRET
#undef LEAVE_AFTER
#undef CPU_SEEN
#undef BLOCKS_WALK_HANDLER
#undef BLOCKS_TIMED_NAME
#undef BLOCKS_TIMED_TRUTH
#undef BLOCKS_TIMED_PMU
