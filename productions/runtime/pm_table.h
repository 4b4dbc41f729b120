/*
 * pm_table.h - ProfileMe's record registers and the driver's per-pc
 * aggregate of the records (Dean et al., MICRO'97), one source for both
 * sides:
 *   - the guest driver (dcpi_driver.c, in the handler runtime), which on a
 *     ProfileMe interrupt reads the sampled instruction's record (and its
 *     partner's, for a pair) from the ProfileMe registers with hps.rdpmc
 *     and adds it to the table here, and
 *   - the host (pipeline/profileme.c), whose timing model fills the
 *     registers, which drains the guest's table when the driver asks
 *     (hps.notify PM_NOTIFY_DRAIN: the table is three-quarters full) and
 *     at the end, and which replays every delivered record into a table of
 *     its own with the same code to check the guest's, entry for entry.
 *
 * Registers: hps.rdpmc PM_REG_BASE + r reads field r (pm_reg_t) of the
 * sampled instruction, PM_REG_BASE + PM_REGS + r that of its partner, and
 * PM_REG_VALID says how many records the interrupt carries (1 or 2).
 *
 * The table is open addressing on the pc (linear probing), a power of two
 * of entries; every field is a sum, so drained tables merge exactly.  Plain
 * fixed-width types and a fixed layout (checked below) so that the host
 * and both guest compilers agree; no library calls and no division.
 */
#ifndef HPS_PM_TABLE_H
#define HPS_PM_TABLE_H

#include <stdint.h>

/* pm_record_t.flags (bit numbers are profileme.tsv's order) */
enum {
    PM_TAKEN = 1u << 0,     PM_MISPREDICT = 1u << 1, PM_ICACHE = 1u << 2,
    PM_ITLB = 1u << 3,      PM_DCACHE = 1u << 4,     PM_DTLB = 1u << 5,
    PM_LOAD = 1u << 6,      PM_STORE = 1u << 7,      PM_BRANCH = 1u << 8,
    PM_RETIRED = 1u << 9,   PM_WRONG_PATH = 1u << 10,
};
#define PM_FLAG_BITS 11

/* One instruction as the timing model saw it: the cycle it entered each
 * stage (fetch, decode, issue, complete) and left the pipeline (retire). */
typedef struct pm_record {
    uint64_t pc, addr;
    uint64_t fetch, decode, issue, complete, retire;
    uint64_t head;              /* head cycles charged to it (the truth's)  */
    uint64_t load_latency;      /* a load: issue to data, else 0            */
    uint64_t flags;
} pm_record_t;

/* The ProfileMe registers, one per pm_record_t field, in its order. */
typedef enum {
    PMR_PC, PMR_ADDR, PMR_FETCH, PMR_DECODE, PMR_ISSUE, PMR_COMPLETE, PMR_RETIRE,
    PMR_HEAD, PMR_LOAD_LATENCY, PMR_FLAGS, PM_REGS
} pm_reg_t;
/* A record as its registers. */
typedef union pm_regs {
    pm_record_t rec;
    uint64_t reg[PM_REGS];
} pm_regs_t;

#define PM_REG_BASE      64u                       /* hps.rdpmc index of PMR_PC */
#define PM_REG_VALID     (PM_REG_BASE + 2 * PM_REGS) /* 1: a sample, 2: a pair */
#define PM_REG_COUNT     (2 * PM_REGS + 1)

#define PM_MAGIC         0x31454d4f52505348ull     /* "HSPROME1" in memory order */
#define PM_VERSION       1u
#define PM_ENTRIES       2048u
#define PM_DRAIN_AT      (PM_ENTRIES / 4 * 3)      /* used entries: ask for a drain */
#define PM_NOTIFY_DRAIN  0x200u                    /* hps.notify value        */

/* What the records of one pc add up to. */
typedef struct pm_entry {
    uint64_t pc;
    uint64_t anchors;           /* samples that selected it (not as partner) */
    uint64_t records;           /* every record of it, partners included     */
    uint64_t head_sum;          /* the anchors' head cycles                  */
    uint64_t lat[4];            /* fetch->decode->issue->complete->retire    */
    uint64_t load_lat, loads;
    uint64_t flag[PM_FLAG_BITS];   /* the anchors' flags                     */
    /* pairs it was in, [0] as the first (the other one after it), [1] as
     * the second (the other one before it) */
    uint64_t pairs[2];
    uint64_t overlapped[2];     /* ... whose other one was in flight with it */
    uint64_t issued_in[2];      /* ... whose other one issued while it was   */
    uint64_t inflight_sum;      /* its cycles in flight, over its pairs      */
} pm_entry_t;

/* The host fills the configuration (magic last); the driver the rest. */
typedef struct pm_state {
    uint64_t magic;             /* PM_MAGIC (host)                           */
    uint64_t version;           /* PM_VERSION (host)                         */
    uint64_t event;             /* the DCPI event number of ProfileMe (host) */
    uint64_t used;              /* entries in use                            */
    uint64_t samples;           /* interrupts taken                          */
    uint64_t drains;            /* drains asked for                          */
} pm_state_t;

typedef struct pm_driver {
    pm_state_t st;
    pm_entry_t table[PM_ENTRIES];
} pm_driver_t;

_Static_assert(sizeof(pm_record_t) == sizeof(pm_regs_t), "a record is its registers");
_Static_assert(sizeof(pm_entry_t) == 28 * 8, "pm_entry_t layout");
_Static_assert(sizeof(pm_state_t) == 6 * 8, "pm_state_t layout");
_Static_assert((PM_ENTRIES & (PM_ENTRIES - 1)) == 0, "a power of two of entries");

/* The entry of pc, a new one if it has none (records == 0 marks a free
 * entry; the caller counts a record at once).  The table never fills: the
 * driver asks for a drain at PM_DRAIN_AT. */
static inline pm_entry_t *pm_entry(pm_driver_t *d, uint64_t pc)
{
    uint64_t i = ((pc >> 1) * 0x9e3779b97f4a7c15ull) >> (64 - 11);
    _Static_assert(PM_ENTRIES == 1u << 11, "the hash's shift");
    while (d->table[i].records && d->table[i].pc != pc) i = (i + 1) & (PM_ENTRIES - 1);
    pm_entry_t *e = &d->table[i];
    if (!e->records) {
        e->pc = pc;
        d->st.used++;
    }
    return e;
}

/* A sample's own record: its latencies, flags and head cycles. */
static inline void pm_add_anchor(pm_driver_t *d, const pm_record_t *r)
{
    pm_entry_t *e = pm_entry(d, r->pc);
    e->records++;
    e->anchors++;
    e->head_sum += r->head;
    e->lat[0] += r->decode - r->fetch;
    e->lat[1] += r->issue - r->decode;
    e->lat[2] += r->complete - r->issue;
    e->lat[3] += r->retire - r->complete;
    if (r->flags & PM_LOAD) {
        e->loads++;
        e->load_lat += r->load_latency;
    }
    for (unsigned b = 0; b < PM_FLAG_BITS; b++)
        if (r->flags >> b & 1) e->flag[b]++;
}

/* One end of a pair: was the other one in flight during [fetch, retire),
 * and did it issue then? */
static inline void pm_add_pair_end(pm_driver_t *d, const pm_record_t *me,
                                   const pm_record_t *other, unsigned second)
{
    pm_entry_t *e = pm_entry(d, me->pc);
    if (second) e->records++;
    e->pairs[second]++;
    e->inflight_sum += me->retire - me->fetch;
    if (other->fetch < me->retire && other->retire > me->fetch) e->overlapped[second]++;
    if (other->issue >= me->fetch && other->issue < me->retire) e->issued_in[second]++;
}

/* One interrupt's records: a, and its partner b (NULL: no pair).  Returns
 * nonzero when the table wants draining. */
static inline int pm_take(pm_driver_t *d, const pm_record_t *a, const pm_record_t *b)
{
    d->st.samples++;
    pm_add_anchor(d, a);
    if (b) {
        pm_add_pair_end(d, a, b, 0);
        pm_add_pair_end(d, b, a, 1);
    }
    if (d->st.used < PM_DRAIN_AT) return 0;
    d->st.drains++;
    return 1;
}

#endif /* HPS_PM_TABLE_H */
