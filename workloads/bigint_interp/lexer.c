/* lexer.c - tokenizer for the bigint_interp script language.  Produces a
 * flat array of tokens pointing into the source text. */
#include "interp.h"
#include <stdlib.h>
#include <string.h>
#include <stdio.h>

typedef struct kw { const char *s; int kind; } kw;
static const kw keywords[] = {
    {"def", T_DEF}, {"while", T_WHILE}, {"if", T_IF}, {"else", T_ELSE},
    {"return", T_RETURN}, {"print", T_PRINT}, {"assert", T_ASSERT},
};

static int is_ident_start(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int keyword_kind(const char *s, int len)
{
    for (size_t i = 0; i < sizeof(keywords) / sizeof(keywords[0]); i++)
        if ((int)strlen(keywords[i].s) == len && memcmp(keywords[i].s, s, (size_t)len) == 0)
            return keywords[i].kind;
    return T_IDENT;
}

static int two_char_op(const char *p, int *kind)
{
    static const struct { char a, b; int k; } ops[] = {
        {'=', '=', T_EQ}, {'!', '=', T_NE}, {'<', '=', T_LE}, {'>', '=', T_GE},
        {'&', '&', T_AND}, {'|', '|', T_OR},
    };
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
        if (p[0] == ops[i].a && p[1] == ops[i].b) {
            *kind = ops[i].k;
            return 1;
        }
    return 0;
}

static int one_char_op(char c)
{
    switch (c) {
    case '(': return T_LPAREN;
    case ')': return T_RPAREN;
    case '{': return T_LBRACE;
    case '}': return T_RBRACE;
    case '[': return T_LBRACK;
    case ']': return T_RBRACK;
    case ',': return T_COMMA;
    case ';': return T_SEMI;
    case '=': return T_ASSIGN;
    case '+': return T_PLUS;
    case '-': return T_MINUS;
    case '*': return T_STAR;
    case '/': return T_SLASH;
    case '%': return T_PERCENT;
    case '<': return T_LT;
    case '>': return T_GT;
    case '!': return T_NOT;
    default: return -1;
    }
}

static const char *skip_space(const char *p, int *line)
{
    for (;;) {
        if (*p == '\n') {
            (*line)++;
            p++;
        } else if (*p == ' ' || *p == '\t' || *p == '\r') {
            p++;
        } else if (*p == '#') {
            while (*p && *p != '\n')
                p++;
        } else {
            return p;
        }
    }
}

token *lex_source(const char *src, int *ntok)
{
    int cap = 256, n = 0, line = 1;
    token *t = malloc((size_t)cap * sizeof(token));
    const char *p = src;
    for (;;) {
        p = skip_space(p, &line);
        if (n + 1 >= cap) {
            cap *= 2;
            t = realloc(t, (size_t)cap * sizeof(token));
        }
        token *tk = &t[n++];
        tk->line = line;
        tk->text = p;
        if (!*p) {
            tk->kind = T_EOF;
            tk->len = 0;
            break;
        }
        if (is_digit(*p)) {
            const char *s = p;
            while (is_digit(*p))
                p++;
            tk->kind = T_NUM;
            tk->len = (int)(p - s);
        } else if (is_ident_start(*p)) {
            const char *s = p;
            while (is_ident_start(*p) || is_digit(*p))
                p++;
            tk->len = (int)(p - s);
            tk->kind = keyword_kind(s, tk->len);
        } else {
            int k;
            if (two_char_op(p, &k)) {
                tk->kind = k;
                tk->len = 2;
            } else if ((k = one_char_op(*p)) >= 0) {
                tk->kind = k;
                tk->len = 1;
            } else {
                fprintf(stderr, "lex error at line %d: '%c'\n", line, *p);
                exit(3);
            }
            p += tk->len;
        }
    }
    *ntok = n;
    return t;
}
