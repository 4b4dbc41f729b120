/*
 * relink_block.c [ROUNDS] - code that the block loop has linked to changes
 * under it.  hps-sim's functional core remembers which block followed
 * which (block_t.link), so a loop that calls a page of code many times
 * stops looking the page up.  Here that page is then rewritten in place,
 * unmapped and mapped again with other code, and finally made not
 * executable: each change must be seen at the next call.  Prints the sum
 * of each phase's calls; the last call faults (SIGSEGV, status 139), as
 * it does under qemu.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__riscv)
static const uint32_t ret_insn = 0x00008067u;       /* ret */
/* addi a0,zero,n */
static uint32_t set_result(unsigned n) { return (n & 0x7ffu) << 20 | 10u << 7 | 0x13u; }
#elif defined(__alpha__)
static const uint32_t ret_insn = 0x6bfa8001u;       /* ret */
/* lda v0,n(zero) */
static uint32_t set_result(unsigned n) { return 0x201f0000u | (n & 0x7fffu); }
#else
#error "RISC-V or Alpha"
#endif

enum { PAGE = 8192 };   /* Alpha's page; two of RISC-V's */

/* Write "return n" at code.  Without an instruction-cache flush (which
 * would drop every page's decoded code, the caller's and its links with
 * it): hps-sim, like qemu, sees a store to decoded code by itself.  Real
 * hardware would need the flush. */
static void write_return(uint8_t *code, unsigned n)
{
    const uint32_t insns[2] = { set_result(n), ret_insn };
    memcpy(code, insns, sizeof insns);
}

/* The sum of `rounds` calls of the code at `code`. */
static long __attribute__((noinline)) call_many(uint8_t *code, long rounds)
{
    long (*volatile f)(void) = (long (*)(void))code;
    long sum = 0;
    for (long k = 0; k < rounds; k++) sum += f();
    return sum;
}

/* Write "return n" at code, then call it `rounds` times: the second time,
 * the code that writes and calls has run before, so the block loop runs
 * it as blocks, linked to the code it rewrites. */
static long __attribute__((noinline)) write_and_call(uint8_t *code, unsigned n, long rounds)
{
    write_return(code, n);
    return call_many(code, rounds);
}

static uint8_t *map_code(void *at)
{
    uint8_t *code = mmap(at, PAGE, PROT_READ | PROT_WRITE | PROT_EXEC,
                         MAP_PRIVATE | MAP_ANONYMOUS | (at ? MAP_FIXED : 0), -1, 0);
    if (code == MAP_FAILED) { perror("mmap"); exit(1); }
    return code;
}

int main(int argc, char **argv)
{
    long rounds = argc > 1 ? atol(argv[1]) : 1000;
    uint8_t *code = map_code(NULL);
    long linked = write_and_call(code, 1, rounds);
    long rewritten = write_and_call(code, 2, rounds);   /* code run before, no system call */
    printf("linked: %ld\n", linked);
    printf("rewritten in place: %ld\n", rewritten);
    if (munmap(code, PAGE) != 0) { perror("munmap"); return 1; }
    map_code(code);
    printf("mapped again: %ld\n", write_and_call(code, 3, rounds));
    if (mprotect(code, PAGE, PROT_READ) != 0) { perror("mprotect"); return 1; }
    printf("not executable: calling\n");
    fflush(stdout);
    printf("ran non-executable code: %ld\n", call_many(code, 1));
    return 1;
}
