/*
 * rv64_rvc.c - expansion of RV64C (compressed) instructions into the
 * equivalent 32-bit RV64GC instruction words.
 *
 * The decoder calls rv_expand_rvc() once per static 16-bit instruction and
 * decodes the word it returns, so everything downstream sees ordinary base
 * instructions.  Dispatch is a table indexed by quadrant (bits 1:0) and
 * funct3 (bits 15:13); each entry is a small function that gathers the
 * scattered immediate bits and builds the base encoding.  Reserved and
 * illegal encodings return 0 (which is itself not a legal instruction).
 * HINT encodings (e.g. c.addi/c.li/c.mv/c.add/c.slli with rd=x0, shifts by
 * zero) are legal and expand to the base-ISA instruction, which writes x0
 * or otherwise has no architectural effect.
 */
#include "rv64.h"

/* ---- base opcodes ---------------------------------------------------------- */
enum {
    OPC_LOAD = 0x03, OPC_LOAD_FP = 0x07, OPC_OP_IMM = 0x13, OPC_OP_IMM_32 = 0x1b,
    OPC_STORE = 0x23, OPC_STORE_FP = 0x27, OPC_OP = 0x33, OPC_LUI = 0x37,
    OPC_OP_32 = 0x3b, OPC_BRANCH = 0x63, OPC_JALR = 0x67, OPC_JAL = 0x6f,
    OPC_SYSTEM = 0x73
};

enum { REG_X0 = 0, REG_RA = 1, REG_SP = 2 };

/* ---- 32-bit encoders ----------------------------------------------------- */
static uint32_t enc_r(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3,
                      uint32_t rd, uint32_t opc)
{
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}

static uint32_t enc_i(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t opc)
{
    return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}

static uint32_t enc_s(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t opc)
{
    uint32_t u = (uint32_t)imm;
    return (u >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
           (u & 0x1f) << 7 | opc;
}

static uint32_t enc_b(int32_t off, uint32_t rs2, uint32_t rs1, uint32_t f3)
{
    uint32_t u = (uint32_t)off;
    return (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | rs2 << 20 | rs1 << 15 |
           f3 << 12 | (u >> 1 & 0xf) << 8 | (u >> 11 & 1) << 7 | OPC_BRANCH;
}

static uint32_t enc_u(int32_t imm, uint32_t rd, uint32_t opc)
{
    return ((uint32_t)imm & 0xfffff000u) | rd << 7 | opc;
}

static uint32_t enc_j(int32_t off, uint32_t rd)
{
    uint32_t u = (uint32_t)off;
    return (u >> 20 & 1) << 31 | (u >> 1 & 0x3ff) << 21 | (u >> 11 & 1) << 20 |
           (u >> 12 & 0xff) << 12 | rd << 7 | OPC_JAL;
}

/* ---- compressed field extraction ------------------------------------------ */
/* Bit `from` of h, placed at bit `to` of the result. */
static uint32_t bit(uint16_t h, unsigned from, unsigned to)
{
    return (uint32_t)(h >> from & 1) << to;
}

/* Bits hi..lo of h, right-justified. */
static uint32_t field(uint16_t h, unsigned hi, unsigned lo)
{
    return (uint32_t)(h >> lo) & ((1u << (hi - lo + 1)) - 1);
}

static int32_t sext(uint32_t v, unsigned width)
{
    uint32_t sign = 1u << (width - 1);
    return (int32_t)((v ^ sign) - sign);
}

static uint32_t rd_full(uint16_t h)  { return field(h, 11, 7); }   /* rd / rs1 */
static uint32_t rs2_full(uint16_t h) { return field(h, 6, 2); }
static uint32_t rdp(uint16_t h)      { return 8 + field(h, 4, 2); } /* rd' / rs2' */
static uint32_t rs1p(uint16_t h)     { return 8 + field(h, 9, 7); } /* rs1' / rd' */

/* CI-format 6-bit immediate imm[5] = bit 12, imm[4:0] = bits 6:2. */
static uint32_t ci_imm6(uint16_t h) { return bit(h, 12, 5) | field(h, 6, 2); }

/* Offsets of the CL/CS word and doubleword forms. */
static uint32_t clw_off(uint16_t h)
{
    return field(h, 12, 10) << 3 | bit(h, 6, 2) | bit(h, 5, 6);
}

static uint32_t cld_off(uint16_t h)
{
    return field(h, 12, 10) << 3 | field(h, 6, 5) << 6;
}

/* Offsets of the stack-pointer-relative forms. */
static uint32_t lwsp_off(uint16_t h)
{
    return bit(h, 12, 5) | field(h, 6, 4) << 2 | field(h, 3, 2) << 6;
}

static uint32_t ldsp_off(uint16_t h)
{
    return bit(h, 12, 5) | field(h, 6, 5) << 3 | field(h, 4, 2) << 6;
}

static uint32_t swsp_off(uint16_t h)
{
    return field(h, 12, 9) << 2 | field(h, 8, 7) << 6;
}

static uint32_t sdsp_off(uint16_t h)
{
    return field(h, 12, 10) << 3 | field(h, 9, 7) << 6;
}

/* ---- quadrant 0 ----------------------------------------------------------- */
static uint32_t q0_addi4spn(uint16_t h)
{
    uint32_t imm = field(h, 12, 11) << 4 | field(h, 10, 7) << 6 |
                   bit(h, 6, 2) | bit(h, 5, 3);
    if (imm == 0) return 0;                  /* reserved; also the all-zero halfword */
    return enc_i((int32_t)imm, REG_SP, 0, rdp(h), OPC_OP_IMM);
}

static uint32_t q0_fld(uint16_t h) { return enc_i((int32_t)cld_off(h), rs1p(h), 3, rdp(h), OPC_LOAD_FP); }
static uint32_t q0_lw(uint16_t h)  { return enc_i((int32_t)clw_off(h), rs1p(h), 2, rdp(h), OPC_LOAD); }
static uint32_t q0_ld(uint16_t h)  { return enc_i((int32_t)cld_off(h), rs1p(h), 3, rdp(h), OPC_LOAD); }
static uint32_t q0_fsd(uint16_t h) { return enc_s((int32_t)cld_off(h), rdp(h), rs1p(h), 3, OPC_STORE_FP); }
static uint32_t q0_sw(uint16_t h)  { return enc_s((int32_t)clw_off(h), rdp(h), rs1p(h), 2, OPC_STORE); }
static uint32_t q0_sd(uint16_t h)  { return enc_s((int32_t)cld_off(h), rdp(h), rs1p(h), 3, OPC_STORE); }

/* ---- quadrant 1 ----------------------------------------------------------- */
/* c.addi (c.nop, HINTs for rd=0 or imm=0 included). */
static uint32_t q1_addi(uint16_t h)
{
    uint32_t rd = rd_full(h);
    return enc_i(sext(ci_imm6(h), 6), rd, 0, rd, OPC_OP_IMM);
}

static uint32_t q1_addiw(uint16_t h)
{
    uint32_t rd = rd_full(h);
    if (rd == 0) return 0;                   /* reserved */
    return enc_i(sext(ci_imm6(h), 6), rd, 0, rd, OPC_OP_IMM_32);
}

static uint32_t q1_li(uint16_t h)
{
    return enc_i(sext(ci_imm6(h), 6), REG_X0, 0, rd_full(h), OPC_OP_IMM);
}

/* c.addi16sp when rd = x2, otherwise c.lui (rd = x0 is a HINT). */
static uint32_t q1_lui_addi16sp(uint16_t h)
{
    uint32_t rd = rd_full(h);
    if (rd == REG_SP) {
        uint32_t imm = bit(h, 12, 9) | bit(h, 6, 4) | bit(h, 5, 6) |
                       field(h, 4, 3) << 7 | bit(h, 2, 5);
        if (imm == 0) return 0;              /* reserved */
        return enc_i(sext(imm, 10), REG_SP, 0, REG_SP, OPC_OP_IMM);
    }
    uint32_t imm = ci_imm6(h);
    if (imm == 0) return 0;                  /* reserved */
    return enc_u(sext(imm, 6) * 4096, rd, OPC_LUI);
}

/* Register-register forms under funct3=100, bits 11:10 = 11. */
static uint32_t q1_arith(uint16_t h)
{
    static const struct { uint8_t f7, f3, opc; } ops[8] = {
        { 0x20, 0, OPC_OP },    /* c.sub  */
        { 0x00, 4, OPC_OP },    /* c.xor  */
        { 0x00, 6, OPC_OP },    /* c.or   */
        { 0x00, 7, OPC_OP },    /* c.and  */
        { 0x20, 0, OPC_OP_32 }, /* c.subw */
        { 0x00, 0, OPC_OP_32 }, /* c.addw */
        { 0, 0, 0 },            /* reserved */
        { 0, 0, 0 },            /* reserved */
    };
    unsigned k = bit(h, 12, 2) | field(h, 6, 5);
    if (!ops[k].opc) return 0;
    uint32_t rd = rs1p(h);
    return enc_r(ops[k].f7, rdp(h), rd, ops[k].f3, rd, ops[k].opc);
}

static uint32_t q1_misc_alu(uint16_t h)
{
    uint32_t rd = rs1p(h), imm = ci_imm6(h);
    switch (field(h, 11, 10)) {
    case 0:  return enc_i((int32_t)imm, rd, 5, rd, OPC_OP_IMM);            /* c.srli */
    case 1:  return enc_i((int32_t)(0x400 | imm), rd, 5, rd, OPC_OP_IMM);  /* c.srai */
    case 2:  return enc_i(sext(imm, 6), rd, 7, rd, OPC_OP_IMM);            /* c.andi */
    default: return q1_arith(h);
    }
}

static uint32_t q1_j(uint16_t h)
{
    uint32_t off = bit(h, 12, 11) | bit(h, 11, 4) | field(h, 10, 9) << 8 |
                   bit(h, 8, 10) | bit(h, 7, 6) | bit(h, 6, 7) |
                   field(h, 5, 3) << 1 | bit(h, 2, 5);
    return enc_j(sext(off, 12), REG_X0);
}

static int32_t cb_off(uint16_t h)
{
    uint32_t off = bit(h, 12, 8) | field(h, 11, 10) << 3 | field(h, 6, 5) << 6 |
                   field(h, 4, 3) << 1 | bit(h, 2, 5);
    return sext(off, 9);
}

static uint32_t q1_beqz(uint16_t h) { return enc_b(cb_off(h), REG_X0, rs1p(h), 0); }
static uint32_t q1_bnez(uint16_t h) { return enc_b(cb_off(h), REG_X0, rs1p(h), 1); }

/* ---- quadrant 2 ----------------------------------------------------------- */
static uint32_t q2_slli(uint16_t h)
{
    uint32_t rd = rd_full(h);
    return enc_i((int32_t)ci_imm6(h), rd, 1, rd, OPC_OP_IMM);
}

static uint32_t q2_fldsp(uint16_t h)
{
    return enc_i((int32_t)ldsp_off(h), REG_SP, 3, rd_full(h), OPC_LOAD_FP);
}

static uint32_t q2_lwsp(uint16_t h)
{
    if (rd_full(h) == 0) return 0;           /* reserved */
    return enc_i((int32_t)lwsp_off(h), REG_SP, 2, rd_full(h), OPC_LOAD);
}

static uint32_t q2_ldsp(uint16_t h)
{
    if (rd_full(h) == 0) return 0;           /* reserved */
    return enc_i((int32_t)ldsp_off(h), REG_SP, 3, rd_full(h), OPC_LOAD);
}

/* c.jr, c.mv, c.ebreak, c.jalr, c.add. */
static uint32_t q2_jr_mv_add(uint16_t h)
{
    uint32_t rd = rd_full(h), rs2 = rs2_full(h);
    if (!bit(h, 12, 0)) {
        if (rs2 != 0) return enc_r(0, rs2, REG_X0, 0, rd, OPC_OP);        /* c.mv   */
        if (rd == 0) return 0;                                            /* reserved */
        return enc_i(0, rd, 0, REG_X0, OPC_JALR);                         /* c.jr   */
    }
    if (rs2 != 0) return enc_r(0, rs2, rd, 0, rd, OPC_OP);                /* c.add  */
    if (rd == 0) return enc_i(1, REG_X0, 0, REG_X0, OPC_SYSTEM);          /* c.ebreak */
    return enc_i(0, rd, 0, REG_RA, OPC_JALR);                             /* c.jalr */
}

static uint32_t q2_fsdsp(uint16_t h)
{
    return enc_s((int32_t)sdsp_off(h), rs2_full(h), REG_SP, 3, OPC_STORE_FP);
}

static uint32_t q2_swsp(uint16_t h)
{
    return enc_s((int32_t)swsp_off(h), rs2_full(h), REG_SP, 2, OPC_STORE);
}

static uint32_t q2_sdsp(uint16_t h)
{
    return enc_s((int32_t)sdsp_off(h), rs2_full(h), REG_SP, 3, OPC_STORE);
}

/* ---- dispatch ------------------------------------------------------------- */
typedef uint32_t (*rvc_expander)(uint16_t h);

/* Indexed by quadrant * 8 + funct3; NULL = reserved (quadrant 0 funct3 100).
 * c.jal (RV32 only) is c.addiw on RV64. */
static const rvc_expander rvc_table[24] = {
    /* quadrant 0 */
    q0_addi4spn, q0_fld, q0_lw, q0_ld, NULL, q0_fsd, q0_sw, q0_sd,
    /* quadrant 1 */
    q1_addi, q1_addiw, q1_li, q1_lui_addi16sp, q1_misc_alu, q1_j, q1_beqz, q1_bnez,
    /* quadrant 2 */
    q2_slli, q2_fldsp, q2_lwsp, q2_ldsp, q2_jr_mv_add, q2_fsdsp, q2_swsp, q2_sdsp,
};

uint32_t rv_expand_rvc(uint16_t half)
{
    unsigned quadrant = half & 3;
    if (quadrant == 3) return 0;             /* not a 16-bit instruction */
    rvc_expander fn = rvc_table[quadrant * 8 + field(half, 15, 13)];
    return fn ? fn(half) : 0;
}
