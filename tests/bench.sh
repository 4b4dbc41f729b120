#!/bin/bash
# bench.sh BUILD_DIR - speed of the simulator (a benchmark, not a test).
# Runs every workload at its `train` size (~200M RV64 instructions) on the
# functional core, plain and with ground-truth recording (both the default
# run: the translator, sim/jit_x86.c), under the two
# in-order timing models and the out-of-order one (--config inorder5, ev5,
# r10k, hps -- the last with the wrong path; statistics but no ground-truth
# file), and the same program under
# qemu-riscv64, and the plain functional core on the block loop (--no-jit);
# prints simulated MIPS and the time ratios of the plain functional core and
# of the block loop against qemu side by side; then the functional core
# (the default run, translated, both with the ACF and without; and the
# same pair on the block loop, --no-jit) and ev5 again with DISE/HPS
# (productions/hot_method.acf at rate 1/100) against the same runs without,
# each the fastest of BENCH_REPS (default 3) runs taken in turn; and ev5
# with DCPI sampling (--dcpi, default events and periods) against ev5 alone.
# Then ev5 and r10k with --sample BENCH_SAMPLE (default 20k: SMARTS, U 1000,
# W 2000) against their full-detail runs above: seconds and CPI of both.
# Set BENCH_SIZE=test|train|ref to change size, BENCH_ONLY="name ..." to
# pick workloads.
set -u
build=${1:-build}
size=${BENCH_SIZE:-train}
cd "$(dirname "$0")/.."
sim=${HPS_SIM:-$(cd "$build" && pwd)/hps-sim}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

now() { date +%s.%N; }
reps=${BENCH_REPS:-3}
acf=(--acf productions/hot_method.acf --rate 1/100 --no-baseline --report /dev/null
     --no-ground-truth)
dcpi=(--dcpi "$tmp/db" --no-baseline --report /dev/null --no-ground-truth)
min() { awk -v m="$1" -v a="$2" -v b="$3" 'BEGIN{ s = b - a; print (m == "" || s < m) ? s : m }'; }
pair() {   # pair PROFILER PROG ARGS...: fastest wall-clock seconds of PROG without
           # and with the options in array PROFILER (acf or dcpi), $reps runs of
           # each taken in turn
    local -n prof=$1; local p=$2 a="" b="" t0 t1 t2; shift 2
    for _ in $(seq "$reps"); do
        # both write their statistics, so the JSON's cost is no profiler's
        t0=$(now); "$sim" --no-ground-truth "$@" --stats-json "$tmp/b.json" "$p" "$size" \
            >/dev/null 2>&1; t1=$(now)
        rm -rf "$tmp/db"
        "$sim" "$@" "${prof[@]}" --stats-json "$tmp/d.json" "$p" "$size" >/dev/null 2>&1; t2=$(now)
        a=$(min "$a" "$t0" "$t1"); b=$(min "$b" "$t1" "$t2")
    done
    echo "$a $b"
}
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

fmt='%-14s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %8s %7s %7s %7s\n'
printf "$fmt" workload Minsts plain_s plainM truth_s truthM in5_s in5M ev5_s ev5M r10k_s r10kM \
    hps_s hpsM qemu_s sim/qemu blk_s blkM blk/q
# columns: seconds of each run (plain, truth, inorder5, ev5, r10k, hps, qemu,
# plain on the block loop), summed in tot
tot_i=0; tot=(0 0 0 0 0 0 0 0); dise_rows=(); sample_rows=(); dcpi_rows=()
row() {   # row NAME INSTS S0 S1 S2 S3 S4 S5 S6 S7: one table line
    awk -v n="$1" -v i="$2" -v a="$3" -v b="$4" -v c="$5" -v d="$6" -v o="$7" -v h="$8" -v q="$9" \
        -v j="${10}" 'BEGIN{
        printf "%-14s %7.1f %7.2f %7.1f %7.2f %7.1f %7.2f %7.1f %7.2f %7.1f %7.2f %7.1f %7.2f %7.1f %7.2f %8.2f %7.2f %7.1f %7.2f\n",
               n, i/1e6, a, i/a/1e6, b, i/b/1e6, c, i/c/1e6, d, i/d/1e6, o, i/o/1e6, h, i/h/1e6, q, a/q,
               j, i/j/1e6, j/q }'
}
for p in "${progs[@]}"; do
    n=$(basename "$p")
    t0=$(now); "$sim" --no-ground-truth --stats-json "$tmp/s.json" "$p" "$size" >/dev/null 2>"$tmp/err"; rc=$?; t1=$(now)
    if [ $rc -ne 0 ]; then echo "$n: hps-sim failed (status $rc): $(head -1 "$tmp/err")"; continue; fi
    "$sim" --stats-json "$tmp/t.json" "$p" "$size" >/dev/null 2>&1; t2=$(now)
    "$sim" --config inorder5 --no-ground-truth --stats-json "$tmp/i.json" "$p" "$size" >/dev/null 2>&1; t3=$(now)
    "$sim" --config ev5 --no-ground-truth --stats-json "$tmp/e.json" "$p" "$size" >/dev/null 2>&1; t4=$(now)
    "$sim" --config r10k --no-ground-truth --stats-json "$tmp/o.json" "$p" "$size" >/dev/null 2>&1; t5=$(now)
    "$sim" --config hps --no-ground-truth --stats-json "$tmp/h.json" "$p" "$size" >/dev/null 2>&1; t6=$(now)
    qemu-riscv64 "$p" "$size" >/dev/null 2>&1; t7=$(now)
    "$sim" --no-jit --no-ground-truth --stats-json "$tmp/j.json" "$p" "$size" >/dev/null 2>&1; t8=$(now)
    insts=$(json_value "$tmp/s.json" simInsts)
    secs=()
    for k in 0 1 2 3 4 5 6 7; do
        a=t$k; b=t$((k + 1))
        secs+=("$(awk -v a="${!a}" -v b="${!b}" 'BEGIN{print b-a}')")
        tot[k]=$(awk -v a="${tot[k]}" -v s="${secs[k]}" 'BEGIN{print a+s}')
    done
    row "$n" "$insts" "${secs[@]}"
    for m in ev5 r10k; do     # sampled simulation against the full-detail runs above
        t0=$(now); "$sim" --config $m --sample "${BENCH_SAMPLE:-20k}" --no-ground-truth \
            --stats-json "$tmp/sm.json" "$p" "$size" >/dev/null 2>&1; t1=$(now)
        full=${secs[3]}; f=$tmp/e.json; [ $m = r10k ] && full=${secs[4]} f=$tmp/o.json
        sample_rows+=("$n $m $full $(awk -v a="$t0" -v b="$t1" 'BEGIN{print b-a}') \
$(json_value "$f" cpu.cpi) $(json_value "$tmp/sm.json" sample.cpi) $(json_value "$tmp/sm.json" sample.cpiCI)")
    done
    tot_i=$(awk -v a="$tot_i" -v b="$insts" 'BEGIN{print a+b}')
    # DISE/HPS: ev5 and the functional core with hot_method.acf at rate 1/100
    # (the default functional run is the translated one, with the ACF too;
    # blk: the same pair on the block loop)
    ev=$(pair acf "$p" --config ev5); bk=$(pair acf "$p" --no-jit); fn=$(pair acf "$p")
    added=$(json_value "$tmp/d.json" sim.runtimeInsts)
    all=$(awk -v a="$(json_value "$tmp/d.json" simInsts)" -v b="${added:-0}" 'BEGIN{print a+b}')
    dise_rows+=("$n $insts $all ${fn% *} ${fn#* } ${ev% *} ${ev#* } ${bk% *} ${bk#* }")
    # DCPI: ev5 with the counters sampling into a fresh database
    dc=$(pair dcpi "$p" --config ev5)
    added=$(json_value "$tmp/d.json" sim.runtimeInsts)
    dcpi_rows+=("$n $insts ${added:-0} ${dc% *} ${dc#* }")
done
row TOTAL "$tot_i" "${tot[@]}"
echo "(wall-clock seconds of whole processes incl. loading; M = simulated MIPS; plain/truth:"
echo " functional core without/with ground-truth recording, the default run (the translator,"
echo " sim/jit_x86.c); in5/ev5/r10k/hps: timing models with statistics, without the ground-truth"
echo " recorder, hps with its wrong path; sim/qemu = plain_s / qemu_s; blk: plain on the block"
echo " loop (--no-jit), blk/q = blk_s / qemu_s)"
echo
echo "sampled simulation: --sample ${BENCH_SAMPLE:-20k} against full detail (seconds as above)"
printf '%s\n' "${sample_rows[@]}" | awk '{ printf "%-14s %-5s full %7.2f s  sampled %7.2f s  %5.1fx  CPI %.4f -> %.4f (%+.2f%%, CI +-%.2f%%)\n",
    $1, $2, $3, $4, $3 / $4, $5, $6, 100 * ($6 - $5) / $5, 100 * $7 / $6 }'

echo
echo "DISE/HPS: hot_method.acf at rate 1/100 (burst 1), same workloads"
dfmt='%-14s %7s %7s %7s %7s %7s %6s %7s %7s %6s %7s %7s %7s %7s %6s\n'
printf "$dfmt" workload Minsts fn_s fnM acf_s acfM slow blk_s bacf_s bslow ev5_s ev5M acf_s acfM slow
printf '%s\n' "${dise_rows[@]}" | awk '
    { n=$1; i=$2; j=$3; a=$4; b=$5; c=$6; d=$7; e=$8; f=$9
      ti+=i; tj+=j; ta+=a; tb+=b; tc+=c; td+=d; te+=e; tf+=f
      printf "%-14s %7.1f %7.2f %7.1f %7.2f %7.1f %5.1f%% %7.2f %7.2f %5.1f%% %7.2f %7.1f %7.2f %7.1f %5.1f%%\n",
             n, i/1e6, a, i/a/1e6, b, j/b/1e6, (b/a-1)*100, e, f, (f/e-1)*100,
             c, i/c/1e6, d, j/d/1e6, (d/c-1)*100 }
    END { printf "%-14s %7.1f %7.2f %7.1f %7.2f %7.1f %5.1f%% %7.2f %7.2f %5.1f%% %7.2f %7.1f %7.2f %7.1f %5.1f%%\n",
             "TOTAL", ti/1e6, ta, ti/ta/1e6, tb, tj/tb/1e6, (tb/ta-1)*100, te, tf, (tf/te-1)*100,
             tc, ti/tc/1e6, td, tj/td/1e6, (td/tc-1)*100 }'
echo "(seconds: the fastest of $reps runs of each, with and without the ACF in turn;"
echo " fn: functional core, plain, the default run (the translator), and acf the same with the"
echo " ACF, translated too, slow computed on that core; blk/bacf/bslow: the same pair on the"
echo " block loop (--no-jit); ev5: the 21164-like model; acf: the same with the ACF, its"
echo " MIPS counting every simulated instruction: program, inserted and handler; slow = extra"
echo " host time of the run with the ACF, which also simulates the handlers and records the"
echo " exact profile)"

echo
echo "DCPI: ev5 with --dcpi (default events and periods), same workloads"
cfmt='%-14s %7s %9s %7s %7s %7s %7s %6s\n'
printf "$cfmt" workload Minsts drv_insts ev5_s ev5M dcpi_s dcpiM slow
printf '%s\n' "${dcpi_rows[@]}" | awk '
    { n=$1; i=$2; h=$3; a=$4; b=$5; ti+=i; th+=h; ta+=a; tb+=b
      printf "%-14s %7.1f %9d %7.2f %7.1f %7.2f %7.1f %5.1f%%\n", n, i/1e6, h, a, i/a/1e6, b, i/b/1e6, (b/a-1)*100 }
    END { printf "%-14s %7.1f %9d %7.2f %7.1f %7.2f %7.1f %5.1f%%\n", "TOTAL", ti/1e6, th, ta, ti/ta/1e6, tb, ti/tb/1e6, (tb/ta-1)*100 }'
echo "(seconds: the fastest of $reps runs of each, with and without DCPI in turn; drv_insts:"
echo " instructions of the guest interrupt handler and driver; MIPS count program instructions;"
echo " slow = extra host time of the run with DCPI, which also simulates the driver, merges the"
echo " database and records the exact per-pc truth it is scored against)"
