/*
 * syscall_alpha.c - the Linux/Alpha system-call ABI.
 *
 * callsys takes the number in v0 (r0) and arguments in a0..a5 (r16..r21);
 * the result comes back in v0 with a3 (r19) = 0, or the positive errno in
 * v0 with a3 = 1.  A few calls return a second value in a4 (r20): getxpid,
 * getxuid, getxgid and pipe.  Alpha keeps much of OSF/1: its own syscall
 * numbers, errno values from 35 up, O_* and MAP_* bits, ioctl requests
 * (the _IOC direction bits are 3 wide), termios flag bits and c_cc
 * indices, signal numbers (SIGBUS 10, SIGUSR1 30...), RLIMIT order and an
 * RLIM_INFINITY of 2^63 - 1, USER_HZ 1024, 8 KiB pages and two stat
 * layouts (struct stat with 32-bit fields, struct stat64).
 *
 * This file holds the number -> handler table (every Alpha number named,
 * so reports can name unsupported calls), the conversions to and from the
 * generic forms the handlers in syscall.c use, and the Alpha-only calls:
 * the two-register returns, osf_brk's error convention, the path calls
 * older than the *at family, and osf_getsysinfo / osf_setsysinfo for the
 * IEEE floating-point control word (swcr), which glibc's fenv functions
 * use, kept consistent with the FPCR as Linux and qemu-alpha do.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>

#include "alpha_fp.h"
#include "syscall_impl.h"
#include "sys.h"

/* Registers: v0 = r0, a0..a5 = r16..r21 (a3 = r19 the error flag, a4 =
 * r20 the second result). */
enum { AL_V0 = 0, AL_A0 = 16, AL_A3 = 19, AL_A4 = 20 };

#define L_AT_FDCWD ((uint64_t)-100)
#define L_AT_SYMLINK_NOFOLLOW 0x100
#define L_AT_REMOVEDIR 0x200

/* ---- errno: Linux generic -> Alpha (only the numbers that differ) -------- */

static const struct { uint8_t generic, alpha; } alpha_errnos[] = {
    { 11,  35}, { 35,  11}, { 36,  63}, { 37,  77}, { 38,  78}, { 39,  66},
    { 40,  62}, { 42,  80}, { 43,  81}, { 44,  88}, { 45,  89}, { 46,  90},
    { 47,  91}, { 48,  93}, { 49,  94}, { 50,  95}, { 51,  96}, { 52,  97},
    { 53,  98}, { 54,  99}, { 55, 100}, { 56, 101}, { 57, 102}, { 59, 104},
    { 60,  87}, { 61,  86}, { 62,  83}, { 63,  82}, { 64, 105}, { 65,  92},
    { 66,  71}, { 67, 106}, { 68, 107}, { 69, 108}, { 70, 109}, { 71,  85},
    { 72, 110}, { 73, 111}, { 74,  84}, { 75, 112}, { 76, 113}, { 77, 114},
    { 78, 115}, { 79, 122}, { 80, 123}, { 81, 124}, { 82, 125}, { 83, 126},
    { 84, 116}, { 85, 127}, { 86, 128}, { 87,  68}, { 88,  38}, { 89,  39},
    { 90,  40}, { 91,  41}, { 92,  42}, { 93,  43}, { 94,  44}, { 95,  45},
    { 96,  46}, { 97,  47}, { 98,  48}, { 99,  49}, {100,  50}, {101,  51},
    {102,  52}, {103,  53}, {104,  54}, {105,  55}, {106,  56}, {107,  57},
    {108,  58}, {109,  59}, {110,  60}, {111,  61}, {112,  64}, {113,  65},
    {114,  37}, {115,  36}, {116,  70}, {122,  69}, {123, 129}, {124, 130},
    {125, 131}, {126, 132}, {127, 133}, {128, 134}, {129, 135}, {130, 136},
    {131, 137}, {132, 138}, {133, 139},
};

static int alpha_errno_out(int e)
{
    for (size_t k = 0; k < sizeof alpha_errnos / sizeof alpha_errnos[0]; k++)
        if (alpha_errnos[k].generic == e) return alpha_errnos[k].alpha;
    return e;
}

/* ---- open flags: Alpha values <-> host ------------------------------------ */

static const struct { uint64_t guest; int host; } alpha_open_flags[] = {
    { 01000,      O_CREAT },     { 02000,      O_TRUNC },    { 04000,    O_EXCL },
    { 010000,     O_NOCTTY },    { 04,         O_NONBLOCK }, { 010,      O_APPEND },
    { 040000,     O_DSYNC },     { 020000,     O_ASYNC },    { 0100000,  O_DIRECTORY },
    { 0200000,    O_NOFOLLOW },  { 02000000,   O_DIRECT },   { 04000000, O_NOATIME },
    { 010000000,  O_CLOEXEC },   { 020000000,  O_SYNC & ~O_DSYNC },
    { 040000000,  O_PATH },      { 0100000000, O_TMPFILE & ~O_DIRECTORY },
};
#define ALPHA_O_LARGEFILE 0400000
#define ALPHA_O_ACCMODE   3

static int alpha_open_flags_in(uint64_t g)
{
    int h = (int)(g & ALPHA_O_ACCMODE);
    for (size_t k = 0; k < sizeof alpha_open_flags / sizeof alpha_open_flags[0]; k++)
        if (g & alpha_open_flags[k].guest) h |= alpha_open_flags[k].host;
#if O_LARGEFILE != 0
    if (g & ALPHA_O_LARGEFILE) h |= O_LARGEFILE;
#endif
    return h;
}

static uint64_t alpha_open_flags_out(int h)
{
    uint64_t g = (uint64_t)(h & O_ACCMODE);
    for (size_t k = 0; k < sizeof alpha_open_flags / sizeof alpha_open_flags[0]; k++)
        if ((h & alpha_open_flags[k].host) == alpha_open_flags[k].host)
            g |= alpha_open_flags[k].guest;
#if O_LARGEFILE != 0
    if (h & O_LARGEFILE) g |= ALPHA_O_LARGEFILE;
#elif defined(__x86_64__)
    if (h & 0100000) g |= ALPHA_O_LARGEFILE;     /* the x86-64 kernel's bit */
#endif
    return g;
}

/* ---- mmap flags, ioctl requests, small number spaces ---------------------- */

static unsigned alpha_mmap_flags_in(uint64_t g)
{
    unsigned f = 0;
    switch (g & 0xf) {                            /* MAP_TYPE */
    case 1: f = SYS_MAP_SHARED; break;
    case 2: f = SYS_MAP_PRIVATE; break;
    case 3: f = SYS_MAP_SHARED | SYS_MAP_SHARED_VALIDATE; break;
    default: return SYS_MAP_UNKNOWN;
    }
    if (g & 0x100) f |= SYS_MAP_FIXED;
    if (g & 0x10) f |= SYS_MAP_ANON;
    if (g & 0x200000) f |= SYS_MAP_FIXED_NOREPLACE;
    /* _MAP_HASSEMAPHORE, _MAP_INHERIT, _MAP_UNALIGNED, GROWSDOWN, DENYWRITE,
     * EXECUTABLE, LOCKED, NORESERVE, POPULATE, NONBLOCK, STACK, HUGETLB: no
     * effect on a simulated address space. */
    return f;
}

/* Alpha's _IOC: 3 direction bits (none 1, read 2, write 4) at bit 29 and a
 * 13-bit size, so the termios requests carry sizeof(struct termios) 44. */
static int alpha_ioctl_in(uint64_t g)
{
    switch (g & 0xffffffffu) {
    case 0x402c7413: return SYS_IOCTL_TCGETS;     /* _IOR('t', 19, termios) */
    case 0x802c7414: return SYS_IOCTL_TCSETS;
    case 0x802c7415: return SYS_IOCTL_TCSETSW;
    case 0x802c7416: return SYS_IOCTL_TCSETSF;
    case 0x40047477: return SYS_IOCTL_TIOCGPGRP;  /* _IOR('t', 119, int)    */
    case 0x40087468: return SYS_IOCTL_TIOCGWINSZ; /* _IOR('t', 104, winsize) */
    case 0x80087467: return SYS_IOCTL_TIOCSWINSZ;
    case 0x4004667f: return SYS_IOCTL_FIONREAD;   /* _IOR('f', 127, int)    */
    case 0x8004667e: return SYS_IOCTL_FIONBIO;    /* _IOW('f', 126, int)    */
    default:         return SYS_IOCTL_UNKNOWN;
    }
}

/* Alpha orders RLIMIT_NOFILE 6, AS 7, NPROC 8, MEMLOCK 9 (generic: NPROC 6,
 * NOFILE 7, MEMLOCK 8, AS 9); the rest agree. */
static int alpha_rlimit_in(uint64_t g)
{
    static const int8_t generic[SYS_NRLIMIT] = { 0, 1, 2, 3, 4, 5, 7, 9, 6, 8,
                                                 10, 11, 12, 13, 14, 15 };
    return g < SYS_NRLIMIT ? generic[g] : -1;
}

/* Alpha signals 1..31 (OSF/1 numbering) as Linux generic numbers.  SIGEMT
 * has no generic number: it takes SIGSTKFLT's (16), which Alpha lacks, so
 * the mapping stays one to one.  Real-time signals 32..64 agree. */
static const uint8_t alpha_signals[32] = {
    0,
    1,  2,  3,  4,  5,  6, 16,  8,  9,  7,     /* HUP INT QUIT ILL TRAP ABRT EMT FPE KILL BUS */
    11, 31, 13, 14, 15, 23, 19, 20, 18, 17,    /* SEGV SYS PIPE ALRM TERM URG STOP TSTP CONT CHLD */
    21, 22, 29, 24, 25, 26, 27, 28, 30, 10,    /* TTIN TTOU IO XCPU XFSZ VTALRM PROF WINCH INFO USR1 */
    12,                                        /* USR2 */
};

static int alpha_signal_in(uint64_t g)
{
    if (g < 32) return alpha_signals[g];
    return g <= SYS_NSIG ? (int)g : 0;
}

/* SIG_BLOCK 1, SIG_UNBLOCK 2, SIG_SETMASK 3. */
static int alpha_sigmask_how_in(uint64_t g) { return g >= 1 && g <= 3 ? (int)g - 1 : -1; }

/* ---- structures -------------------------------------------------------------- */

/* struct stat (fstat, stat, lstat), 80 bytes of mostly 32-bit fields. */
static void alpha_stat_out(const sys_stat_t *st, uint8_t *b)
{
    sys_put(b, 0, st->dev, 4);
    sys_put(b, 4, st->ino, 4);
    sys_put(b, 8, st->mode, 4);
    sys_put(b, 12, st->nlink, 4);
    sys_put(b, 16, st->uid, 4);
    sys_put(b, 20, st->gid, 4);
    sys_put(b, 24, st->rdev, 4);
    sys_put(b, 28, 0, 4);                        /* padding */
    sys_put(b, 32, (uint64_t)st->size, 8);
    sys_put(b, 40, (uint64_t)st->atime, 8);
    sys_put(b, 48, (uint64_t)st->mtime, 8);
    sys_put(b, 56, (uint64_t)st->ctime, 8);
    sys_put(b, 64, (uint64_t)st->blksize, 4);
    sys_put(b, 68, (uint64_t)st->blocks, 4);
    sys_put(b, 72, 0, 8);                        /* st_flags, st_gen */
}

/* struct stat64 (fstat64, stat64, lstat64, fstatat64), 136 bytes. */
static void alpha_stat64_out(const sys_stat_t *st, uint8_t *b)
{
    sys_put(b, 0, st->dev, 8);
    sys_put(b, 8, st->ino, 8);
    sys_put(b, 16, st->rdev, 8);
    sys_put(b, 24, (uint64_t)st->size, 8);
    sys_put(b, 32, (uint64_t)st->blocks, 8);
    sys_put(b, 40, st->mode, 4);
    sys_put(b, 44, st->uid, 4);
    sys_put(b, 48, st->gid, 4);
    sys_put(b, 52, (uint64_t)st->blksize, 4);
    sys_put(b, 56, st->nlink, 4);
    sys_put(b, 60, 0, 4);                        /* __pad0 */
    sys_put(b, 64, (uint64_t)st->atime, 8);
    sys_put(b, 72, (uint64_t)st->atime_nsec, 8);
    sys_put(b, 80, (uint64_t)st->mtime, 8);
    sys_put(b, 88, (uint64_t)st->mtime_nsec, 8);
    sys_put(b, 96, (uint64_t)st->ctime, 8);
    sys_put(b, 104, (uint64_t)st->ctime_nsec, 8);
    for (unsigned off = 112; off < 136; off += 8) sys_put(b, off, 0, 8);
}

/* Terminal flags: each row moves one field (a bit, or a multi-bit value
 * such as a delay or character size) between the generic and the Alpha
 * position.  Baud rates are handled apart (Alpha's extended rates follow
 * B38400 directly instead of setting CBAUDEX). */
typedef struct { uint32_t generic, alpha; } tfield_t;

static const tfield_t alpha_iflags[] = {
    { 0x69ff, 0x69ff },                          /* IGNBRK..ICRNL, IXANY, IMAXBEL, IUTF8 */
    { 0x0200, 0x1000 }, { 0x0400, 0x0200 }, { 0x1000, 0x0400 },   /* IUCLC IXON IXOFF */
};
static const tfield_t alpha_oflags[] = {
    { 0x00f9, 0x00f9 },                          /* OPOST OCRNL ONOCR ONLRET OFILL OFDEL */
    { 0x0002, 0x0004 }, { 0x0004, 0x0002 },      /* OLCUC ONLCR */
    { 0x0100, 0x0300 }, { 0x0600, 0x3000 }, { 0x1800, 0x0c00 },   /* NLDLY CRDLY TABDLY */
    { 0x2000, 0x8000 }, { 0x4000, 0x10000 }, { 0x8000, 0x4000 },  /* BSDLY VTDLY FFDLY */
};
static const tfield_t alpha_cflags[] = {
    { 0x0030, 0x0300 }, { 0x0040, 0x0400 }, { 0x0080, 0x0800 },  /* CSIZE CSTOPB CREAD */
    { 0x0100, 0x1000 }, { 0x0200, 0x2000 }, { 0x0400, 0x4000 },   /* PARENB PARODD HUPCL */
    { 0x0800, 0x8000 },                                           /* CLOCAL */
    { 0xe0000000u, 0xe0000000u },                /* ADDRB CMSPAR CRTSCTS */
};
static const tfield_t alpha_lflags[] = {
    { 0x0001, 0x0080 }, { 0x0002, 0x0100 }, { 0x0004, 0x4000 },   /* ISIG ICANON XCASE */
    { 0x0008, 0x0008 }, { 0x0010, 0x0002 }, { 0x0020, 0x0004 },   /* ECHO ECHOE ECHOK */
    { 0x0040, 0x0010 }, { 0x0080, 0x80000000u }, { 0x0100, 0x400000 }, /* ECHONL NOFLSH TOSTOP */
    { 0x0200, 0x0040 }, { 0x0400, 0x0020 }, { 0x0800, 0x0001 },   /* ECHOCTL ECHOPRT ECHOKE */
    { 0x1000, 0x800000 }, { 0x4000, 0x20000000 }, { 0x8000, 0x0400 }, /* FLUSHO PENDIN IEXTEN */
    { 0x10000, 0x10000000 },                                      /* EXTPROC */
};
#define NFIELDS(t) (sizeof t / sizeof t[0])

static uint32_t move_field(uint32_t v, uint32_t from, uint32_t to)
{
    return (uint32_t)(((v & from) >> __builtin_ctz(from)) << __builtin_ctz(to)) & to;
}

static uint32_t flags_convert(uint32_t v, const tfield_t *t, size_t n, bool to_alpha)
{
    uint32_t r = 0;
    for (size_t k = 0; k < n; k++)
        r |= to_alpha ? move_field(v, t[k].generic, t[k].alpha)
                      : move_field(v, t[k].alpha, t[k].generic);
    return r;
}

/* A CBAUD value: generic B0..B38400 are 0..15 and B57600.. are CBAUDEX
 * (0x1000) | 1..; Alpha numbers them on: B57600 is 16. */
static uint32_t baud_to_alpha(uint32_t g) { return g & 0x1000 ? 15 + (g & 0xf) : g & 0xf; }
static uint32_t baud_to_generic(uint32_t a)
{
    a &= 0x1f;
    return a > 15 ? 0x1000 | (a - 15) : a;
}

/* c_ispeed / c_ospeed: bits per second of an Alpha CBAUD value. */
static uint32_t baud_rate(uint32_t a)
{
    static const uint32_t rate[32] = {
        0, 50, 75, 110, 134, 150, 200, 300, 600, 1200, 1800, 2400, 4800, 9600, 19200, 38400,
        57600, 115200, 230400, 460800, 500000, 576000, 921600, 1000000, 1152000, 1500000,
        2000000, 2500000, 3000000, 3500000, 4000000, 0 };
    return rate[a & 0x1f];
}

/* c_cc: generic index -> Alpha index (VINTR is 0 generic, 8 on Alpha...). */
static const uint8_t alpha_cc_index[17] = { 8, 9, 3, 5, 0, 17, 16, 7, 12, 13, 10, 1, 6,
                                            15, 4, 14, 2 };

/* Alpha struct termios, 44 bytes: four flags, c_cc[19], c_line, speeds. */
static void alpha_termios_out(const sys_termios_t *t, uint8_t *b)
{
    uint32_t cbaud = baud_to_alpha(t->cflag & 0x100f);
    uint32_t ibaud = baud_to_alpha((t->cflag >> 16) & 0x100f);
    uint32_t cflag = flags_convert(t->cflag, alpha_cflags, NFIELDS(alpha_cflags), true) |
                     cbaud | ibaud << 16;
    sys_put(b, 0, flags_convert(t->iflag, alpha_iflags, NFIELDS(alpha_iflags), true), 4);
    sys_put(b, 4, flags_convert(t->oflag, alpha_oflags, NFIELDS(alpha_oflags), true), 4);
    sys_put(b, 8, cflag, 4);
    sys_put(b, 12, flags_convert(t->lflag, alpha_lflags, NFIELDS(alpha_lflags), true), 4);
    for (int k = 0; k < 19; k++) b[16 + k] = 0;
    for (int k = 0; k < 17; k++) b[16 + alpha_cc_index[k]] = t->cc[k];
    b[35] = t->line;
    sys_put(b, 36, baud_rate(ibaud ? ibaud : cbaud), 4);
    sys_put(b, 40, baud_rate(cbaud), 4);
}

static void alpha_termios_in(const uint8_t *b, sys_termios_t *t)
{
    uint32_t c = (uint32_t)sys_get(b, 8, 4);
    t->iflag = flags_convert((uint32_t)sys_get(b, 0, 4), alpha_iflags, NFIELDS(alpha_iflags),
                             false);
    t->oflag = flags_convert((uint32_t)sys_get(b, 4, 4), alpha_oflags, NFIELDS(alpha_oflags),
                             false);
    t->cflag = flags_convert(c, alpha_cflags, NFIELDS(alpha_cflags), false) |
               baud_to_generic(c) | baud_to_generic(c >> 16) << 16;
    t->lflag = flags_convert((uint32_t)sys_get(b, 12, 4), alpha_lflags, NFIELDS(alpha_lflags),
                             false);
    for (int k = 0; k < SYS_NCCS; k++) t->cc[k] = 0;
    for (int k = 0; k < 17; k++) t->cc[k] = b[16 + alpha_cc_index[k]];
    t->line = b[35];
}

/* ---- calls that return a second value in a4 ---------------------------------- */

static int64_t alpha_getxpid(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    cpu_set(c, AL_A4, (uint64_t)sys_h_getppid(s, c, a));
    return sys_h_getpid(s, c, a);
}

static int64_t alpha_getxuid(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    cpu_set(c, AL_A4, (uint64_t)sys_h_geteuid(s, c, a));
    return sys_h_getuid(s, c, a);
}

static int64_t alpha_getxgid(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    cpu_set(c, AL_A4, (uint64_t)sys_h_getegid(s, c, a));
    return sys_h_getgid(s, c, a);
}

/* pipe(): the read end in v0, the write end in a4 (nothing in memory). */
static int64_t alpha_pipe(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    int64_t fds[2];
    int64_t r = sys_open_pipe(s, 0, fds);
    if (r) return r;
    cpu_set(c, AL_A4, (uint64_t)fds[1]);
    return fds[0];
}

/* ---- memory ---------------------------------------------------------------------- */

/* osf_brk: a break that cannot move fails with ENOMEM instead of returning
 * the old break. */
static int64_t alpha_brk(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    int64_t r = sys_h_brk(s, c, a);
    return a[0] && (uint64_t)r != a[0] ? -ENOMEM : r;
}

static int64_t alpha_getpagesize(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return (int64_t)s->abi->page_size;
}

/* ---- path calls older than the *at family: AT_FDCWD versions ------------------- */

/* Run an *at handler with the argument list b (AT_FDCWD already in). */
#define AT_CALL(handler, ...) handler(s, c, (const uint64_t[6]){ __VA_ARGS__ })

static int64_t alpha_open(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_openat, L_AT_FDCWD, a[0], a[1], a[2]);
}

static int64_t alpha_access(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_faccessat, L_AT_FDCWD, a[0], a[1]);
}

static int64_t alpha_unlink(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_unlinkat, L_AT_FDCWD, a[0], 0);
}

static int64_t alpha_rmdir(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_unlinkat, L_AT_FDCWD, a[0], L_AT_REMOVEDIR);
}

static int64_t alpha_mkdir(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_mkdirat, L_AT_FDCWD, a[0], a[1]);
}

static int64_t alpha_rename(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_renameat2, L_AT_FDCWD, a[0], L_AT_FDCWD, a[1], 0);
}

static int64_t alpha_renameat(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_renameat2, a[0], a[1], a[2], a[3], 0);
}

static int64_t alpha_link(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_linkat, L_AT_FDCWD, a[0], L_AT_FDCWD, a[1], 0);
}

static int64_t alpha_symlink(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_symlinkat, a[0], L_AT_FDCWD, a[1]);
}

static int64_t alpha_readlink(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_readlinkat, L_AT_FDCWD, a[0], a[1], a[2]);
}

static int64_t alpha_chmod(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_fchmodat, L_AT_FDCWD, a[0], a[1]);
}

static int64_t alpha_chown(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_fchownat, L_AT_FDCWD, a[0], a[1], a[2], 0);
}

static int64_t alpha_lchown(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_fchownat, L_AT_FDCWD, a[0], a[1], a[2], L_AT_SYMLINK_NOFOLLOW);
}

static int64_t alpha_stat(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_newfstatat, L_AT_FDCWD, a[0], a[1], 0);
}

static int64_t alpha_lstat(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_newfstatat, L_AT_FDCWD, a[0], a[1], L_AT_SYMLINK_NOFOLLOW);
}

static int64_t alpha_stat64(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_fstatat64, L_AT_FDCWD, a[0], a[1], 0);
}

static int64_t alpha_lstat64(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_fstatat64, L_AT_FDCWD, a[0], a[1], L_AT_SYMLINK_NOFOLLOW);
}

/* dup2(fd, fd) checks fd and returns it; otherwise it is dup3 without flags. */
static int64_t alpha_dup2(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    if ((int32_t)a[0] == (int32_t)a[1])
        return AT_CALL(sys_h_fcntl, a[0], 1 /* F_GETFD */) < 0 ? -EBADF
                                                               : (int64_t)(int32_t)a[1];
    return AT_CALL(sys_h_dup3, a[0], a[1], 0);
}

static int64_t alpha_getpgrp(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    return AT_CALL(sys_h_getpgid, 0);
}

/* ---- osf_getsysinfo / osf_setsysinfo ----------------------------------------- */

/* OSF/1 operation codes Linux implements (asm/sysinfo.h). */
enum { GSI_UACPROC = 8, GSI_IEEE_FP_CONTROL = 45, GSI_PROC_TYPE = 60,
       SSI_NVPAIRS = 1, SSI_LMF = 7, SSI_IEEE_FP_CONTROL = 14,
       SSI_IEEE_RAISE_EXCEPTION = 1001, SSIN_UACPROC = 6, UAC_BITMASK = 7 };

/* The software FP control word (asm/fpu.h; bit names in alpha_fp.h): trap
 * enables, denormal/underflow mapping and status bits that mirror the
 * FPCR's.  As in qemu-alpha (the reference), the status lives only in the
 * FPCR, which the FP front-end keeps exact after every instruction; the
 * swcr holds the enables and mappings. */
#define SWCR_TRAP_ENABLE_MASK (AL_SWCR_TRAP_ENABLE_INV | AL_SWCR_TRAP_ENABLE_DZE |     \
                               AL_SWCR_TRAP_ENABLE_OVF | AL_SWCR_TRAP_ENABLE_UNF |     \
                               AL_SWCR_TRAP_ENABLE_INE | AL_SWCR_TRAP_ENABLE_DNO)
#define SWCR_MAP_MASK         (AL_SWCR_MAP_DMZ | AL_SWCR_MAP_UMZ)
#define SWCR_STATUS_MASK      (0x3full << AL_SWCR_STATUS_SHIFT)   /* INV..DNO */
#define SWCR_STATUS_TO_EXCSUM_SHIFT 16     /* status bit -> its trap enable */

/* EV67 in the HWRPB's processor type (GSI_PROC_TYPE). */
#define ALPHA_CPU_TYPE_EV67 11

/* ieee_swcr_to_fpcr(): the FPCR bits a control word asks for. */
static uint64_t swcr_to_fpcr(uint64_t sw)
{
    uint64_t fp = (sw & SWCR_STATUS_MASK) << 35;
    fp |= (sw & AL_SWCR_MAP_DMZ) << 36;
    fp |= (~sw & (AL_SWCR_TRAP_ENABLE_INV | AL_SWCR_TRAP_ENABLE_DZE |
                  AL_SWCR_TRAP_ENABLE_OVF)) << 48;
    fp |= (~sw & (AL_SWCR_TRAP_ENABLE_UNF | AL_SWCR_TRAP_ENABLE_INE)) << 57;
    fp |= sw & AL_SWCR_MAP_UMZ ? AL_FPCR_UNDZ | AL_FPCR_UNFD : 0;
    fp |= (~sw & AL_SWCR_TRAP_ENABLE_DNO) << 41;
    return fp;
}

/* GSI_IEEE_FP_CONTROL: the enables and mappings, status from the FPCR. */
static uint64_t fp_control_word(const cpu_t *c)
{
    return (c->swcr & ~SWCR_STATUS_MASK) | ((al_fp_fpcr(c) >> 35) & SWCR_STATUS_MASK);
}

/* SSI_IEEE_FP_CONTROL: new enables, mappings and status; the FPCR keeps
 * its rounding mode and takes everything else from the control word. */
static void fp_set_control(cpu_t *c, uint64_t sw)
{
    c->swcr = sw & (SWCR_TRAP_ENABLE_MASK | SWCR_MAP_MASK);
    al_fp_set_fpcr(c, (al_fp_fpcr(c) & AL_FPCR_DYN_MASK) | swcr_to_fpcr(sw));
}

/* SSI_IEEE_RAISE_EXCEPTION (Linux): set status bits in the FPCR; true if
 * one of them has its trap enabled (the process gets SIGFPE). */
static bool fp_raise(cpu_t *c, uint64_t exc)
{
    exc &= SWCR_STATUS_MASK;
    uint64_t sw = (c->swcr & (SWCR_TRAP_ENABLE_MASK | SWCR_MAP_MASK)) | exc;
    al_fp_set_fpcr(c, al_fp_fpcr(c) | swcr_to_fpcr(sw));
    return ((exc >> SWCR_STATUS_TO_EXCSUM_SHIFT) & c->swcr) != 0;
}

static int64_t put_word(struct sys *s, uint64_t addr, uint64_t v, unsigned size)
{
    uint8_t b[8];
    sys_put(b, 0, v, size);
    return sys_copy_out(s, addr, b, size) ? 0 : -EFAULT;
}

static int64_t get_word(struct sys *s, uint64_t addr, uint64_t *v, unsigned size)
{
    uint8_t b[8];
    if (!sys_copy_in(s, addr, b, size)) return -EFAULT;
    *v = sys_get(b, 0, size);
    return 0;
}

/* osf_getsysinfo(op, buffer, nbytes, start, arg).  Like Linux, the
 * informational ops return 1 and GSI_IEEE_FP_CONTROL returns 0; other ops
 * fail with EOPNOTSUPP. */
static int64_t alpha_osf_getsysinfo(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    int64_t r;
    switch (a[0]) {
    case GSI_IEEE_FP_CONTROL:
        return put_word(s, a[1], fp_control_word(c), 8);
    case GSI_UACPROC:
        if (a[2] < 4) return -EINVAL;
        r = put_word(s, a[1], s->alpha_uac & UAC_BITMASK, 4);
        return r ? r : 1;
    case GSI_PROC_TYPE:
        if (a[2] < 8) return -EINVAL;
        r = put_word(s, a[1], ALPHA_CPU_TYPE_EV67, 8);
        return r ? r : 1;
    default:
        return -EOPNOTSUPP;
    }
}

/* SSI_NVPAIRS: nbytes (name, value) pairs of 32-bit words; only
 * SSIN_UACPROC is known. */
static int64_t set_nvpairs(struct sys *s, uint64_t addr, uint64_t n)
{
    for (uint64_t k = 0; k < n; k++, addr += 8) {
        uint64_t name, value;
        if (get_word(s, addr, &name, 4) || get_word(s, addr + 4, &value, 4)) return -EFAULT;
        if (name != SSIN_UACPROC) return -EOPNOTSUPP;
        s->alpha_uac = (uint32_t)(value & UAC_BITMASK);
    }
    return 0;
}

/* osf_setsysinfo(op, buffer, nbytes, start, arg). */
static int64_t alpha_osf_setsysinfo(struct sys *s, cpu_t *c, const uint64_t a[6])
{
    uint64_t v;
    int64_t r;
    switch (a[0]) {
    case SSI_IEEE_FP_CONTROL:
        if ((r = get_word(s, a[1], &v, 8))) return r;
        fp_set_control(c, v);
        return 0;
    case SSI_IEEE_RAISE_EXCEPTION:
        if ((r = get_word(s, a[1], &v, 8))) return r;
        return fp_raise(c, v) ? sys_raise_signal(s, c, 8 /* SIGFPE */) : 0;
    case SSI_NVPAIRS:
        return set_nvpairs(s, a[1], a[2]);
    case SSI_LMF:
        return 0;
    default:
        return -EOPNOTSUPP;
    }
}

/* ---- the table: every Alpha number; NULL = known but unsupported ----------- */

/* ---- signal frames (arch/alpha/kernel/signal.c) ------------------------------ */
/* struct sigcontext (648 bytes): sc_onstack, sc_mask, sc_pc, sc_ps, sc_regs[32]
 * at 32, sc_ownedfp, sc_fpregs[32] at 296, sc_fpcr at 552, sc_fp_control at
 * 560, then reserved, stack and trap-argument words.  A handler without
 * SA_SIGINFO gets struct sigframe (sigcontext, retcode[3]); with it struct
 * rt_sigframe: siginfo, struct ucontext (uc_flags, uc_link, uc_osf_sigmask,
 * uc_stack at 24, the sigcontext at 48, uc_sigmask at 696), retcode[3].
 * Frames are 32-byte aligned.  The handler returns through r26: glibc's
 * sa_restorer (rt_sigaction's fifth argument), else the retcode on the
 * frame (mov sp,a0; ldi v0,NR; callsys), which needs an executable stack. */
enum { AL_SC_MASK = 8, AL_SC_PC = 16, AL_SC_PS = 24, AL_SC_REGS = 32, AL_SC_FPREGS = 296,
       AL_SC_FPCR = 552, AL_SC_FP_CONTROL = 560, AL_SC_SIZE = 648 };
enum { AL_UC = 128, AL_UC_OSF_MASK = 16, AL_UC_STACK = 24, AL_UC_MCONTEXT = 48,
       AL_UC_MASK = 696, AL_UC_SIZE = 704 };
enum { AL_RT_FRAME = AL_UC + AL_UC_SIZE + 12, AL_OLD_FRAME = AL_SC_SIZE + 12,
       AL_NR_SIGRETURN = 103, AL_NR_RT_SIGRETURN = 351 };

static void put_sigcontext(uint8_t *sc, const cpu_t *c, const sys_sigframe_t *f)
{
    sys_put(sc, 0, f->frame_on_altstack, 8);
    sys_put(sc, AL_SC_MASK, f->old_mask, 8);
    sys_put(sc, AL_SC_PC, f->resume_pc, 8);
    sys_put(sc, AL_SC_PS, 8, 8);                              /* user mode */
    for (unsigned k = 0; k < 31; k++) sys_put(sc, AL_SC_REGS + 8 * k, cpu_get(c, REG_INT0 + k), 8);
    for (unsigned k = 0; k < 31; k++)
        sys_put(sc, AL_SC_FPREGS + 8 * k, cpu_get(c, REG_FP0 + k), 8);
    sys_put(sc, AL_SC_FPCR, c->fpcr, 8);
    sys_put(sc, AL_SC_FP_CONTROL, c->swcr, 8);
}

/* The registers a sigcontext saved (the FPCR too, as restore_sigcontext). */
static void get_sigcontext(const uint8_t *sc, cpu_t *c)
{
    c->pc = sys_get(sc, AL_SC_PC, 8);
    for (unsigned k = 0; k < 31; k++) cpu_set(c, REG_INT0 + k, sys_get(sc, AL_SC_REGS + 8 * k, 8));
    for (unsigned k = 0; k < 31; k++)
        cpu_set(c, REG_FP0 + k, sys_get(sc, AL_SC_FPREGS + 8 * k, 8));
    c->fpcr = sys_get(sc, AL_SC_FPCR, 8);
}

static void put_retcode(uint8_t *at, unsigned nr)
{
    sys_put(at, 0, 0x47fe0410u, 4);                          /* mov $30,$16 */
    sys_put(at, 4, 0x201f0000u | nr, 4);                     /* ldi $0,nr */
    sys_put(at, 8, 0x00000083u, 4);                          /* callsys */
}

static bool alpha_sig_frame(sys_t *s, cpu_t *c, const sys_sigframe_t *f)
{
    unsigned size = f->rt ? AL_RT_FRAME : AL_OLD_FRAME;
    uint64_t frame = (f->sp - size) & ~31ull;
    if (frame > f->sp) return false;
    uint8_t b[AL_RT_FRAME] = { 0 };
    uint64_t sc = frame + (f->rt ? AL_UC + AL_UC_MCONTEXT : 0);
    put_sigcontext(b + (sc - frame), c, f);
    if (f->rt) {
        memcpy(b, f->info, 128);
        sys_put(b, AL_UC + AL_UC_OSF_MASK, f->old_mask, 8);
        memcpy(b + AL_UC + AL_UC_STACK, f->uc_stack, 24);
        sys_put(b, AL_UC + AL_UC_MASK, f->old_mask, 8);
    }
    put_retcode(b + size - 12, f->rt ? AL_NR_RT_SIGRETURN : AL_NR_SIGRETURN);
    if (!sys_copy_out(s, frame, b, size)) return false;
    cpu_set(c, 26, f->restorer ? f->restorer : frame + size - 12);   /* ra */
    cpu_set(c, 27, f->handler);                                      /* pv */
    cpu_set(c, 16, (uint64_t)f->guest_sig);                          /* a0 */
    cpu_set(c, 17, f->rt ? frame : 0);                               /* a1: &info */
    cpu_set(c, 18, f->rt ? frame + AL_UC : sc);                      /* a2: &uc / &sc */
    cpu_set(c, 30, frame);                                           /* sp */
    c->pc = f->handler;
    return true;
}

/* rt_sigreturn(frame): glibc's restorer passes sp, the frame. */
static int64_t alpha_h_rt_sigreturn(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    uint8_t b[AL_UC + AL_UC_SIZE];
    if (!sys_copy_in(s, a[0], b, sizeof b)) sys_bad_frame(c);
    get_sigcontext(b + AL_UC + AL_UC_MCONTEXT, c);
    sys_sigreturn_restore(s, c, sys_get(b, AL_UC + AL_UC_MASK, 8), b + AL_UC + AL_UC_STACK);
    return SYS_NO_RESULT;
}

/* sigreturn(sc): the frame of a handler without SA_SIGINFO. */
static int64_t alpha_h_sigreturn(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    uint8_t sc[AL_SC_SIZE];
    if (!sys_copy_in(s, a[0], sc, sizeof sc)) sys_bad_frame(c);
    get_sigcontext(sc, c);
    sys_sigreturn_restore(s, c, sys_get(sc, AL_SC_MASK, 8), NULL);   /* no stack_t */
    return SYS_NO_RESULT;
}

static const sys_entry_t alpha_sys_table[] = {
    {   0, "osf_syscall",               NULL },
    {   1, "exit",                      sys_h_exit },
    {   2, "fork",                      NULL },
    {   3, "read",                      sys_h_read },
    {   4, "write",                     sys_h_write },
    {   5, "osf_old_open",              NULL },
    {   6, "close",                     sys_h_close },
    {   7, "osf_wait4",                 NULL },
    {   8, "osf_old_creat",             NULL },
    {   9, "link",                      alpha_link },
    {  10, "unlink",                    alpha_unlink },
    {  11, "osf_execve",                NULL },
    {  12, "chdir",                     sys_h_chdir },
    {  13, "fchdir",                    sys_h_fchdir },
    {  14, "mknod",                     NULL },
    {  15, "chmod",                     alpha_chmod },
    {  16, "chown",                     alpha_chown },
    {  17, "brk",                       alpha_brk },
    {  18, "osf_getfsstat",             NULL },
    {  19, "lseek",                     sys_h_lseek },
    {  20, "getxpid",                   alpha_getxpid },
    {  21, "osf_mount",                 NULL },
    {  22, "umount2",                   NULL },
    {  23, "setuid",                    NULL },
    {  24, "getxuid",                   alpha_getxuid },
    {  25, "exec_with_loader",          NULL },
    {  26, "ptrace",                    NULL },
    {  27, "osf_nrecvmsg",              NULL },
    {  28, "osf_nsendmsg",              NULL },
    {  29, "osf_nrecvfrom",             NULL },
    {  30, "osf_naccept",               NULL },
    {  31, "osf_ngetpeername",          NULL },
    {  32, "osf_ngetsockname",          NULL },
    {  33, "access",                    alpha_access },
    {  34, "osf_chflags",               NULL },
    {  35, "osf_fchflags",              NULL },
    {  36, "sync",                      NULL },
    {  37, "kill",                      sys_h_kill },
    {  38, "osf_old_stat",              NULL },
    {  39, "setpgid",                   sys_h_setpgid },
    {  40, "osf_old_lstat",             NULL },
    {  41, "dup",                       sys_h_dup },
    {  42, "pipe",                      alpha_pipe },
    {  43, "osf_set_program_attributes", NULL },
    {  44, "osf_profil",                NULL },
    {  45, "open",                      alpha_open },
    {  46, "osf_old_sigaction",         NULL },
    {  47, "getxgid",                   alpha_getxgid },
    {  48, "osf_sigprocmask",           NULL },
    {  49, "osf_getlogin",              NULL },
    {  50, "osf_setlogin",              NULL },
    {  51, "acct",                      NULL },
    {  52, "sigpending",                NULL },
    {  54, "ioctl",                     sys_h_ioctl },
    {  55, "osf_reboot",                NULL },
    {  56, "osf_revoke",                NULL },
    {  57, "symlink",                   alpha_symlink },
    {  58, "readlink",                  alpha_readlink },
    {  59, "execve",                    NULL },
    {  60, "umask",                     sys_h_umask },
    {  61, "chroot",                    NULL },
    {  62, "osf_old_fstat",             NULL },
    {  63, "getpgrp",                   alpha_getpgrp },
    {  64, "getpagesize",               alpha_getpagesize },
    {  65, "osf_mremap",                NULL },
    {  66, "vfork",                     NULL },
    {  67, "stat",                      alpha_stat },
    {  68, "lstat",                     alpha_lstat },
    {  69, "osf_sbrk",                  NULL },
    {  70, "osf_sstk",                  NULL },
    {  71, "mmap",                      sys_h_mmap },
    {  72, "osf_old_vadvise",           NULL },
    {  73, "munmap",                    sys_h_munmap },
    {  74, "mprotect",                  sys_h_mprotect },
    {  75, "madvise",                   sys_h_madvise },
    {  76, "vhangup",                   NULL },
    {  77, "osf_kmodcall",              NULL },
    {  78, "osf_mincore",               NULL },
    {  79, "getgroups",                 sys_h_getgroups },
    {  80, "setgroups",                 NULL },
    {  81, "osf_old_getpgrp",           NULL },
    {  82, "setpgrp",                   sys_h_setpgid },
    {  83, "osf_setitimer",             NULL },
    {  84, "osf_old_wait",              NULL },
    {  85, "osf_table",                 NULL },
    {  86, "osf_getitimer",             NULL },
    {  87, "gethostname",               NULL },
    {  88, "sethostname",               NULL },
    {  89, "getdtablesize",             NULL },
    {  90, "dup2",                      alpha_dup2 },
    {  91, "fstat",                     sys_h_fstat },
    {  92, "fcntl",                     sys_h_fcntl },
    {  93, "osf_select",                NULL },
    {  94, "poll",                      NULL },
    {  95, "fsync",                     sys_h_fsync },
    {  96, "setpriority",               NULL },
    {  97, "socket",                    NULL },
    {  98, "connect",                   NULL },
    {  99, "accept",                    NULL },
    { 100, "getpriority",               NULL },
    { 101, "send",                      NULL },
    { 102, "recv",                      NULL },
    { 103, "sigreturn",                 alpha_h_sigreturn },
    { 104, "bind",                      NULL },
    { 105, "setsockopt",                NULL },
    { 106, "listen",                    NULL },
    { 107, "osf_plock",                 NULL },
    { 108, "osf_old_sigvec",            NULL },
    { 109, "osf_old_sigblock",          NULL },
    { 110, "osf_old_sigsetmask",        NULL },
    { 111, "sigsuspend",                NULL },
    { 112, "osf_sigstack",              NULL },
    { 113, "recvmsg",                   NULL },
    { 114, "sendmsg",                   NULL },
    { 115, "osf_old_vtrace",            NULL },
    { 116, "osf_gettimeofday",          NULL },
    { 117, "osf_getrusage",             NULL },
    { 118, "getsockopt",                NULL },
    { 120, "readv",                     sys_h_readv },
    { 121, "writev",                    sys_h_writev },
    { 122, "osf_settimeofday",          NULL },
    { 123, "fchown",                    sys_h_fchown },
    { 124, "fchmod",                    sys_h_fchmod },
    { 125, "recvfrom",                  NULL },
    { 126, "setreuid",                  NULL },
    { 127, "setregid",                  NULL },
    { 128, "rename",                    alpha_rename },
    { 129, "truncate",                  sys_h_truncate },
    { 130, "ftruncate",                 sys_h_ftruncate },
    { 131, "flock",                     NULL },
    { 132, "setgid",                    NULL },
    { 133, "sendto",                    NULL },
    { 134, "shutdown",                  NULL },
    { 135, "socketpair",                NULL },
    { 136, "mkdir",                     alpha_mkdir },
    { 137, "rmdir",                     alpha_rmdir },
    { 138, "osf_utimes",                NULL },
    { 139, "osf_old_sigreturn",         NULL },
    { 140, "osf_adjtime",               NULL },
    { 141, "getpeername",               NULL },
    { 142, "osf_gethostid",             NULL },
    { 143, "osf_sethostid",             NULL },
    { 144, "getrlimit",                 sys_h_getrlimit },
    { 145, "setrlimit",                 sys_h_setrlimit },
    { 146, "osf_old_killpg",            NULL },
    { 147, "setsid",                    sys_h_setsid },
    { 148, "quotactl",                  NULL },
    { 149, "osf_oldquota",              NULL },
    { 150, "getsockname",               NULL },
    { 153, "osf_pid_block",             NULL },
    { 154, "osf_pid_unblock",           NULL },
    { 156, "sigaction",                 NULL },
    { 157, "osf_sigwaitprim",           NULL },
    { 158, "osf_nfssvc",                NULL },
    { 159, "osf_getdirentries",         NULL },
    { 160, "osf_statfs",                NULL },
    { 161, "osf_fstatfs",               NULL },
    { 163, "osf_asynch_daemon",         NULL },
    { 164, "osf_getfh",                 NULL },
    { 165, "osf_getdomainname",         NULL },
    { 166, "setdomainname",             NULL },
    { 169, "osf_exportfs",              NULL },
    { 181, "osf_alt_plock",             NULL },
    { 184, "osf_getmnt",                NULL },
    { 187, "osf_alt_sigpending",        NULL },
    { 188, "osf_alt_setsid",            NULL },
    { 199, "osf_swapon",                NULL },
    { 200, "msgctl",                    NULL },
    { 201, "msgget",                    NULL },
    { 202, "msgrcv",                    NULL },
    { 203, "msgsnd",                    NULL },
    { 204, "semctl",                    NULL },
    { 205, "semget",                    NULL },
    { 206, "semop",                     NULL },
    { 207, "osf_utsname",               NULL },
    { 208, "lchown",                    alpha_lchown },
    { 209, "shmat",                     NULL },
    { 210, "shmctl",                    NULL },
    { 211, "shmdt",                     NULL },
    { 212, "shmget",                    NULL },
    { 213, "osf_mvalid",                NULL },
    { 214, "osf_getaddressconf",        NULL },
    { 215, "osf_msleep",                NULL },
    { 216, "osf_mwakeup",               NULL },
    { 217, "msync",                     sys_h_msync },
    { 218, "osf_signal",                NULL },
    { 219, "osf_utc_gettime",           NULL },
    { 220, "osf_utc_adjtime",           NULL },
    { 222, "osf_security",              NULL },
    { 223, "osf_kloadcall",             NULL },
    { 224, "osf_stat",                  NULL },
    { 225, "osf_lstat",                 NULL },
    { 226, "osf_fstat",                 NULL },
    { 227, "osf_statfs64",              NULL },
    { 228, "osf_fstatfs64",             NULL },
    { 233, "getpgid",                   sys_h_getpgid },
    { 234, "getsid",                    sys_h_getsid },
    { 235, "sigaltstack",               sys_h_sigaltstack },
    { 236, "osf_waitid",                NULL },
    { 237, "osf_priocntlset",           NULL },
    { 238, "osf_sigsendset",            NULL },
    { 239, "osf_set_speculative",       NULL },
    { 240, "osf_msfs_syscall",          NULL },
    { 241, "osf_sysinfo",               NULL },
    { 242, "osf_uadmin",                NULL },
    { 243, "osf_fuser",                 NULL },
    { 244, "osf_proplist_syscall",      NULL },
    { 245, "osf_ntp_adjtime",           NULL },
    { 246, "osf_ntp_gettime",           NULL },
    { 247, "osf_pathconf",              NULL },
    { 248, "osf_fpathconf",             NULL },
    { 250, "osf_uswitch",               NULL },
    { 251, "osf_usleep_thread",         NULL },
    { 252, "osf_audcntl",               NULL },
    { 253, "osf_audgen",                NULL },
    { 254, "sysfs",                     NULL },
    { 255, "osf_subsys_info",           NULL },
    { 256, "osf_getsysinfo",            alpha_osf_getsysinfo },
    { 257, "osf_setsysinfo",            alpha_osf_setsysinfo },
    { 258, "osf_afs_syscall",           NULL },
    { 259, "osf_swapctl",               NULL },
    { 260, "osf_memcntl",               NULL },
    { 261, "osf_fdatasync",             NULL },
    { 300, "bdflush",                   NULL },
    { 301, "sethae",                    NULL },
    { 302, "mount",                     NULL },
    { 303, "old_adjtimex",              NULL },
    { 304, "swapoff",                   NULL },
    { 305, "getdents",                  NULL },
    { 306, "create_module",             NULL },
    { 307, "init_module",               NULL },
    { 308, "delete_module",             NULL },
    { 309, "get_kernel_syms",           NULL },
    { 310, "syslog",                    NULL },
    { 311, "reboot",                    NULL },
    { 312, "clone",                     sys_h_clone },
    { 313, "uselib",                    NULL },
    { 314, "mlock",                     sys_h_mlock },
    { 315, "munlock",                   sys_h_mlock },
    { 316, "mlockall",                  sys_h_mlock },
    { 317, "munlockall",                sys_h_mlock },
    { 318, "sysinfo",                   sys_h_sysinfo },
    { 319, "_sysctl",                   NULL },
    { 321, "oldumount",                 NULL },
    { 322, "swapon",                    NULL },
    { 323, "times",                     sys_h_times },
    { 324, "personality",               NULL },
    { 325, "setfsuid",                  NULL },
    { 326, "setfsgid",                  NULL },
    { 327, "ustat",                     NULL },
    { 328, "statfs",                    NULL },
    { 329, "fstatfs",                   NULL },
    { 330, "sched_setparam",            NULL },
    { 331, "sched_getparam",            NULL },
    { 332, "sched_setscheduler",        NULL },
    { 333, "sched_getscheduler",        NULL },
    { 334, "sched_yield",               sys_h_sched_yield },
    { 335, "sched_get_priority_max",    NULL },
    { 336, "sched_get_priority_min",    NULL },
    { 337, "sched_rr_get_interval",     NULL },
    { 338, "afs_syscall",               NULL },
    { 339, "uname",                     sys_h_uname },
    { 340, "nanosleep",                 sys_h_nanosleep },
    { 341, "mremap",                    sys_h_mremap },
    { 342, "nfsservctl",                NULL },
    { 343, "setresuid",                 NULL },
    { 344, "getresuid",                 NULL },
    { 345, "pciconfig_read",            NULL },
    { 346, "pciconfig_write",           NULL },
    { 347, "query_module",              NULL },
    { 348, "prctl",                     NULL },
    { 349, "pread64",                   sys_h_pread64 },
    { 350, "pwrite64",                  sys_h_pwrite64 },
    { 351, "rt_sigreturn",              alpha_h_rt_sigreturn },
    { 352, "rt_sigaction",              sys_h_rt_sigaction },
    { 353, "rt_sigprocmask",            sys_h_rt_sigprocmask },
    { 354, "rt_sigpending",             sys_h_rt_sigpending },
    { 355, "rt_sigtimedwait",           sys_h_rt_sigtimedwait },
    { 356, "rt_sigqueueinfo",           NULL },
    { 357, "rt_sigsuspend",             sys_h_rt_sigsuspend },
    { 358, "select",                    NULL },
    { 359, "gettimeofday",              sys_h_gettimeofday },
    { 360, "settimeofday",              NULL },
    { 361, "getitimer",                 sys_h_getitimer },
    { 362, "setitimer",                 sys_h_setitimer },
    { 363, "utimes",                    NULL },
    { 364, "getrusage",                 sys_h_getrusage },
    { 365, "wait4",                     NULL },
    { 366, "adjtimex",                  NULL },
    { 367, "getcwd",                    sys_h_getcwd },
    { 368, "capget",                    NULL },
    { 369, "capset",                    NULL },
    { 370, "sendfile",                  NULL },
    { 371, "setresgid",                 NULL },
    { 372, "getresgid",                 NULL },
    { 373, "dipc",                      NULL },
    { 374, "pivot_root",                NULL },
    { 375, "mincore",                   NULL },
    { 376, "pciconfig_iobase",          NULL },
    { 377, "getdents64",                sys_h_getdents64 },
    { 378, "gettid",                    sys_h_gettid },
    { 379, "readahead",                 NULL },
    { 381, "tkill",                     sys_h_tkill },
    { 382, "setxattr",                  NULL },
    { 383, "lsetxattr",                 NULL },
    { 384, "fsetxattr",                 NULL },
    { 385, "getxattr",                  NULL },
    { 386, "lgetxattr",                 NULL },
    { 387, "fgetxattr",                 NULL },
    { 388, "listxattr",                 NULL },
    { 389, "llistxattr",                NULL },
    { 390, "flistxattr",                NULL },
    { 391, "removexattr",               NULL },
    { 392, "lremovexattr",              NULL },
    { 393, "fremovexattr",              NULL },
    { 394, "futex",                     sys_h_futex },
    { 395, "sched_setaffinity",         sys_h_sched_setaffinity },
    { 396, "sched_getaffinity",         sys_h_sched_getaffinity },
    { 397, "tuxcall",                   NULL },
    { 398, "io_setup",                  NULL },
    { 399, "io_destroy",                NULL },
    { 400, "io_getevents",              NULL },
    { 401, "io_submit",                 NULL },
    { 402, "io_cancel",                 NULL },
    { 405, "exit_group",                sys_h_exit_group },
    { 406, "lookup_dcookie",            NULL },
    { 407, "epoll_create",              NULL },
    { 408, "epoll_ctl",                 NULL },
    { 409, "epoll_wait",                NULL },
    { 410, "remap_file_pages",          NULL },
    { 411, "set_tid_address",           sys_h_set_tid_address },
    { 412, "restart_syscall",           NULL },
    { 413, "fadvise64",                 sys_h_fadvise64 },
    { 414, "timer_create",              NULL },
    { 415, "timer_settime",             NULL },
    { 416, "timer_gettime",             NULL },
    { 417, "timer_getoverrun",          NULL },
    { 418, "timer_delete",              NULL },
    { 419, "clock_settime",             NULL },
    { 420, "clock_gettime",             sys_h_clock_gettime },
    { 421, "clock_getres",              sys_h_clock_getres },
    { 422, "clock_nanosleep",           sys_h_clock_nanosleep },
    { 423, "semtimedop",                NULL },
    { 424, "tgkill",                    sys_h_tgkill },
    { 425, "stat64",                    alpha_stat64 },
    { 426, "lstat64",                   alpha_lstat64 },
    { 427, "fstat64",                   sys_h_fstat64 },
    { 428, "vserver",                   NULL },
    { 429, "mbind",                     NULL },
    { 430, "get_mempolicy",             NULL },
    { 431, "set_mempolicy",             NULL },
    { 432, "mq_open",                   NULL },
    { 433, "mq_unlink",                 NULL },
    { 434, "mq_timedsend",              NULL },
    { 435, "mq_timedreceive",           NULL },
    { 436, "mq_notify",                 NULL },
    { 437, "mq_getsetattr",             NULL },
    { 438, "waitid",                    NULL },
    { 439, "add_key",                   NULL },
    { 440, "request_key",               NULL },
    { 441, "keyctl",                    NULL },
    { 442, "ioprio_set",                NULL },
    { 443, "ioprio_get",                NULL },
    { 444, "inotify_init",              NULL },
    { 445, "inotify_add_watch",         NULL },
    { 446, "inotify_rm_watch",          NULL },
    { 447, "fdatasync",                 sys_h_fsync },
    { 448, "kexec_load",                NULL },
    { 449, "migrate_pages",             NULL },
    { 450, "openat",                    sys_h_openat },
    { 451, "mkdirat",                   sys_h_mkdirat },
    { 452, "mknodat",                   NULL },
    { 453, "fchownat",                  sys_h_fchownat },
    { 454, "futimesat",                 NULL },
    { 455, "fstatat64",                 sys_h_fstatat64 },
    { 456, "unlinkat",                  sys_h_unlinkat },
    { 457, "renameat",                  alpha_renameat },
    { 458, "linkat",                    sys_h_linkat },
    { 459, "symlinkat",                 sys_h_symlinkat },
    { 460, "readlinkat",                sys_h_readlinkat },
    { 461, "fchmodat",                  sys_h_fchmodat },
    { 462, "faccessat",                 sys_h_faccessat },
    { 463, "pselect6",                  NULL },
    { 464, "ppoll",                     sys_h_ppoll },
    { 465, "unshare",                   NULL },
    { 466, "set_robust_list",           sys_h_set_robust_list },
    { 467, "get_robust_list",           sys_h_get_robust_list },
    { 468, "splice",                    NULL },
    { 469, "sync_file_range",           NULL },
    { 470, "tee",                       NULL },
    { 471, "vmsplice",                  NULL },
    { 472, "move_pages",                NULL },
    { 473, "getcpu",                    NULL },
    { 474, "epoll_pwait",               NULL },
    { 475, "utimensat",                 sys_h_utimensat },
    { 476, "signalfd",                  NULL },
    { 477, "timerfd",                   NULL },
    { 478, "eventfd",                   NULL },
    { 479, "recvmmsg",                  NULL },
    { 480, "fallocate",                 NULL },
    { 481, "timerfd_create",            NULL },
    { 482, "timerfd_settime",           NULL },
    { 483, "timerfd_gettime",           NULL },
    { 484, "signalfd4",                 NULL },
    { 485, "eventfd2",                  NULL },
    { 486, "epoll_create1",             NULL },
    { 487, "dup3",                      sys_h_dup3 },
    { 488, "pipe2",                     sys_h_pipe2 },
    { 489, "inotify_init1",             NULL },
    { 490, "preadv",                    sys_h_preadv },
    { 491, "pwritev",                   sys_h_pwritev },
    { 492, "rt_tgsigqueueinfo",         NULL },
    { 493, "perf_event_open",           NULL },
    { 494, "fanotify_init",             NULL },
    { 495, "fanotify_mark",             NULL },
    { 496, "prlimit64",                 sys_h_prlimit64 },
    { 497, "name_to_handle_at",         NULL },
    { 498, "open_by_handle_at",         NULL },
    { 499, "clock_adjtime",             NULL },
    { 500, "syncfs",                    NULL },
    { 501, "setns",                     NULL },
    { 502, "accept4",                   NULL },
    { 503, "sendmmsg",                  NULL },
    { 504, "process_vm_readv",          NULL },
    { 505, "process_vm_writev",         NULL },
    { 506, "kcmp",                      NULL },
    { 507, "finit_module",              NULL },
    { 508, "sched_setattr",             NULL },
    { 509, "sched_getattr",             NULL },
    { 510, "renameat2",                 sys_h_renameat2 },
    { 511, "getrandom",                 sys_h_getrandom },
    { 512, "memfd_create",              NULL },
    { 513, "execveat",                  NULL },
    { 514, "seccomp",                   NULL },
    { 515, "bpf",                       NULL },
    { 516, "userfaultfd",               NULL },
    { 517, "membarrier",                sys_h_enosys },
    { 518, "mlock2",                    sys_h_mlock },
    { 519, "copy_file_range",           NULL },
    { 520, "preadv2",                   NULL },
    { 521, "pwritev2",                  NULL },
    { 522, "statx",                     sys_h_statx },
    { 523, "io_pgetevents",             NULL },
    { 524, "pkey_mprotect",             NULL },
    { 525, "pkey_alloc",                sys_h_enosys },
    { 526, "pkey_free",                 NULL },
    { 527, "rseq",                      sys_h_enosys },
    { 528, "statfs64",                  NULL },
    { 529, "fstatfs64",                 NULL },
    { 530, "getegid",                   sys_h_getegid },
    { 531, "geteuid",                   sys_h_geteuid },
    { 532, "getppid",                   sys_h_getppid },
    { 534, "pidfd_send_signal",         NULL },
    { 535, "io_uring_setup",            sys_h_enosys },
    { 536, "io_uring_enter",            NULL },
    { 537, "io_uring_register",         NULL },
    { 538, "open_tree",                 NULL },
    { 539, "move_mount",                NULL },
    { 540, "fsopen",                    NULL },
    { 541, "fsconfig",                  NULL },
    { 542, "fsmount",                   NULL },
    { 543, "fspick",                    NULL },
    { 544, "pidfd_open",                NULL },
    { 546, "close_range",               sys_h_enosys },
    { 547, "openat2",                   NULL },
    { 548, "pidfd_getfd",               NULL },
    { 549, "faccessat2",                sys_h_faccessat2 },
    { 550, "process_madvise",           NULL },
    { 551, "epoll_pwait2",              NULL },
    { 552, "mount_setattr",             NULL },
    { 553, "quotactl_fd",               NULL },
    { 554, "landlock_create_ruleset",   sys_h_enosys },
    { 555, "landlock_add_rule",         NULL },
    { 556, "landlock_restrict_self",    NULL },
    { 558, "process_mrelease",          NULL },
    { 559, "futex_waitv",               sys_h_enosys },
    { 560, "set_mempolicy_home_node",   NULL },
    { 561, "cachestat",                 NULL },
    { 562, "fchmodat2",                 NULL },
    { 563, "map_shadow_stack",          NULL },
    { 564, "futex_wake",                NULL },
    { 565, "futex_wait",                NULL },
    { 566, "futex_requeue",             NULL },
    { 567, "statmount",                 NULL },
    { 568, "listmount",                 NULL },
    { 569, "lsm_get_self_attr",         NULL },
    { 570, "lsm_set_self_attr",         NULL },
    { 571, "lsm_list_modules",          NULL },
    { 572, "mseal",                     NULL },
};

const sys_abi_t sys_abi_alpha = {
    .name = "alpha-linux",
    .nr_reg = AL_V0,
    .arg_reg = { 16, 17, 18, 19, 20, 21 },         /* a0..a5 */
    .ret_reg = AL_V0,
    .err_flag_reg = AL_A3,
    .table = alpha_sys_table,
    .table_size = sizeof alpha_sys_table / sizeof alpha_sys_table[0],
    .page_size = 8192,
    .uname_machine = "alpha",
    .errno_out = alpha_errno_out,
    .open_flags_in = alpha_open_flags_in,
    .open_flags_out = alpha_open_flags_out,
    .mmap_flags_in = alpha_mmap_flags_in,
    .ioctl_in = alpha_ioctl_in,
    .rlimit_in = alpha_rlimit_in,
    .signal_in = alpha_signal_in,
    .sigmask_how_in = alpha_sigmask_how_in,
    .madv_dontneed = 6,
    .rlim_infinity = 0x7fffffffffffffffull,
    .clock_tick_hz = 1024,
    .stat_size = 80,
    .stat_out = alpha_stat_out,
    .stat64_size = 136,
    .stat64_out = alpha_stat64_out,
    .termios_size = 44,
    .termios_out = alpha_termios_out,
    .termios_in = alpha_termios_in,
    .sigaction_size = 24,                          /* handler, flags, mask */
    .sp_reg = 30,
    .sigaction_restorer_arg = true,
    .sa_siginfo = 0x40, .sa_onstack = 0x1, .sa_nodefer = 0x8, .sa_resethand = 0x10,
    .minsigstksz = 4096,
    .trap_pc_after = true,
    .sig_frame = alpha_sig_frame,
    .clone_tls_before_ctid = false,
    .tls_in_unique = true,                         /* wruniq's value */
};
