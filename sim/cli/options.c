/*
 * options.c - the hps-sim command line: parse_options() fills an options_t,
 * checks each value and the combinations of options (check_combinations),
 * and ends every kind of bad input with one line and exit status 2.
 * The options are the rows of options.def; the option ids, the getopt_long
 * table, the short-option string and the --help text are generated here
 * from those rows, so an option is declared in one place only.
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ckpt_run.h"
#include "config.h"
#include "core.h"
#include "datadir.h"
#include "export.h"
#include "dise.h"
#include "jit.h"
#include "options.h"
#include "pmu.h"
#include "provenance.h"
#include "runtime.h"
#include "smarts.h"
#include "util.h"

#define USAGE_LINE "hps-sim [options] prog [args...]"

/* ---- generated from options.def ---------------------------------------------- */

enum { ARG_NONE = no_argument, ARG_REQUIRED = required_argument };

/* The sections of --help: SEC_GENERAL, SEC_TIMING, ... */
enum {
#define SECTION(id, heading, note) SEC_##id,
#define OPTION(id, name, letter, arg, metavar, section, help)
#include "options.def"
#undef SECTION
#undef OPTION
    SEC_COUNT
};

/* The option ids: OPT_MAX_INSTS, OPT_STATS, ..., each its row's index. */
enum {
#define SECTION(id, heading, note)
#define OPTION(id, name, letter, arg, metavar, section, help) OPT_##id,
#include "options.def"
#undef SECTION
#undef OPTION
    OPT_COUNT
};

static const struct {
    const char *heading, *note;
} sections[SEC_COUNT] = {
#define SECTION(id, heading, note) [SEC_##id] = { heading, note },
#define OPTION(id, name, letter, arg, metavar, section, help)
#include "options.def"
#undef SECTION
#undef OPTION
};

typedef struct option_row {
    const char *name;        /* long name, without "--"        */
    char letter;             /* short option letter, or 0      */
    int arg;                 /* ARG_NONE or ARG_REQUIRED       */
    const char *metavar;     /* the value's name in --help     */
    int section;
    const char *help;        /* lines separated by '\n'        */
} option_row_t;

static const option_row_t option_rows[OPT_COUNT] = {
#define SECTION(id, heading, note)
#define OPTION(id, name, letter, arg, metavar, section, help) \
    [OPT_##id] = { name, letter, arg, metavar, SEC_##section, help },
#include "options.def"
#undef SECTION
#undef OPTION
};

/* getopt_long returns OPT_BASE + id for a long option (above every
 * character, so never confused with a short option or ':' / '?'). */
enum { OPT_BASE = 256 };

static const struct option longopts[OPT_COUNT + 1] = {
#define SECTION(id, heading, note)
#define OPTION(id, name, letter, arg, metavar, section, help) \
    { name, arg, NULL, OPT_BASE + OPT_##id },
#include "options.def"
#undef SECTION
#undef OPTION
    { NULL, 0, NULL, 0 }
};

/* "+:" (stop at the program, report a missing value as ':') and each
 * short letter, followed by ':' when it takes a value. */
static const char *short_options(void)
{
    static char s[2 + 2 * OPT_COUNT + 1];
    if (!s[0]) {
        size_t n = 0;
        s[n++] = '+';
        s[n++] = ':';
        for (int k = 0; k < OPT_COUNT; k++) {
            if (!option_rows[k].letter) continue;
            s[n++] = option_rows[k].letter;
            if (option_rows[k].arg == ARG_REQUIRED) s[n++] = ':';
        }
        s[n] = '\0';
    }
    return s;
}

/* The option id of a getopt_long result, or -1 (unknown option). */
static int option_id(int ch)
{
    if (ch >= OPT_BASE && ch < OPT_BASE + OPT_COUNT) return ch - OPT_BASE;
    for (int k = 0; ch > 0 && k < OPT_COUNT; k++)
        if (option_rows[k].letter == ch) return k;
    return -1;
}

/* "-d, --interactive" or "--seed N": the left column of --help. */
static int option_label(const option_row_t *r, char *buf, size_t len)
{
    int n = 0;
    if (r->letter) n = snprintf(buf, len, "-%c, ", r->letter);
    n += snprintf(buf + n, len - (size_t)n, "--%s%s%s", r->name,
                  r->metavar ? " " : "", r->metavar ? r->metavar : "");
    return n;
}

/* Where presets and productions are found (datadir.h): the rule, then this
 * binary's roots, one per line, each starting "  /" or "  ." (the README's
 * usage block shows them as one placeholder line: tests/docs). */
static void print_data_roots(FILE *out)
{
    fputs("\n"
          "data files: --config NAME reads configs/NAME.ini, --acf NAME reads\n"
          "productions/NAME[.acf] (when no such file exists as given), from the\n"
          "first of: the executable's directory, its parent, its\n"
          "../share/hps-sim, the current directory.  This hps-sim searches:\n", out);
    const char *roots[DATADIR_MAX_ROOTS];
    size_t n = datadir_roots(roots);
    for (size_t k = 0; k < n; k++) fprintf(out, "  %s\n", roots[k]);
}

void options_check_export_spec(const char *spec, const char *opt)
{
    if (!spec) return;
    const char *colon = strchr(spec, ':');
    char fmt_name[16];
    export_format_t fmt;
    snprintf(fmt_name, sizeof fmt_name, "%.*s", colon ? (int)(colon - spec) : 0, spec);
    if (!colon || !colon[1] || !export_format_by_name(fmt_name, &fmt))
        bad_input("%s '%s': expected FORMAT:FILE with FORMAT callgrind, pprof or folded",
                  opt, spec);
    FILE *f = fopen(colon + 1, "w");
    if (!f) bad_input("%s: cannot write %s: %s", opt, colon + 1, strerror(errno));
    fclose(f);
}

void options_usage(FILE *out)
{
    char label[128];
    int width = 0;               /* the help column: longest label + 2 */
    for (int k = 0; k < OPT_COUNT; k++) {
        int n = option_label(&option_rows[k], label, sizeof label);
        if (n + 2 > width) width = n + 2;
    }
    fputs("usage: " USAGE_LINE "\n"
          "Simulate a RISC-V (RV64GC) or Alpha Linux program: statically linked,\n"
          "or dynamically linked with --sysroot.\n"
          "\n", out);
    for (int s = 0; s < SEC_COUNT; s++) {
        fprintf(out, "%s:\n", sections[s].heading);
        for (int k = 0; k < OPT_COUNT; k++) {
            const option_row_t *r = &option_rows[k];
            if (r->section != s) continue;
            option_label(r, label, sizeof label);
            fprintf(out, "  %-*s", width, label);
            for (const char *h = r->help; *h; ) {
                size_t n = strcspn(h, "\n");
                fprintf(out, "%.*s\n", (int)n, h);
                h += n;
                if (*h == '\n' && *++h) fprintf(out, "  %*s", width, "");
            }
        }
        if (sections[s].note) fprintf(out, "  %s\n", sections[s].note);
    }
    fputs("\n"
          "exit status: the guest's; 2 bad input; 130/143 interrupted by SIGINT/\n"
          "SIGTERM (statistics and reports of what ran are written); 132 illegal\n"
          "instruction; 133 breakpoint; 135 misaligned atomic access (SIGBUS);\n"
          "136 arithmetic trap (SIGFPE); 137 --host-mem reached (statistics and\n"
          "reports are written); 139 memory fault; 141 the guest wrote to\n"
          "a pipe with no reader (SIGPIPE); 159 unsupported system call; 134\n"
          "every guest thread blocked for ever (deadlock).\n", out);
    print_data_roots(out);
}

/* ---- values ----------------------------------------------------------------- */

_Noreturn void bad_input(const char *fmt, ...)
{
    char msg[2048];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    print_message_line(stderr, "hps-sim", msg);     /* one line, whatever it quotes */
    exit(EXIT_BAD_INPUT);
}

/* Strict unsigned parse with optional decimal suffix k/M/G: digits from
 * the first character (strtoull alone would skip spaces and take a sign). */
static uint64_t parse_count(const char *opt, const char *text)
{
    char *end = NULL;
    if (!text || !isdigit((unsigned char)*text))
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

/* A percentage 0..100 (decimal), as a fraction. */
static double parse_percent(const char *opt, const char *text)
{
    char *end = NULL;
    errno = 0;
    double v = text && (isdigit((unsigned char)*text) || *text == '.') ? strtod(text, &end) : -1;
    if (v < 0 || v > 100 || errno || !end || *end)
        bad_input("%s: expected a percentage from 0 to 100, got '%s'", opt, text ? text : "");
    return v / 100.0;
}

/* A memory size: digits with an optional binary suffix k/K, M, G, T (KiB,
 * MiB, GiB, TiB; "KiB" and "KB" spellings too), at least 1 MiB. */
static uint64_t parse_size(const char *opt, const char *text)
{
    static const char suffixes[] = "KMGT";
    char *end = NULL;
    if (!text || !isdigit((unsigned char)*text))
        bad_input("%s: expected a size such as 64M or 16G, got '%s'", opt, text ? text : "");
    errno = 0;
    unsigned long long v = strtoull(text, &end, 10);
    unsigned shift = 0;
    const char *unit = *end ? strchr(suffixes, toupper((unsigned char)*end)) : NULL;
    if (unit) {
        shift = 10 * (unsigned)(unit - suffixes + 1);
        end++;
        if (!strcmp(end, "iB") || !strcmp(end, "B")) end += strlen(end);
    }
    if (errno || *end || v > (UINT64_MAX >> shift))
        bad_input("%s: expected a size such as 64M or 16G, got '%s'", opt, text);
    uint64_t bytes = (uint64_t)v << shift;
    if (bytes < (1u << 20)) bad_input("%s: %s is less than the least size, 1M", opt, text);
    return bytes;
}

/* A sampling frequency: "1/1000" or "0.001", in (0, 1]. */
static double parse_rate(const char *text)
{
    char *end = NULL;
    double v;
    errno = 0;
    if (!strncmp(text, "1/", 2)) {
        double d = strtod(text + 2, &end);
        v = end != text + 2 && d > 0 ? 1.0 / d : -1;
    } else {
        v = strtod(text, &end);
    }
    if (errno || end == text || *end || !(v > 0 && v <= 1))
        bad_input("--rate: expected a sampling frequency in (0, 1] such as 1/1000 or 0.001, "
                  "got '%s'", text);
    return v;
}

/* --sysroot must name an existing directory. */
static const char *check_sysroot(const char *dir)
{
    struct stat st;
    if (!*dir)
        bad_input("--sysroot: expected a directory such as /usr/riscv64-linux-gnu, got ''");
    if (stat(dir, &st) != 0)
        bad_input("--sysroot %s: %s; expected a directory holding the dynamic linker and "
                  "libraries, such as /usr/riscv64-linux-gnu or /usr/alpha-linux-gnu",
                  dir, strerror(errno));
    if (!S_ISDIR(st.st_mode))
        bad_input("--sysroot %s: not a directory; expected a directory such as "
                  "/usr/riscv64-linux-gnu or /usr/alpha-linux-gnu", dir);
    return dir;
}

/* --fs-root must name an existing directory. */
static const char *check_fs_root(const char *dir)
{
    struct stat st;
    if (!*dir) bad_input("--fs-root: expected a directory to be the guest's /, got ''");
    if (stat(dir, &st) != 0)
        bad_input("--fs-root %s: %s; expected a directory to be the guest's /", dir,
                  strerror(errno));
    if (!S_ISDIR(st.st_mode))
        bad_input("--fs-root %s: not a directory; expected a directory to be the guest's /",
                  dir);
    return dir;
}

/* --bind HOST:GUEST or HOST:GUEST:ro (or :rw): HOST an existing host
 * directory or file, GUEST an absolute guest path. */
static void add_bind(options_t *o, const char *spec)
{
    if (o->nbinds == OPT_MAX_BINDS) bad_input("--bind %s: at most %d binds", spec, OPT_MAX_BINDS);
    char *host = xstrdup(spec), *guest = strrchr(host, ':');
    bool ro = false;
    if (guest && (!strcmp(guest, ":ro") || !strcmp(guest, ":rw"))) {
        ro = guest[2] == 'o';
        *guest = '\0';
        guest = strrchr(host, ':');
    }
    if (!guest || guest == host || guest[1] != '/') {
        free(host);
        bad_input("--bind '%s': expected HOST:GUEST or HOST:GUEST:ro, HOST a host directory "
                  "or file and GUEST an absolute path in the guest (e.g. --bind /data:/data:ro)",
                  spec);
    }
    *guest++ = '\0';
    o->binds[o->nbinds].host = host;              /* kept (reachable) before any exit */
    o->binds[o->nbinds].guest = xstrdup(guest);
    o->binds[o->nbinds++].ro = ro;
    struct stat st;
    if (stat(host, &st) != 0)
        bad_input("--bind %s: %s: %s; expected an existing host directory or file", spec, host,
                  strerror(errno));
}

/* ---- the guest's environment ------------------------------------------------- */

extern char **environ;

typedef struct env_list {
    char **vars;                     /* NULL-terminated, each malloc'd */
    size_t count;
} env_list_t;

static size_t name_length(const char *var)
{
    const char *eq = strchr(var, '=');
    return eq ? (size_t)(eq - var) : strlen(var);
}

/* Add NAME=VALUE, replacing an earlier NAME. */
static void env_put(env_list_t *env, const char *var)
{
    size_t n = name_length(var);
    for (size_t k = 0; k < env->count; k++) {
        if (name_length(env->vars[k]) == n && !strncmp(env->vars[k], var, n)) {
            free(env->vars[k]);
            env->vars[k] = xstrdup(var);
            return;
        }
    }
    env->vars = xrealloc(env->vars, (env->count + 2) * sizeof *env->vars);
    env->vars[env->count++] = xstrdup(var);
    env->vars[env->count] = NULL;
}

/* One --env argument: NAME=VALUE, or NAME for hps-sim's own value (nothing
 * when hps-sim has none). */
static void env_assign(env_list_t *env, const char *arg)
{
    size_t n = name_length(arg);
    if (!n) bad_input("--env: expected NAME=VALUE or NAME, got '%s'", arg);
    if (arg[n] == '=') { env_put(env, arg); return; }
    const char *value = getenv(arg);
    if (!value) return;
    char *var = xcalloc(1, n + strlen(value) + 2);
    sprintf(var, "%s=%s", arg, value);
    env_put(env, var);
    free(var);
}

/* The guest's environment: empty, or hps-sim's own with --env-host, then
 * the --env assignments in order.  Taken before anything (readline sets
 * LINES and COLUMNS) changes hps-sim's. */
static char **guest_environment(bool from_host, const char *const *assigns, int nassigns)
{
    env_list_t env = { .vars = xcalloc(1, sizeof(char *)), .count = 0 };
    for (char **v = environ; from_host && v && *v; v++) env_put(&env, *v);
    for (int k = 0; k < nassigns; k++) env_assign(&env, assigns[k]);
    return env.vars;
}

void options_free(options_t *o)
{
    for (int k = 0; k < o->nbinds; k++) {
        free(o->binds[k].host);
        free(o->binds[k].guest);
    }
    o->nbinds = 0;
    for (char **v = o->guest_env; v && *v; v++) free(*v);
    free(o->guest_env);
    o->guest_env = NULL;
}

/* ---- combinations ------------------------------------------------------------ */

/* --sample times only its windows: it needs a timing model, and refuses
 * what needs every instruction timed. */
static void check_sample(const options_t *o)
{
    if (!o->sample) return;
    if (o->cfg.model == CFG_MODEL_FUNCTIONAL)
        bad_input("--sample needs a timing model (--config inorder5, ev5, r10k or hps)");
    static const char *const needs[] = {      /* the option, and what it needs */
        "--acf", "the HPS report's cycles and overhead of every instruction",
        "--dcpi", "counter samples over every cycle",
        "--csprof", "counter samples over every cycle",
        "--cct", "the cycles of every calling context",
        "--paths", "the cycles of every path",
        "--pipeview", "every instruction's pipeline stages",
        "--o3pipeview", "every instruction's pipeline stages",
        "--pipe-diagram", "every instruction's pipeline stages",
        "--ground-truth", "the head cycles of every instruction",
        "--interactive", "every instruction's pipeline stages and cycles",
    };
    const bool given[] = { o->acf_path, o->dcpi_db, o->csprof, o->cct, o->paths_path,
                           o->pipeview_path, o->o3pipeview_path, o->pipe_diagram, o->truth_path,
                           o->interactive };
    for (size_t k = 0; k < sizeof given / sizeof given[0]; k++)
        if (given[k])
            bad_input("--sample cannot be combined with %s, which needs %s: a sampled run "
                      "times only its windows", needs[2 * k], needs[2 * k + 1]);
}

/* Whether the translator can run this run's blocks: a run whose engine
 * runs the functional core's blocks (with the ground-truth recorder or
 * without), nothing observing each step, nothing that stops it at an
 * instruction to take a checkpoint, and not the shell. */
static bool jit_fits(const options_t *o)
{
    return o->cfg.model == CFG_MODEL_FUNCTIONAL && !o->trace_path && !o->paths_path && !o->cct &&
           !o->csprof && !o->interactive && !o->sample && !o->checkpoint_at;
}

/* --jit: an x86-64 host and a run it fits, else refused.  --no-jit: the
 * block loop.  Neither (the default): the translator where it fits, on a
 * host that can run it, with --acf or without (it runs DISE's classified
 * instructions as the block loop does); every other run is the block
 * loop's or the step loop's, silently. */
static void check_jit(options_t *o)
{
    const char *why;
    if (o->jit && o->no_jit) bad_input("--jit and --no-jit exclude each other");
    if (o->jit) {
        if (!jit_supported(&why)) bad_input("%s", why);
        if (!jit_fits(o))
            bad_input("--jit runs the functional core alone: it cannot be combined with a "
                      "timing model, --trace, --paths, --cct, --csprof, --sample, "
                      "--checkpoint-at or --interactive");
    }
    o->jit_auto = !o->jit && !o->no_jit && jit_fits(o) && jit_supported(&why);
}

/* Options that only make sense with others, and options that exclude each
 * other: every such rule is here, checked in this order once the whole
 * command line (and the configuration) is known. */
static void check_combinations(options_t *o)
{
    ckpt_run_check_options(o);
    if ((o->pipeview_path || o->o3pipeview_path || o->pipe_diagram || o->truth_path) &&
        o->cfg.model == CFG_MODEL_FUNCTIONAL)
        bad_input("--pipeview, --o3pipeview, --pipe-diagram and --ground-truth need a timing "
                  "model (--config inorder5, ev5 or r10k)");
    if (o->view_count > UINT64_MAX - o->view_from)
        bad_input("--view-from %" PRIu64 " with --view-count %" PRIu64 ": the window would end "
                  "past instruction 2^64 - 1", o->view_from, o->view_count);
    if ((o->rate || o->burst || o->nparams || o->print_acf || o->profile_out ||
         o->handlers_given) && !o->acf_path)
        bad_input("--param, --rate, --burst, --print-acf, --profile-out and --handlers need "
                  "--acf FILE");
    if ((o->cct || o->csprof) && o->interactive)
        bad_input("--cct and --csprof cannot run in the --interactive shell");
    if ((o->cct_out || o->cct_min >= 0) && !o->cct && !o->csprof)
        bad_input("--cct-out and --cct-min need --cct or --csprof");
    if (o->csprof_out && !o->csprof) bad_input("--csprof-out needs --csprof");
    if (o->csprof_unwinder_set && !o->csprof) bad_input("--csprof-unwinder needs --csprof");
    if (o->csprof && o->cfg.model == CFG_MODEL_FUNCTIONAL)
        bad_input("--csprof needs a timing model to count cycles (--config inorder5, ev5 or r10k)");
    if (o->csprof && (o->dcpi_db || o->acf_path || o->interactive))
        bad_input("--csprof cannot run with --dcpi, --acf or --interactive (one owner of the "
                  "counters and the stream)");
    if (o->paths_export && !o->paths_path)
        bad_input("--paths-export needs --paths FILE");
    options_check_export_spec(o->paths_export, "--paths-export");
    check_sample(o);
    check_jit(o);
    if (o->report_path && !o->acf_path && !o->dcpi_db && !o->cct && !o->csprof && !o->paths_path &&
        !o->sample)
        bad_input("--report needs --acf FILE, --dcpi DB, --cct, --csprof, --paths FILE or "
                  "--sample");
    if ((o->dcpi_events || o->dcpi_new_epoch) && !o->dcpi_db)
        bad_input("--dcpi-events and --dcpi-new-epoch need --dcpi DB");
    if (o->values && !o->dcpi_db)
        bad_input("--values samples values at the DCPI interrupts: it needs --dcpi DB");
    if (o->values && o->acf_path)
        bad_input("--values cannot be combined with --acf (both edit the program's decoded "
                  "instructions)");
    if ((o->dcpi_precise || o->profileme) && !o->dcpi_db)
        bad_input("--dcpi-precise and --profileme need --dcpi DB (their samples go through "
                  "the DCPI driver into the database)");
    if (o->dcpi_precise > 3)
        bad_input("--dcpi-precise: expected a level 0..3, got %" PRIu64, o->dcpi_precise);
    if (o->dcpi_precise && o->profileme && !o->dcpi_events)
        bad_input("--dcpi-precise sets how counter samples are attributed, but with --profileme "
                  "no counter runs unless --dcpi-events names some");
    if (o->dcpi_db && o->cfg.model == CFG_MODEL_FUNCTIONAL)
        bad_input("--dcpi needs a timing model to count cycles (--config inorder5, ev5 or r10k)");
    if (o->interactive && (o->dcpi_db || o->trace_path || o->pipeview_path ||
                           o->o3pipeview_path || o->pipe_diagram || o->truth_path ||
                           o->paths_path))
        bad_input("--interactive steps plain runs (or runs with --acf): it cannot be combined "
                  "with --dcpi, --trace, --pipeview, --o3pipeview, --pipe-diagram, "
                  "--ground-truth or --paths");
}

/* ---- the command line -------------------------------------------------------- */

/* --handlers c|asm: a runtime_handlers_t. */
static int parse_handlers(const char *arg)
{
    for (int k = 0; k < 2; k++)
        if (!strcmp(arg, runtime_handlers_names[k])) return k;
    bad_input("--handlers: expected c or asm, got '%s'", arg);
}

void parse_options(int argc, char **argv, options_t *o)
{
    memset(o, 0, sizeof *o);
    o->seed = 1;
    o->view_count = 200;
    o->top_n = 10;
    o->cct_min = -1;                 /* not given: 1% */
    o->handlers = RUNTIME_HANDLERS_ASM;
    config_defaults(&o->cfg);
    char err[512];
    o->trace_limit = 100000;
    o->guest_mem = 16ull << 30;
    /* --set values apply after the last --config, whatever their order;
     * static, so they stay reachable when an error exits (LeakSanitizer) */
    static const char **sets, **envs;
    sets = calloc((size_t)argc, sizeof *sets);
    envs = calloc((size_t)argc, sizeof *envs);
    int nsets = 0, nenvs = 0;
    bool env_host = false;
    if (!sets || !envs) bad_input("out of host memory");
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, short_options(), longopts, NULL)) != -1) {
        if (ch == ':')
            bad_input("option '%s' needs a value (see hps-sim --help)", argv[optind - 1]);
        switch (option_id(ch)) {
        case OPT_MAX_INSTS:   o->max_insts = parse_count("--max-insts", optarg); break;
        case OPT_STATS:       o->stats_path = optarg; break;
        case OPT_STATS_JSON:  o->stats_json_path = optarg; break;
        case OPT_TRACE:       o->trace_path = optarg; break;
        case OPT_TRACE_LIMIT: o->trace_limit = parse_count("--trace-limit", optarg); break;
        case OPT_SEED:        o->seed = parse_count("--seed", optarg); break;
        case OPT_THREAD_QUANTUM:
            o->thread_quantum = parse_count("--thread-quantum", optarg);
            if (!o->thread_quantum) bad_input("--thread-quantum: expected at least 1, got '%s'", optarg);
            break;
        case OPT_NO_TRUTH:    o->no_truth = true; break;
        case OPT_JIT:         o->jit = true; break;
        case OPT_NO_JIT:      o->no_jit = true; break;
        case OPT_CHECKPOINT_AT:
            o->checkpoint_at = parse_count("--checkpoint-at", optarg);
            if (!o->checkpoint_at) bad_input("--checkpoint-at: expected at least 1, got '%s'", optarg);
            break;
        case OPT_CHECKPOINT_OUT: o->checkpoint_out = optarg; break;
        case OPT_RESTORE:     o->restore = optarg; break;
        case OPT_GUEST_MEM:   o->guest_mem = parse_size("--guest-mem", optarg); break;
        case OPT_HOST_MEM:    o->host_mem = parse_size("--host-mem", optarg); break;
        case OPT_SYSROOT:     o->sysroot = check_sysroot(optarg); break;
        case OPT_ENV:         envs[nenvs++] = optarg; break;
        case OPT_ENV_HOST:    env_host = true; break;
        case OPT_CWD:
            if (!*optarg) bad_input("--cwd: expected a directory, got ''");
            o->cwd = optarg;
            break;
        case OPT_FS_ROOT:     o->fs_root = check_fs_root(optarg); break;
        case OPT_BIND:        add_bind(o, optarg); break;
        case OPT_DUMP_CONFIG: o->dump_config = optarg; break;
        case OPT_CONFIG:
            if (!config_load(&o->cfg, optarg, err, sizeof err)) bad_input("%s", err);
            break;
        case OPT_SET:         sets[nsets++] = optarg; break;
        case OPT_PRINT_CONFIG: o->print_config = true; break;
        case OPT_PIPEVIEW:    o->pipeview_path = optarg; break;
        case OPT_O3PIPEVIEW:  o->o3pipeview_path = optarg; break;
        case OPT_PIPE_DIAGRAM: o->pipe_diagram = true; break;
        case OPT_VIEW_FROM:   o->view_from = parse_count("--view-from", optarg); break;
        case OPT_VIEW_COUNT:  o->view_count = parse_count("--view-count", optarg); break;
        case OPT_TRUTH_FILE:  o->truth_path = optarg; break;
        case OPT_SAMPLE:
            if (!smarts_parse(optarg, &o->sample_plan, err, sizeof err))
                bad_input("--sample: %s", err);
            o->sample = true;
            break;
        case OPT_ACF:         o->acf_path = optarg; break;
        case OPT_PARAM:
            if (o->nparams == DISE_MAX_PARAMS) bad_input("--param: at most %d", DISE_MAX_PARAMS);
            o->params[o->nparams++] = optarg;
            break;
        case OPT_RATE:        o->rate = parse_rate(optarg); break;
        case OPT_BURST:
            o->burst = parse_count("--burst", optarg);
            if (!o->burst) bad_input("--burst: expected a burst length of at least 1, got '%s'", optarg);
            break;
        case OPT_PRINT_ACF:   o->print_acf = true; break;
        case OPT_REPORT:      o->report_path = optarg; break;
        case OPT_PROFILE_OUT: o->profile_out = optarg; break;
        case OPT_PATHS:       o->paths_path = optarg; break;
        case OPT_PATHS_EXPORT: o->paths_export = optarg; break;
        case OPT_TOP:         o->top_n = parse_count("--top", optarg); break;
        case OPT_NO_BASELINE: o->no_baseline = true; break;
        case OPT_HANDLERS:    o->handlers = parse_handlers(optarg); o->handlers_given = true; break;
        case OPT_DCPI:
            if (!*optarg) bad_input("--dcpi: expected a database directory, got ''");
            o->dcpi_db = optarg;
            break;
        case OPT_DCPI_EVENTS: o->dcpi_events = optarg; break;
        case OPT_DCPI_NEW_EPOCH: o->dcpi_new_epoch = true; break;
        case OPT_VALUES:      o->values = optarg; break;
        case OPT_CCT:         o->cct = true; break;
        case OPT_CCT_OUT:     o->cct_out = optarg; break;
        case OPT_CCT_MIN:     o->cct_min = parse_percent("--cct-min", optarg); break;
        case OPT_CSPROF:      o->csprof = optarg; break;
        case OPT_CSPROF_OUT:  o->csprof_out = optarg; break;
        case OPT_CSPROF_UNWINDER:
            if (strcmp(optarg, "guest") && strcmp(optarg, "host"))
                bad_input("--csprof-unwinder '%s': expected guest or host", optarg);
            o->csprof_host_unwinder = !strcmp(optarg, "host");
            o->csprof_unwinder_set = true;
            break;
        case OPT_DCPI_PRECISE: o->dcpi_precise = parse_count("--dcpi-precise", optarg); break;
        case OPT_PROFILEME:   o->profileme = optarg; break;
        case OPT_INTERACTIVE: o->interactive = true; break;
        case OPT_HELP:        options_usage(stdout); exit(0);
        case OPT_VERSION:     printf("hps-sim %s\n", provenance_version()); exit(0);
        default:
            bad_input("unknown option '%s' (see hps-sim --help)", argv[optind - 1]);
        }
    }
    for (int k = 0; k < nsets; k++)
        if (!config_set(&o->cfg, sets[k], err, sizeof err)) bad_input("%s", err);
    free(sets);
    o->guest_env = guest_environment(env_host, envs, nenvs);
    free(envs);
    if (!config_validate(&o->cfg, err, sizeof err)) bad_input("%s", err);
    if (o->print_config) {
        config_print(&o->cfg, stdout);
        exit(0);
    }
    check_combinations(o);
    if (optind >= argc) bad_input("no program given (usage: " USAGE_LINE ")");
    o->guest_argc = argc - optind;
    o->guest_argv = argv + optind;
}
