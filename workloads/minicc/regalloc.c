/* regalloc.c - linear-scan register allocation for minicc: live intervals
 * from CFG liveness, allocation over NUM_REGS physical registers with
 * furthest-end spilling, and an independent interference check of the
 * result against instruction-level liveness. */
#include "minicc.h"
#include <stdlib.h>
#include <string.h>

typedef struct interval {
    int vreg, start, end;
} interval;

static void extend(interval *iv, int v, int p)
{
    if (iv[v].start < 0 || p < iv[v].start)
        iv[v].start = p;
    if (p > iv[v].end)
        iv[v].end = p;
}

static void build_intervals(const irfn *f, const cfg *c, interval *iv)
{
    for (int v = 0; v < f->nvregs; v++) {
        iv[v].vreg = v;
        iv[v].start = -1;
        iv[v].end = -1;
    }
    for (int v = 0; v < f->nparams; v++)
        extend(iv, v, 0);
    for (int b = 0; b < c->nblocks; b++) {
        const uint64_t *in = c->livein + (size_t)b * c->words;
        const uint64_t *out = c->liveout + (size_t)b * c->words;
        for (int w = 0; w < c->words; w++) {
            uint64_t bi = in[w], bo = out[w];
            while (bi) {
                extend(iv, w * 64 + __builtin_ctzll(bi), c->start[b]);
                bi &= bi - 1;
            }
            while (bo) {
                extend(iv, w * 64 + __builtin_ctzll(bo), c->end[b] - 1);
                bo &= bo - 1;
            }
        }
        for (int p = c->start[b]; p < c->end[b]; p++) {
            int uses[64], n = ins_uses(&f->code[p], uses);
            for (int k = 0; k < n; k++)
                extend(iv, uses[k], p);
            int d = ins_def(&f->code[p]);
            if (d >= 0)
                extend(iv, d, p);
        }
    }
}

static int cmp_start(const void *a, const void *b)
{
    const interval *x = a, *y = b;
    if (x->start != y->start)
        return x->start - y->start;
    return x->vreg - y->vreg;
}

static void linear_scan(irfn *f, interval *iv, int n, ra_stats *st)
{
    interval *active[NUM_REGS];
    int nactive = 0, free_regs[NUM_REGS], nfree = NUM_REGS;
    for (int r = 0; r < NUM_REGS; r++)
        free_regs[r] = NUM_REGS - 1 - r;
    for (int k = 0; k < n; k++) {
        interval *cur = &iv[k];
        /* expire old intervals */
        for (int a = 0; a < nactive; a++)
            if (active[a]->end < cur->start) {
                free_regs[nfree++] = f->reg[active[a]->vreg];
                active[a--] = active[--nactive];
            }
        if (nfree > 0) {
            f->reg[cur->vreg] = free_regs[--nfree];
            active[nactive++] = cur;
            continue;
        }
        int victim = 0;
        for (int a = 1; a < nactive; a++)
            if (active[a]->end > active[victim]->end ||
                (active[a]->end == active[victim]->end && active[a]->vreg > active[victim]->vreg))
                victim = a;
        st->spilled++;
        if (active[victim]->end > cur->end) {
            int v = active[victim]->vreg;
            f->reg[cur->vreg] = f->reg[v];
            f->reg[v] = -1;
            f->slot[v] = f->nslots++;
            active[victim] = cur;
        } else {
            f->slot[cur->vreg] = f->nslots++;
        }
    }
}

/* Two simultaneously live values must never share a register. */
static long check_allocation(const irfn *f, const cfg *c)
{
    long conflicts = 0;
    uint64_t *live = malloc((size_t)c->words * sizeof(uint64_t));
    for (int b = 0; b < c->nblocks; b++) {
        memcpy(live, c->liveout + (size_t)b * c->words, (size_t)c->words * sizeof(uint64_t));
        for (int p = c->end[b] - 1; p >= c->start[b]; p--) {
            const ins *i = &f->code[p];
            int d = ins_def(i);
            if (d >= 0 && f->reg[d] >= 0)
                for (int w = 0; w < c->words; w++)
                    for (uint64_t bits = live[w]; bits; bits &= bits - 1) {
                        int v = w * 64 + __builtin_ctzll(bits);
                        if (v != d && f->reg[v] == f->reg[d])
                            conflicts++;
                    }
            if (d >= 0)
                live[d >> 6] &= ~(1ULL << (d & 63));
            int uses[64], n = ins_uses(i, uses);
            for (int k = 0; k < n; k++)
                live[uses[k] >> 6] |= 1ULL << (uses[k] & 63);
        }
    }
    free(live);
    return conflicts;
}

void regalloc(irfn *f, ra_stats *st)
{
    cfg *c = cfg_build(f);
    cfg_liveness(c, f);
    interval *iv = malloc((size_t)(f->nvregs ? f->nvregs : 1) * sizeof(interval));
    build_intervals(f, c, iv);
    free(f->reg);
    free(f->slot);
    f->reg = malloc((size_t)(f->nvregs ? f->nvregs : 1) * sizeof(int));
    f->slot = malloc((size_t)(f->nvregs ? f->nvregs : 1) * sizeof(int));
    f->nslots = 0;
    for (int v = 0; v < f->nvregs; v++)
        f->reg[v] = f->slot[v] = -1;
    int n = 0;
    for (int v = 0; v < f->nvregs; v++)
        if (iv[v].start >= 0)
            iv[n++] = iv[v];
    qsort(iv, (size_t)n, sizeof(interval), cmp_start);
    st->intervals += n;
    linear_scan(f, iv, n, st);
    st->conflicts += check_allocation(f, c);
    free(iv);
    cfg_free(c);
}
