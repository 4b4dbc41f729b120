#!/usr/bin/python3
"""sweep.py - run hps-sim over a grid of variants and print a markdown table.

    labs/sweep.py [options] -- COMMAND...

COMMAND is a template of one hps-sim run, e.g.

    ./hps-sim --config inorder5 {col} build/labs/rv64/hazards {row} {n}

in which
  {row}  becomes the text of each --row (a whole word may expand to several
         arguments or to none: `--row 'no fwd=--set inorder5.forward_ex_ex=false'`),
  {col}  the text of each --col,
  {n}    the iteration count (with --delta),
  {tmp}  a scratch directory of the run's own, removed after it (for files
         the run writes, such as a DCPI database: --dcpi {tmp}/db).
The table has a line per row; its columns are the --col values (then exactly
one --metric gives the cells) or, without --col, the metrics.

Options:
  --row LABEL=TEXT    a row (repeatable); --rows A,B,C for rows named as their text
  --col LABEL=TEXT    a column (repeatable); --cols A,B,C likewise
  --metric LABEL=EXPR[;FORMAT]
                      a number computed from the run's statistics (hps-sim
                      --stats names: cpu.cycles, simInsts, l1d.misses, ...),
                      from values grabbed from its output (--grab) and from
                      `iters`; + - * / and parentheses; FORMAT is a Python
                      format spec (.2f default, .1% for a percentage, d)
  --delta N1,N2       run every point twice, with {n} = N1 and {n} = N2, and
                      use the differences of the statistics (and of grabbed
                      values): what start-up and warm-up cost cancels, and
                      `iters` = N2 - N1
  --grab NAME=REGEX   a number from the run's output (stdout and stderr): the
                      first group of the first match of REGEX
  --corner TEXT       the heading of the first column (default: blank)
  -j N                runs in parallel (default: the number of CPUs, at most 4)

A statistic is requested from hps-sim with --stats-json, which the tool adds
after the simulator (the first word of COMMAND).  Every run must exit 0.
"""
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor

NAME_RE = re.compile(r"[A-Za-z_][A-Za-z0-9_.:]*")


def die(msg):
    sys.stderr.write("sweep.py: %s\n" % msg)
    sys.exit(2)


def parse_variants(pairs, lists):
    out = []
    for text in lists:
        for v in text.split(","):
            out.append((v, v))
    for p in pairs:
        if "=" not in p:
            out.append((p, p))
        else:
            label, text = p.split("=", 1)
            out.append((label, text))
    return out


def parse_metric(spec):
    if "=" not in spec:
        die("--metric %r: expected LABEL=EXPR[;FORMAT]" % spec)
    label, rest = spec.split("=", 1)
    fmt = None
    if ";" in rest:
        rest, fmt = rest.rsplit(";", 1)
    return label, rest, fmt


def evaluate(expr, values):
    """expr with + - * / ( ) numbers and names looked up in values."""
    def name(m):
        n = m.group(0)
        if n not in values:
            raise KeyError(n)
        return "(%r)" % float(values[n])
    py = NAME_RE.sub(name, expr)
    if not re.fullmatch(r"[0-9eE.+\-*/() ]*", py):
        raise ValueError("bad expression %r" % expr)
    try:
        return eval(py, {"__builtins__": {}}, {})
    except ZeroDivisionError:
        return float("nan")


def fmt_value(v, fmt):
    if v != v:          # nan
        return "-"
    if fmt is None:
        return "%d" % v if float(v).is_integer() and abs(v) >= 100 else "%.2f" % v
    if fmt.endswith("d"):
        return format(int(round(v)), fmt)
    return format(v, fmt)


def expand(template, subst):
    """Substitute {row}/{col}/{n}: a word that is exactly a placeholder
    becomes the words of its text (maybe none); elsewhere plain text."""
    out = []
    for word in template:
        if word in subst:
            out.extend(shlex.split(subst[word]))
        else:
            for k, v in subst.items():
                word = word.replace(k, v)
            out.append(word)
    return out


def run_one(argv, grabs, want_stats):
    with tempfile.TemporaryDirectory(prefix="hps-sweep.") as tmp:
        cmd = [w.replace("{tmp}", tmp) for w in argv]
        js = os.path.join(tmp, "stats.json")
        if want_stats:
            cmd[1:1] = ["--stats-json", js]
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True)
        if p.returncode != 0:
            die("exit status %d: %s\n%s" % (p.returncode, " ".join(map(shlex.quote, cmd)),
                                              (p.stderr or p.stdout)[-2000:]))
        values = {}
        if want_stats:
            with open(js) as f:
                for k, v in json.load(f).items():
                    if isinstance(v, dict) and isinstance(v.get("value"), (int, float)):
                        values[k] = v["value"]
        text = p.stdout + p.stderr
        for name, rx in grabs:
            m = re.search(rx, text)
            if not m:
                die("--grab %s: no match for %r in the output of %s" % (name, rx, " ".join(cmd)))
            values[name] = float(m.group(1))
        return values


def main(argv):
    if "--" not in argv:
        die("usage: sweep.py [options] -- COMMAND... (see the top of labs/sweep.py)")
    cut = argv.index("--")
    opts, template = argv[:cut], argv[cut + 1:]
    if not template:
        die("no command after --")
    rows, rowl, cols, coll, metrics, grabs = [], [], [], [], [], []
    delta, corner, jobs = None, "", min(os.cpu_count() or 1, 4)
    i = 0
    while i < len(opts):
        o = opts[i]
        if i + 1 >= len(opts):
            die("%s needs a value" % o)
        v = opts[i + 1]
        i += 2
        if o == "--row": rows.append(v)
        elif o == "--rows": rowl.append(v)
        elif o == "--col": cols.append(v)
        elif o == "--cols": coll.append(v)
        elif o == "--metric": metrics.append(parse_metric(v))
        elif o == "--grab":
            if "=" not in v:
                die("--grab %r: expected NAME=REGEX" % v)
            grabs.append(tuple(v.split("=", 1)))
        elif o == "--delta":
            try:
                delta = [int(x) for x in v.split(",")]
            except ValueError:
                delta = None
            if not delta or len(delta) != 2 or delta[1] <= delta[0]:
                die("--delta %r: expected N1,N2 with N1 < N2" % v)
        elif o == "--corner": corner = v
        elif o == "-j": jobs = max(1, int(v))
        else: die("unknown option %s" % o)
    rowv = parse_variants(rows, rowl) or [("", "")]
    colv = parse_variants(cols, coll)
    if not metrics:
        die("no --metric")
    if colv and len(metrics) != 1:
        die("with --col, give exactly one --metric")
    names = set()
    for _, e, _ in metrics:
        names.update(NAME_RE.findall(e))
    grabbed = {g for g, _ in grabs}
    want_stats = bool(names - grabbed - {"iters"})

    points = []       # (row index, col index, argv list per n)
    for ri, (_, rtext) in enumerate(rowv):
        for ci, (_, ctext) in enumerate(colv or [("", "")]):
            ns = delta or [None]
            runs = []
            for n in ns:
                subst = {"{row}": rtext, "{col}": ctext}
                if n is not None:
                    subst["{n}"] = str(n)
                runs.append(expand(template, subst))
            points.append((ri, ci, runs))
    flat = [(pi, k, argv) for pi, (_, _, runs) in enumerate(points) for k, argv in enumerate(runs)]
    with ThreadPoolExecutor(max_workers=jobs) as ex:
        results = list(ex.map(lambda t: run_one(t[2], grabs, want_stats), flat))
    per_point = {}
    for (pi, k, _), vals in zip(flat, results):
        per_point.setdefault(pi, {})[k] = vals
    cells = {}
    for pi, (ri, ci, runs) in enumerate(points):
        got = per_point[pi]
        if delta:
            values = {k: got[1][k] - got[0].get(k, 0) for k in got[1]}
            values["iters"] = delta[1] - delta[0]
        else:
            values = dict(got[0])
            values["iters"] = 1
        out = []
        for label, expr, fmt in metrics:
            try:
                out.append(fmt_value(evaluate(expr, values), fmt))
            except KeyError as e:
                die("--metric %s: no statistic or grabbed value %s" % (label, e))
            except ValueError as e:
                die("--metric %s: %s" % (label, e))
        cells[(ri, ci)] = out
    heads = [corner] + ([c for c, _ in colv] if colv else [m[0] for m in metrics])
    lines = ["| " + " | ".join(heads) + " |",
             "|" + "|".join(["---"] + ["---:"] * (len(heads) - 1)) + "|"]
    for ri, (rlabel, _) in enumerate(rowv):
        if colv:
            vals = [cells[(ri, ci)][0] for ci in range(len(colv))]
        else:
            vals = cells[(ri, 0)]
        lines.append("| " + " | ".join([rlabel] + vals) + " |")
    print("\n".join(lines))


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    main(sys.argv[1:])
