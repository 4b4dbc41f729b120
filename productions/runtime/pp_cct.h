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
 *
 * PP's layout: a child slot per call site.  hps-pp-acf numbers each
 * procedure's call sites 0..k-1 and a call passes its index and k
 * (PPC_SITE_INFO); the first call made in a context gives its node k
 * slots from `slots` (slots[first - 1] = k, slots[first + i] = the first
 * child made at site i, 0 when none: node 0 is nobody's child).  A direct
 * call's lookup is so one indexed load and the check that the child is
 * the call's (site, target); the children of one slot (an indirect call's
 * targets, a tail call's replacements) are a list through `sibling`, most
 * recently used first.  A node the slots ran out for (counted) keeps its
 * children in one list from `child`, as does a lookup whose site index is
 * past the node's k (a context whose procedure d5 does not name: calls
 * from code hps-pp-acf does not instrument, a context charged to its
 * parent), so the slots are only the way to a child: the keying, and so
 * the tree, are the same whatever the slots hold.
 * Path counts carry d5 in their sample (hps_profile.h: c = node), so the
 * host's per-node path tables are the guest's counts by context.
 * Recursion is not folded (as the exact tree, and csprof's; PP's tree
 * points a call of a procedure already on the path back to the ancestor,
 * which would make its contexts other than the exact tree's).
 */
#ifndef HPS_PP_CCT_H
#define HPS_PP_CCT_H

/* The tree takes the bytes it took with 16 Ki nodes and no slots, so no
 * runtime address after it moved: 12 Ki nodes and 49,148 slot words. */
#define PPC_MAX_NODES (12u << 10)
#define PPC_MAX_ENTRIES (16u << 10)
#define PPC_MAX_SLOTS 49148u
#define PPC_NONE      0xffffffffu
#define PPC_TREE_BYTES 917544u

/* A call's site argument (d10): its index in its procedure, and the
 * procedure's number of call sites. */
#define PPC_SITE_INFO(index, nsites) ((uint64_t)(nsites) << 32 | (uint64_t)(index))

/* Offsets for the assembly handler (PathEnter_handler_asm): the tree's
 * lookups and steps, its nodes and slots; a node's fields and size. */
#define PPC_OFF_LOOKUPS 16
#define PPC_OFF_STEPS   24
#define PPC_OFF_NODES   (56 + 8 * (16 << 10))
#define PPC_OFF_SLOTS   (PPC_OFF_NODES + 48 * (12 << 10))
#define PPC_NODE_SIZE   48
#define PPC_NODE_CALLS  16
#define PPC_NODE_SLOTS  44

#ifndef __ASSEMBLER__
#include <stdint.h>

typedef struct ppc_node {
    uint64_t site, entry;       /* call site in the parent, callee's entry     */
    uint64_t calls;             /* entered from the parent at site              */
    uint32_t tail_calls;        /* of which by a tail call                      */
    uint32_t bucket;            /* its slot in the parent (PPC_NONE: the list)  */
    uint32_t parent, child;     /* child: the list of a node without slots      */
    uint32_t sibling;           /* the next in its slot's (or list's) children  */
    uint32_t slots;             /* its first slot word; 0: none yet             */
} ppc_node_t;

typedef struct ppc_tree {
    uint64_t nnodes;            /* 0 until the first call: node 0 is implicit  */
    uint64_t nodes_full;        /* contexts charged to their parent: no room   */
    uint64_t lookups, steps;    /* child lookups, list entries they walked     */
    uint64_t nentries;          /* procedure entries (host, before the run)    */
    uint64_t nslots;            /* slot words handed out (the first is unused) */
    uint64_t slots_full;        /* nodes the slots ran out for: a list         */
    uint64_t entries[PPC_MAX_ENTRIES];
    ppc_node_t nodes[PPC_MAX_NODES];
    uint32_t slots[PPC_MAX_SLOTS];
} ppc_tree_t;

_Static_assert(sizeof(ppc_node_t) == PPC_NODE_SIZE, "ppc_node_t layout");
_Static_assert(sizeof(ppc_tree_t) == PPC_TREE_BYTES, "ppc_tree_t keeps its size");
_Static_assert(__builtin_offsetof(ppc_node_t, calls) == PPC_NODE_CALLS, "ppc_node_t calls");
_Static_assert(__builtin_offsetof(ppc_node_t, slots) == PPC_NODE_SLOTS, "ppc_node_t slots");
_Static_assert(__builtin_offsetof(ppc_tree_t, lookups) == PPC_OFF_LOOKUPS, "ppc_tree_t lookups");
_Static_assert(__builtin_offsetof(ppc_tree_t, steps) == PPC_OFF_STEPS, "ppc_tree_t steps");
_Static_assert(__builtin_offsetof(ppc_tree_t, nodes) == PPC_OFF_NODES, "ppc_tree_t nodes");
_Static_assert(__builtin_offsetof(ppc_tree_t, slots) == PPC_OFF_SLOTS, "ppc_tree_t slots");
#endif /* __ASSEMBLER__ */

#endif /* HPS_PP_CCT_H */
