/* exec_stack.c - code the program writes and runs: GCC nested functions
 * whose address escapes (a trampoline on the stack, so the program asks
 * for an executable stack with PT_GNU_STACK), and machine code written to
 * an anonymous page, made executable with mprotect, run, rewritten and run
 * again (the decoded instructions must follow the rewrite). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static int apply(int (*f)(int), int x) { return f(x); }

static int sum_with_nested(int n)
{
    int base = 0, total = 0;
    int add(int v) { return v + base; }
    for (int i = 0; i < n; i++) {
        base = i * 3;
        total += apply(add, i);
    }
    return total;
}

/* "return a0 + imm" in the ISA's encoding. */
static void emit_add_imm(uint32_t *code, int imm)
{
#if defined(__riscv)
    code[0] = 0x00050513u | ((uint32_t)(imm & 0xfff) << 20);   /* addi a0, a0, imm */
    code[1] = 0x00008067u;                                       /* ret */
#elif defined(__alpha__)
    code[0] = 0x42001400u | ((uint32_t)(imm & 0xff) << 13);    /* addq a0, imm, v0 */
    code[1] = 0x6bfa8001u;                                       /* ret */
#else
#error "RISC-V or Alpha"
#endif
}

int main(void)
{
    printf("nested functions: %d %d\n", sum_with_nested(5), sum_with_nested(12));

    size_t ps = (size_t)sysconf(_SC_PAGESIZE);
    uint32_t *page = mmap(NULL, ps, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (page == MAP_FAILED) { perror("mmap"); return 1; }
    long (*fn)(long) = (long (*)(long))(uintptr_t)page;
    emit_add_imm(page, 5);
    __builtin___clear_cache((char *)page, (char *)(page + 2));
    if (mprotect(page, ps, PROT_READ | PROT_EXEC) != 0) { perror("mprotect"); return 1; }
    printf("generated code: %ld\n", fn(100));
    mprotect(page, ps, PROT_READ | PROT_WRITE | PROT_EXEC);
    emit_add_imm(page, 42);
    __builtin___clear_cache((char *)page, (char *)(page + 2));
    printf("rewritten code: %ld\n", fn(100));
    return 0;
}
