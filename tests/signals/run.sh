#!/bin/bash
# tests/signals/run.sh BUILD_DIR - signals, the host's and the guest's:
#   sigpipe    a guest writing to a pipe whose reader is gone (`prog |
#              head -1`), RISC-V and Alpha: with SIGPIPE's default action it
#              dies of it (hps-sim exits 141 after writing --stats and says
#              so), ignoring it gets EPIPE (exits 3); both as under
#              qemu-riscv64 / qemu-alpha.  hps-sim itself never dies of
#              SIGPIPE.
#   sigbus     a misaligned Alpha ldl_l: SIGBUS, status 135 (RISC-V AMOs:
#              tests/faults/amo_misaligned.c), as under qemu-alpha
#   interrupt  SIGINT or SIGTERM to a long batch run (after 1 s): it stops at
#              the next instruction boundary, writes the statistics
#              (sim.interrupted 1), the HPS report and the DCPI profile of
#              what ran, says so on stderr, exits 130 / 143; a second SIGINT
#              kills a run the first could not stop (a guest blocked reading)
#   shell      -d stops at --max-insts like a batch run, and says so
# Prints "ok ..." / "FAIL ..." and "signals: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-$build/hps-sim}
prof=${HPS_DCPIPROF:-$build/hps-dcpiprof}
RV_CC=${RV_CC:-riscv64-linux-gnu-gcc}
ALPHA_CC=${ALPHA_CC:-alpha-linux-gnu-gcc}
long=$build/workloads/rv64/raytrace
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-signals.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

ok()  { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
# check WHAT PROBLEMS: ok when PROBLEMS is empty
check() { if [ -z "$2" ]; then ok "$1"; else bad "$1: $2"; fi; }

# ---- SIGPIPE ---------------------------------------------------------------------
# piped LABEL QEMU PROG [ARG]: hps-sim and qemu on `PROG ARG | head -1`;
# sets st_sim, st_qemu (exit statuses of the writer) and $tmp/LABEL.{err,stats}
piped() {
    local label=$1 qemu=$2; shift 2
    "$sim" --stats "$tmp/$label.stats" "$@" 2>"$tmp/$label.err" | head -1 >"$tmp/$label.out"
    st_sim=${PIPESTATUS[0]}
    st_qemu=""
    if command -v "$qemu" >/dev/null; then
        "$qemu" "$@" 2>/dev/null | head -1 >/dev/null
        st_qemu=${PIPESTATUS[0]}
    fi
}

# sigpipe ISA QEMU PROG
sigpipe() {
    local isa=$1 qemu=$2 prog=$3 p
    piped "$isa-dfl" "$qemu" "$prog"
    p=""
    [ "$st_sim" = 141 ] || p+="exit status $st_sim, expected 141; "
    [ -z "$st_qemu" ] || [ "$st_qemu" = "$st_sim" ] || p+="$qemu exits $st_qemu; "
    grep -q 'killed by SIGPIPE' "$tmp/$isa-dfl.err" || p+="stderr does not say SIGPIPE; "
    grep -q '^simInsts' "$tmp/$isa-dfl.stats" 2>/dev/null || p+="no statistics written; "
    [ "$(cat "$tmp/$isa-dfl.out")" = "line 0" ] || p+="stdout: $(head -c 40 "$tmp/$isa-dfl.out"); "
    check "sigpipe $isa default: the guest dies of SIGPIPE (141${st_qemu:+, as $qemu}), stats written" "$p"
    piped "$isa-ign" "$qemu" "$prog" ign
    p=""
    [ "$st_sim" = 3 ] || p+="exit status $st_sim, expected 3; "
    [ -z "$st_qemu" ] || [ "$st_qemu" = "$st_sim" ] || p+="$qemu exits $st_qemu; "
    grep -q 'write: Broken pipe' "$tmp/$isa-ign.err" || p+="the guest saw no EPIPE; "
    grep -q '^simInsts' "$tmp/$isa-ign.stats" 2>/dev/null || p+="no statistics written; "
    check "sigpipe $isa ignored: write fails with EPIPE (exit 3${st_qemu:+, as $qemu})" "$p"
}

if "$RV_CC" -O2 -static -o "$tmp/pipe-rv64" tests/signals/pipe_writer.c 2>"$tmp/cc.log"; then
    sigpipe rv64 qemu-riscv64 "$tmp/pipe-rv64"
else
    bad "sigpipe rv64: $RV_CC failed: $(head -c 200 "$tmp/cc.log")"
fi
if "$ALPHA_CC" -O2 -static -Wl,--no-relax -o "$tmp/pipe-alpha" tests/signals/pipe_writer.c \
        2>"$tmp/cc.log"; then
    sigpipe alpha qemu-alpha "$tmp/pipe-alpha"
    if "$ALPHA_CC" -O2 -static -Wl,--no-relax -o "$tmp/locked" tests/signals/locked_misaligned.c \
            2>"$tmp/cc.log"; then
        "$sim" "$tmp/locked" >/dev/null 2>"$tmp/locked.err"; st=$?
        q=""
        command -v qemu-alpha >/dev/null &&
            q=$( { qemu-alpha "$tmp/locked" >/dev/null 2>&1; echo $?; } 2>/dev/null)
        p=""
        [ "$st" = 135 ] || p+="exit status $st, expected 135; "
        [ -z "$q" ] || [ "$q" = 135 ] || p+="qemu-alpha exits $q; "
        grep -qE 'bus error \(SIGBUS\): misaligned atomic.*do_locked(\+0x[0-9a-f]+)?\).*ldl_l' \
            "$tmp/locked.err" || p+="stderr: $(head -c 200 "$tmp/locked.err"); "
        check "sigbus alpha: a misaligned ldl_l is SIGBUS (135${q:+, as qemu-alpha})" "$p"
    fi
else
    bad "sigpipe alpha: $ALPHA_CC failed: $(head -c 200 "$tmp/cc.log")"
fi

# ---- SIGINT / SIGTERM --------------------------------------------------------------
# interrupt LABEL SIGNAL STATUS ARGS...: start hps-sim ARGS, send SIGNAL after 1 s
interrupt() {
    local label=$1 sig=$2 want=$3 p=""; shift 3
    "$sim" --stats "$tmp/$label.stats" "$@" >/dev/null 2>"$tmp/$label.err" </dev/null &
    local pid=$!
    sleep 1
    kill -"$sig" "$pid" 2>/dev/null || p+="the run ended within 1 s; "
    wait "$pid"; st=$?
    [ "$st" = "$want" ] || p+="exit status $st, expected $want; "
    grep -qE "^sim.interrupted +1 " "$tmp/$label.stats" 2>/dev/null ||
        p+="statistics lack sim.interrupted 1; "
    grep -qE "interrupted by SIG$sig after [0-9]+ program instructions" "$tmp/$label.err" ||
        p+="stderr: $(head -c 200 "$tmp/$label.err"); "
    problems=$p
}

if [ ! -f "$long" ]; then
    bad "interrupt: $long not built (make BUILD=$build workloads)"
else
    interrupt int INT 130 --config ev5 "$long" train
    check "interrupt: SIGINT stops a batch run cleanly (130, statistics say interrupted)" "$problems"
    interrupt term TERM 143 "$long" ref
    check "interrupt: SIGTERM stops a functional run cleanly (143)" "$problems"
    interrupt hps INT 130 --config ev5 --acf hot_method --rate 1/100 --no-baseline \
        --report "$tmp/hps.report" "$long" train
    grep -q 'accuracy\|sampled' "$tmp/hps.report" 2>/dev/null || problems+="no HPS report; "
    check "interrupt: an HPS run writes its report of what ran" "$problems"
    interrupt dcpi INT 130 --config ev5 --dcpi "$tmp/db" --no-baseline "$long" train
    "$prof" "$tmp/db" >"$tmp/prof.out" 2>&1 || problems+="hps-dcpiprof: $(head -c 200 "$tmp/prof.out"); "
    grep -q raytrace "$tmp/prof.out" || problems+="no raytrace samples in the database; "
    check "interrupt: a DCPI run writes its profile of what ran" "$problems"
fi
# a second SIGINT kills a run that the first could not stop: the guest is
# blocked reading a pipe that stays open
stdin_prog=$build/guest/rv64/stdin_read
if [ -f "$stdin_prog" ]; then
    p=""
    mkfifo "$tmp/fifo"
    "$sim" "$stdin_prog" <"$tmp/fifo" >/dev/null 2>&1 &
    spid=$!
    exec 9>"$tmp/fifo"              # a writer that never writes: the guest blocks
    sleep 1
    kill -INT "$spid"; sleep 0.5
    kill -0 "$spid" 2>/dev/null || p+="the first SIGINT ended a blocked run; "
    kill -INT "$spid" 2>/dev/null; sleep 0.5
    if kill -0 "$spid" 2>/dev/null; then
        p+="the second SIGINT did not kill it; "
        kill -KILL "$spid"
    fi
    exec 9>&-
    wait "$spid"; st=$?
    [ "$st" = 130 ] || p+="status $st, expected 130 (killed by SIGINT); "
    check "interrupt: a second SIGINT kills at once" "$p"
fi

# ---- the shell stops at --max-insts ----------------------------------------------------
hello=$build/guest/rv64/hello
printf 'c\nstep\nback 10\nstep 50\nq\n' | "$sim" -d --max-insts 100 "$hello" >"$tmp/sh.out" 2>&1
st=$?
p=""
[ "$st" = 0 ] || p+="exit status $st; "
[ "$(grep -c 'stopped by --max-insts after 100 program instructions' "$tmp/sh.out")" = 2 ] ||
    p+="output: $(tr '\n' '|' <"$tmp/sh.out" | head -c 300); "
grep -q 'the program has finished' "$tmp/sh.out" || p+="step past the limit was not refused; "
check "shell: -d stops at --max-insts 100 and says so (again after back)" "$p"

echo "signals: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
