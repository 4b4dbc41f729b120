/*
 * mkprof.c - writes profiles whose answers are known, for tests/dcpitools:
 *
 *   mkprof db DB IMAGE EVENT MIN-MAX OFFSET:COUNT...
 *       merges the samples into the newest epoch of DB (profdb's API, as
 *       hps-sim --dcpi does); "--new" before DB starts a new epoch
 *   mkprof cct PREFIX
 *       a calling context profile of known stacks, written by the exporter
 *       as PREFIX.callgrind, PREFIX.pprof and PREFIX.folded:
 *         main;parse;lex  cycles 50 insts 5    main called parse 2 times,
 *         main;parse      cycles 20 insts 2    parse called lex 7 times
 *         main;eval       cycles 30 insts 3    (main -> eval: count unknown)
 *         main            cycles 10 insts 1
 *       inclusive cycles: main 110, parse 70, lex 50, eval 30
 * Status 2 and a message on bad arguments.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export.h"
#include "profdb.h"
#include "profile.h"

static int fail(const char *msg)
{
    fprintf(stderr, "mkprof: %s\n", msg);
    return 2;
}

static int make_db(int argc, char **argv)
{
    bool new_epoch = argc > 0 && !strcmp(argv[0], "--new");
    if (new_epoch) { argc--; argv++; }
    if (argc < 5) return fail("usage: mkprof db [--new] DB IMAGE EVENT MIN-MAX OFFSET:COUNT...");
    uint64_t lo, hi;
    if (sscanf(argv[3], "%" SCNu64 "-%" SCNu64, &lo, &hi) != 2) return fail("bad MIN-MAX");
    profile_t *p = profile_new();
    for (int k = 4; k < argc; k++) {
        uint64_t off, n;
        if (sscanf(argv[k], "%" SCNx64 ":%" SCNu64, &off, &n) != 2) return fail("bad OFFSET:COUNT");
        profile_add(p, off, 0, n);
    }
    char epoch[4096], err[4096];
    bool ok = profdb_epoch(argv[0], new_epoch, epoch, sizeof epoch, err, sizeof err) &&
              profdb_merge(epoch, argv[1], argv[2], lo, hi, p, err, sizeof err);
    profile_free(p);
    return ok ? 0 : fail(err);
}

static uint32_t frame(export_profile_t *x, const char *fn, uint64_t entry, uint64_t addr)
{
    export_frame_t f = { fn, "prog.c", "/bin/prog", addr, entry, 0 };
    return export_frame(x, &f);
}

static int make_cct(const char *prefix)
{
    static const char *const events[] = { "cycles", "insts" };
    export_profile_t *x = export_new("mkprof", 2, events, NULL);
    /* frames: the call site in each caller, the sampled pc in the leaf */
    uint32_t main_parse = frame(x, "main", 0x1000, 0x1010), main_eval = frame(x, "main", 0x1000, 0x1020),
             main_self = frame(x, "main", 0x1000, 0x1004), parse_lex = frame(x, "parse", 0x2000, 0x2008),
             parse_self = frame(x, "parse", 0x2000, 0x2010), lex = frame(x, "lex", 0x3000, 0x3004),
             eval = frame(x, "eval", 0x4000, 0x4000);
    uint32_t s1[] = { main_parse, parse_lex, lex }, s2[] = { main_parse, parse_self },
             s3[] = { main_eval, eval }, s4[] = { main_self };
    export_add_stack(x, s1, 3, (uint64_t[]){ 50, 5 });
    export_add_stack(x, s2, 2, (uint64_t[]){ 20, 2 });
    export_add_stack(x, s3, 2, (uint64_t[]){ 30, 3 });
    export_add_stack(x, s4, 1, (uint64_t[]){ 10, 1 });
    export_add_calls(x, s1, 2, 2);          /* main -> parse (at main's call site) */
    export_add_calls(x, s1, 3, 7);          /* parse -> lex */
    static const char *const suffix[] = { "callgrind", "pprof", "folded" };
    char path[4096], err[4200];
    bool ok = true;
    for (int k = 0; k < 3 && ok; k++) {
        snprintf(path, sizeof path, "%s.%s", prefix, suffix[k]);
        ok = export_write(x, (export_format_t)k, 0, path, err, sizeof err);
    }
    export_free(x);
    return ok ? 0 : fail(err);
}

int main(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "db")) return make_db(argc - 2, argv + 2);
    if (argc == 3 && !strcmp(argv[1], "cct")) return make_cct(argv[2]);
    return fail("usage: mkprof db ... | mkprof cct PREFIX");
}
