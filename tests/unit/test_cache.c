/*
 * test_cache.c - unit tests of the memory-hierarchy timing models: cache
 * hit and miss latencies through L1 -> L2 -> DRAM, replacement policies,
 * write-back and write-allocate, MSHR merging and MSHR-full waits, DRAM
 * bandwidth, TLBs, the write buffer, and the statistics they report.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cache.h"

/* ---- helpers --------------------------------------------------------------- */

static cache_config_t cfg_of(const char *name, uint64_t size, unsigned assoc,
                             unsigned line, unsigned hit, repl_policy_t repl,
                             unsigned mshrs)
{
    cache_config_t c = {
        .name = name, .size = size, .assoc = assoc, .line = line,
        .hit_latency = hit, .repl = repl, .mshrs = mshrs, .seed = 0,
    };
    return c;
}

/* A one-set, four-way cache of 32-byte lines straight onto DRAM. */
static cache_t *one_set(repl_policy_t repl, dram_t *d)
{
    cache_config_t c = cfg_of("c", 128, 4, 32, 1, repl, 4);
    return cache_new(&c, NULL, d);
}

static uint64_t stat_u64(const stats_t *s, const char *name)
{
    const stat_entry_t *e = stats_find(s, name);
    if (!e) fail_msg("missing statistic %s", name);
    assert_true(e->is_int);
    return e->ivalue;
}

static double stat_f64(const stats_t *s, const char *name)
{
    const stat_entry_t *e = stats_find(s, name);
    if (!e) fail_msg("missing statistic %s", name);
    assert_false(e->is_int);
    return e->fvalue;
}

/* Lines A..F in the single set of one_set(), accessed far apart in time. */
static const uint64_t LINE[] = { 0x1000, 0x2000, 0x3000, 0x4000, 0x5000, 0x6000 };

static void fill_four(cache_t *c)
{
    for (int i = 0; i < 4; i++)
        cache_access(c, LINE[i], false, 1000u * (unsigned)(i + 1));
}

/* ---- caches ---------------------------------------------------------------- */

static void test_hit_latency(void **state)
{
    (void)state;
    dram_t d = { .latency = 50, .bytes_per_cycle = 8 };
    cache_config_t cfg = cfg_of("l1d", 1024, 2, 32, 3, REPL_LRU, 0);
    cache_t *c = cache_new(&cfg, NULL, &d);
    assert_non_null(c);
    assert_int_equal(cache_access(c, 0x100, false, 0), 3 + 50 + 4);
    assert_false(cache_last_hit(c));
    assert_int_equal(cache_access(c, 0x11f, false, 500), 503);     /* same line */
    assert_true(cache_last_hit(c));
    assert_int_equal(cache_access(c, 0x104, true, 600), 603);      /* write hit */
    assert_true(cache_last_hit(c));
    assert_int_equal(cache_line_size(c), 32);
    cache_free(c);
}

static void test_cold_miss_two_levels(void **state)
{
    (void)state;
    dram_t d = { .latency = 100, .bytes_per_cycle = 8 };
    cache_config_t c2 = cfg_of("l2", 8192, 4, 64, 10, REPL_LRU, 8);
    cache_config_t c1 = cfg_of("l1d", 1024, 2, 32, 1, REPL_LRU, 4);
    cache_t *l2 = cache_new(&c2, NULL, &d);
    cache_t *l1 = cache_new(&c1, l2, NULL);
    /* L1 tag check 1, L2 tag check 10, DRAM 100 + 64/8 transfer. */
    assert_int_equal(cache_access(l1, 0x8000, false, 0), 1 + 10 + 100 + 8);
    assert_false(cache_last_hit(l1));
    assert_false(cache_last_hit(l2));
    /* Other half of the L2 line: L1 miss, L2 hit. */
    assert_int_equal(cache_access(l1, 0x8020, false, 200), 200 + 1 + 10);
    assert_true(cache_last_hit(l2));
    assert_int_equal(cache_access(l1, 0x8000, false, 300), 301);
    assert_true(cache_last_hit(l1));
    assert_int_equal(d.reads, 1);
    assert_int_equal(d.writes, 0);
    cache_free(l1);
    cache_free(l2);
}

static void test_lru_replacement(void **state)
{
    (void)state;
    dram_t d = { .latency = 10, .bytes_per_cycle = 32 };
    cache_t *c = one_set(REPL_LRU, &d);
    fill_four(c);
    cache_access(c, LINE[0], false, 5000);          /* A most recent: B is LRU */
    cache_access(c, LINE[4], false, 6000);          /* E evicts B */
    assert_true(cache_contains(c, LINE[0]));
    assert_false(cache_contains(c, LINE[1]));
    assert_true(cache_contains(c, LINE[2]));
    assert_true(cache_contains(c, LINE[3]));
    assert_true(cache_contains(c, LINE[4]));
    cache_access(c, LINE[5], false, 7000);          /* F evicts C */
    assert_false(cache_contains(c, LINE[2]));
    assert_true(cache_contains(c, LINE[3]));
    cache_free(c);
}

static void test_round_robin_replacement(void **state)
{
    (void)state;
    dram_t d = { .latency = 10, .bytes_per_cycle = 32 };
    cache_t *c = one_set(REPL_ROUND_ROBIN, &d);
    fill_four(c);
    cache_access(c, LINE[0], false, 5000);          /* use does not matter */
    cache_access(c, LINE[4], false, 6000);          /* E evicts way 0 = A */
    assert_false(cache_contains(c, LINE[0]));
    assert_true(cache_contains(c, LINE[1]));
    cache_access(c, LINE[5], false, 7000);          /* F evicts way 1 = B */
    assert_false(cache_contains(c, LINE[1]));
    assert_true(cache_contains(c, LINE[2]));
    assert_true(cache_contains(c, LINE[3]));
    assert_true(cache_contains(c, LINE[4]));
    assert_true(cache_contains(c, LINE[5]));
    cache_free(c);
}

/* Which of A..D a fifth line evicts, for a random cache with this seed. */
static int random_victim(uint64_t seed)
{
    dram_t d = { .latency = 10, .bytes_per_cycle = 32 };
    cache_config_t cfg = cfg_of("c", 128, 4, 32, 1, REPL_RANDOM, 4);
    cfg.seed = seed;
    cache_t *c = cache_new(&cfg, NULL, &d);
    fill_four(c);
    cache_access(c, LINE[4], false, 6000);
    int victim = -1, missing = 0;
    for (int i = 0; i < 4; i++)
        if (!cache_contains(c, LINE[i])) { victim = i; missing++; }
    assert_int_equal(missing, 1);
    assert_true(cache_contains(c, LINE[4]));
    cache_free(c);
    return victim;
}

static void test_random_replacement(void **state)
{
    (void)state;
    int seen[4] = {0};
    for (uint64_t seed = 1; seed <= 64; seed++) {
        int v = random_victim(seed);
        assert_int_equal(random_victim(seed), v);   /* deterministic */
        seen[v]++;
    }
    for (int i = 0; i < 4; i++) assert_true(seen[i] > 0);  /* and spread */
}

static void test_dirty_eviction_writes_back(void **state)
{
    (void)state;
    dram_t d = { .latency = 100, .bytes_per_cycle = 8 };
    cache_t *c = one_set(REPL_LRU, &d);
    cache_access(c, LINE[0], true, 0);              /* A dirty */
    for (int i = 1; i < 4; i++) cache_access(c, LINE[i], false, 1000u * (unsigned)i);
    assert_int_equal(d.writes, 0);
    cache_access(c, LINE[1], false, 4000);          /* hits: LRU order stays */
    cache_access(c, LINE[2], false, 4001);          /* A, B, C, D */
    cache_access(c, LINE[3], false, 4002);
    /* E at 5000: fill starts at 5001, returns 5001 + 100 + 32/8; the
     * write-back of A follows it on the bus (5005..5009). */
    assert_int_equal(cache_access(c, LINE[4], false, 5000), 5105);
    assert_int_equal(d.writes, 1);
    assert_int_equal(d.reads, 5);
    assert_false(cache_contains(c, LINE[0]));
    /* The next miss finds the bus busy with the write-back until 5009. */
    assert_int_equal(cache_access(c, LINE[5], false, 5002), 5009 + 100 + 4);
    assert_int_equal(d.writes, 1);                  /* B was clean */
    stats_t s = {0};
    cache_stats(c, &s);
    assert_int_equal(stat_u64(&s, "c.writebacks"), 1);
    stats_free(&s);
    cache_free(c);
}

static void test_write_allocate(void **state)
{
    (void)state;
    dram_t d = { .latency = 20, .bytes_per_cycle = 32 };
    cache_t *c = one_set(REPL_LRU, &d);
    assert_int_equal(cache_access(c, 0x40, true, 0), 1 + 20 + 1);
    assert_false(cache_last_hit(c));
    assert_true(cache_contains(c, 0x40));
    assert_int_equal(d.reads, 1);                   /* the line was fetched */
    assert_int_equal(cache_access(c, 0x48, false, 100), 101);
    assert_true(cache_last_hit(c));
    cache_free(c);
}

static void test_writeback_into_l2(void **state)
{
    (void)state;
    dram_t d = { .latency = 100, .bytes_per_cycle = 8 };
    cache_config_t c2 = cfg_of("l2", 4096, 4, 64, 10, REPL_LRU, 8);
    cache_config_t c1 = cfg_of("l1d", 32, 1, 32, 1, REPL_LRU, 2);   /* one line */
    cache_t *l2 = cache_new(&c2, NULL, &d);
    cache_t *l1 = cache_new(&c1, l2, NULL);
    cache_access(l1, 0x1000, true, 0);
    cache_access(l1, 0x2000, false, 1000);          /* evicts dirty 0x1000 into L2 */
    assert_int_equal(d.reads, 2);
    assert_int_equal(d.writes, 0);                  /* absorbed by L2 */
    stats_t s = {0};
    cache_stats(l1, &s);
    cache_stats(l2, &s);
    assert_int_equal(stat_u64(&s, "l1d.writebacks"), 1);
    assert_int_equal(stat_u64(&s, "l2.writebacks_received"), 1);
    assert_int_equal(stat_u64(&s, "l2.accesses"), 2);   /* write-backs are not demand */
    stats_free(&s);
    cache_free(l1);
    cache_free(l2);
}

static void test_mshr_merge(void **state)
{
    (void)state;
    dram_t d = { .latency = 100, .bytes_per_cycle = 8 };
    cache_t *c = one_set(REPL_LRU, &d);
    assert_int_equal(cache_access(c, 0x1000, false, 0), 105);
    assert_int_equal(cache_access(c, 0x1008, false, 2), 105);   /* merged */
    assert_false(cache_last_hit(c));
    assert_int_equal(cache_access(c, 0x1010, true, 103), 105);  /* tag check 104 */
    assert_false(cache_last_hit(c));
    assert_int_equal(cache_access(c, 0x1018, false, 104), 105); /* fill done by 105 */
    assert_true(cache_last_hit(c));
    assert_int_equal(cache_access(c, 0x1000, false, 105), 106);
    assert_true(cache_last_hit(c));
    assert_int_equal(d.reads, 1);
    stats_t s = {0};
    cache_stats(c, &s);
    assert_int_equal(stat_u64(&s, "c.mshr_merges"), 2);
    assert_int_equal(stat_u64(&s, "c.misses"), 3);
    assert_int_equal(stat_u64(&s, "c.write_misses"), 1);
    assert_int_equal(stat_u64(&s, "c.hits"), 2);
    stats_free(&s);
    cache_free(c);
}

static void test_mshr_merge_after_eviction(void **state)
{
    (void)state;
    dram_t d = { .latency = 100, .bytes_per_cycle = 8 };
    cache_config_t cfg = cfg_of("c", 32, 1, 32, 1, REPL_LRU, 2);   /* one line */
    cache_t *c = cache_new(&cfg, NULL, &d);
    assert_int_equal(cache_access(c, 0x1000, false, 0), 105);
    assert_int_equal(cache_access(c, 0x2000, false, 1), 5 + 100 + 4);  /* evicts A */
    assert_false(cache_contains(c, 0x1000));
    /* A again while its fill is in flight: the MSHR still holds it. */
    assert_int_equal(cache_access(c, 0x1000, false, 3), 105);
    assert_true(cache_contains(c, 0x1000));
    assert_int_equal(d.reads, 2);
    cache_free(c);
}

/* Three misses at cycles 0, 1, 2 with the given MSHR count; DRAM latency
 * 100 and a one-cycle transfer, so the bus never limits. */
static void three_misses(unsigned mshrs, uint64_t ret[3], uint64_t *stall_cycles)
{
    dram_t d = { .latency = 100, .bytes_per_cycle = 32 };
    cache_config_t cfg = cfg_of("c", 1024, 2, 32, 1, REPL_LRU, mshrs);
    cache_t *c = cache_new(&cfg, NULL, &d);
    for (unsigned i = 0; i < 3; i++) ret[i] = cache_access(c, 0x100u * (i + 1), false, i);
    stats_t s = {0};
    cache_stats(c, &s);
    *stall_cycles = stat_u64(&s, "c.mshr_full_stall_cycles");
    stats_free(&s);
    cache_free(c);
}

static void test_mshr_full_one(void **state)
{
    (void)state;
    uint64_t r[3], stall;
    three_misses(1, r, &stall);
    assert_int_equal(r[0], 1 + 100 + 1);            /* 102 */
    assert_int_equal(r[1], 102 + 100 + 1);          /* waits for the MSHR */
    assert_int_equal(r[2], 203 + 100 + 1);
    assert_int_equal(stall, 203 - 2);               /* [2, 102) and [3, 203) overlap */
}

/* A second access to a line whose fill is still waiting for an MSHR waits
 * for that fill: it books no MSHR of its own, so a third line is not
 * queued behind a duplicate fill (the store-stream queueing bug). */
static void test_mshr_wait_merges(void **state)
{
    (void)state;
    dram_t d = { .latency = 100, .bytes_per_cycle = 32 };
    cache_config_t cfg = cfg_of("c", 1024, 2, 32, 1, REPL_LRU, 1);
    cache_t *c = cache_new(&cfg, NULL, &d);
    assert_int_equal(cache_access(c, 0x100, false, 0), 102);
    assert_int_equal(cache_access(c, 0x200, true, 1), 203);    /* waits for the MSHR */
    assert_int_equal(cache_last_accept(c), 102);
    assert_int_equal(cache_access(c, 0x208, true, 2), 203);    /* merges into that fill */
    assert_false(cache_last_hit(c));
    assert_int_equal(cache_last_accept(c), 102);
    assert_int_equal(cache_access(c, 0x300, false, 3), 304);   /* next free at 203 */
    stats_t s = {0};
    cache_stats(c, &s);
    assert_int_equal(stat_u64(&s, "c.mshr_full_stalls"), 2);
    assert_int_equal(stat_u64(&s, "c.mshr_merges"), 1);
    stats_free(&s);
    cache_free(c);
}

static void test_mshr_full_two(void **state)
{
    (void)state;
    uint64_t r[3], stall;
    three_misses(2, r, &stall);
    assert_int_equal(r[0], 102);
    assert_int_equal(r[1], 2 + 100 + 1);            /* second MSHR free */
    assert_int_equal(r[2], 102 + 100 + 1);          /* waits for the first */
    assert_int_equal(stall, 102 - 3);
}

static void test_blocking_cache(void **state)
{
    (void)state;
    uint64_t r0[3], r1[3], s0, s1;
    three_misses(0, r0, &s0);
    three_misses(1, r1, &s1);
    assert_memory_equal(r0, r1, sizeof r0);         /* 0 MSHRs = blocking = 1 */
    assert_int_equal(s0, s1);

    /* A hit to a present line is not held up by the outstanding miss. */
    dram_t d = { .latency = 100, .bytes_per_cycle = 32 };
    cache_config_t cfg = cfg_of("c", 1024, 2, 32, 1, REPL_LRU, 0);
    cache_t *c = cache_new(&cfg, NULL, &d);
    cache_access(c, 0x100, false, 0);
    assert_int_equal(cache_access(c, 0x200, false, 500), 602);
    assert_int_equal(cache_access(c, 0x100, false, 501), 502);
    cache_free(c);
}

/* Requests out of time order (an out-of-order core writes a store at
 * graduation, after younger loads issued at earlier cycles): a booking for
 * later leaves the bus free before it. */
static void test_dram_bus_out_of_order(void **state)
{
    (void)state;
    dram_t d = { .latency = 100, .bytes_per_cycle = 8 };
    assert_int_equal(dram_access(&d, 64, true, 5000), 5000 + 100 + 8);   /* bus 5000..5008 */
    assert_int_equal(dram_access(&d, 64, false, 100), 100 + 100 + 8);    /* idle at 100 */
    assert_int_equal(dram_access(&d, 64, false, 4996), 5008 + 100 + 8);  /* would overlap */
    assert_int_equal(dram_access(&d, 64, false, 4990), 4990 + 100 + 8);  /* fits before */
}

/* Every MSHR booked for later: an earlier miss is not held behind them,
 * and an access to a line whose fill was booked for later fills it first. */
static void test_mshr_out_of_order(void **state)
{
    (void)state;
    dram_t d = { .latency = 100, .bytes_per_cycle = 32 };
    cache_config_t cfg = cfg_of("c", 8192, 4, 32, 1, REPL_LRU, 2);
    cache_t *c = cache_new(&cfg, NULL, &d);
    assert_int_equal(cache_access(c, 0x1000, true, 10000), 10001 + 101);
    assert_int_equal(cache_access(c, 0x2000, true, 10000), 10002 + 101);
    assert_int_equal(cache_access(c, 0x3000, false, 50), 51 + 101);      /* MSHRs idle at 51 */
    assert_int_equal(cache_access(c, 0x1000, false, 60), 61 + 101);      /* before its fill */
    stats_t s = {0};
    cache_stats(c, &s);
    assert_int_equal(stat_u64(&s, "c.mshr_full_stalls"), 0);
    assert_true(stat_u64(&s, "c.mshr_full_stall_cycles") == 0);
    stats_free(&s);
    /* Both MSHRs busy over 200..302: a third miss at 250 waits for one. */
    cache_access(c, 0x4000, false, 199);
    cache_access(c, 0x5000, false, 199);
    assert_int_equal(cache_access(c, 0x6000, false, 250), 301 + 101);
    cache_free(c);
}

static void test_dram_bandwidth(void **state)
{
    (void)state;
    dram_t d = { .latency = 100, .bytes_per_cycle = 8 };
    cache_config_t cfg = cfg_of("l2", 8192, 4, 64, 1, REPL_LRU, 8);
    cache_t *c = cache_new(&cfg, NULL, &d);
    /* Three misses at cycle 0: each holds the bus for 64/8 = 8 cycles. */
    assert_int_equal(cache_access(c, 0x0000, false, 0), 1 + 100 + 8);
    assert_int_equal(cache_access(c, 0x1000, false, 0), 9 + 100 + 8);
    assert_int_equal(cache_access(c, 0x2000, false, 0), 17 + 100 + 8);
    /* Later, with the bus idle, no queueing. */
    assert_int_equal(cache_access(c, 0x3000, false, 1000), 1109);
    cache_free(c);

    dram_t e = { .latency = 10, .bytes_per_cycle = 16 };
    assert_int_equal(dram_access(&e, 40, false, 5), 5 + 10 + 3);    /* ceil */
    assert_int_equal(dram_access(&e, 16, true, 7), 8 + 10 + 1);     /* queued */
    assert_int_equal(dram_access(&e, 16, true, 0), 0 + 10 + 1);     /* fits before */
    assert_int_equal(e.reads, 1);
    assert_int_equal(e.writes, 2);
    stats_t s = {0};
    dram_stats(&e, &s);
    assert_int_equal(stat_u64(&s, "dram.reads"), 1);
    assert_int_equal(stat_u64(&s, "dram.writes"), 2);
    stats_free(&s);
}

static void test_out_of_order_now(void **state)
{
    (void)state;
    dram_t d = { .latency = 100, .bytes_per_cycle = 32 };
    cache_config_t cfg = cfg_of("c", 1024, 2, 32, 1, REPL_LRU, 2);
    cache_t *c = cache_new(&cfg, NULL, &d);
    assert_int_equal(cache_access(c, 0x100, false, 1000), 1102);
    uint64_t r = cache_access(c, 0x200, false, 10);    /* earlier than before */
    assert_true(r >= 11);
    /* the fill booked at 1001 was not in flight at 20: this access fills
     * the line first */
    assert_int_equal(cache_access(c, 0x100, false, 20), 21 + 101);
    assert_int_equal(cache_access(c, 0x100, false, 30), 21 + 101);  /* now in flight */
    assert_true(cache_access(c, 0x300, true, 5) >= 6);
    cache_free(c);
}

static void test_bad_geometry(void **state)
{
    (void)state;
    dram_t d = { .latency = 1, .bytes_per_cycle = 1 };
    cache_config_t cfg = cfg_of("c", 3 * 1024, 2, 32, 1, REPL_LRU, 1);
    assert_null(cache_new(&cfg, NULL, &d));             /* 48 sets */
    cfg = cfg_of("c", 1024, 2, 24, 1, REPL_LRU, 1);
    assert_null(cache_new(&cfg, NULL, &d));             /* line not 2^n */
    cfg = cfg_of("c", 1024, 0, 32, 1, REPL_LRU, 1);
    assert_null(cache_new(&cfg, NULL, &d));
    cfg = cfg_of("c", 1024, 2, 32, 1, REPL_LRU, 1);
    assert_null(cache_new(&cfg, NULL, NULL));           /* nowhere to miss to */
    tlb_config_t t = { .name = "t", .entries = 12, .assoc = 2, .page_size = 4096 };
    assert_null(tlb_new(&t));
}

static void test_cache_statistics(void **state)
{
    (void)state;
    dram_t d = { .latency = 100, .bytes_per_cycle = 8 };
    cache_config_t cfg = cfg_of("l1d", 128, 4, 32, 1, REPL_LRU, 1);
    cache_t *c = cache_new(&cfg, NULL, &d);
    cache_access(c, 0x1000, false, 0);      /* miss, 105 */
    cache_access(c, 0x1008, true, 1);       /* merge, 105 (104 cycles) */
    cache_access(c, 0x2000, false, 2);      /* MSHR full: waits 105 - 3 = 102, ret 209;
                                               its latency counts from 105 - 1 */
    cache_access(c, 0x1000, false, 300);    /* hit */
    cache_access(c, 0x2000, true, 301);     /* hit */
    stats_t s = {0};
    cache_stats(c, &s);
    assert_int_equal(stat_u64(&s, "l1d.accesses"), 5);
    assert_int_equal(stat_u64(&s, "l1d.hits"), 2);
    assert_int_equal(stat_u64(&s, "l1d.misses"), 3);
    assert_int_equal(stat_u64(&s, "l1d.reads"), 3);
    assert_int_equal(stat_u64(&s, "l1d.writes"), 2);
    assert_int_equal(stat_u64(&s, "l1d.read_misses"), 2);
    assert_int_equal(stat_u64(&s, "l1d.write_misses"), 1);
    assert_int_equal(stat_u64(&s, "l1d.mshr_merges"), 1);
    assert_int_equal(stat_u64(&s, "l1d.mshr_full_stalls"), 1);
    assert_int_equal(stat_u64(&s, "l1d.mshr_full_stall_cycles"), 102);
    assert_int_equal(stat_u64(&s, "l1d.writebacks"), 0);
    assert_true(stat_f64(&s, "l1d.miss_rate") == 0.6);
    assert_true(stat_f64(&s, "l1d.avg_miss_latency") == (105.0 + 104.0 + 105.0) / 3);
    stats_free(&s);
    cache_free(c);
}

/* ---- TLBs ------------------------------------------------------------------ */

static void test_tlb_hit_miss(void **state)
{
    (void)state;
    tlb_config_t cfg = { .name = "dtlb", .entries = 4, .assoc = 2,
                         .page_size = 4096, .miss_penalty = 30 };
    tlb_t *t = tlb_new(&cfg);
    assert_non_null(t);
    assert_int_equal(tlb_access(t, 0x1000), 30);
    assert_int_equal(tlb_access(t, 0x1fff), 0);
    assert_int_equal(tlb_access(t, 0x2000), 30);
    assert_int_equal(tlb_access(t, 0x1abc), 0);
    tlb_free(t);
}

static void test_tlb_lru(void **state)
{
    (void)state;
    tlb_config_t cfg = { .name = "dtlb", .entries = 4, .assoc = 2,
                         .page_size = 4096, .miss_penalty = 30 };
    tlb_t *t = tlb_new(&cfg);
    /* Pages 0, 2, 4 share set 0 of two. */
    assert_int_equal(tlb_access(t, 0x0000), 30);
    assert_int_equal(tlb_access(t, 0x2000), 30);
    assert_int_equal(tlb_access(t, 0x1000), 30);   /* set 1, no effect on set 0 */
    assert_int_equal(tlb_access(t, 0x0000), 0);    /* page 2 now LRU */
    assert_int_equal(tlb_access(t, 0x4000), 30);   /* evicts page 2 */
    assert_int_equal(tlb_access(t, 0x0000), 0);
    assert_int_equal(tlb_access(t, 0x1000), 0);
    assert_int_equal(tlb_access(t, 0x2000), 30);   /* evicts page 4 */
    assert_int_equal(tlb_access(t, 0x0000), 0);
    assert_int_equal(tlb_access(t, 0x4000), 30);
    tlb_free(t);
}

static void test_tlb_fully_associative(void **state)
{
    (void)state;
    tlb_config_t cfg = { .name = "itlb", .entries = 4, .assoc = 4,
                         .page_size = 8192, .miss_penalty = 12 };
    tlb_t *t = tlb_new(&cfg);
    /* Pages 0, 4, 8, 12 would all conflict in a set-indexed TLB. */
    for (uint64_t p = 0; p < 16; p += 4) assert_int_equal(tlb_access(t, p * 8192), 12);
    for (uint64_t p = 0; p < 16; p += 4) assert_int_equal(tlb_access(t, p * 8192 + 8), 0);
    assert_int_equal(tlb_access(t, 0), 0);          /* page 4 is now LRU */
    assert_int_equal(tlb_access(t, 20 * 8192), 12);
    assert_int_equal(tlb_access(t, 4 * 8192), 12);  /* was evicted; evicts 8 */
    assert_int_equal(tlb_access(t, 12 * 8192), 0);
    assert_int_equal(tlb_access(t, 8 * 8192), 12);

    stats_t s = {0};
    tlb_stats(t, &s);
    assert_int_equal(stat_u64(&s, "itlb.accesses"), 13);
    assert_int_equal(stat_u64(&s, "itlb.misses"), 7);
    assert_int_equal(stat_u64(&s, "itlb.hits"), 6);
    assert_true(stat_f64(&s, "itlb.miss_rate") == 7.0 / 13.0);
    stats_free(&s);
    tlb_free(t);
}

/* ---- write buffer ------------------------------------------------------------ */

/* D-cache for the write-buffer tests: one MSHR, DRAM latency 100 and a
 * one-cycle transfer, so a store miss drains in 1 + 100 + 1 cycles. */
static cache_t *wb_dcache(dram_t *d)
{
    d->latency = 100;
    d->bytes_per_cycle = 32;
    cache_config_t cfg = cfg_of("l1d", 1024, 2, 32, 1, REPL_LRU, 1);
    return cache_new(&cfg, NULL, d);
}

static void test_write_buffer_fills_and_stalls(void **state)
{
    (void)state;
    dram_t d = {0};
    cache_t *c = wb_dcache(&d);
    write_buffer_t *w = write_buffer_new(2, c);
    assert_non_null(w);
    /* Drains: A 0..102, B 102..204, C 204..306, D 306..408. */
    assert_int_equal(write_buffer_store(w, 0x100, 0), 0);
    assert_int_equal(write_buffer_store(w, 0x200, 1), 1);
    assert_int_equal(write_buffer_store(w, 0x300, 2), 102);   /* waits for A */
    assert_int_equal(write_buffer_store(w, 0x400, 3), 204);   /* waits for B */
    assert_true(cache_contains(c, 0x400));
    /* A later store hitting in the cache drains in one cycle. */
    assert_int_equal(write_buffer_store(w, 0x108, 1000), 1000);
    assert_int_equal(write_buffer_store(w, 0x208, 1000), 1000);
    assert_int_equal(write_buffer_store(w, 0x308, 1000), 1001);  /* first ends 1001 */

    stats_t s = {0};
    write_buffer_stats(w, &s);
    assert_int_equal(stat_u64(&s, "wbuf.stores"), 7);
    assert_int_equal(stat_u64(&s, "wbuf.full_stalls"), 3);
    assert_int_equal(stat_u64(&s, "wbuf.full_stall_cycles"), 100 + 201 + 1);
    assert_int_equal(stat_u64(&s, "wbuf.drains"), 7);
    cache_stats(c, &s);
    assert_int_equal(stat_u64(&s, "l1d.writes"), 7);
    stats_free(&s);
    write_buffer_free(w);
    cache_free(c);
}

static void test_write_buffer_merging(void **state)
{
    (void)state;
    dram_t d = {0};
    cache_t *c = wb_dcache(&d);
    write_buffer_t *w = write_buffer_new(2, c);
    write_buffer_set_merge(w, true);
    assert_int_equal(write_buffer_store(w, 0x100, 0), 0);     /* drains 0..102 */
    assert_int_equal(write_buffer_store(w, 0x108, 1), 1);     /* A draining: no merge */
    /* The second entry drains 102..103 (a hit); the third is full until A
     * drains at 102 and starts its drain at 103. */
    assert_int_equal(write_buffer_store(w, 0x200, 2), 102);
    assert_int_equal(write_buffer_store(w, 0x208, 102), 102); /* not started: merges */
    assert_int_equal(write_buffer_store(w, 0x210, 102), 102); /* merges again */
    assert_int_equal(write_buffer_store(w, 0x218, 103), 103); /* draining: new entry */
    stats_t s = {0};
    write_buffer_stats(w, &s);
    assert_int_equal(stat_u64(&s, "wbuf.merges"), 2);
    assert_int_equal(stat_u64(&s, "wbuf.drains"), 4);
    assert_int_equal(stat_u64(&s, "wbuf.stores"), 6);
    stats_free(&s);
    write_buffer_free(w);
    cache_free(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hit_latency),
        cmocka_unit_test(test_cold_miss_two_levels),
        cmocka_unit_test(test_lru_replacement),
        cmocka_unit_test(test_round_robin_replacement),
        cmocka_unit_test(test_random_replacement),
        cmocka_unit_test(test_dirty_eviction_writes_back),
        cmocka_unit_test(test_write_allocate),
        cmocka_unit_test(test_writeback_into_l2),
        cmocka_unit_test(test_mshr_merge),
        cmocka_unit_test(test_mshr_merge_after_eviction),
        cmocka_unit_test(test_mshr_full_one),
        cmocka_unit_test(test_mshr_full_two),
        cmocka_unit_test(test_mshr_wait_merges),
        cmocka_unit_test(test_dram_bus_out_of_order),
        cmocka_unit_test(test_mshr_out_of_order),
        cmocka_unit_test(test_blocking_cache),
        cmocka_unit_test(test_dram_bandwidth),
        cmocka_unit_test(test_out_of_order_now),
        cmocka_unit_test(test_bad_geometry),
        cmocka_unit_test(test_cache_statistics),
        cmocka_unit_test(test_tlb_hit_miss),
        cmocka_unit_test(test_tlb_lru),
        cmocka_unit_test(test_tlb_fully_associative),
        cmocka_unit_test(test_write_buffer_fills_and_stalls),
        cmocka_unit_test(test_write_buffer_merging),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
