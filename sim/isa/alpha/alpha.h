/*
 * alpha.h - internals shared by the Alpha (EV5/EV6 user-mode) front-end:
 * instruction formats, the semantics-function conventions, the row macros
 * of the .def tables and the helpers semantics bodies use.
 *
 * The instruction set lives in the .def tables (alpha_int.def: integer,
 * control, memory, barrier and PAL rows; alpha_fp.def: floating point).
 * Each row is
 *     DEFINST(id, "mnemonic", mask, match, format, opclass, flags, memsize)
 * and names the semantics function al_<id>, defined with SEMANTICS(id).
 * Rows are matched in order; the first whose (raw & mask) == match wins.
 *
 * Operate instructions (opcodes 0x10-0x13, 0x1c) come in a register form
 * (bit 12 clear: Rb is register bits 20:16) and a literal form (bit 12 set:
 * an 8-bit zero-extended literal in bits 20:13).  The form is fixed at
 * decode, never tested per execution: an OPR/CMOV/OPR_B row expands to two
 * rows, <id> and <id>_L, and the matching OPERATE/CMOVE/OPERATE_B
 * semantics macro defines al_<id> (RB = register) and al_<id>_L (RB =
 * literal) from one expression.
 *
 * Register conventions of every format: integer r31 reads decode to
 * REG_ZERO and writes to REG_SINK; f31 reads to REG_FZERO (+0.0) and writes
 * to REG_SINK; FP register n is REG_FP0 + n.
 */
#ifndef HPS_ALPHA_H
#define HPS_ALPHA_H

#include <stdbool.h>
#include <stdint.h>

#include "core.h"
#include "isa.h"
#include "mem.h"

/* Formats: which fields decode extracts into which insn_t slots. */
typedef enum {
    ALF_PAL,        /* CALL_PAL: imm = function (bits 25:0)                       */
    ALF_PAL_V0,     /* CALL_PAL that writes v0 (rduniq): rd = r0, imm = function   */
    ALF_PAL_A0,     /* CALL_PAL that reads a0 (wruniq, gentrap): rs1 = r16, imm    */
    ALF_MEM,        /* integer load / lda: rd = Ra, rs1 = Rb, imm = sext(disp16)
                       (ldah: imm = sext(disp16) << 16)                            */
    ALF_MEM_ST,     /* integer store: rs1 = Rb, rs2 = Ra, imm                      */
    ALF_MEM_STC,    /* stl_c/stq_c: rs1 = Rb, rs2 = Ra, rd = Ra, imm               */
    ALF_FMEM,       /* FP load: rd = Fa, rs1 = Rb, imm (a load to f31 is a
                       prefetch that never faults, Handbook 3.1.3: give it its
                       own row, as alpha_int.def does for r31)                     */
    ALF_FMEM_ST,    /* FP store: rs1 = Rb, rs2 = Fa, imm                           */
    ALF_MFC,        /* opcode 0x18: rd = Ra, rs1 = Rb, imm = function (15:0)       */
    ALF_JMP,        /* jmp/jsr/ret/jsr_coroutine: rd = Ra, rs1 = Rb, imm = 0: the
                       target is Rb & ~3 (isa.h: indirect transfers go to
                       rs1 + imm); the prediction hint is not kept           */
    ALF_BR,         /* br/bsr: rd = Ra, target = pc + 4 + 4 * sext(disp21)         */
    ALF_BCC,        /* integer conditional branch: rs1 = Ra, target                */
    ALF_FBCC,       /* FP conditional branch: rs1 = Fa, target                     */
    ALF_OPR,        /* operate, register form: rs1 = Ra, rs2 = Rb, rd = Rc         */
    ALF_OPR_LIT,    /* operate, literal form: rs1 = Ra, imm = literal, rd = Rc     */
    ALF_CMOV,       /* cmovxx register form: as ALF_OPR plus rs3 = Rc (old value)  */
    ALF_CMOV_LIT,   /* cmovxx literal form: as ALF_OPR_LIT plus rs3 = Rc           */
    ALF_OPR_B,      /* one-operand operate (sextb, ctpop...): rd = Rc, rs1 = Rb    */
    ALF_OPR_B_LIT,  /* its literal form: rd = Rc, imm = literal                    */
    ALF_FOP,        /* FP operate: rd = Fc, rs1 = Fa, rs2 = Fb, rm = bits 15:11    */
    ALF_FOP_B,      /* FP operate on Fb only (converts, sqrt): rd = Fc, rs1 = Fb,
                       rm = bits 15:11                                             */
    ALF_FCMOV,      /* fcmovxx: rd = Fc, rs1 = Fa, rs2 = Fb, rs3 = Fc              */
    ALF_ITOF,       /* itofs/itoft: rd = Fc, rs1 = Ra (integer)                    */
    ALF_FTOI,       /* ftoit/ftois: rd = Rc (integer), rs1 = Fa                    */
    ALF_MT_FPCR,    /* mt_fpcr: rs1 = Fa                                           */
    ALF_MF_FPCR,    /* mf_fpcr: rd = Fa                                            */
    ALF_COUNT
} al_format_t;

/* The formats whose decoded records are handed to al_fp_decode_check(). */
static inline bool al_is_fp_operate_format(unsigned f)
{
    return f == ALF_FOP || f == ALF_FOP_B || f == ALF_FCMOV || f == ALF_ITOF ||
           f == ALF_FTOI || f == ALF_MT_FPCR || f == ALF_MF_FPCR;
}

/* ---- encodings ------------------------------------------------------------- */
/* Major opcode in bits 31:26; operate function in bits 11:5 (7 bits) with
 * the literal flag in bit 12; FP operate function in bits 15:5 (11 bits);
 * opcode 0x18 function in bits 15:0; jump hint kind in bits 15:14. */
#define AL_OP(op)            ((uint32_t)(op) << 26)
#define AL_OP_MASK           0xfc000000u
#define AL_LIT_BIT           0x00001000u
#define AL_OPR_MASK          (AL_OP_MASK | AL_LIT_BIT | 0x00000fe0u)
#define AL_OPR_MATCH(op, fn) (AL_OP(op) | (uint32_t)(fn) << 5)
#define AL_FOP_MASK          (AL_OP_MASK | 0x0000ffe0u)
#define AL_FOP_MATCH(op, fn) (AL_OP(op) | (uint32_t)(fn) << 5)
#define AL_MFC_MASK          (AL_OP_MASK | 0x0000ffffu)
#define AL_MFC_MATCH(fn)     (AL_OP(0x18) | (uint32_t)(fn))
#define AL_JMP_MASK          (AL_OP_MASK | 0x0000c000u)
#define AL_JMP_MATCH(kind)   (AL_OP(0x1a) | (uint32_t)(kind) << 14)
#define AL_RA_MASK           0x03e00000u          /* Ra field, bits 25:21 */
#define AL_RA31              0x03e00000u          /* Ra = r31             */
#define AL_PAL_MASK          0xffffffffu
#define AL_PAL_MATCH(fn)     ((uint32_t)(fn))

/* Operate rows: one line in a .def gives the register and the literal form
 * (both with the same mnemonic, so ACF opcode names match both). */
#define OPR(id, name, op, fn, oc, flags)                                              \
    DEFINST(id, name, AL_OPR_MASK, AL_OPR_MATCH(op, fn), ALF_OPR, oc, flags, 0)       \
    DEFINST(id##_L, name, AL_OPR_MASK, AL_OPR_MATCH(op, fn) | AL_LIT_BIT, ALF_OPR_LIT, \
            oc, flags, 0)
#define CMOV(id, name, op, fn, oc, flags)                                             \
    DEFINST(id, name, AL_OPR_MASK, AL_OPR_MATCH(op, fn), ALF_CMOV, oc, flags, 0)      \
    DEFINST(id##_L, name, AL_OPR_MASK, AL_OPR_MATCH(op, fn) | AL_LIT_BIT, ALF_CMOV_LIT, \
            oc, flags, 0)
#define OPR_B(id, name, op, fn, oc, flags)                                            \
    DEFINST(id, name, AL_OPR_MASK, AL_OPR_MATCH(op, fn), ALF_OPR_B, oc, flags, 0)     \
    DEFINST(id##_L, name, AL_OPR_MASK, AL_OPR_MATCH(op, fn) | AL_LIT_BIT, ALF_OPR_B_LIT, \
            oc, flags, 0)

/* Prototypes of every semantics function, from the tables. */
#define DEFINST(id, name, mask, match, fmt, oc, flags, msz) \
    void al_##id(cpu_t *c, insn_t *i);
#include "alpha_int.def"
#include "alpha_fp.def"
#undef DEFINST

#define SEMANTICS(id) void al_##id(cpu_t *c, insn_t *i)

/* Operand access inside a SEMANTICS body (c = cpu, i = insn). */
#define RS1    (c->reg[i->rs1])
#define RS2    (c->reg[i->rs2])
#define RS3    (c->reg[i->rs3])
#define IMM    (i->imm)
#define WRD(v) (c->reg[i->rd] = (uint64_t)(v))
#define RA     RS1               /* operate: first source                   */
#define RC_OLD RS3               /* cmov: the destination's old value       */
#define SEXT32(v) ((uint64_t)(int64_t)(int32_t)(uint32_t)(v))

/* Operate semantics: al_<id> with RB the register Rb, al_<id>_L with RB the
 * literal; `expr` is written to Rc. */
#define OPERATE(id, expr)                                            \
    SEMANTICS(id)     { const uint64_t RB = RS2; WRD(expr); }        \
    SEMANTICS(id##_L) { const uint64_t RB = (uint64_t)IMM; WRD(expr); }
/* cmovxx: Rc = cond(RA) ? RB : old Rc (written either way). */
#define CMOVE(id, cond)                                                          \
    SEMANTICS(id)     { const uint64_t RB = RS2; WRD((cond) ? RB : RC_OLD); }    \
    SEMANTICS(id##_L) { const uint64_t RB = (uint64_t)IMM; WRD((cond) ? RB : RC_OLD); }
/* One-operand operate (the operand is RB, decoded into rs1 or imm). */
#define OPERATE_B(id, expr)                                                    \
    SEMANTICS(id)     { const uint64_t RB = RS1; (void)RB; WRD(expr); }        \
    SEMANTICS(id##_L) { const uint64_t RB = (uint64_t)IMM; (void)RB; WRD(expr); }

/* Take a control transfer to `target` (counts the taken branch). */
static inline void al_jump_to(cpu_t *c, insn_t *i, uint64_t target)
{
    c->pc = target;
    i->taken++;
}

/* ---- the floating-point side (alpha_fp.c, owned by the FP front-end) ---- */
/* Called by the decoder for every row whose format satisfies
 * al_is_fp_operate_format(), with *out fully decoded (raw, rm = bits 15:11,
 * operands); returns false for an illegal qualifier combination. */
bool al_fp_decode_check(insn_t *out);
/* Host FP state belongs to the guest only while it runs: isa_alpha's
 * run_enter/run_leave hooks. */
void al_fp_run_enter(cpu_t *c);
void al_fp_run_leave(cpu_t *c);

/* ---- decoding (alpha_decode.c) ------------------------------------------- */
/* Decode one instruction word at pc into *out; false if illegal. */
bool al_decode_word(uint64_t pc, uint32_t word, insn_t *out);

/* The DISE handler runtime's hps.* instructions (alpha_hps.c): OPC01,
 * decoded only for pcs inside the runtime region.  Rows by function; a
 * decoded record's op is op_base (the size of isa_alpha's table) + function. */
#define AL_OPCODE_HPS 0x01u
enum { AL_HPS_COUNT = 9 };
extern const insn_def_t alpha_hps_table[AL_HPS_COUNT];
/* hps.mfd and hps.mtd: rd <- rs1 (imm 0: the block loop's ADD_RI) */
void al_hps_move(cpu_t *c, insn_t *i);
bool al_decode_hps(uint64_t pc, uint32_t word, uint16_t op_base, const exec_fn ops[HPS_OP_COUNT],
                   insn_t *out);

#endif /* HPS_ALPHA_H */
