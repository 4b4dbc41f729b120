/*
 * test_profileme.c - the ProfileMe sampler (pipeline/profileme.c) on its
 * own, fed records the way a timing model feeds it (no PMU: nothing is
 * delivered).  Checked: --profileme parsing and its errors; the selection
 * (periods within period +- period/8, their mean near the period, the same
 * seed the same picks, another seed others); each pair's second at a
 * distance 1..W after its first; concurrency and wasted issue slots from
 * pairs whose overlap is known; the driver's table (pm_table.h, the code
 * the guest driver runs): sums per pc, pair ends, and the drain request
 * at three-quarters full.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profileme.h"

#define N_INSTS 200000

static profileme_t *sampler(uint64_t period, unsigned window, uint64_t seed)
{
    pm_config_t cfg = { 0 };
    char spec[64], err[256];
    snprintf(spec, sizeof spec, "%llu:%u", (unsigned long long)period, window);
    assert_true(profileme_parse(spec, &cfg, err, sizeof err));
    cfg.seed = seed;
    cfg.issue_width = 4;
    return profileme_new(&cfg, NULL);
}

/* Instruction i: pc 4i (so the TSV names it), in flight for `life` cycles
 * from cycle i, issued at i + 1. */
static void feed(profileme_t *pm, uint64_t n, uint64_t life)
{
    for (uint64_t i = 0; i < n; i++) {
        if (!profileme_selects(pm)) continue;
        pm_record_t r = { .pc = 0x1000 + 4 * i, .fetch = i, .decode = i, .issue = i + 1,
                          .complete = i + 2, .retire = i + life, .flags = PM_RETIRED };
        profileme_record(pm, &r);
    }
}

typedef struct row { uint64_t pc, samples, records; double concurrency, wasted; } row_t;

/* profileme_write_tsv's rows (pc, samples, pair_records, concurrency,
 * wasted slots), sorted by pc. */
static size_t rows_of(profileme_t *pm, row_t *out, size_t max)
{
    char *buf = NULL;
    size_t len = 0, n = 0;
    FILE *f = open_memstream(&buf, &len);
    profileme_write_tsv(pm, f, NULL);
    fclose(f);
    char *save = NULL;
    for (char *line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        if (!strncmp(line, "pc\t", 3) || n == max) continue;
        char *cols[32];
        int k = 0;
        for (char *c = strsep(&line, "\t"); c && k < 32; c = strsep(&line, "\t")) cols[k++] = c;
        assert_int_equal(k, 22);
        out[n++] = (row_t){ strtoull(cols[0], NULL, 16), strtoull(cols[2], NULL, 10),
                            strtoull(cols[3], NULL, 10), strtod(cols[20], NULL),
                            strtod(cols[21], NULL) };
    }
    free(buf);
    for (size_t a = 1; a < n; a++)          /* insertion sort by pc */
        for (size_t b = a; b > 0 && out[b - 1].pc > out[b].pc; b--) {
            row_t t = out[b]; out[b] = out[b - 1]; out[b - 1] = t;
        }
    return n;
}

static void test_parse(void **state)
{
    (void)state;
    pm_config_t cfg = { 0 };
    char err[256];
    assert_true(profileme_parse("800", &cfg, err, sizeof err));
    assert_int_equal(cfg.period, 800);
    assert_int_equal(cfg.jitter, 100);
    assert_int_equal(cfg.window, 0);
    assert_true(profileme_parse("800:32", &cfg, err, sizeof err));
    assert_int_equal(cfg.window, 32);
    const char *bad[] = { "", "x", "100:", ":8", "100:8x", "-5", "1", "100:88", "100:5000" };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        err[0] = 0;
        assert_false(profileme_parse(bad[k], &cfg, err, sizeof err));
        assert_non_null(strstr(err, "--profileme"));
    }
}

static void test_periods(void **state)
{
    (void)state;
    static row_t rows[4096];
    profileme_t *pm = sampler(100, 0, 1);
    feed(pm, N_INSTS, 3);
    size_t n = rows_of(pm, rows, 4096);
    /* every pc is picked at most once; gaps within 88..112; the mean near 100 */
    assert_true(n > N_INSTS / 113 && n <= N_INSTS / 87 + 1);
    for (size_t k = 1; k < n; k++) {
        uint64_t gap = (rows[k].pc - rows[k - 1].pc) / 4;
        assert_int_equal(rows[k].samples, 1);
        assert_true(gap >= 88 && gap <= 112);
    }
    double mean = (double)(rows[n - 1].pc - rows[0].pc) / 4.0 / (double)(n - 1);
    assert_true(mean > 98.0 && mean < 102.0);
    profileme_free(pm);
}

static void test_seeds(void **state)
{
    (void)state;
    static row_t a[512], b[512], c[512];
    profileme_t *p1 = sampler(1000, 0, 7), *p2 = sampler(1000, 0, 7), *p3 = sampler(1000, 0, 8);
    feed(p1, N_INSTS, 3);
    feed(p2, N_INSTS, 3);
    feed(p3, N_INSTS, 3);
    size_t n1 = rows_of(p1, a, 512), n2 = rows_of(p2, b, 512), n3 = rows_of(p3, c, 512);
    assert_int_equal(n1, n2);
    assert_memory_equal(a, b, n1 * sizeof *a);
    bool differ = n1 != n3;
    for (size_t k = 0; !differ && k < n1; k++) differ = a[k].pc != c[k].pc;
    assert_true(differ);
    profileme_free(p1);
    profileme_free(p2);
    profileme_free(p3);
}

static void test_pairs(void **state)
{
    (void)state;
    static row_t rows[8192];
    enum { W = 16 };
    profileme_t *pm = sampler(200, W, 3);
    /* in flight 1000 cycles: every partner (distance <= 16) overlaps and
     * issues while its first is in flight */
    feed(pm, N_INSTS, 1000);
    size_t n = rows_of(pm, rows, 8192), anchors = 0;
    for (size_t k = 0; k < n; k++) {
        if (!rows[k].samples) continue;
        anchors++;
        assert_true(k + 1 < n);                 /* its partner is next by pc */
        uint64_t d = (rows[k + 1].pc - rows[k].pc) / 4;
        assert_int_equal(rows[k + 1].samples, 0);
        assert_true(d >= 1 && d <= W);
        /* a first has pairs forward only: all W after it overlapped */
        assert_true(rows[k].concurrency > W - 0.001 && rows[k].concurrency < W + 0.001);
        /* 4 slots a cycle for 1000 cycles, one used by itself and W by the partner estimate */
        assert_true(rows[k].wasted > 4000 - 1 - W - 0.01 && rows[k].wasted < 4000 - 1 - W + 0.01);
    }
    assert_true(anchors > N_INSTS / 230);
    profileme_free(pm);

    /* in flight 1 cycle: the partner never overlaps */
    pm = sampler(200, W, 3);
    feed(pm, N_INSTS, 1);
    n = rows_of(pm, rows, 8192);
    for (size_t k = 0; k < n; k++) assert_true(rows[k].concurrency < 0.001);
    profileme_free(pm);
}

static void test_driver_table(void **state)
{
    (void)state;
    static pm_driver_t d;
    memset(&d, 0, sizeof d);
    pm_record_t load = { .pc = 0x2000, .addr = 0x9000, .fetch = 10, .decode = 11, .issue = 14,
                         .complete = 20, .retire = 22, .head = 5, .load_latency = 6,
                         .flags = PM_LOAD | PM_DCACHE | PM_RETIRED };
    pm_record_t later = { .pc = 0x2010, .fetch = 12, .decode = 13, .issue = 15, .complete = 16,
                          .retire = 23, .flags = PM_RETIRED };
    pm_record_t after = { .pc = 0x2010, .fetch = 30, .decode = 31, .issue = 32, .complete = 33,
                          .retire = 34, .flags = PM_WRONG_PATH };
    assert_int_equal(pm_take(&d, &load, &later), 0);     /* overlapping pair */
    assert_int_equal(pm_take(&d, &load, &after), 0);     /* disjoint pair */
    assert_int_equal(pm_take(&d, &after, NULL), 0);      /* a lone sample */
    assert_int_equal(d.st.samples, 3);
    assert_int_equal(d.st.used, 2);
    const pm_entry_t *a = pm_entry(&d, 0x2000), *b = pm_entry(&d, 0x2010);
    assert_int_equal(a->anchors, 2);
    assert_int_equal(a->records, 2);
    assert_int_equal(a->head_sum, 10);
    assert_int_equal(a->lat[0], 2);
    assert_int_equal(a->lat[1], 6);
    assert_int_equal(a->lat[2], 12);
    assert_int_equal(a->lat[3], 4);
    assert_int_equal(a->loads, 2);
    assert_int_equal(a->load_lat, 12);
    assert_int_equal(a->flag[4], 2);                       /* PM_DCACHE */
    assert_int_equal(a->pairs[0], 2);
    assert_int_equal(a->overlapped[0], 1);
    assert_int_equal(a->issued_in[0], 1);
    assert_int_equal(a->inflight_sum, 24);
    assert_int_equal(b->anchors, 1);
    assert_int_equal(b->records, 3);                       /* twice a partner, once sampled */
    assert_int_equal(b->pairs[1], 2);
    assert_int_equal(b->overlapped[1], 1);
    assert_int_equal(b->flag[9], 0);                       /* aborted, not retired */
    assert_int_equal(b->flag[10], 1);
    /* a drain is asked for when the table is three-quarters full */
    for (uint64_t pc = 0x10000; d.st.used < PM_DRAIN_AT - 1; pc += 4) {
        pm_record_t r = { .pc = pc, .flags = PM_RETIRED };
        assert_int_equal(pm_take(&d, &r, NULL), 0);
    }
    pm_record_t last = { .pc = 0x80000, .flags = PM_RETIRED };
    assert_int_equal(pm_take(&d, &last, NULL), 1);
    assert_int_equal(d.st.drains, 1);
}

/* The sampler without a guest driver drains its own table: more distinct
 * pcs than a table holds still come out whole. */
static void test_drains_merge(void **state)
{
    (void)state;
    static row_t rows[8192];
    profileme_t *pm = sampler(40, 0, 5);
    feed(pm, N_INSTS, 3);                       /* about 5,000 sampled pcs */
    size_t n = rows_of(pm, rows, 8192);
    uint64_t samples = 0;
    for (size_t k = 0; k < n; k++) samples += rows[k].samples;
    assert_true(n > 2 * PM_ENTRIES && n < 8192);
    assert_int_equal(samples, n);               /* each pc once, none lost */
    profileme_free(pm);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),
        cmocka_unit_test(test_periods),
        cmocka_unit_test(test_seeds),
        cmocka_unit_test(test_pairs),
        cmocka_unit_test(test_driver_table),
        cmocka_unit_test(test_drains_merge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
