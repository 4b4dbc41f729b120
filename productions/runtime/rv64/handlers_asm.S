/*
 * handlers_asm.S - the profile handlers of the guest runtime, hand-written
 * for compactness (PACT 2005, section 4.3): hot method, hot call pair and
 * hot data stream, the entry points HotMethod_handler_asm,
 * CallPair_handler_asm and DataStream_handler_asm (`--handlers asm`).
 * They append the same samples as the C handlers (handlers.c) but
 *   - keep the buffer's state in DISE registers: d14 = the next free sample,
 *     d15 = the end of the samples (the host sets both, and reads d14 back
 *     when it drains; hps_profile.h's count is written only by the host);
 *   - use two program registers, t0 and t1, parked in the DISE registers
 *     d13 and d11 (d11 is no argument of these handlers), never on a stack:
 *     17 instructions per sample, hps.ret included.
 * The rare full-buffer path bumps the header's `flushes`, executes
 * hps.flush (the host drains, d14 is back at the start) and, if the host
 * freed nothing, counts the sample in `dropped`, as handlers.c does.
 */
#include "hps_insn.h"
#include "hps_profile.h"

/* SAMPLE name, kind, a, b, c: append (kind, dA, dB, dC); c = 0 stores 0. */
.macro SAMPLE name, kind, a, b, c
    .section .text_asm.\name, "ax", @progbits
    .globl \name
    .type \name, @function
    .balign 4
\name:
    hps.mtd 13, t0
    hps.mtd 11, t1
    hps.mfd t0, 14              /* t0 = the next free sample           */
    hps.mfd t1, 15              /* t1 = the end of the buffer           */
    bgeu    t0, t1, 9f          /* full: hand it to the host first      */
1:  li      t1, \kind
    sd      t1, 0(t0)
    hps.mfd t1, \a
    sd      t1, 8(t0)
    hps.mfd t1, \b
    sd      t1, 16(t0)
    .if \c == 0
    sd      zero, 24(t0)
    .else
    hps.mfd t1, \c
    sd      t1, 24(t0)
    .endif
    addi    t0, t0, HPS_SAMPLE_SIZE
    hps.mtd 14, t0
2:  hps.mfd t0, 13
    hps.mfd t1, 11
    hps.ret
9:  li      t0, HPS_PROFILE_END_OFF   /* t1 = the header                 */
    sub     t1, t1, t0
    ld      t0, HPS_PROFILE_OFF_FLUSHES(t1)
    addi    t0, t0, 1
    sd      t0, HPS_PROFILE_OFF_FLUSHES(t1)
    hps.flush
    hps.mfd t0, 14
    hps.mfd t1, 15
    bltu    t0, t1, 1b          /* drained: append                      */
    li      t0, HPS_PROFILE_END_OFF   /* the host freed nothing: drop it */
    sub     t1, t1, t0
    ld      t0, HPS_PROFILE_OFF_DROPPED(t1)
    addi    t0, t0, 1
    sd      t0, HPS_PROFILE_OFF_DROPPED(t1)
    j       2b
    .size \name, . - \name
.endm

/*     entry point (ACF name + _asm)  kind                  a   b   c */
SAMPLE HotMethod_handler_asm,  HPS_SAMPLE_METHOD,    9,  8,  0   /* target, pc          */
SAMPLE CallPair_handler_asm,   HPS_SAMPLE_CALL_PAIR, 8,  9,  0   /* call site, target   */
SAMPLE DataStream_handler_asm, HPS_SAMPLE_DATA,      8,  9,  10  /* pc, address, burst  */
SAMPLE PathCount_handler_asm,  HPS_SAMPLE_PATH,      8,  9,  0   /* procedure, path     */

    .section .note.GNU-stack, "", @progbits
