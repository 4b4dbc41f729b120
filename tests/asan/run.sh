#!/bin/bash
# tests/asan/run.sh BUILD_DIR - the sanitizer suite (`make test-asan`, which
# .ci/run runs after make test): hps-sim, the offline tools and unit tests
# built with gcc -fsanitize=address,undefined -fno-omit-frame-pointer into
# BUILD_DIR-asan (ASAN_BUILD overrides), then run with leak detection on
# (ASAN_OPTIONS=detect_leaks=1, UBSAN_OPTIONS=halt_on_error=1:
# print_stacktrace=1): the unit tests and a representative subset of the
# integration suites -- differential tests on both ISAs, a DISE/HPS run
# and a DCPI run with both tools, the bad-input suite, the shell suite,
# the signals suite and the DCPI tools and exports suite.  The guest programs are BUILD_DIR's.  Every
# sanitizer report goes to a log file (log_path) and fails the suite it
# came from, whatever that suite's own verdict.
# Prints "PASS NAME: N passed" / "FAIL NAME: ..." per part and
# "asan: N passed, M failed" (the checks of all parts, plus one failure
# per part with a sanitizer report).
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
asan=${ASAN_BUILD:-${build%/}-asan}
san="-fsanitize=address,undefined -fno-omit-frame-pointer"
pass=0; fail=0
work=$(mktemp -d "${TMPDIR:-/tmp}/hps-asan.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

units=$(for f in tests/unit/test_*.c; do b=${f#tests/unit/}; echo "$asan/tests/${b%.c}"; done)
mkdir -p "$asan"
# shellcheck disable=SC2086
if ! make --no-print-directory -j2 BUILD="$asan" CC="${ASAN_CC:-gcc} $san" \
        "$asan/hps-sim" "$asan/hps-dcpiprof" "$asan/hps-dcpicalc" "$asan/hps-dcpistats" \
        "$asan/hps-dcpidiff" "$asan/tests/mkprof" $units \
        >"$asan/build.log" 2>&1; then
    echo "FAIL build: make BUILD=$asan (log: $asan/build.log)"
    tail -5 "$asan/build.log"
    echo "asan: 0 passed, 1 failed"
    exit 1
fi

export ASAN_OPTIONS="detect_leaks=1:log_path=$work/san/report"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1:log_path=$work/san/report"
export HPS_SIM=$PWD/$asan/hps-sim HPS_DCPIPROF=$PWD/$asan/hps-dcpiprof
export HPS_DCPICALC=$PWD/$asan/hps-dcpicalc HPS_DCPISTATS=$PWD/$asan/hps-dcpistats
export HPS_DCPIDIFF=$PWD/$asan/hps-dcpidiff HPS_MKPROF=$PWD/$asan/tests/mkprof
case $asan in /*) HPS_SIM=$asan/hps-sim HPS_DCPIPROF=$asan/hps-dcpiprof
                  HPS_DCPICALC=$asan/hps-dcpicalc HPS_DCPISTATS=$asan/hps-dcpistats
                  HPS_DCPIDIFF=$asan/hps-dcpidiff HPS_MKPROF=$asan/tests/mkprof ;; esac

# part NAME COMMAND...: run one part; its checks count, and so does any
# sanitizer report it left
part() {
    local name=$1; shift
    mkdir -p "$work/san"
    local t0=$SECONDS
    "$@" >"$work/$name.log" 2>&1
    local rc=$? line p f
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$work/$name.log" | tail -1)
    p=$(printf '%s' "$line" | sed -nE 's/.*\b([0-9]+) passed.*/\1/p'); p=${p:-0}
    f=$(printf '%s' "$line" | sed -nE 's/.*\b([0-9]+) failed.*/\1/p'); f=${f:-0}
    [ -z "$line" ] || { [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; } && f=$((f + 1))
    local reports; reports=$(ls "$work/san" 2>/dev/null)
    pass=$((pass + p)); fail=$((fail + f))
    if [ -n "$reports" ]; then
        fail=$((fail + 1))
        echo "FAIL $name: sanitizer report:"
        cat "$work"/san/* | grep -E 'ERROR|SUMMARY|runtime error|#[0-3] ' | head -12 | sed 's/^/    /'
        mkdir -p "$asan/reports" && cp "$work"/san/* "$asan/reports/"
        rm -rf "$work/san"
    elif [ "$f" -ne 0 ]; then
        echo "FAIL $name: $p passed, $f failed ($((SECONDS - t0)) s)"
        grep -E '^(FAIL|not ok)' "$work/$name.log" | head -8 | sed 's/^/    /'
    else
        echo "PASS $name: $p passed ($((SECONDS - t0)) s)"
    fi
}

# one profiled run each, checked here: a DISE/HPS run and a DCPI run with
# both offline tools on its database
profiling() {
    local wl=$build/workloads/rv64/bwt_compress n=0 bad=0
    step() { if "$@" >>"$work/prof.out" 2>&1; then n=$((n + 1)); else bad=$((bad + 1));
             echo "FAIL: $*"; tail -3 "$work/prof.out"; fi; }
    step "$HPS_SIM" --config ev5 --acf hot_method --rate 1/100 --stats "$work/hps.stats" "$wl" test
    step "$HPS_SIM" --config r10k --acf hot_call_pair --report "$work/hps.report" "$wl" test
    step "$HPS_SIM" --config ev5 --dcpi "$work/db" --dcpi-events cycles:500-550,imiss \
        --ground-truth "$work/gt" "$wl" test
    step "$HPS_DCPIPROF" "$work/db"
    step "$HPS_DCPIPROF" -p "$work/db"
    step "$HPS_DCPIPROF" -l main "$work/db"
    step "$HPS_DCPICALC" --truth "$work/gt" "$work/db" main
    step "$HPS_DCPICALC" --all --truth "$work/gt" "$work/db" bwt_compress
    echo "profiling: $n passed, $bad failed"
    [ "$bad" -eq 0 ]
}

part unit        env ACF_TIME_FACTOR=4 tests/run_unit.sh "$asan"
part diff-rv64   tests/diff/run.sh "$build" hello sort int_ops fp_math atomics malloc_stress
part diff-alpha  tests/diff/run.sh "$build" --variant=alpha-static hello int_ops fp_math strings
part profiling   profiling
part badinput    tests/badinput/run.sh "$asan"
part shell       tests/shell/run.sh "$build"
part signals     tests/signals/run.sh "$build"
part dcpitools   tests/dcpitools/run.sh "$build"
echo "asan: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
