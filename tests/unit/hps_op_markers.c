/*
 * hps_op_markers.c - the marker functions of hps_op_markers.h: tests
 * compare a decoded record's exec against their addresses.  Each leaves
 * its own operation number in c->stop_info, so no two bodies are the same
 * and the compiler cannot fold them into one address.
 */
#include "hps_op_markers.h"

void marker_op_ret(cpu_t *c, insn_t *i) { (void)i; c->stop_info = HPS_OP_RET; }
void marker_op_flush(cpu_t *c, insn_t *i) { (void)i; c->stop_info = HPS_OP_FLUSH; }
void marker_op_notify(cpu_t *c, insn_t *i) { (void)i; c->stop_info = HPS_OP_NOTIFY; }
void marker_op_wrpmc(cpu_t *c, insn_t *i) { (void)i; c->stop_info = HPS_OP_WRPMC; }
void marker_op_ldp(cpu_t *c, insn_t *i) { (void)i; c->stop_info = HPS_OP_LDP; }
void marker_op_stp(cpu_t *c, insn_t *i) { (void)i; c->stop_info = HPS_OP_STP; }

const exec_fn marker_hps_ops[HPS_OP_COUNT] = {
    [HPS_OP_RET] = marker_op_ret, [HPS_OP_FLUSH] = marker_op_flush,
    [HPS_OP_NOTIFY] = marker_op_notify, [HPS_OP_WRPMC] = marker_op_wrpmc,
    [HPS_OP_LDP] = marker_op_ldp, [HPS_OP_STP] = marker_op_stp,
};
