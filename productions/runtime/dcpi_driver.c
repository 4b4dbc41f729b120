/*
 * dcpi_driver.c - the DCPI device driver's interrupt handler, as guest
 * code in the handler runtime (the PMU, pipeline/pmu.c, calls it through
 * the DCPI_interrupt stub on every counter overflow).
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
 */
#include "dcpi_table.h"
#include "hps_insn.h"

/* The host fills st's configuration when it sets the driver up. */
dcpi_driver_t dcpi_driver;

void dcpi_interrupt(uint64_t pid, uint64_t pc, uint64_t event, uint64_t counter)
{
    dcpi_driver_t *d = &dcpi_driver;
    dcpi_state_t *st = &d->st;
    if (dcpi_record(d, pid, pc, event)) {
        st->notifies++;
        hps_notify(DCPI_NOTIFY_FULL | st->active);
        st->active ^= 1;
    }
    unsigned k = (unsigned)counter & (DCPI_MAX_COUNTERS - 1);
    uint64_t period = dcpi_next_period(st, k);
    uint64_t since = hps_rdpmc(k);          /* counted since the overflow */
    if (since >= period) since = period - 1;
    hps_wrpmc(k, st->wrap - period + since);
}
