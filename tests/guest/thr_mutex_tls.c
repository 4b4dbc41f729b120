/* Threads: mutexes, thread-local storage (__thread), pthread_join of many
 * threads and their return values.  Printed after every join, so the
 * output does not depend on how the threads interleave. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#define NTHREADS 40
#define ROUNDS 2000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long shared_total;
static __thread long tls_sum = 7;          /* each thread starts from its own 7 */
static __thread char tls_name[16];

static void *worker(void *arg)
{
    long id = (long)arg;
    snprintf(tls_name, sizeof tls_name, "worker-%ld", id);
    for (int k = 0; k < ROUNDS; k++) {
        tls_sum += id;
        pthread_mutex_lock(&lock);
        shared_total += id + 1;
        pthread_mutex_unlock(&lock);
    }
    long *out = malloc(2 * sizeof *out);
    out[0] = tls_sum;
    out[1] = (long)tls_name[7];
    return out;
}

int main(void)
{
    pthread_t t[NTHREADS];
    for (long i = 0; i < NTHREADS; i++)
        if (pthread_create(&t[i], NULL, worker, (void *)i) != 0) { puts("create failed"); return 1; }
    long check = 0;
    for (int i = 0; i < NTHREADS; i++) {
        long *r;
        pthread_join(t[i], (void **)&r);
        printf("thread %d: tls_sum %ld name digit %c\n", i, r[0], (char)r[1]);
        check += r[0];
        free(r);
    }
    printf("shared_total %ld (expected %ld)\n", shared_total,
           (long)ROUNDS * NTHREADS * (NTHREADS + 1) / 2);
    printf("main tls_sum %ld check %ld\n", tls_sum, check);
    return shared_total == (long)ROUNDS * NTHREADS * (NTHREADS + 1) / 2 ? 0 : 3;
}
