/*
 * options.h - the hps-sim command line: the parsed options (options_t),
 * parse_options() and bad_input(), the one-line "hps-sim: ..." error with
 * exit status 2 that every kind of bad input (options, files) ends with.
 * The options themselves are declared once in sim/options.def; the getopt
 * table, the option ids and the --help text are generated from it
 * (sim/options.c).
 */
#ifndef HPS_OPTIONS_H
#define HPS_OPTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "config.h"
#include "dise.h"
#include "smarts.h"

#define OPT_MAX_BINDS 16

typedef struct options {
    uint64_t max_insts;
    uint64_t seed;
    uint64_t thread_quantum;         /* --thread-quantum, 0 = the default */
    uint64_t checkpoint_at;          /* --checkpoint-at N (0: none)       */
    const char *checkpoint_out;      /* --checkpoint-out FILE             */
    const char *restore;             /* --restore FILE                    */
    uint64_t trace_limit;
    const char *stats_path;
    const char *stats_json_path;
    const char *trace_path;
    bool no_truth;
    bool jit;                        /* --jit: the translator (jit.h) runs the blocks */
    bool no_jit;                     /* --no-jit: the block loop runs them */
    bool jit_auto;                   /* neither, and the run is one the translator
                                        supports: it runs the blocks (the default) */
    const char *paths_path;          /* --paths: the path profile TSV      */
    const char *paths_export;        /* --paths-export FMT:FILE            */
    uint64_t guest_mem;              /* --guest-mem bytes (default 16 GiB) */
    uint64_t host_mem;               /* --host-mem bytes, 0 = no bound    */
    config_t cfg;
    bool print_config;
    const char *pipeview_path;
    const char *o3pipeview_path;     /* --o3pipeview                      */
    bool pipe_diagram;
    uint64_t view_from, view_count;
    const char *truth_path;
    bool sample;                     /* --sample: sampled simulation       */
    smarts_plan_t sample_plan;       /* its unit, warm-up and period       */
    const char *acf_path;
    const char *params[DISE_MAX_PARAMS];
    int nparams;
    double rate;                     /* --rate, 0 = not given             */
    uint64_t burst;                  /* --burst, 0 = not given            */
    bool print_acf, no_baseline;
    int handlers;                    /* --handlers: runtime_handlers_t    */
    bool handlers_given;
    const char *report_path;
    const char *profile_out;
    const char *sysroot;             /* --sysroot: ld.so and libraries   */
    char **guest_env;                /* NAME=VALUE strings, NULL-terminated:
                                        empty unless --env / --env-host    */
    const char *cwd;                 /* --cwd, or NULL: the current dir   */
    const char *fs_root;             /* --fs-root, or NULL: the host's /
                                        read-only, the cwd read-write     */
    struct {                         /* --bind HOST:GUEST[:ro], in order  */
        char *host, *guest;
        bool ro;
    } binds[OPT_MAX_BINDS];
    int nbinds;
    const char *dump_config;         /* --dump-config FILE                */
    const char *dcpi_db;             /* --dcpi: the profile database      */
    const char *dcpi_events;         /* --dcpi-events                     */
    bool dcpi_new_epoch;
    const char *values;              /* --values: kinds and parameters    */
    bool cct;                        /* --cct: the exact calling contexts */
    const char *cct_out;             /* --cct-out FMT:FILE                */
    double cct_min;                  /* --cct-min, a fraction; -1: not given */
    const char *csprof;              /* --csprof EVENT[:MIN-MAX]          */
    const char *csprof_out;          /* --csprof-out FMT:FILE             */
    bool csprof_host_unwinder;       /* --csprof-unwinder host            */
    bool csprof_unwinder_set;
    uint64_t dcpi_precise;           /* --dcpi-precise 0..3               */
    const char *profileme;           /* --profileme P[:W]                 */
    bool interactive;                /* --interactive: the teaching shell */
    uint64_t top_n;
    int guest_argc;
    char **guest_argv;
} options_t;

/* "hps-sim: " + the message on stderr, then exit(EXIT_BAD_INPUT). */
_Noreturn void bad_input(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* Fill *o from the command line; on bad input print one line and exit 2.
 * --help, --version and --print-config print and exit 0.  Afterwards
 * o->guest_argv[0] is the program and o->guest_argc >= 1. */
void parse_options(int argc, char **argv, options_t *o);

/* Free what parse_options allocated (the guest environment). */
void options_free(options_t *o);

/* The --help text (generated from sim/options.def). */
void options_usage(FILE *out);
/* An export option's "FORMAT:FILE" (--cct-out, --csprof-out,
 * --paths-export): a known format (export.h) and a file that can be
 * written, checked before the run so a bad one loses no simulation;
 * bad_input otherwise.  NULL (not given) is fine. */
void options_check_export_spec(const char *spec, const char *opt);

#endif
