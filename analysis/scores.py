"""Who wins the game from every score: an exact recursion over the per-deal outcome
distribution (Law 46: five up; the deal alternates; the game ends the moment a mark
reaches five, the marks of a deal being made in the order of the laws).

A deal's outcome is a code of :data:`engine.ecarte.whole.KINGS` x ``POINTS``
(``whole_counts`` columns ``COL_DEAL ...``): who marked a king (turned up, Law 22; in
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

from engine.ecarte.whole import COL_DEAL, KINGS, POINTS

TARGET = 5
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
    cells = np.asarray(counts[COL_DEAL:COL_DEAL + N_CODES], dtype=np.int64)
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
    v = np.zeros((target, target))
    for total in range(2 * target - 2, -1, -1):
        for x in range(max(0, total - target + 1), min(total, target - 1) + 1):
            y = total - x
            value = 0.0
            for code in np.flatnonzero(p):
                x2, y2, winner = replay(x, y, code, target)
                if winner == "elder":
                    value += p[code]
                elif winner is None:
                    value += p[code] * (1.0 - v[y2, x2])
            v[x, y] = value
    return v


def player_win_probability(v: np.ndarray, mine: int, theirs: int, i_deal: bool) -> float:
    """Probability that a player at ``mine`` beats one at ``theirs`` when the next deal is
    his (``i_deal``) or the opponent's."""
    return 1.0 - v[theirs, mine] if i_deal else float(v[mine, theirs])
