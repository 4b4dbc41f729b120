/*
 * hps_truth.c - the part of the exact HPS profiles (hps_truth.h) that is
 * derived from execution counts: direct calls and back-edges, whose every
 * execution is an event with a static key.
 */
#include "hps_truth.h"

void hps_truth_add_counts(hps_truth_t *t, const insn_t *slots, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        const insn_t *in = &slots[k];
        if (in->exec && in->count) hps_truth_add_count(t, in);
    }
}

void hps_truth_flush(hps_truth_t *t)
{
    profile_recent_flush(t->method_recent);
    profile_recent_flush(t->pair_recent);
}
