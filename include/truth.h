/*
 * truth.h - the ground-truth recorder.
 *
 * Because hps-sim is a simulator it can record, without perturbing the
 * simulated run, the exact profiles that sampling hardware only estimates.
 * Per-static-instruction execution and taken counts live in the decoded
 * records themselves (insn_t.count/.taken); this recorder keeps the dynamic
 * facts that are not per instruction: call pairs (call-site PC, target) with
 * their counts, and methods entered.  Later issues add the data-reference
 * stream and per-instruction cycles and stall causes.
 */
#ifndef HPS_TRUTH_H
#define HPS_TRUTH_H

#include <stddef.h>
#include <stdint.h>

typedef struct pair_count {
    uint64_t a, b;          /* call pair: site, target; method: entry, 0 */
    uint64_t count;
} pair_count_t;

/* Open-addressing hash map from (a, b) to a count; grows by doubling. */
typedef struct pair_table {
    pair_count_t *slots;
    size_t cap, used;
} pair_table_t;

void pair_table_add(pair_table_t *t, uint64_t a, uint64_t b, uint64_t n);
void pair_table_free(pair_table_t *t);
/* The used entries, copied and sorted by count (descending), then a, b. */
pair_count_t *pair_table_sorted(const pair_table_t *t, size_t *n);

struct cct_truth;

typedef struct truth {
    pair_table_t call_pairs;  /* (call-site pc, target pc) -> calls        */
    pair_table_t methods;     /* (entry pc, 0) -> invocations              */
    struct cct_truth *cct;    /* the exact calling context tree (cct.h), or
                                 NULL: fed every program call, return, jump */
} truth_t;

static inline void truth_record_call(truth_t *t, uint64_t site, uint64_t target)
{
    pair_table_add(&t->call_pairs, site, target, 1);
}

void truth_free(truth_t *t);

#endif /* HPS_TRUTH_H */
