/*
 * dise_runtime.h - the guest handler runtime on the host side: the code
 * that DISE's call(Handler) runs (productions/runtime/, a freestanding
 * static ELF linked at DISE_RUNTIME_BASE and embedded in the simulator).
 *
 * dise_runtime_load() puts the runtime for an ISA into its own guest
 * address space (a mem_t of its own, invisible to the program), with a
 * 64 KiB handler stack at the top of the runtime region, and reads its
 * symbols.  Handlers append samples to the profile buffer `hps_profile`
 * (productions/runtime/hps_profile.h); dise_runtime_drain() reads them out
 * and empties the buffer.  The special hps.* instructions (RISC-V custom-0,
 * Alpha OPC01) are decoded only for pcs inside [DISE_RUNTIME_BASE, +DISE_RUNTIME_SIZE): see
 * productions/README.md.  Nothing here prints or exits; errors go to err.
 */
#ifndef HPS_DISE_RUNTIME_H
#define HPS_DISE_RUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "isa.h"
#include "../productions/runtime/hps_profile.h"

struct mem;
struct symtab;

/* The runtime region (the linker scripts productions/runtime/ISA/runtime.ld
 * takes DISE_RUNTIME_BASE from this line; keep it a plain hex number). */
#define DISE_RUNTIME_BASE 0x7f0000000000ull
#define DISE_RUNTIME_SIZE 0x1000000ull          /* 16 MiB                  */
#define DISE_RUNTIME_STACK_SIZE 0x10000ull      /* 64 KiB, at the top      */

/* Is pc inside the runtime region (where hps.* instructions decode)? */
static inline bool dise_in_runtime(uint64_t pc)
{
    return pc - DISE_RUNTIME_BASE < DISE_RUNTIME_SIZE;
}

typedef struct dise_runtime dise_runtime_t;

/* Load the embedded runtime for this ISA into a fresh address space.
 * NULL + message in err when the ISA has no runtime or the embedded image
 * is unusable. */
dise_runtime_t *dise_runtime_load(const isa_t *isa, char *err, size_t errlen);
void dise_runtime_free(dise_runtime_t *rt);

/* The runtime's address space, its FUNC symbols, a symbol's address (any
 * symbol type; 0 if absent) and the initial handler stack pointer (d12). */
struct mem *dise_runtime_mem(const dise_runtime_t *rt);
const struct symtab *dise_runtime_symtab(const dise_runtime_t *rt);
uint64_t dise_runtime_symbol(const dise_runtime_t *rt, const char *name);
uint64_t dise_runtime_stack_top(const dise_runtime_t *rt);
/* Guest address of the profile buffer. */
uint64_t dise_runtime_buffer(const dise_runtime_t *rt);

/* Call fn on every sample in the guest buffer, in order, then set the
 * buffer's count to 0.  Returns how many samples there were. */
size_t dise_runtime_drain(dise_runtime_t *rt,
                          void (*fn)(void *ctx, const hps_sample_t *s), void *ctx);
/* The buffer's counters: hps.flush executions, samples dropped. */
uint64_t dise_runtime_flushes(const dise_runtime_t *rt);
uint64_t dise_runtime_dropped(const dise_runtime_t *rt);

#endif /* HPS_DISE_RUNTIME_H */
