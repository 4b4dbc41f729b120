/*
 * blocks.h - decoded blocks for the functional core's fast run loop (the
 * engine's variants without a timing model, DISE, the PMU or a trace), and
 * for the same loop with a timing model timing each instruction
 * as it executes (blocks_execute_timed).
 *
 * A block is a straight run of one code page's decoded slots (core_loop.h)
 * up to and including the first control transfer; it stops before a
 * system call (which may deliver a signal, change the pc or end the run)
 * and at the page's end.  Its entries carry the operands, and the
 * commonest operations (BLOCK_KINDS: add, logic, shifts, compares, loads,
 * stores, conditional branches; Alpha's compares, byte extracts and
 * unaligned quadword accesses) run inline in the block loop, dispatched
 * by computed goto (each kind's code jumps to the next entry's; the
 * commonest pairs of adjacent kinds run the first's work and then a copy
 * of the second's, block_fused_t); the rest call their semantics function.  Blocks
 * follow one another in blocks_execute, without returning to the engine,
 * while the next one starts at a decoded slot (of a page in the code-page
 * cache, or after a block of one the loop looks up itself) and ends
 * before the run's next event (--max-insts, a signal or timer, the trace's
 * end, a single step of the shell); there, the engine's ordinary step
 * takes over, one instruction at a time.  A block remembers the blocks
 * that followed it (block_t.link), so that the next one is usually found
 * without the code-page cache and slot lookup; a link holds only within
 * one epoch of the memory's decoded code (mem_t.code_epoch) and of the
 * table (blocks_t.epoch).  A transfer whose link misses (a return to one
 * of many callers, an interpreter's dispatch) looks its target up in the
 * jump cache (blocks_t.jump: the blocks the loop found through the
 * code-page cache, by pc, valid in the same epochs) before it leaves the
 * chain.
 *
 * Exactness.  Each called semantics function (fences, CSR reads, traps)
 * runs with stop_pc (its own pc), pc (the fall-through) and instret (the
 * instructions retired before it) set, and so does an inline load's or
 * store's slow path (a page not in the TLB, a misaligned access), the
 * only part of it that may fault or drop code, so a fault inside a block
 * names the right pc with instret exact.  The TLB's fast path and the
 * inline ALU kinds cannot fault and read none of them.  Between blocks
 * the loop keeps the pc and the instructions retired to itself, and sets
 * stop_pc, pc and instret as the ordinary step leaves them when it
 * leaves.
 *
 * Counting.  A block counts its whole runs (block_t.runs_less1, and block_t.taken
 * for its conditional branch), not each instruction; blocks_settle adds them to the slots' counts (insn_t.count)
 * before anyone reads those: mem calls it before it drops or evicts
 * decoded code (mem_t.on_decoded_settle), the engine after each run.  A
 * run cut short (a fault, a store that drops the block's own code) counts
 * its instructions one by one, up to and including the one that stopped
 * it, as the ordinary loop does.
 *
 * Self-modifying code.  A store to a page with decoded instructions, and
 * fence.i / imb, zero the page's whole decoded array (mem.h); after each
 * store or called instruction a block looks at its first slot, and stops
 * there if it lost its semantics.  The block id kept in that slot
 * (insn_t.block) is zeroed with it, so the block is never entered again,
 * and the next visit builds one from the code decoded anew.
 */
#ifndef HPS_BLOCKS_H
#define HPS_BLOCKS_H

#include "core.h"
#include "truth.h"

#define BLOCK_NONE UINT32_MAX   /* insn_t.block: no block starts at this slot */
#define BLOCK_NO_RUNS UINT64_MAX    /* block_t.runs_less1: no runs to add */

/* What a block's entry does: end a block that ends without a transfer
 * (BK_END, after its last instruction), call the semantics function
 * (BK_CALL; BK_CALL_REG for those that read and write registers alone,
 * which need neither the cpu's pc nor its count and cannot fault or drop
 * code: the ISAs' block_reg_calls lists; BK_EDIT for an instruction DISE classified at decode: the
 * editor's common case, a count, is done in the loop (edit.h) and the
 * instruction then runs as its own kind, `own`; otherwise its semantics
 * are called, and the block ends when they set cpu_t.replaced;
 * BK_EDIT_INLINE for one whose own kind is inline and touches no memory:
 * after the count it goes straight to that kind; BK_EDIT_<kind> for one
 * whose own kind is an inline transfer, EDIT_XFER_KINDS below), or one
 * of the commonest operations, executed in the block loop itself.  Each
 * kind is defined on the decoded record's fields alone (rd, rs1, rs2, imm,
 * pc), exactly as the semantics functions that map to it (the ISAs'
 * tables below) compute; rd may be REG_SINK, rs1/rs2 REG_ZERO.  NOP does
 * nothing (hints, barriers); the conditional moves write rs2 (or imm) to
 * rd when rs1 meets the condition and leave rd as it is otherwise.  The kinds
 * from BEQ on go to the instruction's target (insn_t.target); the jumps
 * (JAL to the target, JALR to (rs1 + imm) & ~1, JMP to rs1 & ~3) write
 * the address after them to rd. */
#define BLOCK_KINDS(X) \
    X(END) X(CALL) X(CALL_REG) X(EDIT) X(EDIT_INLINE) \
    X(ADD_RI) X(ADD_RR) X(SUB_RR) X(AND_RI) X(AND_RR) X(OR_RI) X(OR_RR) X(XOR_RI) X(XOR_RR) \
    X(SLL_RI) X(SRL_RI) X(SRA_RI) X(SLL_RR) X(SRL_RR) X(SRA_RR) \
    X(ADDW_RI) X(ADDW_RR) X(SUBW_RR) X(LI) X(AUIPC) \
    X(SLT_RI) X(SLT_RR) X(SLTU_RI) X(SLTU_RR) \
    X(S4ADD_RI) X(S4ADD_RR) X(S8ADD_RI) X(S8ADD_RR) \
    X(SEQ_RI) X(SEQ_RR) X(SLE_RI) X(SLE_RR) X(SLEU_RI) X(SLEU_RR) X(EXTB_RR) X(NOP) \
    X(CMOVEQ_RR) X(CMOVEQ_RI) X(CMOVNE_RR) X(CMOVNE_RI) X(CMOVLT_RR) X(CMOVLT_RI) \
    X(CMOVGE_RR) X(CMOVGE_RI) X(CMOVLE_RR) X(CMOVLE_RI) X(CMOVGT_RR) X(CMOVGT_RI) \
    X(CMOVLBC_RR) X(CMOVLBC_RI) X(CMOVLBS_RR) X(CMOVLBS_RI) \
    X(LD8U) X(LD8S) X(LD16U) X(LD16S) X(LD32U) X(LD32S) X(LD64) X(LD64A) \
    X(ST8) X(ST16) X(ST32) X(ST64) X(ST64A) \
    X(JALR) X(JMP) X(XFER) X(BEQ) X(BNE) X(BLT) X(BGE) X(BLTU) X(BGEU) \
    X(BEQZ) X(BNEZ) X(BLTZ) X(BGEZ) X(BLEZ) X(BGTZ) X(BLBC) X(BLBS) X(JAL) \
    X(EDIT_BEQ) X(EDIT_BNE) X(EDIT_BLT) X(EDIT_BGE) X(EDIT_BLTU) X(EDIT_BGEU) \
    X(EDIT_BEQZ) X(EDIT_BNEZ) X(EDIT_BLTZ) X(EDIT_BGEZ) X(EDIT_BLEZ) X(EDIT_BGTZ) \
    X(EDIT_BLBC) X(EDIT_BLBS) X(EDIT_JAL) X(EDIT_JALR) X(EDIT_JMP) \
    X(EDIT_REC_JALR) X(EDIT_REC_JMP)
/* The inline transfers an instruction DISE classified may have as its own
 * kind (the sampling framework's calls and back-edges): each has a kind
 * BK_EDIT_<kind> (listed last in BLOCK_KINDS, in this order), which does
 * BK_EDIT_INLINE's count and then jumps straight to the transfer's code
 * instead of through `own` (blocks_loop.h).  An indirect call the editor
 * records one by one (edit.h: edit_records_call) whose own kind is JALR or
 * JMP is BK_EDIT_REC_<kind>: the same, and the editor's record_call after
 * the jump. */
#define EDIT_XFER_KINDS(X) \
    X(BEQ) X(BNE) X(BLT) X(BGE) X(BLTU) X(BGEU) \
    X(BEQZ) X(BNEZ) X(BLTZ) X(BGEZ) X(BLEZ) X(BGTZ) X(BLBC) X(BLBS) X(JAL) X(JALR) X(JMP)
#define BLOCK_KIND_ENUM(k) BK_##k,
typedef enum { BLOCK_KINDS(BLOCK_KIND_ENUM) BK_COUNT } block_kind_t;
#undef BLOCK_KIND_ENUM

/* An ISA's semantics functions that a kind replaces (rv64_blocks.c,
 * alpha_blocks.c); everything else is BK_CALL (BK_XFER for a transfer). */
typedef struct block_op {
    exec_fn exec;
    uint8_t kind;               /* block_kind_t */
} block_op_t;
extern const block_op_t rv64_block_ops[], alpha_block_ops[];
extern const size_t rv64_block_ops_count, alpha_block_ops_count;
/* Those whose kind's operand is a function of the instruction's imm
 * (Alpha's zapnot with a literal: an AND with the mask of the bytes it
 * keeps), computed once, when the block is built; the rest keep imm. */
typedef struct block_imm {
    exec_fn exec;
    int64_t (*entry_imm)(int64_t imm);
} block_imm_t;
extern const block_imm_t alpha_block_imms[];
extern const size_t alpha_block_imms_count;
/* Semantics functions that read only registers and the decoded record and
 * write only registers (BK_CALL_REG). */
extern const exec_fn rv64_block_reg_calls[], alpha_block_reg_calls[];
extern const size_t rv64_block_reg_calls_count, alpha_block_reg_calls_count;

/* One instruction of a block, with the operands the inline kinds use
 * copied from its slot, so that they need not touch the slot. */
typedef struct block_entry {
    const void *code;           /* the block loop's code for its kind          */
    insn_t *in;                 /* the decoded slot                            */
    int64_t imm;                /* its imm; a branch's: its target             */
    uint16_t offset;            /* its pc less the block's                     */
    uint8_t len, kind;          /* bytes; block_kind_t                         */
    uint8_t rd, rs1, rs2;
    uint8_t own;                /* a BK_EDIT entry's: the inline kind of the
                                   instruction's own semantics, or BK_EDIT when
                                   they have none (called); else its kind     */
} block_entry_t;

/* Two kinds the block loop runs as one, adjacent in a block: the first's
 * work, then a copy of the second's code placed after it (a transfer as
 * second: a direct jump to its code) (blocks.c, blocks_loop.h). */
typedef struct block_fused {
    uint8_t first, second;      /* block_kind_t */
    const void *code;
} block_fused_t;

typedef struct block {
    const insn_t *start;        /* the slot it starts at (checks insn_t.block) */
    uint64_t pc;                /* its first instruction's address             */
    uint64_t end;               /* the address after its last                  */
    uint64_t runs_less1;        /* whole runs not yet added to its slots' counts,
                                   less one (BLOCK_NO_RUNS: none; the block
                                   loop's add carries on the first) */
    uint64_t taken;             /* of those, the ones its conditional branch took
                                   (not yet in that slot's insn_t.taken)      */
    uint32_t n;                 /* instructions (its entries, but for BK_END)  */
    uint32_t first;             /* its first entry in blocks_t.entry           */
    const block_entry_t *entries;   /* blocks_t.entry + first (moved with it)  */
    /* the blocks that last followed it, found without the code-page cache:
     * [0] at its end (falling through), [1] elsewhere (a transfer's target);
     * valid while link_pc is the pc reached and link_epoch blocks_t.epoch */
    uint64_t link_pc[2];
    struct block *link[2];
    uint64_t link_epoch[2];     /* 64 bits: an epoch never comes round again */
} block_t;

/* The jump cache: blocks reached by a transfer whose link missed (an
 * indirect transfer to one of many targets: returns to many callers, an
 * interpreter's dispatch), by their pc; an entry holds while `epoch` is
 * blocks_t.epoch, as a link does.  32 bytes, so the index scales by a
 * shift. */
#define BLOCKS_JUMP_BITS 12
typedef struct block_jump {
    uint64_t pc;
    struct block *b;
    uint64_t epoch;
    uint64_t pad;
} block_jump_t;

typedef struct blocks {
    block_t *blk;               /* blk[0] is never a block: id 0 = none built  */
    uint32_t nblk, blk_cap;
    block_entry_t *entry;       /* the blocks' entries, one block after another */
    size_t nentry, entry_cap;
    uint32_t *pending;          /* ids of the blocks with runs not yet added   */
    size_t npending, pending_cap;
    /* the block running now (NULL between blocks), its entry running (set
     * by each entry that may fault, drop code or call, before it does), and
     * how many of its entries the slots' counts already include */
    const block_t *flight;
    const block_entry_t *flight_at;
    uint32_t flight_counted;
    const cpu_t *cpu;           /* the run attached (blocks_attach) and the   */
    mem_t *mem;                 /* memory whose settle hook it is, or NULL    */
    struct exec_class *classes; /* what it knows of each semantics function   */
    const void *const *code;    /* the block loop's code for each kind        */
    const block_fused_t *fused; /* and for its fused pairs                     */
    size_t nfused;
    /* the links' epoch (block_t.link): moved on when they may be stale,
     * when the table is emptied or moved, when the loop runs on another
     * memory and when its code_epoch moves (seen at the block loop's start,
     * and from the settle hook that
     * mem calls before it drops decoded code) */
    uint64_t epoch;
    uint64_t mem_epoch_seen;
    const mem_t *mem_seen;
    struct jit *jit;            /* the translator (jit.h) that runs them when no
                                   recorder is given, or NULL: the block loop */
    uint64_t built;             /* blocks built and times the table was emptied */
    uint64_t resets;
    block_jump_t jump[1u << BLOCKS_JUMP_BITS];  /* the jump cache, by jump_slot */
    uint64_t ran;               /* blocks_execute_handler's instructions run */
} blocks_t;

blocks_t *blocks_new(void);
void blocks_free(blocks_t *bs);
/* For the length of a run on c: the table becomes the settle hook of c's
 * memory (mem_t.on_decoded_settle); detached, it holds no counts back. */
void blocks_attach(blocks_t *bs, const cpu_t *c);
/* The same for memory m, which c runs at times (a table of the handler
 * runtime's code: blocks_execute_handler). */
void blocks_attach_mem(blocks_t *bs, const cpu_t *c, mem_t *m);
void blocks_detach(blocks_t *bs);

/* Add what the blocks counted to the decoded slots' counts (insn_t.count):
 * their whole runs, and the entries of the block in flight begun so far
 * (up to blocks_t.flight_at, the one running).  mem calls it before
 * anything reads or drops the counts; the run loop after every run. */
void blocks_settle(blocks_t *bs);
/* The run stopped (a fault, the guest's exit): the counts settled (the
 * entry that stopped it set the cpu's pc, stop_pc and instret); the block
 * in flight, if any, ends where it stopped. */
void blocks_stop(blocks_t *bs, cpu_t *c);

/* Build the block starting at slot `in` (decoded, of the page the run loop
 * is on); NULL when none starts there (the slot is not plain, or the run
 * reaches a slot not decoded yet: the ordinary step decodes it first). */
const block_t *blocks_build(blocks_t *bs, insn_t *in);

/* The block that starts at slot `in`, built on first use, or NULL. */
static inline const block_t *blocks_find(blocks_t *bs, insn_t *in)
{
    uint32_t id = in->block;
    if (likely(id < bs->nblk && bs->blk[id].start == in)) return &bs->blk[id];
    if (id == BLOCK_NONE) return NULL;
    return blocks_build(bs, in);
}

/* Run blocks from pc, one after another, while each found starts at a
 * decoded slot (the first of a page in the code-page cache, the next of one
 * the loop may look up as the ordinary step would) and ends before the run's
 * next event (c->event_at); returns the pc where the ordinary step must
 * take over (possibly pc itself, nothing run).  truth: the ground-truth
 * recorder to tell of calls and the data words touched, or NULL. */
uint64_t blocks_execute(cpu_t *c, blocks_t *bs, truth_t *truth, uint64_t pc);
/* The same through the block loop alone (blocks_execute hands a run
 * without a recorder to the translator when bs->jit is set). */
uint64_t blocks_interpret(cpu_t *c, blocks_t *bs, truth_t *truth, uint64_t pc);

/* A timing model that blocks_execute_timed hands each instruction to, as
 * the engine's step does (timing.h: timing_step): its entry, called with
 * the instruction just executed, the address a load or store accessed and
 * the pc after it; then its count of instructions timed goes up by one; the
 * cpu's cycle is its cycles wherever the cpu can be seen.  Only a model that reads nothing of
 * the cpu but these (and its registers and memory, which the loop keeps
 * in the cpu) may be (timing.h: timing_takes_blocks).  struct timing stays opaque here (a model is above this layer). */
struct timing;
typedef struct block_timer {
    void (*time_insn)(struct timing *t, const insn_t *in, uint64_t addr, uint64_t next_pc);
    struct timing *model;
    uint64_t *seq;              /* instructions timed                          */
    const uint64_t *cycles;     /* the model's cycles, into c->cycle after each */
    /* A run with performance counters (pmu.h): the model's head cycle sum
     * and the PMU's gate are compared after each instruction as the
     * engine's step compares them.  They are read as seq[2] and seq[3]
     * (the words after the count in the model's hot fields, timing.h:
     * engine.c asserts it), so the loop keeps one pointer for the three. */
    bool gated;
} block_timer_t;

/* blocks_execute with each instruction timed by `timer` right after it
 * executes (sim/blocks_timed_loop.h).  For a run without DISE: a block
 * with an entry DISE classified is never built then.  With `gated`, the
 * loop leaves right after the instruction whose head cycle sum reaches
 * the gate (an interrupt may be due there), the cpu as the step leaves it
 * after that instruction: its pc in stop_pc, instret counting it. */
uint64_t blocks_execute_timed(cpu_t *c, blocks_t *bs, truth_t *truth, const block_timer_t *timer,
                              uint64_t pc);

/* The same for a DISE handler's instructions in the handler runtime's
 * memory (c->mem), with a table of their own (bs, attached to that memory)
 * that the program's blocks never run: from pc until the handler's hps.ret
 * switches back to the program (then c->pc is the program's and the pc
 * returned, c->mem its memory), or until the next pc starts no block.  No
 * event stops it, and c->instret stays the program's: *ran says how many
 * of the handler's instructions ran (the caller counts them as the
 * runtime's).  A table with a translator (bs->jit, jit_for_handlers) runs
 * its translated code (jit_execute_handler), else the block loop's handler
 * copy. */
uint64_t blocks_execute_handler(cpu_t *c, blocks_t *bs, uint64_t pc, uint64_t *ran);

#endif /* HPS_BLOCKS_H */
