# confine.mk - the guests of the confinement tests (tests/confine/run.sh),
# included by the top Makefile: tests/guest-confine/NAME.c becomes
#   $(BUILD)/confine/rv64/NAME          riscv64-linux-gnu-gcc -O2 -static
#   $(BUILD)/confine/alpha-static/NAME  alpha-linux-gnu-gcc -O2 -static, linked
#                                       with --no-relax (tests/guest/guest.mk)
CONFINE_NAMES := $(sort $(patsubst tests/guest-confine/%.c,%,$(wildcard tests/guest-confine/*.c)))
CONFINE_RV64  := $(CONFINE_NAMES:%=$(BUILD)/confine/rv64/%)
CONFINE_ASTAT := $(CONFINE_NAMES:%=$(BUILD)/confine/alpha-static/%)

guests: $(CONFINE_RV64) $(CONFINE_ASTAT)

$(BUILD)/confine/rv64/%: tests/guest-confine/%.c
	@mkdir -p $(dir $@)
	$(RV_CC) $(GUEST_CFLAGS) -std=gnu11 -Wall -static -o $@ $<

$(BUILD)/confine/alpha-static/%: tests/guest-confine/%.c workloads/workloads.mk
	@mkdir -p $(dir $@)
	$(ALPHA_CC) $(GUEST_CFLAGS) -std=gnu11 -Wall -static $(ALPHA_STATIC_LDFLAGS) -o $@ $<
