/*
 * dcpi_driver.c - the DCPI device driver's interrupt handler, as guest
 * code in the handler runtime (the PMU, pipeline/pmu.c, calls it through
 * the DCPI_interrupt entry wrapper on every counter overflow).
 *
 * As in the paper (section 4.2): the sample (PID, PC, EVENT) is counted in
 * the driver's hash table (dcpi_table.h); an evicted entry goes to the
 * active overflow buffer, and a full buffer is handed to the daemon with
 * hps.notify before the driver switches to the other one.  Then the
 * interrupted counter gets a new pseudo-random period, uniform in the
 * range the host configured, from the Park-Miller generator, so that the
 * sampling does not correlate with the program's loops.  The counter
 * counted on since it overflowed (the skid, and the wait for the stalled
 * instruction the interrupt was delivered to); that count is carried into
 * the next period, as Linux perf does, so the periods add up to the
 * counted events exactly instead of losing a few each sample.
 *
 * A ProfileMe interrupt (the event the host put in pm_driver.st.event)
 * carries the sampled instruction's record, and its partner's for a pair,
 * in the ProfileMe registers: the driver reads them and adds them to its
 * per-pc table (pm_table.h), asks the daemon to drain that table when it
 * is three-quarters full, and leaves the sampler's period alone (the
 * hardware re-arms its own randomized fetch counter).
 */
#include "dcpi_table.h"
#include "hps_insn.h"
#include "pm_table.h"

/* The host fills st's configuration when it sets the driver up. */
dcpi_driver_t dcpi_driver;
pm_driver_t pm_driver;

/* The record in the ProfileMe registers from `first` on. */
static void read_record(pm_regs_t *r, uint64_t first)
{
    for (uint64_t k = 0; k < PM_REGS; k++) r->reg[k] = hps_rdpmc(first + k);
}

/* A ProfileMe interrupt: its record or pair into the table.  Not inlined:
 * its frame (two records) would make every counter interrupt save and
 * restore eight more registers. */
static __attribute__((noinline)) void profileme_interrupt(pm_driver_t *d)
{
    pm_regs_t a, b;
    read_record(&a, PM_REG_BASE);
    int pair = hps_rdpmc(PM_REG_VALID) == 2;
    if (pair) read_record(&b, PM_REG_BASE + PM_REGS);
    if (pm_take(d, &a.rec, pair ? &b.rec : 0)) hps_notify(PM_NOTIFY_DRAIN);
}

void dcpi_interrupt(uint64_t pid, uint64_t pc, uint64_t event, uint64_t counter)
{
    dcpi_driver_t *d = &dcpi_driver;
    dcpi_state_t *st = &d->st;
    if (dcpi_record(d, pid, pc, event)) {
        st->notifies++;
        hps_notify(DCPI_NOTIFY_FULL | st->active);
        st->active ^= 1;
    }
    if (pm_driver.st.magic == PM_MAGIC && event == pm_driver.st.event) {
        profileme_interrupt(&pm_driver);
        return;
    }
    unsigned k = (unsigned)counter & (DCPI_MAX_COUNTERS - 1);
    uint64_t period = dcpi_next_period(st, k);
    uint64_t since = hps_rdpmc(k);          /* counted since the overflow */
    if (since >= period) since = period - 1;
    hps_wrpmc(k, st->wrap - period + since);
}
