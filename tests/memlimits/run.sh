#!/bin/bash
# tests/memlimits/run.sh BUILD_DIR - bounded memory (SECURITY.md, Memory):
#   guest      --guest-mem bounds every mapping: mremap growing in place, with
#              MAYMOVE, FIXED and DONTUNMAP, mmap and brk get ENOMEM past it
#              (the guest sees it as RLIMIT_AS, may lower it, never raise it);
#              a program whose segments (bss included) and stack do not fit
#              is refused with status 2, the 60 x 4 GiB bss ELF at once
#   jit        a JIT loop (map, write code, mprotect, call, unmap) holds the
#              same host memory after 10,000 iterations as after 1,000
#   code       host KiB per executed code page (dense straight-line code),
#              and past the decoded cache's bound (256 MiB) a code page costs
#              only its data; evicting decoded pages keeps the statistics
#   host       --host-mem 200M stops a guest touching 1 GiB with status 137
#              and a message naming the limit and what was being allocated;
#              statistics and reports are still written
#   options    bad sizes are bad input
# Peak host memory is the child's VmHWM (getrusage, peak_rss.py).
# Prints "ok ..." / "FAIL ..." per check and "memlimits: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
build=${1:-build}
sim=${HPS_SIM:-$build/hps-sim}
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-memlimits.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
stat_of() { awk -v k="$1" '$1 == k { print $2 }' "$2" | tail -1; }
# run OUT [hps-sim options...] PROG [args]: stdout in OUT, stderr in OUT.err, status in $rc
run() { local out=$1; shift; "$sim" "$@" >"$out" 2>"$out.err"; rc=$?; }
# peak [hps-sim options...] PROG [args]: hps-sim's peak RSS in KiB into $peak, status in $rc
peak() { read -r peak rc < <(/usr/bin/python3 tests/memlimits/peak_rss.py "$sim" "$@"); }
MiB=1048576

for isa in rv64 alpha-static; do
    g=$build/guest-mem/$isa
    if [ ! -x "$g/jit_loop" ]; then bad "$isa: guest programs not built (make BUILD=$build guests)"; continue; fi

    # ---- guest: the address-space limit
    run "$tmp/mremap" --guest-mem 64M "$g/mremap_limit"
    check "guest $isa: mremap in place, MAYMOVE, FIXED, DONTUNMAP past 64M: ENOMEM; within: moved ($(grep -c '^ok' "$tmp/mremap") checks)" \
        test $rc = 0 -a "$(grep -c '^FAIL' "$tmp/mremap")" = 0
    run "$tmp/until" --guest-mem 64M --stats "$tmp/until.stats" "$g/mmap_until"
    n=$(sed -n 's/^mapped \([0-9]*\) MiB, then ENOMEM.*/\1/p' "$tmp/until")
    peak_mapped=$(stat_of mem.guestPeakBytes "$tmp/until.stats")
    check "guest $isa: mmap until ENOMEM maps ${n:-?} MiB beside the program and stack, at most 64 MiB in all (${peak_mapped:-?} bytes)" \
        test -n "$n" -a "${n:-0}" -ge 50 -a "${n:-99}" -le 56 -a "${peak_mapped:-0}" -gt $((60 * MiB)) \
             -a "${peak_mapped:-999999999}" -le $((64 * MiB))
    check "guest $isa: the guest sees the limit as RLIMIT_AS" grep -q "RLIMIT_AS 64 MiB" "$tmp/until"
    check "guest $isa: unmapped space maps again" grep -qE "^mapped ([0-9]+) MiB again of \1 given" "$tmp/until"
    check "guest $isa: a lowered RLIMIT_AS holds" \
        grep -q "RLIMIT_AS 16 MiB: setrlimit 0, a 16 MiB mmap ENOMEM" "$tmp/until"
    check "guest $isa: RLIMIT_AS's hard limit cannot be raised (EPERM)" \
        grep -q "raising the hard limit: EPERM" "$tmp/until"
    run "$tmp/brk" --guest-mem 64M "$g/brk_limit"
    n=$(sed -n 's/^brk grew \([0-9]*\) MiB, then ENOMEM$/\1/p' "$tmp/brk")
    check "guest $isa: brk grows ${n:-?} MiB, then ENOMEM" test -n "$n" -a "${n:-0}" -ge 50 -a "${n:-99}" -le 56
    run "$tmp/bss" --guest-mem 64M "$g/big_bss"
    check "guest $isa: 128 MiB of bss under --guest-mem 64M: refused, status 2 ($rc)" \
        test $rc = 2 -a -s "$tmp/bss.err"
    check "guest $isa: ... with a message naming the need and the limit" \
        grep -q "needs 128.* of guest memory .* over the guest memory limit of 64 MiB (--guest-mem)" "$tmp/bss.err"
    run "$tmp/bss2" "$g/big_bss"
    check "guest $isa: the same program runs under the default limit" \
        test $rc = 0 -a "$(cat "$tmp/bss2")" = "big_bss: 1"
    run "$tmp/stack" --guest-mem 8M "$g/big_bss"
    check "guest $isa: the 8 MiB stack counts ($rc)" grep -q "8 MiB for the stack" "$tmp/stack.err"

    # ---- jit: map, run, unmap in a loop holds constant host memory (the same
    # options both times: the ground truth's own tables are not growth)
    peak --stats "$tmp/jit.stats" "$g/jit_loop" 1000; p1=$peak; r1=$rc
    peak --stats "$tmp/jit.stats" "$g/jit_loop" 10000; p10=$peak; r10=$rc
    check "jit $isa: 1,000 and 10,000 iterations run ($r1, $r10)" test "$r1" = 0 -a "$r10" = 0
    check "jit $isa: peak host memory ${p1} KiB after 1,000 iterations, ${p10} KiB after 10,000, ground truth on both times: no growth" \
        test $((p10 - p1)) -lt 2048 -a "$p10" -lt 65536
    run "$tmp/jit" "$g/jit_loop" 2000 3
    check "jit $isa: three pages an iteration compute the right sum" \
        grep -q "jit_loop: 2000 iterations, sum 2997000" "$tmp/jit"

    # ---- code: host memory per executed code page
    peak --no-ground-truth "$g/code_pages" 100; c1=$peak
    peak --no-ground-truth "$g/code_pages" 600; c6=$peak
    per=$(( (c6 - c1) / 500 ))
    check "code $isa: ${per} KiB of host memory per executed page of dense code (at most 160)" \
        test "$per" -gt 0 -a "$per" -le 160
    peak --no-ground-truth "$g/code_pages" 2200; c22=$peak
    peak --no-ground-truth "$g/code_pages" 3000; c30=$peak
    per=$(( (c30 - c22) / 800 ))
    check "code $isa: past the decoded cache's bound a code page costs ${per} KiB (at most 8; peak ${c30} KiB for 3000 pages)" \
        test "$per" -le 8 -a "$c30" -lt $((340 * 1024))
    run "$tmp/c1" --stats "$tmp/c1.stats" "$g/code_pages" 800 2
    run "$tmp/c2" --host-mem 64M --stats "$tmp/c2.stats" "$g/code_pages" 800 2
    ev=$(stat_of mem.decodedEvictions "$tmp/c2.stats")
    same=1
    for k in simInsts cpu.staticInstsExecuted prog.callSitesExecuted cpu.branches.conditional; do
        [ -n "$(stat_of $k "$tmp/c1.stats")" ] && [ "$(stat_of $k "$tmp/c1.stats")" = "$(stat_of $k "$tmp/c2.stats")" ] || same=0
    done
    check "code $isa: ${ev:-?} evictions of decoded pages under --host-mem 64M keep the statistics exact" \
        test "${ev:-0}" -gt 0 -a $same = 1 -a "$(stat_of mem.decodedEvictions "$tmp/c1.stats")" = 0

    # ---- host: --host-mem stops the guest, statistics and reports written
    peak --host-mem 200M --stats "$tmp/host.stats" "$g/touch_big" 1024
    check "host $isa: --host-mem 200M on a guest touching 1 GiB: status 137 ($rc), peak ${peak} KiB" \
        test "$rc" = 137 -a "$peak" -lt $((240 * 1024))
    check "host $isa: ... statistics written, within the limit" \
        test -n "$(stat_of simInsts "$tmp/host.stats")" -a \
             "$(stat_of hostMemPeakBytes "$tmp/host.stats")" -le $((200 * MiB))
    run "$tmp/host" --host-mem 200M "$g/touch_big" 1024
    check "host $isa: ... the message names the limit and what was being allocated" \
        grep -q "out of host memory: --host-mem 200 MiB reached: 4 KiB for a guest data page refused" "$tmp/host.err"
done

# The ELF of a few hundred bytes asking for 60 bss segments of 4 GiB.
/usr/bin/python3 tests/memlimits/huge_bss_elf.py "$tmp/huge.elf" 60
start=$(date +%s%N)
run "$tmp/huge" "$tmp/huge.elf"
ms=$(( ($(date +%s%N) - start) / 1000000 ))
check "guest: 60 bss segments of 4 GiB: refused with status 2 ($rc) in ${ms} ms, nothing mapped" \
    test $rc = 2 -a $ms -lt 2000
check "guest: ... the message says 240 GiB over the 16 GiB limit" \
    grep -q "needs 240.0 GiB of guest memory .* over the guest memory limit of 16 GiB (--guest-mem)" "$tmp/huge.err"
/usr/bin/python3 tests/memlimits/huge_bss_elf.py "$tmp/one.elf" 1
run "$tmp/one" --stats "$tmp/one.stats" "$tmp/one.elf"
check "guest: one 4 GiB bss segment fits the default limit and runs ($rc)" \
    test $rc = 0 -a "$(stat_of mem.guestPeakBytes "$tmp/one.stats")" -gt $((4096 * MiB))

# Reports under --host-mem: DISE (with its baseline run) and its report.
g=$build/guest-mem/rv64
run "$tmp/acf" --host-mem 200M --acf hot_method.acf --report "$tmp/acf.report" \
    --stats "$tmp/acf.stats" "$g/touch_big" 1024
check "host: with --acf, status 137 ($rc), the report and statistics written" \
    test $rc = 137 -a -s "$tmp/acf.report" -a -n "$(stat_of simInsts "$tmp/acf.stats")"

# ---- options
for bad_size in 0 10 12x -5 " 64M" 64MB1; do
    run "$tmp/opt" --guest-mem "$bad_size" "$g/big_bss"
    r1=$rc
    run "$tmp/opt2" --host-mem "$bad_size" "$g/big_bss"
    check "options: --guest-mem/--host-mem '$bad_size' is bad input ($r1, $rc)" \
        test $r1 = 2 -a $rc = 2 -a -s "$tmp/opt.err"
done
run "$tmp/opt" --guest-mem 64MiB --host-mem 1G "$g/big_bss"
check "options: 64MiB and 1G are sizes" test $rc = 2 && grep -q "limit of 64 MiB" "$tmp/opt.err"
"$sim" --help | grep -q "137 --host-mem reached" && ok "options: --help lists status 137" \
    || bad "options: --help lists status 137"

echo "memlimits: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
