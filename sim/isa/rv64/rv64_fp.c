/*
 * rv64_fp.c - semantics of the RV64F and RV64D extensions (rows in
 * rv64_fp.def) and the fflags hooks used by the FP CSR instructions.
 *
 * Values live in the unified registers as raw bit patterns; singles are
 * NaN-boxed (upper 32 bits all ones; a badly boxed operand reads as the
 * canonical NaN).  NaN results are always the canonical NaN.
 *
 * How rounding and flags are done
 * -------------------------------
 * Arithmetic (add/sub/mul/div/sqrt/fma, fcvt.s.d, fcvt.d.s) runs on the host
 * SSE unit, which rounds exactly like RISC-V for RNE/RTZ/RDN/RUP and raises
 * the same five flags (x86 SSE also detects tininess after rounding and,
 * with underflow masked, flags UF only when the result is also inexact).
 *  - Rounding mode: `host_rm` remembers the mode the host is in.  An
 *    instruction resolves its mode (static rm or frm) and calls fesetround
 *    only when it differs from host_rm, so a program that stays in one mode
 *    pays one compare per instruction.  The host mode is therefore left at
 *    the last guest mode used; nothing else in the simulator may rely on
 *    the host being in round-to-nearest while a guest runs.
 *  - Flags: host exception flags are sticky just like fflags, so they are
 *    not read per instruction.  They accumulate in the host and are folded
 *    into c->fflags only when the guest reads fflags/fcsr
 *    (rv_fp_get_fflags) or a slow path needs precise flags; writing fflags
 *    clears the host flags.  Flags the host cannot produce correctly are
 *    or-ed into c->fflags directly.  Consequence: host FP arithmetic done
 *    by the simulator itself leaks into the guest's fflags unless the run
 *    loop calls rv_fp_set_fflags(c, c->fflags) when a run starts (discards
 *    host flags, keeps the guest's, resyncs host_rm) and rv_fp_get_fflags(c)
 *    when it stops (folds the guest's flags in before other code runs).
 *  - Where the host differs from RISC-V it is corrected in software: NaN
 *    results are replaced by the canonical NaN (one compare on the result);
 *    fma with inf*0 and a quiet-NaN addend raises NV; comparisons, min/max,
 *    classify and sign injection work on the bit patterns; conversions to
 *    integer (saturation table, NX only when in range) and inexact
 *    conversions from integer are done entirely in software.
 *  - RMM (ties away from zero) has no host mode.  Those instructions take a
 *    slow path: the operation is computed in x87 80-bit long double with
 *    round-toward-zero, whose 64-bit significand plus the host inexact flag
 *    (a sticky bit) is exactly enough information to round correctly to 24
 *    or 53 bits ("round to odd" needs p+2 bits), then round_pack() rounds
 *    it in software with the RISC-V overflow/underflow rules.  The 80-bit
 *    exponent range is wide enough that the intermediate never overflows or
 *    underflows.
 * Cost of the common case (RNE, no flag read): resolve rm (two compares),
 * compare with host_rm, the host operation, a NaN compare on the result,
 * and (singles) two unbox compares and a box.
 */
#include <fenv.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include "rv64.h"

_Static_assert(LDBL_MANT_DIG == 64, "RMM slow path needs x87 80-bit long double");

/* ---- constants and bit-level helpers ------------------------------------ */
enum { FF_NX = 1, FF_UF = 2, FF_OF = 4, FF_DZ = 8, FF_NV = 16 };
enum { RM_RNE, RM_RTZ, RM_RDN, RM_RUP, RM_RMM };

#define F32_QNAN  0x7fc00000u
#define F64_QNAN  0x7ff8000000000000ull
#define F32_SIGN  0x80000000u
#define F64_SIGN  0x8000000000000000ull
#define BOX_HIGH  0xffffffff00000000ull

/* Parameters of a binary interchange format. */
typedef struct fp_fmt {
    int p;       /* significand bits including the hidden one */
    int bias;    /* exponent bias (= emax)                    */
    int ebits;   /* exponent field width                      */
} fp_fmt_t;

static const fp_fmt_t FMT_S = { 24, 127, 8 };
static const fp_fmt_t FMT_D = { 53, 1023, 11 };

static inline float f32_of(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static inline double f64_of(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static inline uint32_t bits32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }
static inline uint64_t bits64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }

static inline uint32_t unbox(uint64_t r)
{
    return (r >> 32) == 0xffffffffu ? (uint32_t)r : F32_QNAN;
}
static inline uint64_t box(uint32_t b) { return BOX_HIGH | b; }

static inline bool nan32(uint32_t x) { return (x & ~F32_SIGN) > 0x7f800000u; }
static inline bool nan64(uint64_t x) { return (x & ~F64_SIGN) > 0x7ff0000000000000ull; }
static inline bool snan32(uint32_t x) { return nan32(x) && !(x & 0x00400000u); }
static inline bool snan64(uint64_t x) { return nan64(x) && !(x & 0x0008000000000000ull); }
static inline bool inf32(uint32_t x) { return (x & ~F32_SIGN) == 0x7f800000u; }
static inline bool inf64(uint64_t x) { return (x & ~F64_SIGN) == 0x7ff0000000000000ull; }
static inline bool zero32(uint32_t x) { return (x & ~F32_SIGN) == 0; }
static inline bool zero64(uint64_t x) { return (x & ~F64_SIGN) == 0; }

static inline uint32_t canon32(uint32_t x) { return unlikely(nan32(x)) ? F32_QNAN : x; }
static inline uint64_t canon64(uint64_t x) { return unlikely(nan64(x)) ? F64_QNAN : x; }

/* Keep the compiler from moving FP arithmetic across fesetround/fetestexcept
 * (GCC does not model the FP environment without -frounding-math). */
#define FP_BARRIER(x) __asm__ volatile("" : "+m"(x) : : "memory")

/* ---- host FP environment ------------------------------------------------ */
static int host_rm = RM_RNE;    /* RISC-V code of the host's current mode */
static const int host_modes[4] = { FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD };

static __attribute__((noinline, cold)) void set_host_rm(int rm)
{
    fesetround(host_modes[rm]);
    host_rm = rm;
}

static uint32_t rv_flags_of_host(int fx)
{
    return (fx & FE_INVALID ? FF_NV : 0) | (fx & FE_DIVBYZERO ? FF_DZ : 0) |
           (fx & FE_OVERFLOW ? FF_OF : 0) | (fx & FE_UNDERFLOW ? FF_UF : 0) |
           (fx & FE_INEXACT ? FF_NX : 0);
}

/* Move the host's accumulated flags into c->fflags and clear them. */
static void fold_host_flags(cpu_t *c)
{
    int fx = fetestexcept(FE_ALL_EXCEPT);
    if (fx) {
        c->fflags |= rv_flags_of_host(fx);
        feclearexcept(FE_ALL_EXCEPT);
    }
}

uint32_t rv_fp_get_fflags(cpu_t *c)
{
    fold_host_flags(c);
    return c->fflags & 0x1f;
}

/* Also re-reads the host rounding mode, so that calling this when a run
 * (re)starts discards host flags raised by simulator code in between and
 * resynchronises host_rm should anything else have changed the mode. */
void rv_fp_set_fflags(cpu_t *c, uint32_t flags)
{
    feclearexcept(FE_ALL_EXCEPT);
    c->fflags = flags & 0x1f;
    int mode = fegetround();
    for (int rm = 0; rm < 4; rm++)
        if (host_modes[rm] == mode) host_rm = rm;
}

/* The instruction's effective rounding mode; reserved modes are illegal. */
static inline unsigned rm_of(cpu_t *c, const insn_t *i)
{
    unsigned rm = i->rm;
    if (rm == RV_RM_DYN) rm = c->frm;
    if (unlikely(rm > RM_RMM)) cpu_stop(c, STOP_ILLEGAL, 0);
    return rm;
}

/* Put the host in mode rm; false for RMM, which the host cannot do. */
static inline bool host_round_as(unsigned rm)
{
    if (likely(rm == (unsigned)host_rm)) return true;
    if (rm == RM_RMM) return false;
    set_host_rm((int)rm);
    return true;
}

/* ---- software rounding ---------------------------------------------------- */
/* Split sig at bit position sh: q = sig >> sh, `half` = the bit just below,
 * `rest` = whether anything below that (or the incoming sticky) is set. */
static void split(uint64_t sig, unsigned sh, bool sticky, uint64_t *q, bool *half, bool *rest)
{
    if (sh == 0) {
        *q = sig; *half = false; *rest = sticky;
    } else if (sh < 64) {
        *q = sig >> sh;
        *half = (sig >> (sh - 1)) & 1;
        *rest = (sig & ((1ull << (sh - 1)) - 1)) != 0 || sticky;
    } else if (sh == 64) {
        *q = 0; *half = sig >> 63; *rest = (sig << 1) != 0 || sticky;
    } else {
        *q = 0; *half = false; *rest = sig != 0 || sticky;
    }
}

/* Whether to add one unit in the last place to the truncated magnitude. */
static bool round_up(unsigned rm, bool sign, bool odd, bool half, bool rest)
{
    switch (rm) {
    case RM_RNE: return half && (rest || odd);
    case RM_RTZ: return false;
    case RM_RDN: return sign && (half || rest);
    case RM_RUP: return !sign && (half || rest);
    default:     return half;                       /* RMM */
    }
}

/* Largest finite value or infinity after an overflow, by rounding mode. */
static uint64_t overflow_result(const fp_fmt_t *f, bool sign, unsigned rm)
{
    uint64_t inf = ((1ull << f->ebits) - 1) << (f->p - 1);
    bool to_max = rm == RM_RTZ || (rm == RM_RDN && !sign) || (rm == RM_RUP && sign);
    return to_max ? inf - 1 : inf;
}

/* Round the value (-1)^sign * sig * 2^(e-63), sig normalised (bit 63 set),
 * plus a sticky bit for anything nonzero beyond sig, to format f in mode rm.
 * Raises NX/UF/OF in c->fflags (tininess after rounding, as RISC-V says).
 * Returns the bit pattern including the sign. */
static uint64_t round_pack(cpu_t *c, const fp_fmt_t *f, bool sign, uint64_t sig, int e,
                           bool sticky, unsigned rm)
{
    const int emin = 1 - f->bias;
    const uint64_t sbit = (uint64_t)sign << (f->p - 1 + f->ebits);
    unsigned sh = (unsigned)(64 - f->p);
    uint64_t q;
    bool half, rest, tiny = false;

    if (e > f->bias) {
        c->fflags |= FF_OF | FF_NX;
        return sbit | overflow_result(f, sign, rm);
    }
    if (e < emin) {
        /* Tiny unless rounding to p bits with unbounded exponent reaches 2^emin. */
        split(sig, sh, sticky, &q, &half, &rest);
        tiny = !(e == emin - 1 && q == (1ull << f->p) - 1 &&
                 round_up(rm, sign, q & 1, half, rest));
        sh += (unsigned)(emin - e);
    }
    split(sig, sh, sticky, &q, &half, &rest);
    bool inexact = half || rest;
    if (round_up(rm, sign, q & 1, half, rest)) q++;

    uint64_t mag;
    if (e < emin) {
        mag = q;                    /* a carry into 2^(p-1) encodes min normal */
    } else {
        mag = ((uint64_t)(e - emin) << (f->p - 1)) + q;
        if ((mag >> (f->p - 1)) >= (1ull << f->ebits) - 1) {
            c->fflags |= FF_OF | FF_NX;
            return sbit | overflow_result(f, sign, rm);
        }
    }
    if (inexact) c->fflags |= FF_NX | (tiny ? FF_UF : 0);
    return sbit | mag;
}

/* Integer magnitude to format f (software; exact or not). */
static uint64_t round_int(cpu_t *c, const fp_fmt_t *f, bool sign, uint64_t mag, unsigned rm)
{
    if (mag == 0) return 0;
    int lz = __builtin_clzll(mag);
    return round_pack(c, f, sign, mag << lz, 63 - lz, false, rm);
}

/* ---- the RMM slow path ----------------------------------------------------- */
enum fp_op { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT, OP_FMA };

/* Operand k of i in format f, as raw bits (singles unboxed). */
static uint64_t operand(const cpu_t *c, const insn_t *i, int k, const fp_fmt_t *f)
{
    uint64_t r = c->reg[k == 0 ? i->rs1 : k == 1 ? i->rs2 : i->rs3];
    return f == &FMT_S ? unbox(r) : r;
}

static bool is_nan(uint64_t x, const fp_fmt_t *f) { return f == &FMT_S ? nan32((uint32_t)x) : nan64(x); }
static bool is_snan(uint64_t x, const fp_fmt_t *f) { return f == &FMT_S ? snan32((uint32_t)x) : snan64(x); }
static bool is_inf(uint64_t x, const fp_fmt_t *f) { return f == &FMT_S ? inf32((uint32_t)x) : inf64(x); }
static bool is_zero(uint64_t x, const fp_fmt_t *f) { return f == &FMT_S ? zero32((uint32_t)x) : zero64(x); }
static long double widen(uint64_t x, const fp_fmt_t *f)
{
    return f == &FMT_S ? (long double)f32_of((uint32_t)x) : (long double)f64_of(x);
}
static uint64_t canonical_nan(const fp_fmt_t *f) { return f == &FMT_S ? F32_QNAN : F64_QNAN; }

/* Write a result of format f to rd (boxing singles). */
static void write_fmt(cpu_t *c, const insn_t *i, const fp_fmt_t *f, uint64_t bits)
{
    c->reg[i->rd] = f == &FMT_S ? box((uint32_t)bits) : bits;
}

/* inf * 0 in either order. */
static bool inf_times_zero(uint64_t a, uint64_t b, const fp_fmt_t *f)
{
    return (is_inf(a, f) && is_zero(b, f)) || (is_zero(a, f) && is_inf(b, f));
}

/* Wide result r (exact, or truncated with `sticky`) rounded to f by RMM. */
static uint64_t narrow_rmm(cpu_t *c, const fp_fmt_t *f, long double r, bool sticky)
{
    uint64_t sig;
    uint16_t se;
    memcpy(&sig, &r, 8);
    memcpy(&se, (const char *)&r + 8, 2);
    bool sign = se >> 15;
    int bexp = se & 0x7fff;
    if (bexp == 0x7fff && !(sig << 1)) {                        /* infinity */
        return ((uint64_t)sign << (f->p - 1 + f->ebits)) | overflow_result(f, sign, RM_RNE);
    }
    if (sig == 0) return (uint64_t)sign << (f->p - 1 + f->ebits);   /* zero */
    int lz = __builtin_clzll(sig);                              /* 0 unless denormal */
    return round_pack(c, f, sign, sig << lz, bexp - 16383 - lz, sticky, RM_RMM);
}

/* op (with negations for the fma family: bit 0 negates the product, bit 1
 * the addend) rounded to nearest, ties away from zero. */
static void rmm_arith(cpu_t *c, const insn_t *i, enum fp_op op, const fp_fmt_t *f, unsigned neg)
{
    int n = op == OP_SQRT ? 1 : op == OP_FMA ? 3 : 2;
    uint64_t x[3] = { 0, 0, 0 };
    uint32_t fl = 0;
    bool nan = false;
    for (int k = 0; k < n; k++) {
        x[k] = operand(c, i, k, f);
        if (is_nan(x[k], f)) nan = true;
        if (is_snan(x[k], f)) fl |= FF_NV;
    }
    if (op == OP_FMA && inf_times_zero(x[0], x[1], f)) { nan = true; fl |= FF_NV; }
    if (nan) {
        c->fflags |= fl;
        write_fmt(c, i, f, canonical_nan(f));
        return;
    }

    long double a = widen(x[0], f), b = widen(x[1], f), d = widen(x[2], f), r;
    if (neg & 1) a = -a;
    if (neg & 2) d = -d;
    fold_host_flags(c);
    if (host_rm != RM_RTZ) set_host_rm(RM_RTZ);
    FP_BARRIER(a); FP_BARRIER(b); FP_BARRIER(d);
    switch (op) {
    case OP_ADD:  r = a + b; break;
    case OP_SUB:  r = a - b; break;
    case OP_MUL:  r = a * b; break;
    case OP_DIV:  r = a / b; break;
    case OP_SQRT: r = sqrtl(a); break;
    default:      r = fmal(a, b, d); break;
    }
    FP_BARRIER(r);
    int fx = fetestexcept(FE_ALL_EXCEPT);
    feclearexcept(FE_ALL_EXCEPT);
    c->fflags |= (fx & FE_INVALID ? FF_NV : 0) | (fx & FE_DIVBYZERO ? FF_DZ : 0);
    if (fx & FE_INVALID) {
        write_fmt(c, i, f, canonical_nan(f));
        return;
    }
    write_fmt(c, i, f, narrow_rmm(c, f, r, (fx & FE_INEXACT) != 0));
}

/* ---- loads and stores ------------------------------------------------------ */
SEMANTICS(FLW)
{
    uint64_t a = RS1 + (uint64_t)IMM;
    c->mem_addr = a;
    WRD(box((uint32_t)mem_load32(c->mem, a)));
}

SEMANTICS(FLD)
{
    uint64_t a = RS1 + (uint64_t)IMM;
    c->mem_addr = a;
    WRD(mem_load64(c->mem, a));
}

SEMANTICS(FSW)
{
    uint64_t a = RS1 + (uint64_t)IMM;
    c->mem_addr = a;
    mem_store32(c->mem, a, RS2);
}

SEMANTICS(FSD)
{
    uint64_t a = RS1 + (uint64_t)IMM;
    c->mem_addr = a;
    mem_store64(c->mem, a, RS2);
}

/* ---- add, sub, mul, div, sqrt ----------------------------------------------- */
#define ARITH_S(id, op, expr)                                              \
    SEMANTICS(id)                                                          \
    {                                                                      \
        if (unlikely(!host_round_as(rm_of(c, i)))) {                       \
            rmm_arith(c, i, op, &FMT_S, 0);                                \
            return;                                                        \
        }                                                                  \
        float a = f32_of(unbox(RS1)), b = f32_of(unbox(RS2));              \
        (void)b;                                                           \
        WRD(box(canon32(bits32(expr))));                                   \
    }

#define ARITH_D(id, op, expr)                                              \
    SEMANTICS(id)                                                          \
    {                                                                      \
        if (unlikely(!host_round_as(rm_of(c, i)))) {                       \
            rmm_arith(c, i, op, &FMT_D, 0);                                \
            return;                                                        \
        }                                                                  \
        double a = f64_of(RS1), b = f64_of(RS2);                           \
        (void)b;                                                           \
        WRD(canon64(bits64(expr)));                                        \
    }

ARITH_S(FADD_S,  OP_ADD,  a + b)
ARITH_S(FSUB_S,  OP_SUB,  a - b)
ARITH_S(FMUL_S,  OP_MUL,  a * b)
ARITH_S(FDIV_S,  OP_DIV,  a / b)
ARITH_D(FADD_D,  OP_ADD,  a + b)
ARITH_D(FSUB_D,  OP_SUB,  a - b)
ARITH_D(FMUL_D,  OP_MUL,  a * b)
ARITH_D(FDIV_D,  OP_DIV,  a / b)

SEMANTICS(FSQRT_S)
{
    if (unlikely(!host_round_as(rm_of(c, i)))) {
        rmm_arith(c, i, OP_SQRT, &FMT_S, 0);
        return;
    }
    WRD(box(canon32(bits32(sqrtf(f32_of(unbox(RS1)))))));
}

SEMANTICS(FSQRT_D)
{
    if (unlikely(!host_round_as(rm_of(c, i)))) {
        rmm_arith(c, i, OP_SQRT, &FMT_D, 0);
        return;
    }
    WRD(canon64(bits64(sqrt(f64_of(RS1)))));
}

/* ---- fused multiply-add ------------------------------------------------------ */
/* neg: bit 0 negates the product, bit 1 the addend (fmsub 2, fnmsub 1,
 * fnmadd 3).  A NaN result is canonical; RISC-V also wants NV for inf*0
 * even when the addend is a quiet NaN, which the host may not raise. */
static inline void fma_s(cpu_t *c, insn_t *i, unsigned neg)
{
    if (unlikely(!host_round_as(rm_of(c, i)))) {
        rmm_arith(c, i, OP_FMA, &FMT_S, neg);
        return;
    }
    uint32_t a = unbox(RS1), b = unbox(RS2), d = unbox(RS3);
    float r = fmaf(f32_of(a ^ (neg & 1 ? F32_SIGN : 0)), f32_of(b),
                   f32_of(d ^ (neg & 2 ? F32_SIGN : 0)));
    uint32_t rb = bits32(r);
    if (unlikely(nan32(rb))) {
        if (inf_times_zero(a, b, &FMT_S)) c->fflags |= FF_NV;
        rb = F32_QNAN;
    }
    WRD(box(rb));
}

static inline void fma_d(cpu_t *c, insn_t *i, unsigned neg)
{
    if (unlikely(!host_round_as(rm_of(c, i)))) {
        rmm_arith(c, i, OP_FMA, &FMT_D, neg);
        return;
    }
    uint64_t a = RS1, b = RS2, d = RS3;
    double r = fma(f64_of(a ^ (neg & 1 ? F64_SIGN : 0)), f64_of(b),
                   f64_of(d ^ (neg & 2 ? F64_SIGN : 0)));
    uint64_t rb = bits64(r);
    if (unlikely(nan64(rb))) {
        if (inf_times_zero(a, b, &FMT_D)) c->fflags |= FF_NV;
        rb = F64_QNAN;
    }
    WRD(rb);
}

SEMANTICS(FMADD_S)  { fma_s(c, i, 0); }
SEMANTICS(FMSUB_S)  { fma_s(c, i, 2); }
SEMANTICS(FNMSUB_S) { fma_s(c, i, 1); }
SEMANTICS(FNMADD_S) { fma_s(c, i, 3); }
SEMANTICS(FMADD_D)  { fma_d(c, i, 0); }
SEMANTICS(FMSUB_D)  { fma_d(c, i, 2); }
SEMANTICS(FNMSUB_D) { fma_d(c, i, 1); }
SEMANTICS(FNMADD_D) { fma_d(c, i, 3); }

/* ---- sign injection ----------------------------------------------------------- */
SEMANTICS(FSGNJ_S)  { WRD(box((unbox(RS1) & ~F32_SIGN) | (unbox(RS2) & F32_SIGN))); }
SEMANTICS(FSGNJN_S) { WRD(box((unbox(RS1) & ~F32_SIGN) | (~unbox(RS2) & F32_SIGN))); }
SEMANTICS(FSGNJX_S) { WRD(box(unbox(RS1) ^ (unbox(RS2) & F32_SIGN))); }
SEMANTICS(FSGNJ_D)  { WRD((RS1 & ~F64_SIGN) | (RS2 & F64_SIGN)); }
SEMANTICS(FSGNJN_D) { WRD((RS1 & ~F64_SIGN) | (~RS2 & F64_SIGN)); }
SEMANTICS(FSGNJX_D) { WRD(RS1 ^ (RS2 & F64_SIGN)); }

/* ---- min / max ---------------------------------------------------------------- */
/* IEEE 754-2008 minNum/maxNum with RISC-V's rules: a single NaN operand
 * yields the other, two yield the canonical NaN, any sNaN raises NV, and
 * -0 orders below +0. */
static uint32_t minmax32(cpu_t *c, uint32_t a, uint32_t b, bool max)
{
    bool na = nan32(a), nb = nan32(b);
    if (unlikely(na || nb)) {
        if (snan32(a) || snan32(b)) c->fflags |= FF_NV;
        return na && nb ? F32_QNAN : na ? b : a;
    }
    float x = f32_of(a), y = f32_of(b);
    if (x == y) return max ? (a & b) : (a | b);     /* differ only for +-0 */
    return (x < y) != max ? a : b;
}

static uint64_t minmax64(cpu_t *c, uint64_t a, uint64_t b, bool max)
{
    bool na = nan64(a), nb = nan64(b);
    if (unlikely(na || nb)) {
        if (snan64(a) || snan64(b)) c->fflags |= FF_NV;
        return na && nb ? F64_QNAN : na ? b : a;
    }
    double x = f64_of(a), y = f64_of(b);
    if (x == y) return max ? (a & b) : (a | b);
    return (x < y) != max ? a : b;
}

SEMANTICS(FMIN_S) { WRD(box(minmax32(c, unbox(RS1), unbox(RS2), false))); }
SEMANTICS(FMAX_S) { WRD(box(minmax32(c, unbox(RS1), unbox(RS2), true))); }
SEMANTICS(FMIN_D) { WRD(minmax64(c, RS1, RS2, false)); }
SEMANTICS(FMAX_D) { WRD(minmax64(c, RS1, RS2, true)); }

/* ---- comparisons ---------------------------------------------------------------- */
/* feq is quiet (NV only for sNaN); flt/fle signal (NV for any NaN). */
enum cmp { CMP_EQ, CMP_LT, CMP_LE };

static uint64_t cmp32(cpu_t *c, uint32_t a, uint32_t b, enum cmp k)
{
    if (unlikely(nan32(a) || nan32(b))) {
        if (k != CMP_EQ || snan32(a) || snan32(b)) c->fflags |= FF_NV;
        return 0;
    }
    float x = f32_of(a), y = f32_of(b);
    return k == CMP_EQ ? x == y : k == CMP_LT ? x < y : x <= y;
}

static uint64_t cmp64(cpu_t *c, uint64_t a, uint64_t b, enum cmp k)
{
    if (unlikely(nan64(a) || nan64(b))) {
        if (k != CMP_EQ || snan64(a) || snan64(b)) c->fflags |= FF_NV;
        return 0;
    }
    double x = f64_of(a), y = f64_of(b);
    return k == CMP_EQ ? x == y : k == CMP_LT ? x < y : x <= y;
}

SEMANTICS(FEQ_S) { WRD(cmp32(c, unbox(RS1), unbox(RS2), CMP_EQ)); }
SEMANTICS(FLT_S) { WRD(cmp32(c, unbox(RS1), unbox(RS2), CMP_LT)); }
SEMANTICS(FLE_S) { WRD(cmp32(c, unbox(RS1), unbox(RS2), CMP_LE)); }
SEMANTICS(FEQ_D) { WRD(cmp64(c, RS1, RS2, CMP_EQ)); }
SEMANTICS(FLT_D) { WRD(cmp64(c, RS1, RS2, CMP_LT)); }
SEMANTICS(FLE_D) { WRD(cmp64(c, RS1, RS2, CMP_LE)); }

/* ---- classify ------------------------------------------------------------------- */
/* Bits: 0 -inf, 1 -normal, 2 -subnormal, 3 -0, 4 +0, 5 +subnormal,
 * 6 +normal, 7 +inf, 8 sNaN, 9 qNaN. */
static uint64_t classify(uint64_t x, const fp_fmt_t *f)
{
    int fb = f->p - 1;
    bool sign = (x >> (fb + f->ebits)) & 1;
    uint64_t bexp = (x >> fb) & ((1ull << f->ebits) - 1);
    uint64_t frac = x & ((1ull << fb) - 1);
    if (bexp == (1ull << f->ebits) - 1) {
        if (frac == 0) return sign ? 1u << 0 : 1u << 7;
        return (frac >> (fb - 1)) ? 1u << 9 : 1u << 8;
    }
    if (bexp == 0) {
        if (frac == 0) return sign ? 1u << 3 : 1u << 4;
        return sign ? 1u << 2 : 1u << 5;
    }
    return sign ? 1u << 1 : 1u << 6;
}

SEMANTICS(FCLASS_S) { WRD(classify(unbox(RS1), &FMT_S)); }
SEMANTICS(FCLASS_D) { WRD(classify(RS1, &FMT_D)); }

/* ---- conversions to integer ------------------------------------------------------ */
/* Float bits x (format f) to a `width`-bit integer in mode rm, in software.
 * NaN and out-of-range values saturate and raise NV only (NaN and +inf to
 * the maximum, -inf to the minimum); in-range inexact results raise NX.
 * 32-bit results come back sign-extended, as RV64 writes them. */
static uint64_t to_int(cpu_t *c, uint64_t x, const fp_fmt_t *f, unsigned rm, bool is_signed,
                       unsigned width)
{
    int fb = f->p - 1;
    bool sign = (x >> (fb + f->ebits)) & 1;
    int bexp = (int)((x >> fb) & ((1u << f->ebits) - 1));
    uint64_t frac = x & ((1ull << fb) - 1);
    uint64_t max = is_signed ? (1ull << (width - 1)) - 1 : ~0ull >> (64 - width);
    uint64_t min = is_signed ? -(1ull << (width - 1)) : 0;    /* as a bit pattern */
    uint64_t q = 0, result;
    bool half = false, rest = false, invalid = false;

    if (bexp == (1 << f->ebits) - 1) {                        /* inf or NaN */
        invalid = true;
        result = frac || !sign ? max : min;
    } else {
        uint64_t sig = bexp ? frac | 1ull << fb : frac;
        int e = (bexp ? bexp : 1) - f->bias - fb;             /* x = sig * 2^e */
        bool huge = false;
        if (e >= 0) {
            huge = e + f->p > 64;
            q = huge ? 0 : sig << e;
        } else {
            split(sig, (unsigned)-e, false, &q, &half, &rest);
            if (round_up(rm, sign, q & 1, half, rest)) q++;
        }
        uint64_t limit = is_signed && sign ? (1ull << (width - 1)) : max;
        if (huge || (sign && !is_signed && q != 0) || q > limit) {
            invalid = true;
            result = sign ? min : max;
        } else {
            result = sign ? -q : q;
        }
    }
    if (invalid) c->fflags |= FF_NV;
    else if (half || rest) c->fflags |= FF_NX;
    return width == 32 ? SEXT32(result) : result;
}

#define TO_INT(id, getx, fmt, sgn, width) \
    SEMANTICS(id) { WRD(to_int(c, getx, fmt, rm_of(c, i), sgn, width)); }

TO_INT(FCVT_W_S,  unbox(RS1), &FMT_S, true,  32)
TO_INT(FCVT_WU_S, unbox(RS1), &FMT_S, false, 32)
TO_INT(FCVT_L_S,  unbox(RS1), &FMT_S, true,  64)
TO_INT(FCVT_LU_S, unbox(RS1), &FMT_S, false, 64)
TO_INT(FCVT_W_D,  RS1,        &FMT_D, true,  32)
TO_INT(FCVT_WU_D, RS1,        &FMT_D, false, 32)
TO_INT(FCVT_L_D,  RS1,        &FMT_D, true,  64)
TO_INT(FCVT_LU_D, RS1,        &FMT_D, false, 64)

/* ---- conversions from integer ---------------------------------------------------- */
/* Exactly representable magnitudes (the common case) convert on the host;
 * the rest round in software. */
static uint64_t from_int(cpu_t *c, const insn_t *i, const fp_fmt_t *f, bool sign, uint64_t mag)
{
    unsigned rm = rm_of(c, i);
    if (likely(mag < (1ull << f->p))) {
        int64_t v = sign ? -(int64_t)mag : (int64_t)mag;
        return f == &FMT_S ? bits32((float)v) : bits64((double)v);
    }
    return round_int(c, f, sign, mag, rm);
}

static inline bool neg64(uint64_t v) { return (int64_t)v < 0; }
static inline uint64_t abs64(uint64_t v) { return neg64(v) ? -v : v; }

SEMANTICS(FCVT_S_W)
{
    uint64_t v = SEXT32(RS1);
    WRD(box((uint32_t)from_int(c, i, &FMT_S, neg64(v), abs64(v))));
}
SEMANTICS(FCVT_S_WU) { WRD(box((uint32_t)from_int(c, i, &FMT_S, false, (uint32_t)RS1))); }
SEMANTICS(FCVT_S_L)  { WRD(box((uint32_t)from_int(c, i, &FMT_S, neg64(RS1), abs64(RS1)))); }
SEMANTICS(FCVT_S_LU) { WRD(box((uint32_t)from_int(c, i, &FMT_S, false, RS1))); }
SEMANTICS(FCVT_D_W)
{
    uint64_t v = SEXT32(RS1);
    WRD(from_int(c, i, &FMT_D, neg64(v), abs64(v)));
}
SEMANTICS(FCVT_D_WU) { WRD(from_int(c, i, &FMT_D, false, (uint32_t)RS1)); }
SEMANTICS(FCVT_D_L)  { WRD(from_int(c, i, &FMT_D, neg64(RS1), abs64(RS1))); }
SEMANTICS(FCVT_D_LU) { WRD(from_int(c, i, &FMT_D, false, RS1)); }

/* ---- conversions between precisions ------------------------------------------------ */
SEMANTICS(FCVT_S_D)
{
    unsigned rm = rm_of(c, i);
    uint64_t x = RS1;
    if (likely(host_round_as(rm))) {
        WRD(box(canon32(bits32((float)f64_of(x)))));
        return;
    }
    /* RMM: the double is the exact value; round it in software. */
    if (nan64(x)) {
        if (snan64(x)) c->fflags |= FF_NV;
        WRD(box(F32_QNAN));
        return;
    }
    bool sign = x >> 63;
    uint64_t bexp = (x >> 52) & 0x7ff, frac = x & ((1ull << 52) - 1);
    if (bexp == 0x7ff || (bexp == 0 && frac == 0)) {          /* inf, zero: exact */
        WRD(box(bits32((float)f64_of(x))));
        return;
    }
    uint64_t sig = bexp ? frac | 1ull << 52 : frac;
    int lz = __builtin_clzll(sig);
    int e = (bexp ? (int)bexp : 1) - 1023 - 52 + (63 - lz);
    WRD(box((uint32_t)round_pack(c, &FMT_S, sign, sig << lz, e, false, RM_RMM)));
}

SEMANTICS(FCVT_D_S)
{
    (void)rm_of(c, i);          /* exact, but a reserved rm is still illegal */
    WRD(canon64(bits64((double)f32_of(unbox(RS1)))));
}

/* ---- bit-pattern moves -------------------------------------------------------------- */
SEMANTICS(FMV_X_W) { WRD(SEXT32(RS1)); }
SEMANTICS(FMV_X_D) { WRD(RS1); }
SEMANTICS(FMV_W_X) { WRD(box((uint32_t)RS1)); }
SEMANTICS(FMV_D_X) { WRD(RS1); }
