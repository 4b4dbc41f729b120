#!/bin/bash
# accuracy_table.sh BUILD_DIR [SIZE] - the table of pipeline/README.md
# "Sampled simulation" (a measurement, not part of make test): every
# workload at SIZE (default train) under ev5 and r10k, in full detail and
# with --sample SAMPLE_SPEC (default 1000:2000:20k), as a markdown table of
# the full and sampled CPI, the error, the 99.7% confidence interval, the
# units, and the host CPU seconds (user time, which other jobs on the
# machine disturb less than wall time) of both runs.
# SAMPLE_ONLY="name ..." picks workloads, SAMPLE_MODELS the presets.
set -u
build=${1:-build}
size=${2:-train}
cd "$(dirname "$0")/../.." || exit 2
sim=${HPS_SIM:-$build/hps-sim}
spec=${SAMPLE_SPEC:-1000:2000:20k}
models=${SAMPLE_MODELS:-ev5 r10k}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
names=${SAMPLE_ONLY:-$(cd "$build/workloads/rv64" && ls)}

# run TAG ARGS...: the simulation with statistics in $tmp/TAG.json, its
# user CPU seconds in $tmp/TAG.s
run() {
    local tag=$1; shift
    /usr/bin/time -f %U -o "$tmp/$tag.s" "$sim" --no-ground-truth --stats-json "$tmp/$tag.json" \
        "$@" >/dev/null 2>"$tmp/$tag.err"
}
stat() {   # stat TAG NAME -> the value of statistic NAME
    sed -n "s/^  \"$2\": {\"value\": \([0-9.e+-]*\),.*/\1/p" "$tmp/$1.json"
}

echo "| workload | model | Minsts | full CPI | sampled CPI | error | 99.7% CI | units | full s | sampled s |"
echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
for m in $models; do
    for n in $names; do
        p=$build/workloads/rv64/$n
        run full --config "$m" "$p" "$size" || { echo "| $n | $m | full run failed |"; continue; }
        run samp --config "$m" --sample "$spec" "$p" "$size" ||
            { echo "| $n | $m | sampled run failed |"; continue; }
        awk -v n="$n" -v m="$m" -v i="$(stat full simInsts)" -v f="$(stat full cpu.cpi)" \
            -v s="$(stat samp sample.cpi)" -v ci="$(stat samp sample.cpiCI)" \
            -v u="$(stat samp sample.units)" -v fs="$(cat "$tmp/full.s")" \
            -v ss="$(cat "$tmp/samp.s")" 'BEGIN{
            printf "| %s | %s | %.0f | %.4f | %.4f | %+.2f%% | +-%.2f%% | %d | %.1f | %.1f |\n",
                   n, m, i / 1e6, f, s, 100 * (s - f) / f, 100 * ci / s, u, fs, ss }'
    done
done
