#!/usr/bin/python3
"""sweep.py - run hps-sim over a grid of profiling settings and keep every
result in an SQLite database: accuracy against the exact profile and
overhead against the run without profiling, per point.

The grid is ISA (rv64, alpha) x model (--configs) x workload x profile (ACF)
x sampling rate x burst length (frequency = burst / (burst + sparsity), as
in the paper).  An exhaustive ACF (one without the sampleFreq parameter,
e.g. productions/hot_method_all.acf) is one point per workload, rate
"exhaustive", run without --rate/--burst.  DCPI sweeps sampling periods.

Every point is one hps-sim run with --stats-json.  Profiled points run with
--no-baseline; the run without profiling is a point of its own (kind
"base", one per ISA, model and workload; its statistics are Figure 6's) and
every profiled row's overhead is its cycles over that row's.  Each point is
committed as it finishes (SQLite in WAL mode with a busy timeout, so a
killed sweep loses only the points that were running, a rerun runs only
what is missing, and two sweeps can write one database at once).  Each row
carries the simulator's version, resolved configuration and command line
(from the run's "provenance").  A progress line (points done/total, ETA)
goes to stderr.

usage:
  sweep.py hps  --db RESULTS --workloads W1,W2 [--isas rv64,alpha] [--size test]
                [--configs ev5,r10k] [--acf productions/hot_method.acf,...]
                [--rates 1/10,1/100,1/1000] [--bursts 1,10] [--jobs 2] [--slurm DIR]
  sweep.py dcpi --db RESULTS --workloads W1 [--periods 2000-2100,60000-64000] ...
  sweep.py --collect DIR --db RESULTS      load a Slurm sweep, name what is missing
  sweep.py pareto --db RESULTS [--slack 5] the accuracy/overhead fronts and knees
Plots: plot_sweep.py RESULTS, figures.py RESULTS.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shlex
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(HERE)

# The guest binary of a workload for each ISA name the sweep accepts.
ISA_DIRS = {"rv64": "rv64", "alpha": "alpha-static"}

# (column, statistic) kept for every point; absent statistics are NULL.
STATS = [
    ("sim_insts", "simInsts"),
    ("cycles", "cpu.cycles"),
    ("host_seconds", "hostSeconds"),
    ("cpu_seconds", "cpuSeconds"),      # measured by the sweep: the run's user + system time
    ("hps_samples_method", "hps.samples::method"),
    ("hps_samples_call_pair", "hps.samples::call_pair"),
    ("hps_samples_data", "hps.samples::data"),
    ("hps_accuracy_method", "hps.accuracy::method"),
    ("hps_accuracy_call_pair", "hps.accuracy::call_pair"),
    ("hps_accuracy_data", "hps.accuracy::data"),
    ("hps_accuracy_data_words", "hps.accuracy::dataWords"),
    ("hps_overhead_ratio", "hps.overheadRatio"),
    ("hps_base_cycles", "hps.baseCycles"),
    ("hps_overhead_check", "hps.overheadCycles::check"),
    ("hps_overhead_basic", "hps.overheadCycles::basic"),
    ("hps_overhead_sample", "hps.overheadCycles::sample"),
    ("hps_overhead_other", "hps.overheadCycles::other"),
    ("dcpi_samples", "dcpi.samples"),
    ("dcpi_accuracy_procedure", "dcpi.accuracy::procedure"),
    ("dcpi_accuracy_instruction", "dcpi.accuracy::instruction"),
    ("dcpi_estimate_error", "dcpi.estimateError"),
    ("dcpi_overhead_ratio", "dcpi.overheadRatio"),
]
KEY = ["kind", "isa", "workload", "size", "config", "profile", "rate", "burst", "period", "seed"]
# Where each row came from, from the run's "provenance" (hps-sim writes it
# into every statistics file): "0.1.0 (git 1a2b3c4d5e6f)" and the resolved
# configuration as JSON; the command line is the "command" column.
PROVENANCE = ["sim_version", "sim_config"]
# Columns added after the first databases were made: the statistics of the
# run as JSON ({name: value}) and when the point finished (UTC, ISO 8601).
EXTRA = ["stats", "finished"]
EXHAUSTIVE = "exhaustive"


# ---- the database --------------------------------------------------------------

def open_db(path):
    """The results database, made or brought up to date; WAL and a busy
    timeout let several sweeps write it at once."""
    db = sqlite3.connect(path, timeout=120)
    db.execute("PRAGMA busy_timeout = 120000")
    use_wal(db)
    schema(db)
    return db


def use_wal(db, seconds=120):
    """Switch the database to WAL.  SQLite does not wait on the busy timeout
    for this switch: while another sweep is switching the same new file,
    it fails at once with "database is locked", so wait and retry here."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            db.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as e:
            if "locked" not in str(e) or time.monotonic() > deadline:
                raise
            time.sleep(0.05)


def create_table(db, name):
    cols = ", ".join(f"{c} REAL" for c, _ in STATS)
    db.execute(f"""CREATE TABLE IF NOT EXISTS {name} (
        kind TEXT, isa TEXT, workload TEXT, size TEXT, config TEXT, profile TEXT,
        rate TEXT, burst INTEGER, period TEXT, seed INTEGER,
        status INTEGER, command TEXT, {cols},
        sim_version TEXT, sim_config TEXT, stats TEXT, finished TEXT,
        PRIMARY KEY ({", ".join(KEY)}))""")


def schema(db):
    with db:
        have = {row[1] for row in db.execute("PRAGMA table_info(runs)")}
        if have and "isa" not in have:
            migrate_without_isa(db, have)
            have = {row[1] for row in db.execute("PRAGMA table_info(runs)")}
        create_table(db, "runs")
        for col in [c for c, _ in STATS] + PROVENANCE + EXTRA:
            if have and col not in have:     # a database made before they existed
                kind = "REAL" if col in dict(STATS) else "TEXT"
                db.execute(f"ALTER TABLE runs ADD COLUMN {col} {kind}")


def migrate_without_isa(db, have):
    """A database from before the ISA was part of the key: all its rows were
    RISC-V runs (the sweep ran nothing else)."""
    db.execute("ALTER TABLE runs RENAME TO runs_before_isa")
    create_table(db, "runs")
    cols = [c for c in have]
    db.execute(f"INSERT INTO runs (isa, {', '.join(cols)}) "
               f"SELECT 'rv64', {', '.join(cols)} FROM runs_before_isa")
    db.execute("DROP TABLE runs_before_isa")


def provenance_columns(prov):
    """The PROVENANCE values of a run's "provenance" object."""
    if not prov:
        return [None, None]
    return [f"{prov.get('version')} (git {prov.get('git')})",
            json.dumps(prov.get("config", {}), sort_keys=True)]


def store(db, p, status, cmd, stats):
    """One point's row, committed at once, and the overheads it completes."""
    values = {k: v for k, v in stats.items() if k != "provenance"}
    cols = KEY + ["status", "command"] + [c for c, _ in STATS] + PROVENANCE + EXTRA
    vals = ([p[k] for k in KEY] + [status, cmd] + [stats.get(s) for _, s in STATS] +
            provenance_columns(stats.get("provenance")) +
            [json.dumps(values, sort_keys=True) if values else None,
             time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())])
    with db:
        db.execute(f"INSERT OR REPLACE INTO runs ({', '.join(cols)}) VALUES "
                   f"({', '.join('?' * len(cols))})", vals)
        fill_overheads(db)


def fill_overheads(db):
    """Profiled rows run with --no-baseline get their base cycles and
    overhead ratio from the base row of the same ISA, model, workload, size
    and seed (once it is there)."""
    same = ("b.kind = 'base' AND b.status = 0 AND b.isa = runs.isa AND b.config = runs.config"
            " AND b.workload = runs.workload AND b.size = runs.size AND b.seed = runs.seed")
    db.execute(f"""UPDATE runs SET
        hps_base_cycles = (SELECT b.cycles FROM runs b WHERE {same}),
        hps_overhead_ratio = cycles / (SELECT b.cycles FROM runs b WHERE {same})
        WHERE kind = 'hps' AND status = 0 AND (hps_base_cycles IS NULL OR hps_base_cycles = 0)
          AND EXISTS (SELECT 1 FROM runs b WHERE {same} AND b.cycles > 0)""")


def done(db, p):
    where = " AND ".join(f"{k} = ?" for k in KEY)
    return db.execute(f"SELECT 1 FROM runs WHERE {where} AND status = 0",
                      [p[k] for k in KEY]).fetchone() is not None


# ---- the grid ------------------------------------------------------------------

def acf_samples(path, seen=None):
    """Whether an ACF (with what it includes) declares the sampling
    parameter sampleFreq; one that does not profiles exhaustively."""
    seen = seen if seen is not None else set()
    path = os.path.abspath(path)
    if path in seen:
        return False
    seen.add(path)
    try:
        with open(path) as f:
            text = f.read()
    except OSError as e:
        raise SystemExit(f"sweep: {path}: {e.strerror}")
    if re.search(r"^\s*param\s+sampleFreq\b", text, re.M):
        return True
    return any(acf_samples(os.path.join(os.path.dirname(path), inc), seen)
               for inc in re.findall(r'^\s*include\s+"([^"]+)"', text, re.M))


def split(text):
    return [x for x in text.split(",") if x]


def points(args):
    """Every grid point as a dict of the KEY fields; for HPS the base points
    (runs without profiling) come first."""
    out = []
    for isa in split(args.isas):
        for config in split(args.configs):
            for w in split(args.workloads):
                base = {"kind": args.kind, "isa": isa, "workload": w, "size": args.size,
                        "config": config, "seed": args.seed, "profile": "", "rate": "",
                        "burst": 0, "period": ""}
                out += grid_of(args, base)
    return sorted(out, key=lambda p: p["kind"] != "base")


def grid_of(args, base):
    if args.kind == "dcpi":
        return [dict(base, profile="cycles", period=period) for period in split(args.periods)]
    out = [dict(base, kind="base")]
    for acf in split(args.acf):
        if not acf_samples(acf):
            out.append(dict(base, profile=acf, rate=EXHAUSTIVE))
            continue
        for rate in split(args.rates):
            for burst in split(args.bursts):
                out.append(dict(base, profile=acf, rate=rate, burst=int(burst),
                                breakdown=rate in split(args.breakdown_rates)))
    return out


def describe(p):
    what = {"base": "no profiling", "dcpi": f"dcpi {p['period']}"}.get(p["kind"])
    if what is None:
        what = os.path.basename(p["profile"]).removesuffix(".acf") + " " + (
            p["rate"] if p["rate"] == EXHAUSTIVE else f"{p['rate']} burst {p['burst']}")
    return f"{p['workload']} {p['isa']} {p['config']} {p['size']}: {what}"


# ---- running a point -----------------------------------------------------------

def command(p, sim, build, stats_json, dcpi_db):
    prog = os.path.join(build, "workloads", ISA_DIRS[p["isa"]], p["workload"])
    cmd = [sim, "--config", p["config"], "--seed", str(p["seed"]), "--stats-json", stats_json]
    if p["kind"] == "hps":
        cmd += ["--acf", p["profile"], "--report", "/dev/null"]
        # hps-sim measures the exact overhead breakdown (Figure 7) against a
        # baseline of its own; elsewhere the base point gives the overhead
        if not p.get("breakdown"):
            cmd.append("--no-baseline")
        if p["rate"] != EXHAUSTIVE:
            cmd += ["--rate", p["rate"], "--burst", str(p["burst"])]
    elif p["kind"] == "dcpi":
        cmd += ["--dcpi", dcpi_db, "--dcpi-events", f"cycles:{p['period']}", "--report",
                "/dev/null"]
    return cmd + [prog, p["size"]]


def run_point(p, sim, build):
    """Run one point; returns (point, status, command, stats dict); the
    stats dict holds the run's provenance under "provenance"."""
    with tempfile.TemporaryDirectory(prefix="hps-sweep.") as tmp:
        js = os.path.join(tmp, "stats.json")
        cmd = command(p, sim, build, js, os.path.join(tmp, "db"))
        status, cpu, err = run_measured(cmd, os.path.join(tmp, "stderr"))
        stats = {}
        if os.path.exists(js):
            with open(js) as f:
                data = json.load(f)
            stats = {k: v["value"] for k, v in data.items() if k != "provenance"}
            stats["provenance"] = data.get("provenance")
        stats["cpuSeconds"] = cpu
        if status and not STOPPING.is_set():
            sys.stderr.write(f"\nsweep: {shlex.join(cmd)}: exit {status}: {err[-500:]}\n")
        return p, status, shlex.join(cmd), stats


# The hps-sim runs in flight, so that SIGINT/SIGTERM stops them too, and
# whether the sweep was told to stop (then no more points start or are stored).
RUNNING, RUNNING_LOCK, STOPPING = set(), threading.Lock(), threading.Event()


def stop(signum, _frame):
    """SIGINT/SIGTERM: end the runs in flight (hps-sim writes its statistics
    and exits); their points are not stored, so a rerun runs them."""
    STOPPING.set()
    with RUNNING_LOCK:
        for child in RUNNING:
            child.send_signal(signal.SIGTERM)


def run_measured(cmd, err_path):
    """Run a command; its exit status, the host CPU seconds it used (user +
    system, whatever else runs on the machine) and the end of its stderr."""
    with open(err_path, "w+") as err:
        with RUNNING_LOCK:
            child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=err)
            RUNNING.add(child)
        _, wait_status, usage = os.wait4(child.pid, 0)
        with RUNNING_LOCK:
            RUNNING.discard(child)
        child.returncode = os.waitstatus_to_exitcode(wait_status)
        err.seek(0)
        return child.returncode, usage.ru_utime + usage.ru_stime, err.read().strip()


class Progress:
    """Points done/total with the time so far and the time left, on stderr:
    one line rewritten in place on a terminal, a line per point otherwise."""

    def __init__(self, total, stream=sys.stderr):
        self.total, self.done, self.failed = total, 0, 0
        self.stream, self.tty = stream, stream.isatty()
        self.start = time.monotonic()

    def point(self, p, status):
        self.done += 1
        self.failed += status != 0
        elapsed = time.monotonic() - self.start
        left = elapsed / self.done * (self.total - self.done)
        line = (f"sweep: {self.done}/{self.total} points"
                f"{f', {self.failed} failed' if self.failed else ''}, "
                f"{clock(elapsed)} so far, ETA {clock(left)} - {describe(p)}")
        if self.tty:
            self.stream.write("\r\033[K" + line[:max(20, os.get_terminal_size().columns - 1)])
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def end(self):
        if self.tty and self.done:
            self.stream.write("\n")


def clock(seconds):
    s = int(seconds + 0.5)
    return f"{s // 3600}h{s // 60 % 60:02d}m{s % 60:02d}s" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


def run_all(db, pending, args):
    """Run the points, base points first (every profiled row needs one);
    each row is stored as its run ends.  Returns the number that failed."""
    progress = Progress(len(pending))
    phases = [[p for p in pending if p["kind"] == "base"], [p for p in pending if p["kind"] != "base"]]

    def run_if_needed(p):
        # another sweep on the same database may have run it meanwhile
        if STOPPING.is_set() or done(db_reader(), p):
            return p, 0, None, None
        return run_point(p, args.sim, args.build)

    local = {}

    def db_reader():
        tid = threading.get_ident()
        if tid not in local:
            local[tid] = sqlite3.connect(args.db, timeout=120)
        return local[tid]

    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for phase in phases:
            for fut in concurrent.futures.as_completed([pool.submit(run_if_needed, p)
                                                        for p in phase]):
                p, status, cmd, stats = fut.result()
                if STOPPING.is_set():
                    continue
                if cmd is not None:
                    store(db, p, status, cmd, stats)
                progress.point(p, status)
    progress.end()
    if STOPPING.is_set():
        sys.stderr.write(f"sweep: stopped; {progress.done} of {len(pending)} points stored, "
                         "a rerun runs the rest\n")
        sys.exit(130)
    return progress.failed


# ---- Slurm ---------------------------------------------------------------------

def write_slurm(pending, args, sim, build):
    """An array job: task i runs point i and writes DIR/point-i.json."""
    os.makedirs(args.slurm, exist_ok=True)
    with open(os.path.join(args.slurm, "points.json"), "w") as f:
        json.dump(pending, f, indent=1)
    script = os.path.join(args.slurm, "sweep.sbatch")
    with open(script, "w") as f:
        f.write(f"""#!/bin/bash
#SBATCH --job-name=hps-sweep
#SBATCH --array=0-{len(pending) - 1}
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
    print(f"sweep: {len(pending)} points; submit with: sbatch {script}")


def one_point(args):
    with open(args.points) as f:
        pending = json.load(f)
    p, status, cmd, stats = run_point(pending[args.point], args.sim, args.build)
    out = os.path.join(os.path.dirname(args.points), f"point-{args.point}.json")
    with open(out + ".part", "w") as f:
        json.dump({"point": p, "status": status, "command": cmd, "stats": stats}, f)
    os.replace(out + ".part", out)      # a killed task leaves no half-written result
    return 0 if status == 0 else 1


def collect(args, db):
    """Load every finished task of a Slurm sweep and name the points that
    have no result (not run, killed, or failed); status 1 if any."""
    path = os.path.join(args.collect, "points.json")
    try:
        with open(path) as f:
            pending = json.load(f)
    except (OSError, ValueError) as e:
        sys.stderr.write(f"sweep: {path}: not a Slurm sweep directory ({e})\n")
        return 2
    loaded, missing = 0, []
    for i, p in enumerate(pending):
        name = os.path.join(args.collect, f"point-{i}.json")
        if not os.path.exists(name):
            missing.append((i, p, "no result"))
            continue
        with open(name) as f:
            r = json.load(f)
        store(db, r["point"], r["status"], r["command"], r["stats"])
        loaded += 1
        if r["status"] != 0:
            missing.append((i, p, f"exit {r['status']}"))
    print(f"sweep: {loaded} results collected into {args.db}, "
          f"{len(missing)} of {len(pending)} points missing")
    for i, p, why in missing:
        print(f"sweep: missing point {i} ({why}): {describe(p)}")
    return 1 if missing else 0


# ---- Pareto fronts -------------------------------------------------------------

ACCURACY = {"hot_method": "hps_accuracy_method", "hot_call_pair": "hps_accuracy_call_pair",
            "hot_data_stream": "hps_accuracy_data"}


def family(profile):
    """The profile an ACF collects, its exhaustive variant included:
    productions/hot_method_all.acf -> hot_method."""
    name = os.path.basename(profile).removesuffix(".acf")
    return name.removesuffix("_all")


def accuracy_column(fam):
    for name, col in ACCURACY.items():
        if fam.startswith(name):
            return col
    return None


def pareto_front(pts):
    """The points (overhead, accuracy, ...) no other point beats on both: by
    overhead ascending, each with more accuracy than every cheaper one."""
    front, best = [], None
    for pt in sorted(pts, key=lambda t: (t[0], -t[1])):
        if best is None or pt[1] > best:
            front.append(pt)
            best = pt[1]
    return front


def knee(front, slack):
    """The sweet spot: the cheapest front point within `slack` accuracy
    points of the front's best."""
    best = max(pt[1] for pt in front)
    return next(pt for pt in front if pt[1] >= best - slack)


def pareto_groups(db, args):
    """{(isa, config, size, workload, profile family): [(overhead %, accuracy %, rate,
    burst)]}, and the same averaged over workloads (workload "mean") for the
    settings every workload of the group has."""
    groups = {}
    rows = db.execute("""SELECT isa, config, size, workload, profile, rate, burst,
                                hps_overhead_ratio, hps_accuracy_method, hps_accuracy_call_pair,
                                hps_accuracy_data FROM runs
                         WHERE kind = 'hps' AND status = 0 AND hps_overhead_ratio > 0
                         ORDER BY 1, 2, 3, 4, 5""").fetchall()
    for isa, config, size, w, profile, rate, burst, ratio, *acc in rows:
        fam = family(profile)
        col = accuracy_column(fam)
        if col is None or fam.endswith("_dise"):
            continue
        a = acc[["hps_accuracy_method", "hps_accuracy_call_pair", "hps_accuracy_data"].index(col)]
        if a is None or (args.isa and isa != args.isa) or (args.config and config != args.config):
            continue
        groups.setdefault((isa, config, size, w, fam), []).append(
            (100 * (ratio - 1), a, rate, burst))
    return add_means(groups)


def add_means(groups):
    by_setting = {}
    for (isa, config, size, w, fam), pts in groups.items():
        for o, a, rate, burst in pts:
            by_setting.setdefault((isa, config, size, fam), {}).setdefault(
                (rate, burst), {})[w] = (o, a)
    out = dict(groups)
    for (isa, config, size, fam), settings in by_setting.items():
        workloads = {w for s in settings.values() for w in s}
        if len(workloads) < 2:
            continue
        mean = [(sum(o for o, _ in s.values()) / len(s), sum(a for _, a in s.values()) / len(s),
                 rate, burst) for (rate, burst), s in settings.items() if len(s) == len(workloads)]
        if mean:
            out[(isa, config, size, f"mean of {len(workloads)}", fam)] = mean
    return out


def pareto(args, db):
    groups = pareto_groups(db, args)
    if not groups:
        sys.stderr.write(f"sweep: no HPS results with overhead and accuracy in {args.db}\n")
        return 2
    print(f"# Pareto fronts of accuracy (top-90% overlap, %) against overhead (% extra cycles);"
          f"\n# knee (*) = the cheapest front point within {args.slack:g} accuracy points of "
          f"the front's best")
    for (isa, config, size, w, fam), pts in sorted(groups.items()):
        front = pareto_front(pts)
        k = knee(front, args.slack)
        print(f"{isa} {config} {size} {w} {fam}: {len(front)} of {len(pts)} points on the front")
        for pt in front:
            o, a, rate, burst = pt
            setting = rate if rate == EXHAUSTIVE else f"rate {rate} burst {burst}"
            print(f"  {'*' if pt is k else ' '} {setting:<24} overhead {o:8.3f}%  "
                  f"accuracy {a:6.2f}%")
    return 0


# ---- the command line ----------------------------------------------------------

def options():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("kind", nargs="?", choices=["hps", "dcpi", "pareto"])
    ap.add_argument("--db", help="the SQLite results file")
    ap.add_argument("--workloads", default="gametree")
    ap.add_argument("--isas", default="rv64", help="rv64, alpha or both (rv64,alpha)")
    ap.add_argument("--size", default="test", choices=["test", "train", "ref"])
    ap.add_argument("--configs", "--config", dest="configs", default="ev5",
                    help="models: ev5, r10k, inorder5 or configuration files, comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--acf", default="productions/hot_method.acf")
    ap.add_argument("--rates", default="1/10,1/100,1/1000")
    ap.add_argument("--bursts", default="1,10")
    ap.add_argument("--breakdown-rates", default="1/100",
                    help="rates whose points run with hps-sim's own baseline, so the exact "
                         "overhead breakdown (check, basic, sample, other) is measured: "
                         "Figure 7; costs 1-3 more runs per point")
    ap.add_argument("--periods", default="2000-2100,10000-10500,60000-64000")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--build", default=os.path.join(TOP, "build"))
    ap.add_argument("--sim", default=None)
    ap.add_argument("--slurm", help="write a Slurm array job into this directory")
    ap.add_argument("--point", type=int, help=argparse.SUPPRESS)
    ap.add_argument("--points", help=argparse.SUPPRESS)
    ap.add_argument("--collect", help="load the results of a Slurm sweep")
    ap.add_argument("--pareto", action="store_true", help="the same as the pareto command")
    ap.add_argument("--slack", type=float, default=5.0,
                    help="pareto: the knee is the cheapest point this many accuracy points "
                         "below the best (default 5)")
    ap.add_argument("--isa", help="pareto: only this ISA")
    ap.add_argument("--model", dest="config", help="pareto: only this model")
    return ap


def check_grid(ap, args):
    for isa in split(args.isas):
        if isa not in ISA_DIRS:
            ap.error(f"--isas: unknown ISA '{isa}' (expected rv64 or alpha)")
    for name, text in (("--rates", args.rates), ("--bursts", args.bursts)):
        if not split(text):
            ap.error(f"{name}: empty list")
    for b in split(args.bursts):
        if not b.isdigit() or int(b) < 1:
            ap.error(f"--bursts: '{b}' is not a burst length (a whole number >= 1)")


def main():
    ap = options()
    args = ap.parse_args()
    args.build = os.path.abspath(args.build)
    args.sim = os.path.abspath(args.sim or os.path.join(args.build, "hps-sim"))
    if args.point is not None:
        return one_point(args)
    if not args.db:
        ap.error("--db RESULTS is required")
    args.db = os.path.abspath(args.db)
    db = open_db(args.db)
    if args.collect:
        return collect(args, db)
    if args.pareto or args.kind == "pareto":
        return pareto(args, db)
    if not args.kind:
        ap.error("say what to sweep: hps or dcpi (or pareto, or --collect DIR)")
    check_grid(ap, args)
    os.chdir(TOP)
    pending = [p for p in points(args) if not done(db, p)]
    if args.slurm:
        write_slurm(pending, args, args.sim, args.build)
        return 0
    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    failed = run_all(db, pending, args)
    total = db.execute("SELECT COUNT(*) FROM runs").fetchone()[0]
    print(f"sweep: {len(pending)} points run ({failed} failed), {total} in {args.db}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
