#!/bin/bash
# tests/fuzz/seeds.sh BUILD_DIR OUT_DIR - the seed corpus of every fuzz
# harness, in OUT_DIR/NAME/: the committed text seeds (tests/fuzz/seeds),
# the ACFs and presets of the tree, and what is generated here from the
# build: small ELF programs (a tiny static RISC-V and Alpha program built
# with the cross compilers, a dynamic one, the head of a static guest), a
# profile file and a ground truth written by BUILD_DIR/hps-sim.  No binary
# seed is committed.
set -u
build=$1 out=$2
cd "$(dirname "$0")/../.." || exit 2
sim=${HPS_SIM:-$build/hps-sim}
RV_CC=${RV_CC:-riscv64-linux-gnu-gcc}
ALPHA_CC=${ALPHA_CC:-alpha-linux-gnu-gcc}
for h in elf acf config param profdb truth events shell; do mkdir -p "$out/$h"; done
for d in tests/fuzz/seeds/*/; do cp "$d"* "$out/$(basename "$d")/"; done
cp productions/*.acf tests/dise/*.acf "$out/acf/"
cp configs/*.ini "$out/config/"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-seeds.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
# tiny programs: exit(0) from _start, no libc
printf '%s\n' '.globl _start' '_start:' '  li a0, 0' '  li a7, 93' '  ecall' >"$tmp/rv.s"
"$RV_CC" -nostdlib -static -s -Wl,--build-id=none -o "$out/elf/tiny-rv64" "$tmp/rv.s" 2>/dev/null
printf '%s\n' '.globl _start' '_start:' '  lda $16, 0($31)' '  lda $0, 1($31)' '  call_pal 0x83' \
    >"$tmp/alpha.s"
"$ALPHA_CC" -nostdlib -static -s -Wl,--build-id=none -o "$out/elf/tiny-alpha" "$tmp/alpha.s" \
    2>/dev/null
printf 'int main(void) { return 0; }\n' >"$tmp/t.c"
"$RV_CC" -O2 -s -o "$out/elf/dyn-rv64" "$tmp/t.c" 2>/dev/null
[ -f "$build/guest/rv64/hello" ] && head -c 8192 "$build/guest/rv64/hello" >"$out/elf/head-hello"

# a profile file and a ground truth of a short run
prog=$build/guest/rv64/hello
if [ -x "$sim" ] && [ -f "$prog" ]; then
    "$sim" --config ev5 --dcpi "$tmp/db" --dcpi-events cycles:200-220,imiss:20 \
        --ground-truth "$tmp/gt" --no-baseline "$prog" >/dev/null 2>&1
    for f in "$tmp"/db/epoch-0001/*/cycles "$tmp"/db/epoch-0001/*/imiss; do
        [ -f "$f" ] && cp "$f" "$out/profdb/$(basename "$f")"
    done
    [ -f "$tmp/gt" ] && head -n 40 "$tmp/gt" >"$out/truth/hello.tsv"
fi
for h in elf acf config param profdb truth events shell; do
    [ -n "$(ls -A "$out/$h")" ] || { echo "seeds.sh: no seeds for $h" >&2; exit 1; }
done
exit 0
