/*
 * handlers_asm.S - the profile handlers of the guest runtime on Alpha,
 * hand-written for compactness (PACT 2005, section 4.3): hot method, hot
 * call pair and hot data stream, the entry points HotMethod_handler_asm,
 * CallPair_handler_asm and DataStream_handler_asm (`--handlers asm`).
 * They append the same samples as the C handlers (handlers.c) but
 *   - keep the buffer's state in DISE registers: d14 = the next free sample,
 *     d15 = the end of the samples (the host sets both, and reads d14 back
 *     when it drains; hps_profile.h's count is written only by the host);
 *   - use two program registers, $1 and $2 (t0, t1), parked in the DISE
 *     registers d13 and d11 (d11 is no argument of these handlers), never
 *     on a stack, and no $gp: 18 instructions per sample, hps.ret included.
 * The rare full-buffer path bumps the header's `flushes` (the header is
 * found from d15), executes hps.flush (the host drains, d14 is back at the
 * start) and, if the host freed nothing, counts the sample in `dropped`,
 * as handlers.c does.  Register operands of the hps.* macros are numbers.
 */
#include "hps_insn.h"
#include "hps_profile.h"

    .set noat
    .set noreorder

/* HEADER: $2 <- $2 - HPS_PROFILE_END_OFF (the end of the samples -> the header). */
#define END_LO  (((HPS_PROFILE_END_OFF + 32768) & 0xffff) - 32768)
#define END_HI  ((HPS_PROFILE_END_OFF - END_LO) >> 16)
.macro HEADER
    ldah    $2, -END_HI($2)
    lda     $2, -END_LO($2)
.endm

/* SAMPLE name, kind, a, b, c: append (kind, dA, dB, dC); c = 0 stores 0. */
.macro SAMPLE name, kind, a, b, c
    .section .text_asm.\name, "ax", @progbits
    .globl \name
    .type \name, @function
    .align 4
\name:
    hps.mtd 13, 1
    hps.mtd 11, 2
    hps.mfd 1, 14               /* $1 = the next free sample           */
    hps.mfd 2, 15               /* $2 = the end of the buffer          */
    cmpult  $1, $2, $2
    beq     $2, 9f              /* full: hand it to the host first      */
1:  lda     $2, \kind($31)
    stq     $2, 0($1)
    hps.mfd 2, \a
    stq     $2, 8($1)
    hps.mfd 2, \b
    stq     $2, 16($1)
    .if \c == 0
    stq     $31, 24($1)
    .else
    hps.mfd 2, \c
    stq     $2, 24($1)
    .endif
    lda     $1, HPS_SAMPLE_SIZE($1)
    hps.mtd 14, 1
2:  hps.mfd 1, 13
    hps.mfd 2, 11
    hps.ret
9:  hps.mfd 2, 15
    HEADER
    ldq     $1, HPS_PROFILE_OFF_FLUSHES($2)
    addq    $1, 1, $1
    stq     $1, HPS_PROFILE_OFF_FLUSHES($2)
    hps.flush
    hps.mfd 1, 14
    hps.mfd 2, 15
    cmpult  $1, $2, $1
    bne     $1, 3f              /* drained: append                      */
    HEADER                      /* the host freed nothing: drop it      */
    ldq     $1, HPS_PROFILE_OFF_DROPPED($2)
    addq    $1, 1, $1
    stq     $1, HPS_PROFILE_OFF_DROPPED($2)
    br      $31, 2b
3:  hps.mfd 1, 14
    br      $31, 1b
    .size \name, . - \name
.endm

/*     entry point (ACF name + _asm)  kind                  a   b   c */
SAMPLE HotMethod_handler_asm,  HPS_SAMPLE_METHOD,    9,  8,  0   /* target, pc          */
SAMPLE CallPair_handler_asm,   HPS_SAMPLE_CALL_PAIR, 8,  9,  0   /* call site, target   */
SAMPLE DataStream_handler_asm, HPS_SAMPLE_DATA,      8,  9,  10  /* pc, address, burst  */
SAMPLE PathCount_handler_asm,  HPS_SAMPLE_PATH,      8,  9,  0   /* procedure, path     */

    .section .note.GNU-stack, "", @progbits
