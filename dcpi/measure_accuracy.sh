#!/bin/bash
# dcpi/measure_accuracy.sh [OPTIONS] BUILD_DIR OUT_DIR - the measured accuracy
# table of dcpi/README.md: every workload's train input on ev5, both ISAs, at
# the paper's CYCLES period (60000-64000) and a short one (275-775), each run
# with its ground truth (kept in OUT_DIR: a second call only re-scores),
# scored by hps-dcpicalc --all --truth.  Prints a markdown table, one row a
# run (or a set of merged runs), and the means over the rows of each period
# and run count.
#
#   --periods "P..."   CYCLES periods, MIN-MAX each (default "60000-64000 275-775";
#                      the short period's range is wide, dcpi/README.md says why)
#   --runs "K..."      DCPI's way to more samples (SOSP'97 section 4.3): run the
#                      program with --seed 1, 2, ... max(K) merged into one
#                      epoch, and score after K runs against the sum of those
#                      K runs' truths (one row per K).  Default "1" (one run).
#   --size S           the workloads' input size, train (default) or ref
#   --only "W..."      these workloads only (default: every one built)
#   --isas "I..."      these ISAs only (default "rv64 alpha-static")
#   --period-dist D    uniform (default: the driver's draw in MIN-MAX, DCPI's)
#                      or geometric (pmu.period = geometric: drawn by the PMU,
#                      memoryless, mean (MIN+MAX)/2, with 24-bit counters so
#                      the paper's mean fits; its files are tagged .geo)
#   --events "E,..."   the events sampled beside cycles (default "imiss,dmiss"),
#                      each with its period range as --dcpi-events takes it
#                      (E:MIN-MAX; default 2000-2047); pmu.counters is set to
#                      their number + 1 (the 21164 has 3); other events tag
#                      the files .E+...
#   --set "K=V ..."    machine parameters set over ev5's (hps-sim --set), e.g.
#                      "itlb.entries=4 itlb.assoc=4" for a machine whose I-TLB
#                      misses on these programs; tags the files .K=V+...
#
# Figure 10's columns: the midpoint culprit cycles per procedure against
# IMISS (DMISS) samples x period, the truth's cycles of the cause against
# them (the most such a correlation can show: a miss whose consumer comes
# late stalls nothing), and the midpoint against the truth's cycles.
# Then, per stall cause over the one-run rows' analyses, the mean culprit
# precision (over the runs that list the cause), the mean recall (over the
# runs with true cycles of it), and the recall weighted by those cycles.
#
# Files per run: ISA.W[.ref].PERIOD[.geo][.E+...].{db,gt,calc} for seed 1 (the names of
# the one-run table), and for merged runs ISA.W[.ref].PERIOD[.geo].upto-K.db (the
# database after seeds 1..K), .seed-K.gt and .runs-K.calc.
# Slow (a run of train takes 10-60 s of host CPU, more on a loaded machine):
# run it with nice.  Not part of make test.
set -u
usage() { echo "usage: measure_accuracy.sh [--periods LIST] [--runs LIST] [--size train|ref]" \
               "[--only WORKLOADS] [--isas ISAS] [--period-dist uniform|geometric] [--events E,...]" \
               "[--set \"K=V ...\"]" \
               "BUILD_DIR OUT_DIR" >&2; exit 2; }
periods="60000-64000 275-775" runs=1 size=train only="" isas="rv64 alpha-static" dist=uniform events=imiss,dmiss sets=""
while [ $# -gt 0 ]; do
    case $1 in
        --periods) [ $# -ge 2 ] || usage; periods=$2; shift 2 ;;
        --runs) [ $# -ge 2 ] || usage; runs=$2; shift 2 ;;
        --size) [ $# -ge 2 ] || usage; size=$2; shift 2 ;;
        --only) [ $# -ge 2 ] || usage; only=$2; shift 2 ;;
        --isas) [ $# -ge 2 ] || usage; isas=$2; shift 2 ;;
        --period-dist) [ $# -ge 2 ] || usage; dist=$2; shift 2 ;;
        --events) [ $# -ge 2 ] || usage; events=$2; shift 2 ;;
        --set) [ $# -ge 2 ] || usage; sets=$2; shift 2 ;;
        -*) echo "measure_accuracy.sh: unknown option '$1'" >&2; usage ;;
        *) break ;;
    esac
done
[ $# -eq 2 ] || usage
build=$1 out=$2
case $size in train|ref) ;; *) echo "measure_accuracy.sh: --size: '$size' is not train or ref" >&2; exit 2 ;; esac
dist_set=()
[ "$dist" = uniform ] || dist_set=(--set pmu.period=geometric --set pmu.counter_bits=24)
machine_set=()
for kv in $sets; do
    [[ $kv =~ ^[a-z0-9_.]+=[A-Za-z0-9_.]+$ ]] || { echo "measure_accuracy.sh: --set: '$kv' is not KEY=VALUE" >&2; exit 2; }
    machine_set+=(--set "$kv")
done
ev_re='[a-z_]+(:[0-9]+(-[0-9]+)?)?'
[[ $events =~ ^$ev_re(,$ev_re)*$ ]] || { echo "measure_accuracy.sh: --events: '$events' is not E[:MIN[-MAX]],..." >&2; exit 2; }
ncounters=$(( $(tr -cd , <<<"$events" | wc -c) + 2 ))
case $dist in uniform|geometric) ;; *) echo "measure_accuracy.sh: --period-dist: '$dist' is not uniform or geometric" >&2; exit 2 ;; esac
for p in $periods; do
    [[ $p =~ ^[0-9]+-[0-9]+$ ]] || { echo "measure_accuracy.sh: --periods: '$p' is not MIN-MAX" >&2; exit 2; }
done
maxruns=0
for k in $runs; do
    [[ $k =~ ^[1-9][0-9]*$ ]] || { echo "measure_accuracy.sh: --runs: '$k' is not a run count" >&2; exit 2; }
    [ "$k" -gt "$maxruns" ] && maxruns=$k
done
[ -x "$build/hps-sim" ] || { echo "measure_accuracy.sh: $build/hps-sim: not built" >&2; exit 2; }
# The guest's argv[0] is the program's path as passed, and its length moves
# the guest's initial stack (and so its cache behaviour): spell it one way,
# the build directory's real path, so "build" and "$PWD/build" give the same
# ground truth.
build=$(cd "$build" && pwd -P) || exit 2
mkdir -p "$out" || exit 2

# the $3rd percentage on the first line of file $1 matching $2 (the score
# lines read "A% within 5%, B% within 10%": A is the 1st, B the 3rd)
num() { grep -m1 "$2" "$1" | grep -oE '[0-9.]+%' | sed -n "${3}p" | tr -d %; }
# the z rms and samples / expected of the never-stalled instructions
# (hps-dcpicalc's sampling line), or - -
sampling() {
    local z r
    z=$(grep -m1 'sampling:' "$1" | sed -n 's/.*z rms \([0-9.]*\).*/\1/p')
    r=$(grep -m1 'sampling:' "$1" | sed -n 's/.*samples \/ expected \([0-9.]*\).*/\1/p')
    echo "${z:--} | ${r:--}"
}
# the midpoint correlation of the Figure 10 line matching $2, or -
corr() { local r; r=$(grep -m1 "$2" "$1" | sed -n 's/.*, midpoint \(-*[0-9.a-z]*\).*/\1/p'); echo "${r:--}"; }
# the same line's correlation of the truth's cycles with the events and of
# the midpoint with the truth's cycles, "A | B", or "- | -"
corr_truth() {
    local l a b
    l=$(grep -m1 "$2" "$1")
    a=$(sed -n "s/.*cycles against them \(-*[0-9.a-z]*\).*/\1/p" <<<"$l")
    b=$(sed -n "s/.*against the truth's \(-*[0-9.a-z]*\).*/\1/p" <<<"$l")
    echo "${a:--} | ${b:--}"
}

# simulate program $1 with seed $2 and period $3 into database $4, truth $5
# (nothing when the truth is already there)
simulate() {
    [ -s "$5" ] && return 0
    "$build/hps-sim" --config ev5 "${dist_set[@]}" "${machine_set[@]}" --set "pmu.counters=$ncounters" \
        --seed "$2" --dcpi "$4" --dcpi-events "cycles:$3,$events" --ground-truth "$5" \
        --no-baseline --report /dev/null "$1" "$size" >/dev/null 2>&1 </dev/null
}
# the database and truth of seed $2 for the run tagged $1
db_after() { if [ "$2" -eq 1 ]; then echo "$out/$1.db"; else echo "$out/$1.upto-$2.db"; fi; }
gt_of() { if [ "$2" -eq 1 ]; then echo "$out/$1.gt"; else echo "$out/$1.seed-$2.gt"; fi; }

# runs seeds 1..$3 of program $2 into the databases of tag $1: the database
# after seed s starts as a copy of the one after seed s-1 (so every prefix
# is kept and a second call reuses them)
run_seeds() {
    local tag=$1 p=$2 n=$3 period=$4 s
    simulate "$p" 1 "$period" "$(db_after "$tag" 1)" "$(gt_of "$tag" 1)"
    for ((s = 2; s <= n; s++)); do
        local db gt
        db=$(db_after "$tag" "$s") gt=$(gt_of "$tag" "$s")
        [ -s "$gt" ] && continue
        rm -rf "$db"; cp -r "$(db_after "$tag" $((s - 1)))" "$db" || exit 2
        simulate "$p" "$s" "$period" "$db" "$gt"
    done
}

echo "| ISA | workload | period | runs | samples | counts ≤5% | ≤10% | edges ≤10% | culprit precision | recall | r(I-cache, IMISS) | r(D-cache, DMISS) | sampling z rms | samples / expected | r(true I-cache, IMISS) | r(I-cache, true) | r(true D-cache, DMISS) | r(D-cache, true) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"
for isa in $isas; do
    for p in "$build"/workloads/$isa/*; do
        [ -x "$p" ] || continue
        w=$(basename "$p")
        [ -z "$only" ] || [[ " $only " == *" $w "* ]] || continue
        for period in $periods; do
            tag=$isa.$w.$period
            [ "$size" = train ] || tag=$isa.$w.$size.$period
            [ "$dist" = uniform ] || tag=$tag.geo
            [ "$events" = imiss,dmiss ] || tag=$tag.${events//,/+}
            [ -z "$sets" ] || tag=$tag.$(tr ' ' + <<<"$sets")
            run_seeds "$tag" "$p" "$maxruns" "$period"
            for k in $runs; do
                truths=()
                for ((s = 1; s <= k; s++)); do truths+=(--truth "$(gt_of "$tag" "$s")"); done
                db=$(db_after "$tag" "$k")
                c=$out/$tag.calc
                [ "$k" -eq 1 ] || c=$out/$tag.runs-$k.calc
                "$build/hps-dcpicalc" --all "${truths[@]}" "$db" "$w" >"$c" 2>&1
                samples=$("$build/hps-dcpiprof" "$db" 2>/dev/null |
                          awk '$1 == "cycles" { print $2; exit }')
                echo "| $isa | $w | $period | $k | ${samples:-?} | $(num "$c" 'execution counts' 1) |" \
                     "$(num "$c" 'execution counts' 3) | $(num "$c" 'edge frequencies' 3) |" \
                     "$(num "$c" 'culprits overall' 1) | $(num "$c" 'culprits overall' 2) |" \
                     "$(corr "$c" 'against projected IMISS') | $(corr "$c" 'against projected DMISS') |" \
                     "$(sampling "$c") | $(corr_truth "$c" 'against projected IMISS') |" \
                     "$(corr_truth "$c" 'against projected DMISS') |"
            done
        done
    done
done | tee "$out/table.md"
# means over the rows of each period and run count (a row without a figure
# is left out of that column)
awk -F'|' '$4 ~ /[0-9]/ { p = $4 "|" $5; gsub(/ /, "", p); if (!(p in n)) order[++np] = p; n[p]++
                          for (k = 7; k <= 19; k++) if ($k ~ /[0-9]/) { s[p, k] += $k; m[p, k]++ } }
     END { for (i = 1; i <= np; i++) { p = order[i]; split(p, pk, "|")
               printf("| mean | %d rows | %s | %s | |", n[p], pk[1], pk[2])
               for (k = 7; k <= 19; k++)
                   printf(m[p, k] ? " %.2f |" : " - |", m[p, k] ? s[p, k] / m[p, k] : 0)
               printf("\n") } }' "$out/table.md"
# per stall cause: the culprit precision and recall of each run's analysis
# (hps-dcpicalc's "culprits by cause" lines), means over the runs
for c in "$out"/*.calc; do
    case $c in *.runs-*.calc) continue ;; esac
    sed -n 's/^    \([a-z_]*\) *\([0-9]*\)  precision *\([0-9.-]*\)  recall *\([0-9.-]*\)$/\1 \2 \3 \4/p' "$c"
done | awk '{ if (!($1 in cyc)) order[++n] = $1; cyc[$1] += $2
              if ($3 != "-") { p[$1] += $3; np[$1]++ }
              if ($4 != "-") { r[$1] += $4; nr[$1]++; rw[$1] += $4 * $2 } }
     END { print "\n| cause | true dynamic cycles | precision (mean, runs) | recall (mean, runs) | recall weighted by cycles |"
           print "|---|---|---|---|---|"
           for (i = 1; i <= n; i++) { c = order[i]
               printf("| %s | %.0f | %s | %s | %s |\n", c, cyc[c],
                      np[c] ? sprintf("%.1f (%d)", p[c] / np[c], np[c]) : "-",
                      nr[c] ? sprintf("%.1f (%d)", r[c] / nr[c], nr[c]) : "-",
                      cyc[c] ? sprintf("%.1f", rw[c] / cyc[c]) : "-") } }'
