#!/bin/bash
# tests/newcomer/run.sh BUILD_DIR - what a new user meets first:
#   anywhere     presets and productions are found when hps-sim runs from
#                another directory, from an installed tree (make install
#                PREFIX=...), and --help and a missing preset name the
#                places searched
#   reproducible the guest's environment is empty by default, --env and
#                --env-host fill it, --cwd sets its directory, a guest chdir
#                never moves hps-sim's own outputs, and the same command
#                gives the same cycles from two directories and two
#                environments
#   provenance   statistics (text, JSON) and report files record version,
#                git hash, command line and the whole configuration;
#                --dump-config writes a .ini that reproduces the run
#   alpha-relax  a static Alpha program linked with relaxation is named,
#                with the fix, before it faults
# Prints "ok ..." / "FAIL ..." per check and "newcomer: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
sim=${HPS_SIM:-$build/hps-sim}
case $sim in /*) ;; *) sim=$root/$sim ;; esac
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-newcomer.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
stat_of() { awk -v k="$1" '$1 == k { print $2 }' "$2" | tail -1; }
sort=$build/guest/rv64/sort
envprog=$build/guest/rv64/env_cwd

# ---- anywhere ---------------------------------------------------------------
mkdir -p "$tmp/elsewhere"
( cd "$tmp/elsewhere" && "$sim" --config ev5 --acf hot_method.acf --rate 1/100 --report r.txt \
    "$sort" >/dev/null 2>err.txt ); rc=$?
check "anywhere: --config ev5 --acf hot_method.acf from another directory (status $rc)" \
    grep -q "^accuracy" "$tmp/elsewhere/r.txt"
( cd "$tmp/elsewhere" && "$sim" --config r10k --acf productions/hot_call_pair.acf \
    --report r2.txt "$sort" >/dev/null 2>&1 )
check "anywhere: --acf productions/hot_call_pair.acf from another directory" \
    grep -q "call pair" "$tmp/elsewhere/r2.txt"
( cd "$tmp/elsewhere" && "$sim" --config no_such_preset "$sort" >/dev/null 2>err.txt ); rc=$?
check "anywhere: a missing preset names where it looked and the presets there (status $rc)" \
    grep -q "no preset 'no_such_preset' in $root/configs.*presets: ev5, hps, inorder5, r10k" \
    "$tmp/elsewhere/err.txt"
"$sim" --help >"$tmp/help.txt"
check "anywhere: --help lists the data roots" grep -qx "  $root" "$tmp/help.txt"
if make -s -C "$root" BUILD="$build" install PREFIX="$tmp/inst" >"$tmp/install.log" 2>&1; then
    ok "anywhere: make install PREFIX=..."
    ( cd / && "$tmp/inst/bin/hps-sim" --config inorder5 --acf hot_method --stats "$tmp/inst.txt" \
        --report "$tmp/inst-r.txt" "$sort" >/dev/null 2>&1 )
    check "anywhere: the installed hps-sim finds its preset and production from /" \
        grep -q "^accuracy" "$tmp/inst-r.txt"
    "$tmp/inst/bin/hps-sim" --help >"$tmp/inst-help.txt"
    check "anywhere: the installed --help names PREFIX/share/hps-sim" \
        grep -qx "  $tmp/inst/share/hps-sim" "$tmp/inst-help.txt"
    check "anywhere: hps-dcpicalc, hps-dcpiprof, hps-dcpistats and hps-dcpidiff are installed" \
        test -x "$tmp/inst/bin/hps-dcpicalc" -a -x "$tmp/inst/bin/hps-dcpiprof" -a \
             -x "$tmp/inst/bin/hps-dcpistats" -a -x "$tmp/inst/bin/hps-dcpidiff"
    make -s -C "$root" BUILD="$build" uninstall PREFIX="$tmp/inst" >/dev/null 2>&1
    check "anywhere: make uninstall removes them" \
        test ! -e "$tmp/inst/bin/hps-sim" -a ! -e "$tmp/inst/share/hps-sim"
else
    bad "anywhere: make install PREFIX=...: $(tail -3 "$tmp/install.log")"
fi

# ---- reproducible -----------------------------------------------------------
"$sim" "$envprog" >"$tmp/env0.txt" 2>&1
check "reproducible: the guest's environment is empty by default" grep -qx "envc=0" "$tmp/env0.txt"
HOME_FOR_TEST=/home/x "$sim" --env A=1 --env HOME_FOR_TEST --env B=x=y --env A=2 --env NOT_SET_ANYWHERE \
    "$envprog" >"$tmp/env1.txt" 2>&1
check "reproducible: --env NAME=VALUE, --env NAME (copied), later ones override, unset NAME skipped (sorted)" \
    test "$(grep '^env' "$tmp/env1.txt" | tr '\n' ' ')" = \
         "env[0]=A=2 env[1]=B=x=y env[2]=HOME_FOR_TEST=/home/x envc=3 "
env -i ONLY=1 PATH=/bin "$sim" --env-host --env EXTRA=2 "$envprog" >"$tmp/env2.txt" 2>&1
check "reproducible: --env-host passes hps-sim's environment, --env adds to it" \
    test "$(grep '^env' "$tmp/env2.txt" | tr '\n' ' ')" = \
         "env[0]=EXTRA=2 env[1]=ONLY=1 env[2]=PATH=/bin envc=3 "
mkdir -p "$tmp/gdir/sub" "$tmp/run"
( cd "$tmp/run" && "$sim" --cwd "$tmp/gdir" --stats stats.txt "$envprog" sub >out.txt 2>&1 )
check "reproducible: --cwd sets the guest's directory" grep -qx "cwd=$tmp/gdir" "$tmp/run/out.txt"
check "reproducible: the guest's chdir moves the guest (cwd=.../sub, file written there)" \
    test "$(grep -c "^cwd=$tmp/gdir/sub\$" "$tmp/run/out.txt")" = 1 -a -s "$tmp/gdir/sub/env_cwd.out"
check "reproducible: ... but not hps-sim: --stats stats.txt lands where hps-sim started" \
    test -s "$tmp/run/stats.txt" -a ! -e "$tmp/gdir/sub/stats.txt"
( cd "$tmp/run" && "$sim" --cwd "$tmp/no/such/dir" "$envprog" >/dev/null 2>err.txt ); rc=$?
check "reproducible: --cwd of a missing directory is bad input (status $rc)" \
    test $rc = 2 -a "$(grep -c "cwd $tmp/no/such/dir" "$tmp/run/err.txt")" = 1
# the same command from two directories, in two environments (a terminal
# adds LINES and COLUMNS; each directory its own PWD)
( cd "$tmp/elsewhere" && env -i PATH=/usr/bin:/bin "$sim" --config ev5 --stats s1.txt "$sort" \
    >/dev/null 2>&1 )
( cd / && env PWD=/ LINES=50 COLUMNS=200 EXTRA_VARIABLE_FOR_LENGTH=one-more-variable-that-would-move-the-stack \
    "$sim" --config ev5 --stats "$tmp/s2.txt" "$sort" >/dev/null 2>&1 )
c1=$(stat_of cpu.cycles "$tmp/elsewhere/s1.txt"); c2=$(stat_of cpu.cycles "$tmp/s2.txt")
check "reproducible: same cycles from two directories and environments ($c1 = $c2)" \
    test -n "$c1" -a "$c1" = "$c2"

# ---- provenance -------------------------------------------------------------
git_hash=$(git -C "$root" describe --always --dirty --abbrev=12 --exclude='*' 2>/dev/null || echo unknown)
"$sim" --config ev5 --set l1d.size=32k --env A=1 --stats "$tmp/p.txt" --stats-json "$tmp/p.json" \
    --acf hot_method.acf --report "$tmp/p-report.txt" --dump-config "$tmp/p.ini" "$sort" >/dev/null 2>&1
nparams=$("$sim" --print-config | grep -c '^[a-z].* = ')
check "provenance: stats.txt starts with the version and git hash ($git_hash)" \
    grep -qx "# hps-sim [0-9.]* (git $git_hash)" "$tmp/p.txt"
check "provenance: stats.txt records the command line" \
    grep -q "^# command: .*hps-sim --config ev5 --set l1d.size=32k .*sort$" "$tmp/p.txt"
check "provenance: stats.txt records every parameter ($nparams)" \
    test "$(grep -c '^# config [a-z0-9_.]* = ' "$tmp/p.txt")" = "$nparams"
check "provenance: stats.txt records the override" grep -qx "# config l1d.size = 32KiB" "$tmp/p.txt"
check "provenance: stats.txt names the guest's environment" grep -qx "# guest environment: A" "$tmp/p.txt"
/usr/bin/python3 - "$tmp/p.json" "$git_hash" "$nparams" >"$tmp/json-check.txt" 2>&1 <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
p = d["provenance"]
assert p["git"] == sys.argv[2], p["git"]
assert len(p["config"]) == int(sys.argv[3]), len(p["config"])
assert p["config"]["l1d.size"] == "32KiB" and p["config"]["model"] == "ev5"
assert p["argv"][1:4] == ["--config", "ev5", "--set"], p["argv"]
assert p["guest_env_names"] == ["A"]
assert d["cpu.cycles"]["value"] > 0
print("ok")
PY
check "provenance: the JSON statistics carry version, git, argv and the configuration" \
    grep -qx ok "$tmp/json-check.txt"
check "provenance: the report file records version, command and the non-default parameters" \
    grep -q "^# config (not default): model=ev5 .*l1d.size=32KiB" "$tmp/p-report.txt"
check "provenance: --dump-config records version and command" \
    grep -q "^# command: .*--dump-config" "$tmp/p.ini"
"$sim" --config "$tmp/p.ini" --stats "$tmp/p2.txt" "$sort" >/dev/null 2>&1
"$sim" --config ev5 --set l1d.size=32k --stats "$tmp/p3.txt" "$sort" >/dev/null 2>&1
c2=$(stat_of cpu.cycles "$tmp/p2.txt"); c3=$(stat_of cpu.cycles "$tmp/p3.txt")
check "provenance: --config DUMPED.ini reproduces the run's cycles ($c2 = $c3)" \
    test -n "$c2" -a "$c2" = "$c3"
"$sim" --dump-config "$tmp/no/such/dir/x.ini" "$sort" >"$tmp/dc.out" 2>"$tmp/dc.err"; rc=$?
check "provenance: --dump-config to a bad path is bad input before running (status $rc)" \
    test $rc = 2 -a ! -s "$tmp/dc.out"

# ---- alpha-relax ------------------------------------------------------------
ALPHA_CC=${ALPHA_CC:-alpha-linux-gnu-gcc}
printf '#include <stdio.h>\nint main(void) { puts("hi"); return 0; }\n' >"$tmp/hi.c"
if "$ALPHA_CC" -O2 -static -o "$tmp/hi-relaxed" "$tmp/hi.c" 2>/dev/null &&
   "$ALPHA_CC" -O2 -static -Wl,--no-relax -o "$tmp/hi-norelax" "$tmp/hi.c" 2>/dev/null; then
    "$sim" "$tmp/hi-relaxed" >/dev/null 2>"$tmp/relax.err"
    check "alpha-relax: a relaxed static Alpha program is named, with -Wl,--no-relax as the fix" \
        grep -q "hi-relaxed is a static Alpha program linked with linker relaxation.*relink with -Wl,--no-relax" \
        "$tmp/relax.err"
    "$sim" "$tmp/hi-norelax" >"$tmp/norelax.out" 2>"$tmp/norelax.err"
    check "alpha-relax: a --no-relax one runs without the warning" \
        test "$(cat "$tmp/norelax.out")" = hi -a ! -s "$tmp/norelax.err"
else
    bad "alpha-relax: $ALPHA_CC cannot build a static program"
fi

echo "newcomer: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
