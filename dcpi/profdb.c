/*
 * profdb.c - the on-disk profile database (profdb.h): epochs, image
 * directories, and the binary profile files, merged and replaced
 * atomically (written to a temporary file, then renamed).
 */
#include "profdb.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

enum { HEADER_WORDS = 7 };     /* magic, version, min, max, runs, total, n */

static bool make_dir(const char *path, char *err, size_t errlen)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST) {
        struct stat st;
        if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) return true;
        return set_error(err, errlen, "%s: exists and is not a directory", path);
    }
    return set_error(err, errlen, "%s: cannot create directory: %s", path, strerror(errno));
}

/* ---- epochs ------------------------------------------------------------------- */

/* The highest N of the db's epoch-NNNN directories, 0 when none. */
static bool newest_epoch(const char *db, unsigned *n, char *err, size_t errlen)
{
    DIR *dir = opendir(db);
    if (!dir) return set_error(err, errlen, "%s: cannot read the profile database: %s", db,
                          strerror(errno));
    *n = 0;
    for (struct dirent *e; (e = readdir(dir));) {
        unsigned k;
        char tail;
        if (sscanf(e->d_name, "epoch-%u%c", &k, &tail) == 1 && k > *n) *n = k;
    }
    closedir(dir);
    return true;
}

bool profdb_epoch(const char *db, bool new_epoch, char *out, size_t len, char *err, size_t errlen)
{
    unsigned n;
    if (!make_dir(db, err, errlen) || !newest_epoch(db, &n, err, errlen)) return false;
    if (new_epoch || n == 0) n++;
    snprintf(out, len, "%s/epoch-%04u", db, n);
    return make_dir(out, err, errlen);
}

bool profdb_latest_epoch(const char *db, char *out, size_t len, char *err, size_t errlen)
{
    unsigned n;
    if (!newest_epoch(db, &n, err, errlen)) return false;
    if (n == 0) return set_error(err, errlen, "%s: no epoch-NNNN directory: not a profile database", db);
    snprintf(out, len, "%s/epoch-%04u", db, n);
    return true;
}

/* ---- images ------------------------------------------------------------------- */

bool profdb_image_key(const char *path, char *out, size_t len, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) return set_error(err, errlen, "%s: cannot read the image: %s", path, strerror(errno));
    uint64_t h = 0xcbf29ce484222325ull;                 /* FNV-1a 64 */
    unsigned char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        for (size_t k = 0; k < n; k++) h = (h ^ buf[k]) * 0x100000001b3ull;
    fclose(f);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    snprintf(out, len, "%s.%016" PRIx64, base, h);
    return true;
}

/* ---- profile files -------------------------------------------------------------- */

void profdb_file_free(profdb_file_t *f)
{
    free(f->rec);
    memset(f, 0, sizeof *f);
}

/* The records a profile file's size leaves room for after its header
 * (UINT64_MAX when its size is no whole number of records): the header's
 * count must equal it before anything is allocated. */
static uint64_t records_held(FILE *f)
{
    struct stat st;
    uint64_t header = HEADER_WORDS * sizeof(uint64_t);
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode) || (uint64_t)st.st_size < header)
        return UINT64_MAX;
    uint64_t body = (uint64_t)st.st_size - header;
    return body % sizeof(profdb_record_t) ? UINT64_MAX : body / sizeof(profdb_record_t);
}

/* The records in order of offset, their counts adding up to the header's
 * total; false + err naming the first record (or the total) that is not. */
static bool records_valid(const char *file, const profdb_file_t *p, char *err, size_t errlen)
{
    uint64_t sum = 0;
    for (size_t k = 0; k < p->n; k++) {
        if (k && p->rec[k].offset <= p->rec[k - 1].offset)
            return set_error(err, errlen, "%s: corrupt profile file: record %zu (byte %zu) is not "
                             "after the one before it in offset order", file, k,
                             HEADER_WORDS * sizeof(uint64_t) + k * sizeof *p->rec);
        if (p->rec[k].count > UINT64_MAX - sum)
            return set_error(err, errlen, "%s: corrupt profile file: the sample counts overflow "
                             "at record %zu", file, k);
        sum += p->rec[k].count;
    }
    if (sum != p->total)
        return set_error(err, errlen, "%s: corrupt profile file: the records hold %" PRIu64
                         " samples, the header (byte 40) says %" PRIu64, file, sum, p->total);
    return true;
}

bool profdb_read(const char *file, profdb_file_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(file, "rb");
    if (!f) return set_error(err, errlen, "%s: cannot read: %s", file, strerror(errno));
    uint64_t h[HEADER_WORDS];
    if (fread(h, sizeof h, 1, f) != 1 || h[0] != PROFDB_MAGIC || h[1] != PROFDB_VERSION) {
        fclose(f);
        return set_error(err, errlen, "%s: not a profile file (expected magic HPSPROF2, version %u)",
                         file, PROFDB_VERSION);
    }
    uint64_t held = records_held(f);
    if (held == UINT64_MAX || h[6] != held) {
        fclose(f);
        if (held == UINT64_MAX)
            return set_error(err, errlen, "%s: truncated or corrupt profile file: its size is not "
                             "a %zu-byte header and whole %zu-byte records", file,
                             HEADER_WORDS * sizeof(uint64_t), sizeof(profdb_record_t));
        return set_error(err, errlen, "%s: truncated or corrupt profile file: its header (byte "
                         "48) says %" PRIu64 " records, the file holds %" PRIu64, file, h[6], held);
    }
    *out = (profdb_file_t){ .period_min = h[2], .period_max = h[3], .runs = h[4],
                            .total = h[5], .n = (size_t)h[6] };
    out->rec = xcalloc(out->n ? out->n : 1, sizeof *out->rec);
    bool ok = fread(out->rec, sizeof *out->rec, out->n, f) == out->n;
    fclose(f);
    if (!ok) set_error(err, errlen, "%s: truncated profile file: cannot read its records", file);
    if (!ok || !records_valid(file, out, err, errlen)) {
        profdb_file_free(out);
        return false;
    }
    return true;
}

static int by_offset(const void *a, const void *b)
{
    const profdb_record_t *x = a, *y = b;
    return x->offset < y->offset ? -1 : x->offset > y->offset;
}

static bool write_file(const char *file, const profdb_file_t *p, char *err, size_t errlen)
{
    char tmp[4200];
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", file, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f) return set_error(err, errlen, "%s: cannot write: %s", tmp, strerror(errno));
    uint64_t h[HEADER_WORDS] = { PROFDB_MAGIC, PROFDB_VERSION, p->period_min, p->period_max,
                                 p->runs, p->total, p->n };
    bool ok = fwrite(h, sizeof h, 1, f) == 1 &&
              fwrite(p->rec, sizeof *p->rec, p->n, f) == p->n;
    ok = (fclose(f) == 0) && ok;
    if (!ok || rename(tmp, file) != 0) {
        unlink(tmp);
        return set_error(err, errlen, "%s: cannot write: %s", file, strerror(errno));
    }
    return true;
}

bool profdb_merge(const char *epoch, const char *image_path, const char *event,
                  uint64_t period_min, uint64_t period_max, const profile_t *samples,
                  char *err, size_t errlen)
{
    char key[512];
    return profdb_image_key(image_path, key, sizeof key, err, errlen) &&
           profdb_merge_keyed(epoch, key, image_path, event, period_min, period_max, samples,
                              err, errlen);
}

bool profdb_merge_keyed(const char *epoch, const char *key, const char *image_path,
                        const char *event, uint64_t period_min, uint64_t period_max,
                        const profile_t *samples, char *err, size_t errlen)
{
    char dir[4096], file[4160];
    snprintf(dir, sizeof dir, "%s/%s", epoch, key);
    if (!make_dir(dir, err, errlen)) return false;
    snprintf(file, sizeof file, "%s/path", dir);
    FILE *pf = fopen(file, "w");
    if (!pf || fprintf(pf, "%s\n", image_path) < 0 || fclose(pf) != 0)
        return set_error(err, errlen, "%s: cannot write: %s", file, strerror(errno));

    snprintf(file, sizeof file, "%s/%s", dir, event);
    profdb_file_t old = { 0 };
    bool exists = access(file, F_OK) == 0;
    if (exists && !profdb_read(file, &old, err, errlen)) return false;
    profile_t *sum = profile_new();
    for (size_t k = 0; k < old.n; k++) profile_add(sum, old.rec[k].offset, 0, old.rec[k].count);
    profile_member_t *m = NULL;
    size_t n = profile_sorted(samples, &m);
    for (size_t k = 0; k < n; k++) profile_add(sum, m[k].key, 0, m[k].weight);
    free(m);

    profdb_file_t out = { .runs = old.runs + 1, .total = profile_total(sum) };
    bool same = !exists || (old.period_min == period_min && old.period_max == period_max);
    out.period_min = same ? period_min : 0;
    out.period_max = same ? period_max : 0;
    out.n = profile_sorted(sum, &m);
    out.rec = xcalloc(out.n ? out.n : 1, sizeof *out.rec);
    for (size_t k = 0; k < out.n; k++) out.rec[k] = (profdb_record_t){ m[k].key, m[k].weight };
    free(m);
    qsort(out.rec, out.n, sizeof *out.rec, by_offset);
    bool ok = write_file(file, &out, err, errlen);
    profdb_file_free(&out);
    profdb_file_free(&old);
    profile_free(sum);
    return ok;
}

/* ---- listing --------------------------------------------------------------------- */

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

bool profdb_for_each_image(const char *epoch, void (*fn)(void *ctx, const char *dir,
                                                         const char *image_path),
                           void *ctx, char *err, size_t errlen)
{
    DIR *d = opendir(epoch);
    if (!d) return set_error(err, errlen, "%s: cannot read: %s", epoch, strerror(errno));
    char **names = NULL;
    size_t n = 0, cap = 0;
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) names = xrealloc(names, (cap = cap ? 2 * cap : 16) * sizeof *names);
        names[n++] = xstrdup(e->d_name);
    }
    closedir(d);
    qsort(names, n, sizeof *names, by_name);
    for (size_t k = 0; k < n; k++) {
        char dir[4096], file[4160], path[4096] = "";
        snprintf(dir, sizeof dir, "%s/%s", epoch, names[k]);
        snprintf(file, sizeof file, "%s/path", dir);
        FILE *f = fopen(file, "r");
        if (f) {
            if (fgets(path, sizeof path, f)) path[strcspn(path, "\n")] = 0;
            fclose(f);
            fn(ctx, dir, path);
        }
        free(names[k]);
    }
    free(names);
    return true;
}

/* ---- reading a whole epoch --------------------------------------------------------- */

typedef struct load_ctx {
    profdb_epoch_data_t *e;
    char *err;
    size_t errlen;
    bool ok;
} load_ctx_t;

static void load_image(void *ctx, const char *dir, const char *path)
{
    load_ctx_t *l = ctx;
    profdb_epoch_data_t *e = l->e;
    if (!l->ok) return;
    e->v = xrealloc(e->v, (e->n + 1) * sizeof *e->v);
    profdb_image_t *im = &e->v[e->n++];
    memset(im, 0, sizeof *im);
    im->dir = xstrdup(dir);
    im->path = xstrdup(path);
    for (int ev = 0; ev < PROFDB_EVENTS; ev++) {
        char file[4200];
        snprintf(file, sizeof file, "%s/%s", dir, pmu_event_names[ev]);
        if (access(file, F_OK) != 0) continue;
        if (!profdb_read(file, &im->prof[ev], l->err, l->errlen)) { l->ok = false; return; }
        im->has[ev] = true;
        e->events[ev] = true;
    }
}

bool profdb_load(const char *db, unsigned epoch, profdb_epoch_data_t *out, char *err,
                 size_t errlen)
{
    memset(out, 0, sizeof *out);
    if (epoch) snprintf(out->dir, sizeof out->dir, "%s/epoch-%04u", db, epoch);
    else if (!profdb_latest_epoch(db, out->dir, sizeof out->dir, err, errlen)) return false;
    load_ctx_t l = { out, err, errlen, true };
    if (!profdb_for_each_image(out->dir, load_image, &l, err, errlen) || !l.ok) {
        profdb_unload(out);
        return false;
    }
    return true;
}

void profdb_unload(profdb_epoch_data_t *e)
{
    for (size_t k = 0; k < e->n; k++) {
        for (int ev = 0; ev < PROFDB_EVENTS; ev++) profdb_file_free(&e->v[k].prof[ev]);
        free(e->v[k].dir);
        free(e->v[k].path);
    }
    free(e->v);
    e->v = NULL;
    e->n = 0;
}

uint64_t profdb_samples_at(const profdb_file_t *f, uint64_t offset)
{
    size_t lo = 0, hi = f->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (f->rec[mid].offset < offset) lo = mid + 1;
        else hi = mid;
    }
    return lo < f->n && f->rec[lo].offset == offset ? f->rec[lo].count : 0;
}

uint32_t profdb_image_events(const profdb_image_t *im, double *periods)
{
    uint32_t collected = 0;
    for (int e = 0; e < PROFDB_EVENTS; e++) {
        periods[e] = 0;
        if (!im->has[e]) continue;
        collected |= 1u << e;
        periods[e] = ((double)im->prof[e].period_min + (double)im->prof[e].period_max) / 2;
    }
    return collected;
}

const profdb_image_t *profdb_find_image(const profdb_epoch_data_t *e, const char *name)
{
    for (size_t k = 0; k < e->n; k++) {
        const char *base = strrchr(e->v[k].path, '/');
        base = base ? base + 1 : e->v[k].path;
        if (!strcmp(name, e->v[k].path) || !strcmp(name, base)) return &e->v[k];
    }
    return NULL;
}
