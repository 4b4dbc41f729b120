# workloads.mk - builds the guest workload suite (included by the top Makefile).
#
# Every directory workloads/NAME/ holding .c files is one program; all its .c
# files are compiled together.  Three builds per program:
#   $(BUILD)/workloads/rv64/NAME          riscv64-linux-gnu-gcc -O2 -static
#   $(BUILD)/workloads/alpha-static/NAME  alpha-linux-gnu-gcc -O2 -static
#   $(BUILD)/workloads/alpha-dyn/NAME     alpha-linux-gnu-gcc -O2 (dynamic)

WORKLOAD_NAMES := $(sort $(patsubst workloads/%/,%,$(dir $(wildcard workloads/*/*.c))))
WL_RV64   := $(WORKLOAD_NAMES:%=$(BUILD)/workloads/rv64/%)
WL_ASTAT  := $(WORKLOAD_NAMES:%=$(BUILD)/workloads/alpha-static/%)
WL_ADYN   := $(WORKLOAD_NAMES:%=$(BUILD)/workloads/alpha-dyn/%)
WL_CFLAGS := $(GUEST_CFLAGS) -std=gnu11 -Wall -Wextra -Wno-unused-parameter

workloads: $(WL_RV64) $(WL_ASTAT) $(WL_ADYN)

.SECONDEXPANSION:
$(BUILD)/workloads/rv64/%: $$(wildcard workloads/%/*.c) $$(wildcard workloads/%/*.h)
	@mkdir -p $(dir $@)
	$(RV_CC) $(WL_CFLAGS) -static -o $@ $(filter %.c,$^) -lm

$(BUILD)/workloads/alpha-static/%: $$(wildcard workloads/%/*.c) $$(wildcard workloads/%/*.h)
	@mkdir -p $(dir $@)
	$(ALPHA_CC) $(WL_CFLAGS) -static -o $@ $(filter %.c,$^) -lm

$(BUILD)/workloads/alpha-dyn/%: $$(wildcard workloads/%/*.c) $$(wildcard workloads/%/*.h)
	@mkdir -p $(dir $@)
	$(ALPHA_CC) $(WL_CFLAGS) -o $@ $(filter %.c,$^) -lm
