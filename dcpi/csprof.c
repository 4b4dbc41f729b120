/*
 * csprof.c - call path profiling by stack sampling (csprof.h): the DWARF
 * CFI unwinder, the sample path with its cached call stack, the moving
 * trampoline, and the scores against the exact CCT of the same run.
 */
#include "csprof.h"

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <fcntl.h>
#include <gelf.h>
#include <inttypes.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loader.h"
#include "mem.h"
#include "util.h"

#define MAX_FRAMES 8192
#define NREGS 32                     /* the integer registers the CFI can name */

/* Where a frame's return address lives: a register or a stack word. */
typedef struct ra_loc {
    bool in_mem;
    uint64_t addr;                   /* in_mem */
    unsigned reg;                    /* else */
} ra_loc_t;

/* The register state of one frame while unwinding. */
typedef struct regs {
    uint64_t r[NREGS];
    uint32_t known;                  /* bit r: r[r] is known */
} regs_t;

/* One frame of a walk, innermost first. */
typedef struct walk_frame {
    uint64_t pc;                     /* where it is (the sample's pc, or the
                                        return address into it)             */
    uint64_t entry;                  /* its procedure's entry               */
    uint64_t cfa;
    uint64_t ret;                    /* its return address (value read)     */
    ra_loc_t ra;                     /* where that is stored                */
    bool outermost;                  /* no caller                           */
} walk_frame_t;

/* A cached unwind record (rule_for) or return-address check. */
typedef struct pc_rule {
    uint64_t key;                    /* (pc << 2 | kind) + 1; 0: empty     */
    bool ok, outermost, ra_in_reg;
    uint8_t rreg;                    /* the return-address register        */
    int64_t n;                       /* CFA = sp + n                       */
    int64_t ra_off;                  /* else the return address at CFA + it */
} pc_rule_t;

/* One frame of the cached call stack, outermost first. */
typedef struct cached {
    uint32_t node;
    uint64_t cfa;
    uint64_t entry;
} cached_t;

struct csprof {
    csprof_options_t opt;
    pmu_t *pmu;
    cpu_t *cpu;
    const symtab_t *symtab;
    int fd;
    Elf *elf;
    Dwarf_CFI *cfi;
    unsigned sp_reg, ra_reg;         /* unified = DWARF numbers here */
    uint64_t program_entry;          /* e_entry: the outermost procedure */
    symbol_t *procs;                 /* the ELF's code symbols, FUNC and global
                                        NOTYPE (hand-written assembly such as
                                        Alpha's division millicode has no
                                        type), by address; size 0: up to
                                        the next                          */
    size_t nprocs;
    pc_rule_t *rules;                /* unwind records by pc (no CFI)     */
    size_t nrules, rules_cap;
    uint64_t trampoline;             /* the reserved guest address */
    uint64_t rng;

    cct_t tree;
    cached_t *stack;                 /* the cached call stack */
    size_t depth;
    walk_frame_t *walk;

    bool tramp_on;                   /* a trampoline is installed in the */
    ra_loc_t tramp_loc;              /* return-address slot of stack[depth-1] */
    uint64_t tramp_saved;            /* the return address it replaced */

    /* counts */
    uint64_t prologue_frames;        /* unwound without CFI */
    uint64_t samples, frames_walked, cached_frames_used, trampoline_returns;
    uint64_t tail_calls, trampoline_lost, samples_on_trampoline, failures;
    uint64_t ops;                    /* modelled work: see csprof.h */
    const cct_truth_t *truth;        /* the exact observer, or NULL */
    uint64_t right_contexts;         /* samples whose context matches it */

    /* the guest unwinder (csprof_runtime.c), NULL with the host's */
    csprof_guest_t *guest;
    size_t guest_rules, guest_rets;  /* the tables' sizes               */
    bool finished;                   /* its tree has been read out       */
    cspg_state_t gst;                /* its counters                     */
    csprof_guest_thread_t threads[CSPG_MAX_THREADS];
    unsigned nthreads;
};

static void check_sample(csprof_t *p, uint32_t node);
static pc_rule_t *rule_slot(csprof_t *p, uint64_t key);

/* ---- options ---------------------------------------------------------------------- */

static bool parse_u64(const char *s, const char *end, uint64_t *out)
{
    if (s == end) return false;
    uint64_t v = 0;
    for (; s < end; s++) {
        if (*s < '0' || *s > '9' || v > UINT64_MAX / 10) return false;
        v = v * 10 + (uint64_t)(*s - '0');
    }
    *out = v;
    return true;
}

bool csprof_parse(const char *text, unsigned counter_bits, csprof_options_t *o,
                  char *err, size_t errlen)
{
    const char *colon = strchr(text, ':');
    size_t nlen = colon ? (size_t)(colon - text) : strlen(text);
    char name[32];
    snprintf(name, sizeof name, "%.*s", (int)(nlen < sizeof name ? nlen : sizeof name - 1), text);
    int e = pmu_event_by_name(name);
    if (e < 0 || nlen >= sizeof name)
        return set_error(err, errlen, "--csprof '%s': unknown event '%s' (expected one of:%s)",
                         text, name, PMU_EVENT_NAMES);
    o->event = (pmu_event_t)e;
    o->period_lo = e == PMU_CYCLES ? 4096 : 1000;
    o->period_hi = e == PMU_CYCLES ? 4351 : 1063;
    if (colon) {
        const char *end = colon + strlen(colon), *dash = strchr(colon, '-');
        bool ok = dash ? parse_u64(colon + 1, dash, &o->period_lo) &&
                         parse_u64(dash + 1, end, &o->period_hi)
                       : parse_u64(colon + 1, end, &o->period_lo);
        if (!dash) o->period_hi = o->period_lo;
        if (!ok)
            return set_error(err, errlen, "--csprof '%s': expected EVENT:PERIOD or "
                             "EVENT:MIN-MAX with decimal periods", text);
    }
    uint64_t limit = counter_bits >= 64 ? UINT64_MAX : (1ull << counter_bits) - 1;
    if (o->period_lo < 16 || o->period_lo > o->period_hi || o->period_hi > limit)
        return set_error(err, errlen, "--csprof '%s': the period range must be within "
                         "16..%" PRIu64 " (pmu.counter_bits = %u) and MIN <= MAX",
                         text, limit, counter_bits);
    return true;
}

/* ---- the unwinder ------------------------------------------------------------------- */

static bool read_word(csprof_t *p, uint64_t addr, uint64_t *v)
{
    p->ops++;
    return mem_read(p->cpu->mem, addr, v, 8);
}

/* Evaluate a CFI expression (the subset GCC emits); cfa is the frame's CFA
 * for DW_OP_call_frame_cfa.  *is_value: it ends in DW_OP_stack_value. */
static bool eval_ops(csprof_t *p, const Dwarf_Op *ops, size_t n, const regs_t *r, uint64_t cfa,
                     uint64_t *out, bool *is_value)
{
    uint64_t st[8];
    size_t sp = 0;
    *is_value = false;
    for (size_t k = 0; k < n; k++) {
        const Dwarf_Op *op = &ops[k];
        uint8_t a = op->atom;
        p->ops++;
        if (sp == 8) return false;
        if (a >= DW_OP_breg0 && a <= DW_OP_breg31) {
            unsigned reg = a - DW_OP_breg0;
            if (!(r->known >> reg & 1)) return false;
            st[sp++] = r->r[reg] + (uint64_t)(int64_t)op->number;
        } else if (a == DW_OP_bregx) {
            if (op->number >= NREGS || !(r->known >> op->number & 1)) return false;
            st[sp++] = r->r[op->number] + (uint64_t)(int64_t)op->number2;
        } else if (a >= DW_OP_lit0 && a <= DW_OP_lit31) {
            st[sp++] = a - DW_OP_lit0;
        } else if (a == DW_OP_call_frame_cfa) {
            st[sp++] = cfa;
        } else if (a == DW_OP_consts || a == DW_OP_constu || a == DW_OP_const1u ||
                   a == DW_OP_const2u || a == DW_OP_const4u || a == DW_OP_const8u ||
                   a == DW_OP_const1s || a == DW_OP_const2s || a == DW_OP_const4s ||
                   a == DW_OP_const8s) {
            st[sp++] = op->number;
        } else if (a == DW_OP_plus_uconst) {
            if (!sp) return false;
            st[sp - 1] += op->number;
        } else if (a == DW_OP_plus || a == DW_OP_minus) {
            if (sp < 2) return false;
            sp--;
            st[sp - 1] = a == DW_OP_plus ? st[sp - 1] + st[sp] : st[sp - 1] - st[sp];
        } else if (a == DW_OP_deref) {
            if (!sp || !read_word(p, st[sp - 1], &st[sp - 1])) return false;
        } else if (a == DW_OP_stack_value) {
            *is_value = true;
        } else {
            return false;                    /* not emitted by GCC's CFI */
        }
    }
    if (!sp) return false;
    *out = st[sp - 1];
    return true;
}

/* The caller's value of register reg by the frame's rule; *loc where it is
 * stored (for the return address).  False when it cannot be recovered. */
static bool caller_reg(csprof_t *p, Dwarf_Frame *fr, unsigned reg, const regs_t *r, uint64_t cfa,
                       uint64_t *val, ra_loc_t *loc)
{
    Dwarf_Op mem[3], *ops;
    size_t n;
    if (dwarf_frame_register(fr, (int)reg, mem, &ops, &n) != 0) return false;
    p->ops++;
    if (n == 0 && ops == NULL) {             /* same value */
        if (!(r->known >> reg & 1)) return false;
        *val = r->r[reg];
        if (loc) *loc = (ra_loc_t){ .in_mem = false, .reg = reg };
        return true;
    }
    if (n == 0) return false;                /* undefined */
    uint64_t v;
    bool is_value;
    if (!eval_ops(p, ops, n, r, cfa, &v, &is_value)) return false;
    if (is_value) {
        *val = v;
        if (loc) *loc = (ra_loc_t){ .in_mem = false, .reg = REG_NONE };
        return true;
    }
    if (loc) *loc = (ra_loc_t){ .in_mem = true, .addr = v };
    return read_word(p, v, val);
}

/* Frame-table probes of a lookup: a binary search over the procedures. */
static void count_lookup(csprof_t *p)
{
    uint64_t probes = 1;
    while ((1ull << probes) <= p->nprocs) probes++;
    p->ops += probes;
}

/* The code symbol holding pc, or NULL. */
static const symbol_t *proc_at(const csprof_t *p, uint64_t pc)
{
    size_t lo = 0, hi = p->nprocs;
    while (lo < hi) {                        /* the first symbol above pc */
        size_t mid = (lo + hi) / 2;
        if (p->procs[mid].addr <= pc) lo = mid + 1;
        else hi = mid;
    }
    if (lo == 0) return NULL;
    const symbol_t *s = &p->procs[lo - 1];
    return pc < s->addr + s->size ? s : NULL;
}

static uint64_t entry_of(const csprof_t *p, uint64_t pc)
{
    const symbol_t *s = proc_at(p, pc);
    return s ? s->addr : pc;
}

/* The call site a return address comes back to: the call instruction
 * before it (4 bytes, or a 2-byte RVC call). */
static bool find_call_site(csprof_t *p, uint64_t ret, uint64_t *site)
{
    const isa_t *isa = p->cpu->isa;
    uint8_t b[4];
    insn_t in;
    p->ops++;
    if (ret < 4) return false;
    if (mem_read(p->cpu->mem, ret - 4, b, 4) && isa->decode(ret - 4, b, 4, &in) &&
        (in.flags & IF_CALL) && in.len == 4) {
        *site = ret - 4;
        return true;
    }
    if (isa->insn_align == 2 && mem_read(p->cpu->mem, ret - 2, b, 2) &&
        isa->decode(ret - 2, b, 2, &in) && (in.flags & IF_CALL) && in.len == 2) {
        *site = ret - 2;
        return true;
    }
    return false;
}

static uint64_t call_site(csprof_t *p, uint64_t ret)
{
    uint64_t site;
    return find_call_site(p, ret, &site) ? site : ret - 4;
}

/* Is addr where a call returns to (right after a call instruction)?  The
 * check that keeps prologue analysis from taking a local for a return
 * address, and the trampoline from being written over one. */
static bool is_return_address(csprof_t *p, uint64_t addr)
{
    uint64_t key = (addr << 2 | 2) + 1, site;
    pc_rule_t *u = rule_slot(p, key);
    p->ops++;
    if (u->key) return u->ok;
    u->ok = find_call_site(p, addr, &site);
    u->key = key;
    p->nrules++;
    return u->ok;
}

/* ---- prologue analysis, where there is no CFI ----------------------------------------------- */

static bool fetch_insn(csprof_t *p, uint64_t pc, insn_t *in)
{
    uint8_t b[4];
    p->ops++;
    return mem_read(p->cpu->mem, pc, b, 4) && p->cpu->isa->decode(pc, b, 4, in);
}

static const char *insn_name(const csprof_t *p, const insn_t *in)
{
    return in->op < p->cpu->isa->table_size ? p->cpu->isa->table[in->op].name : "";
}

/* Constants in registers on a straight path (lui/addi/li), so that a
 * large frame's "add sp, sp, t0" is understood. */
typedef struct consts {
    int64_t v[NREGS];
    uint32_t known;
} consts_t;

static void track_const(const csprof_t *p, const insn_t *in, consts_t *k)
{
    if (in->rd >= NREGS) return;
    const char *n = insn_name(p, in);
    bool from_reg = in->rs1 < NREGS && (k->known >> in->rs1 & 1);
    int64_t v;
    if (!strcmp(n, "lui")) v = in->imm;
    else if (!strcmp(n, "addi") && in->rs1 == REG_ZERO) v = in->imm;
    else if (!strcmp(n, "addi") && from_reg) v = k->v[in->rs1] + in->imm;
    else if (!strcmp(n, "addiw") && from_reg) v = (int32_t)(k->v[in->rs1] + in->imm);
    else {
        k->known &= ~(1u << in->rd);
        return;
    }
    k->v[in->rd] = v;
    k->known |= 1u << in->rd;
}

/* addi sp, sp, imm (RVC forms decode to it), add sp, sp, rK with a known
 * constant, or Alpha's lda sp, imm(sp). */
static bool sp_adjust(const csprof_t *p, const insn_t *in, const consts_t *k, int64_t *delta)
{
    const char *n = insn_name(p, in);
    if (in->rd != p->sp_reg || in->rs1 != p->sp_reg) return false;
    if (!strcmp(n, "addi") || !strcmp(n, "lda")) {
        *delta = in->imm;
        return true;
    }
    if (!strcmp(n, "add") && in->rs2 < NREGS && (k->known >> in->rs2 & 1)) {
        *delta = k->v[in->rs2];
        return true;
    }
    return false;
}

/* sd ra, off(sp) or Alpha's stq ra, off(sp). */
static bool ra_save(const csprof_t *p, const insn_t *in, int64_t *off)
{
    const char *n = insn_name(p, in);
    if ((strcmp(n, "sd") && strcmp(n, "stq")) || in->rs1 != p->sp_reg || in->rs2 != p->ra_reg)
        return false;
    *off = in->imm;
    return true;
}

typedef struct prologue {
    bool dynamic;                    /* sp is also set otherwise (a frame
                                        pointer, alloca): no analysis       */
    int64_t frame;                   /* bytes the prologue allocates, 0: none */
    uint64_t adjust_pc;              /* its first allocation                  */
    bool ra_saved;
    int64_t ra_cfa_off;              /* the return address at CFA + this     */
    uint64_t ra_store_pc;
} prologue_t;

/* The stack allocations and the return-address store of the procedure at
 * [lo, hi), up to its first call (past early returns: shrink-wrapping puts
 * the prologue after them). */
static void read_prologue(csprof_t *p, uint64_t lo, uint64_t hi, prologue_t *pr)
{
    *pr = (prologue_t){ .frame = 0 };
    consts_t k = { .known = 0 };
    insn_t in;
    for (uint64_t a = lo; a < hi && a < lo + 512 && fetch_insn(p, a, &in); a += in.len) {
        int64_t v;
        if (in.flags & IF_CALL) return;      /* ra is saved before the first call */
        if (sp_adjust(p, &in, &k, &v) && v < 0) {
            if (!pr->frame) pr->adjust_pc = a;
            pr->frame -= v;
        } else if (in.rd == p->sp_reg && !sp_adjust(p, &in, &k, &v)) {
            pr->dynamic = true;
        } else if (!pr->ra_saved && ra_save(p, &in, &v)) {
            pr->ra_saved = true;
            pr->ra_cfa_off = v - pr->frame;
            pr->ra_store_pc = a;
        }
        track_const(p, &in, &k);
    }
}

/* The frame's size at pc: the stack pointer increments on the straight
 * path from pc to the procedure's return (or tail jump), following direct
 * jumps inside [lo, hi).  -1 when that path cannot be followed.  *ret_reg:
 * the register the return jumps through (Alpha's division millicode
 * returns through t9), left alone when no return was found. */
static int64_t frame_at(csprof_t *p, uint64_t pc, uint64_t lo, uint64_t hi, unsigned *ret_reg)
{
    int64_t n = 0;
    insn_t in;
    uint64_t a = pc;
    consts_t k = { .known = 0 };
    for (int steps = 0; steps < 256; steps++) {
        int64_t v;
        if (a < lo || a >= hi || !fetch_insn(p, a, &in)) return -1;
        if (sp_adjust(p, &in, &k, &v)) n += v;
        else if (in.rd == p->sp_reg) return -1;          /* sp from elsewhere */
        track_const(p, &in, &k);
        if (in.flags & IF_RETURN) {
            if (in.rs1 < NREGS) *ret_reg = in.rs1;
            return n >= 0 ? n : -1;
        }
        if ((in.flags & IF_JUMP) && !(in.flags & IF_CALL)) {
            if (!(in.flags & IF_DIRECT))     /* after the epilogue a tail jump, else a switch */
                return n > 0 ? n : -1;
            if (in.target < lo || in.target >= hi) return n >= 0 ? n : -1;   /* tail call */
            a = in.target;
            continue;
        }
        a += in.len;
    }
    return -1;
}

/* Does the straight code just before pc free the stack frame (csprof's
 * epilogue test: a few instructions back)?  Fixed-length encodings only. */
static bool after_epilogue(csprof_t *p, uint64_t pc, uint64_t lo)
{
    if (p->cpu->isa->insn_align != 4) return false;
    consts_t k = { .known = 0 };
    insn_t in;
    for (uint64_t a = pc; a >= lo + 4 && a + 32 > pc;) {
        a -= 4;
        int64_t v;
        if (!fetch_insn(p, a, &in) || (in.flags & (IF_TRANSFER))) return false;
        if (sp_adjust(p, &in, &k, &v)) return v > 0;
    }
    return false;
}

/* The unwind record of a pc, derived from the code once and kept (csprof's
 * per-procedure descriptors, here per pc): where the CFA is, where the
 * return address is. */
static void derive_rule_in(csprof_t *p, uint64_t pc, bool exact, const symbol_t *s,
                           const prologue_t *pr, pc_rule_t *u)
{
    u->ok = false;
    if (s->addr == p->program_entry) {       /* the program's entry: no caller */
        u->ok = u->outermost = true;
        return;
    }
    if (pr->dynamic) return;
    unsigned rreg = p->ra_reg;
    int64_t n = frame_at(p, pc, s->addr, s->addr + s->size, &rreg);
    if (n < 0) n = pr->frame && pc > pr->adjust_pc && !after_epilogue(p, pc, s->addr) ? pr->frame : 0;
    u->ok = true;
    u->n = n;
    u->rreg = (uint8_t)rreg;
    u->ra_in_reg = rreg != p->ra_reg || n == 0 || !pr->ra_saved || (exact && pc <= pr->ra_store_pc);
    u->ra_off = pr->ra_cfa_off;
}

static void derive_rule(csprof_t *p, uint64_t pc, bool exact, pc_rule_t *u)
{
    uint64_t look = exact ? pc : pc - 1;
    const symbol_t *s = proc_at(p, look);
    u->ok = false;
    if (!s || !s->size || look >= s->addr + s->size) return;
    prologue_t pr;
    read_prologue(p, s->addr, s->addr + s->size, &pr);
    derive_rule_in(p, pc, exact, s, &pr, u);
}

/* The cached record for (pc, kind), derived on the first use. */
static pc_rule_t *rule_slot(csprof_t *p, uint64_t key)
{
    if (2 * (p->nrules + 1) > p->rules_cap) {
        size_t cap = p->rules_cap ? 2 * p->rules_cap : 4096;
        pc_rule_t *t = xcalloc(cap, sizeof *t);
        for (size_t k = 0; k < p->rules_cap; k++) {
            if (!p->rules[k].key) continue;
            size_t i = (p->rules[k].key * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
            while (t[i].key) i = (i + 1) & (cap - 1);
            t[i] = p->rules[k];
        }
        free(p->rules);
        p->rules = t;
        p->rules_cap = cap;
    }
    size_t i = (key * 0x9e3779b97f4a7c15ull >> 20) & (p->rules_cap - 1);
    while (p->rules[i].key && p->rules[i].key != key) i = (i + 1) & (p->rules_cap - 1);
    return &p->rules[i];
}

static const pc_rule_t *rule_for(csprof_t *p, uint64_t pc, bool exact)
{
    uint64_t key = (pc << 2 | exact) + 1;
    pc_rule_t *u = rule_slot(p, key);
    p->ops++;                                /* the record's lookup */
    if (u->key) return u;
    derive_rule(p, pc, exact, u);
    u->key = key;
    p->nrules++;
    return u;
}

/* Unwind frame f at pc without CFI, by its unwind record: false when no
 * symbol holds pc or its frame cannot be made out. */
static bool unwind_by_prologue(csprof_t *p, uint64_t pc, bool exact, regs_t *r, walk_frame_t *f)
{
    const pc_rule_t *u = rule_for(p, pc, exact);
    if (!u->ok || !(r->known >> p->sp_reg & 1)) return false;
    uint64_t sp = r->r[p->sp_reg];
    if (u->outermost) {
        f->cfa = sp;
        f->outermost = true;
        return true;
    }
    f->cfa = sp + (uint64_t)u->n;
    if (u->ra_in_reg) {
        if (!(r->known >> u->rreg & 1)) return false;   /* (a caller's: saved, not known) */
        f->ra = (ra_loc_t){ .in_mem = false, .reg = u->rreg };
        f->ret = r->r[u->rreg];
    } else {
        f->ra = (ra_loc_t){ .in_mem = true, .addr = f->cfa + (uint64_t)u->ra_off };
        if (!read_word(p, f->ra.addr, &f->ret)) return false;
    }
    bool to_trampoline = p->tramp_on && f->ret == p->trampoline;
    if (!to_trampoline && !is_return_address(p, f->ret)) return false;
    /* The caller's registers: its sp; its return-address register too when
     * this frame returned through another one (millicode leaves it alone). */
    regs_t caller = { .known = 1u << p->sp_reg };
    caller.r[p->sp_reg] = f->cfa;
    if (u->rreg != p->ra_reg && (r->known >> p->ra_reg & 1)) {
        caller.r[p->ra_reg] = r->r[p->ra_reg];
        caller.known |= 1u << p->ra_reg;
    }
    *r = caller;
    p->prologue_frames++;
    return true;
}

/* Is the frame's rule for reg "undefined" (the outermost frame's
 * return address)? */
static bool rule_undefined(Dwarf_Frame *fr, int reg)
{
    Dwarf_Op mem[3], *ops;
    size_t n;
    return dwarf_frame_register(fr, reg, mem, &ops, &n) == 0 && n == 0 && ops == mem;
}

/* Unwind with the frame's CFI; false when it cannot be evaluated here. */
static bool cfi_frame(csprof_t *p, Dwarf_Frame *fr, regs_t *r, walk_frame_t *f)
{
    Dwarf_Op *ops;
    size_t n;
    uint64_t cfa, ret;
    bool is_value;
    int ra_col = dwarf_frame_info(fr, NULL, NULL, NULL);
    if (dwarf_frame_cfa(fr, &ops, &n) != 0 || !n || !eval_ops(p, ops, n, r, 0, &cfa, &is_value))
        return false;
    f->cfa = cfa;
    if (ra_col < 0 || ra_col >= NREGS) return false;
    if (rule_undefined(fr, ra_col)) {        /* no return address: the root */
        f->outermost = true;
        return true;
    }
    if (!caller_reg(p, fr, (unsigned)ra_col, r, cfa, &ret, &f->ra)) return false;
    regs_t caller = { .known = 0 };
    for (unsigned k = 1; k < NREGS; k++) {
        uint64_t v;
        if (k == p->sp_reg || k == (unsigned)ra_col) continue;
        if (caller_reg(p, fr, k, r, cfa, &v, NULL)) {
            caller.r[k] = v;
            caller.known |= 1u << k;
        }
    }
    caller.r[p->sp_reg] = cfa;
    caller.known |= 1u << p->sp_reg;
    caller.r[ra_col] = ret;
    caller.known |= 1u << ra_col;
    *r = caller;
    f->ret = ret;
    f->outermost = ret == 0;
    return true;
}

/* Unwind the frame at pc with registers *r: fill f (its CFA, return address
 * and its location) and turn *r into the caller's registers.  exact: pc is
 * where the frame is stopped (the youngest), else a return address (looked
 * up at pc - 1, inside the call).  False when there is no usable CFI. */
static bool unwind_one(csprof_t *p, uint64_t pc, bool exact, regs_t *r, walk_frame_t *f)
{
    Dwarf_Frame *fr = NULL;
    count_lookup(p);
    f->pc = pc;
    f->entry = entry_of(p, exact ? pc : pc - 1);
    f->outermost = false;
    if (dwarf_cfi_addrframe(p->cfi, exact ? pc : pc - 1, &fr) != 0)
        return unwind_by_prologue(p, pc, exact, r, f);
    bool ok = cfi_frame(p, fr, r, f);
    free(fr);
    return ok || unwind_by_prologue(p, pc, exact, r, f);   /* CFI it cannot evaluate */
}

/* ---- the cached call stack and the trampoline ----------------------------------------- */

static void write_ra(csprof_t *p, const ra_loc_t *loc, uint64_t v)
{
    p->ops++;
    if (loc->in_mem) mem_write(p->cpu->mem, loc->addr, &v, 8);
    else if (loc->reg < NREGS) p->cpu->reg[loc->reg] = v;
}

static uint64_t read_ra(csprof_t *p, const ra_loc_t *loc)
{
    uint64_t v = 0;
    if (loc->in_mem) read_word(p, loc->addr, &v);
    else if (loc->reg < NREGS) v = p->cpu->reg[loc->reg];
    return v;
}

/* Put the trampoline in the return-address slot of frame f (the youngest
 * of the cached stack); an outermost frame or one whose return address is
 * a computed value takes none. */
static void install(csprof_t *p, const walk_frame_t *f)
{
    p->tramp_on = false;
    if (f->outermost || (!f->ra.in_mem && f->ra.reg >= NREGS)) return;
    p->tramp_loc = f->ra;
    p->tramp_saved = f->ret;
    write_ra(p, &f->ra, p->trampoline);
    p->tramp_on = true;
}

/* Take the trampoline out of its slot, where it is still there and live. */
static void remove_trampoline(csprof_t *p)
{
    if (!p->tramp_on) return;
    const ra_loc_t *loc = &p->tramp_loc;
    bool live = !loc->in_mem || loc->addr >= p->cpu->reg[p->sp_reg];
    if (live && read_ra(p, loc) == p->trampoline) write_ra(p, loc, p->tramp_saved);
    p->tramp_on = false;
}

static void push_cached(csprof_t *p, uint32_t node, uint64_t cfa, uint64_t entry)
{
    p->stack[p->depth++] = (cached_t){ .node = node, .cfa = cfa, .entry = entry };
}

/* ---- a sample ---------------------------------------------------------------------------- */

static bool same_loc(const ra_loc_t *a, const ra_loc_t *b)
{
    return a->in_mem == b->in_mem && (a->in_mem ? a->addr == b->addr : a->reg == b->reg);
}

/* Is caller f above callee g on the stack?  Its CFA is higher, or the same
 * when f has no frame of its own: the outermost procedure, or the caller
 * of millicode that returned through another register than ra (Alpha's
 * division routines, called from procedures that need no frame). */
static bool moved_up(const csprof_t *p, const walk_frame_t *g, const walk_frame_t *f)
{
    if (f->cfa > g->cfa) return true;
    bool millicode = !g->ra.in_mem && g->ra.reg != p->ra_reg;
    return f->cfa == g->cfa && (f->outermost || millicode);
}

/* Walk from the interrupted state until the frame that returns to the
 * trampoline (*hit = its index) or the outermost frame.  Returns the frames
 * walked, 0 on a failure. */
static size_t walk(csprof_t *p, cpu_t *c, size_t *hit)
{
    regs_t r = { .known = 0 };
    for (unsigned k = 1; k < NREGS; k++) r.r[k] = c->reg[k];
    r.known = ~1u;
    uint64_t pc = c->pc;
    *hit = SIZE_MAX;
    for (size_t n = 0; n < MAX_FRAMES; n++) {
        walk_frame_t *f = &p->walk[n];
        if (!unwind_one(p, pc, n == 0, &r, f)) return 0;
        if (n > 0 && !moved_up(p, &p->walk[n - 1], f)) return 0;
        p->frames_walked++;
        if (f->outermost) return n + 1;
        if (p->tramp_on && f->ret == p->trampoline) {
            /* where it was put, or saved from the register it was put in */
            if (p->tramp_loc.in_mem && !same_loc(&f->ra, &p->tramp_loc)) return 0;
            f->ret = p->tramp_saved;         /* the frame's real return address */
            *hit = n;
            return n + 1;
        }
        pc = f->ret;
    }
    return 0;
}

/* The frame that returned to the trampoline is frame h of the walk: is it
 * still the cached youngest frame, or did a tail call replace it? */
static uint32_t reconcile(csprof_t *p, const walk_frame_t *h)
{
    cached_t *y = &p->stack[p->depth - 1];
    if (y->cfa == h->cfa && y->entry == h->entry) return y->node;
    p->tail_calls++;
    const cct_node_t *old = &p->tree.nodes[y->node];
    uint32_t node = cct_child(&p->tree, old->parent, old->site, h->entry);
    *y = (cached_t){ .node = node, .cfa = h->cfa, .entry = h->entry };
    return node;
}

/* A failed walk: the sample goes to the root's unknown child; the cached
 * stack and the trampoline stay as they are (the trampoline's frame is
 * still live, and its return must still be caught). */
static void failed_sample(csprof_t *p)
{
    p->failures++;
    p->tree.nodes[cct_child(&p->tree, CCT_ROOT, 0, 0)].samples++;
}

static void take_sample(csprof_t *p, cpu_t *c)
{
    p->samples++;
    if (c->pc == p->trampoline && p->tramp_on && p->depth >= 2) {
        /* A return to the trampoline is in flight (the run loop traps it
         * next): no walk here, the sample belongs to the context it
         * returns to, the cached frame below the youngest. */
        p->samples_on_trampoline++;
        uint32_t node = p->stack[p->depth - 2].node;
        p->tree.nodes[node].samples++;
        check_sample(p, node);
        return;
    }
    size_t hit, n = walk(p, c, &hit);
    if (n == 0) {
        failed_sample(p);
        return;
    }
    uint32_t node;
    size_t below;                            /* walk frames under the known prefix */
    if (hit != SIZE_MAX) {
        node = reconcile(p, &p->walk[hit]);
        p->cached_frames_used += p->depth;
        write_ra(p, &p->walk[hit].ra, p->tramp_saved);   /* the old slot back */
        p->tramp_on = false;
        below = hit;
    } else {
        if (p->tramp_on) p->trampoline_lost++;           /* its frame went (longjmp) */
        remove_trampoline(p);
        const walk_frame_t *top = &p->walk[n - 1];
        node = cct_child(&p->tree, CCT_ROOT, 0, top->entry);
        p->depth = 0;
        push_cached(p, node, top->cfa, top->entry);
        below = n - 1;
    }
    for (size_t k = below; k-- > 0;) {
        const walk_frame_t *f = &p->walk[k];
        node = cct_child(&p->tree, node, call_site(p, f->ret), f->entry);
        p->ops++;
        push_cached(p, node, f->cfa, f->entry);
    }
    p->tree.nodes[node].samples++;
    check_sample(p, node);
    install(p, &p->walk[0]);
}

/* The PMU's host handler: a sample, then the counter's next period. */
static uint64_t on_overflow(void *ctx, cpu_t *c, uint64_t pc, int event, unsigned k)
{
    csprof_t *p = ctx;
    take_sample(p, c);
    p->rng = p->rng * 6364136223846793005ull + 1442695040888963407ull;
    uint64_t span = p->opt.period_hi - p->opt.period_lo + 1;
    uint64_t period = p->opt.period_lo + (p->rng >> 33) % span;
    return (1ull << p->opt.hw.counter_bits) - period;
}

/* A return reached the trampoline: count the returning context's edge,
 * resume at the real return address, move the trampoline up a frame. */
bool csprof_trampoline(void *ctx, cpu_t *c)
{
    csprof_t *p = ctx;
    if (p->guest) return csprof_guest_trampoline(p->guest, c);
    if (!p->tramp_on || c->pc != p->trampoline || p->depth == 0) return false;
    p->trampoline_returns++;
    p->ops += 4;
    uint64_t back = p->tramp_saved;
    p->tree.nodes[p->stack[p->depth - 1].node].calls++;
    p->depth--;
    p->tramp_on = false;
    c->pc = back;
    if (p->tramp_loc.in_mem == false && c->reg[p->tramp_loc.reg] == p->trampoline)
        c->reg[p->tramp_loc.reg] = back;
    if (c->reg[p->ra_reg] == p->trampoline) c->reg[p->ra_reg] = back;
    if (p->depth == 0) return true;
    regs_t r = { .known = ~1u };
    for (unsigned k = 1; k < NREGS; k++) r.r[k] = c->reg[k];
    walk_frame_t f;
    if (!unwind_one(p, back, true, &r, &f) || f.cfa != p->stack[p->depth - 1].cfa) {
        p->depth = 0;                        /* lost track: the next sample walks all */
        return true;
    }
    install(p, &f);
    return true;
}

/* ---- the guest unwinder's tables -------------------------------------------------------- */

/* The CFA rule of a CFI frame as (base register, offset); false when it is
 * an expression the table cannot hold. */
static bool cfa_rule(const Dwarf_Op *ops, size_t n, unsigned *reg, int64_t *off)
{
    if (n != 1) return false;
    if (ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
        *reg = ops[0].atom - DW_OP_breg0;
        *off = (int64_t)ops[0].number;
        return true;
    }
    if (ops[0].atom == DW_OP_bregx) {
        *reg = (unsigned)ops[0].number;
        *off = (int64_t)ops[0].number2;
        return true;
    }
    return false;
}

/* Where the caller's register reg is by the CFI: 0 the same register, 1 the
 * word at CFA + *off, -1 anything else (undefined, an expression). */
static int saved_at(csprof_t *p, Dwarf_Frame *fr, unsigned reg, int64_t *off)
{
    Dwarf_Op mem[3], *ops;
    size_t n;
    if (dwarf_frame_register(fr, (int)reg, mem, &ops, &n) != 0) return -1;
    if (n == 0) return ops == NULL ? 0 : -1;
    const uint64_t cfa = 1ull << 40;         /* any CFA: the offset is what counts */
    regs_t none = { .known = 0 };
    uint64_t v;
    bool is_value;
    if (!eval_ops(p, ops, n, &none, cfa, &v, &is_value) || is_value) return -1;
    *off = (int64_t)(v - cfa);
    return 1;
}

/* The table rule of pc from the program's CFI; false when it has none
 * there or none the table can hold. */
static bool cfi_table_rule(csprof_t *p, uint64_t pc, unsigned fp_reg, cspg_rule_t *r)
{
    Dwarf_Frame *fr = NULL;
    if (dwarf_cfi_addrframe(p->cfi, pc, &fr) != 0) return false;
    bool ok = false;
    Dwarf_Op *ops;
    size_t n;
    unsigned base;
    int64_t off, raoff = 0, fpoff = 0;
    int ra_col = dwarf_frame_info(fr, NULL, NULL, NULL);
    if (ra_col >= 0 && ra_col < NREGS && rule_undefined(fr, ra_col)) {
        r->kind = CSPG_RULE_ROOT;
        ok = true;
    } else if (ra_col >= 0 && ra_col < NREGS && dwarf_frame_cfa(fr, &ops, &n) == 0 &&
               cfa_rule(ops, n, &base, &off) && (base == p->sp_reg || base == fp_reg) &&
               off == (int32_t)off) {
        int ra = saved_at(p, fr, (unsigned)ra_col, &raoff);
        int fp = saved_at(p, fr, fp_reg, &fpoff);
        if (ra >= 0 && fp >= 0) {
            r->kind = base == p->sp_reg ? CSPG_RULE_SP : CSPG_RULE_FP;
            r->cfa_off = (int32_t)off;
            r->ra_reg = ra == 0 ? (uint8_t)ra_col : 0;
            r->ra_off = (int32_t)raoff;
            r->fp_saved = fp == 1;
            r->fp_off = (int32_t)fpoff;
            ok = true;
        }
    }
    free(fr);
    return ok;
}

/* The table rule of pc in procedure s (whose prologue is pr): the CFI's,
 * else prologue analysis, as unwind_one does it; thread_root: s is where a
 * new thread starts (glibc's thread_start: its outermost frame, as _start
 * is the process's), which Alpha's glibc marks with no CFI. */
static void table_rule(csprof_t *p, uint64_t pc, const symbol_t *s, const prologue_t *pr,
                       unsigned fp_reg, bool thread_root, cspg_rule_t *r)
{
    *r = (cspg_rule_t){ .lo = pc, .entry = s->addr, .kind = CSPG_RULE_NONE };
    if (cfi_table_rule(p, pc, fp_reg, r)) return;
    if (thread_root) {
        r->kind = CSPG_RULE_ROOT;
        return;
    }
    pc_rule_t u;
    derive_rule_in(p, pc, true, s, pr, &u);
    if (!u.ok) return;
    if (u.outermost) {
        r->kind = CSPG_RULE_ROOT;
        return;
    }
    r->kind = CSPG_RULE_SP;
    r->cfa_off = (int32_t)u.n;
    r->ra_reg = u.ra_in_reg ? u.rreg : 0;
    r->ra_off = (int32_t)u.ra_off;
}

static bool same_rule(const cspg_rule_t *a, const cspg_rule_t *b)
{
    return a->entry == b->entry && a->kind == b->kind && a->cfa_off == b->cfa_off &&
           a->ra_off == b->ra_off && a->fp_off == b->fp_off && a->ra_reg == b->ra_reg &&
           a->fp_saved == b->fp_saved && a->no_trampoline == b->no_trampoline;
}

typedef struct tables {
    cspg_rule_t *rules;
    size_t nrules, rules_cap;
    uint64_t *rets;
    size_t nrets, rets_cap;
} tables_t;

static void add_rule(tables_t *t, const cspg_rule_t *r)
{
    if (t->nrules && same_rule(&t->rules[t->nrules - 1], r)) return;
    if (t->nrules == t->rules_cap) {
        t->rules_cap = t->rules_cap ? 2 * t->rules_cap : 4096;
        t->rules = xrealloc(t->rules, t->rules_cap * sizeof *t->rules);
    }
    t->rules[t->nrules++] = *r;
}

static void add_ret(tables_t *t, uint64_t v)
{
    if (t->nrets == t->rets_cap) {
        t->rets_cap = t->rets_cap ? 2 * t->rets_cap : 4096;
        t->rets = xrealloc(t->rets, t->rets_cap * sizeof *t->rets);
    }
    t->rets[t->nrets++] = v;
}

/* The rules of every instruction of procedure s, and its return addresses
 * (after each call; | 1 after a 2-byte one). */
static void procedure_tables(csprof_t *p, const symbol_t *s, unsigned fp_reg, tables_t *t)
{
    prologue_t pr;
    read_prologue(p, s->addr, s->addr + s->size, &pr);
    const symbol_t *named = p->symtab ? symtab_lookup(p->symtab, s->addr) : NULL;
    bool thread_root = named && named->addr == s->addr && named->name &&
                       !strcmp(named->name, "thread_start");
    bool setjmp = named && named->addr == s->addr && named->name &&
                  strstr(named->name, "setjmp");
    /* longjmp loads the registers of setjmp's frame before it jumps: its
     * frames are not unwound, never guessed */
    bool longjmp = named && named->addr == s->addr && named->name &&
                   strstr(named->name, "longjmp");
    insn_t in;
    for (uint64_t a = s->addr; a < s->addr + s->size;) {
        cspg_rule_t r;
        table_rule(p, a, s, &pr, fp_reg, thread_root, &r);
        r.no_trampoline = setjmp;
        if (longjmp) r.kind = CSPG_RULE_NONE;
        add_rule(t, &r);
        if (!fetch_insn(p, a, &in)) {
            a += p->cpu->isa->insn_align;
            continue;
        }
        if (in.flags & IF_CALL) add_ret(t, (a + in.len) | (in.len == 2));
        a += in.len;
    }
}

/* The guest handler's tables for the whole program: sorted ranges, a
 * NONE range over each gap between procedures. */
static void build_tables(csprof_t *p, unsigned fp_reg, tables_t *t)
{
    for (size_t k = 0; k < p->nprocs; k++) {
        const symbol_t *s = &p->procs[k];
        if (!s->size) continue;
        procedure_tables(p, s, fp_reg, t);
        uint64_t end = s->addr + s->size;
        if (k + 1 == p->nprocs || p->procs[k + 1].addr > end) {
            cspg_rule_t gap = { .lo = end, .kind = CSPG_RULE_NONE };
            add_rule(t, &gap);
        }
    }
    p->ops = 0;                              /* the derivation is not the run's work */
}

static bool start_guest(csprof_t *p, char *err, size_t errlen)
{
    bool alpha = p->cpu->isa->elf_machine == EM_ALPHA;
    unsigned fp_reg = alpha ? 15 : 8;
    tables_t t = { 0 };
    build_tables(p, fp_reg, &t);
    csprof_guest_config_t cfg = { .opt = p->opt, .rules = t.rules, .nrules = t.nrules,
                                  .rets = t.rets, .nrets = t.nrets,
                                  .trampoline = p->trampoline, .ra_reg = p->ra_reg,
                                  .sp_reg = p->sp_reg, .fp_reg = fp_reg };
    p->guest_rules = t.nrules;
    p->guest_rets = t.nrets;
    p->guest = csprof_guest_new(p->cpu, &cfg, err, errlen);
    free(t.rules);
    free(t.rets);
    if (!p->guest) return false;
    p->pmu = csprof_guest_pmu(p->guest);
    return true;
}

/* ---- set-up -------------------------------------------------------------------------------- */

static int by_addr(const void *a, const void *b)
{
    const symbol_t *x = a, *y = b;
    if (x->addr != y->addr) return x->addr < y->addr ? -1 : 1;
    return x->size > y->size ? -1 : x->size < y->size;      /* the sized one first */
}

/* The code symbols of the ELF's .symtab (FUNC, and global NOTYPE ones in
 * executable sections: not local labels such as Alpha memset's
 * memset_loop, which lies before memset's entry), one per address, sizes
 * 0 filled to the next. */
static void load_procs(csprof_t *p)
{
    Elf_Scn *scn = NULL;
    while ((scn = elf_nextscn(p->elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize) continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t n = d ? sh.sh_size / sh.sh_entsize : 0;
        p->procs = xcalloc(n + 1, sizeof *p->procs);
        for (size_t k = 0; k < n; k++) {
            GElf_Sym sym;
            if (!gelf_getsym(d, (int)k, &sym) || !sym.st_value || sym.st_shndx == SHN_UNDEF ||
                sym.st_shndx >= SHN_LORESERVE)
                continue;
            int type = GELF_ST_TYPE(sym.st_info);
            GElf_Shdr in;
            Elf_Scn *sec = elf_getscn(p->elf, sym.st_shndx);
            if (!sec || !gelf_getshdr(sec, &in) || !(in.sh_flags & SHF_EXECINSTR)) continue;
            int bind = GELF_ST_BIND(sym.st_info);
            if (type != STT_FUNC && (type != STT_NOTYPE || bind == STB_LOCAL))
                continue;                    /* local labels are not procedures */
            p->procs[p->nprocs++] = (symbol_t){ .addr = sym.st_value, .size = sym.st_size };
        }
        break;
    }
    if (!p->nprocs) return;
    qsort(p->procs, p->nprocs, sizeof *p->procs, by_addr);
    size_t m = 0;
    for (size_t k = 0; k < p->nprocs; k++)
        if (m == 0 || p->procs[k].addr != p->procs[m - 1].addr) p->procs[m++] = p->procs[k];
    p->nprocs = m;
    for (size_t k = 0; k < m; k++)
        if (!p->procs[k].size && k + 1 < m) p->procs[k].size = p->procs[k + 1].addr - p->procs[k].addr;
}

/* Is the program dynamically linked (a PT_INTERP header)? */
static bool has_interp(Elf *elf)
{
    size_t n = 0;
    if (elf_getphdrnum(elf, &n) != 0) return false;
    for (size_t k = 0; k < n; k++) {
        GElf_Phdr ph;
        if (gelf_getphdr(elf, (int)k, &ph) && ph.p_type == PT_INTERP) return true;
    }
    return false;
}

static bool open_cfi(csprof_t *p, const char *path, char *err, size_t errlen)
{
    elf_version(EV_CURRENT);
    p->fd = open(path, O_RDONLY);
    if (p->fd < 0) return set_error(err, errlen, "--csprof: cannot open %s", path);
    p->elf = elf_begin(p->fd, ELF_C_READ, NULL);
    p->cfi = p->elf ? dwarf_getcfi_elf(p->elf) : NULL;
    if (!p->cfi)
        return set_error(err, errlen, "--csprof: %s has no call frame information (.eh_frame) "
                         "to unwind with", path);
    GElf_Ehdr eh;
    if (!gelf_getehdr(p->elf, &eh) || eh.e_type != ET_EXEC || has_interp(p->elf))
        return set_error(err, errlen, "--csprof: %s is not a static executable (ET_EXEC without an "
                         "interpreter); the unwinder reads only the program's own .eh_frame", path);
    p->program_entry = eh.e_entry;
    load_procs(p);
    return true;
}

/* A page the guest cannot fetch from, for the trampoline address: in the
 * gap below the stack, where neither the stack nor mmap reaches (loader.c),
 * so the guest's own mappings land where they would without csprof. */
static bool reserve_trampoline(csprof_t *p, char *err, size_t errlen)
{
    const guest_layout_t *l = loader_layout(p->cpu->isa);
    uint64_t page = l->page_size;
    uint64_t at = (l->stack_top - l->stack_size - (512u << 10)) & ~(page - 1);
    if (mem_is_mapped(p->cpu->mem, at) || !mem_map(p->cpu->mem, at, page, 0))
        return set_error(err, errlen, "--csprof: the guest page at 0x%" PRIx64 " below the "
                         "stack is not free for the trampoline", at);
    p->trampoline = at + 0x10;
    return true;
}

csprof_t *csprof_new(const csprof_options_t *o, cpu_t *c, const symtab_t *symtab,
                     char *err, size_t errlen)
{
    csprof_t *p = xcalloc(1, sizeof *p);
    p->opt = *o;
    p->cpu = c;
    p->symtab = symtab;
    p->fd = -1;
    bool alpha = c->isa->elf_machine == EM_ALPHA;
    p->sp_reg = alpha ? 30 : 2;
    p->ra_reg = alpha ? 26 : 1;
    p->rng = o->seed * 2862933555777941757ull + 3037000493ull;
    if (!open_cfi(p, o->program, err, errlen) || !reserve_trampoline(p, err, errlen)) {
        csprof_free(p);
        return NULL;
    }
    cct_init(&p->tree);
    p->stack = xcalloc(MAX_FRAMES + 1, sizeof *p->stack);
    p->walk = xcalloc(MAX_FRAMES, sizeof *p->walk);
    if (!o->host_unwinder) {
        if (!start_guest(p, err, errlen)) {
            csprof_free(p);
            return NULL;
        }
        return p;
    }
    pmu_handler_t h = { .host = on_overflow, .host_ctx = p };
    p->pmu = pmu_new(&o->hw, &h);
    uint64_t first = o->period_lo + (o->period_hi - o->period_lo) / 2;
    pmu_program(p->pmu, 0, o->event, (1ull << o->hw.counter_bits) - first);
    return p;
}

void csprof_free(csprof_t *p)
{
    if (!p) return;
    if (p->guest) csprof_guest_free(p->guest);          /* it owns the pmu */
    else if (p->pmu) pmu_free(p->pmu);
    if (p->cfi) dwarf_cfi_end(p->cfi);
    if (p->elf) elf_end(p->elf);
    if (p->fd >= 0) close(p->fd);
    if (p->tree.nodes) cct_free(&p->tree);
    free(p->stack);
    free(p->walk);
    free(p->procs);
    free(p->rules);
    free(p);
}

pmu_t *csprof_pmu(csprof_t *p) { return p->pmu; }
uint64_t csprof_trampoline_pc(const csprof_t *p) { return p->trampoline; }
const cct_t *csprof_tree(const csprof_t *p) { return &p->tree; }
void csprof_set_truth(csprof_t *p, const cct_truth_t *truth)
{
    p->truth = truth;
    if (p->guest) csprof_guest_set_truth(p->guest, truth);
}
bool csprof_is_guest(const csprof_t *p) { return p->guest != NULL; }

/* ---- scores -------------------------------------------------------------------------------- */

/* Is sampled node s the same context as exact node x? */
static bool same_path(const cct_t *st, uint32_t s, const cct_t *xt, uint32_t x)
{
    while (s != CCT_ROOT && x != CCT_ROOT) {
        const cct_node_t *a = &st->nodes[s], *b = &xt->nodes[x];
        if (a->site != b->site || a->entry != b->entry) return false;
        s = a->parent;
        x = b->parent;
    }
    return s == x;
}

static void check_sample(csprof_t *p, uint32_t node)
{
    if (p->truth && same_path(&p->tree, node, &p->truth->tree, p->truth->cur))
        p->right_contexts++;
}

void csprof_finish(csprof_t *p)
{
    if (!p->guest || p->finished) return;
    p->finished = true;
    uint32_t *pairs;
    size_t npairs;
    cspg_state_t *g = &p->gst;
    csprof_guest_read(p->guest, &p->tree, g, p->threads, &p->nthreads, &pairs, &npairs);
    for (size_t k = 0; p->truth && k < npairs; k++)
        if (same_path(&p->tree, pairs[2 * k], &p->truth->tree, pairs[2 * k + 1]))
            p->right_contexts++;
    free(pairs);
    p->samples = g->samples;
    p->frames_walked = g->frames_walked;
    p->cached_frames_used = g->cached_frames_used;
    p->trampoline_returns = g->trampoline_returns;
    p->tail_calls = g->tail_calls;
    p->trampoline_lost = g->trampoline_lost;
    p->samples_on_trampoline = g->samples_on_trampoline;
    p->failures = g->failures;
}

typedef struct weighted { uint32_t id; uint64_t w; } weighted_t;

static int by_weight(const void *a, const void *b)
{
    const weighted_t *x = a, *y = b;
    if (x->w != y->w) return x->w < y->w ? 1 : -1;
    return x->id < y->id ? -1 : x->id > y->id;
}

/* Mark the fewest heaviest nodes reaching 90% of the total (ALGORITHMS.md). */
static uint64_t top90(const cct_t *t, cct_metric_t m, bool *kept)
{
    weighted_t *w = xcalloc(t->n, sizeof *w);
    uint64_t total = 0;
    for (size_t k = 0; k < t->n; k++) {
        w[k] = (weighted_t){ (uint32_t)k, cct_value(&t->nodes[k], m) };
        total += w[k].w;
    }
    qsort(w, t->n, sizeof *w, by_weight);
    uint64_t sum = 0;
    for (size_t k = 0; k < t->n && w[k].w && (double)sum < 0.9 * (double)total; k++) {
        kept[w[k].id] = true;
        sum += w[k].w;
    }
    free(w);
    return total;
}

/* The top-90% overlap of the sampled contexts' samples and the exact
 * contexts' weight m, in percent; *exact_map: sampled id -> exact id. */
static double overlap(const cct_t *st, const cct_t *xt, cct_metric_t m, const uint32_t *map)
{
    bool *ks = xcalloc(st->n, sizeof *ks), *kx = xcalloc(xt->n, sizeof *kx);
    uint64_t ts = top90(st, CCT_SAMPLES, ks), tx = top90(xt, m, kx);
    double acc = 0;
    for (size_t k = 0; k < st->n && ts && tx; k++) {
        uint32_t x = map[k];
        if (!ks[k] || x == CCT_NONE || !kx[x]) continue;
        double a = (double)st->nodes[k].samples / (double)ts;
        double b = (double)cct_value(&xt->nodes[x], m) / (double)tx;
        acc += a < b ? a : b;
    }
    free(ks);
    free(kx);
    return 100.0 * acc;
}

static void report_host(const csprof_t *p, uint64_t run_cycles, uint64_t run_insts, FILE *out)
{
    fprintf(out, "  unwinding failures %" PRIu64 " (%.2f%% of samples); frames unwound by "
            "prologue analysis (no CFI) %" PRIu64 ", with %zu unwind records derived once\n",
            p->failures, p->samples ? 100.0 * (double)p->failures / (double)p->samples : 0.0,
            p->prologue_frames, p->nrules);
    double cpi = run_insts ? (double)run_cycles / (double)run_insts : 0.0;
    double cyc = (double)p->ops * cpi;
    fprintf(out, "  overhead (modelled, host-side unwinding: 1 instruction per operation at the "
            "run's CPI %.3f): %" PRIu64 " operations, %.1f per sample, %.0f cycles = %.3f%% of "
            "the run's %" PRIu64 " cycles\n", cpi, p->ops,
            p->samples ? (double)p->ops / (double)p->samples : 0.0, cyc,
            run_cycles ? 100.0 * cyc / (double)run_cycles : 0.0, run_cycles);
}

/* The guest handlers: their tables, threads and measured cost. */
static void report_guest(const csprof_t *p, uint64_t run_cycles, FILE *out)
{
    const cspg_state_t *g = &p->gst;
    fprintf(out, "  unwinding failures %" PRIu64 " (%.2f%% of samples); guest handler "
            "(--csprof-unwinder guest): %zu unwind ranges, %zu return addresses, %" PRIu64
            " CCT nodes (%" PRIu64 " new contexts charged to their parent: the nodes ran out), %u "
            "threads (%" PRIu64
            " interrupts of threads past the %u-th not sampled)\n", p->failures,
            p->samples ? 100.0 * (double)p->failures / (double)p->samples : 0.0,
            p->guest_rules, p->guest_rets, g->nnodes, g->nodes_full, p->nthreads,
            g->threads_full, CSPG_MAX_THREADS);
    fprintf(out, "  returns through a copy of the trampoline longjmp brought back: %" PRIu64
            " (resumed at their frame's return address)\n", g->trampoline_stale);
    for (unsigned k = 0; k < p->nthreads; k++)
        fprintf(out, "    thread %" PRIu64 ": %" PRIu64 " samples, %" PRIu64 " failures\n",
                p->threads[k].tid, p->threads[k].samples, p->threads[k].failures);
    uint64_t insts = csprof_guest_insts(p->guest), cyc = csprof_guest_cycles(p->guest);
    uint64_t tramp = csprof_guest_trampoline_insts(p->guest);
    fprintf(out, "  overhead (measured, guest handlers): %" PRIu64 " instructions (%" PRIu64
            " in the trampoline handler), %.1f per sample; %" PRIu64 " cycles, %.1f per "
            "sample = %.3f%% of the run's %" PRIu64 " cycles\n", insts, tramp,
            p->samples ? (double)insts / (double)p->samples : 0.0, cyc,
            p->samples ? (double)cyc / (double)p->samples : 0.0,
            run_cycles ? 100.0 * (double)cyc / (double)run_cycles : 0.0, run_cycles);
}

void csprof_report(const csprof_t *p, const cct_truth_t *truth, uint64_t run_cycles,
                   uint64_t run_insts, FILE *out)
{
    const cct_t *st = &p->tree;
    fprintf(out, "\n==== hps-sim csprof report ====\n");
    fprintf(out, "csprof: call path sampling on %s, period %" PRIu64 "-%" PRIu64 "\n",
            pmu_event_names[p->opt.event], p->opt.period_lo, p->opt.period_hi);
    fprintf(out, "  samples %" PRIu64 ", sampled contexts %zu, frames walked %" PRIu64
            " (%.2f per sample), cached frames reused %" PRIu64 "\n", p->samples, st->n - 1,
            p->frames_walked, p->samples ? (double)p->frames_walked / (double)p->samples : 0.0,
            p->cached_frames_used);
    fprintf(out, "  trampoline returns %" PRIu64 ", tail calls found %" PRIu64
            ", trampoline frames gone (longjmp) %" PRIu64 ", samples on the trampoline %" PRIu64
            "\n", p->trampoline_returns, p->tail_calls, p->trampoline_lost,
            p->samples_on_trampoline);
    if (p->guest) report_guest(p, run_cycles, out);
    else report_host(p, run_cycles, run_insts, out);
    if (!truth) return;
    if (p->nthreads > 1) {
        fprintf(out, "  no scores against the exact CCT: the program ran %u threads, and the exact "
                "observer keeps one call stack for the process\n", p->nthreads);
        return;
    }
    const cct_t *xt = &truth->tree;
    uint32_t *map = xcalloc(st->n, sizeof *map);
    for (size_t k = 0; k < st->n; k++) map[k] = cct_same_context(st, (uint32_t)k, xt, map);
    cct_metric_t m = p->opt.event == PMU_INSTS ? CCT_INSTS : CCT_CYCLES;
    double ov = overlap(st, xt, m, map);
    uint64_t in_exact = 0, edge_err = 0, edge_exact = 0, edge_sampled = 0;
    for (size_t k = 1; k < st->n; k++) {
        if (map[k] != CCT_NONE) in_exact += st->nodes[k].samples;
        uint64_t s = st->nodes[k].calls, x = map[k] != CCT_NONE ? xt->nodes[map[k]].calls : 0;
        edge_sampled += s;
        edge_err += s > x ? s - x : x - s;
    }
    for (size_t k = 1; k < xt->n; k++) edge_exact += xt->nodes[k].calls;
    fprintf(out, "  against the exact CCT of this run (%zu contexts):\n", xt->n - 1);
    fprintf(out, "    node-weight overlap (top 90%%, samples vs exact %s): %.2f%%\n",
            m == CCT_INSTS ? "instructions" : "cycles", ov);
    fprintf(out, "    samples whose whole calling context is right: %.2f%% (%" PRIu64 " of %"
            PRIu64 "); samples in contexts the program has: %.2f%%\n",
            p->samples ? 100.0 * (double)p->right_contexts / (double)p->samples : 0.0,
            p->right_contexts, p->samples,
            p->samples ? 100.0 * (double)in_exact / (double)p->samples : 0.0);
    fprintf(out, "    edge counts: trampoline %" PRIu64 " vs exact calls %" PRIu64
            "; sum |trampoline - exact| over sampled edges %" PRIu64 " (csprof counts an edge "
            "only when it was new at a sample, so this is not expected to be near 0)\n",
            edge_sampled, edge_exact, edge_err);
    free(map);
}
