/*
 * isa.h - the decoded-instruction record and the interface every ISA front-end
 * (RISC-V RV64GC today, Alpha next) presents to the rest of the simulator.
 *
 * An ISA is data: a table of instruction definitions (mask/match encoding,
 * format, operation class, flags, semantics function).  Decoding turns one
 * static instruction into one insn_t, once; the functional core, the timing
 * models and DISE all consume that same record.  Registers are renumbered
 * into one unified space so that nothing downstream needs to know which ISA
 * it is looking at.
 */
#ifndef HPS_ISA_H
#define HPS_ISA_H

#include <stdint.h>
#include <stddef.h>
#include <stdbool.h>

struct cpu;
struct insn;

/* Semantics of one instruction: read operands from the cpu, write results,
 * set cpu->pc if control leaves the fall-through path (the core has already
 * set cpu->pc to the fall-through address before calling).  The record is
 * not const only so that branches can count how often they were taken. */
typedef void (*exec_fn)(struct cpu *cpu, struct insn *insn);

/* ---- Unified register numbering -------------------------------------- */
enum {
    REG_INT0 = 0,      /* integer registers 0..31 (RISC-V x0..x31, Alpha r0..r31) */
    REG_FP0 = 32,      /* floating-point registers 32..63                          */
    REG_DISE0 = 64,    /* DISE-private registers, visible only to replacement code */
    REG_DISE_COUNT = 16,
    REG_ZERO = 80,     /* always reads as zero; hard-wired x0 / r31 / f31 reads    */
    REG_SINK = 81,     /* writes to hard-wired zero registers land here            */
    REG_FZERO = 82,    /* Alpha f31 reads: +0.0                                     */
    REG_DISE_TEMP = 83, /* DISE's own scratch for a computed operand (dise/engine.c):
                          no ACF, handler or program register names it            */
    REG_COUNT = 84,
    REG_NONE = 0xff    /* operand slot unused                                       */
};

/* ---- Operation classes (what DISE's T.OPCLASS and timing models see) --- */
#define OPCLASS_LIST(X) \
    X(OC_NOP,      "nop")       X(OC_IALU,    "int_alu")  X(OC_IMUL,    "int_mul")   \
    X(OC_IDIV,     "int_div")   X(OC_LOAD,    "load")     X(OC_STORE,   "store")     \
    X(OC_ATOMIC,   "atomic")    X(OC_BRANCH,  "branch")   X(OC_JUMP,    "jump")      \
    X(OC_CALL,     "proc_call") X(OC_RETURN,  "return")   X(OC_FALU,    "fp_alu")    \
    X(OC_FMUL,     "fp_mul")    X(OC_FDIV,    "fp_div")   X(OC_FSQRT,   "fp_sqrt")   \
    X(OC_FCVT,     "fp_cvt")    X(OC_FMOVE,   "fp_move")  X(OC_FLOAD,   "fp_load")   \
    X(OC_FSTORE,   "fp_store")  X(OC_SYSCALL, "syscall")  X(OC_CSR,     "csr")       \
    X(OC_FENCE,    "fence")     X(OC_DISE,    "dise")

#define OPCLASS_ENUM(id, name) id,
typedef enum { OPCLASS_LIST(OPCLASS_ENUM) OC_COUNT } opclass_t;
#undef OPCLASS_ENUM

extern const char *const opclass_names[OC_COUNT];

/* ---- Flags on a decoded instruction ----------------------------------- */
enum {
    IF_LOAD     = 1u << 0,   /* reads data memory                             */
    IF_STORE    = 1u << 1,   /* writes data memory                            */
    IF_BRANCH   = 1u << 2,   /* conditional branch                            */
    IF_JUMP     = 1u << 3,   /* unconditional control transfer                */
    IF_CALL     = 1u << 4,   /* procedure call (links a return address)       */
    IF_RETURN   = 1u << 5,   /* procedure return                              */
    IF_INDIRECT = 1u << 6,   /* target comes from a register                  */
    IF_DIRECT   = 1u << 7,   /* insn->target holds the static target          */
    IF_FP       = 1u << 8,   /* uses the floating-point unit                  */
    IF_SYSCALL  = 1u << 9,   /* traps to the operating system                 */
    IF_SERIAL   = 1u << 10,  /* serializing: fences, CSR access, fence.i      */
    IF_COMPRESSED = 1u << 11,/* RVC encoding                                  */
    IF_ATOMIC   = 1u << 12,  /* LR/SC/AMO                                     */
    IF_DISE     = 1u << 13,  /* emitted by DISE, not fetched from the program  */
    IF_BACKWARD = 1u << 14,  /* direct branch/jump with target <= pc          */
    IF_REDECODED = 1u << 15, /* ran before the decoded cache evicted its page
                                and was decoded again: counted, but not as a
                                new static instruction (mem.h)              */
    /* the only instructions whose semantics write the pc (the run loop
     * reads it back after these alone) */
    IF_TRANSFER = IF_BRANCH | IF_JUMP | IF_CALL | IF_RETURN
};

/* ---- The decoded-instruction record ----------------------------------- */
typedef struct insn {
    exec_fn  exec;       /* semantics; NULL = slot not decoded yet           */
    uint64_t pc;
    int64_t  imm;        /* sign-extended immediate (or shift amount, csr#);
                            indirect transfers go to rs1 + imm, aligned    */
    uint64_t target;     /* static target of direct branches/jumps           */
    uint64_t count;      /* ground truth: times this static insn executed    */
    uint64_t taken;      /* ground truth: times a branch/jump was taken      */
    uint32_t raw;        /* encoding as fetched (16-bit RVC in low half)     */
    uint16_t op;         /* index into the ISA's instruction table           */
    uint16_t flags;      /* IF_*                                             */
    uint8_t  opclass;    /* opclass_t                                        */
    uint8_t  len;        /* bytes: 2 or 4                                    */
    uint8_t  rd, rs1, rs2, rs3;  /* unified register numbers or REG_NONE      */
    uint8_t  rm;         /* FP rounding mode field / aux (AMO aq-rl, size)   */
    uint8_t  memsize;    /* bytes accessed by a load/store, 0 otherwise      */
    uint16_t dise;       /* DISE: index of the pattern set cached at decode  */
    uint8_t  tkind;      /* the in-order timing models' record of what their
                            entries test (quick kind: pipeline/inorder.c),
                            worked out from flags and opclass the first time
                            the instruction is timed; 0 = not yet (decoders
                            zero it; whoever changes flags or opclass of a
                            timed record clears it)                        */
    uint32_t block;      /* the functional core's decoded block that starts
                            here (blocks.h); 0 = none built yet             */
} insn_t;

/* ---- The static description of one instruction (a table row) ---------- */
typedef struct insn_def {
    const char *name;
    uint32_t mask, match;
    uint8_t  format;     /* ISA-specific field-extraction format             */
    uint8_t  opclass;
    uint16_t flags;
    uint8_t  memsize;
    exec_fn  exec;
} insn_def_t;

/* The guest runtime's special instructions (productions/README.md): their
 * encodings are each ISA's (RISC-V custom-0, Alpha OPC01), their semantics
 * belong to whoever owns the address space that decodes them
 * (mem_t.special_ops, sim/runtime.c); hps.mfd/hps.mtd are register moves. */
enum { HPS_OP_MFD, HPS_OP_MTD, HPS_OP_RET, HPS_OP_FLUSH, HPS_OP_NOTIFY, HPS_OP_WRPMC,
       HPS_OP_RDPMC, HPS_OP_LDP, HPS_OP_STP, HPS_OP_COUNT };

/* ---- What an ISA front-end provides ------------------------------------ */
typedef struct isa {
    const char *name;            /* "rv64gc", "alpha"                       */
    int elf_machine;             /* EM_RISCV, EM_ALPHA                      */
    unsigned page_size;          /* ABI page size (4 KiB / 8 KiB)           */
    unsigned insn_align;         /* instruction alignment: 2 (RVC) or 4     */
    uint8_t nop[4];              /* the canonical nop's bytes (4 of them)   */
    const insn_def_t *table;     /* instruction table and its size          */
    size_t table_size;
    /* Decode the instruction at pc whose first bytes are in `bytes` (up to
     * `avail` of them).  Fills *out; returns false if illegal. */
    bool (*decode)(uint64_t pc, const uint8_t *bytes, size_t avail, insn_t *out);
    /* Decode one of the runtime's special instructions; ops gives the
     * semantics of those that need the host (NULL: illegal). */
    bool (*decode_special)(uint64_t pc, const uint8_t *bytes, size_t avail,
                           const exec_fn ops[HPS_OP_COUNT], insn_t *out);
    /* One step of a linear sweep over code (the static call-site count,
     * runstats.c), as decode would have it without filling a record: the
     * bytes to go on by (the instruction's length, insn_align where it is
     * illegal) and *call whether it is a legal call (IF_CALL). */
    unsigned (*sweep_step)(uint64_t pc, const uint8_t *bytes, size_t avail, bool *call);
    /* Disassembler architecture for libopcodes (bfd_architecture/mach). */
    int bfd_arch;
    unsigned long bfd_mach;
    /* Register names for traces, by unified number. */
    const char *(*reg_name)(unsigned unified_reg);
    /* Called when a run loop starts and stops: hand host FP state (sticky
     * exception flags, rounding mode) to the guest and take it back. */
    void (*run_enter)(struct cpu *cpu);
    void (*run_leave)(struct cpu *cpu);
} isa_t;

extern const isa_t isa_rv64;
extern const isa_t isa_alpha;

#endif /* HPS_ISA_H */
