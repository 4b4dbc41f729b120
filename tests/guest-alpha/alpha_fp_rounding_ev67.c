/*
 * alpha_fp_rounding_ev67.c - alpha_fp_rounding.c compiled for the EV67 with
 * dynamic rounding and inexact recording (alpha_fp_rounding_ev67.cflags):
 * square roots become sqrtt/suid and sqrts/suid instructions.
 * Reference: qemu-alpha (dynamically linked build).
 */
#include "alpha_fp_rounding.c"
