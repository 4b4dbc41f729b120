#!/bin/bash
# tests/labs/run.sh BUILD_DIR - the classroom labs (labs/*.md): builds the lab
# programs (labs/labs.mk) and the rv64 workloads into BUILD_DIR, then runs
# every command of the hand-outs and compares its output with the expected
# block that follows it (labs/regen.py --check).  A stale block means the
# simulator's output changed: look at the diff, and if the change is meant,
# `make BUILD=BUILD_DIR labs` rewrites the hand-outs.
# Prints "ok ..." / "FAIL ..." per block (a unified diff on a mismatch) and
# "labs: N passed, M failed"; exits nonzero on failure.  HPS_SIM overrides
# the simulator.
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
fail() { echo "FAIL $*"; echo "labs: 0 passed, 1 failed"; exit 1; }
[ -x "$build/hps-sim" ] || [ -n "${HPS_SIM:-}" ] || fail "no $build/hps-sim (make BUILD=$build)"
out=$(make -s -f labs/labs.mk BUILD="$build" 2>&1) || fail "building the lab programs: $out"
wl=()
for d in workloads/*/; do
    ls "$d"*.c >/dev/null 2>&1 && wl+=("$build/workloads/rv64/$(basename "$d")")
done
out=$(make -s BUILD="$build" "${wl[@]}" 2>&1) || fail "building the workloads: $out"
sim=()
[ -n "${HPS_SIM:-}" ] && sim=(--sim "$HPS_SIM")
exec /usr/bin/python3 labs/regen.py --check "$build" "${sim[@]}"
