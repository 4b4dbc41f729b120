#!/usr/bin/python3
"""workload_table.py - the per-workload statistics table of workloads/README.md.

Runs `hps-sim --stats-json` on every workload (RISC-V build) at one size and
prints a Markdown table with the columns of HPS Figure 6: method count, call
sites, call pairs, calls, dynamic branches, memory references, dynamic
instructions and unique addresses.  With --update README it replaces the
table between the markers <!-- figure6:begin --> and <!-- figure6:end -->.

usage: workload_table.py [--build DIR] [--size test|train|ref] [--update FILE]
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys
import tempfile

BEGIN, END = "<!-- figure6:begin -->", "<!-- figure6:end -->"

COLUMNS = [
    # header, stat name, scale, format
    ("Methods", "prog.methods", 1, "{:.0f}"),
    ("Call sites", "prog.callSites", 1, "{:.0f}"),
    ("Call pairs", "prog.callPairs", 1, "{:.0f}"),
    ("Calls (M)", "cpu.calls", 1e6, "{:.2f}"),
    ("Cond. branches (M)", "cpu.branches.conditional", 1e6, "{:.2f}"),
    ("Memory refs (M)", "cpu.memRefs", 1e6, "{:.2f}"),
    ("Dyn. insts (M)", "simInsts", 1e6, "{:.2f}"),
    ("Unique addrs (K)", "mem.uniqueWords", 1e3, "{:.1f}"),
]


def run_one(sim, prog, size):
    with tempfile.NamedTemporaryFile(suffix=".json") as tmp:
        proc = subprocess.run([sim, "--stats-json", tmp.name, prog, size],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if proc.returncode != 0:
            raise RuntimeError("%s %s: exit %d: %s" % (prog, size, proc.returncode,
                                                      proc.stderr.decode()[:200]))
        with open(tmp.name) as f:
            return json.load(f)


def table(build, size, sim):
    progdir = os.path.join(build, "workloads", "rv64")
    names = sorted(n for n in os.listdir(progdir)
                   if os.access(os.path.join(progdir, n), os.X_OK))
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        stats = list(pool.map(lambda n: run_one(sim, os.path.join(progdir, n), size), names))
    lines = ["| Workload | " + " | ".join(c[0] for c in COLUMNS) + " |",
             "|---|" + "---:|" * len(COLUMNS)]
    for name, st in zip(names, stats):
        cells = [fmt.format(st[key]["value"] / scale) for _, key, scale, fmt in COLUMNS]
        lines.append("| %s | %s |" % (name, " | ".join(cells)))
    lines.append("")
    lines.append("Size `%s`, RV64GC build (`riscv64-linux-gnu-gcc -O2 -static`), "
                 "measured by `hps-sim --stats-json`; produced by "
                 "`analysis/workload_table.py`." % size)
    return "\n".join(lines)


def update(path, text):
    with open(path) as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        sys.exit("%s: markers %s ... %s not found" % (path, BEGIN, END))
    head, rest = doc.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    with open(path, "w") as f:
        f.write(head + BEGIN + "\n" + text + "\n" + END + tail)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default="build")
    ap.add_argument("--size", default="test", choices=["test", "train", "ref"])
    ap.add_argument("--sim", default="./hps-sim")
    ap.add_argument("--update", metavar="FILE")
    args = ap.parse_args()
    text = table(args.build, args.size, args.sim)
    if args.update:
        update(args.update, text)
    else:
        print(text)


if __name__ == "__main__":
    main()
