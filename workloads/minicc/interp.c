/* interp.c - interpreter for minicc IR, used to check that optimisation
 * preserves program behaviour.  Arithmetic is 32-bit two's complement with
 * total definitions for division by zero and shifts. */
#include "minicc.h"
#include <stdlib.h>
#include <string.h>

#define MAX_CALL_DEPTH 200

int32_t eval_binop(int op, int32_t a, int32_t b)
{
    uint32_t ua = (uint32_t)a, ub = (uint32_t)b;
    switch (op) {
    case TK_ADD: return (int32_t)(ua + ub);
    case TK_SUB: return (int32_t)(ua - ub);
    case TK_MUL: return (int32_t)(ua * ub);
    case TK_DIV:
        if (b == 0)
            return 0;
        if (a == INT32_MIN && b == -1)
            return INT32_MIN;
        return a / b;
    case TK_MOD:
        if (b == 0 || (a == INT32_MIN && b == -1))
            return 0;
        return a % b;
    case TK_AND: return (int32_t)(ua & ub);
    case TK_OR: return (int32_t)(ua | ub);
    case TK_XOR: return (int32_t)(ua ^ ub);
    case TK_SHL: return (int32_t)(ua << (ub & 31));
    case TK_SHR: {
        int s = (int)(ub & 31);
        return a < 0 ? (int32_t)~(~ua >> s) : (int32_t)(ua >> s);
    }
    case TK_LT: return a < b;
    case TK_LE: return a <= b;
    case TK_GT: return a > b;
    case TK_GE: return a >= b;
    case TK_EQ: return a == b;
    case TK_NE: return a != b;
    default: return 0;
    }
}

static void index_labels(irfn *f)
{
    f->labpos = malloc((size_t)(f->nlabels ? f->nlabels : 1) * sizeof(int));
    for (int l = 0; l < f->nlabels; l++)
        f->labpos[l] = -1;
    for (int i = 0; i < f->n; i++)
        if (f->code[i].op == I_LABEL)
            f->labpos[f->code[i].l1] = i;
}

static int32_t run(irfn *const *fns, int fi, const int32_t *args, exec_stats *st, int depth)
{
    irfn *f = fns[fi];
    if (depth > MAX_CALL_DEPTH) {
        st->overflow = 1;
        return 0;
    }
    if (!f->labpos)
        index_labels(f);
    int32_t *r = calloc((size_t)(f->nvregs ? f->nvregs : 1), sizeof(int32_t));
    memcpy(r, args, (size_t)f->nparams * sizeof(int32_t));
    st->calls++;
    int32_t result = 0;
    int pc = 0;
    while (pc < f->n) {
        const ins *i = &f->code[pc++];
        st->steps++;
        switch (i->op) {
        case I_CONST: r[i->dst] = i->imm; break;
        case I_MOV: r[i->dst] = r[i->a]; break;
        case I_BIN: r[i->dst] = eval_binop(i->bop, r[i->a], r[i->b]); break;
        case I_NEG: r[i->dst] = (int32_t)(0u - (uint32_t)r[i->a]); break;
        case I_NOT: r[i->dst] = r[i->a] == 0; break;
        case I_JMP: pc = f->labpos[i->l1]; break;
        case I_BR: pc = f->labpos[r[i->a] ? i->l1 : i->l2]; break;
        case I_CALL: {
            int32_t av[16];
            for (int k = 0; k < i->nargs && k < 16; k++)
                av[k] = r[i->args[k]];
            r[i->dst] = run(fns, i->callee, av, st, depth + 1);
            break;
        }
        case I_RET:
            result = r[i->a];
            pc = f->n;
            break;
        default: break;
        }
    }
    free(r);
    return result;
}

int32_t ir_execute(irfn *const *fns, int f, const int32_t *args, exec_stats *st)
{
    return run(fns, f, args, st, 0);
}
