/*
 * hps_ops_stub.c - the stand-in semantics of hps_ops_stub.h: they do
 * nothing; tests compare a decoded record's exec against them.
 */
#include "hps_ops_stub.h"

void stub_op_ret(cpu_t *c, insn_t *i) { (void)c; (void)i; }
void stub_op_flush(cpu_t *c, insn_t *i) { (void)c; (void)i; }
void stub_op_notify(cpu_t *c, insn_t *i) { (void)c; (void)i; }
void stub_op_wrpmc(cpu_t *c, insn_t *i) { (void)c; (void)i; }

const exec_fn stub_hps_ops[HPS_OP_COUNT] = {
    [HPS_OP_RET] = stub_op_ret, [HPS_OP_FLUSH] = stub_op_flush,
    [HPS_OP_NOTIFY] = stub_op_notify, [HPS_OP_WRPMC] = stub_op_wrpmc,
};
