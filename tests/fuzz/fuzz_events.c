/*
 * fuzz_events.c - libFuzzer harness of --dcpi-events lists
 * (dcpi_parse_events): the input as the option's value, on counters of 16
 * (even sizes) or 48 bits (odd).  Seeds: tests/fuzz/seeds/events.
 */
#include "fuzz_common.h"

#include "dcpi.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    char err[512] = "";
    dcpi_options_t o;
    memset(&o, 0, sizeof o);
    bool ok = dcpi_parse_events(text, size & 1 ? 48 : 16, &o, err, sizeof err);
    fuzz_check(ok, err, NULL);
    free(text);
    return 0;
}
