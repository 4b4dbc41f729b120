/*
 * mmap_until.c - map 1 MiB at a time (untouched: only the address space
 * counts) until mmap fails; prints the errno, the MiB mapped and the
 * address-space limit the guest sees (RLIMIT_AS), then gives half back
 * and checks it can map it again, and that a lowered RLIMIT_AS holds.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>

#define MiB (1ul << 20)

int main(void)
{
    static void *maps[1 << 16];
    size_t n = 0;
    while (n < sizeof maps / sizeof *maps) {
        void *p = mmap(NULL, MiB, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (p == MAP_FAILED) break;
        maps[n++] = p;
    }
    int err = errno;
    struct rlimit rl;
    getrlimit(RLIMIT_AS, &rl);
    printf("mapped %zu MiB, then %s; RLIMIT_AS %llu MiB\n", n,
           err == ENOMEM ? "ENOMEM" : strerror(err), (unsigned long long)(rl.rlim_cur / MiB));
    for (size_t k = 0; k < n / 2; k++) munmap(maps[k], MiB);
    size_t again = 0;
    for (size_t k = 0; k < n / 2; k++)
        if ((maps[k] = mmap(NULL, MiB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)) != MAP_FAILED)
            again++;
    printf("mapped %zu MiB again of %zu given back\n", again, n / 2);
    for (size_t k = 0; k < n; k++) munmap(maps[k], MiB);
    rl.rlim_cur = 16 * MiB;
    int set = setrlimit(RLIMIT_AS, &rl);
    void *p = mmap(NULL, 16 * MiB, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("RLIMIT_AS 16 MiB: setrlimit %d, a 16 MiB mmap %s\n", set,
           p == MAP_FAILED && errno == ENOMEM ? "ENOMEM" : "fits");
    rl.rlim_max = ~0ul;
    printf("raising the hard limit: %s\n",
           setrlimit(RLIMIT_AS, &rl) == -1 && errno == EPERM ? "EPERM" : "allowed");
    return 0;
}
