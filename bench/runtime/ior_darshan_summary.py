#!/usr/bin/python3
"""Summarise ior_darshan.sh's rounds: per transfer size and phase, each
mode's median phase time and its ratio to untraced, and this runtime's modes
against untraced, Darshan's counters and a baseline build by paired
per-round ratios (median, a sign-test
95% interval from the order statistics, the two-sided sign test's p).

    ior_darshan_summary.py TIMES MODE...

TIMES: lines "MODE XFER WRITE_S READ_S", one per run, rounds in order.
"""
import math
import statistics
import sys
from collections import defaultdict


def sign_interval(values, level=0.95):
    """The widest order-statistic interval [x_(k), x_(n-k+1)] whose
    coverage of the median is at least `level`, or None if n is too small."""
    xs = sorted(values)
    n = len(xs)
    best = None
    for k in range(1, n // 2 + 1):
        # P(Binomial(n, 1/2) <= k - 1), each tail
        tail = sum(math.comb(n, i) for i in range(k)) / 2 ** n
        if 1 - 2 * tail >= level:
            best = (xs[k - 1], xs[n - k], 1 - 2 * tail)
    return best


def sign_test(values):
    """Two-sided sign test of median ratio 1."""
    below = sum(1 for v in values if v < 1)
    above = sum(1 for v in values if v > 1)
    n = below + above
    if n == 0:
        return 1.0
    k = min(below, above)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n)


def main():
    path, modes = sys.argv[1], sys.argv[2:]
    runs = defaultdict(list)  # (xfer, mode) -> [(write, read)]
    xfers = []
    with open(path) as f:
        for line in f:
            mode, xfer, w, r = line.split()
            if xfer not in xfers:
                xfers.append(xfer)
            runs[(xfer, mode)].append((float(w), float(r)))
    for xfer in xfers:
        for phase, col in (("write", 0), ("read", 1)):
            times = {m: [t[col] for t in runs[(xfer, m)]] for m in modes}
            n = min(len(v) for v in times.values())
            print(f"\n-t {xfer}, {phase} phase ({n} rounds; IOR's total(s), summed over its iterations)")
            base = statistics.median(times["plain"]) if "plain" in times else None
            for m in modes:
                med = statistics.median(times[m])
                ratio = f"  x{med / base:.3f} untraced" if base else ""
                print(f"  {m:12s} median {med:8.4f} s{ratio}   runs: " + " ".join(f"{v:.4f}" for v in times[m]))
            traced = ("pfw", "compact", "pfw-base", "compact-base")
            pairs = [(m, "plain") for m in ("darshan", "dxt") + traced]
            pairs += [(m, "darshan") for m in traced]
            pairs += [("pfw", "pfw-base"), ("compact", "compact-base")]
            for m, ref in pairs:
                if m not in times or ref not in times:
                    continue
                paired = [a / b for a, b in zip(times[m][:n], times[ref][:n])]
                med = statistics.median(paired)
                ci = sign_interval(paired)
                p = sign_test(paired)
                interval = ""
                verdict = f"cannot decide with n = {n}"
                if ci is not None:
                    lo, hi, cover = ci
                    interval = f" [{lo:.3f}, {hi:.3f}] ({cover:.1%})"
                    if hi < 1:
                        verdict = f"below {ref}'s"
                    elif lo > 1:
                        verdict = f"above {ref}'s"
                print(f"  {m:12s} / {ref}, paired per round: median {med:.3f}{interval}, sign test p = {p:.3f}: {verdict}")

if __name__ == "__main__":
    main()
