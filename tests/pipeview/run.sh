#!/bin/bash
# tests/pipeview/run.sh BUILD_DIR - the pipeline views (pipeline/pipeview.c,
# formats in pipeline/README.md) on every timing model, RV64 and Alpha:
#   diagram    --pipe-diagram has a legend naming each of the model's stages,
#              and a cycle ruler whose numbers and digits match the columns
#   zero       a stage passed through in 0 cycles is shown (ev5: X=W, r10k:
#              X=G for one-cycle operations), in the diagram and in Kanata
#   cut        a window wider than the diagram's 400 cycles ends with a note
#              and marks the rows that go on; a narrower one has neither
#   kanata     --pipeview from --view-from 5000: ids from 0, Konata's grammar
#              (kanata_check.py)
#   o3         --o3pipeview parses by gem5 o3-pipeview.py's rules, one
#              instruction per --view-count (o3_check.py), and starts in the
#              cycle the Kanata log starts
#   errors     an unwritable --o3pipeview file, no timing model, --interactive
#   shell      the interactive shell's pipe command has the same legend
# Prints "ok ..." / "FAIL ..." per check and "pipeview: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-$build/hps-sim}
here=tests/pipeview
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-pipeview.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
# sim_run OUT [hps-sim options...]: stdout to OUT, stderr to OUT.err, status in $rc
sim_run() { local out=$1; shift; "$sim" "$@" </dev/null >"$out" 2>"$out.err"; rc=$?; }

from=5000 count=200
stop=(--max-insts 20000)        # the windows end long before: a shorter run
progs="rv64:$build/guest/rv64/sort alpha:$build/guest/alpha-static/sort"
letters_of() { case $1 in inorder5) echo "F D X M W";; ev5) echo "F S I X W";; r10k) echo "F D I X G";; esac; }
model_of()   { case $1 in r10k) echo ooo;; *) echo "$1";; esac; }

# ruler_ok FILE ROWS: the title's first cycle, the ruler's numbers over their
# columns, its digits, and ROWS instruction rows
ruler_ok() {
    /usr/bin/python3 - "$1" "$2" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
title = next(l for l in lines if l.startswith("pipeline diagram:"))
first = int(re.search(r"cycles (\d+)-(\d+)", title).group(1))
k = next(i for i, l in enumerate(lines) if re.match(r" +cycle: ", l))
nums, digits = lines[k], lines[k + 1]
col0 = digits.rindex(" ") + 1
run = digits[col0:]
assert digits.startswith("pc       instruction") and run.isdigit(), "no digit row"
assert all(int(run[i]) == (first + i) % 10 for i in range(len(run))), "digits are not the columns' cycles"
labels = [(m.start() - col0, int(m.group())) for m in re.finditer(r"\d+", nums) if m.start() >= col0]
assert labels and all(v == first + i for i, v in labels), f"cycle labels off their columns: {labels[:3]}"
rows = [l for l in lines[k + 2:] if re.match(r"[0-9a-f]{8,} ", l)]
assert len(rows) == int(sys.argv[2]), f"{len(rows)} rows"
EOF
}

# ---- diagram, zero, cut (small window) ------------------------------------------------
for p in $progs; do
    isa=${p%%:*} prog=${p#*:}
    for cfg in inorder5 ev5 r10k; do
        d=$tmp/$isa.$cfg
        sim_run "$d.out" --config $cfg "${stop[@]}" --pipe-diagram --pipeview "$d.kanata" \
            --o3pipeview "$d.o3" --view-from $from --view-count 24 "$prog"
        cp "$d.out.err" "$d.diag"
        check "diagram: $isa $cfg: a legend for $(model_of $cfg)" grep -q "^legend ($(model_of $cfg)" "$d.diag"
        missing=""
        for l in $(letters_of $cfg); do grep -qE "^  $l  [a-z]+ +[A-Za-z]" "$d.diag" || missing="$missing $l"; done
        check "diagram: $isa $cfg: the legend explains each stage ($(letters_of $cfg | tr -d ' '))${missing:+, not$missing}" \
            test -z "$missing"
        check "diagram: $isa $cfg: and lowercase" grep -q "lowercase each further cycle" "$d.diag"
        check "diagram: $isa $cfg: cycle numbers over their columns, 24 rows" ruler_ok "$d.diag" 24
        # the window's cycles depend on where the guest's stack and data fall
        # (argv[0]'s length moves them), so either outcome may be right: a
        # window of <= 400 cycles must not be cut, a longer one must be
        span=$(sed -nE 's/^pipeline diagram:.* cycles ([0-9]+)-([0-9]+)(, shown to [0-9]+)?$/\2 - \1 + 1/p' "$d.diag")
        marks=$(grep -c 'diagram cut\|>$' "$d.diag")
        if [ -n "$span" ] && [ "$((span))" -gt 400 ]; then
            check "cut: $isa $cfg: a window of $((span)) cycles is cut, and says so" test "$marks" -gt 0
        else
            check "cut: $isa $cfg: a window of $((span)) cycles is not cut" test -n "$span" -a "$marks" = 0
        fi
    done
done
d=$tmp/rv64
check "zero: inorder5 has no 0-cycle stage, and no 0-cycle column" \
    test "$(grep -c '0-cycle' "$d.inorder5.diag")" = 0
check "zero: ev5: a one-cycle operation goes through X in 0 cycles: X=W, shown I then W" \
    grep -qE ' X=W +[.A-Za-z]*IW$' "$d.ev5.diag"
check "zero: r10k: one completing and graduating in one cycle: X=G, shown I...G" \
    grep -qE ' X=G +[.A-Za-z]*Ii*G$' "$d.r10k.diag"
check "zero: the legend explains the 0-cycle column" grep -qE "^  0-cycle column: stages entered in the same cycle.  [A-Z]=[A-Z]: " "$d.ev5.diag"
# in Kanata: S and E of X with no C between
zero_in_kanata() { awk -F'\t' '$1 == "C" { delete s } $1 == "S" && $4 == "X" { s[$2] = 1 }
                              $1 == "E" && $4 == "X" && s[$2] { n++ } END { exit !n }' "$1"; }
check "zero: ev5's Kanata log starts and ends X in the same cycle" zero_in_kanata "$d.ev5.kanata"

# ---- cut (the first 200 instructions: I-cache misses, > 400 cycles) --------------------
sim_run "$tmp/cut.out" --config inorder5 "${stop[@]}" --pipe-diagram "$build/guest/rv64/sort"
c=$tmp/cut.out.err
last=$(sed -nE 's/^pipeline diagram:.* cycles ([0-9]+)-([0-9]+), shown to ([0-9]+)$/\2/p' "$c")
shown=$(sed -nE 's/^pipeline diagram:.* shown to ([0-9]+)$/\1/p' "$c")
check "cut: a window of ${last:-?} cycles is cut at cycle ${shown:-?} (title)" test -n "$last" -a "${shown:-0}" = 399
check "cut: the note says where and how many cycles are not shown, and what to do" \
    grep -qE "^diagram cut at cycle 399: $((${last:-0} - 399)) cycles not shown .*--view-count.*--view-from" "$c"
check "cut: rows that go on past the cut end in '>'" test "$(grep -cE '^[0-9a-f]{8} .*>$' "$c")" -gt 0
check "cut: and the legend says so" grep -q "^  '>' ends a row that goes on past cycle 399" "$c"
check "cut: every row is within the diagram's 400 columns" \
    test "$(grep -E '^[0-9a-f]{8} ' "$c" | awk '{ t = substr($0, 38) } length(t) > 401' | wc -l)" = 0
sim_run "$tmp/none.out" --config ev5 --pipe-diagram --view-from 100000000 "$build/guest/rv64/exit_code"
check "cut: a window past the end of the run says so" grep -q "no instruction ran in the view window" "$tmp/none.out.err"

# ---- kanata, o3 (--view-count 200 from instruction 5000) --------------------------------
for p in $progs; do
    isa=${p%%:*} prog=${p#*:}
    for cfg in inorder5 ev5 r10k; do
        v=$tmp/view.$isa.$cfg
        sim_run "$v" --config $cfg "${stop[@]}" --pipeview "$v.kanata" --o3pipeview "$v.o3" \
            --view-from $from --view-count $count "$prog"
        why=$(/usr/bin/python3 $here/kanata_check.py "$v.kanata" $count $from 2>&1)
        check "kanata: $isa $cfg: ids from 0 at --view-from $from, grammar and retirements ($why)" \
            test "${why%%:*}" = ok
        why=$(/usr/bin/python3 $here/o3_check.py "$v.o3" $count $from 2>&1)
        check "o3: $isa $cfg: $count instructions in o3-pipeview.py's format ($why)" test "${why%%:*}" = ok
        if [ $isa = rv64 ]; then
            check "o3: $isa $cfg: stores carry a store tick" test "$(echo "$why" | sed -nE 's/.* ([0-9]+) stores$/\1/p')" -gt 0
        fi
        c0=$(sed -n 2p "$v.kanata" | cut -f2)
        f0=$(head -1 "$v.o3" | cut -d: -f3)
        check "o3: $isa $cfg: starts in Kanata's C= cycle ($c0), 1000 ticks a cycle" \
            test -n "$c0" -a "${f0:-x}" = "$((c0 * 1000))"
    done
done
# the checkers are not vacuous
v=$tmp/view.rv64.ev5
sed '3s/^I\t0\t/I\t5\t/' "$v.kanata" >"$tmp/bad.kanata"
check "kanata: the checker rejects ids that do not start from 0" \
    test "$(/usr/bin/python3 $here/kanata_check.py "$tmp/bad.kanata" $count $from | cut -c1-2)" != ok
sed '2{h;d};3{G}' "$v.o3" >"$tmp/bad.o3"
check "o3: the checker rejects events out of order" \
    test "$(/usr/bin/python3 $here/o3_check.py "$tmp/bad.o3" $count $from | cut -c1-2)" != ok

# ---- errors ------------------------------------------------------------------------------
sort=$build/guest/rv64/sort
sim_run "$tmp/err1" --config ev5 --o3pipeview "$tmp/no/such/dir/o3.txt" "$sort"
check "errors: an unwritable --o3pipeview file: status 2 ($rc), a message naming it, nothing run" \
    test $rc = 2 -a ! -s "$tmp/err1" && grep -q "no/such/dir/o3.txt: cannot write" "$tmp/err1.err"
sim_run "$tmp/err2" --o3pipeview "$tmp/o3.txt" "$sort"
check "errors: --o3pipeview without a timing model: status 2 ($rc) and why" \
    test $rc = 2 && grep -q -- "--o3pipeview.*need a timing" "$tmp/err2.err"
sim_run "$tmp/err3" --interactive --config ev5 --o3pipeview "$tmp/o3.txt" "$sort"
check "errors: --o3pipeview with --interactive: status 2 ($rc)" \
    test $rc = 2 && grep -q -- "--o3pipeview" "$tmp/err3.err"

# ---- shell -------------------------------------------------------------------------------
printf 'step 40\npipe 6\nq\n' | "$sim" --interactive --config r10k "$sort" >"$tmp/shell" 2>&1
check "shell: pipe 6 has the r10k legend" grep -q "^legend (ooo" "$tmp/shell"
check "shell: and cycle numbers over 6 rows" ruler_ok "$tmp/shell" 6

# ---- wrong path (hps: ooo.wrong_path on) ---------------------------------------------------
# Squashed wrong-path instructions are flushed in the Kanata log (R type 1)
# and marked in the text diagram; the retired ones are still exactly the
# window's instructions.
for p in $progs; do
    isa=${p%%:*} prog=${p#*:}
    w=$tmp/wp.$isa
    sim_run "$w" --config hps "${stop[@]}" --pipeview "$w.kanata" --pipe-diagram \
        --view-from $from --view-count $count "$prog"
    why=$(/usr/bin/python3 $here/kanata_check.py "$w.kanata" $count $from 2>&1)
    nflush=$(awk -F'\t' '$1 == "R" && $4 == 1' "$w.kanata" | wc -l)
    check "wrong path: $isa hps: Kanata log valid with $count retired ($why)" test "${why%%:*}" = ok
    check "wrong path: $isa hps: $nflush wrong-path instructions flushed (R type 1) > 0" test "$nflush" -gt 0
    nmark=$(grep -c 'squashed (wrong path)$' "$w.err")
    check "wrong path: $isa hps: the diagram marks $nmark squashed rows, and its legend explains x" \
        test "$nmark" -gt 0 -a "$(grep -c '^  x  squashed: ' "$w.err")" = 1
    sim_run "$w.off" --config hps --set ooo.wrong_path=off "${stop[@]}" --pipeview "$w.off.kanata" \
        --view-from $from --view-count $count "$prog"
    check "wrong path: $isa hps ooo.wrong_path=off: nothing flushed" \
        test "$(awk -F'\t' '$1 == "R" && $4 == 1' "$w.off.kanata" | wc -l)" = 0
done

echo "pipeview: $pass passed, $fail failed"
[ $fail -eq 0 ]
