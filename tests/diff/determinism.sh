#!/bin/bash
# tests/diff/determinism.sh BUILD_DIR - dynamically linked programs run the
# same bits every time: a small program that prints the addresses it can see
# (its code, libc's, the heap, an mmap'd block, the stack, its TLS and the
# dynamic linker's link map) is linked for RISC-V and Alpha and run under
# hps-sim --sysroot twice, and once more through a symbolic link to the
# sysroot and from another working directory.  stdout and the statistics
# (--stats, without the host-time lines) must be identical, so no host
# address or path leaks into the guest.
#
# Prints "PASS name" / "FAIL name: why" per check, then "N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
sim=${HPS_SIM:-./hps-sim}
case $sim in /*) ;; *) sim=$PWD/$sim ;; esac
RV_CC=${RV_CC:-riscv64-linux-gnu-gcc}
ALPHA_CC=${ALPHA_CC:-alpha-linux-gnu-gcc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-determinism.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
passed=0; failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }

cat >"$tmp/addrs.c" <<'CEOF'
#define _GNU_SOURCE
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

static __thread int tls_var = 7;

static int show(struct dl_phdr_info *info, size_t size, void *arg)
{
    printf("object '%s' at %#lx, %d headers\n", info->dlpi_name,
           (unsigned long)info->dlpi_addr, (int)info->dlpi_phnum);
    return 0;
}

int main(int argc, char **argv)
{
    int local = argc;
    void *small = malloc(24), *big = malloc(4 << 20);
    void *map = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    printf("main %p printf %p malloc %p\n", (void *)main, (void *)printf, (void *)malloc);
    printf("heap %p big %p mmap %p\n", small, big, map);
    printf("stack %p argv %p argv0 %s\n", (void *)&local, (void *)argv, argv[0]);
    printf("tls %p = %d\n", (void *)&tls_var, tls_var);
    dl_iterate_phdr(show, NULL);
    return 0;
}
CEOF

# run NAME OUTPREFIX ARGS... : run hps-sim in a clean environment
run() {
    local out=$1; shift
    env -i PATH=/usr/bin:/bin timeout 60 "$sim" --stats "$out.stats" "$@" >"$out.out" 2>"$out.err"
    echo $? >"$out.rc"
    grep -v -E '^(hostSeconds|hostMIPS)' "$out.stats" >"$out.det" 2>/dev/null
}

# same NAME A B : A and B (output prefixes) agree
same() {
    local name=$1 a=$2 b=$3
    if [ "$(cat "$a.rc")" != 0 ] || [ "$(cat "$b.rc")" != 0 ]; then
        fail "$name" "exit status $(cat "$a.rc")/$(cat "$b.rc"): $(head -c 200 "$a.err" "$b.err")"
    elif ! cmp -s "$a.out" "$b.out"; then
        fail "$name" "stdout differs: $(diff "$a.out" "$b.out" | head -4 | tr '\n' '|')"
    elif ! cmp -s "$a.det" "$b.det"; then
        fail "$name" "statistics differ: $(diff "$a.det" "$b.det" | head -4 | tr '\n' '|')"
    elif [ ! -s "$a.det" ]; then
        fail "$name" "no statistics written"
    else
        pass "$name"
    fi
}

check_isa() {
    local isa=$1 cc=$2 root=$3
    if ! command -v "$cc" >/dev/null || [ ! -d "$root" ]; then
        fail "$isa" "$cc or the sysroot $root is missing"; return
    fi
    if ! "$cc" -O2 -o "$tmp/$isa" "$tmp/addrs.c" 2>"$tmp/cc.log"; then
        fail "$isa" "$cc: $(head -c 200 "$tmp/cc.log")"; return
    fi
    ln -s "$root" "$tmp/$isa-root"
    mkdir -p "$tmp/elsewhere"
    run "$tmp/$isa.1" --sysroot "$root" "$tmp/$isa" x
    run "$tmp/$isa.2" --sysroot "$root" "$tmp/$isa" x
    same "$isa/twice" "$tmp/$isa.1" "$tmp/$isa.2"
    (cd "$tmp/elsewhere" && run "$tmp/$isa.3" --sysroot "$tmp/$isa-root" "$tmp/$isa" x)
    same "$isa/other-sysroot-path-and-cwd" "$tmp/$isa.1" "$tmp/$isa.3"
}

if [ ! -x "$sim" ]; then
    echo "FAIL setup: simulator $sim not built"; echo "0 passed, 1 failed"; exit 1
fi
check_isa rv64 "$RV_CC" /usr/riscv64-linux-gnu
check_isa alpha "$ALPHA_CC" /usr/alpha-linux-gnu
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
