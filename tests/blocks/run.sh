#!/bin/bash
# tests/blocks/run.sh BUILD_DIR - the functional core's decoded blocks
# (include/blocks.h) change nothing but speed.  The oracle is the same
# simulator with a trace on (--trace /dev/null --trace-limit 1G): the run
# loop's variants with a trace step one instruction at a time, never by
# blocks.  For each program, both ISAs, whole runs of guest programs
# (sig_timers: timer signals delivered at exact instruction counts) and a
# workload cut by --max-insts at counts that fall inside blocks, the
# statistics (every count, class and unique address; the host's time
# aside), stdout and exit status must be the oracle's.  selfmod_block
# (here) rewrites an instruction ahead of it in its own block, and must
# see the new one every time; relink_block changes code the loop has
# linked to (block_t.link: rewritten, mapped again, made not executable);
# fault programs stop inside blocks with the oracle's report.  The same again
# timed by the in-order models (the timed block loop, blocks_timed_loop.h).
# Prints "N passed, M failed".
# The runs under test get --no-jit: the block loop (blocks_loop.h), not the
# translator the functional core runs by default.
# HPS_BLOCKS_JIT=1 runs the same checks on the translator (--jit, sim/jit_x86.c):
# the runs under test get --jit (the ground-truth recorder too, but where a
# check says --no-ground-truth), the oracle as always.
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
case $build in /*) ;; *) build=$PWD/$build ;; esac
sim=${HPS_SIM:-$build/hps-sim}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-blocks.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
pass=0; fail=0
jit=(--no-jit); oracle=()
if [ -n "${HPS_BLOCKS_JIT:-}" ]; then jit=(--jit); fi
ok()  { pass=$((pass + 1)); echo "ok   $1"; }
bad() { fail=$((fail + 1)); echo "FAIL $1"; }

# same NAME ARGS...: hps-sim ARGS with and without the oracle's trace agree
same() {
    local name=$1; shift
    "$sim" "${jit[@]}" --stats "$tmp/a.stats" "$@" >"$tmp/a.out" 2>"$tmp/a.err"; local ra=$?
    "$sim" "${oracle[@]}" --trace /dev/null --trace-limit 1G --stats "$tmp/b.stats" "$@" \
        >"$tmp/b.out" 2>"$tmp/b.err"; local rb=$?
    local sa sb
    sa=$(sed '1,2d; /^host/d' "$tmp/a.stats" 2>/dev/null); sb=$(sed '1,2d; /^host/d' "$tmp/b.stats" 2>/dev/null)
    if [ $ra -ne $rb ]; then bad "$name: exit status $ra, stepped $rb"
    elif [ -z "$sa" ]; then bad "$name: no statistics (status $ra: $(head -c 200 "$tmp/a.err"))"
    elif [ "$sa" != "$sb" ]; then bad "$name: statistics differ: $(diff <(echo "$sa") <(echo "$sb") | head -4 | tr '\n' ' ')"
    elif ! cmp -s "$tmp/a.out" "$tmp/b.out"; then bad "$name: stdout differs"
    elif ! cmp -s "$tmp/a.err" "$tmp/b.err"; then bad "$name: stderr differs: $(head -c 200 "$tmp/a.err")"
    else ok "$name (status $ra)"; fi
}

for isa in rv64 alpha-static; do
    w=$build/workloads/$isa; g=$build/guest/$isa
    if [ ! -x "$w/gametree" ]; then bad "$isa: workloads not built (make BUILD=$build workloads)"; continue; fi
    for n in 7 500003 2000003; do
        same "$isa gametree --max-insts $n" --max-insts "$n" "$w/gametree" test
    done
    same "$isa gametree --max-insts 700001, no ground truth" --max-insts 700001 \
        --no-ground-truth "$w/gametree" test
    progs=(int_ops bitops sig_timers)
    [ "$isa" = rv64 ] && progs+=(rvc_heavy)          # compressed code: 2-byte slots
    [ "$isa" = alpha-static ] && progs+=(alpha_inline_ops)   # Alpha's own inline kinds
    for prog in "${progs[@]}"; do
        if [ -x "$g/$prog" ]; then same "$isa $prog" "$g/$prog"
        else bad "$isa $prog: not built (make BUILD=$build guests)"; fi
    done
done

cc_rv=riscv64-linux-gnu-gcc; cc_al=alpha-linux-gnu-gcc
for isa in rv64 alpha; do
    cc=$cc_rv; flags=(-O2 -static)
    [ $isa = alpha ] && { cc=$cc_al; flags=(-O2 -static -Wl,--no-relax); }
    if ! command -v "$cc" >/dev/null 2>&1; then bad "$isa: no $cc (make deps)"; continue; fi
    if ! "$cc" "${flags[@]}" -o "$tmp/smb.$isa" tests/blocks/selfmod_block.c 2>"$tmp/cc.err" ||
       ! "$cc" "${flags[@]}" -o "$tmp/rlb.$isa" tests/blocks/relink_block.c 2>"$tmp/cc.err"; then
        bad "$isa: selfmod_block or relink_block does not build: $(head -c 200 "$tmp/cc.err")"; continue
    fi
    out=$("$sim" "${jit[@]}" "$tmp/smb.$isa" 500 2>&1); rc=$?
    if [ $rc -eq 0 ] && [ "$out" = "selfmod_block: 500 rounds, sum 28250, 500 right" ]; then
        ok "$isa selfmod_block: every call runs the instruction it just wrote"
    else
        bad "$isa selfmod_block: status $rc, $out"
    fi
    same "$isa selfmod_block" "$tmp/smb.$isa" 500
    same "$isa selfmod_block --max-insts 20006" --max-insts 20006 "$tmp/smb.$isa" 500
    out=$("$sim" "${jit[@]}" "$tmp/rlb.$isa" 400 2>/dev/null); rc=$?
    want=$'linked: 400\nrewritten in place: 800\nmapped again: 1200\nnot executable: calling'
    if [ $rc -eq 139 ] && [ "$out" = "$want" ]; then
        ok "$isa relink_block: linked code rewritten, mapped again, made not executable"
    else
        bad "$isa relink_block: status $rc, $(echo "$out" | tr '\n' ' ')"
    fi
    same "$isa relink_block" "$tmp/rlb.$isa" 400
done

for f in load_unmapped store_rodata jump_unmapped; do
    p=$build/faults/rv64/$f
    if [ -x "$p" ]; then same "rv64 fault $f" "$p"
    else bad "rv64 fault $f: not built (make BUILD=$build guests)"; fi
done

# The timed block loop (blocks_execute_timed): under the timing models the
# blocks run with each instruction timed as it executes; the oracle (the
# trace) steps and times one instruction at a time.  The statistics hold
# the cycles, stalls, cache and predictor counts (hps: the wrong path's
# too, walked on the cpu the block loop keeps): they must be the same.
# (--jit runs untimed only: not with HPS_BLOCKS_JIT.)
timed_models=(inorder5 ev5 r10k hps)
[ -n "${HPS_BLOCKS_JIT:-}" ] && timed_models=()
for m in "${timed_models[@]}"; do
    for isa in rv64 alpha-static; do
        w=$build/workloads/$isa; g=$build/guest/$isa
        [ -x "$w/gametree" ] || continue
        same "$isa $m gametree --max-insts 500003" --config $m --max-insts 500003 "$w/gametree" test
        same "$isa $m gametree --max-insts 700001, no ground truth" --config $m \
            --max-insts 700001 --no-ground-truth "$w/gametree" test
        for prog in int_ops sig_timers; do
            [ -x "$g/$prog" ] && same "$isa $m $prog" --config $m "$g/$prog"
        done
    done
    for isa in rv64 alpha; do
        [ -x "$tmp/smb.$isa" ] && same "$isa $m selfmod_block" --config $m "$tmp/smb.$isa" 500
        [ -x "$tmp/rlb.$isa" ] && same "$isa $m relink_block" --config $m "$tmp/rlb.$isa" 400
    done
    for f in load_unmapped store_rodata jump_unmapped; do
        p=$build/faults/rv64/$f
        [ -x "$p" ] && same "rv64 $m fault $f" --config $m "$p"
    done
done

echo "blocks: $pass passed, $fail failed"
[ $fail -eq 0 ]
