/*
 * test_syscall_alpha.c - unit tests of the Linux/Alpha system-call ABI:
 * the number in v0 (r0), arguments in a0..a5 (r16..r21), the result in v0
 * with the error flag a3 (r19) and a positive Alpha errno, the calls that
 * return a second value in a4 (r20), Alpha's struct stat and stat64,
 * flag encodings (O_*, MAP_*, signals, RLIMIT_*, ioctl requests and the
 * termios layout), osf_getsysinfo / osf_setsysinfo and the FPCR, and that
 * every handler RISC-V has is reachable under some Alpha number.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "alpha_fp.h"
#include "core.h"
#include "mem.h"
#include "sys.h"

/* Alpha syscall numbers (arch/alpha/kernel/syscalls/syscall.tbl) */
enum {
    NR_exit = 1, NR_read = 3, NR_write = 4, NR_close = 6, NR_unlink = 10, NR_brk = 17,
    NR_getxpid = 20, NR_getxuid = 24, NR_access = 33, NR_kill = 37, NR_pipe = 42,
    NR_open = 45, NR_getxgid = 47, NR_ioctl = 54, NR_getpagesize = 64, NR_stat = 67,
    NR_mmap = 71, NR_munmap = 73, NR_dup2 = 90, NR_fstat = 91, NR_fcntl = 92,
    NR_rmdir = 137, NR_getrlimit = 144, NR_osf_getsysinfo = 256, NR_osf_setsysinfo = 257,
    NR_times = 323, NR_uname = 339, NR_rt_sigaction = 352, NR_rt_sigprocmask = 353,
    NR_futex = 394, NR_exit_group = 405, NR_tgkill = 424, NR_stat64 = 425,
    NR_lstat64 = 426, NR_fstat64 = 427, NR_openat = 450, NR_fstatat64 = 455,
    NR_prlimit64 = 496, NR_statx = 522
};

/* Alpha errno values that differ from the generic ones */
enum { A_EAGAIN = 35, A_ENOTEMPTY = 66, A_ENOSYS = 78, A_EOPNOTSUPP = 45, A_ENOMEM = 12,
       A_EBADF = 9, A_ENOENT = 2, A_EEXIST = 17, A_ENOTTY = 25, A_EINVAL = 22 };

/* Alpha O_* */
enum { A_O_WRONLY = 1, A_O_RDWR = 2, A_O_NONBLOCK = 04, A_O_APPEND = 010, A_O_CREAT = 01000,
       A_O_EXCL = 04000, A_O_NOCTTY = 010000 };

#define AT_FDCWD_G   ((uint64_t)-100)
#define SCRATCH      0x100000ull
#define SCRATCH_LEN  0x10000ull

typedef struct env {
    mem_t *mem;
    cpu_t cpu;
    sys_t *sys;
    char dir[64];
} env_t;

static int setup(void **state)
{
    env_t *e = calloc(1, sizeof *e);
    e->mem = mem_new();
    cpu_init(&e->cpu, &isa_alpha, e->mem);
    al_fp_init(&e->cpu);
    sys_config_t cfg = { .seed = 1, .epoch_sec = 1700000000ull,
                         .insts_per_sec = 1000000000ull, .host_time = false };
    e->sys = sys_new(e->mem, &sys_abi_alpha, &cfg);
    e->cpu.sys = e->sys;
    sys_set_brk(e->sys, 0x200000);
    sys_set_mmap_area(e->sys, 0x20000000000ull, 0x40000000000ull, true);
    mem_map(e->mem, SCRATCH, SCRATCH_LEN, MEM_PROT_READ | MEM_PROT_WRITE);
    strcpy(e->dir, "/tmp/hps-sysalpha-XXXXXX");
    assert_non_null(mkdtemp(e->dir));
    *state = e;
    return 0;
}

static int teardown(void **state)
{
    env_t *e = *state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", e->dir);
    if (system(cmd) != 0) return -1;
    sys_free(e->sys);
    mem_free(e->mem);
    free(e);
    return 0;
}

/* callsys with v0 = nr and a0..a5; returns v0 (a3 says whether it is an
 * errno). */
#define CALL(e, nr, ...) call_v(e, nr, (uint64_t[6]){ __VA_ARGS__ })
static int64_t call_v(env_t *e, uint64_t nr, const uint64_t a[6])
{
    for (int k = 0; k < 6; k++) e->cpu.reg[16 + k] = a[k];
    e->cpu.reg[0] = nr;
    sys_call(e->sys, &e->cpu);
    return (int64_t)e->cpu.reg[0];
}

static uint64_t a3(const env_t *e) { return e->cpu.reg[19]; }
static uint64_t a4(const env_t *e) { return e->cpu.reg[20]; }

/* Expect the last call to have failed with Alpha errno `want`. */
static void expect_err(const env_t *e, int64_t v0, int want)
{
    assert_int_equal(a3(e), 1);
    assert_int_equal(v0, want);
}

static void expect_ok(const env_t *e) { assert_int_equal(a3(e), 0); }

static uint64_t put_str(env_t *e, uint64_t off, const char *s)
{
    assert_true(mem_write(e->mem, SCRATCH + off, s, strlen(s) + 1));
    return SCRATCH + off;
}

static uint64_t rd(env_t *e, uint64_t addr, unsigned size)
{
    uint64_t v = 0;
    assert_true(mem_read(e->mem, addr, &v, size));
    return v;
}

static void wr(env_t *e, uint64_t addr, uint64_t v, unsigned size)
{
    assert_true(mem_write(e->mem, addr, &v, size));
}

/* Run a call expected to stop the cpu (exit, signal); returns the reason. */
/* The call, then the instruction boundary after it, where the signals
 * it sent are delivered. */
static stop_reason_t call_stops(env_t *e, uint64_t nr, uint64_t a0, uint64_t a1, uint64_t a2)
{
    jmp_buf jb;
    e->cpu.stop_jmp = &jb;
    e->cpu.stop = STOP_NONE;
    if (setjmp(jb) == 0) {
        CALL(e, nr, a0, a1, a2);
        e->cpu.stop_jmp = NULL;
        return sys_signal_boundary(e->sys, &e->cpu);   /* as the run loop, after the call */
    }
    e->cpu.stop_jmp = NULL;
    return e->cpu.stop;
}

/* ---- the table ------------------------------------------------------------ */

static void test_numbers(void **state)
{
    (void)state;
    const sys_abi_t *abi = &sys_abi_alpha;
    for (unsigned k = 1; k < abi->table_size; k++)
        assert_true(abi->table[k - 1].nr < abi->table[k].nr);
    assert_string_equal(sys_name(abi, 1), "exit");
    assert_string_equal(sys_name(abi, 4), "write");
    assert_string_equal(sys_name(abi, 20), "getxpid");
    assert_string_equal(sys_name(abi, 71), "mmap");
    assert_string_equal(sys_name(abi, 256), "osf_getsysinfo");
    assert_string_equal(sys_name(abi, 257), "osf_setsysinfo");
    assert_string_equal(sys_name(abi, 405), "exit_group");
    assert_string_equal(sys_name(abi, 450), "openat");
    assert_string_equal(sys_name(abi, 455), "fstatat64");
    assert_string_equal(sys_name(abi, 527), "rseq");
    assert_string_equal(sys_name(abi, 572), "mseal");
    assert_string_equal(sys_name(abi, 2), "fork");           /* named, unsupported */
    assert_null(sys_name(abi, 53));                           /* a hole */
    assert_null(sys_name(abi, 9999));
    assert_int_equal(abi->page_size, 8192);
    assert_string_equal(abi->uname_machine, "alpha");
}

/* Every handler the RISC-V table uses is reachable from Alpha, directly or
 * through an Alpha call that wraps it (brk, getxpid, stat...), except the
 * RISC-V-only calls. */
static void test_rv64_handlers_reachable(void **state)
{
    (void)state;
    static const char *const rv_only[] = { "riscv_flush_icache", "riscv_hwprobe", "clone3",
                                           "memfd_secret" };
    /* reached through Alpha calls that wrap them */
    static const char *const wrapped[][2] = { { "getpid", "getxpid" }, { "getuid", "getxuid" },
                                              { "getgid", "getxgid" }, { "newfstatat", "stat" } };
    const sys_abi_t *rv = &sys_abi_rv64, *al = &sys_abi_alpha;
    for (unsigned k = 0; k < rv->table_size; k++) {
        if (!rv->table[k].fn) continue;
        bool skip = false;
        for (size_t j = 0; j < sizeof rv_only / sizeof rv_only[0]; j++)
            skip |= !strcmp(rv->table[k].name, rv_only[j]);
        bool found = false;
        for (unsigned j = 0; j < al->table_size && !found; j++) found = al->table[j].fn == rv->table[k].fn;
        const char *alias = rv->table[k].name;    /* a wrapper of the same name */
        for (size_t j = 0; j < sizeof wrapped / sizeof wrapped[0]; j++)
            if (!strcmp(alias, wrapped[j][0])) alias = wrapped[j][1];
        for (unsigned j = 0; j < al->table_size && !found; j++)
            found = al->table[j].fn && !strcmp(al->table[j].name, alias);
        if (!skip && !found) fail_msg("RISC-V %s has no Alpha number", rv->table[k].name);
    }
}

static void test_unsupported_stops(void **state)
{
    env_t *e = *state;
    assert_int_equal(call_stops(e, 2 /* fork */, 0, 0, 0), STOP_BAD_SYSCALL);
    assert_int_equal(e->cpu.stop_info, 2);
    assert_int_equal(call_stops(e, 9999, 0, 0, 0), STOP_BAD_SYSCALL);
    assert_int_equal(call_stops(e, NR_exit_group, 7, 0, 0), STOP_EXIT);
    assert_int_equal(e->cpu.exit_code, 7);
}

/* ---- results and errors ------------------------------------------------------ */

static void test_error_flag(void **state)
{
    env_t *e = *state;
    e->cpu.reg[19] = 0x5a5a;                     /* a3 is an argument, overwritten */
    int64_t r = CALL(e, NR_write, 1, SCRATCH, 0, 0x5a5a);
    expect_ok(e);
    assert_int_equal(r, 0);
    r = CALL(e, NR_write, 77, SCRATCH, 1);
    expect_err(e, r, A_EBADF);
    r = CALL(e, NR_statx, AT_FDCWD_G, SCRATCH, 0, 0, SCRATCH + 0x100);
    expect_err(e, r, A_ENOSYS);                  /* 78 on Alpha, 38 generic */
    wr(e, SCRATCH + 0x200, 5, 4);                /* futex word 5, expected 6 */
    r = CALL(e, NR_futex, SCRATCH + 0x200, 0, 6, 0);
    expect_err(e, r, A_EAGAIN);                  /* 35 on Alpha, 11 generic */
    /* rmdir of a non-empty directory: ENOTEMPTY is 66 on Alpha */
    char path[128];
    snprintf(path, sizeof path, "%s/sub", e->dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/sub/f", e->dir);
    close(open(path, O_CREAT | O_WRONLY, 0600));
    snprintf(path, sizeof path, "%s/sub", e->dir);
    r = CALL(e, NR_rmdir, put_str(e, 0, path));
    expect_err(e, r, A_ENOTEMPTY);
    /* a large successful value is not an error: a3 decides, not the sign */
    r = CALL(e, NR_mmap, 0, 0x4000, 3, 0x12 /* PRIVATE|ANONYMOUS */, (uint64_t)-1, 0);
    expect_ok(e);
    assert_int_equal(r, 0x20000000000ull);       /* bottom-up from TASK_UNMAPPED_BASE */
    r = CALL(e, NR_mmap, 0, 0x1000, 3, 0x12, (uint64_t)-1, 0);
    assert_int_equal(r, 0x20000004000ull);       /* the next one right above */
    r = CALL(e, NR_mmap, 0, 0x2000, 3, 0x12, (uint64_t)-1, 0);
    assert_int_equal(r, 0x20000006000ull);       /* 8 KiB pages: 0x1000 took 0x2000 */
}

static void test_two_register_returns(void **state)
{
    env_t *e = *state;
    int64_t r = CALL(e, NR_getxpid);
    expect_ok(e);
    assert_int_equal(r, 1000);
    assert_int_equal(a4(e), 999);                /* the parent */
    r = CALL(e, NR_getxuid);
    assert_int_equal(r, 1000);
    assert_int_equal(a4(e), 1000);               /* euid */
    r = CALL(e, NR_getxgid);
    assert_int_equal(r, 1000);
    assert_int_equal(a4(e), 1000);
    /* pipe: the read end in v0, the write end in a4 */
    int64_t rfd = CALL(e, NR_pipe);
    expect_ok(e);
    int64_t wfd = (int64_t)a4(e);
    assert_true(rfd >= 3 && wfd >= 3 && rfd != wfd);
    put_str(e, 0, "ping");
    assert_int_equal(CALL(e, NR_write, (uint64_t)wfd, SCRATCH, 4), 4);
    assert_int_equal(CALL(e, NR_read, (uint64_t)rfd, SCRATCH + 0x100, 4), 4);
    assert_memory_equal("ping", (char *)&(uint32_t){ (uint32_t)rd(e, SCRATCH + 0x100, 4) }, 4);
    CALL(e, NR_close, (uint64_t)rfd);
    CALL(e, NR_close, (uint64_t)wfd);
}

static void test_brk_and_mmap_flags(void **state)
{
    env_t *e = *state;
    assert_int_equal(CALL(e, NR_brk, 0), 0x200000);
    expect_ok(e);
    assert_int_equal(CALL(e, NR_brk, 0x204000), 0x204000);
    /* osf_brk: a break that cannot move is an ENOMEM error, not the old one */
    mem_map(e->mem, 0x300000, 0x2000, MEM_PROT_READ);
    int64_t r = CALL(e, NR_brk, 0x310000);
    expect_err(e, r, A_ENOMEM);
    assert_int_equal(CALL(e, NR_brk, 0), 0x204000);
    /* Alpha MAP_FIXED is 0x100, MAP_ANONYMOUS 0x10 */
    r = CALL(e, NR_mmap, 0x400000, 0x2000, 3, 0x112, (uint64_t)-1, 0);
    expect_ok(e);
    assert_int_equal(r, 0x400000);
    assert_non_null(mem_page(e->mem, 0x401000));
    r = CALL(e, NR_mmap, 0x401000, 0x2000, 3, 0x112, (uint64_t)-1, 0);
    expect_err(e, r, A_EINVAL);                  /* not on an 8 KiB page */
    r = CALL(e, NR_mmap, 0, 0x2000, 3, 0x20 /* generic ANONYMOUS: no type */, (uint64_t)-1, 0);
    expect_err(e, r, A_EINVAL);
    assert_int_equal(CALL(e, NR_getpagesize), 8192);
}

/* ---- files: open flags, the two stat layouts ----------------------------------- */

static void test_open_flags(void **state)
{
    env_t *e = *state;
    char path[128];
    snprintf(path, sizeof path, "%s/new", e->dir);
    uint64_t p = put_str(e, 0, path);
    int64_t fd = CALL(e, NR_open, p, A_O_WRONLY | A_O_CREAT | A_O_EXCL | A_O_APPEND, 0640);
    expect_ok(e);
    assert_true(fd >= 3);
    int64_t r = CALL(e, NR_open, p, A_O_WRONLY | A_O_CREAT | A_O_EXCL, 0640);
    expect_err(e, r, A_EEXIST);
    int64_t fl = CALL(e, NR_fcntl, (uint64_t)fd, 3 /* F_GETFL */);
    expect_ok(e);
    assert_int_equal(fl & 3, A_O_WRONLY);
    assert_true(fl & A_O_APPEND);
    assert_false(fl & A_O_NONBLOCK);
    assert_int_equal(CALL(e, NR_fcntl, (uint64_t)fd, 4 /* F_SETFL */, A_O_APPEND | A_O_NONBLOCK), 0);
    fl = CALL(e, NR_fcntl, (uint64_t)fd, 3);
    assert_true(fl & A_O_NONBLOCK);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640 & ~umask(022));
    umask(022);
    /* dup2 onto a chosen number, and onto itself */
    assert_int_equal(CALL(e, NR_dup2, (uint64_t)fd, 40), 40);
    assert_int_equal(CALL(e, NR_dup2, 40, 40), 40);
    r = CALL(e, NR_dup2, 41, 41);
    expect_err(e, r, A_EBADF);
    CALL(e, NR_close, 40);
    CALL(e, NR_close, (uint64_t)fd);
    assert_int_equal(CALL(e, NR_access, p, 2 /* W_OK */), 0);
    assert_int_equal(CALL(e, NR_unlink, p), 0);
    r = CALL(e, NR_access, p, 0);
    expect_err(e, r, A_ENOENT);
}

static void test_stat_layouts(void **state)
{
    env_t *e = *state;
    char path[128], link[140];
    snprintf(path, sizeof path, "%s/data", e->dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("0123456789abcdefXYZ", f);             /* 19 bytes */
    fclose(f);
    struct stat h;
    assert_int_equal(stat(path, &h), 0);
    uint64_t p = put_str(e, 0, path);

    /* struct stat: 80 bytes, 32-bit ino/mode/nlink/uid/gid, st_size at 32 */
    assert_int_equal(CALL(e, NR_stat, p, SCRATCH + 0x1000), 0);
    expect_ok(e);
    uint64_t b = SCRATCH + 0x1000;
    assert_int_equal(rd(e, b + 4, 4), (uint32_t)h.st_ino);
    assert_int_equal(rd(e, b + 8, 4), h.st_mode);
    assert_int_equal(rd(e, b + 12, 4), 1);       /* nlink */
    assert_int_equal(rd(e, b + 32, 8), 19);      /* size */
    assert_int_equal(rd(e, b + 48, 8), (uint64_t)h.st_mtim.tv_sec);
    assert_int_equal(rd(e, b + 64, 4), (uint32_t)h.st_blksize);
    int64_t fd = CALL(e, NR_open, p, 0, 0);
    assert_int_equal(CALL(e, NR_fstat, (uint64_t)fd, SCRATCH + 0x1100), 0);
    assert_int_equal(rd(e, SCRATCH + 0x1100 + 32, 8), 19);

    /* struct stat64: 136 bytes, 64-bit ino, mode at 40, nlink at 56 */
    wr(e, SCRATCH + 0x1200 + 136, 0xeeeeeeeeeeeeeeeeull, 8);
    assert_int_equal(CALL(e, NR_fstat64, (uint64_t)fd, SCRATCH + 0x1200), 0);
    b = SCRATCH + 0x1200;
    assert_int_equal(rd(e, b + 8, 8), h.st_ino);
    assert_int_equal(rd(e, b + 24, 8), 19);
    assert_int_equal(rd(e, b + 40, 4), h.st_mode);
    assert_int_equal(rd(e, b + 56, 4), 1);
    assert_int_equal(rd(e, b + 80, 8), (uint64_t)h.st_mtim.tv_sec);
    assert_int_equal(rd(e, b + 88, 8), (uint64_t)h.st_mtim.tv_nsec);
    assert_int_equal(rd(e, b + 136, 8), 0xeeeeeeeeeeeeeeeeull);   /* nothing past 136 */
    CALL(e, NR_close, (uint64_t)fd);

    /* stat64 follows links, lstat64 and fstatat64(AT_SYMLINK_NOFOLLOW) do not */
    snprintf(link, sizeof link, "%s/lnk", e->dir);
    assert_int_equal(symlink(path, link), 0);
    uint64_t l = put_str(e, 0x400, link);
    assert_int_equal(CALL(e, NR_stat64, l, SCRATCH + 0x1300), 0);
    assert_true(S_ISREG(rd(e, SCRATCH + 0x1300 + 40, 4)));
    assert_int_equal(CALL(e, NR_lstat64, l, SCRATCH + 0x1300), 0);
    assert_true(S_ISLNK(rd(e, SCRATCH + 0x1300 + 40, 4)));
    assert_int_equal(CALL(e, NR_fstatat64, AT_FDCWD_G, l, SCRATCH + 0x1300, 0x100), 0);
    assert_true(S_ISLNK(rd(e, SCRATCH + 0x1300 + 40, 4)));
    int64_t r = CALL(e, NR_stat64, put_str(e, 0x800, "/no/such/file"), SCRATCH + 0x1300);
    expect_err(e, r, A_ENOENT);
}

/* A sysroot is looked at first for absolute paths, with fallback. */
static void test_sysroot_paths(void **state)
{
    env_t *e = *state;
    char root[128], file[160];
    snprintf(root, sizeof root, "%s/root", e->dir);
    snprintf(file, sizeof file, "%s/etc", root);
    assert_int_equal(mkdir(root, 0700), 0);
    assert_int_equal(mkdir(file, 0700), 0);
    snprintf(file, sizeof file, "%s/etc/only-in-root", root);
    FILE *f = fopen(file, "w");
    fputs("sysroot!", f);
    fclose(f);
    sys_set_sysroot(e->sys, root);
    int64_t fd = CALL(e, NR_openat, AT_FDCWD_G, put_str(e, 0, "/etc/only-in-root"), 0, 0);
    expect_ok(e);
    assert_int_equal(CALL(e, NR_read, (uint64_t)fd, SCRATCH + 0x100, 64), 8);
    CALL(e, NR_close, (uint64_t)fd);
    /* not under the sysroot: the host path */
    char host[128];
    snprintf(host, sizeof host, "%s/host-only", e->dir);
    f = fopen(host, "w");
    fclose(f);
    fd = CALL(e, NR_openat, AT_FDCWD_G, put_str(e, 0, host), 0, 0);
    expect_ok(e);
    CALL(e, NR_close, (uint64_t)fd);
    assert_int_equal(CALL(e, NR_stat64, put_str(e, 0, "/etc/only-in-root"), SCRATCH + 0x200), 0);
    assert_int_equal(rd(e, SCRATCH + 0x200 + 24, 8), 8);
    /* a relative sysroot is taken from where hps-sim started, so a guest
     * chdir does not move it */
    char cwd[512];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(e->dir), 0);
    sys_set_sysroot(e->sys, "root");
    assert_int_equal(CALL(e, 12 /* chdir */, put_str(e, 0, "/")), 0);
    fd = CALL(e, NR_openat, AT_FDCWD_G, put_str(e, 0, "/etc/only-in-root"), 0, 0);
    expect_ok(e);
    CALL(e, NR_close, (uint64_t)fd);
    assert_int_equal(chdir(cwd), 0);
    sys_set_sysroot(e->sys, NULL);
    int64_t r = CALL(e, NR_openat, AT_FDCWD_G, put_str(e, 0, "/etc/only-in-root"), 0, 0);
    expect_err(e, r, A_ENOENT);
}

/* ---- terminals: Alpha's ioctl numbers and struct termios ------------------------ */

static void test_termios(void **state)
{
    env_t *e = *state;
    int r = CALL(e, NR_ioctl, 1, 0x402c7413 /* TCGETS */, SCRATCH);
    if (!isatty(1)) expect_err(e, r, A_ENOTTY);
    int m = posix_openpt(O_RDWR | O_NOCTTY);
    if (m < 0 || grantpt(m) || unlockpt(m) || !ptsname(m)) {
        if (m >= 0) close(m);
        skip();
    }
    int64_t fd = CALL(e, NR_open, put_str(e, 0, ptsname(m)), A_O_RDWR | A_O_NOCTTY, 0);
    expect_ok(e);
    struct termios h;
    int hfd = open(ptsname(m), O_RDWR | O_NOCTTY);
    assert_true(hfd >= 0);
    assert_int_equal(tcgetattr(hfd, &h), 0);
    h.c_lflag |= ICANON | ECHO | ISIG;
    h.c_cc[VINTR] = 3;
    h.c_cc[VEOF] = 4;
    h.c_cc[VMIN] = 1;
    cfsetispeed(&h, B38400);
    cfsetospeed(&h, B38400);
    assert_int_equal(tcsetattr(hfd, TCSANOW, &h), 0);

    assert_int_equal(CALL(e, NR_ioctl, (uint64_t)fd, 0x402c7413, SCRATCH + 0x100), 0);
    expect_ok(e);
    uint64_t t = SCRATCH + 0x100;
    uint32_t lflag = (uint32_t)rd(e, t + 12, 4);
    assert_true(lflag & 0x100);                  /* Alpha ICANON */
    assert_true(lflag & 0x80);                   /* Alpha ISIG */
    assert_true(lflag & 0x8);                    /* ECHO */
    assert_int_equal(rd(e, t + 16 + 8, 1), 3);   /* c_cc[VINTR], index 8 on Alpha */
    assert_int_equal(rd(e, t + 16 + 0, 1), 4);   /* c_cc[VEOF], index 0 */
    assert_int_equal(rd(e, t + 16 + 16, 1), 1);  /* c_cc[VMIN], index 16 */
    assert_int_equal(rd(e, t + 8, 4) & 0x1f, 15);/* CBAUD B38400 */
    assert_int_equal(rd(e, t + 40, 4), 38400);   /* c_ospeed */

    /* TCSETS (0x802c7414): clear Alpha ICANON, the host sees ICANON off */
    wr(e, t + 12, lflag & ~0x100u, 4);
    assert_int_equal(CALL(e, NR_ioctl, (uint64_t)fd, 0x802c7414, t), 0);
    assert_int_equal(tcgetattr(hfd, &h), 0);
    assert_false(h.c_lflag & ICANON);
    assert_true(h.c_lflag & ISIG);
    assert_int_equal(h.c_cc[VINTR], 3);
    /* TIOCGWINSZ is _IOR('t', 104, struct winsize) */
    assert_int_equal(CALL(e, NR_ioctl, (uint64_t)fd, 0x40087468, SCRATCH + 0x200), 0);
    /* the generic number means nothing on Alpha */
    r = CALL(e, NR_ioctl, (uint64_t)fd, 0x5401, SCRATCH + 0x100);
    expect_err(e, r, A_ENOTTY);
    close(hfd);
    close(m);
    CALL(e, NR_close, (uint64_t)fd);
}

/* ---- signals, limits, time ----------------------------------------------------- */

static void test_signals(void **state)
{
    env_t *e = *state;
    /* SIGUSR1 is 30 on Alpha; ignoring it makes kill harmless */
    wr(e, SCRATCH, 1 /* SIG_IGN */, 8);
    wr(e, SCRATCH + 8, 0, 8);
    wr(e, SCRATCH + 16, 0, 8);
    assert_int_equal(CALL(e, NR_rt_sigaction, 30, SCRATCH, 0, 8, 0x1234 /* restorer */), 0);
    expect_ok(e);
    assert_int_equal(CALL(e, NR_kill, 1000, 30), 0);
    assert_int_equal(CALL(e, NR_rt_sigaction, 30, 0, SCRATCH + 0x100, 8), 0);
    assert_int_equal(rd(e, SCRATCH + 0x100, 8), 1);
    /* SIGKILL and SIGSTOP (17 on Alpha) cannot be caught */
    int64_t r = CALL(e, NR_rt_sigaction, 17, SCRATCH, 0, 8);
    expect_err(e, r, A_EINVAL);
    /* SIG_BLOCK is 1 on Alpha; SIGSTOP's bit (17) cannot be blocked */
    wr(e, SCRATCH + 0x200, (1ull << 29) | (1ull << 16), 8);   /* USR1, STOP */
    assert_int_equal(CALL(e, NR_rt_sigprocmask, 1, SCRATCH + 0x200, 0, 8), 0);
    assert_int_equal(CALL(e, NR_rt_sigprocmask, 1, 0, SCRATCH + 0x208, 8), 0);
    assert_int_equal(rd(e, SCRATCH + 0x208, 8), 1ull << 29);
    /* SIGUSR2 (31) by default kills: the status is 128 + the host's SIGUSR2 */
    assert_int_equal(call_stops(e, NR_tgkill, 1000, 1000, 31), STOP_EXIT);
    assert_int_equal(e->cpu.exit_code, 128 + 12);
}

static void test_rlimits(void **state)
{
    env_t *e = *state;
    /* RLIMIT_NOFILE is 6 on Alpha */
    assert_int_equal(CALL(e, NR_getrlimit, 6, SCRATCH), 0);
    assert_int_equal(rd(e, SCRATCH, 8), 1024);
    /* RLIMIT_DATA (2) is unlimited: RLIM_INFINITY is 2^63 - 1 for getrlimit */
    assert_int_equal(CALL(e, NR_getrlimit, 2, SCRATCH), 0);
    assert_int_equal(rd(e, SCRATCH, 8), 0x7fffffffffffffffull);
    assert_int_equal(rd(e, SCRATCH + 8, 8), 0x7fffffffffffffffull);
    /* ... and ~0 for prlimit64 */
    assert_int_equal(CALL(e, NR_prlimit64, 0, 2, 0, SCRATCH), 0);
    assert_int_equal(rd(e, SCRATCH, 8), ~0ull);
    /* RLIMIT_AS (7) is the guest memory limit (mem.h), soft and hard */
    assert_int_equal(CALL(e, NR_getrlimit, 7, SCRATCH), 0);
    assert_int_equal(rd(e, SCRATCH, 8), MEM_GUEST_LIMIT_DEFAULT);
    assert_int_equal(rd(e, SCRATCH + 8, 8), MEM_GUEST_LIMIT_DEFAULT);
    /* RLIMIT_STACK (3) agrees with generic */
    assert_int_equal(CALL(e, NR_getrlimit, 3, SCRATCH), 0);
    assert_int_equal(rd(e, SCRATCH, 8), 8u << 20);
}

static void test_uname_times(void **state)
{
    env_t *e = *state;
    assert_int_equal(CALL(e, NR_uname, SCRATCH), 0);
    char m[65];
    assert_true(mem_read_str(e->mem, SCRATCH + 4 * 65, m, sizeof m));
    assert_string_equal(m, "alpha");
    e->cpu.instret = 2000000000ull;              /* two simulated seconds */
    int64_t ticks = CALL(e, NR_times, SCRATCH);
    expect_ok(e);
    assert_int_equal(ticks, 2 * 1024);           /* USER_HZ 1024 */
    assert_int_equal(rd(e, SCRATCH, 8), 2 * 1024);
}

/* ---- osf_getsysinfo / osf_setsysinfo: the IEEE FP control word --------------------- */

enum { GSI_IEEE_FP_CONTROL = 45, SSI_IEEE_FP_CONTROL = 14, GSI_UACPROC = 8,
       GSI_PROC_TYPE = 60, SSI_NVPAIRS = 1, SSI_IEEE_RAISE_EXCEPTION = 1001 };
#define SW_TRAP_DZE  (1ull << 2)
#define SW_MAP_UMZ   (1ull << 13)
#define SW_STATUS_INV (1ull << 17)
#define SW_STATUS_DZE (1ull << 18)
#define SW_STATUS_OVF (1ull << 19)
#define SW_STATUS_INE (1ull << 21)

static void test_fp_control(void **state)
{
    env_t *e = *state;
    uint64_t fpcr0 = e->cpu.fpcr;                 /* Linux initial FPCR */
    assert_int_equal(fpcr0, AL_FPCR_LINUX_INIT);
    assert_int_equal(CALL(e, NR_osf_getsysinfo, GSI_IEEE_FP_CONTROL, SCRATCH, 8), 0);
    expect_ok(e);
    assert_int_equal(rd(e, SCRATCH, 8), 0);       /* nothing enabled, no status */

    /* set: enable the divide-by-zero trap, map underflow to zero, INE status */
    wr(e, SCRATCH, SW_TRAP_DZE | SW_MAP_UMZ | SW_STATUS_INE, 8);
    assert_int_equal(CALL(e, NR_osf_setsysinfo, SSI_IEEE_FP_CONTROL, SCRATCH, 8), 0);
    expect_ok(e);
    uint64_t f = e->cpu.fpcr;
    assert_int_equal(f & AL_FPCR_DYN_MASK, fpcr0 & AL_FPCR_DYN_MASK);   /* rounding kept */
    assert_false(f & AL_FPCR_DZED);               /* DZE trap enabled */
    assert_true(f & AL_FPCR_INVD);
    assert_true(f & AL_FPCR_OVFD);
    assert_true(f & AL_FPCR_INE);                 /* status */
    assert_true((f & AL_FPCR_UNDZ) && (f & AL_FPCR_UNFD));
    assert_true(e->cpu.swcr & SW_TRAP_DZE);

    /* get: the word back, status from the FPCR as an instruction left it */
    e->cpu.fpcr |= AL_FPCR_OVF;
    assert_int_equal(CALL(e, NR_osf_getsysinfo, GSI_IEEE_FP_CONTROL, SCRATCH + 8, 8), 0);
    assert_int_equal(rd(e, SCRATCH + 8, 8),
                     SW_TRAP_DZE | SW_MAP_UMZ | SW_STATUS_INE | SW_STATUS_OVF);

    /* clearing the status (feclearexcept) clears the FPCR's */
    wr(e, SCRATCH, SW_TRAP_DZE, 8);
    assert_int_equal(CALL(e, NR_osf_setsysinfo, SSI_IEEE_FP_CONTROL, SCRATCH, 8), 0);
    assert_false(e->cpu.fpcr & (AL_FPCR_OVF | AL_FPCR_INE));
    assert_int_equal(CALL(e, NR_osf_getsysinfo, GSI_IEEE_FP_CONTROL, SCRATCH + 8, 8), 0);
    assert_int_equal(rd(e, SCRATCH + 8, 8), SW_TRAP_DZE);

    /* raise (feraiseexcept): status set, no signal for a disabled trap */
    wr(e, SCRATCH, SW_STATUS_INV, 8);
    assert_int_equal(CALL(e, NR_osf_setsysinfo, SSI_IEEE_RAISE_EXCEPTION, SCRATCH, 8), 0);
    assert_true(e->cpu.fpcr & AL_FPCR_INV);
    /* ... and SIGFPE (default: the process dies, 128 + 8) for an enabled one */
    wr(e, SCRATCH, SW_STATUS_DZE, 8);
    assert_int_equal(call_stops(e, NR_osf_setsysinfo, SSI_IEEE_RAISE_EXCEPTION, SCRATCH, 8),
                     STOP_EXIT);
    assert_int_equal(e->cpu.exit_code, 128 + 8);

    /* a bad buffer is EFAULT */
    int64_t r = CALL(e, NR_osf_getsysinfo, GSI_IEEE_FP_CONTROL, 0x10, 8);
    expect_err(e, r, 14);
}

static void test_sysinfo_other_ops(void **state)
{
    env_t *e = *state;
    /* SSI_NVPAIRS: (SSIN_UACPROC, value) pairs; GSI_UACPROC reads it back, 1 */
    wr(e, SCRATCH, 6, 4);
    wr(e, SCRATCH + 4, 5, 4);
    assert_int_equal(CALL(e, NR_osf_setsysinfo, SSI_NVPAIRS, SCRATCH, 1), 0);
    expect_ok(e);
    assert_int_equal(CALL(e, NR_osf_getsysinfo, GSI_UACPROC, SCRATCH + 0x10, 4), 1);
    expect_ok(e);
    assert_int_equal(rd(e, SCRATCH + 0x10, 4), 5);
    assert_int_equal(CALL(e, NR_osf_getsysinfo, GSI_PROC_TYPE, SCRATCH + 0x10, 8), 1);
    assert_int_equal(rd(e, SCRATCH + 0x10, 8), 11);           /* EV67 */
    int64_t r = CALL(e, NR_osf_getsysinfo, 9999, SCRATCH, 8);
    expect_err(e, r, A_EOPNOTSUPP);              /* 45 on Alpha, 95 generic */
    wr(e, SCRATCH, 77, 4);
    r = CALL(e, NR_osf_setsysinfo, SSI_NVPAIRS, SCRATCH, 1);
    expect_err(e, r, A_EOPNOTSUPP);
}

#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)

int main(void)
{
    const struct CMUnitTest tests[] = {
        T(test_numbers), T(test_rv64_handlers_reachable), T(test_unsupported_stops),
        T(test_error_flag), T(test_two_register_returns), T(test_brk_and_mmap_flags),
        T(test_open_flags), T(test_stat_layouts), T(test_sysroot_paths), T(test_termios),
        T(test_signals), T(test_rlimits), T(test_uname_times), T(test_fp_control),
        T(test_sysinfo_other_ops),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
