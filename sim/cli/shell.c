/*
 * shell.c - the interactive teaching shell (see shell.h): a command loop
 * over a stopped guest.  Execution always goes through the same run loops
 * as a batch run (engine_run) with an absolute instruction limit,
 * so stepping one instruction at a time gives exactly the cycles of an
 * uninterrupted run.  Going back replays from the start with the guest's
 * output off; output the user has already seen is not written twice.
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

#include "disasm.h"
#include "engine.h"
#include "isa.h"
#include "mem.h"
#include "pipeview.h"
#include "shell.h"
#include "stats.h"
#include "symtab.h"
#include "timing.h"

#define MAX_BREAKPOINTS 32
#define RUN_CHUNK 1000000u              /* instructions between Ctrl-C checks */
#define STEP_ECHO_LIMIT 1000u           /* a longer step is summarised       */

typedef struct shell {
    shell_target_t *t;
    FILE *in, *out;
    bool use_readline;
    uint64_t bp[MAX_BREAKPOINTS];
    size_t nbp;
    uint64_t shown_upto;                /* the guest's output is shown from here */
    bool output_on;
    bool finished;                      /* the program exited or faulted      */
    int status;                         /* hps-sim's exit status so far       */
    char last[256];                     /* the command Enter repeats          */
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

static int register_named(const isa_t *isa, const char *name, size_t len);

/* A number (0x.. or decimal), or SYMBOL or REGISTER with an optional
 * +OFFSET: 0x10552, main+0x10, sp+16. */
static bool parse_address(const shell_t *s, const char *text, uint64_t *addr)
{
    char *end;
    errno = 0;
    if (isdigit((unsigned char)text[0])) {
        *addr = strtoull(text, &end, 0);
        return !errno && !*end;
    }
    const char *plus = strchr(text, '+');
    size_t len = plus ? (size_t)(plus - text) : strlen(text);
    const symbol_t *sym = symbol_named(s->t->symtab, text, len);
    int reg = sym ? -1 : register_named(s->t->cpu->isa, text, len);
    if (!sym && reg < 0) return false;
    uint64_t off = 0;
    if (plus) {
        off = strtoull(plus + 1, &end, 0);
        if (errno || *end || end == plus + 1) return false;
    }
    *addr = (sym ? sym->addr : cpu_get(s->t->cpu, (unsigned)reg)) + off;
    return true;
}

static bool parse_count(const char *text, uint64_t *n)
{
    char *end;
    errno = 0;
    if (!text || !isdigit((unsigned char)text[0])) return false;
    *n = strtoull(text, &end, 0);
    return !errno && !*end;
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

static void print_next(const shell_t *s)
{
    insn_t in;
    char text[96];
    peek_insn(s, s->t->cpu->pc, &in, text, sizeof text);
    fprintf(s->out, "next: ");
    print_where(s, s->t->cpu->pc);
    fprintf(s->out, "  %s\n", text);
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

/* ---- running ------------------------------------------------------------ */

static void set_output(shell_t *s, bool on)
{
    if (s->output_on == on) return;
    s->output_on = on;
    if (s->t->output) s->t->output(s->t->ctx, on);
}

static bool at_breakpoint(const shell_t *s, uint64_t pc)
{
    for (size_t k = 0; k < s->nbp; k++)
        if (s->bp[k] == pc) return true;
    return false;
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

/* Run until instret reaches `to`, the program ends, Ctrl-C, or (with
 * stop_at_breaks) the next pc is a breakpoint.  The guest's output stays
 * off while replaying what the user has already seen. */
static void run_until(shell_t *s, uint64_t to, bool stop_at_breaks)
{
    cpu_t *c = s->t->cpu;
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
        bool checking = stop_at_breaks && s->nbp;
        if (checking) end = c->instret + 1;
        else if (end - c->instret > RUN_CHUNK) end = c->instret + RUN_CHUNK;
        if (advance(s, end) != STOP_MAX_INSTS) {
            set_output(s, true);
            program_stopped(s);
            break;
        }
        if (c->instret > s->shown_upto && s->output_on) s->shown_upto = c->instret;
        if (checking && at_breakpoint(s, c->pc)) {
            fprintf(s->out, "breakpoint at ");
            print_where(s, c->pc);
            fputc('\n', s->out);
            break;
        }
    }
    if (c->instret >= s->shown_upto) set_output(s, true);
    if (c->instret > s->shown_upto) s->shown_upto = c->instret;
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
        run_until(s, quiet ? to - STEP_ECHO_LIMIT : seq + 1, false);
        if (interrupted) break;
        if (!quiet && c->instret == seq + 1) print_executed(s, seq, pc, &in, text);
    }
    if (!s->finished) print_next(s);
}

static void cmd_run(shell_t *s, uint64_t n, bool to_end)
{
    if (!check_running(s)) return;
    cpu_t *c = s->t->cpu;
    run_until(s, to_end ? UINT64_MAX : c->instret + n, true);
    if (!s->finished) print_next(s);
}

static void cmd_until(shell_t *s, uint64_t target)
{
    if (!check_running(s)) return;
    cpu_t *c = s->t->cpu;
    do {
        run_until(s, c->instret + 1, false);
    } while (!s->finished && !interrupted && c->pc != target && !at_breakpoint(s, c->pc));
    if (!s->finished) print_next(s);
}

/* Back to instruction number `to`: replay from the start, output off. */
static void go_to(shell_t *s, uint64_t to)
{
    if (!s->t->restart) {
        fprintf(s->out, "this target cannot restart\n");
        return;
    }
    s->t->restart(s->t->ctx, &s->t->cpu, &s->t->timing, &s->t->engine);
    s->output_on = false;
    if (s->t->output) s->t->output(s->t->ctx, false);
    s->finished = false;
    s->status = 0;
    run_until(s, to, false);
    if (!s->finished) print_next(s);
}

/* ---- looking at state ----------------------------------------------------- */

static void cmd_regs(shell_t *s, unsigned first, const char *only)
{
    const cpu_t *c = s->t->cpu;
    if (only) {
        int r = register_named(c->isa, only, strlen(only));
        if (r < 0) {
            fprintf(s->out, "unknown register '%s'\n", only);
            return;
        }
        fprintf(s->out, "%s = 0x%016" PRIx64 " (%" PRId64 ")\n", c->isa->reg_name((unsigned)r),
                cpu_get(c, (unsigned)r), (int64_t)cpu_get(c, (unsigned)r));
        return;
    }
    for (unsigned r = first; r < first + 32; r++) {
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

static void cmd_pipe(shell_t *s, uint64_t n)
{
    if (!s->t->timing) {
        fprintf(s->out, "no pipeline on the functional core (run with --config inorder5, "
                        "ev5 or r10k)\n");
        return;
    }
    pv_insn_t rows[TIMING_RECENT];
    if (n > TIMING_RECENT) n = TIMING_RECENT;
    size_t got = timing_recent(s->t->timing, rows, (size_t)n);
    if (!got) fprintf(s->out, "nothing has executed yet\n");
    pipeview_print_diagram(s->out, rows, got);
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

static void cmd_break(shell_t *s, const char *arg)
{
    uint64_t addr;
    if (!arg || !parse_address(s, arg, &addr)) {
        fprintf(s->out, "break: expected an address or symbol[+offset], got '%s'\n",
                arg ? arg : "");
        return;
    }
    if (s->nbp == MAX_BREAKPOINTS) {
        fprintf(s->out, "break: at most %d breakpoints\n", MAX_BREAKPOINTS);
        return;
    }
    s->bp[s->nbp++] = addr;
    fprintf(s->out, "breakpoint %zu at ", s->nbp);
    print_where(s, addr);
    fputc('\n', s->out);
}

static void cmd_delete(shell_t *s, const char *arg)
{
    uint64_t n;
    if (!arg) {
        s->nbp = 0;
        fprintf(s->out, "all breakpoints deleted\n");
    } else if (parse_count(arg, &n) && n >= 1 && n <= s->nbp) {
        memmove(&s->bp[n - 1], &s->bp[n], (s->nbp - n) * sizeof s->bp[0]);
        s->nbp--;
    } else {
        fprintf(s->out, "delete: no breakpoint '%s'\n", arg);
    }
}

static void cmd_breaks(shell_t *s)
{
    if (!s->nbp) fprintf(s->out, "no breakpoints\n");
    for (size_t k = 0; k < s->nbp; k++) {
        fprintf(s->out, "%zu  ", k + 1);
        print_where(s, s->bp[k]);
        fputc('\n', s->out);
    }
}

static void cmd_help(shell_t *s)
{
    fprintf(s->out,
        "  (Enter)             repeat the last step, run or back (at first, step)\n"
        "  step [N], s [N]     execute N instructions (1), showing each\n"
        "  run N               execute N instructions, stopping at breakpoints\n"
        "  continue, c         run to the end or the next breakpoint\n"
        "  until pc ADDR       run until the pc is ADDR\n"
        "  back [N]            go back N instructions (1), by replaying the run\n"
        "  goto N              go to instruction number N (forwards or back)\n"
        "  restart             back to the first instruction\n"
        "  break ADDR, b ADDR  breakpoint at ADDR (0x..., symbol or symbol+off)\n"
        "  delete [K]          delete breakpoint K (all)\n"
        "  breaks              list breakpoints\n"
        "  reg [NAME]          integer registers (or one, by name or x5/r5/f5)\n"
        "  freg                floating-point registers\n"
        "  pc, insn            the next instruction\n"
        "  mem ADDR [N], x     N bytes of memory (64) from ADDR\n"
        "  pipe [N]            pipeline diagram of the last N instructions (16)\n"
        "  stats [all]         cycles, CPI and stall cycles so far (all: every\n"
        "                      statistic of the timing model)\n"
        "  help, h             this list\n"
        "  quit, q             leave (the status is the program's, if it ended)\n"
        "ADDR is 0x..., decimal, or a symbol or register with an optional +offset\n"
        "(main, main+0x10, sp+16).  Ctrl-C stops a long run.\n");
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
    run_until(s, to, false);
    if (!s->finished) print_next(s);
}

/* Execute one command line; false to leave. */
static bool execute(shell_t *s, char *line)
{
    char *save = NULL;
    char *cmd = strtok_r(line, " \t\n", &save);
    char *arg = strtok_r(NULL, " \t\n", &save);
    char *arg2 = strtok_r(NULL, " \t\n", &save);
    bool ok;
    uint64_t addr, n;
    if (!cmd || !strcmp(cmd, "s") || !strcmp(cmd, "step")) {
        n = count_arg(s, arg, 1, &ok);
        if (ok) cmd_step(s, n);
    } else if (!strcmp(cmd, "run") || !strcmp(cmd, "r")) {
        n = count_arg(s, arg, 0, &ok);
        if (!arg) fprintf(s->out, "run: expected a count (or 'continue')\n");
        else if (ok) cmd_run(s, n, false);
    } else if (!strcmp(cmd, "continue") || !strcmp(cmd, "c")) {
        cmd_run(s, 0, true);
    } else if (!strcmp(cmd, "until")) {
        const char *where = arg && !strcmp(arg, "pc") ? arg2 : arg;
        if (!where || !parse_address(s, where, &addr))
            fprintf(s->out, "until: expected 'until pc ADDR'\n");
        else cmd_until(s, addr);
    } else if (!strcmp(cmd, "back")) {
        cmd_back(s, arg, false);
    } else if (!strcmp(cmd, "goto")) {
        if (!arg) fprintf(s->out, "goto: expected an instruction number\n");
        else cmd_back(s, arg, true);
    } else if (!strcmp(cmd, "restart")) {
        go_to(s, 0);
    } else if (!strcmp(cmd, "break") || !strcmp(cmd, "b")) {
        cmd_break(s, arg);
    } else if (!strcmp(cmd, "delete") || !strcmp(cmd, "d")) {
        cmd_delete(s, arg);
    } else if (!strcmp(cmd, "breaks") || (!strcmp(cmd, "info") && arg && arg[0] == 'b')) {
        cmd_breaks(s);
    } else if (!strcmp(cmd, "reg") || !strcmp(cmd, "regs")) {
        cmd_regs(s, REG_INT0, arg);
    } else if (!strcmp(cmd, "freg") || !strcmp(cmd, "fregs")) {
        cmd_regs(s, REG_FP0, arg);
    } else if (!strcmp(cmd, "pc") || !strcmp(cmd, "insn")) {
        print_next(s);
    } else if (!strcmp(cmd, "mem") || !strcmp(cmd, "x")) {
        n = count_arg(s, arg2, 64, &ok);
        if (!arg || !parse_address(s, arg, &addr))
            fprintf(s->out, "mem: expected 'mem ADDR [N]'\n");
        else if (ok) cmd_mem(s, addr, n);
    } else if (!strcmp(cmd, "pipe")) {
        n = count_arg(s, arg, 16, &ok);
        if (ok) cmd_pipe(s, n);
    } else if (!strcmp(cmd, "stats")) {
        cmd_stats(s, arg && !strcmp(arg, "all"));
    } else if (!strcmp(cmd, "help") || !strcmp(cmd, "h") || !strcmp(cmd, "?")) {
        cmd_help(s);
    } else if (!strcmp(cmd, "quit") || !strcmp(cmd, "q") || !strcmp(cmd, "exit")) {
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
    struct sigaction sa = { .sa_handler = on_sigint }, old;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old);
    fprintf(out, "hps-sim interactive: %s on %s; 'help' lists the commands\n",
            t->cpu->isa->name, t->timing ? "a timing model" : "the functional core");
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
