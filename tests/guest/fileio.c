/*
 * fileio.c - differential test: file I/O inside a scratch directory given
 * as argv[1] (fileio.args passes @DIR@).  stdio (fopen/fwrite/fread/fseek/
 * ftell/rewind/fgets/fprintf/fscanf/fclose), POSIX (open/read/write/lseek/
 * pread/pwrite/ftruncate/close/dup), stat/fstat sizes, rename, unlink,
 * mkdir/rmdir, opendir/readdir (names sorted before printing) and error
 * cases (errno of opening a missing file).
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char path[4096];
static const char *P(const char *dir, const char *name) { snprintf(path, sizeof path, "%s/%s", dir, name); return path; }
static int cmpstr(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

int main(int argc, char **argv)
{
    if (argc < 2) { fprintf(stderr, "usage: fileio DIR\n"); return 2; }
    const char *d = argv[1];
    FILE *f = fopen(P(d, "a.txt"), "w");
    if (!f) { perror("fopen"); return 1; }
    for (int i = 0; i < 1000; i++) fprintf(f, "line %d value %d\n", i, i * i - 500);
    long pos = ftell(f);
    printf("written, ftell=%ld\n", pos);
    fclose(f);
    struct stat st;
    stat(P(d, "a.txt"), &st);
    printf("stat size=%lld isreg=%d\n", (long long)st.st_size, S_ISREG(st.st_mode));

    f = fopen(P(d, "a.txt"), "r+");
    char line[128];
    fseek(f, 0, SEEK_END); printf("end at %ld\n", ftell(f));
    fseek(f, 100, SEEK_SET); fgets(line, sizeof line, f); printf("at 100: %s", line);
    fseek(f, -30, SEEK_END); fgets(line, sizeof line, f); printf("30 from end: %s", line);
    rewind(f); fgets(line, sizeof line, f); printf("after rewind: %s", line);
    int a, b; fscanf(f, "line %d value %d\n", &a, &b); printf("fscanf %d %d\n", a, b);
    fseek(f, 0, SEEK_SET); fputs("LINE", f); fflush(f);
    fseek(f, 0, SEEK_SET); fgets(line, sizeof line, f); printf("overwritten: %s", line);
    fclose(f);

    /* binary stdio */
    f = fopen(P(d, "b.bin"), "wb");
    double vals[512]; for (int i = 0; i < 512; i++) vals[i] = i / 7.0;
    printf("fwrite=%zu\n", fwrite(vals, sizeof vals[0], 512, f));
    fclose(f);
    f = fopen(P(d, "b.bin"), "rb");
    double back[512] = {0};
    fseek(f, 8 * 100, SEEK_SET);
    printf("fread=%zu v=%.17g\n", fread(back, sizeof back[0], 600, f), back[3]);
    printf("feof=%d\n", feof(f) != 0);
    fclose(f);

    /* POSIX I/O */
    int fd = open(P(d, "c.dat"), O_CREAT | O_RDWR | O_TRUNC, 0644);
    if (fd < 0) { perror("open"); return 1; }
    char blk[4096];
    for (int i = 0; i < 4096; i++) blk[i] = (char)(i * 13);
    long tot = 0;
    for (int i = 0; i < 37; i++) tot += write(fd, blk, 1000 + i);
    printf("write total=%ld\n", tot);
    printf("lseek cur=%ld end=%ld set=%ld\n", (long)lseek(fd, 0, SEEK_CUR), (long)lseek(fd, 0, SEEK_END), (long)lseek(fd, 12345, SEEK_SET));
    char rb[100]; ssize_t r = read(fd, rb, 100);
    unsigned sum = 0; for (int i = 0; i < r; i++) sum = sum * 31 + (unsigned char)rb[i];
    printf("read=%zd sum=%u\n", r, sum);
    printf("pwrite=%zd ", pwrite(fd, "HELLO", 5, 10)); r = pread(fd, rb, 20, 5); rb[r] = 0;
    printf("pread=%zd [%.5s|%.5s]\n", r, rb + 5, rb);
    fstat(fd, &st); printf("fstat size=%lld\n", (long long)st.st_size);
    ftruncate(fd, 5000); fstat(fd, &st); printf("truncated size=%lld\n", (long long)st.st_size);
    lseek(fd, 4990, SEEK_SET); r = read(fd, rb, 100); printf("read at 4990 -> %zd\n", r);
    r = read(fd, rb, 100); printf("read at eof -> %zd\n", r);
    int fd2 = dup(fd); printf("dup pos=%ld\n", (long)lseek(fd2, 0, SEEK_CUR)); close(fd2);
    close(fd);
    /* sparse file via seek beyond end */
    fd = open(P(d, "sparse"), O_CREAT | O_WRONLY, 0600);
    lseek(fd, 1 << 20, SEEK_SET); write(fd, "x", 1); close(fd);
    stat(P(d, "sparse"), &st); printf("sparse size=%lld\n", (long long)st.st_size);

    /* rename, unlink, mkdir */
    char from[4096]; snprintf(from, sizeof from, "%s/c.dat", d);
    printf("rename=%d\n", rename(from, P(d, "renamed.dat")));
    errno = 0; printf("stat old=%d enoent=%d\n", stat(from, &st), errno == ENOENT);
    printf("mkdir=%d\n", mkdir(P(d, "sub"), 0755));
    fd = open(P(d, "sub/inner"), O_CREAT | O_WRONLY, 0644); write(fd, "inner\n", 6); close(fd);
    errno = 0; printf("rmdir nonempty=%d enotempty=%d\n", rmdir(P(d, "sub")), errno == ENOTEMPTY || errno == EEXIST);
    DIR *dir = opendir(d);
    char *names[64]; int nn = 0; struct dirent *de;
    while (dir && (de = readdir(dir)) && nn < 64) names[nn++] = strdup(de->d_name);
    if (dir) closedir(dir);
    qsort(names, nn, sizeof names[0], cmpstr);
    printf("dir entries:");
    for (int i = 0; i < nn; i++) { printf(" %s", names[i]); free(names[i]); }
    printf("\n");
    printf("unlink=%d ", unlink(P(d, "sub/inner"))); printf("rmdir=%d\n", rmdir(P(d, "sub")));
    printf("unlink a=%d\n", unlink(P(d, "a.txt")));
    errno = 0; fd = open(P(d, "a.txt"), O_RDONLY); printf("open missing fd=%d enoent=%d\n", fd, errno == ENOENT);
    errno = 0; f = fopen(P(d, "nodir/x"), "w"); printf("fopen in missing dir null=%d enoent=%d\n", f == NULL, errno == ENOENT);
    errno = 0; r = read(1000, rb, 1); printf("read bad fd=%zd ebadf=%d\n", r, errno == EBADF);
    unlink(P(d, "b.bin")); unlink(P(d, "renamed.dat")); unlink(P(d, "sparse"));
    dir = opendir(d); nn = 0;
    while (dir && (de = readdir(dir))) if (de->d_name[0] != '.') nn++;
    if (dir) closedir(dir);
    printf("entries left=%d\n", nn);
    return 0;
}
