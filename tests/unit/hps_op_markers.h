/*
 * hps_op_markers.h - marker functions for the semantics of the guest
 * runtime's special instructions: unit tests that decode hps.* words
 * through isa_t.decode_special pass marker_hps_ops as the semantics table
 * and check, by address, which entry each word was given.  (The real
 * semantics are sim/runtime.c's; a marker only writes its HPS_OP_ number
 * to c->stop_info.)
 */
#ifndef HPS_OP_MARKERS_H
#define HPS_OP_MARKERS_H

#include "core.h"

void marker_op_ret(cpu_t *c, insn_t *i);
void marker_op_flush(cpu_t *c, insn_t *i);
void marker_op_notify(cpu_t *c, insn_t *i);
void marker_op_wrpmc(cpu_t *c, insn_t *i);
void marker_op_ldp(cpu_t *c, insn_t *i);
void marker_op_stp(cpu_t *c, insn_t *i);
/* HPS_OP_RET.. point at the markers above; mfd/mtd are the ISA's own. */
extern const exec_fn marker_hps_ops[HPS_OP_COUNT];

#endif /* HPS_OP_MARKERS_H */
