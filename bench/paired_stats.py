"""Order-statistic intervals for the benchmarks' paired rounds: the
median of per-round values with a sign-test interval, no assumption on the
distribution (a shared VM's run times are skewed by whatever else runs).
Imported by the bench scripts' summaries (bench/runtime/ior_darshan_summary.py,
bench/analysis/per_file_cpu.py)."""
import math


def sign_interval(values, level=0.95):
    """The widest order-statistic interval [x_(k), x_(n-k+1)] whose
    coverage of the median is at least `level`, with that coverage, or None
    if n is too small."""
    xs = sorted(values)
    n = len(xs)
    best = None
    for k in range(1, n // 2 + 1):
        # P(Binomial(n, 1/2) <= k - 1), each tail
        tail = sum(math.comb(n, i) for i in range(k)) / 2 ** n
        if 1 - 2 * tail >= level:
            best = (xs[k - 1], xs[n - k], 1 - 2 * tail)
    return best


def sign_test(values, centre):
    """Two-sided sign test of median `centre`."""
    below = sum(1 for v in values if v < centre)
    above = sum(1 for v in values if v > centre)
    n = below + above
    if n == 0:
        return 1.0
    k = min(below, above)
    return min(1.0, 2 * sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n)
