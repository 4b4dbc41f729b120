/*
 * mremap_limit.c - mremap in each form against the guest memory limit
 * (run with --guest-mem 64M): growing in place, MAYMOVE, FIXED and
 * DONTUNMAP past the limit fail with ENOMEM and leave the mapping as it
 * was; the same calls within the limit work and keep the contents.
 * Prints one line per check and exits 0 if all held.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MREMAP_DONTUNMAP
#define MREMAP_DONTUNMAP 4
#endif

#define MiB (1ul << 20)

static int failures;

static void check(const char *what, int ok)
{
    printf("%s %s\n", ok ? "ok" : "FAIL", what);
    if (!ok) failures++;
}

static int enomem(void *r) { return r == MAP_FAILED && errno == ENOMEM; }

static char *anon(size_t len)
{
    char *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

/* 1 MiB at want, if it lands there (unmapped again). */
static int free_at(char *want)
{
    char *p = mmap(want, MiB, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 0;
    munmap(p, MiB);
    return p == want;
}

/* An address 256 MiB away from a with 80 MiB free there. */
static char *free_spot(char *a)
{
    for (long dir = 1; dir >= -1; dir -= 2) {
        char *want = a + dir * 256 * (long)MiB;
        if (free_at(want) && free_at(want + 40 * MiB) && free_at(want + 79 * MiB)) return want;
    }
    return NULL;
}

int main(void)
{
    /* the stack (8 MiB) and the program take about 9 MiB of the 64 */
    char *a = anon(28 * MiB);
    check("a 28 MiB mapping fits", a != NULL);
    if (!a) return 1;
    memset(a, 'a', 28 * MiB);
    /* growing to 80 MiB would take the address space past 64 MiB */
    check("grow in place past the limit: ENOMEM", enomem(mremap(a, 28 * MiB, 80 * MiB, 0)));
    check("grow with MREMAP_MAYMOVE past the limit: ENOMEM",
          enomem(mremap(a, 28 * MiB, 80 * MiB, MREMAP_MAYMOVE)));
    char *spot = free_spot(a);
    check("MREMAP_FIXED past the limit: ENOMEM",
          enomem(mremap(a, 28 * MiB, 80 * MiB, MREMAP_MAYMOVE | MREMAP_FIXED, spot)));
    check("MREMAP_DONTUNMAP past the limit (28 MiB more): ENOMEM",
          enomem(mremap(a, 28 * MiB, 28 * MiB, MREMAP_MAYMOVE | MREMAP_DONTUNMAP)));
    check("the refused calls left the mapping as it was", a[0] == 'a' && a[28 * MiB - 1] == 'a');

    /* within the limit */
    char *b = mremap(a, 28 * MiB, 32 * MiB, MREMAP_MAYMOVE);
    check("grow within the limit", b != MAP_FAILED && b[0] == 'a' && b[28 * MiB - 1] == 'a' &&
                                   b[32 * MiB - 1] == 0);
    if (b == MAP_FAILED) return 1;
    char *c = mremap(b, 32 * MiB, 4 * MiB, MREMAP_MAYMOVE | MREMAP_FIXED, spot);
    check("MREMAP_FIXED within the limit moves the contents", c == spot && c[0] == 'a' &&
                                                             c[4 * MiB - 1] == 'a');
    char *d = mremap(c, 4 * MiB, 4 * MiB, MREMAP_MAYMOVE | MREMAP_DONTUNMAP);
    check("MREMAP_DONTUNMAP within the limit: contents moved, source empty",
          d != MAP_FAILED && d != c && d[0] == 'a' && c[0] == 0);
    /* after the refusals, the limit still holds: 64 MiB more never fits */
    check("a 64 MiB mapping does not fit", anon(64 * MiB) == NULL && errno == ENOMEM);
    printf("mremap_limit: %d failed\n", failures);
    return failures != 0;
}
