/* main.c - driver of the bytecode_vm workload (perlbmk-like).
 *
 * Usage: bytecode_vm [test|train|ref]
 * Compiles and runs every embedded script in a fresh VM with the size's
 * problem parameter N, prints one line per script and a total checksum,
 * and exits 0 only when all scripts pass their own assertions and every
 * checksum matches the known value for the size. */
#include "vm.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { SZ_TEST, SZ_TRAIN, SZ_REF, SZ_COUNT };

/* Known per-script checksums, indexed [script][size]. */
static const uint64_t expected[][SZ_COUNT] = {
    {0xae9ad6b4b2057a01ULL, 0x3c1abfffa7d3dda7ULL, 0x2e795ee1a76c185fULL}, /* sort */
    {0xf054bc2cdc98e857ULL, 0xf8577f17415b48e7ULL, 0x413e9cee1104f6efULL}, /* strings */
    {0xf595515fb28a9b12ULL, 0xfce6c6bd6df23ee2ULL, 0x326dc2b43f875a24ULL}, /* dict */
    {0x00527938b3ea77e1ULL, 0x36d0f8beb0be1a11ULL, 0x4f6a2f689b857dc7ULL}, /* recur */
    {0x2879aa16c005f253ULL, 0xbade371d02d79ef9ULL, 0x38052824bff95df6ULL}, /* closures */
    {0xf3a7d3edb9c55ff9ULL, 0x86432a63df345a45ULL, 0xb6044e932afa4ad7ULL}, /* calc */
};

static VM the_vm;

static int parse_size(int argc, char **argv)
{
    if (argc < 2 || strcmp(argv[1], "test") == 0)
        return SZ_TEST;
    if (strcmp(argv[1], "train") == 0)
        return SZ_TRAIN;
    if (strcmp(argv[1], "ref") == 0)
        return SZ_REF;
    fprintf(stderr, "usage: %s [test|train|ref]\n", argv[0]);
    exit(2);
}

static int64_t script_n(const Script *s, int size)
{
    return size == SZ_TEST ? s->n_test : size == SZ_TRAIN ? s->n_train : s->n_ref;
}

/* Runs one script; returns its checksum (emitted values and result). */
static uint64_t run_one(const Script *s, int size, uint64_t *gcs, uint64_t *calls)
{
    VM *vm = &the_vm;
    vm_init(vm);
    vm_set_global_int(vm, "N", script_n(s, size));
    Value result;
    if (!vm_run_script(vm, s->name, s->src, &result)) {
        fprintf(stderr, "bytecode_vm: script %s failed to compile\n", s->name);
        exit(3);
    }
    vm_emit_value(vm, result);
    uint64_t sum = vm->checksum;
    *gcs = vm->gc_runs;
    *calls = vm->calls;
    vm_free(vm);
    return sum;
}

int main(int argc, char **argv)
{
    int size = parse_size(argc, argv);
    static const char *names[] = {"test", "train", "ref"};
    uint64_t total = 0;
    int bad = 0;
    printf("bytecode_vm %s: %d scripts\n", names[size], bvm_nscripts);
    for (int i = 0; i < bvm_nscripts; i++) {
        uint64_t gcs, calls;
        uint64_t sum = run_one(&bvm_scripts[i], size, &gcs, &calls);
        printf("  %-9s N=%-7" PRId64 " calls=%-9" PRIu64 " checksum=%016" PRIx64 "\n",
               bvm_scripts[i].name, script_n(&bvm_scripts[i], size), calls, sum);
        if (sum != expected[i][size]) {
            fprintf(stderr, "bytecode_vm: script %s checksum %016" PRIx64
                    " != expected %016" PRIx64 "\n",
                    bvm_scripts[i].name, sum, expected[i][size]);
            bad++;
        }
        total = total * 1000003u ^ sum;
        (void)gcs;
    }
    printf("total checksum %016" PRIx64 "\n", total);
    if (bad) {
        fprintf(stderr, "bytecode_vm: %d script(s) FAILED\n", bad);
        return 1;
    }
    printf("self-check OK\n");
    return 0;
}
