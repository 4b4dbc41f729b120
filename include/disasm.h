/*
 * disasm.h - disassembly of guest instructions through libopcodes, for
 * traces, pipeline views and fault reports.  Not on any hot path.
 */
#ifndef HPS_DISASM_H
#define HPS_DISASM_H

#include <stddef.h>
#include <stdint.h>

#include "isa.h"

typedef struct disasm disasm_t;

disasm_t *disasm_new(const isa_t *isa);
void disasm_free(disasm_t *d);
/* Disassemble the instruction at pc whose bytes are given; writes text into
 * buf and returns the instruction length in bytes (0 if unknown). */
int disasm_insn(disasm_t *d, uint64_t pc, const uint8_t *bytes, size_t avail,
                char *buf, size_t buflen);

#endif /* HPS_DISASM_H */
