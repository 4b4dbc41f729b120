#!/bin/bash
# run_unit.sh BUILD_DIR - run every cmocka unit-test binary in BUILD_DIR/tests
# and print one summary line "N passed, M failed" (tests, not binaries).
set -u
build=${1:-build}
passed=0; failed=0
for t in "$build"/tests/test_*; do
    [ -x "$t" ] || continue
    out=$("$t" 2>&1); rc=$?
    p=$(printf '%s\n' "$out" | sed -n 's/^\[  PASSED  \] \([0-9]*\) test.*/\1/p' | tail -1)
    f=$(printf '%s\n' "$out" | sed -n 's/^\[  FAILED  \] \([0-9]*\) test.*/\1/p' | tail -1)
    p=${p:-0}; f=${f:-0}
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed before reporting
    passed=$((passed + p)); failed=$((failed + f))
    if [ "$f" -ne 0 ]; then
        echo "FAIL $(basename "$t"): $p passed, $f failed"
        printf '%s\n' "$out" | grep -E '^\[  (FAILED|ERROR) +\]|Assert|error' | head -20
    else
        echo "PASS $(basename "$t"): $p tests"
    fi
done
echo "unit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
