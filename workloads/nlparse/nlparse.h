/* nlparse.h - shared declarations of the nlparse workload (parser-like):
 * a generated lexicon in a hash table, a context-free grammar of English-like
 * sentences, a CYK chart parser that counts parses and finds the best-scoring
 * one, and an Earley recogniser used as an independent cross-check. */
#ifndef NLPARSE_H
#define NLPARSE_H

#include <stdint.h>
#include <stddef.h>

#define MAX_SYMS 48
#define MAX_RHS 4
#define MAX_WORDS 64

/* ---- grammar ---------------------------------------------------------- */

typedef struct rule {
    int lhs;
    int nrhs;
    int rhs[MAX_RHS];
    int weight;          /* score used by the best-parse search */
    int gen_weight;      /* relative probability when generating */
} rule;

typedef struct grammar {
    int nsyms;
    int nterms;          /* symbols [0, nterms) are parts of speech */
    char names[MAX_SYMS][24];
    int start;
    rule *rules;
    int nrules;
    /* CNF form used by CYK */
    rule *bin;           /* A -> B C */
    int nbin;
    rule *un;            /* A -> B, topologically ordered */
    int nun;
    int *bin_by_left;    /* rule indices grouped by left child */
    int *bin_left_start; /* nsyms + 1 offsets */
    int min_len[MAX_SYMS];
} grammar;

grammar *grammar_build(void);
int grammar_symbol(const grammar *g, const char *name);
void grammar_to_cnf(grammar *g);

/* ---- lexicon ---------------------------------------------------------- */

typedef struct lex_entry {
    char *word;
    uint32_t pos_mask;   /* bit per part of speech */
    uint32_t hash;
    uint32_t freq;
    struct lex_entry *next;
} lex_entry;

typedef struct lexicon {
    lex_entry **buckets;
    int nbuckets;
    int nwords;
    /* words per part of speech, for generation */
    lex_entry **by_pos[MAX_SYMS];
    int npos[MAX_SYMS];
    uint64_t probes;
    int noun, verb, iverb;   /* part-of-speech ids used by morphology */
} lexicon;

lexicon *lexicon_build(const grammar *g, int nwords, uint64_t *seed);
lex_entry *lexicon_find(lexicon *lx, const char *w, size_t len);
uint32_t lexicon_analyse(lexicon *lx, const grammar *g, const char *w, size_t len);
uint32_t str_hash(const char *s, size_t len);

/* ---- sentences -------------------------------------------------------- */

typedef struct sentence {
    char text[MAX_WORDS * 24];
    int nwords;
} sentence;

int sentence_generate(const grammar *g, lexicon *lx, int maxlen, uint64_t *seed, sentence *out);
void sentence_perturb(sentence *s, uint64_t *seed);
int tokenize(const char *text, const char **starts, int *lens, int max);

/* ---- parsers ---------------------------------------------------------- */

typedef struct parse_result {
    uint64_t count;      /* number of parse trees, modulo 2^64 */
    int best;            /* best derivation score, -1 if none */
    int accepted;
    uint64_t chart_sum;  /* hash of the chart contents */
} parse_result;

typedef struct cyk_chart cyk_chart;
cyk_chart *cyk_new(const grammar *g, int maxlen);
void cyk_parse(cyk_chart *c, const uint32_t *masks, int n, parse_result *res);

typedef struct earley earley;
earley *earley_new(const grammar *g, int maxlen);
int earley_recognise(earley *e, const uint32_t *masks, int n, uint64_t *items);

uint64_t rng_next(uint64_t *s);

#endif
