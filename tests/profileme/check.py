#!/usr/bin/python3
"""check.py - the checks of tests/profileme/run.sh that read an epoch of the
profile database (its binary profiles, exact.tsv, profileme.tsv).

  check.py samepc EPOCH                 every profileme sample in the database
                                        names the pc the sampler recorded
  check.py converge EPOCH PERIOD TOL    per-pc samples x PERIOD within TOL
                                        (relative) of the exact executions, for
                                        every pc executed >= 40 x PERIOD times
  check.py missbits EPOCH TOL           per-pc D-cache miss bit rate within TOL
                                        of the exact miss rate (pcs with >= 50
                                        samples), and the load that misses most
                                        has a rate above 0.9
  check.py landing EPOCH EVENT MODE     where EVENT's samples land relative to
                                        the pc that caused most of them (exact
                                        dmiss): MODE exact (all on pcs that
                                        caused the event), later (90% on the
                                        pcs after it) or next (95% on the one
                                        instruction right after it, and none on
                                        the others after it)
Prints one line of measured values; exit status 1 when a check fails.
"""
import glob
import os
import struct
import sys


def read_profile(path):
    """offset -> samples of one binary profile file (profdb.h)."""
    data = open(path, "rb").read()
    head = struct.unpack("<7Q", data[:56])
    out = {}
    for k in range(head[6]):
        off, count = struct.unpack("<2Q", data[56 + 16 * k:72 + 16 * k])
        out[off] = count
    return out


def db_samples(epoch, event):
    """pc -> samples of EVENT over the epoch's images (static: offset = pc)."""
    total = {}
    for path in glob.glob(os.path.join(epoch, "*", event)):
        for pc, n in read_profile(path).items():
            total[pc] = total.get(pc, 0) + n
    return total


def read_tsv(path):
    lines = open(path).read().splitlines()
    names = lines[0].split("\t")
    rows = {}
    for line in lines[1:]:
        row = dict(zip(names, line.split("\t")))
        rows[int(row["pc"], 16)] = row
    return rows


def samepc(epoch):
    db = db_samples(epoch, "profileme")
    pm = read_tsv(os.path.join(epoch, "profileme.tsv"))
    recorded = {pc: int(r["samples"]) for pc, r in pm.items() if int(r["samples"])}
    print("profileme samples: %d in the database, %d recorded, %d pcs differ" %
          (sum(db.values()), sum(recorded.values()),
           sum(1 for pc in set(db) | set(recorded) if db.get(pc) != recorded.get(pc))))
    return db == recorded and sum(db.values()) > 0


def converge(epoch, period, tol):
    pm = read_tsv(os.path.join(epoch, "profileme.tsv"))
    exact = read_tsv(os.path.join(epoch, "exact.tsv"))
    worst, checked = 0.0, 0
    for pc, row in exact.items():
        runs = int(row["executions"])
        if runs < 40 * period:
            continue
        est = int(pm[pc]["samples"]) * period if pc in pm else 0
        worst = max(worst, abs(est / runs - 1))
        checked += 1
    print("%d pcs executed >= %d times: worst relative error %.3f (bound %.2f)" %
          (checked, 40 * period, worst, tol))
    return checked > 0 and worst <= tol


def missbits(epoch, tol):
    pm = read_tsv(os.path.join(epoch, "profileme.tsv"))
    exact = read_tsv(os.path.join(epoch, "exact.tsv"))
    worst, checked, top_rate = 0.0, 0, 0.0
    top = max(exact, key=lambda pc: int(exact[pc]["dmiss"]))
    for pc, row in pm.items():
        n = int(row["samples"])
        if n < 50 or pc not in exact:
            continue
        sampled = int(row["dcache"]) / n
        true = int(exact[pc]["dmiss"]) / int(exact[pc]["executions"])
        worst = max(worst, abs(sampled - true))
        checked += 1
        if pc == top:
            top_rate = sampled
    print("%d pcs with >= 50 samples: worst |sampled - exact| miss rate %.3f (bound %.2f); "
          "the missing load %#x: sampled rate %.2f" % (checked, worst, tol, top, top_rate))
    return checked > 0 and worst <= tol and top_rate > 0.9


def landing(epoch, event, mode):
    db = db_samples(epoch, event)
    exact = read_tsv(os.path.join(epoch, "exact.tsv"))
    causes = {pc for pc, r in exact.items() if int(r[event])}
    top = max(exact, key=lambda pc: int(exact[pc][event]))
    total = sum(db.values())
    on_cause = sum(n for pc, n in db.items() if pc in causes)
    after = sum(n for pc, n in db.items() if top < pc <= top + 64 and pc not in causes)
    print("%s: %d samples, %d on pcs that caused it, %d on the 64 bytes after %#x" %
          (event, total, on_cause, after, top))
    if mode == "exact":
        return total > 0 and on_cause == total
    if mode == "next":
        following = min((pc for pc, r in exact.items() if pc > top and int(r["executions"])),
                        default=None)
        on_next = db.get(following, 0)
        print("  %d on %#x, the instruction after it, and none elsewhere after it" %
              (on_next, following or 0))
        return total > 0 and on_next >= 0.95 * total and on_next == after
    return total > 0 and after >= 0.9 * total


def main(argv):
    cmd = argv[1]
    if cmd == "samepc":
        ok = samepc(argv[2])
    elif cmd == "converge":
        ok = converge(argv[2], int(argv[3]), float(argv[4]))
    elif cmd == "missbits":
        ok = missbits(argv[2], float(argv[3]))
    elif cmd == "landing":
        ok = landing(argv[2], argv[3], argv[4])
    else:
        print("check.py: unknown check %r" % cmd)
        return 2
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
