#!/usr/bin/python3
"""tests/paths/check.py - checks of hps-sim --paths' TSV (tests/paths/run.sh).

check.py rows TSV            every path's instructions are count x its static length
check.py known TSV           tests/guest/paths_known.c's path counts (its header)
check.py blocks TSV GT F..   for the functions F.., each block's executions summed
                             over the paths through it equal the ground-truth
                             count of its first instruction (--ground-truth GT)
check.py same A B            two TSVs hold the same paths with the same counts
check.py dise TSV ACF        PP on DISE (hps-pp-acf's ACF): every path of every procedure
                             the ACF instruments has its exact count in the dise column,
                             and no such procedure has a counted path that never ran
check.py accuracy REP MIN    the report's PP on DISE accuracy is at least MIN; prints it
check.py perturb A B         B is A's run with profiling instrumentation: the same
                             paths, counts and program instructions; prints the
                             ratios B/A of cycles and L1D misses on paths (PP's
                             Table 2 "F" ratios) and fails if B has fewer cycles
Prints one line and exits 1 on a mismatch.
"""
import sys
from collections import Counter, defaultdict


def read_tsv(path):
    rows = []
    with open(path) as f:
        head = f.readline().rstrip('\n').split('\t')
        for line in f:
            rows.append(dict(zip(head, line.rstrip('\n').split('\t'))))
    return rows


def check_rows(rows):
    bad = [r for r in rows if int(r['insts']) != int(r['count']) * int(r['length'])]
    if not rows or bad:
        return False, f'{len(bad)} of {len(rows)} rows with insts != count x length'
    return True, f'{len(rows)} rows, insts == count x length'


EXPECTED = {
    'diamonds': [1, 1, 2, 2, 4, 4, 8, 8],
    'pick': [1, 2, 3, 4, 5, 6, 7, 21],
    'early': [5, 5, 10, 20],
    'rec': [1, 9],
    'loop_ifelse': [1, 1, 9, 19],
}


def check_known(rows):
    got = defaultdict(list)
    for r in rows:
        got[r['procedure']].append(int(r['count']))
    wrong = [f'{f}: {sorted(got[f])} != {want}' for f, want in EXPECTED.items()
             if sorted(got[f]) != want]
    if 3 not in got['thrower']:
        wrong.append(f'thrower: {sorted(got["thrower"])} has no path taken 3 times')
    if wrong:
        return False, '; '.join(wrong)
    return True, 'path counts of ' + ', '.join(EXPECTED) + ', thrower as expected'


def check_blocks(rows, gt_path, funcs):
    truth = {}
    with open(gt_path) as f:
        for line in f:
            if line.startswith('#') or line.startswith('pc\t'):
                continue
            cols = line.split('\t')
            truth[int(cols[0], 16)] = int(cols[2])
    seen = Counter()
    for r in rows:
        if r['procedure'] not in funcs:
            continue
        for b in r['blocks'].replace('^', '').replace('$', '').split():
            seen[int(b.split('-')[0], 16)] += int(r['count'])
    wrong = [f'{a:#x}: paths {n} truth {truth.get(a)}' for a, n in seen.items()
             if truth.get(a) != n]
    if not seen or wrong:
        return False, f'{len(wrong)} of {len(seen)} blocks differ: ' + '; '.join(wrong[:5])
    return True, f'{len(seen)} blocks of {len(funcs)} functions match the ground truth'


def check_same(a, b):
    ka = {(r['procedure'], r['path']): int(r['count']) for r in a if int(r['count'])}
    kb = {(r['procedure'], r['path']): int(r['count']) for r in b if int(r['count'])}
    if ka != kb or not ka:
        diff = set(ka.items()) ^ set(kb.items())
        return False, f'{len(diff)} path counts differ: {sorted(diff)[:5]}'
    return True, f'{len(ka)} paths, same counts'


def check_perturb(a, b):
    ok, msg = check_same(a, b)
    if not ok:
        return ok, msg
    a = [r for r in a if int(r['count'])]           # not PP on DISE's rows of paths that never ran
    b = [r for r in b if int(r['count'])]
    ia = {(r['procedure'], r['path']): int(r['insts']) for r in a}
    ib = {(r['procedure'], r['path']): int(r['insts']) for r in b}
    if ia != ib:
        return False, 'program instructions on paths differ'
    tot = {k: [sum(int(r[k]) for r in x) for x in (a, b)] for k in ('cycles', 'l1d_misses')}
    ratio = {k: (v[1] / v[0] if v[0] else float('nan')) for k, v in tot.items()}
    msg = (f'{len(a)} paths, counts and instructions equal; cycles {tot["cycles"][0]} -> '
           f'{tot["cycles"][1]} (x{ratio["cycles"]:.4f}), L1D misses {tot["l1d_misses"][0]} -> '
           f'{tot["l1d_misses"][1]} (x{ratio["l1d_misses"]:.4f})')
    return tot['cycles'][1] >= tot['cycles'][0] > 0, msg


def skipped_procedures(acf):
    with open(acf) as f:
        for line in f:
            if line.startswith('# not instrumented:'):
                return {w for w in line.split(':', 1)[1].split() if not w.startswith('(')
                        and not w.endswith(')')}
            if not line.startswith('#'):
                break
    return set()


def check_dise(rows, acf):
    if not rows or 'dise' not in rows[0]:
        return False, 'no dise column (no PathCount_handler samples)'
    skip = skipped_procedures(acf)
    mine = [r for r in rows if r['procedure'] not in skip and r['blocks']]
    wrong = [f"{r['procedure']} path {r['path']}: exact {r['count']} dise {r['dise']}"
             for r in mine if r['count'] != r['dise']]
    procs = {r['procedure'] for r in mine}
    if wrong or not mine:
        return False, f'{len(wrong)} of {len(mine)} paths differ: ' + '; '.join(wrong[:4])
    return True, (f'{len(mine)} paths of {len(procs)} procedures counted exactly '
                  f'({len(skip)} procedures not instrumented)')


def check_accuracy(rep, least):
    with open(rep) as f:
        for line in f:
            if 'accuracy (top-90% overlap of path executions)' in line:
                acc = float(line.rsplit(' ', 1)[1].rstrip('%\n'))
                return acc >= least, f'accuracy {acc:.2f}%'
    return False, 'no PP on DISE accuracy in the report'


def main():
    what = sys.argv[1]
    if what == 'rows':
        ok, msg = check_rows(read_tsv(sys.argv[2]))
    elif what == 'known':
        ok, msg = check_known(read_tsv(sys.argv[2]))
    elif what == 'blocks':
        ok, msg = check_blocks(read_tsv(sys.argv[2]), sys.argv[3], set(sys.argv[4:]))
    elif what == 'perturb':
        ok, msg = check_perturb(read_tsv(sys.argv[2]), read_tsv(sys.argv[3]))
    elif what == 'dise':
        ok, msg = check_dise(read_tsv(sys.argv[2]), sys.argv[3])
    elif what == 'accuracy':
        ok, msg = check_accuracy(sys.argv[2], float(sys.argv[3]))
    elif what == 'same':
        ok, msg = check_same(read_tsv(sys.argv[2]), read_tsv(sys.argv[3]))
    else:
        print(f'check.py: unknown check {what}', file=sys.stderr)
        sys.exit(2)
    print(msg)
    sys.exit(0 if ok else 1)


main()
