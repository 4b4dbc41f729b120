/*
 * test_config.c - unit tests of the configuration system: defaults, the
 * presets, every value type and its errors, file:line in messages, unknown
 * keys, [section] prefixes, --set overrides, cross-parameter validation,
 * and config_print output read back as a config file.
 * Run from the top of the tree (presets are found in ./configs).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpred.h"
#include "cache.h"
#include "config.h"

/* ---- helpers ------------------------------------------------------------------ */

/* Write text to a fresh /tmp/....ini file; its name in path. */
static void write_temp(const char *text, char *path, size_t len)
{
    snprintf(path, len, "/tmp/hps-test-config-XXXXXX.ini");
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* Load text as a file over the defaults; returns the result, err filled. */
static bool load_text(config_t *cfg, const char *text, char *path, char *err, size_t errlen)
{
    config_defaults(cfg);
    write_temp(text, path, 64);
    bool ok = config_load(cfg, path, err, errlen);
    unlink(path);
    return ok;
}

/* Expect loading text to fail with exactly "PATH:<rest>". */
static void expect_file_error(const char *text, const char *rest)
{
    config_t cfg, before;
    char path[64], err[512], want[600];
    config_defaults(&before);
    assert_false(load_text(&cfg, text, path, err, sizeof err));
    snprintf(want, sizeof want, "%s%s", path, rest);
    assert_string_equal(err, want);
    assert_memory_equal(&cfg, &before, sizeof cfg);     /* unchanged on error */
}

static void expect_set(const char *assignment, const char *key, uint64_t want)
{
    config_t cfg;
    char err[512] = "";
    config_defaults(&cfg);
    if (!config_set(&cfg, assignment, err, sizeof err)) fail_msg("%s: %s", assignment, err);
    const cfg_param_t *p = config_find(key);
    assert_non_null(p);
    assert_int_equal(*(uint64_t *)((char *)&cfg + p->offset), want);
}

static void expect_set_error(const char *assignment, const char *want)
{
    config_t cfg, before;
    char err[512] = "";
    config_defaults(&cfg);
    before = cfg;
    assert_false(config_set(&cfg, assignment, err, sizeof err));
    assert_string_equal(err, want);
    assert_memory_equal(&cfg, &before, sizeof cfg);
}

/* Apply the assignments (NULL-terminated), then expect validation to fail
 * with exactly `want`. */
static void expect_invalid(const char *want, ...)
{
    config_t cfg;
    char err[512];
    config_defaults(&cfg);
    va_list ap;
    va_start(ap, want);
    for (const char *a; (a = va_arg(ap, const char *));)
        if (!config_set(&cfg, a, err, sizeof err)) fail_msg("%s: %s", a, err);
    va_end(ap);
    assert_false(config_validate(&cfg, err, sizeof err));
    assert_string_equal(err, want);
}

static uint64_t get(const config_t *cfg, const char *key)
{
    const cfg_param_t *p = config_find(key);
    assert_non_null(p);
    return *(const uint64_t *)((const char *)cfg + p->offset);
}

static bool same_values(const config_t *a, const config_t *b)
{
    for (size_t i = 0; i < cfg_param_count; i++)
        if (get(a, cfg_params[i].key) != get(b, cfg_params[i].key)) {
            print_error("%s differs\n", cfg_params[i].key);
            return false;
        }
    return true;
}

/* ---- tests ------------------------------------------------------------------------- */

static void test_defaults(void **state)
{
    (void)state;
    config_t cfg;
    char err[512];
    config_defaults(&cfg);
    assert_string_equal(cfg.source, "defaults");
    assert_int_equal(cfg.model, CFG_MODEL_FUNCTIONAL);
    assert_int_equal(cfg.inorder5_branch_resolve, CFG_RESOLVE_EX);
    assert_true(cfg.inorder5_forward_ex_ex && cfg.inorder5_forward_mem_ex);
    assert_int_equal(cfg.l1d_size, 16384);
    assert_int_equal(cfg.l1d_line, 32);
    assert_int_equal(cfg.l2_size, 256 * 1024);
    assert_int_equal(cfg.mem_page_size, 4096);
    assert_int_equal(cfg.bpred_kind, BP_BIMODAL);
    assert_int_equal(cfg.lat_load_use, 2);
    assert_true(config_validate(&cfg, err, sizeof err));
    assert_true(cfg_param_count >= 60);
}

/* Every default is written the way config_print writes it, keys are
 * unique and lower case, descriptions fit on a line. */
static void test_table_canonical(void **state)
{
    (void)state;
    config_t cfg;
    config_defaults(&cfg);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    config_print(&cfg, f);
    fclose(f);
    for (size_t i = 0; i < cfg_param_count; i++) {
        const cfg_param_t *p = &cfg_params[i];
        assert_ptr_equal(config_find(p->key), p);
        for (const char *c = p->key; *c; c++)
            assert_true((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '.' || *c == '_');
        assert_true(strlen(p->desc) < 90);
        char want[128], needle[64];
        snprintf(want, sizeof want, "(default %s)\n", p->def);
        snprintf(needle, sizeof needle, "\n%-24s = ", p->key);
        char *line = strstr(text, needle);
        assert_non_null(line);
        char *eol = strchr(line + 1, '\n');
        assert_non_null(eol);
        assert_memory_equal(eol + 1 - strlen(want), want, strlen(want));
    }
    free(text);
}

static void test_enum_orders(void **state)
{
    (void)state;
    assert_string_equal(config_enum_name("model", CFG_MODEL_FUNCTIONAL), "functional");
    assert_string_equal(config_enum_name("model", CFG_MODEL_INORDER5), "inorder5");
    assert_string_equal(config_enum_name("model", CFG_MODEL_EV5), "ev5");
    assert_string_equal(config_enum_name("inorder5.branch_resolve", CFG_RESOLVE_ID), "id");
    assert_string_equal(config_enum_name("inorder5.branch_resolve", CFG_RESOLVE_EX), "ex");
    assert_string_equal(config_enum_name("inorder5.branch_resolve", CFG_RESOLVE_MEM), "mem");
    static const char *const caches[] = { "l1i.repl", "l1d.repl", "l2.repl" };
    for (int i = 0; i < 3; i++) {
        assert_string_equal(config_enum_name(caches[i], REPL_LRU), "lru");
        assert_string_equal(config_enum_name(caches[i], REPL_RANDOM), "random");
        assert_string_equal(config_enum_name(caches[i], REPL_ROUND_ROBIN), "round_robin");
    }
    assert_string_equal(config_enum_name("bpred.kind", BP_NOT_TAKEN), "not_taken");
    assert_string_equal(config_enum_name("bpred.kind", BP_BIMODAL), "bimodal");
    assert_string_equal(config_enum_name("bpred.kind", BP_GSHARE), "gshare");
    assert_string_equal(config_enum_name("bpred.kind", BP_TOURNAMENT), "tournament");
    assert_null(config_enum_name("bpred.kind", 4));
    assert_null(config_enum_name("l1d.size", 0));
    assert_null(config_enum_name("no.such", 0));
}

static void test_preset_inorder5(void **state)
{
    (void)state;
    config_t cfg, defaults;
    char err[512] = "";
    config_defaults(&cfg);
    config_defaults(&defaults);
    if (!config_load(&cfg, "inorder5", err, sizeof err)) fail_msg("%s", err);
    assert_string_equal(cfg.source, "inorder5");
    assert_int_equal(cfg.model, CFG_MODEL_INORDER5);
    /* the defaults are this machine: only the model differs */
    defaults.model = CFG_MODEL_INORDER5;
    assert_true(same_values(&cfg, &defaults));
}

static void test_preset_ev5(void **state)
{
    (void)state;
    config_t cfg;
    char err[512] = "";
    config_defaults(&cfg);
    if (!config_load(&cfg, "ev5", err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(cfg.model, CFG_MODEL_EV5);
    assert_int_equal(cfg.cpu_freq_mhz, 300);
    assert_int_equal(cfg.ev5_width, 4);
    assert_int_equal(cfg.ev5_int_pipes, 2);
    assert_int_equal(cfg.ev5_fp_pipes, 2);
    assert_int_equal(cfg.l1i_size, 8192);
    assert_int_equal(cfg.l1i_assoc, 1);
    assert_int_equal(cfg.l1d_size, 8192);
    assert_int_equal(cfg.l1d_line, 32);
    assert_int_equal(cfg.l1d_hit_latency, 2);
    assert_int_equal(cfg.l2_size, 96 * 1024);
    assert_int_equal(cfg.l2_assoc, 3);
    assert_int_equal(cfg.l2_line, 64);
    assert_int_equal(cfg.l2_repl, REPL_RANDOM);
    assert_int_equal(cfg.mem_page_size, 8192);
    assert_int_equal(cfg.itlb_entries, 48);
    assert_int_equal(cfg.dtlb_entries, 64);
    assert_int_equal(cfg.wbuf_entries, 6);
    assert_int_equal(cfg.bpred_bimodal_entries, 2048);
    assert_int_equal(cfg.ras_entries, 12);
    assert_int_equal(cfg.ev5_mispredict_penalty, 5);
    /* also by path */
    config_defaults(&cfg);
    if (!config_load(&cfg, "configs/ev5.ini", err, sizeof err)) fail_msg("%s", err);
    assert_string_equal(cfg.source, "configs/ev5.ini");
    assert_int_equal(cfg.l2_assoc, 3);
}

static void test_missing_files(void **state)
{
    (void)state;
    config_t cfg;
    char err[512];
    config_defaults(&cfg);
    assert_false(config_load(&cfg, "nosuch", err, sizeof err));
    assert_non_null(strstr(err, "--config: no preset 'nosuch' in "));
    assert_non_null(strstr(err, "(presets: ev5, hps, inorder5"));
    assert_false(config_load(&cfg, "/nonexistent/x.ini", err, sizeof err));
    assert_string_equal(err, "cannot open '/nonexistent/x.ini': No such file or directory");
    assert_false(config_load(&cfg, "", err, sizeof err));
    assert_string_equal(err, "--config: expected a preset name or a .ini file");
    assert_false(config_load(&cfg, "/tmp/", err, sizeof err));
    assert_string_equal(err, "cannot read '/tmp/': Is a directory");
}

static void test_uint_values(void **state)
{
    (void)state;
    expect_set("ev5.width=3", "ev5.width", 3);
    expect_set("ev5.width=0x4", "ev5.width", 4);
    expect_set("mem.latency=2k", "mem.latency", 2000);
    expect_set("mem.latency=2K", "mem.latency", 2000);
    expect_set("btb.entries=1M", "btb.entries", 1000000);
    expect_set("bpred.bimodal_entries=0x1000", "bpred.bimodal_entries", 4096);
    expect_set("wbuf.entries=0", "wbuf.entries", 0);
    expect_set_error("mem.latency=12x",
        "--set 'mem.latency=12x': mem.latency: expected a number like 64, 0x40 or 2k, got '12x'");
    expect_set_error("mem.latency=-1",
        "--set 'mem.latency=-1': mem.latency: expected a number like 64, 0x40 or 2k, got '-1'");
    expect_set_error("mem.latency=",
        "--set 'mem.latency=': mem.latency: expected a number like 64, 0x40 or 2k, got ''");
    expect_set_error("mem.latency=1.5",
        "--set 'mem.latency=1.5': mem.latency: expected a number like 64, 0x40 or 2k, got '1.5'");
    expect_set_error("mem.latency=99999999999999999999",
        "--set 'mem.latency=99999999999999999999': mem.latency: expected a number like 64, "
        "0x40 or 2k, got '99999999999999999999' (too large)");
    expect_set_error("mem.latency=20000000000G",
        "--set 'mem.latency=20000000000G': mem.latency: expected a number like 64, "
        "0x40 or 2k, got '20000000000G' (too large)");
    expect_set_error("ev5.width=0",
        "--set 'ev5.width=0': ev5.width: expected a number from 1 to 8, got '0'");
    expect_set_error("ev5.width=1k",
        "--set 'ev5.width=1k': ev5.width: expected a number from 1 to 8, got '1k'");
    expect_set_error("bpred.bimodal_entries=2k",
        "--set 'bpred.bimodal_entries=2k': bpred.bimodal_entries: expected a power of two, "
        "got '2k' (k, M, G are decimal: 2k = 2000)");
    expect_set_error("bpred.gshare_entries=0",
        "--set 'bpred.gshare_entries=0': bpred.gshare_entries: expected a power of two, got '0'");
}

static void test_size_values(void **state)
{
    (void)state;
    expect_set("l1d.size=64", "l1d.size", 64);
    expect_set("l1d.size=64B", "l1d.size", 64);
    expect_set("l1d.size=32KiB", "l1d.size", 32768);
    expect_set("l1d.size=32K", "l1d.size", 32768);
    expect_set("l1d.size=32KB", "l1d.size", 32768);
    expect_set("l1d.size=32kb", "l1d.size", 32768);
    expect_set("l1d.size=32 KiB", "l1d.size", 32768);
    expect_set("l1d.size=1MiB", "l1d.size", 1 << 20);
    expect_set("l1d.size=1GiB", "l1d.size", 1 << 30);
    expect_set("l1d.size=0x2000", "l1d.size", 8192);
    expect_set("l2.size=96KiB", "l2.size", 98304);
    expect_set_error("l1d.size=3x",
        "--set 'l1d.size=3x': l1d.size: expected a size like 32KiB, got '3x'");
    expect_set_error("l1d.size=32KiBs",
        "--set 'l1d.size=32KiBs': l1d.size: expected a size like 32KiB, got '32KiBs'");
    expect_set_error("l1d.size=KiB",
        "--set 'l1d.size=KiB': l1d.size: expected a size like 32KiB, got 'KiB'");
    expect_set_error("l1d.size=32TiB",
        "--set 'l1d.size=32TiB': l1d.size: expected a size like 32KiB, got '32TiB'");
    expect_set_error("l1d.size=99999999999GiB",
        "--set 'l1d.size=99999999999GiB': l1d.size: expected a size like 32KiB, "
        "got '99999999999GiB' (too large)");
    expect_set_error("l1d.size=2GiB",
        "--set 'l1d.size=2GiB': l1d.size: expected a size from 64B to 1GiB, got '2GiB'");
    expect_set_error("l1d.line=48B",
        "--set 'l1d.line=48B': l1d.line: expected a power of two, got '48B'");
    expect_set_error("l1d.line=8KiB",
        "--set 'l1d.line=8KiB': l1d.line: expected a size from 4B to 4KiB, got '8KiB'");
    expect_set_error("mem.page_size=512",
        "--set 'mem.page_size=512': mem.page_size: expected a size from 1KiB to 1GiB, got '512'");
}

static void test_bool_values(void **state)
{
    (void)state;
    static const char *const yes[] = { "true", "yes", "on", "1", "TRUE", "Yes" };
    static const char *const no[] = { "false", "no", "off", "0", "False", "OFF" };
    char a[64];
    for (int i = 0; i < 6; i++) {
        snprintf(a, sizeof a, "l2.enabled=%s", no[i]);
        expect_set(a, "l2.enabled", 0);
        snprintf(a, sizeof a, "ev5.slotting = %s", yes[i]);
        expect_set(a, "ev5.slotting", 1);
    }
    expect_set_error("l2.enabled=maybe",
        "--set 'l2.enabled=maybe': l2.enabled: expected true/false, yes/no, on/off or 1/0, "
        "got 'maybe'");
    expect_set_error("l2.enabled=2",
        "--set 'l2.enabled=2': l2.enabled: expected true/false, yes/no, on/off or 1/0, got '2'");
}

static void test_enum_values(void **state)
{
    (void)state;
    expect_set("model=ev5", "model", CFG_MODEL_EV5);
    expect_set("model=INORDER5", "model", CFG_MODEL_INORDER5);
    expect_set("l1d.repl=round_robin", "l1d.repl", REPL_ROUND_ROBIN);
    expect_set("bpred.kind=tournament", "bpred.kind", BP_TOURNAMENT);
    expect_set("inorder5.branch_resolve=id", "inorder5.branch_resolve", CFG_RESOLVE_ID);
    expect_set_error("l1d.repl=fifo",
        "--set 'l1d.repl=fifo': l1d.repl: expected one of lru, random, round_robin, got 'fifo'");
    expect_set_error("model=ev6",
        "--set 'model=ev6': model: expected one of functional, inorder5, ev5, ooo, got 'ev6'");
    expect_set_error("bpred.kind=1",
        "--set 'bpred.kind=1': bpred.kind: expected one of not_taken, bimodal, gshare, "
        "tournament, got '1'");
}

static void test_set_syntax(void **state)
{
    (void)state;
    expect_set("  l1d.size =  8KiB ", "l1d.size", 8192);
    expect_set_error("l1d.size",
        "--set 'l1d.size': expected key=value, like l1d.size=32KiB");
    expect_set_error("",
        "--set '': expected key=value, like l1d.size=32KiB");
    expect_set_error("l1d.sise=8KiB",
        "--set 'l1d.sise=8KiB': l1d.sise: unknown parameter (did you mean l1d.size?)");
    expect_set_error("=8KiB",
        "--set '=8KiB': expected key=value, like l1d.size=32KiB");
    expect_set_error("frobnicate=1",
        "--set 'frobnicate=1': frobnicate: unknown parameter (hps-sim --print-config lists them)");
    expect_set_error("l1d.size=8KiB=1",
        "--set 'l1d.size=8KiB=1': l1d.size: expected a size like 32KiB, got '8KiB=1'");
}

/* --set after --config: overrides win, and the result validates. */
static void test_set_over_preset(void **state)
{
    (void)state;
    config_t cfg;
    char err[512] = "";
    config_defaults(&cfg);
    if (!config_load(&cfg, "ev5", err, sizeof err)) fail_msg("%s", err);
    assert_true(config_set(&cfg, "l1d.size=32KiB", err, sizeof err));
    assert_true(config_set(&cfg, "bpred.kind=gshare", err, sizeof err));
    assert_int_equal(cfg.l1d_size, 32768);
    assert_int_equal(cfg.l1d_assoc, 1);                 /* the preset's */
    assert_int_equal(cfg.bpred_kind, BP_GSHARE);
    assert_string_equal(cfg.source, "ev5 + --set");
    assert_true(config_validate(&cfg, err, sizeof err));
}

static void test_file_sections_and_syntax(void **state)
{
    (void)state;
    config_t cfg;
    char path[64], err[512] = "";
    const char *text =
        "; a comment\n"
        "# another\n"
        "model = ev5   # inline comment\n"
        "l2.size = 512KiB ; other inline comment\n"
        "\n"
        "[l1d]\n"
        "size = 8KiB\n"
        "    assoc = 4          # indented keys are keys, not continuations\n"
        "line: 64B\n"
        "[ l1i ]\n"
        "size=4KiB\n"
        "[lat]\n"
        "fp_div = 30\n";
    if (!load_text(&cfg, text, path, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(cfg.model, CFG_MODEL_EV5);
    assert_int_equal(cfg.l2_size, 512 * 1024);
    assert_int_equal(cfg.l1d_size, 8192);
    assert_int_equal(cfg.l1d_assoc, 4);
    assert_int_equal(cfg.l1d_line, 64);
    assert_int_equal(cfg.l1i_size, 4096);
    assert_int_equal(cfg.lat_fp_div, 30);
    assert_string_equal(cfg.source, path);
}

static void test_file_errors(void **state)
{
    (void)state;
    expect_file_error("model = ev5\n\n[l1d]\nsize = 3x\n",
                      ":4: l1d.size: expected a size like 32KiB, got '3x'");
    expect_file_error("# c\nl1d.line = 48B\n",
                      ":2: l1d.line: expected a power of two, got '48B'");
    expect_file_error("[l1d]\nsise = 8KiB\n",
                      ":2: l1d.sise: unknown parameter (did you mean l1d.size?)");
    expect_file_error("[l1]\nsize = 8KiB\n",
                      ":2: l1.size: unknown parameter (did you mean l1i.size?)");
    expect_file_error("[cache]\nflavour = 8KiB\n",
                      ":2: cache.flavour: unknown parameter (hps-sim --print-config lists them)");
    expect_file_error("model = ev5\njust some words  # here\n",
                      ":2: expected 'key = value' or '[section]', got 'just some words'");
    expect_file_error("[l1d\nsize = 8KiB\n",
                      ":1: expected 'key = value' or '[section]', got '[l1d'");
    expect_file_error("[l2]\nenabled = perhaps\n",
                      ":2: l2.enabled: expected true/false, yes/no, on/off or 1/0, got 'perhaps'");
    expect_file_error("bpred.kind = perceptron\n",
                      ":1: bpred.kind: expected one of not_taken, bimodal, gshare, tournament, "
                      "got 'perceptron'");
    /* the first error is the one reported, whether bad value or bad syntax */
    expect_file_error("a = 1\nb c\nl1d.size = x\n", ":1: a: unknown parameter (hps-sim --print-config lists them)");
    expect_file_error("model = ev5\nb c\nl1d.size = x\n",
                      ":2: expected 'key = value' or '[section]', got 'b c'");
    char longline[400];
    snprintf(longline, sizeof longline, "model = ev5\nl1d.size = %0300d\n", 1);
    expect_file_error(longline, ":2: line longer than 198 characters");
}

static void test_file_cross_validation(void **state)
{
    (void)state;
    expect_file_error("[l1d]\nsize = 24KiB\n",
                      ": l1d.size / (l1d.assoc x l1d.line) = 24KiB / (2 x 32B) = 384 sets; "
                      "the number of sets must be a power of two");
}

static void test_cross_validation(void **state)
{
    (void)state;
    expect_invalid("l1d.line (128B) is larger than l1d.size (64B)",
                   "l1d.size=64B", "l1d.line=128B", NULL);
    expect_invalid("l1i.assoc x l1i.line (4 x 32B) is larger than l1i.size (64B)",
                   "l1i.size=64B", "l1i.assoc=4", NULL);
    expect_invalid("l2.size (96KiB) is not a multiple of l2.assoc x l2.line (5 x 64B)",
                   "l2.size=96KiB", "l2.assoc=5", NULL);
    expect_invalid("l2.size / (l2.assoc x l2.line) = 96KiB / (8 x 64B) = 192 sets; "
                   "the number of sets must be a power of two", "l2.size=96KiB", NULL);
    expect_invalid("l2.line (32B) is smaller than l1d.line (64B); an L2 line must hold a "
                   "whole L1 line", "l1d.line=64B", "l2.line=32B", NULL);
    expect_invalid("dtlb.assoc (128) is larger than dtlb.entries (64)", "dtlb.assoc=128", NULL);
    expect_invalid("itlb.entries / itlb.assoc = 48 / 1 must be a power of two number of sets "
                   "(itlb.assoc = itlb.entries: fully associative)",
                   "itlb.entries=48", "itlb.assoc=1", NULL);
    expect_invalid("btb.entries / btb.assoc = 512 / 3 must be a power of two number of sets "
                   "(btb.assoc = btb.entries: fully associative)", "btb.assoc=3", NULL);
    expect_invalid("ev5.iq_entries (2) is smaller than ev5.width (4)", "ev5.iq_entries=2", NULL);
    expect_invalid("ev5.mem_ports (3) is larger than ev5.int_pipes (2); memory instructions "
                   "issue on the integer pipes", "ev5.mem_ports=3", NULL);
    /* legal corner cases: 3-way with 2^n sets, fully associative, no L2 */
    config_t cfg;
    char err[512] = "";
    config_defaults(&cfg);
    assert_true(config_set(&cfg, "l1d.size=12KiB", err, sizeof err));
    assert_true(config_set(&cfg, "l1d.assoc=3", err, sizeof err));
    assert_true(config_set(&cfg, "l1i.assoc=512", err, sizeof err));   /* 16KiB / 32B */
    assert_true(config_set(&cfg, "l2.enabled=no", err, sizeof err));
    assert_true(config_set(&cfg, "l2.line=16B", err, sizeof err));
    if (!config_validate(&cfg, err, sizeof err)) fail_msg("%s", err);
}

/* Print, read the output back as a file: the same values. */
static void round_trip(const config_t *cfg)
{
    char path[64] = "/tmp/hps-test-config-XXXXXX.ini", err[512] = "";
    int fd = mkstemps(path, 4);
    assert_true(fd >= 0);
    FILE *f = fdopen(fd, "w");
    config_print(cfg, f);
    fclose(f);
    config_t back;
    config_defaults(&back);
    assert_true(config_set(&back, "model=inorder5", err, sizeof err));  /* overwritten */
    bool ok = config_load(&back, path, err, sizeof err);
    unlink(path);
    if (!ok) fail_msg("%s", err);
    assert_true(same_values(cfg, &back));
}

static void test_print_round_trip(void **state)
{
    (void)state;
    config_t cfg;
    char err[512] = "";
    config_defaults(&cfg);
    round_trip(&cfg);
    if (!config_load(&cfg, "ev5", err, sizeof err)) fail_msg("%s", err);
    round_trip(&cfg);
    static const char *const sets[] = {
        "l2.size=1MiB", "l2.assoc=16", "l1d.line=64B", "mem.latency=0x100",
        "bpred.kind=tournament", "l1i.repl=round_robin", "ev5.slotting=off",
        "dtlb.entries=128", "dtlb.assoc=128", "wbuf.entries=0", "l2.line=128B",
    };
    for (size_t i = 0; i < sizeof sets / sizeof sets[0]; i++)
        if (!config_set(&cfg, sets[i], err, sizeof err)) fail_msg("%s", err);
    round_trip(&cfg);
}

static void test_print_format(void **state)
{
    (void)state;
    config_t cfg;
    char err[512] = "";
    config_defaults(&cfg);
    if (!config_load(&cfg, "ev5", err, sizeof err)) fail_msg("%s", err);
    char *text = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&text, &len);
    config_print(&cfg, f);
    fclose(f);
    assert_non_null(strstr(text, "# hps-sim configuration: ev5\n"));
    assert_non_null(strstr(text,
        "\nl1d.size                 = 8KiB        # L1 D-cache capacity (default 16KiB)\n"));
    assert_non_null(strstr(text,
        "\nl2.repl                  = random      # L2 replacement [lru|random|round_robin] "
        "(default lru)\n"));
    assert_non_null(strstr(text, "\nl2.size                  = 96KiB "));
    assert_non_null(strstr(text, "\nl2.enabled               = true "));
    assert_non_null(strstr(text, "\nmodel                    = ev5 "));
    /* every line is a comment, blank or `key = value  # ...` */
    size_t params = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#') continue;
        assert_non_null(strstr(line, " = "));
        assert_non_null(strstr(line, "  # "));
        params++;
    }
    assert_int_equal(params, cfg_param_count);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults),
        cmocka_unit_test(test_table_canonical),
        cmocka_unit_test(test_enum_orders),
        cmocka_unit_test(test_preset_inorder5),
        cmocka_unit_test(test_preset_ev5),
        cmocka_unit_test(test_missing_files),
        cmocka_unit_test(test_uint_values),
        cmocka_unit_test(test_size_values),
        cmocka_unit_test(test_bool_values),
        cmocka_unit_test(test_enum_values),
        cmocka_unit_test(test_set_syntax),
        cmocka_unit_test(test_set_over_preset),
        cmocka_unit_test(test_file_sections_and_syntax),
        cmocka_unit_test(test_file_errors),
        cmocka_unit_test(test_file_cross_validation),
        cmocka_unit_test(test_cross_validation),
        cmocka_unit_test(test_print_round_trip),
        cmocka_unit_test(test_print_format),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
