#!/bin/bash
# tests/shell/run.sh BUILD_DIR - the interactive teaching shell
# (hps-sim --interactive), driven by scripted commands on stdin:
#   exact      stepping in pieces gives the cycles of an uninterrupted run
#              on every timing model, and the program's exit status
#   back       going back N instructions restores registers and memory;
#              output already shown is not shown again
#   commands   breakpoints, until pc, registers by name and number, memory
#              at a symbol or register, the pipeline diagram, stats
#   alpha      the same on an Alpha program (its register names)
#   until      until reg / until mem stop where a --trace of the batch run
#              says the condition first holds
#   watch      a watchpoint stops after the instruction the trace shows
#              storing there, with old and new value and that instruction;
#              stopping at watchpoints and conditions keeps the cycles exact
#   freg       FP registers as doubles (and RISC-V NaN-boxed singles as floats)
#   dise       with --acf: the DISE tables and counters that change as the
#              run goes; restart rebuilds them; stepping keeps the cycles
#   views      cache and bp on ev5 and r10k, consistent with the statistics;
#              without a timing model they say one is needed
#   terminal   through a pseudo-terminal (script(1)): readline's prompt,
#              restart gives the same instruction count, Tab completes
#              commands and symbols but not file names, Ctrl-C stops a run
#   errors     a fault reports pc, symbol and disassembly with the usual
#              status; bad commands and options get a message
# Prints "ok ..." / "FAIL ..." per check and "shell: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-$build/hps-sim}
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-shell.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
# shell OUT COMMANDS [hps-sim options...] PROG: COMMANDS (printf format,
# one per line) to the shell; its output in OUT and OUT.err, status in $rc
shell() {
    local out=$1 cmds=$2; shift 2
    printf "$cmds" | "$sim" --interactive "$@" >"$out" 2>"$out.err"; rc=${PIPESTATUS[1]}
}
stat_of() { awk -v k="$1" '$1 == k { print $2 }' "$2" | tail -1; }

sort=$build/guest/rv64/sort
for cfg in inorder5 ev5 r10k; do
    # stdout a file in both: glibc's stdio asks a character device whether it is a terminal
    "$sim" --config $cfg --stats "$tmp/batch.txt" "$sort" </dev/null >"$tmp/batch.out" 2>&1
    want=$(stat_of cpu.cycles "$tmp/batch.txt")
    shell "$tmp/pieces" 'step 3\nrun 777\nrun 1\nrun 12345\nc\nstats\nq\n' --config $cfg "$sort"
    got=$(stat_of cpu.cycles "$tmp/pieces")
    check "exact: $cfg stepped in pieces takes the batch run's cycles ($got = $want)" \
        test -n "$want" -a "$got" = "$want"
done
shell "$tmp/exit" 'c\nq\n' "$build/guest/rv64/exit_code"
check "exact: the program's exit status is hps-sim's ($rc)" test $rc = 3
check "exact: the end is reported" grep -q "program exited with status 3" "$tmp/exit"

shell "$tmp/back" 'run 20000\nreg\nmem sp 64\nrun 500\nback 500\nreg\nmem sp 64\nq\n' --config ev5 "$sort"
awk '/^(zero|ra) /,0' "$tmp/back" | grep -E '^[a-z0-9]+ +0x' | head -8 >"$tmp/regs1"
awk '/^(zero|ra) /,0' "$tmp/back" | grep -E '^[a-z0-9]+ +0x' | tail -8 >"$tmp/regs2"
check "back: registers after run 500, back 500 are the ones before" \
    test -s "$tmp/regs1" -a "$(md5sum <"$tmp/regs1")" = "$(md5sum <"$tmp/regs2")"
grep -E '^0x[0-9a-f]+:' "$tmp/back" >"$tmp/mem"
check "back: so is memory at sp" \
    test "$(wc -l <"$tmp/mem")" = 8 -a "$(head -4 "$tmp/mem" | md5sum)" = "$(tail -4 "$tmp/mem" | md5sum)"
shell "$tmp/once" 'c\nback 100000\nc\nrestart\nc\nq\n' --config inorder5 "$sort"
"$sim" "$sort" </dev/null >"$tmp/want_out" 2>/dev/null
first=$(head -1 "$tmp/want_out")
check "back: the program's output appears once after going back twice" \
    test "$(grep -cxF -- "$first" "$tmp/once")" = 1
check "back: all of it" test "$(grep -cxFf "$tmp/want_out" "$tmp/once")" = "$(wc -l <"$tmp/want_out")"
check "back: the run ends three times" test "$(grep -c "program exited with status 0" "$tmp/once")" = 3

shell "$tmp/cmds" 'break main\nc\npc\nuntil pc main+4\nreg a0\nreg x10\nx sp 16\nstep 2\npipe 4\nstats\nbreaks\ndelete 1\nbreaks\nq\n' --config inorder5 "$sort"
check "commands: continue stops at the breakpoint on main" grep -q "^breakpoint at 0x[0-9a-f]* <main>" "$tmp/cmds"
check "commands: until pc main+4" grep -q "^next: 0x[0-9a-f]* <main+0x4>" "$tmp/cmds"
a0=$(grep '^a0 = ' "$tmp/cmds" | head -1); x10=$(grep '^a0 = ' "$tmp/cmds" | sed -n 2p)
check "commands: a register by name and by number ($a0)" test -n "$a0" -a "$a0" = "$x10"
check "commands: memory at a register" grep -qE '^0x0000003f[0-9a-f]+:( [0-9a-f]{2}){16}' "$tmp/cmds"
check "commands: each step shows its instruction, result and head cycles" \
    test "$(grep -cE '^ +[0-9]+  0x[0-9a-f]+ <main\+0x[0-9a-f]+>  .*\[cycle [0-9]+, head [0-9]+' "$tmp/cmds")" = 2
check "commands: the pipeline diagram of the last 4" \
    test "$(grep -cE '^[0-9a-f]{8} .*F.*W' "$tmp/cmds")" = 4
check "commands: stats give cycles and CPI" grep -qE '^cpu.cpi +[0-9.]+$' "$tmp/cmds"
check "commands: breakpoints are listed and deleted" \
    test "$(grep -c '<main>$' "$tmp/cmds")" -ge 1 -a "$(grep -c '^no breakpoints' "$tmp/cmds")" = 1

ahello=$build/guest/alpha-static/hello
shell "$tmp/alpha" 'step 2\nbreak main\nc\nreg v0\nreg r0\nfreg\nc\nq\n' --config ev5 "$ahello"
check "alpha: steps, a breakpoint and Alpha register names" \
    grep -q "^breakpoint at .*<main>" "$tmp/alpha"
check "alpha: v0 is r0" test "$(grep '^v0 = ' "$tmp/alpha" | sed -n 1p)" = "$(grep '^v0 = ' "$tmp/alpha" | sed -n 2p)"
check "alpha: the program's output and status" \
    grep -q "program exited with status 0" "$tmp/alpha"

# ---- until and watch, against a trace of the batch run --------------------------
"$sim" --trace "$tmp/trace" --trace-limit 2000 "$sort" </dev/null >/dev/null 2>&1
hex() { printf '%d' "0x${1#0x}"; }
shell "$tmp/sp" 'reg sp\nq\n' "$sort"
sp0=$(awk '$1 == "sp" && $2 == "=" { print $3 }' "$tmp/sp")
# the first instruction that leaves sp below its value at the start
want=""
while read -r step val; do
    if [ "$(hex "$val")" -lt "$(hex "$sp0")" ]; then want=$step; break; fi
done < <(awk '{ for (k = 6; k <= NF; k++) if ($k ~ /^sp=0x/) print $1, substr($k, 4) }' "$tmp/trace")
shell "$tmp/ureg" "until reg sp < $sp0\nreg sp\nq\n" "$sort"
got=$(sed -n 's/^until: sp < .* holds after \([0-9]*\) instructions.*/\1/p' "$tmp/ureg")
check "until: reg sp < $sp0 stops after the instruction the trace shows ($got = $want)" \
    test -n "$want" -a "$got" = "$want"
# the first store to sp-8, and the value of the register it stores
addr=$(printf '0x%x' $(( $(hex "$sp0") - 8 )))
read -r sstep spc sreg < <(awk -v a="[$addr]" '$NF == a && $5 ~ /^f?s[bhwd]$/ {
    split($6, o, ","); print $1, $2, o[1]; exit }' "$tmp/trace")
sval=$(awk -v n="$sstep" -v r="$sreg" '$1 < n { for (k = 6; k <= NF; k++)
    if (index($k, r "=") == 1) v = substr($k, length(r) + 2) } END { print v }' "$tmp/trace")
shell "$tmp/umem" "until mem sp-8 == $sval\nq\n" "$sort"
got=$(sed -n 's/^until: mem .* holds after \([0-9]*\) instructions.*/\1/p' "$tmp/umem")
check "until: mem sp-8 == $sval stops after the store the trace shows ($got = $sstep)" \
    test -n "$sstep" -a "$got" = "$sstep"
shell "$tmp/umem4" "until mem sp-8:4 != 0\nq\n" "$sort"
got=$(sed -n 's/^until: mem .*:4 != 0x0 holds after \([0-9]*\) instructions.*/\1/p' "$tmp/umem4")
check "until: mem sp-8:4 != 0 stops there too ($got)" test "$got" = "$sstep"
shell "$tmp/uend" 'until reg a0 == 0xdeadbeef\nuntil mem sp:2 > 0\nq\n' "$build/guest/rv64/exit_code"
check "until: a condition that never holds runs to the end ($rc)" \
    test $rc = 3 -a "$(grep -c 'program exited with status 3' "$tmp/uend")" = 1 \
         -a "$(grep -c '^the program has finished' "$tmp/uend")" = 1
shell "$tmp/watch" 'watch sp-8\nwatches\nc\nbreaks\nq\n' "$sort"
got=$(sed -n 's/^watchpoint 1: .* changed after \([0-9]*\) instructions: 0x0 -> .*/\1/p' "$tmp/watch")
wval=$(sed -n 's/^watchpoint 1: .* -> \(0x[0-9a-f]*\)$/\1/p' "$tmp/watch")
wpc=$(sed -n 's/^  written by \(0x[0-9a-f]*\) .*/\1/p' "$tmp/watch")
check "watch: sp-8 stops after the store the trace shows ($got = $sstep)" \
    test -n "$sstep" -a "$got" = "$sstep"
check "watch: it shows the new value ($wval = $sval) and the storing instruction" \
    test -n "$wval" -a "$(hex "$wval")" = "$(hex "${sval:-x}")" -a "$(hex "${wpc:-x}")" = "$(hex "0x$spc")"
check "watch: watches lists it, breaks does not" \
    grep -qE "^1  0x0*${addr#0x}:8, last seen 0x0$" "$tmp/watch" && grep -q '^no breakpoints' "$tmp/watch"
"$sim" --config ev5 --stats "$tmp/batch.txt" "$sort" </dev/null >"$tmp/batch.out" 2>&1
want=$(stat_of cpu.cycles "$tmp/batch.txt")
cmds='break merge_sort.constprop.0\nc\ndelete\nwatch sp-8\nc\nc\nuntil reg a0 == 0\nc\nc\ndelete\nc\nstats\nq\n'
shell "$tmp/wexact" "$cmds" --config ev5 "$sort"
got=$(stat_of cpu.cycles "$tmp/wexact")
check "watch: stopping at watchpoints, conditions and breakpoints keeps the cycles ($got = $want)" \
    test -n "$want" -a "$got" = "$want" -a "$(grep -c '^watchpoint [0-9]*: ' "$tmp/wexact")" -ge 4 \
         -a "$(grep -c '^until: a0 == 0x0 holds' "$tmp/wexact")" = 1

# ---- FP registers as values ------------------------------------------------------
fpb=$build/guest/rv64/fp_basic
cmds='until reg fa0 == 0x4004000000000000\nfreg\nfreg fa0\nuntil reg fa0 == 0xffffffffc0200000\nfreg fa0\nq\n'
shell "$tmp/freg" "$cmds" "$fpb"
check "freg: a double in fa0 shows as 2.5" grep -qE '^fa0 +0x4004000000000000  2\.5$' "$tmp/freg"
check "freg: and so for one register" grep -qE '^fa0 = 0x4004000000000000  2\.5$' "$tmp/freg"
check "freg: a NaN-boxed single shows as the float -2.5" \
    grep -qE '^fa0 = 0xffffffffc0200000  -?nan +float -2\.5$' "$tmp/freg"
shell "$tmp/afreg" 'until reg f1 != 0\nfreg f1\nq\n' "$build/guest/alpha-static/fp_math"
check "freg: Alpha FP registers as T-floats" grep -qE '^f1 = 0x[0-9a-f]{16}  [-0-9.e+]+$' "$tmp/afreg"

# ---- DISE ----------------------------------------------------------------------------
acf=productions/hot_method.acf
shell "$tmp/dise" 'dise\nrun 300000\ndise\nrestart\nrun 300000\ndise\nq\n' --acf "$acf" "$sort"
check "dise: the pattern, conditional and replacement tables" \
    test "$(grep -cE '^(pattern table: 7 of|conditional table: |replacement table: )' "$tmp/dise")" = 9 \
         -a "$(grep -c '^  pt\[6\] HotMethod: ' "$tmp/dise")" = 3 \
         -a "$(grep -c '^    call(HotMethod_handler)$' "$tmp/dise")" = 3
c1=$(grep -E '^  counter_3 = ' "$tmp/dise" | sed -n 1p); c2=$(grep -E '^  counter_3 = ' "$tmp/dise" | sed -n 2p)
c3=$(grep -E '^  counter_3 = ' "$tmp/dise" | sed -n 3p)
check "dise: the counters and flags change as the run goes ($c1 / $c2)" \
    test -n "$c2" -a "$c1" != "$c2" && grep -qE '^  counter_1 = [0-9]+ +overflow_1 [01]  zero_1 [01]$' "$tmp/dise"
check "dise: restart rebuilds them, and the run gets there again" test "$c2" = "$c3"
"$sim" --config ev5 --acf "$acf" --no-baseline --stats "$tmp/dbatch.txt" "$sort" </dev/null >"$tmp/batch.out" 2>&1
want=$(stat_of cpu.cycles "$tmp/dbatch.txt")
shell "$tmp/dexact" 'step 5\nrun 99999\nrun 3\nc\nstats\nq\n' --config ev5 --acf "$acf" "$sort"
got=$(stat_of cpu.cycles "$tmp/dexact")
check "dise: with --acf, stepping in pieces takes the batch run's cycles ($got = $want)" \
    test -n "$want" -a "$got" = "$want"
shell "$tmp/nodise" 'dise\nq\n' "$sort"
check "dise: without --acf it says there is none" grep -q '^no DISE engine' "$tmp/nodise"

# ---- caches and branch predictor ------------------------------------------------------
for cfg in ev5 r10k; do
    shell "$tmp/v-$cfg" 'cache\nrun 200000\ncache\ncache l1d sp\ncache dtlb sp\nbp\nbp pc\nstats all\nq\n' \
        --config $cfg "$sort"
    v=$tmp/v-$cfg
    check "views: $cfg cache shows l1i, l1d, l2, itlb and dtlb with their counts" \
        test "$(grep -cE '^(l1i|l1d|l2|itlb|dtlb) +[0-9]+ (KiB|entries), ' "$v")" = 10 \
             -a "$(grep -cE '^      0 accesses, 0 (hits|misses)' "$v")" = 5
    acc=$(awk '$1 == "l1d" && $3 == "KiB," { l = 1; next } l && /accesses/ { n = $1; l = 0 } END { print n }' "$v")
    check "views: $cfg l1d accesses are the statistics' ($acc)" \
        test -n "$acc" -a "$acc" = "$(stat_of l1d.accesses "$v")"
    line=$(awk '$1 == "l1d" && $3 == "KiB," { print $7 }' "$v" | tail -1 | tr -dc 0-9)
    sets=$(awk '$1 == "l1d" && $3 == "KiB," { print $4 }' "$v" | tail -1)
    read -r a s < <(sed -n 's/^l1d: \(0x[0-9a-f]*\) is in line .*, set \([0-9]*\): .*/\1 \2/p' "$v")
    check "views: $cfg cache l1d sp gives the set sp maps to ($s) and its ways" \
        test -n "$s" -a "$s" = "$(( ($(hex "${a:-0}") / ${line:-1}) % ${sets:-1} ))" \
             -a "$(grep -cE '^  way [0-9]+ +(empty|line 0x)' "$v")" -ge 1
    check "views: $cfg cache dtlb sp" grep -qE '^dtlb: the page of 0x[0-9a-f]+ is (not )?present$' "$v"
    cond=$(awk '$1 == "cond" && $3 == "predictions" { print $2 }' "$v")
    check "views: $cfg bp gives the configuration and the accuracy so far ($cond)" \
        grep -q '^branch predictor: bimodal, ' "$v" && test -n "$cond" -a "$cond" = "$(stat_of bpred.cond.lookups "$v")"
    check "views: $cfg bp pc gives its counter and BTB entry" \
        grep -qE '^  counter\[[0-9]+\] = [0-3] \(' "$v" && grep -qE '^  BTB set [0-9]+' "$v"
done
shell "$tmp/noviews" 'cache\nbp\nq\n' "$sort"
check "views: without a timing model cache and bp ask for one" \
    test "$(grep -c 'run with --config' "$tmp/noviews")" = 2

# ---- on a terminal -----------------------------------------------------------------------
# term OUT COMMANDS [hps-sim options...] PROG: the shell on a pseudo-terminal
# (script(1)), each line of COMMANDS (printf format) typed after a pause;
# its output (echo, prompts and all) in OUT
term() {
    local out=$1 cmds=$2; shift 2
    local cmd; cmd=$(printf '%q ' "$sim" --interactive "$@")
    { sleep 1; printf "$cmds" | while IFS= read -r l; do printf '%s\n' "$l"; sleep 0.3; done; sleep 1; } |
        TERM=dumb timeout 120 script -qfec "$cmd" /dev/null >"$out" 2>&1
    tr -d '\r' <"$out" >"$out.txt"
}
insts() { sed -n 's/^\(.*(hps) \)\{0,1\}instructions  *\([0-9]*\)$/\2/p' "$1"; }
if ! command -v script >/dev/null; then
    bad "terminal: script(1) (util-linux) is missing"
else
    for env in "" --env-host; do
        term "$tmp/tty" 'break main\nc\nstats\nrestart\nc\nstats\nq\n' $env "$sort"
        n=$(insts "$tmp/tty.txt" | paste -sd' ')
        check "terminal: break main, c and restart, c stop at the same instruction ${env:+($env) }($n)" \
            test "$(insts "$tmp/tty.txt" | wc -l)" = 2 -a "$(insts "$tmp/tty.txt" | sort -u | wc -l)" = 1
    done
    check "terminal: readline prompts" grep -q '^(hps) ' "$tmp/tty.txt"
    term "$tmp/tab" 'unt\tpc mai\t\nbrea\t merge_s\t\nmem Makef\t\nq\n' "$sort"
    check "terminal: Tab completes a command and a symbol (until pc main)" \
        grep -qE '^next: 0x[0-9a-f]+ <main> ' "$tmp/tab.txt"
    check "terminal: and another (break merge_sort.constprop.0)" \
        grep -qE '^breakpoint 1 at 0x[0-9a-f]+ <merge_sort\.constprop\.0>$' "$tmp/tab.txt"
    check "terminal: but not a file name" \
        test "$(grep -c 'Makefile' "$tmp/tab.txt")" = 0 -a "$(grep -c '^mem: expected' "$tmp/tab.txt")" = 1
    term "$tmp/intr" 'break 0x4\nc\n\003\nstats\nq\n' "$sort"
    n=$(insts "$tmp/intr.txt")
    check "terminal: Ctrl-C stops a long run ($n instructions)" \
        grep -q '^interrupted' "$tmp/intr.txt" && test -n "$n" && test "$n" -lt 16000000
fi

shell "$tmp/fault" 'c\nq\n' "$build/faults/rv64/load_unmapped"
check "errors: a fault gives its status ($rc) and pc, symbol, disassembly" \
    test $rc = 139 && grep -qE "memory fault: .* at pc 0x[0-9a-f]+ \(main" "$tmp/fault.err"
shell "$tmp/badcmd" 'frobnicate\nstep x\nbreak nosuchsym\nmem\ndelete 9\nuntil\nreg q99\nq\n' "$sort"
check "errors: each bad command gets one message and the shell goes on ($rc)" \
    test $rc = 0 -a "$(grep -cE "unknown|expected|no breakpoint" "$tmp/badcmd")" = 7
echo q | "$sim" --interactive --config ev5 --dcpi "$tmp/db" "$sort" >/dev/null 2>"$tmp/err"; rc=$?
check "errors: --interactive with --dcpi is refused ($rc)" test $rc = 2 -a -s "$tmp/err"

echo "shell: $pass passed, $fail failed"
[ $fail -eq 0 ]
