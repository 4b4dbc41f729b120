/*
 * hps-pp-acf - PP's path profiling (PLDI'97) as a DISE production file:
 * `hps-pp-acf PROG > pp.acf`, then `hps-sim --acf pp.acf --paths FILE PROG`
 * counts every executed Ball-Larus path of PROG in the guest and scores
 * the counts against the exact path profile.
 *
 * The procedures' CFGs and numbering are the exact recorder's (paths.h on
 * dcpi/cfg.c and pathnum.h), read from the file.  The increments are
 * placed on chords (Ball-Larus's optimal placement, shared/ALGORITHMS.md):
 * a maximum-weight spanning tree of the DAG's edges, with a virtual edge
 * EXIT->ENTRY forced into it, gets increment 0; every other edge e = u->v
 * gets Inc(e) = Val(e) + phi(u) - phi(v), phi the potential the tree's
 * Vals define (phi(ENTRY) = phi(EXIT) = 0), so every ENTRY->EXIT path sums
 * the same Incs as Vals.  Weights are a static estimate: 10^(loop depth)
 * for edges between blocks, 0 for the edges from ENTRY and to EXIT (path
 * starts and ends run code anyway, so an increment there is free).
 *
 * Only the instruction that ends a block with an instrumented edge is
 * matched (plus procedure entries, switch landings and return addresses):
 * a conditional branch runs its T.INSN and then adds the taken or the
 * fall-through increment by T.TAKEN (dise/README.md); a back edge counts
 * the path r + Inc(u->EXIT) and restarts r = Inc(ENTRY->head); a return
 * counts r + Inc(u->EXIT).  The path register r is d0.  Rows live in one
 * per-PC table PPT (columns below); which sequence an instruction runs is
 * chosen by small marker tables (one production each), so no sequence
 * dispatches on its kind at run time.
 *
 * Counting a path is PP's count[r]++ in line: DISE's `tally` adds 1 to a
 * word of its tally table (hps_profile.h), the procedure's first word
 * (column tally) plus r.  Procedures get their words fewest paths first;
 * one that gets none (too many paths for the table) appends a sample by
 * PathCount_handler instead.  Table PPTALLY (entry: first word, paths)
 * tells the host where to read the counts after the run.  With --cct
 * (counts per context) and --metrics (a reading per path) every count is
 * a sample.
 *
 * Calls: PathPush_handler saves r with the return address and sp, the call
 * sets d6 (an entry is due) and poisons r; a procedure's entry row (its
 * first block, and Alpha's same-gp entry 8 bytes in) starts r at
 * Inc(ENTRY->entry) when d6 is set.  A return counts its path and puts
 * the caller's r back (PathReturn_handler: the pop matches the return's
 * target and sp) and leaves its target in d3.  The return address of a
 * call whose callee may not come back by an instrumented return (an
 * indirect call, a callee not instrumented or leaving by a jump) keeps a
 * row that calls PathPop_handler unless d3 is its pc.  An indirect jump
 * counts its path and sets d7; a landing row (a block with an ENTRY edge,
 * in procedures with such jumps) restarts r when d7 is set.  d8-d10 carry
 * handler arguments, d4 is scratch.  All four handlers have assembly
 * versions, so the default --handlers asm runs it.
 *
 * --sampled: the same, with the counts taken only during HPS's bursts
 * (sampling_framework.acf: events are calls and back edges; sampleFreq,
 * burstLength), the path register kept up always: a first production
 * takes every row while overflow_1 && !overflow_2 and runs the end part
 * its kind column names, with the count; the productions by kind run the
 * same sequences without counts.
 *
 * --cct: PP's calling context tree in the guest (productions/runtime/
 * pp_cct.h): the current context is d5, which the path stack saves and
 * restores with r; a call's push is followed by PathEnter_handler (d8 =
 * the call's pc, d9 = T.TARGET, d10 = column site: the call's index among
 * its procedure's calls, numbered in address order, and their number,
 * which picks the node's child slot, PP's layout: d5 moves to that
 * child); a jump out to a
 * procedure entry (column tailto) and every indirect jump call
 * PathTail_handler (the callee replaces the context when the target is
 * another procedure's entry).  Path samples carry d5, so the host counts
 * paths per context.  Run with hps-sim --cct, which scores the tree.
 *
 * Procedures that cannot be instrumented this way are left out and named
 * in the file's header: a conditional branch leaving the procedure.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "hps_profile.h"
#include "isa.h"
#include "loader.h"
#include "pathnum.h"
#include "paths.h"
#include "pp_cct.h"
#include "symtab.h"
#include "util.h"

#define die(...) die_bad_input("hps-pp-acf", __VA_ARGS__)
#define POISON (1ll << 62)

/* The columns of a PPT row (the sequences below read them by number). */
enum {
    C_POP,          /* 1: a return address: PathPop_handler                 */
    C_ENTRY,        /* 1: a procedure entry: r = C_RE when d6 (entry due)    */
    C_RE,
    C_LAND,         /* 1: a switch landing: r = C_RL when d7 (landing due)   */
    C_RL,
    C_PROC,         /* the procedure the counts are for (its entry)          */
    C_TA, C_TK, C_TR,   /* taken (or only) way out: add, count?, restart    */
    C_FA, C_FK, C_FR,   /* fall-through way out of a conditional branch     */
    C_D,            /* TA - FA (a branch without counts)                     */
    C_RET,          /* a call's return address                               */
    C_TAIL,         /* 1: a way out that enters another procedure's entry    */
    C_KIND,         /* kind_t (--sampled's burst sequence dispatches on it)   */
    C_TAILTO,       /* --cct: a jump out's target when it is a procedure entry */
    C_TALLY,        /* the procedure's first word in DISE's tally table (0: its
                       paths are counted by PathCount_handler)               */
    C_SITE,         /* --cct: a call's index among its procedure's call sites
                       and their number (PPC_SITE_INFO: its child slot)      */
    C_COUNT
};

/* What the instruction ending a block does (the marker table it is in). */
typedef enum {
    K_NONE,         /* nothing: only a start part (entry, landing, pop)      */
    K_ADD,          /* r += TA                                               */
    K_END,          /* r += TA, count, r = TR (a back edge by jump or fall)  */
    K_BR,           /* r += FA, or TA when taken (no count)                  */
    K_BRC,          /* either side may count and restart                     */
    K_CALL,         /* r += TA, push r, enter                                */
    K_CALLC,        /* r += TA, count, r = TR, push r, enter                 */
    K_EXIT,         /* count r + TA (jump out)                               */
    K_IND,          /* count r + TA, landing due (indirect jump)             */
    K_RET,          /* count r + TA and pop for the return's target          */
    K_KINDS
} kind_t;

static const char *const kind_names[K_KINDS] = {
    "none", "add", "end", "br", "brc", "call", "callc", "exit", "ind", "ret"
};

typedef struct row {
    uint64_t pc;
    int64_t v[C_COUNT];
    uint8_t kind;
    bool start;                     /* has a start part (pop, entry, landing) */
    uint64_t callee;                /* a pop row: the direct call's target (0: indirect) */
} row_t;

typedef struct rows {
    row_t *v;
    size_t n, cap;
    size_t proc_first;              /* the current procedure's first row      */
} rows_t;

/* The row of pc among the current procedure's, added if new. */
static row_t *row_at(rows_t *r, uint64_t pc)
{
    for (size_t k = r->proc_first; k < r->n; k++)
        if (r->v[k].pc == pc) return &r->v[k];
    if (r->n == r->cap) r->v = xrealloc(r->v, (r->cap = r->cap ? 2 * r->cap : 1024) * sizeof *r->v);
    row_t *x = &r->v[r->n++];
    memset(x, 0, sizeof *x);
    x->pc = pc;
    return x;
}

/* ---- chord increments ------------------------------------------------------------ */

typedef enum { E_REAL, E_START, E_EXIT, E_VIRTUAL } gedge_kind_t;

typedef struct gedge {
    int from, to;                   /* nodes: blocks, n = ENTRY, n + 1 = EXIT */
    gedge_kind_t kind;
    uint64_t val, weight, inc;
    bool tree;
} gedge_t;

typedef struct chords {
    int n;                          /* blocks                                 */
    gedge_t *e;
    size_t ne;
    size_t ntree, nchords;          /* real and pseudo edges of the DAG       */
} chords_t;

static int node_of(int n, int b) { return b == CFG_ENTRY ? n : b == CFG_EXIT ? n + 1 : b; }

static void add_gedge(chords_t *c, int from, int to, gedge_kind_t kind, uint64_t val)
{
    c->e = xrealloc(c->e, (c->ne + 1) * sizeof *c->e);
    c->e[c->ne++] = (gedge_t){ from, to, kind, val, 0, 0, false };
}

/* Loop depth of every block: the natural loops of the back edges that
 * contain it (the blocks reaching the tail without passing the head). */
static int *loop_depths(const bl_number_t *bl)
{
    int n = bl->nblocks;
    int *depth = xcalloc((size_t)n, sizeof *depth), *stack = xcalloc((size_t)n, sizeof *stack);
    char *in = xcalloc((size_t)n, 1);
    for (size_t k = 0; k < bl->nedges; k++) {
        const bl_edge_t *be = &bl->edges[k];
        if (!be->back || be->from < 0 || be->to < 0) continue;
        memset(in, 0, (size_t)n);
        int top = 0;
        in[be->to] = 1;
        if (!in[be->from]) { in[be->from] = 1; stack[top++] = be->from; }
        while (top) {
            int v = stack[--top];
            for (size_t j = 0; j < bl->nedges; j++) {
                const bl_edge_t *p = &bl->edges[j];
                if (p->to == v && p->from >= 0 && !in[p->from]) { in[p->from] = 1; stack[top++] = p->from; }
            }
        }
        for (int v = 0; v < n; v++) depth[v] += in[v];
    }
    free(stack);
    free(in);
    return depth;
}

static int uf_find(int *parent, int x)
{
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
}

static int by_weight(const void *a, const void *b, void *ctx)
{
    const gedge_t *e = ctx;
    size_t x = *(const size_t *)a, y = *(const size_t *)b;
    if (e[x].weight != e[y].weight) return e[x].weight > e[y].weight ? -1 : 1;
    return x < y ? -1 : x > y;
}

/* Kruskal: the heaviest edges that join two components, the virtual edge first. */
static void spanning_tree(chords_t *c)
{
    int nn = c->n + 2;
    int *parent = xcalloc((size_t)nn, sizeof *parent);
    for (int v = 0; v < nn; v++) parent[v] = v;
    size_t *order = xcalloc(c->ne, sizeof *order);
    for (size_t k = 0; k < c->ne; k++) order[k] = k;
    qsort_r(order, c->ne, sizeof *order, by_weight, c->e);
    for (size_t k = 0; k < c->ne; k++) {
        gedge_t *e = &c->e[order[k]];
        int a = uf_find(parent, e->from), b = uf_find(parent, e->to);
        if (a == b) continue;
        parent[a] = b;
        e->tree = true;
    }
    free(order);
    free(parent);
}

/* phi over the tree (each component from its first node), then the Incs. */
static void increments(chords_t *c)
{
    int nn = c->n + 2;
    uint64_t *phi = xcalloc((size_t)nn, sizeof *phi);
    char *seen = xcalloc((size_t)nn, 1);
    int *queue = xcalloc((size_t)nn, sizeof *queue);
    for (int r = -1; r < nn; r++) {
        int start = r < 0 ? c->n : r;               /* ENTRY first, then the rest */
        if (seen[start]) continue;
        int head = 0, tail = 0;
        queue[tail++] = start;
        seen[start] = 1;
        while (head < tail) {
            int v = queue[head++];
            for (size_t k = 0; k < c->ne; k++) {
                const gedge_t *e = &c->e[k];
                if (!e->tree) continue;
                if (e->from == v && !seen[e->to]) { phi[e->to] = phi[v] + e->val; seen[e->to] = 1; queue[tail++] = e->to; }
                else if (e->to == v && !seen[e->from]) { phi[e->from] = phi[v] - e->val; seen[e->from] = 1; queue[tail++] = e->from; }
            }
        }
    }
    for (size_t k = 0; k < c->ne; k++) {
        gedge_t *e = &c->e[k];
        e->inc = e->tree ? 0 : e->val + phi[e->from] - phi[e->to];
        if (e->kind == E_VIRTUAL) continue;
        if (e->tree) c->ntree++;
        else c->nchords++;
    }
    free(queue);
    free(seen);
    free(phi);
}

/* The DAG of bl (real edges but back edges, the pseudo edges, the virtual
 * EXIT->ENTRY) with chord increments. */
static void chords_build(chords_t *c, const bl_number_t *bl)
{
    int n = c->n = bl->nblocks;
    int *depth = loop_depths(bl);
    add_gedge(c, n + 1, n, E_VIRTUAL, 0);
    c->e[0].weight = UINT64_MAX;
    for (size_t k = 0; k < bl->nedges; k++) {
        const bl_edge_t *be = &bl->edges[k];
        if (be->back) continue;
        int from = node_of(n, be->from), to = node_of(n, be->to);
        add_gedge(c, from, to, E_REAL, be->val);
        if (from < n && to < n) {
            int d = depth[from] < depth[to] ? depth[from] : depth[to];
            uint64_t w = 1;
            for (int i = 0; i < d && i < 15; i++) w *= 10;
            c->e[c->ne - 1].weight = w;
        }
    }
    for (int v = 0; v < n; v++) {
        if (bl->start_val[v] != BL_NONE) add_gedge(c, n, v, E_START, bl->start_val[v]);
        if (bl->exit_val[v] != BL_NONE) add_gedge(c, v, n + 1, E_EXIT, bl->exit_val[v]);
    }
    free(depth);
    spanning_tree(c);
    increments(c);
}

/* The Inc of the edge from -> to of that kind; false when there is none. */
static bool inc_of(const chords_t *c, gedge_kind_t kind, int from, int to, int64_t *inc)
{
    int f = node_of(c->n, from), t = node_of(c->n, to);
    for (size_t k = 0; k < c->ne; k++)
        if (c->e[k].kind == kind && c->e[k].from == f && c->e[k].to == t) {
            *inc = (int64_t)c->e[k].inc;
            return true;
        }
    return false;
}

/* The way across the CFG edge b -> t: add, and for a back edge count and
 * restart at the head. */
static bool way(const chords_t *c, const bl_number_t *bl, int b, int t, int64_t *add, int64_t *count,
                int64_t *restart)
{
    const bl_edge_t *e = bl_edge(bl, b, t);
    if (!e) return false;
    *count = e->back;
    *restart = 0;
    if (!e->back) return inc_of(c, E_REAL, b, t, add);
    if (!inc_of(c, E_EXIT, b, CFG_EXIT, add)) return false;
    if (!inc_of(c, E_START, CFG_ENTRY, t, restart)) *restart = POISON;
    return true;
}

static int block_of_pc(const cfg_t *g, uint64_t pc)
{
    for (size_t b = 0; b < g->nblocks; b++)
        if (g->insns[g->blocks[b].first].pc == pc) return (int)b;
    return -1;
}

/* The end part of a row: kind and columns. */
static void set_end(row_t *r, kind_t kind, int64_t proc)
{
    r->kind = (uint8_t)kind;
    r->v[C_KIND] = kind;
    r->v[C_PROC] = proc;
}

/* A conditional branch's row from its two ways out. */
static void set_branch(row_t *e, int64_t proc)
{
    bool counts = e->v[C_TK] || e->v[C_FK];
    if (counts) { set_end(e, K_BRC, proc); return; }
    e->v[C_D] = (int64_t)((uint64_t)e->v[C_TA] - (uint64_t)e->v[C_FA]);
    if (e->v[C_TA] || e->v[C_FA]) set_end(e, K_BR, proc);
}

/* Start parts: entries (block 0, Alpha's same-gp entry 8 bytes in),
 * landings (blocks with an ENTRY edge, in a procedure with an indirect
 * jump) and the return addresses of calls. */
static bool add_starts(rows_t *rows, uint64_t entry, const cfg_t *g, const bl_number_t *bl,
                       const chords_t *c, bool has_switch)
{
    for (size_t b = 0; b < g->nblocks; b++) {
        uint64_t pc = g->insns[g->blocks[b].first].pc;
        if (b == 0 || pc == entry + 8) {
            row_t *r = row_at(rows, pc);
            r->start = true;
            r->v[C_ENTRY] = 1;
            if (!inc_of(c, b == 0 ? E_REAL : E_START, CFG_ENTRY, (int)b, &r->v[C_RE])) r->v[C_RE] = POISON;
        }
        if (has_switch && bl->start_val[b] != BL_NONE) {
            row_t *r = row_at(rows, pc);
            r->start = true;
            r->v[C_LAND] = 1;
            if (!inc_of(c, E_START, CFG_ENTRY, (int)b, &r->v[C_RL])) return false;
        }
    }
    for (size_t k = 0; k + 1 < g->ninsns; k++) {
        const insn_t *in = &g->insns[k];
        if (!(in->flags & IF_CALL)) continue;
        row_t *r = row_at(rows, in->pc + in->len);
        r->start = true;
        r->v[C_POP] = 1;
        r->callee = (in->flags & IF_DIRECT) ? in->target : 0;
    }
    return true;
}

static bool is_switch(const insn_t *in)
{
    return (in->flags & IF_JUMP) && !(in->flags & IF_DIRECT) && !(in->flags & (IF_CALL | IF_RETURN));
}

/* The rows of one procedure; false (nothing added) with *why when it
 * cannot be instrumented.  *stats gets its tree edges and chords; *by_ret
 * says whether it leaves only by returns (which pop the caller's r). */
/* The target when it is a procedure's entry (a symbol's start), else 0:
 * the exact CCT takes a jump there for a tail call (include/cct.h). */
static int64_t entry_at(const symtab_t *st, uint64_t target)
{
    const symbol_t *s = symtab_lookup(st, target);
    return s && s->addr == target ? (int64_t)target : 0;
}

/* --cct's child slots: the procedure's calls numbered 0..k-1 in address
 * order, each row with its index and k. */
static void number_sites(rows_t *rows, const cfg_t *g)
{
    uint64_t nsites = 0, index = 0;
    for (size_t k = 0; k < g->ninsns; k++) nsites += (g->insns[k].flags & IF_CALL) != 0;
    for (size_t k = 0; k < g->ninsns; k++)
        if (g->insns[k].flags & IF_CALL)
            row_at(rows, g->insns[k].pc)->v[C_SITE] = (int64_t)PPC_SITE_INFO(index++, nsites);
}

static bool add_procedure(rows_t *rows, uint64_t entry, const cfg_t *g, const bl_number_t *bl,
                          const symtab_t *st, const char **why, size_t stats[2], bool *by_ret)
{
    size_t first_row = rows->proc_first = rows->n;
    chords_t c = { 0 };
    chords_build(&c, bl);
    bool has_switch = false;
    for (size_t b = 0; b < g->nblocks; b++)
        has_switch |= is_switch(&g->insns[g->blocks[b].first + g->blocks[b].n - 1]);
    int64_t proc = (int64_t)entry;
    if (!add_starts(rows, entry, g, bl, &c, has_switch)) goto fail_edge;
    for (size_t b = 0; b < g->nblocks; b++) {
        const cfg_block_t *bk = &g->blocks[b];
        const insn_t *last = &g->insns[bk->first + bk->n - 1];
        for (size_t k = bk->first; k + 1 < bk->first + bk->n; k++) {   /* calls inside the block */
            if (!(g->insns[k].flags & IF_CALL)) continue;
            row_t *r = row_at(rows, g->insns[k].pc);
            set_end(r, K_CALL, proc);
            r->v[C_RET] = (int64_t)(g->insns[k].pc + g->insns[k].len);
        }
        int next = b + 1 < g->nblocks ? (int)b + 1 : CFG_EXIT;
        row_t *e = row_at(rows, last->pc);
        if (last->flags & IF_CALL) {                      /* a call ending the block */
            if (next == CFG_EXIT) {                       /* nothing after: the path ends */
                if (!inc_of(&c, E_REAL, (int)b, CFG_EXIT, &e->v[C_TA])) goto fail_edge;
                e->v[C_TK] = 1;
                e->v[C_TR] = POISON;
            } else if (!way(&c, bl, (int)b, next, &e->v[C_TA], &e->v[C_TK], &e->v[C_TR])) goto fail_edge;
            set_end(e, e->v[C_TK] ? K_CALLC : K_CALL, proc);
            e->v[C_RET] = (int64_t)(last->pc + last->len);
        } else if (last->flags & IF_RETURN) {
            if (!inc_of(&c, E_REAL, (int)b, CFG_EXIT, &e->v[C_TA])) goto fail_edge;
            set_end(e, K_RET, proc);
        } else if (is_switch(last)) {
            if (!inc_of(&c, E_REAL, (int)b, CFG_EXIT, &e->v[C_TA])) goto fail_edge;
            set_end(e, K_IND, proc);
        } else if (last->flags & (IF_JUMP | IF_BRANCH)) {
            int t = block_of_pc(g, last->target);
            if (t < 0) {
                if (last->flags & IF_BRANCH) {
                    *why = "a conditional branch leaves the procedure";
                    goto fail;
                }
                if (!inc_of(&c, E_REAL, (int)b, CFG_EXIT, &e->v[C_TA])) goto fail_edge;
                set_end(e, K_EXIT, proc);                 /* a jump out: a tail call */
                e->v[C_TAIL] = 1;
                e->v[C_TAILTO] = entry_at(st, last->target);
                continue;
            }
            if (!way(&c, bl, (int)b, t, &e->v[C_TA], &e->v[C_TK], &e->v[C_TR])) goto fail_edge;
            if (!(last->flags & IF_BRANCH)) {
                if (e->v[C_TK]) set_end(e, K_END, proc);
                else if (e->v[C_TA]) set_end(e, K_ADD, proc);
                continue;
            }
            if (next == CFG_EXIT) {
                *why = "a conditional branch falls out of the procedure";
                goto fail;
            }
            if (!way(&c, bl, (int)b, next, &e->v[C_FA], &e->v[C_FK], &e->v[C_FR])) goto fail_edge;
            if (t == next) {                              /* both ways are one edge */
                e->v[C_FA] = e->v[C_TA]; e->v[C_FK] = e->v[C_TK]; e->v[C_FR] = e->v[C_TR];
            }
            set_branch(e, proc);
        } else if (next != CFG_EXIT) {                    /* falls into a leader */
            if (!way(&c, bl, (int)b, next, &e->v[C_TA], &e->v[C_TK], &e->v[C_TR])) goto fail_edge;
            if (e->v[C_TK]) set_end(e, K_END, proc);
            else if (e->v[C_TA]) set_end(e, K_ADD, proc);
        } else {                                          /* runs off the end */
            if (!inc_of(&c, E_REAL, (int)b, CFG_EXIT, &e->v[C_TA])) goto fail_edge;
            set_end(e, K_EXIT, proc);
            e->v[C_TAIL] = 1;
            e->v[C_TAILTO] = entry_at(st, last->pc + last->len);
        }
    }
    number_sites(rows, g);
    stats[0] += c.ntree;
    stats[1] += c.nchords;
    *by_ret = true;
    for (size_t k = first_row; k < rows->n; k++)
        if (rows->v[k].kind == K_EXIT || rows->v[k].kind == K_IND) *by_ret = false;
    free(c.e);
    /* rows with neither part are dropped */
    size_t w = first_row;
    for (size_t k = first_row; k < rows->n; k++)
        if (rows->v[k].kind != K_NONE || rows->v[k].start) rows->v[w++] = rows->v[k];
    rows->n = w;
    return true;
fail_edge:
    *why = "an edge the numbering does not have";
fail:
    free(c.e);
    rows->n = first_row;
    return false;
}

/* ---- the ACF --------------------------------------------------------------------- */

/* How a row's start part runs: none, one of three alone, or the general
 * sequence that tests the columns (when the specialised productions would
 * not fit the pattern table). */
typedef enum { S_NONE, S_POP, S_ENTRY, S_LAND, S_MIXED, S_CLASSES } start_t;
static const char *const start_names[S_CLASSES] = { "plain", "pop", "entry", "land", "start" };

static start_t start_of(const row_t *r, int level)
{
    if (!r->start) return S_NONE;
    if (level == 2) return S_MIXED;
    int parts = (r->v[C_POP] != 0) + (r->v[C_ENTRY] != 0) + (r->v[C_LAND] != 0);
    if (level == 1 || parts > 1) return S_MIXED;
    return r->v[C_POP] ? S_POP : r->v[C_ENTRY] ? S_ENTRY : S_LAND;
}

/* Level 0: every combination its own production; 1: the start parts
 * merged; 2: every row runs the general start part.  The first whose
 * productions fit `budget`. */
static int choose_level(const rows_t *rows, unsigned budget, bool used[S_CLASSES][K_KINDS])
{
    for (int level = 0; level < 3; level++) {
        memset(used, 0, sizeof(bool) * S_CLASSES * K_KINDS);
        unsigned n = 0;
        for (size_t k = 0; k < rows->n; k++) {
            start_t s = start_of(&rows->v[k], level);
            int kind = rows->v[k].kind;
            n += !used[s][kind];
            used[s][kind] = true;
        }
        if (n <= budget || level == 2) return level;
    }
    return 2;
}

static const char *const start_defs =
    "# the start parts\n"
    "PP_pop [check]: sub d4, d3, T.PC; mov d3, 0; mov d6, 0; mov d7, 0; beqz d4, popped\n"
    "    mov d8, T.PC; call(PathPop_handler)\npopped:\n"
    "PP_entry [check]: beqz d6, ne; mov d0, PPT[2]; mov d6, 0; mov d7, 0\nne:\n"
    "PP_land [check]: beqz d7, nl; mov d0, PPT[4]; mov d6, 0; mov d7, 0\nnl:\n"
    "PP_start [check]:\n"
    "    mov d4, PPT[0]; beqz d4, sp1; PP_pop\n"
    "sp1: mov d4, PPT[1]; beqz d4, sp2; PP_entry\n"
    "sp2: mov d4, PPT[3]; beqz d4, sp3; PP_land\n"
    "sp3:\n";

/* A call: save r (and the context d5) with the return address; --cct
 * then moves d5 to the callee's context. */
static const char *const push_def =
    "PP_push [check]: mov d8, d0; mov d9, PPT[13]; call(PathPush_handler);%s mov d0, 4611686018427387904;"
    " mov d6, 1; mov d3, 0\n";
static const char *const push_cct =
    " mov d8, T.PC; mov d9, T.TARGET; mov d10, PPT[18]; call(PathEnter_handler);";

/* --cct: a jump out to a procedure's entry is a tail call (PathTail_handler). */
static const char *const exit_cct =
    "add d0, d0, PPT[6]; @ mov d6, PPT[14]; mov d4, PPT[16]; beqz d4, ntail\n"
    "    mov d8, d4; mov d9, PPT[5]; call(PathTail_handler)\nntail: T.INSN\n";
/* --cct: an indirect jump may go to another procedure's entry (the
 * handler looks the target up in the program's entries). */
static const char *const ind_cct =
    "add d0, d0, PPT[6]; @ mov d0, 4611686018427387904; mov d6, 1; mov d7, 1;"
    " mov d8, T.TARGET; mov d9, PPT[5]; call(PathTail_handler); T.INSN\n";

/* The end parts, by kind; '@' stands where a path is counted, '%' where a
 * return counts its path and pops (or only pops, outside bursts). */
static const char *const kind_bodies[K_KINDS] = {
    [K_NONE]  = "T.INSN\n",
    [K_ADD]   = "add d0, d0, PPT[6]; T.INSN\n",
    [K_END]   = "add d0, d0, PPT[6]; @ mov d0, PPT[8]; T.INSN\n",
    [K_BR]    = "add d0, d0, PPT[9]; T.INSN; mov d4, T.TAKEN; beqz d4, brf; add d0, d0, PPT[12]\nbrf:\n",
    [K_BRC]   = "\n    T.INSN; mov d4, T.TAKEN; beqz d4, bcf\n"
                "    add d0, d0, PPT[6]; mov d4, PPT[7]; beqz d4, bcd; @ mov d0, PPT[8]; j bcd\n"
                "bcf: add d0, d0, PPT[9]; mov d4, PPT[10]; beqz d4, bcd; @ mov d0, PPT[11]\nbcd:\n",
    [K_CALL]  = "add d0, d0, PPT[6]; PP_push; T.INSN\n",
    [K_CALLC] = "add d0, d0, PPT[6]; @ mov d0, PPT[8]; PP_push; T.INSN\n",
    [K_EXIT]  = "add d0, d0, PPT[6]; @ mov d6, PPT[14]; T.INSN\n",
    [K_IND]   = "add d0, d0, PPT[6]; @ mov d0, 4611686018427387904; mov d6, 1; mov d7, 1; T.INSN\n",
    [K_RET]   = "add d0, d0, PPT[6]; % T.INSN\n",
};

/* The end-part sequences PREFIX_kind, counting or not. */
static void write_kind_seqs(FILE *out, const char *prefix, bool count, bool cct)
{
    for (int kind = 0; kind < K_KINDS; kind++) {
        fprintf(out, "%s_%s [check]: ", prefix, kind_names[kind]);
        const char *body = !cct ? kind_bodies[kind] : kind == K_EXIT ? exit_cct
                         : kind == K_IND ? ind_cct : kind_bodies[kind];
        for (const char *c = body; *c; c++)
            if (*c == '@') fputs(count ? "PP_count;" : "", out);
            else if (*c == '%') fputs(count ? "PP_retcount;" : "PP_retpop;", out);
            else fputc(*c, out);
    }
}

/* --sampled: one production, first, takes every row inside a burst and
 * runs the end part its kind column names, counting; outside bursts the
 * productions by kind run sequences without counts. */
static void write_burst(FILE *out, bool cct)
{
    write_kind_seqs(out, "PB", true, cct);
    fputs("PP_burst [sample]:\n    PP_start; mov d4, PPT[15]\n", out);
    for (int kind = 0; kind < K_KINDS; kind++) {
        bool last = kind + 1 == K_KINDS;
        if (!last) fprintf(out, "    sub d9, d4, %d; bnez d9, k%d\n", kind, kind + 1);
        fprintf(out, "    PB_%s%s", kind_names[kind], last ? "\n" : "; j kend\n");
        if (!last) fprintf(out, "k%d:\n", kind + 1);
    }
    fputs("kend:\nPP_B: T.PC in table PPT && overflow_1 && !overflow_2 => PP_burst\n", out);
}

static void write_table(FILE *out, const char *name, const rows_t *rows, int level, int s, int kind)
{
    fprintf(out, "table %s [", name);
    bool first = true;
    for (size_t k = 0; k < rows->n; k++) {
        const row_t *r = &rows->v[k];
        if (s >= 0 && (start_of(r, level) != (start_t)s || r->kind != kind)) continue;
        fprintf(out, "%s\n  0x%" PRIx64 ":", first ? "" : ";", r->pc);
        first = false;
        if (s >= 0) { fputs(" 1", out); continue; }
        int last = C_COUNT;
        while (last > 0 && !r->v[last - 1]) last--;
        for (int c = 0; c < last; c++) fprintf(out, " %" PRId64, r->v[c]);
    }
    fputs("\n]\n", out);
}

/* Write text; with metrics, the path stack's and counts' handlers are
 * their counter-reading versions (PathCount_handler -> PathCountM_handler). */
static void put_calls(FILE *out, const char *text, bool metrics)
{
    static const char *const names[] = { "PathCount", "PathReturn", "PathPop", "PathPush" };
    for (const char *c = text; *c; c++) {
        fputc(*c, out);
        if (!metrics || strncmp(c, "call(", 5)) continue;
        for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
            size_t n = strlen(names[k]);
            if (strncmp(c + 5, names[k], n) || strncmp(c + 5 + n, "_handler)", 9)) continue;
            fprintf(out, "all(%sM", names[k]);
            c += 4 + n;
            break;
        }
    }
}

/* The procedures whose paths are counted in line, in DISE's tally table. */
typedef struct tally {
    uint64_t entry, first, npaths;
} tally_t;

typedef struct tallies {
    tally_t *v;
    size_t n;
    uint64_t next;                  /* the next free word (word 0: outside)    */
    size_t procs;                   /* procedures instrumented                  */
} tallies_t;

/* Procedures with more paths than this keep PathCount_handler (their
 * words would crowd the others out of the table). */
#define TALLY_MAX_PATHS (1u << 16)

/* A procedure that may count in line. */
static void add_tally(tallies_t *t, uint64_t entry, uint64_t npaths)
{
    t->procs++;
    if (!npaths || npaths > TALLY_MAX_PATHS) return;
    t->v = xrealloc(t->v, (t->n + 1) * sizeof *t->v);
    t->v[t->n++] = (tally_t){ entry, 0, npaths };
}

static int by_paths(const void *a, const void *b)
{
    const tally_t *x = a, *y = b;
    if (x->npaths != y->npaths) return x->npaths < y->npaths ? -1 : 1;
    return x->entry < y->entry ? -1 : x->entry > y->entry;
}

static int by_entry(const void *a, const void *b)
{
    const tally_t *x = a, *y = b;
    return x->entry < y->entry ? -1 : x->entry > y->entry;
}

/* Words for the procedures with the fewest paths first (so the most of
 * them count in line), the rest dropped; then every row that ends a path
 * gets its procedure's first word. */
static void place_tallies(tallies_t *t, rows_t *rows)
{
    qsort(t->v, t->n, sizeof *t->v, by_paths);
    size_t kept = 0;
    for (size_t k = 0; k < t->n && t->next + t->v[k].npaths <= DISE_TALLY_WORDS; k++, kept++) {
        t->v[k].first = t->next;
        t->next += t->v[k].npaths;
    }
    t->n = kept;
    qsort(t->v, t->n, sizeof *t->v, by_entry);
    for (size_t k = 0; k < rows->n; k++) {
        row_t *r = &rows->v[k];
        if (r->kind == K_NONE) continue;
        tally_t key = { .entry = (uint64_t)r->v[C_PROC] };
        const tally_t *found = bsearch(&key, t->v, t->n, sizeof *t->v, by_entry);
        if (found) r->v[C_TALLY] = (int64_t)found->first;
    }
}

/* The path counts: in line where the procedure has tally words (a load,
 * an add and a store of DISE's: `tally`), else a handler call that
 * appends a sample; a return also pops the caller's r. */
static void write_counts(FILE *out, const tallies_t *t, bool metrics)
{
    static const char *const by_handler =
        "mov d8, PPT[5]; mov d9, d0; call(PathCount_handler)";
    static const char *const ret_by_handler =
        "mov d8, PPT[5]; mov d9, d0; mov d10, T.TARGET; call(PathReturn_handler); mov d3, T.TARGET";
    char text[1024];
    if (!t->n)
        snprintf(text, sizeof text, "PP_count [sample]: %s\nPP_retcount [sample]: %s\n", by_handler,
                 ret_by_handler);
    else if (t->n == t->procs)
        snprintf(text, sizeof text, "PP_count [sample]: add d4, d0, PPT[17]; tally d4\n"
                 "PP_retcount [sample]: add d4, d0, PPT[17]; tally d4; PP_retpop\n");
    else
        snprintf(text, sizeof text,
                 "PP_count [sample]: mov d4, PPT[17]; beqz d4, pch; add d4, d4, d0; tally d4; j pcd\n"
                 "pch: %s\npcd:\n"
                 "PP_retcount [sample]: mov d4, PPT[17]; beqz d4, rch; add d4, d4, d0; tally d4; PP_retpop;"
                 " j rcd\nrch: %s\nrcd:\n", by_handler, ret_by_handler);
    if (t->n) {                     /* first: a sequence ending in a label cannot precede a table */
        fprintf(out, "# %zu of %zu procedures count their paths in line, in DISE's tally table (%" PRIu64
                " words);\n# PPTALLY rows: procedure entry: first word, paths (read by the host after "
                "the run)\ntable PPTALLY [", t->n, t->procs, t->next);
        for (size_t k = 0; k < t->n; k++)
            fprintf(out, "%s\n  0x%" PRIx64 ": %" PRIu64 " %" PRIu64, k ? ";" : "", t->v[k].entry,
                    t->v[k].first, t->v[k].npaths);
        fputs("\n]\n", out);
    }
    put_calls(out, text, metrics);
}

static void write_acf(FILE *out, const char *prog, const rows_t *rows, bool sampled, bool cct,
                      bool metrics, size_t nprocs, const char *skipped, const size_t stats[2],
                      const tallies_t *tallies)
{
    char framework[4096];
    if (sampled && !datadir_find("productions", "sampling_framework.acf", NULL, framework, sizeof framework))
        die("cannot find productions/sampling_framework.acf (--sampled includes it)");
    char options[64];
    snprintf(options, sizeof options, "%s%s%s", sampled ? " --sampled" : "", cct ? " --cct" : "",
             metrics ? " --metrics" : "");
    bool used[S_CLASSES][K_KINDS];
    unsigned budget = sampled ? 32 - 6 - 1 : 32;    /* dise.pt_entries; the framework's 6, PP_B */
    int level = choose_level(rows, budget, used);
    size_t ends = 0;
    for (size_t k = 0; k < rows->n; k++) ends += rows->v[k].kind != K_NONE;
    fprintf(out, "# PP path profiling of %s (hps-pp-acf%s): %zu procedures, %zu table rows\n"
            "# (%zu instructions that end a block with an instrumented edge, or a call).\n"
            "# Chord placement: %zu of %zu DAG edges carry an increment (the rest are\n"
            "# the maximum-weight spanning tree's); start parts at level %d.\n"
            "# Run with --paths FILE (the exact paths the counts are scored against).\n",
            prog, options, nprocs, rows->n, ends, stats[1], stats[0] + stats[1], level);
    fprintf(out, "# PPT columns: pop entry re land rl proc ta tk tr fa fk fr d ret tail kind tailto tally%s\n",
            cct ? " site" : "");
    if (metrics)
        fprintf(out, "# --metrics: the path handlers read the cycle and L1D-miss counters at path\n"
                "# boundaries (hps.rdpmc); needs a timing model.\n");
    if (cct)
        fprintf(out, "# --cct: the calling context tree in the guest (d5, PathEnter_handler at calls,\n"
                "# PathTail_handler at jumps to an entry); run with --cct to score it.\n");
    if (skipped[0]) fprintf(out, "# not instrumented:%s\n", skipped);
    if (sampled) fprintf(out, "param sampleFreq = 99\nparam burstLength = 1\ninclude \"%s\"\n", framework);
    write_table(out, "PPT", rows, level, -1, 0);
    write_counts(out, tallies, metrics);
    put_calls(out, "PP_retpop [check]: mov d8, T.TARGET; call(PathPop_handler); mov d3, T.TARGET\n", metrics);
    put_calls(out, start_defs, metrics);
    char push[512];
    snprintf(push, sizeof push, push_def, cct ? push_cct : "");
    put_calls(out, push, metrics);
    write_kind_seqs(out, "PP", !sampled, cct);
    if (sampled) write_burst(out, cct);
    static const char *const start_seq[S_CLASSES] = { NULL, "PP_pop", "PP_entry", "PP_land", "PP_start" };
    for (int s = 0; s < S_CLASSES; s++)
        for (int kind = 0; kind < K_KINDS; kind++) {
            if (!used[s][kind]) continue;
            char name[64];
            snprintf(name, sizeof name, "%s_%s", start_names[s], kind_names[kind]);
            write_table(out, name, rows, level, s, kind);
            fprintf(out, "S_%s: %s%s PP_%s\n", name, start_seq[s] ? start_seq[s] : "",
                    start_seq[s] ? ";" : "", kind_names[kind]);
            fprintf(out, "P_%s: T.PC in table %s => S_%s\n", name, name, name);
        }
}

/* An ELF whose code runs at its link-time addresses (ET_EXEC). */
static bool is_fixed_address(const char *path)
{
    unsigned char h[18] = { 0 };
    FILE *f = fopen(path, "rb");
    if (!f) return false;
    size_t n = fread(h, 1, sizeof h, f);
    fclose(f);
    return n == sizeof h && (h[16] | h[17] << 8) == 2;      /* e_type, little-endian */
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static bool has_entry(const uint64_t *v, size_t n, uint64_t pc)
{
    return bsearch(&pc, v, n, sizeof *v, cmp_u64) != NULL;
}

/* A direct call to a procedure that leaves only by returns (whose
 * PathReturn pops) needs no pop at its return address (Alpha's same-gp
 * calls enter 8 bytes in).  Rows left with nothing are dropped. */
static void prune_pops(rows_t *rows, uint64_t *by_ret, size_t n)
{
    qsort(by_ret, n, sizeof *by_ret, cmp_u64);
    size_t w = 0;
    for (size_t k = 0; k < rows->n; k++) {
        row_t *r = &rows->v[k];
        uint64_t t = r->callee;
        if (r->v[C_POP] && t && (has_entry(by_ret, n, t) || has_entry(by_ret, n, t - 8))) {
            r->v[C_POP] = 0;
            r->start = r->v[C_ENTRY] || r->v[C_LAND];
        }
        if (r->start || r->kind != K_NONE) rows->v[w++] = *r;
    }
    rows->n = w;
}

static int cmp_rows(const void *a, const void *b)
{
    const row_t *x = a, *y = b;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

int main(int argc, char **argv)
{
    bool sampled = false, cct = false, metrics = false;
    int arg = 1;
    for (; arg < argc && argv[arg][0] == '-'; arg++) {
        if (!strcmp(argv[arg], "--sampled")) sampled = true;
        else if (!strcmp(argv[arg], "--cct")) cct = true;
        else if (!strcmp(argv[arg], "--metrics")) metrics = true;
        else die("unknown option '%s' (expected --sampled, --cct or --metrics)", argv[arg]);
    }
    if (arg != argc - 1)
        die("usage: hps-pp-acf [--sampled] [--cct] [--metrics] PROG > pp.acf  (PROG: a static RISC-V or Alpha "
            "program)");
    const char *prog = argv[arg];
    if (sampled && metrics)
        die("--sampled and --metrics together are not supported: outside bursts no handler sees "
            "a path end, so a sampled path's reading would hold the unsampled paths before it");
    char err[512];
    int machine = 0;
    if (!loader_probe(prog, &machine, err, sizeof err)) die("%s", err);
    if (!is_fixed_address(prog))
        die("%s: a position-independent program (ET_DYN): its run-time addresses are not the "
            "file's, which the table's pcs are; link it with -static", prog);
    symtab_t *st = symtab_load(prog);
    if (!st || !st->count) die("%s: no symbol table (FUNC symbols) to find the procedures in", prog);
    const isa_t *isa = machine == isa_alpha.elf_machine ? &isa_alpha : &isa_rv64;
    paths_t *p = paths_new_file(isa, st, prog);
    rows_t rows = { 0 };
    size_t nprocs = 0, stats[2] = { 0, 0 };
    tallies_t tallies = { .next = 1 };
    char *skipped = xcalloc(1, 1);
    uint64_t *by_ret = xcalloc(st->count + 1, sizeof *by_ret);
    size_t nby_ret = 0;
    for (size_t k = 0; k < st->count; k++) {
        const cfg_t *g;
        const bl_number_t *bl;
        const char *why = NULL;
        bool only_ret = false;
        if (!paths_procedure(p, st->syms[k].addr, &g, &bl)) continue;
        if (add_procedure(&rows, st->syms[k].addr, g, bl, st, &why, stats, &only_ret)) {
            nprocs++;
            if (!cct && !metrics) add_tally(&tallies, st->syms[k].addr, bl->npaths);
            if (only_ret) by_ret[nby_ret++] = st->syms[k].addr;
        } else {
            size_t n = strlen(skipped) + strlen(st->syms[k].name) + strlen(why) + 8;
            skipped = xrealloc(skipped, n);
            snprintf(skipped + strlen(skipped), n - strlen(skipped), " %s (%s)", st->syms[k].name, why);
        }
    }
    place_tallies(&tallies, &rows);
    for (size_t k = 0; !cct && k < rows.n; k++) rows.v[k].v[C_SITE] = 0;
    prune_pops(&rows, by_ret, nby_ret);
    free(by_ret);
    qsort(rows.v, rows.n, sizeof *rows.v, cmp_rows);
    for (size_t k = 1; k < rows.n; k++)
        if (rows.v[k].pc == rows.v[k - 1].pc) die("%s: two rows for pc 0x%" PRIx64, prog, rows.v[k].pc);
    write_acf(stdout, prog, &rows, sampled, cct, metrics, nprocs, skipped, stats, &tallies);
    free(tallies.v);
    free(skipped);
    free(rows.v);
    paths_free(p);
    symtab_free(st);
    return 0;
}
