/*
 * acf.c - the ACF parser: turns the text of an ACF (the DISE/HPS production
 * language specified in dise/README.md) and the files it includes into a
 * dise_program_t (include/dise.h), and prints a program back in the same
 * language (--print-acf, round-trip tests), whole or a pattern, sequence or
 * control list at a time (the shell's view of the tables).
 *
 * Three stages.  The lexer turns one file into an array of tokens, each with
 * its line and column.  The recursive-descent parser reads statements into
 * raw definitions (productions, control lists, replacement sequences),
 * building pattern trees directly since they need only the ISA and the
 * symbol table.  The resolver then, in statement order, checks every name,
 * splices sequences and control lists (memoized, cycle-checked, length
 * capped) and emits the replacement and conditionals tables.
 *
 * Every error is "file:line:col: what was wrong, and what was expected" in
 * the caller's buffer, reported at the first problem in file order.  All
 * allocations hang off one context and are freed on every path.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "dise.h"
#include "symtab.h"
#include "util.h"

enum {
    ACF_MAX_INCLUDE_DEPTH = 16,
    ACF_MAX_DEFS = 4096,            /* named statements over all files        */
    ACF_MAX_PATTERN_NODES = 1024,   /* nodes in one production's pattern      */
    ACF_MAX_NESTING = 100,          /* '(' and '!' nesting in a pattern       */
    ACF_MAX_RT = 65536,             /* replacement instructions, after splicing */
    ACF_MAX_UOPS = 65536,           /* micro-ops, after splicing               */
    ACF_MAX_FILE_BYTES = 1 << 24
};

/* Role keywords, indexed by dise_role_t. */
static const char *const role_words[DISE_ROLE_COUNT] = { "none", "check", "basic", "sample" };

/* Operation-class groups; exact classes come from opclass_names[]. */
static const struct { const char *name; int cls; } class_groups[] = {
    { "proc_call", DC_PROC_CALL }, { "return", DC_RETURN }, { "branch", DC_BRANCH },
    { "jump", DC_JUMP }, { "mem_op", DC_MEM_OP }, { "load", DC_LOAD },
    { "store", DC_STORE }, { "indirect", DC_INDIRECT },
};
#define NGROUPS (sizeof class_groups / sizeof class_groups[0])

/* Grow a dynamic array by one element (zeroed); evaluates to its address. */
#define PUSH(arr, n, cap) \
    (((n) == (cap) ? ((cap) = (cap) ? 2 * (cap) : 8, \
                      (arr) = xrealloc((arr), (cap) * sizeof *(arr))) : 0), \
     memset(&(arr)[(n)], 0, sizeof *(arr)), &(arr)[(n)++])

/* ======================================================================== */
/* Lexer                                                                     */
/* ======================================================================== */

typedef enum {
    TK_EOF, TK_ERROR, TK_IDENT, TK_NUM, TK_STR,
    TK_COLON, TK_COMMA, TK_SEMI, TK_LPAREN, TK_RPAREN, TK_LBRACK, TK_RBRACK,
    TK_ARROW, TK_EQ, TK_NE, TK_LT, TK_LE, TK_GT, TK_GE, TK_ASSIGN,
    TK_NOT, TK_AND, TK_OR, TK_MINUS
} tok_kind_t;

typedef enum { LEX_BADCHAR, LEX_STRING, LEX_BADNUM, LEX_BIGNUM } lex_err_t;

typedef struct token {
    uint8_t kind;           /* tok_kind_t                                    */
    uint8_t lexerr;         /* TK_ERROR: lex_err_t                           */
    bool hex;               /* TK_NUM written in hex                         */
    uint32_t line, col;
    const char *text;       /* as written; TK_STR: between the quotes        */
    uint32_t len;
    uint64_t num;           /* TK_NUM: value (hex: the 64-bit pattern)       */
} token_t;

typedef struct lexer {
    const char *p, *end;
    uint32_t line, col;     /* of *p; columns count characters, not bytes    */
} lexer_t;

static bool is_alpha(int c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_'; }
static bool is_digit(int c) { return c >= '0' && c <= '9'; }
static bool is_alnum(int c) { return is_alpha(c) || is_digit(c); }

static int hex_value(int c)
{
    if (is_digit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

/* Parse a whole literal: decimal up to 2^63 (so that -2^63 is writable), or
 * 0x hex up to 64 bits.  0 = ok, 1 = malformed, 2 = too big. */
static int parse_number_text(const char *s, size_t len, uint64_t *out, bool *hex)
{
    uint64_t v = 0;
    *hex = len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (*hex) {
        for (size_t i = 2; i < len; i++) {
            int d = hex_value((unsigned char)s[i]);
            if (d < 0) return 1;
            if (v >> 60) return 2;
            v = v << 4 | (uint64_t)d;
        }
    } else {
        const uint64_t limit = UINT64_C(1) << 63;
        if (len == 0) return 1;
        for (size_t i = 0; i < len; i++) {
            if (!is_digit((unsigned char)s[i])) return 1;
            uint64_t d = (uint64_t)(s[i] - '0');
            if (v > (limit - d) / 10) return 2;
            v = v * 10 + d;
        }
    }
    *out = v;
    return 0;
}

static void lx_advance(lexer_t *lx)
{
    unsigned char c = (unsigned char)*lx->p++;
    if (c == '\n') {
        lx->line++;
        lx->col = 1;
    } else if ((c & 0xc0) != 0x80) {
        lx->col++;
    }
}

static void lx_skip_space(lexer_t *lx)
{
    while (lx->p < lx->end) {
        char c = *lx->p;
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
            lx_advance(lx);
        } else if (c == '#') {
            while (lx->p < lx->end && *lx->p != '\n') lx_advance(lx);
        } else {
            break;
        }
    }
}

static void lx_word(lexer_t *lx, token_t *t)
{
    while (lx->p < lx->end && (is_alnum((unsigned char)*lx->p) || *lx->p == '.')) lx_advance(lx);
    t->kind = TK_IDENT;
}

static void lx_number(lexer_t *lx, token_t *t)
{
    while (lx->p < lx->end && is_alnum((unsigned char)*lx->p)) lx_advance(lx);
    int r = parse_number_text(t->text, (size_t)(lx->p - t->text), &t->num, &t->hex);
    t->kind = r == 0 ? TK_NUM : TK_ERROR;
    t->lexerr = r == 1 ? LEX_BADNUM : LEX_BIGNUM;
}

static void lx_string(lexer_t *lx, token_t *t)
{
    lx_advance(lx);                                 /* the opening quote */
    const char *start = lx->p;
    while (lx->p < lx->end && *lx->p != '"' && *lx->p != '\n') lx_advance(lx);
    if (lx->p >= lx->end || *lx->p != '"') {
        t->kind = TK_ERROR;
        t->lexerr = LEX_STRING;
        return;
    }
    t->kind = TK_STR;
    t->text = start;
    t->len = (uint32_t)(lx->p - start);
    lx_advance(lx);                                 /* the closing quote */
}

/* Operators and punctuation; false if none starts at lx->p. */
static bool lx_punct(lexer_t *lx, token_t *t)
{
    static const struct { const char *s; uint8_t kind; } ops[] = {
        { "=>", TK_ARROW }, { "\xe2\x87\x92", TK_ARROW },  /* U+21D2, as in the paper */
        { "==", TK_EQ }, { "!=", TK_NE }, { "<=", TK_LE }, { ">=", TK_GE },
        { "&&", TK_AND }, { "||", TK_OR },
        { ":", TK_COLON }, { ",", TK_COMMA }, { ";", TK_SEMI }, { "(", TK_LPAREN },
        { ")", TK_RPAREN }, { "[", TK_LBRACK }, { "]", TK_RBRACK }, { "<", TK_LT },
        { ">", TK_GT }, { "=", TK_ASSIGN }, { "!", TK_NOT }, { "-", TK_MINUS },
    };
    size_t avail = (size_t)(lx->end - lx->p);
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        size_t n = strlen(ops[k].s);
        if (n <= avail && memcmp(lx->p, ops[k].s, n) == 0) {
            for (size_t i = 0; i < n; i++) lx_advance(lx);
            t->kind = ops[k].kind;
            return true;
        }
    }
    return false;
}

static token_t lx_next(lexer_t *lx)
{
    lx_skip_space(lx);
    token_t t = { .line = lx->line, .col = lx->col, .text = lx->p };
    if (lx->p >= lx->end) {
        t.kind = TK_EOF;
        return t;
    }
    int c = (unsigned char)*lx->p;
    if (is_alpha(c)) {
        lx_word(lx, &t);
    } else if (is_digit(c)) {
        lx_number(lx, &t);
    } else if (c == '"') {
        lx_string(lx, &t);
        if (t.kind == TK_STR) return t;          /* text/len already set */
    } else if (!lx_punct(lx, &t)) {
        lx_advance(lx);
        t.kind = TK_ERROR;
        t.lexerr = LEX_BADCHAR;
    }
    t.len = (uint32_t)(lx->p - t.text);
    return t;
}

/* The whole file as tokens, ending with TK_EOF or at the first TK_ERROR. */
static token_t *tokenize(const char *text, size_t len, size_t *ntok)
{
    lexer_t lx = { .p = text, .end = text + len, .line = 1, .col = 1 };
    token_t *toks = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        token_t *t = PUSH(toks, n, cap);
        *t = lx_next(&lx);
        if (t->kind == TK_EOF || t->kind == TK_ERROR) break;
    }
    *ntok = n;
    return toks;
}

/* ======================================================================== */
/* Name maps                                                                 */
/* ======================================================================== */

/* A small open-addressing hash map from names (at most DISE_NAME_MAX-1
 * characters) to two numbers, so that lookups stay cheap however large an
 * ACF is: definitions, the labels of a sequence, branch targets. */
typedef struct name_slot {
    bool used;
    char name[DISE_NAME_MAX];
    size_t a, b;
} name_slot_t;

typedef struct namemap {
    name_slot_t *slot;
    size_t cap, n;
} namemap_t;

static uint64_t name_hash(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;             /* FNV-1a */
    for (size_t i = 0; i < len; i++) h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
    return h;
}

static name_slot_t *map_probe(name_slot_t *slot, size_t cap, const char *s, size_t len)
{
    for (size_t i = name_hash(s, len) & (cap - 1);; i = (i + 1) & (cap - 1))
        if (!slot[i].used || (strncmp(slot[i].name, s, len) == 0 && slot[i].name[len] == '\0'))
            return &slot[i];
}

/* The slot of name s[0..len), or NULL if absent; with insert, a new zeroed
 * slot is made for an absent name.  len must be < DISE_NAME_MAX. */
static name_slot_t *map_slot(namemap_t *m, const char *s, size_t len, bool insert)
{
    if (!m->cap) {
        if (!insert) return NULL;
        m->cap = 16;
        m->slot = xcalloc(m->cap, sizeof *m->slot);
    }
    name_slot_t *e = map_probe(m->slot, m->cap, s, len);
    if (e->used || !insert) return e->used ? e : NULL;
    if (2 * (m->n + 1) > m->cap) {                  /* keep the load under 1/2 */
        name_slot_t *old = m->slot;
        size_t oldcap = m->cap;
        m->cap *= 2;
        m->slot = xcalloc(m->cap, sizeof *m->slot);
        for (size_t i = 0; i < oldcap; i++)
            if (old[i].used) *map_probe(m->slot, m->cap, old[i].name, strlen(old[i].name)) = old[i];
        free(old);
        e = map_probe(m->slot, m->cap, s, len);
    }
    e->used = true;
    memcpy(e->name, s, len);
    e->name[len] = '\0';
    e->a = e->b = 0;
    m->n++;
    return e;
}

static void map_free(namemap_t *m)
{
    free(m->slot);
    memset(m, 0, sizeof *m);
}

/* ======================================================================== */
/* Raw definitions and the parsing context                                   */
/* ======================================================================== */

/* A name as written somewhere: for definitions, and for uses whose errors
 * are only found after parsing (undefined names, cycles). */
typedef struct ref {
    char name[DISE_NAME_MAX];
    uint32_t file, line, col;
} ref_t;

enum { RAW_SPLICE = DOP_COUNT };    /* raw_insn_t.op: splice sequence `ref` */

typedef struct raw_insn {
    uint8_t op;             /* dise_op_t or RAW_SPLICE                       */
    uint8_t rd, rs, src, role;
    int64_t value;          /* SRC_CONST etc.; after checking: param index,
                               or the label index of a branch             */
    ref_t ref;              /* label, handler, spliced name, or parameter  */
} raw_insn_t;

typedef struct label {
    char name[DISE_NAME_MAX];
    size_t pos;             /* index of the raw instruction it precedes      */
    ref_t at;
} label_t;

typedef struct raw_ctl {
    bool is_name;           /* splice the control list `ref`, else `uop`     */
    dise_uop_t uop;
    ref_t ref;              /* the name, or the parameter of set_N(param)    */
} raw_ctl_t;

typedef enum { DEF_PROD, DEF_CTL, DEF_SEQ, DEF_NAMES } def_kind_t;
enum { USE_SEQ, USE_CTL };                  /* how a DEF_NAMES is spliced */
enum { ST_NEW, ST_ACTIVE, ST_DONE };

typedef struct def {
    uint8_t kind;           /* def_kind_t                                    */
    uint8_t role;           /* DEF_SEQ: the default role                     */
    ref_t at;               /* its name and where it was defined             */
    raw_insn_t *ins;   size_t nins, cap_ins;      /* DEF_SEQ                 */
    label_t *labels;   size_t nlabels, cap_labels;
    namemap_t labelmap;     /* label name -> index in labels                */
    raw_ctl_t *items;  size_t nitems, cap_items;  /* CTL, NAMES, PROD's list */
    int32_t pattern;        /* DEF_PROD                                      */
    bool has_repl, has_ctl;
    ref_t repl;
    uint8_t state[2];       /* resolution, per USE_*                          */
    size_t xlen[2];         /* length after splicing, per USE_*               */
    int32_t repl_idx, ctl_idx;
} def_t;

typedef struct ctx {
    const dise_env_t *env;
    dise_program_t *p;
    char *err;
    size_t errlen;
    bool failed;
    def_t *defs;       size_t ndefs, cap_defs;
    namemap_t defmap;               /* name -> index in defs                   */
    size_t nprods;                  /* productions parsed so far               */
    raw_ctl_t *init;   size_t ninit, cap_init;
    bool has_init;
    ref_t init_at;
    ref_t param_at[DISE_MAX_PARAMS];
    char **seen;       size_t nseen, cap_seen;  /* realpaths of files read   */
    unsigned depth;                 /* include nesting                        */
    int *stack;        size_t nstack, cap_stack; /* defs being measured       */
    size_t cap_files, cap_nodes, cap_rt, cap_repls, cap_uops, cap_ctls, cap_prods;
} ctx_t;

typedef struct parser {
    ctx_t *c;
    uint32_t file;          /* index in p->files                             */
    const char *dir;        /* includes are relative to it ("" = cwd)        */
    token_t *toks;
    size_t ntok, pos;
    size_t *next_hard;      /* per token: the next hard statement boundary   */
    namemap_t targets;      /* branch label -> a: last branch, b: its region */
    size_t scanned_end;     /* the region whose branches are in targets      */
    size_t node_base;       /* first node of the pattern being parsed        */
} parser_t;

/* ---- errors --------------------------------------------------------------- */

static bool vfail(ctx_t *c, uint32_t file, uint32_t line, uint32_t col,
                  const char *fmt, va_list ap)
{
    if (!c->failed && c->err && c->errlen) {
        const char *fname = file < c->p->nfiles ? c->p->files[file] : "?";
        int n = snprintf(c->err, c->errlen, "%s:%u:%u: ", fname, line, col);
        if (n >= 0 && (size_t)n < c->errlen) vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
    }
    c->failed = true;
    return false;
}

__attribute__((format(printf, 3, 4)))
static bool fail_ref(ctx_t *c, const ref_t *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(c, r->file, r->line, r->col, fmt, ap);
    va_end(ap);
    return false;
}

static bool fail_lex(parser_t *ps, const token_t *t)
{
    ref_t at = { .file = ps->file, .line = t->line, .col = t->col };
    int n = t->len > 40 ? 40 : (int)t->len;
    unsigned char ch = (unsigned char)t->text[0];
    char what[16];
    switch (t->lexerr) {
    case LEX_BADCHAR:
        if (ch >= 0x20 && ch < 0x7f) snprintf(what, sizeof what, "'%c'", ch);
        else snprintf(what, sizeof what, "'\\x%02x'", ch);
        if (ch == '&' || ch == '|')
            return fail_ref(ps->c, &at, "unexpected character %s: the operators are '&&' and '||'", what);
        return fail_ref(ps->c, &at, "unexpected character %s", what);
    case LEX_STRING:
        return fail_ref(ps->c, &at, "unterminated string: expected a closing '\"' on the same line");
    case LEX_BADNUM:
        return fail_ref(ps->c, &at, "malformed number '%.*s': expected decimal digits, or 0x and hex digits",
                        n, t->text);
    default:
        return fail_ref(ps->c, &at, "number '%.*s' does not fit in a 64-bit integer", n, t->text);
    }
}

/* An error at token t; a lexical error at t takes precedence. */
__attribute__((format(printf, 3, 4)))
static bool fail_tok(parser_t *ps, const token_t *t, const char *fmt, ...)
{
    if (t->kind == TK_ERROR) return fail_lex(ps, t);
    va_list ap;
    va_start(ap, fmt);
    vfail(ps->c, ps->file, t->line, t->col, fmt, ap);
    va_end(ap);
    return false;
}

/* How a token is quoted in messages. */
static const char *tok_desc(const token_t *t, char *buf, size_t n)
{
    if (t->kind == TK_EOF) return "the end of the file";
    int len = t->len > 32 ? 32 : (int)t->len;
    const char *more = t->len > 32 ? "..." : "";
    if (t->kind == TK_STR) snprintf(buf, n, "\"%.*s%s\"", len, t->text, more);
    else snprintf(buf, n, "'%.*s%s'", len, t->text, more);
    return buf;
}

/* "expected <what>, found <t>" */
static bool fail_expected(parser_t *ps, const token_t *t, const char *what)
{
    char buf[48];
    return fail_tok(ps, t, "expected %s, found %s", what, tok_desc(t, buf, sizeof buf));
}

/* ---- token access ------------------------------------------------------- */

static const token_t *tok_at(const parser_t *ps, size_t i)
{
    return &ps->toks[i < ps->ntok ? i : ps->ntok - 1];
}
static const token_t *cur(const parser_t *ps) { return tok_at(ps, ps->pos); }
static const token_t *peek(const parser_t *ps, size_t k) { return tok_at(ps, ps->pos + k); }

static const token_t *advance(parser_t *ps)
{
    const token_t *t = cur(ps);
    if (t->kind != TK_EOF && t->kind != TK_ERROR) ps->pos++;
    return t;
}

static bool accept(parser_t *ps, tok_kind_t kind)
{
    if (cur(ps)->kind != kind) return false;
    ps->pos++;
    return true;
}

static bool expect(parser_t *ps, tok_kind_t kind, const char *what)
{
    if (accept(ps, kind)) return true;
    return fail_expected(ps, cur(ps), what);
}

/* ---- words ---------------------------------------------------------------- */

/* An identifier equal to w, ignoring case. */
static bool is_word(const token_t *t, const char *w)
{
    size_t n = strlen(w);
    return t->kind == TK_IDENT && t->len == n && strncasecmp(t->text, w, n) == 0;
}

/* prefix + decimal digits, prefix ignoring case: inc_3, d12, counter_1.  The
 * number saturates at UINT64_MAX. */
static bool is_numbered(const token_t *t, const char *prefix, uint64_t *n)
{
    size_t pl = strlen(prefix);
    if (t->kind != TK_IDENT || t->len <= pl || strncasecmp(t->text, prefix, pl) != 0) return false;
    uint64_t v = 0;
    for (size_t i = pl; i < t->len; i++) {
        if (!is_digit((unsigned char)t->text[i])) return false;
        unsigned d = (unsigned)(t->text[i] - '0');
        v = v > (UINT64_MAX - d) / 10 ? UINT64_MAX : v * 10 + d;
    }
    if (n) *n = v;
    return true;
}

static bool is_field_word(const token_t *t)
{
    return t->kind == TK_IDENT && t->len >= 2 && (t->text[0] == 'T' || t->text[0] == 't') &&
           t->text[1] == '.';
}

static bool is_insn_word(const token_t *t)
{
    return is_word(t, "call") || is_word(t, "mov") || is_word(t, "add") || is_word(t, "sub") ||
           is_word(t, "beqz") || is_word(t, "bnez") || is_word(t, "j") || is_word(t, "tally");
}

static bool is_uop_word(const token_t *t)
{
    return is_numbered(t, "inc_", NULL) || is_numbered(t, "dec_", NULL) ||
           is_numbered(t, "set_", NULL);
}

static bool is_flag_word(const token_t *t)
{
    return is_numbered(t, "overflow_", NULL) || is_numbered(t, "zero_", NULL);
}

static bool is_reserved(const token_t *t)
{
    return is_word(t, "include") || is_word(t, "param") || is_word(t, "init") ||
           is_word(t, "table") || is_word(t, "null") || is_insn_word(t) || is_field_word(t) || is_uop_word(t) ||
           is_flag_word(t) || is_numbered(t, "counter_", NULL) || is_numbered(t, "d", NULL);
}

/* An identifier that can name something. */
static bool is_name(const token_t *t) { return t->kind == TK_IDENT && !is_reserved(t); }

/* Copy a name token into a ref, checking its length. */
static bool make_ref(parser_t *ps, const token_t *t, ref_t *r)
{
    if (t->len > DISE_NAME_MAX - 1)
        return fail_tok(ps, t, "name '%.32s...' is longer than %d characters", t->text,
                        DISE_NAME_MAX - 1);
    memset(r, 0, sizeof *r);
    memcpy(r->name, t->text, t->len);
    r->file = ps->file;
    r->line = t->line;
    r->col = t->col;
    return true;
}

static ref_t here(const parser_t *ps, const token_t *t)
{
    return (ref_t){ .file = ps->file, .line = t->line, .col = t->col };
}

/* ---- statement boundaries -------------------------------------------------
 * A statement runs until the next NAME: (or NAME [role]:), param, include
 * or init.  Inside a replacement sequence NAME: may instead be a local
 * label; it is one exactly when a branch of that sequence names it.  A
 * "hard" boundary cannot be a label: NAME [role]:, a keyword, or NAME:
 * followed by something no instruction starts with.  The branch targets
 * of a sequence are collected over the tokens up to the next hard boundary.
 */

/* After "NAME:", could an instruction (or another label) follow? */
static bool soft_follow(const token_t *t)
{
    return t->kind == TK_EOF || t->kind == TK_SEMI || t->kind == TK_LBRACK || is_name(t) ||
           is_insn_word(t) || is_word(t, "T.INSN");
}

static bool hard_boundary(const parser_t *ps, size_t i)
{
    const token_t *t = tok_at(ps, i);
    if (t->kind == TK_EOF || t->kind == TK_ERROR) return true;
    if (is_word(t, "include") || is_word(t, "param") || is_word(t, "init") || is_word(t, "table"))
        return true;
    if (!is_name(t)) return false;
    const token_t *n = tok_at(ps, i + 1);
    if (n->kind == TK_COLON) return !soft_follow(tok_at(ps, i + 2));
    return n->kind == TK_LBRACK && tok_at(ps, i + 2)->kind == TK_IDENT &&
           tok_at(ps, i + 3)->kind == TK_RBRACK && tok_at(ps, i + 4)->kind == TK_COLON;
}

/* Where a list (control list, list of names) ends: any NAME: or a hard one. */
static bool statement_start(const parser_t *ps, size_t i)
{
    return hard_boundary(ps, i) ||
           (is_name(tok_at(ps, i)) && tok_at(ps, i + 1)->kind == TK_COLON);
}

/* next_hard[i]: the first hard boundary at or after token i. */
static void find_hard_boundaries(parser_t *ps)
{
    ps->next_hard = xcalloc(ps->ntok, sizeof *ps->next_hard);
    for (size_t i = ps->ntok; i-- > 0;)
        ps->next_hard[i] = i + 1 == ps->ntok || hard_boundary(ps, i) ? i : ps->next_hard[i + 1];
}

/* Record the label of every branch in [from, end), with its position. */
static void scan_branches(parser_t *ps, size_t from, size_t end)
{
    for (size_t i = from; i < end; i++) {
        const token_t *t = tok_at(ps, i), *label = NULL;
        if (is_word(t, "j")) label = tok_at(ps, i + 1);
        else if ((is_word(t, "beqz") || is_word(t, "bnez")) && tok_at(ps, i + 2)->kind == TK_COMMA)
            label = tok_at(ps, i + 3);
        if (label && is_name(label) && label->len < DISE_NAME_MAX) {
            name_slot_t *e = map_slot(&ps->targets, label->text, label->len, true);
            e->a = i;
            e->b = end;
        }
    }
    ps->scanned_end = end;
}

/* Does a branch between `from` (the start of a sequence's body) and the
 * next hard boundary name t?  Each region is scanned once. */
static bool is_target(parser_t *ps, size_t from, const token_t *t)
{
    size_t end = ps->next_hard[from < ps->ntok ? from : ps->ntok - 1];
    if (end != ps->scanned_end) scan_branches(ps, from, end);
    if (t->len >= DISE_NAME_MAX) return false;
    name_slot_t *e = map_slot(&ps->targets, t->text, t->len, false);
    return e && e->b == end && e->a >= from;
}

/* ======================================================================== */
/* Parser: helpers shared by the statement kinds                             */
/* ======================================================================== */

static int find_def(ctx_t *c, const char *name)
{
    name_slot_t *e = map_slot(&c->defmap, name, strlen(name), false);
    return e ? (int)e->a : -1;
}

static int find_param(const dise_program_t *p, const char *name)
{
    for (size_t k = 0; k < p->nparams; k++)
        if (strcmp(p->params[k].name, name) == 0) return (int)k;
    return -1;
}

/* [-]number.  Hex literals are 64-bit patterns; decimal must fit int64. */
static bool parse_int(parser_t *ps, bool allow_neg, const char *what, int64_t *out)
{
    const token_t *t = cur(ps);
    bool neg = allow_neg && t->kind == TK_MINUS;
    if (neg) t = peek(ps, 1);
    if (t->kind != TK_NUM) return fail_expected(ps, t, what);
    uint64_t v = t->num;
    uint64_t limit = neg ? UINT64_C(1) << 63 : (t->hex ? UINT64_MAX : (uint64_t)INT64_MAX);
    if (v > limit)
        return fail_tok(ps, t, "number '%s%.*s' does not fit in a 64-bit integer", neg ? "-" : "",
                        (int)t->len, t->text);
    *out = (int64_t)(neg ? 0 - v : v);
    ps->pos += neg ? 2 : 1;
    return true;
}

/* A counter number from inc_N, overflow_N, counter_N ...: 1..DISE_MAX_COUNTERS. */
static bool counter_number(parser_t *ps, const token_t *t, uint64_t n, uint8_t *out)
{
    if (n < 1 || n > DISE_MAX_COUNTERS)
        return fail_tok(ps, t, "counter number in '%.*s' is out of range: HPS counters are numbered 1..%d",
                        (int)(t->len > 40 ? 40 : t->len), t->text, DISE_MAX_COUNTERS);
    *out = (uint8_t)n;
    return true;
}

/* dN, N in 0..15. */
static bool dreg_number(parser_t *ps, const token_t *t, uint8_t *out)
{
    uint64_t n;
    if (!is_numbered(t, "d", &n)) return fail_expected(ps, t, "a DISE register d0..d15");
    if (n >= REG_DISE_COUNT)
        return fail_tok(ps, t, "DISE register '%.*s' does not exist: they are d0..d%d",
                        (int)(t->len > 40 ? 40 : t->len), t->text, REG_DISE_COUNT - 1);
    *out = (uint8_t)n;
    advance(ps);
    return true;
}

/* ======================================================================== */
/* Instruction fields                                                        */
/* ======================================================================== */

/* The rows of acf_fields.def: the parser's lookups, the printer's names and
 * the lists of fields in error messages are all read from this table. */
typedef enum { ACF_ADDR, ACF_INT, ACF_SIZE, ACF_REG, ACF_CLASS, ACF_OPCODE } field_kind_t;

typedef struct field_def {
    const char *word;           /* T.PC, ...                                  */
    uint8_t pattern_place;      /* place in pattern lists; 0 = not testable   */
    uint8_t field;              /* px_field_t                                 */
    uint8_t kind;               /* field_kind_t of its pattern values         */
    uint8_t operand_place;      /* place in operand lists; 0 = not an operand */
    uint8_t src;                /* dise_src_t                                 */
} field_def_t;

static const field_def_t field_defs[] = {
#define ACF_PATTERN(id_, kind_, place_) .field = id_, .kind = kind_, .pattern_place = place_,
#define ACF_OPERAND(id_, place_) .src = id_, .operand_place = place_,
#define ACF_FIELD(word_, pattern_, operand_) { .word = word_, pattern_ operand_ },
#include "acf_fields.def"
#undef ACF_FIELD
#undef ACF_OPERAND
#undef ACF_PATTERN
};
#define NFIELD_DEFS (sizeof field_defs / sizeof field_defs[0])

/* The sets of fields that error messages list. */
typedef enum {
    FS_PATTERN,     /* fields a pattern can test                            */
    FS_NUMERIC,     /* ... that compare as numbers (also with each other)   */
    FS_RANGE,       /* ... that can be tested with 'in'                     */
    FS_OPERAND      /* source operands of replacement instructions          */
} field_set_t;

static bool numeric_kind(int kind)
{
    return kind == ACF_ADDR || kind == ACF_INT || kind == ACF_SIZE;
}

/* The field's place in the lists of `set`, 0 if it is not in the set. */
static unsigned field_place(const field_def_t *d, field_set_t set)
{
    if (set == FS_OPERAND) return d->operand_place;
    if (!d->pattern_place) return 0;
    if (set == FS_NUMERIC && !numeric_kind(d->kind)) return 0;
    if (set == FS_RANGE && d->kind != ACF_ADDR) return 0;
    return d->pattern_place;
}

/* The words of `set` in the order of their places, separated by ", " and,
 * before the last one, by `last` (", ", " or ", " and "). */
static const char *field_list(field_set_t set, const char *last, char *buf, size_t n)
{
    size_t count = 0, done = 0, len = 0;
    for (size_t k = 0; k < NFIELD_DEFS; k++) count += field_place(&field_defs[k], set) != 0;
    buf[0] = '\0';
    for (unsigned place = 1; place <= UINT8_MAX && done < count; place++)
        for (size_t k = 0; k < NFIELD_DEFS; k++) {
            if (field_place(&field_defs[k], set) != place) continue;
            const char *sep = done == 0 ? "" : done + 1 == count ? last : ", ";
            int w = snprintf(buf + len, n - len, "%s%s", sep, field_defs[k].word);
            if (w < 0 || (size_t)w >= n - len) return buf;       /* truncated */
            len += (size_t)w;
            done++;
        }
    return buf;
}

/* The field spelled by t, or NULL. */
static const field_def_t *field_named(const token_t *t)
{
    for (size_t k = 0; k < NFIELD_DEFS; k++)
        if (is_word(t, field_defs[k].word)) return &field_defs[k];
    return NULL;
}

/* The field whose px_field_t is f, or NULL. */
static const field_def_t *pattern_def(unsigned f)
{
    for (size_t k = 0; k < NFIELD_DEFS; k++)
        if (field_defs[k].pattern_place && field_defs[k].field == f) return &field_defs[k];
    return NULL;
}

/* The field whose dise_src_t is src, or NULL. */
static const field_def_t *operand_def(unsigned src)
{
    for (size_t k = 0; k < NFIELD_DEFS; k++)
        if (field_defs[k].operand_place && field_defs[k].src == src) return &field_defs[k];
    return NULL;
}

/* field_kind_t of a px_field_t, -1 for none. */
static int field_kind(int f)
{
    const field_def_t *d = f < 0 ? NULL : pattern_def((unsigned)f);
    return d ? d->kind : -1;
}

/* ======================================================================== */
/* Parser: patterns                                                          */
/* ======================================================================== */

static bool add_node(parser_t *ps, const token_t *where, dise_node_t n, int32_t *idx)
{
    ctx_t *c = ps->c;
    dise_program_t *p = c->p;
    if (p->nnodes - ps->node_base >= ACF_MAX_PATTERN_NODES)
        return fail_tok(ps, where, "pattern has more than %d terms and operators", ACF_MAX_PATTERN_NODES);
    *PUSH(p->nodes, p->nnodes, c->cap_nodes) = n;
    *idx = (int32_t)(p->nnodes - 1);
    return true;
}

static bool add_binary(parser_t *ps, const token_t *where, uint8_t kind, int32_t a, int32_t b,
                       int32_t *idx)
{
    return add_node(ps, where, (dise_node_t){ .kind = kind, .a = a, .b = b }, idx);
}

/* The px_field_t a pattern names with t, or -1. */
static int pattern_field(const token_t *t)
{
    const field_def_t *d = field_named(t);
    return d && d->pattern_place ? d->field : -1;
}

static int cmp_of(const token_t *t)
{
    switch (t->kind) {
    case TK_EQ: return CMP_EQ;
    case TK_NE: return CMP_NE;
    case TK_LT: return CMP_LT;
    case TK_LE: return CMP_LE;
    case TK_GT: return CMP_GT;
    case TK_GE: return CMP_GE;
    default:    return -1;
    }
}

/* != on a class or an opcode becomes !(==). */
static bool maybe_not(parser_t *ps, const token_t *where, int cmp, int32_t *idx)
{
    if (cmp != CMP_NE) return true;
    return add_node(ps, where, (dise_node_t){ .kind = PX_NOT, .a = *idx }, idx);
}

static bool parse_class_term(parser_t *ps, const token_t *op, int cmp, int32_t *out)
{
    const token_t *t = cur(ps);
    int cls = -1;
    for (size_t k = 0; k < NGROUPS && cls < 0; k++)
        if (is_word(t, class_groups[k].name)) cls = class_groups[k].cls;
    for (int k = 0; k < OC_COUNT && cls < 0; k++)
        if (is_word(t, opclass_names[k])) cls = k;
    if (cls < 0) {
        if (t->kind != TK_IDENT)
            return fail_expected(ps, t, "an operation class (proc_call, return, branch, jump, "
                                        "mem_op, load, store, indirect, int_alu, ...)");
        return fail_tok(ps, t, "unknown operation class '%.*s': expected proc_call, return, branch, "
                        "jump, mem_op, load, store, indirect or an exact class (int_alu, int_mul, "
                        "fp_load, ...)", (int)(t->len > 40 ? 40 : t->len), t->text);
    }
    advance(ps);
    if (!add_node(ps, op, (dise_node_t){ .kind = PX_CLASS, .value = (uint64_t)cls }, out)) return false;
    return maybe_not(ps, op, cmp, out);
}

static bool parse_opcode_term(parser_t *ps, const token_t *op, int cmp, int32_t *out)
{
    const token_t *t = cur(ps);
    const isa_t *isa = ps->c->env ? ps->c->env->isa : NULL;
    if (t->kind != TK_IDENT) return fail_expected(ps, t, "an instruction mnemonic");
    int n = t->len > 40 ? 40 : (int)t->len;
    if (!isa) return fail_tok(ps, t, "cannot look up mnemonic '%.*s': no instruction set", n, t->text);
    int32_t acc = -1;
    for (size_t k = 0; k < isa->table_size; k++) {
        const char *name = isa->table[k].name;
        if (!name || strlen(name) != t->len || strncasecmp(name, t->text, t->len) != 0) continue;
        int32_t leaf;
        if (!add_node(ps, t, (dise_node_t){ .kind = PX_OPCODE, .value = k }, &leaf)) return false;
        if (acc < 0) acc = leaf;
        else if (!add_binary(ps, t, PX_OR, acc, leaf, &acc)) return false;
    }
    if (acc < 0) {
        bool rvc = t->len > 2 && strncasecmp(t->text, "c.", 2) == 0;
        return fail_tok(ps, t, "'%.*s' is not a mnemonic of %s%s", n, t->text, isa->name,
                        rvc ? " (compressed instructions are matched by their 32-bit equivalents)" : "");
    }
    advance(ps);
    *out = acc;
    return maybe_not(ps, op, cmp, out);
}

/* A register operand as a unified number; x0/zero becomes REG_ZERO for
 * sources and REG_SINK for T.RD, which is how decode records them. */
static bool parse_register(parser_t *ps, int field, uint64_t *out)
{
    const token_t *t = cur(ps);
    const isa_t *isa = ps->c->env ? ps->c->env->isa : NULL;
    uint64_t r = UINT64_MAX, n;
    if (t->kind == TK_NUM) {
        if (t->num < 64) r = t->num;
    } else if (is_numbered(t, "x", &n)) {
        if (n < 32) r = n;
    } else if (is_numbered(t, "f", &n)) {
        if (n < 32) r = REG_FP0 + n;
    }
    if (r == UINT64_MAX && t->kind == TK_IDENT && isa && isa->reg_name) {
        for (unsigned k = 0; k < 64 && r == UINT64_MAX; k++) {
            const char *name = isa->reg_name(k);
            if (name && strlen(name) == t->len && strncasecmp(name, t->text, t->len) == 0) r = k;
        }
    }
    if (r == UINT64_MAX) {
        if (t->kind != TK_IDENT && t->kind != TK_NUM)
            return fail_expected(ps, t, "a register (a0, sp, ft0, x5, f3 or 0..63)");
        return fail_tok(ps, t, "unknown register '%.*s': expected an %s register name (a0, sp, ft0, "
                        "...), x0..x31, f0..f31 or a number 0..63", (int)(t->len > 40 ? 40 : t->len),
                        t->text, isa ? isa->name : "ISA");
    }
    if (r == 0) r = field == FLD_RD ? REG_SINK : REG_ZERO;
    advance(ps);
    *out = r;
    return true;
}

/* The index of the table the name token names, or -1. */
static int find_table(const dise_program_t *p, const token_t *t)
{
    for (size_t k = 0; k < p->ntables; k++)
        if (strlen(p->tables[k].name) == t->len && !memcmp(p->tables[k].name, t->text, t->len))
            return (int)k;
    return -1;
}

/* T.PC in name: one range per function of that name (static functions may
 * share one); a function of size 0 extends to the next symbol. */
static bool parse_symbol_range(parser_t *ps, int field, int32_t *out)
{
    const token_t *t = cur(ps);
    const symtab_t *st = ps->c->env ? ps->c->env->symtab : NULL;
    int n = t->len > 64 ? 64 : (int)t->len;
    if (!st)
        return fail_tok(ps, t, "cannot look up function '%.*s': no program symbols are available", n, t->text);
    int32_t acc = -1;
    for (size_t k = 0; k < st->count; k++) {
        const symbol_t *s = &st->syms[k];
        if (!s->name || strlen(s->name) != t->len || memcmp(s->name, t->text, t->len) != 0) continue;
        uint64_t hi = s->size ? s->addr + s->size : (k + 1 < st->count ? st->syms[k + 1].addr : UINT64_MAX);
        if (hi <= s->addr) hi = UINT64_MAX;
        int32_t leaf;
        dise_node_t node = { .kind = PX_IN_RANGE, .field = (uint8_t)field, .value = s->addr, .hi = hi };
        if (!add_node(ps, t, node, &leaf)) return false;
        if (acc < 0) acc = leaf;
        else if (!add_binary(ps, t, PX_OR, acc, leaf, &acc)) return false;
    }
    if (acc < 0) return fail_tok(ps, t, "no function %.*s in the program", n, t->text);
    advance(ps);
    *out = acc;
    return true;
}

/* field in name | field in [lo, hi) | field in table NAME */
static bool parse_in_term(parser_t *ps, int field, const token_t *fld, int32_t *out)
{
    if (field_kind(field) != ACF_ADDR) {
        char list[128];
        return fail_tok(ps, fld, "only %s can be tested with 'in'",
                        field_list(FS_RANGE, " and ", list, sizeof list));
    }
    if (is_word(cur(ps), "table")) {
        advance(ps);
        const token_t *t = cur(ps);
        int k = is_name(t) ? find_table(ps->c->p, t) : -1;
        if (k < 0) return fail_expected(ps, t, "the name of a table defined before it after 'in table'");
        advance(ps);
        dise_node_t node = { .kind = PX_IN_TABLE, .field = (uint8_t)field, .value = (uint64_t)k };
        return add_node(ps, fld, node, out);
    }
    if (cur(ps)->kind == TK_IDENT) return parse_symbol_range(ps, field, out);
    const token_t *open = cur(ps);
    if (!expect(ps, TK_LBRACK, "a function name or '[' after 'in'")) return false;
    int64_t lo, hi;
    if (!parse_int(ps, false, "the start address of the range", &lo)) return false;
    if (!expect(ps, TK_COMMA, "',' between the bounds of the range")) return false;
    if (!parse_int(ps, false, "the end address of the range", &hi)) return false;
    if (!expect(ps, TK_RPAREN, "')' to close the half-open range [lo, hi)")) return false;
    if ((uint64_t)lo >= (uint64_t)hi)
        return fail_tok(ps, open, "the range [0x%" PRIx64 ", 0x%" PRIx64 ") is empty",
                        (uint64_t)lo, (uint64_t)hi);
    dise_node_t node = { .kind = PX_IN_RANGE, .field = (uint8_t)field,
                         .value = (uint64_t)lo, .hi = (uint64_t)hi };
    return add_node(ps, fld, node, out);
}

/* field op value | field op field2 */
static bool parse_compare(parser_t *ps, int field, const token_t *fld, const token_t *op,
                          int cmp, int32_t *out)
{
    dise_node_t node = { .kind = PX_CMP, .cmp = (uint8_t)cmp, .field = (uint8_t)field };
    const token_t *t = cur(ps);
    int kind = field_kind(field);
    if (kind == ACF_REG) {
        if (cmp != CMP_EQ && cmp != CMP_NE)
            return fail_tok(ps, op, "a register field can only be compared with == or !=");
        if (!parse_register(ps, field, &node.value)) return false;
        return add_node(ps, fld, node, out);
    }
    if (is_field_word(t)) {
        int f2 = pattern_field(t);
        if (!numeric_kind(field_kind(f2))) {
            char list[160];
            return fail_tok(ps, t, "'%.*s' cannot be compared with %.*s: expected a number, or %s",
                            (int)(t->len > 40 ? 40 : t->len), t->text, (int)fld->len, fld->text,
                            field_list(FS_NUMERIC, " or ", list, sizeof list));
        }
        advance(ps);
        node.kind = PX_CMP_FIELD;
        node.field2 = (uint8_t)f2;
        return add_node(ps, fld, node, out);
    }
    int64_t v;
    if (!parse_int(ps, kind == ACF_INT, "a number or a field after the comparison", &v)) return false;
    node.value = (uint64_t)v;
    return add_node(ps, fld, node, out);
}

static bool parse_term(parser_t *ps, int32_t *out)
{
    const token_t *fld = advance(ps);
    int field = pattern_field(fld);
    if (field < 0) {
        int n = fld->len > 40 ? 40 : (int)fld->len;
        char list[160];
        if (field_named(fld))
            return fail_tok(ps, fld, "%.*s cannot be tested in a pattern (it is a replacement operand)",
                            n, fld->text);
        return fail_tok(ps, fld, "unknown field '%.*s': expected %s", n, fld->text,
                        field_list(FS_PATTERN, " or ", list, sizeof list));
    }
    const token_t *op = cur(ps);
    if (is_word(op, "in")) {
        advance(ps);
        return parse_in_term(ps, field, fld, out);
    }
    int cmp = cmp_of(op);
    if (cmp < 0) {
        char buf[64];
        snprintf(buf, sizeof buf, "a comparison (== != < <= > >=) after %.*s", (int)fld->len, fld->text);
        return fail_expected(ps, op, buf);
    }
    advance(ps);
    int kind = field_kind(field);
    if (kind == ACF_CLASS || kind == ACF_OPCODE) {
        if (cmp != CMP_EQ && cmp != CMP_NE)
            return fail_tok(ps, op, "%.*s can only be compared with == or !=", (int)fld->len, fld->text);
        return kind == ACF_CLASS ? parse_class_term(ps, op, cmp, out)
                                 : parse_opcode_term(ps, op, cmp, out);
    }
    return parse_compare(ps, field, fld, op, cmp, out);
}

static bool parse_or(parser_t *ps, unsigned depth, int32_t *out);

static bool parse_primary(parser_t *ps, unsigned depth, int32_t *out)
{
    const token_t *t = cur(ps);
    uint64_t n;
    if (t->kind == TK_LPAREN) {
        if (depth >= ACF_MAX_NESTING)
            return fail_tok(ps, t, "pattern nested more than %d deep", ACF_MAX_NESTING);
        advance(ps);
        if (!parse_or(ps, depth + 1, out)) return false;
        char what[64];
        snprintf(what, sizeof what, "')' to close the '(' at %u:%u", t->line, t->col);
        return expect(ps, TK_RPAREN, what);
    }
    bool ovf = is_numbered(t, "overflow_", &n);
    if (ovf || is_numbered(t, "zero_", &n)) {
        dise_node_t node = { .kind = ovf ? PX_OVERFLOW : PX_ZERO };
        if (!counter_number(ps, t, n, &node.counter)) return false;
        advance(ps);
        return add_node(ps, t, node, out);
    }
    if (is_field_word(t)) return parse_term(ps, out);
    char list[160], what[224];
    snprintf(what, sizeof what, "a pattern term (%s, overflow_N, zero_N), '!' or '('",
             field_list(FS_PATTERN, ", ", list, sizeof list));
    return fail_expected(ps, t, what);
}

static bool parse_not(parser_t *ps, unsigned depth, int32_t *out)
{
    const token_t *t = cur(ps);
    if (t->kind != TK_NOT) return parse_primary(ps, depth, out);
    if (depth >= ACF_MAX_NESTING)
        return fail_tok(ps, t, "pattern nested more than %d deep", ACF_MAX_NESTING);
    advance(ps);
    int32_t a;
    if (!parse_not(ps, depth + 1, &a)) return false;
    return add_node(ps, t, (dise_node_t){ .kind = PX_NOT, .a = a }, out);
}

static bool parse_and(parser_t *ps, unsigned depth, int32_t *out)
{
    int32_t a, b;
    if (!parse_not(ps, depth, &a)) return false;
    while (cur(ps)->kind == TK_AND) {
        const token_t *op = advance(ps);
        if (!parse_not(ps, depth, &b) || !add_binary(ps, op, PX_AND, a, b, &a)) return false;
    }
    *out = a;
    return true;
}

static bool parse_or(parser_t *ps, unsigned depth, int32_t *out)
{
    int32_t a, b;
    if (!parse_and(ps, depth, &a)) return false;
    while (cur(ps)->kind == TK_OR) {
        const token_t *op = advance(ps);
        if (!parse_and(ps, depth, &b) || !add_binary(ps, op, PX_OR, a, b, &a)) return false;
    }
    *out = a;
    return true;
}

/* ======================================================================== */
/* Parser: control lists                                                     */
/* ======================================================================== */

/* set_N( param | number | dK ) */
static bool parse_set_arg(parser_t *ps, raw_ctl_t *it)
{
    const token_t *t = cur(ps);
    if (t->kind == TK_NUM || t->kind == TK_MINUS) {
        it->uop.src = SRC_CONST;
        return parse_int(ps, true, "a number", &it->uop.value);
    }
    if (is_numbered(t, "d", NULL)) {
        uint8_t r = 0;
        if (!dreg_number(ps, t, &r)) return false;
        it->uop.src = SRC_DREG;
        it->uop.value = r;
        return true;
    }
    if (!is_name(t))
        return fail_expected(ps, t, "a parameter name, a number or a DISE register d0..d15 in set_N(...)");
    it->uop.src = SRC_PARAM;
    advance(ps);
    return make_ref(ps, t, &it->ref);
}

static bool parse_ctl_item(parser_t *ps, raw_ctl_t *it)
{
    const token_t *t = cur(ps);
    uint64_t n;
    int kind = is_numbered(t, "inc_", &n) ? UOP_INC : is_numbered(t, "dec_", &n) ? UOP_DEC
             : is_numbered(t, "set_", &n) ? UOP_SET : -1;
    if (kind >= 0) {
        it->uop.kind = (uint8_t)kind;
        if (!counter_number(ps, t, n, &it->uop.counter)) return false;
        advance(ps);
        if (kind != UOP_SET) return true;
        if (!expect(ps, TK_LPAREN, "'(' after set_N")) return false;
        if (!parse_set_arg(ps, it)) return false;
        return expect(ps, TK_RPAREN, "')' to close set_N(...)");
    }
    if (is_word(t, "null"))
        return fail_tok(ps, t, "'null' can only stand alone, as the whole control list");
    if (!is_name(t))
        return fail_expected(ps, t, "a micro-op (inc_N, dec_N, set_N(x)) or a control list name");
    it->is_name = true;
    advance(ps);
    return make_ref(ps, t, &it->ref);
}

/* item { (,|;) item } with an optional trailing separator; the list ends at
 * the next statement. */
static bool parse_ctl_list(parser_t *ps, raw_ctl_t **items, size_t *n, size_t *cap)
{
    for (;;) {
        if (!parse_ctl_item(ps, PUSH(*items, *n, *cap))) return false;
        bool sep = false;
        while (cur(ps)->kind == TK_COMMA || cur(ps)->kind == TK_SEMI) {
            advance(ps);
            sep = true;
        }
        if (statement_start(ps, ps->pos)) return true;
        if (!sep) return fail_expected(ps, cur(ps), "',' or ';' between micro-ops, or the next statement");
    }
}

/* ======================================================================== */
/* Parser: replacement sequences                                             */
/* ======================================================================== */

/* A source operand: number, parameter, dK, T.field or counter_N. */
static bool parse_src(parser_t *ps, raw_insn_t *ri)
{
    const token_t *t = cur(ps);
    const field_def_t *d = field_named(t);
    uint64_t n;
    if (t->kind == TK_NUM || t->kind == TK_MINUS) {
        ri->src = SRC_CONST;
        return parse_int(ps, true, "a number", &ri->value);
    }
    if (is_numbered(t, "d", NULL)) {
        uint8_t r = 0;
        if (!dreg_number(ps, t, &r)) return false;
        ri->src = SRC_DREG;
        ri->value = r;
        return true;
    }
    if (is_numbered(t, "counter_", &n)) {
        uint8_t k = 0;
        if (!counter_number(ps, t, n, &k)) return false;
        advance(ps);
        ri->src = SRC_COUNTER;
        ri->value = k;
        return true;
    }
    if (d && d->operand_place) {
        advance(ps);
        ri->src = d->src;
        return true;
    }
    int k = is_name(t) && peek(ps, 1)->kind == TK_LBRACK ? find_table(ps->c->p, t) : -1;
    if (k >= 0) {                                   /* NAME[k]: a table's column ('[' after */
        advance(ps);                                /* a parameter is the next [role])     */
        advance(ps);
        int64_t col;
        if (!parse_int(ps, false, "a column number 0..23", &col)) return false;
        if (col >= DISE_TABLE_COLS) return fail_tok(ps, t, "column %" PRId64 " of table %s: tables have columns 0..%d",
                                                    col, ps->c->p->tables[k].name, DISE_TABLE_COLS - 1);
        if (!expect(ps, TK_RBRACK, "']' after the column number")) return false;
        ri->src = SRC_TABLE;
        ri->value = (int64_t)k * DISE_TABLE_COLS + col;
        return true;
    }
    if (!is_name(t)) {
        char list[160], what[224];
        snprintf(what, sizeof what, "a source operand (a number, a parameter, d0..d15, %s or counter_N)",
                 field_list(FS_OPERAND, ", ", list, sizeof list));
        return fail_expected(ps, t, what);
    }
    advance(ps);
    ri->src = SRC_PARAM;
    return make_ref(ps, t, &ri->ref);
}

/* A label operand of beqz/bnez/j. */
static bool parse_label_ref(parser_t *ps, raw_insn_t *ri)
{
    const token_t *t = cur(ps);
    if (!is_name(t)) return fail_expected(ps, t, "a label");
    advance(ps);
    return make_ref(ps, t, &ri->ref);
}

/* Operands of mov/add/sub/beqz/bnez/j/call after the mnemonic. */
static bool parse_operands(parser_t *ps, raw_insn_t *ri)
{
    switch (ri->op) {
    case DOP_CALL: {
        if (!expect(ps, TK_LPAREN, "'(' after call")) return false;
        const token_t *t = cur(ps);
        if (!is_name(t)) return fail_expected(ps, t, "a handler name in call(...)");
        advance(ps);
        if (!make_ref(ps, t, &ri->ref)) return false;
        return expect(ps, TK_RPAREN, "')' to close call(...)");
    }
    case DOP_MOV:
        return dreg_number(ps, cur(ps), &ri->rd) &&
               expect(ps, TK_COMMA, "',' after the destination register") && parse_src(ps, ri);
    case DOP_ADD:
    case DOP_SUB:
        return dreg_number(ps, cur(ps), &ri->rd) &&
               expect(ps, TK_COMMA, "',' after the destination register") &&
               dreg_number(ps, cur(ps), &ri->rs) &&
               expect(ps, TK_COMMA, "',' after the first source register") && parse_src(ps, ri);
    case DOP_BEQZ:
    case DOP_BNEZ:
        return dreg_number(ps, cur(ps), &ri->rs) &&
               expect(ps, TK_COMMA, "',' after the tested register") && parse_label_ref(ps, ri);
    case DOP_TALLY:
        return dreg_number(ps, cur(ps), &ri->rs);
    default: /* DOP_JUMP */
        return parse_label_ref(ps, ri);
    }
}

/* [role] instruction, appended to definition k. */
static bool parse_insn(parser_t *ps, size_t k, uint8_t role)
{
    static const struct { const char *name; uint8_t op; } ops[] = {
        { "call", DOP_CALL }, { "mov", DOP_MOV }, { "add", DOP_ADD }, { "sub", DOP_SUB },
        { "beqz", DOP_BEQZ }, { "bnez", DOP_BNEZ }, { "j", DOP_JUMP }, { "tally", DOP_TALLY },
    };
    const token_t *prefix = NULL;
    if (cur(ps)->kind == TK_LBRACK) {
        prefix = advance(ps);
        const token_t *t = cur(ps);
        int r = -1;
        for (int i = DISE_ROLE_CHECK; i < DISE_ROLE_COUNT && r < 0; i++)
            if (is_word(t, role_words[i])) r = i;
        if (r < 0) return fail_expected(ps, t, "a role (check, basic or sample)");
        advance(ps);
        if (!expect(ps, TK_RBRACK, "']' after the role")) return false;
        role = (uint8_t)r;
    }
    def_t *d = &ps->c->defs[k];
    const token_t *t = cur(ps);
    raw_insn_t *ri = PUSH(d->ins, d->nins, d->cap_ins);
    ri->role = role;
    ri->ref = here(ps, t);
    if (is_word(t, "T.INSN") || (is_name(t) && peek(ps, 1)->kind != TK_COLON)) {
        if (prefix)
            return fail_tok(ps, prefix, "a role prefix applies to a DISE instruction, not to T.INSN "
                            "or a spliced sequence");
        advance(ps);
        if (is_word(t, "T.INSN")) {
            ri->op = DOP_INSN;
            ri->role = DISE_ROLE_NONE;
            return true;
        }
        ri->op = RAW_SPLICE;
        return make_ref(ps, t, &ri->ref);
    }
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (is_word(t, ops[i].name)) {
            advance(ps);
            ri->op = ops[i].op;
            return parse_operands(ps, ri);
        }
    return fail_expected(ps, t, "a replacement instruction (T.INSN, call, mov, add, sub, beqz, bnez, j "
                                "or a sequence name)");
}

static bool add_label(parser_t *ps, size_t k, const token_t *t)
{
    def_t *d = &ps->c->defs[k];
    ref_t at;
    if (!make_ref(ps, t, &at)) return false;
    name_slot_t *e = map_slot(&d->labelmap, at.name, strlen(at.name), true);
    if (e->b)
        return fail_tok(ps, t, "label '%s' is already defined in '%s' at %u:%u", at.name,
                        d->at.name, d->labels[e->a].at.line, d->labels[e->a].at.col);
    e->a = d->nlabels;
    e->b = 1;                                       /* defined */
    label_t *l = PUSH(d->labels, d->nlabels, d->cap_labels);
    memcpy(l->name, at.name, sizeof l->name);
    l->pos = d->nins;
    l->at = at;
    return true;
}

static bool parse_seq(parser_t *ps, size_t k, size_t body)
{
    for (;;) {
        const token_t *t = cur(ps);
        if (t->kind == TK_SEMI) {
            advance(ps);
            continue;
        }
        if (hard_boundary(ps, ps->pos)) break;
        if (is_name(t) && peek(ps, 1)->kind == TK_COLON) {
            if (!is_target(ps, body, t)) break;        /* the next statement */
            if (!add_label(ps, k, t)) return false;
            ps->pos += 2;
            continue;
        }
        if (!parse_insn(ps, k, ps->c->defs[k].role)) return false;
    }
    def_t *d = &ps->c->defs[k];
    if (d->nins == 0) {
        if (cur(ps)->kind == TK_ERROR) return fail_lex(ps, cur(ps));
        return fail_ref(ps->c, &d->at, "replacement sequence '%s' has no instructions", d->at.name);
    }
    return true;
}

/* NAME: A, B ... : names whose kind decides how the list is used. */
static bool parse_names(parser_t *ps, size_t k)
{
    for (;;) {
        const token_t *t = cur(ps);
        if (t->kind == TK_SEMI || t->kind == TK_COMMA) {
            advance(ps);
            continue;
        }
        if (statement_start(ps, ps->pos)) return true;
        if (!is_name(t))
            return fail_expected(ps, t, "a replacement sequence or control list name");
        def_t *d = &ps->c->defs[k];
        raw_ctl_t *it = PUSH(d->items, d->nitems, d->cap_items);
        it->is_name = true;
        advance(ps);
        if (!make_ref(ps, t, &it->ref)) return false;
    }
}

/* ======================================================================== */
/* Parser: statements                                                        */
/* ======================================================================== */

/* What the body of "NAME:" is, from its first tokens; -1 = none. */
static int body_kind(parser_t *ps, size_t body)
{
    const token_t *t = cur(ps);
    if (is_word(t, "T.INSN") || is_insn_word(t) || t->kind == TK_LBRACK) return DEF_SEQ;
    if (is_field_word(t) || is_flag_word(t) || t->kind == TK_NOT || t->kind == TK_LPAREN) return DEF_PROD;
    if (is_uop_word(t)) return DEF_CTL;
    if (!is_name(t) || hard_boundary(ps, ps->pos)) return -1;   /* nothing: the next statement */
    /* names first: the first token that is not a name or separator decides */
    for (size_t i = ps->pos;; i++) {
        const token_t *u = tok_at(ps, i);
        if (u->kind == TK_COMMA || u->kind == TK_SEMI) continue;
        if (is_name(u) && tok_at(ps, i + 1)->kind == TK_COLON) {
            if (is_target(ps, body, u)) return DEF_SEQ;        /* a label */
            return i == ps->pos ? -1 : DEF_NAMES;             /* the next statement */
        }
        if (is_name(u) && !hard_boundary(ps, i)) continue;
        if (is_uop_word(u)) return DEF_CTL;
        if (is_word(u, "T.INSN") || is_insn_word(u) || u->kind == TK_LBRACK) return DEF_SEQ;
        return DEF_NAMES;
    }
}

static bool parse_production(parser_t *ps, size_t k)
{
    ctx_t *c = ps->c;
    ps->node_base = c->p->nnodes;
    int32_t root;
    if (!parse_or(ps, 0, &root)) return false;
    def_t *d = &c->defs[k];
    d->pattern = root;
    if (!expect(ps, TK_ARROW, "'=>' after the pattern")) return false;
    const token_t *t = cur(ps);
    if (is_word(t, "null")) {
        advance(ps);
    } else if (is_name(t)) {
        advance(ps);
        d->has_repl = true;
        if (!make_ref(ps, t, &d->repl)) return false;
    } else {
        return fail_expected(ps, t, "a replacement sequence name or 'null' after '=>'");
    }
    if (!accept(ps, TK_COMMA)) {
        if (statement_start(ps, ps->pos) || cur(ps)->kind == TK_SEMI) return true;
        return fail_expected(ps, cur(ps), "',' and a control list after the replacement, or the next statement");
    }
    if (is_word(cur(ps), "null")) {
        advance(ps);
        return true;
    }
    d->has_ctl = true;
    return parse_ctl_list(ps, &d->items, &d->nitems, &d->cap_items);
}

/* NAME [role]: body */
static bool parse_definition(parser_t *ps)
{
    ctx_t *c = ps->c;
    const token_t *name = advance(ps);
    ref_t at;
    if (!make_ref(ps, name, &at)) return false;
    int role = -1;
    if (accept(ps, TK_LBRACK)) {
        const token_t *t = cur(ps);
        for (int i = DISE_ROLE_CHECK; i < DISE_ROLE_COUNT && role < 0; i++)
            if (is_word(t, role_words[i])) role = i;
        if (role < 0) return fail_expected(ps, t, "a role (check, basic or sample)");
        advance(ps);
        if (!expect(ps, TK_RBRACK, "']' after the role")) return false;
    }
    if (cur(ps)->kind != TK_COLON) {
        char what[96];
        snprintf(what, sizeof what, "':' after '%s'", at.name);
        return fail_expected(ps, cur(ps), what);
    }
    advance(ps);
    int prev = find_def(c, at.name);
    if (prev >= 0) {
        const ref_t *p0 = &c->defs[prev].at;
        return fail_ref(c, &at, "'%s' is already defined at %s:%u:%u", at.name, c->p->files[p0->file],
                        p0->line, p0->col);
    }
    if (c->ndefs >= ACF_MAX_DEFS) return fail_ref(c, &at, "more than %d definitions", ACF_MAX_DEFS);

    size_t body = ps->pos;
    int kind = role >= 0 ? DEF_SEQ : body_kind(ps, body);
    bool ok = false;
    if (kind < 0) {
        char what[128];
        snprintf(what, sizeof what, "a pattern, a control list or a replacement sequence after '%s:'", at.name);
        ok = fail_expected(ps, cur(ps), what);
    } else if (kind == DEF_PROD && c->nprods >= DISE_MAX_PRODUCTIONS) {
        ok = fail_ref(c, &at, "more than %d productions", DISE_MAX_PRODUCTIONS);
    } else {
        size_t k = c->ndefs;
        map_slot(&c->defmap, at.name, strlen(at.name), true)->a = k;
        def_t *d = PUSH(c->defs, c->ndefs, c->cap_defs);
        d->kind = (uint8_t)kind;
        d->role = role >= 0 ? (uint8_t)role : DISE_ROLE_SAMPLE;
        d->at = at;
        d->pattern = d->repl_idx = d->ctl_idx = -1;
        switch (kind) {
        case DEF_PROD:
            c->nprods++;
            ok = parse_production(ps, k);
            break;
        case DEF_CTL:
            ok = parse_ctl_list(ps, &d->items, &d->nitems, &d->cap_items);
            break;
        case DEF_SEQ:
            ok = parse_seq(ps, k, body);
            break;
        default:
            ok = parse_names(ps, k);
            break;
        }
    }
    return ok;
}

static bool parse_param(parser_t *ps)
{
    ctx_t *c = ps->c;
    dise_program_t *p = c->p;
    advance(ps);
    const token_t *t = cur(ps);
    if (!is_name(t)) return fail_expected(ps, t, "a parameter name after 'param'");
    ref_t at;
    if (!make_ref(ps, t, &at)) return false;
    advance(ps);
    int prev = find_param(p, at.name);
    if (prev >= 0) {
        const ref_t *p0 = &c->param_at[prev];
        return fail_ref(c, &at, "parameter '%s' is already declared at %s:%u:%u", at.name,
                        p->files[p0->file], p0->line, p0->col);
    }
    if (p->nparams >= DISE_MAX_PARAMS)
        return fail_ref(c, &at, "more than %d parameters", DISE_MAX_PARAMS);
    if (!expect(ps, TK_ASSIGN, "'=' after the parameter name")) return false;
    int64_t v;
    if (!parse_int(ps, true, "the parameter's value (a number)", &v)) return false;
    memcpy(p->params[p->nparams].name, at.name, sizeof at.name);
    p->params[p->nparams].value = v;
    c->param_at[p->nparams++] = at;
    return true;
}

static bool parse_init(parser_t *ps)
{
    ctx_t *c = ps->c;
    const token_t *t = advance(ps);
    if (!expect(ps, TK_COLON, "':' after 'init'")) return false;
    if (!c->has_init) c->init_at = here(ps, t);
    c->has_init = true;
    return parse_ctl_list(ps, &c->init, &c->ninit, &c->cap_init);
}

static int cmp_row(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sort a table's rows by pc (the values move with their pc); false on a
 * pc given twice (*dup = it). */
static bool sort_table(dise_table_t *t, uint64_t *dup)
{
    size_t n = t->nrows, w = 1 + DISE_TABLE_COLS;
    uint64_t *rows = xcalloc(n * w + 1, sizeof *rows);
    for (size_t k = 0; k < n; k++) {
        rows[k * w] = t->pcs[k];
        memcpy(&rows[k * w + 1], &t->vals[k * DISE_TABLE_COLS], DISE_TABLE_COLS * sizeof *t->vals);
    }
    qsort(rows, n, w * sizeof *rows, cmp_row);
    bool ok = true;
    for (size_t k = 0; k < n; k++) {
        t->pcs[k] = rows[k * w];
        memcpy(&t->vals[k * DISE_TABLE_COLS], &rows[k * w + 1], DISE_TABLE_COLS * sizeof *t->vals);
        if (k && t->pcs[k] == t->pcs[k - 1] && ok) {
            *dup = t->pcs[k];
            ok = false;
        }
    }
    free(rows);
    return ok;
}

/* table NAME [PC: v0 v1 ...; PC: ...] */
static bool parse_table(parser_t *ps)
{
    dise_program_t *p = ps->c->p;
    advance(ps);
    const token_t *t = cur(ps);
    if (!is_name(t)) return fail_expected(ps, t, "a table name after 'table'");
    if (find_table(p, t) >= 0) return fail_tok(ps, t, "table '%.*s' is already defined",
                                               (int)(t->len > 40 ? 40 : t->len), t->text);
    ref_t at;
    if (!make_ref(ps, t, &at)) return false;
    advance(ps);
    if (!expect(ps, TK_LBRACK, "'[' to open the table's rows")) return false;
    p->tables = xrealloc(p->tables, (p->ntables + 1) * sizeof *p->tables);
    dise_table_t *tb = &p->tables[p->ntables++];
    memset(tb, 0, sizeof *tb);
    memcpy(tb->name, at.name, sizeof tb->name);
    size_t cap = 0;
    while (cur(ps)->kind != TK_RBRACK) {
        int64_t pc;
        if (!parse_int(ps, false, "a row's pc (or ']' to close the table)", &pc)) return false;
        if (!expect(ps, TK_COLON, "':' after the row's pc")) return false;
        if (tb->nrows == cap) {
            cap = cap ? 2 * cap : 64;
            tb->pcs = xrealloc(tb->pcs, cap * sizeof *tb->pcs);
            tb->vals = xrealloc(tb->vals, cap * DISE_TABLE_COLS * sizeof *tb->vals);
        }
        int64_t *row = &tb->vals[tb->nrows * DISE_TABLE_COLS];
        memset(row, 0, DISE_TABLE_COLS * sizeof *row);
        tb->pcs[tb->nrows++] = (uint64_t)pc;
        for (int k = 0; cur(ps)->kind == TK_NUM || cur(ps)->kind == TK_MINUS; k++) {
            if (k == DISE_TABLE_COLS)
                return fail_tok(ps, cur(ps), "more than %d values in a row of table %s", DISE_TABLE_COLS, tb->name);
            if (!parse_int(ps, true, "a value", &row[k])) return false;
        }
        if (cur(ps)->kind != TK_RBRACK && !expect(ps, TK_SEMI, "';' between rows or ']' after the last"))
            return false;
    }
    advance(ps);
    uint64_t dup = 0;
    if (!sort_table(tb, &dup))
        return fail_ref(ps->c, &at, "table %s has two rows for pc 0x%" PRIx64, tb->name, dup);
    return true;
}

const int64_t *dise_table_row(const dise_table_t *t, uint64_t pc)
{
    size_t lo = 0, hi = t->nrows;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->pcs[mid] < pc) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->nrows && t->pcs[lo] == pc ? &t->vals[lo * DISE_TABLE_COLS] : NULL;
}

static bool parse_path(ctx_t *c, const char *path, const ref_t *from);

static bool parse_include(parser_t *ps)
{
    advance(ps);
    const token_t *t = cur(ps);
    if (t->kind != TK_STR) return fail_expected(ps, t, "a file name in double quotes after 'include'");
    advance(ps);
    ref_t from = here(ps, t);
    if (t->len == 0) return fail_ref(ps->c, &from, "empty file name");
    if (t->len > PATH_MAX) return fail_ref(ps->c, &from, "file name longer than %d bytes", PATH_MAX);
    bool relative = t->text[0] != '/' && ps->dir[0];
    size_t n = (relative ? strlen(ps->dir) + 1 : 0) + t->len + 1;
    char *path = xcalloc(n, 1);
    snprintf(path, n, "%s%s%.*s", relative ? ps->dir : "", relative ? "/" : "", (int)t->len, t->text);
    bool ok = parse_path(ps->c, path, &from);
    free(path);
    return ok;
}

static bool parse_statement(parser_t *ps)
{
    const token_t *t = cur(ps);
    if (is_word(t, "include")) return parse_include(ps);
    if (is_word(t, "param")) return parse_param(ps);
    if (is_word(t, "init")) return parse_init(ps);
    if (is_word(t, "table")) return parse_table(ps);
    if (is_name(t)) return parse_definition(ps);
    if (t->kind == TK_IDENT && (peek(ps, 1)->kind == TK_COLON || peek(ps, 1)->kind == TK_LBRACK))
        return fail_tok(ps, t, "'%.*s' is a reserved word and cannot name a definition",
                        (int)(t->len > 40 ? 40 : t->len), t->text);
    return fail_expected(ps, t, "a statement (NAME:, NAME [role]:, param, include, init or table)");
}

static bool parse_text(ctx_t *c, uint32_t file, const char *text, size_t len, const char *dir)
{
    parser_t ps = { .c = c, .file = file, .dir = dir };
    ps.toks = tokenize(text, len, &ps.ntok);
    ps.scanned_end = SIZE_MAX;
    find_hard_boundaries(&ps);
    bool ok = true;
    while (ok && cur(&ps)->kind != TK_EOF) {
        if (cur(&ps)->kind == TK_SEMI) advance(&ps);
        else ok = parse_statement(&ps);
    }
    free(ps.toks);
    free(ps.next_hard);
    map_free(&ps.targets);
    return ok;
}

/* ---- files ------------------------------------------------------------- */

static uint32_t add_file(ctx_t *c, const char *name)
{
    dise_program_t *p = c->p;
    *PUSH(p->files, p->nfiles, c->cap_files) = xstrdup(name);
    return (uint32_t)(p->nfiles - 1);
}

/* Read a regular file whole; NULL with the reason in why.  Opened
 * non-blocking so that a FIFO or a device is refused, not waited on. */
static char *read_file(const char *path, size_t *len, char *why, size_t whylen)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        snprintf(why, whylen, "%s", strerror(errno));
        return NULL;
    }
    struct stat st;
    char *buf = NULL;
    if (fstat(fd, &st) != 0) snprintf(why, whylen, "%s", strerror(errno));
    else if (!S_ISREG(st.st_mode)) snprintf(why, whylen, "not a regular file");
    else if (st.st_size > ACF_MAX_FILE_BYTES) snprintf(why, whylen, "larger than %d bytes", ACF_MAX_FILE_BYTES);
    else {
        size_t size = (size_t)st.st_size, got = 0;
        buf = xcalloc(size + 1, 1);
        while (got < size) {
            ssize_t n = read(fd, buf + got, size - got);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) break;
            got += (size_t)n;
        }
        *len = got;
    }
    close(fd);
    return buf;
}

/* Parse the file at path (once per realpath) in place of the include at
 * `from`, or as the top-level file (from == NULL, already files[0]). */
static bool parse_path(ctx_t *c, const char *path, const ref_t *from)
{
    ref_t top = { .file = 0, .line = 1, .col = 1 };
    const ref_t *at = from ? from : &top;
    char *real = realpath(path, NULL);
    if (!real) return fail_ref(c, at, "cannot read '%s': %s", path, strerror(errno));
    for (size_t k = 0; k < c->nseen; k++)
        if (strcmp(c->seen[k], real) == 0) {
            free(real);
            return true;                            /* each file is read once */
        }
    if (from && c->depth >= ACF_MAX_INCLUDE_DEPTH) {
        free(real);
        return fail_ref(c, at, "includes nested more than %d deep", ACF_MAX_INCLUDE_DEPTH);
    }
    *PUSH(c->seen, c->nseen, c->cap_seen) = real;
    char why[128];
    size_t len = 0;
    char *text = read_file(path, &len, why, sizeof why);
    if (!text) return fail_ref(c, at, "cannot read '%s': %s", path, why);
    uint32_t file = from ? add_file(c, path) : 0;
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup("");
    if (!dir) dir = xstrdup("");
    c->depth += from != NULL;                       /* the top file is depth 0 */
    bool ok = parse_text(c, file, text, len, dir);
    c->depth -= from != NULL;
    free(dir);
    free(text);
    return ok;
}

/* ======================================================================== */
/* Resolution: names, splicing, emission                                     */
/* ======================================================================== */

static const char *kind_phrase(int kind)
{
    switch (kind) {
    case DEF_PROD: return "a production";
    case DEF_CTL:  return "a control list";
    case DEF_SEQ:  return "a replacement sequence";
    default:       return "a list of names";
    }
}

/* The definition a splice names, which must be usable as `use`. */
static bool lookup_use(ctx_t *c, const ref_t *r, int use, int *out)
{
    const char *want = use == USE_SEQ ? "replacement sequence" : "control list";
    int k = find_def(c, r->name);
    if (k < 0) return fail_ref(c, r, "undefined %s '%s'", want, r->name);
    const def_t *d = &c->defs[k];
    int wrong = use == USE_SEQ ? DEF_CTL : DEF_SEQ;
    if (d->kind == DEF_PROD || d->kind == wrong)
        return fail_ref(c, r, "'%s' is %s (%s:%u), not a %s", r->name, kind_phrase(d->kind),
                        c->p->files[d->at.file], d->at.line, want);
    *out = k;
    return true;
}

static bool check_param(ctx_t *c, const ref_t *r, int64_t *value)
{
    int k = find_param(c->p, r->name);
    if (k < 0) return fail_ref(c, r, "undefined parameter '%s': declare it with 'param %s = VALUE'",
                               r->name, r->name);
    *value = k;
    return true;
}

static bool cycle_error(ctx_t *c, const ref_t *r, int target)
{
    char chain[256] = "";
    size_t from = 0;
    while (from < c->nstack && c->stack[from] != target) from++;
    for (size_t i = from; i < c->nstack; i++) {
        size_t n = strlen(chain);
        snprintf(chain + n, sizeof chain - n, "'%s' -> ", c->defs[c->stack[i]].at.name);
    }
    size_t n = strlen(chain);
    snprintf(chain + n, sizeof chain - n, "'%s'", c->defs[target].at.name);
    return fail_ref(c, r, "splice cycle: %s", chain);
}

static bool measure(ctx_t *c, int k, int use, size_t *len);

/* Length of what `r` splices in, checking it on the way. */
static bool splice_len(ctx_t *c, const ref_t *r, int use, size_t *len)
{
    int t;
    if (!lookup_use(c, r, use, &t)) return false;
    if (c->defs[t].state[use] == ST_ACTIVE) return cycle_error(c, r, t);
    return measure(c, t, use, len);
}

/* Check one instruction of a sequence: its label and parameter. */
static bool check_insn(ctx_t *c, def_t *d, raw_insn_t *ri)
{
    if (ri->op == DOP_BEQZ || ri->op == DOP_BNEZ || ri->op == DOP_JUMP) {
        name_slot_t *e = map_slot(&d->labelmap, ri->ref.name, strlen(ri->ref.name), false);
        if (e) {
            ri->value = (int64_t)e->a;
            return true;
        }
        return fail_ref(c, &ri->ref, "undefined label '%s' in '%s' (labels are local to their sequence)",
                        ri->ref.name, d->at.name);
    }
    if ((ri->op == DOP_MOV || ri->op == DOP_ADD || ri->op == DOP_SUB) && ri->src == SRC_PARAM)
        return check_param(c, &ri->ref, &ri->value);
    return true;
}

/* Check control-list items (parameters, names) and add up their length. */
static bool measure_items(ctx_t *c, raw_ctl_t *items, size_t n, int use, const ref_t *owner, size_t *len)
{
    size_t total = 0;
    for (size_t i = 0; i < n; i++) {
        raw_ctl_t *it = &items[i];
        size_t sub = 1;
        if (it->is_name) {
            if (!splice_len(c, &it->ref, use, &sub)) return false;
        } else if (it->uop.kind == UOP_SET && it->uop.src == SRC_PARAM) {
            if (!check_param(c, &it->ref, &it->uop.value)) return false;
        }
        total += sub;
        if (total > (use == USE_SEQ ? ACF_MAX_RT : ACF_MAX_UOPS))
            return fail_ref(c, owner, "'%s' is longer than %d %s after splicing", owner->name,
                            use == USE_SEQ ? ACF_MAX_RT : ACF_MAX_UOPS,
                            use == USE_SEQ ? "instructions" : "micro-ops");
    }
    *len = total;
    return true;
}

/* Check definition k as used (a sequence or a control list) and compute
 * its length after splicing; memoized, cycles reported. */
static bool measure(ctx_t *c, int k, int use, size_t *len)
{
    def_t *d = &c->defs[k];
    if (d->state[use] == ST_DONE) {
        *len = d->xlen[use];
        return true;
    }
    d->state[use] = ST_ACTIVE;
    *PUSH(c->stack, c->nstack, c->cap_stack) = k;
    size_t total = 0;
    bool ok = true;
    if (d->kind == DEF_SEQ) {
        for (size_t i = 0; ok && i < d->nins; i++) {
            raw_insn_t *ri = &d->ins[i];
            size_t sub = 1;
            ok = ri->op == RAW_SPLICE ? splice_len(c, &ri->ref, USE_SEQ, &sub) : check_insn(c, d, ri);
            total += sub;
            if (ok && total > ACF_MAX_RT)
                ok = fail_ref(c, &d->at, "'%s' is longer than %d instructions after splicing",
                              d->at.name, ACF_MAX_RT);
        }
    } else {
        ok = measure_items(c, d->items, d->nitems, use, &d->at, &total);
    }
    if (!ok) return false;
    c->nstack--;
    d->state[use] = ST_DONE;
    d->xlen[use] = total;
    *len = total;
    return true;
}

static void note_counter(dise_program_t *p, unsigned n)
{
    if (n > p->max_counter) p->max_counter = n;
}

static bool handler_index(ctx_t *c, const ref_t *r, uint32_t *out)
{
    dise_program_t *p = c->p;
    for (size_t h = 0; h < p->nhandlers; h++)
        if (strcmp(p->handlers[h], r->name) == 0) {
            *out = (uint32_t)h;
            return true;
        }
    if (p->nhandlers >= DISE_MAX_HANDLERS)
        return fail_ref(c, r, "more than %d distinct handlers", DISE_MAX_HANDLERS);
    memcpy(p->handlers[p->nhandlers], r->name, DISE_NAME_MAX);
    *out = (uint32_t)p->nhandlers++;
    return true;
}

/* Append definition k, spliced, to the replacement table (already measured). */
static bool emit_seq(ctx_t *c, int k)
{
    dise_program_t *p = c->p;
    const def_t *d = &c->defs[k];
    if (d->kind == DEF_NAMES) {
        for (size_t i = 0; i < d->nitems; i++)
            if (!emit_seq(c, find_def(c, d->items[i].ref.name))) return false;
        return true;
    }
    size_t *pos = xcalloc(d->nins + 1, sizeof *pos);   /* rt index of each raw insn */
    bool ok = true;
    for (size_t i = 0; ok && i < d->nins; i++) {
        const raw_insn_t *ri = &d->ins[i];
        pos[i] = p->nrt;
        if (ri->op == RAW_SPLICE) {
            ok = emit_seq(c, find_def(c, ri->ref.name));
            continue;
        }
        dise_rinsn_t *out = PUSH(p->rt, p->nrt, c->cap_rt);
        *out = (dise_rinsn_t){ .op = ri->op, .rd = ri->rd, .rs = ri->rs, .src = ri->src,
                               .role = ri->role, .value = ri->value };
        if (ri->op == DOP_CALL) ok = handler_index(c, &ri->ref, &out->target);
        if (ri->src == SRC_COUNTER && ri->op >= DOP_MOV && ri->op <= DOP_SUB)
            note_counter(p, (unsigned)ri->value);
    }
    pos[d->nins] = p->nrt;
    for (size_t i = 0; ok && i < d->nins; i++) {
        const raw_insn_t *ri = &d->ins[i];
        if (ri->op == DOP_BEQZ || ri->op == DOP_BNEZ || ri->op == DOP_JUMP) {
            p->rt[pos[i]].target = (uint32_t)pos[d->labels[ri->value].pos];
            p->rt[pos[i]].value = 0;
        }
    }
    free(pos);
    return ok;
}

/* Append control items, spliced, to the micro-op table (already measured). */
static void emit_items(ctx_t *c, const raw_ctl_t *items, size_t n)
{
    dise_program_t *p = c->p;
    for (size_t i = 0; i < n; i++) {
        if (items[i].is_name) {
            const def_t *d = &c->defs[find_def(c, items[i].ref.name)];
            emit_items(c, d->items, d->nitems);
        } else {
            *PUSH(p->uops, p->nuops, c->cap_uops) = items[i].uop;
            note_counter(p, items[i].uop.counter);
        }
    }
}

/* A conditionals-table entry for a list.  With `share`, a list that is one
 * name shares that name's entry (init always gets an entry of its own). */
static bool make_ctl(ctx_t *c, raw_ctl_t *items, size_t n, const ref_t *owner, const char *name,
                     bool share, int32_t *out)
{
    dise_program_t *p = c->p;
    int named = -1;
    if (share && n == 1 && items[0].is_name) {
        if (!lookup_use(c, &items[0].ref, USE_CTL, &named)) return false;
        if (c->defs[named].ctl_idx >= 0) {
            *out = c->defs[named].ctl_idx;
            return true;
        }
    }
    size_t len;
    if (!measure_items(c, items, n, USE_CTL, owner, &len)) return false;
    if (p->nuops + len > ACF_MAX_UOPS)
        return fail_ref(c, owner, "more than %d micro-ops in all", ACF_MAX_UOPS);
    dise_ctl_t *ctl = PUSH(p->ctls, p->nctls, c->cap_ctls);
    snprintf(ctl->name, sizeof ctl->name, "%s", named >= 0 ? c->defs[named].at.name : name);
    ctl->start = (uint32_t)p->nuops;
    emit_items(c, items, n);
    ctl->len = (uint32_t)(p->nuops - ctl->start);
    *out = (int32_t)(p->nctls - 1);
    if (named >= 0) c->defs[named].ctl_idx = *out;
    return true;
}

static bool make_repl(ctx_t *c, const ref_t *r, int32_t *out)
{
    dise_program_t *p = c->p;
    int k;
    size_t len;
    if (!lookup_use(c, r, USE_SEQ, &k)) return false;
    if (c->defs[k].repl_idx >= 0) {
        *out = c->defs[k].repl_idx;
        return true;
    }
    if (!measure(c, k, USE_SEQ, &len)) return false;
    if (p->nrt + len > ACF_MAX_RT)
        return fail_ref(c, r, "more than %d replacement instructions in all", ACF_MAX_RT);
    dise_repl_t *rp = PUSH(p->repls, p->nrepls, c->cap_repls);
    const def_t *d = &c->defs[k];
    memcpy(rp->name, d->at.name, sizeof rp->name);
    rp->start = (uint32_t)p->nrt;
    rp->line = d->at.line;
    rp->file = p->files[d->at.file];
    *out = (int32_t)(p->nrepls - 1);
    if (!emit_seq(c, k)) return false;
    rp = &p->repls[*out];
    rp->len = (uint32_t)(p->nrt - rp->start);
    c->defs[k].repl_idx = *out;
    return true;
}

static bool resolve_production(ctx_t *c, int k)
{
    dise_program_t *p = c->p;
    def_t *d = &c->defs[k];
    dise_production_t *pr = PUSH(p->prods, p->nprods, c->cap_prods);
    memcpy(pr->name, d->at.name, sizeof pr->name);
    pr->pattern = d->pattern;
    pr->repl = pr->ctl = -1;
    pr->file = p->files[d->at.file];
    pr->line = d->at.line;
    int32_t repl = -1, ctl = -1;
    if (d->has_repl && !make_repl(c, &d->repl, &repl)) return false;
    if (d->has_ctl && !make_ctl(c, d->items, d->nitems, &d->at, "", true, &ctl)) return false;
    pr = &p->prods[p->nprods - 1];
    pr->repl = repl;
    pr->ctl = ctl;
    return true;
}

static bool resolve(ctx_t *c)
{
    dise_program_t *p = c->p;
    for (size_t k = 0; k < c->ndefs; k++) {
        def_t *d = &c->defs[k];
        size_t len;
        bool ok = true;
        switch (d->kind) {
        case DEF_PROD: ok = resolve_production(c, (int)k); break;
        case DEF_SEQ:  ok = measure(c, (int)k, USE_SEQ, &len); break;
        case DEF_CTL:  ok = measure(c, (int)k, USE_CTL, &len); break;
        default:       /* a list of names: each must be some definition */
            for (size_t i = 0; ok && i < d->nitems; i++) {
                int t = find_def(c, d->items[i].ref.name);
                if (t < 0) ok = fail_ref(c, &d->items[i].ref, "undefined name '%s'", d->items[i].ref.name);
                else if (c->defs[t].kind == DEF_PROD)
                    ok = fail_ref(c, &d->items[i].ref, "'%s' is a production and cannot be spliced",
                                  d->items[i].ref.name);
            }
            break;
        }
        if (!ok) return false;
    }
    p->init_ctl = -1;
    if (c->has_init && !make_ctl(c, c->init, c->ninit, &c->init_at, "init", false, &p->init_ctl))
        return false;
    for (size_t i = 0; i < p->nnodes; i++)
        if (p->nodes[i].kind == PX_OVERFLOW || p->nodes[i].kind == PX_ZERO)
            note_counter(p, p->nodes[i].counter);
    return true;
}

/* ======================================================================== */
/* Entry points                                                              */
/* ======================================================================== */

static void ctx_init(ctx_t *c, const dise_env_t *env, char *err, size_t errlen)
{
    memset(c, 0, sizeof *c);
    c->env = env;
    c->err = err;
    c->errlen = errlen;
    c->p = xcalloc(1, sizeof *c->p);
    c->p->init_ctl = -1;
    c->p->isa = env ? env->isa : NULL;
    if (err && errlen) err[0] = '\0';
}

/* Free the context; the program too unless ok.  Returns the program or NULL. */
static dise_program_t *ctx_finish(ctx_t *c, bool ok)
{
    for (size_t k = 0; k < c->ndefs; k++) {
        free(c->defs[k].ins);
        free(c->defs[k].labels);
        map_free(&c->defs[k].labelmap);
        free(c->defs[k].items);
    }
    free(c->defs);
    map_free(&c->defmap);
    free(c->init);
    for (size_t k = 0; k < c->nseen; k++) free(c->seen[k]);
    free(c->seen);
    free(c->stack);
    if (ok && !c->failed) return c->p;
    if (!c->failed && c->err && c->errlen)      /* cannot happen; never leave err empty */
        snprintf(c->err, c->errlen, "%s:1:1: invalid ACF", c->p->nfiles ? c->p->files[0] : "?");
    dise_program_free(c->p);
    return NULL;
}

dise_program_t *acf_parse_file(const char *path, const dise_env_t *env, char *err, size_t errlen)
{
    ctx_t c;
    ctx_init(&c, env, err, errlen);
    add_file(&c, path ? path : "(null)");
    bool ok = path && parse_path(&c, path, NULL) && resolve(&c);
    if (!path) fail_ref(&c, &(ref_t){ .line = 1, .col = 1 }, "no file name");
    return ctx_finish(&c, ok);
}

dise_program_t *acf_parse_string(const char *name, const char *text, const dise_env_t *env,
                                 char *err, size_t errlen)
{
    ctx_t c;
    ctx_init(&c, env, err, errlen);
    add_file(&c, name ? name : "<string>");
    bool ok = text && parse_text(&c, 0, text, strlen(text), "") && resolve(&c);
    if (!text) fail_ref(&c, &(ref_t){ .line = 1, .col = 1 }, "no text");
    return ctx_finish(&c, ok);
}

int acf_param_index(const dise_program_t *p, const char *name)
{
    return p && name ? find_param(p, name) : -1;
}

bool acf_set_param(dise_program_t *p, const char *assignment, char *err, size_t errlen)
{
    if (err && errlen) err[0] = '\0';
    const char *eq = assignment ? strchr(assignment, '=') : NULL;
    if (!p || !eq) {
        if (err) snprintf(err, errlen, "bad parameter assignment '%s': expected NAME=VALUE",
                          assignment ? assignment : "");
        return false;
    }
    const char *n0 = assignment, *n1 = eq, *v0 = eq + 1, *v1 = eq + strlen(eq);
    while (n0 < n1 && (*n0 == ' ' || *n0 == '\t')) n0++;
    while (n1 > n0 && (n1[-1] == ' ' || n1[-1] == '\t')) n1--;
    while (v0 < v1 && (*v0 == ' ' || *v0 == '\t')) v0++;
    while (v1 > v0 && (v1[-1] == ' ' || v1[-1] == '\t' || v1[-1] == '\n')) v1--;
    int k = -1;
    for (size_t i = 0; i < p->nparams && k < 0; i++)
        if (strlen(p->params[i].name) == (size_t)(n1 - n0) && memcmp(p->params[i].name, n0, (size_t)(n1 - n0)) == 0)
            k = (int)i;
    if (k < 0) {
        int n = snprintf(err, err ? errlen : 0, "unknown parameter '%.*s': ", (int)(n1 - n0), n0);
        for (size_t i = 0; err && n >= 0 && (size_t)n < errlen && i < p->nparams; i++)
            n += snprintf(err + n, errlen - (size_t)n, "%s%s", i ? ", " : "the ACF declares ", p->params[i].name);
        if (err && n >= 0 && (size_t)n < errlen && p->nparams == 0)
            snprintf(err + n, errlen - (size_t)n, "the ACF declares no parameters");
        return false;
    }
    bool neg = v0 < v1 && *v0 == '-';
    const char *d0 = neg || (v0 < v1 && *v0 == '+') ? v0 + 1 : v0;
    uint64_t v;
    bool hex;
    int r = parse_number_text(d0, (size_t)(v1 - d0), &v, &hex);
    uint64_t limit = neg ? UINT64_C(1) << 63 : (hex ? UINT64_MAX : (uint64_t)INT64_MAX);
    if (r != 0 || v > limit) {
        if (err) snprintf(err, errlen, "bad value '%.*s' for parameter '%s': expected a decimal or 0x "
                          "hexadecimal 64-bit integer", (int)(v1 - v0), v0, p->params[k].name);
        return false;
    }
    p->params[k].value = (int64_t)(neg ? 0 - v : v);
    return true;
}

void dise_program_free(dise_program_t *p)
{
    if (!p) return;
    free(p->prods);
    free(p->nodes);
    free(p->rt);
    free(p->repls);
    free(p->uops);
    free(p->ctls);
    for (size_t k = 0; k < p->ntables; k++) {
        free(p->tables[k].pcs);
        free(p->tables[k].vals);
    }
    free(p->tables);
    for (size_t k = 0; k < p->nfiles; k++) free(p->files[k]);
    free(p->files);
    free(p);
}

/* ======================================================================== */
/* Printing                                                                  */
/* ======================================================================== */

static const char *const cmp_words[] = { "==", "!=", "<", "<=", ">", ">=" };
/* The word of a node's field; T.OPCODE is only written by PX_OPCODE nodes. */
static const char *field_word(unsigned f)
{
    const field_def_t *d = pattern_def(f);
    return d && d->kind != ACF_OPCODE ? d->word : "T.PC";
}

static void print_class(uint64_t cls, FILE *out)
{
    for (size_t k = 0; k < NGROUPS; k++)
        if ((uint64_t)class_groups[k].cls == cls) {
            fputs(class_groups[k].name, out);
            return;
        }
    fputs(cls < OC_COUNT ? opclass_names[cls] : "nop", out);
}

static void print_register(const dise_program_t *p, uint64_t r, FILE *out)
{
    const char *name = NULL;
    if (r < 64 && p->isa && p->isa->reg_name) name = p->isa->reg_name((unsigned)r);
    if (r == REG_ZERO || r == REG_SINK) fputs("zero", out);
    else if (name) fputs(name, out);
    else if (r < 32) fprintf(out, "x%u", (unsigned)r);
    else if (r < 64) fprintf(out, "f%u", (unsigned)(r - 32));
    else fprintf(out, "%" PRIu64, r);
}

static void print_value(int kind, uint64_t v, FILE *out)
{
    if (kind == ACF_INT) fprintf(out, "%" PRId64, (int64_t)v);
    else if (kind == ACF_SIZE && v <= INT64_MAX) fprintf(out, "%" PRIu64, v);
    else fprintf(out, "0x%" PRIx64, v);
}

static void print_pattern(const dise_program_t *p, int32_t i, unsigned depth, FILE *out)
{
    if (i < 0 || (size_t)i >= p->nnodes || depth > 4 * ACF_MAX_PATTERN_NODES) {
        fputs("(T.PC >= 0)", out);                  /* not from the parser */
        return;
    }
    const dise_node_t *n = &p->nodes[i];
    switch (n->kind) {
    case PX_AND:
    case PX_OR:
        fputc('(', out);
        print_pattern(p, n->a, depth + 1, out);
        fputs(n->kind == PX_AND ? " && " : " || ", out);
        print_pattern(p, n->b, depth + 1, out);
        fputc(')', out);
        break;
    case PX_NOT:
        fputc('!', out);
        print_pattern(p, n->a, depth + 1, out);
        break;
    case PX_CLASS:
        fputs("(T.OPCLASS == ", out);
        print_class(n->value, out);
        fputc(')', out);
        break;
    case PX_OPCODE:
        if (p->isa && n->value < p->isa->table_size) fprintf(out, "(T.OPCODE == %s)", p->isa->table[n->value].name);
        else fprintf(out, "(T.OPCODE == op%" PRIu64 ")", n->value);
        break;
    case PX_CMP: {
        int kind = field_kind(n->field);
        fprintf(out, "(%s %s ", field_word(n->field), cmp_words[n->cmp % 6]);
        if (kind == ACF_REG) print_register(p, n->value, out);
        else if (kind == ACF_CLASS) print_class(n->value, out);
        else print_value(kind, n->value, out);
        fputc(')', out);
        break;
    }
    case PX_CMP_FIELD:
        fprintf(out, "(%s %s %s)", field_word(n->field), cmp_words[n->cmp % 6], field_word(n->field2));
        break;
    case PX_IN_RANGE:
        fprintf(out, "(%s in [0x%" PRIx64 ", 0x%" PRIx64 "))", field_word(n->field), n->value, n->hi);
        break;
    case PX_OVERFLOW:
    case PX_ZERO:
        fprintf(out, "%s_%u", n->kind == PX_OVERFLOW ? "overflow" : "zero", n->counter);
        break;
    case PX_IN_TABLE:
        fprintf(out, "(%s in table %s)", field_word(n->field),
                n->value < p->ntables ? p->tables[n->value].name : "?");
        break;
    default:
        fputs("(T.PC >= 0)", out);                  /* PX_TRUE */
        break;
    }
}

static void print_uop_src(const dise_program_t *p, uint8_t src, int64_t v, FILE *out)
{
    const field_def_t *d = operand_def(src);
    if (src == SRC_PARAM && v >= 0 && (size_t)v < p->nparams) fputs(p->params[v].name, out);
    else if (src == SRC_DREG) fprintf(out, "d%" PRId64, v);
    else if (src == SRC_COUNTER) fprintf(out, "counter_%" PRId64, v);
    else if (src == SRC_TABLE && (size_t)v / DISE_TABLE_COLS < p->ntables)
        fprintf(out, "%s[%d]", p->tables[v / DISE_TABLE_COLS].name, (int)(v % DISE_TABLE_COLS));
    else if (d) fputs(d->word, out);
    else fprintf(out, "%" PRId64, v);
}

static void print_uops(const dise_program_t *p, const dise_ctl_t *ctl, FILE *out)
{
    for (uint32_t i = 0; i < ctl->len && ctl->start + i < p->nuops; i++) {
        const dise_uop_t *u = &p->uops[ctl->start + i];
        static const char *const kinds[] = { "inc", "dec", "set" };
        fprintf(out, "%s%s_%u", i ? ", " : "", kinds[u->kind % 3], u->counter);
        if (u->kind == UOP_SET) {
            fputc('(', out);
            print_uop_src(p, u->src, u->value, out);
            fputc(')', out);
        }
    }
}

static void print_repl(const dise_program_t *p, const dise_repl_t *r, FILE *out)
{
    static const char *const ops[] = { "T.INSN", "call", "mov", "add", "sub", "beqz", "bnez", "j",
                                       "tally" };
    if ((size_t)r->start + r->len > p->nrt) return;
    const dise_rinsn_t *rt = &p->rt[r->start];
    /* the header carries the commonest role (ties: sample, basic, check);
     * instructions of another role get a [role] prefix */
    unsigned count[DISE_ROLE_COUNT] = { 0 };
    for (uint32_t i = 0; i < r->len; i++)
        if (rt[i].op != DOP_INSN && rt[i].role < DISE_ROLE_COUNT) count[rt[i].role]++;
    uint8_t role = DISE_ROLE_SAMPLE;
    for (int k = DISE_ROLE_BASIC; k > DISE_ROLE_NONE; k--)
        if (count[k] > count[role]) role = (uint8_t)k;
    bool *target = xcalloc((size_t)r->len + 1, sizeof *target);
    for (uint32_t i = 0; i < r->len; i++)
        if (rt[i].op >= DOP_BEQZ && rt[i].op <= DOP_JUMP && rt[i].target - r->start <= r->len)
            target[rt[i].target - r->start] = true;
    fprintf(out, "%s [%s]:\n", r->name, role_words[role]);
    for (uint32_t i = 0; i <= r->len; i++) {
        if (target[i]) fprintf(out, "  L%u:\n", i);
        if (i == r->len) break;
        const dise_rinsn_t *x = &rt[i];
        fputs("    ", out);
        if (x->op != DOP_INSN && x->role != role && x->role > DISE_ROLE_NONE && x->role < DISE_ROLE_COUNT)
            fprintf(out, "[%s] ", role_words[x->role]);
        fputs(ops[x->op % DOP_COUNT], out);
        switch (x->op) {
        case DOP_CALL:
            fprintf(out, "(%s)", x->target < p->nhandlers ? p->handlers[x->target] : "unknown_handler");
            break;
        case DOP_MOV:
            fprintf(out, " d%u, ", x->rd);
            print_uop_src(p, x->src, x->value, out);
            break;
        case DOP_ADD:
        case DOP_SUB:
            fprintf(out, " d%u, d%u, ", x->rd, x->rs);
            print_uop_src(p, x->src, x->value, out);
            break;
        case DOP_BEQZ:
        case DOP_BNEZ:
            fprintf(out, " d%u, L%u", x->rs, x->target - r->start);
            break;
        case DOP_JUMP:
            fprintf(out, " L%u", x->target - r->start);
            break;
        case DOP_TALLY:
            fprintf(out, " d%u", x->rs);
            break;
        default:
            break;
        }
        fputc('\n', out);
    }
    free(target);
}

/* The parts one at a time, for the shell's view of the DISE tables. */
void dise_print_pattern(const dise_program_t *p, int32_t node, FILE *out)
{
    print_pattern(p, node, 0, out);
}

void dise_print_repl(const dise_program_t *p, size_t k, FILE *out)
{
    if (k < p->nrepls) print_repl(p, &p->repls[k], out);
}

void dise_print_ctl(const dise_program_t *p, size_t k, FILE *out)
{
    if (k < p->nctls) print_uops(p, &p->ctls[k], out);
}

void dise_program_print(const dise_program_t *p, FILE *out)
{
    if (!p || !out) return;
    fprintf(out, "# %zu productions, %zu replacement instructions in %zu sequences, "
            "%zu micro-ops in %zu control lists\n", p->nprods, p->nrt, p->nrepls, p->nuops, p->nctls);
    for (size_t k = 0; k < p->nparams; k++)
        fprintf(out, "param %s = %" PRId64 "\n", p->params[k].name, p->params[k].value);
    for (size_t k = 0; k < p->ntables; k++) {
        const dise_table_t *t = &p->tables[k];
        fprintf(out, "table %s [", t->name);
        for (size_t r = 0; r < t->nrows; r++) {
            int last = DISE_TABLE_COLS;
            while (last > 0 && !t->vals[r * DISE_TABLE_COLS + last - 1]) last--;
            fprintf(out, "%s\n    0x%" PRIx64 ":", r ? ";" : "", t->pcs[r]);
            for (int c = 0; c < last; c++) fprintf(out, " %" PRId64, t->vals[r * DISE_TABLE_COLS + c]);
        }
        fputs("\n]\n", out);
    }
    if (p->init_ctl >= 0 && (size_t)p->init_ctl < p->nctls) {
        fputs("init: ", out);
        print_uops(p, &p->ctls[p->init_ctl], out);
        fputc('\n', out);
    }
    for (size_t k = 0; k < p->nctls; k++)
        if (p->ctls[k].name[0] && (int32_t)k != p->init_ctl) {
            fprintf(out, "%s: ", p->ctls[k].name);
            print_uops(p, &p->ctls[k], out);
            fputc('\n', out);
        }
    for (size_t k = 0; k < p->nrepls; k++) print_repl(p, &p->repls[k], out);
    for (size_t k = 0; k < p->nprods; k++) {
        const dise_production_t *pr = &p->prods[k];
        fprintf(out, "%s: ", pr->name);
        print_pattern(p, pr->pattern, 0, out);
        bool repl = pr->repl >= 0 && (size_t)pr->repl < p->nrepls;
        fprintf(out, "\n    => %s", repl ? p->repls[pr->repl].name : "null");
        if (pr->ctl >= 0 && (size_t)pr->ctl < p->nctls) {
            const dise_ctl_t *ctl = &p->ctls[pr->ctl];
            fputs(", ", out);
            if (ctl->name[0] && pr->ctl != p->init_ctl) fputs(ctl->name, out);
            else print_uops(p, ctl, out);
        }
        fputc('\n', out);
    }
}
