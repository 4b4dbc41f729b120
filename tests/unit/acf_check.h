/*
 * acf_check.h - helpers shared by the ACF parser tests (test_acf.c,
 * test_acf_fuzz.c): the structural invariants every parsed dise_program_t
 * must satisfy, structural equality of two programs (for the print/parse
 * round trip), and print-then-reparse.  Header-only: static inline.
 */
#ifndef HPS_TEST_ACF_CHECK_H
#define HPS_TEST_ACF_CHECK_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dise.h"

/* Why a check failed, for the assertion message. */
static char acf_check_why[256];

static inline bool acf_fail(const char *what, size_t i)
{
    snprintf(acf_check_why, sizeof acf_check_why, "%s (at %zu)", what, i);
    return false;
}

/* Node indices in range and children before parents (so trees are finite). */
static inline bool acf_tree_ok(const dise_program_t *p, int32_t i)
{
    if (i < 0 || (size_t)i >= p->nnodes) return acf_fail("node index out of range", (size_t)i);
    const dise_node_t *n = &p->nodes[i];
    switch (n->kind) {
    case PX_AND:
    case PX_OR:
        if (n->b < 0 || n->b >= i) return acf_fail("child b not before parent", (size_t)i);
        /* fall through */
    case PX_NOT:
        if (n->a < 0 || n->a >= i) return acf_fail("child a not before parent", (size_t)i);
        return acf_tree_ok(p, n->a) && (n->kind == PX_NOT || acf_tree_ok(p, n->b));
    case PX_OVERFLOW:
    case PX_ZERO:
        if (n->counter < 1 || n->counter > DISE_MAX_COUNTERS || n->counter > p->max_counter)
            return acf_fail("flag counter out of range", (size_t)i);
        return true;
    case PX_IN_RANGE:
        if (n->value >= n->hi) return acf_fail("empty range", (size_t)i);
        return true;
    case PX_IN_TABLE:
        if (n->value >= p->ntables) return acf_fail("table index out of range", (size_t)i);
        return true;
    case PX_CLASS:
    case PX_OPCODE:
    case PX_CMP:
    case PX_CMP_FIELD:
        return true;
    default:
        return acf_fail("unexpected node kind", (size_t)i);
    }
}

static inline bool acf_invariants(const dise_program_t *p)
{
    if (p->nprods > DISE_MAX_PRODUCTIONS) return acf_fail("too many productions", p->nprods);
    if (p->max_counter > DISE_MAX_COUNTERS) return acf_fail("max_counter", p->max_counter);
    for (size_t k = 0; k < p->nprods; k++) {
        const dise_production_t *pr = &p->prods[k];
        if (!pr->name[0] || !pr->file) return acf_fail("production without name/file", k);
        if (!acf_tree_ok(p, pr->pattern)) return false;
        if (pr->repl < -1 || pr->repl >= (int32_t)p->nrepls) return acf_fail("production repl", k);
        if (pr->ctl < -1 || pr->ctl >= (int32_t)p->nctls) return acf_fail("production ctl", k);
    }
    size_t next = 0;                     /* repls tile rt in order */
    for (size_t k = 0; k < p->nrepls; k++) {
        const dise_repl_t *r = &p->repls[k];
        if (r->start != next || r->len == 0) return acf_fail("repls do not tile rt", k);
        next += r->len;
        for (uint32_t i = r->start; i < r->start + r->len && i < p->nrt; i++) {
            const dise_rinsn_t *x = &p->rt[i];
            if (x->op >= DOP_COUNT) return acf_fail("bad op", i);
            if (x->op >= DOP_BEQZ && (x->target < r->start || x->target > r->start + r->len))
                return acf_fail("branch leaves its sequence", i);
            if (x->op == DOP_CALL && x->target >= p->nhandlers) return acf_fail("handler index", i);
            if (x->op == DOP_INSN && x->role != DISE_ROLE_NONE) return acf_fail("T.INSN role", i);
            if (x->op != DOP_INSN && (x->role == DISE_ROLE_NONE || x->role >= DISE_ROLE_COUNT))
                return acf_fail("inserted role", i);
            if (x->rd >= 16 || x->rs >= 16) return acf_fail("d register", i);
            if (x->op >= DOP_MOV && x->op <= DOP_SUB) {
                if (x->src == SRC_PARAM && (x->value < 0 || (size_t)x->value >= p->nparams))
                    return acf_fail("param index", i);
                if (x->src == SRC_DREG && (x->value < 0 || x->value >= 16)) return acf_fail("src dreg", i);
                if (x->src == SRC_COUNTER && (x->value < 1 || x->value > (int64_t)p->max_counter))
                    return acf_fail("src counter", i);
            }
        }
    }
    if (next != p->nrt) return acf_fail("rt has instructions outside every repl", next);
    for (size_t k = 0; k < p->nctls; k++) {
        const dise_ctl_t *c = &p->ctls[k];
        if (c->len == 0 || (size_t)c->start + c->len > p->nuops) return acf_fail("ctl range", k);
    }
    for (size_t i = 0; i < p->nuops; i++) {
        const dise_uop_t *u = &p->uops[i];
        if (u->kind > UOP_SET || u->counter < 1 || u->counter > p->max_counter) return acf_fail("uop", i);
        if (u->kind == UOP_SET && u->src == SRC_PARAM && (u->value < 0 || (size_t)u->value >= p->nparams))
            return acf_fail("uop param", i);
    }
    if (p->init_ctl < -1 || p->init_ctl >= (int32_t)p->nctls) return acf_fail("init_ctl", 0);
    for (size_t k = 0; k < p->nhandlers; k++)
        for (size_t j = 0; j < k; j++)
            if (strcmp(p->handlers[j], p->handlers[k]) == 0) return acf_fail("duplicate handler", k);
    return true;
}

static inline bool acf_same_tree(const dise_program_t *a, int32_t i, const dise_program_t *b, int32_t j)
{
    const dise_node_t *x = &a->nodes[i], *y = &b->nodes[j];
    if (x->kind != y->kind) return acf_fail("node kind differs", (size_t)i);
    switch (x->kind) {
    case PX_AND:
    case PX_OR:
        return acf_same_tree(a, x->a, b, y->a) && acf_same_tree(a, x->b, b, y->b);
    case PX_NOT:
        return acf_same_tree(a, x->a, b, y->a);
    case PX_OVERFLOW:
    case PX_ZERO:
        return x->counter == y->counter || acf_fail("flag counter differs", (size_t)i);
    case PX_CMP_FIELD:
        return (x->cmp == y->cmp && x->field == y->field && x->field2 == y->field2) ||
               acf_fail("field comparison differs", (size_t)i);
    case PX_CMP:
        return (x->cmp == y->cmp && x->field == y->field && x->value == y->value) ||
               acf_fail("comparison differs", (size_t)i);
    case PX_IN_RANGE:
        return (x->field == y->field && x->value == y->value && x->hi == y->hi) ||
               acf_fail("range differs", (size_t)i);
    case PX_IN_TABLE:
        return (x->field == y->field && x->value == y->value) || acf_fail("table differs", (size_t)i);
    default:
        return x->value == y->value || acf_fail("class/opcode differs", (size_t)i);
    }
}

/* Equal as programs: everything but file names, lines and node numbering. */
static inline bool acf_same_program(const dise_program_t *a, const dise_program_t *b)
{
    if (a->nprods != b->nprods) return acf_fail("nprods", a->nprods);
    if (a->ntables != b->ntables) return acf_fail("ntables", a->ntables);
    for (size_t k = 0; k < a->ntables; k++) {
        const dise_table_t *x = &a->tables[k], *y = &b->tables[k];
        if (strcmp(x->name, y->name) || x->nrows != y->nrows ||
            memcmp(x->pcs, y->pcs, x->nrows * sizeof *x->pcs) ||
            memcmp(x->vals, y->vals, x->nrows * DISE_TABLE_COLS * sizeof *x->vals))
            return acf_fail("table differs", k);
    }
    for (size_t k = 0; k < a->nprods; k++) {
        const dise_production_t *x = &a->prods[k], *y = &b->prods[k];
        if (strcmp(x->name, y->name) || x->repl != y->repl || x->ctl != y->ctl)
            return acf_fail("production differs", k);
        if (!acf_same_tree(a, x->pattern, b, y->pattern)) return false;
    }
    if (a->nrt != b->nrt) return acf_fail("nrt", a->nrt);
    for (size_t i = 0; i < a->nrt; i++) {
        const dise_rinsn_t *x = &a->rt[i], *y = &b->rt[i];
        if (x->op != y->op || x->rd != y->rd || x->rs != y->rs || x->src != y->src ||
            x->role != y->role || x->target != y->target || x->value != y->value)
            return acf_fail("rt differs", i);
    }
    if (a->nrepls != b->nrepls) return acf_fail("nrepls", a->nrepls);
    for (size_t k = 0; k < a->nrepls; k++)
        if (strcmp(a->repls[k].name, b->repls[k].name) || a->repls[k].start != b->repls[k].start ||
            a->repls[k].len != b->repls[k].len)
            return acf_fail("repl differs", k);
    if (a->nuops != b->nuops) return acf_fail("nuops", a->nuops);
    for (size_t i = 0; i < a->nuops; i++)
        if (a->uops[i].kind != b->uops[i].kind || a->uops[i].counter != b->uops[i].counter ||
            a->uops[i].src != b->uops[i].src || a->uops[i].value != b->uops[i].value)
            return acf_fail("uop differs", i);
    if (a->nctls != b->nctls) return acf_fail("nctls", a->nctls);
    for (size_t k = 0; k < a->nctls; k++)
        if (strcmp(a->ctls[k].name, b->ctls[k].name) || a->ctls[k].start != b->ctls[k].start ||
            a->ctls[k].len != b->ctls[k].len)
            return acf_fail("ctl differs", k);
    if (a->init_ctl != b->init_ctl) return acf_fail("init_ctl", 0);
    if (a->nparams != b->nparams) return acf_fail("nparams", a->nparams);
    for (size_t k = 0; k < a->nparams; k++)
        if (strcmp(a->params[k].name, b->params[k].name) || a->params[k].value != b->params[k].value)
            return acf_fail("param differs", k);
    if (a->nhandlers != b->nhandlers) return acf_fail("nhandlers", a->nhandlers);
    for (size_t k = 0; k < a->nhandlers; k++)
        if (strcmp(a->handlers[k], b->handlers[k])) return acf_fail("handler differs", k);
    if (a->max_counter != b->max_counter) return acf_fail("max_counter", a->max_counter);
    return true;
}

/* dise_program_print into a malloc'ed string. */
static inline char *acf_print_to_string(const dise_program_t *p)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    if (!f) return NULL;
    dise_program_print(p, f);
    fclose(f);
    return buf;
}

/* Print p, parse the text back, and compare; the reparsed program is freed.
 * On failure acf_check_why says what went wrong. */
static inline bool acf_round_trip(const dise_program_t *p, const dise_env_t *env)
{
    char *text = acf_print_to_string(p), err[512];
    if (!text) return acf_fail("open_memstream", 0);
    dise_program_t *q = acf_parse_string("printed.acf", text, env, err, sizeof err);
    bool ok;
    if (!q) {
        snprintf(acf_check_why, sizeof acf_check_why, "reparse failed: %.200s", err);
        ok = false;
    } else {
        ok = acf_same_program(p, q);
        if (ok) {                          /* printing is a fixed point */
            char *again = acf_print_to_string(q);
            ok = again && strcmp(again, text) == 0;
            if (!ok) acf_fail("second print differs", 0);
            free(again);
        }
        dise_program_free(q);
    }
    free(text);
    return ok;
}

#endif /* HPS_TEST_ACF_CHECK_H */
