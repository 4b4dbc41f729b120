# guest-mem.mk - the guest programs of the memory-limit tests
# (tests/memlimits/run.sh; included by the top Makefile).  Each
# tests/guest-mem/NAME.c is built static for both ISAs:
#   $(BUILD)/guest-mem/rv64/NAME          riscv64-linux-gnu-gcc -O2 -static
#   $(BUILD)/guest-mem/alpha-static/NAME  alpha-linux-gnu-gcc -O2 -static
#                                         -Wl,--no-relax (workloads.mk)

GUEST_MEM_NAMES := $(sort $(patsubst tests/guest-mem/%.c,%,$(wildcard tests/guest-mem/*.c)))
GUEST_MEM_RV64  := $(GUEST_MEM_NAMES:%=$(BUILD)/guest-mem/rv64/%)
GUEST_MEM_ASTAT := $(GUEST_MEM_NAMES:%=$(BUILD)/guest-mem/alpha-static/%)

guests: $(GUEST_MEM_RV64) $(GUEST_MEM_ASTAT)

$(BUILD)/guest-mem/rv64/%: tests/guest-mem/%.c
	@mkdir -p $(dir $@)
	$(RV_CC) $(GUEST_CFLAGS) -std=gnu11 -Wall -static -o $@ $<

$(BUILD)/guest-mem/alpha-static/%: tests/guest-mem/%.c workloads/workloads.mk
	@mkdir -p $(dir $@)
	$(ALPHA_CC) $(GUEST_CFLAGS) -std=gnu11 -Wall -static $(ALPHA_STATIC_LDFLAGS) -o $@ $<
