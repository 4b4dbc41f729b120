#!/bin/bash
# tests/confine/run.sh BUILD_DIR - a guest cannot reach the host (SECURITY.md,
# "File system and /proc").  The guest tests/guest-confine/confine.c (RV64
# and static Alpha) attempts each attack and prints one line per attempt:
#   escape     with --fs-root: absolute host paths, ../ climbs, absolute and
#              relative symlinks planted in the root and made by the guest,
#              openat from a bind's directory fd, /proc/self/fd/N as a
#              way out, symlink chains (40 followed, 41 ELOOP) - with
#              openat2 and again with the walk alone (HPS_NO_OPENAT2=1)
#   binds      --bind shows a host directory, :ro refuses writes, creation,
#              unlink, rename, chmod, truncate, mkdir, links and utimes
#              (EROFS); rename and link across binds fail with EXDEV
#   default    without options the host is read-only (EROFS) except the
#              working directory's tree; hps-sim's own binary cannot be
#              overwritten; a symlink to the host's /proc leads to the guest's
#   proc       /proc/self/maps shows the guest's mappings and nothing of
#              hps-sim; mem rewrites the guest's own code (which then runs)
#              and read-only data, never reaches host addresses; cmdline,
#              environ, auxv, stat, status, comm, exe, cwd and fd/ describe
#              the guest; other pids and files are ENOENT; nothing in /proc
#              can be written or created
#   fdlinks    /proc/self/fd/N shows guest paths or "(unreachable)", never a
#              host path, and cannot widen an fd's access
#   sysroot    --sysroot is read first, read-only, its symlinks stay in it
#   badinput   --fs-root and --bind mistakes: one line naming the option,
#              status 2
#   same       a differential-test guest (fileio) prints the same confined
#              and with --bind /:/; a dynamic program runs with --sysroot
# Prints "ok ..." / "FAIL ..." per check and "confine: N passed, M failed".
set -u
cd "$(dirname "$0")/../.." || exit 2
root=$PWD
build=${1:-build}
case $build in /*) ;; *) build=$root/$build ;; esac
sim=${HPS_SIM:-$build/hps-sim}
case $sim in /*) ;; *) sim=$root/$sim ;; esac
pass=0; fail=0
tmp=$(mktemp -d "${TMPDIR:-/tmp}/hps-confine.XXXXXX") || exit 2
trap 'chmod -R u+w "$tmp" 2>/dev/null; rm -rf "$tmp"' EXIT
ok()   { echo "ok   $*"; pass=$((pass + 1)); }
bad()  { echo "FAIL $*"; fail=$((fail + 1)); }
check() { local what=$1; shift; if "$@"; then ok "$what"; else bad "$what"; fi; }
# has FILE LINE...: every LINE is a whole line of FILE
has() {
    local f=$1; shift
    local l
    for l in "$@"; do grep -qxF -- "$l" "$f" || { echo "     missing: $l" >&2; return 1; }; done
}
lacks() { ! grep -qF -- "$2" "$1"; }

# ---- the host tree ----------------------------------------------------------
# $tmp/secret.txt and $tmp/host/ are what no confined guest may reach;
# $tmp/root is a guest's /, $tmp/bind and $tmp/robind are bound into it.
mkdir -p "$tmp/host" "$tmp/root/etc" "$tmp/root/mnt" "$tmp/root/ro" "$tmp/root/tmp" \
         "$tmp/bind/sub" "$tmp/robind" "$tmp/run" "$tmp/sysroot/lib"
echo TOPSECRET >"$tmp/secret.txt"
echo TOPSECRET >"$tmp/host/file.txt"
echo inside >"$tmp/root/etc/hello"
echo bound >"$tmp/bind/b.txt"
echo rofile >"$tmp/robind/r.txt"
echo fromsysroot >"$tmp/sysroot/lib/x.txt"
ln -s "$tmp/secret.txt" "$tmp/root/abs"                       # absolute host path
ln -s ../../../../../../../../../../secret.txt "$tmp/root/rel"   # climbs out
ln -s "../../../../../../../../..$tmp/secret.txt" "$tmp/root/rel2"
ln -s "$tmp" "$tmp/root/hostdir"
ln -s /etc/hello "$tmp/root/absin"                            # absolute, inside
ln -s "$tmp/secret.txt" "$tmp/sysroot/lib/esc"
ln -s /proc "$tmp/run/hostproc"
T=TOPSECRET

for isa in rv64 alpha-static; do
    prog=$build/confine/$isa/confine
    if [ ! -x "$prog" ]; then bad "$isa: $prog not built (make guests BUILD=...)"; continue; fi
    confined=(--fs-root "$tmp/root" --bind "$tmp/bind:/mnt" --bind "$tmp/robind:/ro:ro")

    # ---- escape ------------------------------------------------------------
    for mode in openat2 walk; do
        out=$tmp/esc-$isa-$mode
        no2=0; [ $mode = walk ] && no2=1
        ( cd "$tmp/run" && HPS_NO_OPENAT2=$no2 "$sim" "${confined[@]}" "$prog" \
            cat /etc/hello cat "$tmp/secret.txt" cat ../../../../../../../..$tmp/secret.txt \
            cat /abs cat /rel cat /rel2 cat /hostdir/secret.txt cat /absin \
            catat /mnt "../../../../..$tmp/secret.txt" catat /mnt b.txt catat /mnt sub/../b.txt \
            cat /mnt/../../../..$tmp/secret.txt cat /proc/self/root/../../..$tmp/secret.txt \
            cat /proc/self/cwd/../../..$tmp/secret.txt cat /proc/self/fd/3 cat /proc/self/fd/9 \
            symlink "$tmp/secret.txt" /tmp/mine cat /tmp/mine \
            symlink ../../../../../..$tmp/secret.txt /tmp/mine2 cat /tmp/mine2 \
            symlink /tmp/loop /tmp/loop cat /tmp/loop \
            chdir /tmp chain 40 chain 41 \
            write "$tmp/host/new.txt" x unlink "$tmp/host/file.txt" chmod "$tmp/secret.txt" \
            truncate "$tmp/secret.txt" rename /abs /mnt/abs ) >"$out" 2>&1
        echo "rc=$?" >>"$out"
        check "escape/$isa/$mode: the root's own files are there" \
            has "$out" "cat /etc/hello -> [inside|]" "cat /absin -> [inside|]" "rc=0"
        check "escape/$isa/$mode: host paths, ../ climbs and planted symlinks find nothing (ENOENT)" \
            has "$out" "cat $tmp/secret.txt -> ENOENT" "cat ../../../../../../../..$tmp/secret.txt -> ENOENT" \
                "cat /abs -> ENOENT" "cat /rel -> ENOENT" "cat /rel2 -> ENOENT" \
                "cat /hostdir/secret.txt -> ENOENT"
        check "escape/$isa/$mode: openat from a bind's directory fd stays inside" \
            has "$out" "catat /mnt ../../../../..$tmp/secret.txt -> ENOENT" \
                "catat /mnt b.txt -> [bound|]" "catat /mnt sub/../b.txt -> [bound|]" \
                "cat /mnt/../../../..$tmp/secret.txt -> ENOENT"
        check "escape/$isa/$mode: /proc/self/root, cwd and fd/N lead nowhere outside" \
            has "$out" "cat /proc/self/root/../../..$tmp/secret.txt -> ENOENT" \
                "cat /proc/self/cwd/../../..$tmp/secret.txt -> ENOENT" \
                "cat /proc/self/fd/3 -> ENOENT" "cat /proc/self/fd/9 -> ENOENT"
        check "escape/$isa/$mode: symlinks the guest makes resolve in its root; a loop is ELOOP" \
            has "$out" "symlink $tmp/secret.txt /tmp/mine -> ok" "cat /tmp/mine -> ENOENT" \
                "cat /tmp/mine2 -> ENOENT" "cat /tmp/loop -> ELOOP"
        check "escape/$isa/$mode: 40 symlinks are followed, 41 are ELOOP" \
            has "$out" "chain 40 -> ok" "chain 41 -> ELOOP"
        check "escape/$isa/$mode: host files cannot be written, removed or changed" \
            has "$out" "write $tmp/host/new.txt -> ENOENT" "unlink $tmp/host/file.txt -> ENOENT" \
                "chmod $tmp/secret.txt -> ENOENT" "truncate $tmp/secret.txt -> ENOENT"
        check "escape/$isa/$mode: no secret in the output, the host files untouched" \
            eval "lacks '$out' $T && [ ! -e '$tmp/host/new.txt' ] && [ -f '$tmp/host/file.txt' ] &&
                  [ \"\$(cat '$tmp/secret.txt')\" = $T ]"
        rm -f "$tmp/root/tmp/mine" "$tmp/root/tmp/mine2" "$tmp/root/tmp/loop"
    done
    check "escape/$isa: the walk alone (no openat2) answers exactly as with openat2" \
        cmp -s "$tmp/esc-$isa-openat2" "$tmp/esc-$isa-walk"

    # ---- binds --------------------------------------------------------------
    out=$tmp/bind-$isa
    ( cd "$tmp/run" && "$sim" "${confined[@]}" "$prog" \
        cat /ro/r.txt write /ro/new.txt x write /ro/r.txt x readw /ro/r.txt unlink /ro/r.txt \
        chmod /ro/r.txt chown /ro/r.txt truncate /ro/r.txt utime /ro/r.txt access-w /ro/r.txt \
        rename /ro/r.txt /ro/s.txt link /ro/r.txt /ro/l.txt symlink x /ro/sym mkdir /ro/d \
        rmdir /ro tmpfile /ro \
        write /mnt/w.txt hello cat /mnt/w.txt rename /mnt/w.txt /etc/w.txt link /mnt/b.txt /b.txt \
        rename /mnt/b.txt /ro/b.txt rename /etc/hello /mnt/hello rename /mnt/w.txt /mnt/w2.txt \
        unlink /mnt rmdir /mnt ls /mnt ) >"$out" 2>&1
    check "binds/$isa: a :ro bind reads, and refuses every change with EROFS" \
        has "$out" "cat /ro/r.txt -> [rofile|]" "write /ro/new.txt -> EROFS" \
            "write /ro/r.txt -> EROFS" "readw /ro/r.txt -> EROFS" "unlink /ro/r.txt -> EROFS" \
            "chmod /ro/r.txt -> EROFS" "chown /ro/r.txt -> EROFS" "truncate /ro/r.txt -> EROFS" \
            "utime /ro/r.txt -> EROFS" "access-w /ro/r.txt -> EROFS" \
            "rename /ro/r.txt /ro/s.txt -> EROFS" "link /ro/r.txt /ro/l.txt -> EROFS" \
            "symlink x /ro/sym -> EROFS" "mkdir /ro/d -> EROFS" "tmpfile /ro -> EROFS"
    check "binds/$isa: ... and the host directory is unchanged" \
        test "$(ls "$tmp/robind")" = r.txt -a "$(cat "$tmp/robind/r.txt")" = rofile
    check "binds/$isa: a read-write bind writes on the host" \
        eval "has '$out' 'write /mnt/w.txt -> ok' 'cat /mnt/w.txt -> [hello]' &&
              [ \"\$(cat '$tmp/bind/w2.txt')\" = hello ]"
    check "binds/$isa: rename and link across binds are EXDEV, within one they work" \
        has "$out" "rename /mnt/w.txt /etc/w.txt -> EXDEV" "link /mnt/b.txt /b.txt -> EXDEV" \
            "rename /mnt/b.txt /ro/b.txt -> EXDEV" "rename /etc/hello /mnt/hello -> EXDEV" \
            "rename /mnt/w.txt /mnt/w2.txt -> ok"
    check "binds/$isa: a mount point cannot be removed" \
        has "$out" "rmdir /mnt -> EBUSY" "rmdir /ro -> EROFS"
    rm -f "$tmp/bind/w2.txt"

    # ---- default ------------------------------------------------------------
    out=$tmp/default-$isa
    ( cd "$tmp/run" && "$sim" "$prog" write here.txt hi cat here.txt mkdir sub write sub/f x \
        cat "$tmp/secret.txt" write "$tmp/secret.txt" x write "$tmp/host/new.txt" x \
        unlink "$tmp/host/file.txt" chmod "$tmp/secret.txt" truncate "$tmp/secret.txt" \
        rename "$tmp/secret.txt" "$tmp/s2" rename here.txt "$tmp/moved" link here.txt "$tmp/l" \
        symlink x "$tmp/sym" mkdir "$tmp/dir" utime "$tmp/secret.txt" tmpfile "$tmp" \
        write "$sim" x readw "$sim" readw /dev/null write /dev/null x \
        cat hostproc/self/comm readlink hostproc/self/exe getcwd ) >"$out" 2>&1
    check "default/$isa: the working directory's tree is writable" \
        eval "has '$out' 'write here.txt -> ok' 'cat here.txt -> [hi]' 'write sub/f -> ok' &&
              [ -f '$tmp/run/sub/f' ]"
    check "default/$isa: the rest of the host reads, but every change is EROFS or EXDEV" \
        has "$out" "write $tmp/secret.txt -> EROFS" "write $tmp/host/new.txt -> EROFS" \
            "unlink $tmp/host/file.txt -> EROFS" "chmod $tmp/secret.txt -> EROFS" \
            "truncate $tmp/secret.txt -> EROFS" "rename $tmp/secret.txt $tmp/s2 -> EROFS" \
            "rename here.txt $tmp/moved -> EXDEV" "link here.txt $tmp/l -> EXDEV" \
            "symlink x $tmp/sym -> EROFS" "mkdir $tmp/dir -> EROFS" \
            "utime $tmp/secret.txt -> EROFS" "tmpfile $tmp -> EROFS"
    check "default/$isa: hps-sim's own binary cannot be written" \
        has "$out" "write $sim -> EROFS" "readw $sim -> EROFS"
    check "default/$isa: harmless devices stay writable (/dev/null)" \
        has "$out" "readw /dev/null -> ok" "write /dev/null -> ok"
    blk=$(find /dev -maxdepth 1 -type b 2>/dev/null | head -1)
    if [ -n "$blk" ]; then
        ( cd "$tmp/run" && "$sim" "$prog" readw "$blk" ) >"$out.blk" 2>&1
        check "default/$isa: a disk ($blk) cannot be opened for writing" \
            has "$out.blk" "readw $blk -> EROFS"
    fi
    check "default/$isa: a symlink to the host's /proc leads to the guest's /proc" \
        has "$out" "cat hostproc/self/comm -> [confine|]" "readlink hostproc/self/exe -> [$prog]"
    check "default/$isa: getcwd is the directory it started in" has "$out" "getcwd -> [$tmp/run]"
    check "default/$isa: the host files are untouched" \
        test "$(cat "$tmp/secret.txt")" = $T -a -f "$tmp/host/file.txt" -a ! -e "$tmp/host/new.txt"
    rm -rf "$tmp/run/here.txt" "$tmp/run/sub"
    ( cd "$tmp/run" && "$sim" --bind "$tmp:$tmp:ro" "$prog" write here.txt x getcwd ) >"$out.ro" 2>&1
    ( cd / && "$sim" "$prog" tmpfile / getcwd ) >"$out.slash" 2>&1
    check "default/$isa: an explicit :ro bind over the working directory wins" \
        eval "has '$out.ro' 'write here.txt -> EROFS' 'getcwd -> [$tmp/run]' && [ ! -e '$tmp/run/here.txt' ]"
    check "default/$isa: run from /, the host stays read-only" \
        has "$out.slash" "tmpfile / -> EROFS" "getcwd -> [/]"

    # ---- proc ---------------------------------------------------------------
    out=$tmp/maps-$isa
    ( cd "$tmp/run" && "$sim" "$prog" cat /proc/self/maps ) 2>&1 | tr '|' '\n' |
        sed 's/^cat [^ ]* -> \[//; /^]$/d' >"$out"
    check "proc/$isa: maps names the program's segments (r-xp first) and the stack" \
        eval "grep -Eq '^[0-9a-f]{8,}-[0-9a-f]{8,} r-xp 00000000 [0-9a-f]+:[0-9a-f]+ [1-9][0-9]* +$prog\$' '$out' &&
              grep -Eq ' rw-p .* +\\[stack\\]\$' '$out'"
    check "proc/$isa: maps shows nothing of hps-sim (no name, no host address)" \
        eval "lacks '$out' hps-sim && lacks '$out' '[vdso]' &&
              ! grep -Eq '^[0-9a-f]{12,}-' '$out'"
    out=$tmp/maps2-$isa
    ( cd "$tmp/run" && "$sim" "$prog" cat /proc/1000/maps ) >"$out.raw" 2>&1
    ( cd "$tmp/run" && "$sim" "$prog" cat /proc/self/maps ) >"$out" 2>&1
    check "proc/$isa: /proc/1000/maps is /proc/self/maps" \
        test "$(sed 's/1000/self/' "$out.raw")" = "$(cat "$out")"
    out=$tmp/mem-$isa
    ( cd "$tmp/run" && "$sim" "$prog" selfmod ) >"$out" 2>&1
    echo "rc=$?" >>"$out"
    check "proc/$isa: writing its own code through /proc/self/mem runs the new code" \
        has "$out" "selfmod before=31 writes=32,32 after=42" "rc=0"
    check "proc/$isa: mem writes read-only data as Linux does (FOLL_FORCE)" \
        has "$out" "selfmod rodata write=4 value=7" "selfmod read=4 value=7"
    check "proc/$isa: mem at unmapped and host addresses is EIO; no mmap; O_RDONLY is read-only" \
        has "$out" "selfmod read 0x1000 -> EIO" "selfmod read 0x555555554000 -> EIO" \
            "selfmod read 0x7ffff7dd0000 -> EIO" "selfmod mmap -> ENODEV" \
            "selfmod write on O_RDONLY -> EBADF"
    out=$tmp/info-$isa
    ( cd "$tmp/run" && "$sim" --env A=1 --env B=two "$prog" procinfo "an arg" x ) >"$out" 2>&1
    check "proc/$isa: cmdline, environ and auxv are the guest's" \
        has "$out" "cmdline -> same" "environ -> same" "auxv -> pagesz same entry same"
    check "proc/$isa: stat and status give pid, name, state, ppid, threads and RSS" \
        has "$out" "stat -> pid =getpid comm=confine state=R ppid =getppid" \
            "status -> Name=confine Pid =getpid Threads=1 VmRSS>0=1" "/proc/PID/status -> Pid =getpid" \
            "cwd link -> =getcwd"
    out=$tmp/procmisc-$isa
    ( cd "$tmp/run" && "$sim" "$prog" readlink /proc/self readlink /proc/self/exe \
        readlink /proc/self/cwd readlink /proc/self/root stat /proc/self/exe lstat /proc/self/exe \
        cat /proc/self/comm ls /proc ls /proc/self ls /proc/self/fd \
        cat /proc/1/maps cat /proc/cpuinfo cat /proc/self/task cat /proc/01000/comm \
        cat /proc/self/../1/status cat /proc/meminfo \
        write /proc/self/maps x readw /proc/self/status unlink /proc/self/maps mkdir /proc/x \
        write /proc/new x rename /proc/self/maps /proc/self/m2 chmod /proc/self/maps ) >"$out" 2>&1
    check "proc/$isa: the links of /proc/self are guest paths" \
        has "$out" "readlink /proc/self -> [1000]" "readlink /proc/self/exe -> [$prog]" \
            "readlink /proc/self/cwd -> [$tmp/run]" "readlink /proc/self/root -> [/]" \
            "lstat /proc/self/exe -> link size=0" "cat /proc/self/comm -> [confine|]"
    check "proc/$isa: /proc lists the guest only" \
        has "$out" "ls /proc -> . .. 1000 self" \
            "ls /proc/self -> . .. auxv cmdline comm cwd environ exe fd maps mem root stat statm status" \
            "ls /proc/self/fd -> . .. 0 1 2 3"
    check "proc/$isa: other pids and host /proc files do not exist" \
        has "$out" "cat /proc/1/maps -> ENOENT" "cat /proc/cpuinfo -> ENOENT" \
            "cat /proc/self/task -> ENOENT" "cat /proc/01000/comm -> ENOENT" \
            "cat /proc/self/../1/status -> ENOENT" "cat /proc/meminfo -> ENOENT"
    check "proc/$isa: nothing in /proc can be written, created, removed or renamed" \
        has "$out" "write /proc/self/maps -> EACCES" "readw /proc/self/status -> EACCES" \
            "unlink /proc/self/maps -> EACCES" "mkdir /proc/x -> EACCES" \
            "write /proc/new -> EACCES" "rename /proc/self/maps /proc/self/m2 -> EACCES" \
            "chmod /proc/self/maps -> EACCES"

    # ---- fdlinks ------------------------------------------------------------
    ( cd "$tmp/run" && "$sim" "${confined[@]}" "$prog" readlink /proc/self/fd/1 \
        readw /proc/self/fd/1 cat /proc/self/fd/1 readlink /dev/stdout ) >"$tmp/outside.txt" 2>&1
    check "fdlinks/$isa: stdout outside the root shows as (unreachable), not its host path" \
        eval "has '$tmp/outside.txt' 'readlink /proc/self/fd/1 -> [(unreachable)]' && lacks '$tmp/outside.txt' '$tmp/outside'"
    check "fdlinks/$isa: reopening it cannot add read access" \
        has "$tmp/outside.txt" "readw /proc/self/fd/1 -> EACCES" "cat /proc/self/fd/1 -> EACCES"
    ( cd "$tmp/run" && "$sim" "${confined[@]}" "$prog" readlink /proc/self/fd/1 getcwd ) \
        >"$tmp/root/out.txt" 2>&1
    check "fdlinks/$isa: stdout inside the root shows its guest path" \
        has "$tmp/root/out.txt" "readlink /proc/self/fd/1 -> [/out.txt]" "getcwd -> [/]"
    rm -f "$tmp/root/out.txt"
    out=$tmp/fd-$isa
    ( cd "$tmp/run" && "$sim" "${confined[@]}" --cwd /mnt "$prog" getcwd readlink /proc/self/cwd \
        cat b.txt readlink /proc/self/exe ) >"$out" 2>&1
    check "fdlinks/$isa: --cwd is a guest path; exe outside the root shows only its name" \
        has "$out" "getcwd -> [/mnt]" "readlink /proc/self/cwd -> [/mnt]" "cat b.txt -> [bound|]" \
            "readlink /proc/self/exe -> [/confine]"

    # ---- sysroot ------------------------------------------------------------
    out=$tmp/sysroot-$isa
    ( cd "$tmp/run" && "$sim" --sysroot "$tmp/sysroot" "$prog" cat /lib/x.txt write /lib/x.txt y \
        cat /lib/esc cat /lib/../../../../lib/x.txt ) >"$out" 2>&1
    check "sysroot/$isa: read first, never written, its symlinks stay inside" \
        eval "has '$out' 'cat /lib/x.txt -> [fromsysroot|]' 'cat /lib/esc -> ENOENT' \
                  'cat /lib/../../../../lib/x.txt -> [fromsysroot|]' &&
              ! grep -qx 'write /lib/x.txt -> ok' '$out' && [ \"\$(cat '$tmp/sysroot/lib/x.txt')\" = fromsysroot ]"
done

# ---- badinput -----------------------------------------------------------------
prog=$build/confine/rv64/confine
# bad_case NAME REGEX ARGS...: status 2, nothing run, one line matching REGEX
bad_one() {
    [ "$1" = 2 ] && [ "$(wc -l <"$tmp/bi.err")" = 1 ] && [ ! -s "$tmp/bi.out" ] &&
        grep -q -- "^hps-sim: .*$2" "$tmp/bi.err"
}
bad_case() {
    local name=$1 want=$2; shift 2
    "$sim" "$@" "$prog" getcwd >"$tmp/bi.out" 2>"$tmp/bi.err"
    local rc=$?
    check "badinput: $name (status $rc: $(head -c 150 "$tmp/bi.err"))" bad_one $rc "$want"
}
bad_case "--fs-root of a missing directory" "--fs-root $tmp/nothere" --fs-root "$tmp/nothere"
bad_case "--fs-root of a file" "--fs-root $tmp/secret.txt: not a directory" --fs-root "$tmp/secret.txt"
bad_case "--fs-root ''" "--fs-root: expected a directory" --fs-root ""
bad_case "--bind without GUEST" "--bind .$tmp/bind.: expected HOST:GUEST" --bind "$tmp/bind"
bad_case "--bind with a relative GUEST" "--bind .$tmp/bind:mnt.: expected HOST:GUEST" --bind "$tmp/bind:mnt"
bad_case "--bind without HOST" "--bind .:/mnt.: expected HOST:GUEST" --bind ":/mnt"
bad_case "--bind of a missing host path" "--bind $tmp/nothere:/mnt: .*expected an existing host" \
    --bind "$tmp/nothere:/mnt"
bad_case "--bind onto a missing guest path" "--bind $tmp/bind:/nowhere: /nowhere is not in the guest" \
    --fs-root "$tmp/root" --bind "$tmp/bind:/nowhere"
bad_case "--bind onto /proc" "--bind $tmp/bind:/proc/self: .*/proc is emulated" --bind "$tmp/bind:/proc/self"
bad_case "--bind of a directory over a file" "a directory cannot be shown over a file" \
    --fs-root "$tmp/root" --bind "$tmp/bind:/etc/hello"
bad_case "--cwd outside the root" "--cwd /nowhere: " --fs-root "$tmp/root" --cwd /nowhere
"$sim" --help >"$tmp/help.txt"
check "badinput: --help describes --fs-root and --bind" \
    eval "grep -q -- '--fs-root DIR' '$tmp/help.txt' && grep -q -- '--bind HOST:GUEST' '$tmp/help.txt'"

# ---- same -------------------------------------------------------------------------
fileio=$build/guest/rv64/fileio
if [ -x "$fileio" ]; then
    mkdir -p "$tmp/s1" "$tmp/s2"
    ( cd "$tmp/s1" && "$sim" "$fileio" "$tmp/s1" ) >"$tmp/fileio1" 2>&1
    ( cd "$tmp/s2" && "$sim" --bind /:/ "$fileio" "$tmp/s2" ) >"$tmp/fileio2" 2>&1
    check "same: fileio prints the same confined and with --bind /:/" \
        eval "[ -s '$tmp/fileio1' ] && cmp -s '$tmp/fileio1' '$tmp/fileio2' && grep -q 'entries left=0' '$tmp/fileio1'"
else
    bad "same: $fileio not built"
fi
dyn=$build/guest/rv64-dyn/hello
if [ -x "$dyn" ]; then
    out=$( cd "$tmp/run" && "$sim" --sysroot /usr/riscv64-linux-gnu "$dyn" 2>&1 )
    check "same: a dynamic program loads its libraries through --sysroot, confined" \
        test "$out" = "hello, world"
else
    bad "same: $dyn not built"
fi

echo "confine: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
