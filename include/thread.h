/*
 * thread.h - the guest's threads on the one simulated core
 * (sim/syscall_thread.c).
 *
 * A thread that is not running is a saved architectural context (integer
 * and FP registers, pc, Alpha FPCR/SWCR and unique value, RISC-V
 * fflags/frm; an LR/SC reservation never survives a switch) plus its own part of the emulated process
 * (signal mask and pending set, alternate stack, tid, clear_child_tid,
 * robust list) and, when blocked, what it waits for.  The running
 * thread's state lives where a single-threaded run keeps it (cpu_t and
 * sys_t), so nothing else in the simulator knows about threads: a switch
 * copies one context out of the cpu and another in, at a program-
 * instruction boundary of the run loop (sys_signal_event_at says when,
 * sys_signal_boundary switches, as for signals; never inside a DISE
 * sequence or a runtime handler).
 *
 * Scheduling is deterministic round robin in creation order: a thread runs
 * for cfg.thread_quantum program instructions, or until it blocks in a
 * futex wait, yields, or exits.  When every thread is blocked, simulated
 * time jumps to the earliest timeout; with none the run stops
 * (STOP_DEADLOCK).
 */
#ifndef HPS_THREAD_H
#define HPS_THREAD_H

#include <stdbool.h>
#include <stdint.h>

#include "sys.h"

#define SYS_THREAD_QUANTUM_DEFAULT 10000

typedef enum { THREAD_RUNNABLE, THREAD_WAITING, THREAD_DEAD } thread_state_t;

typedef struct sys_thread {
    uint64_t tid;
    thread_state_t state;
    /* architectural context, saved while another thread runs */
    uint64_t reg[64];                   /* integer and FP registers          */
    uint64_t pc, fpcr, swcr, unique;
    uint32_t fflags, frm;
    /* its part of the process, saved likewise */
    uint64_t sigmask, sig_pending, sig_saved_mask;
    bool sig_mask_saved;
    sys_siginfo_t sig_info[SYS_NSIG + 1];
    uint8_t altstack[24];
    uint64_t clear_child_tid, robust_list, robust_len;
    /* a wait (THREAD_WAITING) */
    uint64_t wait_addr;                 /* futex word, 0: a sleep or a wait
                                           for a signal                      */
    bool signal_wait;                   /* rt_sigsuspend, ppoll, sigtimedwait:
                                           a signal outside wait_sigmask
                                           restarts the call                 */
    uint64_t wait_sigmask;              /* guest sigset                      */
    uint64_t restart_pc;                /* the call's instruction            */
    uint64_t restart_regs[7];           /* its number and arguments          */
    uint32_t wait_bitset;
    uint64_t wait_seq;                  /* wake order: first come, first woken */
    uint64_t deadline;                  /* simulated monotonic ns, UINT64_MAX */
    int64_t timeout_result;             /* the call's result if it times out */
} sys_thread_t;

typedef struct sys_threads {
    sys_thread_t *t;                    /* slots in creation order (a dead
                                           thread's slot is reused)          */
    unsigned n, cap, cur;               /* cur: the running thread's slot    */
    unsigned live;                      /* threads not dead                  */
    uint64_t next_tid, next_seq;
    uint64_t slice_end;                 /* instret at which the running thread's
                                           turn ends                         */
    bool must_switch;                   /* the running thread blocked, yielded
                                           or exited                         */
    uint64_t shared_pending;            /* signals sent to the process that no
                                           thread takes yet (Linux generic
                                           bits): the first to unblock or
                                           wait for one takes it             */
    sys_siginfo_t shared_info[SYS_NSIG + 1];
    bool leader_exited;                 /* the first thread exited (exit, not
                                           exit_group): its status is the
                                           process's when the last one exits */
    int leader_status;
    uint64_t created, switches, timeouts;
} sys_threads_t;

/* The run loop's side (called from sys_signal_event_at/boundary): the
 * program instruction count at which a switch or a futex timeout falls
 * due (UINT64_MAX: none), and the switch itself (STOP_NONE, or
 * STOP_DEADLOCK with every thread blocked for ever). */
uint64_t sys_thread_event_at(sys_t *s, const cpu_t *c);
stop_reason_t sys_thread_boundary(sys_t *s, cpu_t *c);

void sys_threads_free(sys_threads_t *T);

/* Is tid a live thread of the guest? */
bool sys_thread_exists(const sys_t *s, uint64_t tid);
/* Send Linux generic signal sig to thread tid, which is not the running
 * one: it is pending for that thread, and ends its futex wait (EINTR) if
 * the thread does not block it.  False if there is no such thread. */
bool sys_thread_signal(sys_t *s, uint64_t tid, int sig, const sys_siginfo_t *info);
/* The robust list of thread tid (the running thread's included); false if
 * there is no such thread. */
bool sys_thread_robust_list(const sys_t *s, uint64_t tid, uint64_t *head, uint64_t *len);
/* A signal sent to the process (kill, an interval timer) that the running
 * thread blocks goes to the first other thread, round robin, that does not
 * (one in rt_sigtimedwait for it included), and ends its wait; if every
 * thread blocks it, it stays pending on the process.  False with no
 * threads (the caller makes it pending on the one thread). */
bool sys_thread_signal_process(sys_t *s, int sig, const sys_siginfo_t *info);
/* The running thread takes the signals pending on the process that guest
 * sigset mask does not block; true if it took any. */
bool sys_thread_claim(sys_t *s, uint64_t mask);
/* rt_sigsuspend, ppoll or rt_sigtimedwait found no signal and other threads
 * live: block the running thread until a signal outside wake_mask (a guest
 * sigset) comes, then make the call again (a[]: its arguments), or until
 * ns of simulated time (UINT64_MAX: none) have passed, then return
 * timeout_result.  False when no other thread lives (the caller waits as a
 * single-threaded process does). */
bool sys_thread_wait_signal(sys_t *s, cpu_t *c, const uint64_t a[6], uint64_t wake_mask,
                            uint64_t ns, int64_t timeout_result);
/* Block the running thread until ns of simulated time have passed (other
 * threads run meanwhile); false when it is the only thread that could run,
 * and the caller sleeps as a single-threaded process does. */
bool sys_thread_sleep(sys_t *s, cpu_t *c, uint64_t ns);

#endif /* HPS_THREAD_H */
