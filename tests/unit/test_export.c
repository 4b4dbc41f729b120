/*
 * test_export.c - the profile exporter (dcpi/export.c): frames interned,
 * stacks added up into a calling context tree, and the three formats
 * written with known contents: folded stacks line by line, callgrind's
 * cost and call lines (inclusive costs, call counts), and the pprof file
 * gunzipped and walked with a small protobuf reader (sample values, leaf-
 * first locations, the string table).  Bad arguments: NULL or false + err.
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
#include <zlib.h>

#include "export.h"

static const char *const events[] = { "cycles", "imiss" };

static uint32_t frame(export_profile_t *x, const char *fn, uint64_t entry, uint64_t addr)
{
    export_frame_t f = { fn, NULL, "/bin/prog", addr, entry, 0 };
    return export_frame(x, &f);
}

/* main@0x110 -> work@0x208 -> leaf@0x300: 5, 1;  main@0x110 -> work@0x20c: 3, 0;
 * main@0x104: 2, 0.  main called work 4 times (one of its two nodes knows). */
static export_profile_t *sample_profile(void)
{
    export_profile_t *x = export_new("test", 2, events, NULL);
    uint32_t m = frame(x, "main", 0x100, 0x110), w1 = frame(x, "work", 0x200, 0x208),
             w2 = frame(x, "work", 0x200, 0x20c), l = frame(x, "le;af", 0x300, 0x300),
             m0 = frame(x, "main", 0x100, 0x104);
    export_add_stack(x, (uint32_t[]){ m, w1, l }, 3, (uint64_t[]){ 5, 1 });
    export_add_stack(x, (uint32_t[]){ m, w2 }, 2, (uint64_t[]){ 3, 0 });
    export_add_stack(x, (uint32_t[]){ m0 }, 1, (uint64_t[]){ 2, 0 });
    export_add_stack(x, (uint32_t[]){ m0 }, 0, (uint64_t[]){ 100, 100 });   /* depth 0: nothing */
    export_add_calls(x, (uint32_t[]){ m, w1 }, 2, 4);
    return x;
}

static char *read_text(const char *path)
{
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    static char buf[8192];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = 0;
    fclose(f);
    return buf;
}

static void test_frames_and_totals(void **state)
{
    (void)state;
    assert_null(export_new("x", 0, events, NULL));
    assert_null(export_new("x", EXPORT_MAX_EVENTS + 1, events, NULL));
    export_profile_t *x = sample_profile();
    assert_int_equal(frame(x, "main", 0x100, 0x110), frame(x, "main", 0x100, 0x110));
    assert_int_not_equal(frame(x, "main", 0x100, 0x110), frame(x, "main", 0x100, 0x114));
    assert_int_equal(export_total(x, 0), 10);
    assert_int_equal(export_total(x, 1), 1);
    assert_int_equal(export_total(x, 2), 0);
    export_format_t f;
    assert_true(export_format_by_name("pprof", &f));
    assert_int_equal(f, EXPORT_PPROF);
    assert_false(export_format_by_name("svg", &f));
    export_free(x);
}

static void test_folded(void **state)
{
    (void)state;
    export_profile_t *x = sample_profile();
    char path[] = "/tmp/hps-export.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[256];
    assert_true(export_write(x, EXPORT_FOLDED, 0, path, err, sizeof err));
    /* a ';' inside a name would split the frame: written as '_' */
    assert_string_equal(read_text(path), "main 2\nmain;work 3\nmain;work;le_af 5\n");
    assert_true(export_write(x, EXPORT_FOLDED, 1, path, err, sizeof err));
    assert_string_equal(read_text(path), "main;work;le_af 1\n");
    assert_false(export_write(x, EXPORT_FOLDED, 2, path, err, sizeof err));
    unlink(path);
    export_free(x);
}

static void test_callgrind(void **state)
{
    (void)state;
    export_profile_t *x = sample_profile();
    export_add_comment(x, "a test profile");
    char path[] = "/tmp/hps-export.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[256];
    assert_true(export_write(x, EXPORT_CALLGRIND, 0, path, err, sizeof err));
    const char *t = read_text(path);
    assert_non_null(strstr(t, "# callgrind format\nversion: 1\ncreator: test\ndesc: a test profile\n"));
    assert_non_null(strstr(t, "positions: instr line\nevents: cycles imiss\n"));
    /* main's self cost, then its call of work: 4 calls (the known count),
     * inclusive 5 + 3 from the call site 0x110 */
    assert_non_null(strstr(t, "fn=main\n0x104 0 2 0\ncob=/bin/prog\ncfi=???\ncfn=work\n"
                              "calls=4 0x200\n0x110 0 8 1\n"));
    /* work -> le;af: no count recorded, written as one call, and said so */
    assert_non_null(strstr(t, "cfn=le;af\ncalls=1 0x300\n0x208 0 5 1\n"));
    assert_non_null(strstr(t, "desc: calls=1 on a call marks"));
    assert_non_null(strstr(t, "fn=work\n"));
    assert_non_null(strstr(t, "0x20c 0 3 0\n"));
    unlink(path);
    export_free(x);
}

/* ---- a small protobuf reader for the pprof check ---------------------------------- */

typedef struct cursor {
    const uint8_t *p, *end;
} cursor_t;

static uint64_t varint(cursor_t *c)
{
    uint64_t v = 0;
    for (int shift = 0; c->p < c->end; shift += 7) {
        uint8_t b = *c->p++;
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) return v;
    }
    fail_msg("truncated varint");
    return 0;
}

/* The next field: its number, and either its integer or its bytes. */
static unsigned field(cursor_t *c, uint64_t *value, cursor_t *sub)
{
    uint64_t key = varint(c);
    if ((key & 7) == 0) {
        *value = varint(c);
    } else {
        assert_int_equal(key & 7, 2);
        uint64_t len = varint(c);
        assert_true(len <= (uint64_t)(c->end - c->p));
        *sub = (cursor_t){ c->p, c->p + len };
        c->p += len;
    }
    return (unsigned)(key >> 3);
}

static void test_pprof(void **state)
{
    (void)state;
    export_profile_t *x = sample_profile();
    char path[] = "/tmp/hps-export.XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char err[256];
    assert_true(export_write(x, EXPORT_PPROF, 0, path, err, sizeof err));
    gzFile gz = gzopen(path, "rb");
    assert_non_null(gz);
    static uint8_t buf[65536];
    int n = gzread(gz, buf, sizeof buf);
    gzclose(gz);
    assert_true(n > 0);
    cursor_t c = { buf, buf + n };
    uint64_t sums[2] = { 0 }, v;
    unsigned samples = 0, locations = 0, strings = 0, sample_types = 0;
    char deep[64] = "";
    while (c.p < c.end) {
        cursor_t sub = { 0 };
        unsigned f = field(&c, &v, &sub);
        if (f == 1) sample_types++;
        if (f == 4) locations++;
        if (f == 6) {
            /* the string table starts with "" */
            if (strings++ == 0) assert_true(sub.p == sub.end);
        }
        if (f != 2) continue;
        samples++;
        char ids[64] = "";
        while (sub.p < sub.end) {
            cursor_t packed;
            unsigned g = field(&sub, &v, &packed);
            for (int k = 0; packed.p < packed.end; k++) {
                uint64_t x = varint(&packed);
                if (g == 2) sums[k] += x;
                if (g == 1) snprintf(ids + strlen(ids), sizeof ids - strlen(ids), " %llu", (unsigned long long)x);
            }
        }
        if (strlen(ids) > strlen(deep)) snprintf(deep, sizeof deep, "%s", ids);
    }
    assert_int_equal(sample_types, 2);
    assert_int_equal(samples, 3);
    assert_int_equal(locations, 5);           /* one per frame */
    assert_int_equal(sums[0], 10);
    assert_int_equal(sums[1], 1);
    assert_string_equal(deep, " 4 2 1");      /* le;af, work@0x208, main@0x110: leaf first */
    assert_true(strings >= 6);                /* "", cycles, count, imiss, names, image */
    unlink(path);
    export_free(x);
}

static void test_write_errors(void **state)
{
    (void)state;
    export_profile_t *x = sample_profile();
    char err[256];
    for (int k = 0; k < 3; k++) {
        err[0] = 0;
        assert_false(export_write(x, (export_format_t)k, 0, "/nonexistent-dir/p", err, sizeof err));
        assert_non_null(strstr(err, "/nonexistent-dir/p: cannot write"));
    }
    export_free(x);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_frames_and_totals), cmocka_unit_test(test_folded),
        cmocka_unit_test(test_callgrind),         cmocka_unit_test(test_pprof),
        cmocka_unit_test(test_write_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
