# tests/fuzz/fuzz.mk - the libFuzzer harnesses (tests/fuzz/fuzz_*.c), one
# per reader of untrusted input: ELF loader, ACF parser, configuration,
# --param values, profile database, ground truth, DCPI event lists, shell
# commands.  Built with clang into $(BUILD)/fuzz: the library (libhps.a)
# again with -fsanitize=fuzzer-no-link,address,undefined, each harness
# linked with -fsanitize=fuzzer.
#
#   make fuzz [FUZZ_SECONDS=600]   every harness for FUZZ_SECONDS, from
#                   the seed corpus (tests/fuzz/seeds.sh), two at a time;
#                   prints each one's executions and findings
#   make fuzz-build                the harnesses only
# tests/fuzz/run.sh (a suite of make test) runs each for a short time.

FUZZ_CC      ?= clang
FUZZ_SAN     := -fsanitize=address,undefined -fno-sanitize-recover=undefined \
                -fno-omit-frame-pointer
FUZZ_SECONDS ?= 600
FUZZ_DIR     := $(BUILD)/fuzz
FUZZ_NAMES   := $(patsubst tests/fuzz/fuzz_%.c,%,$(wildcard tests/fuzz/fuzz_*.c))
FUZZ_BINS    := $(FUZZ_NAMES:%=$(FUZZ_DIR)/fuzz_%)

.PHONY: fuzz fuzz-build fuzz-lib
fuzz-build: $(FUZZ_BINS)

# The library, compiled again by clang with the sanitizers and coverage.
fuzz-lib:
	@$(MAKE) --no-print-directory BUILD=$(FUZZ_DIR) \
	    CC="$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer-no-link -Wno-unused-command-line-argument" \
	    $(FUZZ_DIR)/libhps.a

$(FUZZ_BINS): $(FUZZ_DIR)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz_common.h fuzz-lib
	$(FUZZ_CC) $(FUZZ_SAN) -fsanitize=fuzzer -g -O1 -std=c11 -D_GNU_SOURCE \
	    -Iinclude -Isim -Isim/cli -Iproductions/runtime -Itests/fuzz -o $@ $< $(FUZZ_DIR)/libhps.a $(LDLIBS)

fuzz: fuzz-build $(SIM_BIN) guests
	@FUZZ_NO_BUILD=1 FUZZ_SECONDS=$(FUZZ_SECONDS) tests/fuzz/run.sh $(BUILD) --long
