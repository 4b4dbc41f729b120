#!/bin/bash
# tspeed/run.sh BUILD_DIR [REF_SIM] - statistics identity of the timing models
# and profilers against a reference simulator.  Speed work on the timing
# models (issue 18) must not change what they simulate: for each model
# (inorder5, ev5, r10k, hps), a few workloads on both ISAs, hps also with
# statistics only (the plain variants), and the profilers on top of them
# (DISE hot_method, hot_data_stream and hot_call_pair_all on the functional
# core, hot_method on hps: DISE on the wrong path, DCPI sampling, ProfileMe),
# the statistics (less the host-time lines), the ground-truth file, the
# profilers' reports and DCPI's analysis (static schedules, hps-dcpicalc)
# must be byte-identical to the reference's.
# REF_SIM (or $TSPEED_REF) is the reference hps-sim; without one, the
# merge base of HEAD and main (or $TSPEED_REF_COMMIT) is exported to a
# temporary directory and built there (about 30 s on two cores).  When the
# reference is the commit under test itself, this checks determinism.
set -u
build=${1:-build}
cd "$(dirname "$0")/../.."

sim=${HPS_SIM:-$(cd "$build" && pwd)/hps-sim}
wl=$(cd "$build" && pwd)/workloads
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tspeed.XXXXXX"); trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
ok()  { pass=$((pass + 1)); }
bad() { fail=$((fail + 1)); echo "FAIL: $*"; }

ref=${2:-${TSPEED_REF:-}}
if [ -z "$ref" ]; then
    commit=${TSPEED_REF_COMMIT:-$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD)}
    [ -n "$commit" ] || { echo "no reference: pass REF_SIM or set TSPEED_REF_COMMIT"; echo "0 passed, 1 failed"; exit 1; }
    mkdir "$tmp/ref"
    git archive "$commit" | tar -x -C "$tmp/ref"
    if ! make -C "$tmp/ref" -j"$(nproc)" build/hps-sim build/hps-dcpicalc >"$tmp/ref.log" 2>&1; then
        echo "reference build of $commit failed:"; tail -5 "$tmp/ref.log"
        echo "0 passed, 1 failed"; exit 1
    fi
    ref=$tmp/ref/build/hps-sim
    echo "reference: $commit"
fi

# run_case NAME ARGS...: run both simulators in a directory of their own
# (outputs named in ARGS are relative to it) and compare every file.
run_case() {
    local name=$1; shift
    local k
    for k in new ref; do
        mkdir -p "$tmp/$k/$name"
        local s=$sim; [ $k = ref ] && s=$ref
        ( cd "$tmp/$k/$name" && "$s" "$@" >stdout 2>stderr; echo $? >status )
        # what differs between any two runs: host time, provenance, paths
        find "$tmp/$k/$name" -type f -exec sed -i -e '/^host\|hostSeconds\|hostMIPS/d' \
            -e '/^# \(hps-sim [0-9]\|command:\|guest working directory\)/d' \
            -e "s|$tmp/$k/||g; s|$s|SIM|g" {} +
    done
    if diff -r "$tmp/ref/$name" "$tmp/new/$name" >"$tmp/diff" 2>&1; then ok
    else bad "$name differs from the reference:"; head -20 "$tmp/diff"; fi
}

# static_schedules CASE PROG: DCPI's analysis of CASE's database (static
# schedules by the timing model, hps-dcpicalc --all) by both builds' tool.
static_schedules() {
    local d=$tmp/new/$1 k out
    for k in new ref; do
        local s=$sim; [ $k = ref ] && s=$ref
        local tool; tool=$(dirname "$s")/hps-dcpicalc
        [ -x "$tool" ] || { bad "$1: no $tool"; return; }
        ( cd "$d" && "$tool" --all --truth gt --config ev5 db "$2" >"$tmp/calc.$k" 2>&1 )
    done
    if [ "$(wc -l <"$tmp/calc.new")" -gt 2 ] && cmp -s "$tmp/calc.ref" "$tmp/calc.new"; then ok
    else bad "$1: hps-dcpicalc --all differs from the reference's (or is empty)"
         diff "$tmp/calc.ref" "$tmp/calc.new" | head -10; fi
}

n=${TSPEED_INSTS:-2M}
for isa in rv64 alpha-static; do
    for w in gametree bwt_compress raytrace bigint_interp; do
        p=$wl/$isa/$w
        [ -x "$p" ] || { bad "$p not built (make workloads)"; continue; }
        for m in inorder5 ev5 r10k hps; do
            run_case "$isa-$w-$m" --config $m --max-insts $n --stats stats \
                --ground-truth gt "$p" test
        done
    done
    p=$wl/$isa/gametree
    run_case "$isa-acf-fn" --max-insts $n --acf hot_method --rate 1/100 \
        --report report --stats stats "$p" test
    run_case "$isa-acf-ev5" --config ev5 --max-insts $n --acf hot_method \
        --rate 1/100 --report report --stats stats "$p" test
    run_case "$isa-gametree-hps-plain" --config hps --max-insts $n --stats stats \
        --no-ground-truth "$p" test
    run_case "$isa-acf-hps" --config hps --max-insts $n --acf hot_method --rate 1/100 \
        --no-ground-truth --report report --stats stats "$p" test
    run_case "$isa-acf-streams-fn" --max-insts $n --acf hot_data_stream --rate 1/100 \
        --report report --stats stats "$p" test
    run_case "$isa-acf-pairs-all-fn" --max-insts $n --acf hot_call_pair_all \
        --report report --stats stats "$p" test
    run_case "$isa-dcpi-ev5" --config ev5 --max-insts $n --dcpi db --report report \
        --stats stats --ground-truth gt "$p" test
    static_schedules "$isa-dcpi-ev5" "$p"
    run_case "$isa-dcpi-r10k" --config r10k --max-insts $n --dcpi db --report report \
        --stats stats "$p" test
    run_case "$isa-profileme-ev5" --config ev5 --max-insts $n --profileme 500 \
        --report report --stats stats "$p" test
    run_case "$isa-pipeview-inorder5" --config inorder5 --max-insts 200k --pipeview kanata \
        --o3pipeview o3 --stats stats "$p" test
done
echo "$pass passed, $fail failed"
[ $fail -eq 0 ]
