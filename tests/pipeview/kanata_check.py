#!/usr/bin/python3
"""kanata_check.py FILE COUNT FROM - check a Kanata log of hps-sim --pipeview
against the grammar Konata reads (Konata's docs/kanata-log-format.md):

  header "Kanata<TAB>0004", then "C=<TAB>cycle", then tab-separated commands
  C n, I id sim_id thread, L id type text, S id lane stage, E id lane stage,
  R id retire_id type.

and against what hps-sim promises: the first command after C= introduces
file id 0 (so Konata opens on the window's first instruction), file ids are
0, 1, 2, ... in order, every instruction has a left-pane label (L type 0),
at least one stage and one end: a retirement (R type 0) or, for a wrong-path
instruction of the out-of-order model (ooo.wrong_path), a flush (R type 1);
the retired ones are instructions FROM, FROM + 1, ... in file-id order with
retire ids counting up from 0; a flushed one names the instruction it
followed (an id in the window) and says "wrong path" in its L 1 label; a
command names only an instruction introduced and not yet ended, an E ends a
stage that was started, and COUNT instructions retire.
Prints "ok: N instructions" or the first problem, exit status 0 or 1.
"""
import sys


def check(path, count, first):
    with open(path) as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    if len(lines) < 3 or lines[0] != "Kanata\t0004":
        return "line 1: expected the header 'Kanata<TAB>0004'"
    head = lines[1].split("\t")
    if len(head) != 2 or head[0] != "C=" or not head[1].isdigit():
        return "line 2: expected 'C=<TAB>cycle'"
    live, labelled, staged, open_stages, wrong = set(), set(), set(), {}, set()
    sim_id = {}
    introduced = retired = flushed = 0
    next_sim = first
    for n, line in enumerate(lines[2:], start=3):
        f = line.split("\t")
        cmd = f[0]
        if n == 3 and cmd != "I":
            return f"line 3: the first command after C= is {cmd}, not I (Konata would open before the first instruction)"
        if cmd == "C":
            if len(f) != 2 or not f[1].isdigit() or int(f[1]) <= 0:
                return f"line {n}: bad C command: {line!r}"
            continue
        if len(f) != 4:
            return f"line {n}: {cmd} needs 3 tab-separated fields: {line!r}"
        if not f[1].isdigit():
            return f"line {n}: bad id in {line!r}"
        ident = int(f[1])
        if cmd == "I":
            if ident != introduced:
                return f"line {n}: I introduces id {ident}, expected {introduced} (ids from 0 in order)"
            if not f[2].isdigit() or not first <= int(f[2]) < first + count:
                return f"line {n}: simulator id {f[2]}, expected an instruction of the window"
            sim_id[ident] = int(f[2])
            if f[3] != "0":
                return f"line {n}: thread id {f[3]}, expected 0"
            live.add(ident)
            introduced += 1
            continue
        if ident not in live:
            return f"line {n}: {cmd} names id {ident}, not introduced or already retired"
        if cmd == "L":
            if f[2] not in ("0", "1") or not f[3]:
                return f"line {n}: bad label {line!r}"
            if f[2] == "0":
                labelled.add(ident)
            elif "wrong path" in f[3]:
                wrong.add(ident)
        elif cmd in ("S", "E"):
            if f[2] != "0" or not f[3]:
                return f"line {n}: bad {cmd} {line!r} (lane 0 and a stage name)"
            key = (ident, f[3])
            if cmd == "S":
                staged.add(ident)
                open_stages[key] = True
            elif not open_stages.pop(key, False):
                return f"line {n}: E of stage {f[3]} of id {ident}, which was not started"
        elif cmd == "R":
            if ident not in labelled or ident not in staged:
                return f"line {n}: id {ident} ends without a label (L 0) or a stage (S)"
            if f[3] == "1":
                if ident not in wrong:
                    return f"line {n}: id {ident} is flushed (R type 1) without a 'wrong path' label"
                live.discard(ident)
                flushed += 1
                continue
            if not f[2].isdigit() or int(f[2]) != retired:
                return f"line {n}: retire id {f[2]}, expected {retired} (from 0, in order)"
            if f[3] != "0":
                return f"line {n}: R type {f[3]}, expected 0 (retired) or 1 (flushed)"
            if ident in wrong:
                return f"line {n}: wrong-path id {ident} retires"
            if sim_id[ident] != next_sim:
                return f"line {n}: instruction {sim_id[ident]} retires, expected {next_sim}"
            live.discard(ident)
            retired += 1
            next_sim += 1
        else:
            return f"line {n}: unknown command {cmd!r}"
    if live:
        return f"{len(live)} instructions never retire, e.g. id {min(live)}"
    if retired != count:
        return f"{retired} instructions retire, expected {count}"
    return None


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: kanata_check.py FILE COUNT FROM")
    why = check(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
    if why:
        print(why)
        sys.exit(1)
    print(f"ok: {sys.argv[2]} instructions retired")


if __name__ == "__main__":
    main()
