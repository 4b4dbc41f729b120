#!/bin/bash
# tests/diff/run.sh BUILD_DIR [--variant=V] [NAME...] - differential tests:
# every guest program of a build variant (from tests/guest/NAME.c, see
# tests/guest/guest.mk) runs under qemu-user and under ./hps-sim with the
# same arguments (tests/guest/NAME.args, @DIR@ -> a scratch directory), the
# same stdin (tests/guest/NAME.stdin or /dev/null) and the same minimal
# environment; stdout, stderr and exit status must be identical.
#
# Variants (the program under hps-sim / the reference run):
#   rv64          BUILD_DIR/guest/rv64/NAME (static)  vs  qemu-riscv64 (default)
#   rv64-dyn      guest/rv64-dyn/NAME with --sysroot /usr/riscv64-linux-gnu
#                 vs  qemu-riscv64 -L /usr/riscv64-linux-gnu
#   alpha-dyn     guest/alpha-dyn/NAME with --sysroot /usr/alpha-linux-gnu
#                 vs  qemu-alpha -L /usr/alpha-linux-gnu
#   alpha-static  guest/alpha-static/NAME (static)  vs  the alpha-dyn build
#                 under qemu-alpha -L (qemu-alpha cannot run static Alpha
#                 programs)
#
# Prints "PASS name" or "FAIL name: what differed" (plus a short diff
# excerpt) per program in name order (names are VARIANT/NAME except for
# rv64), then "N passed, M failed"; exits nonzero if anything failed.
# Optional NAMEs restrict the run.
# Environment knobs:
#   HPS_SIM=cmd          simulator command (default ./hps-sim; may contain
#                        options, e.g. "./hps-sim --model ooo")
#   HPS_REF=cmd          reference command (default: the variant's qemu)
#   HPS_SYSROOT_RV64, HPS_SYSROOT_ALPHA   sysroots (default the Debian
#                        cross ones above)
#   HPS_DIFF_TIMEOUT=s   per-run timeout in seconds (default 120)
#   HPS_DIFF_JOBS=n      parallel tests, 1 or 2 (default 2)
#   HPS_DIFF_KEEP=1      keep the scratch/output directory of failing tests
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
build=${1:-build}
shift || true
variant=rv64
case ${1:-} in --variant=*) variant=${1#--variant=}; shift ;; esac
case $build in /*) ;; *) build=$root/$build ;; esac
sim=${HPS_SIM:-./hps-sim}
rv_root=${HPS_SYSROOT_RV64:-/usr/riscv64-linux-gnu}
al_root=${HPS_SYSROOT_ALPHA:-/usr/alpha-linux-gnu}
# progdir: programs run by hps-sim; refdir: programs run by the reference
case $variant in
    rv64)         progdir=$build/guest/rv64;         refdir=$progdir
                  ref_def="qemu-riscv64";              sim_opts=() ;;
    rv64-dyn)     progdir=$build/guest/rv64-dyn;     refdir=$progdir
                  ref_def="qemu-riscv64 -L $rv_root";  sim_opts=(--sysroot "$rv_root") ;;
    alpha-dyn)    progdir=$build/guest/alpha-dyn;    refdir=$progdir
                  ref_def="qemu-alpha -L $al_root";    sim_opts=(--sysroot "$al_root") ;;
    alpha-static) progdir=$build/guest/alpha-static; refdir=$build/guest/alpha-dyn
                  ref_def="qemu-alpha -L $al_root";    sim_opts=() ;;
    *) echo "FAIL setup: unknown variant '$variant' (rv64, rv64-dyn, alpha-dyn, alpha-static)"
       echo "0 passed, 1 failed"; exit 1 ;;
esac
# qemu passes its environment to the guest; hps-sim starts the guest with an
# empty one unless told (--env-host), so both see the same env -i below
sim_opts+=(--env-host)
ref=${HPS_REF:-$ref_def}
label() { if [ "$variant" = rv64 ]; then echo "$1"; else echo "$variant/$1"; fi; }
tmo=${HPS_DIFF_TIMEOUT:-120}
jobs=${HPS_DIFF_JOBS:-2}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1
[ "$jobs" -gt 2 ] && jobs=2
# The simulator command is resolved against the repo root, since every
# run happens inside its scratch directory.
read -r -a sim_cmd <<<"$sim"
case ${sim_cmd[0]} in */*) [ "${sim_cmd[0]#/}" = "${sim_cmd[0]}" ] && sim_cmd[0]=$root/${sim_cmd[0]} ;; esac
read -r -a ref_cmd <<<"$ref"

names=()
if [ $# -gt 0 ]; then
    names=("$@")
else
    for p in "$progdir"/*; do
        [ -f "$p" ] && [ -x "$p" ] && names+=("$(basename "$p")")
    done
fi
if [ ${#names[@]} -eq 0 ]; then
    echo "FAIL (no guest programs in $progdir; run 'make guests BUILD=$build')"
    echo "0 passed, 1 failed"
    exit 1
fi
mapfile -t names < <(printf '%s\n' "${names[@]}" | LC_ALL=C sort)

sim_problem=""
if ! command -v "${sim_cmd[0]}" >/dev/null 2>&1; then
    sim_problem="simulator '${sim_cmd[0]}' not found or not executable (build it with make)"
fi
ref_problem=""
if ! command -v "${ref_cmd[0]}" >/dev/null 2>&1; then
    ref_problem="reference '${ref_cmd[0]}' not found (install qemu-user)"
fi

results=$(mktemp -d "${TMPDIR:-/tmp}/hps-diff.XXXXXX") || exit 2
trap 'rm -rf "$results"' EXIT

# describe WHICH FILE_A FILE_B -> a short excerpt of the differences
excerpt() {
    diff -a "$1" "$2" 2>&1 | grep -a '^[<>]' | head -n 6 | cut -c1-160 | cat -v | sed 's/^/    /'
}

# run_cmd OUT_PREFIX SCRATCH STDIN CMD... ; writes OUT_PREFIX.{out,err,rc}
run_cmd() {
    local pre=$1 scratch=$2 in=$3; shift 3
    # The extra subshell layer keeps bash's "Segmentation fault" notices
    # (a command killed by a signal) off the terminal: status 128+N remains.
    ( cd "$scratch" && { timeout -k 5 "$tmo" env -i HPS_TEST=1 PATH=/usr/bin:/bin "$@" \
          <"$in" >"$pre.out" 2>"$pre.err"; exit $?; } ) 2>/dev/null
    echo $? >"$pre.rc"
}

run_one() {
    local name=$1
    local w=$results/$name.d
    mkdir -p "$w"
    local res=$w/result
    local prog=$progdir/$name refprog=$refdir/$name
    local shown; shown=$(label "$name")
    if [ -n "$ref_problem" ]; then echo "FAIL $shown: $ref_problem" >"$res.tmp"; mv "$res.tmp" "$res"; return; fi
    if [ ! -x "$prog" ]; then echo "FAIL $shown: $prog not built" >"$res.tmp"; mv "$res.tmp" "$res"; return; fi
    if [ ! -x "$refprog" ]; then echo "FAIL $shown: $refprog not built" >"$res.tmp"; mv "$res.tmp" "$res"; return; fi
    local scratch=$w/scratch
    local argline="" args=()
    [ -f "tests/guest/$name.args" ] && argline=$(head -n 1 "tests/guest/$name.args")
    argline=${argline//@DIR@/$scratch}
    # shell-style quoting in .args files, but no globbing or expansion side effects
    set -f
    eval "args=($argline)"
    set +f
    local in=/dev/null
    [ -f "tests/guest/$name.stdin" ] && in=$root/tests/guest/$name.stdin

    mkdir -p "$scratch"
    # the reference may run another build of the program (alpha-static)
    run_cmd "$w/ref" "$scratch" "$in" "${ref_cmd[@]}" "$refprog" "${args[@]}"
    rm -rf "$scratch"; mkdir -p "$scratch"
    local msg=""
    if [ -n "$sim_problem" ]; then
        msg=$sim_problem
    else
        run_cmd "$w/sim" "$scratch" "$in" "${sim_cmd[@]}" "${sim_opts[@]}" "$prog" "${args[@]}"
        local rr sr
        rr=$(cat "$w/ref.rc"); sr=$(cat "$w/sim.rc")
        if [ "$rr" = 124 ] || [ "$rr" = 137 ]; then
            msg="reference run timed out or was killed (status $rr) - broken test"
        elif [ "$sr" = 124 ] || [ "$sr" = 137 ]; then
            msg="hps-sim timed out after ${tmo}s (status $sr)"
        else
            local parts=()
            [ "$rr" != "$sr" ] && parts+=("exit status $sr, expected $rr")
            cmp -s "$w/ref.out" "$w/sim.out" || parts+=("stdout differs")
            cmp -s "$w/ref.err" "$w/sim.err" || parts+=("stderr differs")
            if [ ${#parts[@]} -gt 0 ]; then
                msg=$(IFS=';'; echo "${parts[*]}" | sed 's/;/; /g')
                if ! cmp -s "$w/ref.out" "$w/sim.out"; then
                    msg+=$'\n'"  stdout (< qemu, > hps-sim):"$'\n'"$(excerpt "$w/ref.out" "$w/sim.out")"
                fi
                if ! cmp -s "$w/ref.err" "$w/sim.err"; then
                    msg+=$'\n'"  stderr (< qemu, > hps-sim):"$'\n'"$(excerpt "$w/ref.err" "$w/sim.err")"
                fi
            fi
        fi
    fi
    if [ -z "$msg" ]; then
        echo "PASS $shown" >"$res.tmp"
    else
        echo "FAIL $shown: $msg" >"$res.tmp"
        if [ "${HPS_DIFF_KEEP:-0}" = 1 ]; then
            local keep
            keep=$(mktemp -d "${TMPDIR:-/tmp}/hps-diff-$name.XXXXXX")
            cp -r "$w"/. "$keep"/ 2>/dev/null
            echo "  (outputs kept in $keep)" >>"$res.tmp"
        fi
    fi
    rm -rf "$scratch"
    mv "$res.tmp" "$res"
}

pass=0; fail=0; next=0; total=${#names[@]}
flush_ready() {
    while [ "$next" -lt "$total" ] && [ -f "$results/${names[$next]}.d/result" ]; do
        local f=$results/${names[$next]}.d/result
        cat "$f"
        if head -n 1 "$f" | grep -q '^PASS '; then pass=$((pass + 1)); else fail=$((fail + 1)); fi
        next=$((next + 1))
    done
}

running=0
for name in "${names[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n 2>/dev/null || true
        running=$((running - 1))
        flush_ready
    fi
    run_one "$name" &
    running=$((running + 1))
done
wait
flush_ready
# anything still missing means a runner crashed
while [ "$next" -lt "$total" ]; do
    echo "FAIL ${names[$next]}: test runner produced no result"
    fail=$((fail + 1)); next=$((next + 1))
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
