/*
 * test_profdb.c - the DCPI profile database (dcpi/profdb.c): epochs (the
 * newest is reused, a new one on request), image directories keyed by the
 * file's contents, profile files written and read back, merged across
 * runs (counts add, runs count, a changed period range is marked mixed),
 * and truncated or foreign files refused with a message.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "profdb.h"

typedef struct fixture {
    char db[64], image[96], other[96];
} fixture_t;

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static int setup(void **state)
{
    fixture_t *f = calloc(1, sizeof *f);
    char tmpl[] = "/tmp/hps-profdb.XXXXXX";
    assert_non_null(mkdtemp(tmpl));
    snprintf(f->db, sizeof f->db, "%s/db", tmpl);
    snprintf(f->image, sizeof f->image, "%s/prog", tmpl);
    snprintf(f->other, sizeof f->other, "%s/prog2", tmpl);
    write_file(f->image, "an image");
    write_file(f->other, "another image");
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture_t *f = *state;
    char cmd[256];
    snprintf(cmd, sizeof cmd, "rm -rf '%.*s'", (int)(strrchr(f->db, '/') - f->db), f->db);
    assert_int_equal(system(cmd), 0);
    free(f);
    return 0;
}

static profile_t *samples(uint64_t a, uint64_t na, uint64_t b, uint64_t nb)
{
    profile_t *p = profile_new();
    profile_add(p, a, 0, na);
    profile_add(p, b, 0, nb);
    return p;
}

static void test_epochs(void **state)
{
    fixture_t *f = *state;
    char e1[4096], e2[4096], e3[4096], err[512];
    assert_false(profdb_latest_epoch(f->db, e1, sizeof e1, err, sizeof err));
    assert_true(profdb_epoch(f->db, false, e1, sizeof e1, err, sizeof err));
    assert_non_null(strstr(e1, "/epoch-0001"));
    assert_true(profdb_epoch(f->db, false, e2, sizeof e2, err, sizeof err));
    assert_string_equal(e1, e2);                          /* the newest, again */
    assert_true(profdb_epoch(f->db, true, e3, sizeof e3, err, sizeof err));
    assert_non_null(strstr(e3, "/epoch-0002"));
    assert_true(profdb_latest_epoch(f->db, e2, sizeof e2, err, sizeof err));
    assert_string_equal(e2, e3);
    /* a database that is a file */
    assert_false(profdb_epoch(f->image, false, e1, sizeof e1, err, sizeof err));
    assert_non_null(strstr(err, f->image));
}

static void test_image_keys(void **state)
{
    fixture_t *f = *state;
    char a[512], b[512], c[512], err[512];
    assert_true(profdb_image_key(f->image, a, sizeof a, err, sizeof err));
    assert_true(profdb_image_key(f->image, b, sizeof b, err, sizeof err));
    assert_true(profdb_image_key(f->other, c, sizeof c, err, sizeof err));
    assert_string_equal(a, b);
    assert_string_not_equal(a, c);
    assert_int_equal(strncmp(a, "prog.", 5), 0);
    assert_int_equal(strlen(a), 5 + 16);
    assert_false(profdb_image_key("/nonexistent/x", a, sizeof a, err, sizeof err));
}

static void read_back(const fixture_t *f, const char *epoch, profdb_file_t *p)
{
    char key[512], file[4700], err[512];
    assert_true(profdb_image_key(f->image, key, sizeof key, err, sizeof err));
    snprintf(file, sizeof file, "%s/%s/cycles", epoch, key);
    if (!profdb_read(file, p, err, sizeof err)) fail_msg("%s", err);
}

static void test_write_merge_read(void **state)
{
    fixture_t *f = *state;
    char epoch[4096], err[512];
    assert_true(profdb_epoch(f->db, false, epoch, sizeof epoch, err, sizeof err));
    profile_t *s1 = samples(0x10074, 5, 0x10010, 2), *s2 = samples(0x10074, 1, 0x10200, 7);
    assert_true(profdb_merge(epoch, f->image, "cycles", 60000, 64000, s1, err, sizeof err));
    profdb_file_t p;
    read_back(f, epoch, &p);
    assert_int_equal(p.n, 2);
    assert_int_equal(p.rec[0].offset, 0x10010);            /* sorted by offset */
    assert_int_equal(p.rec[1].count, 5);
    assert_int_equal(p.total, 7);
    assert_int_equal(p.runs, 1);
    assert_int_equal(p.period_min, 60000);
    profdb_file_free(&p);

    assert_true(profdb_merge(epoch, f->image, "cycles", 60000, 64000, s2, err, sizeof err));
    read_back(f, epoch, &p);
    assert_int_equal(p.n, 3);
    assert_int_equal(p.rec[1].count, 6);                    /* 0x10074: 5 + 1 */
    assert_int_equal(p.total, 15);
    assert_int_equal(p.runs, 2);
    profdb_file_free(&p);

    /* another period range: merged, marked mixed */
    assert_true(profdb_merge(epoch, f->image, "cycles", 1000, 1100, s2, err, sizeof err));
    read_back(f, epoch, &p);
    assert_int_equal(p.period_min, 0);
    assert_int_equal(p.period_max, 0);
    assert_int_equal(p.runs, 3);
    profdb_file_free(&p);
    profile_free(s1);
    profile_free(s2);
}

static void test_bad_files(void **state)
{
    fixture_t *f = *state;
    char epoch[4096], key[512], file[4700], err[512];
    profdb_file_t p;
    assert_true(profdb_epoch(f->db, false, epoch, sizeof epoch, err, sizeof err));
    profile_t *s = samples(0x10074, 5, 0x10010, 2);
    assert_true(profdb_merge(epoch, f->image, "cycles", 60000, 64000, s, err, sizeof err));
    assert_true(profdb_image_key(f->image, key, sizeof key, err, sizeof err));
    snprintf(file, sizeof file, "%s/%s/cycles", epoch, key);
    assert_int_equal(truncate(file, 60), 0);                /* cut in a record */
    assert_false(profdb_read(file, &p, err, sizeof err));
    assert_non_null(strstr(err, "truncated or corrupt"));
    /* merging into a corrupt file is refused, not silently reset */
    assert_false(profdb_merge(epoch, f->image, "cycles", 60000, 64000, s, err, sizeof err));
    write_file(file, "not a profile at all, just some text");
    assert_false(profdb_read(file, &p, err, sizeof err));
    assert_non_null(strstr(err, "not a profile file"));
    profile_free(s);
}

static void count_image(void *ctx, const char *dir, const char *path)
{
    (void)dir;
    (*(int *)ctx)++;
    assert_non_null(strstr(path, "prog"));
}

static void test_listing(void **state)
{
    fixture_t *f = *state;
    char epoch[4096], err[512];
    assert_true(profdb_epoch(f->db, false, epoch, sizeof epoch, err, sizeof err));
    profile_t *s = samples(1, 1, 2, 2);
    assert_true(profdb_merge(epoch, f->image, "cycles", 1, 1, s, err, sizeof err));
    assert_true(profdb_merge(epoch, f->other, "imiss", 1, 1, s, err, sizeof err));
    int n = 0;
    assert_true(profdb_for_each_image(epoch, count_image, &n, err, sizeof err));
    assert_int_equal(n, 2);
    profile_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_epochs, setup, teardown),
        cmocka_unit_test_setup_teardown(test_image_keys, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_merge_read, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_listing, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
