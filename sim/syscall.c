/*
 * syscall.c - ABI-independent Linux system-call emulation.
 *
 * sys_call() reads the number and arguments from the registers named by
 * the ABI, looks the number up in the ABI's table and runs the handler.
 * Handlers return a result or a negative host errno; errors are converted
 * to Linux errno numbers and then to the guest ABI's convention (-errno in
 * a0 for RISC-V; errno plus a flag register for Alpha).  Guest flag
 * encodings and structure layouts are converted through sys_abi_t hooks,
 * so a second ABI adds a table and converters but no handler changes.
 *
 * Paths resolve in the guest's own file system (fs.c: a root, binds and
 * an emulated /proc, procfs.c), never beyond it; with a sysroot, absolute
 * paths the guest reads are tried there first, as qemu's -L does, so a
 * dynamic linker loads the sysroot's libraries.
 * Each file mapped with PROT_EXEC is reported to the exec-map hook (the
 * simulator names the library's code from it).
 *
 * Threads (clone, futex, exit of one thread, the scheduler) are in
 * syscall_thread.c; signals (actions, masks, delivery, frames, interval
 * timers) in syscall_signal.c.  Time is derived from
 * retired instructions unless cfg.host_time is set, and randomness comes
 * from a splitmix64 stream seeded by cfg.seed, so runs are reproducible.
 */
#include "sys.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "fs.h"
#include "loader.h"
#include "procfs.h"
#include "syscall_impl.h"
#include "thread.h"
#include "util.h"

#define SYS_PPID  999
#define SYS_UID   1000
#define SYS_GID   1000
#define MAX_IO    (64u << 20)   /* largest single read/write transfer       */
#define MAX_IOV   1024
#define PATH_MAX_GUEST 4096
#define LINUX_AT_FDCWD (-100)
#define RLIM_INF  (~0ull)

/* Linux generic constants (identical on every Linux ABI). */
enum { L_AT_SYMLINK_NOFOLLOW = 0x100, L_AT_REMOVEDIR = 0x200, L_AT_EACCESS = 0x200,
       L_AT_SYMLINK_FOLLOW = 0x400, L_AT_NO_AUTOMOUNT = 0x800, L_AT_EMPTY_PATH = 0x1000 };
enum { L_SIGKILL = 9, L_SIGSTOP = 19, L_SIGABRT = 6, L_SIGPIPE = 13 };
enum { L_RLIMIT_STACK = 3, L_RLIMIT_NOFILE = 7, L_RLIMIT_AS = 9 };

/* ---- errno: host -> Linux ------------------------------------------------ */

static const struct { int host, linux_nr; } errno_map[] = {
    {EPERM, 1}, {ENOENT, 2}, {ESRCH, 3}, {EINTR, 4}, {EIO, 5}, {ENXIO, 6},
    {E2BIG, 7}, {ENOEXEC, 8}, {EBADF, 9}, {ECHILD, 10}, {EAGAIN, 11},
    {ENOMEM, 12}, {EACCES, 13}, {EFAULT, 14}, {ENOTBLK, 15}, {EBUSY, 16},
    {EEXIST, 17}, {EXDEV, 18}, {ENODEV, 19}, {ENOTDIR, 20}, {EISDIR, 21},
    {EINVAL, 22}, {ENFILE, 23}, {EMFILE, 24}, {ENOTTY, 25}, {ETXTBSY, 26},
    {EFBIG, 27}, {ENOSPC, 28}, {ESPIPE, 29}, {EROFS, 30}, {EMLINK, 31},
    {EPIPE, 32}, {EDOM, 33}, {ERANGE, 34}, {EDEADLK, 35}, {ENAMETOOLONG, 36},
    {ENOLCK, 37}, {ENOSYS, 38}, {ENOTEMPTY, 39}, {ELOOP, 40}, {ENOMSG, 42},
    {EIDRM, 43}, {ENOSTR, 60}, {ENODATA, 61}, {ETIME, 62}, {ENOLINK, 67},
    {EPROTO, 71}, {EBADMSG, 74}, {EOVERFLOW, 75}, {EILSEQ, 84},
    {ENOTSOCK, 88}, {EDESTADDRREQ, 89}, {EMSGSIZE, 90}, {EPROTOTYPE, 91},
    {ENOPROTOOPT, 92}, {EPROTONOSUPPORT, 93}, {EOPNOTSUPP, 95}, {ENOTSUP, 95},
    {EAFNOSUPPORT, 97}, {EADDRINUSE, 98}, {EADDRNOTAVAIL, 99}, {ENETDOWN, 100},
    {ENETUNREACH, 101}, {ENETRESET, 102}, {ECONNABORTED, 103}, {ECONNRESET, 104},
    {ENOBUFS, 105}, {EISCONN, 106}, {ENOTCONN, 107}, {ETIMEDOUT, 110},
    {ECONNREFUSED, 111}, {EHOSTUNREACH, 113}, {EALREADY, 114},
    {EINPROGRESS, 115}, {ESTALE, 116}, {EDQUOT, 122}, {ECANCELED, 125},
    {EOWNERDEAD, 130}, {ENOTRECOVERABLE, 131},
};

static int linux_errno(int host)
{
    for (size_t k = 0; k < sizeof errno_map / sizeof errno_map[0]; k++)
        if (errno_map[k].host == host) return errno_map[k].linux_nr;
    return 5;   /* EIO: an error the guest ABI cannot name */
}

static int64_t host_err(void) { return -(int64_t)errno; }

/* A host call's result: the value, or -errno on failure. */
static int64_t host_ret(int64_t r) { return r < 0 ? host_err() : r; }

/* ---- creation, configuration --------------------------------------------- */

sys_t *sys_new(mem_t *mem, const sys_abi_t *abi, const sys_config_t *cfg)
{
    sys_t *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->abi = abi;
    s->mem = mem;
    s->cfg = *cfg;
    if (!s->cfg.insts_per_sec) s->cfg.insts_per_sec = 1000000000ull;
    s->rng_state = cfg->seed;
    s->tid = SYS_GUEST_PID;
    s->cwd_fd = -1;
    for (int k = 0; k < SYS_MAX_FDS; k++) s->host_fd[k] = k < 3 ? k : -1;
    s->fs = fs_new();
    s->proc = procfs_new();
    char here[PATH_MAX_GUEST];
    if (!getcwd(here, sizeof here)) strcpy(here, "/");   /* hps-sim's, where the guest starts */
    if (!s->fs || !s->proc ||
        (!sys_set_cwd(s, here, NULL, 0) && !sys_set_cwd(s, "/", NULL, 0))) {
        sys_free(s);
        return NULL;
    }
    s->mmap_bottom = 0x10000;
    s->mmap_top = GUEST_STACK_TOP - GUEST_STACK_SIZE - (1ull << 20);
    for (int r = 0; r < SYS_NRLIMIT; r++) s->rlimit[r][0] = s->rlimit[r][1] = RLIM_INF;
    s->rlimit[L_RLIMIT_STACK][0] = GUEST_STACK_SIZE;
    s->rlimit[L_RLIMIT_NOFILE][0] = s->rlimit[L_RLIMIT_NOFILE][1] = SYS_MAX_FDS;
    s->rlimit[4][0] = 0;                                   /* RLIMIT_CORE */
    s->rlimit[8][0] = s->rlimit[8][1] = 8ull << 20;        /* RLIMIT_MEMLOCK */
    s->rlimit[6][0] = s->rlimit[6][1] = 4096;              /* RLIMIT_NPROC */
    s->rlimit[11][0] = s->rlimit[11][1] = 4096;            /* RLIMIT_SIGPENDING */
    s->rlimit[12][0] = s->rlimit[12][1] = 819200;          /* RLIMIT_MSGQUEUE */
    s->rlimit[13][0] = s->rlimit[13][1] = 0;               /* RLIMIT_NICE */
    s->rlimit[14][0] = s->rlimit[14][1] = 0;               /* RLIMIT_RTPRIO */
    /* the address space is bounded (--guest-mem): the guest sees its bound */
    s->rlimit[L_RLIMIT_AS][0] = s->rlimit[L_RLIMIT_AS][1] = mem->guest_limit;
    return s;
}

void sys_free(sys_t *s)
{
    if (!s) return;
    for (int k = 0; k < SYS_MAX_FDS; k++) {
        if (s->host_fd[k] >= 0 && (s->fd_flags[k] & SYS_FD_OWNED)) close(s->host_fd[k]);
        free(s->fd_place[k]);
    }
    if (s->cwd_fd >= 0) close(s->cwd_fd);
    free(s->cwd);
    fs_free(s->fs);
    procfs_free(s->proc);
    free(s->exe_path);
    sys_threads_free(s->threads);
    free(s);
}

void sys_set_brk(sys_t *s, uint64_t brk_start)
{
    s->brk_start = s->brk_cur = brk_start;
}

void sys_set_exe(sys_t *s, const char *path)
{
    free(s->exe_path);
    char *real = realpath(path, NULL);
    s->exe_path = real ? real : strdup(path);
}

void sys_set_mmap_area(sys_t *s, uint64_t bottom, uint64_t top, bool bottom_up)
{
    s->mmap_bottom = bottom;
    s->mmap_top = top;
    s->mmap_bottom_up = bottom_up;
}

void sys_set_exec_map_hook(sys_t *s, sys_exec_map_fn fn, void *ctx)
{
    s->on_exec_map = fn;
    s->on_exec_map_ctx = ctx;
}

/* A namespace of its own, read-only (fs.h), so a guest chdir does not
 * move it and nothing escapes it. */
void sys_set_sysroot(sys_t *s, const char *dir)
{
    fs_clear_ns(s->fs, FS_NS_SYSROOT);
    if (dir) fs_set_root(s->fs, FS_NS_SYSROOT, dir, true, NULL, 0);
}

bool sys_set_fs_root(sys_t *s, const char *dir, bool ro, char *err, size_t errlen)
{
    char inner[PATH_MAX_GUEST + 256];
    if (fs_set_root(s->fs, FS_NS_MAIN, dir, ro, inner, sizeof inner)) return true;
    return set_error(err, errlen, "--fs-root %s", inner);
}

bool sys_bind(sys_t *s, const char *host, const char *guest, bool ro, char *err, size_t errlen)
{
    return fs_bind(s, host, guest, ro, err, errlen);
}

/* The working directory: a guest path, looked up now (before the guest
 * runs, hps-sim's relative paths and the guest's agree). */
bool sys_set_cwd(sys_t *s, const char *dir, char *err, size_t errlen)
{
    fs_target_t t;
    int64_t r = s->cwd ? fs_lookup(s, FS_AT_FDCWD, dir, FS_FOLLOW, &t)
                       : fs_lookup(s, FS_AT_FDCWD, dir[0] == '/' ? dir : "/", FS_FOLLOW, &t);
    if (!r) r = fs_chdir(s, &t);
    fs_target_done(&t);
    if (r)
        return set_error(err, errlen, "--cwd %s: %s; expected a directory the guest can reach",
                         dir, strerror((int)-r));
    return true;
}

void sys_random_bytes(sys_t *s, uint8_t *buf, uint64_t len)
{
    while (len) {
        uint64_t v = splitmix64_next(&s->rng_state);
        for (unsigned k = 0; k < 8 && len; k++, len--) *buf++ = (uint8_t)(v >> (8 * k));
    }
}

/* ---- dispatch ------------------------------------------------------------- */

static const sys_entry_t *find_entry(const sys_abi_t *abi, uint64_t nr)
{
    unsigned lo = 0, hi = abi->table_size;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (abi->table[mid].nr == nr) return &abi->table[mid];
        if (abi->table[mid].nr < nr) lo = mid + 1;
        else hi = mid;
    }
    return NULL;
}

const char *sys_name(const sys_abi_t *abi, uint64_t nr)
{
    const sys_entry_t *e = find_entry(abi, nr);
    return e ? e->name : NULL;
}

void sys_result_words(const sys_t *s, int64_t r, uint64_t *value, uint64_t *failed)
{
    const sys_abi_t *abi = s->abi;
    *failed = r < 0 && r >= -4095;
    *value = (uint64_t)r;
    if (*failed) {
        int e = linux_errno((int)-r);
        if (abi->errno_out) e = abi->errno_out(e);
        *value = abi->err_flag_reg >= 0 ? (uint64_t)e : (uint64_t)-(int64_t)e;
    }
}

static void set_result(sys_t *s, cpu_t *c, int64_t r)
{
    const sys_abi_t *abi = s->abi;
    uint64_t value, failed;
    sys_result_words(s, r, &value, &failed);
    cpu_set(c, abi->ret_reg, value);
    if (abi->err_flag_reg >= 0) cpu_set(c, (unsigned)abi->err_flag_reg, failed);
}


void sys_call(sys_t *s, cpu_t *c)
{
    const sys_abi_t *abi = s->abi;
    uint64_t nr = cpu_get(c, abi->nr_reg);
    uint64_t a[6];
    for (int k = 0; k < 6; k++) a[k] = cpu_get(c, abi->arg_reg[k]);
    s->calls++;
    const sys_entry_t *e = find_entry(abi, nr);
    if (!e || !e->fn) cpu_stop(c, STOP_BAD_SYSCALL, nr);
    int64_t r = e->fn(s, c, a);
    if (r == SYS_NO_RESULT) return;               /* sigreturn set every register */
    if (r == -EPIPE) r = sys_broken_pipe(s, c);   /* hps-sim ignores SIGPIPE itself */
    set_result(s, c, r);
}

/* ---- guest memory helpers -------------------------------------------------- */

/* Every page of [addr, addr+len) mapped with the access a syscall needs. */
static bool range_ok(sys_t *s, uint64_t addr, uint64_t len, bool write)
{
    if (len == 0) return true;
    if (addr + len < addr) return false;
    int need = write ? MEM_PROT_WRITE : MEM_PROT_READ;
    for (uint64_t p = addr & ~GUEST_PAGE_MASK; p < addr + len; p += GUEST_PAGE_SIZE) {
        const guest_page_t *pg = mem_page(s->mem, p);
        if (!pg || !(pg->prot & need)) return false;
    }
    return true;
}

static bool copy_in(sys_t *s, uint64_t addr, void *buf, uint64_t len)
{
    return range_ok(s, addr, len, false) && mem_read(s->mem, addr, buf, len);
}

static bool copy_out(sys_t *s, uint64_t addr, const void *buf, uint64_t len)
{
    return range_ok(s, addr, len, true) && mem_write(s->mem, addr, buf, len);
}

bool sys_copy_in(sys_t *s, uint64_t addr, void *buf, uint64_t len)
{
    return copy_in(s, addr, buf, len);
}

bool sys_copy_out(sys_t *s, uint64_t addr, const void *buf, uint64_t len)
{
    return copy_out(s, addr, buf, len);
}

static bool put_u64(sys_t *s, uint64_t addr, uint64_t v)
{
    uint8_t b[8];
    sys_put(b, 0, v, 8);
    return copy_out(s, addr, b, 8);
}

static bool put_u32(sys_t *s, uint64_t addr, uint32_t v)
{
    uint8_t b[4];
    sys_put(b, 0, v, 4);
    return copy_out(s, addr, b, 4);
}

static bool get_u64(sys_t *s, uint64_t addr, uint64_t *v)
{
    uint8_t b[8];
    if (!copy_in(s, addr, b, 8)) return false;
    *v = sys_get(b, 0, 8);
    return true;
}

/* A guest path into buf (PATH_MAX_GUEST bytes): 0 or -errno. */
static int64_t get_path(sys_t *s, uint64_t addr, char *buf)
{
    if (!addr) return -EFAULT;
    if (mem_read_str(s->mem, addr, buf, PATH_MAX_GUEST)) return 0;
    return mem_is_mapped(s->mem, addr) && strnlen(buf, PATH_MAX_GUEST) == PATH_MAX_GUEST
         ? -ENAMETOOLONG : -EFAULT;
}

/* A guest path argument, looked up from guest directory fd gdir (fs.h):
 * 0 and *t filled (fs_target_done it), or -errno. */
static int64_t lookup_at(sys_t *s, uint64_t gdir, uint64_t gpath, unsigned how, fs_target_t *t)
{
    char path[PATH_MAX_GUEST];
    int64_t r = get_path(s, gpath, path);
    if (r) {
        memset(t, 0, sizeof *t);
        t->dirfd = -1;
        return r;
    }
    return fs_lookup(s, (int64_t)(int32_t)gdir, path, how, t);
}

/* ---- file descriptors ---------------------------------------------------- */

static int host_of(sys_t *s, uint64_t gfd)
{
    int32_t fd = (int32_t)gfd;
    return fd >= 0 && fd < SYS_MAX_FDS ? s->host_fd[fd] : -1;
}

/* The SYS_FD_* kind bits of guest fd gfd (0 if closed). */
static uint8_t fd_kind(const sys_t *s, uint64_t gfd)
{
    int32_t fd = (int32_t)gfd;
    return fd >= 0 && fd < SYS_MAX_FDS && s->host_fd[fd] >= 0 ? s->fd_flags[fd] & SYS_FD_KIND : 0;
}

/* Give an open host fd the lowest free guest number >= min. */
static int64_t fd_install(sys_t *s, int hfd, bool cloexec, int64_t min)
{
    for (int64_t g = min < 0 ? 0 : min; g < SYS_MAX_FDS; g++) {
        if (s->host_fd[g] >= 0) continue;
        s->host_fd[g] = hfd;
        s->fd_flags[g] = SYS_FD_OWNED | (cloexec ? SYS_FD_CLOEXEC : 0);
        return g;
    }
    close(hfd);
    return min >= SYS_MAX_FDS ? -EINVAL : -EMFILE;
}

/* fd_install, remembering where the fd is (place, taken over) and what
 * it is (SYS_FD_* kind bits). */
static int64_t fd_install_at(sys_t *s, int hfd, bool cloexec, int64_t min, fs_place_t *place,
                             uint8_t kind)
{
    int64_t g = fd_install(s, hfd, cloexec, min);
    if (g < 0) {
        free(place);
        return g;
    }
    s->fd_place[g] = place;
    s->fd_flags[g] |= kind & SYS_FD_KIND;
    return g;
}

static fs_place_t *place_copy(const sys_t *s, int g)
{
    const fs_place_t *p = s->fd_place[g];
    return p ? fs_place_new(p->mount, p->path) : NULL;
}

static void fd_release(sys_t *s, int g)
{
    if (s->fd_flags[g] & SYS_FD_OWNED) close(s->host_fd[g]);
    s->host_fd[g] = -1;
    s->fd_flags[g] = 0;
    free(s->fd_place[g]);
    s->fd_place[g] = NULL;
}

/* ---- process ---------------------------------------------------------------- */

static _Noreturn void guest_exit(cpu_t *c, int status)
{
    c->exit_code = status;
    cpu_stop(c, STOP_EXIT, 0);
}

int64_t sys_h_exit_group(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    guest_exit(c, (int)(a[0] & 0xff));
}

int64_t sys_h_enosys(sys_t *s, cpu_t *c, const uint64_t a[6]) { return -ENOSYS; }
int64_t sys_h_getpid(sys_t *s, cpu_t *c, const uint64_t a[6]) { return SYS_GUEST_PID; }
int64_t sys_h_getppid(sys_t *s, cpu_t *c, const uint64_t a[6]) { return SYS_PPID; }
int64_t sys_h_gettid(sys_t *s, cpu_t *c, const uint64_t a[6]) { return (int64_t)s->tid; }
int64_t sys_h_getuid(sys_t *s, cpu_t *c, const uint64_t a[6]) { return SYS_UID; }
int64_t sys_h_geteuid(sys_t *s, cpu_t *c, const uint64_t a[6]) { return SYS_UID; }
int64_t sys_h_getgid(sys_t *s, cpu_t *c, const uint64_t a[6]) { return SYS_GID; }
int64_t sys_h_getegid(sys_t *s, cpu_t *c, const uint64_t a[6]) { return SYS_GID; }
int64_t sys_h_getgroups(sys_t *s, cpu_t *c, const uint64_t a[6]) { return 0; }
int64_t sys_h_setsid(sys_t *s, cpu_t *c, const uint64_t a[6]) { return -EPERM; }

static bool is_self(uint64_t pid) { return pid == 0 || pid == SYS_GUEST_PID; }

int64_t sys_h_getpgid(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    return is_self(a[0]) ? SYS_GUEST_PID : -ESRCH;
}

int64_t sys_h_getsid(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    return is_self(a[0]) ? SYS_GUEST_PID : -ESRCH;
}

int64_t sys_h_setpgid(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    return is_self(a[0]) ? 0 : -ESRCH;
}

int64_t sys_h_set_tid_address(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    s->clear_child_tid = a[0];
    return (int64_t)s->tid;
}

int64_t sys_h_set_robust_list(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (a[1] != 24) return -EINVAL;          /* sizeof(struct robust_list_head) */
    s->robust_list = a[0];
    s->robust_len = a[1];
    return 0;
}

int64_t sys_h_get_robust_list(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    uint64_t head, len;
    if (!sys_thread_robust_list(s, is_self(a[0]) ? s->tid : a[0], &head, &len)) return -ESRCH;
    if (!put_u64(s, a[1], head) || !put_u64(s, a[2], len)) return -EFAULT;
    return 0;
}

/* Fill a struct new_utsname: six 65-byte strings (the same on every ABI). */
int64_t sys_h_uname(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    const char *fields[6] = { "Linux", "hps-sim", "6.1.0", "#1 SMP hps-sim",
                              s->abi->uname_machine, "(none)" };
    uint8_t buf[6 * 65];
    memset(buf, 0, sizeof buf);
    for (int k = 0; k < 6; k++) strncpy((char *)buf + 65 * k, fields[k], 64);
    return copy_out(s, a[0], buf, sizeof buf) ? 0 : -EFAULT;
}

/* ---- time ------------------------------------------------------------------- */

enum { L_CLOCK_REALTIME = 0, L_CLOCK_MONOTONIC = 1, L_CLOCK_PROCESS_CPUTIME = 2,
       L_CLOCK_THREAD_CPUTIME = 3, L_CLOCK_MONOTONIC_RAW = 4, L_CLOCK_REALTIME_COARSE = 5,
       L_CLOCK_MONOTONIC_COARSE = 6, L_CLOCK_BOOTTIME = 7, L_CLOCK_REALTIME_ALARM = 8,
       L_CLOCK_BOOTTIME_ALARM = 9, L_CLOCK_TAI = 11 };

uint64_t sys_insts_to_ns(const sys_t *s, uint64_t insts)
{
    uint64_t ips = s->cfg.insts_per_sec;
    return insts / ips * 1000000000ull +
           (uint64_t)((unsigned __int128)(insts % ips) * 1000000000u / ips);
}

static int host_clock_id(int clock)
{
    switch (clock) {
    case L_CLOCK_REALTIME: case L_CLOCK_REALTIME_ALARM: case L_CLOCK_TAI:
        return CLOCK_REALTIME;
    case L_CLOCK_REALTIME_COARSE:  return CLOCK_REALTIME_COARSE;
    case L_CLOCK_MONOTONIC_COARSE: return CLOCK_MONOTONIC_COARSE;
    case L_CLOCK_MONOTONIC_RAW:    return CLOCK_MONOTONIC_RAW;
    case L_CLOCK_PROCESS_CPUTIME:  return CLOCK_PROCESS_CPUTIME_ID;
    case L_CLOCK_THREAD_CPUTIME:   return CLOCK_THREAD_CPUTIME_ID;
    case L_CLOCK_BOOTTIME: case L_CLOCK_BOOTTIME_ALARM: return CLOCK_BOOTTIME;
    default:                       return CLOCK_MONOTONIC;
    }
}

static bool clock_valid(int64_t clock)
{
    return clock >= 0 && clock <= L_CLOCK_TAI && clock != 10;
}

/* Nanoseconds on a guest clock (Linux generic clock id, already valid). */
static uint64_t clock_ns(sys_t *s, cpu_t *c, int clock)
{
    if (s->cfg.host_time) {
        struct timespec ts;
        clock_gettime(host_clock_id(clock), &ts);
        return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
    }
    uint64_t run = sys_insts_to_ns(s, c->instret);
    switch (clock) {
    case L_CLOCK_PROCESS_CPUTIME: case L_CLOCK_THREAD_CPUTIME:
        return run;
    case L_CLOCK_REALTIME: case L_CLOCK_REALTIME_COARSE: case L_CLOCK_REALTIME_ALARM:
    case L_CLOCK_TAI:
        return s->cfg.epoch_sec * 1000000000ull + run + s->sleep_ns;
    default:
        return run + s->sleep_ns;
    }
}

uint64_t sys_clock_now(sys_t *s, cpu_t *c, int clock) { return clock_ns(s, c, clock); }

/* 64-bit timespec / timeval: two 64-bit words on both guest ABIs. */
static bool put_time_pair(sys_t *s, uint64_t addr, uint64_t ns, uint64_t div)
{
    uint8_t b[16];
    sys_put(b, 0, ns / 1000000000ull, 8);
    sys_put(b, 8, ns % 1000000000ull / div, 8);
    return copy_out(s, addr, b, sizeof b);
}

/* A guest timespec as nanoseconds: 0, or -EFAULT / -EINVAL. */
static int64_t get_timespec(sys_t *s, uint64_t addr, uint64_t *ns)
{
    uint8_t b[16];
    if (!copy_in(s, addr, b, sizeof b)) return -EFAULT;
    int64_t sec = (int64_t)sys_get(b, 0, 8), nsec = (int64_t)sys_get(b, 8, 8);
    if (sec < 0 || nsec < 0 || nsec >= 1000000000) return -EINVAL;
    *ns = (uint64_t)sec * 1000000000ull + (uint64_t)nsec;
    return 0;
}

int64_t sys_h_clock_gettime(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (!clock_valid((int64_t)a[0])) return -EINVAL;
    return put_time_pair(s, a[1], clock_ns(s, c, (int)a[0]), 1) ? 0 : -EFAULT;
}

int64_t sys_h_clock_getres(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int clock = (int)a[0];
    if (!clock_valid((int64_t)a[0])) return -EINVAL;
    uint64_t res = clock == L_CLOCK_REALTIME_COARSE || clock == L_CLOCK_MONOTONIC_COARSE
                 ? 4000000 : 1;
    if (a[1] && !put_time_pair(s, a[1], res, 1)) return -EFAULT;
    return 0;
}

int64_t sys_h_gettimeofday(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (a[0] && !put_time_pair(s, a[0], clock_ns(s, c, L_CLOCK_REALTIME), 1000))
        return -EFAULT;
    if (a[1]) {
        uint8_t tz[8] = {0};
        if (!copy_out(s, a[1], tz, sizeof tz)) return -EFAULT;
    }
    return 0;
}

/* Sleep for ns: really (host time) or by advancing the simulated clocks. */
static void do_sleep(sys_t *s, uint64_t ns)
{
    if (!s->cfg.host_time) { s->sleep_ns += ns; return; }
    struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000ull),
                           .tv_nsec = (long)(ns % 1000000000ull) };
    while (nanosleep(&ts, &ts) < 0 && errno == EINTR) {}
}

/* Sleep ns, unless a signal a handler takes comes first (on the simulated
 * clock, an interval timer expiring): then -EINTR and the time left in
 * the timespec at rem (if not 0). */
static int64_t sleep_or_signal(sys_t *s, cpu_t *c, uint64_t ns, uint64_t rem)
{
    if (s->cfg.host_time) { do_sleep(s, ns); return 0; }
    if (sys_thread_sleep(s, c, ns)) return 0;    /* other threads run meanwhile */
    uint64_t slept = sys_wait_signal(s, c, ns);
    if (slept >= ns) return 0;
    if (rem && !put_time_pair(s, rem, ns - slept, 1)) return -EFAULT;
    return -EINTR;
}

int64_t sys_h_nanosleep(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    uint64_t ns;
    int64_t r = get_timespec(s, a[0], &ns);
    if (r) return r;
    return sleep_or_signal(s, c, ns, a[1]);
}

int64_t sys_h_clock_nanosleep(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int clock = (int)a[0];
    if (!clock_valid((int64_t)a[0]) || clock == L_CLOCK_THREAD_CPUTIME) return -EINVAL;
    uint64_t ns;
    int64_t r = get_timespec(s, a[2], &ns);
    if (r) return r;
    bool absolute = a[1] & 1;                    /* TIMER_ABSTIME */
    if (absolute) {
        uint64_t now = clock_ns(s, c, clock);
        ns = ns > now ? ns - now : 0;
    }
    return sleep_or_signal(s, c, ns, absolute ? 0 : a[3]);
}

/* Nanoseconds in clock ticks of the ABI's USER_HZ (100, Alpha 1024). */
static uint64_t ns_to_ticks(const sys_t *s, uint64_t ns)
{
    uint64_t hz = s->abi->clock_tick_hz ? s->abi->clock_tick_hz : 100;
    return (uint64_t)((unsigned __int128)ns * hz / 1000000000u);
}

/* struct tms: four clock_t; returns ticks since boot. */
int64_t sys_h_times(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    uint64_t cpu_ticks = ns_to_ticks(s, clock_ns(s, c, L_CLOCK_PROCESS_CPUTIME));
    if (a[0]) {
        uint8_t b[32] = {0};
        sys_put(b, 0, cpu_ticks, 8);
        if (!copy_out(s, a[0], b, sizeof b)) return -EFAULT;
    }
    return (int64_t)ns_to_ticks(s, clock_ns(s, c, L_CLOCK_MONOTONIC));
}

/* struct rusage (144 bytes on 64-bit ABIs): user time from the run, the
 * rest deterministic. */
int64_t sys_h_getrusage(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int64_t who = (int64_t)a[0];
    if (who != 0 && who != -1 && who != 1) return -EINVAL;   /* SELF, CHILDREN, THREAD */
    uint8_t b[144] = {0};
    if (who != -1) {
        uint64_t ns = clock_ns(s, c, L_CLOCK_PROCESS_CPUTIME);
        sys_put(b, 0, ns / 1000000000ull, 8);
        sys_put(b, 8, ns % 1000000000ull / 1000, 8);
        sys_put(b, 32, s->mem->pages_touched * (GUEST_PAGE_SIZE / 1024), 8); /* maxrss KiB */
    }
    return copy_out(s, a[1], b, sizeof b) ? 0 : -EFAULT;
}

/* struct sysinfo, 64-bit layout (112 bytes). */
int64_t sys_h_sysinfo(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    uint8_t b[112] = {0};
    sys_put(b, 0, clock_ns(s, c, L_CLOCK_BOOTTIME) / 1000000000ull, 8);   /* uptime */
    sys_put(b, 32, 4ull << 30, 8);                                       /* totalram */
    sys_put(b, 40, 3ull << 30, 8);                                       /* freeram */
    sys_put(b, 80, 1, 2);                                                /* procs */
    sys_put(b, 104, 1, 4);                                               /* mem_unit */
    return copy_out(s, a[0], b, sizeof b) ? 0 : -EFAULT;
}

/* ---- randomness, scheduling, futexes ------------------------------------- */

int64_t sys_h_getrandom(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    uint64_t len = a[1] > MAX_IO ? MAX_IO : a[1];
    if (a[2] & ~7ull) return -EINVAL;
    if (!range_ok(s, a[0], len, true)) return -EFAULT;
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) return -ENOMEM;
    sys_random_bytes(s, buf, len);
    mem_write(s->mem, a[0], buf, len);
    free(buf);
    return (int64_t)len;
}

/* One cpu: affinity mask with bit 0 set, written as one 64-bit word. */
int64_t sys_h_sched_getaffinity(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (!is_self(a[0]) && !sys_thread_exists(s, a[0])) return -ESRCH;
    if (a[1] < 8 || (a[1] & 7)) return -EINVAL;
    return put_u64(s, a[2], 1) ? 8 : -EFAULT;
}

int64_t sys_h_sched_setaffinity(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (!is_self(a[0]) && !sys_thread_exists(s, a[0])) return -ESRCH;
    uint64_t mask;
    if (a[1] < 8 || !get_u64(s, a[2], &mask)) return a[1] < 8 ? -EINVAL : -EFAULT;
    return mask & 1 ? 0 : -EINVAL;
}

/* ---- resource limits -------------------------------------------------------- */

/* A limit as getrlimit/setrlimit show it: RLIM_INFINITY is ~0 inside and
 * for prlimit64, the ABI's own value (Alpha: 2^63 - 1) for the old calls;
 * larger old-call values mean infinity too, as the kernel reads them. */
static uint64_t rlim_out(const sys_t *s, uint64_t v, bool old)
{
    uint64_t inf = old && s->abi->rlim_infinity ? s->abi->rlim_infinity : RLIM_INF;
    return v >= inf ? inf : v;
}

static uint64_t rlim_in(const sys_t *s, uint64_t v, bool old)
{
    uint64_t inf = old && s->abi->rlim_infinity ? s->abi->rlim_infinity : RLIM_INF;
    return v >= inf ? RLIM_INF : v;
}

static int64_t rlimit_access(sys_t *s, uint64_t gres, uint64_t new_addr, uint64_t old_addr,
                             bool old_call)
{
    int r = s->abi->rlimit_in(gres);
    if (r < 0 || r >= SYS_NRLIMIT) return -EINVAL;
    uint8_t b[16];
    uint64_t soft = 0, hard = 0;
    if (new_addr) {
        if (!copy_in(s, new_addr, b, sizeof b)) return -EFAULT;
        soft = rlim_in(s, sys_get(b, 0, 8), old_call);
        hard = rlim_in(s, sys_get(b, 8, 8), old_call);
        if (soft > hard) return -EINVAL;
        if (r == L_RLIMIT_AS && hard > s->rlimit[r][1]) return -EPERM;   /* unprivileged */
    }
    if (old_addr) {
        uint8_t o[16];
        sys_put(o, 0, rlim_out(s, s->rlimit[r][0], old_call), 8);
        sys_put(o, 8, rlim_out(s, s->rlimit[r][1], old_call), 8);
        if (!copy_out(s, old_addr, o, sizeof o)) return -EFAULT;
    }
    if (new_addr) {
        s->rlimit[r][0] = soft;
        s->rlimit[r][1] = hard;
        if (r == L_RLIMIT_AS) mem_set_rlimit_as(s->mem, soft);   /* never past --guest-mem */
    }
    return 0;
}

int64_t sys_h_prlimit64(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (!is_self(a[0])) return -ESRCH;
    return rlimit_access(s, a[1], a[2], a[3], false);
}

int64_t sys_h_getrlimit(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    return rlimit_access(s, a[0], 0, a[1], true);
}

int64_t sys_h_setrlimit(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    return rlimit_access(s, a[0], a[1], 0, true);
}

/* ---- basic I/O ---------------------------------------------------------------- */

/* read/pread into guest memory through a bounce buffer; off < 0: no offset. */
static int64_t read_into(sys_t *s, int hfd, uint64_t addr, uint64_t len, int64_t off)
{
    if (hfd < 0) return -EBADF;
    if (len > MAX_IO) len = MAX_IO;
    if (!range_ok(s, addr, len, true)) return -EFAULT;
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) return -ENOMEM;
    ssize_t n = off < 0 ? read(hfd, buf, len) : pread(hfd, buf, len, (off_t)off);
    int64_t r = host_ret(n);
    if (n > 0) mem_write(s->mem, addr, buf, (uint64_t)n);
    free(buf);
    return r;
}

/* A silent run (the baseline of an HPS overhead measurement) writes
 * nothing to the host's stdout and stderr, yet sees the same files there. */
static bool discarded(const sys_t *s, int hfd)
{
    return s->discard_output && (hfd == 1 || hfd == 2);
}

static int64_t write_from(sys_t *s, int hfd, uint64_t addr, uint64_t len, int64_t off)
{
    if (hfd < 0) return -EBADF;
    if (len > MAX_IO) len = MAX_IO;
    if (!range_ok(s, addr, len, false)) return -EFAULT;
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) return -ENOMEM;
    mem_read(s->mem, addr, buf, len);
    ssize_t n = discarded(s, hfd) ? (ssize_t)len
              : off < 0 ? write(hfd, buf, len) : pwrite(hfd, buf, len, (off_t)off);
    int64_t r = host_ret(n);
    free(buf);
    return r;
}

/* /proc/self/mem is guest memory, not a host file (procfs.c). */
static bool is_mem(const sys_t *s, uint64_t gfd) { return fd_kind(s, gfd) & SYS_FD_MEM; }

int64_t sys_h_read(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (is_mem(s, a[0])) return procfs_mem_io(s, (int)a[0], a[1], a[2], -1, false);
    return read_into(s, host_of(s, a[0]), a[1], a[2], -1);
}

int64_t sys_h_write(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (is_mem(s, a[0])) return procfs_mem_io(s, (int)a[0], a[1], a[2], -1, true);
    return write_from(s, host_of(s, a[0]), a[1], a[2], -1);
}

int64_t sys_h_pread64(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if ((int64_t)a[3] < 0) return -EINVAL;
    if (is_mem(s, a[0])) return procfs_mem_io(s, (int)a[0], a[1], a[2], (int64_t)a[3], false);
    return read_into(s, host_of(s, a[0]), a[1], a[2], (int64_t)a[3]);
}

int64_t sys_h_pwrite64(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if ((int64_t)a[3] < 0) return -EINVAL;
    if (is_mem(s, a[0])) return procfs_mem_io(s, (int)a[0], a[1], a[2], (int64_t)a[3], true);
    return write_from(s, host_of(s, a[0]), a[1], a[2], (int64_t)a[3]);
}

/* A guest iovec array (64-bit base/len pairs on both ABIs). */
typedef struct { uint64_t base, len; } giovec_t;

static int64_t get_iov(sys_t *s, uint64_t addr, uint64_t cnt, giovec_t *iov, uint64_t *total)
{
    if (cnt > MAX_IOV) return -EINVAL;
    *total = 0;
    for (uint64_t k = 0; k < cnt; k++) {
        uint8_t b[16];
        if (!copy_in(s, addr + 16 * k, b, 16)) return -EFAULT;
        iov[k].base = sys_get(b, 0, 8);
        iov[k].len = sys_get(b, 8, 8);
        if ((int64_t)iov[k].len < 0) return -EINVAL;
        if (*total + iov[k].len > MAX_IO) iov[k].len = MAX_IO - *total;
        *total += iov[k].len;
    }
    return 0;
}

/* Vectors on /proc/self/mem: one piece after another. */
static int64_t mem_vector_io(sys_t *s, const uint64_t a[6], bool out, int64_t off)
{
    if (a[2] > MAX_IOV) return -EINVAL;
    int64_t total = 0;
    for (uint64_t k = 0; k < a[2]; k++) {
        uint64_t base, len;
        if (!get_u64(s, a[1] + 16 * k, &base) || !get_u64(s, a[1] + 16 * k + 8, &len))
            return total ? total : -EFAULT;
        if (!len) continue;
        int64_t r = procfs_mem_io(s, (int)a[0], base, len, off < 0 ? -1 : off + total, out);
        if (r < 0) return total ? total : r;
        total += r;
        if ((uint64_t)r < len) break;
    }
    return total;
}

/* Scatter/gather I/O as one host transfer, so a writev stays atomic. */
static int64_t vector_io(sys_t *s, const uint64_t a[6], bool out, int64_t off)
{
    int hfd = host_of(s, a[0]);
    if (hfd < 0) return -EBADF;
    if (a[2] > MAX_IOV) return -EINVAL;
    if (is_mem(s, a[0])) return mem_vector_io(s, a, out, off);
    giovec_t *iov = malloc(sizeof *iov * (a[2] ? a[2] : 1));
    uint64_t total = 0;
    int64_t r = iov ? get_iov(s, a[1], a[2], iov, &total) : -ENOMEM;
    uint8_t *buf = r ? NULL : malloc(total ? total : 1);
    if (!r && !buf) r = -ENOMEM;
    for (uint64_t k = 0, pos = 0; !r && k < a[2]; pos += iov[k].len, k++) {
        if (!range_ok(s, iov[k].base, iov[k].len, !out)) r = -EFAULT;
        else if (out) mem_read(s->mem, iov[k].base, buf + pos, iov[k].len);
    }
    if (!r) {
        ssize_t n;
        if (out && discarded(s, hfd)) n = (ssize_t)total;
        else if (out) n = off < 0 ? write(hfd, buf, total) : pwrite(hfd, buf, total, (off_t)off);
        else n = off < 0 ? read(hfd, buf, total) : pread(hfd, buf, total, (off_t)off);
        r = host_ret(n);
        for (uint64_t k = 0, pos = 0; !out && n > 0 && pos < (uint64_t)n; k++) {
            uint64_t part = (uint64_t)n - pos < iov[k].len ? (uint64_t)n - pos : iov[k].len;
            mem_write(s->mem, iov[k].base, buf + pos, part);
            pos += part;
        }
    }
    free(buf);
    free(iov);
    return r;
}

int64_t sys_h_readv(sys_t *s, cpu_t *c, const uint64_t a[6]) { return vector_io(s, a, false, -1); }
int64_t sys_h_writev(sys_t *s, cpu_t *c, const uint64_t a[6]) { return vector_io(s, a, true, -1); }

int64_t sys_h_preadv(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    return (int64_t)a[3] < 0 ? -EINVAL : vector_io(s, a, false, (int64_t)a[3]);
}

int64_t sys_h_pwritev(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    return (int64_t)a[3] < 0 ? -EINVAL : vector_io(s, a, true, (int64_t)a[3]);
}

/* ---- files and paths ---------------------------------------------------------- */

/* How an open looks its path up: it follows a last symlink unless
 * O_NOFOLLOW or O_CREAT|O_EXCL; only a plain read may find it in a
 * sysroot. */
static unsigned open_how(int flags)
{
    bool excl = (flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL);
    bool reads = (flags & O_ACCMODE) == O_RDONLY && !(flags & (O_CREAT | O_TRUNC)) &&
                 (flags & O_TMPFILE) != O_TMPFILE;
    return (flags & O_NOFOLLOW || excl ? 0 : FS_FOLLOW) | (reads ? FS_READ : 0);
}

int64_t sys_h_openat(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int flags = s->abi->open_flags_in(a[2]);
    fs_target_t t;
    int64_t r = lookup_at(s, a[0], a[1], open_how(flags), &t);
    if (r) return r;
    int hfd = -1;
    uint8_t kind = 0;
    r = fs_open(s, c, &t, flags, (unsigned)(a[3] & 07777), &hfd, &kind);
    fs_place_t *place = r ? NULL : fs_place_new(t.mount, t.path);
    fs_target_done(&t);
    if (r) return r;
    return fd_install_at(s, hfd, flags & O_CLOEXEC, 0, place, kind);
}

int64_t sys_h_close(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (host_of(s, a[0]) < 0) return -EBADF;
    fd_release(s, (int)a[0]);
    return 0;
}

int64_t sys_h_lseek(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int hfd = host_of(s, a[0]);
    if (hfd < 0) return -EBADF;
    if (a[2] > 4 || (a[2] > 1 && is_mem(s, a[0]))) return -EINVAL;   /* SEEK_SET..SEEK_HOLE */
    static const int whence[] = { SEEK_SET, SEEK_CUR, SEEK_END, SEEK_DATA, SEEK_HOLE };
    return host_ret(lseek(hfd, (off_t)a[1], whence[a[2]]));
}

static void stat_from_host(const struct stat *h, sys_stat_t *st)
{
    memset(st, 0, sizeof *st);
    st->dev = h->st_dev;
    st->ino = h->st_ino;
    st->rdev = h->st_rdev;
    st->mode = h->st_mode;
    st->nlink = (uint32_t)h->st_nlink;
    st->uid = h->st_uid;
    st->gid = h->st_gid;
    st->size = h->st_size;
    st->blksize = h->st_blksize;
    st->blocks = h->st_blocks;
    st->atime = h->st_atim.tv_sec;
    st->atime_nsec = h->st_atim.tv_nsec;
    st->mtime = h->st_mtim.tv_sec;
    st->mtime_nsec = h->st_mtim.tv_nsec;
    st->ctime = h->st_ctim.tv_sec;
    st->ctime_nsec = h->st_ctim.tv_nsec;
}

/* Write a host stat in the guest's struct stat (wide = false) or struct
 * stat64 (wide = true) layout. */
static int64_t put_stat(sys_t *s, uint64_t addr, const struct stat *h, bool wide)
{
    sys_stat_t st;
    uint8_t buf[256];
    stat_from_host(h, &st);
    memset(buf, 0, sizeof buf);
    (wide ? s->abi->stat64_out : s->abi->stat_out)(&st, buf);
    return copy_out(s, addr, buf, wide ? s->abi->stat64_size : s->abi->stat_size)
         ? 0 : -EFAULT;
}

/* The stat of what a lookup found, into the guest's buffer. */
static int64_t stat_out(sys_t *s, fs_target_t *t, uint64_t addr, bool wide)
{
    struct stat h;
    int64_t r = fs_stat(s, t, &h);
    fs_target_done(t);
    return r ? r : put_stat(s, addr, &h, wide);
}

static int64_t do_fstat(sys_t *s, const uint64_t a[6], bool wide)
{
    fs_target_t t;
    if (host_of(s, a[0]) < 0) return -EBADF;
    int64_t r = fs_lookup(s, (int64_t)(int32_t)a[0], "", FS_EMPTY, &t);
    return r ? r : stat_out(s, &t, a[1], wide);
}

/* How a call with Linux AT_* flags g looks its path up. */
static unsigned at_how(uint64_t g, bool follow_by_default)
{
    bool follow = follow_by_default ? !(g & L_AT_SYMLINK_NOFOLLOW) : (g & L_AT_SYMLINK_FOLLOW);
    return (follow ? FS_FOLLOW : 0) | (g & L_AT_EMPTY_PATH ? FS_EMPTY : 0);
}

static int64_t do_fstatat(sys_t *s, const uint64_t a[6], bool wide)
{
    if (a[3] & ~(uint64_t)(L_AT_SYMLINK_NOFOLLOW | L_AT_NO_AUTOMOUNT | L_AT_EMPTY_PATH))
        return -EINVAL;
    fs_target_t t;
    int64_t r = lookup_at(s, a[0], a[1], at_how(a[3], true) | FS_READ, &t);
    return r ? r : stat_out(s, &t, a[2], wide);
}

int64_t sys_h_fstat(sys_t *s, cpu_t *c, const uint64_t a[6]) { return do_fstat(s, a, false); }
int64_t sys_h_newfstatat(sys_t *s, cpu_t *c, const uint64_t a[6]) { return do_fstatat(s, a, false); }

/* The struct stat64 calls of ABIs that have them (Alpha). */
int64_t sys_h_fstat64(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    return s->abi->stat64_out ? do_fstat(s, a, true) : -ENOSYS;
}

int64_t sys_h_fstatat64(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    return s->abi->stat64_out ? do_fstatat(s, a, true) : -ENOSYS;
}

/* statx: glibc falls back to newfstatat when it is missing. */
int64_t sys_h_statx(sys_t *s, cpu_t *c, const uint64_t a[6]) { return -ENOSYS; }

/* Look up, run one fs operation, release: most path calls are this. */
#define ON_PATH(s, gdir, gpath, how, t, op)                                     \
    do {                                                                        \
        int64_t r_ = lookup_at(s, gdir, gpath, how, &(t));                      \
        if (r_) return r_;                                                      \
        r_ = (op);                                                              \
        fs_target_done(&(t));                                                   \
        return r_;                                                              \
    } while (0)

static int64_t access_at(sys_t *s, const uint64_t a[6], uint64_t at_flags)
{
    if (a[2] & ~7ull) return -EINVAL;
    int host = at_flags & L_AT_EACCESS ? AT_EACCESS : 0;
    unsigned how = at_how(at_flags & ~(uint64_t)L_AT_EACCESS, true) | (a[2] & 2 ? 0 : FS_READ);
    fs_target_t t;
    ON_PATH(s, a[0], a[1], how, t, fs_access(s, &t, (int)a[2], host));
}

int64_t sys_h_faccessat(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    return access_at(s, a, 0);
}

int64_t sys_h_faccessat2(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (a[3] & ~(uint64_t)(L_AT_EACCESS | L_AT_SYMLINK_NOFOLLOW | L_AT_EMPTY_PATH))
        return -EINVAL;
    return access_at(s, a, a[3]);
}

int64_t sys_h_unlinkat(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (a[2] & ~(uint64_t)L_AT_REMOVEDIR) return -EINVAL;
    fs_target_t t;
    ON_PATH(s, a[0], a[1], 0, t, fs_unlink(&t, a[2] & L_AT_REMOVEDIR));
}

int64_t sys_h_mkdirat(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    fs_target_t t;
    ON_PATH(s, a[0], a[1], 0, t, fs_mkdir(&t, (unsigned)(a[2] & 07777)));
}

/* Two paths (rename, link): both looked up, then op. */
static int64_t two_paths(sys_t *s, const uint64_t from[2], unsigned from_how,
                         const uint64_t to[2], bool link, unsigned flags)
{
    fs_target_t f, t;
    int64_t r = lookup_at(s, from[0], from[1], from_how, &f);
    if (r) return r;
    r = lookup_at(s, to[0], to[1], 0, &t);
    if (!r) {
        r = link ? fs_link(&f, &t) : fs_rename(&f, &t, flags);
        fs_target_done(&t);
    }
    fs_target_done(&f);
    return r;
}

int64_t sys_h_renameat2(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (a[4] & ~7ull) return -EINVAL;            /* NOREPLACE, EXCHANGE, WHITEOUT */
    return two_paths(s, (const uint64_t[2]){ a[0], a[1] }, 0, (const uint64_t[2]){ a[2], a[3] },
                     false, (unsigned)a[4]);
}

int64_t sys_h_linkat(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (a[4] & ~(uint64_t)(L_AT_SYMLINK_FOLLOW | L_AT_EMPTY_PATH)) return -EINVAL;
    return two_paths(s, (const uint64_t[2]){ a[0], a[1] }, at_how(a[4], false),
                     (const uint64_t[2]){ a[2], a[3] }, true, 0);
}

int64_t sys_h_symlinkat(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    char text[PATH_MAX_GUEST];
    int64_t r = get_path(s, a[0], text);
    if (r) return r;
    fs_target_t t;
    ON_PATH(s, a[1], a[2], 0, t, fs_symlink(text, &t));
}

int64_t sys_h_readlinkat(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if ((int64_t)a[3] <= 0) return -EINVAL;
    char buf[PATH_MAX_GUEST];
    fs_target_t t;
    int64_t r = lookup_at(s, a[0], a[1], FS_READ | FS_EMPTY, &t);
    if (r) return r;
    r = fs_readlink(s, &t, buf, sizeof buf);
    fs_target_done(&t);
    if (r < 0) return r;
    if ((uint64_t)r > a[3]) r = (int64_t)a[3];
    return copy_out(s, a[2], buf, (uint64_t)r) ? r : -EFAULT;
}

/* The raw syscall returns the length including the NUL. */
int64_t sys_h_getcwd(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    const char *cwd = s->cwd->path;
    uint64_t len = strlen(cwd) + 1;
    if (len > a[1]) return -ERANGE;
    return copy_out(s, a[0], cwd, len) ? (int64_t)len : -EFAULT;
}

int64_t sys_h_chdir(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    fs_target_t t;
    ON_PATH(s, LINUX_AT_FDCWD, a[0], FS_FOLLOW, t, fs_chdir(s, &t));
}

int64_t sys_h_fchdir(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    fs_target_t t;
    if (host_of(s, a[0]) < 0) return -EBADF;
    int64_t r = fs_lookup(s, (int64_t)(int32_t)a[0], "", FS_EMPTY, &t);
    if (!r) r = fs_chdir(s, &t);
    fs_target_done(&t);
    return r;
}

int64_t sys_h_umask(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    return umask((mode_t)(a[0] & 0777));
}

/* A change through an fd: refused on a read-only mount and in /proc. */
static int64_t fd_change(const sys_t *s, uint64_t gfd)
{
    uint8_t k = fd_kind(s, gfd);
    return k & SYS_FD_PROC ? -EPERM : k & SYS_FD_RO ? -EROFS : 0;
}

int64_t sys_h_fchmod(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int hfd = host_of(s, a[0]);
    if (hfd < 0) return -EBADF;
    int64_t r = fd_change(s, a[0]);
    return r ? r : host_ret(fchmod(hfd, (mode_t)(a[1] & 07777)));
}

int64_t sys_h_fchmodat(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    fs_target_t t;
    ON_PATH(s, a[0], a[1], FS_FOLLOW, t, fs_chmod(&t, (unsigned)(a[2] & 07777)));
}

int64_t sys_h_fchown(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int hfd = host_of(s, a[0]);
    if (hfd < 0) return -EBADF;
    int64_t r = fd_change(s, a[0]);
    return r ? r : host_ret(fchown(hfd, (uid_t)a[1], (gid_t)a[2]));
}

int64_t sys_h_fchownat(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (a[4] & ~(uint64_t)(L_AT_SYMLINK_NOFOLLOW | L_AT_EMPTY_PATH)) return -EINVAL;
    fs_target_t t;
    ON_PATH(s, a[0], a[1], at_how(a[4], true), t, fs_chown(&t, (uint32_t)a[2], (uint32_t)a[3]));
}

int64_t sys_h_ftruncate(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int hfd = host_of(s, a[0]);
    if (hfd < 0) return -EBADF;
    if (fd_kind(s, a[0]) & SYS_FD_PROC) return -EINVAL;
    return host_ret(ftruncate(hfd, (off_t)a[1]));
}

int64_t sys_h_truncate(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    fs_target_t t;
    ON_PATH(s, LINUX_AT_FDCWD, a[0], FS_FOLLOW, t, fs_truncate(&t, (int64_t)a[1]));
}

int64_t sys_h_fsync(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int hfd = host_of(s, a[0]);
    return hfd < 0 ? -EBADF : host_ret(fsync(hfd));
}

int64_t sys_h_fadvise64(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    return host_of(s, a[0]) < 0 ? -EBADF : 0;
}

/* struct linux_dirent64 has the same layout on every Linux ABI, so the
 * host's records are copied as they are. */
int64_t sys_h_getdents64(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int hfd = host_of(s, a[0]);
    if (hfd < 0) return -EBADF;
    uint8_t kind = fd_kind(s, a[0]);
    if ((kind & SYS_FD_PROC) && !(kind & SYS_FD_PROCDIR)) return -ENOTDIR;
    uint64_t len = a[2] > MAX_IO ? MAX_IO : a[2];
    if (!range_ok(s, a[1], len, true)) return -EFAULT;
    uint8_t *buf = malloc(len ? len : 1);
    if (!buf) return -ENOMEM;
    ssize_t n = kind & SYS_FD_PROCDIR ? procfs_getdents(s, (int)a[0], buf, len)
                                      : getdents64(hfd, buf, len);
    int64_t r = kind & SYS_FD_PROCDIR ? n : host_ret(n);
    if (n > 0) mem_write(s->mem, a[1], buf, (uint64_t)n);
    free(buf);
    return r;
}

/* Two 64-bit timespecs; UTIME_NOW/UTIME_OMIT are the same on every ABI. */
int64_t sys_h_utimensat(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    struct timespec ts[2], *tsp = NULL;
    if (a[2]) {
        uint8_t b[32];
        if (!copy_in(s, a[2], b, sizeof b)) return -EFAULT;
        for (int k = 0; k < 2; k++) {
            ts[k].tv_sec = (time_t)sys_get(b, 16 * k, 8);
            int64_t ns = (int64_t)sys_get(b, 16 * k + 8, 8);
            ts[k].tv_nsec = ns == (1l << 30) - 1 ? UTIME_NOW : ns == (1l << 30) - 2 ? UTIME_OMIT
                          : (long)ns;
        }
        tsp = ts;
    }
    if (!a[1]) {                                 /* futimens(dirfd) */
        int hfd = host_of(s, a[0]);
        if (hfd < 0) return -EBADF;
        int64_t r = fd_change(s, a[0]);
        return r ? r : host_ret(futimens(hfd, tsp));
    }
    if (a[3] & ~(uint64_t)(L_AT_SYMLINK_NOFOLLOW | L_AT_EMPTY_PATH)) return -EINVAL;
    fs_target_t t;
    ON_PATH(s, a[0], a[1], at_how(a[3], true), t, fs_utimens(&t, tsp));
}

/* ---- descriptor control ------------------------------------------------------- */

static void termios_from_host(const struct termios *h, sys_termios_t *t)
{
    memset(t, 0, sizeof *t);
    t->iflag = h->c_iflag;
    t->oflag = h->c_oflag;
    t->cflag = h->c_cflag;
    t->lflag = h->c_lflag;
    t->line = h->c_line;
    for (int k = 0; k < SYS_NCCS && k < NCCS; k++) t->cc[k] = h->c_cc[k];
}

static int64_t ioctl_tcsets(sys_t *s, int hfd, uint64_t addr, int when)
{
    uint8_t buf[128];
    sys_termios_t t;
    struct termios h;
    if (tcgetattr(hfd, &h) < 0) return host_err();
    if (!copy_in(s, addr, buf, s->abi->termios_size)) return -EFAULT;
    s->abi->termios_in(buf, &t);
    h.c_iflag = t.iflag;
    h.c_oflag = t.oflag;
    h.c_cflag = t.cflag;
    h.c_lflag = t.lflag;
    h.c_line = t.line;
    for (int k = 0; k < SYS_NCCS && k < NCCS; k++) h.c_cc[k] = t.cc[k];
    return host_ret(tcsetattr(hfd, when, &h));
}

/* Terminal ioctls on the host fd.  Requests the ABI does not know get
 * -ENOTTY, as Linux answers for requests a driver does not implement. */
int64_t sys_h_ioctl(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int hfd = host_of(s, a[0]);
    if (hfd < 0) return -EBADF;
    switch (s->abi->ioctl_in(a[1])) {
    case SYS_IOCTL_TCGETS: {
        struct termios h;
        sys_termios_t t;
        uint8_t buf[128];
        if (tcgetattr(hfd, &h) < 0) return host_err();
        termios_from_host(&h, &t);
        memset(buf, 0, sizeof buf);
        s->abi->termios_out(&t, buf);
        return copy_out(s, a[2], buf, s->abi->termios_size) ? 0 : -EFAULT;
    }
    case SYS_IOCTL_TCSETS:  return ioctl_tcsets(s, hfd, a[2], TCSANOW);
    case SYS_IOCTL_TCSETSW: return ioctl_tcsets(s, hfd, a[2], TCSADRAIN);
    case SYS_IOCTL_TCSETSF: return ioctl_tcsets(s, hfd, a[2], TCSAFLUSH);
    case SYS_IOCTL_TIOCGWINSZ: {                 /* struct winsize: four u16 */
        struct winsize w;
        uint8_t b[8];
        if (ioctl(hfd, TIOCGWINSZ, &w) < 0) return host_err();
        sys_put(b, 0, w.ws_row, 2);
        sys_put(b, 2, w.ws_col, 2);
        sys_put(b, 4, w.ws_xpixel, 2);
        sys_put(b, 6, w.ws_ypixel, 2);
        return copy_out(s, a[2], b, sizeof b) ? 0 : -EFAULT;
    }
    case SYS_IOCTL_TIOCSWINSZ: {
        struct winsize w;
        uint8_t b[8];
        if (!copy_in(s, a[2], b, sizeof b)) return -EFAULT;
        w.ws_row = (unsigned short)sys_get(b, 0, 2);
        w.ws_col = (unsigned short)sys_get(b, 2, 2);
        w.ws_xpixel = (unsigned short)sys_get(b, 4, 2);
        w.ws_ypixel = (unsigned short)sys_get(b, 6, 2);
        return host_ret(ioctl(hfd, TIOCSWINSZ, &w));
    }
    case SYS_IOCTL_FIONREAD: {
        int n;
        if (ioctl(hfd, FIONREAD, &n) < 0) return host_err();
        return put_u32(s, a[2], (uint32_t)n) ? 0 : -EFAULT;
    }
    case SYS_IOCTL_FIONBIO: {
        uint8_t b[4];
        if (!copy_in(s, a[2], b, 4)) return -EFAULT;
        int on = sys_get(b, 0, 4) != 0;
        return host_ret(ioctl(hfd, FIONBIO, &on));
    }
    case SYS_IOCTL_TIOCGPGRP:
        if (!isatty(hfd)) return -ENOTTY;
        return put_u32(s, a[2], SYS_GUEST_PID) ? 0 : -EFAULT;
    default:
        return -ENOTTY;
    }
}

enum { L_F_DUPFD = 0, L_F_GETFD = 1, L_F_SETFD = 2, L_F_GETFL = 3, L_F_SETFL = 4,
       L_F_DUPFD_CLOEXEC = 1030 };

/* Duplicate guest fd g onto the lowest free guest number >= min. */
static int64_t dup_from(sys_t *s, int g, int64_t min, bool cloexec)
{
    int nfd = dup(s->host_fd[g]);
    if (nfd < 0) return host_err();
    return fd_install_at(s, nfd, cloexec, min, place_copy(s, g), s->fd_flags[g]);
}

int64_t sys_h_fcntl(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int hfd = host_of(s, a[0]);
    int g = (int)a[0];
    if (hfd < 0) return -EBADF;
    if ((a[1] == L_F_DUPFD || a[1] == L_F_DUPFD_CLOEXEC) && (int32_t)a[2] < 0) return -EINVAL;
    switch (a[1]) {
    case L_F_DUPFD:         return dup_from(s, g, (int64_t)(int32_t)a[2], false);
    case L_F_DUPFD_CLOEXEC: return dup_from(s, g, (int64_t)(int32_t)a[2], true);
    case L_F_GETFD:         return s->fd_flags[g] & SYS_FD_CLOEXEC ? 1 : 0;
    case L_F_SETFD:
        s->fd_flags[g] = (uint8_t)((s->fd_flags[g] & ~SYS_FD_CLOEXEC) |
                                   (a[2] & 1 ? SYS_FD_CLOEXEC : 0));
        return 0;
    case L_F_GETFL: {
        int fl = fcntl(hfd, F_GETFL);
        return fl < 0 ? host_err() : (int64_t)s->abi->open_flags_out(fl);
    }
    case L_F_SETFL:
        return host_ret(fcntl(hfd, F_SETFL, s->abi->open_flags_in(a[2])));
    default:
        return -EINVAL;
    }
}

int64_t sys_h_dup(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int hfd = host_of(s, a[0]);
    return hfd < 0 ? -EBADF : dup_from(s, (int)a[0], 0, false);
}

int64_t sys_h_dup3(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int hfd = host_of(s, a[0]);
    int32_t to = (int32_t)a[1];
    if (hfd < 0) return -EBADF;
    if (to < 0 || to >= SYS_MAX_FDS) return -EBADF;
    int flags = s->abi->open_flags_in(a[2]);
    if (flags & ~O_CLOEXEC || (int32_t)a[0] == to) return -EINVAL;
    int nfd = dup(hfd);
    if (nfd < 0) return host_err();
    fs_place_t *place = place_copy(s, (int)a[0]);
    uint8_t kind = s->fd_flags[(int32_t)a[0]] & SYS_FD_KIND;
    if (s->host_fd[to] >= 0) fd_release(s, to);
    s->host_fd[to] = nfd;
    s->fd_flags[to] = SYS_FD_OWNED | (flags & O_CLOEXEC ? SYS_FD_CLOEXEC : 0) | kind;
    s->fd_place[to] = place;
    return to;
}

int64_t sys_open_pipe(sys_t *s, uint64_t guest_flags, int64_t gfd[2])
{
    int flags = s->abi->open_flags_in(guest_flags);
    int fds[2];
    if (flags & ~(O_CLOEXEC | O_NONBLOCK | O_DIRECT)) return -EINVAL;
    if (pipe2(fds, flags) < 0) return host_err();
    gfd[0] = fd_install(s, fds[0], flags & O_CLOEXEC, 0);
    if (gfd[0] < 0) { close(fds[1]); return gfd[0]; }
    gfd[1] = fd_install(s, fds[1], flags & O_CLOEXEC, 0);
    if (gfd[1] < 0) { fd_release(s, (int)gfd[0]); return gfd[1]; }
    return 0;
}

int64_t sys_h_pipe2(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int64_t fds[2];
    if (!range_ok(s, a[0], 8, true)) return -EFAULT;
    int64_t r = sys_open_pipe(s, a[1], fds);
    if (r) return r;
    uint8_t b[8];
    sys_put(b, 0, (uint64_t)fds[0], 4);
    sys_put(b, 4, (uint64_t)fds[1], 4);
    mem_write(s->mem, a[0], b, sizeof b);
    return 0;
}

/* ---- memory ------------------------------------------------------------------- */

static uint64_t page_up(const sys_t *s, uint64_t v)
{
    uint64_t ps = s->abi->page_size;
    return (v + ps - 1) & ~(ps - 1);
}

static bool page_aligned(const sys_t *s, uint64_t v) { return !(v & (s->abi->page_size - 1)); }

/* PROT_* (the same on every Linux ABI) -> MEM_PROT_*.  Write implies read,
 * as on RISC-V hardware. */
static int prot_in(uint64_t prot)
{
    int p = 0;
    if (prot & 1) p |= MEM_PROT_READ;
    if (prot & 2) p |= MEM_PROT_WRITE | MEM_PROT_READ;
    if (prot & 4) p |= MEM_PROT_EXEC;
    return p;
}

static bool range_in_space(uint64_t addr, uint64_t len)
{
    return addr + len >= addr && addr + len <= (1ull << GUEST_ADDR_BITS) && addr >= 0x1000;
}

static bool range_free(sys_t *s, uint64_t addr, uint64_t len)
{
    if (!range_in_space(addr, len)) return false;
    for (uint64_t p = addr; p < addr + len; p += GUEST_PAGE_SIZE)
        if (mem_is_mapped(s->mem, p)) return false;
    return true;
}

/* Would mapping [addr, addr+len) take the guest over its address-space
 * limit (--guest-mem, RLIMIT_AS)?  Pages it maps already do not count
 * twice, as in Linux's may_expand_vm. */
static bool over_limit(const sys_t *s, uint64_t addr, uint64_t len)
{
    return !mem_fits(s->mem, mem_unmapped_bytes(s->mem, addr, len));
}

static bool range_mapped(sys_t *s, uint64_t addr, uint64_t len)
{
    for (uint64_t p = addr; p < addr + len; p += GUEST_PAGE_SIZE)
        if (!mem_is_mapped(s->mem, p)) return false;
    return true;
}

/* The lowest free, ABI-page-aligned range of len bytes in the mmap area
 * (Linux's legacy bottom-up layout), or 0. */
static uint64_t find_free_up(sys_t *s, uint64_t len)
{
    uint64_t ps = s->abi->page_size;
    for (uint64_t a = s->mmap_bottom; a + len > a && a + len <= s->mmap_top;) {
        uint64_t p = a;
        while (p < a + len && !mem_is_mapped(s->mem, p)) p += GUEST_PAGE_SIZE;
        if (p >= a + len) return a;
        a = (p + GUEST_PAGE_SIZE + ps - 1) & ~(ps - 1);   /* past the mapped page */
    }
    return 0;
}

/* Where a new mapping of len bytes goes: the hint if it is free, else the
 * first free range from the bottom or the top of the mmap area (as the
 * ABI's layout says).  0 if there is no room. */
static uint64_t place_mapping(sys_t *s, uint64_t hint, uint64_t len)
{
    uint64_t ps = s->abi->page_size;
    if (hint && page_aligned(s, hint) && range_free(s, hint, len)) return hint;
    if (s->mmap_bottom_up) return find_free_up(s, len);
    uint64_t slack = ps > GUEST_PAGE_SIZE ? ps - GUEST_PAGE_SIZE : 0;
    uint64_t r = mem_find_free(s->mem, len + slack, s->mmap_bottom, s->mmap_top);
    if (!r) return 0;
    return (r + slack) & ~(ps - 1);
}

uint64_t sys_map_code(sys_t *s, const void *code, uint64_t len)
{
    uint64_t size = page_up(s, len);
    uint64_t where = place_mapping(s, 0, size);
    if (!where || over_limit(s, where, size) ||
        !mem_map(s->mem, where, size, MEM_PROT_READ | MEM_PROT_EXEC))
        return 0;
    mem_write(s->mem, where, code, len);
    procfs_note_map(s, where, size, -1, NULL, 0);
    return where;
}

int64_t sys_h_brk(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    uint64_t want = a[0];
    if (want < s->brk_start) return (int64_t)s->brk_cur;
    uint64_t old_top = page_up(s, s->brk_cur), new_top = page_up(s, want);
    if (new_top > old_top) {
        if (over_limit(s, old_top, new_top - old_top) ||
            !range_free(s, old_top, new_top - old_top) ||
            !mem_map(s->mem, old_top, new_top - old_top, MEM_PROT_READ | MEM_PROT_WRITE))
            return (int64_t)s->brk_cur;
    } else if (new_top < old_top) {
        mem_unmap(s->mem, new_top, old_top - new_top);
    }
    s->brk_cur = want;
    return (int64_t)want;
}

/* Fill a fresh private file mapping from the file at off. */
static int64_t map_file(sys_t *s, int hfd, uint64_t where, uint64_t len, uint64_t off)
{
    enum { CHUNK = 1 << 20 };
    uint8_t *buf = malloc(CHUNK);
    if (!buf) return -ENOMEM;
    for (uint64_t done = 0; done < len;) {
        uint64_t want = len - done < CHUNK ? len - done : CHUNK;
        ssize_t n = pread(hfd, buf, want, (off_t)(off + done));
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) { int64_t r = host_err(); free(buf); return r; }
        if (n == 0) break;                        /* past EOF: zero pages */
        mem_write(s->mem, where + done, buf, (uint64_t)n);
        done += (uint64_t)n;
    }
    free(buf);
    return 0;
}

int64_t sys_h_mmap(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    uint64_t addr = a[0], len = a[1], prot = a[2], off = a[5];
    unsigned f = s->abi->mmap_flags_in(a[3]);
    if ((f & SYS_MAP_UNKNOWN) || !len || !page_aligned(s, off) || (prot & ~7ull))
        return -EINVAL;
    uint64_t size = page_up(s, len);
    if (size < len) return -ENOMEM;
    int hfd = -1;
    if (!(f & SYS_MAP_ANON)) {
        hfd = host_of(s, a[4]);
        if (hfd < 0) return -EBADF;
        if (fd_kind(s, a[4]) & SYS_FD_PROC) return -ENODEV;   /* /proc files: no mmap */
        int fl = fcntl(hfd, F_GETFL);
        if (fl < 0 || (fl & O_ACCMODE) == O_WRONLY) return -EACCES;
        if ((f & SYS_MAP_SHARED) && (prot & 2)) {
            if ((fl & O_ACCMODE) != O_RDWR) return -EACCES;
            /* writes would have to reach the file: not emulated */
            cpu_stop(c, STOP_BAD_SYSCALL, cpu_get(c, s->abi->nr_reg));
        }
    }
    uint64_t where;
    if (f & (SYS_MAP_FIXED | SYS_MAP_FIXED_NOREPLACE)) {
        if (!page_aligned(s, addr)) return -EINVAL;
        if (!range_in_space(addr, size)) return -ENOMEM;
        if ((f & SYS_MAP_FIXED_NOREPLACE) && !(f & SYS_MAP_FIXED) && !range_free(s, addr, size))
            return -EEXIST;
        where = addr;
    } else {
        if (size > s->mem->guest_limit) return -ENOMEM;     /* never fits: no search */
        where = place_mapping(s, addr, size);
        if (!where) return -ENOMEM;
    }
    if (over_limit(s, where, size)) return -ENOMEM;
    if (!mem_map(s->mem, where, size, prot_in(prot))) return -ENOMEM;
    if (hfd >= 0) {
        int64_t r = map_file(s, hfd, where, size, off);
        if (r) { mem_unmap(s->mem, where, size); return r; }
        if ((prot & 4) && s->on_exec_map)
            s->on_exec_map(s->on_exec_map_ctx, hfd, where, size, off);
    }
    procfs_note_map(s, where, size, hfd, hfd >= 0 && s->fd_place[(int32_t)a[4]]
                    ? s->fd_place[(int32_t)a[4]]->path : NULL, off);   /* names in maps */
    return (int64_t)where;
}

int64_t sys_h_munmap(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (!page_aligned(s, a[0]) || !a[1] || !range_in_space(a[0], a[1])) return -EINVAL;
    mem_unmap(s->mem, a[0], page_up(s, a[1]));
    procfs_note_map(s, a[0], page_up(s, a[1]), -1, NULL, 0);
    return 0;
}

enum { L_PROT_GROWSDOWN = 0x01000000, L_PROT_GROWSUP = 0x02000000 };

/* PROT_EXEC takes effect at once: the decoded instructions of a page that
 * loses it are dropped, and stores to code drop theirs (mem.c), so code
 * written and then made executable (or written on an executable stack)
 * runs as written.  PROT_GROWSDOWN (glibc making the stack executable)
 * extends the change down to the bottom of the mapping. */
int64_t sys_h_mprotect(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    uint64_t grow = a[2] & (L_PROT_GROWSDOWN | L_PROT_GROWSUP);
    if (!page_aligned(s, a[0]) || (a[2] & ~7ull & ~grow) || grow == (L_PROT_GROWSDOWN |
        L_PROT_GROWSUP))
        return -EINVAL;
    uint64_t start = a[0], len = page_up(s, a[1]);
    if (!len) return 0;
    if (!range_in_space(start, len) || !range_mapped(s, start, len)) return -ENOMEM;
    if (grow & L_PROT_GROWSDOWN)
        while (start >= GUEST_PAGE_SIZE && mem_is_mapped(s->mem, start - GUEST_PAGE_SIZE)) {
            start -= GUEST_PAGE_SIZE;
            len += GUEST_PAGE_SIZE;
        }
    return mem_protect(s->mem, start, len, prot_in(a[2] & 7)) ? 0 : -ENOMEM;
}

enum { L_MREMAP_MAYMOVE = 1, L_MREMAP_FIXED = 2, L_MREMAP_DONTUNMAP = 4 };

/* MREMAP_FIXED: as Linux, the destination is unmapped (and a shrinking
 * source cut) before the address-space limit is checked. */
static int64_t remap_fixed(sys_t *s, uint64_t old, uint64_t old_len, uint64_t new_len,
                           uint64_t to, uint64_t flags, int prot)
{
    if (!page_aligned(s, to) || !range_in_space(to, new_len) ||
        (to < old + old_len && old < to + new_len))
        return -EINVAL;
    mem_unmap(s->mem, to, new_len);
    bool keep = flags & L_MREMAP_DONTUNMAP;
    if (!keep && old_len > new_len) {
        mem_unmap(s->mem, old + new_len, old_len - new_len);
        old_len = new_len;
    }
    if (!mem_fits(s->mem, keep ? new_len : new_len > old_len ? new_len - old_len : 0))
        return -ENOMEM;
    mem_move(s->mem, old, old_len, to, new_len, prot, keep);
    procfs_note_map(s, to, new_len, -1, NULL, 0);
    return (int64_t)to;
}

/* mremap: shrink in place, grow in place, move (MAYMOVE), move to a given
 * place (FIXED), move and leave the source mapped and empty (DONTUNMAP,
 * same length).  Growth counts against the address-space limit as in
 * Linux: the new length less the old, or all of it when the source stays. */
int64_t sys_h_mremap(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    uint64_t old = a[0], flags = a[3], to = a[4];
    uint64_t old_len = page_up(s, a[1]), new_len = page_up(s, a[2]);
    bool keep = flags & L_MREMAP_DONTUNMAP;
    if (!page_aligned(s, old) || (flags & ~7ull) || !new_len || !old_len ||
        ((flags & (L_MREMAP_FIXED | L_MREMAP_DONTUNMAP)) && !(flags & L_MREMAP_MAYMOVE)) ||
        (keep && old_len != new_len))
        return -EINVAL;
    if (!range_in_space(old, old_len) || !range_mapped(s, old, old_len)) return -EFAULT;
    int prot = mem_page(s->mem, old)->prot;
    if (flags & L_MREMAP_FIXED) return remap_fixed(s, old, old_len, new_len, to, flags, prot);
    uint64_t growth = keep ? new_len : new_len > old_len ? new_len - old_len : 0;
    if (!mem_fits(s->mem, growth)) return -ENOMEM;
    if (!keep && new_len <= old_len) {
        if (new_len < old_len) mem_unmap(s->mem, old + new_len, old_len - new_len);
        return (int64_t)old;
    }
    if (!keep && range_free(s, old + old_len, new_len - old_len) &&
        old + new_len <= s->mmap_top) {
        mem_map(s->mem, old + old_len, new_len - old_len, prot);
        return (int64_t)old;
    }
    if (!(flags & L_MREMAP_MAYMOVE)) return -ENOMEM;
    uint64_t where = place_mapping(s, 0, new_len);
    if (!where) return -ENOMEM;
    mem_move(s->mem, old, old_len, where, new_len, prot, keep);
    procfs_note_map(s, where, new_len, -1, NULL, 0);
    return (int64_t)where;
}

/* MADV_DONTNEED must drop private pages (they read back as zero); other
 * advice is only a hint. */
int64_t sys_h_madvise(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (!page_aligned(s, a[0])) return -EINVAL;
    uint64_t len = page_up(s, a[1]);
    if (a[2] != s->abi->madv_dontneed || !len) return 0;
    if (!range_in_space(a[0], len) || !range_mapped(s, a[0], len)) return -ENOMEM;
    for (uint64_t p = a[0]; p < a[0] + len; p += GUEST_PAGE_SIZE)
        mem_map(s->mem, p, GUEST_PAGE_SIZE, mem_page(s->mem, p)->prot);
    return 0;
}

int64_t sys_h_msync(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    return page_aligned(s, a[0]) ? 0 : -EINVAL;
}

int64_t sys_h_mlock(sys_t *s, cpu_t *c, const uint64_t a[6]) { return 0; }

int64_t sys_h_riscv_flush_icache(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    mem_flush_decoded(s->mem);
    return 0;
}
