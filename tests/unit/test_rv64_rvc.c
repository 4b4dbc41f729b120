/*
 * test_rv64_rvc.c - unit tests of the RV64C expander (rv_expand_rvc) and of
 * compressed instructions through the decoder.
 *
 * Expected values come from two independent sources: a table of encodings
 * produced by the GNU assembler (riscv64-linux-gnu-as, compressed form and
 * its base-ISA equivalent), and exhaustive sweeps that build halfwords by
 * scattering immediates according to the layout strings printed in the RVC
 * chapter of the unprivileged spec (e.g. "5:4|9:6|2|3") and compare against
 * a small 32-bit encoder.  Reserved encodings must expand to 0; HINTs must
 * expand to their base-ISA equivalents.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "rv_encode.h"
#include "core.h"
#include "mem.h"
#include "rv64.h"

/* ---- 32-bit encoders ------------------------------------------------------- */
enum {
    LOAD = 0x03, LOAD_FP = 0x07, OP_IMM = 0x13, OP_IMM32 = 0x1b, STORE = 0x23,
    STORE_FP = 0x27, OP = 0x33, LUI = 0x37, OP_32 = 0x3b, JALR = 0x67, SYSTEM = 0x73
};

/* ---- compressed encoders, from the spec's layout strings ---------------- */
/* Place the bits of imm named by `layout` (spec notation, most significant
 * halfword bit first, e.g. "5:4|9:6|2|3") into halfword bits top, top-1, ... */
static uint16_t scatter(uint32_t imm, unsigned top, const char *layout)
{
    uint16_t h = 0;
    int pos = (int)top;
    const char *p = layout;
    while (*p) {
        char *end;
        long hi = strtol(p, &end, 10), lo = hi;
        if (*end == ':') lo = strtol(end + 1, &end, 10);
        for (long b = hi; b >= lo; b--, pos--)
            h |= (uint16_t)((imm >> b & 1) << pos);
        p = *end == '|' ? end + 1 : end;
    }
    assert_true(pos >= 1);
    return h;
}

/* Fixed fields: quadrant, funct3 and register slots. */
static uint16_t ch(unsigned quadrant, unsigned f3) { return (uint16_t)(f3 << 13 | quadrant); }
static uint16_t at(unsigned v, unsigned lo) { return (uint16_t)(v << lo); }

/* x8..x15 as the 3-bit register fields of the CIW/CL/CS/CA/CB formats. */
static unsigned p(unsigned reg) { return reg - 8; }

static int32_t sext(uint32_t v, unsigned width)
{
    uint32_t sign = 1u << (width - 1);
    return (int32_t)((v ^ sign) - sign);
}

/* ---- assembler-checked vectors ----------------------------------------- */
typedef struct vec { uint16_t half; uint32_t word; const char *text; } vec_t;

static const vec_t gas_vectors[] = {
    { 0x1fe8, 0x3fc10513, "c.addi4spn a0,sp,1020" },
    { 0x3ffc, 0x0f87b787, "c.fld fa5,248(a5)" },
    { 0x5d64, 0x07c52483, "c.lw s1,124(a0)" },
    { 0x7c78, 0x0f843703, "c.ld a4,248(s0)" },
    { 0xa580, 0x0085b427, "c.fsd fs0,8(a1)" },
    { 0xc2b0, 0x04c6a023, "c.sw a2,64(a3)" },
    { 0xe4dc, 0x08f4b423, "c.sd a5,136(s1)" },
    { 0x0001, 0x00000013, "c.nop" },
    { 0x1281, 0xfe028293, "c.addi t0,-32" },
    { 0x257d, 0x01f5051b, "c.addiw a0,31" },
    { 0x397d, 0xfff9091b, "c.addiw s2,-1" },
    { 0x50e5, 0xff900093, "c.li ra,-7" },
    { 0x7101, 0xe0010113, "c.addi16sp sp,-512" },
    { 0x617d, 0x1f010113, "c.addi16sp sp,496" },
    { 0x7301, 0xfffe0337, "c.lui t1,0xfffe0" },
    { 0x637d, 0x0001f337, "c.lui t1,0x1f" },
    { 0x907d, 0x03f45413, "c.srli s0,63" },
    { 0x8785, 0x4017d793, "c.srai a5,1" },
    { 0x9a7d, 0xfff67613, "c.andi a2,-1" },
    { 0x8c05, 0x40940433, "c.sub s0,s1" },
    { 0x8d2d, 0x00b54533, "c.xor a0,a1" },
    { 0x8e55, 0x00d66633, "c.or a2,a3" },
    { 0x8f7d, 0x00f77733, "c.and a4,a5" },
    { 0x9c1d, 0x40f4043b, "c.subw s0,a5" },
    { 0x9db1, 0x00c585bb, "c.addw a1,a2" },
    { 0xb001, 0x801ff06f, "c.j .-2048" },
    { 0xaffd, 0x7fe0006f, "c.j .+2046" },
    { 0xa02d, 0x02a0006f, "c.j .+42" },
    { 0xd101, 0xf00500e3, "c.beqz a0,.-256" },
    { 0xd3dd, 0xfa0783e3, "c.beqz a5,.-90" },
    { 0xecfd, 0x0e049f63, "c.bnez s1,.+254" },
    { 0x1f86, 0x021f9f93, "c.slli t6,33" },
    { 0x307e, 0x1f813007, "c.fldsp ft0,504(sp)" },
    { 0x50fe, 0x0fc12083, "c.lwsp ra,252(sp)" },
    { 0x7dfe, 0x1f813d83, "c.ldsp s11,504(sp)" },
    { 0x8082, 0x00008067, "c.jr ra" },
    { 0x857e, 0x01f00533, "c.mv a0,t6" },
    { 0x9002, 0x00100073, "c.ebreak" },
    { 0x9282, 0x000280e7, "c.jalr t0" },
    { 0x912a, 0x00a10133, "c.add sp,a0" },
    { 0xbfee, 0x1fb13c27, "c.fsdsp fs11,504(sp)" },
    { 0xdffe, 0x0ff12e23, "c.swsp t6,252(sp)" },
    { 0xe006, 0x00113023, "c.sdsp ra,0(sp)" },
};

static void expect_expansion(uint16_t half, uint32_t word)
{
    uint32_t got = rv_expand_rvc(half);
    if (got != word)
        fail_msg("expand(0x%04x) = 0x%08x, expected 0x%08x", half, got, word);
}

static void test_assembler_vectors(void **state)
{
    (void)state;
    for (size_t k = 0; k < sizeof gas_vectors / sizeof gas_vectors[0]; k++) {
        uint32_t got = rv_expand_rvc(gas_vectors[k].half);
        if (got != gas_vectors[k].word)
            fail_msg("%s: 0x%04x -> 0x%08x, expected 0x%08x", gas_vectors[k].text,
                     gas_vectors[k].half, got, gas_vectors[k].word);
    }
}

/* ---- quadrant 0 ------------------------------------------------------------ */
static void test_q0_addi4spn(void **state)
{
    (void)state;
    for (unsigned rd = 8; rd < 16; rd++)
        for (uint32_t imm = 4; imm < 1024; imm += 4)
            expect_expansion(ch(0, 0) | at(p(rd), 2) | scatter(imm, 12, "5:4|9:6|2|3"),
                             enc_i((int32_t)imm, 2, 0, rd, OP_IMM));
}

static void test_q0_loads_stores(void **state)
{
    (void)state;
    for (unsigned r1 = 8; r1 < 16; r1++)
        for (unsigned r2 = 8; r2 < 16; r2++) {
            uint16_t regs = at(p(r1), 7) | at(p(r2), 2);
            for (uint32_t off = 0; off < 256; off += 8) {
                uint16_t d = scatter(off, 12, "5:3") | scatter(off, 6, "7:6");
                expect_expansion(ch(0, 1) | regs | d, enc_i((int32_t)off, r1, 3, r2, LOAD_FP));
                expect_expansion(ch(0, 3) | regs | d, enc_i((int32_t)off, r1, 3, r2, LOAD));
                expect_expansion(ch(0, 5) | regs | d, enc_s((int32_t)off, r2, r1, 3, STORE_FP));
                expect_expansion(ch(0, 7) | regs | d, enc_s((int32_t)off, r2, r1, 3, STORE));
            }
            for (uint32_t off = 0; off < 128; off += 4) {
                uint16_t w = scatter(off, 12, "5:3") | scatter(off, 6, "2|6");
                expect_expansion(ch(0, 2) | regs | w, enc_i((int32_t)off, r1, 2, r2, LOAD));
                expect_expansion(ch(0, 6) | regs | w, enc_s((int32_t)off, r2, r1, 2, STORE));
            }
        }
}

/* ---- quadrant 1 ------------------------------------------------------------ */
static uint16_t ci_imm(uint32_t imm6) { return scatter(imm6, 12, "5") | scatter(imm6, 6, "4:0"); }

static void test_q1_addi_addiw_li(void **state)
{
    (void)state;
    for (unsigned rd = 0; rd < 32; rd++)
        for (uint32_t u = 0; u < 64; u++) {
            int32_t imm = sext(u, 6);
            uint16_t f = at(rd, 7) | ci_imm(u);
            expect_expansion(ch(1, 0) | f, enc_i(imm, rd, 0, rd, OP_IMM));      /* c.addi */
            expect_expansion(ch(1, 2) | f, enc_i(imm, 0, 0, rd, OP_IMM));       /* c.li   */
            if (rd != 0)
                expect_expansion(ch(1, 1) | f, enc_i(imm, rd, 0, rd, OP_IMM32)); /* c.addiw */
        }
}

static void test_q1_addi16sp_lui(void **state)
{
    (void)state;
    for (uint32_t imm = 16; imm < 1024; imm += 16)
        expect_expansion(ch(1, 3) | at(2, 7) | scatter(imm, 12, "9") | scatter(imm, 6, "4|6|8:7|5"),
                         enc_i(sext(imm, 10), 2, 0, 2, OP_IMM));
    for (unsigned rd = 0; rd < 32; rd++) {
        if (rd == 2) continue;
        for (uint32_t imm = 1u << 12; imm < 1u << 18; imm += 1u << 12)
            expect_expansion(ch(1, 3) | at(rd, 7) | scatter(imm, 12, "17") |
                             scatter(imm, 6, "16:12"),
                             enc_u(sext(imm, 18) >> 12, rd));
    }
}

static void test_q1_shifts_andi(void **state)
{
    (void)state;
    for (unsigned rd = 8; rd < 16; rd++)
        for (uint32_t u = 0; u < 64; u++) {
            uint16_t f = ch(1, 4) | at(p(rd), 7) | ci_imm(u);
            expect_expansion(f | at(0, 10), enc_i((int32_t)u, rd, 5, rd, OP_IMM));          /* srli */
            expect_expansion(f | at(1, 10), enc_i((int32_t)(0x400 | u), rd, 5, rd, OP_IMM)); /* srai */
            expect_expansion(f | at(2, 10), enc_i(sext(u, 6), rd, 7, rd, OP_IMM));          /* andi */
        }
}

static void test_q1_register_ops(void **state)
{
    (void)state;
    static const struct { unsigned b12, f2; uint32_t f7, f3, op; } ops[] = {
        { 0, 0, 0x20, 0, OP },    { 0, 1, 0, 4, OP }, { 0, 2, 0, 6, OP }, { 0, 3, 0, 7, OP },
        { 1, 0, 0x20, 0, OP_32 }, { 1, 1, 0, 0, OP_32 },
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++)
        for (unsigned rd = 8; rd < 16; rd++)
            for (unsigned rs2 = 8; rs2 < 16; rs2++)
                expect_expansion(ch(1, 4) | at(ops[k].b12, 12) | at(3, 10) | at(p(rd), 7) |
                                 at(ops[k].f2, 5) | at(p(rs2), 2),
                                 enc_r(ops[k].f7, rs2, rd, ops[k].f3, rd, ops[k].op));
}

static void test_q1_jump_branches(void **state)
{
    (void)state;
    for (uint32_t u = 0; u < 4096; u += 2)
        expect_expansion(ch(1, 5) | scatter(u, 12, "11|4|9:8|10|6|7|3:1|5"),
                         enc_j(sext(u, 12), 0));
    for (unsigned rs1 = 8; rs1 < 16; rs1++)
        for (uint32_t u = 0; u < 512; u += 2) {
            uint16_t f = at(p(rs1), 7) | scatter(u, 12, "8|4:3") | scatter(u, 6, "7:6|2:1|5");
            expect_expansion(ch(1, 6) | f, enc_b(sext(u, 9), 0, rs1, 0));
            expect_expansion(ch(1, 7) | f, enc_b(sext(u, 9), 0, rs1, 1));
        }
}

/* ---- quadrant 2 ------------------------------------------------------------ */
static void test_q2_slli(void **state)
{
    (void)state;
    for (unsigned rd = 0; rd < 32; rd++)
        for (uint32_t u = 0; u < 64; u++)
            expect_expansion(ch(2, 0) | at(rd, 7) | ci_imm(u),
                             enc_i((int32_t)u, rd, 1, rd, OP_IMM));
}

static void test_q2_sp_loads_stores(void **state)
{
    (void)state;
    for (unsigned r = 0; r < 32; r++) {
        for (uint32_t off = 0; off < 512; off += 8) {
            uint16_t l = at(r, 7) | scatter(off, 12, "5") | scatter(off, 6, "4:3|8:6");
            uint16_t s = at(r, 2) | scatter(off, 12, "5:3|8:6");
            expect_expansion(ch(2, 1) | l, enc_i((int32_t)off, 2, 3, r, LOAD_FP));
            if (r != 0) expect_expansion(ch(2, 3) | l, enc_i((int32_t)off, 2, 3, r, LOAD));
            expect_expansion(ch(2, 5) | s, enc_s((int32_t)off, r, 2, 3, STORE_FP));
            expect_expansion(ch(2, 7) | s, enc_s((int32_t)off, r, 2, 3, STORE));
        }
        for (uint32_t off = 0; off < 256; off += 4) {
            uint16_t l = at(r, 7) | scatter(off, 12, "5") | scatter(off, 6, "4:2|7:6");
            uint16_t s = at(r, 2) | scatter(off, 12, "5:2|7:6");
            if (r != 0) expect_expansion(ch(2, 2) | l, enc_i((int32_t)off, 2, 2, r, LOAD));
            expect_expansion(ch(2, 6) | s, enc_s((int32_t)off, r, 2, 2, STORE));
        }
    }
}

static void test_q2_jr_mv_ebreak_jalr_add(void **state)
{
    (void)state;
    for (unsigned rd = 0; rd < 32; rd++)
        for (unsigned rs2 = 0; rs2 < 32; rs2++) {
            uint16_t f = at(rd, 7) | at(rs2, 2);
            uint16_t h0 = ch(2, 4) | f, h1 = h0 | at(1, 12);
            if (rs2 != 0) {
                expect_expansion(h0, enc_r(0, rs2, 0, 0, rd, OP));        /* c.mv  */
                expect_expansion(h1, enc_r(0, rs2, rd, 0, rd, OP));       /* c.add */
            } else if (rd != 0) {
                expect_expansion(h0, enc_i(0, rd, 0, 0, JALR));           /* c.jr   */
                expect_expansion(h1, enc_i(0, rd, 0, 1, JALR));           /* c.jalr */
            } else {
                expect_expansion(h1, 0x00100073);                         /* c.ebreak */
            }
        }
}

/* ---- reserved, illegal and HINT encodings ------------------------------ */
static void test_reserved_encodings(void **state)
{
    (void)state;
    assert_int_equal(rv_expand_rvc(0x0000), 0);                       /* defined illegal */
    for (unsigned rd = 8; rd < 16; rd++)                              /* addi4spn, nzuimm=0 */
        assert_int_equal(rv_expand_rvc(ch(0, 0) | at(p(rd), 2)), 0);
    for (unsigned low = 0; low < 1u << 11; low++)                     /* q0 funct3=100 */
        assert_int_equal(rv_expand_rvc(ch(0, 4) | at(low, 2)), 0);
    for (uint32_t u = 0; u < 64; u++)                                 /* c.addiw rd=0 */
        assert_int_equal(rv_expand_rvc(ch(1, 1) | ci_imm(u)), 0);
    for (unsigned rd = 0; rd < 32; rd++)                              /* c.lui / c.addi16sp imm=0 */
        assert_int_equal(rv_expand_rvc(ch(1, 3) | at(rd, 7)), 0);
    for (unsigned rd = 0; rd < 8; rd++)                               /* reserved CA slots */
        for (unsigned rs2 = 0; rs2 < 8; rs2++)
            for (unsigned f2 = 2; f2 < 4; f2++)
                assert_int_equal(rv_expand_rvc(ch(1, 4) | at(1, 12) | at(3, 10) | at(rd, 7) |
                                               at(f2, 5) | at(rs2, 2)), 0);
    for (unsigned low = 0; low < 64; low++) {                         /* c.lwsp/c.ldsp rd=0 */
        uint16_t imm = at(low >> 5, 12) | at(low & 31, 2);
        assert_int_equal(rv_expand_rvc(ch(2, 2) | imm), 0);
        assert_int_equal(rv_expand_rvc(ch(2, 3) | imm), 0);
    }
    assert_int_equal(rv_expand_rvc(ch(2, 4)), 0);                     /* c.jr x0 */
    assert_int_equal(rv_expand_rvc(0xffff), 0);                       /* quadrant 3 */
    assert_int_equal(rv_expand_rvc(0x0513), 0);
}

/* The reserved cases above are all there is: 8 + 2048 + 64 + 32 + 128 + 64 +
 * 64 + 1 = 2409 halfwords in quadrants 0-2. */
static void test_reserved_count(void **state)
{
    (void)state;
    unsigned zero = 0;
    for (unsigned h = 0; h < 65536; h++)
        if ((h & 3) != 3 && rv_expand_rvc((uint16_t)h) == 0) zero++;
    assert_int_equal(zero, 2409);
}

static void test_hints(void **state)
{
    (void)state;
    expect_expansion(0x0001, enc_i(0, 0, 0, 0, OP_IMM));                        /* c.nop */
    expect_expansion(ch(1, 0) | ci_imm(5), enc_i(5, 0, 0, 0, OP_IMM));          /* c.nop 5 */
    expect_expansion(ch(1, 0) | at(10, 7), enc_i(0, 10, 0, 10, OP_IMM));        /* c.addi a0,0 */
    expect_expansion(ch(1, 2) | ci_imm(63), enc_i(-1, 0, 0, 0, OP_IMM));        /* c.li x0,-1 */
    expect_expansion(ch(1, 3) | ci_imm(1), enc_u(1, 0));                        /* c.lui x0,1 */
    expect_expansion(ch(1, 4) | at(p(9), 7), enc_i(0, 9, 5, 9, OP_IMM));        /* c.srli64 */
    expect_expansion(ch(1, 4) | at(1, 10) | at(p(9), 7),
                     enc_i(0x400, 9, 5, 9, OP_IMM));                            /* c.srai64 */
    expect_expansion(ch(2, 0) | at(7, 7), enc_i(0, 7, 1, 7, OP_IMM));           /* c.slli64 t2 */
    expect_expansion(ch(2, 0) | ci_imm(3), enc_i(3, 0, 1, 0, OP_IMM));          /* c.slli x0,3 */
    expect_expansion(ch(2, 4) | at(5, 2), enc_r(0, 5, 0, 0, 0, OP));           /* c.mv x0,t0 */
    expect_expansion(ch(2, 4) | at(1, 12) | at(5, 2), enc_r(0, 5, 0, 0, 0, OP));/* c.add x0,t0 */
    expect_expansion(ch(1, 1) | at(10, 7), enc_i(0, 10, 0, 10, OP_IMM32));     /* c.sext.w a0 */
}

/* Every legal expansion is a 32-bit instruction the decoder accepts (FP
 * loads and stores only once the F/D rows exist). */
static void test_every_expansion_decodes(void **state)
{
    (void)state;
    insn_t in;
    bool have_fp = rv_decode_word(0, enc_i(0, 2, 3, 0, LOAD_FP), 4, &in);
    for (unsigned h = 0; h < 65536; h++) {
        if ((h & 3) == 3) continue;
        uint32_t w = rv_expand_rvc((uint16_t)h);
        if (!w) continue;
        assert_int_equal(w & 3, 3);
        unsigned opc = w & 0x7f;
        if (!have_fp && (opc == LOAD_FP || opc == STORE_FP)) continue;
        if (!rv_decode_word(0x1000, w, 2, &in))
            fail_msg("0x%04x expands to 0x%08x, which does not decode", h, w);
        assert_int_equal(in.len, 2);
        assert_true(in.flags & IF_COMPRESSED);
    }
}

/* ---- through the decoder ---------------------------------------------------- */
static insn_t decode_half(uint64_t pc, uint16_t half)
{
    uint8_t bytes[4] = { (uint8_t)half, (uint8_t)(half >> 8), 0xff, 0xff };
    insn_t in;
    assert_true(isa_rv64.decode(pc, bytes, sizeof bytes, &in));
    assert_int_equal(in.len, 2);
    assert_true(in.flags & IF_COMPRESSED);
    assert_int_equal(in.raw, half);
    assert_int_equal(in.pc, pc);
    return in;
}

static void test_decode_compressed(void **state)
{
    (void)state;
    insn_t in = decode_half(0x2000, 0x912a);           /* c.add sp,a0 */
    assert_ptr_equal(in.exec, rv_ADD);
    assert_int_equal(in.rd, 2);
    assert_int_equal(in.rs1, 2);
    assert_int_equal(in.rs2, 10);

    in = decode_half(0x2000, 0x857e);                  /* c.mv a0,t6 */
    assert_ptr_equal(in.exec, rv_ADD);
    assert_int_equal(in.rd, 10);
    assert_int_equal(in.rs1, REG_ZERO);
    assert_int_equal(in.rs2, 31);

    in = decode_half(0x2000, 0x7c78);                  /* c.ld a4,248(s0) */
    assert_ptr_equal(in.exec, rv_LD);
    assert_int_equal(in.memsize, 8);
    assert_true(in.flags & IF_LOAD);
    assert_int_equal(in.imm, 248);

    in = decode_half(0x2000, 0xb001);                  /* c.j .-2048 */
    assert_ptr_equal(in.exec, rv_JAL);
    assert_int_equal(in.target, 0x2000 - 2048);
    assert_true(in.flags & IF_BACKWARD);

    in = decode_half(0x2000, 0xecfd);                  /* c.bnez s1,.+254 */
    assert_ptr_equal(in.exec, rv_BNE);
    assert_int_equal(in.target, 0x2000 + 254);
    assert_int_equal(in.rs1, 9);
    assert_int_equal(in.rs2, REG_ZERO);

    in = decode_half(0x2000, 0x8082);                  /* c.jr ra: return */
    assert_ptr_equal(in.exec, rv_JALR);
    assert_true(in.flags & IF_RETURN);
    assert_int_equal(in.rd, REG_SINK);

    in = decode_half(0x2000, 0x9282);                  /* c.jalr t0: call */
    assert_true(in.flags & IF_CALL);
    assert_int_equal(in.rd, 1);

    in = decode_half(0x2000, 0x0001);                  /* c.nop */
    assert_ptr_equal(in.exec, rv_ADDI);
    assert_int_equal(in.rd, REG_SINK);

    in = decode_half(0x2000, 0x9002);                  /* c.ebreak */
    assert_ptr_equal(in.exec, rv_EBREAK);

    uint8_t zero[2] = { 0, 0 }, addi16sp0[2] = { 0x01, 0x61 };
    assert_false(isa_rv64.decode(0x2000, zero, 2, &in));
    assert_false(isa_rv64.decode(0x2000, addi16sp0, 2, &in));
}

static void test_exec_compressed(void **state)
{
    (void)state;
    mem_t *m = mem_new();
    cpu_t cpu;
    cpu_init(&cpu, &isa_rv64, m);

    insn_t in = decode_half(0x2000, 0x50e5);           /* c.li ra,-7 */
    cpu.pc = 0x2002;
    in.exec(&cpu, &in);
    assert_int_equal(cpu.reg[1], (uint64_t)-7);

    cpu.reg[10] = 0x7fffffff;
    in = decode_half(0x2000, 0x2505);                  /* c.addiw a0,1 */
    in.exec(&cpu, &in);
    assert_int_equal(cpu.reg[10], 0xffffffff80000000ull);

    cpu.reg[2] = 0x10000;
    in = decode_half(0x2000, 0x7101);                  /* c.addi16sp sp,-512 */
    in.exec(&cpu, &in);
    assert_int_equal(cpu.reg[2], 0x10000 - 512);

    cpu.reg[1] = 0x4444;
    in = decode_half(0x2000, 0x8082);                  /* c.jr ra */
    in.exec(&cpu, &in);
    assert_int_equal(cpu.pc, 0x4444);

    cpu.pc = 0x2002;
    in = decode_half(0x2000, 0x9282);                  /* c.jalr t0 links pc+2 */
    cpu.reg[5] = 0x8000;
    in.exec(&cpu, &in);
    assert_int_equal(cpu.pc, 0x8000);
    assert_int_equal(cpu.reg[1], 0x2002);
    mem_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_assembler_vectors),
        cmocka_unit_test(test_q0_addi4spn),
        cmocka_unit_test(test_q0_loads_stores),
        cmocka_unit_test(test_q1_addi_addiw_li),
        cmocka_unit_test(test_q1_addi16sp_lui),
        cmocka_unit_test(test_q1_shifts_andi),
        cmocka_unit_test(test_q1_register_ops),
        cmocka_unit_test(test_q1_jump_branches),
        cmocka_unit_test(test_q2_slli),
        cmocka_unit_test(test_q2_sp_loads_stores),
        cmocka_unit_test(test_q2_jr_mv_ebreak_jalr_add),
        cmocka_unit_test(test_reserved_encodings),
        cmocka_unit_test(test_reserved_count),
        cmocka_unit_test(test_hints),
        cmocka_unit_test(test_every_expansion_decodes),
        cmocka_unit_test(test_decode_compressed),
        cmocka_unit_test(test_exec_compressed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
