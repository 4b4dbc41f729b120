/*
 * core.h - architectural state of one simulated hart and the functional
 * (zero-timing) execution loop.
 *
 * The cpu holds the unified register file (see isa.h), pc, FP status,
 * the LR/SC reservation, the guest memory and the OS-emulation state.
 * Semantics functions (one per instruction, in the ISA front-ends) operate
 * on it through the small inline helpers below.  Timing models drive the
 * same semantics; they only add time around them.
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
    STOP_ARITH_TRAP       /* arithmetic trap (Alpha /V overflow, gentrap, FP
                             trap): SIGFPE; stop_info = Linux si_code FPE_*  */
} stop_reason_t;

/* hps-sim process exit statuses (the guest's own status passes through). */
enum {
    EXIT_BAD_INPUT     = 2,    /* bad option, file, ELF, config             */
    EXIT_GUEST_ILLEGAL = 132,  /* 128 + SIGILL                               */
    EXIT_GUEST_TRAP    = 133,  /* 128 + SIGTRAP (ebreak)                     */
    EXIT_GUEST_FPE     = 136,  /* 128 + SIGFPE (arithmetic trap)             */
    EXIT_GUEST_SEGV    = 139,  /* 128 + SIGSEGV                              */
    EXIT_GUEST_SYSCALL = 159,  /* 128 + SIGSYS (unemulated syscall)          */
    EXIT_INTERNAL      = 70    /* EX_SOFTWARE: a bug in hps-sim              */
};

/* The host side of the guest runtime (productions/runtime): whoever runs
 * runtime code now -- DISE's handler calls (dise_attach), the PMU's
 * interrupt handler (pipeline/pmu.c) -- installs the functions its special
 * instructions call.  Unset entries make the instruction illegal. */
struct cpu;
typedef struct runtime_host {
    void (*ret)(void *ctx, struct cpu *c);                  /* hps.ret       */
    void (*flush)(void *ctx, struct cpu *c);                /* hps.flush     */
    void (*notify)(void *ctx, struct cpu *c, uint64_t v);   /* hps.notify v  */
    void *ctx;
} runtime_host_t;

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
    uint64_t instret;            /* retired instructions                     */
    uint64_t inst_limit;         /* stop when instret reaches this           */
    uint64_t cycle;              /* simulated cycles (== instret when untimed) */

    mem_t *mem;
    struct sys *sys;
    const isa_t *isa;
    const struct symtab *symtab;
    struct dise *dise;           /* DISE engine editing the stream, or NULL  */
    struct pmu *pmu;             /* performance counters (hps.wrpmc), or NULL */
    runtime_host_t rt;           /* who handles the runtime's hps.* now      */

    /* Why and where the run stopped. */
    stop_reason_t stop;
    int exit_code;               /* guest exit status for STOP_EXIT          */
    uint64_t stop_pc;
    uint64_t stop_info;          /* syscall number, fault address, ...       */
    jmp_buf *stop_jmp;           /* longjmp target for cpu_stop()            */
} cpu_t;

/* Semantics of the guest runtime's special instructions (productions/
 * runtime; decoded only inside the runtime region), shared by both ISAs'
 * hps.* rows: hps.ret, hps.flush and hps.notify go to c->rt (illegal when
 * nobody runs runtime code), hps.wrpmc to the PMU (pipeline/pmu.c). */
void cpu_exec_hps_ret(cpu_t *c, insn_t *in);
void cpu_exec_hps_flush(cpu_t *c, insn_t *in);
void cpu_exec_hps_notify(cpu_t *c, insn_t *in);

/* Register access by unified number.  Writes to REG_SINK are harmless;
 * REG_ZERO is never written (decode maps hard-wired-zero destinations to
 * REG_SINK). */
static inline uint64_t cpu_get(const cpu_t *c, unsigned r) { return c->reg[r]; }
static inline void cpu_set(cpu_t *c, unsigned r, uint64_t v) { c->reg[r] = v; }

/* Stop the run loop now (guest exit, fault).  Never returns. */
_Noreturn void cpu_stop(cpu_t *c, stop_reason_t why, uint64_t info);

void cpu_init(cpu_t *c, const isa_t *isa, mem_t *mem);

/* Decode the instruction at pc into its cached slot and return it.  Raises
 * STOP_ILLEGAL / STOP_MEM_FAULT through cpu_stop. */
insn_t *cpu_fetch_decode(cpu_t *c, uint64_t pc);

/* Options of the functional run loop, fixed for a whole run; the loop is
 * specialised on them rather than testing them per instruction. */
typedef struct run_opts {
    uint64_t max_insts;          /* 0 = no limit                             */
    struct truth *truth;         /* ground-truth recording (call pairs,
                                    unique data addresses), or NULL          */
    struct trace *trace;         /* bounded instruction trace, or NULL       */
    struct dise *dise;           /* DISE engine (attached), or NULL          */
    struct hps_truth *hps_truth; /* exhaustive profiles for DISE runs        */
} run_opts_t;

/* Run until the guest exits, faults or max_insts is reached. */
stop_reason_t cpu_run(cpu_t *c, const run_opts_t *opts);

/* The stop harness shared by every model's run loop: sets c->inst_limit,
 * calls loop (which returns when instret reaches it), catches exits and
 * faults.  Timing models build their loops from core_loop.h. */
typedef void (*cpu_loop_fn)(cpu_t *c, void *ctx);
stop_reason_t cpu_run_loop(cpu_t *c, uint64_t max_insts, cpu_loop_fn loop, void *ctx);

#endif /* HPS_CORE_H */
