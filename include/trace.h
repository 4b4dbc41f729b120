/*
 * trace.h - bounded instruction trace: one line per executed instruction
 * with its sequence number, PC, symbol+offset, encoding and disassembly,
 * for the first `limit` instructions of a run.
 */
#ifndef HPS_TRACE_H
#define HPS_TRACE_H

#include <stdint.h>
#include <stdio.h>

#include "core.h"
#include "disasm.h"
#include "symtab.h"

typedef struct trace {
    FILE *out;
    uint64_t limit;        /* instructions to trace                        */
    uint64_t written;
    disasm_t *disasm;
    const symtab_t *symtab;
} trace_t;

/* Write the line for insn (already executed; cpu holds the results). */
void trace_insn(trace_t *t, const cpu_t *c, const insn_t *in);

#endif /* HPS_TRACE_H */
