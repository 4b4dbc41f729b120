/*
 * export.h - profiles written in the formats other tools read: callgrind
 * (KCachegrind, callgrind_annotate), pprof's gzip-compressed profile.proto,
 * and folded stacks (flamegraph.pl, speedscope).  /work/shared/FORMATS.md
 * gives the formats.
 *
 * A profile here is a set of weighted call stacks: each stack is a list of
 * frames, root (outermost caller) first, with one value per event (samples
 * of cycles, imiss, ...) charged to its last frame.  Equal stacks add up.
 * The writers build the calling context tree from the stacks, so a caller's
 * inclusive cost is its own plus that of everything below it:
 *   - callgrind: self cost lines per (function, instruction address, line),
 *     and for every caller -> callee edge a call with its inclusive cost;
 *   - pprof: one Sample per distinct stack (leaf first), Locations per
 *     distinct frame, Functions per (name, file), Mappings per image;
 *   - folded: "root;...;leaf VALUE" per distinct stack, for one event.
 * A flat profile (DCPI's database) is the special case of one-frame stacks,
 * one per procedure or instruction; the calling-context profilers add
 * deeper ones, and call counts where they know them (export_add_calls).
 *
 * The module knows no profiler: it sits in the base layer, so any of them
 * may use it.  Nothing here prints or exits: errors go to err.
 */
#ifndef HPS_EXPORT_H
#define HPS_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EXPORT_MAX_EVENTS 16

typedef enum { EXPORT_CALLGRIND, EXPORT_PPROF, EXPORT_FOLDED } export_format_t;

/* One frame: a position in a function.  Strings are copied when the frame
 * is interned.  function is required; the rest may be NULL / 0 (unknown). */
typedef struct export_frame {
    const char *function;       /* procedure name */
    const char *file;           /* source file (callgrind "???" when NULL) */
    const char *image;          /* the executable image (object) */
    uint64_t address;           /* instruction address in the image; 0: none */
    uint64_t entry;             /* the function's first address; 0: unknown */
    uint64_t line;              /* source line; 0: unknown */
} export_frame_t;

typedef struct export_profile export_profile_t;

/* A profile of n_events events (1..EXPORT_MAX_EVENTS), named events[k]
 * (e.g. "cycles"), counted in units[k] (e.g. "samples"; NULL: "count").
 * creator names the program in the files' headers. NULL for bad counts. */
export_profile_t *export_new(const char *creator, size_t n_events, const char *const *events,
                             const char *const *units);
void export_free(export_profile_t *p);

/* A comment line written into the file (callgrind "desc:", pprof comment,
 * nothing in folded stacks, which has no place for one). */
void export_add_comment(export_profile_t *p, const char *text);

/* The id of a frame (equal frames, equal ids). */
uint32_t export_frame(export_profile_t *p, const export_frame_t *f);

/* Add values[n_events] to the stack frames[0..depth-1] (root first).
 * depth 0 adds nothing. */
void export_add_stack(export_profile_t *p, const uint32_t *frames, size_t depth,
                      const uint64_t *values);
/* The last frame's function was called `calls` times from the context
 * frames[0..depth-2] (callgrind's calls=; the other formats have no call
 * counts).  callgrind writes one call per (caller, call-site position,
 * callee), adding the counts of the stacks that share it; one with samples
 * but no recorded count is written as calls=1, the least a sampled stack
 * proves, and the file says so. */
void export_add_calls(export_profile_t *p, const uint32_t *frames, size_t depth, uint64_t calls);

/* Totals of an event over every stack (what the files' costs add up to). */
uint64_t export_total(const export_profile_t *p, size_t event);

/* "callgrind", "pprof", "folded" -> the format; false when none. */
bool export_format_by_name(const char *name, export_format_t *out);

/* Write the profile to path in a format.  event (< n_events) is the value
 * of folded stacks and pprof's default sample type (callgrind and pprof
 * carry every event).  false + err (the file and what failed) when it
 * cannot be written or there is no such event. */
bool export_write(const export_profile_t *p, export_format_t fmt, size_t event,
                  const char *path, char *err, size_t errlen);

#endif /* HPS_EXPORT_H */
