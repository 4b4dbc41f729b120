#!/usr/bin/python3
"""sweep.py - run hps-sim over a grid of sampling settings and keep every
result in an SQLite database: accuracy against the exact profile and
overhead against the run without profiling, per point.

Two kinds of sweep:
  hps   HPS/DISE profiles (--acf) over sampling rates and burst lengths
        (frequency = burst / (burst + sparsity), as in the paper)
  dcpi  DCPI sampling (--dcpi) over sampling periods

Every point is one hps-sim run with --stats-json; its statistics go into the
table `runs` (one row per point, keyed by everything that defines it, so a
rerun skips what is already there).  Points run in parallel (--jobs), or
--slurm DIR writes a Slurm array job that runs each point on its own
(`sweep.py --point`) and `sweep.py --collect DIR` loads the results.

usage:
  sweep.py hps  --db RESULTS --workloads W1,W2 [--size test] [--config ev5]
                [--acf productions/hot_method.acf,...] [--rates 1/10,1/100,1/1000]
                [--bursts 1,10] [--jobs 2] [--slurm DIR]
  sweep.py dcpi --db RESULTS --workloads W1 [--periods 2000-2100,60000-64000] ...
  sweep.py --collect DIR --db RESULTS
Plots: plot_sweep.py RESULTS.
"""
import argparse
import concurrent.futures
import json
import os
import shlex
import sqlite3
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)

# (column, statistic) kept for every point; absent statistics are NULL.
STATS = [
    ("sim_insts", "simInsts"),
    ("cycles", "cpu.cycles"),
    ("host_seconds", "hostSeconds"),
    ("hps_samples_method", "hps.samples::method"),
    ("hps_samples_call_pair", "hps.samples::call_pair"),
    ("hps_samples_data", "hps.samples::data"),
    ("hps_accuracy_method", "hps.accuracy::method"),
    ("hps_accuracy_call_pair", "hps.accuracy::call_pair"),
    ("hps_accuracy_data", "hps.accuracy::data"),
    ("hps_overhead_ratio", "hps.overheadRatio"),
    ("hps_base_cycles", "hps.baseCycles"),
    ("hps_overhead_check", "hps.overheadCycles::check"),
    ("hps_overhead_basic", "hps.overheadCycles::basic"),
    ("hps_overhead_sample", "hps.overheadCycles::sample"),
    ("dcpi_samples", "dcpi.samples"),
    ("dcpi_accuracy_procedure", "dcpi.accuracy::procedure"),
    ("dcpi_accuracy_instruction", "dcpi.accuracy::instruction"),
    ("dcpi_estimate_error", "dcpi.estimateError"),
    ("dcpi_overhead_ratio", "dcpi.overheadRatio"),
]
KEY = ["kind", "workload", "size", "config", "profile", "rate", "burst", "period", "seed"]
# Where each row came from, from the run's "provenance" (hps-sim writes it
# into every statistics file): "0.1.0 (git 1a2b3c4d5e6f)" and the resolved
# configuration as JSON; the command line is the "command" column.
PROVENANCE = ["sim_version", "sim_config"]


def schema(db):
    cols = ", ".join(f"{c} REAL" for c, _ in STATS)
    db.execute(f"""CREATE TABLE IF NOT EXISTS runs (
        kind TEXT, workload TEXT, size TEXT, config TEXT, profile TEXT,
        rate TEXT, burst INTEGER, period TEXT, seed INTEGER,
        status INTEGER, command TEXT, {cols},
        sim_version TEXT, sim_config TEXT,
        PRIMARY KEY ({", ".join(KEY)}))""")
    have = {row[1] for row in db.execute("PRAGMA table_info(runs)")}
    for col in PROVENANCE:           # a database made before they existed
        if col not in have:
            db.execute(f"ALTER TABLE runs ADD COLUMN {col} TEXT")


def provenance_columns(prov):
    """The PROVENANCE values of a run's "provenance" object."""
    if not prov:
        return [None, None]
    return [f"{prov.get('version')} (git {prov.get('git')})",
            json.dumps(prov.get("config", {}), sort_keys=True)]


def points(args):
    """Every grid point as a dict of the KEY fields."""
    out = []
    for w in args.workloads.split(","):
        base = {"kind": args.kind, "workload": w, "size": args.size, "config": args.config,
                "seed": args.seed, "profile": "", "rate": "", "burst": 0, "period": ""}
        if args.kind == "hps":
            for acf in args.acf.split(","):
                for rate in args.rates.split(","):
                    for burst in args.bursts.split(","):
                        out.append(dict(base, profile=acf, rate=rate, burst=int(burst)))
        else:
            for period in args.periods.split(","):
                out.append(dict(base, profile="cycles", period=period))
    return out


def command(p, sim, build, stats_json, dcpi_db):
    prog = os.path.join(build, "workloads", "rv64", p["workload"])
    cmd = [sim, "--config", p["config"], "--seed", str(p["seed"]), "--stats-json", stats_json,
           "--report", "/dev/null"]
    if p["kind"] == "hps":
        cmd += ["--acf", p["profile"], "--rate", p["rate"], "--burst", str(p["burst"])]
    else:
        cmd += ["--dcpi", dcpi_db, "--dcpi-events", f"cycles:{p['period']}"]
    return cmd + [prog, p["size"]]


def run_point(p, sim, build):
    """Run one point; returns (point, status, command, stats dict); the
    stats dict holds the run's provenance under "provenance"."""
    with tempfile.TemporaryDirectory(prefix="hps-sweep.") as tmp:
        js = os.path.join(tmp, "stats.json")
        cmd = command(p, sim, build, js, os.path.join(tmp, "db"))
        r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        stats = {}
        if os.path.exists(js):
            with open(js) as f:
                data = json.load(f)
            stats = {k: v["value"] for k, v in data.items() if k != "provenance"}
            stats["provenance"] = data.get("provenance")
        elif r.returncode:
            sys.stderr.write(f"sweep: {shlex.join(cmd)}: {r.stderr.strip()}\n")
        return p, r.returncode, shlex.join(cmd), stats


def store(db, p, status, cmd, stats):
    cols = KEY + ["status", "command"] + [c for c, _ in STATS] + PROVENANCE
    vals = ([p[k] for k in KEY] + [status, cmd] + [stats.get(s) for _, s in STATS] +
            provenance_columns(stats.get("provenance")))
    db.execute(f"INSERT OR REPLACE INTO runs ({', '.join(cols)}) VALUES "
               f"({', '.join('?' * len(cols))})", vals)


def done(db, p):
    where = " AND ".join(f"{k} = ?" for k in KEY)
    return db.execute(f"SELECT 1 FROM runs WHERE {where} AND status = 0",
                      [p[k] for k in KEY]).fetchone() is not None


def write_slurm(todo, args, sim, build):
    """An array job: task i runs point i and writes DIR/point-i.json."""
    os.makedirs(args.slurm, exist_ok=True)
    with open(os.path.join(args.slurm, "points.json"), "w") as f:
        json.dump(todo, f, indent=1)
    script = os.path.join(args.slurm, "sweep.sbatch")
    with open(script, "w") as f:
        f.write(f"""#!/bin/bash
#SBATCH --job-name=hps-sweep
#SBATCH --array=0-{len(todo) - 1}
#SBATCH --cpus-per-task=1
#SBATCH --output={os.path.abspath(args.slurm)}/slurm-%A_%a.out
# written by analysis/sweep.py: one grid point per task; afterwards
#   analysis/sweep.py --collect {args.slurm} --db RESULTS
cd {shlex.quote(TOP)}
exec /usr/bin/python3 analysis/sweep.py --point "$SLURM_ARRAY_TASK_ID" \\
    --points {shlex.quote(os.path.abspath(os.path.join(args.slurm, "points.json")))} \\
    --sim {shlex.quote(sim)} --build {shlex.quote(build)}
""")
    os.chmod(script, 0o755)
    print(f"sweep: {len(todo)} points; submit with: sbatch {script}")


def one_point(args):
    with open(args.points) as f:
        todo = json.load(f)
    p, status, cmd, stats = run_point(todo[args.point], args.sim, args.build)
    out = os.path.join(os.path.dirname(args.points), f"point-{args.point}.json")
    with open(out, "w") as f:
        json.dump({"point": p, "status": status, "command": cmd, "stats": stats}, f)
    return 0 if status == 0 else 1


def collect(args, db):
    n = 0
    for name in sorted(os.listdir(args.collect)):
        if name.startswith("point-") and name.endswith(".json"):
            with open(os.path.join(args.collect, name)) as f:
                r = json.load(f)
            store(db, r["point"], r["status"], r["command"], r["stats"])
            n += 1
    db.commit()
    print(f"sweep: {n} results collected into {args.db}")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", nargs="?", choices=["hps", "dcpi"])
    ap.add_argument("--db", help="the SQLite results file")
    ap.add_argument("--workloads", default="gametree")
    ap.add_argument("--size", default="test", choices=["test", "train", "ref"])
    ap.add_argument("--config", default="ev5")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--acf", default="productions/hot_method.acf")
    ap.add_argument("--rates", default="1/10,1/100,1/1000")
    ap.add_argument("--bursts", default="1,10")
    ap.add_argument("--periods", default="2000-2100,10000-10500,60000-64000")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--sim", default=None)
    ap.add_argument("--slurm", help="write a Slurm array job into this directory")
    ap.add_argument("--point", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--points", help=argparse.SUPPRESS)
    ap.add_argument("--collect", help="load the results of a Slurm sweep")
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.sim = os.path.abspath(args.sim or os.path.join(args.build, "hps-sim"))
    if args.point is not None:
        return one_point(args)
    if not args.db:
        ap.error("--db RESULTS is required")
    db = sqlite3.connect(args.db)
    schema(db)
    if args.collect:
        return collect(args, db)
    if not args.kind:
        ap.error("say what to sweep: hps or dcpi")
    os.chdir(TOP)
    todo = [p for p in points(args) if not done(db, p)]
    if args.slurm:
        write_slurm(todo, args, args.sim, args.build)
        return 0
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for p, status, cmd, stats in pool.map(lambda p: run_point(p, args.sim, args.build), todo):
            store(db, p, status, cmd, stats)
            failed += status != 0
    db.commit()
    total = db.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    print(f"sweep: {len(todo)} points run ({failed} failed), {total} in {args.db}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
