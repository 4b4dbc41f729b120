/*
 * value_hotlist.h - per-PC value hot lists kept by Gibbons & Matias'
 * counting samples (SIGMOD'98), as the value sampling system of Burrows et
 * al. (ASPLOS'00) keeps them: one source for both sides, like dcpi_table.h:
 *   - the guest value driver (value_driver.c, in the handler runtime),
 *     whose interrupt handler offers each captured value to vh_offer(), and
 *   - the host (dcpi/values.c), which configures the table, reads it out of
 *     the runtime's memory at the end of the run, and runs the same code on
 *     known value streams in the unit test (tests/unit/test_value_hotlist.c).
 *
 * A list belongs to one (PC, kind) pair: the instruction's result, an
 * operand, its effective address, its load latency bin or the return
 * address.  Counting sample with threshold tau: a value already in the list
 * has its count incremented; a new one enters with probability 1/tau, count
 * 1.  When the list holds more than `list_size` values, tau is raised to
 * tau' = tau * growth and every entry is thinned: a coin with heads
 * probability tau/tau' (= 1/growth), and on tails the count is decremented
 * and further coins have heads probability 1/tau', until heads or count 0
 * (the entry leaves the list).  The host estimates a value's occurrences as
 * count + 0.418 tau - 1 (count alone while tau is 1).
 *
 * No division and no floating point (the Alpha runtime has neither): 1/tau
 * is kept as a probability in Q31 (2^31 = 1), the Park-Miller generator of
 * dcpi_table.h draws uniform numbers in [1, 2^31 - 2], and 1/growth is a
 * Q16 constant the host computes.  Fixed-width types, fixed layout.
 */
#ifndef HPS_VALUE_HOTLIST_H
#define HPS_VALUE_HOTLIST_H

#include <stdint.h>

#include "dcpi_table.h"     /* dcpi_park_miller */

#define VH_MAGIC     0x31534c5654535048ull  /* "HPSTVLS1" in memory order */
#define VH_VERSION   1u
#define VH_LIST_CAP  16u         /* entries a list can hold (list_size + 1) */
#define VH_SIZE_MAX  (VH_LIST_CAP - 1u)
#define VH_SLOTS     4096u       /* (pc, kind) lists                        */
#define VH_SLOT_SHIFT 52u        /* 64 - log2(VH_SLOTS)                     */
#define VH_PROBES    8u          /* linear probes before a list is lost     */
#define VH_ONE       0x80000000ull  /* probability 1 in Q31                 */

/* The kinds of value, in capture order. */
enum { VK_RESULT, VK_OPERAND1, VK_OPERAND2, VK_ADDR, VK_LATENCY, VK_RA, VK_COUNT };
/* Load latency bins (the value of VK_LATENCY). */
enum { VH_LAT_L1 = 1, VH_LAT_L2 = 2, VH_LAT_MEM = 3 };

typedef struct vh_entry {
    uint64_t value;
    uint64_t count;
} vh_entry_t;

/* One (pc, kind) hot list; pc 0 marks a free slot. */
typedef struct vh_list {
    uint64_t pc;
    uint32_t kind;
    uint32_t n;              /* entries in use                              */
    uint64_t samples;        /* values offered to this list                 */
    uint64_t inv_tau;        /* 1/tau in Q31; 0 = a fresh list (1/tau = 1)  */
    uint64_t raises;         /* threshold raises                            */
    vh_entry_t e[VH_LIST_CAP];
} vh_list_t;

/* What the PMU latched for the sampled instruction (the host writes it
 * before it enters the handler; bit k of the handler's mask says v[k] is
 * valid). */
typedef struct vh_capture {
    uint64_t pc;
    uint64_t v[VK_COUNT];
} vh_capture_t;

/* The configuration (host, before the run) and the counters. */
typedef struct vh_state {
    uint64_t magic;          /* VH_MAGIC (host)                             */
    uint64_t version;        /* VH_VERSION (host)                           */
    uint64_t seed;           /* Park-Miller state (host seeds)              */
    uint64_t list_size;      /* 1..VH_SIZE_MAX (host)                       */
    uint64_t inv_growth_q16; /* 2^16 / growth: tau / tau' (host)            */
    uint64_t kinds;          /* bit per VK_ kind captured (host)            */
    uint64_t interrupts;     /* handler entries                             */
    uint64_t offered;        /* values offered                              */
    uint64_t inserted;       /* new values that entered a list              */
    uint64_t raises;         /* threshold raises, all lists                 */
    uint64_t lost;           /* values whose (pc, kind) found no slot       */
    uint64_t pad;
} vh_state_t;

typedef struct vh_table {
    vh_state_t st;
    vh_capture_t cap;
    vh_list_t lists[VH_SLOTS];
} vh_table_t;

_Static_assert(sizeof(vh_entry_t) == 16, "an entry is 16 bytes");
_Static_assert(sizeof(vh_list_t) == 40 + 16 * VH_LIST_CAP, "vh_list_t layout");
_Static_assert(sizeof(vh_state_t) == 12 * 8, "vh_state_t layout");
_Static_assert((1ull << (64 - VH_SLOT_SHIFT)) == VH_SLOTS, "slot shift");

/* 1/tau of a list (Q31). */
static inline uint64_t vh_inv_tau(const vh_list_t *l) { return l->inv_tau ? l->inv_tau : VH_ONE; }

/* A coin with heads probability p (Q31) from the next random number. */
static inline int vh_coin(vh_state_t *st, uint64_t p)
{
    st->seed = dcpi_park_miller(st->seed);
    return st->seed < p;
}

/* The list of (pc, kind), taking a free slot if it has none; 0 when the
 * probe sequence is full. */
static inline vh_list_t *vh_list_of(vh_table_t *t, uint64_t pc, uint64_t kind)
{
    uint64_t key = (pc >> 1) ^ (kind << 56);
    uint64_t slot = (key * 0x9e3779b97f4a7c15ull) >> VH_SLOT_SHIFT;
    for (unsigned k = 0; k < VH_PROBES; k++) {
        vh_list_t *l = &t->lists[(slot + k) & (VH_SLOTS - 1)];
        if (l->pc == pc && l->kind == (uint32_t)kind) return l;
        if (l->pc == 0) {
            l->pc = pc;
            l->kind = (uint32_t)kind;
            return l;
        }
    }
    return 0;
}

/* Thin one entry after a raise from tau to tau' (inv_new = 1/tau'):
 * returns the new count (0: the entry leaves). */
static inline uint64_t vh_thin(vh_state_t *st, uint64_t count, uint64_t inv_new)
{
    if (vh_coin(st, st->inv_growth_q16 << 15)) return count;
    count--;
    while (count && !vh_coin(st, inv_new)) count--;
    return count;
}

/* Raise the list's threshold by the growth factor and thin its entries. */
static inline void vh_raise(vh_state_t *st, vh_list_t *l)
{
    uint64_t inv_new = (vh_inv_tau(l) * st->inv_growth_q16) >> 16;
    if (inv_new == 0) inv_new = 1;
    l->inv_tau = inv_new;
    l->raises++;
    st->raises++;
    uint32_t kept = 0;
    for (uint32_t k = 0; k < l->n; k++) {
        uint64_t c = vh_thin(st, l->e[k].count, inv_new);
        if (c) {
            l->e[kept].value = l->e[k].value;
            l->e[kept].count = c;
            kept++;
        }
    }
    l->n = kept;
}

/* Offer one value of (pc, kind) to its hot list. */
static inline void vh_offer(vh_table_t *t, uint64_t pc, uint64_t kind, uint64_t value)
{
    vh_state_t *st = &t->st;
    vh_list_t *l = vh_list_of(t, pc, kind);
    st->offered++;
    if (!l) {
        st->lost++;
        return;
    }
    l->samples++;
    for (uint32_t k = 0; k < l->n; k++) {
        if (l->e[k].value == value) {
            l->e[k].count++;
            return;
        }
    }
    if (l->inv_tau && !vh_coin(st, l->inv_tau)) return;
    l->e[l->n].value = value;
    l->e[l->n].count = 1;
    l->n++;
    st->inserted++;
    while (l->n > st->list_size) vh_raise(st, l);
}

#endif /* HPS_VALUE_HOTLIST_H */
