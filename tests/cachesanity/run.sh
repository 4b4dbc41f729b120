#!/bin/bash
# tests/cachesanity/run.sh BUILD_DIR - the memory statistics of every timing
# model stay within what the configuration allows (check_stats.py): no
# average miss latency above the configuration's worst miss, no stall
# statistic above the run's cycles.  Runs every workload's test input (the
# first 10M instructions of the rv64 build under inorder5, ev5, r10k and
# hps; of the alpha-static build, 4M under r10k and hps), and a pointer chase and
# a store stream through memory (tests/timing) under r10k and hps, with
# ooo.wrong_path both ways.  Two runs at a time; prints "ok ..." or
# "FAIL ..." per run, then "cachesanity: N passed, M failed".  HPS_SIM
# overrides the simulator.
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-$build/hps-sim}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-cachesanity.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

models="inorder5 ev5 r10k hps"
for m in $models; do
    "$sim" --config "$m" --print-config >"$tmp/$m.cfg" 2>&1 || { echo "FAIL $m: --print-config"; exit 1; }
done

# one TAG MODEL [hps-sim arguments...]: a run and its check, one line out
one() {
    local tag=$1 model=$2 f; shift 2
    f=$tmp/${tag//\//_}
    if ! "$sim" --config "$model" --stats-json "$f.json" "$@" >"$f.out" 2>&1; then
        grep -q 'stopped by --max-insts' "$f.out" ||
            { echo "FAIL $tag: hps-sim failed: $(head -c 200 "$f.out")"; return; }
    fi
    /usr/bin/python3 tests/cachesanity/check_stats.py "$tag" "$f.json" "$tmp/$model.cfg"
}
export -f one
export sim tmp

{
    for w in "$build"/workloads/rv64/*; do
        for m in $models; do echo "$(basename "$w")/rv64/$m $m --max-insts 10M $w test"; done
    done
    for w in "$build"/workloads/alpha-static/*; do
        for m in r10k hps; do echo "$(basename "$w")/alpha/$m $m --max-insts 4M $w test"; done
    done
    chase=$build/timing/rv64/chase stream=$build/timing/rv64/store_stream
    for m in r10k hps; do
        for wp in on off; do
            echo "chase-mem/$m/wp-$wp $m --set ooo.wrong_path=$wp $chase 300 4160 2048"
            echo "store-stream/$m/wp-$wp $m --set ooo.wrong_path=$wp $stream 2000 1048576"
        done
    done
} | xargs -P 2 -L 1 bash -c 'one "$@"' one >"$tmp/results"

sort "$tmp/results"
pass=$(grep -c '^ok' "$tmp/results"); fail=$(grep -vc '^ok' "$tmp/results")
echo "cachesanity: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
