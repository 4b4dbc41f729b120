#!/bin/bash
# tests/guest-alpha/run_traps.sh BUILD_DIR [--dyn] - Alpha floating-point trap
# cases (alpha_fp_traps.c): each case runs as the dynamic build under
# qemu-alpha -L /usr/alpha-linux-gnu and as the static build under
# hps-sim; stdout and exit status must be identical (136 = SIGFPE for the
# trapping cases).  stderr is not compared: qemu and hps-sim word their
# SIGFPE reports differently.  Prints "PASS case" / "FAIL case: why", then
# "N passed, M failed"; exits nonzero if anything failed.
# With --dyn, hps-sim runs the dynamic build too (--sysroot).
# HPS_SIM=cmd overrides the simulator (default BUILD_DIR/hps-sim).
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
root=${HPS_SYSROOT_ALPHA:-/usr/alpha-linux-gnu}
read -r -a sim <<<"${HPS_SIM:-$build/hps-sim}"
ref="qemu-alpha -L $root"
stat=$build/guest/alpha-static/alpha_fp_traps
dyn=$build/guest/alpha-dyn/alpha_fp_traps
[ "${2:-}" = --dyn ] && { stat=$dyn; sim+=(--sysroot "$root"); }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/alpha-traps.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

pass=0 fail=0
if [ ! -x "$stat" ] || [ ! -x "$dyn" ]; then
    echo "FAIL setup: $stat or $dyn not built (make guests BUILD=$build)"
    echo "0 passed, 1 failed"
    exit 1
fi
for c in none dze inv ovf ine unf iov; do
    args=(); [ "$c" = none ] || args=("$c")
    # (in subshells whose stderr is muted: bash reports "Floating point
    # exception" when a child dies of SIGFPE)
    (timeout 60 $ref "$dyn" "${args[@]}" >"$tmp/ref.out"; echo $? >"$tmp/ref.rc") 2>/dev/null
    (timeout 60 "${sim[@]}" "$stat" "${args[@]}" >"$tmp/sim.out" 2>"$tmp/sim.err"
     echo $? >"$tmp/sim.rc") 2>/dev/null
    rr=$(cat "$tmp/ref.rc"); sr=$(cat "$tmp/sim.rc")
    if [ "$rr" != "$sr" ]; then
        echo "FAIL $c: exit status qemu $rr, hps-sim $sr ($(head -c 200 "$tmp/sim.err"))"
        fail=$((fail + 1))
    elif ! cmp -s "$tmp/ref.out" "$tmp/sim.out"; then
        echo "FAIL $c: stdout differs"
        diff "$tmp/ref.out" "$tmp/sim.out" | head -5
        fail=$((fail + 1))
    else
        echo "PASS $c (exit $sr)"
        pass=$((pass + 1))
    fi
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
