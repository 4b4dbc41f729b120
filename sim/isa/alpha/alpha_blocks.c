/*
 * alpha_blocks.c - the Alpha semantics functions that the functional core's
 * block loop executes inline (blocks.h): each maps to the kind that
 * computes exactly what its body in alpha_int.c (ldt, stt: alpha_fp.c)
 * computes; the _L forms take the literal from imm, shifts use its low six
 * bits as the kinds do; zapnot's literal becomes the mask of the bytes it
 * keeps, a subtracted literal its negation and bic's, ornot's and eqv's
 * its complement (alpha_block_imms); ldq_u and stq_u access the aligned
 * quadword, the branches compare ra with zero, and br / bsr and the jumps
 * (jmp, jsr, ret, jsr_coroutine: rb & ~3) link into ra.  A cmovxx keeps
 * rc when ra fails its condition (the semantics write rc's old value back:
 * the same); the prefetches to r31, the barriers and the hints do nothing.
 */
#include "alpha.h"
#include "alpha_bytes.h"
#include "blocks.h"

/* zapnot with a literal keeps the bytes it selects: an AND with their mask. */
static int64_t zapnot_mask(int64_t literal) { return (int64_t)al_byte_mask((uint64_t)literal); }
/* a literal subtracted is its negation added; bic, ornot and eqv take its
 * complement (modulo 2^64 both, as the semantics compute) */
static int64_t negated(int64_t literal) { return (int64_t)(0 - (uint64_t)literal); }
static int64_t complemented(int64_t literal) { return (int64_t)~(uint64_t)literal; }

const block_op_t alpha_block_ops[] = {
    { al_LDA, BK_ADD_RI },      { al_LDAH, BK_ADD_RI },
    { al_hps_move, BK_ADD_RI },   /* the handler runtime's hps.mfd / hps.mtd (imm 0) */
    { al_ADDQ, BK_ADD_RR },     { al_ADDQ_L, BK_ADD_RI },   { al_SUBQ, BK_SUB_RR },
    { al_ADDL, BK_ADDW_RR },    { al_ADDL_L, BK_ADDW_RI },  { al_SUBL, BK_SUBW_RR },
    { al_AND, BK_AND_RR },      { al_AND_L, BK_AND_RI },    { al_BIS, BK_OR_RR },
    { al_BIS_L, BK_OR_RI },     { al_XOR, BK_XOR_RR },      { al_XOR_L, BK_XOR_RI },
    { al_SLL, BK_SLL_RR },      { al_SLL_L, BK_SLL_RI },    { al_SRL, BK_SRL_RR },
    { al_SRL_L, BK_SRL_RI },    { al_SRA, BK_SRA_RR },      { al_SRA_L, BK_SRA_RI },
    { al_CMPLT, BK_SLT_RR },    { al_CMPLT_L, BK_SLT_RI },  { al_CMPULT, BK_SLTU_RR },
    { al_CMPULT_L, BK_SLTU_RI },
    { al_CMPEQ, BK_SEQ_RR },    { al_CMPEQ_L, BK_SEQ_RI },  { al_CMPLE, BK_SLE_RR },
    { al_CMPLE_L, BK_SLE_RI },  { al_CMPULE, BK_SLEU_RR },  { al_CMPULE_L, BK_SLEU_RI },
    { al_EXTBL, BK_EXTB_RR },   { al_ZAPNOT_L, BK_AND_RI },
    { al_SUBQ_L, BK_ADD_RI },   { al_SUBL_L, BK_ADDW_RI },  { al_S4SUBQ_L, BK_S4ADD_RI },
    { al_S8SUBQ_L, BK_S8ADD_RI }, { al_BIC_L, BK_AND_RI },  { al_ORNOT_L, BK_OR_RI },
    { al_EQV_L, BK_XOR_RI },
    { al_S4ADDQ, BK_S4ADD_RR }, { al_S4ADDQ_L, BK_S4ADD_RI },
    { al_S8ADDQ, BK_S8ADD_RR }, { al_S8ADDQ_L, BK_S8ADD_RI },
    { al_LDBU, BK_LD8U },       { al_LDWU, BK_LD16U },      { al_LDL, BK_LD32S },
    { al_LDQ, BK_LD64 },        { al_LDQ_U, BK_LD64A },
    { al_STB, BK_ST8 },         { al_STW, BK_ST16 },        { al_STL, BK_ST32 },
    { al_STQ, BK_ST64 },        { al_STQ_U, BK_ST64A },
    { al_LDT, BK_LD64 },        { al_STT, BK_ST64 },
    { al_BEQ, BK_BEQZ },        { al_BNE, BK_BNEZ },        { al_BLT, BK_BLTZ },
    { al_BGE, BK_BGEZ },        { al_BLE, BK_BLEZ },        { al_BGT, BK_BGTZ },
    { al_BLBC, BK_BLBC },       { al_BLBS, BK_BLBS },
    { al_BR, BK_JAL },          { al_BSR, BK_JAL },
    { al_JMP, BK_JMP },         { al_JSR, BK_JMP },         { al_RET, BK_JMP },
    { al_JSR_COROUTINE, BK_JMP },
    { al_CMOVEQ, BK_CMOVEQ_RR },   { al_CMOVEQ_L, BK_CMOVEQ_RI },
    { al_CMOVNE, BK_CMOVNE_RR },   { al_CMOVNE_L, BK_CMOVNE_RI },
    { al_CMOVLT, BK_CMOVLT_RR },   { al_CMOVLT_L, BK_CMOVLT_RI },
    { al_CMOVGE, BK_CMOVGE_RR },   { al_CMOVGE_L, BK_CMOVGE_RI },
    { al_CMOVLE, BK_CMOVLE_RR },   { al_CMOVLE_L, BK_CMOVLE_RI },
    { al_CMOVGT, BK_CMOVGT_RR },   { al_CMOVGT_L, BK_CMOVGT_RI },
    { al_CMOVLBC, BK_CMOVLBC_RR }, { al_CMOVLBC_L, BK_CMOVLBC_RI },
    { al_CMOVLBS, BK_CMOVLBS_RR }, { al_CMOVLBS_L, BK_CMOVLBS_RI },
    { al_PREFETCH_BU, BK_NOP },    { al_PREFETCH_U, BK_NOP },  { al_PREFETCH_WU, BK_NOP },
    { al_PREFETCH_L, BK_NOP },     { al_PREFETCH_Q, BK_NOP },  { al_TRAPB, BK_NOP },
    { al_EXCB, BK_NOP },           { al_MB, BK_NOP },          { al_WMB, BK_NOP },
    { al_FETCH, BK_NOP },          { al_FETCH_M, BK_NOP },     { al_ECB, BK_NOP },
    { al_WH64, BK_NOP },           { al_WH64EN, BK_NOP },
};
const size_t alpha_block_ops_count = sizeof alpha_block_ops / sizeof alpha_block_ops[0];

const block_imm_t alpha_block_imms[] = {
    { al_ZAPNOT_L, zapnot_mask },
    { al_SUBQ_L, negated },     { al_SUBL_L, negated },     { al_S4SUBQ_L, negated },
    { al_S8SUBQ_L, negated },   { al_BIC_L, complemented }, { al_ORNOT_L, complemented },
    { al_EQV_L, complemented },
};
const size_t alpha_block_imms_count = sizeof alpha_block_imms / sizeof alpha_block_imms[0];

/* The operates but the trapping /V forms (both the register and the
 * literal form of each) and those with a kind of their own (above: the
 * conditional moves, and the prefetches to r31, barriers and hints). */
const exec_fn alpha_block_reg_calls[] = {
    al_ADDL, al_ADDL_L, al_S4ADDL, al_S4ADDL_L, al_SUBL, al_SUBL_L, al_S4SUBL, al_S4SUBL_L,
    al_CMPBGE, al_CMPBGE_L, al_S8ADDL, al_S8ADDL_L, al_S8SUBL, al_S8SUBL_L, al_CMPULT,
    al_CMPULT_L, al_ADDQ, al_ADDQ_L, al_S4ADDQ, al_S4ADDQ_L, al_SUBQ, al_SUBQ_L, al_S4SUBQ,
    al_S4SUBQ_L, al_CMPEQ, al_CMPEQ_L, al_S8ADDQ, al_S8ADDQ_L, al_S8SUBQ, al_S8SUBQ_L,
    al_CMPULE, al_CMPULE_L, al_CMPLT, al_CMPLT_L, al_CMPLE, al_CMPLE_L, al_AND, al_AND_L,
    al_BIC, al_BIC_L, al_BIS, al_BIS_L, al_ORNOT, al_ORNOT_L, al_XOR, al_XOR_L, al_EQV,
    al_EQV_L, al_AMASK, al_AMASK_L, al_IMPLVER, al_IMPLVER_L, al_MSKBL, al_MSKBL_L,
    al_EXTBL, al_EXTBL_L, al_INSBL, al_INSBL_L, al_MSKWL, al_MSKWL_L, al_EXTWL, al_EXTWL_L,
    al_INSWL, al_INSWL_L, al_MSKLL, al_MSKLL_L, al_EXTLL, al_EXTLL_L, al_INSLL, al_INSLL_L,
    al_ZAP, al_ZAP_L, al_ZAPNOT, al_ZAPNOT_L, al_MSKQL, al_MSKQL_L, al_SRL, al_SRL_L,
    al_EXTQL, al_EXTQL_L, al_SLL, al_SLL_L, al_INSQL, al_INSQL_L, al_SRA, al_SRA_L,
    al_MSKWH, al_MSKWH_L, al_INSWH, al_INSWH_L, al_EXTWH, al_EXTWH_L, al_MSKLH, al_MSKLH_L,
    al_INSLH, al_INSLH_L, al_EXTLH, al_EXTLH_L, al_MSKQH, al_MSKQH_L, al_INSQH, al_INSQH_L,
    al_EXTQH, al_EXTQH_L, al_MULL, al_MULL_L, al_MULQ, al_MULQ_L, al_UMULH, al_UMULH_L,
    al_SEXTB, al_SEXTB_L, al_SEXTW, al_SEXTW_L, al_CTPOP, al_CTPOP_L, al_PERR, al_PERR_L,
    al_CTLZ, al_CTLZ_L, al_CTTZ, al_CTTZ_L, al_UNPKBW, al_UNPKBW_L, al_UNPKBL, al_UNPKBL_L,
    al_PKWB, al_PKWB_L, al_PKLB, al_PKLB_L, al_MINSB8, al_MINSB8_L, al_MINSW4, al_MINSW4_L,
    al_MINUB8, al_MINUB8_L, al_MINUW4, al_MINUW4_L, al_MAXUB8, al_MAXUB8_L, al_MAXUW4,
    al_MAXUW4_L, al_MAXSB8, al_MAXSB8_L, al_MAXSW4, al_MAXSW4_L,
};
const size_t alpha_block_reg_calls_count = sizeof alpha_block_reg_calls / sizeof alpha_block_reg_calls[0];
