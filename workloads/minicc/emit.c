/* emit.c - assembly emission for minicc: prints allocated IR as text for
 * an imaginary load/store RISC machine into a growable memory buffer. */
#include "minicc.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const mnemonics[] = {
    [TK_ADD] = "add", [TK_SUB] = "sub", [TK_MUL] = "mul", [TK_DIV] = "div", [TK_MOD] = "rem",
    [TK_AND] = "and", [TK_OR] = "or", [TK_XOR] = "xor", [TK_SHL] = "sll", [TK_SHR] = "sra",
    [TK_LT] = "slt", [TK_LE] = "sle", [TK_GT] = "sgt", [TK_GE] = "sge", [TK_EQ] = "seq",
    [TK_NE] = "sne",
};

static void out(outbuf *o, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = o->cap - o->len;
        va_start(ap, fmt);
        int n = vsnprintf(o->s + o->len, room, fmt, ap);
        va_end(ap);
        if ((size_t)n < room) {
            o->len += (size_t)n;
            return;
        }
        o->cap = o->cap * 2 + (size_t)n + 256;
        o->s = realloc(o->s, o->cap);
    }
}

/* Name of the register holding v, loading spilled values into scratch. */
static const char *src_reg(outbuf *o, const irfn *f, int v, int scratch, char *buf)
{
    if (f->reg[v] >= 0) {
        sprintf(buf, "r%d", f->reg[v]);
        return buf;
    }
    sprintf(buf, "t%d", scratch);
    out(o, "\tld\t%s, %d(sp)\n", buf, 8 * f->slot[v]);
    return buf;
}

static const char *dst_reg(const irfn *f, int v, char *buf)
{
    if (v >= 0 && f->reg[v] >= 0)
        sprintf(buf, "r%d", f->reg[v]);
    else
        sprintf(buf, "t0");
    return buf;
}

static void store_dst(outbuf *o, const irfn *f, int v)
{
    if (v >= 0 && f->reg[v] < 0 && f->slot[v] >= 0)
        out(o, "\tsd\tt0, %d(sp)\n", 8 * f->slot[v]);
}

static void emit_call(outbuf *o, const irfn *f, const ins *i, irfn *const *all)
{
    char b1[16], b2[16];
    for (int k = 0; k < i->nargs; k++)
        out(o, "\tmv\ta%d, %s\n", k, src_reg(o, f, i->args[k], 1, b1));
    out(o, "\tcall\t%s\n", all[i->callee]->name);
    out(o, "\tmv\t%s, a0\n", dst_reg(f, i->dst, b2));
    store_dst(o, f, i->dst);
}

static void emit_ins(outbuf *o, const irfn *f, const ins *i, irfn *const *all)
{
    char b1[16], b2[16], b3[16];
    switch (i->op) {
    case I_CONST:
        out(o, "\tli\t%s, %d\n", dst_reg(f, i->dst, b1), (int)i->imm);
        store_dst(o, f, i->dst);
        break;
    case I_MOV: {
        const char *s = src_reg(o, f, i->a, 1, b2);
        out(o, "\tmv\t%s, %s\n", dst_reg(f, i->dst, b1), s);
        store_dst(o, f, i->dst);
        break;
    }
    case I_BIN: {
        const char *a = src_reg(o, f, i->a, 1, b2);
        const char *b = src_reg(o, f, i->b, 2, b3);
        out(o, "\t%s\t%s, %s, %s\n", mnemonics[i->bop], dst_reg(f, i->dst, b1), a, b);
        store_dst(o, f, i->dst);
        break;
    }
    case I_NEG:
    case I_NOT: {
        const char *a = src_reg(o, f, i->a, 1, b2);
        out(o, "\t%s\t%s, %s\n", i->op == I_NEG ? "neg" : "seqz", dst_reg(f, i->dst, b1), a);
        store_dst(o, f, i->dst);
        break;
    }
    case I_LABEL:
        out(o, ".L%s_%d:\n", f->name, i->l1);
        break;
    case I_JMP:
        out(o, "\tj\t.L%s_%d\n", f->name, i->l1);
        break;
    case I_BR:
        out(o, "\tbnez\t%s, .L%s_%d\n", src_reg(o, f, i->a, 1, b1), f->name, i->l1);
        out(o, "\tj\t.L%s_%d\n", f->name, i->l2);
        break;
    case I_CALL:
        emit_call(o, f, i, all);
        break;
    case I_RET:
        out(o, "\tmv\ta0, %s\n", src_reg(o, f, i->a, 1, b1));
        out(o, "\tj\t.L%s_exit\n", f->name);
        break;
    default:
        break;
    }
}

void emit_function(outbuf *o, const irfn *f, irfn *const *all)
{
    int frame = 8 * (f->nslots + 1);
    out(o, "\t.globl\t%s\n%s:\n\taddi\tsp, sp, -%d\n\tsd\tra, %d(sp)\n", f->name, f->name, frame,
        frame - 8);
    char b[16];
    for (int p = 0; p < f->nparams; p++) {
        if (f->reg[p] >= 0)
            out(o, "\tmv\t%s, a%d\n", dst_reg(f, p, b), p);
        else if (f->slot[p] >= 0)
            out(o, "\tsd\ta%d, %d(sp)\n", p, 8 * f->slot[p]);
    }
    for (int p = 0; p < f->n; p++)
        emit_ins(o, f, &f->code[p], all);
    out(o, ".L%s_exit:\n\tld\tra, %d(sp)\n\taddi\tsp, sp, %d\n\tret\n\n", f->name, frame - 8,
        frame);
}
