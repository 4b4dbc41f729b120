/*
 * hps_insn.h - the handler runtime's special instructions (RISC-V custom-0,
 * major opcode 0x0b, R-type), for C code (inline asm) and for assembly
 * (gas macros).  hps-sim decodes them only for pcs inside the runtime region
 * [RUNTIME_BASE, +RUNTIME_SIZE); anywhere else they are illegal.
 *
 *   funct3 0  hps.mfd rd, N    rd <- DISE register dN   (N in the rs1 field)
 *   funct3 1  hps.mtd N, rs1   dN <- rs1                (N in the rd field)
 *   funct3 2  hps.ret          back to the replacement sequence that called
 *   funct3 3  hps.flush        the host drains the profile buffer (count = 0)
 *   funct3 4  hps.notify rs1   the host is told rs1 (the DCPI driver: a full
 *                              overflow buffer)
 *   funct3 5  hps.wrpmc rs1, rs2   performance counter rs1 <- rs2
 *   funct3 6  hps.rdpmc rd, rs1    rd <- performance counter rs1
 *   funct3 7  hps.ldp rd, rs1 (funct7 0)   rd <- the program's doubleword at rs1
 *             hps.stp rs1, rs2 (funct7 1)  the program's doubleword at rs1 <- rs2
 */
#ifndef HPS_INSN_H
#define HPS_INSN_H

#ifdef __ASSEMBLER__

.macro hps.mfd rd, n
    .insn r 0x0b, 0, 0, \rd, x\n, x0
.endm
.macro hps.mtd n, rs
    .insn r 0x0b, 1, 0, x\n, \rs, x0
.endm
.macro hps.ret
    .insn r 0x0b, 2, 0, x0, x0, x0
.endm
.macro hps.flush
    .insn r 0x0b, 3, 0, x0, x0, x0
.endm

#else

#include <stdint.h>

/* Tell the host v; it may read and change the runtime's memory. */
static inline void hps_notify(uint64_t v)
{
    __asm__ volatile(".insn r 0x0b, 4, 0, x0, %0, x0" : : "r"(v) : "memory");
}

/* Write performance counter k. */
static inline void hps_wrpmc(uint64_t k, uint64_t value)
{
    __asm__ volatile(".insn r 0x0b, 5, 0, x0, %0, %1" : : "r"(k), "r"(value));
}

/* Read performance counter k: its count since it last overflowed. */
static inline uint64_t hps_rdpmc(uint64_t k)
{
    uint64_t v;
    __asm__ volatile(".insn r 0x0b, 6, 0, %0, %1, x0" : "=r"(v) : "r"(k));
    return v;
}

/* The program's doubleword at addr (its address space, not the
 * runtime's); 0 where it has no memory. */
static inline uint64_t hps_ldp(uint64_t addr)
{
    uint64_t v;
    __asm__ volatile(".insn r 0x0b, 7, 0, %0, %1, x0" : "=r"(v) : "r"(addr) : "memory");
    return v;
}

/* Write the program's doubleword at addr. */
static inline void hps_stp(uint64_t addr, uint64_t value)
{
    __asm__ volatile(".insn r 0x0b, 7, 1, x0, %0, %1" : : "r"(addr), "r"(value) : "memory");
}

/* d13: the program's sp while a C handler runs (the entry wrapper put it there). */
static inline uint64_t hps_mfd13(void)
{
    uint64_t v;
    __asm__ volatile(".insn r 0x0b, 0, 0, %0, x13, x0" : "=r"(v));
    return v;
}

/* d0 <- v (PP on DISE: the path register a handler restores). */
static inline void hps_mtd0(uint64_t v)
{
    __asm__ volatile(".insn r 0x0b, 1, 0, x0, %0, x0" : : "r"(v));
}

/* d5: PP on DISE's calling-context node (handlers.c, hps-pp-acf --cct). */
static inline uint64_t hps_mfd5(void)
{
    uint64_t v;
    __asm__ volatile(".insn r 0x0b, 0, 0, %0, x5, x0" : "=r"(v));
    return v;
}

static inline void hps_mtd5(uint64_t v)
{
    __asm__ volatile(".insn r 0x0b, 1, 0, x5, %0, x0" : : "r"(v));
}

/* d14, d15: the assembly handlers' next free sample and the buffer's end
 * (0 under --handlers c); C handlers that append under either mode. */
static inline uint64_t hps_mfd14(void)
{
    uint64_t v;
    __asm__ volatile(".insn r 0x0b, 0, 0, %0, x14, x0" : "=r"(v));
    return v;
}

static inline uint64_t hps_mfd15(void)
{
    uint64_t v;
    __asm__ volatile(".insn r 0x0b, 0, 0, %0, x15, x0" : "=r"(v));
    return v;
}

static inline void hps_mtd14(uint64_t v)
{
    __asm__ volatile(".insn r 0x0b, 1, 0, x14, %0, x0" : : "r"(v));
}

/* Hand the profile buffer to the host.  It reads and resets the buffer in
 * guest memory, hence the memory clobber. */
static inline void hps_flush(void)
{
    __asm__ volatile(".insn r 0x0b, 3, 0, x0, x0, x0" ::: "memory");
}

#endif /* __ASSEMBLER__ */
#endif /* HPS_INSN_H */
