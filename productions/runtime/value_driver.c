/*
 * value_driver.c - the value sampling handler (Burrows et al., ASPLOS'00),
 * as guest code in the handler runtime.  At every DCPI interrupt the PMU
 * latches the sampled instruction's values (result, operands, effective
 * address, load latency bin, return address: the kinds the user selected)
 * into value_driver.cap and enters VALUE_interrupt on top of the DCPI
 * driver's frame; this handler offers each valid value to the hot list of
 * its (PC, kind) (value_hotlist.h, Gibbons & Matias' counting samples) and
 * returns, and the DCPI driver then counts the PC sample as usual.
 */
#include "value_hotlist.h"

/* The host fills the configuration when it sets value sampling up. */
vh_table_t value_driver;

void value_interrupt(uint64_t pc, uint64_t valid)
{
    vh_table_t *t = &value_driver;
    t->st.interrupts++;
    for (uint64_t k = 0; k < VK_COUNT; k++)
        if (valid >> k & 1) vh_offer(t, pc, k, t->cap.v[k]);
}
