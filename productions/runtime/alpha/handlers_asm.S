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
#include "pp_cct.h"

    .set noat
    .set noreorder

/* HEADER: $2 <- $2 - HPS_PROFILE_END_OFF (the end of the samples -> the header). */
#define END_LO  (((HPS_PROFILE_END_OFF + 32768) & 0xffff) - 32768)
#define END_HI  ((HPS_PROFILE_END_OFF - END_LO) >> 16)
.macro HEADER
    ldah    $2, -END_HI($2)
    lda     $2, -END_LO($2)
.endm

/* SAMPLE name, kind, a, b, c: append (kind, dA, dB, dC); c = 0 stores 0.
 * then = 0 returns; 1 goes on to PathReturn_pop (PathReturn_handler_asm). */
.macro SAMPLE name, kind, a, b, c, then=0
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
    .if \then
    br      $31, PathReturn_pop
    .else
    hps.ret
    .endif
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
SAMPLE PathCount_handler_asm,  HPS_SAMPLE_PATH,      8,  9,  5   /* procedure, path, node */
/* PathReturn_handler_asm: d8 procedure, d9 path, d10 the return's target:
 * the path's sample, then PathPop_handler_asm's pop for that pc. */
SAMPLE PathReturn_handler_asm, HPS_SAMPLE_PATH,      8,  9,  5, 1

/* PP on DISE (tools/hps-pp-acf.c): the path register's stack, as the C
 * handlers' path_stack in handlers.c (the same pushes, pops and poison).
 * hps_path_asm = { next free entry (0 before the first push), pushes lost
 * to a full stack, the first entry, the end }; entries { r, return
 * address, sp, CCT node d5 } of 32 bytes (pp_cct.h: d5 stays 0 when the
 * ACF keeps no CCT).  No $gp: each handler finds hps_path_asm in
 * a literal after its code, by br. */
#define PATH_ENTRIES 32768
#define PATH_BYTES (PATH_ENTRIES * 32)
    .section .bss.hps_path_asm, "aw", @nobits
    .align 3
hps_path_asm:
    .zero 32
hps_path_asm_entries:
    .zero PATH_BYTES

/* PathPush_handler_asm: d8 = r, d9 = the return address; $1, $2 parked
 * in d13, d11. */
    .section .text_asm.PathPush_handler_asm, "ax", @progbits
    .globl PathPush_handler_asm
    .type PathPush_handler_asm, @function
    .align 4
.Lpush_state:                   /* the literals before the code: gas knows */
    .quad hps_path_asm          /* their distance from the br's when it    */
.Lpush_entries:                 /* assembles the loads (one instruction)   */
    .quad hps_path_asm_entries
PathPush_handler_asm:
    hps.mtd 13, 1
    hps.mtd 11, 2
    br      $1, .Lpush_pc
.Lpush_pc:
    ldq     $1, (.Lpush_state - .Lpush_pc)($1)  /* $1 = hps_path_asm */
    ldq     $2, 0($1)           /* $2 = the next free entry             */
    beq     $2, 8f
1:  lda     $2, 32($2)
    stq     $2, 0($1)
    ldq     $1, 24($1)          /* the end                              */
    cmpule  $2, $1, $1
    beq     $1, 9f              /* full: the push is lost               */
    hps.mfd 1, 8
    stq     $1, -32($2)
    hps.mfd 1, 9
    stq     $1, -24($2)
    stq     $30, -16($2)
    hps.mfd 1, 5
    stq     $1, -8($2)
2:  hps.mfd 1, 13
    hps.mfd 2, 11
    hps.ret
8:  br      $2, .Lpush_pc2      /* the first push: the first entry, the end */
.Lpush_pc2:
    ldq     $2, (.Lpush_entries - .Lpush_pc2)($2)
    stq     $2, 16($1)
    ldah    $2, ((PATH_BYTES + 32768) >> 16)($2)
    lda     $2, (((PATH_BYTES + 32768) & 0xffff) - 32768)($2)
    stq     $2, 24($1)
    ldq     $2, 16($1)
    br      $31, 1b
9:  br      $1, .Lpush_pc3
.Lpush_pc3:
    ldq     $1, (.Lpush_state - .Lpush_pc3)($1)
    lda     $2, -32($2)
    stq     $2, 0($1)
    ldq     $2, 8($1)
    addq    $2, 1, $2
    stq     $2, 8($1)
    br      $31, 2b
    .size PathPush_handler_asm, . - PathPush_handler_asm

/* PathPop_handler_asm: d8 = pc (a return address).  Entries whose sp lies
 * below $sp are dropped (frames a longjmp left); the top entry, if it is
 * this pc's and sp's, is popped into d0; otherwise d0 is poisoned (2^62)
 * when entries were dropped or pushes lost.  $1..$4 parked in d13, d11,
 * d9, d8 (after d8 is read). */
    .section .text_asm.PathPop_handler_asm, "ax", @progbits
    .globl PathPop_handler_asm
    .type PathPop_handler_asm, @function
    .align 4
.Lpop_state:
    .quad hps_path_asm
PathReturn_pop:                 /* from PathReturn_handler_asm: d8 = d10 */
    hps.mtd 13, 1
    hps.mfd 1, 10
    hps.mtd 8, 1
    hps.mfd 1, 13
PathPop_handler_asm:
    hps.mtd 13, 1
    hps.mtd 11, 2
    hps.mtd 9, 3
    hps.mfd 1, 8                /* $1 = pc                              */
    hps.mtd 8, 4
    br      $4, .Lpop_pc
.Lpop_pc:
    ldq     $4, (.Lpop_state - .Lpop_pc)($4)    /* $4 = hps_path_asm */
    ldq     $2, 0($4)           /* $2 = the next free entry             */
    beq     $2, 5f              /* nothing pushed yet                   */
1:  ldq     $3, 16($4)
    cmpult  $3, $2, $3
    beq     $3, 3f              /* empty                                */
    ldq     $3, -16($2)         /* the top entry's sp                   */
    cmpult  $3, $30, $3
    beq     $3, 2f
    lda     $2, -32($2)         /* below sp: a frame longjmp left       */
    ldq     $3, 24($2)          /* its caller's context                 */
    hps.mtd 5, 3
    br      $31, 1b
2:  ldq     $3, -16($2)
    cmpeq   $3, $30, $3
    beq     $3, 3f
    ldq     $3, -24($2)
    cmpeq   $3, $1, $3
    beq     $3, 3f
    lda     $2, -32($2)         /* this call returns: r and node back   */
    stq     $2, 0($4)
    ldq     $3, 0($2)
    hps.mtd 0, 3
    ldq     $3, 24($2)
    hps.mtd 5, 3
    br      $31, 9f
3:  ldq     $3, 16($4)
    cmpult  $3, $2, $3
    beq     $3, 6f
    ldq     $3, -16($2)
    cmpeq   $3, $30, $3
    beq     $3, 6f
    ldq     $3, -8($2)          /* a call of this frame's that did not  */
    hps.mtd 5, 3                /* come back (longjmp): its context     */
6:  ldq     $3, 0($4)           /* not this call's                      */
    stq     $2, 0($4)
    cmpeq   $3, $2, $3
    beq     $3, 4f              /* entries dropped: the path is lost    */
5:  ldq     $3, 8($4)
    beq     $3, 9f              /* no push lost either: d0 stays        */
4:  lda     $3, 1($31)
    sll     $3, 62, $3
    hps.mtd 0, 3
9:  hps.mfd 1, 13
    hps.mfd 2, 11
    hps.mfd 3, 9
    hps.mfd 4, 8
    hps.ret
    .size PathPop_handler_asm, . - PathPop_handler_asm

/* PathEnter_handler_asm (hps-pp-acf --cct, pp_cct.h): d8 = call site,
 * d9 = target, d10 = the site's index (low longword) and its procedure's
 * call sites.  The common case in assembly: the current context has its
 * child slots (pp_cct.h), the index is below their count, and the slot
 * holds the child (site, target) -- a direct call's only one: its calls
 * + 1, d5 = it.  Anything else goes on to the C-calling entry wrapper PathEnter_handler
 * (which reads d10 too), which makes the slots, walks the children's
 * list and fills the slot; both count the lookup and its steps the same
 * way.  $1..$4 parked in d13, d11, d3, d4 (d4: the sequences' scratch,
 * dead after PP_push; d3: PP_push clears it after).  Section .text_cct:
 * after the rest of the runtime (runtime.ld). */
#define NODES_LO  (((PPC_OFF_NODES + 32768) & 0xffff) - 32768)
#define NODES_HI  ((PPC_OFF_NODES - NODES_LO) >> 16)
    .section .text_cct.PathEnter_handler_asm, "ax", @progbits
    .globl PathEnter_handler_asm
    .type PathEnter_handler_asm, @function
    .align 4
.Lenter_tree:
    .quad hps_pp_cct
.Lenter_words:
    .quad hps_pp_slots + PPC_OFF_WORDS
PathEnter_handler_asm:
    hps.mtd 13, 1
    hps.mtd 11, 2
    hps.mtd 3, 3
    hps.mtd 4, 4
    br      $1, .Lenter_pc
.Lenter_pc:
    ldq     $3, (.Lenter_words - .Lenter_pc)($1)   /* $3 = the slot words */
    ldq     $1, (.Lenter_tree - .Lenter_pc)($1)    /* $1 = hps_pp_cct */
    ldah    $4, NODES_HI($1)    /* $4 = the nodes                        */
    lda     $4, NODES_LO($4)
    hps.mfd 2, 5                /* &nodes[d5]                            */
    mulq    $2, PPC_NODE_SIZE, $2
    addq    $4, $2, $2
    ldl     $2, PPC_NODE_SLOTS($2)  /* its first slot; 0: none yet (and
                                   before the first call, node 0's)     */
    beq     $2, 9f
    zapnot  $2, 15, $2
    s4addq  $2, $3, $2          /* $2 = &words[first]                    */
    ldl     $3, -4($2)          /* k, the node's slots                   */
    hps.mfd 1, 10
    zapnot  $1, 15, $1          /* the site's index                      */
    cmpult  $1, $3, $3
    beq     $3, 9f              /* past k: no slot                       */
    s4addq  $1, $2, $2
    ldl     $2, 0($2)           /* the slot's child; 0: none             */
    beq     $2, 9f
    zapnot  $2, 15, $2
    mulq    $2, PPC_NODE_SIZE, $1
    addq    $4, $1, $4          /* $4 = &nodes[child]                    */
    ldq     $1, 0($4)           /* its site ...                          */
    hps.mfd 3, 8
    cmpeq   $1, $3, $1
    beq     $1, 9f
    ldq     $1, 8($4)           /* ... and its entry                     */
    hps.mfd 3, 9
    cmpeq   $1, $3, $1
    beq     $1, 9f
    ldq     $1, PPC_NODE_CALLS($4)
    addq    $1, 1, $1
    stq     $1, PPC_NODE_CALLS($4)
    hps.mtd 5, 2                /* d5 = the child                        */
    br      $1, .Lenter_pc2
.Lenter_pc2:
    ldq     $1, (.Lenter_tree - .Lenter_pc2)($1)
    ldq     $2, PPC_OFF_LOOKUPS($1)
    addq    $2, 1, $2
    stq     $2, PPC_OFF_LOOKUPS($1)
    ldq     $2, PPC_OFF_STEPS($1)
    addq    $2, 1, $2
    stq     $2, PPC_OFF_STEPS($1)
    hps.mfd 1, 13
    hps.mfd 2, 11
    hps.mfd 3, 3
    hps.mfd 4, 4
    hps.ret
9:  hps.mfd 1, 13
    hps.mfd 2, 11
    hps.mfd 3, 3
    hps.mfd 4, 4
    br      $31, PathEnter_handler
    .size PathEnter_handler_asm, . - PathEnter_handler_asm

/* PathEnter_handler (both modes: PathEnter_handler_asm's way on): d11 =
 * hps_pp_slots, the slot words, for the C-calling entry wrapper PathEnter_handler_c
 * (wrappers.S, hps_path_enter_slot), and their list_enter = hps_path_enter
 * (which the C code, this far from .text, calls by it); $1 and $2 parked
 * in d4 and d11. */
    .section .text_cct.PathEnter_handler, "ax", @progbits
    .globl PathEnter_handler
    .type PathEnter_handler, @function
    .align 4
.Lslots_at:
    .quad hps_pp_slots
.Llist_enter:
    .quad hps_path_enter
PathEnter_handler:
    hps.mtd 4, 1
    hps.mtd 11, 2
    br      $1, .Lslots_pc
.Lslots_pc:
    ldq     $2, (.Llist_enter - .Lslots_pc)($1)
    ldq     $1, (.Lslots_at - .Lslots_pc)($1)
    stq     $2, PPC_OFF_ENTER($1)
    hps.mfd 2, 11
    hps.mtd 11, 1
    hps.mfd 1, 4
    br      $31, PathEnter_handler_c
    .size PathEnter_handler, . - PathEnter_handler

    /* PP's CCT child slots (pp_cct.h), after the tally table */
    .section .bss_cct, "aw", @nobits
    .align 3
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
