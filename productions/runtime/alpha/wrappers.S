/*
 * wrappers.S - the entry points DISE's call(Name) jumps to on Alpha, one per
 * handler.
 *
 * On entry every program register is intact and the arguments are in the
 * DISE registers d8..d11; d12 holds the runtime's stack pointer.  An entry wrapper
 * parks the program's $sp in d13, switches to the runtime stack, saves every
 * integer register the C handler may clobber (v0, t0-t11, a0-a5, ra, pv,
 * at, gp; s0-s5 and fp are callee-saved), loads a0.. from d8.., points $gp
 * at the runtime's own global table (the program's $gp is saved), calls the
 * C function, restores, puts the program's $sp back and returns to the
 * replacement sequence with hps.ret.  The runtime is built -mno-fp-regs, so
 * the program's FP registers are never touched.
 */
#include "hps_insn.h"

#define FRAME 192       /* 23 registers, keeps $sp 16-byte aligned */

    .set noat
    .set noreorder

/* fn2 (PathReturn_handler): a second C function, called after fn with d10;
 * sect: the entry wrapper's section (text_late: runtime.ld puts it after every other
 * handler, so adding it moved none of them); regs: csprof's extra arguments. */
.macro HPS_HANDLER name, fn, nargs, regs=0, fn2=, sect=text
    .section .\sect\().\name, "ax", @progbits
    .globl \name
    .type \name, @function
    .align 4
\name:
    hps.mtd 13, 30
    hps.mfd 30, 12
    lda     $30, -FRAME($30)
    stq     $0, 0($30)
    stq     $1, 8($30)
    stq     $2, 16($30)
    stq     $3, 24($30)
    stq     $4, 32($30)
    stq     $5, 40($30)
    stq     $6, 48($30)
    stq     $7, 56($30)
    stq     $8, 64($30)
    stq     $16, 72($30)
    stq     $17, 80($30)
    stq     $18, 88($30)
    stq     $19, 96($30)
    stq     $20, 104($30)
    stq     $21, 112($30)
    stq     $22, 120($30)
    stq     $23, 128($30)
    stq     $24, 136($30)
    stq     $25, 144($30)
    stq     $26, 152($30)
    stq     $27, 160($30)
    stq     $28, 168($30)
    stq     $29, 176($30)
    .if \nargs > 0
    hps.mfd 16, 8
    .endif
    .if \nargs > 1
    hps.mfd 17, 9
    .endif
    .if \nargs > 2
    hps.mfd 18, 10
    .endif
    .if \nargs > 3
    hps.mfd 19, 11
    .endif
    .if \regs                   /* csprof: the save area and the program's fp */
    mov     $30, $20
    mov     $15, $21
    .endif
    br      $29, 1f             /* $29 <- address of the ldgp below */
1:  ldgp    $29, 0($29)
    bsr     $26, \fn !samegp
    .ifnb \fn2
    hps.mfd 16, 10
    br      $29, 2f             /* $gp again for the second call */
2:  ldgp    $29, 0($29)
    bsr     $26, \fn2 !samegp
    .endif
    ldq     $0, 0($30)
    ldq     $1, 8($30)
    ldq     $2, 16($30)
    ldq     $3, 24($30)
    ldq     $4, 32($30)
    ldq     $5, 40($30)
    ldq     $6, 48($30)
    ldq     $7, 56($30)
    ldq     $8, 64($30)
    ldq     $16, 72($30)
    ldq     $17, 80($30)
    ldq     $18, 88($30)
    ldq     $19, 96($30)
    ldq     $20, 104($30)
    ldq     $21, 112($30)
    ldq     $22, 120($30)
    ldq     $23, 128($30)
    ldq     $24, 136($30)
    ldq     $25, 144($30)
    ldq     $26, 152($30)
    ldq     $27, 160($30)
    ldq     $28, 168($30)
    ldq     $29, 176($30)
    hps.mfd 30, 13
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
 * and writes the program's ra there) and the program's fp */
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
