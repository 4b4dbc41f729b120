/*
 * dcpi_table.h - the DCPI device driver's sample aggregation (Anderson et
 * al., SOSP'97, section 4.2), one source for both sides:
 *   - the guest driver (dcpi_driver.c, in the handler runtime), whose
 *     interrupt handler calls dcpi_record() for every sample, and
 *   - the host (dcpi/daemon.c), which reads the same structure out of the
 *     runtime's memory, and can run dcpi_record() on a sample trace to
 *     study the table itself (tests/unit/test_dcpi_table.c).
 *
 * The driver counts how often each (PID, PC, EVENT) triple was sampled in
 * a hash table of buckets of four entries; a bucket is one 64-byte cache
 * line, so a lookup touches one line.  A sample that finds its triple
 * increments the count; one that does not takes an empty entry, or evicts
 * the entry a mod-4 counter (advanced on every eviction) points at into
 * the active one of a pair of overflow buffers.  When that buffer fills,
 * the driver tells the daemon (hps.notify) to copy it out and switches to
 * the other.  Everything still in the table and the buffers is read out at
 * the end (a full flush).
 *
 * Plain fixed-width types and a fixed layout (checked below) so that the
 * host and both guest compilers agree; no library calls, no division (the
 * Alpha runtime has no divide instruction and no libgcc).
 */
#ifndef HPS_DCPI_TABLE_H
#define HPS_DCPI_TABLE_H

#include <stdint.h>

#define DCPI_MAGIC            0x3149504344535048ull  /* "HPSDCPI1" in memory order */
#define DCPI_VERSION          1u
#define DCPI_WAYS             4u
#define DCPI_BUCKETS          2048u        /* 8192 entries, 128 KiB        */
#define DCPI_BUCKET_SHIFT     53u          /* 64 - log2(DCPI_BUCKETS)      */
#define DCPI_OVERFLOW_ENTRIES 4096u        /* per buffer, 64 KiB           */
#define DCPI_MAX_COUNTERS     8u
#define DCPI_NOTIFY_FULL      0x100u       /* | buffer index: hps.notify   */

/* One aggregated sample: count 0 marks an empty entry. */
typedef struct dcpi_entry {
    uint64_t pc;
    uint32_t count;
    uint16_t pid;
    uint16_t event;
} dcpi_entry_t;

typedef struct dcpi_bucket {
    dcpi_entry_t e[DCPI_WAYS];
} dcpi_bucket_t;

typedef struct dcpi_overflow {
    uint64_t count;                        /* entries filled              */
    uint64_t pad;
    dcpi_entry_t e[DCPI_OVERFLOW_ENTRIES];
} dcpi_overflow_t;

/* The per-processor state.  The host fills the configuration before the
 * run (magic last); the driver keeps the rest. */
typedef struct dcpi_state {
    uint64_t magic;                        /* DCPI_MAGIC (host)           */
    uint64_t version;                      /* DCPI_VERSION (host)         */
    uint64_t seed;                         /* Park-Miller state (host seeds) */
    uint64_t wrap;                         /* 2^counter bits (host)       */
    uint64_t period_min[DCPI_MAX_COUNTERS];  /* per counter (host)        */
    uint64_t period_span[DCPI_MAX_COUNTERS]; /* max - min + 1 (host)      */
    uint32_t evict;                        /* the mod-4 eviction counter  */
    uint32_t active;                       /* overflow buffer filling now */
    uint64_t interrupts;                   /* samples taken               */
    uint64_t hits;                         /* found their entry           */
    uint64_t evictions;                    /* entries pushed to a buffer  */
    uint64_t notifies;                     /* full buffers handed over    */
    uint64_t lost;                         /* evicted into a full buffer  */
} dcpi_state_t;

typedef struct dcpi_driver {
    dcpi_state_t st;
    dcpi_bucket_t table[DCPI_BUCKETS];
    dcpi_overflow_t overflow[2];
} dcpi_driver_t;

_Static_assert(sizeof(dcpi_entry_t) == 16, "an entry is 16 bytes");
_Static_assert(sizeof(dcpi_bucket_t) == 64, "a bucket is one 64-byte line");
_Static_assert(sizeof(dcpi_state_t) == 4 * 8 + 2 * 8 * DCPI_MAX_COUNTERS + 8 + 5 * 8,
               "dcpi_state_t layout");
_Static_assert((1ull << (64 - DCPI_BUCKET_SHIFT)) == DCPI_BUCKETS, "bucket shift");

/* The bucket of a triple: a multiplicative hash of the three. */
static inline uint64_t dcpi_bucket_of(uint64_t pid, uint64_t pc, uint64_t event)
{
    uint64_t key = (pc >> 2) ^ (pid << 48) ^ (event << 40);
    return (key * 0x9e3779b97f4a7c15ull) >> DCPI_BUCKET_SHIFT;
}

/* Park-Miller minimal standard generator, x <- 16807 x mod (2^31 - 1),
 * without division: 2^31 = 1 modulo 2^31 - 1. */
static inline uint64_t dcpi_park_miller(uint64_t x)
{
    uint64_t p = x * 16807u;
    p = (p & 0x7fffffffu) + (p >> 31);
    if (p >= 0x7fffffffu) p -= 0x7fffffffu;
    return p;
}

/* A period uniform in [min, min + span) from the next random number. */
static inline uint64_t dcpi_next_period(dcpi_state_t *st, unsigned counter)
{
    st->seed = dcpi_park_miller(st->seed);
    return st->period_min[counter] + ((st->seed * st->period_span[counter]) >> 31);
}

/* Count one sample.  Returns nonzero when the active overflow buffer has
 * just become full: the caller hands it to the daemon and switches. */
static inline int dcpi_record(dcpi_driver_t *d, uint64_t pid, uint64_t pc, uint64_t event)
{
    dcpi_state_t *st = &d->st;
    dcpi_bucket_t *b = &d->table[dcpi_bucket_of(pid, pc, event)];
    dcpi_entry_t *empty = 0;
    st->interrupts++;
    for (unsigned k = 0; k < DCPI_WAYS; k++) {
        dcpi_entry_t *e = &b->e[k];
        if (e->count == 0) {
            if (!empty) empty = e;
        } else if (e->pc == pc && e->pid == (uint16_t)pid && e->event == (uint16_t)event &&
                   e->count != 0xffffffffu) {
            e->count++;
            st->hits++;
            return 0;
        }
    }
    int full = 0;
    if (!empty) {
        empty = &b->e[st->evict & (DCPI_WAYS - 1)];
        st->evict++;
        dcpi_overflow_t *o = &d->overflow[st->active & 1];
        if (o->count < DCPI_OVERFLOW_ENTRIES) {
            o->e[o->count++] = *empty;
            st->evictions++;
            full = o->count == DCPI_OVERFLOW_ENTRIES;
        } else {
            st->lost += empty->count;
        }
    }
    empty->pc = pc;
    empty->pid = (uint16_t)pid;
    empty->event = (uint16_t)event;
    empty->count = 1;
    return full;
}

#endif /* HPS_DCPI_TABLE_H */
