#!/bin/bash
# tests/checkpoint/run.sh BUILD_DIR - checkpoints (sim/checkpoint.c,
# --checkpoint-at/--checkpoint-out/--restore, README.md "Checkpoints"):
#   resume     for guests on both ISAs (RV64 static, Alpha static, Alpha
#              dynamic through its sysroot): run to N, checkpoint, restore
#              and finish: stdout (both halves), exit status and final
#              instruction count equal an uninterrupted run's; the file
#              ckpt_reader reads half-way goes on at its offset and the log
#              it writes ends the same
#   stdin      a stdin file read before the checkpoint goes on at its offset
#              (3 points); a pipe as stdin is refused at the checkpoint, and
#              a restore from a pipe after the guest read its stdin file
#   libraries  a restored dynamic Alpha program's libc functions are named
#              (DCPI report under ev5)
#   identical  restore -> checkpoint at the same N gives the same bytes;
#              restore at N -> checkpoint at M equals a checkpoint taken at
#              M directly (gametree, both ISAs)
#   models     a checkpoint restored under ev5 and r10k: the same output
#   crafted    damaged fields behind a matching hash: refused, never a crash
#   shell      `back` restores the nearest in-memory checkpoint and replays
#              only from there (the count it prints), to the same registers
#   refused    corrupt, truncated, junk, other version, other program,
#              other arguments, a changed input file, options that do not
#              combine, a checkpoint past the program's end: status 2 and
#              one line naming the problem, never a crash
# Prints PASS/FAIL per check and "N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
sim=${HPS_SIM:-$build/hps-sim}
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-ckpt.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
ok()  { echo "PASS $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
st() { awk -v k="$1" '$1 == k && / # / { v = $2 } END { if (v != "") print v }' "$2" 2>/dev/null; }
sysroot_of() { case $1 in alpha-dyn) echo "--sysroot /usr/alpha-linux-gnu" ;; esac; }

# resume NAME VARIANT PROG ARGS...: uninterrupted in $tmp/NAME.a, then
# checkpoint half-way and restore in $tmp/NAME.b (the guest's directory is
# its own scratch directory, bound read-write)
resume() {
    local name=$1 variant=$2 prog=$3; shift 3
    local a=$tmp/$name.a b=$tmp/$name.b sr; sr=$(sysroot_of "$variant")
    mkdir -p "$a" "$b"
    [ -x "$prog" ] || { bad "resume $name: $prog not built (make guests workloads)"; return; }
    ( cd "$a" && "$sim" $sr --stats st "$prog" "$@" </dev/null >out 2>err; echo $? >rc )
    local total; total=$(st simInsts "$a/st")
    local n=$(( ${total:-0} / 2 ))
    ( cd "$b" && "$sim" $sr --checkpoint-at $n --checkpoint-out ck "$prog" "$@" </dev/null >out 2>err1 &&
      "$sim" $sr --restore ck --stats st "$prog" "$@" </dev/null >>out 2>err; echo $? >rc )
    local why=""
    [ "$n" -gt 0 ] || why="no instruction count"
    cmp -s "$a/out" "$b/out" || why="$why stdout differs"
    [ "$(cat "$a/rc")" = "$(cat "$b/rc")" ] || why="$why status $(cat "$a/rc") vs $(cat "$b/rc")"
    [ "$total" = "$(st simInsts "$b/st")" ] || why="$why simInsts $total vs $(st simInsts "$b/st")"
    [ -f "$a/log.txt" ] && ! cmp -s "$a/log.txt" "$b/log.txt" && why="$why log.txt differs"
    if [ -z "$why" ]; then ok "resume $name ($variant, checkpoint at $n of $total)"
    else bad "resume $name ($variant): $why"; fi
}

g=$build/guest; w=$build/workloads
for v in rv64 alpha-static alpha-dyn; do
    resume reader-$v $v "$g/$v/ckpt_reader" .
done
resume gametree-rv64 rv64 "$w/rv64/gametree" test
resume gametree-alpha-static alpha-static "$w/alpha-static/gametree" test
resume bytecode-alpha-dyn alpha-dyn "$w/alpha-dyn/bytecode_vm" test

# ---- stdin: a file read half-way goes on at its offset; a pipe is refused ---------
p=$g/rv64/stdin_read; in=$root/tests/guest/stdin_read.stdin; d=$tmp/stdin; mkdir -p "$d"
"$sim" --stats "$d/st" "$p" <"$in" >"$d/ref" 2>/dev/null
total=$(st simInsts "$d/st"); why=""
for n in $((total / 4)) $((total / 2)) $((3 * total / 4)); do
    "$sim" --checkpoint-at $n --checkpoint-out "$d/ck" "$p" <"$in" >"$d/out" 2>/dev/null
    "$sim" --restore "$d/ck" "$p" <"$in" >>"$d/out" 2>/dev/null
    cmp -s "$d/ref" "$d/out" || why="$why at $n"
done
if [ -n "$total" ] && [ -z "$why" ]; then ok "stdin: a file read before the checkpoint goes on at its offset (3 points)"
else bad "stdin: output differs when restored$why"; fi
( cat "$in" | "$sim" --checkpoint-at $((total / 2)) --checkpoint-out "$d/p.ck" "$p" >/dev/null 2>"$d/err.pipe" ); rc=$?
if [ $rc -eq 2 ] && grep -q 'stdin (fd 0) is a pipe' "$d/err.pipe"; then ok "stdin: a pipe is refused at the checkpoint"
else bad "stdin: a pipe at the checkpoint: status $rc: $(head -c 200 "$d/err.pipe")"; fi
( cat "$in" | "$sim" --restore "$d/ck" "$p" >/dev/null 2>"$d/err.rpipe" ); rc=$?
if [ $rc -eq 2 ] && grep -q 'bytes of its stdin' "$d/err.rpipe"; then ok "stdin: a restore from a pipe after reading stdin is refused"
else bad "stdin: a restore from a pipe: status $rc: $(head -c 200 "$d/err.rpipe")"; fi

# ---- libraries: a dynamic program's shared libraries keep their names ------------
# objdb (Alpha, dynamic) spends ~10% in libc's strncmp: restored 3M
# instructions before its end under ev5 with --dcpi, the report names it
# (the checkpoint holds the file mappings; the restore reports them to the
# symbol table and DCPI's images again)
d=$tmp/libs; mkdir -p "$d"; p=$w/alpha-dyn/objdb; sr="--sysroot /usr/alpha-linux-gnu"
( cd "$d" && "$sim" $sr --stats st "$p" test </dev/null >/dev/null 2>&1
  n=$(( $(st simInsts st) - 3000000 ))
  "$sim" $sr --checkpoint-at $n --checkpoint-out ck "$p" test </dev/null >/dev/null 2>&1
  "$sim" $sr --config ev5 --restore ck --dcpi db --report rep "$p" test </dev/null >/dev/null 2>err )
if grep -qE '^ *[0-9]+ +strncmp ' "$d/rep" && grep -q ' 0 samples outside every image' "$d/rep"; then
    ok "libraries: a restored dynamic program's libc (strncmp) is named in the DCPI report"
else bad "libraries: no strncmp in the restored DCPI report: $(head -c 300 "$d/err")"; fi

# ---- identical: the same state gives the same bytes ---------------------------------
b=$tmp/reader-rv64.b
n=$(( $(st simInsts "$tmp/reader-rv64.a/st") / 2 ))
( cd "$b" && "$sim" --restore ck --checkpoint-at $n --checkpoint-out ck2 "$g/rv64/ckpt_reader" . \
    </dev/null >/dev/null 2>&1 )
if cmp -s "$b/ck" "$b/ck2"; then ok "identical: restore -> checkpoint at the same instruction"
else bad "identical: restore -> checkpoint at $n differs from the checkpoint restored"; fi
for v in rv64 alpha-static; do
    d=$tmp/gt-$v; mkdir -p "$d"; p=$w/$v/gametree
    "$sim" --checkpoint-at 3000000 --checkpoint-out "$d/n.ck" "$p" test </dev/null >/dev/null 2>&1
    "$sim" --restore "$d/n.ck" --checkpoint-at 7000000 --checkpoint-out "$d/m1.ck" "$p" test \
        </dev/null >/dev/null 2>&1
    "$sim" --checkpoint-at 7000000 --checkpoint-out "$d/m2.ck" "$p" test </dev/null >/dev/null 2>&1
    if [ -s "$d/m1.ck" ] && cmp -s "$d/m1.ck" "$d/m2.ck"; then
        ok "identical: gametree ($v) restored at 3M, checkpointed at 7M = checkpointed at 7M"
    else bad "identical: gametree ($v): restore at 3M -> checkpoint at 7M differs from a direct one"; fi
done

# ---- models: restore under ev5 and r10k ----------------------------------------------
for v in rv64 alpha-static; do
    a=$tmp/reader-$v.a; d=$tmp/models-$v; mkdir -p "$d"
    total=$(st simInsts "$a/st"); n=$(( total - 600000 ))
    ( cd "$d" && "$sim" --checkpoint-at $n --checkpoint-out ck "$g/$v/ckpt_reader" . \
        </dev/null >head 2>/dev/null )
    for m in ev5 r10k; do
        ( cd "$d" && "$sim" --config $m --restore ck --stats st.$m "$g/$v/ckpt_reader" . \
            </dev/null >tail.$m 2>err.$m; echo $? >rc.$m )
        cat "$d/head" "$d/tail.$m" >"$d/out.$m"
        if cmp -s "$a/out" "$d/out.$m" && [ "$(cat "$d/rc.$m")" = "$(cat "$a/rc")" ] &&
           [ "$(st simInsts "$d/st.$m")" = "$total" ] && [ -n "$(st simCycles "$d/st.$m")" ]; then
            ok "models: ckpt_reader ($v) restored at $n under $m: same output, status, count"
        else bad "models: ckpt_reader ($v) under $m: $(head -c 300 "$d/err.$m")"; fi
        # the IPC is over the instructions timed: those after the checkpoint
        ipc_ok=$(awk -v at="$(st sim.restoredAtInsts "$d/st.$m")" -v n=$n -v total=$total \
            -v ipc="$(st cpu.ipc "$d/st.$m")" -v cyc="$(st simCycles "$d/st.$m")" \
            -v rt="$(st sim.runtimeInsts "$d/st.$m")" \
            'BEGIN { t = total - n + rt; print (at == n && cyc > 0 && ipc * cyc > 0.999 * t && ipc * cyc < 1.001 * t) ? 1 : 0 }')
        if [ "$ipc_ok" = 1 ]; then
            ok "models: $v $m: sim.restoredAtInsts $n, cpu.ipc over the $((total - n)) timed instructions"
        else bad "models: $v $m: restoredAtInsts $(st sim.restoredAtInsts "$d/st.$m") cpu.ipc $(st cpu.ipc "$d/st.$m") simCycles $(st simCycles "$d/st.$m")"; fi
    done
done

# ---- refused ----------------------------------------------------------------------------
# refuse NAME PATTERN ARGS...: status 2, one line on stderr matching PATTERN
refuse() {
    local name=$1 pat=$2; shift 2
    ( cd "$tmp/refuse" && "$sim" "$@" </dev/null >/dev/null 2>err ); local rc=$?
    local lines; lines=$(wc -l <"$tmp/refuse/err")
    if [ $rc -eq 2 ] && [ "$lines" -eq 1 ] && grep -q -- "$pat" "$tmp/refuse/err"; then ok "refused: $name"
    else bad "refused: $name: status $rc, $lines lines: $(head -c 300 "$tmp/refuse/err")"; fi
}
mkdir -p "$tmp/refuse"; r=$tmp/refuse; p=$g/rv64/ckpt_reader
( cd "$r" && "$sim" --checkpoint-at 1000000 --checkpoint-out good.ck "$p" . </dev/null >/dev/null 2>&1 )
size=$(stat -c %s "$r/good.ck")
head -c $((size / 2)) "$r/good.ck" >"$r/trunc.ck"
cp "$r/good.ck" "$r/flip.ck"; printf '\x5a' | dd of="$r/flip.ck" bs=1 seek=$((size / 3)) conv=notrunc 2>/dev/null
cp "$r/good.ck" "$r/ver.ck"; printf '\x07' | dd of="$r/ver.ck" bs=1 seek=8 conv=notrunc 2>/dev/null
echo "not a checkpoint" >"$r/junk.ck"; : >"$r/empty.ck"
refuse truncated 'truncated or corrupt' --restore "$r/trunc.ck" "$p" .
refuse corrupt 'truncated or corrupt' --restore "$r/flip.ck" "$p" .
refuse version 'format version 7' --restore "$r/ver.ck" "$p" .
refuse junk 'not an hps-sim checkpoint' --restore "$r/junk.ck" "$p" .
refuse empty 'not an hps-sim checkpoint' --restore "$r/empty.ck" "$p" .
refuse missing 'cannot read' --restore "$r/none.ck" "$p" .
refuse other-program 'not of .*sort' --restore "$r/good.ck" "$g/rv64/sort"
refuse other-isa 'of an rv64gc program' --restore "$r/good.ck" "$g/alpha-static/ckpt_reader" .
refuse other-args 'other program arguments' --restore "$r/good.ck" "$p" ./x
refuse max-insts-before '--max-insts 10' --restore "$r/good.ck" --max-insts 10 "$p" .
cp "$r/good.ck" "$r/good2.ck"; touch -d '2001-01-01' "$r/data.bin"
refuse changed-input 'changed since the checkpoint' --restore "$r/good2.ck" "$p" .
refuse at-without-out 'go together' --checkpoint-at 5 "$p" .
refuse out-unwritable 'cannot write' --checkpoint-at 5 --checkpoint-out /no/such/dir/ck "$p" .
refuse at-timing 'functional core' --config ev5 --checkpoint-at 5 --checkpoint-out "$r/x.ck" "$p" .
refuse at-acf 'fast-forwards' --acf hot_method.acf --checkpoint-at 5 --checkpoint-out "$r/x.ck" "$p" .
refuse restore-cct 'first instruction' --restore "$r/good.ck" --cct "$p" .
refuse restore-paths 'first instruction' --restore "$r/good.ck" --paths "$r/p.tsv" "$p" .
( cd "$r" && "$sim" --checkpoint-at 999999999 --checkpoint-out "$r/late.ck" "$g/rv64/hello" \
    </dev/null >/dev/null 2>err ); rc=$?
if [ $rc -eq 2 ] && grep -q 'before --checkpoint-at' "$r/err"; then ok "refused: checkpoint past the end"
else bad "refused: checkpoint past the end: status $rc: $(head -c 300 "$r/err")"; fi

# ---- crafted: damaged fields behind a matching hash ----------------------------------
# The body cut at many lengths, and single bytes of the header, registers,
# process, signal, mount and fd fields replaced (0xff, 0x00), each with a
# trailer hash that matches: every run ends with status 2 and one line, or
# runs the (altered) guest to a reported end -- never a crash of hps-sim
# (killed by a signal without a message, or the internal-error status 70).
# The guest runs at most 200000 instructions past the checkpoint.
cut_ok=0; cut_bad=""
body=$(( size - 8 ))
lim=$(( 1000000 + 200000 ))
for n in 0 12 20 40 100 700 2000 4000 5000 5600 5800 6000 $((body / 2)) $((body - 1)); do
    "$root/tests/checkpoint/rehash.py" "$r/good.ck" "$r/cut.ck" --cut $n
    ( cd "$r" && "$sim" --restore cut.ck "$p" . </dev/null >/dev/null 2>err.cut ); rc=$?
    if [ $rc -eq 2 ] && [ "$(wc -l <"$r/err.cut")" -eq 1 ]; then cut_ok=$((cut_ok + 1))
    else cut_bad="$cut_bad $n:$rc"; fi
done
if [ -z "$cut_bad" ]; then ok "crafted: the body cut at $cut_ok lengths, hash matching: status 2, one line"
else bad "crafted: cut bodies not refused (length:status):$cut_bad"; fi
poke_bad=""; pokes=0
for off in $(seq 8 151 6200); do
    for v in 0xff $( [ $(( off % 3 )) -eq 0 ] && echo 0x00 ); do
        "$root/tests/checkpoint/rehash.py" "$r/good.ck" "$r/poke.ck" --poke $off $v
        ( cd "$r" && "$sim" --restore poke.ck --max-insts $lim "$p" . </dev/null >/dev/null 2>err.poke ); rc=$?
        pokes=$((pokes + 1))
        if [ $rc -eq 70 ] || { [ $rc -ge 128 ] && ! grep -q '^hps-sim: ' "$r/err.poke"; } ||
           { [ $rc -eq 2 ] && [ "$(wc -l <"$r/err.poke")" -ne 1 ]; }; then
            poke_bad="$poke_bad $off=$v:$rc"
        fi
    done
done
if [ -z "$poke_bad" ]; then ok "crafted: $pokes single-byte changes with a matching hash: refused or run, no crash"
else bad "crafted: crashes (offset=value:status):$poke_bad"; fi

# ---- shell: `back` restores the nearest in-memory checkpoint ------------------------
# The registers after `run 5000000; back 10` are those after `run 4999990`,
# and the shell says it replayed 999990 instructions from the checkpoint at
# 4000000 (one every SHELL_CKPT_EVERY = 1000000), not 4999990 from the start.
p=$w/rv64/gametree
printf 'run 5000000\nback 10\nreg\nquit\n' | "$sim" -d "$p" test >"$tmp/sh.back" 2>&1
printf 'run 4999990\nreg\nquit\n' | "$sim" -d "$p" test >"$tmp/sh.fwd" 2>&1
grep -E '^ *(x|zero|ra|sp|a[0-9]|s[0-9]|t[0-9])' "$tmp/sh.back" >"$tmp/sh.back.reg"
grep -E '^ *(x|zero|ra|sp|a[0-9]|s[0-9]|t[0-9])' "$tmp/sh.fwd" >"$tmp/sh.fwd.reg"
if grep -q 'from the checkpoint at instruction 4000000: 999990 instructions replayed' "$tmp/sh.back" &&
   [ -s "$tmp/sh.back.reg" ] && cmp -s "$tmp/sh.back.reg" "$tmp/sh.fwd.reg"; then
    ok "shell: back 10 at 5M replays 999990 instructions from the checkpoint at 4M, same registers"
else bad "shell: back from a checkpoint: $(grep -m1 'checkpoint' "$tmp/sh.back")"; fi
printf 'run 300000\ngoto 250000\nreg\nquit\n' | "$sim" -d --config ev5 "$p" test >"$tmp/sh.ev5" 2>&1
if ! grep -q 'from the checkpoint' "$tmp/sh.ev5" && grep -qE '^zero ' "$tmp/sh.ev5"; then
    ok "shell: under a timing model back replays from the start (no checkpoints)"
else bad "shell: under ev5: $(head -c 300 "$tmp/sh.ev5")"; fi

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
