/*
 * alpha_int.c - semantics of the Alpha integer instructions: loads and
 * stores (with load-locked/store-conditional), jumps and branches, integer
 * arithmetic, logic and conditional moves, shifts, multiplies, the BWX,
 * CIX and MVI extensions, opcode 0x18 barriers and hints, and the
 * unprivileged PAL calls.  One small body per row of alpha_int.def.
 *
 * Conventions (alpha.h): c is the cpu, i the decoded record; RS1/RS2/IMM
 * read operands, WRD writes rd (r31 destinations were steered to REG_SINK
 * at decode); c->pc already holds the updated pc (pc + 4).  Operate bodies
 * are single expressions over RA and RB, instantiated twice (register and
 * literal Rb) by OPERATE/CMOVE/OPERATE_B; the byte-manipulation
 * expressions are in alpha_bytes.h.
 *
 * Unaligned ldl/ldq/ldwu/stl/stq/stw simply access the bytes: Linux fixes
 * those alignment traps up transparently (arch/alpha/kernel/traps.c,
 * do_entUnaUser).  ldx_l/stx_c must be aligned (the kernel does not fix
 * them up) and fault like misaligned RISC-V atomics.
 */
#include <signal.h>

#include "alpha.h"
#include "alpha_bytes.h"
#include "sys.h"

/* What implver and amask report: an EV67 (21264A), like qemu-alpha's
 * default CPU: BWX, FIX, CIX and MVI, precise arithmetic traps and
 * prefetch with modify intent (amask clears the bits of present
 * features). */
enum {
    AL_IMPLVER_EV6 = 2,
    AL_AMASK_BWX = 1u << 0, AL_AMASK_FIX = 1u << 1, AL_AMASK_CIX = 1u << 2,
    AL_AMASK_MVI = 1u << 8, AL_AMASK_TRAP = 1u << 9, AL_AMASK_PREFETCH = 1u << 12,
    AL_AMASK_FEATURES = AL_AMASK_BWX | AL_AMASK_FIX | AL_AMASK_CIX | AL_AMASK_MVI |
                        AL_AMASK_TRAP | AL_AMASK_PREFETCH
};

/* ldx_l/stx_c lock granularity: an aligned 16-byte block (the minimum the
 * architecture allows). */
#define LOCK_GRANULE 16u

/* gentrap codes (a0) that Linux turns into SIGFPE, and their si_code. */
enum {
    GEN_INTOVF = -1, GEN_INTDIV = -2, GEN_FLTOVF = -3, GEN_FLTDIV = -4,
    GEN_FLTUND = -5, GEN_FLTINV = -6, GEN_FLTINE = -7, GEN_ROPRAND = -11
};

/* ---- traps ------------------------------------------------------------------ */
__attribute__((cold, noreturn)) static void integer_overflow(cpu_t *c)
{
    cpu_stop(c, STOP_ARITH_TRAP, FPE_INTOVF);
}

/* ---- memory format: address computation, loads and stores ---------------- */
SEMANTICS(LDA)  { WRD(RS1 + (uint64_t)IMM); }
SEMANTICS(LDAH) { WRD(RS1 + (uint64_t)IMM); }      /* imm is disp * 65536 */

#define LOAD(id, expr)                          \
    SEMANTICS(id)                               \
    {                                           \
        uint64_t a = RS1 + (uint64_t)IMM;       \
        c->mem_addr = a;                        \
        WRD(expr);                              \
    }
LOAD(LDBU, mem_load8(c->mem, a))
LOAD(LDWU, mem_load16(c->mem, a))
LOAD(LDL,  SEXT32(mem_load32(c->mem, a)))
LOAD(LDQ,  mem_load64(c->mem, a))
#undef LOAD

/* ldq_u: the aligned quadword holding the address. */
SEMANTICS(LDQ_U)
{
    uint64_t a = (RS1 + (uint64_t)IMM) & ~7ull;
    c->mem_addr = a;
    WRD(mem_load64(c->mem, a));
}

/* Loads to r31: prefetch hints that never fault (and ldq_u r31 = unop). */
#define PREFETCH(id) SEMANTICS(id) { (void)c; (void)i; }
PREFETCH(PREFETCH_BU)
PREFETCH(PREFETCH_U)
PREFETCH(PREFETCH_WU)
PREFETCH(PREFETCH_L)
PREFETCH(PREFETCH_Q)
#undef PREFETCH

#define STORE(id, bits)                         \
    SEMANTICS(id)                               \
    {                                           \
        uint64_t a = RS1 + (uint64_t)IMM;       \
        c->mem_addr = a;                        \
        mem_store##bits(c->mem, a, RS2);        \
    }
STORE(STB, 8)
STORE(STW, 16)
STORE(STL, 32)
STORE(STQ, 64)
#undef STORE

SEMANTICS(STQ_U)
{
    uint64_t a = (RS1 + (uint64_t)IMM) & ~7ull;
    c->mem_addr = a;
    mem_store64(c->mem, a, RS2);
}

/* ---- load-locked / store-conditional ---------------------------------------- */
/* Effective address of a locked access of `size` bytes; SIGBUS if it is
 * misaligned, before touching memory (Linux's unaligned-access fixup does
 * not handle LDx_L/STx_C: it sends SIGBUS). */
static uint64_t locked_address(cpu_t *c, const insn_t *i, unsigned size)
{
    uint64_t a = RS1 + (uint64_t)IMM;
    c->mem_addr = a;
    if (a & (size - 1)) cpu_stop(c, STOP_BUS_ERROR, a);
    return a;
}

static uint64_t lock_block(uint64_t addr) { return addr & ~(uint64_t)(LOCK_GRANULE - 1); }

SEMANTICS(LDL_L)
{
    uint64_t a = locked_address(c, i, 4);
    uint64_t v = SEXT32(mem_load32(c->mem, a));
    c->reservation = lock_block(a);
    WRD(v);
}

SEMANTICS(LDQ_L)
{
    uint64_t a = locked_address(c, i, 8);
    uint64_t v = mem_load64(c->mem, a);
    c->reservation = lock_block(a);
    WRD(v);
}

/* Consume the lock flag; true if it covered addr. */
static bool lock_claim(cpu_t *c, uint64_t addr)
{
    bool ok = c->reservation == lock_block(addr);
    c->reservation = ~0ull;
    return ok;
}

/* stx_c: store Ra iff the lock flag is still set, then Ra = 1 (stored) or
 * 0 (not stored). */
SEMANTICS(STL_C)
{
    uint64_t a = locked_address(c, i, 4);
    uint64_t v = RS2;
    bool ok = lock_claim(c, a);
    if (ok) mem_store32(c->mem, a, v);
    WRD(ok);
}

SEMANTICS(STQ_C)
{
    uint64_t a = locked_address(c, i, 8);
    uint64_t v = RS2;
    bool ok = lock_claim(c, a);
    if (ok) mem_store64(c->mem, a, v);
    WRD(ok);
}

/* ---- opcode 0x18: barriers and hints (one hart, in order: no-ops) ------------ */
#define HINT(id) SEMANTICS(id) { (void)c; (void)i; }
HINT(TRAPB)
HINT(EXCB)
HINT(MB)
HINT(WMB)
HINT(FETCH)
HINT(FETCH_M)
HINT(ECB)
HINT(WH64)
HINT(WH64EN)
#undef HINT

/* rpcc: the process cycle counter in bits 31:0 (the OS offset in 63:32 is
 * zero here), from the simulated cycle count so runs are deterministic. */
SEMANTICS(RPCC)
{
    uint64_t cycles = c->timed ? c->cycle : c->instret;
    WRD(cycles & 0xffffffffull);
}

/* ---- jumps and branches ---------------------------------------------------------- */
/* jmp, jsr, ret, jsr_coroutine: identical but for the prediction hint. */
static inline void jump_indirect(cpu_t *c, insn_t *i)
{
    uint64_t link = c->pc;
    al_jump_to(c, i, RS1 & ~3ull);
    WRD(link);
}

SEMANTICS(JMP)           { jump_indirect(c, i); }
SEMANTICS(JSR)           { jump_indirect(c, i); }
SEMANTICS(RET)           { jump_indirect(c, i); }
SEMANTICS(JSR_COROUTINE) { jump_indirect(c, i); }

static inline void branch_and_link(cpu_t *c, insn_t *i)
{
    uint64_t link = c->pc;
    al_jump_to(c, i, i->target);
    WRD(link);
}

SEMANTICS(BR)  { branch_and_link(c, i); }
SEMANTICS(BSR) { branch_and_link(c, i); }

#define BRANCH(id, cond) \
    SEMANTICS(id) { if (cond) al_jump_to(c, i, i->target); }
BRANCH(BLBC, !(RS1 & 1))
BRANCH(BEQ,  RS1 == 0)
BRANCH(BLT,  (int64_t)RS1 <  0)
BRANCH(BLE,  (int64_t)RS1 <= 0)
BRANCH(BLBS, RS1 & 1)
BRANCH(BNE,  RS1 != 0)
BRANCH(BGE,  (int64_t)RS1 >= 0)
BRANCH(BGT,  (int64_t)RS1 >  0)
#undef BRANCH

/* ---- INTA: arithmetic and compares ------------------------------------------------ */
static inline uint64_t addl_v(cpu_t *c, uint64_t a, uint64_t b)
{
    int32_t r;
    if (__builtin_add_overflow((int32_t)a, (int32_t)b, &r)) integer_overflow(c);
    return (uint64_t)(int64_t)r;
}

static inline uint64_t subl_v(cpu_t *c, uint64_t a, uint64_t b)
{
    int32_t r;
    if (__builtin_sub_overflow((int32_t)a, (int32_t)b, &r)) integer_overflow(c);
    return (uint64_t)(int64_t)r;
}

static inline uint64_t addq_v(cpu_t *c, uint64_t a, uint64_t b)
{
    int64_t r;
    if (__builtin_add_overflow((int64_t)a, (int64_t)b, &r)) integer_overflow(c);
    return (uint64_t)r;
}

static inline uint64_t subq_v(cpu_t *c, uint64_t a, uint64_t b)
{
    int64_t r;
    if (__builtin_sub_overflow((int64_t)a, (int64_t)b, &r)) integer_overflow(c);
    return (uint64_t)r;
}

OPERATE(ADDL,   SEXT32(RA + RB))
OPERATE(S4ADDL, SEXT32((RA << 2) + RB))
OPERATE(S8ADDL, SEXT32((RA << 3) + RB))
OPERATE(SUBL,   SEXT32(RA - RB))
OPERATE(S4SUBL, SEXT32((RA << 2) - RB))
OPERATE(S8SUBL, SEXT32((RA << 3) - RB))
OPERATE(ADDQ,   RA + RB)
OPERATE(S4ADDQ, (RA << 2) + RB)
OPERATE(S8ADDQ, (RA << 3) + RB)
OPERATE(SUBQ,   RA - RB)
OPERATE(S4SUBQ, (RA << 2) - RB)
OPERATE(S8SUBQ, (RA << 3) - RB)
OPERATE(ADDL_V, addl_v(c, RA, RB))
OPERATE(SUBL_V, subl_v(c, RA, RB))
OPERATE(ADDQ_V, addq_v(c, RA, RB))
OPERATE(SUBQ_V, subq_v(c, RA, RB))
OPERATE(CMPEQ,  RA == RB)
OPERATE(CMPLT,  (int64_t)RA < (int64_t)RB)
OPERATE(CMPLE,  (int64_t)RA <= (int64_t)RB)
OPERATE(CMPULT, RA < RB)
OPERATE(CMPULE, RA <= RB)
OPERATE(CMPBGE, al_cmpbge(RA, RB))

/* ---- INTL: logic, conditional moves, amask, implver -------------------------------- */
OPERATE(AND,   RA & RB)
OPERATE(BIC,   RA & ~RB)
OPERATE(BIS,   RA | RB)
OPERATE(ORNOT, RA | ~RB)
OPERATE(XOR,   RA ^ RB)
OPERATE(EQV,   RA ^ ~RB)

CMOVE(CMOVLBS, RA & 1)
CMOVE(CMOVLBC, !(RA & 1))
CMOVE(CMOVEQ,  RA == 0)
CMOVE(CMOVNE,  RA != 0)
CMOVE(CMOVLT,  (int64_t)RA < 0)
CMOVE(CMOVGE,  (int64_t)RA >= 0)
CMOVE(CMOVLE,  (int64_t)RA <= 0)
CMOVE(CMOVGT,  (int64_t)RA > 0)

OPERATE_B(AMASK,   RB & ~(uint64_t)AL_AMASK_FEATURES)
OPERATE_B(IMPLVER, AL_IMPLVER_EV6)

/* ---- INTS: shifts and byte manipulation --------------------------------------------- */
OPERATE(SLL, RA << (RB & 63))
OPERATE(SRL, RA >> (RB & 63))
OPERATE(SRA, (uint64_t)((int64_t)RA >> (RB & 63)))

#define W8  0xffull
#define W16 0xffffull
#define W32 0xffffffffull
#define W64 ~0ull
OPERATE(EXTBL, al_ext_low(RA, RB, W8))
OPERATE(EXTWL, al_ext_low(RA, RB, W16))
OPERATE(EXTLL, al_ext_low(RA, RB, W32))
OPERATE(EXTQL, al_ext_low(RA, RB, W64))
OPERATE(EXTWH, al_ext_high(RA, RB, W16))
OPERATE(EXTLH, al_ext_high(RA, RB, W32))
OPERATE(EXTQH, al_ext_high(RA, RB, W64))
OPERATE(INSBL, al_ins_low(RA, RB, W8))
OPERATE(INSWL, al_ins_low(RA, RB, W16))
OPERATE(INSLL, al_ins_low(RA, RB, W32))
OPERATE(INSQL, al_ins_low(RA, RB, W64))
OPERATE(INSWH, al_ins_high(RA, RB, W16))
OPERATE(INSLH, al_ins_high(RA, RB, W32))
OPERATE(INSQH, al_ins_high(RA, RB, W64))
OPERATE(MSKBL, al_msk_low(RA, RB, W8))
OPERATE(MSKWL, al_msk_low(RA, RB, W16))
OPERATE(MSKLL, al_msk_low(RA, RB, W32))
OPERATE(MSKQL, al_msk_low(RA, RB, W64))
OPERATE(MSKWH, al_msk_high(RA, RB, W16))
OPERATE(MSKLH, al_msk_high(RA, RB, W32))
OPERATE(MSKQH, al_msk_high(RA, RB, W64))
OPERATE(ZAP,    RA & ~al_byte_mask(RB))
OPERATE(ZAPNOT, RA & al_byte_mask(RB))
#undef W8
#undef W16
#undef W32
#undef W64

/* ---- INTM: multiplies ----------------------------------------------------------------- */
static inline uint64_t mull_v(cpu_t *c, uint64_t a, uint64_t b)
{
    int32_t r;
    if (__builtin_mul_overflow((int32_t)a, (int32_t)b, &r)) integer_overflow(c);
    return (uint64_t)(int64_t)r;
}

static inline uint64_t mulq_v(cpu_t *c, uint64_t a, uint64_t b)
{
    int64_t r;
    if (__builtin_mul_overflow((int64_t)a, (int64_t)b, &r)) integer_overflow(c);
    return (uint64_t)r;
}

OPERATE(MULL,   SEXT32(RA * RB))
OPERATE(MULQ,   RA * RB)
OPERATE(UMULH,  (uint64_t)(((unsigned __int128)RA * RB) >> 64))
OPERATE(MULL_V, mull_v(c, RA, RB))
OPERATE(MULQ_V, mulq_v(c, RA, RB))

/* ---- FPTI integer part: BWX, CIX, MVI ---------------------------------------------------- */
OPERATE_B(SEXTB, (uint64_t)(int64_t)(int8_t)RB)
OPERATE_B(SEXTW, (uint64_t)(int64_t)(int16_t)RB)
OPERATE_B(CTPOP, (uint64_t)__builtin_popcountll(RB))
OPERATE_B(CTLZ,  RB ? (uint64_t)__builtin_clzll(RB) : 64)
OPERATE_B(CTTZ,  RB ? (uint64_t)__builtin_ctzll(RB) : 64)

OPERATE(PERR,     al_perr(RA, RB))
OPERATE_B(UNPKBW, al_unpkbw(RB))
OPERATE_B(UNPKBL, al_unpkbl(RB))
OPERATE_B(PKWB,   al_pkwb(RB))
OPERATE_B(PKLB,   al_pklb(RB))
OPERATE(MINSB8, al_lanes_min_max(RA, RB, 8, true, false))
OPERATE(MINSW4, al_lanes_min_max(RA, RB, 16, true, false))
OPERATE(MINUB8, al_lanes_min_max(RA, RB, 8, false, false))
OPERATE(MINUW4, al_lanes_min_max(RA, RB, 16, false, false))
OPERATE(MAXUB8, al_lanes_min_max(RA, RB, 8, false, true))
OPERATE(MAXUW4, al_lanes_min_max(RA, RB, 16, false, true))
OPERATE(MAXSB8, al_lanes_min_max(RA, RB, 8, true, true))
OPERATE(MAXSW4, al_lanes_min_max(RA, RB, 16, true, true))

/* ---- CALL_PAL ---------------------------------------------------------------------------- */
/* callsys returns through PALcode (retsys), which clears the lock flag. */
SEMANTICS(CALLSYS)
{
    (void)i;
    sys_call(c->sys, c);
    c->reservation = ~0ull;
}

SEMANTICS(IMB)     { (void)i; mem_flush_decoded(c->mem); }
SEMANTICS(RDUNIQ)  { WRD(c->unique); }
SEMANTICS(WRUNIQ)  { c->unique = RS1; }
SEMANTICS(BPT)     { (void)i; cpu_stop(c, STOP_BREAKPOINT, 0); }
SEMANTICS(BUGCHK)  { (void)i; cpu_stop(c, STOP_BREAKPOINT, 0); }

/* The SIGFPE si_code Linux gives a gentrap code, or 0 if it sends SIGTRAP. */
static int gentrap_fpe_code(int64_t code)
{
    switch (code) {
    case GEN_INTOVF:  return FPE_INTOVF;
    case GEN_INTDIV:  return FPE_INTDIV;
    case GEN_FLTOVF:  return FPE_FLTOVF;
    case GEN_FLTDIV:  return FPE_FLTDIV;
    case GEN_FLTUND:  return FPE_FLTUND;
    case GEN_FLTINV:  return FPE_FLTINV;
    case GEN_FLTINE:  return FPE_FLTRES;
    case GEN_ROPRAND: return FPE_FLTINV;
    default:          return 0;
    }
}

/* gentrap: a software-requested trap; the code is in a0 (arch/alpha/kernel/
 * traps.c: the arithmetic codes raise SIGFPE, all others SIGTRAP). */
SEMANTICS(GENTRAP)
{
    int64_t code = (int64_t)RS1;
    int fpe = gentrap_fpe_code(code);
    if (fpe) cpu_stop(c, STOP_ARITH_TRAP, (uint64_t)fpe);
    cpu_stop(c, STOP_BREAKPOINT, (uint64_t)code);
}

/* Any other PAL function: privileged or unassigned, an illegal instruction
 * in user mode (OPCDEC, SIGILL).  stop_info is the function code. */
SEMANTICS(CALL_PAL) { cpu_stop(c, STOP_ILLEGAL, (uint64_t)IMM); }
