/*
 * pp_cct.h - PP's calling context tree (Ammons, Ball and Larus, PLDI 1997,
 * section 4) as the guest handler runtime keeps it for PP on DISE
 * (`hps-pp-acf --cct`, handlers.c), one layout for the guest and for the
 * host that reads it after the run (dcpi/ppcct.c).
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
 * PP's layout: a child slot per call site (handlers.c, PathEnter_handler).  hps-pp-acf numbers
 * each procedure's call sites 0..k-1 and a call passes its index and k
 * (PPC_SITE_INFO); the first call made in a context gives its node k slot
 * words from `hps_pp_slots` (words[first - 1] = k, words[first + i] =
 * the child last found for site i, 0 when none: node 0 is nobody's
 * child; hps_pp_slots is in handlers_asm.S).  A direct call's lookup is so one indexed load and the check
 * that the slot's child is the call's (site, target); when it is not
 * (an indirect call's other target, a new context, no slot) the
 * children's list (most recently used first) is walked and the slot
 * remembers the child found.  The slots only cache the list, so the tree,
 * its keying and the tail calls' lookups are the list's, whatever the
 * slots hold; a node the slot words ran out for (counted) always walks.
 * Path counts carry d5 in their sample (hps_profile.h: c = node), so the
 * host's per-node path tables are the guest's counts by context.
 * Recursion is not folded (as the exact tree, and csprof's; PP's tree
 * points a call of a procedure already on the path back to the ancestor,
 * which would make its contexts other than the exact tree's).
 */
#ifndef HPS_PP_CCT_H
#define HPS_PP_CCT_H

#define PPC_MAX_NODES (16u << 10)
#define PPC_MAX_ENTRIES (16u << 10)
#define PPC_MAX_SLOTS (64u << 10)
#define PPC_NONE      0xffffffffu

/* A call's site argument (d10): its index in its procedure, and the
 * procedure's number of call sites. */
#define PPC_SITE_INFO(index, nsites) ((uint64_t)(nsites) << 32 | (uint64_t)(index))

/* Offsets for the assembly handler (PathEnter_handler_asm): the tree's
 * lookups and steps, its nodes; a node's fields and size; the slots'
 * words. */
#define PPC_OFF_LOOKUPS 16
#define PPC_OFF_STEPS   24
#define PPC_OFF_NODES   (40 + 8 * (16 << 10))
#define PPC_NODE_SIZE   48
#define PPC_NODE_CALLS  16
#define PPC_NODE_CHILD  36
#define PPC_NODE_SLOTS  44
#define PPC_OFF_ENTER   16
#define PPC_OFF_WORDS   24

#ifndef __ASSEMBLER__
#include <stdint.h>

typedef struct ppc_node {
    uint64_t site, entry;       /* call site in the parent, callee's entry     */
    uint64_t calls;             /* entered from the parent at site              */
    uint64_t tail_calls;        /* of which by a tail call                      */
    uint32_t parent, child, sibling;
    uint32_t slots;             /* its first slot word; 0: none yet            */
} ppc_node_t;

typedef struct ppc_tree {
    uint64_t nnodes;            /* 0 until the first call: node 0 is implicit  */
    uint64_t nodes_full;        /* contexts charged to their parent: no room   */
    uint64_t lookups, steps;    /* child lookups, list entries they walked     */
    uint64_t nentries;          /* procedure entries (host, before the run)    */
    uint64_t entries[PPC_MAX_ENTRIES];
    ppc_node_t nodes[PPC_MAX_NODES];
} ppc_tree_t;

/* The child slots (hps_pp_slots, handlers_asm.S: after all the runtime's
 * other data). */
typedef struct ppc_slots {
    uint64_t used;              /* words handed out (word 0: k = 0, the empty set) */
    uint64_t full;              /* nodes the words ran out for: they walk the list */
    uint64_t list_enter;        /* hps_path_enter's address, which the entry wrapper
                                   writes: the slots' code, above the data,
                                   reaches no .text directly (runtime.ld) */
    uint32_t words[PPC_MAX_SLOTS];
} ppc_slots_t;

_Static_assert(sizeof(ppc_node_t) == PPC_NODE_SIZE, "ppc_node_t layout");
_Static_assert(__builtin_offsetof(ppc_node_t, calls) == PPC_NODE_CALLS, "ppc_node_t calls");
_Static_assert(__builtin_offsetof(ppc_node_t, child) == PPC_NODE_CHILD, "ppc_node_t child");
_Static_assert(__builtin_offsetof(ppc_node_t, slots) == PPC_NODE_SLOTS, "ppc_node_t slots");
_Static_assert(__builtin_offsetof(ppc_tree_t, lookups) == PPC_OFF_LOOKUPS, "ppc_tree_t lookups");
_Static_assert(__builtin_offsetof(ppc_tree_t, steps) == PPC_OFF_STEPS, "ppc_tree_t steps");
_Static_assert(__builtin_offsetof(ppc_tree_t, nodes) == PPC_OFF_NODES, "ppc_tree_t nodes");
_Static_assert(__builtin_offsetof(ppc_slots_t, list_enter) == PPC_OFF_ENTER, "ppc_slots_t list_enter");
_Static_assert(__builtin_offsetof(ppc_slots_t, words) == PPC_OFF_WORDS, "ppc_slots_t words");

/* handlers.c: a call's lookup in the children's list (d5 -> the child);
 * in the slot first (the entry wrapper in wrappers.S passes hps_pp_slots). */
void hps_path_enter(uint64_t site, uint64_t entry);
void hps_path_enter_slot(uint64_t site, uint64_t entry, uint64_t info, ppc_slots_t *s);
#endif /* __ASSEMBLER__ */

#endif /* HPS_PP_CCT_H */
