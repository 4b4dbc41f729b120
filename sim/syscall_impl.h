/*
 * syscall_impl.h - private interface between the ABI-independent syscall
 * handlers (syscall.c) and the per-ABI tables (syscall_rv64.c,
 * syscall_alpha.c).
 *
 * Handlers take the guest's raw argument registers and return a value or a
 * negative *host* errno; sys_call() converts errors to the guest's
 * convention.  Handlers never see guest flag encodings or structure
 * layouts directly: they go through the sys_abi_t conversion hooks.
 */
#ifndef HPS_SYSCALL_IMPL_H
#define HPS_SYSCALL_IMPL_H

#include <stdint.h>

#include "sys.h"

/* Every ABI-independent handler, as sys_h_NAME. */
#define SYS_HANDLERS(X)                                                        \
    X(exit) X(exit_group) X(read) X(write) X(readv) X(writev) X(pread64)        \
    X(pwrite64) X(preadv) X(pwritev) X(openat) X(close) X(lseek) X(fstat)       \
    X(newfstatat) X(fstat64) X(fstatat64) X(statx) X(faccessat) X(faccessat2) X(unlinkat) X(mkdirat)    \
    X(renameat2) X(linkat) X(symlinkat) X(readlinkat) X(getcwd) X(chdir)        \
    X(fchdir) X(umask) X(fchmod) X(fchmodat) X(fchown) X(fchownat)              \
    X(ftruncate) X(truncate) X(fsync) X(getdents64) X(utimensat) X(ioctl)       \
    X(fcntl) X(dup) X(dup3) X(pipe2) X(fadvise64)                               \
    X(brk) X(mmap) X(munmap) X(mprotect) X(mremap) X(madvise) X(msync)          \
    X(mlock) X(uname) X(getpid) X(getppid) X(gettid) X(getuid) X(geteuid)       \
    X(getgid) X(getegid) X(getpgid) X(getsid) X(setsid) X(setpgid)              \
    X(getgroups) X(set_tid_address) X(set_robust_list) X(get_robust_list)       \
    X(enosys) X(prlimit64) X(getrlimit) X(setrlimit) X(rt_sigaction)            \
    X(rt_sigprocmask) X(sigaltstack) X(clock_gettime) X(clock_getres)           \
    X(gettimeofday) X(nanosleep) X(clock_nanosleep) X(times) X(getrusage)       \
    X(getrandom) X(sysinfo) X(sched_getaffinity) X(sched_setaffinity)           \
    X(sched_yield) X(futex) X(kill) X(tkill) X(tgkill)                          \
    X(riscv_flush_icache) X(rt_sigpending) X(rt_sigsuspend) X(ppoll)            \
    X(setitimer) X(getitimer) X(rt_sigtimedwait) X(clone)

#define SYS_DECLARE_HANDLER(name) \
    int64_t sys_h_##name(struct sys *s, cpu_t *c, const uint64_t a[6]);
SYS_HANDLERS(SYS_DECLARE_HANDLER)
#undef SYS_DECLARE_HANDLER

/* For ABI-specific handlers: guest memory copies that check the pages are
 * mapped with the access a syscall needs (false: the call fails EFAULT). */
bool sys_copy_in(struct sys *s, uint64_t addr, void *buf, uint64_t len);
bool sys_copy_out(struct sys *s, uint64_t addr, const void *buf, uint64_t len);
/* A pipe with guest O_* flags: its guest fds in gfd; 0 or -errno. */
int64_t sys_open_pipe(struct sys *s, uint64_t guest_flags, int64_t gfd[2]);
/* The process sends itself Linux generic signal sig (SI_KERNEL): it is
 * pending, and delivered at the next instruction boundary if not blocked
 * (syscall_signal.c). */
int64_t sys_raise_signal(struct sys *s, cpu_t *c, int sig);
/* A write failed with EPIPE: SIGPIPE as Linux sends it; the call's result. */
int64_t sys_broken_pipe(struct sys *s, cpu_t *c);
/* A handler's result when it set the registers itself (sigreturn). */
#define SYS_NO_RESULT INT64_MIN
/* sigreturn's ABI-independent part, once the registers are restored from
 * the frame: the signal mask and alternate stack (NULL: none) it saved. */
void sys_sigreturn_restore(struct sys *s, cpu_t *c, uint64_t mask, const uint8_t uc_stack[24]);
/* A signal frame that cannot be read back: the process dies of SIGSEGV. */
_Noreturn void sys_bad_frame(cpu_t *c);
/* Wait up to ns of simulated time for a signal a handler takes (or one
 * that ends the process); the time waited (ns when none came). */
uint64_t sys_wait_signal(struct sys *s, cpu_t *c, uint64_t ns);
/* What a result r (a value or -host errno) puts in the ABI's result
 * register and error flag register. */
void sys_result_words(const struct sys *s, int64_t r, uint64_t *value, uint64_t *failed);
/* Nanoseconds on guest clock `clock` (Linux generic id, valid) now. */
uint64_t sys_clock_now(struct sys *s, cpu_t *c, int clock);
/* Linux generic signal sig as a bit of a guest sigset (0: no such guest
 * signal), and whether the recorded action ignores it. */
uint64_t sys_signal_guest_bit(const struct sys *s, int sig);
bool sys_signal_ignored(const struct sys *s, int sig);
/* Is a signal of pending (Linux generic bits) outside guest sigset mask? */
bool sys_signal_pending_outside(const struct sys *s, uint64_t pending, uint64_t mask);
/* When ITIMER_REAL expires (simulated CLOCK_MONOTONIC ns; UINT64_MAX: not
 * armed), and firing the expired timers (their signals go to the process). */
uint64_t sys_signal_timer_due_ns(const struct sys *s);
void sys_signal_fire_timers(struct sys *s, cpu_t *c);
/* Simulated nanoseconds of insts program instructions. */
uint64_t sys_insts_to_ns(const struct sys *s, uint64_t insts);
/* A fresh read+execute mapping holding code (the RISC-V sigreturn
 * trampoline); its address, or 0 if there is no room. */
uint64_t sys_map_code(struct sys *s, const void *code, uint64_t len);

/* Little-endian field access for the ABI structure encoders (both guest
 * ABIs are little endian). */
static inline void sys_put(uint8_t *buf, unsigned off, uint64_t v, unsigned size)
{
    for (unsigned k = 0; k < size; k++) buf[off + k] = (uint8_t)(v >> (8 * k));
}

static inline uint64_t sys_get(const uint8_t *buf, unsigned off, unsigned size)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < size; k++) v |= (uint64_t)buf[off + k] << (8 * k);
    return v;
}

#endif /* HPS_SYSCALL_IMPL_H */
