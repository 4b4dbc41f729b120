#!/bin/bash
# tests/dcpitools/run.sh BUILD_DIR - the DCPI tool set beyond dcpiprof and
# the profile exports, checked on profiles whose answers are known and by
# the tools that read the formats:
#   known      databases written with profdb's API (BUILD/tests/mkprof db)
#              over a real image: procedures, totals
#   export     hps-dcpiprof --export callgrind|pprof|folded: callgrind_annotate
#              (valgrind) reads the callgrind file and its totals and
#              functions are the database's; protoc decodes the pprof file
#              against profile.proto's schema and its sample values sum to
#              the totals, and Go's pprof (built from Debian's sources) reads
#              it with the same totals; folded stacks are exact; --per procedure; the same
#              database gives the same bytes
#   cct        stacks of several frames with call counts (mkprof cct):
#              callgrind_annotate's inclusive costs and call counts, pprof's
#              leaf-first location lists, folded stacks
#   stats      hps-dcpistats: sum, mean, std-dev, min, max, range% of sets
#              with known counts; sets from --epochs; sorting
#   diff       hps-dcpidiff: shares and their change, per procedure and per
#              instruction
#   e2e        hps-sim --dcpi on RISC-V (static and dynamic) and Alpha, each
#              exported in the three formats, their totals the database's
#   errors     mismatched builds, periods, events, programs; bad options and
#              files: status 2 and one message naming what was wrong
# Prints "ok ..." / "FAIL ..." per check and "dcpitools: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-./hps-sim}
# the programs under test: BUILD_DIR's unless the environment names others
# (tests/asan/run.sh runs the suite on its sanitizer build)
prof=${HPS_DCPIPROF:-$build/hps-dcpiprof}
stats=${HPS_DCPISTATS:-$build/hps-dcpistats}
diff=${HPS_DCPIDIFF:-$build/hps-dcpidiff}
mk=${HPS_MKPROF:-$build/tests/mkprof}
wl=$build/workloads
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-dcpitools.XXXXXX") || exit 2
trap "rm -rf \"$tmp\"" EXIT

ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }

for t in "$prof" "$stats" "$diff" "$mk"; do
    [ -x "$t" ] || { echo "FAIL $t is not built (make all $build/tests/mkprof)"; echo "dcpitools: 0 passed, 1 failed"; exit 1; }
done
for t in callgrind_annotate protoc go; do
    command -v $t >/dev/null || { echo "FAIL $t missing (make deps)"; echo "dcpitools: 0 passed, 1 failed"; exit 1; }
done
# Go's pprof, built once from Debian's sources (golang-github-google-pprof-dev)
# into BUILD_DIR/go (about 15 s the first time)
pprof=$build/go/pprof
if [ ! -x "$pprof" ]; then
    mkdir -p "$build/go"
    if ! GO111MODULE=off GOPATH=/usr/share/gocode GOCACHE=$(cd "$build/go" && pwd)/cache GOFLAGS= \
            go build -o "$pprof" github.com/google/pprof >"$build/go/build.log" 2>&1; then
        echo "FAIL cannot build pprof from /usr/share/gocode (make deps): $(tail -3 "$build/go/build.log")"
        echo "dcpitools: 0 passed, 1 failed"; exit 1
    fi
fi

# ---- helpers -----------------------------------------------------------------------------
# cg_total FILE: callgrind_annotate's PROGRAM TOTALS line, the counts only ("49 3")
cg_total() {
    callgrind_annotate --auto=no "$1" 2>"$tmp/cg.err" |
        awk '/PROGRAM TOTALS/ { s = ""; for (i = 1; i < NF; i++) if ($i ~ /^[0-9,]+$/) s = s (s ? " " : "") $i; gsub(",", "", s); print s; exit }'
}
# cg_fn FILE FUNCTION [OPTIONS]: the counts callgrind_annotate gives a function
cg_fn() {
    local f=$1 fn=$2; shift 2
    callgrind_annotate --auto=no "$@" "$f" 2>/dev/null |
        awk -v fn="$fn" '{ for (i = 1; i <= NF; i++) if ($i ~ (":" fn "$")) { s = ""
              for (j = 1; j < i; j++) if ($j ~ /^[0-9,]+$/) s = s (s ? " " : "") $j
              gsub(",", "", s); print s; exit } }'
}
# pp_decode FILE: the pprof file decoded against profile.proto (fails on a
# bad gzip stream or a message that does not fit the schema)
pp_decode() {
    gzip -dc "$1" | protoc --proto_path=tests/dcpitools --decode=perftools.profiles.Profile \
        tests/dcpitools/profile.proto
}
# pp_sums DECODED: each sample type's sum of values ("49 3")
pp_sums() {
    awk '/^sample \{/ { i = 0 } /^  value:/ { s[i++] += $2; if (i > n) n = i }
         END { for (k = 0; k < n; k++) printf "%s%d", k ? " " : "", s[k]; print "" }' "$1"
}
# pp_top FILE EVENT: the total pprof -top reports for a sample type
pp_top() {
    "$pprof" -top -sample_index="$2" "$1" 2>/dev/null |
        sed -nE 's/^Showing nodes accounting for .* of ([0-9]+)(samples)? total.*/\1/p'
}
# pp_cum FILE FUNCTION: a function's cumulative (inclusive) value in pprof -top -cum
pp_cum() { "$pprof" -top -cum "$1" 2>/dev/null | awk -v f="$2" '$NF == f { print $4; exit }'; }
folded_sum() { awk '{ s += $NF } END { print s + 0 }' "$1"; }
# db_total DB EVENT: the event's total samples as hps-dcpiprof reports them
db_total() { $prof "$1" 2>/dev/null | awk -v e="$2" '$1 == e && NF == 3 { print $2; exit }'; }

img=$wl/rv64/bwt_compress
if [ ! -x "$img" ]; then
    echo "FAIL $img is not built (make workloads)"; echo "dcpitools: 0 passed, 1 failed"; exit 1
fi
addr() { riscv64-linux-gnu-nm "$img" | awk -v s="$1" '$3 == s { print $1; exit }'; }
hex() { printf '%x' "$1"; }
fwd=$(hex "0x$(addr bwt_forward)"); crc=$(hex "0x$(addr crc_update)")
fwd4=$(hex $((0x$fwd + 4)))

# ---- known: a database written with profdb's API -------------------------------------------
db=$tmp/known
$mk db "$db" "$img" cycles 60000-64000 "$fwd:30" "$fwd4:12" "$crc:7" &&
    $mk db "$db" "$img" imiss 2000-2047 "$fwd:3"
check "known: the database is written (cycles $(db_total "$db" cycles), imiss $(db_total "$db" imiss))" \
    test "$(db_total "$db" cycles)" = 49 -a "$(db_total "$db" imiss)" = 3
$prof -p "$db" >"$tmp/known.p" 2>&1
check "known: hps-dcpiprof -p: bwt_forward 42, crc_update 7" \
    test -n "$(grep -E '^ +42 .* bwt_forward ' "$tmp/known.p")" -a -n "$(grep -E '^ +7 .* crc_update ' "$tmp/known.p")"

# ---- export -------------------------------------------------------------------------------
for f in callgrind pprof folded; do
    $prof --export $f -o "$tmp/k.$f" "$db" 2>"$tmp/err"
    check "export: --export $f writes $tmp/k.$f (status $?)" test -s "$tmp/k.$f" -a ! -s "$tmp/err"
done
t=$(cg_total "$tmp/k.callgrind")
check "export: callgrind_annotate reads the callgrind file: totals '$t' = 49 3" test "$t" = "49 3"
check "export: callgrind_annotate prints no warning" test ! -s "$tmp/cg.err"
t=$(cg_fn "$tmp/k.callgrind" bwt_forward)
check "export: callgrind_annotate: bwt_forward '$t' = 42 3" test "$t" = "42 3"
t=$(cg_fn "$tmp/k.callgrind" crc_update)
check "export: callgrind_annotate: crc_update '$t' = 7 0" test "$t" = "7 0"
check "export: callgrind cost lines per instruction (3, at the sampled offsets)" \
    test "$(grep -cE '^0x[0-9a-f]+ 0 [0-9]+ [0-9]+$' "$tmp/k.callgrind")" = 3 -a \
         -n "$(grep "^0x$fwd4 0 12 0$" "$tmp/k.callgrind")"
if pp_decode "$tmp/k.pprof" >"$tmp/k.dec" 2>"$tmp/err"; then
    ok "export: protoc decodes the pprof file as perftools.profiles.Profile"
else
    bad "export: protoc cannot decode the pprof file: $(head -c 300 "$tmp/err")"
fi
t=$(pp_sums "$tmp/k.dec")
check "export: pprof sample values sum to '$t' = 49 3" test "$t" = "49 3"
check "export: pprof sample types cycles and imiss, 3 samples, 3 locations, 2 functions, 1 mapping" \
    test "$(grep -c '^sample {' "$tmp/k.dec")" = 3 -a "$(grep -c '^location {' "$tmp/k.dec")" = 3 -a \
         "$(grep -c '^function {' "$tmp/k.dec")" = 2 -a "$(grep -c '^mapping {' "$tmp/k.dec")" = 1 -a \
         -n "$(grep -x 'string_table: "cycles"' "$tmp/k.dec")" -a \
         -n "$(grep -x 'string_table: "imiss"' "$tmp/k.dec")" -a \
         -n "$(grep -x 'string_table: "bwt_forward"' "$tmp/k.dec")"
check "export: Go's pprof reads the file: cycles total $(pp_top "$tmp/k.pprof" cycles), imiss $(pp_top "$tmp/k.pprof" imiss)" \
    test "$(pp_top "$tmp/k.pprof" cycles)" = 49 -a "$(pp_top "$tmp/k.pprof" imiss)" = 3
check "export: pprof -top: bwt_forward 42 samples" \
    test -n "$("$pprof" -top "$tmp/k.pprof" 2>/dev/null | grep -E '^ *42samples .* bwt_forward$')"
check "export: pprof locations carry the image offsets" \
    test -n "$(grep -x "  address: $((0x$fwd4))" "$tmp/k.dec")"
printf 'bwt_forward 42\ncrc_update 7\n' >"$tmp/k.folded.want"
check "export: folded stacks (cycles) are exactly bwt_forward 42, crc_update 7" cmp -s "$tmp/k.folded" "$tmp/k.folded.want"
$prof --export folded --event imiss -o "$tmp/ki.folded" "$db"
check "export: folded stacks of --event imiss: bwt_forward 3" test "$(cat "$tmp/ki.folded")" = "bwt_forward 3"
$prof --export callgrind --per procedure -o "$tmp/kp.callgrind" "$db"
check "export: --per procedure: one cost line per procedure, at its entry" \
    test "$(grep -cE '^0x[0-9a-f]+ 0 ' "$tmp/kp.callgrind")" = 2 -a -n "$(grep "^0x$fwd 0 42 3$" "$tmp/kp.callgrind")" -a \
         "$(cg_total "$tmp/kp.callgrind")" = "49 3"
for f in callgrind pprof folded; do $prof --export $f -o "$tmp/k2.$f" "$db"; done
same_exports() { for f in callgrind pprof folded; do cmp -s "$tmp/k.$f" "$tmp/k2.$f" || return 1; done; }
check "export: the same database, the same bytes (all three formats)" same_exports

# ---- cct: stacks of several frames ----------------------------------------------------------
$mk cct "$tmp/cct"
for fn in "main 110 11" "parse 70 7" "lex 50 5" "eval 30 3"; do
    set -- $fn
    t=$(cg_fn "$tmp/cct.callgrind" "$1" --inclusive=yes)
    check "cct: callgrind_annotate --inclusive=yes: $1 '$t' = $2 $3" test "$t" = "$2 $3"
done
t=$(cg_total "$tmp/cct.callgrind")
check "cct: callgrind_annotate totals '$t' = 110 11 (self costs add up once)" test "$t" = "110 11"
callgrind_annotate --auto=no --tree=caller "$tmp/cct.callgrind" >"$tmp/cct.tree" 2>&1
check "cct: call counts: parse -> lex 7x, main -> parse 2x, main -> eval 1x (unknown, at least one)" \
    test -n "$(grep -E '< prog.c:parse \(7x\)' "$tmp/cct.tree")" -a \
         -n "$(grep -E '^ *70 .*< prog.c:main \(2x\)' "$tmp/cct.tree")" -a \
         -n "$(grep -E '< prog.c:main \(1x\)' "$tmp/cct.tree")"
pp_decode "$tmp/cct.pprof" >"$tmp/cct.dec" 2>&1
check "cct: pprof decodes, values sum to 110 11, 4 samples" \
    test "$(pp_sums "$tmp/cct.dec")" = "110 11" -a "$(grep -c '^sample {' "$tmp/cct.dec")" = 4
t="$(pp_cum "$tmp/cct.pprof" main) $(pp_cum "$tmp/cct.pprof" parse) $(pp_cum "$tmp/cct.pprof" lex) $(pp_cum "$tmp/cct.pprof" eval)"
check "cct: Go's pprof -top -cum: main, parse, lex, eval inclusive '$t' = 110 70 50 30" test "$t" = "110 70 50 30"
# the 3-frame sample lists lex's location first, then parse's, then main's
deep=$(awk '/^sample \{/ { ids = "" } /^  location_id:/ { ids = ids " " $2 } /^  value: 50$/ { print ids; exit }' "$tmp/cct.dec")
check "cct: pprof location ids leaf first ('$deep' = 6 4 1)" test "$deep" = " 6 4 1"
printf 'main 10\nmain;eval 30\nmain;parse 20\nmain;parse;lex 50\n' >"$tmp/cct.want"
check "cct: folded stacks are exact" cmp -s "$tmp/cct.folded" "$tmp/cct.want"

# ---- stats -----------------------------------------------------------------------------------
k=0
for n in 10 20 30; do
    k=$((k + 1))
    $mk db "$tmp/s$k" "$img" cycles 60000-64000 "$fwd:$n" "$crc:5"
    if [ $k = 1 ]; then $mk db "$tmp/sE" "$img" cycles 60000-64000 "$fwd:$n" "$crc:5"
    else $mk db --new "$tmp/sE" "$img" cycles 60000-64000 "$fwd:$n" "$crc:5"; fi
done
$stats "$tmp/s1" "$tmp/s2" "$tmp/s3" >"$tmp/st" 2>&1
row=$(grep ' bwt_forward ' "$tmp/st" | awk '{ $NF = ""; print }' | sed 's/ *$//')
check "stats: bwt_forward over 10, 20, 30: range 33.33%, sum 60, N 3, mean 20, std-dev 10, min 10, max 30 ('$row')" \
    test "$row" = "33.33% 60 80.00% 3 20.00 10.00 10 30 bwt_forward"
row=$(grep ' crc_update ' "$tmp/st" | awk '{ print $1, $2, $6 }')
check "stats: crc_update 5, 5, 5: range 0.00%, sum 15, std-dev 0 ('$row')" test "$row" = "0.00% 15 0.00"
check "stats: sorted by range (bwt_forward first), set totals and TOTAL 75" \
    test "$(awk '/std-dev/ { getline; print $9; exit }' "$tmp/st")" = bwt_forward -a \
         -n "$(grep -x 'TOTAL 75' "$tmp/st")" -a -n "$(grep "^set 2 = 25 " "$tmp/st")"
$stats --epochs "$tmp/sE" >"$tmp/stE" 2>&1
check "stats: --epochs: three epochs of one database give the same statistics" \
    test "$(grep -A9 '^Statistics' "$tmp/st" | tail -n +2 | awk '{ $NF = ""; print }')" = \
         "$(grep -A9 '^Statistics' "$tmp/stE" | tail -n +2 | awk '{ $NF = ""; print }')"
check "stats: hps-dcpiprof reads one epoch given as DB/epoch-0002 (25 samples)" \
    test "$(db_total "$tmp/sE/epoch-0002" cycles)" = 25
$stats --sort samples "$tmp/s1" "$tmp/s2" "$tmp/s3" "$tmp/s3" >"$tmp/st4" 2>&1
row=$(grep ' bwt_forward ' "$tmp/st4" | awk '{ print $2, $4, $5, $6 }')
check "stats: four sets (10, 20, 30, 30): sum 90, N 4, mean 22.50, std-dev 9.57 ('$row')" \
    test "$row" = "90 4 22.50 9.57"

# ---- diff ------------------------------------------------------------------------------------
$mk db "$tmp/dA" "$img" cycles 60000-64000 "$fwd:30" "$crc:10"
$mk db "$tmp/dB" "$img" cycles 60000-64000 "$fwd:5" "$fwd4:5" "$crc:30"
$diff "$tmp/dA" "$tmp/dB" >"$tmp/d" 2>&1
row=$(awk '/procedure/ { getline; print; exit }' "$tmp/d" | awk '{ $NF = ""; print }' | sed 's/ *$//')
check "diff: bwt_forward 30 (75%) -> 10 (25%): -50.00% ('$row')" test "$row" = "30 75.00% 10 25.00% -50.00% bwt_forward"
check "diff: crc_update 10 (25%) -> 30 (75%): +50.00%" test -n "$(grep -E '^ +10  25.00% +30  75.00%  \+50.00%  crc_update ' "$tmp/d")"
$diff -i "$tmp/dA" "$tmp/dB" >"$tmp/di" 2>&1
check "diff -i: per instruction, bwt_forward+0x4 new in B (+12.50%)" \
    test -n "$(grep -E "^ +0   0.00% +5  12.50%  \+12.50%  0*$fwd4  bwt_forward\+0x4 " "$tmp/di")"
check "diff -i: rows ranked by |change| (bwt_forward at 0x$fwd first: -62.50%)" \
    test "$(awk '/instruction/ { getline; print $5, $7; exit }' "$tmp/di")" = "-62.50% bwt_forward"

# ---- e2e: hps-sim --dcpi on each ISA, exported ------------------------------------------------
e2e() {   # NAME PROGRAM [hps-sim options...]
    local name=$1 p=$2; shift 2
    local d=$tmp/e2e-$name
    if ! $sim --config ev5 "$@" --dcpi "$d" --no-baseline --report /dev/null "$p" test >/dev/null 2>"$tmp/e2e.err"; then
        bad "e2e $name: hps-sim --dcpi failed: $(head -c 200 "$tmp/e2e.err")"; return
    fi
    local c i
    c=$(db_total "$d" cycles); i=$(db_total "$d" imiss)
    for f in callgrind pprof folded; do $prof --export $f -o "$d.$f" "$d"; done
    local t; t=$(cg_total "$d.callgrind")
    check "e2e $name: callgrind_annotate totals '$t' = the database's ($c $i)" test -n "$c" -a "$t" = "$c $i"
    pp_decode "$d.pprof" >"$d.dec" 2>&1
    t=$(pp_sums "$d.dec")
    check "e2e $name: pprof sample values '$t' = the database's ($c $i)" test "$t" = "$c $i"
    t="$(pp_top "$d.pprof" cycles) $(pp_top "$d.pprof" imiss)"
    check "e2e $name: Go's pprof totals '$t' = the database's ($c $i)" test "$t" = "$c $i"
    t=$(folded_sum "$d.folded")
    check "e2e $name: folded stacks sum to $t = $c" test "$t" = "$c"
    local images; images=$(ls -d "$d"/epoch-0001/*/ | wc -l)
    check "e2e $name: one pprof mapping per sampled image ($images)" \
        test "$(grep -c '^mapping {' "$d.dec")" -le "$images" -a "$(grep -c '^mapping {' "$d.dec")" -ge 1
}
e2e rv64 "$wl/rv64/bwt_compress"
e2e alpha "$wl/alpha-static/bwt_compress"
[ -x "$wl/rv64-dyn/minicc" ] && e2e rv64-dyn "$wl/rv64-dyn/minicc" --sysroot /usr/riscv64-linux-gnu

# ---- errors -------------------------------------------------------------------------------------
expect_error() {   # WHAT REGEX COMMAND...
    local what=$1 re=$2; shift 2
    "$@" >"$tmp/eo" 2>"$tmp/ee"; local rc=$?
    if [ $rc = 2 ] && grep -qE -- "$re" "$tmp/ee" && [ "$(grep -vc '^ \|^usage' "$tmp/ee")" -le 1 ]; then
        ok "errors: $what"
    else
        bad "errors: $what: status $rc, stderr: $(head -c 300 "$tmp/ee")"
    fi
}
mkdir -p "$tmp/other"
cp "$img" "$tmp/other/bwt_compress" && printf 'x' >>"$tmp/other/bwt_compress"
$mk db "$tmp/sOther" "$tmp/other/bwt_compress" cycles 60000-64000 "$fwd:10"
$mk db "$tmp/sPeriod" "$img" cycles 1000-1100 "$fwd:10"
$mk db "$tmp/sGame" "$wl/rv64/gametree" cycles 60000-64000 "1000:10"
expect_error "stats: another build of an image" "image bwt_compress differs: .*contents hash" \
    $stats "$tmp/s1" "$tmp/sOther"
expect_error "stats: another sampling period" "every 1000-1100 events, set 1 every 60000-64000.*do not compare" \
    $stats "$tmp/s1" "$tmp/sPeriod"
expect_error "stats: an event a set has not sampled" "set 1 .*no dmiss samples" $stats --event dmiss "$tmp/s1" "$tmp/s2"
expect_error "stats: another program" "shares no image with set 1" $stats "$tmp/s1" "$tmp/sGame"
expect_error "stats: one set" "need at least two" $stats "$tmp/s1"
expect_error "stats: a bad --sort" "--sort: expected range, stddev or samples" $stats --sort size "$tmp/s1" "$tmp/s2"
expect_error "stats: not a database" "not a profile database" $stats "$tmp/s1" "$tmp/other"
expect_error "diff -i: another build" "image bwt_compress differs.*compare per procedure" $diff -i "$tmp/dA" "$tmp/sOther"
$diff "$tmp/dA" "$tmp/sOther" >/dev/null 2>&1
check "diff: another build compares per procedure (status $?)" test $? = 0
expect_error "diff: one profile" "expected two profiles, got 1" $diff "$tmp/dA"
expect_error "diff: an unknown event" "unknown event 'cache'" $diff --event cache "$tmp/dA" "$tmp/dB"
expect_error "diff: an event without samples" "no branchmp samples" $diff --event branchmp "$tmp/dA" "$tmp/dB"
expect_error "export: an unknown format" "unknown format 'svg' \\(expected callgrind, pprof or folded\\)" \
    $prof --export svg -o "$tmp/x" "$db"
expect_error "export: no -o" "needs -o FILE" $prof --export pprof "$db"
expect_error "export: -o without --export" "-o is for --export" $prof -o "$tmp/x" "$db"
expect_error "export: a bad --per" "--per: expected instruction or procedure, got 'line'" \
    $prof --export folded --per line -o "$tmp/x" "$db"
expect_error "export: with -p" "does not combine with -p" $prof --export folded -p -o "$tmp/x" "$db"
expect_error "export: an unwritable file" "$tmp/nodir/x.pprof: cannot write" \
    $prof --export pprof -o "$tmp/nodir/x.pprof" "$db"
expect_error "export: an unknown image" "no image 'nosuch'" $prof --export folded -o "$tmp/x" "$db" nosuch

echo "dcpitools: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
