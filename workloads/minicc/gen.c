/* gen.c - random program generator for minicc: emits many functions in the
 * small C-like language with nested control flow, bounded counting loops,
 * calls only to earlier functions under an execution-cost budget, and some
 * deliberately foldable or dead code for the optimiser to find. */
#include "minicc.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COST_BUDGET 4000
#define MAX_SCOPE 64

uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545f4914f6cdd1dULL;
}

typedef struct gstate {
    char *buf;
    size_t len, cap;
    uint64_t *seed;
    int fn;                 /* current function index */
    int *nparams;           /* per function */
    long *cost;             /* estimated steps per call */
    long cur_cost;          /* estimate for the current function */
    char names[MAX_SCOPE][16];
    int assignable[MAX_SCOPE];
    int nnames;
    int next_local;
    int loop_mult;
    int depth;
} gstate;

static void put(gstate *g, const char *fmt, ...)
{
    va_list ap;
    for (;;) {
        size_t room = g->cap - g->len;
        va_start(ap, fmt);
        int n = vsnprintf(g->buf + g->len, room, fmt, ap);
        va_end(ap);
        if ((size_t)n < room) {
            g->len += (size_t)n;
            return;
        }
        g->cap = g->cap * 2 + (size_t)n + 1024;
        g->buf = realloc(g->buf, g->cap);
    }
}

static int rnd(gstate *g, int n) { return (int)(rng_next(g->seed) % (uint64_t)n); }

static void indent(gstate *g)
{
    for (int i = 0; i <= g->depth; i++)
        put(g, "    ");
}

static void gen_expr(gstate *g, int depth);

static void gen_leaf(gstate *g)
{
    if (g->nnames > 0 && rnd(g, 4) != 0) {
        put(g, "%s", g->names[rnd(g, g->nnames)]);
        return;
    }
    switch (rnd(g, 3)) {
    case 0: put(g, "%d", rnd(g, 10)); break;
    case 1: put(g, "%d", rnd(g, 1000)); break;
    default: put(g, "%d", rnd(g, 2000000000)); break;
    }
}

/* A call to an earlier function, if the cost budget allows one. */
static int try_call(gstate *g, int depth)
{
    if (g->fn == 0 || depth > 1)
        return 0;
    int callee = g->fn - 1 - rnd(g, g->fn < 12 ? g->fn : 12);
    long c = g->cost[callee] * g->loop_mult;
    if (g->cur_cost + c > COST_BUDGET)
        return 0;
    g->cur_cost += c;
    put(g, "f%d(", callee);
    for (int a = 0; a < g->nparams[callee]; a++) {
        if (a)
            put(g, ", ");
        gen_expr(g, depth + 1);
    }
    put(g, ")");
    return 1;
}

static void gen_expr(gstate *g, int depth)
{
    static const char *const ops[] = {"+", "-", "*", "/", "%", "&", "|", "^", "<<", ">>",
                                      "<", "<=", ">", ">=", "==", "!=", "&&", "||", "+", "-", "*"};
    g->cur_cost += 2 * g->loop_mult;
    int r = rnd(g, 10);
    if (depth >= 3 || r < 3) {
        gen_leaf(g);
        return;
    }
    if (r == 3 && try_call(g, depth))
        return;
    if (r == 4) {
        put(g, rnd(g, 2) ? "-(" : "!(");
        gen_expr(g, depth + 1);
        put(g, ")");
        return;
    }
    if (r == 5) {
        /* constant subexpression for the folder */
        /* separate statements: argument evaluation order is unspecified */
        int x = rnd(g, 50);
        int op = rnd(g, 3);
        int y = rnd(g, 50);
        put(g, "(%d %s %d) * ", x, ops[op], y);
        gen_expr(g, depth + 1);
        return;
    }
    put(g, "(");
    gen_expr(g, depth + 1);
    put(g, " %s ", ops[rnd(g, (int)(sizeof(ops) / sizeof(ops[0])))]);
    gen_expr(g, depth + 1);
    put(g, ")");
}

static void declare(gstate *g, const char *prefix, int assignable)
{
    if (g->nnames >= MAX_SCOPE)
        return;
    snprintf(g->names[g->nnames], sizeof(g->names[0]), "%s%d", prefix, g->next_local++);
    g->assignable[g->nnames] = assignable;
    g->nnames++;
}

static void gen_block(gstate *g, int nstmts);

static void gen_assign(gstate *g)
{
    int tries = 8;
    while (tries--) {
        int v = rnd(g, g->nnames);
        if (!g->assignable[v])
            continue;
        indent(g);
        put(g, "%s = ", g->names[v]);
        gen_expr(g, 0);
        put(g, ";\n");
        return;
    }
}

static void gen_decl(gstate *g)
{
    indent(g);
    put(g, "int ");
    /* initialiser is generated before the new name becomes visible */
    char name[8];
    snprintf(name, sizeof(name), "v%d", g->next_local);
    put(g, "%s = ", name);
    gen_expr(g, 0);
    put(g, ";\n");
    declare(g, "v", 1);
}

static void gen_if(gstate *g)
{
    indent(g);
    put(g, "if (");
    if (rnd(g, 12) == 0)
        put(g, "0");
    else
        gen_expr(g, 1);
    put(g, ") {\n");
    gen_block(g, 1 + rnd(g, 3));
    indent(g);
    if (rnd(g, 2)) {
        put(g, "} else {\n");
        gen_block(g, 1 + rnd(g, 3));
        indent(g);
    }
    put(g, "}\n");
}

static void gen_while(gstate *g)
{
    int iters = 2 + rnd(g, 9);
    int saved = g->nnames;
    indent(g);
    char ctr[8];
    snprintf(ctr, sizeof(ctr), "i%d", g->next_local);
    put(g, "{\n");
    g->depth++;
    indent(g);
    put(g, "int %s = 0;\n", ctr);
    declare(g, "i", 0);
    indent(g);
    put(g, "while (%s < %d) {\n", ctr, iters);
    int saved_mult = g->loop_mult;
    g->loop_mult *= iters;
    gen_block(g, 1 + rnd(g, 4));
    g->depth++;
    indent(g);
    put(g, "%s = %s + 1;\n", ctr, ctr);
    g->depth--;
    g->loop_mult = saved_mult;
    indent(g);
    put(g, "}\n");
    g->depth--;
    indent(g);
    put(g, "}\n");
    g->nnames = saved;
}

static void gen_stmt(gstate *g)
{
    int r = rnd(g, 10);
    if (g->depth < 3 && r < 2)
        gen_if(g);
    else if (g->depth < 3 && r < 4 && g->loop_mult < 200)
        gen_while(g);
    else if (r < 6)
        gen_decl(g);
    else
        gen_assign(g);
}

static void gen_block(gstate *g, int nstmts)
{
    int saved = g->nnames;
    g->depth++;
    for (int s = 0; s < nstmts; s++)
        gen_stmt(g);
    g->depth--;
    g->nnames = saved;
}

static void gen_function(gstate *g, int f)
{
    g->fn = f;
    g->nnames = 0;
    g->next_local = 0;
    g->cur_cost = 10;
    g->loop_mult = 1;
    g->depth = 0;
    g->nparams[f] = 1 + rnd(g, 4);
    put(g, "int f%d(", f);
    for (int p = 0; p < g->nparams[f]; p++) {
        put(g, "%sint p%d", p ? ", " : "", p);
        snprintf(g->names[g->nnames], sizeof(g->names[0]), "p%d", p);
        g->assignable[g->nnames++] = 1;
    }
    put(g, ") {\n");
    int n = 3 + rnd(g, 8);
    for (int s = 0; s < n; s++)
        gen_stmt(g);
    if (rnd(g, 3) == 0) {
        indent(g);
        put(g, "int unused%d = p0 * 7 + 3;\n", f);
    }
    indent(g);
    put(g, "return ");
    gen_expr(g, 0);
    put(g, ";\n}\n\n");
    g->cost[f] = g->cur_cost;
}

char *generate_program(int nfuncs, uint64_t *seed, int *entry_count)
{
    gstate g;
    memset(&g, 0, sizeof(g));
    g.cap = 65536;
    g.buf = malloc(g.cap);
    g.buf[0] = 0;
    g.seed = seed;
    g.nparams = calloc((size_t)nfuncs, sizeof(int));
    g.cost = calloc((size_t)nfuncs, sizeof(long));
    for (int f = 0; f < nfuncs; f++)
        gen_function(&g, f);
    *entry_count = nfuncs;
    free(g.nparams);
    free(g.cost);
    return g.buf;
}
