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

shell "$tmp/fault" 'c\nq\n' "$build/faults/rv64/load_unmapped"
check "errors: a fault gives its status ($rc) and pc, symbol, disassembly" \
    test $rc = 139 && grep -qE "memory fault: .* at pc 0x[0-9a-f]+ \(main" "$tmp/fault.err"
shell "$tmp/badcmd" 'frobnicate\nstep x\nbreak nosuchsym\nmem\ndelete 9\nuntil\nreg q99\nq\n' "$sort"
check "errors: each bad command gets one message and the shell goes on ($rc)" \
    test $rc = 0 -a "$(grep -cE "unknown|expected|no breakpoint" "$tmp/badcmd")" = 7
echo q | "$sim" --interactive --acf productions/hot_method.acf "$sort" >/dev/null 2>"$tmp/err"; rc=$?
check "errors: --interactive with --acf is refused ($rc)" test $rc = 2 -a -s "$tmp/err"

echo "shell: $pass passed, $fail failed"
[ $fail -eq 0 ]
