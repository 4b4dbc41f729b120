/*
 * pathnum.h - Ball-Larus path numbering of one procedure (PP, PLDI'97
 * section 2; shared/ALGORITHMS.md).
 *
 * The graph is a procedure's CFG (cfg.h) or a hand-made one (the unit
 * tests): blocks 0..n-1, edges between them and from ENTRY / to EXIT.  A
 * DFS from ENTRY finds the back edges; each back edge v->w is replaced by
 * the pseudo edges ENTRY->w (a path starts at the loop head) and v->EXIT
 * (a path ends at the back edge).  Blocks where control lands from an
 * indirect jump whose targets the CFG does not know ("landings") get a
 * pseudo edge ENTRY->w too: the jump ends a path (its block's edge to
 * EXIT) and the landing starts one, which is how PP's paths treat an edge
 * that cannot carry instrumentation.  Parallel real edges (a branch whose
 * target is its fall-through) are one edge.  On the resulting DAG,
 * NP(EXIT) = 1, NP(v) = sum of NP(successors), and the edges out of v get
 * Val(e_i) = sum_{j<i} NP(w_j), successors in edge order: every path from
 * ENTRY to EXIT has a distinct sum in [0, NP(ENTRY)).
 *
 * Instrumentation follows: r = 0 at procedure entry (Val of ENTRY->block
 * 0), r += Val(e) on a real edge, count[r + exit_val[v]]++ when v leaves
 * (return, jump out, back edge), and r = start_val[w] after a back edge
 * into w or a landing on w.
 */
#ifndef HPS_PATHNUM_H
#define HPS_PATHNUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"

#define BL_NONE UINT64_MAX          /* no such edge                           */

typedef struct bl_edge {
    int from, to;                   /* blocks, CFG_ENTRY or CFG_EXIT           */
    bool back;                      /* a back edge (cut; not in the DAG)      */
    uint64_t val;                   /* Val(e) on the DAG; 0 for a back edge   */
} bl_edge_t;

typedef struct bl_number {
    int nblocks;
    bl_edge_t *edges;               /* the real edges, deduplicated           */
    size_t nedges;
    uint64_t npaths;                /* NP(ENTRY); 0 when it overflowed        */
    uint64_t *np;                   /* NP(v) per block (0: not on the DAG)    */
    uint64_t *start_val;            /* Val(ENTRY->v, pseudo) or BL_NONE       */
    uint64_t *exit_val;             /* Val(v->EXIT, pseudo) or BL_NONE         */
    uint64_t entry_val;             /* Val(ENTRY->block 0)                    */
    bool overflow;                  /* more than 2^62 paths: not numbered     */
} bl_number_t;

/* Number the graph of nblocks blocks with the given edges (from/to as in
 * cfg_edge_t) and the landing blocks landing[0..nlanding).  Edges out of a
 * block keep their order in `edges`.  false only when nblocks is 0 or no
 * edge leaves ENTRY. */
bool bl_number(int nblocks, const cfg_edge_t *edges, size_t nedges, const int *landing,
               size_t nlanding, bl_number_t *out);
void bl_number_free(bl_number_t *n);

/* The real edge from -> to, or NULL. */
const bl_edge_t *bl_edge(const bl_number_t *n, int from, int to);

/* The blocks of path `sum` into blocks[0..max) (in order), its first
 * block's way in (true = a pseudo ENTRY edge: a loop head or landing) and
 * its last block's way out (*pseudo_end = a back edge).  Returns the
 * number of blocks on the path (only the first max are stored), 0 for a
 * sum outside [0, npaths). */
size_t bl_regenerate(const bl_number_t *n, uint64_t sum, int *blocks, size_t max,
                     bool *pseudo_start, bool *pseudo_end);

#endif /* HPS_PATHNUM_H */
