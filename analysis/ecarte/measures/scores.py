"""Who wins the game from every score: an exact recursion over the per-deal outcome
distribution (Law 46: five up; the deal alternates; the game ends the moment a mark
reaches five, the marks of a deal being made in the order of the laws).

A deal's outcome is a code of :data:`ecarte_sim.engine.ecarte.records.KINGS` x ``POINTS``
(the ``deal`` field of the ``whole_counts`` columns): who marked a king (turned up, Law 22; in
hand, Laws 23-24, elder first) and who won the point or vole and how many marks it
gave (Laws 48-49). With policies that do not look at the score, the distribution is
the same at every score, and

    V[x, y] = sum_o p(o) * (1 if the elder reaches five first,
                            0 if the dealer does,
                            else 1 - V[y', x'])

is the probability that the player about to be **elder** (score ``x``) wins against
the dealer (score ``y``); after the deal the roles swap. Every deal gives at least one
mark, so ``x + y`` grows and the recursion is a finite sweep from the highest total down.
"""

from __future__ import annotations

import numpy as np

from ecarte_sim.engine.ecarte.laws.score import TARGET  # noqa: F401 - five up, re-exported
from ecarte_sim.engine.ecarte.records import COUNTS, KINGS, POINTS

N_CODES = len(KINGS) * len(POINTS)
_NO_POINT = len(POINTS) - 1


def replay(x: int, y: int, code: int, target: int = TARGET) -> tuple[int, int, str | None]:
    """Scores after a deal with outcome ``code`` from elder ``x``, dealer ``y``, and who
    reached ``target`` first (``"elder"``, ``"dealer"`` or None)."""
    king, points = divmod(int(code), len(POINTS))
    if king == 1 or king == 3:
        y += 1
    elif king == 2:
        x += 1
    if y >= target:
        return x, y, "dealer"
    if x >= target:
        return x, y, "elder"
    if points in (0, 1):
        x += points + 1
    elif points in (2, 3):
        y += points - 1
    if x >= target:
        return x, y, "elder"
    if y >= target:
        return x, y, "dealer"
    return x, y, None


def outcome_distribution(counts: np.ndarray) -> tuple[np.ndarray, int]:
    """(probabilities of the 20 outcome codes, n) from ``whole_counts`` output."""
    cells = np.asarray(counts[COUNTS.slice("deal")], dtype=np.int64)
    n = int(cells.sum())
    if n == 0:
        raise ValueError("no deals")
    return cells / n, n


def win_probabilities(p, target: int = TARGET) -> np.ndarray:
    """``V[x, y]`` for ``0 <= x, y < target`` (see the module docstring)."""
    p = np.asarray(p, dtype=float)
    if p.shape != (N_CODES,) or (p < 0).any() or abs(p.sum() - 1) > 1e-9:
        raise ValueError("p must be 20 probabilities summing to 1")
    if any(p[5 * k + _NO_POINT] > 0 for k in range(len(KINGS))):
        raise ValueError("outcomes with no point come only from runs stopped at a target; "
                         "use a distribution from untruncated deals")
    return recursion(lambda x, y: p, target)


def recursion(outcomes, target: int = TARGET) -> np.ndarray:
    """``V`` when the deal's outcome distribution may depend on the score:
    ``outcomes(x, y)`` gives the 20 outcome probabilities of a deal played from elder
    ``x``, dealer ``y``; swept from the highest total down (Law 46; every deal gives at
    least one mark)."""
    v = np.zeros((target, target))
    for total in range(2 * target - 2, -1, -1):
        for x in range(max(0, total - target + 1), min(total, target - 1) + 1):
            y = total - x
            row = outcomes(x, y)
            value = 0.0
            for code in np.flatnonzero(row):
                x2, y2, winner = replay(x, y, code, target)
                if winner == "elder":
                    value += row[code]
                elif winner is None:
                    value += row[code] * (1.0 - v[y2, x2])
            v[x, y] = value
    return v


def player_win_probability(v: np.ndarray, mine: int, theirs: int, i_deal: bool) -> float:
    """Probability that a player at ``mine`` beats one at ``theirs`` when the next deal is
    his (``i_deal``) or the opponent's."""
    return 1.0 - v[theirs, mine] if i_deal else float(v[mine, theirs])


def player_tables(v: np.ndarray, lo: np.ndarray, hi: np.ndarray) -> dict:
    """``V`` and its interval seen by one player, rows = his score, columns = the
    opponent's: when the next deal is his (``1 - V`` transposed: the opponent is elder) and
    when it is the opponent's (``V``: he is elder). Plain lists, for JSON."""
    return {"i_deal_next": (1 - v.T).tolist(),
            "i_deal_next_ci95": np.stack([1 - hi.T, 1 - lo.T], axis=-1).tolist(),
            "opponent_deals_next": v.tolist(),
            "opponent_deals_next_ci95": np.stack([lo, hi], axis=-1).tolist()}


def win_table(counts: np.ndarray, bootstrap: int = 200, seed: int = 0) -> dict:
    """``V`` from ``whole_counts`` output, with 95% intervals per cell from a parametric
    bootstrap (outcome counts redrawn from the multinomial of the observed frequencies,
    ``bootstrap`` times; percentile interval). Returns V, lo, hi (5 x 5 arrays) and n."""
    p, n = outcome_distribution(counts)
    v = win_probabilities(p)
    rng = np.random.default_rng(seed)
    reps = np.empty((bootstrap, *v.shape))
    for b in range(bootstrap):
        reps[b] = win_probabilities(rng.multinomial(n, p) / n)
    lo, hi = np.percentile(reps, [2.5, 97.5], axis=0) if bootstrap else (v, v)
    return {"v": v, "lo": lo, "hi": hi, "n": n, "p": p}
