/* robust_owner_died.c - a robust mutex whose owner thread exits holding it:
 * the next locker gets EOWNERDEAD (the robust-list walk at thread exit set
 * FUTEX_OWNER_DIED), makes it consistent, and later lockers get it
 * normally.  Built and run by tests/threads/run.sh (not a differential
 * test: qemu-alpha hangs on it, having no robust futexes). */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_mutex_t m;

static void *die_holding(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&m);
    return NULL;                                  /* exits with m locked */
}

int main(void)
{
    pthread_mutexattr_t a;
    pthread_mutexattr_init(&a);
    pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
    int r = pthread_mutex_init(&m, &a);
    if (r) { printf("init: %s\n", strerror(r)); return 1; }
    pthread_t t;
    pthread_create(&t, NULL, die_holding, NULL);
    pthread_join(t, NULL);
    r = pthread_mutex_lock(&m);
    printf("lock after the owner died: %s\n", r == EOWNERDEAD ? "EOWNERDEAD" : strerror(r));
    if (r == EOWNERDEAD) pthread_mutex_consistent(&m);
    pthread_mutex_unlock(&m);
    r = pthread_mutex_lock(&m);
    printf("lock again: %s\n", r == 0 ? "ok" : strerror(r));
    pthread_mutex_unlock(&m);
    return 0;
}
