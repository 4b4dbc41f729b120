#!/bin/bash
# tests/timing/run.sh BUILD_DIR - timing micro-benchmarks: each program of
# BUILD_DIR/timing/rv64 (tests/timing/*.c) runs its loop N1 and N2 times under
# ./hps-sim with a timing model; the cycles per iteration,
#     (cpu.cycles(N2) - cpu.cycles(N1)) / (N2 - N1)
# (the difference removes start-up and warm-up), must equal, within +-1, the
# value derived here from the configuration the run used (read back with
# --print-config, so the expectation follows every --set).  Several checks
# rerun a benchmark with one parameter changed to see the measurement move
# with it.  The ground-truth files of some runs are checked too
# (tests/timing/gt_check.py): the stall cycles are charged to the right cause
# and culprit, and the head cycles add up to cpu.cycles.
# Prints "ok ..." or "FAIL ..." per check, then "timing: N passed, M failed";
# exits nonzero on failure.  HPS_SIM overrides the simulator.
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-./hps-sim}
dir=$build/timing/rv64
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-timing.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0

result() {   # result OK TEXT
    if [ "$1" = 1 ]; then echo "ok   $2"; pass=$((pass + 1)); else echo "FAIL $2"; fail=$((fail + 1)); fi
}

# use MODEL [KEY=VALUE...]: the machine of the checks that follow; its whole
# configuration is read back for p.
use() {
    model=$1; shift
    sets=("$@")
    setargs=()
    for s in "$@"; do setargs+=(--set "$s"); done
    machine="$model${*:+ ($*)}"
    conf=$("$sim" --config "$model" "${setargs[@]}" --print-config 2>&1) ||
        result 0 "$machine: bad configuration: $conf"
}

# p KEY: a configuration value as a number (sizes in bytes, true = 1) or name
p() {
    local v
    v=$(printf '%s\n' "$conf" | awk -v k="$1" '$1 == k && $2 == "=" { print $3; exit }')
    case $v in
        *GiB) echo $(( ${v%GiB} << 30 )) ;;
        *MiB) echo $(( ${v%MiB} << 20 )) ;;
        *KiB) echo $(( ${v%KiB} << 10 )) ;;
        *B) echo "${v%B}" ;;
        true) echo 1 ;;
        false) echo 0 ;;
        *) echo "$v" ;;
    esac
}

max() { if [ "$1" -gt "$2" ]; then echo "$1"; else echo "$2"; fi; }

# run TAG PROG ARGS...: one run; cpu.cycles on stdout, ground truth in $tmp/TAG.gt
run() {
    local tag=$1 prog=$2; shift 2
    "$sim" --config "$model" "${setargs[@]}" --stats-json "$tmp/$tag.json" \
        --ground-truth "$tmp/$tag.gt" "$dir/$prog" "$@" >"$tmp/$tag.out" 2>&1 || {
        echo "hps-sim exit status $?: $(head -c 200 "$tmp/$tag.out")"; return 1; }
    sed -n 's/^  "cpu.cycles": {"value": \([0-9]*\),.*/\1/p' "$tmp/$tag.json"
}

# measure NAME EXPECTED WHY PROG N1 N2 [ARGS...]: checks the cycles per
# iteration; leaves expected, n1, n2, c2 and the ground truth $tmp/{1,2}.gt
# for gt.
measure() {
    local name=$1 want=$2 why=$3 prog=$4 c1 got ok
    expected=$want; n1=$5; n2=$6; shift 6
    if [ ! -x "$dir/$prog" ]; then result 0 "$machine: $name: $dir/$prog not built"; return; fi
    if ! c1=$(run 1 "$prog" "$n1" "$@") || ! c2=$(run 2 "$prog" "$n2" "$@"); then
        result 0 "$machine: $name: $c1${c2:-}"; c2=0; return
    fi
    got=$(awk -v a="$c1" -v b="$c2" -v n="$n1" -v m="$n2" 'BEGIN { printf "%.3f", (b - a) / (m - n) }')
    ok=$(awk -v g="$got" -v w="$want" 'BEGIN { d = g - w; print (d <= 1 && d >= -1) ? 1 : 0 }')
    result "$ok" "$machine: $name: $got cycles/iteration, expected $want = $why"
}

# gt NAME [gt_check.py options]: ground-truth checks of the last measure
gt() {
    local name=$1 line; shift
    while IFS= read -r line; do
        case $line in
            "ok "*) echo "$line"; pass=$((pass + 1)) ;;
            *) echo "FAIL $line"; fail=$((fail + 1)) ;;
        esac
    done < <(python3 tests/timing/gt_check.py "$machine: $name" "$tmp/1.gt" "$tmp/2.gt" \
                 "$c2" "$n1" "$n2" --stats "$tmp/2.json" "$@" 2>&1 | sed 's/^FAIL //')
}

drain() {   # cycles after the last issue (see pipeline/README.md)
    case $model in ev5) echo 1 ;; r10k) echo 0 ;; *) echo 2 ;; esac
}

# ---- the five-stage pipeline ---------------------------------------------------
# Every instruction holds EX for its latency (no pipelined units), so a loop
# costs the sum of its instructions' latencies plus its stalls.

inorder5_alu() {
    local a; a=$(p lat.int_alu)
    measure alu_dep $((20 * a)) "20 instructions x lat.int_alu $a" alu_dep 1000 2000
    measure alu_indep $((20 * a)) "20 instructions x lat.int_alu $a" alu_indep 1000 2000
}

# Dependent ALU chain with forwarding switched off: each of the 17
# back-to-back dependences waits 1 (MEM/WB -> EX) or 2 (register file) more.
inorder5_forwarding() {
    local extra=0
    [ "$(p inorder5.forward_ex_ex)" = 1 ] || extra=1
    [ "$extra" = 1 ] && [ "$(p inorder5.forward_mem_ex)" = 0 ] && extra=2
    measure alu_dep $((20 + 17 * extra)) "20 instructions + 17 dependences x $extra" alu_dep 1000 2000
}

# Two interleaved chains (alu_dep2): each add depends on the one two
# instructions back, which enters EX while its producer is in WB.  MEM/WB ->
# EX forwarding covers that distance (and EX/MEM -> EX alone does not: the
# value must come from the register file, one cycle later); 8 of the 18
# adds wait (the first pair depends on the previous iteration, 4 back).
inorder5_forwarding2() {
    local extra=1
    [ "$(p inorder5.forward_mem_ex)" = 1 ] && extra=0
    measure alu_dep2 $((20 + 8 * extra)) "20 instructions + 8 distance-2 dependences x $extra" alu_dep2 1000 2000
}

inorder5_mul() {
    local m a; m=$(p lat.int_mul); a=$(p lat.int_alu)
    measure mul_dep $((8 * m + 4 * a)) "8 x lat.int_mul $m + 4 x lat.int_alu $a" mul_dep 1000 2000
}

inorder5_fdiv() {
    local d a; d=$(p lat.fp_div); a=$(p lat.int_alu)
    measure fdiv_indep $((8 * d + 4 * a)) "8 x lat.fp_div $d + 4 x lat.int_alu $a" fdiv_indep 1000 2000
}

# Pointer chase: a load holds MEM for its access time M; its dependent
# enters EX R = max(M + 1, lat.load_use) after it.  Per iteration: 7 chained
# loads, then the last load's M plus the 4 instructions behind it (nop, nop,
# branch, counter) or R, whichever is longer.
inorder5_chase() {
    local name=$1 m=$2 why=$3 i1=$4 i2=$5 r; shift 5
    r=$(max $((m + 1)) "$(p lat.load_use)")
    measure "chase $name" $((7 * r + $(max "$r" $((m + 4))))) \
        "7 x R + max(R, M + 4), M = $why, R = max(M + 1, lat.load_use) = $r" chase "$i1" "$i2" "$@"
}

# Mispredicted backward branch (bpred.kind=not_taken): 2 instructions + the
# penalty of the resolving stage.
inorder5_mispredict() {
    local res pen; res=$(p inorder5.branch_resolve)
    case $res in id) pen=1 ;; ex) pen=2 ;; *) pen=3 ;; esac
    measure mispredict $((2 + pen)) "2 instructions + $pen (branch_resolve = $res)" mispredict 1000 2000
    gt mispredict --cause branch_mispredict --per-iter "$pen" --branch --drain "$(drain)"
}

# Store stream through the L2: the write buffer drains one store at a time;
# per D-cache line the first store misses (l1d.hit_latency + l2.hit_latency),
# the others hit; 64 bytes of stores per iteration.
store_expect() {
    local line h1 h2; line=$(p l1d.line); h1=$(p l1d.hit_latency); h2=$(p l2.hit_latency)
    want=$(( 64 / line * (h2 + line / 8 * h1) ))
    why="64/l1d.line $line x (l2.hit_latency $h2 + l1d.line/8 x l1d.hit_latency $h1)"
    region=$((4 * $(p l1d.size)))
}

section_inorder5() {
    local h1 h2 lat bpc line tlb n
    use inorder5
    inorder5_alu
    inorder5_mul
    inorder5_fdiv
    use inorder5 lat.int_alu=2; inorder5_alu
    use inorder5 lat.int_mul=7; inorder5_mul
    use inorder5 inorder5.forward_ex_ex=false; inorder5_forwarding
    use inorder5 inorder5.forward_ex_ex=false inorder5.forward_mem_ex=false; inorder5_forwarding
    use inorder5 inorder5.forward_mem_ex=false; inorder5_forwarding
    for fwd in "" inorder5.forward_ex_ex=false inorder5.forward_mem_ex=false \
               "inorder5.forward_ex_ex=false inorder5.forward_mem_ex=false"; do
        # shellcheck disable=SC2086
        use inorder5 $fwd; inorder5_forwarding2
    done

    for lu in 2 3; do
        use inorder5 lat.load_use=$lu
        inorder5_chase "L1 hit" "$(p l1d.hit_latency)" "l1d.hit_latency" 1000 2000 64 1
    done
    for l2 in 10 20; do
        use inorder5 l2.hit_latency=$l2
        h1=$(p l1d.hit_latency); h2=$(p l2.hit_latency); line=$(p l2.line)
        n=$((4 * $(p l1d.size) / line))
        inorder5_chase "L2 hit" $((h1 + h2)) "l1d.hit_latency $h1 + l2.hit_latency $h2" \
            $((2 * n / 8)) $((4 * n / 8)) "$line" "$n"
        gt "chase L2" --cause dcache_miss --per-iter $((expected - 12)) --chase --drain "$(drain)"
    done
    for ml in 100 200; do
        use inorder5 mem.latency=$ml dtlb.miss_penalty=0
        h1=$(p l1d.hit_latency); h2=$(p l2.hit_latency); lat=$(p mem.latency)
        bpc=$(p mem.bytes_per_cycle); line=$(p l2.line)
        n=$((4 * $(p l2.size) / line))
        inorder5_chase memory $((h1 + h2 + lat + (line + bpc - 1) / bpc)) \
            "l1d.hit_latency $h1 + l2.hit_latency $h2 + mem.latency $lat + l2.line/mem.bytes_per_cycle $line/$bpc" \
            $((2 * n / 8)) $((4 * n / 8)) "$line" "$n"
    done
    for pen in 20 50; do
        use inorder5 dtlb.miss_penalty=$pen
        h1=$(p l1d.hit_latency); tlb=$(p dtlb.miss_penalty); n=$((2 * $(p dtlb.entries)))
        inorder5_chase "D-TLB miss" $((h1 + tlb)) "l1d.hit_latency $h1 + dtlb.miss_penalty $tlb" \
            $((64 * n / 8)) $((128 * n / 8)) $(($(p mem.page_size) + $(p l1d.line))) "$n"
        gt "chase D-TLB" --cause dtlb_miss --per-iter $((expected - 12)) --chase --drain "$(drain)"
    done

    for res in id ex mem; do
        use inorder5 bpred.kind=not_taken inorder5.branch_resolve=$res
        inorder5_mispredict
    done
    use inorder5
    measure btb_miss 3 "3 instructions, targets from the BTB" btb_miss 1000 2000
    use inorder5 btb.entries=1 btb.assoc=1
    measure btb_miss 5 "3 instructions + 2 decode redirects x 1" btb_miss 1000 2000

    for l2 in 10 20; do
        use inorder5 l2.hit_latency=$l2
        store_expect
        n=$((region / 64))
        measure store_stream "$want" "$why" store_stream $((2 * n)) $((4 * n)) "$region"
        gt store_stream --cause write_buffer --per-iter $((expected - 16)) --drain "$(drain)"
    done
}

# ---- the 21164-like superscalar ----------------------------------------------------
# Issue groups come from one aligned 4-instruction block (slotting); a taken
# branch ends its group; a stalled head holds everything behind it.

# The chain of 18 dependent adds; the counter and the branch issue beside
# it on the second integer pipe.
ev5_alu_dep() {
    local a; a=$(p lat.int_alu)
    measure alu_dep $((18 * a)) "the 18-add chain x lat.int_alu $a" alu_dep 1000 2000
}

# Independent ALU operations: fetch blocks (and so issue groups) are
# ev5.width instructions, aligned; each block issues min(width, int_pipes)
# instructions a cycle.  (The formula needs ev5.width to divide 4, the
# loop's alignment.)
ev5_alu_indep() {
    local w ip per; w=$(p ev5.width); ip=$(p ev5.int_pipes)
    per=$(( ip < w ? ip : w ))
    measure alu_indep $((20 / w * ((w + per - 1) / per))) \
        "20/ev5.width $w blocks x ceil(ev5.width / min(ev5.width, ev5.int_pipes $ip))" alu_indep 1000 2000
}

ev5_mul() {
    local m; m=$(p lat.int_mul)
    measure mul_dep $((7 * m + $(max "$m" 2))) "7 x lat.int_mul $m + max(lat.int_mul, 2)" mul_dep 1000 2000
}

# Unpipelined divider: each divide waits for the one before.  Pipelined: the
# 8 divides issue a cycle apart on the multiply pipe, and the last block's
# third integer instruction (the branch) takes one more cycle.
ev5_fdiv() {
    local d; d=$(p lat.fp_div)
    if [ "$(p lat.fp_div_pipelined)" = 1 ]; then
        measure fdiv_indep 9 "8 divides a cycle apart + 1 (lat.fp_div_pipelined)" fdiv_indep 1000 2000
    else
        measure fdiv_indep $((8 * d)) "8 x lat.fp_div $d (not pipelined)" fdiv_indep 1000 2000
    fi
}

# Pointer chase: a load issued at e has its data at e + M (M = access time
# from issue) and its dependent issues R = max(M, lat.load_use) later; the
# 4 instructions after the last load need 2 cycles of issue.
ev5_chase() {
    local name=$1 m=$2 why=$3 i1=$4 i2=$5 r; shift 5
    r=$(max "$m" "$(p lat.load_use)")
    measure "chase $name" $((7 * r + $(max "$r" 2))) \
        "7 x R + max(R, 2), M = $why, R = max(M, lat.load_use) = $r" chase "$i1" "$i2" "$@"
}

section_ev5() {
    local h1 h2 lat bpc line tlb n pen
    use ev5
    ev5_alu_dep
    ev5_alu_indep
    ev5_mul
    ev5_fdiv
    use ev5 ev5.int_pipes=1 ev5.mem_ports=1; ev5_alu_indep
    use ev5 ev5.int_pipes=4; ev5_alu_indep
    use ev5 ev5.width=2 ev5.int_pipes=4; ev5_alu_indep
    use ev5 ev5.width=1; ev5_alu_indep
    use ev5 lat.int_alu=3; ev5_alu_dep
    use ev5 lat.int_mul=5; ev5_mul
    use ev5 lat.fp_div=30; ev5_fdiv
    use ev5 lat.fp_div_pipelined=true; ev5_fdiv

    for lu in 2 3; do
        use ev5 lat.load_use=$lu
        ev5_chase "L1 hit" "$(p l1d.hit_latency)" "l1d.hit_latency" 1000 2000 64 1
    done
    for l2 in 6 12; do
        use ev5 l2.hit_latency=$l2
        h1=$(p l1d.hit_latency); h2=$(p l2.hit_latency); line=$(p l2.line)
        n=$((4 * $(p l1d.size) / line))
        ev5_chase "L2 hit" $((h1 + h2)) "l1d.hit_latency $h1 + l2.hit_latency $h2" \
            $((2 * n / 8)) $((4 * n / 8)) "$line" "$n"
        gt "chase L2" --cause dcache_miss --chase --drain "$(drain)"
    done
    for ml in 60 120; do
        use ev5 mem.latency=$ml dtlb.miss_penalty=0 l2.repl=lru
        h1=$(p l1d.hit_latency); h2=$(p l2.hit_latency); lat=$(p mem.latency)
        bpc=$(p mem.bytes_per_cycle); line=$(p l2.line)
        n=$((4 * $(p l2.size) / line))
        ev5_chase memory $((h1 + h2 + lat + (line + bpc - 1) / bpc)) \
            "l1d.hit_latency $h1 + l2.hit_latency $h2 + mem.latency $lat + l2.line/mem.bytes_per_cycle $line/$bpc" \
            $((2 * n / 8)) $((4 * n / 8)) "$line" "$n"
    done
    for pen in 30 50; do
        use ev5 dtlb.miss_penalty=$pen
        h1=$(p l1d.hit_latency); tlb=$(p dtlb.miss_penalty); n=$((2 * $(p dtlb.entries)))
        ev5_chase "D-TLB miss" $((h1 + tlb)) "l1d.hit_latency $h1 + dtlb.miss_penalty $tlb" \
            $((64 * n / 8)) $((128 * n / 8)) $(($(p mem.page_size) + $(p l1d.line))) "$n"
        gt "chase D-TLB" --cause dtlb_miss --chase --drain "$(drain)"
    done

    for pen in 5 1 8; do
        use ev5 bpred.kind=not_taken ev5.mispredict_penalty=$pen
        measure mispredict $((2 + pen)) "2 cycles + ev5.mispredict_penalty $pen" mispredict 1000 2000
        gt mispredict --cause branch_mispredict --branch --drain "$(drain)"
    done
    use ev5
    measure btb_miss 2 "2 issue groups ended by taken transfers" btb_miss 1000 2000
    use ev5 btb.entries=1 btb.assoc=1
    measure btb_miss 4 "2 fetch blocks x (1 + 1 decode-redirect bubble)" btb_miss 1000 2000

    for l2 in 6 12; do
        use ev5 l2.hit_latency=$l2
        store_expect
        n=$((region / 64))
        measure store_stream "$want" "$why" store_stream $((2 * n)) $((4 * n)) "$region"
        gt store_stream --cause write_buffer --drain "$(drain)"
    done
}

# ---- the R10000-like out-of-order superscalar -----------------------------------------
# Steady state of a loop is set by its longest recurrence (a dependence
# carried from one iteration to the next) or by its busiest resource:
# ooo.int_alus, a unit that is not pipelined, fetch (groups of up to
# ooo.fetch_width from one I-cache line, ended by the taken loop branch).
# Head cycles are graduation gaps, so the drain after the last one is 0.

ooo_alu() {
    local a alus per; a=$(p lat.int_alu); alus=$(p ooo.int_alus)
    per=$(( (20 + alus - 1) / alus ))
    measure alu_dep "$(max $((18 * a)) "$per")" \
        "max(the 18-add recurrence x lat.int_alu $a, 20 ops / ooo.int_alus $alus)" alu_dep 1000 2000
    measure alu_indep "$(max "$per" 5)" \
        "max(20 ops / ooo.int_alus $alus, 5 fetch groups of 4 from 16-byte-aligned code)" \
        alu_indep 1000 2000
}

ooo_mul() {
    local m; m=$(p lat.int_mul)
    measure mul_dep $((8 * m)) "the 8-multiply recurrence x lat.int_mul $m" mul_dep 1000 2000
}

# Eight independent divides on the one FP divide unit: each holds it for
# lat.fp_div unless pipelined, when they issue a cycle apart.
ooo_fdiv() {
    local d; d=$(p lat.fp_div)
    if [ "$(p lat.fp_div_pipelined)" = 1 ]; then
        measure fdiv_indep 8 "8 divides a cycle apart (lat.fp_div_pipelined)" fdiv_indep 1000 2000
    else
        measure fdiv_indep $((8 * d)) "8 x lat.fp_div $d (not pipelined)" fdiv_indep 1000 2000
    fi
}

# Pointer chase: each load issues when the one before has its data, which
# comes R = max(M, lat.load_use) after its issue: 8 R per iteration.
ooo_chase() {
    local name=$1 m=$2 why=$3 i1=$4 i2=$5 r; shift 5
    r=$(max "$m" "$(p lat.load_use)")
    measure "chase $name" $((8 * r)) "8 x R, M = $why, R = max(M, lat.load_use) = $r" \
        chase "$i1" "$i2" "$@"
}

section_ooo() {
    local h1 h2 lat bpc line tlb n pen dep
    use r10k
    ooo_alu
    ooo_mul
    ooo_fdiv
    use r10k ooo.int_alus=1; ooo_alu
    use r10k ooo.int_alus=4; ooo_alu
    use r10k lat.int_alu=3; ooo_alu
    use r10k lat.int_mul=5; ooo_mul
    use r10k lat.fp_div=30; ooo_fdiv
    use r10k lat.fp_div_pipelined=true; ooo_fdiv

    for lu in 2 3; do
        use r10k lat.load_use=$lu
        ooo_chase "L1 hit" "$(p l1d.hit_latency)" "l1d.hit_latency" 1000 2000 64 1
    done
    for l2 in 8 16; do
        use r10k l2.hit_latency=$l2
        h1=$(p l1d.hit_latency); h2=$(p l2.hit_latency); line=$(p l2.line)
        n=$((4 * $(p l1d.size) / line))
        ooo_chase "L2 hit" $((h1 + h2)) "l1d.hit_latency $h1 + l2.hit_latency $h2" \
            $((2 * n / 8)) $((4 * n / 8)) "$line" "$n"
        gt "chase L2" --cause dcache_miss --drain "$(drain)"
    done
    for ml in 60 120; do
        use r10k mem.latency=$ml dtlb.miss_penalty=0
        h1=$(p l1d.hit_latency); h2=$(p l2.hit_latency); lat=$(p mem.latency)
        bpc=$(p mem.bytes_per_cycle); line=$(p l2.line)
        n=$((4 * $(p l2.size) / line))
        ooo_chase memory $((h1 + h2 + lat + (line + bpc - 1) / bpc)) \
            "l1d.hit_latency $h1 + l2.hit_latency $h2 + mem.latency $lat + l2.line/mem.bytes_per_cycle $line/$bpc" \
            $((2 * n / 8)) $((4 * n / 8)) "$line" "$n"
    done
    for pen in 30 50; do
        use r10k dtlb.miss_penalty=$pen
        h1=$(p l1d.hit_latency); tlb=$(p dtlb.miss_penalty); n=$((2 * $(p dtlb.entries)))
        ooo_chase "D-TLB miss" $((h1 + tlb)) "l1d.hit_latency $h1 + dtlb.miss_penalty $tlb" \
            $((64 * n / 8)) $((128 * n / 8)) $(($(p mem.page_size) + $(p l1d.line))) "$n"
        gt "chase D-TLB" --cause dtlb_miss --drain "$(drain)"
    done

    # Always mispredicted loop branch: the next iteration's counter update is
    # fetched once the branch has resolved + the penalty, dispatched
    # frontend_depth later, executes; the branch, dependent on it, a cycle
    # after: frontend_depth + 3 + penalty per iteration.
    for pen in 1 4; do
        for dep in 1 3; do
            use r10k bpred.kind=not_taken ooo.mispredict_penalty=$pen ooo.frontend_depth=$dep
            measure mispredict $((dep + 3 + pen)) \
                "ooo.frontend_depth $dep + 3 + ooo.mispredict_penalty $pen" mispredict 1000 2000
            gt mispredict --cause branch_mispredict --branch --drain "$(drain)"
        done
    done
}

# ---- memory-dependence policies (ooo.memdep) ---------------------------------------------
# memdep N ALIAS: a multiply M = lat.int_mul gives the store its address; the
# load (address known early) feeds the next multiply.  Its store's address
# is known the cycle after the store issues (M after the multiply), and a
# load on an L1 hit delivers R = max(l1d.hit_latency, lat.load_use) after
# it issues (lat.load_use when it takes the store's data).

# stat TAG NAME: a statistic of run TAG (0 when the run does not write it)
stat() {
    local v
    v=$(sed -n "s/^  \"$2\": {\"value\": \([0-9]*\),.*/\1/p" "$tmp/$1.json")
    echo "${v:-0}"
}

# counted NAME STAT WANT WHY: STAT of the N2 run minus that of the N1 run of
# the last measure is WANT, exactly
counted() {
    local got=$(( $(stat 2 "$2") - $(stat 1 "$2") ))
    result "$([ "$got" = "$3" ] && echo 1 || echo 0)" \
        "$machine: $1: $2 grew by $got over $((n2 - n1)) iterations, expected $3 = $4"
}

memdep_checks() {
    local m l r v0 v1
    m=$(p lat.int_mul); l=$(p lat.load_use); r=$(max "$(p l1d.hit_latency)" "$l")
    case $(p ooo.memdep) in
    oracle)
        measure "memdep alias" $((m + 1 + l)) \
            "lat.int_mul $m + 1 (the store's address) + lat.load_use $l (its data)" memdep 1000 2000 1
        measure "memdep no alias" "$m" "lat.int_mul $m: the load never waits" memdep 1000 2000 0
        ;;
    conservative)
        measure "memdep alias" $((m + 1 + l)) \
            "lat.int_mul $m + 1 (the store's address) + lat.load_use $l (its data)" memdep 1000 2000 1
        measure "memdep no alias" $((m + 1 + r)) \
            "lat.int_mul $m + 1 (waits for the store's address) + R $r (the oracle's $m + 1 + R)" \
            memdep 1000 2000 0
        counted "memdep no alias" cpu.ooo.memdep.loadsWaited $((n2 - n1)) "every load"
        ;;
    store_sets)
        measure "memdep alias" $((m + 1 + l)) \
            "lat.int_mul $m + 1 + lat.load_use $l: after one violation the load waits for its store set" \
            memdep 1000 2000 1
        counted "memdep alias" cpu.ooo.memdep.violations 0 "none after the first"
        counted "memdep alias" cpu.ooo.memdep.loadsWaited $((n2 - n1)) "every load"
        if v0=$(run 0 memdep 0 1) && v1=$(run 1 memdep 1 1); then
            v0=$(( $(stat 1 cpu.ooo.memdep.violations) - $(stat 0 cpu.ooo.memdep.violations) ))
            result "$([ "$v0" = 1 ] && echo 1 || echo 0)" \
                "$machine: memdep alias: the loop's first iteration violates: $v0 violation(s) more than no loop, expected 1"
        else
            result 0 "$machine: memdep alias N=0/1: $v0 ${v1:-}"
        fi
        measure "memdep no alias" "$m" "lat.int_mul $m: the load never waits nor violates" \
            memdep 1000 2000 0
        counted "memdep no alias" cpu.ooo.memdep.violations 0 "no violation"
        ;;
    esac
}

# The predictor cleared before every load and store cannot learn: every
# load violates and re-issues ooo.replay_penalty after its store's address
# is known; the replay re-runs the load, the next multiply (its value) and
# the next store (the multiply's address).
memdep_replays() {
    local m l pen
    m=$(p lat.int_mul); l=$(p lat.load_use); pen=$(p ooo.replay_penalty)
    measure "memdep replay" $((m + 1 + pen + l)) \
        "lat.int_mul $m + 1 + ooo.replay_penalty $pen + lat.load_use $l" memdep 1000 2000 1
    counted "memdep replay" cpu.ooo.memdep.violations $((n2 - n1)) "one a load"
    counted "memdep replay" cpu.ooo.memdep.replayCycles $(( (n2 - n1) * pen )) \
        "ooo.replay_penalty $pen a load"
    counted "memdep replay" cpu.ooo.memdep.replayedInsts $(( 3 * (n2 - n1) )) \
        "3 a load: it, the multiply and the store after it"
    if [ "$pen" -gt 0 ]; then      # the loop's load leads cpu.ooo.memdep.replayCyclesAt::PC
        local top1 top2
        top1=$(sed -n 's/^  "cpu.ooo.memdep.replayCyclesAt::[^"]*": {"value": \([0-9]*\),.*/\1/p' "$tmp/1.json" | head -1)
        top2=$(sed -n 's/^  "cpu.ooo.memdep.replayCyclesAt::[^"]*": {"value": \([0-9]*\),.*/\1/p' "$tmp/2.json" | head -1)
        result "$([ $(( ${top2:-0} - ${top1:-0} )) = $(( (n2 - n1) * pen )) ] && echo 1 || echo 0)" \
            "$machine: memdep replay: the first replayCyclesAt::PC grew by $(( ${top2:-0} - ${top1:-0} )), expected $(( (n2 - n1) * pen )) = ooo.replay_penalty $pen a load"
    fi
}

section_memdep() {
    local cfg md pen
    for cfg in r10k hps; do
        for md in oracle conservative store_sets; do
            use $cfg ooo.memdep=$md; memdep_checks
        done
    done
    use hps lat.int_mul=6; memdep_checks
    use r10k ooo.memdep=conservative lat.load_use=3; memdep_checks
    for pen in 0 2 5; do
        use hps ooo.ssit_clear_interval=1 ooo.replay_penalty=$pen; memdep_replays
    done
}

# ---- the wrong path (ooo.wrong_path) --------------------------------------------------------
# wp_cache (see the program): an always mispredicted branch (bpred.kind=
# not_taken) behind 8 dependent divides, the wrong path loading two lines.
# wp_iter MODE: its cycles per iteration on the current machine (runs 1 and
# 2 are kept for counted).
wp_iter() {
    local c1 c2
    n1=1000 n2=2000
    if ! c1=$(run 1 wp_cache $n1 "$1" "$2") || ! c2=$(run 2 wp_cache $n2 "$1" "$2"); then
        echo "x"; return
    fi
    awk -v a="$c1" -v b="$c2" 'BEGIN { printf "%.3f", (b - a) / 1000 }'
}

# within NAME GOT WANT WHY: GOT is WANT +-1
within() {
    local ok
    ok=$(awk -v g="$2" -v w="$3" 'BEGIN { d = g - w; print (g != "x" && d <= 1 && d >= -1) ? 1 : 0 }')
    result "$ok" "$machine: $1: $2 cycles/iteration, expected $3 = $4"
}

# The prefetch: the correct path's load of the line the previous iteration's
# wrong path loaded (through the speculative store overlay) hits, R = max(l1d.hit_latency, lat.load_use), instead of
# coming from the L2, l1d.hit_latency + l2.hit_latency; the load is on the
# critical path (its value feeds the divides), so an iteration is shorter by
# the difference.  The pollution: the wrong path's two lines in the hot
# line's set evict it from the two-way D-cache, so it comes from the L2
# every iteration instead of hitting: longer by as much.
wrong_path_cache() {
    local cfg=$1 h1 h2 r save set off on
    use "$cfg" bpred.kind=not_taken dtlb.miss_penalty=0 ooo.wrong_path=off
    h1=$(p l1d.hit_latency); h2=$(p l2.hit_latency); r=$(max "$h1" "$(p lat.load_use)")
    save=$((h1 + h2 - r)); set=$(( $(p l1d.size) / $(p l1d.assoc) ))
    local why="l1d.hit_latency $h1 + l2.hit_latency $h2 - max(l1d.hit_latency, lat.load_use) $r"
    off=$(wp_iter 0 "$set")
    counted "wrong path off, prefetch mode" l1d.misses 1000 "1 a iteration (the correct path's load)"
    use "$cfg" bpred.kind=not_taken dtlb.miss_penalty=0 ooo.wrong_path=on
    on=$(wp_iter 0 "$set")
    within "wrong-path prefetch (off $off, on $on): off - on" "$(awk -v a="$off" -v b="$on" 'BEGIN { printf "%.3f", a - b }')" \
        "$save" "$why"
    counted "wrong-path prefetch" cpu.ooo.wrongPath.dcacheMisses 1000 \
        "1 a iteration (the next line from the L2, its address read back from the wrong path's store)"
    counted "wrong-path prefetch" l1d.misses 1000 "1 a iteration (the wrong path's; the correct path's load hits)"
    use "$cfg" bpred.kind=not_taken dtlb.miss_penalty=0 ooo.wrong_path=off
    off=$(wp_iter 1 "$set")
    counted "wrong path off, pollution mode" l1d.misses 0 "none (the hot line hits)"
    use "$cfg" bpred.kind=not_taken dtlb.miss_penalty=0 ooo.wrong_path=on
    on=$(wp_iter 1 "$set")
    within "wrong-path pollution (off $off, on $on): on - off" "$(awk -v a="$off" -v b="$on" 'BEGIN { printf "%.3f", b - a }')" \
        "$save" "$why"
    counted "wrong-path pollution" l1d.misses 3000 \
        "3 a iteration (the wrong path's two lines in the hot line's set, then the hot line)"
}

section_wrongpath() {
    local pen dep
    # Mispredict recovery with the wrong path on: the correct path is refetched
    # at the same cycle, so the loop costs what it costs without it (section_ooo).
    for pen in 1 4; do
        for dep in 1 3; do
            use r10k bpred.kind=not_taken ooo.mispredict_penalty=$pen ooo.frontend_depth=$dep \
                ooo.wrong_path=on
            measure mispredict $((dep + 3 + pen)) \
                "ooo.frontend_depth $dep + 3 + ooo.mispredict_penalty $pen" mispredict 1000 2000
        done
    done
    use hps bpred.kind=not_taken ooo.wrong_path=on
    dep=$(p ooo.frontend_depth); pen=$(p ooo.mispredict_penalty)
    measure mispredict $((dep + 3 + pen)) \
        "ooo.frontend_depth $dep + 3 + ooo.mispredict_penalty $pen" mispredict 1000 2000
    wrong_path_cache hps
    wrong_path_cache r10k
}

if [ ! -x "${sim%% *}" ] && ! command -v "$sim" >/dev/null 2>&1; then
    echo "FAIL setup: simulator $sim not built"
    echo "timing: 0 passed, 1 failed"
    exit 1
fi
section_inorder5
section_ev5
section_ooo
section_memdep
section_wrongpath
echo "timing: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
