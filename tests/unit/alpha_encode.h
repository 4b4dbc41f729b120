/*
 * alpha_encode.h - a tiny Alpha assembler for the unit tests: one encoder
 * per instruction format, from the layouts in the Alpha Architecture
 * Handbook, chapter 3 (opcode in bits 31:26, Ra 25:21, Rb 20:16).
 */
#ifndef HPS_TEST_ALPHA_ENCODE_H
#define HPS_TEST_ALPHA_ENCODE_H

#include <stdint.h>

/* Memory format: ldq ra, disp(rb) and friends. */
static inline uint32_t al_mem(uint32_t op, uint32_t ra, uint32_t rb, int32_t disp)
{
    return op << 26 | ra << 21 | rb << 16 | ((uint32_t)disp & 0xffff);
}

/* Operate format, register Rb: op ra, rb, rc. */
static inline uint32_t al_opr(uint32_t op, uint32_t fn, uint32_t ra, uint32_t rb, uint32_t rc)
{
    return op << 26 | ra << 21 | rb << 16 | fn << 5 | rc;
}

/* Operate format, 8-bit literal: op ra, #lit, rc. */
static inline uint32_t al_opr_lit(uint32_t op, uint32_t fn, uint32_t ra, uint32_t lit, uint32_t rc)
{
    return op << 26 | ra << 21 | (lit & 0xff) << 13 | 1u << 12 | fn << 5 | rc;
}

/* Branch format with a displacement in instructions from pc + 4. */
static inline uint32_t al_br(uint32_t op, uint32_t ra, int32_t disp_insns)
{
    return op << 26 | ra << 21 | ((uint32_t)disp_insns & 0x1fffff);
}

/* Jumps (opcode 0x1a): kind 0 jmp, 1 jsr, 2 ret, 3 jsr_coroutine. */
static inline uint32_t al_jmp(uint32_t kind, uint32_t ra, uint32_t rb, uint32_t hint)
{
    return 0x1au << 26 | ra << 21 | rb << 16 | kind << 14 | (hint & 0x3fff);
}

/* Opcode 0x18 (barriers, rpcc, hints): function in bits 15:0. */
static inline uint32_t al_mfc(uint32_t fn, uint32_t ra, uint32_t rb)
{
    return 0x18u << 26 | ra << 21 | rb << 16 | (fn & 0xffff);
}

/* CALL_PAL function. */
static inline uint32_t al_pal(uint32_t fn) { return fn & 0x3ffffff; }

#endif /* HPS_TEST_ALPHA_ENCODE_H */
