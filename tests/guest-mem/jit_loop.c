/*
 * jit_loop.c ITERATIONS [PAGES] - a JIT's life: map fresh pages, write a
 * small function into each (li a0,N; ret on RISC-V, lda v0,N(zero); ret on
 * Alpha), make them executable (mapped RWX on odd iterations, RW then
 * mprotect RX on even ones), call them, unmap them.  hps-sim must hold the
 * same host memory after 10,000 iterations as after 1,000.  Prints the sum
 * of what the functions returned.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define PAGE 8192              /* a whole page on both ISAs */

/* Write "return n" at p; returns its size in bytes. */
static size_t emit_return(uint8_t *p, unsigned n)
{
#if defined(__riscv)
    uint32_t code[2] = { (n & 0x7ffu) << 20 | 10u << 7 | 0x13u,   /* addi a0, zero, n */
                         0x00008067u };                            /* ret */
#elif defined(__alpha__)
    uint32_t code[2] = { 0x201f0000u | (n & 0x7fffu),              /* lda v0, n(zero) */
                         0x6bfa8001u };                            /* ret zero, (ra), 1 */
#else
#error "RISC-V or Alpha"
#endif
    memcpy(p, code, sizeof code);
    return sizeof code;
}

static void sync_icache(uint8_t *p, size_t len)
{
#if defined(__riscv)
    __builtin___clear_cache((char *)p, (char *)p + len);
#else
    (void)p, (void)len;
    __asm__ volatile("call_pal 0x86" ::: "memory");               /* imb */
#endif
}

int main(int argc, char **argv)
{
    long iterations = argc > 1 ? atol(argv[1]) : 1000;
    long pages = argc > 2 ? atol(argv[2]) : 1;
    size_t len = (size_t)pages * PAGE;
    unsigned long sum = 0;
    for (long it = 0; it < iterations; it++) {
        int rwx = it & 1;
        int prot = PROT_READ | PROT_WRITE | (rwx ? PROT_EXEC : 0);
        uint8_t *code = mmap(NULL, len, prot, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (code == MAP_FAILED) { perror("mmap"); return 1; }
        for (long pg = 0; pg < pages; pg++)
            emit_return(code + pg * PAGE + (it * 8 % (PAGE - 8)), (unsigned)(it + pg) % 1000);
        if (!rwx && mprotect(code, len, PROT_READ | PROT_EXEC)) { perror("mprotect"); return 1; }
        sync_icache(code, len);
        for (long pg = 0; pg < pages; pg++) {
            long (*fn)(void) = (long (*)(void))(code + pg * PAGE + (it * 8 % (PAGE - 8)));
            sum += (unsigned long)fn();
        }
        if (munmap(code, len)) { perror("munmap"); return 1; }
    }
    printf("jit_loop: %ld iterations, sum %lu\n", iterations, sum);
    return 0;
}
