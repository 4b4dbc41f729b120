/*
 * alpha_fp_arith.c - semantics of the Alpha IEEE arithmetic: add, sub, mul,
 * div and sqrt in S and T format, the T compares and the conversions
 * cvtts, cvtst, cvttq, cvtqs and cvtqt (rows in alpha_fp.def).
 *
 * How results and exceptions are computed
 * ---------------------------------------
 * Values are IEEE binary64/binary32, so the host SSE unit computes them:
 *  - Fast path.  Most code (gcc's default -mieee) uses /SU or /SUD: software
 *    completion, inexact ignored.  Rounding to nearest, with no denormal
 *    operand flushing, the only exceptions that can still matter -- invalid,
 *    division by zero, overflow, underflow -- all leave a mark in the
 *    result (NaN, infinity, or a magnitude of at most the smallest normal).
 *    So the host operation runs in its standing mode (round-to-nearest)
 *    and an "ordinary" result (normal, above the smallest normal) is
 *    final: no flags are read and nothing else is done.  So is a zero
 *    that is exact by its operands (x - x, 0 * y, 0 / y).
 *  - Precise path.  Everything else -- other rounding modes, /I, no /S (every
 *    exception is recorded then), special results, flushing modes -- runs
 *    the one SSE instruction inside an asm block that loads the rounding
 *    mode with cleared flags into MXCSR, reads the flags it raised, and
 *    restores MXCSR.  The host is therefore always back in round-to-nearest
 *    (alpha_fp.c keeps it so while a guest runs).  x86 detects tininess
 *    after rounding and, with underflow masked, flags underflow only for
 *    inexact tiny results -- as the Alpha (and qemu's softfloat) does.
 *  - In software, where the host differs: NaN operands (qemu's x87-style
 *    choice between two NaNs, quieted; the host picks the first), the
 *    default NaN (+quiet, the host's is negative), underflow to zero
 *    without /U (a tiny result -- below 2^emin before rounding -- becomes a
 *    true zero with no exception at all), denormal operands read as zero
 *    (FPCR.DNZ), the operand traps of instructions without /S, and all of
 *    cvttq (but for a chopped conversion of a normal operand below 2^63,
 *    the host's truncation), the compares and the exactness test of
 *    integer conversions.
 * S-format operands are taken from their registers with the Handbook's
 * mapping (bits 63:62 and 58:29) and results widened back (alpha_fp.h).
 */
#include <math.h>
#include <string.h>

#include "alpha_fp.h"

#if !defined(__x86_64__)
#error "alpha_fp_arith.c computes guest FP arithmetic with x86-64 SSE instructions"
#endif

/* ---- bit views ------------------------------------------------------------------ */
static inline double f64_of(uint64_t b) { double d; memcpy(&d, &b, 8); return d; }
static inline float f32_of(uint32_t b) { float f; memcpy(&f, &b, 4); return f; }
static inline uint64_t bits64(double d) { uint64_t b; memcpy(&b, &d, 8); return b; }
static inline uint32_t bits32(float f) { uint32_t b; memcpy(&b, &f, 4); return b; }

/* Normal and above the smallest normal: a result that needs no checking. */
static inline bool t_ordinary(uint64_t r)
{
    return (r & ~AL_T_SIGN) - (AL_T_MINNORM + 1) < AL_T_INF - (AL_T_MINNORM + 1);
}
static inline bool f_ordinary(uint32_t r)
{
    return (r & ~AL_F_SIGN) - (AL_F_MINNORM + 1) < AL_F_INF - (AL_F_MINNORM + 1);
}

/* Denormals read as zero (keeping the sign). */
static inline uint64_t t_flush_in(uint64_t x) { return (x & AL_T_INF) ? x : x & AL_T_SIGN; }
static inline uint32_t f_flush_in(uint32_t x) { return (x & AL_F_INF) ? x : x & AL_F_SIGN; }

/* ---- one host operation with exact flags ------------------------------------------ */
enum fop { OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_SQRT };
enum { MX_IE = 1, MX_ZE = 4, MX_OE = 8, MX_UE = 16, MX_PE = 32, MX_FLAGS = 0x3f };

/* MXCSR for a precise operation: exceptions masked, no FTZ/DAZ, flags
 * clear, rounding control (bits 14:13) from the Alpha mode. */
static unsigned mxcsr_for(unsigned rnd)
{
    static const unsigned rc[4] = {
        [AL_RND_CHOPPED] = 3u << 13, [AL_RND_MINUS] = 1u << 13,
        [AL_RND_NORMAL] = 0, [AL_RND_PLUS] = 2u << 13,
    };
    return 0x1f80u | rc[rnd];
}

/* Run the SSE instruction `text` (operands %[x] destination, %[y] source)
 * under MXCSR `csr`, leaving the flags it raised in `fx` and the caller's
 * MXCSR restored.  One asm statement, so the compiler cannot move the
 * arithmetic across the mode switch. */
#define SSE_OP(text, xcon, x, ycon, y, csr, fx)                                   \
    do {                                                                          \
        unsigned saved_, flags_;                                                  \
        __asm__ volatile("stmxcsr %[s]\n\tldmxcsr %[c]\n\t" text "\n\t"            \
                         "stmxcsr %[f]\n\tldmxcsr %[s]"                           \
                         : [x] xcon(x), [s] "=&m"(saved_), [f] "=m"(flags_)         \
                         : [y] ycon(y), [c] "m"(csr));                             \
        (fx) = flags_ & MX_FLAGS;                                                 \
    } while (0)

static double t_host(enum fop op, double x, double y, unsigned rnd, unsigned *fx)
{
    unsigned csr = mxcsr_for(rnd), f = 0;
    switch (op) {
    case OP_ADD:  SSE_OP("addsd %[y], %[x]", "+x", x, "x", y, csr, f); break;
    case OP_SUB:  SSE_OP("subsd %[y], %[x]", "+x", x, "x", y, csr, f); break;
    case OP_MUL:  SSE_OP("mulsd %[y], %[x]", "+x", x, "x", y, csr, f); break;
    case OP_DIV:  SSE_OP("divsd %[y], %[x]", "+x", x, "x", y, csr, f); break;
    case OP_SQRT: SSE_OP("sqrtsd %[y], %[x]", "=x", x, "x", y, csr, f); break;
    }
    *fx = f;
    return x;
}

static float f_host(enum fop op, float x, float y, unsigned rnd, unsigned *fx)
{
    unsigned csr = mxcsr_for(rnd), f = 0;
    switch (op) {
    case OP_ADD:  SSE_OP("addss %[y], %[x]", "+x", x, "x", y, csr, f); break;
    case OP_SUB:  SSE_OP("subss %[y], %[x]", "+x", x, "x", y, csr, f); break;
    case OP_MUL:  SSE_OP("mulss %[y], %[x]", "+x", x, "x", y, csr, f); break;
    case OP_DIV:  SSE_OP("divss %[y], %[x]", "+x", x, "x", y, csr, f); break;
    case OP_SQRT: SSE_OP("sqrtss %[y], %[x]", "=x", x, "x", y, csr, f); break;
    }
    *fx = f;
    return x;
}

static float t_to_f_host(double y, unsigned rnd, unsigned *fx)
{
    unsigned csr = mxcsr_for(rnd), f;
    float x;
    SSE_OP("cvtsd2ss %[y], %[x]", "=x", x, "x", y, csr, f);
    *fx = f;
    return x;
}

static double q_to_t_host(int64_t y, unsigned rnd, unsigned *fx)
{
    unsigned csr = mxcsr_for(rnd), f;
    double x;
    SSE_OP("cvtsi2sdq %[y], %[x]", "=x", x, "r", y, csr, f);
    *fx = f;
    return x;
}

static float q_to_f_host(int64_t y, unsigned rnd, unsigned *fx)
{
    unsigned csr = mxcsr_for(rnd), f;
    float x;
    SSE_OP("cvtsi2ssq %[y], %[x]", "=x", x, "r", y, csr, f);
    *fx = f;
    return x;
}

static uint64_t exc_of_host(unsigned fx)
{
    return (fx & MX_IE ? AL_FPCR_INV : 0) | (fx & MX_ZE ? AL_FPCR_DZE : 0) |
           (fx & MX_OE ? AL_FPCR_OVF : 0) | (fx & MX_UE ? AL_FPCR_UNF : 0) |
           (fx & MX_PE ? AL_FPCR_INE : 0);
}

/* ---- NaN operands ------------------------------------------------------------------- */
/* A binary format's NaN-relevant fields, for code shared by S and T. */
typedef struct nanfmt { uint64_t sign, frac, quiet, inf; } nanfmt_t;
static const nanfmt_t NF_T = { AL_T_SIGN, AL_T_FRAC, AL_T_QUIET, AL_T_INF };
static const nanfmt_t NF_S = { AL_F_SIGN, AL_F_FRAC, AL_F_QUIET, AL_F_INF };

static bool is_nan(const nanfmt_t *f, uint64_t x) { return (x & ~f->sign) > f->inf; }
static bool is_snan(const nanfmt_t *f, uint64_t x) { return is_nan(f, x) && !(x & f->quiet); }

/* One NaN operand: quieted, invalid if it was signaling. */
static uint64_t quiet_nan(const nanfmt_t *f, uint64_t x, uint64_t *exc)
{
    if (is_snan(f, x)) *exc |= AL_FPCR_INV;
    return x | f->quiet;
}

/* Two operands, at least one a NaN: qemu's rule for Alpha (softfloat's x87
 * rule) -- a quiet NaN beats a signaling one, otherwise the larger
 * significand wins (ties: the positive one); the result is quieted. */
static uint64_t pick_nan(const nanfmt_t *f, uint64_t a, uint64_t b, uint64_t *exc)
{
    bool as = is_snan(f, a), bs = is_snan(f, b);
    bool aq = is_nan(f, a) && !as, bq = is_nan(f, b) && !bs;
    uint64_t fa = a & f->frac, fb = b & f->frac;
    bool a_larger = fa > fb || (fa == fb && !(a & f->sign) && (b & f->sign));
    bool take_b;
    if (as || bs) *exc |= AL_FPCR_INV;
    if (as)      take_b = bs ? !a_larger : bq;
    else if (aq) take_b = bq && !a_larger;
    else         take_b = true;
    return (take_b ? b : a) | f->quiet;
}

/* ---- tiny results --------------------------------------------------------------------- */
/* Underflow to zero applies to a result whose exact value was below 2^emin.
 * Given the rounded result's magnitude (at most the smallest normal) and
 * the host flags: a denormal, or a zero the host flagged as underflow,
 * certainly was; an exact smallest normal was not; an inexact one may
 * have been rounded up from below -- TINY_ASK: round toward zero to see. */
enum tiny { TINY_NO, TINY_YES, TINY_ASK };

static enum tiny tiny_kind(uint64_t mag, uint64_t minnorm, unsigned fx)
{
    if (mag == minnorm) return fx & MX_PE ? TINY_ASK : TINY_NO;
    return mag != 0 || (fx & MX_UE) ? TINY_YES : TINY_NO;
}

static bool t_underflowed(enum fop op, uint64_t a, uint64_t b, uint64_t r, unsigned fx)
{
    enum tiny k = tiny_kind(r & ~AL_T_SIGN, AL_T_MINNORM, fx);
    if (k != TINY_ASK) return k == TINY_YES;
    uint64_t z = bits64(t_host(op, f64_of(a), f64_of(b), AL_RND_CHOPPED, &fx));
    return (z & ~AL_T_SIGN) < AL_T_MINNORM;
}

static bool f_underflowed(enum fop op, uint32_t a, uint32_t b, uint32_t r, unsigned fx)
{
    enum tiny k = tiny_kind(r & ~AL_F_SIGN, AL_F_MINNORM, fx);
    if (k != TINY_ASK) return k == TINY_YES;
    uint32_t z = bits32(f_host(op, f32_of(a), f32_of(b), AL_RND_CHOPPED, &fx));
    return (z & ~AL_F_SIGN) < AL_F_MINNORM;
}

/* ---- add, sub, mul, div, sqrt: the precise path ------------------------------------------ */
/* Operand traps of instructions without /S: Fa (binary ops) then Fb. */
static void check_operands(cpu_t *c, unsigned rm, bool binary, uint64_t a, uint64_t b)
{
    if (rm & AL_Q_S) return;
    if (binary) al_fp_check_input(c, a, false);
    al_fp_check_input(c, b, false);
}

static __attribute__((noinline)) uint64_t t_arith(cpu_t *c, unsigned rm, enum fop op, uint64_t a, uint64_t b)
{
    check_operands(c, rm, op != OP_SQRT, a, b);
    if (al_fp_dnz(c)) { a = t_flush_in(a); b = t_flush_in(b); }
    uint64_t exc = 0, r;
    if (op == OP_SQRT ? al_t_nan(b) : al_t_nan(a) || al_t_nan(b)) {
        r = op == OP_SQRT ? quiet_nan(&NF_T, b, &exc) : pick_nan(&NF_T, a, b, &exc);
    } else {
        unsigned fx;
        r = bits64(t_host(op, f64_of(a), f64_of(b), al_fp_round(c, rm), &fx));
        exc = exc_of_host(fx);
        if (al_t_nan(r)) {
            r = AL_T_DEFNAN;
        } else if ((r & ~AL_T_SIGN) <= AL_T_MINNORM && al_fp_ftz(c, rm) &&
                   t_underflowed(op, a, b, r, fx)) {
            r &= AL_T_SIGN;
            exc = 0;
        }
    }
    al_fp_exc(c, rm, exc);
    return r;
}

static uint64_t s_arith(cpu_t *c, unsigned rm, enum fop op, uint64_t ra, uint64_t rb)
{
    check_operands(c, rm, op != OP_SQRT, ra, rb);
    uint32_t a = al_s_to_f32(ra), b = al_s_to_f32(rb), r;
    if (al_fp_dnz(c)) { a = f_flush_in(a); b = f_flush_in(b); }
    uint64_t exc = 0;
    if (op == OP_SQRT ? al_f_nan(b) : al_f_nan(a) || al_f_nan(b)) {
        r = (uint32_t)(op == OP_SQRT ? quiet_nan(&NF_S, b, &exc) : pick_nan(&NF_S, a, b, &exc));
    } else {
        unsigned fx;
        r = bits32(f_host(op, f32_of(a), f32_of(b), al_fp_round(c, rm), &fx));
        exc = exc_of_host(fx);
        if (al_f_nan(r)) {
            r = AL_F_DEFNAN;
        } else if ((r & ~AL_F_SIGN) <= AL_F_MINNORM && al_fp_ftz(c, rm) &&
                   f_underflowed(op, a, b, r, fx)) {
            r &= AL_F_SIGN;
            exc = 0;
        }
    }
    al_fp_exc(c, rm, exc);
    return al_s_from_f32(r);
}

/* ---- add, sub, mul, div: moderate operands in any mode ------------------------------------ */
/* Code without /S or with /I needs the inexact flag, and code with /C, /M
 * or a dynamic mode other than nearest a different rounding -- glibc's
 * integer division routines run divt/c between mf_fpcr and mt_fpcr on
 * every call.  When the operands and the host's round-to-nearest result
 * are moderate (unbiased exponents within +-400), nothing can overflow,
 * underflow or be special, no operand check can trap and denormal
 * flushing changes nothing; the exact error of the host result is then
 * representable and cheap (TwoSum, or one fma), and its sign says whether
 * the result is exact and which way each mode rounds. */
static inline bool t_moderate(uint64_t v)
{
    unsigned e = (unsigned)(v >> 52) & 0x7ff;
    return e - (1023 - 400) <= 800;
}

static inline int sign_of(double v) { return (v > 0) - (v < 0); }

/* The sign of (exact result - r) for the host's rounded result r. */
static inline int t_error_sign(enum fop op, double x, double y, double r)
{
    switch (op) {
    case OP_ADD:
    case OP_SUB: {
        double yy = op == OP_ADD ? y : -y;         /* TwoSum: r + e = x + yy */
        double bv = r - x;
        return sign_of((x - (r - bv)) + (yy - bv));
    }
    case OP_MUL:  return sign_of(fma(x, y, -r));
    case OP_DIV:  return sign_of(fma(-r, y, x)) * (y < 0 ? -1 : 1);   /* x/y = r + rem/y */
    case OP_SQRT: break;
    }
    return 0;
}

/* r (moderate, so a step stays normal) one unit toward the mode's side
 * when the exact result lies on side `err` (nonzero) of it. */
static inline uint64_t t_round_step(uint64_t r, int err, unsigned rnd)
{
    bool neg = r >> 63;
    switch (rnd) {
    case AL_RND_CHOPPED: return (err < 0) != neg ? r - 1 : r;   /* the exact is nearer 0 */
    case AL_RND_PLUS:    return err > 0 ? (neg ? r - 1 : r + 1) : r;
    case AL_RND_MINUS:   return err < 0 ? (neg ? r + 1 : r - 1) : r;
    default:             return r;                             /* the host's own */
    }
}

/* The result of a moderate operation with its exceptions recorded; false
 * (nothing done) when the result is not moderate.  Inline, so that each
 * semantics function gets its own copy with `op` a constant (the choice of
 * operation and of error formula compiled away). */
static inline bool t_arith_moderate(cpu_t *c, unsigned rm, enum fop op, uint64_t a, uint64_t b,
                                    uint64_t *out)
{
    double x = f64_of(a), y = f64_of(b);
    double r = op == OP_ADD ? x + y : op == OP_SUB ? x - y : op == OP_MUL ? x * y : x / y;
    uint64_t rb = bits64(r);
    if (!t_moderate(rb)) return false;
    int err = t_error_sign(op, x, y, r);
    if (err) {
        rb = t_round_step(rb, err, al_fp_round(c, rm));
        al_fp_inexact(c, rm);
    }
    *out = rb;
    return true;
}

/* ---- add, sub, mul, div, sqrt: semantics with the fast path ------------------------------- */
/* A zero result is final too when it is exact, which `zero_exact` tells
 * from the operands (xb, yb: their bits): always for sums (tiny sums are
 * exact), for products with a zero factor, for quotients of zero. */
static inline bool zero64(uint64_t v) { return (v << 1) == 0; }
static inline bool zero32(uint32_t v) { return (v << 1) == 0; }

#define T_ARITH(id, op, expr, zero_exact)                                  \
    SEMANTICS(id)                                                          \
    {                                                                      \
        uint64_t a = RS1, b = RS2;                                         \
        if (likely(al_fp_fast(c, i->rm))) {                                \
            double x = f64_of(a), y = f64_of(b);                           \
            uint64_t r = bits64(expr), xb = a, yb = b;                     \
            (void)xb; (void)yb;                                            \
            if (likely(t_ordinary(r) || (zero64(r) && (zero_exact)))) {    \
                WRD(r);                                                    \
                return;                                                    \
            }                                                              \
        } else if (likely(t_moderate(a) && t_moderate(b))) {               \
            uint64_t r;                                                    \
            if (t_arith_moderate(c, i->rm, op, a, b, &r)) {                \
                WRD(r);                                                    \
                return;                                                    \
            }                                                              \
        }                                                                  \
        WRD(t_arith(c, i->rm, op, a, b));                                  \
    }

#define S_ARITH(id, op, expr, zero_exact)                                  \
    SEMANTICS(id)                                                          \
    {                                                                      \
        uint64_t a = RS1, b = RS2;                                         \
        if (likely(al_fp_fast(c, i->rm))) {                                \
            uint32_t xb = al_s_to_f32(a), yb = al_s_to_f32(b);             \
            float x = f32_of(xb), y = f32_of(yb);                          \
            uint32_t r = bits32(expr);                                     \
            if (likely(f_ordinary(r) || (zero32(r) && (zero_exact)))) {    \
                WRD(al_s_from_f32(r));                                     \
                return;                                                    \
            }                                                              \
        }                                                                  \
        WRD(s_arith(c, i->rm, op, a, b));                                  \
    }

T_ARITH(ADDT, OP_ADD, x + y, true)
T_ARITH(SUBT, OP_SUB, x - y, true)
T_ARITH(MULT, OP_MUL, x * y, zero64(xb) || zero64(yb))
T_ARITH(DIVT, OP_DIV, x / y, zero64(xb))
S_ARITH(ADDS, OP_ADD, x + y, true)
S_ARITH(SUBS, OP_SUB, x - y, true)
S_ARITH(MULS, OP_MUL, x * y, zero32(xb) || zero32(yb))
S_ARITH(DIVS, OP_DIV, x / y, zero32(xb))

/* sqrt of a positive finite nonzero operand is an ordinary result. */
SEMANTICS(SQRTT)
{
    uint64_t b = RS1;
    if (likely(al_fp_fast(c, i->rm) && b - 1 < AL_T_INF - 1)) {
        WRD(bits64(__builtin_sqrt(f64_of(b))));
        return;
    }
    WRD(t_arith(c, i->rm, OP_SQRT, 0, b));
}

SEMANTICS(SQRTS)
{
    uint64_t b = RS1;
    uint32_t f = al_s_to_f32(b);
    if (likely(al_fp_fast(c, i->rm) && f - 1 < AL_F_INF - 1)) {
        WRD(al_s_from_f32(bits32(__builtin_sqrtf(f32_of(f)))));
        return;
    }
    WRD(s_arith(c, i->rm, OP_SQRT, 0, b));
}

/* ---- compares: 2.0 if true, +0 if not --------------------------------------------------- */
enum cmp { CMP_UN, CMP_EQ, CMP_LT, CMP_LE };

/* cmpteq and cmptun are quiet (invalid only for a signaling NaN); cmptlt
 * and cmptle signal on any NaN.  Without /S, NaN and denormal operands
 * trap first (infinities compare). */
static inline uint64_t compare(cpu_t *c, const insn_t *i, uint64_t a, uint64_t b, enum cmp k)
{
    if (!(i->rm & AL_Q_S)) {
        al_fp_check_input(c, a, true);
        al_fp_check_input(c, b, true);
    }
    if (unlikely(al_fp_dnz(c))) { a = t_flush_in(a); b = t_flush_in(b); }
    if (unlikely(al_t_nan(a) || al_t_nan(b))) {
        if (k == CMP_LT || k == CMP_LE || al_t_snan(a) || al_t_snan(b))
            al_fp_raise(c, i->rm, AL_FPCR_INV);
        return k == CMP_UN ? AL_T_TWO : 0;
    }
    double x = f64_of(a), y = f64_of(b);
    bool t = k == CMP_EQ ? x == y : k == CMP_LT ? x < y : k == CMP_LE ? x <= y : false;
    return t ? AL_T_TWO : 0;
}

SEMANTICS(CMPTUN) { WRD(compare(c, i, RS1, RS2, CMP_UN)); }
SEMANTICS(CMPTEQ) { WRD(compare(c, i, RS1, RS2, CMP_EQ)); }
SEMANTICS(CMPTLT) { WRD(compare(c, i, RS1, RS2, CMP_LT)); }
SEMANTICS(CMPTLE) { WRD(compare(c, i, RS1, RS2, CMP_LE)); }

/* ---- between S and T ------------------------------------------------------------------- */
static bool cvtts_underflowed(uint64_t b, uint32_t r, unsigned fx)
{
    enum tiny k = tiny_kind(r & ~AL_F_SIGN, AL_F_MINNORM, fx);
    if (k != TINY_ASK) return k == TINY_YES;
    return (bits32(t_to_f_host(f64_of(b), AL_RND_CHOPPED, &fx)) & ~AL_F_SIGN) < AL_F_MINNORM;
}

static uint64_t cvtts_slow(cpu_t *c, unsigned rm, uint64_t b)
{
    check_operands(c, rm, false, 0, b);
    if (al_fp_dnz(c)) b = t_flush_in(b);
    uint64_t exc = 0;
    uint32_t r;
    if (al_t_nan(b)) {
        uint64_t q = quiet_nan(&NF_T, b, &exc);     /* the fraction's top 23 bits */
        r = (uint32_t)(q >> 32 & AL_F_SIGN) | AL_F_INF | (uint32_t)((q & AL_T_FRAC) >> 29);
    } else {
        unsigned fx;
        r = bits32(t_to_f_host(f64_of(b), al_fp_round(c, rm), &fx));
        exc = exc_of_host(fx);
        if ((r & ~AL_F_SIGN) <= AL_F_MINNORM && al_fp_ftz(c, rm) && cvtts_underflowed(b, r, fx)) {
            r &= AL_F_SIGN;
            exc = 0;
        }
    }
    al_fp_exc(c, rm, exc);
    return al_s_from_f32(r);
}

SEMANTICS(CVTTS)
{
    uint64_t b = RS1;
    if (likely(al_fp_fast(c, i->rm))) {
        uint32_t r = bits32((float)f64_of(b));
        if (likely(f_ordinary(r))) { WRD(al_s_from_f32(r)); return; }
    }
    WRD(cvtts_slow(c, i->rm, b));
}

/* S to T is exact; only a signaling NaN raises (invalid). */
SEMANTICS(CVTST)
{
    uint64_t b = RS1, exc = 0, r;
    if (!(i->rm & AL_Q_S)) al_fp_check_input(c, b, false);
    uint32_t f = al_s_to_f32(b);
    if (unlikely(al_fp_dnz(c))) f = f_flush_in(f);
    if (unlikely(al_f_nan(f))) {
        uint32_t q = (uint32_t)quiet_nan(&NF_S, f, &exc);
        r = (uint64_t)(q & AL_F_SIGN) << 32 | AL_T_INF | (uint64_t)(q & AL_F_FRAC) << 29;
    } else {
        r = bits64((double)f32_of(f));
    }
    WRD(r);
    al_fp_exc(c, i->rm, exc);
}

/* ---- T to quadword ------------------------------------------------------------------------ */
/* cvttq in software: the result is the integer rounded in mode rnd, modulo
 * 2^64 when it does not fit (integer overflow and inexact, except for
 * -2^63 exactly); denormals round as a sticky bit, NaN and infinity give 0
 * and invalid. */
static uint64_t t_to_q(cpu_t *c, uint64_t x, unsigned rnd, uint64_t *exc)
{
    bool sign = x >> 63;
    int exp = (int)((x >> 52) & 0x7ff);
    uint64_t frac = x & AL_T_FRAC, q = 0, rest = 0;

    if (exp == 0x7ff) {
        *exc = AL_FPCR_INV;
        return 0;
    }
    if (exp == 0) {
        if (frac == 0 || al_fp_dnz(c)) return 0;
        rest = 1;                                     /* a sticky bit below 1/2 */
    } else {
        frac |= AL_T_MINNORM;
        int shift = exp - 1023 - 52;
        if (shift >= 0) {
            q = shift < 64 ? frac << shift : 0;
            if (shift >= 11 && x != 0xc3e0000000000000ull)  /* |x| >= 2^63, not -2^63 */
                *exc = AL_FPCR_IOV | AL_FPCR_INE;
            return sign ? -q : q;
        }
        shift = -shift;
        if (shift < 63) {
            q = frac >> shift;
            rest = frac << (64 - shift);              /* the fraction, 1/2 = bit 63 */
        } else {
            rest = 1;
        }
    }
    if (rest) {
        *exc = AL_FPCR_INE;
        const uint64_t half = 1ull << 63;
        switch (rnd) {
        case AL_RND_NORMAL:  q += rest > half || (rest == half && (q & 1)); break;
        case AL_RND_CHOPPED: break;
        case AL_RND_PLUS:    q += !sign; break;
        case AL_RND_MINUS:   q += sign; break;
        }
    }
    return sign ? -q : q;
}

/* Fast path: a normal operand below 2^63 in magnitude, chopped -- glibc's
 * integer division (cvttq/c after divt/c).  The host's truncating
 * conversion is then the result, exact unless converting it back differs
 * (a non-integer is below 2^52, where every integer is a double); no
 * operand check can trap and denormal flushing changes nothing. */
/* The general case: written before the exceptions, which may trap. */
static __attribute__((noinline)) void cvttq_slow(cpu_t *c, const insn_t *i, uint64_t b)
{
    uint64_t exc = 0;
    unsigned rm = i->rm;
    if (!(rm & AL_Q_S)) al_fp_check_input(c, b, false);
    WRD(t_to_q(c, b, al_fp_round(c, rm), &exc));
    al_fp_exc(c, rm, exc);
}

SEMANTICS(CVTTQ)
{
    uint64_t b = RS1;
    unsigned rm = i->rm, e = (unsigned)(b >> 52) & 0x7ff;
    if (likely(e - 1 < 1023 + 63 - 1) && likely(al_fp_round(c, rm) == AL_RND_CHOPPED)) {
        double x = f64_of(b);
        int64_t q = (int64_t)x;
        WRD((uint64_t)q);
        if ((double)q != x) al_fp_inexact(c, rm);
        return;
    }
    cvttq_slow(c, i, b);
}

/* ---- quadword to S and T: exact below 2^24 / 2^53; otherwise rounded on
 * the host, and inexact is only reported with /SUI. */
SEMANTICS(CVTQT)
{
    int64_t v = (int64_t)RS1;
    unsigned rm = i->rm, fx;
    if (likely(v >= -(1ll << 53) && v <= 1ll << 53)) {
        WRD(bits64((double)v));
        return;
    }
    WRD(bits64(q_to_t_host(v, al_fp_round(c, rm), &fx)));
    if (rm & AL_Q_I) al_fp_exc(c, rm, exc_of_host(fx));
}

SEMANTICS(CVTQS)
{
    int64_t v = (int64_t)RS1;
    unsigned rm = i->rm, fx;
    if (likely(v >= -(1ll << 24) && v <= 1ll << 24)) {
        WRD(al_s_from_f32(bits32((float)v)));
        return;
    }
    WRD(al_s_from_f32(bits32(q_to_f_host(v, al_fp_round(c, rm), &fx))));
    if (rm & AL_Q_I) al_fp_exc(c, rm, exc_of_host(fx));
}
