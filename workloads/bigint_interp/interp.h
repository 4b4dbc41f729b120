/* interp.h - shared declarations for the bigint_interp script language:
 * tokens, AST nodes, runtime values and the interpreter entry points. */
#ifndef INTERP_H
#define INTERP_H

#include "bigint.h"
#include <stdint.h>

enum tok_kind {
    T_EOF, T_NUM, T_IDENT, T_DEF, T_WHILE, T_IF, T_ELSE, T_RETURN, T_PRINT,
    T_ASSERT, T_LPAREN, T_RPAREN, T_LBRACE, T_RBRACE, T_LBRACK, T_RBRACK,
    T_COMMA, T_SEMI, T_ASSIGN, T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PERCENT,
    T_EQ, T_NE, T_LT, T_LE, T_GT, T_GE, T_AND, T_OR, T_NOT
};

typedef struct token {
    int kind;
    int line;
    const char *text;
    int len;
} token;

enum node_kind {
    N_NUM, N_VAR, N_INDEX, N_CALL, N_BUILTIN, N_BIN, N_NEG, N_NOT, N_AND, N_OR,
    N_ASSIGN, N_ASSIGN_IDX, N_WHILE, N_IF, N_RETURN, N_PRINT, N_ASSERT,
    N_EXPR, N_BLOCK, N_KINDS
};

struct func;

typedef struct node {
    int kind;
    int op;              /* operator token or builtin index */
    int line;
    int slot;            /* local variable slot */
    int nkids;
    struct node **kids;
    bn *num;             /* literal value */
    char *name;          /* callee name for N_CALL */
    struct func *fn;     /* resolved callee */
} node;

typedef struct func {
    char *name;
    int nparams;
    int nslots;
    node *body;
    struct func *next;   /* hash chain */
} func;

enum { V_INT, V_ARR };

struct array;
typedef struct value {
    int kind;
    bn *b;
    struct array *a;
} value;

typedef struct array {
    int refs;
    int n;
    value *items;
} array;

typedef struct program {
    func *main;
    func **ftab;          /* hash table of functions */
    int fcap;
    int nfuncs;
    int nnodes;
} program;

typedef struct interp_stats {
    uint64_t print_hash;
    uint64_t prints;
    uint64_t calls;
    uint64_t nodes_evaluated;
    int failed;          /* assertion or runtime error */
    char errmsg[128];
} interp_stats;

/* lexer.c */
token *lex_source(const char *src, int *ntok);

/* parser.c */
program *parse_program(const char *src);
void free_program(program *p);
func *program_lookup(program *p, const char *name);

/* eval.c */
void run_program(program *p, interp_stats *st);

/* builtins.c */
int builtin_index(const char *name, int len);
int builtin_arity(int idx);
value call_builtin(int idx, value *args, int nargs, interp_stats *st);
void builtins_reset(void);

/* values */
value val_int(bn *b);
value val_copy(value v);
void val_free(value v);
array *arr_new(int n);

/* scripts.c */
typedef struct wl_params {
    int fact_n, fib_n, fib_memo_n, rsa_digits, rsa_msgs, poly_deg, pi_digits;
    int sieve_n, collatz_n, rounds;
} wl_params;
char *gen_script(int which, const wl_params *p, uint64_t *seed);
int script_count(void);
const char *script_name(int which);

uint64_t rng_next(uint64_t *s);

#endif
