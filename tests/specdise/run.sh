#!/bin/bash
# tests/specdise/run.sh BUILD_DIR - speculation seen by DISE, the PMU and
# the ground truth on the out-of-order model's wrong path (ooo.wrong_path,
# the hps preset; pipeline/README.md "The wrong path", dise/README.md
# "DISE on the wrong path"), on the rv64 timing micro-benchmarks:
#   dise   wp_cache under wp_loads.acf (every load counted and expanded):
#          nothing on the wrong path with ooo.wrong_path off; with it on,
#          wrong-path expansions, inserted operations and micro-ops; under
#          dise.spec_counters = checkpoint the correct path's DISE
#          statistics and final counter equal the run without a wrong path,
#          under leak the counter is larger by exactly the wrong path's
#          micro-ops and nothing else changes; a handler call on the wrong
#          path ends the walk without running (handler calls unchanged);
#   pmu    wp_cache with the PMU counting: each _spec event is its retired
#          twin plus the wrong path's (equal with the wrong path off);
#   truth  the ground-truth file's "# lost" rows sum to the statistics
#          (wrong paths on wp_cache, replays on memdep);
#   fp     wp_fp: wrong-path FP operations execute (the wrong path's
#          FP-computed address reaches a new line every iteration) and their
#          sticky flags never reach the real cpu (the program checks fflags);
#   bad    a bad dise.spec_counters value is refused (exit 2).
# Ends with "specdise: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-$build/hps-sim}
dir=$build/timing/rv64
acf=tests/specdise/wp_loads.acf
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-specdise.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0

result() {   # result OK TEXT
    if [ "$1" = 1 ]; then echo "ok   $2"; pass=$((pass + 1)); else echo "FAIL $2"; fail=$((fail + 1)); fi
}
check() {    # check TEXT CONDITION...: the condition (a test expression) holds
    local text=$1; shift
    if [ "$@" ]; then result 1 "$text"; else result 0 "$text"; fi
}
st() {       # st NAME FILE: a statistic's value (0 when absent)
    awk -v k="$1" '$1 == k { print $2; found = 1; exit } END { if (!found) print 0 }' "$2"
}
sim_run() {  # sim_run TAG ARGS...: hps-sim ARGS, stats in TAG.stats; false on failure
    local tag=$1; shift
    "$sim" "$@" >"$tmp/$tag.out" 2>"$tmp/$tag.err" || {
        result 0 "$tag: hps-sim exit status $?: $(head -c 200 "$tmp/$tag.err")"; return 1; }
}

if [ ! -x "$dir/wp_cache" ] || [ ! -x "$dir/memdep" ] || [ ! -x "$dir/wp_fp" ]; then
    echo "FAIL setup: $dir/wp_cache, memdep or wp_fp not built (make guests)"
    echo "specdise: 0 passed, 1 failed"; exit 1
fi
wp=(--config hps --set bpred.kind=not_taken)
prog=("$dir/wp_cache" 1000 0 16384)

# ---- dise ---------------------------------------------------------------------------------
for m in off checkpoint leak; do
    if [ $m = off ]; then set_m=(--set ooo.wrong_path=off); else set_m=(--set dise.spec_counters=$m); fi
    sim_run $m "${wp[@]}" "${set_m[@]}" --acf "$acf" --no-baseline --report /dev/null \
        --stats "$tmp/$m.stats" "${prog[@]}" || continue
done
O=$tmp/off.stats C=$tmp/checkpoint.stats L=$tmp/leak.stats
for k in matches expansions insertedInsts microOps handlerStalls restores; do
    check "dise off: dise.wrongPath.$k = $(st dise.wrongPath.$k "$O"), expected 0 (no wrong path)" \
        "$(st dise.wrongPath.$k "$O")" = 0
done
for k in expansions insertedInsts microOps; do
    check "dise checkpoint: dise.wrongPath.$k = $(st dise.wrongPath.$k "$C") > 0 (wrong-path loads expand)" \
        "$(st dise.wrongPath.$k "$C")" -gt 0
done
check "dise checkpoint: dise.wrongPath.restores = $(st dise.wrongPath.restores "$C") > 0" \
    "$(st dise.wrongPath.restores "$C")" -gt 0
check "dise leak: dise.wrongPath.restores = $(st dise.wrongPath.restores "$L"), expected 0" \
    "$(st dise.wrongPath.restores "$L")" = 0
for k in patternMatches replacements microOps insertedInsts counter::1; do
    check "dise checkpoint: dise.$k = $(st dise.$k "$C") equals the run without a wrong path ($(st dise.$k "$O"))" \
        "$(st dise.$k "$C")" = "$(st dise.$k "$O")"
done
for k in patternMatches replacements microOps insertedInsts; do
    check "dise leak: dise.$k = $(st dise.$k "$L") equals the run without a wrong path ($(st dise.$k "$O"))" \
        "$(st dise.$k "$L")" = "$(st dise.$k "$O")"
done
want=$(( $(st dise.counter::1 "$O") + $(st dise.wrongPath.microOps "$L") ))
check "dise leak: counter_1 = $(st dise.counter::1 "$L"), expected $want = the correct path's $(st dise.counter::1 "$O") + the wrong path's inc_1 $(st dise.wrongPath.microOps "$L")" \
    "$(st dise.counter::1 "$L")" = "$want"
check "dise leak: cpu.cycles $(st cpu.cycles "$L") = checkpoint's $(st cpu.cycles "$C") (no flag tested: only the counter differs)" \
    "$(st cpu.cycles "$L")" = "$(st cpu.cycles "$C")"
check "dise: the guest's output is the same with and without the wrong path" \
    "$(cat "$tmp/checkpoint.out")" = "$(cat "$tmp/off.out")"
# the text diagram shows the wrong path's inserted operations, squashed
if sim_run diagram "${wp[@]}" --acf "$acf" --no-baseline --report /dev/null --pipe-diagram \
        --view-from 60000 --view-count 40 "${prog[@]}"; then
    nd=$(grep -c '^[0-9a-f]* dise: .*squashed (wrong path)' "$tmp/diagram.err")
    check "dise: the pipeline diagram marks $nd inserted wrong-path operations squashed (> 0)" "$nd" -gt 0
fi
# a handler call on the wrong path never runs: the walk ends there
cat >"$tmp/call.acf" <<'EOF'
Loads: T.OPCLASS == load => Sample
Sample [sample]:
    mov d8, T.PC
    mov d9, T.PC
    call(HotMethod_handler)
    T.INSN
EOF
for m in off on; do
    sim_run call_$m "${wp[@]}" --set ooo.wrong_path=$m --acf "$tmp/call.acf" --no-baseline \
        --report /dev/null --stats "$tmp/call_$m.stats" "${prog[@]}" || continue
done
hs=$(st dise.wrongPath.handlerStalls "$tmp/call_on.stats"); he=$(st cpu.ooo.wrongPath.ended::handler "$tmp/call_on.stats")
check "dise handler: $hs wrong-path handler calls stalled > 0, each ended its walk (ended::handler $he)" \
    "$hs" -gt 0 -a "$hs" = "$he"
check "dise handler: dise.handlerCalls $(st dise.handlerCalls "$tmp/call_on.stats") = the run without a wrong path's $(st dise.handlerCalls "$tmp/call_off.stats")" \
    "$(st dise.handlerCalls "$tmp/call_on.stats")" = "$(st dise.handlerCalls "$tmp/call_off.stats")"
check "dise handler: dise.handlerInsts $(st dise.handlerInsts "$tmp/call_on.stats") = the run without a wrong path's $(st dise.handlerInsts "$tmp/call_off.stats")" \
    "$(st dise.handlerInsts "$tmp/call_on.stats")" = "$(st dise.handlerInsts "$tmp/call_off.stats")"

# ---- pmu ----------------------------------------------------------------------------------
events=dmiss:50-63,dmiss_spec:50-63,imiss_spec:2000-2047,branches_spec:2000-2047
for m in off on; do
    sim_run pmu_$m "${wp[@]}" --set ooo.wrong_path=$m --set pmu.counters=4 --dcpi "$tmp/db_$m" \
        --dcpi-events "$events" --stats "$tmp/pmu_$m.stats" "${prog[@]}" || continue
done
P=$tmp/pmu_on.stats Q=$tmp/pmu_off.stats
for e in dmiss imiss; do
    C2=$([ $e = dmiss ] && echo dcacheMisses || echo icacheMisses)
    want=$(( $(st pmu.events::$e "$P") + $(st cpu.ooo.wrongPath.$C2 "$P") ))
    check "pmu: ${e}_spec $(st pmu.events::${e}_spec "$P") = $e $(st pmu.events::$e "$P") + cpu.ooo.wrongPath.$C2 $(st cpu.ooo.wrongPath.$C2 "$P") = $want" \
        "$(st pmu.events::${e}_spec "$P")" = "$want"
    check "pmu: wrong path off: ${e}_spec $(st pmu.events::${e}_spec "$Q") = $e $(st pmu.events::$e "$Q")" \
        "$(st pmu.events::${e}_spec "$Q")" = "$(st pmu.events::$e "$Q")"
done
check "pmu: the wrong path took misses off the correct path (prefetch): dmiss $(st pmu.events::dmiss "$P") < $(st pmu.events::dmiss "$Q") without it" \
    "$(st pmu.events::dmiss "$P")" -lt "$(st pmu.events::dmiss "$Q")"
check "pmu: branches_spec $(st pmu.events::branches_spec "$P") > 2 x $(st pmu.events::branches_spec "$Q") without the wrong path (its transfers fetched)" \
    "$(st pmu.events::branches_spec "$P")" -gt $(( 2 * $(st pmu.events::branches_spec "$Q") ))
check "pmu: dmiss_spec's counter interrupts $(st pmu.interrupts::dmiss_spec "$P") > 2 x dmiss's $(st pmu.interrupts::dmiss "$P") (same period)" \
    "$(st pmu.interrupts::dmiss_spec "$P")" -gt $(( 2 * $(st pmu.interrupts::dmiss "$P") ))
check "pmu: branches counted only once programmed (no counter: 0)" "$(st pmu.events::branches "$P")" = 0
grep -q 'pmu.events::dmiss_spec .*(speculative' "$P"; result $((! $?)) "pmu: dmiss_spec is described as speculative in --stats"
grep -q 'pmu.events::dmiss .*(retired' "$P"; result $((! $?)) "pmu: dmiss is described as retired in --stats"

# ---- truth --------------------------------------------------------------------------------
# lost_sums FILE KIND: events fetch_slots issue_slots cycles rob_slot_cycles summed
lost_sums() {
    awk -F'\t' -v k="$2" '$1 == "# lost" && $2 == k { e += $5; f += $6; i += $7; c += $8; r += $9 }
        END { print e + 0, f + 0, i + 0, c + 0, r + 0 }' "$1"
}
if sim_run gt_wp "${wp[@]}" --ground-truth "$tmp/wp.gt" --stats "$tmp/gt_wp.stats" "${prog[@]}"; then
    S=$tmp/gt_wp.stats
    want="$(st cpu.ooo.wrongPath.squashes "$S") $(st cpu.ooo.wrongPath.fetched "$S") $(st cpu.ooo.wrongPath.issued "$S") $(st cpu.ooo.wrongPath.fetchCycles "$S") $(st cpu.ooo.wrongPath.robSlotCycles "$S")"
    got=$(lost_sums "$tmp/wp.gt" wrong_path)
    check "truth: wrong_path rows sum to squashes fetched issued fetchCycles robSlotCycles: $got = $want" \
        "$got" = "$want"
    br=$(awk -F'\t' '$1 == "# lost" && $2 == "wrong_path" && $9 > max { max = $9; b = $4 " " $5 }
        END { print b }' "$tmp/wp.gt")
    check "truth: the loop's mispredicted branch (in main) loses the most, in 1000 squashes: ${br:-none}" \
        "${br%%+*}" = main -a "${br#* }" = 1000
    check "truth: the rows are comments: dcpicalc-style readers see the table (v2: 16 columns)" \
        "$(grep -v '^#' "$tmp/wp.gt" | awk -F'\t' '{ print NF }' | sort -u)" = 16
fi
if sim_run gt_md --config hps --set ooo.ssit_clear_interval=1 --ground-truth "$tmp/md.gt" \
        --stats "$tmp/gt_md.stats" "$dir/memdep" 1000 1; then
    S=$tmp/gt_md.stats
    want="$(st cpu.ooo.memdep.violations "$S") 0 $(st cpu.ooo.memdep.replayedInsts "$S") $(st cpu.ooo.memdep.replayCycles "$S") 0"
    got=$(lost_sums "$tmp/md.gt" replay)
    check "truth: replay rows sum to violations 0 replayedInsts replayCycles 0: $got = $want" "$got" = "$want"
    check "truth: memdep replays at least 1000 loads ($(st cpu.ooo.memdep.violations "$S"))" \
        "$(st cpu.ooo.memdep.violations "$S")" -ge 1000
fi

# ---- fp -----------------------------------------------------------------------------------
for n in 1000 2000; do
    sim_run fp$n "${wp[@]}" --stats "$tmp/fp$n.stats" "$dir/wp_fp" $n
    check "fp: wp_fp $n exits 0 under hps (no wrong-path FP flag reached fflags)" "$?" = 0
done
grew=$(( $(st cpu.ooo.wrongPath.dcacheMisses "$tmp/fp2000.stats") - $(st cpu.ooo.wrongPath.dcacheMisses "$tmp/fp1000.stats") ))
check "fp: wrong-path D-cache misses grew by $grew over 1000 iterations, expected 1000 +-5 (an FP-computed line each)" \
    "$grew" -ge 995 -a "$grew" -le 1005

# ---- bad input ----------------------------------------------------------------------------
"$sim" --config hps --set dise.spec_counters=maybe "$dir/mispredict" 10 >/dev/null 2>"$tmp/bad.err"
rc=$?
check "bad: dise.spec_counters=maybe exits 2 naming the field ($(head -1 "$tmp/bad.err"))" \
    "$rc" = 2 -a -n "$(grep 'dise.spec_counters' "$tmp/bad.err")"

echo "specdise: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
