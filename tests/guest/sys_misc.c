/*
 * sys_misc.c - differential test: assorted system calls whose results are
 * deterministic.  Anonymous mmap/munmap/mprotect/mremap, brk via sbrk,
 * pipe + dup2 round trips, getcwd relative checks, umask, uname (only
 * sysname/machine), getrandom (only lengths), clock_gettime monotonicity,
 * sysconf page size, and errno values for failing calls.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

int main(void)
{
    long pg = sysconf(_SC_PAGESIZE);
    printf("pagesize=%ld\n", pg);
    size_t len = 10 * (size_t)pg;
    unsigned char *m = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("mmap ok=%d aligned=%d\n", m != MAP_FAILED, ((uintptr_t)m % (uintptr_t)pg) == 0);
    size_t nz = 0; for (size_t i = 0; i < len; i++) nz += m[i] != 0;
    printf("mmap zero-filled=%d\n", nz == 0);
    for (size_t i = 0; i < len; i++) m[i] = (unsigned char)(i ^ (i >> 9));
    printf("mprotect ro=%d\n", mprotect(m, (size_t)pg, PROT_READ));
    unsigned long s = 0; for (size_t i = 0; i < len; i += 97) s += m[i];
    printf("sum=%lu\n", s);
    printf("munmap middle=%d\n", munmap(m + 4 * pg, 2 * (size_t)pg));
    unsigned char *m2 = mremap(m + 6 * pg, 4 * (size_t)pg, 16 * (size_t)pg, MREMAP_MAYMOVE);
    printf("mremap ok=%d keeps=%d\n", m2 != MAP_FAILED, m2 != MAP_FAILED && m2[5] == (unsigned char)((6 * pg + 5) ^ ((6 * pg + 5) >> 9)));
    if (m2 != MAP_FAILED) { m2[16 * pg - 1] = 1; munmap(m2, 16 * (size_t)pg); }
    munmap(m, 4 * (size_t)pg);
    errno = 0; void *bad = mmap(NULL, 0, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("mmap len 0 failed=%d einval=%d\n", bad == MAP_FAILED, errno == EINVAL);

    char *b0 = sbrk(0), *b1 = sbrk(65536), *b2 = sbrk(0);
    printf("sbrk grew=%ld prev-match=%d\n", (long)(b2 - b0), b1 == b0);
    memset(b1, 0x33, 65536);
    sbrk(-65536);
    printf("sbrk shrunk back=%d\n", sbrk(0) == b0);

    int fds[2];
    printf("pipe=%d\n", pipe(fds));
    const char msg[] = "through the pipe";
    printf("write=%zd ", write(fds[1], msg, sizeof msg));
    char rb[64] = {0};
    printf("read=%zd [%s]\n", read(fds[0], rb, sizeof rb), rb);
    fflush(stdout); /* stdout is buffered: flush before redirecting fd 1 */
    int saved = dup(1);
    dup2(fds[1], 1);
    printf("this goes into the pipe\n"); fflush(stdout);
    dup2(saved, 1); close(saved);
    memset(rb, 0, sizeof rb);
    ssize_t n = read(fds[0], rb, sizeof rb - 1);
    printf("pipe got %zd: %s", n, rb);
    close(fds[1]);
    printf("read at eof=%zd\n", read(fds[0], rb, 1));
    close(fds[0]);
    printf("pipe2 cloexec=%d\n", pipe2(fds, O_CLOEXEC) == 0 && (fcntl(fds[0], F_GETFD) & FD_CLOEXEC) != 0);
    close(fds[0]); close(fds[1]);

    char cwd[4096];
    printf("getcwd ok=%d absolute=%d\n", getcwd(cwd, sizeof cwd) != NULL, cwd[0] == '/');
    mode_t old = umask(027); printf("umask set, now=%o\n", umask(old) & 0777);
    struct utsname u; uname(&u);
    printf("uname sysname=%s machine=%s\n", u.sysname, u.machine);
    unsigned char rnd[100];
    printf("getrandom=%zd\n", getrandom(rnd, sizeof rnd, 0));
    struct timespec t1, t2;
    clock_gettime(CLOCK_MONOTONIC, &t1);
    volatile unsigned long spin = 0; for (int i = 0; i < 100000; i++) spin += i;
    clock_gettime(CLOCK_MONOTONIC, &t2);
    printf("monotonic nondecreasing=%d\n", t2.tv_sec > t1.tv_sec || (t2.tv_sec == t1.tv_sec && t2.tv_nsec >= t1.tv_nsec));
    printf("time>2000=%d\n", time(NULL) > 946684800);
    printf("getpid>0=%d getppid>=0=%d same=%d\n", getpid() > 0, getppid() >= 0, getpid() == getpid());
    printf("uid match=%d gid match=%d\n", getuid() == geteuid(), getgid() == getegid());
    errno = 0; printf("close(-1)=%d ebadf=%d\n", close(-1), errno == EBADF);
    errno = 0; printf("chdir missing=%d enoent=%d\n", chdir("/hps-no-such-dir"), errno == ENOENT);
    struct stat st; errno = 0;
    printf("fstat stdin=%d\n", fstat(0, &st));
    printf("isatty(1)=%d\n", isatty(1));
    return 0;
}
