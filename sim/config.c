/*
 * config.c - the configuration system of the timing models: the parameter
 * table built from config_params.def, parsing and printing of values (sizes
 * with units, counts, booleans, enums), presets and files read with inih,
 * --set overrides, and the cross-parameter checks.
 *
 * Every error is one line, "where: key: what was expected", where `where`
 * is file:line or the --set argument.  inih's handler is not told the line
 * number, so lines reach inih through our own reader, which counts them (and
 * also strips '#' comments and leading blanks, so that an indented key is
 * never taken for a continuation line).
 */
#include "config.h"
#include "datadir.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const cfg_param_t cfg_params[] = {
#define CFG(field, key, type, def, choices, desc) \
    { key, type, def, choices, desc, offsetof(config_t, field) },
#include "config_params.def"
#undef CFG
};
const size_t cfg_param_count = sizeof cfg_params / sizeof cfg_params[0];

enum {
    PARAM_COUNT = 0
#define CFG(field, key, type, def, choices, desc) + 1
#include "config_params.def"
#undef CFG
};

#define MAX_FILE_BYTES (1u << 20)   /* a config file is a few KiB */
#define MAX_KEY 128

/* ---- small helpers ----------------------------------------------------------- */

static uint64_t *field_of(config_t *cfg, const cfg_param_t *p)
{
    return (uint64_t *)((char *)cfg + p->offset);
}

static uint64_t value_of(const config_t *cfg, const cfg_param_t *p)
{
    return *(const uint64_t *)((const char *)cfg + p->offset);
}

/* Format an error into err, control characters (from junk input) shown as
 * '?'; returns false so callers can `return fail(...)`. */
__attribute__((format(printf, 3, 4)))
static bool fail(char *err, size_t errlen, const char *fmt, ...)
{
    if (err && errlen) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err, errlen, fmt, ap);
        va_end(ap);
        for (char *c = err; *c; c++)
            if ((unsigned char)*c < 0x20 || *c == 0x7f) *c = '?';
    }
    return false;
}

static bool is_pow2(uint64_t v)
{
    return v && !(v & (v - 1));
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Copy [s, s+len) without surrounding blanks into buf (truncating). */
static void copy_trimmed(char *buf, size_t buflen, const char *s, size_t len)
{
    while (len && isspace((unsigned char)*s)) s++, len--;
    while (len && isspace((unsigned char)s[len - 1])) len--;
    if (len >= buflen) len = buflen - 1;
    memcpy(buf, s, len);
    buf[len] = '\0';
}

const cfg_param_t *config_find(const char *key)
{
    for (size_t i = 0; i < cfg_param_count; i++)
        if (strcmp(cfg_params[i].key, key) == 0) return &cfg_params[i];
    return NULL;
}

/* A parameter the code itself names: missing means a typo in this file. */
static uint64_t get(const config_t *cfg, const char *prefix, const char *name)
{
    char key[MAX_KEY];
    snprintf(key, sizeof key, "%s.%s", prefix, name);
    const cfg_param_t *p = config_find(key);
    if (!p) {
        fprintf(stderr, "config: internal error: no parameter '%s'\n", key);
        abort();
    }
    return value_of(cfg, p);
}

/* ---- enums ---------------------------------------------------------------------- */

/* The choices of each enum parameter, split once into NUL-separated names. */
static const char *enum_names(const cfg_param_t *p)
{
    static char *split[PARAM_COUNT];
    size_t i = (size_t)(p - cfg_params);
    if (!split[i]) {
        char *s = strdup(p->choices);
        if (!s) abort();
        for (char *c = s; *c; c++)
            if (*c == '|') *c = '\0';
        split[i] = s;
    }
    return split[i];
}

static size_t enum_count(const cfg_param_t *p)
{
    size_t n = 1;
    for (const char *c = p->choices; *c; c++) n += *c == '|';
    return n;
}

static const char *enum_name(const cfg_param_t *p, uint64_t value)
{
    if (value >= enum_count(p)) return NULL;
    const char *s = enum_names(p);
    for (uint64_t i = 0; i < value; i++) s += strlen(s) + 1;
    return s;
}

const char *config_enum_name(const char *key, uint64_t value)
{
    const cfg_param_t *p = config_find(key);
    return p && p->type == CFG_ENUM ? enum_name(p, value) : NULL;
}

/* "lru, random, round_robin" for messages. */
static void enum_list(const cfg_param_t *p, char *buf, size_t len)
{
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < enum_count(p) && used < len; i++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", enum_name(p, i));
}

/* ---- parsing values -------------------------------------------------------------- */

typedef enum { NUM_OK, NUM_BAD, NUM_BIG } num_status_t;

static int digit_value(int c, unsigned base)
{
    if (isdigit(c)) return c - '0';
    if (base == 16 && isxdigit(c)) return tolower(c) - 'a' + 10;
    return -1;
}

/* A decimal or 0x-hex number at *s; *s moves past it. */
static num_status_t parse_digits(const char **s, uint64_t *out)
{
    const char *p = *s;
    unsigned base = 10;
    if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X') && isxdigit((unsigned char)p[2]))
        base = 16, p += 2;
    if (digit_value((unsigned char)*p, base) < 0) return NUM_BAD;
    uint64_t v = 0;
    bool big = false;
    for (int d; (d = digit_value((unsigned char)*p, base)) >= 0; p++) {
        if (v > (UINT64_MAX - (unsigned)d) / base) big = true;
        else v = v * base + (unsigned)d;
    }
    *s = p;
    *out = v;
    return big ? NUM_BIG : NUM_OK;
}

static num_status_t scale(uint64_t *v, uint64_t factor)
{
    if (*v > UINT64_MAX / factor) return NUM_BIG;
    *v *= factor;
    return NUM_OK;
}

/* Counts: 64, 0x40, 2k (k/K = 1000, M = 10^6, G = 10^9). */
static num_status_t parse_uint(const char *s, uint64_t *out)
{
    num_status_t st = parse_digits(&s, out);
    if (st != NUM_OK) return st;
    uint64_t factor = 1;
    if (*s == 'k' || *s == 'K') factor = 1000, s++;
    else if (*s == 'M') factor = 1000000, s++;
    else if (*s == 'G') factor = 1000000000, s++;
    if (*s) return NUM_BAD;
    return scale(out, factor);
}

/* Sizes in bytes: 64, 64B, 32KiB, 1MiB, 1GiB; K/KB/KiB (any case) are all
 * binary, as hardware sizes always are. */
static num_status_t parse_size(const char *s, uint64_t *out)
{
    static const struct { const char *unit; unsigned shift; } units[] = {
        { "", 0 }, { "b", 0 },
        { "k", 10 }, { "kb", 10 }, { "kib", 10 },
        { "m", 20 }, { "mb", 20 }, { "mib", 20 },
        { "g", 30 }, { "gb", 30 }, { "gib", 30 },
    };
    num_status_t st = parse_digits(&s, out);
    if (st != NUM_OK) return st;
    while (*s == ' ') s++;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcasecmp(s, units[i].unit) == 0)
            return scale(out, (uint64_t)1 << units[i].shift);
    return NUM_BAD;
}

static bool parse_bool(const char *s, uint64_t *out)
{
    static const char *const yes[] = { "true", "yes", "on", "1" };
    static const char *const no[] = { "false", "no", "off", "0" };
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(s, yes[i]) == 0) return *out = 1, true;
        if (strcasecmp(s, no[i]) == 0) return *out = 0, true;
    }
    return false;
}

static bool parse_enum(const cfg_param_t *p, const char *s, uint64_t *out)
{
    for (size_t i = 0; i < enum_count(p); i++)
        if (strcasecmp(s, enum_name(p, i)) == 0) return *out = i, true;
    return false;
}

static num_status_t parse_number(const cfg_param_t *p, const char *s, uint64_t *out)
{
    return p->type == CFG_SIZE ? parse_size(s, out) : parse_uint(s, out);
}

/* ---- printing values ----------------------------------------------------------- */

static void format_size(uint64_t v, char *buf, size_t len)
{
    static const char *const units[] = { "GiB", "MiB", "KiB" };
    for (int i = 0; i < 3; i++) {
        unsigned shift = 30 - 10 * (unsigned)i;
        if (v && v % ((uint64_t)1 << shift) == 0) {
            snprintf(buf, len, "%llu%s", (unsigned long long)(v >> shift), units[i]);
            return;
        }
    }
    snprintf(buf, len, "%lluB", (unsigned long long)v);
}

static void format_value(const cfg_param_t *p, uint64_t v, char *buf, size_t len)
{
    switch (p->type) {
    case CFG_SIZE: format_size(v, buf, len); break;
    case CFG_BOOL: snprintf(buf, len, "%s", v ? "true" : "false"); break;
    case CFG_ENUM: {
        const char *name = enum_name(p, v);
        snprintf(buf, len, "%s", name ? name : "?");
        break;
    }
    default: snprintf(buf, len, "%llu", (unsigned long long)v); break;
    }
}

/* ---- limits of numeric parameters ------------------------------------------------- */

typedef struct limits {
    bool pow2, has_min, has_max;
    uint64_t min, max;
} limits_t;

static _Noreturn void bad_table(const cfg_param_t *p, const char *what)
{
    fprintf(stderr, "config: internal error: parameter %s: bad %s in config_params.def\n",
            p->key, what);
    abort();
}

static void parse_bound(const cfg_param_t *p, const char *s, bool *has, uint64_t *v)
{
    *has = *s != '\0';
    if (*has && parse_number(p, s, v) != NUM_OK) bad_table(p, "limit");
}

/* "pow2", "MIN..MAX", "MIN..", "..MAX" separated by spaces; NULL = none. */
static limits_t limits_of(const cfg_param_t *p)
{
    limits_t l = { 0 };
    if (!p->choices || p->type == CFG_ENUM || p->type == CFG_BOOL) return l;
    char buf[128];
    snprintf(buf, sizeof buf, "%s", p->choices);
    char *save = NULL;
    for (char *tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
        char *dots = strstr(tok, "..");
        if (strcmp(tok, "pow2") == 0) {
            l.pow2 = true;
        } else if (dots) {
            *dots = '\0';
            parse_bound(p, tok, &l.has_min, &l.min);
            parse_bound(p, dots + 2, &l.has_max, &l.max);
        } else {
            bad_table(p, "limit");
        }
    }
    return l;
}

/* Power of two and range checks; `text` is what the user wrote. */
static bool check_limits(const cfg_param_t *p, uint64_t v, const char *text,
                         char *msg, size_t len)
{
    limits_t l = limits_of(p);
    const char *noun = p->type == CFG_SIZE ? "a size" : "a number";
    if (l.pow2 && !is_pow2(v)) {
        bool decimal_suffix = p->type == CFG_UINT && strpbrk(text, "kKMG");
        return fail(msg, len, "expected a power of two, got '%.60s'%s", text,
                    decimal_suffix ? " (k, M, G are decimal: 2k = 2000)" : "");
    }
    if ((l.has_min && v < l.min) || (l.has_max && v > l.max)) {
        char lo[32], hi[32];
        format_value(p, l.min, lo, sizeof lo);
        format_value(p, l.max, hi, sizeof hi);
        if (l.has_min && l.has_max)
            return fail(msg, len, "expected %s from %s to %s, got '%.60s'", noun, lo, hi, text);
        if (l.has_min)
            return fail(msg, len, "expected %s of at least %s, got '%.60s'", noun, lo, text);
        return fail(msg, len, "expected %s of at most %s, got '%.60s'", noun, hi, text);
    }
    return true;
}

/* Parse `text` as a value of p into *out; on error msg says what was expected. */
static bool parse_value(const cfg_param_t *p, const char *text, uint64_t *out,
                        char *msg, size_t len)
{
    num_status_t st;
    switch (p->type) {
    case CFG_BOOL:
        if (parse_bool(text, out)) return true;
        return fail(msg, len, "expected true/false, yes/no, on/off or 1/0, got '%.60s'", text);
    case CFG_ENUM: {
        if (parse_enum(p, text, out)) return true;
        char names[160];
        enum_list(p, names, sizeof names);
        return fail(msg, len, "expected one of %s, got '%.60s'", names, text);
    }
    case CFG_SIZE:
        st = parse_size(text, out);
        if (st != NUM_OK)
            return fail(msg, len, "expected a size like 32KiB, got '%.60s'%s", text,
                        st == NUM_BIG ? " (too large)" : "");
        break;
    default:
        st = parse_uint(text, out);
        if (st != NUM_OK)
            return fail(msg, len, "expected a number like 64, 0x40 or 2k, got '%.60s'%s", text,
                        st == NUM_BIG ? " (too large)" : "");
        break;
    }
    return check_limits(p, *out, text, msg, len);
}

/* ---- assigning a key ------------------------------------------------------------- */

/* Edit distance, for "did you mean". */
static size_t distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n >= MAX_KEY || m >= MAX_KEY) return SIZE_MAX;
    size_t row[MAX_KEY + 1];
    for (size_t j = 0; j <= m; j++) row[j] = j;
    for (size_t i = 1; i <= n; i++) {
        size_t diag = row[0];
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            size_t up = row[j];
            size_t best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            row[j] = best;
            diag = up;
        }
    }
    return row[m];
}

static const char *nearest_key(const char *key)
{
    const char *best = NULL;
    size_t best_d = SIZE_MAX;
    for (size_t i = 0; i < cfg_param_count; i++) {
        size_t d = distance(key, cfg_params[i].key);
        if (d < best_d) best_d = d, best = cfg_params[i].key;
    }
    size_t len = strlen(key);
    return best_d <= 2 || best_d * 3 <= len ? best : NULL;
}

/* Set key to the value written as text; messages start with `where`. */
static bool assign(config_t *cfg, const char *where, const char *key, const char *text,
                   char *err, size_t errlen)
{
    const cfg_param_t *p = config_find(key);
    if (!p) {
        const char *near = nearest_key(key);
        if (near)
            return fail(err, errlen, "%s: %s: unknown parameter (did you mean %s?)",
                        where, key, near);
        return fail(err, errlen, "%s: %s: unknown parameter (hps-sim --print-config lists them)",
                    where, key);
    }
    char msg[256];
    uint64_t v;
    if (!parse_value(p, text, &v, msg, sizeof msg))
        return fail(err, errlen, "%s: %s: %s", where, key, msg);
    *field_of(cfg, p) = v;
    return true;
}

void config_defaults(config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    for (size_t i = 0; i < cfg_param_count; i++) {
        const cfg_param_t *p = &cfg_params[i];
        char msg[256];
        if (!parse_value(p, p->def, field_of(cfg, p), msg, sizeof msg)) {
            fprintf(stderr, "config: internal error: default of %s: %s\n", p->key, msg);
            abort();
        }
    }
    snprintf(cfg->source, sizeof cfg->source, "defaults");
}

bool config_set(config_t *cfg, const char *assignment, char *err, size_t errlen)
{
    const char *eq = strchr(assignment, '=');
    char key[MAX_KEY], value[256], where[160];
    if (eq) copy_trimmed(key, sizeof key, assignment, (size_t)(eq - assignment));
    if (!eq || !*key)
        return fail(err, errlen, "--set '%.100s': expected key=value, like l1d.size=32KiB",
                    assignment);
    copy_trimmed(value, sizeof value, eq + 1, strlen(eq + 1));
    snprintf(where, sizeof where, "--set '%.100s'", assignment);
    if (!assign(cfg, where, key, value, err, errlen)) return false;
    if (!ends_with(cfg->source, " + --set")) {          /* provenance for reports */
        size_t n = strlen(cfg->source);
        snprintf(cfg->source + n, sizeof cfg->source - n, " + --set");
    }
    return true;
}

/* ---- files ------------------------------------------------------------------------- */

typedef struct parse_ctx {
    config_t cfg;           /* values being loaded, committed on success */
    const char *where;      /* file name for messages */
    const char *text;       /* the whole file */
    size_t pos;             /* of the next line in text */
    int line;               /* number of the line last handed to inih */
    int err_line;           /* first error found by reader or handler, 0 = none */
    char err[512];
} parse_ctx_t;

/* Length of a line's content: up to a '#' or ';' comment that starts the
 * line or follows a blank, without trailing blanks. */
static size_t content_length(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if ((s[i] == '#' || s[i] == ';') && (i == 0 || isspace((unsigned char)s[i - 1]))) {
            len = i;
            break;
        }
    }
    while (len && isspace((unsigned char)s[len - 1])) len--;
    return len;
}

/* Find line `n` (1-based) of text; its content (without comment) in buf. */
static void line_content(const char *text, int n, char *buf, size_t buflen)
{
    for (int i = 1; i < n && text; i++) {
        text = strchr(text, '\n');
        if (text) text++;
    }
    if (!text) text = "";
    size_t len = strcspn(text, "\n");
    while (len && isspace((unsigned char)*text)) text++, len--;
    copy_trimmed(buf, buflen, text, content_length(text, len));
}

__attribute__((format(printf, 2, 3)))
static void note_error(parse_ctx_t *c, const char *fmt, ...)
{
    if (c->err_line) return;           /* the first error is the one reported */
    c->err_line = c->line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err, sizeof c->err, fmt, ap);
    va_end(ap);
}

/* inih's fgets: one line of c->text per call, leading blanks and comments
 * removed. */
static char *read_line(char *str, int num, void *stream)
{
    parse_ctx_t *c = stream;
    const char *start = c->text + c->pos;
    if (*start == '\0') return NULL;
    size_t len = strcspn(start, "\n");
    c->pos += len + (start[len] == '\n');
    c->line++;
    while (len && isspace((unsigned char)*start)) start++, len--;
    len = content_length(start, len);
    if (len + 2 > (size_t)num) {       /* room for "\n\0" */
        note_error(c, "%s:%d: line longer than %d characters", c->where, c->line, num - 2);
        len = 0;
    }
    memcpy(str, start, len);
    str[len] = '\n';
    str[len + 1] = '\0';
    return str;
}

static int on_value(void *user, const char *section, const char *name, const char *value)
{
    parse_ctx_t *c = user;
    char sect[MAX_KEY], key[MAX_KEY], where[PATH_MAX + 32], msg[sizeof c->err];
    copy_trimmed(sect, sizeof sect, section, strlen(section));     /* "[ l1d ]" */
    int n = *sect ? snprintf(key, sizeof key, "%s.%s", sect, name)
                  : snprintf(key, sizeof key, "%s", name);
    if (n < 0 || (size_t)n >= sizeof key) {
        note_error(c, "%s:%d: %.60s...: unknown parameter", c->where, c->line, key);
        return 0;
    }
    snprintf(where, sizeof where, "%s:%d", c->where, c->line);
    if (!assign(&c->cfg, where, key, value, msg, sizeof msg)) {
        note_error(c, "%s", msg);
        return 0;
    }
    return 1;
}

/* Apply the `key = value` lines of text (named `where`) to *cfg. */
static bool parse_text(config_t *cfg, const char *where, const char *text,
                       char *err, size_t errlen)
{
    parse_ctx_t c = { .cfg = *cfg, .where = where, .text = text };
    int rc = ini_parse_stream(read_line, &c, on_value, &c);
    if (rc < 0) return fail(err, errlen, "%s: out of memory", where);
    if (rc > 0 && (c.err_line == 0 || rc < c.err_line)) {
        char got[80];
        line_content(text, rc, got, sizeof got);
        return fail(err, errlen, "%s:%d: expected 'key = value' or '[section]', got '%s'",
                    where, rc, got);
    }
    if (c.err_line) return fail(err, errlen, "%s", c.err);
    *cfg = c.cfg;
    return true;
}

/* Read a whole (small) text file into a malloc'ed string. */
static bool read_text(const char *path, char **out, char *err, size_t errlen)
{
    FILE *f = fopen(path, "r");
    if (!f) return fail(err, errlen, "cannot open '%s': %s", path, strerror(errno));
    char *buf = malloc(MAX_FILE_BYTES + 1);
    if (!buf) {
        fclose(f);
        return fail(err, errlen, "%s: out of memory", path);
    }
    size_t n = fread(buf, 1, MAX_FILE_BYTES + 1, f);
    int read_errno = ferror(f) ? errno : 0;
    fclose(f);
    if (read_errno || n > MAX_FILE_BYTES) {
        free(buf);
        if (read_errno) return fail(err, errlen, "cannot read '%s': %s", path, strerror(read_errno));
        return fail(err, errlen, "%s: larger than %u bytes: not a config file", path, MAX_FILE_BYTES);
    }
    buf[n] = '\0';
    if (strlen(buf) != n) {
        free(buf);
        return fail(err, errlen, "%s: contains NUL bytes: not a config file", path);
    }
    *out = buf;
    return true;
}

/* ---- presets --------------------------------------------------------------------- */

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "ev5, inorder5": the presets found in the directories. */
static void list_presets(const char *const dirs[], size_t ndirs, char *buf, size_t len)
{
    char *names[64];
    size_t count = 0;
    for (size_t d = 0; d < ndirs; d++) {
        DIR *dir = opendir(dirs[d]);
        if (!dir) continue;
        for (struct dirent *e; (e = readdir(dir)) && count < 64;) {
            if (!ends_with(e->d_name, ".ini") || e->d_name[0] == '.') continue;
            char *name = strndup(e->d_name, strlen(e->d_name) - 4);
            bool dup = false;
            for (size_t i = 0; name && i < count && !dup; i++) dup = strcmp(names[i], name) == 0;
            if (name && !dup) names[count++] = name;
            else free(name);
        }
        closedir(dir);
    }
    qsort(names, count, sizeof names[0], compare_names);
    size_t used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        if (used < len)
            used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? ", " : "", names[i]);
        free(names[i]);
    }
    if (!count) snprintf(buf, len, "none");
}

/* The file a --config argument names: a path as given, else the preset
 * configs/NAME.ini of the first data root holding it (datadir.h). */
static bool resolve(const char *name, char *path, size_t len, char *err, size_t errlen)
{
    if (!*name) return fail(err, errlen, "--config: expected a preset name or a .ini file");
    if (strchr(name, '/') || ends_with(name, ".ini")) {
        snprintf(path, len, "%s", name);
        return true;
    }
    if (datadir_find("configs", name, ".ini", path, len)) return true;
    const char *roots[DATADIR_MAX_ROOTS];
    size_t nroots = datadir_roots(roots);
    char dirs[DATADIR_MAX_ROOTS][PATH_MAX + 16];
    const char *dir_names[DATADIR_MAX_ROOTS];
    for (size_t k = 0; k < nroots; k++) {
        snprintf(dirs[k], sizeof dirs[k], "%s/configs", roots[k]);
        dir_names[k] = dirs[k];
    }
    char presets[256], where[1024];
    list_presets(dir_names, nroots, presets, sizeof presets);
    datadir_describe("configs", where, sizeof where);
    return fail(err, errlen, "--config: no preset '%s' in %s (presets: %s)", name, where, presets);
}

bool config_load(config_t *cfg, const char *name_or_path, char *err, size_t errlen)
{
    char path[PATH_MAX], msg[512];
    char *text = NULL;
    if (!resolve(name_or_path, path, sizeof path, err, errlen)) return false;
    if (!read_text(path, &text, err, errlen)) return false;
    config_t loaded = *cfg;
    bool ok = parse_text(&loaded, path, text, err, errlen);
    free(text);
    if (!ok) return false;
    if (!config_validate(&loaded, msg, sizeof msg))
        return fail(err, errlen, "%s: %s", path, msg);
    snprintf(loaded.source, sizeof loaded.source, "%s", name_or_path);
    *cfg = loaded;
    return true;
}

/* ---- cross-parameter checks ------------------------------------------------------- */

static bool check_cache(const config_t *cfg, const char *c, char *err, size_t errlen)
{
    uint64_t size = get(cfg, c, "size"), line = get(cfg, c, "line"), assoc = get(cfg, c, "assoc");
    char s[32], l[32];
    format_size(size, s, sizeof s);
    format_size(line, l, sizeof l);
    if (line > size)
        return fail(err, errlen, "%s.line (%s) is larger than %s.size (%s)", c, l, c, s);
    if (line * assoc > size)
        return fail(err, errlen, "%s.assoc x %s.line (%llu x %s) is larger than %s.size (%s)",
                    c, c, (unsigned long long)assoc, l, c, s);
    if (size % (line * assoc))
        return fail(err, errlen, "%s.size (%s) is not a multiple of %s.assoc x %s.line (%llu x %s)",
                    c, s, c, c, (unsigned long long)assoc, l);
    uint64_t sets = size / (line * assoc);
    if (!is_pow2(sets))
        return fail(err, errlen, "%s.size / (%s.assoc x %s.line) = %s / (%llu x %s) = %llu sets;"
                    " the number of sets must be a power of two",
                    c, c, c, s, (unsigned long long)assoc, l, (unsigned long long)sets);
    return true;
}

/* TLBs and the BTB: `entries` in sets of `assoc` ways. */
static bool check_table(const config_t *cfg, const char *t, char *err, size_t errlen)
{
    unsigned long long entries = get(cfg, t, "entries"), assoc = get(cfg, t, "assoc");
    if (assoc > entries)
        return fail(err, errlen, "%s.assoc (%llu) is larger than %s.entries (%llu)",
                    t, assoc, t, entries);
    if (entries % assoc || !is_pow2(entries / assoc))
        return fail(err, errlen, "%s.entries / %s.assoc = %llu / %llu must be a power of two"
                    " number of sets (%s.assoc = %s.entries: fully associative)",
                    t, t, entries, assoc, t, t);
    return true;
}

static bool check_l2_lines(const config_t *cfg, char *err, size_t errlen)
{
    static const char *const l1s[] = { "l1i", "l1d" };
    if (!get(cfg, "l2", "enabled")) return true;
    uint64_t l2 = get(cfg, "l2", "line");
    for (int i = 0; i < 2; i++) {
        uint64_t l1 = get(cfg, l1s[i], "line");
        if (l2 < l1) {
            char a[32], b[32];
            format_size(l2, a, sizeof a);
            format_size(l1, b, sizeof b);
            return fail(err, errlen, "l2.line (%s) is smaller than %s.line (%s);"
                        " an L2 line must hold a whole L1 line", a, l1s[i], b);
        }
    }
    return true;
}

static bool check_ooo(const config_t *cfg, char *err, size_t errlen)
{
    unsigned long long width = get(cfg, "ooo", "fetch_width");
    unsigned long long buffer = get(cfg, "ooo", "fetch_buffer");
    if (buffer < width)
        return fail(err, errlen, "ooo.fetch_buffer (%llu) is smaller than ooo.fetch_width (%llu)",
                    buffer, width);
    return true;
}

static bool check_ev5(const config_t *cfg, char *err, size_t errlen)
{
    unsigned long long width = get(cfg, "ev5", "width"), iq = get(cfg, "ev5", "iq_entries");
    unsigned long long ports = get(cfg, "ev5", "mem_ports"), ints = get(cfg, "ev5", "int_pipes");
    if (iq < width)
        return fail(err, errlen, "ev5.iq_entries (%llu) is smaller than ev5.width (%llu)", iq, width);
    if (ports > ints)
        return fail(err, errlen, "ev5.mem_ports (%llu) is larger than ev5.int_pipes (%llu);"
                    " memory instructions issue on the integer pipes", ports, ints);
    return true;
}

bool config_validate(const config_t *cfg, char *err, size_t errlen)
{
    return check_cache(cfg, "l1i", err, errlen) && check_cache(cfg, "l1d", err, errlen) &&
           check_cache(cfg, "l2", err, errlen) && check_l2_lines(cfg, err, errlen) &&
           check_table(cfg, "itlb", err, errlen) && check_table(cfg, "dtlb", err, errlen) &&
           check_table(cfg, "btb", err, errlen) && check_ev5(cfg, err, errlen) &&
           check_ooo(cfg, err, errlen);
}

/* ---- printing ------------------------------------------------------------------------ */

/* The part of a key before its '.', for grouping ("" for "model"). */
static size_t group_length(const char *key)
{
    const char *dot = strchr(key, '.');
    return dot ? (size_t)(dot - key) : 0;
}

void config_each(const config_t *cfg, config_visit_fn *fn, void *ctx)
{
    for (size_t i = 0; i < cfg_param_count; i++) {
        const cfg_param_t *p = &cfg_params[i];
        char value[64];
        uint64_t v = value_of(cfg, p), dv = 0;
        parse_value(p, p->def, &dv, NULL, 0);
        format_value(p, v, value, sizeof value);
        fn(ctx, p->key, value, v == dv);
    }
}

void config_print(const config_t *cfg, FILE *out)
{
    fprintf(out, "# hps-sim configuration: %s\n", cfg->source);
    fprintf(out, "# (a config file: hps-sim --config FILE reads it back)\n");
    const char *prev = "";
    for (size_t i = 0; i < cfg_param_count; i++) {
        const cfg_param_t *p = &cfg_params[i];
        size_t g = group_length(p->key);
        if (g != group_length(prev) || strncmp(p->key, prev, g) != 0) fputc('\n', out);
        prev = p->key;
        char value[64], def[64];
        uint64_t dv = 0;
        format_value(p, value_of(cfg, p), value, sizeof value);
        parse_value(p, p->def, &dv, NULL, 0);
        format_value(p, dv, def, sizeof def);
        fprintf(out, "%-24s = %-10s  # %s", p->key, value, p->desc);
        if (p->type == CFG_ENUM) fprintf(out, " [%s]", p->choices);
        fprintf(out, " (default %s)\n", def);
    }
}
