/*
 * sequitur.h - SEQUITUR (Nevill-Manning & Witten 1997): the grammar of a
 * symbol sequence, built online in linear time.  The hot data stream
 * analysis (hot_streams.h) runs it on the trace of data references.
 *
 * The grammar keeps two invariants after every appended symbol:
 *   digram uniqueness  no pair of adjacent symbols occurs twice in the
 *                      right-hand sides, except overlapping in a run ("aaa"
 *                      holds "aa" twice, once);
 *   rule utility       every rule but the start rule S is used at least twice.
 * Appending a symbol makes one new digram.  If it occurs elsewhere (not
 * overlapping), the other occurrence is either a whole rule, which is then
 * used for it, or a new rule is made and replaces both; the digrams this
 * creates are checked in turn, and a rule whose use count drops to 1 is
 * expanded in place.
 *
 * Terminals are 30-bit values (0 .. SEQUITUR_MAX_TERMINAL).
 * sequitur_append_unique() appends a terminal that equals no other symbol
 * ever appended: a separator no rule can span (the boundary between two
 * sampled bursts).
 *
 * Memory.  The grammar is a pool of 12-byte symbol nodes (previous, next,
 * value), a digram hash table of 12-byte slots (the digram and its node;
 * between 3/8 and 3/4 full), and 8 bytes per rule.  A grammar of G
 * right-hand-side symbols and R rules holds G + R nodes and at most G
 * digrams; G <= the input length n and R <= G / 2, so the worst case (an
 * incompressible input) is 12 × 1.5 + 12 × 8/3 + 8 / 2 = 54 bytes per
 * input symbol, and a compressible one far less (a data trace of a
 * workload: about 10, dise/README.md).  The pools double as they fill.
 * sequitur_bytes() reports what is held; the caller caps the grammar size
 * (hot_streams.c cuts the trace into windows).
 */
#ifndef HPS_SEQUITUR_H
#define HPS_SEQUITUR_H

#include <stddef.h>
#include <stdint.h>

#define SEQUITUR_MAX_TERMINAL 0x3fffffffu

typedef struct sequitur sequitur_t;

sequitur_t *sequitur_new(void);
void sequitur_free(sequitur_t *g);                  /* NULL is fine */
void sequitur_append(sequitur_t *g, uint32_t terminal);
void sequitur_append_unique(sequitur_t *g);

uint64_t sequitur_input_length(const sequitur_t *g); /* symbols appended */
size_t sequitur_grammar_size(const sequitur_t *g);   /* right-hand-side symbols */
size_t sequitur_rule_count(const sequitur_t *g);     /* rules, S included */
size_t sequitur_bytes(const sequitur_t *g);          /* host memory held */

/* ---- the grammar as arrays ------------------------------------------------------------ */

/* A right-hand-side symbol: a terminal, a unique separator, or rule k. */
#define SEQUITUR_RULE_BIT   0x80000000u
#define SEQUITUR_UNIQUE_BIT 0x40000000u
static inline int sequitur_is_rule(uint32_t sym) { return (sym & SEQUITUR_RULE_BIT) != 0; }
static inline uint32_t sequitur_rule_index(uint32_t sym) { return sym & ~SEQUITUR_RULE_BIT; }

/* Rule k's right-hand side is sym[start[k] .. start[k + 1]); rule 0 is S. */
typedef struct sequitur_grammar {
    uint32_t nrules;
    uint32_t *start;        /* nrules + 1 offsets */
    uint32_t *sym;          /* start[nrules] symbols */
} sequitur_grammar_t;

/* The grammar as it is now (the builder is unchanged).  Rules are numbered
 * S first, then in the order of their first use in a left-to-right walk
 * of S's expansion, so equal inputs give equal arrays. */
void sequitur_export(const sequitur_t *g, sequitur_grammar_t *out);
void sequitur_grammar_free(sequitur_grammar_t *gr);
size_t sequitur_grammar_bytes(const sequitur_grammar_t *gr);

#endif /* HPS_SEQUITUR_H */
