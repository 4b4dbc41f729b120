/*
 * fs.h - the guest's file system: what a guest can reach on the host and
 * how its paths resolve.  SECURITY.md ("File system and /proc") has the
 * whole design; in short:
 *
 * The guest sees a mount table, not the host.  A namespace has a root (a
 * host directory, read-only or read-write), binds (host directories or
 * files shown at guest paths) and /proc, which is always hps-sim's
 * emulation of the guest process (procfs.h), never the host's.  Paths
 * resolve component by component from the guest's root or a directory
 * the guest holds: every step is openat(O_PATH|O_NOFOLLOW) of one name,
 * symlinks are read and followed by us (an absolute target starts again
 * at the guest's root, at most 40 of them: ELOOP), ".." is the lexical
 * parent of a canonical guest path walked again from the root, so no path
 * ever leaves its root and host ".." and host symlinks are never followed.
 * When the kernel has openat2, the directory part of a path without
 * symlinks, mount points or /proc is resolved in one openat2 call
 * (RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_XDEV); anything else
 * (or HPS_NO_OPENAT2=1 in the environment) takes the walk.  Host procfs
 * directories are refused wherever they are mounted.
 *
 * Read-only mounts refuse every change (EROFS, as Linux's read-only mounts
 * do: device nodes, pipes and sockets stay writable); rename and link
 * between mounts fail with EXDEV.
 *
 * A sysroot (--sysroot) is a second namespace: absolute paths the guest
 * only reads are tried there first (confined to it, read-only), then in
 * the main one, as qemu -L does.
 *
 * Every host fd a guest holds remembers where it is (fs_place_t: its mount
 * and canonical guest path), so *at calls, fchdir, getcwd and the links of
 * /proc/self/fd speak the guest's paths only.
 */
#ifndef HPS_FS_H
#define HPS_FS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#define FS_PATH_MAX   4096      /* guest paths, as Linux's PATH_MAX          */
#define FS_NAME_MAX   255
#define FS_MAX_MOUNTS 40
#define FS_MAX_LINKS  40        /* symlinks per lookup (Linux: 40)           */
#define FS_AT_FDCWD   (-100)    /* Linux's AT_FDCWD, as the guest passes it  */

enum { FS_NS_MAIN = 0, FS_NS_SYSROOT = 1, FS_NS_COUNT };
enum { FS_MOUNT_HOST, FS_MOUNT_PROC };

typedef struct fs_mount {
    char *guest;                /* mount point: canonical absolute guest path */
    char *host;                 /* host path of what is mounted (NULL: /proc) */
    int fd;                     /* host O_PATH fd of it, -1 for /proc         */
    bool ro, is_dir;
    uint8_t ns, kind;           /* FS_NS_*, FS_MOUNT_*                        */
} fs_mount_t;

typedef struct fs {
    fs_mount_t m[FS_MAX_MOUNTS];
    int n;
    int root[FS_NS_COUNT];      /* the mount that is "/" of each namespace, -1 */
    int proc;                   /* the /proc mount (both namespaces)          */
    bool openat2;               /* the fast path may be used                  */
} fs_t;

/* Where a guest fd (or the working directory) is: its mount and canonical
 * guest path. */
typedef struct fs_place {
    int mount;                  /* -1: outside every mount (/proc/self/exe)  */
    char path[];
} fs_place_t;

/* What a lookup found. */
typedef enum { FS_T_HOST, FS_T_PROC, FS_T_VIRTUAL } fs_kind_t;

typedef struct fs_target {
    fs_kind_t kind;
    int mount;                  /* the mount holding it, -1 if none          */
    bool ro;                    /* changes are refused with EROFS            */
    bool mount_root;            /* it is a mount's root (EBUSY to remove)    */
    bool must_dir;              /* the path ended in '/'                     */
    bool exists;                /* HOST: the object is there (st filled)     */
    struct stat st;             /* HOST: lstat of the object                 */
    int dirfd;                  /* HOST: directory fd, or the object itself  */
    bool dir_owned;             /*       when name is ""                     */
    char name[FS_NAME_MAX + 1]; /* HOST: last component ("." = dirfd itself) */
    int reopen_acc;             /* HOST "" of an fd hps-sim was given: the
                                   most access (O_ACCMODE) it may be reopened
                                   with; -1 none                             */
    int gfd;                    /* HOST "" reached through a guest fd: it    */
    int virt;                   /* VIRTUAL: which fixed file                 */
    char path[FS_PATH_MAX];     /* guest path of the object                  */
} fs_target_t;

/* How to look a path up (fs_lookup). */
enum {
    FS_FOLLOW = 1,              /* follow a symlink in the last component    */
    FS_READ = 2,                /* only reads it: a sysroot may answer first */
    FS_EMPTY = 4,               /* "" names the directory fd (AT_EMPTY_PATH) */
};

struct sys;
struct cpu;

/* A namespace of host "/" (read-write, unless ro) and /proc: what a bare
 * sys_new gives.  NULL if out of memory. */
fs_t *fs_new(void);
void  fs_free(fs_t *fs);
/* Replace the root of namespace ns by host directory dir. */
bool  fs_set_root(fs_t *fs, int ns, const char *dir, bool ro, char *err, size_t errlen);
/* Show host path host (a directory or a file) at guest path guest, which
 * must already exist in the namespace built so far (as for mount). */
bool  fs_bind(struct sys *s, const char *host, const char *guest, bool ro,
              char *err, size_t errlen);
/* Drop namespace ns (the sysroot) if any. */
void  fs_clear_ns(fs_t *fs, int ns);

/* Look up guest path (from guest directory fd gdir, Linux's AT_FDCWD for
 * the working directory).  0 and *t filled (release it with
 * fs_target_done), or -errno. */
int64_t fs_lookup(struct sys *s, int64_t gdir, const char *path, unsigned how, fs_target_t *t);
void    fs_target_done(fs_target_t *t);
/* The place a target becomes when opened (malloc'd). */
fs_place_t *fs_place_new(int mount, const char *path);

/* Operations on what a lookup found; each returns 0 (or a value) or -errno
 * and applies the read-only and /proc rules. */
int64_t fs_open(struct sys *s, const struct cpu *c, fs_target_t *t, int flags, unsigned mode,
                int *hfd, uint8_t *fd_flags);
int64_t fs_stat(struct sys *s, fs_target_t *t, struct stat *st);
int64_t fs_readlink(struct sys *s, fs_target_t *t, char *buf, size_t len);
int64_t fs_access(struct sys *s, fs_target_t *t, int mode, int host_flags);
int64_t fs_unlink(fs_target_t *t, bool dir);
int64_t fs_mkdir(fs_target_t *t, unsigned mode);
int64_t fs_rename(fs_target_t *from, fs_target_t *to, unsigned flags);
int64_t fs_link(fs_target_t *from, fs_target_t *to);
int64_t fs_symlink(const char *text, fs_target_t *t);
int64_t fs_chmod(fs_target_t *t, unsigned mode);
int64_t fs_chown(fs_target_t *t, uint32_t uid, uint32_t gid);
int64_t fs_truncate(fs_target_t *t, int64_t len);
int64_t fs_utimens(fs_target_t *t, const struct timespec ts[2]);
/* The target (a directory) becomes the guest's working directory. */
int64_t fs_chdir(struct sys *s, fs_target_t *t);

/* The guest path of host path host (absolute), checked to name the same
 * file in the guest's namespace; false if the guest cannot see it. */
bool fs_guest_path(struct sys *s, const char *host, char *out, size_t len);
/* What readlink("/proc/self/fd/N") shows for guest fd g: its guest path,
 * "pipe:[...]"-style names, or "(unreachable)" for a host file the guest
 * cannot see. */
void fs_fd_link(struct sys *s, int g, char *out, size_t len);

#endif /* HPS_FS_H */
