/*
 * jit_x86.c - a template translator from the functional core's decoded
 * blocks (blocks.h) to x86-64 host code, run in place of the block loop
 * (blocks_loop.h): the functional core's default where the run allows it,
 * --jit to insist, --no-jit to keep the block loop (jit.h).
 *
 * Design constraints (the contract this file keeps):
 *  - x86-64 hosts only (elsewhere jit_supported says why: an explicit
 *    --jit is refused, exit 2, the default quietly runs the block loop),
 *    and only where the engine runs blocks (RUNS_BLOCKS: the functional
 *    core, with the ground-truth recorder or without); the options refuse
 *    the rest for --jit and leave it to the block loop by default.
 *  - Exactly the block loop's behaviour: the same instret, the same stop
 *    before c->event_at (--max-insts exact: each block's code checks
 *    retired + n against it before it runs), precise faults (every entry
 *    that may fault, call or drop code first sets bs->flight, flight_at and
 *    the cpu's stop_pc, pc and instret as the loop's AT_ENTRY does),
 *    self-modifying code (after a store's slow path or a call the block's
 *    first slot is checked, as DROPPED does; translations of a block die
 *    with it: they are keyed by block id and emptied when the table is
 *    emptied or moved, and every chain is guarded by the table's epoch,
 *    which moves whenever decoded code may go).  An instruction DISE
 *    classified runs as the block loop's BK_EDIT kinds run it: the
 *    editor's uniform count-down in line, then its own kind; its miss
 *    called out of line (the editor's trip, edit.h), and a replacement it
 *    starts leaves to C (EXIT_REPLACED) with the counts as the block loop's
 *    `replaced`.  A DISE handler runtime's table has a translator of its
 *    own (jit_for_handlers, jit_execute_handler): as the block loop's
 *    handler copy, no event check, the program's instret untouched, and
 *    out to C after a called transfer, where hps.ret switches memory.
 *  - Every kind is translated: the inline ones as host code (ALU
 *    reg-reg/imm, li/auipc, compares, conditional moves, loads and stores
 *    through an inline form of mem_try_load/store's TLB fast path with the
 *    slow path called, conditional branches, jal/jalr/jmp); the rest call
 *    the instruction's semantics (in->exec(c, in)) with K_CALL's
 *    bookkeeping (or K_CALL_REG's).
 *  - W^X: the code cache is a memfd mapped twice, once read-write (where
 *    the emitter writes and chains are patched) and once read-execute
 *    (where it runs); no mapping is ever both.  The cache is bounded and
 *    emptied whole when full.  Only this emitter writes it: guest data is
 *    never executed, and the guest reaches memory only through the TLB
 *    (mem_t.rtlb/wtlb, which hold only pages mem mapped for it) or
 *    mem_load_slow/mem_store_slow: confinement is unchanged.
 *  - Chaining: a block's end on a fixed way (fall-through, a branch's
 *    target, jal) jumps straight to its successor's code, a jump patched
 *    once the C side found the link, guarded by the table's epoch at the
 *    time of patching; an indirect transfer looks its target up in a
 *    small jump cache of translated entries (by pc, valid in one epoch).
 *    Every block's code starts with the event_at check.
 *
 * Registers while translated code runs: rbx the cpu, rbp the run state
 * (jit_state_t), r12 the table of blocks, r13 the block running, r14 the
 * instructions retired through it (the block loop's `retired`), r15 the
 * memory (reloaded after every called instruction).
 */
#include "jit.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#if defined(__x86_64__) && defined(__linux__)

#include "alpha.h"                      /* the Alpha operates translated inline */
#include "alpha_bytes.h"
#include "edit.h"                       /* DISE's classified instructions */

#include <sys/mman.h>
#include <unistd.h>

#define JIT_CODE_SIZE (64u << 20)       /* the code cache, emptied when full
                                           (HPS_JIT_CACHE_KB makes it smaller:
                                           the tests' way to empty it often)   */
#define JIT_MAX_SITES (1u << 20)        /* patchable chains, likewise           */
#define JIT_JC_BITS 12                  /* the jump cache of translated entries */
#define JIT_ENTRY_MAX 384               /* bytes an entry's code may take, its
                                           out-of-line paths included
                                           (tests/unit/test_jit.c: the longest stores
                                           and loads fit in 224) */
#define JIT_BLOCK_MAX 512               /* and a block's ends                   */

enum { EXIT_COUNTED = 1, EXIT_EVENT = 2, EXIT_DROPPED = 3, EXIT_REPLACED = 4 };

typedef struct jit_jc {
    uint64_t pc;
    const uint8_t *code;                /* the block's checked entry            */
    uint64_t epoch;                     /* blocks_t.epoch when it was filled    */
    uint64_t pad;
} jit_jc_t;
_Static_assert(sizeof(jit_jc_t) == 32, "the jump cache's index scales by 32");

/* What rbp points at: the state the trampoline loads and the exits store. */
typedef struct jit_state {
    blocks_t *bs;                       /* r12 */
    block_t *b;                         /* r13 */
    uint64_t retired;                   /* r14 */
    uint64_t pc;                        /* rdx at an exit */
    uint32_t reason;                    /* eax at an exit: EXIT_* */
    uint32_t way;                       /* ecx: the way (COUNTED) or entry (DROPPED) */
    int64_t site;                       /* the chain a COUNTED exit came from, or -1 */
    uint64_t epoch_seen;                /* blocks_t.epoch the patched chains are of */
    uint64_t addr;                      /* a slow access's address, for the recorder */
    jit_jc_t jc[1u << JIT_JC_BITS];
} jit_state_t;

/* A chain: the jmp's rel32 in the code, where it goes until patched (out
 * to C), and whether it is patched now. */
typedef struct jit_site {
    uint32_t patch;
    uint32_t out;
    uint32_t live;
} jit_site_t;

struct jit {
    int fd;
    uint8_t *rw, *rx;                   /* the code cache's two views           */
    size_t size;                        /* bytes of code cache                  */
    size_t used;
    size_t tramp_end;                   /* the trampoline's bytes, never emptied */
    size_t epilogue;
    jit_site_t *sites;
    uint32_t nsites;
    uint32_t *patched;                  /* the live sites                       */
    uint32_t npatched;
    uint32_t *check, *body;             /* per block id: its code's offsets, 0 none */
    size_t cap;
    const block_t *blk_seen;            /* the table the translations are of    */
    truth_t *truth;                     /* the recorder they tell (NULL: none)  */
    uint64_t resets_seen;
    uint64_t generation;                /* moved by each emptying               */
    jit_state_t *st;
    jit_stats_t stats;
    bool clean;                         /* nothing translated since the last emptying */
    bool handler;                       /* a DISE handler's table (jit_execute_handler):
                                           no event check, the program's instret
                                           untouched, out to C after a called
                                           transfer (hps.ret may switch memory) */
    /* a handler table's: the block its last run started with, at pc, and its
     * body, while the table's epoch and the code cache's generation last */
    uint64_t entry_pc, entry_epoch, entry_generation;
    block_t *entry_b;
    uint32_t entry_body;
};

typedef uint32_t (*enter_fn)(cpu_t *c, jit_state_t *st, const uint8_t *code);

bool jit_supported(const char **why)
{
    if (why) *why = NULL;
    return true;
}

/* ---- the emitter ------------------------------------------------------------------ */

enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9, R10, R11, R12, R13, R14, R15 };
enum { CC_B = 2, CC_AE = 3, CC_E = 4, CC_NE = 5, CC_BE = 6, CC_A = 7, CC_S = 8, CC_NS = 9,
       CC_L = 12, CC_GE = 13, CC_LE = 14, CC_G = 15 };
enum { ALU_ADD = 0, ALU_OR = 1, ALU_AND = 4, ALU_SUB = 5, ALU_XOR = 6, ALU_CMP = 7 };
enum { SH_SHL = 4, SH_SHR = 5, SH_SAR = 7 };

typedef struct emit {
    uint8_t *p;                         /* in the read-write view */
    uint8_t *start;
    size_t base;                        /* start's offset in the cache */
} emit_t;

static size_t here(const emit_t *e) { return e->base + (size_t)(e->p - e->start); }
static void b1(emit_t *e, unsigned v) { *e->p++ = (uint8_t)v; }
static void b4(emit_t *e, uint32_t v) { memcpy(e->p, &v, 4); e->p += 4; }
static void b8(emit_t *e, uint64_t v) { memcpy(e->p, &v, 8); e->p += 8; }
static bool fits32(int64_t v) { return v == (int32_t)v; }

/* An opcode of one byte, or two (0x0Fxx). */
static void opcode(emit_t *e, unsigned op)
{
    if (op > 0xff) b1(e, op >> 8);
    b1(e, op & 0xff);
}

static void rex(emit_t *e, int w, int reg, int rm, bool force)
{
    unsigned r = 0x40 | (w ? 8 : 0) | ((reg >> 3) & 1) << 2 | ((rm >> 3) & 1);
    if (r != 0x40 || force) b1(e, r);
}

/* op reg, [base + disp] (or the other way round, as the opcode says) */
static void op_m(emit_t *e, int w, unsigned op, int reg, int base, int32_t disp)
{
    rex(e, w, reg, base, false);
    opcode(e, op);
    int mod = disp == 0 && (base & 7) != RBP ? 0 : disp >= -128 && disp <= 127 ? 1 : 2;
    b1(e, (unsigned)(mod << 6 | (reg & 7) << 3 | (base & 7)));
    if ((base & 7) == RSP) b1(e, 0x24);
    if (mod == 1) b1(e, (uint8_t)disp);
    else if (mod == 2) b4(e, (uint32_t)disp);
}

/* op reg, [base + index + disp] */
static void op_mi(emit_t *e, int w, unsigned op, int reg, int base, int index, int32_t disp)
{
    b1(e, 0x40 | (w ? 8 : 0) | ((reg >> 3) & 1) << 2 | ((index >> 3) & 1) << 1 | ((base >> 3) & 1));
    opcode(e, op);
    int mod = disp == 0 && (base & 7) != RBP ? 0 : disp >= -128 && disp <= 127 ? 1 : 2;
    b1(e, (unsigned)(mod << 6 | (reg & 7) << 3 | 4));
    b1(e, (unsigned)((index & 7) << 3 | (base & 7)));
    if (mod == 1) b1(e, (uint8_t)disp);
    else if (mod == 2) b4(e, (uint32_t)disp);
}

/* op reg, rm (registers) */
static void op_r(emit_t *e, int w, unsigned op, int reg, int rm)
{
    rex(e, w, reg, rm, false);
    opcode(e, op);
    b1(e, (unsigned)(0xc0 | (reg & 7) << 3 | (rm & 7)));
}

static void load(emit_t *e, int reg, int base, int32_t disp) { op_m(e, 1, 0x8b, reg, base, disp); }
static void store(emit_t *e, int reg, int base, int32_t disp) { op_m(e, 1, 0x89, reg, base, disp); }
static void mov_rr(emit_t *e, int dst, int src) { op_r(e, 1, 0x89, src, dst); }

static void mov_imm(emit_t *e, int reg, uint64_t v)
{
    if (fits32((int64_t)v)) {           /* mov r64, simm32 */
        rex(e, 1, 0, reg, false);
        b1(e, 0xc7);
        b1(e, 0xc0 | (reg & 7));
        b4(e, (uint32_t)v);
    } else if (v <= UINT32_MAX) {       /* mov r32, imm32 (zero-extended) */
        rex(e, 0, 0, reg, false);
        b1(e, 0xb8 + (reg & 7));
        b4(e, (uint32_t)v);
    } else {
        rex(e, 1, 0, reg, false);
        b1(e, 0xb8 + (reg & 7));
        b8(e, v);
    }
}

/* op reg, imm (through rcx when it does not fit 32 bits; reg is not rcx then) */
static void alu_imm(emit_t *e, int alu, int reg, int64_t imm)
{
    if (fits32(imm)) {
        rex(e, 1, 0, reg, false);
        if (imm >= -128 && imm <= 127) {
            b1(e, 0x83);
            b1(e, (unsigned)(0xc0 | alu << 3 | (reg & 7)));
            b1(e, (uint8_t)imm);
        } else {
            b1(e, 0x81);
            b1(e, (unsigned)(0xc0 | alu << 3 | (reg & 7)));
            b4(e, (uint32_t)imm);
        }
        return;
    }
    mov_imm(e, RCX, (uint64_t)imm);
    op_r(e, 1, (unsigned)(alu << 3 | 3), reg, RCX);
}

static void shift_imm(emit_t *e, int sh, int reg, unsigned n)
{
    rex(e, 1, 0, reg, false);
    b1(e, 0xc1);
    b1(e, (unsigned)(0xc0 | sh << 3 | (reg & 7)));
    b1(e, n & 63);
}

/* 32-bit shift of reg by n */
static void shift_imm32(emit_t *e, int sh, int reg, unsigned n)
{
    rex(e, 0, 0, reg, false);
    b1(e, 0xc1);
    b1(e, (unsigned)(0xc0 | sh << 3 | (reg & 7)));
    b1(e, n & 31);
}

static void call_abs(emit_t *e, const void *fn)
{
    mov_imm(e, RAX, (uint64_t)(uintptr_t)fn);
    b1(e, 0xff);                        /* call rax */
    b1(e, 0xd0);
}

/* jcc / jmp rel32: returns the rel32's offset, to bind later */
static size_t jcc(emit_t *e, int cc)
{
    b1(e, 0x0f);
    b1(e, 0x80 + (unsigned)cc);
    size_t at = here(e);
    b4(e, 0);
    return at;
}

static size_t jmp(emit_t *e)
{
    b1(e, 0xe9);
    size_t at = here(e);
    b4(e, 0);
    return at;
}

static void bind_to(emit_t *e, size_t at, size_t target)
{
    int32_t rel = (int32_t)((int64_t)target - (int64_t)(at + 4));
    memcpy(e->start + (at - e->base), &rel, 4);
}

static void bind(emit_t *e, size_t at) { bind_to(e, at, here(e)); }

static void jmp_to(emit_t *e, size_t target) { bind_to(e, jmp(e), target); }

static int32_t reg_off(unsigned r) { return (int32_t)(offsetof(cpu_t, reg) + 8 * r); }

/* ---- the trampoline ------------------------------------------------------------------ */

/* enter(c, st, code): the callee-saved registers kept, the run's loaded,
 * then a jump to code; the epilogue stores them back and returns eax. */
static void emit_trampoline(jit_t *j)
{
    emit_t e = { .p = j->rw, .start = j->rw, .base = 0 };
    b1(&e, 0x55);                       /* push rbp, rbx, r12-r15 */
    b1(&e, 0x53);
    b1(&e, 0x41); b1(&e, 0x54);
    b1(&e, 0x41); b1(&e, 0x55);
    b1(&e, 0x41); b1(&e, 0x56);
    b1(&e, 0x41); b1(&e, 0x57);
    alu_imm(&e, ALU_SUB, RSP, 8);       /* calls from translated code: aligned */
    mov_rr(&e, RBX, RDI);
    mov_rr(&e, RBP, RSI);
    load(&e, R12, RBP, offsetof(jit_state_t, bs));
    load(&e, R13, RBP, offsetof(jit_state_t, b));
    load(&e, R14, RBP, offsetof(jit_state_t, retired));
    load(&e, R15, RBX, offsetof(cpu_t, mem));
    b1(&e, 0xff);                       /* jmp rdx */
    b1(&e, 0xe2);
    j->epilogue = here(&e);
    store(&e, R13, RBP, offsetof(jit_state_t, b));
    store(&e, R14, RBP, offsetof(jit_state_t, retired));
    store(&e, RDX, RBP, offsetof(jit_state_t, pc));
    op_m(&e, 0, 0x89, RAX, RBP, offsetof(jit_state_t, reason));
    op_m(&e, 0, 0x89, RCX, RBP, offsetof(jit_state_t, way));
    alu_imm(&e, ALU_ADD, RSP, 8);
    b1(&e, 0x41); b1(&e, 0x5f);         /* pop r15-r12, rbx, rbp */
    b1(&e, 0x41); b1(&e, 0x5e);
    b1(&e, 0x41); b1(&e, 0x5d);
    b1(&e, 0x41); b1(&e, 0x5c);
    b1(&e, 0x5b);
    b1(&e, 0x5d);
    b1(&e, 0xc3);
    j->tramp_end = j->used = (here(&e) + 63) & ~(size_t)63;
}

/* ---- translating a block -------------------------------------------------------------- */

/* An out-of-line path of an entry, emitted after the block's main line. */
typedef struct cold {
    uint8_t what;                       /* COLD_* */
    uint8_t kind;
    uint32_t k;                         /* the entry */
    size_t from;                        /* the jcc into it */
    size_t back;                        /* where it returns (0: it does not) */
    uint64_t arg;
} cold_t;
enum { COLD_LOAD, COLD_STORE, COLD_DROPPED, COLD_FIRST_RUN, COLD_FIRST_RUN_RDX, COLD_EVENT,
       COLD_EDIT, COLD_REPLACED };

typedef struct tr {
    jit_t *j;
    truth_t *truth;                     /* the recorder the code tells, or NULL */
    blocks_t *bs;
    const block_t *b;
    emit_t e;
    cold_t *cold;                       /* the block's out-of-line paths, emitted */
    size_t ncold, cold_cap;             /* after its main line, in this order     */
    int held;                           /* the guest register rax holds as the entry
                                           starts (its value is also in c->reg[]), -1 none */
    int after;                          /* the same, as the entry ends (set by those
                                           that leave rd's new value in rax)       */
} tr_t;

/* host = guest register r, from rax when the entry started with it there
 * (no reload of the store just made); only before the entry writes rax. */
static void reg_in(tr_t *t, int host, unsigned r)
{
    if (t->held == (int)r) {
        if (host != RAX) mov_rr(&t->e, host, RAX);
    } else {
        load(&t->e, host, RBX, reg_off(r));
    }
}

/* rd = rax, which the next entry may take from rax */
static void rd_out(tr_t *t, unsigned rd)
{
    store(&t->e, RAX, RBX, reg_off(rd));
    t->after = (int)rd;
}

static void add_cold(tr_t *t, uint8_t what, uint8_t kind, uint32_t k, size_t from, size_t back,
                     uint64_t arg)
{
    if (t->ncold == t->cold_cap) {      /* translate_block's bound is wrong: a bug */
        fprintf(stderr, "jit: more out-of-line paths than the bound of %zu\n", t->cold_cap);
        abort();
    }
    t->cold[t->ncold++] = (cold_t){ .what = what, .kind = kind, .k = k, .from = from,
                                      .back = back, .arg = arg };
}

/* ---- the ground-truth recorder (a run with --stats): what the block loop's
 * copy with the recorder (BLOCKS_LOOP_TRUTH) tells it, at the same points:
 * the data words each load and store touches (after the access, a slow
 * store's before its dropped-code check), those of a called instruction that
 * accesses memory (c->mem_addr, its memsize), and each call's site and
 * target (a jump or a called transfer with IF_CALL). */
static void jit_touch(mem_t *m, uint64_t addr, unsigned size) { mem_mark_touched(m, addr, size); }
static void jit_record_call(truth_t *truth, uint64_t site, uint64_t target)
{
    truth_record_call(truth, site, target);
}

/* mark [rsi, rsi + size) touched (everything but the callee-saved registers goes) */
static void touch_rsi(tr_t *t, unsigned size)
{
    emit_t *e = &t->e;
    mov_rr(e, RDI, R15);
    mov_imm(e, RDX, size);
    call_abs(e, (const void *)jit_touch);
}

/* a call from site to the target in rdx (kept) */
static void record_call_rdx(tr_t *t, uint64_t site)
{
    emit_t *e = &t->e;
    b1(e, 0x52); b1(e, 0x52);           /* push rdx x2: the stack stays aligned */
    mov_imm(e, RDI, (uint64_t)(uintptr_t)t->truth);
    mov_imm(e, RSI, site);
    call_abs(e, (const void *)jit_record_call);
    b1(e, 0x5a); b1(e, 0x5a);
}

/* after a called instruction: what the recorder is told of it (the block
 * loop's K_CALL and XFER); a transfer's call first, else its data */
static void record_called(tr_t *t, const block_entry_t *en)
{
    emit_t *e = &t->e;
    const insn_t *in = en->in;
    if (!t->truth) return;
    if ((in->flags & IF_CALL) && (in->flags & IF_TRANSFER) && en->kind == BK_XFER) {
        load(e, RDX, RBX, offsetof(cpu_t, pc));
        record_call_rdx(t, t->b->pc + en->offset);
    } else if (in->flags & (IF_LOAD | IF_STORE)) {
        load(e, RSI, RBX, offsetof(cpu_t, mem_addr));
        touch_rsi(t, in->memsize);
    }
}

/* The block loop's AT_ENTRY for entry k (rax only). */
static void at_entry(tr_t *t, uint32_t k)
{
    emit_t *e = &t->e;
    const block_entry_t *en = &t->b->entries[k];
    uint64_t pc = t->b->pc + en->offset;
    store(e, R13, R12, offsetof(blocks_t, flight));
    load(e, RAX, R13, offsetof(block_t, entries));
    alu_imm(e, ALU_ADD, RAX, (int64_t)k * (int64_t)sizeof(block_entry_t));
    store(e, RAX, R12, offsetof(blocks_t, flight_at));
    mov_imm(e, RAX, pc);
    store(e, RAX, RBX, offsetof(cpu_t, stop_pc));
    alu_imm(e, ALU_ADD, RAX, en->len);
    store(e, RAX, RBX, offsetof(cpu_t, pc));
    if (t->j->handler) return;          /* the handler copy's SET_INSTRET: none */
    op_m(e, 1, 0x8d, RAX, R14, (int32_t)k - (int32_t)t->b->n);   /* lea */
    store(e, RAX, RBX, offsetof(cpu_t, instret));
}

/* After a called function (which may drop decoded code, moving the
 * table's epoch): the chains patched in an older epoch are undone before
 * the next one is followed (jit_epoch_moved), in line, as a call. */
static void jit_epoch_moved(jit_t *j);
static void epoch_check(tr_t *t)
{
    emit_t *e = &t->e;
    load(e, RAX, R12, offsetof(blocks_t, epoch));
    op_m(e, 1, 0x3b, RAX, RBP, offsetof(jit_state_t, epoch_seen));
    size_t same = jcc(e, CC_E);
    mov_imm(e, RDI, (uint64_t)(uintptr_t)t->j);
    call_abs(e, (const void *)jit_epoch_moved);
    bind(e, same);
}

/* DROPPED(): the block's first slot lost its semantics: leave at entry k. */
static void dropped_check(tr_t *t, uint32_t k)
{
    emit_t *e = &t->e;
    mov_imm(e, RAX, (uint64_t)(uintptr_t)t->b->start);
    op_m(e, 1, 0x83, ALU_CMP, RAX, offsetof(insn_t, exec));
    b1(e, 0);
    add_cold(t, COLD_DROPPED, 0, k, jcc(e, CC_E), 0, 0);
}

/* rdi = cpu, rsi = in; call in->exec (K_CALL / K_CALL_REG / XFER) */
static void call_semantics(tr_t *t, const insn_t *in)
{
    emit_t *e = &t->e;
    mov_rr(e, RDI, RBX);
    mov_imm(e, RSI, (uint64_t)(uintptr_t)in);
    call_abs(e, (const void *)in->exec);
}

/* The address of a load or store into rsi: rs1 + imm (aligned down to 8
 * for ldq_u / stq_u). */
static void address(tr_t *t, const block_entry_t *en, bool aligned8)
{
    emit_t *e = &t->e;
    reg_in(t, RSI, en->rs1);
    if (en->imm) alu_imm(e, ALU_ADD, RSI, en->imm);
    if (aligned8) alu_imm(e, ALU_AND, RSI, -8);
}

/* mem_try_load/store's fast path for the address in rsi: rcx = the host
 * address less the guest's (the TLB entry's addend: the access is at
 * [rcx + rsi]), or a jump to the slow path (returned, to bind). */
static size_t tlb_fast(tr_t *t, size_t tlb_off, unsigned size)
{
    emit_t *e = &t->e;
    mov_rr(e, RAX, RSI);
    shift_imm(e, SH_SHR, RAX, GUEST_PAGE_SHIFT - 4);
    op_r(e, 0, 0x81, ALU_AND, RAX);     /* and eax, (MEM_TLB_SIZE - 1) << 4 */
    e->p[-1] = (uint8_t)(0xc0 | ALU_AND << 3 | RAX);
    b4(e, (uint32_t)((MEM_TLB_SIZE - 1) << 4));
    mov_rr(e, RCX, RSI);
    alu_imm(e, ALU_AND, RCX, (int64_t)(~(uint64_t)GUEST_PAGE_MASK | (size - 1)));
    op_mi(e, 1, 0x3b, RCX, R15, RAX, (int32_t)tlb_off);   /* cmp rcx, [r15 + rax + tlb] */
    size_t slow = jcc(e, CC_NE);
    op_mi(e, 1, 0x8b, RCX, R15, RAX, (int32_t)(tlb_off + offsetof(mem_tlb_entry_t, addend)));
    return slow;
}

/* rax from [rcx + rsi], extended as kind says */
static void load_host(emit_t *e, uint8_t kind)
{
    switch (kind) {
    case BK_LD8U:  op_mi(e, 0, 0x0fb6, RAX, RCX, RSI, 0); break;
    case BK_LD8S:  op_mi(e, 1, 0x0fbe, RAX, RCX, RSI, 0); break;
    case BK_LD16U: op_mi(e, 0, 0x0fb7, RAX, RCX, RSI, 0); break;
    case BK_LD16S: op_mi(e, 1, 0x0fbf, RAX, RCX, RSI, 0); break;
    case BK_LD32U: op_mi(e, 0, 0x8b, RAX, RCX, RSI, 0); break;
    case BK_LD32S: op_mi(e, 1, 0x63, RAX, RCX, RSI, 0); break;
    default:       op_mi(e, 1, 0x8b, RAX, RCX, RSI, 0); break;
    }
}

/* rax, as mem_load_slow returned it, extended as kind says */
static void extend(emit_t *e, uint8_t kind)
{
    switch (kind) {
    case BK_LD8S:  op_r(e, 1, 0x0fbe, RAX, RAX); break;
    case BK_LD16S: op_r(e, 1, 0x0fbf, RAX, RAX); break;
    case BK_LD32S: op_r(e, 1, 0x63, RAX, RAX); break;
    default: break;
    }
}

static unsigned access_size(uint8_t kind)
{
    switch (kind) {
    case BK_LD8U: case BK_LD8S: case BK_ST8: return 1;
    case BK_LD16U: case BK_LD16S: case BK_ST16: return 2;
    case BK_LD32U: case BK_LD32S: case BK_ST32: return 4;
    default: return 8;
    }
}

static void emit_load(tr_t *t, uint32_t k, const block_entry_t *en)
{
    emit_t *e = &t->e;
    unsigned size = access_size(en->kind);
    address(t, en, en->kind == BK_LD64A);
    size_t slow = tlb_fast(t, offsetof(mem_t, rtlb), size);
    load_host(e, en->kind);
    rd_out(t, en->rd);                  /* the slow path returns with rax as well */
    if (t->truth) {                     /* the address is in rsi on both paths */
        touch_rsi(t, size);
        t->after = -1;
    }
    add_cold(t, COLD_LOAD, en->kind, k, slow, here(e), size);
}

static void emit_store(tr_t *t, uint32_t k, const block_entry_t *en)
{
    emit_t *e = &t->e;
    unsigned size = access_size(en->kind);
    address(t, en, en->kind == BK_ST64A);
    size_t slow = tlb_fast(t, offsetof(mem_t, wtlb), size);
    load(e, RDX, RBX, reg_off(en->rs2));
    switch (size) {
    case 1: op_mi(e, 0, 0x88, RDX, RCX, RSI, 0); break;    /* mov [rcx + rsi], dl */
    case 2: b1(e, 0x66); op_mi(e, 0, 0x89, RDX, RCX, RSI, 0); break;
    case 4: op_mi(e, 0, 0x89, RDX, RCX, RSI, 0); break;
    default: op_mi(e, 1, 0x89, RDX, RCX, RSI, 0); break;
    }
    if (t->truth) touch_rsi(t, size);   /* the slow path marks before its check */
    add_cold(t, COLD_STORE, en->kind, k, slow, here(e), size);
}

/* rax = rs1 op (rs2 or imm); rd = rax (in place when rd is rs1) */
static void alu(tr_t *t, const block_entry_t *en, int op, bool rr)
{
    emit_t *e = &t->e;
    if (en->rd == en->rs1 && (rr || fits32(en->imm))) {
        if (rr) {                       /* op [rd], rax */
            reg_in(t, RAX, en->rs2);
            op_m(e, 1, (unsigned)(op << 3 | 1), RAX, RBX, reg_off(en->rd));
        } else if (en->imm || op == ALU_AND) {  /* op qword [rd], imm */
            bool small = en->imm >= -128 && en->imm <= 127;
            op_m(e, 1, small ? 0x83 : 0x81, op, RBX, reg_off(en->rd));
            if (small) b1(e, (uint8_t)en->imm);
            else b4(e, (uint32_t)en->imm);
        }
        return;
    }
    reg_in(t, RAX, en->rs1);
    if (rr) op_m(e, 1, (unsigned)(op << 3 | 3), RAX, RBX, reg_off(en->rs2));
    else if (en->imm || op == ALU_AND) alu_imm(e, op, RAX, en->imm);
    rd_out(t, en->rd);
}

static void shift(tr_t *t, const block_entry_t *en, int sh, bool rr)
{
    emit_t *e = &t->e;
    if (rr) reg_in(t, RCX, en->rs2);
    reg_in(t, RAX, en->rs1);
    if (rr) op_r(e, 1, 0xd3, sh, RAX);
    else shift_imm(e, sh, RAX, (unsigned)(en->imm & 63));
    rd_out(t, en->rd);
}

/* rd = (rs1 cc (rs2 or imm)) */
static void compare(tr_t *t, const block_entry_t *en, int cc, bool rr)
{
    emit_t *e = &t->e;
    reg_in(t, RAX, en->rs1);
    if (rr) op_m(e, 1, 0x3b, RAX, RBX, reg_off(en->rs2));
    else alu_imm(e, ALU_CMP, RAX, en->imm);
    b1(e, 0x0f); b1(e, 0x90 + (unsigned)cc); b1(e, 0xc0);   /* setcc al */
    op_r(e, 0, 0x0fb6, RAX, RAX);                           /* movzx eax, al */
    rd_out(t, en->rd);
}

/* rax = rs1; flags for the rs1 test of a conditional move or branch; the
 * condition code that holds when the test does */
static int rs1_test(tr_t *t, const block_entry_t *en, int kind)
{
    emit_t *e = &t->e;
    reg_in(t, RAX, en->rs1);
    if (kind == BK_CMOVLBC_RR || kind == BK_CMOVLBS_RR || kind == BK_BLBC || kind == BK_BLBS) {
        b1(e, 0xa8); b1(e, 1);          /* test al, 1 */
        return kind == BK_CMOVLBC_RR || kind == BK_BLBC ? CC_E : CC_NE;
    }
    op_r(e, 1, 0x85, RAX, RAX);         /* test rax, rax */
    switch (kind) {
    case BK_CMOVEQ_RR: case BK_BEQZ: return CC_E;
    case BK_CMOVNE_RR: case BK_BNEZ: return CC_NE;
    case BK_CMOVLT_RR: case BK_BLTZ: return CC_L;
    case BK_CMOVGE_RR: case BK_BGEZ: return CC_GE;
    case BK_CMOVLE_RR: case BK_BLEZ: return CC_LE;
    default:           return CC_G;     /* CMOVGT, BGTZ */
    }
}

static void cmov(tr_t *t, const block_entry_t *en, int rr_kind, bool rr)
{
    emit_t *e = &t->e;
    int cc = rs1_test(t, en, rr_kind);
    size_t skip = jcc(e, cc ^ 1);
    if (rr) load(e, RAX, RBX, reg_off(en->rs2));
    else mov_imm(e, RAX, (uint64_t)en->imm);
    store(e, RAX, RBX, reg_off(en->rd));
    bind(e, skip);
}

/* ---- Alpha's operates that the block loop calls (BK_CALL_REG), inline here ---------
 * Each computes what its semantics in alpha_int.c compute (alpha_bytes.h for
 * the byte manipulation), from the decoded slot's rd, rs1, rs2 and imm: RA is
 * c->reg[rs1], RB c->reg[rs2] or the literal (imm), the result goes to
 * c->reg[rd]; sextb/sextw (OPERATE_B) take RB from rs1 or the literal. */
enum { AO_EXTL, AO_EXTH, AO_INSL, AO_INSH, AO_MSKL, AO_MSKH, AO_ZAP_L, AO_MULQ, AO_MULL,
       AO_UMULH, AO_SADD, AO_SSUB, AO_BIC, AO_ORNOT, AO_EQV, AO_SEXTB, AO_SEXTW };

typedef struct alpha_op {
    exec_fn exec;
    uint8_t op;                         /* AO_* */
    uint8_t arg;                        /* field bytes (ext/ins/msk), shift (s4/s8) */
    bool lit;                           /* the literal form                          */
    bool longword;                      /* a result sign-extended from 32 bits       */
} alpha_op_t;

#define AO_BOTH(id, op, arg, lw) { al_##id, op, arg, false, lw }, { al_##id##_L, op, arg, true, lw },
static const alpha_op_t alpha_ops[] = {
    AO_BOTH(EXTBL, AO_EXTL, 1, false) AO_BOTH(EXTWL, AO_EXTL, 2, false)
    AO_BOTH(EXTLL, AO_EXTL, 4, false) AO_BOTH(EXTQL, AO_EXTL, 8, false)
    AO_BOTH(EXTWH, AO_EXTH, 2, false) AO_BOTH(EXTLH, AO_EXTH, 4, false)
    AO_BOTH(EXTQH, AO_EXTH, 8, false)
    AO_BOTH(INSBL, AO_INSL, 1, false) AO_BOTH(INSWL, AO_INSL, 2, false)
    AO_BOTH(INSLL, AO_INSL, 4, false) AO_BOTH(INSQL, AO_INSL, 8, false)
    AO_BOTH(INSWH, AO_INSH, 2, false) AO_BOTH(INSLH, AO_INSH, 4, false)
    AO_BOTH(INSQH, AO_INSH, 8, false)
    AO_BOTH(MSKBL, AO_MSKL, 1, false) AO_BOTH(MSKWL, AO_MSKL, 2, false)
    AO_BOTH(MSKLL, AO_MSKL, 4, false) AO_BOTH(MSKQL, AO_MSKL, 8, false)
    AO_BOTH(MSKWH, AO_MSKH, 2, false) AO_BOTH(MSKLH, AO_MSKH, 4, false)
    AO_BOTH(MSKQH, AO_MSKH, 8, false)
    { al_ZAP_L, AO_ZAP_L, 0, true, false },
    AO_BOTH(MULQ, AO_MULQ, 0, false) AO_BOTH(MULL, AO_MULL, 0, true)
    AO_BOTH(UMULH, AO_UMULH, 0, false)
    AO_BOTH(S4ADDL, AO_SADD, 2, true) AO_BOTH(S8ADDL, AO_SADD, 3, true)
    AO_BOTH(S4SUBL, AO_SSUB, 2, true) AO_BOTH(S8SUBL, AO_SSUB, 3, true)
    { al_S4SUBQ, AO_SSUB, 2, false, false }, { al_S8SUBQ, AO_SSUB, 3, false, false },
    { al_BIC, AO_BIC, 0, false, false }, { al_ORNOT, AO_ORNOT, 0, false, false },
    { al_EQV, AO_EQV, 0, false, false },
    AO_BOTH(SEXTB, AO_SEXTB, 0, false) AO_BOTH(SEXTW, AO_SEXTW, 0, false)
};
#undef AO_BOTH

static const alpha_op_t *alpha_op(exec_fn exec)
{
    for (size_t k = 0; k < sizeof alpha_ops / sizeof alpha_ops[0]; k++)
        if (alpha_ops[k].exec == exec) return &alpha_ops[k];
    return NULL;
}

/* rax = rax & the field of `bytes` bytes (8: all of it) */
static void field(emit_t *e, unsigned bytes)
{
    switch (bytes) {
    case 1: op_r(e, 0, 0x0fb6, RAX, RAX); break;        /* movzx eax, al */
    case 2: op_r(e, 0, 0x0fb7, RAX, RAX); break;        /* movzx eax, ax */
    case 4: op_r(e, 0, 0x89, RAX, RAX); break;          /* mov eax, eax */
    default: break;
    }
}

static uint64_t field_mask(unsigned bytes) { return bytes == 8 ? ~0ull : (1ull << (8 * bytes)) - 1; }

/* 32-bit op ecx, imm8 (and, xor) */
static void ecx_imm8(emit_t *e, int alu, unsigned imm)
{
    b1(e, 0x83);
    b1(e, (unsigned)(0xc0 | alu << 3 | RCX));
    b1(e, imm);
}

/* rcx = RB: the register rs2, or the literal */
static void operand_b(tr_t *t, const insn_t *in, const alpha_op_t *o)
{
    if (o->lit) mov_imm(&t->e, RCX, (uint64_t)in->imm);
    else reg_in(t, RCX, in->rs2);
}

/* ecx = 8 * (RB & 7): the byte offset's bit shift (al_byte_shift) */
static void byte_shift(tr_t *t, const insn_t *in, const alpha_op_t *o)
{
    operand_b(t, in, o);
    ecx_imm8(&t->e, ALU_AND, 7);
    shift_imm32(&t->e, SH_SHL, RCX, 3);
}

static void alpha_operate(tr_t *t, const insn_t *in, const alpha_op_t *o)
{
    emit_t *e = &t->e;
    switch (o->op) {
    case AO_EXTL:                       /* (a >> s) & field */
        byte_shift(t, in, o);
        reg_in(t, RAX, in->rs1);
        op_r(e, 1, 0xd3, SH_SHR, RAX);
        field(e, o->arg);
        break;
    case AO_EXTH:                       /* (a << ((64 - s) & 63)) & field */
        byte_shift(t, in, o);
        op_r(e, 0, 0xf7, 3, RCX);       /* neg ecx: shl takes it modulo 64 */
        reg_in(t, RAX, in->rs1);
        op_r(e, 1, 0xd3, SH_SHL, RAX);
        field(e, o->arg);
        break;
    case AO_INSL:                       /* (a & field) << s */
        byte_shift(t, in, o);
        reg_in(t, RAX, in->rs1);
        field(e, o->arg);
        op_r(e, 1, 0xd3, SH_SHL, RAX);
        break;
    case AO_INSH:                       /* s ? (a & field) >> (64 - s) : 0, */
        byte_shift(t, in, o);           /* as ((a & field) >> 1) >> (63 - s) */
        ecx_imm8(e, ALU_XOR, 63);
        reg_in(t, RAX, in->rs1);
        field(e, o->arg);
        shift_imm(e, SH_SHR, RAX, 1);
        op_r(e, 1, 0xd3, SH_SHR, RAX);
        break;
    case AO_MSKL:                       /* a & ~(field << s) */
        byte_shift(t, in, o);
        mov_imm(e, RDX, field_mask(o->arg));
        op_r(e, 1, 0xd3, SH_SHL, RDX);
        op_r(e, 1, 0xf7, 2, RDX);       /* not rdx */
        reg_in(t, RAX, in->rs1);
        op_r(e, 1, 0x21, RDX, RAX);     /* and rax, rdx */
        break;
    case AO_MSKH:                       /* s ? a & ~(field >> (64 - s)) : a, */
        byte_shift(t, in, o);           /* as a & ~((field >> 1) >> (63 - s)) */
        ecx_imm8(e, ALU_XOR, 63);
        mov_imm(e, RDX, field_mask(o->arg) >> 1);
        op_r(e, 1, 0xd3, SH_SHR, RDX);
        op_r(e, 1, 0xf7, 2, RDX);
        reg_in(t, RAX, in->rs1);
        op_r(e, 1, 0x21, RDX, RAX);
        break;
    case AO_ZAP_L:                      /* a & ~byte_mask(literal) */
        reg_in(t, RAX, in->rs1);
        mov_imm(e, RCX, ~al_byte_mask((uint64_t)in->imm));
        op_r(e, 1, 0x21, RCX, RAX);
        break;
    case AO_MULQ: case AO_MULL:         /* a * b (mull: sign-extended from 32 bits) */
        operand_b(t, in, o);
        reg_in(t, RAX, in->rs1);
        op_r(e, 1, 0x0faf, RAX, RCX);   /* imul rax, rcx */
        if (o->op == AO_MULL) op_r(e, 1, 0x63, RAX, RAX);
        break;
    case AO_UMULH:                      /* the high quadword of a * b, unsigned */
        operand_b(t, in, o);
        reg_in(t, RAX, in->rs1);
        op_r(e, 1, 0xf7, 4, RCX);       /* mul rcx: rdx:rax */
        mov_rr(e, RAX, RDX);
        break;
    case AO_SADD: case AO_SSUB:         /* (a << 2 or 3) +- b, longword forms extended */
        operand_b(t, in, o);
        reg_in(t, RAX, in->rs1);
        shift_imm(e, SH_SHL, RAX, o->arg);
        op_r(e, 1, o->op == AO_SADD ? 0x01 : 0x29, RCX, RAX);
        if (o->longword) op_r(e, 1, 0x63, RAX, RAX);
        break;
    case AO_BIC: case AO_ORNOT: case AO_EQV:    /* a op ~b */
        operand_b(t, in, o);
        op_r(e, 1, 0xf7, 2, RCX);
        reg_in(t, RAX, in->rs1);
        op_r(e, 1, o->op == AO_BIC ? 0x21 : o->op == AO_ORNOT ? 0x09 : 0x31, RCX, RAX);
        break;
    case AO_SEXTB: case AO_SEXTW:       /* RB (rs1, or the literal) sign-extended */
        if (o->lit) mov_imm(e, RAX, (uint64_t)in->imm);
        else reg_in(t, RAX, in->rs1);
        op_r(e, 1, o->op == AO_SEXTB ? 0x0fbe : 0x0fbf, RAX, RAX);
        break;
    }
    rd_out(t, in->rd);
}

/* count_run: one more whole run of the block (rdx kept: an indirect end's pc) */
static void count_run(tr_t *t, bool keep_rdx)
{
    emit_t *e = &t->e;
    op_m(e, 1, 0x83, ALU_ADD, R13, offsetof(block_t, runs_less1));
    b1(e, 1);
    size_t from = jcc(e, CC_B);
    add_cold(t, keep_rdx ? COLD_FIRST_RUN_RDX : COLD_FIRST_RUN, 0, 0, from, here(e), 0);
}

static void count_taken(tr_t *t)
{
    op_m(&t->e, 1, 0x83, ALU_ADD, R13, offsetof(block_t, taken));
    b1(&t->e, 1);
}

/* The end of the block on a fixed way to pc: counted, then a chain to its
 * successor once patched (undone when the table's epoch moves), else out
 * to C. */
static void fixed_end(tr_t *t, unsigned way, uint64_t pc)
{
    emit_t *e = &t->e;
    jit_t *j = t->j;
    uint32_t s = j->nsites++;
    count_run(t, false);
    size_t patch = jmp(e);
    bind(e, patch);                     /* until patched: out to C */
    j->sites[s] = (jit_site_t){ .patch = (uint32_t)patch, .out = (uint32_t)here(e) };
    mov_imm(e, RDX, pc);
    mov_imm(e, RCX, way);
    op_m(e, 1, 0xc7, 0, RBP, offsetof(jit_state_t, site));
    b4(e, s);
    mov_imm(e, RAX, EXIT_COUNTED);
    jmp_to(e, j->epilogue);
}

/* The jump cache's entry for the transfer to rdx: a jump to its code,
 * or on after this when it has none. */
static void jc_lookup(tr_t *t)
{
    emit_t *e = &t->e;
    mov_rr(e, RAX, RDX);
    shift_imm(e, SH_SHR, RAX, 1);
    op_r(e, 0, 0x81, ALU_AND, RAX);     /* and eax, mask */
    e->p[-1] = (uint8_t)(0xc0 | ALU_AND << 3 | RAX);
    b4(e, (1u << JIT_JC_BITS) - 1);
    shift_imm(e, SH_SHL, RAX, 5);
    op_r(e, 1, 0x03, RAX, RBP);         /* add rax, rbp */
    int32_t jc = (int32_t)offsetof(jit_state_t, jc);
    op_m(e, 1, 0x3b, RDX, RAX, jc + (int32_t)offsetof(jit_jc_t, pc));
    size_t miss1 = jcc(e, CC_NE);
    load(e, RCX, R12, offsetof(blocks_t, epoch));
    op_m(e, 1, 0x3b, RCX, RAX, jc + (int32_t)offsetof(jit_jc_t, epoch));
    size_t miss2 = jcc(e, CC_NE);
    op_m(e, 0, 0xff, 4, RAX, jc + (int32_t)offsetof(jit_jc_t, code));    /* jmp [..] */
    bind(e, miss1);
    bind(e, miss2);
}

/* The end of the block on a transfer to rdx: counted, then the jump
 * cache's entry for it (when `cached`), else out to C. */
static void indirect_end_via(tr_t *t, bool cached)
{
    emit_t *e = &t->e;
    count_run(t, true);
    if (cached) jc_lookup(t);
    mov_imm(e, RAX, t->b->end);
    op_r(e, 0, 0x31, RCX, RCX);         /* xor ecx, ecx */
    op_r(e, 1, 0x39, RAX, RDX);         /* cmp rdx, rax */
    b1(e, 0x0f); b1(e, 0x95); b1(e, 0xc1);      /* setne cl */
    op_m(e, 1, 0xc7, 0, RBP, offsetof(jit_state_t, site));
    b4(e, UINT32_MAX);                  /* -1 */
    mov_imm(e, RAX, EXIT_COUNTED);
    jmp_to(e, t->j->epilogue);
}

static void indirect_end(tr_t *t) { indirect_end_via(t, true); }

static void branch(tr_t *t, const block_entry_t *en, int cc)
{
    emit_t *e = &t->e;
    size_t taken = jcc(e, cc);
    fixed_end(t, 0, t->b->end);
    bind(e, taken);
    count_taken(t);
    fixed_end(t, 1, (uint64_t)en->imm);
}

static void branch_rr(tr_t *t, const block_entry_t *en, int cc)
{
    reg_in(t, RAX, en->rs1);
    op_m(&t->e, 1, 0x3b, RAX, RBX, reg_off(en->rs2));
    branch(t, en, cc);
}

/* rd = the block's end (after the target, in rdx, is computed: rd may be rs1) */
static void link_reg(tr_t *t, const block_entry_t *en)
{
    mov_imm(&t->e, RAX, t->b->end);
    store(&t->e, RAX, RBX, reg_off(en->rd));
    count_taken(t);
    if (t->truth && (en->in->flags & IF_CALL)) record_call_rdx(t, t->b->pc + en->offset);
}

static void emit_call(tr_t *t, uint32_t k, const block_entry_t *en)
{
    at_entry(t, k);
    call_semantics(t, en->in);
    load(&t->e, R15, RBX, offsetof(cpu_t, mem));
    record_called(t, en);
    epoch_check(t);
    dropped_check(t, k + 1);
}

/* Entry k's code as en's kind (its own, or a DISE entry's own kind);
 * returns whether it ends the block. */
static bool emit_kind(tr_t *t, uint32_t k, const block_entry_t *en)
{
    emit_t *e = &t->e;
    bool inl = true;
    switch (en->kind) {
    case BK_END: fixed_end(t, 0, t->b->end); return true;
    case BK_NOP: t->after = t->held; break;
    case BK_CALL: emit_call(t, k, en); inl = false; break;
    case BK_CALL_REG: {
        const alpha_op_t *o = alpha_op(en->in->exec);
        if (o) {
            alpha_operate(t, en->in, o);
        } else {
            call_semantics(t, en->in);
            inl = false;
        }
        break;
    }
    case BK_XFER:
        at_entry(t, k);
        call_semantics(t, en->in);
        load(e, R15, RBX, offsetof(cpu_t, mem));
        record_called(t, en);
        epoch_check(t);
        load(e, RDX, RBX, offsetof(cpu_t, pc));
        t->j->stats.called_entries++;
        indirect_end_via(t, !t->j->handler);   /* a handler's: C sees hps.ret's switch */
        return true;
    case BK_ADD_RI: alu(t, en, ALU_ADD, false); break;
    case BK_ADD_RR: alu(t, en, ALU_ADD, true); break;
    case BK_SUB_RR: alu(t, en, ALU_SUB, true); break;
    case BK_AND_RI: alu(t, en, ALU_AND, false); break;
    case BK_AND_RR: alu(t, en, ALU_AND, true); break;
    case BK_OR_RI:  alu(t, en, ALU_OR, false); break;
    case BK_OR_RR:  alu(t, en, ALU_OR, true); break;
    case BK_XOR_RI: alu(t, en, ALU_XOR, false); break;
    case BK_XOR_RR: alu(t, en, ALU_XOR, true); break;
    case BK_SLL_RI: shift(t, en, SH_SHL, false); break;
    case BK_SRL_RI: shift(t, en, SH_SHR, false); break;
    case BK_SRA_RI: shift(t, en, SH_SAR, false); break;
    case BK_SLL_RR: shift(t, en, SH_SHL, true); break;
    case BK_SRL_RR: shift(t, en, SH_SHR, true); break;
    case BK_SRA_RR: shift(t, en, SH_SAR, true); break;
    case BK_ADDW_RI: case BK_ADDW_RR: case BK_SUBW_RR:
        reg_in(t, RAX, en->rs1);
        if (en->kind == BK_ADDW_RI) alu_imm(e, ALU_ADD, RAX, en->imm);
        else op_m(e, 1, en->kind == BK_ADDW_RR ? 0x03 : 0x2b, RAX, RBX, reg_off(en->rs2));
        op_r(e, 1, 0x63, RAX, RAX);     /* movsxd rax, eax */
        rd_out(t, en->rd);
        break;
    case BK_LI: case BK_AUIPC: {
        uint64_t v = en->kind == BK_LI ? (uint64_t)en->imm
                                       : t->b->pc + en->offset + (uint64_t)en->imm;
        if (fits32((int64_t)v)) {       /* mov qword [rd], simm32 */
            op_m(e, 1, 0xc7, 0, RBX, reg_off(en->rd));
            b4(e, (uint32_t)v);
        } else {
            mov_imm(e, RAX, v);
            store(e, RAX, RBX, reg_off(en->rd));
        }
        break;
    }
    case BK_SLT_RI:  compare(t, en, CC_L, false); break;
    case BK_SLT_RR:  compare(t, en, CC_L, true); break;
    case BK_SLTU_RI: compare(t, en, CC_B, false); break;
    case BK_SLTU_RR: compare(t, en, CC_B, true); break;
    case BK_SEQ_RI:  compare(t, en, CC_E, false); break;
    case BK_SEQ_RR:  compare(t, en, CC_E, true); break;
    case BK_SLE_RI:  compare(t, en, CC_LE, false); break;
    case BK_SLE_RR:  compare(t, en, CC_LE, true); break;
    case BK_SLEU_RI: compare(t, en, CC_BE, false); break;
    case BK_SLEU_RR: compare(t, en, CC_BE, true); break;
    case BK_S4ADD_RI: case BK_S4ADD_RR: case BK_S8ADD_RI: case BK_S8ADD_RR: {
        bool rr = en->kind == BK_S4ADD_RR || en->kind == BK_S8ADD_RR;
        reg_in(t, RAX, en->rs1);
        shift_imm(e, SH_SHL, RAX, en->kind <= BK_S4ADD_RR ? 2 : 3);
        if (rr) op_m(e, 1, 0x03, RAX, RBX, reg_off(en->rs2));
        else if (en->imm) alu_imm(e, ALU_ADD, RAX, en->imm);
        rd_out(t, en->rd);
        break;
    }
    case BK_EXTB_RR:
        reg_in(t, RCX, en->rs2);
        op_r(e, 0, 0x83, ALU_AND, RCX);                 /* and ecx, 7 */
        e->p[-1] = (uint8_t)(0xc0 | ALU_AND << 3 | RCX);
        b1(e, 7);
        shift_imm(e, SH_SHL, RCX, 3);
        reg_in(t, RAX, en->rs1);
        op_r(e, 1, 0xd3, SH_SHR, RAX);                 /* shr rax, cl */
        op_r(e, 0, 0x0fb6, RAX, RAX);                   /* movzx eax, al */
        rd_out(t, en->rd);
        break;
#define CMOV_CASES(K) \
    case BK_##K##_RR: cmov(t, en, BK_##K##_RR, true); break; \
    case BK_##K##_RI: cmov(t, en, BK_##K##_RR, false); break;
    CMOV_CASES(CMOVEQ) CMOV_CASES(CMOVNE) CMOV_CASES(CMOVLT) CMOV_CASES(CMOVGE)
    CMOV_CASES(CMOVLE) CMOV_CASES(CMOVGT) CMOV_CASES(CMOVLBC) CMOV_CASES(CMOVLBS)
#undef CMOV_CASES
    case BK_LD8U: case BK_LD8S: case BK_LD16U: case BK_LD16S: case BK_LD32U: case BK_LD32S:
    case BK_LD64: case BK_LD64A:
        emit_load(t, k, en);
        break;
    case BK_ST8: case BK_ST16: case BK_ST32: case BK_ST64: case BK_ST64A:
        emit_store(t, k, en);
        break;
    case BK_BEQ:  branch_rr(t, en, CC_E); return true;
    case BK_BNE:  branch_rr(t, en, CC_NE); return true;
    case BK_BLT:  branch_rr(t, en, CC_L); return true;
    case BK_BGE:  branch_rr(t, en, CC_GE); return true;
    case BK_BLTU: branch_rr(t, en, CC_B); return true;
    case BK_BGEU: branch_rr(t, en, CC_AE); return true;
    case BK_BEQZ: case BK_BNEZ: case BK_BLTZ: case BK_BGEZ: case BK_BLEZ: case BK_BGTZ:
    case BK_BLBC: case BK_BLBS:
        branch(t, en, rs1_test(t, en, en->kind));
        return true;
    case BK_JAL:
        if (t->truth && (en->in->flags & IF_CALL))
            mov_imm(e, RDX, (uint64_t)en->imm);     /* the target, for the recorder */
        link_reg(t, en);
        fixed_end(t, 1, (uint64_t)en->imm);
        return true;
    case BK_JALR: case BK_JMP:
        reg_in(t, RDX, en->rs1);
        if (en->kind == BK_JALR) {
            if (en->imm) alu_imm(e, ALU_ADD, RDX, en->imm);
            alu_imm(e, ALU_AND, RDX, -2);
        } else {
            alu_imm(e, ALU_AND, RDX, -4);
        }
        link_reg(t, en);
        indirect_end(t);
        return true;
    default:                            /* DISE's kinds: emit_entry's */
        abort();
    }
    if (inl) t->j->stats.inline_entries++;
    else t->j->stats.called_entries++;
    return false;
}

/* ---- instructions DISE classified (BK_EDIT and the kinds after it): as
 * the block loop's do_EDIT, do_EDIT_INLINE, do_EDIT_<kind> and
 * do_EDIT_REC_<kind>.  The editor's count in line when it is a uniform
 * count-down (edit_try_uniform: a decrement of cpu_t.edit_left and a branch
 * on its borrow), then the instruction's own kind; on the borrow, out of
 * line (COLD_EDIT): the word set back to 0, AT_ENTRY, and the view's trip,
 * which says whether the own kind is still to run (back to it), the editor
 * ran the instruction (on after it, or for a transfer to where it went),
 * or a replacement took it (out to C: EXIT_REPLACED, the block loop's
 * `replaced`). */
/* An entry without an own kind (BK_EDIT, own BK_EDIT): do_EDIT whole, the
 * instruction's semantics called */
static uint32_t jit_edit_call(cpu_t *c, insn_t *in)
{
    edit_view_t *v = c->edit;
    const edit_count_t *x = edit_try_uniform(&c->edit_left) ? edit_record(v, in)
                                                             : edit_try_count(v, in);
    if (x) {
        x->exec(c, in);
        return EDIT_RAN;
    }
    c->replaced = false;
    if (v->miss(c, in)) {
        edit_own_exec(v, in)(c, in);
        return EDIT_RAN;
    }
    return c->replaced ? EDIT_REPLACED : EDIT_RAN;
}

/* After the editor ran the instruction (EDIT_RAN): the block loop's tail of
 * do_EDIT: the recorder told, then a transfer's end to where it went (as
 * XFER), else the dropped-code check and on to `after` (0: right here). */
static bool edit_ran(tr_t *t, uint32_t k, const block_entry_t *en, size_t after)
{
    emit_t *e = &t->e;
    const insn_t *in = en->in;
    load(e, R15, RBX, offsetof(cpu_t, mem));
    if (t->truth && (in->flags & IF_TRANSFER) && (in->flags & IF_CALL)) {
        load(e, RDX, RBX, offsetof(cpu_t, pc));
        record_call_rdx(t, t->b->pc + en->offset);
    } else if (t->truth && (in->flags & (IF_LOAD | IF_STORE))) {
        load(e, RSI, RBX, offsetof(cpu_t, mem_addr));
        touch_rsi(t, in->memsize);
    }
    epoch_check(t);
    if (in->flags & IF_TRANSFER) {
        load(e, RDX, RBX, offsetof(cpu_t, pc));
        indirect_end(t);
        return true;
    }
    dropped_check(t, k + 1);
    if (after) jmp_to(e, after);
    return false;
}

/* eax the helper's answer: a replacement leaves (COLD_REPLACED) */
static void edit_replaced_check(tr_t *t, uint32_t k)
{
    emit_t *e = &t->e;
    op_r(e, 0, 0x83, ALU_CMP, RAX);     /* cmp eax, EDIT_REPLACED */
    b1(e, EDIT_REPLACED);
    add_cold(t, COLD_REPLACED, 0, k, jcc(e, CC_E), 0, 0);
}

/* BK_EDIT_REC_<kind>: the jump, then the editor's record of the call */
static void edit_rec_jump(tr_t *t, const block_entry_t *en)
{
    emit_t *e = &t->e;
    reg_in(t, RDX, en->rs1);
    if (en->own == BK_JALR) {
        if (en->imm) alu_imm(e, ALU_ADD, RDX, en->imm);
        alu_imm(e, ALU_AND, RDX, -2);
    } else {
        alu_imm(e, ALU_AND, RDX, -4);
    }
    link_reg(t, en);
    b1(e, 0x52); b1(e, 0x52);           /* push rdx x2: the stack stays aligned */
    load(e, RAX, RBX, offsetof(cpu_t, edit));      /* the view's record_call(record_ctx, */
    load(e, RDI, RAX, offsetof(edit_view_t, record_ctx));   /* site, target): called  */
    mov_imm(e, RSI, t->b->pc + en->offset);                 /* from here, no helper   */
    op_m(e, 0, 0xff, 2, RAX, offsetof(edit_view_t, record_call));  /* call [rax + ..] */
    b1(e, 0x5a); b1(e, 0x5a);
    indirect_end(t);
}

/* A DISE entry; returns whether it ends the block. */
static bool emit_edit(tr_t *t, uint32_t k, const block_entry_t *en)
{
    emit_t *e = &t->e;
    t->j->stats.edit_entries++;
    if (en->own == BK_EDIT) {           /* no own kind: do_EDIT called whole */
        at_entry(t, k);
        mov_rr(e, RDI, RBX);
        mov_imm(e, RSI, (uint64_t)(uintptr_t)en->in);
        call_abs(e, (const void *)jit_edit_call);
        edit_replaced_check(t, k);
        return edit_ran(t, k, en, 0);
    }
    op_m(e, 1, 0x83, ALU_SUB, RBX, offsetof(cpu_t, edit_left));   /* edit_try_uniform */
    b1(e, 1);
    size_t miss = jcc(e, CC_B);
    size_t own = here(e);
    t->held = -1;                       /* the miss comes back here with rax gone */
    bool ends;
    if (en->kind == BK_EDIT_REC_JALR || en->kind == BK_EDIT_REC_JMP) {
        edit_rec_jump(t, en);
        ends = true;
    } else {
        block_entry_t o = *en;
        o.kind = en->own;
        ends = emit_kind(t, k, &o);
    }
    t->after = -1;                      /* nor does the editor's run leave it */
    add_cold(t, COLD_EDIT, 0, k, miss, own, ends ? 0 : here(e));
    return ends;
}

/* One entry; returns whether it ends the block. */
static bool emit_entry(tr_t *t, uint32_t k)
{
    const block_entry_t *en = &t->b->entries[k];
    t->held = t->after;                 /* what the entry before left in rax */
    t->after = -1;
    if (en->kind == BK_EDIT || en->kind == BK_EDIT_INLINE || en->kind >= BK_EDIT_BEQ)
        return emit_edit(t, k, en);
    return emit_kind(t, k, en);
}

static void emit_cold(tr_t *t, const cold_t *s)
{
    emit_t *e = &t->e;
    bind(e, s->from);
    switch (s->what) {
    case COLD_LOAD:                     /* AT_ENTRY; mem_load_slow(mem, a, size) */
        at_entry(t, s->k);
        if (t->truth) store(e, RSI, RBP, offsetof(jit_state_t, addr));
        mov_rr(e, RDI, R15);
        mov_imm(e, RDX, s->arg);
        call_abs(e, (const void *)mem_load_slow);
        extend(e, s->kind);
        store(e, RAX, RBX, reg_off(t->b->entries[s->k].rd));
        epoch_check(t);
        if (t->truth) {                 /* back past the fast path's mark, with rsi */
            load(e, RSI, RBP, offsetof(jit_state_t, addr));
            touch_rsi(t, (unsigned)s->arg);
        } else {
            load(e, RAX, RBX, reg_off(t->b->entries[s->k].rd));    /* as the fast path leaves it */
        }
        jmp_to(e, s->back);
        break;
    case COLD_STORE:                    /* AT_ENTRY; mem_store_slow(mem, a, rs2, size); DROPPED */
        at_entry(t, s->k);
        if (t->truth) store(e, RSI, RBP, offsetof(jit_state_t, addr));
        mov_rr(e, RDI, R15);
        load(e, RDX, RBX, reg_off(t->b->entries[s->k].rs2));
        mov_imm(e, RCX, s->arg);
        call_abs(e, (const void *)mem_store_slow);
        if (t->truth) {
            load(e, RSI, RBP, offsetof(jit_state_t, addr));
            touch_rsi(t, (unsigned)s->arg);
        }
        epoch_check(t);
        dropped_check(t, s->k + 1);
        jmp_to(e, s->back);
        break;
    case COLD_DROPPED:
        mov_imm(e, RCX, s->k);
        mov_imm(e, RAX, EXIT_DROPPED);
        jmp_to(e, t->j->epilogue);
        break;
    case COLD_FIRST_RUN:
    case COLD_FIRST_RUN_RDX:
        if (s->what == COLD_FIRST_RUN_RDX) { b1(e, 0x52); b1(e, 0x52); }   /* push rdx x2 */
        mov_rr(e, RDI, R12);
        mov_rr(e, RSI, R13);
        call_abs(e, (const void *)blocks_jit_first_run);
        if (s->what == COLD_FIRST_RUN_RDX) { b1(e, 0x5a); b1(e, 0x5a); }
        jmp_to(e, s->back);
        break;
    case COLD_EDIT: {                   /* the count-down borrowed: the view's trip */
        const block_entry_t *en = &t->b->entries[s->k];
        op_m(e, 1, 0xc7, 0, RBX, offsetof(cpu_t, edit_left));     /* its word back to 0 */
        b4(e, 0);
        at_entry(t, s->k);
        mov_rr(e, RDI, RBX);
        mov_imm(e, RSI, (uint64_t)(uintptr_t)en->in);
        load(e, RAX, RBX, offsetof(cpu_t, edit));
        op_m(e, 0, 0xff, 2, RAX, offsetof(edit_view_t, trip));  /* call [rax + trip] */
        load(e, R15, RBX, offsetof(cpu_t, mem));
        op_r(e, 0, 0x85, RAX, RAX);     /* test eax, eax: EDIT_OWN */
        bind_to(e, jcc(e, CC_E), s->back);
        edit_replaced_check(t, s->k);
        edit_ran(t, s->k, en, (size_t)s->arg);
        break;
    }
    case COLD_REPLACED:
        mov_imm(e, RCX, s->k);
        mov_imm(e, RAX, EXIT_REPLACED);
        jmp_to(e, t->j->epilogue);
        break;
    case COLD_EVENT:                    /* r13, r14 less n: the block before */
        alu_imm(e, ALU_SUB, R14, s->k);
        mov_imm(e, RDX, s->arg);
        mov_imm(e, RAX, EXIT_EVENT);
        jmp_to(e, t->j->epilogue);
        break;
    }
}

/* The entries of b DISE classified (each takes room for two). */
static uint32_t edit_entries(const block_t *b)
{
    uint32_t n = 0;
    for (uint32_t k = 0; k < b->n; k++) {
        uint8_t kind = b->entries[k].kind;
        n += kind == BK_EDIT || kind == BK_EDIT_INLINE || kind >= BK_EDIT_BEQ;
    }
    return n;
}

static void flush(jit_t *j)
{
    j->used = j->tramp_end;
    j->nsites = 0;
    j->npatched = 0;
    if (j->cap) {
        memset(j->check, 0, j->cap * sizeof *j->check);
        memset(j->body, 0, j->cap * sizeof *j->body);
    }
    memset(j->st->jc, 0xff, sizeof j->st->jc);
    j->generation++;
    j->stats.flushes++;
    j->clean = true;
}

/* The translations are of the table as it is now (not emptied, not moved
 * since), with room for every block id it may hold. */
static void sync_table(jit_t *j, const blocks_t *bs, truth_t *truth)
{
    if (bs->blk != j->blk_seen || bs->resets != j->resets_seen || truth != j->truth) {
        if (!j->clean) flush(j);        /* (an empty cache stays as it is) */
        j->blk_seen = bs->blk;
        j->resets_seen = bs->resets;
        j->truth = truth;
    }
    if (bs->blk_cap > j->cap) {
        size_t cap = bs->blk_cap;
        j->check = xrealloc(j->check, cap * sizeof *j->check);
        j->body = xrealloc(j->body, cap * sizeof *j->body);
        memset(j->check + j->cap, 0, (cap - j->cap) * sizeof *j->check);
        memset(j->body + j->cap, 0, (cap - j->cap) * sizeof *j->body);
        j->cap = cap;
    }
}

/* b's translation (its body's offset), made on first use. */
static uint32_t translation(jit_t *j, blocks_t *bs, const block_t *b)
{
    uint32_t id = (uint32_t)(b - bs->blk);
    if (j->body[id]) return j->body[id];
    uint32_t edits = edit_entries(b);
    size_t need = JIT_BLOCK_MAX + (size_t)(b->n + 1 + edits) * JIT_ENTRY_MAX;
    if (j->used + need > j->size || j->nsites + 2 * (b->n + 1) > JIT_MAX_SITES) flush(j);
    j->clean = false;
    /* out-of-line paths: the event check's; per entry at most a slow load or
     * store, the dropped-code check after it or a call, a first run; a DISE
     * entry's miss, a replacement's exit, a dropped-code check and a first
     * run besides */
    size_t cold_cap = 3 * (b->n + 1) + 4 * edits + 4;
    cold_t *cold = xcalloc(cold_cap, sizeof *cold);
    tr_t t = { .j = j, .truth = j->truth, .bs = bs, .b = b, .cold = cold, .cold_cap = cold_cap,
               .held = -1, .after = -1,
               .e = { .p = j->rw + j->used, .start = j->rw + j->used, .base = j->used } };
    emit_t *e = &t.e;
    size_t check = here(e);             /* the event check, as the loop's `chained` */
    alu_imm(e, ALU_ADD, R14, b->n);                     /* retired += n */
    if (!j->handler) {                                  /* a handler's: no event stops it */
        op_m(e, 1, 0x3b, R14, RBX, offsetof(cpu_t, event_at));
        add_cold(&t, COLD_EVENT, 0, b->n, jcc(e, CC_A), 0, b->pc);
    }
    mov_imm(e, R13, (uint64_t)(uintptr_t)b);
    size_t body = here(e);
    for (uint32_t k = 0; k <= b->n; k++)
        if (emit_entry(&t, k)) break;
    for (size_t s = 0; s < t.ncold; s++) emit_cold(&t, &t.cold[s]);
    free(cold);
    size_t end = here(e);
    if (end - j->used > need) {
        fprintf(stderr, "jit: a block of %u instructions took %zu bytes (bound %zu)\n", b->n,
                end - j->used, need);
        abort();
    }
    j->used = (end + 15) & ~(size_t)15;
    j->check[id] = (uint32_t)check;
    j->body[id] = (uint32_t)body;
    j->stats.translated++;
    return (uint32_t)body;
}

static void set_rel32(jit_t *j, uint32_t at, uint32_t target)
{
    int32_t rel = (int32_t)((int64_t)target - (int64_t)(at + 4));
    memcpy(j->rw + at, &rel, 4);
}

/* The chain `site` goes to block id's code: the link C found in the epoch
 * the patched chains are of (epoch_seen). */
static void patch(jit_t *j, int64_t site, uint32_t id)
{
    jit_site_t *s = &j->sites[site];
    set_rel32(j, s->patch, j->check[id]);
    if (!s->live) {
        s->live = 1;
        j->patched[j->npatched++] = (uint32_t)site;
    }
}

/* The table's epoch moved (decoded code may have gone, or the table
 * moved): every chain goes out to C again, where the links are checked.
 * Called from translated code too, which then runs the code just written
 * through the other view: cpuid serializes the instruction stream. */
static void jit_epoch_moved(jit_t *j)
{
    for (uint32_t k = 0; k < j->npatched; k++) {
        jit_site_t *s = &j->sites[j->patched[k]];
        set_rel32(j, s->patch, s->out);
        s->live = 0;
    }
    j->npatched = 0;
    j->st->epoch_seen = j->st->bs->epoch;
    j->stats.unpatches++;
    unsigned a = 0, b, c = 0, d;
    __asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d) : : "memory");
}

/* pc's block, entered from C: in the jump cache for indirect transfers. */
static void remember(jit_t *j, const blocks_t *bs, uint64_t pc, uint32_t id)
{
    jit_jc_t *x = &j->st->jc[(pc >> 1) & ((1u << JIT_JC_BITS) - 1)];
    *x = (jit_jc_t){ .pc = pc, .code = j->rx + j->check[id], .epoch = bs->epoch };
}

/* ---- the run ------------------------------------------------------------------------- */

static uint64_t leave(blocks_t *bs, uint64_t pc)
{
    bs->flight = NULL;
    bs->flight_counted = 0;
    return pc;
}

uint64_t jit_execute(jit_t *j, cpu_t *c, blocks_t *bs, truth_t *truth, uint64_t pc)
{
    enter_fn enter = (enter_fn)(void *)j->rx;
    jit_state_t *st = j->st;
    const mem_itlb_entry_t *itlb = c->mem->itlb;
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL, *in;
    block_t *b, *nb;
    uint64_t retired = c->instret;
    uint32_t from = 0;
    uint64_t from_epoch = 0;
    uintptr_t way = 0;
    uint32_t body;
    sync_table(j, bs, truth);
    blocks_jit_see_code_epoch(bs, c->mem);
    st->bs = bs;

next_block:                             /* as the block loop's next_block */
    if ((pc & ~GUEST_PAGE_MASK) != page_base) {
        uint64_t vpn = pc >> GUEST_PAGE_SHIFT;
        const mem_itlb_entry_t *it = &itlb[vpn & (MEM_ITLB_SIZE - 1)];
        if (it->tag == vpn) slots = it->slots;
        else if (from) slots = blocks_jit_page_after(bs, c, pc);
        else return leave(bs, pc);
        page_base = pc & ~GUEST_PAGE_MASK;
    }
    in = &slots[(pc & GUEST_PAGE_MASK) >> 1];
    if (!in->exec || in->block == BLOCK_NONE) return leave(bs, pc);
    b = (block_t *)blocks_find(bs, in);
    if (!b) return leave(bs, pc);
    sync_table(j, bs, truth);           /* a build may have moved or emptied it */
    blocks_jit_found(bs, pc, b);
    if (from && bs->epoch == from_epoch) blocks_jit_link(bs, &bs->blk[from], way, b);
    body = translation(j, bs, b);
    if (retired + b->n > c->event_at) return leave(bs, pc);
    retired += b->n;
    remember(j, bs, pc, (uint32_t)(b - bs->blk));

run:                                    /* b's code from its body; retired counts it */
    if (st->epoch_seen != bs->epoch) jit_epoch_moved(j);
    st->b = b;
    st->retired = retired;
    j->stats.entries++;
    uint32_t reason = enter(c, st, j->rx + body);
    b = st->b;
    retired = st->retired;
    pc = st->pc;
    if (reason == EXIT_EVENT) {         /* before the next block: the loop's `chained` */
        blocks_jit_leave_after(c, bs, b, pc, retired);
        return leave(bs, pc);
    }
    if (reason == EXIT_DROPPED) return leave(bs, blocks_jit_dropped(c, bs, b, st->way, retired));
    if (reason == EXIT_REPLACED) {      /* the loop's `replaced`: the engine runs it */
        blocks_jit_replaced(bs, b, st->way);
        return leave(bs, c->pc);
    }
    way = st->way;                      /* EXIT_COUNTED: the run counted; to pc */
    int64_t site = st->site;
    if (b->link_pc[way] == pc && b->link_epoch[way] == bs->epoch) {
        nb = b->link[way];
    } else if ((nb = blocks_jit_jump_lookup(bs, pc)) != NULL) {
        blocks_jit_link(bs, b, way, nb);
    } else {                            /* the loop's `unlinked` */
        blocks_jit_leave_after(c, bs, b, pc, retired);
        if (retired >= c->event_at) return leave(bs, pc);
        from = (uint32_t)(b - bs->blk);
        from_epoch = bs->epoch;
        goto next_block;
    }
    uint64_t generation = j->generation;    /* chained: to nb, at pc */
    body = translation(j, bs, nb);
    if (retired + nb->n > c->event_at) {
        blocks_jit_leave_after(c, bs, b, pc, retired);
        return leave(bs, pc);
    }
    retired += nb->n;
    uint32_t id = (uint32_t)(nb - bs->blk);
    if (site >= 0 && generation == j->generation && st->epoch_seen == bs->epoch) patch(j, site, id);
    remember(j, bs, pc, id);
    b = nb;
    goto run;
}

/* blocks_execute_handler's contract (blocks.h) by translated code, as the
 * block loop's handler copy keeps it: from pc in the handler runtime's
 * memory until a transfer switches it (hps.ret: the program's pc, in its
 * memory), or a block cannot start; no event stops it and the cpu's instret
 * stays the program's (translated without either: jit_for_handlers); the
 * instructions run into *ran.  The table's links, jump cache and patched
 * chains are the handler code's alone (a translator of its own). */
uint64_t jit_execute_handler(jit_t *j, cpu_t *c, blocks_t *bs, uint64_t pc, uint64_t *ran)
{
    enter_fn enter = (enter_fn)(void *)j->rx;
    jit_state_t *st = j->st;
    const mem_t *home = c->mem;
    const mem_itlb_entry_t *itlb = home->itlb;
    const uint64_t instret = c->instret;   /* the program's: the helpers below set it */
    uint64_t page_base = ~0ull;
    insn_t *slots = NULL, *in;
    block_t *b, *nb;
    uint64_t retired = 0;
    uint32_t from = 0;
    uint64_t from_epoch = 0;
    uintptr_t way = 0;
    uint32_t body;
    blocks_jit_see_code_epoch(bs, home);
    st->bs = bs;
    if (pc == j->entry_pc && j->entry_b && bs->epoch == j->entry_epoch &&
        j->generation == j->entry_generation && bs->blk == j->blk_seen &&
        bs->resets == j->resets_seen) {     /* where the last run started: as found then */
        b = j->entry_b;
        body = j->entry_body;
        retired = b->n;
        goto run;
    }
    sync_table(j, bs, NULL);

next_block:                             /* as the handler copy's next_block */
    if ((pc & ~GUEST_PAGE_MASK) != page_base) {
        uint64_t vpn = pc >> GUEST_PAGE_SHIFT;
        const mem_itlb_entry_t *it = &itlb[vpn & (MEM_ITLB_SIZE - 1)];
        if (it->tag == vpn) slots = it->slots;
        else if (from) slots = blocks_jit_page_after(bs, c, pc);
        else goto out;
        page_base = pc & ~GUEST_PAGE_MASK;
    }
    in = &slots[(pc & GUEST_PAGE_MASK) >> 1];
    if (!in->exec || in->block == BLOCK_NONE) goto out;
    b = (block_t *)blocks_find(bs, in);
    if (!b) goto out;
    sync_table(j, bs, NULL);            /* a build may have moved or emptied it */
    blocks_jit_found(bs, pc, b);
    if (from && bs->epoch == from_epoch) blocks_jit_link(bs, &bs->blk[from], way, b);
    body = translation(j, bs, b);
    retired += b->n;
    remember(j, bs, pc, (uint32_t)(b - bs->blk));
    if (!from) {                        /* the run's first block: kept for the next */
        j->entry_pc = pc;
        j->entry_b = b;
        j->entry_body = body;
        j->entry_epoch = bs->epoch;
        j->entry_generation = j->generation;
    }

run:                                    /* b's code from its body; retired counts it */
    if (st->epoch_seen != bs->epoch) jit_epoch_moved(j);
    st->b = b;
    st->retired = retired;
    j->stats.entries++;
    uint32_t reason = enter(c, st, j->rx + body);
    b = st->b;
    retired = st->retired;
    pc = st->pc;
    if (reason == EXIT_DROPPED) {
        pc = blocks_jit_dropped(c, bs, b, st->way, retired);
        retired = c->instret;           /* retired - b->n + k */
        goto out;
    }
    if (reason != EXIT_COUNTED) {       /* no event check, no DISE entry: never */
        fprintf(stderr, "hps-sim: internal error: a handler's translated code left (%u)\n",
                reason);
        exit(EXIT_INTERNAL);
    }
    if (c->mem != home) goto out;       /* hps.ret: the program's pc, in its memory */
    way = st->way;                      /* to pc */
    int64_t site = st->site;
    if (b->link_pc[way] == pc && b->link_epoch[way] == bs->epoch) {
        nb = b->link[way];
    } else if ((nb = blocks_jit_jump_lookup(bs, pc)) != NULL) {
        blocks_jit_link(bs, b, way, nb);
    } else {                            /* the loop's `unlinked` (leave_at) */
        blocks_jit_leave_after(c, bs, b, pc, retired);
        from = (uint32_t)(b - bs->blk);
        from_epoch = bs->epoch;
        goto next_block;
    }
    uint64_t generation = j->generation;    /* chained: to nb, at pc */
    body = translation(j, bs, nb);
    retired += nb->n;
    uint32_t id = (uint32_t)(nb - bs->blk);
    if (site >= 0 && generation == j->generation && st->epoch_seen == bs->epoch) patch(j, site, id);
    remember(j, bs, pc, id);
    b = nb;
    goto run;

out:
    c->instret = instret;
    *ran = retired;
    return leave(bs, pc);
}

void jit_for_handlers(jit_t *j) { j->handler = true; }

/* The code cache's size: JIT_CODE_SIZE, or HPS_JIT_CACHE_KB (at least
 * enough for the largest block a page can hold). */
static size_t cache_size(void)
{
    const char *kb = getenv("HPS_JIT_CACHE_KB");
    size_t least = JIT_BLOCK_MAX + (GUEST_PAGE_SIZE / 2 + 1) * JIT_ENTRY_MAX + 4096;
    if (!kb || !*kb) return JIT_CODE_SIZE;
    size_t size = (size_t)strtoull(kb, NULL, 10) << 10;
    if (size < least) size = least;
    if (size > JIT_CODE_SIZE) size = JIT_CODE_SIZE;
    return (size + 4095) & ~(size_t)4095;
}

jit_t *jit_new(char *err, size_t errlen)
{
    size_t size = cache_size();
    int fd = memfd_create("hps-sim-jit", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, (off_t)size) != 0) {
        snprintf(err, errlen, "--jit: cannot make the code cache: %s", strerror(errno));
        if (fd >= 0) close(fd);
        return NULL;
    }
    void *rw = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    void *rx = mmap(NULL, size, PROT_READ | PROT_EXEC, MAP_SHARED, fd, 0);
    if (rw == MAP_FAILED || rx == MAP_FAILED) {
        snprintf(err, errlen, "--jit: cannot map the code cache: %s", strerror(errno));
        if (rw != MAP_FAILED) munmap(rw, size);
        if (rx != MAP_FAILED) munmap(rx, size);
        close(fd);
        return NULL;
    }
    jit_t *j = xcalloc(1, sizeof *j);
    j->fd = fd;
    j->size = size;
    j->rw = rw;
    j->rx = rx;
    j->sites = xcalloc(JIT_MAX_SITES, sizeof *j->sites);
    j->patched = xcalloc(JIT_MAX_SITES, sizeof *j->patched);
    j->st = xcalloc(1, sizeof *j->st);
    j->st->epoch_seen = UINT64_MAX;
    emit_trampoline(j);
    flush(j);
    j->stats.flushes = 0;
    return j;
}

void jit_free(jit_t *j)
{
    if (!j) return;
    if (getenv("HPS_JIT_STATS"))
        fprintf(stderr, "jit: %" PRIu64 " blocks translated (%" PRIu64 " entries inline, %" PRIu64
                " called, %" PRIu64 " DISE's), %" PRIu64 " flushes, %" PRIu64
                " runs entered from C, %" PRIu64 " unpatches\n", j->stats.translated,
                j->stats.inline_entries, j->stats.called_entries, j->stats.edit_entries,
                j->stats.flushes, j->stats.entries, j->stats.unpatches);
    munmap(j->rw, j->size);
    munmap(j->rx, j->size);
    close(j->fd);
    free(j->sites);
    free(j->patched);
    free(j->check);
    free(j->body);
    free(j->st);
    free(j);
}

void jit_get_stats(const jit_t *j, jit_stats_t *s) { *s = j->stats; }

#else /* not an x86-64 Linux host: --jit is refused (jit_supported) */

bool jit_supported(const char **why)
{
    if (why) *why = "--jit translates to x86-64 code: this host is not x86-64 Linux";
    return false;
}

jit_t *jit_new(char *err, size_t errlen)
{
    const char *why;
    jit_supported(&why);
    snprintf(err, errlen, "%s", why);
    return NULL;
}

void jit_free(jit_t *j) { (void)j; }

uint64_t jit_execute(jit_t *j, cpu_t *c, blocks_t *bs, truth_t *truth, uint64_t pc)
{
    (void)j;
    return blocks_interpret(c, bs, truth, pc);
}

void jit_get_stats(const jit_t *j, jit_stats_t *s)
{
    (void)j;
    memset(s, 0, sizeof *s);
}

uint64_t jit_execute_handler(jit_t *j, cpu_t *c, blocks_t *bs, uint64_t pc, uint64_t *ran)
{
    (void)j; (void)c; (void)bs;         /* never: jit_new made no translator */
    *ran = 0;
    return pc;
}

void jit_for_handlers(jit_t *j) { (void)j; }

#endif
