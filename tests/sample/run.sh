#!/bin/bash
# tests/sample/run.sh BUILD_DIR - sampled simulation (--sample, SMARTS;
# pipeline/README.md "Sampled simulation"):
#   accuracy    on four workloads' test inputs (rv64) under ev5 and r10k,
#               one under hps and one under inorder5, and one Alpha program
#               under ev5, the sampled CPI (--sample 20k: U 1000, W 2000) is
#               within 2% of the full-detail CPI, and the guest's output and
#               status are the full-detail run's
#   consistent  the sample.* statistics agree with the plan and each other
#               (check.py), under the defaults and U:W:N with W = 0
#   determinism the same sampled run twice: the same statistics
#   trace       --trace under --sample is the functional run's trace
#   report      the estimate and its interval on stderr, or in --report's
#               file; a run shorter than N says it has no estimate; with
#               --max-insts the units stop there
#   refused     bad specs, the functional core, and every option that needs
#               every cycle (--acf, --dcpi, --csprof, --cct, --paths, the
#               pipeline views, --ground-truth, -d): status 2, one line
# The train inputs are checked by hand (tests/sample/accuracy_table.sh, the
# table in pipeline/README.md).  Prints "ok ..." / "FAIL ..." per check and
# "sample: N passed, M failed".  HPS_SIM overrides the simulator.
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-$build/hps-sim}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-sample.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
wl=$build/workloads
spec=20k
check=tests/sample/check.py
export sim tmp check spec

# pair TAG MODEL PROG: the program's test input in full detail and sampled;
# the CPIs within 2%, the outputs and statuses the same.
pair() {
    local tag=$1 model=$2 prog=$3 f=$tmp/${1//\//_} rc_full rc_samp
    "$sim" --config "$model" --no-ground-truth --stats-json "$f.full.json" "$prog" test \
        >"$f.full.out" 2>/dev/null
    rc_full=$?
    "$sim" --config "$model" --no-ground-truth --sample "$spec" --stats-json "$f.samp.json" \
        "$prog" test >"$f.samp.out" 2>"$f.samp.err"
    rc_samp=$?
    if [ "$rc_full" -ne 0 ] || [ "$rc_samp" -ne "$rc_full" ]; then
        echo "FAIL $tag: status $rc_full in full detail, $rc_samp sampled"; return
    fi
    if ! cmp -s "$f.full.out" "$f.samp.out" || [ ! -s "$f.samp.out" ]; then
        echo "FAIL $tag-output: the sampled run's output differs from full detail's"
    else
        echo "ok $tag-output: $(wc -c <"$f.samp.out") bytes as in full detail"
    fi
    /usr/bin/python3 "$check" accuracy "$tag" "$f.full.json" "$f.samp.json" 2
}
export -f pair

{
    for w in gametree netflow minicc raytrace; do
        for m in ev5 r10k; do echo "$w/$m $m $wl/rv64/$w"; done
    done
    echo "bytecode_vm/hps hps $wl/rv64/bytecode_vm"
    echo "lz_compress/inorder5 inorder5 $wl/rv64/lz_compress"
    echo "objdb/alpha/ev5 ev5 $wl/alpha-static/objdb"
} | xargs -P 2 -L 1 bash -c 'pair "$@"' pair >"$tmp/results"

# ---- statistics, determinism, trace ----------------------------------------------
g=$wl/rv64/gametree
run() {   # run NAME ARGS...: hps-sim into $tmp/NAME.{out,err}, status in $tmp/NAME.rc
    local name=$1; shift
    "$sim" "$@" >"$tmp/$name.out" 2>"$tmp/$name.err"
    echo $? >"$tmp/$name.rc"
}
run c1 --config r10k --sample 1000:2000:25k --stats-json "$tmp/c1.json" "$g" test
run c2 --config ev5 --sample 500:0:7k --stats-json "$tmp/c2.json" "$g" test
run c3 --config r10k --sample 1000:2000:25k --stats-json "$tmp/c3.json" "$g" test
{
    /usr/bin/python3 $check consistent consistent-default "$tmp/c1.json" 1000 2000 25000
    /usr/bin/python3 $check consistent consistent-w0 "$tmp/c2.json" 500 0 7000
    /usr/bin/python3 $check same determinism "$tmp/c1.json" "$tmp/c3.json"
} >>"$tmp/results"

run tf --trace "$tmp/tf.trace" --trace-limit 3000 "$g" test
run ts --config ev5 --sample 1000:500:2000 --trace "$tmp/ts.trace" --trace-limit 3000 "$g" test
if [ "$(wc -l <"$tmp/ts.trace")" -eq 3000 ] && cmp -s "$tmp/tf.trace" "$tmp/ts.trace"; then
    echo "ok trace: 3000 lines, the functional run's (through warmed and timed phases)"
else
    echo "FAIL trace: the sampled run's trace is not the functional run's"
fi >>"$tmp/results"

# ---- reports ---------------------------------------------------------------------
{
    if grep -qE '^  CPI [0-9.]+ \+- [0-9.]+ \(99\.7% confidence' "$tmp/c1.err" &&
       grep -q 'estimate' "$tmp/c1.err"; then
        echo "ok report-stderr: $(grep -m1 '^  CPI' "$tmp/c1.err")"
    else
        echo "FAIL report-stderr: no CPI with its interval on stderr"
    fi
    run rf --config ev5 --sample 20k --report "$tmp/report.txt" "$g" test
    if grep -q '99.7% confidence' "$tmp/report.txt" && ! grep -q 'confidence' "$tmp/rf.err"; then
        echo "ok report-file: the report in --report's file only"
    else
        echo "FAIL report-file: --report did not take the sampled run's report"
    fi
    run short --config ev5 --sample 1000:2000:1G --stats-json "$tmp/short.json" "$g" test
    if [ "$(cat "$tmp/short.rc")" -eq 0 ] && grep -q 'no unit measured' "$tmp/short.err" &&
       grep -q '"sample.units": {"value": 0,' "$tmp/short.json" &&
       ! grep -q '"cpu.cpi"' "$tmp/short.json"; then
        echo "ok short-run: no unit in the first period: no estimate, said so"
    else
        echo "FAIL short-run: a run shorter than N must say it has no estimate"
    fi
    run cut --config ev5 --sample 10k --max-insts 1M --stats-json "$tmp/cut.json" "$g" test
    if grep -q '"sample.units": {"value": 100,' "$tmp/cut.json"; then
        echo "ok max-insts: 100 units of 10k in 1M instructions"
    else
        echo "FAIL max-insts: --max-insts 1M with N 10k should measure 100 units"
    fi
} >>"$tmp/results"

# ---- refused ---------------------------------------------------------------------
refused() {   # refused NAME REGEX ARGS...: status 2, one line matching REGEX
    local name=$1 re=$2; shift 2
    "$sim" "$@" >/dev/null 2>"$tmp/ref.err"
    local rc=$? lines
    lines=$(wc -l <"$tmp/ref.err")
    if [ "$rc" -eq 2 ] && [ "$lines" -eq 1 ] && grep -qE "^hps-sim: .*$re" "$tmp/ref.err"; then
        echo "ok refused-$name"
    else
        echo "FAIL refused-$name: status $rc, $lines lines: $(head -c 200 "$tmp/ref.err")"
    fi
}
{
    for bad in "" x 20k: 1:2 1:2:3:4 0:0:100 1000:2000:2999 2999 -5 10x 1:2:3x; do
        refused "spec-'$bad'" "--sample" --config ev5 --sample "$bad" "$g" test
    done
    refused functional "needs a timing model" --sample 20k "$g" test
    refused acf "--acf" --config ev5 --sample 20k --acf productions/hot_method.acf "$g" test
    refused dcpi "--dcpi" --config ev5 --sample 20k --dcpi "$tmp/db" "$g" test
    refused csprof "--csprof" --config ev5 --sample 20k --csprof cycles "$g" test
    refused cct "--cct" --config ev5 --sample 20k --cct "$g" test
    refused paths "--paths" --config ev5 --sample 20k --paths "$tmp/p.tsv" "$g" test
    refused pipeview "--pipeview" --config ev5 --sample 20k --pipeview "$tmp/k.log" "$g" test
    refused o3pipeview "--o3pipeview" --config ev5 --sample 20k --o3pipeview "$tmp/o3" "$g" test
    refused diagram "--pipe-diagram" --config ev5 --sample 20k --pipe-diagram "$g" test
    refused ground-truth "--ground-truth" --config ev5 --sample 20k --ground-truth "$tmp/gt" \
        "$g" test
    refused interactive "--interactive" --config ev5 --sample 20k -d "$g" test
} >>"$tmp/results"

cat "$tmp/results"
pass=$(grep -c '^ok' "$tmp/results"); fail=$(grep -vc '^ok' "$tmp/results")
echo "sample: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
