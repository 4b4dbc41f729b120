/*
 * procfs.h - the guest's /proc: the guest process as Linux would show it
 * to itself, built from the simulator's state, never from hps-sim's own
 * /proc.
 *
 *   /proc/self            -> "1000" (SYS_GUEST_PID)
 *   /proc/1000/maps       the guest's mappings in Linux's format (guest
 *                         pages; names of the program, its interpreter,
 *                         mapped files, [heap] and [stack])
 *   /proc/1000/mem        guest memory at file offset = guest address;
 *                         any mapped page reads and writes, as Linux's
 *                         FOLL_FORCE allows for the process itself; writes
 *                         go through mem_write, which drops decoded
 *                         instructions of the page
 *   /proc/1000/cmdline, environ   the argv and envp strings, read live
 *                         from guest memory as Linux does
 *   /proc/1000/auxv       the auxiliary vector as the loader built it
 *   /proc/1000/stat, status, statm, comm   pid, name, state, ppid, sizes
 *                         from the guest's pages, Threads: 1
 *   /proc/1000/exe, cwd, root   links to the program, the working
 *                         directory and "/" (guest paths)
 *   /proc/1000/fd/N       links to the guest's fds (fs_fd_link)
 * Anything else under /proc does not exist (ENOENT); nothing there can be
 * created, removed or written except mem.
 */
#ifndef HPS_PROCFS_H
#define HPS_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

struct sys;
struct cpu;

typedef enum {
    PROC_NONE, PROC_DIR, PROC_FILE, PROC_LINK, PROC_MAGIC
} procfs_kind_t;

/* Magic links: followed, they lead to a guest object, not a path. */
enum { PROC_MAGIC_CWD, PROC_MAGIC_ROOT, PROC_MAGIC_EXE, PROC_MAGIC_FD };

typedef struct procfs_node {
    procfs_kind_t kind;
    int what;                   /* PROC_FILE: file id; PROC_MAGIC: PROC_MAGIC_* */
    int gfd;                    /* PROC_MAGIC_FD: the guest fd              */
    char link[32];              /* PROC_LINK: the target text               */
} procfs_node_t;

typedef struct procfs procfs_t;

procfs_t *procfs_new(void);
void procfs_free(procfs_t *p);

/* What canonical guest path path (under /proc) is. */
procfs_kind_t procfs_node(struct sys *s, const char *path, procfs_node_t *n);

/* Open path for the guest (host flags): a host fd holding the file's text
 * (read-only; c gives the times of stat), a directory to list, or mem;
 * *fd_flags gets SYS_FD_*. */
int64_t procfs_open(struct sys *s, const struct cpu *c, const char *path, int flags, int *hfd,
                    uint8_t *fd_flags);
int64_t procfs_stat(struct sys *s, const char *path, struct stat *st);
/* The text of a link or magic link. */
int64_t procfs_readlink(struct sys *s, const char *path, char *buf, size_t len);
/* getdents64 on a /proc directory fd (guest fd g): records into buf. */
int64_t procfs_getdents(struct sys *s, int g, uint8_t *buf, uint64_t len);
/* read/write (pread/pwrite: off >= 0) of /proc/self/mem through guest fd
 * g: len bytes between guest memory at the file offset and the guest
 * buffer at addr. */
int64_t procfs_mem_io(struct sys *s, int g, uint64_t addr, uint64_t len, int64_t off, bool write);

/* A read-only host fd holding len bytes of data (the text of a file the
 * guest reads), or -1 with errno set. */
int procfs_text_fd(const void *data, size_t len);
/* The program's guest path (what /proc/self/exe shows): where the guest
 * sees it, else "/" and its file name. */
void procfs_exe_path(struct sys *s, char *out, size_t len);

/* Bookkeeping for maps: [addr, addr+len) was (re)mapped from host fd hfd
 * (guest path name) at file offset off, or anonymously or unmapped (hfd
 * -1, name NULL). */
void procfs_note_map(struct sys *s, uint64_t addr, uint64_t len, int hfd, const char *name,
                     uint64_t off);

/* The named regions of maps, for checkpoints (checkpoint.h): a copy in
 * address order (*out malloc'd, names borrowed until the next change; 0
 * and NULL when none), and one region put back as it was. */
typedef struct procfs_region {
    uint64_t start, end, off, dev, ino;
    const char *name;
} procfs_region_t;
size_t procfs_regions(const struct sys *s, procfs_region_t **out);
void procfs_restore_region(struct sys *s, const procfs_region_t *r);

#endif /* HPS_PROCFS_H */
