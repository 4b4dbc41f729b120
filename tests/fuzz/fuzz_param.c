/*
 * fuzz_param.c - libFuzzer harness of --param values: the input as a
 * NAME=VALUE assignment (acf_set_param) to a program with parameters
 * loaded into counters (set_N), then the DISE engine built on counters of
 * 1..63 bits (dise_new refuses a value a counter cannot hold).  Seeds:
 * tests/fuzz/seeds/param.
 */
#include "fuzz_common.h"

#include "dise.h"
#include "dise_engine.h"
#include "isa.h"

static const char acf[] =
    "param sampleFreq = 99\n"
    "param burstLength = 1\n"
    "param limit = 0x10\n"
    "init: set_1(sampleFreq), set_2(burstLength)\n"
    "P1: T.OPCLASS == proc_call && !overflow_1 => null, CC1\n"
    "P2: T.OPCLASS == proc_call && overflow_1 => null, CC2\n"
    "CC1: inc_1\n"
    "CC2: set_1(sampleFreq), set_2(limit), inc_2\n";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[512] = "";
    dise_env_t env = { .isa = &isa_rv64 };
    dise_program_t *p = acf_parse_string("param.acf", acf, &env, err, sizeof err);
    if (!p) { fprintf(stderr, "fuzz_param: %s\n", err); abort(); }
    char *text = fuzz_string(data, size);
    bool ok = acf_set_param(p, text, err, sizeof err);
    fuzz_check(ok, err, NULL);
    dise_hw_t hw = { .pt_entries = 32, .ct_entries = 32, .rt_entries = 64, .counters = 4,
                     .counter_bits = 1 + (unsigned)(size % 63), .replace_penalty = 1 };
    err[0] = 0;
    dise_t *d = dise_new(p, &hw, NULL, err, sizeof err);
    fuzz_check(d != NULL, err, NULL);
    dise_free(d);
    dise_program_free(p);
    free(text);
    return 0;
}
