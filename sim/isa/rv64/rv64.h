/*
 * rv64.h - internals shared by the RV64GC front-end: instruction formats,
 * the semantics-function conventions and the helpers semantics bodies use.
 *
 * The instruction set itself lives in the .def tables (rv64_int.def for
 * RV64IM + Zicsr + Zifencei + system, rv64_amo.def for A, rv64_fp.def for F
 * and D).  Each row is
 *     DEFINST(id, "mnemonic", mask, match, format, opclass, flags, memsize)
 * and names the semantics function rv_<id>, defined with SEMANTICS(id).
 * Rows are matched in order; the first whose (raw & mask) == match wins.
 */
#ifndef HPS_RV64_H
#define HPS_RV64_H

#include <stdint.h>

#include "core.h"
#include "isa.h"
#include "mem.h"

/* Formats: which immediate to extract and which register file each operand
 * slot uses (I = integer, F = floating point, - = unused). */
typedef enum {
    RVF_NONE,       /* no operands (ecall, ebreak, fence)                     */
    RVF_R,          /* rd, rs1, rs2: I I I                                     */
    RVF_I,          /* rd, rs1, imm12: I I                                     */
    RVF_I_SHIFT,    /* rd, rs1, shamt (6 bits; 5 for *W): I I                  */
    RVF_S,          /* rs1, rs2, imm12 store: - I I                            */
    RVF_B,          /* rs1, rs2, branch offset -> target                        */
    RVF_U,          /* rd, imm20<<12                                           */
    RVF_J,          /* rd, jump offset -> target                               */
    RVF_CSR,        /* rd, rs1, imm = csr number                               */
    RVF_CSRI,       /* rd, imm = csr number, rm = 5-bit zimm                   */
    RVF_AMO,        /* rd, rs1 (address), rs2; rm = aq<<1 | rl                 */
    RVF_FLOAD,      /* rd F, rs1 I, imm12                                      */
    RVF_FSTORE,     /* rs1 I, rs2 F, imm12                                     */
    RVF_R_FFF,      /* rd F, rs1 F, rs2 F, rm                                  */
    RVF_R_FF,       /* rd F, rs1 F, rm (fsqrt, fcvt.s.d)                       */
    RVF_R_IFF,      /* rd I, rs1 F, rs2 F (feq, flt, fle)                      */
    RVF_R_IF,       /* rd I, rs1 F, rm (fcvt.w.d, fmv.x.d, fclass)             */
    RVF_R_FI,       /* rd F, rs1 I, rm (fcvt.d.w, fmv.d.x)                     */
    RVF_R4,         /* rd F, rs1 F, rs2 F, rs3 F, rm (fmadd ...)               */
    RVF_COUNT
} rv_format_t;

/* Prototypes of every semantics function, from the tables. */
#define DEFINST(id, name, mask, match, fmt, oc, flags, msz) \
    void rv_##id(cpu_t *c, insn_t *i);
#include "rv64_int.def"
#include "rv64_amo.def"
#include "rv64_fp.def"
#undef DEFINST

#define SEMANTICS(id) void rv_##id(cpu_t *c, insn_t *i)

/* Operand access inside a SEMANTICS body (c = cpu, i = insn). */
#define RS1   (c->reg[i->rs1])
#define RS2   (c->reg[i->rs2])
#define RS3   (c->reg[i->rs3])
#define IMM   (i->imm)
#define WRD(v) (c->reg[i->rd] = (uint64_t)(v))
#define SEXT32(v) ((uint64_t)(int64_t)(int32_t)(uint32_t)(v))

/* Take a control transfer to `target`. */
static inline void rv_jump_to(cpu_t *c, insn_t *i, uint64_t target)
{
    c->pc = target;
    i->taken++;
}

/* Dynamic rounding mode value in the rm field. */
#define RV_RM_DYN 7

/* CSR numbers of the unprivileged spec. */
enum {
    CSR_FFLAGS = 0x001, CSR_FRM = 0x002, CSR_FCSR = 0x003,
    CSR_CYCLE = 0xc00, CSR_TIME = 0xc01, CSR_INSTRET = 0xc02
};

/* FP CSR hooks (rv64_fp.c): read accrued flags including those raised by
 * host FP operations not yet folded in, and write them back. */
uint32_t rv_fp_get_fflags(cpu_t *c);
void     rv_fp_set_fflags(cpu_t *c, uint32_t flags);

/* RVC (rv64_rvc.c): expand a 16-bit compressed instruction into its 32-bit
 * equivalent; returns 0 for an illegal/reserved encoding. */
uint32_t rv_expand_rvc(uint16_t half);

/* Decode of a 32-bit (possibly expanded) instruction word into *out. */
bool rv_decode_word(uint64_t pc, uint32_t word, unsigned len, insn_t *out);

/* The DISE handler runtime's hps.* instructions (rv64_hps.c): custom-0,
 * decoded only for pcs inside the runtime region.  Rows by funct3; a
 * decoded record's op is op_base (the size of rv64_table) + funct3. */
#define RV_OPCODE_CUSTOM0 0x0bu
enum { RV_HPS_COUNT = 9 };
extern const insn_def_t rv64_hps_table[RV_HPS_COUNT];
/* hps.mfd and hps.mtd: rd <- rs1 (imm 0: the block loop's ADD_RI) */
void rv_hps_move(cpu_t *c, insn_t *i);
bool rv_decode_hps(uint64_t pc, uint32_t word, uint16_t op_base, const exec_fn ops[HPS_OP_COUNT],
                   insn_t *out);

#endif /* HPS_RV64_H */
