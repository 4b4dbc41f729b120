/*
 * blocks.c - the functional core's decoded blocks (blocks.h): the table of
 * blocks and their entries, grown as code is found and emptied whole when
 * it reaches its bound, and the block loops that execute them: the
 * functional core's (blocks_loop.h) and a timed run's (blocks_timed_loop.h).
 */
#include "blocks.h"

#include <stdio.h>
#include <stdlib.h>

#include "edit.h"
#include "jit.h"
#include "util.h"

/* The block id lives in the padding the record had anyway. */
_Static_assert(sizeof(insn_t) == 72, "insn_t grew: the decoded arrays grow with it");
/* block_entry_t.own took the entry's last spare byte. */
_Static_assert(sizeof(block_entry_t) == 32, "block_entry_t grew past 32 bytes");

#define BLOCKS_MAX_BLOCKS (1u << 20)   /* bounds of the table: past them it */
#define BLOCKS_MAX_ENTRIES (1u << 22)   /* is emptied and refilled            */

static void settle_hook(void *ctx);

/* The kinds that go on to the next entry (blocks_execute's K_<kind>). */
#define STRAIGHT_KINDS(X) \
    X(CALL) X(CALL_REG) X(NOP) \
    X(ADD_RI) X(ADD_RR) X(SUB_RR) X(AND_RI) X(AND_RR) X(OR_RI) X(OR_RR) X(XOR_RI) X(XOR_RR) \
    X(SLL_RI) X(SRL_RI) X(SRA_RI) X(SLL_RR) X(SRL_RR) X(SRA_RR) \
    X(ADDW_RI) X(ADDW_RR) X(SUBW_RR) X(LI) X(AUIPC) \
    X(SLT_RI) X(SLT_RR) X(SLTU_RI) X(SLTU_RR) \
    X(S4ADD_RI) X(S4ADD_RR) X(S8ADD_RI) X(S8ADD_RR) \
    X(SEQ_RI) X(SEQ_RR) X(SLE_RI) X(SLE_RR) X(SLEU_RI) X(SLEU_RR) X(EXTB_RR) \
    X(LD8U) X(LD8S) X(LD16U) X(LD16S) X(LD32U) X(LD32S) X(LD64) X(LD64A) \
    X(ST8) X(ST16) X(ST32) X(ST64) X(ST64A)

/* Pairs of kinds run as one (a straight kind, then any): the first's work
 * goes on into a copy of the second's code.  The commonest pairs of adjacent
 * entries over the workloads' `test` runs on both ISAs, most common first. */
#define FUSED_PAIRS(X) \
    X(LD64, LD64) X(ST64, ST64) X(ADD_RR, ADD_RR) X(LD64, ADD_RI) \
    X(SLL_RI, ADD_RR) X(ADD_RI, ADD_RI) X(ADD_RI, ST64) \
    X(ADD_RR, LD64) X(LD64, ADD_RR) X(ADD_RI, ADD_RR) X(ADD_RI, LD64) \
    X(ADD_RR, LD32S) X(LD64, ST64) X(ST64, OR_RR) X(ST64, LD64) \
    X(ST64, ADD_RI) X(LD32S, LD32S) X(ST64, ADD_RR) X(ADD_RR, ADD_RI) \
    X(OR_RR, ST64) X(ADD_RR, JAL) \
    X(ADD_RR, ST64) X(OR_RR, OR_RR) X(ADD_RR, SLL_RI) X(ADD_RI, BNE) \
    X(AUIPC, LD64) X(ADD_RI, LD32S) X(LD32S, ADD_RI) X(SEQ_RR, BEQZ) \
    X(LD64, SLL_RI) X(LD64A, EXTB_RR) X(LD32S, LD64) X(ADD_RI, BEQ) \
    X(ADD_RI, JALR) X(SLL_RI, SRL_RI) X(OR_RR, NOP) X(LD32S, ADDW_RI) \
    X(ADD_RI, JMP) X(LD32S, ADD_RR) X(OR_RR, LD64) \
    X(ADD_RR, LD8U) X(ADDW_RI, ADD_RI) X(AND_RR, AND_RR) \
    X(ADD_RI, LD64A) X(ADDW_RI, ADD_RR) X(ADD_RI, ADDW_RR) X(NOP, JAL) \
    X(LD8U, ADD_RI) X(LD64, LD32S) X(NOP, OR_RR) X(ADD_RR, ADDW_RI)

/* What the block loop knows of a semantics function: the kind that runs it
 * inline (else BK_CALL), whether it reads and writes registers alone
 * (BK_CALL_REG), and the function of imm its kind's operand is (or NULL).
 * Kept in an open-addressed table keyed by the function's address, filled
 * from the ISAs' lists when the table of blocks is made. */
typedef struct exec_class {
    exec_fn exec;               /* NULL: a free slot */
    uint8_t kind;
    bool reg_call;
    int64_t (*entry_imm)(int64_t imm);
} exec_class_t;

#define EXEC_CLASS_BITS 10      /* room for the lists (about 330 functions) */
#define EXEC_CLASSES (1u << EXEC_CLASS_BITS)

static const exec_class_t no_class = { .kind = BK_CALL };

static size_t exec_hash(exec_fn exec)
{
    return (size_t)(((uint64_t)(uintptr_t)exec * 0x9e3779b97f4a7c15ull) >> (64 - EXEC_CLASS_BITS));
}

/* exec's slot in the table: its own, or the free one where it would go. */
static exec_class_t *class_slot(exec_class_t *classes, exec_fn exec)
{
    size_t h = exec_hash(exec);
    while (classes[h].exec && classes[h].exec != exec) h = (h + 1) & (EXEC_CLASSES - 1);
    return &classes[h];
}

static exec_class_t *class_add(exec_class_t *classes, exec_fn exec)
{
    exec_class_t *x = class_slot(classes, exec);
    if (!x->exec) *x = (exec_class_t){ .exec = exec, .kind = BK_CALL };
    return x;
}

/* The first row of a list naming a function wins, as a search would find. */
static void add_ops(exec_class_t *classes, const block_op_t *ops, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        exec_class_t *x = class_slot(classes, ops[k].exec);
        if (!x->exec) *x = (exec_class_t){ .exec = ops[k].exec, .kind = ops[k].kind };
    }
}

static void add_reg_calls(exec_class_t *classes, const exec_fn *list, size_t n)
{
    for (size_t k = 0; k < n; k++) class_add(classes, list[k])->reg_call = true;
}

static void add_imms(exec_class_t *classes, const block_imm_t *imms, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        exec_class_t *x = class_add(classes, imms[k].exec);
        if (!x->entry_imm) x->entry_imm = imms[k].entry_imm;
    }
}

static exec_class_t *exec_classes_new(void)
{
    size_t total = rv64_block_ops_count + alpha_block_ops_count + rv64_block_reg_calls_count +
                   alpha_block_reg_calls_count + alpha_block_imms_count;
    if (total > EXEC_CLASSES / 2) {     /* the probes need free slots */
        fprintf(stderr, "blocks: EXEC_CLASS_BITS too small for %zu functions\n", total);
        abort();
    }
    exec_class_t *classes = xcalloc(EXEC_CLASSES, sizeof *classes);
    add_ops(classes, rv64_block_ops, rv64_block_ops_count);
    add_ops(classes, alpha_block_ops, alpha_block_ops_count);
    add_reg_calls(classes, rv64_block_reg_calls, rv64_block_reg_calls_count);
    add_reg_calls(classes, alpha_block_reg_calls, alpha_block_reg_calls_count);
    add_imms(classes, alpha_block_imms, alpha_block_imms_count);
    return classes;
}

static const exec_class_t *class_of(const blocks_t *bs, exec_fn exec)
{
    const exec_class_t *x = class_slot(bs->classes, exec);
    return x->exec ? x : &no_class;
}

blocks_t *blocks_new(void)
{
    blocks_t *bs = xcalloc(1, sizeof *bs);
    bs->blk_cap = 1024;
    bs->blk = xcalloc(bs->blk_cap, sizeof *bs->blk);
    bs->nblk = 1;                       /* id 0: none built */
    bs->entry_cap = 16384;
    bs->entry = xcalloc(bs->entry_cap, sizeof *bs->entry);
    bs->classes = exec_classes_new();
    return bs;
}

void blocks_free(blocks_t *bs)
{
    if (!bs) return;
    jit_free(bs->jit);
    free(bs->blk);
    free(bs->entry);
    free(bs->pending);
    free(bs->classes);
    free(bs);
}

/* ---- counting ---------------------------------------------------------------------- */

/* One more execution of entries [from, to) of b, in their slots. */
static void count_entries(const blocks_t *bs, const block_t *b, uint32_t from, uint32_t to)
{
    const block_entry_t *e = bs->entry + b->first;
    for (uint32_t k = from; k < to; k++) e[k].in->count++;
}

/* b's runs that took its conditional branch, into the branch's slot. */
static void flush_taken(const blocks_t *bs, block_t *b)
{
    if (b->taken == 0) return;
    bs->entry[b->first + b->n - 1].in->taken += b->taken;
    b->taken = 0;
}

/* The whole runs of every block, into the slots. */
static void flush_runs(blocks_t *bs)
{
    for (size_t p = 0; p < bs->npending; p++) {
        block_t *b = &bs->blk[bs->pending[p]];
        const block_entry_t *e = bs->entry + b->first;
        uint64_t runs = b->runs_less1 + 1;      /* none: 0 */
        for (uint32_t k = 0; k < b->n; k++) e[k].in->count += runs;
        b->runs_less1 = BLOCK_NO_RUNS;
        flush_taken(bs, b);
    }
    bs->npending = 0;
}

/* b's first run since the last flush: remember to flush it. */
static __attribute__((noinline)) void note_pending(blocks_t *bs, const block_t *b)
{
    if (bs->npending == bs->pending_cap) {
        bs->pending_cap = bs->pending_cap ? 2 * bs->pending_cap : 256;
        bs->pending = xrealloc(bs->pending, bs->pending_cap * sizeof *bs->pending);
    }
    bs->pending[bs->npending++] = (uint32_t)(b - bs->blk);
}

/* The index of entry e in its block b. */
static uint32_t entry_index(const blocks_t *bs, const block_t *b, const block_entry_t *e)
{
    return (uint32_t)(e - (bs->entry + b->first));
}

/* The index in its block of the entry running. */
static uint32_t flight_index(const blocks_t *bs)
{
    return entry_index(bs, bs->flight, bs->flight_at);
}

/* b, the block in flight, ran whole for the first time since the last
 * flush (count_run, which counted the run): it is noted, or if it was
 * settled part-way (which flushed its runs, so that this path is taken),
 * the run is not one of its runs (none again) but the rest of its
 * entries, counted one by one. */
static __attribute__((noinline)) void first_run(blocks_t *bs, block_t *b)
{
    if (bs->flight_counted == 0) {
        note_pending(bs, b);
        return;
    }
    b->runs_less1 = BLOCK_NO_RUNS;
    count_entries(bs, b, bs->flight_counted, b->n);
    flush_taken(bs, b);
    bs->flight_counted = 0;
}

/* One whole run of b, the block in flight, counted: an add to memory
 * whose carry tells the first since the last flush (none: all ones). */
static inline void count_run(blocks_t *bs, block_t *b)
{
    if (unlikely(++b->runs_less1 == 0)) first_run(bs, b);   /* from BLOCK_NO_RUNS */
}

void blocks_settle(blocks_t *bs)
{
    if (bs->flight) {                   /* entries begun: up to the one running */
        uint32_t begun = flight_index(bs) + 1;
        if (begun > bs->flight->n) begun = bs->flight->n;
        count_entries(bs, bs->flight, bs->flight_counted, begun);
        if (begun > bs->flight_counted) bs->flight_counted = begun;
    }
    flush_runs(bs);
}

static bool memory_kind(uint8_t kind)
{
    return kind >= BK_LD8U && kind <= BK_ST64A;
}

void blocks_stop(blocks_t *bs, cpu_t *c)
{
    blocks_settle(bs);
    bs->flight = NULL;
    bs->flight_counted = 0;
}

/* mem's hook: it is about to read or drop the decoded slots' counts. */
static void settle_hook(void *ctx)
{
    blocks_t *bs = ctx;
    blocks_settle(bs);
    bs->epoch++;                        /* decoded code may be about to go */
}

void blocks_attach(blocks_t *bs, const cpu_t *c)
{
    blocks_attach_mem(bs, c, c->mem);
}

void blocks_attach_mem(blocks_t *bs, const cpu_t *c, mem_t *m)
{
    bs->cpu = c;
    bs->mem = m;
    bs->mem->on_decoded_settle = settle_hook;
    bs->mem->on_decoded_settle_ctx = bs;
}

void blocks_detach(blocks_t *bs)
{
    blocks_settle(bs);                  /* none in flight: blocks_stop ended it */
    bs->flight = NULL;
    if (bs->mem->on_decoded_settle_ctx == bs) {
        bs->mem->on_decoded_settle = NULL;
        bs->mem->on_decoded_settle_ctx = NULL;
    }
    bs->mem = NULL;
    bs->cpu = NULL;
}

/* May this instruction sit inside a block?  Not if it needs the run loop
 * after it: a system call (it may deliver a signal, change the pc, end
 * the run).  Fences, CSR accesses and traps may: each is called with the
 * cpu's pc and instret exact, and a fence.i / imb that drops the block's
 * own code ends it.  A control transfer may, as the block's last.  So may
 * one DISE classified (BK_EDIT): a replacement that starts instead of it
 * ends the block there. */
static bool plain(const insn_t *in)
{
    return !(in->flags & (IF_TRANSFER | IF_SYSCALL | IF_DISE));
}

static bool ends_block(const insn_t *in)
{
    return (in->flags & IF_TRANSFER) && !(in->flags & (IF_SYSCALL | IF_DISE));
}

/* The instructions of the block from `in`: its plain ones, and the control
 * transfer after them, up to the page's end; -1 when a slot before then
 * is not decoded yet. */
static long plain_run(const insn_t *in)
{
    long n = 0;
    uint64_t pc = in->pc;
    for (;;) {
        if (!in->exec) return -1;
        if (ends_block(in)) return n + 1;
        if (!plain(in)) return n;
        n++;
        uint64_t next = pc + in->len;
        if ((next ^ pc) & ~GUEST_PAGE_MASK) return n;
        in += in->len >> 1;             /* slots are one per 2-byte parcel */
        pc = next;
    }
}

/* Every block gone (between blocks: none in flight), their runs counted;
 * the ids left in slots then fail blocks_find's check and are built again. */
static void empty_table(blocks_t *bs)
{
    flush_runs(bs);
    bs->nblk = 1;
    bs->nentry = 0;
    bs->resets++;
    bs->epoch++;
}

/* Room for a block of n instructions, emptying the table when full. */
static void make_room(blocks_t *bs, size_t n)
{
    if (bs->nblk == BLOCKS_MAX_BLOCKS || bs->nentry + n > BLOCKS_MAX_ENTRIES) empty_table(bs);
    if (bs->nblk == bs->blk_cap) {
        bs->blk_cap *= 2;
        bs->blk = xrealloc(bs->blk, bs->blk_cap * sizeof *bs->blk);
        bs->epoch++;                    /* the links point into the old table */
    }
    if (bs->nentry + n > bs->entry_cap) {
        while (bs->nentry + n > bs->entry_cap) bs->entry_cap *= 2;
        bs->entry = xrealloc(bs->entry, bs->entry_cap * sizeof *bs->entry);
        for (uint32_t k = 1; k < bs->nblk; k++) bs->blk[k].entries = bs->entry + bs->blk[k].first;
    }
}

/* The kind that executes semantics `exec` inline, else BK_XFER for a
 * control transfer and BK_CALL for the rest. */
static uint8_t kind_of_exec(const blocks_t *bs, exec_fn exec, uint16_t flags)
{
    uint8_t k = class_of(bs, exec)->kind;
    return k == BK_CALL && (flags & IF_TRANSFER) ? BK_XFER : k;
}

static uint8_t kind_of(const blocks_t *bs, const insn_t *in)
{
    if (in->dise) return BK_EDIT;
    uint8_t k = kind_of_exec(bs, in->exec, in->flags);
    return k == BK_CALL && class_of(bs, in->exec)->reg_call ? BK_CALL_REG : k;
}

/* The semantics an entry runs as its own kind: the instruction's, or for
 * one the editor classified, those the editor's count leaves it (edit.h). */
static exec_fn own_exec_of(const blocks_t *bs, const insn_t *in)
{
    const edit_view_t *v = bs->cpu ? bs->cpu->edit : NULL;
    if (!in->dise || !v) return in->exec;
    return edit_records_call(v, in) ? v->plain_exec(v, in) : edit_own_exec(v, in);
}

/* An instruction the editor classified (BK_EDIT): the inline kind of its
 * own semantics, which the entry runs after the editor's common-case count
 * (edit.h); BK_EDIT when it has none (the entry calls them). */
static uint8_t own_kind_of(const blocks_t *bs, const insn_t *in)
{
    if (!in->dise || !bs->cpu || !bs->cpu->edit) return BK_EDIT;
    uint8_t k = kind_of_exec(bs, own_exec_of(bs, in), in->flags);
    return k == BK_CALL || k == BK_XFER ? BK_EDIT : k;
}

/* The kind of an entry the editor classified whose own kind `own` is
 * inline and touches no memory: BK_EDIT_<own> for a transfer, else
 * BK_EDIT_INLINE. */
static uint8_t edit_inline_kind(uint8_t own)
{
#define EDIT_XFER_CASE(k) case BK_##k: return BK_EDIT_##k;
    switch (own) {
    EDIT_XFER_KINDS(EDIT_XFER_CASE)
    default: return BK_EDIT_INLINE;
    }
#undef EDIT_XFER_CASE
}

/* The kind and own kind (*kind, *own) of an entry the editor classified
 * (BK_EDIT): see BLOCK_KINDS.  A call it records one by one runs inline
 * only as BK_EDIT_REC_<kind>; else its semantics are called (own BK_EDIT),
 * which record it. */
static void edit_kinds(const blocks_t *bs, const insn_t *in, uint8_t *kind, uint8_t *own)
{
    *own = own_kind_of(bs, in);
    if (*own == BK_EDIT) return;
    if (edit_records_call(bs->cpu->edit, in)) {
        if (*own == BK_JALR) *kind = BK_EDIT_REC_JALR;
        else if (*own == BK_JMP) *kind = BK_EDIT_REC_JMP;
        else *own = BK_EDIT;            /* never its own kind alone: the record */
        return;
    }
    if (!memory_kind(*own)) *kind = edit_inline_kind(*own);
}

/* The operand an entry of kind `own` keeps in block_entry_t.imm: a
 * branch's target, an imm its table row computes from, or the imm. */
static int64_t entry_imm(const blocks_t *bs, const insn_t *in, uint8_t own)
{
    if (own >= BK_BEQ) return (int64_t)in->target;
    if (own == BK_CALL || own == BK_XFER || own == BK_EDIT) return in->imm;
    const exec_class_t *x = class_of(bs, own_exec_of(bs, in));
    return x->entry_imm ? x->entry_imm(in->imm) : in->imm;
}

/* The code that runs kinds `first` and `second` as one, or NULL. */
static const void *fused_code(const blocks_t *bs, uint8_t first, uint8_t second)
{
    for (size_t k = 0; k < bs->nfused; k++)
        if (bs->fused[k].first == first && bs->fused[k].second == second) return bs->fused[k].code;
    return NULL;
}

/* Entries that begin a fused pair run its code, which goes on to the
 * second's own (so the second is never fused with the one after it). */
static void fuse_pairs(const blocks_t *bs, block_entry_t *e, uint32_t n)
{
    for (uint32_t k = 0; k + 1 < n; k++) {
        const void *code = fused_code(bs, e[k].kind, e[k + 1].kind);
        if (code) {
            e[k].code = code;
            k++;
        }
    }
}

const block_t *blocks_build(blocks_t *bs, insn_t *in)
{
    long n = plain_run(in);
    if (n < 0) return NULL;             /* built on a later visit */
    if (n == 0) {                       /* a system call */
        in->block = BLOCK_NONE;
        return NULL;
    }
    make_room(bs, (size_t)n + 1);
    block_t *b = &bs->blk[bs->nblk];
    *b = (block_t){ .start = in, .pc = in->pc, .runs_less1 = BLOCK_NO_RUNS, .n = (uint32_t)n,
                    .first = (uint32_t)bs->nentry,
                    .entries = bs->entry + bs->nentry };
    insn_t *slot = in;
    for (long k = 0; k < n; k++) {
        uint8_t kind = kind_of(bs, slot), own = kind;
        if (kind == BK_EDIT) edit_kinds(bs, slot, &kind, &own);
        bs->entry[bs->nentry++] = (block_entry_t){
            .code = bs->code ? bs->code[kind] : NULL, .in = slot, .imm = entry_imm(bs, slot, own),
            .offset = (uint16_t)(slot->pc - in->pc), .len = slot->len, .kind = kind, .own = own,
            .rd = slot->rd, .rs1 = slot->rs1, .rs2 = slot->rs2 };
        b->end = slot->pc + slot->len;
        slot += slot->len >> 1;
    }
    if (!(bs->entry[bs->nentry - 1].in->flags & IF_TRANSFER))
        bs->entry[bs->nentry++] = (block_entry_t){ .code = bs->code ? bs->code[BK_END] : NULL, .kind = BK_END,
                                                   .offset = (uint16_t)(b->end - in->pc) };
    fuse_pairs(bs, bs->entry + b->first, (uint32_t)(bs->nentry - b->first));
    in->block = bs->nblk++;
    bs->built++;
    return b;
}


/* ---- the block loop ------------------------------------------------------------------ */

/* After `from` (link [way]) came `to`. */
static void link_block(const blocks_t *bs, block_t *from, uintptr_t way, block_t *to)
{
    from->link_pc[way] = to->pc;
    from->link[way] = to;
    from->link_epoch[way] = bs->epoch;
}

/* pc's entry in the jump cache (RISC-V code is 2-byte aligned). */
static inline block_jump_t *jump_slot(blocks_t *bs, uint64_t pc)
{
    return &bs->jump[(pc >> 1) & ((1u << BLOCKS_JUMP_BITS) - 1)];
}

/* b, found at pc through the code-page cache, for later transfers there
 * whose link misses. */
static inline void remember_jump(blocks_t *bs, uint64_t pc, block_t *b)
{
    *jump_slot(bs, pc) = (block_jump_t){ .pc = pc, .b = b, .epoch = bs->epoch };
}

/* Links made in another memory (the guest runtime's has its own), or
 * before this one's code epoch moved, are stale. */
static void see_code_epoch(blocks_t *bs, const mem_t *m)
{
    if (bs->mem_seen != m || bs->mem_epoch_seen != m->code_epoch) {
        bs->mem_seen = m;
        bs->mem_epoch_seen = m->code_epoch;
        bs->epoch++;
    }
}

/* The address of b's last instruction. */
static uint64_t last_pc(const blocks_t *bs, const block_t *b)
{
    return b->pc + bs->entry[b->first + b->n - 1].offset;
}

/* The cpu as the ordinary step leaves it after b, its last one: run to
 * pc, `retired` instructions retired in all.  Inside the block loop only
 * a called instruction or a fault reads them, and those set them first. */
static void leave_after(cpu_t *c, const blocks_t *bs, const block_t *b, uint64_t pc,
                        uint64_t retired)
{
    c->stop_pc = last_pc(bs, b);
    c->pc = pc;
    c->instret = retired;
}

/* leave_after for a handler's blocks: c->instret stays the program's. */
static void leave_at(cpu_t *c, const blocks_t *bs, const block_t *b, uint64_t pc)
{
    c->stop_pc = last_pc(bs, b);
    c->pc = pc;
}

/* The decoded slots of pc's page, not in the code-page cache, after a
 * block the loop left the cpu after (leave_after): as the ordinary step
 * would find them (mem_decoded_page, which may fault on the page or drop
 * other pages' code), with no block in flight. */
static __attribute__((noinline)) insn_t *page_after_block(blocks_t *bs, cpu_t *c, uint64_t pc)
{
    bs->flight = NULL;
    bs->flight_counted = 0;
    return mem_decoded_page(c->mem, pc);
}

/* The block loop, three times: the program's with the ground-truth
 * recorder and without, and a DISE handler's. */
#define BLOCKS_LOOP_NAME execute_with_truth
#define BLOCKS_LOOP_TRUTH 1
#define BLOCKS_LOOP_HANDLER 0
#include "blocks_loop.h"
#define BLOCKS_LOOP_NAME execute_plain
#define BLOCKS_LOOP_TRUTH 0
#define BLOCKS_LOOP_HANDLER 0
#include "blocks_loop.h"
#define BLOCKS_LOOP_NAME execute_handler
#define BLOCKS_LOOP_TRUTH 0
#define BLOCKS_LOOP_HANDLER 1
#include "blocks_loop.h"

uint64_t blocks_interpret(cpu_t *c, blocks_t *bs, truth_t *truth, uint64_t pc)
{
    return truth ? execute_with_truth(c, bs, truth, pc) : execute_plain(c, bs, NULL, pc);
}

uint64_t blocks_execute(cpu_t *c, blocks_t *bs, truth_t *truth, uint64_t pc)
{
    if (bs->jit) return jit_execute(bs->jit, c, bs, truth, pc);
    return blocks_interpret(c, bs, truth, pc);
}

/* ---- for the translator (jit.h): the block loop's steps between blocks ---- */

void blocks_jit_see_code_epoch(blocks_t *bs, const mem_t *m) { see_code_epoch(bs, m); }

insn_t *blocks_jit_page_after(blocks_t *bs, cpu_t *c, uint64_t pc)
{
    return page_after_block(bs, c, pc);
}

void blocks_jit_found(blocks_t *bs, uint64_t pc, block_t *b) { remember_jump(bs, pc, b); }

void blocks_jit_link(const blocks_t *bs, block_t *from, uintptr_t way, block_t *to)
{
    link_block(bs, from, way, to);
}

block_t *blocks_jit_jump_lookup(blocks_t *bs, uint64_t pc)
{
    const block_jump_t *j = jump_slot(bs, pc);
    return j->pc == pc && j->epoch == bs->epoch ? j->b : NULL;
}

void blocks_jit_leave_after(cpu_t *c, const blocks_t *bs, const block_t *b, uint64_t pc,
                            uint64_t retired)
{
    leave_after(c, bs, b, pc, retired);
}

void blocks_jit_first_run(blocks_t *bs, block_t *b) { first_run(bs, b); }

uint64_t blocks_jit_dropped(cpu_t *c, blocks_t *bs, const block_t *b, uint32_t k, uint64_t retired)
{
    const block_entry_t *e = b->entries + k;   /* as the block loop's `dropped` */
    count_entries(bs, b, bs->flight_counted, k);
    uint64_t pc = k == b->n ? b->end : b->pc + e->offset;
    c->stop_pc = b->pc + e[-1].offset;
    c->pc = pc;
    c->instret = retired - b->n + k;
    return pc;
}

void blocks_jit_replaced(blocks_t *bs, const block_t *b, uint32_t k)
{
    count_entries(bs, b, bs->flight_counted, k + 1);   /* as the block loop's `replaced` */
}

/* The timed block loop, four times: with the ground-truth recorder and
 * without, with performance counters (the gate after each instruction)
 * and without. */
#define BLOCKS_TIMED_NAME execute_timed_with_truth
#define BLOCKS_TIMED_TRUTH 1
#define BLOCKS_TIMED_PMU 0
#include "blocks_timed_loop.h"
#define BLOCKS_TIMED_NAME execute_timed_plain
#define BLOCKS_TIMED_TRUTH 0
#define BLOCKS_TIMED_PMU 0
#include "blocks_timed_loop.h"
#define BLOCKS_TIMED_NAME execute_timed_pmu_with_truth
#define BLOCKS_TIMED_TRUTH 1
#define BLOCKS_TIMED_PMU 1
#include "blocks_timed_loop.h"
#define BLOCKS_TIMED_NAME execute_timed_pmu_plain
#define BLOCKS_TIMED_TRUTH 0
#define BLOCKS_TIMED_PMU 1
#include "blocks_timed_loop.h"

uint64_t blocks_execute_timed(cpu_t *c, blocks_t *bs, truth_t *truth, const block_timer_t *timer,
                              uint64_t pc)
{
    if (timer->gated)
        return truth ? execute_timed_pmu_with_truth(c, bs, truth, timer, pc)
                     : execute_timed_pmu_plain(c, bs, NULL, timer, pc);
    return truth ? execute_timed_with_truth(c, bs, truth, timer, pc)
                 : execute_timed_plain(c, bs, NULL, timer, pc);
}

uint64_t blocks_execute_handler(cpu_t *c, blocks_t *bs, uint64_t pc, uint64_t *ran)
{
    if (bs->jit) return jit_execute_handler(bs->jit, c, bs, pc, ran);
    pc = execute_handler(c, bs, NULL, pc);
    *ran = bs->ran;
    return pc;
}
