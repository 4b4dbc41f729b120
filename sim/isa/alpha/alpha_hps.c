/*
 * alpha_hps.c - the DISE handler runtime's special instructions on Alpha:
 * the reserved major opcode 0x01 (OPC01), memory-with-function layout
 * (Ra bits 25:21, Rb bits 20:16, function bits 15:0), as assembled by
 * productions/runtime/alpha/hps_insn.h.
 *
 *   function 0  hps.mfd ra, N    ra <- DISE register dN (N in the Rb field)
 *   function 1  hps.mtd N, rb    dN <- rb               (N in the Ra field)
 *   function 2  hps.ret          return from the handler (sim/runtime.c: to a
 *                                replacement sequence or an interrupted program)
 *   function 3  hps.flush        the host drains the profile buffer (DISE)
 *   function 4  hps.notify rb    tell the host rb (the DCPI driver)
 *   function 5  hps.wrpmc ra, rb performance counter ra <- rb
 *   function 6  hps.rdpmc ra, rb ra <- performance counter rb (its count
 *                                since it last overflowed)
 *   function 7  hps.ldp ra, rb   ra <- the program's quadword at rb (its
 *                                address space; 0 when unmapped: csprof)
 *   function 8  hps.stp ra, rb   the program's quadword at ra <- rb
 *
 * The ISA's decode_special hands OPC01 words here only for the runtime's own
 * address space (mem_t.special_ops, which also gives hps.ret, flush,
 * notify and wrpmc their semantics); everywhere else OPC01 stays illegal, as
 * on the hardware, so programs cannot reach the DISE registers.  The rows
 * are kept out of isa_alpha's table so that ACF opcode names and program
 * decoding see the program ISA alone; an hps.* record's op is the table
 * size + function, as on RISC-V (rv64_hps.c).
 */
#include <string.h>

#include "alpha.h"

enum { AL_REG_R31 = 31 };

/* hps.mfd / hps.mtd: a register move across the DISE register boundary
 * (decode has put the unified register numbers in rd and rs1). */
void al_hps_move(cpu_t *c, insn_t *i)
{
    c->reg[i->rd] = c->reg[i->rs1];
}

#define HPS_MATCH(fn) (AL_OP(AL_OPCODE_HPS) | (uint32_t)(fn))
#define HPS_NO_REGS   (AL_RA31 | 0x001f0000u)      /* Ra = Rb = r31 */

const insn_def_t alpha_hps_table[AL_HPS_COUNT] = {
    { "hps.mfd",   AL_OP_MASK | 0xffffu, HPS_MATCH(0), ALF_PAL, OC_DISE, 0, 0, al_hps_move },
    { "hps.mtd",   AL_OP_MASK | 0xffffu, HPS_MATCH(1), ALF_PAL, OC_DISE, 0, 0, al_hps_move },
    { "hps.ret",   0xffffffffu, HPS_MATCH(2) | HPS_NO_REGS, ALF_PAL, OC_JUMP,
      IF_JUMP | IF_INDIRECT, 0, NULL },
    { "hps.flush", 0xffffffffu, HPS_MATCH(3) | HPS_NO_REGS, ALF_PAL, OC_DISE, 0, 0, NULL },
    { "hps.notify", AL_OP_MASK | AL_RA_MASK | 0xffffu, HPS_MATCH(4) | AL_RA31, ALF_PAL, OC_DISE,
      0, 0, NULL },
    { "hps.wrpmc", AL_OP_MASK | 0xffffu, HPS_MATCH(5), ALF_PAL, OC_DISE, 0, 0, NULL },
    { "hps.rdpmc", AL_OP_MASK | 0xffffu, HPS_MATCH(6), ALF_PAL, OC_DISE, 0, 0, NULL },
    { "hps.ldp",   AL_OP_MASK | 0xffffu, HPS_MATCH(7), ALF_PAL, OC_DISE, 0, 0, NULL },
    { "hps.stp",   AL_OP_MASK | 0xffffu, HPS_MATCH(8), ALF_PAL, OC_DISE, 0, 0, NULL },
};

bool al_decode_hps(uint64_t pc, uint32_t w, uint16_t op_base, const exec_fn ops[HPS_OP_COUNT],
                   insn_t *out)
{
    uint32_t fn = w & 0xffff, ra = (w >> 21) & 31, rb = (w >> 16) & 31;
    if (fn >= AL_HPS_COUNT) return false;
    const insn_def_t *d = &alpha_hps_table[fn];
    if ((w & d->mask) != d->match) return false;
    memset(out, 0, sizeof *out);
    out->exec = d->exec ? d->exec : ops[fn];
    if (!out->exec) return false;
    out->pc = pc;
    out->raw = w;
    out->op = (uint16_t)(op_base + fn);
    out->flags = d->flags;
    out->opclass = d->opclass;
    out->len = 4;
    out->rd = out->rs1 = out->rs2 = out->rs3 = REG_NONE;
    switch (fn) {
    case 0:                                             /* hps.mfd ra, N  */
        if (rb >= REG_DISE_COUNT) return false;
        out->rd = ra == AL_REG_R31 ? REG_SINK : (uint8_t)ra;
        out->rs1 = (uint8_t)(REG_DISE0 + rb);
        break;
    case 1:                                             /* hps.mtd N, rb  */
        if (ra >= REG_DISE_COUNT) return false;
        out->rd = (uint8_t)(REG_DISE0 + ra);
        out->rs1 = rb == AL_REG_R31 ? REG_ZERO : (uint8_t)rb;
        break;
    case 4:                                             /* hps.notify rb  */
        out->rs1 = rb == AL_REG_R31 ? REG_ZERO : (uint8_t)rb;
        break;
    case 5:                                             /* hps.wrpmc ra, rb */
    case 8:                                             /* hps.stp ra, rb */
        out->rs1 = ra == AL_REG_R31 ? REG_ZERO : (uint8_t)ra;
        out->rs2 = rb == AL_REG_R31 ? REG_ZERO : (uint8_t)rb;
        break;
    case 6:                                             /* hps.rdpmc ra, rb */
    case 7:                                             /* hps.ldp ra, rb */
        out->rd = ra == AL_REG_R31 ? REG_SINK : (uint8_t)ra;
        out->rs1 = rb == AL_REG_R31 ? REG_ZERO : (uint8_t)rb;
        break;
    default:                                            /* hps.ret/flush  */
        break;
    }
    return true;
}
