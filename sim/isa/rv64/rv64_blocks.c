/*
 * rv64_blocks.c - the RV64 semantics functions that the functional core's
 * block loop executes inline (blocks.h): each maps to the kind that
 * computes exactly what its body in rv64_int.c (fld, fsw, fsd: rv64_fp.c)
 * computes; the branches' kinds count taken branches and go to
 * insn_t.target, as rv_jump_to does.
 */
#include "blocks.h"
#include "rv64.h"

const block_op_t rv64_block_ops[] = {
    { rv_ADDI, BK_ADD_RI },   { rv_ADD, BK_ADD_RR },     { rv_SUB, BK_SUB_RR },
    { rv_ANDI, BK_AND_RI },   { rv_AND, BK_AND_RR },     { rv_ORI, BK_OR_RI },
    { rv_OR, BK_OR_RR },      { rv_XORI, BK_XOR_RI },    { rv_XOR, BK_XOR_RR },
    { rv_SLLI, BK_SLL_RI },   { rv_SRLI, BK_SRL_RI },    { rv_SRAI, BK_SRA_RI },
    { rv_SLL, BK_SLL_RR },    { rv_SRL, BK_SRL_RR },     { rv_SRA, BK_SRA_RR },
    { rv_ADDIW, BK_ADDW_RI }, { rv_ADDW, BK_ADDW_RR },   { rv_SUBW, BK_SUBW_RR },
    { rv_LUI, BK_LI },        { rv_AUIPC, BK_AUIPC },
    { rv_SLTI, BK_SLT_RI },   { rv_SLT, BK_SLT_RR },     { rv_SLTIU, BK_SLTU_RI },
    { rv_SLTU, BK_SLTU_RR },
    { rv_LBU, BK_LD8U },      { rv_LB, BK_LD8S },        { rv_LHU, BK_LD16U },
    { rv_LH, BK_LD16S },      { rv_LWU, BK_LD32U },      { rv_LW, BK_LD32S },
    { rv_LD, BK_LD64 },
    { rv_SB, BK_ST8 },        { rv_SH, BK_ST16 },        { rv_SW, BK_ST32 },
    { rv_SD, BK_ST64 },
    { rv_FLD, BK_LD64 },      { rv_FSW, BK_ST32 },       { rv_FSD, BK_ST64 },
    { rv_BEQ, BK_BEQ },       { rv_BNE, BK_BNE },        { rv_BLT, BK_BLT },
    { rv_BGE, BK_BGE },       { rv_BLTU, BK_BLTU },      { rv_BGEU, BK_BGEU },
    { rv_JAL, BK_JAL },       { rv_JALR, BK_JALR },
    { rv_hps_move, BK_ADD_RI },   /* the handler runtime's hps.mfd / hps.mtd (imm 0) */
};
const size_t rv64_block_ops_count = sizeof rv64_block_ops / sizeof rv64_block_ops[0];

/* RV64I's 32-bit shifts and the M extension (no trap: division by zero
 * and overflow have defined results). */
const exec_fn rv64_block_reg_calls[] = {
    rv_SLLIW, rv_SRLIW, rv_SRAIW, rv_SLLW, rv_SRLW, rv_SRAW,
    rv_MUL, rv_MULH, rv_MULHSU, rv_MULHU, rv_MULW,
    rv_DIV, rv_DIVU, rv_REM, rv_REMU, rv_DIVW, rv_DIVUW, rv_REMW, rv_REMUW,
};
const size_t rv64_block_reg_calls_count = sizeof rv64_block_reg_calls / sizeof rv64_block_reg_calls[0];
