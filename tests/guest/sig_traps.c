/* sig_traps.c - RISC-V only (inline assembly): SIGTRAP from ebreak and
 * SIGILL from an illegal instruction delivered to SA_SIGINFO handlers that
 * move the saved pc in the ucontext past the instruction and return (the
 * handler's changes to the context take effect at sigreturn), plus a
 * saved register changed by the handler. */
#define _GNU_SOURCE
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <ucontext.h>

static volatile int traps, ills, code_ok, addr_ok;

static void skip_handler(int sig, siginfo_t *si, void *ctx)
{
    ucontext_t *uc = ctx;
    uintptr_t pc = uc->uc_mcontext.__gregs[REG_PC];
    addr_ok = (uintptr_t)si->si_addr == pc;
    if (sig == SIGTRAP) { traps++; code_ok = si->si_code == TRAP_BRKPT; }
    if (sig == SIGILL) { ills++; code_ok = si->si_code == ILL_ILLOPC; }
    uint16_t low = *(uint16_t *)pc;
    uc->uc_mcontext.__gregs[REG_PC] = pc + ((low & 3) == 3 ? 4 : 2);
    uc->uc_mcontext.__gregs[10] = 1234;                 /* a0 */
}

static void install(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = skip_handler;
    sa.sa_flags = SA_SIGINFO;
    sigaction(sig, &sa, NULL);
}

int main(void)
{
    install(SIGTRAP);
    install(SIGILL);
    long a0 = 5;
    __asm__ volatile("mv a0, %1\n\t.option push\n\t.option norvc\n\tebreak\n\t.option pop\n\tmv %0, a0"
                     : "=r"(a0) : "r"(a0) : "a0", "memory");
    printf("ebreak: traps=%d code_ok=%d addr_ok=%d a0=%ld\n", traps, code_ok, addr_ok, a0);
    a0 = 6;
    __asm__ volatile("mv a0, %1\n\t.word 0xffffffff\n\tmv %0, a0"
                     : "=r"(a0) : "r"(a0) : "a0", "memory");
    printf("illegal: ills=%d code_ok=%d addr_ok=%d a0=%ld\n", ills, code_ok, addr_ok, a0);
    return 0;
}
