/* parser.c - recursive-descent parser for the bigint_interp language.
 * Builds the AST, resolves local variables to frame slots through a
 * per-function hash table, and registers functions in a program-wide table. */
#include "interp.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

typedef struct sym {
    const char *name;
    int len;
    int slot;
    struct sym *next;
} sym;

#define SCOPE_BUCKETS 64

typedef struct parser {
    token *toks;
    int pos;
    int ntok;
    program *prog;
    sym *scope[SCOPE_BUCKETS];
    int nslots;
} parser;

static node *parse_expr(parser *ps);
static node *parse_block(parser *ps);
static node *parse_stmt(parser *ps);

static uint32_t name_hash(const char *s, int len)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static void parse_error(parser *ps, const char *msg)
{
    token *t = &ps->toks[ps->pos];
    fprintf(stderr, "parse error line %d near '%.*s': %s\n", t->line, t->len, t->text, msg);
    exit(3);
}

static token *peek(parser *ps) { return &ps->toks[ps->pos]; }

static int accept(parser *ps, int kind)
{
    if (ps->toks[ps->pos].kind == kind) {
        ps->pos++;
        return 1;
    }
    return 0;
}

static token *expect(parser *ps, int kind, const char *what)
{
    if (ps->toks[ps->pos].kind != kind)
        parse_error(ps, what);
    return &ps->toks[ps->pos++];
}

static node *new_node(parser *ps, int kind, int nkids)
{
    node *n = calloc(1, sizeof(node));
    n->kind = kind;
    n->line = peek(ps)->line;
    n->nkids = nkids;
    if (nkids)
        n->kids = calloc((size_t)nkids, sizeof(node *));
    ps->prog->nnodes++;
    return n;
}

static void scope_clear(parser *ps)
{
    for (int i = 0; i < SCOPE_BUCKETS; i++) {
        sym *s = ps->scope[i];
        while (s) {
            sym *nx = s->next;
            free(s);
            s = nx;
        }
        ps->scope[i] = NULL;
    }
    ps->nslots = 0;
}

static int scope_slot(parser *ps, const char *name, int len)
{
    uint32_t h = name_hash(name, len) % SCOPE_BUCKETS;
    for (sym *s = ps->scope[h]; s; s = s->next)
        if (s->len == len && memcmp(s->name, name, (size_t)len) == 0)
            return s->slot;
    sym *s = malloc(sizeof(sym));
    s->name = name;
    s->len = len;
    s->slot = ps->nslots++;
    s->next = ps->scope[h];
    ps->scope[h] = s;
    return s->slot;
}

static void add_kid(node *n, node *k)
{
    n->kids = realloc(n->kids, (size_t)(n->nkids + 1) * sizeof(node *));
    n->kids[n->nkids++] = k;
}

static node *parse_call(parser *ps, token *id)
{
    node *n;
    int b = builtin_index(id->text, id->len);
    if (b >= 0) {
        n = new_node(ps, N_BUILTIN, 0);
        n->op = b;
    } else {
        n = new_node(ps, N_CALL, 0);
        n->name = strndup(id->text, (size_t)id->len);
    }
    if (!accept(ps, T_RPAREN)) {
        do {
            add_kid(n, parse_expr(ps));
        } while (accept(ps, T_COMMA));
        expect(ps, T_RPAREN, "')' after arguments");
    }
    if (b >= 0 && builtin_arity(b) != n->nkids)
        parse_error(ps, "wrong number of builtin arguments");
    return n;
}

static node *parse_postfix(parser *ps, node *n)
{
    while (accept(ps, T_LBRACK)) {
        node *ix = new_node(ps, N_INDEX, 2);
        ix->kids[0] = n;
        ix->kids[1] = parse_expr(ps);
        expect(ps, T_RBRACK, "']'");
        n = ix;
    }
    return n;
}

static node *parse_primary(parser *ps)
{
    token *t = peek(ps);
    if (accept(ps, T_NUM)) {
        node *n = new_node(ps, N_NUM, 0);
        n->num = bn_from_dec(t->text, (size_t)t->len);
        return n;
    }
    if (accept(ps, T_IDENT)) {
        if (accept(ps, T_LPAREN))
            return parse_postfix(ps, parse_call(ps, t));
        node *n = new_node(ps, N_VAR, 0);
        n->slot = scope_slot(ps, t->text, t->len);
        return parse_postfix(ps, n);
    }
    if (accept(ps, T_LPAREN)) {
        node *n = parse_expr(ps);
        expect(ps, T_RPAREN, "')'");
        return parse_postfix(ps, n);
    }
    parse_error(ps, "expected expression");
    return NULL;
}

static node *parse_unary(parser *ps)
{
    if (accept(ps, T_MINUS)) {
        node *n = new_node(ps, N_NEG, 1);
        n->kids[0] = parse_unary(ps);
        return n;
    }
    if (accept(ps, T_NOT)) {
        node *n = new_node(ps, N_NOT, 1);
        n->kids[0] = parse_unary(ps);
        return n;
    }
    return parse_primary(ps);
}

static int binary_prec(int kind)
{
    switch (kind) {
    case T_OR: return 1;
    case T_AND: return 2;
    case T_EQ: case T_NE: return 3;
    case T_LT: case T_LE: case T_GT: case T_GE: return 4;
    case T_PLUS: case T_MINUS: return 5;
    case T_STAR: case T_SLASH: case T_PERCENT: return 6;
    default: return 0;
    }
}

/* Precedence climbing over the binary operators. */
static node *parse_binary(parser *ps, int min_prec)
{
    node *lhs = parse_unary(ps);
    for (;;) {
        int op = peek(ps)->kind, prec = binary_prec(op);
        if (prec == 0 || prec < min_prec)
            return lhs;
        ps->pos++;
        node *rhs = parse_binary(ps, prec + 1);
        int kind = op == T_AND ? N_AND : op == T_OR ? N_OR : N_BIN;
        node *n = new_node(ps, kind, 2);
        n->op = op;
        n->kids[0] = lhs;
        n->kids[1] = rhs;
        lhs = n;
    }
}

static node *parse_expr(parser *ps) { return parse_binary(ps, 1); }

static node *parse_assign_or_expr(parser *ps)
{
    token *t = peek(ps);
    if (t->kind == T_IDENT && ps->toks[ps->pos + 1].kind == T_ASSIGN) {
        ps->pos += 2;
        node *n = new_node(ps, N_ASSIGN, 1);
        n->slot = scope_slot(ps, t->text, t->len);
        n->kids[0] = parse_expr(ps);
        return n;
    }
    node *e = parse_expr(ps);
    if (e->kind == N_INDEX && accept(ps, T_ASSIGN)) {
        node *n = new_node(ps, N_ASSIGN_IDX, 3);
        n->kids[0] = e->kids[0];
        n->kids[1] = e->kids[1];
        n->kids[2] = parse_expr(ps);
        free(e->kids);
        free(e);
        return n;
    }
    node *n = new_node(ps, N_EXPR, 1);
    n->kids[0] = e;
    return n;
}

static node *parse_if(parser *ps)
{
    node *n = new_node(ps, N_IF, 3);
    expect(ps, T_LPAREN, "'(' after if");
    n->kids[0] = parse_expr(ps);
    expect(ps, T_RPAREN, "')' after condition");
    n->kids[1] = parse_block(ps);
    if (accept(ps, T_ELSE)) {
        if (accept(ps, T_IF))
            n->kids[2] = parse_if(ps);
        else
            n->kids[2] = parse_block(ps);
    }
    return n;
}

static node *parse_stmt(parser *ps)
{
    node *n;
    if (accept(ps, T_WHILE)) {
        n = new_node(ps, N_WHILE, 2);
        expect(ps, T_LPAREN, "'(' after while");
        n->kids[0] = parse_expr(ps);
        expect(ps, T_RPAREN, "')' after condition");
        n->kids[1] = parse_block(ps);
        return n;
    }
    if (accept(ps, T_IF))
        return parse_if(ps);
    if (accept(ps, T_RETURN)) {
        n = new_node(ps, N_RETURN, 1);
        n->kids[0] = parse_expr(ps);
    } else if (accept(ps, T_PRINT)) {
        n = new_node(ps, N_PRINT, 1);
        n->kids[0] = parse_expr(ps);
    } else if (accept(ps, T_ASSERT)) {
        n = new_node(ps, N_ASSERT, 1);
        n->kids[0] = parse_expr(ps);
    } else {
        n = parse_assign_or_expr(ps);
    }
    expect(ps, T_SEMI, "';'");
    return n;
}

static node *parse_block(parser *ps)
{
    node *b = new_node(ps, N_BLOCK, 0);
    expect(ps, T_LBRACE, "'{'");
    while (!accept(ps, T_RBRACE))
        add_kid(b, parse_stmt(ps));
    return b;
}

static void program_add(program *p, func *f)
{
    uint32_t h = name_hash(f->name, (int)strlen(f->name)) % (uint32_t)p->fcap;
    f->next = p->ftab[h];
    p->ftab[h] = f;
    p->nfuncs++;
}

func *program_lookup(program *p, const char *name)
{
    uint32_t h = name_hash(name, (int)strlen(name)) % (uint32_t)p->fcap;
    for (func *f = p->ftab[h]; f; f = f->next)
        if (strcmp(f->name, name) == 0)
            return f;
    return NULL;
}

static func *parse_def(parser *ps)
{
    token *id = expect(ps, T_IDENT, "function name");
    func *f = calloc(1, sizeof(func));
    f->name = strndup(id->text, (size_t)id->len);
    scope_clear(ps);
    expect(ps, T_LPAREN, "'('");
    if (!accept(ps, T_RPAREN)) {
        do {
            token *pn = expect(ps, T_IDENT, "parameter");
            scope_slot(ps, pn->text, pn->len);
            f->nparams++;
        } while (accept(ps, T_COMMA));
        expect(ps, T_RPAREN, "')'");
    }
    f->body = parse_block(ps);
    f->nslots = ps->nslots;
    scope_clear(ps);
    return f;
}

program *parse_program(const char *src)
{
    parser ps;
    memset(&ps, 0, sizeof(ps));
    ps.toks = lex_source(src, &ps.ntok);
    program *p = calloc(1, sizeof(program));
    p->fcap = 61;
    p->ftab = calloc((size_t)p->fcap, sizeof(func *));
    ps.prog = p;

    /* Top-level statements form the body of an implicit main function.
     * Function definitions are parsed with their own scope, so main's
     * symbols are saved around them. */
    func *mainf = calloc(1, sizeof(func));
    mainf->name = strdup("__main__");
    node *body = new_node(&ps, N_BLOCK, 0);
    sym *saved[SCOPE_BUCKETS];
    int saved_slots = 0;
    while (peek(&ps)->kind != T_EOF) {
        if (accept(&ps, T_DEF)) {
            memcpy(saved, ps.scope, sizeof(saved));
            saved_slots = ps.nslots;
            memset(ps.scope, 0, sizeof(ps.scope));
            ps.nslots = 0;
            func *f = parse_def(&ps);
            if (program_lookup(p, f->name))
                parse_error(&ps, "duplicate function");
            program_add(p, f);
            memcpy(ps.scope, saved, sizeof(saved));
            ps.nslots = saved_slots;
        } else {
            add_kid(body, parse_stmt(&ps));
        }
    }
    mainf->body = body;
    mainf->nslots = ps.nslots;
    scope_clear(&ps);
    p->main = mainf;
    free(ps.toks);
    return p;
}

static void free_node(node *n)
{
    if (!n)
        return;
    for (int i = 0; i < n->nkids; i++)
        free_node(n->kids[i]);
    free(n->kids);
    bn_free(n->num);
    free(n->name);
    free(n);
}

static void free_func(func *f)
{
    free_node(f->body);
    free(f->name);
    free(f);
}

void free_program(program *p)
{
    for (int i = 0; i < p->fcap; i++) {
        func *f = p->ftab[i];
        while (f) {
            func *nx = f->next;
            free_func(f);
            f = nx;
        }
    }
    free_func(p->main);
    free(p->ftab);
    free(p);
}
