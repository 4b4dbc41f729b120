#!/bin/bash
# tests/ppcct/run.sh BUILD_DIR - PP's calling context tree kept by the
# guest handlers (hps-pp-acf --cct; productions/runtime/pp_cct.h,
# dcpi/ppcct.c), scored against the exact CCT (--cct) and paths (--paths)
# of the same run, on tests/guest/cct_calls (recursion, mutual recursion,
# calls through pointers, a tail call, longjmp out of a deep stack, exit
# from deep inside), both ISAs:
#   exhaustive  every path of every instrumented procedure counted exactly;
#               every guest context is one of the run's with its exact call
#               count, except contexts that calls from code hps-pp-acf does
#               not instrument (no FUNC symbol: Alpha's crt) make; every
#               program procedure's contexts but main's (longjmp lost its
#               path, exit left it unfinished) have path instructions equal
#               to their exact self instructions; the known contexts
#               (work under tail_target 25 calls, under square 20, cube 10)
#               a child slot per call site: words used, none ran out, and
#               fewer than 1.5 list entries walked per lookup
#   handlers    the assembly and C handlers give the same section
#   sampled     --sampled --cct at 1/10: the tree is still exact (the calls
#               and returns are maintained outside bursts)
#   determinism the same section twice
#   metrics     hps-pp-acf --metrics: cycles and L1D misses read in the guest
#               at path boundaries (hps.rdpmc from DISE's handlers), scored
#               against the run without the ACF (tests/ppcct/metrics.py)
#   errors      an ACF with PathEnter_handler without --cct; a bad option
# Prints "ok ..." / "FAIL ..." per check and "ppcct: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-$build/hps-sim}
ppacf=$build/hps-pp-acf
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-ppcct.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

ok()  { echo "ok   $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
# section REP: the report's PP calling context tree section
# (to the end: it is the report's last)
section() { sed -n '/^PP calling context tree on DISE/,$p' "$1"; }
# the program's own procedures (tests/guest/cct_calls.c) but main
own='fact|work|is_even|is_odd|square|cube|apply|tail_target|tail_caller|deep_jump|deep_exit'

for isa_cfg in rv64:inorder5 alpha-static:ev5; do
    isa=${isa_cfg%%:*}; cfg=${isa_cfg#*:}
    prog=$build/guest/$isa/cct_calls
    [ -x "$prog" ] || { bad "$isa: $prog not built (make guests)"; continue; }
    if ! "$ppacf" --cct "$prog" >"$tmp/$isa.acf" 2>"$tmp/err"; then
        bad "$isa: hps-pp-acf --cct failed: $(head -2 "$tmp/err")"; continue
    fi
    for h in asm c; do
        rep=$tmp/$isa.$h.rep
        if ! "$sim" --config "$cfg" --handlers $h --acf "$tmp/$isa.acf" --no-baseline --cct \
                --paths "$tmp/$isa.$h.tsv" --report "$rep" "$prog" >"$tmp/out" 2>"$tmp/err"; then
            bad "$isa $h: hps-sim failed: $(tail -2 "$tmp/err")"; continue
        fi
        check "$isa $h: output is the program's" grep -qx 'total 2934374343610' "$tmp/out"
        if out=$(tests/paths/check.py dise "$tmp/$isa.$h.tsv" "$tmp/$isa.acf" 2>&1); then
            ok "$isa $h: path counts exact: $out"
        else bad "$isa $h: path counts: $out"; fi
        section "$rep" >"$tmp/$isa.$h.sec"
    done
    sec=$tmp/$isa.asm.sec
    [ -s "$sec" ] || { bad "$isa: no PP calling context tree section"; continue; }
    line=$(grep -E '^  against the exact CCT' "$sec")
    read -r exact guest matched calls_eq <<<"$(sed -E 's/.*\(([0-9]+) contexts\): ([0-9]+) of the ([0-9]+) guest contexts are the run.s, ([0-9]+) of them.*/\1 \3 \2 \4/' <<<"$line")"
    if [ "${calls_eq:-0}" = "${matched:-x}" ] && [ "${matched:-0}" -ge $((exact - 4)) ] &&
       [ "$matched" -ge $((guest - 1)) ]; then
        ok "$isa: $matched of $guest guest contexts are the run's ($exact exact), all with the exact call count"
    else bad "$isa: contexts: $line"; fi
    # PP's layout: a child slot per call site (pp_cct.h); the lookups find
    # their child in the slot nearly always, so they walk few list entries
    slots=$(sed -nE 's/^  child slots \(one per call site\): ([0-9]+) of [0-9]+ words used; ([0-9]+) nodes.*/\1 \2/p' "$sec")
    walk=$(sed -nE 's/.* child lookups walked [0-9]+ list entries \(([0-9.]+) each\)$/\1/p' "$sec")
    read -r used full <<<"$slots"
    if [ "${used:-0}" -gt 1 ] && [ "${full:-x}" = 0 ] && awk -v w="${walk:-9}" 'BEGIN { exit !(w < 1.5) }'; then
        ok "$isa: child slots: $used words, none ran out; $walk list entries per lookup"
    else bad "$isa: child slots: '$slots', $walk list entries per lookup"; fi
    if sed -n '/^  contexts that differ from the exact tree/,/^  [a-h]/p' "$sec" |
       grep -qE "^    ($own|main) <-"; then
        bad "$isa: a context of the program's procedures differs: $(grep -E "^    ($own|main) <-" "$sec" | head -2)"
    else ok "$isa: no context of the program's procedures differs from the exact tree"; fi
    if sed -n '/^  contexts whose path instructions/,/^  hottest/p' "$sec" | grep -qE "^    ($own) <-"; then
        bad "$isa: path instructions differ: $(grep -E "^    ($own) <-" "$sec" | head -2)"
    else ok "$isa: every context of the program's procedures but main has its exact self instructions on paths"; fi
    for ctx in 'work <- tail_target \(depth 6, 25 calls\)' 'work <- square \(depth 7, 20 calls\)' \
               'work <- cube \(depth 7, 10 calls\)'; do
        check "$isa: context ${ctx//\\/} with its exact path instructions" \
            grep -qE "^ +([0-9]+) \| +\1  $ctx" "$sec"
    done
    check "$isa: asm and C handlers give the same tree and scores" cmp -s "$sec" "$tmp/$isa.c.sec"
    "$sim" --config "$cfg" --acf "$tmp/$isa.acf" --no-baseline --cct --paths "$tmp/again.tsv" \
        --report "$tmp/again.rep" "$prog" >"$tmp/out" 2>&1
    section "$tmp/again.rep" >"$tmp/again.sec"
    check "$isa: the same section twice" cmp -s "$sec" "$tmp/again.sec"
done

# sampled: the tree is maintained at every call and return, only the path
# counts are sampled, so the contexts and calls stay exact
prog=$build/guest/rv64/cct_calls
if "$ppacf" --sampled --cct "$prog" >"$tmp/s.acf" 2>"$tmp/err" &&
   "$sim" --config ev5 --acf "$tmp/s.acf" --rate 1/10 --no-baseline --cct --paths "$tmp/s.tsv" \
        --report "$tmp/s.rep" "$prog" >/dev/null 2>"$tmp/err"; then
    line=$(grep -E '^  against the exact CCT' "$tmp/s.rep")
    if [[ $line =~ \(([0-9]+)\ contexts\):\ ([0-9]+)\ of\ the\ ([0-9]+)\ guest.*,\ ([0-9]+)\ of\ them ]] &&
       [ "${BASH_REMATCH[1]}" = "${BASH_REMATCH[2]}" ] && [ "${BASH_REMATCH[2]}" = "${BASH_REMATCH[3]}" ] &&
       [ "${BASH_REMATCH[3]}" = "${BASH_REMATCH[4]}" ]; then
        ok "sampled rv64 1/10: the guest tree is the exact one (${BASH_REMATCH[1]} contexts, calls exact)"
    else bad "sampled rv64: $line"; fi
else bad "sampled rv64: failed: $(tail -2 "$tmp/err")"; fi

# path metrics read in the guest (hps-pp-acf --metrics, hps.rdpmc at path
# boundaries), ev5: the counts stay exact; against the run without the
# ACF (PP's perturbation, section 3.2) the guest's readings sit between
# the true metrics and the exact recorder's in the instrumented run (which
# also holds the handlers' own cost), and rank the paths' cycles as the
# truth does (top-90% overlap >= 80%)
for isa in rv64 alpha-static; do
    prog=$build/guest/$isa/cct_calls
    if ! "$ppacf" --metrics --cct "$prog" >"$tmp/m.acf" 2>"$tmp/err"; then
        bad "metrics $isa: hps-pp-acf --metrics failed: $(head -2 "$tmp/err")"; continue
    fi
    "$sim" --config ev5 --paths "$tmp/m0.tsv" --report /dev/null "$prog" >"$tmp/out" 2>"$tmp/err" &&
    "$sim" --config ev5 --acf "$tmp/m.acf" --no-baseline --cct --paths "$tmp/m1.tsv" \
        --report "$tmp/m1.rep" "$prog" >"$tmp/out" 2>"$tmp/err"
    if [ $? -ne 0 ]; then bad "metrics $isa: hps-sim failed: $(tail -2 "$tmp/err")"; continue; fi
    if out=$(tests/paths/check.py dise "$tmp/m1.tsv" "$tmp/m.acf" 2>&1); then ok "metrics $isa: path counts exact: $out"
    else bad "metrics $isa: path counts: $out"; fi
    check "metrics $isa: the report scores the guest's readings" grep -q '^  path metrics the guest read' "$tmp/m1.rep"
    if out=$(tests/ppcct/metrics.py "$tmp/m0.tsv" "$tmp/m1.tsv" 80 2>&1); then
        read -r t g x <<<"$(sed -E 's/.*cycles: true ([0-9]+), guest-read ([0-9]+) .*, exact with instrumentation ([0-9]+) .*misses.*/\1 \2 \3/' <<<"$out")"
        if [ "$t" -le "$g" ] && [ "$g" -lt "$x" ]; then ok "metrics $isa: $out"
        else bad "metrics $isa: cycles not true <= guest < exact-with-instrumentation: $out"; fi
    else bad "metrics $isa: $out"; fi
done
"$sim" --acf "$tmp/m.acf" --cct --paths "$tmp/e.tsv" "$build/guest/alpha-static/cct_calls" >/dev/null 2>"$tmp/err"
rc=$?
check "errors: --metrics on the functional model: status 2 ($rc) and one message naming the ACF" \
    [ $rc -eq 2 -a "$(wc -l <"$tmp/err")" -eq 1 -a "$(grep -c 'm.acf: .*timing model' "$tmp/err")" -eq 1 ]

# errors
"$sim" --acf "$tmp/rv64.acf" --paths "$tmp/e.tsv" "$prog" >/dev/null 2>"$tmp/err"
rc=$?
check "errors: PathEnter_handler without --cct: status 2 ($rc) and one message" \
    [ $rc -eq 2 -a "$(wc -l <"$tmp/err")" -eq 1 ]
check "errors: the message names the ACF and --cct" grep -q "rv64.acf: .*add --cct" "$tmp/err"
"$ppacf" --bogus "$prog" >/dev/null 2>"$tmp/err"
rc=$?
check "errors: hps-pp-acf --bogus: status 2 ($rc), names the option" \
    [ $rc -eq 2 -a "$(grep -c -- "--bogus" "$tmp/err")" -eq 1 ]

"$ppacf" --sampled --metrics "$prog" >/dev/null 2>"$tmp/err"
rc=$?
check "errors: hps-pp-acf --sampled --metrics: refused, status 2 ($rc), one line" \
    [ $rc -eq 2 -a "$(wc -l <"$tmp/err")" -eq 1 ]

echo "ppcct: $pass passed, $fail failed"
[ $fail -eq 0 ]
