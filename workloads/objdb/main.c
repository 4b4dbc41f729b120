/* main.c - driver of the objdb workload (vortex-like).
 *
 * Usage: objdb [test|train|ref]
 * Bulk-loads generated records, runs a transactional query workload over
 * the hash and B-tree indexes, verifies the whole database, and compares
 * the resulting digests with the known values for the size. */
#include "db.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    int initial, ops;
    uint64_t expect;
} SizeSpec;

static const SizeSpec sizes[] = {
    {"test", 2000, 2600, 0xa7b346166242df4eULL},
    {"train", 11000, 26000, 0xb12e761c27db210bULL},
    {"ref", 60000, 140000, 0xc592a346d13baccbULL},
};

static const SizeSpec *parse_size(int argc, char **argv)
{
    const char *want = argc > 1 ? argv[1] : "test";
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        if (strcmp(want, sizes[i].name) == 0)
            return &sizes[i];
    fprintf(stderr, "usage: %s [test|train|ref]\n", argv[0]);
    exit(2);
}

int main(int argc, char **argv)
{
    const SizeSpec *sz = parse_size(argc, argv);
    static Db db;
    db_init(&db, sz->initial + sz->ops + 16);
    WorkloadSpec ws = {sz->initial, sz->ops, 0x0bd8c0deULL};
    WorkloadStats st;
    workload_run(&db, &ws, &st);

    Rng vr;
    rng_init(&vr, 0x7e51f1edULL);
    const char *why = "?";
    uint64_t digest = 0;
    if (!verify_db(&db, &vr, &why, &digest))
        fail("verification failed: %s", why);
    uint64_t total = digest ^ st.checksum * 3 ^ db.log.digest * 5;

    printf("objdb %s: %d records live, %" PRIu64 " transactions (%" PRIu64 " aborted)\n",
           sz->name, db.store.nlive, st.txns, st.aborted);
    printf("  lookups %" PRIu64 " (%" PRIu64 " hits), inserts %" PRIu64 ", deletes %" PRIu64
           ", updates %" PRIu64 "\n", st.lookups, st.hits, st.inserts, st.deletes, st.updates);
    printf("  range queries %" PRIu64 " returning %" PRIu64 " rows; B-tree heights %d/%d/%d/%d\n",
           st.ranges, st.range_rows, bt_height(&db.idx[IDX_ID]), bt_height(&db.idx[IDX_DEPT]),
           bt_height(&db.idx[IDX_NAME]), bt_height(&db.idx[IDX_CITY]));
    printf("  db digest %016" PRIx64 " query checksum %016" PRIx64 " log digest %016" PRIx64 "\n",
           digest, st.checksum, db.log.digest);
    printf("  total %016" PRIx64 "\n", total);
    db_free(&db);
    if (total != sz->expect)
        fail("total %016" PRIx64 " differs from the known value %016" PRIx64, total, sz->expect);
    printf("self-check OK\n");
    return 0;
}
