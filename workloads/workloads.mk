# workloads.mk - builds the guest workload suite (included by the top Makefile).
#
# Every directory workloads/NAME/ holding .c files is one program; all its .c
# files are compiled together.  Four builds per program:
#   $(BUILD)/workloads/rv64/NAME          riscv64-linux-gnu-gcc -O2 -static
#   $(BUILD)/workloads/rv64-dyn/NAME      riscv64-linux-gnu-gcc -O2 (dynamic)
#   $(BUILD)/workloads/alpha-static/NAME  alpha-linux-gnu-gcc -O2 -static
#   $(BUILD)/workloads/alpha-dyn/NAME     alpha-linux-gnu-gcc -O2 (dynamic)
# Dynamic programs run with hps-sim --sysroot /usr/<triplet> (qemu -L).
#
# Static Alpha programs are linked with --no-relax: GNU ld 2.40 relaxes the
# GOT load of the weak __ehdr_start in glibc's static __libc_start_main to
# "lda t1,0", so the program believes it has no program headers, finds no
# PT_TLS, sets up an empty TLS block and faults in __ctype_init -- on real
# Alpha Linux and qemu-alpha alike.  Without relaxation the GOT keeps the
# symbol's value and the program runs.
ALPHA_STATIC_LDFLAGS ?= -Wl,--no-relax

WORKLOAD_NAMES := $(sort $(patsubst workloads/%/,%,$(dir $(wildcard workloads/*/*.c))))
WL_RV64   := $(WORKLOAD_NAMES:%=$(BUILD)/workloads/rv64/%)
WL_RVDYN  := $(WORKLOAD_NAMES:%=$(BUILD)/workloads/rv64-dyn/%)
WL_ASTAT  := $(WORKLOAD_NAMES:%=$(BUILD)/workloads/alpha-static/%)
WL_ADYN   := $(WORKLOAD_NAMES:%=$(BUILD)/workloads/alpha-dyn/%)
WL_CFLAGS := $(GUEST_CFLAGS) -std=gnu11 -Wall -Wextra -Wno-unused-parameter

workloads: $(WL_RV64) $(WL_RVDYN) $(WL_ASTAT) $(WL_ADYN)

.SECONDEXPANSION:
$(BUILD)/workloads/rv64/%: $$(wildcard workloads/%/*.c) $$(wildcard workloads/%/*.h)
	@mkdir -p $(dir $@)
	$(RV_CC) $(WL_CFLAGS) -static -o $@ $(filter %.c,$^) -lm

$(BUILD)/workloads/rv64-dyn/%: $$(wildcard workloads/%/*.c) $$(wildcard workloads/%/*.h)
	@mkdir -p $(dir $@)
	$(RV_CC) $(WL_CFLAGS) -o $@ $(filter %.c,$^) -lm

$(BUILD)/workloads/alpha-static/%: $$(wildcard workloads/%/*.c) $$(wildcard workloads/%/*.h) \
                                   workloads/workloads.mk
	@mkdir -p $(dir $@)
	$(ALPHA_CC) $(WL_CFLAGS) -static $(ALPHA_STATIC_LDFLAGS) -o $@ $(filter %.c,$^) -lm

$(BUILD)/workloads/alpha-dyn/%: $$(wildcard workloads/%/*.c) $$(wildcard workloads/%/*.h)
	@mkdir -p $(dir $@)
	$(ALPHA_CC) $(WL_CFLAGS) -o $@ $(filter %.c,$^) -lm
