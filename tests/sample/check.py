#!/usr/bin/python3
"""check.py - the checks of tests/sample/run.sh on --stats-json files.

  check.py accuracy TAG FULL.json SAMPLED.json LIMIT_PCT
      the sampled CPI is within LIMIT_PCT % of the full-detail CPI
  check.py consistent TAG SAMPLED.json U W N
      the sample.* statistics agree with the plan and with each other:
      units = floor(instructions / N) (a unit the run ends inside is not
      counted), measured = units x U, detailed + warmed = all, the
      detailed ones are the periods' W + U and at most one period's tail,
      the interval is 3 stdev / sqrt(units), cpu.cpi and simCycles are
      the estimate, and the model's own counts cover the detailed
      instructions only
  check.py same TAG A.json B.json
      every statistic but the host's (time, speed, memory) is the same
Prints "ok TAG ..." or "FAIL TAG: why".
"""
import json
import math
import sys


def load(path):
    with open(path) as f:
        d = json.load(f)
    return {k: v["value"] for k, v in d.items() if isinstance(v, dict) and "value" in v}


def accuracy(tag, full_path, sampled_path, limit):
    full, samp = load(full_path), load(sampled_path)
    f, s = full["cpu.cpi"], samp["sample.cpi"]
    err = 100.0 * (s - f) / f
    ci = 100.0 * samp["sample.cpiCI"] / s
    text = f"full CPI {f:.4f}, sampled {s:.4f} ({err:+.2f}%, CI +-{ci:.2f}%)"
    if abs(err) > float(limit):
        return f"FAIL {tag}: {text}: more than {limit}% off"
    return f"ok {tag}: {text}"


def consistent(tag, path, unit, warmup, period):
    st = load(path)
    u, w, n = int(unit), int(warmup), int(period)
    total = st["simInsts"]
    units = st["sample.units"]
    detail, warmed = st["sample.detailInsts"], st["sample.warmedInsts"]
    problems = []

    def want(ok, what):
        if not ok:
            problems.append(what)

    want(st["sample.unit"] == u and st["sample.warmup"] == w and st["sample.period"] == n,
         "the plan is not the one asked for")
    want(st["sample.totalInsts"] == total, "sample.totalInsts != simInsts")
    want(units == total // n, f"{units} units in {total} instructions at N = {n}")
    want(st["sample.measuredInsts"] == units * u, "measuredInsts != units x U")
    want(detail + warmed == total, "detailed + warmed != all instructions")
    tail = total - units * n
    want(units * (u + w) <= detail <= units * (u + w) + min(tail, u + w),
         f"{detail} detailed instructions for {units} units of W + U = {u + w}")
    if units >= 2:
        # statistics are written with six decimals, so both sides carry up to 5e-7 of rounding
        want(math.isclose(st["sample.cpiCI"], 3 * st["sample.cpiStdev"] / math.sqrt(units),
                          rel_tol=0, abs_tol=1e-6), "the interval is not 3 stdev / sqrt(units)")
        want(st["sample.cpiStdev"] > 0, "no spread between units")
    want(math.isclose(st["cpu.cpi"], st["sample.cpi"], rel_tol=1e-6), "cpu.cpi != sample.cpi")
    est = st["sample.cpi"] * total
    want(abs(st["sample.estCycles"] - est) <= 1 + 5e-7 * total, "estCycles != cpi x instructions")
    want(st["simCycles"] == st["sample.estCycles"], "simCycles is not the estimate")
    want(0 < st["l1d.accesses"] <= detail, "l1d.accesses counts more than the detailed ones")
    lookups = sum(v for k, v in st.items() if k.startswith("bpred.") and k.endswith(".lookups")
                  and k != "bpred.btb.lookups")
    want(0 < lookups <= detail, "the predictor counts more than the detailed instructions")
    want(0 < st["sample.detailCycles"] < st["sample.estCycles"], "detailCycles out of range")
    if problems:
        return f"FAIL {tag}: " + "; ".join(problems)
    return (f"ok {tag}: {units} units, {detail} detailed + {warmed} warmed = {total}, "
            f"CPI {st['sample.cpi']:.4f} +- {st['sample.cpiCI']:.4f}")


HOST = ("hostSeconds", "hostMIPS", "hostMemPeakBytes")


def same(tag, a_path, b_path):
    a, b = load(a_path), load(b_path)
    for k in HOST:
        a.pop(k, None)
        b.pop(k, None)
    diff = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    if diff:
        return f"FAIL {tag}: {len(diff)} statistics differ, e.g. {diff[:4]}"
    return f"ok {tag}: {len(a)} statistics the same"


def main():
    kind, args = sys.argv[1], sys.argv[2:]
    print({"accuracy": accuracy, "consistent": consistent, "same": same}[kind](*args))


if __name__ == "__main__":
    main()
