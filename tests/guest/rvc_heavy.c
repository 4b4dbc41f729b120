/*
 * rvc_heavy.c - differential test: compressed (C extension) instructions.
 * The compiler emits RVC freely at -O2 for small integer code like the
 * loops here; in addition an inline-asm block uses every common compressed
 * form explicitly (c.li, c.lui, c.addi, c.addiw, c.addi16sp, c.addi4spn,
 * c.slli, c.srli, c.srai, c.andi, c.mv, c.add, c.sub, c.xor, c.or, c.and,
 * c.addw, c.subw, c.lw, c.sw, c.ld, c.sd, c.fld, c.fsd, c.lwsp, c.swsp,
 * c.ldsp, c.sdsp, c.fldsp, c.fsdsp, c.beqz, c.bnez, c.j, c.jal-free c.jalr,
 * c.jr) and prints the results.
 */
#include <stdint.h>
#include <stdio.h>
#include <inttypes.h>

static uint64_t __attribute__((noinline)) rvc_block(uint64_t in, uint64_t *mem, double *fm)
{
    uint64_t out;
    __asm__ volatile(
        "mv s0, %1\n\t"
        "mv s1, %2\n\t"
        "mv a5, %3\n\t"
        "c.li a0, -17\n\t"
        "c.lui a1, 0x1f\n\t"
        "c.addi a0, 31\n\t"
        "c.addiw a1, -1\n\t"
        "c.slli a0, 40\n\t"
        "c.srai a0, 3\n\t"
        "c.mv a2, a0\n\t"
        "c.srli a2, 7\n\t"
        "c.andi a2, -21\n\t"
        "c.add a0, s0\n\t"
        "c.sub a2, s0\n\t"
        "c.xor a0, a1\n\t"
        "c.or a1, a2\n\t"
        "c.and a2, s0\n\t"
        "c.addw a1, a0\n\t"
        "c.subw a2, a1\n\t"
        "c.sd a0, 0(s1)\n\t"
        "c.sw a1, 8(s1)\n\t"
        "c.sd a2, 16(s1)\n\t"
        "c.ld a3, 0(s1)\n\t"
        "c.lw a4, 8(s1)\n\t"
        "c.fld fa0, 0(a5)\n\t"
        "c.fld fa1, 8(a5)\n\t"
        "fadd.d fa0, fa0, fa1\n\t"
        "c.fsd fa0, 16(a5)\n\t"
        "c.addi16sp sp, -64\n\t"
        "c.addi4spn a5, sp, 16\n\t"
        "c.sdsp a3, 0(sp)\n\t"
        "c.swsp a4, 8(sp)\n\t"
        "c.fsdsp fa0, 24(sp)\n\t"
        "c.ldsp t0, 0(sp)\n\t"
        "c.lwsp t1, 8(sp)\n\t"
        "c.fldsp fa2, 24(sp)\n\t"
        "c.sd a3, 8(a5)\n\t"
        "c.ld s1, 8(a5)\n\t"
        "c.addi16sp sp, 64\n\t"
        "fadd.d fa2, fa2, fa2\n\t"
        "fsd fa2, 24(%3)\n\t"
        "c.add t0, t1\n\t"
        "c.add t0, s1\n\t"
        "c.li a3, 5\n\t"
        "c.li a4, 0\n"
        "1:\n\t"
        "c.add a4, a3\n\t"
        "c.addi a3, -1\n\t"
        "c.bnez a3, 1b\n\t"
        "c.beqz a3, 2f\n\t"
        "c.li a4, 0\n"
        "2:\n\t"
        "c.add t0, a4\n\t"
        "c.j 3f\n\t"
        "c.li t0, 0\n"
        "3:\n\t"
        "lla t1, 4f\n\t"
        "c.jr t1\n\t"
        "c.li t0, 1\n"
        "4:\n\t"
        "c.nop\n\t"
        "mv %0, t0\n\t"
        "add %0, %0, a2\n\t"
        : "=r"(out)
        : "r"(in), "r"(mem), "r"(fm)
        : "s0", "s1", "a0", "a1", "a2", "a3", "a4", "a5", "t0", "t1", "fa0", "fa1", "fa2", "memory");
    return out;
}

static int __attribute__((noinline)) tiny(int x) { return x + 1; }

int main(void)
{
    uint64_t mem[4]; double fm[4] = { 1.25, 2.5, 0, 0 };
    for (uint64_t in = 0; in < 6; in++) {
        mem[0] = mem[1] = mem[2] = 0;
        uint64_t r = rvc_block(in * 0x123456789ull, mem, fm);
        printf("in=%" PRIu64 " out=%016" PRIx64 " mem=%016" PRIx64 " %016" PRIx64 " %016" PRIx64 " fm=%g %g\n",
               in, r, mem[0], mem[1], mem[2], fm[2], fm[3]);
        fm[0] += 0.5;
    }
    /* plain compiler-generated RVC: small loops with small constants */
    unsigned char sieve[20000] = {0};
    int primes = 0; unsigned long psum = 0;
    for (int i = 2; i < 20000; i++) {
        if (sieve[i]) continue;
        primes++; psum += (unsigned)i;
        for (int j = i * 2; j < 20000; j += i) sieve[j] = 1;
    }
    printf("primes<20000=%d sum=%lu\n", primes, psum);
    int acc = 0;
    for (int i = 0; i < 100000; i++) acc = tiny(acc) ^ (i & 7);
    printf("tiny acc=%d\n", acc);
    uint32_t h = 5381; const char *s = "compressed instructions are 16 bits wide";
    for (int k = 0; k < 1000; k++) for (const char *p = s; *p; p++) h = h * 33 + (uint32_t)*p + (uint32_t)k;
    printf("djb2=%08" PRIx32 "\n", h);
    return 0;
}
