/*
 * procfs.c - the guest's /proc (procfs.h): its names, the text of its
 * files built from the simulated process (guest pages, the loader's
 * initial stack, the fd table), /proc/self/mem on guest memory, and the
 * bookkeeping that names mappings in maps.  Nothing here reads hps-sim's
 * own /proc except to reopen a memfd read-only.
 */
#include "procfs.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fs.h"
#include "loader.h"
#include "mem.h"
#include "sys.h"
#include "util.h"

#define PROC_UID   1000          /* the guest's getuid()                     */
#define PROC_PPID  999           /* its getppid()                            */
#define PROC_DEV   0x16          /* st_dev of /proc entries (Linux: 0:22)    */
#define PROC_REGION_SHIFT 30     /* guest memory's directory: 1 GiB each     */
#define MAX_ARGS   (1u << 20)

/* A named range of guest pages (a file mapping) for maps. */
typedef struct region {
    uint64_t start, end, off;
    uint64_t dev, ino;
    char *name;
} region_t;

struct procfs {
    region_t *regions;
    size_t nregions, cap;
    uint64_t stack_lo, stack_hi, start_stack;
    uint64_t arg_start, arg_end, env_start, env_end;
    uint64_t code_lo, code_hi, data_lo, data_hi;
    uint8_t *auxv;
    size_t auxv_len;
};

/* The files of /proc/PID. */
enum { F_MAPS, F_MEM, F_CMDLINE, F_ENVIRON, F_AUXV, F_STAT, F_STATUS, F_STATM, F_COMM };
static const struct { const char *name; int mode; } pid_files[] = {
    [F_MAPS] = { "maps", 0444 },     [F_MEM] = { "mem", 0600 },
    [F_CMDLINE] = { "cmdline", 0444 }, [F_ENVIRON] = { "environ", 0400 },
    [F_AUXV] = { "auxv", 0400 },     [F_STAT] = { "stat", 0444 },
    [F_STATUS] = { "status", 0444 }, [F_STATM] = { "statm", 0444 },
    [F_COMM] = { "comm", 0644 },
};
#define NFILES (sizeof pid_files / sizeof pid_files[0])
static const char *const pid_links[] = { "cwd", "root", "exe" };   /* PROC_MAGIC_* order */

procfs_t *procfs_new(void)
{
    return calloc(1, sizeof(procfs_t));
}

void procfs_free(procfs_t *p)
{
    if (!p) return;
    for (size_t k = 0; k < p->nregions; k++) free(p->regions[k].name);
    free(p->regions);
    free(p->auxv);
    free(p);
}

/* ---- text ------------------------------------------------------------------------ */

typedef struct text {
    char *buf;
    size_t len, cap;
} text_t;

static void put(text_t *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void reserve(text_t *t, size_t more)
{
    if (t->buf && t->len + more < t->cap) return;
    t->cap = t->cap * 2 + more + 256;
    t->buf = xrealloc(t->buf, t->cap);
}

static void put(text_t *t, const char *fmt, ...)
{
    va_list ap;
    reserve(t, 0);
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
        va_end(ap);
        if (n < 0) return;
        if (t->len + (size_t)n < t->cap) { t->len += (size_t)n; return; }
        reserve(t, (size_t)n + 1);
    }
}

static void put_bytes(text_t *t, const void *data, size_t n)
{
    if (!n) return;
    reserve(t, n + 1);
    memcpy(t->buf + t->len, data, n);
    t->len += n;
}

int procfs_text_fd(const void *data, size_t len)
{
    int fd = memfd_create("hps-sim-proc", MFD_CLOEXEC);
    if (fd < 0) return -1;
    const uint8_t *p = data;
    for (size_t done = 0; done < len;) {
        ssize_t n = write(fd, p + done, len - done);
        if (n <= 0) {
            int e = n < 0 ? errno : EIO;
            close(fd);
            errno = e;
            return -1;
        }
        done += (size_t)n;
    }
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    int ro = open(self, O_RDONLY | O_CLOEXEC);      /* the guest's copy is read-only */
    if (ro < 0) {
        lseek(fd, 0, SEEK_SET);
        return fd;
    }
    close(fd);
    return ro;
}

/* ---- the process's start ---------------------------------------------------------- */

static bool get_word(mem_t *m, uint64_t addr, uint64_t *v)
{
    uint8_t b[8];
    if (!mem_read(m, addr, b, 8)) return false;
    *v = 0;
    for (int k = 7; k >= 0; k--) *v = *v << 8 | b[k];
    return true;
}

/* The end (one past the NUL) of the string at addr, or addr. */
static uint64_t string_end(mem_t *m, uint64_t addr)
{
    char c = 1;
    uint64_t a = addr;
    while (c && a - addr < (1u << 20) && mem_read(m, a, &c, 1)) a++;
    return c ? addr : a;
}

/* argv, envp and auxv of the initial stack: [argc][argv..0][envp..0][auxv..AT_NULL]. */
static void read_start(struct sys *s, uint64_t sp)
{
    procfs_t *p = s->proc;
    mem_t *m = s->mem;
    uint64_t argc = 0, v = 0, a = sp + 8;
    if (!get_word(m, sp, &argc) || argc > MAX_ARGS) return;
    p->start_stack = sp;
    for (uint64_t k = 0; k < argc && get_word(m, a, &v); k++, a += 8) {
        if (!k) p->arg_start = v;
        p->arg_end = string_end(m, v);
    }
    a += 8;                                          /* argv's NULL */
    for (bool first = true; get_word(m, a, &v) && v; a += 8, first = false) {
        if (first) p->env_start = v;
        p->env_end = string_end(m, v);
    }
    if (!p->env_start) p->env_start = p->env_end = p->arg_end;
    uint64_t aux = a + 8, type = 1;
    for (a = aux; type && a - aux < 4096 && get_word(m, a, &type); a += 16) {}
    free(p->auxv);
    p->auxv_len = a - aux;
    p->auxv = malloc(p->auxv_len ? p->auxv_len : 1);
    if (!p->auxv || !mem_read(m, aux, p->auxv, p->auxv_len)) p->auxv_len = 0;
}

/* Name an image's segments (guest path name of host file path). */
static void name_segments(struct sys *s, const image_seg_t *segs, unsigned n,
                          const char *path, const char *name)
{
    int fd = path && *path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    for (unsigned k = 0; k < n; k++)
        procfs_note_map(s, segs[k].start, segs[k].end - segs[k].start, fd, name, segs[k].off);
    if (fd >= 0) close(fd);
}

void sys_note_start(sys_t *s, const image_t *img, uint64_t sp, uint64_t stack_lo,
                    uint64_t stack_hi)
{
    procfs_t *p = s->proc;
    char exe[FS_PATH_MAX];
    procfs_exe_path(s, exe, sizeof exe);
    p->stack_lo = stack_lo;
    p->stack_hi = stack_hi;
    name_segments(s, img->segs, img->nsegs, s->exe_path, exe);
    if (img->interp_file[0])
        name_segments(s, img->interp_segs, img->interp_nsegs, img->interp_file, img->interp);
    if (img->nsegs) {
        p->code_lo = img->segs[0].start;
        p->code_hi = img->segs[0].end;
        p->data_lo = img->segs[img->nsegs - 1].start;
        p->data_hi = img->segs[img->nsegs - 1].end;
    }
    read_start(s, sp);
}

void procfs_exe_path(struct sys *s, char *out, size_t len)
{
    if (!s->exe_path) { snprintf(out, len, "%s", ""); return; }
    if (fs_guest_path(s, s->exe_path, out, len)) return;
    const char *base = strrchr(s->exe_path, '/');
    snprintf(out, len, "/%s", base ? base + 1 : s->exe_path);
}

/* ---- maps bookkeeping -------------------------------------------------------------- */

/* Drop [lo, hi) from every region (splitting one that spans it). */
static void clip_regions(procfs_t *p, uint64_t lo, uint64_t hi)
{
    for (size_t k = 0; k < p->nregions; k++) {
        region_t *r = &p->regions[k];
        if (r->end <= lo || hi <= r->start) continue;
        if (r->start < lo && hi < r->end) {          /* split: keep both sides */
            region_t tail = *r;
            tail.off += hi - r->start;
            tail.start = hi;
            tail.name = xstrdup(r->name);
            r->end = lo;
            if (p->nregions == p->cap) {
                p->cap = p->cap * 2 + 8;
                p->regions = xrealloc(p->regions, p->cap * sizeof *p->regions);
            }
            p->regions[p->nregions++] = tail;
            return;
        }
        if (r->start < lo) { r->end = lo; continue; }
        if (hi < r->end) { r->off += hi - r->start; r->start = hi; continue; }
        free(r->name);
        p->regions[k--] = p->regions[--p->nregions];
    }
}

void procfs_note_map(struct sys *s, uint64_t addr, uint64_t len, int hfd, const char *name,
                     uint64_t off)
{
    procfs_t *p = s->proc;
    if (!p || !len || addr + len < addr) return;
    clip_regions(p, addr, addr + len);
    if (!name) return;
    region_t r = { .start = addr, .end = addr + len, .off = off, .name = xstrdup(name) };
    struct stat st;
    if (hfd >= 0 && fstat(hfd, &st) == 0) r.dev = st.st_dev, r.ino = st.st_ino;
    if (p->nregions == p->cap) {
        p->cap = p->cap * 2 + 8;
        p->regions = xrealloc(p->regions, p->cap * sizeof *p->regions);
    }
    p->regions[p->nregions++] = r;
}

static int region_order(const void *a, const void *b)
{
    const procfs_region_t *x = a, *y = b;
    return x->start < y->start ? -1 : x->start > y->start;
}

size_t procfs_regions(const struct sys *s, procfs_region_t **out)
{
    const procfs_t *p = s->proc;
    *out = NULL;
    if (!p || !p->nregions) return 0;
    procfs_region_t *v = xrealloc(NULL, p->nregions * sizeof *v);
    for (size_t k = 0; k < p->nregions; k++) {
        const region_t *r = &p->regions[k];
        v[k] = (procfs_region_t){ r->start, r->end, r->off, r->dev, r->ino, r->name };
    }
    qsort(v, p->nregions, sizeof *v, region_order);
    *out = v;
    return p->nregions;
}

void procfs_restore_region(struct sys *s, const procfs_region_t *r)
{
    procfs_t *p = s->proc;
    if (!p || r->end <= r->start) return;
    procfs_note_map(s, r->start, r->end - r->start, -1, r->name, r->off);
    p->regions[p->nregions - 1].dev = r->dev;
    p->regions[p->nregions - 1].ino = r->ino;
}

static const region_t *region_at(const procfs_t *p, uint64_t addr)
{
    for (size_t k = 0; k < p->nregions; k++)
        if (p->regions[k].start <= addr && addr < p->regions[k].end) return &p->regions[k];
    return NULL;
}

/* ---- the guest's pages --------------------------------------------------------------- */

typedef void (*page_fn)(void *ctx, uint64_t addr, const guest_page_t *pg);

/* Every mapped guest page, in address order (1 GiB regions that exist,
 * page by page: a read of maps or status is rare). */
static void for_each_page(const mem_t *m, page_fn fn, void *ctx)
{
    enum { NDIR = sizeof m->dir / sizeof m->dir[0] };
    _Static_assert(NDIR == 1u << (GUEST_ADDR_BITS - PROC_REGION_SHIFT), "mem.h's directory");
    for (uint64_t d = 0; d < NDIR; d++) {
        if (!m->dir[d]) continue;
        uint64_t base = d << PROC_REGION_SHIFT, end = base + (1ull << PROC_REGION_SHIFT);
        for (uint64_t a = base; a < end; a += GUEST_PAGE_SIZE) {
            const guest_page_t *pg = mem_page(m, a);
            if (pg) fn(ctx, a, pg);
        }
    }
}

/* A page's name in maps. */
static const char *page_name(const struct sys *s, uint64_t addr, const region_t **r)
{
    const procfs_t *p = s->proc;
    *r = region_at(p, addr);
    if (*r) return (*r)->name;
    if (addr >= p->stack_lo && addr < p->stack_hi) return "[stack]";
    uint64_t heap = s->brk_start & ~GUEST_PAGE_MASK;
    if (s->brk_cur > s->brk_start && addr >= heap && addr < s->brk_cur) return "[heap]";
    return NULL;
}

/* One line of maps being gathered. */
typedef struct maps_run {
    const struct sys *s;
    text_t *out;
    bool open;
    uint64_t start, end, off;
    int prot;
    const char *name;
    const region_t *region;
} maps_run_t;

static void maps_flush(maps_run_t *run)
{
    if (!run->open) return;
    const region_t *r = run->region;
    int p = run->prot;
    size_t before = run->out->len;
    put(run->out, "%08" PRIx64 "-%08" PRIx64 " %c%c%cp %08" PRIx64 " %02x:%02x %" PRIu64 " ",
        run->start, run->end, p & MEM_PROT_READ ? 'r' : '-', p & MEM_PROT_WRITE ? 'w' : '-',
        p & MEM_PROT_EXEC ? 'x' : '-', r ? run->off : 0,
        r ? (unsigned)major(r->dev) : 0, r ? (unsigned)minor(r->dev) : 0, r ? r->ino : 0);
    if (run->name) {
        size_t width = run->out->len - before;
        put(run->out, "%*s%s", width < 73 ? (int)(73 - width) : 0, "", run->name);
    }
    put(run->out, "\n");
    run->open = false;
}

static void maps_page(void *ctx, uint64_t addr, const guest_page_t *pg)
{
    maps_run_t *run = ctx;
    const region_t *r;
    const char *name = page_name(run->s, addr, &r);
    uint64_t off = r ? r->off + (addr - r->start) : 0;
    bool same = run->open && run->end == addr && run->prot == pg->prot && run->name == name &&
                run->region == r && (!r || run->off + (addr - run->start) == off);
    if (!same) {
        maps_flush(run);
        *run = (maps_run_t){ run->s, run->out, true, addr, addr, off, pg->prot, name, r };
    }
    run->end = addr + GUEST_PAGE_SIZE;
}

static void gen_maps(struct sys *s, text_t *out)
{
    maps_run_t run = { .s = s, .out = out };
    for_each_page(s->mem, maps_page, &run);
    maps_flush(&run);
}

/* Sizes for stat, status and statm, in bytes. */
typedef struct usage {
    uint64_t size, rss, rss_file, stack, exe, lib, data;
} usage_t;

typedef struct usage_ctx {
    const struct sys *s;
    usage_t *u;
} usage_ctx_t;

static void usage_page(void *ctx, uint64_t addr, const guest_page_t *pg)
{
    usage_ctx_t *c = ctx;
    const procfs_t *p = c->s->proc;
    usage_t *u = c->u;
    const region_t *r = region_at(p, addr);
    u->size += GUEST_PAGE_SIZE;
    if (pg->data) u->rss += GUEST_PAGE_SIZE;
    if (r && pg->data) u->rss_file += GUEST_PAGE_SIZE;
    if (addr >= p->stack_lo && addr < p->stack_hi) u->stack += GUEST_PAGE_SIZE;
    else if (r && (pg->prot & MEM_PROT_EXEC) && addr >= p->code_lo && addr < p->code_hi)
        u->exe += GUEST_PAGE_SIZE;
    else if (r && (pg->prot & MEM_PROT_EXEC)) u->lib += GUEST_PAGE_SIZE;
    else if (pg->prot & MEM_PROT_WRITE) u->data += GUEST_PAGE_SIZE;
}

static usage_t usage_of(const struct sys *s)
{
    usage_t u = {0};
    usage_ctx_t c = { s, &u };
    for_each_page(s->mem, usage_page, &c);
    return u;
}

/* ---- the files ------------------------------------------------------------------------ */

static void comm_of(const struct sys *s, char *out, size_t len)
{
    const char *exe = s->exe_path ? s->exe_path : "";
    const char *base = strrchr(exe, '/');
    snprintf(out, len < 16 ? len : 16, "%s", base ? base + 1 : exe);   /* TASK_COMM_LEN */
}

static void gen_range(struct sys *s, uint64_t lo, uint64_t hi, text_t *out)
{
    if (hi <= lo || hi - lo > (64u << 20)) return;
    char *buf = xcalloc(1, hi - lo);
    if (mem_read(s->mem, lo, buf, hi - lo)) put_bytes(out, buf, hi - lo);
    free(buf);
}

/* Signal sets from the recorded actions: ignored (SIG_IGN) and caught. */
static void signal_sets(const struct sys *s, uint64_t *ign, uint64_t *cgt)
{
    *ign = *cgt = 0;
    for (int sig = 1; sig <= SYS_NSIG; sig++) {
        uint64_t h = 0;
        for (int k = 7; k >= 0; k--) h = h << 8 | s->sigaction[sig][k];
        if (h == 1) *ign |= 1ull << (sig - 1);
        else if (h > 1) *cgt |= 1ull << (sig - 1);
    }
}

static uint64_t utime_ticks(const struct sys *s, const struct cpu *c)
{
    uint64_t ips = s->cfg.insts_per_sec ? s->cfg.insts_per_sec : 1000000000ull;
    uint64_t hz = s->abi->clock_tick_hz ? s->abi->clock_tick_hz : 100;
    uint64_t insts = c ? c->instret : 0;
    return (uint64_t)((unsigned __int128)insts * hz / ips);
}

static void gen_stat(struct sys *s, const struct cpu *c, text_t *out)
{
    const procfs_t *p = s->proc;
    usage_t u = usage_of(s);
    uint64_t ign, cgt;
    char comm[16];
    comm_of(s, comm, sizeof comm);
    signal_sets(s, &ign, &cgt);
    put(out, "%d (%s) R %d %d %d 0 -1 4194304 %" PRIu64 " 0 0 0 %" PRIu64 " 0 0 0 20 0 1 0 0 "
        "%" PRIu64 " %" PRIu64 " 18446744073709551615 %" PRIu64 " %" PRIu64 " %" PRIu64
        " 0 0 0 %" PRIu64 " %" PRIu64 " %" PRIu64 " 0 0 0 17 0 0 0 0 0 0 %" PRIu64 " %" PRIu64
        " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " 0\n",
        SYS_GUEST_PID, comm, PROC_PPID, SYS_GUEST_PID, SYS_GUEST_PID,
        s->mem->pages_touched, utime_ticks(s, c), u.size, u.rss / s->abi->page_size,
        p->code_lo, p->code_hi, p->start_stack, s->sigmask, ign, cgt, p->data_lo, p->data_hi,
        s->brk_start, p->arg_start, p->arg_end, p->env_start, p->env_end);
}

static void gen_status(struct sys *s, text_t *out)
{
    usage_t u = usage_of(s);
    uint64_t ign, cgt;
    char comm[16];
    comm_of(s, comm, sizeof comm);
    signal_sets(s, &ign, &cgt);
    mode_t mask = umask(0);
    umask(mask);
    put(out, "Name:\t%s\nUmask:\t%04o\nState:\tR (running)\nTgid:\t%d\nNgid:\t0\nPid:\t%d\n"
        "PPid:\t%d\nTracerPid:\t0\nUid:\t%d\t%d\t%d\t%d\nGid:\t%d\t%d\t%d\t%d\nFDSize:\t%d\n"
        "Groups:\t\n", comm, (unsigned)mask, SYS_GUEST_PID, SYS_GUEST_PID, PROC_PPID,
        PROC_UID, PROC_UID, PROC_UID, PROC_UID, PROC_UID, PROC_UID, PROC_UID, PROC_UID,
        SYS_MAX_FDS);
    const struct { const char *name; uint64_t bytes; } vm[] = {
        { "VmPeak", u.size }, { "VmSize", u.size }, { "VmLck", 0 }, { "VmPin", 0 },
        { "VmHWM", u.rss }, { "VmRSS", u.rss }, { "RssAnon", u.rss - u.rss_file },
        { "RssFile", u.rss_file }, { "RssShmem", 0 }, { "VmData", u.data },
        { "VmStk", u.stack }, { "VmExe", u.exe }, { "VmLib", u.lib }, { "VmPTE", 0 },
        { "VmSwap", 0 },
    };
    for (size_t k = 0; k < sizeof vm / sizeof vm[0]; k++)
        put(out, "%s:\t%8" PRIu64 " kB\n", vm[k].name, vm[k].bytes / 1024);
    put(out, "Threads:\t1\nSigQ:\t0/4096\nSigPnd:\t%016x\nShdPnd:\t%016x\nSigBlk:\t%016" PRIx64
        "\nSigIgn:\t%016" PRIx64 "\nSigCgt:\t%016" PRIx64 "\nCapInh:\t%016x\nCapPrm:\t%016x\n"
        "CapEff:\t%016x\nCapBnd:\t%016x\nCapAmb:\t%016x\nNoNewPrivs:\t0\nSeccomp:\t0\n"
        "Cpus_allowed:\t1\nCpus_allowed_list:\t0\nvoluntary_ctxt_switches:\t0\n"
        "nonvoluntary_ctxt_switches:\t0\n", 0, 0, s->sigmask, ign, cgt, 0, 0, 0, 0, 0);
}

static void gen_statm(struct sys *s, text_t *out)
{
    usage_t u = usage_of(s);
    uint64_t ps = s->abi->page_size;
    put(out, "%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " 0 %" PRIu64 " 0\n", u.size / ps,
        u.rss / ps, u.rss_file / ps, u.exe / ps, (u.data + u.stack) / ps);
}

static void gen_file(struct sys *s, const struct cpu *c, int file, text_t *out)
{
    procfs_t *p = s->proc;
    char comm[16];
    switch (file) {
    case F_MAPS:    gen_maps(s, out); break;
    case F_CMDLINE: gen_range(s, p->arg_start, p->arg_end, out); break;
    case F_ENVIRON: gen_range(s, p->env_start, p->env_end, out); break;
    case F_AUXV:    put_bytes(out, p->auxv, p->auxv_len); break;
    case F_STAT:    gen_stat(s, c, out); break;
    case F_STATUS:  gen_status(s, out); break;
    case F_STATM:   gen_statm(s, out); break;
    case F_COMM:    comm_of(s, comm, sizeof comm); put(out, "%s\n", comm); break;
    default: break;
    }
}

/* ---- names ------------------------------------------------------------------------------ */

/* "/proc/1000/rest" -> rest ("" for /proc/1000 itself), NULL if no pid. */
static const char *after_pid(const char *path)
{
    if (strncmp(path, "/proc/", 6)) return NULL;
    const char *p = path + 6;
    if (*p == '0' || *p < '1' || *p > '9') return NULL;         /* no leading zeros */
    char *end;
    unsigned long pid = strtoul(p, &end, 10);
    if (pid != SYS_GUEST_PID || (*end && *end != '/')) return NULL;
    return *end ? end + 1 : end;
}

static bool guest_fd_open(const struct sys *s, const char *text, int *g)
{
    char *end;
    if (!*text || (*text == '0' && text[1]) || *text < '0' || *text > '9') return false;
    long v = strtol(text, &end, 10);
    if (*end || v < 0 || v >= SYS_MAX_FDS || s->host_fd[v] < 0) return false;
    *g = (int)v;
    return true;
}

procfs_kind_t procfs_node(struct sys *s, const char *path, procfs_node_t *n)
{
    memset(n, 0, sizeof *n);
    n->kind = PROC_NONE;
    if (!strcmp(path, "/proc")) return n->kind = PROC_DIR;
    if (!strcmp(path, "/proc/self")) {
        snprintf(n->link, sizeof n->link, "%d", SYS_GUEST_PID);
        return n->kind = PROC_LINK;
    }
    const char *rest = after_pid(path);
    if (!rest) return PROC_NONE;
    if (!*rest || !strcmp(rest, "fd")) return n->kind = PROC_DIR;
    for (size_t k = 0; k < NFILES; k++)
        if (!strcmp(rest, pid_files[k].name)) { n->what = (int)k; return n->kind = PROC_FILE; }
    for (int k = 0; k < 3; k++)
        if (!strcmp(rest, pid_links[k])) { n->what = k; return n->kind = PROC_MAGIC; }
    if (!strncmp(rest, "fd/", 3) && guest_fd_open(s, rest + 3, &n->gfd)) {
        n->what = PROC_MAGIC_FD;
        return n->kind = PROC_MAGIC;
    }
    return PROC_NONE;
}

static uint64_t path_ino(const char *path)
{
    uint64_t h = 1469598103934665603ull;                 /* FNV-1a */
    for (; *path; path++) h = (h ^ (uint8_t)*path) * 1099511628211ull;
    return h | 1;
}

int64_t procfs_stat(struct sys *s, const char *path, struct stat *st)
{
    procfs_node_t n;
    procfs_kind_t kind = procfs_node(s, path, &n);
    if (kind == PROC_NONE) return -ENOENT;
    memset(st, 0, sizeof *st);
    st->st_dev = PROC_DEV;
    st->st_ino = path_ino(path);
    st->st_nlink = kind == PROC_DIR ? 2 : 1;
    st->st_uid = st->st_gid = PROC_UID;
    st->st_blksize = 1024;
    st->st_atime = st->st_mtime = st->st_ctime = (time_t)s->cfg.epoch_sec;
    st->st_mode = kind == PROC_DIR ? S_IFDIR | 0555
                : kind == PROC_FILE ? S_IFREG | (mode_t)pid_files[n.what].mode
                : S_IFLNK | 0777;
    if (kind == PROC_DIR && !strcmp(path, "/proc")) st->st_uid = st->st_gid = 0;
    return 0;
}

int64_t procfs_readlink(struct sys *s, const char *path, char *buf, size_t len)
{
    procfs_node_t n;
    char text[FS_PATH_MAX];
    switch (procfs_node(s, path, &n)) {
    case PROC_NONE: return -ENOENT;
    case PROC_LINK: snprintf(text, sizeof text, "%s", n.link); break;
    case PROC_MAGIC:
        if (n.what == PROC_MAGIC_CWD) snprintf(text, sizeof text, "%s", s->cwd->path);
        else if (n.what == PROC_MAGIC_ROOT) strcpy(text, "/");
        else if (n.what == PROC_MAGIC_EXE) procfs_exe_path(s, text, sizeof text);
        else fs_fd_link(s, n.gfd, text, sizeof text);
        if (n.what == PROC_MAGIC_EXE && !s->exe_path) return -ENOENT;
        break;
    default: return -EINVAL;
    }
    size_t k = strlen(text);
    if (k > len) k = len;
    memcpy(buf, text, k);
    return (int64_t)k;
}

/* ---- open ------------------------------------------------------------------------------- */

/* An empty host fd standing for a /proc object, with access acc. */
static int placeholder(int acc)
{
    int fd = memfd_create("hps-sim-proc", MFD_CLOEXEC);
    if (fd < 0) return -1;
    char self[64];
    snprintf(self, sizeof self, "/proc/self/fd/%d", fd);
    int re = open(self, acc | O_CLOEXEC);
    if (re < 0) return fd;
    close(fd);
    return re;
}

int64_t procfs_open(struct sys *s, const struct cpu *c, const char *path, int flags, int *hfd,
                    uint8_t *fd_flags)
{
    procfs_node_t n;
    procfs_kind_t kind = procfs_node(s, path, &n);
    int acc = flags & O_ACCMODE;
    if (kind == PROC_NONE) return flags & O_CREAT ? -EACCES : -ENOENT;
    if ((flags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL)) return -EEXIST;
    if (kind == PROC_LINK || kind == PROC_MAGIC) {         /* not followed */
        if (!(flags & O_PATH)) return -ELOOP;
        *hfd = placeholder(O_RDONLY);
        *fd_flags = SYS_FD_PROC | SYS_FD_RO;
        return *hfd < 0 ? -errno : 0;
    }
    if (kind == PROC_DIR) {
        if (acc != O_RDONLY) return -EISDIR;
        *hfd = placeholder(O_RDONLY);
        *fd_flags = SYS_FD_PROC | SYS_FD_PROCDIR | SYS_FD_RO;
        return *hfd < 0 ? -errno : 0;
    }
    if (flags & O_DIRECTORY) return -ENOTDIR;
    if (n.what == F_MEM) {
        *hfd = placeholder(acc);
        *fd_flags = SYS_FD_PROC | SYS_FD_MEM;
        return *hfd < 0 ? -errno : 0;
    }
    if (acc != O_RDONLY) return -EACCES;
    text_t t = {0};
    gen_file(s, c, n.what, &t);
    *hfd = procfs_text_fd(t.buf ? t.buf : "", t.len);
    free(t.buf);
    *fd_flags = SYS_FD_PROC | SYS_FD_RO;
    return *hfd < 0 ? -errno : 0;
}

/* ---- directories -------------------------------------------------------------------------- */

/* Entry k of directory path (after "." and ".."): false past the end. */
static bool dir_entry(const struct sys *s, const char *path, uint64_t k, char *name, size_t len,
                      uint8_t *type)
{
    const char *rest = strcmp(path, "/proc") ? after_pid(path) : NULL;
    if (k < 2) { snprintf(name, len, "%s", k ? ".." : "."); *type = 4; return true; }
    k -= 2;
    if (!rest) {                                           /* /proc */
        if (k > 1) return false;
        if (k) snprintf(name, len, "%d", SYS_GUEST_PID);
        else snprintf(name, len, "self");
        *type = k ? 4 : 10;
        return true;
    }
    if (!*rest) {                                          /* /proc/PID */
        if (k < NFILES) { snprintf(name, len, "%s", pid_files[k].name); *type = 8; return true; }
        k -= NFILES;
        if (k < 3) { snprintf(name, len, "%s", pid_links[k]); *type = 10; return true; }
        if (k > 3) return false;
        snprintf(name, len, "fd");
        *type = 4;
        return true;
    }
    for (int g = 0; g < SYS_MAX_FDS; g++)                  /* /proc/PID/fd */
        if (s->host_fd[g] >= 0 && !k--) { snprintf(name, len, "%d", g); *type = 10; return true; }
    return false;
}

int64_t procfs_getdents(struct sys *s, int g, uint8_t *buf, uint64_t len)
{
    int hfd = s->host_fd[g];
    const fs_place_t *pl = s->fd_place[g];
    off_t pos = lseek(hfd, 0, SEEK_CUR);
    if (pos < 0 || !pl) return -EBADF;
    uint64_t k = (uint64_t)pos, used = 0;
    char name[32], full[FS_PATH_MAX + 40];
    uint8_t type;
    while (dir_entry(s, pl->path, k, name, sizeof name, &type)) {
        size_t nl = strlen(name);
        uint16_t reclen = (uint16_t)((19 + nl + 1 + 7) & ~7u);
        if (used + reclen > len) {
            if (!used) return -EINVAL;
            break;
        }
        snprintf(full, sizeof full, "%s/%s", pl->path, name);
        uint64_t ino = path_ino(full);
        int64_t next = (int64_t)k + 1;
        memset(buf + used, 0, reclen);
        memcpy(buf + used, &ino, 8);                       /* little-endian on both ISAs */
        memcpy(buf + used + 8, &next, 8);
        memcpy(buf + used + 16, &reclen, 2);
        buf[used + 18] = type;
        memcpy(buf + used + 19, name, nl);
        used += reclen;
        k++;
    }
    lseek(hfd, (off_t)k, SEEK_SET);
    return (int64_t)used;
}

/* ---- mem ---------------------------------------------------------------------------------- */

/* The guest's own buffer: mapped with the access a read() or write() needs. */
static bool buffer_ok(mem_t *m, uint64_t addr, uint64_t len, int need)
{
    if (addr + len < addr) return false;
    for (uint64_t a = addr & ~GUEST_PAGE_MASK; a < addr + len; a += GUEST_PAGE_SIZE) {
        const guest_page_t *pg = mem_page(m, a);
        if (!pg || !(pg->prot & need)) return false;
    }
    return true;
}

int64_t procfs_mem_io(struct sys *s, int g, uint64_t addr, uint64_t len, int64_t off, bool write)
{
    int hfd = s->host_fd[g];
    int acc = fcntl(hfd, F_GETFL) & O_ACCMODE;
    if (write ? acc == O_RDONLY : acc == O_WRONLY) return -EBADF;
    if (len > (64u << 20)) len = 64u << 20;
    if (!buffer_ok(s->mem, addr, len, write ? MEM_PROT_READ : MEM_PROT_WRITE)) return -EFAULT;
    off_t cur = off >= 0 ? (off_t)off : lseek(hfd, 0, SEEK_CUR);
    if (cur < 0) return -errno;
    uint64_t pos = (uint64_t)cur, done = 0;
    uint8_t page[GUEST_PAGE_SIZE];
    while (done < len) {
        uint64_t at = pos + done, n = GUEST_PAGE_SIZE - (at & GUEST_PAGE_MASK);
        if (n > len - done) n = len - done;
        if (!mem_page(s->mem, at)) break;                /* unmapped: stop here */
        if (write) {                                     /* any mapped page (FOLL_FORCE) */
            mem_read(s->mem, addr + done, page, n);
            mem_write(s->mem, at, page, n);              /* drops decoded instructions */
        } else {
            mem_read(s->mem, at, page, n);
            mem_write(s->mem, addr + done, page, n);
        }
        done += n;
    }
    if (!done && len) return -EIO;
    if (off < 0) lseek(hfd, (off_t)(pos + done), SEEK_SET);
    return (int64_t)done;
}
