#!/bin/bash
# tests/diff/determinism.sh BUILD_DIR - dynamically linked programs run the
# same bits every time: a small program that prints the addresses it can see
# (its code, libc's, the heap, an mmap'd block, the stack, its TLS and the
# dynamic linker's link map) is linked for RISC-V and Alpha and run under
# hps-sim --sysroot twice, and once more through a symbolic link to the
# sysroot and from another working directory.  stdout and the statistics
# (--stats, without the host-time lines and the provenance comments, which
# name the output file) must be identical, so no host
# address or path leaks into the guest.
# The exhaustive HPS hot-method and hot-call-pair profiles of the same
# program (--profile-out) must also be identical twice, and name the code
# of the shared libraries: libc's malloc and dl_iterate_phdr, ld.so's
# _dl_debug_state, a call pair from inside __libc_start_main (symbols of
# the interpreter and of each library ld.so maps, from their .dynsym).
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
    grep -v -E '^(hostSeconds|hostMIPS|#)' "$out.stats" >"$out.det" 2>/dev/null
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

# profile OUTPREFIX ACF ARGS... : the exhaustive profile ACF as TSV in OUTPREFIX.tsv
profile() {
    local out=$1 acf=$2; shift 2
    env -i PATH=/usr/bin:/bin timeout 60 "$sim" --acf "productions/$acf" --no-baseline \
        --profile-out "$out.tsv" --report "$out.rep" "$@" >/dev/null 2>"$out.err"
    echo $? >"$out.rc"
}

# library_names NAME A B RE... : profiles A and B agree and name every RE
library_names() {
    local name=$1 a=$2 b=$3; shift 3
    if [ "$(cat "$a.rc")" != 0 ] || [ "$(cat "$b.rc")" != 0 ]; then
        fail "$name" "exit status $(cat "$a.rc")/$(cat "$b.rc"): $(head -c 200 "$a.err" "$b.err")"
        return
    fi
    if ! cmp -s "$a.tsv" "$b.tsv"; then
        fail "$name" "profiles differ: $(diff "$a.tsv" "$b.tsv" | head -4 | tr '\n' '|')"
        return
    fi
    local re missing=""
    for re in "$@"; do
        cut -f2 "$a.tsv" | grep -Eq -- "$re" || missing="$missing /$re/"
    done
    if [ -n "$missing" ]; then fail "$name" "no member matches$missing"; else pass "$name"; fi
}

# Hot methods and call pairs inside libc and ld.so carry their names.
check_library_names() {
    local isa=$1 root=$2
    profile "$tmp/$isa.m1" hot_method_all.acf --sysroot "$root" "$tmp/$isa" x
    profile "$tmp/$isa.m2" hot_method_all.acf --sysroot "$root" "$tmp/$isa" x
    library_names "$isa/hps-methods-in-libraries" "$tmp/$isa.m1" "$tmp/$isa.m2" \
        '^malloc$' '^dl_iterate_phdr$' '^_dl_debug_state$'
    profile "$tmp/$isa.p1" hot_call_pair_all.acf --sysroot "$root" "$tmp/$isa" x
    profile "$tmp/$isa.p2" hot_call_pair_all.acf --sysroot "$root" "$tmp/$isa" x
    library_names "$isa/hps-call-pairs-in-libraries" "$tmp/$isa.p1" "$tmp/$isa.p2" \
        '^__libc_start_main\+0x[0-9a-f]+ -> [A-Za-z_]'
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
    check_library_names "$isa" "$root"
}

if [ ! -x "$sim" ]; then
    echo "FAIL setup: simulator $sim not built"; echo "0 passed, 1 failed"; exit 1
fi
check_isa rv64 "$RV_CC" /usr/riscv64-linux-gnu
check_isa alpha "$ALPHA_CC" /usr/alpha-linux-gnu
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
