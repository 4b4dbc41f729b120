#!/bin/bash
# run.sh [BUILD_DIR] - documentation checks: README.md's usage block (between
# "<!-- usage:begin -->" and "<!-- usage:end -->") must be exactly
# `hps-sim --help` in a ```text fence, as `make readme-usage` writes it, and
# every line of --help must fit in 80 columns.  The options are declared
# once in sim/cli/options.def, so a stale README block means an option changed
# without `make readme-usage`.
# Prints "PASS name" / "FAIL name: why" lines and ends with
# "N passed, M failed"; the exit status is nonzero when anything failed.
# The simulator is $HPS_SIM if set (tests/run_all.sh exports it), else
# BUILD_DIR/hps-sim (BUILD_DIR defaults to build).
set -u
build=${1:-build}
cd "$(dirname "$0")/../.."
sim=${HPS_SIM:-$build/hps-sim}
readme=README.md

passed=0; failed=0
pass() { echo "PASS $1"; passed=$((passed + 1)); }
fail() { echo "FAIL $1: $2"; failed=$((failed + 1)); }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/docs.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# --help runs, exits 0 and ends with the exit-status paragraph
if "$sim" --help >"$tmp/help" 2>"$tmp/help.err"; then
    if grep -q '^exit status:' "$tmp/help" && grep -q '^usage: hps-sim' "$tmp/help"; then
        pass help-runs
    else
        fail help-runs "'$sim --help' lacks the usage line or the exit-status paragraph"
    fi
else
    fail help-runs "'$sim --help' failed (status $?): $(head -c 200 "$tmp/help.err")"
fi

# every --help line fits in 80 columns (but the data roots, which are paths)
wide=$(awk '!/^  [\/.]/ && length($0) > 80 { printf "line %d (%d columns): %s\n", NR, length($0), $0 }' "$tmp/help")
if [ -z "$wide" ]; then pass help-width
else fail help-width "$(printf '%s' "$wide" | head -3 | tr '\n' '|')"; fi

# README has one usage block, markers in order
nb=$(grep -c '^<!-- usage:begin -->' "$readme"); ne=$(grep -c '^<!-- usage:end -->' "$readme")
lb=$(grep -n '^<!-- usage:begin -->' "$readme" | head -1 | cut -d: -f1)
le=$(grep -n '^<!-- usage:end -->' "$readme" | head -1 | cut -d: -f1)
if [ "$nb" -eq 1 ] && [ "$ne" -eq 1 ] && [ "$lb" -lt "$le" ]; then pass readme-markers
else fail readme-markers "$readme needs one '<!-- usage:begin -->' line and one '<!-- usage:end -->' line after it (found $nb and $ne)"; fi

# README's usage block is the current --help
if tests/docs/readme_usage.sh "$sim" "$readme" >"$tmp/README.md" 2>"$tmp/gen.err"; then
    if cmp -s "$tmp/README.md" "$readme"; then
        pass readme-usage-current
    else
        fail readme-usage-current "$readme's usage block differs from '$sim --help'; run make readme-usage"
        diff -u "$readme" "$tmp/README.md" | head -30 | sed 's/^/    /'
    fi
else
    fail readme-usage-current "$(head -c 300 "$tmp/gen.err")"
fi

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
