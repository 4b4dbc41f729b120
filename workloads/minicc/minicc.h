/* minicc.h - shared declarations of the minicc workload (gcc-like): a
 * compiler for a small C-like language (int-only functions, locals, if,
 * while, calls) with lexer, parser, semantic checks, three-address IR,
 * optimisation passes, linear-scan register allocation and assembly
 * emission into a memory buffer, plus an IR interpreter for self-checks. */
#ifndef MINICC_H
#define MINICC_H

#include <stdint.h>
#include <stddef.h>

/* ---- tokens ----------------------------------------------------------- */
enum {
    TK_EOF, TK_NUM, TK_ID, TK_INT, TK_IF, TK_ELSE, TK_WHILE, TK_RETURN,
    TK_LP, TK_RP, TK_LB, TK_RB, TK_COMMA, TK_SEMI, TK_ASSIGN,
    /* binary operators, in this order, double as IR operator codes */
    TK_ADD, TK_SUB, TK_MUL, TK_DIV, TK_MOD, TK_AND, TK_OR, TK_XOR, TK_SHL, TK_SHR,
    TK_LT, TK_LE, TK_GT, TK_GE, TK_EQ, TK_NE, TK_LAND, TK_LOR, TK_NOT, TK_TILDE
};

typedef struct token {
    int kind;
    int line;
    int32_t val;
    const char *s;
    int len;
} token;

/* ---- AST -------------------------------------------------------------- */
enum {
    A_NUM, A_VAR, A_BIN, A_NEG, A_NOT, A_CALL, A_LAND, A_LOR,
    A_DECL, A_ASSIGN, A_IF, A_WHILE, A_RETURN, A_BLOCK, A_EXPR, A_KINDS
};

typedef struct ast {
    int kind;
    int op;
    int32_t val;
    int line;
    char *name;
    int nk;
    struct ast **k;
    int var;             /* resolved variable id (sema) */
    int callee;          /* resolved function index (sema) */
} ast;

typedef struct fn_ast {
    char *name;
    int nparams;
    char **params;
    ast *body;
    int nvars;           /* set by sema: params + locals */
} fn_ast;

typedef struct unit {
    fn_ast *fns;
    int nfns;
} unit;

unit *parse_unit(const char *src);
int sema_check(unit *u, char *err, size_t errlen);

/* ---- IR --------------------------------------------------------------- */
enum {
    I_NOP, I_CONST, I_MOV, I_BIN, I_NEG, I_NOT, I_LABEL, I_JMP, I_BR, I_CALL, I_RET
};

typedef struct ins {
    int op;
    int bop;             /* operator for I_BIN (TK_ADD..TK_NE) */
    int dst, a, b;
    int32_t imm;
    int l1, l2;          /* labels */
    int callee;
    int nargs;
    int *args;
} ins;

typedef struct irfn {
    char *name;
    int nparams;
    int nvregs;
    int nlabels;
    ins *code;
    int n, cap;
    /* register allocation results */
    int *reg;            /* physical register or -1 */
    int *slot;           /* spill slot or -1 */
    int nslots;
    int *labpos;         /* label -> instruction index, built lazily */
} irfn;

irfn *irgen_function(const unit *u, int f);
void ir_free(irfn *f);
irfn *ir_clone(const irfn *f);
int ir_count(const irfn *f);

/* opt.c */
typedef struct opt_stats {
    long folded, propagated, simplified, removed, branches;
} opt_stats;
void optimise(irfn *f, opt_stats *st);

/* dataflow helpers (opt.c) */
typedef struct cfg {
    int nblocks;
    int *start, *end;        /* instruction ranges [start, end) */
    int *succ;               /* 2 per block, -1 if none */
    uint64_t *livein, *liveout;
    int words;
} cfg;
cfg *cfg_build(const irfn *f);
void cfg_liveness(cfg *c, const irfn *f);
void cfg_free(cfg *c);
int ins_uses(const ins *i, int *out);
int ins_def(const ins *i);

/* regalloc.c */
#define NUM_REGS 8
typedef struct ra_stats {
    long intervals, spilled, conflicts;
} ra_stats;
void regalloc(irfn *f, ra_stats *st);

/* emit.c */
typedef struct outbuf {
    char *s;
    size_t len, cap;
} outbuf;
void emit_function(outbuf *o, const irfn *f, irfn *const *all);

/* interp.c */
typedef struct exec_stats {
    long steps, calls;
    int overflow;
} exec_stats;
int32_t ir_execute(irfn *const *fns, int f, const int32_t *args, exec_stats *st);
int32_t eval_binop(int op, int32_t a, int32_t b);

/* gen.c */
char *generate_program(int nfuncs, uint64_t *seed, int *entry_count);
uint64_t rng_next(uint64_t *s);

#endif
