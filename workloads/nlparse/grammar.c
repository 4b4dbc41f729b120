/* grammar.c - the English-like context-free grammar of the nlparse
 * workload, written as rule text and compiled at start-up, plus its
 * conversion to the binary/unary normal form used by the CYK parser. */
#include "nlparse.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const terminals[] = {
    "Det", "Noun", "Verb", "IVerb", "Adj", "Adv", "Prep", "Conj", "Pron", "Aux", "Comp",
};

/* lhs -> rhs... : parse weight, generation weight */
static const char *const rule_text[] = {
    "S -> NP VP : 3 : 10",
    "S -> S Conj S : 1 : 1",
    "S -> Aux NP VP : 2 : 2",
    "NP -> Det NBAR : 4 : 10",
    "NP -> Pron : 3 : 4",
    "NP -> NBAR : 1 : 2",
    "NP -> NP PP : 2 : 3",
    "NP -> NP Conj NP : 1 : 1",
    "NP -> NP CP : 1 : 1",
    "NBAR -> Noun : 2 : 10",
    "NBAR -> AP NBAR : 2 : 3",
    "NBAR -> NBAR Noun : 1 : 1",
    "AP -> Adj : 2 : 5",
    "AP -> Adv Adj : 1 : 1",
    "VP -> IVerb : 2 : 5",
    "VP -> Verb NP : 4 : 8",
    "VP -> Verb NP NP : 2 : 1",
    "VP -> VP PP : 2 : 3",
    "VP -> VP Adv : 1 : 2",
    "VP -> Verb CP : 1 : 1",
    "VP -> VP Conj VP : 1 : 1",
    "CP -> Comp S : 2 : 2",
    "CP -> Comp VP : 2 : 2",
    "PP -> Prep NP : 3 : 10",
};

int grammar_symbol(const grammar *g, const char *name)
{
    for (int i = 0; i < g->nsyms; i++)
        if (strcmp(g->names[i], name) == 0)
            return i;
    return -1;
}

static int intern_symbol(grammar *g, const char *name)
{
    int s = grammar_symbol(g, name);
    if (s >= 0)
        return s;
    if (g->nsyms >= MAX_SYMS) {
        fprintf(stderr, "nlparse: too many grammar symbols\n");
        exit(3);
    }
    snprintf(g->names[g->nsyms], sizeof(g->names[0]), "%s", name);
    return g->nsyms++;
}

/* Parse "A -> B C : w : gw" into a rule. */
static void parse_rule(grammar *g, const char *text, rule *r)
{
    char buf[128], *save = NULL;
    snprintf(buf, sizeof(buf), "%s", text);
    char *tok = strtok_r(buf, " ", &save);
    memset(r, 0, sizeof(*r));
    r->lhs = intern_symbol(g, tok);
    strtok_r(NULL, " ", &save); /* "->" */
    while ((tok = strtok_r(NULL, " ", &save)) && strcmp(tok, ":") != 0)
        r->rhs[r->nrhs++] = intern_symbol(g, tok);
    tok = strtok_r(NULL, " ", &save);
    r->weight = atoi(tok);
    strtok_r(NULL, " ", &save);
    tok = strtok_r(NULL, " ", &save);
    r->gen_weight = atoi(tok);
}

/* Minimal yield length of each symbol, used to bound generation. */
static void compute_min_len(grammar *g)
{
    for (int s = 0; s < g->nsyms; s++)
        g->min_len[s] = s < g->nterms ? 1 : 1000;
    int changed = 1;
    while (changed) {
        changed = 0;
        for (int i = 0; i < g->nrules; i++) {
            rule *r = &g->rules[i];
            int len = 0;
            for (int k = 0; k < r->nrhs; k++)
                len += g->min_len[r->rhs[k]];
            if (len < g->min_len[r->lhs]) {
                g->min_len[r->lhs] = len;
                changed = 1;
            }
        }
    }
}

grammar *grammar_build(void)
{
    grammar *g = calloc(1, sizeof(grammar));
    for (size_t i = 0; i < sizeof(terminals) / sizeof(terminals[0]); i++)
        intern_symbol(g, terminals[i]);
    g->nterms = g->nsyms;
    g->nrules = (int)(sizeof(rule_text) / sizeof(rule_text[0]));
    g->rules = calloc((size_t)g->nrules, sizeof(rule));
    for (int i = 0; i < g->nrules; i++)
        parse_rule(g, rule_text[i], &g->rules[i]);
    g->start = grammar_symbol(g, "S");
    compute_min_len(g);
    grammar_to_cnf(g);
    return g;
}

static void add_bin(grammar *g, int lhs, int b, int c, int w)
{
    rule *r = &g->bin[g->nbin++];
    memset(r, 0, sizeof(*r));
    r->lhs = lhs;
    r->nrhs = 2;
    r->rhs[0] = b;
    r->rhs[1] = c;
    r->weight = w;
}

/* Depth-first topological order for unary rules: a rule A -> B must come
 * after every rule producing B. */
static void order_unaries(grammar *g, rule *tmp, int n)
{
    int placed = 0;
    char used[256] = {0};
    while (placed < n) {
        int progress = 0;
        for (int i = 0; i < n; i++) {
            if (used[i])
                continue;
            int b = tmp[i].rhs[0], ready = 1;
            for (int j = 0; j < n; j++)
                if (!used[j] && j != i && tmp[j].lhs == b)
                    ready = 0;
            if (ready) {
                g->un[placed++] = tmp[i];
                used[i] = 1;
                progress = 1;
            }
        }
        if (!progress) {
            fprintf(stderr, "nlparse: unary cycle in grammar\n");
            exit(3);
        }
    }
}

static void index_binaries(grammar *g)
{
    g->bin_left_start = calloc((size_t)g->nsyms + 1, sizeof(int));
    g->bin_by_left = malloc((size_t)g->nbin * sizeof(int));
    for (int i = 0; i < g->nbin; i++)
        g->bin_left_start[g->bin[i].rhs[0] + 1]++;
    for (int s = 0; s < g->nsyms; s++)
        g->bin_left_start[s + 1] += g->bin_left_start[s];
    int *fill = calloc((size_t)g->nsyms, sizeof(int));
    for (int i = 0; i < g->nbin; i++) {
        int l = g->bin[i].rhs[0];
        g->bin_by_left[g->bin_left_start[l] + fill[l]++] = i;
    }
    free(fill);
}

void grammar_to_cnf(grammar *g)
{
    g->bin = calloc((size_t)g->nrules * MAX_RHS, sizeof(rule));
    rule *tmp = calloc((size_t)g->nrules, sizeof(rule));
    int nun = 0;
    for (int i = 0; i < g->nrules; i++) {
        rule *r = &g->rules[i];
        if (r->nrhs == 1) {
            tmp[nun++] = *r;
            continue;
        }
        /* A -> X1 X2 ... Xn  ==>  A -> X1 A_1, A_1 -> X2 A_2, ... */
        int lhs = r->lhs;
        for (int k = 0; k < r->nrhs - 2; k++) {
            char name[24];
            snprintf(name, sizeof(name), "_%d_%d", i, k);
            int aux = intern_symbol(g, name);
            add_bin(g, lhs, r->rhs[k], aux, k == 0 ? r->weight : 0);
            lhs = aux;
        }
        add_bin(g, lhs, r->rhs[r->nrhs - 2], r->rhs[r->nrhs - 1], r->nrhs == 2 ? r->weight : 0);
    }
    g->un = calloc((size_t)(nun ? nun : 1), sizeof(rule));
    g->nun = nun;
    order_unaries(g, tmp, nun);
    free(tmp);
    index_binaries(g);
}
