/* sema.c - semantic checks of minicc, written as an AST visitor dispatched
 * through a table of function pointers: resolves variables to per-function
 * ids with block scoping, resolves calls through a hashed function table,
 * and reports undeclared names, redeclarations and arity errors. */
#include "minicc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct scope_ent {
    const char *name;
    int var;
    int depth;
} scope_ent;

typedef struct sema {
    unit *u;
    int *fhash;          /* open addressing: function index + 1 */
    int fcap;
    scope_ent *sc;
    int nsc, capsc, depth;
    int nvars;
    int errors;
    char *err;
    size_t errlen;
} sema;

typedef void (*visit_fn)(sema *s, ast *a);
static const visit_fn visitors[A_KINDS];

static uint32_t hash_name(const char *s)
{
    uint32_t h = 5381;
    while (*s)
        h = h * 33u ^ (unsigned char)*s++;
    return h;
}

static void error(sema *s, const ast *a, const char *msg, const char *name)
{
    if (!s->errors)
        snprintf(s->err, s->errlen, "line %d: %s '%s'", a->line, msg, name ? name : "");
    s->errors++;
}

static void build_fn_table(sema *s)
{
    s->fcap = 16;
    while (s->fcap < s->u->nfns * 2)
        s->fcap <<= 1;
    s->fhash = calloc((size_t)s->fcap, sizeof(int));
    for (int i = 0; i < s->u->nfns; i++) {
        uint32_t h = hash_name(s->u->fns[i].name) & (uint32_t)(s->fcap - 1);
        while (s->fhash[h])
            h = (h + 1) & (uint32_t)(s->fcap - 1);
        s->fhash[h] = i + 1;
    }
}

static int find_fn(const sema *s, const char *name)
{
    uint32_t h = hash_name(name) & (uint32_t)(s->fcap - 1);
    while (s->fhash[h]) {
        int i = s->fhash[h] - 1;
        if (strcmp(s->u->fns[i].name, name) == 0)
            return i;
        h = (h + 1) & (uint32_t)(s->fcap - 1);
    }
    return -1;
}

static int lookup_var(const sema *s, const char *name)
{
    for (int i = s->nsc - 1; i >= 0; i--)
        if (strcmp(s->sc[i].name, name) == 0)
            return s->sc[i].var;
    return -1;
}

static int declare(sema *s, const ast *a, const char *name)
{
    for (int i = s->nsc - 1; i >= 0 && s->sc[i].depth == s->depth; i--)
        if (strcmp(s->sc[i].name, name) == 0)
            error(s, a, "redeclaration of", name);
    if (s->nsc >= s->capsc) {
        s->capsc = s->capsc ? s->capsc * 2 : 64;
        s->sc = realloc(s->sc, (size_t)s->capsc * sizeof(scope_ent));
    }
    s->sc[s->nsc].name = name;
    s->sc[s->nsc].var = s->nvars;
    s->sc[s->nsc].depth = s->depth;
    s->nsc++;
    return s->nvars++;
}

static void visit(sema *s, ast *a)
{
    if (a)
        visitors[a->kind](s, a);
}

static void visit_kids(sema *s, ast *a)
{
    for (int i = 0; i < a->nk; i++)
        visit(s, a->k[i]);
}

static void v_leaf(sema *s, ast *a) { (void)s; (void)a; }

static void v_var(sema *s, ast *a)
{
    a->var = lookup_var(s, a->name);
    if (a->var < 0)
        error(s, a, "undeclared variable", a->name);
}

static void v_call(sema *s, ast *a)
{
    visit_kids(s, a);
    a->callee = find_fn(s, a->name);
    if (a->callee < 0)
        error(s, a, "undefined function", a->name);
    else if (s->u->fns[a->callee].nparams != a->nk)
        error(s, a, "wrong number of arguments to", a->name);
}

static void v_decl(sema *s, ast *a)
{
    visit_kids(s, a);       /* initialiser sees the outer binding */
    a->var = declare(s, a, a->name);
}

static void v_assign(sema *s, ast *a)
{
    visit_kids(s, a);
    a->var = lookup_var(s, a->name);
    if (a->var < 0)
        error(s, a, "assignment to undeclared", a->name);
}

static void v_block(sema *s, ast *a)
{
    int mark = s->nsc;
    s->depth++;
    visit_kids(s, a);
    s->depth--;
    s->nsc = mark;
}

static const visit_fn visitors[A_KINDS] = {
    [A_NUM] = v_leaf, [A_VAR] = v_var, [A_BIN] = visit_kids, [A_NEG] = visit_kids,
    [A_NOT] = visit_kids, [A_CALL] = v_call, [A_LAND] = visit_kids, [A_LOR] = visit_kids,
    [A_DECL] = v_decl, [A_ASSIGN] = v_assign, [A_IF] = visit_kids, [A_WHILE] = visit_kids,
    [A_RETURN] = visit_kids, [A_BLOCK] = v_block, [A_EXPR] = visit_kids,
};

int sema_check(unit *u, char *err, size_t errlen)
{
    sema s;
    memset(&s, 0, sizeof(s));
    s.u = u;
    s.err = err;
    s.errlen = errlen;
    build_fn_table(&s);
    for (int f = 0; f < u->nfns; f++) {
        fn_ast *fn = &u->fns[f];
        if (find_fn(&s, fn->name) != f)
            error(&s, fn->body, "duplicate function", fn->name);
        s.nsc = 0;
        s.nvars = 0;
        s.depth = 0;
        for (int p = 0; p < fn->nparams; p++)
            declare(&s, fn->body, fn->params[p]);
        visit(&s, fn->body);
        fn->nvars = s.nvars;
    }
    free(s.fhash);
    free(s.sc);
    return s.errors;
}
