"""A first decision resolved hand by hand: each state's noisy gain pooled with the states
alike.

A solve samples 8–16 deals a state (:func:`~ecarte_sim.analysis.ecarte.solving.proposal_game.marks_tables`),
so a state's gain of one action over the other has a standard error of about 0.1 in
P(win the game) while the gaps that matter are 0.01–0.15: most states stay unresolved,
and :func:`~ecarte_sim.analysis.ecarte.solving.proposal_game.best_response` keeps the action it
replaces there (at first the treatise's). Here every state borrows strength from the
255,304 others (empirical Bayes, as in a hierarchical model of the gains):

* :func:`hand_features` — what a hand is made of, for the model: each trump it holds and
  the turned-up card's rank, and per number of trumps the plain suits' kings, queens,
  knaves, aces, their lengths and voids, singleton and guarded kings.
* :func:`shrink` — a weighted least-squares fit of the states' sampled gains on their
  features, separately for each number of trumps held with or without the king of trumps
  (the fit is on every sampled deal
  of every state: each state's gain weighted by its deals), then each state's gain
  shrunk toward its fitted value by the ratio of the spread the features leave
  unexplained (``tau²``, by moments) to the state's own noise (``se²``): the posterior
  mean and standard deviation of a normal model.
* :func:`resolve` — the better action of each state at one score, read from the posterior
  mean's sign (the state's own deals decide where they are precise, the states alike
  where they are not).

Measured against the per-hand audit (:mod:`~ecarte_sim.analysis.ecarte.advice.audit`) on hands
and deals the fit never saw.
"""

from __future__ import annotations

import numpy as np

from ecarte_sim.engine.cards import N_RANKS, N_SUITS

#: The fit's groups: trumps held (0-5), and whether the king of trumps is among them.
N_TRUMP_COUNTS = 6
_KING_HELD = 1 + 7                      # the feature column of the king of trumps
#: States a group needs for its own tau² (fewer: the spread of all the states).
GROUP_MOMENT = 2000
#: Écarté rank bits inside a suit's byte (engine/cards): 7 8 9 10 A J Q K.
_K, _Q, _J, _A = 7, 6, 5, 4


def hand_features(hands: np.ndarray, turn_ups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(features (n, p) float, trumps held (n,) int) of each hand with its turn-up."""
    hands = np.asarray(hands, dtype=np.int64)
    turn_ups = np.asarray(turn_ups, dtype=np.int64)
    trump = turn_ups >> 3
    n = hands.shape[0]
    suits = np.stack([(hands >> (8 * s)) & 0xFF for s in range(N_SUITS)], axis=1)   # (n, 4)
    is_trump = np.arange(N_SUITS)[None, :] == trump[:, None]
    trump_byte = suits[np.arange(n), trump]
    plain = np.where(is_trump, 0, suits)
    bit = lambda byte, r: (byte >> r) & 1                                          # noqa: E731
    length = np.zeros_like(plain)
    for r in range(N_RANKS):
        length += bit(plain, r)
    cols = [np.ones(n)]
    cols += [bit(trump_byte, r) for r in range(N_RANKS)]                   # each trump held
    cols += [(turn_ups & 7) == r for r in range(N_RANKS)]                  # the turn-up's rank
    for r in (_K, _Q, _J, _A):                                             # plain honours
        held = bit(plain, r) * ~is_trump
        cols.append(held.sum(axis=1))
    plain_len = np.where(is_trump, -1, length)
    cols.append((plain_len == 0).sum(axis=1))                              # plain voids
    longest = plain_len.max(axis=1)
    cols += [longest == k for k in range(1, 6)]
    king_alone = (bit(plain, _K) == 1) & (length == 1) & ~is_trump
    king_guarded = (bit(plain, _K) == 1) & (length >= 2) & ~is_trump
    queen_guarded = (bit(plain, _Q) == 1) & (length >= 2) & ~is_trump
    kq = (bit(plain, _K) == 1) & (bit(plain, _Q) == 1) & ~is_trump
    cols += [king_alone.sum(axis=1), king_guarded.sum(axis=1), queen_guarded.sum(axis=1),
             kq.sum(axis=1)]
    low = np.zeros(n)
    for r in range(4):                                                     # plain 7 8 9 10
        low = low + (bit(plain, r) * ~is_trump).sum(axis=1)
    cols.append(low)
    x = np.stack([np.asarray(c, dtype=np.float64) for c in cols], axis=1)
    held = np.zeros(n, dtype=np.int64)
    for r in range(N_RANKS):
        held += bit(trump_byte, r)
    return x, held


def shrink(gain: np.ndarray, se: np.ndarray, deals: np.ndarray, x: np.ndarray,
           groups: np.ndarray, floor: float = 1e-4) -> dict:
    """Posterior mean and sd of each state's gain (module docstring). ``gain``/``se``: the
    states' sampled gains and standard errors (NaN where not estimated: those states get
    the fitted value and the fit's spread); ``deals``: deals behind each gain (the fit's
    weights); ``groups``: the fit is made per group (trumps held)."""
    gain = np.asarray(gain, dtype=np.float64)
    se = np.asarray(se, dtype=np.float64)
    ok = np.isfinite(gain) & np.isfinite(se)
    fitted = np.zeros_like(gain)
    excess = np.full_like(gain, np.nan)         # each state's squared residual less its noise
    for g in np.unique(groups):
        sel = groups == g
        fit = sel & ok
        if fit.sum() < x.shape[1] + 2:
            fitted[sel] = np.nanmean(gain[fit]) if fit.any() else 0.0
        else:
            w = np.sqrt(deals[fit].astype(np.float64))
            beta, *_ = np.linalg.lstsq(x[fit] * w[:, None], gain[fit] * w, rcond=None)
            fitted[sel] = x[sel] @ beta
        excess[fit] = (gain[fit] - fitted[fit]) ** 2 - se[fit] ** 2
    # tau², by moments: the residuals' spread is tau² plus each state's own noise; per
    # group where it holds enough states to say, else the spread of all the states
    def moment(sel):
        return max(float(np.average(excess[sel], weights=deals[sel])), floor ** 2) \
            if sel.any() else floor ** 2
    pooled = moment(ok)
    tau2 = np.full_like(gain, pooled)
    for g in np.unique(groups):
        sel = (groups == g) & ok
        if sel.sum() >= GROUP_MOMENT:
            tau2[groups == g] = moment(sel)
    s2 = np.where(ok, np.maximum(se, floor) ** 2, np.inf)
    weight = tau2 / (tau2 + s2)
    mean = fitted + np.where(ok, weight * (np.nan_to_num(gain) - fitted), 0.0)
    sd = np.sqrt(tau2 * (1 - weight))
    return {"mean": mean, "sd": sd, "fitted": fitted, "tau": np.sqrt(tau2), "weight": weight}


def resolve(gain: np.ndarray, se: np.ndarray, deals: np.ndarray, hands: np.ndarray,
            turn_ups: np.ndarray) -> dict:
    """The better action of each state (True: arm a, propose or accept) at one score, by
    the posterior mean's sign, with :func:`shrink`'s figures."""
    x, held = hand_features(hands, turn_ups)
    post = shrink(gain, se, deals, x, held + (N_TRUMP_COUNTS * x[:, _KING_HELD]).astype(
        np.int64))
    return {"table": post["mean"] > 0, **post}


__all__ = ["hand_features", "shrink", "resolve"]
