/*
 * stats.h - named statistics with descriptions and units, written as
 * gem5-style stats.txt (`name  value  # description (unit)`) or as JSON.
 *
 * Subsystems add entries at the end of a run; the writer never sees the hot
 * path.  Names are dotted hierarchies (cpu.branches.taken); a vector entry
 * uses `::` (cpu.opclass::load), as gem5 does.
 */
#ifndef HPS_STATS_H
#define HPS_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

typedef struct stat_entry {
    char *name;
    char *desc;
    const char *unit;       /* "Count", "Second", "Ratio", ... */
    bool is_int;
    uint64_t ivalue;
    double fvalue;
} stat_entry_t;

typedef struct stats {
    stat_entry_t *entries;
    size_t count, cap;
} stats_t;

void stats_add_u64(stats_t *s, const char *name, uint64_t value, const char *unit,
                   const char *desc);
void stats_add_f64(stats_t *s, const char *name, double value, const char *unit,
                   const char *desc);
const stat_entry_t *stats_find(const stats_t *s, const char *name);
void stats_write_text(const stats_t *s, FILE *out);
void stats_write_json(const stats_t *s, FILE *out);
/* The entries only, `  "name": {...},` lines without the braces around
 * them (for a writer that adds members of its own first). */
void stats_write_json_members(const stats_t *s, FILE *out);
/* str as a JSON string literal (quotes, backslashes and control characters
 * escaped), for writers that add members of their own. */
void stats_json_string(FILE *out, const char *str);
void stats_free(stats_t *s);

#endif /* HPS_STATS_H */
