/*
 * malloc_stress.c - differential test: the heap.  Many small malloc/free
 * cycles in a pseudo-random pattern (brk growth and shrinking), calloc
 * zeroing, realloc growth/shrink preserving contents, and large blocks
 * above the mmap threshold (mmap/munmap/mremap paths).  Addresses are
 * never printed, only content checksums and verification results.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>

static uint64_t s = 88172645463325252ull;
static uint64_t rnd(void) { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return s; }

/* Blocks above 64 KiB are filled and checked only at a 251-byte stride
 * (plus their last byte) to keep the instruction count moderate. */
static size_t step(size_t n) { return n > 65536 ? 251 : 1; }
static void fill(unsigned char *p, size_t n, unsigned tag)
{
    for (size_t i = 0; i < n; i += step(n)) p[i] = (unsigned char)(tag + i * 31);
    if (n) p[n - 1] = (unsigned char)(tag + (n - 1) * 31);
}
static int check(const unsigned char *p, size_t n, unsigned tag)
{
    for (size_t i = 0; i < n; i += step(n)) if (p[i] != (unsigned char)(tag + i * 31)) return 0;
    return !n || p[n - 1] == (unsigned char)(tag + (n - 1) * 31);
}

int main(void)
{
    enum { SLOTS = 1000 };
    static unsigned char *slot[SLOTS];
    static size_t size[SLOTS];
    static unsigned tag[SLOTS];
    unsigned bad = 0, allocs = 0, frees = 0, reallocs = 0;
    for (int iter = 0; iter < 12000; iter++) {
        unsigned i = rnd() % SLOTS;
        if (slot[i]) {
            if (!check(slot[i], size[i], tag[i])) bad++;
            if (rnd() % 4 == 0) {
                size_t ns = 1 + rnd() % 600;
                unsigned char *p = realloc(slot[i], ns);
                if (!p) { printf("realloc failed\n"); return 1; }
                size_t keep = ns < size[i] ? ns : size[i];
                if (!check(p, keep, tag[i])) bad++;
                slot[i] = p; size[i] = ns; fill(p, ns, tag[i]); reallocs++;
            } else {
                free(slot[i]); slot[i] = NULL; frees++;
            }
        } else {
            size[i] = 1 + rnd() % (rnd() % 32 == 0 ? 4000 : 100);
            tag[i] = (unsigned)rnd();
            slot[i] = malloc(size[i]);
            if (!slot[i]) { printf("malloc failed\n"); return 1; }
            fill(slot[i], size[i], tag[i]); allocs++;
        }
    }
    for (int i = 0; i < SLOTS; i++) if (slot[i]) { if (!check(slot[i], size[i], tag[i])) bad++; free(slot[i]); }
    printf("small: allocs=%u frees=%u reallocs=%u bad=%u\n", allocs, frees, reallocs, bad);

    /* calloc must return zeroed memory, also after reuse of dirty blocks */
    unsigned nonzero = 0;
    for (int r = 0; r < 200; r++) {
        size_t n = 1 + rnd() % 3000;
        unsigned char *p = malloc(n); memset(p, 0xee, n); free(p);
        unsigned char *q = calloc(n, 1);
        for (size_t i = 0; i < n; i++) nonzero += q[i] != 0;
        free(q);
    }
    printf("calloc nonzero bytes=%u\n", nonzero);

    /* large blocks: mmap path */
    size_t sizes[] = { 128 * 1024, 200 * 1024, 1 << 20, 3 << 20, 16 << 20, 300 * 1024 + 7 };
    unsigned char *big[6];
    for (int i = 0; i < 6; i++) {
        big[i] = malloc(sizes[i]);
        if (!big[i]) { printf("big malloc %zu failed\n", sizes[i]); return 1; }
        fill(big[i], sizes[i], (unsigned)i * 17);
    }
    for (int i = 0; i < 6; i++) printf("big[%d] %zu ok=%d\n", i, sizes[i], check(big[i], sizes[i], (unsigned)i * 17));
    /* grow a big block with realloc (mremap) and check contents survive */
    unsigned char *g = big[2];
    g = realloc(g, 8 << 20);
    printf("realloc 1M->8M keeps=%d\n", check(g, 1 << 20, 2 * 17));
    fill(g, 8 << 20, 99);
    fill(g, 100, 99); /* every byte of the part that survives the shrink */
    g = realloc(g, 100);
    printf("realloc 8M->100 keeps=%d\n", check(g, 100, 99));
    big[2] = g;
    for (int i = 0; i < 6; i++) free(big[i]);
    unsigned char *z = calloc(1, 5 << 20);
    size_t nz = 0; for (size_t i = 0; i < (5u << 20); i += 4096) nz += z[i] != 0;
    printf("big calloc nonzero pages=%zu\n", nz);
    free(z);

    /* a linked list of many tiny nodes */
    struct node { struct node *next; int v; } *head = NULL;
    for (int i = 0; i < 20000; i++) { struct node *n = malloc(sizeof *n); n->v = i; n->next = head; head = n; }
    long total = 0; int cnt = 0;
    while (head) { struct node *n = head; head = n->next; total += n->v; cnt++; free(n); }
    printf("list nodes=%d total=%ld\n", cnt, total);
    /* aligned allocation */
    void *al = aligned_alloc(4096, 8192);
    printf("aligned_alloc aligned=%d\n", ((uintptr_t)al & 4095) == 0);
    free(al);
    void *pm = NULL; int rc = posix_memalign(&pm, 256, 1000);
    printf("posix_memalign rc=%d aligned=%d\n", rc, ((uintptr_t)pm & 255) == 0);
    free(pm);
    return 0;
}
