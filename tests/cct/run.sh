#!/bin/bash
# tests/cct/run.sh BUILD_DIR - exact calling context trees (hps-sim --cct)
# and csprof call-path sampling (--csprof), end to end:
#   exact      tests/guest/cct_calls on both ISAs: the tree has the known
#              call counts and shape (recursion fact(10): 10 nested nodes of
#              20 calls; mutual recursion is_even(24): 13 + 12 nodes of 10;
#              apply through a function pointer: square 20, cube 10; the
#              tail call tail_caller -> tail_target: 25 tail calls under
#              main; deep_jump(8) left by longjmp 5 times: 9 nodes of 5 and
#              5 non-local returns; deep_exit(6): 7 nodes of 1); the output
#              is the program's own; the instructions add up to the run's
#   csprof     on the same program, both ISAs, both unwinders (the guest
#              handlers, the default, and the host reference): nearly every
#              sample's whole context right, and the top-90% overlap with the
#              exact cycles rises as the period shrinks
#   guest      the guest handlers: measured overhead > 0, trampoline edge
#              counts (each a real return: at most the exact calls), longjmp
#              (trampoline frames gone; the program's output and status at
#              short periods, where setjmp/longjmp meet the trampoline),
#              recursion (fact's nested contexts in the sampled tree), a
#              pthreads program with one tree per thread (both ISAs)
#   workloads  programs print exactly what they print without csprof
#   exports    callgrind (callgrind_annotate reads it; its total is the
#              run's instructions; with the PMU attached its imiss and
#              branchmp columns add up to the timing model's counts), pprof
#              (gzip; decoded by protoc, its samples add up to the same),
#              folded stacks (their values add up to the samples)
#   determinism the same run gives the same report
#   errors     bad --csprof, --cct-out, combinations, a dynamic program:
#              status 2 and a message
# Prints "ok ..." / "FAIL ..." per check and "cct: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-$build/hps-sim}
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-cct.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }

# nodes REPORT NAME CALLS: how many contexts of NAME the tree printout has
# with CALLS calls
nodes() {
    grep -cE "^ +[0-9]+ +[0-9.]+% +$3  +$2( |\$)" "$1"
}
# pct REPORT REGEX: the first percentage on the first line matching REGEX
pct() { grep -E "$2" "$1" | head -1 | sed -E 's/^[^:]*: ([0-9.]+)%.*/\1/'; }
# ge A B: A >= B for decimals
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a + 0 >= b + 0) }'; }

# ---- the exact tree -----------------------------------------------------------------
for isa in rv64 alpha-static; do
    prog=$build/guest/$isa/cct_calls
    if [ ! -x "$prog" ]; then bad "exact $isa: $prog not built (make guests)"; continue; fi
    rep=$tmp/exact-$isa.txt
    "$sim" --cct --cct-min 0 --report "$rep" --stats "$tmp/stats-$isa.txt" "$prog" \
        >"$tmp/out-$isa.txt" 2>"$tmp/err-$isa.txt"
    check "exact $isa: exits 0 after the deep exit" [ $? -eq 0 ]
    check "exact $isa: output is the program's" grep -qx 'total 2934374343610' "$tmp/out-$isa.txt"
    check "exact $isa: fact(10) recursion is 10 contexts of 20 calls" [ "$(nodes "$rep" fact 20)" -eq 10 ]
    check "exact $isa: fact(1) tail-calls work 20 times" grep -qE ' 20  +work .*\(20 tail\)' "$rep"
    check "exact $isa: is_even/is_odd(24) are 13 + 12 contexts of 10 calls" \
        [ "$(nodes "$rep" is_even 10)" -eq 13 -a "$(nodes "$rep" is_odd 10)" -eq 12 ]
    check "exact $isa: apply calls square 20 and cube 10 times through a pointer" \
        [ "$(nodes "$rep" apply 30)" -eq 1 -a "$(nodes "$rep" square 20)" -eq 1 -a "$(nodes "$rep" cube 10)" -eq 1 ]
    check "exact $isa: tail_caller's tail call to tail_target under main (25)" \
        grep -qE ' 25  +tail_target  <- main\+0x[0-9a-f]+  \(25 tail\)' "$rep"
    check "exact $isa: deep_jump(8) left by longjmp: 9 contexts of 5 calls, 5 non-local returns" \
        [ "$(nodes "$rep" deep_jump 5)" -eq 9 ] 
    check "exact $isa: 5 non-local returns counted" grep -qE '\(5 non-local\)' "$rep"
    check "exact $isa: deep_exit(6): 7 contexts of 1 call" [ "$(nodes "$rep" deep_exit 1)" -eq 7 ]
    insts=$(awk '$1 == "simInsts" { print $2 }' "$tmp/stats-$isa.txt")
    root=$(grep -E '^ +[0-9]+ +[0-9.]+% +1  _start$' "$rep" | awk '{ print $1 }')
    check "exact $isa: _start's inclusive instructions are the run's ($insts)" [ "$root" = "$insts" ]
done

# ---- csprof: accuracy and convergence ------------------------------------------------------
# the guest handlers' own cost perturbs the run (about a thousand cycles a
# sample, the trampoline's few hundred a return, measured), so their overlap
# is held to a lower floor than the host reference's, whose cost is modelled
for unw_floor in guest:75 host:80; do
unw=${unw_floor%%:*}; floor=${unw_floor#*:}
for isa in rv64 alpha-static; do
    prog=$build/guest/$isa/cct_calls
    [ -x "$prog" ] || continue
    prev=-1; first=; rising=1; right_min=100
    for period in 2000-2047 500-511 125-127; do
        rep=$tmp/cs-$unw-$isa-$period.txt
        "$sim" --config ev5 --csprof cycles:$period --csprof-unwinder $unw --report "$rep" \
            --csprof-out folded:"$tmp/cs-$unw-$isa-$period.folded" "$prog" >/dev/null 2>&1
        ov=$(pct "$rep" 'node-weight overlap')
        right=$(pct "$rep" 'whole calling context is right')
        echo "     $unw $isa period $period: overlap $ov%, contexts right $right%"
        # converging: never more than a point below the longer period's, and
        # the shortest clearly above the longest (sampling noise at a plateau)
        ge "$ov" "$(awk -v p="$prev" 'BEGIN { print p - 1 }')" || rising=0
        first=${first:-$ov}
        ge "$right" "$right_min" || right_min=$right
        prev=$ov
    done
    ge "$prev" "$(awk -v f="$first" 'BEGIN { print f + 2 }')" || rising=0
    check "csprof $unw $isa: overlap with the exact cycles rises as the period shrinks ($first% -> $prev%)" \
        [ "$rising" -eq 1 ]
    check "csprof $unw $isa: at least 95% of samples have their whole context right ($right_min%)" ge "$right_min" 95
    check "csprof $unw $isa: overlap at period 125 is at least $floor% ($prev%)" ge "$prev" "$floor"
    check "csprof $unw $isa: the trampoline caught returns" \
        grep -qE 'trampoline returns [1-9]' "$tmp/cs-$unw-$isa-125-127.txt"
done
done

# ---- the guest handlers ----------------------------------------------------------------------
for isa in rv64 alpha-static; do
    prog=$build/guest/$isa/cct_calls
    [ -x "$prog" ] || continue
    rep=$tmp/cs-guest-$isa-500-511.txt
    read -r ips cps < <(sed -nE 's/.*overhead \(measured, guest handlers\): .*, ([0-9.]+) per sample; .*, ([0-9.]+) per sample =.*/\1 \2/p' "$rep")
    check "guest $isa: overhead measured, > 0 ($ips instructions, $cps cycles per sample)" \
        awk -v a="${ips:-0}" -v b="${cps:-0}" 'BEGIN { exit !(a > 0 && b > 0) }'
    read -r tr ex < <(sed -nE 's/.*edge counts: trampoline ([0-9]+) vs exact calls ([0-9]+);.*/\1 \2/p' "$rep")
    check "guest $isa: trampoline edge counts, each a real return ($tr <= exact $ex, > 0)" \
        [ "${tr:-0}" -gt 0 -a "${tr:-0}" -le "${ex:-0}" ]
    check "guest $isa: longjmp noticed (trampoline frames gone)" \
        grep -qE 'trampoline frames gone \(longjmp\) [1-9]' "$rep"
    # short periods put samples in setjmp and longjmp: the output and status stay the program's
    okp=1
    for period in 90-100 300-330; do
        "$sim" --config ev5 --csprof cycles:$period "$prog" >"$tmp/lj.txt" 2>/dev/null
        rc=$?
        [ $rc -eq 0 ] && grep -qx 'total 2934374343610' "$tmp/lj.txt" || { okp=0; echo "     $isa period $period: status $rc"; }
    done
    check "guest $isa: setjmp/longjmp at periods 90-330 keep the output and status" [ $okp -eq 1 ]
    check "guest $isa: recursion: fact nested 5 deep in the sampled tree" \
        grep -q 'fact;fact;fact;fact;fact' "$tmp/cs-guest-$isa-500-511.folded"
done
for isa in rv64 alpha-static; do
    prog=$build/guest/$isa/thr_prodcons
    if [ ! -x "$prog" ]; then bad "guest threads $isa: $prog not built (make guests)"; continue; fi
    "$sim" "$prog" >"$tmp/thr-ref.txt" 2>/dev/null; rc_ref=$?
    "$sim" --config ev5 --csprof cycles --report "$tmp/thr.txt" "$prog" >"$tmp/thr-got.txt" 2>/dev/null
    rc=$?
    same=0; cmp -s "$tmp/thr-ref.txt" "$tmp/thr-got.txt" && [ $rc -eq $rc_ref ] && same=1
    check "guest threads $isa: same output and status ($rc) under --csprof" [ $same -eq 1 ]
    nthr=$(grep -cE '^    thread [0-9]+: [1-9][0-9]* samples' "$tmp/thr.txt")
    check "guest threads $isa: one tree per thread, 8 threads sampled ($nthr)" [ "$nthr" -eq 8 ]
    # (the main thread waits in pthread_join: few samples, some in glibc code it cannot unwind)
    fails=$(awk '/^    thread [0-9]+: / { s += $3; f += $5 } END { printf "%d of %d", f, s }' "$tmp/thr.txt")
    check "guest threads $isa: unwinding failures under 5% of the threads' samples ($fails)" \
        awk -v t="$fails" 'BEGIN { split(t, a, " of "); exit !(a[1] * 20 < a[2]) }'
    check "guest threads $isa: no scores against the one-stack exact tree" \
        grep -q 'no scores against the exact CCT: the program ran 8 threads' "$tmp/thr.txt"
done

# ---- workloads keep their output -------------------------------------------------------------
for w in rv64/gametree alpha-static/objdb; do
    prog=$build/workloads/$w
    if [ ! -x "$prog" ]; then bad "workload $w: not built (make workloads)"; continue; fi
    "$sim" "$prog" test >"$tmp/ref.txt" 2>/dev/null; rc_ref=$?
    "$sim" --config ev5 --csprof cycles --report "$tmp/wl.txt" "$prog" test >"$tmp/got.txt" 2>/dev/null
    rc=$?
    same=0; cmp -s "$tmp/ref.txt" "$tmp/got.txt" && [ $rc -eq $rc_ref ] && same=1
    check "workload $w: same output and status ($rc) under --csprof" [ $same -eq 1 ]
    check "workload $w: csprof sampled it ($(pct "$tmp/wl.txt" 'whole calling context') % right)" \
        ge "$(pct "$tmp/wl.txt" 'whole calling context')" 60
done

# ---- exports ----------------------------------------------------------------------------------
prog=$build/guest/rv64/cct_calls
"$sim" --config ev5 --stats "$tmp/st.txt" --cct-out callgrind:"$tmp/cct.cg" \
    --csprof cycles:500-511 --csprof-out folded:"$tmp/cs.folded" --report "$tmp/r.txt" \
    "$prog" >/dev/null 2>&1
check "export: the run with both exports exits 0" [ $? -eq 0 ]
if command -v callgrind_annotate >/dev/null; then
    total=$(callgrind_annotate "$tmp/cct.cg" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1 }')
    insts=$(awk '$1 == "simInsts" { print $2 }' "$tmp/st.txt")
    check "export: callgrind_annotate reads the CCT; its total is the run's instructions ($total = $insts)" \
        [ -n "$total" -a "$total" = "$insts" ]
    check "export: the callgrind file has call counts" grep -q '^calls=' "$tmp/cct.cg"
    # the PMU's miss events per context add up to the timing model's counts
    read -r imiss bmp < <(callgrind_annotate "$tmp/cct.cg" 2>/dev/null |
        awk '/PROGRAM TOTALS/ { gsub(",", ""); print $5, $9 }')
    l1i=$(awk '$1 == "l1i.misses" { print $2 }' "$tmp/st.txt")
    mp=$(awk '$1 == "cpu.branchMispredicts" { print $2 }' "$tmp/st.txt")
    check "export: per-context imiss and branchmp add up to l1i.misses and cpu.branchMispredicts ($imiss = $l1i, $bmp = $mp)" \
        [ -n "$imiss" -a "$imiss" = "$l1i" -a "$bmp" = "$mp" ]
else
    bad "export: callgrind_annotate not installed (valgrind)"
fi
samples=$(grep -E '^  samples [0-9]+' "$tmp/r.txt" | sed -E 's/^  samples ([0-9]+),.*/\1/')
folded=$(awk '{ s += $NF } END { print s }' "$tmp/cs.folded")
check "export: folded stacks add up to the samples ($folded = $samples)" [ "$folded" = "$samples" ]
"$sim" --cct --cct-out pprof:"$tmp/cct.pb.gz" --stats "$tmp/st2.txt" "$prog" >/dev/null 2>&1
check "export: pprof is written gzip-compressed" \
    [ "$(head -c2 "$tmp/cct.pb.gz" | od -An -tx1 | tr -d ' ')" = "1f8b" ]
if command -v protoc >/dev/null; then        # its samples' first values: the instructions
    t=$(gzip -dc "$tmp/cct.pb.gz" | protoc --proto_path=tests/dcpitools \
            --decode=perftools.profiles.Profile tests/dcpitools/profile.proto 2>/dev/null |
        awk '/^sample \{/ { s = 1; next } s && /value:/ { t += $2; s = 0 } END { print t + 0 }')
    insts=$(awk '$1 == "simInsts" { print $2 }' "$tmp/st2.txt")
    check "export: pprof decodes (protoc); its samples add up to the run's instructions ($t = $insts)" \
        [ "$t" = "$insts" ]
fi

# ---- determinism ----------------------------------------------------------------------------
"$sim" --config ev5 --csprof cycles:500-511 --cct --report "$tmp/d1.txt" "$prog" >/dev/null 2>&1
"$sim" --config ev5 --csprof cycles:500-511 --cct --report "$tmp/d2.txt" "$prog" >/dev/null 2>&1
check "determinism: the same run, the same report" cmp -s <(grep -v '^#' "$tmp/d1.txt") <(grep -v '^#' "$tmp/d2.txt")

# ---- errors ----------------------------------------------------------------------------------
expect_bad() {          # expect_bad WHAT PATTERN ARGS...
    local what=$1 pat=$2; shift 2
    "$sim" "$@" >/dev/null 2>"$tmp/err.txt"
    local rc=$?
    if [ $rc -eq 2 ] && grep -qE "$pat" "$tmp/err.txt"; then ok "error: $what"
    else bad "error: $what (status $rc: $(head -1 "$tmp/err.txt"))"; fi
}
expect_bad "unknown event" "unknown event 'cyc'" --config ev5 --csprof cyc "$prog"
expect_bad "bad period" "period range" --config ev5 --csprof cycles:9-5 "$prog"
expect_bad "csprof without a timing model" "needs a timing model" --csprof cycles "$prog"
expect_bad "csprof with dcpi" "cannot run with --dcpi" --config ev5 --csprof cycles --dcpi "$tmp/db" "$prog"
expect_bad "bad export format" "expected FORMAT:FILE" --cct --cct-out xml:"$tmp/x" "$prog"
expect_bad "export without a tree" "need --cct or --csprof" --cct-out folded:"$tmp/x" "$prog"
expect_bad "unwritable export" "cannot write" --cct --cct-out folded:/nonexistent/dir/x "$prog"
expect_bad "bad --cct-min" "percentage" --cct --cct-min 120 "$prog"
expect_bad "bad --csprof-unwinder" "expected guest or host" --config ev5 --csprof cycles --csprof-unwinder both "$prog"
expect_bad "--csprof-unwinder without --csprof" "needs --csprof" --config ev5 --csprof-unwinder host "$prog"
if [ -x "$build/guest/rv64-dyn/cct_calls" ]; then
    expect_bad "dynamic program" "not a static executable" --config ev5 --csprof cycles \
        --sysroot /usr/riscv64-linux-gnu "$build/guest/rv64-dyn/cct_calls"
fi

echo "cct: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
