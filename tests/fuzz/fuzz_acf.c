/*
 * fuzz_acf.c - libFuzzer harness of the ACF parser: the input as the text
 * of an ACF (acf_parse_string; includes resolve in productions/, where
 * the harness runs), for RISC-V (even sizes) or Alpha (odd); a program it
 * accepts is printed back (dise_program_print) and built into a DISE
 * engine of the default hardware (dise_new: capacities, counter values;
 * without a runtime, a call(Handler) is refused).  Seeds: productions/ and
 * tests/dise/ ACFs.
 */
#include "fuzz_common.h"

#include "dise.h"
#include "dise_engine.h"
#include "isa.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    const char *dir = getenv("HPS_FUZZ_ACF_DIR");
    if (chdir(dir ? dir : "productions") != 0) { perror("chdir productions"); abort(); }
    devnull = fopen("/dev/null", "w");
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = fuzz_string(data, size);
    char err[512] = "";
    dise_env_t env = { .isa = size & 1 ? &isa_alpha : &isa_rv64, .symtab = NULL };
    dise_program_t *p = acf_parse_string("fuzz.acf", text, &env, err, sizeof err);
    fuzz_check(p != NULL, err, NULL);
    if (p) {
        dise_program_print(p, devnull);
        dise_hw_t hw = { .pt_entries = 32, .ct_entries = 32, .rt_entries = 256, .counters = 8,
                         .counter_bits = 16, .replace_penalty = 1 };
        err[0] = 0;
        dise_t *d = dise_new(p, &hw, NULL, err, sizeof err);
        fuzz_check(d != NULL, err, NULL);
        dise_free(d);
        dise_program_free(p);
    }
    free(text);
    return 0;
}
