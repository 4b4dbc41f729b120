#!/usr/bin/python3
"""check_stats.py NAME STATS.json CONFIG.txt - the sanity of one timing run's
memory statistics (tests/cachesanity/run.sh):
  * every cache's l?.avg_miss_latency (counted from the request leaving,
    an MSHR free) is at most the configuration's worst miss: its hit
    latency, the hit latencies of the levels below, mem.latency and the line
    transfer of the last level, xfer = ceil(line / mem.bytes_per_cycle), plus
    the wait for the memory bus behind every other fill the last level can
    have in flight and a write-back for each, (2 x mshrs - 1) x xfer.  The
    average of a run exceeds that only when requests queue behind ones booked
    far in the future (the bug this checks for: 582 cycles on gametree
    against 86);
  * no statistic measuring stall cycles (a name with "stall" and unit Cycle)
    exceeds cpu.cycles.
CONFIG.txt is hps-sim --print-config of the run's configuration.  Prints
"ok NAME: ..." or "FAIL NAME: ..." per check."""
import json
import sys

UNITS = {"GiB": 1 << 30, "MiB": 1 << 20, "KiB": 1 << 10, "B": 1}


def config_values(path):
    """KEY -> value (sizes in bytes, true/false as 1/0) from --print-config."""
    values = {}
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 3 or parts[1] != "=":
                continue
            v = parts[2]
            for suffix, mult in UNITS.items():
                if v.endswith(suffix) and v[: -len(suffix)].isdigit():
                    v = int(v[: -len(suffix)]) * mult
                    break
            else:
                v = {"true": 1, "false": 0}.get(v, v)
                if isinstance(v, str) and v.isdigit():
                    v = int(v)
            values[parts[0]] = v
    return values


def worst_miss(cfg, level):
    """The latency of a miss of `level` that goes to memory and waits for
    the bus behind every other transfer the last level can have queued."""
    l2 = cfg["l2.enabled"] == 1
    last = "l2" if l2 else level
    xfer = -(-cfg[last + ".line"] // cfg["mem.bytes_per_cycle"])
    queued = 2 * max(cfg[last + ".mshrs"], 1) - 1
    below = cfg["l2.hit_latency"] if l2 and level != "l2" else 0
    return cfg[level + ".hit_latency"] + below + cfg["mem.latency"] + xfer + queued * xfer


def main():
    name, stats_path, config_path = sys.argv[1:4]
    with open(stats_path) as f:
        stats = {k: v["value"] for k, v in json.load(f).items() if isinstance(v, dict) and "value" in v}
    cfg = config_values(config_path)
    cycles = stats["cpu.cycles"]
    bad = []
    for level in ("l1i", "l1d", "l2"):
        key = level + ".avg_miss_latency"
        if key in stats and stats[key] > worst_miss(cfg, level):
            bad.append("%s %.1f > worst case %d" % (key, stats[key], worst_miss(cfg, level)))
    stalls = 0
    with open(stats_path) as f:
        raw = json.load(f)
    for key, v in raw.items():
        if not isinstance(v, dict) or v.get("unit") != "Cycle" or "stall" not in key.lower():
            continue
        stalls += 1
        if v["value"] > cycles:
            bad.append("%s %d > cpu.cycles %d" % (key, v["value"], cycles))
    checked = "avg_miss_latency of %s, %d stall statistics" % (
        "/".join(l for l in ("l1i", "l1d", "l2") if l + ".avg_miss_latency" in stats), stalls)
    if bad:
        print("FAIL %s: %s" % (name, "; ".join(bad)))
    else:
        print("ok   %s: %s within bounds (%d cycles)" % (name, checked, cycles))


if __name__ == "__main__":
    main()
