/* Threads: a thread exiting (pthread_exit) while others still run,
 * detached threads, a barrier, pthread_once, a timed condition wait that
 * times out, trylock, thread ids (gettid distinct from getpid), a signal
 * sent to one thread (pthread_kill), sched_yield, a thread sleeping while
 * main waits to join it, and main leaving by
 * pthread_exit so the process ends when the last thread does. */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

static pthread_barrier_t barrier;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int once_runs;
static volatile sig_atomic_t got_usr1;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t never = PTHREAD_COND_INITIALIZER;
static volatile int early_done, late_spins;

static void init_once(void) { once_runs++; }
static void on_usr1(int sig) { (void)sig; got_usr1 = 1; }

static void *early_exit(void *arg)
{
    (void)arg;
    pthread_once(&once, init_once);
    pthread_barrier_wait(&barrier);
    early_done = 1;
    pthread_exit((void *)42);
    return NULL;
}

static void *late(void *arg)
{
    (void)arg;
    pthread_once(&once, init_once);
    pthread_barrier_wait(&barrier);
    while (!early_done) sched_yield();
    for (int k = 0; k < 100000; k++) late_spins++;   /* runs on after early_exit ended */
    return (void *)7;
}

static void *signalled(void *arg)
{
    (void)arg;
    while (!got_usr1) sched_yield();
    return (void *)(long)got_usr1;
}

static void *tid_of(void *arg)
{
    *(long *)arg = syscall(SYS_gettid);
    return NULL;
}

static void *detached(void *arg)
{
    (void)arg;
    return NULL;
}

static volatile int slept;

static void *sleeper(void *arg)
{
    struct timespec ts = { 0, 1000000 };        /* 1 ms, while main waits in join */
    int r = nanosleep(&ts, NULL);
    slept = r == 0;
    return arg;
}

static void *last(void *arg)
{
    (void)arg;
    for (volatile int k = 0; k < 50000; k++) {}
    printf("last thread done\n");
    return NULL;
}

int main(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_usr1;
    sigaction(SIGUSR1, &sa, NULL);

    pthread_barrier_init(&barrier, NULL, 3);
    pthread_t a, b;
    pthread_create(&a, NULL, early_exit, NULL);
    pthread_create(&b, NULL, late, NULL);
    pthread_once(&once, init_once);
    pthread_barrier_wait(&barrier);
    void *ra, *rb;
    pthread_join(a, &ra);
    pthread_join(b, &rb);
    printf("once ran %d time(s); early returned %ld, late returned %ld after %d spins\n",
           once_runs, (long)ra, (long)rb, late_spins);

    pthread_mutex_lock(&m);
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    ts.tv_nsec += 2000000;                      /* 2 ms */
    if (ts.tv_nsec >= 1000000000) { ts.tv_sec++; ts.tv_nsec -= 1000000000; }
    int r = pthread_cond_timedwait(&never, &m, &ts);
    printf("timedwait: %s\n", r == ETIMEDOUT ? "ETIMEDOUT" : strerror(r));
    pthread_mutex_unlock(&m);

    pthread_mutex_lock(&m);
    printf("trylock while held: %s\n", pthread_mutex_trylock(&m) == EBUSY ? "EBUSY" : "?");
    pthread_mutex_unlock(&m);

    long tids[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) pthread_create(&t[i], NULL, tid_of, &tids[i]);
    for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
    int distinct = 1;
    for (int i = 0; i < 4; i++)
        for (int j = 0; j < i; j++) distinct &= tids[i] != tids[j];
    for (int i = 0; i < 4; i++) distinct &= tids[i] != getpid();
    printf("thread ids distinct from each other and the pid: %s\n", distinct ? "yes" : "no");

    pthread_t s;
    pthread_create(&s, NULL, signalled, NULL);
    pthread_kill(s, SIGUSR1);
    void *rs;
    pthread_join(s, &rs);
    printf("signalled thread saw SIGUSR1: %ld\n", (long)rs);

    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    for (int i = 0; i < 5; i++) {
        pthread_t d;
        pthread_create(&d, &attr, detached, NULL);
    }
    pthread_attr_destroy(&attr);

    pthread_t sl;
    void *rsl;
    pthread_create(&sl, NULL, sleeper, (void *)5);
    pthread_join(sl, &rsl);
    printf("sleeper slept: %d, returned %ld\n", slept, (long)rsl);

    pthread_t l;
    pthread_create(&l, NULL, last, NULL);
    fflush(stdout);
    pthread_exit(NULL);
}
