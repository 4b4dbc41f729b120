#!/bin/bash
# tests/matrix/run.sh BUILD_DIR - the feature-combination matrix: every
# model {functional, inorder5, ev5, r10k, hps} x every feature {--trace, --stats,
# --ground-truth, --paths, PP on DISE, --pipeview, --acf, --dcpi (uniform and
# geometric periods), --acf + --dcpi,
# --dcpi --values, --profileme, --cct, --csprof, -d scripted},
# on both ISAs (the rv64 and alpha-static builds of one small workload at
# size test), each cell checked for REAL output, never empty or zero:
#   output     the guest's stdout and status are the plain functional run's,
#              in every cell
#   trace      exactly --trace-limit instruction lines, the same pc,
#              symbol, encoding and disassembly under every model
#   stats      every field of the functional run that does not depend on
#              timing has the same value under every timing model (list of
#              the excluded fields below); timing models have cycles > 0
#   gt         --ground-truth rows, and its total line C = H + D with C the
#              run's cpu.cycles; functional: refused (status 2, one line)
#   paths      --paths: every path's instructions are count x its length,
#              the paths and counts are the functional run's under every
#              model, timed models put cycles on them
#   pp         PP on DISE (hps-pp-acf's exhaustive ACF, --handlers c; the
#              paths counted in line by DISE's `tally`, a load and a store
#              every model times, the rest by PathCount_handler): every
#              path of every instrumented procedure counted exactly; with
#              --cct (asm handlers), the guest's CCT scored against --cct
#   pipeview   a Kanata log whose retired instructions are the first ones
#              of the functional trace; functional: refused
#   acf        the exhaustive ACFs: every member's sampled count equals its
#              exact count, and the exact profile is the same under every
#              model; --handlers c gives the profile the default asm does
#   dcpi       a database holding every sample the driver took (but those
#              outside every image or lost), as many as the report's
#              counter interrupts, and the report; its exports
#              (hps-dcpiprof --export) hold its samples; functional: refused
#   profileme  --profileme with --dcpi-precise 2: the ProfileMe report, its
#              records and as many samples in the database as it raised
#              interrupts; functional: refused
#   acf+dcpi   both reports, the exhaustive profile still exact, the
#              database has samples
#   values     --dcpi with --values all: value samples in hot lists, the
#              value report scored against the truth, values.tsv rows, the
#              program's statistics unchanged; functional refused; with --acf
#              refused on every model
#   cct        --cct prints the exact calling context tree and exports it
#              (callgrind with calls=); --csprof samples it on the timing
#              models (the report scores it), is refused on the functional
#              core and with --acf
#   profiled   under --acf and --dcpi the program's statistics stay the
#              functional run's; sim.runtimeInsts counts what was added
#   shell      -d with scripted commands ('c', 'stats', 'quit') runs to the
#              program's exit status and prints the batch run's
#              instructions and cycles; --stats of an -d run as in stats
#   cut        --max-insts N counts program instructions only: a cut run
#              says so on stderr and has sim.truncated 1 (0 otherwise),
#              and with --acf the run and its baseline both stop after the
#              same N program instructions
#   quantum    --thread-quantum on the (one-threaded) workload changes
#              nothing; 0 is refused (threads themselves: tests/threads)
#   sample     --sample 20k (SMARTS) on every timing model prints the
#              functional run's output, its timing-independent statistics
#              are the functional run's, it measured units and its cpu.cycles
#              is the estimate (= simCycles = sample.estCycles, > 0);
#              functional and --sample with --acf: refused (tests/sample)
#   memdep     r10k with each ooo.memdep policy prints the functional run's
#              output; conservative and store_sets write their statistics
#              (loads held back > 0), the oracle none; a bad policy or a
#              store-set table that is no power of two is refused
#   wrongpath  r10k with ooo.wrong_path on and off prints the functional
#              run's output; on writes cpu.ooo.wrongPath.* (instructions
#              fetched > 0), off none; with an ACF matching loads and stores
#              (hot_data_stream_all) the output and exact profile are the
#              functional run's; a bad value is refused; under hps with
#              hot_method.acf, dise.spec_counters=checkpoint takes the
#              functional run's samples, leak keeps its output and exact profile
#   jit        the translator (sim/jit_x86.c, the functional core's default;
#              --jit asks for it, --no-jit for the block loop): the default,
#              --jit and --no-jit print the same output with the same status;
#              their statistics with the ground-truth recorder and without
#              (text and JSON) and an exhaustive ACF's report (--jit, the
#              default and --no-jit), and with hot_method and hot_data_stream
#              sampled (bursts of 10 at 1/100, whole and cut by --max-insts)
#              the default's report, profile, statistics and stdout against
#              --no-jit's, are the same but for the command and
#              host lines; --max-insts exact, the default's cut the block
#              loop's; ev5 --no-jit is ev5; --jit with every timing model,
#              -d, --trace or --no-jit: refused
#   checkpoint a checkpoint near the end restored under every model, with
#              --acf and with --dcpi: the functional run's output and
#              program instructions; --restore --cct, --checkpoint-at under
#              a timing model or without --checkpoint-out are refused
# No --max-insts outside the cut checks (the workload at size test takes
# well under a second per run).  Prints "ok ..." / "FAIL ..." per check
# and "matrix: N passed, M failed".
#
# MATRIX_WORKLOAD=name picks another workload (default gametree).
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-$build/hps-sim}
prof=$build/hps-dcpiprof
[ -x "$prof" ] || prof=$(dirname "$sim")/hps-dcpiprof
workload=${MATRIX_WORKLOAD:-gametree}
wl=$build/workloads
models="functional inorder5 ev5 r10k hps"
trace_limit=500
view_count=200          # hps-sim's default --view-count
cut=1000000             # --max-insts of the cut checks (the program runs ~17-20M)
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-matrix.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
# verdict WHAT REASON: ok if REASON is empty, else FAIL with the reason
verdict() { if [ -z "$2" ]; then ok "$1"; else bad "$1: $2"; fi; }

# Statistics that legitimately differ between the functional core and a
# timing model, from the stats.txt of each (everything else the functional
# run writes must be equal under every model):
#   simCycles                 one per instruction on the functional core
#   hostSeconds, hostMIPS     host time
#   cpu.cycles, cpu.ipc, cpu.cpi, cpu.stallCycles::*, cpu.branchMispredicts,
#   cpu.decodeRedirects, cpu.writeBufferStallCycles, cpu.ooo.*
#                             the timing model's own (not in functional runs)
#   l1i.* l1d.* l2.* itlb.* dtlb.* wbuf.* bpred.*
#                             caches, TLBs, write buffer, predictors (idem)
timing_re='^(host|simCycles$|cpu\.(cycles|ipc|cpi|stallCycles|branchMispredicts|decodeRedirects|writeBufferStallCycles|ooo\.)|(l1i|l1d|l2|itlb|dtlb|wbuf|bpred)\.)'
# fields of a functional run that must never be 0 on a real program
nonzero_fields="simInsts cpu.branches.conditional cpu.branches.taken cpu.calls cpu.returns
cpu.loads cpu.stores mem.uniqueWords prog.methods prog.callSites prog.callSitesExecuted
prog.callPairs prog.methodsCalled"

# st KEY FILE: one value of a stats.txt file (empty if absent)
st() { [ -f "$2" ] && awk -v k="$1" '$1 == k && / # / { v = $2 } END { if (v != "") print v }' "$2"; }
# first line of a file, for reasons
first() { head -1 "$1" 2>/dev/null | cut -c1-160; }
# run P ARGS...: hps-sim ARGS with stdin /dev/null, stdout P.out, stderr
# P.err, status in $rc (stdout is a file in every run: glibc buffers a
# terminal or /dev/null differently, which changes the instruction count)
run() { local p=$1; shift; "$sim" "$@" </dev/null >"$p.out" 2>"$p.err"; rc=$?; }
# same_output WHAT P: the run P printed what the plain functional run did
same_output() {
    local r=""
    if [ "$rc" != "$ref_rc" ]; then r="status $rc, functional $ref_rc: $(first "$1.err")"
    elif ! cmp -s "$2.out" "$ref.out"; then r="stdout differs from functional's ($(cmp "$2.out" "$ref.out" 2>&1 | head -1))"
    fi
    verdict "$1: stdout and status are the functional run's" "$r"
}
# refused WHAT P: status 2, a one-line message, nothing run
refused() {
    local r=""
    if [ "$rc" != 2 ]; then r="status $rc, expected 2"
    elif [ "$(wc -l <"$2.err")" != 1 ]; then r="stderr has $(wc -l <"$2.err") lines, expected one: $(first "$2.err")"
    elif [ -s "$2.out" ]; then r="the program ran (stdout not empty)"
    fi
    verdict "$1: refused with status 2 and one line" "$r"
}
# same_bits WHAT A B: two reports or statistics files equal but for the
# command line and the host's time
same_bits() {
    verdict "$1" "$(diff <(grep -Ev '^# command:|^host' "$2") <(grep -Ev '^# command:|^host' "$3") |
                     head -2 | tr '\n' ' ')"
}
# stats_diff REF FILE [SKIP_RE]: the timing-independent fields of REF (but
# those matching SKIP_RE) that FILE lacks or has with another value ("" when
# all agree)
stats_diff() {
    [ -s "$2" ] || { echo "no statistics written"; return; }
    awk -v ex="$timing_re" -v skip="${3:-^$}" '
        FNR == NR { if (/ # / && $1 !~ ex && $1 !~ skip) { want[$1] = $2; order[n++] = $1 } next }
        / # / { got[$1] = $2 }
        END {
            for (i = 0; i < n; i++) {
                k = order[i]
                if (!(k in got)) { d++; if (d <= 5) s = s " " k " missing"
                                   if (k ~ /^(mem\.uniqueWords|prog\.callPairs|prog\.methodsCalled)$/) gt++ }
                else if (got[k] != want[k]) { d++; if (d <= 5) s = s " " k " " want[k] "->" got[k] }
            }
            if (d) printf "%d of %d fields differ:%s%s%s\n", d, n, s, (d > 5 ? " ..." : ""),
                (gt == 3 && d == 3 ? " (the ground-truth fields, left out as by --no-ground-truth)" : "")
        }' "$1" "$2"
}
# insn_lines FILE: trace lines without the result columns (register
# written, memory address): seq, pc, symbol, encoding, disassembly
insn_lines() { sed -E 's/  [^ =]+=0x[0-9a-f]{16}//; s/  \[0x[0-9a-f]+\]$//; s/ +$//' "$1"; }
# labels_of_trace FILE N: "pc: disassembly" of the first N trace lines,
# spaces collapsed, as a Kanata label
labels_of_trace() {
    insn_lines "$1" | head -"$2" | awk '{ pc = $2; sub(/^0+/, "", pc); $1 = $2 = $3 = $4 = ""
        sub(/^ +/, ""); print pc ": " $0 }'
}
# labels_of_kanata FILE: the labels of the retired instructions, in order
labels_of_kanata() {
    awk -F'\t' '$1 == "L" && $3 == 0 { l[$2] = $4 } $1 == "R" && $4 == 0 { print l[$2] }' "$1" |
        awk '{ sub(/^0+/, "", $1); $1 = $1; print }'   # pc without leading zeros, spaces collapsed
}
# tsv_rows FILE: the members of a --profile-out table
tsv_rows() { awk -F'\t' 'NR > 2' "$1"; }
# exact_profile FILE: kind, member, keys and exact count of every member, sorted
exact_profile() { tsv_rows "$1" | cut -f1-5 | sort; }
# profile_exact WHAT TSV REF_TSV: the exhaustive profile has members,
# sampled == exact for each, and (REF_TSV given) is the functional one
profile_exact() {
    local r="" n e d
    if [ ! -s "$2" ]; then r="no --profile-out table"
    else
        n=$(tsv_rows "$2" | wc -l)
        e=$(tsv_rows "$2" | awk -F'\t' '{ s += $5 } END { print s + 0 }')
        d=$(tsv_rows "$2" | awk -F'\t' '$5 != $6 { n++; if (n == 1) m = $2 " exact " $5 " sampled " $6 } END { if (n) print n " members differ, e.g. " m }')
        if [ "$n" = 0 ] || [ "$e" = 0 ]; then r="empty profile ($n members, $e events)"
        elif [ -n "$d" ]; then r="$d"
        elif [ -n "${3:-}" ] && ! cmp -s <(exact_profile "$2") <(exact_profile "$3"); then
            r="exact profile differs from functional's ($(diff <(exact_profile "$3") <(exact_profile "$2") | grep -c '^[<>]') lines)"
        fi
    fi
    verdict "$1: ${n:-0} members, every sampled count == exact (${e:-0} events)${3:+, same as functional}" "$r"
}
# db_samples DB: cycles samples in the newest epoch of a DCPI database
db_samples() { "$prof" "$1" 2>/dev/null | awk '$1 == "cycles" && NF == 3 { print $2; exit }'; }
# db_all_samples DB: samples of every event in the newest epoch
db_all_samples() { "$prof" "$1" 2>/dev/null |
    awk 'NF == 3 && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+-[0-9]+$/ { s += $2 } END { print s + 0 }'; }
# dcpi_db WHAT DB STATS REPORT: the database holds the program's profile,
# every sample the driver took but those outside every image or lost
# (dcpi.* of STATS), as many as REPORT's counter interrupts
dcpi_db() {
    local img s all taken unk lost ints r=""
    img=$(ls -d "$2"/epoch-0001/"$workload".* 2>/dev/null | head -1)
    s=$(db_samples "$2"); all=$(db_all_samples "$2")
    taken=$(st dcpi.samples "$3"); unk=$(st dcpi.unknownImageSamples "$3"); lost=$(st dcpi.lostSamples "$3")
    ints=$(grep -E '^ +counter [0-9]+: .* [0-9]+ interrupts' "$4" 2>/dev/null |
           grep -oE '[0-9]+ interrupts' | awk '{ s += $1 } END { print s + 0 }')
    if [ -z "$img" ] || [ ! -s "$img/cycles" ]; then r="no epoch-0001/$workload.*/cycles in the database"
    elif ! grep -qxF "$(cd "$(dirname "$prog")" && pwd)/$workload" "$img/path"; then r="image path $(first "$img/path")"
    elif [ -z "$s" ] || [ "$s" = 0 ]; then r="hps-dcpiprof finds ${s:-no} cycles samples"
    elif [ -z "$taken" ] || [ "$taken" != "$ints" ]; then r="dcpi.samples ${taken:-missing}, the report's interrupts $ints"
    elif [ "$all" != $((taken - ${unk:-0} - ${lost:-0})) ]; then
        r="$all samples in the database, the driver took $taken, ${unk:-?} outside every image, ${lost:-?} lost"
    fi
    verdict "$1: the database holds the program's profile, $s cycles samples, $all in all (= dcpi.samples $taken - ${unk:-?} outside the images - ${lost:-?} lost)" "$r"
}
# dcpi_export WHAT DB: hps-dcpiprof --export of the database in each format
# holds its samples: folded stacks sum to the cycles samples, the callgrind
# and pprof files hold every event's (callgrind_annotate's totals, the
# pprof sample values decoded by protoc; tests/dcpitools checks the
# formats in depth)
dcpi_export() {
    local s r="" f t want
    s=$(db_samples "$2")
    want=$("$prof" "$2" 2>/dev/null | awk 'NF == 3 && $2 ~ /^[0-9]+$/ && $3 ~ /^[0-9]+-[0-9]+$/ { printf "%s%s", sep, $2; sep = " " }')
    for f in folded callgrind pprof; do
        "$prof" --export $f -o "$2.$f" "$2" 2>"$2.err" || { r="--export $f: $(first "$2.err")"; break; }
    done
    if [ -z "$r" ]; then
        t=$(awk '{ s += $NF } END { print s + 0 }' "$2.folded")
        [ "$t" = "$s" ] || r="folded stacks sum to $t, the database has $s cycles samples"
    fi
    if [ -z "$r" ]; then
        t=$(callgrind_annotate --auto=no "$2.callgrind" 2>/dev/null | awk '/PROGRAM TOTALS/ {
              for (i = 1; i < NF; i++) if ($i ~ /^[0-9,]+$/) { gsub(",", "", $i); printf "%s%s", sep, $i; sep = " " }; exit }')
        [ "$t" = "$want" ] || r="callgrind_annotate totals '$t', the database '$want'"
    fi
    if [ -z "$r" ]; then
        t=$(gzip -dc "$2.pprof" | protoc --proto_path=tests/dcpitools --decode=perftools.profiles.Profile \
                tests/dcpitools/profile.proto 2>/dev/null |
            awk '/^sample \{/ { i = 0 } /^  value:/ { v[i++] += $2; if (i > n) n = i }
                 END { for (k = 0; k < n; k++) printf "%s%d", k ? " " : "", v[k] }')
        [ "$t" = "$want" ] || r="pprof sample values '$t', the database '$want'"
    fi
    verdict "$1: --export folded, callgrind and pprof hold the database's samples ($want)" "$r"
}
# profiled_stats WHAT STATS: profiling leaves the program's statistics
# alone (every timing-independent field of the functional run but
# sim.runtimeInsts, the instructions profiling added, which are counted)
profiled_stats() {
    local ri; ri=$(st sim.runtimeInsts "$2")
    verdict "$1: the program's statistics are the functional run's, ${ri:-no} profiling instructions apart" \
        "$(stats_diff "$fst" "$2" '^sim\.runtimeInsts$')$( [ -n "$ri" ] && [ "$ri" != 0 ] || echo " sim.runtimeInsts ${ri:-missing}")"
}

for isa in rv64 alpha-static; do
    prog=$wl/$isa/$workload
    if [ ! -x "$prog" ]; then
        bad "$isa: no $prog (make BUILD=$build workloads)"; continue
    fi
    d=$tmp/$isa; mkdir -p "$d"
    ref=$d/ref
    run "$ref" "$prog" test; ref_rc=$rc
    verdict "$isa: the plain functional run of $workload test prints $(wc -l <"$ref.out") lines (status $ref_rc)" \
        "$( [ -s "$ref.out" ] || echo "no output: $(first "$ref.err")")"
    # functional comes first: its files are the references of the timing models
    fst=$d/functional.stats.txt; ftr=$d/functional.trace.txt; fev=""
    for model in $models; do
        cfg=(); [ $model = functional ] || cfg=(--config $model)
        c=$d/$model; L="$isa $model"
        timing=1; [ $model = functional ] && timing=0

        # ---- stats ------------------------------------------------------------------
        run "$c.stats" "${cfg[@]}" --stats "$c.stats.txt" "$prog" test
        same_output "$L stats" "$c.stats"
        cycles=$(st cpu.cycles "$c.stats.txt")
        if [ $timing = 0 ]; then
            r=""
            for k in $nonzero_fields; do
                v=$(st "$k" "$fst")
                [ -n "$v" ] && [ "$v" != 0 ] || r="$r $k=${v:-missing}"
            done
            verdict "$L stats: $(grep -c ' # ' "$fst" 2>/dev/null) fields, $(st simInsts "$fst") instructions, the program's counts non-zero" \
                "${r:+zero or missing:$r}"
        else
            r=$(stats_diff "$fst" "$c.stats.txt")
            verdict "$L stats: every timing-independent field equals functional's" "$r"
            verdict "$L stats: cpu.cycles ${cycles:-missing} > 0 and simCycles agrees" \
                "$( { [ -n "$cycles" ] && [ "$cycles" != 0 ]; } || echo "cpu.cycles ${cycles:-missing}")$(
                    [ "$(st simCycles "$c.stats.txt")" = "$cycles" ] || echo " simCycles $(st simCycles "$c.stats.txt")")"
        fi

        # ---- trace ------------------------------------------------------------------
        run "$c.trace" "${cfg[@]}" --trace "$c.trace.txt" --trace-limit $trace_limit \
            --stats "$c.trace.stats" "$prog" test
        same_output "$L trace" "$c.trace"
        n=$(grep -cE '^ *[0-9]+  [0-9a-f]{10}  [^ ]+ +[0-9a-f]{4,8}  [a-z]' "$c.trace.txt" 2>/dev/null)
        all=$(wc -l <"$c.trace.txt" 2>/dev/null)
        verdict "$L trace: exactly $trace_limit instruction lines" \
            "$( [ "${n:-0}" = $trace_limit ] && [ "${all:-0}" = $trace_limit ] || echo "${all:-no file} lines, ${n:-0} of them instructions")"
        if [ $timing = 1 ]; then
            if [ ! -s "$c.trace.txt" ]; then r="the trace is empty"
            elif cmp -s <(insn_lines "$c.trace.txt") <(insn_lines "$ftr"); then r=""
            else r="differs from functional's at line $(cmp <(insn_lines "$c.trace.txt") <(insn_lines "$ftr") 2>&1 |
                 grep -oE 'line [0-9]+|EOF on [^ ]+' | head -1)"; fi
            verdict "$L trace: the same instructions as functional (pc, symbol, encoding, disassembly)" "$r"
            verdict "$L trace: --trace leaves the cycles alone ($(st cpu.cycles "$c.trace.stats") = ${cycles:-?})" \
                "$( [ -n "$cycles" ] && [ "$(st cpu.cycles "$c.trace.stats")" = "$cycles" ] || echo differ)"
        fi

        # ---- ground truth -------------------------------------------------------------------
        run "$c.gt" "${cfg[@]}" --ground-truth "$c.gt.txt" --stats "$c.gt.stats" "$prog" test
        if [ $timing = 0 ]; then
            refused "$L ground-truth" "$c.gt"
        else
            same_output "$L ground-truth" "$c.gt"
            rows=$(grep -c '^0x' "$c.gt.txt" 2>/dev/null)
            tot=$(grep -E '^# total: cycles [0-9]+ = head_cycles [0-9]+ \+ drain [0-9]+' "$c.gt.txt" 2>/dev/null |
                  sed -E 's/^# total: cycles ([0-9]+) = head_cycles ([0-9]+) \+ drain ([0-9]+).*/\1 \2 \3/')
            read -r C H D <<<"${tot:-- - -}"
            gc=$(st cpu.cycles "$c.gt.stats")
            r=""
            if [ "${rows:-0}" = 0 ]; then r="no rows"
            elif [ -z "$tot" ]; then r="no '# total: cycles C = head_cycles H + drain D' line"
            elif [ "$C" != $((H + D)) ]; then r="$C != $H + $D"
            elif [ "$C" != "$gc" ] || [ "$C" = 0 ]; then r="total $C, cpu.cycles ${gc:-missing}"
            fi
            verdict "$L ground-truth: $rows rows, total cycles $C = head $H + drain $D = cpu.cycles" "$r"
            read -r sc sh <<<"$(awk -F'\t' '/^0x/ { n += $3; h += $4 } END { print n + 0, h + 0 }' "$c.gt.txt" 2>/dev/null)"
            si=$(st simInsts "$c.gt.stats")
            # (the last instruction, the exit system call, may end the run unissued)
            verdict "$L ground-truth: rows add up to head_cycles ($sh) and the instructions ($sc of ${si:-?})" \
                "$( [ "$sh" = "$H" ] || echo "head_cycles column sums to $sh, total line says $H"
                    [ -n "$si" ] && [ "$sc" -le "$si" ] && [ "$sc" -ge $((si - 1)) ] || echo "count column sums to $sc, simInsts ${si:-missing}")"
            verdict "$L ground-truth: --ground-truth leaves the cycles alone ($gc = ${cycles:-?})" \
                "$( [ -n "$cycles" ] && [ "$gc" = "$cycles" ] || echo differ)"
        fi

        # ---- paths ---------------------------------------------------------------------------
        run "$c.paths" "${cfg[@]}" --paths "$c.paths.tsv" --report "$c.paths.rep" "$prog" test
        same_output "$L paths" "$c.paths"
        verdict "$L paths: $(tests/paths/check.py rows "$c.paths.tsv" 2>&1)" \
            "$(tests/paths/check.py rows "$c.paths.tsv" >/dev/null 2>&1 || echo "rows not exact")"
        if [ $model = functional ]; then cp "$c.paths.tsv" "$tmp/$isa.paths.functional.tsv" 2>/dev/null
        else
            verdict "$L paths: the functional run's paths and counts" \
                "$(tests/paths/check.py same "$tmp/$isa.paths.functional.tsv" "$c.paths.tsv" 2>&1 | grep -v ', same counts$')"
            pc=$(awk -F'\t' 'NR > 1 { c += $7 } END { print c + 0 }' "$c.paths.tsv" 2>/dev/null)
            verdict "$L paths: cycles on paths ($pc)" "$( [ "${pc:-0}" -gt 0 ] || echo "no cycles")"
        fi

        # ---- PP on DISE (tools/hps-pp-acf.c) --------------------------------------------------
        [ -s "$d/pp.acf" ] || "$build/hps-pp-acf" "$prog" >"$d/pp.acf" 2>"$d/pp.err"
        run "$c.pp" "${cfg[@]}" --handlers c --acf "$d/pp.acf" --no-baseline --paths "$c.pp.tsv" \
            --report "$c.pp.rep" "$prog" test
        same_output "$L pp-on-dise" "$c.pp"
        r=$(tests/paths/check.py dise "$c.pp.tsv" "$d/pp.acf" 2>&1)
        verdict "$L pp-on-dise: $r" "$(tests/paths/check.py dise "$c.pp.tsv" "$d/pp.acf" >/dev/null 2>&1 || echo "not exact")"
        # PP's CCT in the guest handlers (hps-pp-acf --cct, asm handlers): the paths
        # still exact, every guest context the run's with its call count (but one a
        # call from uninstrumented code makes: Alpha's crt)
        [ -s "$d/ppc.acf" ] || "$build/hps-pp-acf" --cct "$prog" >"$d/ppc.acf" 2>"$d/ppc.err"
        run "$c.ppc" "${cfg[@]}" --acf "$d/ppc.acf" --no-baseline --cct --paths "$c.ppc.tsv" \
            --report "$c.ppc.rep" "$prog" test
        same_output "$L pp-cct" "$c.ppc"
        verdict "$L pp-cct: paths exact" "$(tests/paths/check.py dise "$c.ppc.tsv" "$d/ppc.acf" >/dev/null 2>&1 || echo "not exact")"
        line=$(grep -E '^  against the exact CCT' "$c.ppc.rep" 2>/dev/null)
        read -r gn gm ge <<<"$(sed -E 's/.*: ([0-9]+) of the ([0-9]+) guest contexts are the run.s, ([0-9]+) of them.*/\2 \1 \3/' <<<"${line:-x}")"
        verdict "$L pp-cct: ${gm:-?} of ${gn:-?} guest contexts the run's, ${ge:-?} with the exact calls" \
            "$( [ -n "$line" ] && [ "$gm" = "$ge" ] && [ "$gm" -ge $((gn - 1)) ] || echo "${line:-no PP CCT section}")"

        # ---- pipeview -------------------------------------------------------------------------
        run "$c.pv" "${cfg[@]}" --pipeview "$c.pv.txt" --stats "$c.pv.stats" "$prog" test
        if [ $timing = 0 ]; then
            refused "$L pipeview" "$c.pv"
        else
            same_output "$L pipeview" "$c.pv"
            ni=$(grep -c '^I' "$c.pv.txt" 2>/dev/null)
            labels_of_kanata "$c.pv.txt" >"$c.pv.labels" 2>/dev/null
            nr=$(wc -l <"$c.pv.labels")
            labels_of_trace "$ftr" "$nr" >"$c.pv.want"
            r=""
            if [ "$(head -1 "$c.pv.txt" 2>/dev/null)" != "$(printf 'Kanata\t0004')" ]; then r="no Kanata header: $(first "$c.pv.txt")"
            elif [ "$nr" != $view_count ]; then r="$nr retired instructions ($ni I lines), expected $view_count"
            elif ! cmp -s "$c.pv.labels" "$c.pv.want"; then
                r="labels differ from the functional trace: $(diff "$c.pv.want" "$c.pv.labels" | grep '^[<>]' | head -2 | tr '\n' ' ')"
            fi
            verdict "$L pipeview: Kanata log of $nr retired instructions, the functional trace's first $view_count" "$r"
            verdict "$L pipeview: --pipeview leaves the cycles alone" \
                "$( [ -n "$cycles" ] && [ "$(st cpu.cycles "$c.pv.stats")" = "$cycles" ] || echo "$(st cpu.cycles "$c.pv.stats") != ${cycles:-?}")"
        fi

        # ---- acf ----------------------------------------------------------------------------
        for acf in hot_method_all hot_call_pair_all; do
            run "$c.$acf" "${cfg[@]}" --acf productions/$acf.acf --no-baseline --report "$c.$acf.rep" \
                --profile-out "$c.$acf.tsv" --stats "$c.$acf.stats" "$prog" test
            same_output "$L acf $acf" "$c.$acf"
            if [ $timing = 0 ]; then profile_exact "$L acf $acf" "$c.$acf.tsv"
            else profile_exact "$L acf $acf" "$c.$acf.tsv" "$d/functional.$acf.tsv"; fi
            profiled_stats "$L acf $acf" "$c.$acf.stats"
            verdict "$L acf $acf: the HPS report" \
                "$(grep -q '^==== hps-sim HPS report' "$c.$acf.rep" 2>/dev/null || echo "no report: $(first "$c.$acf.err")")"
        done
        # --handlers c: the C handlers take exactly the samples the default assembly ones do
        run "$c.chandlers" "${cfg[@]}" --acf productions/hot_method_all.acf --handlers c --no-baseline \
            --report "$c.chandlers.rep" --profile-out "$c.chandlers.tsv" "$prog" test
        same_output "$L acf --handlers c" "$c.chandlers"
        verdict "$L acf --handlers c: the same profile as --handlers asm" \
            "$( [ -s "$c.chandlers.tsv" ] && cmp -s "$c.chandlers.tsv" "$c.hot_method_all.tsv" ||
                echo "profiles differ or are missing: $(first "$c.chandlers.err")")"

        # ---- dcpi -----------------------------------------------------------------------------
        db=$d/$model.db
        run "$c.dcpi" "${cfg[@]}" --dcpi "$db" --stats "$c.dcpi.stats" "$prog" test
        if [ $timing = 0 ]; then
            refused "$L dcpi" "$c.dcpi"
        else
            same_output "$L dcpi" "$c.dcpi"
            dcpi_db "$L dcpi" "$db" "$c.dcpi.stats" "$c.dcpi.err"
            dcpi_export "$L dcpi" "$db"
            profiled_stats "$L dcpi" "$c.dcpi.stats"
            verdict "$L dcpi: the report on stderr, estimated cycles and accuracy" \
                "$(grep -q '^==== hps-sim DCPI report' "$c.dcpi.err" && grep -q '^estimated program cycles:' "$c.dcpi.err" &&
                   grep -q '^accuracy' "$c.dcpi.err" || echo "no report: $(first "$c.dcpi.err")")"
            # the PMU's own memoryless periods (pmu.period = geometric): the same checks
            run "$c.geo" "${cfg[@]}" --set pmu.period=geometric --set pmu.counter_bits=24 --dcpi "$d/$model.geo.db" \
                --stats "$c.geo.stats" "$prog" test
            same_output "$L dcpi geometric" "$c.geo"
            dcpi_db "$L dcpi geometric" "$d/$model.geo.db" "$c.geo.stats" "$c.geo.err"
            profiled_stats "$L dcpi geometric" "$c.geo.stats"
        fi

        # ---- dcpi + values ------------------------------------------------------------------------
        db=$d/$model.values.db
        run "$c.values" "${cfg[@]}" --dcpi "$db" --values all --no-baseline --stats "$c.values.stats" "$prog" test
        if [ $timing = 0 ]; then
            refused "$L values (--dcpi needs a timing model)" "$c.values"
        else
            same_output "$L values" "$c.values"
            profiled_stats "$L values" "$c.values.stats"
            vi=$(st values.interrupts "$c.values.stats"); vl=$(st values.lists "$c.values.stats")
            nrow=$(awk 'NR > 2' "$db/epoch-0001/values.tsv" 2>/dev/null | wc -l)
            verdict "$L values: ${vi:-no} value samples in ${vl:-no} hot lists, $nrow values.tsv rows, the report scored" \
                "$( [ -n "$vi" ] && [ "$vi" != 0 ] && [ -n "$vl" ] && [ "$vl" != 0 ] && [ "$nrow" -gt 0 ] || echo -n "no value samples; "
                   grep -q '^==== hps-sim value sampling report' "$c.values.err" && grep -q '^scored against the exact values' "$c.values.err" ||
                   echo "no report: $(first "$c.values.err")")"
        fi
        run "$c.acfvalues" "${cfg[@]}" --acf productions/hot_method_all.acf --dcpi "$d/$model.av.db" --values result "$prog" test
        refused "$L acf+values" "$c.acfvalues"
        # ---- cct and csprof (tests/cct) -------------------------------------------------------------
        run "$c.cct" "${cfg[@]}" --cct --cct-out callgrind:"$c.cct.cg" "$prog" test
        same_output "$L cct" "$c.cct"
        verdict "$L cct: the exact calling context tree printed and exported with calls" \
            "$(grep -qE '^exact calling context tree: [1-9][0-9]* contexts' "$c.cct.err" &&
               grep -q '^calls=' "$c.cct.cg" || echo "no tree: $(first "$c.cct.err")")"
        run "$c.csprof" "${cfg[@]}" --csprof cycles "$prog" test
        if [ $timing = 0 ]; then
            refused "$L csprof (needs a timing model)" "$c.csprof"
        else
            same_output "$L csprof" "$c.csprof"
            verdict "$L csprof: samples taken and scored against the exact tree" \
                "$(grep -qE '^  samples [1-9]' "$c.csprof.err" &&
                   grep -q 'whole calling context is right' "$c.csprof.err" || echo "no report: $(first "$c.csprof.err")")"
            verdict "$L csprof: the guest handlers' overhead is measured" \
                "$(grep -qE 'overhead \(measured, guest handlers\): [1-9]' "$c.csprof.err" ||
                   echo "no measured overhead: $(first "$c.csprof.err")")"
            run "$c.cshost" "${cfg[@]}" --csprof cycles --csprof-unwinder host "$prog" test
            same_output "$L csprof host unwinder" "$c.cshost"
            verdict "$L csprof host unwinder: its modelled overhead reported" \
                "$(grep -q 'overhead (modelled' "$c.cshost.err" || echo "no report: $(first "$c.cshost.err")")"
            run "$c.csacf" "${cfg[@]}" --csprof cycles --acf productions/hot_method_all.acf "$prog" test
            refused "$L csprof+acf" "$c.csacf"
        fi

        # ---- profileme + precise counters ----------------------------------------------------------
        db=$d/$model.pm.db
        run "$c.pm" "${cfg[@]}" --dcpi "$db" --profileme 1000:8 --dcpi-precise 2 \
            --dcpi-events cycles,dmiss,dtbmiss --no-baseline --stats "$c.pm.stats" "$prog" test
        if [ $timing = 0 ]; then
            refused "$L profileme" "$c.pm"
        else
            same_output "$L profileme" "$c.pm"
            pms=$("$prof" "$db" 2>/dev/null | awk '$1 == "profileme" && NF == 3 { print $2; exit }')
            pmi=$(st profileme.interrupts "$c.pm.stats")
            verdict "$L profileme: the report, profileme.tsv and ${pms:-no} samples in the database (= profileme.interrupts ${pmi:-missing})" \
                "$(grep -q '^==== ProfileMe' "$c.pm.err" && [ -s "$db/epoch-0001/profileme.tsv" ] &&
                   [ -n "$pms" ] && [ "$pms" != 0 ] && [ "$pms" = "$pmi" ] || echo "missing or unequal: $(first "$c.pm.err")")"
        fi

        # ---- acf + dcpi ---------------------------------------------------------------------------
        db=$d/$model.both.db
        run "$c.both" "${cfg[@]}" --acf productions/hot_method_all.acf --dcpi "$db" --report "$c.both.rep" \
            --profile-out "$c.both.tsv" --stats "$c.both.stats" "$prog" test
        if [ $timing = 0 ]; then
            refused "$L acf+dcpi (--dcpi needs a timing model)" "$c.both"
        elif [ $rc = 2 ]; then
            bad "$L acf+dcpi: refused (status 2): $(first "$c.both.err")"
        else
            same_output "$L acf+dcpi" "$c.both"
            cat "$c.both.rep" "$c.both.err" >"$c.both.all" 2>/dev/null
            verdict "$L acf+dcpi: both reports, HPS and DCPI" \
                "$(grep -q '^==== hps-sim HPS report' "$c.both.all" || echo -n "no HPS report; "
                   grep -q '^==== hps-sim DCPI report' "$c.both.all" || echo "no DCPI report")"
            profile_exact "$L acf+dcpi hot_method_all" "$c.both.tsv" "$d/functional.hot_method_all.tsv"
            dcpi_db "$L acf+dcpi" "$db" "$c.both.stats" "$c.both.all"
            profiled_stats "$L acf+dcpi" "$c.both.stats"
        fi

        # ---- -d scripted ------------------------------------------------------------------------
        # ('run' takes a count: 'c' is the shell's run to the end)
        printf 'c\nstats\nquit\n' | "$sim" -d "${cfg[@]}" --stats "$c.sh.stats" "$prog" test \
            >"$c.sh.out" 2>"$c.sh.err"; rc=${PIPESTATUS[1]}
        verdict "$L shell: -d ends with the program's status ($rc)" \
            "$( [ "$rc" = "$ref_rc" ] && grep -q "^program exited with status $ref_rc" "$c.sh.out" ||
                echo "status $rc, functional $ref_rc; $(grep -h -m1 -E 'exited|error|expected' "$c.sh.out" "$c.sh.err")")"
        awk '/^program exited/ { exit } on { print } /^next: / { on = 1 }' "$c.sh.out" >"$c.sh.guest"
        verdict "$L shell: the program's output is the functional run's" \
            "$(cmp -s "$c.sh.guest" "$ref.out" || echo "differs ($(wc -l <"$c.sh.guest") lines between the prompt and the exit, $(wc -l <"$ref.out") expected)")"
        si=$(awk '$1 == "instructions" { v = $2 } END { print v }' "$c.sh.out")
        sc=$(awk '$1 == "cpu.cycles" { v = $2 } END { print v }' "$c.sh.out")
        r=""
        [ -n "$si" ] && [ "$si" = "$(st simInsts "$fst")" ] || r="instructions ${si:-missing}, functional simInsts $(st simInsts "$fst")"
        [ $timing = 1 ] && { [ -n "$sc" ] && [ "$sc" = "$cycles" ] || r="$r cpu.cycles ${sc:-missing}, batch ${cycles:-?}"; }
        verdict "$L shell: stats prints the batch run's instructions${cycles:+ and cycles}" "$r"
        if [ ! -s "$c.sh.stats" ]; then
            bad "$L shell: --stats of an -d run: no file written"
        else
            verdict "$L shell: --stats of an -d run: every timing-independent field equals functional's" \
                "$(stats_diff "$fst" "$c.sh.stats")"
            [ $timing = 1 ] && verdict "$L shell: --stats of an -d run has the batch run's cycles" \
                "$( [ "$(st cpu.cycles "$c.sh.stats")" = "$cycles" ] || echo "$(st cpu.cycles "$c.sh.stats") != ${cycles:-?}")"
        fi

        # ---- cut short: --max-insts --------------------------------------------------------------------
        tr=$(st sim.truncated "$c.stats.txt")
        verdict "$L cut: a whole run has sim.truncated 0 and no --max-insts message" \
            "$( [ "$tr" = 0 ] || echo -n "sim.truncated ${tr:-missing}; "
                ! grep -q -- '--max-insts' "$c.stats.err" || echo "stderr: $(grep -m1 -- '--max-insts' "$c.stats.err")")"
        run "$c.cut" "${cfg[@]}" --max-insts $cut --stats "$c.cut.stats" "$prog" test
        tr=$(st sim.truncated "$c.cut.stats"); si=$(st simInsts "$c.cut.stats")
        verdict "$L cut: --max-insts $cut stops after $si instructions with sim.truncated ${tr:-missing} and says so" \
            "$( [ "$si" = $cut ] || echo -n "simInsts ${si:-missing}; "
                [ "$tr" = 1 ] || echo -n "sim.truncated ${tr:-missing}; "
                grep -q -- '--max-insts' "$c.cut.err" || echo "no line naming --max-insts on stderr (status $rc)")"
        run "$c.uncut" "${cfg[@]}" --max-insts 1G --stats "$c.uncut.stats" "$prog" test
        same_output "$L cut: --max-insts 1G" "$c.uncut"
        tr=$(st sim.truncated "$c.uncut.stats")
        verdict "$L cut: --max-insts beyond the end: sim.truncated ${tr:-missing}, no message" \
            "$( [ "$tr" = 0 ] || echo -n "sim.truncated ${tr:-missing}; "
                ! grep -q -- '--max-insts' "$c.uncut.err" || echo "stderr: $(grep -m1 -- '--max-insts' "$c.uncut.err")")"
        run "$c.cutacf" "${cfg[@]}" --max-insts $cut --acf productions/hot_method_all.acf \
            --report "$c.cutacf.rep" --stats "$c.cutacf.stats" "$prog" test
        S=$c.cutacf.stats
        tr=$(st sim.truncated "$S"); si=$(st simInsts "$S")
        verdict "$L cut: with --acf, simInsts $si = $cut, sim.truncated ${tr:-missing}, the message" \
            "$( [ "$si" = $cut ] || echo -n "simInsts ${si:-missing}; "
                [ "$tr" = 1 ] || echo -n "sim.truncated ${tr:-missing}; "
                grep -q -- '--max-insts' "$c.cutacf.err" || echo "no line naming --max-insts on stderr (status $rc)")"
        hc=$(st hps.cycles "$S"); hb=$(st hps.baseCycles "$S"); pc=$(st simCycles "$c.cut.stats")
        verdict "$L cut: with --acf, the baseline is the plain cut run ($hb = $pc cycles) and the ACF adds cycles ($hc)" \
            "$( [ -n "$hb" ] && [ "$hb" = "$pc" ] || echo -n "baseline ${hb:-missing} cycles, plain --max-insts run $pc; "
                [ -n "$hc" ] && [ -n "$hb" ] && [ "$hc" -gt "$hb" ] 2>/dev/null ||
                    echo "the ACF run took ${hc:-?} cycles, fewer than its baseline's ${hb:-?}: it stopped earlier in the program")"
        ev=$(st hps.events::method "$S"); sa=$(st hps.samples::method "$S")
        [ $timing = 0 ] && fev=$ev
        verdict "$L cut: with --acf, the exhaustive profile is still exact ($sa samples of $ev events${fev:+, functional $fev})" \
            "$( [ -n "$ev" ] && [ "$ev" != 0 ] && [ "$ev" = "$sa" ] || echo -n "samples ${sa:-missing} != events ${ev:-missing}; "
                [ "$ev" = "${fev:-}" ] || echo "events ${ev:-missing}, functional ${fev:-missing}")"
    done

    # ---- ooo.memdep on r10k ----------------------------------------------------------------
    for md in oracle conservative store_sets; do
        c=$d/memdep.$md; L="$isa r10k ooo.memdep=$md"
        run "$c" --config r10k --set ooo.memdep=$md --stats "$c.stats.txt" "$prog" test
        same_output "$L" "$c"
        w=$(st cpu.ooo.memdep.loadsWaited "$c.stats.txt")
        if [ $md = oracle ]; then
            verdict "$L: no cpu.ooo.memdep statistics" \
                "$(! grep -q '^cpu\.ooo\.memdep\.' "$c.stats.txt" || grep -m1 '^cpu\.ooo\.memdep\.' "$c.stats.txt")"
        else
            verdict "$L: cpu.ooo.memdep.loadsWaited ${w:-missing} > 0" \
                "$( [ -n "$w" ] && [ "$w" -gt 0 ] || echo "loads held back: ${w:-missing}")"
        fi
        if [ $md = store_sets ]; then
            v=$(st cpu.ooo.memdep.violations "$c.stats.txt"); ri=$(st cpu.ooo.memdep.replayedInsts "$c.stats.txt")
            verdict "$L: violations ${v:-missing}, replayed instructions ${ri:-missing} >= violations" \
                "$( [ -n "$v" ] && [ -n "$ri" ] && [ "$ri" -ge "$v" ] || echo "statistics missing or inconsistent")"
        fi
    done
    # ---- ooo.wrong_path on r10k (hps has it on in every cell above) -------------------------
    for wp in on off; do
        c=$d/wrongpath.$wp; L="$isa r10k ooo.wrong_path=$wp"
        run "$c" --config r10k --set ooo.wrong_path=$wp --stats "$c.stats.txt" "$prog" test
        same_output "$L" "$c"
        f=$(st cpu.ooo.wrongPath.fetched "$c.stats.txt"); si=$(st simInsts "$c.stats.txt")
        if [ $wp = off ]; then
            verdict "$L: no cpu.ooo.wrongPath statistics" \
                "$(! grep -q '^cpu\.ooo\.wrongPath\.' "$c.stats.txt" || grep -m1 '^cpu\.ooo\.wrongPath\.' "$c.stats.txt")"
        else
            verdict "$L: wrong-path instructions fetched ${f:-missing} > 0, simInsts ${si:-missing} as functional" \
                "$( [ -n "$f" ] && [ "$f" -gt 0 ] || echo -n "fetched ${f:-missing}; "
                    [ "$si" = "$(st simInsts "$fst")" ] || echo "simInsts differs from the functional run's")"
        fi
    done
    # DISE on the wrong path: an ACF whose productions match loads and stores (its
    # instructions run through DISE's wrapper, which the wrong path must never
    # call) gives, with the wrong path on, the output and exact profile of the
    # functional run with the same ACF
    c=$d/wrongpath.acf; L="$isa r10k ooo.wrong_path=on --acf hot_data_stream_all"
    run "$c.fn" --acf productions/hot_data_stream_all.acf --no-baseline --report /dev/null \
        --profile-out "$c.fn.tsv" "$prog" test
    run "$c" --config r10k --set ooo.wrong_path=on --acf productions/hot_data_stream_all.acf \
        --no-baseline --report /dev/null --profile-out "$c.tsv" "$prog" test
    same_output "$L" "$c"
    verdict "$L: the exact profile is the functional run's ($(tsv_rows "$c.fn.tsv" 2>/dev/null | wc -l) members)" \
        "$( [ -s "$c.fn.tsv" ] && [ "$(exact_profile "$c.tsv")" = "$(exact_profile "$c.fn.tsv")" ] ||
            echo "profiles differ or are missing")"
    # dise.spec_counters under hps (the wrong path matches and expands DISE): with the
    # sampling hot_method.acf, checkpoint takes the functional run's samples; leak keeps
    # the output and the exact profile (its samples may differ: dise/README.md)
    c=$d/spec; L="$isa hps --acf hot_method dise.spec_counters"
    run "$c.fn" --acf productions/hot_method.acf --no-baseline --report /dev/null \
        --profile-out "$c.fn.tsv" "$prog" test
    for m in checkpoint leak; do
        run "$c.$m" --config hps --set dise.spec_counters=$m --acf productions/hot_method.acf \
            --no-baseline --report /dev/null --profile-out "$c.$m.tsv" "$prog" test
        same_output "$L=$m" "$c.$m"
        verdict "$L=$m: the exact profile is the functional run's" \
            "$( [ -s "$c.fn.tsv" ] && [ "$(exact_profile "$c.$m.tsv")" = "$(exact_profile "$c.fn.tsv")" ] ||
                echo "exact profiles differ or are missing")"
    done
    verdict "$L=checkpoint: the samples are the functional run's" \
        "$( [ -s "$c.fn.tsv" ] && cmp -s <(tsv_rows "$c.checkpoint.tsv" | sort) <(tsv_rows "$c.fn.tsv" | sort) ||
            echo "sampled profiles differ or are missing")"
    for bad_set in ooo.memdep=speculative ooo.ssit_entries=1000 ooo.wrong_path=maybe \
                   dise.spec_counters=maybe; do
        run "$d/memdep.bad" --config r10k --set $bad_set "$prog" test
        refused "$isa r10k --set $bad_set" "$d/memdep.bad"
    done

    # ---- --thread-quantum (threaded programs: tests/threads) ----------------------------------
    run "$d/quantum" --thread-quantum 1000 --stats "$d/quantum.stats" "$prog" test
    same_output "$isa --thread-quantum 1000 (one thread)" "$d/quantum"
    verdict "$isa --thread-quantum 1000: the statistics are the functional run's (no thread made)" \
        "$(stats_diff "$fst" "$d/quantum.stats")"
    run "$d/quantum.bad" --thread-quantum 0 "$prog" test
    refused "$isa --thread-quantum 0" "$d/quantum.bad"

    # ---- --sample (sampled simulation; tests/sample) -------------------------------------------
    for model in $models; do
        c=$d/$model.sample; L="$isa $model --sample 20k"
        cfg=(); [ $model = functional ] || cfg=(--config $model)
        run "$c" "${cfg[@]}" --sample 20k --stats "$c.stats.txt" "$prog" test
        if [ $model = functional ]; then refused "$L" "$c"; continue; fi
        same_output "$L" "$c"
        verdict "$L stats: every timing-independent field equals functional's" \
            "$(stats_diff "$fst" "$c.stats.txt")"
        u=$(st sample.units "$c.stats.txt"); cyc=$(st cpu.cycles "$c.stats.txt")
        verdict "$L: ${u:-no} units, cpu.cycles ${cyc:-missing} = simCycles = sample.estCycles > 0" \
            "$( { [ -n "$u" ] && [ "$u" -gt 0 ]; } || echo -n "no unit measured; "
                { [ -n "$cyc" ] && [ "$cyc" -gt 0 ] && [ "$(st simCycles "$c.stats.txt")" = "$cyc" ] &&
                  [ "$(st sample.estCycles "$c.stats.txt")" = "$cyc" ]; } || echo "cycles disagree")"
    done
    run "$d/sample.acf" --config ev5 --sample 20k --acf productions/hot_method.acf "$prog" test
    refused "$isa ev5 --sample 20k --acf" "$d/sample.acf"
    # ---- the translator (the default; --jit asks for it, --no-jit for the block loop) ----------
    # (tests/diff and tests/blocks run both loops too under make test)
    j=$d/jit
    run "$j" --jit "$prog" test
    same_output "$isa functional --jit" "$j"
    run "$j.plain" --no-jit --stats "$j.plain.stats" --no-ground-truth "$prog" test
    same_output "$isa functional --no-jit --stats --no-ground-truth" "$j.plain"
    run "$j.st" --jit --stats "$j.st.stats" --no-ground-truth "$prog" test
    same_output "$isa functional --jit --stats --no-ground-truth" "$j.st"
    same_bits "$isa --jit: the statistics are the block loop's" "$j.plain.stats" "$j.st.stats"
    run "$j.dst" --stats "$j.dst.stats" --no-ground-truth "$prog" test
    same_output "$isa functional --stats --no-ground-truth (default)" "$j.dst"
    same_bits "$isa default: the statistics are the block loop's (--no-jit)" "$j.plain.stats" \
        "$j.dst.stats"
    run "$j.acf0" --no-jit --acf productions/hot_method_all.acf --report "$j.acf0.rep" "$prog" test
    run "$j.acf" --jit --acf productions/hot_method_all.acf --report "$j.acf.rep" "$prog" test
    same_output "$isa functional --jit --acf hot_method_all" "$j.acf"
    same_bits "$isa --jit --acf: the report is the block loop's" "$j.acf0.rep" "$j.acf.rep"
    run "$j.acfd" --acf productions/hot_method_all.acf --report "$j.acfd.rep" "$prog" test
    same_output "$isa functional --acf hot_method_all (default)" "$j.acfd"
    same_bits "$isa --acf (default): the report is the block loop's" "$j.acf0.rep" "$j.acfd.rep"
    # the default with sampling ACFs (the translator runs DISE's classified
    # instructions): hot_method in bursts of 10 at 1/100 and hot_data_stream,
    # whole (with the recorder) and cut by --max-insts: the report, the
    # profile, the statistics and the stdout are the block loop's
    for a in hot_method hot_data_stream; do
        for cutarg in "" "--max-insts $cut"; do
            t=$j.s$a${cutarg:+.cut}; what="$isa --acf $a --rate 1/100 --burst 10${cutarg:+ $cutarg}"
            run "$t.0" --no-jit $cutarg --acf productions/$a.acf --rate 1/100 --burst 10 \
                --report "$t.0.rep" --profile-out "$t.0.tsv" --stats "$t.0.stats" "$prog" test; rc0=$rc
            run "$t" $cutarg --acf productions/$a.acf --rate 1/100 --burst 10 \
                --report "$t.rep" --profile-out "$t.tsv" --stats "$t.stats" "$prog" test
            verdict "$what (default): stdout, status, report, profile and statistics are the block loop's" \
                "$( [ "$rc" = "$rc0" ] || echo -n "status $rc, --no-jit $rc0; "
                    cmp -s "$t.out" "$t.0.out" || echo -n "stdout differs; "
                    [ -s "$t.tsv" ] && cmp -s "$t.tsv" "$t.0.tsv" || echo -n "profile missing or differs; "
                    diff <(grep -Ev '^# command:|^host|[Hh]ost time' "$t.0.rep") \
                         <(grep -Ev '^# command:|^host|[Hh]ost time' "$t.rep") >/dev/null || echo -n "report differs; "
                    diff <(grep -Ev '^# command:|^host' "$t.0.stats") \
                         <(grep -Ev '^# command:|^host' "$t.stats") >/dev/null || echo "statistics differ")"
        done
    done
    run "$j.cut" --jit --max-insts $cut --stats "$j.cut.stats" --no-ground-truth "$prog" test
    verdict "$isa --jit --max-insts $cut: exactly $cut program instructions" \
        "$( [ "$(st simInsts "$j.cut.stats")" = "$cut" ] || echo "simInsts $(st simInsts "$j.cut.stats")")"
    run "$j.cutd" --max-insts $cut --stats "$j.cutd.stats" "$prog" test; rc_d=$rc
    run "$j.cutn" --no-jit --max-insts $cut --stats "$j.cutn.stats" "$prog" test
    verdict "$isa --max-insts $cut, default and --no-jit: the same stdout, status and statistics" \
        "$( [ "$rc_d" = "$rc" ] || echo -n "status $rc_d, --no-jit $rc; "
            [ "$(st simInsts "$j.cutd.stats")" = "$cut" ] || echo -n "simInsts $(st simInsts "$j.cutd.stats"); "
            cmp -s "$j.cutd.out" "$j.cutn.out" || echo -n "stdout differs; "
            diff <(grep -Ev '^# command:|^host' "$j.cutd.stats") \
                 <(grep -Ev '^# command:|^host' "$j.cutn.stats") >/dev/null || echo "statistics differ")"
    for m in $models; do
        [ $m = functional ] && continue
        run "$j.$m" --jit --config $m "$prog" test
        refused "$isa $m --jit" "$j.$m"
    done
    run "$j.nj" --no-jit --config ev5 --stats "$j.nj.stats" "$prog" test
    same_output "$isa ev5 --no-jit" "$j.nj"
    verdict "$isa ev5 --no-jit: the statistics are ev5's" \
        "$(diff <(grep -Ev '^# command:|^host' "$d/ev5.stats.txt") \
                <(grep -Ev '^# command:|^host' "$j.nj.stats") | head -2 | tr '\n' ' ')"
    run "$j.both" --jit --no-jit "$prog" test
    refused "$isa --jit --no-jit" "$j.both"
    run "$j.d" --jit -d "$prog" test
    refused "$isa --jit -d" "$j.d"
    run "$j.tr" --jit --trace "$j.tr.trace" "$prog" test
    refused "$isa --jit --trace" "$j.tr"
    # with the ground-truth recorder (the default with --stats): its statistics
    # (unique words, call pairs) and the JSON form the block loop's, and the
    # default's (the functional run above) too
    run "$j.gt" --jit --stats "$j.gt.stats" --stats-json "$j.gt.json" "$prog" test
    same_output "$isa functional --jit --stats (ground truth)" "$j.gt"
    run "$j.gt0" --no-jit --stats "$j.gt0.stats" --stats-json "$j.gt0.json" "$prog" test
    same_output "$isa functional --no-jit --stats (ground truth)" "$j.gt0"
    same_bits "$isa --jit --stats: the block loop's, with the recorder" "$j.gt0.stats" "$j.gt.stats"
    same_bits "$isa default --stats: the block loop's, with the recorder" "$j.gt0.stats" "$fst"
    verdict "$isa --jit --stats-json: the block loop's, with the recorder" \
        "$(diff <(grep -Ev '"(command|argv)"|"host' "$j.gt0.json") \
                <(grep -Ev '"(command|argv)"|"host' "$j.gt.json") | head -2 | tr '\n' ' ')"
    # ---- checkpoints (tests/checkpoint has the rest) -------------------------------------------
    # a checkpoint 2M instructions before the end, restored under every model
    # and with --acf and --dcpi: the output (both halves) and the program
    # instructions are the functional run's
    fin=$(st simInsts "$fst"); at=$(( fin - 2000000 )); ck=$d/ckpt
    run "$ck.head" --checkpoint-at $at --checkpoint-out "$ck.ck" "$prog" test
    verdict "$isa --checkpoint-at $at: written" "$( [ $rc = 0 ] && [ -s "$ck.ck" ] || first "$ck.head.err")"
    for m in $models; do
        c=$ck.$m
        if [ $m = functional ]; then run "$c.tail" --restore "$ck.ck" --stats "$c.stats" "$prog" test
        else run "$c.tail" --config $m --restore "$ck.ck" --stats "$c.stats" "$prog" test; fi
        cat "$ck.head.out" "$c.tail.out" >"$c.out"; cp "$c.tail.err" "$c.err"
        same_output "$isa $m --restore (checkpoint at $at)" "$c"
        verdict "$isa $m --restore: simInsts is the functional run's" \
            "$( [ "$(st simInsts "$c.stats")" = "$fin" ] || echo "simInsts $(st simInsts "$c.stats"), functional $fin")"
    done
    c=$ck.acf; run "$c.tail" --restore "$ck.ck" --acf productions/hot_method_all.acf --report "$c.rep" \
        "$prog" test
    cat "$ck.head.out" "$c.tail.out" >"$c.out"; cp "$c.tail.err" "$c.err"
    same_output "$isa --restore --acf hot_method_all" "$c"
    verdict "$isa --restore --acf: a report" "$( [ -s "$c.rep" ] || echo "no report")"
    c=$ck.dcpi; run "$c.tail" --config ev5 --restore "$ck.ck" --dcpi "$d/ckpt.db" --report "$c.rep" \
        "$prog" test
    cat "$ck.head.out" "$c.tail.out" >"$c.out"; cp "$c.tail.err" "$c.err"
    same_output "$isa ev5 --restore --dcpi" "$c"
    verdict "$isa ev5 --restore --dcpi: a report" "$( [ -s "$c.rep" ] || echo "no report")"
    run "$ck.bad1" --restore "$ck.ck" --cct "$prog" test
    refused "$isa --restore with --cct" "$ck.bad1"
    run "$ck.bad2" --config ev5 --checkpoint-at 5 --checkpoint-out "$ck.x" "$prog" test
    refused "$isa --checkpoint-at under ev5" "$ck.bad2"
    run "$ck.bad3" --checkpoint-at 5 "$prog" test
    refused "$isa --checkpoint-at without --checkpoint-out" "$ck.bad3"
done

echo "matrix: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
