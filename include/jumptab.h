/*
 * jumptab.h - the targets of a switch: an indirect jump through a table of
 * addresses or offsets in the image, read back from the code that forms
 * the jump's register (cfg.c uses it to give switches their edges).
 *
 * The register the jump goes through is evaluated symbolically, back
 * through the procedure's blocks (every definition reaching the jump must
 * give the same form): a constant (lui/auipc/addi, Alpha ldah/lda, the
 * return address after a call, Alpha's pv on entry), an unknown index
 * scaled and offset by constants (slli, add, Alpha s4addq/s8addq), or an
 * entry loaded from such an address, plus a constant.  The last is a
 * table: RISC-V gcc's `lw` of a 32-bit offset from the table's address,
 * Alpha's `ldl` of an offset from gp, and glibc's tables of 8-byte
 * addresses (`ld`, `ldq`).  Its entries are read from the image while
 * each names an instruction of the procedure, up to the start of another
 * table the procedure jumps through.
 */
#ifndef HPS_JUMPTAB_H
#define HPS_JUMPTAB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cfg.h"

typedef struct jumptab {
    uint64_t table;             /* address of entry 0                       */
    uint64_t base;              /* added to each entry                      */
    unsigned width;             /* bytes an entry: 1, 2, 4 or 8             */
    bool sign;                  /* entries are sign-extended                */
} jumptab_t;

/* The table the indirect jump at instruction k of g goes through, found
 * in the code before it over g's edges; false when the jump's register is
 * not such a form. */
bool jumptab_find(const isa_t *isa, const cfg_t *g, size_t k, jumptab_t *t);

/* The targets of table t: entries read from the image while each, added to
 * t->base, is the address of one of g's instructions, up to the first of
 * stops[0..nstops) (other tables) after t->table, and no more than
 * JUMPTAB_MAX_ENTRIES.  Distinct targets
 * in *targets (allocated; the caller frees it), their number returned. */
enum { JUMPTAB_MAX_ENTRIES = 1024 };
size_t jumptab_read(const jumptab_t *t, const cfg_image_t *img, const cfg_t *g,
                    const uint64_t *stops, size_t nstops, uint64_t **targets);

#endif /* HPS_JUMPTAB_H */
