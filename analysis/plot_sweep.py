#!/usr/bin/python3
"""plot_sweep.py - accuracy against overhead from a sweep's results
(analysis/sweep.py): one panel per ISA, model, input, workload and profile
(each panel's title says which), one line per
burst length (HPS) or one line of sampling periods (DCPI), each point
labelled with its rate or period.  Overhead is the extra cycles over the
run without profiling, in percent; accuracy the top-90% overlap with the
exact profile (HPS: the profile's own members; DCPI: cycles by procedure
and by instruction).

usage: plot_sweep.py RESULTS [--out FILE.png] [--kind hps|dcpi]
Needs Debian's python3-matplotlib (this script runs /usr/bin/python3).
"""
import argparse
import sqlite3
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

HPS_ACCURACY = {
    "hot_method": "hps_accuracy_method",
    "hot_call_pair": "hps_accuracy_call_pair",
    "hot_data_stream": "hps_accuracy_data",
}


def accuracy_column(profile):
    for name, col in HPS_ACCURACY.items():
        if name in profile:
            return col
    return "hps_accuracy_method"


def hps_series(db, run, profile):
    col = accuracy_column(profile)
    series = {}
    rows = db.execute(f"""SELECT burst, rate, hps_overhead_ratio, {col} FROM runs
                          WHERE kind = 'hps' AND status = 0 AND isa = ? AND config = ?
                          AND size = ? AND workload = ? AND profile = ? AND rate != 'exhaustive'
                          AND hps_overhead_ratio IS NOT NULL AND {col} IS NOT NULL""",
                      run + (profile,)).fetchall()
    for burst, rate, ratio, acc in rows:
        series.setdefault(f"burst {burst}", []).append((100 * (ratio - 1), acc, rate))
    return series


def dcpi_series(db, run):
    rows = db.execute("""SELECT period, dcpi_overhead_ratio, dcpi_accuracy_procedure,
                                dcpi_accuracy_instruction FROM runs
                         WHERE kind = 'dcpi' AND status = 0 AND isa = ? AND config = ?
                         AND size = ? AND workload = ?
                         AND dcpi_overhead_ratio IS NOT NULL""", run).fetchall()
    return {"by procedure": [(100 * (r - 1), a, p) for p, r, a, _ in rows],
            "by instruction": [(100 * (r - 1), i, p) for p, r, _, i in rows]}


def panels(db, kind):
    """(isa, model, input, workload) of each panel, its profile, its series."""
    runs = "SELECT DISTINCT isa, config, size, workload{} FROM runs WHERE kind = ? ORDER BY 1, 2, 3, 4"
    if kind == "hps":
        return [(tuple(r[:4]), r[4], hps_series(db, tuple(r[:4]), r[4]))
                for r in db.execute(runs.format(", profile"), (kind,))]
    return [(tuple(r), "DCPI", dcpi_series(db, tuple(r))) for r in db.execute(runs.format(""),
                                                                             (kind,))]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db")
    ap.add_argument("--out", default="sweep.png")
    ap.add_argument("--kind", default="hps", choices=["hps", "dcpi"])
    args = ap.parse_args()
    db = sqlite3.connect(args.db)
    figs = [p for p in panels(db, args.kind) if any(p[2].values())]
    if not figs:
        sys.stderr.write(f"plot_sweep: no {args.kind} results in {args.db}\n")
        return 2
    cols = min(3, len(figs))
    rows = (len(figs) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 4 * rows), squeeze=False)
    for ax, (run, profile, series) in zip(axes.flat, figs):
        for label, pts in sorted(series.items()):
            pts.sort()
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=label)
            for x, y, tag in pts:
                ax.annotate(str(tag), (x, y), textcoords="offset points", xytext=(4, 4),
                            fontsize=7)
        isa, model, size, workload = run
        ax.set_title(f"{workload}: {profile.split('/')[-1]}\n{isa}, {model} model, "
                     f"'{size}' input", fontsize=9)
        ax.set_xscale("symlog", linthresh=0.1)        # 0.1% .. 100% on one axis
        ax.set_xlabel("overhead (% extra cycles, log above 0.1%)")
        ax.set_ylabel("accuracy (top-90% overlap, %)")
        ax.set_ylim(0, 105)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(figs):]:
        ax.axis("off")
    fig.tight_layout()
    fig.savefig(args.out, dpi=110)
    print(f"plot_sweep: {args.out} ({len(figs)} panels)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
