/*
 * provenance.c - version, git hash, command line and configuration of a run
 * (provenance.h).  The git hash comes from hps_version.h, which the build
 * regenerates whenever `git describe` changes (Makefile).
 */
#include "provenance.h"

#include <stdbool.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "hps_version.h"
#include "stats.h"
#include "util.h"

static char *command_line;
static char *const *saved_argv;
static int saved_argc;
static char *const *guest_env;
static char guest_cwd[4096] = "?";

/* Does arg need quotes for a POSIX shell? */
static bool needs_quotes(const char *arg)
{
    if (!*arg) return true;
    for (const char *p = arg; *p; p++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                    "@%_+=:,./-", *p))
            return true;
    return false;
}

/* Append arg to buf (at *used, capacity *cap), single-quoted if needed. */
static void append_quoted(char **buf, size_t *used, size_t *cap, const char *arg)
{
    size_t need = *used + 4 * strlen(arg) + 4;
    if (need > *cap) {
        *cap = need * 2;
        *buf = xrealloc(*buf, *cap);
    }
    char *out = *buf + *used;
    if (*used) *out++ = ' ';
    if (!needs_quotes(arg)) {
        out = stpcpy(out, arg);
    } else {
        *out++ = '\'';
        for (const char *p = arg; *p; p++) {
            if (*p == '\'') out = stpcpy(out, "'\\''");
            else *out++ = *p;
        }
        *out++ = '\'';
    }
    *out = '\0';
    *used = (size_t)(out - *buf);
}

void provenance_init(int argc, char *const argv[])
{
    size_t used = 0, cap = 256;
    free(command_line);
    command_line = xcalloc(1, cap);
    for (int k = 0; k < argc; k++) append_quoted(&command_line, &used, &cap, argv[k]);
    saved_argc = argc;
    saved_argv = argv;
}

void provenance_set_guest(char *const *env, const char *cwd)
{
    guest_env = env;
    if (!realpath(cwd ? cwd : ".", guest_cwd)) snprintf(guest_cwd, sizeof guest_cwd, "%s", cwd);
}

/* Write the names of the guest's variables, separated by sep. */
static void write_env_names(FILE *out, const char *sep, bool quoted)
{
    for (char *const *v = guest_env; v && *v; v++) {
        const char *eq = strchr(*v, '=');
        int n = eq ? (int)(eq - *v) : (int)strlen(*v);
        fprintf(out, "%s%s%.*s%s", v == guest_env ? "" : sep, quoted ? "\"" : "", n, *v,
                quoted ? "\"" : "");
    }
}

const char *provenance_version(void)
{
    return HPS_VERSION " (git " HPS_GIT ")";
}

const char *provenance_command(void)
{
    return command_line ? command_line : "";
}

/* ---- text ------------------------------------------------------------------ */

typedef struct text_ctx {
    FILE *out;
    int full;
    bool any;
} text_ctx_t;

static void text_param(void *ctx, const char *key, const char *value, bool is_default)
{
    text_ctx_t *t = ctx;
    if (t->full) {
        fprintf(t->out, "# config %s = %s\n", key, value);
    } else if (!is_default) {
        fprintf(t->out, "%s%s=%s", t->any ? " " : "# config (not default): ", key, value);
        t->any = true;
    }
}

void provenance_write_text(FILE *out, const config_t *cfg, int full_config)
{
    fprintf(out, "# hps-sim %s\n", provenance_version());
    fprintf(out, "# command: %s\n", provenance_command());
    fputs("# guest environment: ", out);
    if (guest_env && *guest_env) write_env_names(out, " ", false);
    else fputs("(empty)", out);
    fprintf(out, "\n# guest working directory: %s\n", guest_cwd);
    text_ctx_t t = { .out = out, .full = full_config };
    config_each(cfg, text_param, &t);
    if (!full_config) fputs(t.any ? "\n" : "# config: all defaults\n", out);
}

/* ---- JSON ------------------------------------------------------------------ */

typedef struct json_ctx {
    FILE *out;
    const char *indent;
    bool any;
} json_ctx_t;

static void json_param(void *ctx, const char *key, const char *value, bool is_default)
{
    json_ctx_t *j = ctx;
    fprintf(j->out, "%s\n%s    ", j->any ? "," : "", j->indent);
    stats_json_string(j->out, key);
    fputs(": ", j->out);
    stats_json_string(j->out, value);
    j->any = true;
}

void provenance_write_json(FILE *out, const config_t *cfg, const char *indent)
{
    fprintf(out, "%s\"provenance\": {\n%s  \"version\": ", indent, indent);
    stats_json_string(out, HPS_VERSION);
    fprintf(out, ",\n%s  \"git\": ", indent);
    stats_json_string(out, HPS_GIT);
    fprintf(out, ",\n%s  \"command\": ", indent);
    stats_json_string(out, provenance_command());
    fprintf(out, ",\n%s  \"argv\": [", indent);
    for (int k = 0; k < saved_argc; k++) {
        if (k) fputs(", ", out);
        stats_json_string(out, saved_argv[k]);
    }
    fprintf(out, "],\n%s  \"guest_env_names\": [", indent);
    write_env_names(out, ", ", true);
    fprintf(out, "],\n%s  \"guest_cwd\": ", indent);
    stats_json_string(out, guest_cwd);
    fprintf(out, ",\n%s  \"config\": {", indent);
    json_ctx_t j = { .out = out, .indent = indent };
    config_each(cfg, json_param, &j);
    fprintf(out, "\n%s  }\n%s}", indent, indent);
}
