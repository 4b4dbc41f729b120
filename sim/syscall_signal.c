/*
 * syscall_signal.c - signals as Linux delivers them to a user process.
 *
 * A signal is made pending (kill, tkill, tgkill, raise from the emulation,
 * an expired interval timer, SIGPIPE) and delivered at the run loop's next
 * instruction boundary (sim/engine.c asks sys_signal_event_at when, and
 * calls sys_signal_boundary there); a guest fault with a handler installed
 * is delivered at once, instead of the stop (sys_fault_signal).  Delivery
 * follows the recorded sigaction: ignored, the default action (ignore, or
 * the process ends with status 128 + signal), or the handler entered on a
 * frame the ABI lays out (sys_abi_t.sig_frame: RISC-V's rt_sigframe with
 * ra on a sigreturn trampoline page, Alpha's sigframe or rt_sigframe with
 * glibc's sa_restorer), with the mask, alternate stack and SA_* flags
 * applied.  rt_sigreturn (per ABI) comes back through
 * sys_sigreturn_restore.
 *
 * Interval timers run on the simulated clocks of syscall.c: ITIMER_REAL on
 * CLOCK_MONOTONIC (program instructions at cfg.insts_per_sec plus time
 * slept), ITIMER_VIRTUAL and ITIMER_PROF on the process CPU clock (the
 * instructions alone), so when a timer fires is deterministic.
 *
 * With several threads (thread.h) each has its own mask and pending set;
 * kill and timer signals go to the running thread unless it blocks them
 * and another does not, and rt_sigsuspend, ppoll and rt_sigtimedwait
 * block the thread (others run) until a signal restarts the call.
 *
 * Masks are kept in the guest's sigset bit order (bit g-1 for guest signal
 * g); pending signals and actions by Linux generic number.  Standard and
 * real-time signals alike are pending at most once (no queue).
 */
#include "sys.h"

#include <errno.h>
#include <string.h>

#include "syscall_impl.h"
#include "thread.h"

enum { L_SIGILL = 4, L_SIGTRAP = 5, L_SIGBUS = 7, L_SIGFPE = 8, L_SIGKILL = 9,
       L_SIGSEGV = 11, L_SIGPIPE = 13, L_SIGALRM = 14, L_SIGCHLD = 17, L_SIGCONT = 18,
       L_SIGSTOP = 19, L_SIGTSTP = 20, L_SIGTTIN = 21, L_SIGTTOU = 22, L_SIGURG = 23,
       L_SIGVTALRM = 26, L_SIGPROF = 27, L_SIGWINCH = 28 };
enum { L_SI_USER = 0, L_SI_KERNEL = 0x80, L_SI_TKILL = -6 };
enum { L_SEGV_MAPERR = 1, L_SEGV_ACCERR = 2, L_BUS_ADRALN = 1, L_ILL_ILLOPC = 1,
       L_TRAP_BRKPT = 1 };
enum { L_SS_ONSTACK = 1, L_SS_DISABLE = 2, L_SS_AUTODISARM = 1 << 31 };
enum { SIG_DFL_WORD = 0, SIG_IGN_WORD = 1 };
#define SENDER_UID 1000          /* the guest's uid (syscall.c's SYS_UID) */

/* ---- signal numbers and actions --------------------------------------------- */

static uint64_t bit(int sig) { return 1ull << (sig - 1); }

/* The guest's number for Linux generic signal sig, or 0. */
static int guest_number(const sys_t *s, int sig)
{
    for (int g = 1; g <= SYS_NSIG; g++)
        if (s->abi->signal_in((uint64_t)g) == sig) return g;
    return 0;
}

static uint64_t guest_bit(const sys_t *s, int sig)
{
    int g = guest_number(s, sig);
    return g ? 1ull << (g - 1) : 0;
}

static uint64_t unblockable(const sys_t *s)
{
    return guest_bit(s, L_SIGKILL) | guest_bit(s, L_SIGSTOP);
}

static bool blocked(const sys_t *s, int sig) { return s->sigmask & guest_bit(s, sig); }
static uint64_t handler_of(const sys_t *s, int sig) { return sys_get(s->sigaction[sig], 0, 8); }
static uint32_t flags_of(const sys_t *s, int sig) { return (uint32_t)sys_get(s->sigaction[sig], 8, 4); }
static uint64_t mask_of(const sys_t *s, int sig) { return sys_get(s->sigaction[sig], 16, 8); }

/* Default action ignore (job control is not emulated: the stop signals
 * are ignored too). */
static bool default_ignored(int sig)
{
    return sig == L_SIGCHLD || sig == L_SIGCONT || sig == L_SIGURG || sig == L_SIGWINCH ||
           sig == L_SIGSTOP || sig == L_SIGTSTP || sig == L_SIGTTIN || sig == L_SIGTTOU;
}

static bool ignored(const sys_t *s, int sig)
{
    uint64_t h = handler_of(s, sig);
    return h == SIG_IGN_WORD || (h == SIG_DFL_WORD && default_ignored(sig));
}

/* The lowest-numbered (guest numbering, as Linux picks) pending signal
 * that is not blocked, or 0. */
static int next_deliverable(const sys_t *s)
{
    if (!s->sig_pending) return 0;
    for (int g = 1; g <= SYS_NSIG; g++) {
        int sig = s->abi->signal_in((uint64_t)g);
        if (sig && (s->sig_pending & bit(sig)) && !(s->sigmask & (1ull << (g - 1)))) return sig;
    }
    return 0;
}

/* Make sig pending (an ignored, unblocked one is discarded, as Linux does
 * when it is sent) and have the run loop look at it after this step. */
static void post(sys_t *s, cpu_t *c, int sig, const sys_siginfo_t *info)
{
    if (!blocked(s, sig) && ignored(s, sig)) return;
    if (!(s->sig_pending & bit(sig))) s->sig_info[sig] = *info;
    s->sig_pending |= bit(sig);
    if (c) c->event_at = 0;
}

/* A signal sent to the process (kill, interval timers): to the running
 * thread unless it blocks it and another thread does not (thread.h). */
static void post_process(sys_t *s, cpu_t *c, int sig, const sys_siginfo_t *info)
{
    if (sys_thread_signal_process(s, sig, info)) {
        if (c) c->event_at = 0;
        return;
    }
    post(s, c, sig, info);
}

/* After a change of mask or a sigreturn: the loop looks again. */
static void recheck(sys_t *s, cpu_t *c)
{
    if (next_deliverable(s)) c->event_at = 0;
}

/* ---- interval timers ----------------------------------------------------------- */

static const int timer_signal[SYS_NITIMER] = { L_SIGALRM, L_SIGVTALRM, L_SIGPROF };

/* A timer's clock now: ITIMER_REAL runs while the guest sleeps too. */
static uint64_t timer_now(const sys_t *s, const cpu_t *c, int which)
{
    uint64_t run = sys_insts_to_ns(s, c->instret);
    return which == 0 ? run + s->sleep_ns : run;
}

/* The program instruction count at which timer `which` expires. */
static uint64_t timer_due_insts(const sys_t *s, int which)
{
    uint64_t due = s->itimer[which].due;
    if (!due) return UINT64_MAX;
    uint64_t base = which == 0 ? s->sleep_ns : 0;
    if (due <= base) return 0;
    unsigned __int128 x = (unsigned __int128)(due - base) * s->cfg.insts_per_sec;
    unsigned __int128 n = (x + 999999999u) / 1000000000u;
    return n > UINT64_MAX ? UINT64_MAX : (uint64_t)n;
}

static void fire_timers(sys_t *s, cpu_t *c)
{
    for (int k = 0; k < SYS_NITIMER; k++) {
        sys_itimer_t *t = &s->itimer[k];
        uint64_t now = timer_now(s, c, k);
        if (!t->due || now < t->due) continue;
        sys_siginfo_t info = { .code = L_SI_KERNEL };
        post_process(s, c, timer_signal[k], &info);
        if (!t->interval) { t->due = 0; continue; }
        uint64_t late = (now - t->due) / t->interval;      /* overruns coalesce */
        t->due += (late + 1) * t->interval;
    }
}

/* ---- frames -------------------------------------------------------------------- */

static bool altstack_enabled(const sys_t *s)
{
    return sys_get(s->altstack, 16, 8) != 0 && !(sys_get(s->altstack, 8, 4) & L_SS_DISABLE);
}

static bool on_altstack(const sys_t *s, uint64_t sp)
{
    uint64_t base = sys_get(s->altstack, 0, 8), size = sys_get(s->altstack, 16, 8);
    return altstack_enabled(s) && sp > base && sp - base <= size;
}

/* The guest's 128-byte siginfo (the generic layout, both ABIs). */
static void encode_siginfo(const sys_t *s, int sig, const sys_siginfo_t *in, uint8_t b[128])
{
    memset(b, 0, 128);
    sys_put(b, 0, (uint64_t)guest_number(s, sig), 4);
    sys_put(b, 8, (uint64_t)(int64_t)in->code, 4);
    if (in->fault) {
        sys_put(b, 16, in->addr, 8);
    } else if (in->code != L_SI_KERNEL) {
        sys_put(b, 16, (uint64_t)in->pid, 4);
        sys_put(b, 20, (uint64_t)in->uid, 4);
    }
}

/* Enter sig's handler with the interrupted state resuming at resume_pc:
 * STOP_NONE, or STOP_SIGNAL (SIGSEGV) if the frame could not be written. */
static stop_reason_t enter_handler(sys_t *s, cpu_t *c, int sig, const sys_siginfo_t *info,
                                   uint64_t resume_pc)
{
    const sys_abi_t *abi = s->abi;
    uint32_t flags = flags_of(s, sig);
    uint64_t sp = cpu_get(c, abi->sp_reg);
    uint8_t si[128];
    encode_siginfo(s, sig, info, si);
    sys_sigframe_t f = {
        .guest_sig = guest_number(s, sig), .info = si, .rt = flags & abi->sa_siginfo,
        .handler = handler_of(s, sig), .restorer = s->sig_restorer[sig], .sp = sp,
        .old_mask = s->sig_mask_saved ? s->sig_saved_mask : s->sigmask,
        .resume_pc = resume_pc,
    };
    memcpy(f.uc_stack, s->altstack, sizeof f.uc_stack);
    sys_put(f.uc_stack, 8, !altstack_enabled(s) ? L_SS_DISABLE
                           : on_altstack(s, sp) ? L_SS_ONSTACK : 0, 4);
    if ((flags & abi->sa_onstack) && altstack_enabled(s) && !on_altstack(s, sp))
        f.sp = sys_get(s->altstack, 0, 8) + sys_get(s->altstack, 16, 8);
    f.frame_on_altstack = on_altstack(s, f.sp);
    if (!abi->sig_frame(s, c, &f)) {
        c->stop = STOP_SIGNAL;
        c->stop_info = L_SIGSEGV;
        c->stop_pc = resume_pc;
        return STOP_SIGNAL;
    }
    s->sig_mask_saved = false;
    s->sigmask |= mask_of(s, sig);
    if (!(flags & abi->sa_nodefer)) s->sigmask |= guest_bit(s, sig);
    s->sigmask &= ~unblockable(s);
    if (flags & abi->sa_resethand) sys_put(s->sigaction[sig], 0, SIG_DFL_WORD, 8);
    s->signals_delivered++;
    return STOP_NONE;
}

/* Deliver pending sig at an instruction boundary. */
static stop_reason_t deliver(sys_t *s, cpu_t *c, int sig)
{
    s->sig_pending &= ~bit(sig);
    uint64_t h = handler_of(s, sig);
    if (h == SIG_IGN_WORD || (h == SIG_DFL_WORD && default_ignored(sig))) return STOP_NONE;
    if (h == SIG_DFL_WORD) {                 /* the process ends, as raise() did before */
        c->exit_code = 128 + sig;
        c->stop = STOP_EXIT;
        c->stop_pc = c->pc;
        return STOP_EXIT;
    }
    return enter_handler(s, c, sig, &s->sig_info[sig], c->pc);
}

/* ---- the run loop's side -------------------------------------------------------- */

uint64_t sys_signal_guest_bit(const sys_t *s, int sig) { return guest_bit(s, sig); }
bool sys_signal_ignored(const sys_t *s, int sig) { return ignored(s, sig); }

bool sys_signal_pending_outside(const sys_t *s, uint64_t pending, uint64_t mask)
{
    for (int sig = 1; pending && sig <= SYS_NSIG; sig++)
        if ((pending & bit(sig)) && !(mask & guest_bit(s, sig))) return true;
    return false;
}

uint64_t sys_signal_timer_due_ns(const sys_t *s)
{
    return s->itimer[0].due ? s->itimer[0].due : UINT64_MAX;
}

void sys_signal_fire_timers(sys_t *s, cpu_t *c) { fire_timers(s, c); }

/* Thread switches (thread.h) share these two entry points: a switch falls
 * due like a signal, and the signals of the thread switched in are
 * delivered right after it. */
uint64_t sys_signal_event_at(sys_t *s, const cpu_t *c)
{
    if (s->sig_redirect || next_deliverable(s)) return c->instret;
    uint64_t at = sys_thread_event_at(s, c);
    for (int k = 0; k < SYS_NITIMER; k++) {
        uint64_t due = timer_due_insts(s, k);
        if (due < at) at = due;
    }
    return at < c->instret ? c->instret : at;
}

stop_reason_t sys_signal_boundary(sys_t *s, cpu_t *c)
{
    s->sig_redirect = false;
    stop_reason_t switched = sys_thread_boundary(s, c);
    if (switched != STOP_NONE) return switched;
    fire_timers(s, c);
    for (int n = 0; n < SYS_NSIG; n++) {     /* each handler may block the next */
        int sig = next_deliverable(s);
        if (!sig) break;
        stop_reason_t r = deliver(s, c, sig);
        if (r != STOP_NONE) return r;
    }
    if (s->sig_mask_saved) {                 /* rt_sigsuspend woke to no handler */
        s->sigmask = s->sig_saved_mask;
        s->sig_mask_saved = false;
    }
    return STOP_NONE;
}

/* The signal of a fault stop, its siginfo and where its handler returns
 * to: 0 for stops that are no fault of a handler's kind. */
static int fault_signal(const sys_t *s, const cpu_t *c, sys_siginfo_t *info, uint64_t *resume)
{
    *info = (sys_siginfo_t){ .fault = true, .addr = c->stop_pc };
    *resume = c->stop_pc;
    switch (c->stop) {
    case STOP_MEM_FAULT:
        info->code = c->mem->fault.mapped ? L_SEGV_ACCERR : L_SEGV_MAPERR;
        info->addr = c->mem->fault.addr;
        return L_SIGSEGV;
    case STOP_BUS_ERROR:
        info->code = L_BUS_ADRALN;
        info->addr = c->stop_info;
        return L_SIGBUS;
    case STOP_ILLEGAL:
        info->code = L_ILL_ILLOPC;
        return L_SIGILL;
    case STOP_BREAKPOINT:
        info->code = L_TRAP_BRKPT;
        if (s->abi->trap_pc_after) *resume = info->addr = c->pc;
        return L_SIGTRAP;
    case STOP_ARITH_TRAP:
        info->code = (int32_t)c->stop_info;
        if (s->abi->trap_pc_after) *resume = info->addr = c->pc;
        return L_SIGFPE;
    default:
        return 0;
    }
}

bool sys_fault_signal(sys_t *s, cpu_t *c)
{
    sys_siginfo_t info;
    uint64_t resume;
    int sig = fault_signal(s, c, &info, &resume);
    if (!sig || blocked(s, sig) || handler_of(s, sig) <= SIG_IGN_WORD) return false;
    stop_reason_t why = c->stop;
    c->stop = STOP_NONE;
    if (enter_handler(s, c, sig, &info, resume) != STOP_NONE) {
        c->stop = why;                       /* no frame: the fault's own report */
        return false;
    }
    return true;
}

/* ---- system calls ----------------------------------------------------------------- */

int64_t sys_h_rt_sigaction(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int sig = s->abi->signal_in(a[0]);
    unsigned size = s->abi->sigaction_size;
    if (a[3] != 8 || sig <= 0 || sig > SYS_NSIG) return -EINVAL;
    if (a[2] && !sys_copy_out(s, a[2], s->sigaction[sig], size)) return -EFAULT;
    if (a[1]) {
        if (sig == L_SIGKILL || sig == L_SIGSTOP) return -EINVAL;
        uint8_t act[SYS_SIGACTION_MAX];
        if (!sys_copy_in(s, a[1], act, size)) return -EFAULT;
        memcpy(s->sigaction[sig], act, size);
        if (s->abi->sigaction_restorer_arg) s->sig_restorer[sig] = a[4];
        if (ignored(s, sig)) s->sig_pending &= ~bit(sig);   /* Linux discards it */
    }
    return 0;
}

int64_t sys_h_rt_sigprocmask(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (a[3] != 8) return -EINVAL;
    uint64_t old = s->sigmask, set = 0;
    uint8_t b[8];
    if (a[1]) {
        if (!sys_copy_in(s, a[1], b, 8)) return -EFAULT;
        set = sys_get(b, 0, 8);
        int how = s->abi->sigmask_how_in(a[0]);
        if (how < 0) return -EINVAL;
        if (how == 0) s->sigmask |= set;
        else if (how == 1) s->sigmask &= ~set;
        else s->sigmask = set;
        s->sigmask &= ~unblockable(s);
    }
    sys_put(b, 0, old, 8);
    if (a[2] && !sys_copy_out(s, a[2], b, 8)) return -EFAULT;
    sys_thread_claim(s, s->sigmask);         /* the process's, now unblocked */
    recheck(s, c);
    return 0;
}

int64_t sys_h_rt_sigpending(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (a[1] != 8) return -EINVAL;
    uint64_t set = 0;
    for (int sig = 1; sig <= SYS_NSIG; sig++)
        if (s->sig_pending & bit(sig)) set |= guest_bit(s, sig);
    uint8_t b[8];
    sys_put(b, 0, set & s->sigmask, 8);
    return sys_copy_out(s, a[0], b, 8) ? 0 : -EFAULT;
}

/* Set the alternate stack from a guest stack_t at sp (the current stack
 * pointer); 0 or -errno. */
static int64_t set_altstack(sys_t *s, const uint8_t ss[24], uint64_t sp)
{
    if (on_altstack(s, sp)) return -EPERM;
    uint32_t flags = (uint32_t)sys_get(ss, 8, 4) & ~(uint32_t)L_SS_AUTODISARM;
    if (flags != 0 && flags != L_SS_DISABLE && flags != L_SS_ONSTACK) return -EINVAL;
    if (flags == L_SS_DISABLE) {
        memset(s->altstack, 0, sizeof s->altstack);
        sys_put(s->altstack, 8, L_SS_DISABLE, 4);
        return 0;
    }
    if (sys_get(ss, 16, 8) < s->abi->minsigstksz) return -ENOMEM;
    memcpy(s->altstack, ss, sizeof s->altstack);
    sys_put(s->altstack, 8, 0, 4);
    return 0;
}

int64_t sys_h_sigaltstack(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    uint64_t sp = cpu_get(c, s->abi->sp_reg);
    uint8_t ss[24], old[24];
    memcpy(old, s->altstack, sizeof old);
    sys_put(old, 8, !altstack_enabled(s) ? L_SS_DISABLE : on_altstack(s, sp) ? L_SS_ONSTACK : 0, 4);
    if (a[0]) {
        if (!sys_copy_in(s, a[0], ss, sizeof ss)) return -EFAULT;
        int64_t r = set_altstack(s, ss, sp);
        if (r) return r;
    }
    if (a[1] && !sys_copy_out(s, a[1], old, sizeof old)) return -EFAULT;
    return 0;
}

void sys_sigreturn_restore(sys_t *s, cpu_t *c, uint64_t mask, const uint8_t uc_stack[24])
{
    s->sigmask = mask & ~unblockable(s);
    if (uc_stack) set_altstack(s, uc_stack, cpu_get(c, s->abi->sp_reg));  /* refused on it */
    s->sig_redirect = true;                  /* the loop resumes at the restored pc */
    c->event_at = 0;
    if (c->isa->run_enter) c->isa->run_enter(c);   /* the restored FP state */
}

_Noreturn void sys_bad_frame(cpu_t *c)
{
    cpu_stop(c, STOP_SIGNAL, L_SIGSEGV);
}

uint64_t sys_wait_signal(sys_t *s, cpu_t *c, uint64_t ns)
{
    bool forever = ns == UINT64_MAX;
    uint64_t waited = 0;
    for (;;) {
        if (next_deliverable(s)) {
            c->event_at = 0;                     /* delivered after the call */
            return waited;
        }
        uint64_t due = s->itimer[0].due, now = timer_now(s, c, 0);   /* only REAL runs */
        uint64_t left = forever ? UINT64_MAX : ns - waited;
        uint64_t step = !due ? UINT64_MAX : due > now ? due - now : 0;
        if (step > left || (forever && !due)) {
            if (forever) return UINT64_MAX;      /* nothing can come */
            s->sleep_ns += left;
            return ns;
        }
        s->sleep_ns += step;
        waited += step;
        fire_timers(s, c);
    }
}

/* A timespec argument as nanoseconds (0: none, *ns = UINT64_MAX); 0 or
 * -errno. */
static int64_t timeout_arg(sys_t *s, uint64_t addr, uint64_t *ns)
{
    *ns = UINT64_MAX;
    if (!addr) return 0;
    uint8_t b[16];
    if (!sys_copy_in(s, addr, b, 16)) return -EFAULT;
    int64_t sec = (int64_t)sys_get(b, 0, 8), nsec = (int64_t)sys_get(b, 8, 8);
    if (sec < 0 || nsec < 0 || nsec >= 1000000000) return -EINVAL;
    *ns = (uint64_t)sec * 1000000000ull + (uint64_t)nsec;
    return 0;
}

/* Wait with the mask at maskaddr (0: the current one) for a handler, as
 * rt_sigsuspend and ppoll do; the mask comes back once it has run. */
static int64_t suspend(sys_t *s, cpu_t *c, const uint64_t a[6], uint64_t maskaddr, uint64_t ns,
                       bool *came)
{
    uint64_t saved = s->sigmask;
    if (maskaddr) {
        uint8_t b[8];
        if (!sys_copy_in(s, maskaddr, b, 8)) return -EFAULT;
        s->sigmask = sys_get(b, 0, 8) & ~unblockable(s);
    }
    if (!next_deliverable(s) && sys_thread_wait_signal(s, c, a, s->sigmask, ns, 0)) {
        s->sigmask = saved;                      /* other threads run meanwhile */
        *came = false;
        return 0;
    }
    uint64_t waited = sys_wait_signal(s, c, ns);
    if (waited == UINT64_MAX) cpu_stop(c, STOP_BAD_SYSCALL, cpu_get(c, s->abi->nr_reg));
    *came = next_deliverable(s) != 0;
    if (*came && maskaddr) {
        s->sig_saved_mask = saved;
        s->sig_mask_saved = true;
    } else {
        s->sigmask = saved;
    }
    return 0;
}

/* No other thread or process can wake it: without a timer it would wait
 * for ever, and the run stops as for an unsupported call. */
int64_t sys_h_rt_sigsuspend(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (a[1] != 8) return -EINVAL;
    bool came;
    int64_t r = suspend(s, c, a, a[0], UINT64_MAX, &came);
    return r ? r : -EINTR;
}

/* ppoll with no descriptors (glibc's pause(), and sleeps): a wait for a
 * signal or the timeout.  Descriptors are not emulated. */
int64_t sys_h_ppoll(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (a[1] != 0) cpu_stop(c, STOP_BAD_SYSCALL, cpu_get(c, s->abi->nr_reg));
    if (a[3] && a[4] != 8) return -EINVAL;
    uint64_t ns;
    int64_t t = timeout_arg(s, a[2], &ns);
    if (t) return t;
    bool came;
    int64_t r = suspend(s, c, a, a[3], ns, &came);
    return r ? r : came ? -EINTR : 0;
}

/* The lowest pending signal (guest numbering) whose guest bit is in set. */
static int pending_in(const sys_t *s, uint64_t set)
{
    for (int g = 1; g <= SYS_NSIG; g++) {
        int sig = s->abi->signal_in((uint64_t)g);
        if (sig && (set & (1ull << (g - 1))) && (s->sig_pending & bit(sig))) return sig;
    }
    return 0;
}

/* sigwaitinfo / sigtimedwait: take a pending signal of the set without
 * running its handler (its siginfo to a[1]); wait for one (only interval
 * timers can send it) up to the timeout: -EAGAIN; a signal outside the
 * set that a handler takes ends the wait with -EINTR. */
int64_t sys_h_rt_sigtimedwait(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (a[3] != 8) return -EINVAL;
    uint8_t b[8];
    if (!sys_copy_in(s, a[0], b, 8)) return -EFAULT;
    uint64_t set = sys_get(b, 0, 8) & ~unblockable(s), ns;
    int64_t r = timeout_arg(s, a[2], &ns);
    if (r) return r;
    int sig = pending_in(s, set);
    if (!sig && ns && !next_deliverable(s) &&
        sys_thread_wait_signal(s, c, a, s->sigmask & ~set, ns, -EAGAIN))
        return 0;                                /* other threads run meanwhile */
    if (!sig && ns) {
        uint64_t saved = s->sigmask;
        s->sigmask &= ~set;                      /* the set wakes the wait */
        uint64_t waited = sys_wait_signal(s, c, ns);
        s->sigmask = saved;
        if (waited == UINT64_MAX) cpu_stop(c, STOP_BAD_SYSCALL, cpu_get(c, s->abi->nr_reg));
        sig = pending_in(s, set);
    }
    if (!sig) return next_deliverable(s) ? -EINTR : -EAGAIN;
    s->sig_pending &= ~bit(sig);
    if (a[1]) {
        uint8_t si[128];
        encode_siginfo(s, sig, &s->sig_info[sig], si);
        if (!sys_copy_out(s, a[1], si, sizeof si)) return -EFAULT;
    }
    return guest_number(s, sig);
}

/* struct itimerval: interval and value, two 64-bit timevals. */
static bool put_itimerval(sys_t *s, uint64_t addr, const sys_itimer_t *t, uint64_t now)
{
    uint64_t left = t->due ? (t->due > now ? t->due - now : 1000) : 0;
    uint8_t b[32];
    sys_put(b, 0, t->interval / 1000000000ull, 8);
    sys_put(b, 8, t->interval % 1000000000ull / 1000, 8);
    sys_put(b, 16, left / 1000000000ull, 8);
    sys_put(b, 24, left % 1000000000ull / 1000, 8);
    return sys_copy_out(s, addr, b, sizeof b);
}

int64_t sys_h_getitimer(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (a[0] >= SYS_NITIMER) return -EINVAL;
    int which = (int)a[0];
    return put_itimerval(s, a[1], &s->itimer[which], timer_now(s, c, which)) ? 0 : -EFAULT;
}

int64_t sys_h_setitimer(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (a[0] >= SYS_NITIMER) return -EINVAL;
    int which = (int)a[0];
    uint64_t now = timer_now(s, c, which);
    sys_itimer_t t = { 0, 0 };
    if (a[1]) {
        uint8_t b[32];
        if (!sys_copy_in(s, a[1], b, sizeof b)) return -EFAULT;
        int64_t v[4];
        for (int k = 0; k < 4; k++) v[k] = (int64_t)sys_get(b, 8 * (unsigned)k, 8);
        if (v[0] < 0 || v[2] < 0 || v[1] < 0 || v[1] >= 1000000 || v[3] < 0 || v[3] >= 1000000)
            return -EINVAL;
        uint64_t value = (uint64_t)v[2] * 1000000000ull + (uint64_t)v[3] * 1000;
        t.interval = (uint64_t)v[0] * 1000000000ull + (uint64_t)v[1] * 1000;
        t.due = value ? now + value : 0;
    }
    if (a[2] && !put_itimerval(s, a[2], &s->itimer[which], now)) return -EFAULT;
    if (a[1]) {
        s->itimer[which] = t;
        c->event_at = 0;                     /* the loop learns the new deadline */
    }
    return 0;
}

/* ---- sending ---------------------------------------------------------------------- */

int64_t sys_raise_signal(sys_t *s, cpu_t *c, int sig)
{
    sys_siginfo_t info = { .code = L_SI_KERNEL };
    post(s, c, sig, &info);
    return 0;
}

/* As Linux: with the default action (and not blocked) the process dies of
 * it now (STOP_SIGNAL; hps-sim exits 141 after its statistics and
 * reports); otherwise SIGPIPE is sent and the call fails with EPIPE. */
int64_t sys_broken_pipe(sys_t *s, cpu_t *c)
{
    if (handler_of(s, L_SIGPIPE) == SIG_DFL_WORD && !blocked(s, L_SIGPIPE))
        cpu_stop(c, STOP_SIGNAL, L_SIGPIPE);
    sys_siginfo_t info = { .code = L_SI_USER, .pid = SYS_GUEST_PID, .uid = SENDER_UID };
    post(s, c, L_SIGPIPE, &info);
    return -EPIPE;
}

static int64_t signal_self(sys_t *s, cpu_t *c, uint64_t gsig, int code)
{
    if (gsig == 0) return 0;
    int sig = s->abi->signal_in(gsig);
    if (sig <= 0 || sig > SYS_NSIG) return -EINVAL;
    sys_siginfo_t info = { .code = code, .pid = SYS_GUEST_PID, .uid = SENDER_UID };
    if (code == L_SI_USER) post_process(s, c, sig, &info);   /* kill: to the process */
    else post(s, c, sig, &info);
    return 0;
}

int64_t sys_h_kill(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    int64_t pid = (int64_t)a[0];
    if (pid != 0 && pid != -1 && pid != SYS_GUEST_PID) return -ESRCH;
    return signal_self(s, c, a[1], L_SI_USER);
}

/* tkill/tgkill: to the running thread, or to another one (thread.h). */
static int64_t signal_thread(sys_t *s, cpu_t *c, uint64_t tid, uint64_t gsig)
{
    if (tid == s->tid) return signal_self(s, c, gsig, L_SI_TKILL);
    if (!sys_thread_exists(s, tid)) return -ESRCH;
    if (gsig == 0) return 0;
    int sig = s->abi->signal_in(gsig);
    if (sig <= 0 || sig > SYS_NSIG) return -EINVAL;
    sys_siginfo_t info = { .code = L_SI_TKILL, .pid = SYS_GUEST_PID, .uid = SENDER_UID };
    sys_thread_signal(s, tid, sig, &info);
    c->event_at = 0;                         /* it may have become runnable */
    return 0;
}

int64_t sys_h_tkill(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    return signal_thread(s, c, a[0], a[1]);
}

int64_t sys_h_tgkill(sys_t *s, cpu_t *c, const uint64_t a[6])
{
    if (a[0] != SYS_GUEST_PID) return -ESRCH;
    return signal_thread(s, c, a[1], a[2]);
}
