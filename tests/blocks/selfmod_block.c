/*
 * selfmod_block.c [ROUNDS] - code that rewrites an instruction ahead of it
 * in the same straight-line run (the same decoded block of hps-sim's
 * functional core): each call stores "result = n" over the instruction
 * two places after the store, and returns what that instruction set plus
 * 7.  hps-sim drops a page's decoded code at the first store to it, so
 * the rewritten instruction runs: each call returns n + 7.  Prints the sum
 * and how many calls returned what they should.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__riscv)
/* f(code, insn): sw a1,12(a0); addi a2,zero,7; addi a3,zero,9;
 * [12] addi a0,zero,1; add a0,a0,a2; ret */
static const uint32_t template[] = { 0x00b52623u, 0x00700613u, 0x00900693u,
                                     0x00100513u, 0x00c50533u, 0x00008067u };
static uint32_t set_result(unsigned n) { return (n & 0x7ffu) << 20 | 10u << 7 | 0x13u; }
#elif defined(__alpha__)
/* f(code, insn): stl a1,12(a0); lda t0,7(zero); lda t1,9(zero);
 * [12] lda v0,1(zero); addq v0,t0,v0; ret */
static const uint32_t template[] = { 0xb230000cu, 0x203f0007u, 0x205f0009u,
                                     0x201f0001u, 0x40010400u, 0x6bfa8001u };
static uint32_t set_result(unsigned n) { return 0x201f0000u | (n & 0x7fffu); }
#else
#error "RISC-V or Alpha"
#endif

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 1000;
    uint8_t *code = mmap(NULL, 8192, PROT_READ | PROT_WRITE | PROT_EXEC,
                         MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (code == MAP_FAILED) { perror("mmap"); return 1; }
    memcpy(code, template, sizeof template);
    __builtin___clear_cache((char *)code, (char *)code + sizeof template);
    long (*f)(uint8_t *, uint64_t) = (long (*)(uint8_t *, uint64_t))code;
    long sum = 0, right = 0;
    for (long r = 0; r < rounds; r++) {
        unsigned n = (unsigned)(r % 100);
        long v = f(code, set_result(n));
        sum += v;
        right += v == (long)n + 7;
    }
    printf("selfmod_block: %ld rounds, sum %ld, %ld right\n", rounds, sum, right);
    return right == rounds ? 0 : 1;
}
