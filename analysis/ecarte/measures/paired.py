"""Reading the joint tables of paired experiments (:mod:`ecarte_sim.engine.ecarte.deals.experiments`).

A table counts deals by (arm code under a, arm code under b). Everything a claim needs is a
function of one arm code — the point, the vole, the marks, the game-win probability at a
score — so every statistic is a weighted sum over the table, and a comparison of the two
arms is the mean of ``f(a) - f(b)`` over the *same* deals with its paired standard error.
"""

from __future__ import annotations

import math

import numpy as np

from ecarte_sim.analysis.ecarte.measures.scores import TARGET, replay
from ecarte_sim.analysis.stats.intervals import weighted_mean, wilson_interval
from ecarte_sim.engine.ecarte.deals.experiments import (ARM_FIRST, ARM_KING, ARM_MARKS_DEALER,
                                                        ARM_MARKS_ELDER, ARM_NET, ARM_OUTCOME,
                                                        ARM_POINTS_DEALER, ARM_POINTS_ELDER, N_ARM)
from ecarte_sim.engine.ecarte.search.solver import DEALER_VOLE, ELDER_POINT, ELDER_VOLE

FIRST, KING, OUTCOME = ARM_FIRST, ARM_KING, ARM_OUTCOME
#: The elder's and the dealer's marks in the deal (kings included), per arm code.
MARKS_ELDER, MARKS_DEALER, NET = ARM_MARKS_ELDER, ARM_MARKS_DEALER, ARM_NET
ELDER_WINS_POINT = (OUTCOME >= ELDER_POINT).astype(float)
ELDER_WINS_VOLE = (OUTCOME == ELDER_VOLE).astype(float)
DEALER_WINS_VOLE = (OUTCOME == DEALER_VOLE).astype(float)


def deal_code(code: int) -> int:
    """The ``whole_counts`` deal code (``5 * king + points``) of an arm code."""
    pe, pd = ARM_POINTS_ELDER[code], ARM_POINTS_DEALER[code]
    points = pe - 1 if pe else 1 + pd
    return 5 * int(KING[code]) + int(points)


def game_value(v: np.ndarray, x: int, y: int) -> np.ndarray:
    """Per arm code: the probability that the elder, at ``x`` against the dealer's ``y``,
    wins the game after a deal with that outcome (1 or 0 if a mark ends it, else
    ``1 - V[y', x']`` — he deals next), ``V`` from :func:`analysis.scores.win_probabilities`."""
    out = np.empty(N_ARM)
    for code in range(N_ARM):
        x2, y2, winner = replay(x, y, deal_code(code), TARGET)
        out[code] = 1.0 if winner == "elder" else 0.0 if winner == "dealer" \
            else 1.0 - v[y2, x2]
    return out


def mean_of(counts: np.ndarray, f: np.ndarray) -> dict:
    """Mean of ``f`` over one arm's code counts, with SE and normal 95% interval."""
    return weighted_mean(counts, f)


def proportion(counts: np.ndarray, event: np.ndarray) -> dict:
    """P(event) over one arm's code counts with its Wilson 95% interval."""
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    if n == 0:
        return {"n": 0, "p": math.nan, "ci95": [math.nan, math.nan]}
    k = int(counts[event.astype(bool)].sum())
    return {"n": n, "p": k / n, "ci95": list(wilson_interval(k, n))}


def paired_mean(joint: np.ndarray, fa: np.ndarray, fb: np.ndarray | None = None) -> dict:
    """Mean of ``fa(a) - fb(b)`` over the deals of a square joint table (48 x 48 arm codes,
    or the strategy's 16 x 16 marks codes), with the paired standard error and normal 95%
    interval (``fb`` defaults to ``fa``)."""
    fb = fa if fb is None else fb
    joint = np.asarray(joint, dtype=np.int64)
    d = fa[:, None] - fb[None, :]
    return mean_of(joint.ravel(), d.ravel())


def unpaired_se(joint: np.ndarray, fa: np.ndarray, fb: np.ndarray | None = None) -> float:
    """The standard error the same difference would have from two independent samples of
    the same size (for showing what pairing buys)."""
    fb = fa if fb is None else fb
    a = mean_of(joint.sum(axis=1), fa)
    b = mean_of(joint.sum(axis=0), fb)
    return math.sqrt(a["se"] ** 2 + b["se"] ** 2)


def arm_summary(counts: np.ndarray) -> dict:
    """P(point), P(vole), expected marks (elder minus dealer, kings and Law 49 included)."""
    point = proportion(counts, ELDER_WINS_POINT)
    vole = proportion(counts, ELDER_WINS_VOLE)
    marks = mean_of(counts, NET.astype(float))
    return {"n": point["n"], "point": point["p"], "point_ci95": point["ci95"],
            "vole": vole["p"], "vole_ci95": vole["ci95"], "expected_points": marks["mean"],
            "expected_points_ci95": marks["ci95"]}


def exact_summary(counts: np.ndarray) -> dict:
    """:func:`arm_summary` for an exhaustive enumeration: the figures are exact."""
    counts = np.asarray(counts, dtype=np.int64)
    n = int(counts.sum())
    point = float(counts @ ELDER_WINS_POINT) / n
    vole = float(counts @ ELDER_WINS_VOLE) / n
    marks = float(counts @ NET) / n
    return {"n": n, "point": point, "point_ci95": [point, point], "vole": vole,
            "vole_ci95": [vole, vole], "expected_points": marks,
            "expected_points_ci95": [marks, marks]}


def half_width(ci: list) -> float:
    return (ci[1] - ci[0]) / 2
