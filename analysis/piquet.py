"""Piquet figures from the kernels' integer counts: every rate with its Wilson 95% interval,
every mean with its normal 95% interval, every figure with its n."""

from __future__ import annotations

import math

import numpy as np

from analysis.stats import Z95, wilson_interval
from engine.piquet import simulate as S
from engine.piquet.whole import COMPONENTS


def rate(k: int, n: int) -> dict:
    lo, hi = wilson_interval(int(k), int(n))
    return {"count": int(k), "n": int(n), "rate": int(k) / int(n), "ci95": [lo, hi]}


def mean_from_sums(total: int, total_sq: int, n: int) -> dict:
    """Mean, SE and normal 95% interval of a variable from its sum and sum of squares."""
    n = int(n)
    mean = int(total) / n
    if n < 2:
        return {"n": n, "mean": mean, "se": math.nan, "ci95": [math.nan, math.nan]}
    var = max(0.0, (int(total_sq) - n * mean * mean) / (n - 1))
    se = math.sqrt(var / n)
    return {"n": n, "mean": mean, "se": se, "ci95": [mean - Z95 * se, mean + Z95 * se]}


def deal_summary(counts: np.ndarray) -> dict:
    """The ``piquet simulate`` figures from :func:`engine.piquet.simulate.deal_counts`."""
    c = [int(x) for x in counts]
    n = c[S.COL_DEALS]
    diff_sum = c[S.COL_ELDER_TOTAL] - c[S.COL_YOUNGER_TOTAL]
    hist_e = c[S.COL_HIST:S.COL_HIST + S.HIST]
    hist_y = c[S.COL_HIST + S.HIST:S.COL_HIST + 2 * S.HIST]
    comp = c[S.COL_COMPONENTS:S.COL_COMPONENTS + 20]
    return {
        "deals": n,
        "elder_wins": c[S.COL_ELDER_WINS],
        "younger_wins": c[S.COL_YOUNGER_WINS],
        "ties": c[S.COL_TIES],
        "mean_elder": c[S.COL_ELDER_TOTAL] / n,
        "mean_younger": c[S.COL_YOUNGER_TOTAL] / n,
        "carte_blanche_hands": c[S.COL_BLANCHE_E] + c[S.COL_BLANCHE_Y],
        "pique": c[S.COL_PIQUE],
        "repique": c[S.COL_REPIQUE_E] + c[S.COL_REPIQUE_Y],
        "capot": c[S.COL_CAPOT_E] + c[S.COL_CAPOT_Y],
        "intervals": {
            "elder_win_rate": rate(c[S.COL_ELDER_WINS], n),
            "younger_win_rate": rate(c[S.COL_YOUNGER_WINS], n),
            "tie_rate": rate(c[S.COL_TIES], n),
            "mean_elder": mean_from_sums(c[S.COL_ELDER_TOTAL], c[S.COL_ELDER_SQ], n),
            "mean_younger": mean_from_sums(c[S.COL_YOUNGER_TOTAL], c[S.COL_YOUNGER_SQ], n),
            "mean_difference": mean_from_sums(diff_sum, c[S.COL_DIFF_SQ], n),
            "carte_blanche_per_hand": rate(c[S.COL_BLANCHE_E] + c[S.COL_BLANCHE_Y], 2 * n),
        },
        "by_seat": {
            "elder": {"carte_blanche": rate(c[S.COL_BLANCHE_E], n),
                      "pique": rate(c[S.COL_PIQUE], n),
                      "repique": rate(c[S.COL_REPIQUE_E], n),
                      "capot": rate(c[S.COL_CAPOT_E], n),
                      "max_total": max(i for i, k in enumerate(hist_e) if k) if n else None},
            "younger": {"carte_blanche": rate(c[S.COL_BLANCHE_Y], n),
                        "pique": rate(0, n),
                        "repique": rate(c[S.COL_REPIQUE_Y], n),
                        "capot": rate(c[S.COL_CAPOT_Y], n),
                        "max_total": max(i for i, k in enumerate(hist_y) if k) if n else None},
        },
        "mean_components": {
            "elder": {name: comp[i] / n for i, name in enumerate(COMPONENTS)},
            "younger": {name: comp[10 + i] / n for i, name in enumerate(COMPONENTS)},
        },
        "histogram": {"elder": _trim(hist_e), "younger": _trim(hist_y)},
    }


def _trim(hist: list[int]) -> list[int]:
    last = max((i for i, k in enumerate(hist) if k), default=-1)
    return hist[:last + 1]


def partie_summary(counts: np.ndarray) -> dict:
    """The ``piquet partie`` figures from :func:`engine.piquet.simulate.partie_counts`;
    A is the first dealer (the player who won the cut and chose to deal)."""
    c = [int(x) for x in counts]
    n = c[S.P_PARTIES]
    return {
        "parties": n,
        "first_dealer_wins": c[S.P_A_WINS],
        "first_elder_wins": c[S.P_B_WINS],
        "drawn": c[S.P_DRAWN],
        "rubicons": c[S.P_RUBICONS],
        "tie_breaks": c[S.P_TIE_BREAKS],
        "intervals": {
            "first_dealer_win_rate": rate(c[S.P_A_WINS], n),
            "rubicon_rate": rate(c[S.P_RUBICONS], n),
            "tie_break_rate": rate(c[S.P_TIE_BREAKS], n),
            "first_dealer_settlement": mean_from_sums(c[S.P_A_POINTS], c[S.P_A_POINTS_SQ], n),
        },
        "mean_score": {"first_dealer": c[S.P_A_SCORE] / n, "first_elder": c[S.P_B_SCORE] / n},
    }
