/* sig_timers.c - blocked and pending signals, sigsuspend, pause and
 * interval timers (setitimer, alarm) whose SIGALRM interrupts a busy loop,
 * a sleep and a pause.  The output never depends on when exactly a timer
 * fires (hps-sim's clock is simulated, qemu's is the host's).  sigwait and
 * sigtimedwait take signals without their handlers. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t usr1, alrm;
static volatile int order[4], norder;

static void on_usr1(int sig) { usr1++; if (norder < 4) order[norder++] = sig; }
static void on_alrm(int sig) { alrm++; }
static void on_usr2(int sig) { if (norder < 4) order[norder++] = sig; }

static const char *name(int sig)
{
    return sig == SIGUSR1 ? "USR1" : sig == SIGUSR2 ? "USR2" : "?";
}

int main(void)
{
    signal(SIGUSR1, on_usr1);
    signal(SIGUSR2, on_usr2);
    sigset_t block, old, pend;
    sigemptyset(&block);
    sigaddset(&block, SIGUSR1);
    sigaddset(&block, SIGUSR2);
    sigprocmask(SIG_BLOCK, &block, &old);
    raise(SIGUSR2);
    raise(SIGUSR1);
    raise(SIGUSR1);                      /* a standard signal is pending once */
    sigpending(&pend);
    printf("blocked: delivered=%d pending usr1=%d usr2=%d\n", usr1, sigismember(&pend, SIGUSR1),
           sigismember(&pend, SIGUSR2));
    sigprocmask(SIG_SETMASK, &old, NULL);
    printf("unblocked: usr1=%d order=%s,%s\n", usr1, name(order[0]), name(order[1]));
    sigpending(&pend);
    printf("pending after: usr1=%d\n", sigismember(&pend, SIGUSR1));

    /* sigsuspend wakes for a pending signal it unblocks */
    sigprocmask(SIG_BLOCK, &block, NULL);
    raise(SIGUSR1);
    sigset_t wait_mask;
    sigfillset(&wait_mask);
    sigdelset(&wait_mask, SIGUSR1);
    int r = sigsuspend(&wait_mask);
    sigprocmask(SIG_BLOCK, NULL, &pend);
    printf("sigsuspend: r=%d errno=%s usr1=%d mask restored=%d\n", r, errno == EINTR ? "EINTR" : "?",
           usr1, sigismember(&pend, SIGUSR1) && !sigismember(&pend, SIGTERM));
    sigprocmask(SIG_SETMASK, &old, NULL);

    /* a repeating timer interrupts a busy loop */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alrm;
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = { .it_interval = { 0, 2000 }, .it_value = { 0, 2000 } };
    setitimer(ITIMER_REAL, &it, NULL);
    volatile unsigned long spin = 0;
    while (alrm < 3) spin++;
    struct itimerval off = { { 0, 0 }, { 0, 0 } }, was;
    setitimer(ITIMER_REAL, &off, &was);
    printf("busy loop: alarms>=3 %d interval kept=%d\n", alrm >= 3,
           was.it_interval.tv_sec == 0 && was.it_interval.tv_usec == 2000);

    /* alarm() interrupts a long sleep with EINTR and the time left */
    alrm = 0;
    alarm(1);
    struct timespec ts = { 30, 0 }, rem = { 0, 0 };
    r = nanosleep(&ts, &rem);
    printf("nanosleep: r=%d errno=%s alarms=%d rem between 28 and 30 s=%d\n", r,
           errno == EINTR ? "EINTR" : "?", alrm, rem.tv_sec >= 28 && rem.tv_sec <= 30);

    /* and a pause */
    alrm = 0;
    it.it_interval.tv_usec = 0;
    it.it_value.tv_usec = 5000;
    setitimer(ITIMER_REAL, &it, NULL);
    r = pause();
    printf("pause: r=%d errno=%s alarms=%d\n", r, errno == EINTR ? "EINTR" : "?", alrm);
    getitimer(ITIMER_REAL, &was);
    printf("timer disarmed: %d\n", was.it_value.tv_sec == 0 && was.it_value.tv_usec == 0);

    /* sigwait takes a blocked pending signal without its handler */
    sigprocmask(SIG_BLOCK, &block, NULL);
    int before = usr1, got = 0;
    raise(SIGUSR1);
    sigset_t one;
    sigemptyset(&one);
    sigaddset(&one, SIGUSR1);
    r = sigwait(&one, &got);
    printf("sigwait: r=%d got=%s handler ran=%d\n", r, name(got), usr1 != before);

    /* sigtimedwait: a blocked timer signal, then a timeout */
    sigset_t alarm_set;
    sigemptyset(&alarm_set);
    sigaddset(&alarm_set, SIGALRM);
    sigprocmask(SIG_BLOCK, &alarm_set, NULL);
    alrm = 0;
    it.it_value.tv_usec = 3000;
    setitimer(ITIMER_REAL, &it, NULL);
    siginfo_t si;
    struct timespec wait_ts = { 5, 0 };
    r = sigtimedwait(&alarm_set, &si, &wait_ts);
    printf("sigtimedwait: got=%s code=%s handler ran=%d\n", r == SIGALRM ? "ALRM" : "?",
           si.si_code == SI_KERNEL ? "SI_KERNEL" : "other", alrm);
    wait_ts.tv_sec = 0;
    wait_ts.tv_nsec = 2000000;
    r = sigtimedwait(&alarm_set, &si, &wait_ts);
    printf("sigtimedwait timeout: r=%d errno=%s\n", r, errno == EAGAIN ? "EAGAIN" : "?");
    sigprocmask(SIG_SETMASK, &old, NULL);

    /* a short sleep with no timer completes */
    ts.tv_sec = 0;
    ts.tv_nsec = 1000000;
    printf("short sleep: %d\n", nanosleep(&ts, NULL));
    return 0;
}
