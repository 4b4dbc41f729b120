/*
 * pipeview.c - the pipeline views of pipeview.h: Kanata log, gem5
 * O3PipeView trace and text diagram (formats: pipeline/README.md).
 *
 * Kanata format (Konata's docs/kanata-log-format.md): tab-separated
 * commands; `C=` sets the start cycle, `C n` advances, `I` introduces an
 * instruction, `L` labels it, `S`/`E` start and end a stage, `R` retires
 * it.  File ids count from 0 at the window's first instruction (Konata
 * keeps instructions in an array indexed by them); the left-pane label is
 * the pc and disassembly, the mouse-over text the instruction's number in
 * the run.
 *
 * O3PipeView (gem5's src/cpu/o3/dyn_inst.cc, read by util/o3-pipeview.py):
 * seven colon-separated lines per instruction, fetch decode rename
 * dispatch issue complete retire, each with a tick; ticks here are
 * cycle * PV_O3_TICKS_PER_CYCLE.  Each model's five stages map onto the
 * seven by the table below.
 */
#include "pipeview.h"
#include "util.h"

#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* ---- the models' stages ------------------------------------------------------ */

enum { O3_FETCH, O3_DECODE, O3_RENAME, O3_DISPATCH, O3_ISSUE, O3_COMPLETE, O3_RETIRE,
       O3_STAGES };
static const char *const o3_names[O3_STAGES] = {
    "fetch", "decode", "rename", "dispatch", "issue", "complete", "retire" };

typedef struct pv_stage_doc {
    const char *name, *what;
} pv_stage_doc_t;

/* What the legend says of a model's stages, and which of its stages gives
 * each of gem5's seven events.  Models are recognised by their stage
 * letters (pipeline/inorder.c, pipeline/ooo.c). */
typedef struct pv_model {
    const char *letters;
    const char *title;
    pv_stage_doc_t stage[PV_MAX_STAGES];
    unsigned char o3[O3_STAGES];
} pv_model_t;

static const pv_model_t models[] = {
    { "FDXMW", "inorder5, the five-stage pipeline",
      { { "fetch", "IF: the instruction's bytes from the I-cache" },
        { "decode", "ID: decode, read registers (a branch may resolve here)" },
        { "execute", "EX: ALU, multiply/divide, address add" },
        { "memory", "MEM: D-cache access; a store goes to the write buffer" },
        { "writeback", "WB: the result written to the register file" } },
      { 0, 1, 1, 1, 2, 3, 4 } },
    { "FSIXW", "ev5, the 21164-like in-order superscalar",
      { { "fetch", "the I-cache access of the instruction's fetch block" },
        { "slot", "in the instruction buffer, slotted into an issue group" },
        { "issue", "leaves the head of the queue for a pipe (executes)" },
        { "execute", "after the issue cycle, until the result is complete" },
        { "retire", "the result complete, retired in order" } },
      { 0, 1, 1, 1, 2, 4, 4 } },
    { "FDIXG", "ooo (preset r10k), the R10000-like out-of-order superscalar",
      { { "fetch", "fetched; in the front end until decode" },
        { "dispatch", "decoded, renamed, dispatched: waits in its queue" },
        { "issue", "issued to a functional unit: executing" },
        { "complete", "the result is available; waits to graduate" },
        { "graduate", "retired in order (a store writes the D-cache)" } },
      { 0, 1, 1, 1, 2, 3, 4 } },
};
static const pv_model_t generic_model = { NULL, NULL, { { NULL, NULL } }, { 0, 1, 1, 1, 2, 3, 4 } };

static const pv_model_t *find_model(const char *const *names, unsigned n)
{
    char letters[PV_MAX_STAGES + 1];
    for (unsigned s = 0; s < n && s < PV_MAX_STAGES; s++) letters[s] = names[s][0];
    letters[n < PV_MAX_STAGES ? n : PV_MAX_STAGES] = 0;
    for (size_t k = 0; k < sizeof models / sizeof models[0]; k++)
        if (!strcmp(models[k].letters, letters)) return &models[k];
    return &generic_model;
}

/* The entry cycle of each stage, made non-decreasing, and in c[n] the end
 * of the last one (at least a cycle after its entry). */
/* The stages a row entered: all of them, or those a squashed wrong-path
 * instruction reached before it was flushed. */
static unsigned stages_of(const pv_insn_t *r)
{
    return r->flushed && r->reached < r->nstages ? r->reached : r->nstages;
}

static void entry_cycles(const pv_insn_t *r, uint64_t c[PV_MAX_STAGES + 1])
{
    uint64_t prev = 0;
    unsigned n = stages_of(r);
    for (unsigned s = 0; s < n; s++) {
        c[s] = r->stage_cycle[s] > prev ? r->stage_cycle[s] : prev;
        prev = c[s];
    }
    c[n] = r->retire_cycle > prev ? r->retire_cycle : prev + 1;
}

/* ---- Kanata ------------------------------------------------------------------- */

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return p;
    size_t n = *cap ? *cap * 2 : 256;
    while (n < need) n *= 2;
    *cap = n;
    return xrealloc(p, n * elem);
}

void pipeview_init(pipeview_t *pv, FILE *kanata, FILE *diagram, FILE *o3pipeview)
{
    memset(pv, 0, sizeof *pv);
    pv->kanata = kanata;
    pv->diagram = diagram;
    pv->o3 = o3pipeview;
}

static __attribute__((format(printf, 3, 4)))
void add_event(pipeview_t *pv, uint64_t cycle, const char *fmt, ...)
{
    pv->events = grow(pv->events, &pv->cap, pv->nevents + 1, sizeof *pv->events);
    pv_event_t *e = &pv->events[pv->nevents++];
    e->cycle = cycle;
    e->seq = pv->seq++;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->line, sizeof e->line, fmt, ap);
    va_end(ap);
}

static void add_kanata(pipeview_t *pv, const pv_insn_t *in)
{
    uint64_t id = pv->kanata_ids++, c[PV_MAX_STAGES + 1];
    entry_cycles(in, c);
    add_event(pv, c[0], "I\t%" PRIu64 "\t%" PRIu64 "\t0", id, in->id);
    add_event(pv, c[0], "L\t%" PRIu64 "\t0\t%08" PRIx64 ": %s", id, in->pc, in->text);
    if (in->flushed)
        add_event(pv, c[0], "L\t%" PRIu64 "\t1\twrong path after instruction #%" PRIu64
                  ", squashed", id, in->id);
    else
        add_event(pv, c[0], "L\t%" PRIu64 "\t1\tinstruction #%" PRIu64 " of the run", id,
                  in->id);
    unsigned n = stages_of(in);
    for (unsigned s = 0; s < n; s++) {
        add_event(pv, c[s], "S\t%" PRIu64 "\t0\t%s", id, in->stage_names[s]);
        add_event(pv, c[s + 1], "E\t%" PRIu64 "\t0\t%s", id, in->stage_names[s]);
    }
    if (in->flushed)                    /* Kanata's R type 1: flushed */
        add_event(pv, c[n], "R\t%" PRIu64 "\t0\t1", id);
    else
        add_event(pv, c[n], "R\t%" PRIu64 "\t%" PRIu64 "\t0", id, pv->retired++);
}

static int by_cycle(const void *a, const void *b)
{
    const pv_event_t *x = a, *y = b;
    if (x->cycle != y->cycle) return x->cycle < y->cycle ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Write the events before `cycle` (all of them when flush_all).  The
 * first one is the window's first instruction being fetched: `C=` starts
 * the log there. */
static void write_due(pipeview_t *pv, uint64_t cycle, int flush_all)
{
    if (!pv->kanata || !pv->nevents) return;
    qsort(pv->events, pv->nevents, sizeof *pv->events, by_cycle);
    size_t k = 0;
    for (; k < pv->nevents && (flush_all || pv->events[k].cycle < cycle); k++) {
        pv_event_t *e = &pv->events[k];
        if (!pv->started) {
            fprintf(pv->kanata, "Kanata\t0004\nC=\t%" PRIu64 "\n", e->cycle);
            pv->cycle_written = e->cycle;
            pv->started = 1;
        } else if (e->cycle > pv->cycle_written) {
            fprintf(pv->kanata, "C\t%" PRIu64 "\n", e->cycle - pv->cycle_written);
            pv->cycle_written = e->cycle;
        }
        fprintf(pv->kanata, "%s\n", e->line);
    }
    memmove(pv->events, pv->events + k, (pv->nevents - k) * sizeof *pv->events);
    pv->nevents -= k;
}

void pipeview_advance(pipeview_t *pv, uint64_t cycle)
{
    if (pv->nevents > 4096) write_due(pv, cycle, 0);
}

/* ---- O3PipeView --------------------------------------------------------------- */

static const pv_model_t *model_of(pipeview_t *pv, const pv_insn_t *in)
{
    if (pv->model_names != in->stage_names) {
        pv->model = find_model(in->stage_names, in->nstages);
        pv->model_names = in->stage_names;
    }
    return pv->model;
}

/* One instruction's seven lines.  o3-pipeview.py splits lines at ':', so
 * a colon in the disassembly becomes ';'. */
static void write_o3(pipeview_t *pv, const pv_insn_t *in)
{
    const pv_model_t *m = model_of(pv, in);
    uint64_t c[PV_MAX_STAGES + 1], tick[O3_STAGES], prev = 0;
    entry_cycles(in, c);
    for (int k = 0; k < O3_STAGES; k++) {
        unsigned s = m->o3[k] < in->nstages ? m->o3[k] : in->nstages - 1;
        if (s >= stages_of(in)) {           /* squashed before it: gem5 writes 0 */
            tick[k] = 0;
            continue;
        }
        tick[k] = c[s] * PV_O3_TICKS_PER_CYCLE;
        if (tick[k] < prev) tick[k] = prev;
        prev = tick[k];
    }
    char text[sizeof in->text];
    size_t k = 0;
    for (; in->text[k] && k + 1 < sizeof text; k++)
        text[k] = in->text[k] == ':' ? ';' : in->text[k];
    text[k] = 0;
    fprintf(pv->o3, "O3PipeView:fetch:%" PRIu64 ":0x%08" PRIx64 ":0:%" PRIu64 ":%s\n",
            tick[O3_FETCH], in->pc, in->id, text);
    for (int s = O3_DECODE; s < O3_RETIRE; s++)
        fprintf(pv->o3, "O3PipeView:%s:%" PRIu64 "\n", o3_names[s], tick[s]);
    if (in->flushed) tick[O3_RETIRE] = 0;
    fprintf(pv->o3, "O3PipeView:retire:%" PRIu64 ":store:%" PRIu64 "\n", tick[O3_RETIRE],
            in->store ? tick[O3_RETIRE] : 0);
}

void pipeview_insn(pipeview_t *pv, const pv_insn_t *in)
{
    if (pv->kanata) add_kanata(pv, in);
    if (pv->o3) write_o3(pv, in);
    if (pv->diagram) {
        pv->rows = grow(pv->rows, &pv->rows_cap, pv->nrows + 1, sizeof *pv->rows);
        pv->rows[pv->nrows++] = *in;
    }
}

/* ---- the text diagram ----------------------------------------------------------- */

enum { LABEL_WIDTH = 36 };

/* The stages a row passed through in 0 cycles, as groups of stages
 * entered in the same cycle: "F=S X=W".  Returns its length. */
static size_t same_cycle_note(const pv_insn_t *r, const uint64_t *c, char *buf, size_t len)
{
    size_t k = 0;
    unsigned n = stages_of(r);
    buf[0] = 0;
    for (unsigned s = 0; s < n;) {
        unsigned t = s;
        while (t + 1 < n && c[t + 1] == c[s]) t++;
        for (unsigned u = s; t > s && u <= t && k + 3 < len; u++) {
            if (u == s && k) buf[k++] = ' ';
            if (u > s) buf[k++] = '=';
            buf[k++] = r->stage_names[u][0];
        }
        buf[k] = 0;
        s = t + 1;
    }
    return k;
}

static unsigned digits(uint64_t v)
{
    unsigned d = 1;
    while (v >= 10) { v /= 10; d++; }
    return d;
}

/* example: a group of same_cycle_note ("X=W"), or "" when no row has one. */
static void print_legend(FILE *out, const pv_model_t *m, const pv_insn_t *r, const char *example)
{
    fprintf(out, "legend (%s):\n", m->title ? m->title : "the model's stages");
    for (unsigned s = 0; s < r->nstages; s++) {
        const pv_stage_doc_t *d = &m->stage[s];
        fprintf(out, "  %c  %-10s %s\n", r->stage_names[s][0],
                d->name ? d->name : r->stage_names[s], d->what ? d->what : "");
    }
    fprintf(out, "  A capital letter marks the cycle the instruction enters that stage, its\n"
                 "  lowercase each further cycle in it (stalled, waiting or a multi-cycle\n"
                 "  operation); '.' before it is fetched.\n");
    size_t n = strcspn(example, " ");
    if (n >= 3)
        fprintf(out, "  0-cycle column: stages entered in the same cycle.  %.*s: it passed through\n"
                     "  %c in 0 cycles, entering %c and %c in the cycle shown as %c.\n", (int)n,
                example, example[0], example[0], example[n - 1], example[n - 1]);
}

/* Two header rows: the cycle number above every `step`-th column, then
 * the last digit of every column's cycle. */
static void print_ruler(FILE *out, size_t notew, uint64_t first, uint64_t last)
{
    char nums[PV_DIAGRAM_CYCLES + 32];
    size_t ncols = (size_t)(last - first + 1), end = 0;
    unsigned w = digits(last), step = 10;
    while (w + 1 > step) step *= 2;
    memset(nums, ' ', sizeof nums);
    for (size_t i = 0; i < ncols; i++) {
        uint64_t cyc = first + i;
        bool room = i == 0 && step - cyc % step >= w + 1;
        if (cyc % step && !room) continue;
        int n = snprintf(nums + i, sizeof nums - i, "%" PRIu64, cyc);
        nums[i + (size_t)n] = ' ';
        end = i + (size_t)n;
    }
    nums[end] = 0;
    fprintf(out, "%*s ", LABEL_WIDTH, "cycle:");
    if (notew) fprintf(out, "%-*s ", (int)notew, "");
    fprintf(out, "%s\n%-*s ", nums, LABEL_WIDTH, "pc       instruction");
    if (notew) fprintf(out, "%-*s ", (int)notew, "0-cycle");
    for (size_t i = 0; i < ncols; i++) fputc('0' + (int)((first + i) % 10), out);
    fputc('\n', out);
}

/* One row: the stage letter in the cycle a stage is entered, its
 * lowercase in every further cycle spent in it, '>' when it goes on past
 * the diagram's last cycle (a row that starts past it: just its cycle). */
static void diagram_row(FILE *out, const pv_insn_t *r, size_t notew, uint64_t first, uint64_t last)
{
    uint64_t c[PV_MAX_STAGES + 1];
    entry_cycles(r, c);
    char label[96], note[3 * PV_MAX_STAGES];
    snprintf(label, sizeof label, "%08" PRIx64 " %s", r->pc, r->text);
    fprintf(out, "%-*.*s ", LABEL_WIDTH, LABEL_WIDTH, label);
    if (notew) {
        same_cycle_note(r, c, note, sizeof note);
        fprintf(out, "%-*s ", (int)notew, note);
    }
    if (c[0] > last) {
        fprintf(out, "(fetched in cycle %" PRIu64 ", after the cut) >\n", c[0]);
        return;
    }
    unsigned n = stages_of(r);
    bool cut = c[n] - 1 > last;
    uint64_t end = cut ? last : c[n] - 1;
    for (uint64_t cyc = first; cyc <= end; cyc++) {
        char cell = '.';
        for (unsigned s = 0; s < n; s++) {
            if (cyc == c[s]) cell = r->stage_names[s][0];
            else if (cyc > c[s] && cyc < c[s + 1]) cell = (char)tolower(r->stage_names[s][0]);
        }
        fputc(cell, out);
    }
    fputs(cut ? ">" : r->flushed ? "x" : "", out);       /* x: the cycle it was squashed */
    fputs(r->flushed ? "  squashed (wrong path)\n" : "\n", out);
}

void pipeview_print_diagram(FILE *out, const pv_insn_t *rows, size_t n, const char *how_to_see_more)
{
    if (!n) return;
    const pv_model_t *m = find_model(rows[0].stage_names, rows[0].nstages);
    uint64_t first = UINT64_MAX, last = 0, c[PV_MAX_STAGES + 1];
    size_t notew = 0;
    char note[3 * PV_MAX_STAGES], example[3 * PV_MAX_STAGES] = "";
    for (size_t k = 0; k < n; k++) {
        entry_cycles(&rows[k], c);
        if (c[0] < first) first = c[0];
        if (c[stages_of(&rows[k])] - 1 > last) last = c[stages_of(&rows[k])] - 1;
        size_t len = same_cycle_note(&rows[k], c, note, sizeof note);
        if (len > notew) notew = len;
        if (len && !example[0]) memcpy(example, note, sizeof note);
    }
    if (notew && notew < 7) notew = 7;                       /* "0-cycle" */
    uint64_t shown = last - first + 1 > PV_DIAGRAM_CYCLES ? first + PV_DIAGRAM_CYCLES - 1 : last;
    fprintf(out, "pipeline diagram: instructions #%" PRIu64 "-#%" PRIu64 " (%zu), cycles %" PRIu64
            "-%" PRIu64, rows[0].id, rows[n - 1].id, n, first, last);
    if (shown < last) fprintf(out, ", shown to %" PRIu64, shown);
    fputc('\n', out);
    print_legend(out, m, &rows[0], example);
    size_t squashed = 0;
    for (size_t k = 0; k < n; k++) squashed += rows[k].flushed;
    if (squashed)
        fprintf(out, "  x  squashed: %zu rows are wrong-path instructions (fetched after a\n"
                     "     mispredicted transfer, ooo.wrong_path), flushed in the cycle of the x.\n",
                squashed);
    if (shown < last)
        fprintf(out, "  '>' ends a row that goes on past cycle %" PRIu64 ", the last shown.\n", shown);
    print_ruler(out, notew, first, shown);
    for (size_t k = 0; k < n; k++) diagram_row(out, &rows[k], notew, first, shown);
    if (shown < last)
        fprintf(out, "diagram cut at cycle %" PRIu64 ": %" PRIu64 " cycles not shown (%" PRIu64
                "-%" PRIu64 "); %s\n", shown, last - shown, shown + 1, last,
                how_to_see_more ? how_to_see_more : "show fewer instructions");
}

static void write_diagram(pipeview_t *pv)
{
    if (!pv->diagram) return;
    if (!pv->nrows)
        fprintf(pv->diagram, "pipeline diagram: no instruction ran in the view window "
                             "(--view-from, --view-count)\n");
    pipeview_print_diagram(pv->diagram, pv->rows, pv->nrows,
                           "use --view-count N to show fewer instructions, --view-from N "
                           "to start later");
}

void pipeview_finish(pipeview_t *pv)
{
    write_due(pv, 0, 1);
    write_diagram(pv);
    if (pv->o3) fflush(pv->o3);
    free(pv->events);
    free(pv->rows);
    pv->events = NULL;
    pv->rows = NULL;
    pv->nevents = pv->nrows = 0;
}
