/*
 * dise.h - DISE, the decode-stage instruction stream editor, with the HPS
 * conditional-control extension (PACT 2005, Sections 3-4).
 *
 * An ACF (application customization function, a .acf file; language in
 * dise/README.md) is parsed into a dise_program_t: productions (pattern =>
 * replacement, conditional control), replacement sequences of ISA-neutral
 * DISE operations, and conditional-control lists of counter micro-ops.
 * The engine (dise_t) holds the hardware state: pattern, conditionals and
 * replacement tables, HPS counters with overflow and zero flags, and the
 * DISE-private registers (unified registers REG_DISE0.., see isa.h).
 *
 * At decode each static instruction is classified once against the
 * productions' instruction patterns (insn_t.dise = index of the set of
 * productions that may match it, 0 = none).  At run time only instructions
 * with a non-empty set consult the engine: conditionals are evaluated, the
 * micro-ops run, and a replacement, if any, is expanded into ordinary
 * insn_t records (flag IF_DISE) that the functional core and the timing
 * models execute like any other instruction.
 */
#ifndef HPS_DISE_H
#define HPS_DISE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "isa.h"

struct cpu;
struct symtab;
struct stats;
struct mem;

/* ---- limits ------------------------------------------------------------- */
enum {
    DISE_MAX_COUNTERS = 8,      /* HPS counters are numbered 1..N (N <= 8)   */
    DISE_MAX_PRODUCTIONS = 64,  /* hard ceiling; the pattern table is smaller */
    DISE_NAME_MAX = 48,
    DISE_MAX_PARAMS = 32,
    DISE_MAX_HANDLERS = 32
};

/* Overhead roles of inserted instructions (Figure 7 of the HPS paper). */
#define DISE_ROLE_LIST(X) \
    X(DISE_ROLE_NONE,   "none")    /* the program's own instruction (T.INSN) */ \
    X(DISE_ROLE_CHECK,  "check")   /* instrumentation checks                 */ \
    X(DISE_ROLE_BASIC,  "basic")   /* deciding when to sample                */ \
    X(DISE_ROLE_SAMPLE, "sample")  /* collecting the sample                  */
#define DISE_ROLE_ENUM(id, name) id,
typedef enum { DISE_ROLE_LIST(DISE_ROLE_ENUM) DISE_ROLE_COUNT } dise_role_t;
#undef DISE_ROLE_ENUM
extern const char *const dise_role_names[DISE_ROLE_COUNT];

/* ---- pattern expressions -------------------------------------------------
 * One tree per production, nodes in dise_program_t.nodes, children by index.
 * Instruction fields are static properties of the decoded instruction; the
 * flags (overflow_N, zero_N) are the engine's dynamic state. */
typedef enum {
    PX_TRUE,        /* always true                                          */
    PX_AND,         /* a && b                                               */
    PX_OR,          /* a || b                                               */
    PX_NOT,         /* !a                                                   */
    PX_CLASS,       /* T.OPCLASS == <class keyword>: value = dise_class_t   */
    PX_OPCODE,      /* T.OPCODE == mnemonic: value = op index in isa table  */
    PX_CMP,         /* field <cmp> value                                    */
    PX_CMP_FIELD,   /* field <cmp> field2 (e.g. T.TARGET < T.PC)            */
    PX_IN_RANGE,    /* field in [value, hi): symbol name or PC range        */
    PX_OVERFLOW,    /* overflow_N: counter = N (1-based)                     */
    PX_ZERO,        /* zero_N                                               */
    PX_IN_TABLE     /* field in table NAME: value = table index             */
} px_kind_t;

typedef enum { CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE } px_cmp_t;

typedef enum {      /* instruction fields a pattern can test: FLD_PC, ..., from
                       the rows of acf_fields.def with a pattern column      */
#define ACF_FIELD(word, pattern, operand) pattern
#define ACF_PATTERN(id, kind, place) id,
#include "acf_fields.def"
#undef ACF_PATTERN
#undef ACF_FIELD
} px_field_t;

/* Operation-class keywords: groups over the IF_* flags and the exact
 * opclass names of isa.h (OC_* values are used directly, below DC_GROUP0). */
typedef enum {
    DC_GROUP0 = 64,
    DC_PROC_CALL = DC_GROUP0, /* IF_CALL                                     */
    DC_RETURN,                /* IF_RETURN                                   */
    DC_BRANCH,                /* IF_BRANCH (conditional)                     */
    DC_JUMP,                  /* IF_JUMP and neither call nor return         */
    DC_MEM_OP,                /* IF_LOAD or IF_STORE                         */
    DC_LOAD,                  /* IF_LOAD                                     */
    DC_STORE,                 /* IF_STORE                                    */
    DC_INDIRECT               /* IF_INDIRECT                                 */
} dise_class_t;

typedef struct dise_node {
    uint8_t kind;           /* px_kind_t                                     */
    uint8_t cmp;            /* px_cmp_t for PX_CMP / PX_CMP_FIELD            */
    uint8_t field, field2;  /* px_field_t                                    */
    uint8_t counter;        /* PX_OVERFLOW / PX_ZERO: 1..N                   */
    int32_t a, b;           /* children (PX_AND/OR: a, b; PX_NOT: a)         */
    uint64_t value, hi;     /* constant, class, op index, or range [value,hi) */
} dise_node_t;

/* ---- replacement sequences --------------------------------------------- */
typedef enum {
    DOP_INSN,       /* T.INSN: the matched instruction itself                */
    DOP_CALL,       /* call(handler): run a handler of the guest runtime     */
    DOP_MOV,        /* dRD <- src                                            */
    DOP_ADD,        /* dRD <- dRS + src                                      */
    DOP_SUB,        /* dRD <- dRS - src                                      */
    DOP_BEQZ,       /* if dRS == 0 continue at RT index `target`             */
    DOP_BNEZ,       /* if dRS != 0 continue at RT index `target`             */
    DOP_JUMP,       /* continue at RT index `target`                          */
    DOP_TALLY,      /* word dRS of DISE's tally table += 1 (a load and a store
                       of the runtime's memory; dise/README.md)              */
    DOP_COUNT
} dise_op_t;

typedef enum {      /* where a DOP_MOV / DOP_ADD operand comes from          */
    SRC_CONST,      /* value                                                 */
    SRC_PARAM,      /* the ACF parameter number `value` (current value)      */
    SRC_DREG,       /* DISE-private register d<value>                        */
    /* SRC_T_PC, ...: a field of the matched instruction, from the rows of
     * acf_fields.def with an operand column                                */
#define ACF_FIELD(word, pattern, operand) operand
#define ACF_OPERAND(id, place) id,
#include "acf_fields.def"
#undef ACF_OPERAND
#undef ACF_FIELD
    SRC_COUNTER,    /* current value of HPS counter `value` (1-based)        */
    SRC_TABLE       /* NAME[k]: column k of T.PC's row of a per-PC table;
                       value = table index * DISE_TABLE_COLS + k            */
} dise_src_t;

/* A per-PC table (`table NAME [PC: v0 v1 ...; ...]`): rows sorted by pc. */
enum { DISE_TABLE_COLS = 24 };
typedef struct dise_table {
    char name[DISE_NAME_MAX];
    uint64_t *pcs;             /* sorted, distinct                           */
    int64_t *vals;             /* DISE_TABLE_COLS per row, missing ones 0    */
    size_t nrows;
} dise_table_t;

/* The row of pc, or NULL. */
const int64_t *dise_table_row(const dise_table_t *t, uint64_t pc);

typedef struct dise_rinsn {
    uint8_t op;             /* dise_op_t                                      */
    uint8_t rd, rs;         /* DISE-private register numbers 0..15            */
    uint8_t src;            /* dise_src_t                                     */
    uint8_t role;           /* dise_role_t of the definition it came from     */
    uint32_t target;        /* DOP_B*: absolute RT index; DOP_CALL: handler # */
    int64_t value;          /* SRC_CONST value, param #, dreg #, counter #    */
} dise_rinsn_t;

/* A replacement sequence: rt[start .. start+len) */
typedef struct dise_repl {
    char name[DISE_NAME_MAX];
    uint32_t start, len;
    uint32_t line;          /* where it was defined                           */
    const char *file;
} dise_repl_t;

/* ---- conditional control ------------------------------------------------ */
typedef enum { UOP_INC, UOP_DEC, UOP_SET } dise_uop_kind_t;

typedef struct dise_uop {
    uint8_t kind;           /* dise_uop_kind_t                                */
    uint8_t counter;        /* 1..N                                           */
    uint8_t src;            /* UOP_SET: SRC_CONST, SRC_PARAM or SRC_DREG      */
    int64_t value;
} dise_uop_t;

/* A conditionals-table entry: uops[start .. start+len) */
typedef struct dise_ctl {
    char name[DISE_NAME_MAX];
    uint32_t start, len;
} dise_ctl_t;

/* ---- productions and the whole program ----------------------------------- */
typedef struct dise_production {
    char name[DISE_NAME_MAX];
    int32_t pattern;        /* root node index                                */
    int32_t repl;           /* index into repls, or -1 for null               */
    int32_t ctl;            /* index into ctls, or -1 for null                */
    const char *file;       /* where it was defined (owned by the program)    */
    uint32_t line;
} dise_production_t;

typedef struct dise_param {
    char name[DISE_NAME_MAX];
    int64_t value;
} dise_param_t;

typedef struct dise_program {
    dise_production_t *prods;  size_t nprods;
    dise_node_t *nodes;        size_t nnodes;
    dise_rinsn_t *rt;          size_t nrt;      /* all replacement instructions */
    dise_repl_t *repls;        size_t nrepls;
    dise_uop_t *uops;          size_t nuops;
    dise_ctl_t *ctls;          size_t nctls;
    int32_t init_ctl;          /* `init:` control list run at start, or -1   */
    dise_table_t *tables;      size_t ntables;  /* per-PC tables            */
    dise_param_t params[DISE_MAX_PARAMS];  size_t nparams;
    char handlers[DISE_MAX_HANDLERS][DISE_NAME_MAX]; size_t nhandlers;
    unsigned max_counter;      /* highest counter number used                 */
    char **files;              size_t nfiles;   /* every file read (owned)    */
    const isa_t *isa;          /* the ISA names were resolved against: the
                                  printer writes mnemonics and registers    */
} dise_program_t;

/* What the parser needs to resolve names: the ISA (opcode mnemonics and
 * register names) and the program's symbols (T.PC in name). */
typedef struct dise_env {
    const isa_t *isa;
    const struct symtab *symtab;   /* may be NULL: symbol names are errors   */
} dise_env_t;

/* dise/acf.c.  Parse an ACF file (and what it includes).  On error returns
 * NULL and writes "file:line:col: message" into err. */
dise_program_t *acf_parse_file(const char *path, const dise_env_t *env,
                               char *err, size_t errlen);
/* The same from a string; `name` is used in messages and to resolve
 * includes relative to the current directory. */
dise_program_t *acf_parse_string(const char *name, const char *text,
                                 const dise_env_t *env, char *err, size_t errlen);
/* Override a parameter: "NAME=VALUE".  false + err for an unknown name or a
 * bad value. */
bool acf_set_param(dise_program_t *p, const char *assignment, char *err, size_t errlen);
int acf_param_index(const dise_program_t *p, const char *name);  /* -1 if none */
void dise_program_free(dise_program_t *p);
/* Print the program back in ACF syntax (for --print-acf and tests). */
void dise_program_print(const dise_program_t *p, FILE *out);
/* The same for one pattern tree (from its root node), replacement
 * sequence k (its header line and instructions) or control list k (its
 * micro-ops), without a newline after a pattern or control list. */
void dise_print_pattern(const dise_program_t *p, int32_t node, FILE *out);
void dise_print_repl(const dise_program_t *p, size_t k, FILE *out);
void dise_print_ctl(const dise_program_t *p, size_t k, FILE *out);

/* ---- the engine ----------------------------------------------------------- */

/* Hardware parameters (config keys dise.*). */
typedef struct dise_hw {
    unsigned pt_entries;        /* pattern table: productions               */
    unsigned ct_entries;        /* conditionals table: control lists        */
    unsigned rt_entries;        /* replacement table: instructions          */
    unsigned counters;          /* HPS counters                             */
    unsigned counter_bits;      /* width of each counter                    */
    unsigned replace_penalty;   /* decode cycles per replaced instruction   */
    bool spec_leak;             /* dise.spec_counters = leak: the wrong
                                   path's counter and flag updates persist  */
} dise_hw_t;

typedef struct dise dise_t;

#endif /* HPS_DISE_H */
