#!/bin/bash
# dcpi/measure_accuracy.sh BUILD_DIR OUT_DIR - the measured accuracy table of
# dcpi/README.md: every workload's train input on ev5, both ISAs, at the
# paper's CYCLES period (60000-64000) and a short one (500-550), each run
# with its ground truth, scored by hps-dcpicalc --all --truth.  Prints one
# line per run: ISA, workload, period, samples and the score lines.
# Slow (a few minutes); run it with nice.  Not part of make test.
set -u
build=${1:?usage: measure_accuracy.sh BUILD_DIR OUT_DIR}
out=${2:?usage: measure_accuracy.sh BUILD_DIR OUT_DIR}
mkdir -p "$out" || exit 2
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
            "$build/hps-dcpicalc" --all --truth "$out/$tag.gt" "$out/$tag.db" "$w" \
                >"$out/$tag.calc" 2>&1
            echo "== $isa $w $period"
            sed -n '/^scored against/,$p' "$out/$tag.calc"
        done
    done
done
