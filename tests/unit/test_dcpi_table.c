/*
 * test_dcpi_table.c - the DCPI driver's sample table (productions/runtime/
 * dcpi_table.h), run on the host: the same insertion the guest driver
 * executes.  Checked: a repeated (PID, PC, EVENT) finds its entry; triples
 * differing in any field are distinct; a full bucket evicts by the mod-4
 * counter into the active overflow buffer and reports it full exactly
 * once; a full buffer loses what it cannot take (counted); the
 * Park-Miller generator against its published check value; periods stay in
 * their range and cover it; buckets stay in the table.  And, as a
 * trace-driven experiment on the table itself (SOSP'97 section 5), that a
 * skewed trace is aggregated well: few evictions for a hot working set.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dcpi_table.h"

static dcpi_driver_t *new_driver(void)
{
    dcpi_driver_t *d = calloc(1, sizeof *d);
    d->st.magic = DCPI_MAGIC;
    d->st.seed = 1;
    return d;
}

static uint64_t entries_for(const dcpi_driver_t *d, uint64_t pid, uint64_t pc, uint64_t event)
{
    uint64_t n = 0;
    const dcpi_bucket_t *b = &d->table[dcpi_bucket_of(pid, pc, event)];
    for (unsigned k = 0; k < DCPI_WAYS; k++)
        if (b->e[k].count && b->e[k].pc == pc && b->e[k].pid == pid && b->e[k].event == event)
            n += b->e[k].count;
    for (unsigned o = 0; o < 2; o++)
        for (uint64_t k = 0; k < d->overflow[o].count; k++) {
            const dcpi_entry_t *e = &d->overflow[o].e[k];
            if (e->pc == pc && e->pid == pid && e->event == event) n += e->count;
        }
    return n;
}

static void test_hits_and_distinct_triples(void **state)
{
    dcpi_driver_t *d = new_driver();
    for (int k = 0; k < 5; k++) assert_int_equal(dcpi_record(d, 1000, 0x10074, 0), 0);
    assert_int_equal(dcpi_record(d, 1000, 0x10074, 1), 0);   /* another event */
    assert_int_equal(dcpi_record(d, 1001, 0x10074, 0), 0);   /* another process */
    assert_int_equal(dcpi_record(d, 1000, 0x10078, 0), 0);   /* another pc */
    assert_int_equal(entries_for(d, 1000, 0x10074, 0), 5);
    assert_int_equal(entries_for(d, 1000, 0x10074, 1), 1);
    assert_int_equal(entries_for(d, 1001, 0x10074, 0), 1);
    assert_int_equal(d->st.interrupts, 8);
    assert_int_equal(d->st.hits, 4);
    assert_int_equal(d->st.evictions, 0);
    free(d);
}

/* pcs that share one bucket */
static size_t same_bucket(uint64_t *pcs, size_t want)
{
    size_t n = 0;
    uint64_t target = dcpi_bucket_of(1000, 0x20000, 0);
    for (uint64_t pc = 0x20000; n < want; pc += 4)
        if (dcpi_bucket_of(1000, pc, 0) == target) pcs[n++] = pc;
    return n;
}

static void test_eviction_round_robin(void **state)
{
    dcpi_driver_t *d = new_driver();
    uint64_t pcs[12];
    same_bucket(pcs, 12);
    for (int k = 0; k < 4; k++) dcpi_record(d, 1000, pcs[k], 0);
    assert_int_equal(d->st.evictions, 0);
    /* each further triple evicts way 0, 1, 2, 3, 0, ... into buffer 0 */
    for (int k = 4; k < 12; k++) {
        assert_int_equal(dcpi_record(d, 1000, pcs[k], 0), 0);
        assert_int_equal(d->overflow[0].e[k - 4].pc, pcs[k - 4]);
    }
    assert_int_equal(d->st.evictions, 8);
    assert_int_equal(d->overflow[0].count, 8);
    /* nothing was lost: every sample is somewhere */
    for (int k = 0; k < 12; k++) assert_int_equal(entries_for(d, 1000, pcs[k], 0), 1);
    free(d);
}

static void test_overflow_buffer_fills_once(void **state)
{
    dcpi_driver_t *d = new_driver();
    uint64_t pcs[8];
    same_bucket(pcs, 8);
    d->overflow[0].count = DCPI_OVERFLOW_ENTRIES - 2;     /* nearly full */
    for (int k = 0; k < 4; k++) dcpi_record(d, 1000, pcs[k], 0);
    assert_int_equal(dcpi_record(d, 1000, pcs[4], 0), 0);
    assert_int_equal(dcpi_record(d, 1000, pcs[5], 0), 1); /* just filled */
    /* the driver switches buffers; filling on into the full one loses */
    dcpi_record(d, 1000, pcs[5], 0);                       /* a hit: nothing evicted */
    d->st.active = 0;                                      /* pretend it did not switch */
    uint64_t lost = d->st.lost;
    assert_int_equal(dcpi_record(d, 1000, pcs[6], 0), 0);
    assert_true(d->st.lost > lost);
    free(d);
}

static void test_park_miller(void **state)
{
    uint64_t x = 1;
    for (int k = 0; k < 10000; k++) x = dcpi_park_miller(x);
    assert_int_equal(x, 1043618065);                       /* Park & Miller 1988 */
    x = 0x7ffffffe;                                        /* the largest state */
    assert_true(dcpi_park_miller(x) < 0x7fffffff);
}

static void test_periods_in_range(void **state)
{
    dcpi_state_t st = { .seed = 12345 };
    st.period_min[0] = 60000;
    st.period_span[0] = 4001;
    uint64_t lo = UINT64_MAX, hi = 0, sum = 0;
    for (int k = 0; k < 20000; k++) {
        uint64_t p = dcpi_next_period(&st, 0);
        assert_true(p >= 60000 && p <= 64000);
        lo = p < lo ? p : lo;
        hi = p > hi ? p : hi;
        sum += p;
    }
    assert_true(lo < 60050 && hi > 63950);                 /* the range is covered */
    double mean = (double)sum / 20000.0;
    assert_true(mean > 61900 && mean < 62100);             /* and uniform-ish */
}

/* A trace with a hot working set (90% of samples on 200 pcs, the rest
 * spread over 20000): the table keeps the hot entries, so most samples
 * hit and evictions stay a small fraction. */
static void test_skewed_trace_aggregates(void **state)
{
    dcpi_driver_t *d = new_driver();
    uint64_t x = 7;
    for (int k = 0; k < 200000; k++) {
        x = dcpi_park_miller(x);
        uint64_t pc = x % 10 ? 0x10000 + 4 * (x % 200) : 0x40000 + 4 * (x % 20000);
        dcpi_record(d, 1000, pc, 0);
    }
    assert_true(d->st.hits > 150000);
    assert_true(d->st.evictions < 30000);
    free(d);
}

static void test_buckets_in_table(void **state)
{
    for (uint64_t pc = 0; pc < 1u << 20; pc += 0x1234)
        assert_true(dcpi_bucket_of(1000, pc, pc & 3) < DCPI_BUCKETS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_hits_and_distinct_triples),
        cmocka_unit_test(test_eviction_round_robin),
        cmocka_unit_test(test_overflow_buffer_fills_once),
        cmocka_unit_test(test_park_miller),
        cmocka_unit_test(test_periods_in_range),
        cmocka_unit_test(test_skewed_trace_aggregates),
        cmocka_unit_test(test_buckets_in_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
