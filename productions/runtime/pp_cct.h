/*
 * pp_cct.h - PP's calling context tree (Ammons, Ball and Larus, PLDI 1997,
 * section 4) as the guest handler runtime keeps it for PP on DISE
 * (`hps-pp-acf --cct`, handlers.c), one layout for the guest and for the
 * host that reads it after the run (dcpi/pp_cct.c).
 *
 * Node k is a calling context, keyed as the exact CCT's (include/cct.h):
 * its parent, the call site in the parent and the callee's entry (the
 * call's target).  Node 0 is the program's first procedure (the exact
 * tree's child of its root).  The current node is DISE register d5: a
 * call (PathEnter_handler) moves it to the child for (site, target) and
 * counts the call on that node; the path stack's push saves it and the
 * pop that matches a return puts it back; a tail call (PathTail_handler)
 * replaces it by its parent's child for the same site and the new target,
 * when the target is another procedure's entry: one of `entries`, the
 * program's procedure entries sorted, which the host writes before the
 * run (the exact CCT's rule: a jump to a symbol's start).
 * Path counts carry d5 in their sample (hps_profile.h: c = node), so the
 * host's per-node path tables are the guest's counts by context.
 * Recursion is not folded (as the exact tree, and csprof's).
 */
#ifndef HPS_PP_CCT_H
#define HPS_PP_CCT_H

#define PPC_MAX_NODES (16u << 10)
#define PPC_MAX_ENTRIES (16u << 10)
#define PPC_NONE      0xffffffffu

/* Offsets for the assembly handler (PathEnter_handler_asm): the tree's
 * lookups and steps, its nodes; a node's fields and size. */
#define PPC_OFF_LOOKUPS 16
#define PPC_OFF_STEPS   24
#define PPC_OFF_NODES   (40 + 8 * (16 << 10))
#define PPC_NODE_SIZE   48
#define PPC_NODE_CALLS  16
#define PPC_NODE_CHILD  36

#ifndef __ASSEMBLER__
#include <stdint.h>

typedef struct ppc_node {
    uint64_t site, entry;       /* call site in the parent, callee's entry     */
    uint64_t calls;             /* entered from the parent at site              */
    uint64_t tail_calls;        /* of which by a tail call                      */
    uint32_t parent, child, sibling, pad;
} ppc_node_t;

typedef struct ppc_tree {
    uint64_t nnodes;            /* 0 until the first call: node 0 is implicit  */
    uint64_t nodes_full;        /* contexts charged to their parent: no room   */
    uint64_t lookups, steps;    /* child lookups, list entries they walked     */
    uint64_t nentries;          /* procedure entries (host, before the run)    */
    uint64_t entries[PPC_MAX_ENTRIES];
    ppc_node_t nodes[PPC_MAX_NODES];
} ppc_tree_t;

_Static_assert(sizeof(ppc_node_t) == PPC_NODE_SIZE, "ppc_node_t layout");
_Static_assert(__builtin_offsetof(ppc_node_t, calls) == PPC_NODE_CALLS, "ppc_node_t calls");
_Static_assert(__builtin_offsetof(ppc_node_t, child) == PPC_NODE_CHILD, "ppc_node_t child");
_Static_assert(__builtin_offsetof(ppc_tree_t, lookups) == PPC_OFF_LOOKUPS, "ppc_tree_t lookups");
_Static_assert(__builtin_offsetof(ppc_tree_t, steps) == PPC_OFF_STEPS, "ppc_tree_t steps");
_Static_assert(__builtin_offsetof(ppc_tree_t, nodes) == PPC_OFF_NODES, "ppc_tree_t nodes");
#endif /* __ASSEMBLER__ */

#endif /* HPS_PP_CCT_H */
