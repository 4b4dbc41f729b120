/*
 * wrappers.S - the entry points DISE's call(Name) jumps to, one per handler.
 *
 * On entry every program register is intact and the arguments are in the
 * DISE registers d8..d11; d12 holds the runtime's stack pointer.  An entry wrapper
 * parks the program's sp in d13, switches to the runtime stack, saves every
 * integer register the C handler may clobber (ra, t0-t6, a0-a7; s0-s11 are
 * callee-saved, gp/tp are never touched by the runtime), loads a0.. from
 * d8.., calls the C function, restores, puts the program's sp back and
 * returns to the replacement sequence with hps.ret.
 */
#include "hps_insn.h"

#define FRAME 128       /* 16 registers, keeps sp 16-byte aligned */

/* fn2 (PathReturn_handler): a second C function, called after fn with d10;
 * sect: the entry wrapper's section (text_late: runtime.ld puts it after every other
 * handler, so adding it moved none of them); regs: csprof's extra arguments. */
.macro HPS_HANDLER name, fn, nargs, regs=0, fn2=, sect=text
    .section .\sect\().\name, "ax", @progbits
    .globl \name
    .type \name, @function
    .balign 4
\name:
    hps.mtd 13, sp
    hps.mfd sp, 12
    addi    sp, sp, -FRAME
    sd      ra,   0(sp)
    sd      t0,   8(sp)
    sd      t1,  16(sp)
    sd      t2,  24(sp)
    sd      t3,  32(sp)
    sd      t4,  40(sp)
    sd      t5,  48(sp)
    sd      t6,  56(sp)
    sd      a0,  64(sp)
    sd      a1,  72(sp)
    sd      a2,  80(sp)
    sd      a3,  88(sp)
    sd      a4,  96(sp)
    sd      a5, 104(sp)
    sd      a6, 112(sp)
    sd      a7, 120(sp)
    .if \nargs > 0
    hps.mfd a0, 8
    .endif
    .if \nargs > 1
    hps.mfd a1, 9
    .endif
    .if \nargs > 2
    hps.mfd a2, 10
    .endif
    .if \nargs > 3
    hps.mfd a3, 11
    .endif
    .if \regs                   /* csprof: the save area and the program's fp */
    mv      a4, sp
    mv      a5, s0
    .endif
    jal     ra, \fn
    .ifnb \fn2
    hps.mfd a0, 10
    jal     ra, \fn2
    .endif
    ld      ra,   0(sp)
    ld      t0,   8(sp)
    ld      t1,  16(sp)
    ld      t2,  24(sp)
    ld      t3,  32(sp)
    ld      t4,  40(sp)
    ld      t5,  48(sp)
    ld      t6,  56(sp)
    ld      a0,  64(sp)
    ld      a1,  72(sp)
    ld      a2,  80(sp)
    ld      a3,  88(sp)
    ld      a4,  96(sp)
    ld      a5, 104(sp)
    ld      a6, 112(sp)
    ld      a7, 120(sp)
    hps.mfd sp, 13
    hps.ret
    .size \name, . - \name
.endm

/*          entry point (ACF name)  C function       arguments */
HPS_HANDLER HotMethod_handler,      hps_hot_method,  2     /* d8 pc, d9 target           */
HPS_HANDLER CallPair_handler,       hps_call_pair,   2     /* d8 call site, d9 target    */
HPS_HANDLER DataStream_handler,     hps_data_stream, 3     /* d8 pc, d9 address, d10 burst */
HPS_HANDLER PathCount_handler,      hps_path_count,  2     /* d8 procedure, d9 path number */
HPS_HANDLER PathPush_handler,       hps_path_push,   2     /* d8 path register, d9 return pc */
HPS_HANDLER PathPop_handler,        hps_path_pop,    1     /* d8 pc (a return address) */
HPS_HANDLER DCPI_interrupt,         dcpi_interrupt,  4     /* d8 pid, d9 pc, d10 event, d11 counter */
HPS_HANDLER VALUE_interrupt,        value_interrupt, 2     /* d8 pc, d9 mask of valid values */
/* a return's path count and pop (PP on DISE), after the assembly handlers */
HPS_HANDLER PathReturn_handler,     hps_path_count,  2, 0, hps_path_pop, text_late
/* csprof (csprof_driver.c): the C function also gets the save area (it reads
 * and writes the program's ra there) and the program's s0 */
HPS_HANDLER CSPROF_interrupt,       csprof_interrupt, 4, 1 /* d8 tid, d9 pc, d10 event, d11 counter */
HPS_HANDLER CSPROF_trampoline,      csprof_trampoline, 2, 1 /* d8 tid, d9 pc */

/* PP's calling context tree (hps-pp-acf --cct, pp_cct.h): C versions; the
 * tail handler's _asm name reaches the same entry wrapper, PathEnter_handler_asm
 * (handlers_asm.S) does the common case and jumps here for the rest;
 * they touch no path stack, only d5 and the tree; PathEnter_handler_c is in
 * section .text_cct, after the rest of the runtime (runtime.ld) */
HPS_HANDLER PathEnter_handler_c,    hps_path_enter_slot, 4, 0, , text_cct  /* d8 call site, d9 target, d10 PPC_SITE_INFO, d11 hps_pp_slots (PathEnter_handler: handlers_asm.S) */
HPS_HANDLER PathTail_handler,       hps_path_tail,   2, 0, , text_late  /* d8 the jump's target, d9 its procedure */
    .globl PathTail_handler_asm
    PathTail_handler_asm = PathTail_handler     /* PathEnter_handler_asm: handlers_asm.S */
/* PP's path metrics read in the guest (hps-pp-acf --metrics): the path
 * handlers with counter reads, C only, the same for both modes */
HPS_HANDLER PathCountM_handler,     hps_pathm_count,  2, 0, , text_late  /* d8 procedure, d9 path */
HPS_HANDLER PathPushM_handler,      hps_pathm_push,   2, 0, , text_late  /* d8 r, d9 return pc */
HPS_HANDLER PathPopM_handler,       hps_pathm_pop,    1, 0, , text_late  /* d8 pc */
HPS_HANDLER PathReturnM_handler,    hps_pathm_return, 3, 0, , text_late  /* d8, d9, d10 the target */
    .globl PathCountM_handler_asm, PathPushM_handler_asm, PathPopM_handler_asm, PathReturnM_handler_asm
    PathCountM_handler_asm = PathCountM_handler
    PathPushM_handler_asm = PathPushM_handler
    PathPopM_handler_asm = PathPopM_handler
    PathReturnM_handler_asm = PathReturnM_handler

    .section .note.GNU-stack, "", @progbits
