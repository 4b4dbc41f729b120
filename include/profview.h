/*
 * profview.h - views of a DCPI profile database for the offline tools
 * (hps-dcpiprof, hps-dcpistats, hps-dcpidiff): which epoch a command-line
 * argument names, samples summed per procedure of each image's ELF symbol
 * table, and the database as an export profile (export.h) of one-frame
 * stacks, one per instruction or per procedure.
 * Nothing here prints or exits: errors go to err.
 */
#ifndef HPS_PROFVIEW_H
#define HPS_PROFVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "export.h"
#include "profdb.h"
#include "symtab.h"

/* Load the epoch an argument names: DB/epoch-NNNN (that epoch), or DB
 * (epoch `epoch` of it, 0: the newest). */
bool profview_load(const char *arg, unsigned epoch, profdb_epoch_data_t *out, char *err,
                   size_t errlen);
/* The epoch numbers of a database, ascending (*n of them; free the array). */
bool profview_epochs(const char *db, unsigned **out, size_t *n, char *err, size_t errlen);

/* The basename of an image path (what two builds of a program share). */
const char *profview_basename(const char *path);
/* The HASH of an image directory DB/epoch-N/basename.HASH ("" if none). */
const char *profview_image_hash(const profdb_image_t *im);

/* Two builds of one program (images of the same basename, different
 * contents) cannot be matched offset by offset: false + err naming the
 * image and both hashes when epoch a (called name_a) and b have such a
 * pair, or when one epoch holds two builds of a basename. */
bool profview_same_builds(const profdb_epoch_data_t *a, const char *name_a,
                          const profdb_epoch_data_t *b, const char *name_b, char *err,
                          size_t errlen);

/* Samples of one procedure of one image. */
typedef struct profview_proc {
    const char *name;           /* "(unknown)" for offsets outside every symbol */
    const char *image;          /* the image's path */
    uint64_t entry;             /* first address (0 when unknown) */
    uint64_t count[PROFDB_EVENTS];
} profview_proc_t;

typedef struct profview_procs {
    profview_proc_t *v;
    size_t n;
    symtab_t **tabs;            /* one per image of the epoch (names point here) */
    size_t n_tabs;
} profview_procs_t;

/* Per procedure of each image for which select(ctx, image) is true (NULL:
 * every image), in order of image, then entry address. */
void profview_procs(const profdb_epoch_data_t *db, bool (*select)(void *ctx, const profdb_image_t *),
                    void *ctx, profview_procs_t *out);
void profview_procs_free(profview_procs_t *p);

/* The epoch as an export profile: every event present, in pmu order, one
 * frame per instruction (per_instruction) or per procedure, for the
 * selected images.  *events receives the pmu event of each export event.
 * NULL + err when the epoch has no samples. */
export_profile_t *profview_export(const profdb_epoch_data_t *db, bool per_instruction,
                                  bool (*select)(void *ctx, const profdb_image_t *), void *ctx,
                                  int events[PROFDB_EVENTS], size_t *n_events, char *err,
                                  size_t errlen);

#endif /* HPS_PROFVIEW_H */
