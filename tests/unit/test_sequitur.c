/*
 * test_sequitur.c - unit tests of SEQUITUR (sequitur.h) and hot data stream
 * detection (hot_streams.h, data_trace.h): grammars of hand-made inputs
 * ("abcabc...", runs of "a"), the invariants on random inputs (every digram
 * once, every rule used twice, the grammar expands to the input), hot
 * streams of a constructed trace for given minLen/maxLen/H, the search for
 * H, burst separators, the windows the memory caps cut, the symbol table,
 * and the accuracy of identical and disjoint stream profiles.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "data_trace.h"
#include "hot_streams.h"
#include "sequitur.h"

/* ---- helpers ----------------------------------------------------------------------------- */

static sequitur_t *grammar_of(const uint32_t *in, size_t n)
{
    sequitur_t *g = sequitur_new();
    for (size_t k = 0; k < n; k++) sequitur_append(g, in[k]);
    return g;
}

static sequitur_t *grammar_of_text(const char *text)
{
    sequitur_t *g = sequitur_new();
    for (const char *c = text; *c; c++) sequitur_append(g, (uint32_t)*c);
    return g;
}

/* Rule r's right-hand side as text: terminals as characters, rule k as "Rk". */
static void rhs_text(const sequitur_grammar_t *gr, uint32_t r, char *buf, size_t len)
{
    size_t n = 0;
    buf[0] = '\0';
    for (uint32_t k = gr->start[r]; k < gr->start[r + 1] && n + 8 < len; k++) {
        uint32_t s = gr->sym[k];
        if (sequitur_is_rule(s)) n += (size_t)snprintf(buf + n, len - n, "%sR%u", n ? " " : "", sequitur_rule_index(s));
        else n += (size_t)snprintf(buf + n, len - n, "%s%c", n ? " " : "", (char)s);
    }
}

static void assert_rhs(const sequitur_grammar_t *gr, uint32_t r, const char *want)
{
    char got[256];
    rhs_text(gr, r, got, sizeof got);
    assert_string_equal(got, want);
}

/* (digram, rule, position) triples in order */
static int cmp_digram(const void *a, const void *b)
{
    const uint64_t *x = a, *y = b;
    for (int k = 0; k < 3; k++)
        if (x[k] != y[k]) return x[k] < y[k] ? -1 : 1;
    return 0;
}

/* The invariants: the grammar expands to in[0..n); every digram occurs once
 * (overlapping in a run excepted); every rule but S is used twice or more
 * and has two symbols or more; no rule but S holds a separator. */
static void check_invariants(const sequitur_grammar_t *gr, const uint32_t *in, size_t n)
{
    uint32_t *out = calloc(n + 1, sizeof *out);
    assert_int_equal(stream_expand(gr, 0, out, n + 1), n);
    assert_memory_equal(out, in, n * sizeof *in);
    free(out);

    uint32_t *uses = calloc(gr->nrules, sizeof *uses);
    for (uint32_t k = 0; k < gr->start[gr->nrules]; k++)
        if (sequitur_is_rule(gr->sym[k])) uses[sequitur_rule_index(gr->sym[k])]++;
    for (uint32_t r = 1; r < gr->nrules; r++) {
        if (uses[r] < 2) fail_msg("rule %u used %u times", r, uses[r]);
        assert_true(gr->start[r + 1] - gr->start[r] >= 2);
        for (uint32_t k = gr->start[r]; k < gr->start[r + 1]; k++)
            assert_false(!sequitur_is_rule(gr->sym[k]) && (gr->sym[k] & SEQUITUR_UNIQUE_BIT));
    }
    free(uses);

    /* digrams: sort (key, rule, position) and compare neighbours */
    size_t total = gr->start[gr->nrules], nd = 0;
    uint64_t (*d)[3] = calloc(total ? total : 1, sizeof *d);
    for (uint32_t r = 0; r < gr->nrules; r++)
        for (uint32_t k = gr->start[r]; k + 1 < gr->start[r + 1]; k++) {
            d[nd][0] = (uint64_t)gr->sym[k] << 32 | gr->sym[k + 1];
            d[nd][1] = r;
            d[nd++][2] = k;
        }
    qsort(d, nd, sizeof *d, cmp_digram);
    for (size_t i = 1; i < nd; i++) {
        if (d[i][0] != d[i - 1][0]) continue;
        bool overlap = d[i][1] == d[i - 1][1] && d[i][2] == d[i - 1][2] + 1;
        if (!overlap || (i >= 2 && d[i - 2][0] == d[i][0]))
            fail_msg("digram repeated in rules %u and %u", (unsigned)d[i - 1][1], (unsigned)d[i][1]);
    }
    free(d);
}

static uint32_t rng_state = 12345;
static uint32_t rnd(void)
{
    rng_state = rng_state * 1103515245u + 12345u;
    return rng_state >> 8;
}

/* ---- SEQUITUR on hand-made inputs --------------------------------------------------------- */

static void test_abcabc(void **state)
{
    (void)state;
    sequitur_t *g = grammar_of_text("abcabc");
    sequitur_grammar_t gr;
    sequitur_export(g, &gr);
    assert_int_equal(gr.nrules, 2);
    assert_rhs(&gr, 0, "R1 R1");
    assert_rhs(&gr, 1, "a b c");
    assert_int_equal(sequitur_grammar_size(g), 5);
    assert_int_equal(sequitur_input_length(g), 6);
    sequitur_grammar_free(&gr);
    sequitur_free(g);

    g = grammar_of_text("abcabcabcabc");
    sequitur_export(g, &gr);
    assert_int_equal(gr.nrules, 3);
    assert_rhs(&gr, 0, "R1 R1");
    assert_rhs(&gr, 1, "R2 R2");
    assert_rhs(&gr, 2, "a b c");
    sequitur_grammar_free(&gr);
    sequitur_free(g);
}

/* "abc" repeated k times: the stream "abc", seen k times. */
static void emit_into(void *ctx, const hot_stream_hit_t *hit)
{
    hot_stream_hit_t *h = ctx;
    while (h->len) h++;
    *h = *hit;
}

static void test_abc_stream(void **state)
{
    (void)state;
    for (int k = 2; k <= 9; k++) {
        char text[64] = "";
        for (int i = 0; i < k; i++) strcat(text, "abc");
        sequitur_t *g = grammar_of_text(text);
        sequitur_grammar_t gr;
        sequitur_export(g, &gr);
        stream_detector_t d;
        stream_detector_init(&d, &gr);
        hot_stream_hit_t hits[8] = { 0 };
        size_t count;
        uint64_t covered = stream_detect(&d, 3, 3, 1, emit_into, hits, &count);
        assert_int_equal(count, 1);
        assert_int_equal(hits[0].len, 3);
        assert_int_equal(hits[0].uses, k);
        assert_int_equal(hits[0].heat, 3 * k);
        assert_int_equal(covered, 3 * k);
        uint32_t s[4];
        assert_int_equal(stream_expand(&gr, hits[0].rule, s, 4), 3);
        assert_true(s[0] == 'a' && s[1] == 'b' && s[2] == 'c');
        stream_detector_free(&d);
        sequitur_grammar_free(&gr);
        sequitur_free(g);
    }
}

/* The overlap exception: "aaa" holds "aa" twice, overlapping: no rule;
 * "aaaa" holds it twice apart. */
static void test_runs(void **state)
{
    (void)state;
    static const struct { const char *in; uint32_t rules; const char *s, *r1, *r2; } cases[] = {
        { "aaa", 1, "a a a", NULL, NULL },
        { "aaaa", 2, "R1 R1", "a a", NULL },
        { "aaaaa", 2, "R1 R1 a", "a a", NULL },
        { "aaaaaaaa", 3, "R1 R1", "R2 R2", "a a" },
        { "baaab", 1, "b a a a b", NULL, NULL },
        { "abaaab", 2, "R1 a a R1", "a b", NULL },
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        sequitur_t *g = grammar_of_text(cases[c].in);
        sequitur_grammar_t gr;
        sequitur_export(g, &gr);
        if (gr.nrules != cases[c].rules) fail_msg("%s: %u rules", cases[c].in, gr.nrules);
        assert_rhs(&gr, 0, cases[c].s);
        if (cases[c].r1) assert_rhs(&gr, 1, cases[c].r1);
        if (cases[c].r2) assert_rhs(&gr, 2, cases[c].r2);
        sequitur_grammar_free(&gr);
        sequitur_free(g);
    }
}

/* Random inputs, small alphabets and runs: the invariants after every
 * symbol for short inputs, at the end for long ones. */
static void test_random_invariants(void **state)
{
    (void)state;
    for (int t = 0; t < 400; t++) {
        size_t n = t < 300 ? 1 + rnd() % 120 : 2000 + rnd() % 8000;
        uint32_t alphabet = 1 + rnd() % (t % 3 ? 4 : 12);
        uint32_t *in = calloc(n, sizeof *in);
        for (size_t k = 0; k < n; k++) in[k] = t % 5 == 0 && k % 3 ? in[k - 1] : rnd() % alphabet;
        sequitur_t *g = sequitur_new();
        for (size_t k = 0; k < n; k++) {
            sequitur_append(g, in[k]);
            if (t < 300 || k + 1 == n) {
                sequitur_grammar_t gr;
                sequitur_export(g, &gr);
                check_invariants(&gr, in, k + 1);
                assert_int_equal(gr.start[gr.nrules], sequitur_grammar_size(g));
                assert_int_equal(gr.nrules, sequitur_rule_count(g));
                sequitur_grammar_free(&gr);
            }
        }
        assert_true(sequitur_grammar_size(g) <= n);
        sequitur_free(g);
        free(in);
    }
}

/* Separators: "abcdef" in every burst, never a rule across two. */
static void test_separators(void **state)
{
    (void)state;
    sequitur_t *g = sequitur_new();
    for (int b = 0; b < 50; b++) {
        if (b) sequitur_append_unique(g);
        for (const char *c = "abcdef"; *c; c++) sequitur_append(g, (uint32_t)*c);
    }
    sequitur_grammar_t gr;
    sequitur_export(g, &gr);
    stream_detector_t d;
    stream_detector_init(&d, &gr);
    assert_int_equal(d.references, 300);
    for (uint32_t r = 1; r < gr.nrules; r++) assert_true(d.len[r] <= 6);
    hot_stream_hit_t hits[4] = { 0 };
    size_t count;
    stream_detect(&d, 3, 100, 1, emit_into, hits, &count);
    assert_int_equal(count, 1);
    assert_int_equal(hits[0].len, 6);
    assert_int_equal(hits[0].uses, 50);
    stream_detector_free(&d);
    sequitur_grammar_free(&gr);
    sequitur_free(g);
}

/* ---- hot streams of a constructed trace ---------------------------------------------------- */

/* X (12 symbols) 300 times and Y (20 symbols) 150 times, each occurrence
 * followed by a symbol never seen again: 3600 + 3000 + 450 references. */
#define NX 300
#define NY 150
static size_t known_trace(uint32_t *t)
{
    size_t n = 0;
    uint32_t noise = 1000;
    for (int j = 0; j < NX; j++) {
        for (uint32_t k = 0; k < 12; k++) t[n++] = 100 + k;
        t[n++] = noise++;
        if (j % 2) {
            for (uint32_t k = 0; k < 20; k++) t[n++] = 200 + k;
            t[n++] = noise++;
        }
    }
    return n;
}

typedef struct known {
    uint32_t *trace;
    size_t n;
    sequitur_grammar_t gr;
    stream_detector_t d;
} known_t;

static void known_build(known_t *k)
{
    k->trace = calloc(NX * 13 + NY * 21, sizeof *k->trace);
    k->n = known_trace(k->trace);
    sequitur_t *g = grammar_of(k->trace, k->n);
    sequitur_export(g, &k->gr);
    sequitur_free(g);
    stream_detector_init(&k->d, &k->gr);
}

static void known_free(known_t *k)
{
    stream_detector_free(&k->d);
    sequitur_grammar_free(&k->gr);
    free(k->trace);
}

/* The hits at (min, max, H), sorted by length. */
static size_t detect_sorted(known_t *k, uint64_t min, uint64_t max, uint64_t heat,
                            hot_stream_hit_t hits[8], uint64_t *covered)
{
    memset(hits, 0, 8 * sizeof *hits);
    size_t count;
    *covered = stream_detect(&k->d, min, max, heat, emit_into, hits, &count);
    if (count == 2 && hits[0].len > hits[1].len) {
        hot_stream_hit_t t = hits[0]; hits[0] = hits[1]; hits[1] = t;
    }
    return count;
}

static void assert_stream(known_t *k, const hot_stream_hit_t *h, uint32_t first, uint64_t len,
                          uint64_t uses)
{
    assert_int_equal(h->len, len);
    assert_int_equal(h->uses, uses);
    assert_int_equal(h->heat, len * uses);
    uint32_t s[32];
    assert_int_equal(stream_expand(&k->gr, h->rule, s, 32), len);
    for (uint32_t i = 0; i < len; i++) assert_int_equal(s[i], first + i);
}

static void test_detect_known(void **state)
{
    (void)state;
    known_t k;
    known_build(&k);
    assert_int_equal(k.n, 3600 + 3000 + 450);
    assert_int_equal(k.d.references, k.n);
    hot_stream_hit_t h[8];
    uint64_t covered;
    /* both streams: H up to Y's heat */
    assert_int_equal(detect_sorted(&k, 11, 100, 3000, h, &covered), 2);
    assert_stream(&k, &h[0], 100, 12, NX);
    assert_stream(&k, &h[1], 200, 20, NY);
    assert_int_equal(covered, 6600);
    /* X alone above it, nothing above X's */
    assert_int_equal(detect_sorted(&k, 11, 100, 3001, h, &covered), 1);
    assert_stream(&k, &h[0], 100, 12, NX);
    assert_int_equal(covered, 3600);
    assert_int_equal(detect_sorted(&k, 11, 100, 3601, h, &covered), 0);
    /* lengths: Y too long at maxLen 15, X too short at minLen 13 */
    assert_int_equal(detect_sorted(&k, 11, 15, 1, h, &covered), 1);
    assert_stream(&k, &h[0], 100, 12, NX);
    assert_int_equal(detect_sorted(&k, 13, 100, 1, h, &covered), 1);
    assert_stream(&k, &h[0], 200, 20, NY);
    known_free(&k);
}

static void test_search_known(void **state)
{
    (void)state;
    known_t k;
    known_build(&k);
    bool reached;
    /* 90% needs both (6600 of 7050 = 93.6%): the largest H is Y's heat */
    assert_int_equal(stream_search_heat(&k.d, 11, 100, 0.9, &reached), 3000);
    assert_true(reached);
    /* 50% is reached by X alone (3600 = 51.1%) */
    assert_int_equal(stream_search_heat(&k.d, 11, 100, 0.5, &reached), 3600);
    assert_true(reached);
    /* 95% is out of reach: 95% of what H = 1 covers (6600) needs both */
    assert_int_equal(stream_search_heat(&k.d, 11, 100, 0.95, &reached), 3000);
    assert_false(reached);
    known_free(&k);
}

/* Many streams of Zipf-like frequencies and some noise: the H found covers
 * at least 90%, and H + 1 covers less. */
static void test_search_coverage(void **state)
{
    (void)state;
    enum { STREAMS = 60, N = 200000 };
    uint32_t *t = calloc(N + 200, sizeof *t);
    size_t n = 0;
    uint32_t noise = 1u << 20;
    while (n < N) {
        uint32_t s = 0;
        while (s + 1 < STREAMS && rnd() % 3) s++;        /* stream s with probability ~ (2/3)^s */
        uint32_t len = 11 + s % 20;
        for (uint32_t i = 0; i < len; i++) t[n++] = 1000 * (s + 1) + i;
        if (rnd() % 100 < 40) t[n++] = noise++;
    }
    sequitur_t *g = grammar_of(t, n);
    sequitur_grammar_t gr;
    sequitur_export(g, &gr);
    sequitur_free(g);
    stream_detector_t d;
    stream_detector_init(&d, &gr);
    bool reached;
    uint64_t heat = stream_search_heat(&d, 11, 100, 0.9, &reached);
    assert_true(reached);
    uint64_t at = stream_detect(&d, 11, 100, heat, NULL, NULL, NULL);
    uint64_t above = stream_detect(&d, 11, 100, heat + 1, NULL, NULL, NULL);
    assert_true(at >= (uint64_t)(0.9 * (double)n));
    assert_true(above < (uint64_t)(0.9 * (double)n) + 1);
    assert_true(at <= n);
    stream_detector_free(&d);
    sequitur_grammar_free(&gr);
    free(t);
}

/* ---- windows, symbols, streams as members ----------------------------------------------- */

static void params(hot_stream_params_t *p, uint64_t window, uint64_t grammar_max)
{
    hot_stream_params_default(p);
    p->window = window;
    p->grammar_max = grammar_max;
}

/* One window: the known streams, their heats and frequencies. */
static void test_analysis_one_window(void **state)
{
    (void)state;
    uint32_t *t = calloc(NX * 13 + NY * 21, sizeof *t);
    size_t n = known_trace(t);
    hot_stream_params_t p;
    params(&p, n, 1u << 20);
    stream_table_t table;
    stream_table_init(&table);
    stream_analysis_t a;
    stream_analysis_init(&a, &p, &table);
    stream_analysis_window(&a, t, n);
    assert_int_equal(a.windows, 1);
    assert_int_equal(a.references, n);
    assert_int_equal(a.heat_min, 3000);
    assert_int_equal(profile_members(a.heat), 2);
    uint32_t x[12], y[20];
    for (uint32_t i = 0; i < 12; i++) x[i] = 100 + i;
    for (uint32_t i = 0; i < 20; i++) y[i] = 200 + i;
    uint32_t ix = stream_table_intern(&table, x, 12), iy = stream_table_intern(&table, y, 20);
    assert_int_equal(table.count, 2);                    /* both were there */
    assert_int_equal(profile_weight(a.heat, ix, 0), 3600);
    assert_int_equal(profile_weight(a.freq, ix, 0), NX);
    assert_int_equal(profile_weight(a.heat, iy, 0), 3000);
    assert_int_equal(profile_weight(a.freq, iy, 0), NY);
    assert_int_equal(a.covered, 6600);
    assert_int_equal(a.symbol_refs[100], NX);
    stream_analysis_free(&a);
    stream_table_free(&table);
    free(t);
}

/* The caps: a trace buffer of 1000 references hands on 8 windows; a grammar
 * cap of 64 symbols cuts more; the streams are still found, none longer
 * than a window, and a grammar exceeds the cap by the rules its last
 * symbol made at most. */
static void test_analysis_caps(void **state)
{
    (void)state;
    uint32_t *t = calloc(NX * 13 + NY * 21, sizeof *t);
    size_t n = known_trace(t);
    stream_table_t table;
    stream_table_init(&table);
    data_symbols_t symbols;
    data_symbols_init(&symbols, false, 1);
    hot_stream_params_t p;
    params(&p, 1000, 1u << 20);
    stream_analysis_t a;
    stream_analysis_init(&a, &p, &table);
    data_trace_t trace;
    data_trace_init(&trace, &symbols, p.window, 16, stream_analysis_window, &a);
    for (size_t k = 0; k < n; k++) data_trace_append(&trace, t[k]);
    assert_int_equal(a.windows, n / 1000);               /* the full ones, so far */
    data_trace_flush(&trace);
    assert_int_equal(a.windows, (n + 999) / 1000);
    assert_int_equal(a.references, n);
    assert_int_equal(a.grammar_cuts, 0);
    assert_true(profile_members(a.heat) >= 2);
    uint32_t x[12];
    for (uint32_t i = 0; i < 12; i++) x[i] = 100 + i;
    uint64_t fx = profile_weight(a.freq, stream_table_intern(&table, x, 12), 0);
    assert_true(fx >= NX - 2 * a.windows && fx <= NX);   /* cut occurrences aside */
    data_trace_free(&trace);
    stream_analysis_free(&a);

    params(&p, n, 64);
    stream_analysis_init(&a, &p, &table);
    stream_analysis_window(&a, t, n);
    assert_true(a.grammar_cuts > 0);
    assert_int_equal(a.windows, a.grammar_cuts + 1);
    assert_true(a.grammar_symbols + a.grammar_rules <= 64 + 8);   /* + the last symbol's rules */
    assert_int_equal(a.references, n);
    assert_true(profile_weight(a.heat, stream_table_intern(&table, x, 12), 0) > 0);
    stream_analysis_free(&a);
    data_symbols_free(&symbols);
    stream_table_free(&table);
    free(t);
}

static void test_symbols(void **state)
{
    (void)state;
    data_symbols_t s;
    data_symbols_init(&s, false, 8);
    uint32_t a = data_symbols_intern(&s, 0x1000, 0x2000);
    assert_int_equal(a, 0);
    assert_int_equal(data_symbols_intern(&s, 0x1004, 0x2000), 1);     /* another pc */
    assert_int_equal(data_symbols_intern(&s, 0x1000, 0x2007), 0);     /* same word */
    assert_int_equal(data_symbols_intern(&s, 0x1000, 0x2008), 2);
    for (uint64_t k = 0; k < 100000; k++) assert_int_equal(data_symbols_intern(&s, 7, 8 * k + 0x100000), 3 + k);
    for (uint64_t k = 0; k < 100000; k += 997) assert_int_equal(data_symbols_intern(&s, 7, 8 * k + 0x100000), 3 + k);
    uint64_t *pcs, *addrs;
    data_symbols_pairs(&s, &pcs, &addrs);
    assert_int_equal(pcs[1], 0x1004);
    assert_int_equal(addrs[2], 0x2008);
    assert_int_equal(addrs[3 + 5], 0x100000 + 40);
    free(pcs);
    free(addrs);
    data_symbols_free(&s);

    data_symbols_init(&s, true, 1);                                    /* address alone */
    assert_int_equal(data_symbols_intern(&s, 0x1000, 0x2001), 0);
    assert_int_equal(data_symbols_intern(&s, 0x1004, 0x2001), 0);
    assert_int_equal(data_symbols_intern(&s, 0x1004, 0x2002), 1);
    data_symbols_free(&s);
}

/* Separators in a trace: never at the start, never twice in a row. */
static void test_trace_separators(void **state)
{
    (void)state;
    data_symbols_t s;
    data_symbols_init(&s, false, 8);
    data_trace_t t;
    data_trace_init(&t, &s, 1u << 20, 4, NULL, NULL);
    data_trace_separate(&t);
    data_trace_record(&t, 1, 8);
    data_trace_separate(&t);
    data_trace_separate(&t);
    data_trace_record(&t, 1, 8);
    assert_int_equal(t.len, 3);
    assert_int_equal(t.sym[1], DATA_TRACE_SEPARATOR);
    assert_int_equal(t.references, 2);
    data_trace_free(&t);
    data_symbols_free(&s);
}

static void test_stream_table(void **state)
{
    (void)state;
    stream_table_t t;
    stream_table_init(&t);
    uint32_t a[3] = { 1, 2, 3 }, b[3] = { 1, 2, 4 };
    assert_int_equal(stream_table_intern(&t, a, 3), 0);
    assert_int_equal(stream_table_intern(&t, b, 3), 1);
    assert_int_equal(stream_table_intern(&t, a, 2), 2);
    assert_int_equal(stream_table_intern(&t, a, 3), 0);
    uint32_t many[40];
    for (uint32_t k = 0; k < 5000; k++) {
        for (uint32_t i = 0; i < 40; i++) many[i] = k * 40 + i;
        assert_int_equal(stream_table_intern(&t, many, 11 + k % 30), 3 + k);
    }
    size_t len;
    const uint32_t *s = stream_table_get(&t, 3 + 4999, &len);
    assert_int_equal(len, 11 + 4999 % 30);
    assert_int_equal(s[0], 4999 * 40);
    assert_int_equal(stream_table_intern(&t, b, 3), 1);
    stream_table_free(&t);
}

/* Accuracy: a profile against itself is 100%, against one with other
 * streams 0%. */
static void test_accuracy(void **state)
{
    (void)state;
    uint32_t *t = calloc(NX * 13 + NY * 21, sizeof *t);
    size_t n = known_trace(t);
    hot_stream_params_t p;
    params(&p, n, 1u << 20);
    stream_table_t table;
    stream_table_init(&table);
    stream_analysis_t a, b, c;
    stream_analysis_init(&a, &p, &table);
    stream_analysis_init(&b, &p, &table);
    stream_analysis_init(&c, &p, &table);
    stream_analysis_window(&a, t, n);
    stream_analysis_window(&b, t, n);
    for (size_t k = 0; k < n; k++) if (t[k] < 1000) t[k] += 500;    /* other streams */
    stream_analysis_window(&c, t, n);
    assert_int_equal(profile_members(c.heat), 2);
    assert_true(hot_stream_accuracy(&b, &a, 0.9, true) == 100.0);
    assert_true(hot_stream_accuracy(&b, &a, 1.0, false) == 100.0);
    assert_true(hot_stream_accuracy(&c, &a, 0.9, true) == 0.0);
    assert_true(hot_stream_accuracy(&c, &a, 0.9, false) == 0.0);
    stream_analysis_free(&a);
    stream_analysis_free(&b);
    stream_analysis_free(&c);
    stream_table_free(&table);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_abcabc),
        cmocka_unit_test(test_abc_stream),
        cmocka_unit_test(test_runs),
        cmocka_unit_test(test_random_invariants),
        cmocka_unit_test(test_separators),
        cmocka_unit_test(test_detect_known),
        cmocka_unit_test(test_search_known),
        cmocka_unit_test(test_search_coverage),
        cmocka_unit_test(test_analysis_one_window),
        cmocka_unit_test(test_analysis_caps),
        cmocka_unit_test(test_symbols),
        cmocka_unit_test(test_trace_separators),
        cmocka_unit_test(test_stream_table),
        cmocka_unit_test(test_accuracy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
