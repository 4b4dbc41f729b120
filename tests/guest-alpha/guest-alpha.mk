# guest-alpha.mk - builds the Alpha floating-point differential tests in
# tests/guest-alpha/ (included by the top Makefile).  Each
# tests/guest-alpha/NAME.c uses Alpha inline assembly (Alpha only; names
# start with alpha_ like tests/guest's Alpha-only programs) and is built the
# two Alpha ways of tests/guest/guest.mk, into the same directories, so that
# tests/diff/run.sh --variant=alpha-static (and alpha-dyn) runs it with the
# other guest programs:
#   $(BUILD)/guest/alpha-dyn/NAME     alpha-linux-gnu-gcc -O2 (dynamic; the
#                                     qemu-alpha -L /usr/alpha-linux-gnu run)
#   $(BUILD)/guest/alpha-static/NAME  alpha-linux-gnu-gcc -O2 -static (hps-sim),
#                                     linked with $(ALPHA_STATIC_LDFLAGS)
#                                     (--no-relax, see workloads/workloads.mk)
# tests/guest-alpha/NAME.cflags, if present, holds extra compiler flags.
# Some programs #include others (or tests/guest sources); gcc's dependency
# files (in $(BUILD)/guest/alpha-deps/) rebuild them when those change.

GALPHA_NAMES := $(sort $(patsubst tests/guest-alpha/%.c,%,$(wildcard tests/guest-alpha/*.c)))
GALPHA_DYN   := $(GALPHA_NAMES:%=$(BUILD)/guest/alpha-dyn/%)
GALPHA_STAT  := $(GALPHA_NAMES:%=$(BUILD)/guest/alpha-static/%)
GALPHA_DEPS  := $(BUILD)/guest/alpha-deps
GALPHA_CC     = $(ALPHA_CC) $(GUEST_CFLAGS) -std=gnu11 -Wall \
                $(shell cat tests/guest-alpha/$*.cflags 2>/dev/null) -MMD -MP

guests: $(GALPHA_DYN) $(GALPHA_STAT)

$(GALPHA_DYN): $(BUILD)/guest/alpha-dyn/%: tests/guest-alpha/%.c
	@mkdir -p $(dir $@) $(GALPHA_DEPS)
	$(GALPHA_CC) -MF $(GALPHA_DEPS)/dyn-$*.d -MT $@ -o $@ $< -lm

$(GALPHA_STAT): $(BUILD)/guest/alpha-static/%: tests/guest-alpha/%.c workloads/workloads.mk
	@mkdir -p $(dir $@) $(GALPHA_DEPS)
	$(GALPHA_CC) -MF $(GALPHA_DEPS)/static-$*.d -MT $@ -static $(ALPHA_STATIC_LDFLAGS) \
	    -o $@ $< -lm

-include $(GALPHA_NAMES:%=$(GALPHA_DEPS)/dyn-%.d) $(GALPHA_NAMES:%=$(GALPHA_DEPS)/static-%.d)
