#!/bin/bash
# tests/profileme/run.sh BUILD_DIR - ProfileMe instruction sampling and the
# precise PMU levels (hps-sim --profileme P[:W], --dcpi-precise N), on a
# guest whose one load misses the D-cache every iteration (missloop.c, built
# here for both ISAs, static), under inorder5, ev5, r10k and hps:
#   output     the program prints what it prints without profiling
#   driver     the guest driver's per-pc table (it reads the records from the
#              ProfileMe registers) equals the host's replay of them; on a
#              workload with more sampled pcs than the table holds it is
#              drained during the run and profileme.tsv keeps every sample
#   zero skid  every ProfileMe sample in the database names the pc the
#              sampler recorded (the driver got the sampled pc)
#   converge   per-pc samples x period within 20% of the exact executions
#   miss bits  per-pc D-cache miss bit rates within 0.1 of the exact rates;
#              the missing load's rate above 0.9
#   precise    dmiss samples at --dcpi-precise 2 all on the pcs that missed;
#              at 0 (skid) 90% of them on the instructions after the load in
#              order (out of order, r10k and hps, the load itself heads
#              graduation meanwhile)
#   constant   at --dcpi-precise 1 with pmu.skid 1 the load's dmiss samples
#              all land on the instruction right after it
#   pairs      with a window every sample has its partner; the report shows
#              concurrency and wasted issue slots
#   determinism the same seed writes the same records, another differs
#   export     hps-dcpiprof reads event profileme (per procedure, folded)
#   compare    analysis/compare_samplers.py draws its plot from a table and
#              refuses a workload that is not built
#   wrong path on the hps preset (ooo.wrong_path) wrong-path fetches are
#              sampled as aborted records, and aborted samples x period
#              estimate the wrong-path fetches; none on r10k
#   errors     bad --profileme / --dcpi-precise / combinations: status 2 and
#              a message naming what was wrong
# Prints "ok ..." / "FAIL ..." per check and "profileme: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-$build/hps-sim}
prof=$build/hps-dcpiprof
check_py=tests/profileme/check.py
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-profileme.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
# pycheck WHAT ARGS...: check.py's measured line goes into the message
pycheck() {
    local what=$1; shift
    local out; out=$(/usr/bin/python3 "$check_py" "$@" 2>&1 | tr '\n' ' ')
    if [ $? -eq 0 ]; then ok "$what: $out"; else bad "$what: $out"; fi
}

riscv64-linux-gnu-gcc -O2 -static -o "$tmp/rv64" tests/profileme/missloop.c || exit 2
alpha-linux-gnu-gcc -O2 -static -Wl,--no-relax -o "$tmp/alpha" tests/profileme/missloop.c || exit 2
N=40000          # iterations: about 0.4M program instructions
P=100            # ProfileMe period

for isa in rv64 alpha; do
    g=$tmp/$isa
    $sim "$g" $N >"$tmp/ref.out" 2>&1
    for model in inorder5 ev5 r10k hps; do
        t="$isa $model"
        db=$tmp/db-$isa-$model
        if ! $sim --config $model --dcpi "$db" --no-baseline --profileme $P:8 \
                --report "$tmp/rep-$isa-$model" --stats "$tmp/st" "$g" $N >"$tmp/out" 2>&1; then
            bad "$t: run with --profileme"; continue
        fi
        check "$t: output unchanged with --profileme" cmp -s "$tmp/out" "$tmp/ref.out"
        check "$t: the guest driver's records equal the host's replay" \
            grep -qE '^profileme.driverMismatches +0 ' "$tmp/st"
        e=$db/epoch-0001
        pycheck "$t: zero skid" samepc "$e"
        pycheck "$t: converge" converge "$e" $P 0.2
        pycheck "$t: miss bits" missbits "$e" 0.1
        for lvl in 0 2; do
            d=$tmp/dm-$isa-$model-$lvl
            $sim --config $model --dcpi "$d" --no-baseline --dcpi-precise $lvl \
                --dcpi-events dmiss:200 "$g" $N >/dev/null 2>&1
            if [ $lvl = 2 ]; then pycheck "$t: precise 2 dmiss" landing "$d/epoch-0001" dmiss exact
            elif [ $model = r10k ] || [ $model = hps ]; then
                # out of order the missing load heads the active list until its
                # data comes, so the skid sample lands on it: DCPI's R10000 view
                pycheck "$t: skid dmiss on the load at the graduation head" \
                    landing "$d/epoch-0001" dmiss exact
            else pycheck "$t: skid dmiss" landing "$d/epoch-0001" dmiss later; fi
        done
    done
done

# ---- the guest driver's table: drained when three-quarters full, nothing lost -------
for isa in rv64 alpha-static; do
    w=$build/workloads/$isa/minicc
    $sim --config ev5 --dcpi "$tmp/dr-$isa" --no-baseline --profileme 20 --max-insts 1500000 \
        --stats "$tmp/st-dr" "$w" test >/dev/null 2>&1
    check "$isa: the driver's ProfileMe table was drained during the run" \
        grep -qE '^profileme.driverDrains +([2-9]|[1-9][0-9]+) ' "$tmp/st-dr"
    check "$isa: drained tables equal the host's replay" \
        grep -qE '^profileme.driverMismatches +0 ' "$tmp/st-dr"
    samples=$(awk '$1 == "profileme.samples" { print $2 }' "$tmp/st-dr")
    rows=$(awk -F'\t' 'NR > 1 { s += $3 } END { print s + 0 }' "$tmp/dr-$isa/epoch-0001/profileme.tsv")
    check "$isa: profileme.tsv holds every sample the driver took ($rows of $samples)" \
        test "${samples:-x}" = "$rows"
done

# ---- constant skid: --dcpi-precise 1 lands pmu.skid program instructions after the cause
for isa in rv64 alpha; do
    d=$tmp/c1-$isa
    $sim --config ev5 --set pmu.skid=1 --dcpi "$d" --no-baseline --dcpi-precise 1 \
        --dcpi-events dmiss:200 "$tmp/$isa" $N >/dev/null 2>&1
    pycheck "$isa ev5: precise 1, skid 1 instruction" landing "$d/epoch-0001" dmiss next
done

# ---- pairs, determinism, export -------------------------------------------------------
rep=$tmp/rep-rv64-ev5
check "pairs: every sample has its partner" \
    grep -qE "^period 100 \+- 12 program instructions, pair window 8: ([0-9]+) samples, \1 partners" "$rep"
check "pairs: the report has concurrency and wasted slots" grep -q "concur  wasted" "$rep"
run_seed() { $sim --config ev5 --seed "$1" --dcpi "$2" --no-baseline --profileme 97:4 "$tmp/rv64" 5000 >/dev/null 2>&1; }
run_seed 7 "$tmp/s1"; run_seed 7 "$tmp/s2"; run_seed 8 "$tmp/s3"
check "determinism: same seed, same records" cmp -s "$tmp/s1/epoch-0001/profileme.tsv" "$tmp/s2/epoch-0001/profileme.tsv"
check "determinism: another seed, other records" \
    bash -c "! cmp -s '$tmp/s1/epoch-0001/profileme.tsv' '$tmp/s3/epoch-0001/profileme.tsv'"
db=$tmp/db-rv64-ev5
check "export: per procedure, main has most profileme samples" \
    bash -c "'$prof' -p --event profileme '$db' | grep -A1 '^profileme' | tail -1 | grep -q ' main '"
$prof --export folded -o "$tmp/folded" --per procedure --event profileme "$db" >/dev/null 2>&1
check "export: folded stacks of event profileme" grep -qE '^main [0-9]+$' "$tmp/folded"

# ---- the comparison's plot, from a table of its format -----------------------------------
printf 'workload\tisa\tconfig\tsize\tsampler\tcycles/insn\tcycles/proc\tdmiss/insn\tdmiss/proc\toverhead\tsamples\n' >"$tmp/cmp.tsv"
printf 'w\trv64\tev5\ttest\tdcpi-skid 62k\t60.0%%\t85.0%%\t0.0%%\t80.0%%\t+1.00%%\t800\n' >>"$tmp/cmp.tsv"
printf 'w\trv64\tev5\ttest\thps hot_method\t-\t65.0%%\t-\t-\t+3.00%%\t9000\n' >>"$tmp/cmp.tsv"
/usr/bin/python3 analysis/compare_samplers.py --replot "$tmp/cmp.tsv" --plot "$tmp/cmp.png" >/dev/null 2>&1
check "compare_samplers.py --replot draws a PNG" bash -c "head -c 8 '$tmp/cmp.png' | grep -q PNG"
/usr/bin/python3 analysis/compare_samplers.py --sim "$sim" no_such_workload >/dev/null 2>"$tmp/err"
check "compare_samplers.py: an unknown workload is refused (status 2) with its path" \
    bash -c "[ $? = 2 ] && grep -q 'no such workload build' '$tmp/err'"

# ---- the wrong path: the hps preset fetches down mispredicted paths, and ProfileMe samples
# those fetches too, as aborted records (none on r10k, which keeps ooo.wrong_path off)
wl=$build/workloads/rv64/gametree
if [ -x "$wl" ]; then
    for model in hps r10k; do
        db=$tmp/wp-$model
        $sim --config $model --dcpi "$db" --no-baseline --profileme 1000 --stats "$tmp/wp-$model.st" \
            --report "$tmp/wp-$model.rep" "$wl" test >/dev/null 2>&1
        ab=$(awk '$1 == "profileme.aborted" { print $2 }' "$tmp/wp-$model.st")
        col=$(awk -F'\t' 'NR > 1 { s += $19 } END { print s + 0 }' "$db/epoch-0001/profileme.tsv" 2>/dev/null)
        if [ $model = r10k ]; then
            check "wrong path: r10k (no wrong path) has no aborted samples (${ab:-?})" test "${ab:-x}" = 0
        else
            err=$(sed -n 's/^aborted: .*exact [0-9]* (\([-+0-9.]*\)%)$/\1/p' "$tmp/wp-$model.rep")
            check "wrong path: hps samples ${ab:-?} aborted, the TSV's aborted column agrees ($col)" \
                test -n "$ab" -a "${ab:-0}" -gt 100 -a "$ab" = "$col"
            # (interrupts perturb the predictor right after them, where no sample lands: a
            # few % fewer wrong-path samples than fetches; measured -6% at period 1000)
            check "wrong path: aborted samples x period estimate the wrong-path fetches (${err:-?}%, within 15%)" \
                awk -v e="${err:-999}" 'BEGIN { exit !(e < 15 && e > -15) }'
        fi
    done
else
    bad "wrong path: no $wl (make workloads)"
fi

# ---- errors -------------------------------------------------------------------------------
expect_error() {   # WHAT PATTERN COMMAND...: status 2 and PATTERN in stderr
    local what=$1 pat=$2; shift 2
    "$@" >/dev/null 2>"$tmp/err"; local rc=$?
    if [ $rc -eq 2 ] && grep -q -- "$pat" "$tmp/err"; then ok "error: $what"
    else bad "error: $what (status $rc: $(head -1 "$tmp/err"))"; fi
}
g=$tmp/rv64
expect_error "--profileme without --dcpi" "need --dcpi DB" $sim --config ev5 --profileme 100 "$g" 10
expect_error "--profileme abc" "expected PERIOD or PERIOD:W" $sim --config ev5 --dcpi "$tmp/e" --profileme abc "$g" 10
expect_error "--profileme 100:95 (window past the period)" "must be below the shortest period" \
    $sim --config ev5 --dcpi "$tmp/e" --profileme 100:95 "$g" 10
expect_error "--dcpi-precise 4" "expected a level 0..3" $sim --config ev5 --dcpi "$tmp/e" --dcpi-precise 4 "$g" 10
expect_error "--dcpi-precise with --profileme alone" "no counter runs" \
    $sim --config ev5 --dcpi "$tmp/e" --profileme 100 --dcpi-precise 2 "$g" 10
expect_error "--dcpi-events profileme" "profileme is no counter's event" \
    $sim --config ev5 --dcpi "$tmp/e" --dcpi-events profileme "$g" 10
expect_error "--profileme on the functional model" "needs a timing model" \
    $sim --dcpi "$tmp/e" --profileme 100 "$g" 10

echo "profileme: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
