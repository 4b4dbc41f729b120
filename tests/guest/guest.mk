# guest.mk - builds the differential-test guest programs in tests/guest/
# (included by the top Makefile).  Each tests/guest/NAME.c is one program:
#   $(BUILD)/guest/rv64/NAME   riscv64-linux-gnu-gcc -O2 -static
# A program may read tests/guest/NAME.args (its command-line arguments, with
# @DIR@ replaced by a scratch directory) and tests/guest/NAME.stdin.

GUEST_NAMES := $(sort $(patsubst tests/guest/%.c,%,$(wildcard tests/guest/*.c)))
GUEST_RV64  := $(GUEST_NAMES:%=$(BUILD)/guest/rv64/%)

guests: $(GUEST_RV64)

$(BUILD)/guest/rv64/%: tests/guest/%.c
	@mkdir -p $(dir $@)
	$(RV_CC) $(GUEST_CFLAGS) -std=gnu11 -Wall -static -o $@ $< -lm

# Guest programs that must fault (illegal instruction, bad address, unknown
# syscall): tests/faults/NAME.c -> $(BUILD)/faults/rv64/NAME
FAULT_NAMES := $(sort $(patsubst tests/faults/%.c,%,$(wildcard tests/faults/*.c)))
FAULT_RV64  := $(FAULT_NAMES:%=$(BUILD)/faults/rv64/%)

guests: $(FAULT_RV64)

$(BUILD)/faults/rv64/%: tests/faults/%.c
	@mkdir -p $(dir $@)
	$(RV_CC) $(GUEST_CFLAGS) -std=gnu11 -Wall -static -o $@ $< -lm

# Guest programs of the DISE/HPS tests (tests/dise/run.sh):
# tests/dise/NAME.c -> $(BUILD)/dise/rv64/NAME
DISE_TEST_NAMES := $(sort $(patsubst tests/dise/%.c,%,$(wildcard tests/dise/*.c)))
DISE_TEST_RV64  := $(DISE_TEST_NAMES:%=$(BUILD)/dise/rv64/%)

guests: $(DISE_TEST_RV64)

$(BUILD)/dise/rv64/%: tests/dise/%.c
	@mkdir -p $(dir $@)
	$(RV_CC) $(GUEST_CFLAGS) -std=gnu11 -Wall -static -o $@ $< -lm
