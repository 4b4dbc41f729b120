#!/usr/bin/python3
"""check_layers.py - the include layering check behind `make check-layers`.

    tools/check_layers.py [--root DIR] [--table FILE] [--explain]

Reads the layer table (layers.txt at the repository root: which layer each
header and source file belongs to, and why), scans every .c/.h/.def file
under include/ sim/ pipeline/ dise/ dcpi/ productions/runtime/ tools/ and
tests/unit/, and reports each quoted #include of a header from a higher
layer than the including file's:

    FILE:LINE: includes "X.h" (layer N name) from layer M name

and each file no rule of the table places, and each quoted #include that
names no file of the tree.  Ends with "check-layers: F files, V violations"
and "1 passed, 0 failed" (or "0 passed, 1 failed", status 1), the line
tests/run_all.sh counts.  --explain first lists every file with its layer
and the rule that gave it.  Standard library only.
"""
import argparse
import os
import re
import sys

SCAN_DIRS = ["include", "sim", "pipeline", "dise", "dcpi",
             "productions/runtime", "tools", "tests/unit"]
HEADER_EXTS = (".h", ".def")
SOURCE_EXTS = (".c",)
# Where a quoted include is looked for after the including file's own
# directory: the -I directories of the Makefile (CFLAGS and the unit tests).
INCLUDE_PATH = ["include", "sim", "sim/isa/rv64", "sim/isa/alpha",
                "productions/runtime", "tests/unit"]


class TableError(Exception):
    pass


def glob_regex(pattern):
    """A path glob as a regex: '**' crosses directories, '*' and '?' do not."""
    out = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        else:
            out.append(re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z")


class Rule:
    def __init__(self, pattern, layer, lineno):
        self.pattern = pattern
        self.layer = layer
        self.lineno = lineno
        self.is_path = "/" in pattern
        self.is_exact = not any(ch in pattern for ch in "*?[")
        self.regex = glob_regex(pattern)

    def matches(self, path):
        return bool(self.regex.match(path if self.is_path
                                     else os.path.basename(path)))


def read_table(path):
    """Returns (names: {layer number: name}, rules: [Rule])."""
    names = {}
    rules = []
    line_re = re.compile(r"^\s*(\d+)\s+([A-Za-z][\w-]*)\s*:\s*(.*)$")
    with open(path, encoding="utf-8") as f:
        for lineno, line in enumerate(f, 1):
            text = line.split("#", 1)[0].strip()
            if not text:
                continue
            m = line_re.match(text)
            if not m:
                raise TableError("%s:%d: expected 'N name: pattern ...'"
                                 % (path, lineno))
            layer, name = int(m.group(1)), m.group(2)
            if names.get(layer, name) != name:
                raise TableError("%s:%d: layer %d is called %s earlier"
                                 % (path, lineno, layer, names[layer]))
            if name in names.values() and names.get(layer) != name:
                raise TableError("%s:%d: name %s is another layer's"
                                 % (path, lineno, name))
            names[layer] = name
            for pat in m.group(3).split():
                rules.append(Rule(pat, layer, lineno))
    if not names:
        raise TableError("%s: no layers" % path)
    return names, rules


def scan_files(root):
    files = []
    for d in SCAN_DIRS:
        top = os.path.join(root, d)
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames.sort()
            for fn in sorted(filenames):
                if fn.endswith(HEADER_EXTS + SOURCE_EXTS):
                    full = os.path.join(dirpath, fn)
                    files.append(os.path.relpath(full, root).replace(os.sep, "/"))
    return sorted(set(files))


def strip_comments(text):
    """The text with comments blanked (newlines kept, so lines still count)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.M)


def includes(root, path):
    with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
        text = strip_comments(f.read())
    for m in INCLUDE_RE.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, m.group(1)


class Checker:
    def __init__(self, root, names, rules, files):
        self.root = root
        self.names = names
        self.rules = rules
        self.files = files
        self.fileset = set(files)
        self.errors = []
        self.layer_of = {}     # path -> layer
        self.why = {}          # path -> how the layer was found

    def label(self, layer):
        return "layer %d %s" % (layer, self.names[layer])

    def header_layer(self, path):
        hits = [r for r in self.rules if r.matches(path)]
        layers = sorted({r.layer for r in hits})
        if len(layers) > 1:
            self.errors.append(
                "%s: placed in %s by layers.txt lines %s" % (
                    path, " and ".join(self.label(l) for l in layers),
                    ", ".join(str(r.lineno) for r in hits)))
            return max(layers), "conflicting rules"
        if not layers:
            return None, None
        return layers[0], "rule %s (line %d)" % (hits[0].pattern, hits[0].lineno)

    def own_header(self, path):
        d, fn = os.path.split(path)
        stem = os.path.splitext(fn)[0]
        for cand in (os.path.join(d, stem + ".h"),
                     "include/%s_%s.h" % (os.path.basename(d), stem),
                     "include/%s.h" % stem):
            if cand in self.fileset:
                return cand
        return None

    def source_layer(self, path):
        for r in self.rules:
            if r.is_path and r.is_exact and r.pattern == path:
                return r.layer, "rule %s (line %d)" % (r.pattern, r.lineno)
        own = self.own_header(path)
        if own is not None:
            layer = self.layer_of.get(own)
            if layer is not None:
                return layer, "own header %s" % own
        for r in self.rules:
            if r.is_path and r.matches(path):
                return r.layer, "rule %s (line %d)" % (r.pattern, r.lineno)
        return None, None

    def assign(self):
        # headers first: a source file takes its own header's layer
        for p in sorted(self.files, key=lambda f: not f.endswith(HEADER_EXTS)):
            if p.endswith(HEADER_EXTS):
                layer, why = self.header_layer(p)
                what = "header in no layer"
            elif p.endswith(SOURCE_EXTS):
                layer, why = self.source_layer(p)
                what = "source file in no layer (no own header, no rule)"
            else:
                continue
            if layer is None:
                self.errors.append("%s: %s: place it in layers.txt" % (p, what))
            else:
                self.layer_of[p], self.why[p] = layer, why

    def resolve(self, path, name):
        """The included file as a repository path, or None."""
        dirs = [os.path.dirname(path)] + INCLUDE_PATH
        for d in dirs:
            cand = os.path.normpath(os.path.join(d, name)).replace(os.sep, "/")
            if cand in self.fileset:
                return cand
        base = os.path.basename(name)
        same = [p for p in self.files if os.path.basename(p) == base]
        if same:
            # e.g. hps_insn.h, found through a -I of another makefile: the
            # highest layer among the files of that name.
            return max(same, key=lambda p: self.layer_of.get(p, -1))
        return None

    def check(self):
        violations = []
        for p in self.files:
            mine = self.layer_of.get(p)
            for line, name in includes(self.root, p):
                target = self.resolve(p, name)
                if target is None:
                    # not in the tree (a generated header?): a name rule may
                    # still place it
                    layer, _ = self.header_layer(name)
                    if layer is None:
                        self.errors.append('%s:%d: includes "%s", which is no '
                                           'file of the tree nor in layers.txt'
                                           % (p, line, name))
                        continue
                else:
                    layer = self.layer_of.get(target)
                if layer is None or mine is None:
                    continue       # already reported as unplaced
                if layer > mine:
                    violations.append('%s:%d: includes "%s" (%s) from %s' % (
                        p, line, name, self.label(layer), self.label(mine)))
        return violations


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--root", default=os.path.dirname(here),
                    help="repository root (default: the parent of tools/)")
    ap.add_argument("--table", help="layer table (default: ROOT/layers.txt)")
    ap.add_argument("--explain", action="store_true",
                    help="list every file with its layer and why")
    args = ap.parse_args()
    root = args.root
    table = args.table or os.path.join(root, "layers.txt")
    try:
        names, rules = read_table(table)
    except (OSError, TableError) as e:
        print("check-layers: %s" % e)
        print("0 passed, 1 failed")
        return 1
    files = scan_files(root)
    ck = Checker(root, names, rules, files)
    ck.assign()
    if args.explain:
        for p in files:
            if p in ck.layer_of:
                print("%-45s %-16s %s" % (p, ck.label(ck.layer_of[p]), ck.why[p]))
    violations = ck.check()
    def where(msg):            # by file, then line
        m = re.match(r"([^:]+):(\d+)?", msg)
        return (m.group(1), int(m.group(2) or 0)) if m else (msg, 0)
    for msg in sorted(ck.errors + violations, key=where):
        print(msg)
    bad = len(violations) + len(ck.errors)
    summary = "check-layers: %d files, %d violations" % (len(files), len(violations))
    if ck.errors:
        summary += ", %d other errors" % len(ck.errors)
    print(summary)
    print("0 passed, 1 failed" if bad else "1 passed, 0 failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
