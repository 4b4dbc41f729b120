/*
 * handlers.c - the profile handlers of the guest runtime, in C.  Each one
 * appends one sample to the profile buffer `hps_profile` (hps_profile.h).
 * They are reached through the assembly stubs of stubs.S, which switch to
 * the runtime's stack, save every register C may clobber and load the
 * arguments from the DISE registers d8..d11.
 *
 * Built freestanding for rv64imac/lp64 with -mcmodel=medany -mno-relax: no
 * FP registers and no gp/tp use, because while a handler runs gp, tp and the
 * FP registers still hold the program's values.
 */
#include "hps_insn.h"
#include "hps_profile.h"

/* The host writes magic, version and capacity when it loads the runtime. */
hps_profile_t hps_profile;

/* Append one sample; a full buffer is first handed to the host. */
static inline __attribute__((always_inline))
void hps_append(uint64_t kind, uint64_t a, uint64_t b, uint64_t c)
{
    hps_profile_t *p = &hps_profile;
    uint64_t n = p->hdr.count;
    if (__builtin_expect(n >= HPS_PROFILE_CAPACITY, 0)) {
        p->hdr.flushes++;
        hps_flush();
        n = p->hdr.count;
        if (n >= HPS_PROFILE_CAPACITY) {     /* the host did not drain it */
            p->hdr.dropped++;
            return;
        }
    }
    hps_sample_t *s = &p->samples[n];
    s->kind = kind;
    s->a = a;
    s->b = b;
    s->c = c;
    p->hdr.count = n + 1;
}

/* Hot method: the method is named by the target of the call or back-edge. */
void hps_hot_method(uint64_t pc, uint64_t target)
{
    hps_append(HPS_SAMPLE_METHOD, target, pc, 0);
}

void hps_call_pair(uint64_t pc, uint64_t target)
{
    hps_append(HPS_SAMPLE_CALL_PAIR, pc, target, 0);
}

void hps_data_stream(uint64_t pc, uint64_t ea, uint64_t burst)
{
    hps_append(HPS_SAMPLE_DATA, pc, ea, burst);
}

/* ---- PP on DISE (tools/hps-pp-acf.c) -------------------------------------------------
 * The path register lives in d0.  A call pushes the caller's, with the
 * return address and the program's sp at the call; the instruction at the
 * return address pops it when control comes back from that call (same pc,
 * same sp), and leaves d0 alone when a branch brought it there.  Entries
 * whose sp lies below the current one belong to frames a longjmp left:
 * they are dropped and d0 is poisoned (a path number no procedure has), so
 * the path in flight is counted as lost, as the exact recorder does. */
#define PATH_STACK 65536
#define PATH_POISON (1ull << 62)
static struct { uint64_t r, ret, sp; } path_stack[PATH_STACK];
static uint64_t path_depth, path_overflows;

void hps_path_count(uint64_t entry, uint64_t sum)
{
    hps_append(HPS_SAMPLE_PATH, entry, sum, 0);
}

void hps_path_push(uint64_t r, uint64_t ret)
{
    if (path_depth == PATH_STACK) {
        path_overflows++;
        return;
    }
    path_stack[path_depth].r = r;
    path_stack[path_depth].ret = ret;
    path_stack[path_depth].sp = hps_mfd13();
    path_depth++;
}

void hps_path_pop(uint64_t pc)
{
    uint64_t sp = hps_mfd13();
    int dropped = 0;
    while (path_depth && path_stack[path_depth - 1].sp < sp) {
        path_depth--;
        dropped = 1;
    }
    if (path_depth && path_stack[path_depth - 1].ret == pc && path_stack[path_depth - 1].sp == sp) {
        path_depth--;
        hps_mtd0(path_stack[path_depth].r);
    } else if (dropped || path_overflows) {
        hps_mtd0(PATH_POISON);
    }
}
