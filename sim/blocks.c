/*
 * blocks.c - the functional core's decoded blocks (blocks.h): the table of
 * blocks and their entries, grown as code is found and emptied whole when
 * it reaches its bound, and the block loop that executes them.
 */
#include "blocks.h"

#include <stdlib.h>

#include "edit.h"
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
 * jumps straight to the second's code.  The commonest pairs of adjacent
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

blocks_t *blocks_new(void)
{
    blocks_t *bs = xcalloc(1, sizeof *bs);
    bs->blk_cap = 1024;
    bs->blk = xcalloc(bs->blk_cap, sizeof *bs->blk);
    bs->nblk = 1;                       /* id 0: none built */
    bs->entry_cap = 16384;
    bs->entry = xcalloc(bs->entry_cap, sizeof *bs->entry);
    return bs;
}

void blocks_free(blocks_t *bs)
{
    if (!bs) return;
    free(bs->blk);
    free(bs->entry);
    free(bs->pending);
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
        for (uint32_t k = 0; k < b->n; k++) e[k].in->count += b->runs;
        b->runs = 0;
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
 * flush (count_run): it is noted, or if it was settled part-way (which
 * flushed its runs, so that this path is taken), the run is not one of
 * its runs but the rest of its entries, counted one by one. */
static __attribute__((noinline)) void first_run(blocks_t *bs, block_t *b)
{
    if (bs->flight_counted == 0) {
        note_pending(bs, b);
        return;
    }
    b->runs = 0;
    count_entries(bs, b, bs->flight_counted, b->n);
    flush_taken(bs, b);
    bs->flight_counted = 0;
}

/* One whole run of b, the block in flight, counted. */
static inline void count_run(blocks_t *bs, block_t *b)
{
    if (unlikely(b->runs++ == 0)) first_run(bs, b);
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
    bs->cpu = c;
    bs->mem = c->mem;
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

/* Room for a block of n instructions, emptying the table when full (the
 * ids left in slots then fail blocks_find's check and are built again). */
static void make_room(blocks_t *bs, size_t n)
{
    if (bs->nblk == BLOCKS_MAX_BLOCKS || bs->nentry + n > BLOCKS_MAX_ENTRIES) {
        flush_runs(bs);                 /* between blocks: none in flight */
        bs->nblk = 1;
        bs->nentry = 0;
        bs->resets++;
        bs->epoch++;
    }
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
static uint8_t kind_of_exec(exec_fn exec, uint16_t flags)
{
    for (size_t k = 0; k < rv64_block_ops_count; k++)
        if (rv64_block_ops[k].exec == exec) return rv64_block_ops[k].kind;
    for (size_t k = 0; k < alpha_block_ops_count; k++)
        if (alpha_block_ops[k].exec == exec) return alpha_block_ops[k].kind;
    return flags & IF_TRANSFER ? BK_XFER : BK_CALL;
}

static bool in_list(const exec_fn *list, size_t n, exec_fn exec)
{
    for (size_t k = 0; k < n; k++)
        if (list[k] == exec) return true;
    return false;
}

/* Called semantics that need no cpu state set (BK_CALL_REG). */
static bool reads_registers_only(exec_fn exec)
{
    return in_list(rv64_block_reg_calls, rv64_block_reg_calls_count, exec) ||
           in_list(alpha_block_reg_calls, alpha_block_reg_calls_count, exec);
}

static uint8_t kind_of(const insn_t *in)
{
    if (in->dise) return BK_EDIT;
    uint8_t k = kind_of_exec(in->exec, in->flags);
    return k == BK_CALL && reads_registers_only(in->exec) ? BK_CALL_REG : k;
}

/* The semantics an entry runs as its own kind: the instruction's, or for
 * one the editor classified, those the editor's count leaves it (edit.h). */
static exec_fn own_exec_of(const blocks_t *bs, const insn_t *in)
{
    const edit_view_t *v = bs->cpu ? bs->cpu->edit : NULL;
    return in->dise && v ? edit_own_exec(v, in) : in->exec;
}

/* An instruction the editor classified (BK_EDIT): the inline kind of its
 * own semantics, which the entry runs after the editor's common-case count
 * (edit.h); BK_EDIT when it has none (the entry calls them). */
static uint8_t own_kind_of(const blocks_t *bs, const insn_t *in)
{
    if (!in->dise || !bs->cpu || !bs->cpu->edit) return BK_EDIT;
    uint8_t k = kind_of_exec(own_exec_of(bs, in), in->flags);
    return k == BK_CALL || k == BK_XFER ? BK_EDIT : k;
}

/* The operand an entry of kind `own` keeps in block_entry_t.imm: a
 * branch's target, an imm its table row computes from, or the imm. */
static int64_t entry_imm(const blocks_t *bs, const insn_t *in, uint8_t own)
{
    if (own >= BK_BEQ) return (int64_t)in->target;
    if (own == BK_CALL || own == BK_XFER || own == BK_EDIT) return in->imm;
    exec_fn exec = own_exec_of(bs, in);
    for (size_t k = 0; k < alpha_block_imms_count; k++)
        if (alpha_block_imms[k].exec == exec) return alpha_block_imms[k].entry_imm(in->imm);
    return in->imm;
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
    *b = (block_t){ .start = in, .pc = in->pc, .n = (uint32_t)n, .first = (uint32_t)bs->nentry,
                    .entries = bs->entry + bs->nentry };
    insn_t *slot = in;
    for (long k = 0; k < n; k++) {
        uint8_t kind = kind_of(slot), own = kind == BK_EDIT ? own_kind_of(bs, slot) : kind;
        if (kind == BK_EDIT && own != BK_EDIT && !memory_kind(own)) kind = BK_EDIT_INLINE;
        bs->entry[bs->nentry++] = (block_entry_t){
            .code = bs->code[kind], .in = slot, .imm = entry_imm(bs, slot, own),
            .offset = (uint16_t)(slot->pc - in->pc), .len = slot->len, .kind = kind, .own = own,
            .rd = slot->rd, .rs1 = slot->rs1, .rs2 = slot->rs2 };
        b->end = slot->pc + slot->len;
        slot += slot->len >> 1;
    }
    if (!(bs->entry[bs->nentry - 1].in->flags & IF_TRANSFER))
        bs->entry[bs->nentry++] = (block_entry_t){ .code = bs->code[BK_END], .kind = BK_END,
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

#define REG(r) (c->reg[r])

/* Each kind ends in a jump of its own to the next entry's code (not merged
 * into a shared one: the host predicts each better); without global CSE,
 * which GCC's manual advises for computed gotos (it hoisted an address
 * computation into every dispatch). */
__attribute__((optimize("no-crossjumping", "no-gcse")))
uint64_t blocks_execute(cpu_t *c, blocks_t *bs, truth_t *truth, uint64_t pc)
{
#define KIND_LABEL(k) [BK_##k] = &&do_##k,
    static const void *const dispatch[BK_COUNT] = { BLOCK_KINDS(KIND_LABEL) };
#undef KIND_LABEL
#define FUSED_ROW(k1, k2) { BK_##k1, BK_##k2, &&do_##k1##__##k2 },
    static const block_fused_t fused[] = { FUSED_PAIRS(FUSED_ROW) };
#undef FUSED_ROW
    bs->code = dispatch;                    /* for blocks_build's entries */
    bs->fused = fused;
    bs->nfused = sizeof fused / sizeof fused[0];
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

next_block:
    if ((pc & ~GUEST_PAGE_MASK) != page_base) {     /* through the code-page cache only */
        uint64_t vpn = pc >> GUEST_PAGE_SHIFT;
        const mem_itlb_entry_t *it = &itlb[vpn & (MEM_ITLB_SIZE - 1)];
        if (it->tag != vpn) goto leave;
        slots = it->slots;
        page_base = pc & ~GUEST_PAGE_MASK;
    }
    in = &slots[(pc & GUEST_PAGE_MASK) >> 1];
    if (!in->exec || in->block == BLOCK_NONE) goto leave;
    b = (block_t *)blocks_find(bs, in);
    if (!b) goto leave;
    if (from && bs->epoch == from_epoch) link_block(bs, &bs->blk[from], way, b);
    if (retired + b->n > c->event_at) goto leave;
    retired += b->n;
enter:                                      /* b starts at pc; retired counts it */
    e = b->entries;
    goto *e->code;

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
        c->instret = retired - b->n + entry_index(bs, b, e); \
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
 * does (AT_ENTRY), and a store's checks the block's code after it. */
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
            DROPPED();                                                           \
        }                                                                        \
        if (truth) mem_mark_touched(mem, a, bits / 8);                           \
        then;                                                                    \
    }
/* a conditional branch, the block's last entry; e->imm is its target,
 * always reached by link [1] (the end by link [0]) */
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
        goto fixed_way;

#define K_CALL(then)                                                             \
    {                                                                            \
        AT_ENTRY();                                                              \
        in = e->in;                                                              \
        in->exec(c, in);                                                         \
        mem = c->mem;                                                            \
        DROPPED();                                                               \
        if (truth && (in->flags & (IF_LOAD | IF_STORE)))                         \
            mem_mark_touched(c->mem, c->mem_addr, in->memsize);                  \
        then;                                                                    \
    }
/* CALL_REG: needs no cpu state, cannot fault or drop code */
#define K_CALL_REG(then) { in = e->in; in->exec(c, in); then; }
#define K_NOP(then) { then; }

do_EDIT_INLINE:                             /* as do_EDIT, its own kind inline, no memory */
    if (likely(edit_try_uniform(edit)) || likely(edit_try_count(edit, e->in) != NULL))
        goto *dispatch[e->own];
    in = e->in;
    goto edit_semantics;

do_EDIT: {                                  /* DISE classified it: it may not retire */
    in = e->in;
    const edit_count_t *x = edit_try_uniform(edit) ? edit_record(edit, in) : edit_try_count(edit, in);
    if (likely(x != NULL) && e->own != BK_EDIT) {   /* counted: it runs as without DISE, inline */
        goto *dispatch[e->own];
    }
    if (likely(x != NULL)) {                /* counted: its own semantics */
        AT_ENTRY();
        x->exec(c, in);
    } else {                                /* DISE's */
edit_semantics:
        AT_ENTRY();
        c->replaced = false;
        in->exec(c, in);
        if (unlikely(c->replaced)) goto replaced;
    }
    mem = c->mem;
}
    if (in->flags & IF_TRANSFER) {          /* the block's last, as do_XFER */
        if (truth && (in->flags & IF_CALL)) truth_record_call(truth, pc, c->pc);
        else if (truth && (in->flags & (IF_LOAD | IF_STORE)))
            mem_mark_touched(c->mem, c->mem_addr, in->memsize);
        goto transferred;
    }
    DROPPED();                              /* as do_CALL */
    if (truth && (in->flags & (IF_LOAD | IF_STORE)))
        mem_mark_touched(c->mem, c->mem_addr, in->memsize);
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

#define OWN_CODE(k) do_##k: K_##k(NEXT())
#define FUSED_CODE(k1, k2) do_##k1##__##k2: K_##k1(e++; goto do_##k2)
    STRAIGHT_KINDS(OWN_CODE)
    FUSED_PAIRS(FUSED_CODE)
#undef OWN_CODE
#undef FUSED_CODE

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
    do_##kind: {                                                                 \
        uint64_t t = target;                                                     \
        REG(e->rd) = b->end;                                                     \
        if (truth && (e->in->flags & IF_CALL))                                   \
            truth_record_call(truth, b->pc + e->offset, t);                      \
        b->taken++;                                                              \
        pc = t;                                                                  \
        then;                                                                    \
    }

    JUMP(JAL,  (uint64_t)e->imm, way = 1; goto fixed_way)
    JUMP(JALR, (REG(e->rs1) + (uint64_t)e->imm) & ~1ull, goto indirect)
    JUMP(JMP,  REG(e->rs1) & ~3ull, goto indirect)

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
#undef JUMP

do_END:                                     /* ran to the page's end or a system call */
    pc = b->end;
    way = 0;
fixed_way:                                  /* link [way] always reaches pc */
    count_run(bs, b);
    if (likely(b->link_epoch[way] == bs->epoch)) goto linked;
    goto unlinked;

transferred:                                /* the transfer wrote c->pc */
    pc = c->pc;
indirect:                                   /* to pc, whichever it is */
    count_run(bs, b);
    way = pc != b->end;
    if (b->link_pc[way] != pc || b->link_epoch[way] != bs->epoch) goto unlinked;
linked:
    nb = b->link[way];
    if (unlikely(retired + nb->n > c->event_at)) {
        leave_after(c, bs, b, pc, retired);
        goto leave;
    }
    retired += nb->n;
    b = nb;
    goto enter;
unlinked:
    leave_after(c, bs, b, pc, retired);
    if (unlikely(retired >= c->event_at)) goto leave;
    from = (uint32_t)(b - bs->blk);
    from_epoch = bs->epoch;
    goto next_block;

replaced:                                   /* the entries before e retired, e did not: */
    /* its replacement runs now (the engine), e only as part of it.  e is
     * counted with those before: the replacement took back the count the
     * ordinary step gives an instruction before it runs (dise/engine.c). */
    count_entries(bs, b, bs->flight_counted, entry_index(bs, b, e) + 1);
    pc = c->pc;
    goto leave;

dropped: {                                  /* the entries before e ran, the last dropped the code */
    uint32_t k = entry_index(bs, b, e);
    count_entries(bs, b, bs->flight_counted, k);
    pc = b->pc + e->offset;                 /* a BK_END entry's is the block's end */
    if (k == b->n) pc = b->end;
    c->stop_pc = b->pc + e[-1].offset;      /* the one that dropped it */
    c->pc = pc;
    c->instret = retired - b->n + k;
}
leave:
    bs->flight = NULL;
    bs->flight_counted = 0;
    return pc;
}
