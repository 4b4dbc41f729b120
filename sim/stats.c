/*
 * stats.c - collection and output of named statistics (see stats.h).
 */
#include "stats.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static stat_entry_t *add_entry(stats_t *s, const char *name, const char *unit, const char *desc)
{
    if (s->count == s->cap) {
        s->cap = s->cap ? 2 * s->cap : 64;
        s->entries = xrealloc(s->entries, s->cap * sizeof *s->entries);
    }
    stat_entry_t *e = &s->entries[s->count++];
    memset(e, 0, sizeof *e);
    e->name = xstrdup(name);
    e->desc = xstrdup(desc);
    e->unit = unit;
    return e;
}

void stats_add_u64(stats_t *s, const char *name, uint64_t value, const char *unit,
                   const char *desc)
{
    stat_entry_t *e = add_entry(s, name, unit, desc);
    e->is_int = true;
    e->ivalue = value;
}

void stats_add_f64(stats_t *s, const char *name, double value, const char *unit,
                   const char *desc)
{
    add_entry(s, name, unit, desc)->fvalue = value;
}

const stat_entry_t *stats_find(const stats_t *s, const char *name)
{
    for (size_t k = 0; k < s->count; k++)
        if (!strcmp(s->entries[k].name, name)) return &s->entries[k];
    return NULL;
}

static void format_value(const stat_entry_t *e, char *buf, size_t len)
{
    if (e->is_int) snprintf(buf, len, "%llu", (unsigned long long)e->ivalue);
    else if (isfinite(e->fvalue)) snprintf(buf, len, "%.6f", e->fvalue);
    else snprintf(buf, len, "nan");
}

void stats_write_text(const stats_t *s, FILE *out)
{
    fprintf(out, "\n---------- Begin Simulation Statistics ----------\n");
    for (size_t k = 0; k < s->count; k++) {
        const stat_entry_t *e = &s->entries[k];
        char value[64];
        format_value(e, value, sizeof value);
        fprintf(out, "%-40s %12s # %s (%s)\n", e->name, value, e->desc, e->unit);
    }
    fprintf(out, "\n---------- End Simulation Statistics   ----------\n");
}

void stats_json_string(FILE *out, const char *str)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)str; *p; p++) {
        if (*p == '"' || *p == '\\') fprintf(out, "\\%c", *p);
        else if (*p < 0x20) fprintf(out, "\\u%04x", *p);
        else fputc(*p, out);
    }
    fputc('"', out);
}

void stats_write_json(const stats_t *s, FILE *out)
{
    fprintf(out, "{\n");
    stats_write_json_members(s, out);
    fprintf(out, "}\n");
}

void stats_write_json_members(const stats_t *s, FILE *out)
{
    for (size_t k = 0; k < s->count; k++) {
        const stat_entry_t *e = &s->entries[k];
        char value[64];
        format_value(e, value, sizeof value);
        fprintf(out, "  ");
        stats_json_string(out, e->name);
        fprintf(out, ": {\"value\": %s, \"unit\": ", strcmp(value, "nan") ? value : "null");
        stats_json_string(out, e->unit);
        fprintf(out, ", \"desc\": ");
        stats_json_string(out, e->desc);
        fprintf(out, "}%s\n", k + 1 < s->count ? "," : "");
    }
}

void stats_free(stats_t *s)
{
    for (size_t k = 0; k < s->count; k++) {
        free(s->entries[k].name);
        free(s->entries[k].desc);
    }
    free(s->entries);
    memset(s, 0, sizeof *s);
}
