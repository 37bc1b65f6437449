"""Precision-driven runs: simulate deals ``[0, n)`` for a growing ``n`` until every headline
95% interval is narrow enough.

The checkpoints ``n`` grow from a first batch up to a cap — doubling by default; a finer
``growth`` (the claims' class samples use 1.1) overshoots the ``n`` a target needs by less,
for more checks — so where a run stops depends only on the counts, which are bit-identical
for any thread count, and a run is still a pure function of (seed, range of deal indices):
rerunning it stops at the same ``n``.
"""

from __future__ import annotations

import math
from collections.abc import Callable

FIRST_BATCH = 1 << 14
#: The half-width of 95% interval a precision-driven run aims at, unless told otherwise
#: (``ecarte-sim hand`` and ``claims`` ``--precision``).
DEFAULT_PRECISION = 0.005


def checkpoints(cap: int, deals: int | None = None, first: int = FIRST_BATCH,
                growth: float = 2.0) -> list[int]:
    """``[deals]`` when the count is fixed, else ``first, 2 first, ...`` up to ``cap``
    (each checkpoint ``ceil(growth * previous)``; ``growth`` 2 doubles)."""
    if deals is not None:
        return [int(deals)]
    if cap < 1 or first < 1:
        raise ValueError("cap and first batch must be positive")
    if not growth > 1:
        raise ValueError("growth must exceed 1")
    out, n = [], min(first, cap)
    while True:
        out.append(n)
        if n >= cap:
            return out
        n = min(max(n + 1, math.ceil(growth * n)), cap)


def run_until(step: Callable[[int, int], object], points: list[int],
              check: Callable[[object], tuple[bool, float, dict]],
              history: list | None = None, label: str = ""):
    """Sum ``step(lo, hi)`` over ``[0, n)`` for ``n`` in ``points`` until ``check(total)``
    returns ``(done, worst half-width, estimates)`` with ``done`` true. Returns
    ``(total, n, worst half-width)``; appends one row per checkpoint to ``history``."""
    total, done, worst = None, 0, float("inf")
    for n in points:
        part = step(done, n)
        total = part if total is None else total + part
        done = n
        ok, worst, estimates = check(total)
        if history is not None:
            history.append({"experiment": label, "deals": done, "worst_half_width": worst,
                            **estimates})
        if ok:
            break
    return total, done, worst
