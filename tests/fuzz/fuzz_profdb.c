/*
 * fuzz_profdb.c - libFuzzer harness of the DCPI profile database reader:
 * the input as one profile file (profdb_read), and as the cycles profile
 * of an image in an epoch read whole (profdb_load, as hps-dcpiprof and
 * hps-dcpicalc do).  Seeds: profiles written by hps-sim --dcpi at fuzz
 * time (tests/fuzz/seeds.sh).
 */
#include "fuzz_common.h"

#include "profdb.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_write("db/epoch-0001/prog.0000000000000000/cycles", data, size);
    char err[512] = "";
    profdb_file_t f;
    bool ok = profdb_read(path, &f, err, sizeof err);
    fuzz_check(ok, err, path);
    if (ok) {
        for (size_t k = 0; k < f.n && k < 4; k++)
            (void)profdb_samples_at(&f, f.rec[k].offset + (k & 1));
        profdb_file_free(&f);
    }
    static const char image[] = "/nonexistent/prog\n";
    fuzz_write("db/epoch-0001/prog.0000000000000000/path", (const uint8_t *)image,
               sizeof image - 1);
    char db[600];
    snprintf(db, sizeof db, "%s/db", fuzz_dir());
    profdb_epoch_data_t e;
    err[0] = 0;
    bool loaded = profdb_load(db, 0, &e, err, sizeof err);
    fuzz_check(loaded, err, path);
    if (loaded != ok) { fprintf(stderr, "fuzz_profdb: profdb_load disagrees\n"); abort(); }
    if (loaded) profdb_unload(&e);
    return 0;
}
