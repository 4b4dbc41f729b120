/*
 * rv64_amo.c - semantics of the RV64A extension (LR/SC and the AMOs), one
 * body per row of rv64_amo.def.
 *
 * hps-sim runs a single hart, so every AMO is trivially atomic and the
 * aq/rl ordering bits (kept in insn->rm) have no functional effect.
 *
 * Reservations: LR records the naturally aligned 8-byte doubleword holding
 * its address in cpu->reservation (~0 = none; never equal to an aligned
 * value).  An SC succeeds -- stores rs2 and writes 0 to rd -- iff its address
 * lies in that doubleword; otherwise it writes 1 to rd and leaves memory
 * alone.  Every SC, successful or not, clears the reservation.  Ordinary
 * stores by this hart do not clear it (no other hart can intervene).
 *
 * Alignment: an LR/SC/AMO whose address is not naturally aligned stops the
 * run with STOP_BUS_ERROR (Linux delivers SIGBUS for a misaligned atomic:
 * hps-sim exits 135), before any memory is read or written.
 * Faults of the memory access itself are those of mem_load/mem_store (an AMO
 * on an unmapped page therefore reports a read fault, on a read-only page a
 * write fault).  rd is written only after the store has succeeded, so a
 * faulting AMO leaves the registers unchanged.
 */
#include "rv64.h"

#define RESERVATION_GRANULE 8u

/* Effective address of an atomic access of `size` bytes; SIGBUS if it is
 * misaligned.  Records it in cpu->mem_addr. */
static uint64_t amo_address(cpu_t *c, const insn_t *i, unsigned size)
{
    uint64_t a = RS1;
    c->mem_addr = a;
    if (a & (size - 1)) cpu_stop(c, STOP_BUS_ERROR, a);
    return a;
}

static uint64_t reservation_of(uint64_t addr)
{
    return addr & ~(uint64_t)(RESERVATION_GRANULE - 1);
}

/* ---- load-reserved / store-conditional ------------------------------------ */
SEMANTICS(LR_W)
{
    uint64_t a = amo_address(c, i, 4);
    uint64_t v = SEXT32(mem_load32(c->mem, a));
    c->reservation = reservation_of(a);
    WRD(v);
}

SEMANTICS(LR_D)
{
    uint64_t a = amo_address(c, i, 8);
    uint64_t v = mem_load64(c->mem, a);
    c->reservation = reservation_of(a);
    WRD(v);
}

/* Consume the reservation; true if it covered addr. */
static bool sc_claim(cpu_t *c, uint64_t addr)
{
    bool ok = c->reservation == reservation_of(addr);
    c->reservation = ~0ull;
    return ok;
}

SEMANTICS(SC_W)
{
    uint64_t a = amo_address(c, i, 4);
    uint64_t v = RS2;
    if (!sc_claim(c, a)) { WRD(1); return; }
    mem_store32(c->mem, a, v);
    WRD(0);
}

SEMANTICS(SC_D)
{
    uint64_t a = amo_address(c, i, 8);
    uint64_t v = RS2;
    if (!sc_claim(c, a)) { WRD(1); return; }
    mem_store64(c->mem, a, v);
    WRD(0);
}

/* ---- read-modify-write AMOs ------------------------------------------------ */
/* In `expr`, v is the old memory value and b the rs2 operand, both of the
 * access width; the expression is the new memory value.  rd receives the old
 * value (sign-extended for .w). */
#define AMO_W(id, expr)                                      \
    SEMANTICS(id)                                            \
    {                                                        \
        uint64_t a = amo_address(c, i, 4);                   \
        uint32_t b = (uint32_t)RS2;                          \
        uint32_t v = (uint32_t)mem_load32(c->mem, a);        \
        mem_store32(c->mem, a, (uint32_t)(expr));            \
        WRD(SEXT32(v));                                      \
    }

#define AMO_D(id, expr)                                      \
    SEMANTICS(id)                                            \
    {                                                        \
        uint64_t a = amo_address(c, i, 8);                   \
        uint64_t b = RS2;                                    \
        uint64_t v = mem_load64(c->mem, a);                  \
        mem_store64(c->mem, a, (uint64_t)(expr));            \
        WRD(v);                                              \
    }

AMO_W(AMOSWAP_W, b)
AMO_W(AMOADD_W,  v + b)
AMO_W(AMOXOR_W,  v ^ b)
AMO_W(AMOAND_W,  v & b)
AMO_W(AMOOR_W,   v | b)
AMO_W(AMOMIN_W,  (int32_t)v < (int32_t)b ? v : b)
AMO_W(AMOMAX_W,  (int32_t)v > (int32_t)b ? v : b)
AMO_W(AMOMINU_W, v < b ? v : b)
AMO_W(AMOMAXU_W, v > b ? v : b)

AMO_D(AMOSWAP_D, b)
AMO_D(AMOADD_D,  v + b)
AMO_D(AMOXOR_D,  v ^ b)
AMO_D(AMOAND_D,  v & b)
AMO_D(AMOOR_D,   v | b)
AMO_D(AMOMIN_D,  (int64_t)v < (int64_t)b ? v : b)
AMO_D(AMOMAX_D,  (int64_t)v > (int64_t)b ? v : b)
AMO_D(AMOMINU_D, v < b ? v : b)
AMO_D(AMOMAXU_D, v > b ? v : b)

#undef AMO_W
#undef AMO_D
