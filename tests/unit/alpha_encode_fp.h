/*
 * alpha_encode_fp.h - Alpha floating-point encoders for the unit tests
 * (FP loads/stores and branches use alpha_encode.h's al_mem/al_br): the
 * floating-point operate format of the Alpha Architecture Handbook 3.3.4
 * with the 11-bit function split into qualifiers (bits 15:11) and function
 * (bits 10:5), as in Appendix C.
 */
#ifndef HPS_TEST_ALPHA_ENCODE_FP_H
#define HPS_TEST_ALPHA_ENCODE_FP_H

#include <stdint.h>

/* Major opcodes. */
enum {
    ALO_ITFP = 0x14, ALO_FLTI = 0x16, ALO_FLTL = 0x17, ALO_FPTI = 0x1c,
    ALO_LDS = 0x22, ALO_LDT = 0x23, ALO_STS = 0x26, ALO_STT = 0x27,
    ALO_FBEQ = 0x31, ALO_FBLT = 0x32, ALO_FBLE = 0x33, ALO_FBNE = 0x35,
    ALO_FBGE = 0x36, ALO_FBGT = 0x37
};

/* Qualifiers as function-field bits (fn11 bits 10:6). */
enum {
    QC = 0x000, QM = 0x040, QN = 0x080, QD = 0x0c0,        /* rounding           */
    QU = 0x100, QSU = 0x500, QSUI = 0x700,                 /* trap: arithmetic   */
    QV = 0x100, QSV = 0x500, QSVI = 0x700,                 /* trap: to integer   */
    QS_ONLY = 0x400, QI_ONLY = 0x200                       /* undefined alone    */
};

/* Opcode 0x16 functions (fn11 bits 5:0), and 0x14 square roots. */
enum {
    FN_ADDS = 0x00, FN_SUBS = 0x01, FN_MULS = 0x02, FN_DIVS = 0x03,
    FN_ADDT = 0x20, FN_SUBT = 0x21, FN_MULT = 0x22, FN_DIVT = 0x23,
    FN_CMPTUN = 0x24, FN_CMPTEQ = 0x25, FN_CMPTLT = 0x26, FN_CMPTLE = 0x27,
    FN_CVTTS = 0x2c, FN_CVTTQ = 0x2f, FN_CVTQS = 0x3c, FN_CVTQT = 0x3e,
    FN_SQRTS = 0x0b, FN_SQRTT = 0x2b
};

/* Exact 11-bit functions. */
enum {
    FN11_CVTST = 0x2ac, FN11_CVTST_S = 0x6ac,
    FN11_ITOFS = 0x004, FN11_ITOFT = 0x024, FN11_FTOIT = 0x070, FN11_FTOIS = 0x078,
    FN11_CVTLQ = 0x010, FN11_CPYS = 0x020, FN11_CPYSN = 0x021, FN11_CPYSE = 0x022,
    FN11_MT_FPCR = 0x024, FN11_MF_FPCR = 0x025,
    FN11_FCMOVEQ = 0x02a, FN11_FCMOVNE = 0x02b, FN11_FCMOVLT = 0x02c,
    FN11_FCMOVGE = 0x02d, FN11_FCMOVLE = 0x02e, FN11_FCMOVGT = 0x02f,
    FN11_CVTQL = 0x030, FN11_CVTQL_V = 0x130, FN11_CVTQL_SV = 0x530
};

/* Floating-point operate: op fa, fb, fc with an 11-bit function. */
static inline uint32_t al_fop(uint32_t op, uint32_t fn11, uint32_t fa, uint32_t fb, uint32_t fc)
{
    return op << 26 | (fa & 31) << 21 | (fb & 31) << 16 | (fn11 & 0x7ff) << 5 | (fc & 31);
}

/* An IEEE (opcode 0x16) operate: function fn with qualifier bits q. */
static inline uint32_t al_ieee(uint32_t fn, uint32_t q, uint32_t fa, uint32_t fb, uint32_t fc)
{
    return al_fop(ALO_FLTI, q | fn, fa, fb, fc);
}

#endif /* HPS_TEST_ALPHA_ENCODE_FP_H */
