/*
 * dcpicalc.c - frequency, CPI and culprits of a procedure's instructions
 * from CYCLES samples (dcpicalc.h; SOSP'97 section 6), and the reader of
 * the ground-truth files they are scored against (hps-dcpicalc --truth).
 */
#include "dcpicalc.h"

#include <elf.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "pmu.h"
#include "symtab.h"
#include "util.h"

const char *const dcpicalc_confidence_names[] = { "none", "propagated", "low", "medium", "high" };

enum {
    SMALL_CLASS = 100,          /* fewer samples: sum(S) / sum(M)            */
    MIN_CLUSTER_SAMPLES = 16,   /* a cluster must rest on at least these     */
    MIN_CLEAN_POINTS = 2,       /* a cluster of points that cannot stall     */
};
/* An issue point belongs to the cluster of frequency F when its samples
 * are within CLUSTER_Z standard deviations of F x M (Poisson), or within
 * CLUSTER_MIN_SPREAD of it.  (The window before this one ran from the
 * smallest ratio up by 2.5 standard deviations of the relative difference,
 * capped at 20%, and the cluster's mean sat above F: 79.1% of samples
 * within 5% on the first 8 short-period runs of measure_accuracy.sh, 79.9%
 * with this window; a fixed 1.2x window had 73.2% on 13 runs.) */
#define CLUSTER_Z 2.5
#define CLUSTER_MIN_SPREAD 0.02

/* ---- issue points and clusters --------------------------------------------------- */

typedef struct point {
    double ratio;
    uint64_t s, m;
    bool clean;                 /* no instruction of its group can stall (may_stall) */
    bool pairs;                 /* a block head that may issue with its predecessor's
                                   stalled last instruction (head_may_pair) */
    uint64_t imiss;             /* IMISS samples of the instructions summed in s */
} point_t;

/* Is point p what frequency f predicts, within the samples' Poisson noise
 * (CLUSTER_Z standard deviations of f x M, at least CLUSTER_MIN_SPREAD of
 * it)?  Symmetric: a point far below f x M says f is too high as surely as
 * one far above says that point stalled. */
static bool consistent(const point_t *p, double f)
{
    double e = f * (double)p->m;
    double tol = fmax(CLUSTER_Z * sqrt(e), CLUSTER_MIN_SPREAD * e);
    return fabs((double)p->s - e) <= tol;
}

typedef struct cluster { size_t n; uint64_t s, m, imiss; bool pairs; } cluster_t;

/* The points consistent with frequency f. */
static cluster_t cluster_at(const point_t *pts, size_t n, double f)
{
    cluster_t c = { 0 };
    for (size_t k = 0; k < n; k++)
        if (consistent(&pts[k], f)) {
            c.n++;
            c.s += pts[k].s;
            c.m += pts[k].m;
            c.imiss += pts[k].imiss;
            c.pairs |= pts[k].pairs;
        }
    return c;
}

/* Take the cluster at frequency f for *best when it holds more points (or,
 * unless `more`, as many at a lower f). */
static void propose(const point_t *pts, size_t n, double f, bool more, cluster_t *best,
                    double *best_f)
{
    cluster_t c = cluster_at(pts, n, f);
    if (c.n > best->n || (!more && c.n == best->n && c.n && f < *best_f)) {
        *best = c;
        *best_f = f;
    }
}

static int by_ratio(const void *a, const void *b)
{
    double x = ((const point_t *)a)->ratio, y = ((const point_t *)b)->ratio;
    return (x > y) - (x < y);
}

/* The cluster: of the frequencies the points' own ratios propose, the one
 * the most points are consistent with (the lowest among equals), then
 * re-centred on its points' sum(S) / sum(M) until they stay the same.
 * With `pooled`, the pooled ratio of each two points adjacent in ratio is
 * proposed too, taken only where it holds more points than any point's
 * own ratio: two points can each lie beyond the other's noise and within
 * the noise of their pooled ratio (objdb Alpha's cmp_by_dept_salary: its
 * two points that cannot stall, 1864 and 1985 samples, made no cluster,
 * and the class took sum(S) / sum(M) of all its instructions, 5.3 times
 * its count).  (Taken as the lowest among equals too, it also moved
 * clusters of two points to a lower pair: Alpha maze_route's
 * grid_neighbors, -1.8% -> -9.6%.) */
static cluster_t best_cluster(const point_t *pts, size_t n, bool pooled)
{
    cluster_t best = { 0 };
    double best_f = 0;
    for (size_t k = 0; k < n; k++) propose(pts, n, pts[k].ratio, false, &best, &best_f);
    if (pooled && n > 1) {
        point_t *sorted = xcalloc(n, sizeof *sorted);
        memcpy(sorted, pts, n * sizeof *sorted);
        qsort(sorted, n, sizeof *sorted, by_ratio);
        for (size_t k = 1; k < n; k++)
            propose(pts, n, (double)(sorted[k - 1].s + sorted[k].s) /
                            (double)(sorted[k - 1].m + sorted[k].m), true, &best, &best_f);
        free(sorted);
    }
    for (int round = 0; round < 8 && best.m; round++) {
        cluster_t c = cluster_at(pts, n, (double)best.s / (double)best.m);
        if (!c.m || (c.n == best.n && c.s == best.s && c.m == best.m && c.pairs == best.pairs))
            break;
        best = c;
    }
    return best;
}

/* A class too small for a cluster (under SMALL_CLASS samples) took sum(S)
 * / sum(M) of all its instructions, every dynamic stall in it counted as
 * frequency: at the paper's period (60000-64000, one `ref` run each) such
 * classes held 43% of rv64 minicc's samples, at a median of 1.20 times
 * their count (weighted by samples).  Where its points that cannot stall
 * (point_t.clean) hold at least CLEAN_RATIO_SAMPLES samples and the ratio
 * of all of it is above theirs by more than CLUSTER_Z standard deviations
 * of their Poisson noise (the stall is evident), their sum(S) / sum(M) is
 * taken instead: no bias from the stalls, only the noise of fewer
 * samples.  Short of that evidence the ratio of all of it stays: on the
 * short-period runs a class of 30-100 samples that flow then propagates
 * into a large one (rv64 bwt_compress's memcmp: 1315 samples from its
 * neighbours, 1.02 -> 0.84 of its count) moved by the clean points' noise
 * alone.  (Taken too for a class of more samples whose points make no
 * cluster, it cost alpha minicc's short-period run 0.4 points within 5%.) */
enum { CLEAN_RATIO_SAMPLES = 4 };
static double small_class_ratio(const point_t *pts, size_t n, uint64_t s_sum, uint64_t m_sum)
{
    uint64_t s = 0, m = 0;
    for (size_t k = 0; k < n; k++)
        if (pts[k].clean) s += pts[k].s, m += pts[k].m;
    double all = (double)s_sum / (double)m_sum;
    if (!m || s < CLEAN_RATIO_SAMPLES) return all;
    double clean = (double)s / (double)m;
    return all > clean * (1 + CLUSTER_Z / sqrt((double)s)) ? clean : all;
}

/* F of one class from its issue points; *conf how sure, *points how many
 * issue points the cluster holds.  The cluster is sought first among the
 * points that cannot stall (no culprit the rules could list for any
 * instruction of their group: point_t.clean), when at least
 * MIN_CLEAN_POINTS of them agree: samples beyond F x M come only from
 * dynamic stalls (DCPI: "if the issue point incurs dynamic stalls, S_i
 * will increase"), and the points that may stall, a few percent each, can
 * outnumber them in a cluster of their own (objdb's key_dept_salary, one
 * block of 25 instructions around a call, its stores behind a missing
 * load: -5.6% from all its points, -2.3% from those that cannot stall;
 * over the 24 short-period runs of measure_accuracy.sh 83.1 -> 83.8% of
 * samples within 5%).  Else the cluster of all the points.  *paired: the
 * cluster is one point that may pair (point_t.pairs), so F may be low.
 * *single: the cluster when it is one point (its M and IMISS samples for
 * unstall_single_points), else zero. */
static double estimate_class(point_t *pts, size_t n, uint64_t s_sum, uint64_t m_sum, int *conf,
                             int *points, bool *paired, cluster_t *single)
{
    *points = 0;
    *paired = false;
    *single = (cluster_t){ 0 };
    if (!n || !m_sum) { *conf = CONF_NONE; return -1; }
    if (s_sum < SMALL_CLASS) {
        *conf = s_sum >= 30 ? CONF_MEDIUM : CONF_LOW;
        return small_class_ratio(pts, n, s_sum, m_sum);
    }
    /* the points that cannot stall, when enough of them agree */
    point_t *clean = xcalloc(n, sizeof *clean);
    size_t nclean = 0;
    for (size_t k = 0; k < n; k++)
        if (pts[k].clean) clean[nclean++] = pts[k];
    if (nclean >= MIN_CLEAN_POINTS) {
        cluster_t c = best_cluster(clean, nclean, true);
        if (c.n >= (nclean + 3) / 4 && c.n >= MIN_CLEAN_POINTS && c.s >= MIN_CLUSTER_SAMPLES) {
            free(clean);
            *points = (int)c.n;
            *conf = c.n >= 3 && s_sum >= 400 ? CONF_HIGH : CONF_MEDIUM;
            return (double)c.s / (double)c.m;
        }
    }
    free(clean);
    size_t need = (n + 3) / 4;
    cluster_t c = best_cluster(pts, n, false);
    if (c.n >= need && c.s >= MIN_CLUSTER_SAMPLES) {
        *points = (int)c.n;
        *paired = c.n == 1 && c.pairs;
        if (c.n == 1) *single = c;
        *conf = c.n >= 3 && s_sum >= 400 ? CONF_HIGH : CONF_MEDIUM;
        return (double)c.s / (double)c.m;
    }
    *conf = CONF_LOW;                            /* no tight cluster: all of it */
    return (double)s_sum / (double)m_sum;
}

/* A culprit mask's mark of a dependency on the caller (beyond the stall
 * causes' bits; culprits_of turns it into STALL_DEP or drops it). */
#define CALLER_DEP (1u << STALL_COUNT)
/* The mark of a load's hit latency that DMISS samples near the waiting
 * instruction put in doubt (writer_culprits; culprits_of turns it into
 * STALL_DEP where the misses cannot explain the stall, or drops it). */
#define HIT_DEP (1u << (STALL_COUNT + 1))

/* The issue points of block b as points of their issue groups: an issue
 * point with the instructions after it that its static schedule issues in
 * the same cycle (M = 0), their samples summed.  Which instruction of a
 * group is at the head when the group issues depends on what issued
 * before the block (its first instruction may pair with the last one of a
 * predecessor, moving the group's cycle to the next instruction), which
 * the block's own schedule cannot know; the group's sum does not depend
 * on it.  An instruction that may wait for an operand (loaded, or from a
 * callee or a long operation: operand_culprits; not the caller's value,
 * listed only where nothing else explains a stall) is left out: its
 * samples are more likely its own stall.  So is a store that follows another
 * closely (store_burst), with the instructions of its group, in a block
 * of more stores than the write buffer holds: the buffer cannot drain as
 * fast as they come, and in a loop each of them waits (gametree's memset:
 * eight stores each at 1.7-1.9 cycles where M is 1 or 0 clustered at 1.9
 * times the true count; its branch, M 1 and never stalled, says -4%).  (In
 * any block, they cost netflow's tree_reroot a good point: 95% -> 90% of
 * its samples within 5%.)  Such a store is left out as a follower too
 * (M = 0, issued with the point before it in the schedule): in the run it
 * takes a cycle of its own waiting for the buffer, and the group's sum is
 * two cycles an execution where M says one (objdb Alpha's key_dept_salary:
 * `stq_u zero` after `stq_u t2`, `stl` after `ldq`; three such groups
 * agreed on 2.05 times the count; 86.62 -> 86.86% of samples within 5% on
 * the 24 short-period runs).  The number of points written to pts. */
static uint32_t operand_culprits(const dcpicalc_t *dc, size_t b, size_t k);
static bool store_burst(const cfg_t *g, size_t b, size_t k);
static unsigned block_stores(const cfg_t *g, size_t b);
static bool may_stall(const dcpicalc_t *dc, size_t b, size_t k);

/* Whether block b's first instruction may issue in the cycle its
 * predecessor's last one does after a stall: b is entered by falling
 * through from a block whose last instruction is no transfer and may stall
 * (b starts there only because something jumps to it).  Its samples then
 * land on that instruction, and a point resting on them alone is low
 * (glibc's _wordcopy_bwd_aligned, Duff's device: each `ld` at a case label
 * issues with the `sd` before it, which waits for a missing load; 7-417
 * samples where the loop runs 200 K times). */
static bool head_may_pair(const dcpicalc_t *dc, size_t b)
{
    if (!b) return false;
    const cfg_block_t *p = &dc->cfg.blocks[b - 1];
    size_t last = p->first + p->n - 1;
    return !(dc->cfg.insns[last].flags & IF_TRANSFER) && may_stall(dc, b - 1, last);
}

static size_t issue_groups(const dcpicalc_t *dc, size_t b, point_t *pts)
{
    const cfg_block_t *blk = &dc->cfg.blocks[b];
    size_t n = 0;
    uint64_t lead = 0;                 /* samples of M = 0 instructions before the first point */
    uint64_t lead_imiss = 0;           /* and their IMISS samples */
    bool left_out = false;             /* the group's point was left out */
    bool lead_clean = true;
    bool drains_behind = dc->wbuf_entries && block_stores(&dc->cfg, b) > dc->wbuf_entries;
    for (size_t k = blk->first; k < blk->first + blk->n; k++) {
        const dcpicalc_insn_t *x = &dc->insn[k];
        bool burst = drains_behind && (dc->cfg.insns[k].flags & IF_STORE) &&
                     store_burst(&dc->cfg, b, k);
        if (!x->sched.head) {
            if (left_out || burst || (operand_culprits(dc, b, k) & ~CALLER_DEP))
                continue;                                   /* may wait on its own */
            if (n) pts[n - 1].s += x->samples, pts[n - 1].imiss += x->imiss;
            else lead += x->samples, lead_imiss += x->imiss;
            if (n) pts[n - 1].clean &= !may_stall(dc, b, k);
            else lead_clean &= !may_stall(dc, b, k);
            continue;
        }
        left_out = burst;
        if (left_out) continue;
        pts[n++] = (point_t){ 0, x->samples + lead, x->sched.head,
                              lead_clean && !may_stall(dc, b, k),
                              k == blk->first && head_may_pair(dc, b),
                              x->imiss + lead_imiss };
        lead = lead_imiss = 0;
        lead_clean = true;
    }
    for (size_t k = 0; k < n; k++) pts[k].ratio = (double)pts[k].s / (double)pts[k].m;
    return n;
}

static void estimate_classes(dcpicalc_t *dc)
{
    const cfg_t *g = &dc->cfg;
    for (int c = 0; c < g->nclasses; c++) {
        point_t *pts = xcalloc(g->ninsns + 1, sizeof *pts);
        size_t n = 0;
        uint64_t s_sum = 0, m_sum = 0;
        for (size_t b = 0; b < g->nblocks; b++) {
            if (g->blocks[b].cls != c) continue;
            n += issue_groups(dc, b, pts + n);
            for (size_t k = g->blocks[b].first; k < g->blocks[b].first + g->blocks[b].n; k++) {
                s_sum += dc->insn[k].samples;
                m_sum += dc->insn[k].sched.head;
            }
        }
        cluster_t single;
        dc->class_freq[c] = estimate_class(pts, n, s_sum, m_sum, &dc->class_conf[c],
                                           &dc->class_points[c], &dc->class_paired[c], &single);
        dc->class_single_m[c] = single.m;
        dc->class_single_imiss[c] = single.imiss;
        free(pts);
    }
}

/* ---- local propagation -------------------------------------------------------------- */

/* What a class's value can be trusted as, while the flow refinement
 * (refine_single_points) derives values: an estimate of several agreeing
 * issue points (EXACT, within its noise), the estimate of one issue point
 * (UPPER: its dynamic stalls count as frequency), or a value that may be
 * too low (UNSAFE: an upper bound subtracted from something).  A sum of
 * exact values and upper bounds is an upper bound; a difference is only as
 * good as its first term when everything subtracted is exact, and unsafe
 * otherwise (objdb's find_slot: its back edge, 119000 executions, came
 * out as 15 x 525 = 7800 from the block before it less a one-point
 * successor taken 2.8x too high). */
enum { BOUND_EXACT, BOUND_UPPER, BOUND_UNSAFE };

static double block_freq(const dcpicalc_t *dc, int b)
{
    return b < 0 ? -1 : dc->class_freq[dc->cfg.blocks[b].cls];
}

static int sum_bound(int a, int b) { return a > b ? a : b; }
static int difference_bound(int first, int subtracted)
{
    return subtracted == BOUND_EXACT ? first : BOUND_UNSAFE;
}

static void set_class(dcpicalc_t *dc, int cls, double f, bool *changed, int locked, int *bound,
                      int kind)
{
    if (dc->class_freq[cls] >= 0 || cls == locked) return;
    dc->class_freq[cls] = f < 0 ? 0 : f;         /* no negative estimates */
    dc->class_conf[cls] = CONF_PROPAGATED;
    if (bound) bound[cls] = kind;
    *changed = true;
}

/* The flow into (in = true) or out of block b: the sum of its edges, if
 * all but at most one are known; *unknown = that edge, or -1; *kind the
 * sum's bound (when bound is not NULL). */
static bool edge_sum(const dcpicalc_t *dc, int b, bool in, double *sum, long *unknown,
                     const int *bound, int *kind)
{
    *sum = 0;
    *unknown = -1;
    *kind = BOUND_EXACT;
    for (size_t e = 0; e < dc->cfg.nedges; e++) {
        const cfg_edge_t *x = &dc->cfg.edges[e];
        if ((in ? x->to : x->from) != b) continue;
        double f = dc->class_freq[x->cls];
        if (f >= 0) {
            *sum += f;
            if (bound) *kind = sum_bound(*kind, bound[x->cls]);
        } else if (*unknown >= 0) {
            return false;
        } else {
            *unknown = (long)e;
        }
    }
    return true;
}

/* Local propagation; class `locked` (or -1) is left unknown.  With bound
 * (not NULL), each class derived gets its bound there. */
static void propagate(dcpicalc_t *dc, int locked, int *bound)
{
    for (bool changed = true; changed;) {
        changed = false;
        for (int b = 0; b < (int)dc->cfg.nblocks; b++) {
            if (!dc->cfg.blocks[b].live) continue;
            int self = dc->cfg.blocks[b].cls;
            for (int side = 0; side < 2; side++) {
                double sum;
                long unknown;
                int kind;
                if (!edge_sum(dc, b, side == 0, &sum, &unknown, bound, &kind)) continue;
                double f = block_freq(dc, b);
                if (unknown < 0 && f < 0)
                    set_class(dc, self, sum, &changed, locked, bound, kind);
                else if (unknown >= 0 && f >= 0)
                    set_class(dc, dc->cfg.edges[unknown].cls, f - sum, &changed, locked, bound,
                              bound ? difference_bound(bound[self], kind) : 0);
            }
        }
    }
}

/* ---- single issue points by flow ----------------------------------------------------- */

/* Samples of class c's instructions. */
static uint64_t class_samples(const dcpicalc_t *dc, int c)
{
    uint64_t s = 0;
    for (size_t b = 0; b < dc->cfg.nblocks; b++)
        if (dc->cfg.blocks[b].cls == c)
            for (size_t k = dc->cfg.blocks[b].first; k < dc->cfg.blocks[b].first + dc->cfg.blocks[b].n;
                 k++)
                s += dc->insn[k].samples;
    return s;
}

/* The value of class c that one flow equation of block b (its in-edges,
 * or its out-edges, summing to its frequency) gives when c is its only
 * unknown; < 0 when it gives none.  *guess: the value is a difference
 * that subtracts a class not known exactly (bound: each class's kind),
 * an upper bound that can leave anything below the truth. */
static double solve_equation(const dcpicalc_t *dc, int b, bool in, int c, const int *bound,
                             bool *guess)
{
    int self = dc->cfg.blocks[b].cls, coef = self == c;
    double known = self == c ? 0 : dc->class_freq[self];
    bool exact_terms = true;
    if (known < 0) return -1;
    for (size_t e = 0; e < dc->cfg.nedges; e++) {
        const cfg_edge_t *x = &dc->cfg.edges[e];
        if ((in ? x->to : x->from) != b) continue;
        if (x->cls == c) { coef--; continue; }
        if (dc->class_freq[x->cls] < 0) return -1;
        known -= dc->class_freq[x->cls];
        exact_terms &= bound[x->cls] == BOUND_EXACT;
    }
    *guess = coef < 0 && !exact_terms;           /* c = the block less the other edges */
    return coef ? -known / coef : -1;
}

/* The least class c (a block's class) can be: on each side of each of its
 * blocks, the sum of the edges known exactly (the others are >= 0). */
static double flow_floor(const dcpicalc_t *dc, int c, const int *bound)
{
    double floor = 0;
    for (int b = 0; b < (int)dc->cfg.nblocks; b++) {
        if (!dc->cfg.blocks[b].live || dc->cfg.blocks[b].cls != c) continue;
        for (int side = 0; side < 2; side++) {
            double sum = 0;
            for (size_t e = 0; e < dc->cfg.nedges; e++) {
                const cfg_edge_t *x = &dc->cfg.edges[e];
                if ((side == 0 ? x->to : x->from) != b || x->cls == c) continue;
                if (dc->class_freq[x->cls] >= 0 && bound[x->cls] == BOUND_EXACT)
                    sum += dc->class_freq[x->cls];
            }
            if (sum > floor) floor = sum;
        }
    }
    return floor;
}

/* What the flow constraints make of class c from every other class with an
 * estimate of its own (est[k] >= 0) but the hidden ones: the others are
 * propagated without c, then each equation with c as its only unknown
 * gives a value; the lowest positive one (the estimates it is made of are
 * upper bounds), or < 0 -- also when it is below what the edges known
 * exactly leave for c: an equation that subtracts an over-estimated
 * one-point class can give anything (objdb's find_slot: its back edge,
 * 119084 executions, came out as 192 - 177 samples' worth = 7800, where
 * the only edge into its successor, known exactly, carries 226 x 525).
 * For the same reason a difference that subtracts an estimate not known
 * exactly (solve_equation's guess) counts only where c's own estimate is
 * GUESS_FACTOR times it or more: a stall that makes a point's samples
 * several times what its count gives (net_bbox_update's beq, waiting 50
 * cycles for a load) is worth the risk; a few tens of percent are not
 * (rv64 strncmp, a loop of one-point classes, each a branch that stalls a
 * cycle or two: corrections that subtracted each other's estimates left
 * 22% of its 80 K samples within 5% of their count, 91% without them). */
enum { GUESS_FACTOR = 4 };

/* A difference that is 0 in exact arithmetic may round to a residue just
 * above it; taken as a lowered estimate it made Alpha bigint_interp's
 * _IO_default_xsputn run 2^-54 times an interrupt (a CPI of 3.6e16 on 1,252
 * true executions, the run's CPI mean absolute error 5.9e12 cycles).  One
 * execution at a period of 2^32 cycles is 2.3e-10: nothing real is below. */
#define FLOW_RESIDUE 1e-12
static double derive_by_flow(dcpicalc_t *dc, const double *est, const int *est_bound, int c,
                             int *bound, const bool *hidden)
{
    size_t nc = (size_t)dc->cfg.nclasses;
    for (size_t k = 0; k < nc; k++) dc->class_freq[k] = (int)k == c || hidden[k] ? -1 : est[k];
    memcpy(bound, est_bound, nc * sizeof *bound);
    propagate(dc, c, bound);
    double low = -1;
    for (int b = 0; b < (int)dc->cfg.nblocks; b++) {
        if (!dc->cfg.blocks[b].live) continue;
        for (int side = 0; side < 2; side++) {
            bool guess;
            double v = solve_equation(dc, b, side == 0, c, bound, &guess);
            if (v <= 0 || (guess && est[c] < GUESS_FACTOR * v)) continue;
            if (low < 0 || v < low) low = v;
        }
    }
    return low >= 0 && low < flow_floor(dc, c, bound) ? -1 : low;
}

/* The noise of class c's estimate, relative: CLUSTER_Z standard
 * deviations of its samples, at least 5%. */
static double class_noise(const dcpicalc_t *dc, int c)
{
    return fmax(0.05, CLUSTER_Z / sqrt((double)class_samples(dc, c) + 1));
}

enum { MAX_FLOW_ROUNDS = 64 };

/* Move the classes marked movable to what derive_by_flow makes of them
 * (the others hidden), one at a time, the furthest first: down where
 * lower, where flow gives less than the estimate by more than its noise,
 * else up where it gives more, a class raised being then neither movable
 * nor hidden.  A class moved takes confidence "propagated". */
static void move_by_flow(dcpicalc_t *dc, const int *est_bound, bool *movable, bool *hidden,
                         bool lower)
{
    size_t nc = (size_t)dc->cfg.nclasses;
    double *tol = xcalloc(nc, sizeof *tol), *est = xcalloc(nc, sizeof *est);
    int *bound = xcalloc(nc, sizeof *bound), *conf = xcalloc(nc, sizeof *conf);
    memcpy(est, dc->class_freq, nc * sizeof *est);
    memcpy(conf, dc->class_conf, nc * sizeof *conf);
    for (size_t c = 0; c < nc; c++)
        if (movable[c]) tol[c] = class_noise(dc, (int)c);
    for (int round = 0; round < MAX_FLOW_ROUNDS; round++) {
        int best = -1;
        double best_ratio = 1, best_f = 0;
        for (size_t c = 0; c < nc; c++) {
            if (!movable[c] || est[c] <= 0) continue;
            double d = derive_by_flow(dc, est, est_bound, (int)c, bound, hidden);
            bool far = lower ? d < est[c] * (1 - tol[c]) : d > est[c] * (1 + tol[c]);
            double ratio = lower ? est[c] / d : d / est[c];
            if (d <= FLOW_RESIDUE || !far || ratio <= best_ratio) continue;
            best = (int)c;
            best_ratio = ratio;
            best_f = d;
        }
        if (best < 0) break;
        est[best] = best_f;                       /* lowered, it may go lower still */
        conf[best] = CONF_PROPAGATED;
        if (!lower) movable[best] = hidden[best] = false;
    }
    memcpy(dc->class_freq, est, nc * sizeof *est);
    memcpy(dc->class_conf, conf, nc * sizeof *conf);
    free(tol);
    free(est);
    free(bound);
    free(conf);
}

/* A class whose estimate rests on a single issue point takes every
 * dynamic stall of it as frequency (a one-instruction block at a branch
 * target takes its misprediction, the consumer of a missing load its
 * wait), so its estimate is an upper bound.  Where the flow constraints
 * with the other estimated classes determine such a class lower than
 * its own estimate by more than the samples' noise, the lower value is
 * taken (confidence "propagated"), the class furthest over first, one at
 * a time, so that a corrected class corrects what depends on it (DCPI's
 * section 6.1.3: "the best we can do is exploit flow constraints").
 * On return class_freq holds the estimates (< 0 for classes without). */
static void refine_single_points(dcpicalc_t *dc)
{
    size_t nc = (size_t)dc->cfg.nclasses;
    if (dc->cfg.missing_edges || !nc) return;
    bool *suspect = xcalloc(nc, sizeof *suspect);
    int *est_bound = xcalloc(nc, sizeof *est_bound);
    for (size_t c = 0; c < nc; c++) {
        int conf = dc->class_conf[c];
        suspect[c] = dc->class_freq[c] > 0 && dc->class_points[c] <= 1 &&
                     !dc->class_paired[c] && (conf == CONF_LOW || conf == CONF_MEDIUM);
        est_bound[c] = suspect[c] ? BOUND_UPPER : BOUND_EXACT;
    }
    move_by_flow(dc, est_bound, suspect, dc->class_paired, true);
    free(suspect);
    free(est_bound);
}

/* A class resting on one block head that may issue with its predecessor's
 * stalled last instruction (class_paired) can be low, and refine_single_points
 * derives nothing from it.  Where the flow constraints with the other
 * estimates give such a class more than its own estimate by more than its
 * noise, it takes that value (the lowest an equation gives: the others
 * are upper bounds; confidence "propagated"), the class furthest under
 * first, one at a time, so that a raised class can raise the next: in
 * Duff's device (glibc's _wordcopy_bwd_aligned) each case label's block
 * is entered from the one before it and from the switch. */
static void raise_paired(dcpicalc_t *dc)
{
    size_t nc = (size_t)dc->cfg.nclasses;
    if (dc->cfg.missing_edges || !nc) return;
    int *est_bound = xcalloc(nc, sizeof *est_bound);
    bool *low = xcalloc(nc, sizeof *low);
    memcpy(low, dc->class_paired, nc * sizeof *low);
    for (size_t c = 0; c < nc; c++)
        est_bound[c] = dc->class_points[c] <= 1 && dc->class_conf[c] != CONF_HIGH ? BOUND_UPPER
                                                                                 : BOUND_EXACT;
    move_by_flow(dc, est_bound, low, low, false);
    free(est_bound);
    free(low);
}

/* A class whose estimate rests on one issue point takes any dynamic stall
 * of that point as frequency: an over-estimate (a one-instruction block at
 * a branch target takes its misprediction stall, the consumer of a missing
 * load its wait).  The classes whose cluster holds at least FLOW_BASE_POINTS
 * issue points agree with themselves; where the flow constraints among
 * them alone determine a weaker class at a lower value, that value is
 * taken (confidence "propagated"). */
enum { FLOW_BASE_POINTS = 2 };
static void refine_by_flow(dcpicalc_t *dc)
{
    size_t nc = (size_t)dc->cfg.nclasses;
    double *own = xcalloc(nc ? nc : 1, sizeof *own);
    int *conf = xcalloc(nc ? nc : 1, sizeof *conf);
    memcpy(own, dc->class_freq, nc * sizeof *own);
    memcpy(conf, dc->class_conf, nc * sizeof *conf);
    for (size_t c = 0; c < nc; c++)
        if (dc->class_points[c] < FLOW_BASE_POINTS) dc->class_freq[c] = -1;
    propagate(dc, -1, NULL);
    for (size_t c = 0; c < nc; c++) {
        double derived = dc->class_freq[c];
        bool weak = (conf[c] == CONF_LOW || conf[c] == CONF_MEDIUM) &&
                    dc->class_points[c] < FLOW_BASE_POINTS;
        if (weak && derived >= 0 && derived < own[c]) {
            own[c] = derived;
            conf[c] = CONF_PROPAGATED;
        }
    }
    memcpy(dc->class_freq, own, nc * sizeof *own);
    memcpy(dc->class_conf, conf, nc * sizeof *conf);
    free(own);
    free(conf);
}

/* dc->exact_freq: the estimates of the classes whose cluster holds at
 * least FLOW_BASE_POINTS issue points, and what local propagation derives
 * from them alone by sums and differences of such values; -1 elsewhere. */
static void exact_frequencies(dcpicalc_t *dc)
{
    size_t nc = (size_t)dc->cfg.nclasses;
    double *own = xcalloc(nc ? nc : 1, sizeof *own);
    int *conf = xcalloc(nc ? nc : 1, sizeof *conf), *bound = xcalloc(nc ? nc : 1, sizeof *bound);
    memcpy(own, dc->class_freq, nc * sizeof *own);
    memcpy(conf, dc->class_conf, nc * sizeof *conf);
    for (size_t c = 0; c < nc; c++) {
        bool base = dc->class_points[c] >= FLOW_BASE_POINTS && conf[c] != CONF_PROPAGATED;
        if (!base || dc->cfg.missing_edges) dc->class_freq[c] = -1;
        bound[c] = BOUND_EXACT;
    }
    if (!dc->cfg.missing_edges) propagate(dc, -1, bound);
    for (size_t c = 0; c < nc; c++)
        dc->exact_freq[c] = bound[c] == BOUND_EXACT ? dc->class_freq[c] : -1;
    memcpy(dc->class_freq, own, nc * sizeof *own);
    memcpy(dc->class_conf, conf, nc * sizeof *conf);
    free(own);
    free(conf);
    free(bound);
}

/* The most executions edge x (beside class c) can have by the values
 * `value` holds per class (< 0: none; dc->exact_freq, the exact values
 * alone, or upper_values): the value of its class, or of the block at its
 * other end, unless that is of class c; < 0 when neither is known. */
static double exact_ceiling(const dcpicalc_t *dc, const double *value, const cfg_edge_t *x,
                            int other, int c)
{
    double v = x->cls != c ? value[x->cls] : -1;
    if (other >= 0 && dc->cfg.blocks[other].cls != c) {
        double w = value[dc->cfg.blocks[other].cls];
        if (w >= 0 && (v < 0 || w < v)) v = w;
    }
    return v;
}

/* The least of class c's flow ceilings: on each side of each of its
 * blocks, the sum of its edges' ceilings by `value` (exact_ceiling); < 0
 * when no side has all of them. */
static double class_ceiling(const dcpicalc_t *dc, const double *value, int c)
{
    double ceiling = -1;
    for (int b = 0; b < (int)dc->cfg.nblocks; b++) {
        if (!dc->cfg.blocks[b].live || dc->cfg.blocks[b].cls != c) continue;
        for (int side = 0; side < 2; side++) {
            double sum = 0;
            bool known = true;
            for (size_t e = 0; e < dc->cfg.nedges && known; e++) {
                const cfg_edge_t *x = &dc->cfg.edges[e];
                if ((side == 0 ? x->to : x->from) != b) continue;
                double v = exact_ceiling(dc, value, x, side == 0 ? x->from : x->to, c);
                if (v < 0) known = false;
                else sum += v;
            }
            if (known && (ceiling < 0 || sum < ceiling)) ceiling = sum;
        }
    }
    return ceiling;
}

/* A class resting on one issue point takes its stalls as frequency; no
 * block can run more often than its in-edges (or out-edges) together,
 * and each of those no more often than the block at its other end.  Where
 * the exact values of the classes of several agreeing points bound such a
 * class below its estimate by more than its noise, it takes that ceiling
 * (confidence "propagated").  It is still an upper bound, but the nearest
 * one: anneal_place's net_bbox has four one-instruction blocks a bge
 * skips, each stalled by its misprediction and estimated at 1.7x its count
 * -- above the count of the block before it, 1.35x. */
static void clamp_to_ceilings(dcpicalc_t *dc)
{
    if (dc->cfg.missing_edges) return;
    exact_frequencies(dc);
    for (int c = 0; c < dc->cfg.nclasses; c++) {
        double f = dc->class_freq[c];
        int conf = dc->class_conf[c];
        if (f <= 0 || dc->class_points[c] > 1 || (conf != CONF_LOW && conf != CONF_MEDIUM))
            continue;
        double tol = class_noise(dc, c);
        double ceiling = class_ceiling(dc, dc->exact_freq, c);
        if (ceiling >= 0 && ceiling < f * (1 - tol)) {
            dc->class_freq[c] = ceiling;
            dc->class_conf[c] = CONF_PROPAGATED;
        }
    }
}

/* What each class is known to run at most (< 0: nothing): its exact value
 * (dc->exact_freq), else, where its estimate is its own (confidence low,
 * medium or high, not a value flow gave it) and its block heads do not
 * pair (class_paired: their samples may land before the block), all its
 * samples over all its static cycles (sum S / sum M: every stall counted
 * as frequency), raised by its noise (class_noise).  Not its estimate: a
 * cluster of one point can be low where the point's samples moved to the
 * instruction before it (Alpha minicc's __calloc, a block of stores at
 * 0.25x its count beside one at 2.1x). */
static double *upper_values(const dcpicalc_t *dc)
{
    size_t nc = (size_t)dc->cfg.nclasses;
    double *v = xcalloc(nc ? nc : 1, sizeof *v);
    uint64_t *s = xcalloc(nc ? nc : 1, sizeof *s), *m = xcalloc(nc ? nc : 1, sizeof *m);
    for (size_t b = 0; b < dc->cfg.nblocks; b++) {
        const cfg_block_t *blk = &dc->cfg.blocks[b];
        for (size_t k = blk->first; k < blk->first + blk->n; k++) {
            s[blk->cls] += dc->insn[k].samples;
            m[blk->cls] += dc->insn[k].sched.head;
        }
    }
    for (size_t c = 0; c < nc; c++) {
        int conf = dc->class_conf[c];
        bool own = dc->class_freq[c] > 0 && !dc->class_paired[c] && m[c] &&
                   (conf == CONF_LOW || conf == CONF_MEDIUM || conf == CONF_HIGH);
        v[c] = dc->exact_freq[c] >= 0 ? dc->exact_freq[c]
             : own ? (double)s[c] / (double)m[c] * (1 + class_noise(dc, (int)c)) : -1;
    }
    free(s);
    free(m);
    return v;
}

/* Whether class c is one that unstall_single_point takes the I-cache's
 * stall off (IMISS samples on its one point), after the culprits are
 * known: a ceiling would leave it "propagated", which that rule does not
 * lower (Alpha nlparse's strcmp: its return block, 0.75x its count by
 * that rule, 2.44x at its neighbour's ceiling). */
static bool unstall_applies(const dcpicalc_t *dc, int c)
{
    return dc->has_imiss && dc->imiss_per_period > 0 && dc->class_single_m[c] &&
           dc->class_single_imiss[c];
}

/* The ceilings again (clamp_to_ceilings), with the neighbours' own
 * estimates as well as the exact values: a one-point class's estimate is
 * an upper bound of its count (its stalls count as frequency), and so is
 * any ceiling it sets for the blocks beside it.  DCPI's section 6.1.3
 * ("the best we can do is exploit flow constraints"): where a class of one
 * issue point has no exact neighbour, the nearest of its neighbours' upper
 * bounds, when below its own estimate by more than its noise, is taken
 * (confidence "propagated"), so that its stall shows beyond F x M and is
 * explained (rv64 objdb's bt_insert: the `j` of a one-instruction block
 * after a `blt`, 5.6x its count, each execution mispredicted, lies before
 * a block of one point at 1.1x its own).  The values are read before any
 * class is lowered, in one pass. */
static void clamp_to_upper_ceilings(dcpicalc_t *dc)
{
    if (dc->cfg.missing_edges) return;
    double *upper = upper_values(dc);
    for (int c = 0; c < dc->cfg.nclasses; c++) {
        double f = dc->class_freq[c];
        int conf = dc->class_conf[c];
        if (f <= 0 || dc->class_points[c] > 1 || dc->class_paired[c] ||
            (conf != CONF_LOW && conf != CONF_MEDIUM) || unstall_applies(dc, c))
            continue;
        double ceiling = class_ceiling(dc, upper, c);
        if (ceiling >= 0 && ceiling < f * (1 - class_noise(dc, c))) {
            dc->class_freq[c] = ceiling;
            dc->class_conf[c] = CONF_PROPAGATED;
        }
    }
    free(upper);
}

/* ---- culprits -------------------------------------------------------------------- */

static bool ends_in_transfer(const insn_t *last)
{
    return (last->flags & (IF_BRANCH | IF_RETURN)) ||
           ((last->flags & IF_JUMP) && !(last->flags & (IF_DIRECT | IF_CALL)));
}

/* The last writer of register r before instruction k in its block, or of
 * r at the end of block b (k = SIZE_MAX), a call counting as one when r is
 * where a callee returns its result (`results`); NULL if none.  A call
 * keeps the other registers the caller may read after it: the ABI has the
 * callee preserve them, and the caller-saved ones are dead across a call
 * (objdb's key_dept_salary: a store through s0 after a call to memset
 * listed the call as a culprit of its 73-cycle D-cache wait). */
static const insn_t *writer_in_block(const cfg_t *g, size_t b, size_t before, unsigned r,
                                     uint64_t results)
{
    size_t first = g->blocks[b].first;
    bool result = r < 64 && (results >> r & 1);
    for (size_t k = before; k-- > first;)
        if (g->insns[k].rd == r || (result && (g->insns[k].flags & IF_CALL)))
            return &g->insns[k];
    return NULL;
}

/* The registers a callee returns its result in, by the ISA's ABI: a0 and
 * a1, fa0 and fa1 (RISC-V); v0, f0 and f1 (Alpha). */
static uint64_t call_result_registers(const isa_t *isa)
{
    if (isa->elf_machine == EM_ALPHA)
        return 1ull << 0 | 1ull << (REG_FP0 + 0) | 1ull << (REG_FP0 + 1);
    return 1ull << 10 | 1ull << 11 | 1ull << (REG_FP0 + 10) | 1ull << (REG_FP0 + 11);
}

/* The registers no caller computes just before a call: the stack, global
 * and thread pointers and the return address (RISC-V sp, gp, tp, ra;
 * Alpha sp, gp, ra and pv, the call's target, read by the call itself). */
static uint64_t settled_registers(const isa_t *isa)
{
    if (isa->elf_machine == EM_ALPHA) return 1ull << 30 | 1ull << 29 | 1ull << 26 | 1ull << 27;
    return 1ull << 2 | 1ull << 3 | 1ull << 4 | 1ull << 1;
}

static bool long_latency(const insn_t *in)
{
    switch (in->opclass) {
    case OC_IMUL: case OC_IDIV: case OC_FDIV: case OC_FSQRT: case OC_FMUL: case OC_FALU:
    case OC_FCVT:
        return true;
    default:
        return false;
    }
}

/* Whether an instruction of [from, to) reads register r.  In order, an
 * instruction issues once its operands are ready, so a value that one of
 * them has read is there for every later one: an instruction cannot wait
 * for a load or a callee whose result an instruction between them already
 * used (the I-cache miss at a call's return point, with the result
 * tested by a branch before it, was listed as a dependency as well). */
static bool reads_between(const cfg_t *g, size_t from, size_t to, unsigned r)
{
    for (size_t j = from; j < to; j++) {
        const insn_t *in = &g->insns[j];
        if (in->rs1 == r || in->rs2 == r || in->rs3 == r) return true;
    }
    return false;
}

/* Whether a call is among the instructions [from, to): a value produced
 * before it is there after it (the callee takes longer than any latency)
 * or dead across it (a caller-saved register). */
static bool calls_between(const cfg_t *g, size_t from, size_t to)
{
    for (size_t j = from; j < to; j++)
        if (g->insns[j].flags & IF_CALL) return true;
    return false;
}

static bool miss_seen(const dcpicalc_t *dc, size_t k);

/* The culprit a call is of an operand r it wrote: a dependency on the
 * callee when r is where the callee returns its result; none when r is
 * the call's own link register (the return address, there when the call
 * issues; the callee's return jumped through it): Alpha's `ldah gp,X(ra)`
 * after each jsr listed a dependency beside the I-cache miss of the
 * return point, 42 of the 50 largest false dependency culprits. */
static uint32_t call_dependency(const dcpicalc_t *dc, unsigned r)
{
    return r < 64 && (dc->call_results >> r & 1) ? 1u << STALL_DEP : 0;
}

/* The culprits writer w, `apart` instructions before instruction k (in
 * another block), can be of k's wait for its register r: a dependency on
 * a callee's result; a load's D-cache miss, and its hit's latency when k
 * is within the load-use latency of it (where DMISS samples near k say a
 * load missed, HIT_DEP: culprits_of lists it only where the misses those
 * on k project cannot explain the stall, dcache_explains -- rv64
 * bytecode_vm's vm_run_script, `addi a4,a5,1` after the `lw` that ends
 * the block before it, a hit every time: 3.2 M cycles of the hit's
 * latency, 6 DMISS samples on it, were listed as the D-cache alone); a
 * long operation's latency while k is within it, issue slots counted as
 * instructions (dc->issue_width a cycle). */
static uint32_t writer_culprits(const dcpicalc_t *dc, const insn_t *w, size_t apart, size_t k,
                                unsigned r)
{
    if (w->flags & IF_CALL) return call_dependency(dc, r);
    if (w->flags & IF_LOAD)
        return 1u << STALL_DCACHE |
               (apart > dc->load_use_reach ? 0 : miss_seen(dc, k) ? HIT_DEP : 1u << STALL_DEP);
    if (long_latency(w) && apart < (size_t)dc->latency[w->opclass] * dc->issue_width)
        return 1u << STALL_DEP;
    return 0;
}

static double edge_ceiling(const dcpicalc_t *dc, const cfg_edge_t *x);

typedef struct walk {
    size_t *blocks, *past, n;   /* blocks to look at; instructions from k back to each one's end */
    bool *seen;
    size_t entry;               /* the fewest instructions from k back to the
                                   procedure's entry on a path, or SIZE_MAX */
    /* with flow (dependency_minor): per block, the most executions that go
     * from its end to k on the path walked -- the least ceiling of the
     * path's edges (edge_ceiling; INFINITY: none known) --, and their sum
     * over the paths from a producer, or from the entry */
    double *flow, produced, entered;
    bool unbounded;             /* a block reached again on another path,
                                   whose walk would have to be redone */
    const dcpicalc_t *dc;
    size_t k, reach;
    unsigned r;
} walk_t;

/* The least of path flow f and the ceiling of edge y (< 0: unknown). */
static double path_flow(const dcpicalc_t *dc, double f, const cfg_edge_t *y)
{
    double c = edge_ceiling(dc, y);
    return c >= 0 && c < f ? c : f;
}

/* Whether the walk would go on past block x, `past` instructions from k at
 * x's end: no writer of r in it, no read of r, no call, within reach. */
static bool walk_goes_on(const walk_t *w, size_t x, size_t past)
{
    const cfg_t *g = &w->dc->cfg;
    const cfg_block_t *p = &g->blocks[x];
    size_t end = p->first + p->n;
    return !writer_in_block(g, x, end, w->r, w->dc->call_results) &&
           !reads_between(g, p->first, end, w->r) && !calls_between(g, p->first, end) &&
           past + p->n < w->reach;
}

/* The culprits writer w, `apart` instructions before instruction k (in
 * another block), can be of k's wait for its register r (writer_culprits),
 * added to *c, its path's flow to w->produced when it is a dependency. */
static uint32_t writer_culprits(const dcpicalc_t *dc, const insn_t *w, size_t apart, size_t k,
                                unsigned r);
static void producer_on_path(walk_t *w, size_t x, size_t past, double flow, uint32_t *c)
{
    const cfg_t *g = &w->dc->cfg;
    const cfg_block_t *p = &g->blocks[x];
    size_t end = p->first + p->n, first_k = g->blocks[cfg_block_of(g, w->k)].first;
    const insn_t *in = writer_in_block(g, x, end, w->r, w->dc->call_results);
    if (!in) return;
    size_t j = (size_t)(in - g->insns);
    bool next = past == w->k - first_k;         /* x is the edge's source */
    if (reads_between(g, j + 1, end, w->r) || (!next && (in->flags & IF_LOAD))) return;
    uint32_t wc = writer_culprits(w->dc, in, past + (end - j), w->k, w->r);
    if (c) *c |= wc;
    if (wc >> STALL_DEP & 1) w->produced += flow;
}

/* Queue the predecessors of block x not seen yet, `past` instructions
 * from k at x's start; an edge from outside is the entry reached.  With
 * flow, a predecessor reached again adds its path's flow where the path
 * ends at a producer (producer_on_path), and makes the walk unbounded
 * where it would go on (its predecessors' flows would have to grow). */
static void walk_preds(const cfg_t *g, size_t x, size_t past, walk_t *w)
{
    for (size_t e = 0; e < g->nedges; e++) {
        const cfg_edge_t *y = &g->edges[e];
        if (y->to != (int)x) continue;
        double f = w->flow ? path_flow(w->dc, w->flow[x], y) : 0;
        if (y->from < 0) {
            if (past < w->entry) w->entry = past;
            if (past < w->reach) w->entered += f;
            continue;
        }
        if (w->seen[y->from]) {
            if (!w->flow || f <= 0) continue;
            if (walk_goes_on(w, (size_t)y->from, past)) w->unbounded = true;
            else producer_on_path(w, (size_t)y->from, past, f, NULL);
            continue;
        }
        w->seen[y->from] = true;
        if (w->flow) w->flow[y->from] = f;
        w->past[w->n] = past;
        w->blocks[w->n++] = (size_t)y->from;
    }
}

/* The culprits of instruction k's wait for register r written before its
 * block b, on the paths that reach b by edge y: back through y's source
 * and its predecessors, each block once, over at most
 * dc->dependency_reach instructions (the longest latency x issue width: a
 * value from further back is there), to the last writer of r on the path
 * (writer_culprits; a load only at the end of y's source: further back,
 * before a loop, its miss can hold only the loop's entries, and it made
 * the loop's branch a point that may stall); a path on which an
 * instruction read r after its writer (the value was there for it, so
 * for k), or with a call after it (calls_between), gives none.  A path
 * that reaches the entry gives the caller's value (CALLER_DEP; maze_route's
 * __divl: Alpha's division routine tests its divisor, which the caller
 * computed, at its fourth instruction), unless r is one the caller cannot
 * have just computed (dc->settled).  With `flow` (not NULL): the most
 * executions of k that follow such a path from a producer or from the
 * entry, by the ceilings of the paths' edges (walk_t), or < 0 when the
 * walk cannot bound them. */
static uint32_t operand_through_edge(const dcpicalc_t *dc, size_t b, size_t k, unsigned r,
                                     const cfg_edge_t *y, double *flow)
{
    const cfg_t *g = &dc->cfg;
    size_t first = g->blocks[b].first, nb = g->nblocks;
    walk_t w = { .blocks = xcalloc(nb, sizeof *w.blocks), .past = xcalloc(nb, sizeof *w.past),
                 .seen = xcalloc(nb, 1), .entry = y->from < 0 ? k - first : SIZE_MAX,
                 .flow = flow ? xcalloc(nb, sizeof *w.flow) : NULL, .dc = dc, .k = k,
                 .reach = dc->dependency_reach, .r = r };
    double f0 = flow ? path_flow(dc, INFINITY, y) : 0;
    uint32_t c = 0;
    if (y->from >= 0) {
        w.seen[y->from] = true;
        w.past[0] = k - first;
        if (flow) w.flow[y->from] = f0;
        w.blocks[w.n++] = (size_t)y->from;
    } else {
        w.entered = f0;
    }
    while (w.n) {
        size_t x = w.blocks[--w.n], past = w.past[w.n];
        const cfg_block_t *p = &g->blocks[x];
        if (writer_in_block(g, x, p->first + p->n, r, dc->call_results))
            producer_on_path(&w, x, past, flow ? w.flow[x] : 0, &c);
        else if (walk_goes_on(&w, x, past))
            walk_preds(g, x, past + p->n, &w);
    }
    bool caller = w.entry < dc->dependency_reach && !(r < 64 && (dc->settled >> r & 1));
    if (caller) c |= CALLER_DEP;
    if (flow) {
        double n = w.produced + (caller ? w.entered : 0);
        *flow = w.unbounded || isinf(n) ? -1 : n;
    }
    free(w.blocks);
    free(w.past);
    free(w.seen);
    free(w.flow);
    return c;
}

/* The registers instruction `in` reads whose value can be late (not the
 * hard-wired zeros) into regs; their number. */
static size_t read_registers(const insn_t *in, unsigned regs[3])
{
    const uint8_t srcs[3] = { in->rs1, in->rs2, in->rs3 };
    size_t n = 0;
    for (int s = 0; s < 3; s++)
        if (srcs[s] != REG_NONE && srcs[s] != REG_ZERO && srcs[s] != REG_FZERO) regs[n++] = srcs[s];
    return n;
}

/* The culprits of instruction k's wait for register r written before its
 * block b, on the paths through b's in-edge y (NULL: every in-edge): none
 * when b writes or reads r before k, or calls.  With flow (y not NULL):
 * the most executions of k on such paths (operand_through_edge). */
static uint32_t register_before(const dcpicalc_t *dc, size_t b, size_t k, unsigned r,
                                const cfg_edge_t *y, double *flow)
{
    const cfg_t *g = &dc->cfg;
    size_t first = g->blocks[b].first;
    if (flow) *flow = 0;
    if (writer_in_block(g, b, k, r, dc->call_results) || reads_between(g, first, k, r) ||
        calls_between(g, first, k))
        return 0;
    uint32_t c = 0;
    for (size_t e = 0; e < g->nedges; e++) {
        const cfg_edge_t *x = &g->edges[e];
        if (x->to == (int)b && (!y || x == y)) c |= operand_through_edge(dc, b, k, r, x, flow);
    }
    return c;
}

/* What a producer of register r in instruction k's block b, outside its
 * static schedule, can make it wait for: a D-cache miss of a load, or a
 * dependency on a callee's result. */
static uint32_t register_in_block(const dcpicalc_t *dc, size_t b, size_t k, unsigned r)
{
    const cfg_t *g = &dc->cfg;
    const insn_t *w = writer_in_block(g, b, k, r, dc->call_results);
    if (!w || reads_between(g, (size_t)(w - g->insns) + 1, k, r)) return 0;
    if (w->flags & IF_CALL) return call_dependency(dc, r);
    return w->flags & IF_LOAD ? 1u << STALL_DCACHE : 0;
}

/* The culprits of instruction k's operands: register_in_block's, or
 * register_before's on the paths through edge y (NULL: every in-edge). */
static uint32_t operands_of(const dcpicalc_t *dc, size_t b, size_t k, const cfg_edge_t *y,
                            bool in_block)
{
    unsigned regs[3];
    size_t n = read_registers(&dc->cfg.insns[k], regs);
    uint32_t c = 0;
    for (size_t s = 0; s < n; s++)
        c |= in_block ? register_in_block(dc, b, k, regs[s])
                      : register_before(dc, b, k, regs[s], y, NULL);
    return c;
}

/* The culprits of instruction k's operands written before its block b, on
 * the paths through b's in-edge y (NULL: every in-edge). */
static uint32_t operands_before(const dcpicalc_t *dc, size_t b, size_t k, const cfg_edge_t *y)
{
    return operands_of(dc, b, k, y, false);
}

/* What producers in instruction k's block b can make it wait for. */
static uint32_t operands_in_block(const dcpicalc_t *dc, size_t b, size_t k)
{
    return operands_of(dc, b, k, NULL, true);
}

/* What a producer outside the static schedule of instruction k's block
 * can make it wait for (operands_in_block, operands_before). */
static uint32_t operand_culprits(const dcpicalc_t *dc, size_t b, size_t k)
{
    return operands_in_block(dc, b, k) | operands_before(dc, b, k, NULL);
}

static uint32_t block_head_culprits(const dcpicalc_t *dc, size_t b, uint64_t line)
{
    const cfg_t *g = &dc->cfg;
    uint32_t c = 0;
    uint64_t pc = g->insns[g->blocks[b].first].pc;
    for (size_t e = 0; e < g->nedges; e++) {
        const cfg_edge_t *x = &g->edges[e];
        if (x->to != (int)b) continue;
        if (x->from < 0) {
            c |= 1u << STALL_ICACHE | 1u << STALL_MISPREDICT;   /* entered by a call */
            continue;
        }
        const cfg_block_t *p = &g->blocks[x->from];
        const insn_t *last = &g->insns[p->first + p->n - 1];
        if (last->pc / line != pc / line) c |= 1u << STALL_ICACHE;
        if (ends_in_transfer(last)) c |= 1u << STALL_MISPREDICT;
    }
    return c;
}

/* An instruction's samples of a miss event (IMISS, DMISS, BRANCHMP,
 * DTBMISS, ITBMISS). */
static uint64_t insn_event(const dcpicalc_insn_t *x, int event)
{
    switch (event) {
    case PMU_IMISS:   return x->imiss;
    case PMU_DMISS:   return x->dmiss;
    case PMU_DTBMISS: return x->dtbmiss;
    case PMU_ITBMISS: return x->itbmiss;
    default:          return x->branchmp;
    }
}

/* Samples of an event on the instructions [from, to] of the procedure. */
static uint64_t event_samples(const dcpicalc_t *dc, int event, size_t from, size_t to)
{
    uint64_t n = 0;
    for (size_t k = from; k <= to && k < dc->cfg.ninsns; k++) n += insn_event(&dc->insn[k], event);
    return n;
}

/* The instructions an event's samples may land on when the event is
 * caused by instruction k: it, and those the skid carries them to.  An
 * I-cache miss holds instruction k out of the issue queue until the fill,
 * so the instructions before it issue and its samples land on k itself
 * (or the one after it, when it issues with it): IMISS_INSNS after k.  (The
 * whole skid, 6 after k, as before: 85.0% culprit precision on 22 of the
 * short-period runs; 1 after k: 85.5%, recall unchanged at 85.7%.) */
enum { SKID_INSNS = 6, IMISS_INSNS = 1 };

/* The unit (divider) an operation that waits for a busy unit needs: the
 * integer divider, or the FP one, which square roots share; -1 none. */
static int unit_of(const insn_t *in)
{
    switch (in->opclass) {
    case OC_IDIV: return 0;
    case OC_FDIV: case OC_FSQRT: return 1;
    default: return -1;
    }
}

/* Look back in block x from `end` for what keeps unit u busy when
 * instruction k (of block kb, from kfirst) issues, over at most *budget
 * instructions: 1 busy (its last user, with nothing from it through k
 * reading its result; or a call, when `outside`), 0 not (a user whose
 * result was read, the budget ran out, or a call when not `outside`), -1
 * neither found. */
static int unit_busy_back(const cfg_t *g, size_t x, size_t end, int u, size_t kb, size_t k,
                          size_t *budget, bool outside)
{
    size_t kfirst = g->blocks[kb].first;
    for (size_t j = end; j-- > g->blocks[x].first;) {
        const insn_t *in = &g->insns[j];
        if (!*budget) return 0;
        --*budget;
        if (unit_of(in) == u) {
            bool read = reads_between(g, j + 1, end, in->rd) ||
                        reads_between(g, end == k ? k : kfirst, k + 1, in->rd);
            return !read;
        }
        if (in->flags & IF_CALL) return outside;
    }
    return -1;
}

/* Whether unit u can still be busy at instruction k (a divide) of block b
 * on the paths that reach b by edge y: back through y's source and its
 * predecessors, with `budget` instructions left to look at (around a loop,
 * k's own block from its end); with `outside`, a call on the way or the
 * procedure's entry counts as busy (the callee or the caller may have used
 * it), else it ends the path.  Every block is looked at once. */
static bool busy_through_edge(const cfg_t *g, const cfg_edge_t *y, int u, size_t b, size_t k,
                              size_t budget, bool outside)
{
    if (y->from < 0) return outside;                     /* from a caller */
    /* the blocks still to look at, each with the budget left at its end */
    size_t nb = g->nblocks, n = 0;
    size_t *worklist = xcalloc(nb, sizeof *worklist), *left = xcalloc(nb, sizeof *left);
    bool *seen = xcalloc(nb, 1), busy = false;
    worklist[n++] = (size_t)y->from;
    left[y->from] = budget;
    seen[y->from] = true;
    while (n && !busy) {
        size_t x = worklist[--n], bud = left[x];
        int found = unit_busy_back(g, x, g->blocks[x].first + g->blocks[x].n, u, b, k, &bud,
                                   outside);
        if (found > 0) busy = true;
        if (found >= 0) continue;
        for (size_t e = 0; e < g->nedges && !busy; e++) {
            const cfg_edge_t *z = &g->edges[e];
            if (z->to != (int)x) continue;
            if (z->from < 0) {
                busy = outside;
                continue;
            }
            if (seen[z->from]) continue;
            seen[z->from] = true;
            left[z->from] = bud;
            worklist[n++] = (size_t)z->from;
        }
    }
    free(worklist);
    free(left);
    free(seen);
    return busy;
}

static double edge_ceiling(const dcpicalc_t *dc, const cfg_edge_t *x);

/* Whether instruction k (a divide) of block b can find its unit busy.  An
 * unpipelined unit is busy until its last user's result is ready, so that
 * user must be within the unit's latency before k, issue slots counted as
 * instructions (dc->unit_reach): in k's block, or on a path back through
 * its predecessors (around a loop, k's own block), in a callee called on
 * the way, or in the caller when the path reaches the entry (anneal_place's
 * rng_range: its remuw waits for the divw its caller issued just before
 * the call) -- and nothing between it and k in k's block or the user's
 * reads its result, which waits for the unit to free first (raytrace's
 * shade_ao: an fdiv of the result of the fsqrt before it listed the busy
 * divider beside the dependency the truth charges).  With `entries` (not
 * NULL), also the most executions of k that can find it busy: the sum of
 * the ceilings (edge_ceiling) of b's in-edges with a path on which it can
 * be, or < 0 when every execution can or nothing bounds them.  Without
 * `outside`, only a user in the procedure counts, not a callee or the
 * caller. */
static bool unit_may_be_busy(const dcpicalc_t *dc, size_t b, size_t k, double *entries,
                             bool outside)
{
    const cfg_t *g = &dc->cfg;
    int u = unit_of(&g->insns[k]);
    size_t budget = dc->unit_reach;
    if (entries) *entries = -1;
    int found = unit_busy_back(g, b, k, u, b, k, &budget, outside);
    if (found >= 0) return found;
    bool busy = false;
    double n = 0;
    for (size_t e = 0; e < g->nedges; e++) {
        const cfg_edge_t *y = &g->edges[e];
        if (y->to != (int)b || !busy_through_edge(g, y, u, b, k, budget, outside)) continue;
        busy = true;
        if (!entries) break;
        double c = edge_ceiling(dc, y);
        if (c < 0 || n < 0) n = -1;
        else n += c;
    }
    if (entries) *entries = busy ? n : 0;
    return busy;
}

/* The first instruction whose data-side events (DMISS, DTBMISS) can land
 * on or after instruction k's: SKID_INSNS before it; such an event of k's
 * operand lands up to SKID_INSNS after it. */
static size_t skid_from(size_t k) { return k >= SKID_INSNS ? k - SKID_INSNS : 0; }

/* Whether DMISS samples say a load near instruction k missed: samples
 * from SKID_INSNS before it to SKID_INSNS after it, where DMISS was
 * collected. */
static bool miss_seen(const dcpicalc_t *dc, size_t k)
{
    return dc->has_dmiss && event_samples(dc, PMU_DMISS, skid_from(k), k + SKID_INSNS);
}

/* The same for a D-TLB miss and DTBMISS samples (the 21164 counts DTB
 * misses of loads and stores alike; the models charge a load's to its
 * consumer, as a D-cache miss). */
static bool dtb_miss_seen(const dcpicalc_t *dc, size_t k)
{
    return dc->has_dtbmiss && event_samples(dc, PMU_DTBMISS, skid_from(k), k + SKID_INSNS);
}

/* The same for an I-TLB miss and ITBMISS samples: a fetch that misses the
 * ITB holds instruction k out of the queue, as an I-cache miss does, so
 * its samples land on k or the one after it (IMISS_INSNS). */
static bool itb_miss_seen(const dcpicalc_t *dc, size_t k)
{
    return dc->has_itbmiss && event_samples(dc, PMU_ITBMISS, k, k + IMISS_INSNS);
}

/* Candidate culprits of an instruction by where it is: the I-cache at the
 * start of a line or of a block entered from elsewhere, or after a call
 * (its return lands here); a misprediction at a block entered by a
 * transfer, or after a call when the model predicts returns without a
 * return address stack (with one, a return mispredicts only when the
 * stack overflowed, which is rare: 21164's 12 entries); a D-cache miss for an operand that was
 * loaded, a dependency for one a callee or a predecessor's long operation
 * produced; the write buffer for a store; a busy unit for a long operation. */
static uint32_t candidates_of(const dcpicalc_t *dc, size_t k, size_t b, uint64_t line)
{
    const cfg_t *g = &dc->cfg;
    const insn_t *in = &g->insns[k];
    size_t first = g->blocks[b].first;
    uint32_t c = 0;
    if (in->pc % line < in->len) c |= 1u << STALL_ICACHE;
    if (k == first) c |= block_head_culprits(dc, b, line);
    if (k > first && (g->insns[k - 1].flags & IF_CALL))
        c |= 1u << STALL_ICACHE | (dc->has_ras ? 0 : 1u << STALL_MISPREDICT);
    if (c >> STALL_ICACHE & 1 || dc->insn[k].itbmiss) c |= 1u << STALL_ITLB;  /* a new line's page */
    if (dc->insn[k].imiss) c |= 1u << STALL_ICACHE;
    c |= operand_culprits(dc, b, k);
    if (c >> STALL_DCACHE & 1) c |= 1u << STALL_DTLB;    /* a loaded operand's translation */
    if (in->flags & IF_STORE) c |= 1u << STALL_WBUF;
    if ((dc->unit_waiters >> in->opclass & 1) && unit_may_be_busy(dc, b, k, NULL, true))
        c |= 1u << STALL_FU;
    if (dc->waits_behind_long_op && k > first &&
        (long_latency(&g->insns[k - 1]) || g->insns[k - 1].opclass == OC_IDIV))
        c |= 1u << STALL_FU;
    return c;
}

/* A misprediction costs an execution at most dc->mispredict_bound cycles;
 * a dynamic stall over MINOR_SHARE times that, with another culprit, has
 * the misprediction as a minor part at most. */
#define MINOR_SHARE 8.0

/* Whether another store precedes store k closely in its block: only
 * stores in bursts fill the write buffer. */
enum { BURST_INSNS = 4 };
static bool store_burst(const cfg_t *g, size_t b, size_t k)
{
    size_t first = g->blocks[b].first;
    for (size_t j = k > first + BURST_INSNS ? k - BURST_INSNS : first; j < k; j++)
        if (g->insns[j].flags & IF_STORE) return true;
    return false;
}

/* Whether a store lies within the n instructions before instruction k of
 * block b on some path: in its block, then back through the predecessors
 * (an edge from outside the procedure brings none). */
static bool store_within(const cfg_t *g, size_t b, size_t k, size_t n)
{
    size_t first = g->blocks[b].first;
    for (size_t j = k; j-- > first && n; n--)
        if (g->insns[j].flags & IF_STORE) return true;
    if (!n) return false;
    for (size_t e = 0; e < g->nedges; e++) {
        const cfg_edge_t *x = &g->edges[e];
        if (x->to != (int)b || x->from < 0) continue;
        const cfg_block_t *p = &g->blocks[x->from];
        if (store_within(g, (size_t)x->from, p->first + p->n, n)) return true;
    }
    return false;
}

/* The stores of block b. */
static unsigned block_stores(const cfg_t *g, size_t b)
{
    unsigned n = 0;
    for (size_t k = g->blocks[b].first; k < g->blocks[b].first + g->blocks[b].n; k++)
        n += (g->insns[k].flags & IF_STORE) != 0;
    return n;
}

/* Whether instruction k of block b reads a register loaded in its block
 * within the load-use latency before it, in issue slots (lat.load_use x
 * issue width), and read by nothing between: k issues when that load's
 * data comes, hit or miss, so a miss holds it for the whole miss.  The
 * model asks for a write-buffer slot only once a store's data is there,
 * and the buffer drains meanwhile: a store right after a load that missed
 * waits for the miss, not for the buffer (objdb's key_dept_salary, `ldl
 * t2` four instructions before `stq t2`: 11 M cycles of D-cache wait,
 * 5 K of them the buffer's, in a block of seven stores). */
static bool reads_fresh_load(const dcpicalc_t *dc, size_t b, size_t k)
{
    const cfg_t *g = &dc->cfg;
    unsigned regs[3];
    size_t n = read_registers(&g->insns[k], regs), reach = dc->load_use_reach * dc->issue_width;
    for (size_t s = 0; s < n; s++) {
        const insn_t *w = writer_in_block(g, b, k, regs[s], dc->call_results);
        if (!w || !(w->flags & IF_LOAD)) continue;
        size_t j = (size_t)(w - g->insns);
        if (k - j <= reach && !reads_between(g, j + 1, k, regs[s])) return true;
    }
    return false;
}

/* Whether store k of block b, whose loaded operand may have missed (a
 * D-cache candidate) or which stores a callee's result, waits for that
 * operand rather than for the write buffer: when no other store closely precedes it (store_burst), or its
 * block has fewer stores than the buffer has entries -- it cannot fill the
 * buffer itself, and what earlier blocks left there drains while the
 * operand comes from memory --, or its operand was loaded just before it
 * (reads_fresh_load).  (On the 24 short-period runs 75 stores lose
 * the buffer, the largest 1.3 M cycles of D-cache wait in bytecode_vm,
 * 40 of them the buffer's.  anneal_place's commit_move, six stores a loop
 * iteration, as many as ev5's entries, does wait for the buffer; counting
 * only the stores before the store in its block lost it there.  A store
 * of a callee's result, as anneal_place's try_move stores the cost its
 * call returns: 6.9 M cycles of dependency listed the buffer too; the
 * buffer drained while the callee ran.) */
static bool waits_for_operand(const dcpicalc_t *dc, size_t b, size_t k)
{
    return !store_burst(&dc->cfg, b, k) || block_stores(&dc->cfg, b) < dc->wbuf_entries ||
           reads_fresh_load(dc, b, k);
}

/* The most executions of block b's head that can follow a misprediction,
 * by the estimated edge frequencies, or < 0 when they do not bound it.  A
 * conditional branch mispredicts about as often as it changes direction,
 * at most twice as often as it goes its rarer way (a loop's back edge
 * mispredicts around its exits, not on every iteration); an indirect
 * transfer or a call (the entry) may mispredict every time.  The edges'
 * frequencies enter as upper bounds (edge_ceiling), never as differences
 * of estimates: a one-point class takes its stalls as frequency, and the
 * edge left beside it comes out too low (anneal_place's net_bbox:
 * `mv t3,a0` alone in the block a bge skips, estimated at 1.67x its count,
 * left 0 for the taken edge and ruled out the misprediction at the
 * target, 2 M cycles). */
static double mispredicted_entries(const dcpicalc_t *dc, size_t b)
{
    const cfg_t *g = &dc->cfg;
    double n = 0;
    for (size_t e = 0; e < g->nedges; e++) {
        const cfg_edge_t *x = &g->edges[e];
        if (x->to != (int)b) continue;
        if (x->from < 0) return -1;
        const cfg_block_t *p = &g->blocks[x->from];
        const insn_t *last = &g->insns[p->first + p->n - 1];
        if (!ends_in_transfer(last)) continue;
        if (!(last->flags & IF_BRANCH)) return -1;
        double rarer = -1;                     /* the least ceiling of p's out-edges */
        for (size_t o = 0; o < g->nedges; o++) {
            if (g->edges[o].from != x->from) continue;
            double c = edge_ceiling(dc, &g->edges[o]);
            if (c < 0) return -1;
            if (rarer < 0 || c < rarer) rarer = c;
        }
        n += 2 * rarer;
    }
    return n;
}

/* The most executions edge x can have, or < 0 when nothing bounds it: the
 * least of what is known of its class and of the blocks at its ends, an
 * exact value (exact_freq) or an estimate from the class's own samples
 * (dynamic stalls only raise it). */
static double edge_ceiling(const dcpicalc_t *dc, const cfg_edge_t *x)
{
    double c = -1;
    int cls[3] = { x->cls, x->from >= 0 ? dc->cfg.blocks[x->from].cls : -1,
                   x->to >= 0 ? dc->cfg.blocks[x->to].cls : -1 };
    for (int k = 0; k < 3; k++) {
        if (cls[k] < 0) continue;
        int conf = dc->class_conf[cls[k]];
        bool own = conf == CONF_LOW || conf == CONF_MEDIUM || conf == CONF_HIGH;
        double v = dc->exact_freq[cls[k]], f = dc->class_freq[cls[k]];
        if (v >= 0 && (c < 0 || v < c)) c = v;
        if (own && f >= 0 && (c < 0 || f < c)) c = f;
    }
    return c;
}

/* Whether a busy unit can be at most a minor part of the dynamic stall
 * of instruction k (a divide) of block b, `stall` cycles an execution: a
 * divide waits for its unit at most dc->unit_wait_bound cycles, and only
 * on the executions that reach it on a path where the unit can be busy
 * (unit_may_be_busy); when those cycles together are below 1/MINOR_SHARE
 * of the stall, the stall has another cause (raytrace's shade_ao: its
 * fdiv reads the fsqrt's result, or on a rare path the result of a call
 * to sqrt, where the callee may have used the divider: 1.9 M cycles of
 * dependency listed the busy unit too).  The paper's upper bounds, as for
 * a misprediction. */
static bool unit_wait_minor(const dcpicalc_t *dc, size_t b, size_t k, double stall)
{
    double most = (double)dc->unit_wait_bound;
    if (!dc->unit_wait_bound || !(dc->unit_waiters >> dc->cfg.insns[k].opclass & 1)) return false;
    if (stall > MINOR_SHARE * most) return true;
    double entries;
    unit_may_be_busy(dc, b, k, &entries, true);
    return entries >= 0 && entries * most * MINOR_SHARE < stall * dc->insn[k].freq;
}

/* Samples of an event on instruction k and the `depth` instructions that
 * follow it on every path through the CFG (a block's last instruction is
 * followed by the first of each successor), added to *n; an instruction
 * reached on two paths counts twice, which only loosens a bound.  false
 * when a path leaves the procedure within them -- a return, a tail jump or
 * a call: the samples may land in code it does not hold (maze_route's
 * grid_neighbors: the loop exit's mispredictions, on the ret after it,
 * put their samples in the caller; 2.5 M cycles ruled out). */
static bool path_samples(const dcpicalc_t *dc, int event, size_t k, size_t depth, uint64_t *n)
{
    const cfg_t *g = &dc->cfg;
    *n += event_samples(dc, event, k, k);
    if (!depth) return true;
    if (g->insns[k].flags & IF_CALL) return false;
    size_t b = cfg_block_of(g, k);
    if (k + 1 < g->blocks[b].first + g->blocks[b].n)
        return path_samples(dc, event, k + 1, depth - 1, n);
    for (size_t e = 0; e < g->nedges; e++) {
        const cfg_edge_t *x = &g->edges[e];
        if (x->from != (int)b) continue;
        if (x->to < 0 || !path_samples(dc, event, g->blocks[x->to].first, depth - 1, n))
            return false;
    }
    return true;
}

/* Whether events of kind `event` (each costing at most `cost` cycles) can
 * explain at most a minor part of the dynamic stall of instruction k,
 * `stall` cycles an execution: the event's samples on the instructions
 * [from, to] around k, at their Poisson upper bound (+ 2 standard
 * deviations + 1), times the events each stands for per CYCLES period
 * (`per_period`, 0: unknown), times `cost`, below 1/`share` of the
 * stall's cycles (events_minor: 1/MINOR_SHARE). */
static bool events_below(const dcpicalc_t *dc, size_t k, double stall, int event, size_t from,
                         size_t to, double per_period, double cost, double share)
{
    if (per_period <= 0 || dc->insn[k].freq <= 0) return false;
    double s = (double)event_samples(dc, event, from, to);
    double events = (s + 2 * sqrt(s) + 1) * per_period;
    return events * cost * share < stall * dc->insn[k].freq;
}

static bool events_minor(const dcpicalc_t *dc, size_t k, double stall, int event, size_t from,
                         size_t to, double per_period, double cost)
{
    return events_below(dc, k, stall, event, from, to, per_period, cost, MINOR_SHARE);
}

/* Whether the I-cache can be at most a minor part of the dynamic stall of
 * instruction k, `stall` cycles an execution, by the misses IMISS projects
 * (where it was collected, with its period): an I-cache miss holds k out
 * of the queue, so its IMISS samples land on k (icache_evident); those
 * samples, at their Poisson upper bound (+ 2 standard deviations),
 * times the misses each stands for and the most a lone miss costs
 * (dc->miss_bound: to memory and the line back), below 1/MINOR_SHARE of
 * the stall's cycles.  (The paper's Figure 10 evidence, as a bound:
 * nlparse's store at a line's start, a few IMISS samples from its
 * occasional miss, listed the I-cache beside the write buffer for a
 * 9.6 M-cycle wait for the buffer.) */
static bool icache_minor(const dcpicalc_t *dc, size_t k, double stall)
{
    return dc->has_imiss &&
           events_minor(dc, k, stall, PMU_IMISS, k, k, dc->imiss_per_period, dc->miss_bound);
}

/* Whether the IMISS samples leave instruction k's own I-cache miss
 * possible, where IMISS was collected: samples on k itself.  A miss on k
 * holds it out of the queue, so the interrupt finds k next to issue: on
 * the 24 short-period runs the instructions with I-cache stalls and none
 * on the next had 31652 IMISS samples, their next instructions 125.
 * Samples on the next instruction are its own misses, most at the start
 * of the next line (rv64 maze_route's lee_connected: the return point of
 * a call, waiting 6.3 M cycles for the callee's result, listed the
 * I-cache for the 50 samples of the `mv` after it, at a line's start).
 * may_stall keeps the samples on k or the next (evident_candidates): the
 * frequency estimate does not change with this rule. */
static bool icache_evident(const dcpicalc_t *dc, size_t k)
{
    return !dc->has_imiss || event_samples(dc, PMU_IMISS, k, k) > 0;
}

/* Whether the I-cache explains all but a minor part of the dynamic stall
 * of instruction k, `stall` cycles an execution, by the misses IMISS
 * projects (where it was collected, with its period): its samples on k
 * alone (those on the next may be the next's own misses, or a call's
 * return point's: bytecode_vm's `jsr` in vm_run_script, 2.9 M cycles of
 * D-cache wait) at their Poisson lower bound (- 2 standard deviations -
 * 1), times the misses each stands for and the least a miss
 * costs (dc->refill_least: the next level's hit), at least (MINOR_SHARE -
 * 1) / MINOR_SHARE of the stall's cycles.  Any other culprit is then a
 * minor part at most: an in-order instruction waits for its fetch and its
 * operands together, and the model asks for a write-buffer slot only when
 * it issues, the buffer draining while the line comes (Alpha
 * anneal_place's try_move: `stq s5,8(sp)` at a line's start in a
 * prologue of stores, 1.1 M cycles of I-cache wait that listed the
 * buffer too). */
static bool icache_dominates(const dcpicalc_t *dc, size_t k, double stall)
{
    if (!dc->has_imiss || dc->imiss_per_period <= 0 || dc->insn[k].freq <= 0) return false;
    double s = (double)event_samples(dc, PMU_IMISS, k, k);
    double least = s - 2 * sqrt(s) - 1;
    return least > 0 && least * dc->imiss_per_period * dc->refill_least * MINOR_SHARE >=
                        (MINOR_SHARE - 1) * stall * dc->insn[k].freq;
}

/* Whether the absence of IMISS samples on instruction k, an I-cache
 * candidate by where it is (candidates_of), proves nothing about its
 * dynamic stall of `stall` cycles an execution: were the whole stall
 * I-cache misses, each at the least a miss costs (dc->refill_least: the
 * next level's hit), they would number fewer than UNSEEN_SAMPLES IMISS
 * samples' worth (IMISS period / CYCLES period), so no sample is likely
 * (Poisson: at least e^-1) -- as BRANCHMP's absence is no proof of no
 * misprediction.  At the short periods an IMISS sample stands for about
 * 2000 misses, some 6-25 K cycles of I-cache wait on the 24 runs: the
 * I-cache stalls of a few thousand cycles each, at a line's or a block's
 * start, carry no sample (6.6 points of the runs' mean I-cache recall, on
 * 7456 instructions; the rule lists it on 7079 instructions, the largest
 * 1-2 K cycles each in rv64 lz_compress and netflow).  Not where the D-cache is listed (a miss its DMISS
 * samples show explains the stall at least as well).  (On the 24
 * short-period runs, a scratch dump scored offline, I-cache precision /
 * recall 91.56 / 81.53 (with icache_bound_unmeasured) -> 90.16 / 84.52;
 * beside the D-cache too 89.69 / 84.57; below half a sample 90.83 /
 * 83.82, two samples 88.52 / 85.33; where no other culprit is listed
 * 91.55 / 82.77.) */
#define UNSEEN_SAMPLES 1.0
static bool icache_unseen(const dcpicalc_t *dc, size_t b, size_t k, double stall)
{
    const dcpicalc_insn_t *x = &dc->insn[k];
    if (!dc->has_imiss || dc->imiss_per_period <= 0 || x->freq <= 0 || stall <= 0 || x->imiss)
        return false;
    uint64_t line = dc->line_bytes ? dc->line_bytes : 32;
    if (!(candidates_of(dc, k, b, line) >> STALL_ICACHE & 1)) return false;
    return stall * x->freq < UNSEEN_SAMPLES * dc->imiss_per_period * dc->refill_least;
}

/* Whether the D-TLB can be at most a minor part of the dynamic stall of
 * instruction k, `stall` cycles an execution, by the D-TLB misses DTBMISS
 * projects (where it was collected, with its period): its samples within
 * the skid around k (dtb_miss_seen), at their Poisson upper bound, times
 * the misses each stands for and the refill's cycles (dc->dtb_miss_bound:
 * a miss delays the load's data by that much), below 1/MINOR_SHARE of the
 * stall's cycles -- the bound of the I-cache by IMISS. */
static bool dtb_minor(const dcpicalc_t *dc, size_t k, double stall)
{
    return dc->has_dtbmiss &&
           events_minor(dc, k, stall, PMU_DTBMISS, skid_from(k), k + SKID_INSNS,
                        dc->dtbmiss_per_period, dc->dtb_miss_bound);
}

/* The same bound for the I-TLB by ITBMISS: its samples on k and the next
 * (itb_miss_seen), each miss costing the refill (dc->itb_miss_bound). */
static bool itb_minor(const dcpicalc_t *dc, size_t k, double stall)
{
    return dc->has_itbmiss &&
           events_minor(dc, k, stall, PMU_ITBMISS, k, k + IMISS_INSNS, dc->itbmiss_per_period,
                        dc->itb_miss_bound);
}

/* Whether the misses of event `tlb` (each sample standing for
 * `tlb_per_period` of them) on the instructions [from, to] are no more
 * than the cache misses of event `cache` projects there, with both
 * periods known: a new page is a new line, and the models charge a miss
 * in both to the cache, so only a TLB miss whose line hits is the TLB's
 * stall. */
static bool tlb_within_cache(const dcpicalc_t *dc, int tlb, double tlb_per_period, int cache,
                             double cache_per_period, size_t from, size_t to)
{
    if (tlb_per_period <= 0 || cache_per_period <= 0) return false;
    double misses = (double)event_samples(dc, tlb, from, to);
    return misses * tlb_per_period <= (double)event_samples(dc, cache, from, to) * cache_per_period;
}

/* The D-TLB misses DTBMISS projects within the skid around k, against the
 * D-cache misses DMISS projects (tlb_within_cache). */
static bool dtb_within_dcache(const dcpicalc_t *dc, size_t k)
{
    return tlb_within_cache(dc, PMU_DTBMISS, dc->dtbmiss_per_period, PMU_DMISS,
                            dc->dmiss_per_period, skid_from(k), k + SKID_INSNS);
}

/* The I-TLB misses ITBMISS projects on k and the next, against the
 * I-cache misses IMISS projects there (tlb_within_cache). */
static bool itb_within_icache(const dcpicalc_t *dc, size_t k)
{
    return tlb_within_cache(dc, PMU_ITBMISS, dc->itbmiss_per_period, PMU_IMISS,
                            dc->imiss_per_period, k, k + IMISS_INSNS);
}

/* Whether a misprediction can be at most a minor part of the dynamic
 * stall of instruction k, `stall` cycles an execution, by the
 * mispredictions BRANCHMP projects (where it was collected, with its
 * period): an event at the branch's resolution is delivered to the head a
 * skid later, the target or one of the instructions that follow it on
 * any path, up to twice SKID_INSNS of them (ev5 issues two a cycle;
 * path_samples: bwt_compress's inner loop exit had its samples after the
 * outer loop's back edge), each costing at most dc->mispredict_bound
 * cycles.  (On the 24 geometric short-period runs: misprediction precision
 * 78.5 -> 82.4, recall 80.3 -> 74.3; SKID_INSNS alone 83.3 / 70.2.)  The
 * bound of the edges (mispredicted_entries) needs classes that know their
 * frequency; this one counts the mispredictions themselves, so it bounds
 * a branch that goes both ways often too. */
static bool mispredict_minor(const dcpicalc_t *dc, size_t k, double stall)
{
    if (!dc->has_branchmp || dc->branchmp_per_period <= 0 || dc->insn[k].freq <= 0) return false;
    uint64_t samples = 0;
    if (!path_samples(dc, PMU_BRANCHMP, k, 2 * SKID_INSNS, &samples)) return false;
    double s = (double)samples, events = (s + 2 * sqrt(s) + 1) * dc->branchmp_per_period;
    return events * dc->mispredict_bound * MINOR_SHARE < stall * dc->insn[k].freq;
}

/* The candidate culprits of instruction k of block b (candidates_of) that
 * the miss events leave, where they were collected: no IMISS sample on k
 * or the next (IMISS_INSNS), no I-cache miss; no DMISS sample near it
 * (miss_seen), no D-cache miss; and a D-TLB miss only with DTBMISS samples
 * near it (dtb_miss_seen): without the event the analysis cannot tell it
 * from a D-cache miss. */
static uint32_t evident_candidates(const dcpicalc_t *dc, size_t b, size_t k)
{
    uint64_t line = dc->line_bytes ? dc->line_bytes : 32;
    uint32_t c = candidates_of(dc, k, b, line);
    if (dc->has_imiss && !event_samples(dc, PMU_IMISS, k, k + IMISS_INSNS))
        c &= ~(1u << STALL_ICACHE);
    if (dc->has_dmiss && !miss_seen(dc, k)) c &= ~(1u << STALL_DCACHE);
    if (!dtb_miss_seen(dc, k)) c &= ~(1u << STALL_DTLB);
    if (!itb_miss_seen(dc, k)) c &= ~(1u << STALL_ITLB);
    return c;
}

/* The most executions of instruction k of block b, entering by edge y,
 * that can wait for a producer before b (a long operation, a load's hit
 * latency, a callee, or the caller): per register k reads, the ceilings
 * of the paths' edges back to the producer or to the entry
 * (operand_through_edge), at most y's own ceiling; < 0 unbounded.  The
 * edge nearest the producer can bound them far below y's: nlparse's
 * memset multiplies its byte over a word before a loop of 64-byte stores
 * that reads it; the loop of single stores after it finds the product in
 * flight only on the 48 of 114 K calls that skip the first loop (4.3 M
 * cycles of write-buffer wait listed the dependency, by the 114 K). */
static double dependency_entries(const dcpicalc_t *dc, size_t b, size_t k, const cfg_edge_t *y)
{
    unsigned regs[3];
    size_t n = read_registers(&dc->cfg.insns[k], regs);
    double sum = 0, ceiling = edge_ceiling(dc, y);
    for (size_t s = 0; s < n; s++) {
        double f;
        if (!(register_before(dc, b, k, regs[s], y, &f) & (1u << STALL_DEP | CALLER_DEP)))
            continue;
        if (f < 0) return ceiling;
        sum += f;
    }
    return ceiling >= 0 && ceiling < sum ? ceiling : sum;
}

/* Whether a dependency on a producer before instruction k's block b (a
 * long operation on a path into it, or the caller: operands_before) can
 * be a minor part of k's stall, `stall` cycles an execution, at most: it
 * costs an execution at most the longest latency, and only on the
 * executions that reach k on a path from such a producer
 * (dependency_entries) -- below an eighth of the stall (MINOR_SHARE), or
 * a stall over 8 times that latency, it is no culprit, as for a busy
 * unit.  (memset's loop of stores waits for the write buffer on every
 * iteration; the multiply that spreads its byte over a word, before the
 * loop, can hold only the first.)  Never minor when a callee called in b
 * may have produced the operand. */
static bool dependency_minor(const dcpicalc_t *dc, size_t b, size_t k, double stall)
{
    if (operands_in_block(dc, b, k) >> STALL_DEP & 1) return false;
    double most = (double)dc->dependency_reach / (double)dc->issue_width, n = 0;
    if (stall > MINOR_SHARE * most) return true;
    for (size_t e = 0; e < dc->cfg.nedges; e++) {
        const cfg_edge_t *y = &dc->cfg.edges[e];
        if (y->to != (int)b || !(operands_before(dc, b, k, y) & (1u << STALL_DEP | CALLER_DEP)))
            continue;
        double c = dependency_entries(dc, b, k, y);
        if (c < 0) return false;
        n += c;
    }
    return n * most * MINOR_SHARE < stall * dc->insn[k].freq;
}

/* Whether the D-cache misses DMISS projects on instruction k itself (where
 * it was collected, with its period) can explain k's whole dynamic stall,
 * `stall` cycles an execution: its samples at their Poisson upper bound
 * (+ 2 standard deviations + 1) times the misses each stands for and the
 * most a lone miss costs (dc->miss_bound) -- a miss's samples land on the
 * instruction that waits for it (95% of them on the 12 rv64 short-period
 * runs).  A dependency listed beside such a D-cache miss adds nothing the
 * miss does not explain, and is left out: objdb's scan_node, `ldl
 * t0,0(a1)` at its entry waiting 1.6 M cycles for the caller's a1, which
 * the caller loaded and missed (14 DMISS samples on the `ldl`), listed the
 * caller's value too.  A dependency the misses cannot cover stays (Alpha
 * maze_route's `__divl`, 16.6 M cycles waiting for the caller's divisor,
 * 1 DMISS sample). */
static bool dcache_explains(const dcpicalc_t *dc, size_t k, double stall)
{
    if (!dc->has_dmiss || dc->dmiss_per_period <= 0 || dc->insn[k].freq <= 0) return false;
    double s = (double)dc->insn[k].dmiss;
    return s > 0 && (s + 2 * sqrt(s) + 1) * dc->dmiss_per_period * dc->miss_bound >=
                        stall * dc->insn[k].freq;
}

/* Whether a load's hit latency, listed beside its D-cache miss (HIT_DEP),
 * can be half or more of a dynamic stall of `stall` cycles an execution:
 * a hit holds its consumer at most the load-use latency (lat.load_use,
 * dc->load_use_reach) on every execution, so a stall of at most
 * HIT_LATENCY_SHARE times that may be mostly the hits' even where the
 * misses DMISS projects could explain all of it (dcache_explains: an
 * upper bound, each miss at a lone miss's cycles, where a warm program's
 * misses hit the S-cache).  rv64 and Alpha netflow's tree_reroot: `ld
 * a3,0(a1)` at a block head after the load of a1 that ends the block
 * before, 1.97 cycles an execution, 0.68 M of them the D-cache's and 0.58
 * M the hit's, 19 and 26 DMISS samples.  (On the 24 geometric
 * short-period runs, a scratch dump scored offline, dependency precision
 * / recall: 69.2 / 75.7 before; a stall of at most the latency 78.9 /
 * 91.7; twice it 79.6 / 94.6; 8 times it 76.0 / 95.6.) */
#define HIT_LATENCY_SHARE 2.0
static bool hit_latency_major(const dcpicalc_t *dc, double stall)
{
    return stall <= HIT_LATENCY_SHARE * (double)dc->load_use_reach;
}

/* Miss samples it takes, at least, DMISS or IMISS on an instruction
 * (mispredict_within_dcache, mispredict_within_icache), before they can
 * rule out a misprediction beside the miss. */
enum { MISPREDICT_EVENTS_LEAST = 6 };

/* Whether the D-cache misses DMISS projects on instruction k itself
 * (where it was collected, with its period) can explain k's whole dynamic
 * stall, `stall` cycles an execution: at least MISPREDICT_EVENTS_LEAST
 * samples, at their Poisson upper bound (+ 2 standard deviations + 1),
 * times the misses each stands for and the most a lone miss costs
 * (dc->miss_bound), covering the stall's cycles -- the bound of
 * dcache_explains.  A misprediction listed beside such a miss (k at the
 * head of a block entered by a transfer, its operand loaded in the block
 * before) adds nothing the miss does not explain: an in-order instruction
 * waits for its refetch after the branch and for its operand together,
 * and the refetch (dc->mispredict_bound) is the shorter wait.  Fewer
 * samples are too noisy a projection to rule it out on.  On the 24
 * geometric short-period runs: misprediction precision 83.4 -> 87.1,
 * recall 80.5 -> 79.5 with the samples of the whole skid window around k
 * (miss_seen's, the neighbours' own misses among them); with those on k
 * alone, as here, 83.4 -> 87.8 and 80.5 -> 80.3 (with
 * mispredict_within_icache).  At DMISS's period (about 2000 misses a
 * sample) the bound holds for any 6 samples: the point estimate instead
 * changes no score. */
static bool mispredict_within_dcache(const dcpicalc_t *dc, size_t k, double stall)
{
    if (!dc->has_dmiss || dc->dmiss_per_period <= 0 || dc->insn[k].freq <= 0) return false;
    double s = (double)dc->insn[k].dmiss;
    return s >= MISPREDICT_EVENTS_LEAST &&
           (s + 2 * sqrt(s) + 1) * dc->dmiss_per_period * dc->miss_bound >= stall * dc->insn[k].freq;
}

/* Whether instruction k, reading a callee's result (a call before it in
 * its block), waits for a load of the callee that missed: at least
 * MISPREDICT_EVENTS_LEAST DMISS samples on k (where a miss's samples
 * land: on the instruction that waits for the data), whose misses at
 * their point estimate (samples x DMISS period / CYCLES period), each at
 * the least a miss costs (dc->refill_least: the S-cache's hit, 6 cycles
 * on ev5), explain k's whole dynamic stall, `stall` cycles an execution.
 * In order, a callee returns before the data of its last load comes, and
 * the models charge the caller's wait for it to the D-cache: the
 * dependency on the callee is then left out and the D-cache listed
 * (rv64 bwt_compress's decompress_buffer: `bgez a0` after a call, 0.15 M
 * cycles of D-cache wait listed as a dependency, 20 DMISS samples on it;
 * rv64 lz_compress's matcher_tokens, `sw a0`, 62).  (On the 24 geometric
 * short-period runs, a scratch dump scored offline: dependency precision
 * 69.2 -> 71.4, recall 75.7 both; measured by hps-dcpicalc after
 * hit_latency_major, 79.6 -> 81.3, recall 94.6 both;
 * any DMISS sample at the misses' Poisson upper bound and a lone miss's
 * cycles, dcache_explains's bound, 72.5 but recall 75.1: rv64
 * lz_compress's calls return computed values a cycle or two late, with
 * a DMISS sample or two nearby.)  Fewer samples, even one, do where the
 * stall is longer than a hit can make it (hit_latency_major: over twice
 * the load-use latency) and the misses at their Poisson upper bound, at
 * a lone miss's cycles, can explain it (dcache_explains): a computed
 * result that returns a few cycles late is short (Alpha and rv64 minicc's
 * g_bin, `mov v0,s3` / `mv s3,a0` after a call, 14-15 cycles an
 * execution, 0.17 M cycles all the D-cache's, 1-3 DMISS samples; rv64
 * lz_compress's write_tokens, `addiw a5,a0,257`, 20 samples whose point
 * estimate at the S-cache's hit falls short of its 5 cycles).  (Offline
 * on the scratch dump, dependency precision / recall 82.32 / 94.59 ->
 * 83.24 / 94.49; with the stall over 4 cycles instead, the same; without
 * the stall's bound 82.15 / 87.70: anneal_place's try_move stores the
 * cost its call computes, 7.9-8.8 cycles an execution, 10-21 samples.) */
static bool callee_result_missed(const dcpicalc_t *dc, size_t k, double stall)
{
    if (!dc->has_dmiss || dc->dmiss_per_period <= 0 || dc->insn[k].freq <= 0) return false;
    double s = (double)dc->insn[k].dmiss;
    if (s >= MISPREDICT_EVENTS_LEAST &&
        s * dc->dmiss_per_period * dc->refill_least >= stall * dc->insn[k].freq)
        return true;
    return s > 0 && !hit_latency_major(dc, stall) && dcache_explains(dc, k, stall);
}

/* The culprits of instruction k of block b when the caller's value
 * (CALLER_DEP) is the only candidate left: a D-cache miss where DMISS
 * samples near k say a load missed, and a dependency unless it can only
 * be a minor part of the stall (dependency_minor).  (Listed beside other
 * culprits, it was the entry of every short procedure: dependency
 * precision 57 -> 29% on the 24 runs.)  Where DMISS was collected and no
 * sample lies near k, nothing: a caller leaves a value late by a load
 * that missed far more often than by a long operation, and DMISS's
 * samples of a miss in the caller land there, not on k.  (On the 24
 * short-period runs, the instructions so listing the caller's value
 * alone, 196, had 1.57 M cycles of dynamic stall by the truth, 19 K of
 * them a dependency's: objdb's hx_put, `mov a1,s1`, 6.8 cycles an
 * execution, 0.25 M cycles all the D-cache's; Alpha maze_route's __reml,
 * whose `ret` 0.35 M cycles of misprediction.  Scored offline, dependency
 * precision / recall 82.32 / 94.59 -> 83.59 / 94.58; listing the D-cache
 * instead where the stall is over twice the load-use latency, the same
 * and D-cache recall 96.11 -> 96.14, with no DMISS sample to show it.)
 * The stall is then left unexplained.  With DMISS samples near k, none on
 * k itself and CALLER_MISS_SAMPLES or more within the skid (not a lone
 * sample), the D-cache alone: the caller's load missed, the samples of
 * its misses land a skid after it, in the caller's last instructions and
 * the callee's first, not on the reader, so that none on k proves
 * nothing and several near it are the miss's (rv64 objdb's scan_node,
 * `lw a5,0(a1)` at its entry, 25 cycles an execution, 1.36 M cycles all
 * the D-cache's, 29 DMISS samples within the skid and none on it; Alpha
 * bytecode_vm's table_slot, `addq a0,t0,t0`, 0.32 M, 150 samples).  A
 * caller's long operation leaves at most a lone sample of some
 * neighbour's miss (Alpha maze_route's __divl, `beq t11` waiting 16.6 M
 * cycles for the caller's divisor, 1 DMISS sample within the skid;
 * glibc's memcpy, `cmpule a2,0xf,t1`, the same).  (On the 24 short-period
 * runs, a scratch dump scored offline, dependency precision / recall
 * 85.71 / 94.48 -> 88.25 / 94.48; 3 or more samples 88.13 / 94.48, 4
 * 88.22 / 94.48; with samples on k too 88.27 / 91.58 (lz_compress's
 * fnv1a, 3 on it, 1.66 M cycles of true dependency).) */
#define CALLER_MISS_SAMPLES 2
static bool caller_miss_shown(const dcpicalc_t *dc, size_t k)
{
    return dc->has_dmiss && !dc->insn[k].dmiss &&
           event_samples(dc, PMU_DMISS, skid_from(k), k + SKID_INSNS) >= CALLER_MISS_SAMPLES;
}

static uint32_t caller_culprits(const dcpicalc_t *dc, size_t b, size_t k, double stall)
{
    if (miss_seen(dc, k))
        return 1u << STALL_DCACHE |
               (dependency_minor(dc, b, k, stall) || dcache_explains(dc, k, stall) ||
                caller_miss_shown(dc, k)
                ? 0 : 1u << STALL_DEP);
    if (dc->has_dmiss) return 0;          /* no miss near: the caller's value unproven */
    return dependency_minor(dc, b, k, stall) ? 0 : 1u << STALL_DEP;
}

/* Candidates ruled out by the miss events where they were collected (the
 * paper's Figure 10 evidence): no IMISS or DMISS sample from the
 * instruction through the skid that follows it, no such miss; a store
 * whose operand missed in the D-cache waits for that operand rather than
 * for the write buffer (waits_for_operand); a stall too long for a
 * misprediction, a busy unit or an I-cache miss has another cause; one
 * the I-cache misses IMISS projects explain but for a minor part has no
 * other (icache_dominates). */
static uint32_t culprits_of(const dcpicalc_t *dc, size_t k)
{
    size_t b = cfg_block_of(&dc->cfg, k);
    uint32_t c = evident_candidates(dc, b, k);
    bool caller = c & CALLER_DEP;
    c &= ~CALLER_DEP;
    double stall = dcpicalc_dynamic_stall(dc, k);
    if (!icache_evident(dc, k)) c &= ~(1u << STALL_ICACHE);
    if ((c >> STALL_DEP & 1) && dependency_minor(dc, b, k, stall)) c &= ~(1u << STALL_DEP);
    if ((c >> STALL_DEP & 1) && (c >> STALL_DCACHE & 1) && dcache_explains(dc, k, stall))
        c &= ~(1u << STALL_DEP);
    if ((c >> STALL_DTLB & 1) &&
        (dtb_minor(dc, k, stall) || ((c >> STALL_DCACHE & 1) && dtb_within_dcache(dc, k))))
        c &= ~(1u << STALL_DTLB);
    if ((c >> STALL_ITLB & 1) &&
        (itb_minor(dc, k, stall) || ((c >> STALL_ICACHE & 1) && itb_within_icache(dc, k))))
        c &= ~(1u << STALL_ITLB);
    if ((c >> STALL_DEP & 1) && (operands_in_block(dc, b, k) >> STALL_DEP & 1) &&
        callee_result_missed(dc, k, stall))
        c = (c & ~(1u << STALL_DEP)) | 1u << STALL_DCACHE;
    bool operand = (c & (1u << STALL_DCACHE | 1u << STALL_DTLB)) ||
                   (operands_in_block(dc, b, k) >> STALL_DEP & 1);
    if (operand && (c >> STALL_WBUF & 1) && waits_for_operand(dc, b, k)) c &= ~(1u << STALL_WBUF);
    if ((c & HIT_DEP) && (c >> STALL_DCACHE & 1) &&
        (!dcache_explains(dc, k, stall) || hit_latency_major(dc, stall)))
        c |= 1u << STALL_DEP;                 /* the hit's latency: the misses too few,
                                                 or the stall short enough for hits */
    c &= ~HIT_DEP;
    if ((c >> STALL_ICACHE & 1) && icache_minor(dc, k, stall)) c &= ~(1u << STALL_ICACHE);
    if ((c >> STALL_ICACHE & 1) && icache_dominates(dc, k, stall))
        c &= 1u << STALL_ICACHE | 1u << STALL_ITLB;
    if ((c >> STALL_FU & 1) && unit_wait_minor(dc, b, k, stall))
        c &= ~(1u << STALL_FU);
    /* a unit only a callee or the caller can have kept busy: listed, as
     * the caller's value, only where nothing else explains the stall */
    bool unit_outside = (c >> STALL_FU & 1) && !unit_may_be_busy(dc, b, k, NULL, false);
    if (unit_outside) c &= ~(1u << STALL_FU);
    if ((c >> STALL_MISPREDICT & 1) && mispredict_minor(dc, k, stall))
        c &= ~(1u << STALL_MISPREDICT);
    if ((c >> STALL_MISPREDICT & 1) && (c >> STALL_DCACHE & 1) &&
        mispredict_within_dcache(dc, k, stall))
        c &= ~(1u << STALL_MISPREDICT);
    uint32_t others = c & ~(1u << STALL_MISPREDICT);
    if (others && stall > MINOR_SHARE * (double)dc->mispredict_bound)
        c = others;                           /* a misprediction would be a minor part */
    if (others && (c >> STALL_MISPREDICT & 1) && k == dc->cfg.blocks[b].first) {
        double entries = mispredicted_entries(dc, b);
        if (entries >= 0 && entries * dc->mispredict_bound * MINOR_SHARE < stall * dc->insn[k].freq)
            c = others;                       /* too few mispredictions for a real part */
    }
    if (!(c >> STALL_DCACHE & 1) && !(c >> STALL_ICACHE & 1) && icache_unseen(dc, b, k, stall))
        c |= 1u << STALL_ICACHE;              /* too few misses for a sample to show */
    if (c) return c;
    return (unit_outside ? 1u << STALL_FU : 0) | (caller ? caller_culprits(dc, b, k, stall) : 0);
}

/* Whether instruction k of block b can have a dynamic stall by the
 * culprit rules (candidates_of), before any frequency is known: a
 * candidate the miss events rule out does not count, nor the write buffer
 * for a store that no other store closely precedes (store_burst), nor the
 * caller's value (a culprit only where no other is: caller_culprits). */
static bool may_stall(const dcpicalc_t *dc, size_t b, size_t k)
{
    uint32_t c = evident_candidates(dc, b, k) & ~(CALLER_DEP | HIT_DEP);
    if ((c >> STALL_WBUF & 1) && !store_burst(&dc->cfg, b, k)) c &= ~(1u << STALL_WBUF);
    return c != 0;
}

/* ---- the whole ------------------------------------------------------------------- */

/* The I-cache's cost per miss measured on the run itself: the dynamic
 * stall cycles of the instructions whose one culprit is the I-cache (the
 * I-TLB beside it), over the misses their IMISS samples project; 0 when
 * IMISS or its period is unknown, or those instructions hold fewer than
 * ICACHE_COST_SAMPLES IMISS samples.  The I-cache bound below takes it
 * times ICACHE_COST_SHARE.  The
 * bound of icache_minor takes the most a lone miss costs (82 cycles on
 * ev5: memory and the line back), but the misses of a warm program hit
 * the S-cache and overlap the stalls before them: on 6 short-period runs
 * (bytecode_vm, maze_route, objdb, both ISAs) the truth's I-cache cycles
 * were 3.2 an IMISS-projected miss, pooled over the instructions whose
 * stall is the I-cache's (12 at most), and this measure, from the
 * profile alone, 2.8-10.5 a run before the factor. */
#define ICACHE_COST_SHARE 2.0
#define ICACHE_COST_SAMPLES 100
static void icache_measure(dcpicalc_t *dc)
{
    dc->icache_cycles = 0;
    dc->icache_imiss = 0;
    if (!dc->has_imiss || dc->imiss_per_period <= 0) return;
    const uint32_t alone = 1u << STALL_ICACHE, beside = alone | 1u << STALL_ITLB;
    for (size_t k = 0; k < dc->cfg.ninsns; k++) {
        const dcpicalc_insn_t *x = &dc->insn[k];
        if (!(x->culprits & alone) || (x->culprits & ~beside) || !x->imiss) continue;
        dc->icache_cycles += dcpicalc_dynamic_stall(dc, k) * x->freq;
        dc->icache_imiss += x->imiss;
    }
}

double dcpicalc_icache_cost(double cycles, uint64_t imiss, double imiss_per_period)
{
    if (imiss < ICACHE_COST_SAMPLES || imiss_per_period <= 0) return 0;
    return cycles / ((double)imiss * imiss_per_period);
}

static double icache_cost_measured(dcpicalc_t *dc)
{
    icache_measure(dc);
    return dcpicalc_icache_cost(dc->icache_cycles, dc->icache_imiss, dc->imiss_per_period);
}

/* The I-cache bound again (icache_minor), each miss at the cost measured
 * on the run (icache_cost_measured, times ICACHE_COST_SHARE; `measured`
 * before unstall_single_points) where that is below the most a lone
 * miss costs, on the instructions that list the I-cache beside another
 * culprit (not the I-TLB): a frequent cheap miss beside a long wait of
 * another cause (Alpha maze_route's grid_neighbors: `extbl`, 10.7 M
 * cycles of D-cache wait, 0.28 M of them the I-cache's, 73 IMISS
 * samples).  An instruction whose one culprit is the I-cache keeps it:
 * its stall measured the cost.  The misses' cycles are an upper bound
 * twice over (the samples' Poisson upper bound, twice the measured cost),
 * so the I-cache is left out where they come below a quarter of the stall
 * (ICACHE_BOUND_SHARE), not an eighth as where a lone miss's cycles bound
 * them (icache_minor).  (On the 24 short-period runs, a scratch dump
 * scored offline, I-cache precision / recall 87.87 / 82.20 before; below
 * an eighth 87.87 / 82.20 (no change: icache_minor's bound), a quarter
 * 91.29 / 81.60, a half 92.35 / 80.34; the point estimate, below an
 * eighth, 91.00 / 81.61.  The largest: rv64 lz_compress's emit_block,
 * `slli` after a load, 0.88 M cycles of D-cache wait, 18 K of them the
 * I-cache's, 6 IMISS samples (3.9 points of the runs' mean); rv64
 * bwt_compress's bwt_forward, `subw` at a branch target, 1.15 M cycles
 * of misprediction beside 83 K of I-cache, 4 IMISS samples.  What it
 * loses: a quarter or a fifth of a stall the I-cache's beside a
 * misprediction, rv64 raytrace's bvh_occluded `addi sp,sp,-64`, 0.24 M
 * of 0.94 M cycles, 11 IMISS samples.) */
#define ICACHE_BOUND_SHARE 4.0
static void bound_icache_by_run(dcpicalc_t *dc, double measured)
{
    double cost = ICACHE_COST_SHARE * measured;
    if (cost <= 0 || cost >= (double)dc->miss_bound) return;
    const uint32_t beside = 1u << STALL_ICACHE | 1u << STALL_ITLB;
    for (size_t k = 0; k < dc->cfg.ninsns; k++) {
        dcpicalc_insn_t *x = &dc->insn[k];
        if (!(x->culprits >> STALL_ICACHE & 1) || !(x->culprits & ~beside)) continue;
        if (events_below(dc, k, dcpicalc_dynamic_stall(dc, k), PMU_IMISS, k, k,
                         dc->imiss_per_period, cost, ICACHE_BOUND_SHARE))
            x->culprits &= ~(1u << STALL_ICACHE);
    }
}

/* Culprit `cause` listed beside an I-cache miss is left out where the
 * instruction's IMISS samples (at least `least`), each miss at `cost`
 * cycles (capped at a lone miss's), explain its whole dynamic stall: the
 * two rules below. */
static void drop_within_icache(dcpicalc_t *dc, double cost, int cause, uint64_t least)
{
    if (cost <= 0) return;
    if (cost > (double)dc->miss_bound) cost = (double)dc->miss_bound;
    const uint32_t both = 1u << STALL_ICACHE | 1u << cause;
    for (size_t k = 0; k < dc->cfg.ninsns; k++) {
        dcpicalc_insn_t *x = &dc->insn[k];
        if ((x->culprits & both) != both || x->imiss < least) continue;
        if ((double)x->imiss * dc->imiss_per_period * cost >= dcpicalc_dynamic_stall(dc, k) * x->freq)
            x->culprits &= ~(1u << cause);
    }
}

/* A misprediction listed beside an I-cache miss whose IMISS samples on the
 * instruction (at least MISPREDICT_EVENTS_LEAST of them), each miss at the
 * cost measured on the run (icache_cost_measured, at most a lone miss's),
 * explain its whole dynamic stall is left out: the refetch after a
 * misprediction that misses the I-cache waits for the line, and the model
 * charges the wait to the I-cache.  (On 14 of the short-period runs, a
 * scratch dump of every instruction: 17.0 M cycles of false misprediction
 * culprits beside the I-cache, rv64 maze_route's `ld a1,40(sp)` after a
 * call, 1.9 M cycles of I-cache wait, 89 IMISS and 90 BRANCHMP samples;
 * this rule ruled out 4.4 M of them and 0.33 M of true misprediction
 * cycles.  Ruling it out beside any IMISS sample cost 27.6 M.) */
static void mispredict_within_icache(dcpicalc_t *dc, double cost)
{
    drop_within_icache(dc, cost, STALL_MISPREDICT, MISPREDICT_EVENTS_LEAST);
}

/* A dependency listed beside an I-cache miss whose IMISS samples on the
 * instruction (any: icache_evident's), each miss at the cost measured on
 * the run (`cost`: twice icache_cost_measured, at most a lone miss's, as
 * mispredict_within_icache takes it), can explain its whole dynamic stall
 * is left out: an in-order instruction waits for its line and its
 * operands together, and a line that comes as late as the stall covers
 * the operand's wait (icache_dominates' reason, by the run's cost rather
 * than the least a miss costs).  (On the 24 short-period runs, a scratch
 * dump scored offline: dependency precision / recall 81.19 / 94.60 ->
 * 82.32 / 94.59; with 3 IMISS samples or more 82.17, 6 or more 81.79; at
 * the measured cost once, not twice, 81.68.  The largest: rv64
 * maze_route's astar_connect, `mv s1,a0` after a call, 1.4 cycles an
 * execution, 0.26 M cycles all the I-cache's, 21 IMISS samples; 37
 * instructions in all.) */
static void dependency_within_icache(dcpicalc_t *dc, double cost)
{
    drop_within_icache(dc, cost, STALL_DEP, 1);
}

/* The write buffer listed beside an I-cache miss whose IMISS samples on
 * the store (any), each miss at twice the cost measured on the run (as
 * dependency_within_icache takes it), can explain its whole dynamic stall
 * is left out: the model asks for a buffer slot only when the store
 * issues, and the buffer drains while the line comes.  buffer_behind_front_end
 * leaves it out only where no store lies just before (a prologue of
 * spills keeps it: Alpha raytrace's group_occluded, `stq ra,0(sp)` after
 * other spills, 0.11 M cycles all the I-cache's, 14 IMISS samples).  (On
 * the 24 short-period runs, a scratch dump scored offline, write-buffer
 * precision / recall 88.35 / 88.18 -> 90.74 / 87.98; at the measured cost
 * once 89.09 / 88.10; with 3 IMISS samples or more 90.47 / 88.01, 6 or
 * more 90.02 / 88.04; beside any I-cache culprit 91.60 / 85.85.) */
static void buffer_within_icache(dcpicalc_t *dc, double cost)
{
    drop_within_icache(dc, cost, STALL_WBUF, 1);
}

/* A store listed beside a stall of the front end -- an I-cache miss or a
 * misprediction, the culprits left once the I-cache's bounds have been
 * taken (bound_icache_by_run, mispredict_within_icache), each only where
 * its event was collected (IMISS samples on the store, BRANCHMP's bounds
 * taken; without them either is listed wherever it can be) -- waits for the
 * line or the refetch, not for the write buffer, when no other store lies
 * within BURST_INSNS instructions before it on any path (store_within):
 * the buffer drains while the fetch comes, and only a stream of stores,
 * as a loop that stores on every iteration, keeps it full (glibc's
 * memset: its loop head's store waited 6.7 M cycles for the buffer on
 * Alpha nlparse, three instructions after the store before it around the
 * loop).  The write buffer is then left out; at the head of such a loop of
 * its own block the misprediction is (self_loop_stores).  (On the 24 short-period
 * runs, a scratch dump scored offline, write-buffer precision / recall:
 * 83.3 / 88.3 before; beside a misprediction alone, no store within 4 on
 * any path, 85.6 / 88.2 (within 3 86.2 / 88.2; within 16 84.1 / 88.3);
 * beside the I-cache too, 87.4 / 88.2 over that (any store beside the
 * I-cache, 90.5 / 85.8; only with no store before it in its block, 87.5 /
 * 87.9).  The largest: anneal_place's net_bbox, `sw a0,0(a2)` at the
 * target of a bge, 1.6 M cycles of misprediction; Alpha anneal_place's
 * try_move, `stq s5,8(sp)` at a line's start, 1.1 M of I-cache.) */
static bool self_loop_stores(const cfg_t *g, size_t b);
static void buffer_behind_front_end(dcpicalc_t *dc)
{
    const uint32_t front = (dc->has_imiss ? 1u << STALL_ICACHE : 0) |
                           (dc->has_branchmp ? 1u << STALL_MISPREDICT : 0);
    if (!front) return;
    for (size_t k = 0; k < dc->cfg.ninsns; k++) {
        dcpicalc_insn_t *x = &dc->insn[k];
        uint32_t shown = front & (x->imiss ? ~0u : ~(1u << STALL_ICACHE));
        if (!(x->culprits >> STALL_WBUF & 1) || !(x->culprits & shown)) continue;
        size_t b = cfg_block_of(&dc->cfg, k);
        if (!store_within(&dc->cfg, b, k, BURST_INSNS))
            x->culprits &= ~(1u << STALL_WBUF);
        else if ((x->culprits >> STALL_MISPREDICT & 1) && k == dc->cfg.blocks[b].first &&
                 self_loop_stores(&dc->cfg, b))
            x->culprits &= ~(1u << STALL_MISPREDICT);
    }
}

/* Whether block b is a loop of its own (an edge from it to itself) with a
 * store within BURST_INSNS instructions of its end, before its head
 * around the loop: a stream of stores that can keep the write buffer full
 * on every iteration, where its back edge mispredicts only about the
 * loop's entries and exits (glibc's memset). */
static bool self_loop_stores(const cfg_t *g, size_t b)
{
    const cfg_block_t *p = &g->blocks[b];
    bool loop = false;
    for (size_t e = 0; e < g->nedges && !loop; e++)
        loop = g->edges[e].from == (int)b && g->edges[e].to == (int)b;
    if (!loop) return false;
    size_t end = p->first + p->n;
    for (size_t j = end; j-- > p->first && end - j <= BURST_INSNS;)
        if (g->insns[j].flags & IF_STORE) return true;
    return false;
}

/* A store of a register the caller computed (CALLER_DEP: a callee-saved
 * register spilled in a prologue, most often), listed with the write
 * buffer alone of the candidates that stall it but not the I-cache, waits
 * for the caller's load that missed rather than for the buffer where
 * MISPREDICT_EVENTS_LEAST or more DMISS samples lie on it, their misses
 * can explain its whole stall (dcache_explains), and it cannot fill the
 * buffer itself (no store just before it, or fewer stores in its block
 * than the buffer holds: waits_for_operand's test): the D-cache is listed
 * instead of the write buffer.  The caller's value is otherwise a culprit
 * only where nothing else is (caller_culprits), and the buffer hid it.
 * (Alpha and rv64 bytecode_vm's free_obj, `stq s0,8(sp)` / `sd s0,16(sp)`
 * in its prologue, 41-44 cycles an execution, 1.5 M cycles of D-cache
 * wait each, 11 and 30 DMISS samples.  On the 24 short-period runs, a
 * scratch dump scored offline: write-buffer precision 87.4 -> 88.4, recall
 * 88.2 both; D-cache 96.9 / 95.9 -> 96.9 / 96.1; with the I-cache beside
 * it too, D-cache precision 96.9 -> 96.88: rv64 bigint_interp's bn_add,
 * `sd s0,16(sp)` at a line's start, 6 DMISS samples, all of its stall the
 * I-cache's.) */
static void caller_load_not_buffer(dcpicalc_t *dc)
{
    const uint32_t wbuf = 1u << STALL_WBUF;
    if (!dc->has_dmiss) return;
    for (size_t k = 0; k < dc->cfg.ninsns; k++) {
        dcpicalc_insn_t *x = &dc->insn[k];
        if (!(x->culprits & wbuf) || (x->culprits >> STALL_ICACHE & 1) ||
            x->dmiss < MISPREDICT_EVENTS_LEAST)
            continue;
        size_t b = cfg_block_of(&dc->cfg, k);
        bool alone = !store_burst(&dc->cfg, b, k) || block_stores(&dc->cfg, b) < dc->wbuf_entries;
        if (alone && (operands_before(dc, b, k, NULL) & CALLER_DEP) &&
            dcache_explains(dc, k, dcpicalc_dynamic_stall(dc, k)))
            x->culprits = (x->culprits & ~wbuf) | 1u << STALL_DCACHE;
    }
}

double dcpicalc_dynamic_stall(const dcpicalc_t *dc, size_t k)
{
    const dcpicalc_insn_t *x = &dc->insn[k];
    return x->cpi < 0 ? -1 : x->cpi - (double)x->sched.head;
}

/* Whether instruction k has a dynamic stall to explain: its samples
 * exceed what its frequency and static schedule predict (F x M) by more
 * than CULPRIT_Z standard deviations of their Poisson noise, however
 * small the stall per execution, or by more than half a cycle per
 * execution.  (Half a cycle alone, as before, left out the rare stalls of
 * frequent instructions: a block head mispredicted on one execution in
 * ten costs 0.5 cycles an execution: culprit recall 75.4 -> 82.0%, the
 * mean of 5 short-period runs of minicc, bigint_interp and objdb,
 * precision 86.1 -> 86.5%.) */
#define CULPRIT_Z 2.0
static bool stall_to_explain(const dcpicalc_t *dc, size_t k)
{
    const dcpicalc_insn_t *x = &dc->insn[k];
    double dyn = dcpicalc_dynamic_stall(dc, k);
    if (x->freq <= 0 || dyn <= 0) return false;
    double expect = x->freq * (double)x->sched.head;
    return dyn > 0.5 || (double)x->samples - expect > CULPRIT_Z * sqrt(fmax(expect, 1.0));
}

/* Each instruction's frequency (its block's class's), CPI and culprits. */
static void analyse_insns(dcpicalc_t *dc)
{
    for (size_t k = 0; k < dc->cfg.ninsns; k++) {
        dcpicalc_insn_t *x = &dc->insn[k];
        x->freq = block_freq(dc, (int)cfg_block_of(&dc->cfg, k));
        x->cpi = x->freq > 0 ? (double)x->samples / x->freq : -1;
        x->culprits = stall_to_explain(dc, k) ? culprits_of(dc, k) : 0;
    }
}

/* ---- one-point classes: the I-cache stall in their samples ------------------------- */

/* A class whose frequency rests on one issue point (its cluster is that
 * point alone, and no flow correction replaced it: confidence low or
 * medium, not a head that may pair) counts that point's stalls as
 * frequency.  Where the I-cache is proven there -- IMISS samples on the
 * instructions the point sums (icache_evident's rule: a miss holds its
 * own instruction, and its samples land on it) -- the cycles of the
 * misses those samples project, each at the cost per miss the run
 * measured (`cost`), are taken off its samples: F = (S - IMISS x
 * IMISS period / CYCLES period x cost) / M.  Not where that leaves
 * nothing (the cost is then not this point's).  The value is an estimate,
 * no longer an upper bound.  Whether the class changed. */
static bool unstall_single_point(dcpicalc_t *dc, int c, double cost)
{
    uint64_t m = dc->class_single_m[c], imiss = dc->class_single_imiss[c];
    int conf = dc->class_conf[c];
    double f = dc->class_freq[c];
    if (!m || !imiss || f <= 0 || dc->class_paired[c] || dc->class_points[c] != 1 ||
        (conf != CONF_LOW && conf != CONF_MEDIUM))
        return false;
    double stall = (double)imiss * dc->imiss_per_period * cost;      /* CYCLES samples */
    double lower = f - stall / (double)m;
    if (lower <= 0) return false;
    dc->class_freq[c] = lower;
    return true;
}

/* unstall_single_point on every class, after the flow corrections, where
 * IMISS and its period are known and the run measured the I-cache's cost
 * per miss (`cost`, > 0; the measure itself: twice it, as the I-cache
 * bound takes, lowered more classes than it should -- 24 short-period
 * runs: recall 93.04 -> 93.08 but precision 93.63 -> 93.57, within 10%
 * 93.17 -> 93.13).  Whether any class changed. */
static bool unstall_single_points(dcpicalc_t *dc, double cost)
{
    if (!dc->has_imiss || dc->imiss_per_period <= 0 || cost <= 0) return false;
    bool changed = false;
    for (int c = 0; c < dc->cfg.nclasses; c++) changed |= unstall_single_point(dc, c, cost);
    return changed;
}

/* ---- culprits the events confirm where the samples show no stall ------------------- */

/* The culprits of instruction k of block b (freq known) whose own event
 * says it happened there though the CYCLES samples show no stall to
 * explain (stall_to_explain): the paper's Section 6 confirms a culprit by
 * its event's samples; here the event names it.  A misprediction at a
 * block head entered by a transfer, where the misprediction stays a
 * candidate (evident_candidates) and BRANCHMP samples lie on the head or
 * within its skid after it on some path (path_samples, 2 x SKID_INSNS:
 * mispredict_minor's window; those samples land at the refetched target
 * and after); an I-cache miss at a candidate (a line's start, a block
 * entered from elsewhere, a return point) with IMISS samples on the
 * instruction itself (icache_evident: a miss holds its own instruction).
 * Each only where its event was collected.  A stall of a few executions in
 * many, or one whose samples land on the instructions around it, hides in
 * the counts' noise: Alpha raytrace's `fmov $f10,$f11` at a branch target,
 * 1.92 cycles of misprediction an execution by the truth on 642 K
 * executions, CPI 1.00 by its samples (a one-point class that took the
 * stall as frequency), 229 BRANCHMP samples within its skid.  (On the 24
 * short-period runs, a scratch dump scored offline, per-cause precision /
 * recall: misprediction 91.24 / 79.94 -> 91.30 / 83.98, I-cache 87.70 /
 * 79.69 -> 87.87 / 82.20; at any head with the misprediction a candidate,
 * no BRANCHMP asked, 90.97 / 85.56; with 3 samples or more 91.34 / 83.54;
 * with BRANCHMP samples on the head itself 91.18 / 80.98.)  An instruction
 * with no true stall costs no precision; one whose true stall is another
 * cause's does.  Nothing here enters a frequency or the I-cache's
 * measured cost (icache_measure runs before). */
static uint32_t confirmed_by_events(const dcpicalc_t *dc, size_t b, size_t k)
{
    uint32_t c = evident_candidates(dc, b, k), out = 0;
    if (dc->has_branchmp && (c >> STALL_MISPREDICT & 1) && k == dc->cfg.blocks[b].first) {
        uint64_t n = 0;
        path_samples(dc, PMU_BRANCHMP, k, 2 * SKID_INSNS, &n);  /* partial where a path leaves */
        if (n) out |= 1u << STALL_MISPREDICT;
    }
    if (dc->has_imiss && (c >> STALL_ICACHE & 1) && icache_evident(dc, k))
        out |= 1u << STALL_ICACHE;
    return out;
}

/* confirmed_by_events on every instruction of known frequency whose
 * samples show no stall to explain: the last pass of the culprits. */
static void confirm_by_events(dcpicalc_t *dc)
{
    for (size_t k = 0; k < dc->cfg.ninsns; k++) {
        dcpicalc_insn_t *x = &dc->insn[k];
        if (x->freq <= 0 || stall_to_explain(dc, k)) continue;
        x->culprits |= confirmed_by_events(dc, cfg_block_of(&dc->cfg, k), k);
    }
}

/* Where neither the procedure nor its run measured the I-cache's cost per
 * miss (too few IMISS samples on instructions whose one culprit is the
 * I-cache: icache_cost_measured, dcpicalc_icache_cost), the I-cache
 * bound beside another culprit (bound_icache_by_run) takes the least a
 * miss costs, the next level's hit (dc->refill_least, the S-cache's 6
 * cycles on ev5), as the cost per miss: the runs that measure it measure
 * 2.8-9.3 cycles (the 24 short-period runs), a warm program's misses
 * hitting the S-cache.  Nothing else of the measure's rules is taken (no
 * class is lowered: the frequencies stay).  (On the 24 short-period runs,
 * a scratch dump scored offline: three runs measure nothing -- rv64
 * lz_compress, bwt_compress, netflow, 28-133 IMISS samples --; I-cache
 * precision / recall 90.48 / 81.70 -> 91.56 / 81.53, by one instruction:
 * rv64 bwt_compress's bwt_forward, `subw` at a branch target, 1.15 M
 * cycles of misprediction, 83 K of I-cache, 4 IMISS samples; at twice
 * the hit nothing is ruled out.) */
static void icache_bound_unmeasured(dcpicalc_t *dc)
{
    if (!dc->has_imiss || dc->imiss_per_period <= 0 || !dc->refill_least) return;
    analyse_insns(dc);
    bound_icache_by_run(dc, (double)dc->refill_least);
    buffer_behind_front_end(dc);
    caller_load_not_buffer(dc);
    confirm_by_events(dc);
}

bool dcpicalc_unstall(dcpicalc_t *dc, double cost)
{
    if (dc->unstalled) return false;
    if (cost <= 0) {
        icache_bound_unmeasured(dc);
        return false;
    }
    dc->unstalled = true;
    bool changed = unstall_single_points(dc, cost);
    analyse_insns(dc);                  /* the culprits anew, before the bounds at this cost */
    bound_icache_by_run(dc, cost);
    mispredict_within_icache(dc, ICACHE_COST_SHARE * cost);
    dependency_within_icache(dc, ICACHE_COST_SHARE * cost);
    buffer_within_icache(dc, ICACHE_COST_SHARE * cost);
    buffer_behind_front_end(dc);
    caller_load_not_buffer(dc);
    confirm_by_events(dc);
    return changed;
}

static bool schedule_blocks(dcpicalc_t *dc, const config_t *cfg, const isa_t *isa, char *err,
                            size_t errlen)
{
    timing_static_t *s = xcalloc(dc->cfg.ninsns, sizeof *s);
    for (size_t b = 0; b < dc->cfg.nblocks; b++) {
        const cfg_block_t *x = &dc->cfg.blocks[b];
        if (!timing_static_schedule(cfg, isa, &dc->cfg.insns[x->first], x->n, &s[x->first], err,
                                    errlen)) {
            free(s);
            return false;
        }
    }
    for (size_t k = 0; k < dc->cfg.ninsns; k++) dc->insn[k].sched = s[k];
    free(s);
    return true;
}

bool dcpicalc_run(dcpicalc_t *dc, const config_t *cfg, const isa_t *isa, const uint8_t *code,
                  uint64_t start, size_t size, dcpicalc_samples_fn samples, void *ctx,
                  char *err, size_t errlen)
{
    return dcpicalc_run_events(dc, cfg, isa, code, start, size, samples, ctx,
                               DCPICALC_EVENTS_SEEN, NULL, NULL, err, errlen);
}

static size_t read_file_image(void *path, uint64_t addr, uint8_t *buf, size_t len)
{
    return symtab_read_code(path, addr, buf, len);
}

cfg_image_t dcpicalc_file_image(const char *path)
{
    return (cfg_image_t){ read_file_image, (void *)path };
}

/* The most cycles an L1 miss costs on the model when nothing else is in
 * flight: the L2's hit latency, memory's, and the line at memory's
 * bandwidth (the L2's line, or the L1 I-cache's without an L2). */
static unsigned lone_miss_cycles(const config_t *cfg)
{
    uint64_t line = cfg->l2_enabled ? cfg->l2_line : cfg->l1i_line;
    return (unsigned)((cfg->l2_enabled ? cfg->l2_hit_latency : 0) + cfg->mem_latency +
                      line / cfg->mem_bytes_per_cycle);
}

/* The longest latency of an operation on the model. */
static unsigned longest_latency(const dcpicalc_t *dc)
{
    unsigned most = 0;
    for (int c = 0; c < OC_COUNT; c++)
        if (dc->latency[c] > most) most = dc->latency[c];
    return most;
}

bool dcpicalc_run_events(dcpicalc_t *dc, const config_t *cfg, const isa_t *isa,
                         const uint8_t *code, uint64_t start, size_t size,
                         dcpicalc_samples_fn samples, void *ctx, uint32_t collected,
                         const double *periods, const cfg_image_t *image, char *err,
                         size_t errlen)
{
    memset(dc, 0, sizeof *dc);
    if (!cfg_build_image(isa, code, start, size, image, &dc->cfg))
        return set_error(err, errlen, "no instruction decodes at 0x%llx",
                         (unsigned long long)start);
    dc->line_bytes = (unsigned)cfg->l1i_line;
    dc->wbuf_entries = (unsigned)cfg->wbuf_entries;
    dc->call_results = call_result_registers(isa);
    dc->settled = settled_registers(isa);
    timing_latencies(cfg, dc->latency);
    dc->issue_width = cfg->model == CFG_MODEL_EV5 ? (unsigned)cfg->ev5_width : 1;
    /* who waits for a busy unit, as the timing models charge it: on ev5 a
     * divide for its divider, unless pipelined (multiplies never wait);
     * on inorder5 the instruction behind a multi-cycle operation in EX */
    if (cfg->model == CFG_MODEL_EV5) {
        if (!cfg->lat_int_div_pipelined) dc->unit_waiters |= 1u << OC_IDIV;
        if (!cfg->lat_fp_div_pipelined) dc->unit_waiters |= 1u << OC_FDIV | 1u << OC_FSQRT;
        dc->load_use_reach = (size_t)cfg->lat_load_use;
        unsigned lat = cfg->lat_int_div > cfg->lat_fp_div ? cfg->lat_int_div : cfg->lat_fp_div;
        dc->unit_reach = (size_t)lat * cfg->ev5_width;
        if (dc->unit_waiters) dc->unit_wait_bound = lat;
    } else {
        dc->waits_behind_long_op = true;
    }
    dc->mispredict_bound = (unsigned)cfg->ev5_mispredict_penalty + 1;
    dc->has_ras = cfg->ras_entries > 0;
    if (periods && periods[PMU_CYCLES] > 0) {
        dc->imiss_per_period = periods[PMU_IMISS] / periods[PMU_CYCLES];
        dc->branchmp_per_period = periods[PMU_BRANCHMP] / periods[PMU_CYCLES];
        dc->dtbmiss_per_period = periods[PMU_DTBMISS] / periods[PMU_CYCLES];
        dc->itbmiss_per_period = periods[PMU_ITBMISS] / periods[PMU_CYCLES];
        dc->dmiss_per_period = periods[PMU_DMISS] / periods[PMU_CYCLES];
    }
    dc->dtb_miss_bound = (unsigned)cfg->dtlb_miss_penalty;
    dc->itb_miss_bound = (unsigned)cfg->itlb_miss_penalty;
    dc->miss_bound = lone_miss_cycles(cfg);
    dc->refill_least = (unsigned)(cfg->l2_enabled ? cfg->l2_hit_latency : cfg->mem_latency);
    dc->dependency_reach = (size_t)longest_latency(dc) * dc->issue_width;
    dc->insn = xcalloc(dc->cfg.ninsns, sizeof *dc->insn);
    for (size_t k = 0; k < dc->cfg.ninsns; k++) {
        dc->insn[k].samples = samples(ctx, PMU_CYCLES, dc->cfg.insns[k].pc);
        dc->insn[k].imiss = samples(ctx, PMU_IMISS, dc->cfg.insns[k].pc);
        dc->insn[k].dmiss = samples(ctx, PMU_DMISS, dc->cfg.insns[k].pc);
        dc->insn[k].branchmp = samples(ctx, PMU_BRANCHMP, dc->cfg.insns[k].pc);
        dc->insn[k].dtbmiss = samples(ctx, PMU_DTBMISS, dc->cfg.insns[k].pc);
        dc->insn[k].itbmiss = samples(ctx, PMU_ITBMISS, dc->cfg.insns[k].pc);
        dc->has_imiss |= dc->insn[k].imiss != 0;
        dc->has_dmiss |= dc->insn[k].dmiss != 0;
        dc->has_branchmp |= dc->insn[k].branchmp != 0;
        dc->has_dtbmiss |= dc->insn[k].dtbmiss != 0;
        dc->has_itbmiss |= dc->insn[k].itbmiss != 0;
    }
    if (collected != DCPICALC_EVENTS_SEEN) {
        dc->has_imiss = collected >> PMU_IMISS & 1;
        dc->has_dmiss = collected >> PMU_DMISS & 1;
        dc->has_branchmp = collected >> PMU_BRANCHMP & 1;
        dc->has_dtbmiss = collected >> PMU_DTBMISS & 1;
        dc->has_itbmiss = collected >> PMU_ITBMISS & 1;
    }
    if (!schedule_blocks(dc, cfg, isa, err, errlen)) {
        dcpicalc_free(dc);
        return false;
    }
    size_t nc = (size_t)(dc->cfg.nclasses ? dc->cfg.nclasses : 1);
    dc->class_freq = xcalloc(nc, sizeof *dc->class_freq);
    dc->class_conf = xcalloc(nc, sizeof *dc->class_conf);
    dc->class_points = xcalloc(nc, sizeof *dc->class_points);
    dc->class_paired = xcalloc(nc, sizeof *dc->class_paired);
    dc->class_single_m = xcalloc(nc, sizeof *dc->class_single_m);
    dc->class_single_imiss = xcalloc(nc, sizeof *dc->class_single_imiss);
    dc->exact_freq = xcalloc(nc, sizeof *dc->exact_freq);
    estimate_classes(dc);
    refine_single_points(dc);
    raise_paired(dc);
    clamp_to_ceilings(dc);
    propagate(dc, -1, NULL);
    refine_by_flow(dc);
    clamp_to_upper_ceilings(dc);
    exact_frequencies(dc);
    analyse_insns(dc);
    double cost = icache_cost_measured(dc);
    dc->unstalled = cost > 0;
    if (unstall_single_points(dc, cost)) analyse_insns(dc);
    bound_icache_by_run(dc, cost);
    mispredict_within_icache(dc, ICACHE_COST_SHARE * cost);
    dependency_within_icache(dc, ICACHE_COST_SHARE * cost);
    buffer_within_icache(dc, ICACHE_COST_SHARE * cost);
    buffer_behind_front_end(dc);
    caller_load_not_buffer(dc);
    confirm_by_events(dc);
    return true;
}

void dcpicalc_free(dcpicalc_t *dc)
{
    cfg_free(&dc->cfg);
    free(dc->insn);
    free(dc->class_freq);
    free(dc->class_conf);
    free(dc->class_points);
    free(dc->class_paired);
    free(dc->class_single_m);
    free(dc->class_single_imiss);
    free(dc->exact_freq);
    memset(dc, 0, sizeof *dc);
}

/* ---- the ground-truth file ---------------------------------------------------------- */

enum { TRUTH_FIXED = 4 };       /* pc, symbol, count, head_cycles */

typedef struct truth_reader {
    const char *path;
    size_t line;
    int ncause;                 /* stall columns of the header, 0 before it */
    size_t profiler;            /* the field of its `profiler` column, or 0 */
    size_t cap;
} truth_reader_t;

/* Split a line at its tabs (empty fields kept); the number of fields. */
static size_t split_tabs(char *line, char **field, size_t max)
{
    size_t n = 0;
    line[strcspn(line, "\r\n")] = 0;
    for (char *p = line; n < max; p++) {
        field[n++] = p;
        p = strchr(p, '\t');
        if (!p) break;
        *p = 0;
    }
    return n;
}

/* A whole field as an unsigned number of the base; false if it is not. */
static bool field_number(const char *text, int base, uint64_t *v)
{
    char *end;
    if (!*text || *text == '-' || *text == '+' || *text == ' ') return false;
    errno = 0;
    *v = strtoull(text, &end, base);
    return !errno && end != text && !*end;
}

/* One row into r; false + err naming the line and the field. */
static bool truth_row(truth_reader_t *rd, char *line, dcpicalc_truth_row_t *r, char *err,
                      size_t errlen)
{
    char *f[TRUTH_FIXED + STALL_COUNT + 2];
    size_t nf = split_tabs(line, f, sizeof f / sizeof f[0]);
    int causes = rd->ncause < STALL_COUNT - 1 ? rd->ncause : STALL_COUNT - 1;
    size_t read = TRUTH_FIXED + (size_t)causes;
    size_t need = rd->profiler ? rd->profiler + 1 : read;
    if (nf < need)
        return set_error(err, errlen, "%s:%zu: short row: %zu fields, expected at least %zu (pc, "
                         "symbol, count, head_cycles and %d stall causes)", rd->path, rd->line,
                         nf, need, causes);
    memset(r, 0, sizeof *r);
    static const char *const names[] = { "pc", "symbol", "count", "head_cycles" };
    for (size_t k = 0; k < read; k++) {
        uint64_t *slot = k == 0 ? &r->pc : k == 2 ? &r->count : k == 3 ? &r->head
                       : k >= TRUTH_FIXED ? &r->stall[k - TRUTH_FIXED + 1] : NULL;
        if (!slot) continue;
        if (!field_number(f[k], k ? 10 : 16, slot))
            return set_error(err, errlen, "%s:%zu: field %zu (%s): expected %s number, got '%.40s'",
                             rd->path, rd->line, k + 1,
                             k < TRUTH_FIXED ? names[k] : stall_names[k - TRUTH_FIXED + 1],
                             k ? "a decimal" : "a hexadecimal", f[k]);
    }
    if (rd->profiler && !field_number(f[rd->profiler], 10, &r->profiler))
        return set_error(err, errlen, "%s:%zu: field %zu (profiler): expected a decimal number, "
                         "got '%.40s'", rd->path, rd->line, rd->profiler + 1, f[rd->profiler]);
    return true;
}

/* The header: its columns give the number of stall causes, and whether
 * the profiler's column (v2) follows them. */
static bool truth_header(truth_reader_t *rd, const char *line, char *err, size_t errlen)
{
    int tabs = 0;
    for (const char *p = line; *p; p++) tabs += *p == '\t';
    rd->ncause = tabs - TRUTH_FIXED;            /* the last column is culprit_pc */
    rd->profiler = 0;
    if (rd->ncause > 1 && strstr(line, "\tprofiler\tculprit_pc")) {
        rd->ncause--;
        rd->profiler = TRUTH_FIXED + (size_t)rd->ncause;
    }
    if (rd->ncause <= 0)
        return set_error(err, errlen, "%s:%zu: header without stall-cause columns: not a "
                         "ground-truth file (hps-sim --ground-truth)", rd->path, rd->line);
    return true;
}

static int truth_by_pc(const void *a, const void *b)
{
    const dcpicalc_truth_row_t *x = a, *y = b;
    return x->pc < y->pc ? -1 : x->pc > y->pc;
}

/* Each line of f: comments, the header, rows. */
static bool truth_lines(truth_reader_t *rd, FILE *f, dcpicalc_truth_t *t, char *err,
                        size_t errlen)
{
    char *line = NULL;
    size_t len = 0;
    bool ok = true;
    while (ok && getline(&line, &len, f) > 0) {
        rd->line++;
        if (line[0] == '#') continue;
        if (!strncmp(line, "pc\t", 3)) { ok = truth_header(rd, line, err, errlen); continue; }
        if (!rd->ncause) {
            ok = set_error(err, errlen, "%s:%zu: a row before the 'pc<TAB>symbol<TAB>...' header: "
                           "not a ground-truth file (hps-sim --ground-truth)", rd->path, rd->line);
            break;
        }
        if (t->n == rd->cap)
            t->v = xrealloc(t->v, (rd->cap = rd->cap ? 2 * rd->cap : 1024) * sizeof *t->v);
        ok = truth_row(rd, line, &t->v[t->n], err, errlen);
        if (ok) t->n++;
    }
    free(line);
    return ok;
}

bool dcpicalc_truth_read(const char *path, dcpicalc_truth_t *t, char *err, size_t errlen)
{
    memset(t, 0, sizeof *t);
    FILE *f = fopen(path, "r");
    if (!f) return set_error(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    truth_reader_t rd = { .path = path };
    bool ok = truth_lines(&rd, f, t, err, errlen);
    if (ok && ferror(f)) ok = set_error(err, errlen, "%s: cannot read: %s", path, strerror(errno));
    fclose(f);
    if (ok && !t->n) ok = set_error(err, errlen, "%s: no rows: not a ground-truth file "
                                    "(hps-sim --ground-truth)", path);
    if (!ok) {
        dcpicalc_truth_free(t);
        return false;
    }
    qsort(t->v, t->n, sizeof *t->v, truth_by_pc);
    return true;
}

void dcpicalc_truth_free(dcpicalc_truth_t *t)
{
    free(t->v);
    memset(t, 0, sizeof *t);
}

void dcpicalc_truth_add(dcpicalc_truth_t *t, const dcpicalc_truth_t *more)
{
    dcpicalc_truth_row_t *v = xcalloc(t->n + more->n, sizeof *v);
    size_t n = 0, a = 0, b = 0;
    while (a < t->n || b < more->n) {           /* both sorted by pc */
        if (b == more->n || (a < t->n && t->v[a].pc < more->v[b].pc)) v[n++] = t->v[a++];
        else if (a == t->n || more->v[b].pc < t->v[a].pc) v[n++] = more->v[b++];
        else {
            dcpicalc_truth_row_t r = t->v[a++];
            const dcpicalc_truth_row_t *o = &more->v[b++];
            r.count += o->count;
            r.head += o->head;
            r.profiler += o->profiler;
            for (int c = 0; c < STALL_COUNT; c++) r.stall[c] += o->stall[c];
            v[n++] = r;
        }
    }
    free(t->v);
    t->v = v;
    t->n = n;
}

const dcpicalc_truth_row_t *dcpicalc_truth_at(const dcpicalc_truth_t *t, uint64_t pc)
{
    size_t lo = 0, hi = t->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (t->v[mid].pc < pc) lo = mid + 1;
        else hi = mid;
    }
    return lo < t->n && t->v[lo].pc == pc ? &t->v[lo] : NULL;
}
