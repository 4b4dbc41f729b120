/* Threads and signals: a thread that takes SIGUSR1/SIGUSR2 with sigwait
 * while the others block them (sent by kill to the process and by
 * pthread_kill to the thread), a thread in sigsuspend woken by
 * pthread_kill, and an interval timer (setitimer) whose SIGALRM ends
 * main's pause while the other thread waits on a condition variable.
 * Each step waits for the previous one's acknowledgement, so the output
 * does not depend on the interleaving. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cv = PTHREAD_COND_INITIALIZER;
static int acks, released;
static volatile sig_atomic_t usr2_handled, alarms;

static void ack(void)
{
    pthread_mutex_lock(&m);
    acks++;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&m);
}

static void wait_acks(int n)
{
    pthread_mutex_lock(&m);
    while (acks < n) pthread_cond_wait(&cv, &m);
    pthread_mutex_unlock(&m);
}

static void *waiter(void *arg)
{
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGUSR1);
    sigaddset(&set, SIGUSR2);
    int usr1 = 0;
    for (;;) {
        int sig;
        if (sigwait(&set, &sig) != 0) return (void *)-1L;
        if (sig == SIGUSR2) break;
        usr1++;
        ack();
    }
    return (void *)(long)usr1;
}

static void on_usr2(int sig) { (void)sig; usr2_handled++; }
static void on_alarm(int sig) { (void)sig; alarms++; }

static void *suspender(void *arg)
{
    sigset_t none;
    sigemptyset(&none);
    ack();
    while (!usr2_handled) sigsuspend(&none);   /* SIGUSR2 blocked outside it */
    return (void *)(long)usr2_handled;
}

static void *cond_waiter(void *arg)
{
    pthread_mutex_lock(&m);
    while (!released) pthread_cond_wait(&cv, &m);
    pthread_mutex_unlock(&m);
    return (void *)3L;
}

int main(void)
{
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGUSR1);
    sigaddset(&block, SIGUSR2);
    pthread_sigmask(SIG_BLOCK, &block, NULL);   /* every thread inherits it */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr2;
    sigaction(SIGUSR2, &sa, NULL);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);

    pthread_t w;
    pthread_create(&w, NULL, waiter, NULL);
    for (int k = 1; k <= 3; k++) {
        if (k == 2) pthread_kill(w, SIGUSR1);
        else kill(getpid(), SIGUSR1);
        wait_acks(k);
    }
    pthread_kill(w, SIGUSR2);
    void *r;
    pthread_join(w, &r);
    printf("sigwait thread took SIGUSR1 %ld times, then SIGUSR2\n", (long)r);

    pthread_t s;
    pthread_create(&s, NULL, suspender, NULL);
    wait_acks(4);
    pthread_kill(s, SIGUSR2);
    pthread_join(s, &r);
    printf("sigsuspend thread ran the SIGUSR2 handler %ld time(s)\n", (long)r);

    pthread_t c;
    pthread_create(&c, NULL, cond_waiter, NULL);
    struct itimerval it = { { 0, 0 }, { 0, 20000 } };   /* 20 ms, once */
    setitimer(ITIMER_REAL, &it, NULL);
    while (!alarms) pause();
    printf("SIGALRM ended pause: %d\n", (int)alarms);
    pthread_mutex_lock(&m);
    released = 1;
    pthread_cond_broadcast(&cv);
    pthread_mutex_unlock(&m);
    pthread_join(c, &r);
    printf("condition waiter returned %ld\n", (long)r);
    return 0;
}
