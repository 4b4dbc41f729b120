# guest.mk - builds the differential-test guest programs in tests/guest/
# (included by the top Makefile).  Each tests/guest/NAME.c is one program,
# built up to four ways:
#   $(BUILD)/guest/rv64/NAME          riscv64-linux-gnu-gcc -O2 -static
#   $(BUILD)/guest/rv64-dyn/NAME      riscv64-linux-gnu-gcc -O2 (dynamic)
#   $(BUILD)/guest/alpha-dyn/NAME     alpha-linux-gnu-gcc -O2 (dynamic)
#   $(BUILD)/guest/alpha-static/NAME  alpha-linux-gnu-gcc -O2 -static
# A program with inline assembly (__asm__) is RISC-V only; one whose name
# starts with alpha_ is Alpha only; the rest are built for both ISAs.
# Static Alpha programs are linked with --no-relax (ALPHA_STATIC_LDFLAGS,
# workloads/workloads.mk): binutils 2.40 relaxes glibc's load of the weak
# __ehdr_start to 0, so a relaxed static program never finds its program
# headers, sets up no TLS and dies in __ctype_init, on any Alpha (this is
# why qemu-alpha "crashes on static Alpha binaries").
# Programs named thr_* are built with -pthread.
# A program may read tests/guest/NAME.args (its command-line arguments, with
# @DIR@ replaced by a scratch directory) and tests/guest/NAME.stdin.

GUEST_NAMES := $(sort $(patsubst tests/guest/%.c,%,$(wildcard tests/guest/*.c)))
GUEST_ASM   := $(patsubst tests/guest/%.c,%,$(shell grep -l '__asm__' tests/guest/*.c))
GUEST_ALPHA_ONLY := $(filter alpha_%,$(GUEST_NAMES))
GUEST_RV_NAMES    := $(filter-out $(GUEST_ALPHA_ONLY),$(GUEST_NAMES))
GUEST_ALPHA_NAMES := $(GUEST_ALPHA_ONLY) \
                     $(filter-out $(GUEST_ASM) $(GUEST_ALPHA_ONLY),$(GUEST_NAMES))
GUEST_RV64  := $(GUEST_RV_NAMES:%=$(BUILD)/guest/rv64/%)
GUEST_RVDYN := $(GUEST_RV_NAMES:%=$(BUILD)/guest/rv64-dyn/%)
GUEST_ADYN  := $(GUEST_ALPHA_NAMES:%=$(BUILD)/guest/alpha-dyn/%)
GUEST_ASTAT := $(GUEST_ALPHA_NAMES:%=$(BUILD)/guest/alpha-static/%)
GUEST_CFLAGS_ALL = $(GUEST_CFLAGS) -std=gnu11 -Wall
# Programs named thr_* use threads: built with -pthread (tests/threads).
GUEST_THR := $(filter thr_%,$(GUEST_NAMES))
$(foreach v,rv64 rv64-dyn alpha-dyn alpha-static,$(GUEST_THR:%=$(BUILD)/guest/$(v)/%)): \
    GUEST_CFLAGS_ALL += -pthread

guests: $(GUEST_RV64) $(GUEST_RVDYN) $(GUEST_ADYN) $(GUEST_ASTAT)

$(BUILD)/guest/rv64/%: tests/guest/%.c
	@mkdir -p $(dir $@)
	$(RV_CC) $(GUEST_CFLAGS_ALL) -static -o $@ $< -lm

$(BUILD)/guest/rv64-dyn/%: tests/guest/%.c
	@mkdir -p $(dir $@)
	$(RV_CC) $(GUEST_CFLAGS_ALL) -o $@ $< -lm

$(BUILD)/guest/alpha-dyn/%: tests/guest/%.c
	@mkdir -p $(dir $@)
	$(ALPHA_CC) $(GUEST_CFLAGS_ALL) -o $@ $< -lm

$(BUILD)/guest/alpha-static/%: tests/guest/%.c workloads/workloads.mk
	@mkdir -p $(dir $@)
	$(ALPHA_CC) $(GUEST_CFLAGS_ALL) -static $(ALPHA_STATIC_LDFLAGS) -o $@ $< -lm

# Guest programs that must fault (illegal instruction, bad address, unknown
# syscall): tests/faults/NAME.c -> $(BUILD)/faults/rv64/NAME
FAULT_NAMES := $(sort $(patsubst tests/faults/%.c,%,$(wildcard tests/faults/*.c)))
FAULT_RV64  := $(FAULT_NAMES:%=$(BUILD)/faults/rv64/%)

guests: $(FAULT_RV64)

$(BUILD)/faults/rv64/%: tests/faults/%.c
	@mkdir -p $(dir $@)
	$(RV_CC) $(GUEST_CFLAGS) -std=gnu11 -Wall -static -o $@ $< -lm

# Guest programs of the DISE/HPS tests (tests/dise/run.sh), for both ISAs:
# tests/dise/NAME.c -> $(BUILD)/dise/rv64/NAME, $(BUILD)/dise/alpha-static/NAME
DISE_TEST_NAMES := $(sort $(patsubst tests/dise/%.c,%,$(wildcard tests/dise/*.c)))
DISE_TEST_RV64  := $(DISE_TEST_NAMES:%=$(BUILD)/dise/rv64/%)
DISE_TEST_ASTAT := $(DISE_TEST_NAMES:%=$(BUILD)/dise/alpha-static/%)

guests: $(DISE_TEST_RV64) $(DISE_TEST_ASTAT)

$(BUILD)/dise/rv64/%: tests/dise/%.c
	@mkdir -p $(dir $@)
	$(RV_CC) $(GUEST_CFLAGS) -std=gnu11 -Wall -static -o $@ $< -lm

$(BUILD)/dise/alpha-static/%: tests/dise/%.c workloads/workloads.mk
	@mkdir -p $(dir $@)
	$(ALPHA_CC) $(GUEST_CFLAGS) -std=gnu11 -Wall -static $(ALPHA_STATIC_LDFLAGS) -o $@ $< -lm
