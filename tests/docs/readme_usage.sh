#!/bin/bash
# readme_usage.sh HPS_SIM [README] - README.md with its usage block made
# current, on stdout: the lines between "<!-- usage:begin -->" and
# "<!-- usage:end -->" become the output of `HPS_SIM --help` in a ```text
# fence (the options are declared once, in sim/cli/options.def; --help is
# generated from them).  `make readme-usage` writes the result back;
# tests/docs/run.sh compares it with README.md.  The data roots --help
# lists last (absolute paths of this checkout, lines "  /..." or "  .")
# become one placeholder line, so the block is the same in every clone.  Exits 1 with a message on
# stderr when --help fails or the markers are missing, repeated or out of
# order.
set -u
sim=${1:?usage: readme_usage.sh HPS_SIM [README]}
readme=${2:-README.md}
help=$(mktemp "${TMPDIR:-/tmp}/usage.XXXXXX") || exit 1
trap 'rm -f "$help"' EXIT
if ! "$sim" --help >"$help" || [ ! -s "$help" ]; then
    echo "readme_usage.sh: '$sim --help' failed" >&2
    exit 1
fi
awk -v readme="$readme" '
    FNR == NR && roots && /^  [\/.]/ { if (!shown++) help = help "  (each data root of this hps-sim, one per line)\n"; next }
    FNR == NR { help = help $0 "\n"; if (/searches:$/) roots = 1; next }
    /^<!-- usage:begin -->[ \t]*$/ {
        if (state != 0) { err = "a second <!-- usage:begin -->"; exit 1 }
        print; printf "```text\n%s```\n", help; state = 1; next
    }
    /^<!-- usage:end -->[ \t]*$/ {
        if (state != 1) { err = "<!-- usage:end --> without <!-- usage:begin --> before it"; exit 1 }
        print; state = 2; next
    }
    state == 1 { next }
    { print }
    END {
        if (!err && state != 2) err = "no <!-- usage:begin --> ... <!-- usage:end --> block"
        if (err) { printf "readme_usage.sh: %s: %s\n", readme, err > "/dev/stderr"; exit 1 }
    }
' "$help" "$readme"
