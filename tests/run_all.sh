#!/bin/bash
# run_all.sh BUILD_DIR - the whole test suite behind `make test`: the include
# layering check (layers.txt), unit tests,
# bad-input tests, a short run of every fuzz harness (tests/fuzz), README's
# usage block against --help, what a new user
# meets first (data files found from anywhere, reproducible environment,
# provenance), guest-fault tests, bounded guest and host memory, confinement (a guest cannot reach the
# host through its file system or /proc), host and guest signals (SIGPIPE, SIGBUS,
# SIGINT/SIGTERM), guest threads,
# timing-model micro-benchmarks,
# differential tests against qemu-riscv64 and qemu-alpha (static programs,
# and dynamic ones through --sysroot, each also on the block loop, --no-jit;
# the signal and written-code programs
# on every timing model too), the workload checks, DISE/HPS and
# DCPI profiling end to end, the DCPI tools and profile exports, sweeps,
# the paper figures (tests/figures), the interactive shell, the pipeline
# views and the
# feature-combination matrix (every model x every feature, both ISAs).  Each
# suite ends with "N passed, M failed"; this script adds them up and ends
# with the same line for the whole run.
set -u
build=${1:-build}
cd "$(dirname "$0")/.."
# The simulator under test: the one built in BUILD_DIR unless HPS_SIM says.
HPS_SIM=${HPS_SIM:-$(cd "$build" 2>/dev/null && pwd)/hps-sim}
export HPS_SIM
# Suites run HPS_TEST_JOBS at a time (default: the number of cores), the
# longest first; each one's output is shown whole when it ends, headed by
# its wall time, so the logs of two suites never interleave.
jobs=${HPS_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
logs=$(mktemp -d "${TMPDIR:-/tmp}/hps-test-all.XXXXXX") || exit 2
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$logs"' EXIT
total_p=0; total_f=0; failed_suites=""; failure_lines=""; times=""
declare -A suite_of=()                  # pid -> suite name

# start_suite NAME CMD...: runs in the background into $logs/NAME.{log,rc,s}
start_suite() {
    local name=$1; shift
    ( s0=$(date +%s); "$@" >"$logs/$name.log" 2>&1; echo $? >"$logs/$name.rc"
      echo $(( $(date +%s) - s0 )) >"$logs/$name.s" ) &
    suite_of[$!]=$name
}

# failure_excerpt NAME LOG RC: the first lines of a failing suite's log that
# say what failed (its last lines when none does), repeated in the summary
# so that the end of the output, all a CI report may keep, says why
failure_excerpt() {
    local lines
    lines=$(grep -m 8 -E 'FAIL|not ok|[Ee]rror|Assertion|Segmentation|Abort' "$2")
    [ -n "$lines" ] || lines=$(tail -n 5 "$2")
    printf '%s (exit %s):\n%s' "$1" "$3" "$(printf '%s' "$lines" | cut -c 1-300 | sed 's/^/    /')"
}

# finish_suite NAME: show its log and add its "N passed, M failed" line
# (a suite that prints none, or fails with 0 failures, counts one failure)
finish_suite() {
    local name=$1 log=$logs/$1.log line p f rc secs
    rc=$(cat "$logs/$name.rc" 2>/dev/null || echo 1); secs=$(cat "$logs/$name.s" 2>/dev/null || echo "?")
    echo "=== $name (${secs} s)"
    cat "$log"
    line=$(grep -E '[0-9]+ passed, [0-9]+ failed' "$log" | tail -1)
    p=$(printf '%s' "$line" | sed -E 's/.*\b([0-9]+) passed.*/\1/'); p=${p:-0}
    f=$(printf '%s' "$line" | sed -E 's/.*\b([0-9]+) failed.*/\1/'); f=${f:-0}
    if [ -z "$line" ] || { [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; }; then f=$((f + 1)); fi
    total_p=$((total_p + p)); total_f=$((total_f + f))
    if [ "$f" -ne 0 ]; then
        failed_suites="$failed_suites $name"
        failure_lines="$failure_lines$(failure_excerpt "$name" "$log" "$rc")"$'\n'
    fi
    times="$times$secs $name"$'\n'
}

# wait_one: wait for any running suite and finish it
wait_one() {
    local pid
    wait -n -p pid "${!suite_of[@]}"
    finish_suite "${suite_of[$pid]}"
    unset "suite_of[$pid]"
}

run_suite() {
    while [ "${#suite_of[@]}" -ge "$jobs" ]; do wait_one; done
    start_suite "$@"
}

run_suite diff       tests/diff/run.sh "$build"
run_suite matrix     tests/matrix/run.sh "$build"
run_suite dise       tests/dise/run.sh "$build"
run_suite workloads  tests/workloads_check.sh "$build"
run_suite dise-alpha env DISE_ISA=alpha-static DISE_WORKLOADS="bwt_compress gametree minicc objdb raytrace" tests/dise/run.sh "$build"
run_suite diff-rv64-dyn     tests/diff/run.sh "$build" --variant=rv64-dyn
run_suite diff-alpha-dyn    tests/diff/run.sh "$build" --variant=alpha-dyn
run_suite diff-alpha-static tests/diff/run.sh "$build" --variant=alpha-static
run_suite diff-models       tests/diff/models.sh "$build"
# the block loop (--no-jit; the translator is the functional core's default,
# which the runs above take) under the differential suite, every variant, and
# the translator asked for (--jit) under the blocks suite's oracle (make
# test-jit runs the differential suite with --jit alone)
for v in rv64 rv64-dyn alpha-dyn alpha-static; do
    run_suite diff-nojit-$v env HPS_SIM="$HPS_SIM --no-jit" tests/diff/run.sh "$build" --variant=$v
done
run_suite blocks-jit env HPS_BLOCKS_JIT=1 tests/blocks/run.sh "$build"
run_suite labs       tests/labs/run.sh "$build"
run_suite dcpi       tests/dcpi/run.sh "$build"
run_suite dcpitools  tests/dcpitools/run.sh "$build"
run_suite values     tests/values/run.sh "$build"
run_suite cct        tests/cct/run.sh "$build"
run_suite profileme  tests/profileme/run.sh "$build"
run_suite paths      tests/paths/run.sh "$build"
run_suite ppcct      tests/ppcct/run.sh "$build"
run_suite analysis   tests/analysis/run.sh "$build"
run_suite figures    tests/figures/run.sh "$build"
run_suite fuzz       tests/fuzz/run.sh "$build"
run_suite timing     tests/timing/run.sh "$build"
run_suite cachesanity tests/cachesanity/run.sh "$build"
run_suite sample     tests/sample/run.sh "$build"
run_suite shell      tests/shell/run.sh "$build"
run_suite checkpoint tests/checkpoint/run.sh "$build"
run_suite pipeview   tests/pipeview/run.sh "$build"
run_suite specdise   tests/specdise/run.sh "$build"
run_suite determinism       tests/diff/determinism.sh "$build"
run_suite alpha-fp-traps    tests/guest-alpha/run_traps.sh "$build"
run_suite newcomer   tests/newcomer/run.sh "$build"
run_suite faults     tests/faults/run.sh "$build"
run_suite memlimits  tests/memlimits/run.sh "$build"
run_suite confine    tests/confine/run.sh "$build"
run_suite signals    tests/signals/run.sh "$build"
run_suite threads    tests/threads/run.sh "$build"
run_suite badinput   tests/badinput/run.sh "$build"
run_suite docs       tests/docs/run.sh "$build"
run_suite blocks     tests/blocks/run.sh "$build"
run_suite unit       tests/run_unit.sh "$build"
run_suite layers     /usr/bin/python3 tools/check_layers.py
while [ "${#suite_of[@]}" -gt 0 ]; do wait_one; done
echo "=== the slowest suites (wall seconds, $jobs at a time)"
printf '%s' "$times" | sort -rn | head -8 | sed 's/^/  /'
echo "=== summary"
if [ -n "$failed_suites" ]; then
    echo "failing suites:$failed_suites"
    printf '%s' "$failure_lines"
fi
echo "total: $total_p passed, $total_f failed"
[ "$total_f" -eq 0 ]
