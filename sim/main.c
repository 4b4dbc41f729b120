/*
 * main.c - the hps-sim command line: parse options, load the guest program,
 * run it on the functional core, report how it ended and write statistics.
 *
 *   hps-sim [options] prog [args...]
 *
 * Guest stdin/stdout/stderr pass through and hps-sim exits with the guest's
 * status.  Bad input (options, files) is one line on stderr and status 2;
 * a guest fault is reported with pc, symbol and disassembly and a status of
 * 128 + the signal Linux would have delivered (see core.h).
 */
#include <elf.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "config.h"
#include "core.h"
#include "disasm.h"
#include "isa.h"
#include "loader.h"
#include "mem.h"
#include "runstats.h"
#include "stats.h"
#include "symtab.h"
#include "sys.h"
#include "timing.h"
#include "trace.h"
#include "truth.h"

#define HPS_VERSION "0.1.0"

extern char **environ;

typedef struct options {
    uint64_t max_insts;
    uint64_t seed;
    uint64_t trace_limit;
    const char *stats_path;
    const char *stats_json_path;
    const char *trace_path;
    bool no_truth;
    config_t cfg;
    bool print_config;
    const char *pipeview_path;
    bool pipe_diagram;
    uint64_t view_from, view_count;
    const char *truth_path;
    int guest_argc;
    char **guest_argv;
} options_t;

static _Noreturn void bad_input(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("hps-sim: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(EXIT_BAD_INPUT);
}

static void usage(FILE *out)
{
    fprintf(out,
        "usage: hps-sim [options] prog [args...]\n"
        "Simulate a statically linked RISC-V (RV64GC) Linux program.\n"
        "\n"
        "options:\n"
        "  --max-insts N        stop after N instructions (suffixes k, M, G)\n"
        "  --stats FILE         write gem5-style statistics ('-' = stdout)\n"
        "  --stats-json FILE    write the statistics as JSON ('-' = stdout)\n"
        "  --trace FILE         write an instruction trace ('-' = stderr)\n"
        "  --trace-limit N      instructions to trace (default 100000)\n"
        "  --seed N             seed for getrandom and AT_RANDOM (default 1)\n"
        "  --no-ground-truth    statistics without unique addresses and call\n"
        "                       pairs (runs the faster plain loop)\n"
        "timing:\n"
        "  --config NAME|FILE   preset from configs/ (inorder5, ev5) or a file\n"
        "  --set KEY=VALUE      override one parameter (repeatable)\n"
        "  --print-config       list every parameter with value and description\n"
        "  --pipeview FILE      Kanata log (Konata viewer) of the view window\n"
        "  --pipe-diagram       text pipeline diagram of the view window (stderr)\n"
        "  --view-from N        first instruction of the view window (default 0)\n"
        "  --view-count N       instructions in the view window (default 200)\n"
        "  --ground-truth FILE  per-instruction head-of-queue cycles by stall cause\n"
        "  --help               this text\n"
        "  --version            print the version\n"
        "\n"
        "exit status: the guest's; 2 bad input; 132 illegal instruction;\n"
        "133 breakpoint; 139 memory fault; 159 unsupported system call.\n");
}

/* Strict unsigned parse with optional decimal suffix k/M/G. */
static uint64_t parse_count(const char *opt, const char *text)
{
    char *end = NULL;
    if (!text || !*text || *text == '-' || *text == '+')
        bad_input("%s: expected a non-negative integer, got '%s'", opt, text ? text : "");
    errno = 0;
    unsigned long long v = strtoull(text, &end, 0);
    uint64_t scale = 1;
    if (*end == 'k' || *end == 'K') scale = 1000, end++;
    else if (*end == 'M') scale = 1000000, end++;
    else if (*end == 'G') scale = 1000000000, end++;
    if (errno || end == text || *end || (scale > 1 && v > UINT64_MAX / scale))
        bad_input("%s: expected a non-negative integer, got '%s'", opt, text);
    return (uint64_t)v * scale;
}

enum { OPT_MAX_INSTS = 256, OPT_STATS, OPT_STATS_JSON, OPT_TRACE, OPT_TRACE_LIMIT,
       OPT_SEED, OPT_NO_TRUTH, OPT_CONFIG, OPT_SET, OPT_PRINT_CONFIG, OPT_PIPEVIEW,
       OPT_PIPE_DIAGRAM, OPT_VIEW_FROM, OPT_VIEW_COUNT, OPT_TRUTH_FILE, OPT_HELP, OPT_VERSION };

static void parse_options(int argc, char **argv, options_t *o)
{
    static const struct option longopts[] = {
        { "max-insts",   required_argument, NULL, OPT_MAX_INSTS },
        { "stats",       required_argument, NULL, OPT_STATS },
        { "stats-json",  required_argument, NULL, OPT_STATS_JSON },
        { "trace",       required_argument, NULL, OPT_TRACE },
        { "trace-limit", required_argument, NULL, OPT_TRACE_LIMIT },
        { "seed",        required_argument, NULL, OPT_SEED },
        { "no-ground-truth", no_argument,   NULL, OPT_NO_TRUTH },
        { "config",      required_argument, NULL, OPT_CONFIG },
        { "set",         required_argument, NULL, OPT_SET },
        { "print-config", no_argument,      NULL, OPT_PRINT_CONFIG },
        { "pipeview",    required_argument, NULL, OPT_PIPEVIEW },
        { "pipe-diagram", no_argument,      NULL, OPT_PIPE_DIAGRAM },
        { "view-from",   required_argument, NULL, OPT_VIEW_FROM },
        { "view-count",  required_argument, NULL, OPT_VIEW_COUNT },
        { "ground-truth", required_argument, NULL, OPT_TRUTH_FILE },
        { "help",        no_argument,       NULL, OPT_HELP },
        { "version",     no_argument,       NULL, OPT_VERSION },
        { NULL, 0, NULL, 0 }
    };
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->view_count = 200;
    config_defaults(&o->cfg);
    char err[512];
    o->trace_limit = 100000;
    /* --set values apply after the last --config, whatever their order */
    const char **sets = calloc((size_t)argc, sizeof *sets);
    int nsets = 0;
    if (!sets) bad_input("out of host memory");
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "+:", longopts, NULL)) != -1) {
        switch (ch) {
        case OPT_MAX_INSTS:   o->max_insts = parse_count("--max-insts", optarg); break;
        case OPT_STATS:       o->stats_path = optarg; break;
        case OPT_STATS_JSON:  o->stats_json_path = optarg; break;
        case OPT_TRACE:       o->trace_path = optarg; break;
        case OPT_TRACE_LIMIT: o->trace_limit = parse_count("--trace-limit", optarg); break;
        case OPT_SEED:        o->seed = parse_count("--seed", optarg); break;
        case OPT_NO_TRUTH:    o->no_truth = true; break;
        case OPT_CONFIG:
            if (!config_load(&o->cfg, optarg, err, sizeof err)) bad_input("%s", err);
            break;
        case OPT_SET:         sets[nsets++] = optarg; break;
        case OPT_PRINT_CONFIG: o->print_config = true; break;
        case OPT_PIPEVIEW:    o->pipeview_path = optarg; break;
        case OPT_PIPE_DIAGRAM: o->pipe_diagram = true; break;
        case OPT_VIEW_FROM:   o->view_from = parse_count("--view-from", optarg); break;
        case OPT_VIEW_COUNT:  o->view_count = parse_count("--view-count", optarg); break;
        case OPT_TRUTH_FILE:  o->truth_path = optarg; break;
        case OPT_HELP:        usage(stdout); exit(0);
        case OPT_VERSION:     printf("hps-sim %s\n", HPS_VERSION); exit(0);
        case ':':
            bad_input("option '%s' needs a value (see hps-sim --help)", argv[optind - 1]);
        default:
            bad_input("unknown option '%s' (see hps-sim --help)", argv[optind - 1]);
        }
    }
    for (int k = 0; k < nsets; k++)
        if (!config_set(&o->cfg, sets[k], err, sizeof err)) bad_input("%s", err);
    free(sets);
    if (!config_validate(&o->cfg, err, sizeof err)) bad_input("%s", err);
    if (o->print_config) {
        config_print(&o->cfg, stdout);
        exit(0);
    }
    if ((o->pipeview_path || o->pipe_diagram || o->truth_path) &&
        o->cfg.model == CFG_MODEL_FUNCTIONAL)
        bad_input("--pipeview, --pipe-diagram and --ground-truth need a timing model "
                  "(--config inorder5 or ev5)");
    if (optind >= argc) bad_input("no program given (usage: hps-sim [options] prog [args...])");
    o->guest_argc = argc - optind;
    o->guest_argv = argv + optind;
}

static const isa_t *isa_for_machine(const char *path, int machine)
{
    if (machine == isa_rv64.elf_machine) return &isa_rv64;
    if (machine == EM_ALPHA)
        bad_input("%s: Alpha executables are not supported yet", path);
    bad_input("%s: unsupported machine (ELF e_machine %d); expected RISC-V (%d)",
              path, machine, isa_rv64.elf_machine);
}

static FILE *open_output(const char *path, FILE *dash)
{
    if (!strcmp(path, "-")) return dash;
    FILE *f = fopen(path, "w");
    if (!f) bad_input("%s: cannot write: %s", path, strerror(errno));
    return f;
}

static void close_output(FILE *f)
{
    if (f == stdout || f == stderr) fflush(f);
    else fclose(f);
}

/* ---- fault reports ------------------------------------------------------- */

static void describe_insn(const cpu_t *c, disasm_t *dis, uint64_t pc, char *buf, size_t len)
{
    uint8_t bytes[4] = {0};
    char sym[160], text[96] = "?";
    size_t avail = mem_read(c->mem, pc, bytes, 4) ? 4 : mem_read(c->mem, pc, bytes, 2) ? 2 : 0;
    symtab_format(c->symtab, pc, sym, sizeof sym);
    if (!avail) {
        snprintf(buf, len, "pc 0x%" PRIx64 " (%s): instruction bytes unmapped", pc, sym);
        return;
    }
    int n = dis ? disasm_insn(dis, pc, bytes, avail, text, sizeof text) : 0;
    if (n <= 0) n = (bytes[0] & 3) == 3 ? 4 : 2;
    uint32_t raw = n == 2 ? (uint32_t)(bytes[0] | bytes[1] << 8)
                          : (uint32_t)(bytes[0] | bytes[1] << 8 | bytes[2] << 16 |
                                       (uint32_t)bytes[3] << 24);
    snprintf(buf, len, "pc 0x%" PRIx64 " (%s): %0*" PRIx32 "  %s", pc, sym, n * 2, raw, text);
}

static const char *access_name(int access)
{
    return access == MEM_ACCESS_WRITE ? "store to"
         : access == MEM_ACCESS_FETCH ? "instruction fetch from" : "load from";
}

static int report_stop(const cpu_t *c, disasm_t *dis)
{
    char where[320];
    describe_insn(c, dis, c->stop_pc, where, sizeof where);
    switch (c->stop) {
    case STOP_EXIT:
        return c->exit_code;
    case STOP_MAX_INSTS:
        return 0;
    case STOP_ILLEGAL:
        fprintf(stderr, "hps-sim: illegal instruction at %s\n", where);
        return EXIT_GUEST_ILLEGAL;
    case STOP_BREAKPOINT:
        fprintf(stderr, "hps-sim: breakpoint trap at %s\n", where);
        return EXIT_GUEST_TRAP;
    case STOP_MISALIGNED_FETCH:
        fprintf(stderr, "hps-sim: jump to misaligned address 0x%" PRIx64 " from %s\n",
                c->stop_info, where);
        return EXIT_GUEST_SEGV;
    case STOP_MEM_FAULT: {
        const mem_fault_t *f = &c->mem->fault;
        fprintf(stderr, "hps-sim: memory fault: %s %s address 0x%" PRIx64 " at %s\n",
                access_name(f->access), f->mapped ? "protected" : "unmapped", f->addr, where);
        return EXIT_GUEST_SEGV;
    }
    case STOP_BAD_SYSCALL: {
        const char *name = sys_name(c->sys->abi, c->stop_info);
        fprintf(stderr, "hps-sim: unsupported system call %" PRIu64 " (%s) at %s\n",
                c->stop_info, name ? name : "unknown", where);
        return EXIT_GUEST_SYSCALL;
    }
    case STOP_NONE:
        break;
    }
    fprintf(stderr, "hps-sim: internal error: run stopped for no reason\n");
    return EXIT_INTERNAL;
}

/* ---- the run --------------------------------------------------------------- */

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static void write_stats(const options_t *o, const run_info_t *info)
{
    if (!o->stats_path && !o->stats_json_path) return;
    stats_t st = {0};
    runstats_collect(info, &st);
    if (o->stats_path) {
        FILE *f = open_output(o->stats_path, stdout);
        stats_write_text(&st, f);
        close_output(f);
    }
    if (o->stats_json_path) {
        FILE *f = open_output(o->stats_json_path, stdout);
        stats_write_json(&st, f);
        close_output(f);
    }
    stats_free(&st);
}

int main(int argc, char **argv)
{
    options_t o;
    parse_options(argc, argv, &o);
    const char *path = o.guest_argv[0];
    char err[512];

    int machine = 0;
    if (!loader_probe(path, &machine, err, sizeof err)) bad_input("%s", err);
    const isa_t *isa = isa_for_machine(path, machine);

    mem_t *mem = mem_new();
    image_t img;
    if (!loader_load(path, isa, mem, &img, err, sizeof err)) bad_input("%s", err);
    symtab_t *symtab = symtab_load(path);
    if (symtab) symtab_relocate(symtab, img.load_bias);

    /* Open outputs before running so a bad path loses no simulation. */
    FILE *trace_out = o.trace_path ? open_output(o.trace_path, stderr) : NULL;
    if (o.stats_path && strcmp(o.stats_path, "-")) close_output(open_output(o.stats_path, stdout));
    if (o.stats_json_path && strcmp(o.stats_json_path, "-"))
        close_output(open_output(o.stats_json_path, stdout));

    sys_config_t scfg = { .seed = o.seed, .epoch_sec = 1700000000ull,
                          .insts_per_sec = 1000000000ull, .host_time = false };
    sys_t *sys = sys_new(mem, &sys_abi_rv64, &scfg);
    sys_set_brk(sys, img.brk_start);
    sys_set_exe(sys, path);

    uint8_t random16[16];
    sys_random_bytes(sys, random16, sizeof random16);
    cpu_t *cpu = calloc(1, sizeof *cpu);
    if (!cpu) bad_input("out of host memory");
    cpu_init(cpu, isa, mem);
    cpu->sys = sys;
    cpu->symtab = symtab;
    cpu->reg[2] = loader_build_stack(mem, &img, isa, o.guest_argc, o.guest_argv, environ,
                                     random16, path);
    if (!cpu->reg[2]) bad_input("%s: argument list too long", path);
    cpu->pc = img.entry;

    insn_totals_t dropped;
    memset(&dropped, 0, sizeof dropped);
    mem->on_decoded_drop = insn_totals_add;
    mem->on_decoded_drop_ctx = &dropped;

    disasm_t *dis = disasm_new(isa);
    truth_t truth;
    memset(&truth, 0, sizeof truth);
    trace_t trace = { .out = trace_out, .limit = o.trace_limit, .disasm = dis, .symtab = symtab };
    bool want_stats = (o.stats_path || o.stats_json_path) && !o.no_truth;
    run_opts_t ropts = { .max_insts = o.max_insts, .truth = want_stats ? &truth : NULL,
                         .trace = trace_out ? &trace : NULL };

    timing_t *timing = NULL;
    FILE *pv_out = NULL, *gt_out = NULL;
    if (o.cfg.model != CFG_MODEL_FUNCTIONAL) {
        timing = timing_new(&o.cfg, err, sizeof err);
        if (!timing) bad_input("configuration %s: %s", o.cfg.source, err);
        pv_out = o.pipeview_path ? open_output(o.pipeview_path, stdout) : NULL;
        gt_out = o.truth_path ? open_output(o.truth_path, stdout) : NULL;
        timing_outputs_t tout = { .kanata = pv_out, .diagram = o.pipe_diagram ? stderr : NULL,
                                  .view_from = o.view_from,
                                  .view_to = o.view_from + o.view_count,
                                  .ground_truth = gt_out, .disasm = dis, .symtab = symtab };
        timing_set_outputs(timing, &tout);
    }

    double t0 = now_seconds();
    if (timing) timing_run(timing, cpu, o.max_insts);
    else cpu_run(cpu, &ropts);
    double secs = now_seconds() - t0;

    int status = report_stop(cpu, dis);
    if (timing) {
        timing_finish(timing);
        if (pv_out) close_output(pv_out);
        if (gt_out) close_output(gt_out);
    }
    run_info_t info = { .cpu = cpu, .image = &img, .symtab = symtab,
                        .truth = want_stats ? &truth : NULL, .dropped = &dropped,
                        .host_seconds = secs, .timing = timing };
    write_stats(&o, &info);
    timing_free(timing);
    if (trace_out) close_output(trace_out);

    truth_free(&truth);
    disasm_free(dis);
    symtab_free(symtab);
    sys_free(sys);
    free(cpu);
    mem_free(mem);
    return status;
}
