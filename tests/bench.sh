#!/bin/bash
# bench.sh BUILD_DIR - speed of the simulator (a benchmark, not a test).
# Runs every workload at its `train` size (~200M RV64 instructions) on the
# functional core, plain and with ground-truth recording, and the same
# program under qemu-riscv64; prints simulated MIPS and the time ratio
# against qemu side by side.  Set BENCH_SIZE=test|train|ref to change size,
# BENCH_ONLY="name ..." to pick workloads.
set -u
build=${1:-build}
size=${BENCH_SIZE:-train}
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
json_value() {   # json_value FILE NAME -> value of stat NAME
    sed -n "s/^  \"$2\": {\"value\": \([0-9.e+-]*\),.*/\1/p" "$1"
}

progs=()
if [ -n "${BENCH_ONLY:-}" ]; then
    for n in $BENCH_ONLY; do progs+=("$build/workloads/rv64/$n"); done
else
    for p in "$build"/workloads/rv64/*; do [ -x "$p" ] && progs+=("$p"); done
fi
[ ${#progs[@]} -gt 0 ] || { echo "no workloads built (make workloads)"; exit 1; }

printf '%-16s %9s %9s %9s %9s %9s %9s %8s\n' workload Minsts plain_s plainMIPS truth_s truthMIPS qemu_s sim/qemu
tot_i=0; tot_plain=0; tot_truth=0; tot_q=0
for p in "${progs[@]}"; do
    n=$(basename "$p")
    t0=$(now); ./hps-sim --no-ground-truth --stats-json "$tmp/s.json" "$p" "$size" >/dev/null 2>"$tmp/err"; rc=$?; t1=$(now)
    if [ $rc -ne 0 ]; then echo "$n: hps-sim failed (status $rc): $(head -1 "$tmp/err")"; continue; fi
    ./hps-sim --stats-json "$tmp/t.json" "$p" "$size" >/dev/null 2>&1; t2=$(now)
    qemu-riscv64 "$p" "$size" >/dev/null 2>&1; t3=$(now)
    insts=$(json_value "$tmp/s.json" simInsts)
    read -r line < <(awk -v i="$insts" -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v n="$n" 'BEGIN{
        ps=b-a; ts=c-b; qs=d-c;
        printf "%-16s %9.1f %9.2f %9.1f %9.2f %9.1f %9.2f %8.2f\n", n, i/1e6, ps, i/ps/1e6, ts, i/ts/1e6, qs, ps/qs }')
    echo "$line"
    tot_i=$(awk -v a="$tot_i" -v b="$insts" 'BEGIN{print a+b}')
    tot_plain=$(awk -v a="$tot_plain" -v b="$t0" -v c="$t1" 'BEGIN{print a+c-b}')
    tot_truth=$(awk -v a="$tot_truth" -v b="$t1" -v c="$t2" 'BEGIN{print a+c-b}')
    tot_q=$(awk -v a="$tot_q" -v b="$t2" -v c="$t3" 'BEGIN{print a+c-b}')
done
awk -v i="$tot_i" -v p="$tot_plain" -v t="$tot_truth" -v q="$tot_q" 'BEGIN{
    printf "%-16s %9.1f %9.2f %9.1f %9.2f %9.1f %9.2f %8.2f\n", "TOTAL", i/1e6, p, i/p/1e6, t, i/t/1e6, q, p/q }'
echo "(wall-clock seconds of whole processes incl. loading; functional core; sim/qemu = plain_s / qemu_s)"
