/*
 * shell.c - the interactive teaching shell (see shell.h): a command loop
 * over a stopped guest.  Execution always goes through the same run loops
 * as a batch run (engine_run) with an absolute instruction limit,
 * so stepping one instruction at a time gives exactly the cycles of an
 * uninterrupted run.  Going back replays from the start with the guest's
 * output off; output the user has already seen is not written twice.
 *
 * Breakpoints, watchpoints and `until` conditions are checked between
 * instructions: while any is active the run advances one instruction per
 * engine_run, which changes no cycle count.  Watchpoints compare the
 * watched bytes after each instruction.  The views of the machine --
 * registers (FP ones also as values), memory, the pipeline, the caches,
 * TLBs and branch predictor of the timing model, the DISE tables and HPS
 * counters -- read it through the modules' own query functions and never
 * change it.  On a terminal, readline completes command names, and
 * register and symbol names in arguments.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "bpred.h"
#include "cache.h"
#include "disasm.h"
#include "dise_engine.h"
#include "engine.h"
#include "isa.h"
#include "mem.h"
#include "pipeview.h"
#include "shell.h"
#include "stats.h"
#include "symtab.h"
#include "timing.h"

#define MAX_POINTS 32                   /* breakpoints and watchpoints       */
#define RUN_CHUNK 1000000u              /* instructions between Ctrl-C checks */
#define STEP_ECHO_LIMIT 1000u           /* a longer step is summarised       */

/* A breakpoint (stop before the instruction at addr) or a watchpoint
 * (stop after an instruction that changed the size bytes at addr). */
typedef enum { PT_BREAK, PT_WATCH } point_kind_t;
typedef struct point {
    unsigned id;                        /* shared numbering, from 1          */
    point_kind_t kind;
    uint64_t addr;
    unsigned size;                      /* watch: 1, 2, 4 or 8 bytes         */
    bool mapped;                        /* watch: the bytes as last seen     */
    uint64_t value;
} point_t;

/* What `until` waits for: the pc, a register or memory compared with a
 * value (unsigned, or signed when the value was written negative). */
typedef enum { UNTIL_PC, UNTIL_REG, UNTIL_MEM } until_kind_t;
typedef enum { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE } cmp_op_t;
static const char *const op_words[] = { "==", "!=", "<", "<=", ">", ">=" };
typedef struct until {
    until_kind_t kind;
    cmp_op_t op;
    bool is_signed;
    unsigned reg, size;
    uint64_t addr, value;
} until_t;

typedef struct shell {
    shell_target_t *t;
    FILE *in, *out;
    bool use_readline;
    point_t points[MAX_POINTS];
    size_t npoints;
    unsigned next_id;
    uint64_t shown_upto;                /* the guest's output is shown from here */
    bool output_on;
    bool finished;                      /* the program exited or faulted      */
    int status;                         /* hps-sim's exit status so far       */
    char last[256];                     /* the command Enter repeats          */
    uint64_t kept_upto;                 /* the last in-memory checkpoint asked */
} shell_t;

static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

/* ---- addresses and registers -------------------------------------------- */

static const symbol_t *symbol_named(const symtab_t *st, const char *name, size_t len)
{
    if (!st) return NULL;
    for (size_t k = 0; k < st->count; k++)
        if (strlen(st->syms[k].name) == len && !strncmp(st->syms[k].name, name, len))
            return &st->syms[k];
    return NULL;
}

/* A register by the ISA's name (a0, sp, ft0, v0, ...) or number (x5, r5,
 * f5), given as the first len characters of name; -1 if there is none. */
static int register_named(const isa_t *isa, const char *name, size_t len)
{
    for (unsigned r = 0; r < 64; r++) {
        const char *reg = isa->reg_name(r);
        if (strlen(reg) == len && !strncmp(reg, name, len)) return (int)r;
    }
    if (len < 2 || len > 3 || !strchr("xrf", name[0])) return -1;
    unsigned n = 0;
    for (size_t k = 1; k < len; k++) {
        if (!isdigit((unsigned char)name[k])) return -1;
        n = n * 10 + (unsigned)(name[k] - '0');
    }
    if (n >= 32) return -1;
    return (int)n + (name[0] == 'f' ? REG_FP0 : REG_INT0);
}

/* A number (0x.. or decimal), or SYMBOL, REGISTER or pc with an optional
 * +OFFSET or -OFFSET: 0x10552, main+0x10, sp+16, sp-8, pc+4. */
static bool parse_address(const shell_t *s, const char *text, uint64_t *addr)
{
    char *end;
    errno = 0;
    if (isdigit((unsigned char)text[0])) {
        *addr = strtoull(text, &end, 0);
        return !errno && !*end;
    }
    size_t len = strcspn(text, "+-");
    const symbol_t *sym = symbol_named(s->t->symtab, text, len);
    int reg = sym ? -1 : register_named(s->t->cpu->isa, text, len);
    bool pc = !sym && reg < 0 && len == 2 && !strncmp(text, "pc", 2);
    if (!sym && reg < 0 && !pc) return false;
    uint64_t off = 0;
    if (text[len]) {
        off = strtoull(text + len + 1, &end, 0);
        if (errno || *end || end == text + len + 1) return false;
        if (text[len] == '-') off = -off;
    }
    *addr = (sym ? sym->addr : pc ? s->t->cpu->pc : cpu_get(s->t->cpu, (unsigned)reg)) + off;
    return true;
}

/* ADDR or ADDR:SIZE, SIZE 1, 2, 4 or 8 bytes (8 if not given). */
static bool parse_sized(const shell_t *s, char *text, uint64_t *addr, unsigned *size)
{
    char *colon = strchr(text, ':');
    *size = 8;
    if (colon) {
        *colon = 0;
        char *end;
        unsigned long n = strtoul(colon + 1, &end, 0);
        if (*end || (n != 1 && n != 2 && n != 4 && n != 8)) return false;
        *size = (unsigned)n;
    }
    return parse_address(s, text, addr);
}

static bool parse_count(const char *text, uint64_t *n)
{
    char *end;
    errno = 0;
    if (!text || !isdigit((unsigned char)text[0])) return false;
    *n = strtoull(text, &end, 0);
    return !errno && !*end;
}

/* size little-endian bytes of guest memory at addr; false if unmapped. */
static bool read_value(const shell_t *s, uint64_t addr, unsigned size, uint64_t *v)
{
    uint8_t b[8] = {0};
    if (!mem_read(s->t->cpu->mem, addr, b, size)) return false;
    *v = 0;
    for (unsigned k = size; k-- > 0;) *v = *v << 8 | b[k];
    return true;
}

/* ---- describing instructions -------------------------------------------- */

/* The instruction at pc, decoded without touching the run's caches:
 * false if its bytes are unmapped or it is illegal. */
static bool peek_insn(const shell_t *s, uint64_t pc, insn_t *in, char *text, size_t len)
{
    const cpu_t *c = s->t->cpu;
    uint8_t bytes[4] = {0};
    size_t avail = mem_read(c->mem, pc, bytes, 4) ? 4 : mem_read(c->mem, pc, bytes, 2) ? 2 : 0;
    snprintf(text, len, "(unmapped)");
    if (!avail) return false;
    memset(in, 0, sizeof *in);
    bool ok = c->isa->decode(pc, bytes, avail, in);
    if (!s->t->disasm || disasm_insn(s->t->disasm, pc, bytes, avail, text, len) <= 0)
        snprintf(text, len, ok ? "%08" PRIx32 : "(illegal)", in->raw);
    return ok;
}

/* pc <symbol+offset>, or just pc outside every known function. */
static void print_where(const shell_t *s, uint64_t pc)
{
    char sym[160];
    fprintf(s->out, "0x%016" PRIx64, pc);
    if (s->t->symtab && symtab_lookup(s->t->symtab, pc))
        fprintf(s->out, " <%s>", symtab_format(s->t->symtab, pc, sym, sizeof sym));
}

/* pc <symbol+offset>  disassembly, and a newline. */
static void print_insn_at(const shell_t *s, uint64_t pc)
{
    insn_t in;
    char text[96];
    peek_insn(s, pc, &in, text, sizeof text);
    print_where(s, pc);
    fprintf(s->out, "  %s\n", text);
}

static void print_next(const shell_t *s)
{
    fprintf(s->out, "next: ");
    print_insn_at(s, s->t->cpu->pc);
}

/* One executed instruction: its number, pc, text, the register it wrote
 * and, on a timing model, the cycles it held the head and why. */
static void print_executed(const shell_t *s, uint64_t seq, uint64_t pc, const insn_t *in,
                           const char *text)
{
    const cpu_t *c = s->t->cpu;
    fprintf(s->out, "%8" PRIu64 "  ", seq);
    print_where(s, pc);
    fprintf(s->out, "  %-28s", text);
    if (in->rd < REG_FP0 && in->rd != REG_ZERO)
        fprintf(s->out, "  %s=0x%" PRIx64, c->isa->reg_name(in->rd), cpu_get(c, in->rd));
    else if (in->rd >= REG_FP0 && in->rd < REG_FP0 + 32)
        fprintf(s->out, "  %s=0x%016" PRIx64, c->isa->reg_name(in->rd), cpu_get(c, in->rd));
    uint64_t head, culprit;
    uint8_t cause;
    if (s->t->timing && timing_last_head(s->t->timing, &head, &cause, &culprit)) {
        fprintf(s->out, "  [cycle %" PRIu64 ", head %" PRIu64, c->cycle, head);
        if (head > 1 && cause != STALL_NONE) {
            fprintf(s->out, ": %s", stall_names[cause]);
            if (culprit && culprit != pc) {
                fprintf(s->out, " of ");
                print_where(s, culprit);
            }
        }
        fputc(']', s->out);
    }
    fputc('\n', s->out);
}

/* ---- stopping points ---------------------------------------------------- */

static bool at_breakpoint(const shell_t *s, uint64_t pc)
{
    for (size_t k = 0; k < s->npoints; k++)
        if (s->points[k].kind == PT_BREAK && s->points[k].addr == pc) return true;
    return false;
}

static size_t count_points(const shell_t *s, point_kind_t kind)
{
    size_t n = 0;
    for (size_t k = 0; k < s->npoints; k++) n += s->points[k].kind == kind;
    return n;
}

/* Take the watched bytes as they are now (before a run that checks them:
 * steps, going back and restarts change them unwatched). */
static void watches_refresh(shell_t *s)
{
    for (size_t k = 0; k < s->npoints; k++) {
        point_t *p = &s->points[k];
        if (p->kind == PT_WATCH) p->mapped = read_value(s, p->addr, p->size, &p->value);
    }
}

static void print_value_or_unmapped(const shell_t *s, bool mapped, uint64_t v)
{
    if (mapped) fprintf(s->out, "0x%" PRIx64, v);
    else fprintf(s->out, "(unmapped)");
}

/* After the instruction at pc: report each watchpoint whose bytes it
 * changed, with the old and new value; true if any. */
static bool watches_hit(shell_t *s, uint64_t pc)
{
    bool hit = false;
    for (size_t k = 0; k < s->npoints; k++) {
        point_t *p = &s->points[k];
        if (p->kind != PT_WATCH) continue;
        uint64_t v = 0;
        bool mapped = read_value(s, p->addr, p->size, &v);
        if (mapped == p->mapped && v == p->value) continue;
        fprintf(s->out, "watchpoint %u: 0x%016" PRIx64 ":%u changed after %" PRIu64
                " instructions: ", p->id, p->addr, p->size, s->t->cpu->instret);
        print_value_or_unmapped(s, p->mapped, p->value);
        fprintf(s->out, " -> ");
        print_value_or_unmapped(s, mapped, v);
        fprintf(s->out, "\n  written by ");
        print_insn_at(s, pc);
        p->mapped = mapped;
        p->value = v;
        hit = true;
    }
    return hit;
}

static bool compare(cmp_op_t op, uint64_t a, uint64_t b, bool is_signed)
{
    if (is_signed) {
        int64_t x = (int64_t)a, y = (int64_t)b;
        return op == OP_EQ ? x == y : op == OP_NE ? x != y : op == OP_LT ? x < y
             : op == OP_LE ? x <= y : op == OP_GT ? x > y : x >= y;
    }
    return op == OP_EQ ? a == b : op == OP_NE ? a != b : op == OP_LT ? a < b
         : op == OP_LE ? a <= b : op == OP_GT ? a > b : a >= b;
}

/* The value an `until` condition compares, sign-extended from its size
 * for a signed comparison; false when memory is unmapped. */
static bool until_value(const shell_t *s, const until_t *u, uint64_t *v)
{
    if (u->kind == UNTIL_PC) *v = s->t->cpu->pc;
    else if (u->kind == UNTIL_REG) *v = cpu_get(s->t->cpu, u->reg);
    else if (!read_value(s, u->addr, u->size, v)) return false;
    unsigned bits = u->kind == UNTIL_MEM ? u->size * 8 : 64;
    if (u->is_signed && bits < 64 && (*v >> (bits - 1) & 1)) *v |= ~0ull << bits;
    return true;
}

/* Does the condition hold now?  Reported, unless it is the pc's. */
static bool until_holds(shell_t *s, const until_t *u)
{
    uint64_t v;
    if (!until_value(s, u, &v) || !compare(u->op, v, u->value, u->is_signed)) return false;
    if (u->kind == UNTIL_PC) return true;
    bool negative = u->is_signed && (int64_t)u->value < 0;
    if (u->kind == UNTIL_MEM && u->size < 8) v &= (UINT64_C(1) << u->size * 8) - 1;
    if (u->kind == UNTIL_REG) fprintf(s->out, "until: %s", s->t->cpu->isa->reg_name(u->reg));
    else fprintf(s->out, "until: mem 0x%016" PRIx64 ":%u", u->addr, u->size);
    fprintf(s->out, " %s %s0x%" PRIx64 " holds after %" PRIu64 " instructions (it is 0x%" PRIx64
            ")\n", op_words[u->op], negative ? "-" : "", negative ? -u->value : u->value,
            s->t->cpu->instret, v);
    return true;
}

/* ---- running ------------------------------------------------------------ */

static void set_output(shell_t *s, bool on)
{
    if (s->output_on == on) return;
    s->output_on = on;
    if (s->t->output) s->t->output(s->t->ctx, on);
}

/* Run the program up to the absolute count `to`, as a batch run would. */
static stop_reason_t advance(shell_t *s, uint64_t to)
{
    fflush(s->out);                     /* before the guest's own output */
    return engine_run(s->t->engine, to);
}

static void program_stopped(shell_t *s)
{
    s->finished = true;
    fflush(s->out);
    s->status = s->t->report ? s->t->report(s->t->ctx, s->t->cpu) : 0;
    if (s->t->cpu->stop == STOP_EXIT)
        fprintf(s->out, "program exited with status %d after %" PRIu64 " instructions\n",
                s->t->cpu->exit_code, s->t->cpu->instret);
    else
        fprintf(s->out, "program stopped after %" PRIu64 " instructions\n", s->t->cpu->instret);
}

/* After one instruction (from pc) of a checking run: did a watchpoint,
 * the until condition or a breakpoint stop it?  All that did are told. */
static bool stops_here(shell_t *s, uint64_t pc, bool points, const until_t *u)
{
    bool stop = points && watches_hit(s, pc);
    if (u && until_holds(s, u)) stop = true;
    if (points && at_breakpoint(s, s->t->cpu->pc)) {
        fprintf(s->out, "breakpoint at ");
        print_where(s, s->t->cpu->pc);
        fputc('\n', s->out);
        stop = true;
    }
    return stop;
}

/* --max-insts reached: the run ends there, as a batch run does. */
static void limit_reached(shell_t *s)
{
    s->finished = true;
    s->status = 0;
    fprintf(s->out, "stopped by --max-insts after %" PRIu64 " program instructions (the program "
            "did not finish)\n", s->t->cpu->instret);
}

/* With in-memory checkpoints, a run stops at each multiple of keep_every
 * on its way (so one can be kept there). */
static uint64_t keep_boundary(const shell_t *s, uint64_t end)
{
    uint64_t k = s->t->keep ? s->t->keep_every : 0, at = s->t->cpu->instret;
    if (!k) return end;
    uint64_t next = (at / k + 1) * k;
    return end > next ? next : end;
}

static void keep_checkpoint(shell_t *s)
{
    uint64_t k = s->t->keep ? s->t->keep_every : 0, at = s->t->cpu->instret;
    if (k && at % k == 0 && at > s->kept_upto) {
        s->t->keep(s->t->ctx, s->t);
        s->kept_upto = at;
    }
}

/* Run until instret reaches `to` (at most --max-insts, where the run then
 * ends), the program ends, Ctrl-C, or (with
 * points) a breakpoint or watchpoint, or the until condition u (if not
 * NULL).  The guest's output stays off while replaying what the user has
 * already seen. */
static void run_until(shell_t *s, uint64_t to, bool points, const until_t *u)
{
    cpu_t *c = s->t->cpu;
    uint64_t limit = s->t->max_insts;
    if (limit && to > limit) to = limit;
    bool checking = u || (points && s->npoints);
    if (points) watches_refresh(s);
    while (!s->finished && c->instret < to) {
        if (interrupted) {
            fprintf(s->out, "interrupted\n");
            break;
        }
        uint64_t end = to;
        if (c->instret < s->shown_upto) {
            set_output(s, false);
            if (end > s->shown_upto) end = s->shown_upto;
        } else {
            set_output(s, true);
        }
        if (checking) end = c->instret + 1;
        else if (end - c->instret > RUN_CHUNK) end = c->instret + RUN_CHUNK;
        end = keep_boundary(s, end);
        uint64_t pc = c->pc;
        if (advance(s, end) != STOP_MAX_INSTS) {
            set_output(s, true);
            program_stopped(s);
            break;
        }
        if (c->instret > s->shown_upto && s->output_on) s->shown_upto = c->instret;
        keep_checkpoint(s);
        if (checking && stops_here(s, pc, points, u)) break;
    }
    if (c->instret >= s->shown_upto) set_output(s, true);
    if (c->instret > s->shown_upto) s->shown_upto = c->instret;
    if (limit && !s->finished && c->instret >= limit) limit_reached(s);
}

static bool check_running(shell_t *s)
{
    if (!s->finished) return true;
    fprintf(s->out, "the program has finished: 'back N' or 'restart' to go back\n");
    return false;
}

/* step N: each instruction as it executes (a long step prints the last). */
static void cmd_step(shell_t *s, uint64_t n)
{
    if (!check_running(s)) return;
    cpu_t *c = s->t->cpu;
    uint64_t to = c->instret + n;
    while (!s->finished && c->instret < to) {
        uint64_t pc = c->pc, seq = c->instret;
        insn_t in;
        char text[96];
        peek_insn(s, pc, &in, text, sizeof text);
        bool quiet = to - seq > STEP_ECHO_LIMIT;
        run_until(s, quiet ? to - STEP_ECHO_LIMIT : seq + 1, false, NULL);
        if (interrupted) break;
        if (!quiet && c->instret == seq + 1) print_executed(s, seq, pc, &in, text);
    }
    if (!s->finished) print_next(s);
}

static void cmd_run(shell_t *s, uint64_t n, bool to_end)
{
    if (!check_running(s)) return;
    cpu_t *c = s->t->cpu;
    run_until(s, to_end ? UINT64_MAX : c->instret + n, true, NULL);
    if (!s->finished) print_next(s);
}

/* Back to instruction number `to`: replay from the nearest in-memory
 * checkpoint at or before it (saying which and how far it replayed), or
 * from the start, output off. */
static void go_to(shell_t *s, uint64_t to)
{
    if (!s->t->restart) {
        fprintf(s->out, "this target cannot restart\n");
        return;
    }
    uint64_t from = s->t->rewind && to ? s->t->rewind(s->t->ctx, s->t, to) : UINT64_MAX;
    if (from == UINT64_MAX) s->t->restart(s->t->ctx, s->t);
    else fprintf(s->out, "(from the checkpoint at instruction %" PRIu64 ": %" PRIu64
                 " instructions replayed)\n", from, to - from);
    s->output_on = false;
    if (s->t->output) s->t->output(s->t->ctx, false);
    s->finished = false;
    s->status = 0;
    run_until(s, to, false, NULL);
    if (!s->finished) print_next(s);
}

/* ---- until -------------------------------------------------------------- */

static char *trim(char *text)
{
    while (isspace((unsigned char)*text)) text++;
    size_t n = strlen(text);
    while (n && isspace((unsigned char)text[n - 1])) text[--n] = 0;
    return text;
}

/* "LEFT OP VALUE": splits text at the operator; VALUE is a number (signed
 * comparison when negative) or an address expression. */
static bool parse_condition(const shell_t *s, char *text, char **left, until_t *u)
{
    char *op = text + strcspn(text, "=!<>");
    int found = -1;                     /* the longest operator there */
    for (int k = 0; k < 6; k++)
        if (!strncmp(op, op_words[k], strlen(op_words[k])) &&
            (found < 0 || strlen(op_words[k]) > strlen(op_words[found])))
            found = k;
    if (found < 0) return false;
    u->op = (cmp_op_t)found;
    char *right = trim(op + strlen(op_words[found]));
    *op = 0;
    *left = trim(text);
    u->is_signed = right[0] == '-';
    if (u->is_signed) {
        if (!parse_count(right + 1, &u->value)) return false;
        u->value = -u->value;
        return true;
    }
    return parse_address(s, right, &u->value);
}

/* until [pc] ADDR | until reg NAME OP VALUE | until mem ADDR[:SIZE] OP VALUE */
static bool parse_until(const shell_t *s, char *text, until_t *u)
{
    memset(u, 0, sizeof *u);
    text = trim(text);
    size_t word = strcspn(text, " \t");
    char *rest = trim(text + word);
    if (word == 3 && (!strncmp(text, "reg", 3) || !strncmp(text, "mem", 3))) {
        char *left;
        if (!parse_condition(s, rest, &left, u)) return false;
        if (text[0] == 'r') {
            int r = register_named(s->t->cpu->isa, left, strlen(left));
            u->kind = UNTIL_REG;
            u->reg = (unsigned)r;
            return r >= 0;
        }
        u->kind = UNTIL_MEM;
        return parse_sized(s, left, &u->addr, &u->size);
    }
    if (word == 2 && !strncmp(text, "pc", 2)) text = rest;
    u->kind = UNTIL_PC;
    u->op = OP_EQ;
    return *text && parse_address(s, text, &u->value);
}

/* Run (at least one instruction) until the condition holds after an
 * instruction, a breakpoint or watchpoint, Ctrl-C or the end. */
static void cmd_until(shell_t *s, char *text)
{
    until_t u;
    if (!parse_until(s, text, &u)) {
        fprintf(s->out, "until: expected 'until [pc] ADDR', 'until reg NAME OP VALUE' or "
                        "'until mem ADDR[:SIZE] OP VALUE' (OP: == != < <= > >=)\n");
        return;
    }
    if (!check_running(s)) return;
    run_until(s, UINT64_MAX, true, &u);
    if (!s->finished) print_next(s);
}

/* ---- looking at state ----------------------------------------------------- */

/* An FP register as a value: a double, and on RISC-V a NaN-boxed single
 * (upper 32 bits all ones) as the float it holds.  Alpha keeps S-floats in
 * registers in T-float (double) format, so the double is the value. */
static void print_fp_value(const shell_t *s, uint64_t bits)
{
    double d;
    char text[32];
    memcpy(&d, &bits, sizeof d);
    snprintf(text, sizeof text, "%.17g", d);
    if (s->t->cpu->isa != &isa_rv64 || bits >> 32 != 0xffffffffu) {
        fputs(text, s->out);
        return;
    }
    uint32_t lo = (uint32_t)bits;
    float f;
    memcpy(&f, &lo, sizeof f);
    fprintf(s->out, "%-24s  float %.9g", text, (double)f);
}

static void print_register(const shell_t *s, unsigned r)
{
    const cpu_t *c = s->t->cpu;
    uint64_t v = cpu_get(c, r);
    fprintf(s->out, "%s = 0x%016" PRIx64, c->isa->reg_name(r), v);
    if (r >= REG_FP0 && r < REG_FP0 + 32) {
        fprintf(s->out, "  ");
        print_fp_value(s, v);
        fputc('\n', s->out);
    } else {
        fprintf(s->out, " (%" PRId64 ")\n", (int64_t)v);
    }
}

static void cmd_regs(shell_t *s, unsigned first, const char *only)
{
    const cpu_t *c = s->t->cpu;
    if (only) {
        int r = register_named(c->isa, only, strlen(only));
        if (r < 0) fprintf(s->out, "unknown register '%s'\n", only);
        else print_register(s, (unsigned)r);
        return;
    }
    for (unsigned r = first; r < first + 32; r++) {
        if (first == REG_FP0) {         /* one a line: hex, then the value */
            fprintf(s->out, "%-5s 0x%016" PRIx64 "  ", c->isa->reg_name(r), cpu_get(c, r));
            print_fp_value(s, cpu_get(c, r));
            fputc('\n', s->out);
            continue;
        }
        fprintf(s->out, "%-5s 0x%016" PRIx64 "%s", c->isa->reg_name(r), cpu_get(c, r),
                (r - first) % 4 == 3 ? "\n" : "  ");
    }
}

static void cmd_mem(shell_t *s, uint64_t addr, uint64_t len)
{
    const cpu_t *c = s->t->cpu;
    if (len > 4096) len = 4096;
    for (uint64_t row = 0; row < len; row += 16) {
        fprintf(s->out, "0x%016" PRIx64 ":", addr + row);
        char ascii[17] = {0};
        for (uint64_t k = 0; k < 16 && row + k < len; k++) {
            uint8_t b;
            if (mem_read(c->mem, addr + row + k, &b, 1)) {
                fprintf(s->out, " %02x", b);
                ascii[k] = isprint(b) ? (char)b : '.';
            } else {
                fprintf(s->out, " ??");
                ascii[k] = ' ';
            }
        }
        fprintf(s->out, "  %s\n", ascii);
    }
}

static bool need_timing(shell_t *s, const char *what)
{
    if (s->t->timing) return true;
    fprintf(s->out, "no %s on the functional core (run with --config inorder5, ev5 or r10k)\n",
            what);
    return false;
}

static void cmd_pipe(shell_t *s, uint64_t n)
{
    if (!need_timing(s, "pipeline")) return;
    pv_insn_t rows[TIMING_RECENT];
    if (n > TIMING_RECENT) n = TIMING_RECENT;
    size_t got = timing_recent(s->t->timing, rows, (size_t)n);
    if (!got) fprintf(s->out, "nothing has executed yet\n");
    pipeview_print_diagram(s->out, rows, got, "use 'pipe N' with a smaller N");
}

/* The pipeline's counts so far: the cpu.* ones that are not zero, or
 * with `all` every statistic of the timing model. */
static void cmd_stats(shell_t *s, bool all)
{
    const cpu_t *c = s->t->cpu;
    fprintf(s->out, "%-40s %12" PRIu64 "\n", "instructions", c->instret);
    if (!s->t->timing) return;
    stats_t st = {0};
    timing_stats(s->t->timing, c, &st);
    for (size_t k = 0; k < st.count; k++) {
        const stat_entry_t *e = &st.entries[k];
        if (!all && (strncmp(e->name, "cpu.", 4) || (e->is_int ? !e->ivalue : !e->fvalue)))
            continue;
        if (e->is_int) fprintf(s->out, "%-40s %12" PRIu64 "\n", e->name, e->ivalue);
        else fprintf(s->out, "%-40s %12.6f\n", e->name, e->fvalue);
    }
    stats_free(&st);
}

/* ---- caches, TLBs and the branch predictor ------------------------------- */

static const char *const cache_names[] = { "l1i", "l1d", "l2" };
static const char *const tlb_names[] = { "itlb", "dtlb" };
static const char *const repl_names[] = { "LRU", "random", "round-robin" };

static double percent(uint64_t part, uint64_t whole)
{
    return whole ? 100.0 * (double)part / (double)whole : 0.0;
}

static void print_cache_line(shell_t *s, const cache_t *c)
{
    cache_info_t i;
    cache_info(c, &i);
    fprintf(s->out, "%-5s %" PRIu64 " KiB, %" PRIu64 " sets, %u-way, %u-byte lines, %s, "
            "hit latency %u, %u MSHRs\n      %" PRIu64 " accesses, %" PRIu64 " hits, %" PRIu64
            " misses (%.2f%%)\n", i.name, i.size / 1024, i.sets, i.assoc, i.line,
            repl_names[i.repl % 3], i.hit_latency, i.mshrs, i.accesses, i.hits, i.misses,
            percent(i.misses, i.accesses));
}

static void print_tlb_line(shell_t *s, const tlb_t *t)
{
    tlb_info_t i;
    tlb_info(t, &i);
    fprintf(s->out, "%-5s %u entries, %u-way, %u-byte pages, miss penalty %u\n      %" PRIu64
            " accesses, %" PRIu64 " misses (%.2f%%)\n", i.name, i.entries, i.assoc,
            i.page_size, i.miss_penalty, i.accesses, i.misses, percent(i.misses, i.accesses));
}

/* cache NAME ADDR: the set ADDR maps to, and which way holds its line. */
static void cache_lookup(shell_t *s, const cache_t *c, uint64_t addr)
{
    cache_info_t i;
    cache_info(c, &i);
    cache_way_info_t ways[64];
    uint64_t set = cache_set_of(c, addr), line = addr & ~(uint64_t)(i.line - 1);
    unsigned n = cache_set_ways(c, set, ways, 64);
    int way = -1;
    for (unsigned k = 0; k < n && k < 64; k++)
        if (ways[k].valid && ways[k].line_addr == line) way = (int)k;
    fprintf(s->out, "%s: 0x%" PRIx64 " is in line 0x%" PRIx64 ", set %" PRIu64 ": ", i.name, addr,
            line, set);
    if (way < 0) fprintf(s->out, "not present\n");
    else fprintf(s->out, "present in way %d%s\n", way, ways[way].dirty ? " (dirty)" : "");
    for (unsigned k = 0; k < n && k < 64; k++) {
        fprintf(s->out, "  way %-2u ", k);
        if (!ways[k].valid) fprintf(s->out, "empty\n");
        else fprintf(s->out, "line 0x%016" PRIx64 "%s  ready at cycle %" PRIu64 "\n",
                     ways[k].line_addr, ways[k].dirty ? " dirty" : "      ", ways[k].ready);
    }
}

/* cache [NAME [ADDR]] */
static void cmd_cache(shell_t *s, const char *name, const char *where)
{
    if (!need_timing(s, "caches")) return;
    const timing_t *t = s->t->timing;
    if (!name) {
        for (size_t k = 0; k < 3; k++)
            if (timing_cache(t, cache_names[k]))
                print_cache_line(s, timing_cache(t, cache_names[k]));
        for (size_t k = 0; k < 2; k++)
            if (timing_tlb(t, tlb_names[k])) print_tlb_line(s, timing_tlb(t, tlb_names[k]));
        return;
    }
    const cache_t *c = timing_cache(t, name);
    const tlb_t *tlb = timing_tlb(t, name);
    uint64_t addr;
    if (!c && !tlb) {
        fprintf(s->out, "cache: no cache or TLB '%s' (l1i, l1d, l2, itlb, dtlb)\n", name);
    } else if (!where) {
        if (c) print_cache_line(s, c);
        else print_tlb_line(s, tlb);
    } else if (!parse_address(s, where, &addr)) {
        fprintf(s->out, "cache: expected 'cache %s ADDR', got '%s'\n", name, where);
    } else if (c) {
        cache_lookup(s, c, addr);
    } else {
        fprintf(s->out, "%s: the page of 0x%" PRIx64 " is %s\n", name, addr,
                tlb_contains(tlb, addr) ? "present" : "not present");
    }
}

static void print_bpred_config(shell_t *s, const bpred_config_t *c)
{
    static const char *const kinds[] = { "static not-taken", "bimodal", "gshare", "tournament" };
    fprintf(s->out, "branch predictor: %s", kinds[c->kind % 4]);
    if (c->kind == BP_BIMODAL) fprintf(s->out, ", %u 2-bit counters", c->bimodal_entries);
    if (c->kind == BP_GSHARE)
        fprintf(s->out, ", %u 2-bit counters, %u-bit global history", c->gshare_entries,
                c->history_bits);
    if (c->kind == BP_TOURNAMENT)
        fprintf(s->out, ": local %u histories of %u bits -> 3-bit counters, global %u-bit "
                "history -> 2-bit counters, %u choice counters", c->local_history_entries,
                c->local_history_bits, c->history_bits, c->choice_entries);
    fprintf(s->out, "; BTB %u entries %u-way; RAS %u\n", c->btb_entries, c->btb_assoc,
            c->ras_entries);
}

static void print_bpred_accuracy(shell_t *s, const bpred_t *b)
{
    const char *name;
    uint64_t n, ok, all = 0, all_ok = 0;
    for (unsigned k = 0; bpred_accuracy(b, k, &name, &n, &ok); k++) {
        fprintf(s->out, "  %-9s %10" PRIu64 " predictions %10" PRIu64 " correct (%.2f%%)\n",
                name, n, ok, percent(ok, n));
        all += n;
        all_ok += ok;
    }
    fprintf(s->out, "  %-9s %10" PRIu64 " predictions %10" PRIu64 " correct (%.2f%%)\n", "all",
            all, all_ok, percent(all_ok, all));
}

/* bp PC: what the predictor holds for the control instruction at pc. */
static void print_bpred_probe(shell_t *s, const bpred_t *b, uint64_t pc)
{
    const bpred_config_t *c = bpred_config(b);
    bpred_probe_t p;
    bpred_probe(b, pc, &p);
    fprintf(s->out, "at ");
    print_insn_at(s, pc);
    static const char *const states[] = { "strongly not taken", "weakly not taken",
                                          "weakly taken", "strongly taken" };
    if (c->kind == BP_BIMODAL || c->kind == BP_GSHARE)
        fprintf(s->out, "  counter[%u] = %u (%s)%s\n", p.index, p.counter, states[p.counter & 3],
                c->kind == BP_GSHARE ? ", indexed by pc hash ^ global history" : "");
    if (c->kind == BP_GSHARE || c->kind == BP_TOURNAMENT)
        fprintf(s->out, "  global history 0x%x\n", p.history);
    if (c->kind == BP_TOURNAMENT)
        fprintf(s->out, "  local history[%u] = 0x%x -> local counter %u (%s); global counter[%u] "
                "= %u (%s); chooser %u picks %s\n", p.local_index, p.local_history,
                p.local_counter, p.local_counter >= 4 ? "taken" : "not taken", p.index, p.counter,
                p.counter >= 2 ? "taken" : "not taken", p.choice,
                p.choice >= 2 ? "global" : "local");
    fprintf(s->out, "  a conditional branch here is predicted %s\n",
            p.taken ? "taken" : "not taken");
    if (p.btb_hit) {
        fprintf(s->out, "  BTB set %u way %u: target ", p.btb_set, p.btb_way);
        print_where(s, p.btb_target);
        fputc('\n', s->out);
    } else {
        fprintf(s->out, "  BTB set %u: no entry\n", p.btb_set);
    }
    fprintf(s->out, "  return-address stack: %u deep", p.ras_depth);
    if (p.ras_depth) {
        fprintf(s->out, ", top ");
        print_where(s, p.ras_top);
    }
    fputc('\n', s->out);
}

/* bp [PC] */
static void cmd_bp(shell_t *s, const char *arg)
{
    if (!need_timing(s, "branch predictor")) return;
    const bpred_t *b = timing_bpred(s->t->timing);
    uint64_t pc;
    if (arg && !parse_address(s, arg, &pc)) {
        fprintf(s->out, "bp: expected 'bp [PC]', got '%s'\n", arg);
    } else if (arg) {
        print_bpred_probe(s, b, pc);
    } else {
        print_bpred_config(s, bpred_config(b));
        print_bpred_accuracy(s, b);
    }
}

/* The DISE tables, counters and flags, and the DISE registers. */
static void cmd_dise(shell_t *s)
{
    if (!s->t->dise) {
        fprintf(s->out, "no DISE engine in this run (give an ACF with --acf FILE)\n");
        return;
    }
    dise_print_tables(s->out, s->t->dise);
    fprintf(s->out, "DISE registers:\n");
    for (unsigned k = 0; k < 16; k++)
        fprintf(s->out, "%-5s 0x%016" PRIx64 "%s", s->t->cpu->isa->reg_name(REG_DISE0 + k),
                cpu_get(s->t->cpu, REG_DISE0 + k), k % 4 == 3 ? "\n" : "  ");
}

/* ---- breakpoints and watchpoints ------------------------------------------- */

static point_t *add_point(shell_t *s, const char *cmd)
{
    if (s->npoints == MAX_POINTS) {
        fprintf(s->out, "%s: at most %d breakpoints and watchpoints\n", cmd, MAX_POINTS);
        return NULL;
    }
    point_t *p = &s->points[s->npoints++];
    memset(p, 0, sizeof *p);
    p->id = ++s->next_id;
    return p;
}

static void cmd_break(shell_t *s, const char *arg)
{
    uint64_t addr;
    if (!arg || !parse_address(s, arg, &addr)) {
        fprintf(s->out, "break: expected an address or symbol[+offset], got '%s'\n",
                arg ? arg : "");
        return;
    }
    point_t *p = add_point(s, "break");
    if (!p) return;
    p->kind = PT_BREAK;
    p->addr = addr;
    fprintf(s->out, "breakpoint %u at ", p->id);
    print_where(s, addr);
    fputc('\n', s->out);
}

static void cmd_watch(shell_t *s, char *arg)
{
    uint64_t addr;
    unsigned size;
    if (!arg || !parse_sized(s, arg, &addr, &size)) {
        fprintf(s->out, "watch: expected 'watch ADDR[:SIZE]' (SIZE 1, 2, 4 or 8)\n");
        return;
    }
    point_t *p = add_point(s, "watch");
    if (!p) return;
    p->kind = PT_WATCH;
    p->addr = addr;
    p->size = size;
    p->mapped = read_value(s, addr, size, &p->value);
    fprintf(s->out, "watchpoint %u at 0x%016" PRIx64 ":%u, now ", p->id, addr, size);
    print_value_or_unmapped(s, p->mapped, p->value);
    fputc('\n', s->out);
}

static void cmd_delete(shell_t *s, const char *arg)
{
    uint64_t n;
    if (!arg) {
        s->npoints = 0;
        fprintf(s->out, "all breakpoints and watchpoints deleted\n");
        return;
    }
    for (size_t k = 0; parse_count(arg, &n) && k < s->npoints; k++) {
        if (s->points[k].id != n) continue;
        memmove(&s->points[k], &s->points[k + 1], (s->npoints - k - 1) * sizeof s->points[0]);
        s->npoints--;
        return;
    }
    fprintf(s->out, "delete: no breakpoint or watchpoint '%s'\n", arg);
}

static void cmd_points(shell_t *s, point_kind_t kind)
{
    if (!count_points(s, kind))
        fprintf(s->out, "no %s\n", kind == PT_BREAK ? "breakpoints" : "watchpoints");
    for (size_t k = 0; k < s->npoints; k++) {
        const point_t *p = &s->points[k];
        if (p->kind != kind) continue;
        fprintf(s->out, "%u  ", p->id);
        if (kind == PT_BREAK) {
            print_where(s, p->addr);
        } else {
            fprintf(s->out, "0x%016" PRIx64 ":%u, last seen ", p->addr, p->size);
            print_value_or_unmapped(s, p->mapped, p->value);
        }
        fputc('\n', s->out);
    }
}

static void cmd_help(shell_t *s)
{
    fprintf(s->out,
        "  (Enter)             repeat the last step, run or back (at first, step)\n"
        "  step [N], s [N]     execute N instructions (1), showing each\n"
        "  run N               execute N instructions, stopping at breakpoints and\n"
        "                      watchpoints\n"
        "  continue, c         run to the end or the next breakpoint or watchpoint\n"
        "  until [pc] ADDR     run until the pc is ADDR\n"
        "  until reg NAME OP VALUE\n"
        "  until mem ADDR[:SIZE] OP VALUE\n"
        "                      run until the register, or the SIZE bytes (1, 2, 4, 8;\n"
        "                      8) at ADDR, compare with VALUE by OP: == != < <= > >=\n"
        "                      (unsigned; signed if VALUE is negative), e.g.\n"
        "                      until reg a0 == 0x10, until mem sp+8:4 != 0.  ADDR is\n"
        "                      taken when the command is given.  Each until runs at\n"
        "                      least one instruction and stops at breakpoints too\n"
        "  back [N]            go back N instructions (1), by replaying the run\n"
        "  goto N              go to instruction number N (forwards or back)\n"
        "  restart             back to the first instruction\n"
        "  break ADDR, b ADDR  breakpoint at ADDR (0x..., symbol or symbol+off)\n"
        "  watch ADDR[:SIZE]   watchpoint on SIZE bytes (1, 2, 4, 8; 8) at ADDR: stop\n"
        "                      after an instruction changes them, showing old and new\n"
        "                      value and the instruction\n"
        "  breaks, watches     list breakpoints, watchpoints (one numbering for both)\n"
        "  delete [K]          delete breakpoint or watchpoint K (all)\n"
        "  reg [NAME]          integer registers (or one, by name or x5/r5/f5)\n"
        "  freg [NAME]         floating-point registers, in hex and as doubles (RISC-V\n"
        "                      NaN-boxed singles also as floats)\n"
        "  pc, insn            the next instruction\n"
        "  mem ADDR [N], x     N bytes of memory (64) from ADDR\n"
        "  pipe [N]            pipeline diagram of the last N instructions (16)\n"
        "  stats [all]         cycles, CPI and stall cycles so far (all: every\n"
        "                      statistic of the timing model)\n"
        "  cache               caches and TLBs: geometry, hits and misses so far\n"
        "  cache NAME [ADDR]   one of l1i l1d l2 itlb dtlb; with ADDR, whether its line\n"
        "                      (page) is present, and in which set and way\n"
        "  bp [PC]             branch predictor: configuration and accuracy so far; with\n"
        "                      PC, its counters, history, BTB entry and return stack\n"
        "  dise                with --acf: the pattern, conditional and replacement\n"
        "                      tables, HPS counters and flags, DISE registers\n"
        "  help, h             this list\n"
        "  quit, q             leave (the status is the program's, if it ended)\n"
        "ADDR is 0x..., decimal, or a symbol, register or pc with an optional +off or\n"
        "-off (main, main+0x10, sp+16, pc+4).  Tab completes commands, registers and\n"
        "symbols.  Ctrl-C stops a long run.\n");
}

/* ---- the command loop ------------------------------------------------------ */

static uint64_t count_arg(shell_t *s, const char *arg, uint64_t dflt, bool *ok)
{
    uint64_t n = dflt;
    *ok = !arg || parse_count(arg, &n);
    if (!*ok) fprintf(s->out, "expected a count, got '%s'\n", arg);
    return n;
}

static void cmd_back(shell_t *s, const char *arg, bool absolute)
{
    bool ok;
    uint64_t n = count_arg(s, arg, absolute ? 0 : 1, &ok);
    if (!ok) return;
    uint64_t now = s->t->cpu->instret;
    uint64_t to = absolute ? n : (n > now ? 0 : now - n);
    if (s->finished || to < now) {
        go_to(s, to);
        return;
    }
    run_until(s, to, false, NULL);
    if (!s->finished) print_next(s);
}

static bool is(const char *cmd, const char *name, const char *alias)
{
    return !strcmp(cmd, name) || (alias && !strcmp(cmd, alias));
}

/* Execute one command line; false to leave. */
static bool execute(shell_t *s, char *line)
{
    char rest[256];                     /* what follows the command word */
    const char *start = line + strspn(line, " \t");
    snprintf(rest, sizeof rest, "%s", start + strcspn(start, " \t"));
    char *save = NULL;
    char *cmd = strtok_r(line, " \t\n", &save);
    char *arg = strtok_r(NULL, " \t\n", &save);
    char *arg2 = strtok_r(NULL, " \t\n", &save);
    bool ok;
    uint64_t addr, n;
    if (!cmd || is(cmd, "step", "s")) {
        n = count_arg(s, arg, 1, &ok);
        if (ok) cmd_step(s, n);
    } else if (is(cmd, "run", "r")) {
        n = count_arg(s, arg, 0, &ok);
        if (!arg) fprintf(s->out, "run: expected a count (or 'continue')\n");
        else if (ok) cmd_run(s, n, false);
    } else if (is(cmd, "continue", "c")) {
        cmd_run(s, 0, true);
    } else if (is(cmd, "until", "u")) {
        cmd_until(s, rest);
    } else if (is(cmd, "back", NULL)) {
        cmd_back(s, arg, false);
    } else if (is(cmd, "goto", NULL)) {
        if (!arg) fprintf(s->out, "goto: expected an instruction number\n");
        else cmd_back(s, arg, true);
    } else if (is(cmd, "restart", NULL)) {
        go_to(s, 0);
    } else if (is(cmd, "break", "b")) {
        cmd_break(s, arg);
    } else if (is(cmd, "watch", "w")) {
        cmd_watch(s, arg);
    } else if (is(cmd, "delete", "d")) {
        cmd_delete(s, arg);
    } else if (is(cmd, "breaks", NULL) || (!strcmp(cmd, "info") && arg && arg[0] == 'b')) {
        cmd_points(s, PT_BREAK);
    } else if (is(cmd, "watches", NULL) || (!strcmp(cmd, "info") && arg && arg[0] == 'w')) {
        cmd_points(s, PT_WATCH);
    } else if (is(cmd, "reg", "regs")) {
        cmd_regs(s, REG_INT0, arg);
    } else if (is(cmd, "freg", "fregs")) {
        cmd_regs(s, REG_FP0, arg);
    } else if (is(cmd, "pc", "insn")) {
        print_next(s);
    } else if (is(cmd, "mem", "x")) {
        n = count_arg(s, arg2, 64, &ok);
        if (!arg || !parse_address(s, arg, &addr))
            fprintf(s->out, "mem: expected 'mem ADDR [N]'\n");
        else if (ok) cmd_mem(s, addr, n);
    } else if (is(cmd, "pipe", NULL)) {
        n = count_arg(s, arg, 16, &ok);
        if (ok) cmd_pipe(s, n);
    } else if (is(cmd, "stats", NULL)) {
        cmd_stats(s, arg && !strcmp(arg, "all"));
    } else if (is(cmd, "cache", "caches")) {
        cmd_cache(s, arg, arg2);
    } else if (is(cmd, "bp", "bpred")) {
        cmd_bp(s, arg);
    } else if (is(cmd, "dise", NULL)) {
        cmd_dise(s);
    } else if (is(cmd, "help", "h") || !strcmp(cmd, "?")) {
        cmd_help(s);
    } else if (is(cmd, "quit", "q") || !strcmp(cmd, "exit")) {
        return false;
    } else {
        fprintf(s->out, "unknown command '%s' (help lists them)\n", cmd);
    }
    return true;
}

/* Enter repeats commands that move through the program, as in gdb. */
static bool repeatable(const char *line)
{
    static const char *const moves[] = { "s", "step", "run", "r", "back" };
    size_t len = strcspn(line, " \t");
    for (size_t k = 0; k < sizeof moves / sizeof moves[0]; k++)
        if (strlen(moves[k]) == len && !strncmp(moves[k], line, len)) return true;
    return false;
}

/* ---- completion (readline) -------------------------------------------------- */

static const char *const command_names[] = {
    "back", "bp", "break", "breaks", "cache", "continue", "delete", "dise", "freg", "goto",
    "help", "insn", "mem", "pc", "pipe", "quit", "reg", "restart", "run", "stats", "step",
    "until", "watch", "watches", NULL
};
/* Words that follow some commands: until's, stats', cache's. */
static const char *const argument_words[] = {
    "pc", "reg", "mem", "all", "l1i", "l1d", "l2", "itlb", "dtlb", NULL
};

static const shell_t *completing;       /* whose registers and symbols */

static char *command_generator(const char *text, int state)
{
    static size_t k, len;
    if (!state) {
        k = 0;
        len = strlen(text);
    }
    while (command_names[k]) {
        const char *name = command_names[k++];
        if (!strncmp(name, text, len)) return strdup(name);
    }
    return NULL;
}

/* The registers (by the ISA's names), the words above, then the symbols. */
static char *argument_generator(const char *text, int state)
{
    static size_t k, len;
    enum { NREGS = 64, NWORDS = sizeof argument_words / sizeof argument_words[0] - 1 };
    if (!state) {
        k = 0;
        len = strlen(text);
    }
    const symtab_t *st = completing->t->symtab;
    size_t nsyms = st ? st->count : 0;
    while (k < NREGS + NWORDS + nsyms) {
        size_t i = k++;
        const char *name = i < NREGS ? completing->t->cpu->isa->reg_name((unsigned)i)
                         : i < NREGS + NWORDS ? argument_words[i - NREGS]
                         : st->syms[i - NREGS - NWORDS].name;
        if (!strncmp(name, text, len)) return strdup(name);
    }
    return NULL;
}

/* Commands at the start of the line, names after it; never file names. */
static char **complete(const char *text, int start, int end)
{
    (void)end;
    rl_attempted_completion_over = 1;
    bool first = strspn(rl_line_buffer, " \t") >= (size_t)start;
    return rl_completion_matches(text, first ? command_generator : argument_generator);
}

static void readline_setup(const shell_t *s)
{
    completing = s;
    rl_readline_name = "hps-sim";
    rl_attempted_completion_function = complete;
    rl_change_environment = 0;          /* LINES and COLUMNS stay out of environ */
}

/* The next command line (without its newline), or NULL at end of input.
 * An empty line repeats the last command. */
static char *next_line(shell_t *s, char *buf, size_t len)
{
    fflush(s->out);
    if (s->use_readline) {
        char *line = readline("(hps) ");
        if (!line) return NULL;
        if (*line) add_history(line);
        snprintf(buf, len, "%s", line);
        free(line);
    } else {
        if (!fgets(buf, (int)len, s->in)) return NULL;
        buf[strcspn(buf, "\n")] = 0;
    }
    if (!buf[strspn(buf, " \t")]) snprintf(buf, len, "%s", s->last);
    else if (repeatable(buf)) snprintf(s->last, sizeof s->last, "%s", buf);
    return buf;
}

int shell_run(shell_target_t *t, FILE *in, FILE *out)
{
    shell_t s = { .t = t, .in = in, .out = out, .output_on = true, .last = "step" };
    s.use_readline = in == stdin && isatty(fileno(in));
    if (s.use_readline) readline_setup(&s);
    struct sigaction sa = { .sa_handler = on_sigint }, old;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    fprintf(out, "hps-sim interactive: %s on %s%s; 'help' lists the commands\n",
            t->cpu->isa->name, t->timing ? "a timing model" : "the functional core",
            t->dise ? " with DISE" : "");
    print_next(&s);
    char line[256];
    while (next_line(&s, line, sizeof line)) {
        interrupted = 0;
        if (!execute(&s, line)) break;
    }
    sigaction(SIGINT, &old, NULL);
    fflush(out);
    return s.status;
}
