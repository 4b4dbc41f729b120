/*
 * rv64_int.c - semantics of RV64I, M, Zicsr, Zifencei and the system
 * instructions (one small body per row of rv64_int.def).
 *
 * Conventions (rv64.h): c is the cpu, i the decoded record; RS1/RS2/IMM read
 * operands, WRD writes rd (writes to x0 were steered to REG_SINK at decode);
 * c->pc already holds the fall-through address.
 */
#include "rv64.h"
#include "sys.h"

/* ---- upper immediates and jumps ----------------------------------------- */
SEMANTICS(LUI)   { WRD(IMM); }
SEMANTICS(AUIPC) { WRD(i->pc + (uint64_t)IMM); }

SEMANTICS(JAL)
{
    uint64_t link = c->pc;
    rv_jump_to(c, i, i->target);
    WRD(link);
}

SEMANTICS(JALR)
{
    uint64_t link = c->pc;
    rv_jump_to(c, i, (RS1 + (uint64_t)IMM) & ~1ull);
    WRD(link);
}

/* ---- conditional branches ----------------------------------------------- */
#define BRANCH(id, cond) \
    SEMANTICS(id) { if (cond) rv_jump_to(c, i, i->target); }
BRANCH(BEQ,  RS1 == RS2)
BRANCH(BNE,  RS1 != RS2)
BRANCH(BLT,  (int64_t)RS1 <  (int64_t)RS2)
BRANCH(BGE,  (int64_t)RS1 >= (int64_t)RS2)
BRANCH(BLTU, RS1 <  RS2)
BRANCH(BGEU, RS1 >= RS2)
#undef BRANCH

/* ---- loads and stores ---------------------------------------------------- */
#define LOAD(id, expr)                          \
    SEMANTICS(id)                               \
    {                                           \
        uint64_t a = RS1 + (uint64_t)IMM;       \
        c->mem_addr = a;                        \
        WRD(expr);                              \
    }
LOAD(LB,  (int64_t)(int8_t)mem_load8(c->mem, a))
LOAD(LH,  (int64_t)(int16_t)mem_load16(c->mem, a))
LOAD(LW,  (int64_t)(int32_t)mem_load32(c->mem, a))
LOAD(LD,  mem_load64(c->mem, a))
LOAD(LBU, mem_load8(c->mem, a))
LOAD(LHU, mem_load16(c->mem, a))
LOAD(LWU, mem_load32(c->mem, a))
#undef LOAD

#define STORE(id, bits)                         \
    SEMANTICS(id)                               \
    {                                           \
        uint64_t a = RS1 + (uint64_t)IMM;       \
        c->mem_addr = a;                        \
        mem_store##bits(c->mem, a, RS2);        \
    }
STORE(SB, 8)
STORE(SH, 16)
STORE(SW, 32)
STORE(SD, 64)
#undef STORE

/* ---- register-immediate and register-register ALU ------------------------ */
SEMANTICS(ADDI)  { WRD(RS1 + (uint64_t)IMM); }
SEMANTICS(SLTI)  { WRD((int64_t)RS1 < IMM); }
SEMANTICS(SLTIU) { WRD(RS1 < (uint64_t)IMM); }
SEMANTICS(XORI)  { WRD(RS1 ^ (uint64_t)IMM); }
SEMANTICS(ORI)   { WRD(RS1 | (uint64_t)IMM); }
SEMANTICS(ANDI)  { WRD(RS1 & (uint64_t)IMM); }
SEMANTICS(SLLI)  { WRD(RS1 << IMM); }
SEMANTICS(SRLI)  { WRD(RS1 >> IMM); }
SEMANTICS(SRAI)  { WRD((uint64_t)((int64_t)RS1 >> IMM)); }

SEMANTICS(ADD)  { WRD(RS1 + RS2); }
SEMANTICS(SUB)  { WRD(RS1 - RS2); }
SEMANTICS(SLL)  { WRD(RS1 << (RS2 & 63)); }
SEMANTICS(SLT)  { WRD((int64_t)RS1 < (int64_t)RS2); }
SEMANTICS(SLTU) { WRD(RS1 < RS2); }
SEMANTICS(XOR)  { WRD(RS1 ^ RS2); }
SEMANTICS(SRL)  { WRD(RS1 >> (RS2 & 63)); }
SEMANTICS(SRA)  { WRD((uint64_t)((int64_t)RS1 >> (RS2 & 63))); }
SEMANTICS(OR)   { WRD(RS1 | RS2); }
SEMANTICS(AND)  { WRD(RS1 & RS2); }

SEMANTICS(ADDIW) { WRD(SEXT32(RS1 + (uint64_t)IMM)); }
SEMANTICS(SLLIW) { WRD(SEXT32((uint32_t)RS1 << IMM)); }
SEMANTICS(SRLIW) { WRD(SEXT32((uint32_t)RS1 >> IMM)); }
SEMANTICS(SRAIW) { WRD((uint64_t)(int64_t)((int32_t)RS1 >> IMM)); }
SEMANTICS(ADDW)  { WRD(SEXT32(RS1 + RS2)); }
SEMANTICS(SUBW)  { WRD(SEXT32(RS1 - RS2)); }
SEMANTICS(SLLW)  { WRD(SEXT32((uint32_t)RS1 << (RS2 & 31))); }
SEMANTICS(SRLW)  { WRD(SEXT32((uint32_t)RS1 >> (RS2 & 31))); }
SEMANTICS(SRAW)  { WRD((uint64_t)(int64_t)((int32_t)RS1 >> (RS2 & 31))); }

/* ---- M: multiply and divide (division by zero and overflow never trap) --- */
SEMANTICS(MUL)    { WRD(RS1 * RS2); }
SEMANTICS(MULH)   { WRD((uint64_t)(((__int128)(int64_t)RS1 * (__int128)(int64_t)RS2) >> 64)); }
SEMANTICS(MULHSU) { WRD((uint64_t)(((__int128)(int64_t)RS1 * (__int128)(unsigned __int128)RS2) >> 64)); }
SEMANTICS(MULHU)  { WRD((uint64_t)(((unsigned __int128)RS1 * RS2) >> 64)); }

static uint64_t div_s64(int64_t a, int64_t b)
{
    if (b == 0) return ~0ull;
    if (a == INT64_MIN && b == -1) return (uint64_t)a;
    return (uint64_t)(a / b);
}

static uint64_t rem_s64(int64_t a, int64_t b)
{
    if (b == 0) return (uint64_t)a;
    if (a == INT64_MIN && b == -1) return 0;
    return (uint64_t)(a % b);
}

static int32_t div_s32(int32_t a, int32_t b)
{
    if (b == 0) return -1;
    if (a == INT32_MIN && b == -1) return a;
    return a / b;
}

static int32_t rem_s32(int32_t a, int32_t b)
{
    if (b == 0) return a;
    if (a == INT32_MIN && b == -1) return 0;
    return a % b;
}

SEMANTICS(DIV)   { WRD(div_s64((int64_t)RS1, (int64_t)RS2)); }
SEMANTICS(DIVU)  { WRD(RS2 ? RS1 / RS2 : ~0ull); }
SEMANTICS(REM)   { WRD(rem_s64((int64_t)RS1, (int64_t)RS2)); }
SEMANTICS(REMU)  { WRD(RS2 ? RS1 % RS2 : RS1); }
SEMANTICS(MULW)  { WRD(SEXT32(RS1 * RS2)); }
SEMANTICS(DIVW)  { WRD((uint64_t)(int64_t)div_s32((int32_t)RS1, (int32_t)RS2)); }
SEMANTICS(DIVUW) { WRD(SEXT32((uint32_t)RS2 ? (uint32_t)RS1 / (uint32_t)RS2 : ~0u)); }
SEMANTICS(REMW)  { WRD((uint64_t)(int64_t)rem_s32((int32_t)RS1, (int32_t)RS2)); }
SEMANTICS(REMUW) { WRD(SEXT32((uint32_t)RS2 ? (uint32_t)RS1 % (uint32_t)RS2 : (uint32_t)RS1)); }

/* ---- fences and system ------------------------------------------------------ */
SEMANTICS(FENCE)   { (void)c; (void)i; }
SEMANTICS(FENCE_I) { (void)i; mem_flush_decoded(c->mem); }
SEMANTICS(ECALL)   { (void)i; sys_call(c->sys, c); }
SEMANTICS(EBREAK)  { (void)i; cpu_stop(c, STOP_BREAKPOINT, 0); }

/* ---- Zicsr ------------------------------------------------------------------ */
static bool csr_read(cpu_t *c, unsigned csr, uint64_t *value)
{
    switch (csr) {
    case CSR_FFLAGS:  *value = rv_fp_get_fflags(c); return true;
    case CSR_FRM:     *value = c->frm; return true;
    case CSR_FCSR:    *value = (c->frm << 5) | rv_fp_get_fflags(c); return true;
    case CSR_CYCLE:   *value = c->timed ? c->cycle : c->instret; return true;
    case CSR_TIME:    *value = c->instret; return true;
    case CSR_INSTRET: *value = c->instret; return true;
    default:          return false;
    }
}

static bool csr_write(cpu_t *c, unsigned csr, uint64_t value)
{
    switch (csr) {
    case CSR_FFLAGS: rv_fp_set_fflags(c, value & 0x1f); return true;
    case CSR_FRM:    c->frm = value & 7; return true;
    case CSR_FCSR:   rv_fp_set_fflags(c, value & 0x1f); c->frm = (value >> 5) & 7; return true;
    default:         return false;     /* counters are read-only */
    }
}

enum csr_op { CSR_OP_WRITE, CSR_OP_SET, CSR_OP_CLEAR };

/* One CSR access.  `writes` is false for csrrs/csrrc with rs1=x0 / zimm=0,
 * which must not write (and so may target read-only CSRs). */
static void csr_access(cpu_t *c, insn_t *i, enum csr_op op, uint64_t operand, bool writes)
{
    unsigned csr = (unsigned)IMM;
    uint64_t old = 0;
    if (!csr_read(c, csr, &old)) cpu_stop(c, STOP_ILLEGAL, csr);
    if (writes) {
        uint64_t value = op == CSR_OP_WRITE ? operand
                       : op == CSR_OP_SET   ? old | operand : old & ~operand;
        if (!csr_write(c, csr, value)) cpu_stop(c, STOP_ILLEGAL, csr);
    }
    WRD(old);
}

SEMANTICS(CSRRW)  { csr_access(c, i, CSR_OP_WRITE, RS1, true); }
SEMANTICS(CSRRS)  { csr_access(c, i, CSR_OP_SET, RS1, i->rs1 != REG_ZERO); }
SEMANTICS(CSRRC)  { csr_access(c, i, CSR_OP_CLEAR, RS1, i->rs1 != REG_ZERO); }
SEMANTICS(CSRRWI) { csr_access(c, i, CSR_OP_WRITE, i->rm, true); }
SEMANTICS(CSRRSI) { csr_access(c, i, CSR_OP_SET, i->rm, i->rm != 0); }
SEMANTICS(CSRRCI) { csr_access(c, i, CSR_OP_CLEAR, i->rm, i->rm != 0); }
