"""Small statistics helpers for tests (no SciPy dependency)."""

import math


def chi2_upper(df: int, z: float = 4.0) -> float:
    """Wilson–Hilferty approximation of the chi-square quantile at normal score ``z``
    (z = 4: a false alarm about once in 30,000 runs)."""
    h = 2.0 / (9.0 * df)
    return df * (1.0 - h + z * math.sqrt(h)) ** 3


def chi2_stat(observed, expected) -> float:
    return float(sum((o - e) ** 2 / e for o, e in zip(observed, expected)))
