/* frontend.c - lexer and recursive-descent parser of minicc: turns program
 * text into an AST of functions, statements and expressions. */
#include "minicc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct lexer {
    token *t;
    int n, cap, pos;
} lexer;

static int is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static int is_num(char c) { return c >= '0' && c <= '9'; }

static void push_tok(lexer *lx, int kind, int line, const char *s, int len, int32_t val)
{
    if (lx->n >= lx->cap) {
        lx->cap = lx->cap ? lx->cap * 2 : 1024;
        lx->t = realloc(lx->t, (size_t)lx->cap * sizeof(token));
    }
    token *t = &lx->t[lx->n++];
    t->kind = kind;
    t->line = line;
    t->s = s;
    t->len = len;
    t->val = val;
}

static int keyword(const char *s, int len)
{
    static const struct { const char *w; int k; } kw[] = {
        {"int", TK_INT}, {"if", TK_IF}, {"else", TK_ELSE}, {"while", TK_WHILE}, {"return", TK_RETURN},
    };
    for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++)
        if ((int)strlen(kw[i].w) == len && memcmp(kw[i].w, s, (size_t)len) == 0)
            return kw[i].k;
    return TK_ID;
}

static int punct(const char *p, int *len)
{
    static const struct { const char *s; int k; } ops[] = {
        {"<<", TK_SHL}, {">>", TK_SHR}, {"<=", TK_LE}, {">=", TK_GE}, {"==", TK_EQ}, {"!=", TK_NE},
        {"&&", TK_LAND}, {"||", TK_LOR}, {"(", TK_LP}, {")", TK_RP}, {"{", TK_LB}, {"}", TK_RB},
        {",", TK_COMMA}, {";", TK_SEMI}, {"=", TK_ASSIGN}, {"+", TK_ADD}, {"-", TK_SUB},
        {"*", TK_MUL}, {"/", TK_DIV}, {"%", TK_MOD}, {"&", TK_AND}, {"|", TK_OR}, {"^", TK_XOR},
        {"<", TK_LT}, {">", TK_GT}, {"!", TK_NOT}, {"~", TK_TILDE},
    };
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
        if (ops[i].s[0] != p[0])
            continue;
        int l = ops[i].s[1] ? 2 : 1;
        if (l == 1 || ops[i].s[1] == p[1]) {
            *len = l;
            return ops[i].k;
        }
    }
    return -1;
}

static void lex(lexer *lx, const char *src)
{
    int line = 1;
    const char *p = src;
    while (*p) {
        if (*p == '\n') {
            line++;
            p++;
        } else if (*p == ' ' || *p == '\t') {
            p++;
        } else if (is_num(*p)) {
            uint32_t v = 0;
            const char *s = p;
            while (is_num(*p))
                v = v * 10u + (uint32_t)(*p++ - '0');
            push_tok(lx, TK_NUM, line, s, (int)(p - s), (int32_t)v);
        } else if (is_alpha(*p)) {
            const char *s = p;
            while (is_alpha(*p) || is_num(*p))
                p++;
            push_tok(lx, keyword(s, (int)(p - s)), line, s, (int)(p - s), 0);
        } else {
            int len, k = punct(p, &len);
            if (k < 0) {
                fprintf(stderr, "minicc: bad character '%c' at line %d\n", *p, line);
                exit(3);
            }
            push_tok(lx, k, line, p, len, 0);
            p += len;
        }
    }
    push_tok(lx, TK_EOF, line, p, 0, 0);
}

/* ---- parser ----------------------------------------------------------- */

static token *cur(lexer *lx) { return &lx->t[lx->pos]; }

static int accept(lexer *lx, int k)
{
    if (lx->t[lx->pos].kind == k) {
        lx->pos++;
        return 1;
    }
    return 0;
}

static token *expect(lexer *lx, int k, const char *what)
{
    if (lx->t[lx->pos].kind != k) {
        fprintf(stderr, "minicc: line %d: expected %s\n", cur(lx)->line, what);
        exit(3);
    }
    return &lx->t[lx->pos++];
}

static ast *mk(int kind, int line, int nk)
{
    ast *a = calloc(1, sizeof(ast));
    a->kind = kind;
    a->line = line;
    a->nk = nk;
    a->var = a->callee = -1;
    if (nk)
        a->k = calloc((size_t)nk, sizeof(ast *));
    return a;
}

static void push_kid(ast *a, ast *k)
{
    a->k = realloc(a->k, (size_t)(a->nk + 1) * sizeof(ast *));
    a->k[a->nk++] = k;
}

static ast *expr(lexer *lx);
static ast *block(lexer *lx);

static ast *primary(lexer *lx)
{
    token *t = cur(lx);
    if (accept(lx, TK_NUM)) {
        ast *a = mk(A_NUM, t->line, 0);
        a->val = t->val;
        return a;
    }
    if (accept(lx, TK_ID)) {
        if (accept(lx, TK_LP)) {
            ast *c = mk(A_CALL, t->line, 0);
            c->name = strndup(t->s, (size_t)t->len);
            if (!accept(lx, TK_RP)) {
                do
                    push_kid(c, expr(lx));
                while (accept(lx, TK_COMMA));
                expect(lx, TK_RP, "')'");
            }
            return c;
        }
        ast *v = mk(A_VAR, t->line, 0);
        v->name = strndup(t->s, (size_t)t->len);
        return v;
    }
    if (accept(lx, TK_LP)) {
        ast *e = expr(lx);
        expect(lx, TK_RP, "')'");
        return e;
    }
    fprintf(stderr, "minicc: line %d: expression expected\n", t->line);
    exit(3);
}

static ast *unary(lexer *lx)
{
    int line = cur(lx)->line;
    if (accept(lx, TK_SUB)) {
        ast *a = mk(A_NEG, line, 1);
        a->k[0] = unary(lx);
        return a;
    }
    if (accept(lx, TK_NOT)) {
        ast *a = mk(A_NOT, line, 1);
        a->k[0] = unary(lx);
        return a;
    }
    if (accept(lx, TK_TILDE)) {
        /* ~x is lowered to x ^ -1 */
        ast *a = mk(A_BIN, line, 2);
        a->op = TK_XOR;
        a->k[0] = unary(lx);
        a->k[1] = mk(A_NUM, line, 0);
        a->k[1]->val = -1;
        return a;
    }
    return primary(lx);
}

static int prec(int k)
{
    switch (k) {
    case TK_LOR: return 1;
    case TK_LAND: return 2;
    case TK_OR: return 3;
    case TK_XOR: return 4;
    case TK_AND: return 5;
    case TK_EQ: case TK_NE: return 6;
    case TK_LT: case TK_LE: case TK_GT: case TK_GE: return 7;
    case TK_SHL: case TK_SHR: return 8;
    case TK_ADD: case TK_SUB: return 9;
    case TK_MUL: case TK_DIV: case TK_MOD: return 10;
    default: return 0;
    }
}

static ast *binary(lexer *lx, int minp)
{
    ast *l = unary(lx);
    for (;;) {
        int k = cur(lx)->kind, p = prec(k), line = cur(lx)->line;
        if (!p || p < minp)
            return l;
        lx->pos++;
        ast *r = binary(lx, p + 1);
        ast *b = mk(k == TK_LAND ? A_LAND : k == TK_LOR ? A_LOR : A_BIN, line, 2);
        b->op = k;
        b->k[0] = l;
        b->k[1] = r;
        l = b;
    }
}

static ast *expr(lexer *lx) { return binary(lx, 1); }

static ast *statement(lexer *lx)
{
    token *t = cur(lx);
    if (accept(lx, TK_INT)) {
        token *id = expect(lx, TK_ID, "variable name");
        ast *d = mk(A_DECL, t->line, 1);
        d->name = strndup(id->s, (size_t)id->len);
        expect(lx, TK_ASSIGN, "'='");
        d->k[0] = expr(lx);
        expect(lx, TK_SEMI, "';'");
        return d;
    }
    if (accept(lx, TK_IF)) {
        ast *s = mk(A_IF, t->line, 3);
        expect(lx, TK_LP, "'('");
        s->k[0] = expr(lx);
        expect(lx, TK_RP, "')'");
        s->k[1] = block(lx);
        if (accept(lx, TK_ELSE))
            s->k[2] = cur(lx)->kind == TK_IF ? statement(lx) : block(lx);
        return s;
    }
    if (accept(lx, TK_WHILE)) {
        ast *s = mk(A_WHILE, t->line, 2);
        expect(lx, TK_LP, "'('");
        s->k[0] = expr(lx);
        expect(lx, TK_RP, "')'");
        s->k[1] = block(lx);
        return s;
    }
    if (accept(lx, TK_RETURN)) {
        ast *s = mk(A_RETURN, t->line, 1);
        s->k[0] = expr(lx);
        expect(lx, TK_SEMI, "';'");
        return s;
    }
    if (cur(lx)->kind == TK_LB)
        return block(lx);
    if (t->kind == TK_ID && lx->t[lx->pos + 1].kind == TK_ASSIGN) {
        lx->pos += 2;
        ast *s = mk(A_ASSIGN, t->line, 1);
        s->name = strndup(t->s, (size_t)t->len);
        s->k[0] = expr(lx);
        expect(lx, TK_SEMI, "';'");
        return s;
    }
    ast *s = mk(A_EXPR, t->line, 1);
    s->k[0] = expr(lx);
    expect(lx, TK_SEMI, "';'");
    return s;
}

static ast *block(lexer *lx)
{
    ast *b = mk(A_BLOCK, cur(lx)->line, 0);
    expect(lx, TK_LB, "'{'");
    while (!accept(lx, TK_RB))
        push_kid(b, statement(lx));
    return b;
}

static void function(lexer *lx, fn_ast *f)
{
    expect(lx, TK_INT, "'int'");
    token *id = expect(lx, TK_ID, "function name");
    f->name = strndup(id->s, (size_t)id->len);
    expect(lx, TK_LP, "'('");
    if (!accept(lx, TK_RP)) {
        do {
            expect(lx, TK_INT, "'int'");
            token *p = expect(lx, TK_ID, "parameter");
            f->params = realloc(f->params, (size_t)(f->nparams + 1) * sizeof(char *));
            f->params[f->nparams++] = strndup(p->s, (size_t)p->len);
        } while (accept(lx, TK_COMMA));
        expect(lx, TK_RP, "')'");
    }
    f->body = block(lx);
}

unit *parse_unit(const char *src)
{
    lexer lx = {0};
    lex(&lx, src);
    unit *u = calloc(1, sizeof(unit));
    int cap = 0;
    while (cur(&lx)->kind != TK_EOF) {
        if (u->nfns >= cap) {
            cap = cap ? cap * 2 : 64;
            u->fns = realloc(u->fns, (size_t)cap * sizeof(fn_ast));
        }
        fn_ast *f = &u->fns[u->nfns++];
        memset(f, 0, sizeof(*f));
        function(&lx, f);
    }
    free(lx.t);
    return u;
}
