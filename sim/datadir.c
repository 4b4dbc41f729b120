/*
 * datadir.c - the search roots for presets and productions (datadir.h):
 * computed once from /proc/self/exe, so a binary finds the data beside it
 * in a build tree or an installed tree, then in the current directory.
 */
#include "datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char root_store[DATADIR_MAX_ROOTS][PATH_MAX];
static const char *roots[DATADIR_MAX_ROOTS];
static size_t nroots;
static bool computed;

static bool is_dir(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* A root counts when it holds the presets (configs/); a build directory
 * (build/productions holds the compiled runtime, no productions) does not. */
static bool holds_data(const char *dir)
{
    char sub[PATH_MAX + 16];
    snprintf(sub, sizeof sub, "%s/configs", dir);
    return is_dir(sub);
}

/* Add dir (resolved) unless it is already a root or holds no data. */
static void add_root(const char *dir)
{
    char real[PATH_MAX];
    if (nroots == DATADIR_MAX_ROOTS - 1 || !realpath(dir, real) || !holds_data(real)) return;
    for (size_t k = 0; k < nroots; k++)
        if (!strcmp(roots[k], real)) return;
    snprintf(root_store[nroots], PATH_MAX, "%s", real);
    roots[nroots] = root_store[nroots];
    nroots++;
}

static void compute_roots(void)
{
    char exe[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n > 0) {
        exe[n] = '\0';
        char *slash = strrchr(exe, '/');
        if (slash) {
            *slash = '\0';
            char dir[PATH_MAX + 32];
            add_root(exe);
            snprintf(dir, sizeof dir, "%s/..", exe);
            add_root(dir);
            snprintf(dir, sizeof dir, "%s/../share/hps-sim", exe);
            add_root(dir);
        }
    }
    roots[nroots++] = ".";
    computed = true;
}

size_t datadir_roots(const char *out[DATADIR_MAX_ROOTS])
{
    if (!computed) compute_roots();
    for (size_t k = 0; k < nroots; k++) out[k] = roots[k];
    return nroots;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

static bool readable_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode) && access(path, R_OK) == 0;
}

bool datadir_find(const char *subdir, const char *name, const char *ext,
                  char *path, size_t len)
{
    const char *r[DATADIR_MAX_ROOTS];
    size_t n = datadir_roots(r);
    bool add_ext = ext && !ends_with(name, ext);
    for (size_t k = 0; k < n; k++) {
        const char *sep = *subdir ? "/" : "";
        int w = snprintf(path, len, "%s/%s%s%s%s", r[k], subdir, sep, name, add_ext ? ext : "");
        if (w > 0 && (size_t)w < len && readable_file(path)) return true;
        if (!add_ext) continue;
        w = snprintf(path, len, "%s/%s%s%s", r[k], subdir, sep, name);
        if (w > 0 && (size_t)w < len && readable_file(path)) return true;
    }
    return false;
}

void datadir_describe(const char *subdir, char *buf, size_t len)
{
    const char *r[DATADIR_MAX_ROOTS];
    size_t n = datadir_roots(r), used = 0;
    buf[0] = '\0';
    for (size_t k = 0; k < n && used < len; k++)
        used += (size_t)snprintf(buf + used, len - used, "%s%s/%s", k ? ", " : "", r[k], subdir);
}
