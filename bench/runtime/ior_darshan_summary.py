#!/usr/bin/python3
"""Summarise ior_darshan.sh's rounds: per transfer size and phase, each
mode's median phase time and its ratio to untraced, and this runtime's modes
against untraced, Darshan's counters and a baseline build by paired
per-round ratios (median, a sign-test
95% interval from the order statistics, the two-sided sign test's p).

    ior_darshan_summary.py TIMES MODE...

TIMES: lines "MODE XFER WRITE_S READ_S", one per run, rounds in order.
"""
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from paired_stats import sign_interval, sign_test  # noqa: E402


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
                p = sign_test(paired, 1)
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
