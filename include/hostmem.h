/*
 * hostmem.h - the accounting behind --host-mem: hps-sim's allocations that
 * grow with what the guest does (its pages, their page tables, decoded
 * instructions) are charged here, against one limit for the process.
 *
 * A charge that would go over the limit is refused and remembered (what was
 * being allocated, how much, the use and the limit), so that whoever stops
 * the run can say why; the guest memory (mem.c) turns a refusal during a run
 * into a stop of the guest, never a crash.  The rest of hps-sim (its code,
 * the tables the configuration sizes, profiles) is not counted.
 */
#ifndef HPS_HOSTMEM_H
#define HPS_HOSTMEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The allocation that was refused. */
typedef struct hostmem_failure {
    const char *what;       /* "a guest data page", ...                     */
    uint64_t bytes;         /* its size                                     */
    uint64_t used;          /* bytes charged when it was asked for          */
    uint64_t limit;
} hostmem_failure_t;

/* The limit in bytes (0: none).  Forgets a recorded failure. */
void hostmem_set_limit(uint64_t limit);
uint64_t hostmem_limit(void);

/* Would `bytes` more stay within the limit? */
bool hostmem_fits(uint64_t bytes);
/* Charge `bytes` for `what` (a static string); false, and the failure
 * recorded, when that would go over the limit. */
bool hostmem_take(uint64_t bytes, const char *what);
void hostmem_give(uint64_t bytes);

uint64_t hostmem_used(void);
uint64_t hostmem_peak(void);       /* the most ever charged at once        */

/* The last refused charge since the limit was set or the failure cleared,
 * or NULL. */
const hostmem_failure_t *hostmem_failure(void);
void hostmem_clear_failure(void);

/* A size in words for messages, into buf (at least 32 bytes): "16 GiB",
 * "200 MiB", "1.5 GiB", "512 bytes". */
const char *hostmem_format_size(uint64_t bytes, char *buf, size_t len);

#endif /* HPS_HOSTMEM_H */
