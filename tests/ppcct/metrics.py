#!/usr/bin/python3
"""tests/ppcct/metrics.py - PP's perturbation question (PLDI'97 section 3.2)
for the path metrics the guest reads (hps-pp-acf --metrics).

metrics.py BASE DISE [MIN_OVERLAP]
  BASE: the --paths TSV of the run without instrumentation (the true
  per-path cycles and L1D misses); DISE: the TSV of the run with the
  --metrics ACF (its cycles/l1d_misses columns are the exact recorder's in
  the instrumented run, dise_cycles/dise_misses what the guest read).
  Prints, for cycles and misses, the totals of the three over the paths
  both runs have, the ratios to the true ones, and the top-90% overlap
  (renormalised, as the reports) of each against the truth.  Fails when
  the paths or counts differ, or the guest's cycle overlap with the truth
  is below MIN_OVERLAP (percent, default 0).
"""
import sys


def read(path):
    with open(path) as f:
        head = f.readline().rstrip('\n').split('\t')
        rows = [dict(zip(head, line.rstrip('\n').split('\t'))) for line in f]
    return {(r['entry'], r['path']): r for r in rows if int(r['count']) > 0}


def overlap(a, b):
    """Top-90% overlap of two weightings of the same keys, renormalised."""
    def top(w):
        total = sum(w.values())
        kept, run = {}, 0
        for k, v in sorted(w.items(), key=lambda kv: (-kv[1], kv[0])):
            if not v or run >= 0.9 * total:
                break
            kept[k] = v
            run += v
        s = sum(kept.values())
        return {k: v / s for k, v in kept.items()} if s else {}
    ta, tb = top(a), top(b)
    return 100.0 * sum(min(ta[k], tb[k]) for k in ta if k in tb)


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip().splitlines()[0])
        return 2
    base, dise = read(sys.argv[1]), read(sys.argv[2])
    floor = float(sys.argv[3]) if len(sys.argv) == 4 else 0.0
    if set(base) != set(dise) or any(base[k]['count'] != dise[k]['count'] for k in base):
        print(f'the paths or counts differ ({len(base)} paths without, {len(dise)} with)')
        return 1
    if 'dise_cycles' not in next(iter(dise.values()), {}):
        print('no dise_cycles column (not a --metrics run)')
        return 1
    out, guest_cycle_overlap = [], 0.0
    for col, gcol, name in (('cycles', 'dise_cycles', 'cycles'), ('l1d_misses', 'dise_misses', 'misses')):
        true = {k: int(r[col]) for k, r in base.items()}
        exact = {k: int(r[col]) for k, r in dise.items()}
        guest = {k: int(r[gcol]) for k, r in dise.items()}
        t, x, g = sum(true.values()), sum(exact.values()), sum(guest.values())
        og, ox = overlap(guest, true), overlap(exact, true)
        if name == 'cycles':
            guest_cycle_overlap = og
        out.append(f'{name}: true {t}, guest-read {g} (x{g / t if t else 0:.3f}, overlap {og:.1f}%), '
                   f'exact with instrumentation {x} (x{x / t if t else 0:.3f}, overlap {ox:.1f}%)')
    print(f'{len(base)} paths; ' + '; '.join(out))
    return 0 if guest_cycle_overlap >= floor else 1


if __name__ == '__main__':
    sys.exit(main())
