#!/bin/bash
# run.sh BUILD_DIR - end-to-end bad-input tests of ./hps-sim: missing and
# unreadable files, non-ELF files, foreign and 32-bit ELFs, dynamically
# linked programs without a usable --sysroot, truncated or corrupt RISC-V
# executables, Alpha executables with unsupported features, bad command
# lines; and one guest fault that needs a clear report: an Alpha program
# calling an unknown PAL function (status 132, pc and symbol named).
#
# Every case must exit with status 2 and print exactly one line on stderr
# that starts with "hps-sim: " (file cases: the line names the file and
# contains a keyword for the problem).  Command-line errors may add one
# more line, a usage hint starting with "usage:" or "Try".  An exit status
# of 128 or more, a timeout or a sanitizer report is a failure.
# Prints "PASS name" / "FAIL name" / "SKIP name" lines and ends with
# "N passed, M failed"; the exit status is nonzero when anything failed.
# The simulator is $HPS_SIM if set, else ./hps-sim at the top of the tree;
# The test programs are compiled into a private mktemp -d directory;
# BUILD_DIR holds the offline tools, whose bad inputs (ground-truth rows,
# profile files) end the same way with "hps-dcpiprof: " / "hps-dcpicalc: "
# ($HPS_DCPIPROF and $HPS_DCPICALC override them).
set -u
: "${1:-build}"   # BUILD_DIR: where the offline tools are (hps-dcpiprof, hps-dcpicalc)
cd "$(dirname "$0")/../.."
sim=${HPS_SIM:-./hps-sim}
RV_CC=${RV_CC:-riscv64-linux-gnu-gcc}
ALPHA_CC=${ALPHA_CC:-alpha-linux-gnu-gcc}

passed=0; failed=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/badinput.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

pass() { echo "PASS $1"; [ -n "${VERBOSE:-}" ] && sed "s/^/    /" "$tmp/stderr"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
skip() { echo "SKIP $1: $2"; }

# check NAME KIND KEYWORD [ARGS...]
#   KIND is "file" (stderr must name the last path-like argument given in
#   $want_file) or "option".  KEYWORD is an extended regex the message must
#   match (case-insensitive).
check() {
    local name=$1 kind=$2 keyword=$3; shift 3
    local err="$tmp/stderr" out="$tmp/stdout" rc
    timeout 20 "$sim" "$@" >"$out" 2>"$err" </dev/null
    rc=$?
    if [ "$rc" -eq 124 ]; then fail "$name" "timed out"; return; fi
    if [ "$rc" -ge 128 ]; then fail "$name" "crashed (exit status $rc)"; return; fi
    if grep -qE 'Sanitizer|runtime error:' "$err"; then
        fail "$name" "sanitizer report: $(grep -m1 -E 'Sanitizer|runtime error:' "$err")"
        return
    fi
    if [ "$rc" -ne 2 ]; then
        fail "$name" "exit status $rc, expected 2 (stderr: $(head -c 200 "$err"))"
        return
    fi
    local lines first second
    lines=$(wc -l <"$err")
    first=$(sed -n 1p "$err")
    second=$(sed -n 2p "$err")
    if [ "$lines" -ne 1 ]; then
        if ! { [ "$kind" = option ] && [ "$lines" -eq 2 ] &&
               printf '%s' "$second" | grep -qE '^(usage:|Try)'; }; then
            fail "$name" "expected one line on stderr, got $lines: $(head -c 300 "$err" | tr '\n' '|')"
            return
        fi
    fi
    case $first in
        "hps-sim: "*) ;;
        *) fail "$name" "message does not start with 'hps-sim: ': $first"; return ;;
    esac
    if [ "$kind" = file ] && [[ "$first" != *"$want_file"* ]]; then
        fail "$name" "message does not name $want_file: $first"; return
    fi
    if ! printf '%s' "$first" | grep -qiE -- "$keyword"; then
        fail "$name" "message lacks /$keyword/: $first"; return
    fi
    pass "$name"
}

# file_case NAME FILE KEYWORD: run the simulator on FILE.
file_case() {
    want_file=$2
    check "$1" file "$3" "$2"
}

# patch FILE OFFSET HEXBYTES: overwrite bytes in place ("ffff" = 2 bytes).
patch() {
    local file=$1 off=$2 hex=$3
    printf "$(printf '%s' "$hex" | sed 's/../\\x&/g')" |
        dd of="$file" bs=1 seek="$off" conv=notrunc status=none
}

# le_hex VALUE BYTES: VALUE as little-endian hex digits for patch.
le_hex() {
    local v=$1 n=$2 i
    for ((i = 0; i < n; i++)); do printf '%02x' $(( (v >> (8 * i)) & 255 )); done
}

# first_load FILE: index of the first PT_LOAD program header.
first_load() {
    local k type
    for ((k = 0; k < 32; k++)); do
        type=$(od -An -tu4 -j $((64 + 56 * k)) -N4 "$1" | tr -d ' ')
        [ "$type" = 1 ] && { echo "$k"; return; }
    done
    echo 0
}

if [ ! -x "$sim" ]; then
    echo "FAIL setup: simulator $sim not built"
    echo "0 passed, 1 failed"
    exit 1
fi

# ---- files that are not RISC-V executables ----------------------------------
file_case missing-file "$tmp/no-such-program" 'no such file|cannot open'
mkdir "$tmp/adir"
file_case directory "$tmp/adir" 'directory'
: >"$tmp/empty"
file_case empty-file "$tmp/empty" 'empty|not an ELF'
printf '#!/bin/sh\necho this is a shell script, not an ELF file\n' >"$tmp/script.sh"
file_case text-file "$tmp/script.sh" 'not an ELF'
cp /bin/true "$tmp/x86-true"
file_case x86-64-elf "$tmp/x86-true" 'x86-64|machine'
printf '\177ELF' >"$tmp/magic-only"
file_case magic-only "$tmp/magic-only" 'truncated'
if [ "$(id -u)" -ne 0 ]; then
    cp /bin/true "$tmp/unreadable" && chmod 000 "$tmp/unreadable"
    file_case unreadable "$tmp/unreadable" 'permission denied|cannot'
else
    skip unreadable "running as root (permissions are not enforced)"
fi

printf 'int main(void) { return 0; }\n' >"$tmp/trivial.c"

# ---- --sysroot problems -------------------------------------------------------
check sysroot-missing option '--sysroot.*no such file.*expected a directory' \
    --sysroot "$tmp/no-such-root" /bin/true
check sysroot-not-a-directory option '--sysroot.*not a directory' \
    --sysroot "$tmp/script.sh" /bin/true

# ---- Alpha programs that cannot be run ------------------------------------------
# fault_case NAME STATUS KEYWORD FILE: a guest fault, reported on one line
# with the pc and the symbol, with exit status STATUS.
fault_case() {
    local name=$1 want=$2 keyword=$3 rc; shift 3
    timeout 20 "$sim" "$@" >"$tmp/stdout" 2>"$tmp/stderr" </dev/null
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        fail "$name" "exit status $rc, expected $want (stderr: $(head -c 200 "$tmp/stderr"))"
    elif [ "$(wc -l <"$tmp/stderr")" -ne 1 ]; then
        fail "$name" "expected one line on stderr: $(head -c 300 "$tmp/stderr" | tr '\n' '|')"
    elif ! grep -qE -- "$keyword" "$tmp/stderr"; then
        fail "$name" "message lacks /$keyword/: $(head -1 "$tmp/stderr")"
    else
        pass "$name"
    fi
}

if command -v "$ALPHA_CC" >/dev/null &&
   "$ALPHA_CC" -O2 -static -Wl,--no-relax -o "$tmp/alpha" "$tmp/trivial.c" 2>"$tmp/cc.log"; then
    ca() { cp "$tmp/alpha" "$tmp/$1"; }
    ca alpha-msb;   patch "$tmp/alpha-msb" 5 02                     # EI_DATA
    file_case alpha-big-endian "$tmp/alpha-msb" 'big-endian.*EI_DATA.*little-endian'
    ca alpha-32;    patch "$tmp/alpha-32" 4 01                      # EI_CLASS
    file_case alpha-class32 "$tmp/alpha-32" '32-bit.*EI_CLASS.*64-bit'
    ca alpha-taso;  patch "$tmp/alpha-taso" 48 01000000             # e_flags
    file_case alpha-taso "$tmp/alpha-taso" 'unsupported Alpha ELF feature.*EF_ALPHA_32BIT'
    if "$ALPHA_CC" -O2 -o "$tmp/alpha-dyn" "$tmp/trivial.c" 2>"$tmp/cc.log"; then
        file_case dynamic-alpha "$tmp/alpha-dyn" \
            'dynamically linked.*--sysroot.*/usr/alpha-linux-gnu'
        mkdir -p "$tmp/rv-root/lib"
        want_file=$tmp/alpha-dyn
        check sysroot-without-interpreter file 'interpreter /lib/ld-linux.so.2 not found' \
            --sysroot "$tmp/rv-root" "$tmp/alpha-dyn"
    fi
    # an unknown PAL function (call_pal 0x99) at a named symbol
    printf '%s\n' '	.globl _start' '_start:' '	nop' '	.globl bad_pal_here' \
        '	.type bad_pal_here, @function' 'bad_pal_here:' '	nop' '	.long 0x99' \
        '	.size bad_pal_here, .-bad_pal_here' >"$tmp/pal.s"
    if "$ALPHA_CC" -nostdlib -static -o "$tmp/pal" "$tmp/pal.s" 2>"$tmp/cc.log"; then
        fault_case alpha-unknown-pal 132 \
            '^hps-sim: illegal instruction at pc 0x[0-9a-f]+ \(bad_pal_here\+0x4\).*call_pal' \
            "$tmp/pal"
    else
        fail alpha-unknown-pal "$ALPHA_CC cannot assemble a PAL call"
    fi
else
    skip alpha-elf "$ALPHA_CC cannot build a static program"
fi

# ---- RISC-V programs that cannot be loaded ----------------------------------
if ! command -v "$RV_CC" >/dev/null ||
   ! "$RV_CC" -O2 -static -o "$tmp/static" "$tmp/trivial.c" 2>"$tmp/cc.log"; then
    fail riscv-toolchain "$RV_CC cannot build a static program"
else
    if "$RV_CC" -O2 -o "$tmp/dynamic" "$tmp/trivial.c" 2>"$tmp/cc.log"; then
        file_case dynamic-riscv64 "$tmp/dynamic" \
            'dynamically linked.*--sysroot.*/usr/riscv64-linux-gnu.*-static'
        mkdir -p "$tmp/empty-root"
        want_file=$tmp/dynamic
        check sysroot-empty file 'interpreter /lib/ld-linux-riscv64-lp64d.so.1 not found under --sysroot' \
            --sysroot "$tmp/empty-root" "$tmp/dynamic"
        # an interpreter of the wrong machine (the Alpha dynamic linker)
        if [ -f /usr/alpha-linux-gnu/lib/ld-linux.so.2 ]; then
            mkdir -p "$tmp/mixed-root/lib"
            cp /usr/alpha-linux-gnu/lib/ld-linux.so.2 "$tmp/mixed-root/lib/ld-linux-riscv64-lp64d.so.1"
            check sysroot-foreign-interpreter file 'interpreter.*Alpha ELF.*expected RISC-V' \
                --sysroot "$tmp/mixed-root" "$tmp/dynamic"
            printf 'not an ELF\n' >"$tmp/mixed-root/lib/ld-linux-riscv64-lp64d.so.1"
            check sysroot-corrupt-interpreter file 'interpreter.*not an ELF' \
                --sysroot "$tmp/mixed-root" "$tmp/dynamic"
        fi
    else
        skip dynamic-riscv64 "$RV_CC cannot link dynamically"
    fi
    "$RV_CC" -c -o "$tmp/object.o" "$tmp/trivial.c"
    file_case relocatable-object "$tmp/object.o" 'ET_REL|relocatable|not an executable'
    if "$RV_CC" -march=rv32i -mabi=ilp32 -c -o "$tmp/rv32.o" "$tmp/trivial.c" 2>/dev/null; then
        file_case elfclass32 "$tmp/rv32.o" '32-bit'
    fi

    size=$(stat -c %s "$tmp/static")
    # inside e_ident, inside the ELF header, inside the program headers,
    # inside the first page of code, and in the middle of the segments
    for len in 10 40 100 300 5000 $((size / 2)); do
        head -c "$len" "$tmp/static" >"$tmp/trunc-$len"
        file_case "truncated-at-$len" "$tmp/trunc-$len" 'truncated'
    done

    c() { cp "$tmp/static" "$tmp/$1"; }
    c phoff-huge;     patch "$tmp/phoff-huge" 32 00000000000000ff   # e_phoff
    file_case corrupt-phoff-huge "$tmp/phoff-huge" 'program header|truncated|corrupt'
    c phoff-end;      patch "$tmp/phoff-end" 32 "$(le_hex $((size - 20)) 8)"
    file_case corrupt-phoff-at-eof "$tmp/phoff-end" 'program header|truncated'
    c phnum-zero;     patch "$tmp/phnum-zero" 56 0000                     # e_phnum
    file_case corrupt-phnum-zero "$tmp/phnum-zero" 'program header'
    c phnum-xnum;     patch "$tmp/phnum-xnum" 56 ffff
    file_case corrupt-phnum-ffff "$tmp/phnum-xnum" 'program header|corrupt'
    c phnum-many;     patch "$tmp/phnum-many" 56 "$(le_hex 2000 2)"       # > 64 KiB
    file_case corrupt-phnum-2000 "$tmp/phnum-many" 'program header|too many|corrupt'
    c phentsize;      patch "$tmp/phentsize" 54 2000                      # e_phentsize 32
    file_case corrupt-phentsize "$tmp/phentsize" 'entry size|corrupt'
    # the first PT_LOAD's p_offset and p_filesz (phdr k is at 64 + 56k)
    ph=$(first_load "$tmp/static")
    c seg-offset;     patch "$tmp/seg-offset" $((64 + 56 * ph + 8)) "$(le_hex $((1 << 60)) 8)"
    file_case corrupt-segment-offset "$tmp/seg-offset" 'segment.*past end|truncated|corrupt'
    c seg-filesz;     patch "$tmp/seg-filesz" $((64 + 56 * ph + 32)) "$(le_hex $((size * 2)) 8)"
    file_case corrupt-segment-filesz "$tmp/seg-filesz" 'segment|truncated|corrupt'
    c machine;        patch "$tmp/machine" 18 3e00                         # EM_X86_64
    file_case corrupt-machine "$tmp/machine" 'x86-64|machine'
    c class;          patch "$tmp/class" 4 01
    file_case corrupt-class32 "$tmp/class" '32-bit'
    c bigendian;      patch "$tmp/bigendian" 5 02
    file_case corrupt-big-endian "$tmp/bigendian" 'endian'
fi

# ---- command-line errors ------------------------------------------------------
prog=$tmp/static
[ -f "$prog" ] || prog=/bin/true
check option-unknown      option 'unknown option|unrecognized|bogus' --bogus "$prog"
check option-bad-number   option 'max-insts.*abc|abc.*max-insts' --max-insts abc "$prog"
check option-no-value     option "max-insts.*(value|argument)" --max-insts
check option-no-value-prog option "max-insts.*(value|argument|integer)" --max-insts -- "$prog"
check option-negative-seed option 'seed' --seed -x "$prog"
check option-no-program   option 'no program|usage'
# numbers: strtoull alone skips leading spaces and takes a sign
check option-leading-space option "max-insts.*' -5'" --max-insts ' -5' "$prog"
check option-leading-space-digit option "max-insts.*' 5'" --max-insts ' 5' "$prog"
check option-view-wraps   option 'view-from.*view-count.*2\^64' --config ev5 --pipe-diagram \
    --view-from 18446744073709551615 --view-count 10 "$prog"
check option-param-negative option 'sampleFreq = -1.*outside 1\.\.[0-9]+.*counter_bits' \
    --acf hot_method --param sampleFreq=-1 "$prog"
check option-param-too-wide option 'sampleFreq = 300.*outside 1\.\.255.*counter_bits = 8' \
    --acf hot_method --set dise.counter_bits=8 --param sampleFreq=300 "$prog"
check option-rate-too-sparse option 'rate.*sampleFreq = 998.*counter_bits = 8.*sparsest rate is 1/257' \
    --acf hot_method --set dise.counter_bits=8 --rate 1/1000 "$prog"
check option-handlers-bad option "handlers.*expected c or asm.*'fortran'" \
    --acf hot_method --handlers fortran "$prog"
check option-handlers-no-acf option 'handlers need --acf' --handlers c "$prog"
# a value with a newline is quoted on the message's one line (as \n)
check option-newline-quoted option "unknown event 'bogus\\\\nevent'" --config ev5 \
    --dcpi "$tmp/nl-db" --dcpi-events "$(printf 'bogus\nevent')" "$prog"

# ---- the offline tools (hps-dcpiprof, hps-dcpicalc, hps-dcpistats, hps-dcpidiff) ------------------------------
# tool_check NAME TOOL KEYWORD ARGS...: status 2, one line "TOOL: " naming
# $want_file and matching KEYWORD.
tool_check() {
    local name=$1 tool=$2 keyword=$3 rc; shift 3
    timeout 20 "$tool" "$@" >"$tmp/stdout" 2>"$tmp/stderr" </dev/null
    rc=$?
    local first; first=$(head -1 "$tmp/stderr")
    if grep -qE 'Sanitizer|runtime error:' "$tmp/stderr"; then
        fail "$name" "sanitizer report: $(grep -m1 -E 'Sanitizer|runtime error:' "$tmp/stderr")"
    elif [ "$rc" -ne 2 ]; then
        fail "$name" "exit status $rc, expected 2 (stderr: $(head -c 200 "$tmp/stderr"))"
    elif [ "$(wc -l <"$tmp/stderr")" -ne 1 ]; then
        fail "$name" "expected one line on stderr: $(head -c 300 "$tmp/stderr" | tr '\n' '|')"
    elif [[ "$first" != "$(basename "$tool"): "* ]]; then
        fail "$name" "message does not start with '$(basename "$tool"): ': $first"
    elif [[ "$first" != *"$want_file"* ]]; then
        fail "$name" "message does not name $want_file: $first"
    elif ! printf '%s' "$first" | grep -qiE -- "$keyword"; then
        fail "$name" "message lacks /$keyword/: $first"
    else
        pass "$name"
    fi
}
tools_dir=${1:-build}
prof=${HPS_DCPIPROF:-$tools_dir/hps-dcpiprof}
calc=${HPS_DCPICALC:-$tools_dir/hps-dcpicalc}
stats=${HPS_DCPISTATS:-$tools_dir/hps-dcpistats}
diff=${HPS_DCPIDIFF:-$tools_dir/hps-dcpidiff}
if [ ! -x "$prof" ] || [ ! -x "$calc" ] || [ ! -f "$tmp/static" ]; then
    skip tools "$prof, $calc or a RISC-V program missing"
elif ! "$sim" --config ev5 --dcpi "$tmp/db" --dcpi-events cycles:200-220 --no-baseline \
        --ground-truth "$tmp/gt" "$tmp/static" >/dev/null 2>"$tmp/stderr"; then
    fail tools-setup "hps-sim --dcpi: $(head -c 200 "$tmp/stderr")"
else
    # a ground-truth row with fewer fields than the header (was a segfault)
    { grep -v '^0x' "$tmp/gt"; printf '0x10\tmain\n'; } >"$tmp/gt-short"
    want_file=$tmp/gt-short
    tool_check truth-short-row "$calc" ':[0-9]+: short row: 2 fields' \
        --truth "$tmp/gt-short" "$tmp/db" main
    { grep '^pc' "$tmp/gt"; printf '0x10\tmain\t1\tx\n'; } >"$tmp/gt-field"
    want_file=$tmp/gt-field
    tool_check truth-bad-field "$calc" ':2: (short row|field 4 \(head_cycles\))' \
        --truth "$tmp/gt-field" "$tmp/db" main
    # truth v2: the profiler column (before culprit_pc) must be a number too
    { grep '^pc' "$tmp/gt"; grep -m1 '^0x' "$tmp/gt" |
        awk -F'\t' -v OFS='\t' '{ $(NF - 1) = "x"; print }'; } >"$tmp/gt-prof"
    want_file=$tmp/gt-prof
    tool_check truth-bad-profiler "$calc" ':2: field 15 \(profiler\)' \
        --truth "$tmp/gt-prof" "$tmp/db" main
    printf '0x10\tmain\t1\t1\n' >"$tmp/gt-noheader"
    want_file=$tmp/gt-noheader
    tool_check truth-no-header "$calc" ':1: .*header' --truth "$tmp/gt-noheader" "$tmp/db" main
    # a profile whose record count (header word 6, byte 48) is 2^32: refused
    # from the file's size, before allocating 64 GiB
    cyc=$(ls "$tmp"/db/epoch-0001/*/cycles 2>/dev/null | head -1)
    if [ -n "$cyc" ]; then
        cp "$cyc" "$tmp/cycles.good"
        patch "$cyc" 48 0000000001000000
        want_file=$cyc
        tool_check profdb-count-2e32-prof "$prof" 'says 4294967296 records, the file holds' "$tmp/db"
        tool_check profdb-count-2e32-calc "$calc" 'says 4294967296 records, the file holds' \
            "$tmp/db" main
        cp "$tmp/cycles.good" "$cyc"
        head -c 70 "$tmp/cycles.good" >"$cyc"
        tool_check profdb-truncated "$prof" 'truncated' "$tmp/db"
        tool_check profdb-truncated-export "$prof" 'truncated' --export pprof -o "$tmp/x.pprof" "$tmp/db"
        [ -x "$stats" ] && tool_check profdb-truncated-stats "$stats" 'truncated' "$tmp/db" "$tmp/db"
        [ -x "$diff" ] && tool_check profdb-truncated-diff "$diff" 'truncated' "$tmp/db" "$tmp/db"
        cp "$tmp/cycles.good" "$cyc"
        patch "$cyc" 40 ff                                  # header total
        tool_check profdb-bad-total "$prof" 'header \(byte 40\)' "$tmp/db"
        cp "$tmp/cycles.good" "$cyc"
    else
        fail profdb-setup "no cycles profile in $tmp/db"
    fi
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
