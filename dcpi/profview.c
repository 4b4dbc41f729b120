/*
 * profview.c - a profile database seen per procedure and as an export
 * profile, for the offline tools (profview.h).
 */
#include "profview.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "pmu.h"
#include "util.h"

/* ---- which epoch -------------------------------------------------------------------- */

bool profview_load(const char *arg, unsigned epoch, profdb_epoch_data_t *out, char *err,
                   size_t errlen)
{
    char db[4096];
    snprintf(db, sizeof db, "%s", arg);
    size_t len = strlen(db);
    while (len > 1 && db[len - 1] == '/') db[--len] = 0;
    const char *base = profview_basename(db);
    unsigned n;
    char tail;
    struct stat st;
    if (!epoch && sscanf(base, "epoch-%u%c", &n, &tail) == 1 && n && stat(db, &st) == 0 &&
        S_ISDIR(st.st_mode)) {
        if (base == db) snprintf(db, sizeof db, ".");
        else db[base - db - 1] = 0;
        epoch = n;
    }
    return profdb_load(db, epoch, out, err, errlen);
}

static int by_number(const void *a, const void *b)
{
    unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
    return x < y ? -1 : x > y;
}

bool profview_epochs(const char *db, unsigned **out, size_t *n, char *err, size_t errlen)
{
    DIR *d = opendir(db);
    if (!d) return set_error(err, errlen, "%s: cannot read the profile database", db);
    *out = NULL;
    *n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        unsigned k;
        char tail;
        if (sscanf(e->d_name, "epoch-%u%c", &k, &tail) != 1 || !k) continue;
        *out = xrealloc(*out, (*n + 1) * sizeof **out);
        (*out)[(*n)++] = k;
    }
    closedir(d);
    if (!*n) return set_error(err, errlen, "%s: no epoch-NNNN directory: not a profile database", db);
    qsort(*out, *n, sizeof **out, by_number);
    return true;
}

const char *profview_basename(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

const char *profview_image_hash(const profdb_image_t *im)
{
    const char *dot = strrchr(profview_basename(im->dir), '.');
    return dot ? dot + 1 : "";
}

static bool unique_builds(const profdb_epoch_data_t *e, const char *name, char *err,
                          size_t errlen)
{
    for (size_t i = 0; i < e->n; i++)
        for (size_t j = i + 1; j < e->n; j++)
            if (!strcmp(profview_basename(e->v[i].path), profview_basename(e->v[j].path)))
                return set_error(err, errlen, "%s holds two builds of %s (%s and %s): their "
                                 "procedures cannot be told apart", name,
                                 profview_basename(e->v[i].path), profview_image_hash(&e->v[i]),
                                 profview_image_hash(&e->v[j]));
    return true;
}

bool profview_same_builds(const profdb_epoch_data_t *a, const char *name_a,
                          const profdb_epoch_data_t *b, const char *name_b, char *err,
                          size_t errlen)
{
    if (!unique_builds(a, name_a, err, errlen) || !unique_builds(b, name_b, err, errlen))
        return false;
    for (size_t i = 0; i < a->n; i++)
        for (size_t j = 0; j < b->n; j++) {
            const profdb_image_t *x = &a->v[i], *y = &b->v[j];
            if (strcmp(profview_basename(x->path), profview_basename(y->path))) continue;
            if (strcmp(profview_image_hash(x), profview_image_hash(y)))
                return set_error(err, errlen, "image %s differs: %s profiled the build with "
                                 "contents hash %s (%s), %s the build %s (%s)",
                                 profview_basename(x->path), name_a, profview_image_hash(x),
                                 x->path, name_b, profview_image_hash(y), y->path);
        }
    return true;
}

/* ---- per procedure -------------------------------------------------------------------- */

/* The row of (image, symbol) in p, appended when new. */
static profview_proc_t *proc_row(profview_procs_t *p, const char *image, const symbol_t *s)
{
    const char *name = s ? s->name : "(unknown)";
    for (size_t k = p->n; k-- > 0;) {
        if (p->v[k].image != image) break;          /* rows of one image are contiguous */
        if (!strcmp(p->v[k].name, name)) return &p->v[k];
    }
    p->v = xrealloc(p->v, (p->n + 1) * sizeof *p->v);
    profview_proc_t *r = &p->v[p->n++];
    memset(r, 0, sizeof *r);
    r->name = name;
    r->image = image;
    r->entry = s ? s->addr : 0;
    return r;
}

static int by_entry(const void *a, const void *b)
{
    const profview_proc_t *x = a, *y = b;
    if (x->entry != y->entry) return x->entry < y->entry ? -1 : 1;
    return strcmp(x->name, y->name);
}

void profview_procs(const profdb_epoch_data_t *db, bool (*select)(void *ctx, const profdb_image_t *),
                    void *ctx, profview_procs_t *out)
{
    memset(out, 0, sizeof *out);
    out->n_tabs = db->n;
    out->tabs = xcalloc(db->n ? db->n : 1, sizeof *out->tabs);
    for (size_t i = 0; i < db->n; i++) {
        const profdb_image_t *im = &db->v[i];
        if (select && !select(ctx, im)) continue;
        out->tabs[i] = symtab_load(im->path);
        size_t first = out->n;
        for (int e = 0; e < PROFDB_EVENTS; e++)
            for (size_t r = 0; im->has[e] && r < im->prof[e].n; r++) {
                const profdb_record_t *rec = &im->prof[e].rec[r];
                proc_row(out, im->path, symtab_lookup(out->tabs[i], rec->offset))->count[e] +=
                    rec->count;
            }
        qsort(out->v + first, out->n - first, sizeof *out->v, by_entry);
    }
}

void profview_procs_free(profview_procs_t *p)
{
    for (size_t k = 0; k < p->n_tabs; k++) symtab_free(p->tabs[k]);
    free(p->tabs);
    free(p->v);
    memset(p, 0, sizeof *p);
}

/* ---- as an export profile ------------------------------------------------------------------ */

static void export_image(export_profile_t *x, const profdb_image_t *im, bool per_instruction,
                         const int *events, size_t n_events)
{
    symtab_t *st = symtab_load(im->path);
    for (size_t k = 0; k < n_events; k++) {
        int e = events[k];
        for (size_t r = 0; im->has[e] && r < im->prof[e].n; r++) {
            const profdb_record_t *rec = &im->prof[e].rec[r];
            const symbol_t *s = symtab_lookup(st, rec->offset);
            export_frame_t f = { s ? s->name : "(unknown)", NULL, im->path,
                                 per_instruction || !s ? rec->offset : s->addr, s ? s->addr : 0, 0 };
            uint64_t v[PROFDB_EVENTS] = { 0 };
            v[k] = rec->count;
            uint32_t id = export_frame(x, &f);
            export_add_stack(x, &id, 1, v);
        }
    }
    symtab_free(st);
}

export_profile_t *profview_export(const profdb_epoch_data_t *db, bool per_instruction,
                                  bool (*select)(void *ctx, const profdb_image_t *), void *ctx,
                                  int events[PROFDB_EVENTS], size_t *n_events, char *err,
                                  size_t errlen)
{
    const char *names[PROFDB_EVENTS], *units[PROFDB_EVENTS];
    *n_events = 0;
    for (int e = 0; e < PROFDB_EVENTS; e++) {
        if (!db->events[e]) continue;
        events[*n_events] = e;
        names[*n_events] = pmu_event_names[e];
        units[*n_events] = "samples";
        ++*n_events;
    }
    if (!*n_events) {
        set_error(err, errlen, "%s: no profiles to export", db->dir);
        return NULL;
    }
    export_profile_t *x = export_new("hps-dcpiprof", *n_events, names, units);
    char comment[4200];
    snprintf(comment, sizeof comment, "DCPI profile database %s, samples per %s", db->dir,
             per_instruction ? "instruction" : "procedure");
    export_add_comment(x, comment);
    for (size_t i = 0; i < db->n; i++)
        if (!select || select(ctx, &db->v[i]))
            export_image(x, &db->v[i], per_instruction, events, *n_events);
    return x;
}
