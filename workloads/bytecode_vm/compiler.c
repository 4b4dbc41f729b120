/* compiler.c - single-pass Pratt-parser compiler from the bytecode_vm
 * scripting language to stack-VM bytecode.  Resolves names to locals,
 * by-value captured upvalues or globals; emits jumps for control flow and
 * CLOSURE instructions with capture descriptors for nested functions. */
#include "lexer.h"
#include "vm.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LOCALS 256
#define MAX_UPV 256

typedef struct {
    Token name;
    int depth; /* -1 while the initialiser is compiled */
} Local;

typedef struct {
    uint8_t index;
    bool is_local;
} UpvDesc;

typedef struct FnState {
    struct FnState *enclosing;
    ObjFunc *fn;
    Local locals[MAX_LOCALS];
    int nlocals;
    int depth;
    UpvDesc upv[MAX_UPV];
} FnState;

typedef struct {
    VM *vm;
    Lexer lx;
    Token cur, prev;
    bool had_error, panic;
    FnState *fs;
    const char *name;
} Parser;

typedef enum {
    P_NONE, P_ASSIGN, P_OR, P_AND, P_EQUALITY, P_COMPARE, P_CONCAT,
    P_TERM, P_FACTOR, P_UNARY, P_CALL, P_PRIMARY
} Prec;

typedef void (*ParseFn)(Parser *p, bool can_assign);
typedef struct {
    ParseFn prefix, infix;
    Prec prec;
} Rule;

static const Rule *get_rule(TokType t);
static void expression(Parser *p);
static void statement(Parser *p);
static void declaration(Parser *p);
static void parse_precedence(Parser *p, Prec prec);
static void function_body(Parser *p, ObjString *name);

/* ---- token handling ---------------------------------------------------- */

static void error_at(Parser *p, const Token *t, const char *msg)
{
    if (p->panic)
        return;
    p->panic = true;
    p->had_error = true;
    fprintf(stderr, "%s:%d: error", p->name, t->line);
    if (t->type == T_EOF)
        fprintf(stderr, " at end");
    else if (t->type != T_ERROR)
        fprintf(stderr, " at '%.*s'", t->len, t->start);
    fprintf(stderr, ": %s\n", msg);
}

static void advance(Parser *p)
{
    p->prev = p->cur;
    for (;;) {
        p->cur = lexer_next(&p->lx);
        if (p->cur.type != T_ERROR)
            break;
        error_at(p, &p->cur, p->cur.start);
    }
}

static bool check(Parser *p, TokType t) { return p->cur.type == t; }

static bool match(Parser *p, TokType t)
{
    if (!check(p, t))
        return false;
    advance(p);
    return true;
}

static void consume(Parser *p, TokType t, const char *msg)
{
    if (p->cur.type == t)
        advance(p);
    else
        error_at(p, &p->cur, msg);
}

static void synchronize(Parser *p)
{
    p->panic = false;
    while (p->cur.type != T_EOF) {
        if (p->prev.type == T_SEMI)
            return;
        switch (p->cur.type) {
        case T_FN: case T_VAR: case T_IF: case T_WHILE: case T_FOR: case T_RETURN:
            return;
        default:
            advance(p);
        }
    }
}

/* ---- code emission ----------------------------------------------------- */

static ObjFunc *cur_fn(Parser *p) { return p->fs->fn; }

static void emit_byte(Parser *p, uint8_t b)
{
    ObjFunc *f = cur_fn(p);
    if (f->len == f->cap) {
        int ncap = f->cap ? f->cap * 2 : 64;
        f->code = vm_realloc(p->vm, f->code, (size_t)f->cap, (size_t)ncap);
        f->cap = ncap;
    }
    f->code[f->len++] = b;
}

static void emit_op_arg(Parser *p, OpCode op, uint8_t arg)
{
    emit_byte(p, (uint8_t)op);
    emit_byte(p, arg);
}

static void emit_u16(Parser *p, unsigned v)
{
    emit_byte(p, (uint8_t)(v & 0xff));
    emit_byte(p, (uint8_t)(v >> 8));
}

static int emit_jump(Parser *p, OpCode op)
{
    emit_byte(p, (uint8_t)op);
    emit_u16(p, 0xffff);
    return cur_fn(p)->len - 2;
}

static void patch_jump(Parser *p, int at)
{
    int dist = cur_fn(p)->len - at - 2;
    if (dist > 0xffff)
        error_at(p, &p->prev, "jump too long");
    cur_fn(p)->code[at] = (uint8_t)(dist & 0xff);
    cur_fn(p)->code[at + 1] = (uint8_t)(dist >> 8);
}

static void emit_loop(Parser *p, int start)
{
    emit_byte(p, OP_LOOP);
    int dist = cur_fn(p)->len - start + 2;
    if (dist > 0xffff)
        error_at(p, &p->prev, "loop body too long");
    emit_u16(p, (unsigned)dist);
}

static unsigned make_const(Parser *p, Value v)
{
    ObjFunc *f = cur_fn(p);
    /* strings are interned, so pointer equality finds duplicates too */
    for (int i = 0; i < f->nk; i++)
        if (values_equal(f->k[i], v))
            return (unsigned)i;
    if (f->nk == 0xffff) {
        error_at(p, &p->prev, "too many constants");
        return 0;
    }
    if (f->nk == f->kcap) {
        int ncap = f->kcap ? f->kcap * 2 : 16;
        f->k = vm_realloc(p->vm, f->k, (size_t)f->kcap * sizeof(Value),
                          (size_t)ncap * sizeof(Value));
        f->kcap = ncap;
    }
    f->k[f->nk] = v;
    return (unsigned)f->nk++;
}

static void emit_const(Parser *p, Value v)
{
    emit_byte(p, OP_CONST);
    emit_u16(p, make_const(p, v));
}

/* ---- function states and scopes ---------------------------------------- */

static void fnstate_begin(Parser *p, FnState *fs, ObjString *name)
{
    fs->enclosing = p->fs;
    fs->fn = func_new(p->vm);
    fs->fn->name = name;
    fs->nlocals = 1; /* slot 0 holds the callee */
    fs->depth = 0;
    fs->locals[0].name.start = "";
    fs->locals[0].name.len = 0;
    fs->locals[0].depth = 0;
    p->fs = fs;
}

static ObjFunc *fnstate_end(Parser *p)
{
    emit_byte(p, OP_NIL);
    emit_byte(p, OP_RETURN);
    ObjFunc *f = p->fs->fn;
    p->fs = p->fs->enclosing;
    return f;
}

static void begin_scope(Parser *p) { p->fs->depth++; }

static void end_scope(Parser *p)
{
    FnState *fs = p->fs;
    fs->depth--;
    while (fs->nlocals > 0 && fs->locals[fs->nlocals - 1].depth > fs->depth) {
        emit_byte(p, OP_POP);
        fs->nlocals--;
    }
}

static bool same_name(const Token *a, const Token *b)
{
    return a->len == b->len && memcmp(a->start, b->start, (size_t)a->len) == 0;
}

static unsigned ident_const(Parser *p, const Token *name)
{
    return make_const(p, v_obj(str_new(p->vm, name->start, (size_t)name->len)));
}

static void add_local(Parser *p, Token name)
{
    FnState *fs = p->fs;
    if (fs->nlocals == MAX_LOCALS) {
        error_at(p, &name, "too many locals");
        return;
    }
    fs->locals[fs->nlocals].name = name;
    fs->locals[fs->nlocals].depth = -1;
    fs->nlocals++;
}

static void declare_var(Parser *p)
{
    FnState *fs = p->fs;
    if (fs->depth == 0 && fs->enclosing == NULL)
        return; /* global */
    for (int i = fs->nlocals - 1; i >= 0; i--) {
        if (fs->locals[i].depth != -1 && fs->locals[i].depth < fs->depth)
            break;
        if (same_name(&fs->locals[i].name, &p->prev))
            error_at(p, &p->prev, "redeclared variable");
    }
    add_local(p, p->prev);
}

static void mark_initialized(Parser *p)
{
    FnState *fs = p->fs;
    if (fs->depth == 0 && fs->enclosing == NULL)
        return;
    fs->locals[fs->nlocals - 1].depth = fs->depth;
}

static unsigned parse_var_name(Parser *p, const char *msg)
{
    consume(p, T_IDENT, msg);
    declare_var(p);
    if (p->fs->depth == 0 && p->fs->enclosing == NULL)
        return ident_const(p, &p->prev);
    return 0;
}

static void define_var(Parser *p, unsigned global)
{
    if (p->fs->depth == 0 && p->fs->enclosing == NULL) {
        emit_byte(p, OP_DEF_GLOBAL);
        emit_u16(p, global);
    } else {
        mark_initialized(p);
    }
}

static int resolve_local(Parser *p, FnState *fs, const Token *name)
{
    for (int i = fs->nlocals - 1; i >= 1; i--) {
        if (same_name(&fs->locals[i].name, name)) {
            if (fs->locals[i].depth == -1)
                error_at(p, name, "variable used in its own initialiser");
            return i;
        }
    }
    return -1;
}

static int add_upv(Parser *p, FnState *fs, uint8_t index, bool is_local)
{
    int n = fs->fn->nupv;
    for (int i = 0; i < n; i++)
        if (fs->upv[i].index == index && fs->upv[i].is_local == is_local)
            return i;
    if (n == MAX_UPV) {
        error_at(p, &p->prev, "too many captured variables");
        return 0;
    }
    fs->upv[n].index = index;
    fs->upv[n].is_local = is_local;
    return fs->fn->nupv++;
}

static int resolve_upv(Parser *p, FnState *fs, const Token *name)
{
    if (fs->enclosing == NULL)
        return -1;
    int local = resolve_local(p, fs->enclosing, name);
    if (local >= 0)
        return add_upv(p, fs, (uint8_t)local, true);
    int up = resolve_upv(p, fs->enclosing, name);
    if (up >= 0)
        return add_upv(p, fs, (uint8_t)up, false);
    return -1;
}

/* ---- expressions ------------------------------------------------------- */

static void parse_int(Parser *p, bool can_assign)
{
    int64_t v = 0;
    for (int i = 0; i < p->prev.len; i++)
        v = v * 10 + (p->prev.start[i] - '0');
    emit_const(p, v_int(v));
}

static void parse_string(Parser *p, bool can_assign)
{
    char buf[1024];
    int n = 0;
    for (int i = 1; i < p->prev.len - 1 && n < (int)sizeof buf; i++) {
        char c = p->prev.start[i];
        if (c == '\\') {
            c = p->prev.start[++i];
            c = c == 'n' ? '\n' : c == 't' ? '\t' : c;
        }
        buf[n++] = c;
    }
    emit_const(p, v_obj(str_new(p->vm, buf, (size_t)n)));
}

static void parse_literal(Parser *p, bool can_assign)
{
    switch (p->prev.type) {
    case T_TRUE: emit_byte(p, OP_TRUE); break;
    case T_FALSE: emit_byte(p, OP_FALSE); break;
    default: emit_byte(p, OP_NIL); break;
    }
}

static void parse_grouping(Parser *p, bool can_assign)
{
    expression(p);
    consume(p, T_RPAREN, "expected ')'");
}

static void parse_unary(Parser *p, bool can_assign)
{
    TokType op = p->prev.type;
    parse_precedence(p, P_UNARY);
    emit_byte(p, op == T_MINUS ? OP_NEG : OP_NOT);
}

static void parse_binary(Parser *p, bool can_assign)
{
    TokType op = p->prev.type;
    parse_precedence(p, (Prec)(get_rule(op)->prec + 1));
    switch (op) {
    case T_PLUS: emit_byte(p, OP_ADD); break;
    case T_MINUS: emit_byte(p, OP_SUB); break;
    case T_STAR: emit_byte(p, OP_MUL); break;
    case T_SLASH: emit_byte(p, OP_DIV); break;
    case T_PERCENT: emit_byte(p, OP_MOD); break;
    case T_DOTDOT: emit_byte(p, OP_CONCAT); break;
    case T_EQ_EQ: emit_byte(p, OP_EQ); break;
    case T_BANG_EQ: emit_byte(p, OP_NE); break;
    case T_LT: emit_byte(p, OP_LT); break;
    case T_LE: emit_byte(p, OP_LE); break;
    case T_GT: emit_byte(p, OP_GT); break;
    case T_GE: emit_byte(p, OP_GE); break;
    default: break;
    }
}

static void parse_and(Parser *p, bool can_assign)
{
    int j = emit_jump(p, OP_AND_JUMP);
    parse_precedence(p, P_AND);
    patch_jump(p, j);
}

static void parse_or(Parser *p, bool can_assign)
{
    int j = emit_jump(p, OP_OR_JUMP);
    parse_precedence(p, P_OR);
    patch_jump(p, j);
}

static uint8_t argument_list(Parser *p)
{
    int n = 0;
    if (!check(p, T_RPAREN)) {
        do {
            expression(p);
            if (++n > 255)
                error_at(p, &p->prev, "too many arguments");
        } while (match(p, T_COMMA));
    }
    consume(p, T_RPAREN, "expected ')' after arguments");
    return (uint8_t)n;
}

static void parse_call(Parser *p, bool can_assign)
{
    uint8_t argc = argument_list(p);
    emit_op_arg(p, OP_CALL, argc);
}

/* After the table and key are on the stack: load or store. */
static void finish_index(Parser *p, bool can_assign)
{
    if (can_assign && match(p, T_EQ)) {
        expression(p);
        emit_byte(p, OP_SET_INDEX);
    } else {
        emit_byte(p, OP_GET_INDEX);
    }
}

static void parse_index(Parser *p, bool can_assign)
{
    expression(p);
    consume(p, T_RBRACKET, "expected ']'");
    finish_index(p, can_assign);
}

static void parse_dot(Parser *p, bool can_assign)
{
    consume(p, T_IDENT, "expected field name after '.'");
    emit_byte(p, OP_CONST);
    emit_u16(p, ident_const(p, &p->prev));
    finish_index(p, can_assign);
}

static void emit_increment(Parser *p, OpCode get, OpCode set, unsigned arg)
{
    if (get == OP_GET_LOCAL) {
        emit_op_arg(p, OP_INC_LOCAL, (uint8_t)arg);
        return;
    }
    emit_byte(p, (uint8_t)get);
    emit_u16(p, arg);
    emit_const(p, v_int(1));
    emit_byte(p, OP_ADD);
    emit_byte(p, (uint8_t)set);
    emit_u16(p, arg);
}

static void named_variable(Parser *p, Token name, bool can_assign)
{
    int arg = resolve_local(p, p->fs, &name);
    if (arg >= 0) {
        if (can_assign && match(p, T_EQ)) {
            expression(p);
            emit_op_arg(p, OP_SET_LOCAL, (uint8_t)arg);
        } else if (can_assign && match(p, T_PLUS_PLUS)) {
            emit_increment(p, OP_GET_LOCAL, OP_SET_LOCAL, (unsigned)arg);
        } else {
            emit_op_arg(p, OP_GET_LOCAL, (uint8_t)arg);
        }
        return;
    }
    arg = resolve_upv(p, p->fs, &name);
    if (arg >= 0) {
        if (can_assign && (check(p, T_EQ) || check(p, T_PLUS_PLUS)))
            error_at(p, &name, "captured variables are read-only");
        emit_op_arg(p, OP_GET_UPV, (uint8_t)arg);
        return;
    }
    unsigned g = ident_const(p, &name);
    if (can_assign && match(p, T_EQ)) {
        expression(p);
        emit_byte(p, OP_SET_GLOBAL);
        emit_u16(p, g);
    } else if (can_assign && match(p, T_PLUS_PLUS)) {
        emit_increment(p, OP_GET_GLOBAL, OP_SET_GLOBAL, g);
    } else {
        emit_byte(p, OP_GET_GLOBAL);
        emit_u16(p, g);
    }
}

static void parse_variable(Parser *p, bool can_assign)
{
    named_variable(p, p->prev, can_assign);
}

static void parse_table(Parser *p, bool can_assign)
{
    emit_byte(p, OP_NEW_TABLE);
    if (!check(p, T_RBRACE)) {
        do {
            if (check(p, T_RBRACE))
                break;
            if (check(p, T_IDENT)) {
                Lexer save = p->lx;
                Token save_cur = p->cur, save_prev = p->prev;
                advance(p);
                if (match(p, T_COLON)) {
                    emit_byte(p, OP_CONST);
                    emit_u16(p, ident_const(p, &save_cur));
                    expression(p);
                    emit_byte(p, OP_INIT_FIELD);
                    continue;
                }
                p->lx = save;
                p->cur = save_cur;
                p->prev = save_prev;
            }
            expression(p);
            emit_byte(p, OP_APPEND);
        } while (match(p, T_COMMA));
    }
    consume(p, T_RBRACE, "expected '}' after table literal");
}

static void parse_fn_literal(Parser *p, bool can_assign)
{
    function_body(p, str_new(p->vm, "<lambda>", 8));
}

static const Rule rules[] = {
    [T_LPAREN] = {parse_grouping, parse_call, P_CALL},
    [T_LBRACKET] = {NULL, parse_index, P_CALL},
    [T_DOT] = {NULL, parse_dot, P_CALL},
    [T_LBRACE] = {parse_table, NULL, P_NONE},
    [T_MINUS] = {parse_unary, parse_binary, P_TERM},
    [T_PLUS] = {NULL, parse_binary, P_TERM},
    [T_STAR] = {NULL, parse_binary, P_FACTOR},
    [T_SLASH] = {NULL, parse_binary, P_FACTOR},
    [T_PERCENT] = {NULL, parse_binary, P_FACTOR},
    [T_DOTDOT] = {NULL, parse_binary, P_CONCAT},
    [T_BANG] = {parse_unary, NULL, P_NONE},
    [T_BANG_EQ] = {NULL, parse_binary, P_EQUALITY},
    [T_EQ_EQ] = {NULL, parse_binary, P_EQUALITY},
    [T_LT] = {NULL, parse_binary, P_COMPARE},
    [T_LE] = {NULL, parse_binary, P_COMPARE},
    [T_GT] = {NULL, parse_binary, P_COMPARE},
    [T_GE] = {NULL, parse_binary, P_COMPARE},
    [T_AND] = {NULL, parse_and, P_AND},
    [T_OR] = {NULL, parse_or, P_OR},
    [T_IDENT] = {parse_variable, NULL, P_NONE},
    [T_STRING] = {parse_string, NULL, P_NONE},
    [T_INT] = {parse_int, NULL, P_NONE},
    [T_TRUE] = {parse_literal, NULL, P_NONE},
    [T_FALSE] = {parse_literal, NULL, P_NONE},
    [T_NIL] = {parse_literal, NULL, P_NONE},
    [T_FN] = {parse_fn_literal, NULL, P_NONE},
    [T_EOF] = {NULL, NULL, P_NONE},
};

static const Rule *get_rule(TokType t) { return &rules[t]; }

static void parse_precedence(Parser *p, Prec prec)
{
    advance(p);
    ParseFn prefix = get_rule(p->prev.type)->prefix;
    if (!prefix) {
        error_at(p, &p->prev, "expected expression");
        return;
    }
    bool can_assign = prec <= P_ASSIGN;
    prefix(p, can_assign);
    while (prec <= get_rule(p->cur.type)->prec) {
        advance(p);
        get_rule(p->prev.type)->infix(p, can_assign);
    }
    if (can_assign && match(p, T_EQ))
        error_at(p, &p->prev, "invalid assignment target");
}

static void expression(Parser *p) { parse_precedence(p, P_ASSIGN); }

/* ---- statements -------------------------------------------------------- */

static void block(Parser *p)
{
    while (!check(p, T_RBRACE) && !check(p, T_EOF))
        declaration(p);
    consume(p, T_RBRACE, "expected '}' after block");
}

static void function_body(Parser *p, ObjString *name)
{
    FnState *fs = malloc(sizeof *fs);
    if (!fs)
        abort();
    fnstate_begin(p, fs, name);
    begin_scope(p);
    consume(p, T_LPAREN, "expected '(' after function name");
    if (!check(p, T_RPAREN)) {
        do {
            fs->fn->arity++;
            consume(p, T_IDENT, "expected parameter name");
            declare_var(p);
            mark_initialized(p);
        } while (match(p, T_COMMA));
    }
    consume(p, T_RPAREN, "expected ')' after parameters");
    consume(p, T_LBRACE, "expected '{' before function body");
    block(p);
    ObjFunc *f = fnstate_end(p);
    emit_byte(p, OP_CLOSURE);
    emit_u16(p, make_const(p, v_obj(f)));
    for (int i = 0; i < f->nupv; i++) {
        emit_byte(p, fs->upv[i].is_local ? 1 : 0);
        emit_byte(p, fs->upv[i].index);
    }
    free(fs);
}

static void fn_decl(Parser *p)
{
    unsigned g = parse_var_name(p, "expected function name");
    Token name = p->prev;
    mark_initialized(p);
    function_body(p, str_new(p->vm, name.start, (size_t)name.len));
    define_var(p, g);
}

static void var_decl(Parser *p)
{
    unsigned g = parse_var_name(p, "expected variable name");
    if (match(p, T_EQ))
        expression(p);
    else
        emit_byte(p, OP_NIL);
    consume(p, T_SEMI, "expected ';' after variable declaration");
    define_var(p, g);
}

static void expr_stmt(Parser *p)
{
    expression(p);
    consume(p, T_SEMI, "expected ';' after expression");
    emit_byte(p, OP_POP);
}

static void if_stmt(Parser *p)
{
    consume(p, T_LPAREN, "expected '(' after 'if'");
    expression(p);
    consume(p, T_RPAREN, "expected ')' after condition");
    int then_j = emit_jump(p, OP_JUMP_FALSE);
    statement(p);
    if (match(p, T_ELSE)) {
        int else_j = emit_jump(p, OP_JUMP);
        patch_jump(p, then_j);
        statement(p);
        patch_jump(p, else_j);
    } else {
        patch_jump(p, then_j);
    }
}

static void while_stmt(Parser *p)
{
    int start = cur_fn(p)->len;
    consume(p, T_LPAREN, "expected '(' after 'while'");
    expression(p);
    consume(p, T_RPAREN, "expected ')' after condition");
    int exit_j = emit_jump(p, OP_JUMP_FALSE);
    statement(p);
    emit_loop(p, start);
    patch_jump(p, exit_j);
}

static void for_stmt(Parser *p)
{
    begin_scope(p);
    consume(p, T_LPAREN, "expected '(' after 'for'");
    if (match(p, T_VAR))
        var_decl(p);
    else if (!match(p, T_SEMI))
        expr_stmt(p);
    int start = cur_fn(p)->len;
    int exit_j = -1;
    if (!match(p, T_SEMI)) {
        expression(p);
        consume(p, T_SEMI, "expected ';' after loop condition");
        exit_j = emit_jump(p, OP_JUMP_FALSE);
    }
    if (!match(p, T_RPAREN)) {
        int body_j = emit_jump(p, OP_JUMP);
        int incr = cur_fn(p)->len;
        expression(p);
        emit_byte(p, OP_POP);
        consume(p, T_RPAREN, "expected ')' after for clauses");
        emit_loop(p, start);
        start = incr;
        patch_jump(p, body_j);
    }
    statement(p);
    emit_loop(p, start);
    if (exit_j >= 0)
        patch_jump(p, exit_j);
    end_scope(p);
}

static void return_stmt(Parser *p)
{
    if (match(p, T_SEMI)) {
        emit_byte(p, OP_NIL);
    } else {
        expression(p);
        consume(p, T_SEMI, "expected ';' after return value");
    }
    emit_byte(p, OP_RETURN);
}

static void statement(Parser *p)
{
    if (match(p, T_IF)) {
        if_stmt(p);
    } else if (match(p, T_WHILE)) {
        while_stmt(p);
    } else if (match(p, T_FOR)) {
        for_stmt(p);
    } else if (match(p, T_RETURN)) {
        return_stmt(p);
    } else if (match(p, T_LBRACE)) {
        begin_scope(p);
        block(p);
        end_scope(p);
    } else {
        expr_stmt(p);
    }
}

static void declaration(Parser *p)
{
    if (match(p, T_FN))
        fn_decl(p);
    else if (match(p, T_VAR))
        var_decl(p);
    else
        statement(p);
    if (p->panic)
        synchronize(p);
}

ObjFunc *compile_source(VM *vm, const char *src, const char *name)
{
    Parser p;
    memset(&p, 0, sizeof p);
    p.vm = vm;
    p.name = name;
    lexer_init(&p.lx, src);
    FnState *top = malloc(sizeof *top);
    if (!top)
        abort();
    bool saved_gc = vm->gc_enabled;
    vm->gc_enabled = false;
    fnstate_begin(&p, top, str_new(vm, name, strlen(name)));
    advance(&p);
    while (!match(&p, T_EOF))
        declaration(&p);
    ObjFunc *f = fnstate_end(&p);
    free(top);
    vm->gc_enabled = saved_gc;
    return p.had_error ? NULL : f;
}
