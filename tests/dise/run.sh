#!/bin/bash
# tests/dise/run.sh BUILD_DIR - integration tests of DISE/HPS through the
# command line:
#   exact      exhaustive ACFs reproduce the simulator's ground truth member
#              for member, and the known call counts of tests/dise/known_counts.c
#   streams    the hot data streams of tests/dise/stream_walk.c, exhaustive
#              (the two known ones), under the memory caps, and sampled
#              (accuracy grows with the burst length)
#   handlers   --handlers c and asm take the same samples; asm runs at most
#              19 instructions per sample, under a third of c
#   breakdown  the overhead's parts (check, basic, sample, DCPI, rest) add
#              up to the measured overhead on every model, the rest is 0
#   rates      sampled ACFs take as many samples as the schedule implies for
#              several rates and burst lengths
#   zero       an ACF whose patterns never match leaves the cycle count
#              exactly equal to the run without it, under every model
#   dise>hps   the plain-DISE framework costs more cycles than HPS at the
#              same rate, for each profile on every workload (ev5), and for
#              hot methods on the out-of-order r10k too
#   output     every workload prints exactly the same with every ACF
#   errors     bad ACFs and options: status 2 and a file:line:col message
# Prints "ok ..." / "FAIL ..." per check and "dise: N passed, M failed".
#
# DISE_ISA=rv64 (default) or alpha-static picks the build of the test
# programs and workloads: the same productions must work unchanged on both
# ISAs.  DISE_WORKLOADS="name ..." limits the workload checks (dise>hps,
# output) to those workloads.
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-./hps-sim}
isa=${DISE_ISA:-rv64}
prog=$build/dise/$isa
wl=$build/workloads/$isa
workloads=${DISE_WORKLOADS:-$(ls "$wl")}
# the never-matching ACF names an opcode of the ISA that programs never use
case $isa in
    alpha*) never=tests/dise/never_alpha.acf ;;
    *)      never=tests/dise/never.acf ;;
esac
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-dise.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }

# stat FILE NAME: one value from a --stats-json file
stat() { /usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]]["value"])' "$1" "$2"; }

# ---- exact: exhaustive ACFs against the ground truth ---------------------------------
# every row of a --profile-out table has exact == sampled
all_rows_equal() { awk -F'\t' 'NR > 2 && $5 != $6 { bad = 1 } END { exit bad }' "$1"; }
# sum of the exact column over rows of KIND whose member matches REGEX
sum_rows() { awk -F'\t' -v k="$1" -v re="$2" '$1 == k && $2 ~ re { s += $5 } END { print s + 0 }' "$3"; }

for acf in hot_method_all hot_call_pair_all; do
    if $sim --acf productions/$acf.acf --no-baseline --report "$tmp/$acf.rep" \
            --profile-out "$tmp/$acf.tsv" "$prog/known_counts" >"$tmp/out" 2>"$tmp/err"; then
        check "exact: $acf sampled == ground truth on every member" all_rows_equal "$tmp/$acf.tsv"
    else
        bad "exact: $acf run failed: $(head -c 300 "$tmp/err")"
    fi
done
t=$tmp/hot_call_pair_all.tsv
for spec in "main:mid:10000" "main:leaf_a:30000" "main:leaf_b:5000" "mid:leaf_a:10000" \
            "mid:leaf_b:10000"; do
    IFS=: read -r from to want <<<"$spec"
    got=$(sum_rows call_pair "^$from\\+0x[0-9a-f]+ -> $to\$" "$t")
    check "exact: call pair $from -> $to = $want (got $got)" [ "$got" = "$want" ]
done
t=$tmp/hot_method_all.tsv
for spec in "leaf_a:40000" "leaf_b:15000" "mid:10000"; do
    IFS=: read -r fn want <<<"$spec"
    got=$(sum_rows method "^$fn\$" "$t")
    check "exact: method $fn = $want (got $got)" [ "$got" = "$want" ]
done
if $sim --acf productions/hot_data_stream_all.acf --no-baseline --report /dev/null \
        --profile-out "$tmp/ds.tsv" "$prog/data_walk" >"$tmp/out" 2>"$tmp/err"; then
    check "exact: hot_data_stream_all sampled == ground truth" all_rows_equal "$tmp/ds.tsv"
else
    bad "exact: hot_data_stream_all run failed: $(head -c 300 "$tmp/err")"
fi

# ---- streams: hot data streams of tests/dise/stream_walk.c ------------------------------------
# walk_array loads 24 words 4000 times, walk_list 40 words 2000 times, each
# walk followed by a store that never repeats: the exhaustive profile holds
# exactly these two streams (on Alpha one load of main joins each), and a
# sampled run finds them better with longer bursts (HPS §6.3).
# stream_row FUNCTION FREQ TSV: a data row of at least 20 references of
# FUNCTION whose exact and sampled heats are FREQ x its length
stream_row() {
    awk -F'\t' -v fn="$1" -v f="$2" '$1 == "data" {
        n = split($2, refs, " "); c = 0
        for (i = 1; i <= n; i++) if (index(refs[i], fn "+") == 1) c++
        if (c >= 20 && $5 == f * n && $6 == $5) found = 1 }
        END { exit !found }' "$3"
}
if $sim --acf productions/hot_data_stream_all.acf --no-baseline --report "$tmp/sw.rep" \
        --stats-json "$tmp/sw.json" --profile-out "$tmp/sw.tsv" "$prog/stream_walk" >"$tmp/out" 2>"$tmp/err"; then
    n=$(stat "$tmp/sw.json" hps.streams::exact); cov=$(stat "$tmp/sw.json" hps.streamCoverage::exact)
    check "streams: stream_walk has 2 exact hot streams ($n) covering over 90% ($cov)" \
        /usr/bin/python3 -c "import sys; sys.exit(0 if $n == 2 and $cov > 90 else 1)"
    check "streams: walk_array's stream, 4000 times" stream_row walk_array 4000 "$tmp/sw.tsv"
    check "streams: walk_list's stream, 2000 times" stream_row walk_list 2000 "$tmp/sw.tsv"
    check "streams: hot_data_stream_all sampled == exact on every stream" all_rows_equal "$tmp/sw.tsv"
    check "streams: the report lists them with their pcs" grep -Eq '^ +1 +2[45] +4000 .* walk_array\+0x[0-9a-f]+@0x' "$tmp/sw.rep"
else
    bad "streams: hot_data_stream_all on stream_walk failed: $(head -c 300 "$tmp/err")"
fi
# the memory caps: windows of 20000 references, cut again when a grammar reaches
# 1000 symbols (a few more at most: the last reference's new rules)
if $sim --acf productions/hot_data_stream_all.acf --param streamWindow=20000 --param streamGrammarMax=1000 \
        --no-baseline --report /dev/null --stats-json "$tmp/sc.json" "$prog/stream_walk" >/dev/null 2>"$tmp/err"; then
    refs=$(stat "$tmp/sc.json" hps.streamReferences::exact); win=$(stat "$tmp/sc.json" hps.streamWindows::exact)
    g=$(stat "$tmp/sc.json" hps.streamGrammar::exact); r=$(stat "$tmp/sc.json" hps.streamRules::exact)
    n=$(stat "$tmp/sc.json" hps.streams::exact)
    check "streams: capped, $refs references in $win windows, grammars of at most $g + $r symbols, $n streams" \
        /usr/bin/python3 -c "import sys; sys.exit(0 if $win > ($refs + 19999) // 20000 and $g + $r <= 1008 and $n >= 2 else 1)"
else
    bad "streams: capped run failed: $(head -c 300 "$tmp/err")"
fi
accs=""
for burst in 10 100 1000; do
    if $sim --acf productions/hot_data_stream.acf --rate 1/100 --burst $burst --no-baseline --report /dev/null \
            --stats-json "$tmp/sb.json" "$prog/stream_walk" >/dev/null 2>"$tmp/err"; then
        accs="$accs $(stat "$tmp/sb.json" hps.accuracy::data)"
    else
        accs="$accs error"; bad "streams: sampled run, burst $burst: $(head -c 300 "$tmp/err")"
    fi
done
check "streams: sampled accuracy at rate 1/100 is higher with bursts of 100 and 1000 than of 10, and reaches 90% (${accs# })" \
    /usr/bin/python3 -c "
import sys
a = [float(x) for x in '$accs'.split()] if 'error' not in '$accs' else []
sys.exit(0 if len(a) == 3 and 0 <= a[0] < min(a[1], a[2]) and max(a[1], a[2]) <= 100 and max(a[1], a[2]) > 90 else 1)"

# ---- handlers: the assembly and the C handlers take the same samples ---------------------------
# Each profile of Figure 5 with --handlers c and asm (ev5): the same profile
# table, samples, buffer flushes and handler calls; the assembly handlers run
# at most 19 instructions per sample (hps.ret included; flushes add a few
# thousandths), under a third of the C ones, and the run takes fewer cycles.  The exhaustive data-stream run fills the
# 4096-sample buffer many times (the flush path).
for spec in "hot_method:known_counts" "hot_call_pair:known_counts" "hot_data_stream:stream_walk" \
            "hot_data_stream_all:data_walk"; do
    IFS=: read -r acf p <<<"$spec"
    okrun=1
    for h in c asm; do
        $sim --config ev5 --handlers $h --acf productions/$acf.acf --no-baseline --report /dev/null \
            --stats-json "$tmp/h$h.json" --profile-out "$tmp/h$h.tsv" "$prog/$p" >/dev/null 2>"$tmp/err" ||
            { okrun=0; bad "handlers: $acf --handlers $h failed: $(head -c 300 "$tmp/err")"; }
    done
    [ $okrun = 1 ] || continue
    check "handlers: $acf on $p: the same profile table with c and asm" cmp -s "$tmp/hc.tsv" "$tmp/hasm.tsv"
    for f in dise.samples dise.bufferFlushes dise.handlerCalls; do
        a=$(stat "$tmp/hc.json" $f); b=$(stat "$tmp/hasm.json" $f)
        check "handlers: $acf on $p: $f $a (c) = $b (asm)" [ "$a" = "$b" ]
    done
    ic=$(stat "$tmp/hc.json" hps.handlerInstsPerSample); ia=$(stat "$tmp/hasm.json" hps.handlerInstsPerSample)
    cc=$(stat "$tmp/hc.json" hps.cycles); ca=$(stat "$tmp/hasm.json" hps.cycles)
    check "handlers: $acf on $p: $ia instructions per sample (asm) < 19.1, under a third of $ic (c); cycles $ca < $cc" \
        /usr/bin/python3 -c "import sys; sys.exit(0 if $ia < 19.1 and 3 * $ia < $ic and $ca < $cc else 1)"
done
fl=$(stat "$tmp/hasm.json" dise.bufferFlushes)
check "handlers: hot_data_stream_all on data_walk flushed the buffer ($fl times)" [ "${fl:-0}" -gt 0 ]

# ---- breakdown: the overhead's parts add up to the measured overhead ---------------------------
# On every model, for an HPS ACF (sample instructions only) and a plain-DISE
# one (check, basic and sample instructions), and for an ACF with DCPI:
# hps.cycles - hps.baseCycles is exactly the sum of the parts
# hps.overheadCycles::* (dise/README.md, "The overhead breakdown"), the
# rest (every role untimed, against the run without the ACF) is 0, and
# each role that ran has a part > 0.
# parts_add_up JSON: "" when they do, else what is wrong
parts_add_up() {
    /usr/bin/python3 - "$1" <<'PY'
import json, sys
s = {k: v["value"] for k, v in json.load(open(sys.argv[1])).items()
     if isinstance(v, dict) and "value" in v}
parts = {k.split("::")[1]: v for k, v in s.items() if k.startswith("hps.overheadCycles::")}
measured = s["hps.cycles"] - s["hps.baseCycles"]
ran = [r for r in ("check", "basic", "sample") if s.get("dise.insertedInsts::" + r, 0) > 0]
why = []
if set(parts) < {"check", "basic", "sample", "other"}: why.append("parts missing: %s" % sorted(parts))
elif sum(parts.values()) != measured: why.append("parts %s sum to %d, measured %d" % (parts, sum(parts.values()), measured))
elif parts["other"] != 0: why.append("rest %d != 0" % parts["other"])
elif any(parts[r] <= 0 for r in ran): why.append("a role that ran has no cycles: %s" % parts)
elif not ran: why.append("no role ran")
print("; ".join(why))
PY
    [ $? = 0 ] || echo "the check itself failed on $1"
}
for model in functional inorder5 ev5 r10k; do
    cfg=(); [ $model = functional ] || cfg=(--config $model)
    for acf in hot_method hot_call_pair_dise; do
        if $sim "${cfg[@]}" --acf productions/$acf.acf --report /dev/null --stats-json "$tmp/b.json" \
                "$prog/known_counts" >/dev/null 2>"$tmp/err"; then
            why=$(parts_add_up "$tmp/b.json")
            check "breakdown: $model $acf: the parts add up to the measured overhead${why:+ ($why)}" [ -z "$why" ]
        else
            bad "breakdown: $model $acf run failed: $(head -c 300 "$tmp/err")"
        fi
    done
done
rm -rf "$tmp/bdb"
if $sim --config r10k --acf productions/hot_method_dise.acf --dcpi "$tmp/bdb" --report /dev/null \
        --stats-json "$tmp/b.json" "$prog/known_counts" >/dev/null 2>"$tmp/err"; then
    why=$(parts_add_up "$tmp/b.json")
    d=$(stat "$tmp/b.json" hps.overheadCycles::dcpi)
    check "breakdown: r10k hot_method_dise with DCPI: the parts (DCPI's $d) add up${why:+ ($why)}" \
        [ -z "$why" ]
else
    bad "breakdown: r10k with DCPI run failed: $(head -c 300 "$tmp/err")"
fi

# ---- rates: sample counts follow the schedule ------------------------------------------------
# samples of hot_method.acf at rate R burst B must be within 2B of events * B/(B+sparsity)
for spec in "1/100:1" "1/1000:10" "1/50:5" "1/20:1"; do
    IFS=: read -r rate burst <<<"$spec"
    if $sim --acf productions/hot_method.acf --rate "$rate" --burst "$burst" --no-baseline \
            --report /dev/null --stats-json "$tmp/r.json" "$prog/known_counts" >/dev/null 2>"$tmp/err"; then
        events=$(stat "$tmp/r.json" hps.events::method)
        samples=$(stat "$tmp/r.json" hps.samples::method)
        verdict=$(/usr/bin/python3 -c "
import sys
r = eval('$rate'); b = $burst; e = $events; s = $samples
exp = e * r
print('yes' if abs(s - exp) <= 2 * b else 'no', round(exp, 1))")
        check "rates: hot_method at $rate burst $burst: $samples samples of $events events (expected ${verdict#* })" \
            [ "${verdict%% *}" = yes ]
    else
        bad "rates: run at $rate/$burst failed: $(head -c 300 "$tmp/err")"
    fi
done

# ---- zero: patterns that never match cost nothing ---------------------------------------------
for model in functional inorder5 ev5 ooo; do
    if $sim --set model=$model --acf "$never" --report /dev/null \
            --stats-json "$tmp/z.json" "$prog/known_counts" >/dev/null 2>"$tmp/err"; then
        c=$(stat "$tmp/z.json" hps.cycles); b=$(stat "$tmp/z.json" hps.baseCycles)
        check "zero: never-matching ACF under $model: $c cycles = $b without" [ "$c" = "$b" ]
    else
        bad "zero: $model run failed: $(head -c 300 "$tmp/err")"
    fi
done

# ---- dise>hps: conditional control is cheaper on every workload -------------------------------
cycles_of() {   # ACF WORKLOAD [CONFIG] -> cycles, or "error"
    if $sim --config "${3:-ev5}" --acf "productions/$1.acf" --rate 1/100 --no-baseline --report /dev/null \
            --stats-json "$tmp/c.json" "$wl/$2" test >/dev/null 2>&1; then
        stat "$tmp/c.json" hps.cycles
    else echo error; fi
}
for w in $workloads; do
    for p in hot_method hot_call_pair hot_data_stream; do
        h=$(cycles_of "$p" "$w"); d=$(cycles_of "${p}_dise" "$w")
        check "dise>hps: $w $p: plain DISE $d > HPS $h cycles" \
            /usr/bin/python3 -c "import sys; sys.exit(0 if '$h' != 'error' and '$d' != 'error' and int('$d') > int('$h') else 1)"
    done
    h=$(cycles_of hot_method "$w" r10k); d=$(cycles_of hot_method_dise "$w" r10k)
    check "dise>hps: $w hot_method on r10k: plain DISE $d > HPS $h cycles" \
        /usr/bin/python3 -c "import sys; sys.exit(0 if '$h' != 'error' and '$d' != 'error' and int('$d') > int('$h') else 1)"
done

# ---- output: handlers never disturb the program ----------------------------------------------------
acfs=$(ls productions/*.acf | grep -v '/sampling')
for w in $workloads; do
    $sim "$wl/$w" test >"$tmp/ref.out" 2>"$tmp/ref.err"; ref_rc=$?
    n_ok=0; problems=""
    for a in $acfs; do
        $sim --acf "$a" --no-baseline --report /dev/null "$wl/$w" test >"$tmp/a.out" 2>"$tmp/a.err"
        rc=$?
        if [ $rc = $ref_rc ] && cmp -s "$tmp/a.out" "$tmp/ref.out"; then n_ok=$((n_ok + 1))
        else problems="$problems $(basename "$a")(rc $rc)"; fi
    done
    check "output: $w identical under $n_ok ACFs${problems:+; differs:$problems}" [ -z "$problems" ]
done

# ---- errors: bad ACFs and options ------------------------------------------------------------------
expect_error() {   # WHAT REGEX ARGS...
    local what=$1 re=$2; shift 2
    "$sim" "$@" >"$tmp/e.out" 2>"$tmp/e.err"; local rc=$?
    if [ $rc = 2 ] && grep -Eq -- "$re" "$tmp/e.err" && [ "$(wc -l <"$tmp/e.err")" -le 2 ]; then
        ok "errors: $what"
    else
        bad "errors: $what (status $rc: $(head -c 200 "$tmp/e.err"))"
    fi
}
printf 'P1: T.OPCLASS == proc_call &&\n   => null\n' >"$tmp/syntax.acf"
expect_error "syntax error names file:line:col" "syntax\\.acf:2:[0-9]+:" --acf "$tmp/syntax.acf" "$prog/known_counts"
printf 'P1: T.OPCLASS == proc_cal => null\n' >"$tmp/class.acf"
expect_error "unknown class" "class\\.acf:1:[0-9]+:" --acf "$tmp/class.acf" "$prog/known_counts"
printf 'P1: T.PC in no_such_function => R\nR: T.INSN\n' >"$tmp/sym.acf"
expect_error "unknown function" "sym\\.acf:1:[0-9]+:.*no_such_function" --acf "$tmp/sym.acf" "$prog/known_counts"
expect_error "missing ACF file" "nope\\.acf" --acf "$tmp/nope.acf" "$prog/known_counts"
expect_error "unknown --param" "sampleFrequency" --acf productions/hot_method.acf --param sampleFrequency=3 "$prog/known_counts"
expect_error "bad --rate" "--rate" --acf productions/hot_method.acf --rate 3 "$prog/known_counts"
expect_error "--burst 0" "--burst" --acf productions/hot_method.acf --burst 0 "$prog/known_counts"
expect_error "--rate without --acf" "need --acf" --rate 1/100 "$prog/known_counts"
expect_error "table overflow" "pattern table" --set dise.pt_entries=2 --acf productions/hot_method.acf "$prog/known_counts"
expect_error "counters too few" "counter" --set dise.counters=1 --acf productions/hot_method.acf "$prog/known_counts"

echo "dise: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
