#!/usr/bin/python3
"""figures.py - the HPS paper's Figures 6-10 (PACT 2005, Section 6) from a
sweep's results (analysis/sweep.py, `make figures`), one set per ISA:

  fig6-ISA   the workload statistics table (Markdown, PNG, PDF), from the
             runs without profiling
  fig7-ISA   plain DISE against HPS per workload for hot methods, call pairs
             and data streams: overhead as instrumentation checks + basic +
             sampling + indirect (the rest), in % of the unprofiled cycles
  fig8-ISA   accuracy against overhead, mean over workloads, a panel per
             profile, a line per burst length
  fig9-ISA   the same per workload (hot methods and call pairs at burst 1,
             data streams at burst 100, as in the paper)
  fig10-ISA  accuracy per sampling rate and burst length, mean over workloads
  summary.txt  the numbers analysis/FIGURES.md compares with the paper

Each figure says its ISA, model, input and how many workloads it averages;
PNG and PDF.  A figure whose rows are not in the database is refused with a
message naming what is missing (status 2); nothing is drawn empty.

usage: figures.py RESULTS [--out DIR] [--config r10k] [--size test] [--isas rv64,alpha]
"""
import argparse
import os
import json
import sqlite3
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

from workload_table import COLUMNS  # noqa: E402  (Figure 6's columns)

PROFILES = [  # paper order: data stream, call pair, method
    ("hot_data_stream", "hot data streams", "hps_accuracy_data", 100),
    ("hot_call_pair", "hot call pairs", "hps_accuracy_call_pair", 1),
    ("hot_method", "hot methods", "hps_accuracy_method", 1),
]
ROLES = [("hps_overhead_check", "instrumentation checks", "#d62728"),
         ("hps_overhead_basic", "basic", "#ff7f0e"),
         ("hps_overhead_sample", "sampling", "#1f77b4")]
INDIRECT = ("indirect (caches, predictors, overlap)", "#9e9e9e")
ISA_NAMES = {"rv64": "RISC-V RV64GC", "alpha": "Alpha"}


class Missing(Exception):
    """A figure's rows are not in the database."""


# ---- reading the results -------------------------------------------------------

def rate_value(rate):
    num, _, den = rate.partition("/")
    return float(num) / float(den) if den else float(num)


def hps_rows(db, ctx, acf_name):
    """Rows of one ACF (by file name) for the context's ISA, model and size:
    dicts with the KEY fields and the statistics."""
    db.row_factory = sqlite3.Row
    rows = db.execute("""SELECT * FROM runs WHERE kind = 'hps' AND status = 0 AND isa = ?
                         AND config = ? AND size = ? AND hps_overhead_ratio > 0""",
                      (ctx["isa"], ctx["config"], ctx["size"])).fetchall()
    return [dict(r) for r in rows
            if os.path.basename(r["profile"]) == acf_name + ".acf"]


def overhead_pct(r):
    return 100.0 * (r["hps_overhead_ratio"] - 1.0)


def mean_curve(rows, acc_col, burst):
    """[(rate, mean overhead %, mean accuracy %, n)] over the workloads that
    have every rate of this burst length, rates dense to sparse."""
    at = {}
    for r in rows:
        if r["burst"] == burst and r["rate"] != "exhaustive" and r[acc_col] is not None:
            at.setdefault(r["rate"], {})[r["workload"]] = r
    if not at:
        return []
    common = set.intersection(*(set(v) for v in at.values()))
    out = []
    for rate in sorted(at, key=rate_value, reverse=True):
        rs = [at[rate][w] for w in common]
        if rs:
            out.append((rate, sum(map(overhead_pct, rs)) / len(rs),
                        sum(r[acc_col] for r in rs) / len(rs), len(rs)))
    return out


def comparable(curves, label, ctx):
    """Only the burst lengths measured on every workload of the panel: a
    mean over fewer workloads is not comparable (said on stderr)."""
    if not curves:
        return curves
    def count(c):
        return max(pt[3] for pt in (c.values() if isinstance(c, dict) else c))
    most = max(count(c) for c in curves.values())
    for b in [b for b, c in curves.items() if count(c) < most]:
        sys.stderr.write(f"figures: {ctx['isa']} {label}: burst {b} left out of the means "
                         f"(measured on {count(curves[b])} of {most} workloads)\n")
        del curves[b]
    return curves


def bursts_of(rows):
    return sorted({r["burst"] for r in rows if r["rate"] != "exhaustive"})


def provenance(db, ctx):
    r = db.execute("""SELECT sim_version FROM runs WHERE isa = ? AND config = ? AND size = ?
                      AND sim_version IS NOT NULL LIMIT 1""",
                   (ctx["isa"], ctx["config"], ctx["size"])).fetchone()
    return r[0] if r else "unknown"


# ---- drawing helpers -----------------------------------------------------------

def context_line(ctx, n_workloads=None):
    who = f", {plural(n_workloads, 'workload')}" if n_workloads else ""
    return (f"{ISA_NAMES.get(ctx['isa'], ctx['isa'])}, {ctx['config']} model, "
            f"'{ctx['size']}' inputs{who}")


def finish(fig, ctx, name, title, n_workloads=None):
    fig.suptitle(f"{title}\n{context_line(ctx, n_workloads)}; hps-sim {ctx['version']}",
                 fontsize=11)
    paths = []
    for ext in ("png", "pdf"):
        path = os.path.join(ctx["out"], f"{name}-{ctx['isa']}.{ext}")
        fig.savefig(path, dpi=150, bbox_inches="tight")
        paths.append(path)
    plt.close(fig)
    return paths


def plural(n, noun):
    return f"{n} {noun}{'' if n == 1 else 's'}"


def rate_markers(rates):
    shapes = "osD^vP*Xph<>"
    return {rate: shapes[i % len(shapes)] for i, rate in enumerate(rates)}


# ---- Figure 6 ------------------------------------------------------------------

def figure6(db, ctx):
    rows = db.execute("""SELECT workload, stats FROM runs WHERE kind = 'base' AND status = 0
                         AND isa = ? AND config = ? AND size = ? ORDER BY workload""",
                      (ctx["isa"], ctx["config"], ctx["size"])).fetchall()
    if not rows:
        raise Missing("no runs without profiling (kind 'base')")
    header = ["Workload"] + [c[0] for c in COLUMNS]
    table = []
    for workload, stats in rows:
        values = json.loads(stats or "{}")
        table.append([workload] + [fmt.format(values[stat] / scale) if stat in values else "-"
                                   for _, stat, scale, fmt in COLUMNS])
    md = os.path.join(ctx["out"], f"fig6-{ctx['isa']}.md")
    with open(md, "w") as f:
        f.write(f"Figure 6: workload statistics ({context_line(ctx)}; hps-sim {ctx['version']})"
                "\n\n| " + " | ".join(header) + " |\n|---" + "|---:" * len(COLUMNS) + "|\n")
        for line in table:
            f.write("| " + " | ".join(line) + " |\n")
    fig, ax = plt.subplots(figsize=(12, 0.3 * len(table) + 0.9))
    ax.axis("off")
    t = ax.table(cellText=table, colLabels=[h.replace(" (", "\n(") for h in header],
                 loc="center", cellLoc="right", colLoc="center")
    t.auto_set_font_size(False)
    t.set_fontsize(8)
    t.scale(1, 1.5)
    for (row, col), cell in t.get_celld().items():
        if row == 0:
            cell.set_height(cell.get_height() * 1.8)
            cell.set_text_props(weight="bold")
        if col == 0:
            cell.set_text_props(ha="left")
    return [md] + finish(fig, ctx, "fig6", "Figure 6. Workload statistics", len(table))


# ---- Figure 7 ------------------------------------------------------------------

def breakdown(r):
    """(check, basic, sample, indirect) in % of the unprofiled cycles."""
    base = r["hps_base_cycles"]
    parts = [100.0 * (r[col] or 0) / base for col, _, _ in ROLES]
    total = overhead_pct(r)
    return parts + [total - sum(parts)]


def figure7_pairs(db, ctx, name, burst):
    """{workload: (plain-DISE row, HPS row)} at the Figure 7 rate."""
    def at(rows):
        return {r["workload"]: r for r in rows if r["rate"] == ctx["fig7_rate"]
                and r["burst"] == burst}
    dise, hps = at(hps_rows(db, ctx, name + "_dise")), at(hps_rows(db, ctx, name))
    both = sorted(set(dise) & set(hps))
    if not both:
        raise Missing(f"no {name}_dise.acf and {name}.acf pair at rate {ctx['fig7_rate']} "
                      f"burst {burst}")
    return {w: (dise[w], hps[w]) for w in both}


def figure7(db, ctx):
    panels = [(label, burst, figure7_pairs(db, ctx, name, burst))
              for name, label, _, burst in PROFILES]
    n = max(len(p) for _, _, p in panels)
    fig, axes = plt.subplots(len(panels), 1, figsize=(12, 3.6 * len(panels)))
    for ax, (label, burst, pairs) in zip(axes, panels):
        draw_breakdown(ax, pairs)
        ax.set_title(f"{label}: rate {ctx['fig7_rate']}, burst {burst} "
                     f"({plural(len(pairs), 'workload')})", fontsize=10)
    handles = [plt.Rectangle((0, 0), 1, 1, color=c) for _, _, c in ROLES] + \
              [plt.Rectangle((0, 0), 1, 1, color=INDIRECT[1])]
    fig.legend(handles, [lab for _, lab, _ in ROLES] + [INDIRECT[0]], loc="lower center",
               ncol=4, fontsize=9, bbox_to_anchor=(0.5, -0.02))
    fig.tight_layout(rect=(0, 0.03, 1, 0.95))
    return finish(fig, ctx, "fig7", "Figure 7. Plain DISE (D) against HPS (H): overhead "
                  "by source", n)


def draw_breakdown(ax, pairs):
    width, lowest = 0.38, 0.0
    for i, (w, rows) in enumerate(sorted(pairs.items())):
        for j, r in enumerate(rows):
            x = i + (j - 0.5) * (width + 0.04)
            parts = breakdown(r)
            bottom = 0.0
            for value, (_, _, color) in zip(parts[:3], ROLES):
                ax.bar(x, value, width, bottom=bottom, color=color)
                bottom += value
            indirect = parts[3]
            lowest = min(lowest, indirect)
            ax.bar(x, indirect, width, bottom=bottom if indirect > 0 else 0,
                   color=INDIRECT[1], hatch="//" if indirect < 0 else None)
            total = overhead_pct(r)
            ax.annotate(f"{'DH'[j]} {total:.3g}%", (x, max(bottom, bottom + indirect)),
                        textcoords="offset points", xytext=(0, 2), ha="center",
                        va="bottom", rotation=90, fontsize=6.5)
    ax.set_xticks(range(len(pairs)))
    ax.set_xticklabels(sorted(pairs), rotation=25, ha="right", fontsize=8)
    ax.set_ylabel("overhead (% of unprofiled cycles)", fontsize=9)
    ax.axhline(0, color="black", linewidth=0.6)
    ax.margins(y=0.25)
    ax.set_ylim(bottom=1.25 * lowest)   # no empty band below 0 unless a bar goes there
    ax.grid(axis="y", alpha=0.3)


# ---- Figures 8 and 9 -----------------------------------------------------------

def overhead_axis(ax):
    ax.set_xscale("symlog", linthresh=0.01)
    ax.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda x, _: f"{x:g}"))
    ax.set_xlabel("overhead (% extra cycles; log scale, linear below 0.01%)", fontsize=9)
    ax.set_ylabel("accuracy (top-90% overlap with the exact profile, %)", fontsize=9)
    ax.set_ylim(0, 102)
    ax.grid(alpha=0.3, which="both")


def figure8(db, ctx):
    fig, axes = plt.subplots(1, len(PROFILES), figsize=(16, 5.2))
    all_rates = set()
    for ax, (name, label, col, _) in zip(axes, PROFILES):
        rows = hps_rows(db, ctx, name)
        curves = {b: mean_curve(rows, col, b) for b in bursts_of(rows)}
        curves = comparable({b: c for b, c in curves.items() if c}, label, ctx)
        if not curves:
            raise Missing(f"no sampled {name}.acf rows with accuracy")
        rates = sorted({c[0] for cs in curves.values() for c in cs}, key=rate_value,
                       reverse=True)
        all_rates |= set(rates)
        marks = rate_markers(sorted(all_rates, key=rate_value, reverse=True))
        for b, curve in curves.items():
            line, = ax.plot([c[1] for c in curve], [c[2] for c in curve], label=f"burst {b}")
            for rate, x, y, _ in curve:
                ax.plot(x, y, marker=marks[rate], color=line.get_color(), markersize=7,
                        linestyle="none")
        overhead_axis(ax)
        n = max(c[3] for cs in curves.values() for c in cs)
        ax.set_title(f"{label} (mean of {plural(n, 'workload')})", fontsize=10)
        ax.legend(fontsize=8, loc="best", title="line: burst length", title_fontsize=8)
    marks = rate_markers(sorted(all_rates, key=rate_value, reverse=True))
    fig.legend([plt.Line2D([], [], marker=m, color="black", linestyle="none") for m in marks.values()],
               [f"rate {r}" for r in marks], loc="lower center", ncol=len(marks), fontsize=9,
               bbox_to_anchor=(0.5, -0.04), title="marker: sampling rate", title_fontsize=8)
    fig.tight_layout(rect=(0, 0.05, 1, 0.93))
    return finish(fig, ctx, "fig8", "Figure 8. Accuracy against overhead, mean over "
                  "workloads")


def figure9(db, ctx):
    fig, axes = plt.subplots(1, len(PROFILES), figsize=(16, 5.6))
    workloads = set()
    everyone = sorted({r["workload"] for name, _, _, _ in PROFILES for r in hps_rows(db, ctx, name)})
    for ax, (name, label, col, paper_burst) in zip(axes, PROFILES):
        rows = hps_rows(db, ctx, name)
        bursts = bursts_of(rows)
        if not bursts:
            raise Missing(f"no sampled {name}.acf rows")
        burst = paper_burst if paper_burst in bursts else min(bursts, key=lambda b:
                                                                  abs(b - paper_burst))
        per = {}
        for r in rows:
            if r["burst"] == burst and r["rate"] != "exhaustive" and r[col] is not None:
                per.setdefault(r["workload"], []).append(r)
        workloads |= set(per)
        for w in sorted(per):
            i = everyone.index(w)       # a workload has one colour and marker in every panel
            pts = sorted(per[w], key=lambda r: rate_value(r["rate"]))
            ax.plot([overhead_pct(r) for r in pts], [r[col] for r in pts],
                    marker="osD^v<>ph*XP"[i % 12], markersize=4, linewidth=1,
                    color=plt.cm.tab20((2 * i) % 20 + (2 * i) // 20 % 2), label=w)
        overhead_axis(ax)
        ax.set_title(f"{label}, burst {burst}", fontsize=10)
    legend = {}
    for ax in axes:                     # every workload once, whichever panel has it
        for handle, label in zip(*ax.get_legend_handles_labels()):
            legend.setdefault(label, handle)
    labels = sorted(legend)
    handles = [legend[label] for label in labels]
    fig.legend(handles, labels, loc="lower center", ncol=min(6, len(labels)), fontsize=8,
               bbox_to_anchor=(0.5, -0.06))
    fig.tight_layout(rect=(0, 0.07, 1, 0.93))
    return finish(fig, ctx, "fig9", "Figure 9. Accuracy against overhead per workload "
                  "(each line: sampling rates, sparse to dense)", len(workloads))


# ---- Figure 10 -----------------------------------------------------------------

def figure10(db, ctx):
    fig, axes = plt.subplots(1, len(PROFILES), figsize=(16, 4.8))
    for ax, (name, label, col, _) in zip(axes, PROFILES):
        rows = hps_rows(db, ctx, name)
        curves = {b: {c[0]: c for c in mean_curve(rows, col, b)} for b in bursts_of(rows)}
        curves = comparable({b: c for b, c in curves.items() if c}, label, ctx)
        if not curves:
            raise Missing(f"no sampled {name}.acf rows with accuracy")
        rates = sorted({r for c in curves.values() for r in c}, key=rate_value, reverse=True)
        width = 0.8 / len(curves)
        for j, (b, curve) in enumerate(sorted(curves.items())):
            xs = [i + (j - (len(curves) - 1) / 2) * width for i, r in enumerate(rates)
                  if r in curve]
            ys = [curve[r][2] for r in rates if r in curve]
            ax.bar(xs, ys, width * 0.95, label=f"burst {b}")
        ax.set_xticks(range(len(rates)))
        ax.set_xticklabels(rates, fontsize=8)
        ax.set_xlabel("sampling rate (sampled events / events)", fontsize=9)
        ax.set_ylabel("accuracy (top-90% overlap, %)", fontsize=9)
        ax.set_ylim(0, 118)             # room for the legend above the 100% bars
        ax.set_yticks(range(0, 101, 20))
        n = max(c[3] for cs in curves.values() for c in cs.values())
        ax.set_title(f"{label} (mean of {plural(n, 'workload')})", fontsize=10)
        ax.grid(axis="y", alpha=0.3)
        ax.legend(fontsize=8, loc="upper center", ncol=len(curves))
    fig.tight_layout(rect=(0, 0.02, 1, 0.90))
    return finish(fig, ctx, "fig10", "Figure 10. Accuracy by burst length, mean over "
                  "workloads")


# ---- the numbers FIGURES.md quotes ---------------------------------------------

def summary(db, ctx):
    """Lines of measured numbers for the paper's claims."""
    out = [f"== {context_line(ctx)} (hps-sim {ctx['version']})"]
    for name, label, col, _ in PROFILES:
        rows = hps_rows(db, ctx, name)
        sampled = [r for r in rows if r["rate"] != "exhaustive"]
        if sampled:
            basic = max(100.0 * (r["hps_overhead_basic"] or 0) / r["hps_base_cycles"]
                        for r in sampled)
            check = max(100.0 * (r["hps_overhead_check"] or 0) / r["hps_base_cycles"]
                        for r in sampled)
            out.append(f"{label}: HPS basic overhead at most {basic:.4f}%, instrumentation "
                       f"checks at most {check:.4f}% over {len(sampled)} sampled points")
        for b in bursts_of(rows):
            for rate, o, a, n in mean_curve(rows, col, b):
                out.append(f"{label}: burst {b} rate {rate}: mean overhead {o:.3f}%, "
                           f"mean accuracy {a:.1f}% ({n} workloads)")
        for b in bursts_of(rows):
            good = [c for c in mean_curve(rows, col, b) if c[2] >= 90.0]
            if good:
                cheapest = min(good, key=lambda c: c[1])
                out.append(f"{label}: burst {b}: cheapest mean accuracy >= 90%: rate "
                           f"{cheapest[0]}, overhead {cheapest[1]:.3f}%, accuracy "
                           f"{cheapest[2]:.1f}%")
        per = [(overhead_pct(r), r["workload"]) for r in sampled
               if r["rate"] == "1/100" and r["burst"] == 1]
        if per:
            out.append(f"{label}: rate 1/100 burst 1 per workload: overhead "
                       f"{min(per)[0]:.3f}% ({min(per)[1]}) to {max(per)[0]:.3f}% "
                       f"({max(per)[1]})")
        exh = [overhead_pct(r) for r in hps_rows(db, ctx, name + "_all")]
        if exh:
            out.append(f"{label}: exhaustive: mean overhead {sum(exh) / len(exh):.1f}% "
                       f"({len(exh)} workloads)")
    for name, label, _, burst in PROFILES:
        try:
            pairs = figure7_pairs(db, ctx, name, burst)
        except Missing:
            continue
        d = sum(overhead_pct(p[0]) for p in pairs.values()) / len(pairs)
        h = sum(overhead_pct(p[1]) for p in pairs.values()) / len(pairs)
        parts = [sum(breakdown(p[0])[k] for p in pairs.values()) / len(pairs) for k in range(4)]
        out.append(f"{label}: Figure 7 at {ctx['fig7_rate']} burst {burst}: plain DISE mean "
                   f"{d:.2f}% (checks {parts[0]:.2f}, basic {parts[1]:.2f}, sampling "
                   f"{parts[2]:.2f}, indirect {parts[3]:.2f}), HPS mean {h:.3f}% "
                   f"({len(pairs)} workloads)")
    return out


# ---- the command line ----------------------------------------------------------

FIGURES = [("6", figure6), ("7", figure7), ("8", figure8), ("9", figure9), ("10", figure10)]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("db")
    ap.add_argument("--out", default="results/figures")
    ap.add_argument("--config", default="r10k", help="the model whose rows are drawn")
    ap.add_argument("--size", default="test", choices=["test", "train", "ref"])
    ap.add_argument("--isas", default=None, help="default: every ISA in the results")
    ap.add_argument("--fig7-rate", default="1/100", help="Figure 7's sampling rate")
    args = ap.parse_args()
    if not os.path.exists(args.db):
        sys.stderr.write(f"figures: {args.db}: no such results file\n")
        return 2
    db = sqlite3.connect(args.db)
    isas = args.isas.split(",") if args.isas else [r[0] for r in db.execute(
        "SELECT DISTINCT isa FROM runs WHERE config = ? AND size = ? ORDER BY 1",
        (args.config, args.size))]
    if not isas:
        sys.stderr.write(f"figures: {args.db}: no runs of model {args.config} on "
                         f"'{args.size}' inputs\n")
        return 2
    os.makedirs(args.out, exist_ok=True)
    missing, lines = 0, []
    for isa in isas:
        ctx = {"isa": isa, "config": args.config, "size": args.size, "out": args.out,
               "db": args.db, "fig7_rate": args.fig7_rate}
        ctx["version"] = provenance(db, ctx)
        for number, draw in FIGURES:
            try:
                for path in draw(db, ctx):
                    print(f"figures: {path}")
            except Missing as e:
                sys.stderr.write(f"figures: {args.db}: Figure {number} ({isa}, {args.config}, "
                                 f"{args.size}): {e}\n")
                missing += 1
        lines += summary(db, ctx)
    with open(os.path.join(args.out, "summary.txt"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print(f"figures: {os.path.join(args.out, 'summary.txt')}")
    return 2 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
