#!/bin/bash
# workloads_check.sh - runs the guest workload suite at size "test" and
# checks it.
#
# Usage: tests/workloads_check.sh BUILD_DIR
#
# For every program in BUILD_DIR/workloads/rv64/ and BUILD_DIR/workloads/alpha-dyn/:
#   rv64     qemu-riscv64 PROG test exits 0
#   alpha    qemu-alpha -L /usr/alpha-linux-gnu PROG test exits 0 and prints
#            exactly what the rv64 build printed
#   hps-sim  (only if $HPS_SIM, default ./hps-sim, exists) hps-sim PROG test
#            gives the same stdout, stderr and exit status as the reference:
#            hps-sim, hps-sim/inorder5, hps-sim/ev5, hps-sim/r10k,
#            hps-sim/hps     the rv64 build (functional core, the two
#                            in-order timing models and the out-of-order
#                            one on its two presets) vs qemu-riscv64
#            hps-sim/rv64-dyn   the rv64-dyn build with --sysroot
#                            /usr/riscv64-linux-gnu vs qemu-riscv64
#            hps-sim/alpha-dyn  the alpha-dyn build with --sysroot
#                            /usr/alpha-linux-gnu vs qemu-alpha -L
#            hps-sim/alpha-static, .../inorder5, .../ev5, .../r10k, .../hps
#                            the alpha-static build (functional and timing)
#                            vs qemu-alpha -L on the alpha-dyn build
#            and under a timing model no stall statistic (cache, TLB,
#            write buffer, MSHR) exceeds the run's cycles
# Prints "PASS name variant" or "FAIL name variant: reason" per check, then
# "N passed, M failed"; exits nonzero if any check failed.  Programs are
# checked two at a time; the output stays in name order.

set -u

if [ $# -ne 1 ]; then
    echo "usage: $0 BUILD_DIR" >&2
    exit 2
fi

root=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "$1" 2>/dev/null && pwd) || { echo "FAIL workloads setup: no build directory $1"; echo "0 passed, 1 failed"; exit 1; }
rvdir=$build/workloads/rv64
rvdyn=$build/workloads/rv64-dyn
adir=$build/workloads/alpha-dyn
astat=$build/workloads/alpha-static
sim=${HPS_SIM:-$root/hps-sim}
alpha_root=/usr/alpha-linux-gnu
rv_root=/usr/riscv64-linux-gnu
jobs=2
limit=${WORKLOAD_TIMEOUT:-900}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/wlcheck.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

# Program names: union of both build directories, sorted.
names=$( { ls -1 "$rvdir" 2>/dev/null; ls -1 "$adir" 2>/dev/null; } | sort -u)

# run_one OUTPREFIX CMD... : stdout, stderr and exit status into files.
run_one() {
    local out=$1
    shift
    timeout "$limit" "$@" >"$out.out" 2>"$out.err"
    echo $? >"$out.rc"
}

# describe RC : human-readable exit status.
describe() {
    case $1 in
        124) echo "timed out after ${limit}s" ;;
        *) echo "exit status $1" ;;
    esac
}

# check_program NAME : runs all checks of one program, writes NAME.result.
check_program() {
    local name=$1 w=$tmp/$name res=$tmp/$name.result
    local rv=$rvdir/$name al=$adir/$name
    : >"$res"
    if [ -x "$rv" ]; then
        run_one "$w.rv" qemu-riscv64 "$rv" test
        if [ "$(cat "$w.rv.rc")" = 0 ]; then
            echo "PASS $name rv64" >>"$res"
        else
            echo "FAIL $name rv64: $(describe "$(cat "$w.rv.rc")")" >>"$res"
        fi
    else
        echo "FAIL $name rv64: no rv64 build" >>"$res"
    fi

    if [ -x "$al" ]; then
        run_one "$w.al" qemu-alpha -L "$alpha_root" "$al" test
        local arc
        arc=$(cat "$w.al.rc")
        if [ "$arc" != 0 ]; then
            echo "FAIL $name alpha: $(describe "$arc")" >>"$res"
        elif [ ! -f "$w.rv.out" ]; then
            echo "FAIL $name alpha: no rv64 output to compare with" >>"$res"
        elif ! cmp -s "$w.rv.out" "$w.al.out"; then
            echo "FAIL $name alpha: stdout differs from rv64" >>"$res"
        else
            echo "PASS $name alpha" >>"$res"
        fi
    else
        echo "FAIL $name alpha: no alpha-dyn build" >>"$res"
    fi

    [ -x "$sim" ] || return
    if [ -x "$rv" ]; then
        check_sim "$name" hps-sim "$w.sim" "$w.rv" "$rv"
        check_sim "$name" hps-sim/inorder5 "$w.in5" "$w.rv" "$rv" --config inorder5
        check_sim "$name" hps-sim/ev5 "$w.ev5" "$w.rv" "$rv" --config ev5
        check_sim "$name" hps-sim/r10k "$w.r10k" "$w.rv" "$rv" --config r10k
        check_sim "$name" hps-sim/hps "$w.hps" "$w.rv" "$rv" --config hps
        check_sim "$name" hps-sim/rv64-dyn "$w.rvd" "$w.rv" "$rvdyn/$name" --sysroot "$rv_root"
    fi
    if [ -x "$al" ]; then
        check_sim "$name" hps-sim/alpha-dyn "$w.ald" "$w.al" "$al" --sysroot "$alpha_root"
        local st=$astat/$name
        check_sim "$name" hps-sim/alpha-static "$w.als" "$w.al" "$st"
        check_sim "$name" hps-sim/alpha-static/inorder5 "$w.ali" "$w.al" "$st" --config inorder5
        check_sim "$name" hps-sim/alpha-static/ev5 "$w.ale" "$w.al" "$st" --config ev5
        check_sim "$name" hps-sim/alpha-static/r10k "$w.alo" "$w.al" "$st" --config r10k
        check_sim "$name" hps-sim/alpha-static/hps "$w.alh" "$w.al" "$st" --config hps
    fi
}

# check_sim NAME VARIANT OUTPREFIX REFPREFIX PROG [OPTION...] : hps-sim
# [OPTION...] PROG test must give what the reference run REFPREFIX.* of
# check_program gave; appends to $res.
check_sim() {
    local name=$1 variant=$2 out=$3 ref=$4 prog=$5 why=""
    shift 5
    local what=qemu-riscv64
    [ "$ref" = "$w.al" ] && what=qemu-alpha
    if [ ! -x "$prog" ]; then
        echo "FAIL $name $variant: $prog not built" >>"$res"
        return
    fi
    if [ ! -f "$ref.rc" ]; then
        echo "FAIL $name $variant: no $what output to compare with" >>"$res"
        return
    fi
    local stats=()
    case " $* " in *" --config "*) stats=(--stats "$out.stats") ;; esac
    (cd "$root" && run_one "$out" "$sim" "${stats[@]}" "$@" "$prog" test)
    [ "$(cat "$out.rc")" = "$(cat "$ref.rc")" ] ||
        why="exit status $(cat "$out.rc") vs $what $(cat "$ref.rc")"
    [ -n "$why" ] || cmp -s "$out.out" "$ref.out" || why="stdout differs from $what"
    [ -n "$why" ] || cmp -s "$out.err" "$ref.err" || why="stderr differs from $what"
    [ -n "$why" ] || [ ${#stats[@]} = 0 ] || why=$(stall_excess "$out.stats")
    if [ -z "$why" ]; then
        echo "PASS $name $variant" >>"$res"
    else
        echo "FAIL $name $variant: $why" >>"$res"
    fi
}

# stall_excess STATS: the cache, TLB and write-buffer stall statistics (and
# miss latencies) of a timing run that exceed the run's cycles ("" if none):
# a stall cannot outlast the run (the caches once queued requests behind
# bookings made for later cycles, and such sums ran into the billions).
stall_excess() {
    awk '$1 == "cpu.cycles" { c = $2 }
         $1 ~ /(stall_cycles|avg_miss_latency|StallCycles)/ { v[$1] = $2 }
         END { for (k in v) if (v[k] + 0 > c + 0) printf "%s %s > cpu.cycles %s; ", k, v[k], c }' "$1"
}

if [ -z "$names" ]; then
    echo "FAIL workloads setup: no programs in $rvdir or $adir"
    echo "0 passed, 1 failed"
    exit 1
fi

running=0
for name in $names; do
    check_program "$name" &
    running=$((running + 1))
    if [ "$running" -ge "$jobs" ]; then
        wait -n
        running=$((running - 1))
    fi
done
wait

passed=0
failed=0
for name in $names; do
    while IFS= read -r line; do
        echo "$line"
        case $line in
            PASS*) passed=$((passed + 1)) ;;
            *) failed=$((failed + 1)) ;;
        esac
    done <"$tmp/$name.result"
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
