#!/usr/bin/python3
"""Summarise per_file_cpu.sh's rounds: each analyzer's CPU per trace file
beyond its events, median over the rounds with a sign-test 95 % interval,
and a verdict against the target; with two analyzers, the per-round
difference of their figures as well.

    per_file_cpu.py TIMES EXTRA_FILES TARGET_US FEW MANY JOBS

TIMES: lines "NAME CPU_FEW CPU_MANY", one per analyzer per round.
"""
import os
import statistics
import sys
from collections import defaultdict

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from paired_stats import sign_interval, sign_test  # noqa: E402


def verdict(values, target, n):
    ci = sign_interval(values)
    if ci is None:
        return "", f"cannot decide with n = {n}"
    lo, hi, cover = ci
    text = f" [{lo:.1f}, {hi:.1f}] ({cover:.1%})"
    if hi <= target:
        return text, f"within {target:g} µs"
    if lo > target:
        return text, f"above {target:g} µs"
    return text, f"cannot decide with n = {n}"


def main():
    path, extra, target = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
    few, many, jobs = sys.argv[4:7]
    rounds = defaultdict(list)  # name -> [(cpu_few, cpu_many)]
    with open(path) as f:
        for line in f:
            name, a, b = line.split()
            rounds[name].append((float(a), float(b)))
    per_file = {}
    print(f"CPU per trace file beyond its events, -j {jobs}: ({few} files vs {many}, same events)")
    for name, runs in rounds.items():
        n = len(runs)
        per = [(b - a) / extra * 1e6 for a, b in runs]
        per_file[name] = per
        interval, word = verdict(per, target, n)
        print(f"  {name:7s} {n} rounds: CPU {few} files median {statistics.median(a for a, _ in runs):.2f} s, "
              f"{many} files {statistics.median(b for _, b in runs):.2f} s")
        print(f"          per file: median {statistics.median(per):.1f} µs{interval}: {word}")
        print("          rounds: " + " ".join(f"{v:.0f}" for v in per))
    if "before" in per_file and "after" in per_file:
        diff = [a - b for a, b in zip(per_file["before"], per_file["after"])]
        n = len(diff)
        ci = sign_interval(diff)
        p = sign_test(diff, 0)
        interval, word = "", f"cannot decide with n = {n}"
        if ci is not None:
            lo, hi, cover = ci
            interval = f" [{lo:.1f}, {hi:.1f}] ({cover:.1%})"
            if lo > 0:
                word = "after is cheaper"
            elif hi < 0:
                word = "after is dearer"
        print(f"  before - after, paired per round: median {statistics.median(diff):.1f} µs{interval}, "
              f"sign test p = {p:.3f}: {word}")


if __name__ == "__main__":
    main()
