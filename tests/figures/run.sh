#!/bin/bash
# tests/figures/run.sh BUILD_DIR - the paper figures and the sweep machinery
# behind them (analysis/sweep.py, analysis/figures.py), on a tiny grid
# (gametree, 'test' input, RISC-V, ev5, two rates):
#   figures    every figure file (6-10, PNG and PDF, Figure 6 as Markdown)
#              and summary.txt; a second sweep over the grid runs nothing
#   rows       each row carries the simulator version, configuration and
#              command line; an exhaustive ACF runs without --rate/--burst;
#              the progress line counts to done/total
#   resume     a sweep killed (-9) mid-run loses only the running point: the
#              rerun redoes exactly the missing points, finished rows stay;
#              SIGTERM ends the runs in flight and stores none of them
#   concurrent two sweeps writing one database at once both succeed
#   collect    --collect loads a Slurm sweep's results and names the missing point
#   pareto     the front and knee of a known synthetic table, exactly
#   errors     a figure whose rows are missing is refused (status 2, message)
# Prints "ok ..." / "FAIL ..." per check and "figures: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
py=/usr/bin/python3
sweep="$py analysis/sweep.py"
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-figures.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
q() { $py -c 'import sqlite3, sys; r = sqlite3.connect(sys.argv[1], timeout=60).execute(sys.argv[2]).fetchone(); print(r[0] if r else "")' "$@"; }
grid="--build $build --workloads gametree --isas rv64 --configs ev5 --size test --jobs 2"

# ---- figures on the tiny grid --------------------------------------------------
db=$tmp/fig.sqlite
{ $sweep hps --db "$db" $grid --acf productions/hot_method.acf,productions/hot_call_pair.acf \
      --rates 1/100,1/500 --bursts 1,10
  $sweep hps --db "$db" $grid --acf productions/hot_method_all.acf
  $sweep hps --db "$db" $grid --acf productions/hot_data_stream.acf --rates 1/100,1/500 --bursts 100
  $sweep hps --db "$db" $grid --acf productions/hot_method_dise.acf,productions/hot_call_pair_dise.acf \
      --rates 1/100 --bursts 1
  $sweep hps --db "$db" $grid --acf productions/hot_data_stream_dise.acf --rates 1/100 --bursts 100
} >"$tmp/sweep.out" 2>"$tmp/sweep.err"
check "sweep: 15 points, all finished" \
    test "$(q "$db" "SELECT COUNT(*) FROM runs WHERE status = 0")" = 15
$py analysis/figures.py "$db" --out "$tmp/out" --config ev5 \
    >"$tmp/fig.out" 2>"$tmp/fig.err"; rc=$?
check "figures: exit 0 ($rc: $(head -c 300 "$tmp/fig.err"))" test $rc = 0
for n in 6 7 8 9 10; do
    for ext in png pdf; do
        f=$tmp/out/fig$n-rv64.$ext
        check "figures: fig$n-rv64.$ext written ($(stat -c %s "$f" 2>/dev/null || echo 0) bytes)" \
            test "$(stat -c %s "$f" 2>/dev/null || echo 0)" -gt 5000
    done
done
check "figures: Figure 6 as Markdown, gametree's row" grep -q '^| gametree | [0-9]' "$tmp/out/fig6-rv64.md"
check "figures: summary.txt has the Figure 7 and burst numbers" \
    grep -q "hot call pairs: Figure 7 at 1/100 burst 1: plain DISE mean" "$tmp/out/summary.txt"
# the plain-DISE rows are at 1/100 only: Figure 7 at 1/500 is refused, by name
$py analysis/figures.py "$db" --out "$tmp/out2" --config ev5 --fig7-rate 1/500 >/dev/null \
    2>"$tmp/err"; rc=$?
check "errors: a figure without its rows is refused ($rc)" \
    grep -q "Figure 7 (rv64, ev5, test): no hot_data_stream_dise.acf and hot_data_stream.acf pair at rate 1/500 burst 100" "$tmp/err"
test $rc = 2 || bad "errors: status 2 for a refused figure (got $rc)"
$sweep hps --db "$db" $grid --acf productions/hot_method.acf,productions/hot_call_pair.acf \
    --rates 1/100,1/500 --bursts 1,10 >"$tmp/again" 2>&1
check "sweep: a second run reuses every point" grep -q "^sweep: 0 points run" "$tmp/again"

# ---- what each row carries -----------------------------------------------------
version=$("$build/hps-sim" --version | sed 's/^hps-sim //')
check "rows: every row has the simulator's version ($version)" \
    test "$(q "$db" "SELECT COUNT(*) FROM runs WHERE sim_version = '$version'")" = 15
check "rows: every row has its configuration (JSON with the model's parameters)" \
    $py -c 'import json, sqlite3, sys
rows = sqlite3.connect(sys.argv[1]).execute("SELECT sim_config FROM runs").fetchall()
sys.exit(not all(len(json.loads(c)) > 5 for (c,) in rows))' "$db"
check "rows: every row has its command line" \
    test "$(q "$db" "SELECT COUNT(*) FROM runs WHERE command LIKE '%hps-sim --config ev5 %workloads/rv64/gametree test'")" = 15
check "rows: the exhaustive ACF ran without --rate/--burst, rate 'exhaustive', 100% accurate" \
    test "$(q "$db" "SELECT COUNT(*) FROM runs WHERE profile LIKE '%hot_method_all.acf' AND rate = 'exhaustive'
                     AND command NOT LIKE '%--rate%' AND command NOT LIKE '%--burst%' AND hps_accuracy_method = 100
                     AND hps_overhead_ratio > 1")" = 1
check "rows: the progress line counts to 9/9 with an ETA" grep -q "^sweep: 9/9 points, .* ETA 0m00s" "$tmp/sweep.err"

# ---- resume after kill -9 --------------------------------------------------------
rdb=$tmp/resume.sqlite
rgrid="$grid --acf productions/hot_method.acf --rates 1/20,1/50,1/200,1/500 --bursts 1 --jobs 1"
setsid $sweep hps --db "$rdb" $rgrid >/dev/null 2>&1 &
pid=$!
for _ in $(seq 600); do                 # until two points (base and one) are in
    [ "$(q "$rdb" "SELECT COUNT(*) FROM runs" 2>/dev/null)" = 2 ] && break
    sleep 0.1
done
kill -9 -- -"$pid" 2>/dev/null; wait "$pid" 2>/dev/null
had=$(q "$rdb" "SELECT COUNT(*) FROM runs")
before=$(q "$rdb" "SELECT group_concat(rate || '@' || finished) FROM runs WHERE kind = 'hps'")
$sweep hps --db "$rdb" $rgrid >"$tmp/resumed" 2>&1
check "resume: killed after $had of 5 points, the rerun runs the other $((5 - had))" \
    grep -q "^sweep: $((5 - had)) points run (0 failed), 5 in" "$tmp/resumed"
check "resume: the finished points were not redone ($before)" \
    test -n "$before" -a "$(q "$rdb" "SELECT group_concat(rate || '@' || finished) FROM runs
                                      WHERE kind = 'hps' AND rate || '@' || finished IN
                                      ('$(echo "$before" | sed "s/,/','/g")')")" = "$before"

# SIGTERM: the runs in flight are ended and not stored, status 130
tdb=$tmp/term.sqlite
$sweep hps --db "$tdb" $rgrid >/dev/null 2>"$tmp/term.err" &
pid=$!
for _ in $(seq 600); do
    [ "$(q "$tdb" "SELECT COUNT(*) FROM runs" 2>/dev/null)" = 1 ] && break
    sleep 0.1
done
kill -TERM "$pid"; wait "$pid"; rc=$?
check "resume: SIGTERM stops the sweep (status $rc), its running point not stored" \
    test $rc = 130 -a "$(q "$tdb" "SELECT COUNT(*) FROM runs WHERE status != 0")" = 0 -a \
         -n "$(grep '^sweep: stopped; ' "$tmp/term.err")"

# ---- two sweeps into one database at once -------------------------------------
cdb=$tmp/both.sqlite
$sweep hps --db "$cdb" $grid --jobs 1 --acf productions/hot_method.acf --rates 1/20,1/50,1/200 \
    --bursts 1 >"$tmp/a.out" 2>"$tmp/a.err" &
a=$!
$sweep hps --db "$cdb" $grid --jobs 1 --acf productions/hot_call_pair.acf --rates 1/20,1/50,1/200 \
    --bursts 1 >"$tmp/b.out" 2>"$tmp/b.err" &
b=$!
wait $a; ra=$?; wait $b; rb=$?
check "concurrent: both sweeps succeed ($ra, $rb), no lock errors" \
    test $ra = 0 -a $rb = 0 -a -z "$(grep -il 'locked\|Traceback' "$tmp/a.err" "$tmp/b.err")"
check "concurrent: all 7 rows (one base, 3 + 3 points) in the database" \
    test "$(q "$cdb" "SELECT COUNT(*) FROM runs WHERE status = 0")" = 7

# ---- Slurm: --collect names what is missing -----------------------------------
sdb=$tmp/slurm.sqlite
$sweep hps --db "$sdb" $grid --acf productions/hot_method.acf --rates 1/50,1/500 --bursts 1 \
    --slurm "$tmp/slurm" >/dev/null 2>&1
$sweep --point 0 --points "$tmp/slurm/points.json" --build "$build" >/dev/null 2>&1
$sweep --point 2 --points "$tmp/slurm/points.json" --build "$build" >/dev/null 2>&1
$sweep --collect "$tmp/slurm" --db "$sdb" >"$tmp/collect" 2>&1; rc=$?
check "collect: status 1 with a point missing ($rc)" test $rc = 1
check "collect: names the missing point" \
    grep -q "^sweep: missing point 1 (no result): gametree rv64 ev5 test: hot_method 1/50 burst 1" "$tmp/collect"
check "collect: the two results are loaded, with overheads" \
    test "$(q "$sdb" "SELECT COUNT(*) FROM runs WHERE status = 0")" = 2 -a \
         "$(q "$sdb" "SELECT COUNT(*) FROM runs WHERE hps_overhead_ratio > 1")" = 1

# ---- pareto on a synthetic table ----------------------------------------------
pdb=$tmp/pareto.sqlite
$py - "$pdb" <<'EOF'
import sys
sys.path.insert(0, "analysis")
import sweep
db = sweep.open_db(sys.argv[1])
# (rate, burst, overhead %, accuracy %): B beats C; F is the cheapest within 5 of 100
table = [("1/10000", 1, 0.1, 60), ("1/1000", 1, 0.3, 85), ("1/1000", 10, 0.5, 80),
         ("1/500", 1, 1.0, 92), ("1/100", 10, 2.0, 94), ("1/100", 1, 5.0, 96),
         ("1/50", 1, 6.0, 95), ("exhaustive", 0, 200.0, 100)]
for rate, burst, o, a in table:
    acf = "productions/hot_method_all.acf" if rate == "exhaustive" else "productions/hot_method.acf"
    db.execute("""INSERT INTO runs (kind, isa, workload, size, config, profile, rate, burst, period,
                  seed, status, hps_overhead_ratio, hps_accuracy_method)
                  VALUES ('hps', 'rv64', 'w', 'test', 'r10k', ?, ?, ?, '', 1, 0, ?, ?)""",
               (acf, rate, burst, 1 + o / 100, a))
db.commit()
EOF
$sweep pareto --db "$pdb" >"$tmp/pareto" 2>&1
cat >"$tmp/pareto.want" <<'EOF'
rv64 r10k test w hot_method: 6 of 8 points on the front
    rate 1/10000 burst 1     overhead    0.100%  accuracy  60.00%
    rate 1/1000 burst 1      overhead    0.300%  accuracy  85.00%
    rate 1/500 burst 1       overhead    1.000%  accuracy  92.00%
    rate 1/100 burst 10      overhead    2.000%  accuracy  94.00%
  * rate 1/100 burst 1       overhead    5.000%  accuracy  96.00%
    exhaustive               overhead  200.000%  accuracy 100.00%
EOF
check "pareto: front and knee of the synthetic table, exactly" \
    diff <(grep -v '^#' "$tmp/pareto") "$tmp/pareto.want"
$sweep --pareto --db "$pdb" --slack 10 >"$tmp/pareto10" 2>&1
check "pareto: with --slack 10 the knee moves to the 92% point" \
    grep -q '^  \* rate 1/500 burst 1 ' "$tmp/pareto10"

echo "figures: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
