#!/bin/bash
# dcpi/measure_accuracy.sh BUILD_DIR OUT_DIR - the measured accuracy table of
# dcpi/README.md: every workload's train input on ev5, both ISAs, at the
# paper's CYCLES period (60000-64000) and a short one (500-550), each run
# with its ground truth (kept in OUT_DIR: a second call only re-scores),
# scored by hps-dcpicalc --all --truth.  Prints a markdown table, one row a
# run, and the means over the runs of each period.
# Slow (a few minutes a run on a loaded machine); run it with nice.  Not
# part of make test.
set -u
build=${1:?usage: measure_accuracy.sh BUILD_DIR OUT_DIR}
out=${2:?usage: measure_accuracy.sh BUILD_DIR OUT_DIR}
mkdir -p "$out" || exit 2

# the $3rd percentage on the first line of file $1 matching $2 (the score
# lines read "A% within 5%, B% within 10%": A is the 1st, B the 3rd)
num() { grep -m1 "$2" "$1" | grep -oE '[0-9.]+%' | sed -n "${3}p" | tr -d %; }
# the midpoint correlation of the Figure 10 line matching $2, or -
corr() { local r; r=$(grep -m1 "$2" "$1" | sed -n 's/.*midpoint \(-*[0-9.a-z]*\).*/\1/p'); echo "${r:--}"; }

echo "| ISA | workload | period | samples | counts ≤5% | ≤10% | edges ≤10% | culprit precision | recall | r(I-cache, IMISS) | r(D-cache, DMISS) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
for isa in rv64 alpha-static; do
    for p in "$build"/workloads/$isa/*; do
        [ -x "$p" ] || continue
        w=$(basename "$p")
        for period in 60000-64000 500-550; do
            tag=$isa.$w.$period
            [ -s "$out/$tag.gt" ] ||
                "$build/hps-sim" --config ev5 --dcpi "$out/$tag.db" \
                    --dcpi-events "cycles:$period,imiss,dmiss" --ground-truth "$out/$tag.gt" \
                    --no-baseline --report /dev/null "$p" train >/dev/null 2>&1 </dev/null
            c=$out/$tag.calc
            "$build/hps-dcpicalc" --all --truth "$out/$tag.gt" "$out/$tag.db" "$w" >"$c" 2>&1
            samples=$("$build/hps-dcpiprof" "$out/$tag.db" 2>/dev/null |
                      awk '$1 == "cycles" { print $2; exit }')
            echo "| $isa | $w | $period | ${samples:-?} | $(num "$c" 'execution counts' 1) |" \
                 "$(num "$c" 'execution counts' 3) | $(num "$c" 'edge frequencies' 3) |" \
                 "$(num "$c" 'culprits overall' 1) | $(num "$c" 'culprits overall' 2) |" \
                 "$(corr "$c" 'against projected IMISS') | $(corr "$c" 'against projected DMISS') |"
        done
    done
done | tee "$out/table.md"
# means over the runs of each period (a run without a figure is left out of that column)
awk -F'|' '$4 ~ /[0-9]/ { p = $4; gsub(/ /, "", p); n[p]++
                          for (k = 6; k <= 12; k++) if ($k ~ /[0-9]/) { s[p, k] += $k; m[p, k]++ } }
     END { for (p in n) {
               printf("| mean | %d runs | %s | |", n[p], p)
               for (k = 6; k <= 12; k++)
                   printf(m[p, k] ? " %.2f |" : " - |", m[p, k] ? s[p, k] / m[p, k] : 0)
               printf("\n") } }' "$out/table.md"
