/*
 * alpha_decode.c - the Alpha instruction table and decoder.
 *
 * The table is assembled from alpha_int.def then alpha_fp.def.  Decoding a
 * 32-bit word (always 4-byte aligned; Alpha has no compressed forms) finds
 * the first row whose mask/match fits (through an index by opcode,
 * insn_index.h) and extracts operands according to
 * the row's format, renumbering registers into the unified space: r31/f31
 * reads become REG_ZERO/REG_FZERO, writes REG_SINK.  Calls, returns and
 * jumps are classified by opcode and jump kind in the rows themselves, so
 * nothing here inspects registers.  FP operate rows are also shown to
 * al_fp_decode_check(), which rejects illegal qualifier combinations.  The
 * DISE runtime's hps.* words (OPC01) decode only inside its region
 * (alpha_hps.c).  This runs once per static instruction; the result is
 * cached by the core.
 */
#define PACKAGE "hps-sim"          /* bfd.h insists */
#include <bfd.h>
#include <elf.h>
#include <string.h>

#include "alpha.h"
#include "insn_index.h"

static const insn_def_t alpha_insns[] = {
#define DEFINST(id, name, mask, match, fmt, oc, flags, msz) \
    { name, mask, match, fmt, oc, flags, msz, al_##id },
#include "alpha_int.def"
#include "alpha_fp.def"
#undef DEFINST
};
#define ALPHA_TABLE_SIZE (sizeof alpha_insns / sizeof alpha_insns[0])

/* ---- field extraction ----------------------------------------------------- */
static inline uint32_t bits(uint32_t w, unsigned hi, unsigned lo)
{
    return (w >> lo) & ((1u << (hi - lo + 1)) - 1);
}

static inline int64_t sext(uint64_t v, unsigned width)
{
    return (int64_t)(v << (64 - width)) >> (64 - width);
}

enum { AL_OPCODE_LDAH = 0x09 };

/* Memory-format displacement; ldah scales it by 65536. */
static int64_t mem_disp(uint32_t w)
{
    int64_t d = sext(bits(w, 15, 0), 16);
    return bits(w, 31, 26) == AL_OPCODE_LDAH ? d * 65536 : d;
}

/* Branch-format byte offset from the updated pc (pc + 4). */
static int64_t branch_disp(uint32_t w) { return sext(bits(w, 20, 0), 21) * 4; }
static int64_t literal(uint32_t w) { return bits(w, 20, 13); }

/* Unified register numbers. */
static uint8_t isrc(uint32_t n) { return n == 31 ? REG_ZERO : (uint8_t)n; }
static uint8_t idst(uint32_t n) { return n == 31 ? REG_SINK : (uint8_t)n; }
static uint8_t fsrc(uint32_t n) { return n == 31 ? REG_FZERO : (uint8_t)(REG_FP0 + n); }
static uint8_t fdst(uint32_t n) { return n == 31 ? REG_SINK : (uint8_t)(REG_FP0 + n); }

enum { AL_REG_V0 = 0, AL_REG_A0 = 16 };

static void extract_operands(const insn_def_t *d, uint32_t w, insn_t *out)
{
    uint32_t ra = bits(w, 25, 21), rb = bits(w, 20, 16), rc = bits(w, 4, 0);
    out->rd = out->rs1 = out->rs2 = out->rs3 = REG_NONE;
    switch ((al_format_t)d->format) {
    case ALF_PAL:      out->imm = bits(w, 25, 0); break;
    case ALF_PAL_V0:   out->imm = bits(w, 25, 0); out->rd = AL_REG_V0; break;
    case ALF_PAL_A0:   out->imm = bits(w, 25, 0); out->rs1 = AL_REG_A0; break;
    case ALF_MEM:      out->rd = idst(ra); out->rs1 = isrc(rb); out->imm = mem_disp(w); break;
    case ALF_MEM_ST:   out->rs1 = isrc(rb); out->rs2 = isrc(ra); out->imm = mem_disp(w); break;
    case ALF_MEM_STC:  out->rs1 = isrc(rb); out->rs2 = isrc(ra); out->rd = idst(ra);
                       out->imm = mem_disp(w); break;
    case ALF_FMEM:     out->rd = fdst(ra); out->rs1 = isrc(rb); out->imm = mem_disp(w); break;
    case ALF_FMEM_ST:  out->rs1 = isrc(rb); out->rs2 = fsrc(ra); out->imm = mem_disp(w); break;
    case ALF_MFC:      out->rd = idst(ra); out->rs1 = isrc(rb); out->imm = bits(w, 15, 0); break;
    case ALF_JMP:      out->rd = idst(ra); out->rs1 = isrc(rb); out->imm = 0; break;
    case ALF_BR:       out->rd = idst(ra); out->imm = branch_disp(w); break;
    case ALF_BCC:      out->rs1 = isrc(ra); out->imm = branch_disp(w); break;
    case ALF_FBCC:     out->rs1 = fsrc(ra); out->imm = branch_disp(w); break;
    case ALF_OPR:      out->rs1 = isrc(ra); out->rs2 = isrc(rb); out->rd = idst(rc); break;
    case ALF_OPR_LIT:  out->rs1 = isrc(ra); out->imm = literal(w); out->rd = idst(rc); break;
    case ALF_CMOV:     out->rs1 = isrc(ra); out->rs2 = isrc(rb); out->rd = idst(rc);
                       out->rs3 = isrc(rc); break;
    case ALF_CMOV_LIT: out->rs1 = isrc(ra); out->imm = literal(w); out->rd = idst(rc);
                       out->rs3 = isrc(rc); break;
    case ALF_OPR_B:    out->rs1 = isrc(rb); out->rd = idst(rc); break;
    case ALF_OPR_B_LIT: out->imm = literal(w); out->rd = idst(rc); break;
    case ALF_FOP:      out->rd = fdst(rc); out->rs1 = fsrc(ra); out->rs2 = fsrc(rb); break;
    case ALF_FOP_B:    out->rd = fdst(rc); out->rs1 = fsrc(rb); break;
    case ALF_FCMOV:    out->rd = fdst(rc); out->rs1 = fsrc(ra); out->rs2 = fsrc(rb);
                       out->rs3 = fsrc(rc); break;
    case ALF_ITOF:     out->rd = fdst(rc); out->rs1 = isrc(ra); break;
    case ALF_FTOI:     out->rd = idst(rc); out->rs1 = fsrc(ra); break;
    case ALF_MT_FPCR:  out->rs1 = fsrc(ra); break;
    case ALF_MF_FPCR:  out->rd = fdst(ra); break;
    case ALF_COUNT:    break;
    }
    if (al_is_fp_operate_format(d->format)) out->rm = (uint8_t)bits(w, 15, 11);
}

/* The table indexed by opcode (bits 31:26); built on the first decode. */
static insn_index_t rows_by_opcode;

static const insn_def_t *find_row(uint32_t w)
{
    if (!rows_by_opcode.table)
        insn_index_build(&rows_by_opcode, alpha_insns, ALPHA_TABLE_SIZE, 26, 6);
    return insn_index_find(&rows_by_opcode, w);
}

bool al_decode_word(uint64_t pc, uint32_t word, insn_t *out)
{
    const insn_def_t *d = find_row(word);
    memset(out, 0, sizeof *out);
    if (!d) return false;
    out->exec = d->exec;
    out->pc = pc;
    out->raw = word;
    out->op = (uint16_t)(d - alpha_insns);
    out->flags = d->flags;
    out->opclass = d->opclass;
    out->memsize = d->memsize;
    out->len = 4;
    extract_operands(d, word, out);
    if (d->flags & IF_DIRECT) {
        out->target = pc + 4 + (uint64_t)out->imm;
        if (out->target <= pc) out->flags |= IF_BACKWARD;
    }
    if (al_is_fp_operate_format(d->format) && !al_fp_decode_check(out)) {
        memset(out, 0, sizeof *out);
        return false;
    }
    return true;
}

static bool alpha_decode(uint64_t pc, const uint8_t *bytes, size_t avail, insn_t *out)
{
    if (avail < 4 || (pc & 3)) return false;
    uint32_t word = (uint32_t)bytes[0] | (uint32_t)bytes[1] << 8 |
                    (uint32_t)bytes[2] << 16 | (uint32_t)bytes[3] << 24;
    return al_decode_word(pc, word, out);
}

/* Bit k set: some row with IF_CALL may fit a word of opcode k (bits
 * 31:26); built on the first sweep step. */
static uint64_t call_opcodes;
static bool call_opcodes_built;

static void build_call_opcodes(void)
{
    for (size_t k = 0; k < ALPHA_TABLE_SIZE; k++) {
        const insn_def_t *d = &alpha_insns[k];
        if (!(d->flags & IF_CALL)) continue;
        if ((d->mask >> 26) != 0x3f) call_opcodes = ~0ull;    /* opcode left open */
        else call_opcodes |= 1ull << (d->match >> 26);
    }
    call_opcodes_built = true;
}

/* isa_t.sweep_step: every step is 4 bytes, legal or not, so only a word
 * whose opcode has a call row is decoded. */
static unsigned alpha_sweep_step(uint64_t pc, const uint8_t *bytes, size_t avail, bool *call)
{
    if (!call_opcodes_built) build_call_opcodes();
    *call = false;
    if (avail < 4 || !(call_opcodes >> (bytes[3] >> 2) & 1)) return 4;
    insn_t in;
    *call = alpha_decode(pc, bytes, avail, &in) && (in.flags & IF_CALL);
    return 4;
}

/* Software names of the Linux/OSF calling standard. */
/* hps.* (OPC01) decode only in the runtime's address space (the core asks
 * here when mem_t.special_ops is set); elsewhere OPC01 matches no row and
 * stays illegal (alpha_hps.c). */
static bool alpha_decode_special(uint64_t pc, const uint8_t *bytes, size_t avail,
                                 const exec_fn ops[HPS_OP_COUNT], insn_t *out)
{
    if (avail < 4) return false;
    uint32_t word = (uint32_t)(bytes[0] | bytes[1] << 8 | bytes[2] << 16 | (uint32_t)bytes[3] << 24);
    if (bits(word, 31, 26) != AL_OPCODE_HPS) return false;
    return al_decode_hps(pc, word, ALPHA_TABLE_SIZE, ops, out);
}

static const char *const abi_names[32] = {
    "v0", "t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "s0", "s1",
    "s2", "s3", "s4", "s5", "fp", "a0", "a1", "a2", "a3", "a4", "a5",
    "t8", "t9", "t10", "t11", "ra", "pv", "at", "gp", "sp", "zero"
};
static const char *const fp_names[32] = {
    "f0", "f1", "f2", "f3", "f4", "f5", "f6", "f7", "f8", "f9", "f10",
    "f11", "f12", "f13", "f14", "f15", "f16", "f17", "f18", "f19", "f20", "f21",
    "f22", "f23", "f24", "f25", "f26", "f27", "f28", "f29", "f30", "f31"
};
static const char *const dise_names[REG_DISE_COUNT] = {
    "d0", "d1", "d2", "d3", "d4", "d5", "d6", "d7",
    "d8", "d9", "d10", "d11", "d12", "d13", "d14", "d15"
};

static const char *alpha_reg_name(unsigned r)
{
    if (r < 32) return abi_names[r];
    if (r < 64) return fp_names[r - 32];
    if (r < REG_DISE0 + REG_DISE_COUNT) return dise_names[r - REG_DISE0];
    if (r == REG_ZERO || r == REG_SINK) return "zero";
    if (r == REG_FZERO) return "f31";
    return "?";
}

const isa_t isa_alpha = {
    .name = "alpha",
    .elf_machine = EM_ALPHA,
    .page_size = 8192,
    .insn_align = 4,
    .nop = { 0x1f, 0x04, 0xff, 0x47 },   /* bis r31,r31,r31 */
    .table = alpha_insns,
    .table_size = ALPHA_TABLE_SIZE,
    .decode = alpha_decode,
    .decode_special = alpha_decode_special,
    .sweep_step = alpha_sweep_step,
    .bfd_arch = bfd_arch_alpha,
    .bfd_mach = bfd_mach_alpha_ev6,
    .reg_name = alpha_reg_name,
    .run_enter = al_fp_run_enter,   /* host FP state: alpha_fp.c */
    .run_leave = al_fp_run_leave,
};
