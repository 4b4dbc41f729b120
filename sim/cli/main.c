/*
 * main.c - the hps-sim command line: parse the options (options.c), load the
 * guest program, run it on the functional core, a timing model, DISE/HPS or
 * DCPI, report how it ended and write statistics.
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
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "alpha_fp.h"
#include "config.h"
#include "core.h"
#include "datadir.h"
#include "cct_run.h"
#include "checkpoint.h"
#include "ckpt_run.h"
#include "dcpi.h"
#include "disasm.h"
#include "engine.h"
#include "fs.h"
#include "dise.h"
#include "dise_engine.h"
#include "runtime.h"
#include "hps_report.h"
#include "hostmem.h"
#include "images.h"
#include "isa.h"
#include "loader.h"
#include "mem.h"
#include "pmu.h"
#include "profileme.h"
#include "provenance.h"
#include "options.h"
#include "runstats.h"
#include "shell.h"
#include "smarts.h"
#include "stats.h"
#include "symtab.h"
#include "sys.h"
#include "timing.h"
#include "trace.h"
#include "truth.h"
#include "values.h"
#include "paths.h"
#include "ppcct.h"

static const isa_t *isa_for_machine(const char *path, int machine)
{
    if (machine == isa_rv64.elf_machine) return &isa_rv64;
    if (machine == isa_alpha.elf_machine) return &isa_alpha;
    bad_input("%s: unsupported machine (ELF e_machine %d); expected RISC-V (%d) or Alpha (%d)",
              path, machine, isa_rv64.elf_machine, isa_alpha.elf_machine);
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

/* The Linux si_code of a SIGFPE, in words. */
static const char *fpe_name(uint64_t si_code)
{
    switch (si_code) {
    case FPE_INTDIV: return "integer divide by zero";
    case FPE_INTOVF: return "integer overflow";
    case FPE_FLTDIV: return "floating-point divide by zero";
    case FPE_FLTOVF: return "floating-point overflow";
    case FPE_FLTUND: return "floating-point underflow";
    case FPE_FLTRES: return "floating-point inexact result";
    case FPE_FLTINV: return "invalid floating-point operation";
    default:         return "SIGFPE";
    }
}

/* "SIGPIPE" (Linux and host numbers agree for the signals named here). */
static const char *signal_name(int sig)
{
    static char buf[16];
    switch (sig) {
    case SIGINT:  return "SIGINT";
    case SIGTERM: return "SIGTERM";
    case SIGPIPE: return "SIGPIPE";
    default:
        snprintf(buf, sizeof buf, "signal %d", sig);
        return buf;
    }
}

/* What --host-mem refused, in words: "4 KiB for a guest data page, with
 * 199.9 MiB of 200 MiB in use". */
static void describe_host_refusal(char *buf, size_t len)
{
    const hostmem_failure_t *f = hostmem_failure();
    char a[32], b[32], l[32];
    if (!f) {
        snprintf(buf, len, "--host-mem %s", hostmem_format_size(hostmem_limit(), l, sizeof l));
        return;
    }
    snprintf(buf, len, "--host-mem %s reached: %s for %s refused with %s in use",
             hostmem_format_size(f->limit, l, sizeof l), hostmem_format_size(f->bytes, a, sizeof a),
             f->what, hostmem_format_size(f->used, b, sizeof b));
}

/* --host-mem refused the memory to load the program: like a stop of the
 * run, status 137, before anything ran. */
static _Noreturn void host_mem_exit(const char *path)
{
    char why[256];
    describe_host_refusal(why, sizeof why);
    fprintf(stderr, "hps-sim: %s: out of host memory while loading: %s\n", path, why);
    exit(EXIT_HOST_MEM);
}

/* Why a call that makes or waits for another process stops the run. */
static const char *process_call_note(const sys_t *s, const char *name)
{
    static char refused[160];
    if (s->threads_refused_by && name && (!strcmp(name, "clone") || !strcmp(name, "clone3"))) {
        snprintf(refused, sizeof refused, ": threads are not supported with %s (it keeps one "
                 "call stack for the process)", s->threads_refused_by);
        return refused;
    }
    static const char *const calls[] = { "clone", "clone3", "fork", "vfork", "execve",
                                         "execveat", "osf_execve", "wait4", "osf_wait4",
                                         "waitid", "osf_waitid" };
    for (size_t k = 0; name && k < sizeof calls / sizeof calls[0]; k++)
        if (!strcmp(name, calls[k]))
            return ": fork is not supported (hps-sim runs one process; its threads, "
                   "clone with CLONE_VM | CLONE_THREAD, are)";
    return "";
}

static int report_stop(const cpu_t *c, disasm_t *dis)
{
    char where[320] = "";
    /* an exit and --max-insts name no instruction: not disassembled, so a
     * run that ends normally never loads libopcodes (sim/disasm.c) */
    if (c->stop != STOP_EXIT && c->stop != STOP_MAX_INSTS)
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
    case STOP_ARITH_TRAP:
        fprintf(stderr, "hps-sim: arithmetic trap (%s) at %s\n", fpe_name(c->stop_info), where);
        return EXIT_GUEST_FPE;
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
    case STOP_BUS_ERROR:
        fprintf(stderr, "hps-sim: bus error (SIGBUS): misaligned atomic access to address 0x%"
                PRIx64 " at %s\n", c->stop_info, where);
        return EXIT_GUEST_BUS;
    case STOP_SIGNAL:
        fprintf(stderr, "hps-sim: the guest was killed by %s%s at %s\n",
                signal_name((int)c->stop_info), c->stop_info == SIGPIPE ?
                " (it wrote to a pipe with no reader and does not ignore SIGPIPE)" : "", where);
        return 128 + (int)c->stop_info;
    case STOP_INTERRUPTED:                  /* stopped before the instruction at pc */
        describe_insn(c, dis, c->pc, where, sizeof where);
        fprintf(stderr, "hps-sim: interrupted by %s after %" PRIu64 " program instructions, "
                "before %s; statistics and reports are of the run so far\n",
                signal_name((int)c->stop_info), c->instret, where);
        return 128 + (int)c->stop_info;
    case STOP_HOST_MEM: {
        char why[256];
        describe_host_refusal(why, sizeof why);
        fprintf(stderr, "hps-sim: out of host memory: %s; the guest was stopped at %s "
                "(serving guest address 0x%" PRIx64 "); statistics and reports are of the run "
                "so far\n", why, where, c->stop_info);
        return EXIT_HOST_MEM;
    }
    case STOP_BAD_SYSCALL: {
        const char *name = sys_name(c->sys->abi, c->stop_info);
        fprintf(stderr, "hps-sim: unsupported system call %" PRIu64 " (%s) at %s%s\n",
                c->stop_info, name ? name : "unknown", where, process_call_note(c->sys, name));
        return EXIT_GUEST_SYSCALL;
    }
    case STOP_DEADLOCK:
        if (c->stop_info == 1)
            fprintf(stderr, "hps-sim: deadlock: the guest's only thread waits on a futex or for a "
                    "signal with no timeout, so it can never run again (blocked at %s)\n", where);
        else
            fprintf(stderr, "hps-sim: deadlock: all %" PRIu64 " guest threads wait on futexes or "
                    "for signals with no timeout, so none can ever run again (the last one "
                    "blocked at %s)\n", c->stop_info, where);
        return EXIT_GUEST_DEADLOCK;
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


/* ---- profiling with an ACF ---------------------------------------------------------- */

typedef struct profiling profiling_t;
struct profiling {
    dise_program_t *prog;
    dise_t *dise;
    hps_session_t session;
    hps_overhead_t overhead;
};

/* --rate/--burst: frequency = burst / (burst + sparsity).  The Figure 4
 * framework spends one unsampled event resetting the counters, so the
 * counter that ends the gap is loaded with sparsity - 1. */
static void apply_rate(const options_t *o, dise_program_t *prog)
{
    if (!o->rate && !o->burst) return;
    char err[512], assign[96];
    uint64_t burst = o->burst ? o->burst : 1;
    if (o->burst) {
        snprintf(assign, sizeof assign, "burstLength=%" PRIu64, burst);
        if (!acf_set_param(prog, assign, err, sizeof err)) bad_input("--burst: %s", err);
    }
    if (o->rate) {
        double sparsity = (double)burst / o->rate - (double)burst;
        if (sparsity < 1.5 || sparsity > 1e15)
            bad_input("--rate %g with --burst %" PRIu64 ": the gap between bursts, burst/rate - "
                      "burst = %.1f events, must be from 2 to 10^15", o->rate, burst, sparsity);
        uint64_t freq = (uint64_t)llround(sparsity) - 1;
        uint64_t max = (1ull << o->cfg.dise_counter_bits) - 1;
        if (freq > max)
            bad_input("--rate %g with --burst %" PRIu64 ": a gap of %.0f events between bursts "
                      "needs sampleFreq = %" PRIu64 ", more than a counter of dise.counter_bits = "
                      "%u bits counts (%" PRIu64 "): the sparsest rate is %" PRIu64 "/%" PRIu64,
                      o->rate, burst, sparsity, freq, (unsigned)o->cfg.dise_counter_bits, max,
                      burst, burst + max + 1);
        snprintf(assign, sizeof assign, "sampleFreq=%" PRIu64, freq);
        if (!acf_set_param(prog, assign, err, sizeof err)) bad_input("--rate: %s", err);
    }
}

/* The ACF file --acf names: the path as given when it exists, else (a
 * relative name) ROOT/NAME or ROOT/productions/NAME[.acf] of the first
 * data root holding it (datadir.h), so hot_method.acf and
 * productions/hot_method.acf work from any directory. */
static void resolve_acf(const char *arg, char *path, size_t len)
{
    snprintf(path, len, "%s", arg);
    if (!*arg) bad_input("--acf: expected a production file such as hot_method.acf, got ''");
    if (access(arg, F_OK) == 0 || arg[0] == '/') return;
    if (datadir_find("", arg, NULL, path, len)) return;
    if (datadir_find("productions", arg, ".acf", path, len)) return;
    char where[1024];
    datadir_describe("productions", where, sizeof where);
    bad_input("--acf %s: no such file, nor in %s", arg, where);
}

/* The ACF: parsed, parameters applied, and the DISE engine built on the
 * shared guest runtime (*runtime, loaded here if the ACF calls handlers and
 * nobody has yet). */
/* The DISE engine and the profile session on the parsed ACF (again when
 * the shell restarts the run: empty tables, counters and samples). */
/* The DISE hardware the configuration describes. */
static dise_hw_t dise_hw_of(const options_t *o)
{
    return (dise_hw_t){
        .pt_entries = (unsigned)o->cfg.dise_pt_entries,
        .ct_entries = (unsigned)o->cfg.dise_ct_entries,
        .rt_entries = (unsigned)o->cfg.dise_rt_entries,
        .counters = (unsigned)o->cfg.dise_counters,
        .counter_bits = (unsigned)o->cfg.dise_counter_bits,
        .replace_penalty = (unsigned)o->cfg.dise_replace_penalty,
        .spec_leak = o->cfg.dise_spec_counters == CFG_SPEC_LEAK,
    };
}

static void profiling_build(profiling_t *pf, const options_t *o, const symtab_t *symtab,
                            runtime_t *runtime)
{
    char err[512];
    dise_hw_t hw = dise_hw_of(o);
    pf->dise = dise_new(pf->prog, &hw, runtime, err, sizeof err);
    if (!pf->dise) bad_input("%s: %s", o->acf_path, err);
    hps_session_init(&pf->session, pf->prog, symtab);
    dise_on_sample(pf->dise, hps_session_take, &pf->session);
}

static void profiling_setup(profiling_t *pf, const options_t *o, const isa_t *isa,
                            const symtab_t *symtab, runtime_t **runtime)
{
    char err[512];
    dise_env_t env = { .isa = isa, .symtab = symtab };
    char acf_file[PATH_MAX];
    resolve_acf(o->acf_path, acf_file, sizeof acf_file);
    pf->prog = acf_parse_file(acf_file, &env, err, sizeof err);
    if (!pf->prog) bad_input("%s", err);
    for (int k = 0; k < o->nparams; k++)
        if (!acf_set_param(pf->prog, o->params[k], err, sizeof err))
            bad_input("--param %s: %s", o->params[k], err);
    apply_rate(o, pf->prog);
    if (o->print_acf) {
        dise_program_print(pf->prog, stdout);
        exit(0);
    }
    if (pf->prog->nhandlers && !*runtime) {
        *runtime = runtime_load(isa, err, sizeof err);
        if (!*runtime) bad_input("%s: %s", o->acf_path, err);
    }
    if (*runtime) runtime_set_handlers(*runtime, (runtime_handlers_t)o->handlers);
    profiling_build(pf, o, symtab, *runtime);
}

static void profiling_free(profiling_t *pf)
{
    if (!pf->prog) return;
    hps_session_free(&pf->session);
    dise_free(pf->dise);
    dise_program_free(pf->prog);
}

/* ---- profiling with the performance counters (DCPI) ------------------------------------ */

/* The counters and the driver, on the shared guest runtime (*runtime,
 * loaded here if nobody has yet). */
static dcpi_t *dcpi_setup(const options_t *o, const isa_t *isa, const images_t *images,
                          const symtab_t *symtab, runtime_t **runtime)
{
    char err[512];
    dcpi_options_t d = { .db = o->dcpi_db, .new_epoch = o->dcpi_new_epoch, .seed = o->seed,
                         .machine = &o->cfg };
    d.hw = (pmu_config_t){ .counters = (unsigned)o->cfg.pmu_counters,
                           .counter_bits = (unsigned)o->cfg.pmu_counter_bits,
                           .skid = (unsigned)o->cfg.pmu_skid,
                           .nest = o->cfg.pmu_during_handler == 1,
                           .count_handler = o->cfg.pmu_count_handler == 1,
                           .precise = (unsigned)o->dcpi_precise,
                           .geometric = o->cfg.pmu_period == 1, .seed = o->seed };
    if (o->profileme) {           /* ProfileMe alone unless counters are asked for too */
        if (!profileme_parse(o->profileme, &d.profileme, err, sizeof err)) bad_input("%s", err);
        d.profileme.seed = o->seed;
        d.profileme.issue_width = o->cfg.model == CFG_MODEL_EV5 ? (unsigned)o->cfg.ev5_width
                                : o->cfg.model == CFG_MODEL_OOO ? (unsigned)o->cfg.ooo_dispatch_width
                                : 1;
        d.symtab = symtab;
    }
    if ((o->dcpi_events || !o->profileme) &&
        !dcpi_parse_events(o->dcpi_events ? o->dcpi_events : "cycles,imiss",
                           d.hw.counter_bits, &d, err, sizeof err))
        bad_input("%s", err);
    if (!*runtime && !(*runtime = runtime_load(isa, err, sizeof err)))
        bad_input("--dcpi %s: %s", o->dcpi_db, err);
    dcpi_t *dcpi = dcpi_new(&d, *runtime, images, err, sizeof err);
    if (!dcpi) bad_input("--dcpi %s: %s", o->dcpi_db, err);
    return dcpi;
}

/* Value sampling on the DCPI interrupts (values.h). */
static values_t *values_setup(const options_t *o, runtime_t *runtime, dcpi_t *dcpi,
                              timing_t *timing)
{
    char err[512];
    values_options_t v = { .seed = o->seed };
    if (!values_parse(o->values, &v, err, sizeof err)) bad_input("%s", err);
    values_t *values = values_new(&v, runtime, dcpi_pmu(dcpi), timing, err, sizeof err);
    if (!values) bad_input("%s", err);
    return values;
}

/* The timing model's exact head cycles, for the DCPI report. */
static void timing_heads(const void *t, dcpi_heads_fn fn, void *ctx)
{
    timing_for_each_head(t, fn, ctx);
}

/* ---- one guest process ------------------------------------------------------------------ */

typedef struct guest {
    mem_t *mem;
    image_t img;
    sys_t *sys;
    cpu_t *cpu;
    insn_totals_t dropped;
} guest_t;

/* The baseline run must see the same stdin: a regular file is reopened
 * (its own offset), anything else is copied to a temporary file first and
 * both runs read that. */
static int baseline_stdin(void)
{
    struct stat st;
    if (isatty(0)) return open("/dev/null", O_RDONLY);     /* nothing to replay */
    if (fstat(0, &st) == 0 && S_ISREG(st.st_mode)) return open("/proc/self/fd/0", O_RDONLY);
    FILE *copy = tmpfile();
    if (!copy) bad_input("cannot create a temporary file for stdin: %s", strerror(errno));
    char buf[65536];
    ssize_t n;
    while ((n = read(0, buf, sizeof buf)) > 0) fwrite(buf, 1, (size_t)n, copy);
    fflush(copy);
    int fd = fileno(copy);
    dup2(fd, 0);
    lseek(0, 0, SEEK_SET);
    return open("/proc/self/fd/0", O_RDONLY);
}

/* The Linux system-call ABI of a program: by its ELF machine. */
static const sys_abi_t *abi_for(const isa_t *isa)
{
    return isa->elf_machine == EM_ALPHA ? &sys_abi_alpha : &sys_abi_rv64;
}

/* Where a guest's stdin comes from: hps-sim's own, the baseline run's
 * replay of it (output discarded), or nothing (the shell reads stdin). */
typedef enum { GUEST_STDIN, GUEST_BASELINE, GUEST_NO_STDIN } guest_input_t;

/* The default: the host's / read-only, the working directory's tree (its
 * real path) read-write unless that is / itself; returns that directory
 * (free it). */
static char *default_fs(sys_t *sys, const char *cwd)
{
    char err[PATH_MAX + 512];
    char *real = realpath(cwd, NULL);
    if (!real) bad_input("--cwd %s: %s; expected a directory", cwd, strerror(errno));
    if (!sys_set_fs_root(sys, "/", true, err, sizeof err) ||
        (strcmp(real, "/") && !sys_bind(sys, real, real, false, err, sizeof err))) {
        free(real);
        bad_input("%s", err);
    }
    return real;
}

/* The guest's file system (fs.h, SECURITY.md): --fs-root DIR (read-write)
 * or the default, the --binds in order, the --sysroot, and the working
 * directory: --cwd (a guest path), else hps-sim's own where the guest
 * sees it, else "/". */
static void guest_fs(sys_t *sys, const options_t *o)
{
    char err[PATH_MAX + 512], here[PATH_MAX], seen[PATH_MAX];
    char *real = NULL;
    const char *cwd = o->cwd;
    if (!o->fs_root) {
        cwd = real = default_fs(sys, o->cwd ? o->cwd : ".");
    } else if (!sys_set_fs_root(sys, o->fs_root, false, err, sizeof err) ||
               !sys_set_cwd(sys, "/", err, sizeof err)) {
        bad_input("%s", err);
    } else if (!cwd) {
        cwd = getcwd(here, sizeof here) && fs_guest_path(sys, here, seen, sizeof seen) ? seen : "/";
    }
    for (int k = 0; k < o->nbinds; k++)
        if (!sys_bind(sys, o->binds[k].host, o->binds[k].guest, o->binds[k].ro, err, sizeof err)) {
            free(real);
            bad_input("%s", err);
        }
    if (o->sysroot) sys_set_sysroot(sys, o->sysroot);
    bool ok = sys_set_cwd(sys, cwd, err, sizeof err);
    free(real);
    if (!ok) bad_input("%s", err);
}

static void guest_load(guest_t *g, const options_t *o, const isa_t *isa, const symtab_t *symtab,
                       guest_input_t input)
{
    const char *path = o->guest_argv[0];
    char err[512];
    memset(g, 0, sizeof *g);
    hostmem_set_limit(o->host_mem);
    g->mem = mem_new();
    mem_set_guest_limit(g->mem, o->guest_mem);
    if (o->host_mem && o->host_mem / 4 < MEM_DECODED_LIMIT_DEFAULT)
        mem_set_decoded_limit(g->mem, o->host_mem / 4);   /* data gets the rest */
    if (!loader_load_sysroot(path, isa, o->sysroot, g->mem, &g->img, err, sizeof err)) {
        if (hostmem_failure()) host_mem_exit(path);
        bad_input("%s", err);
    }
    const guest_layout_t *lay = loader_layout(isa);
    sys_config_t scfg = { .seed = o->seed, .epoch_sec = 1700000000ull,
                          .insts_per_sec = 1000000000ull, .host_time = false,
                          .thread_quantum = o->thread_quantum };
    g->sys = sys_new(g->mem, abi_for(isa), &scfg);
    sys_set_brk(g->sys, g->img.brk_start);
    sys_set_exe(g->sys, path);
    sys_set_mmap_area(g->sys, lay->mmap_bottom, lay->mmap_top, lay->mmap_bottom_up);
    guest_fs(g->sys, o);
    if (input != GUEST_STDIN) {
        int in = input == GUEST_BASELINE ? baseline_stdin() : open("/dev/null", O_RDONLY);
        if (in < 0) bad_input("cannot set up the guest's stdin: %s", strerror(errno));
        g->sys->host_fd[0] = in;
        g->sys->fd_flags[0] |= SYS_FD_OWNED;
        g->sys->discard_output = input == GUEST_BASELINE;   /* same input, no output */
    }
    uint8_t random16[16];
    sys_random_bytes(g->sys, random16, sizeof random16);
    g->cpu = cpu_new(isa, g->mem);
    if (!g->cpu) bad_input("out of host memory");
    if (isa->elf_machine == EM_ALPHA) al_fp_init(g->cpu);   /* Linux's initial FPCR */
    g->cpu->sys = g->sys;
    g->cpu->symtab = symtab;
    uint64_t sp = loader_build_stack(g->mem, &g->img, isa, o->guest_argc, o->guest_argv,
                                     o->guest_env, random16, path);
    if (!sp && hostmem_failure()) host_mem_exit(path);
    if (!sp) bad_input("%s: argument list too long", path);
    sys_note_start(g->sys, &g->img, sp, lay->stack_top - lay->stack_size, lay->stack_top);
    g->cpu->reg[lay->sp_reg] = sp;
    g->cpu->pc = g->img.start;
    g->mem->on_decoded_drop = insn_totals_add;
    g->mem->on_decoded_drop_ctx = &g->dropped;
    ckpt_run_restore(o, isa, g->cpu, g->sys);       /* --restore: start at the checkpoint */
}

/* What the process has mapped executable: function symbols and images. */
typedef struct process_code {
    symtab_t *symtab;
    images_t images;
} process_code_t;

/* The guest mapped a file executable (ld.so loading a shared library):
 * name its code and note the image.  On allocation failure the symbol
 * table stays as it was. */
static void note_mapped_code(void *ctx, int host_fd, uint64_t addr, uint64_t len, uint64_t off)
{
    process_code_t *pc = ctx;
    symtab_add_mapped_file(pc->symtab, host_fd, addr, len, off);
    images_add_mapping(&pc->images, host_fd, addr, len, off);
}

/* The program's function symbols and images: the executable's, the ELF
 * interpreter's, and from then on each shared library's as the guest maps
 * it.  False on allocation failure. */
static bool load_code(const char *path, guest_t *g, process_code_t *pc)
{
    images_init(&pc->images);
    pc->symtab = symtab_load(path);
    if (!pc->symtab) return false;
    symtab_relocate(pc->symtab, g->img.load_bias);
    images_add(&pc->images, path, g->img.lowest, g->img.highest, g->img.load_bias);
    if (g->img.interp_file[0]) {
        symtab_add_loaded_file(pc->symtab, g->img.interp_file, g->img.interp_base);
        images_add_loaded_file(&pc->images, g->img.interp_file, g->img.interp_base);
    }
    sys_set_exec_map_hook(g->sys, note_mapped_code, pc);
    return true;
}

static void guest_free(guest_t *g)
{
    sys_free(g->sys);
    free(g->cpu);
    mem_free(g->mem);
}

static timing_t *new_timing(const options_t *o)
{
    char err[512];
    timing_t *t = timing_new(&o->cfg, err, sizeof err);
    if (!t) bad_input("configuration %s: %s", o->cfg.source, err);
    return t;
}

/* The engine of a run described by its parts; bad input if they cannot
 * run together. */
static engine_t *new_engine(const engine_parts_t *parts)
{
    char err[512];
    engine_t *e = engine_new(parts, err, sizeof err);
    if (!e) bad_input("%s", err);
    return e;
}

/* The same program, input, configuration and program instructions without
 * the profilers, output discarded: the cycles their overhead is measured
 * against. */
static uint64_t baseline_cycles(const options_t *o, const isa_t *isa, const symtab_t *symtab)
{
    guest_t g;
    guest_load(&g, o, isa, symtab, GUEST_BASELINE);
    timing_t *t = o->cfg.model != CFG_MODEL_FUNCTIONAL ? new_timing(o) : NULL;
    engine_t *e = new_engine(&(engine_parts_t){ .cpu = g.cpu, .timing = t });
    engine_run(e, o->max_insts);
    engine_finish(e);
    uint64_t cycles = g.cpu->cycle;
    engine_free(e);
    timing_free(t);
    guest_free(&g);
    return cycles;
}

/* The same program, input and program instructions as the baseline, with
 * the ACF (without DCPI), output discarded, and the steps of the DISE
 * roles in `untimed` (bit r = role r) executed but not timed: one run of
 * the exact overhead breakdown.  False when a signal cut it short. */
static bool untimed_cycles(const options_t *o, const isa_t *isa, const symtab_t *symtab,
                           const dise_program_t *prog, unsigned untimed, uint64_t *cycles)
{
    char err[512];
    guest_t g;
    guest_load(&g, o, isa, symtab, GUEST_BASELINE);
    runtime_t *rt = NULL;
    if (prog->nhandlers) {
        rt = runtime_load(isa, err, sizeof err);
        if (!rt) bad_input("%s: %s", o->acf_path, err);
        runtime_set_handlers(rt, (runtime_handlers_t)o->handlers);
    }
    dise_hw_t hw = dise_hw_of(o);
    dise_t *d = dise_new(prog, &hw, rt, err, sizeof err);
    if (!d) bad_input("%s: %s", o->acf_path, err);
    timing_t *t = new_timing(o);
    if (rt) runtime_attach(rt, g.cpu);
    dise_attach(d, g.cpu);
    engine_t *e = new_engine(&(engine_parts_t){ .cpu = g.cpu, .timing = t, .dise = d,
                                                .untimed_roles = untimed });
    bool whole = engine_run(e, o->max_insts) != STOP_INTERRUPTED;
    engine_finish(e);
    *cycles = g.cpu->cycle;
    engine_free(e);
    timing_free(t);
    dise_detach(d, g.cpu);
    dise_free(d);
    runtime_free(rt);
    guest_free(&g);
    return whole;
}

/* Did the run execute (or pay the decode penalty of) instructions of role r? */
static bool role_ran(const dise_t *d, dise_role_t r)
{
    return d->stat_inserted[r] + d->stat_handler_by_role[r] + d->stat_penalty_by_role[r] > 0;
}

/* The exact breakdown of the overhead (dise/README.md, "The overhead
 * breakdown"): with DCPI too, first the run with the ACF alone; then the
 * roles are untimed one after the other, sample, basic, check, each part
 * the cycles that saves; the rest is the last run against the baseline.
 * A role that never ran saves nothing and needs no run.  A signal that
 * cuts a run short leaves the parts unmeasured (the report then lists
 * the charged cycles). */
static void exact_breakdown(profiling_t *pf, const options_t *o, const isa_t *isa,
                            const symtab_t *symtab, bool with_dcpi)
{
    hps_overhead_t *ov = &pf->overhead;
    uint64_t prev = ov->acf_cycles, cycles;
    if (with_dcpi) {
        if (!untimed_cycles(o, isa, symtab, pf->prog, 0, &cycles)) return;
        ov->dcpi_part = (int64_t)(prev - cycles);
        ov->dcpi_measured = true;
        ov->breakdown_runs++;
        prev = cycles;
    }
    static const dise_role_t order[] = { DISE_ROLE_SAMPLE, DISE_ROLE_BASIC, DISE_ROLE_CHECK };
    unsigned untimed = 0;
    for (size_t k = 0; k < sizeof order / sizeof order[0]; k++) {
        dise_role_t r = order[k];
        untimed |= 1u << r;
        if (!role_ran(pf->dise, r)) continue;
        if (!untimed_cycles(o, isa, symtab, pf->prog, untimed, &cycles)) return;
        ov->part[r] = (int64_t)(prev - cycles);
        ov->breakdown_runs++;
        prev = cycles;
    }
    ov->part[DISE_ROLE_NONE] = (int64_t)(prev - ov->base_cycles);
    ov->parts_exact = true;
}

/* On the functional core every instruction and decode-penalty cycle is
 * one cycle, so the counts of each role are its exact part. */
static void counted_breakdown(hps_overhead_t *ov)
{
    int64_t rest = (int64_t)(ov->acf_cycles - ov->base_cycles);
    for (int r = DISE_ROLE_CHECK; r < DISE_ROLE_COUNT; r++) {
        ov->part[r] = (int64_t)ov->role_cycles[r];
        rest -= ov->part[r];
    }
    ov->part[DISE_ROLE_NONE] = rest;
    ov->parts_exact = ov->parts_counted = true;
}

/* --dump-config FILE: the resolved configuration as a loadable .ini, its
 * first lines saying which hps-sim and command line resolved it. */
static void dump_config(const options_t *o)
{
    FILE *f = open_output(o->dump_config, stdout);
    fprintf(f, "# hps-sim %s\n# command: %s\n", provenance_version(), provenance_command());
    config_print(&o->cfg, f);
    close_output(f);
}

static void write_stats(const options_t *o, const run_info_t *info, const profiling_t *pf,
                        const dcpi_t *dcpi, const values_t *values)
{
    if (!o->stats_path && !o->stats_json_path) return;
    stats_t st = {0};
    runstats_collect(info, &st);
    if (pf->dise) {
        dise_stats(pf->dise, &st);
        hps_session_stats(&pf->session, &pf->overhead, &st);
    }
    if (dcpi) dcpi_stats(dcpi, &st);
    if (values) values_stats(values, &st);
    if (o->stats_path) {
        FILE *f = open_output(o->stats_path, stdout);
        provenance_write_text(f, &o->cfg, 1);
        stats_write_text(&st, f);
        close_output(f);
    }
    if (o->stats_json_path) {
        FILE *f = open_output(o->stats_json_path, stdout);
        fputs("{\n", f);
        provenance_write_json(f, &o->cfg, "  ");
        fputs(st.count ? ",\n" : "\n", f);
        stats_write_json_members(&st, f);
        fputs("}\n", f);
        close_output(f);
    }
    stats_free(&st);
}

/* ---- the interactive shell ----------------------------------------------- */

typedef struct shell_host {
    const options_t *o;
    const isa_t *isa;
    guest_t *g;
    process_code_t *code;
    disasm_t *dis;
    truth_t *truth;                  /* the ground-truth recorder, or NULL */
    profiling_t *pf;                 /* with an ACF: DISE and its session  */
    runtime_t **runtime;             /* the handlers' runtime, or NULL     */
    shell_ckpts_t ckpts;             /* in-memory checkpoints for `back`   */
} shell_host_t;

/* With an ACF: the handlers' runtime and the DISE engine as new, on cpu. */
static void restart_profiling(shell_host_t *h, cpu_t *cpu)
{
    char err[512];
    hps_session_free(&h->pf->session);
    dise_free(h->pf->dise);             /* detached from the old cpu (shell_restart) */
    if (*h->runtime) {
        runtime_free(*h->runtime);
        *h->runtime = runtime_load(h->isa, err, sizeof err);
        if (!*h->runtime) bad_input("%s: %s", h->o->acf_path, err);
        runtime_set_handlers(*h->runtime, (runtime_handlers_t)h->o->handlers);
        runtime_attach(*h->runtime, cpu);
    }
    profiling_build(h->pf, h->o, h->code->symtab, *h->runtime);
    dise_attach(h->pf->dise, cpu);
}

/* The process again from its first instruction, on a fresh timing model
 * (and DISE engine): the same program, arguments, environment (taken once
 * when hps-sim started, o->guest_env), seed and (empty) input give the
 * same run. */
static void shell_restart(void *ctx, shell_target_t *t)
{
    shell_host_t *h = ctx;
    if (h->pf->dise) dise_detach(h->pf->dise, h->g->cpu);  /* its count-down word is the cpu's */
    guest_free(h->g);
    guest_load(h->g, h->o, h->isa, h->code->symtab, GUEST_NO_STDIN);
    sys_set_exec_map_hook(h->g->sys, note_mapped_code, h->code);
    t->cpu = h->g->cpu;
    if (t->timing) {
        timing_free(t->timing);
        t->timing = new_timing(h->o);
        timing_record_recent(t->timing, h->dis);
    }
    if (h->truth) {                  /* recorded again from the start */
        truth_free(h->truth);
        memset(h->truth, 0, sizeof *h->truth);
    }
    if (h->pf->dise) restart_profiling(h, t->cpu);
    t->dise = h->pf->dise;
    engine_free(t->engine);
    t->engine = new_engine(&(engine_parts_t){
        .cpu = t->cpu, .timing = t->timing, .truth = h->truth, .dise = h->pf->dise,
        .hps_truth = h->pf->dise ? &h->pf->session.truth : NULL });
}

/* In-memory checkpoints: only a plain functional run (no timing model,
 * ACF or ground truth, whose state a checkpoint does not hold) keeps
 * them; the guest is saved as --checkpoint-at saves it (ckpt_save). */
static void shell_keep(void *ctx, shell_target_t *t)
{
    shell_host_t *h = ctx;
    if (t->timing || t->dise || h->truth) return;
    ckpt_ident_t id = { .isa = h->isa->name, .path = h->o->guest_argv[0],
                        .argc = h->o->guest_argc, .argv = h->o->guest_argv };
    shell_ckpts_keep(&h->ckpts, t->cpu, &id);
}

/* The nearest checkpoint at or before `to`, restored into a fresh guest
 * and engine as shell_restart builds them. */
static uint64_t shell_rewind(void *ctx, shell_target_t *t, uint64_t to)
{
    shell_host_t *h = ctx;
    const ckpt_image_t *img = shell_ckpts_find(&h->ckpts, to);
    if (!img || t->timing || t->dise || h->truth) return UINT64_MAX;
    shell_restart(ctx, t);
    char err[1024];
    ckpt_ident_t id = { .isa = h->isa->name, .path = h->o->guest_argv[0],
                        .argc = h->o->guest_argc, .argv = h->o->guest_argv };
    if (!ckpt_restore(t->cpu, t->cpu->sys, &id, img, err, sizeof err))
        bad_input("the shell's checkpoint: %s", err);
    return t->cpu->instret;
}

static void shell_output(void *ctx, bool on)
{
    ((shell_host_t *)ctx)->g->sys->discard_output = !on;
}

static int shell_report(void *ctx, const cpu_t *c)
{
    return report_stop(c, ((shell_host_t *)ctx)->dis);
}

static int interact(const options_t *o, const isa_t *isa, guest_t *g, process_code_t *code,
                    disasm_t *dis, truth_t *truth, profiling_t *pf, runtime_t **runtime,
                    timing_t **timing, engine_t **engine)
{
    shell_host_t host = { o, isa, g, code, dis, truth, pf, runtime, {0} };
    shell_ckpts_init(&host.ckpts, o->host_mem);
    if (*timing) timing_record_recent(*timing, dis);
    shell_target_t target = { .cpu = g->cpu, .timing = *timing, .dise = pf->dise,
                              .engine = *engine, .disasm = dis, .symtab = code->symtab,
                              .restart = shell_restart, .output = shell_output,
                              .report = shell_report, .ctx = &host,
                              .max_insts = o->max_insts, .keep = shell_keep,
                              .rewind = shell_rewind, .keep_every = SHELL_CKPT_EVERY };
    int status = shell_run(&target, stdin, stdout);
    shell_ckpts_free(&host.ckpts);
    *timing = target.timing;
    *engine = target.engine;
    return status;
}

/* ---- host signals ------------------------------------------------------------ */

static void on_stop_signal(int sig) { engine_interrupt(sig); }

/* SIGPIPE is ignored: a write to a closed pipe fails with EPIPE, and the
 * guest's own such writes get what Linux would give them (sys.h).  In a
 * batch run SIGINT and SIGTERM stop the guest at the next instruction
 * boundary (engine_interrupt): the statistics and reports of what ran are
 * written and hps-sim exits 128 + the signal; SA_RESETHAND makes a second
 * one kill at once.  The shell keeps its own Ctrl-C (shell.c). */
static void host_signals(bool batch)
{
    signal(SIGPIPE, SIG_IGN);
    if (!batch) return;
    struct sigaction sa = { .sa_handler = on_stop_signal, .sa_flags = SA_RESTART | SA_RESETHAND };
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int main(int argc, char **argv)
{
    options_t o;
    provenance_init(argc, argv);
    parse_options(argc, argv, &o);
    host_signals(!o.interactive);
    provenance_set_guest(o.guest_env, o.cwd);
    const char *path = o.guest_argv[0];
    char err[512];

    int machine = 0;
    if (!loader_probe(path, &machine, err, sizeof err)) bad_input("%s", err);
    const isa_t *isa = isa_for_machine(path, machine);
    if (loader_alpha_relaxed(path))
        fprintf(stderr, "hps-sim: warning: %s is a static Alpha program linked with linker "
                "relaxation, which breaks glibc's start-up (it faults in __ctype_init, under "
                "qemu-alpha too): relink with -Wl,--no-relax\n", path);

    guest_t g;
    guest_load(&g, &o, isa, NULL, o.interactive ? GUEST_NO_STDIN : GUEST_STDIN);
    process_code_t code;
    if (!load_code(path, &g, &code)) bad_input("out of host memory");
    if (o.restore) ckpt_replay_exec_maps(g.sys, g.cpu);  /* libraries loaded before it */
    symtab_t *symtab = code.symtab;
    g.cpu->symtab = symtab;

    profiling_t pf;
    memset(&pf, 0, sizeof pf);
    runtime_t *runtime = NULL;          /* the guest runtime both profilers share */
    if (o.acf_path) profiling_setup(&pf, &o, isa, symtab, &runtime);
    for (size_t k = 0; pf.prog && !o.paths_path && k < pf.prog->ntables; k++)
        if (!strcmp(pf.prog->tables[k].name, HPS_PP_TALLY_TABLE))
            bad_input("%s: the ACF counts paths (table %s, PP on DISE): add --paths FILE "
                      "for them and the exact paths they are scored against", o.acf_path,
                      HPS_PP_TALLY_TABLE);
    for (size_t k = 0; pf.prog && !o.paths_path && k < pf.prog->nhandlers; k++)
        if (!strcmp(pf.prog->handlers[k], "PathCount_handler"))
            bad_input("%s: the ACF counts paths (PathCount_handler, PP on DISE): add --paths FILE "
                      "for them and the exact paths they are scored against", o.acf_path);
    for (size_t k = 0; pf.prog && k < pf.prog->nhandlers; k++)
        if (!strcmp(pf.prog->handlers[k], "PathEnter_handler")) {
            if (!o.cct)
                bad_input("%s: the ACF keeps PP's calling context tree (PathEnter_handler, "
                          "hps-pp-acf --cct): add --cct for the exact tree it is scored against",
                          o.acf_path);
            pf.session.ppcct = ppcct_new();
            char perr[256];
            if (!ppcct_attach(pf.session.ppcct, runtime, symtab, perr, sizeof perr))
                bad_input("%s: %s", o.acf_path, perr);
        }
    for (size_t k = 0; pf.prog && o.cfg.model == CFG_MODEL_FUNCTIONAL && k < pf.prog->nhandlers; k++)
        if (!strcmp(pf.prog->handlers[k], "PathCountM_handler"))
            bad_input("%s: the ACF reads the cycle and L1D-miss counters at path boundaries "
                      "(PathCountM_handler, hps-pp-acf --metrics): it needs a timing model "
                      "(--config), the functional model has no counters", o.acf_path);
    dcpi_t *dcpi = o.dcpi_db ? dcpi_setup(&o, isa, &code.images, symtab, &runtime) : NULL;

    /* Open outputs before running so a bad path loses no simulation. */
    FILE *trace_out = o.trace_path ? open_output(o.trace_path, stderr) : NULL;
    if (o.stats_path && strcmp(o.stats_path, "-")) close_output(open_output(o.stats_path, stdout));
    if (o.stats_json_path && strcmp(o.stats_json_path, "-"))
        close_output(open_output(o.stats_json_path, stdout));
    FILE *report_out = o.report_path ? open_output(o.report_path, stderr) : NULL;
    if (report_out && report_out != stderr) provenance_write_text(report_out, &o.cfg, 0);
    if (o.dump_config) dump_config(&o);
    FILE *profile_out = o.profile_out ? open_output(o.profile_out, stdout) : NULL;
    FILE *paths_out = o.paths_path ? open_output(o.paths_path, stdout) : NULL;

    cpu_t *cpu = g.cpu;
    disasm_t *dis = disasm_new(isa);
    truth_t truth;
    memset(&truth, 0, sizeof truth);
    trace_t trace = { .out = trace_out, .limit = o.trace_limit, .disasm = dis, .symtab = symtab };
    bool want_stats = (o.stats_path || o.stats_json_path) && !o.no_truth;
    cct_run_t cct;
    cct_run_setup(&cct, &o, g.cpu, symtab, g.cpu->pc, &truth);

    timing_t *timing = NULL;
    FILE *pv_out = NULL, *o3_out = NULL, *gt_out = NULL;
    if (o.cfg.model != CFG_MODEL_FUNCTIONAL) {
        timing = new_timing(&o);
        symtab_text_t text;          /* the per-pc truth's flat store: the program's text */
        if ((dcpi || o.truth_path) && symtab_text_of_loaded_file(path, g.img.load_bias, &text))
            timing_set_code(timing, text.lo, text.hi);
        pv_out = o.pipeview_path ? open_output(o.pipeview_path, stdout) : NULL;
        o3_out = o.o3pipeview_path ? open_output(o.o3pipeview_path, stdout) : NULL;
        gt_out = o.truth_path ? open_output(o.truth_path, stdout) : NULL;
        timing_outputs_t tout = { .kanata = pv_out, .diagram = o.pipe_diagram ? stderr : NULL,
                                  .o3pipeview = o3_out,
                                  .view_from = o.view_from,
                                  .view_to = o.view_from + o.view_count,
                                  .ground_truth = gt_out, .disasm = dis, .symtab = symtab };
        timing_set_outputs(timing, &tout);
    }

    values_t *values = o.values ? values_setup(&o, runtime, dcpi, timing) : NULL;
    smarts_t *smarts = o.sample ? smarts_new(&o.sample_plan, timing) : NULL;

    /* One baseline serves both profilers: the run without either. */
    /* (Not in the shell, whose commands are on stdin, which the baseline would read.) */
    uint64_t base = (pf.dise || dcpi) && !o.no_baseline && !o.interactive
                  ? baseline_cycles(&o, isa, symtab) : 0;
    pf.overhead.base_cycles = base;
    if (pf.dise && timing)          /* hps.rdpmc in DISE's handlers (PP's path metrics) */
        dise_set_counters(pf.dise, &timing_hot(timing)->cycles, timing_cache(timing, "l1d"));
    if (runtime) runtime_attach(runtime, cpu);
    if (pf.dise) dise_attach(pf.dise, cpu);
    if (dcpi) {
        timing_keep_heads(timing);
        pmu_attach(dcpi_pmu(dcpi), cpu, &timing_hot(timing)->head_sum);
        timing_set_profileme(timing, dcpi_profileme(dcpi));
    }
    if (values) values_attach(values, cpu);
    paths_t *paths = paths_out ? paths_new(isa, symtab, path, g.img.load_bias) : NULL;
    if (paths && timing)
        paths_set_timing(paths, &timing_hot(timing)->cycles, timing_cache(timing, "l1d"));
    engine_parts_t parts = {
        .cpu = cpu, .timing = timing, .paths = paths,
        .truth = want_stats || cct.on || paths ? &truth : NULL,
        .trace = trace_out ? &trace : NULL, .dise = pf.dise,
        .hps_truth = pf.dise ? &pf.session.truth : NULL, .pmu = dcpi ? dcpi_pmu(dcpi) : NULL,
        .smarts = smarts, .jit = o.jit, .jit_if_able = o.jit_auto };
    cct_run_parts(&cct, &parts);
    /* --cct and --paths keep per-thread state, and so does guest csprof */
    g.sys->threads_refused_by = o.csprof && o.csprof_host_unwinder ? "--csprof-unwinder host"
                                                                    : NULL;
    engine_t *engine = new_engine(&parts);

    double t0 = now_seconds();
    int status = 0;
    bool checkpoint_taken = false;
    if (o.interactive) {
        status = interact(&o, isa, &g, &code, dis, want_stats ? &truth : NULL, &pf, &runtime,
                          &timing, &engine);
        cpu = g.cpu;
    } else if (o.checkpoint_at) {
        checkpoint_taken = ckpt_run_take(&o, isa, engine, cpu);
    } else {
        engine_run(engine, o.max_insts);
    }
    double secs = now_seconds() - t0;

    engine_finish(engine);
    if (!o.interactive) status = report_stop(cpu, dis);
    if (o.checkpoint_at && !checkpoint_taken) status = EXIT_BAD_INPUT;
    if (cpu->stop == STOP_MAX_INSTS && !o.interactive && !checkpoint_taken)
        fprintf(stderr, "hps-sim: stopped by --max-insts after %" PRIu64 " program instructions "
                "(the program did not finish)\n", cpu->instret);
    if (dcpi && !dcpi_finish(dcpi, cpu, err, sizeof err)) {
        fprintf(stderr, "hps-sim: --dcpi: %s\n", err);
        status = EXIT_BAD_INPUT;
    }
    if (values && !values_finish(values, symtab, dcpi_epoch(dcpi), err, sizeof err)) {
        fprintf(stderr, "hps-sim: --values: %s\n", err);
        status = EXIT_BAD_INPUT;
    }
    if (timing) {
        timing_finish(timing);
        if (pv_out) close_output(pv_out);
        if (o3_out) close_output(o3_out);
        if (gt_out) close_output(gt_out);
    }
    if (pf.dise) {
        if (runtime) hps_session_read_tallies(&pf.session, pf.prog, runtime);
        pf.overhead.acf_cycles = cpu->cycle;
        dise_role_cycles(pf.dise, pf.overhead.role_cycles);
        pf.overhead.handlers = runtime_handlers_names[o.handlers];
        pf.overhead.handler_calls = pf.dise->stat_handler_calls;
        pf.overhead.handler_insts = pf.dise->stat_handler_insts;
        if (base && timing && cpu->stop != STOP_INTERRUPTED)
            exact_breakdown(&pf, &o, isa, symtab, dcpi != NULL);
        else if (base && !timing)
            counted_breakdown(&pf.overhead);
        hps_session_report(&pf.session, report_out ? report_out : stderr, o.acf_path, pf.prog,
                           &pf.overhead, (size_t)o.top_n);
        if (profile_out) {
            hps_session_write_tsv(&pf.session, profile_out);
            close_output(profile_out);
        }
    }
    if (dcpi) {
        dcpi_report(dcpi, report_out ? report_out : stderr, symtab, timing_heads, timing,
                    cpu->cycle, base, (size_t)o.top_n);
    }
    if (values) values_report(values, report_out ? report_out : stderr, (size_t)o.top_n);
    if (smarts) {                    /* simCycles: the estimate */
        smarts_result_t sr;
        smarts_result(smarts, cpu->instret, &sr);
        cpu->cycle = sr.units ? (uint64_t)llround(sr.cycles) : 0;
        smarts_report(smarts, cpu->instret, report_out ? report_out : stderr);
    }
    status = cct_run_finish(&cct, &o, cpu, symtab, report_out, status);
    if (paths) {
        paths_finish(paths, cpu);
        if (pf.dise && pf.session.paths) paths_set_dise(paths, pf.session.paths);
        if (pf.dise && pf.session.path_cycles)
            paths_set_dise_metrics(paths, pf.session.path_cycles, pf.session.path_misses);
        paths_report(paths, report_out ? report_out : stderr, path, (size_t)o.top_n);
        paths_report_dise(paths, report_out ? report_out : stderr);
        if (pf.session.ppcct) {          /* hps-pp-acf --cct: the guest's tree */
            ppcct_read(pf.session.ppcct, runtime, cct.exact.tree.nodes[1].entry);
            ppcct_report(pf.session.ppcct, cct_truth_threads(&cct.exact) > 1 ? NULL : &cct.exact.tree,
                         paths, symtab, (size_t)o.top_n, report_out ? report_out : stderr);
        }
        paths_write_tsv(paths, paths_out);
        close_output(paths_out);
        if (o.paths_export) {
            const char *colon = strchr(o.paths_export, ':');
            char fmt[16];
            snprintf(fmt, sizeof fmt, "%.*s", (int)(colon - o.paths_export), o.paths_export);
            if (!paths_export(paths, fmt, colon + 1, path, err, sizeof err)) {
                fprintf(stderr, "hps-sim: --paths-export: %s\n", err);
                status = EXIT_BAD_INPUT;
            }
        }
        paths_free(paths);
    }
    if (report_out) close_output(report_out);
    run_info_t info = { .cpu = cpu, .image = &g.img, .symtab = symtab,
                        .truth = want_stats ? &truth : NULL, .dropped = &g.dropped,
                        .host_seconds = secs, .timing = timing, .smarts = smarts };
    write_stats(&o, &info, &pf, dcpi, values);
    engine_free(engine);
    timing_free(timing);
    smarts_free(smarts);
    if (trace_out) close_output(trace_out);

    profiling_free(&pf);
    values_free(values);
    dcpi_free(dcpi);
    runtime_free(runtime);
    cct_run_free(&cct);
    truth_free(&truth);
    disasm_free(dis);
    images_free(&code.images);
    symtab_free(symtab);
    guest_free(&g);
    options_free(&o);
    return status;
}
