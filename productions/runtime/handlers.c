/*
 * handlers.c - the profile handlers of the guest runtime, in C.  Each one
 * appends one sample to the profile buffer `hps_profile` (hps_profile.h).
 * They are reached through the assembly stubs of stubs.S, which switch to
 * the runtime's stack, save every register C may clobber and load the
 * arguments from the DISE registers d8..d11.
 *
 * Built freestanding for rv64imac/lp64 with -mcmodel=medany -mno-relax: no
 * FP registers and no gp/tp use, because while a handler runs gp, tp and the
 * FP registers still hold the program's values.
 */
#include "hps_insn.h"
#include "hps_profile.h"

/* The host writes magic, version and capacity when it loads the runtime. */
hps_profile_t hps_profile;

/* Append one sample; a full buffer is first handed to the host. */
static inline __attribute__((always_inline))
void hps_append(uint64_t kind, uint64_t a, uint64_t b, uint64_t c)
{
    hps_profile_t *p = &hps_profile;
    uint64_t n = p->hdr.count;
    if (__builtin_expect(n >= HPS_PROFILE_CAPACITY, 0)) {
        p->hdr.flushes++;
        hps_flush();
        n = p->hdr.count;
        if (n >= HPS_PROFILE_CAPACITY) {     /* the host did not drain it */
            p->hdr.dropped++;
            return;
        }
    }
    hps_sample_t *s = &p->samples[n];
    s->kind = kind;
    s->a = a;
    s->b = b;
    s->c = c;
    p->hdr.count = n + 1;
}

/* Hot method: the method is named by the target of the call or back-edge. */
void hps_hot_method(uint64_t pc, uint64_t target)
{
    hps_append(HPS_SAMPLE_METHOD, target, pc, 0);
}

void hps_call_pair(uint64_t pc, uint64_t target)
{
    hps_append(HPS_SAMPLE_CALL_PAIR, pc, target, 0);
}

void hps_data_stream(uint64_t pc, uint64_t ea, uint64_t burst)
{
    hps_append(HPS_SAMPLE_DATA, pc, ea, burst);
}
