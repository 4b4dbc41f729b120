#!/usr/bin/python3
"""regen.py - the expected results of the lab hand-outs, from the simulator.

    labs/regen.py --write BUILD [FILE.md...]    rewrite the expected blocks
    labs/regen.py --check BUILD [FILE.md...]    compare them (tests/labs/run.sh)
    labs/regen.py --list [FILE.md...]           list the commands
  options: -j N (hand-outs run in parallel, default 2), --sim PATH (the
  hps-sim to run instead of BUILD's), -v (the time of each command)

Every number in an expected block of labs/*.md, and of README.md's
walkthrough "Profile your own program", comes from here (FILE.md defaults to
both).  A hand-out
marks a command, as the student types it from the repository root after
`make` and `make labs`, in one of two ways:

    ```sh lab-run                       a command shown to the student
    ./hps-sim --config inorder5 build/labs/rv64/hazards raw1
    ```
    <!-- lab-run: COMMAND -->           the same, not shown

and the block right after it (only blank lines between) holds its output:

    ```text lab-out
    ...
    ```

`lab-table` instead of `lab-run` marks a command whose output is markdown
(labs/sweep.py prints tables); its output goes between `<!-- lab-out -->` and
`<!-- /lab-out -->` lines, where it is rendered.  --write adds a missing
output block.

Commands run with bash in a scratch directory that looks like the repository
root after `make`: every top-level entry of the repository is linked there,
`build` stands for the BUILD directory (its guest programs hard-linked, so
their real paths, which a guest sees in /proc/self/exe, are the same length
in every checkout) and `./hps-sim`, `./hps-dcpiprof` and `./hps-dcpicalc` are
BUILD's.  The commands of one hand-out run in order in
one scratch directory (a command may use a file an earlier one wrote); the
hand-outs run in parallel (-j).  The environment is fixed (LC_ALL=C, PATH,
HOME = the scratch directory).  In the output, absolute paths of the scratch
directory, of BUILD and of the repository are written as the student would see
them relative to the repository (`build/...`).  Trailing blanks are dropped.
A command must exit 0 and print something.

--check prints "ok FILE:LINE COMMAND" or "FAIL FILE:LINE COMMAND" with a
unified diff per block, then "labs: N passed, M failed"; exit status 1 when
anything failed.  --write prints what it changed.
"""
import difflib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LABS = os.path.join(REPO, "labs")
TOOLS = ("hps-sim", "hps-dcpiprof", "hps-dcpicalc")
TIMEOUT = 300

FENCE_RE = re.compile(r"^(`{3,})\s*(\S*)\s*(.*)$")
COMMENT_RE = re.compile(r"^<!--\s*lab-(run|table):\s*(.*?)\s*(-->)?\s*$")


class Block:
    """A command and the lines [out_start, out_end) of its output block."""

    def __init__(self, kind, cmd, line, cmd_end):
        self.kind, self.cmd, self.line, self.cmd_end = kind, cmd, line, cmd_end
        self.out_start = self.out_end = None      # None: no output block yet
        self.old = None

    def label(self, path):
        one = " ".join(self.cmd.split())
        if len(one) > 110:
            one = one[:107] + "..."
        return "%s:%d %s" % (os.path.relpath(path, REPO), self.line + 1, one)


def parse(path):
    """The blocks of one hand-out, in order."""
    with open(path) as f:
        lines = f.read().split("\n")
    blocks = []
    i = 0
    while i < len(lines):
        line = lines[i]
        m = FENCE_RE.match(line)
        c = COMMENT_RE.match(line)
        if m and m.group(1) and line.startswith("```"):
            fence = m.group(1)
            words = (m.group(2) + " " + m.group(3)).split()
            j = i + 1
            while j < len(lines) and not lines[j].startswith(fence):
                j += 1
            if j >= len(lines):
                raise SystemExit("%s:%d: unterminated code block" % (path, i + 1))
            kind = "run" if "lab-run" in words else "table" if "lab-table" in words else None
            if kind:
                cmd = "\n".join(lines[i + 1:j]).strip()
                blocks.append(Block(kind, cmd, i, j + 1))
            elif "lab-out" in words:
                raise SystemExit("%s:%d: an output block without a command before it" % (path, i + 1))
            i = j + 1
        elif c:
            text = c.group(2)
            j = i
            if not c.group(3):          # the comment goes on: up to -->
                parts = [text]
                j = i + 1
                while j < len(lines) and "-->" not in lines[j]:
                    parts.append(lines[j].strip())
                    j += 1
                if j >= len(lines):
                    raise SystemExit("%s:%d: unterminated comment" % (path, i + 1))
                parts.append(lines[j].split("-->")[0].strip())
                text = " ".join(p for p in parts if p)
            blocks.append(Block("run" if c.group(1) == "run" else "table", text, i, j + 1))
            i = j + 1
        else:
            i += 1
        # the output block owned by the last command: right after it
        if blocks and blocks[-1].out_start is None and blocks[-1].cmd_end == i:
            b = blocks[-1]
            k = i
            while k < len(lines) and lines[k].strip() == "":
                k += 1
            if k < len(lines):
                if b.kind == "run":
                    m2 = FENCE_RE.match(lines[k])
                    if m2 and lines[k].startswith("```") and "lab-out" in (m2.group(2) + " " + m2.group(3)).split():
                        e = k + 1
                        while e < len(lines) and not lines[e].startswith(m2.group(1)):
                            e += 1
                        if e >= len(lines):
                            raise SystemExit("%s:%d: unterminated output block" % (path, k + 1))
                        b.out_start, b.out_end = k, e + 1
                        b.old = "\n".join(lines[k + 1:e])
                        i = e + 1
                elif lines[k].strip() == "<!-- lab-out -->":
                    e = k + 1
                    while e < len(lines) and lines[e].strip() != "<!-- /lab-out -->":
                        e += 1
                    if e >= len(lines):
                        raise SystemExit("%s:%d: <!-- lab-out --> without <!-- /lab-out -->" % (path, k + 1))
                    b.out_start, b.out_end = k, e + 1
                    b.old = "\n".join(lines[k + 1:e])
                    i = e + 1
    return lines, blocks


# Guest programs the hand-outs run, under BUILD; linked into the scratch
# directory (see scratch()).
GUEST_DIRS = ("labs", "workloads")


def link_tree(src, dst):
    """dst mirrors the directory src with hard links (copies across file
    systems), so a file's real path is inside dst."""
    for root, dirs, files in os.walk(src):
        rel = os.path.relpath(root, src)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for f in files:
            a, b = os.path.join(root, f), os.path.join(dst, rel, f)
            try:
                os.link(a, b)
            except OSError:
                shutil.copy2(a, b)


def scratch(build, sim):
    """A directory that looks like the repository root after `make`.

    A guest's glibc reads /proc/self/exe, whose length changes the
    instructions it runs, so the guest programs must have the same real path
    in every checkout: the scratch directory is /tmp/hps-labs.XXXXXXXX (the
    same length everywhere) and build/ in it is a real directory, with the
    guest programs hard-linked into it and the rest of BUILD linked."""
    d = tempfile.mkdtemp(prefix="hps-labs.", dir="/tmp")
    for name in os.listdir(REPO):
        if name in TOOLS or name == "build" or name.startswith(".git"):
            continue
        os.symlink(os.path.join(REPO, name), os.path.join(d, name))
    bdir = os.path.join(d, "build")
    os.mkdir(bdir)
    for name in os.listdir(build):
        if name in GUEST_DIRS and os.path.isdir(os.path.join(build, name)):
            link_tree(os.path.join(build, name), os.path.join(bdir, name))
        else:
            os.symlink(os.path.join(build, name), os.path.join(bdir, name))
    for t in TOOLS:
        src = sim if t == "hps-sim" and sim else os.path.join(build, t)
        os.symlink(src, os.path.join(d, t))
    return d


def normalize(text, d, build):
    reps = [(os.path.realpath(build), "build"), (build, "build"),
            (os.path.realpath(d), "."), (d, "."), (os.path.realpath(REPO), "."), (REPO, ".")]
    reps.sort(key=lambda r: -len(r[0]))
    for frm, to in reps:
        text = text.replace(frm + "/", "" if to == "." else to + "/")
        text = re.sub(re.escape(frm) + r"(?![\w.-])", to, text)
    lines = [l.rstrip() for l in text.split("\n")]
    while lines and not lines[-1]:
        lines.pop()
    return "\n".join(lines)


def run_file(path, blocks, build, sim):
    """Run the commands of one hand-out in order; their outputs (or errors)."""
    d = scratch(build, sim)
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LC_ALL": "C", "HOME": d,
           "TMPDIR": os.environ.get("TMPDIR", "/tmp")}
    results = []
    try:
        for b in blocks:
            t0 = time.time()
            try:
                p = subprocess.run(["/bin/bash", "-c", b.cmd], cwd=d, env=env,
                                   stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, universal_newlines=True,
                                   timeout=TIMEOUT)
                out = normalize(p.stdout, d, build)
                err = None
                if p.returncode != 0:
                    err = "exit status %d" % p.returncode
                elif not out:
                    err = "no output"
                if err:
                    err += "\n" + normalize(p.stderr, d, build)[-3000:]
            except subprocess.TimeoutExpired:
                out, err = "", "timed out after %d s" % TIMEOUT
            results.append((out, err, time.time() - t0))
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return results


def render(b, out):
    if b.kind == "run":
        return ["```text lab-out"] + out.split("\n") + ["```"]
    return ["<!-- lab-out -->"] + out.split("\n") + ["<!-- /lab-out -->"]


def main(argv):
    mode, build, files, jobs, sim, verbose = None, None, [], 2, None, False
    i = 0
    while i < len(argv):
        a = argv[i]
        if a in ("--write", "--check"):
            mode = a[2:]
            if i + 1 >= len(argv):
                raise SystemExit("regen.py: %s needs the BUILD directory" % a)
            build = argv[i + 1]
            i += 2
            continue
        if a == "--list":
            mode = "list"
        elif a == "-j":
            jobs = int(argv[i + 1]); i += 1
        elif a == "--sim":
            sim = os.path.abspath(argv[i + 1]); i += 1
        elif a in ("-v", "--verbose"):
            verbose = True
        elif a.startswith("-"):
            raise SystemExit(__doc__)
        else:
            files.append(os.path.abspath(a))
        i += 1
    if not mode:
        raise SystemExit(__doc__)
    if not files:                       # the hand-outs and README.md's walkthrough
        files = sorted(os.path.join(LABS, f) for f in os.listdir(LABS)
                       if re.match(r"\d\d-.*\.md$", f))
        files.append(os.path.join(REPO, "README.md"))
    parsed = {f: parse(f) for f in files}
    if mode == "list":
        for f in files:
            for b in parsed[f][1]:
                print(b.label(f))
        return 0
    build = os.path.abspath(build)
    missing = [t for t in TOOLS if not os.access(os.path.join(build, t), os.X_OK)]
    if sim and "hps-sim" in missing:
        missing.remove("hps-sim")
    if missing:
        raise SystemExit("regen.py: %s not built in %s (make BUILD=%s)" %
                         (", ".join(missing), build, os.path.relpath(build, REPO)))
    if not os.path.isdir(os.path.join(build, "labs")):
        raise SystemExit("regen.py: no lab programs in %s/labs (make BUILD=%s labs)" %
                         (build, os.path.relpath(build, REPO)))
    t0 = time.time()
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as ex:
        futs = {f: ex.submit(run_file, f, parsed[f][1], build, sim) for f in files}
        results = {f: futs[f].result() for f in files}
    passed = failed = changed = 0
    for f in files:
        lines, blocks = parsed[f]
        edits = []
        for b, (out, err, secs) in zip(blocks, results[f]):
            label = b.label(f)
            if err:
                failed += 1
                print("FAIL %s: %s" % (label, err))
                continue
            if mode == "check":
                if b.old is None:
                    failed += 1
                    print("FAIL %s: no expected-output block after it (run make labs)" % label)
                elif b.old == out:
                    passed += 1
                    print("ok   %s%s" % (label, " (%.1f s)" % secs if verbose else ""))
                else:
                    failed += 1
                    print("FAIL %s" % label)
                    sys.stdout.writelines(difflib.unified_diff(
                        [l + "\n" for l in b.old.split("\n")], [l + "\n" for l in out.split("\n")],
                        "expected", "got"))
            else:
                passed += 1
                if b.old != out:
                    edits.append((b, out))
        if mode == "write" and edits:
            for b, out in reversed(edits):
                new = render(b, out)
                if b.out_start is None:
                    lines[b.cmd_end:b.cmd_end] = [""] + new
                else:
                    lines[b.out_start:b.out_end] = new
            with open(f + ".tmp", "w") as fh:
                fh.write("\n".join(lines))
            os.replace(f + ".tmp", f)
            changed += len(edits)
            print("%s: %d block(s) rewritten" % (os.path.relpath(f, REPO), len(edits)))
    if mode == "write":
        print("labs: %d blocks, %d rewritten, %d failed (%.0f s)" % (passed + failed, changed, failed,
                                                                     time.time() - t0))
    else:
        print("labs: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    sys.exit(main(sys.argv[1:]))
