#!/bin/bash
# tests/specdise/measure_leak.sh BUILD_DIR [ISA_DIR...] - what
# dise.spec_counters = leak does to HPS sampling on the workloads (not part
# of make test: about 5 runs of each workload's test input, a few minutes).
# For each workload of BUILD_DIR/workloads/ISA_DIR (default rv64 and
# alpha-static) under the hps preset: one run without an ACF (the
# baseline's cycles), then hot_method.acf and hot_call_pair.acf each under
# checkpoint and leak (--no-baseline).  Prints one tab-separated row per
# (ISA, workload, ACF): the accuracy (hps.accuracy::KIND, top-90% overlap,
# renormalised), samples and overhead (cycles with the ACF / baseline) under
# each mode, and the wrong path's HPS micro-ops.  dise/README.md quotes the
# summary.  MEASURE_WORKLOADS="a b ..." restricts the workloads.
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}; shift
sim=${HPS_SIM:-$build/hps-sim}
isas=("$@"); [ ${#isas[@]} -eq 0 ] && isas=(rv64 alpha-static)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-leak.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

st() { awk -v k="$1" '$1 == k { print $2; exit }' "$2"; }

printf 'isa\tworkload\tacf\tacc_checkpoint\tacc_leak\tsamples_checkpoint\tsamples_leak\t'
printf 'overhead_checkpoint\toverhead_leak\twrong_path_uops\n'
for isa in "${isas[@]}"; do
    for prog in "$build"/workloads/"$isa"/*; do
        [ -x "$prog" ] || continue
        w=$(basename "$prog")
        [ -n "${MEASURE_WORKLOADS:-}" ] && [[ " $MEASURE_WORKLOADS " != *" $w "* ]] && continue
        "$sim" --config hps --stats "$tmp/base.stats" "$prog" test >/dev/null 2>&1 || continue
        base=$(st cpu.cycles "$tmp/base.stats")
        for acf in hot_method hot_call_pair; do
            kind=$([ $acf = hot_method ] && echo method || echo call_pair)
            for m in checkpoint leak; do
                "$sim" --config hps --set dise.spec_counters=$m --acf productions/$acf.acf \
                    --no-baseline --report /dev/null --stats "$tmp/$m.stats" "$prog" test \
                    >/dev/null 2>&1 || echo "# $isa $w $acf $m: exit status $?" >&2
            done
            C=$tmp/checkpoint.stats L=$tmp/leak.stats
            awk -v a="$isa" -v w="$w" -v f="$acf" -v b="$base" \
                -v ac="$(st hps.accuracy::$kind "$C")" -v al="$(st hps.accuracy::$kind "$L")" \
                -v sc="$(st dise.samples "$C")" -v sl="$(st dise.samples "$L")" \
                -v cc="$(st cpu.cycles "$C")" -v cl="$(st cpu.cycles "$L")" \
                -v u="$(st dise.wrongPath.microOps "$L")" \
                'BEGIN { printf "%s\t%s\t%s\t%.1f\t%.1f\t%d\t%d\t%.4f\t%.4f\t%d\n",
                         a, w, f, ac, al, sc, sl, cc / b, cl / b, u }'
        done
    done
done
