/* eval.c - tree-walking evaluator for the bigint_interp language.  Each AST
 * node kind is executed through a table of handler function pointers (in the
 * manner of perl's op dispatch); values are bigints or shared arrays. */
#include "interp.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

#define MAX_DEPTH 4000

enum { FLOW_NORMAL, FLOW_RETURN, FLOW_ERROR };

typedef struct frame {
    value *slots;
    int nslots;
    value ret;
    int flow;
    int depth;
} frame;

typedef struct ctx {
    program *prog;
    interp_stats *st;
} ctx;

typedef value (*eval_fn)(ctx *c, frame *f, node *n);
static const eval_fn eval_table[N_KINDS];

/* ---- value helpers ---------------------------------------------------- */

value val_int(bn *b)
{
    value v = {V_INT, b, NULL};
    return v;
}

array *arr_new(int n)
{
    array *a = malloc(sizeof(array));
    a->refs = 1;
    a->n = n;
    a->items = malloc((size_t)(n ? n : 1) * sizeof(value));
    for (int i = 0; i < n; i++)
        a->items[i] = val_int(bn_new(1));
    return a;
}

value val_copy(value v)
{
    if (v.kind == V_ARR) {
        if (v.a)
            v.a->refs++;
        return v;
    }
    return val_int(v.b ? bn_copy(v.b) : bn_new(1));
}

void val_free(value v)
{
    if (v.kind == V_ARR) {
        if (v.a && --v.a->refs == 0) {
            for (int i = 0; i < v.a->n; i++)
                val_free(v.a->items[i]);
            free(v.a->items);
            free(v.a);
        }
    } else {
        bn_free(v.b);
    }
}

static value zero_value(void) { return val_int(bn_new(1)); }

/* Result of a statement: carries no number and costs no allocation. */
static value void_value(void)
{
    value v = {V_INT, NULL, NULL};
    return v;
}

static void runtime_error(ctx *c, frame *f, node *n, const char *msg)
{
    if (!c->st->failed) {
        c->st->failed = 1;
        snprintf(c->st->errmsg, sizeof(c->st->errmsg), "line %d: %s", n->line, msg);
    }
    f->flow = FLOW_ERROR;
}

static int truthy(value v)
{
    if (v.kind == V_ARR)
        return v.a && v.a->n > 0;
    return v.b && !bn_is_zero(v.b);
}

static value bool_value(int b) { return val_int(bn_from_i64(b ? 1 : 0)); }

static value eval(ctx *c, frame *f, node *n)
{
    c->st->nodes_evaluated++;
    if (f->flow != FLOW_NORMAL)
        return zero_value();
    return eval_table[n->kind](c, f, n);
}

/* Evaluate an expression expected to produce an integer. */
static value eval_int(ctx *c, frame *f, node *n)
{
    value v = eval(c, f, n);
    if (v.kind != V_INT) {
        val_free(v);
        runtime_error(c, f, n, "integer expected");
        return zero_value();
    }
    return v;
}

/* ---- expressions ------------------------------------------------------ */

static value ev_num(ctx *c, frame *f, node *n) { return val_int(bn_copy(n->num)); }

static value ev_var(ctx *c, frame *f, node *n) { return val_copy(f->slots[n->slot]); }

static int index_of(ctx *c, frame *f, node *n, array *a, value iv)
{
    int64_t i = bn_to_i64(iv.b);
    if (iv.b->n > 2 || i < 0 || i >= a->n) {
        runtime_error(c, f, n, "index out of range");
        return -1;
    }
    return (int)i;
}

static value ev_index(ctx *c, frame *f, node *n)
{
    value av = eval(c, f, n->kids[0]);
    value iv = eval_int(c, f, n->kids[1]);
    value r = zero_value();
    if (av.kind != V_ARR) {
        runtime_error(c, f, n, "indexing a non-array");
    } else {
        int i = index_of(c, f, n, av.a, iv);
        if (i >= 0) {
            val_free(r);
            r = val_copy(av.a->items[i]);
        }
    }
    val_free(av);
    val_free(iv);
    return r;
}

static value call_function(ctx *c, frame *caller, node *n, func *fn);

static value ev_call(ctx *c, frame *f, node *n)
{
    if (!n->fn) {
        n->fn = program_lookup(c->prog, n->name);
        if (!n->fn) {
            runtime_error(c, f, n, "undefined function");
            return zero_value();
        }
    }
    if (n->fn->nparams != n->nkids) {
        runtime_error(c, f, n, "wrong argument count");
        return zero_value();
    }
    return call_function(c, f, n, n->fn);
}

static value ev_builtin(ctx *c, frame *f, node *n)
{
    value args[4];
    for (int i = 0; i < n->nkids; i++)
        args[i] = eval(c, f, n->kids[i]);
    value r;
    if (f->flow != FLOW_NORMAL)
        r = zero_value();
    else
        r = call_builtin(n->op, args, n->nkids, c->st);
    for (int i = 0; i < n->nkids; i++)
        val_free(args[i]);
    if (c->st->failed && f->flow == FLOW_NORMAL)
        f->flow = FLOW_ERROR;
    return r;
}

static bn *arith(ctx *c, frame *f, node *n, const bn *a, const bn *b)
{
    bn *q = NULL, *r = NULL;
    switch (n->op) {
    case T_PLUS: return bn_add(a, b);
    case T_MINUS: return bn_sub(a, b);
    case T_STAR: return bn_mul(a, b);
    case T_SLASH:
    case T_PERCENT:
        if (bn_divmod(a, b, &q, &r) < 0) {
            runtime_error(c, f, n, "division by zero");
            return bn_new(1);
        }
        if (n->op == T_SLASH) {
            bn_free(r);
            return q;
        }
        bn_free(q);
        return r;
    default:
        break;
    }
    int cmp = bn_cmp(a, b), res = 0;
    switch (n->op) {
    case T_EQ: res = cmp == 0; break;
    case T_NE: res = cmp != 0; break;
    case T_LT: res = cmp < 0; break;
    case T_LE: res = cmp <= 0; break;
    case T_GT: res = cmp > 0; break;
    case T_GE: res = cmp >= 0; break;
    }
    return bn_from_i64(res);
}

static value ev_bin(ctx *c, frame *f, node *n)
{
    value a = eval_int(c, f, n->kids[0]);
    value b = eval_int(c, f, n->kids[1]);
    value r = zero_value();
    if (f->flow == FLOW_NORMAL) {
        val_free(r);
        r = val_int(arith(c, f, n, a.b, b.b));
    }
    val_free(a);
    val_free(b);
    return r;
}

static value ev_neg(ctx *c, frame *f, node *n)
{
    value a = eval_int(c, f, n->kids[0]);
    value r = val_int(bn_neg(a.b));
    val_free(a);
    return r;
}

static value ev_not(ctx *c, frame *f, node *n)
{
    value a = eval(c, f, n->kids[0]);
    int t = truthy(a);
    val_free(a);
    return bool_value(!t);
}

static value ev_and(ctx *c, frame *f, node *n)
{
    value a = eval(c, f, n->kids[0]);
    int t = truthy(a);
    val_free(a);
    if (!t)
        return bool_value(0);
    value b = eval(c, f, n->kids[1]);
    t = truthy(b);
    val_free(b);
    return bool_value(t);
}

static value ev_or(ctx *c, frame *f, node *n)
{
    value a = eval(c, f, n->kids[0]);
    int t = truthy(a);
    val_free(a);
    if (t)
        return bool_value(1);
    value b = eval(c, f, n->kids[1]);
    t = truthy(b);
    val_free(b);
    return bool_value(t);
}

/* ---- statements ------------------------------------------------------- */

static value ev_assign(ctx *c, frame *f, node *n)
{
    value v = eval(c, f, n->kids[0]);
    val_free(f->slots[n->slot]);
    f->slots[n->slot] = v;
    return void_value();
}

static value ev_assign_idx(ctx *c, frame *f, node *n)
{
    value av = eval(c, f, n->kids[0]);
    value iv = eval_int(c, f, n->kids[1]);
    value v = eval(c, f, n->kids[2]);
    if (f->flow == FLOW_NORMAL) {
        if (av.kind != V_ARR) {
            runtime_error(c, f, n, "indexing a non-array");
        } else {
            int i = index_of(c, f, n, av.a, iv);
            if (i >= 0) {
                val_free(av.a->items[i]);
                av.a->items[i] = v;
                v = void_value();
            }
        }
    }
    val_free(v);
    val_free(av);
    val_free(iv);
    return void_value();
}

static value ev_block(ctx *c, frame *f, node *n)
{
    for (int i = 0; i < n->nkids && f->flow == FLOW_NORMAL; i++)
        val_free(eval(c, f, n->kids[i]));
    return void_value();
}

static value ev_while(ctx *c, frame *f, node *n)
{
    for (;;) {
        value cv = eval(c, f, n->kids[0]);
        int t = truthy(cv);
        val_free(cv);
        if (!t || f->flow != FLOW_NORMAL)
            break;
        val_free(eval(c, f, n->kids[1]));
    }
    return void_value();
}

static value ev_if(ctx *c, frame *f, node *n)
{
    value cv = eval(c, f, n->kids[0]);
    int t = truthy(cv);
    val_free(cv);
    if (t)
        val_free(eval(c, f, n->kids[1]));
    else if (n->kids[2])
        val_free(eval(c, f, n->kids[2]));
    return void_value();
}

static value ev_return(ctx *c, frame *f, node *n)
{
    value v = eval(c, f, n->kids[0]);
    if (f->flow == FLOW_NORMAL) {
        val_free(f->ret);
        f->ret = v;
        f->flow = FLOW_RETURN;
    } else {
        val_free(v);
    }
    return void_value();
}

static uint64_t mix_print(uint64_t h, const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    return (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ULL;
}

static value ev_print(ctx *c, frame *f, node *n)
{
    value v = eval(c, f, n->kids[0]);
    if (f->flow == FLOW_NORMAL) {
        if (v.kind == V_INT) {
            size_t len;
            char *s = bn_to_dec(v.b, &len);
            c->st->print_hash = mix_print(c->st->print_hash, s, len);
            free(s);
        } else {
            c->st->print_hash = mix_print(c->st->print_hash, "[array]", 7);
        }
        c->st->prints++;
    }
    val_free(v);
    return void_value();
}

static value ev_assert(ctx *c, frame *f, node *n)
{
    value v = eval(c, f, n->kids[0]);
    if (f->flow == FLOW_NORMAL && !truthy(v))
        runtime_error(c, f, n, "assertion failed");
    val_free(v);
    return void_value();
}

static value ev_expr(ctx *c, frame *f, node *n) { return eval(c, f, n->kids[0]); }

static const eval_fn eval_table[N_KINDS] = {
    [N_NUM] = ev_num, [N_VAR] = ev_var, [N_INDEX] = ev_index,
    [N_CALL] = ev_call, [N_BUILTIN] = ev_builtin, [N_BIN] = ev_bin,
    [N_NEG] = ev_neg, [N_NOT] = ev_not, [N_AND] = ev_and, [N_OR] = ev_or,
    [N_ASSIGN] = ev_assign, [N_ASSIGN_IDX] = ev_assign_idx,
    [N_WHILE] = ev_while, [N_IF] = ev_if, [N_RETURN] = ev_return,
    [N_PRINT] = ev_print, [N_ASSERT] = ev_assert, [N_EXPR] = ev_expr,
    [N_BLOCK] = ev_block,
};

/* ---- calls ------------------------------------------------------------ */

static void frame_init(frame *f, func *fn, int depth)
{
    f->nslots = fn->nslots;
    f->slots = malloc((size_t)(fn->nslots ? fn->nslots : 1) * sizeof(value));
    for (int i = 0; i < fn->nslots; i++)
        f->slots[i] = zero_value();
    f->ret = zero_value();
    f->flow = FLOW_NORMAL;
    f->depth = depth;
}

static void frame_release(frame *f)
{
    for (int i = 0; i < f->nslots; i++)
        val_free(f->slots[i]);
    free(f->slots);
}

static value call_function(ctx *c, frame *caller, node *n, func *fn)
{
    frame f;
    if (caller->depth + 1 > MAX_DEPTH) {
        runtime_error(c, caller, n, "recursion too deep");
        return zero_value();
    }
    frame_init(&f, fn, caller->depth + 1);
    for (int i = 0; i < fn->nparams; i++) {
        value v = eval(c, caller, n->kids[i]);
        val_free(f.slots[i]);
        f.slots[i] = v;
    }
    c->st->calls++;
    if (caller->flow == FLOW_NORMAL)
        val_free(eval(c, &f, fn->body));
    if (f.flow == FLOW_ERROR)
        caller->flow = FLOW_ERROR;
    value r = f.ret;
    f.ret = void_value();
    val_free(f.ret);
    frame_release(&f);
    return r;
}

void run_program(program *p, interp_stats *st)
{
    ctx c = {p, st};
    frame f;
    frame_init(&f, p->main, 0);
    val_free(eval(&c, &f, p->main->body));
    val_free(f.ret);
    frame_release(&f);
}
