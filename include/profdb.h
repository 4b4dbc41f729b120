/*
 * profdb.h - DCPI's on-disk profile database (SOSP'97 section 4.3.3): a
 * directory of non-overlapping epochs, each a sub-directory holding one
 * profile file per executable image and event.  Profiles of later runs in
 * the same epoch are merged into the files (continuous profiling).
 *
 *   DB/epoch-0001/                 an epoch ("--dcpi-epoch new" starts one)
 *   DB/epoch-0001/IMAGE/           one per image: IMAGE = basename.HASH, the
 *                                  HASH (16 hex digits, FNV-1a 64) of the
 *                                  file's contents, so that two builds of a
 *                                  program do not share a profile
 *   DB/epoch-0001/IMAGE/path       the image's path (text, one line)
 *   DB/epoch-0001/IMAGE/EVENT      the profile of one event (cycles, imiss..)
 *
 * A profile file is binary, little endian, 8-byte fields:
 *   magic "HPSPROF2", version (1), period_min, period_max (the sampling
 *   period range; 0, 0 once runs with different ranges were merged), runs
 *   merged, total samples, record count, then the records (image offset,
 *   samples) sorted by offset.  The image offset is the instruction's
 *   address in the image's own ELF (pc minus the load bias).
 * Nothing here prints or exits: errors go to err.
 */
#ifndef HPS_PROFDB_H
#define HPS_PROFDB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "pmu.h"
#include "profile.h"

#define PROFDB_EVENTS PMU_EVENT_COUNT

#define PROFDB_MAGIC   0x32464f5250535048ull  /* "HPSPROF2" in memory order */
#define PROFDB_VERSION 1u

typedef struct profdb_record {
    uint64_t offset, count;
} profdb_record_t;

typedef struct profdb_file {
    uint64_t period_min, period_max, runs, total;
    size_t n;
    profdb_record_t *rec;       /* sorted by offset */
} profdb_file_t;

/* The epoch directory to write into: the newest epoch of db, or a new one
 * after it when new_epoch (or when there is none).  Creates what is
 * missing.  out receives the directory path. */
bool profdb_epoch(const char *db, bool new_epoch, char *out, size_t len, char *err, size_t errlen);
/* The newest epoch of db (for readers); false when db has none. */
bool profdb_latest_epoch(const char *db, char *out, size_t len, char *err, size_t errlen);

/* The directory name of an image: basename.HASH of its contents. */
bool profdb_image_key(const char *path, char *out, size_t len, char *err, size_t errlen);

/* Merge samples (key = image offset, weight = samples) into the profile of
 * (image, event) in the epoch, creating it if needed. */
bool profdb_merge(const char *epoch, const char *image_path, const char *event,
                  uint64_t period_min, uint64_t period_max, const profile_t *samples,
                  char *err, size_t errlen);
/* The same with the image's key (profdb_image_key) already known, for a
 * writer that merges several events of one image. */
bool profdb_merge_keyed(const char *epoch, const char *image_key, const char *image_path,
                        const char *event, uint64_t period_min, uint64_t period_max,
                        const profile_t *samples, char *err, size_t errlen);

/* Read one profile file; profdb_file_free releases it.  false + err (the
 * file and the byte or record) for a bad magic or version, a record count
 * the file's size does not hold (checked before allocating), records out
 * of offset order, or counts that do not add up to the header's total. */
bool profdb_read(const char *file, profdb_file_t *out, char *err, size_t errlen);
void profdb_file_free(profdb_file_t *f);

/* ---- reading a whole epoch (the tools) -------------------------------------------- */

/* One image of an epoch with its profiles by event (pmu_event_t). */
typedef struct profdb_image {
    char *dir, *path;
    profdb_file_t prof[PROFDB_EVENTS];
    bool has[PROFDB_EVENTS];
} profdb_image_t;

typedef struct profdb_epoch_data {
    char dir[4096];
    profdb_image_t *v;
    size_t n;
    bool events[PROFDB_EVENTS];         /* present in some image */
} profdb_epoch_data_t;

/* Read epoch `epoch` of db (0: the newest) with every image's profiles. */
bool profdb_load(const char *db, unsigned epoch, profdb_epoch_data_t *out, char *err,
                 size_t errlen);
void profdb_unload(profdb_epoch_data_t *e);
/* Samples of a profile at an image offset (0 when none). */
uint64_t profdb_samples_at(const profdb_file_t *f, uint64_t offset);
/* The image whose path or basename is name, or NULL. */
const profdb_image_t *profdb_find_image(const profdb_epoch_data_t *e, const char *name);
/* The events collected for an image, 1 << event each, and each one's mean
 * sampling period into periods[PROFDB_EVENTS] (0 when not collected, or
 * when runs of different ranges were merged). */
uint32_t profdb_image_events(const profdb_image_t *im, double *periods);

/* The images of an epoch: calls fn with each image directory's path and
 * the image path it records, in name order. */
bool profdb_for_each_image(const char *epoch, void (*fn)(void *ctx, const char *dir,
                                                         const char *image_path),
                           void *ctx, char *err, size_t errlen);

#endif /* HPS_PROFDB_H */
