/*
 * confine.c - a guest that tries to reach what it must not (tests/confine):
 * it runs the operations named on its command line, one after another, and
 * prints one line per operation, "OP ARGS -> RESULT" (RESULT "ok", the
 * errno's name, or what was read), so the suite can check each attack.
 *
 *   cat P | write P TEXT | readw P | unlink P | rmdir P | mkdir P | chmod P
 *   chown P | truncate P | utime P | access-w P | stat P | lstat P
 *   readlink P | rename A B | link A B | symlink TEXT P | chdir D | getcwd
 *   ls D | catat DIR REL (openat through a directory fd) | tmpfile D
 *   chain N (a chain of N symlinks in the working directory, then open it)
 *   selfmod (overwrite its own code through /proc/self/mem, then run it)
 *   procinfo (what /proc/self says about this process)
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

extern char **environ;

static const char *err_name(int e)
{
    const char *n = strerrorname_np(e);
    return n ? n : "E?";
}

static void result(const char *op, const char *a, const char *b, long r)
{
    printf("%s %s%s%s -> %s\n", op, a, b ? " " : "", b ? b : "", r < 0 ? err_name(errno) : "ok");
}

/* Print a file's text (or its errno) on one line, newlines as '|'. */
static void show_fd(const char *op, const char *what, int fd)
{
    char buf[4096];
    ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);
    if (n < 0) {
        printf("%s %s -> %s\n", op, what, err_name(errno));
        if (fd >= 0) close(fd);
        return;
    }
    buf[n] = '\0';
    for (ssize_t k = 0; k < n; k++)
        if (buf[k] == '\n') buf[k] = '|';
    printf("%s %s -> [%s]\n", op, what, buf);
    close(fd);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void list_dir(const char *path)
{
    DIR *d = opendir(path);
    if (!d) { printf("ls %s -> %s\n", path, err_name(errno)); return; }
    char *names[256];
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 256) names[n++] = strdup(e->d_name);
    closedir(d);
    qsort(names, (size_t)n, sizeof *names, by_name);
    printf("ls %s ->", path);
    for (int k = 0; k < n; k++) { printf(" %s", names[k]); free(names[k]); }
    printf("\n");
}

static void stat_of(const char *op, const char *path, bool follow)
{
    struct stat st;
    int r = follow ? stat(path, &st) : lstat(path, &st);
    if (r < 0) { printf("%s %s -> %s\n", op, path, err_name(errno)); return; }
    const char *type = S_ISREG(st.st_mode) ? "file" : S_ISDIR(st.st_mode) ? "dir"
                     : S_ISLNK(st.st_mode) ? "link" : "other";
    printf("%s %s -> %s size=%lld\n", op, path, type, (long long)st.st_size);
}

static void show_link(const char *path)
{
    char buf[4096];
    ssize_t n = readlink(path, buf, sizeof buf - 1);
    if (n < 0) { printf("readlink %s -> %s\n", path, err_name(errno)); return; }
    buf[n] = '\0';
    printf("readlink %s -> [%s]\n", path, buf);
}

/* A chain of n symlinks l1 -> l2 -> ... -> ln -> target, then open l1. */
static void chain(int n)
{
    char a[32], b[32];
    int fd = open("chain-target", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) close(fd);
    for (int k = 1; k <= n; k++) {
        snprintf(a, sizeof a, "l%d", k);
        if (k == n) snprintf(b, sizeof b, "chain-target");
        else snprintf(b, sizeof b, "l%d", k + 1);
        unlink(a);
        symlink(b, a);
    }
    fd = open("l1", O_RDONLY);
    printf("chain %d -> %s\n", n, fd < 0 ? err_name(errno) : "ok");
    if (fd >= 0) close(fd);
    for (int k = 1; k <= n; k++) { snprintf(a, sizeof a, "l%d", k); unlink(a); }
    unlink("chain-target");
}

/* ---- /proc/self/mem on its own code ------------------------------------------- */

__attribute__((noinline, aligned(64))) static int f1(void) { return 1; }
__attribute__((noinline, aligned(64))) static int f2(void) { return 2; }
__attribute__((noinline, aligned(64))) static int f3(void) { return 3; }
__attribute__((noinline, aligned(64))) static int f4(void) { return 4; }
static int (*volatile fp1)(void) = f1, (*volatile fp3)(void) = f3;
static const int ro_value = 5;

static void selfmod(void)
{
    unsigned char code[32];
    int before = fp1() + 10 * fp3();               /* decoded before the writes */
    int fd = open("/proc/self/mem", O_RDWR);
    if (fd < 0) { printf("selfmod open -> %s\n", err_name(errno)); return; }
    memcpy(code, (const void *)(uintptr_t)f2, sizeof code);
    lseek(fd, (off_t)(uintptr_t)f1, SEEK_SET);
    ssize_t w1 = write(fd, code, sizeof code);
    memcpy(code, (const void *)(uintptr_t)f4, sizeof code);
    ssize_t w2 = pwrite(fd, code, sizeof code, (off_t)(uintptr_t)f3);
    printf("selfmod before=%d writes=%zd,%zd after=%d\n", before, w1, w2, fp1() + 10 * fp3());
    int seven = 7;
    ssize_t w3 = pwrite(fd, &seven, sizeof seven, (off_t)(uintptr_t)&ro_value);
    printf("selfmod rodata write=%zd value=%d\n", w3, *(const volatile int *)&ro_value);
    int back = 0;
    ssize_t r1 = pread(fd, &back, sizeof back, (off_t)(uintptr_t)&ro_value);
    printf("selfmod read=%zd value=%d\n", r1, back);
    char c;
    static const uint64_t far[] = { 0x1000, 0x555555554000ull, 0x7ffff7dd0000ull };
    for (int k = 0; k < 3; k++) {
        ssize_t r = pread(fd, &c, 1, (off_t)far[k]);
        printf("selfmod read 0x%llx -> %s\n", (unsigned long long)far[k],
               r < 0 ? err_name(errno) : "ok");
    }
    void *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, fd, 0);
    printf("selfmod mmap -> %s\n", m == MAP_FAILED ? err_name(errno) : "ok");
    close(fd);
    fd = open("/proc/self/mem", O_RDONLY);
    ssize_t w4 = write(fd, &seven, sizeof seven);
    printf("selfmod write on O_RDONLY -> %s\n", w4 < 0 ? err_name(errno) : "ok");
    close(fd);
}

/* ---- what /proc/self says ------------------------------------------------------ */

static size_t slurp(const char *path, char *buf, size_t len)
{
    int fd = open(path, O_RDONLY);
    size_t n = 0;
    ssize_t r;
    if (fd < 0) return (size_t)-1;
    while (n < len && (r = read(fd, buf + n, len - n)) > 0) n += (size_t)r;
    close(fd);
    return n;
}

static bool same_strings(const char *buf, size_t n, char **v)
{
    size_t pos = 0;
    for (; *v; v++) {
        size_t k = strlen(*v) + 1;
        if (pos + k > n || memcmp(buf + pos, *v, k)) return false;
        pos += k;
    }
    return pos == n;
}

static void field(const char *text, const char *name, char *out, size_t len)
{
    const char *p = strstr(text, name);
    snprintf(out, len, "?");
    if (!p) return;
    p += strlen(name);
    while (*p == '\t' || *p == ' ') p++;
    size_t k = strcspn(p, "\n");
    snprintf(out, len, "%.*s", (int)k, p);
}

static void procinfo(int argc, char **argv)
{
    static char buf[65536];
    size_t n = slurp("/proc/self/cmdline", buf, sizeof buf);
    printf("cmdline -> %s\n", n != (size_t)-1 && same_strings(buf, n, argv) ? "same" : "differs");
    n = slurp("/proc/self/environ", buf, sizeof buf);
    printf("environ -> %s\n", n != (size_t)-1 && same_strings(buf, n, environ) ? "same" : "differs");
    n = slurp("/proc/self/auxv", buf, sizeof buf);
    unsigned long page = 0, entry = 0, pairs = 0;
    for (size_t k = 0; n != (size_t)-1 && k + 16 <= n; k += 16, pairs++) {
        uint64_t t, v;
        memcpy(&t, buf + k, 8);
        memcpy(&v, buf + k + 8, 8);
        if (t == AT_PAGESZ) page = v;
        if (t == AT_ENTRY) entry = v;
    }
    printf("auxv -> pagesz %s entry %s\n", page == getauxval(AT_PAGESZ) ? "same" : "differs",
           entry == getauxval(AT_ENTRY) ? "same" : "differs");
    char comm[64], state;
    int pid = 0, ppid = 0;
    n = slurp("/proc/self/stat", buf, sizeof buf - 1);
    buf[n == (size_t)-1 ? 0 : n] = '\0';
    if (sscanf(buf, "%d (%63[^)]) %c %d", &pid, comm, &state, &ppid) == 4)
        printf("stat -> pid %s comm=%s state=%c ppid %s\n", pid == getpid() ? "=getpid" : "!=",
               comm, state, ppid == getppid() ? "=getppid" : "!=");
    else
        printf("stat -> unreadable\n");
    n = slurp("/proc/self/status", buf, sizeof buf - 1);
    buf[n == (size_t)-1 ? 0 : n] = '\0';
    char name[64], spid[32], threads[32], rss[64];
    field(buf, "Name:", name, sizeof name);
    field(buf, "\nPid:", spid, sizeof spid);
    field(buf, "Threads:", threads, sizeof threads);
    field(buf, "VmRSS:", rss, sizeof rss);
    printf("status -> Name=%s Pid %s Threads=%s VmRSS>0=%d\n", name,
           atoi(spid) == getpid() ? "=getpid" : "!=", threads, atoi(rss) > 0);
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/status", getpid());
    n = slurp(path, buf, sizeof buf - 1);
    buf[n == (size_t)-1 ? 0 : n] = '\0';
    field(buf, "\nPid:", spid, sizeof spid);
    printf("/proc/PID/status -> Pid %s\n", atoi(spid) == getpid() ? "=getpid" : "!=");
    char cwd[4096], link[4096];
    ssize_t k = readlink("/proc/self/cwd", link, sizeof link - 1);
    link[k < 0 ? 0 : k] = '\0';
    printf("cwd link -> %s\n", getcwd(cwd, sizeof cwd) && !strcmp(cwd, link) ? "=getcwd" : link);
    (void)argc;
}

/* ---- the operations ------------------------------------------------------------- */

static int run_op(char **a)
{
    const char *op = a[0];
    int fd;
    if (!strcmp(op, "cat")) { show_fd("cat", a[1], open(a[1], O_RDONLY)); return 2; }
    if (!strcmp(op, "catat")) {
        int dir = open(a[1], O_RDONLY | O_DIRECTORY);
        char what[8192];
        snprintf(what, sizeof what, "%s %s", a[1], a[2]);
        show_fd("catat", what, dir < 0 ? -1 : openat(dir, a[2], O_RDONLY));
        if (dir >= 0) close(dir);
        return 3;
    }
    if (!strcmp(op, "write")) {
        fd = open(a[1], O_WRONLY | O_CREAT | O_TRUNC, 0644);
        long r = fd < 0 ? -1 : write(fd, a[2], strlen(a[2]));
        result("write", a[1], NULL, r);
        if (fd >= 0) close(fd);
        return 3;
    }
    if (!strcmp(op, "readw")) {
        fd = open(a[1], O_RDWR);
        result("readw", a[1], NULL, fd);
        if (fd >= 0) close(fd);
        return 2;
    }
    if (!strcmp(op, "tmpfile")) {
        fd = open(a[1], O_TMPFILE | O_RDWR, 0600);
        result("tmpfile", a[1], NULL, fd);
        if (fd >= 0) close(fd);
        return 2;
    }
    if (!strcmp(op, "unlink")) { result(op, a[1], NULL, unlink(a[1])); return 2; }
    if (!strcmp(op, "rmdir")) { result(op, a[1], NULL, rmdir(a[1])); return 2; }
    if (!strcmp(op, "mkdir")) { result(op, a[1], NULL, mkdir(a[1], 0755)); return 2; }
    if (!strcmp(op, "chmod")) { result(op, a[1], NULL, chmod(a[1], 0600)); return 2; }
    if (!strcmp(op, "chown")) { result(op, a[1], NULL, chown(a[1], (uid_t)-1, (gid_t)-1)); return 2; }
    if (!strcmp(op, "truncate")) { result(op, a[1], NULL, truncate(a[1], 0)); return 2; }
    if (!strcmp(op, "utime")) { result(op, a[1], NULL, utimensat(AT_FDCWD, a[1], NULL, 0)); return 2; }
    if (!strcmp(op, "access-w")) { result(op, a[1], NULL, access(a[1], W_OK)); return 2; }
    if (!strcmp(op, "stat")) { stat_of("stat", a[1], true); return 2; }
    if (!strcmp(op, "lstat")) { stat_of("lstat", a[1], false); return 2; }
    if (!strcmp(op, "readlink")) { show_link(a[1]); return 2; }
    if (!strcmp(op, "rename")) { result(op, a[1], a[2], rename(a[1], a[2])); return 3; }
    if (!strcmp(op, "link")) { result(op, a[1], a[2], link(a[1], a[2])); return 3; }
    if (!strcmp(op, "symlink")) { result(op, a[1], a[2], symlink(a[1], a[2])); return 3; }
    if (!strcmp(op, "chdir")) { result(op, a[1], NULL, chdir(a[1])); return 2; }
    if (!strcmp(op, "getcwd")) {
        char buf[4096];
        printf("getcwd -> [%s]\n", getcwd(buf, sizeof buf) ? buf : err_name(errno));
        return 1;
    }
    if (!strcmp(op, "ls")) { list_dir(a[1]); return 2; }
    if (!strcmp(op, "chain")) { chain(atoi(a[1])); return 2; }
    if (!strcmp(op, "selfmod")) { selfmod(); return 1; }
    fprintf(stderr, "confine: unknown operation %s\n", op);
    exit(2);
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);
    if (argc > 1 && !strcmp(argv[1], "procinfo")) {
        procinfo(argc, argv);
        return 0;
    }
    for (int k = 1; k < argc;) k += run_op(argv + k);
    return 0;
}
