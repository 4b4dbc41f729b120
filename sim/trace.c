/*
 * trace.c - the bounded instruction trace (--trace FILE).  One line per
 * instruction: sequence number, pc, symbol+offset, raw encoding,
 * disassembly, and the value written to the destination register.
 */
#include "trace.h"

#include <inttypes.h>

void trace_insn(trace_t *t, const cpu_t *c, const insn_t *in)
{
    if (t->written >= t->limit) return;
    t->written++;
    uint8_t bytes[4] = { (uint8_t)in->raw, (uint8_t)(in->raw >> 8),
                         (uint8_t)(in->raw >> 16), (uint8_t)(in->raw >> 24) };
    char text[128], sym[160];
    if (!t->disasm || disasm_insn(t->disasm, in->pc, bytes, in->len, text, sizeof text) <= 0)
        snprintf(text, sizeof text, "(unknown)");
    symtab_format(t->symtab, in->pc, sym, sizeof sym);
    fprintf(t->out, "%10" PRIu64 "  %010" PRIx64 "  %-28s  %0*" PRIx32 "  %-32s",
            cpu_retired(c), in->pc, sym, in->len * 2, in->raw, text);
    if (in->rd != REG_NONE && in->rd != REG_SINK)
        fprintf(t->out, "  %s=0x%016" PRIx64, c->isa->reg_name(in->rd), c->reg[in->rd]);
    if (in->flags & (IF_LOAD | IF_STORE))
        fprintf(t->out, "  [0x%" PRIx64 "]", c->mem_addr);
    fputc('\n', t->out);
}
