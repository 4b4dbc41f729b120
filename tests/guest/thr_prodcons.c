/* Threads: a producer-consumer over a bounded queue with a mutex and two
 * condition variables; several producers and consumers.  Each consumer
 * sums what it took; the totals are printed after the joins. */
#include <pthread.h>
#include <stdio.h>

#define QSIZE 8
#define PRODUCERS 3
#define CONSUMERS 4
#define ITEMS 3000                          /* per producer */

static int queue[QSIZE];
static int head, count, producers_left = PRODUCERS;
static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER;
static pthread_cond_t not_empty = PTHREAD_COND_INITIALIZER;

static void *producer(void *arg)
{
    int base = (int)(long)arg * 100000;
    for (int k = 1; k <= ITEMS; k++) {
        pthread_mutex_lock(&m);
        while (count == QSIZE) pthread_cond_wait(&not_full, &m);
        queue[(head + count) % QSIZE] = base + k;
        count++;
        pthread_cond_signal(&not_empty);
        pthread_mutex_unlock(&m);
    }
    pthread_mutex_lock(&m);
    producers_left--;
    pthread_cond_broadcast(&not_empty);
    pthread_mutex_unlock(&m);
    return NULL;
}

struct tally { long sum, items; };

static void *consumer(void *arg)
{
    struct tally *t = arg;
    for (;;) {
        pthread_mutex_lock(&m);
        while (count == 0 && producers_left > 0) pthread_cond_wait(&not_empty, &m);
        if (count == 0) { pthread_mutex_unlock(&m); break; }
        int v = queue[head];
        head = (head + 1) % QSIZE;
        count--;
        pthread_cond_signal(&not_full);
        pthread_mutex_unlock(&m);
        t->sum += v;
        t->items++;
    }
    return NULL;
}

int main(void)
{
    pthread_t p[PRODUCERS], c[CONSUMERS];
    struct tally tally[CONSUMERS] = {{0, 0}};
    for (int i = 0; i < CONSUMERS; i++) pthread_create(&c[i], NULL, consumer, &tally[i]);
    for (long i = 0; i < PRODUCERS; i++) pthread_create(&p[i], NULL, producer, (void *)i);
    for (int i = 0; i < PRODUCERS; i++) pthread_join(p[i], NULL);
    long sum = 0, items = 0;
    for (int i = 0; i < CONSUMERS; i++) {
        pthread_join(c[i], NULL);
        sum += tally[i].sum;
        items += tally[i].items;
    }
    long expect = 0;
    for (int i = 0; i < PRODUCERS; i++) expect += (long)i * 100000 * ITEMS + (long)ITEMS * (ITEMS + 1) / 2;
    printf("consumed %ld items, sum %ld (expected %d items, sum %ld)\n", items, sum,
           PRODUCERS * ITEMS, expect);
    return sum == expect && items == PRODUCERS * ITEMS ? 0 : 3;
}
