#!/bin/bash
# tests/diff/models.sh BUILD_DIR - the differential tests of the guest
# programs that exercise signals and code the program writes (tests/guest/
# sig_*.c, exec_stack.c) on every timing model: the same programs as
# tests/diff/run.sh, run by hps-sim --config MODEL (inorder5, ev5, r10k, and
# hps: the wrong path walks through the code the programs write and the
# signal handlers) for RISC-V (static, against qemu-riscv64) and Alpha (static, against the
# dynamic build under qemu-alpha); the functional core is covered by
# tests/diff/run.sh itself.  Signals are delivered at instruction
# boundaries of the one run loop, so a model must not change what the
# program prints or its exit status.
# Prints run.sh's lines per model ("== MODEL VARIANT" first), then
# "N passed, M failed" over all of them; exits nonzero if anything failed.
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-./hps-sim}
# the programs each variant has (tests/guest/guest.mk: inline assembly is
# RISC-V only)
rv_names=(); alpha_names=()
for f in tests/guest/sig_*.c tests/guest/exec_stack.c; do
    rv_names+=("$(basename "$f" .c)")
    grep -q '__asm__' "$f" || alpha_names+=("$(basename "$f" .c)")
done
pass=0; fail=0
for model in inorder5 ev5 r10k hps; do
    for variant in rv64 alpha-static; do
        echo "== $model $variant"
        if [ $variant = rv64 ]; then names=("${rv_names[@]}"); else names=("${alpha_names[@]}"); fi
        out=$(HPS_SIM="$sim --config $model" bash tests/diff/run.sh "$build" --variant=$variant \
              "${names[@]}")
        printf '%s\n' "$out" | grep -v ' passed, .* failed$'
        line=$(printf '%s\n' "$out" | tail -n 1)
        p=$(printf '%s' "$line" | sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1/p')
        f=$(printf '%s' "$line" | sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\2/p')
        if [ -z "$p" ]; then fail=$((fail + 1)); echo "FAIL $model $variant: no result line"; continue; fi
        pass=$((pass + p)); fail=$((fail + f))
    done
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
