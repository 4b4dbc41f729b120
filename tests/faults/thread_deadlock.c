/*
 * thread_deadlock.c - guest-fault test: two threads take two mutexes in
 * opposite orders (a barrier makes sure each holds its first one), so
 * both wait on futexes with no timeout and neither can run again.  Linux
 * would hang for ever; hps-sim stops with a deadlock report naming the
 * number of threads and where the last one blocked, status 134.
 * EXPECT-STATUS: 134
 * EXPECT-STDERR: deadlock: all 2 guest threads wait on futexes or for signals with no timeout
 * EXPECT-STDOUT: both hold their first lock
 * EXPECT-NOSTDOUT: unreachable
 */
#include <pthread.h>
#include <stdio.h>

static pthread_mutex_t first = PTHREAD_MUTEX_INITIALIZER, second = PTHREAD_MUTEX_INITIALIZER;
static pthread_barrier_t both;

static void *other(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&second);
    pthread_barrier_wait(&both);
    pthread_mutex_lock(&first);
    puts("unreachable (other)");
    return NULL;
}

int main(void)
{
    pthread_barrier_init(&both, NULL, 2);
    pthread_t t;
    pthread_create(&t, NULL, other, NULL);
    pthread_mutex_lock(&first);
    pthread_barrier_wait(&both);
    puts("both hold their first lock");
    fflush(stdout);
    pthread_mutex_lock(&second);
    puts("unreachable (main)");
    pthread_join(t, NULL);
    return 0;
}
