#!/usr/bin/python3
"""o3_check.py FILE COUNT FROM - check a gem5 O3PipeView trace of hps-sim
--o3pipeview by the rules gem5's util/o3-pipeview.py parses it with: every
line is split at ':'; field 0 is "O3PipeView", field 1 the event, field 2 its
tick; a fetch line carries pc (0x...), micro-pc, sequence number and
disassembly (fields 3-6, the disassembly running to the end of the line); a
retire line ends ":store:<tick>"; a tick of 0 means "did not happen" (a
retire of 0: squashed).  On top of that, what hps-sim promises: each
instruction has all seven events, in the order fetch decode rename dispatch
issue complete retire, with non-decreasing ticks that are whole cycles of
1000 ticks, a retire tick above 0, a store tick of 0 or the retire tick;
sequence numbers are the instruction numbers FROM, FROM+1, ...; COUNT
instructions.
Prints "ok: N instructions, S stores" or the first problem; exit 0 or 1.
"""
import re
import sys

STAGES = ["fetch", "decode", "rename", "dispatch", "issue", "complete", "retire"]
TICKS_PER_CYCLE = 1000


def tick_of(text, n):
    if not text.isdigit():
        raise ValueError(f"line {n}: tick {text!r} is not a number")
    t = int(text)
    if t % TICKS_PER_CYCLE:
        raise ValueError(f"line {n}: tick {t} is not a whole cycle of {TICKS_PER_CYCLE}")
    return t


def parse(path):
    """The instructions, each a dict of event -> tick plus pc, sn, disasm, store."""
    insts, cur, nxt = [], None, 0          # nxt: index in STAGES of the next event
    with open(path) as f:
        for n, line in enumerate(f, start=1):
            if not line.endswith("\n"):
                raise ValueError(f"line {n}: no newline (o3-pipeview.py drops the last character)")
            fields = line[:-1].split(":")
            if fields[0] != "O3PipeView" or len(fields) < 3:
                raise ValueError(f"line {n}: not an O3PipeView line: {line!r}")
            event = fields[1]
            expect = STAGES[nxt]
            nxt = (nxt + 1) % len(STAGES)
            if event != expect:
                raise ValueError(f"line {n}: {event} where {expect} was expected")
            if event == "fetch":
                if len(fields) != 7:
                    raise ValueError(f"line {n}: a fetch line has 7 fields, this one {len(fields)}")
                if not re.fullmatch(r"0x[0-9a-f]+", fields[3]) or not fields[4].isdigit() \
                        or not fields[5].isdigit() or not fields[6].strip():
                    raise ValueError(f"line {n}: bad pc, micro-pc, sequence number or disassembly")
                cur = {"pc": fields[3], "sn": int(fields[5]), "disasm": fields[6]}
                insts.append(cur)
            elif event == "retire":
                if len(fields) != 5 or fields[3] != "store":
                    raise ValueError(f"line {n}: a retire line is retire:<tick>:store:<tick>")
                cur["store"] = tick_of(fields[4], n)
            elif len(fields) != 3:
                raise ValueError(f"line {n}: a {event} line has 3 fields")
            cur[event] = tick_of(fields[2], n)
    if nxt:
        raise ValueError("the last instruction has no retire line")
    return insts


def check(path, count, first):
    try:
        insts = parse(path)
    except ValueError as e:
        return str(e), 0
    for k, inst in enumerate(insts):
        ticks = [inst[s] for s in STAGES]
        where = f"instruction {inst['sn']} ({inst['disasm'].strip()})"
        if inst["sn"] != first + k:
            return f"{where}: sequence number, expected {first + k}", 0
        if any(b < a for a, b in zip(ticks, ticks[1:])):
            return f"{where}: ticks decrease: {ticks}", 0
        if inst["retire"] == 0:
            return f"{where}: retire tick 0 (o3-pipeview.py shows it squashed)", 0
        if inst["store"] not in (0, inst["retire"]):
            return f"{where}: store tick {inst['store']} is neither 0 nor the retire tick", 0
    if len(insts) != count:
        return f"{len(insts)} instructions, expected {count}", 0
    return None, sum(1 for i in insts if i["store"])


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: o3_check.py FILE COUNT FROM")
    why, stores = check(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]))
    if why:
        print(why)
        sys.exit(1)
    print(f"ok: {sys.argv[2]} instructions, {stores} stores")


if __name__ == "__main__":
    main()
