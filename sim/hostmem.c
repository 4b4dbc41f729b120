/*
 * hostmem.c - the process-wide charge of guest-proportional host memory
 * against --host-mem (hostmem.h).  One counter for the process: the
 * program's address space, the baseline run's and the handler runtime's
 * are all hps-sim's memory.
 */
#include "hostmem.h"

#include <stdio.h>

static uint64_t limit, used, peak;
static hostmem_failure_t failure;
static bool failed;

void hostmem_set_limit(uint64_t bytes)
{
    limit = bytes;
    failed = false;
}

uint64_t hostmem_limit(void) { return limit; }

bool hostmem_fits(uint64_t bytes)
{
    return !limit || (bytes <= limit && used <= limit - bytes);
}

bool hostmem_take(uint64_t bytes, const char *what)
{
    if (!hostmem_fits(bytes)) {
        failure = (hostmem_failure_t){ .what = what, .bytes = bytes, .used = used,
                                       .limit = limit };
        failed = true;
        return false;
    }
    used += bytes;
    if (used > peak) peak = used;
    return true;
}

void hostmem_give(uint64_t bytes) { used = bytes < used ? used - bytes : 0; }

uint64_t hostmem_used(void) { return used; }
uint64_t hostmem_peak(void) { return peak; }

const hostmem_failure_t *hostmem_failure(void) { return failed ? &failure : NULL; }

void hostmem_clear_failure(void) { failed = false; }

const char *hostmem_format_size(uint64_t bytes, char *buf, size_t len)
{
    static const char *const unit[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
    if (bytes < 1024) {
        snprintf(buf, len, "%u bytes", (unsigned)bytes);
        return buf;
    }
    unsigned u = 0;
    double v = (double)bytes / 1024;
    while (v >= 1024 && u + 1 < sizeof unit / sizeof *unit) {
        v /= 1024;
        u++;
    }
    if (v == (double)(uint64_t)v) snprintf(buf, len, "%llu %s", (unsigned long long)v, unit[u]);
    else snprintf(buf, len, "%.1f %s", v, unit[u]);
    return buf;
}
