#!/usr/bin/python3
# gt_check.py - checks the ground-truth files (hps-sim --ground-truth, format
# in pipeline/README.md) of a timing micro-benchmark run for N1 and for N2
# loop iterations against what its loop must show; used by
# tests/timing/run.sh.  Like the cycle counts, stall cycles are taken per
# iteration as the difference of the two runs over N2 - N1, which removes
# start-up and warm-up.  Prints "ok ..." or "FAIL ..." lines, one per check,
# and exits 1 if any failed.
#
#   gt_check.py NAME GT1 GT2 CYCLES2 N1 N2 [options]
#     GT1, GT2      ground truth of the runs with N1 and N2 iterations
#     CYCLES2       cpu.cycles of the N2 run
#     the loop's rows are those in main executed exactly N1 and N2 times
#   --drain D       the sum of head_cycles over all rows of GT2 is CYCLES2 - D
#   --stats JSON    each stall column of GT2, summed over all rows, equals the
#                   statistic cpu.stallCycles::CAUSE of the same run (JSON
#                   from --stats-json); the profiler column (v2: stalls the
#                   profiler's own code caused, of any cause) must be 0 then
#   --cause C       stall cause C has at least --share (default 0.95) of the
#                   loop's stall cycles per iteration
#   --per-iter X    ... and there are X of them per iteration (+-1)
#   --chase         the loop is [counter, 8 chained loads, ...]: every load
#                   with stall cycles names the load before it (cyclically)
#                   as its culprit
#   --branch        the loop's first instruction names its last (the loop
#                   branch) as its culprit
import argparse
import json
import sys


def read_rows(path):
    """Rows of the file as dicts, and the stall-cause column names (v2's
    profiler column, after them, is no cause: each row's "profiler")."""
    rows, causes, prof = [], None, False
    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if cols[0] == "pc":
                causes = cols[4:-1]
                prof = causes[-1:] == ["profiler"]
                if prof:
                    causes = causes[:-1]
                continue
            row = {"pc": int(cols[0], 16), "symbol": cols[1], "count": int(cols[2]),
                   "head": int(cols[3]),
                   "culprit": None if cols[-1] == "-" else int(cols[-1], 16)}
            row["stall"] = dict(zip(causes, (int(v) for v in cols[4:4 + len(causes)])))
            row["profiler"] = int(cols[-2]) if prof else 0
            rows.append(row)
    return rows, causes


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("name")
    ap.add_argument("gt1")
    ap.add_argument("gt2")
    ap.add_argument("cycles", type=int)
    ap.add_argument("n1", type=int)
    ap.add_argument("n2", type=int)
    ap.add_argument("--drain", type=int)
    ap.add_argument("--stats")
    ap.add_argument("--cause")
    ap.add_argument("--share", type=float, default=0.95)
    ap.add_argument("--per-iter", type=float)
    ap.add_argument("--chase", action="store_true")
    ap.add_argument("--branch", action="store_true")
    a = ap.parse_args()

    rows1, _ = read_rows(a.gt1)
    rows, causes = read_rows(a.gt2)
    results = []

    def check(ok, what):
        results.append(ok)
        print("%-4s %s: %s" % ("ok" if ok else "FAIL", a.name, what))

    if causes is None:
        check(False, "no header line in %s" % a.gt2)
        return 1
    if a.drain is not None:
        heads = sum(r["head"] for r in rows)
        check(heads == a.cycles - a.drain,
              "sum of head_cycles %d = cycles %d - drain %d (got drain %d)"
              % (heads, a.cycles, a.drain, a.cycles - heads))
    if a.stats:
        with open(a.stats) as f:
            stats = json.load(f)
        bad = ["%s %d vs %s" % (c, sum(r["stall"][c] for r in rows),
                                stats.get("cpu.stallCycles::" + c, {}).get("value"))
               for c in causes
               if sum(r["stall"][c] for r in rows) != stats.get("cpu.stallCycles::" + c,
                                                                 {}).get("value")]
        prof = sum(r["profiler"] for r in rows)
        if prof:
            bad.append("profiler column %d: the statistics hold it under its causes" % prof)
        check(not bad, "stall columns add up to cpu.stallCycles::*" +
              ("" if not bad else " (" + "; ".join(bad) + ")"))
    before = {r["pc"]: r for r in rows1 if r["count"] == a.n1}
    loop = sorted((r for r in rows if r["count"] == a.n2 and r["pc"] in before
                   and r["symbol"].startswith("main")), key=lambda r: r["pc"])
    if not loop:
        check(False, "no rows in main executed %d and %d times" % (a.n1, a.n2))
        return 1
    if a.cause:
        iters = a.n2 - a.n1
        per = {c: sum(r["stall"][c] - before[r["pc"]]["stall"][c] for r in loop) / iters
               for c in causes}
        total = sum(per.values())
        share = per[a.cause] / total if total else 0.0
        check(share >= a.share, "%s has %.1f%% of the loop's %.3f stall cycles per iteration"
              " (want >= %.0f%%)" % (a.cause, 100 * share, total, 100 * a.share))
        if a.per_iter is not None:
            check(abs(per[a.cause] - a.per_iter) <= 1,
                  "%s: %.3f stall cycles per iteration (expected %g)"
                  % (a.cause, per[a.cause], a.per_iter))
    if a.chase:
        loads = loop[1:9]
        bad = []
        for k, r in enumerate(loads):
            want = loads[k - 1]["pc"]
            if sum(r["stall"].values()) and r["culprit"] != want:
                bad.append("0x%x blames %s, not 0x%x" % (
                    r["pc"], "nobody" if r["culprit"] is None else "0x%x" % r["culprit"], want))
        check(not bad, "each stalled load blames the load before it" +
              ("" if not bad else " (" + "; ".join(bad) + ")"))
    if a.branch:
        got = loop[0]["culprit"]
        check(got == loop[-1]["pc"], "the loop's first instruction blames the branch 0x%x (got %s)"
              % (loop[-1]["pc"], "nobody" if got is None else "0x%x" % got))
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
