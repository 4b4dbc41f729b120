/*
 * vguest.c - a guest program with known value distributions at known
 * places, for tests/values/run.sh: the load in invariant_load always reads
 * 0x1234567; the load in bimodal reads 0xaaaa 7 times in 10 and 0xbbbb 3
 * times; the load in uniform reads each of 64 values 0x10000..0x1003f
 * equally often.  The loads of l2_walk hit in a 96 KiB+ L2 after the first
 * pass (48 KiB, one load per 64-byte line, more than any L1 here holds); those
 * of mem_walk (4 MiB, one per line, once) go to memory.  Prints the sums
 * (the same under qemu).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

volatile uint64_t invariant_word = 0x1234567;
volatile uint64_t bimodal_tab[10] = { 0xaaaa, 0xbbbb, 0xaaaa, 0xaaaa, 0xbbbb,
                                      0xaaaa, 0xaaaa, 0xbbbb, 0xaaaa, 0xaaaa };
volatile uint64_t uniform_tab[64];
#define L2_WORDS (48 * 1024 / 8)
#define MEM_WORDS (4 * 1024 * 1024 / 8)
volatile uint64_t l2_tab[L2_WORDS];
volatile uint64_t mem_tab[MEM_WORDS];

__attribute__((noinline)) static uint64_t invariant_load(long n)
{
    uint64_t s = 0;
    for (long i = 0; i < n; i++) s += invariant_word;
    return s;
}

__attribute__((noinline)) static uint64_t bimodal(long n)
{
    uint64_t s = 0;
    for (long i = 0, j = 0; i < n; i++) {
        s += bimodal_tab[j];
        if (++j == 10) j = 0;
    }
    return s;
}

__attribute__((noinline)) static uint64_t uniform(long n)
{
    uint64_t s = 0;
    for (long i = 0; i < n; i++) s += uniform_tab[i & 63];
    return s;
}

__attribute__((noinline)) static uint64_t l2_walk(long passes)
{
    uint64_t s = 0;
    for (long p = 0; p < passes; p++)
        for (long i = 0; i < L2_WORDS; i += 8) s += l2_tab[i];
    return s;
}

__attribute__((noinline)) static uint64_t mem_walk(void)
{
    uint64_t s = 0;
    for (long i = 0; i < MEM_WORDS; i += 8) s += mem_tab[i];
    return s;
}

int main(int argc, char **argv)
{
    long n = argc > 1 ? atol(argv[1]) : 200000;
    for (int i = 0; i < 64; i++) uniform_tab[i] = 0x10000 + (uint64_t)i;
    uint64_t a = invariant_load(n), b = bimodal(n), c = uniform(n);
    uint64_t d = l2_walk(n / 768 + 1), e = mem_walk();
    printf("%llx %llx %llx %llx %llx\n", (unsigned long long)a, (unsigned long long)b,
           (unsigned long long)c, (unsigned long long)d, (unsigned long long)e);
    return 0;
}
