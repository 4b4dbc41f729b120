#!/bin/bash
# tests/paths/run.sh BUILD_DIR - Ball-Larus path profiles (hps-sim --paths,
# include/paths.h; PP, PLDI'97), on both ISAs:
#   known     tests/guest/paths_known: the path counts known by hand (if/else
#             chains, a loop, a switch through a jump table, early returns,
#             recursion, longjmp); every path's instructions are count x its
#             static length; summed over the paths, each block of those
#             functions runs as often as the ground truth (--ground-truth)
#             says its first instruction does; a timed run's cycles and L1D
#             misses; the same TSV twice
#   workload  gametree: rows exact, and the instructions on paths plus those
#             off numbered paths are the run's simInsts
#   perturb   PP's perturbation of path metrics, here by HPS's hot method
#             profile: paths, counts, instructions unchanged, cycles up
#   pp-on-dise  tools/hps-pp-acf's ACF (increments on chords, per-PC
#             tables, T.TAKEN; dise/README.md) run exhaustively counts every
#             path of every procedure it instruments exactly (paths_known
#             and gametree on both ISAs, bwt_compress), with the default
#             assembly handlers and with --handlers c (the same counts);
#             --sampled under HPS's bursts: the accuracy (top-90% overlap)
#             rises with the rate to >= 95%; the overhead against the run
#             without it and the perturbation of the path metrics on ev5
#   export    --paths-export folded and callgrind (callgrind_annotate) hold
#             the TSV's instructions, executions and cycles
#   errors    bad combinations and outputs: status 2 and one message
# Prints "ok ..." / "FAIL ..." per check and "paths: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-$build/hps-sim}
check_py=tests/paths/check.py
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-paths.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
# pycheck WHAT ARGS...: run check.py, its line in the verdict
pycheck() {
    local what=$1 out; shift
    if out=$("$check_py" "$@" 2>&1); then ok "$what: $out"; else bad "$what: $out"; fi
}
# stat NAME FILE: a statistic's value
stat() { awk -v n="$1" '$1 == n { print $2; exit }' "$2"; }

# (thrower's longjmp paths end nowhere, so its blocks run more often than
# its paths say)
known_funcs="diamonds pick early rec loop_ifelse main"
for isa in rv64 alpha-static; do
    g=$build/guest/$isa/paths_known
    [ -x "$g" ] || { bad "$g is not built (make guests)"; continue; }
    if "$sim" --config inorder5 --ground-truth "$tmp/gt.$isa" --paths "$tmp/k.$isa.tsv" \
            --report "$tmp/k.$isa.rep" "$g" >"$tmp/out" 2>"$tmp/err"; then
        pycheck "known $isa rows" rows "$tmp/k.$isa.tsv"
        pycheck "known $isa counts" known "$tmp/k.$isa.tsv"
        pycheck "known $isa blocks" blocks "$tmp/k.$isa.tsv" "$tmp/gt.$isa" $known_funcs
        cyc=$(awk -F'\t' '$1 == "rec" { c += $7 } END { print c + 0 }' "$tmp/k.$isa.tsv")
        miss=$(awk -F'\t' 'NR > 1 { m += $8 } END { print m + 0 }' "$tmp/k.$isa.tsv")
        if [ "$cyc" -gt 0 ] && [ "$miss" -gt 0 ]; then ok "known $isa timed: rec's paths $cyc cycles, $miss L1D misses on all paths"
        else bad "known $isa timed: rec's cycles $cyc, misses $miss"; fi
        if grep -q "^  diamonds (0x" "$tmp/k.$isa.rep"; then ok "known $isa report lists diamonds"
        else bad "known $isa report: no diamonds section"; fi
    else
        bad "known $isa: hps-sim failed: $(tail -2 "$tmp/err")"
    fi
    "$sim" --config inorder5 --ground-truth "$tmp/gt2" --paths "$tmp/k2.$isa.tsv" \
        --report "$tmp/k2.rep" "$g" >"$tmp/out" 2>&1
    if cmp -s "$tmp/k.$isa.tsv" "$tmp/k2.$isa.tsv"; then ok "known $isa: the same TSV twice"
    else bad "known $isa: two runs differ"; fi
done

for isa in rv64 alpha-static; do
    w=$build/workloads/$isa/gametree
    [ -x "$w" ] || { bad "$w is not built (make workloads)"; continue; }
    if "$sim" --paths "$tmp/w.tsv" --report "$tmp/w.rep" --stats "$tmp/w.stats" "$w" >/dev/null 2>"$tmp/err"; then
        pycheck "workload gametree $isa rows" rows "$tmp/w.tsv"
        on=$(sed -n 's/.*; \([0-9]*\) program instructions on paths/\1/p' "$tmp/w.rep")
        off=$(sed -n 's/.*(\([0-9]*\) instructions off numbered paths).*/\1/p' "$tmp/w.rep")
        total=$(stat simInsts "$tmp/w.stats")
        if [ -n "$on" ] && [ -n "$off" ] && [ $((on + off)) = "$total" ]; then
            ok "workload gametree $isa: $on on paths + $off off = simInsts $total"
        else bad "workload gametree $isa: on $on + off $off != simInsts $total"; fi
    else
        bad "workload gametree $isa: hps-sim failed: $(tail -2 "$tmp/err")"
    fi
done

# perturbation (PP section 3.2): the same run under HPS's hot method profile
# (rate 1/100): the same paths, counts and program instructions, more cycles
w=$build/workloads/rv64/gametree
if [ -x "$w" ] &&
   "$sim" --config ev5 --paths "$tmp/p0.tsv" --report /dev/null "$w" >"$tmp/out" 2>"$tmp/err" &&
   "$sim" --config ev5 --acf productions/hot_method.acf --no-baseline --paths "$tmp/p1.tsv" \
        --report /dev/null "$w" >"$tmp/out" 2>"$tmp/err"; then
    pycheck "perturbation gametree ev5 hot_method" perturb "$tmp/p0.tsv" "$tmp/p1.tsv"
else
    bad "perturbation: hps-sim failed: $(tail -2 "$tmp/err")"
fi

# PP on DISE (tools/hps-pp-acf.c): exhaustive counts equal the exact ones
ppacf=$build/hps-pp-acf
pp_exact() {        # pp_exact LABEL PROG [HPS-SIM OPTIONS]: the ACF counts every path exactly
    local label=$1 prog=$2; shift 2
    if ! "$ppacf" "$prog" >"$tmp/pp.acf" 2>"$tmp/err"; then bad "$label: hps-pp-acf failed: $(head -2 "$tmp/err")"; return; fi
    if "$sim" "$@" --acf "$tmp/pp.acf" --no-baseline --paths "$tmp/pp.tsv" --report "$tmp/pp.rep" \
            "$prog" >"$tmp/out" 2>"$tmp/err"; then
        pycheck "$label" dise "$tmp/pp.tsv" "$tmp/pp.acf"
    else bad "$label: hps-sim failed: $(tail -2 "$tmp/err")"; fi
}
for isa in rv64 alpha-static; do
    pp_exact "pp-on-dise $isa paths_known" "$build/guest/$isa/paths_known"
    cp "$tmp/pp.tsv" "$tmp/pp.asm.tsv"
    pp_exact "pp-on-dise $isa paths_known --handlers c" "$build/guest/$isa/paths_known" --handlers c
    if cmp -s "$tmp/pp.tsv" "$tmp/pp.asm.tsv"; then ok "pp-on-dise $isa paths_known: asm and C handlers, the same TSV"
    else bad "pp-on-dise $isa paths_known: asm and C handlers' TSVs differ"; fi
    pp_exact "pp-on-dise $isa gametree" "$build/workloads/$isa/gametree"
done
pp_exact "pp-on-dise rv64 bwt_compress" "$build/workloads/rv64/bwt_compress"

# sampled (hps-pp-acf --sampled, HPS's bursts): accuracy rises with the rate
if "$ppacf" --sampled "$build/workloads/rv64/gametree" >"$tmp/pps.acf" 2>"$tmp/err"; then
    prev=0; accs=""; rising=1
    for rate in 1/1000 1/100 1/10; do
        "$sim" --acf "$tmp/pps.acf" --rate $rate --no-baseline --paths "$tmp/pps.tsv" \
            --report "$tmp/pps.rep" "$build/workloads/rv64/gametree" >"$tmp/out" 2>"$tmp/err"
        a=$("$check_py" accuracy "$tmp/pps.rep" 0 | sed 's/accuracy //; s/%//')
        accs="$accs $rate:${a:-?}%"
        awk -v a="${a:-0}" -v p="$prev" 'BEGIN { exit !(a > p) }' || rising=0
        prev=${a:-0}
    done
    if [ $rising = 1 ] && awk -v a="$prev" 'BEGIN { exit !(a >= 95) }'; then
        ok "pp-on-dise sampled gametree: accuracy rises with the rate:$accs"
    else bad "pp-on-dise sampled gametree: accuracy does not rise to 95%:$accs"; fi
else bad "pp-on-dise sampled: hps-pp-acf --sampled failed: $(head -2 "$tmp/err")"; fi

# overhead against the run without it, and the perturbation of the path metrics (ev5)
g=$build/guest/rv64/paths_known
if "$ppacf" "$g" >"$tmp/ppk.acf" && "$ppacf" --sampled "$g" >"$tmp/ppks.acf" &&
   "$sim" --config ev5 --paths "$tmp/o0.tsv" --report /dev/null "$g" >"$tmp/out" 2>"$tmp/err"; then
    for v in ppk ppks; do
        "$sim" --config ev5 --acf "$tmp/$v.acf" --paths "$tmp/o.$v.tsv" --report "$tmp/o.$v.rep" \
            "$g" >"$tmp/out" 2>"$tmp/err"
        ov=$(sed -n 's/^overhead: .*ratio \([0-9.]*\) (\(.*\))$/x\1 (\2)/p' "$tmp/o.$v.rep")
        if [ -n "$ov" ]; then ok "pp-on-dise $v overhead on ev5: $ov"; else bad "pp-on-dise $v: no overhead line"; fi
        pycheck "pp-on-dise $v perturbation ev5" perturb "$tmp/o0.tsv" "$tmp/o.$v.tsv"
    done
else bad "pp-on-dise overhead: runs failed: $(tail -2 "$tmp/err")"; fi

# export: the exporter's files hold the TSV's totals
g=$build/guest/rv64/paths_known
if "$sim" --config inorder5 --paths "$tmp/e.tsv" --paths-export folded:"$tmp/e.folded" --report /dev/null \
        "$g" >"$tmp/out" 2>"$tmp/err" &&
   "$sim" --config inorder5 --paths "$tmp/e2.tsv" --paths-export callgrind:"$tmp/e.cg" --report /dev/null \
        "$g" >"$tmp/out" 2>"$tmp/err"; then
    want=$(awk -F'\t' 'NR > 1 { i += $6; n += $5; c += $7 } END { print i, n, c }' "$tmp/e.tsv")
    folded=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/e.folded")
    if [ "$folded" = "${want%% *}" ]; then ok "export folded: $folded instructions, the TSV's"
    else bad "export folded: $folded != ${want%% *}"; fi
    if command -v callgrind_annotate >/dev/null; then
        cg=$(callgrind_annotate --auto=no "$tmp/e.cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", ""); print $1, $3, $5; exit }')
        if [ "$cg" = "$want" ]; then ok "export callgrind: totals $cg (insts, paths, cycles), the TSV's"
        else bad "export callgrind: callgrind_annotate totals '$cg', TSV '$want'"; fi
    fi
else
    bad "export: hps-sim failed: $(tail -2 "$tmp/err")"
fi

# errors: one message, status 2
expect_bad() {
    local what=$1 pattern=$2; shift 2
    "$sim" "$@" >"$tmp/out" 2>"$tmp/err"; local rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$tmp/err")" -ge 1 ] && grep -q -- "$pattern" "$tmp/err"; then
        ok "errors: $what"
    else bad "errors: $what (status $rc: $(head -2 "$tmp/err"))"; fi
}
g=$build/guest/rv64/paths_known
expect_bad "--paths into a missing directory" "$tmp/no/such" --paths "$tmp/no/such/p.tsv" "$g"
expect_bad "--paths with --interactive" "--paths" --interactive --paths "$tmp/p.tsv" "$g"
expect_bad "--paths without a file" "paths" --paths
expect_bad "--paths-export without --paths" "needs --paths" --paths-export folded:"$tmp/f" "$g"
expect_bad "--paths-export with a bad format" "FORMAT:FILE" --paths "$tmp/p.tsv" --paths-export svg:"$tmp/f" "$g"
expect_bad "--paths-export into a missing directory" "$tmp/no/such" --paths "$tmp/p.tsv" \
    --paths-export folded:"$tmp/no/such/f" "$g"

expect_bad "an ACF counting paths without --paths" "add --paths FILE" --acf "$tmp/ppk.acf" "$g"
"$ppacf" "$build/guest/rv64-dyn/paths_known" >"$tmp/out" 2>"$tmp/err"; rc=$?
if [ $rc -eq 2 ] && grep -q "position-independent" "$tmp/err"; then ok "errors: hps-pp-acf refuses a PIE program"
else bad "errors: hps-pp-acf on a PIE program: status $rc: $(head -1 "$tmp/err")"; fi

echo "paths: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
