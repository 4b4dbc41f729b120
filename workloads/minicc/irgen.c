/* irgen.c - lowers a checked minicc AST to three-address IR over virtual
 * registers (one per variable plus temporaries), using a table of
 * per-node-kind generator functions. */
#include "minicc.h"
#include <stdlib.h>
#include <string.h>

typedef struct gen {
    irfn *f;
    const unit *u;
} gen;

typedef int (*gen_fn)(gen *g, const ast *a);
static const gen_fn generators[A_KINDS];

static ins *emit(irfn *f, int op)
{
    if (f->n >= f->cap) {
        f->cap = f->cap ? f->cap * 2 : 64;
        f->code = realloc(f->code, (size_t)f->cap * sizeof(ins));
    }
    ins *i = &f->code[f->n++];
    memset(i, 0, sizeof(*i));
    i->op = op;
    i->dst = i->a = i->b = -1;
    return i;
}

static int new_temp(gen *g) { return g->f->nvregs++; }
static int new_label(gen *g) { return g->f->nlabels++; }

static void emit_label(gen *g, int l) { emit(g->f, I_LABEL)->l1 = l; }
static void emit_jmp(gen *g, int l) { emit(g->f, I_JMP)->l1 = l; }

static void emit_br(gen *g, int c, int lt, int lf)
{
    ins *i = emit(g->f, I_BR);
    i->a = c;
    i->l1 = lt;
    i->l2 = lf;
}

static int emit_const(gen *g, int32_t v)
{
    ins *i = emit(g->f, I_CONST);
    i->dst = new_temp(g);
    i->imm = v;
    return i->dst;
}

static void emit_mov(gen *g, int dst, int src)
{
    ins *i = emit(g->f, I_MOV);
    i->dst = dst;
    i->a = src;
}

static int gen_node(gen *g, const ast *a) { return a ? generators[a->kind](g, a) : -1; }

static int g_num(gen *g, const ast *a) { return emit_const(g, a->val); }

static int g_var(gen *g, const ast *a) { return a->var; }

static int g_bin(gen *g, const ast *a)
{
    int l = gen_node(g, a->k[0]);
    int r = gen_node(g, a->k[1]);
    ins *i = emit(g->f, I_BIN);
    i->bop = a->op;
    i->a = l;
    i->b = r;
    i->dst = new_temp(g);
    return i->dst;
}

static int g_unary(gen *g, const ast *a)
{
    int v = gen_node(g, a->k[0]);
    ins *i = emit(g->f, a->kind == A_NEG ? I_NEG : I_NOT);
    i->a = v;
    i->dst = new_temp(g);
    return i->dst;
}

/* a && b / a || b with short-circuit evaluation. */
static int g_logic(gen *g, const ast *a)
{
    int is_and = a->kind == A_LAND;
    int t = new_temp(g);
    ins *c = emit(g->f, I_CONST);
    c->dst = t;
    c->imm = is_and ? 0 : 1;
    int lrhs = new_label(g), lend = new_label(g);
    int l = gen_node(g, a->k[0]);
    if (is_and)
        emit_br(g, l, lrhs, lend);
    else
        emit_br(g, l, lend, lrhs);
    emit_label(g, lrhs);
    int r = gen_node(g, a->k[1]);
    int z = emit_const(g, 0);
    ins *i = emit(g->f, I_BIN);
    i->bop = TK_NE;
    i->a = r;
    i->b = z;
    i->dst = t;
    emit_label(g, lend);
    return t;
}

static int g_call(gen *g, const ast *a)
{
    int *args = malloc((size_t)(a->nk ? a->nk : 1) * sizeof(int));
    for (int k = 0; k < a->nk; k++)
        args[k] = gen_node(g, a->k[k]);
    ins *i = emit(g->f, I_CALL);
    i->callee = a->callee;
    i->nargs = a->nk;
    i->args = args;
    i->dst = new_temp(g);
    return i->dst;
}

static int g_store(gen *g, const ast *a)
{
    int v = gen_node(g, a->k[0]);
    emit_mov(g, a->var, v);
    return -1;
}

static int g_if(gen *g, const ast *a)
{
    int lt = new_label(g), lf = new_label(g), lend = new_label(g);
    int c = gen_node(g, a->k[0]);
    emit_br(g, c, lt, lf);
    emit_label(g, lt);
    gen_node(g, a->k[1]);
    emit_jmp(g, lend);
    emit_label(g, lf);
    gen_node(g, a->k[2]);
    emit_label(g, lend);
    return -1;
}

static int g_while(gen *g, const ast *a)
{
    int lhead = new_label(g), lbody = new_label(g), lend = new_label(g);
    emit_label(g, lhead);
    int c = gen_node(g, a->k[0]);
    emit_br(g, c, lbody, lend);
    emit_label(g, lbody);
    gen_node(g, a->k[1]);
    emit_jmp(g, lhead);
    emit_label(g, lend);
    return -1;
}

static int g_return(gen *g, const ast *a)
{
    int v = gen_node(g, a->k[0]);
    emit(g->f, I_RET)->a = v;
    return -1;
}

static int g_seq(gen *g, const ast *a)
{
    for (int k = 0; k < a->nk; k++)
        gen_node(g, a->k[k]);
    return -1;
}

static const gen_fn generators[A_KINDS] = {
    [A_NUM] = g_num, [A_VAR] = g_var, [A_BIN] = g_bin, [A_NEG] = g_unary, [A_NOT] = g_unary,
    [A_CALL] = g_call, [A_LAND] = g_logic, [A_LOR] = g_logic, [A_DECL] = g_store,
    [A_ASSIGN] = g_store, [A_IF] = g_if, [A_WHILE] = g_while, [A_RETURN] = g_return,
    [A_BLOCK] = g_seq, [A_EXPR] = g_seq,
};

irfn *irgen_function(const unit *u, int fi)
{
    const fn_ast *fa = &u->fns[fi];
    irfn *f = calloc(1, sizeof(irfn));
    gen g = {f, u};
    f->name = strdup(fa->name);
    f->nparams = fa->nparams;
    f->nvregs = fa->nvars;
    gen_node(&g, fa->body);
    int z = emit_const(&g, 0);
    emit(f, I_RET)->a = z;
    return f;
}

irfn *ir_clone(const irfn *f)
{
    irfn *c = calloc(1, sizeof(irfn));
    *c = *f;
    c->name = strdup(f->name);
    c->code = malloc((size_t)f->cap * sizeof(ins));
    memcpy(c->code, f->code, (size_t)f->n * sizeof(ins));
    for (int i = 0; i < f->n; i++)
        if (f->code[i].op == I_CALL) {
            c->code[i].args = malloc((size_t)(f->code[i].nargs + 1) * sizeof(int));
            memcpy(c->code[i].args, f->code[i].args, (size_t)f->code[i].nargs * sizeof(int));
        }
    c->reg = c->slot = c->labpos = NULL;
    return c;
}

void ir_free(irfn *f)
{
    for (int i = 0; i < f->n; i++)
        if (f->code[i].op == I_CALL)
            free(f->code[i].args);
    free(f->code);
    free(f->reg);
    free(f->slot);
    free(f->labpos);
    free(f->name);
    free(f);
}

int ir_count(const irfn *f)
{
    int n = 0;
    for (int i = 0; i < f->n; i++)
        n += f->code[i].op != I_NOP;
    return n;
}
