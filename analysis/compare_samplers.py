#!/usr/bin/python3
"""compare_samplers.py - skid sampling (DCPI), precise sampling (PEBS-like
--dcpi-precise 2, ProfileMe --profileme) and DISE sampling (HPS,
productions/hot_method.acf) side by side on the same workloads.

For each workload it runs hps-sim once plain (the baseline cycles) and once
per sampler, then scores each sampler's per-instruction and per-procedure
cycle and D-cache miss profiles against the exact truth of its own run (the
epoch's exact.tsv for the DCPI-driven samplers, --ground-truth for HPS) with
the HPS top-90% overlap (profile.h's profile_accuracy, not renormalised),
and its overhead (cycles / baseline cycles - 1).  What a sampler cannot
measure is "-" (HPS samples method entries, not instructions or misses).

  analysis/compare_samplers.py [--sim build/hps-sim] [--isa rv64|alpha-static]
      [--config ev5] [--size test] [--out results/compare] [--plot FILE.png]
      WORKLOAD...
  analysis/compare_samplers.py --replot OUT/compare-ISA.tsv --plot FILE.png
      (the plot again from a table written before, without running anything)

Prints one table per workload and writes OUT/compare-ISA.tsv; with --plot,
accuracy against overhead (per-procedure cycles; per-instruction D-cache
misses), one marker per sampler, setting and workload (matplotlib, PNG).
"""
import argparse
import glob
import os
import shutil
import struct
import subprocess
import sys

# (name, hps-sim options, how its profiles are read)
SAMPLERS = [
    ("dcpi-skid 62k", ["--dcpi-events", "cycles:60000-64000,dmiss:2000-2047"], "dcpi"),
    ("dcpi-skid 6.2k", ["--dcpi-events", "cycles:6000-6400,dmiss:200-204"], "dcpi"),
    ("pebs-precise2 62k", ["--dcpi-precise", "2", "--dcpi-events",
                           "cycles:60000-64000,dmiss:2000-2047"], "dcpi"),
    ("pebs-precise2 6.2k", ["--dcpi-precise", "2", "--dcpi-events",
                            "cycles:6000-6400,dmiss:200-204"], "dcpi"),
    ("profileme 10k", ["--profileme", "10000:16"], "profileme"),
    ("profileme 1k", ["--profileme", "1000:16"], "profileme"),
    ("hps hot_method", ["--acf", "productions/hot_method.acf"], "hps"),
]


def bad_input(message):
    """One line naming what was wrong, status 2."""
    print("compare_samplers: " + message, file=sys.stderr)
    sys.exit(2)


def accuracy(sampled, exact, fraction=0.9):
    """Top-90% overlap of two {member: weight} profiles, in percent."""
    def kept(p):
        total = sum(p.values())
        order = sorted(p.items(), key=lambda kv: (-kv[1], str(kv[0])))
        out, acc = {}, 0
        for k, w in order:
            if acc >= fraction * total * (1 - 1e-12):
                break
            out[k] = w / total
            acc += w
        return out
    if not sum(sampled.values()) and not sum(exact.values()):
        return 100.0
    if not sum(sampled.values()) or not sum(exact.values()):
        return 0.0
    a, p = kept(sampled), kept(exact)
    return 100.0 * sum(min(a[k], p[k]) for k in a if k in p)


def procedure(symbol):
    """'func+0x1c' -> 'func'; a bare address has no procedure."""
    name = symbol.split("+")[0]
    return None if name.startswith("0x") else name


def by_procedure(per_pc, names):
    out = {}
    for pc, w in per_pc.items():
        proc = names.get(pc)
        if proc:
            out[proc] = out.get(proc, 0) + w
    return out


def read_tsv(path, comment="#"):
    rows = []
    header = None
    for line in open(path):
        if line.startswith(comment):
            continue
        fields = line.rstrip("\n").split("\t")
        if header is None:
            header = fields
        else:
            rows.append(dict(zip(header, fields)))
    return rows


def read_profile(path):
    data = open(path, "rb").read()
    n = struct.unpack("<7Q", data[:56])[6]
    return dict(struct.unpack("<2Q", data[56 + 16 * k:72 + 16 * k]) for k in range(n))


def db_event(epoch, event):
    """pc -> samples of one event (static binaries: image offset = pc)."""
    out = {}
    for path in glob.glob(os.path.join(epoch, "*", event)):
        for pc, n in read_profile(path).items():
            out[pc] = out.get(pc, 0) + n
    return out


def stat(path, name):
    for line in open(path):
        f = line.split()
        if f and f[0] == name:
            return float(f[1])
    return None


def run(sim, args, log):
    with open(log, "w") as err:
        rc = subprocess.run([sim] + args, stdout=subprocess.DEVNULL, stderr=err).returncode
    if rc != 0:
        sys.exit("compare_samplers: %s %s failed (status %d), see %s" %
                 (sim, " ".join(args), rc, log))


def truth_of_epoch(epoch):
    rows = read_tsv(os.path.join(epoch, "exact.tsv"))
    names = {int(r["pc"], 16): procedure(r["symbol"]) for r in rows}
    head = {int(r["pc"], 16): int(r["head_cycles"]) for r in rows}
    dmiss = {int(r["pc"], 16): int(r["dmiss"]) for r in rows}
    return names, head, dmiss


def score(sampled_head, sampled_dmiss, names, head, dmiss):
    row = {"cyc_insn": accuracy(sampled_head, head),
           "cyc_proc": accuracy(by_procedure(sampled_head, names), by_procedure(head, names))}
    if sampled_dmiss is not None:
        row["miss_insn"] = accuracy(sampled_dmiss, dmiss)
        row["miss_proc"] = accuracy(by_procedure(sampled_dmiss, names),
                                    by_procedure(dmiss, names))
    return row


def measure_dcpi(epoch):
    names, head, dmiss = truth_of_epoch(epoch)
    row = score(db_event(epoch, "cycles"), db_event(epoch, "dmiss"), names, head, dmiss)
    row["samples"] = sum(db_event(epoch, "cycles").values()) + sum(db_event(epoch, "dmiss").values())
    return row


def measure_profileme(epoch):
    names, head, dmiss = truth_of_epoch(epoch)
    rows = read_tsv(os.path.join(epoch, "profileme.tsv"))
    s_head = {int(r["pc"], 16): int(r["head_cycles"]) for r in rows}
    s_dmiss = {int(r["pc"], 16): int(r["dcache"]) for r in rows}
    row = score(s_head, s_dmiss, names, head, dmiss)
    row["samples"] = sum(int(r["samples"]) for r in rows)
    return row


def measure_hps(gt_path, tsv_path):
    names, head = {}, {}
    for r in read_tsv(gt_path):
        pc = int(r["pc"], 16)
        names[pc] = procedure(r["symbol"])
        head[pc] = int(r["head_cycles"])
    exact = by_procedure(head, names)
    sampled = {}
    for r in read_tsv(tsv_path):
        if r["kind"] == "method":
            sampled[r["member"]] = sampled.get(r["member"], 0) + int(r["sampled"])
    return {"cyc_proc": accuracy(sampled, exact), "samples": sum(sampled.values())}


def compare_one(a, workload, prog):
    base_dir = os.path.join(a.out, a.isa, workload)
    shutil.rmtree(base_dir, ignore_errors=True)
    os.makedirs(base_dir)
    common = ["--config", a.config, "--seed", "1"]
    base_stats = os.path.join(base_dir, "base.stats")
    run(a.sim, common + ["--stats", base_stats, prog, a.size], os.path.join(base_dir, "base.err"))
    base = stat(base_stats, "cpu.cycles")
    results = []
    for k, (name, opts, kind) in enumerate(SAMPLERS):
        d = os.path.join(base_dir, "s%d" % k)
        os.makedirs(d)
        st = os.path.join(d, "stats")
        if kind == "hps":
            args = common + opts + ["--no-baseline", "--ground-truth", os.path.join(d, "gt"),
                                    "--profile-out", os.path.join(d, "hps.tsv"),
                                    "--report", os.path.join(d, "report"), "--stats", st,
                                    prog, a.size]
        else:
            args = common + ["--dcpi", os.path.join(d, "db"), "--no-baseline",
                             "--report", os.path.join(d, "report"), "--stats", st] + opts + \
                [prog, a.size]
        run(a.sim, args, os.path.join(d, "err"))
        if kind == "hps":
            row = measure_hps(os.path.join(d, "gt"), os.path.join(d, "hps.tsv"))
        else:
            epoch = os.path.join(d, "db", "epoch-0001")
            row = measure_dcpi(epoch) if kind == "dcpi" else measure_profileme(epoch)
        row["overhead"] = 100.0 * (stat(st, "cpu.cycles") / base - 1.0)
        row["sampler"] = name
        results.append(row)
    return base, results


COLUMNS = [("cyc_insn", "cycles/insn"), ("cyc_proc", "cycles/proc"), ("miss_insn", "dmiss/insn"),
           ("miss_proc", "dmiss/proc"), ("overhead", "overhead"), ("samples", "samples")]


def fmt(row, key):
    if key not in row:
        return "-"
    if key == "samples":
        return "%d" % row[key]
    return "%.1f%%" % row[key] if key != "overhead" else "%+.2f%%" % row[key]


def plot(path, table):
    """Two panels against overhead: per-procedure cycle accuracy, and
    per-instruction D-cache miss accuracy (where the sampler has one)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.5))
    markers = {"dcpi": "o", "pebs": "s", "profileme": "^", "hps": "D"}
    panels = [("cyc_proc", "per-procedure cycles"), ("miss_insn", "per-instruction D-cache misses")]
    for ax, (key, title) in zip(axes, panels):
        for name in [s[0] for s in SAMPLERS]:
            pts = [(r["overhead"], r[key]) for w, rows in table for r in rows
                   if r["sampler"] == name and key in r]
            if not pts:
                continue
            kind = name.split("-")[0].split(" ")[0]
            ax.scatter([x for x, _ in pts], [y for _, y in pts], marker=markers.get(kind, "x"),
                       label=name)
        ax.set_xscale("symlog", linthresh=0.1)
        ax.set_xlabel("overhead (% cycles over the plain run)")
        ax.set_ylabel("accuracy (top-90% overlap, %)")
        ax.set_title(title)
        ax.set_ylim(-2, 102)
    axes[0].legend(fontsize=7)
    fig.suptitle("accuracy vs overhead: " + ", ".join(w for w, _ in table), fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def table_from_tsv(path):
    """[(workload, rows)] from a compare-ISA.tsv, values back to numbers."""
    table = []
    for r in read_tsv(path):
        row = {"sampler": r["sampler"]}
        for key, title in COLUMNS:
            if r[title] != "-":
                row[key] = float(r[title].rstrip("%"))
        if not table or table[-1][0] != r["workload"]:
            table.append((r["workload"], []))
        table[-1][1].append(row)
    return table


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--sim", default="build/hps-sim")
    p.add_argument("--isa", default="rv64", choices=["rv64", "alpha-static"])
    p.add_argument("--config", default="ev5")
    p.add_argument("--size", default="test", choices=["test", "train", "ref"])
    p.add_argument("--out", default="results/compare")
    p.add_argument("--plot", default=None)
    p.add_argument("--replot", default=None, metavar="TSV")
    p.add_argument("workloads", nargs="*")
    a = p.parse_args()
    if a.replot:
        if not a.plot:
            bad_input("--replot needs --plot FILE.png")
        if not os.path.exists(a.replot):
            bad_input("--replot %s: no such file" % a.replot)
        plot(a.plot, table_from_tsv(a.replot))
        print("plot: %s" % a.plot)
        return
    if not a.workloads:
        bad_input("name at least one workload (e.g. lz_compress)")
    table = []
    tsv_rows = []
    for w in a.workloads:
        prog = os.path.join(os.path.dirname(a.sim), "workloads", a.isa, w)
        if not os.path.exists(prog):
            bad_input("%s: no such workload build (make workloads)" % prog)
        base, rows = compare_one(a, w, prog)
        table.append((w, rows))
        print("%s (%s, %s, %s): %d cycles plain" % (w, a.isa, a.config, a.size, base))
        print("  %-20s" % "sampler" + "".join(" %12s" % t for _, t in COLUMNS))
        for r in rows:
            print("  %-20s" % r["sampler"] + "".join(" %12s" % fmt(r, k) for k, _ in COLUMNS))
            tsv_rows.append([w, a.isa, a.config, a.size, r["sampler"]] +
                            [fmt(r, k) for k, _ in COLUMNS])
        sys.stdout.flush()
    os.makedirs(a.out, exist_ok=True)
    with open(os.path.join(a.out, "compare-%s.tsv" % a.isa), "w") as f:
        f.write("\t".join(["workload", "isa", "config", "size", "sampler"] +
                          [t for _, t in COLUMNS]) + "\n")
        for r in tsv_rows:
            f.write("\t".join(r) + "\n")
    if a.plot:
        plot(a.plot, table)
        print("plot: %s" % a.plot)


if __name__ == "__main__":
    main()
