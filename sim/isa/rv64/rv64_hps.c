/*
 * rv64_hps.c - the DISE handler runtime's special instructions on RV64:
 * RISC-V custom-0 (major opcode 0x0b), R-type, funct7 = 0, rs2 = 0.
 *
 *   funct3 0  hps.mfd rd, N    rd <- DISE register dN (N in the rs1 field)
 *   funct3 1  hps.mtd N, rs1   dN <- rs1              (N in the rd field)
 *   funct3 2  hps.ret          return from the handler (to whoever called it:
 *                              a replacement sequence, or the program the PMU
 *                              interrupted; sim/runtime.c)
 *   funct3 3  hps.flush        the host drains the profile buffer (DISE)
 *   funct3 4  hps.notify rs1   tell the host rs1 (the DCPI driver: an
 *                              overflow buffer is full)
 *   funct3 5  hps.wrpmc rs1, rs2   performance counter rs1 <- rs2
 *   funct3 6  hps.rdpmc rd, rs1    rd <- performance counter rs1 (its count
 *                              since it last overflowed, for the driver to
 *                              carry the overshoot into the next period)
 *   funct3 7, funct7 0  hps.ldp rd, rs1   rd <- the program's doubleword at
 *                              rs1 (its address space, not the runtime's; 0
 *                              when unmapped: csprof's guest unwinder)
 *   funct3 7, funct7 1  hps.stp rs1, rs2  the program's doubleword at rs1 <- rs2
 *
 * The ISA's decode_special hands custom-0 words here only for the runtime's
 * own address space (mem_t.special_ops, which also gives hps.ret, flush,
 * notify and wrpmc their semantics); everywhere else they stay illegal,
 * so programs cannot reach the DISE registers.  The rows are kept out of
 * rv64_table so that ACF opcode names and program decoding see the
 * program ISA alone; an hps.* record's op is the table size + funct3.
 */
#include <string.h>

#include "rv64.h"

/* hps.mfd / hps.mtd: a register move across the DISE register boundary
 * (decode has put the unified register numbers in rd and rs1). */
void rv_hps_move(cpu_t *c, insn_t *i)
{
    c->reg[i->rd] = c->reg[i->rs1];
}

const insn_def_t rv64_hps_table[RV_HPS_COUNT] = {
    { "hps.mfd",   0xfff0707f, 0x0000000b, RVF_NONE, OC_DISE, 0, 0, rv_hps_move },
    { "hps.mtd",   0xfff0707f, 0x0000100b, RVF_NONE, OC_DISE, 0, 0, rv_hps_move },
    { "hps.ret",   0xffffffff, 0x0000200b, RVF_NONE, OC_JUMP, IF_JUMP | IF_INDIRECT, 0, NULL },
    { "hps.flush", 0xffffffff, 0x0000300b, RVF_NONE, OC_DISE, 0, 0, NULL },
    { "hps.notify", 0xfff07fff, 0x0000400b, RVF_NONE, OC_DISE, 0, 0, NULL },
    { "hps.wrpmc", 0xfe007fff, 0x0000500b, RVF_NONE, OC_DISE, 0, 0, NULL },
    { "hps.rdpmc", 0xfff0707f, 0x0000600b, RVF_NONE, OC_DISE, 0, 0, NULL },
    { "hps.ldp",   0xfff0707f, 0x0000700b, RVF_NONE, OC_DISE, 0, 0, NULL },
    { "hps.stp",   0xfe007fff, 0x0200700b, RVF_NONE, OC_DISE, 0, 0, NULL },
};

bool rv_decode_hps(uint64_t pc, uint32_t w, uint16_t op_base, const exec_fn ops[HPS_OP_COUNT],
                   insn_t *out)
{
    uint32_t f3 = (w >> 12) & 7, rd = (w >> 7) & 31, rs1 = (w >> 15) & 31;
    if (f3 == 7 && (w >> 25) == 1) f3 = HPS_OP_STP;      /* funct7 1: hps.stp */
    if (f3 >= RV_HPS_COUNT) return false;
    const insn_def_t *d = &rv64_hps_table[f3];
    if ((w & d->mask) != d->match) return false;
    memset(out, 0, sizeof *out);
    out->exec = d->exec ? d->exec : ops[f3];
    if (!out->exec) return false;
    out->pc = pc;
    out->raw = w;
    out->op = (uint16_t)(op_base + f3);
    out->flags = d->flags;
    out->opclass = d->opclass;
    out->len = 4;
    out->rd = out->rs1 = out->rs2 = out->rs3 = REG_NONE;
    switch (f3) {
    case 0:                                             /* hps.mfd rd, N  */
        if (rs1 >= REG_DISE_COUNT) return false;
        out->rd = rd ? (uint8_t)rd : REG_SINK;
        out->rs1 = (uint8_t)(REG_DISE0 + rs1);
        break;
    case 1:                                             /* hps.mtd N, rs1 */
        if (rd >= REG_DISE_COUNT) return false;
        out->rd = (uint8_t)(REG_DISE0 + rd);
        out->rs1 = rs1 ? (uint8_t)rs1 : REG_ZERO;
        break;
    case 4:                                             /* hps.notify rs1 */
        out->rs1 = rs1 ? (uint8_t)rs1 : REG_ZERO;
        break;
    case 5: {                                           /* hps.wrpmc rs1, rs2 */
        uint32_t rs2 = (w >> 20) & 31;
        out->rs1 = rs1 ? (uint8_t)rs1 : REG_ZERO;
        out->rs2 = rs2 ? (uint8_t)rs2 : REG_ZERO;
        break;
    }
    case 6:                                             /* hps.rdpmc rd, rs1 */
    case 7:                                             /* hps.ldp rd, rs1 */
        out->rd = rd ? (uint8_t)rd : REG_SINK;
        out->rs1 = rs1 ? (uint8_t)rs1 : REG_ZERO;
        break;
    case 8: {                                           /* hps.stp rs1, rs2 */
        uint32_t rs2 = (w >> 20) & 31;
        out->rs1 = rs1 ? (uint8_t)rs1 : REG_ZERO;
        out->rs2 = rs2 ? (uint8_t)rs2 : REG_ZERO;
        break;
    }
    default:                                            /* hps.ret/flush  */
        break;
    }
    return true;
}
