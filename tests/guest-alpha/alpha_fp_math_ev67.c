/*
 * alpha_fp_math_ev67.c - tests/guest/fp_math.c compiled for the EV67
 * (alpha_fp_math_ev67.cflags: -mcpu=ev67), so that gcc uses the FIX
 * extension -- sqrtt/sqrts for sqrt(), ftoit/itoft/ftois/itofs for moves
 * between the register files -- and CIX counts.
 * Reference: qemu-alpha (dynamically linked build).
 */
#include "../guest/fp_math.c"
