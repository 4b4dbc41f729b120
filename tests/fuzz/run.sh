#!/bin/bash
# tests/fuzz/run.sh BUILD_DIR [--long] - run every libFuzzer harness
# (tests/fuzz/fuzz_*.c, built by `make fuzz-build` into BUILD_DIR/fuzz)
# from its seed corpus (tests/fuzz/seeds.sh) for FUZZ_SECONDS each (20 by
# default, 600 with --long: `make fuzz`), two at a time on the two cores.
# A harness passes when it ran that long without a finding: a crash, a
# leak, an out-of-bounds access, undefined behaviour, a timeout (10 s for
# one input), more than 2 GiB of memory, or a refusal without a message
# naming the file (tests/fuzz/fuzz_common.h).  Prints "PASS NAME:
# N executions in S s" or "FAIL NAME: ..." (the reproducer is kept in
# BUILD_DIR/fuzz/findings), and "fuzz: N passed, M failed".  The corpus
# grows in BUILD_DIR/fuzz/corpus/NAME from one run to the next.
# FUZZ_NO_BUILD=1 skips the build; FUZZ_ONLY="elf acf" picks harnesses.
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
long=0; [ "${2:-}" = --long ] && long=1
secs=${FUZZ_SECONDS:-$([ $long = 1 ] && echo 600 || echo 20)}
fz=$PWD/$build/fuzz
case $build in /*) fz=$build/fuzz ;; esac
pass=0; fail=0

if [ -z "${FUZZ_NO_BUILD:-}" ]; then
    mkdir -p "$fz"
    if ! make --no-print-directory BUILD="$build" fuzz-build >"$fz/build.log" 2>&1; then
        echo "FAIL build: make BUILD=$build fuzz-build (log: $fz/build.log)"
        tail -5 "$fz/build.log"
        echo "fuzz: 0 passed, 1 failed"
        exit 1
    fi
fi
names=${FUZZ_ONLY:-$(for f in tests/fuzz/fuzz_*.c; do n=${f#tests/fuzz/fuzz_}; echo "${n%.c}"; done)}

work=$(mktemp -d "${TMPDIR:-/tmp}/hps-fuzz-run.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
if ! tests/fuzz/seeds.sh "$build" "$work/seeds" 2>"$work/seeds.log"; then
    echo "FAIL seeds: $(head -c 300 "$work/seeds.log")"
    echo "fuzz: 0 passed, 1 failed"
    exit 1
fi
mkdir -p "$fz/findings"
export HPS_FUZZ_GUEST=$(cd "$build" && pwd)/guest/rv64/hello
export ASAN_OPTIONS=detect_leaks=1:allocator_may_return_null=0
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1

# fuzz NAME: one harness for $secs seconds; its log in $work/NAME.log
fuzz() {
    local name=$1 max_len=4096
    [ "$name" = elf ] && max_len=16384
    mkdir -p "$fz/corpus/$name"
    "$fz/fuzz_$name" -max_total_time="$secs" -print_final_stats=1 -timeout=10 \
        -rss_limit_mb=2048 -max_len=$max_len -artifact_prefix="$fz/findings/$name-" \
        "$fz/corpus/$name" "$work/seeds/$name" >"$work/$name.log" 2>&1
    echo $? >"$work/$name.rc"
}

# report NAME: PASS with the executions, or FAIL with the finding
report() {
    local name=$1 rc execs took
    rc=$(cat "$work/$name.rc" 2>/dev/null || echo 1)
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$work/$name.log" | tail -1)
    took=$(sed -n 's/.*Done \([0-9]*\) runs in \([0-9]*\) second.*/\2/p' "$work/$name.log" | tail -1)
    if [ "$rc" = 0 ] && [ -n "$execs" ]; then
        echo "PASS $name: ${execs} executions in ${took:-$secs} s"
        pass=$((pass + 1))
    else
        echo "FAIL $name: exit status $rc"
        grep -m3 -E 'ERROR|SUMMARY|runtime error|fuzz: |Test unit written' "$work/$name.log" |
            cut -c1-300 | sed 's/^/    /'
        cp "$work/$name.log" "$fz/findings/$name.log"
        fail=$((fail + 1))
    fi
}

set -- $names
while [ $# -gt 0 ]; do
    a=$1; shift
    b=${1:-}; [ $# -gt 0 ] && shift
    fuzz "$a" &
    [ -n "$b" ] && fuzz "$b" &
    wait
    report "$a"
    [ -n "$b" ] && report "$b"
done
echo "fuzz: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
