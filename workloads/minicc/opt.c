/* opt.c - minicc's optimiser: control-flow graph construction, liveness
 * dataflow, and a table-driven sequence of passes (constant folding with
 * algebraic simplification, copy propagation, dead-code elimination and
 * branch/CFG cleanup) iterated until nothing changes. */
#include "minicc.h"
#include <stdlib.h>
#include <string.h>

/* ---- instruction operands --------------------------------------------- */

int ins_uses(const ins *i, int *out)
{
    int n = 0;
    switch (i->op) {
    case I_BIN:
        out[n++] = i->a;
        out[n++] = i->b;
        break;
    case I_MOV: case I_NEG: case I_NOT: case I_BR: case I_RET:
        out[n++] = i->a;
        break;
    case I_CALL:
        for (int k = 0; k < i->nargs; k++)
            out[n++] = i->args[k];
        break;
    default:
        break;
    }
    return n;
}

int ins_def(const ins *i)
{
    switch (i->op) {
    case I_CONST: case I_MOV: case I_BIN: case I_NEG: case I_NOT: case I_CALL:
        return i->dst;
    default:
        return -1;
    }
}

static int is_terminator(int op) { return op == I_JMP || op == I_BR || op == I_RET; }

/* ---- CFG and liveness ------------------------------------------------- */

cfg *cfg_build(const irfn *f)
{
    cfg *c = calloc(1, sizeof(cfg));
    int cap = 16;
    c->start = malloc((size_t)cap * sizeof(int));
    int *label_block = malloc((size_t)(f->nlabels ? f->nlabels : 1) * sizeof(int));
    for (int i = 0; i < f->n; i++) {
        int begin = i == 0 || f->code[i].op == I_LABEL || is_terminator(f->code[i - 1].op);
        if (!begin)
            continue;
        if (c->nblocks >= cap) {
            cap *= 2;
            c->start = realloc(c->start, (size_t)cap * sizeof(int));
        }
        c->start[c->nblocks++] = i;
    }
    c->end = malloc((size_t)(c->nblocks + 1) * sizeof(int));
    c->succ = malloc((size_t)(c->nblocks + 1) * 2 * sizeof(int));
    for (int b = 0; b < c->nblocks; b++) {
        c->end[b] = b + 1 < c->nblocks ? c->start[b + 1] : f->n;
        if (f->code[c->start[b]].op == I_LABEL)
            label_block[f->code[c->start[b]].l1] = b;
    }
    for (int b = 0; b < c->nblocks; b++) {
        const ins *last = &f->code[c->end[b] - 1];
        int *s = &c->succ[2 * b];
        s[0] = s[1] = -1;
        if (last->op == I_JMP)
            s[0] = label_block[last->l1];
        else if (last->op == I_BR) {
            s[0] = label_block[last->l1];
            s[1] = label_block[last->l2];
        } else if (last->op != I_RET && b + 1 < c->nblocks)
            s[0] = b + 1;
    }
    free(label_block);
    c->words = (f->nvregs + 63) / 64;
    if (c->words == 0)
        c->words = 1;
    return c;
}

static void bit_set(uint64_t *s, int v) { s[v >> 6] |= 1ULL << (v & 63); }
static void bit_clr(uint64_t *s, int v) { s[v >> 6] &= ~(1ULL << (v & 63)); }
static int bit_get(const uint64_t *s, int v) { return (int)((s[v >> 6] >> (v & 63)) & 1); }

/* live-before = uses + (live-after - defs), applied instruction by instruction */
static void transfer(const ins *i, uint64_t *live)
{
    int uses[64];
    int d = ins_def(i);
    if (d >= 0)
        bit_clr(live, d);
    int n = ins_uses(i, uses);
    for (int k = 0; k < n; k++)
        bit_set(live, uses[k]);
}

void cfg_liveness(cfg *c, const irfn *f)
{
    size_t sz = (size_t)c->nblocks * c->words;
    c->livein = calloc(sz ? sz : 1, sizeof(uint64_t));
    c->liveout = calloc(sz ? sz : 1, sizeof(uint64_t));
    uint64_t *tmp = malloc((size_t)c->words * sizeof(uint64_t));
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int b = c->nblocks - 1; b >= 0; b--) {
            uint64_t *out = c->liveout + (size_t)b * c->words;
            for (int s = 0; s < 2; s++) {
                int sb = c->succ[2 * b + s];
                if (sb < 0)
                    continue;
                const uint64_t *in = c->livein + (size_t)sb * c->words;
                for (int w = 0; w < c->words; w++)
                    out[w] |= in[w];
            }
            memcpy(tmp, out, (size_t)c->words * sizeof(uint64_t));
            for (int i = c->end[b] - 1; i >= c->start[b]; i--)
                transfer(&f->code[i], tmp);
            uint64_t *in = c->livein + (size_t)b * c->words;
            if (memcmp(tmp, in, (size_t)c->words * sizeof(uint64_t)) != 0) {
                memcpy(in, tmp, (size_t)c->words * sizeof(uint64_t));
                changed = 1;
            }
        }
    }
    free(tmp);
}

void cfg_free(cfg *c)
{
    free(c->start);
    free(c->end);
    free(c->succ);
    free(c->livein);
    free(c->liveout);
    free(c);
}

/* ---- pass: constant folding and algebraic simplification -------------- */

static void make_const(ins *i, int32_t v)
{
    if (i->op == I_CALL)
        free(i->args);
    int d = i->dst;
    memset(i, 0, sizeof(*i));
    i->op = I_CONST;
    i->dst = d;
    i->a = i->b = -1;
    i->imm = v;
}

static void make_mov(ins *i, int src)
{
    i->op = I_MOV;
    i->a = src;
    i->b = -1;
}

/* x op k where k is known: returns 1 if simplified. */
static int simplify_known_right(ins *i, int32_t k)
{
    switch (i->bop) {
    case TK_ADD: case TK_SUB: case TK_OR: case TK_XOR: case TK_SHL: case TK_SHR:
        if (k == 0) {
            make_mov(i, i->a);
            return 1;
        }
        break;
    case TK_MUL: case TK_DIV:
        if (k == 1) {
            make_mov(i, i->a);
            return 1;
        }
        if (k == 0 && i->bop == TK_MUL) {
            make_const(i, 0);
            return 1;
        }
        if (k == 0) {
            make_const(i, 0); /* x / 0 is defined as 0 */
            return 1;
        }
        break;
    case TK_AND:
        if (k == 0) {
            make_const(i, 0);
            return 1;
        }
        if (k == -1) {
            make_mov(i, i->a);
            return 1;
        }
        break;
    case TK_MOD:
        if (k == 1 || k == 0 || k == -1) {
            make_const(i, 0);
            return 1;
        }
        break;
    }
    return 0;
}

static int pass_fold(irfn *f, opt_stats *st)
{
    int changed = 0;
    char *known = calloc((size_t)f->nvregs + 1, 1);
    int32_t *val = calloc((size_t)f->nvregs + 1, sizeof(int32_t));
    for (int p = 0; p < f->n; p++) {
        ins *i = &f->code[p];
        if (i->op == I_LABEL)
            memset(known, 0, (size_t)f->nvregs);
        switch (i->op) {
        case I_MOV:
            if (known[i->a]) {
                make_const(i, val[i->a]);
                st->propagated++;
                changed = 1;
            }
            break;
        case I_BIN:
            if (known[i->a] && known[i->b]) {
                make_const(i, eval_binop(i->bop, val[i->a], val[i->b]));
                st->folded++;
                changed = 1;
            } else if (known[i->b] && simplify_known_right(i, val[i->b])) {
                st->simplified++;
                changed = 1;
            } else if (known[i->a] && val[i->a] == 0 && (i->bop == TK_ADD || i->bop == TK_OR || i->bop == TK_XOR)) {
                make_mov(i, i->b);
                st->simplified++;
                changed = 1;
            } else if (i->a == i->b && (i->bop == TK_SUB || i->bop == TK_XOR)) {
                make_const(i, 0);
                st->simplified++;
                changed = 1;
            }
            break;
        case I_NEG:
            if (known[i->a]) {
                make_const(i, (int32_t)(0u - (uint32_t)val[i->a]));
                st->folded++;
                changed = 1;
            }
            break;
        case I_NOT:
            if (known[i->a]) {
                make_const(i, val[i->a] == 0);
                st->folded++;
                changed = 1;
            }
            break;
        case I_BR:
            if (known[i->a]) {
                i->op = I_JMP;
                i->l1 = val[i->a] ? i->l1 : i->l2;
                i->a = -1;
                st->branches++;
                changed = 1;
            }
            break;
        }
        int d = ins_def(i);
        if (d >= 0) {
            known[d] = i->op == I_CONST;
            val[d] = i->imm;
        }
    }
    free(known);
    free(val);
    return changed;
}

/* ---- pass: copy propagation ------------------------------------------- */

static int pass_copyprop(irfn *f, opt_stats *st)
{
    int changed = 0;
    int *copy = malloc(((size_t)f->nvregs + 1) * sizeof(int));
    int *active = malloc(((size_t)f->nvregs + 1) * sizeof(int));
    int nactive = 0;
    for (int v = 0; v < f->nvregs; v++)
        copy[v] = -1;
    for (int p = 0; p < f->n; p++) {
        ins *i = &f->code[p];
        if (i->op == I_LABEL) {
            for (int k = 0; k < nactive; k++)
                copy[active[k]] = -1;
            nactive = 0;
        }
        /* rewrite uses */
        int *slots[3] = {NULL, NULL, NULL};
        if (i->op == I_BIN) {
            slots[0] = &i->a;
            slots[1] = &i->b;
        } else if (i->op == I_MOV || i->op == I_NEG || i->op == I_NOT || i->op == I_BR || i->op == I_RET) {
            slots[0] = &i->a;
        }
        for (int s = 0; s < 3 && slots[s]; s++)
            if (copy[*slots[s]] >= 0) {
                *slots[s] = copy[*slots[s]];
                st->propagated++;
                changed = 1;
            }
        if (i->op == I_CALL)
            for (int k = 0; k < i->nargs; k++)
                if (copy[i->args[k]] >= 0) {
                    i->args[k] = copy[i->args[k]];
                    st->propagated++;
                    changed = 1;
                }
        int d = ins_def(i);
        if (d < 0)
            continue;
        /* kill copies involving d */
        for (int k = 0; k < nactive; k++) {
            int v = active[k];
            if (v == d || copy[v] == d) {
                copy[v] = -1;
                active[k--] = active[--nactive];
            }
        }
        if (i->op == I_MOV && i->a != d) {
            copy[d] = i->a;
            active[nactive++] = d;
        }
    }
    free(copy);
    free(active);
    return changed;
}

/* ---- pass: dead code elimination -------------------------------------- */

static int pass_dce(irfn *f, opt_stats *st)
{
    cfg *c = cfg_build(f);
    cfg_liveness(c, f);
    uint64_t *live = malloc((size_t)c->words * sizeof(uint64_t));
    int changed = 0;
    for (int b = 0; b < c->nblocks; b++) {
        memcpy(live, c->liveout + (size_t)b * c->words, (size_t)c->words * sizeof(uint64_t));
        for (int p = c->end[b] - 1; p >= c->start[b]; p--) {
            ins *i = &f->code[p];
            int d = ins_def(i);
            int dead = d >= 0 && i->op != I_CALL && !bit_get(live, d);
            if (i->op == I_MOV && i->a == i->dst)
                dead = 1;
            if (dead) {
                i->op = I_NOP;
                st->removed++;
                changed = 1;
                continue;
            }
            transfer(i, live);
        }
    }
    free(live);
    cfg_free(c);
    return changed;
}

/* ---- pass: CFG cleanup ------------------------------------------------ */

static int next_real(const irfn *f, int p)
{
    while (p < f->n && f->code[p].op == I_NOP)
        p++;
    return p;
}

static int pass_cleanup(irfn *f, opt_stats *st)
{
    int changed = 0;
    /* unreachable code after an unconditional transfer */
    for (int p = 0; p < f->n; p++) {
        int op = f->code[p].op;
        if (op != I_JMP && op != I_RET)
            continue;
        for (int q = p + 1; q < f->n && f->code[q].op != I_LABEL; q++)
            if (f->code[q].op != I_NOP) {
                if (f->code[q].op == I_CALL)
                    free(f->code[q].args);
                f->code[q].op = I_NOP;
                st->removed++;
                changed = 1;
            }
    }
    for (int p = 0; p < f->n; p++) {
        ins *i = &f->code[p];
        if (i->op == I_BR && i->l1 == i->l2) {
            i->op = I_JMP;
            i->a = -1;
            st->branches++;
            changed = 1;
        }
        if (i->op == I_JMP) {
            int q = next_real(f, p + 1);
            if (q < f->n && f->code[q].op == I_LABEL && f->code[q].l1 == i->l1) {
                i->op = I_NOP;
                st->branches++;
                changed = 1;
            }
        }
    }
    /* drop labels nobody jumps to */
    char *used = calloc((size_t)f->nlabels + 1, 1);
    for (int p = 0; p < f->n; p++) {
        const ins *i = &f->code[p];
        if (i->op == I_JMP)
            used[i->l1] = 1;
        else if (i->op == I_BR)
            used[i->l1] = used[i->l2] = 1;
    }
    for (int p = 0; p < f->n; p++)
        if (f->code[p].op == I_LABEL && !used[f->code[p].l1]) {
            f->code[p].op = I_NOP;
            changed = 1;
        }
    free(used);
    return changed;
}

static void compact(irfn *f)
{
    int m = 0;
    for (int p = 0; p < f->n; p++)
        if (f->code[p].op != I_NOP)
            f->code[m++] = f->code[p];
    f->n = m;
}

typedef int (*pass_fn)(irfn *f, opt_stats *st);
static const struct {
    const char *name;
    pass_fn run;
} passes[] = {
    {"fold", pass_fold}, {"copyprop", pass_copyprop}, {"fold", pass_fold},
    {"dce", pass_dce}, {"cleanup", pass_cleanup},
};

void optimise(irfn *f, opt_stats *st)
{
    for (int round = 0; round < 6; round++) {
        int changed = 0;
        for (size_t k = 0; k < sizeof(passes) / sizeof(passes[0]); k++)
            changed |= passes[k].run(f, st);
        compact(f);
        if (!changed)
            break;
    }
    free(f->labpos);
    f->labpos = NULL;
}
