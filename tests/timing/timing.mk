# timing.mk - builds the timing micro-benchmarks in tests/timing/ (included
# by the top Makefile; checked by tests/timing/run.sh).  Each
# tests/timing/NAME.c is one program:
#   $(BUILD)/timing/rv64/NAME   riscv64-linux-gnu-gcc -O2 -static -mno-relax
# (-mno-relax: linker relaxation would move the 16-byte-aligned loops)

TIMING_NAMES := $(sort $(patsubst tests/timing/%.c,%,$(wildcard tests/timing/*.c)))
TIMING_RV64  := $(TIMING_NAMES:%=$(BUILD)/timing/rv64/%)

guests: $(TIMING_RV64)

$(BUILD)/timing/rv64/%: tests/timing/%.c tests/timing/bench.h
	@mkdir -p $(dir $@)
	$(RV_CC) $(GUEST_CFLAGS) -mno-relax -std=gnu11 -Wall -static -o $@ $<
