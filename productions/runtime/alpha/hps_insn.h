/*
 * hps_insn.h - the handler runtime's special instructions on Alpha, for C
 * code (inline asm) and for assembly (gas macros).  They use the reserved
 * major opcode 0x01 (OPC01): bits 31:26 = 0x01, Ra in 25:21, Rb in 20:16,
 * the function in 15:0.  hps-sim decodes them only for pcs inside the
 * runtime region [RUNTIME_BASE, +RUNTIME_SIZE); anywhere else
 * OPC01 stays illegal, as on the hardware.
 *
 *   function 0  hps.mfd ra, N    ra <- DISE register dN   (N in the Rb field)
 *   function 1  hps.mtd N, rb    dN <- rb                 (N in the Ra field)
 *   function 2  hps.ret          back to the replacement sequence that called
 *   function 3  hps.flush        the host drains the profile buffer (count = 0)
 *   function 4  hps.notify rb    the host is told rb (the DCPI driver)
 *   function 5  hps.wrpmc ra, rb performance counter ra <- rb
 *
 * Register operands are plain numbers (30 for $sp), because the words are
 * assembled with .long.
 */
#ifndef HPS_INSN_H
#define HPS_INSN_H

#define HPS_ALPHA_OPCODE 0x01

#ifdef __ASSEMBLER__

.macro hps.mfd ra, n
    .long (HPS_ALPHA_OPCODE << 26) | (\ra << 21) | (\n << 16) | 0
.endm
.macro hps.mtd n, rb
    .long (HPS_ALPHA_OPCODE << 26) | (\n << 21) | (\rb << 16) | 1
.endm
.macro hps.ret
    .long (HPS_ALPHA_OPCODE << 26) | (31 << 21) | (31 << 16) | 2
.endm
.macro hps.flush
    .long (HPS_ALPHA_OPCODE << 26) | (31 << 21) | (31 << 16) | 3
.endm

#else

#include <stdint.h>

/* Tell the host v (in $2, encoded as Rb); it may read and change the
 * runtime's memory. */
static inline void hps_notify(uint64_t v)
{
    register uint64_t r2 __asm__("$2") = v;
    __asm__ volatile(".long 0x07e20004" : : "r"(r2) : "memory");
}

/* Write performance counter k ($1, Ra) with value ($2, Rb). */
static inline void hps_wrpmc(uint64_t k, uint64_t value)
{
    register uint64_t r1 __asm__("$1") = k;
    register uint64_t r2 __asm__("$2") = value;
    __asm__ volatile(".long 0x04220005" : : "r"(r1), "r"(r2));
}

/* Read performance counter k ($2, Rb) into $1 (Ra): its count since it
 * last overflowed. */
static inline uint64_t hps_rdpmc(uint64_t k)
{
    register uint64_t r1 __asm__("$1");
    register uint64_t r2 __asm__("$2") = k;
    __asm__ volatile(".long 0x04220006" : "=r"(r1) : "r"(r2));
    return r1;
}

/* The program's quadword at addr ($2, Rb) into $1 (Ra): its address
 * space, not the runtime's; 0 where it has no memory. */
static inline uint64_t hps_ldp(uint64_t addr)
{
    register uint64_t r1 __asm__("$1");
    register uint64_t r2 __asm__("$2") = addr;
    __asm__ volatile(".long 0x04220007" : "=r"(r1) : "r"(r2) : "memory");
    return r1;
}

/* Write the program's quadword at addr ($1, Ra) with value ($2, Rb). */
static inline void hps_stp(uint64_t addr, uint64_t value)
{
    register uint64_t r1 __asm__("$1") = addr;
    register uint64_t r2 __asm__("$2") = value;
    __asm__ volatile(".long 0x04220008" : : "r"(r1), "r"(r2) : "memory");
}

/* d13: the program's sp while a C handler runs (hps.mfd $1, 13). */
static inline uint64_t hps_mfd13(void)
{
    register uint64_t r1 __asm__("$1");
    __asm__ volatile(".long 0x042d0000" : "=r"(r1));
    return r1;
}

/* d0 <- v (hps.mtd 0, $2; PP on DISE: the path register a handler restores). */
static inline void hps_mtd0(uint64_t v)
{
    register uint64_t r2 __asm__("$2") = v;
    __asm__ volatile(".long 0x04020001" : : "r"(r2));
}

/* d5: PP on DISE's calling-context node (handlers.c, hps-pp-acf --cct):
 * hps.mfd $1, 5 and hps.mtd 5, $2. */
static inline uint64_t hps_mfd5(void)
{
    register uint64_t r1 __asm__("$1");
    __asm__ volatile(".long 0x04250000" : "=r"(r1));
    return r1;
}

static inline void hps_mtd5(uint64_t v)
{
    register uint64_t r2 __asm__("$2") = v;
    __asm__ volatile(".long 0x04a20001" : : "r"(r2));
}

/* d14, d15: the assembly handlers' next free sample and the buffer's end
 * (0 under --handlers c); C handlers that append under either mode.
 * hps.mfd $1, 14 / 15 and hps.mtd 14, $2. */
static inline uint64_t hps_mfd14(void)
{
    register uint64_t r1 __asm__("$1");
    __asm__ volatile(".long 0x042e0000" : "=r"(r1));
    return r1;
}

static inline uint64_t hps_mfd15(void)
{
    register uint64_t r1 __asm__("$1");
    __asm__ volatile(".long 0x042f0000" : "=r"(r1));
    return r1;
}

static inline void hps_mtd14(uint64_t v)
{
    register uint64_t r2 __asm__("$2") = v;
    __asm__ volatile(".long 0x05c20001" : : "r"(r2));
}

/* Hand the profile buffer to the host.  It reads and resets the buffer in
 * guest memory, hence the memory clobber. */
static inline void hps_flush(void)
{
    __asm__ volatile(".long 0x07ff0003" ::: "memory");
}

#endif /* __ASSEMBLER__ */
#endif /* HPS_INSN_H */
