/*
 * test_acf_fuzz.c - deterministic fuzzing of the ACF parser (dise/acf.c).
 * A fixed-seed generator produces a few hundred thousand inputs: random
 * bytes, soups of the language's tokens, and mutations of valid ACFs
 * (deletions, duplications, truncations, byte changes, token insertions,
 * cross-overs).  Every input must give either a program that satisfies the
 * structural invariants and survives print -> parse unchanged, or NULL with
 * a "file:line:col: message" error.  Large inputs check that nothing is
 * quadratic.  ACF_FUZZ_N overrides the input count and ACF_TIME_FACTOR
 * multiplies the time bound of the large inputs (e.g. 50 under valgrind);
 * by default the whole file runs in a few seconds.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "acf_check.h"
#include "dise.h"
#include "isa.h"
#include "symtab.h"

static symbol_t syms[] = {
    { 0x1000, 0x40, "main" }, { 0x1040, 0x20, "foo" }, { 0x1060, 0, "bar" }, { 0x2000, 8, "foo" },
};
static symtab_t symtab = { syms, 4, NULL };
static const dise_env_t env = { &isa_rv64, &symtab };

/* ---- the generator ------------------------------------------------------- */

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)                   /* xorshift64* */
{
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

static size_t below(size_t n) { return n ? (size_t)(rnd() % n) : 0; }

static char incdir[64], oldcwd[PATH_MAX];
static const char incpath[] = "include \"inc.acf\"";    /* relative: inputs stay deterministic */

static const char *const vocab[] = {
    "P1", "P2", "R1", "R2", "CC1", "CC2", "X", "lbl", "out", "loop", "sampleFreq", "burstLength",
    ":", ",", ";", "(", ")", "[", "]", "=>", "\xe2\x87\x92", "==", "!=", "<", "<=", ">", ">=", "=",
    "!", "&&", "||", "-", "&", "|", "\"", "#c\n", "\n", "@",
    "include", "param", "init", "null", "T.INSN", "call", "mov", "add", "sub", "beqz", "bnez", "j",
    "T.OPCLASS", "T.OPCODE", "T.PC", "T.TARGET", "T.RD", "T.RS1", "T.RS2", "T.IMM", "T.MEMSIZE",
    "T.EA", "T.FOO", "in", "proc_call", "branch", "mem_op", "load", "int_alu", "addi", "jalr",
    "fence.i", "sp", "zero", "x0", "a0", "ft0", "main", "foo", "nosuch",
    "overflow_1", "zero_2", "overflow_9", "inc_1", "dec_2", "set_1", "set_3", "inc_0",
    "counter_1", "d0", "d8", "d15", "d16", "check", "basic", "sample",
    "0", "1", "-1", "99", "0x10", "0xffffffffffffffff", "9223372036854775808", "12ab", "0x",
    "\"nonexistent.acf\"", "\"\"", "\"/tmp\"", NULL /* incpath */,
};
#define NVOCAB (sizeof vocab / sizeof vocab[0])

static const char *vocab_word(size_t k) { return vocab[k] ? vocab[k] : incpath; }

/* Valid ACFs to mutate. */
static const char *corpus[] = {
    "param sampleFreq = 99\nparam burstLength = 10\ninit: set_1(sampleFreq), set_2(burstLength)\n"
    "P1: T.OPCLASS == proc_call && !overflow_1 => null, CC1\n"
    "P2: T.OPCLASS == branch && T.TARGET <= T.PC && !overflow_1 => null, CC1\n"
    "P3: T.OPCLASS == proc_call && overflow_1 && !overflow_2 => null, CC2\n"
    "P5: T.OPCLASS == proc_call && overflow_1 && overflow_2 => null, CC3\n"
    "CC1: inc_1\nCC2: inc_2\nCC3: set_1(sampleFreq), set_2(burstLength)\n",

    "P1: T.OPCLASS == mem_op && overflow_1 => R1, null\nR1: call(DataStream_handler) T.INSN\n"
    "P2: T.OPCLASS == proc_call && overflow_1 => R2, null\nR2: call(CallPair_handler); T.INSN\n"
    "P3: (T.OPCLASS == proc_call || (T.OPCLASS == branch && T.TARGET <= T.PC)) && overflow_1 => R3\n"
    "R3: call(HotMethod_handler) T.INSN\n",

    "param k = -3\n"
    "INNER [basic]: beqz d1, skip; add d1, d1, -1; skip: mov d2, 7\n"
    "HOT [sample]: top: INNER; mov d8, T.PC; call(H)\n  sub d0, d0, k; bnez d0, top; INNER; j end; end: T.INSN\n"
    "CHK [check]: mov d3, counter_3; add d3, d3, T.EA; [basic] mov d4, T.RS1; T.INSN\n"
    "BOTH: CHK, HOT\nBC: CC1, CC2\nCC1: inc_1\nCC2: dec_2; set_2(k)\n"
    "P1: T.PC in foo && T.RS1 == zero && T.RD != x0 && T.IMM < -2048 => BOTH, BC\n"
    "P2: T.OPCODE != jalr || !!zero_3 => HOT, CC1, inc_4\n"
    "P3: T.PC in [0x10, 0x20) && T.MEMSIZE >= 8 && T.OPCLASS != fp_load => CHK\n",

    "R1: beqz d0, out; call(A)\nout:\nR2: R1 R1\nP1: overflow_1 => R2\nP2: zero_1 => R1, C; C: inc_1;\n",

    "A: B, C\nB: inc_1\nC: D\nD: dec_2; set_3(-1)\nE: F G\nF: T.INSN\nG [basic]: call(H); j x; x:\n"
    "P1: zero_1 => E, A\nP2: overflow_2 => F, C\ninit: A, inc_5\nparam q = 0x7f\nR: mov d0, q; E\n",

    NULL, /* the include one, built at run time */
};
#define NCORPUS (sizeof corpus / sizeof corpus[0])
static char include_acf[512];

/* ---- inputs -------------------------------------------------------------- */

typedef struct buf {
    char *s;
    size_t n, cap;
} buf_t;

static void buf_put(buf_t *b, const char *s, size_t n)
{
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->s = realloc(b->s, b->cap);
        assert_non_null(b->s);
    }
    memcpy(b->s + b->n, s, n);
    b->n += n;
    b->s[b->n] = '\0';
}

static void gen_bytes(buf_t *b)
{
    size_t n = below(120);
    for (size_t i = 0; i < n; i++) {
        char c = (char)(1 + below(255));
        buf_put(b, &c, 1);
    }
}

static void gen_soup(buf_t *b)
{
    static const char *const gaps[] = { " ", "\n", "", "\t", " " };
    size_t n = 1 + below(60);
    for (size_t i = 0; i < n; i++) {
        const char *w = vocab_word(below(NVOCAB));
        buf_put(b, w, strlen(w));
        const char *g = gaps[below(5)];
        buf_put(b, g, strlen(g));
    }
}

/* Apply one random edit to b. */
static void mutate(buf_t *b)
{
    size_t n = b->n, at = below(n + 1), len = 1 + below(n < 40 ? n + 1 : 40);
    if (at + len > n) len = n - at;
    char tmp[256];
    switch (below(7)) {
    case 0:                                     /* delete a span */
        memmove(b->s + at, b->s + at + len, n - at - len + 1);
        b->n -= len;
        break;
    case 1: {                                   /* duplicate a span elsewhere */
        char *copy = malloc(len + 1);
        assert_non_null(copy);
        memcpy(copy, b->s + at, len);
        size_t to = below(b->n + 1);
        buf_t rest = { 0 };
        buf_put(&rest, b->s + to, b->n - to);
        b->n = to;
        buf_put(b, copy, len);
        buf_put(b, rest.s ? rest.s : "", rest.n);
        free(rest.s);
        free(copy);
        break;
    }
    case 2:                                     /* truncate */
        b->n = at;
        b->s[at] = '\0';
        break;
    case 3:                                     /* change a byte */
        if (n) b->s[below(n)] = (char)(1 + below(255));
        break;
    case 4:                                     /* change a byte to a nearby printable one */
        if (n) b->s[below(n)] = "()[]:;,=!<>-\n 0x19dT._"[below(23)];
        break;
    case 5: {                                   /* insert a vocabulary word */
        snprintf(tmp, sizeof tmp, " %s ", vocab_word(below(NVOCAB)));
        buf_t rest = { 0 };
        buf_put(&rest, b->s + at, n - at);
        b->n = at;
        buf_put(b, tmp, strlen(tmp));
        buf_put(b, rest.s ? rest.s : "", rest.n);
        free(rest.s);
        break;
    }
    default: {                                  /* cross over with another corpus entry */
        const char *o = corpus[below(NCORPUS)];
        size_t on = strlen(o), from = below(on + 1);
        b->n = at;
        b->s[at] = '\0';
        buf_put(b, o + from, on - from);
        break;
    }
    }
}

/* Line-level edits keep more inputs valid: drop, repeat or move a line. */
static void mutate_lines(buf_t *b)
{
    size_t starts[128], nl = 0;
    for (size_t i = 0; i < b->n && nl < 128; i++)
        if (i == 0 || b->s[i - 1] == '\n') starts[nl++] = i;
    if (nl == 0) return;
    size_t k = below(nl), from = starts[k], to = k + 1 < nl ? starts[k + 1] : b->n;
    buf_t line = { 0 }, rest = { 0 };
    buf_put(&line, b->s + from, to - from);
    buf_put(&rest, b->s + to, b->n - to);
    b->n = from;
    switch (below(3)) {
    case 0:                                     /* drop it */
        buf_put(b, rest.s, rest.n);
        break;
    case 1:                                     /* repeat it */
        buf_put(b, line.s, line.n);
        buf_put(b, line.s, line.n);
        buf_put(b, rest.s, rest.n);
        break;
    default:                                    /* move it to the end */
        buf_put(b, rest.s, rest.n);
        if (line.n && line.s[line.n - 1] != '\n') buf_put(b, "\n", 1);
        buf_put(b, line.s, line.n);
        break;
    }
    free(line.s);
    free(rest.s);
}

static void gen_mutation(buf_t *b)
{
    const char *base = corpus[below(NCORPUS)];
    buf_put(b, base, strlen(base));
    size_t edits = 1 + below(4);
    for (size_t i = 0; i < edits; i++) {
        if (below(2)) mutate_lines(b);
        else mutate(b);
    }
}

/* ---- checks ------------------------------------------------------------- */

/* "file:line:col: message" with a non-empty message. */
static bool well_formed_error(const char *err)
{
    const char *p = strchr(err, ':');
    if (!p || p == err) return false;
    for (int field = 0; field < 2; field++) {
        const char *q = ++p;
        while (isdigit((unsigned char)*p)) p++;
        if (p == q || *p != ':') return false;
    }
    return p[1] == ' ' && p[2] != '\0';
}

static struct {
    size_t inputs, programs, errors, round_trips;
} stats;

static void check_one(const char *text)
{
    char err[256];
    memset(err, 0x55, sizeof err);
    dise_program_t *p = acf_parse_string("fuzz.acf", text, &env, err, sizeof err);
    stats.inputs++;
    if (!p) {
        stats.errors++;
        if (!well_formed_error(err)) fail_msg("bad error message '%s' for:\n%s", err, text);
        return;
    }
    stats.programs++;
    if (err[0] != '\0') fail_msg("err not cleared on success: '%.40s'", err);
    if (!acf_invariants(p)) fail_msg("invariant broken (%s) for:\n%s", acf_check_why, text);
    if (!acf_round_trip(p, &env)) fail_msg("round trip failed (%s) for:\n%s", acf_check_why, text);
    stats.round_trips++;
    dise_program_free(p);
}

/* The fuzz runs in a temporary directory holding inc.acf, which inputs
 * include by a relative name. */
static void setup_include(void)
{
    snprintf(incdir, sizeof incdir, "/tmp/hps-test-acf-fuzz-XXXXXX");
    assert_non_null(mkdtemp(incdir));
    assert_non_null(getcwd(oldcwd, sizeof oldcwd));
    assert_int_equal(chdir(incdir), 0);
    FILE *f = fopen("inc.acf", "w");
    assert_non_null(f);
    fputs("param incp = 3\nIP: T.OPCLASS == load => null, inc_1\nIR [check]: mov d1, incp; T.INSN\n", f);
    fclose(f);
    snprintf(include_acf, sizeof include_acf, "%s\nP: overflow_1 && T.PC in main => IR, dec_1\n"
             "Q: zero_1 => R\nR: IR; call(X)\n", incpath);
    corpus[NCORPUS - 1] = include_acf;
}

static void cleanup_include(void)
{
    unlink("inc.acf");
    assert_int_equal(chdir(oldcwd), 0);
    rmdir(incdir);
}

/* ---- tests -------------------------------------------------------------- */

/* The corpus itself is valid. */
static void test_corpus(void **state)
{
    (void)state;
    for (size_t k = 0; k < NCORPUS; k++) {
        char err[256];
        dise_program_t *p = acf_parse_string("corpus.acf", corpus[k], &env, err, sizeof err);
        if (!p) fail_msg("corpus %zu: %s", k, err);
        dise_program_free(p);
    }
}

static void test_fuzz(void **state)
{
    (void)state;
    size_t n = 500000;
    const char *env_n = getenv("ACF_FUZZ_N");
    if (env_n && atol(env_n) > 0) n = (size_t)atol(env_n);
    buf_t b = { 0 };
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (size_t i = 0; i < n; i++) {
        b.n = 0;
        buf_put(&b, "", 0);
        size_t kind = below(10);
        if (kind < 2) gen_bytes(&b);
        else if (kind < 5) gen_soup(&b);
        else gen_mutation(&b);
        check_one(b.s);
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    free(b.s);
    double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    print_message("acf fuzz: %zu inputs in %.2f s (%.0f/s): %zu programs (all round-tripped), %zu errors\n",
                  stats.inputs, secs, (double)stats.inputs / secs, stats.programs, stats.errors);
    assert_true(stats.programs > n / 100);        /* the mutations do reach the resolver */
    assert_true(stats.errors > n / 2);
}

/* Large inputs built to defeat anything quadratic: each must parse (or
 * fail) in a few seconds of CPU time at most (the process's own, so a
 * loaded machine does not fail the test).  This guards complexity, not
 * speed: a plain build takes about 0.3 s, ASan about 1.1 s here and twice
 * that on a slow CI host, while a quadratic step over these inputs would
 * take minutes, so the bound sits far from both. */
static double parse_seconds(const char *text, bool want_ok, const char *want_err)
{
    char err[256];
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    dise_program_t *p = acf_parse_string("big.acf", text, &env, err, sizeof err);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    if (want_ok && !p) fail_msg("unexpected error: %s", err);
    if (!want_ok && p) fail_msg("expected an error");
    if (p) {
        if (!acf_invariants(p)) fail_msg("invariant: %s", acf_check_why);
        dise_program_free(p);
    } else if (want_err && !strstr(err, want_err)) {
        fail_msg("want '%s' in '%s'", want_err, err);
    }
    return (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
}

static void test_large_inputs(void **state)
{
    (void)state;
    buf_t b = { 0 };
    char line[128];
    double worst = 0, t;

    /* 4000 role-less sequences in one "soft" region, then a 300000-insn tail */
    b.n = 0;
    buf_put(&b, "", 0);
    for (int i = 0; i < 4000; i++) {
        snprintf(line, sizeof line, "R%d: T.INSN\n", i);
        buf_put(&b, line, strlen(line));
    }
    buf_put(&b, "TAIL: top:\n", 11);
    for (int i = 0; i < 100000; i++) buf_put(&b, "mov d0, 1; j top; ", 18);
    t = parse_seconds(b.s, false, "'TAIL' is longer than 65536 instructions");
    worst = t > worst ? t : worst;

    /* one sequence with 50000 labels, each branched to */
    b.n = 0;
    buf_put(&b, "P: zero_1 => R\nR [basic]:", 25);
    for (int i = 0; i < 50000; i++) {
        snprintf(line, sizeof line, " L%d: bnez d0, L%d", i, 49999 - i);
        buf_put(&b, line, strlen(line));
    }
    t = parse_seconds(b.s, true, NULL);
    worst = t > worst ? t : worst;

    /* 4096 definitions and 500000 references to them */
    b.n = 0;
    buf_put(&b, "", 0);
    for (int i = 0; i < 4094; i++) {
        snprintf(line, sizeof line, "Q%d [check]: T.INSN\n", i);
        buf_put(&b, line, strlen(line));
    }
    buf_put(&b, "BIG [basic]:", 12);
    for (int i = 0; i < 500000; i++) {
        snprintf(line, sizeof line, " Q%ld", (long)i * 7919 % 4094);
        buf_put(&b, line, strlen(line));
    }
    buf_put(&b, "\nP: zero_1 => null\n", 19);
    t = parse_seconds(b.s, false, "'BIG' is longer than 65536 instructions");
    worst = t > worst ? t : worst;
    buf_put(&b, "X: inc_1\n", 9);                  /* the 4097th definition */
    t = parse_seconds(b.s, false, "more than 4096 definitions");
    worst = t > worst ? t : worst;

    /* a chain of 4000 splices, 4000 deep */
    b.n = 0;
    buf_put(&b, "S0: T.INSN\n", 11);
    for (int i = 1; i < 4000; i++) {
        snprintf(line, sizeof line, "S%d [basic]: S%d; mov d1, %d\n", i, i - 1, i);
        buf_put(&b, line, strlen(line));
    }
    buf_put(&b, "P: zero_1 => S3999\n", 19);
    t = parse_seconds(b.s, true, NULL);
    worst = t > worst ? t : worst;

    /* 200000 lexical tokens of garbage in a pattern */
    b.n = 0;
    buf_put(&b, "P: ", 3);
    for (int i = 0; i < 200000; i++) buf_put(&b, "(", 1);
    t = parse_seconds(b.s, false, "nested more than 100 deep");
    worst = t > worst ? t : worst;

    free(b.s);
    double factor = getenv("ACF_TIME_FACTOR") ? atof(getenv("ACF_TIME_FACTOR")) : 1.0;
    print_message("acf large inputs: slowest %.3f s\n", worst);
    assert_true(worst < 10.0 * (factor > 1.0 ? factor : 1.0));  /* quadratic would take minutes */
}

int main(void)
{
    setup_include();
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_corpus),
        cmocka_unit_test(test_fuzz),
        cmocka_unit_test(test_large_inputs),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    cleanup_include();
    return rc;
}
