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
#include "pp_cct.h"

/* SAMPLE name, kind, a, b, c: append (kind, dA, dB, dC); c = 0 stores 0.
 * then = 0 returns; 1 goes on to PathReturn_pop (PathReturn_handler_asm). */
.macro SAMPLE name, kind, a, b, c, then=0
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
    .if \then
    j       PathReturn_pop
    .else
    hps.ret
    .endif
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
SAMPLE PathCount_handler_asm,  HPS_SAMPLE_PATH,      8,  9,  5   /* procedure, path, node */
/* PathReturn_handler_asm: d8 procedure, d9 path, d10 the return's target:
 * the path's sample, then PathPop_handler_asm's pop for that pc. */
SAMPLE PathReturn_handler_asm, HPS_SAMPLE_PATH,      8,  9,  5, 1

/* PP on DISE (tools/hps-pp-acf.c): the path register's stack, as the C
 * handlers' path_stack in handlers.c (the same pushes, pops and poison).
 * hps_path_asm = { next free entry (0 before the first push), pushes lost
 * to a full stack }; entries { r, return address, sp, CCT node d5 } of 32
 * bytes (pp_cct.h: d5 stays 0 when the ACF keeps no CCT).
 * The program's sp is sp itself here (no stack switch). */
#define PATH_ENTRIES 32768
    .section .bss.hps_path_asm, "aw", @nobits
    .balign 8
hps_path_asm:
    .zero 16
hps_path_asm_entries:
    .zero PATH_ENTRIES * 32
hps_path_asm_end:

/* PathPush_handler_asm: d8 = r, d9 = the return address; t0, t1 parked in
 * d13, d11. */
    .section .text_asm.PathPush_handler_asm, "ax", @progbits
    .globl PathPush_handler_asm
    .type PathPush_handler_asm, @function
    .balign 4
PathPush_handler_asm:
    hps.mtd 13, t0
    hps.mtd 11, t1
    la      t0, hps_path_asm
    ld      t1, 0(t0)           /* t1 = the next free entry            */
    beqz    t1, 8f
1:  la      t0, hps_path_asm_end
    bgeu    t1, t0, 9f          /* full: the push is lost               */
    hps.mfd t0, 8
    sd      t0, 0(t1)
    hps.mfd t0, 9
    sd      t0, 8(t1)
    sd      sp, 16(t1)
    hps.mfd t0, 5
    sd      t0, 24(t1)
    addi    t1, t1, 32
    la      t0, hps_path_asm
    sd      t1, 0(t0)
2:  hps.mfd t0, 13
    hps.mfd t1, 11
    hps.ret
8:  la      t1, hps_path_asm_entries    /* the first push */
    j       1b
9:  la      t0, hps_path_asm
    ld      t1, 8(t0)
    addi    t1, t1, 1
    sd      t1, 8(t0)
    j       2b
    .size PathPush_handler_asm, . - PathPush_handler_asm

/* PathPop_handler_asm: d8 = pc (a return address).  Entries whose sp lies
 * below sp are dropped (frames a longjmp left); the top entry, if it is
 * this pc's and sp's, is popped into d0; otherwise d0 is poisoned (2^62)
 * when entries were dropped or pushes lost.  t0..t3 parked in d13, d11,
 * d9, d8 (after d8 is read). */
    .section .text_asm.PathPop_handler_asm, "ax", @progbits
    .globl PathPop_handler_asm
    .type PathPop_handler_asm, @function
    .balign 4
PathReturn_pop:                 /* from PathReturn_handler_asm: d8 = d10 */
    hps.mtd 13, t0
    hps.mfd t0, 10
    hps.mtd 8, t0
    hps.mfd t0, 13
PathPop_handler_asm:
    hps.mtd 13, t0
    hps.mtd 11, t1
    hps.mtd 9, t2
    hps.mfd t0, 8               /* t0 = pc                              */
    hps.mtd 8, t3
    la      t3, hps_path_asm
    ld      t1, 0(t3)           /* t1 = the next free entry             */
    beqz    t1, 5f              /* nothing pushed yet                   */
1:  la      t2, hps_path_asm_entries
    bleu    t1, t2, 3f          /* empty                                */
    ld      t2, -16(t1)         /* the top entry's sp                   */
    bgeu    t2, sp, 2f
    addi    t1, t1, -32         /* below sp: a frame longjmp left       */
    ld      t2, 24(t1)          /* its caller's context                 */
    hps.mtd 5, t2
    j       1b
2:  bne     t2, sp, 3f
    ld      t2, -24(t1)
    bne     t2, t0, 3f
    addi    t1, t1, -32         /* this call returns: r and node back   */
    sd      t1, 0(t3)
    ld      t2, 0(t1)
    hps.mtd 0, t2
    ld      t2, 24(t1)
    hps.mtd 5, t2
    j       9f
3:  la      t2, hps_path_asm_entries
    bleu    t1, t2, 6f
    ld      t2, -16(t1)
    bne     t2, sp, 6f
    ld      t2, -8(t1)          /* a call of this frame's that did not  */
    hps.mtd 5, t2               /* come back (longjmp): its context     */
6:  ld      t2, 0(t3)           /* not this call's                      */
    sd      t1, 0(t3)
    bne     t2, t1, 4f          /* entries dropped: the path is lost    */
5:  ld      t2, 8(t3)
    beqz    t2, 9f              /* no push lost either: d0 stays        */
4:  li      t2, 1
    slli    t2, t2, 62
    hps.mtd 0, t2
9:  hps.mfd t0, 13
    hps.mfd t1, 11
    hps.mfd t2, 9
    hps.mfd t3, 8
    hps.ret
    .size PathPop_handler_asm, . - PathPop_handler_asm

/* PathEnter_handler_asm (hps-pp-acf --cct, pp_cct.h): d8 = call site,
 * d9 = target, d10 = the site's index (low word) and its procedure's call
 * sites.  The common case in assembly: the current context has its child
 * slots (pp_cct.h), the index is below their count, and the slot holds
 * the child (site, target) -- a direct call's only one: its calls + 1,
 * d5 = it.  Anything else (no slots yet, an empty slot, another child)
 * goes on to the C-calling entry wrapper PathEnter_handler (which reads d10 too), which
 * makes the slots, walks the children's list and fills the slot; both
 * count the lookup and its steps the same way.  t0..t3 parked in d13,
 * d11, d3, d4 (d4: the sequences' scratch, dead after PP_push; d3:
 * PP_push clears it after).  Section .text_cct: after the rest of the
 * runtime (runtime.ld). */
    .section .text_cct.PathEnter_handler_asm, "ax", @progbits
    .globl PathEnter_handler_asm
    .type PathEnter_handler_asm, @function
    .balign 4
PathEnter_handler_asm:
    hps.mtd 13, t0
    hps.mtd 11, t1
    hps.mtd 3, t2
    hps.mtd 4, t3
    la      t0, hps_pp_cct
    li      t2, PPC_OFF_NODES
    add     t3, t0, t2          /* t3 = the nodes                         */
    hps.mfd t1, 5               /* &nodes[d5]                             */
    slli    t2, t1, 4
    slli    t1, t1, 5
    add     t1, t1, t2
    add     t1, t3, t1
    lwu     t1, PPC_NODE_SLOTS(t1)  /* its first slot; 0: none yet (and
                                   before the first call, node 0's)      */
    beqz    t1, 9f
    la      t2, hps_pp_slots + PPC_OFF_WORDS
    slli    t1, t1, 2
    add     t1, t2, t1          /* t1 = &words[first]                     */
    lwu     t2, -4(t1)          /* k, the node's slots                    */
    hps.mfd t0, 10
    slli    t0, t0, 32
    srli    t0, t0, 32          /* the site's index                       */
    bgeu    t0, t2, 9f          /* past k: no slot                        */
    slli    t0, t0, 2
    add     t1, t1, t0
    lwu     t1, 0(t1)           /* the slot's child; 0: none              */
    beqz    t1, 9f
    slli    t2, t1, 4           /* t3 = &nodes[child]                     */
    slli    t0, t1, 5
    add     t0, t0, t2
    add     t3, t3, t0
    ld      t2, 0(t3)           /* its site ...                           */
    hps.mfd t0, 8
    bne     t2, t0, 9f
    ld      t2, 8(t3)           /* ... and its entry                      */
    hps.mfd t0, 9
    bne     t2, t0, 9f
    ld      t2, PPC_NODE_CALLS(t3)
    addi    t2, t2, 1
    sd      t2, PPC_NODE_CALLS(t3)
    hps.mtd 5, t1               /* d5 = the child                         */
    la      t0, hps_pp_cct
    ld      t2, PPC_OFF_LOOKUPS(t0)
    addi    t2, t2, 1
    sd      t2, PPC_OFF_LOOKUPS(t0)
    ld      t2, PPC_OFF_STEPS(t0)
    addi    t2, t2, 1
    sd      t2, PPC_OFF_STEPS(t0)
    hps.mfd t0, 13
    hps.mfd t1, 11
    hps.mfd t2, 3
    hps.mfd t3, 4
    hps.ret
9:  hps.mfd t0, 13
    hps.mfd t1, 11
    hps.mfd t2, 3
    hps.mfd t3, 4
    j       PathEnter_handler
    .size PathEnter_handler_asm, . - PathEnter_handler_asm

/* PathEnter_handler (both modes: PathEnter_handler_asm's way on): d11 =
 * hps_pp_slots, the slot words, for the C-calling entry wrapper PathEnter_handler_c
 * (wrappers.S, hps_path_enter_slot), and their list_enter = hps_path_enter
 * (which the C code, this far from .text, calls by it); t0 and t1 parked
 * in d4 and d11. */
    .section .text_cct.PathEnter_handler, "ax", @progbits
    .globl PathEnter_handler
    .type PathEnter_handler, @function
    .balign 4
PathEnter_handler:
    hps.mtd 4, t0
    hps.mtd 11, t1
    la      t0, hps_pp_slots
    la      t1, hps_path_enter
    sd      t1, PPC_OFF_ENTER(t0)
    hps.mfd t1, 11
    hps.mtd 11, t0
    hps.mfd t0, 4
    j       PathEnter_handler_c
    .size PathEnter_handler, . - PathEnter_handler

    /* PP's CCT child slots (pp_cct.h), after the tally table */
    .section .bss_cct, "aw", @nobits
    .balign 8
    .globl hps_pp_slots
    .type hps_pp_slots, @object
hps_pp_slots:
    .skip PPC_OFF_WORDS + 4 * PPC_MAX_SLOTS
    .size hps_pp_slots, . - hps_pp_slots

    /* DISE's tally table (hps_profile.h; `tally dN`): the linker script
       puts it after all the rest of .bss */
    .section .bss_tally, "aw", @nobits
    .balign 8
    .globl dise_tally
    .type dise_tally, @object
dise_tally:
    .skip 8 * DISE_TALLY_WORDS
    .size dise_tally, . - dise_tally

    .section .note.GNU-stack, "", @progbits
