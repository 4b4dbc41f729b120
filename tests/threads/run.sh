#!/bin/bash
# tests/threads/run.sh BUILD_DIR - guest threads (sim/syscall_thread.c):
#   models       the threaded guest programs (tests/guest/thr_*.c, built
#                with -pthread) against qemu on every timing model
#                (inorder5, ev5, r10k) for RISC-V (static) and Alpha
#                (static, against the dynamic build under qemu-alpha); the
#                functional core on all four variants is in tests/diff
#   determinism  the same run twice: the same stdout and the same
#                statistics (host time apart), threads switched the same
#   interleaving functional, r10k, ev5 + DCPI and an ACF: the same program
#                instructions and thread switches
#   quantum      --thread-quantum 50 switches threads far more often than
#                the default, and the program prints the same
#   dcpi         DCPI on a threaded program: the guest's output unchanged,
#                and samples keyed by thread: with no evictions the driver
#                hands the daemon more entries than the profile has
#                distinct instructions (one entry per thread and pc)
#   dise         an ACF (hot_method_all.acf) on a threaded program: the
#                output unchanged and the exhaustive profile exact
#   robust       a robust mutex whose owner thread exited holding it gives
#                EOWNERDEAD (the robust list walked at thread exit), both ISAs
#   bad input    --thread-quantum 0 and x: status 2, one line naming it
#   per-thread   --cct and --paths on thr_calls (both ISAs, quantum 50): each
#                thread's contexts under worker and its paths equal those of
#                the same work run single-threaded (thr_calls serial K), the
#                trees add up to simInsts, the exports have a root frame per
#                thread, the same output twice; thr_prodcons (futex waits):
#                the trees and the paths' on + off instructions are simInsts;
#                --csprof still refuses (159)
# Prints PASS/FAIL per check and "N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
sim=${HPS_SIM:-$build/hps-sim}
prof=$(dirname "$sim")/hps-dcpiprof
[ -x "$prof" ] || prof=$build/hps-dcpiprof
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-threads.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
ok()  { echo "PASS $*"; pass=$((pass + 1)); }
bad() { echo "FAIL $*"; fail=$((fail + 1)); }
verdict() { if [ -z "$2" ]; then ok "$1"; else bad "$1: $2"; fi; }
# st KEY FILE: one value of a stats.txt file
st() { awk -v k="$1" '$1 == k && / # / { v = $2 } END { if (v != "") print v }' "$2" 2>/dev/null; }
run() { local p=$1; shift; "$sim" "$@" </dev/null >"$p.out" 2>"$p.err"; rc=$?; }

names=()
for f in tests/guest/thr_*.c; do names+=("$(basename "$f" .c)"); done
rv=$build/guest/rv64
for n in "${names[@]}"; do
    [ -x "$rv/$n" ] || { bad "no $rv/$n (make BUILD=$build guests)"; echo "$pass passed, $fail failed"; exit 1; }
done

# ---- models ------------------------------------------------------------------------------
for model in inorder5 ev5 r10k; do
    for variant in rv64 alpha-static; do
        out=$(HPS_SIM="$sim --config $model" bash tests/diff/run.sh "$build" --variant=$variant \
              "${names[@]}")
        line=$(printf '%s\n' "$out" | tail -n 1)
        p=$(printf '%s' "$line" | sed -nE 's/^([0-9]+) passed, ([0-9]+) failed$/\1/p')
        verdict "$model $variant: ${p:-0} of ${#names[@]} threaded programs print what qemu does" \
            "$( [ "$p" = ${#names[@]} ] || printf '%s\n' "$out" | grep -m2 FAIL | tr '\n' ' ')"
    done
done

# ---- determinism ---------------------------------------------------------------------------
prog=$rv/thr_prodcons
strip_host() { grep -vE '^(hostSeconds|hostMIPS|# )' "$1"; }
for cfg in "" "--config ev5"; do
    for k in 1 2; do
        # shellcheck disable=SC2086
        run "$tmp/det$k" $cfg --thread-quantum 700 --stats "$tmp/det$k.stats" "$prog"
    done
    sw=$(st sim.threadSwitches "$tmp/det1.stats")
    verdict "determinism ${cfg:-functional}: two runs, the same output and statistics ($sw switches)" \
        "$( cmp -s "$tmp/det1.out" "$tmp/det2.out" || echo -n "stdout differs; "
            cmp -s <(strip_host "$tmp/det1.stats") <(strip_host "$tmp/det2.stats") ||
                echo -n "statistics differ: $(diff <(strip_host "$tmp/det1.stats") <(strip_host "$tmp/det2.stats") | grep -m1 '^>'); "
            [ -n "$sw" ] && [ "$sw" -gt 0 ] || echo "no thread switches (${sw:-missing})")"
done

# ---- the interleaving does not depend on the model or the profilers -------------------------
# quanta count program instructions, so every model and profiler sees the
# same switches at the same places
ref_pair=""; r=""
for cfg in "" "--config r10k" "--config ev5 --dcpi $tmp/idb" "--acf productions/hot_method_all.acf"; do
    # shellcheck disable=SC2086
    run "$tmp/il" $cfg --stats "$tmp/il.stats" "$prog"
    pair="$(st simInsts "$tmp/il.stats") instructions, $(st sim.threadSwitches "$tmp/il.stats") switches"
    [ -z "$ref_pair" ] && ref_pair=$pair
    [ "$rc" = 0 ] && [ "$pair" = "$ref_pair" ] || r="$r [${cfg:-functional}: status $rc, $pair]"
done
verdict "interleaving: functional, r10k, ev5 with DCPI and an ACF all run $ref_pair" "$r"

# ---- quantum -------------------------------------------------------------------------------
prog=$rv/thr_mutex_tls
run "$tmp/qdef" --stats "$tmp/qdef.stats" "$prog"; rc_def=$rc
run "$tmp/q50" --thread-quantum 50 --stats "$tmp/q50.stats" "$prog"
s_def=$(st sim.threadSwitches "$tmp/qdef.stats"); s_50=$(st sim.threadSwitches "$tmp/q50.stats")
made=$(st sim.threadsCreated "$tmp/qdef.stats")
verdict "quantum: 50 instructions switch $s_50 times, the default $s_def; $made threads; same output" \
    "$( [ "$rc" = 0 ] && [ "$rc_def" = 0 ] || echo -n "status $rc / $rc_def; "
        cmp -s "$tmp/qdef.out" "$tmp/q50.out" || echo -n "stdout differs; "
        [ "$made" = 40 ] || echo -n "sim.threadsCreated ${made:-missing}, expected 40; "
        [ -n "$s_50" ] && [ -n "$s_def" ] && [ "$s_50" -gt $((4 * s_def)) ] 2>/dev/null ||
            echo "switches ${s_50:-missing} at quantum 50 not well above ${s_def:-missing}")"

# ---- DCPI ------------------------------------------------------------------------------------
db=$tmp/db
run "$tmp/dcpi" --config ev5 --dcpi "$db" --dcpi-events cycles --thread-quantum 200 "$prog"
entries=$(grep -oE 'daemon: [0-9]+ aggregated entries' "$tmp/dcpi.err" | grep -oE '[0-9]+')
evict=$(grep -oE '[0-9]+ evictions' "$tmp/dcpi.err" | grep -oE '[0-9]+')
prof_file=$(ls "$db"/epoch-0001/thr_mutex_tls.*/cycles 2>/dev/null | head -1)
# record count: the seventh 8-byte field of the profile file (dcpi/README.md)
records=$( [ -n "$prof_file" ] && od -An -t u8 -j 48 -N 8 "$prof_file" | tr -d ' ')
verdict "dcpi: output unchanged; ${entries:-?} (tid, pc) entries for ${records:-?} sampled instructions, ${evict:-?} evictions" \
    "$( [ "$rc" = 0 ] && cmp -s "$tmp/dcpi.out" "$tmp/qdef.out" || echo -n "status $rc or stdout differs; "
        [ -n "$prof_file" ] || echo -n "no cycles profile in $db; "
        [ "$evict" = 0 ] || echo -n "evictions ${evict:-missing} (the check needs none); "
        [ -n "$entries" ] && [ -n "$records" ] && [ "$entries" -gt "$records" ] 2>/dev/null ||
            echo "entries ${entries:-missing} not above distinct instructions ${records:-missing}: the key lacks the thread")"

# ---- DISE --------------------------------------------------------------------------------------
prog=$rv/thr_prodcons
run "$tmp/ref" "$prog"
run "$tmp/acf" --config ev5 --acf productions/hot_method_all.acf --profile-out "$tmp/acf.tsv" "$prog"
diffs=$(awk -F'\t' 'NR > 2 && $5 != $6 { n++ } END { print n + 0 }' "$tmp/acf.tsv" 2>/dev/null)
members=$(awk -F'\t' 'NR > 2 { n++ } END { print n + 0 }' "$tmp/acf.tsv" 2>/dev/null)
verdict "dise: hot_method_all.acf on thr_prodcons: output unchanged, $members members, sampled == exact" \
    "$( [ "$rc" = 0 ] && cmp -s "$tmp/acf.out" "$tmp/ref.out" || echo -n "status $rc or stdout differs: $(head -1 "$tmp/acf.err"); "
        [ "${members:-0}" -gt 0 ] || echo -n "empty profile; "
        [ "$diffs" = 0 ] || echo "$diffs members sampled != exact")"

# ---- robust mutexes ------------------------------------------------------------------------------
# tests/threads/robust_owner_died.c, built here for both ISAs (static); its
# output is Linux's (qemu-riscv64 agrees; qemu-alpha hangs on it)
want=$'lock after the owner died: EOWNERDEAD\nlock again: ok'
src=tests/threads/robust_owner_died.c
for isa in rv64 alpha; do
    exe=$tmp/robust.$isa
    if [ $isa = rv64 ]; then ${RV_CC:-riscv64-linux-gnu-gcc} -O2 -pthread -static -o "$exe" "$src" 2>"$tmp/cc.err"
    else ${ALPHA_CC:-alpha-linux-gnu-gcc} -O2 -pthread -static -Wl,--no-relax -o "$exe" "$src" 2>"$tmp/cc.err"; fi
    if [ ! -x "$exe" ]; then bad "robust $isa: cannot build $src: $(head -1 "$tmp/cc.err")"; continue; fi
    run "$tmp/robust" "$exe"
    verdict "robust $isa: a robust mutex whose owner exited: EOWNERDEAD, then consistent" \
        "$( [ "$rc" = 0 ] && [ "$(cat "$tmp/robust.out")" = "$want" ] ||
            echo "status $rc, stdout '$(tr '\n' '|' <"$tmp/robust.out")', $(head -1 "$tmp/robust.err")")"
done

# ---- bad input -------------------------------------------------------------------------------
for q in 0 x; do
    run "$tmp/bad" --thread-quantum $q "$prog"
    verdict "--thread-quantum $q: status 2, one line naming the option" \
        "$( [ "$rc" = 2 ] || echo -n "status $rc; "
            [ "$(wc -l <"$tmp/bad.err")" = 1 ] && grep -q -- '--thread-quantum' "$tmp/bad.err" ||
                echo -n "stderr: $(head -1 "$tmp/bad.err"); "
            [ -s "$tmp/bad.out" ] && echo "the program ran")"
done

# ---- per-thread calling context trees and path profiles ------------------------------------
# (--cct and --paths keep a shadow stack and path registers per thread: thr_calls's thread k
# does worker(k); its subtree under worker and its paths of worker, leaf_a, leaf_b and rec are
# exactly those of `thr_calls serial k` run single-threaded.  Quantum 50 switches threads
# inside the leaves.  csprof's guest handlers keep a trampoline and a tree per thread:
# tests/cct; its host reference unwinder refuses threads.)
for isa in rv64 alpha-static; do
    g=$build/guest/$isa/thr_calls
    run "$tmp/pt" --thread-quantum 50 --cct --cct-min 0 --paths "$tmp/pt.tsv" \
        --stats "$tmp/pt.st" --cct-out folded:"$tmp/pt.folded" \
        --paths-export folded:"$tmp/ptp.folded" "$g"
    verdict "$isa per-thread: thr_calls runs under --cct --paths (status $rc)" \
        "$( [ "$rc" = 0 ] || grep -m1 hps-sim: "$tmp/pt.err")"
    for k in 0 1 2 3; do
        run "$tmp/ps$k" --cct --cct-min 0 --paths "$tmp/ps$k.tsv" "$g" serial $k
        tid=$((1001 + k))
        for what in cct paths; do
            if [ $what = cct ]; then a=$tmp/pt.err b=$tmp/ps$k.err; else a=$tmp/pt.tsv b=$tmp/ps$k.tsv; fi
            if line=$(tests/threads/percheck.py $what "$a" "$b" $tid $k 2>&1); then
                ok "$isa --$what thread $tid: $line"
            else bad "$isa --$what thread $tid: $line"; fi
        done
    done
    insts=$(st simInsts "$tmp/pt.st")
    tree=$(awk '/^thread [0-9]+:/ { getline; getline; s += $1 } END { print s + 0 }' "$tmp/pt.err")
    verdict "$isa per-thread: the threads' trees add up to the run's instructions ($tree = $insts)" \
        "$( [ -n "$insts" ] && [ "$tree" = "$insts" ] || echo differ)"
    folded=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/pt.folded")
    roots=$(cut -d';' -f1 "$tmp/pt.folded" | sort -u | tr '\n' ' ')
    verdict "$isa per-thread: --cct-out folded has a root frame per thread ($roots), total $folded" \
        "$( [ "$roots" = "thread 1000 thread 1001 thread 1002 thread 1003 thread 1004 " ] &&
            [ "$folded" = "$insts" ] || echo "roots '$roots', total $folded")"
    proots=$(cut -d';' -f1 "$tmp/ptp.folded" | sort -u | wc -l)
    pinsts=$(awk -F'\t' 'NR > 1 { s += $6 } END { print s + 0 }' "$tmp/pt.tsv")
    pfold=$(awk '{ s += $NF } END { print s + 0 }' "$tmp/ptp.folded")
    verdict "$isa per-thread: --paths-export folded under 5 thread frames ($proots), $pfold insts as the TSV's" \
        "$( [ "$proots" = 5 ] && [ "$pfold" = "$pinsts" ] || echo "roots $proots, $pfold vs $pinsts")"
    run "$tmp/pt2" --thread-quantum 50 --cct --cct-min 0 --paths "$tmp/pt2.tsv" --stats "$tmp/pt2.st" \
        --cct-out folded:"$tmp/pt2.folded" --paths-export folded:"$tmp/ptp2.folded" "$g"
    verdict "$isa per-thread: the same trees and paths twice" \
        "$(cmp -s "$tmp/pt.tsv" "$tmp/pt2.tsv" || echo "TSV differs"
           cmp -s "$tmp/pt.err" "$tmp/pt2.err" || echo "report differs"
           cmp -s "$tmp/pt.folded" "$tmp/pt2.folded" || echo "export differs")"
    # a program whose threads block in futex waits: nothing lost or counted twice at the switches
    run "$tmp/pc" --thread-quantum 200 --cct --cct-min 0 --paths "$tmp/pc.tsv" --stats "$tmp/pc.st" \
        "$build/guest/$isa/thr_prodcons"
    insts=$(st simInsts "$tmp/pc.st")
    tree=$(awk '/^thread [0-9]+:/ { getline; getline; s += $1 } END { print s + 0 }' "$tmp/pc.err")
    on=$(awk -F'\t' 'NR > 1 { s += $6 } END { print s + 0 }' "$tmp/pc.tsv")
    off=$(sed -n 's/.*lost paths [0-9]* (\([0-9]*\) instructions off.*/\1/p' "$tmp/pc.err")
    verdict "$isa thr_prodcons: the trees hold simInsts ($tree = $insts) and paths on + off do ($on + ${off:-?})" \
        "$( [ "$rc" = 0 ] && [ -n "$insts" ] && [ "$tree" = "$insts" ] &&
            [ "$((on + ${off:-0}))" = "$insts" ] || echo "status $rc")"
done
run "$tmp/one" --config ev5 --csprof cycles --csprof-unwinder host "$rv/thr_prodcons"
verdict "--csprof-unwinder host: a threaded program stops at its clone, naming the option (status $rc)" \
    "$( [ "$rc" = 159 ] || echo -n "status $rc; "
        grep -q "threads are not supported with --csprof-unwinder host" "$tmp/one.err" ||
            echo "stderr: $(grep -m1 hps-sim: "$tmp/one.err")")"
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
