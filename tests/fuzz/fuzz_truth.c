/*
 * fuzz_truth.c - libFuzzer harness of hps-dcpicalc's ground-truth reader
 * (dcpicalc_truth_read): the input as the file of hps-sim --ground-truth;
 * an accepted file is looked up at its rows' pcs.  Seeds: a ground truth
 * written by hps-sim at fuzz time (tests/fuzz/seeds.sh) and
 * tests/fuzz/seeds/truth.
 */
#include "fuzz_common.h"

#include "dcpicalc.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write("truth.tsv", data, size);
    char err[512] = "";
    dcpicalc_truth_t t;
    bool ok = dcpicalc_truth_read(path, &t, err, sizeof err);
    fuzz_check(ok, err, path);
    if (ok) {
        for (size_t k = 0; k < t.n; k++)
            if (dcpicalc_truth_at(&t, t.v[k].pc)->pc != t.v[k].pc) abort();
        dcpicalc_truth_free(&t);
    }
    return 0;
}
