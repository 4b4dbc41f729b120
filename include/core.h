/*
 * core.h - architectural state of one simulated hart and the functional
 * (zero-timing) execution: fetch, decode once, execute.
 *
 * The cpu holds the unified register file (see isa.h), pc, FP status,
 * the LR/SC reservation, the guest memory and the OS-emulation state.
 * Semantics functions (one per instruction, in the ISA front-ends) operate
 * on it through the small inline helpers below.  The run loop (engine.h)
 * steps it; timing models only add time around the same semantics.
 */
#ifndef HPS_CORE_H
#define HPS_CORE_H

#include <setjmp.h>
#include <stdbool.h>
#include <stdint.h>

#include "isa.h"
#include "mem.h"

struct sys;     /* Linux emulation state (syscall.h) */
struct symtab;  /* ELF symbols (symtab.h)            */
struct dise;    /* DISE engine (dise_engine.h)      */
struct edit_view; /* its common case (edit.h)      */

/* How a run ended.  Exit statuses of hps-sim for each are in EXIT_* below. */
typedef enum {
    STOP_NONE = 0,
    STOP_EXIT,            /* guest called exit/exit_group                     */
    STOP_MAX_INSTS,       /* --max-insts reached                              */
    STOP_ILLEGAL,         /* illegal or unsupported instruction               */
    STOP_MEM_FAULT,       /* access to unmapped memory or wrong permission    */
    STOP_BAD_SYSCALL,     /* syscall hps-sim does not emulate                 */
    STOP_BREAKPOINT,      /* ebreak / bpt                                     */
    STOP_MISALIGNED_FETCH,/* jump to an address with bad alignment            */
    STOP_ARITH_TRAP,      /* arithmetic trap (Alpha /V overflow, gentrap, FP
                             trap): SIGFPE; stop_info = Linux si_code FPE_*  */
    STOP_BUS_ERROR,       /* misaligned atomic (RISC-V LR/SC/AMO, Alpha
                             LDx_L/STx_C): SIGBUS; stop_info = the address   */
    STOP_SIGNAL,          /* the guest was killed by a signal with the
                             default action (SIGPIPE: a write to a pipe with
                             no reader); stop_info = Linux signal number     */
    STOP_INTERRUPTED,     /* hps-sim itself got SIGINT or SIGTERM (engine.h);
                             stop_info = the host signal                     */
    STOP_HOST_MEM,        /* --host-mem refused hps-sim the host memory the
                             guest needed (hostmem.h says for what);
                             stop_info = the guest address being served      */
    STOP_DEADLOCK         /* every guest thread waits on a futex with no
                             timeout (thread.h); stop_info = live threads    */
} stop_reason_t;

/* hps-sim process exit statuses (the guest's own status passes through). */
enum {
    EXIT_BAD_INPUT     = 2,    /* bad option, file, ELF, config             */
    EXIT_GUEST_ILLEGAL = 132,  /* 128 + SIGILL                               */
    EXIT_GUEST_TRAP    = 133,  /* 128 + SIGTRAP (ebreak)                     */
    EXIT_GUEST_BUS     = 135,  /* 128 + SIGBUS (misaligned atomic)           */
    EXIT_GUEST_FPE     = 136,  /* 128 + SIGFPE (arithmetic trap)             */
    EXIT_HOST_MEM      = 137,  /* 128 + SIGKILL, as the OOM killer: --host-mem */
    EXIT_GUEST_SEGV    = 139,  /* 128 + SIGSEGV                              */
    EXIT_GUEST_SYSCALL = 159,  /* 128 + SIGSYS (unemulated syscall)          */
    EXIT_GUEST_DEADLOCK = 134, /* 128 + SIGABRT: every thread blocked for ever */
    EXIT_INTERNAL      = 70    /* EX_SOFTWARE: a bug in hps-sim              */
};

struct runtime;  /* the guest runtime (runtime.h)      */

typedef struct cpu {
    uint64_t reg[REG_COUNT];     /* unified register file                    */
    uint64_t pc;                 /* address of the next instruction          */
    uint64_t mem_addr;           /* effective address of the last load/store */
    uint32_t fflags;             /* accrued FP exception flags (guest view)  */
    uint32_t frm;                /* dynamic rounding mode                    */
    uint64_t reservation;        /* LR/SC reserved address, or ~0            */
    uint64_t fpcr;               /* Alpha FPCR: dynamic rounding, sticky
                                    status and trap-disable bits            */
    uint64_t swcr;               /* Alpha Linux software FP control word
                                    (osf_setsysinfo SSI_IEEE_FP_CONTROL)    */
    uint64_t unique;             /* Alpha process unique value (rduniq/
                                    wruniq): the TLS thread pointer         */
    uint64_t instret;            /* retired program instructions (what the
                                    guest's counters and --max-insts see)    */
    uint64_t runtime_insts;      /* retired instructions the profiling
                                    machinery added: DISE's inserted ones and
                                    the runtime's handlers                   */
    uint64_t event_at;           /* the run loop looks at its events (limit,
                                    end of the trace, ...) when instret
                                    reaches this (sim/engine.c)              */
    uint64_t restored_at;        /* instret when --restore started the run
                                    from a checkpoint (0: from the start)   */
    uint64_t cycle;              /* simulated cycles (== instret when untimed) */
    bool timed;                  /* a timing model keeps cycle current during
                                    the run (else it is settled at the end) */

    mem_t *mem;
    struct sys *sys;
    const isa_t *isa;
    const struct symtab *symtab;
    struct dise *dise;           /* DISE engine editing the stream, or NULL  */
    struct edit_view *edit;      /* and what the block loop does for it
                                    itself (edit.h), or NULL                */
    uint64_t edit_left;          /* the editor's count-down word while it is
                                    attached (edit_view_t.left points here,
                                    so the block loop reaches it through the
                                    cpu it holds in a register); else 0     */
    bool replaced;               /* set by semantics that started a replacement
                                    instead of retiring the instruction (DISE);
                                    the block loop clears and reads it       */
    struct runtime *runtime;     /* the guest runtime (handler frames), or NULL */
    /* decode hook: called on each freshly decoded instruction of the
     * program's address space (DISE classifies them here), or NULL */
    void (*on_decode)(void *ctx, insn_t *in);
    void *on_decode_ctx;

    /* Why and where the run stopped. */
    stop_reason_t stop;
    int exit_code;               /* guest exit status for STOP_EXIT          */
    uint64_t stop_pc;
    uint64_t stop_info;          /* syscall number, fault address, ...       */
    jmp_buf *stop_jmp;           /* longjmp target for cpu_stop()            */
} cpu_t;

/* Register access by unified number.  Writes to REG_SINK are harmless;
 * REG_ZERO is never written (decode maps hard-wired-zero destinations to
 * REG_SINK). */
static inline uint64_t cpu_get(const cpu_t *c, unsigned r) { return c->reg[r]; }
static inline void cpu_set(cpu_t *c, unsigned r, uint64_t v) { c->reg[r] = v; }

/* Stop the run loop now (guest exit, fault).  Never returns. */
_Noreturn void cpu_stop(cpu_t *c, stop_reason_t why, uint64_t info);

void cpu_init(cpu_t *c, const isa_t *isa, mem_t *mem);
/* A cpu of its own page(s), initialised (NULL when out of memory; free()
 * it).  The run loop's speed depended by 20-30% on where the heap had put
 * the cpu (the low address bits of its hot fields against those of the
 * loop's other accesses); page-aligned, it no longer varies between runs
 * and builds. */
cpu_t *cpu_new(const isa_t *isa, mem_t *mem);

/* Decode the instruction at pc into its cached slot and return it.  Raises
 * STOP_ILLEGAL / STOP_MEM_FAULT through cpu_stop. */
insn_t *cpu_fetch_decode(cpu_t *c, uint64_t pc);

/* Every instruction retired, the program's and the runtime's. */
static inline uint64_t cpu_retired(const cpu_t *c) { return c->instret + c->runtime_insts; }

/* The stop harness of the run loop (sim/engine.c): runs loop(c, ctx) until
 * it returns or the guest exits or faults (cpu_stop, memory faults), and
 * says why it stopped (STOP_NONE when the loop returned by itself). */
typedef void (*cpu_loop_fn)(cpu_t *c, void *ctx);
stop_reason_t cpu_run_loop(cpu_t *c, cpu_loop_fn loop, void *ctx);

#endif /* HPS_CORE_H */
