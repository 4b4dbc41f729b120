/* main.c - driver of the minicc workload (gcc-like): generates a source
 * program, compiles it (parse, check, IR, optimise, allocate, emit), checks
 * that optimised IR computes the same results as unoptimised IR, that the
 * register allocation has no interference, and that the checksum of the
 * emitted assembly matches the known value. */
#include "minicc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct size_class {
    const char *name;
    int functions;
    int passes;          /* times the whole program is compiled */
    int check_stride;    /* interpret every Nth function */
    uint64_t expect;
} size_class;

static const size_class sizes[] = {
    {"test", 24, 1, 2, 0x7dd8e1f1e7473a4aULL},
    {"train", 200, 1, 4, 0xdcdf30459f860d4aULL},
    {"ref", 700, 2, 4, 0x067c672c4a9c166aULL},
};

static uint64_t fnv(const char *s, size_t n)
{
    uint64_t h = 0xcbf29ce484222325ULL;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ULL;
    }
    return h;
}

typedef struct run_totals {
    long ir_before, ir_after, mismatches, overflow, results, steps_before, steps_after;
    uint64_t result_hash;
    opt_stats os;
    ra_stats rs;
    size_t asm_bytes;
    uint64_t asm_hash;
} run_totals;

static void check_function(irfn **pre, irfn **post, int f, uint64_t *seed, run_totals *t)
{
    for (int v = 0; v < 2; v++) {
        int32_t args[4];
        for (int a = 0; a < 4; a++)
            args[a] = (int32_t)(rng_next(seed) % 2001) - 1000;
        exec_stats s1 = {0, 0, 0}, s2 = {0, 0, 0};
        int32_t r1 = ir_execute(pre, f, args, &s1);
        int32_t r2 = ir_execute(post, f, args, &s2);
        if (r1 != r2)
            t->mismatches++;
        t->overflow += s1.overflow + s2.overflow;
        t->steps_before += s1.steps;
        t->steps_after += s2.steps;
        t->result_hash = (t->result_hash ^ (uint32_t)r1) * 0x100000001b3ULL;
        t->results++;
    }
}

static int compile_once(const size_class *sc, uint64_t *seed, run_totals *t)
{
    int nf;
    char *src = generate_program(sc->functions, seed, &nf);
    unit *u = parse_unit(src);
    char err[160];
    if (sema_check(u, err, sizeof(err))) {
        fprintf(stderr, "minicc: semantic error: %s\n", err);
        return 0;
    }
    irfn **pre = malloc((size_t)u->nfns * sizeof(irfn *));
    irfn **post = malloc((size_t)u->nfns * sizeof(irfn *));
    for (int f = 0; f < u->nfns; f++) {
        pre[f] = irgen_function(u, f);
        post[f] = ir_clone(pre[f]);
        t->ir_before += ir_count(pre[f]);
        optimise(post[f], &t->os);
        t->ir_after += ir_count(post[f]);
        regalloc(post[f], &t->rs);
    }
    outbuf o = {malloc(1 << 16), 0, 1 << 16};
    for (int f = 0; f < u->nfns; f++)
        emit_function(&o, post[f], post);
    t->asm_bytes += o.len;
    t->asm_hash = t->asm_hash * 31 + fnv(o.s, o.len);
    for (int f = 0; f < u->nfns; f += sc->check_stride)
        check_function(pre, post, f, seed, t);
    for (int f = 0; f < u->nfns; f++) {
        ir_free(pre[f]);
        ir_free(post[f]);
    }
    free(pre);
    free(post);
    free(o.s);
    free(src);
    return 1;
}

int main(int argc, char **argv)
{
    const char *want = argc > 1 ? argv[1] : "test";
    const size_class *sc = NULL;
    for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
        if (strcmp(sizes[i].name, want) == 0)
            sc = &sizes[i];
    if (!sc) {
        fprintf(stderr, "usage: %s [test|train|ref]\n", argv[0]);
        return 2;
    }
    uint64_t seed = 0x6d696e6963632121ULL;
    run_totals t;
    memset(&t, 0, sizeof(t));
    for (int p = 0; p < sc->passes; p++)
        if (!compile_once(sc, &seed, &t))
            return 1;
    uint64_t checksum = t.asm_hash ^ (t.result_hash * 0x9e3779b97f4a7c15ULL);
    printf("minicc %s: functions=%d x %d, ir %ld -> %ld, asm %zu bytes\n", sc->name,
           sc->functions, sc->passes, t.ir_before, t.ir_after, t.asm_bytes);
    printf("  opt: folded=%ld propagated=%ld simplified=%ld removed=%ld branches=%ld\n",
           t.os.folded, t.os.propagated, t.os.simplified, t.os.removed, t.os.branches);
    printf("  regalloc: intervals=%ld spilled=%ld; checked %ld runs, steps %ld -> %ld\n",
           t.rs.intervals, t.rs.spilled, t.results, t.steps_before, t.steps_after);
    printf("minicc %s: checksum=%016llx\n", sc->name, (unsigned long long)checksum);
    int fail = 0;
    if (t.mismatches || t.overflow) {
        fprintf(stderr, "minicc: optimised code differs on %ld runs (%ld overflows)\n",
                t.mismatches, t.overflow);
        fail = 1;
    }
    if (t.rs.conflicts) {
        fprintf(stderr, "minicc: register allocation has %ld conflicts\n", t.rs.conflicts);
        fail = 1;
    }
    if (sc->expect && checksum != sc->expect) {
        fprintf(stderr, "minicc: checksum mismatch (expected %016llx)\n",
                (unsigned long long)sc->expect);
        fail = 1;
    }
    return fail;
}
