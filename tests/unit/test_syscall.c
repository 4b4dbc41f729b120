/*
 * test_syscall.c - unit tests of the Linux syscall emulation with the
 * RISC-V ABI: arguments go in a0..a5 and the number in a7, sys_call runs
 * the handler, and the tests check a0 and guest memory.  Covers the
 * program break, mmap family, file I/O on a temporary file, the struct
 * stat layout, deterministic time and randomness, uname, limits, signals
 * to self, stops for exit and unsupported calls, and the hook that reports
 * executable file mappings (how shared libraries get their symbols).
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
#include <unistd.h>

#include "core.h"
#include "loader.h"
#include "mem.h"
#include "sys.h"

/* asm-generic syscall numbers used below */
enum {
    NR_getcwd = 17, NR_dup = 23, NR_dup3 = 24, NR_fcntl = 25, NR_ioctl = 29,
    NR_openat = 56, NR_close = 57, NR_lseek = 62, NR_read = 63, NR_write = 64,
    NR_writev = 66, NR_readlinkat = 78, NR_newfstatat = 79, NR_fstat = 80,
    NR_exit_group = 94, NR_futex = 98, NR_clock_gettime = 113, NR_tgkill = 131,
    NR_rt_sigaction = 134, NR_rt_sigprocmask = 135, NR_rt_sigreturn = 139, NR_uname = 160, NR_getpid = 172, NR_brk = 214,
    NR_munmap = 215, NR_mremap = 216, NR_clone = 220, NR_mmap = 222,
    NR_mprotect = 226, NR_prlimit64 = 261, NR_getrandom = 278
};

#define AT_FDCWD_G   ((uint64_t)-100)
#define SCRATCH      0x100000ull      /* guest scratch area for arguments */
#define SCRATCH_LEN  0x10000ull
#define ENOENT_G 2
#define EBADF_G  9
#define EINVAL_G 22
#define ENOTTY_G 25
#define EEXIST_G 17
#define ENOMEM_G 12
#define EAGAIN_G 11

typedef struct env {
    mem_t *mem;
    cpu_t cpu;
    sys_t *sys;
    char dir[64];
} env_t;

static sys_config_t config(uint64_t seed)
{
    sys_config_t cfg = { .seed = seed, .epoch_sec = 1700000000ull,
                         .insts_per_sec = 1000000000ull, .host_time = false };
    return cfg;
}

static int setup(void **state)
{
    env_t *e = calloc(1, sizeof *e);
    e->mem = mem_new();
    cpu_init(&e->cpu, &isa_rv64, e->mem);
    sys_config_t cfg = config(1);
    e->sys = sys_new(e->mem, &sys_abi_rv64, &cfg);
    e->cpu.sys = e->sys;
    sys_set_brk(e->sys, 0x200000);
    mem_map(e->mem, SCRATCH, SCRATCH_LEN, MEM_PROT_READ | MEM_PROT_WRITE);
    strcpy(e->dir, "/tmp/hps-syscall-XXXXXX");
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

/* Run syscall nr with up to six arguments; returns a0. */
static int64_t call(env_t *e, uint64_t nr, uint64_t a0, uint64_t a1, uint64_t a2,
                    uint64_t a3, uint64_t a4, uint64_t a5)
{
    uint64_t args[6] = { a0, a1, a2, a3, a4, a5 };
    for (int k = 0; k < 6; k++) e->cpu.reg[10 + k] = args[k];
    e->cpu.reg[17] = nr;
    sys_call(e->sys, &e->cpu);
    return (int64_t)e->cpu.reg[10];
}

#define CALL(e, nr, ...) call_v(e, nr, (uint64_t[6]){ __VA_ARGS__ })
static int64_t call_v(env_t *e, uint64_t nr, const uint64_t a[6])
{
    return call(e, nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}

/* Run a syscall expected to stop the cpu; returns the stop reason. */
/* The call, then the instruction boundary after it, where the signals
 * it sent are delivered. */
static stop_reason_t call_stops(env_t *e, uint64_t nr, uint64_t a0, uint64_t a1, uint64_t a2)
{
    jmp_buf jb;
    e->cpu.stop_jmp = &jb;
    e->cpu.stop = STOP_NONE;
    if (setjmp(jb) == 0) {
        call(e, nr, a0, a1, a2, 0, 0, 0);
        e->cpu.stop_jmp = NULL;
        return sys_signal_boundary(e->sys, &e->cpu);   /* as the run loop, after the call */
    }
    e->cpu.stop_jmp = NULL;
    return e->cpu.stop;
}

static uint64_t put_str(env_t *e, uint64_t addr, const char *s)
{
    assert_true(mem_write(e->mem, addr, s, strlen(s) + 1));
    return addr;
}

static uint64_t rd64(env_t *e, uint64_t addr)
{
    uint8_t b[8];
    assert_true(mem_read(e->mem, addr, b, 8));
    uint64_t v = 0;
    for (int k = 7; k >= 0; k--) v = v << 8 | b[k];
    return v;
}

static uint32_t rd32(env_t *e, uint64_t addr) { return (uint32_t)rd64(e, addr); }

/* Open dir/name through the guest; returns the guest fd. */
static int64_t guest_open(env_t *e, const char *name, uint64_t flags)
{
    char path[128];
    snprintf(path, sizeof path, "%s/%s", e->dir, name);
    put_str(e, SCRATCH + 0x8000, path);
    return CALL(e, NR_openat, AT_FDCWD_G, SCRATCH + 0x8000, flags, 0644);
}

/* ---- tests ------------------------------------------------------------------ */

static void test_brk(void **state)
{
    env_t *e = *state;
    assert_int_equal(CALL(e, NR_brk, 0), 0x200000);
    assert_int_equal(CALL(e, NR_brk, 0x201800), 0x201800);
    assert_true(mem_is_mapped(e->mem, 0x200000));
    assert_true(mem_is_mapped(e->mem, 0x201000));
    assert_false(mem_is_mapped(e->mem, 0x202000));
    assert_true(mem_write(e->mem, 0x201700, "x", 1));
    assert_int_equal(CALL(e, NR_brk, 0x200010), 0x200010);       /* shrink */
    assert_true(mem_is_mapped(e->mem, 0x200000));
    assert_false(mem_is_mapped(e->mem, 0x201000));
    assert_int_equal(CALL(e, NR_brk, 0x100000), 0x200010);       /* below start */
    assert_int_equal(CALL(e, NR_brk, 0x1ff000), 0x200010);
    /* growth into a mapped range fails and leaves the break alone */
    mem_map(e->mem, 0x210000, 0x1000, MEM_PROT_READ);
    assert_int_equal(CALL(e, NR_brk, 0x220000), 0x200010);
}

static void test_mmap_anon_fixed(void **state)
{
    env_t *e = *state;
    int64_t a = CALL(e, NR_mmap, 0, 0x3000, 3, 0x22 /* PRIVATE|ANON */, (uint64_t)-1, 0);
    assert_true(a > 0);
    assert_int_equal(a & 0xfff, 0);
    assert_true((uint64_t)a + 0x3000 <= GUEST_STACK_TOP - GUEST_STACK_SIZE);
    assert_true(mem_is_mapped(e->mem, (uint64_t)a + 0x2000));
    assert_int_equal(rd64(e, (uint64_t)a + 0x10), 0);
    int64_t b = CALL(e, NR_mmap, 0, 0x1000, 1, 0x22, (uint64_t)-1, 0);
    assert_true(b > 0 && (b + 0x1000 <= a || b >= a + 0x3000));
    assert_int_equal(mem_page(e->mem, (uint64_t)b)->prot, MEM_PROT_READ);

    /* MAP_FIXED replaces what was there with zero pages */
    assert_true(mem_write(e->mem, (uint64_t)a, "data", 4));
    assert_int_equal(CALL(e, NR_mmap, (uint64_t)a, 0x1000, 3, 0x32, (uint64_t)-1, 0), a);
    assert_int_equal(rd32(e, (uint64_t)a), 0);
    /* MAP_FIXED_NOREPLACE refuses a mapped range */
    assert_int_equal(CALL(e, NR_mmap, (uint64_t)a, 0x1000, 3, 0x100022, (uint64_t)-1, 0),
                     -EEXIST_G);
    /* a free hint is honoured */
    assert_int_equal(CALL(e, NR_mmap, 0x5000000, 0x2000, 3, 0x22, (uint64_t)-1, 0), 0x5000000);
    assert_int_equal(CALL(e, NR_mmap, 0, 0, 3, 0x22, (uint64_t)-1, 0), -EINVAL_G);
    assert_int_equal(CALL(e, NR_mmap, 0, 0x1000, 3, 0x20 /* no type */, (uint64_t)-1, 0),
                     -EINVAL_G);
}

static void test_munmap_mprotect(void **state)
{
    env_t *e = *state;
    int64_t a = CALL(e, NR_mmap, 0, 0x4000, 3, 0x22, (uint64_t)-1, 0);
    assert_true(a > 0);
    assert_int_equal(CALL(e, NR_mprotect, (uint64_t)a + 0x1000, 0x1000, 1), 0);
    assert_int_equal(mem_page(e->mem, (uint64_t)a + 0x1000)->prot, MEM_PROT_READ);
    assert_int_equal(mem_page(e->mem, (uint64_t)a)->prot, MEM_PROT_READ | MEM_PROT_WRITE);
    assert_int_equal(CALL(e, NR_munmap, (uint64_t)a + 0x2000, 0x2000), 0);
    assert_false(mem_is_mapped(e->mem, (uint64_t)a + 0x2000));
    assert_false(mem_is_mapped(e->mem, (uint64_t)a + 0x3000));
    assert_true(mem_is_mapped(e->mem, (uint64_t)a + 0x1000));
    assert_int_equal(CALL(e, NR_munmap, (uint64_t)a + 1, 0x1000), -EINVAL_G);
    assert_int_equal(CALL(e, NR_mprotect, (uint64_t)a, 0x4000, 3), -ENOMEM_G);
}

static void test_mremap(void **state)
{
    env_t *e = *state;
    uint64_t a = 0x6000000;
    assert_int_equal(CALL(e, NR_mmap, a, 0x2000, 3, 0x32, (uint64_t)-1, 0), (int64_t)a);
    assert_true(mem_write(e->mem, a + 0x1ff0, "grow me", 8));
    /* room after it: grows in place */
    assert_int_equal(CALL(e, NR_mremap, a, 0x2000, 0x4000, 1, 0), (int64_t)a);
    assert_true(mem_is_mapped(e->mem, a + 0x3000));
    /* blocked after it: moves, keeping the contents */
    assert_int_equal(CALL(e, NR_mmap, a + 0x4000, 0x1000, 3, 0x32, (uint64_t)-1, 0),
                     (int64_t)(a + 0x4000));
    assert_int_equal(CALL(e, NR_mremap, a, 0x4000, 0x8000, 0, 0), -ENOMEM_G);
    int64_t b = CALL(e, NR_mremap, a, 0x4000, 0x8000, 1 /* MAYMOVE */, 0);
    assert_true(b > 0 && (uint64_t)b != a);
    char buf[8];
    assert_true(mem_read(e->mem, (uint64_t)b + 0x1ff0, buf, 8));
    assert_string_equal(buf, "grow me");
    assert_false(mem_is_mapped(e->mem, a));
    assert_true(mem_is_mapped(e->mem, (uint64_t)b + 0x7000));
    /* shrink in place */
    assert_int_equal(CALL(e, NR_mremap, (uint64_t)b, 0x8000, 0x1000, 0, 0), b);
    assert_false(mem_is_mapped(e->mem, (uint64_t)b + 0x1000));
}

static void test_file_io(void **state)
{
    env_t *e = *state;
    int64_t fd = guest_open(e, "f.txt", 01101 /* WRONLY|CREAT|TRUNC */);
    assert_true(fd >= 3);
    put_str(e, SCRATCH, "hello, file\n");
    assert_int_equal(CALL(e, NR_write, (uint64_t)fd, SCRATCH, 12), 12);
    assert_int_equal(CALL(e, NR_read, (uint64_t)fd, SCRATCH + 0x100, 4), -EBADF_G);
    assert_int_equal(CALL(e, NR_close, (uint64_t)fd), 0);
    assert_int_equal(CALL(e, NR_close, (uint64_t)fd), -EBADF_G);

    fd = guest_open(e, "f.txt", 2 /* RDWR */);
    assert_true(fd >= 3);
    assert_int_equal(CALL(e, NR_lseek, (uint64_t)fd, 7, 0 /* SET */), 7);
    assert_int_equal(CALL(e, NR_read, (uint64_t)fd, SCRATCH + 0x100, 100), 5);
    char buf[8] = {0};
    assert_true(mem_read(e->mem, SCRATCH + 0x100, buf, 5));
    assert_memory_equal(buf, "file\n", 5);
    assert_int_equal(CALL(e, NR_read, (uint64_t)fd, SCRATCH + 0x100, 100), 0);   /* EOF */
    assert_int_equal(CALL(e, NR_lseek, (uint64_t)fd, 0, 2 /* END */), 12);
    /* writev gathers */
    uint8_t iov[32];
    uint64_t parts[4] = { SCRATCH, 3, SCRATCH + 7, 4 };
    for (int k = 0; k < 4; k++)
        for (int b = 0; b < 8; b++) iov[8 * k + b] = (uint8_t)(parts[k] >> (8 * b));
    assert_true(mem_write(e->mem, SCRATCH + 0x200, iov, sizeof iov));
    assert_int_equal(CALL(e, NR_writev, (uint64_t)fd, SCRATCH + 0x200, 2), 7);
    assert_int_equal(CALL(e, NR_lseek, (uint64_t)fd, 12, 0), 12);
    assert_int_equal(CALL(e, NR_read, (uint64_t)fd, SCRATCH + 0x100, 100), 7);
    assert_true(mem_read(e->mem, SCRATCH + 0x100, buf, 7));
    assert_memory_equal(buf, "helfile", 7);
    /* a read into unmapped memory faults cleanly */
    assert_int_equal(CALL(e, NR_read, (uint64_t)fd, 0x7000000, 10), -14);
    assert_int_equal(CALL(e, NR_close, (uint64_t)fd), 0);

    assert_int_equal(guest_open(e, "missing", 0), -ENOENT_G);
}

static void test_fd_control(void **state)
{
    env_t *e = *state;
    int64_t fd = guest_open(e, "g.txt", 0101 /* WRONLY|CREAT */);
    assert_true(fd >= 3);
    assert_int_equal(CALL(e, NR_fcntl, (uint64_t)fd, 3 /* F_GETFL */) & 3, 1);
    assert_int_equal(CALL(e, NR_fcntl, (uint64_t)fd, 1 /* F_GETFD */), 0);
    assert_int_equal(CALL(e, NR_fcntl, (uint64_t)fd, 2, 1 /* FD_CLOEXEC */), 0);
    assert_int_equal(CALL(e, NR_fcntl, (uint64_t)fd, 1), 1);
    int64_t d = CALL(e, NR_dup, (uint64_t)fd);
    assert_int_equal(d, fd + 1);                              /* lowest free */
    assert_int_equal(CALL(e, NR_fcntl, (uint64_t)fd, 0 /* F_DUPFD */, 10), 10);
    assert_int_equal(CALL(e, NR_dup3, (uint64_t)fd, 20, 02000000), 20);
    assert_int_equal(CALL(e, NR_fcntl, 20, 1), 1);
    put_str(e, SCRATCH, "abc");
    assert_int_equal(CALL(e, NR_write, 20, SCRATCH, 3), 3);
    assert_int_equal(CALL(e, NR_dup3, (uint64_t)fd, (uint64_t)fd, 0), -EINVAL_G);
    /* TCGETS on a regular file: not a terminal */
    assert_int_equal(CALL(e, NR_ioctl, (uint64_t)fd, 0x5401, SCRATCH), -ENOTTY_G);
    assert_int_equal(CALL(e, NR_ioctl, 99, 0x5401, SCRATCH), -EBADF_G);
}

static void test_fstat_layout(void **state)
{
    env_t *e = *state;
    int64_t fd = guest_open(e, "s.bin", 01102 /* RDWR|CREAT|TRUNC */);
    assert_true(fd >= 3);
    assert_true(mem_map(e->mem, 0x300000, 0x1000, MEM_PROT_READ | MEM_PROT_WRITE));
    assert_int_equal(CALL(e, NR_write, (uint64_t)fd, 0x300000, 1234), 1234);
    char path[128];
    snprintf(path, sizeof path, "%s/s.bin", e->dir);
    struct stat h;
    assert_int_equal(stat(path, &h), 0);

    uint64_t st = SCRATCH + 0x1000;
    assert_int_equal(CALL(e, NR_fstat, (uint64_t)fd, st), 0);
    assert_int_equal(rd64(e, st + 0), h.st_dev);                 /* st_dev */
    assert_int_equal(rd64(e, st + 8), h.st_ino);                 /* st_ino */
    assert_int_equal(rd32(e, st + 16), h.st_mode);               /* st_mode */
    assert_true(S_ISREG(rd32(e, st + 16)));
    assert_int_equal(rd32(e, st + 20), 1);                       /* st_nlink */
    assert_int_equal(rd32(e, st + 24), h.st_uid);                /* st_uid */
    assert_int_equal(rd32(e, st + 28), h.st_gid);                /* st_gid */
    assert_int_equal(rd64(e, st + 48), 1234);                    /* st_size */
    assert_int_equal(rd32(e, st + 56), h.st_blksize);            /* st_blksize */
    assert_int_equal(rd64(e, st + 64), h.st_blocks);             /* st_blocks */
    assert_int_equal(rd64(e, st + 88), h.st_mtim.tv_sec);        /* st_mtime */
    assert_int_equal(rd64(e, st + 96), h.st_mtim.tv_nsec);       /* st_mtime_nsec */
    assert_int_equal(rd64(e, st + 104), h.st_ctim.tv_sec);       /* st_ctime */

    /* newfstatat(fd, "", AT_EMPTY_PATH) and by path agree */
    put_str(e, SCRATCH, "");
    uint64_t st2 = SCRATCH + 0x1100;
    assert_int_equal(CALL(e, NR_newfstatat, (uint64_t)fd, SCRATCH, st2, 0x1000), 0);
    assert_int_equal(rd64(e, st2 + 48), 1234);
    put_str(e, SCRATCH, path);
    assert_int_equal(CALL(e, NR_newfstatat, AT_FDCWD_G, SCRATCH, st2, 0), 0);
    assert_int_equal(rd64(e, st2 + 8), h.st_ino);
    put_str(e, SCRATCH, "/nonexistent/x");
    assert_int_equal(CALL(e, NR_newfstatat, AT_FDCWD_G, SCRATCH, st2, 0), -ENOENT_G);
}

static void test_getrandom_deterministic(void **state)
{
    env_t *e = *state;
    uint8_t first[32], again[32], other[32];
    assert_int_equal(CALL(e, NR_getrandom, SCRATCH, 32, 0), 32);
    assert_true(mem_read(e->mem, SCRATCH, first, 32));

    /* the same seed gives the same bytes */
    sys_config_t cfg = config(1);
    sys_free(e->sys);
    sys_t *s2 = sys_new(e->mem, &sys_abi_rv64, &cfg);
    e->cpu.sys = e->sys = s2;
    assert_int_equal(CALL(e, NR_getrandom, SCRATCH, 32, 0), 32);
    assert_true(mem_read(e->mem, SCRATCH, again, 32));
    assert_memory_equal(first, again, 32);
    sys_free(s2);

    cfg = config(2);
    s2 = sys_new(e->mem, &sys_abi_rv64, &cfg);
    e->cpu.sys = e->sys = s2;
    assert_int_equal(CALL(e, NR_getrandom, SCRATCH, 32, 0), 32);
    assert_true(mem_read(e->mem, SCRATCH, other, 32));
    assert_memory_not_equal(first, other, 32);
    /* sys_random_bytes continues the same stream */
    uint8_t direct[8];
    sys_random_bytes(s2, direct, 8);
    assert_memory_not_equal(direct, other, 8);
}

static void test_clock_deterministic(void **state)
{
    env_t *e = *state;
    e->cpu.instret = 0;
    assert_int_equal(CALL(e, NR_clock_gettime, 1 /* MONOTONIC */, SCRATCH), 0);
    uint64_t s0 = rd64(e, SCRATCH), n0 = rd64(e, SCRATCH + 8);
    e->cpu.instret = 2500000123ull;                      /* 2.5 s at 1 GHz */
    assert_int_equal(CALL(e, NR_clock_gettime, 1, SCRATCH), 0);
    uint64_t t0 = s0 * 1000000000ull + n0;
    uint64_t t1 = rd64(e, SCRATCH) * 1000000000ull + rd64(e, SCRATCH + 8);
    assert_int_equal(t1 - t0, 2500000123ull);
    assert_int_equal(CALL(e, NR_clock_gettime, 0 /* REALTIME */, SCRATCH), 0);
    assert_int_equal(rd64(e, SCRATCH), 1700000000ull + 2);
    assert_int_equal(rd64(e, SCRATCH + 8), 500000123);
    /* same instret, same answer */
    assert_int_equal(CALL(e, NR_clock_gettime, 0, SCRATCH + 16), 0);
    assert_int_equal(rd64(e, SCRATCH + 16), rd64(e, SCRATCH));
    assert_int_equal(rd64(e, SCRATCH + 24), rd64(e, SCRATCH + 8));
    assert_int_equal(CALL(e, NR_clock_gettime, 99, SCRATCH), -EINVAL_G);
}

static void test_uname_and_ids(void **state)
{
    env_t *e = *state;
    assert_int_equal(CALL(e, NR_uname, SCRATCH), 0);
    char f[65];
    assert_true(mem_read(e->mem, SCRATCH, f, 65));
    assert_string_equal(f, "Linux");
    assert_true(mem_read(e->mem, SCRATCH + 2 * 65, f, 65));
    assert_string_equal(f, "6.1.0");
    assert_true(mem_read(e->mem, SCRATCH + 4 * 65, f, 65));
    assert_string_equal(f, "riscv64");
    int64_t pid = CALL(e, NR_getpid, 0);
    assert_true(pid > 1);
    assert_int_equal(CALL(e, NR_getpid, 0), pid);
}

static void test_prlimit(void **state)
{
    env_t *e = *state;
    uint64_t old = SCRATCH + 0x100, new_lim = SCRATCH + 0x200;
    assert_int_equal(CALL(e, NR_prlimit64, 0, 3 /* STACK */, 0, old), 0);
    assert_int_equal(rd64(e, old), 8ull << 20);
    assert_int_equal(rd64(e, old + 8), ~0ull);
    uint8_t lim[16] = {0};
    lim[2] = 0x40;                                        /* 4 MiB soft */
    memset(lim + 8, 0xff, 8);
    assert_true(mem_write(e->mem, new_lim, lim, 16));
    assert_int_equal(CALL(e, NR_prlimit64, 0, 3, new_lim, old), 0);
    assert_int_equal(rd64(e, old), 8ull << 20);           /* old value returned */
    assert_int_equal(CALL(e, NR_prlimit64, 0, 3, 0, old), 0);
    assert_int_equal(rd64(e, old), 4ull << 20);
    assert_int_equal(CALL(e, NR_prlimit64, 0, 99, 0, old), -EINVAL_G);
}

static void test_readlink_self_exe(void **state)
{
    env_t *e = *state;
    sys_set_exe(e->sys, "/bin/sh");
    char want[4096];
    assert_non_null(realpath("/bin/sh", want));
    put_str(e, SCRATCH, "/proc/self/exe");
    int64_t n = CALL(e, NR_readlinkat, AT_FDCWD_G, SCRATCH, SCRATCH + 0x100, 4096);
    assert_int_equal(n, (int64_t)strlen(want));
    char got[4096] = {0};
    assert_true(mem_read(e->mem, SCRATCH + 0x100, got, (uint64_t)n));
    assert_string_equal(got, want);
    assert_int_equal(CALL(e, NR_readlinkat, AT_FDCWD_G, SCRATCH, SCRATCH + 0x100, 3), 3);
    int64_t cwd = CALL(e, NR_getcwd, SCRATCH + 0x100, 4096);
    assert_true(cwd > 1);
}

static void test_signals_futex(void **state)
{
    env_t *e = *state;
    /* record a handler for SIGUSR1 and read it back */
    uint8_t act[24] = { 0x34, 0x12 };
    assert_true(mem_write(e->mem, SCRATCH, act, sizeof act));
    assert_int_equal(CALL(e, NR_rt_sigaction, 10, SCRATCH, 0, 8), 0);
    assert_int_equal(CALL(e, NR_rt_sigaction, 10, 0, SCRATCH + 0x100, 8), 0);
    assert_int_equal(rd64(e, SCRATCH + 0x100), 0x1234);
    assert_int_equal(CALL(e, NR_rt_sigaction, 9, SCRATCH, 0, 8), -EINVAL_G);
    /* futex: wake wakes nobody, wait on a changed value returns EAGAIN */
    assert_true(mem_write(e->mem, SCRATCH + 0x200, "\x05\0\0\0", 4));
    assert_int_equal(CALL(e, NR_futex, SCRATCH + 0x200, 1 | 128, 1), 0);
    assert_int_equal(CALL(e, NR_futex, SCRATCH + 0x200, 0 | 128, 4, 0), -EAGAIN_G);
}

static void test_abort_kills(void **state)
{
    env_t *e = *state;
    int64_t pid = CALL(e, NR_getpid, 0);
    /* SIGCHLD is ignored by default */
    assert_int_equal(call_stops(e, NR_tgkill, (uint64_t)pid, (uint64_t)pid, 17), STOP_NONE);
    assert_int_equal(call_stops(e, NR_tgkill, (uint64_t)pid, (uint64_t)pid, 6), STOP_EXIT);
    assert_int_equal(e->cpu.exit_code, 128 + 6);
}

/* A handler is entered at the boundary after tgkill on an rt_sigframe below
 * sp (a0 the signal, a1 the siginfo, a2 the ucontext, ra the trampoline),
 * and rt_sigreturn brings back the registers, pc and mask it saved. */
static void test_handler_frame(void **state)
{
    env_t *e = *state;
    uint8_t act[24] = { 0 };
    act[0] = 0x00; act[1] = 0x50;                       /* handler 0x5000 */
    act[8] = 4;                                         /* SA_SIGINFO */
    assert_true(mem_write(e->mem, SCRATCH, act, sizeof act));
    assert_int_equal(CALL(e, NR_rt_sigaction, 10, SCRATCH, 0, 8), 0);
    uint64_t sp = SCRATCH + SCRATCH_LEN - 64;
    cpu_set(&e->cpu, 2, sp);
    cpu_set(&e->cpu, 9, 0xabcdef);                      /* s1 */
    e->cpu.pc = 0x4444;
    int64_t pid = CALL(e, NR_getpid, 0);
    assert_int_equal(call_stops(e, NR_tgkill, (uint64_t)pid, (uint64_t)pid, 10), STOP_NONE);
    assert_int_equal(e->cpu.pc, 0x5000);
    assert_int_equal(cpu_get(&e->cpu, 10), 10);
    uint64_t frame = cpu_get(&e->cpu, 2);
    assert_true(frame < sp && (frame & 15) == 0);
    assert_int_equal(cpu_get(&e->cpu, 11), frame);
    assert_int_equal(cpu_get(&e->cpu, 12), frame + 128);
    assert_int_equal(rd64(e, frame) & 0xffffffff, 10);               /* si_signo */
    assert_int_equal((int32_t)(rd64(e, frame + 8) & 0xffffffff), -6);  /* SI_TKILL */
    assert_int_equal(rd64(e, frame + 128 + 176), 0x4444);            /* saved pc */
    assert_true(cpu_get(&e->cpu, 1) != 0);                           /* ra: trampoline */
    /* the signal is blocked inside its handler */
    assert_int_equal(CALL(e, NR_rt_sigprocmask, 0, 0, SCRATCH + 0x200, 8), 0);
    assert_int_equal(rd64(e, SCRATCH + 0x200), 1ull << 9);
    cpu_set(&e->cpu, 9, 0);
    cpu_set(&e->cpu, 2, frame);
    CALL(e, NR_rt_sigreturn, 0);
    assert_int_equal(e->cpu.pc, 0x4444);
    assert_int_equal(cpu_get(&e->cpu, 9), 0xabcdef);
    assert_int_equal(cpu_get(&e->cpu, 2), sp);
    assert_int_equal(CALL(e, NR_rt_sigprocmask, 0, 0, SCRATCH + 0x200, 8), 0);
    assert_int_equal(rd64(e, SCRATCH + 0x200), 0);
}

static void test_exit_group(void **state)
{
    env_t *e = *state;
    assert_int_equal(call_stops(e, NR_exit_group, 0x1234, 0, 0), STOP_EXIT);
    assert_int_equal(e->cpu.exit_code, 0x34);
}

static void test_unsupported_stops(void **state)
{
    env_t *e = *state;
    assert_int_equal(call_stops(e, 9999, 0, 0, 0), STOP_BAD_SYSCALL);
    assert_int_equal(e->cpu.stop_info, 9999);
    assert_int_equal(call_stops(e, NR_clone, 0, 0, 0), STOP_BAD_SYSCALL);
    assert_int_equal(e->cpu.stop_info, NR_clone);
    assert_null(sys_name(&sys_abi_rv64, 9999));
    assert_string_equal(sys_name(&sys_abi_rv64, NR_clone), "clone");
    assert_string_equal(sys_name(&sys_abi_rv64, 63), "read");
    assert_string_equal(sys_name(&sys_abi_rv64, 435), "clone3");
    assert_string_equal(sys_name(&sys_abi_rv64, 259), "riscv_flush_icache");
    /* every table entry is in order and named */
    for (unsigned k = 0; k < sys_abi_rv64.table_size; k++) {
        assert_non_null(sys_abi_rv64.table[k].name);
        if (k) assert_true(sys_abi_rv64.table[k - 1].nr < sys_abi_rv64.table[k].nr);
    }
    assert_true(sys_abi_rv64.table_size >= 300);
}

static void test_mmap_file(void **state)
{
    env_t *e = *state;
    char path[128];
    snprintf(path, sizeof path, "%s/m.bin", e->dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (int k = 0; k < 6000; k++) fputc('a' + k % 26, f);
    fclose(f);
    int64_t fd = guest_open(e, "m.bin", 0);
    assert_true(fd >= 3);
    int64_t a = CALL(e, NR_mmap, 0, 6000, 1, 2 /* PRIVATE */, (uint64_t)fd, 0);
    assert_true(a > 0);
    char buf[4];
    assert_true(mem_read(e->mem, (uint64_t)a + 27, buf, 3));
    assert_memory_equal(buf, "bcd", 3);
    assert_true(mem_read(e->mem, (uint64_t)a + 6000, buf, 4));  /* past EOF: zero */
    assert_memory_equal(buf, "\0\0\0\0", 4);
    assert_int_equal(mem_page(e->mem, (uint64_t)a)->prot, MEM_PROT_READ);
    int64_t b = CALL(e, NR_mmap, 0, 4096, 3, 2, (uint64_t)fd, 4096);   /* offset */
    assert_true(b > 0);
    assert_true(mem_read(e->mem, (uint64_t)b, buf, 1));
    assert_int_equal(buf[0], 'a' + 4096 % 26);
    assert_int_equal(CALL(e, NR_mmap, 0, 4096, 1, 2, (uint64_t)fd, 100), -EINVAL_G);
    assert_int_equal(CALL(e, NR_mmap, 0, 4096, 1, 2, 77, 0), -EBADF_G);
}

/* What ld.so does with a shared library: reserve the whole span with a
 * private file mapping, map the data segment over it with MAP_FIXED at its
 * file offset, zero-fill bss with an anonymous MAP_FIXED mapping, close
 * the gap with mprotect(PROT_NONE), then make RELRO read-only. */
static void test_mmap_library_pattern(void **state)
{
    env_t *e = *state;
    char path[128];
    snprintf(path, sizeof path, "%s/lib.so", e->dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (int k = 0; k < 3 * 4096; k++) fputc(k < 8192 ? 'T' : 'D', f);   /* text, data */
    fclose(f);
    int64_t fd = guest_open(e, "lib.so", 0);
    int64_t base = CALL(e, NR_mmap, 0, 0x8000, 5 /* R|X */, 2 /* PRIVATE */, (uint64_t)fd, 0);
    assert_true(base > 0 && (base & 0xfff) == 0);
    /* data: file page 2 at base + 0x5000, read-write, over the reservation */
    int64_t d = CALL(e, NR_mmap, (uint64_t)base + 0x5000, 0x1000, 3, 0x12 /* PRIVATE|FIXED */,
                     (uint64_t)fd, 0x2000);
    assert_int_equal(d, base + 0x5000);
    /* bss: one anonymous page after it */
    int64_t z = CALL(e, NR_mmap, (uint64_t)base + 0x6000, 0x1000, 3, 0x32 /* |ANONYMOUS */,
                     (uint64_t)-1, 0);
    assert_int_equal(z, base + 0x6000);
    assert_int_equal(CALL(e, NR_mprotect, (uint64_t)base + 0x2000, 0x3000, 0), 0);
    char c;
    assert_true(mem_read(e->mem, (uint64_t)base + 0x100, &c, 1));
    assert_int_equal(c, 'T');
    assert_true(mem_read(e->mem, (uint64_t)base + 0x5010, &c, 1));
    assert_int_equal(c, 'D');
    assert_true(mem_read(e->mem, (uint64_t)base + 0x6010, &c, 1));
    assert_int_equal(c, 0);
    assert_int_equal(mem_page(e->mem, (uint64_t)base)->prot, MEM_PROT_READ | MEM_PROT_EXEC);
    assert_int_equal(mem_page(e->mem, (uint64_t)base + 0x3000)->prot, 0);
    assert_int_equal(mem_page(e->mem, (uint64_t)base + 0x5000)->prot,
                     MEM_PROT_READ | MEM_PROT_WRITE);
    /* writes to the private data mapping do not reach the file */
    assert_true(mem_write(e->mem, (uint64_t)base + 0x5010, "x", 1));
    f = fopen(path, "rb");
    fseek(f, 0x2010, SEEK_SET);
    assert_int_equal(fgetc(f), 'D');
    fclose(f);
    assert_int_equal(CALL(e, NR_mprotect, (uint64_t)base + 0x5000, 0x1000, 1), 0);   /* RELRO */
    assert_int_equal(mem_page(e->mem, (uint64_t)base + 0x5000)->prot, MEM_PROT_READ);
    assert_int_equal(CALL(e, NR_munmap, (uint64_t)base, 0x7000), 0);
    assert_null(mem_page(e->mem, (uint64_t)base + 0x6000));
}

/* The exec-map hook's calls, as recorded by record_exec_map. */
typedef struct exec_maps {
    int calls;
    uint64_t addr, len, off;
    ino_t ino;                  /* of the host file the hook was given */
} exec_maps_t;

static void record_exec_map(void *ctx, int host_fd, uint64_t addr, uint64_t len, uint64_t off)
{
    exec_maps_t *m = ctx;
    struct stat st;
    assert_int_equal(fstat(host_fd, &st), 0);
    m->calls++;
    m->addr = addr;
    m->len = len;
    m->off = off;
    m->ino = st.st_ino;
}

/* ld.so's pattern again: only file mappings with PROT_EXEC are reported
 * (with their host file, address, whole-page length and offset), so the
 * simulator can name a library's code. */
static void test_exec_map_hook(void **state)
{
    env_t *e = *state;
    exec_maps_t seen = { 0 };
    sys_set_exec_map_hook(e->sys, record_exec_map, &seen);
    char path[128];
    snprintf(path, sizeof path, "%s/lib.so", e->dir);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (int k = 0; k < 3 * 4096; k++) fputc('L', f);
    fclose(f);
    struct stat st;
    assert_int_equal(stat(path, &st), 0);
    int64_t fd = guest_open(e, "lib.so", 0);
    int64_t base = CALL(e, NR_mmap, 0, 0x7800, 5 /* R|X */, 2 /* PRIVATE */, (uint64_t)fd, 0);
    assert_true(base > 0);
    assert_int_equal(seen.calls, 1);
    assert_int_equal(seen.addr, base);
    assert_int_equal(seen.len, 0x8000);                     /* whole pages */
    assert_int_equal(seen.off, 0);
    assert_int_equal(seen.ino, st.st_ino);
    /* data over it (RW), bss (anonymous, even if executable): not reported */
    assert_int_equal(CALL(e, NR_mmap, (uint64_t)base + 0x5000, 0x1000, 3, 0x12, (uint64_t)fd,
                          0x2000), base + 0x5000);
    assert_int_equal(CALL(e, NR_mmap, (uint64_t)base + 0x6000, 0x1000, 7, 0x32, (uint64_t)-1,
                          0), base + 0x6000);
    assert_int_equal(seen.calls, 1);
    /* a failed mmap is not reported; a MAP_FIXED executable one is */
    assert_int_equal(CALL(e, NR_mmap, 0, 0x1000, 5, 2, 77, 0), -EBADF_G);
    assert_int_equal(seen.calls, 1);
    assert_int_equal(CALL(e, NR_mmap, (uint64_t)base + 0x1000, 0x1000, 5, 0x12, (uint64_t)fd,
                          0x1000), base + 0x1000);
    assert_int_equal(seen.calls, 2);
    assert_int_equal(seen.addr, base + 0x1000);
    assert_int_equal(seen.off, 0x1000);
    /* without a hook nothing is called */
    sys_set_exec_map_hook(e->sys, NULL, NULL);
    assert_true(CALL(e, NR_mmap, 0, 0x1000, 5, 2, (uint64_t)fd, 0) > 0);
    assert_int_equal(seen.calls, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(name) cmocka_unit_test_setup_teardown(name, setup, teardown)
        T(test_brk),
        T(test_mmap_anon_fixed),
        T(test_munmap_mprotect),
        T(test_mremap),
        T(test_mmap_file),
        T(test_mmap_library_pattern),
        T(test_exec_map_hook),
        T(test_file_io),
        T(test_fd_control),
        T(test_fstat_layout),
        T(test_getrandom_deterministic),
        T(test_clock_deterministic),
        T(test_uname_and_ids),
        T(test_prlimit),
        T(test_readlink_self_exe),
        T(test_signals_futex),
        T(test_handler_frame),
        T(test_abort_kills),
        T(test_exit_group),
        T(test_unsupported_stops),
#undef T
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
