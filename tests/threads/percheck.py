#!/usr/bin/python3
"""tests/threads/percheck.py - per-thread calling context trees and path
profiles of tests/guest/thr_calls.c (hps-sim --cct, --paths), checked
against the same work done single-threaded (thr_calls serial K).

  percheck.py cct THREADED_REPORT SERIAL_REPORT TID K
      thread TID's subtree under `worker` in the threaded run's --cct
      report equals the serial run's, node for node (procedure, call
      site, calls, inclusive instructions), and has the known structure:
      leaf_a called 40*(K+1) times, leaf_b 25 times, rec K+4 levels deep
  percheck.py paths THREADED_TSV SERIAL_TSV TID K
      thread TID's paths of worker, leaf_a, leaf_b and rec (count,
      instructions) equal the serial run's; leaf_a ran 40*(K+1) paths and
      rec K+4
Prints one line; exit status 1 on a difference.
"""
import re
import sys

NODE = re.compile(r'^\s+(\d+)\s+[\d.]+%\s+(\d+)  ( *)(\S+)(?:  <- (\S+))?')
PROCS = ('worker', 'leaf_a', 'leaf_b', 'rec')


def tree_lines(path, tid):
    """The node lines of thread tid's tree (tid None: the only tree)."""
    lines, inside = [], False
    with open(path) as f:
        for line in f:
            if line.startswith('thread '):
                inside = tid is not None and line.startswith('thread %s:' % tid)
                continue
            if line.startswith('exact calling context tree'):
                inside = tid is None
                continue
            if inside and NODE.match(line):
                lines.append(line)
            elif inside and lines and not line.strip():
                inside = False
    return lines


def worker_subtree(path, tid):
    """(relative depth, name, site or None, calls, inclusive) of the
    subtree rooted at the first `worker` node, sites inside it only."""
    out, base = [], None
    for line in tree_lines(path, tid):
        inc, calls, indent, name, site = NODE.match(line).groups()
        depth = len(indent) // 2
        if base is None:
            if name != 'worker':
                continue
            base, site = depth, None            # the worker's own call site differs
        elif depth <= base:
            break
        out.append((depth - base, name, site, int(calls), int(inc)))
    return out


def check_cct(threaded, serial, tid, k):
    got, want = worker_subtree(threaded, tid), worker_subtree(serial, None)
    if not got:
        return 'thread %s has no worker context' % tid
    if got != want:
        diff = [(a, b) for a, b in zip(got, want) if a != b][:2]
        return 'thread %s differs from the serial run: %s (%d vs %d nodes)' % (
            tid, diff, len(got), len(want))
    calls = {n: c for d, n, s, c, i in got if d == 1}
    rec_levels = sum(1 for d, n, s, c, i in got if n == 'rec')
    if calls.get('leaf_a') != 40 * (k + 1) or calls.get('leaf_b') != 25 or rec_levels != k + 4:
        return 'thread %s: leaf_a %s calls, leaf_b %s, rec %d levels (want %d, 25, %d)' % (
            tid, calls.get('leaf_a'), calls.get('leaf_b'), rec_levels, 40 * (k + 1), k + 4)
    return None, '%d contexts under worker equal the serial run (leaf_a %d calls, rec %d deep, ' \
        'worker %d insts)' % (len(got), calls['leaf_a'], rec_levels, got[0][4])


def path_rows(path, tid):
    rows = {}
    with open(path) as f:
        head = f.readline().rstrip('\n').split('\t')
        for line in f:
            r = dict(zip(head, line.rstrip('\n').split('\t')))
            if r['procedure'] not in PROCS:
                continue
            if tid is not None and r.get('thread') != tid:
                continue
            key = (r['procedure'], int(r['path']))
            rows[key] = (int(r['count']), int(r['insts']))
    return rows


def check_paths(threaded, serial, tid, k):
    got, want = path_rows(threaded, tid), path_rows(serial, None)
    if not got:
        return 'thread %s has no paths of %s' % (tid, ', '.join(PROCS))
    if got != want:
        diff = sorted(set(got.items()) ^ set(want.items()))[:3]
        return 'thread %s differs from the serial run: %s' % (tid, diff)
    count = {p: sum(c for (q, _), (c, i) in got.items() if q == p) for p in PROCS}
    if count['leaf_a'] != 40 * (k + 1) or count['rec'] != k + 4:
        return 'thread %s: leaf_a %d paths, rec %d (want %d, %d)' % (
            tid, count['leaf_a'], count['rec'], 40 * (k + 1), k + 4)
    return None, '%d paths equal the serial run (%d executions, leaf_a %d, rec %d)' % (
        len(got), sum(c for c, i in got.values()), count['leaf_a'], count['rec'])


def main():
    if len(sys.argv) != 6 or sys.argv[1] not in ('cct', 'paths'):
        print(__doc__.strip().splitlines()[0])
        return 2
    what, threaded, serial, tid, k = sys.argv[1:]
    result = (check_cct if what == 'cct' else check_paths)(threaded, serial, tid, int(k))
    if isinstance(result, str):
        print(result)
        return 1
    print(result[1])
    return 0


if __name__ == '__main__':
    sys.exit(main())
