"""Intervals for Monte Carlo proportions: every figure carries its n and a 95% interval.

>>> lo, hi = wilson_interval(2, 3)
>>> round(lo, 4), round(hi, 4)
(0.2077, 0.9385)
>>> wilson_interval(0, 10)[0], wilson_interval(10, 10)[1]
(0.0, 1.0)
"""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054
#: The rounded z that the best response's, the card verdicts' and the inference's reports
#: print their normal intervals with (their recorded figures were computed with it, so it
#: stays): Z95 to three figures, an interval 1.8e-5 of its half-width wider.
Z95_ROUNDED = 1.96


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (good near 0 and 1, and for small n)."""
    if n <= 0:
        raise ValueError("n must be positive")
    if not 0 <= successes <= n:
        raise ValueError("successes must lie in [0, n]")
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    # Exact ends: round-off must not push the bound past the estimate itself.
    lo = 0.0 if successes == 0 else max(0.0, min(p, centre - half))
    hi = 1.0 if successes == n else min(1.0, max(p, centre + half))
    return lo, hi


def mean_ci(x, z: float = Z95) -> dict:
    """``{"mean", "ci95", "n"}``: the mean of the values ``x`` (an array as it is, any
    other sequence as float64) with its normal interval, mean ± z·s/√n (s the sample
    standard deviation); the interval's ends are NaN for one value, the mean and the
    interval None for none."""
    if not isinstance(x, np.ndarray):
        x = np.asarray(x, dtype=np.float64)
    n = len(x)
    if n == 0:
        return {"mean": None, "ci95": None, "n": 0}
    m = float(x.mean())
    h = z * float(x.std(ddof=1)) / math.sqrt(n) if n > 1 else float("nan")
    return {"mean": m, "ci95": [m - h, m + h], "n": n}


def normal_ci(mean: float, se: float, z: float = Z95) -> list[float]:
    """The normal interval ``[mean - z·se, mean + z·se]``."""
    return [mean - z * se, mean + z * se]


def weighted_mean(counts, values) -> dict:
    """Mean of ``values[i]`` observed ``counts[i]`` times, with its standard error and
    normal 95% interval (NaN when n < 2; all NaN when n = 0)."""
    counts = np.asarray(counts, dtype=np.int64)
    values = np.asarray(values, dtype=float)
    n = int(counts.sum())
    if n == 0:
        return {"n": 0, "mean": math.nan, "se": math.nan, "ci95": [math.nan, math.nan]}
    mean = float(counts @ values) / n
    var = float(counts @ (values - mean) ** 2) / (n - 1) if n > 1 else math.nan
    se = math.sqrt(var / n) if n > 1 else math.nan
    return {"n": n, "mean": mean, "se": se, "ci95": normal_ci(mean, se)}


def paired_difference(table) -> dict:
    """Mean of ``a - b`` over deals from a 7 x 7 table of (a, b) counts (index = value + 3),
    with its standard error and normal 95% interval: the comparison of two strategies
    on the same deals (common random numbers)."""
    table = np.asarray(table, dtype=np.int64)
    if table.sum() == 0:
        raise ValueError("empty table")
    i, j = np.indices(table.shape)
    return weighted_mean(table.ravel(), (i - j).ravel())
