/*
 * sys.h - Linux user-mode system-call emulation.
 *
 * The emulation is written once against an abstract ABI description
 * (sys_abi_t): which registers carry the syscall number, arguments and
 * result, how errors are signalled, and a table from the guest's syscall
 * numbers to handlers.  RISC-V uses the asm-generic numbers; Alpha brings
 * its own numbers, its a3 error flag, its flag encodings and struct
 * layouts (sim/syscall_alpha.c).
 *
 * The guest's paths resolve in its own file system (fs.h): a root, binds
 * and an emulated /proc (procfs.h), never beyond them.  A bare sys_new
 * shows the host's "/" read-write; the command line narrows that (by
 * default the host read-only but for the working directory: SECURITY.md).
 * With a sysroot (--sysroot DIR, like qemu -L), absolute paths the guest
 * reads are tried in DIR first, so a dynamic linker finds its libraries
 * in the cross sysroot.
 *
 * Time is deterministic by default: clocks advance with simulated
 * instructions (or cycles), and getrandom/AT_RANDOM draw from a generator
 * seeded by --seed.  Guest file descriptors map onto host descriptors;
 * stdin/stdout/stderr pass through.
 *
 * A file mapped with PROT_EXEC (ld.so mapping a shared library's text) is
 * reported to an optional hook (sys_set_exec_map_hook), which the
 * simulator uses to add the library's symbols to the program's table; the
 * syscall layer itself knows nothing of symbols.
 */
#ifndef HPS_SYS_H
#define HPS_SYS_H

#include <stdbool.h>
#include <stdint.h>

#include "core.h"

struct sys;
typedef int64_t (*sys_handler_fn)(struct sys *s, cpu_t *c, const uint64_t a[6]);
/* A file was mapped executable: host descriptor (valid only during the
 * call; its file offset must not be moved), where the mapping went, its
 * length in bytes (whole pages) and the file offset it starts at. */
/* The guest's process id (getpid): fixed, so runs are deterministic. */
#define SYS_GUEST_PID 1000

typedef void (*sys_exec_map_fn)(void *ctx, int host_fd, uint64_t addr, uint64_t len,
                                uint64_t off);

typedef struct sys_entry {
    uint32_t nr;                /* guest syscall number                     */
    const char *name;
    sys_handler_fn fn;          /* NULL: known but unsupported              */
} sys_entry_t;

/* ABI-neutral forms the handlers work with; each ABI converts them to and
 * from its own guest layouts (see sys_abi_t below). */
typedef struct sys_stat {
    uint64_t dev, ino, rdev;
    uint32_t mode, nlink, uid, gid;
    int64_t size, blksize, blocks;
    int64_t atime, atime_nsec, mtime, mtime_nsec, ctime, ctime_nsec;
} sys_stat_t;

/* Terminal settings with Linux asm-generic flag values and c_cc indices. */
#define SYS_NCCS 19
typedef struct sys_termios {
    uint32_t iflag, oflag, cflag, lflag;
    uint8_t line;
    uint8_t cc[SYS_NCCS];
} sys_termios_t;

/* mmap flags a handler understands (an ABI's mmap_flags_in maps to these). */
enum {
    SYS_MAP_SHARED = 1u << 0, SYS_MAP_PRIVATE = 1u << 1, SYS_MAP_FIXED = 1u << 2,
    SYS_MAP_ANON = 1u << 3, SYS_MAP_FIXED_NOREPLACE = 1u << 4,
    SYS_MAP_SHARED_VALIDATE = 1u << 5, SYS_MAP_UNKNOWN = 1u << 31
};

/* ioctl requests a handler understands (an ABI's ioctl_in maps to these). */
enum {
    SYS_IOCTL_UNKNOWN = 0, SYS_IOCTL_TCGETS, SYS_IOCTL_TCSETS, SYS_IOCTL_TCSETSW,
    SYS_IOCTL_TCSETSF, SYS_IOCTL_TIOCGWINSZ, SYS_IOCTL_TIOCSWINSZ,
    SYS_IOCTL_FIONREAD, SYS_IOCTL_FIONBIO, SYS_IOCTL_TIOCGPGRP
};

/* Why a signal was sent: its siginfo (Linux generic si_code values). */
typedef struct sys_siginfo {
    int32_t code;               /* SI_USER, SI_TKILL, SI_KERNEL, SEGV_MAPERR... */
    int32_t pid, uid;           /* sender (kill, tkill, tgkill)             */
    uint64_t addr;              /* si_addr of a fault                       */
    bool fault;                 /* si_addr is meaningful                    */
} sys_siginfo_t;

/* What an ABI's frame writer is given. */
typedef struct sys_sigframe {
    int guest_sig;              /* the signal in the guest's numbering      */
    const uint8_t *info;        /* 128-byte siginfo, guest layout           */
    bool rt;                    /* SA_SIGINFO: siginfo + ucontext frame     */
    uint64_t handler, restorer; /* restorer 0: none (Alpha writes retcode)  */
    uint64_t sp;                /* the stack the frame goes on (its top)    */
    uint64_t old_mask;          /* guest sigset restored by sigreturn       */
    uint64_t resume_pc;         /* where sigreturn resumes                  */
    uint8_t uc_stack[24];       /* stack_t: the alternate stack and whether
                                   the interrupted code was on it           */
    bool frame_on_altstack;     /* the frame goes on the alternate stack    */
} sys_sigframe_t;

typedef struct sys_abi {
    const char *name;
    uint8_t nr_reg;             /* unified register holding the number      */
    uint8_t arg_reg[6];
    uint8_t ret_reg;
    int8_t  err_flag_reg;       /* Alpha a3; -1 when errors are -errno      */
    const sys_entry_t *table;   /* sorted by nr                             */
    unsigned table_size;
    unsigned page_size;
    const char *uname_machine;  /* uname -m                                 */

    /* Constants and flags: guest encoding <-> Linux generic / host. */
    int      (*errno_out)(int linux_errno);     /* Linux errno -> guest     */
    int      (*open_flags_in)(uint64_t guest);  /* guest O_* -> host O_*    */
    uint64_t (*open_flags_out)(int host);       /* host O_* -> guest (F_GETFL) */
    unsigned (*mmap_flags_in)(uint64_t guest);  /* guest MAP_* -> SYS_MAP_* */
    int      (*ioctl_in)(uint64_t guest);       /* guest request -> SYS_IOCTL_* */
    int      (*rlimit_in)(uint64_t guest);      /* -> Linux generic RLIMIT_*, -1 */
    int      (*signal_in)(uint64_t guest);      /* -> Linux generic signal, 0 bad */
    int      (*sigmask_how_in)(uint64_t guest); /* -> 0 block/1 unblock/2 set, -1 */
    uint64_t madv_dontneed;                     /* MADV_DONTNEED's number   */

    uint64_t rlim_infinity;                     /* RLIM_INFINITY of getrlimit/
                                                   setrlimit (prlimit64: ~0) */
    unsigned clock_tick_hz;                     /* USER_HZ: times() ticks   */

    /* Structure layouts. */
    unsigned stat_size;                          /* struct stat (fstat, ...) */
    void (*stat_out)(const sys_stat_t *st, uint8_t *buf);
    unsigned stat64_size;                        /* struct stat64 (fstat64,
                                                    fstatat64), 0 = none    */
    void (*stat64_out)(const sys_stat_t *st, uint8_t *buf);
    unsigned termios_size;                       /* kernel struct termios    */
    void (*termios_out)(const sys_termios_t *t, uint8_t *buf);
    void (*termios_in)(const uint8_t *buf, sys_termios_t *t);
    unsigned sigaction_size;                     /* kernel struct sigaction  */

    /* Signals (sim/syscall_signal.c delivers; the ABI lays out frames). */
    uint8_t sp_reg;                              /* the stack pointer        */
    bool sigaction_restorer_arg;                 /* rt_sigaction's 5th argument
                                                    is sa_restorer (Alpha)   */
    uint32_t sa_siginfo, sa_onstack, sa_nodefer, sa_resethand;   /* SA_* flags */
    uint64_t minsigstksz;                        /* MINSIGSTKSZ              */
    bool trap_pc_after;                          /* breakpoints and arithmetic
                                                    traps resume after the
                                                    instruction (Alpha PAL)  */
    /* Write the frame for handler f->handler below f->sp and set the
     * registers that enter it; false if the frame cannot be written. */
    bool (*sig_frame)(struct sys *s, cpu_t *c, const struct sys_sigframe *f);

    /* Threads (sim/syscall_thread.c). */
    bool clone_tls_before_ctid;                  /* clone(flags, sp, ptid, tls,
                                                    ctid): RISC-V; else
                                                    (flags, sp, ptid, ctid, tls) */
    bool tls_in_unique;                          /* CLONE_SETTLS sets the Alpha
                                                    unique value ...         */
    uint8_t tls_reg;                             /* ... else this register   */
} sys_abi_t;

extern const sys_abi_t sys_abi_rv64;
extern const sys_abi_t sys_abi_alpha;

typedef struct sys_config {
    uint64_t seed;              /* getrandom / AT_RANDOM                    */
    uint64_t epoch_sec;         /* wall-clock time at instruction 0         */
    uint64_t insts_per_sec;     /* simulated clock rate for time()          */
    bool host_time;             /* use the host clock instead (non-deterministic) */
    uint64_t thread_quantum;    /* program instructions a thread runs before
                                   the next one's turn (0: the default,
                                   thread.h)                                */
} sys_config_t;

#define SYS_MAX_FDS 1024
#define SYS_NSIG    64          /* signals 1..64                            */
#define SYS_NRLIMIT 16          /* Linux generic RLIMIT_* count             */
#define SYS_SIGACTION_MAX 32    /* bytes of a recorded guest sigaction      */
#define SYS_NITIMER 3           /* ITIMER_REAL, ITIMER_VIRTUAL, ITIMER_PROF */

/* An interval timer: it expires when its clock reaches `due` (ns; 0 =
 * disarmed) and is re-armed `interval` ns later. */
typedef struct sys_itimer {
    uint64_t due, interval;
} sys_itimer_t;

enum { SYS_FD_OWNED = 1, SYS_FD_CLOEXEC = 2,   /* fd_flags bits             */
       SYS_FD_RO = 4,                           /* on a read-only mount      */
       SYS_FD_PROC = 8,                         /* an emulated /proc file    */
       SYS_FD_MEM = 16,                         /* ... /proc/self/mem        */
       SYS_FD_PROCDIR = 32 };                   /* ... a /proc directory     */
#define SYS_FD_KIND (SYS_FD_RO | SYS_FD_PROC | SYS_FD_MEM | SYS_FD_PROCDIR)

struct fs;
struct fs_place;
struct procfs;
struct sys_threads;

typedef struct sys {
    const sys_abi_t *abi;
    mem_t *mem;
    sys_config_t cfg;
    uint64_t brk_start, brk_cur;        /* program break                    */
    uint64_t mmap_bottom, mmap_top;     /* where mmap places new mappings   */
    bool mmap_bottom_up;                /* first fit from the bottom (Alpha's
                                           legacy layout), else from the top */
    int host_fd[SYS_MAX_FDS];           /* guest fd -> host fd, -1 = closed */
    uint8_t fd_flags[SYS_MAX_FDS];      /* SYS_FD_*: owned (close the host fd), cloexec */
    uint64_t rng_state;                 /* splitmix64 stream for getrandom  */
    uint64_t tid;
    uint64_t calls;                     /* syscalls executed                */
    char *exe_path;                     /* guest program (/proc/self/exe)   */
    uint64_t sleep_ns;                  /* simulated time spent sleeping    */
    uint64_t rlimit[SYS_NRLIMIT][2];    /* soft, hard                       */
    uint64_t sigmask;                   /* blocked signals (never delivered) */
    uint8_t sigaction[SYS_NSIG + 1][SYS_SIGACTION_MAX]; /* recorded, guest layout */
    uint8_t altstack[24];               /* sigaltstack: ss_sp, ss_flags, ss_size */
    uint64_t sig_pending;               /* Linux generic signals, bit sig-1 */
    sys_siginfo_t sig_info[SYS_NSIG + 1]; /* why each pending one was sent */
    uint64_t sig_restorer[SYS_NSIG + 1]; /* Alpha: rt_sigaction's restorer */
    uint64_t sig_saved_mask;            /* rt_sigsuspend's mask to restore  */
    bool sig_mask_saved;                /* ... once its handler is entered  */
    sys_itimer_t itimer[SYS_NITIMER];
    uint64_t sig_tramp;                 /* RISC-V sigreturn trampoline, 0
                                           until a handler first needs it   */
    uint64_t signals_delivered;         /* handlers entered                 */
    bool sig_redirect;                  /* sigreturn moved the pc: the loop
                                           must resume from c->pc           */
    uint64_t clear_child_tid, robust_list, robust_len;
    struct sys_threads *threads;        /* the guest's threads (thread.h), NULL
                                           until it first clones or waits    */
    const char *threads_refused_by;     /* an option whose observer keeps one
                                           call stack per process (--csprof;
                                           --cct and --paths keep one per
                                           thread): a clone of a thread stops
                                           the run naming it                 */
    bool discard_output;                /* writes to host stdout/stderr vanish */
    struct fs *fs;                      /* the guest's file system (fs.h)   */
    struct procfs *proc;                /* its /proc (procfs.h)             */
    struct fs_place *fd_place[SYS_MAX_FDS]; /* where each guest fd is, or NULL */
    int cwd_fd;                         /* the guest's working directory (a
                                           host O_PATH fd, -1 in /proc)     */
    struct fs_place *cwd;               /* ... its mount and guest path     */
    uint32_t alpha_uac;                 /* Alpha unaligned-access control
                                           (osf_setsysinfo SSIN_UACPROC)     */
    sys_exec_map_fn on_exec_map;        /* see sys_set_exec_map_hook, or NULL */
    void *on_exec_map_ctx;
} sys_t;

sys_t *sys_new(mem_t *mem, const sys_abi_t *abi, const sys_config_t *cfg);
void   sys_free(sys_t *s);
/* Called by the loader once the image is mapped: the break starts here. */
void   sys_set_brk(sys_t *s, uint64_t brk_start);
/* The guest program's path, reported by readlink("/proc/self/exe"). */
void   sys_set_exe(sys_t *s, const char *path);
/* Where mmap places mappings without a usable hint: the lowest free range
 * from bottom up, or the highest one from top down. */
void   sys_set_mmap_area(sys_t *s, uint64_t bottom, uint64_t top, bool bottom_up);
/* Look absolute guest paths the guest reads up under dir first (open,
 * stat, access, readlink), confined to dir, then in the guest's file
 * system, as qemu -L does (NULL: none). */
void   sys_set_sysroot(sys_t *s, const char *dir);
/* The guest's "/" is host directory dir (ro: read-only).  False with a
 * message if dir is no directory. */
bool   sys_set_fs_root(sys_t *s, const char *dir, bool ro, char *err, size_t errlen);
/* Show host path host (directory or file) at guest path guest (which must
 * exist in the guest's file system), read-only if ro. */
bool   sys_bind(sys_t *s, const char *host, const char *guest, bool ro, char *err,
                size_t errlen);
/* The guest's working directory is dir, a guest path (resolved now;
 * relative paths and AT_FDCWD of the guest's calls start there, and its
 * chdir moves only it, never hps-sim's own).  False with a message if dir
 * is no directory the guest can reach. */
bool   sys_set_cwd(sys_t *s, const char *dir, char *err, size_t errlen);
/* The process as the loader started it, for /proc/self: argv, envp and
 * auxv on the initial stack at sp, the stack [stack_lo, stack_hi), and
 * the program's and interpreter's segments (named in /proc/self/maps). */
struct image;
void   sys_note_start(sys_t *s, const struct image *img, uint64_t sp, uint64_t stack_lo,
                      uint64_t stack_hi);
/* Call fn(ctx, ...) after every successful mmap of a file with PROT_EXEC
 * (NULL: no hook).  Runs at mmap time only, never per instruction. */
void   sys_set_exec_map_hook(sys_t *s, sys_exec_map_fn fn, void *ctx);
/* Execute the syscall the guest requested (ecall / callsys).  Stops the
 * cpu on exit/exit_group (STOP_EXIT) and on unemulated calls
 * (STOP_BAD_SYSCALL, stop_info = number). */
void   sys_call(sys_t *s, cpu_t *c);
/* Signals, at the run loop's instruction boundaries (syscall_signal.c).
 * sys_signal_event_at: the program instruction count at which the loop
 * must call sys_signal_boundary (c->instret when a signal can be
 * delivered now, when the next interval timer expires, or UINT64_MAX).
 * sys_signal_boundary: fire the expired timers, enter the handlers of the
 * deliverable signals; STOP_NONE, or STOP_EXIT when a signal's default
 * action ends the process (exit status 128 + signal), or STOP_SIGNAL when
 * a frame could not be written (SIGSEGV).
 * sys_fault_signal: the run stopped on a guest fault (c->stop): if the
 * guest has a handler for its signal (and does not block it), enter it
 * and return true (c->stop is cleared); false leaves the stop as it is. */
uint64_t sys_signal_event_at(sys_t *s, const cpu_t *c);
stop_reason_t sys_signal_boundary(sys_t *s, cpu_t *c);
bool sys_fault_signal(sys_t *s, cpu_t *c);

/* Name of a guest syscall number, or NULL. */
const char *sys_name(const sys_abi_t *abi, uint64_t nr);
/* Deterministic random bytes from the seed (also used for AT_RANDOM). */
void   sys_random_bytes(sys_t *s, uint8_t *buf, uint64_t len);

#endif /* HPS_SYS_H */
