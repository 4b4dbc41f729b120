/*
 * hps_ops_stub.h - stand-ins for the guest runtime's semantics of the
 * special instructions (sim/runtime.c gives the real ones), for unit tests
 * that decode hps.* words through isa_t.decode_special and check which
 * semantics each one got.
 */
#ifndef HPS_OPS_STUB_H
#define HPS_OPS_STUB_H

#include "core.h"

void stub_op_ret(cpu_t *c, insn_t *i);
void stub_op_flush(cpu_t *c, insn_t *i);
void stub_op_notify(cpu_t *c, insn_t *i);
void stub_op_wrpmc(cpu_t *c, insn_t *i);
/* HPS_OP_RET.. point at the stand-ins above; mfd/mtd are the ISA's own. */
extern const exec_fn stub_hps_ops[HPS_OP_COUNT];

#endif /* HPS_OPS_STUB_H */
