/*
 * hps-pp-acf - PP's path profiling (PLDI'97) as a DISE production file:
 * `hps-pp-acf PROG > pp.acf`, then `hps-sim --handlers c --acf pp.acf
 * --paths FILE PROG` counts every executed Ball-Larus path of PROG in the
 * guest and scores the counts against the exact path profile.
 *
 * The procedures' CFGs and numbering are the exact recorder's (paths.h on
 * dcpi/cfg.c and pathnum.h), read from the file.  One production matches
 * every pc of a per-PC table (the ACF's `table`, dise/README.md) and one
 * replacement sequence does, by the row's columns:
 *   - at a block's first instruction: add the increment of the edge that
 *     brought control there (d1 if the last block end's taken target is
 *     this pc, else d2); if that edge is a back edge (or an indirect jump),
 *     count the path ending there (PathCount_handler: procedure d5, path
 *     d0) and restart d0 at this block's ENTRY-edge value;
 *   - at a block's last instruction: load the increments of its taken and
 *     fall-through edges (d1, d2, kinds d6, d7) and the taken target (d3);
 *   - at a return or a jump out of the procedure: count the path;
 *   - at a call: push d0 (PathPush_handler, with the return address) and
 *     mark the next block start an entry (kind 3: the callee's path
 *     starts at its entry, or at Alpha's same-gp entry 8 bytes in); at the
 *     return address, PathPop_handler puts d0 back when that call returns
 *     (same pc and sp).
 * Kinds of the way into a block start (d6 taken, d7 fall-through): 0 along
 * the DAG, 1 a back edge, 2 an indirect jump's landing (both count the
 * path that ended and restart), 3 an entry (restart only).
 * d0 is the path register, d5 the procedure it counts for.  The handlers
 * PathPush and PathPop exist in C only: run with --handlers c.
 *
 * --sampled: the same, with the counts taken only during HPS's bursts
 * (sampling_framework.acf: events are calls and back edges; sampleFreq,
 * burstLength), the path register kept up always.
 *
 * Procedures that cannot be instrumented this way are left out and named
 * in the file's header: a conditional branch leaving the procedure.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "datadir.h"
#include "isa.h"
#include "loader.h"
#include "pathnum.h"
#include "paths.h"
#include "symtab.h"
#include "util.h"

#define die(...) die_bad_input("hps-pp-acf", __VA_ARGS__)
#define POISON (1ll << 62)

/* The columns of a table row (the sequence below reads them by number). */
enum {
    C_START, C_RESTART, C_PROC, C_END, C_VT, C_VF, C_KT, C_KF, C_CALL, C_CALLADD, C_POP,
    C_EXIT, C_EXITVAL, C_IRESTART, C_CALLCOUNT, C_RETADDR, C_CALLRESTART, C_COUNT
};

typedef struct row { uint64_t pc; int64_t v[C_COUNT]; } row_t;

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

/* The way across edge from -> to: its value and kind (0 along the DAG, 1 a
 * back edge: the value is the tail's pseudo EXIT edge's). */
static bool edge_way(const bl_number_t *bl, int from, int to, int64_t *val, int64_t *kind)
{
    const bl_edge_t *e = bl_edge(bl, from, to);
    if (!e) return false;
    *val = e->back ? (int64_t)bl->exit_val[from] : (int64_t)e->val;
    *kind = e->back;
    return true;
}

static int block_of_pc(const cfg_t *g, uint64_t pc)
{
    for (size_t b = 0; b < g->nblocks; b++)
        if (g->insns[g->blocks[b].first].pc == pc) return (int)b;
    return -1;
}

static int64_t restart_value(uint64_t v) { return v == BL_NONE ? POISON : (int64_t)v; }

/* The rows of one procedure; false (nothing added) with *why when it
 * cannot be instrumented. */
static bool add_procedure(rows_t *rows, uint64_t entry, const cfg_t *g, const bl_number_t *bl,
                          const char **why)
{
    size_t first_row = rows->proc_first = rows->n;
    for (size_t b = 0; b < g->nblocks; b++) {
        const cfg_block_t *bk = &g->blocks[b];
        const insn_t *head = &g->insns[bk->first], *last = &g->insns[bk->first + bk->n - 1];
        row_t *r = row_at(rows, head->pc);
        r->v[C_START] = 1;
        r->v[C_PROC] = (int64_t)entry;
        r->v[C_RESTART] = restart_value(bl->start_val[b]);
        r->v[C_IRESTART] = b == 0 ? (int64_t)bl->entry_val : restart_value(bl->start_val[b]);
        for (size_t k = bk->first; k < bk->first + bk->n; k++) {
            const insn_t *in = &g->insns[k];
            if (!(in->flags & IF_CALL)) continue;
            row_t *c = row_at(rows, in->pc);
            c->v[C_PROC] = (int64_t)entry;
            c->v[C_CALL] = 1;
            c->v[C_RETADDR] = (int64_t)(in->pc + in->len);
            if (k + 1 < g->ninsns) {
                row_t *ret = row_at(rows, in->pc + in->len);
                ret->v[C_POP] = 1;
                ret->v[C_PROC] = (int64_t)entry;
            }
        }
        int next = b + 1 < g->nblocks ? (int)b + 1 : CFG_EXIT;
        row_t *e = row_at(rows, last->pc);
        e->v[C_PROC] = (int64_t)entry;
        int64_t val, kind;
        if (last->flags & IF_CALL) {                      /* a call ending the block */
            if (!edge_way(bl, (int)b, next, &val, &kind)) goto fail_edge;
            e->v[C_CALLADD] = val;                        /* a back edge: the path ends */
            e->v[C_CALLCOUNT] = next == CFG_EXIT || kind;
            if (kind) e->v[C_CALLRESTART] = restart_value(bl->start_val[next]);
        } else if (last->flags & IF_RETURN) {
            if (!edge_way(bl, (int)b, CFG_EXIT, &val, &kind)) goto fail_edge;
            e->v[C_EXIT] = 1;
            e->v[C_EXITVAL] = val;
        } else if ((last->flags & IF_JUMP) && !(last->flags & IF_DIRECT)) {   /* a switch */
            if (!edge_way(bl, (int)b, CFG_EXIT, &val, &kind)) goto fail_edge;
            e->v[C_END] = 1;
            e->v[C_VT] = e->v[C_VF] = val;
            e->v[C_KT] = e->v[C_KF] = 2;
        } else if ((last->flags & IF_JUMP) || (last->flags & IF_BRANCH)) {
            int t = block_of_pc(g, last->target);
            if (t < 0) {
                if (last->flags & IF_BRANCH) {
                    *why = "a conditional branch leaves the procedure";
                    goto fail;
                }
                if (!edge_way(bl, (int)b, CFG_EXIT, &val, &kind)) goto fail_edge;
                e->v[C_EXIT] = 1;                           /* a jump out: tail call */
                e->v[C_EXITVAL] = val;
                continue;
            }
            e->v[C_END] = 1;
            if (!edge_way(bl, (int)b, t, &e->v[C_VT], &e->v[C_KT])) goto fail_edge;
            if (last->flags & IF_BRANCH) {
                if (next == CFG_EXIT) {
                    *why = "a conditional branch falls out of the procedure";
                    goto fail;
                }
                if (!edge_way(bl, (int)b, next, &e->v[C_VF], &e->v[C_KF])) goto fail_edge;
            } else {
                e->v[C_VF] = e->v[C_VT];
                e->v[C_KF] = e->v[C_KT];
            }
        } else if (next != CFG_EXIT) {                    /* falls into a leader */
            if (!edge_way(bl, (int)b, next, &val, &kind)) goto fail_edge;
            e->v[C_END] = 1;
            e->v[C_VT] = e->v[C_VF] = val;
            e->v[C_KT] = e->v[C_KF] = kind;
        } else {                                          /* runs off the end */
            if (!edge_way(bl, (int)b, CFG_EXIT, &val, &kind)) goto fail_edge;
            e->v[C_EXIT] = 1;
            e->v[C_EXITVAL] = val;
        }
    }
    return true;
fail_edge:
    *why = "an edge the numbering does not have";
fail:
    rows->n = first_row;
    return false;
}

static const char *const sequence =
    "PP_seq [check]:\n"
    "    mov d4, PPT[10]; beqz d4, nopop\n"
    "    mov d8, T.PC; call(PathPop_handler); mov d5, PPT[2]; mov d7, 0\n"
    "nopop:\n"
    "    mov d4, PPT[0]; beqz d4, nostart\n"
    "    sub d4, d3, T.PC; beqz d4, taken\n"
    "    add d0, d0, d2; mov d4, d7; j sided\n"
    "taken:\n"
    "    add d0, d0, d1; mov d4, d6\n"
    "sided:\n"
    "    mov d1, 0; mov d2, 0; mov d3, 0; mov d6, 0; mov d7, 0\n"
    "    beqz d4, entered\n"
    "    sub d9, d4, 3; beqz d9, indirect\n"
    "    mov d8, d5; mov d9, d0; %s\n"
    "    sub d4, d4, 1; bnez d4, indirect\n"
    "    mov d0, PPT[1]; j entered\n"
    "indirect:\n"
    "    mov d0, PPT[13]\n"
    "entered:\n"
    "    mov d5, PPT[2]\n"
    "nostart:\n"
    "    mov d4, PPT[8]; beqz d4, nocall\n"
    "    add d0, d0, PPT[9]\n"
    "    mov d4, PPT[14]; beqz d4, pushed\n"
    "    mov d8, d5; mov d9, d0; %s\n"
    "    mov d0, PPT[16]\n"
    "pushed:\n"
    "    mov d8, d0; mov d9, PPT[15]; call(PathPush_handler)\n"
    "    T.INSN\n"
    "    mov d0, 0; mov d7, 3; j done\n"
    "nocall:\n"
    "    mov d4, PPT[11]; beqz d4, noexit\n"
    "    add d0, d0, PPT[12]; mov d8, d5; mov d9, d0; %s\n"
    "    mov d0, 0; mov d7, 3; T.INSN; j done\n"
    "noexit:\n"
    "    mov d4, PPT[3]; beqz d4, plain\n"
    "    mov d1, PPT[4]; mov d2, PPT[5]; mov d6, PPT[6]; mov d7, PPT[7]; mov d3, T.TARGET\n"
    "plain:\n"
    "    T.INSN\n"
    "done:\n";

static void write_acf(FILE *out, const char *prog, const rows_t *rows, bool sampled, size_t nprocs,
                      const char *skipped)
{
    char framework[4096];
    if (sampled && !datadir_find("productions", "sampling_framework.acf", NULL, framework, sizeof framework))
        die("cannot find productions/sampling_framework.acf (--sampled includes it)");
    fprintf(out, "# PP path profiling of %s (hps-pp-acf%s): %zu procedures, %zu table rows.\n"
            "# Run with --handlers c (PathPush_handler and PathPop_handler are C only)\n"
            "# and --paths FILE (the exact paths the counts are scored against).\n",
            prog, sampled ? " --sampled" : "", nprocs, rows->n);
    fprintf(out, "# columns: start restart proc end vt vf kt kf call calladd pop exit exitval "
            "irestart callcount retaddr callrestart\n");
    if (skipped[0]) fprintf(out, "# not instrumented:%s\n", skipped);
    if (sampled) {
        fprintf(out, "param sampleFreq = 99\nparam burstLength = 1\ninclude \"%s\"\n", framework);
    }
    fputs("table PPT [", out);
    for (size_t k = 0; k < rows->n; k++) {
        int last = C_COUNT;
        while (last > 0 && !rows->v[k].v[last - 1]) last--;
        fprintf(out, "%s\n  0x%" PRIx64 ":", k ? ";" : "", rows->v[k].pc);
        for (int c = 0; c < last; c++) fprintf(out, " %" PRId64, rows->v[k].v[c]);
    }
    fputs("\n]\n", out);
    if (sampled) {
        /* the count only in a burst: d10 = 1 while the flags say so */
        fputs("PP_count [sample]: beqz d10, nocount; call(PathCount_handler)\nnocount:\n", out);
        fputs("PPS: T.PC in table PPT && overflow_1 && !overflow_2 => PP_in\n", out);
        fputs("PP: T.PC in table PPT => PP_out\n", out);
        fputs("PP_in [check]: mov d10, 1; PP_seq\nPP_out [check]: mov d10, 0; PP_seq\n", out);
        fprintf(out, sequence, "PP_count", "PP_count", "PP_count");
    } else {
        fputs("PP: T.PC in table PPT => PP_seq\n", out);
        fprintf(out, sequence, "call(PathCount_handler)", "call(PathCount_handler)",
                "call(PathCount_handler)");
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

static int cmp_rows(const void *a, const void *b)
{
    const row_t *x = a, *y = b;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

int main(int argc, char **argv)
{
    bool sampled = argc > 1 && !strcmp(argv[1], "--sampled");
    if (argc != 2 + sampled || argv[1 + sampled][0] == '-')
        die("usage: hps-pp-acf [--sampled] PROG > pp.acf  (PROG: a static RISC-V or Alpha program)");
    const char *prog = argv[1 + sampled];
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
    size_t nprocs = 0, sk = 0;
    char *skipped = xcalloc(1, 1);
    for (size_t k = 0; k < st->count; k++) {
        const cfg_t *g;
        const bl_number_t *bl;
        const char *why = NULL;
        if (!paths_procedure(p, st->syms[k].addr, &g, &bl)) continue;
        if (add_procedure(&rows, st->syms[k].addr, g, bl, &why)) {
            nprocs++;
        } else {
            size_t n = strlen(skipped) + strlen(st->syms[k].name) + strlen(why) + 8;
            skipped = xrealloc(skipped, n);
            snprintf(skipped + strlen(skipped), n - strlen(skipped), " %s (%s)", st->syms[k].name, why);
            sk++;
        }
    }
    qsort(rows.v, rows.n, sizeof *rows.v, cmp_rows);
    for (size_t k = 1; k < rows.n; k++)
        if (rows.v[k].pc == rows.v[k - 1].pc) die("%s: two rows for pc 0x%" PRIx64, prog, rows.v[k].pc);
    write_acf(stdout, prog, &rows, sampled, nprocs, skipped);
    free(skipped);
    free(rows.v);
    paths_free(p);
    symtab_free(st);
    return 0;
}
