/*
 * alpha_blocks.c - the Alpha semantics functions that the functional core's
 * block loop executes inline (blocks.h): each maps to the kind that
 * computes exactly what its body in alpha_int.c (ldt, stt: alpha_fp.c)
 * computes; the _L forms take the literal from imm, shifts use its low six
 * bits as the kinds do; zapnot's literal becomes the mask of the bytes it
 * keeps, a subtracted literal its negation and bic's, ornot's and eqv's
 * its complement (alpha_block_imms); ldq_u and stq_u access the aligned
 * quadword, and the branches compare ra with zero.
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
};
const size_t alpha_block_ops_count = sizeof alpha_block_ops / sizeof alpha_block_ops[0];

const block_imm_t alpha_block_imms[] = {
    { al_ZAPNOT_L, zapnot_mask },
    { al_SUBQ_L, negated },     { al_SUBL_L, negated },     { al_S4SUBQ_L, negated },
    { al_S8SUBQ_L, negated },   { al_BIC_L, complemented }, { al_ORNOT_L, complemented },
    { al_EQV_L, complemented },
};
const size_t alpha_block_imms_count = sizeof alpha_block_imms / sizeof alpha_block_imms[0];
