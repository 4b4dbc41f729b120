/*
 * pipeview.c - Kanata log writer and text pipeline diagram (pipeview.h).
 *
 * Kanata format (Konata's docs/kanata-log-format.md): tab-separated
 * commands; `C=` sets the start cycle, `C n` advances, `I` introduces an
 * instruction, `L` labels it, `S` starts a stage, `R` retires it.  We write
 * every instruction with its pc and disassembly as the left-pane label.
 */
#include "pipeview.h"
#include "util.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return p;
    size_t n = *cap ? *cap * 2 : 256;
    while (n < need) n *= 2;
    *cap = n;
    return xrealloc(p, n * elem);
}

void pipeview_init(pipeview_t *pv, FILE *kanata, FILE *diagram)
{
    memset(pv, 0, sizeof *pv);
    pv->kanata = kanata;
    pv->diagram = diagram;
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
    uint64_t first = in->stage_cycle[0];
    add_event(pv, first, "I\t%" PRIu64 "\t%" PRIu64 "\t0", in->id, in->id);
    add_event(pv, first, "L\t%" PRIu64 "\t0\t%08" PRIx64 ": %s", in->id, in->pc, in->text);
    for (unsigned s = 0; s < in->nstages; s++) {
        add_event(pv, in->stage_cycle[s], "S\t%" PRIu64 "\t0\t%s", in->id, in->stage_names[s]);
        uint64_t end = s + 1 < in->nstages ? in->stage_cycle[s + 1] : in->retire_cycle;
        add_event(pv, end, "E\t%" PRIu64 "\t0\t%s", in->id, in->stage_names[s]);
    }
    add_event(pv, in->retire_cycle, "R\t%" PRIu64 "\t%" PRIu64 "\t0", in->id, pv->retired++);
}

void pipeview_insn(pipeview_t *pv, const pv_insn_t *in)
{
    if (pv->kanata) add_kanata(pv, in);
    if (pv->diagram) {
        pv->rows = grow(pv->rows, &pv->rows_cap, pv->nrows + 1, sizeof *pv->rows);
        pv->rows[pv->nrows++] = *in;
    }
}

static int by_cycle(const void *a, const void *b)
{
    const pv_event_t *x = a, *y = b;
    if (x->cycle != y->cycle) return x->cycle < y->cycle ? -1 : 1;
    return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* Write the events before `cycle` (all of them when flush_all). */
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

/* One diagram row: the stage letter on the cycle a stage is entered, then
 * its lowercase for every further cycle spent in it (a stall). */
static void diagram_row(FILE *out, const pv_insn_t *r, uint64_t first, uint64_t last)
{
    char label[96];
    snprintf(label, sizeof label, "%08" PRIx64 " %s", r->pc, r->text);
    fprintf(out, "%-36.36s ", label);
    for (uint64_t cyc = first; cyc <= last; cyc++) {
        char cell = '.';
        for (unsigned s = 0; s < r->nstages; s++) {
            uint64_t end = s + 1 < r->nstages ? r->stage_cycle[s + 1] : r->retire_cycle;
            if (cyc == r->stage_cycle[s]) cell = r->stage_names[s][0];
            else if (cyc > r->stage_cycle[s] && cyc < end)
                cell = (char)(r->stage_names[s][0] | 0x20);
        }
        fputc(cell, out);
    }
    fputc('\n', out);
}

void pipeview_print_diagram(FILE *out, const pv_insn_t *rows, size_t n)
{
    if (!n) return;
    uint64_t first = rows[0].stage_cycle[0], last = 0;
    for (size_t k = 0; k < n; k++)
        if (rows[k].retire_cycle > last) last = rows[k].retire_cycle;
    if (last - first > 400) last = first + 400;      /* keep rows readable */
    fprintf(out, "%-36s cycle %" PRIu64 " ->  (stage letter = entered; "
            "lowercase = stalled in it)\n", "", first);
    for (size_t k = 0; k < n; k++) diagram_row(out, &rows[k], first, last);
}

static void write_diagram(pipeview_t *pv)
{
    if (pv->diagram) pipeview_print_diagram(pv->diagram, pv->rows, pv->nrows);
}

void pipeview_finish(pipeview_t *pv)
{
    write_due(pv, 0, 1);
    write_diagram(pv);
    free(pv->events);
    free(pv->rows);
    pv->events = NULL;
    pv->rows = NULL;
    pv->nevents = pv->nrows = 0;
}
