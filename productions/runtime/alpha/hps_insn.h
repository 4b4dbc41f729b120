/*
 * hps_insn.h - the handler runtime's special instructions on Alpha, for C
 * code (inline asm) and for assembly (gas macros).  They use the reserved
 * major opcode 0x01 (OPC01): bits 31:26 = 0x01, Ra in 25:21, Rb in 20:16,
 * the function in 15:0.  hps-sim decodes them only for pcs inside the
 * runtime region [DISE_RUNTIME_BASE, +DISE_RUNTIME_SIZE); anywhere else
 * OPC01 stays illegal, as on the hardware.
 *
 *   function 0  hps.mfd ra, N    ra <- DISE register dN   (N in the Rb field)
 *   function 1  hps.mtd N, rb    dN <- rb                 (N in the Ra field)
 *   function 2  hps.ret          back to the replacement sequence that called
 *   function 3  hps.flush        the host drains the profile buffer (count = 0)
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

/* Hand the profile buffer to the host.  It reads and resets the buffer in
 * guest memory, hence the memory clobber. */
static inline void hps_flush(void)
{
    __asm__ volatile(".long 0x07ff0003" ::: "memory");
}

#endif /* __ASSEMBLER__ */
#endif /* HPS_INSN_H */
