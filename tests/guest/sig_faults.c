/* sig_faults.c - synchronous signals from guest faults delivered to
 * handlers: SIGSEGV on an unmapped address left by siglongjmp, SIGSEGV on
 * a write-protected page fixed by the handler (mprotect) and retried,
 * integer division by zero (SIGFPE from Alpha's gentrap; RISC-V does not
 * trap and the program prints the result), and a stack overflow caught on
 * an alternate signal stack (sigaltstack, SA_ONSTACK). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static sigjmp_buf env;
static volatile int got_code, addr_ok, on_alt;
static volatile uintptr_t expect_addr;
static char *page;
static size_t pagesize;
static char *alt_base;
static size_t alt_size;

static void jump_handler(int sig, siginfo_t *si, void *uc)
{
    got_code = si->si_code;
    addr_ok = (uintptr_t)si->si_addr == expect_addr;
    siglongjmp(env, sig);
}

static void fix_handler(int sig, siginfo_t *si, void *uc)
{
    got_code = si->si_code;
    addr_ok = (uintptr_t)si->si_addr == expect_addr;
    mprotect(page, pagesize, PROT_READ | PROT_WRITE);   /* the write is retried */
}

static void fpe_handler(int sig, siginfo_t *si, void *uc)
{
    got_code = si->si_code;
    siglongjmp(env, sig);
}

static void overflow_handler(int sig, siginfo_t *si, void *uc)
{
    char here;
    on_alt = &here > alt_base && &here < alt_base + alt_size;
    siglongjmp(env, sig);
}

static int recurse(volatile char *p, int n)
{
    volatile char buf[1024];
    if (n < 0) return 0;                /* never: the stack runs out first */
    buf[0] = (char)n;
    buf[1023] = p ? p[0] : 0;
    return recurse(buf, n + 1) + buf[5];
}

static void install(int sig, void (*fn)(int, siginfo_t *, void *), int flags)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = fn;
    sa.sa_flags = SA_SIGINFO | flags;
    sigemptyset(&sa.sa_mask);
    if (sigaction(sig, &sa, NULL) != 0) { perror("sigaction"); exit(1); }
}

int main(int argc, char **argv)
{
    pagesize = (size_t)sysconf(_SC_PAGESIZE);

    install(SIGSEGV, jump_handler, 0);
    volatile int *bad = (volatile int *)(uintptr_t)0x40;
    expect_addr = 0x40;
    int sig = sigsetjmp(env, 1);
    if (sig == 0) {
        int v = *bad;
        printf("read of 0x40 returned %d\n", v);
    } else {
        printf("unmapped read: signal %s code=%s addr_ok=%d\n", sig == SIGSEGV ? "SIGSEGV" : "?",
               got_code == SEGV_MAPERR ? "SEGV_MAPERR" : "other", addr_ok);
    }
    sigset_t now;
    sigprocmask(SIG_BLOCK, NULL, &now);
    printf("after siglongjmp: SIGSEGV blocked=%d\n", sigismember(&now, SIGSEGV));

    page = mmap(NULL, pagesize, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    install(SIGSEGV, fix_handler, 0);
    expect_addr = (uintptr_t)(page + 100);
    got_code = 0;
    ((volatile char *)page)[100] = 42;
    printf("protected write: code=%s addr_ok=%d value=%d\n",
           got_code == SEGV_ACCERR ? "SEGV_ACCERR" : "other", addr_ok, page[100]);

    install(SIGFPE, fpe_handler, 0);
    volatile long num = 7 + argc, den = argc - 1;
    got_code = 0;
    if ((sig = sigsetjmp(env, 1)) == 0) {
        long q = num / den, r = num % den;
        printf("division by zero: no trap, quotient %ld remainder %ld\n", q, r);
    } else {
        printf("division by zero: signal %s code=%s\n", sig == SIGFPE ? "SIGFPE" : "?",
               got_code == FPE_INTDIV ? "FPE_INTDIV" : "other");
    }

    alt_size = 64 * 1024;
    alt_base = malloc(alt_size);
    stack_t ss = { .ss_sp = alt_base, .ss_size = alt_size, .ss_flags = 0 };
    if (sigaltstack(&ss, NULL) != 0) { perror("sigaltstack"); return 1; }
    stack_t cur;
    sigaltstack(NULL, &cur);
    printf("altstack: flags=%d size_ok=%d\n", cur.ss_flags, cur.ss_size == alt_size);
    install(SIGSEGV, overflow_handler, SA_ONSTACK);
    if ((sig = sigsetjmp(env, 1)) == 0) {
        printf("recursion ended: %d\n", recurse(NULL, 0));
    } else {
        printf("stack overflow: signal %s handled on the alternate stack=%d\n",
               sig == SIGSEGV ? "SIGSEGV" : "?", on_alt);
    }
    return 0;
}
