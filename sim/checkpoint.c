/*
 * checkpoint.c - save the guest's state to a byte image and restore it
 * (checkpoint.h says what is held and what not).
 *
 * The format, version 1.  Every integer is little-endian; a string is a
 * u32 length and its bytes (no NUL).
 *
 *   magic      8 bytes "HPSCKPT\n"
 *   version    u32 (CKPT_VERSION)
 *   instret    u64 program instructions retired at the checkpoint
 *   isa        string ("rv64gc", "alpha")
 *   program    string (the path as given), u64 FNV-1a hash of its ELF file
 *   argv       u32 count, strings
 *   cpu        u32 register count, u64 registers, u64 pc, u32 fflags, u32
 *              frm, u64 fpcr, swcr, unique
 *   process    u64 seed, epoch, insts/s, host_time, thread quantum; brk
 *              start, brk, mmap bottom, top, bottom_up; rng state, tid,
 *              calls, sleep ns, clear_child_tid, robust list and length,
 *              Alpha uac; rlimits (u32 count, soft/hard u64 pairs)
 *   signals    u64 mask, pending, saved mask, mask_saved, tramp, delivered,
 *              redirect; u32 count (SYS_NSIG + 1), per signal: sigaction
 *              (u32 size, bytes), restorer, info (code, pid, uid, addr,
 *              fault); altstack (24 bytes); u32 count, itimers (due,
 *              interval)
 *   mounts     u32 count, per mount: guest path, host path ("" for /proc),
 *              u8 ro, u8 namespace
 *   cwd        string (guest path, "" when none)
 *   fds        u32 count, per fd: u32 guest fd, u8 kind (1 = one of
 *              hps-sim's stdin/stdout/stderr, 2 = a file reopened by path),
 *              u8 cloexec; stdio: u32 which, i64 offset (stdin only, when
 *              a regular file; else -1); file: u32 mount, string guest path, u32 host
 *              open flags, i64 offset, i64 size, i64 mtime ns (size and
 *              mtime of files opened read-only, else 0)
 *   regions    u32 count, per named region of /proc/self/maps in address
 *              order: u64 start, end, file offset, dev, ino, string guest
 *              path
 *   pages      u64 count, per page in address order: u64 address, u8 prot,
 *              u8 has_data (0: all zeros), 4096 bytes if has_data
 *   trailer    u64 FNV-1a hash of every byte before it
 *
 * A restore checks the magic, version and trailer hash first, then the
 * ISA, program hash and arguments against the run's, and reads every field
 * through a bounds-checked cursor: a damaged file is one message, never a
 * crash.  Saving the same state twice gives the same bytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkpoint.h"
#include "fs.h"
#include "mem.h"
#include "procfs.h"
#include "thread.h"

static const char MAGIC[8] = { 'H', 'P', 'S', 'C', 'K', 'P', 'T', '\n' };
enum { FD_STDIO = 1, FD_FILE = 2 };
#define HEADER_INSTRET_AT 12     /* after the magic and version */
#define LINUX_RLIMIT_AS 9        /* Linux generic RLIMIT_AS (sys_t's rlimit index) */

/* ---- hashing ---------------------------------------------------------------- */

static uint64_t fnv1a(uint64_t h, const uint8_t *p, size_t n)
{
    for (size_t k = 0; k < n; k++) h = (h ^ p[k]) * 0x100000001b3ull;
    return h;
}
#define FNV_START 0xcbf29ce484222325ull

bool ckpt_hash_file(const char *path, uint64_t *hash, char *err, size_t errlen)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        return false;
    }
    uint8_t buf[65536];
    uint64_t h = FNV_START;
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) h = fnv1a(h, buf, n);
    bool ok = !ferror(f);
    fclose(f);
    if (!ok) snprintf(err, errlen, "%s: read error", path);
    *hash = h;
    return ok;
}

/* ---- writing ---------------------------------------------------------------- */

typedef struct writer {
    uint8_t *p;
    size_t len, cap;
    bool oom;
} writer_t;

static void put(writer_t *w, const void *src, size_t n)
{
    if (w->oom) return;
    if (w->len + n > w->cap) {
        size_t cap = w->cap ? w->cap : 1 << 16;
        while (cap < w->len + n) cap *= 2;
        uint8_t *p = realloc(w->p, cap);
        if (!p) {
            w->oom = true;
            return;
        }
        w->p = p;
        w->cap = cap;
    }
    memcpy(w->p + w->len, src, n);
    w->len += n;
}

static void put_u64(writer_t *w, uint64_t v)
{
    uint8_t b[8];
    for (int k = 0; k < 8; k++) b[k] = (uint8_t)(v >> (8 * k));
    put(w, b, 8);
}

static void put_u32(writer_t *w, uint32_t v)
{
    uint8_t b[4];
    for (int k = 0; k < 4; k++) b[k] = (uint8_t)(v >> (8 * k));
    put(w, b, 4);
}

static void put_u8(writer_t *w, uint8_t v) { put(w, &v, 1); }

static void put_str(writer_t *w, const char *s)
{
    size_t n = strlen(s);
    put_u32(w, (uint32_t)n);
    put(w, s, n);
}

/* ---- reading ---------------------------------------------------------------- */

typedef struct reader {
    const uint8_t *p;
    size_t len, at;
    bool bad;                   /* ran past the end or a value out of range */
} reader_t;

static const uint8_t *take(reader_t *r, size_t n)
{
    if (r->bad || n > r->len - r->at) {
        r->bad = true;
        return NULL;
    }
    const uint8_t *p = r->p + r->at;
    r->at += n;
    return p;
}

/* A field out of range: the image is malformed. */
static bool malformed(reader_t *r)
{
    r->bad = true;
    return false;
}

static uint64_t get_u64(reader_t *r)
{
    const uint8_t *b = take(r, 8);
    uint64_t v = 0;
    for (int k = 0; b && k < 8; k++) v |= (uint64_t)b[k] << (8 * k);
    return v;
}

static uint32_t get_u32(reader_t *r)
{
    const uint8_t *b = take(r, 4);
    uint32_t v = 0;
    for (int k = 0; b && k < 4; k++) v |= (uint32_t)b[k] << (8 * k);
    return v;
}

static uint8_t get_u8(reader_t *r)
{
    const uint8_t *b = take(r, 1);
    return b ? *b : 0;
}

/* A string into buf (NUL-terminated); too long for buf is bad. */
static void get_str(reader_t *r, char *buf, size_t size)
{
    uint32_t n = get_u32(r);
    if (n >= size) r->bad = true;
    const uint8_t *p = take(r, n);
    buf[0] = 0;
    if (!p) return;
    memcpy(buf, p, n);
    buf[n] = 0;
    if (memchr(buf, 0, n)) r->bad = true;
}

static void get_bytes(reader_t *r, void *dst, size_t n)
{
    const uint8_t *p = take(r, n);
    if (p) memcpy(dst, p, n);
}

/* A u32 count that must equal `want`. */
static void expect_count(reader_t *r, uint32_t want)
{
    if (get_u32(r) != want) r->bad = true;
}

/* ---- the cpu ---------------------------------------------------------------- */

static void save_cpu(writer_t *w, const cpu_t *c)
{
    put_u32(w, REG_COUNT);
    for (unsigned k = 0; k < REG_COUNT; k++) put_u64(w, c->reg[k]);
    put_u64(w, c->pc);
    put_u32(w, c->fflags);
    put_u32(w, c->frm);
    put_u64(w, c->fpcr);
    put_u64(w, c->swcr);
    put_u64(w, c->unique);
}

static void load_cpu(reader_t *r, cpu_t *c)
{
    expect_count(r, REG_COUNT);
    for (unsigned k = 0; k < REG_COUNT; k++) c->reg[k] = get_u64(r);
    c->pc = get_u64(r);
    c->fflags = get_u32(r);
    c->frm = get_u32(r);
    c->fpcr = get_u64(r);
    c->swcr = get_u64(r);
    c->unique = get_u64(r);
    c->reservation = ~0ull;
    c->event_at = 0;                    /* the run loop looks at its events */
}

/* ---- the process: layout, limits, signals ---------------------------------- */

static void save_process(writer_t *w, const sys_t *s)
{
    put_u64(w, s->cfg.seed);
    put_u64(w, s->cfg.epoch_sec);
    put_u64(w, s->cfg.insts_per_sec);
    put_u64(w, s->cfg.host_time);
    put_u64(w, s->cfg.thread_quantum);
    uint64_t v[] = { s->brk_start, s->brk_cur, s->mmap_bottom, s->mmap_top, s->mmap_bottom_up,
                     s->rng_state, s->tid, s->calls, s->sleep_ns, s->clear_child_tid,
                     s->robust_list, s->robust_len, s->alpha_uac };
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++) put_u64(w, v[k]);
    put_u32(w, SYS_NRLIMIT);
    for (int k = 0; k < SYS_NRLIMIT; k++) {
        put_u64(w, s->rlimit[k][0]);
        put_u64(w, s->rlimit[k][1]);
    }
}

static void load_process(reader_t *r, sys_t *s)
{
    s->cfg.seed = get_u64(r);
    s->cfg.epoch_sec = get_u64(r);
    s->cfg.insts_per_sec = get_u64(r);
    if (!s->cfg.insts_per_sec) r->bad = true;           /* the guest's clock divides by it */
    s->cfg.host_time = get_u64(r) != 0;
    s->cfg.thread_quantum = get_u64(r);
    s->brk_start = get_u64(r);
    s->brk_cur = get_u64(r);
    s->mmap_bottom = get_u64(r);
    s->mmap_top = get_u64(r);
    s->mmap_bottom_up = get_u64(r) != 0;
    s->rng_state = get_u64(r);
    s->tid = get_u64(r);
    s->calls = get_u64(r);
    s->sleep_ns = get_u64(r);
    s->clear_child_tid = get_u64(r);
    s->robust_list = get_u64(r);
    s->robust_len = get_u64(r);
    s->alpha_uac = (uint32_t)get_u64(r);
    expect_count(r, SYS_NRLIMIT);
    for (int k = 0; k < SYS_NRLIMIT; k++) {
        s->rlimit[k][0] = get_u64(r);
        s->rlimit[k][1] = get_u64(r);
    }
}

static void save_signals(writer_t *w, const sys_t *s)
{
    put_u64(w, s->sigmask);
    put_u64(w, s->sig_pending);
    put_u64(w, s->sig_saved_mask);
    put_u64(w, s->sig_mask_saved);
    put_u64(w, s->sig_tramp);
    put_u64(w, s->signals_delivered);
    put_u64(w, s->sig_redirect);
    put_u32(w, SYS_NSIG + 1);
    for (int k = 0; k <= SYS_NSIG; k++) {
        put_u32(w, SYS_SIGACTION_MAX);
        put(w, s->sigaction[k], SYS_SIGACTION_MAX);
        put_u64(w, s->sig_restorer[k]);
        const sys_siginfo_t *i = &s->sig_info[k];
        put_u32(w, (uint32_t)i->code);
        put_u32(w, (uint32_t)i->pid);
        put_u32(w, (uint32_t)i->uid);
        put_u64(w, i->addr);
        put_u8(w, i->fault);
    }
    put(w, s->altstack, sizeof s->altstack);
    put_u32(w, SYS_NITIMER);
    for (int k = 0; k < SYS_NITIMER; k++) {
        put_u64(w, s->itimer[k].due);
        put_u64(w, s->itimer[k].interval);
    }
}

static void load_signals(reader_t *r, sys_t *s)
{
    s->sigmask = get_u64(r);
    s->sig_pending = get_u64(r);
    s->sig_saved_mask = get_u64(r);
    s->sig_mask_saved = get_u64(r) != 0;
    s->sig_tramp = get_u64(r);
    s->signals_delivered = get_u64(r);
    s->sig_redirect = get_u64(r) != 0;
    expect_count(r, SYS_NSIG + 1);
    for (int k = 0; k <= SYS_NSIG && !r->bad; k++) {
        expect_count(r, SYS_SIGACTION_MAX);
        get_bytes(r, s->sigaction[k], SYS_SIGACTION_MAX);
        s->sig_restorer[k] = get_u64(r);
        sys_siginfo_t *i = &s->sig_info[k];
        i->code = (int32_t)get_u32(r);
        i->pid = (int32_t)get_u32(r);
        i->uid = (int32_t)get_u32(r);
        i->addr = get_u64(r);
        i->fault = get_u8(r) != 0;
    }
    get_bytes(r, s->altstack, sizeof s->altstack);
    expect_count(r, SYS_NITIMER);
    for (int k = 0; k < SYS_NITIMER; k++) {
        s->itimer[k].due = get_u64(r);
        s->itimer[k].interval = get_u64(r);
    }
}

/* ---- mounts and the working directory ----------------------------------------- */

static void save_mounts(writer_t *w, const sys_t *s)
{
    put_u32(w, (uint32_t)s->fs->n);
    for (int k = 0; k < s->fs->n; k++) {
        const fs_mount_t *m = &s->fs->m[k];
        put_str(w, m->guest);
        put_str(w, m->host ? m->host : "");
        put_u8(w, m->ro);
        put_u8(w, m->ns);
    }
    put_str(w, s->cwd ? s->cwd->path : "");
}

/* The mounts must be the ones the checkpoint was taken with: fds and the
 * working directory are guest paths in them. */
static bool check_mounts(reader_t *r, sys_t *s, char *err, size_t errlen)
{
    uint32_t n = get_u32(r);
    if (!r->bad && n != (uint32_t)s->fs->n) {
        snprintf(err, errlen, "the checkpoint's file system has %u mounts, this run's %d: "
                 "restore with the same --fs-root, --bind, --sysroot and --cwd", n, s->fs->n);
        return false;
    }
    for (int k = 0; k < s->fs->n && !r->bad; k++) {
        const fs_mount_t *m = &s->fs->m[k];
        char guest[FS_PATH_MAX], host[FS_PATH_MAX];
        get_str(r, guest, sizeof guest);
        get_str(r, host, sizeof host);
        uint8_t ro = get_u8(r), ns = get_u8(r);
        if (r->bad) break;
        if (strcmp(guest, m->guest) || strcmp(host, m->host ? m->host : "") || ro != m->ro ||
            ns != m->ns) {
            snprintf(err, errlen, "mount %d: the checkpoint has %s at %s%s, this run %s at %s%s: "
                     "restore with the same --fs-root, --bind, --sysroot and --cwd", k,
                     *host ? host : "/proc", guest, ro ? " (ro)" : "",
                     m->host ? m->host : "/proc", m->guest, m->ro ? " (ro)" : "");
            return false;
        }
    }
    return true;
}

static bool load_cwd(reader_t *r, sys_t *s, char *err, size_t errlen)
{
    char cwd[FS_PATH_MAX], why[FS_PATH_MAX + 256];
    get_str(r, cwd, sizeof cwd);
    if (r->bad || !cwd[0]) return true;
    if (sys_set_cwd(s, cwd, why, sizeof why)) return true;
    snprintf(err, errlen, "the guest's working directory: %s", why);
    return false;
}

/* ---- file descriptors ------------------------------------------------------------ */

static int64_t mtime_ns(const struct stat *st)
{
    return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

/* Which of the run's stdin/stdout/stderr guest fd g is (-1: none): one of
 * hps-sim's own, or one the run set up in their place (the shell's and
 * the baselines' stdin), which has no guest path and is no pipe. */
static int stdio_of(const sys_t *s, int g, const struct stat *st)
{
    int h = s->host_fd[g];
    if (!(s->fd_flags[g] & SYS_FD_OWNED)) return h >= 0 && h <= 2 ? h : -1;
    return g <= 2 && !s->fd_place[g] && !S_ISFIFO(st->st_mode) && !S_ISSOCK(st->st_mode) ? g : -1;
}

static bool save_fd(writer_t *w, const sys_t *s, int g, char *err, size_t errlen)
{
    int h = s->host_fd[g];
    const fs_place_t *place = s->fd_place[g];
    uint8_t cloexec = (s->fd_flags[g] & SYS_FD_CLOEXEC) != 0;
    if (s->fd_flags[g] & (SYS_FD_PROC | SYS_FD_MEM | SYS_FD_PROCDIR)) {
        snprintf(err, errlen, "guest fd %d is an emulated /proc file (%s), which a checkpoint "
                 "cannot reopen; take the checkpoint before the guest opens it or after it "
                 "closes it", g, place ? place->path : "?");
        return false;
    }
    struct stat st;
    if (fstat(h, &st) != 0) {
        snprintf(err, errlen, "guest fd %d: fstat: %s", g, strerror(errno));
        return false;
    }
    int stdio = stdio_of(s, g, &st);
    if (stdio < 0 && (!place || place->mount < 0 || place->path[0] != '/' ||
                      S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
        snprintf(err, errlen, "guest fd %d is %s, which a checkpoint cannot reopen (only "
                 "files and directories with a guest path, and hps-sim's own stdin, stdout "
                 "and stderr, are restored)", g,
                 S_ISFIFO(st.st_mode) ? "a pipe" : S_ISSOCK(st.st_mode) ? "a socket"
                 : "a descriptor without a path (a dup of stdin/stdout/stderr or a pipe)");
        return false;
    }
    if (stdio == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))) {
        snprintf(err, errlen, "the guest's stdin (fd %d) is a %s, whose position a restore "
                 "cannot find again: give the program its input as a file (< FILE) or "
                 "/dev/null", g, S_ISFIFO(st.st_mode) ? "pipe" : "socket");
        return false;
    }
    /* stdout and stderr are the restoring run's own, appended to where
     * they are; only a regular stdin has a position worth keeping */
    off_t off = S_ISREG(st.st_mode) && stdio <= 0 ? lseek(h, 0, SEEK_CUR) : -1;
    put_u32(w, (uint32_t)g);
    put_u8(w, stdio >= 0 ? FD_STDIO : FD_FILE);
    put_u8(w, cloexec);
    if (stdio >= 0) {
        put_u32(w, (uint32_t)stdio);
        put_u64(w, (uint64_t)(int64_t)off);
        return true;
    }
    put_u32(w, (uint32_t)place->mount);
    put_str(w, place->path);
    int flags = fcntl(h, F_GETFL);
    bool reads = (flags & O_ACCMODE) == O_RDONLY;   /* only these are checked unchanged */
    put_u32(w, (uint32_t)flags);
    put_u64(w, (uint64_t)(int64_t)off);
    put_u64(w, reads ? (uint64_t)(int64_t)st.st_size : 0);
    put_u64(w, reads ? (uint64_t)mtime_ns(&st) : 0);
    return true;
}

static bool save_fds(writer_t *w, const sys_t *s, char *err, size_t errlen)
{
    uint32_t n = 0;
    for (int g = 0; g < SYS_MAX_FDS; g++) n += s->host_fd[g] >= 0;
    put_u32(w, n);
    for (int g = 0; g < SYS_MAX_FDS; g++)
        if (s->host_fd[g] >= 0 && !save_fd(w, s, g, err, errlen)) return false;
    return true;
}

/* The fresh guest's stdin/stdout/stderr as guest_load set them up: what
 * the checkpoint's stdio fds become. */
typedef struct stdio_set {
    int host[3];
    uint8_t flags[3];
    bool used[3];
} stdio_set_t;

/* Close every fd of the fresh guest, keeping its first three aside. */
static void clear_fds(sys_t *s, stdio_set_t *io)
{
    for (int g = 0; g < SYS_MAX_FDS; g++) {
        if (g < 3) {
            io->host[g] = s->host_fd[g];
            io->flags[g] = s->fd_flags[g];
            io->used[g] = false;
        } else if (s->host_fd[g] >= 0 && (s->fd_flags[g] & SYS_FD_OWNED)) {
            close(s->host_fd[g]);
        }
        free(s->fd_place[g]);
        s->fd_place[g] = NULL;
        s->host_fd[g] = -1;
        s->fd_flags[g] = 0;
    }
}

static void release_unused_stdio(stdio_set_t *io)
{
    for (int k = 0; k < 3; k++)
        if (!io->used[k] && io->host[k] >= 0 && (io->flags[k] & SYS_FD_OWNED)) close(io->host[k]);
}

/* A stdio fd: the restoring run's own (a second guest fd on it gets a dup),
 * at the saved offset when it is a regular file. */
static bool load_stdio_fd(reader_t *r, sys_t *s, int g, stdio_set_t *io, char *err,
                          size_t errlen)
{
    uint32_t which = get_u32(r);
    int64_t off = (int64_t)get_u64(r);
    if (r->bad || which > 2) return malformed(r);
    int h = io->host[which];
    if (h < 0) {
        snprintf(err, errlen, "guest fd %d was hps-sim's fd %u, which this run does not have", g,
                 which);
        return false;
    }
    uint8_t flags = io->flags[which];
    if (io->used[which]) {
        h = dup(h);
        flags |= SYS_FD_OWNED;
        if (h < 0) {
            snprintf(err, errlen, "guest fd %d: dup: %s", g, strerror(errno));
            return false;
        }
    }
    io->used[which] = true;
    s->host_fd[g] = h;
    s->fd_flags[g] = flags & ~SYS_FD_CLOEXEC;
    struct stat st;
    bool seekable = fstat(h, &st) == 0 && S_ISREG(st.st_mode);
    if (off > 0 && !seekable) {
        snprintf(err, errlen, "the guest had read %" PRId64 " bytes of its stdin (a file) "
                 "before the checkpoint, and this run's stdin is no file to seek in: give it "
                 "the same file (< FILE)", off);
        return false;
    }
    if (off >= 0 && seekable && lseek(h, off, SEEK_SET) != off) {
        snprintf(err, errlen, "the guest's stdin: cannot seek to %" PRId64 ": %s", off,
                 strerror(errno));
        return false;
    }
    return true;
}

/* A file: looked up again by its guest path in the guest's file system
 * (the confinement applies as to the guest's own open), opened with its
 * flags at its offset.  A file opened read-only must be unchanged (size
 * and modification time), or the restored guest would read other data. */
static bool load_file_fd(reader_t *r, sys_t *s, cpu_t *c, int g, char *err, size_t errlen)
{
    char path[FS_PATH_MAX];
    uint32_t mount = get_u32(r);
    get_str(r, path, sizeof path);
    int flags = (int)get_u32(r);
    int64_t off = (int64_t)get_u64(r), size = (int64_t)get_u64(r), mtime = (int64_t)get_u64(r);
    if (r->bad || mount >= (uint32_t)s->fs->n || path[0] != '/') return malformed(r);
    flags &= ~(O_CREAT | O_TRUNC | O_EXCL);
    bool reads = (flags & O_ACCMODE) == O_RDONLY;
    fs_target_t t;
    int64_t e = fs_lookup(s, FS_AT_FDCWD, path, FS_FOLLOW | (reads ? FS_READ : 0), &t);
    int hfd = -1;
    uint8_t kind = 0;
    if (!e) {
        e = fs_open(s, c, &t, flags, 0, &hfd, &kind);
        fs_target_done(&t);
    }
    if (e) {
        snprintf(err, errlen, "guest fd %d: cannot reopen %s: %s", g, path, strerror((int)-e));
        return false;
    }
    s->host_fd[g] = hfd;
    s->fd_flags[g] = SYS_FD_OWNED | (kind & SYS_FD_KIND);
    s->fd_place[g] = fs_place_new((int)mount, path);
    struct stat st;
    if (fstat(hfd, &st) != 0) {
        snprintf(err, errlen, "guest fd %d: %s: fstat: %s", g, path, strerror(errno));
        return false;
    }
    if (reads && S_ISREG(st.st_mode) && (st.st_size != size || mtime_ns(&st) != mtime)) {
        snprintf(err, errlen, "guest fd %d: %s changed since the checkpoint (size %" PRId64
                 " -> %" PRId64 " bytes or its modification time): the restored guest would "
                 "read other data", g, path, size, (int64_t)st.st_size);
        return false;
    }
    if (off >= 0 && lseek(hfd, off, SEEK_SET) != off) {
        snprintf(err, errlen, "guest fd %d: %s: cannot seek to %" PRId64 ": %s", g, path, off,
                 strerror(errno));
        return false;
    }
    return true;
}

static bool load_fds(reader_t *r, sys_t *s, cpu_t *c, char *err, size_t errlen)
{
    stdio_set_t io;
    clear_fds(s, &io);
    uint32_t n = get_u32(r);
    bool ok = n <= SYS_MAX_FDS;
    for (uint32_t k = 0; ok && !r->bad && k < n; k++) {
        uint32_t g = get_u32(r);
        uint8_t kind = get_u8(r), cloexec = get_u8(r);
        if (r->bad || g >= SYS_MAX_FDS || s->host_fd[g] >= 0) {
            r->bad = true;
            break;
        }
        if (kind == FD_STDIO) ok = load_stdio_fd(r, s, (int)g, &io, err, errlen);
        else if (kind == FD_FILE) ok = load_file_fd(r, s, c, (int)g, err, errlen);
        else r->bad = true;
        if (ok && cloexec) s->fd_flags[g] |= SYS_FD_CLOEXEC;
    }
    if (!ok && !err[0]) r->bad = true;
    if (n > SYS_MAX_FDS) r->bad = true;
    release_unused_stdio(&io);
    return ok;
}

/* ---- the names of file mappings (/proc/self/maps) --------------------------------- */

static void save_regions(writer_t *w, const sys_t *s)
{
    procfs_region_t *v;
    size_t n = procfs_regions(s, &v);
    put_u32(w, (uint32_t)n);
    for (size_t k = 0; k < n; k++) {
        put_u64(w, v[k].start);
        put_u64(w, v[k].end);
        put_u64(w, v[k].off);
        put_u64(w, v[k].dev);
        put_u64(w, v[k].ino);
        put_str(w, v[k].name);
    }
    free(v);
}

static void load_regions(reader_t *r, sys_t *s)
{
    procfs_note_map(s, 0, 1ull << GUEST_ADDR_BITS, -1, NULL, 0);     /* forget the fresh ones */
    uint32_t n = get_u32(r);
    for (uint32_t k = 0; k < n && !r->bad; k++) {
        char name[FS_PATH_MAX];
        procfs_region_t g = { .start = get_u64(r), .end = get_u64(r), .off = get_u64(r),
                              .dev = get_u64(r), .ino = get_u64(r), .name = name };
        get_str(r, name, sizeof name);
        if (g.end <= g.start || g.end >> GUEST_ADDR_BITS) r->bad = true;
        if (!r->bad) procfs_restore_region(s, &g);
    }
}

void ckpt_replay_exec_maps(sys_t *s, cpu_t *c)
{
    procfs_region_t *v;
    size_t n = procfs_regions(s, &v);
    for (size_t k = 0; s->on_exec_map && k < n; k++) {
        const guest_page_t *pg = mem_page(c->mem, v[k].start);
        if (!pg || !(pg->prot & MEM_PROT_EXEC) || v[k].name[0] != '/') continue;
        fs_target_t t;
        int hfd = -1;
        uint8_t kind = 0;
        if (fs_lookup(s, FS_AT_FDCWD, v[k].name, FS_FOLLOW | FS_READ, &t)) continue;
        int64_t e = fs_open(s, c, &t, O_RDONLY, 0, &hfd, &kind);
        fs_target_done(&t);
        if (e) continue;
        s->on_exec_map(s->on_exec_map_ctx, hfd, v[k].start, v[k].end - v[k].start, v[k].off);
        close(hfd);
    }
    free(v);
}

/* ---- memory ---------------------------------------------------------------------- */

static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (p[k]) return false;
    return true;
}

static void save_pages(writer_t *w, const mem_t *m)
{
    uint64_t n = 0;
    for (uint64_t a = mem_next_mapped(m, 0); a != UINT64_MAX;
         a = mem_next_mapped(m, a + GUEST_PAGE_SIZE))
        n++;
    put_u64(w, n);
    for (uint64_t a = mem_next_mapped(m, 0); a != UINT64_MAX;
         a = mem_next_mapped(m, a + GUEST_PAGE_SIZE)) {
        const guest_page_t *pg = mem_page(m, a);
        bool data = pg->data && !all_zero(pg->data, GUEST_PAGE_SIZE);
        put_u64(w, a);
        put_u8(w, pg->prot);
        put_u8(w, data);
        if (data) put(w, pg->data, GUEST_PAGE_SIZE);
    }
}

static bool load_pages(reader_t *r, mem_t *m, char *err, size_t errlen)
{
    mem_unmap(m, 0, 1ull << GUEST_ADDR_BITS);
    uint64_t n = get_u64(r), prev = 0;
    for (uint64_t k = 0; k < n && !r->bad; k++) {
        uint64_t a = get_u64(r);
        uint8_t prot = get_u8(r), has = get_u8(r);
        if (r->bad || (a & GUEST_PAGE_MASK) || a >> GUEST_ADDR_BITS || (k && a <= prev) ||
            prot > 7 || has > 1)
            return malformed(r);
        prev = a;
        const uint8_t *data = has ? take(r, GUEST_PAGE_SIZE) : NULL;
        if (r->bad) return false;
        if (!mem_map(m, a, GUEST_PAGE_SIZE, prot) ||
            (data && !mem_write(m, a, data, GUEST_PAGE_SIZE))) {
            snprintf(err, errlen, "guest page 0x%" PRIx64 " cannot be mapped: the checkpoint's "
                     "%" PRIu64 " pages do not fit this run's --guest-mem or --host-mem", a, n);
            return false;
        }
    }
    return !r->bad;
}

/* ---- the image ------------------------------------------------------------------- */

static void save_header(writer_t *w, const cpu_t *c, const ckpt_ident_t *id)
{
    put(w, MAGIC, sizeof MAGIC);
    put_u32(w, CKPT_VERSION);
    put_u64(w, c->instret);
    put_str(w, id->isa);
    put_str(w, id->path);
    put_u64(w, id->elf_hash);
    put_u32(w, (uint32_t)id->argc);
    for (int k = 0; k < id->argc; k++) put_str(w, id->argv[k]);
}

bool ckpt_save(const cpu_t *c, const sys_t *s, const ckpt_ident_t *id, ckpt_image_t *img,
               char *err, size_t errlen)
{
    img->bytes = NULL;
    img->len = 0;
    if (s->threads) {
        snprintf(err, errlen, "the guest has created threads (clone), which checkpoints do not "
                 "hold: take the checkpoint before its first clone");
        return false;
    }
    writer_t w = {0};
    save_header(&w, c, id);
    save_cpu(&w, c);
    save_process(&w, s);
    save_signals(&w, s);
    save_mounts(&w, s);
    if (!save_fds(&w, s, err, errlen)) {
        free(w.p);
        return false;
    }
    save_regions(&w, s);
    save_pages(&w, c->mem);
    put_u64(&w, fnv1a(FNV_START, w.p, w.len));
    if (w.oom) {
        free(w.p);
        snprintf(err, errlen, "out of host memory for the checkpoint image");
        return false;
    }
    img->bytes = w.p;
    img->len = w.len;
    return true;
}

void ckpt_image_free(ckpt_image_t *img)
{
    free(img->bytes);
    img->bytes = NULL;
    img->len = 0;
}

uint64_t ckpt_image_instret(const ckpt_image_t *img)
{
    reader_t r = { img->bytes, img->len, HEADER_INSTRET_AT, false };
    uint64_t n = get_u64(&r);
    return r.bad ? 0 : n;
}

/* Magic, version and the trailer's hash. */
static bool check_envelope(const ckpt_image_t *img, char *err, size_t errlen)
{
    if (img->len < sizeof MAGIC + 4 + 8 || memcmp(img->bytes, MAGIC, sizeof MAGIC)) {
        snprintf(err, errlen, "not an hps-sim checkpoint (no HPSCKPT magic)");
        return false;
    }
    reader_t r = { img->bytes, img->len, sizeof MAGIC, false };
    uint32_t version = get_u32(&r);
    if (version != CKPT_VERSION) {
        snprintf(err, errlen, "checkpoint format version %u; this hps-sim reads version %u",
                 version, CKPT_VERSION);
        return false;
    }
    size_t body = img->len - 8;
    reader_t t = { img->bytes, img->len, body, false };
    if (get_u64(&t) != fnv1a(FNV_START, img->bytes, body)) {
        snprintf(err, errlen, "the checkpoint is truncated or corrupt (its hash does not match "
                 "its %zu bytes)", img->len);
        return false;
    }
    return true;
}

/* ISA, program (path and ELF hash) and arguments must be this run's. */
static bool check_ident(reader_t *r, const ckpt_ident_t *id, char *err, size_t errlen)
{
    char isa[64], path[FS_PATH_MAX], arg[FS_PATH_MAX];
    get_str(r, isa, sizeof isa);
    get_str(r, path, sizeof path);
    uint64_t hash = get_u64(r);
    if (r->bad) return false;
    if (strcmp(isa, id->isa)) {
        snprintf(err, errlen, "the checkpoint is of an %s program, %s is %s", isa, id->path,
                 id->isa);
        return false;
    }
    if (hash != id->elf_hash) {
        snprintf(err, errlen, "the checkpoint is of %s (ELF hash %016" PRIx64 "), not of %s "
                 "(hash %016" PRIx64 "): restore it with the program it was taken of", path,
                 hash, id->path, id->elf_hash);
        return false;
    }
    uint32_t argc = get_u32(r);
    bool same = argc == (uint32_t)id->argc;
    for (uint32_t k = 0; k < argc && !r->bad; k++) {
        get_str(r, arg, sizeof arg);
        if (same && k > 0 && strcmp(arg, id->argv[k])) same = false;
    }
    if (!r->bad && !same) {
        snprintf(err, errlen, "the checkpoint was taken with other program arguments: restore "
                 "with the same arguments (%u of them) after the program's path", argc - 1);
        return false;
    }
    return !r->bad;
}

bool ckpt_restore(cpu_t *c, sys_t *s, const ckpt_ident_t *id, const ckpt_image_t *img,
                  char *err, size_t errlen)
{
    err[0] = 0;
    if (!check_envelope(img, err, errlen)) return false;
    reader_t r = { img->bytes, img->len - 8, HEADER_INSTRET_AT, false };
    uint64_t instret = get_u64(&r);
    bool ok = check_ident(&r, id, err, errlen);
    if (ok) {
        load_cpu(&r, c);
        load_process(&r, s);
        load_signals(&r, s);
        ok = !r.bad && check_mounts(&r, s, err, errlen) && load_cwd(&r, s, err, errlen) &&
             load_fds(&r, s, c, err, errlen);
        if (ok) load_regions(&r, s);
        ok = ok && !r.bad && load_pages(&r, c->mem, err, errlen);
    }
    if (ok && r.at != r.len) r.bad = true;
    if (r.bad && !err[0])
        snprintf(err, errlen, "the checkpoint is malformed at byte %zu (a field out of range "
                 "or past the end)", r.at);
    if (r.bad || !ok) return false;
    c->instret = instret;
    c->restored_at = instret;
    c->runtime_insts = 0;
    c->cycle = 0;
    mem_set_rlimit_as(c->mem, s->rlimit[LINUX_RLIMIT_AS][0]);
    return true;
}

/* ---- files ---------------------------------------------------------------------- */

bool ckpt_read_file(const char *path, ckpt_image_t *img, char *err, size_t errlen)
{
    img->bytes = NULL;
    img->len = 0;
    FILE *f = fopen(path, "rb");
    struct stat st;
    if (!f || fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        snprintf(err, errlen, "%s: cannot read: %s", path, f ? "not a regular file"
                                                             : strerror(errno));
        if (f) fclose(f);
        return false;
    }
    img->len = (size_t)st.st_size;
    img->bytes = malloc(img->len ? img->len : 1);
    bool ok = img->bytes && fread(img->bytes, 1, img->len, f) == img->len;
    fclose(f);
    if (!ok) {
        snprintf(err, errlen, "%s: cannot read its %zu bytes", path, img->len);
        ckpt_image_free(img);
    }
    return ok;
}

bool ckpt_write_file(const char *path, const ckpt_image_t *img, char *err, size_t errlen)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(img->bytes, 1, img->len, f) == img->len;
    if (f && fclose(f) != 0) ok = false;
    if (!ok) snprintf(err, errlen, "%s: cannot write: %s", path, strerror(errno));
    return ok;
}
