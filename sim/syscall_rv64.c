/*
 * syscall_rv64.c - the RISC-V (RV64, LP64) Linux system-call ABI.
 *
 * RISC-V uses the asm-generic syscall numbers: the number in a7, arguments
 * in a0..a5, the result or -errno in a0.  This file holds the number ->
 * handler table (every asm-generic call is named, so reports can name the
 * unsupported ones) and the conversions between the asm-generic guest
 * encodings (O_*, MAP_*, ioctl requests, struct stat, struct termios) and
 * the host / ABI-neutral forms the handlers in syscall.c work with.
 */
#include <fcntl.h>
#include <stddef.h>
#include <string.h>

#include "syscall_impl.h"
#include "sys.h"

/* ---- open flags: asm-generic values (as on x86-64) <-> host ---------------- */

static const struct { uint64_t guest; int host; } rv64_open_flags[] = {
    { 0100,      O_CREAT },     { 0200,      O_EXCL },     { 0400,      O_NOCTTY },
    { 01000,     O_TRUNC },     { 02000,     O_APPEND },   { 04000,     O_NONBLOCK },
    { 010000,    O_DSYNC },     { 020000,    O_ASYNC },    { 040000,    O_DIRECT },
    { 0200000,   O_DIRECTORY }, { 0400000,   O_NOFOLLOW }, { 01000000,  O_NOATIME },
    { 02000000,  O_CLOEXEC },   { 04000000,  O_SYNC & ~O_DSYNC },
    { 010000000, O_PATH },      { 020000000, O_TMPFILE & ~O_DIRECTORY },
};
#define RV64_O_LARGEFILE 0100000
#define RV64_O_ACCMODE   3

static int rv64_open_flags_in(uint64_t g)
{
    int h = (int)(g & RV64_O_ACCMODE);           /* O_RDONLY/WRONLY/RDWR: 0/1/2 */
    for (size_t k = 0; k < sizeof rv64_open_flags / sizeof rv64_open_flags[0]; k++)
        if (g & rv64_open_flags[k].guest) h |= rv64_open_flags[k].host;
#if O_LARGEFILE != 0
    if (g & RV64_O_LARGEFILE) h |= O_LARGEFILE;
#endif
    return h;
}

static uint64_t rv64_open_flags_out(int h)
{
    uint64_t g = (uint64_t)(h & O_ACCMODE);
    for (size_t k = 0; k < sizeof rv64_open_flags / sizeof rv64_open_flags[0]; k++)
        if ((h & rv64_open_flags[k].host) == rv64_open_flags[k].host) g |= rv64_open_flags[k].guest;
#if O_LARGEFILE != 0
    if (h & O_LARGEFILE) g |= RV64_O_LARGEFILE;
#elif defined(__x86_64__)
    if (h & 0100000) g |= RV64_O_LARGEFILE;      /* the x86-64 kernel's bit */
#endif
    return g;
}

/* ---- mmap flags, ioctl requests, small number spaces ------------------------ */

static unsigned rv64_mmap_flags_in(uint64_t g)
{
    unsigned f = 0;
    switch (g & 0xf) {
    case 1: f = SYS_MAP_SHARED; break;
    case 2: f = SYS_MAP_PRIVATE; break;
    case 3: f = SYS_MAP_SHARED | SYS_MAP_SHARED_VALIDATE; break;
    default: return SYS_MAP_UNKNOWN;
    }
    if (g & 0x10) f |= SYS_MAP_FIXED;
    if (g & 0x20) f |= SYS_MAP_ANON;
    if (g & 0x100000) f |= SYS_MAP_FIXED_NOREPLACE;
    /* GROWSDOWN, DENYWRITE, EXECUTABLE, LOCKED, NORESERVE, POPULATE,
     * NONBLOCK, STACK, HUGETLB: no effect on a simulated address space. */
    return f;
}

static int rv64_ioctl_in(uint64_t g)
{
    switch (g & 0xffffffffu) {
    case 0x5401: return SYS_IOCTL_TCGETS;
    case 0x5402: return SYS_IOCTL_TCSETS;
    case 0x5403: return SYS_IOCTL_TCSETSW;
    case 0x5404: return SYS_IOCTL_TCSETSF;
    case 0x540f: return SYS_IOCTL_TIOCGPGRP;
    case 0x5413: return SYS_IOCTL_TIOCGWINSZ;
    case 0x5414: return SYS_IOCTL_TIOCSWINSZ;
    case 0x541b: return SYS_IOCTL_FIONREAD;
    case 0x5421: return SYS_IOCTL_FIONBIO;
    default:     return SYS_IOCTL_UNKNOWN;
    }
}

/* asm-generic RLIMIT_*, signal numbers and SIG_BLOCK.. are the Linux
 * generic ones. */
static int rv64_rlimit_in(uint64_t g) { return g < SYS_NRLIMIT ? (int)g : -1; }
static int rv64_signal_in(uint64_t g) { return g <= SYS_NSIG ? (int)g : 0; }
static int rv64_sigmask_how_in(uint64_t g) { return g <= 2 ? (int)g : -1; }

/* ---- structures ------------------------------------------------------------- */

/* asm-generic struct stat, 128 bytes. */
static void rv64_stat_out(const sys_stat_t *st, uint8_t *b)
{
    sys_put(b, 0, st->dev, 8);
    sys_put(b, 8, st->ino, 8);
    sys_put(b, 16, st->mode, 4);
    sys_put(b, 20, st->nlink, 4);
    sys_put(b, 24, st->uid, 4);
    sys_put(b, 28, st->gid, 4);
    sys_put(b, 32, st->rdev, 8);
    sys_put(b, 40, 0, 8);                        /* __pad1 */
    sys_put(b, 48, (uint64_t)st->size, 8);
    sys_put(b, 56, (uint64_t)st->blksize, 4);
    sys_put(b, 60, 0, 4);                        /* __pad2 */
    sys_put(b, 64, (uint64_t)st->blocks, 8);
    sys_put(b, 72, (uint64_t)st->atime, 8);
    sys_put(b, 80, (uint64_t)st->atime_nsec, 8);
    sys_put(b, 88, (uint64_t)st->mtime, 8);
    sys_put(b, 96, (uint64_t)st->mtime_nsec, 8);
    sys_put(b, 104, (uint64_t)st->ctime, 8);
    sys_put(b, 112, (uint64_t)st->ctime_nsec, 8);
    sys_put(b, 120, 0, 8);                       /* __unused4, __unused5 */
}

/* asm-generic kernel struct termios: four u32 flags, c_line, c_cc[19]. */
static void rv64_termios_out(const sys_termios_t *t, uint8_t *b)
{
    sys_put(b, 0, t->iflag, 4);
    sys_put(b, 4, t->oflag, 4);
    sys_put(b, 8, t->cflag, 4);
    sys_put(b, 12, t->lflag, 4);
    b[16] = t->line;
    for (int k = 0; k < SYS_NCCS; k++) b[17 + k] = t->cc[k];
}

static void rv64_termios_in(const uint8_t *b, sys_termios_t *t)
{
    t->iflag = (uint32_t)sys_get(b, 0, 4);
    t->oflag = (uint32_t)sys_get(b, 4, 4);
    t->cflag = (uint32_t)sys_get(b, 8, 4);
    t->lflag = (uint32_t)sys_get(b, 12, 4);
    t->line = b[16];
    for (int k = 0; k < SYS_NCCS; k++) t->cc[k] = b[17 + k];
}

/* ---- the table: every asm-generic number; NULL = known but unsupported ----- */

/* ---- signal frames (arch/riscv/kernel/signal.c) ------------------------------ */
/* struct rt_sigframe: siginfo (128 bytes), then struct ucontext: uc_flags,
 * uc_link, uc_stack (24), uc_sigmask (8, padded to 128), and at 176 the
 * sigcontext: pc and x1..x31, then f0..f31 and fcsr (the union's 528
 * bytes). */
enum { RV_UC = 128, RV_UC_STACK = 16, RV_UC_MASK = 40, RV_UC_REGS = 176,
       RV_UC_FPREGS = RV_UC_REGS + 256, RV_UC_FCSR = RV_UC_FPREGS + 256,
       RV_UC_SIZE = RV_UC_REGS + 256 + 528, RV_FRAME = RV_UC + RV_UC_SIZE };
enum { RV_NR_RT_SIGRETURN = 139 };

/* The handlers return to a page holding li a7, 139; ecall (the kernel's
 * vDSO rt_sigreturn; qemu-riscv64 maps a page of its own the same way),
 * mapped when a handler first needs it. */
static uint64_t rv64_trampoline(sys_t *s)
{
    if (!s->sig_tramp) {
        uint8_t code[8];
        sys_put(code, 0, 0x00000893u | (RV_NR_RT_SIGRETURN << 20), 4);   /* addi a7,x0,139 */
        sys_put(code, 4, 0x00000073u, 4);                              /* ecall */
        s->sig_tramp = sys_map_code(s, code, sizeof code);
    }
    return s->sig_tramp;
}

static bool rv64_sig_frame(sys_t *s, cpu_t *c, const sys_sigframe_t *f)
{
    uint64_t tramp = rv64_trampoline(s);
    uint64_t frame = (f->sp - RV_FRAME) & ~15ull;
    if (!tramp || frame > f->sp) return false;
    uint8_t b[RV_FRAME] = { 0 };
    uint8_t *uc = b + RV_UC;
    memcpy(b, f->info, 128);
    memcpy(uc + RV_UC_STACK, f->uc_stack, 24);
    sys_put(uc, RV_UC_MASK, f->old_mask, 8);
    sys_put(uc, RV_UC_REGS, f->resume_pc, 8);
    for (unsigned k = 1; k < 32; k++) sys_put(uc, RV_UC_REGS + 8 * k, cpu_get(c, REG_INT0 + k), 8);
    for (unsigned k = 0; k < 32; k++) sys_put(uc, RV_UC_FPREGS + 8 * k, cpu_get(c, REG_FP0 + k), 8);
    sys_put(uc, RV_UC_FCSR, (c->frm << 5) | c->fflags, 4);
    if (!sys_copy_out(s, frame, b, sizeof b)) return false;
    cpu_set(c, 10, (uint64_t)f->guest_sig);                 /* a0 */
    cpu_set(c, 11, frame);                                  /* a1: &info */
    cpu_set(c, 12, frame + RV_UC);                          /* a2: &uc */
    cpu_set(c, 1, tramp);                                   /* ra */
    cpu_set(c, 2, frame);                                   /* sp */
    c->pc = f->handler;
    return true;
}

/* rt_sigreturn: the frame is at sp, as the handler found it. */
static int64_t rv64_h_rt_sigreturn(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    (void)a;
    uint8_t b[RV_FRAME];
    if (!sys_copy_in(s, cpu_get(c, 2), b, sizeof b)) sys_bad_frame(c);
    const uint8_t *uc = b + RV_UC;
    c->pc = sys_get(uc, RV_UC_REGS, 8);
    for (unsigned k = 1; k < 32; k++) cpu_set(c, REG_INT0 + k, sys_get(uc, RV_UC_REGS + 8 * k, 8));
    for (unsigned k = 0; k < 32; k++) cpu_set(c, REG_FP0 + k, sys_get(uc, RV_UC_FPREGS + 8 * k, 8));
    uint64_t fcsr = sys_get(uc, RV_UC_FCSR, 4);
    c->fflags = fcsr & 0x1f;
    c->frm = (fcsr >> 5) & 7;
    sys_sigreturn_restore(s, c, sys_get(uc, RV_UC_MASK, 8), uc + RV_UC_STACK);
    return SYS_NO_RESULT;
}

static const sys_entry_t rv64_table[] = {
    {   0, "io_setup",                NULL },
    {   1, "io_destroy",              NULL },
    {   2, "io_submit",               NULL },
    {   3, "io_cancel",               NULL },
    {   4, "io_getevents",            NULL },
    {   5, "setxattr",                NULL },
    {   6, "lsetxattr",               NULL },
    {   7, "fsetxattr",               NULL },
    {   8, "getxattr",                NULL },
    {   9, "lgetxattr",               NULL },
    {  10, "fgetxattr",               NULL },
    {  11, "listxattr",               NULL },
    {  12, "llistxattr",              NULL },
    {  13, "flistxattr",              NULL },
    {  14, "removexattr",             NULL },
    {  15, "lremovexattr",            NULL },
    {  16, "fremovexattr",            NULL },
    {  17, "getcwd",                  sys_h_getcwd },
    {  18, "lookup_dcookie",          NULL },
    {  19, "eventfd2",                NULL },
    {  20, "epoll_create1",           NULL },
    {  21, "epoll_ctl",               NULL },
    {  22, "epoll_pwait",             NULL },
    {  23, "dup",                     sys_h_dup },
    {  24, "dup3",                    sys_h_dup3 },
    {  25, "fcntl",                   sys_h_fcntl },
    {  26, "inotify_init1",           NULL },
    {  27, "inotify_add_watch",       NULL },
    {  28, "inotify_rm_watch",        NULL },
    {  29, "ioctl",                   sys_h_ioctl },
    {  30, "ioprio_set",              NULL },
    {  31, "ioprio_get",              NULL },
    {  32, "flock",                   NULL },
    {  33, "mknodat",                 NULL },
    {  34, "mkdirat",                 sys_h_mkdirat },
    {  35, "unlinkat",                sys_h_unlinkat },
    {  36, "symlinkat",               sys_h_symlinkat },
    {  37, "linkat",                  sys_h_linkat },
    {  39, "umount2",                 NULL },
    {  40, "mount",                   NULL },
    {  41, "pivot_root",              NULL },
    {  42, "nfsservctl",              NULL },
    {  43, "statfs",                  NULL },
    {  44, "fstatfs",                 NULL },
    {  45, "truncate",                sys_h_truncate },
    {  46, "ftruncate",               sys_h_ftruncate },
    {  47, "fallocate",               NULL },
    {  48, "faccessat",               sys_h_faccessat },
    {  49, "chdir",                   sys_h_chdir },
    {  50, "fchdir",                  sys_h_fchdir },
    {  51, "chroot",                  NULL },
    {  52, "fchmod",                  sys_h_fchmod },
    {  53, "fchmodat",                sys_h_fchmodat },
    {  54, "fchownat",                sys_h_fchownat },
    {  55, "fchown",                  sys_h_fchown },
    {  56, "openat",                  sys_h_openat },
    {  57, "close",                   sys_h_close },
    {  58, "vhangup",                 NULL },
    {  59, "pipe2",                   sys_h_pipe2 },
    {  60, "quotactl",                NULL },
    {  61, "getdents64",              sys_h_getdents64 },
    {  62, "lseek",                   sys_h_lseek },
    {  63, "read",                    sys_h_read },
    {  64, "write",                   sys_h_write },
    {  65, "readv",                   sys_h_readv },
    {  66, "writev",                  sys_h_writev },
    {  67, "pread64",                 sys_h_pread64 },
    {  68, "pwrite64",                sys_h_pwrite64 },
    {  69, "preadv",                  sys_h_preadv },
    {  70, "pwritev",                 sys_h_pwritev },
    {  71, "sendfile",                NULL },
    {  72, "pselect6",                NULL },
    {  73, "ppoll",                   sys_h_ppoll },
    {  74, "signalfd4",               NULL },
    {  75, "vmsplice",                NULL },
    {  76, "splice",                  NULL },
    {  77, "tee",                     NULL },
    {  78, "readlinkat",              sys_h_readlinkat },
    {  79, "newfstatat",              sys_h_newfstatat },
    {  80, "fstat",                   sys_h_fstat },
    {  81, "sync",                    NULL },
    {  82, "fsync",                   sys_h_fsync },
    {  83, "fdatasync",               sys_h_fsync },
    {  84, "sync_file_range",         NULL },
    {  85, "timerfd_create",          NULL },
    {  86, "timerfd_settime",         NULL },
    {  87, "timerfd_gettime",         NULL },
    {  88, "utimensat",               sys_h_utimensat },
    {  89, "acct",                    NULL },
    {  90, "capget",                  NULL },
    {  91, "capset",                  NULL },
    {  92, "personality",             NULL },
    {  93, "exit",                    sys_h_exit },
    {  94, "exit_group",              sys_h_exit_group },
    {  95, "waitid",                  NULL },
    {  96, "set_tid_address",         sys_h_set_tid_address },
    {  97, "unshare",                 NULL },
    {  98, "futex",                   sys_h_futex },
    {  99, "set_robust_list",         sys_h_set_robust_list },
    { 100, "get_robust_list",         sys_h_get_robust_list },
    { 101, "nanosleep",               sys_h_nanosleep },
    { 102, "getitimer",               sys_h_getitimer },
    { 103, "setitimer",               sys_h_setitimer },
    { 104, "kexec_load",              NULL },
    { 105, "init_module",             NULL },
    { 106, "delete_module",           NULL },
    { 107, "timer_create",            NULL },
    { 108, "timer_gettime",           NULL },
    { 109, "timer_getoverrun",        NULL },
    { 110, "timer_settime",           NULL },
    { 111, "timer_delete",            NULL },
    { 112, "clock_settime",           NULL },
    { 113, "clock_gettime",           sys_h_clock_gettime },
    { 114, "clock_getres",            sys_h_clock_getres },
    { 115, "clock_nanosleep",         sys_h_clock_nanosleep },
    { 116, "syslog",                  NULL },
    { 117, "ptrace",                  NULL },
    { 118, "sched_setparam",          NULL },
    { 119, "sched_setscheduler",      NULL },
    { 120, "sched_getscheduler",      NULL },
    { 121, "sched_getparam",          NULL },
    { 122, "sched_setaffinity",       sys_h_sched_setaffinity },
    { 123, "sched_getaffinity",       sys_h_sched_getaffinity },
    { 124, "sched_yield",             sys_h_sched_yield },
    { 125, "sched_get_priority_max",  NULL },
    { 126, "sched_get_priority_min",  NULL },
    { 127, "sched_rr_get_interval",   NULL },
    { 128, "restart_syscall",         NULL },
    { 129, "kill",                    sys_h_kill },
    { 130, "tkill",                   sys_h_tkill },
    { 131, "tgkill",                  sys_h_tgkill },
    { 132, "sigaltstack",             sys_h_sigaltstack },
    { 133, "rt_sigsuspend",           sys_h_rt_sigsuspend },
    { 134, "rt_sigaction",            sys_h_rt_sigaction },
    { 135, "rt_sigprocmask",          sys_h_rt_sigprocmask },
    { 136, "rt_sigpending",           sys_h_rt_sigpending },
    { 137, "rt_sigtimedwait",         sys_h_rt_sigtimedwait },
    { 138, "rt_sigqueueinfo",         NULL },
    { 139, "rt_sigreturn",            rv64_h_rt_sigreturn },
    { 140, "setpriority",             NULL },
    { 141, "getpriority",             NULL },
    { 142, "reboot",                  NULL },
    { 143, "setregid",                NULL },
    { 144, "setgid",                  NULL },
    { 145, "setreuid",                NULL },
    { 146, "setuid",                  NULL },
    { 147, "setresuid",               NULL },
    { 148, "getresuid",               NULL },
    { 149, "setresgid",               NULL },
    { 150, "getresgid",               NULL },
    { 151, "setfsuid",                NULL },
    { 152, "setfsgid",                NULL },
    { 153, "times",                   sys_h_times },
    { 154, "setpgid",                 sys_h_setpgid },
    { 155, "getpgid",                 sys_h_getpgid },
    { 156, "getsid",                  sys_h_getsid },
    { 157, "setsid",                  sys_h_setsid },
    { 158, "getgroups",               sys_h_getgroups },
    { 159, "setgroups",               NULL },
    { 160, "uname",                   sys_h_uname },
    { 161, "sethostname",             NULL },
    { 162, "setdomainname",           NULL },
    { 163, "getrlimit",               sys_h_getrlimit },
    { 164, "setrlimit",               sys_h_setrlimit },
    { 165, "getrusage",               sys_h_getrusage },
    { 166, "umask",                   sys_h_umask },
    { 167, "prctl",                   NULL },
    { 168, "getcpu",                  NULL },
    { 169, "gettimeofday",            sys_h_gettimeofday },
    { 170, "settimeofday",            NULL },
    { 171, "adjtimex",                NULL },
    { 172, "getpid",                  sys_h_getpid },
    { 173, "getppid",                 sys_h_getppid },
    { 174, "getuid",                  sys_h_getuid },
    { 175, "geteuid",                 sys_h_geteuid },
    { 176, "getgid",                  sys_h_getgid },
    { 177, "getegid",                 sys_h_getegid },
    { 178, "gettid",                  sys_h_gettid },
    { 179, "sysinfo",                 sys_h_sysinfo },
    { 180, "mq_open",                 NULL },
    { 181, "mq_unlink",               NULL },
    { 182, "mq_timedsend",            NULL },
    { 183, "mq_timedreceive",         NULL },
    { 184, "mq_notify",               NULL },
    { 185, "mq_getsetattr",           NULL },
    { 186, "msgget",                  NULL },
    { 187, "msgctl",                  NULL },
    { 188, "msgrcv",                  NULL },
    { 189, "msgsnd",                  NULL },
    { 190, "semget",                  NULL },
    { 191, "semctl",                  NULL },
    { 192, "semtimedop",              NULL },
    { 193, "semop",                   NULL },
    { 194, "shmget",                  NULL },
    { 195, "shmctl",                  NULL },
    { 196, "shmat",                   NULL },
    { 197, "shmdt",                   NULL },
    { 198, "socket",                  NULL },
    { 199, "socketpair",              NULL },
    { 200, "bind",                    NULL },
    { 201, "listen",                  NULL },
    { 202, "accept",                  NULL },
    { 203, "connect",                 NULL },
    { 204, "getsockname",             NULL },
    { 205, "getpeername",             NULL },
    { 206, "sendto",                  NULL },
    { 207, "recvfrom",                NULL },
    { 208, "setsockopt",              NULL },
    { 209, "getsockopt",              NULL },
    { 210, "shutdown",                NULL },
    { 211, "sendmsg",                 NULL },
    { 212, "recvmsg",                 NULL },
    { 213, "readahead",               NULL },
    { 214, "brk",                     sys_h_brk },
    { 215, "munmap",                  sys_h_munmap },
    { 216, "mremap",                  sys_h_mremap },
    { 217, "add_key",                 NULL },
    { 218, "request_key",             NULL },
    { 219, "keyctl",                  NULL },
    { 220, "clone",                   sys_h_clone },
    { 221, "execve",                  NULL },
    { 222, "mmap",                    sys_h_mmap },
    { 223, "fadvise64",               sys_h_fadvise64 },
    { 224, "swapon",                  NULL },
    { 225, "swapoff",                 NULL },
    { 226, "mprotect",                sys_h_mprotect },
    { 227, "msync",                   sys_h_msync },
    { 228, "mlock",                   sys_h_mlock },
    { 229, "munlock",                 sys_h_mlock },
    { 230, "mlockall",                sys_h_mlock },
    { 231, "munlockall",              sys_h_mlock },
    { 232, "mincore",                 NULL },
    { 233, "madvise",                 sys_h_madvise },
    { 234, "remap_file_pages",        NULL },
    { 235, "mbind",                   NULL },
    { 236, "get_mempolicy",           NULL },
    { 237, "set_mempolicy",           NULL },
    { 238, "migrate_pages",           NULL },
    { 239, "move_pages",              NULL },
    { 240, "rt_tgsigqueueinfo",       NULL },
    { 241, "perf_event_open",         NULL },
    { 242, "accept4",                 NULL },
    { 243, "recvmmsg",                NULL },
    { 258, "riscv_hwprobe",           sys_h_enosys },
    { 259, "riscv_flush_icache",      sys_h_riscv_flush_icache },
    { 260, "wait4",                   NULL },
    { 261, "prlimit64",               sys_h_prlimit64 },
    { 262, "fanotify_init",           NULL },
    { 263, "fanotify_mark",           NULL },
    { 264, "name_to_handle_at",       NULL },
    { 265, "open_by_handle_at",       NULL },
    { 266, "clock_adjtime",           NULL },
    { 267, "syncfs",                  NULL },
    { 268, "setns",                   NULL },
    { 269, "sendmmsg",                NULL },
    { 270, "process_vm_readv",        NULL },
    { 271, "process_vm_writev",       NULL },
    { 272, "kcmp",                    NULL },
    { 273, "finit_module",            NULL },
    { 274, "sched_setattr",           NULL },
    { 275, "sched_getattr",           NULL },
    { 276, "renameat2",               sys_h_renameat2 },
    { 277, "seccomp",                 NULL },
    { 278, "getrandom",               sys_h_getrandom },
    { 279, "memfd_create",            NULL },
    { 280, "bpf",                     NULL },
    { 281, "execveat",                NULL },
    { 282, "userfaultfd",             NULL },
    { 283, "membarrier",              sys_h_enosys },
    { 284, "mlock2",                  sys_h_mlock },
    { 285, "copy_file_range",         NULL },
    { 286, "preadv2",                 NULL },
    { 287, "pwritev2",                NULL },
    { 288, "pkey_mprotect",           NULL },
    { 289, "pkey_alloc",              sys_h_enosys },
    { 290, "pkey_free",               NULL },
    { 291, "statx",                   sys_h_statx },
    { 292, "io_pgetevents",           NULL },
    { 293, "rseq",                    sys_h_enosys },
    { 294, "kexec_file_load",         NULL },
    { 424, "pidfd_send_signal",       NULL },
    { 425, "io_uring_setup",          sys_h_enosys },
    { 426, "io_uring_enter",          NULL },
    { 427, "io_uring_register",       NULL },
    { 428, "open_tree",               NULL },
    { 429, "move_mount",              NULL },
    { 430, "fsopen",                  NULL },
    { 431, "fsconfig",                NULL },
    { 432, "fsmount",                 NULL },
    { 433, "fspick",                  NULL },
    { 434, "pidfd_open",              NULL },
    { 435, "clone3",                  sys_h_enosys },
    { 436, "close_range",             sys_h_enosys },
    { 437, "openat2",                 NULL },
    { 438, "pidfd_getfd",             NULL },
    { 439, "faccessat2",              sys_h_faccessat2 },
    { 440, "process_madvise",         NULL },
    { 441, "epoll_pwait2",            NULL },
    { 442, "mount_setattr",           NULL },
    { 443, "quotactl_fd",             NULL },
    { 444, "landlock_create_ruleset", sys_h_enosys },
    { 445, "landlock_add_rule",       NULL },
    { 446, "landlock_restrict_self",  NULL },
    { 447, "memfd_secret",            sys_h_enosys },
    { 448, "process_mrelease",        NULL },
    { 449, "futex_waitv",             sys_h_enosys },
    { 450, "set_mempolicy_home_node", NULL },
    { 451, "cachestat",               NULL },
    { 452, "fchmodat2",               NULL },
    { 453, "map_shadow_stack",        NULL },
    { 454, "futex_wake",              NULL },
    { 455, "futex_wait",              NULL },
    { 456, "futex_requeue",           NULL },
    { 457, "statmount",               NULL },
    { 458, "listmount",               NULL },
    { 459, "lsm_get_self_attr",       NULL },
    { 460, "lsm_set_self_attr",       NULL },
    { 461, "lsm_list_modules",        NULL },
    { 462, "mseal",                   NULL },
};

const sys_abi_t sys_abi_rv64 = {
    .name = "riscv64-linux",
    .nr_reg = 17,                                  /* a7 */
    .arg_reg = { 10, 11, 12, 13, 14, 15 },         /* a0..a5 */
    .ret_reg = 10,                                 /* a0 */
    .err_flag_reg = -1,
    .table = rv64_table,
    .table_size = sizeof rv64_table / sizeof rv64_table[0],
    .page_size = 4096,
    .uname_machine = "riscv64",
    .errno_out = NULL,                             /* Linux generic numbers */
    .open_flags_in = rv64_open_flags_in,
    .open_flags_out = rv64_open_flags_out,
    .mmap_flags_in = rv64_mmap_flags_in,
    .ioctl_in = rv64_ioctl_in,
    .rlimit_in = rv64_rlimit_in,
    .signal_in = rv64_signal_in,
    .sigmask_how_in = rv64_sigmask_how_in,
    .madv_dontneed = 4,
    .rlim_infinity = ~0ull,
    .clock_tick_hz = 100,
    .stat_size = 128,
    .stat_out = rv64_stat_out,
    .termios_size = 36,
    .termios_out = rv64_termios_out,
    .termios_in = rv64_termios_in,
    .sigaction_size = 24,                          /* handler, flags, mask */
    .sp_reg = 2,
    .sigaction_restorer_arg = false,
    .sa_siginfo = 4, .sa_onstack = 0x08000000, .sa_nodefer = 0x40000000,
    .sa_resethand = 0x80000000,
    .minsigstksz = 2048,
    .trap_pc_after = false,
    .sig_frame = rv64_sig_frame,
    .clone_tls_before_ctid = true,                 /* CONFIG_CLONE_BACKWARDS */
    .tls_reg = 4,                                  /* tp */
};
