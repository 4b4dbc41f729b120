/*
 * ppcct.h - the host's side of PP's calling context tree on DISE
 * (`hps-pp-acf --cct`; the guest keeps the tree, productions/runtime/
 * pp_cct.h): the path samples by context as they are drained, the guest's
 * tree read out of the runtime after the run, and the scores against the
 * exact CCT (--cct) and the exact paths (--paths) of the same run.
 */
#ifndef HPS_PPCCT_H
#define HPS_PPCCT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cct.h"
#include "paths.h"
#include "runtime.h"
#include "symtab.h"

typedef struct ppcct ppcct_t;

ppcct_t *ppcct_new(void);
void ppcct_free(ppcct_t *p);                    /* NULL is fine */
/* Before the run: write the program's procedure entries (st's symbols)
 * into the guest's tree, for its tail-call test; false + err when the
 * runtime has no tree or the entries do not fit. */
bool ppcct_attach(ppcct_t *p, const runtime_t *rt, const symtab_t *st, char *err, size_t errlen);
/* One path sample: context node (the guest's d5), procedure entry, path. */
void ppcct_take(ppcct_t *p, uint64_t node, uint64_t proc, uint64_t path);
/* After the run: the guest's tree (symbol hps_pp_cct), node 0 being the
 * context of the program's first procedure, entered at entry_pc. */
void ppcct_read(ppcct_t *p, const runtime_t *rt, uint64_t entry_pc);
/* The section of the report: the guest tree's size and cost, then against
 * the exact tree (NULL: not scored) its contexts and call counts, and per
 * context the path instructions (count x static length, lengths from
 * paths) against the exact self instructions; the `top` heaviest contexts
 * with their hottest paths. */
void ppcct_report(const ppcct_t *p, const cct_t *exact, const paths_t *paths,
                  const symtab_t *st, size_t top, FILE *out);

/* The scores ppcct_report prints, for tests. */
typedef struct ppcct_score {
    uint64_t contexts, exact_contexts;  /* guest contexts, exact (root excluded) */
    uint64_t matched;                   /* guest contexts the exact tree has     */
    uint64_t calls_equal;               /* of them, with the exact call count    */
    uint64_t with_paths, insts_equal;   /* contexts with path samples, and of
                                           them those whose path instructions
                                           equal the exact self instructions    */
    uint64_t samples, samples_matched;  /* path samples; in matched contexts    */
} ppcct_score_t;
void ppcct_score(const ppcct_t *p, const cct_t *exact, const paths_t *paths, ppcct_score_t *s);

#endif /* HPS_PPCCT_H */
