# hps-sim - top-level build.
#
#   make            build the simulator ($(BUILD)/hps-sim; for the default
#                   BUILD=build also copied to ./hps-sim)
#   make deps       install missing Debian packages (apt-get update first)
#   make test       the layering check, unit tests (cmocka), bad-input tests,
#                   differential tests against qemu-riscv64, workload checks
#   make test-asan  hps-sim, tools and unit tests under ASan/UBSan with leak
#                   detection, on the unit tests and a subset of the suites
#   make fuzz       every libFuzzer harness for FUZZ_SECONDS (600) each
#                   (tests/fuzz/fuzz.mk; clang)
#   make check-layers  no #include goes up a layer (layers.txt places every
#                   file; tools/check_layers.py)
#   make test-jit   the differential and blocks suites with --jit forced (the
#                   translator, sim/jit_x86.c, is the default where the run
#                   allows it; make test runs the suites both ways)
#   make bench      simulated MIPS of each model, next to qemu-riscv64, with
#                   DISE, and Alpha against RISC-V per instruction
#   make workloads  build the guest workload suite for RISC-V and Alpha
#   make readme-usage  rewrite README.md's usage block with hps-sim --help
#   make figures    the HPS paper's Figures 6-10 on every workload's test input,
#                   both ISAs, r10k (analysis/FIGURES.md; results cached in
#                   results/figures.sqlite, plots in results/figures)
#   make labs       the classroom labs: their programs (labs/src) into
#                   $(BUILD)/labs, and the expected results of the hand-outs
#                   labs/*.md regenerated from this build (labs/README.md)
#   make install PREFIX=/usr/local [DESTDIR=]  the binaries in PREFIX/bin,
#                   presets, productions and analysis scripts in
#                   PREFIX/share/hps-sim (hps-sim finds them from there);
#                   make uninstall removes them
#
# Sources are picked up by wildcard, so adding a file needs no edit here.
# BUILD selects the object directory (helpers working in parallel may use
# their own, e.g. make BUILD=build-fp).

BUILD   ?= build
# A build directory inside the tree is always named relative to it, so the
# dependency files (.d) name their targets the same way whether make was
# given BUILD=build or BUILD=$$PWD/build (a test suite running make install):
# an absolute name there would leave its objects stale for the relative one.
override BUILD := $(patsubst $(CURDIR)/%,%,$(abspath $(BUILD)))
CC      ?= gcc
CFLAGS  ?= -O2 -g
CFLAGS  += -std=c11 -D_GNU_SOURCE -Wall -Wextra -Wno-unused-parameter \
           -Iinclude -Isim -Isim/cli -Isim/isa -Isim/isa/rv64 -Isim/isa/alpha -Iproductions/runtime -MMD -MP
LDLIBS  += -lelf -ldw -linih -lreadline -lz -lm
# libopcodes is not linked: sim/disasm.c loads it with dlopen on first use
# (its relocation with libbfd's cost every process 12-16 ms), by this soname.
HPS_OPCODES_SO := $(shell objdump -p "$$($(CC) -print-file-name=libopcodes-multiarch.so)" 2>/dev/null | sed -n 's/^ *SONAME *//p')
$(BUILD)/sim/disasm.o: CFLAGS += -DHPS_OPCODES_SO='"$(HPS_OPCODES_SO)"'
# time_ooo (pipeline/ooo.c) is at the edge of the host's registers: GCC's
# partial redundancy elimination and code hoisting (RTL GCSE, tree PRE) keep
# values live across its stages and it spills them; without the three the
# `hps` preset runs 1.5-2.2% fewer host instructions (pipeline/README.md,
# issue 13 item 8).  Added only when the compiler takes them.
OOO_CFLAGS := $(shell $(CC) -Werror -fno-gcse -fno-tree-pre -fno-code-hoisting -x c -c -o /dev/null /dev/null 2>/dev/null && echo -fno-gcse -fno-tree-pre -fno-code-hoisting)
$(BUILD)/pipeline/ooo.o: CFLAGS += $(OOO_CFLAGS)

RV_CC      ?= riscv64-linux-gnu-gcc
ALPHA_CC   ?= alpha-linux-gnu-gcc
GUEST_CFLAGS ?= -O2

DEBIAN_PKGS = gcc make libc6-dev pkg-config \
              gcc-riscv64-linux-gnu libc6-dev-riscv64-cross \
              gcc-alpha-linux-gnu libc6.1-dev-alpha-cross \
              libelf-dev binutils-multiarch-dev libreadline-dev libcmocka-dev \
              libinih-dev libdw-dev qemu-user python3-matplotlib python3-numpy \
              clang libclang-rt-14-dev zlib1g-dev valgrind protobuf-compiler \
              golang-go golang-github-google-pprof-dev

SIM_SRCS  := $(wildcard sim/*.c sim/cli/*.c sim/isa/*.c sim/isa/rv64/*.c sim/isa/alpha/*.c pipeline/*.c dise/*.c dcpi/*.c)
MAIN_SRC  := sim/cli/main.c
LIB_SRCS  := $(filter-out $(MAIN_SRC),$(SIM_SRCS))
LIB_OBJS  := $(LIB_SRCS:%.c=$(BUILD)/%.o)
MAIN_OBJ  := $(MAIN_SRC:%.c=$(BUILD)/%.o)

UNIT_SRCS := $(wildcard tests/unit/test_*.c)
UNIT_BINS := $(UNIT_SRCS:tests/unit/%.c=$(BUILD)/tests/%)
UNIT_HELPERS := $(filter-out $(UNIT_SRCS),$(wildcard tests/unit/*.c))
UNIT_HELPER_OBJS := $(UNIT_HELPERS:%.c=$(BUILD)/%.o)
.SECONDARY: $(UNIT_HELPER_OBJS)

comma := ,
.PHONY: all deps test unit-test diff-test badinput-test workload-test bench \
        workloads guests clean labs

SIM_BIN := $(BUILD)/hps-sim
# the offline tools (tools/*.c, one program each, linked with libhps.a)
TOOL_SRCS := $(wildcard tools/*.c)
TOOL_BINS := $(TOOL_SRCS:tools/%.c=$(BUILD)/%)

TOOL_COPIES := $(TOOL_SRCS:tools/%.c=%)

all: $(SIM_BIN) $(TOOL_BINS) $(if $(filter build,$(BUILD)),hps-sim $(TOOL_COPIES))

# The run loop is linked first, right after main, in every binary: its
# speed depends on where it lands relative to the instructions' semantics
# (sim/engine.c says more), so where it lands should not move with every
# change elsewhere.
ENGINE_OBJ := $(BUILD)/sim/engine.o
$(SIM_BIN): $(MAIN_OBJ) $(ENGINE_OBJ) $(BUILD)/libhps.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)

$(BUILD)/%: $(BUILD)/tools/%.o $(BUILD)/libhps.a
	$(CC) $(CFLAGS) -o $@ $^ $(LDLIBS)
# the tools' objects are kept (not intermediate), so a second make relinks nothing
.SECONDARY: $(TOOL_SRCS:tools/%.c=$(BUILD)/tools/%.o)

hps-sim: $(SIM_BIN)
	cp $< $@

$(TOOL_COPIES): %: $(BUILD)/%
	cp $< $@

$(BUILD)/libhps.a: $(LIB_OBJS)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(UNIT_HELPER_OBJS) $(BUILD)/libhps.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -Itests/unit -o $@ $< $(UNIT_HELPER_OBJS) $(BUILD)/libhps.a $(LDLIBS) -lcmocka

# Programs the suites use that are neither tools nor unit tests: the
# writer of profiles with known answers (tests/dcpitools/mkprof.c).
TEST_PROGS := $(BUILD)/tests/mkprof
$(BUILD)/tests/mkprof: tests/dcpitools/mkprof.c $(BUILD)/libhps.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -o $@ $< $(BUILD)/libhps.a $(LDLIBS)

deps:
	@missing=""; for p in $(DEBIAN_PKGS); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "installing:$$missing"; \
	  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	else echo "all Debian packages present"; fi

# ---- guest programs -------------------------------------------------------
include tests/guest/guest.mk
include tests/guest-confine/confine.mk
include tests/guest-mem/guest-mem.mk
include tests/guest-alpha/guest-alpha.mk
# the guest handler runtime, embedded in libhps.a
include productions/productions.mk
include tests/timing/timing.mk
include workloads/workloads.mk
# the libFuzzer harnesses (make fuzz, make fuzz-build)
include tests/fuzz/fuzz.mk

# ---- tests ----------------------------------------------------------------
test: all $(UNIT_BINS) $(TEST_PROGS) guests workloads
	@tests/run_all.sh $(BUILD)

unit-test: $(UNIT_BINS)
	@tests/run_unit.sh $(BUILD)

# The include layers (layers.txt): no file includes a header of a higher
# layer, and every file is placed; the first suite of `make test`.
# The translator (--jit, sim/jit_x86.c) under the differential suite (every
# variant; HPS_SIM adds --jit to the simulator's command) and the blocks
# suite (HPS_BLOCKS_JIT=1: --jit --no-ground-truth against the stepped
# oracle), as `make test` runs them among the rest.
.PHONY: test-jit
test-jit: all guests workloads
	@for v in rv64 rv64-dyn alpha-dyn alpha-static; do \
	    HPS_SIM="$(BUILD)/hps-sim --jit" tests/diff/run.sh $(BUILD) --variant=$$v || exit 1; done
	@HPS_BLOCKS_JIT=1 tests/blocks/run.sh $(BUILD)

.PHONY: check-layers
check-layers:
	@/usr/bin/python3 tools/check_layers.py

# hps-sim, the tools and the unit tests with AddressSanitizer and UBSan
# (gcc) into $(BUILD)-asan, then the unit tests and a subset of the
# integration suites on them with leak detection (tests/asan/run.sh; about
# 5 minutes on 2 cores, so .ci/run runs it after make test).
# Speed work must not change what is simulated: every timing model and
# profiler on a few workloads, byte for byte against a reference build of
# REF (a commit; default the parent of HEAD) -- tests/tspeed/run.sh.  Not
# part of `make test`: it builds a second simulator.
REF ?= HEAD~1
.PHONY: test-identity
test-identity: all workloads
	@TSPEED_REF_COMMIT=$$(git rev-parse $(REF)) tests/tspeed/run.sh $(BUILD)

.PHONY: test-asan
test-asan: all guests workloads
	@tests/asan/run.sh $(BUILD)

bench: all workloads
	@tests/bench.sh $(BUILD)
	@echo
	@tests/bench_isa.sh $(BUILD)

clean:
	rm -rf $(BUILD) build-* hps-sim $(TOOL_COPIES)

-include $(LIB_OBJS:.o=.d) $(MAIN_OBJ:.o=.d) $(TOOL_SRCS:%.c=$(BUILD)/%.d) \
         $(UNIT_HELPER_OBJS:.o=.d) $(UNIT_BINS:%=%.d)

# ---- the version ------------------------------------------------------------
# hps_version.h holds `git describe` (the commit, "-dirty" with uncommitted
# changes; "unknown" outside a checkout); rewritten only when that changes,
# so only sim/cli/provenance.o is rebuilt.  Statistics, reports and
# --dump-config files record it (include/provenance.h).
GIT_DESC := $(shell git -C "$(CURDIR)" describe --always --dirty --abbrev=12 --exclude='*' 2>/dev/null || echo unknown)
VERSION_H := $(BUILD)/gen/hps_version.h
.PHONY: FORCE
$(VERSION_H): FORCE
	@mkdir -p $(dir $@)
	@printf '#define HPS_GIT "%s"\n' '$(GIT_DESC)' >$@.tmp; \
	 if cmp -s $@.tmp $@; then rm -f $@.tmp; else mv $@.tmp $@; fi
$(BUILD)/sim/cli/provenance.o: $(VERSION_H)
$(BUILD)/sim/cli/provenance.o: CFLAGS += -I$(BUILD)/gen

# ---- install ---------------------------------------------------------------
# The binaries go to $(DESTDIR)$(PREFIX)/bin; the data they look up at run
# time (include/datadir.h: EXE/../share/hps-sim) to $(DATADIR): presets
# (configs/), productions (productions/*.acf and their README) and the
# analysis scripts.  The guest handler runtime is inside the binary.
PREFIX  ?= /usr/local
DATADIR  = $(DESTDIR)$(PREFIX)/share/hps-sim
INSTALL_BINS := hps-sim $(TOOL_SRCS:tools/%.c=%)
.PHONY: install uninstall
install: $(SIM_BIN) $(TOOL_BINS)
	install -d $(DESTDIR)$(PREFIX)/bin $(DATADIR)/configs $(DATADIR)/productions $(DATADIR)/analysis
	install -m 755 $(INSTALL_BINS:%=$(BUILD)/%) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 configs/*.ini configs/README.md $(DATADIR)/configs/
	install -m 644 productions/*.acf productions/README.md $(DATADIR)/productions/
	install -m 755 analysis/*.py $(DATADIR)/analysis/
	install -m 644 analysis/README.md $(DATADIR)/analysis/
	@echo "installed in $(DESTDIR)$(PREFIX): bin/{$(subst $(eval ) ,$(comma),$(INSTALL_BINS))}, share/hps-sim"

uninstall:
	rm -f $(INSTALL_BINS:%=$(DESTDIR)$(PREFIX)/bin/%)
	rm -rf $(DATADIR)

# ---- README's usage block: hps-sim --help ---------------------------------
# The options are declared once (sim/cli/options.def) and --help is generated
# from them; this puts that text between <!-- usage:begin --> and
# <!-- usage:end --> in README.md.  tests/docs fails while it is stale.
.PHONY: readme-usage
readme-usage: $(SIM_BIN)
	@tests/docs/readme_usage.sh $(SIM_BIN) README.md >README.md.tmp || { rm -f README.md.tmp; exit 1; }
	@if cmp -s README.md.tmp README.md; then rm -f README.md.tmp; echo "README.md: usage block up to date"; \
	else mv README.md.tmp README.md; echo "README.md: usage block rewritten"; fi

# ---- sweeps: accuracy against overhead ---------------------------------------
# HPS hot methods and call pairs over rates and burst lengths, and DCPI over
# sampling periods, on SWEEP_WORKLOADS at SWEEP_SIZE; results in
# results/sweep.sqlite (points already there are not run again), plots in
# results/sweep-hps.png and results/sweep-dcpi.png.
SWEEP_WORKLOADS ?= bwt_compress,gametree,minicc
SWEEP_SIZE ?= test
.PHONY: sweep
sweep: all workloads
	@mkdir -p results
	/usr/bin/python3 analysis/sweep.py hps --db results/sweep.sqlite --build $(BUILD) \
	    --workloads $(SWEEP_WORKLOADS) --size $(SWEEP_SIZE) \
	    --acf productions/hot_method.acf,productions/hot_call_pair.acf \
	    --rates 1/10,1/30,1/100,1/300,1/1000 --bursts 1,10
	/usr/bin/python3 analysis/sweep.py dcpi --db results/sweep.sqlite --build $(BUILD) \
	    --workloads $(SWEEP_WORKLOADS) --size $(SWEEP_SIZE) \
	    --periods 1000-1100,4000-4200,16000-17000,60000-64000
	/usr/bin/python3 analysis/plot_sweep.py results/sweep.sqlite --out results/sweep-hps.png
	/usr/bin/python3 analysis/plot_sweep.py results/sweep.sqlite --kind dcpi \
	    --out results/sweep-dcpi.png

# ---- the HPS paper's Figures 6-10 (analysis/FIGURES.md) ----------------------
# Every workload's `test` input on both ISAs and the FIG_CONFIG model (r10k,
# the paper's R10000-like core).  Results are cached in $(FIG_DB): a point
# already there is not run again, so a second `make figures` only replots.
#   hot methods, call pairs:  rates FIG_RATES x bursts FIG_BURSTS, and exhaustive
#   hot data streams:         rates FIG_DS_RATES x bursts FIG_DS_BURSTS, and exhaustive
#   Figure 7 (plain DISE vs HPS): the _dise ACFs at 1/100 burst 1 (streams: burst 100)
# About 1,250 runs, 4,650 CPU seconds (measured per kind of point; FIGURES.md):
# about 40 minutes on 2 idle cores.  Plots, PNG and PDF, in $(FIG_OUT);
# FIG_JOBS points run at once, under nice.
FIG_WORKLOADS ?= $(subst $(space),$(comma),$(WORKLOAD_NAMES))
FIG_ISAS ?= rv64,alpha
FIG_CONFIG ?= r10k
FIG_RATES ?= 1/100,1/500,1/1000,1/5000,1/10000
FIG_BURSTS ?= 1,10,100
FIG_DS_RATES ?= 1/100,1/500,1/1000,1/5000,1/10000
FIG_DS_BURSTS ?= 10,100,1000
FIG_JOBS ?= 2
FIG_DB ?= results/figures.sqlite
FIG_OUT ?= results/figures
FIG_SWEEP = nice /usr/bin/python3 analysis/sweep.py hps --db $(FIG_DB) --build $(BUILD) \
    --workloads $(FIG_WORKLOADS) --isas $(FIG_ISAS) --configs $(FIG_CONFIG) --size test \
    --jobs $(FIG_JOBS)
comma := ,
space := $(empty) $(empty)
.PHONY: figures
figures: all workloads
	@mkdir -p $(dir $(FIG_DB)) $(FIG_OUT)
	$(FIG_SWEEP) --acf productions/hot_method.acf,productions/hot_call_pair.acf \
	    --rates $(FIG_RATES) --bursts $(FIG_BURSTS)
	$(FIG_SWEEP) --acf productions/hot_method_all.acf,productions/hot_call_pair_all.acf,productions/hot_data_stream_all.acf
	$(FIG_SWEEP) --acf productions/hot_data_stream.acf \
	    --rates $(FIG_DS_RATES) --bursts $(FIG_DS_BURSTS)
	$(FIG_SWEEP) --acf productions/hot_method_dise.acf,productions/hot_call_pair_dise.acf \
	    --rates 1/100 --bursts 1
	$(FIG_SWEEP) --acf productions/hot_data_stream_dise.acf --rates 1/100 --bursts 100
	/usr/bin/python3 analysis/figures.py $(FIG_DB) --out $(FIG_OUT) --config $(FIG_CONFIG) \
	    --size test
	/usr/bin/python3 analysis/sweep.py pareto --db $(FIG_DB) > $(FIG_OUT)/pareto.txt
	@echo "figures: $(FIG_OUT) (Pareto fronts in $(FIG_OUT)/pareto.txt)"

# ---- the main job of the README: profile a workload with HPS --------------
# Hot-method profiling (productions/hot_method.acf) at a sampling rate of
# 1/100 on the ev5 model: the program's output, then the HPS report (top
# methods sampled vs exact, accuracy, overhead against the same run without
# the ACF) on stderr; statistics in $(BUILD)/demo-stats.txt.
DEMO_WORKLOAD ?= bwt_compress
DEMO_ACF ?= productions/hot_method.acf
.PHONY: demo
demo: all $(BUILD)/workloads/rv64/$(DEMO_WORKLOAD)
	$(SIM_BIN) --config ev5 --acf $(DEMO_ACF) --rate 1/100 --stats $(BUILD)/demo-stats.txt \
	    $(BUILD)/workloads/rv64/$(DEMO_WORKLOAD) train
	@echo "statistics: $(BUILD)/demo-stats.txt"

# ---- classroom labs (labs/README.md) ----------------------------------------
# The lab programs (labs/src, built by labs/labs.mk into $(BUILD)/labs), then
# every expected output and table of the hand-outs labs/*.md rewritten from
# this build's hps-sim (labs/regen.py --write; tests/labs/run.sh checks them).
labs: all $(WL_RV64)
	@$(MAKE) --no-print-directory -f labs/labs.mk BUILD=$(BUILD) RV_CC=$(RV_CC) ALPHA_CC=$(ALPHA_CC)
	@/usr/bin/python3 labs/regen.py --write $(BUILD)
