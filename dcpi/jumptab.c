/*
 * jumptab.c - a switch's targets from its jump table (jumptab.h): the
 * jump's register evaluated symbolically back over the CFG's edges, and
 * the table's entries read from the image.
 */
#include "jumptab.h"

#include <elf.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

/* ---- symbolic values -------------------------------------------------------------- */

/* V_NONE: no definition seen yet (what meet starts from); V_UNKNOWN:
 * anything; V_CONST: c; V_INDEXED: c + scale x an unknown index; V_ENTRY:
 * c + the entry at table + width x an unknown index. */
typedef enum { V_NONE, V_UNKNOWN, V_CONST, V_INDEXED, V_ENTRY } vkind_t;

typedef struct val {
    vkind_t kind;
    uint64_t c, scale, table;
    unsigned width;
    bool sign;
} val_t;

static const val_t unknown = { .kind = V_UNKNOWN };

static val_t constant(uint64_t c) { return (val_t){ .kind = V_CONST, .c = c }; }

static bool same(const val_t *a, const val_t *b)
{
    return a->kind == b->kind && a->c == b->c && a->scale == b->scale && a->table == b->table &&
           a->width == b->width && a->sign == b->sign;
}

/* Two definitions reaching one point: their value when they agree. */
static val_t meet(val_t a, val_t b)
{
    if (a.kind == V_NONE) return b;
    if (b.kind == V_NONE) return a;
    return same(&a, &b) ? a : unknown;
}

/* a x s: anything not constant or indexed is an unknown index (a byte
 * table's entry indexing the next table, as glibc's printf does).  Here
 * and below, no value (V_NONE) gives none. */
static val_t scaled(val_t a, uint64_t s)
{
    switch (a.kind) {
    case V_NONE:
        return a;
    case V_CONST:
        return constant(a.c * s);
    case V_INDEXED:
        a.c *= s;
        a.scale *= s;
        return a;
    default:
        return (val_t){ .kind = V_INDEXED, .scale = s };
    }
}

/* a >> s (logical): what a shifted left by more than s keeps of its scale
 * (RISC-V's zero-extension of an index: slli 32, srli 30). */
static val_t shifted_right(val_t a, unsigned s)
{
    if (a.kind == V_CONST) return constant(a.c >> s);
    if (a.kind == V_NONE) return a;
    if (a.kind != V_INDEXED || a.c || (a.scale & ((1ull << s) - 1))) return unknown;
    a.scale >>= s;
    return a;
}

/* a + b: a constant moves an index or an entry; anything else plus a
 * constant is an index. */
static val_t sum(val_t a, val_t b)
{
    if (a.kind == V_NONE || b.kind == V_NONE) return (val_t){ .kind = V_NONE };
    if (b.kind != V_CONST) {
        val_t t = a;
        a = b;
        b = t;
    }
    if (b.kind != V_CONST) return unknown;
    switch (a.kind) {
    case V_CONST:
        return constant(a.c + b.c);
    case V_INDEXED: case V_ENTRY:
        a.c += b.c;
        return a;
    default:
        return (val_t){ .kind = V_INDEXED, .scale = 1, .c = b.c };
    }
}

/* ---- reaching definitions ------------------------------------------------------------ */

/* Where a value lives: a register, or the stack slot at off(sp) (a
 * register spilled across calls: Alpha's pass_fold keeps its table's
 * address in t5, saved and restored around each call). */
typedef struct loc {
    bool slot;
    unsigned reg;
    int64_t off;
} loc_t;

/* A definition being evaluated, and whether it passes its operand on
 * unchanged (a move, a restore from the stack). */
typedef struct frame {
    size_t insn;
    bool copy;
} frame_t;

enum { MAX_DEPTH = 24, EVAL_BUDGET = 20000 };

typedef struct ctx {
    const isa_t *isa;
    const cfg_t *g;
    size_t *in_first, *in_edges;    /* block b's in-edges: in_edges[in_first[b]]
                                       .. in_edges[in_first[b + 1] - 1] */
    unsigned sp;                    /* the stack pointer */
    unsigned budget;                /* evaluation steps left */
    frame_t stack[MAX_DEPTH + 1];   /* the definitions being evaluated */
    int depth;
} ctx_t;

/* x->in_first and x->in_edges: the edges counted into in_first[to + 2],
 * summed, then placed at in_first[to + 1], which ends at block to's end. */
static void index_in_edges(ctx_t *x)
{
    const cfg_t *g = x->g;
    x->in_first = xcalloc(g->nblocks + 2, sizeof *x->in_first);
    x->in_edges = xcalloc(g->nedges + 1, sizeof *x->in_edges);
    for (size_t e = 0; e < g->nedges; e++)
        if (g->edges[e].to >= 0) x->in_first[g->edges[e].to + 2]++;
    for (size_t b = 0; b < g->nblocks; b++) x->in_first[b + 2] += x->in_first[b + 1];
    for (size_t e = 0; e < g->nedges; e++)
        if (g->edges[e].to >= 0) x->in_edges[x->in_first[g->edges[e].to + 1]++] = e;
}

static bool is(const ctx_t *x, const insn_t *in, const char *name)
{
    return in->op < x->isa->table_size && !strcmp(x->isa->table[in->op].name, name);
}

/* Whether a callee may change register r: all but the ones the ABI has it
 * preserve (RISC-V sp, gp, tp, s0-s11; Alpha s0-s6, sp), and Alpha's gp:
 * one value in a static program, reloaded after a call where it may not be. */
static bool clobbered_by_call(const isa_t *isa, unsigned r)
{
    uint64_t kept = isa->elf_machine == EM_ALPHA
                        ? 0x7full << 9 | 1ull << 29 | 1ull << 30
                        : 1ull << 2 | 1ull << 3 | 1ull << 4 | 3ull << 8 | 0x3ffull << 18;
    return r >= 64 || !(kept >> r & 1);
}

/* A location's value on entry: Alpha's pv holds the procedure's address
 * (its calling standard); anything else is unknown. */
static val_t entry_value(const ctx_t *x, loc_t l)
{
    enum { ALPHA_PV = 27 };
    if (x->isa->elf_machine == EM_ALPHA && !l.slot && l.reg == ALPHA_PV)
        return constant(x->g->insns[0].pc);
    return unknown;
}

static val_t value_before(ctx_t *x, size_t k, loc_t l);
static val_t reg_before(ctx_t *x, size_t k, unsigned r)
{
    return value_before(x, k, (loc_t){ .reg = r });
}

static bool signed_load(const ctx_t *x, const insn_t *in)
{
    return is(x, in, "lw") || is(x, in, "lh") || is(x, in, "lb") || is(x, in, "ldl");
}

/* A full register's restore from the stack slot at imm(sp). */
static bool restores(const ctx_t *x, const insn_t *in)
{
    return in->opclass == OC_LOAD && in->rs1 == x->sp && in->memsize == 8 && !is(x, in, "ldq_u");
}

/* What load j gives: a restored register's saved value, or an entry of a
 * table when its address steps by the load's width. */
static val_t loaded(ctx_t *x, size_t j)
{
    const insn_t *in = &x->g->insns[j];
    if (restores(x, in)) return value_before(x, j, (loc_t){ .slot = true, .off = in->imm });
    val_t base = reg_before(x, j, in->rs1);
    if (in->opclass != OC_LOAD || is(x, in, "ldq_u") || base.kind != V_INDEXED ||
        base.scale != in->memsize)
        return unknown;
    return (val_t){ .kind = V_ENTRY, .table = base.c + (uint64_t)in->imm, .width = in->memsize,
                    .sign = signed_load(x, in) };
}

/* The second operand of instruction j: a register, or its literal. */
static val_t second(ctx_t *x, size_t j)
{
    const insn_t *in = &x->g->insns[j];
    return in->rs2 != REG_NONE ? reg_before(x, j, in->rs2) : constant((uint64_t)in->imm);
}

/* Whether instruction `in` passes a value on unchanged: a restore, an add
 * or or with zero. */
static bool copies(const ctx_t *x, const insn_t *in)
{
    if (in->flags & IF_LOAD) return restores(x, in);
    if (is(x, in, "addi") || is(x, in, "lda")) return !in->imm;
    if (is(x, in, "add") || is(x, in, "addq") || is(x, in, "bis") || is(x, in, "or"))
        return in->rs1 == REG_ZERO || in->rs2 == REG_ZERO || (in->rs2 == REG_NONE && !in->imm);
    return false;
}

/* The value instruction j writes to its rd. */
static val_t evaluate(ctx_t *x, size_t j)
{
    const insn_t *in = &x->g->insns[j];
    if (in->flags & IF_CALL) return constant(in->pc + in->len);     /* the return address */
    if (in->flags & IF_LOAD) return loaded(x, j);
    if (is(x, in, "lui")) return constant((uint64_t)in->imm);
    if (is(x, in, "auipc")) return constant(in->pc + (uint64_t)in->imm);
    if (is(x, in, "addi") || is(x, in, "lda") || is(x, in, "ldah"))
        return sum(reg_before(x, j, in->rs1), constant((uint64_t)in->imm));
    if (is(x, in, "add") || is(x, in, "addq"))
        return sum(reg_before(x, j, in->rs1), second(x, j));
    if (is(x, in, "s4addq") || is(x, in, "s8addq"))
        return sum(scaled(reg_before(x, j, in->rs1), is(x, in, "s4addq") ? 4 : 8), second(x, j));
    if (is(x, in, "slli") || (is(x, in, "sll") && in->rs2 == REG_NONE))
        return scaled(reg_before(x, j, in->rs1), 1ull << (in->imm & 63));
    if (is(x, in, "srli") || (is(x, in, "srl") && in->rs2 == REG_NONE))
        return shifted_right(reg_before(x, j, in->rs1), (unsigned)(in->imm & 63));
    if (is(x, in, "bis") || is(x, in, "or")) {            /* a move: or with zero */
        val_t a = reg_before(x, j, in->rs1), b = second(x, j);
        if (a.kind == V_CONST && b.kind == V_CONST) return constant(a.c | b.c);
        if (a.kind == V_CONST && !a.c) return b;
        if (b.kind == V_CONST && !b.c) return a;
    }
    return unknown;
}

/* The value definition j gives, evaluated once on the way: met again
 * through copies only (a register saved and restored around a loop), it
 * adds nothing (V_NONE); through anything else its value would change
 * each time round, unknown. */
static val_t defined_by(ctx_t *x, size_t j)
{
    for (int f = x->depth; f-- > 0;) {
        if (!x->stack[f].copy) break;
        if (x->stack[f].insn == j) return (val_t){ .kind = V_NONE };
    }
    for (int f = 0; f < x->depth; f++)
        if (x->stack[f].insn == j) return unknown;
    if (x->depth >= MAX_DEPTH || !x->budget) return unknown;
    x->budget--;
    x->stack[x->depth++] = (frame_t){ j, copies(x, &x->g->insns[j]) };
    val_t v = evaluate(x, j);
    x->depth--;
    return v;
}

/* Whether instruction j defines location l, and then its value in *v: a
 * register's writer (a call clobbers those its callee need not keep); a
 * slot's store, of the full register; anything writing sp. */
static bool defines(ctx_t *x, size_t j, loc_t l, val_t *v)
{
    const insn_t *in = &x->g->insns[j];
    if (!l.slot && in->rd == l.reg) {
        *v = defined_by(x, j);
        return true;
    }
    if (!l.slot && (in->flags & IF_CALL) && clobbered_by_call(x->isa, l.reg)) {
        *v = unknown;
        return true;
    }
    if (l.slot && in->rd == x->sp) {
        *v = unknown;
        return true;
    }
    if (l.slot && (in->flags & IF_STORE) && in->rs1 == x->sp && in->imm == l.off) {
        *v = in->memsize == 8 && in->opclass == OC_STORE ? reg_before(x, j, in->rs2) : unknown;
        return true;
    }
    return false;
}

/* l's last definition in block b before instruction `before`: true and
 * its value in *v, or false when the block does not write l. */
static bool defined_in_block(ctx_t *x, size_t b, size_t before, loc_t l, val_t *v)
{
    for (size_t j = before; j-- > x->g->blocks[b].first;)
        if (defines(x, j, l, v)) return true;
    return false;
}

/* l's value on entry to block b: the meet of the definitions reaching it
 * over the edges, each block looked at once. */
static val_t reaching(ctx_t *x, size_t b, loc_t l)
{
    const cfg_t *g = x->g;
    size_t *work = xcalloc(g->nblocks, sizeof *work), n = 0;
    bool *queued = xcalloc(g->nblocks, 1);
    val_t v = { .kind = V_NONE };
    work[n++] = b;
    queued[b] = true;
    for (size_t i = 0; i < n && v.kind != V_UNKNOWN; i++) {
        for (size_t q = x->in_first[work[i]]; q < x->in_first[work[i] + 1]; q++) {
            int from = g->edges[x->in_edges[q]].from;
            val_t w;
            if (from < 0) {
                v = meet(v, entry_value(x, l));
            } else if (defined_in_block(x, (size_t)from, g->blocks[from].first + g->blocks[from].n,
                                        l, &w)) {
                v = meet(v, w);
            } else if (!queued[from]) {
                queued[from] = true;
                work[n++] = (size_t)from;
            }
        }
    }
    free(work);
    free(queued);
    return v;
}

/* Location l's value just before instruction k (V_NONE: only the
 * definitions being evaluated reach it). */
static val_t value_before(ctx_t *x, size_t k, loc_t l)
{
    if (!l.slot && l.reg == REG_ZERO) return constant(0);
    if (!l.slot && l.reg >= 64) return unknown;
    size_t b = cfg_block_of(x->g, k);
    val_t v;
    if (defined_in_block(x, b, k, l, &v)) return v;
    return reaching(x, b, l);
}

/* ---- the table ---------------------------------------------------------------------- */

bool jumptab_find(const isa_t *isa, const cfg_t *g, size_t k, jumptab_t *t)
{
    const insn_t *in = &g->insns[k];
    if (!(in->flags & IF_JUMP) || !(in->flags & IF_INDIRECT) || (in->flags & (IF_CALL | IF_RETURN)))
        return false;
    ctx_t x = { .isa = isa, .g = g, .sp = isa->elf_machine == EM_ALPHA ? 30 : 2,
                .budget = EVAL_BUDGET };
    index_in_edges(&x);
    val_t v = sum(reg_before(&x, k, in->rs1), constant((uint64_t)in->imm));
    free(x.in_first);
    free(x.in_edges);
    if (v.kind != V_ENTRY) return false;
    *t = (jumptab_t){ .table = v.table, .base = v.c, .width = v.width, .sign = v.sign };
    return true;
}

/* The entry of `width` bytes (little-endian) at p. */
static uint64_t entry_at(const uint8_t *p, unsigned width, bool sign)
{
    uint64_t v = 0;
    for (unsigned k = width; k-- > 0;) v = v << 8 | p[k];
    if (sign && width < 8 && (v >> (8 * width - 1) & 1)) v |= ~0ull << (8 * width);
    return v;
}

size_t jumptab_read(const jumptab_t *t, const cfg_image_t *img, const cfg_t *g,
                    const uint64_t *stops, size_t nstops, uint64_t **targets)
{
    *targets = NULL;
    if (!t->width || t->width > 8 || !img || !img->read) return 0;
    uint64_t most = JUMPTAB_MAX_ENTRIES;
    for (size_t s = 0; s < nstops; s++)
        if (stops[s] > t->table && (stops[s] - t->table) / t->width < most)
            most = (stops[s] - t->table) / t->width;
    uint8_t *buf = xcalloc((size_t)most, t->width);
    size_t got = img->read(img->ctx, t->table, buf, (size_t)most * t->width) / t->width;
    bool *hit = xcalloc(g->ninsns + 1, 1);
    for (size_t e = 0; e < got; e++) {
        long at = cfg_insn_at(g, t->base + entry_at(buf + e * t->width, t->width, t->sign));
        if (at < 0) break;
        hit[at] = true;
    }
    size_t n = 0;
    *targets = xcalloc(g->ninsns + 1, sizeof **targets);
    for (size_t k = 0; k < g->ninsns; k++)
        if (hit[k]) (*targets)[n++] = g->insns[k].pc;
    free(hit);
    free(buf);
    return n;
}
