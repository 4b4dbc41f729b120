/*
 * rv64_decode.c - the RV64GC instruction table and decoder.
 *
 * The table is assembled from the .def files; decoding a 32-bit word finds
 * the first row whose mask/match fits (through an index by opcode,
 * insn_index.h), extracts operands according to the row's format
 * (renumbering registers into the unified space, steering writes of x0 to
 * REG_SINK), and classifies calls and returns by the
 * RISC-V link-register convention (x1/x5).  A 16-bit instruction is first
 * expanded into its 32-bit equivalent.  This runs once per static
 * instruction; the result is cached by the core.
 */
#define PACKAGE "hps-sim"          /* bfd.h insists */
#include <bfd.h>
#include <elf.h>
#include <fenv.h>

#include "insn_index.h"
#include "rv64.h"

const insn_def_t rv64_table[] = {
#define DEFINST(id, name, mask, match, fmt, oc, flags, msz) \
    { name, mask, match, fmt, oc, flags, msz, rv_##id },
#include "rv64_int.def"
#include "rv64_amo.def"
#include "rv64_fp.def"
#undef DEFINST
};
#define RV64_TABLE_SIZE (sizeof rv64_table / sizeof rv64_table[0])

/* ---- field extraction ----------------------------------------------------- */
static inline uint32_t bits(uint32_t w, unsigned hi, unsigned lo)
{
    return (w >> lo) & ((1u << (hi - lo + 1)) - 1);
}

static inline int64_t sext(uint64_t v, unsigned width)
{
    return (int64_t)(v << (64 - width)) >> (64 - width);
}

static int64_t imm_i(uint32_t w) { return sext(bits(w, 31, 20), 12); }
static int64_t imm_s(uint32_t w) { return sext(bits(w, 31, 25) << 5 | bits(w, 11, 7), 12); }
static int64_t imm_u(uint32_t w) { return sext(w & 0xfffff000u, 32); }

static int64_t imm_b(uint32_t w)
{
    return sext(bits(w, 31, 31) << 12 | bits(w, 7, 7) << 11 |
                bits(w, 30, 25) << 5 | bits(w, 11, 8) << 1, 13);
}

static int64_t imm_j(uint32_t w)
{
    return sext(bits(w, 31, 31) << 20 | bits(w, 19, 12) << 12 |
                bits(w, 20, 20) << 11 | bits(w, 30, 21) << 1, 21);
}

/* Unified register numbers. */
static uint8_t xsrc(uint32_t n) { return n == 0 ? REG_ZERO : (uint8_t)n; }
static uint8_t xdst(uint32_t n) { return n == 0 ? REG_SINK : (uint8_t)n; }
static uint8_t fsrc(uint32_t n) { return (uint8_t)(REG_FP0 + n); }

static void extract_operands(const insn_def_t *d, uint32_t w, insn_t *out)
{
    uint32_t rd = bits(w, 11, 7), rs1 = bits(w, 19, 15), rs2 = bits(w, 24, 20);
    out->rd = out->rs1 = out->rs2 = out->rs3 = REG_NONE;
    out->rm = (uint8_t)bits(w, 14, 12);
    switch ((rv_format_t)d->format) {
    case RVF_NONE:    break;
    case RVF_R:       out->rd = xdst(rd); out->rs1 = xsrc(rs1); out->rs2 = xsrc(rs2); break;
    case RVF_I:       out->rd = xdst(rd); out->rs1 = xsrc(rs1); out->imm = imm_i(w); break;
    case RVF_I_SHIFT: out->rd = xdst(rd); out->rs1 = xsrc(rs1); out->imm = bits(w, 25, 20); break;
    case RVF_S:       out->rs1 = xsrc(rs1); out->rs2 = xsrc(rs2); out->imm = imm_s(w); break;
    case RVF_B:       out->rs1 = xsrc(rs1); out->rs2 = xsrc(rs2); out->imm = imm_b(w); break;
    case RVF_U:       out->rd = xdst(rd); out->imm = imm_u(w); break;
    case RVF_J:       out->rd = xdst(rd); out->imm = imm_j(w); break;
    case RVF_CSR:     out->rd = xdst(rd); out->rs1 = xsrc(rs1); out->imm = bits(w, 31, 20); break;
    case RVF_CSRI:    out->rd = xdst(rd); out->rm = (uint8_t)rs1; out->imm = bits(w, 31, 20); break;
    case RVF_AMO:     out->rd = xdst(rd); out->rs1 = xsrc(rs1); out->rs2 = xsrc(rs2);
                      out->rm = (uint8_t)bits(w, 26, 25); break;
    case RVF_FLOAD:   out->rd = fsrc(rd); out->rs1 = xsrc(rs1); out->imm = imm_i(w); break;
    case RVF_FSTORE:  out->rs1 = xsrc(rs1); out->rs2 = fsrc(rs2); out->imm = imm_s(w); break;
    case RVF_R_FFF:   out->rd = fsrc(rd); out->rs1 = fsrc(rs1); out->rs2 = fsrc(rs2); break;
    case RVF_R_FF:    out->rd = fsrc(rd); out->rs1 = fsrc(rs1); break;
    case RVF_R_IFF:   out->rd = xdst(rd); out->rs1 = fsrc(rs1); out->rs2 = fsrc(rs2); break;
    case RVF_R_IF:    out->rd = xdst(rd); out->rs1 = fsrc(rs1); break;
    case RVF_R_FI:    out->rd = fsrc(rd); out->rs1 = xsrc(rs1); break;
    case RVF_R4:      out->rd = fsrc(rd); out->rs1 = fsrc(rs1); out->rs2 = fsrc(rs2);
                      out->rs3 = fsrc(bits(w, 31, 27)); break;
    case RVF_COUNT:   break;
    }
}

static bool is_link(uint32_t r) { return r == 1 || r == 5; }

/* Calls and returns by the link-register hints of the unprivileged spec
 * (Table "Return-address stack prediction hints"). */
static bool is_call(uint32_t w, const insn_def_t *d)
{
    uint32_t opcode = bits(w, 6, 0);
    return (opcode == 0x6f || (opcode == 0x67 && d->exec == rv_JALR)) && is_link(bits(w, 11, 7));
}

static void classify_control(uint32_t w, const insn_def_t *d, insn_t *out)
{
    uint32_t opcode = bits(w, 6, 0), rd = bits(w, 11, 7), rs1 = bits(w, 19, 15);
    if (is_call(w, d)) {                                       /* jal, jalr */
        out->flags |= IF_CALL;
        out->opclass = OC_CALL;
    } else if (opcode == 0x67 && d->exec == rv_JALR) {
        if (rd == 0 && is_link(rs1)) {
            out->flags |= IF_RETURN;
            out->opclass = OC_RETURN;
        }
    }
}

/* The table indexed by major opcode (bits 6:0); built on the first decode. */
static insn_index_t rows_by_opcode;

static const insn_def_t *find_row(uint32_t w)
{
    if (!rows_by_opcode.table) insn_index_build(&rows_by_opcode, rv64_table, RV64_TABLE_SIZE, 0, 7);
    return insn_index_find(&rows_by_opcode, w);
}

bool rv_decode_word(uint64_t pc, uint32_t word, unsigned len, insn_t *out)
{
    const insn_def_t *d = find_row(word);
    memset(out, 0, sizeof *out);
    if (!d) return false;
    out->exec = d->exec;
    out->pc = pc;
    out->raw = word;
    out->op = (uint16_t)(d - rv64_table);
    out->flags = d->flags;
    out->opclass = d->opclass;
    out->memsize = d->memsize;
    out->len = (uint8_t)len;
    if (len == 2) out->flags |= IF_COMPRESSED;
    extract_operands(d, word, out);
    if (d->flags & IF_DIRECT) {
        out->target = pc + (uint64_t)out->imm;
        if (out->target <= pc) out->flags |= IF_BACKWARD;
    }
    classify_control(word, d, out);
    return true;
}

static bool rv64_decode(uint64_t pc, const uint8_t *bytes, size_t avail, insn_t *out)
{
    if (avail < 2) return false;
    uint16_t half = (uint16_t)(bytes[0] | bytes[1] << 8);
    if ((half & 3) != 3) {
        uint32_t word = rv_expand_rvc(half);
        if (!word || !rv_decode_word(pc, word, 2, out)) return false;
        out->raw = half;
        return true;
    }
    if (avail < 4 || (half & 0x1c) == 0x1c) return false;   /* >32-bit formats */
    uint32_t word = (uint32_t)half | (uint32_t)(bytes[2] | bytes[3] << 8) << 16;
    return rv_decode_word(pc, word, 4, out);
}

/* A 16-bit form that may expand to jal or jalr (c.j, RV32's c.jal; the
 * quadrant-2 funct3 100 group of c.jr, c.jalr, c.mv, c.add, c.ebreak). */
static bool rvc_may_jump(uint16_t half)
{
    unsigned quadrant = half & 3, funct3 = half >> 13;
    return (quadrant == 1 && (funct3 == 1 || funct3 == 5)) || (quadrant == 2 && funct3 == 4);
}

/* isa_t.sweep_step: what rv64_decode would say, from the table row alone
 * (classify_control makes calls of jal and jalr only): a 16-bit form goes
 * on by 2, legal or not, and is looked up only when it may expand to a
 * jump; a 32-bit word goes on by 4 when a row fits it. */
static unsigned rv64_sweep_step(uint64_t pc, const uint8_t *bytes, size_t avail, bool *call)
{
    *call = false;
    if (avail < 2) return 2;
    uint16_t half = (uint16_t)(bytes[0] | bytes[1] << 8);
    if ((half & 3) != 3) {
        uint32_t word = rvc_may_jump(half) ? rv_expand_rvc(half) : 0;
        const insn_def_t *d = word ? find_row(word) : NULL;
        *call = d && is_call(word, d);
        return 2;
    }
    if (avail < 4 || (half & 0x1c) == 0x1c) return 2;       /* >32-bit formats */
    uint32_t word = (uint32_t)half | (uint32_t)(bytes[2] | bytes[3] << 8) << 16;
    const insn_def_t *d = find_row(word);
    if (!d) return 2;
    *call = is_call(word, d);
    return 4;
}

/* hps.* (custom-0) decode only in the runtime's address space (the core
 * asks here when mem_t.special_ops is set); elsewhere custom-0 matches no
 * row and stays illegal (rv64_hps.c). */
static bool rv64_decode_special(uint64_t pc, const uint8_t *bytes, size_t avail,
                                const exec_fn ops[HPS_OP_COUNT], insn_t *out)
{
    if (avail < 4) return false;
    uint32_t word = (uint32_t)(bytes[0] | bytes[1] << 8 | bytes[2] << 16 | (uint32_t)bytes[3] << 24);
    if ((word & 0x7f) != RV_OPCODE_CUSTOM0) return false;
    return rv_decode_hps(pc, word, RV64_TABLE_SIZE, ops, out);
}

static const char *const abi_names[32] = {
    "zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1",
    "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7",
    "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"
};
static const char *const fp_abi_names[32] = {
    "ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0",
    "fa1", "fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5",
    "fs6", "fs7", "fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11"
};
static const char *const dise_names[REG_DISE_COUNT] = {
    "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
    "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15"
};

static const char *rv64_reg_name(unsigned r)
{
    if (r < 32) return abi_names[r];
    if (r < 64) return fp_abi_names[r - 32];
    if (r < REG_DISE0 + REG_DISE_COUNT) return dise_names[r - REG_DISE0];
    if (r == REG_ZERO || r == REG_SINK) return "zero";
    return "?";
}

/* Host FP state belongs to the guest only while it runs (see rv64_fp.c). */
static void rv64_run_enter(cpu_t *c) { rv_fp_set_fflags(c, c->fflags); }

static void rv64_run_leave(cpu_t *c)
{
    c->fflags = rv_fp_get_fflags(c);
    rv_fp_set_fflags(c, c->fflags);      /* clears host flags */
    fesetround(FE_TONEAREST);
}

const isa_t isa_rv64 = {
    .name = "rv64gc",
    .elf_machine = EM_RISCV,
    .page_size = 4096,
    .insn_align = 2,
    .nop = { 0x13, 0, 0, 0 },             /* addi x0, x0, 0 */
    .table = rv64_table,
    .table_size = RV64_TABLE_SIZE,
    .decode = rv64_decode,
    .decode_special = rv64_decode_special,
    .sweep_step = rv64_sweep_step,
    .bfd_arch = bfd_arch_riscv,
    .bfd_mach = bfd_mach_riscv64,
    .reg_name = rv64_reg_name,
    .run_enter = rv64_run_enter,
    .run_leave = rv64_run_leave,
};
