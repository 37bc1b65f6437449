"""Piquet figures from the kernels' integer counts: every rate with its Wilson 95% interval,
every mean with its normal 95% interval, every figure with its n."""

from __future__ import annotations

import math

import numpy as np

from ecarte_sim.analysis.stats.intervals import normal_ci, wilson_interval
from ecarte_sim.engine.piquet.records import DEAL_COUNTS, PARTIE_COUNTS, SCORE


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
    return {"n": n, "mean": mean, "se": se, "ci95": normal_ci(mean, se)}


def deal_summary(counts: np.ndarray) -> dict:
    """The ``piquet simulate`` figures from a ``DEAL_COUNTS`` row
    (:func:`ecarte_sim.engine.piquet.simulate.deal_counts`)."""
    c = DEAL_COUNTS.read(counts)
    n = c["deals"]
    diff_sum = c["elder_total"] - c["younger_total"]
    hist_e, hist_y = list(c["elder_hist"]), list(c["younger_hist"])
    blanche = c["carte_blanche_elder"] + c["carte_blanche_younger"]
    return {
        "deals": n,
        "elder_wins": c["elder_wins"],
        "younger_wins": c["younger_wins"],
        "ties": c["ties"],
        "mean_elder": c["elder_total"] / n,
        "mean_younger": c["younger_total"] / n,
        "carte_blanche_hands": blanche,
        "pique": c["pique"],
        "repique": c["repique_elder"] + c["repique_younger"],
        "capot": c["capot_elder"] + c["capot_younger"],
        "intervals": {
            "elder_win_rate": rate(c["elder_wins"], n),
            "younger_win_rate": rate(c["younger_wins"], n),
            "tie_rate": rate(c["ties"], n),
            "mean_elder": mean_from_sums(c["elder_total"], c["elder_total_sq"], n),
            "mean_younger": mean_from_sums(c["younger_total"], c["younger_total_sq"], n),
            "mean_difference": mean_from_sums(diff_sum, c["diff_sq"], n),
            "carte_blanche_per_hand": rate(blanche, 2 * n),
        },
        "by_seat": {
            "elder": {"carte_blanche": rate(c["carte_blanche_elder"], n),
                      "pique": rate(c["pique"], n),
                      "repique": rate(c["repique_elder"], n),
                      "capot": rate(c["capot_elder"], n),
                      "max_total": max(i for i, k in enumerate(hist_e) if k) if n else None},
            "younger": {"carte_blanche": rate(c["carte_blanche_younger"], n),
                        "pique": rate(0, n),
                        "repique": rate(c["repique_younger"], n),
                        "capot": rate(c["capot_younger"], n),
                        "max_total": max(i for i, k in enumerate(hist_y) if k) if n else None},
        },
        "mean_components": {
            seat: {name: total / n for name, total in zip(SCORE.fields, c[f"{seat}_score"])}
            for seat in ("elder", "younger")
        },
        "histogram": {"elder": _trim(hist_e), "younger": _trim(hist_y)},
    }


def _trim(hist: list[int]) -> list[int]:
    last = max((i for i, k in enumerate(hist) if k), default=-1)
    return hist[:last + 1]


def partie_summary(counts: np.ndarray) -> dict:
    """The ``piquet partie`` figures from a ``PARTIE_COUNTS`` row
    (:func:`ecarte_sim.engine.piquet.simulate.partie_counts`); A is the first dealer (the
    player who won the cut and chose to deal), B the first elder."""
    c = PARTIE_COUNTS.read(counts)
    n = c["parties"]
    return {
        "parties": n,
        "first_dealer_wins": c["a_wins"],
        "first_elder_wins": c["b_wins"],
        "drawn": c["drawn"],
        "rubicons": c["rubicons"],
        "tie_breaks": c["tie_breaks"],
        "intervals": {
            "first_dealer_win_rate": rate(c["a_wins"], n),
            "rubicon_rate": rate(c["rubicons"], n),
            "tie_break_rate": rate(c["tie_breaks"], n),
            "first_dealer_settlement": mean_from_sums(c["a_points"], c["a_points_sq"], n),
        },
        "mean_score": {"first_dealer": c["a_score"] / n, "first_elder": c["b_score"] / n},
    }
