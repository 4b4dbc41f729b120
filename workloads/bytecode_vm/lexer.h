/* lexer.h - tokens of the bytecode_vm scripting language and the scanner
 * interface used by the compiler. */
#ifndef BVM_LEXER_H
#define BVM_LEXER_H

typedef enum {
    T_LPAREN, T_RPAREN, T_LBRACE, T_RBRACE, T_LBRACKET, T_RBRACKET,
    T_COMMA, T_DOT, T_DOTDOT, T_SEMI, T_COLON,
    T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT,
    T_BANG, T_BANG_EQ, T_EQ, T_EQ_EQ, T_LT, T_LE, T_GT, T_GE,
    T_PLUS_PLUS,
    T_IDENT, T_STRING, T_INT,
    T_AND, T_OR, T_IF, T_ELSE, T_WHILE, T_FOR, T_FN, T_RETURN, T_VAR,
    T_TRUE, T_FALSE, T_NIL,
    T_ERROR, T_EOF
} TokType;

typedef struct {
    TokType type;
    const char *start;
    int len;
    int line;
} Token;

typedef struct {
    const char *start;
    const char *cur;
    int line;
} Lexer;

void lexer_init(Lexer *lx, const char *src);
Token lexer_next(Lexer *lx);

#endif
