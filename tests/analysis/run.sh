#!/bin/bash
# tests/analysis/run.sh BUILD_DIR - the sweep and plot tools (analysis/):
#   sweep      a small HPS grid (2 rates x 2 bursts) and a DCPI grid (2
#              periods) land in SQLite, one row per point with accuracy and
#              overhead; a rerun runs nothing new; denser sampling costs more
#   plot       accuracy against overhead for both kinds: a PNG with content
#   slurm      the array job script is valid bash, a point runs on its own
#              and --collect loads it
#   errors     missing arguments and empty results: a message, nonzero status
# Prints "ok ..." / "FAIL ..." per check and "analysis: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
py=/usr/bin/python3
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-analysis.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
q() { $py -c 'import sqlite3, sys; r = sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone(); print(r[0] if r else "")' "$@"; }

db=$tmp/r.sqlite
$py analysis/sweep.py hps --db "$db" --build "$build" --workloads gametree \
    --rates 1/20,1/500 --bursts 1,10 --jobs 2 >"$tmp/out" 2>&1
check "sweep: 4 HPS points in the database" test "$(q "$db" "SELECT COUNT(*) FROM runs WHERE kind='hps' AND status=0")" = 4
check "sweep: every point has accuracy and overhead" \
    test "$(q "$db" "SELECT COUNT(*) FROM runs WHERE hps_accuracy_method > 50 AND hps_overhead_ratio > 1")" = 4
dense=$(q "$db" "SELECT hps_overhead_ratio FROM runs WHERE rate='1/20' AND burst=1")
sparse=$(q "$db" "SELECT hps_overhead_ratio FROM runs WHERE rate='1/500' AND burst=1")
check "sweep: sampling 1/20 costs more than 1/500 ($dense > $sparse)" \
    awk -v a="$dense" -v b="$sparse" 'BEGIN { exit !(a > b) }'
$py analysis/sweep.py hps --db "$db" --build "$build" --workloads gametree \
    --rates 1/20,1/500 --bursts 1,10 >"$tmp/out2" 2>&1
check "sweep: a rerun runs nothing new" grep -q "^sweep: 0 points run" "$tmp/out2"
$py analysis/sweep.py dcpi --db "$db" --build "$build" --workloads gametree \
    --periods 2000-2100,20000-21000 >"$tmp/out3" 2>&1
check "sweep: 2 DCPI points with accuracy and overhead" \
    test "$(q "$db" "SELECT COUNT(*) FROM runs WHERE kind='dcpi' AND dcpi_accuracy_procedure > 50 AND dcpi_overhead_ratio > 1")" = 2

for kind in hps dcpi; do
    $py analysis/plot_sweep.py "$db" --kind $kind --out "$tmp/$kind.png" >/dev/null 2>&1
    check "plot: $kind accuracy against overhead as a PNG" \
        test "$(head -c 4 "$tmp/$kind.png" | od -An -c | tr -d ' ')" = "211PNG" -a \
             "$(stat -c %s "$tmp/$kind.png" 2>/dev/null || echo 0)" -gt 10000
done

$py analysis/sweep.py hps --db "$tmp/s.sqlite" --build "$build" --workloads gametree \
    --rates 1/50 --bursts 1 --slurm "$tmp/slurm" >/dev/null 2>&1
check "slurm: the array job script is valid bash" bash -n "$tmp/slurm/sweep.sbatch"
check "slurm: one task per point (the run without profiling and 1/50)" \
    grep -q -- "--array=0-1" "$tmp/slurm/sweep.sbatch"
$py analysis/sweep.py --point 0 --points "$tmp/slurm/points.json" --build "$build" >/dev/null 2>&1
$py analysis/sweep.py --point 1 --points "$tmp/slurm/points.json" --build "$build" >/dev/null 2>&1
$py analysis/sweep.py --collect "$tmp/slurm" --db "$tmp/s.sqlite" >/dev/null 2>&1
check "slurm: the tasks' results are collected, with the overhead" \
    test "$(q "$tmp/s.sqlite" "SELECT COUNT(*) FROM runs WHERE status=0 AND hps_accuracy_method > 0 AND hps_overhead_ratio > 1")" = 1

$py analysis/sweep.py hps --workloads gametree >/dev/null 2>"$tmp/err"; rc=$?
check "errors: no --db is refused ($rc)" test $rc != 0 -a -s "$tmp/err"
$py analysis/plot_sweep.py "$tmp/s.sqlite" --kind dcpi --out "$tmp/x.png" >/dev/null 2>"$tmp/err"; rc=$?
check "errors: plotting results that are not there ($rc)" test $rc = 2 -a -s "$tmp/err"

echo "analysis: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
