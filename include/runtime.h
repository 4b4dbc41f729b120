/*
 * runtime.h - the guest handler runtime on the host side: the code
 * that DISE's call(Handler) runs (productions/runtime/, a freestanding
 * static ELF linked at RUNTIME_BASE and embedded in the simulator).
 *
 * runtime_load() puts the runtime for an ISA into its own guest
 * address space (a mem_t of its own, invisible to the program), with a
 * 64 KiB handler stack at the top of the runtime region, and reads its
 * symbols.  Handlers append samples to the profile buffer `hps_profile`
 * (productions/runtime/hps_profile.h); runtime_drain() reads them out
 * and empties the buffer.  The special hps.* instructions (RISC-V custom-0,
 * Alpha OPC01) are decoded only for pcs inside [RUNTIME_BASE, +RUNTIME_SIZE): see
 * productions/README.md.  Nothing here prints or exits; errors go to err.
 */
#ifndef HPS_RUNTIME_H
#define HPS_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core.h"
#include "../productions/runtime/hps_profile.h"

struct mem;
struct symtab;

/* The register convention between the host and runtime code (DISE-private
 * registers d0..d15 = unified REG_DISE0 + n). */
enum {
    DREG_ARG0 = 8,              /* d8..d11: handler arguments                 */
    DREG_HANDLER_SP = 12,       /* d12: the handler runtime's stack pointer   */
    DREG_SAVED_SP = 13,         /* d13: the program's sp while a handler runs */
    DREG_BUF_NEXT = 14,         /* d14: the assembly handlers' next sample    */
    DREG_BUF_END = 15,          /* d15: and the end of the buffer's samples   */
    RUNTIME_MAX_ARGS = 4,
    RUNTIME_FRAME_DREGS = 8     /* d8..d15: what a nested call saves          */
};

/* The runtime region (the linker scripts productions/runtime/ISA/runtime.ld
 * takes RUNTIME_BASE from this line; keep it a plain hex number). */
#define RUNTIME_BASE 0x7f0000000000ull
#define RUNTIME_SIZE 0x1000000ull          /* 16 MiB                  */
#define RUNTIME_STACK_SIZE 0x10000ull      /* 64 KiB, at the top      */

/* Is pc inside the runtime region (where hps.* instructions decode)? */
static inline bool runtime_contains(uint64_t pc)
{
    return pc - RUNTIME_BASE < RUNTIME_SIZE;
}

typedef struct runtime runtime_t;

/* Load the embedded runtime for this ISA into a fresh address space.
 * NULL + message in err when the ISA has no runtime or the embedded image
 * is unusable. */
runtime_t *runtime_load(const isa_t *isa, char *err, size_t errlen);
/* A runtime around an address space the caller built (tests, hand-written
 * handlers): it takes mem over and gives it the special instructions; no
 * symbols, no profile buffer. */
runtime_t *runtime_wrap(const isa_t *isa, struct mem *mem, uint64_t stack_top);
void runtime_free(runtime_t *rt);

/* The runtime's address space, its FUNC symbols, a symbol's address (any
 * symbol type; 0 if absent) and the initial handler stack pointer (d12). */
struct mem *runtime_mem(const runtime_t *rt);
const struct symtab *runtime_symtab(const runtime_t *rt);
uint64_t runtime_symbol(const runtime_t *rt, const char *name);
/* A symbol's size in bytes (0 if absent).  DISE_TALLY_SYMBOL is the tally
 * table's (hps_profile.h). */
#define DISE_TALLY_SYMBOL "dise_tally"
uint64_t runtime_symbol_size(const runtime_t *rt, const char *name);
uint64_t runtime_stack_top(const runtime_t *rt);
/* Guest address of the profile buffer. */
uint64_t runtime_buffer(const runtime_t *rt);

/* Which handlers call(Name) reaches: the C functions behind the entry wrappers
 * (wrappers.S, handlers.c), or the hand-written assembly handlers
 * (runtime/ISA/handlers_asm.S, symbols Name_asm), which keep the buffer's
 * next free sample in d14 and its end in d15 instead of the header's count.
 * Set before runtime_attach. */
typedef enum { RUNTIME_HANDLERS_C, RUNTIME_HANDLERS_ASM } runtime_handlers_t;
extern const char *const runtime_handlers_names[2];   /* "c", "asm" */
void runtime_set_handlers(runtime_t *rt, runtime_handlers_t which);
runtime_handlers_t runtime_handlers(const runtime_t *rt);
/* The entry of the handler call(name) reaches under the selection (0 if
 * the runtime has none: no assembly version, or no such handler). */
uint64_t runtime_handler(const runtime_t *rt, const char *name);

/* Call fn on every sample in the guest buffer, in order, then set the
 * buffer's count to 0 (with the assembly handlers: the count is taken from
 * the attached cpu's d14, which goes back to the first sample).  Returns
 * how many samples there were. */
size_t runtime_drain(runtime_t *rt,
                          void (*fn)(void *ctx, const hps_sample_t *s), void *ctx);
/* The buffer's counters: hps.flush executions, samples dropped. */
uint64_t runtime_flushes(const runtime_t *rt);
uint64_t runtime_dropped(const runtime_t *rt);

/* ---- handler frames ----------------------------------------------------------
 *
 * Runtime code runs in frames: a client (DISE's call(Handler), the PMU's
 * interrupt) enters a handler with arguments; the handler's hps.ret pops
 * the frame and the client is told.  hps.flush, hps.notify, hps.wrpmc and
 * hps.rdpmc go
 * to the client of the frame on top; without one (or without the hook) they
 * are illegal.  Frames nest: a call made while a handler runs saves the
 * registers d8..d15 it overwrites and gives the new handler a stack below
 * the interrupted one's; hps.ret restores them.  The hps.* instructions
 * decode only in the runtime's own address space (mem_t.special_ops), so a
 * program that maps the same addresses cannot use them. */
typedef struct runtime_client {
    const char *name;
    /* the client's frame was popped: pc and the address space are back */
    void (*returned)(void *ctx, cpu_t *c);
    void (*flush)(void *ctx, cpu_t *c);                           /* hps.flush  */
    void (*notify)(void *ctx, cpu_t *c, uint64_t value);          /* hps.notify */
    void (*wrpmc)(void *ctx, cpu_t *c, uint64_t k, uint64_t v);   /* hps.wrpmc  */
    uint64_t (*rdpmc)(void *ctx, cpu_t *c, uint64_t k);           /* hps.rdpmc  */
    void *ctx;
    /* what the run loop counted in this client's handlers */
    uint64_t insts, head_cycles;
} runtime_client_t;

enum { RUNTIME_MAX_DEPTH = 8 };

typedef struct runtime_frame {
    runtime_client_t *client;
    uint64_t resume_pc;
    struct mem *resume_mem;
    uint8_t role;               /* the caller's accounting role (dise_role_t) */
    uint64_t saved_dregs[RUNTIME_FRAME_DREGS];
} runtime_frame_t;

/* Connect to a cpu before its run: c->runtime, d12 = the stack top and,
 * with the assembly handlers, d14/d15 = the buffer's first sample / end. */
void runtime_attach(runtime_t *rt, cpu_t *c);
/* Enter the handler at `entry` with nargs arguments in d8.., from the
 * instruction stream at c->pc (where hps.ret resumes).  False when the
 * frames are RUNTIME_MAX_DEPTH deep. */
bool runtime_call(runtime_t *rt, cpu_t *c, runtime_client_t *client, uint64_t entry,
                  const uint64_t *args, unsigned nargs, uint8_t role);
/* The frames under way, and the calls and returns so far: what the run
 * loops read at every step of a handler, so struct runtime (sim/runtime.c)
 * begins with it and the accessors below are inline. */
typedef struct runtime_stack {
    unsigned depth;
    uint64_t switches;
    runtime_frame_t frames[RUNTIME_MAX_DEPTH];
} runtime_stack_t;

static inline const runtime_stack_t *runtime_stack(const runtime_t *rt)
{
    return (const runtime_stack_t *)(const void *)rt;
}

/* The frames under way, the one on top (NULL when none). */
static inline unsigned runtime_depth(const runtime_t *rt) { return runtime_stack(rt)->depth; }
static inline const runtime_frame_t *runtime_top(const runtime_t *rt)
{
    const runtime_stack_t *st = runtime_stack(rt);
    return st->depth ? &st->frames[st->depth - 1] : NULL;
}
/* Changes at every call and return: run loops that cache a decoded code
 * page look it up again when it does. */
static inline uint64_t runtime_switches(const runtime_t *rt) { return runtime_stack(rt)->switches; }
/* The run stopped inside handlers: pop every frame without resuming them,
 * back in the program's address space. */
void runtime_unwind(runtime_t *rt, cpu_t *c);

#endif /* HPS_RUNTIME_H */
