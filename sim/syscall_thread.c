/*
 * syscall_thread.c - the guest's threads (thread.h): clone for threads,
 * futexes, thread exit with CLONE_CHILD_CLEARTID and the robust list,
 * sched_yield, and the deterministic round-robin scheduler that switches
 * threads on the one simulated core.
 *
 * Until the guest first clones or waits on a futex there is no thread
 * table and a run is exactly single-threaded.  Afterwards slot 0 is the
 * thread the program started with (tid SYS_GUEST_PID, as Linux gives the
 * leader the process id) and each clone takes the next tid.
 *
 * Futex waiters queue first come, first woken (Linux's order for waiters
 * of equal priority); timeouts run on the simulated monotonic clock
 * (program instructions at cfg.insts_per_sec plus time slept), so when a
 * wait times out is deterministic.  The PRIVATE flag changes nothing:
 * there is one process.  fork (clone without CLONE_VM | CLONE_THREAD)
 * stops the run as an unsupported call.
 */
#include "thread.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "syscall_impl.h"
#include "util.h"

enum { L_CLONE_VM = 0x100, L_CLONE_FS = 0x200, L_CLONE_FILES = 0x400, L_CLONE_SIGHAND = 0x800,
       L_CLONE_THREAD = 0x10000, L_CLONE_SYSVSEM = 0x40000, L_CLONE_SETTLS = 0x80000,
       L_CLONE_PARENT_SETTID = 0x100000, L_CLONE_CHILD_CLEARTID = 0x200000,
       L_CLONE_DETACHED = 0x400000, L_CLONE_CHILD_SETTID = 0x1000000, L_CSIGNAL = 0xff };
#define THREAD_CLONE_FLAGS                                                              \
    (L_CLONE_VM | L_CLONE_FS | L_CLONE_FILES | L_CLONE_SIGHAND | L_CLONE_THREAD |         \
     L_CLONE_SYSVSEM | L_CLONE_SETTLS | L_CLONE_PARENT_SETTID | L_CLONE_CHILD_CLEARTID |  \
     L_CLONE_DETACHED | L_CLONE_CHILD_SETTID | L_CSIGNAL)

enum { L_FUTEX_WAIT = 0, L_FUTEX_WAKE = 1, L_FUTEX_REQUEUE = 3, L_FUTEX_CMP_REQUEUE = 4,
       L_FUTEX_WAIT_BITSET = 9, L_FUTEX_WAKE_BITSET = 10, L_FUTEX_PRIVATE = 128,
       L_FUTEX_CLOCK_REALTIME = 256 };
#define FUTEX_BITSET_ANY 0xffffffffu
/* robust futex words (linux/futex.h) */
#define FUTEX_WAITERS    0x80000000u
#define FUTEX_OWNER_DIED 0x40000000u
#define FUTEX_TID_MASK   0x3fffffffu
#define ROBUST_LIST_LIMIT 2048          /* Linux's bound on the walk */
#define MAX_THREADS 4096                /* RLIMIT_NPROC as getrlimit shows it */
#define NO_DEADLINE UINT64_MAX
enum { L_CLOCK_REALTIME = 0, L_CLOCK_MONOTONIC = 1 };

/* ---- the table --------------------------------------------------------------------- */

static uint64_t quantum(const sys_t *s)
{
    return s->cfg.thread_quantum ? s->cfg.thread_quantum : SYS_THREAD_QUANTUM_DEFAULT;
}

/* Simulated CLOCK_MONOTONIC in ns (the host clock never times a wait). */
static uint64_t now_ns(const sys_t *s, const cpu_t *c)
{
    return sys_insts_to_ns(s, c->instret) + s->sleep_ns;
}

/* The thread table, made on first need with the running thread in slot 0. */
static sys_threads_t *threads(sys_t *s, const cpu_t *c)
{
    if (s->threads) return s->threads;
    sys_threads_t *T = xcalloc(1, sizeof *T);
    T->cap = 8;
    T->t = xcalloc(T->cap, sizeof *T->t);
    T->n = T->live = 1;
    T->t[0].tid = s->tid;
    T->t[0].state = THREAD_RUNNABLE;
    T->next_tid = s->tid + 1;
    T->slice_end = c->instret + quantum(s);
    s->threads = T;
    return T;
}

void sys_threads_free(sys_threads_t *T)
{
    if (!T) return;
    free(T->t);
    free(T);
}

static sys_thread_t *find(const sys_t *s, uint64_t tid)
{
    const sys_threads_t *T = s->threads;
    if (!T) return NULL;
    for (unsigned k = 0; k < T->n; k++)
        if (T->t[k].tid == tid && T->t[k].state != THREAD_DEAD) return &T->t[k];
    return NULL;
}

bool sys_thread_exists(const sys_t *s, uint64_t tid)
{
    return tid == s->tid || find(s, tid) != NULL;
}

/* A free slot: the first dead thread's, else a new one. */
static sys_thread_t *new_slot(sys_threads_t *T)
{
    for (unsigned k = 0; k < T->n; k++)
        if (T->t[k].state == THREAD_DEAD) return &T->t[k];
    if (T->n == T->cap) {
        T->cap *= 2;
        T->t = xrealloc(T->t, T->cap * sizeof *T->t);
    }
    return &T->t[T->n++];
}

/* ---- contexts ------------------------------------------------------------------------ */

static void save_context(const sys_t *s, const cpu_t *c, sys_thread_t *t)
{
    memcpy(t->reg, c->reg, sizeof t->reg);
    t->pc = c->pc;
    t->fpcr = c->fpcr;
    t->swcr = c->swcr;
    t->unique = c->unique;
    t->fflags = c->fflags;
    t->frm = c->frm;
    t->tid = s->tid;
    t->sigmask = s->sigmask;
    t->sig_pending = s->sig_pending;
    t->sig_saved_mask = s->sig_saved_mask;
    t->sig_mask_saved = s->sig_mask_saved;
    memcpy(t->sig_info, s->sig_info, sizeof t->sig_info);
    memcpy(t->altstack, s->altstack, sizeof t->altstack);
    t->clear_child_tid = s->clear_child_tid;
    t->robust_list = s->robust_list;
    t->robust_len = s->robust_len;
}

/* The reservation does not survive a switch: Linux clears it on the way
 * back to user mode (RISC-V's dummy SC, Alpha's PALcode), so an LR/SC or
 * LDx_L/STx_C pair a switch falls between fails and is retried. */
static void load_context(sys_t *s, cpu_t *c, const sys_thread_t *t)
{
    memcpy(c->reg, t->reg, sizeof t->reg);
    c->pc = t->pc;
    c->reservation = ~0ull;
    c->fpcr = t->fpcr;
    c->swcr = t->swcr;
    c->unique = t->unique;
    c->fflags = t->fflags;
    c->frm = t->frm;
    s->tid = t->tid;
    s->sigmask = t->sigmask;
    s->sig_pending = t->sig_pending;
    s->sig_saved_mask = t->sig_saved_mask;
    s->sig_mask_saved = t->sig_mask_saved;
    memcpy(s->sig_info, t->sig_info, sizeof s->sig_info);
    memcpy(s->altstack, t->altstack, sizeof s->altstack);
    s->clear_child_tid = t->clear_child_tid;
    s->robust_list = t->robust_list;
    s->robust_len = t->robust_len;
    if (c->isa->run_enter) c->isa->run_enter(c);    /* the host FP state */
}

static bool is_running(const sys_t *s, const sys_thread_t *t)
{
    return t == &s->threads->t[s->threads->cur];
}

/* A blocked thread's system call returns r after all (timeout, signal). */
static void set_wait_result(sys_t *s, cpu_t *c, sys_thread_t *t, int64_t r)
{
    const sys_abi_t *abi = s->abi;
    uint64_t value, failed;
    sys_result_words(s, r, &value, &failed);
    uint64_t *reg = is_running(s, t) ? c->reg : t->reg;
    reg[abi->ret_reg] = value;
    if (abi->err_flag_reg >= 0) reg[abi->err_flag_reg] = failed;
}

/* ---- waiting and waking ------------------------------------------------------------------ */

static void wake(sys_t *s, cpu_t *c, sys_thread_t *t, int64_t r)
{
    if (r) set_wait_result(s, c, t, r);
    t->state = THREAD_RUNNABLE;
    t->wait_addr = 0;
    t->signal_wait = false;
}

/* A signal ends t's wait: a futex wait or a sleep returns EINTR, and so
 * does a wait for a signal when one its usual mask lets through came (its
 * handler runs first, at the boundary); else (one only the call's own
 * mask or set lets through) the call is made again (its number and
 * arguments back in their registers, the pc on its instruction), and now
 * finds it. */
static void interrupt_wait(sys_t *s, cpu_t *c, sys_thread_t *t)
{
    bool running = is_running(s, t);
    uint64_t pending = running ? s->sig_pending : t->sig_pending;
    uint64_t mask = running ? s->sigmask : t->sigmask;
    if (!t->signal_wait || sys_signal_pending_outside(s, pending, mask)) {
        wake(s, c, t, -EINTR);
        return;
    }
    const sys_abi_t *abi = s->abi;
    uint64_t *reg = running ? c->reg : t->reg;
    reg[abi->nr_reg] = t->restart_regs[0];
    for (int k = 0; k < 6; k++) reg[abi->arg_reg[k]] = t->restart_regs[k + 1];
    if (running) c->pc = t->restart_pc;
    else t->pc = t->restart_pc;
    wake(s, c, t, 0);
}

/* The earliest-queued waiter on futex word addr whose bitset meets
 * bitset, or NULL (sleeps and signal waits have no word). */
static sys_thread_t *first_waiter(sys_threads_t *T, uint64_t addr, uint32_t bitset)
{
    sys_thread_t *best = NULL;
    if (!addr) return NULL;
    for (unsigned k = 0; k < T->n; k++) {
        sys_thread_t *t = &T->t[k];
        if (t->state == THREAD_WAITING && t->wait_addr == addr && (t->wait_bitset & bitset) &&
            (!best || t->wait_seq < best->wait_seq))
            best = t;
    }
    return best;
}

/* Wake up to n waiters on addr (at least one, as Linux does for n <= 0);
 * the number woken.  The loop looks at the new runnable threads. */
static int64_t wake_waiters(sys_t *s, cpu_t *c, uint64_t addr, int64_t n, uint32_t bitset)
{
    sys_threads_t *T = s->threads;
    int64_t woken = 0;
    sys_thread_t *t;
    while (T && (woken == 0 || woken < n) && (t = first_waiter(T, addr, bitset))) {
        wake(s, c, t, 0);
        woken++;
    }
    if (woken) c->event_at = 0;
    return woken;
}

/* Block the running thread until woken or until deadline (simulated
 * monotonic ns): its call returns 0 when woken, timeout_result when the
 * deadline passes.  The switch happens at the next instruction boundary. */
static int64_t block(sys_t *s, cpu_t *c, uint64_t addr, uint32_t bitset, uint64_t deadline,
                     int64_t timeout_result)
{
    sys_threads_t *T = threads(s, c);
    sys_thread_t *t = &T->t[T->cur];
    t->state = THREAD_WAITING;
    t->wait_addr = addr;
    t->wait_bitset = bitset;
    t->wait_seq = T->next_seq++;
    t->deadline = deadline;
    t->timeout_result = timeout_result;
    t->signal_wait = false;
    T->must_switch = true;
    c->event_at = 0;
    return 0;
}

/* Waiters whose deadline has passed return their timeout result. */
static void expire_waits(sys_t *s, cpu_t *c)
{
    sys_threads_t *T = s->threads;
    uint64_t now = now_ns(s, c);
    for (unsigned k = 0; k < T->n; k++) {
        sys_thread_t *t = &T->t[k];
        if (t->state == THREAD_WAITING && t->deadline <= now) {
            wake(s, c, t, t->timeout_result);
            T->timeouts++;
        }
    }
}

static uint64_t earliest_deadline(const sys_threads_t *T)
{
    uint64_t d = NO_DEADLINE;
    for (unsigned k = 0; k < T->n; k++)
        if (T->t[k].state == THREAD_WAITING && T->t[k].deadline < d) d = T->t[k].deadline;
    return d;
}

/* ---- scheduling ---------------------------------------------------------------------------- */

/* The next runnable slot after the running one, round robin (the running
 * one itself last), or -1. */
static int next_runnable(const sys_threads_t *T)
{
    for (unsigned k = 1; k <= T->n; k++) {
        unsigned i = (T->cur + k) % T->n;
        if (T->t[i].state == THREAD_RUNNABLE) return (int)i;
    }
    return -1;
}

static bool others_runnable(const sys_threads_t *T)
{
    int i = next_runnable(T);
    return i >= 0 && (unsigned)i != T->cur;
}

/* The program instruction count at which the simulated clock reaches ns. */
static uint64_t insts_at(const sys_t *s, uint64_t ns)
{
    if (ns <= s->sleep_ns) return 0;
    unsigned __int128 x = (unsigned __int128)(ns - s->sleep_ns) * s->cfg.insts_per_sec;
    unsigned __int128 n = (x + 999999999u) / 1000000000u;
    return n > UINT64_MAX ? UINT64_MAX : (uint64_t)n;
}

uint64_t sys_thread_event_at(sys_t *s, const cpu_t *c)
{
    const sys_threads_t *T = s->threads;
    if (!T) return UINT64_MAX;
    if (T->must_switch) return c->instret;
    uint64_t at = others_runnable(T) ? T->slice_end : UINT64_MAX;
    uint64_t d = earliest_deadline(T);
    if (d != NO_DEADLINE) {
        uint64_t due = insts_at(s, d);
        if (due < at) at = due;
    }
    return at < c->instret ? c->instret : at;
}

static void switch_to(sys_t *s, cpu_t *c, unsigned next)
{
    sys_threads_t *T = s->threads;
    sys_thread_t *from = &T->t[T->cur];
    if (next != T->cur) {
        save_context(s, c, from);
        load_context(s, c, &T->t[next]);
        T->cur = next;
        T->switches++;
    }
    T->slice_end = c->instret + quantum(s);
    T->must_switch = false;
}

/* The running thread blocked, and a signal it now takes came (an interval
 * timer's): its wait ends. */
static void wake_running_if_signalled(sys_t *s, cpu_t *c)
{
    sys_thread_t *t = &s->threads->t[s->threads->cur];
    uint64_t mask = t->signal_wait ? t->wait_sigmask : s->sigmask;
    if (t->state == THREAD_WAITING && sys_signal_pending_outside(s, s->sig_pending, mask))
        interrupt_wait(s, c, t);
}

stop_reason_t sys_thread_boundary(sys_t *s, cpu_t *c)
{
    sys_threads_t *T = s->threads;
    if (!T) return STOP_NONE;
    expire_waits(s, c);
    if (!T->must_switch && !(c->instret >= T->slice_end))
        return STOP_NONE;
    int next = next_runnable(T);
    bool timers_wake = true;
    while (next < 0) {                          /* all blocked: time passes */
        uint64_t d = earliest_deadline(T), now = now_ns(s, c);
        uint64_t timer = timers_wake ? sys_signal_timer_due_ns(s) : NO_DEADLINE;
        uint64_t to = timer < d ? timer : d;
        if (to == NO_DEADLINE) {
            c->stop = STOP_DEADLOCK;
            c->stop_info = T->live;
            return STOP_DEADLOCK;
        }
        if (to > now) s->sleep_ns += to - now;
        if (to == timer) {                      /* ITIMER_REAL: its signal may wake one */
            sys_signal_fire_timers(s, c);
            wake_running_if_signalled(s, c);
        }
        expire_waits(s, c);
        next = next_runnable(T);
        if (next < 0 && to == timer) timers_wake = false;   /* nobody took it */
    }
    switch_to(s, c, (unsigned)next);
    sys_thread_claim(s, s->sigmask);            /* the process's signals it takes */
    return STOP_NONE;
}

bool sys_thread_sleep(sys_t *s, cpu_t *c, uint64_t ns)
{
    if (!s->threads || s->threads->live < 2) return false;
    uint64_t now = now_ns(s, c);
    block(s, c, 0, 0, ns > NO_DEADLINE - 1 - now ? NO_DEADLINE - 1 : now + ns, 0);
    return true;
}

/* ---- signals to other threads ------------------------------------------------------------ */

bool sys_thread_signal(sys_t *s, uint64_t tid, int sig, const sys_siginfo_t *info)
{
    sys_thread_t *t = find(s, tid);
    if (!t || is_running(s, t)) return false;
    uint64_t gbit = sys_signal_guest_bit(s, sig);
    bool masked = t->sigmask & gbit;
    if (!masked && sys_signal_ignored(s, sig)) return true;      /* discarded, as Linux does */
    uint64_t bit = 1ull << (sig - 1);
    if (!(t->sig_pending & bit)) t->sig_info[sig] = *info;
    t->sig_pending |= bit;
    bool wakes = t->signal_wait ? !(t->wait_sigmask & gbit) : !masked;
    if (wakes && t->state == THREAD_WAITING) interrupt_wait(s, NULL, t);
    return true;
}

/* Does thread t (its state where it is kept) take sig now? */
static bool takes(const sys_t *s, const sys_thread_t *t, uint64_t gbit)
{
    if (t->state == THREAD_DEAD) return false;
    bool in_wait = t->state == THREAD_WAITING && t->signal_wait;
    uint64_t mask = in_wait ? t->wait_sigmask : is_running(s, t) ? s->sigmask : t->sigmask;
    return !(mask & gbit);
}

/* As Linux's complete_signal: the first thread (the process's leader) if
 * it takes the signal, else the running one, else the others round
 * robin. */
bool sys_thread_signal_process(sys_t *s, int sig, const sys_siginfo_t *info)
{
    sys_threads_t *T = s->threads;
    if (!T) return false;
    uint64_t gbit = sys_signal_guest_bit(s, sig);
    sys_thread_t *leader = find(s, SYS_GUEST_PID);
    if (leader && takes(s, leader, gbit))
        return is_running(s, leader) ? false : sys_thread_signal(s, leader->tid, sig, info);
    for (unsigned k = 0; k < T->n; k++) {
        sys_thread_t *t = &T->t[(T->cur + k) % T->n];
        if (takes(s, t, gbit))
            return k == 0 ? false : sys_thread_signal(s, t->tid, sig, info);
    }
    uint64_t bit = 1ull << (sig - 1);                /* every thread blocks it */
    if (!(T->shared_pending & bit)) T->shared_info[sig] = *info;
    T->shared_pending |= bit;
    return true;
}

bool sys_thread_claim(sys_t *s, uint64_t mask)
{
    sys_threads_t *T = s->threads;
    if (!T || !T->shared_pending) return false;
    bool took = false;
    for (int sig = 1; sig <= SYS_NSIG; sig++) {
        uint64_t bit = 1ull << (sig - 1);
        if (!(T->shared_pending & bit) || (mask & sys_signal_guest_bit(s, sig))) continue;
        T->shared_pending &= ~bit;
        if (!(s->sig_pending & bit)) s->sig_info[sig] = T->shared_info[sig];
        s->sig_pending |= bit;
        took = true;
    }
    return took;
}

bool sys_thread_wait_signal(sys_t *s, cpu_t *c, const uint64_t a[6], uint64_t wake_mask,
                            uint64_t ns, int64_t timeout_result)
{
    if (!s->threads || sys_thread_claim(s, wake_mask) || s->threads->live < 2) return false;
    uint64_t now = now_ns(s, c);
    uint64_t deadline = ns >= NO_DEADLINE - 1 - now ? NO_DEADLINE : now + ns;
    block(s, c, 0, 0, deadline, timeout_result);
    sys_thread_t *t = &s->threads->t[s->threads->cur];
    t->signal_wait = true;
    t->wait_sigmask = wake_mask;
    t->restart_pc = c->stop_pc;                 /* the ecall / callsys */
    t->restart_regs[0] = cpu_get(c, s->abi->nr_reg);
    for (int k = 0; k < 6; k++) t->restart_regs[k + 1] = a[k];
    return true;
}

bool sys_thread_robust_list(const sys_t *s, uint64_t tid, uint64_t *head, uint64_t *len)
{
    if (tid == s->tid) {
        *head = s->robust_list;
        *len = s->robust_len;
        return true;
    }
    const sys_thread_t *t = find(s, tid);
    if (!t) return false;
    *head = t->robust_list;
    *len = t->robust_len;
    return true;
}

/* ---- futex --------------------------------------------------------------------------------- */

static bool read_u32(sys_t *s, uint64_t addr, uint32_t *v)
{
    uint8_t b[4];
    if (!sys_copy_in(s, addr, b, 4)) return false;
    *v = (uint32_t)sys_get(b, 0, 4);
    return true;
}

static bool write_u32(sys_t *s, uint64_t addr, uint32_t v)
{
    uint8_t b[4];
    sys_put(b, 0, v, 4);
    return sys_copy_out(s, addr, b, 4);
}

/* A wait's deadline on the simulated monotonic clock: none without a
 * timespec; relative to now for FUTEX_WAIT, absolute on the op's clock
 * for FUTEX_WAIT_BITSET.  0 or -errno. */
static int64_t wait_deadline(sys_t *s, cpu_t *c, uint64_t ts, bool absolute, bool realtime,
                             uint64_t *deadline)
{
    *deadline = NO_DEADLINE;
    if (!ts) return 0;
    uint8_t b[16];
    if (!sys_copy_in(s, ts, b, sizeof b)) return -EFAULT;
    int64_t sec = (int64_t)sys_get(b, 0, 8), nsec = (int64_t)sys_get(b, 8, 8);
    if (sec < 0 || nsec < 0 || nsec >= 1000000000) return -EINVAL;
    uint64_t ns = (uint64_t)sec * 1000000000ull + (uint64_t)nsec;
    uint64_t now = now_ns(s, c);
    if (absolute) {
        uint64_t clock_now = sys_clock_now(s, c, realtime ? L_CLOCK_REALTIME : L_CLOCK_MONOTONIC);
        ns = ns > clock_now ? ns - clock_now : 0;
    }
    *deadline = ns >= NO_DEADLINE - 1 - now ? NO_DEADLINE - 1 : now + ns;
    return 0;
}

static int64_t futex_wait(sys_t *s, cpu_t *c, const uint64_t a[6], bool bitset_op, bool realtime)
{
    uint32_t bitset = bitset_op ? (uint32_t)a[5] : FUTEX_BITSET_ANY;
    if (!bitset) return -EINVAL;
    uint32_t v;
    if (!read_u32(s, a[0], &v)) return -EFAULT;
    uint64_t deadline;
    int64_t r = wait_deadline(s, c, a[3], bitset_op, realtime, &deadline);
    if (r) return r;
    if (v != (uint32_t)a[2]) return -EAGAIN;
    if (deadline <= now_ns(s, c)) return -ETIMEDOUT;
    return block(s, c, a[0], bitset, deadline, -ETIMEDOUT);
}

/* FUTEX_REQUEUE / FUTEX_CMP_REQUEUE: wake a[2] waiters on a[0], move up to
 * a[3] more to a[4] (queued there after its own waiters); woken + moved. */
static int64_t futex_requeue(sys_t *s, cpu_t *c, const uint64_t a[6], bool cmp)
{
    int64_t nwake = (int32_t)a[2], nmove = (int32_t)a[3];
    if (nwake < 0 || nmove < 0) return -EINVAL;
    if (a[4] & 3) return -EINVAL;
    if (cmp) {
        uint32_t v;
        if (!read_u32(s, a[0], &v)) return -EFAULT;
        if (v != (uint32_t)a[5]) return -EAGAIN;
    }
    sys_threads_t *T = s->threads;
    if (!T) return 0;
    int64_t done = 0;
    sys_thread_t *t;
    while (done < nwake && (t = first_waiter(T, a[0], FUTEX_BITSET_ANY))) {
        wake(s, c, t, 0);
        done++;
    }
    if (done) c->event_at = 0;
    for (int64_t moved = 0; moved < nmove && (t = first_waiter(T, a[0], FUTEX_BITSET_ANY));
         moved++, done++) {
        t->wait_addr = a[4];
        t->wait_seq = T->next_seq++;
    }
    return done;
}

int64_t sys_h_futex(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int op = (int)(a[1] & ~(uint64_t)(L_FUTEX_PRIVATE | L_FUTEX_CLOCK_REALTIME));
    bool realtime = a[1] & L_FUTEX_CLOCK_REALTIME;
    if (a[0] & 3) return -EINVAL;
    switch (op) {
    case L_FUTEX_WAIT:        return futex_wait(s, c, a, false, realtime);
    case L_FUTEX_WAIT_BITSET: return futex_wait(s, c, a, true, realtime);
    case L_FUTEX_WAKE:        return wake_waiters(s, c, a[0], (int32_t)a[2], FUTEX_BITSET_ANY);
    case L_FUTEX_WAKE_BITSET:
        if (!(uint32_t)a[5]) return -EINVAL;
        return wake_waiters(s, c, a[0], (int32_t)a[2], (uint32_t)a[5]);
    case L_FUTEX_REQUEUE:     return futex_requeue(s, c, a, false);
    case L_FUTEX_CMP_REQUEUE: return futex_requeue(s, c, a, true);
    default:                  return -ENOSYS;
    }
}

/* ---- clone, exit, yield -------------------------------------------------------------------- */

/* clone's arguments by meaning: RISC-V passes tls before child_tid
 * (Linux CONFIG_CLONE_BACKWARDS), Alpha after it. */
int64_t sys_h_clone(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    const sys_abi_t *abi = s->abi;
    uint64_t flags = a[0], sp = a[1], ptid = a[2];
    uint64_t tls = abi->clone_tls_before_ctid ? a[3] : a[4];
    uint64_t ctid = abi->clone_tls_before_ctid ? a[4] : a[3];
    if (!(flags & L_CLONE_VM) || !(flags & L_CLONE_THREAD) ||     /* a new process */
        s->threads_refused_by)                  /* or an observer of one stack */
        cpu_stop(c, STOP_BAD_SYSCALL, cpu_get(c, abi->nr_reg));
    if (!(flags & L_CLONE_SIGHAND) || (flags & ~(uint64_t)THREAD_CLONE_FLAGS)) return -EINVAL;
    sys_threads_t *T = threads(s, c);
    if (T->live >= MAX_THREADS) return -EAGAIN;
    sys_thread_t *child = new_slot(T);
    save_context(s, c, child);
    child->tid = T->next_tid++;
    child->state = THREAD_RUNNABLE;
    uint64_t value, failed;
    sys_result_words(s, 0, &value, &failed);            /* the child's clone returns 0 */
    child->reg[abi->ret_reg] = value;
    if (abi->err_flag_reg >= 0) child->reg[abi->err_flag_reg] = failed;
    if (sp) child->reg[abi->sp_reg] = sp;
    if (flags & L_CLONE_SETTLS) {
        if (abi->tls_in_unique) child->unique = tls;
        else child->reg[abi->tls_reg] = tls;
    }
    child->sig_pending = 0;
    child->sig_mask_saved = false;
    memset(child->altstack, 0, sizeof child->altstack);  /* Linux: no alternate stack */
    sys_put(child->altstack, 8, 2, 4);                   /* SS_DISABLE */
    child->clear_child_tid = flags & L_CLONE_CHILD_CLEARTID ? ctid : 0;
    child->robust_list = child->robust_len = 0;
    T->live++;
    T->created++;
    if (flags & L_CLONE_PARENT_SETTID) write_u32(s, ptid, (uint32_t)child->tid);
    if (flags & L_CLONE_CHILD_SETTID) write_u32(s, ctid, (uint32_t)child->tid);
    c->event_at = 0;                                     /* a thread to switch to */
    return (int64_t)child->tid;
}

/* One entry of the robust list dies with its owner: FUTEX_OWNER_DIED set,
 * a waiter woken (Linux's handle_futex_death). */
static void robust_futex_death(sys_t *s, cpu_t *c, uint64_t addr)
{
    uint32_t v;
    if ((addr & 3) || !read_u32(s, addr, &v) || (v & FUTEX_TID_MASK) != (uint32_t)s->tid) return;
    write_u32(s, addr, (v & FUTEX_WAITERS) | FUTEX_OWNER_DIED);
    if (v & FUTEX_WAITERS) wake_waiters(s, c, addr, 1, FUTEX_BITSET_ANY);
}

/* Walk the running thread's robust list as Linux does at thread exit:
 * struct robust_list_head { next, futex_offset, list_op_pending }. */
static void exit_robust_list(sys_t *s, cpu_t *c)
{
    uint64_t head = s->robust_list, next, off, pending;
    uint8_t b[24];
    if (!head || s->robust_len != 24 || !sys_copy_in(s, head, b, sizeof b)) return;
    next = sys_get(b, 0, 8) & ~1ull;
    off = sys_get(b, 8, 8);
    pending = sys_get(b, 16, 8) & ~1ull;
    for (int k = 0; next != head && k < ROBUST_LIST_LIMIT; k++) {
        uint64_t entry = next;
        uint8_t w[8];
        if (!sys_copy_in(s, entry, w, 8)) return;
        next = sys_get(w, 0, 8) & ~1ull;
        if (entry != pending) robust_futex_death(s, c, entry + off);
    }
    if (pending) robust_futex_death(s, c, pending + off);
}

/* exit of one thread: the process goes on while other threads live. */
int64_t sys_h_exit(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    sys_threads_t *T = s->threads;
    int status = (int)(a[0] & 0xff);
    if (!T || T->live == 1) {
        c->exit_code = T && T->leader_exited ? T->leader_status : status;
        cpu_stop(c, STOP_EXIT, 0);
    }
    exit_robust_list(s, c);
    if (s->clear_child_tid && write_u32(s, s->clear_child_tid, 0))
        wake_waiters(s, c, s->clear_child_tid, 1, FUTEX_BITSET_ANY);
    if (s->tid == SYS_GUEST_PID) {
        T->leader_exited = true;
        T->leader_status = status;
    }
    T->t[T->cur].state = THREAD_DEAD;
    T->live--;
    T->must_switch = true;
    c->event_at = 0;
    return SYS_NO_RESULT;
}

int64_t sys_h_sched_yield(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    sys_threads_t *T = s->threads;
    if (T && others_runnable(T)) {
        T->must_switch = true;
        c->event_at = 0;
    }
    return 0;
}
