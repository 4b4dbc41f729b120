#!/bin/bash
# tests/faults/run.sh BUILD_DIR [NAME...] - guest-fault tests: each program
# BUILD_DIR/faults/rv64/NAME (from tests/faults/NAME.c) must make ./hps-sim
# stop with a clean report.  The expectations are written in the source's
# header comment:
#   EXPECT-STATUS: n      exact exit status of hps-sim (include/core.h:
#                         132 illegal, 133 ebreak, 139 segv, 159 syscall)
#   EXPECT-FUNC: name     the faulting pc lies in function `name` (checked
#                         against the ELF symbol table) and the report shows
#                         it as name+0xOFFSET with the right offset
#   EXPECT-STDERR: re     extended regex (case-insensitive) stderr must match
#   EXPECT-STDOUT: re     regex stdout must match
#   EXPECT-NOSTDOUT: re   regex stdout must not match
#   EXPECT-LIBFUNC: name  also built dynamically for RISC-V and Alpha and
#                         run with --sysroot (the Debian cross sysroots,
#                         HPS_SYSROOT_RV64 / HPS_SYSROOT_ALPHA): the fault
#                         lies in libc's function `name`, and the report
#                         must show it as name+0xOFFSET, the offset agreeing
#                         with libc's dynamic symbol table and a page-aligned
#                         load address (named "dyn-rv64/NAME", "dyn-alpha/NAME")
# Always checked: the report contains a 0x... address, and hps-sim was not
# killed by a host signal and did not time out.
# Prints PASS/FAIL per program, then "N passed, M failed"; exits nonzero on
# failure.  HPS_SIM overrides the simulator command, HPS_FAULT_TIMEOUT the
# per-test timeout in seconds (default 60).
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
build=${1:-build}
shift || true
case $build in /*) ;; *) build=$root/$build ;; esac
sim=${HPS_SIM:-./hps-sim}
tmo=${HPS_FAULT_TIMEOUT:-60}
read -r -a sim_cmd <<<"$sim"
progdir=$build/faults/rv64

nm_tool=""
for t in riscv64-linux-gnu-nm nm; do command -v "$t" >/dev/null 2>&1 && { nm_tool=$t; break; }; done
have_py=0
command -v python3 >/dev/null 2>&1 && python3 -c 'import subprocess' 2>/dev/null && have_py=1

names=()
if [ $# -gt 0 ]; then
    names=("$@")
else
    for p in "$progdir"/*; do [ -f "$p" ] && [ -x "$p" ] && names+=("$(basename "$p")"); done
fi
if [ ${#names[@]} -eq 0 ]; then
    echo "FAIL (no fault programs in $progdir; run 'make guests BUILD=${1:-build}')"
    echo "0 passed, 1 failed"
    exit 1
fi
mapfile -t names < <(printf '%s\n' "${names[@]}" | LC_ALL=C sort)

sim_problem=""
command -v "${sim_cmd[0]}" >/dev/null 2>&1 || \
    sim_problem="simulator '${sim_cmd[0]}' not found or not executable (build it with make)"

work=$(mktemp -d "${TMPDIR:-/tmp}/hps-faults.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT

# run_sim [OPTIONS...] PROG -> $work/{out,err}; prints "exit N", "signal N"
# or "timeout"
run_sim() {
    if [ "$have_py" = 1 ]; then
        python3 - "$tmo" "$work/out" "$work/err" "${sim_cmd[@]}" "$@" <<'PY'
import subprocess, sys
tmo, out, err, cmd = float(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
env = {"HPS_TEST": "1", "PATH": "/usr/bin:/bin"}
with open(out, "wb") as o, open(err, "wb") as e:
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=o, stderr=e, env=env, timeout=tmo)
    except subprocess.TimeoutExpired:
        print("timeout"); sys.exit(0)
    except OSError as x:
        e.write(str(x).encode()); print("exit 127"); sys.exit(0)
print("signal %d" % -p.returncode if p.returncode < 0 else "exit %d" % p.returncode)
PY
    else
        # Without python a host signal and a deliberate 128+N status look
        # the same; bash reports both as 128+N.
        timeout -k 5 "$tmo" env -i HPS_TEST=1 PATH=/usr/bin:/bin "${sim_cmd[@]}" "$@" \
            </dev/null >"$work/out" 2>"$work/err"
        local rc=$?
        if [ $rc = 124 ]; then echo timeout; else echo "exit $rc"; fi
    fi
}

# header VALUE lines of KEY from a fault source
expect() { sed -n "s/^[ /*]*$1:[[:space:]]*//p" "$2" | sed 's/[[:space:]]*$//'; }

pass=0; fail=0
for name in "${names[@]}"; do
    prog=$progdir/$name src=tests/faults/$name.c
    problems=()
    if [ ! -x "$prog" ]; then
        problems+=("$prog not built")
    elif [ ! -f "$src" ]; then
        problems+=("no source $src for the expectations")
    elif [ -n "$sim_problem" ]; then
        problems+=("$sim_problem")
    else
        want_status=$(expect EXPECT-STATUS "$src" | head -n 1)
        func=$(expect EXPECT-FUNC "$src" | head -n 1)
        res=$(run_sim "$prog")
        err=$(cat -v "$work/err")
        case $res in
        timeout) problems+=("hps-sim timed out after ${tmo}s") ;;
        "signal "*) problems+=("hps-sim crashed: killed by host signal ${res#signal }") ;;
        "exit "*)
            st=${res#exit }
            [ -n "$want_status" ] && [ "$st" != "$want_status" ] && \
                problems+=("exit status $st, expected $want_status")
            ;;
        esac
        if [ "${#problems[@]}" -eq 0 ] || [ "$res" != timeout ]; then
            [ -s "$work/err" ] || problems+=("no report on stderr")
            grep -Eq '0x[0-9a-fA-F]+' "$work/err" || problems+=("report has no 0x address")
            if [ -n "$func" ]; then
                if [ -z "$nm_tool" ]; then
                    grep -Eq "\\b$func\\b" "$work/err" || problems+=("report does not name $func")
                else
                    line=$("$nm_tool" -S "$prog" 2>/dev/null | awk -v f="$func" '$4 == f { print $1, $2; exit }')
                    if [ -z "$line" ]; then
                        problems+=("no symbol $func in $prog (test bug)")
                    else
                        start=$((16#${line% *})); size=$((16#${line#* }))
                        found_pc=""
                        for h in $(grep -Eo '0x[0-9a-fA-F]+' "$work/err"); do
                            [ ${#h} -gt 18 ] && continue
                            v=$((h))
                            if [ "$v" -ge "$start" ] && [ "$v" -lt $((start + size)) ]; then found_pc=$v; break; fi
                        done
                        if [ -z "$found_pc" ]; then
                            problems+=("no pc inside $func [$(printf '0x%x' $start), $(printf '0x%x' $((start + size))))")
                        else
                            off=$((found_pc - start))
                            if [ "$off" -eq 0 ]; then
                                grep -Eq "\\b$func(\\+0x0+)?\\b" "$work/err" || problems+=("report does not show $func")
                            else
                                grep -Eqi "\\b$func\\+0x0*$(printf '%x' $off)\\b" "$work/err" || \
                                    problems+=("report does not show $func+$(printf '0x%x' $off)")
                            fi
                        fi
                    fi
                fi
            fi
            while IFS= read -r re; do
                [ -z "$re" ] && continue
                grep -Eqi -- "$re" "$work/err" || problems+=("stderr does not match /$re/")
            done < <(expect EXPECT-STDERR "$src")
            while IFS= read -r re; do
                [ -z "$re" ] && continue
                grep -Eq -- "$re" "$work/out" || problems+=("stdout does not match /$re/")
            done < <(expect EXPECT-STDOUT "$src")
            while IFS= read -r re; do
                [ -z "$re" ] && continue
                grep -Eq -- "$re" "$work/out" && problems+=("stdout matches /$re/ but must not")
            done < <(expect EXPECT-NOSTDOUT "$src")
        fi
    fi
    if [ ${#problems[@]} -eq 0 ]; then
        echo "PASS $name"; pass=$((pass + 1))
    else
        msg=$(printf '%s; ' "${problems[@]}"); msg=${msg%; }
        echo "FAIL $name: $msg"
        if [ -n "${err:-}" ] && [ -z "$sim_problem" ]; then
            printf '%s\n' "$err" | head -n 4 | cut -c1-200 | sed 's/^/    stderr: /'
        fi
        fail=$((fail + 1))
    fi
    err=""
done
# ---- faults inside a shared library (EXPECT-LIBFUNC) ---------------------------

readelf_tool=""
for t in readelf riscv64-linux-gnu-readelf; do
    command -v "$t" >/dev/null 2>&1 && { readelf_tool=$t; break; }
done

# lib_symbol LIB NAME -> "VALUE SIZE" (decimal) of NAME in LIB's .dynsym
lib_symbol() {
    local v s
    read -r v s < <("$readelf_tool" -W --dyn-syms "$1" 2>/dev/null | awk -v f="$2" '
        $4 == "FUNC" && ($NF == f || index($NF, f "@") == 1) && $2 !~ /^0+$/ {
            print $2, $3; exit }')
    [ -n "${v:-}" ] || return 0
    case $s in 0x*) s=$((s)) ;; *) s=$((10#$s)) ;; esac
    echo "$((16#$v)) $s"
}

# check_lib_fault LABEL SRC CC SYSROOT LIBC FUNC -> problems[]
check_lib_fault() {
    local label=$1 src=$2 cc=$3 root=$4 libc=$5 func=$6
    local prog=$work/$label
    mkdir -p "$(dirname "$prog")"
    if ! command -v "$cc" >/dev/null 2>&1 || [ ! -f "$libc" ]; then
        problems+=("$cc or $libc missing"); return
    fi
    if ! "$cc" -O2 -std=gnu11 -o "$prog" "$src" 2>"$work/cc.log"; then
        problems+=("$cc: $(head -c 200 "$work/cc.log")"); return
    fi
    [ -n "$sim_problem" ] && { problems+=("$sim_problem"); return; }
    local res st want_status
    res=$(run_sim --sysroot "$root" "$prog")
    want_status=$(expect EXPECT-STATUS "$src" | head -n 1)
    case $res in
    "exit "*) st=${res#exit }
              [ -n "$want_status" ] && [ "$st" != "$want_status" ] && \
                  problems+=("exit status $st, expected $want_status") ;;
    *) problems+=("hps-sim: $res") ;;
    esac
    err=$(cat -v "$work/err")
    local re="at pc (0x[0-9a-fA-F]+) \\($func(\\+(0x[0-9a-fA-F]+))?\\)"
    if ! [[ $err =~ $re ]]; then
        problems+=("report does not name $func at the faulting pc"); return
    fi
    local pc=$((BASH_REMATCH[1])) off=$((${BASH_REMATCH[3]:-0}))
    local sym; sym=$(lib_symbol "$libc" "$func")
    if [ -z "$sym" ] || [ -z "$readelf_tool" ]; then
        problems+=("no $func in $libc's .dynsym (test bug)"); return
    fi
    local value=${sym% *} size=${sym#* }
    local base=$((pc - off - value))
    [ "$off" -lt "$size" ] || problems+=("offset $off past $func's size $size")
    [ $((base & 0xfff)) -eq 0 ] && [ "$base" -gt 0 ] || \
        problems+=("$func at $(printf '0x%x' $((pc - off))) puts libc at unaligned $(printf '0x%x' $base)")
}

rv_root=${HPS_SYSROOT_RV64:-/usr/riscv64-linux-gnu}
al_root=${HPS_SYSROOT_ALPHA:-/usr/alpha-linux-gnu}
for name in "${names[@]}"; do
    src=tests/faults/$name.c
    [ -f "$src" ] || continue
    func=$(expect EXPECT-LIBFUNC "$src" | head -n 1)
    [ -n "$func" ] || continue
    for variant in rv64 alpha; do
        problems=(); err=""
        if [ "$variant" = rv64 ]; then
            check_lib_fault "dyn-rv64/$name" "$src" "${RV_CC:-riscv64-linux-gnu-gcc}" \
                "$rv_root" "$rv_root/lib/libc.so.6" "$func"
        else
            check_lib_fault "dyn-alpha/$name" "$src" "${ALPHA_CC:-alpha-linux-gnu-gcc}" \
                "$al_root" "$al_root/lib/libc.so.6.1" "$func"
        fi
        if [ ${#problems[@]} -eq 0 ]; then
            echo "PASS dyn-$variant/$name"; pass=$((pass + 1))
        else
            msg=$(printf '%s; ' "${problems[@]}"); msg=${msg%; }
            echo "FAIL dyn-$variant/$name: $msg"
            [ -n "$err" ] && printf '%s\n' "$err" | head -n 4 | cut -c1-200 | sed 's/^/    stderr: /'
            fail=$((fail + 1))
        fi
    done
done

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
