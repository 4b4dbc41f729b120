# labs/labs.mk - the lab programs (labs/src), for `make labs` and
# tests/labs/run.sh:  make -f labs/labs.mk BUILD=dir
#   $(BUILD)/labs/rv64/NAME    riscv64-linux-gnu-gcc -O2 -static
#   $(BUILD)/labs/alpha/NAME   alpha-linux-gnu-gcc -O2 -static -Wl,--no-relax
# A program with inline assembly (__asm__ in its .c file) is RISC-V only.
# Static Alpha programs need --no-relax (workloads/workloads.mk says why).
BUILD    ?= build
RV_CC    ?= riscv64-linux-gnu-gcc
ALPHA_CC ?= alpha-linux-gnu-gcc
LAB_CFLAGS ?= -O2 -std=gnu11 -Wall -Wextra

LAB_NAMES  := $(sort $(patsubst labs/src/%.c,%,$(wildcard labs/src/*.c)))
LAB_ASM    := $(patsubst labs/src/%.c,%,$(shell grep -l '__asm__' labs/src/*.c))
LAB_RV64   := $(LAB_NAMES:%=$(BUILD)/labs/rv64/%)
LAB_ALPHA  := $(filter-out $(LAB_ASM:%=$(BUILD)/labs/alpha/%),$(LAB_NAMES:%=$(BUILD)/labs/alpha/%))

.PHONY: lab-programs
lab-programs: $(LAB_RV64) $(LAB_ALPHA)

$(BUILD)/labs/rv64/%: labs/src/%.c labs/src/lab.h
	@mkdir -p $(dir $@)
	$(RV_CC) $(LAB_CFLAGS) -static -o $@ $< -lm

$(BUILD)/labs/alpha/%: labs/src/%.c labs/src/lab.h
	@mkdir -p $(dir $@)
	$(ALPHA_CC) $(LAB_CFLAGS) -static -Wl,--no-relax -o $@ $< -lm
