/*
 * alpha_fp.h - the Alpha floating-point front-end's interface to the rest of
 * the simulator (the FPCR as the Linux ABI layer sees it) and the internals
 * shared by alpha_fp.c and alpha_fp_arith.c: FPCR/SWCR bits, instruction
 * qualifiers, the S-format register mapping and the exception/trap logic.
 *
 * Reference behaviour is Linux user mode as qemu-alpha implements it (the
 * differential oracle): IEEE semantics of the Alpha Architecture Handbook
 * chapter 4.7 with the kernel's software completion, where a trap whose
 * exception is disabled in the software control word (swcr) just sets the
 * sticky FPCR status bit and continues.
 *
 * The FPCR lives in cpu->fpcr in its architectural 64-bit layout (bits
 * 63:32; bits 31:0 read as zero).  It is kept exact after every
 * instruction, so syscall code may read and write cpu->fpcr and cpu->swcr
 * at any time; everything derived from them (trap enables, denormal
 * flushing, the dynamic rounding mode) is recomputed where it is used.
 */
#ifndef HPS_ALPHA_FP_H
#define HPS_ALPHA_FP_H

#include <stdbool.h>
#include <stdint.h>

#include "alpha.h"

/* ---- FPCR (Handbook 4.7.8) ------------------------------------------------- */
#define AL_FPCR_SUM       (1ull << 63)   /* summary (not maintained, as qemu)  */
#define AL_FPCR_INED      (1ull << 62)   /* inexact trap disable               */
#define AL_FPCR_UNFD      (1ull << 61)   /* underflow trap disable             */
#define AL_FPCR_UNDZ      (1ull << 60)   /* underflow to zero (with UNFD)      */
#define AL_FPCR_DYN_SHIFT 58             /* dynamic rounding mode, bits 59:58  */
#define AL_FPCR_DYN_MASK  (3ull << 58)
#define AL_FPCR_IOV       (1ull << 57)   /* sticky status: integer overflow    */
#define AL_FPCR_INE       (1ull << 56)   /*   inexact                          */
#define AL_FPCR_UNF       (1ull << 55)   /*   underflow                        */
#define AL_FPCR_OVF       (1ull << 54)   /*   overflow                         */
#define AL_FPCR_DZE       (1ull << 53)   /*   division by zero                 */
#define AL_FPCR_INV       (1ull << 52)   /*   invalid operation                */
#define AL_FPCR_OVFD      (1ull << 51)   /* overflow trap disable              */
#define AL_FPCR_DZED      (1ull << 50)   /* division by zero trap disable      */
#define AL_FPCR_INVD      (1ull << 49)   /* invalid operation trap disable     */
#define AL_FPCR_DNZ       (1ull << 48)   /* denormal operands to zero          */
#define AL_FPCR_DNOD      (1ull << 47)   /* denormal operand trap disable      */
#define AL_FPCR_STATUS    (AL_FPCR_IOV | AL_FPCR_INE | AL_FPCR_UNF | AL_FPCR_OVF | \
                           AL_FPCR_DZE | AL_FPCR_INV)
#define AL_FPCR_MASK      0xffffffff00000000ull   /* bits mt_fpcr keeps       */

/* Dynamic rounding field values (and the qualifier rounding codes below). */
enum { AL_RND_CHOPPED = 0, AL_RND_MINUS = 1, AL_RND_NORMAL = 2, AL_RND_PLUS = 3 };

/* The FPCR a Linux process starts with: every trap disabled, denormal
 * operand trap disabled, round to nearest (qemu-alpha linux-user, and the
 * kernel's initial thread state). */
#define AL_FPCR_LINUX_INIT (AL_FPCR_INVD | AL_FPCR_DZED | AL_FPCR_OVFD | AL_FPCR_UNFD | \
                            AL_FPCR_INED | AL_FPCR_DNOD |                             \
                            ((uint64_t)AL_RND_NORMAL << AL_FPCR_DYN_SHIFT))

/* ---- Linux software FP control word (asm/fpu.h, IEEE_*) -------------------- */
#define AL_SWCR_TRAP_ENABLE_INV (1ull << 1)
#define AL_SWCR_TRAP_ENABLE_DZE (1ull << 2)
#define AL_SWCR_TRAP_ENABLE_OVF (1ull << 3)
#define AL_SWCR_TRAP_ENABLE_UNF (1ull << 4)
#define AL_SWCR_TRAP_ENABLE_INE (1ull << 5)
#define AL_SWCR_TRAP_ENABLE_DNO (1ull << 6)
#define AL_SWCR_MAP_DMZ         (1ull << 12)   /* denormal operands to zero  */
#define AL_SWCR_MAP_UMZ         (1ull << 13)   /* underflow results to zero  */
#define AL_SWCR_STATUS_SHIFT    17             /* status INV..DNO, bits 22:17 */

/* ---- interface for the Linux ABI layer -------------------------------------- */
/* Process start: the Linux initial FPCR, an empty software control word. */
void al_fp_init(cpu_t *c);
/* The FPCR exactly as mf_fpcr would read it now (status bits included). */
uint64_t al_fp_fpcr(const cpu_t *c);
/* Replace the FPCR as mt_fpcr does.  Trap enables and the denormal/underflow
 * mappings are taken from cpu->fpcr and cpu->swcr at each use, so after
 * osf_setsysinfo(SSI_IEEE_FP_CONTROL) just store both. */
void al_fp_set_fpcr(cpu_t *c, uint64_t fpcr);

/* ======================================================================
 * Internals of the FP front-end (alpha_fp.c, alpha_fp_arith.c)
 * ====================================================================== */

/* ---- qualifiers: insn->rm holds instruction bits 15:11 ---------------------
 *   bit 4 /S software completion, bit 3 /I inexact enable,
 *   bit 2 /U underflow enable (/V integer overflow for cvttq, cvtql),
 *   bits 1:0 rounding: 0 /C chopped, 1 /M minus infinity, 2 normal, 3 /D. */
enum { AL_Q_S = 0x10, AL_Q_I = 0x08, AL_Q_U = 0x04, AL_Q_RND = 0x03, AL_Q_DYN = 3 };

/* The rounding mode an instruction uses (AL_RND_*), /D resolved. */
static inline unsigned al_fp_round(const cpu_t *c, unsigned rm)
{
    unsigned r = rm & AL_Q_RND;
    return r == AL_Q_DYN ? (unsigned)(c->fpcr >> AL_FPCR_DYN_SHIFT) & 3 : r;
}

/* Denormal operands are read as zero (FPCR.DNZ or the swcr's MAP_DMZ). */
static inline bool al_fp_dnz(const cpu_t *c)
{
    return (c->fpcr & AL_FPCR_DNZ) || (c->swcr & AL_SWCR_MAP_DMZ);
}

/* Tiny results become zero without any exception: always without /U,
 * otherwise when FPCR.UNDZ and UNFD are both set or the swcr maps them. */
static inline bool al_fp_ftz(const cpu_t *c, unsigned rm)
{
    if (!(rm & AL_Q_U)) return true;
    return ((c->fpcr & AL_FPCR_UNDZ) && (c->fpcr & AL_FPCR_UNFD)) ||
           (c->swcr & AL_SWCR_MAP_UMZ);
}

/* Whether an instruction may take the fast path: /S without /I (only
 * exceptions that show in the result can matter), rounding to nearest,
 * no denormal flushing. */
static inline bool al_fp_fast(const cpu_t *c, unsigned rm)
{
    return (rm & (AL_Q_S | AL_Q_I)) == AL_Q_S && al_fp_round(c, rm) == AL_RND_NORMAL &&
           !al_fp_dnz(c);
}

/* Record exceptions `exc` (AL_FPCR status bits) raised by an instruction
 * with qualifiers rm; traps (stops the run with SIGFPE) when the trap is
 * taken.  Without /S every exception is recorded and any one the
 * qualifiers do not ignore traps; with /S only the unignored ones are
 * recorded and trap only if enabled (the kernel's software completion). */
void al_fp_raise(cpu_t *c, unsigned rm, uint64_t exc);
static inline void al_fp_exc(cpu_t *c, unsigned rm, uint64_t exc)
{
    if (unlikely(exc)) al_fp_raise(c, rm, exc);
}

/* al_fp_exc(c, rm, AL_FPCR_INE) without the call where it cannot trap:
 * without /I inexact is only recorded (without /S) or ignored (with /S). */
static inline void al_fp_inexact(cpu_t *c, unsigned rm)
{
    if (likely(!(rm & AL_Q_I))) {
        if (!(rm & AL_Q_S)) c->fpcr |= AL_FPCR_INE;
        return;
    }
    al_fp_raise(c, rm, AL_FPCR_INE);
}

/* Without /S a non-finite or denormal operand traps before the operation
 * (compares accept infinities): operand checks for those instructions. */
void al_fp_check_input(cpu_t *c, uint64_t v, bool is_compare);

/* ---- T and S formats ------------------------------------------------------- */
#define AL_T_SIGN     0x8000000000000000ull
#define AL_T_FRAC     0x000fffffffffffffull
#define AL_T_INF      0x7ff0000000000000ull
#define AL_T_QUIET    0x0008000000000000ull
#define AL_T_MINNORM  0x0010000000000000ull
#define AL_T_DEFNAN   0x7ff8000000000000ull  /* the NaN invalid operations give */
#define AL_T_TWO      0x4000000000000000ull  /* 2.0: a true compare             */
#define AL_F_SIGN     0x80000000u
#define AL_F_FRAC     0x007fffffu
#define AL_F_INF      0x7f800000u
#define AL_F_QUIET    0x00400000u
#define AL_F_MINNORM  0x00800000u
#define AL_F_DEFNAN   0x7fc00000u

static inline bool al_t_nan(uint64_t x) { return (x & ~AL_T_SIGN) > AL_T_INF; }
static inline bool al_t_snan(uint64_t x) { return al_t_nan(x) && !(x & AL_T_QUIET); }
static inline bool al_f_nan(uint32_t x) { return (x & ~AL_F_SIGN) > AL_F_INF; }
static inline bool al_f_snan(uint32_t x) { return al_f_nan(x) && !(x & AL_F_QUIET); }

/* S_floating in a register is held in T layout: the 8-bit exponent is
 * widened to 11 bits (Handbook 4.7.1; Linux's s_mem_to_reg).  The inverse
 * keeps bits 63:62 and 58:29, so non-canonical values are truncated. */
static inline uint64_t al_s_from_f32(uint32_t f)
{
    uint64_t sign = f >> 31, msb = (f >> 30) & 1, low = (f >> 23) & 0x7f;
    uint64_t exp = msb << 10 | low;
    if (msb ? low == 0x7f : low != 0) exp |= msb ? 0x7ff : 0x380;
    return sign << 63 | exp << 52 | (uint64_t)(f & AL_F_FRAC) << 29;
}

static inline uint32_t al_s_to_f32(uint64_t r)
{
    return (uint32_t)(((r >> 32) & 0xc0000000u) | ((r >> 29) & 0x3fffffffu));
}

#endif /* HPS_ALPHA_FP_H */
