/*
 * alpha_fp.c - the Alpha floating-point front-end outside the arithmetic:
 * the decoder's qualifier check, the run_enter/run_leave hooks, the FPCR
 * interface, exception recording and traps, and the semantics that move
 * bits rather than compute (loads/stores with the S-format mapping, FP
 * branches, cpys/fcmov, itof/ftoi, FPCR moves, cvtlq/cvtql).  Arithmetic,
 * compares and FP conversions are in alpha_fp_arith.c.
 *
 * Host FP state: while a guest runs the host MXCSR stays in round-to-
 * nearest with every exception masked and no flush-to-zero; instructions
 * that need another mode or exact flags set it around one operation and
 * put it back (alpha_fp_arith.c).  Host sticky flags are never read, so
 * they need no folding.
 */
#include <fenv.h>
#include <signal.h>

#include "alpha_fp.h"

/* ---- qualifier legality (Handbook Appendix C.3-C.4) -------------------------- */
/* Legal trap-qualifier sets, as masks over the trap bits S I U (rm >> 2):
 * bit n set = trap code n allowed. */
#define TQ(n) (1u << (n))
enum {
    TQ_ARITH = TQ(0) | TQ(1) | TQ(5) | TQ(7),   /* none, /U, /SU, /SUI (/V for cvttq) */
    TQ_CMP   = TQ(0) | TQ(5),                   /* none, /SU                          */
    TQ_QCVT  = TQ(0) | TQ(7),                   /* none, /SUI                         */
    TQ_CVTQL = TQ(0) | TQ(1) | TQ(5)            /* none, /V, /SV                      */
};

static bool trap_ok(unsigned rm, unsigned set) { return (set >> (rm >> 2)) & 1; }

/* Opcode 0x16 and the FIX square roots: which trap qualifiers a function
 * takes; compares take no rounding qualifier (their field reads normal). */
static bool ieee_legal(unsigned fn6, unsigned rm)
{
    switch (fn6) {
    case 0x00: case 0x01: case 0x02: case 0x03:           /* adds subs muls divs */
    case 0x20: case 0x21: case 0x22: case 0x23:           /* addt subt mult divt */
    case 0x0b: case 0x2b:                                 /* sqrts sqrtt (0x14)  */
    case 0x2c:                                            /* cvtts               */
    case 0x2f:                                            /* cvttq               */
        return trap_ok(rm, TQ_ARITH);
    case 0x24: case 0x25: case 0x26: case 0x27:           /* cmptun/eq/lt/le     */
        return (rm & AL_Q_RND) == AL_RND_NORMAL && trap_ok(rm, TQ_CMP);
    case 0x3c: case 0x3e:                                 /* cvtqs cvtqt         */
        return trap_ok(rm, TQ_QCVT);
    default:
        return false;
    }
}

bool al_fp_decode_check(insn_t *out)
{
    unsigned op = out->raw >> 26, fn11 = (out->raw >> 5) & 0x7ff;
    switch (op) {
    case 0x14:
        return fn11 == 0x004 || fn11 == 0x024 || ieee_legal(fn11 & 0x3f, out->rm);
    case 0x16:
        if ((fn11 & 0x3ff) == 0x2ac) return true;            /* cvtst, cvtst/s      */
        return ieee_legal(fn11 & 0x3f, out->rm);
    case 0x17:
        if ((fn11 & 0xff) == 0x30)                            /* cvtql, /v, /sv      */
            return trap_ok(out->rm, TQ_CVTQL);
        return true;                                          /* exact-match rows    */
    default:
        return true;
    }
}

/* ---- host FP state ------------------------------------------------------------- */
/* A process whose FPCR nobody set up (al_fp_init) gets Linux's initial
 * FPCR before its first instruction, rather than an FPCR of zero, which
 * would enable every trap. */
void al_fp_run_enter(cpu_t *c)
{
    if (c->instret == 0 && c->fpcr == 0) al_fp_init(c);
    fesetround(FE_TONEAREST);
    feclearexcept(FE_ALL_EXCEPT);
}

void al_fp_run_leave(cpu_t *c)
{
    (void)c;
    fesetround(FE_TONEAREST);
    feclearexcept(FE_ALL_EXCEPT);
}

/* ---- the FPCR interface ---------------------------------------------------------- */
void al_fp_init(cpu_t *c)
{
    c->fpcr = AL_FPCR_LINUX_INIT;
    c->swcr = 0;
}

uint64_t al_fp_fpcr(const cpu_t *c) { return c->fpcr; }

void al_fp_set_fpcr(cpu_t *c, uint64_t fpcr) { c->fpcr = fpcr & AL_FPCR_MASK; }

/* ---- exceptions and traps ---------------------------------------------------------- */
/* Status bits whose trap is enabled: the FPCR's trap-disable bits, and for
 * integer overflow the swcr's invalid-operation enable (the kernel masks
 * IOV with IEEE_TRAP_ENABLE_INV). */
static uint64_t trap_enables(const cpu_t *c)
{
    uint64_t f = c->fpcr, on = 0;
    if (!(f & AL_FPCR_INVD)) on |= AL_FPCR_INV;
    if (!(f & AL_FPCR_DZED)) on |= AL_FPCR_DZE;
    if (!(f & AL_FPCR_OVFD)) on |= AL_FPCR_OVF;
    if (!(f & AL_FPCR_UNFD)) on |= AL_FPCR_UNF;
    if (!(f & AL_FPCR_INED)) on |= AL_FPCR_INE;
    if (c->swcr & AL_SWCR_TRAP_ENABLE_INV) on |= AL_FPCR_IOV;
    return on;
}

/* SIGFPE: the si_code the kernel's completion handler picks (invalid
 * first, inexact last). */
static _Noreturn void fp_trap(cpu_t *c, uint64_t exc)
{
    int code = exc & (AL_FPCR_INV | AL_FPCR_IOV) ? FPE_FLTINV
             : exc & AL_FPCR_DZE ? FPE_FLTDIV
             : exc & AL_FPCR_OVF ? FPE_FLTOVF
             : exc & AL_FPCR_UNF ? FPE_FLTUND
             : FPE_FLTRES;
    cpu_stop(c, STOP_ARITH_TRAP, (uint64_t)code);
}

void al_fp_raise(cpu_t *c, unsigned rm, uint64_t exc)
{
    uint64_t ignore = (rm & AL_Q_U ? 0 : AL_FPCR_UNF | AL_FPCR_IOV) |
                      (rm & AL_Q_I ? 0 : AL_FPCR_INE);
    if (!(rm & AL_Q_S)) {
        c->fpcr |= exc;
        if (exc & ~ignore) fp_trap(c, exc & ~ignore);
        return;
    }
    exc &= ~ignore;
    c->fpcr |= exc;
    uint64_t taken = exc & trap_enables(c);
    if (taken) fp_trap(c, taken);
}

void al_fp_check_input(cpu_t *c, uint64_t v, bool is_compare)
{
    uint64_t exp = (v >> 52) & 0x7ff, frac = v & AL_T_FRAC;
    if (exp == 0) {
        if (frac) fp_trap(c, AL_FPCR_INV);              /* denormal operand */
    } else if (exp == 0x7ff && (frac || !is_compare)) {
        c->fpcr |= AL_FPCR_INV;
        fp_trap(c, AL_FPCR_INV);
    }
}

/* ---- loads and stores -------------------------------------------------------------- */
SEMANTICS(LDS)
{
    uint64_t a = RS1 + (uint64_t)IMM;
    c->mem_addr = a;
    WRD(al_s_from_f32((uint32_t)mem_load32(c->mem, a)));
}

SEMANTICS(LDT)
{
    uint64_t a = RS1 + (uint64_t)IMM;
    c->mem_addr = a;
    WRD(mem_load64(c->mem, a));
}

SEMANTICS(STS)
{
    uint64_t a = RS1 + (uint64_t)IMM;
    c->mem_addr = a;
    mem_store32(c->mem, a, al_s_to_f32(RS2));
}

SEMANTICS(STT)
{
    uint64_t a = RS1 + (uint64_t)IMM;
    c->mem_addr = a;
    mem_store64(c->mem, a, RS2);
}

/* lds/ldt to f31: prefetch hints, no access. */
SEMANTICS(PREFETCH_S) { (void)c; (void)i; }
SEMANTICS(PREFETCH_T) { (void)c; (void)i; }

/* ---- branches and conditional moves: Fa's bit pattern as a signed integer,
 * with -0.0 taken as 0. */
static inline bool is_zero(uint64_t v) { return (v << 1) == 0; }
static inline bool is_neg(uint64_t v) { return (int64_t)v < 0 && !is_zero(v); }

#define FBRANCH(id, cond)                                   \
    SEMANTICS(id)                                           \
    {                                                       \
        uint64_t v = RS1;                                   \
        if (cond) al_jump_to(c, i, i->target);              \
    }
FBRANCH(FBEQ, is_zero(v))
FBRANCH(FBNE, !is_zero(v))
FBRANCH(FBLT, is_neg(v))
FBRANCH(FBGE, !is_neg(v))
FBRANCH(FBLE, is_neg(v) || is_zero(v))
FBRANCH(FBGT, !(is_neg(v) || is_zero(v)))
#undef FBRANCH

#define FCMOV(id, cond)                                     \
    SEMANTICS(id)                                           \
    {                                                       \
        uint64_t v = RS1;                                   \
        WRD((cond) ? RS2 : RC_OLD);                         \
    }
FCMOV(FCMOVEQ, is_zero(v))
FCMOV(FCMOVNE, !is_zero(v))
FCMOV(FCMOVLT, is_neg(v))
FCMOV(FCMOVGE, !is_neg(v))
FCMOV(FCMOVLE, is_neg(v) || is_zero(v))
FCMOV(FCMOVGT, !(is_neg(v) || is_zero(v)))
#undef FCMOV

/* ---- sign and exponent copies ---------------------------------------------------- */
#define AL_T_SIGNEXP 0xfff0000000000000ull
SEMANTICS(CPYS)  { WRD((RS1 & AL_T_SIGN) | (RS2 & ~AL_T_SIGN)); }
SEMANTICS(CPYSN) { WRD((~RS1 & AL_T_SIGN) | (RS2 & ~AL_T_SIGN)); }
SEMANTICS(CPYSE) { WRD((RS1 & AL_T_SIGNEXP) | (RS2 & ~AL_T_SIGNEXP)); }

/* ---- register-file moves (FIX) ----------------------------------------------------- */
SEMANTICS(ITOFS) { WRD(al_s_from_f32((uint32_t)RS1)); }
SEMANTICS(ITOFT) { WRD(RS1); }
SEMANTICS(FTOIS) { WRD(SEXT32(al_s_to_f32(RS1))); }
SEMANTICS(FTOIT) { WRD(RS1); }

/* ---- the FPCR ---------------------------------------------------------------------- */
SEMANTICS(MT_FPCR) { al_fp_set_fpcr(c, RS1); }
SEMANTICS(MF_FPCR) { WRD(al_fp_fpcr(c)); }

/* ---- integer conversions between longword and quadword ------------------------------ */
/* cvtlq: the longword in register layout (bits 63:62 and 58:29) sign-extended. */
SEMANTICS(CVTLQ)
{
    uint64_t v = RS1;
    WRD(((uint64_t)((int64_t)v >> 32) & ~0x3fffffffull) | ((v >> 29) & 0x3fffffffull));
}

/* cvtql: the low 32 bits into longword register layout; integer overflow
 * (with inexact) when the value does not fit. */
SEMANTICS(CVTQL)
{
    uint64_t v = RS1;
    WRD(((v & 0xc0000000ull) << 32) | ((v & 0x3fffffffull) << 29));
    if (v != SEXT32(v)) al_fp_raise(c, i->rm, AL_FPCR_IOV | AL_FPCR_INE);
}
