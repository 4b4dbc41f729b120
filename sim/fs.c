/*
 * fs.c - the guest's file system (fs.h): the mount table, path resolution
 * that never leaves it, and the file operations of the system calls with
 * the read-only, cross-mount and /proc rules.  The system-call handlers
 * (syscall.c) only convert arguments and call these.
 *
 * A lookup walks a location (mount, host directory fd, canonical guest
 * path) one component at a time; see fs.h for the rules and SECURITY.md
 * for the design.
 */
#include "fs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "procfs.h"
#include "sys.h"
#include "util.h"

#if defined(__has_include)
#if __has_include(<linux/openat2.h>)
#include <linux/openat2.h>
#define FS_HAVE_OPENAT2_H 1
#endif
#endif
#ifndef FS_HAVE_OPENAT2_H
struct open_how { uint64_t flags, mode, resolve; };
#define RESOLVE_NO_XDEV       0x01
#define RESOLVE_NO_MAGICLINKS 0x02
#define RESOLVE_NO_SYMLINKS   0x04
#define RESOLVE_IN_ROOT       0x10
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif

/* A place during a walk: a directory (fd -1 inside /proc). */
typedef struct loc {
    int mount;
    int fd;
    bool owned;
    char path[FS_PATH_MAX];
} loc_t;

typedef struct walk {
    struct sys *s;
    fs_t *fs;
    int ns;
    unsigned how;
    int links;
    loc_t cur;
    char rest[2 * FS_PATH_MAX];  /* what is left of the path               */
} walk_t;

enum { STEP_NEXT = 1 };          /* a step that did not end the walk        */

/* ---- small helpers ------------------------------------------------------------ */

static bool on_procfs(int fd)
{
    struct statfs sf;
    return fstatfs(fd, &sf) == 0 && sf.f_type == PROC_SUPER_MAGIC;
}

/* out = dir + "/" + name (out may be dir); -ENAMETOOLONG if too long. */
static int join(char *out, const char *dir, const char *name)
{
    char buf[FS_PATH_MAX];
    int n = snprintf(buf, sizeof buf, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", name);
    if (n < 0 || n >= FS_PATH_MAX) return -ENAMETOOLONG;
    memcpy(out, buf, (size_t)n + 1);
    return 0;
}

/* "/a/b" -> "/a", "/a" -> "/". */
static void lexical_parent(char *path)
{
    char *slash = strrchr(path, '/');
    if (!slash) return;
    if (slash == path) path[1] = '\0';
    else *slash = '\0';
}

/* A guest path as a mount point: absolute, no "..", "." and repeated
 * slashes dropped. */
static bool normalize(const char *in, char *out, size_t len)
{
    if (in[0] != '/') return false;
    size_t n = 0;
    out[n++] = '/';
    for (const char *p = in; *p;) {
        while (*p == '/') p++;
        size_t c = strcspn(p, "/");
        if (!c) break;
        if (c == 2 && !strncmp(p, "..", 2)) return false;
        if (!(c == 1 && *p == '.')) {
            if (n > 1) out[n++] = '/';
            if (n + c + 1 > len) return false;
            memcpy(out + n, p, c);
            n += c;
        }
        p += c;
    }
    out[n] = '\0';
    return true;
}

fs_place_t *fs_place_new(int mount, const char *path)
{
    size_t n = strlen(path) + 1;
    fs_place_t *p = malloc(sizeof *p + n);
    if (!p) return NULL;
    p->mount = mount;
    memcpy(p->path, path, n);
    return p;
}

/* ---- the mount table ---------------------------------------------------------- */

static bool mount_alive(const fs_mount_t *m) { return m->guest != NULL; }

static void mount_clear(fs_mount_t *m)
{
    if (m->fd >= 0) close(m->fd);
    free(m->guest);
    free(m->host);
    memset(m, 0, sizeof *m);
    m->fd = -1;
}

static int mount_add(fs_t *fs, int ns, int kind, const char *guest, const char *host, int fd,
                     bool ro, bool is_dir)
{
    if (fs->n == FS_MAX_MOUNTS) return -1;
    fs_mount_t *m = &fs->m[fs->n];
    m->guest = strdup(guest);
    m->host = host ? strdup(host) : NULL;
    if (!m->guest || (host && !m->host)) {
        free(m->guest);
        free(m->host);
        m->guest = m->host = NULL;
        return -1;
    }
    m->fd = fd;
    m->ro = ro;
    m->is_dir = is_dir;
    m->ns = (uint8_t)ns;
    m->kind = (uint8_t)kind;
    return fs->n++;
}

static bool in_ns(const fs_t *fs, int k, int ns)
{
    const fs_mount_t *m = &fs->m[k];
    return mount_alive(m) && k != fs->root[ns] && (m->ns == ns || m->kind == FS_MOUNT_PROC);
}

/* Is path strictly below dir? */
static bool below(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return !strcmp(dir, "/") ? path[1] != '\0'
                             : !strncmp(path, dir, n) && path[n] == '/';
}

/* The mount whose mount point is path in namespace ns (not its root): the
 * latest one there, unless a later mount above path hides it (as a mount
 * on /a hides what was mounted on /a/b before). */
static int mount_at(const fs_t *fs, int ns, const char *path)
{
    for (int k = fs->n - 1; k >= 0; k--) {
        if (!in_ns(fs, k, ns) || strcmp(fs->m[k].guest, path)) continue;
        for (int j = k + 1; j < fs->n; j++)
            if (in_ns(fs, j, ns) && below(path, fs->m[j].guest)) return -1;
        return k;
    }
    return -1;
}

static int ns_of(const fs_t *fs, int mount)
{
    return mount < 0 || mount == fs->proc ? FS_NS_MAIN : fs->m[mount].ns;
}

/* Does the kernel have openat2 (and may we use it)? */
static bool probe_openat2(void)
{
    const char *off = getenv("HPS_NO_OPENAT2");
    if (off && *off && strcmp(off, "0")) return false;
    struct open_how how = { .flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_IN_ROOT };
    int fd = (int)syscall(SYS_openat2, AT_FDCWD, "/", &how, sizeof how);
    if (fd < 0) return false;
    close(fd);
    return true;
}

fs_t *fs_new(void)
{
    fs_t *fs = calloc(1, sizeof *fs);
    if (!fs) return NULL;
    fs->root[FS_NS_MAIN] = fs->root[FS_NS_SYSROOT] = -1;
    fs->proc = mount_add(fs, FS_NS_MAIN, FS_MOUNT_PROC, "/proc", NULL, -1, true, true);
    char err[256];
    if (fs->proc < 0 || !fs_set_root(fs, FS_NS_MAIN, "/", false, err, sizeof err)) {
        fs_free(fs);
        return NULL;
    }
    fs->openat2 = probe_openat2();
    return fs;
}

void fs_free(fs_t *fs)
{
    if (!fs) return;
    for (int k = 0; k < fs->n; k++) mount_clear(&fs->m[k]);
    free(fs);
}

bool fs_set_root(fs_t *fs, int ns, const char *dir, bool ro, char *err, size_t errlen)
{
    int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0)
        return set_error(err, errlen, "%s: %s; expected a directory", dir, strerror(errno));
    char *real = realpath(dir, NULL);
    int r = fs->root[ns];
    if (r >= 0) mount_clear(&fs->m[r]);
    if (r >= 0) {
        fs->m[r].guest = strdup("/");
        fs->m[r].host = strdup(real ? real : dir);
        fs->m[r].fd = fd;
        fs->m[r].ro = ro;
        fs->m[r].is_dir = true;
        fs->m[r].ns = (uint8_t)ns;
        fs->m[r].kind = FS_MOUNT_HOST;
    } else {
        r = mount_add(fs, ns, FS_MOUNT_HOST, "/", real ? real : dir, fd, ro, true);
        if (r < 0) close(fd);
    }
    free(real);
    if (r < 0 || !fs->m[r].guest || !fs->m[r].host)
        return set_error(err, errlen, "%s: out of memory", dir);
    fs->root[ns] = r;
    return true;
}

void fs_clear_ns(fs_t *fs, int ns)
{
    for (int k = 0; k < fs->n; k++)
        if (mount_alive(&fs->m[k]) && k != fs->proc && fs->m[k].ns == ns) mount_clear(&fs->m[k]);
    fs->root[ns] = -1;
}

bool fs_bind(struct sys *s, const char *host, const char *guest, bool ro, char *err,
             size_t errlen)
{
    fs_t *fs = s->fs;
    char point[FS_PATH_MAX];
    if (!normalize(guest, point, sizeof point))
        return set_error(err, errlen, "--bind %s:%s: the guest path must be absolute, "
                         "without '..'", host, guest);
    if (!strcmp(point, "/")) return fs_set_root(fs, FS_NS_MAIN, host, ro, err, errlen);
    struct stat hs;
    if (stat(host, &hs) != 0)
        return set_error(err, errlen, "--bind %s:%s: %s; expected an existing host "
                         "directory or file", host, guest, strerror(errno));
    fs_target_t t;
    int64_t r = fs_lookup(s, FS_AT_FDCWD, point, FS_FOLLOW, &t);
    bool ok = r == 0 && t.kind == FS_T_HOST && t.exists;
    bool is_dir = S_ISDIR(hs.st_mode);
    if (ok && !strncmp(t.path, "/proc", 5) && (t.path[5] == '/' || !t.path[5])) ok = false;
    if (!ok) {
        fs_target_done(&t);
        return set_error(err, errlen, "--bind %s:%s: %s is not in the guest's file system "
                         "(a bind needs an existing %s there; /proc is emulated)", host, guest,
                         point, is_dir ? "directory" : "file");
    }
    if (S_ISDIR(t.st.st_mode) != is_dir) {
        fs_target_done(&t);
        return set_error(err, errlen, "--bind %s:%s: a %s cannot be shown over a %s", host,
                         guest, is_dir ? "directory" : "file",
                         is_dir ? "file" : "directory");
    }
    strcpy(point, t.path);
    fs_target_done(&t);
    int fd = open(host, O_PATH | O_CLOEXEC | (is_dir ? O_DIRECTORY : 0));
    char *real = realpath(host, NULL);
    int m = fd < 0 ? -1 : mount_add(fs, FS_NS_MAIN, FS_MOUNT_HOST, point, real ? real : host,
                                    fd, ro, is_dir);
    free(real);
    if (m < 0) {
        if (fd >= 0) close(fd);
        return set_error(err, errlen, "--bind %s:%s: %s", host, guest,
                         fd < 0 ? strerror(errno) : "too many binds");
    }
    return true;
}

/* ---- fixed files -------------------------------------------------------------- */

/* Host files whose contents would make a run depend on the host machine
 * are replaced by fixed contents matching the simulated machine. */
static const struct { const char *path, *text; } virtual_files[] = {
    { "/sys/devices/system/cpu/online",   "0\n" },
    { "/sys/devices/system/cpu/possible", "0\n" },
    { "/sys/devices/system/cpu/present",  "0\n" },
};

static int virtual_index(const char *path)
{
    for (size_t k = 0; k < sizeof virtual_files / sizeof virtual_files[0]; k++)
        if (!strcmp(path, virtual_files[k].path)) return (int)k;
    return -1;
}

/* ---- targets ------------------------------------------------------------------ */

static void target_init(fs_target_t *t)
{
    memset(t, 0, sizeof *t);
    t->dirfd = -1;
    t->mount = -1;
    t->virt = -1;
    t->gfd = -1;
    t->reopen_acc = -1;
}

void fs_target_done(fs_target_t *t)
{
    if (t->dir_owned && t->dirfd >= 0) close(t->dirfd);
    t->dir_owned = false;
    t->dirfd = -1;
}

static void host_fill(fs_target_t *t)
{
    int flags = AT_SYMLINK_NOFOLLOW | (t->name[0] ? 0 : AT_EMPTY_PATH);
    t->exists = fstatat(t->dirfd, t->name, &t->st, flags) == 0;
}

static void target_proc(walk_t *w, const char *path, fs_target_t *t)
{
    procfs_node_t n;
    t->kind = FS_T_PROC;
    t->mount = w->fs->proc;
    t->ro = true;
    t->exists = procfs_node(w->s, path, &n) != PROC_NONE;
    snprintf(t->path, sizeof t->path, "%s", path);
}

/* The walk's current directory itself. */
static void target_here(walk_t *w, fs_target_t *t)
{
    loc_t *c = &w->cur;
    if (c->mount == w->fs->proc) { target_proc(w, c->path, t); return; }
    t->kind = FS_T_HOST;
    t->mount = c->mount;
    t->ro = w->fs->m[c->mount].ro;
    t->mount_root = !strcmp(c->path, w->fs->m[c->mount].guest);
    t->dirfd = c->fd;
    t->dir_owned = c->owned;
    c->owned = false;
    strcpy(t->name, ".");
    strcpy(t->path, c->path);
    host_fill(t);
}

/* Entry name of the current directory; st is its lstat (NULL: missing). */
static void target_entry(walk_t *w, const char *name, const char *full, const struct stat *st,
                         fs_target_t *t)
{
    loc_t *c = &w->cur;
    t->kind = FS_T_HOST;
    t->mount = c->mount;
    t->ro = w->fs->m[c->mount].ro;
    t->dirfd = c->fd;
    t->dir_owned = c->owned;
    c->owned = false;
    snprintf(t->name, sizeof t->name, "%s", name);
    strcpy(t->path, full);
    t->exists = st != NULL;
    if (st) t->st = *st;
}

/* The program itself (/proc/self/exe): read-only, wherever it is. */
static int64_t target_exe(struct sys *s, fs_target_t *t)
{
    if (!s->exe_path) return -ENOENT;
    int fd = open(s->exe_path, O_PATH | O_CLOEXEC);
    if (fd < 0) return -errno;
    t->kind = FS_T_HOST;
    t->ro = true;
    t->dirfd = fd;
    t->dir_owned = true;
    procfs_exe_path(s, t->path, sizeof t->path);
    host_fill(t);
    return 0;
}

/* ---- the walk ----------------------------------------------------------------- */

static void loc_drop(loc_t *l)
{
    if (l->owned && l->fd >= 0) close(l->fd);
    l->owned = false;
    l->fd = -1;
}

static void loc_root(const fs_t *fs, int ns, loc_t *l)
{
    int r = fs->root[ns];
    l->mount = r;
    l->fd = fs->m[r].fd;
    l->owned = false;
    strcpy(l->path, "/");
}

static void loc_set(loc_t *l, int mount, int fd, bool owned, const char *path)
{
    loc_drop(l);
    l->mount = mount;
    l->fd = fd;
    l->owned = owned;
    snprintf(l->path, sizeof l->path, "%s", path);
}

static int64_t walk(walk_t *w, fs_target_t *t);

/* Put text (a symlink's target) in front of what is left; an absolute
 * target starts again at the namespace's root. */
static int64_t splice_link(walk_t *w, const char *text, bool slash)
{
    char buf[sizeof w->rest];
    bool sep = w->rest[0] || slash;
    int n = snprintf(buf, sizeof buf, "%s%s%s", text, sep ? "/" : "", w->rest);
    if (n < 0 || (size_t)n >= sizeof buf) return -ENAMETOOLONG;
    memcpy(w->rest, buf, (size_t)n + 1);
    if (text[0] == '/') {
        loc_drop(&w->cur);
        loc_root(w->fs, w->ns, &w->cur);
    }
    return STEP_NEXT;
}

static int64_t follow_link(walk_t *w, const char *name, bool slash)
{
    if (++w->links > FS_MAX_LINKS) return -ELOOP;
    char text[FS_PATH_MAX];
    ssize_t n = readlinkat(w->cur.fd, name, text, sizeof text - 1);
    if (n < 0) return -errno;
    if (n == 0) return -ENOENT;
    text[n] = '\0';
    return splice_link(w, text, slash);
}

static int64_t enter_dir(walk_t *w, const char *name, const char *full)
{
    int fd = openat(w->cur.fd, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -errno;
    if (on_procfs(fd)) {                  /* hps-sim's own /proc: never */
        close(fd);
        return -EACCES;
    }
    loc_set(&w->cur, w->cur.mount, fd, true, full);
    return STEP_NEXT;
}

/* A location from a finished lookup: it must be a directory. */
static int64_t target_to_loc(fs_target_t *t, int proc, loc_t *out)
{
    out->owned = false;
    out->fd = -1;
    if (t->kind == FS_T_PROC) {
        if (!t->exists) return -ENOENT;
        out->mount = proc;
        strcpy(out->path, t->path);
        return 0;
    }
    if (t->kind != FS_T_HOST) return -ENOTDIR;
    if (!t->exists) return -ENOENT;
    if (!S_ISDIR(t->st.st_mode)) return -ENOTDIR;
    if (!strcmp(t->name, ".") || !t->name[0]) {
        out->fd = t->dirfd;
        out->owned = t->dir_owned;
        t->dir_owned = false;
    } else {
        out->fd = openat(t->dirfd, t->name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (out->fd < 0) return -errno;
        out->owned = true;
        if (on_procfs(out->fd)) {
            loc_drop(out);
            return -EACCES;
        }
    }
    out->mount = t->mount;
    strcpy(out->path, t->path);
    return 0;
}

/* The directory at canonical guest path path of namespace ns. */
static int64_t walk_dir(struct sys *s, int ns, const char *path, loc_t *out)
{
    static int depth;                     /* ".." walks again, never deeper */
    if (depth > 2) return -ELOOP;
    walk_t *w = malloc(sizeof *w);
    fs_target_t *t = malloc(sizeof *t);
    int64_t r = -ENOMEM;
    if (w && t) {
        *w = (walk_t){ .s = s, .fs = s->fs, .ns = ns, .how = FS_FOLLOW };
        target_init(t);
        loc_root(s->fs, ns, &w->cur);
        snprintf(w->rest, sizeof w->rest, "%s", path);
        depth++;
        r = walk(w, t);
        depth--;
        loc_drop(&w->cur);
        if (!r) r = target_to_loc(t, s->fs->proc, out);
        fs_target_done(t);
    }
    free(w);
    free(t);
    return r;
}

/* "..": the lexical parent of the (canonical) current path, from the root. */
static int64_t go_up(walk_t *w)
{
    if (!strcmp(w->cur.path, "/")) return 0;   /* the root is its own parent */
    char parent[FS_PATH_MAX];
    strcpy(parent, w->cur.path);
    lexical_parent(parent);
    loc_t l;
    int64_t r = walk_dir(w->s, w->ns, parent, &l);
    if (r) return r;
    loc_drop(&w->cur);
    w->cur = l;
    return 0;
}

/* A mount point: continue at (or end with) the mount's root. */
static int64_t step_mount(walk_t *w, int m, bool last, fs_target_t *t)
{
    const fs_mount_t *mt = &w->fs->m[m];
    if (mt->kind == FS_MOUNT_PROC || mt->is_dir) {
        loc_set(&w->cur, m, mt->fd, false, mt->guest);
        if (!last) return STEP_NEXT;
        target_here(w, t);
        t->mount_root = true;
        return 0;
    }
    if (!last) return -ENOTDIR;
    t->kind = FS_T_HOST;
    t->mount = m;
    t->ro = mt->ro;
    t->mount_root = true;
    t->dirfd = mt->fd;
    strcpy(t->path, mt->guest);
    host_fill(t);
    return 0;
}

/* A guest fd through /proc/self/fd/N. */
static int64_t jump_fd(walk_t *w, int g, bool last, fs_target_t *t)
{
    struct sys *s = w->s;
    int hfd = s->host_fd[g];
    const fs_place_t *pl = s->fd_place[g];
    uint8_t fl = s->fd_flags[g];
    if (hfd < 0) return -ENOENT;
    if (fl & SYS_FD_PROC) {
        if (!last && !(fl & SYS_FD_PROCDIR)) return -ENOTDIR;
        loc_set(&w->cur, w->fs->proc, -1, false, pl ? pl->path : "/proc");
        if (last) target_proc(w, w->cur.path, t);
        return last ? 0 : STEP_NEXT;
    }
    if (!last) {
        struct stat st;
        if (fstat(hfd, &st) != 0 || !S_ISDIR(st.st_mode)) return -ENOTDIR;
        if (!pl || pl->mount < 0) return -EACCES;
        loc_set(&w->cur, pl->mount, hfd, false, pl->path);
        w->ns = ns_of(w->fs, pl->mount);
        return STEP_NEXT;
    }
    t->kind = FS_T_HOST;
    t->mount = pl ? pl->mount : -1;
    t->ro = (fl & SYS_FD_RO) != 0;
    t->dirfd = hfd;
    t->gfd = g;
    t->reopen_acc = pl ? -1 : fcntl(hfd, F_GETFL) & O_ACCMODE;
    if (pl) snprintf(t->path, sizeof t->path, "%s", pl->path);   /* else: fs_open names it */
    host_fill(t);
    return 0;
}

/* Following a magic link of /proc: to a guest object, not a path. */
static int64_t jump(walk_t *w, const procfs_node_t *n, bool last, fs_target_t *t)
{
    struct sys *s = w->s;
    switch (n->what) {
    case PROC_MAGIC_ROOT:
        w->ns = FS_NS_MAIN;
        loc_drop(&w->cur);
        loc_root(w->fs, FS_NS_MAIN, &w->cur);
        break;
    case PROC_MAGIC_CWD:
        loc_set(&w->cur, s->cwd->mount, s->cwd_fd, false, s->cwd->path);
        w->ns = ns_of(w->fs, s->cwd->mount);
        break;
    case PROC_MAGIC_EXE:
        return last ? target_exe(s, t) : -ENOTDIR;
    default:
        return jump_fd(w, n->gfd, last, t);
    }
    if (!last) return STEP_NEXT;
    target_here(w, t);
    return 0;
}

/* One component inside /proc. */
static int64_t step_proc(walk_t *w, const char *full, bool last, bool follow, bool slash,
                         fs_target_t *t)
{
    procfs_node_t n;
    switch (procfs_node(w->s, full, &n)) {
    case PROC_NONE:
        if (last) { target_proc(w, full, t); return 0; }
        return -ENOENT;
    case PROC_DIR:
        strcpy(w->cur.path, full);
        if (last) target_proc(w, full, t);
        return last ? 0 : STEP_NEXT;
    case PROC_FILE:
        if (last) target_proc(w, full, t);
        return last ? 0 : -ENOTDIR;
    case PROC_LINK:
        if (last && !follow) { target_proc(w, full, t); return 0; }
        if (++w->links > FS_MAX_LINKS) return -ELOOP;
        return splice_link(w, n.link, slash);
    case PROC_MAGIC:
        if (last && !follow) { target_proc(w, full, t); return 0; }
        if (++w->links > FS_MAX_LINKS) return -ELOOP;
        return jump(w, &n, last, t);
    }
    return -ENOENT;
}

/* One name: a mount point, /proc, a fixed file, or the host entry. */
static int64_t step(walk_t *w, const char *name, bool last, bool follow, bool slash,
                    fs_target_t *t)
{
    char full[FS_PATH_MAX];
    if (join(full, w->cur.path, name)) return -ENAMETOOLONG;
    if (w->cur.mount == w->fs->proc) return step_proc(w, full, last, follow, slash, t);
    int m = mount_at(w->fs, w->ns, full);
    if (m >= 0) return step_mount(w, m, last, t);
    int v = last ? virtual_index(full) : -1;
    if (v >= 0) {
        t->kind = FS_T_VIRTUAL;
        t->virt = v;
        t->ro = t->exists = true;
        strcpy(t->path, full);
        return 0;
    }
    struct stat st;
    if (fstatat(w->cur.fd, name, &st, AT_SYMLINK_NOFOLLOW) != 0) {
        int e = errno;
        if (last && e == ENOENT) { target_entry(w, name, full, NULL, t); return 0; }
        return -e;
    }
    if (S_ISLNK(st.st_mode) && follow) return follow_link(w, name, slash);
    if (last) { target_entry(w, name, full, &st, t); return 0; }
    if (!S_ISDIR(st.st_mode)) return -ENOTDIR;
    return enter_dir(w, name, full);
}

/* The directory part of a path with no symlink, mount point or /proc on
 * the way, in one openat2: the kernel refuses symlinks (ELOOP) and mount
 * crossings (EXDEV), which then take the walk. */
static int64_t fast_path(walk_t *w)
{
    if (!w->fs->openat2 || w->cur.mount == w->fs->proc) return 0;
    char *r = w->rest;
    size_t len = strlen(r), cut;
    while (len && r[len - 1] == '/') len--;
    for (cut = len; cut && r[cut - 1] != '/'; cut--) {}
    if (!cut) return 0;
    char lex[FS_PATH_MAX], part[sizeof w->rest];
    bool at_root = !strcmp(w->cur.path, "/");
    unsigned depth = 0;
    strcpy(lex, w->cur.path);
    memcpy(part, r, cut);
    part[cut] = '\0';
    for (char *p = part; *p;) {
        while (*p == '/') p++;
        size_t c = strcspn(p, "/");
        if (!c) break;
        char name[FS_NAME_MAX + 1];
        if (c > FS_NAME_MAX) return 0;
        memcpy(name, p, c);
        name[c] = '\0';
        p += c;
        if (!strcmp(name, ".")) continue;
        if (!strcmp(name, "..")) {
            if (!depth && !at_root) return 0;      /* above where it starts */
            if (depth) { lexical_parent(lex); depth--; }
            continue;
        }
        if (join(lex, lex, name) || mount_at(w->fs, w->ns, lex) >= 0) return 0;
        depth++;
    }
    struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
                            .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS |
                                       RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV };
    int fd = (int)syscall(SYS_openat2, w->cur.fd, part, &how, sizeof how);
    if (fd < 0) {
        int e = errno;
        return e == ENOENT || e == ENOTDIR || e == EACCES || e == ENAMETOOLONG ? -e : 0;
    }
    loc_set(&w->cur, w->cur.mount, fd, true, lex);
    memmove(r, r + cut, strlen(r + cut) + 1);
    return 0;
}

/* Walk w->rest from w->cur to a target. */
static int64_t walk(walk_t *w, fs_target_t *t)
{
    int64_t r = fast_path(w);
    if (r) return r;
    for (;;) {
        char *p = w->rest;
        while (*p == '/') p++;
        if (!*p) { target_here(w, t); return 0; }
        size_t n = strcspn(p, "/");
        if (n > FS_NAME_MAX) return -ENAMETOOLONG;
        char name[FS_NAME_MAX + 1];
        memcpy(name, p, n);
        name[n] = '\0';
        char *next = p + n;
        bool slash = *next == '/';
        while (*next == '/') next++;
        bool last = !*next;
        memmove(w->rest, next, strlen(next) + 1);
        if (last && slash) t->must_dir = true;
        if (!strcmp(name, ".") || !strcmp(name, "..")) {
            if (name[1] && (r = go_up(w))) return r;
            if (last) { target_here(w, t); return 0; }
            continue;
        }
        bool follow = !last || (w->how & FS_FOLLOW) || slash;
        r = step(w, name, last, follow, slash, t);
        if (r != STEP_NEXT) return r;
    }
}

/* ---- lookups ------------------------------------------------------------------ */

/* Where a relative path of guest dirfd gdir starts. */
static int64_t start_of(struct sys *s, int64_t gdir, loc_t *l)
{
    l->owned = false;
    if ((int32_t)gdir == FS_AT_FDCWD) {
        l->mount = s->cwd->mount;
        l->fd = s->cwd_fd;
        strcpy(l->path, s->cwd->path);
        return 0;
    }
    int32_t g = (int32_t)gdir;
    if (g < 0 || g >= SYS_MAX_FDS || s->host_fd[g] < 0) return -EBADF;
    const fs_place_t *pl = s->fd_place[g];
    uint8_t fl = s->fd_flags[g];
    if (fl & SYS_FD_PROC) {
        if (!(fl & SYS_FD_PROCDIR) || !pl) return -ENOTDIR;
        l->mount = s->fs->proc;
        l->fd = -1;
        strcpy(l->path, pl->path);
        return 0;
    }
    if (!pl || pl->mount < 0) {
        struct stat st;
        return fstat(s->host_fd[g], &st) == 0 && S_ISDIR(st.st_mode) ? -EACCES : -ENOTDIR;
    }
    l->mount = pl->mount;
    l->fd = s->host_fd[g];
    strcpy(l->path, pl->path);
    return 0;
}

static int64_t lookup_in(struct sys *s, int ns, const loc_t *start, const char *path,
                         unsigned how, fs_target_t *t)
{
    walk_t *w = malloc(sizeof *w);
    if (!w) return -ENOMEM;
    /* field by field: zeroing the whole (its two path buffers, 12 KiB) cost
     * more than the walk */
    w->s = s;
    w->fs = s->fs;
    w->ns = ns;
    w->how = how;
    w->links = 0;
    if (start) w->cur = *start;
    else loc_root(s->fs, ns, &w->cur);
    snprintf(w->rest, sizeof w->rest, "%s", path);
    int64_t r = walk(w, t);
    loc_drop(&w->cur);
    free(w);
    if (!r && t->must_dir && t->exists) {
        bool dir = t->kind == FS_T_HOST ? S_ISDIR(t->st.st_mode)
                 : t->kind == FS_T_PROC && procfs_node(s, t->path, &(procfs_node_t){0}) == PROC_DIR;
        if (!dir) r = -ENOTDIR;
    }
    if (r) fs_target_done(t);
    return r;
}

/* The directory fd (or working directory) itself: AT_EMPTY_PATH. */
static int64_t target_of_fd(struct sys *s, int64_t gdir, fs_target_t *t)
{
    if ((int32_t)gdir == FS_AT_FDCWD) {
        if (s->cwd_fd < 0) {
            t->kind = FS_T_PROC;
            t->mount = s->cwd->mount;
            t->ro = t->exists = true;
            strcpy(t->path, s->cwd->path);
            return 0;
        }
        t->kind = FS_T_HOST;
        t->mount = s->cwd->mount;
        t->ro = s->cwd->mount >= 0 && s->fs->m[s->cwd->mount].ro;
        t->dirfd = s->cwd_fd;
        strcpy(t->path, s->cwd->path);
        host_fill(t);
        return 0;
    }
    int32_t g = (int32_t)gdir;
    if (g < 0 || g >= SYS_MAX_FDS || s->host_fd[g] < 0) return -EBADF;
    walk_t w = { .s = s, .fs = s->fs };
    w.cur.fd = -1;
    int64_t r = jump_fd(&w, g, true, t);
    loc_drop(&w.cur);
    return r;
}

int64_t fs_lookup(struct sys *s, int64_t gdir, const char *path, unsigned how, fs_target_t *t)
{
    target_init(t);
    if (!*path) return how & FS_EMPTY ? target_of_fd(s, gdir, t) : -ENOENT;
    if (strnlen(path, FS_PATH_MAX) >= FS_PATH_MAX) return -ENAMETOOLONG;
    fs_t *fs = s->fs;
    if (path[0] == '/' && (how & FS_READ) && fs->root[FS_NS_SYSROOT] >= 0) {
        if (!lookup_in(s, FS_NS_SYSROOT, NULL, path, how, t) && t->exists) return 0;
        fs_target_done(t);
        target_init(t);
    }
    if (path[0] == '/') return lookup_in(s, FS_NS_MAIN, NULL, path, how, t);
    loc_t start;
    int64_t r = start_of(s, gdir, &start);
    if (r) return r;
    return lookup_in(s, ns_of(fs, start.mount), &start, path, how, t);
}

/* ---- operations ----------------------------------------------------------------- */

/* The host (dirfd, name) an operation on t uses: the entry in its
 * directory, or the object itself through hps-sim's own /proc/self/fd
 * (name "", a mount of a file or a guest fd). */
static int host_ref(const fs_target_t *t, char *buf, size_t len, const char **name)
{
    if (t->name[0]) { *name = t->name; return t->dirfd; }
    snprintf(buf, len, "/proc/self/fd/%d", t->dirfd);
    *name = buf;
    return AT_FDCWD;
}

/* Character devices a guest may write on a read-only mount: null, zero,
 * full, random, urandom (major 1) and terminals (4, 5, 136-143). */
static bool harmless_device(dev_t rdev)
{
    unsigned ma = major(rdev), mi = minor(rdev);
    return (ma == 1 && (mi == 3 || mi == 5 || mi == 7 || mi == 8 || mi == 9)) ||
           ma == 4 || ma == 5 || (ma >= 136 && ma <= 143);
}

/* What a read-only mount protects from writes: files, directories,
 * symlinks and every device but the harmless ones (Linux would let a
 * writer through to any device: hps-sim run by root must not let a guest
 * write a disk).  Pipes and sockets stay writable. */
static bool holds_data(const fs_target_t *t)
{
    mode_t m = t->st.st_mode;
    if (!t->exists || S_ISREG(m) || S_ISDIR(m) || S_ISLNK(m) || S_ISBLK(m)) return true;
    return S_ISCHR(m) && !harmless_device(t->st.st_rdev);
}

static bool is_self(const fs_target_t *t) { return !t->name[0] || !strcmp(t->name, "."); }

static int64_t open_checks(const fs_target_t *t, int flags)
{
    bool write = (flags & O_ACCMODE) != O_RDONLY;
    bool tmpfile = (flags & O_TMPFILE) == O_TMPFILE;
    if (!t->exists) {
        if (!(flags & O_CREAT) || tmpfile || is_self(t)) return -ENOENT;
        if (t->must_dir) return -EISDIR;
        return t->ro ? -EROFS : 0;
    }
    if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL) && t->name[0]) return -EEXIST;
    if (S_ISDIR(t->st.st_mode) && write && !tmpfile) return -EISDIR;
    if (t->ro && holds_data(t) && (write || tmpfile || ((flags & O_TRUNC) && S_ISREG(t->st.st_mode))))
        return -EROFS;
    if (t->reopen_acc >= 0 && !t->name[0]) {     /* an inherited fd: no more access */
        int want = flags & O_ACCMODE, have = t->reopen_acc;
        if ((want != O_WRONLY && have == O_WRONLY) || (want != O_RDONLY && have == O_RDONLY))
            return -EACCES;
    }
    return 0;
}

static int64_t open_host(fs_target_t *t, int flags, unsigned mode, int *hfd, uint8_t *fd_flags)
{
    int64_t r = open_checks(t, flags);
    if (r) return r;
    int fd;
    if (t->name[0]) {
        fd = openat(t->dirfd, t->name, flags | O_NOFOLLOW, (mode_t)mode);
    } else {
        char buf[64];
        snprintf(buf, sizeof buf, "/proc/self/fd/%d", t->dirfd);
        fd = open(buf, flags & ~(O_CREAT | O_EXCL | O_NOFOLLOW));
    }
    if (fd < 0) return -errno;
    if (on_procfs(fd)) {
        close(fd);
        return -EACCES;
    }
    *hfd = fd;
    *fd_flags = t->ro ? SYS_FD_RO : 0;
    return 0;
}

int64_t fs_open(struct sys *s, const struct cpu *c, fs_target_t *t, int flags, unsigned mode,
                int *hfd, uint8_t *fd_flags)
{
    *fd_flags = 0;
    switch (t->kind) {
    case FS_T_PROC:
        return procfs_open(s, c, t->path, flags, hfd, fd_flags);
    case FS_T_VIRTUAL: {
        if ((flags & O_ACCMODE) != O_RDONLY) return -EACCES;
        if (flags & O_DIRECTORY) return -ENOTDIR;
        const char *text = virtual_files[t->virt].text;
        *hfd = procfs_text_fd(text, strlen(text));
        *fd_flags = SYS_FD_RO;
        return *hfd < 0 ? -errno : 0;
    }
    default:
        if (!t->path[0] && t->gfd >= 0) fs_fd_link(s, t->gfd, t->path, sizeof t->path);
        return open_host(t, flags, mode, hfd, fd_flags);
    }
}

int64_t fs_stat(struct sys *s, fs_target_t *t, struct stat *st)
{
    if (t->kind == FS_T_PROC) return procfs_stat(s, t->path, st);
    if (t->kind == FS_T_VIRTUAL) {
        memset(st, 0, sizeof *st);
        st->st_mode = S_IFREG | 0444;
        st->st_nlink = 1;
        st->st_size = 4096;
        st->st_blksize = 4096;
        return 0;
    }
    if (!t->exists) return -ENOENT;
    *st = t->st;
    return 0;
}

int64_t fs_readlink(struct sys *s, fs_target_t *t, char *buf, size_t len)
{
    if (t->kind == FS_T_PROC) return procfs_readlink(s, t->path, buf, len);
    if (t->kind != FS_T_HOST || !t->exists) return t->kind == FS_T_HOST ? -ENOENT : -EINVAL;
    if (!S_ISLNK(t->st.st_mode)) return -EINVAL;
    ssize_t n = readlinkat(t->dirfd, t->name, buf, len);
    return n < 0 ? -errno : n;
}

int64_t fs_access(struct sys *s, fs_target_t *t, int mode, int host_flags)
{
    if (t->kind == FS_T_PROC) {
        struct stat st;
        int64_t r = procfs_stat(s, t->path, &st);
        if (r) return r;
        if ((mode & W_OK) && !(st.st_mode & S_IWUSR)) return -EACCES;
        if ((mode & X_OK) && !(st.st_mode & S_IXUSR)) return -EACCES;
        return 0;
    }
    if (t->kind == FS_T_VIRTUAL) return mode & (W_OK | X_OK) ? -EACCES : 0;
    if (!t->exists) return -ENOENT;
    if ((mode & W_OK) && t->ro && holds_data(t)) return -EROFS;
    char buf[64];
    const char *name;
    int dir = host_ref(t, buf, sizeof buf, &name);
    int flags = host_flags | (t->name[0] ? AT_SYMLINK_NOFOLLOW : 0);
    return faccessat(dir, name, mode, flags) < 0 ? -errno : 0;
}

/* Changes: only to existing host entries of writable mounts. */
static int64_t change_checks(const fs_target_t *t)
{
    if (t->kind != FS_T_HOST) return -EACCES;
    if (t->ro) return -EROFS;
    return 0;
}

int64_t fs_unlink(fs_target_t *t, bool dir)
{
    int64_t r = change_checks(t);
    if (r) return r;
    if (!t->exists) return -ENOENT;
    if (t->mount_root) return -EBUSY;
    if (is_self(t)) return dir && !strcmp(t->name, ".") ? -EINVAL : -EBUSY;
    return unlinkat(t->dirfd, t->name, dir ? AT_REMOVEDIR : 0) < 0 ? -errno : 0;
}

int64_t fs_mkdir(fs_target_t *t, unsigned mode)
{
    if (t->exists) return -EEXIST;
    int64_t r = change_checks(t);
    if (r) return r;
    return mkdirat(t->dirfd, t->name, (mode_t)mode) < 0 ? -errno : 0;
}

static int64_t two_checks(const fs_target_t *from, const fs_target_t *to)
{
    if (from->mount != to->mount || from->mount < 0) return -EXDEV;
    int64_t r = change_checks(from);
    if (r) return r;
    if (!from->exists) return -ENOENT;
    if (is_self(from) || is_self(to) || from->mount_root || to->mount_root) return -EBUSY;
    return 0;
}

int64_t fs_rename(fs_target_t *from, fs_target_t *to, unsigned flags)
{
    int64_t r = two_checks(from, to);
    if (r) return r;
    return renameat2(from->dirfd, from->name, to->dirfd, to->name, flags) < 0 ? -errno : 0;
}

int64_t fs_link(fs_target_t *from, fs_target_t *to)
{
    if (from->mount != to->mount || from->mount < 0) return -EXDEV;
    int64_t r = change_checks(to);
    if (r) return r;
    if (!from->exists) return -ENOENT;
    if (to->exists) return -EEXIST;
    if (is_self(to) || to->mount_root) return -EBUSY;
    if (from->kind != FS_T_HOST) return -EACCES;
    char buf[64];
    const char *name;
    int dir = host_ref(from, buf, sizeof buf, &name);
    int flags = from->name[0] ? 0 : AT_SYMLINK_FOLLOW;
    return linkat(dir, name, to->dirfd, to->name, flags) < 0 ? -errno : 0;
}

int64_t fs_symlink(const char *text, fs_target_t *t)
{
    if (t->exists) return -EEXIST;
    int64_t r = change_checks(t);
    if (r) return r;
    return symlinkat(text, t->dirfd, t->name) < 0 ? -errno : 0;
}

/* An O_PATH fd of the object, never a symlink's target. */
static int object_fd(const fs_target_t *t)
{
    if (!t->name[0]) return fcntl(t->dirfd, F_DUPFD_CLOEXEC, 0);
    return openat(t->dirfd, t->name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
}

int64_t fs_chmod(fs_target_t *t, unsigned mode)
{
    int64_t r = change_checks(t);
    if (r) return r;
    if (!t->exists) return -ENOENT;
    if (S_ISLNK(t->st.st_mode)) return -EOPNOTSUPP;
    int fd = object_fd(t);
    if (fd < 0) return -errno;
    char buf[64];
    snprintf(buf, sizeof buf, "/proc/self/fd/%d", fd);
    struct stat st;
    r = fstat(fd, &st) != 0 ? -errno : S_ISLNK(st.st_mode) ? -ELOOP
      : chmod(buf, (mode_t)mode) < 0 ? -errno : 0;
    close(fd);
    return r;
}

int64_t fs_chown(fs_target_t *t, uint32_t uid, uint32_t gid)
{
    int64_t r = change_checks(t);
    if (r) return r;
    if (!t->exists) return -ENOENT;
    int flags = AT_SYMLINK_NOFOLLOW | (t->name[0] ? 0 : AT_EMPTY_PATH);
    return fchownat(t->dirfd, t->name, (uid_t)uid, (gid_t)gid, flags) < 0 ? -errno : 0;
}

int64_t fs_truncate(fs_target_t *t, int64_t len)
{
    int64_t r = change_checks(t);
    if (r) return r;
    if (!t->exists) return -ENOENT;
    if (S_ISDIR(t->st.st_mode)) return -EISDIR;
    int fd;
    if (t->name[0]) {
        fd = openat(t->dirfd, t->name, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    } else {
        char buf[64];
        snprintf(buf, sizeof buf, "/proc/self/fd/%d", t->dirfd);
        fd = open(buf, O_WRONLY | O_CLOEXEC);
    }
    if (fd < 0) return -errno;
    r = ftruncate(fd, (off_t)len) < 0 ? -errno : 0;
    close(fd);
    return r;
}

int64_t fs_utimens(fs_target_t *t, const struct timespec ts[2])
{
    int64_t r = change_checks(t);
    if (r) return r;
    if (!t->exists) return -ENOENT;
    char buf[64];
    const char *name;
    int dir = host_ref(t, buf, sizeof buf, &name);
    int flags = t->name[0] ? AT_SYMLINK_NOFOLLOW : 0;
    return utimensat(dir, name, ts, flags) < 0 ? -errno : 0;
}

int64_t fs_chdir(struct sys *s, fs_target_t *t)
{
    loc_t l;
    int64_t r = target_to_loc(t, s->fs->proc, &l);
    if (r) return r;
    if (l.fd >= 0 && !l.owned) {
        l.fd = fcntl(l.fd, F_DUPFD_CLOEXEC, 0);
        if (l.fd < 0) return -errno;
        l.owned = true;
    }
    fs_place_t *p = fs_place_new(l.mount, l.path);
    if (!p) {
        loc_drop(&l);
        return -ENOMEM;
    }
    if (s->cwd_fd >= 0) close(s->cwd_fd);
    free(s->cwd);
    s->cwd_fd = l.fd;
    s->cwd = p;
    return 0;
}

/* ---- host paths seen from the guest ----------------------------------------------- */

bool fs_guest_path(struct sys *s, const char *host, char *out, size_t len)
{
    fs_t *fs = s->fs;
    struct stat hs;
    if (host[0] != '/' || stat(host, &hs) != 0) return false;
    bool tried[FS_MAX_MOUNTS] = { false };
    for (;;) {                          /* the longest host prefix first */
        int best = -1;
        size_t best_len = 0;
        for (int k = 0; k < fs->n; k++) {
            const fs_mount_t *m = &fs->m[k];
            if (tried[k] || !mount_alive(m) || m->kind != FS_MOUNT_HOST || m->ns != FS_NS_MAIN)
                continue;
            size_t n = strlen(m->host);
            bool root = !strcmp(m->host, "/");
            if (!root && (strncmp(host, m->host, n) || (host[n] && host[n] != '/'))) continue;
            if (best < 0 || n > best_len) best = k, best_len = n;
        }
        if (best < 0) return false;
        tried[best] = true;
        const fs_mount_t *m = &fs->m[best];
        const char *tail = strcmp(m->host, "/") ? host + best_len : host;
        char cand[FS_PATH_MAX];
        int n = snprintf(cand, sizeof cand, "%s%s", strcmp(m->guest, "/") ? m->guest : "",
                         tail);
        if (n <= 0 || (size_t)n >= sizeof cand) continue;
        if (!cand[0]) strcpy(cand, "/");
        fs_target_t t;
        struct stat gs;
        bool same = fs_lookup(s, FS_AT_FDCWD, cand, 0, &t) == 0 && fs_stat(s, &t, &gs) == 0 &&
                    t.kind == FS_T_HOST && gs.st_dev == hs.st_dev && gs.st_ino == hs.st_ino;
        fs_target_done(&t);
        if (same) {
            snprintf(out, len, "%s", cand);
            return true;
        }
    }
}

void fs_fd_link(struct sys *s, int g, char *out, size_t len)
{
    const fs_place_t *pl = s->fd_place[g];
    if (pl) {
        snprintf(out, len, "%s", pl->path);
        return;
    }
    char link[64], text[FS_PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", s->host_fd[g]);
    ssize_t n = readlink(link, text, sizeof text - 1);
    if (n < 0) {
        snprintf(out, len, "(unreachable)");
        return;
    }
    text[n] = '\0';
    if (text[0] != '/') snprintf(out, len, "%s", text);     /* pipe:[...], socket:[...] */
    else if (!fs_guest_path(s, text, out, len)) snprintf(out, len, "(unreachable)");
}
