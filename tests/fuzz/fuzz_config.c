/*
 * fuzz_config.c - libFuzzer harness of the machine configuration: the
 * input as an .ini file (config_load), then each of its lines as a --set
 * value (config_set) on the defaults, and the result validated
 * (config_validate) and printed (config_print).  Seeds: the presets of
 * configs/ and tests/fuzz/seeds/config.
 */
#include "fuzz_common.h"

#include "config.h"

static FILE *devnull;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    devnull = fopen("/dev/null", "w");
    return 0;
}

/* Each line of text as a --set NAME=VALUE. */
static void set_lines(char *text)
{
    config_t cfg;
    char err[512];
    config_defaults(&cfg);
    for (char *save = NULL, *line = strtok_r(text, "\n", &save); line;
         line = strtok_r(NULL, "\n", &save)) {
        err[0] = 0;
        fuzz_check(config_set(&cfg, line, err, sizeof err), err, NULL);
    }
    err[0] = 0;
    bool ok = config_validate(&cfg, err, sizeof err);
    fuzz_check(ok, err, NULL);
    if (ok) config_print(&cfg, devnull);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write("fuzz.ini", data, size);
    config_t cfg;
    char err[512] = "";
    config_defaults(&cfg);
    bool ok = config_load(&cfg, path, err, sizeof err);
    fuzz_check(ok, err, path);
    if (ok) config_print(&cfg, devnull);
    char *text = fuzz_string(data, size);
    set_lines(text);
    free(text);
    return 0;
}
