/* lexer.c - hand-written scanner for the bytecode_vm scripting language:
 * identifiers/keywords, decimal integers, double-quoted strings with a few
 * escapes, operators and // comments. */
#include "lexer.h"

#include <string.h>

void lexer_init(Lexer *lx, const char *src)
{
    lx->start = lx->cur = src;
    lx->line = 1;
}

static int is_alpha(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static Token make_tok(Lexer *lx, TokType t)
{
    Token k;
    k.type = t;
    k.start = lx->start;
    k.len = (int)(lx->cur - lx->start);
    k.line = lx->line;
    return k;
}

static Token error_tok(Lexer *lx, const char *msg)
{
    Token k;
    k.type = T_ERROR;
    k.start = msg;
    k.len = (int)strlen(msg);
    k.line = lx->line;
    return k;
}

static void skip_space(Lexer *lx)
{
    for (;;) {
        char c = *lx->cur;
        if (c == ' ' || c == '\t' || c == '\r') {
            lx->cur++;
        } else if (c == '\n') {
            lx->line++;
            lx->cur++;
        } else if (c == '/' && lx->cur[1] == '/') {
            while (*lx->cur && *lx->cur != '\n')
                lx->cur++;
        } else {
            return;
        }
    }
}

static TokType keyword(const char *s, int len)
{
    static const struct { const char *w; TokType t; } kw[] = {
        {"and", T_AND},       {"or", T_OR},       {"if", T_IF},
        {"else", T_ELSE},     {"while", T_WHILE}, {"for", T_FOR},
        {"fn", T_FN},         {"return", T_RETURN}, {"var", T_VAR},
        {"true", T_TRUE},     {"false", T_FALSE}, {"nil", T_NIL},
    };
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if ((int)strlen(kw[i].w) == len && memcmp(kw[i].w, s, (size_t)len) == 0)
            return kw[i].t;
    return T_IDENT;
}

static Token scan_ident(Lexer *lx)
{
    while (is_alpha(*lx->cur) || is_digit(*lx->cur))
        lx->cur++;
    return make_tok(lx, keyword(lx->start, (int)(lx->cur - lx->start)));
}

static Token scan_number(Lexer *lx)
{
    while (is_digit(*lx->cur))
        lx->cur++;
    return make_tok(lx, T_INT);
}

static Token scan_string(Lexer *lx)
{
    while (*lx->cur && *lx->cur != '"') {
        if (*lx->cur == '\\' && lx->cur[1])
            lx->cur++;
        if (*lx->cur == '\n')
            lx->line++;
        lx->cur++;
    }
    if (*lx->cur != '"')
        return error_tok(lx, "unterminated string");
    lx->cur++;
    return make_tok(lx, T_STRING);
}

static int match(Lexer *lx, char c)
{
    if (*lx->cur != c)
        return 0;
    lx->cur++;
    return 1;
}

Token lexer_next(Lexer *lx)
{
    skip_space(lx);
    lx->start = lx->cur;
    char c = *lx->cur;
    if (c == '\0')
        return make_tok(lx, T_EOF);
    lx->cur++;
    if (is_alpha(c))
        return scan_ident(lx);
    if (is_digit(c))
        return scan_number(lx);
    switch (c) {
    case '(': return make_tok(lx, T_LPAREN);
    case ')': return make_tok(lx, T_RPAREN);
    case '{': return make_tok(lx, T_LBRACE);
    case '}': return make_tok(lx, T_RBRACE);
    case '[': return make_tok(lx, T_LBRACKET);
    case ']': return make_tok(lx, T_RBRACKET);
    case ',': return make_tok(lx, T_COMMA);
    case ';': return make_tok(lx, T_SEMI);
    case ':': return make_tok(lx, T_COLON);
    case '-': return make_tok(lx, T_MINUS);
    case '*': return make_tok(lx, T_STAR);
    case '/': return make_tok(lx, T_SLASH);
    case '%': return make_tok(lx, T_PERCENT);
    case '"': return scan_string(lx);
    case '.': return make_tok(lx, match(lx, '.') ? T_DOTDOT : T_DOT);
    case '+': return make_tok(lx, match(lx, '+') ? T_PLUS_PLUS : T_PLUS);
    case '!': return make_tok(lx, match(lx, '=') ? T_BANG_EQ : T_BANG);
    case '=': return make_tok(lx, match(lx, '=') ? T_EQ_EQ : T_EQ);
    case '<': return make_tok(lx, match(lx, '=') ? T_LE : T_LT);
    case '>': return make_tok(lx, match(lx, '=') ? T_GE : T_GT);
    }
    return error_tok(lx, "unexpected character");
}
