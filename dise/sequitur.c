/*
 * sequitur.c - SEQUITUR, the online grammar builder of sequitur.h.
 *
 * The structure follows Nevill-Manning's reference implementation: each
 * rule's right-hand side is a circular doubly linked list of symbol nodes
 * through a guard node, and a hash table maps each digram (pair of adjacent
 * symbol values) to the node where it starts.  Two departures, both for
 * the invariants' sake:
 *   - The digrams that an operation creates are not checked at once (the
 *     reference recurses, and skips some): their first nodes go on a
 *     pending stack, and sequitur_append() checks them until the stack is
 *     empty.  A node freed meanwhile is skipped; a node reused meanwhile is
 *     checked harmlessly.  So the digrams formed when a rule is expanded in
 *     place are checked too, and rule utility is checked at both ends of a
 *     rule made or reused (an operation never cascades in between).
 *   - The overlap exception: of the two digrams of a run "aaa" only one is
 *     in the table.  When that one is removed and its overlapping twin
 *     remains, the twin is checked again, so it is found later.
 * The table holds an entry for node x only while x's digram is current:
 * every change of x's successor removes x's entry first (join()).  The
 * table is open-addressed (linear probing, at most 3/4 full, deletion by
 * backward shift); a slot holds the digram's two values and its node, so a
 * probe touches no node.
 */
#include "sequitur.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

#define NIL         UINT32_MAX
/* node values: terminal < 2^30, unique separator 0x4..., nonterminal 0x8...,
 * guard 0xC... (with the rule number), free node: all ones */
#define KIND_MASK   0xc0000000u
#define NONTERMINAL 0x80000000u
#define GUARD       0xc0000000u
#define FREE_NODE   0xffffffffu
#define RULE_MASK   0x3fffffffu

typedef struct node {
    uint32_t prev, next, value;
} node_t;

/* A digram table slot: the digram's two values and the node it starts at
 * (NIL: empty), packed so one cache line access reads both. */
typedef struct __attribute__((packed)) digram_slot {
    uint64_t key;
    uint32_t node;
} digram_slot_t;

struct sequitur {
    node_t *node;
    uint32_t node_cap, node_high, free_nodes;   /* free list through .next */
    uint32_t *rule_guard, *rule_uses;           /* guard NIL: rule free */
    uint32_t rule_cap, rule_high, free_rules;   /* free list through rule_uses */
    digram_slot_t *digram;
    size_t digram_mask, digram_count;
    uint32_t *pending;                          /* nodes whose digram to check */
    size_t npending, pending_cap;
    uint64_t input_len;
    uint32_t next_unique;
    size_t grammar_size, rules;
};

/* ---- nodes and rules ------------------------------------------------------------------ */

static inline bool is_guard(const sequitur_t *g, uint32_t x) { return (g->node[x].value & KIND_MASK) == GUARD; }
static inline bool is_nonterminal(const sequitur_t *g, uint32_t x) { return (g->node[x].value & KIND_MASK) == NONTERMINAL; }
static inline uint32_t rule_of(const sequitur_t *g, uint32_t x) { return g->node[x].value & RULE_MASK; }
static inline uint32_t first_of(const sequitur_t *g, uint32_t r) { return g->node[g->rule_guard[r]].next; }
static inline uint32_t last_of(const sequitur_t *g, uint32_t r) { return g->node[g->rule_guard[r]].prev; }

static uint32_t node_new(sequitur_t *g, uint32_t value)
{
    uint32_t x = g->free_nodes;
    if (x != NIL) {
        g->free_nodes = g->node[x].next;
    } else {
        if (g->node_high == g->node_cap) {
            g->node_cap = g->node_cap ? g->node_cap * 2 : 1024;
            g->node = xrealloc(g->node, (size_t)g->node_cap * sizeof *g->node);
        }
        x = g->node_high++;
    }
    g->node[x] = (node_t){ NIL, NIL, value };
    return x;
}

static void node_release(sequitur_t *g, uint32_t x)
{
    g->node[x] = (node_t){ NIL, g->free_nodes, FREE_NODE };
    g->free_nodes = x;
}

static uint32_t rule_new(sequitur_t *g)
{
    uint32_t r = g->free_rules;
    if (r != NIL) {
        g->free_rules = g->rule_uses[r];
    } else {
        if (g->rule_high == g->rule_cap) {
            g->rule_cap = g->rule_cap ? g->rule_cap * 2 : 256;
            g->rule_guard = xrealloc(g->rule_guard, (size_t)g->rule_cap * sizeof *g->rule_guard);
            g->rule_uses = xrealloc(g->rule_uses, (size_t)g->rule_cap * sizeof *g->rule_uses);
        }
        r = g->rule_high++;
    }
    uint32_t guard = node_new(g, GUARD | r);
    g->node[guard].prev = g->node[guard].next = guard;
    g->rule_guard[r] = guard;
    g->rule_uses[r] = 0;
    g->rules++;
    return r;
}

static void rule_release(sequitur_t *g, uint32_t r)
{
    node_release(g, g->rule_guard[r]);
    g->rule_guard[r] = NIL;
    g->rule_uses[r] = g->free_rules;
    g->free_rules = r;
    g->rules--;
}

static void push_pending(sequitur_t *g, uint32_t x)
{
    if (g->npending == g->pending_cap) {
        g->pending_cap = g->pending_cap ? g->pending_cap * 2 : 64;
        g->pending = xrealloc(g->pending, g->pending_cap * sizeof *g->pending);
    }
    g->pending[g->npending++] = x;
}

/* ---- the digram table ------------------------------------------------------------------ */

static inline uint64_t digram_key(uint32_t a, uint32_t b) { return (uint64_t)a << 32 | b; }

static inline size_t digram_hash(uint64_t key)
{
    uint64_t h = key * 0x9E3779B97F4A7C15ull;
    h ^= h >> 32;
    h *= 0xBF58476D1CE4E5B9ull;
    return (size_t)(h ^ h >> 29);
}

/* Does x start a digram (neither x nor its successor is a guard)? */
static inline bool has_digram(const sequitur_t *g, uint32_t x)
{
    uint32_t n = g->node[x].next;
    return n != NIL && !is_guard(g, x) && !is_guard(g, n);
}

static inline uint64_t key_of(const sequitur_t *g, uint32_t x)
{
    return digram_key(g->node[x].value, g->node[g->node[x].next].value);
}

/* The slot holding digram `key`, or the empty slot where it would go. */
static size_t digram_slot(const sequitur_t *g, uint64_t key)
{
    size_t i = digram_hash(key) & g->digram_mask;
    while (g->digram[i].node != NIL && g->digram[i].key != key) i = (i + 1) & g->digram_mask;
    return i;
}

static size_t slot_of(const sequitur_t *g, uint32_t x)
{
    return digram_slot(g, key_of(g, x));
}

static void digram_grow(sequitur_t *g)
{
    digram_slot_t *old = g->digram;
    size_t old_cap = g->digram_mask + 1;
    size_t cap = old ? old_cap * 2 : 1024;
    g->digram = xcalloc(cap, sizeof *g->digram);
    memset(g->digram, 0xff, cap * sizeof *g->digram);
    g->digram_mask = cap - 1;
    for (size_t i = 0; old && i < old_cap; i++)
        if (old[i].node != NIL) g->digram[digram_slot(g, old[i].key)] = old[i];
    free(old);
}

/* Enter x's digram in the empty slot found for it; at most 3/4 full. */
static void digram_put(sequitur_t *g, size_t slot, uint32_t x)
{
    g->digram[slot] = (digram_slot_t){ key_of(g, x), x };
    if (++g->digram_count * 4 > (g->digram_mask + 1) * 3) digram_grow(g);
}

/* Empty slot i, moving later entries of its probe run back (linear probing). */
static void digram_delete_slot(sequitur_t *g, size_t i)
{
    size_t mask = g->digram_mask;
    for (size_t j = (i + 1) & mask; g->digram[j].node != NIL; j = (j + 1) & mask) {
        size_t home = digram_hash(g->digram[j].key) & mask;
        /* the entry at j may move to i when i lies in [home, j) cyclically */
        if (((j - home) & mask) >= ((j - i) & mask)) {
            g->digram[i] = g->digram[j];
            i = j;
        }
    }
    g->digram[i].node = NIL;
    g->digram_count--;
}

/* A node next to x that holds the same digram (the other half of a run
 * "aaa") is checked again: it must be found once x's entry is gone. */
static void recheck_overlap(sequitur_t *g, uint32_t x, uint64_t key)
{
    uint32_t n = g->node[x].next, p = g->node[x].prev;
    if (has_digram(g, n) && key_of(g, n) == key) push_pending(g, n);
    if (p != NIL && has_digram(g, p) && key_of(g, p) == key) push_pending(g, p);
}

/* Remove x's digram from the table if the entry is x's. */
static void digram_remove(sequitur_t *g, uint32_t x)
{
    if (!has_digram(g, x)) return;
    size_t i = slot_of(g, x);
    if (g->digram[i].node != x) return;
    digram_delete_slot(g, i);
    recheck_overlap(g, x, key_of(g, x));
}

/* ---- the linked lists ---------------------------------------------------------------- */

static void join(sequitur_t *g, uint32_t left, uint32_t right)
{
    if (g->node[left].next != NIL) digram_remove(g, left);
    g->node[left].next = right;
    g->node[right].prev = left;
}

static void insert_after(sequitur_t *g, uint32_t x, uint32_t y)
{
    join(g, y, g->node[x].next);
    join(g, x, y);
}

/* Unlink and free a right-hand-side node, with its digrams and its use. */
static void delete_node(sequitur_t *g, uint32_t x)
{
    join(g, g->node[x].prev, g->node[x].next);
    digram_remove(g, x);
    if (is_nonterminal(g, x)) g->rule_uses[rule_of(g, x)]--;
    node_release(g, x);
    g->grammar_size--;
}

static uint32_t symbol_new(sequitur_t *g, uint32_t value)
{
    if ((value & KIND_MASK) == NONTERMINAL) g->rule_uses[value & RULE_MASK]++;
    g->grammar_size++;
    return node_new(g, value);
}

/* ---- the invariants -------------------------------------------------------------------- */

/* Replace the digram starting at x with rule r. */
static void substitute(sequitur_t *g, uint32_t x, uint32_t r)
{
    uint32_t q = g->node[x].prev;
    delete_node(g, g->node[q].next);
    delete_node(g, g->node[q].next);
    uint32_t y = symbol_new(g, NONTERMINAL | r);
    insert_after(g, q, y);
    push_pending(g, y);               /* checked second */
    push_pending(g, q);               /* checked first  */
}

/* Rule utility: the rule used by x is used only there; put its
 * right-hand side in x's place. */
static void expand(sequitur_t *g, uint32_t x)
{
    uint32_t r = rule_of(g, x);
    uint32_t left = g->node[x].prev, right = g->node[x].next;
    uint32_t f = first_of(g, r), l = last_of(g, r);
    digram_remove(g, x);
    join(g, l, f);                      /* the guard drops out */
    rule_release(g, r);
    join(g, left, right);               /* x drops out (its use with it) */
    node_release(g, x);
    g->grammar_size--;
    join(g, left, f);
    join(g, l, right);
    push_pending(g, l);
    push_pending(g, left);
}

static void check_utility(sequitur_t *g, uint32_t x)
{
    if (is_nonterminal(g, x) && g->rule_uses[rule_of(g, x)] == 1) expand(g, x);
}

static bool whole_rule(const sequitur_t *g, uint32_t x)
{
    return is_guard(g, g->node[x].prev) && is_guard(g, g->node[g->node[x].next].next);
}

/* Digram x repeats digram m (not overlapping). */
static void match(sequitur_t *g, uint32_t x, uint32_t m)
{
    if (whole_rule(g, x) && !whole_rule(g, m)) {
        uint32_t t = x; x = m; m = t;
    }
    uint32_t r;
    if (whole_rule(g, m)) {
        r = rule_of(g, g->node[m].prev);
        substitute(g, x, r);
    } else {
        r = rule_new(g);
        uint32_t guard = g->rule_guard[r];
        insert_after(g, guard, symbol_new(g, g->node[x].value));
        insert_after(g, g->node[guard].next, symbol_new(g, g->node[g->node[x].next].value));
        substitute(g, m, r);
        substitute(g, x, r);
        uint32_t f = first_of(g, r);
        size_t slot = slot_of(g, f);
        if (g->digram[slot].node == NIL) digram_put(g, slot, f);
    }
    check_utility(g, first_of(g, r));
    check_utility(g, last_of(g, r));
}

/* Digram uniqueness for the digram starting at x. */
static void check(sequitur_t *g, uint32_t x)
{
    if (g->node[x].value == FREE_NODE || !has_digram(g, x)) return;
    size_t slot = slot_of(g, x);
    uint32_t m = g->digram[slot].node;
    if (m == NIL) {
        digram_put(g, slot, x);
        return;
    }
    if (m == x || g->node[m].next == x || g->node[x].next == m) return;  /* itself, or "aaa" */
    match(g, x, m);
}

static void settle(sequitur_t *g)
{
    while (g->npending) check(g, g->pending[--g->npending]);
}

/* ---- the interface --------------------------------------------------------------------- */

sequitur_t *sequitur_new(void)
{
    sequitur_t *g = xcalloc(1, sizeof *g);
    g->free_nodes = g->free_rules = NIL;
    digram_grow(g);
    uint32_t s = rule_new(g);
    g->rule_uses[s] = 0;
    return g;
}

void sequitur_free(sequitur_t *g)
{
    if (!g) return;
    free(g->node);
    free(g->rule_guard);
    free(g->rule_uses);
    free(g->digram);
    free(g->pending);
    free(g);
}

static void append_value(sequitur_t *g, uint32_t value)
{
    uint32_t guard = g->rule_guard[0];
    uint32_t last = g->node[guard].prev;
    insert_after(g, last, symbol_new(g, value));
    g->input_len++;
    push_pending(g, last);
    settle(g);
}

void sequitur_append(sequitur_t *g, uint32_t terminal)
{
    append_value(g, terminal & SEQUITUR_MAX_TERMINAL);
}

void sequitur_append_unique(sequitur_t *g)
{
    append_value(g, SEQUITUR_UNIQUE_BIT | (g->next_unique++ & SEQUITUR_MAX_TERMINAL));
}

uint64_t sequitur_input_length(const sequitur_t *g) { return g->input_len; }
size_t sequitur_grammar_size(const sequitur_t *g) { return g->grammar_size; }
size_t sequitur_rule_count(const sequitur_t *g) { return g->rules; }

size_t sequitur_bytes(const sequitur_t *g)
{
    return sizeof *g + (size_t)g->node_cap * sizeof *g->node +
           (size_t)g->rule_cap * 2 * sizeof(uint32_t) + (g->digram_mask + 1) * sizeof *g->digram +
           g->pending_cap * sizeof(uint32_t);
}

/* ---- export ------------------------------------------------------------------------------ */

/* Number the rules in preorder of first use from S: number[r] = k + 1. */
static uint32_t number_rules(const sequitur_t *g, uint32_t *number, uint32_t *order)
{
    uint32_t n = 0;
    uint32_t *stack = xcalloc(g->rules + 1, sizeof *stack);   /* nodes to resume at */
    size_t depth = 0;
    number[0] = ++n;
    order[0] = 0;
    stack[depth++] = first_of(g, 0);
    while (depth) {
        uint32_t x = stack[depth - 1];
        if (is_guard(g, x)) { depth--; continue; }
        stack[depth - 1] = g->node[x].next;
        if (!is_nonterminal(g, x) || number[rule_of(g, x)]) continue;
        uint32_t r = rule_of(g, x);
        order[n] = r;
        number[r] = ++n;
        stack[depth++] = first_of(g, r);
    }
    free(stack);
    return n;
}

void sequitur_export(const sequitur_t *g, sequitur_grammar_t *out)
{
    uint32_t *number = xcalloc(g->rule_high, sizeof *number);
    uint32_t *order = xcalloc(g->rules, sizeof *order);
    uint32_t nrules = number_rules(g, number, order);
    out->nrules = nrules;
    out->start = xcalloc((size_t)nrules + 1, sizeof *out->start);
    out->sym = xcalloc(g->grammar_size ? g->grammar_size : 1, sizeof *out->sym);
    uint32_t k = 0;
    for (uint32_t i = 0; i < nrules; i++) {
        out->start[i] = k;
        uint32_t guard = g->rule_guard[order[i]];
        for (uint32_t x = g->node[guard].next; x != guard; x = g->node[x].next)
            out->sym[k++] = is_nonterminal(g, x) ? SEQUITUR_RULE_BIT | (number[rule_of(g, x)] - 1)
                                                 : g->node[x].value;
    }
    out->start[nrules] = k;
    free(number);
    free(order);
}

void sequitur_grammar_free(sequitur_grammar_t *gr)
{
    free(gr->start);
    free(gr->sym);
    memset(gr, 0, sizeof *gr);
}

size_t sequitur_grammar_bytes(const sequitur_grammar_t *gr)
{
    return ((size_t)gr->nrules + 1 + (gr->nrules ? gr->start[gr->nrules] : 0)) * sizeof(uint32_t);
}
