/*
 * rv_encode.h - a tiny RISC-V assembler for the unit tests: one encoder per
 * 32-bit instruction format, from the bit layouts of the unprivileged spec.
 */
#ifndef HPS_TEST_RV_ENCODE_H
#define HPS_TEST_RV_ENCODE_H

#include <stdint.h>

static inline uint32_t enc_r(uint32_t f7, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t rd,
                             uint32_t op)
{
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static inline uint32_t enc_r4(uint32_t rs3, uint32_t fmt, uint32_t rs2, uint32_t rs1, uint32_t rm,
                              uint32_t rd, uint32_t op)
{
    return rs3 << 27 | fmt << 25 | rs2 << 20 | rs1 << 15 | rm << 12 | rd << 7 | op;
}

static inline uint32_t enc_i(int32_t imm, uint32_t rs1, uint32_t f3, uint32_t rd, uint32_t op)
{
    return ((uint32_t)imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static inline uint32_t enc_s(int32_t imm, uint32_t rs2, uint32_t rs1, uint32_t f3, uint32_t op)
{
    uint32_t u = (uint32_t)imm;
    return (u >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 0x1f) << 7 | op;
}

/* Conditional branch (opcode BRANCH) with byte offset off. */
static inline uint32_t enc_b(int32_t off, uint32_t rs2, uint32_t rs1, uint32_t f3)
{
    uint32_t u = (uint32_t)off;
    return (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | rs2 << 20 | rs1 << 15 |
           f3 << 12 | (u >> 1 & 0xf) << 8 | (u >> 11 & 1) << 7 | 0x63;
}

/* lui rd, imm20 */
static inline uint32_t enc_u(int32_t imm20, uint32_t rd)
{
    return ((uint32_t)imm20 & 0xfffff) << 12 | rd << 7 | 0x37;
}

/* jal rd, off */
static inline uint32_t enc_j(int32_t off, uint32_t rd)
{
    uint32_t u = (uint32_t)off;
    return (u >> 20 & 1) << 31 | (u >> 1 & 0x3ff) << 21 | (u >> 11 & 1) << 20 |
           (u >> 12 & 0xff) << 12 | rd << 7 | 0x6f;
}

#endif /* HPS_TEST_RV_ENCODE_H */
